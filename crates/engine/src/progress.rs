//! A run's progress as it goes, for a caller that shows it (netwrap's progress bar).
//!
//! The engines never print: they count the cycles they have simulated into a shared
//! [`Progress`] that the caller reads from another thread whenever it likes. The count only
//! observes — a run with a counter attached gives bit-identical results to one without — and
//! it stays out of the hot loop: an engine adds to it at most once every
//! [`Progress::EVERY`] simulated cycles (or when it jumps over idle time past that mark), with
//! `Relaxed` ordering, and without a counter it compares one integer per loop iteration
//! against `u64::MAX`.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Simulated cycles counted so far, shared between runs and whoever watches them, and a way
/// for the watcher to stop them ([`Progress::cancel`]: Ctrl-C in Python).
///
/// One counter may be attached to many runs at once (a sweep's points on several threads):
/// each adds the cycles it simulates, so the count is their total. When a run ends its
/// contribution is exactly its simulated cycles (the report's `cycles`).
#[derive(Clone, Default)]
pub struct Progress(Arc<Shared>);

#[derive(Default)]
struct Shared {
    cycles: AtomicU64,
    cancelled: AtomicBool,
}

impl Progress {
    /// Simulated cycles between two updates of the counter by a run: rare enough to cost
    /// nothing (an engine simulates millions of cycles a second on small networks), frequent
    /// enough for a display refreshed a few times a second on large ones.
    pub const EVERY: u64 = 4096;

    /// A counter at zero.
    pub fn new() -> Self {
        Progress::default()
    }

    /// Simulated cycles counted so far, over every run attached.
    pub fn cycles(&self) -> u64 {
        self.0.cycles.load(Ordering::Relaxed)
    }

    /// Asks every run attached to stop: each notices at its next update of the counter (within
    /// [`Progress::EVERY`] simulated cycles) and ends with [`crate::StopReason::Cancelled`].
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`Progress::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Relaxed)
    }

    /// Adds `cycles`.
    pub(crate) fn add(&self, cycles: u64) {
        self.0.cycles.fetch_add(cycles, Ordering::Relaxed);
    }

    /// Takes back `cycles` counted ahead of where the run ended.
    pub(crate) fn sub(&self, cycles: u64) {
        self.0.cycles.fetch_sub(cycles, Ordering::Relaxed);
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Progress({})", self.cycles())
    }
}

/// Two handles are equal when they share one counter (a [`crate::Record`] compares
/// what it records, not the count so far).
impl PartialEq for Progress {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A run's side of a [`Progress`]: when to add next and what it has added, kept in the
/// engine's measurement bookkeeping.
pub(crate) struct Reporter {
    progress: Option<Progress>,
    /// The cycle at or after which the run adds next; `u64::MAX` without a counter, so the
    /// engine's per-iteration check never passes.
    next: u64,
    /// Cycles this run has added so far.
    added: u64,
    /// The watcher asked the run to stop (seen at the last update).
    cancelled: bool,
}

impl Reporter {
    pub fn new(progress: Option<Progress>) -> Self {
        let next = if progress.is_some() { Progress::EVERY } else { u64::MAX };
        Reporter { progress, next, added: 0, cancelled: false }
    }

    /// Called by the engine at each simulated cycle `now` (or the cycle it jumped to).
    #[inline(always)]
    pub fn at(&mut self, now: u64) {
        if now >= self.next {
            self.report(now);
        }
    }

    #[cold]
    #[inline(never)]
    fn report(&mut self, now: u64) {
        if let Some(p) = &self.progress {
            p.add(now - self.added);
            self.added = now;
            self.next = now.saturating_add(Progress::EVERY);
            self.cancelled = p.is_cancelled();
        }
    }

    /// Whether the watcher asked the run to stop.
    #[inline(always)]
    pub fn cancelled(&self) -> bool {
        self.cancelled
    }

    /// The run ended having simulated `cycles`: its contribution becomes exactly that.
    pub fn finish(&mut self, cycles: u64) {
        if let Some(p) = &self.progress {
            if cycles >= self.added {
                p.add(cycles - self.added);
            } else {
                p.sub(self.added - cycles);
            }
            self.added = cycles;
            self.next = u64::MAX;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification: a reporter adds nothing between marks, catches up at a mark or after a
    /// jump past one, and its contribution ends at exactly the run's cycles, whether the run
    /// ends after or before its last update.
    #[test]
    fn a_reporter_adds_at_marks_and_ends_at_the_run_cycles() {
        let p = Progress::new();
        let mut r = Reporter::new(Some(p.clone()));
        r.at(1);
        r.at(Progress::EVERY - 1);
        assert_eq!(p.cycles(), 0);
        r.at(Progress::EVERY);
        assert_eq!(p.cycles(), Progress::EVERY);
        r.at(10 * Progress::EVERY + 5);
        assert_eq!(p.cycles(), 10 * Progress::EVERY + 5);
        r.finish(10 * Progress::EVERY);
        assert_eq!(p.cycles(), 10 * Progress::EVERY);
        // A second run on the same counter adds its own cycles.
        let mut second = Reporter::new(Some(p.clone()));
        second.at(Progress::EVERY);
        second.finish(Progress::EVERY + 7);
        assert_eq!(p.cycles(), 11 * Progress::EVERY + 7);
        // Without a counter nothing happens, and the check never passes.
        let mut none = Reporter::new(None);
        none.at(u64::MAX - 1);
        none.finish(3);
        assert_eq!(none.next, u64::MAX);
    }
}
