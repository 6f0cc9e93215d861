//! The static deadlock check (`netwrap check`): the channel dependency graph of a spec's
//! routing and virtual-channel assignment (Dally & Seitz), searched for a cycle.
//!
//! # The graph
//! A node is a (channel, VC class) pair. Without avoidance (`deadlock = none`) every VC of a
//! channel is open to every packet, so a waiting packet may wait on any of them: one node per
//! channel. With a dateline a channel has two classes, assigned exactly as the VC router
//! assigns them ([`netwrap_engine::vc`]): the lower half of the VCs before the packet's ring's
//! wrap-around channel, the upper half from it until the packet leaves the ring. There is an
//! edge a → b when a packet holding a may request b next.
//!
//! The routing function decides a packet's next channels from its router, its destination
//! and its salt only, and the VC class from the channel it arrives on and its class there;
//! so, per destination and salt class (the two salts [`netwrap_topo::metrics::add_flow`]
//! walks when the salt changes candidates), the reachable (arrival node, next node) pairs are
//! found by one search from every injection router, every routing candidate followed (and
//! every channel a routing picks from the salt itself: [`netwrap_topo::Routing::spread`]). This is
//! every route of every (source, destination) pair, without walking each pair separately.
//!
//! # Verdicts
//! - Acyclic: deadlock-free (Dally & Seitz's theorem: an acyclic channel dependency graph).
//! - A cycle: the routing may deadlock; one cycle is returned, found by an iterative
//!   depth-first search.
//! - Bubble flow control (Puente et al.): the rings are cycles of the graph by design. The
//!   argument holds when every cycle lies within one ring — the graph without its intra-ring
//!   edges (both channels of one ring: one class, one dimension and direction) is acyclic,
//!   which dimension-order routing guarantees — because each ring is protected by the bubble
//!   condition: a packet enters a ring only with room for two packets in the VC it takes, so
//!   a ring always keeps a free packet buffer and a packet along it can move.
//! - Escape routing (Puente et al.'s adaptive router): the graph checked is the escape
//!   sub-network's — VC 0 of every channel under the dimension-order escape routing — with the
//!   bubble argument where routes go round rings. Every packet may fall back to it at any hop,
//!   and a cut-through packet fits in one buffer, so an acyclic (or bubble-protected) escape
//!   sub-network makes the whole network deadlock-free (Duato's theorem).
//! - The ideal switch has unbounded queues: it never waits for buffer space and cannot
//!   deadlock.

use crate::Resolved;
use crate::SimError;
use crate::spec::Avoidance;
use netwrap_engine::vc::{rings, upper_class};
use netwrap_topo::{Candidates, Family, Network, Routing, Visitor};
use serde::Serialize;

/// The most (destination × graph node) search states a check may visit (about a second).
pub const MAX_WORK: u64 = 1 << 27;

/// One node of the channel dependency graph: a channel and, with a dateline, its VC class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DepNode {
    /// The channel.
    pub channel: u32,
    /// Its source router.
    pub from: u32,
    /// Its destination router.
    pub to: u32,
    /// The channel's class, e.g. `dim 0 +`.
    pub class: String,
    /// The VC class with a dateline: `lower` or `upper`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vcs: Option<&'static str>,
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// The ideal switch (unbounded queues) cannot deadlock.
    Ideal,
    /// The dependency graph is acyclic: deadlock-free by Dally & Seitz's theorem.
    Acyclic,
    /// The dependency graph has this cycle (each node's packet may wait for the next, the
    /// last for the first): the routing may deadlock.
    Cycle {
        /// The cycle's nodes.
        cycle: Vec<DepNode>,
    },
    /// Bubble flow control: the graph's cycles all lie within single rings, each protected by
    /// the bubble condition — deadlock-free by Puente et al.'s argument.
    Bubble {
        /// Dependency edges within one ring (removed for the check).
        ring_edges: u64,
    },
    /// Bubble flow control whose argument fails: a cycle crosses rings.
    BubbleFails {
        /// A cycle of the graph without its intra-ring edges.
        cycle: Vec<DepNode>,
    },
    /// Escape routing: the escape sub-network's dependency graph (VC 0, dimension order) is
    /// acyclic, or cyclic within rings only that the bubble condition protects; since every
    /// packet may take it at any hop and cut-through packets fit in one buffer, the whole
    /// network is deadlock-free (Duato's theorem).
    Escape {
        /// Intra-ring edges of the escape graph, protected by the bubble (`None` without rings).
        ring_edges: Option<u64>,
    },
    /// Escape routing whose escape sub-network has a cycle the bubble does not cover.
    EscapeFails {
        /// A cycle of the escape graph (without its intra-ring edges on networks with rings).
        cycle: Vec<DepNode>,
    },
}

