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
use netwrap_topo::metrics::channel_loads;
use netwrap_topo::{Candidates, Family, Network, TerminalId, Topology, Visitor};

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
        let (mut total, mut longest) = (0u64, 0u64);
        for s in 0..sources {
            for d in 0..n {
                route(f, s, d, &mut path)?;
                total += path.len() as u64;
                longest = longest.max(path.len() as u64);
            }
        }
        let mut self_use = vec![0u32; net.channels().len()];
        for s in 0..n {
            route(f, s, s, &mut path)?;
            for &c in &path {
                self_use[c as usize] += 1;
            }
        }
        let mean_hops = total as f64 / (sources as f64 * n as f64);
        let (loads, load_method) = match channel_loads(net, f, self.class_symmetric)? {
            Some((distinct, how)) => (Some(groups(net, &distinct, &self_use)), how),
            None => (None, "not computed: too many terminals for every pair and no symmetry to use".into()),
        };
        Ok(RouteFacts { mean_hops, longest, loads, load_method })
    }
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
