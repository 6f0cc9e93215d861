//! Exact topology metrics: distances, diameter, bisection, and channel load under uniform
//! traffic.
//!
//! Distances are router-to-router channel hops from a terminal's injection router to the
//! other terminal's ejection router (the terminals' own links are not counted), averaged over
//! ordered pairs of distinct terminals. For vertex-transitive families with one terminal per
//! router a single breadth-first search suffices (every node sees the same distance
//! distribution), and likewise for class-symmetric families, whose automorphisms take any
//! terminal to any other; otherwise one search per injection router runs on all cores.
//!
//! # Bounded cost
//! Every metric [`measure`] computes is bounded, so that `netwrap topo` answers in seconds for
//! any network within the size limits ([`crate::MAX_ROUTERS`], [`crate::MAX_CHANNELS`]):
//! * distances: one search when symmetry allows; otherwise all pairs up to
//!   [`DISTANCE_WORK_LIMIT`] search steps, and beyond it an estimate from evenly spaced
//!   sources, said so in [`Metrics::distance_how`];
//! * channel load: one source's routes when symmetry allows, all pairs up to
//!   [`LOAD_PAIRS_LIMIT`] terminals, and either way at most [`LOAD_WORK_LIMIT`] routing
//!   decisions; otherwise "not computed" with the reason in [`Metrics::load_how`];
//! * bisection: linear-time cuts, with local search only up to [`REFINE_LIMIT`] routers and
//!   enumeration up to [`EXACT_BISECTION_LIMIT`] (see [`Metrics::bisection_how`]).

use crate::TopoError;
use crate::graph::{UNREACHED, bfs_from, in_lists};
use crate::network::{Candidates, Network, RouterId, Routing};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};

/// Largest terminal count for which the channel load is computed over all pairs.
pub const LOAD_PAIRS_LIMIT: u32 = 4096;

/// A balanced cut and how much is known about it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bisection {
    /// Total width (flits per cycle) of the directed channels crossing the cut, both
    /// directions.
    pub width: u64,
    /// True when this is the minimum over all balanced cuts (a proven formula); false when it
    /// is the width of one particular cut, hence an upper bound.
    pub exact: bool,
    /// Which cut, and why it is or is not known to be minimal.
    pub how: String,
}

/// Load on one channel class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassLoad {
    /// Class name.
    pub class: String,
    /// Channels in the class.
    pub channels: u64,
    /// Largest load on a channel of the class, in messages per cycle per unit injection rate,
    /// divided by the channel's width.
    pub max_load: f64,
}

/// Everything `netwrap topo` reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Terminals (processors).
    pub nodes: u32,
    /// Routers (switches).
    pub routers: u32,
    /// Directed router-to-router channels.
    pub channels: u64,
    /// Router out-degree, when every router has the same.
    pub degree: Option<u32>,
    /// Smallest and largest router out-degree.
    pub degree_range: (u32, u32),
    /// Largest hop count between two distinct terminals (a lower bound when
    /// `distance_exact` is false).
    pub diameter: u32,
    /// Mean hop count over ordered pairs of distinct terminals (an estimate when
    /// `distance_exact` is false).
    pub average_distance: f64,
    /// Whether `diameter` and `average_distance` cover every pair of terminals.
    pub distance_exact: bool,
    /// How the distances were found.
    pub distance_how: String,
    /// Mean hops of the routing's own routes over ordered pairs of distinct terminals (each
    /// message split evenly over its candidates), when they are longer on average than the
    /// shortest paths (`average_distance`): routings that are not minimal in the graph, such
    /// as a dragonfly's local–global–local routes or up*/down*. Absent when equal, or when the
    /// loads were not computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_route: Option<f64>,
    /// Bisection width (see [`Bisection`]).
    pub bisection_width: u64,
    /// Whether `bisection_width` is exact or an upper bound.
    pub bisection_exact: bool,
    /// How the bisection was found.
    pub bisection_how: String,
    /// The largest channel load γ_max under uniform traffic (every terminal sends one message
    /// per cycle to a uniformly chosen other terminal), split evenly over the routing's
    /// candidates; divided by channel width. `None` when too large to compute.
    pub channel_load: Option<f64>,
    /// The ideal throughput that load implies: min(1/γ_max, terminal link width), in flits per
    /// terminal per cycle for one-flit messages.
    pub ideal_throughput: Option<f64>,
    /// Per-class loads.
    pub class_loads: Vec<ClassLoad>,
    /// How the load was computed.
    pub load_how: String,
}

/// Diameter and average distance over ordered pairs of distinct terminals, exactly: one
/// breadth-first search when `vertex_transitive` and every router carries one terminal,
/// otherwise one per injection router (sources × (routers + channels) steps; [`measure`] bounds
/// this with [`DISTANCE_WORK_LIMIT`]).
pub fn distances(net: &Network, vertex_transitive: bool) -> Result<(u32, f64), TopoError> {
    let n = net.terminals();
    if n < 2 {
        return Ok((0, 0.0));
    }
    if vertex_transitive && one_each(net) {
        return from_terminal_zero(net);
    }
    let sources = injection_routers(net);
    let (sum, pairs, max) = from_sources(net, &sources, &sources)?;
    Ok((max, sum as f64 / pairs.max(1) as f64))
}

/// True when terminal `t` injects at and is delivered from router `t`, for every router.
fn one_each(net: &Network) -> bool {
    net.routers() == net.terminals()
        && (0..net.terminals()).all(|t| net.inject_router(t) == t && net.eject_router(t) == t)
}

