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
use crate::spec::{Avoidance, DatelineClass};
use netwrap_engine::vc::{rings, route_wraps, upper_class};
use netwrap_topo::{Candidates, Family, Legs, Network, PathChoice, Paths, Routing, Visitor};
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
    /// The VC class: with a dateline `lower` or `upper`; with route classes (`phases`,
    /// `dest-group`) `class k`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vcs: Option<String>,
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
    /// With route classes (`phases`, `dest-group`): the classes the VCs are split into, and
    /// the classes the routes would reach if there were enough (more than `classes` means
    /// the routes share the top class beyond their phases).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route_classes: Option<RouteClasses>,
    /// The paths checked (minimal, or through intermediates).
    pub paths: Paths,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// The VC classes of a route-class assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RouteClasses {
    /// Classes the VCs are split into.
    pub classes: u32,
    /// Classes the routes reach.
    pub reached: u32,
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
            route_classes: None,
            paths: spec.routing.paths(),
            verdict: Verdict::Ideal,
        });
    };
    let groups = topology.groups();
    if p.deadlock == Avoidance::Phases {
        crate::experiment::phase_vcs(topology.network(), groups, &spec.routing, p.vcs, 1)?;
    }
    let legs = Legs::new(spec.routing.paths(), topology.network(), groups);
    struct On(Avoidance, Legs, Option<(u32, u32)>, DatelineClass);
    impl Visitor for On {
        type Output = Result<Check, SimError>;
        fn visit<F: Family>(self, f: &F) -> Self::Output {
            let (deadlock, legs) = (self.0, self.1);
            if legs.paths().choice == PathChoice::Dal {
                dal_check(f.network(), f, deadlock, &legs)
            } else if legs.active() || matches!(deadlock, Avoidance::Phases | Avoidance::DestGroup) {
                route_class_check(f.network(), f, deadlock, &legs, self.2)
            } else {
                check_on(f.network(), f, deadlock, self.3)
            }
        }
    }
    topology.visit(On(p.deadlock, legs, groups, p.dateline_class))
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

/// Checks `routing` on `net` with the VC router's `deadlock` avoidance (a dateline's classes
/// by `rule`).
pub fn check_on<R: Routing>(
    net: &Network,
    routing: &R,
    deadlock: Avoidance,
    rule: DatelineClass,
) -> Result<Check, SimError> {
    if deadlock == Avoidance::Escape {
        // Duato: the escape sub-network alone must be deadlock-free — by an acyclic graph, or
        // on rings by the bubble argument, which the escape VC applies.
        let inner = if routing.rings() { Avoidance::Bubble } else { Avoidance::None };
        let c = dependency_check(net, &EscapeOnly(routing), inner, rule)?;
        let verdict = match c.verdict {
            Verdict::Acyclic => Verdict::Escape { ring_edges: None },
            Verdict::Bubble { ring_edges } => Verdict::Escape { ring_edges: Some(ring_edges) },
            Verdict::Cycle { cycle } | Verdict::BubbleFails { cycle } => Verdict::EscapeFails { cycle },
            other => other,
        };
        return Ok(Check { deadlock, verdict, ..c });
    }
    dependency_check(net, routing, deadlock, rule)
}

/// The dependency graph of `routing` under `deadlock` (not escape), and its verdict.
fn dependency_check<R: Routing>(
    net: &Network,
    routing: &R,
    deadlock: Avoidance,
    rule: DatelineClass,
) -> Result<Check, SimError> {
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
    let mut ahead = Candidates::for_network(net);
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
                    let arrived = prev.map(|p| (p / 2, p % 2 == 1));
                    let upper = dateline
                        && match (rule, arrived) {
                            // Chosen on entering the ring, kept along it.
                            (DatelineClass::ByRoute, Some((p, upper)))
                                if ring[p as usize].dim() == ring[c as usize].dim() =>
                            {
                                upper
                            }
                            (DatelineClass::ByRoute, _) => {
                                route_wraps(net, routing, &ring, c, t, salt, &mut ahead)
                            }
                            (DatelineClass::AtWrap, _) => upper_class(&ring, arrived, c),
                        };
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
                    vcs: dateline.then(|| if b % 2 == 1 { "upper" } else { "lower" }.to_string()),
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
    Ok(Check {
        network: net.name().to_string(),
        deadlock,
        nodes: n,
        edges: edges.len() as u64,
        route_classes: None,
        paths: Paths::default(),
        verdict,
    })
}

