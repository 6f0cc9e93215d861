//! A collective on a built network: its ranks placed on nodes (`workload.placement`), checked
//! against the network, and the lower bound the network allows its completion.
//!
//! # Placement
//! Which node runs which rank, one rule for whatever maps ranks to nodes (a collective's ranks,
//! a netrace trace's nodes, an MPI dump's ranks: [`trace_placement`]):
//! - `linear`: rank r on node r.
//! - `random`: ranks on distinct nodes, a random permutation of the nodes drawn from the run's
//!   seed (Fisher–Yates; the first R of it).
//! - `file`: line r of `workload.placement-file` is rank r's node (blank lines and `#` lines
//!   skipped); distinct nodes of the network, one per line.
//! - `block` (tori, meshes, rings and hypercubes, one terminal per router): a halo exchange's
//!   process grid, whose sides are the network's radices, laid on the router coordinates: rank
//!   (x0, …, xn−1) on the router whose coordinate i is xi, so every face neighbour is one hop
//!   away.
//!
//! # The bound
//! Completion cannot come before any of these times (the largest is `bound`):
//! - `channel`: the busiest channel's flits over its width, the flits of every message routed
//!   as the exact loads route them (each route split evenly over the routing's candidates;
//!   not computed under adaptive paths, which follow queue state);
//! - `injection` (the virtual-channel router): the most flits a terminal sends, each crossing
//!   its injection channel at one flit a cycle ([`injection_bound`]; the ideal switch has no
//!   injection channel);
//! - `bisection` (an all-to-all or a bsp among every node): the flits that must cross any
//!   balanced cut over the bisection's width ([`bisection_bound`]);
//! - `critical_path`: the unloaded latency of the run's critical path (the chain of messages,
//!   each created by the last delivery it waited for, ending at the completion): its start,
//!   its compute, and for each message h hops of at least one cycle each (the link latency on
//!   the virtual-channel router) plus ⌈B / w⌉ cycles for its flits to pass (w the widest
//!   channel). Any chain of the graph bounds the completion from below so; on an idle
//!   network the critical path's bound is its completion.

use crate::resolved::{CollectiveSource, Resolved};
use crate::spec::{CollectiveKind, Placement};
use crate::{SimError, SpecError};
use netwrap_engine::collective::{Collective, balanced_grid, grid_rank};
use netwrap_engine::deps::Completion;
use netwrap_engine::rng::{Purpose, Stream};
use netwrap_topo::{Paths, Topology};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

fn spec_error(path: &str, also: &[&str], message: String) -> SimError {
    SimError::Spec(SpecError::new(path, also, message))
}

