//! Running points: [`Simulation`], the one result of a simulation as every front end shows
//! it (its provenance, what it measured, the model beside it), and the one way points run
//! ([`run_points`]: each distinct network built once and shared by the points that need it).

use crate::compare::{ModelComparison, Predicted, predict};
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
    /// `result`, the run of `job`, with its provenance and the model's `prediction` compared
    /// with it.
    fn of(job: &Job, prediction: Option<Predicted>, result: SimResult) -> Self {
        let model = prediction.map(|p| p.against(&result.report));
        Simulation {
            netwrap_version: VERSION,
            seed: result.point.run.seed,
            config: Spec { sim: result.point.written(), model: job.model.filter(|_| model.is_some()) },
            result,
            model,
        }
    }
}

/// Runs `job` on its experiment (built for it or for another point that shares its
/// [`BuildKey`]), keeping what `record` asks for. The model asked for is predicted first, so a
/// point it cannot describe fails before its run (an optional model, [`Job::optional_model`],
/// is dropped instead).
pub fn run_on(experiment: &Experiment, job: &Job, record: Record) -> Result<Simulation> {
    let prediction = match &job.model {
        Some(m) => match predict(&job.sim, m, experiment) {
            Ok(p) => Some(p),
            // Whatever keeps an optional model from this point (a routing that chooses by
            // queue state, a network without channels) leaves the run without it.
            Err(_) if job.optional_model => None,
            Err(e) => return Err(e),
        },
        None => None,
    };
    let result = experiment.run_with(&job.sim, record)?;
    Ok(Simulation::of(job, prediction, result))
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
    Builds::default().run(points, record, started, done)
}

type Built = Arc<std::result::Result<Experiment, Error>>;

/// A network built (or being built, once) and whether the current call used it.
type Kept = (Arc<OnceLock<Built>>, bool);

/// The networks built for a sweep's points, kept from one call of [`Builds::run`] to the next
/// (a sweep run a chunk at a time builds a network once, not once a chunk), and after each call
/// only those its points used: memory stays that of one chunk's networks.
#[derive(Default)]
pub struct Builds {
    cache: Mutex<HashMap<BuildKey, Kept>>,
    /// Told, as each network is built, the point it is built for and the seconds the rest of
    /// its setup is estimated to take ([`netwrap_sim::setup_seconds`]).
    setting_up: Option<SettingUp>,
}

type SettingUp = Box<dyn Fn(&Point, f64) + Send + Sync>;

impl Builds {
    /// Builds that tell `setting_up` the point and the estimated seconds of each network's
    /// setup once its topology is built: a slow setup can be announced before it happens.
    pub fn announcing(setting_up: impl Fn(&Point, f64) + Send + Sync + 'static) -> Builds {
        Builds { setting_up: Some(Box::new(setting_up)), ..Builds::default() }
    }

    /// [`run_points`] with the networks kept here.
    pub fn run(
        &self,
        points: &[Point],
        record: Record,
        started: impl Fn(&Point, &Plan) + Sync,
        done: impl Fn(&Point, &Result<Simulation>) + Sync,
    ) -> Vec<Result<Simulation>> {
        let experiment = |p: &Point| -> Built {
            let cell = {
                let mut cache = self.cache.lock().expect("cache lock");
                let entry = cache.entry(p.job.sim.build_key()).or_default();
                entry.1 = true;
                entry.0.clone()
            };
            let setting_up = |seconds: f64| {
                if let Some(f) = &self.setting_up {
                    f(p, seconds);
                }
            };
            cell.get_or_init(|| {
                Arc::new(Experiment::build_shared(&p.job.sim, &setting_up).map_err(Error::from))
            })
            .clone()
        };
        let results = points
            .par_iter()
            .map(|p| {
                let built = experiment(p);
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
            .collect();
        let mut cache = self.cache.lock().expect("cache lock");
        cache.retain(|_, (_, used)| std::mem::replace(used, false));
        results
    }

    /// Networks kept.
    pub fn len(&self) -> usize {
        self.cache.lock().expect("cache lock").len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::Sweep;

    /// Verification: networks outlive a call of [`Builds::run`] while the next call's points
    /// use them, and only then — the kept networks are the last call's (two chunks of a sweep
    /// over rates keep one ring; a chunk on another ring leaves that one alone). The results
    /// equal those of [`run_points`], which builds afresh.
    #[test]
    fn builds_are_kept_across_chunks_and_only_while_used() {
        let sweep = |k: u32| {
            let file = format!(
                "[topology]\nfamily = \"ring\"\nk = {k}\n[run]\nmessages = 20\n[sweep]\n\"workload.rate\" = [0.01, 0.02]\n"
            );
            Sweep::from_toml(&file).unwrap()
        };
        let (a, b) = (sweep(4), sweep(5));
        let chunk = |s: &Sweep, i: u64| vec![s.point(i).unwrap()];
        let builds = Builds::default();
        let latency = |r: &[Result<Simulation>]| r[0].as_ref().unwrap().result.report.latency;
        let first = builds.run(&chunk(&a, 0), Record::default(), |_, _| {}, |_, _| {});
        assert_eq!(builds.len(), 1);
        let second = builds.run(&chunk(&a, 1), Record::default(), |_, _| {}, |_, _| {});
        assert_eq!(builds.len(), 1);
        assert_eq!(
            latency(&second),
            latency(&run_points(&chunk(&a, 1), Record::default(), |_, _| {}, |_, _| {}))
        );
        assert_ne!(latency(&first), latency(&second));
        builds.run(&chunk(&b, 0), Record::default(), |_, _| {}, |_, _| {});
        assert_eq!(builds.len(), 1);
        let both = [chunk(&a, 0), chunk(&b, 1)].concat();
        builds.run(&both, Record::default(), |_, _| {}, |_, _| {});
        assert_eq!(builds.len(), 2);
    }
}
