//! What a run needs to know about the routes before it starts: the mean and longest route,
//! and the offered load of every channel class, exactly, under the run's destination pattern.
//!
//! Uniform traffic: k-ary n-cubes use closed forms in O(k) per dimension ([`crate::load`]).
//! Other families route one terminal's messages and spread them over each channel class when
//! the family is symmetric, or route every pair up to
//! [`netwrap_topo::metrics::LOAD_PAIRS_LIMIT`] terminals. `uniform-others` is the same
//! traffic without the self-addressed messages: its loads and hops are derived from the
//! uniform ones. The locality subcube has its closed form on tori. A fixed permutation routes
//! every source to its destination (O(N·hops)); hot-spot traffic mixes the uniform loads with
//! every source's route to each hot spot. Every message is split evenly over the routing's
//! candidates at every hop (the engines choose among them by queue state, which these loads
//! do not know). The loads are folded into (class, width) groups, so no per-channel vector
//! outlives the setup; when routing every message would take more than
//! [`LOAD_WORK_LIMIT`] routing decisions, the loads are not computed and `load_method` says
//! why.

use crate::SimError;
use crate::load::cube_loads;
use netwrap_engine::traffic::{GroupShift, LocalitySubcube, MessageSize, Pattern};
use netwrap_topo::metrics::{
    FlowScratch, FlowSink, INJECTED, LOAD_WORK_LIMIT, LegEnd, add_flow, bounded_channel_loads, injected,
    walk_leg,
};
use netwrap_topo::{
    Candidates, Family, Legs, Network, PathChoice, Paths, RouterId, TerminalId, Topology, Visitor, bfs_from,
};

/// Channels of one class and one width, and what they carry per unit request rate.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadGroup {
    /// Channel class (index into the network's classes).
    pub class: u16,
    /// Flits per cycle.
    pub width: u32,
    /// Messages per cycle on the busiest channel of the group, at one message per terminal
    /// per cycle.
    pub max: f64,
    /// Sum over the group's channels.
    pub sum: f64,
    /// Channels in the group.
    pub channels: u64,
}

/// Route facts of a built network under a destination pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct RouteFacts {
    /// Mean hops of a message, self-addressed ones included.
    pub mean_hops: f64,
    /// The longest route, in hops.
    pub longest: u64,
    /// The offered load groups, when they could be computed.
    pub loads: Option<Vec<LoadGroup>>,
    /// How the loads were obtained, or why not.
    pub load_method: String,
    /// Whether `mean_hops` and `longest` are the pattern's own (false: the pattern's routes
    /// were too many to walk, and they are uniform traffic's; `load_method` says so).
    pub hops_exact: bool,
}

/// True when a channel offered `load` flits per cycle saturates: one flit per cycle or more
/// (an M/D/1-like queue at ρ = 1 is already unstable), to within 1e-9 for the rounding of the
/// load's sum (m = 1/14 on the 8×8 torus gives 0.9999999999999999).
pub fn saturates(load: f64) -> bool {
    load >= 1.0 - 1e-9
}

/// Offered busy fraction at request rate `rate` and message lengths `size`: the busiest
/// channel's, and the mean of each class (indexed like the network's classes). A message
/// holds a channel of width w for ⌈B / w⌉ cycles; with a size mix, its mean.
pub fn offered(groups: &[LoadGroup], classes: usize, rate: f64, size: &MessageSize) -> (f64, Vec<f64>) {
    let mut max: f64 = 0.0;
    let mut sum = vec![(0.0, 0u64); classes];
    for g in groups {
        let hold = size.mean_hold(g.width as u64);
        max = max.max(rate * hold * g.max);
        sum[g.class as usize].0 += rate * hold * g.sum;
        sum[g.class as usize].1 += g.channels;
    }
    (max, sum.iter().map(|&(s, n)| s / n.max(1) as f64).collect())
}

/// Terminals above which an asymmetric family's routes are not walked pair by pair.
pub const PAIRS_LIMIT: u32 = 4096;

/// The facts for `topo` under `pattern` (`subcube`: the locality pattern's, on a cube).
pub fn facts(
    topo: &Topology,
    pattern: &Pattern,
    subcube: Option<&LocalitySubcube>,
    paths: Paths,
) -> Result<RouteFacts, SimError> {
    if paths.choice != PathChoice::Minimal {
        return nonminimal_facts(topo, pattern, paths);
    }
    match pattern {
        Pattern::Uniform(_) | Pattern::CubeLocality(_) => uniform_facts(topo, subcube, false),
        Pattern::UniformOthers(_) => uniform_facts(topo, None, true),
        Pattern::Fixed(table) => {
            let uniform = uniform_facts(topo, None, false)?;
            topo.visit(Flows { table: Some(table), hotspot: None, group: None, uniform })
        }
        Pattern::GroupShift(g) => {
            let uniform = uniform_facts(topo, None, false)?;
            topo.visit(Flows { table: None, hotspot: None, group: Some(*g), uniform })
        }
        Pattern::Hotspot(h) => {
            // The uniform part per channel: the generic walk, which keeps per-channel loads.
            let uniform = match topo.visit(Walk::of(topo, false)) {
                Ok(u) => u,
                // A mesh too large to walk pair by pair still has uniform traffic's hops in
                // closed form; only its per-channel loads are unknown.
                Err(why) if matches!(topo, Topology::Cube(_)) => {
                    let f = uniform_facts(topo, None, false)?;
                    ChannelFacts {
                        mean_hops: f.mean_hops,
                        longest: f.longest,
                        loads: None,
                        load_method: why.to_string(),
                    }
                }
                Err(e) => return Err(e),
            };
            topo.visit(Flows { table: None, hotspot: Some((&h.nodes, h.fraction)), group: None, uniform })
        }
    }
}

/// The facts under non-minimal paths. Valiant's are exact: every flow is split evenly over
/// the intermediates it may draw (one per router, weighted by its terminals), each leg over the
/// routing's candidates as for minimal paths, the first leg ending where the message reaches
/// its intermediate (its router, or with `via = group` its group). Adaptive paths (UGAL, PAR)
/// follow queue state: their loads are not computed, and the minimal routes' facts stand in
/// for the mean and longest route.
fn nonminimal_facts(topo: &Topology, pattern: &Pattern, paths: Paths) -> Result<RouteFacts, SimError> {
    match nonminimal_loads(topo, pattern, paths)? {
        Ok(v) => Ok(RouteFacts {
            mean_hops: v.loads.iter().sum::<f64>()
                / pattern.senders().unwrap_or(topo.network().terminals()).max(1) as f64,
            longest: v.longest,
            loads: Some(groups(topo.network(), &v.loads)),
            load_method: v.method,
            hops_exact: true,
        }),
        Err(why) => {
            let m = facts(topo, pattern, None, Paths::default())?;
            Ok(RouteFacts {
                loads: None,
                load_method: format!("not computed: {why}; mean and longest route are the minimal routes'"),
                hops_exact: false,
                ..m
            })
        }
    }
}

/// Per-channel loads of non-minimal paths (at one message per terminal per cycle), the
/// longest route and how they were found.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelLoads {
    /// Messages per cycle on each channel.
    pub loads: Vec<f64>,
    /// The longest route, in hops.
    pub longest: u64,
    /// How they were computed.
    pub method: String,
}

