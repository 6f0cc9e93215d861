//! A crew of threads that step a run's shards together, cycle by cycle, each cycle between two
//! barriers: with T threads, thread t (the caller's is thread 0) steps shards t, t + T, t + 2T…
//! (No more threads than cores are worth having: waiting threads spin.)
//!
//! A cycle's work on a large network is a fraction of a millisecond, so the threads stay up
//! for the whole run and meet by spinning (yielding now and then, so that more threads than
//! cores still make progress), not by sleeping and being woken: a pool's wake-up each cycle
//! cost about a tenth of the run on two cores.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Spins between yields while waiting at a barrier.
const SPINS: u32 = 1 << 10;

/// The shards of a run and the threads that step them (see the module docs). Between cycles
/// the caller's thread holds every shard (`crew[i]`); during a cycle each helper holds its own.
pub(crate) struct Crew<'a, S, A> {
    shards: &'a [Padded<Mutex<S>>],
    held: Vec<Option<MutexGuard<'a, S>>>,
    threads: usize,
    /// By thread: whether this thread steps its shards (thread 0's, and a thread's that could
    /// not be started: the run is the same, only slower), and the helpers running.
    here: Vec<bool>,
    helpers: usize,
    step: &'a (dyn Fn(&mut S, A) + Sync),
    meet: &'a Meeting<A>,
}

/// A shard on cache lines of its own: shards written on different cores side by side in
/// memory would otherwise share a line, and the line would bounce between the cores.
#[repr(align(128))]
struct Padded<T>(T);

/// What the threads share: the cycle's argument, the cycle's number, the shards done.
struct Meeting<A> {
    arg: Mutex<Option<A>>,
    generation: AtomicU64,
    done: AtomicUsize,
    /// The run is over (or a thread failed): the helpers leave.
    stop: AtomicBool,
    failed: AtomicBool,
}

impl<'a, S: Send, A: Copy + Send> Crew<'a, S, A> {
    /// Steps every shard with `arg`, this thread's here and the others' on theirs, and returns
    /// once all are done. (One thread takes no lock: it holds its shards throughout.)
    pub fn step_all(&mut self, arg: A) {
        let (n, threads, helpers) = (self.shards.len(), self.threads, self.helpers);
        if helpers > 0 {
            for i in 0..n {
                if !self.here[i % threads] {
                    self.held[i] = None;
                }
            }
            *self.meet.arg.lock().unwrap_or_else(PoisonError::into_inner) = Some(arg);
            self.meet.done.store(0, Ordering::Relaxed);
            self.meet.generation.fetch_add(1, Ordering::Release);
        }
        for i in 0..n {
            if self.here[i % threads] {
                (self.step)(self.held[i].as_deref_mut().expect("held between cycles"), arg);
            }
        }
        if helpers == 0 {
            return;
        }
        wait(|| {
            self.meet.done.load(Ordering::Acquire) == helpers || self.meet.failed.load(Ordering::Acquire)
        });
        assert!(!self.meet.failed.load(Ordering::Acquire), "a thread of the run failed");
        for i in 0..n {
            if !self.here[i % threads] {
                self.held[i] = Some(lock(&self.shards[i].0));
            }
        }
    }

    /// How many shards.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// The shards, between cycles.
    pub fn iter(&self) -> impl Iterator<Item = &S> {
        (0..self.len()).map(|i| &self[i])
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut S> {
        self.held.iter_mut().map(|g| g.as_deref_mut().expect("held between cycles"))
    }
}

impl<S, A> std::ops::Index<usize> for Crew<'_, S, A> {
    type Output = S;

    /// Shard `i`, between cycles.
    fn index(&self, i: usize) -> &S {
        self.held[i].as_deref().expect("held between cycles")
    }
}

impl<S, A> std::ops::IndexMut<usize> for Crew<'_, S, A> {
    fn index_mut(&mut self, i: usize) -> &mut S {
        self.held[i].as_deref_mut().expect("held between cycles")
    }
}