impl Verdict {
    /// Whether the verdict is deadlock freedom.
    pub fn deadlock_free(&self) -> bool {
        matches!(self, Verdict::Ideal | Verdict::Acyclic | Verdict::Bubble { .. } | Verdict::Escape { .. })
    }
}

/// The check's result: the verdict and the graph's size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Check {
    /// The network's name.
    pub network: String,
    /// The avoidance checked (`none` for the ideal switch).
    pub deadlock: Avoidance,
    /// Nodes of the dependency graph ((channel, VC class) pairs).
    pub nodes: u64,
    /// Edges of the dependency graph.
    pub edges: u64,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// Checks a resolved spec: builds its network and routing and, for the virtual-channel
/// router, its channel dependency graph.
pub fn check(spec: &Resolved) -> Result<Check, SimError> {
    let topology = spec.shape()?.build()?;
    let Some(p) = spec.router.vc() else {
        let net = topology.network();
        return Ok(Check {
            network: net.name().to_string(),
            deadlock: Avoidance::None,
            nodes: 0,
            edges: 0,
            verdict: Verdict::Ideal,
        });
    };
    struct On(Avoidance);
    impl Visitor for On {
        type Output = Result<Check, SimError>;
        fn visit<F: Family>(self, f: &F) -> Self::Output {
            check_on(f.network(), f, self.0)
        }
    }
    topology.visit(On(p.deadlock))
}

/// The escape sub-function of a routing: its one escape channel (VC 0) at every hop.
struct EscapeOnly<'a, R>(&'a R);

impl<R: Routing> Routing for EscapeOnly<'_, R> {
    fn route(&self, at: u32, dest: u32, salt: u32, out: &mut Candidates) {
        out.clear();
        if let Some(c) = self.0.escape(at, dest, salt) {
            out.push(c);
        }
    }
    fn salt_changes_candidates(&self) -> bool {
        self.0.salt_changes_candidates()
    }
}

/// Checks `routing` on `net` with the VC router's `deadlock` avoidance.
pub fn check_on<R: Routing>(net: &Network, routing: &R, deadlock: Avoidance) -> Result<Check, SimError> {
    if deadlock == Avoidance::Escape {
        // Duato: the escape sub-network alone must be deadlock-free — by an acyclic graph, or
        // on rings by the bubble argument, which the escape VC applies.
        let inner = if routing.rings() { Avoidance::Bubble } else { Avoidance::None };
        let c = dependency_check(net, &EscapeOnly(routing), inner)?;
        let verdict = match c.verdict {
            Verdict::Acyclic => Verdict::Escape { ring_edges: None },
            Verdict::Bubble { ring_edges } => Verdict::Escape { ring_edges: Some(ring_edges) },
            Verdict::Cycle { cycle } | Verdict::BubbleFails { cycle } => Verdict::EscapeFails { cycle },
            other => other,
        };
        return Ok(Check { deadlock, verdict, ..c });
    }
    dependency_check(net, routing, deadlock)
}

