//! The saturation search: the highest request rate a spec's network carries, found by
//! simulation.
//!
//! A probe at rate m counts as **saturated** when its run does not measure a steady state —
//! its verdict is `saturated` (the exact channel load is at least one flit per cycle, or the
//! run falls behind) or `limit-reached` (it fails to drain within its limits) — or when its
//! accepted throughput falls more than 5% behind the offered load. The exact channel load
//! seeds the first guess where it is known, but each probe is judged on what its run
//! measured, so routers that saturate below ρ = 1 are found too.
//!
//! The search probes four rates per round, in parallel, always the same four whatever the
//! number of threads: first growing (or shrinking) by factors of two from the guess until a
//! stable and a saturated rate bracket the answer, then four evenly spaced rates inside the
//! bracket per round, until the bracket is narrower than the tolerance.

use crate::report::Verdict;
use crate::{Experiment, Resolved, SimError, SimResult};
use netwrap_engine::Record;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Accepted throughput below this share of the offered load counts as falling behind.
pub const BEHIND: f64 = 0.95;
/// Rounds of refinement at most (each narrows the bracket fivefold).
const MAX_ROUNDS: u32 = 12;

/// One probe of the search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Probe {
    /// Request rate m.
    pub rate: f64,
    /// Judged saturated (see the module docs).
    pub saturated: bool,
    /// The run's verdict.
    pub verdict: crate::report::Verdict,
    /// Accepted messages per terminal per cycle.
    pub throughput: f64,
    /// Offered messages per terminal per cycle.
    pub offered: f64,
    /// Mean latency, when the run measured a steady state.
    pub latency: Option<f64>,
    /// Channel utilisation.
    pub utilization: f64,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Search {
    /// The network searched.
    pub network: String,
    /// The criterion, in words.
    pub criterion: &'static str,
    /// Highest rate judged stable (the saturation rate, to within `tolerance`).
    pub max_rate: f64,
    /// Lowest rate judged saturated (`None`: none up to m = 1).
    pub first_saturated: Option<f64>,
    /// `max_rate` in flits per terminal per cycle (m·B).
    pub max_flits: f64,
    /// The exact channel load's prediction, when known: the rate at which the busiest
    /// channel is offered one flit per cycle.
    pub max_rate_from_loads: Option<f64>,
    /// Relative width of the final bracket asked for.
    pub tolerance: f64,
    /// Every probe, by increasing rate.
    pub probes: Vec<Probe>,
}

fn judge(r: &SimResult) -> Probe {
    let rep = &r.report;
    let behind = rep.throughput < BEHIND * rep.offered;
    Probe {
        rate: r.point.rate(),
        // A probe still in its transient near saturation (`not-steady`) is judged by what it
        // accepted, like one that settled.
        saturated: !matches!(rep.verdict, Verdict::Ok | Verdict::NotSteady) || behind,
        verdict: rep.verdict,
        throughput: rep.throughput,
        offered: rep.offered,
        latency: rep.latency,
        utilization: rep.utilization,
    }
}

/// Searches the saturation rate of `spec` (its rate is the first guess where the channel loads
/// are unknown) to within relative `tolerance`.
pub fn search(spec: &Resolved, tolerance: f64) -> Result<Search, SimError> {
    search_with(spec, tolerance, &Record::default(), |_| {})
}

/// Where a search stands, told to [`search_with`]'s observer as each probe finishes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Status {
    /// Probes finished so far.
    pub probes: usize,
    /// The highest rate judged stable below the lowest saturated one, so far (0: none yet).
    pub stable: f64,
    /// The lowest rate judged saturated so far, if any.
    pub saturated: Option<f64>,
}

/// [`search`], recording every probe's run as `record` says (a progress counter, say: it
/// only observes) and telling `observe` where the search stands as each probe finishes (from
/// worker threads, the bracket as of the last finished batch). The result is the same.
pub fn search_with(
    spec: &Resolved,
    tolerance: f64,
    record: &Record,
    observe: impl Fn(Status) + Sync,
) -> Result<Search, SimError> {
    check_tolerance(tolerance)?;
    search_on(&Experiment::build(spec)?, spec, tolerance, record, observe)
}

/// Refuses a relative precision outside (0, 1) (before anything is built).
pub fn check_tolerance(tolerance: f64) -> Result<(), SimError> {
    if !(tolerance.is_finite() && tolerance > 0.0 && tolerance < 1.0) {
        return Err(SimError::Invalid(format!(
            "tolerance = {}: the search's relative precision must be in (0, 1)",
            crate::num(tolerance)
        )));
    }
    Ok(())
}

