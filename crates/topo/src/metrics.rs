//! Exact topology metrics: distances, diameter, bisection, and channel load under uniform
//! traffic.
//!
//! Distances are router-to-router channel hops from a terminal's injection router to the
//! other terminal's ejection router (the terminals' own links are not counted), averaged over
//! ordered pairs of distinct terminals. For vertex-transitive families with one terminal per
//! router a single breadth-first search suffices (every node sees the same distance
//! distribution); otherwise one search per injection router runs on all cores.

use crate::TopoError;
use crate::graph::{UNREACHED, bfs_from};
use crate::network::{Candidates, Network, Routing};
use rayon::prelude::*;
use serde::Serialize;

/// Largest terminal count for which the channel load is computed over all pairs.
pub const LOAD_PAIRS_LIMIT: u32 = 4096;

/// A balanced cut and how much is known about it.
#[derive(Clone, Debug, Serialize)]
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
#[derive(Clone, Debug, Serialize)]
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
#[derive(Clone, Debug, Serialize)]
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
    /// Largest hop count between two distinct terminals.
    pub diameter: u32,
    /// Mean hop count over ordered pairs of distinct terminals.
    pub average_distance: f64,
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

/// Diameter and average distance over ordered pairs of distinct terminals.
pub fn distances(net: &Network, vertex_transitive: bool) -> Result<(u32, f64), TopoError> {
    let n = net.terminals();
    if n < 2 {
        return Ok((0, 0.0));
    }
    let one_each = vertex_transitive
        && net.routers() == n
        && (0..n).all(|t| net.inject_router(t) == t && net.eject_router(t) == t);
    if one_each {
        let d = bfs_from(net, 0);
        if d.contains(&UNREACHED) {
            return Err(unreachable());
        }
        let sum: u64 = d.iter().map(|&x| x as u64).sum();
        return Ok((*d.iter().max().unwrap_or(&0), sum as f64 / (n - 1) as f64));
    }
    let r = net.routers() as usize;
    let mut eject_count = vec![0u64; r];
    for t in 0..n {
        eject_count[net.eject_router(t) as usize] += 1;
    }
    // Terminals grouped by injection router.
    let mut by_inject: Vec<Vec<u32>> = vec![Vec::new(); r];
    for t in 0..n {
        by_inject[net.inject_router(t) as usize].push(t);
    }
    let sources: Vec<usize> = (0..r).filter(|&u| !by_inject[u].is_empty()).collect();
    let (sum, max, bad) = sources
        .par_iter()
        .map(|&u| {
            let d = bfs_from(net, u as u32);
            let own = &by_inject[u];
            let cu = own.len() as u64;
            let (mut sum, mut max, mut bad) = (0u64, 0u32, false);
            for v in 0..r {
                if eject_count[v] == 0 {
                    continue;
                }
                let same = own.iter().filter(|&&t| net.eject_router(t) as usize == v).count() as u64;
                let pairs = cu * eject_count[v] - same;
                if pairs == 0 {
                    continue;
                }
                if d[v] == UNREACHED {
                    bad = true;
                    continue;
                }
                sum += pairs * d[v] as u64;
                max = max.max(d[v]);
            }
            (sum, max, bad)
        })
        .reduce(|| (0, 0, false), |a, b| (a.0 + b.0, a.1.max(b.1), a.2 || b.2));
    if bad {
        return Err(unreachable());
    }
    Ok((max, sum as f64 / (n as f64 * (n - 1) as f64)))
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

/// Adds one message's flow from terminal `s` to terminal `t`, split evenly over the routing
/// candidates at every hop, into `load`.
#[allow(clippy::too_many_arguments)]
fn add_flow<R: Routing>(
    net: &Network,
    routing: &R,
    s: u32,
    t: u32,
    weight: f64,
    load: &mut [f64],
    frontier: &mut Vec<(u32, f64)>,
    next: &mut Vec<(u32, f64)>,
) -> Result<(), TopoError> {
    let mut c = Candidates::default();
    for salt in [0u32, u32::MAX] {
        frontier.clear();
        frontier.push((net.inject_router(s), weight / 2.0));
        let mut steps = 0;
        while !frontier.is_empty() {
            steps += 1;
            if steps > net.routers() as usize + 2 {
                return Err(TopoError::Invalid(format!(
                    "routing from terminal {s} to {t} does not terminate"
                )));
            }
            next.clear();
            for &(r, w) in frontier.iter() {
                routing.route(r, t, salt, &mut c);
                if c.is_empty() {
                    if r != net.eject_router(t) {
                        return Err(TopoError::Invalid(format!(
                            "routing from terminal {s} to {t} stops at router {r}, not at its ejection router"
                        )));
                    }
                    continue;
                }
                let share = w / c.as_slice().len() as f64;
                for &ch in c.as_slice() {
                    load[ch as usize] += share;
                    next.push((net.channel(ch).dst, share));
                }
            }
            next.sort_unstable_by_key(|x| x.0);
            frontier.clear();
            for &(r, w) in next.iter() {
                match frontier.last_mut() {
                    Some(last) if last.0 == r => last.1 += w,
                    _ => frontier.push((r, w)),
                }
            }
        }
    }
    Ok(())
}

/// Per-channel load (messages per cycle per unit injection rate) under uniform traffic.
///
/// With `class_symmetric` (the family's automorphisms act transitively on the channels of
/// each class and commute with its routing: tori, circulants, n-hop networks), only terminal
/// 0's messages are routed and every channel of a class gets the class mean; otherwise every
/// pair is routed, up to [`LOAD_PAIRS_LIMIT`] terminals.
pub fn channel_loads<R: Routing>(
    net: &Network,
    routing: &R,
    class_symmetric: bool,
) -> Result<Option<(Vec<f64>, String)>, TopoError> {
    let n = net.terminals();
    let m = net.channels().len();
    if n < 2 {
        return Ok(Some((vec![0.0; m], "no pairs".into())));
    }
    let w = 1.0 / (n - 1) as f64;
    if class_symmetric {
        let mut load = vec![0.0; m];
        let (mut f, mut g) = (Vec::new(), Vec::new());
        for t in 1..n {
            add_flow(net, routing, 0, t, w, &mut load, &mut f, &mut g)?;
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
        return Ok(Some((
            per,
            "routes from one terminal, spread over each channel class by symmetry".into(),
        )));
    }
    if n > LOAD_PAIRS_LIMIT {
        return Ok(None);
    }
    let load = (0..n)
        .into_par_iter()
        .try_fold(
            || (vec![0.0; m], Vec::new(), Vec::new()),
            |(mut load, mut f, mut g), s| {
                for t in (0..n).filter(|&t| t != s) {
                    add_flow(net, routing, s, t, w, &mut load, &mut f, &mut g)?;
                }
                Ok::<_, TopoError>((load, f, g))
            },
        )
        .map(|r| r.map(|x| x.0))
        .try_reduce(
            || vec![0.0; m],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                Ok(a)
            },
        )?;
    Ok(Some((load, "every ordered pair routed".into())))
}

/// Route walks (terminals × mean distance) above which the one-source load shortcut is
/// skipped: a million-node circulant would need hundreds of millions of hops.
pub const LOAD_WALK_LIMIT: f64 = 3.0e7;

/// Computes all metrics of a routed network.
pub fn measure<R: Routing>(
    net: &Network,
    routing: &R,
    vertex_transitive: bool,
    class_symmetric: bool,
    bisection: Bisection,
) -> Result<Metrics, TopoError> {
    let (diameter, average_distance) = distances(net, vertex_transitive)?;
    let walks = net.terminals() as f64 * average_distance;
    let loads = if class_symmetric && walks > LOAD_WALK_LIMIT {
        Err(format!(
            "not computed: {} terminals x {average_distance:.1} hops exceeds {LOAD_WALK_LIMIT:e} route steps",
            net.terminals()
        ))
    } else {
        channel_loads(net, routing, class_symmetric)?.ok_or_else(|| {
            format!("not computed: more than {LOAD_PAIRS_LIMIT} terminals without a symmetry shortcut")
        })
    };
    Ok(assemble(net, (diameter, average_distance), loads, bisection))
}

/// Builds the report from distances, per-channel loads (or why there are none) and a bisection.
pub fn assemble(
    net: &Network,
    distances: (u32, f64),
    loads: Result<(Vec<f64>, String), String>,
    bisection: Bisection,
) -> Metrics {
    let (lo, hi) = if net.routers() == 0 { (0, 0) } else { net.degree_range() };
    let mut class_loads = Vec::new();
    let (channel_load, ideal_throughput, load_how) = match loads {
        Ok((load, how)) => {
            let mut max = vec![0.0f64; net.classes().len()];
            let mut count = vec![0u64; net.classes().len()];
            for (i, ch) in net.channels().iter().enumerate() {
                let l = load[i] / ch.width as f64;
                max[ch.class as usize] = max[ch.class as usize].max(l);
                count[ch.class as usize] += 1;
            }
            for (i, name) in net.classes().iter().enumerate() {
                if count[i] > 0 {
                    class_loads.push(ClassLoad { class: name.clone(), channels: count[i], max_load: max[i] });
                }
            }
            let gmax = max.iter().copied().fold(0.0, f64::max);
            let tw = net.terminal_width() as f64;
            let theta = if gmax > 0.0 { (1.0 / gmax).min(tw) } else { tw };
            (Some(gmax), Some(theta), how)
        }
        Err(why) => (None, None, why),
    };
    Metrics {
        nodes: net.terminals(),
        routers: net.routers(),
        channels: net.channels().len() as u64,
        degree: (lo == hi).then_some(lo),
        degree_range: (lo, hi),
        diameter: distances.0,
        average_distance: distances.1,
        bisection_width: bisection.width,
        bisection_exact: bisection.exact,
        bisection_how: bisection.how,
        channel_load,
        ideal_throughput,
        class_loads,
        load_how,
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
            for _ in 0..a.len().min(b.len()) {
                let mut best: Option<(i64, usize, usize)> = None;
                for &(_, x) in a.iter().filter(|p| !locked[p.1]).take(8) {
                    for &(_, y) in b.iter().filter(|p| !locked[p.1]).take(8) {
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
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); r];
    for (src, c) in net.edges() {
        adj[src as usize].push(c.dst);
        adj[c.dst as usize].push(src);
    }
    let mut side = vec![false; r];
    let mut seen = vec![false; r];
    let mut queue = std::collections::VecDeque::new();
    let mut taken = 0u64;
    for start in 0..r {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        queue.push_back(start);
        while let Some(v) = queue.pop_front() {
            if taken + w[v] as u64 <= half {
                side[v] = true;
                taken += w[v] as u64;
            }
            for &u in &adj[v] {
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    queue.push_back(u as usize);
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