/// The dependency graph of `routing` under `deadlock` (not escape), and its verdict.
fn dependency_check<R: Routing>(net: &Network, routing: &R, deadlock: Avoidance) -> Result<Check, SimError> {
    let nc = net.channels().len() as u64;
    let classes: u64 = if deadlock == Avoidance::Dateline { 2 } else { 1 };
    let n = nc * classes;
    let work = net.terminals() as u64 * (n + net.routers() as u64);
    if work > MAX_WORK {
        return Err(SimError::Invalid(format!(
            "netwrap check: the {} is too large to check ({} destinations x {} dependency-graph nodes > {MAX_WORK} search states)",
            net.name(),
            net.terminals(),
            n
        )));
    }
    let dateline = deadlock == Avoidance::Dateline;
    let ring = if dateline { rings(net) } else { Vec::new() };
    let node = |c: u32, upper: bool| if dateline { 2 * c + upper as u32 } else { c };
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let salts: &[u32] = if routing.salt_changes_candidates() { &[0, u32::MAX] } else { &[0] };
    let mut cands = Candidates::for_network(net);
    // Per destination and salt: the nodes reached (a node fixes the router it leads to).
    let mut seen = vec![false; n as usize];
    let mut stack: Vec<(u32, Option<u32>)> = Vec::new();
    let mut routers_seen = vec![false; net.routers() as usize];
    for t in 0..net.terminals() {
        for &salt in salts {
            seen.iter_mut().for_each(|s| *s = false);
            routers_seen.iter_mut().for_each(|s| *s = false);
            stack.clear();
            for s in 0..net.terminals() {
                let r = net.inject_router(s);
                if !routers_seen[r as usize] {
                    routers_seen[r as usize] = true;
                    stack.push((r, None));
                }
            }
            while let Some((r, prev)) = stack.pop() {
                routing.spread(r, t, salt, &mut cands);
                if cands.is_empty() && r != net.eject_router(t) {
                    return Err(SimError::Invalid(format!(
                        "routing towards terminal {t} stops at router {r}, not at its ejection router"
                    )));
                }
                for &c in cands.as_slice() {
                    let upper = dateline && upper_class(&ring, prev.map(|p| (p / 2, p % 2 == 1)), c);
                    let b = node(c, upper);
                    if let Some(a) = prev {
                        edges.push((a, b));
                    }
                    if !seen[b as usize] {
                        seen[b as usize] = true;
                        stack.push((net.channel(c).dst, Some(b)));
                    }
                }
            }
            if edges.len() > 1 << 24 {
                edges.sort_unstable();
                edges.dedup();
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let describe = |cycle: Vec<u32>| -> Vec<DepNode> {
        cycle
            .into_iter()
            .map(|b| {
                let c = if dateline { b / 2 } else { b };
                let ch = net.channel(c);
                DepNode {
                    channel: c,
                    from: net.source(c),
                    to: ch.dst,
                    class: net.classes()[ch.class as usize].clone(),
                    vcs: dateline.then_some(if b % 2 == 1 { "upper" } else { "lower" }),
                }
            })
            .collect()
    };
    let channel_of = |b: u32| if dateline { b / 2 } else { b };
    let verdict = if deadlock == Avoidance::Bubble {
        // Within one ring: both channels of one class (a torus's dimension and direction, a
        // Midimew's generator and direction), the second starting where the first ends
        // (consecutive hops of one class stay in its ring).
        let same_ring =
            |&(a, b): &(u32, u32)| net.channel(channel_of(a)).class == net.channel(channel_of(b)).class;
        let ring_edges = edges.iter().filter(|e| same_ring(e)).count() as u64;
        let across: Vec<(u32, u32)> = edges.iter().copied().filter(|e| !same_ring(e)).collect();
        match find_cycle(n as usize, &across) {
            None => Verdict::Bubble { ring_edges },
            Some(cycle) => Verdict::BubbleFails { cycle: describe(cycle) },
        }
    } else {
        match find_cycle(n as usize, &edges) {
            None => Verdict::Acyclic,
            Some(cycle) => Verdict::Cycle { cycle: describe(cycle) },
        }
    };
    Ok(Check { network: net.name().to_string(), deadlock, nodes: n, edges: edges.len() as u64, verdict })
}

/// A cycle of the directed graph on `n` nodes with these (sorted) edges, if it has one: its
/// nodes in order, each with an edge to the next and the last to the first. Iterative
/// depth-first search (no recursion).
pub fn find_cycle(n: usize, edges: &[(u32, u32)]) -> Option<Vec<u32>> {
    let mut start = vec![0usize; n + 1];
    for &(a, _) in edges {
        start[a as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut adj = vec![0u32; edges.len()];
    {
        let mut fill = start.clone();
        for &(a, b) in edges {
            adj[fill[a as usize]] = b;
            fill[a as usize] += 1;
        }
    }
    // 0 unvisited, 1 on the stack, 2 done.
    let mut color = vec![0u8; n];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if color[root as usize] != 0 {
            continue;
        }
        color[root as usize] = 1;
        stack.push((root, start[root as usize]));
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next < start[v as usize + 1] {
                let w = adj[*next];
                *next += 1;
                match color[w as usize] {
                    0 => {
                        color[w as usize] = 1;
                        stack.push((w, start[w as usize]));
                    }
                    1 => {
                        let from = stack.iter().position(|&(x, _)| x == w).expect("w is on the stack");
                        return Some(stack[from..].iter().map(|&(x, _)| x).collect());
                    }
                    _ => {}
                }
            } else {
                color[v as usize] = 2;
                stack.pop();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification: a hand-made graph's cycle and a DAG (expected values by inspection).
    #[test]
    fn finds_a_cycle_and_only_a_cycle() {
        let cyc = find_cycle(4, &[(0, 1), (1, 2), (2, 3), (3, 1)]).unwrap();
        assert_eq!(cyc, vec![1, 2, 3]);
        assert_eq!(find_cycle(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]), None);
        assert_eq!(find_cycle(1, &[(0, 0)]), Some(vec![0]));
        // A long chain does not exhaust any stack.
        let chain: Vec<(u32, u32)> = (0..1_000_000u32).map(|i| (i, i + 1)).collect();
        assert_eq!(find_cycle(1_000_001, &chain), None);
    }
}