/// The dependency graph under non-minimal paths or route classes (`phases`, `dest-group`;
/// with neither avoidance, one class), each class assigned as the VC router assigns it
/// ([`Legs::phase_class`], [`Legs::dest_group_class`]), and its verdict.
///
/// A route through an intermediate has two legs. The first leg's dependencies do not depend
/// on the final destination (under `dest-group` only through its group), so one search per
/// intermediate router (and destination group) from every injection router finds them all,
/// and records the nodes a first leg ends on (its switch nodes); one search per destination
/// then follows the second legs from the switch nodes, and the minimal routes from the
/// injection routers of the pairs that go minimally (every pair under UGAL and PAR, which may
/// choose the minimal path; under Valiant those within one router or group). Under PAR the
/// first legs also start after each first minimal hop that stays in the source group. Each
/// switch node is followed towards every destination, more than the routes need, which can
/// only add edges: an acyclic graph stays a proof. The class a hop takes is clamped to the
/// top class as the router clamps it, and the classes the routes would reach are reported.
fn route_class_check<F: Family>(
    net: &Network,
    f: &F,
    deadlock: Avoidance,
    legs: &Legs,
    groups: Option<(u32, u32)>,
) -> Result<Check, SimError> {
    let classes = match deadlock {
        Avoidance::Phases => legs.phase_classes(),
        Avoidance::DestGroup => 2,
        _ => 1,
    };
    let k_n = classes as u64;
    let nc = net.channels().len() as u64;
    let n = nc * k_n;
    let paths = legs.paths();
    let vias = if legs.active() { legs.intermediates() } else { Vec::new() };
    // Under dest-group a first leg's classes depend on the destination's group: one
    // representative terminal per group.
    let keys: Vec<Option<u32>> = match (deadlock, groups) {
        (Avoidance::DestGroup, Some((size, groups))) => (0..groups).map(|g| Some(g * size)).collect(),
        _ => vec![None],
    };
    let work = (vias.len() as u64 * keys.len() as u64 + net.terminals() as u64) * (n + net.routers() as u64);
    if work > MAX_WORK {
        return Err(SimError::Invalid(format!(
            "netwrap check: the {} is too large to check under these paths ({} first-leg and {} second-leg searches x {} dependency-graph nodes > {MAX_WORK} search states)",
            net.name(),
            vias.len() * keys.len(),
            net.terminals(),
            n
        )));
    }
    let salts: &[u32] = if f.salt_changes_candidates() { &[0, u32::MAX] } else { &[0] };
    let mut search = Search {
        net,
        legs,
        deadlock,
        classes,
        reached: 1,
        seen: vec![false; n as usize],
        edges: Vec::new(),
        stack: Vec::new(),
        cands: Candidates::for_network(net),
    };
    let mut sources: Vec<u32> = (0..net.terminals()).map(|s| net.inject_router(s)).collect();
    sources.sort_unstable();
    sources.dedup();
    let group_of = |r: u32| legs.group_of_router(r);
    // Per key: the switch nodes (with the router a leg ends on) and the routers where a first
    // leg ends before any hop.
    let mut switch_nodes: Vec<Vec<u32>> = vec![Vec::new(); keys.len()];
    let mut switch_routers: Vec<Vec<u32>> = vec![Vec::new(); keys.len()];
    for (ki, key) in keys.iter().enumerate() {
        if !legs.active() {
            break;
        }
        let mut is_switch = vec![false; n as usize];
        let mut is_switch_router = vec![false; net.routers() as usize];
        // PAR's turns after a first minimal hop within the source group.
        let mut turns: Vec<(u32, u32)> = Vec::new();
        if paths.choice == PathChoice::Par {
            let mut seen_turn = vec![false; n as usize];
            for &r in &sources {
                for t in 0..net.terminals() {
                    if key.is_some_and(|k| group_of(net.eject_router(t)) != group_of(net.eject_router(k))) {
                        continue;
                    }
                    if legs.local(r, t) {
                        continue;
                    }
                    for &salt in salts {
                        f.spread(r, t, salt, &mut search.cands);
                        for &c in search.cands.as_slice() {
                            let to = net.channel(c).dst;
                            if group_of(to) == group_of(r) {
                                let k = search.class(r, None, false, key.unwrap_or(t));
                                let b = c * classes + k;
                                if !seen_turn[b as usize] {
                                    seen_turn[b as usize] = true;
                                    turns.push((to, b));
                                }
                            }
                        }
                    }
                }
            }
        }
        for &(v, _) in &vias {
            for &salt in salts {
                search.clear();
                for &r in &sources {
                    search.stack.push((r, None, false));
                }
                for &(to, b) in &turns {
                    search.stack.push((to, Some(b), true));
                }
                let dest = key.unwrap_or(v);
                search.run(f, v, Some(v), dest, salt, |r, prev| match prev {
                    Some(b) => {
                        if !is_switch[b as usize] {
                            is_switch[b as usize] = true;
                        }
                    }
                    None => is_switch_router[r as usize] = true,
                })?;
            }
        }
        switch_nodes[ki] = (0..n as u32).filter(|&b| is_switch[b as usize]).collect();
        switch_routers[ki] = (0..net.routers()).filter(|&r| is_switch_router[r as usize]).collect();
    }
    for t in 0..net.terminals() {
        let ki = match keys[..] {
            [None] => 0,
            _ => keys
                .iter()
                .position(|k| {
                    k.is_some_and(|k| group_of(net.eject_router(k)) == group_of(net.eject_router(t)))
                })
                .unwrap_or(0),
        };
        for &salt in salts {
            search.clear();
            for &r in &sources {
                if !legs.active() || paths.choice.adaptive() || legs.local(r, t) {
                    search.stack.push((r, None, false));
                }
            }
            for &r in &switch_routers[ki] {
                search.stack.push((r, None, false));
            }
            for &b in &switch_nodes[ki] {
                search.stack.push((net.channel(b / classes).dst, Some(b), true));
            }
            search.run(f, t, None, t, salt, |_, _| {})?;
            if search.edges.len() > 1 << 24 {
                search.edges.sort_unstable();
                search.edges.dedup();
            }
        }
    }
    let Search { edges, reached, .. } = search;
    Ok(route_class_verdict(net, deadlock, paths, classes, reached, edges))
}