/// Valiant's exact per-channel loads under `pattern` (each flow split evenly over the
/// intermediates it may draw, each leg over the routing's candidates), or why they are not
/// computed (adaptive paths; too much work; the locality subcube).
pub fn nonminimal_loads(
    topo: &Topology,
    pattern: &Pattern,
    paths: Paths,
) -> Result<Result<ChannelLoads, String>, SimError> {
    if paths.choice.adaptive() {
        return Ok(Err("adaptive paths follow queue state".into()));
    }
    let not_computed = |why: String| Ok(Err(why));
    let Some(flows) = pattern_flows(topo.network().terminals(), pattern) else {
        return not_computed("the locality subcube's loads are known for minimal routes only".into());
    };
    let sink = vec![0.0; topo.network().channels().len()];
    match topo.visit(ValiantFlows { flows, paths, groups: topo.groups(), sink }) {
        Ok((loads, longest, _)) => Ok(Ok(ChannelLoads {
            loads,
            longest,
            method: format!(
                "exact, every flow split evenly over its random intermediate {} and each leg over the routing's candidates",
                paths.via.name()
            ),
        })),
        Err(SimError::Invalid(why)) if why.starts_with("too much work") => not_computed(why),
        Err(e) => Err(e),
    }
}

/// Every (source, destination, messages per cycle) flow of `pattern` over `n` terminals at
/// one message per terminal per cycle; `None` for the locality subcube (whose flows are
/// known in closed form only).
fn pattern_flows(n: u32, pattern: &Pattern) -> Option<Vec<(u32, u32, f64)>> {
    let uniform = |w: f64, others: bool| -> Vec<(u32, u32, f64)> {
        (0..n).flat_map(|s| (0..n).filter(move |&d| !others || d != s).map(move |d| (s, d, w))).collect()
    };
    Some(match pattern {
        Pattern::Uniform(_) => uniform(1.0 / n as f64, false),
        Pattern::UniformOthers(_) => uniform(1.0 / (n as f64 - 1.0).max(1.0), true),
        Pattern::Fixed(table) => Pattern::table_flows(table),
        Pattern::GroupShift(g) => {
            let w = 1.0 / g.size as f64;
            (0..n).flat_map(|s| (0..g.size).map(move |k| (s, g.target(s) * g.size + k, w))).collect()
        }
        Pattern::Hotspot(h) => {
            let mut f = uniform((1.0 - h.fraction) / n as f64, false);
            let w = h.fraction / h.nodes.len() as f64;
            f.extend(h.nodes.iter().flat_map(|&d| (0..n).map(move |s| (s, d, w))));
            f
        }
        Pattern::CubeLocality(_) => return None,
    })
}

/// One turn of the flow: messages per cycle (at one message per terminal per cycle) that
/// reach `channel`'s router by `input` and leave over `channel`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turn {
    /// The channel they leave by.
    pub channel: u32,
    /// The input they arrived by: a channel's number, or [`netwrap_topo::metrics::injected`]`(t)`
    /// for terminal t's own messages (test with [`netwrap_topo::metrics::INJECTED`]).
    pub input: u32,
    /// Messages per cycle, at one message per terminal per cycle.
    pub rate: f64,
}

/// The turn flows of a pattern's routes: every channel's arrivals split by the input that
/// feeds them (what a per-channel queueing model needs, Agarwal 1991 §3.1's ρ_c, ρ_s and ρ_i
/// for any network), from the same route walk as the exact loads
/// ([`netwrap_topo::metrics::walk_leg`]): summed over its inputs, a channel's turns are its
/// load.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnFlows {
    /// The turns, by channel and then input.
    pub turns: Vec<Turn>,
    /// Messages per cycle the terminals send in all, at one message per terminal per cycle
    /// (N, or the senders of a permutation with silent fixed points).
    pub messages: f64,
    /// Of those, the messages per cycle that cross no channel (delivered at their source's
    /// router: self-addressed).
    pub unrouted: f64,
    /// Mean channels crossed by a message (over all `messages`).
    pub mean_hops: f64,
    /// The deliveries, by terminal and then input: in each, `channel` is the terminal the
    /// messages are delivered to and `input` the channel they reached its router by (or
    /// [`netwrap_topo::metrics::injected`]`(s)` for terminal s's self-addressed messages).
    pub deliveries: Vec<Turn>,
    /// The sets of more than one channel the routing offers at a router (each sorted, each
    /// once): the flow is split evenly over a set's channels, where the engines choose among
    /// them by queue state or by the message's salt.
    pub offered: Vec<Vec<u32>>,
    /// How they were computed.
    pub method: String,
}

impl TurnFlows {
    /// Every channel's load (messages per cycle at unit rate), the sum of its turns.
    pub fn loads(&self, channels: usize) -> Vec<f64> {
        let mut load = vec![0.0; channels];
        for t in &self.turns {
            load[t.channel as usize] += t.rate;
        }
        load
    }
}

/// What `Experiment::turn_flows` does with a routing that offers several next hops, which the
/// engines choose among by queue state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueChoice {
    /// Refuse it: an even split over the next hops is not the run's (the ideal switch's model,
    /// whose output queues would each see their own share).
    Refuse,
    /// Take it: the caller models the channels offered together ([`TurnFlows::offered`]) as
    /// the servers of one queue (a message takes whichever frees first), for which the even
    /// split gives each channel's share of the queue's arrivals.
    Servers,
}

/// Collects turns ([`TurnFlows`]): (input, channel) -> messages per cycle.
#[derive(Default)]
struct TurnSink {
    /// (channel, input) → rate.
    turns: std::collections::HashMap<(u32, u32), f64>,
    /// (terminal, input) → rate.
    deliveries: std::collections::HashMap<(u32, u32), f64>,
    /// The candidate sets of more than one channel, sorted.
    offered: std::collections::HashSet<Vec<u32>>,
}

impl FlowSink for TurnSink {
    const TURNS: bool = true;
    fn take(&mut self, input: u32, channel: u32, weight: f64) {
        *self.turns.entry((channel, input)).or_default() += weight;
    }
    fn deliver(&mut self, input: u32, t: u32, weight: f64) {
        *self.deliveries.entry((t, input)).or_default() += weight;
    }
    fn offered(&mut self, channels: &[u32]) {
        let mut set = channels.to_vec();
        set.sort_unstable();
        set.dedup();
        if !self.offered.contains(&set) {
            self.offered.insert(set);
        }
    }
}

/// The turn flows of `pattern` on `topo` under `paths` (every flow routed, split over the
/// routing's candidates as the exact loads split it; Valiant's over its intermediates and
/// each leg over the candidates, as [`nonminimal_loads`] splits it, a message reaching its
/// second leg by the channel it reached its intermediate by), or why not: the locality
/// subcube (its flows are known in closed form only), adaptive paths (their split follows
/// queue state), or more work than [`LOAD_WORK_LIMIT`] routing decisions.
pub fn turn_flows(
    topo: &Topology,
    pattern: &Pattern,
    paths: Paths,
) -> Result<Result<TurnFlows, String>, SimError> {
    let method = if paths.choice == PathChoice::Minimal {
        "exact, every flow routed, split evenly over the routing's candidates at every hop, kept apart by the input it arrived by".to_string()
    } else {
        format!(
            "exact, every flow split evenly over its random intermediate {} and each leg over the routing's candidates, kept apart by the input it arrived by",
            paths.via.name()
        )
    };
    Ok(walk_flows(topo, pattern, paths, TurnSink::default())?
        .map(|(sink, messages)| sink.flows(messages, method)))
}

