//! Circulant graphs C_N(a, b) and the Midimew (Puente et al. §2).
//!
//! Node `i` is joined to `(i ± a) mod N` and `(i ± b) mod N`. Router `i` carries terminal
//! `i`. Every router has four output channels, in this order and with these classes:
//! `+a`, `-a`, `+b`, `-b` (class ids 0–3). When `2a ≡ 0` or `2b ≡ 0 (mod N)` the `+` and `-`
//! channels of that generator join the same two nodes; both are kept, so the graph stays
//! 4-regular, as the seed's degree-4 accounting assumes.

use crate::TopoError;
use crate::graph::bfs_from;
use crate::network::{Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId};
use serde::{Deserialize, Serialize};

/// How a circulant graph routes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CirculantRouting {
    /// Every minimal next hop, from one breadth-first search (the graph is vertex-transitive,
    /// so the hop count from `i` to `j` is the hop count from 0 to `j − i`): Puente et al. §2.2's
    /// routing table, in O(N) memory.
    #[default]
    Table,
    /// The Midimew routing record (Δx, Δy) of Puente et al. Table 2, recomputed at every hop, in
    /// dimension order: the b-hops (Δx) first, then the a-hops (Δy) — the deterministic routing
    /// of Puente et al.'s escape channel. Only for Midimews.
    Record,
}

/// A built circulant graph C_N(a, b).
#[derive(Clone, Debug)]
pub struct Circulant {
    nodes: u32,
    a: u32,
    b: u32,
    midimew: bool,
    routing: CirculantRouting,
    /// Hop count from node 0 to node `j`.
    dist0: Vec<u32>,
    network: Network,
}

/// The Midimew's generators for N nodes: b = ⌈√(N/2)⌉, a = b − 1 (Puente et al. §2).
pub fn midimew_generators(nodes: u32) -> (u32, u32) {
    // Integer ceil(sqrt(N/2)) = smallest b with 2b² ≥ N, exact for every u32; at least 1, so
    // that N = 0 (refused where the network is built) has generators to name.
    let mut b = ((nodes as f64 / 2.0).sqrt()).ceil().max(1.0) as u64;
    while b > 1 && 2 * (b - 1) * (b - 1) >= nodes as u64 {
        b -= 1;
    }
    while 2 * b * b < nodes as u64 {
        b += 1;
    }
    ((b - 1) as u32, b as u32)
}

/// The 2-D mesh-with-wrap-around layout of Puente et al. Fig. 1 of the Midimew of `nodes` nodes,
/// when N is a multiple of b or of a: `(columns, rows, x_step, y_step)` such that the node at
/// column `x`, row `y` is `(x·x_step + y·y_step) mod N`; horizontal links are the `x_step`
/// generator and vertical links the `y_step` generator. Vertical wrap-around links close each
/// column (rows·y_step ≡ 0 mod N); horizontal ones wrap with a shift of rows, as in the figure.
/// `None` for N that is a multiple of neither (the paper refers those to its reference 2).
pub fn midimew_layout(nodes: u32) -> Option<(u32, u32, u32, u32)> {
    let (a, b) = midimew_generators(nodes);
    if b > 0 && nodes.is_multiple_of(b) {
        Some((b, nodes / b, a, b))
    } else if a > 1 && nodes.is_multiple_of(a) {
        Some((a, nodes / a, b, a))
    } else {
        None
    }
}

impl Circulant {
    /// Builds C_N(a, b). Valid: N ≥ 4 nodes, generators 1 ≤ a, b < N with a ≠ b and
    /// a + b ≠ N (otherwise two generators coincide), and gcd(N, a, b) = 1 so the graph is
    /// connected.
    pub fn new(nodes: u32, a: u32, b: u32, routing: CirculantRouting) -> Result<Self, TopoError> {
        Self::build(nodes, a, b, false, routing)
    }

    /// Builds the Midimew of N nodes, C_N(⌈√(N/2)⌉ − 1, ⌈√(N/2)⌉) (Puente et al. §2); N ≥ 4.
    pub fn midimew(nodes: u32, routing: CirculantRouting) -> Result<Self, TopoError> {
        if nodes < 4 {
            return Err(TopoError::Invalid(format!(
                "a Midimew needs N >= 4 nodes (got {nodes}): smaller N gives generator a = 0"
            )));
        }
        let (a, b) = midimew_generators(nodes);
        Self::build(nodes, a, b, true, routing)
    }