/// `c` on `topology`: its ranks placed, its grid chosen, checked against the network; `size`
/// flits per rank, `seed` the run's.
pub fn build(
    c: &CollectiveSource,
    size: u32,
    topology: &Topology,
    seed: u64,
) -> Result<Collective, SimError> {
    let net = topology.network();
    let nodes = net.terminals();
    let from_file = match &c.placement_file {
        Some(path) if c.placement == Placement::File => Some(read_placement(path, nodes)?),
        _ => None,
    };
    let ranks = match (&from_file, c.ranks) {
        (Some(list), Some(r)) if r as usize != list.len() => {
            return Err(spec_error(
                "workload.collective.ranks",
                &["workload.placement-file"],
                format!(
                    "workload.collective.ranks = {r}, but workload.placement-file places {} ranks",
                    list.len()
                ),
            ));
        }
        (Some(list), _) => list.len() as u32,
        (None, Some(r)) => r,
        (None, None) => nodes,
    };
    if ranks > nodes {
        return Err(spec_error(
            "workload.collective.ranks",
            &[],
            format!(
                "workload.collective.ranks = {ranks}: the {} has {nodes} nodes, one rank a node at most",
                net.name()
            ),
        ));
    }
    if c.kind.needs_power_of_two(c.schedule) && !ranks.is_power_of_two() {
        let what = if c.kind == CollectiveKind::Alltoall {
            "workload.collective.schedule = pairwise exchanges with rank r XOR k".to_string()
        } else {
            format!("{} exchanges with rank r XOR 2^k", c.kind.name())
        };
        return Err(spec_error(
            "workload.collective.kind",
            &["workload.collective.ranks"],
            format!(
                "{what}, so it needs a power-of-two number of ranks, not {ranks}: give workload.collective.ranks (--ranks) a power of two at most {nodes}, or choose {}",
                if c.kind == CollectiveKind::Alltoall { "schedule linear-shift" } else { "allreduce-ring" }
            ),
        ));
    }
    let grid = match c.kind.grid_dimensions() {
        None => Vec::new(),
        Some(d) => {
            let grid = match (&c.grid, c.placement) {
                (Some(g), _) => g.clone(),
                (None, Placement::Block) => block_radices(topology, d)?,
                (None, _) => balanced_grid(ranks, d),
            };
            let product: u64 = grid.iter().map(|&x| x as u64).product();
            if product != ranks as u64 {
                return Err(spec_error(
                    "workload.collective.grid",
                    &["workload.collective.ranks"],
                    format!(
                        "workload.collective.grid = {}: its {} places do not match the {ranks} ranks",
                        sides(&grid),
                        product
                    ),
                ));
            }
            grid
        }
    };
    let placement = place(c.placement, ranks, from_file, &grid, topology, seed)?;
    Ok(Collective {
        kind: c.kind,
        size,
        compute: c.compute,
        iterations: c.iterations,
        schedule: c.schedule,
        grid,
        placement: Arc::new(placement),
    })
}

/// Which node runs each of `ranks` ranks (at most the network's nodes) under `placement`: the
/// one rule for collectives and traces (see the module docs). `listed`: a placement file's
/// nodes, read; `grid`: the process grid a block placement lays on the cube's coordinates.
fn place(
    placement: Placement,
    ranks: u32,
    listed: Option<Vec<u32>>,
    grid: &[u32],
    topology: &Topology,
    seed: u64,
) -> Result<Vec<u32>, SimError> {
    let nodes = topology.network().terminals();
    Ok(match placement {
        Placement::Linear => (0..ranks).collect(),
        Placement::Random => {
            let mut order: Vec<u32> = (0..nodes).collect();
            let mut s = Stream::new(seed, 0, Purpose::Placement);
            for i in 0..ranks as usize {
                let j = i + s.below(nodes - i as u32) as usize;
                order.swap(i, j);
            }
            order.truncate(ranks as usize);
            order
        }
        Placement::File => listed.unwrap_or_default(),
        Placement::Block => block(topology, grid)?,
    })
}

/// Which node runs each of a trace's `ranks` ranks (a netrace trace's nodes, an MPI dump's
/// ranks) on `topology` under `t`'s placement, by the rule collectives follow (`place`): a
/// block placement lays the ranks, in row-major order, on the cube's router coordinates.
pub fn trace_placement(
    t: &crate::resolved::TraceInput,
    ranks: u32,
    topology: &Topology,
    seed: u64,
) -> Result<Vec<u32>, SimError> {
    let net = topology.network();
    let nodes = net.terminals();
    let placement = t.placement();
    let listed = match &t.placement_file {
        Some(path) => Some(read_placement(path, nodes)?),
        None => None,
    };
    if let Some(list) = &listed
        && (list.len() as u32) < ranks
    {
        return Err(spec_error(
            "workload.placement-file",
            &["workload.trace"],
            format!(
                "workload.placement-file places {} ranks, and the trace {} has {ranks}: one line a rank",
                list.len(),
                t.path.display()
            ),
        ));
    }
    if ranks > nodes {
        return Err(spec_error(
            "workload.trace",
            &["workload.placement"],
            format!(
                "the trace {} has {ranks} ranks, and the {} has {nodes} nodes: one rank a node at most",
                t.path.display(),
                net.name()
            ),
        ));
    }
    let grid = match placement {
        Placement::Block => cube(topology)?.spec().radices.clone(),
        _ => Vec::new(),
    };
    let mut list = place(placement, ranks, listed, &grid, topology, seed)?;
    list.truncate(ranks as usize);
    Ok(list)
}