/// Every flow of `pattern` on `topo` under `paths` walked turn by turn into `sink`, as
/// [`turn_flows`] walks them (each flow announced first, [`FlowSink::flow`]), with the messages
/// a cycle sent in all; or why not, as [`turn_flows`] refuses.
pub fn walk_flows<S: FlowSink>(
    topo: &Topology,
    pattern: &Pattern,
    paths: Paths,
    sink: S,
) -> Result<Result<(S, f64), String>, SimError> {
    if paths.choice.adaptive() {
        return Ok(Err(
            "adaptive paths follow queue state: their split over paths is not known before a run".into(),
        ));
    }
    let n = topo.network().terminals();
    let Some(flows) = pattern_flows(n, pattern) else {
        return Ok(Err("the locality subcube's flows are known in closed form only, not by turn".into()));
    };
    if paths.choice == PathChoice::Minimal {
        return topo.visit(TurnWalk { flows, sink });
    }
    let messages = flows.iter().map(|f| f.2).sum();
    match topo.visit(ValiantFlows { flows, paths, groups: topo.groups(), sink }) {
        Ok((sink, ..)) => Ok(Ok((sink, messages))),
        Err(SimError::Invalid(why)) if why.starts_with("too much work") => Ok(Err(why)),
        Err(e) => Err(e),
    }
}

/// Every flow routed into a sink that keeps turns ([`walk_flows`]).
struct TurnWalk<S> {
    flows: Vec<(u32, u32, f64)>,
    sink: S,
}

impl<S: FlowSink> Visitor for TurnWalk<S> {
    type Output = Result<Result<(S, f64), String>, SimError>;
    fn visit<F: Family>(mut self, f: &F) -> Self::Output {
        let net = f.network();
        let mut scratch = FlowScratch::for_network(net);
        let (mut work, mut messages) = (0u64, 0.0);
        for &(s, d, w) in &self.flows {
            self.sink.flow(s, d, w);
            work += add_flow(net, f, s, d, w, &mut self.sink, &mut scratch)?.0;
            messages += w;
            if work > LOAD_WORK_LIMIT {
                return Ok(Err(format!(
                    "routing the pattern's {} flows turn by turn took more than {:.0e} routing decisions",
                    self.flows.len(),
                    LOAD_WORK_LIMIT as f64
                )));
            }
        }
        Ok(Ok((self.sink, messages)))
    }
}

impl TurnSink {
    /// The turns collected, for `messages` sent a cycle in all.
    fn flows(self, messages: f64, method: String) -> TurnFlows {
        let by_key = |map: std::collections::HashMap<(u32, u32), f64>| {
            let mut v: Vec<Turn> =
                map.into_iter().map(|((channel, input), rate)| Turn { channel, input, rate }).collect();
            v.sort_unstable_by_key(|t| (t.channel, t.input));
            v
        };
        let turns = by_key(self.turns);
        let deliveries = by_key(self.deliveries);
        let mut offered: Vec<Vec<u32>> = self.offered.into_iter().collect();
        offered.sort_unstable();
        let injected: f64 = turns.iter().filter(|t| t.input & INJECTED != 0).map(|t| t.rate).sum();
        let crossings: f64 = turns.iter().map(|t| t.rate).sum();
        TurnFlows {
            turns,
            messages,
            unrouted: (messages - injected).max(0.0),
            mean_hops: crossings / messages.max(f64::MIN_POSITIVE),
            deliveries,
            offered,
            method,
        }
    }
}

/// Per-channel loads of `flows` (source, destination, weight) under `paths`: each route split
/// evenly over the routing's candidates (and, under Valiant's paths, over the intermediates),
/// in the flows' own unit (a collective's flits); `None` under adaptive paths (they follow
/// queue state) or when walking them is too much work.
pub fn flow_loads(
    topo: &Topology,
    flows: Vec<(u32, u32, f64)>,
    paths: Paths,
) -> Result<Option<Vec<f64>>, SimError> {
    if paths.choice.adaptive() {
        return Ok(None);
    }
    let sink = vec![0.0; topo.network().channels().len()];
    let walked = if paths.choice == PathChoice::Minimal {
        topo.visit(MinimalFlows { flows, sink })
    } else {
        topo.visit(ValiantFlows { flows, paths, groups: topo.groups(), sink }).map(|(l, ..)| l)
    };
    match walked {
        Ok(loads) => Ok(Some(loads)),
        Err(SimError::Invalid(why)) if why.starts_with("too much work") => Ok(None),
        Err(e) => Err(e),
    }
}

/// Flows walked along the routing's minimal routes (see [`flow_loads`]).
struct MinimalFlows {
    flows: Vec<(u32, u32, f64)>,
    sink: Vec<f64>,
}

impl Visitor for MinimalFlows {
    type Output = Result<Vec<f64>, SimError>;
    fn visit<F: Family>(mut self, f: &F) -> Self::Output {
        let net = f.network();
        let mut scratch = FlowScratch::for_network(net);
        let mut ends: Vec<LegEnd> = Vec::new();
        let sink: &mut [f64] = &mut self.sink;
        for &(s, d, w) in &self.flows {
            walk_leg(net, f, (net.inject_router(s), 0), d, w, 0, |_| false, sink, &mut scratch, &mut ends)?;
        }
        Ok(self.sink)
    }
}

/// Valiant's flows walked leg by leg (see [`nonminimal_facts`]) into `sink`: the loads, or
/// (with a sink that keeps inputs apart) the turn flows.
struct ValiantFlows<S> {
    flows: Vec<(u32, u32, f64)>,
    paths: Paths,
    groups: Option<(u32, u32)>,
    sink: S,
}

impl<S: FlowSink> Visitor for ValiantFlows<S> {
    /// The sink filled, the longest route, and the routing decisions taken.
    type Output = Result<(S, u64, u64), SimError>;
    fn visit<F: Family>(mut self, f: &F) -> Self::Output {
        let net = f.network();
        let legs = Legs::new(self.paths, net, self.groups);
        let vias = legs.intermediates();
        // Flows from one router to one destination share their routes: merge them (with turns,
        // those of one terminal: each terminal's injection is an input of its own).
        let mut flows: Vec<(RouterId, u32, u32, f64)> = self
            .flows
            .iter()
            .map(|&(s, d, w)| (net.inject_router(s), if S::TURNS { injected(s) } else { 0 }, d, w))
            .collect();
        flows.sort_unstable_by_key(|&(r, i, d, _)| (r, i, d));
        flows.dedup_by(|b, a| {
            let same = (a.0, a.1, a.2) == (b.0, b.1, b.2);
            if same {
                a.3 += b.3;
            }
            same
        });
        let estimate = flows.len() as f64 * (vias.len() as f64 + 1.0) * 2.0;
        if estimate > LOAD_WORK_LIMIT as f64 {
            return Err(SimError::Invalid(format!(
                "too much work: walking {} flows through {} intermediates takes about {estimate:.1e} routing decisions, more than the {:.0e} limit",
                flows.len(),
                vias.len(),
                LOAD_WORK_LIMIT as f64
            )));
        }
        // Each leg is at least as long as the shortest path it follows: when that alone makes
        // the walk exceed its limit, it is refused before it starts (the verdict it would reach
        // at the limit, seconds later), as long as the distances cost a tenth of the walk's
        // limit at most.
        let salts = if f.salt_changes_candidates() { 2 } else { 1 };
        let ends: Vec<(RouterId, u32)> = flows.iter().map(|&(r, _, d, _)| (r, d)).collect();
        if let Some(least) = legs.least_work(net, &vias, salts, &ends, LOAD_WORK_LIMIT / 10)
            && least > LOAD_WORK_LIMIT as f64
        {
            return Err(SimError::Invalid(format!(
                "too much work: walking {} flows through {} intermediates takes at least {least:.1e} routing decisions (each leg at least as long as the shortest path), more than the {:.0e} limit",
                flows.len(),
                vias.len(),
                LOAD_WORK_LIMIT as f64
            )));
        }
        let sink = &mut self.sink;
        let mut scratch = FlowScratch::for_network(net);
        let (mut longest, mut work) = (0u64, 0u64);
        let mut landed: Vec<LegEnd> = Vec::new();
        let mut ends: Vec<LegEnd> = Vec::new();
        for &(r, input, d, w) in &flows {
            if S::TURNS {
                sink.flow(input & !INJECTED, d, w);
            }
            if legs.local(r, d) {
                let (n, l) = walk_leg(net, f, (r, input), d, w, 0, |_| false, sink, &mut scratch, &mut ends)?;
                (work, longest) = (work + n, longest.max(l));
                continue;
            }
            for &(v, share) in &vias {
                let arrived = |at: RouterId| legs.arrived(at, v);
                work +=
                    walk_leg(net, f, (r, input), v, w * share, 0, arrived, sink, &mut scratch, &mut landed)?
                        .0;
                for &(mid, wm, steps, via) in &landed {
                    let (n, l) =
                        walk_leg(net, f, (mid, via), d, wm, steps, |_| false, sink, &mut scratch, &mut ends)?;
                    (work, longest) = (work + n, longest.max(l));
                }
            }
            if work > LOAD_WORK_LIMIT {
                return Err(SimError::Invalid(format!(
                    "too much work: Valiant's flows took more than {:.0e} routing decisions",
                    LOAD_WORK_LIMIT as f64
                )));
            }
        }
        Ok((self.sink, longest, work))
    }
}

