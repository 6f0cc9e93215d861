//! What a run needs to know about the routes before it starts: the mean and longest route,
//! and the offered load of every channel class, exactly.
//!
//! k-ary n-cubes use closed forms in O(k) per dimension ([`crate::load`]). Other families
//! route one terminal's messages and spread them over each channel class when the family is
//! symmetric, or route every pair up to [`netwrap_topo::metrics::LOAD_PAIRS_LIMIT`]
//! terminals; the loads are then folded into (class, width) groups, so no per-channel vector
//! outlives the setup.

use crate::SimError;
use crate::load::cube_loads;
use crate::traffic::LocalitySubcube;
use netwrap_topo::metrics::bounded_channel_loads;
use netwrap_topo::{Candidates, Family, Network, TerminalId, Topology, Visitor, bfs_from};

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
}

/// True when a channel offered `load` flits per cycle saturates: one flit per cycle or more
/// (an M/D/1-like queue at ρ = 1 is already unstable), to within 1e-9 for the rounding of the
/// load's sum (m = 1/14 on the 8×8 torus gives 0.9999999999999999).
pub fn saturates(load: f64) -> bool {
    load >= 1.0 - 1e-9
}

/// Offered busy fraction at request rate `rate` and message length `size`: the busiest
/// channel's, and the mean of each class (indexed like the network's classes).
pub fn offered(groups: &[LoadGroup], classes: usize, rate: f64, size: u32) -> (f64, Vec<f64>) {
    let mut max: f64 = 0.0;
    let mut sum = vec![(0.0, 0u64); classes];
    for g in groups {
        let hold = (size as u64).div_ceil(g.width as u64) as f64;
        max = max.max(rate * hold * g.max);
        sum[g.class as usize].0 += rate * hold * g.sum;
        sum[g.class as usize].1 += g.channels;
    }
    (max, sum.iter().map(|&(s, n)| s / n.max(1) as f64).collect())
}

/// Terminals above which an asymmetric family's routes are not walked pair by pair.
pub const PAIRS_LIMIT: u32 = 4096;

/// The facts for `topo` under uniform traffic, or on a cube under the locality `subcube`.
pub fn facts(topo: &Topology, subcube: Option<&LocalitySubcube>) -> Result<RouteFacts, SimError> {
    if let Topology::Cube(cube) = topo {
        let spec = cube.spec();
        let sides = subcube.map_or_else(|| spec.radices.clone(), |s| s.sides.clone());
        let loads = cube_loads(spec, &sides);
        let net = cube.network();
        let mut count = vec![0u64; net.classes().len()];
        for c in net.channels() {
            count[c.class as usize] += 1;
        }
        let groups = (0..count.len())
            .map(|c| LoadGroup {
                class: c as u16,
                width: 1,
                max: loads.class_max[c],
                sum: loads.class_mean[c] * count[c] as f64,
                channels: count[c],
            })
            .collect();
        return Ok(RouteFacts {
            mean_hops: loads.mean_hops,
            longest: loads.longest,
            loads: Some(groups),
            load_method: "exact, from each dimension's offsets (dimension-order routing)".into(),
        });
    }
    let (vertex_transitive, class_symmetric) = topo.symmetry();
    topo.visit(Walk { vertex_transitive, class_symmetric })
}

/// The channels of the route from `s` to `d` (first candidate at every hop: the families'
/// alternatives are equally long), into `path`.
fn route<F: Family>(f: &F, s: TerminalId, d: TerminalId, path: &mut Vec<u32>) -> Result<(), SimError> {
    let net = f.network();
    let mut cands = Candidates::default();
    let mut at = net.inject_router(s);
    path.clear();
    loop {
        f.route(at, d, 0, &mut cands);
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
    class_symmetric: bool,
}

impl Visitor for Walk {
    type Output = Result<RouteFacts, SimError>;
    fn visit<F: Family>(self, f: &F) -> Self::Output {
        let net = f.network();
        let n = net.terminals();
        if !self.vertex_transitive && n > PAIRS_LIMIT {
            return Err(SimError::Invalid(format!(
                "{n} terminals without symmetry: netwrap simulates asymmetric families up to {PAIRS_LIMIT} terminals (their routes are walked pair by pair)"
            )));
        }
        // Mean over (source, destination) pairs — from terminal 0 alone when every terminal
        // looks the same — and how often self-addressed messages use each channel.
        let mut path = Vec::new();
        let sources = if self.vertex_transitive { 1 } else { n };
        let (total, longest) = if self.vertex_transitive {
            lengths_from_zero(f)?
        } else {
            let (mut total, mut longest) = (0u64, 0u64);
            for s in 0..sources {
                for d in 0..n {
                    route(f, s, d, &mut path)?;
                    total += path.len() as u64;
                    longest = longest.max(path.len() as u64);
                }
            }
            (total, longest)
        };
        let mut self_use = vec![0u32; net.channels().len()];
        for s in 0..n {
            route(f, s, s, &mut path)?;
            for &c in &path {
                self_use[c as usize] += 1;
            }
        }
        let mean_hops = total as f64 / (sources as f64 * n as f64);
        let (loads, load_method) = match bounded_channel_loads(net, f, self.class_symmetric)? {
            Ok((distinct, how)) => (Some(groups(net, &distinct, &self_use)), how),
            Err(why) => (None, why),
        };
        Ok(RouteFacts { mean_hops, longest, loads, load_method })
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
    let mut path = Vec::new();
    let mut budget = CHECK_HOPS;
    const SAMPLES: u64 = 64;
    for i in 0..SAMPLES.min(n as u64) {
        let d = ((2 * i + 1) * n as u64 / (2 * SAMPLES.min(n as u64))) as TerminalId;
        let expected = hops(d)?;
        if i > 0 && expected > budget {
            break;
        }
        route(f, 0, d, &mut path)?;
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

/// Folds per-channel loads into (class, width) groups: distinct-pair loads weighted
/// (N − 1)/N, self-addressed routes 1/N.
fn groups(net: &Network, distinct: &[f64], self_use: &[u32]) -> Vec<LoadGroup> {
    let n = net.terminals() as f64;
    let mut out: Vec<LoadGroup> = Vec::new();
    for (i, c) in net.channels().iter().enumerate() {
        let load = distinct[i] * (n - 1.0) / n + self_use[i] as f64 / n;
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
    use netwrap_topo::{RoutingAlgorithm, RoutingSpec, TopologySpec};

    /// Every route from terminal 0 walked: what [`lengths_from_zero`] replaces.
    struct WalkAll;

    impl Visitor for WalkAll {
        type Output = (u64, u64);
        fn visit<F: Family>(self, f: &F) -> (u64, u64) {
            let mut path = Vec::new();
            let (mut total, mut longest) = (0, 0);
            for d in 0..f.network().terminals() {
                route(f, 0, d, &mut path).unwrap();
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
        let table = RoutingSpec { algorithm: RoutingAlgorithm::Table, order: None };
        let record = RoutingSpec { algorithm: RoutingAlgorithm::Record, order: None };
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
}