/// `m` locked (a thread that failed holding it has already made the run fail).
fn lock<S>(m: &Mutex<S>) -> MutexGuard<'_, S> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Spins until `ready`, yielding the core every [`SPINS`] tries.
#[inline]
fn wait(ready: impl Fn() -> bool) {
    let mut tries = 0u32;
    while !ready() {
        tries += 1;
        if tries.is_multiple_of(SPINS) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

/// Runs `body` with a crew of `threads` (the caller's among them; at most one a shard)
/// stepping `shards` by `step`, and gives back its result and the shards.
pub(crate) fn with_crew<S: Send, A: Copy + Send, T>(
    shards: Vec<S>,
    threads: usize,
    step: impl Fn(&mut S, A) + Sync,
    body: impl FnOnce(&mut Crew<S, A>) -> T,
) -> (T, Vec<S>) {
    let shards: Vec<Padded<Mutex<S>>> = shards.into_iter().map(|s| Padded(Mutex::new(s))).collect();
    let sync = Meeting {
        arg: Mutex::new(None),
        generation: AtomicU64::new(0),
        done: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        failed: AtomicBool::new(false),
    };
    let threads = threads.clamp(1, shards.len().max(1));
    let held = shards.iter().map(|s| Some(lock(&s.0))).collect();
    let out = std::thread::scope(|scope| {
        // Whatever way the body ends, the helpers leave (a panic here would otherwise leave
        // the scope waiting for them forever).
        let _stop = Stop(&sync);
        let mut here = vec![true; threads];
        for (t, here) in here.iter_mut().enumerate().skip(1) {
            let (mine, sync, step) = (&shards[t..], &sync, &step);
            // (A thread that cannot start, under a memory limit say, leaves its shards to
            // this one.)
            let started = std::thread::Builder::new()
                .name(format!("netwrap-shard-{t}"))
                .spawn_scoped(scope, move || helper(mine, threads, step, sync));
            *here = started.is_err();
        }
        let helpers = here.iter().filter(|h| !**h).count();
        let mut crew = Crew { shards: &shards, held, threads, here, helpers, step: &step, meet: &sync };
        body(&mut crew)
    });
    (out, shards.into_iter().map(|m| m.0.into_inner().unwrap_or_else(PoisonError::into_inner)).collect())
}

/// A helper thread: steps its shards (`shards`' every `threads`th from the first) each cycle
/// until the run stops.
fn helper<S, A: Copy>(
    shards: &[Padded<Mutex<S>>],
    threads: usize,
    step: &(dyn Fn(&mut S, A) + Sync),
    sync: &Meeting<A>,
) {
    // A panic in a step tells the caller's thread, which would otherwise wait for it forever.
    let _failed = Failed(sync);
    let mut seen = 0;
    loop {
        wait(|| sync.generation.load(Ordering::Acquire) != seen || sync.stop.load(Ordering::Acquire));
        if sync.stop.load(Ordering::Acquire) {
            return;
        }
        seen = sync.generation.load(Ordering::Acquire);
        let arg =
            sync.arg.lock().unwrap_or_else(PoisonError::into_inner).expect("set before the cycle starts");
        for shard in shards.iter().step_by(threads) {
            step(&mut lock(&shard.0), arg);
        }
        sync.done.fetch_add(1, Ordering::Release);
    }
}

struct Stop<'a, A>(&'a Meeting<A>);

impl<A> Drop for Stop<'_, A> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Release);
    }
}

struct Failed<'a, A>(&'a Meeting<A>);

impl<A> Drop for Failed<'_, A> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.failed.store(true, Ordering::Release);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shard is stepped once per cycle with that cycle's argument, on any number of
    /// threads (more than cores included, fewer than shards, more than shards), and the
    /// shards come back in order.
    #[test]
    fn every_shard_steps_once_a_cycle() {
        for (n, threads) in [(1, 1), (2, 2), (3, 2), (5, 5), (5, 3), (4, 9)] {
            let shards: Vec<Vec<u64>> = (0..n).map(|_| Vec::new()).collect();
            let (sum, shards) = with_crew(
                shards,
                threads,
                |s: &mut Vec<u64>, now: u64| s.push(now),
                |crew| {
                    let mut sum = 0;
                    for now in 0..200 {
                        crew.step_all(now);
                        sum += crew.iter().map(|s| s.len()).sum::<usize>();
                    }
                    sum
                },
            );
            assert_eq!(sum, n * (1..=200).sum::<usize>());
            for s in shards {
                assert_eq!(s, (0..200).collect::<Vec<u64>>());
            }
        }
    }

    /// A panic in a helper's step reaches the caller as a panic, not a hang.
    #[test]
    fn a_failed_step_panics_the_run_instead_of_hanging() {
        let r = std::panic::catch_unwind(|| {
            with_crew(
                vec![0u32, 1],
                2,
                |s: &mut u32, now: u64| assert!(!(*s == 1 && now == 3), "shard 1 fails"),
                |crew| (0..10).for_each(|now| crew.step_all(now)),
            )
        });
        assert!(r.is_err());
    }
}