    fn build(
        nodes: u32,
        a: u32,
        b: u32,
        midimew: bool,
        routing: CirculantRouting,
    ) -> Result<Self, TopoError> {
        if nodes < 4 {
            return Err(TopoError::Invalid(format!("a circulant graph needs N >= 4 nodes (got {nodes})")));
        }
        if a == 0 || b == 0 || a >= nodes || b >= nodes {
            return Err(TopoError::Invalid(format!(
                "generators a = {a}, b = {b} are invalid for N = {nodes}: both must lie in 1..{nodes}"
            )));
        }
        if a == b || a + b == nodes {
            return Err(TopoError::Invalid(format!(
                "generators a = {a} and b = {b} coincide modulo N = {nodes}: choose a != b and a + b != N"
            )));
        }
        if gcd(gcd(nodes, a), b) != 1 {
            return Err(TopoError::Invalid(format!(
                "C_{nodes}({a},{b}) is disconnected: gcd(N, a, b) must be 1"
            )));
        }
        if routing == CirculantRouting::Record && !midimew {
            return Err(TopoError::Invalid(
                "routing-record routing (Puente et al. Table 2) exists only for Midimews; use table routing"
                    .into(),
            ));
        }
        let name = if midimew {
            format!("Midimew {nodes} = C_{nodes}({a},{b})")
        } else {
            format!("C_{nodes}({a},{b})")
        };
        let n = Some(nodes as u64);
        Planned { terminals: n, routers: n, channels: Some(4 * nodes as u64) }
            .check(|| format!("the {name}"))?;
        let classes = ["+a", "-a", "+b", "-b"].iter().map(|s| s.to_string()).collect();
        let mut builder = NetworkBuilder::new(nodes, nodes as usize * 4, classes);
        for i in 0..nodes {
            for (class, step) in [(0u16, a as i64), (1, -(a as i64)), (2, b as i64), (3, -(b as i64))] {
                let dst = (i as i64 + step).rem_euclid(nodes as i64) as u32;
                builder.push(i, dst, 1, class);
            }
        }
        let network = builder.finish(name, nodes, Attach::one_each(), Attach::one_each());
        let dist0 = bfs_from(&network, 0);
        Ok(Circulant { nodes, a, b, midimew, routing, dist0, network })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// Number of nodes N.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }
    /// The generators (a, b).
    pub fn generators(&self) -> (u32, u32) {
        (self.a, self.b)
    }
    /// Whether this is a Midimew.
    pub fn is_midimew(&self) -> bool {
        self.midimew
    }
    /// Bytes held on the heap: the network and the hop counts from node 0.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes() + self.dist0.capacity() * size_of::<u32>()
    }
    /// Minimal hop count from `src` to `dst`.
    pub fn distance(&self, src: RouterId, dst: RouterId) -> u32 {
        self.dist0[((dst as u64 + self.nodes as u64 - src as u64) % self.nodes as u64) as usize]
    }

    /// The Midimew routing record from `src` to `dst`: `(x, y)` = signed hops along the `b`
    /// generator and along the `a = b − 1` generator, with |x| + |y| minimal.
    ///
    /// Puente et al. Table 2 (a) computes the record from m = |dst − src| folded to m ≤ N/2,
    /// y0 = m mod b and a correction of (b − 1) hops. As transcribed in our copy of the paper
    /// the table is not self-consistent (its first branch would make a y-hop worth b + 1, which
    /// is no generator of C_N(b−1, b)), so we use the identity behind it: writing
    /// m = q·b + r (0 ≤ r < b), m = (q + r)·b − r·(b − 1), and every other representation
    /// differs by t·((b−1)·b − b·(b−1)) = t·((b−1), −b) in (x, y). The minimum of |x| + |y| is
    /// attained for t ∈ {−1, 0, 1}, taking m either way round the ring (m or m − N): six
    /// candidates. The test `record_is_minimal_for_every_pair` checks this against
    /// breadth-first search for every N from 4 to 1200 and every pair.
    pub fn routing_record(&self, src: RouterId, dst: RouterId) -> (i64, i64) {
        let n = self.nodes as i64;
        let b = self.b as i64;
        let m = (dst as i64 - src as i64).rem_euclid(n);
        let mut best = (i64::MAX, 0, 0);
        for mp in [m, m - n] {
            let (q, r) = (mp.div_euclid(b), mp.rem_euclid(b));
            for t in [-1i64, 0, 1] {
                let x = q + r + t * (b - 1);
                let y = -r - t * b;
                let cost = x.abs() + y.abs();
                if cost < best.0 {
                    best = (cost, x, y);
                }
            }
        }
        (best.1, best.2)
    }

