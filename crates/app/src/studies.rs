//! The studies of a spec beyond a single run: the saturation search ([`saturation`]) and the
//! static deadlock check ([`check`]).

use crate::error::Result;
use crate::spec::Spec;
use netwrap_engine::Record;
use netwrap_sim::Experiment;
use netwrap_sim::VERSION;
use netwrap_sim::deadlock::Check;
use netwrap_sim::saturation::{Search, Status, check_tolerance, search_on};
use serde::Serialize;

/// A saturation search with its provenance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Saturation {
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// The seed of every probe's streams.
    pub seed: u64,
    /// The spec searched, every key written.
    pub config: Spec,
    /// What the search found.
    #[serde(flatten)]
    pub search: Search,
    /// The model's saturation rate, when the spec asks for the model (`--model`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<SaturationModel>,
}

/// The model's saturation rate beside a search ([`saturation`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SaturationModel {
    /// The model, as `netwrap model` names it ([`crate::compare::model_for`]'s).
    pub model: &'static str,
    /// The equations, in words.
    pub source: String,
    /// The rate at which its busiest channel reaches ρ = 1.
    pub max_rate: f64,
}

/// Searches the request rate at which `spec`'s network saturates, by simulation, to within
/// relative `tolerance` (see [`netwrap_sim::saturation`]); every probe's run records what
/// `record` asks for, and `observe` hears where the search stands as each probe finishes.
pub fn saturation(
    spec: &Spec,
    tolerance: f64,
    record: &Record,
    observe: impl Fn(Status) + Sync,
) -> Result<Saturation> {
    let job = spec.resolve()?;
    check_tolerance(tolerance)?;
    let experiment = Experiment::build(&job.sim)?;
    // The model asked for, predicted before the search (where it cannot be, nothing runs).
    let model = match &job.model {
        Some(m) => {
            let p = crate::compare::predict(&job.sim, m, &experiment)?;
            Some(SaturationModel { model: p.model(), source: p.source().to_string(), max_rate: p.max_rate() })
        }
        None => None,
    };
    let search = search_on(&experiment, &job.sim, tolerance, record, observe)?;
    Ok(Saturation { netwrap_version: VERSION, seed: job.sim.run.seed, config: job.written(), search, model })
}

/// The static deadlock check of `spec`'s routing and virtual-channel assignment (see
/// [`netwrap_sim::deadlock`]).
pub fn check(spec: &Spec) -> Result<Check> {
    Ok(netwrap_sim::deadlock::check(&spec.resolve()?.sim)?)
}