fn sides(g: &[u32]) -> String {
    g.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
}

/// The cube `topology` is, for a block placement.
fn cube(topology: &Topology) -> Result<&netwrap_topo::KaryNCube, SimError> {
    match topology {
        Topology::Cube(c) if c.per_router() == 1 => Ok(c),
        _ => Err(spec_error(
            "workload.placement",
            &[],
            format!(
                "workload.placement = block lays a process grid on router coordinates: the {} is not a torus, mesh, ring or hypercube of one node per router",
                topology.network().name()
            ),
        )),
    }
}

/// A block placement's grid: the cube's radices, which must be `d` of them.
fn block_radices(topology: &Topology, d: usize) -> Result<Vec<u32>, SimError> {
    let c = cube(topology)?;
    let radices = c.spec().radices.clone();
    if radices.len() != d {
        return Err(spec_error(
            "workload.placement",
            &["workload.collective.kind"],
            format!(
                "workload.placement = block lays a {d}-dimensional process grid on the {}'s {} dimensions: choose a halo of as many dimensions, or another placement",
                topology.network().name(),
                radices.len()
            ),
        ));
    }
    Ok(radices)
}

/// Rank (x0, …, xn−1) of `grid` on the router whose coordinates they are.
fn block(topology: &Topology, grid: &[u32]) -> Result<Vec<u32>, SimError> {
    let c = cube(topology)?;
    let radices = block_radices(topology, grid.len())?;
    if radices != grid {
        return Err(spec_error(
            "workload.collective.grid",
            &["workload.placement"],
            format!(
                "workload.placement = block lays the process grid on the {}'s coordinates: its grid must be {}, not {}",
                topology.network().name(),
                sides(&radices),
                sides(grid)
            ),
        ));
    }
    let routers = topology.network().routers();
    let mut placement = vec![0; routers as usize];
    for r in 0..routers {
        let x: Vec<u32> = (0..grid.len()).map(|i| c.coordinate(r, i)).collect();
        placement[grid_rank(&x, grid) as usize] = r;
    }
    Ok(placement)
}

/// A placement file's nodes, one line per rank (see the module docs).
pub fn read_placement(path: &std::path::Path, nodes: u32) -> Result<Vec<u32>, SimError> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| SimError::Invalid(format!("workload.placement-file {name}: {e} (--placement-file)")))?;
    let fail = |line: usize, what: String| {
        SimError::Invalid(format!("workload.placement-file {name} line {line}: {what} (--placement-file)"))
    };
    let mut seen = vec![0usize; nodes as usize];
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let node: u32 = line.parse().map_err(|_| {
            fail(
                i + 1,
                format!(
                    "'{line}' is not a node number (one whole number per line: rank {}'s node)",
                    out.len()
                ),
            )
        })?;
        if node >= nodes {
            return Err(fail(
                i + 1,
                format!("node {node} is not in the network, whose nodes are 0 to {}", nodes - 1),
            ));
        }
        if seen[node as usize] != 0 {
            return Err(fail(
                i + 1,
                format!("node {node} is already placed on line {}: one rank a node", seen[node as usize]),
            ));
        }
        seen[node as usize] = i + 1;
        out.push(node);
    }
    if out.is_empty() {
        return Err(SimError::Invalid(format!(
            "workload.placement-file {name}: no ranks in it (--placement-file)"
        )));
    }
    Ok(out)
}

