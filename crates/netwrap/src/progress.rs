//! Progress on long work: a bar on standard error for sweeps, single runs and saturation
//! searches that last more than a second.
//!
//! The bar is for a person watching a terminal, so it is drawn only when standard error is
//! one (never in CI, in a pipe or in the tests' captured output, where standard error stays
//! byte for byte what it was), only after [`DELAY`] (quick runs print nothing), and never
//! with `--quiet`. Standard output is never touched. It is cleared when the work ends, before
//! any result is printed, so nothing of it stays on the screen.
//!
//! What it shows comes from [`view`], a pure function of a [`Snapshot`] (points done,
//! simulated cycles, the plan's estimate, time elapsed), so the arithmetic is tested without a
//! terminal. A thread of our own polls the counters a few times a second and hands the view
//! to `indicatif` to draw; the engines only add to a [`netwrap_engine::progress::Progress`]
//! counter now and then, and get none when no bar will be drawn.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use netwrap_engine::progress::Progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long work runs before its bar appears: shorter work finishes before a bar would help.
pub const DELAY: Duration = Duration::from_secs(1);

/// How often the bar is redrawn: often enough to look alive, rarely enough to cost nothing.
const REFRESH: Duration = Duration::from_millis(200);

/// What is being watched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Work {
    /// A sweep of this many points: points done against the total.
    Points(u64),
    /// One run: simulated cycles against the plan's estimate.
    Run,
    /// A saturation search: probes done and the bracket so far (their number is not known
    /// ahead).
    Search,
}

/// The counters at one moment (the state the bar is drawn from).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Points (or probes) finished.
    pub done: u64,
    /// Cycles simulated so far, over every run.
    pub cycles: u64,
    /// The plan's estimate of a single run's cycles (0: not known yet).
    pub planned: f64,
    /// A sweep's points in flight, counted by the share of their plans' cycles they have
    /// simulated (two points half done count as one): the ETA need not wait for whole points.
    pub running: f64,
    /// Time since the work started.
    pub elapsed: Duration,
    /// A search's bracket: the highest stable rate, and the lowest saturated one if any.
    pub bracket: Option<(f64, Option<f64>)>,
}

/// What the bar shows.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Where the bar is filled to, out of `length` (both 0 for a search, drawn as a spinner).
    pub position: u64,
    /// The bar's full length.
    pub length: u64,
    /// The time left, when it can be estimated.
    pub eta: Option<Duration>,
    /// The text beside the bar.
    pub message: String,
}

/// The time left when a fraction `f` of the work took `elapsed`, assuming the rest goes at
/// the same pace; none before any progress or once the estimate is passed.
fn eta(elapsed: Duration, f: f64) -> Option<Duration> {
    (f > 0.0 && f < 1.0).then(|| Duration::from_secs_f64(elapsed.as_secs_f64() * (1.0 - f) / f))
}

/// What to show for `work` at snapshot `s`.
pub fn view(work: Work, s: &Snapshot) -> View {
    let time = |eta: Option<Duration>| match eta {
        Some(d) => format!("ETA {}", duration(d)),
        None => "ETA —".to_string(),
    };
    match work {
        Work::Points(total) => {
            let done = s.done.min(total);
            let share = (done as f64 + s.running.clamp(0.0, (total - done) as f64)) / total as f64;
            let eta = if done == total { Some(Duration::ZERO) } else { eta(s.elapsed, share) };
            View {
                position: done,
                length: total,
                eta,
                message: format!("{done}/{total} points, {} cycles, {}", count(s.cycles), time(eta)),
            }
        }
        Work::Run if s.planned >= 1.0 => {
            let planned = s.planned.round() as u64;
            let eta = eta(s.elapsed, s.cycles as f64 / s.planned);
            let message = if s.cycles > planned {
                format!("{} cycles, past the estimate of {}", count(s.cycles), count(planned))
            } else {
                format!("{}/{} cycles, {}", count(s.cycles), count(planned), time(eta))
            };
            View { position: s.cycles.min(planned), length: planned, eta, message }
        }
        Work::Run => {
            View { position: 0, length: 0, eta: None, message: format!("{} cycles", count(s.cycles)) }
        }
        Work::Search => {
            let bracket = match s.bracket {
                Some((lo, Some(hi))) if lo > 0.0 => format!(", saturation in m = {}–{}", rate(lo), rate(hi)),
                Some((_, Some(hi))) => format!(", saturated at m = {}", rate(hi)),
                Some((lo, None)) if lo > 0.0 => format!(", stable up to m = {}", rate(lo)),
                _ => String::new(),
            };
            View {
                position: 0,
                length: 0,
                eta: None,
                message: format!(
                    "search: {} probe{}{bracket}, {} cycles",
                    s.done,
                    if s.done == 1 { "" } else { "s" },
                    count(s.cycles)
                ),
            }
        }
    }
}