    /// The 2-D mesh-with-wrap-around layout of Puente et al. Fig. 1, when this is a Midimew that
    /// has one ([`midimew_layout`]).
    pub fn layout(&self) -> Option<(u32, u32, u32, u32)> {
        if !self.midimew {
            return None;
        }
        midimew_layout(self.nodes)
    }

    /// The network node that runs application node `p` when the application numbers nodes
    /// row-major on the layout of [`Circulant::layout`] (Puente et al. Fig. 9: the routing tables
    /// are built on the application's numbering, so unchanged code keeps its locality).
    /// `None` when there is no rectangular layout or `p ≥ N`.
    pub fn application_to_network(&self, p: u32) -> Option<RouterId> {
        let (cols, _rows, xs, ys) = self.layout()?;
        if p >= self.nodes {
            return None;
        }
        let (x, y) = ((p % cols) as u64, (p / cols) as u64);
        Some(((x * xs as u64 + y * ys as u64) % self.nodes as u64) as u32)
    }
}

impl Circulant {
    /// Expected hops per class (`+a`, `-a`, `+b`, `-b`) summed over the messages from one node
    /// to every other, when each message splits evenly over the routing's candidates at every
    /// hop: the channel load of uniform traffic in O(N).
    ///
    /// The routing depends only on the offset δ = dest − at, so g(δ), the expected class hops
    /// of the rest of a route at offset δ, satisfies g(δ) = mean over candidates c of
    /// (e_class(c) + g(δ − step(c))), with g(0) = 0; every candidate is one hop closer, so
    /// offsets are solved in order of distance.
    pub fn class_hops(&self) -> [f64; 4] {
        let n = self.nodes as usize;
        // Offsets in order of distance: a counting sort, linear in N.
        let diameter = self.dist0.iter().copied().max().unwrap_or(0) as usize;
        let mut start = vec![0u32; diameter + 2];
        for &d in &self.dist0 {
            start[d as usize + 1] += 1;
        }
        for i in 0..=diameter {
            start[i + 1] += start[i];
        }
        let mut order = vec![0u32; n];
        for (j, &d) in self.dist0.iter().enumerate() {
            order[start[d as usize] as usize] = j as u32;
            start[d as usize] += 1;
        }
        let steps = [self.a as i64, -(self.a as i64), self.b as i64, -(self.b as i64)];
        let mut g = vec![[0.0f64; 4]; n];
        let mut total = [0.0f64; 4];
        let mut c = Candidates::for_network(&self.network);
        for &d in order.iter().skip(1) {
            // At router 0 with destination d, the offset is d.
            self.route(0, d, 0, &mut c);
            let share = 1.0 / c.as_slice().len() as f64;
            let mut acc = [0.0f64; 4];
            for &ch in c.as_slice() {
                let class = ch as usize % 4;
                let rest = (d as i64 - steps[class]).rem_euclid(n as i64) as usize;
                for k in 0..4 {
                    acc[k] += share * g[rest][k];
                }
                acc[class] += share;
            }
            g[d as usize] = acc;
            for k in 0..4 {
                total[k] += acc[k];
            }
        }
        total
    }
}

