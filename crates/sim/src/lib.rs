//! netwrap's cycle-accurate network simulator.
//!
//! One pipeline for every run: a [`SimSpec`] (serde; from flags, a TOML experiment file or a
//! result's JSON) is validated once into an [`Experiment`] (topology built, routes and exact
//! channel loads computed), which runs any number of points on an engine and returns one
//! [`SimResult`] type for every topology. [`sweep`] expands experiment files into points;
//! [`saturation`] searches for the load at which a spec saturates.
//!
//! The engines are the crate [`netwrap_engine`], whose docs hold their contract (what a cycle
//! is, in which order things happen, when a run stops, what is deterministic); this crate
//! validates, builds, runs and reports.
//!
//! Results depend only on the seed and the spec: every terminal draws from its own stream,
//! derived from (seed, terminal, purpose), and same-cycle ties are broken by per-message
//! salts, never by iteration order or thread count.
#![deny(missing_docs)]

pub mod deadlock;
mod experiment;
pub mod load;
pub mod report;
pub mod result;
pub mod routes;
pub mod saturation;
pub mod spec;
pub mod sweep;
pub mod trace;

pub use experiment::{
    Experiment, Plan, RouterModel, SATURATED_WORK, default_warmup, execute, execute_on, in_flight_limit,
    simulate,
};
pub use result::{ModelComparison, SimResult, VERSION};
pub use spec::{
    Arbitration, Avoidance, EngineKind, Interval, ModelSpec, PatternKind, ProcessorSpec, ReplyNetwork,
    ReplySpec, RouterKind, RouterSpec, RunControl, SimSpec, Switching, Threads, VcParams, WorkloadSpec,
};
use thiserror::Error;

/// Why a simulation could not run.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SimError {
    /// A parameter is outside its valid range; the message names it.
    #[error("{0}")]
    Invalid(String),
    /// The topology could not be built.
    #[error(transparent)]
    Topology(#[from] netwrap_topo::TopoError),
}