/// Uniform traffic's facts, the source included or (`others`) excluded.
fn uniform_facts(
    topo: &Topology,
    subcube: Option<&LocalitySubcube>,
    others: bool,
) -> Result<RouteFacts, SimError> {
    if let Topology::Cube(cube) = topo {
        let spec = cube.spec();
        let sides = subcube.map_or_else(|| spec.radices.clone(), |s| s.sides.clone());
        let loads = cube_loads(spec, &sides);
        let net = cube.network();
        // Without its self-addressed messages (N of the N² pairs, none using a channel), uniform
        // traffic's loads and hops are N/(N − 1) times the uniform ones.
        let scale = if others {
            let n = net.terminals() as f64;
            n / (n - 1.0)
        } else {
            1.0
        };
        // With p terminals per router each router sends p times the messages of one terminal,
        // over the same routes (a destination at the source's router: no hop).
        let per_router = cube.per_router() as f64;
        let mut count = vec![0u64; net.classes().len()];
        for c in net.channels() {
            count[c.class as usize] += 1;
        }
        let groups = (0..count.len())
            .map(|c| LoadGroup {
                class: c as u16,
                width: 1,
                max: loads.class_max[c] * scale * per_router,
                sum: loads.class_mean[c] * count[c] as f64 * scale * per_router,
                channels: count[c],
            })
            .collect();
        return Ok(RouteFacts {
            mean_hops: loads.mean_hops * scale,
            longest: loads.longest,
            loads: Some(groups),
            load_method: "exact, from each dimension's offsets (dimension-order routing)".into(),
            hops_exact: true,
        });
    }
    Walk::of(topo, others).visit_grouped(topo)
}

/// The channels of the route from `s` to `d` (first candidate at every hop: the families'
/// alternatives are equally long), into `path`; `cands` is scratch space, reused across calls.
fn route<F: Family>(
    f: &F,
    s: TerminalId,
    d: TerminalId,
    path: &mut Vec<u32>,
    cands: &mut Candidates,
) -> Result<(), SimError> {
    let net = f.network();
    let mut at = net.inject_router(s);
    path.clear();
    loop {
        f.route(at, d, 0, cands);
        let Some(&c) = cands.as_slice().first() else { return Ok(()) };
        path.push(c);
        at = net.channel(c).dst;
        if path.len() > net.channels().len() {
            return Err(SimError::Invalid(format!(
                "the route from {s} to {d} does not reach its destination"
            )));
        }
    }
}

struct Walk {
    vertex_transitive: bool,
    /// Every terminal's routes have the same lengths ([`Topology::routes_alike`]): terminal
    /// 0's are walked alone.
    alike: bool,
    class_symmetric: bool,
    /// Uniform over the other terminals (the source excluded).
    others: bool,
}

/// Route facts with per-channel loads, before grouping.
struct ChannelFacts {
    mean_hops: f64,
    longest: u64,
    loads: Option<Vec<f64>>,
    load_method: String,
}

impl Visitor for Walk {
    type Output = Result<ChannelFacts, SimError>;
    fn visit<F: Family>(self, f: &F) -> Self::Output {
        let net = f.network();
        let n = net.terminals();
        if !self.alike && n > PAIRS_LIMIT {
            return Err(SimError::Invalid(format!(
                "{n} terminals without symmetry: netwrap simulates asymmetric families up to {PAIRS_LIMIT} terminals (their routes are walked pair by pair)"
            )));
        }
        // Mean over (source, destination) pairs — from terminal 0 alone when every terminal
        // looks the same — and how often self-addressed messages use each channel.
        let (mut path, mut cands) = (Vec::new(), Candidates::for_network(net));
        let sources = if self.alike { 1 } else { n };
        let (total, longest) = if self.vertex_transitive {
            lengths_from_zero(f)?
        } else {
            let (mut total, mut longest) = (0u64, 0u64);
            for s in 0..sources {
                for d in 0..n {
                    route(f, s, d, &mut path, &mut cands)?;
                    total += path.len() as u64;
                    longest = longest.max(path.len() as u64);
                }
            }
            (total, longest)
        };
        let mut self_use = vec![0u32; net.channels().len()];
        for s in 0..n {
            route(f, s, s, &mut path, &mut cands)?;
            for &c in &path {
                self_use[c as usize] += 1;
            }
        }
        let mean_hops = if self.others {
            // Every ordered pair's hops, less the self-addressed routes', over N(N − 1) pairs.
            let all = total as f64 * n as f64 / sources as f64;
            let own: f64 = self_use.iter().map(|&u| u as f64).sum();
            (all - own) / (n as f64 * (n as f64 - 1.0)).max(1.0)
        } else {
            total as f64 / (sources as f64 * n as f64)
        };
        // Terminal 0's mean distance: its routes' length in all, known before they are walked.
        let from_zero = self.alike.then(|| total as f64 / n.max(1) as f64);
        let (loads, load_method) = match bounded_channel_loads(net, f, self.class_symmetric, from_zero)? {
            Ok((distinct, how)) => (Some(per_channel(net, &distinct, &self_use, self.others)), how),
            Err(why) => (None, why),
        };
        Ok(ChannelFacts { mean_hops, longest, loads, load_method })
    }
}

impl Walk {
    fn of(topo: &Topology, others: bool) -> Self {
        let (vertex_transitive, class_symmetric) = topo.symmetry();
        Walk { vertex_transitive, alike: topo.routes_alike(), class_symmetric, others }
    }

    fn visit_grouped(self, topo: &Topology) -> Result<RouteFacts, SimError> {
        let c = topo.visit(self)?;
        let net = topo.network();
        Ok(RouteFacts {
            mean_hops: c.mean_hops,
            longest: c.longest,
            loads: c.loads.map(|l| groups(net, &l)),
            load_method: c.load_method,
            hops_exact: true,
        })
    }
}

