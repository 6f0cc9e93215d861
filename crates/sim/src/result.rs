//! [`SimResult`]: what a simulation measured, whatever the topology and router: the network as
//! built, the routes' exact facts, and the statistics with their verdict. Its provenance (the
//! netwrap version, the seed, the spec that reproduces it) and a model's prediction beside it
//! are the front ends' to add (`netwrap_app::Simulation`).

use crate::report::Report;
use netwrap_engine::Outcome;
use netwrap_engine::traffic::LocalitySubcube;
use serde::Serialize;

/// The network as built.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetworkInfo {
    /// The family's name for this instance, e.g. `8-ary 2-cube (torus, unidirectional)`.
    pub name: String,
    /// Terminals (processors).
    pub nodes: u32,
    /// Routers.
    pub routers: u32,
    /// Directed channels.
    pub channels: u64,
}

/// A finished simulation: what it measured and the verdict. The field names are the models'
/// where they mean the same thing (`utilization`, `latency`, `throughput`, `max_rate`,
/// `saturated`, `mean_hops`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimResult {
    /// The network as built.
    pub network: NetworkInfo,
    /// The locality subcube simulated (whole nodes per side) and the locality it amounts to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locality: Option<LocalitySubcube>,
    /// Mean hops of the routes under this traffic, self-addressed messages included, exact.
    pub expected_mean_hops: f64,
    /// False when `expected_mean_hops` is uniform traffic's, the pattern's routes being too
    /// many to walk (`load_method` says so); absent when true.
    #[serde(skip_serializing_if = "is_yes")]
    pub expected_mean_hops_exact: bool,
    /// Offered busy fraction of the busiest channel, from the traffic and routing, when known.
    pub offered_utilization: Option<f64>,
    /// Highest request rate the busiest channel can carry (offered utilisation 1), when known.
    pub max_rate: Option<f64>,
    /// How the offered loads were obtained, or why not.
    pub load_method: String,
    /// Statistics and verdict.
    #[serde(flatten)]
    pub report: Report,
    /// The point as it ran: its warm-up filled in, its replies' network decided; written out
    /// ([`crate::Resolved::written`]) it reproduces this result bit for bit.
    #[serde(skip)]
    pub point: crate::Resolved,
    /// Raw outcome, for detailed output.
    #[serde(skip)]
    pub outcome: Outcome,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_yes(b: &bool) -> bool {
    *b
}
