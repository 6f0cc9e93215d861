//! [`topo`]: a topology built and measured exactly (size, distances, bisection, channel loads
//! of its routing under uniform traffic).

use crate::error::{Error, Result};
use netwrap_sim::VERSION;
use netwrap_topo::{Metrics, RoutingSpec, SwitchLevel, Topology, TopologySpec};
use serde::Serialize;

/// What was built: the topology and routing sections of a spec, resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopoConfig {
    /// The family, its defaults filled.
    pub topology: TopologySpec,
    /// Its routing.
    pub routing: RoutingSpec,
}

/// A Midimew's layout (Puente et al. Fig. 1): node (x, y) = (x·x_step + y·y_step) mod N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Columns.
    pub columns: u32,
    /// Rows.
    pub rows: u32,
    /// Step along a row.
    pub x_step: u32,
    /// Step along a column.
    pub y_step: u32,
}

/// A topology's exact metrics, as `netwrap topo --json` prints them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopoReport {
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// No random stream is drawn: always absent.
    pub seed: Option<u64>,
    /// What was built.
    pub config: TopoConfig,
    /// The family's name for this instance.
    pub name: String,
    /// The names of its channel classes.
    pub classes: Vec<String>,
    /// The metrics.
    #[serde(flatten)]
    pub metrics: Metrics,
    /// Mean distance over all ordered pairs of processors, a processor's messages to itself
    /// (distance 0) included: the homework's Ex 4 and the simulator's uniform traffic count
    /// those. Direct networks only (where a processor's message to itself uses no channel).
    pub average_distance_with_self: Option<f64>,
    /// The routing's mean route with the source's own messages (0 hops) included, where it is
    /// longer than the shortest paths (see [`Metrics::average_route`]); direct networks only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_route_with_self: Option<f64>,
    /// The switches per level of a levelled family (XGFTs, k-ary n-trees), level 1 first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub switch_levels: Vec<SwitchLevel>,
    /// A Midimew's layout.
    pub layout: Option<Layout>,
    /// Bits per flit where channel widths were given in bits (Raghunath & Ranade's networks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flit_bits: Option<u32>,
    /// A Midimew's application-to-network node mapping (Puente et al. Fig. 9), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub application_to_network: Option<Vec<u32>>,
    /// What resolving the topology adjusted (e.g. N rounded up to a whole dimension).
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// Builds `topology` routed by `routing` and measures it; `mapping` adds a Midimew's
/// application-to-network mapping.
pub fn topo(topology: &TopologySpec, routing: &RoutingSpec, mapping: bool) -> Result<TopoReport> {
    let (spec, notes) = topology.resolve()?;
    let routing = spec.resolve_routing(routing)?;
    if mapping && !matches!(spec, TopologySpec::Midimew { .. }) {
        return Err(crate::error::spec_error(
            "mapping",
            &[],
            format!(
                "mapping: a Midimew's application-to-network mapping (Puente et al. Fig. 9): a {} has none",
                spec.family()
            ),
        ));
    }
    let topo = netwrap_sim::shape_of(&spec, &routing)?.build()?;
    let mut metrics =
        topo.metrics().map_err(|e| Error::Invalid(format!("cannot measure the topology: {e}")))?;
    let paths = routing.paths();
    if paths.choice != netwrap_topo::PathChoice::Minimal {
        // Beyond the family's routing: the paths' own loads (Valiant's exactly), uniform
        // traffic over distinct pairs as the routing's are.
        let n = topo.network().terminals();
        let pattern = netwrap_engine::traffic::Pattern::UniformOthers(n);
        let loads = netwrap_sim::routes::nonminimal_loads(&topo, &pattern, paths)?
            .map(|l| (l.loads, format!("{} (routing '{}')", l.method, routing.algorithm.name())))
            .map_err(|why| format!("not computed for routing '{}': {why}", routing.algorithm.name()));
        metrics.set_loads(topo.network(), loads);
    }
    let mut notes = notes;
    let (layout, application_to_network) = match &topo {
        Topology::Circulant(c) => {
            let layout =
                c.layout().map(|(columns, rows, x_step, y_step)| Layout { columns, rows, x_step, y_step });
            if mapping && layout.is_none() {
                let (a, b) = c.generators();
                notes.push(format!(
                    "the Midimew of {} nodes has no application-to-network mapping (Puente et al. Fig. 9): N is a multiple of neither generator, {a} or {b}, so it has no rectangular layout (Puente et al. Fig. 1) to number on; its patterns take the network's node numbers",
                    c.nodes()
                ));
            }
            let map = mapping
                .then(|| (0..c.nodes()).filter_map(|p| c.application_to_network(p)).collect::<Vec<_>>());
            (layout, map.filter(|m| !m.is_empty()))
        }
        _ => (None, None),
    };
    let flit_bits = match &topo {
        Topology::ModularButterfly(t) => Some(t.flit_bits()),
        Topology::Xbar(x) if x.network().routers() > 1 => Some(x.flit_bits()),
        _ => None,
    };
    let net = topo.network();
    let direct = (0..net.terminals()).all(|t| net.inject_router(t) == net.eject_router(t));
    let n = net.terminals() as f64;
    Ok(TopoReport {
        netwrap_version: VERSION,
        seed: None,
        name: net.name().to_string(),
        classes: net.classes().to_vec(),
        average_distance_with_self: direct.then(|| metrics.average_distance * (n - 1.0) / n),
        average_route_with_self: metrics.average_route.filter(|_| direct).map(|r| r * (n - 1.0) / n),
        metrics,
        switch_levels: topo.switch_levels(),
        layout,
        flit_bits,
        application_to_network,
        config: TopoConfig { topology: spec, routing },
        notes,
    })
}
