//! Running points: [`Simulation`], the one result of a simulation as every front end shows
//! it (its provenance, what it measured, the model beside it), and the one way points run
//! ([`run_points`]: each distinct network built once and shared by the points that need it).

use crate::compare::{ModelComparison, compare};
use crate::error::{Error, Result};
use crate::spec::{Job, Spec};
use crate::sweep::Point;
use netwrap_engine::Record;
use netwrap_sim::{BuildKey, Experiment, Plan, SimResult, VERSION};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A finished simulation: its provenance (the netwrap version, the seed, the spec that
/// reproduces it bit for bit), what it measured, and the model's prediction when asked for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Simulation {
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// The seed of every random stream (also in `config.run.seed`).
    pub seed: u64,
    /// The spec with every key written: running it again reproduces this result bit for bit.
    pub config: Spec,
    /// What it measured.
    #[serde(flatten)]
    pub result: SimResult,
    /// The analytical model at the simulated point, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelComparison>,
}

impl Simulation {
    /// `result`, the run of `job` on `experiment`, with its provenance and its model.
    fn of(job: &Job, experiment: &Experiment, result: SimResult) -> Result<Self> {
        let model = match &job.model {
            Some(m) => Some(compare(&result.point, m, experiment.effective_locality(), &result.report)?),
            None => None,
        };
        Ok(Simulation {
            netwrap_version: VERSION,
            seed: result.point.run.seed,
            config: Spec { sim: result.point.written(), model: job.model },
            result,
            model,
        })
    }
}

/// Runs `job` on its experiment (built for it or for another point that shares its
/// [`BuildKey`]), keeping what `record` asks for.
pub fn run_on(experiment: &Experiment, job: &Job, record: Record) -> Result<Simulation> {
    let result = experiment.run_with(&job.sim, record)?;
    Simulation::of(job, experiment, result)
}

/// Builds and runs one spec.
pub fn simulate(spec: &Spec) -> Result<Simulation> {
    let job = spec.resolve()?;
    run_on(&Experiment::build(&job.sim)?, &job, Record::default())
}

/// Builds and runs one point (one task of a distributed sweep: it builds its own network).
pub fn run_point(point: &Point, record: Record) -> Result<Simulation> {
    run_on(&Experiment::build(&point.job.sim)?, &point.job, record)
}

/// Runs `points` in parallel, building each distinct network once and sharing it between the
/// points that need it; `started` is called with each point's plan before it runs, `done` as
/// each finishes (from worker threads, in any order). Results come back in the points' order:
/// they depend only on each point's spec, never on the number of threads.
pub fn run_points(
    points: &[Point],
    record: Record,
    started: impl Fn(&Point, &Plan) + Sync,
    done: impl Fn(&Point, &Result<Simulation>) + Sync,
) -> Vec<Result<Simulation>> {
    type Built = Arc<std::result::Result<Experiment, Error>>;
    let cache: Mutex<HashMap<BuildKey, Arc<OnceLock<Built>>>> = Mutex::new(HashMap::new());
    let experiment = |job: &Job| -> Built {
        let cell = cache.lock().expect("cache lock").entry(job.sim.build_key()).or_default().clone();
        cell.get_or_init(|| Arc::new(Experiment::build_shared(&job.sim).map_err(Error::from))).clone()
    };
    points
        .par_iter()
        .map(|p| {
            let built = experiment(&p.job);
            let result = match built.as_ref() {
                Ok(e) => e.plan(&p.job.sim).map_err(Error::from).and_then(|plan| {
                    started(p, &plan);
                    run_on(e, &p.job, record.clone())
                }),
                Err(e) => Err(e.clone()),
            };
            done(p, &result);
            result
        })
        .collect()
}
