//! [`design`]: the constrained design search over k-ary n-cubes (the homework's Ex 7 for any
//! inputs, [`netwrap_model::design`]), its best candidates confirmed by simulation when
//! asked, as `netwrap design --json` prints it.

use crate::error::{Error, Result};
use crate::simulation::run_points;
use crate::spec::{ModelSpec, Spec};
use crate::sweep::Point;
use netwrap_engine::Record;
use netwrap_model::design::{self, Candidate, DesignQuery};
use netwrap_model::request::DesignRequest;
use netwrap_sim::VERSION;
use netwrap_topo::TopologySpec;
use serde::Serialize;

/// A candidate confirmed by simulation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Simulated {
    /// Rank of the candidate in the model's ordering (1 = best).
    pub rank: usize,
    /// Dimensions.
    pub n: u32,
    /// Radix.
    pub k: u32,
    /// Flits simulated, ⌈L/W⌉.
    pub flits: u32,
    /// Simulated mean latency in cycles (`None`: saturated).
    pub latency: Option<f64>,
    /// Its 95% confidence half-width.
    pub latency_ci95: Option<f64>,
    /// Measured channel utilisation.
    pub utilization: f64,
    /// The simulation saw the network saturated.
    pub saturated: bool,
    /// Locality simulated: the subcube side is a whole number of nodes (see `netwrap sim`).
    pub effective_locality: f64,
    /// The model's latency at the simulated point (whole flits, effective locality).
    pub model_latency: Option<f64>,
    /// (simulated − model) / model latency, in cycles.
    pub relative_error: Option<f64>,
}

/// The design search's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignReport {
    /// `design`.
    pub model: &'static str,
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// The simulations' seed, when candidates were simulated.
    pub seed: Option<u64>,
    /// The question, validated.
    pub config: DesignQuery,
    /// The candidates, best first (only the best `top` when asked).
    pub candidates: Vec<Candidate>,
    /// The candidates confirmed by simulation, when asked (`simulate`).
    pub simulated: Option<Vec<Simulated>>,
}

/// Answers `r`: every k-ary n-cube that meets its width constraint, ranked, and the first
/// `r.simulate` unsaturated ones simulated (each run keeping what `record` asks for: a
/// progress counter can cancel them).
pub fn design(r: &DesignRequest, record: Record) -> Result<DesignReport> {
    let q = r.query()?;
    let mut candidates = design::search(&q).map_err(|e| Error::Invalid(format!("design search: {e}")))?;
    if let Some(top) = r.top {
        candidates.truncate(top);
    }
    let simulated = r.simulate.map(|count| simulate(r, &candidates, count, record)).transpose()?;
    Ok(DesignReport {
        model: "design",
        netwrap_version: VERSION,
        seed: r.simulate.map(|_| r.seed),
        config: q,
        candidates,
        simulated,
    })
}

/// Simulates the first `count` unsaturated candidates (in parallel, one spec each), compared
/// with the model at the simulated point and the candidate's contention form.
fn simulate(
    r: &DesignRequest,
    candidates: &[Candidate],
    count: usize,
    record: Record,
) -> Result<Vec<Simulated>> {
    let chosen: Vec<(usize, &Candidate)> =
        candidates.iter().enumerate().filter(|(_, c)| !c.prediction.saturated).take(count).collect();
    let points: Vec<Point> = chosen
        .iter()
        .enumerate()
        .map(|(index, &(_, c))| {
            let mut spec = Spec::default();
            spec.sim.topology = TopologySpec::Torus {
                k: Some(c.k),
                n: Some(c.n),
                nodes: None,
                radices: None,
                bidirectional: r.bidirectional,
                concentration: None,
            };
            spec.sim.workload.rate = Some(r.rate);
            spec.sim.workload.size = Some(c.flits.ceil() as u32);
            spec.sim.workload.locality = Some(r.locality);
            spec.sim.run.messages = Some(r.messages);
            spec.sim.run.seed = Some(r.seed);
            spec.model = Some(ModelSpec { contention: c.form });
            Ok(Point { index: index as u64, ..Point::single(&spec)? })
        })
        .collect::<Result<_>>()?;
    let results = run_points(&points, record, |_, _| {}, |_, _| {});
    chosen
        .iter()
        .zip(results)
        .map(|(&(i, c), result)| {
            let run = match result {
                Ok(run) => run,
                Err(Error::Cancelled) => return Err(Error::Cancelled),
                Err(e) => return Err(Error::Invalid(format!("simulating a candidate: {e}"))),
            };
            let rep = &run.result.report;
            let model = run.model.as_ref().and_then(|m| m.latency);
            Ok(Simulated {
                rank: i + 1,
                n: c.n,
                k: c.k,
                flits: run.result.point.workload.size.max(),
                latency: rep.latency,
                latency_ci95: rep.latency_ci95,
                utilization: rep.utilization,
                saturated: rep.saturated,
                effective_locality: run.result.locality.as_ref().map_or(1.0, |l| l.effective_locality),
                model_latency: model,
                relative_error: rep.latency.zip(model).map(|(s, m)| (s - m) / m),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification against the homework's Ex 7: the 4-ary 3-cube with 64-bit channels comes
    /// first; nothing is simulated unless asked.
    #[test]
    fn exercise_7_ranks_the_4_ary_3_cube_first() {
        let r = design(&DesignRequest::exercise_7(), Record::default()).unwrap();
        let best = &r.candidates[0];
        assert_eq!((best.n, best.k, best.width), (3, 4, 64.0));
        assert!(r.simulated.is_none() && r.seed.is_none());
    }
}