/// The lower bound on a collective's completion (see the module docs), in cycles.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bound {
    /// The busiest channel's flits over its width (absent under adaptive paths).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<f64>,
    /// Virtual-channel router: the most flits one terminal sends, each crossing its injection
    /// channel at one flit a cycle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injection: Option<f64>,
    /// An all-to-all's (or a bsp's) among every node: the flits that cross any balanced cut
    /// over the bisection's width (absent for other collectives and fewer ranks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisection: Option<f64>,
    /// The critical path's unloaded latency.
    pub critical_path: f64,
    /// The larger of the two.
    pub bound: f64,
}

/// The busiest channel's flits over its width for `c`'s messages on `topology` under `paths`
/// (`None` under adaptive paths).
pub fn channel_bound(c: &Collective, topology: &Topology, paths: Paths) -> Result<Option<f64>, SimError> {
    if paths.choice.adaptive() {
        return Ok(None);
    }
    let mut pairs: std::collections::HashMap<(u32, u32), f64> = std::collections::HashMap::new();
    for n in c.nodes() {
        if n.size > 0 && n.source != n.destination {
            *pairs.entry((n.source, n.destination)).or_default() += n.size as f64;
        }
    }
    let mut flows: Vec<(u32, u32, f64)> = pairs.into_iter().map(|((s, d), w)| (s, d, w)).collect();
    flows.sort_unstable_by_key(|f| (f.0, f.1));
    let Some(loads) = crate::routes::flow_loads(topology, flows, paths)? else { return Ok(None) };
    let net = topology.network();
    Ok(Some(
        loads
            .iter()
            .enumerate()
            .map(|(i, &l)| l / net.channel(i as u32).width.max(1) as f64)
            .fold(0.0, f64::max),
    ))
}

/// The most flits one terminal of `c` sends (see [`Bound::injection`]).
pub fn injection_bound(c: &Collective) -> f64 {
    let mut sent: std::collections::HashMap<u32, u64> = std::collections::HashMap::new();
    for n in c.nodes() {
        if n.size > 0 && n.source != n.destination {
            *sent.entry(n.source).or_default() += n.size as u64;
        }
    }
    sent.values().copied().max().unwrap_or(0) as f64
}

/// The bisection bound of an all-to-all or a bsp among all N nodes of `topology` (see
/// [`Bound::bisection`]): every balanced cut, ⌊N/2⌋ nodes on one side and ⌈N/2⌉ on the other,
/// carries the ⌊N/2⌋·⌈N/2⌉ blocks of ⌈S/N⌉ flits between them in each direction, every
/// iteration, over its channels; the bisection's width (a proven minimum, or the width of one
/// cut, which only lowers the bound) is the fewest such channels. `None` for other collectives
/// and for fewer ranks than nodes.
pub fn bisection_bound(c: &Collective, topology: &Topology) -> Option<f64> {
    let n = topology.network().terminals();
    if !matches!(c.kind, CollectiveKind::Alltoall | CollectiveKind::Bsp) || c.ranks() != n || n < 2 {
        return None;
    }
    let width = topology.bisection().width;
    let block = c.size.div_ceil(n).max(1) as f64;
    let pairs = (n / 2) as f64 * n.div_ceil(2) as f64;
    (width > 0).then(|| 2.0 * pairs * block * c.iterations as f64 / width as f64)
}

/// The critical path's unloaded latency (see the module docs) from what the run measured, on
/// a network whose widest channel carries `widest` flits a cycle and whose hops take at least
/// `per_hop` cycles.
pub fn critical_path_bound(done: &Completion, widest: u32, per_hop: u32) -> f64 {
    let p = &done.critical;
    // Each message's flits take ⌈B / w⌉ ≥ 1 cycles to pass: in all at least ⌈ΣB / w⌉, and one a
    // message.
    let flits = p.flits.div_ceil(widest.max(1) as u64).max(p.messages);
    (p.start + p.compute + p.hops * per_hop.max(1) as u64 + flits) as f64
}

/// The collective of a resolved point, if it runs one.
pub fn source(point: &Resolved) -> Option<&CollectiveSource> {
    match &point.workload.source {
        crate::resolved::Source::Collective(c) => Some(c),
        _ => None,
    }
}