/// [`search_with`] on `experiment`, built for `spec` ([`Experiment::build`]).
pub fn search_on(
    experiment: &Experiment,
    spec: &Resolved,
    tolerance: f64,
    record: &Record,
    observe: impl Fn(Status) + Sync,
) -> Result<Search, SimError> {
    check_tolerance(tolerance)?;
    let base = spec;
    // Probe round numbers: enough significant digits to resolve the tolerance, no more.
    let digits = (-tolerance.log10()).ceil() as i32 + 2;
    let round = |x: f64| -> f64 {
        if x <= 0.0 || !x.is_finite() {
            return x;
        }
        let scale = 10f64.powi(digits - 1 - x.log10().floor() as i32);
        ((x * scale).round() / scale).min(1.0)
    };
    let finished = AtomicUsize::new(0);
    let tell = |stable: f64, saturated: Option<f64>| {
        observe(Status { probes: finished.fetch_add(1, Ordering::Relaxed) + 1, stable, saturated })
    };
    let probe_at = |rates: &[f64], lo: f64, hi: Option<f64>| -> Result<Vec<Probe>, SimError> {
        rates
            .par_iter()
            .map(|&rate| {
                let s = base.with_rate(round(rate));
                let probe = experiment.run_with(&s, record.clone()).map(|r| judge(&r));
                tell(lo, hi);
                probe
            })
            .collect()
    };
    let guess_run = experiment.run_with(base, record.clone())?;
    tell(0.0, None);
    let from_loads = guess_run.max_rate.filter(|_| guess_run.offered_utilization.is_some_and(|u| u > 0.0));
    let mut probes = vec![judge(&guess_run)];
    let guess = from_loads.unwrap_or(base.rate()).clamp(f64::MIN_POSITIVE, 1.0);
    // Bracket: grow from the guess until something saturates, or shrink until something is
    // stable.
    let (mut lo, mut hi) = (0.0f64, None::<f64>);
    let update = |probes: &[Probe], lo: &mut f64, hi: &mut Option<f64>| {
        let first_bad = probes.iter().filter(|p| p.saturated).map(|p| p.rate).fold(f64::INFINITY, f64::min);
        *hi = first_bad.is_finite().then_some(first_bad);
        *lo =
            probes.iter().filter(|p| !p.saturated && p.rate < first_bad).map(|p| p.rate).fold(0.0, f64::max);
    };
    update(&probes, &mut lo, &mut hi);
    let (mut up, mut down) = (guess / 2.0, guess * 2.0);
    loop {
        let rates: Vec<f64> = if hi.is_none() {
            up *= 16.0;
            [1.0, 2.0, 4.0, 8.0].iter().map(|f| (up / 8.0 * f).min(1.0)).collect()
        } else if lo == 0.0 {
            down /= 16.0;
            [8.0, 4.0, 2.0, 1.0].iter().map(|f| down * f).collect()
        } else {
            break;
        };
        probes.extend(probe_at(&rates, lo, hi)?);
        update(&probes, &mut lo, &mut hi);
        if hi.is_none() && rates.iter().any(|&r| r >= 1.0) {
            break; // stable at m = 1: it never saturates
        }
        if lo == 0.0 && hi.is_some() && down < 1e-12 {
            break; // saturated at every rate tried
        }
    }
    let mut rounds = 0;
    while let Some(h) = hi
        && (h - lo) > tolerance * h
        && rounds < MAX_ROUNDS
    {
        let rates: Vec<f64> = (1..=4).map(|j| lo + (h - lo) * j as f64 / 5.0).collect();
        probes.extend(probe_at(&rates, lo, hi)?);
        update(&probes, &mut lo, &mut hi);
        rounds += 1;
    }
    probes.sort_by(|a, b| a.rate.total_cmp(&b.rate));
    probes.dedup_by(|a, b| a.rate == b.rate);
    Ok(Search {
        network: experiment.network().name().to_string(),
        criterion: "a probe is saturated when its verdict is not ok (exact channel load >= 1, the network falls behind, or the run fails to drain within its limits) or its accepted throughput is below 95% of the offered load",
        max_rate: lo,
        first_saturated: hi,
        max_flits: lo * base.workload.size.mean(),
        max_rate_from_loads: from_loads.map(round),
        tolerance,
        probes,
    })
}