/// [`Snapshot::running`]: `points` in flight whose plans expect `planned` cycles in all, when
/// `cycles` have been simulated over every point, `finished` of them by the points finished.
fn running(planned: f64, points: usize, cycles: u64, finished: u64) -> f64 {
    // The cycles counted beyond the finished points' belong to the points in flight.
    let simulated = cycles.saturating_sub(finished) as f64;
    if planned > 0.0 { (simulated / planned).min(1.0) * points as f64 } else { 0.0 }
}

/// Whether to draw: on a terminal, without `--quiet`, once the work has lasted [`DELAY`].
pub fn should_draw(terminal: bool, quiet: bool, elapsed: Duration) -> bool {
    terminal && !quiet && elapsed >= DELAY
}

/// A count in at most four significant characters and a unit: 950, 12.3k, 4.56M, 7.89G.
fn count(x: u64) -> String {
    let units = [(1e9, "G"), (1e6, "M"), (1e3, "k")];
    let v = x as f64;
    for (scale, unit) in units {
        if v >= scale {
            let s = v / scale;
            return if s >= 100.0 {
                format!("{s:.0}{unit}")
            } else if s >= 10.0 {
                format!("{s:.1}{unit}")
            } else {
                format!("{s:.2}{unit}")
            };
        }
    }
    x.to_string()
}

/// A rate in four decimals, or four significant digits when smaller than 0.001.
fn rate(m: f64) -> String {
    if m >= 1e-3 { format!("{m:.4}") } else { format!("{m:.3e}") }
}

/// A duration as 42s, 3m05s or 2h07m.
fn duration(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s / 60) % 60),
    }
}

/// The bar on screen, if any: notes printed while it is drawn hide it for a moment
/// ([`suspend`]) instead of leaving pieces of it behind.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Runs `f` (which writes to standard error) with the bar, if one is drawn, out of the way.
pub fn suspend<R>(f: impl FnOnce() -> R) -> R {
    let shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match shown {
        Some(bar) => bar.suspend(f),
        None => f(),
    }
}

/// What the watched work and the drawing thread share.
struct Shared {
    work: Work,
    started: Instant,
    done: AtomicU64,
    counter: Progress,
    /// The last plan's cycle estimate, as `f64` bits.
    planned: AtomicU64,
    /// A sweep's points in flight by index, with their plans' cycle estimates, and the cycles
    /// of the points finished.
    flight: Mutex<(std::collections::HashMap<u64, f64>, u64)>,
    bracket: Mutex<Option<(f64, Option<f64>)>>,
    stop: Mutex<bool>,
    wake: Condvar,
}

impl Shared {
    fn snapshot(&self) -> Snapshot {
        let cycles = self.counter.cycles();
        let running = {
            let flight = self.flight.lock().unwrap_or_else(|e| e.into_inner());
            running(flight.0.values().sum(), flight.0.len(), cycles, flight.1)
        };
        Snapshot {
            running,
            done: self.done.load(Ordering::Relaxed),
            cycles,
            planned: f64::from_bits(self.planned.load(Ordering::Relaxed)),
            elapsed: self.started.elapsed(),
            bracket: *self.bracket.lock().unwrap_or_else(|e| e.into_inner()),
        }
    }
}

/// The bar of one piece of work: counters the work updates, and the thread that draws them.
/// Without a terminal or with `--quiet` there is no thread and no engine counter; every
/// method is then a cheap no-op.
pub struct Bar {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Bar {
    /// Starts watching `work`; draws nothing if `quiet` or if standard error is not a terminal.
    pub fn start(work: Work, quiet: bool) -> Bar {
        let shared = Arc::new(Shared {
            work,
            started: Instant::now(),
            done: AtomicU64::new(0),
            counter: Progress::new(),
            planned: AtomicU64::new(0f64.to_bits()),
            flight: Mutex::new(Default::default()),
            bracket: Mutex::new(None),
            stop: Mutex::new(false),
            wake: Condvar::new(),
        });
        let terminal = std::io::stderr().is_terminal();
        // Decided once: a bar that could never draw costs no thread.
        let thread = (terminal && !quiet).then(|| {
            let shared = shared.clone();
            std::thread::Builder::new().name("netwrap-progress".into()).spawn(move || draw(&shared)).ok()
        });
        Bar { shared, thread: thread.flatten() }
    }

    /// The counter to attach to the runs ([`netwrap_engine::Record::progress`]): none when
    /// no bar is drawn, so the engines skip even their rare updates.
    pub fn counter(&self) -> Option<Progress> {
        self.thread.is_some().then(|| self.shared.counter.clone())
    }