/// Distances from terminal 0 to every other terminal: the whole distribution when an
/// automorphism maps terminal 0 to any terminal (keeping injection and ejection routers).
fn from_terminal_zero(net: &Network) -> Result<(u32, f64), TopoError> {
    let n = net.terminals();
    let d = bfs_from(net, net.inject_router(0));
    let (mut sum, mut max) = (0u64, 0u32);
    for t in 1..n {
        let x = d[net.eject_router(t) as usize];
        if x == UNREACHED {
            return Err(unreachable());
        }
        sum += x as u64;
        max = max.max(x);
    }
    Ok((max, sum as f64 / (n - 1) as f64))
}

/// The routers some terminal injects at, in increasing order.
fn injection_routers(net: &Network) -> Vec<usize> {
    let mut seen = vec![false; net.routers() as usize];
    for t in 0..net.terminals() {
        seen[net.inject_router(t) as usize] = true;
    }
    (0..seen.len()).filter(|&r| seen[r]).collect()
}

/// (sum of distances, pairs, largest distance) over ordered pairs of distinct terminals whose
/// injection router is one of `chosen` (a subset of `all`, the injection routers).
fn from_sources(net: &Network, chosen: &[usize], all: &[usize]) -> Result<(u64, u64, u32), TopoError> {
    let r = net.routers() as usize;
    let n = net.terminals();
    let mut eject_count = vec![0u64; r];
    for t in 0..n {
        eject_count[net.eject_router(t) as usize] += 1;
    }
    // Terminals grouped by injection router, as ranges of `by_inject`.
    let mut slot = vec![u32::MAX; r];
    for (i, &u) in all.iter().enumerate() {
        slot[u] = i as u32;
    }
    let mut start = vec![0u32; all.len() + 1];
    for t in 0..n {
        start[slot[net.inject_router(t) as usize] as usize + 1] += 1;
    }
    for i in 0..all.len() {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut by_inject = vec![0u32; n as usize];
    for t in 0..n {
        let i = slot[net.inject_router(t) as usize] as usize;
        by_inject[fill[i] as usize] = t;
        fill[i] += 1;
    }
    drop(fill);
    let (sum, pairs, max, bad) = chosen
        .par_iter()
        .map(|&u| {
            let d = bfs_from(net, u as u32);
            let i = slot[u] as usize;
            let own = &by_inject[start[i] as usize..start[i + 1] as usize];
            let cu = own.len() as u64;
            // Pairs from u's terminals to router v: cu·(terminals ejecting at v), less the
            // terminal paired with itself; none only when u's one terminal is v's one terminal.
            let lone = (cu == 1).then(|| net.eject_router(own[0]) as usize);
            let (mut sum, mut max, mut bad) = (0u64, 0u32, false);
            for v in 0..r {
                if eject_count[v] == 0 || (eject_count[v] == 1 && lone == Some(v)) {
                    continue;
                }
                if d[v] == UNREACHED {
                    bad = true;
                    continue;
                }
                sum += cu * eject_count[v] * d[v] as u64;
                max = max.max(d[v]);
            }
            for &t in own {
                let x = d[net.eject_router(t) as usize];
                if x != UNREACHED {
                    sum -= x as u64;
                }
            }
            let pairs_u = cu * (n as u64 - 1);
            (sum, pairs_u, max, bad)
        })
        .reduce(|| (0, 0, 0, false), |a, b| (a.0 + b.0, a.1 + b.1, a.2.max(b.2), a.3 || b.3));
    if bad {
        return Err(unreachable());
    }
    Ok((sum, pairs, max))
}

/// Breadth-first search steps (searches × (routers + channels)) above which [`measure`]
/// estimates distances from a sample of sources instead of searching from every injection
/// router: about ten seconds on two cores.
pub const DISTANCE_WORK_LIMIT: u64 = 2_000_000_000;

/// Diameter and average distance, and how far they can be trusted.
#[derive(Clone, Debug)]
pub struct Distances {
    /// Largest distance found.
    pub diameter: u32,
    /// Mean distance over the pairs measured.
    pub average: f64,
    /// Whether every pair was measured.
    pub exact: bool,
    /// How.
    pub how: String,
}

/// Distances within [`DISTANCE_WORK_LIMIT`]: one search for vertex-transitive or
/// class-symmetric families (whose automorphisms take terminal 0 to any terminal: the one-source
/// load shortcut of [`channel_loads`] relies on the same), all pairs when affordable, and
/// otherwise an estimate from evenly spaced injection routers, said so in `how` (the diameter
/// is then the largest distance seen, a lower bound).
pub fn bounded_distances(
    net: &Network,
    vertex_transitive: bool,
    class_symmetric: bool,
) -> Result<Distances, TopoError> {
    distances_within(net, vertex_transitive, class_symmetric, DISTANCE_WORK_LIMIT)
}

/// [`bounded_distances`] with the work limit as a parameter (tests use a small one).
fn distances_within(
    net: &Network,
    vertex_transitive: bool,
    class_symmetric: bool,
    limit: u64,
) -> Result<Distances, TopoError> {
    let n = net.terminals();
    if n < 2 {
        return Ok(Distances {
            diameter: 0,
            average: 0.0,
            exact: true,
            how: "fewer than two terminals".into(),
        });
    }
    if (vertex_transitive && one_each(net)) || class_symmetric {
        let (diameter, average) = from_terminal_zero(net)?;
        let how = if vertex_transitive && one_each(net) {
            "exact, one breadth-first search (vertex-transitive)"
        } else {
            "exact, one breadth-first search from terminal 0 (automorphisms take it to every terminal)"
        };
        return Ok(Distances { diameter, average, exact: true, how: how.into() });
    }
    let all = injection_routers(net);
    let per_search = net.routers() as u64 + net.channels().len() as u64;
    let work = all.len() as u64 * per_search;
    if work <= limit {
        let (sum, pairs, max) = from_sources(net, &all, &all)?;
        return Ok(Distances {
            diameter: max,
            average: sum as f64 / pairs.max(1) as f64,
            exact: true,
            how: "exact, one breadth-first search per injection router".into(),
        });
    }
    let take = (limit / per_search.max(1)).clamp(1, all.len() as u64) as usize;
    let chosen: Vec<usize> = (0..take).map(|i| all[i * all.len() / take]).collect();
    let (sum, pairs, max) = from_sources(net, &chosen, &all)?;
    Ok(Distances {
        diameter: max,
        average: sum as f64 / pairs.max(1) as f64,
        exact: false,
        how: format!(
            "estimated from {take} of {} injection routers, evenly spaced (all would take {work:.2e} search steps, over the {limit:.0e} limit); the diameter is the largest distance seen, a lower bound",
            all.len(),
            work = work as f64,
            limit = limit as f64,
        ),
    })
}

fn unreachable() -> TopoError {
    TopoError::Invalid("the network is not connected: some terminal cannot reach another".into())
}

/// Width of the directed channels whose ends lie on different sides (`side[router]`).
pub fn cut_width(net: &Network, side: &[bool]) -> u64 {
    net.edges()
        .filter(|&(src, c)| side[src as usize] != side[c.dst as usize])
        .map(|(_, c)| c.width as u64)
        .sum()
}

/// Routers `0 .. routers/2` on one side, as a starting cut.
pub fn index_side(net: &Network) -> Vec<bool> {
    let half = net.routers() / 2;
    (0..net.routers()).map(|r| r < half).collect()
}

/// Scratch space for [`add_flow`] and [`add_leg`]: make one per loop and reuse it for every
/// flow.
#[derive(Clone, Debug, Default)]
pub struct FlowScratch {
    /// (router, weight, input): the messages at a router and the input they arrived by (kept
    /// apart only when the sink asks for turns, [`FlowSink::TURNS`]).
    frontier: Vec<(u32, f64, u32)>,
    next: Vec<(u32, f64, u32)>,
    cands: Candidates,
    ends: Vec<LegEnd>,
}

impl FlowScratch {
    /// Scratch space for flows on `net` (candidate lists with room for its largest
    /// out-degree).
    pub fn for_network(net: &Network) -> Self {
        FlowScratch { cands: Candidates::for_network(net), ..FlowScratch::default() }
    }
}

/// The input of a flow injected by terminal `t` (an input is a channel's number, or this for
/// a terminal's injection): channels are numbered below 2^26 ([`crate::MAX_CHANNELS`]).
pub const fn injected(t: u32) -> u32 {
    INJECTED | t
}

/// The bit that marks an input as a terminal's injection ([`injected`]).
pub const INJECTED: u32 = 1 << 31;

/// Where a route walk puts the flow it sends over a channel: per channel (a slice of loads,
/// what [`add_flow`] computes for the exact loads), or per turn, input by input (what the
/// per-channel queueing model needs: how a channel's arrivals split over the inputs feeding
/// it). One walk serves both, so the turns are exactly the loads, split.
pub trait FlowSink {
    /// Whether the walk keeps apart the flows that reach a router by different inputs.
    const TURNS: bool;
    /// `weight` messages per cycle take `channel`, having reached its router by `input` (a
    /// channel, or [`injected`]; meaningful only with [`FlowSink::TURNS`]).
    fn take(&mut self, input: u32, channel: u32, weight: f64);
    /// `weight` messages per cycle, having reached terminal `t`'s router by `input` (a channel,
    /// or [`injected`] for a self-addressed message), are delivered to `t` (called only with
    /// [`FlowSink::TURNS`]).
    #[inline]
    fn deliver(&mut self, _input: u32, _t: u32, _weight: f64) {}
    /// The routing offers `channels` (more than one) at a router, the flow split evenly over
    /// them (called only with [`FlowSink::TURNS`]).
    #[inline]
    fn offered(&mut self, _channels: &[u32]) {}
    /// The walk of one flow begins: `weight` messages per cycle from terminal `source` to
    /// terminal `destination`, whose takes and deliveries follow until the next (called, with
    /// [`FlowSink::TURNS`], by the walkers of a pattern's flows one at a time: the simulator's
    /// turn flows).
    #[inline]
    fn flow(&mut self, _source: u32, _destination: u32, _weight: f64) {}
}

impl FlowSink for [f64] {
    const TURNS: bool = false;
    #[inline]
    fn take(&mut self, _input: u32, channel: u32, weight: f64) {
        self[channel as usize] += weight;
    }
}

impl FlowSink for Vec<f64> {
    const TURNS: bool = false;
    #[inline]
    fn take(&mut self, _input: u32, channel: u32, weight: f64) {
        self[channel as usize] += weight;
    }
}

/// Where a leg's messages end: (router, weight, channels crossed, the input they reached it
/// by: a channel, or [`injected`] for a leg that crossed none from its source).
pub type LegEnd = (RouterId, f64, u64, u32);

/// Adds `weight` messages' flow from terminal `s` to terminal `t`, split evenly over the
/// routing's candidates at every hop (its [`Routing::spread`]: every channel a salt may pick)
/// (and over both salt classes where the salt changes them), into `load` (a slice of loads,
/// or any [`FlowSink`]); returns the routing decisions it took (frontier entries routed, the
/// cost [`LOAD_WORK_LIMIT`] bounds) and its longest route in channels.
pub fn add_flow<R: Routing, S: FlowSink + ?Sized>(
    net: &Network,
    routing: &R,
    s: u32,
    t: u32,
    weight: f64,
    load: &mut S,
    scratch: &mut FlowScratch,
) -> Result<(u64, u64), TopoError> {
    let mut ends = std::mem::take(&mut scratch.ends);
    let from = (net.inject_router(s), injected(s));
    let done = walk_leg(net, routing, from, t, weight, 0, |_| false, load, scratch, &mut ends);
    scratch.ends = ends;
    done
}

/// One leg of a route: `weight` messages from router `from` (having crossed `steps` channels)
/// towards terminal `t`, split as [`add_flow`] splits them, into `load`, until they reach `t`'s
/// router or a router where `stop` holds (a Valiant intermediate). Where they end, with their
/// weight and channels crossed, goes into `ends` (merged by router, per salt class). Returns
/// the routing decisions taken and the longest route in channels.
#[allow(clippy::too_many_arguments)]
pub fn add_leg<R: Routing>(
    net: &Network,
    routing: &R,
    from: RouterId,
    t: u32,
    weight: f64,
    steps: u64,
    stop: impl Fn(RouterId) -> bool,
    load: &mut [f64],
    scratch: &mut FlowScratch,
    ends: &mut Vec<(RouterId, f64, u64)>,
) -> Result<(u64, u64), TopoError> {
    let mut legs = std::mem::take(&mut scratch.ends);
    let done = walk_leg(net, routing, (from, 0), t, weight, steps, stop, load, scratch, &mut legs);
    ends.clear();
    ends.extend(legs.iter().map(|&(r, w, l, _)| (r, w, l)));
    scratch.ends = legs;
    done
}

/// [`add_leg`] into any [`FlowSink`], starting at `from` = (router, the input the messages
/// reached it by), its ends with their inputs: the one route walk behind the exact loads and
/// the turn flows. With a sink that keeps turns, the messages at a router are kept apart by
/// input (the routing's split does not depend on it, so each input's share of every output is
/// its weight over the candidates); otherwise they are merged by router, as the loads always
/// were.
#[allow(clippy::too_many_arguments)]
pub fn walk_leg<R: Routing, S: FlowSink + ?Sized>(
    net: &Network,
    routing: &R,
    from: (RouterId, u32),
    t: u32,
    weight: f64,
    steps: u64,
    stop: impl Fn(RouterId) -> bool,
    load: &mut S,
    scratch: &mut FlowScratch,
    ends: &mut Vec<LegEnd>,
) -> Result<(u64, u64), TopoError> {
    let FlowScratch { frontier, next, cands: c, .. } = scratch;
    let (mut work, mut longest) = (0u64, steps);
    let (from, input) = from;
    let input = if S::TURNS { input } else { 0 };
    ends.clear();
    // Salts 0 and u32::MAX differ in every bit, so between them they take every salt-decided
    // branch both ways; when the salt only reorders candidates one route says it all.
    let salts: &[u32] = if routing.salt_changes_candidates() { &[0, u32::MAX] } else { &[0] };
    for &salt in salts {
        frontier.clear();
        frontier.push((from, weight / salts.len() as f64, input));
        let mut level = steps;
        while !frontier.is_empty() {
            if level > steps + net.routers() as u64 + 1 {
                return Err(TopoError::Invalid(format!(
                    "routing from router {from} towards terminal {t} does not terminate"
                )));
            }
            work += frontier.len() as u64;
            next.clear();
            for &(r, w, via) in frontier.iter() {
                if stop(r) {
                    ends.push((r, w, level, via));
                    continue;
                }
                routing.spread(r, t, salt, c);
                if c.is_empty() {
                    if r != net.eject_router(t) {
                        return Err(TopoError::Invalid(format!(
                            "routing from router {from} towards terminal {t} stops at router {r}, not at its ejection router"
                        )));
                    }
                    if S::TURNS {
                        load.deliver(via, t, w);
                    }
                    ends.push((r, w, level, via));
                    continue;
                }
                if S::TURNS && c.as_slice().len() > 1 {
                    load.offered(c.as_slice());
                }
                let share = w / c.as_slice().len() as f64;
                for &ch in c.as_slice() {
                    load.take(via, ch, share);
                    next.push((net.channel(ch).dst, share, if S::TURNS { ch } else { 0 }));
                }
            }
            level += 1;
            if !next.is_empty() {
                longest = longest.max(level);
            }
            // Without turns every input is 0: the same order, and the same sums, as merging
            // by router alone.
            next.sort_unstable_by_key(|x| (x.0, x.2));
            frontier.clear();
            for &(r, w, via) in next.iter() {
                match frontier.last_mut() {
                    Some(last) if last.0 == r && last.2 == via => last.1 += w,
                    _ => frontier.push((r, w, via)),
                }
            }
        }
    }
    Ok((work, longest))
}

/// Routing decisions (frontier entries routed, over all messages) after which a channel-load
/// computation gives up: a few seconds of work. Multi-path routing multiplies the decisions
/// per message (a fat-tree message spreads over up to 2^(levels−1) top switches), so the
/// count of messages alone does not bound the cost.
pub const LOAD_WORK_LIMIT: u64 = 200_000_000;

/// Why a load computation stopped early.
enum Stop {
    Topo(TopoError),
    Budget,
}

impl From<TopoError> for Stop {
    fn from(e: TopoError) -> Self {
        Stop::Topo(e)
    }
}

/// Per-channel load (messages per cycle per unit injection rate) under uniform traffic, or
/// `None` when [`bounded_channel_loads`] gives up.
pub fn channel_loads<R: Routing>(
    net: &Network,
    routing: &R,
    class_symmetric: bool,
) -> Result<Option<(Vec<f64>, String)>, TopoError> {
    Ok(bounded_channel_loads(net, routing, class_symmetric, None)?.ok())
}

/// Whether `route` offers a message from terminal s to terminal t more than one next hop
/// anywhere on its way, for any of the `pairs`: the engines then choose among them by queue
/// state (adaptive routing), so the loads of an even split over them are not the run's and
/// bound nothing. Each route is followed along its first candidates under the two salt
/// classes, within 2^20 routing decisions (adaptive families offer their choices from the
/// first hops, so a sample of pairs says it).
pub fn offers_choice(
    net: &Network,
    pairs: impl IntoIterator<Item = (u32, u32)>,
    mut route: impl FnMut(RouterId, u32, u32, &mut Candidates),
) -> bool {
    let mut cands = Candidates::for_network(net);
    let mut budget = 1u32 << 20;
    for (s, t) in pairs {
        for salt in [0, u32::MAX] {
            let mut at = net.inject_router(s);
            for _ in 0..=net.routers() {
                if budget == 0 {
                    return false;
                }
                budget -= 1;
                route(at, t, salt, &mut cands);
                match cands.as_slice() {
                    [] => break,
                    [c] => at = net.channel(*c).dst,
                    _ => return true,
                }
            }
        }
    }
    false
}

/// Per-channel load (messages per cycle per unit injection rate) under uniform traffic, with
/// how it was computed; `Err(why)` when it is too expensive.
///
/// With `class_symmetric` (the family's automorphisms act transitively on the channels of
/// each class and commute with its routing: tori, circulants, n-hop networks), only terminal
/// 0's messages are routed and every channel of a class gets the class mean; otherwise every
/// pair is routed, up to [`LOAD_PAIRS_LIMIT`] terminals. Either way the computation stops
/// after [`LOAD_WORK_LIMIT`] routing decisions; the one-source walk is not even begun when
/// `mean_distance` (terminal 0's mean distance to the others, when known) says its routes
/// are longer in all than [`LOAD_WALK_LIMIT`] (a 2^24-node Midimew's walk spent 15 s of a
/// 28 s setup reaching the limit before this, to give up).
pub fn bounded_channel_loads<R: Routing>(
    net: &Network,
    routing: &R,
    class_symmetric: bool,
    mean_distance: Option<f64>,
) -> Result<Result<(Vec<f64>, String), String>, TopoError> {
    let walks = net.terminals() as f64 * mean_distance.unwrap_or(0.0);
    if class_symmetric && walks > LOAD_WALK_LIMIT {
        return Ok(Err(format!(
            "not computed: {} terminals x {:.1} hops exceeds {LOAD_WALK_LIMIT:e} route steps",
            net.terminals(),
            mean_distance.unwrap_or(0.0)
        )));
    }
    loads_within(net, routing, class_symmetric, LOAD_WORK_LIMIT)
}

/// [`bounded_channel_loads`] with the work limit as a parameter (tests use a small one).
fn loads_within<R: Routing>(
    net: &Network,
    routing: &R,
    class_symmetric: bool,
    limit: u64,
) -> Result<Result<(Vec<f64>, String), String>, TopoError> {
    let n = net.terminals();
    let m = net.channels().len();
    if n < 2 {
        return Ok(Ok((vec![0.0; m], "no pairs".into())));
    }
    let over = |messages: u64, decisions: u64| {
        format!(
            "not computed: routing {messages} messages, split over every candidate, takes about {decisions:.1e} routing decisions, more than the {limit:.0e} limit",
            decisions = decisions as f64,
            limit = limit as f64
        )
    };
    let w = 1.0 / (n - 1) as f64;
    if class_symmetric {
        let mut load = vec![0.0; m];
        let mut scratch = FlowScratch::for_network(net);
        let mut work = 0u64;
        // Destinations in ROUNDS interleaved rounds, so that the first round is a fair sample
        // of the rest: when it projects past the limit, stop at once.
        const ROUNDS: u32 = 64;
        let mut done = 0u64;
        for round in 0..ROUNDS {
            for t in (1 + round..n).step_by(ROUNDS as usize) {
                work += add_flow(net, routing, 0, t, w, &mut load, &mut scratch)?.0;
                done += 1;
                if work > limit {
                    return Ok(Err(over(n as u64 - 1, work / done * (n as u64 - 1))));
                }
            }
            let projected = work / done.max(1) * (n as u64 - 1);
            if round == 0 && projected > limit {
                return Ok(Err(over(n as u64 - 1, projected)));
            }
        }
        let classes = net.classes().len();
        let mut total = vec![0.0; classes];
        let mut count = vec![0u64; classes];
        for (i, ch) in net.channels().iter().enumerate() {
            total[ch.class as usize] += load[i];
            count[ch.class as usize] += 1;
        }
        let per: Vec<f64> = net
            .channels()
            .iter()
            .map(|ch| total[ch.class as usize] * n as f64 / count[ch.class as usize] as f64)
            .collect();
        return Ok(Ok((per, "routes from one terminal, spread over each channel class by symmetry".into())));
    }
    if n > LOAD_PAIRS_LIMIT {
        return Ok(Err(format!(
            "not computed: more than {LOAD_PAIRS_LIMIT} terminals without a symmetry shortcut"
        )));
    }
    let spent = AtomicU64::new(0);
    // Floating-point sums depend on their order: the sources are cut into runs whose number
    // depends on the network only (up to 16, fewer when their load vectors would take more than
    // 256 MiB together), each summed in source order, and the runs' loads added in run order,
    // so the loads are bit-identical on any number of threads.
    let runs = ((256u64 << 20) / (m as u64 * 8).max(1)).clamp(1, 16) as u32;
    let per_run = n.div_ceil(runs).max(1);
    let runs: Result<Vec<Vec<f64>>, Stop> = (0..n.div_ceil(per_run))
        .into_par_iter()
        .map(|run| {
            let (mut load, mut scratch) = (vec![0.0; m], FlowScratch::for_network(net));
            for s in run * per_run..((run + 1) * per_run).min(n) {
                let mut work = 0;
                for t in (0..n).filter(|&t| t != s) {
                    work += add_flow(net, routing, s, t, w, &mut load, &mut scratch)?.0;
                }
                if spent.fetch_add(work, Ordering::Relaxed) + work > limit {
                    return Err(Stop::Budget);
                }
            }
            Ok(load)
        })
        .collect();
    let load = runs.map(|runs| {
        let mut total = vec![0.0; m];
        for run in runs {
            total.iter_mut().zip(run).for_each(|(x, y)| *x += y);
        }
        total
    });
    match load {
        Ok(load) => Ok(Ok((load, "every ordered pair routed".into()))),
        Err(Stop::Budget) => Ok(Err(over(n as u64 * (n as u64 - 1), spent.into_inner()))),
        Err(Stop::Topo(e)) => Err(e),
    }
}

/// Route walks (terminals × mean distance) above which the one-source load shortcut is not
/// even attempted: every hop takes at least one routing decision, so such a walk would exceed
/// [`LOAD_WORK_LIMIT`] anyway.
pub const LOAD_WALK_LIMIT: f64 = LOAD_WORK_LIMIT as f64;

/// Computes all metrics of a routed network, each within its bound (see the module docs).
pub fn measure<R: Routing>(
    net: &Network,
    routing: &R,
    vertex_transitive: bool,
    class_symmetric: bool,
    bisection: Bisection,
) -> Result<Metrics, TopoError> {
    let distances = bounded_distances(net, vertex_transitive, class_symmetric)?;
    let loads = bounded_channel_loads(net, routing, class_symmetric, Some(distances.average))?;
    Ok(assemble_with(net, distances, loads, bisection))
}

/// Builds the report from exact distances, per-channel loads (or why there are none) and a
/// bisection.
pub fn assemble(
    net: &Network,
    distances: (u32, f64),
    loads: Result<(Vec<f64>, String), String>,
    bisection: Bisection,
) -> Metrics {
    let (diameter, average) = distances;
    assemble_with(net, Distances { diameter, average, exact: true, how: "exact".into() }, loads, bisection)
}

/// [`assemble`] with distances that may be estimates.
pub fn assemble_with(
    net: &Network,
    distances: Distances,
    loads: Result<(Vec<f64>, String), String>,
    bisection: Bisection,
) -> Metrics {
    let (lo, hi) = if net.routers() == 0 { (0, 0) } else { net.degree_range() };
    let mut m = Metrics {
        nodes: net.terminals(),
        routers: net.routers(),
        channels: net.channels().len() as u64,
        degree: (lo == hi).then_some(lo),
        degree_range: (lo, hi),
        diameter: distances.diameter,
        average_distance: distances.average,
        distance_exact: distances.exact,
        distance_how: distances.how,
        average_route: None,
        bisection_width: bisection.width,
        bisection_exact: bisection.exact,
        bisection_how: bisection.how,
        channel_load: None,
        ideal_throughput: None,
        class_loads: Vec::new(),
        load_how: String::new(),
    };
    m.set_loads(net, loads);
    m
}

impl Metrics {
    /// Sets the load metrics (γ_max, the ideal throughput, per-class loads, the mean route)
    /// from per-channel loads at one message per terminal per cycle under uniform traffic over
    /// distinct pairs, or from why they are unknown: the routing's own loads, or those of
    /// paths beyond it (Valiant's, which netwrap_sim computes).
    pub fn set_loads(&mut self, net: &Network, loads: Result<(Vec<f64>, String), String>) {
        let mut class_loads = Vec::new();
        let mut average_route = None;
        let (channel_load, ideal_throughput, load_how) = match loads {
            Ok((load, how)) => {
                // Every message adds its (expected) hops to the channels' loads, at one message per
                // terminal per cycle: their sum over N terminals is the mean route.
                let n = net.terminals() as f64;
                let routed = load.iter().sum::<f64>() / n;
                if n >= 2.0
                    && self.distance_exact
                    && routed > self.average_distance + 1e-9 * self.average_distance.max(1.0)
                {
                    average_route = Some(routed);
                }
                let mut max = vec![0.0f64; net.classes().len()];
                let mut count = vec![0u64; net.classes().len()];
                for (i, ch) in net.channels().iter().enumerate() {
                    let l = load[i] / ch.width as f64;
                    max[ch.class as usize] = max[ch.class as usize].max(l);
                    count[ch.class as usize] += 1;
                }
                for (i, name) in net.classes().iter().enumerate() {
                    if count[i] > 0 {
                        class_loads.push(ClassLoad {
                            class: name.clone(),
                            channels: count[i],
                            max_load: max[i],
                        });
                    }
                }
                let gmax = max.iter().copied().fold(0.0, f64::max);
                let tw = net.terminal_width() as f64;
                let theta = if gmax > 0.0 { (1.0 / gmax).min(tw) } else { tw };
                (Some(gmax), Some(theta), how)
            }
            Err(why) => (None, None, why),
        };
        self.average_route = average_route;
        self.channel_load = channel_load;
        self.ideal_throughput = ideal_throughput;
        self.class_loads = class_loads;
        self.load_how = load_how;
    }
}

/// Terminal weight of each router: terminals injecting plus terminals ejecting there. A
/// bisection splits the total weight evenly (processors and memories alike).
fn router_weights(net: &Network) -> Vec<u32> {
    let mut w = vec![0u32; net.routers() as usize];
    for t in 0..net.terminals() {
        w[net.inject_router(t) as usize] += 1;
        w[net.eject_router(t) as usize] += 1;
    }
    w
}

/// Routers up to which [`exact_bisection`] enumerates every balanced cut.
pub const EXACT_BISECTION_LIMIT: u32 = 20;

/// The minimum balanced cut by enumeration, for networks of at most
/// [`EXACT_BISECTION_LIMIT`] routers: routers split so that each side holds half the terminal
/// weight (rounded down on the first side when it is odd).
pub fn exact_bisection(net: &Network) -> Option<u64> {
    let r = net.routers();
    if !(2..=EXACT_BISECTION_LIMIT).contains(&r) {
        return None;
    }
    let w = router_weights(net);
    let total: u32 = w.iter().sum();
    let chans: Vec<(u32, u32, u64)> = net.edges().map(|(src, c)| (src, c.dst, c.width as u64)).collect();
    let mut best = u64::MAX;
    // Router r−1 stays on side 0 (the two sides are interchangeable).
    for mask in 0u32..(1 << (r - 1)) {
        let weight: u32 = (0..r - 1).filter(|&i| mask >> i & 1 == 1).map(|i| w[i as usize]).sum();
        if weight != total / 2 && weight != total.div_ceil(2) {
            continue;
        }
        let side = |x: u32| x < r - 1 && mask >> x & 1 == 1;
        let cut: u64 = chans.iter().filter(|&&(a, b, _)| side(a) != side(b)).map(|&(_, _, w)| w).sum();
        best = best.min(cut);
    }
    (best != u64::MAX).then_some(best)
}

/// Routers up to which [`refine_cut`] runs.
pub const REFINE_LIMIT: u32 = 20_000;

/// Improves a balanced cut by Kernighan–Lin swaps of routers of equal terminal weight until no
/// swap lowers the cut; the result is still one particular cut, hence an upper bound.
pub fn refine_cut(net: &Network, side: &mut [bool]) {
    let r = net.routers() as usize;
    if r > REFINE_LIMIT as usize {
        return;
    }
    let w = router_weights(net);
    // Undirected neighbour lists with the width of both directions.
    let mut adj: Vec<Vec<(u32, i64)>> = vec![Vec::new(); r];
    for (src, c) in net.edges() {
        if src != c.dst {
            adj[src as usize].push((c.dst, c.width as i64));
            adj[c.dst as usize].push((src, c.width as i64));
        }
    }
    let gain = |side: &[bool], v: usize| -> i64 {
        adj[v].iter().map(|&(u, wd)| if side[u as usize] != side[v] { wd } else { -wd }).sum()
    };
    let link = |a: usize, b: usize| -> i64 {
        adj[a].iter().filter(|&&(u, _)| u as usize == b).map(|&(_, wd)| wd).sum()
    };
    for _pass in 0..64 {
        let mut improved = false;
        let mut weights: Vec<u32> = w.clone();
        weights.sort_unstable();
        weights.dedup();
        for &wt in &weights {
            let mut a: Vec<(i64, usize)> =
                (0..r).filter(|&v| side[v] && w[v] == wt).map(|v| (gain(side, v), v)).collect();
            let mut b: Vec<(i64, usize)> =
                (0..r).filter(|&v| !side[v] && w[v] == wt).map(|v| (gain(side, v), v)).collect();
            a.sort_unstable_by(|x, y| y.cmp(x));
            b.sort_unstable_by(|x, y| y.cmp(x));
            let mut locked = vec![false; r];
            // Try the best few candidates on each side for the best single swap, repeatedly.
            // Locked routers gather at the front of the lists (the best are swapped first);
            // skipping that prefix keeps each step short instead of rescanning it.
            let (mut ha, mut hb) = (0, 0);
            for _ in 0..a.len().min(b.len()) {
                while ha < a.len() && locked[a[ha].1] {
                    ha += 1;
                }
                while hb < b.len() && locked[b[hb].1] {
                    hb += 1;
                }
                let mut best: Option<(i64, usize, usize)> = None;
                for &(_, x) in a[ha..].iter().filter(|p| !locked[p.1]).take(8) {
                    for &(_, y) in b[hb..].iter().filter(|p| !locked[p.1]).take(8) {
                        let g = gain(side, x) + gain(side, y) - 2 * link(x, y);
                        if g > 0 && best.is_none_or(|bst| g > bst.0) {
                            best = Some((g, x, y));
                        }
                    }
                }
                let Some((_, x, y)) = best else { break };
                side[x] = false;
                side[y] = true;
                locked[x] = true;
                locked[y] = true;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
}

/// A ball around router 0: routers in breadth-first order (following channels either way)
/// until half the terminal weight is on side `true`.
pub fn ball_side(net: &Network) -> Vec<bool> {
    let r = net.routers() as usize;
    let w = router_weights(net);
    let half = w.iter().map(|&x| x as u64).sum::<u64>() / 2;
    // Neighbours both ways without per-router vectors: out-channels from the network,
    // in-neighbours from one compact list (linear in routers and channels).
    let (in_start, in_src) = in_lists(net);
    let mut side = vec![false; r];
    let mut seen = vec![false; r];
    let mut queue = std::collections::VecDeque::new();
    let mut taken = 0u64;
    for start in 0..r {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        queue.push_back(start as u32);
        while let Some(v) = queue.pop_front() {
            let vu = v as usize;
            if taken + w[vu] as u64 <= half {
                side[vu] = true;
                taken += w[vu] as u64;
            }
            let outs = net.out_channels(v).map(|c| net.channel(c).dst);
            let ins = in_src[in_start[vu] as usize..in_start[vu + 1] as usize].iter().copied();
            for u in outs.chain(ins) {
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    queue.push_back(u);
                }
            }
        }
    }
    side
}

/// The bisection of a network without a proven formula: exact by enumeration when it has at
/// most [`EXACT_BISECTION_LIMIT`] routers, otherwise the better of the family's cut `start`
/// and a breadth-first ball, each refined by [`refine_cut`] (an upper bound).
pub fn search_bisection(net: &Network, start: Vec<bool>, how: &str) -> Bisection {
    search_bisection_from(net, vec![(start, how.to_string())])
}

/// [`search_bisection`] from several starting cuts (each with its description).
pub fn search_bisection_from(net: &Network, mut starts: Vec<(Vec<bool>, String)>) -> Bisection {
    if let Some(w) = exact_bisection(net) {
        return Bisection { width: w, exact: true, how: "every balanced cut enumerated".into() };
    }
    let how = starts.first().map(|s| s.1.clone()).unwrap_or_default();
    starts.push((ball_side(net), "a breadth-first ball around router 0".to_string()));
    let mut best: Option<Bisection> = None;
    for (mut side, name) in starts {
        let before = cut_width(net, &side);
        refine_cut(net, &mut side);
        let after = cut_width(net, &side);
        let refined = if after < before {
            format!(", improved from {before} by Kernighan-Lin swaps")
        } else {
            String::new()
        };
        if best.as_ref().is_none_or(|b| after < b.width) {
            best = Some(Bisection { width: after, exact: false, how: format!("{name}{refined}") });
        }
    }
    best.unwrap_or(Bisection { width: 0, exact: false, how })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FatTree, ModularButterfly, ModuleSplit};

    /// Verifies the estimate path against an independent value: every channel of a two-level
    /// butterfly joins consecutive stages, so every distance is stages − 1 and a sample of
    /// sources finds the exact numbers, while saying that it is an estimate.
    #[test]
    fn distances_over_the_work_limit_are_estimated_and_say_so() {
        let split =
            ModuleSplit { factors: vec![4, 8], intra_bits: 32, inter_bits: vec![64, 32], dilation: 1 };
        let t = ModularButterfly::new(1024, 32, split).unwrap();
        let net = t.network();
        let hops = t.stages() - 1;
        let exact = distances_within(net, false, false, u64::MAX).unwrap();
        assert!(exact.exact, "{}", exact.how);
        assert_eq!((exact.diameter, exact.average), (hops, hops as f64));
        let per_search = net.routers() as u64 + net.channels().len() as u64;
        let est = distances_within(net, false, false, 10 * per_search).unwrap();
        assert!(!est.exact && est.how.contains("estimated from 10 of 128 injection routers"), "{}", est.how);
        assert_eq!((est.diameter, est.average), (hops, hops as f64));
    }

    /// Verifies the load budget: with too small a budget both load computations stop and say
    /// why; with the real one the one-source shortcut equals routing every pair.
    #[test]
    fn loads_over_the_work_limit_are_not_computed_and_say_why() {
        let t = FatTree::new(256).unwrap();
        let net = t.network();
        for symmetric in [true, false] {
            let why = loads_within(net, &t, symmetric, 1000).unwrap().unwrap_err();
            assert!(why.starts_with("not computed") && why.contains("more than the 1e3 limit"), "{why}");
        }
        let (a, _) = loads_within(net, &t, true, LOAD_WORK_LIMIT).unwrap().unwrap();
        let (b, _) = loads_within(net, &t, false, LOAD_WORK_LIMIT).unwrap().unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() < 1e-9, "{x} vs {y}");
        }
    }
}