/// The check of a dependency graph over channel × route class (node `c · classes + k`).
fn route_class_verdict(
    net: &Network,
    deadlock: Avoidance,
    paths: Paths,
    classes: u32,
    reached: u32,
    mut edges: Vec<(u32, u32)>,
) -> Check {
    let n = net.channels().len() as u64 * classes as u64;
    edges.sort_unstable();
    edges.dedup();
    let verdict = match find_cycle(n as usize, &edges) {
        None => Verdict::Acyclic,
        Some(cycle) => Verdict::Cycle {
            cycle: cycle
                .into_iter()
                .map(|b| {
                    let c = b / classes;
                    let ch = net.channel(c);
                    DepNode {
                        channel: c,
                        from: net.source(c),
                        to: ch.dst,
                        class: net.classes()[ch.class as usize].clone(),
                        vcs: (classes > 1).then(|| format!("class {}", b % classes)),
                    }
                })
                .collect(),
        },
    };
    Check {
        network: net.name().to_string(),
        deadlock,
        nodes: n,
        edges: edges.len() as u64,
        route_classes: matches!(deadlock, Avoidance::Phases | Avoidance::DestGroup)
            .then_some(RouteClasses { classes, reached }),
        paths,
        verdict,
    }
}

/// The dependency graph of DAL's routes (Ahn et al. 2009 §4) with its classes (`phases`: one
/// per hop; otherwise one). A search per destination router follows every route DAL may take
/// from every injection router: at each router every minimal hop, and every deroute within a
/// dimension still to align that the route has not derouted in yet — a state is a dependency
/// node and the dimensions derouted in. DAL takes a deroute only on queue state; following
/// them all can only add edges, so an acyclic graph stays a proof.
fn dal_check<F: Family>(net: &Network, f: &F, deadlock: Avoidance, legs: &Legs) -> Result<Check, SimError> {
    let classes = if deadlock == Avoidance::Phases { legs.phase_classes() } else { 1 };
    let n = net.channels().len() as u64 * classes as u64;
    let dims = net.classes().len() as u32;
    let states = n << dims;
    // Routes depend on the destination's router only: one terminal per router.
    let mut dests: Vec<u32> = (0..net.terminals()).collect();
    dests.dedup_by_key(|t| net.eject_router(*t));
    let work = dests.len() as u64 * (states + net.routers() as u64);
    if work > MAX_WORK {
        return Err(SimError::Invalid(format!(
            "netwrap check: the {} is too large to check under dal ({} destinations x {} states of dependency node and dimensions derouted in > {MAX_WORK} search states)",
            net.name(),
            dests.len(),
            states
        )));
    }
    let salts: &[u32] = if f.salt_changes_candidates() { &[0, u32::MAX] } else { &[0] };
    let mut sources: Vec<u32> = (0..net.terminals()).map(|s| net.inject_router(s)).collect();
    sources.sort_unstable();
    sources.dedup();
    let mut seen = vec![false; states as usize];
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut stack: Vec<(u32, Option<u32>, u32)> = Vec::new();
    let mut cands = Candidates::for_network(net);
    let mut minimal: Vec<u32> = Vec::new();
    let mut hops: Vec<(u32, u32)> = Vec::new();
    let mut reached = 1;
    for &t in &dests {
        for &salt in salts {
            seen.iter_mut().for_each(|s| *s = false);
            stack.extend(sources.iter().map(|&r| (r, None, 0)));
            while let Some((r, prev, derouted)) = stack.pop() {
                f.spread(r, t, salt, &mut cands);
                if cands.is_empty() {
                    if r != net.eject_router(t) {
                        return Err(SimError::Invalid(format!(
                            "routing towards terminal {t} stops at router {r}, not at its ejection router"
                        )));
                    }
                    continue;
                }
                minimal.clear();
                minimal.extend_from_slice(cands.as_slice());
                let k = match prev {
                    Some(b) if classes > 1 => legs.phase_class(net, Some((b / classes, b % classes)), false),
                    _ => 0,
                };
                reached = reached.max(k + 1);
                let k = k.min(classes - 1);
                let unaligned = minimal.iter().fold(0u32, |m, &c| m | 1 << net.channel(c).class);
                let open = unaligned & !derouted & legs.deroutable();
                hops.clear();
                hops.extend(minimal.iter().map(|&c| (c, derouted)));
                for c in net.out_channels(r) {
                    let class = net.channel(c).class;
                    if open & (1 << class) != 0 && !minimal.contains(&c) {
                        hops.push((c, derouted | 1 << class));
                    }
                }
                for &(c, mask) in &hops {
                    let b = c * classes + k;
                    if let Some(a) = prev {
                        edges.push((a, b));
                    }
                    let state = ((b as u64) << dims | mask as u64) as usize;
                    if !seen[state] {
                        seen[state] = true;
                        stack.push((net.channel(c).dst, Some(b), mask));
                    }
                }
            }
            if edges.len() > 1 << 24 {
                edges.sort_unstable();
                edges.dedup();
            }
        }
    }
    Ok(route_class_verdict(net, deadlock, legs.paths(), classes, reached, edges))
}