    /// Point `index` starts, its plan expecting to simulate `cycles`.
    pub fn started(&self, index: u64, cycles: f64) {
        self.shared.planned.store(cycles.to_bits(), Ordering::Relaxed);
        if self.thread.is_some() && cycles.is_finite() && cycles > 0.0 {
            self.shared.flight.lock().unwrap_or_else(|e| e.into_inner()).0.insert(index, cycles);
        }
    }

    /// Point `index` finished, having simulated `cycles` (none: it failed before running).
    pub fn point_done(&self, index: u64, cycles: Option<u64>) {
        if self.thread.is_some() {
            let mut flight = self.shared.flight.lock().unwrap_or_else(|e| e.into_inner());
            flight.0.remove(&index);
            flight.1 += cycles.unwrap_or(0);
        }
        self.shared.done.fetch_add(1, Ordering::Relaxed);
    }

    /// A saturation search's probe finished.
    pub fn probe_done(&self) {
        self.shared.done.fetch_add(1, Ordering::Relaxed);
    }

    /// A search's bracket so far.
    pub fn bracket(&self, stable: f64, saturated: Option<f64>) {
        *self.shared.bracket.lock().unwrap_or_else(|e| e.into_inner()) = Some((stable, saturated));
    }

    /// Stops drawing and clears the bar (also done on drop, on every way out).
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(thread) = self.thread.take() {
            *self.shared.stop.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.shared.wake.notify_all();
            let _ = thread.join();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The drawing thread: waits out [`DELAY`], then redraws every [`REFRESH`] until told to
/// stop, and clears the bar.
fn draw(shared: &Shared) {
    let mut bar: Option<ProgressBar> = None;
    let mut stop = shared.stop.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let elapsed = shared.started.elapsed();
        let wait = if bar.is_none() && elapsed < DELAY { DELAY - elapsed } else { REFRESH };
        stop = match shared.wake.wait_timeout_while(stop, wait, |stop| !*stop) {
            Ok((guard, _)) => guard,
            Err(e) => e.into_inner().0,
        };
        if *stop {
            break;
        }
        // The terminal was checked at the start; `indicatif` checks again before each draw,
        // and a closed standard error just hides the bar.
        if !should_draw(true, false, shared.started.elapsed()) {
            continue;
        }
        let s = shared.snapshot();
        let v = view(shared.work, &s);
        let fresh = bar.is_none();
        let b = bar.get_or_insert_with(|| {
            let b = new_bar(shared.work).with_elapsed(s.elapsed);
            *SHOWN.lock().unwrap_or_else(|e| e.into_inner()) = Some(b.clone());
            b
        });
        // The message last, so that the last draw of a refresh shows it all.
        if v.length > 0 {
            b.set_length(v.length);
            b.set_position(v.position);
        }
        b.set_message(v.message);
        if fresh {
            // Drawn only once it holds its first values. At most as often as it is refreshed.
            b.set_draw_target(ProgressDrawTarget::stderr_with_hz(5));
        }
        b.tick();
    }
    if let Some(b) = bar {
        *SHOWN.lock().unwrap_or_else(|e| e.into_inner()) = None;
        b.finish_and_clear();
    }
}

fn new_bar(work: Work) -> ProgressBar {
    let template = match work {
        // A wide message is cut to the terminal's width rather than wrapped.
        Work::Search => "{spinner} {elapsed:>4} {wide_msg}",
        Work::Run | Work::Points(_) => "{elapsed:>4} [{bar:30}] {wide_msg}",
    };
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    bar.set_style(style);
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// Verification: a sweep's bar counts points against the total and extrapolates the time
    /// per point finished; before any point finishes there is no estimate.
    #[test]
    fn a_sweep_shows_points_cycles_and_eta() {
        let v = view(
            Work::Points(10),
            &Snapshot { done: 0, cycles: 5000, elapsed: secs(3.0), ..Default::default() },
        );
        assert_eq!((v.position, v.length, v.eta), (0, 10, None));
        assert_eq!(v.message, "0/10 points, 5.00k cycles, ETA —");
        let v = view(
            Work::Points(10),
            &Snapshot { done: 4, cycles: 1_234_567, elapsed: secs(8.0), ..Default::default() },
        );
        // 4 of 10 in 8 s: the other 6 take 12 s.
        assert_eq!((v.position, v.length), (4, 10));
        assert_eq!(v.eta, Some(secs(12.0)));
        assert_eq!(v.message, "4/10 points, 1.23M cycles, ETA 12s");
        let v = view(Work::Points(3), &Snapshot { done: 3, elapsed: secs(8.0), ..Default::default() });
        assert_eq!(v.eta, Some(Duration::ZERO));
        // Points in flight count by their share done: 4 done and 2 half done (1 point) of 10
        // in 10 s is half the work, so 10 s more; before any point finishes, 2 points a
        // quarter done of 10 in 5 s leave 95 s.
        let v = view(
            Work::Points(10),
            &Snapshot { done: 4, running: 1.0, elapsed: secs(10.0), ..Default::default() },
        );
        assert_eq!((v.position, v.eta), (4, Some(secs(10.0))));
        let v = view(
            Work::Points(10),
            &Snapshot { done: 0, running: 0.5, elapsed: secs(5.0), ..Default::default() },
        );
        assert_eq!(v.eta, Some(secs(95.0)));
        assert_eq!(v.message, "0/10 points, 0 cycles, ETA 1m35s");
        // Two points in flight planned for 1000 and 3000 cycles, 1000 simulated beyond the
        // 5000 of those finished: a quarter of their work, half a point.
        assert_eq!(running(4000.0, 2, 6000, 5000), 0.5);
        assert_eq!(running(4000.0, 2, 99_000, 5000), 2.0);
        assert_eq!(running(0.0, 0, 6000, 6000), 0.0);
    }

    /// Verification: a run's bar fills with simulated cycles against the plan's estimate and
    /// extrapolates the time; past the estimate it says so instead of guessing.
    #[test]
    fn a_run_shows_cycles_against_the_plan_and_eta() {
        let s = Snapshot { cycles: 250_000, planned: 1e6, elapsed: secs(30.0), ..Default::default() };
        let v = view(Work::Run, &s);
        assert_eq!((v.position, v.length), (250_000, 1_000_000));
        assert_eq!(v.eta, Some(secs(90.0)));
        assert_eq!(v.message, "250k/1.00M cycles, ETA 1m30s");
        let v = view(Work::Run, &Snapshot { cycles: 2_000_000, ..s });
        assert_eq!((v.position, v.eta), (1_000_000, None));
        assert_eq!(v.message, "2.00M cycles, past the estimate of 1.00M");
        let v = view(Work::Run, &Snapshot { cycles: 0, ..s });
        assert_eq!(v.message, "0/1.00M cycles, ETA —");
        // Before the plan is known: the cycles alone.
        let v = view(Work::Run, &Snapshot { cycles: 42, ..Default::default() });
        assert_eq!((v.length, v.message.as_str()), (0, "42 cycles"));
    }

    /// Verification: a search shows its probes and its bracket as it narrows.
    #[test]
    fn a_search_shows_probes_and_the_bracket() {
        let s = Snapshot { done: 1, cycles: 999, ..Default::default() };
        assert_eq!(view(Work::Search, &s).message, "search: 1 probe, 999 cycles");
        let s = Snapshot { done: 5, bracket: Some((0.02, None)), ..s };
        assert_eq!(view(Work::Search, &s).message, "search: 5 probes, stable up to m = 0.0200, 999 cycles");
        let s = Snapshot { bracket: Some((0.02, Some(0.04))), ..s };
        assert_eq!(
            view(Work::Search, &s).message,
            "search: 5 probes, saturation in m = 0.0200–0.0400, 999 cycles"
        );
        let s = Snapshot { bracket: Some((0.0, Some(0.00004))), ..s };
        assert_eq!(view(Work::Search, &s).message, "search: 5 probes, saturated at m = 4.000e-5, 999 cycles");
    }

    /// Verification: the bar is drawn only on a terminal, without --quiet, after a second.
    #[test]
    fn the_bar_waits_a_second_and_needs_a_terminal() {
        assert!(should_draw(true, false, secs(1.0)));
        assert!(!should_draw(true, false, secs(0.5)));
        assert!(!should_draw(false, false, secs(10.0)));
        assert!(!should_draw(true, true, secs(10.0)));
    }

    /// Verification: counts and durations are short and exact enough.
    #[test]
    fn counts_and_durations_read_well() {
        let counts: Vec<String> =
            [0, 950, 9_876, 12_345, 456_789, 4_560_000, 7_890_000_000].map(count).into();
        assert_eq!(counts, ["0", "950", "9.88k", "12.3k", "457k", "4.56M", "7.89G"]);
        assert_eq!(duration(secs(42.4)), "42s");
        assert_eq!(duration(secs(185.0)), "3m05s");
        assert_eq!(duration(secs(7620.0)), "2h07m");
    }

    /// Verification: without a terminal (as under `cargo test`) a bar starts no thread and
    /// hands out no counter, so the engines run exactly as without it.
    #[test]
    fn without_a_terminal_there_is_no_counter() {
        if std::io::stderr().is_terminal() {
            return;
        }
        let bar = Bar::start(Work::Points(2), false);
        assert!(bar.counter().is_none());
        bar.point_done(0, Some(5));
        bar.finish();
        assert!(Bar::start(Work::Run, true).counter().is_none());
    }
}
