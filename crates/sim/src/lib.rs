//! netwrap's cycle-accurate network simulator.
//!
//! One pipeline for every run: a [`SimSpec`] (the spec as written: serde, from flags, a TOML
//! experiment file, a result's JSON or a Python dict) is checked once into a [`Resolved`] (no
//! defaults left), which builds an [`Experiment`] (topology built, routes and exact channel
//! loads computed, every check that needs the network done), which runs any number of points
//! that share its [`BuildKey`] on an engine and returns one [`SimResult`] type for every
//! topology and router. [`saturation`] searches for the load at which a spec saturates;
//! [`deadlock`] checks statically whether its routing can deadlock.
//!
//! The engines are the crate [`netwrap_engine`], whose docs hold their contract (what a cycle
//! is, in which order things happen, when a run stops, what is deterministic); this crate
//! validates, builds, runs and reports.
//!
//! Results depend only on the seed and the spec: every terminal draws from its own stream,
//! derived from (seed, terminal, purpose), and same-cycle ties are broken by per-message
//! salts, never by iteration order or thread count.
#![deny(missing_docs)]

pub mod collective;
pub mod deadlock;
mod experiment;
pub mod graph_file;
pub mod load;
pub mod report;
mod resolved;
pub mod result;
pub mod routes;
pub mod saturation;
pub mod spec;
pub mod trace;

pub use experiment::{
    CCC_FACTOR, Experiment, Plan, REFERENCE_FACTOR, SATURATED_WORK, VC_FACTOR, default_warmup, execute,
    execute_on, hop_events, in_flight_limit, seconds_per_hop_event, setup_seconds, simulate,
};
pub use resolved::{
    BuildKey, CollectiveSource, Destinations, MAX_MESSAGES, MAX_THREADS, Reply, Resolved, Router, Run,
    Source, TraceInput, Warmup, Workload, num, shape_of,
};
pub use result::{NetworkInfo, SimResult};
pub use spec::{
    Allocator, Arbitration, Avoidance, CollectiveKind, CollectiveSpec, DatelineClass, Ejection, EngineKind,
    Interval, Mapping, PatternKind, Placement, Preset, ProcessorSpec, ReplyNetwork, ReplySpec, RouterKind,
    RouterSpec, RunControl, Schedule, SelfTraffic, SimSpec, Stages, Switching, Threads, TraceKind, VcChoice,
    VcParams, WorkloadSpec, defaults,
};
use thiserror::Error;

/// netwrap's version, recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a simulation could not run.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SimError {
    /// A spec's value is invalid: [`SpecError`] names its field.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The topology could not be built.
    #[error(transparent)]
    Topology(#[from] netwrap_topo::TopoError),
    /// Anything else (a trace file's error, with its line).
    #[error("{0}")]
    Invalid(String),
    /// The caller cancelled the run ([`netwrap_engine::progress::Progress::cancel`]).
    #[error("cancelled")]
    Cancelled,
}

/// A spec's value that cannot be: the field at fault by its dotted path in the spec
/// (`router.buffer`), the other fields its message names, and why, in words. Front ends add
/// their own names for the fields: the command line its flags (`--buffer`), Python the path.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{}", self.text())]
pub struct SpecError {
    /// The field at fault, e.g. `router.buffer`.
    pub path: String,
    /// The other fields the message is about (`router.packet`, `router.switching`).
    pub also: Vec<String>,
    /// What is wrong, in words.
    pub message: String,
    /// Where it was met, when not in the spec itself: e.g. `sweep point 3 (workload.rate = 2)`.
    pub context: Option<String>,
    /// Its line in the experiment file, when known.
    pub line: Option<usize>,
}

impl SpecError {
    /// An error about `path` (and the fields `also`) saying `message`.
    pub fn new(path: &str, also: &[&str], message: impl Into<String>) -> Self {
        SpecError {
            path: path.to_string(),
            also: also.iter().map(|s| s.to_string()).collect(),
            message: message.into(),
            context: None,
            line: None,
        }
    }

    /// The message with its context and line, `extra` (a front end's names for the fields)
    /// before the line.
    pub fn text_with(&self, extra: &str) -> String {
        let mut t = String::new();
        if let Some(c) = &self.context {
            t.push_str(c);
            t.push_str(": ");
        }
        t.push_str(&self.message);
        t.push_str(extra);
        if let Some(l) = self.line {
            t.push_str(&format!(" (line {l})"));
        }
        t
    }

    fn text(&self) -> String {
        self.text_with("")
    }

    /// Every field the error is about, the one at fault first.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.path.as_str()).chain(self.also.iter().map(String::as_str))
    }
}