/// One search of [`route_class_check`]: from the states on its stack, every route towards a
/// terminal (ending at an intermediate when given), recording the dependency edges.
struct Search<'a> {
    net: &'a Network,
    legs: &'a Legs,
    deadlock: Avoidance,
    classes: u32,
    /// The most classes a hop would take, unclamped.
    reached: u32,
    /// Nodes reached in this search (a node fixes the router it leads to).
    seen: Vec<bool>,
    edges: Vec<(u32, u32)>,
    /// (router, node arrived by, whether the leg switched there).
    stack: Vec<(u32, Option<u32>, bool)>,
    cands: Candidates,
}

impl Search<'_> {
    fn clear(&mut self) {
        self.seen.iter_mut().for_each(|s| *s = false);
        self.stack.clear();
    }

    /// The class of the next hop from router `at` (arriving by node `prev`, the leg switched
    /// there or not) of a packet bound for `dest`, unclamped.
    fn class(&self, at: u32, prev: Option<u32>, switched: bool, dest: u32) -> u32 {
        match self.deadlock {
            Avoidance::Phases => {
                self.legs.phase_class(self.net, prev.map(|b| (b / self.classes, b % self.classes)), switched)
            }
            Avoidance::DestGroup => self.legs.dest_group_class(at, dest),
            _ => 0,
        }
    }

    /// Follows every route from the stacked states towards terminal `to` (towards intermediate
    /// `via`, ending where it is reached: `ended(router, node arrived by)`), classes as for a
    /// packet bound for `dest`.
    #[allow(clippy::too_many_arguments)]
    fn run<F: Family>(
        &mut self,
        f: &F,
        to: u32,
        via: Option<u32>,
        dest: u32,
        salt: u32,
        mut ended: impl FnMut(u32, Option<u32>),
    ) -> Result<(), SimError> {
        let net = self.net;
        while let Some((r, prev, switched)) = self.stack.pop() {
            if via.is_some_and(|v| self.legs.arrived(r, v)) {
                ended(r, prev);
                continue;
            }
            f.spread(r, to, salt, &mut self.cands);
            if self.cands.is_empty() {
                if via.is_none() && r != net.eject_router(to) {
                    return Err(SimError::Invalid(format!(
                        "routing towards terminal {to} stops at router {r}, not at its ejection router"
                    )));
                }
                continue;
            }
            let k = self.class(r, prev, switched, dest);
            self.reached = self.reached.max(k + 1);
            let k = k.min(self.classes - 1);
            for i in 0..self.cands.as_slice().len() {
                let c = self.cands.as_slice()[i];
                let b = c * self.classes + k;
                if let Some(a) = prev {
                    self.edges.push((a, b));
                }
                if !self.seen[b as usize] {
                    self.seen[b as usize] = true;
                    self.stack.push((net.channel(c).dst, Some(b), false));
                }
            }
        }
        Ok(())
    }
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