/// A fixed permutation's routes (`table`), group shift's (`group`: every source to each
/// terminal of its target group, weighted by one over the group's size), or hot-spot
/// traffic's (`hotspot`: the nodes and the fraction of messages sent to them) mixed with the
/// `uniform` facts' per-channel loads.
struct Flows<'a, U> {
    table: Option<&'a [u32]>,
    hotspot: Option<(&'a [u32], f64)>,
    group: Option<GroupShift>,
    uniform: U,
}

impl<U: UniformPart> Visitor for Flows<'_, U> {
    type Output = Result<RouteFacts, SimError>;
    fn visit<F: Family>(self, f: &F) -> Self::Output {
        let net = f.network();
        let n = net.terminals();
        let m = net.channels().len();
        // (source, destination, weight per unit rate) of every flow.
        let flows: Vec<(u32, u32, f64)> = match (self.table, self.hotspot, self.group) {
            (Some(table), _, _) => Pattern::table_flows(table),
            (None, Some((hot, fraction)), _) => {
                let w = fraction / hot.len() as f64;
                hot.iter().flat_map(|&h| (0..n).map(move |s| (s, h, w))).collect()
            }
            (None, None, Some(g)) => {
                let w = 1.0 / g.size as f64;
                (0..n).flat_map(|s| (0..g.size).map(move |k| (s, g.target(s) * g.size + k, w))).collect()
            }
            (None, None, None) => Vec::new(),
        };
        let uniform_hops = self.uniform.hops();
        // Too much routing: no loads, and uniform traffic's route lengths, saying why.
        let not_computed = |why: String| RouteFacts {
            mean_hops: uniform_hops.0,
            longest: uniform_hops.1,
            loads: None,
            load_method: format!("not computed: {why}; mean and longest route are uniform traffic's"),
            hops_exact: false,
        };
        let walks = flows.len() as f64 * uniform_hops.0.max(1.0);
        if walks > LOAD_WORK_LIMIT as f64 {
            return Ok(not_computed(format!(
                "routing the pattern's {} flows takes about {walks:.1e} routing decisions, more than the {:.0e} limit",
                flows.len(),
                LOAD_WORK_LIMIT as f64
            )));
        }
        let mut load = vec![0.0; m];
        let mut scratch = FlowScratch::for_network(net);
        let mut longest = 0u64;
        let mut work = 0u64;
        for &(s, d, w) in &flows {
            let (decisions, steps) = add_flow(net, f, s, d, w, &mut load, &mut scratch)?;
            work += decisions;
            longest = longest.max(steps);
            if work > LOAD_WORK_LIMIT {
                return Ok(not_computed(format!(
                    "routing the pattern's {} flows took more than {:.0e} routing decisions",
                    flows.len(),
                    LOAD_WORK_LIMIT as f64
                )));
            }
        }
        // Every message of unit weight adds its expected hops to the channels' sum.
        let routed: f64 = load.iter().sum();
        let (mean_hops, loads, how) = match self.hotspot {
            None if self.group.is_some() => (
                routed / n as f64,
                Some(load),
                "exact, every source routed to each terminal of its target group".to_string(),
            ),
            None => {
                // A silent fixed point sends nothing: the mean is over the messages sent.
                let senders = self.table.map_or(n, Pattern::table_senders);
                (
                    routed / senders.max(1) as f64,
                    Some(load),
                    "exact, every source routed to its destination".to_string(),
                )
            }
            Some((_, fraction)) => {
                let (u_hops, u_longest) = uniform_hops;
                longest = longest.max(u_longest);
                let mean = (1.0 - fraction) * u_hops + routed / n as f64;
                match self.uniform.channel_loads() {
                    Some((u, how)) => {
                        let mixed = u.iter().zip(&load).map(|(u, h)| (1.0 - fraction) * u + h).collect();
                        (
                            mean,
                            Some(mixed),
                            format!("exact: uniform part {how}; every source routed to each hot spot"),
                        )
                    }
                    None => (
                        mean,
                        None,
                        format!(
                            "not computed: the uniform part's per-channel loads are unknown ({})",
                            self.uniform.method()
                        ),
                    ),
                }
            }
        };
        Ok(RouteFacts {
            mean_hops,
            longest,
            loads: loads.map(|l| groups(net, &l)),
            load_method: how,
            hops_exact: true,
        })
    }
}

/// What [`Flows`] needs of uniform traffic: its mean and longest route, and its per-channel
/// loads when the pattern mixes them in.
trait UniformPart {
    fn hops(&self) -> (f64, u64);
    fn channel_loads(&self) -> Option<(&[f64], &str)>;
    fn method(&self) -> &str;
}

impl UniformPart for RouteFacts {
    fn hops(&self) -> (f64, u64) {
        (self.mean_hops, self.longest)
    }
    fn channel_loads(&self) -> Option<(&[f64], &str)> {
        None
    }
    fn method(&self) -> &str {
        &self.load_method
    }
}

impl UniformPart for ChannelFacts {
    fn hops(&self) -> (f64, u64) {
        (self.mean_hops, self.longest)
    }
    fn channel_loads(&self) -> Option<(&[f64], &str)> {
        self.loads.as_deref().map(|l| (l, self.load_method.as_str()))
    }
    fn method(&self) -> &str {
        &self.load_method
    }
}

/// Hops a route may walk to check [`lengths_from_zero`]: about a second of routing.
const CHECK_HOPS: u64 = 10_000_000;

/// The total and the longest route length from terminal 0 to every terminal of a
/// vertex-transitive family, from one breadth-first search.
///
/// The families that reach here vertex-transitive route minimally (every minimal next hop, or
/// a table of them), so each route is as long as the shortest path, and a search costs
/// O(channels) where walking every route costs N times the mean distance: hours for a
/// Midimew of 2^24 nodes (routes of 2,900 hops on average) or a circulant C_N(1, 2) of 10^6
/// nodes. Routes to destinations spread over the network are walked to check that they are
/// as long, within [`CHECK_HOPS`].
fn lengths_from_zero<F: Family>(f: &F) -> Result<(u64, u64), SimError> {
    let net = f.network();
    let n = net.terminals();
    let dist = bfs_from(net, net.inject_router(0));
    let hops = |d: TerminalId| -> Result<u64, SimError> {
        match dist[net.eject_router(d) as usize] {
            u32::MAX => Err(SimError::Invalid(format!("terminal {d} cannot be reached from terminal 0"))),
            h => Ok(h as u64),
        }
    };
    let (mut total, mut longest) = (0u64, 0u64);
    for d in 0..n {
        let h = hops(d)?;
        total += h;
        longest = longest.max(h);
    }
    let (mut path, mut cands) = (Vec::new(), Candidates::for_network(net));
    let mut budget = CHECK_HOPS;
    const SAMPLES: u64 = 64;
    for i in 0..SAMPLES.min(n as u64) {
        let d = ((2 * i + 1) * n as u64 / (2 * SAMPLES.min(n as u64))) as TerminalId;
        let expected = hops(d)?;
        if i > 0 && expected > budget {
            break;
        }
        route(f, 0, d, &mut path, &mut cands)?;
        if path.len() as u64 != expected {
            return Err(SimError::Invalid(format!(
                "the route from terminal 0 to {d} has {} hops where the shortest path has {expected}: the mean route length cannot be taken from distances",
                path.len()
            )));
        }
        budget = budget.saturating_sub(expected);
    }
    Ok((total, longest))
}