impl Circulant {
    /// The Midimew routing record's next hop from `at` (≠ `dest`): dimension order, the
    /// b-hops (x, classes `+b`/`-b`) first, then the a-hops (y, classes `+a`/`-a`). The record
    /// is recomputed at every hop, and after a b-hop it keeps its y (the test
    /// `record_routes_b_hops_then_a_hops` checks every pair), so a route never returns to
    /// b-hops: the deterministic channel of Puente et al.'s router, on which Bubble flow
    /// control needs dimension order.
    #[inline]
    fn record_hop(&self, at: RouterId, dest: TerminalId) -> u32 {
        let base = at * 4;
        let (x, y) = self.routing_record(at, dest);
        base + match (x.signum(), y.signum()) {
            (1, _) => 2,
            (-1, _) => 3,
            (_, 1) => 0,
            _ => 1,
        }
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Routing for Circulant {
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        if at == dest {
            return;
        }
        // Four channels per router, in class order: router `at`'s are 4·at .. 4·at + 4.
        let base = at as usize * 4;
        debug_assert_eq!(self.network.out_channels(at).start as usize, base);
        match self.routing {
            CirculantRouting::Record => out.push(self.record_hop(at, dest)),
            CirculantRouting::Table => self.minimal(at, dest, 0, out),
        }
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }

    fn rings(&self) -> bool {
        true
    }

    /// Every minimal next hop, whatever the routing: the table's.
    #[inline]
    fn minimal(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        if at == dest {
            return;
        }
        let here = self.distance(at, dest);
        for c in self.network.out_channels(at) {
            if self.distance(self.network.channel(c).dst, dest) + 1 == here {
                out.push(c);
            }
        }
    }

    /// The routing record's hop on a Midimew (dimension order, b-hops first), the first
    /// minimal next hop on other circulants.
    fn escape(&self, at: RouterId, dest: TerminalId, _salt: u32) -> Option<u32> {
        if at == dest {
            None
        } else if self.midimew {
            Some(self.record_hop(at, dest))
        } else {
            // `minimal`'s first candidate, without a candidate list.
            let here = self.distance(at, dest);
            self.network
                .out_channels(at)
                .find(|&c| self.distance(self.network.channel(c).dst, dest) + 1 == here)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::bfs_from;

    #[test]
    fn midimew_generators_match_the_seed() {
        // Puente et al. §5: C_16(2,3), C_64(5,6), C_256(11,12); Fig. 1: C_32(3,4).
        assert_eq!(midimew_generators(16), (2, 3));
        assert_eq!(midimew_generators(64), (5, 6));
        assert_eq!(midimew_generators(256), (11, 12));
        assert_eq!(midimew_generators(32), (3, 4));
        assert_eq!(midimew_generators(4), (1, 2));
        // Regression (found by the spec fuzzer): N = 0 overflowed b − 1 while a spec was
        // resolved, before the network's own check could refuse it.
        assert_eq!(midimew_generators(0), (0, 1));
    }

    #[test]
    fn record_is_minimal_for_every_pair() {
        for n in 4..=1200u32 {
            let m = Circulant::midimew(n, CirculantRouting::Record).unwrap();
            let d = bfs_from(m.network(), 0);
            for j in 0..n {
                let (x, y) = m.routing_record(0, j);
                let (a, b) = (m.a as i64, m.b as i64);
                assert_eq!((x * b + y * a - j as i64).rem_euclid(n as i64), 0, "N={n} j={j}");
                assert_eq!((x.abs() + y.abs()) as u32, d[j as usize], "N={n} j={j}");
            }
        }
    }

    /// Verification: on circulants that are not Midimews, the escape channel (found without a
    /// candidate list) is the first minimal next hop, for every pair.
    #[test]
    fn escape_is_the_first_minimal_hop_off_midimews() {
        for (n, a, b) in [(30, 4, 7), (20, 3, 7), (12, 1, 5)] {
            let m = Circulant::new(n, a, b, CirculantRouting::Table).unwrap();
            assert!(!m.midimew);
            let mut c = Candidates::for_network(m.network());
            for at in 0..n {
                for dst in 0..n {
                    m.minimal(at, dst, 0, &mut c);
                    assert_eq!(m.escape(at, dst, 0), c.as_slice().first().copied(), "C_{n}({a}, {b})");
                }
            }
        }
    }

    /// Verification (against breadth-first search and the definition of dimension order): on
    /// every Midimew from 4 to 300 nodes, the record route of every pair is minimal, and once
    /// it takes an a-hop it never takes a b-hop again, nor reverses direction in a dimension.
    #[test]
    fn record_routes_b_hops_then_a_hops() {
        for n in 4..=300u32 {
            let m = Circulant::midimew(n, CirculantRouting::Record).unwrap();
            let d = bfs_from(m.network(), 0);
            for src in [0, n / 3] {
                for dst in 0..n {
                    let (mut at, mut hops, mut classes) = (src, 0u32, Vec::new());
                    let mut c = Candidates::default();
                    loop {
                        m.route(at, dst, 0, &mut c);
                        assert!(c.as_slice().len() <= 1);
                        let Some(&ch) = c.as_slice().first() else { break };
                        assert_eq!(m.escape(at, dst, 0), Some(ch));
                        classes.push(m.network().channel(ch).class);
                        at = m.network().channel(ch).dst;
                        hops += 1;
                    }
                    assert_eq!(at, dst);
                    let want = d[((dst + n - src) % n) as usize];
                    assert_eq!(hops, want, "N={n} {src}->{dst}");
                    let changes = classes.windows(2).filter(|w| w[0] != w[1]).count();
                    assert!(changes <= 1, "N={n} {src}->{dst}: classes {classes:?}");
                    assert!(classes.first().is_none_or(|&c| c >= 2) || classes.iter().all(|&c| c < 2));
                }
            }
        }
    }

    /// Puente et al. Table 2(a) exactly as transcribed in our copy: for no assignment of the four
    /// generator steps to x and y hops does it reach the destination with a minimal path for
    /// every offset, which is why `routing_record` uses the identity instead.
    #[test]
    fn literal_table_2_transcription_is_inconsistent() {
        fn literal(b: i64, m: i64) -> (i64, i64) {
            let y0 = m % b;
            let x0 = m / b - y0;
            let (y1, x1) = (b + y0, x0 - (b - 1));
            if y0 == 0 || x0 < y1 { (x0, y0) } else { (x1, y1) }
        }
        for n in [16u32, 32, 64, 256] {
            let m = Circulant::midimew(n, CirculantRouting::Table).unwrap();
            let d = bfs_from(m.network(), 0);
            let (a, b) = (m.a as i64, m.b as i64);
            let steps = [a, -a, b, -b];
            let consistent = steps.iter().any(|&u| {
                steps.iter().any(|&v| {
                    (0..=n as i64 / 2).all(|off| {
                        let (x, y) = literal(b, off);
                        (x * u + y * v - off).rem_euclid(n as i64) == 0
                            && (x.abs() + y.abs()) as u32 == d[off as usize]
                    })
                })
            });
            assert!(!consistent, "N = {n}");
        }
    }

    #[test]
    fn layout_is_a_bijection_with_mesh_neighbours() {
        for n in [16u32, 18, 32, 64, 72, 128, 200] {
            let m = Circulant::midimew(n, CirculantRouting::Table).unwrap();
            let Some((cols, rows, xs, ys)) = m.layout() else { continue };
            assert_eq!(cols * rows, n);
            let mut seen = vec![false; n as usize];
            for p in 0..n {
                let r = m.application_to_network(p).unwrap();
                assert!(!seen[r as usize], "N={n}: node {r} placed twice");
                seen[r as usize] = true;
            }
            // Horizontal and vertical neighbours in the layout are graph neighbours.
            let (a, b) = m.generators();
            assert!([a, b].contains(&xs) && [a, b].contains(&ys) && xs != ys);
            assert_eq!((rows as u64 * ys as u64) % n as u64, 0);
        }
    }

    #[test]
    fn rejects_bad_sizes() {
        assert!(Circulant::midimew(3, CirculantRouting::Table).is_err());
        assert!(Circulant::new(8, 2, 4, CirculantRouting::Table).is_err());
        assert!(Circulant::new(8, 3, 5, CirculantRouting::Table).is_err());
        assert!(Circulant::new(8, 1, 3, CirculantRouting::Record).is_err());
    }
}