/// Uniform traffic's per-channel loads: distinct-pair loads weighted (N − 1)/N, self-addressed
/// routes 1/N; without the source (`others`), the distinct-pair loads alone.
fn per_channel(net: &Network, distinct: &[f64], self_use: &[u32], others: bool) -> Vec<f64> {
    let n = net.terminals() as f64;
    if others {
        return distinct.to_vec();
    }
    distinct.iter().zip(self_use).map(|(&d, &u)| d * (n - 1.0) / n + u as f64 / n).collect()
}

/// Folds per-channel loads into (class, width) groups.
fn groups(net: &Network, loads: &[f64]) -> Vec<LoadGroup> {
    let mut out: Vec<LoadGroup> = Vec::new();
    for (i, c) in net.channels().iter().enumerate() {
        let load = loads[i];
        match out.iter_mut().find(|g| g.class == c.class && g.width == c.width as u32) {
            Some(g) => {
                g.max = g.max.max(load);
                g.sum += load;
                g.channels += 1;
            }
            None => out.push(LoadGroup {
                class: c.class,
                width: c.width as u32,
                max: load,
                sum: load,
                channels: 1,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use netwrap_engine::traffic;
    use netwrap_topo::{RoutingAlgorithm, RoutingSpec, TopologySpec};

    /// Every route from terminal 0 walked: what [`lengths_from_zero`] replaces.
    struct WalkAll;

    impl Visitor for WalkAll {
        type Output = (u64, u64);
        fn visit<F: Family>(self, f: &F) -> (u64, u64) {
            let (mut path, mut cands) = (Vec::new(), Candidates::for_network(f.network()));
            let (mut total, mut longest) = (0, 0);
            for d in 0..f.network().terminals() {
                route(f, 0, d, &mut path, &mut cands).unwrap();
                total += path.len() as u64;
                longest = longest.max(path.len() as u64);
            }
            (total, longest)
        }
    }

    struct FromDistances;

    impl Visitor for FromDistances {
        type Output = (u64, u64);
        fn visit<F: Family>(self, f: &F) -> (u64, u64) {
            lengths_from_zero(f).unwrap()
        }
    }

    /// The breadth-first lengths are the walked ones on every vertex-transitive family that
    /// the route facts take them for (the cube families use closed forms unless table-routed).
    #[test]
    fn distances_give_the_walked_route_lengths_on_every_vertex_transitive_family() {
        let table = RoutingSpec { algorithm: RoutingAlgorithm::Table, ..Default::default() };
        let record = RoutingSpec { algorithm: RoutingAlgorithm::Record, ..Default::default() };
        let family = RoutingSpec::default();
        let cases = [
            (r#"{"family": "midimew", "nodes": 64}"#, &family),
            (r#"{"family": "midimew", "nodes": 97}"#, &record),
            (r#"{"family": "circulant", "nodes": 50, "a": 3, "b": 7}"#, &family),
            (r#"{"family": "complete", "nodes": 9}"#, &family),
            (r#"{"family": "nhop", "factors": [3, 5, 2]}"#, &family),
            (r#"{"family": "ccc", "n": 3}"#, &family),
            (r#"{"family": "ccc", "n": 5}"#, &family),
            (r#"{"family": "torus", "k": 5, "n": 2}"#, &table),
            (r#"{"family": "torus", "radices": [4, 3], "bidirectional": true}"#, &table),
            (r#"{"family": "ring", "k": 9, "bidirectional": true}"#, &table),
            (r#"{"family": "nhop", "factors": [4, 4]}"#, &table),
        ];
        for (json, routing) in cases {
            let spec: TopologySpec = serde_json::from_str(json).unwrap();
            let topo = spec.shape(routing).unwrap().build().unwrap();
            assert!(topo.symmetry().0, "{json} is not vertex-transitive: not a case of this test");
            assert_eq!(topo.visit(FromDistances), topo.visit(WalkAll), "{json}");
        }
    }

    /// Verification: where every terminal's routes are alike ([`Topology::routes_alike`]) but
    /// the family is not vertex-transitive, terminal 0's routes give the mean and longest route
    /// that every pair's give (the walk of all N² pairs, the exact answer), under uniform
    /// traffic and uniform traffic over the others; the unbalanced dragonfly, whose routers
    /// differ, is the case the rule must leave out.
    #[test]
    fn terminal_zero_gives_every_pairs_route_lengths_where_routes_are_alike() {
        let family = RoutingSpec::default();
        let dmodk = RoutingSpec { up_port: Some(netwrap_topo::UpPort::Dmodk), ..Default::default() };
        let cases = [
            r#"{"family": "kary-ntree", "k": 4, "n": 3}"#,
            r#"{"family": "xgft", "children": [3, 2, 2], "parents": [1, 2, 3]}"#,
            r#"{"family": "fat-tree", "nodes": 64}"#,
            r#"{"family": "butterfly", "k": 4, "stages": 3}"#,
            r#"{"family": "dragonfly", "p": 2}"#,
            r#"{"family": "dragonfly", "p": 2, "a": 3, "h": 2}"#,
            r#"{"family": "dragonfly", "p": 3, "arrangement": "relative"}"#,
            r#"{"family": "dragonfly", "p": 2, "arrangement": "palmtree"}"#,
        ];
        let cases = cases.map(|json| (json, &family));
        let kary = r#"{"family": "kary-ntree", "k": 3, "n": 3}"#;
        for (json, routing) in cases.into_iter().chain([(kary, &dmodk)]) {
            let spec: TopologySpec = serde_json::from_str(json).unwrap();
            let topo = spec.shape(routing).unwrap().build().unwrap();
            assert!(topo.routes_alike() && !topo.symmetry().0, "{json}: not a case of this test");
            for others in [false, true] {
                let (vertex_transitive, class_symmetric) = topo.symmetry();
                let one = Walk { vertex_transitive, alike: true, class_symmetric, others };
                let all = Walk { vertex_transitive, alike: false, class_symmetric, others };
                let (one, all) = (topo.visit(one).unwrap(), topo.visit(all).unwrap());
                assert!(
                    (one.mean_hops - all.mean_hops).abs() < 1e-12,
                    "{json}: {} {}",
                    one.mean_hops,
                    all.mean_hops
                );
                assert_eq!(one.longest, all.longest, "{json}");
            }
        }
        let unbalanced: TopologySpec =
            serde_json::from_str(r#"{"family": "dragonfly", "p": 2, "groups": 5}"#).unwrap();
        assert!(!unbalanced.shape(&family).unwrap().build().unwrap().routes_alike());
    }

    /// Regression: a circulant C_N(1, 2) of 10^6 nodes took minutes before its first cycle
    /// (10^6 routes of 125,000 hops on average walked one by one, 1.25·10^11 routing
    /// decisions); its route lengths now take one breadth-first search.
    #[test]
    fn route_lengths_of_a_huge_circulant_are_quick() {
        let spec: TopologySpec =
            serde_json::from_str(r#"{"family": "circulant", "nodes": 1000000, "a": 1, "b": 2}"#).unwrap();
        let topo = spec.shape(&RoutingSpec::default()).unwrap().build().unwrap();
        let start = std::time::Instant::now();
        let (total, longest) = topo.visit(FromDistances);
        let elapsed = start.elapsed();
        // Offsets up to N/2 either way, covered two at a time: mean N/8, farthest N/4.
        assert_eq!((total, longest), (125_000_250_000, 250_000));
        // Measured: 0.17 s (the search, and 64 routes checked within 10^7 hops). The walk it
        // replaces takes minutes; 10 s leaves room for a loaded machine.
        assert!(elapsed.as_secs() < 10, "{elapsed:?}");
    }

    fn built(json: &str) -> Topology {
        let spec: TopologySpec = serde_json::from_str(json).unwrap();
        spec.shape(&RoutingSpec::default()).unwrap().build().unwrap()
    }

    /// The busiest channel's load per unit rate, and the mean hops.
    fn busiest(f: &RouteFacts) -> (f64, f64) {
        let max = f.loads.as_ref().unwrap().iter().map(|g| g.max).fold(0.0, f64::max);
        (max, f.mean_hops)
    }

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12
    }

    /// Verification against hand-derived loads, per unit request rate:
    /// - tornado on a unidirectional 8-ring: every node sends 3 hops ahead, so each channel
    ///   carries the 3 messages that started 0, 1 and 2 hops behind it: 3 everywhere, 3 hops;
    /// - transpose on a 4 × 4 mesh, y first then x: (x, y) → (y, x) goes down column x from
    ///   row y to row x, then along row x to column y; the channel from (0, 1) down to (0, 0)
    ///   carries the three sources (0, 1), (0, 2), (0, 3), and no channel carries more; mean
    ///   hops 2·Σ|x − y| / 16 = 2·20/16 = 2.5;
    /// - bit-complement on a 4-cube: every message crosses each dimension once and, under
    ///   dimension order, the nodes where messages cross dimension i are a bijection of their
    ///   sources, so every channel carries exactly 1; 4 hops;
    /// - uniform-others on a unidirectional 8-ring: offsets 1..7 equally, 4 hops, so every
    ///   channel carries 4;
    /// - hotspot (node 0, fraction ½) on a unidirectional 4-ring: the uniform half offers
    ///   ½·(k − 1)/2 = 0.75 to every channel; sources 1, 2, 3 all reach node 0 through channel
    ///   3 → 0, ½·3 = 1.5: busiest 2.25; mean hops ½·1.5 + ½·(3 + 2 + 1)/4 = 1.5.
    #[test]
    fn exact_loads_follow_the_pattern() {
        let ring8 = built(r#"{"family": "ring", "k": 8}"#);
        let f = facts(&ring8, &Pattern::Fixed(traffic::tornado(&[8])), None, Paths::default()).unwrap();
        assert!(f.loads.as_ref().unwrap().iter().all(|g| g.max == 3.0 && g.sum == 3.0 * g.channels as f64));
        assert_eq!((f.mean_hops, f.longest), (3.0, 3));
        let mesh = built(r#"{"family": "mesh", "k": 4}"#);
        let f =
            facts(&mesh, &Pattern::Fixed(traffic::transpose(16).unwrap()), None, Paths::default()).unwrap();
        assert!(close(busiest(&f), (3.0, 2.5)), "{f:?}");
        let cube = built(r#"{"family": "hypercube", "n": 4}"#);
        let f = facts(&cube, &Pattern::Fixed(traffic::bit_complement(16).unwrap()), None, Paths::default())
            .unwrap();
        assert!(
            f.loads.as_ref().unwrap().iter().all(|g| g.max == 1.0 && g.sum == g.channels as f64),
            "{f:?}"
        );
        assert_eq!((f.mean_hops, f.longest), (4.0, 4));
        let f = facts(&ring8, &Pattern::UniformOthers(8), None, Paths::default()).unwrap();
        assert!(close(busiest(&f), (4.0, 4.0)), "{f:?}");
        let ring4 = built(r#"{"family": "ring", "k": 4}"#);
        let hot = Pattern::Hotspot(traffic::Hotspot { nodes: vec![0], fraction: 0.5, terminals: 4 });
        let f = facts(&ring4, &hot, None, Paths::default()).unwrap();
        assert!(close(busiest(&f), (2.25, 1.5)), "{f:?}");
    }

    /// Verification against hand arithmetic: the turn flows of a 4-ary 2-cube (unidirectional,
    /// dimension order, uniform with the source), per unit rate, a = 3/4 of messages having a
    /// non-zero offset in a dimension, q = 1/4. The dimension routed first is fed by its own
    /// dimension (k_d − a = 1.5 − 0.75 = 0.75) and the node (a = 0.75); the second by its own
    /// (0.75), the first (a² = 0.5625) and the node (a·q = 0.1875). Each channel's turns sum to
    /// its exact load, k_d = 1.5; Λ = N = 16, none of the self-addressed 1/16 crosses a channel.
    #[test]
    fn turn_flows_of_a_small_torus_by_hand() {
        let topo = built(r#"{"family": "torus", "k": 4, "n": 2}"#);
        let t = turn_flows(&topo, &Pattern::Uniform(16), Paths::default()).unwrap().unwrap();
        let net = topo.network();
        let (mut first, mut second) = (0, 0);
        for c in 0..net.channels().len() as u32 {
            let mut inputs: Vec<(bool, f64)> = t
                .turns
                .iter()
                .filter(|x| x.channel == c)
                .map(|x| (x.input & INJECTED != 0, x.rate))
                .collect();
            inputs.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let close = |a: &[(bool, f64)], b: &[(bool, f64)]| {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && (x.1 - y.1).abs() < 1e-12)
            };
            if close(&inputs, &[(false, 0.75), (true, 0.75)]) {
                first += 1;
            } else if close(&inputs, &[(false, 0.5625), (false, 0.75), (true, 0.1875)]) {
                second += 1;
            } else {
                panic!("channel {c}: {inputs:?}");
            }
        }
        assert_eq!((first, second), (16, 16));
        assert!((t.messages - 16.0).abs() < 1e-12 && (t.unrouted - 1.0).abs() < 1e-12, "{t:?}");
        assert!((t.mean_hops - 3.0).abs() < 1e-12);
    }

    /// Verification: the turns are the exact loads split, from the same route walk: summed
    /// by channel they give [`facts`]' load groups, on a mesh under transpose (routed flow by
    /// flow), a Midimew under uniform traffic (the loads by symmetry) and a fat-tree (several
    /// candidates a hop, split evenly); the deliveries are every message once, and a
    /// channel's flow leaves it whole (into turns and deliveries); the fat-tree offers its
    /// up-links in pairs, the mesh nothing.
    #[test]
    fn turns_sum_to_the_exact_loads() {
        let cases = [
            (r#"{"family": "mesh", "k": 4}"#, Pattern::Fixed(traffic::transpose(16).unwrap())),
            (r#"{"family": "midimew", "nodes": 32}"#, Pattern::Uniform(32)),
            (r#"{"family": "fat-tree", "nodes": 64}"#, Pattern::Uniform(64)),
        ];
        for (json, pattern) in cases {
            let topo = built(json);
            let f = facts(&topo, &pattern, None, Paths::default()).unwrap();
            let t = turn_flows(&topo, &pattern, Paths::default()).unwrap().unwrap();
            let ours = groups(topo.network(), &t.loads(topo.network().channels().len()));
            let theirs = f.loads.unwrap();
            assert_eq!(ours.len(), theirs.len(), "{json}");
            for (a, b) in ours.iter().zip(&theirs) {
                assert!((a.max - b.max).abs() < 1e-9 && (a.sum - b.sum).abs() < 1e-9, "{json}: {a:?} {b:?}");
            }
            assert!((t.mean_hops - f.mean_hops).abs() < 1e-9, "{json}");
            // Every message is delivered once, and what reaches a router by a channel leaves
            // it by another channel or to a terminal.
            let delivered: f64 = t.deliveries.iter().map(|d| d.rate).sum();
            assert!((delivered - t.messages).abs() < 1e-9, "{json}: {delivered}");
            let mut out = vec![0.0; topo.network().channels().len()];
            for x in t.turns.iter().chain(&t.deliveries).filter(|x| x.input & INJECTED == 0) {
                out[x.input as usize] += x.rate;
            }
            let load = t.loads(out.len());
            assert!(out.iter().zip(&load).all(|(o, l)| (o - l).abs() < 1e-9), "{json}");
            // The fat-tree offers a switch's two up-links together; the mesh's dimension order
            // one next hop.
            let pairs = !t.offered.is_empty() && t.offered.iter().all(|s| s.len() == 2);
            assert!(!json.contains("fat-tree") || pairs, "{json}");
            assert!(!json.contains("mesh") || t.offered.is_empty(), "{json}");
        }
    }

    /// Verification: Valiant's turns are its exact loads split (one walk behind both), on a
    /// 4-ary 2-cube and a 4 × 4 mesh under uniform traffic and transpose; Λ = the 16 messages
    /// sent a cycle.
    #[test]
    fn valiant_turns_sum_to_its_exact_loads() {
        let valiant = RoutingSpec { algorithm: RoutingAlgorithm::Valiant, ..Default::default() };
        let paths = valiant.paths();
        for json in [r#"{"family": "torus", "k": 4, "n": 2}"#, r#"{"family": "mesh", "k": 4}"#] {
            let spec: TopologySpec = serde_json::from_str(json).unwrap();
            let topo = spec.shape(&valiant).unwrap().build().unwrap();
            for pattern in [Pattern::Uniform(16), Pattern::Fixed(traffic::transpose(16).unwrap())] {
                let l = nonminimal_loads(&topo, &pattern, paths).unwrap().unwrap();
                let t = turn_flows(&topo, &pattern, paths).unwrap().unwrap();
                for (a, b) in t.loads(l.loads.len()).iter().zip(&l.loads) {
                    assert!((a - b).abs() < 1e-12, "{json}: {a} vs {b}");
                }
                assert!((t.messages - 16.0).abs() < 1e-12);
            }
        }
    }

    /// The least work of Valiant's walk ([`Legs::least_work`]) over `flows`, merged by source
    /// router and destination as the loads' walk merges them.
    struct Least(Vec<(u32, u32, f64)>, Paths, Option<(u32, u32)>);

    impl Visitor for Least {
        type Output = f64;
        fn visit<F: Family>(self, f: &F) -> f64 {
            let net = f.network();
            let legs = Legs::new(self.1, net, self.2);
            let mut ends: Vec<(RouterId, u32)> =
                self.0.iter().map(|&(s, d, _)| (net.inject_router(s), d)).collect();
            ends.sort_unstable();
            ends.dedup();
            let salts = if f.salt_changes_candidates() { 2 } else { 1 };
            legs.least_work(net, &legs.intermediates(), salts, &ends, u64::MAX).unwrap()
        }
    }

    /// Verification: the least work the walk of Valiant's loads is refused by before it starts
    /// is a lower bound of the work it takes (routers or groups as intermediates, tori, a mesh,
    /// a fat-tree whose routing spreads over up-links under two salts, dragonflies; uniform
    /// traffic and a shift permutation), so that no walk that would finish is refused; and on the
    /// 1,056-node dragonfly it passes the limit, where the walk used to take 8.5 s to find so.
    #[test]
    fn the_least_work_of_valiants_walk_bounds_its_work() {
        use netwrap_topo::paths::Via;
        let cases = [
            (r#"{"family": "torus", "k": 4, "n": 2}"#, None),
            (r#"{"family": "mesh", "k": 4}"#, None),
            (r#"{"family": "fat-tree", "nodes": 16}"#, None),
            (r#"{"family": "dragonfly", "p": 2}"#, Some(Via::Group)),
            (r#"{"family": "dragonfly", "p": 2}"#, Some(Via::Router)),
        ];
        for (json, via) in cases {
            let valiant = RoutingSpec { algorithm: RoutingAlgorithm::Valiant, via, ..Default::default() };
            let paths = valiant.paths();
            let spec: TopologySpec = serde_json::from_str(json).unwrap();
            let topo = spec.shape(&valiant).unwrap().build().unwrap();
            let n = topo.network().terminals();
            for pattern in [Pattern::Uniform(n), Pattern::Fixed((0..n).map(|s| (s + 1) % n).collect())] {
                let flows = pattern_flows(n, &pattern).unwrap();
                let sink = vec![0.0; topo.network().channels().len()];
                let walk = ValiantFlows { flows: flows.clone(), paths, groups: topo.groups(), sink };
                let (_, _, work) = topo.visit(walk).unwrap();
                let least = topo.visit(Least(flows, paths, topo.groups()));
                assert!(least <= work as f64 && least > 0.0, "{json} {via:?}: {least} > {work}");
            }
        }
        let valiant = RoutingSpec { algorithm: RoutingAlgorithm::Valiant, ..Default::default() };
        let spec: TopologySpec = serde_json::from_str(r#"{"family": "dragonfly", "p": 4}"#).unwrap();
        let topo = spec.shape(&valiant).unwrap().build().unwrap();
        let why = nonminimal_loads(&topo, &Pattern::Uniform(1056), valiant.paths()).unwrap().unwrap_err();
        assert!(why.contains("takes at least") && why.contains("more than the 2e8 limit"), "{why}");
    }

    /// A mesh too large to walk pair by pair (128 × 128) under hot spots: the mean hops are
    /// still exact (uniform's closed form (k − 1/k)/3 per dimension, mixed with the routes to
    /// the hot spot), the loads are not computed and say why.
    #[test]
    fn hotspots_on_a_large_mesh_keep_exact_hops() {
        let mesh = built(r#"{"family": "mesh", "k": 128}"#);
        let n = 128 * 128;
        let hot = Pattern::Hotspot(traffic::Hotspot { nodes: vec![0], fraction: 0.5, terminals: n });
        let f = facts(&mesh, &hot, None, Paths::default()).unwrap();
        assert!(f.loads.is_none() && f.load_method.contains("not computed"), "{}", f.load_method);
        // To the corner (0, 0): mean x + y = 127 over every source.
        let uniform = 2.0 * (128.0 - 1.0 / 128.0) / 3.0;
        assert!((f.mean_hops - (0.5 * uniform + 0.5 * 127.0)).abs() < 1e-9, "{}", f.mean_hops);
    }

    /// Verification: uniform-others from the generic walk (a Midimew, every pair routed by
    /// symmetry) equals the uniform loads rescaled: uniform = others·(N − 1)/N on a family
    /// whose self-addressed messages use no channel.
    #[test]
    fn uniform_others_rescales_uniform_on_a_direct_network() {
        let m = built(r#"{"family": "midimew", "nodes": 32}"#);
        let (u, o) = (
            facts(&m, &Pattern::Uniform(32), None, Paths::default()).unwrap(),
            facts(&m, &Pattern::UniformOthers(32), None, Paths::default()).unwrap(),
        );
        let scale = 32.0 / 31.0;
        assert!((o.mean_hops - u.mean_hops * scale).abs() < 1e-12);
        for (a, b) in u.loads.unwrap().iter().zip(o.loads.unwrap().iter()) {
            assert!((b.max - a.max * scale).abs() < 1e-12 && (b.sum - a.sum * scale).abs() < 1e-9);
        }
    }
}
