//! k-ary n-cubes: tori and meshes, unidirectional or bidirectional, with any radix per
//! dimension, routed in dimension order.

use crate::TopoError;
use crate::network::{
    Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId, product,
};
use serde::{Deserialize, Serialize};

/// Parameters of a k-ary n-cube.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CubeSpec {
    /// Radix of each dimension, dimension 0 first (`[k; n]` for a k-ary n-cube).
    pub radices: Vec<u32>,
    /// End-around connections (a torus); without them the cube is a mesh.
    pub wrap: bool,
    /// Channels in both directions of every dimension; otherwise only in the + direction.
    pub bidirectional: bool,
}

impl CubeSpec {
    /// A k-ary n-cube with unidirectional channels and end-around connections: the network of
    /// the homework's simulator and of Agarwal 1991's model.
    pub fn torus(k: u32, n: u32) -> Self {
        CubeSpec { radices: vec![k; n as usize], wrap: true, bidirectional: false }
    }

    /// The binary n-cube: radix 2 with one link each way between neighbours (a 2-ary mesh;
    /// with end-around links every link would be doubled).
    pub fn hypercube(n: u32) -> Self {
        CubeSpec { radices: vec![2; n as usize], wrap: false, bidirectional: true }
    }

    /// A ring of k nodes (a k-ary 1-cube).
    pub fn ring(k: u32, bidirectional: bool) -> Self {
        CubeSpec { radices: vec![k], wrap: true, bidirectional }
    }

    /// Number of nodes, or [`TopoError::TooLarge`] when it exceeds [`crate::MAX_ROUTERS`].
    pub fn nodes(&self) -> Result<u32, TopoError> {
        let nodes = product(self.radices.iter().copied());
        Planned { terminals: nodes, routers: nodes, channels: Some(0) }
            .check(|| format!("a k-ary n-cube of radices {:?}", self.radices))?;
        Ok(nodes.unwrap_or(0) as u32)
    }
}

/// The order in which dimension-order routing corrects dimensions.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum DimensionOrder {
    /// Highest dimension first, as in Agarwal 1991 §3.3 (the default).
    #[default]
    HighestFirst,
    /// Lowest dimension first.
    LowestFirst,
}

/// A built k-ary n-cube: the [`Network`] plus the coordinates dimension-order routing uses.
///
/// Router `r` has coordinate `(r / stride[i]) % k[i]` in dimension `i`; terminal `t` sits at
/// router `t` (at router `t / p` with p terminals per router: a concentrated mesh or torus,
/// BookSim's cmesh). A router's ports are, in channel order, `+1` in dimension 0 (and `−1` when
/// bidirectional), then dimension 1, and so on; a mesh omits the ports that would leave the
/// grid. No table maps ports to channels: on a torus every router has every port, so the
/// channel of (router `r`, port `p`) is `r·P + p` (`P` ports per router); on a mesh it is the
/// router's first channel plus the ports present before `p`, counted from `r`'s coordinates.
#[derive(Clone, Debug)]
pub struct KaryNCube {
    spec: CubeSpec,
    order: DimensionOrder,
    strides: Vec<u32>,
    /// When every radix is a power of two: each dimension's (shift, mask), so a coordinate
    /// takes a shift and a mask instead of two divisions (routing asks for two per hop).
    pow2: Option<Vec<(u32, u32)>>,
    ports: u32,
    /// Terminals per router p.
    per_router: u32,
    network: Network,
}

impl KaryNCube {
    /// Builds the cube, checking that every radix is at least 2, that there is at least one
    /// dimension, that a unidirectional cube has end-around connections (a unidirectional
    /// mesh cannot reach every node), and that the cube is within netwrap's size limits
    /// ([`crate::MAX_ROUTERS`], [`crate::MAX_CHANNELS`]), before allocating anything.
    pub fn new(spec: CubeSpec, order: DimensionOrder) -> Result<Self, TopoError> {
        Self::concentrated(spec, order, 1)
    }

    /// The cube with `per_router` terminals p at every router (p ≥ 1): terminal t at router
    /// ⌊t/p⌋, as BookSim's cmesh concentrates 4.
    pub fn concentrated(spec: CubeSpec, order: DimensionOrder, per_router: u32) -> Result<Self, TopoError> {
        if per_router == 0 {
            return Err(TopoError::Invalid(
                "concentration 0 is invalid: every router needs p >= 1 terminals".into(),
            ));
        }
        if spec.radices.is_empty() {
            return Err(TopoError::Invalid("a k-ary n-cube needs n >= 1 dimensions".into()));
        }
        if let Some(k) = spec.radices.iter().find(|&&k| k < 2) {
            return Err(TopoError::Invalid(format!(
                "radix k = {k} is invalid: every radix must be at least 2"
            )));
        }
        if !spec.wrap && !spec.bidirectional {
            return Err(TopoError::Invalid(
                "a mesh (no end-around connections) needs bidirectional channels: a unidirectional mesh cannot reach every node".into(),
            ));
        }
        let mut name = format!(
            "{}-cube ({}, {})",
            radix_label(&spec.radices),
            if spec.wrap { "torus" } else { "mesh" },
            if spec.bidirectional { "bidirectional" } else { "unidirectional" }
        );
        if per_router > 1 {
            name += &format!(", {per_router} terminals per router");
        }
        let n = spec.radices.len();
        let nodes = product(spec.radices.iter().copied());
        let channels = nodes.and_then(|nodes| {
            if spec.wrap {
                nodes.checked_mul(if spec.bidirectional { 2 * n as u64 } else { n as u64 })
            } else {
                // Each line of k routers along dimension i has 2(k − 1) directed channels.
                spec.radices.iter().try_fold(0u64, |acc, &k| {
                    (nodes / k as u64).checked_mul(2 * (k as u64 - 1)).and_then(|c| acc.checked_add(c))
                })
            }
        });
        let terminals = nodes.and_then(|n| n.checked_mul(per_router as u64));
        Planned { terminals, routers: nodes, channels }.check(|| format!("the {name}"))?;
        let (nodes, channels) = (nodes.unwrap_or(0) as u32, channels.unwrap_or(0) as usize);
        // Every radix is at least 2 and there are at most 2^24 nodes, so n <= 24.
        let ports = if spec.bidirectional { 2 * n as u32 } else { n as u32 };
        let mut strides = Vec::with_capacity(n);
        let mut s = 1u32;
        for &k in &spec.radices {
            strides.push(s);
            s = s.wrapping_mul(k);
        }
        let mut classes = Vec::with_capacity(ports as usize);
        for i in 0..n {
            if spec.bidirectional {
                classes.push(format!("dim {i} +"));
                classes.push(format!("dim {i} -"));
            } else {
                classes.push(format!("dim {i}"));
            }
        }
        let mut b = NetworkBuilder::new(nodes, channels, classes);
        let dirs: &[(u32, i64)] = if spec.bidirectional { &[(0, 1), (1, -1)] } else { &[(0, 1)] };
        for r in 0..nodes {
            for (i, (&k, &stride)) in spec.radices.iter().zip(&strides).enumerate() {
                let c = (r / stride) % k;
                for &(d, step) in dirs {
                    let next = c as i64 + step;
                    let next = if (0..k as i64).contains(&next) {
                        next as u32
                    } else if spec.wrap {
                        next.rem_euclid(k as i64) as u32
                    } else {
                        continue;
                    };
                    // A bidirectional ring of radix 2 would get two parallel channels both
                    // ways; keep them: they are distinct wires in the papers' accounting.
                    let dst = r - c * stride + next * stride;
                    let port = if spec.bidirectional { 2 * i as u32 + d } else { i as u32 };
                    b.push(r, dst, 1, port as u16);
                }
            }
        }
        let attach = if per_router == 1 {
            Attach::one_each()
        } else {
            Attach::Blocks { first: 0, per_router, cycle: u32::MAX }
        };
        let network = b.finish(name, terminals.unwrap_or(0) as u32, attach.clone(), attach);
        let pow2 =
            spec.radices.iter().all(|k| k.is_power_of_two()).then(|| {
                strides.iter().zip(&spec.radices).map(|(s, k)| (s.trailing_zeros(), k - 1)).collect()
            });
        Ok(KaryNCube { spec, order, strides, pow2, ports, per_router, network })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// The parameters it was built from.
    pub fn spec(&self) -> &CubeSpec {
        &self.spec
    }
    /// Terminals per router p (1 unless concentrated).
    pub fn per_router(&self) -> u32 {
        self.per_router
    }
    /// The router terminal `t` attaches to.
    #[inline]
    pub fn router_of(&self, t: TerminalId) -> RouterId {
        if self.per_router == 1 { t } else { t / self.per_router }
    }
    /// Number of dimensions n.
    pub fn dimensions(&self) -> usize {
        self.spec.radices.len()
    }
    /// Coordinate of router `r` in dimension `i`.
    #[inline]
    pub fn coordinate(&self, r: RouterId, i: usize) -> u32 {
        match &self.pow2 {
            Some(p) => (r >> p[i].0) & p[i].1,
            None => (r / self.strides[i]) % self.spec.radices[i],
        }
    }
    /// The router whose coordinates are `r`'s plus `offsets` (taken modulo each radix).
    pub fn offset(&self, r: RouterId, offsets: &[u32]) -> RouterId {
        let mut out = 0;
        for (i, &o) in offsets.iter().enumerate() {
            let k = self.spec.radices[i];
            out += ((self.coordinate(r, i) + o % k) % k) * self.strides[i];
        }
        out
    }
    /// Hops a message from `src` to `dst` takes in dimension `i` under this cube's routing.
    pub fn hops_in_dimension(&self, src: RouterId, dst: RouterId, i: usize) -> u32 {
        let k = self.spec.radices[i];
        let (a, b) = (self.coordinate(src, i), self.coordinate(dst, i));
        let forward = (b + k - a) % k;
        match (self.spec.wrap, self.spec.bidirectional) {
            (true, false) => forward,
            (true, true) => forward.min(k - forward) % k,
            (false, _) => a.abs_diff(b),
        }
    }
    /// Minimal hop count from `src` to `dst` (dimension-order routes are minimal).
    pub fn distance(&self, src: RouterId, dst: RouterId) -> u32 {
        (0..self.dimensions()).map(|i| self.hops_in_dimension(src, dst, i)).sum()
    }
    /// Mean hops per dimension `i` over all destinations including the source itself: the
    /// the papers' k_d ((k−1)/2 on a unidirectional torus, k/4 or (k−1/k)/4 bidirectional, (k−1/k)/3
    /// on a mesh; Agarwal 1991 §2.2).
    pub fn mean_hops_in_dimension(&self, i: usize) -> f64 {
        let k = self.spec.radices[i] as f64;
        match (self.spec.wrap, self.spec.bidirectional) {
            (true, false) => (k - 1.0) / 2.0,
            (true, true) if self.spec.radices[i].is_multiple_of(2) => k / 4.0,
            (true, true) => (k - 1.0 / k) / 4.0,
            (false, _) => (k - 1.0 / k) / 3.0,
        }
    }

    /// The productive channel of dimension `i` from `at` towards `dest` (`None` when their
    /// coordinates agree). Inlined into each caller (`steps`, `escape`): with two callers the
    /// compiler would otherwise call it once per dimension on the simulators' hot path.
    #[inline(always)]
    fn step(&self, at: RouterId, dest: RouterId, i: usize, salt: u32) -> Option<u32> {
        let k = self.spec.radices[i];
        let (a, b) = (self.coordinate(at, i), self.coordinate(dest, i));
        if a == b {
            return None;
        }
        let port = if !self.spec.bidirectional {
            i as u32
        } else {
            let plus = if self.spec.wrap {
                // (Coordinates are below k: no division for the way forward, b − a mod k.)
                let forward = if b >= a { b - a } else { b + k - a };
                let backward = k - forward;
                // Half-way round an even ring: either way is minimal; the message's salt picks,
                // so both directions carry half of these messages.
                forward < backward || (forward == backward && (salt >> (i % 32)) & 1 == 0)
            } else {
                b > a
            };
            2 * i as u32 + if plus { 0 } else { 1 }
        };
        Some(if self.spec.wrap { at * self.ports + port } else { self.mesh_channel(at, i, port) })
    }

    /// The dimension the routing corrects `j`-th of `n`.
    #[inline]
    fn nth_dimension(&self, n: usize, j: usize) -> usize {
        match self.order {
            DimensionOrder::HighestFirst => n - 1 - j,
            DimensionOrder::LowestFirst => j,
        }
    }

    /// The productive channel of each dimension still to correct, in the routing's dimension
    /// order, into `out`: the first only (dimension-order routing), or `every` one.
    #[inline]
    fn steps(&self, at: RouterId, dest: RouterId, salt: u32, out: &mut Candidates, every: bool) {
        out.clear();
        let n = self.dimensions();
        for j in 0..n {
            if let Some(c) = self.step(at, dest, self.nth_dimension(n, j), salt) {
                out.push(c);
                if !every {
                    return;
                }
            }
        }
    }

    /// The channel leaving mesh router `at` through `port` (of dimension `i`): the router's
    /// first channel plus the ports it has before `port` (a port is absent at the grid's edge).
    #[inline]
    fn mesh_channel(&self, at: RouterId, i: usize, port: u32) -> u32 {
        let mut id = self.network.out_channels(at).start;
        for j in 0..i {
            let (c, k) = (self.coordinate(at, j), self.spec.radices[j]);
            id += (c + 1 < k) as u32 + (c > 0) as u32;
        }
        if port % 2 == 1 {
            id += (self.coordinate(at, i) + 1 < self.spec.radices[i]) as u32;
        }
        id
    }

    /// Bytes held on the heap: the network and the per-dimension strides, radices and shifts.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes()
            + (self.strides.capacity() + self.spec.radices.capacity()) * size_of::<u32>()
            + self.pow2.as_ref().map_or(0, |p| p.capacity() * size_of::<(u32, u32)>())
    }
}

fn radix_label(radices: &[u32]) -> String {
    if radices.iter().all(|&k| k == radices[0]) {
        format!("{}-ary {}", radices[0], radices.len())
    } else {
        radices.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
    }
}

impl Routing for KaryNCube {
    /// Dimension-order routing: correct the highest (or lowest) differing dimension first,
    /// taking the shorter way round a bidirectional ring.
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        self.steps(at, self.router_of(dest), salt, out, false);
    }

    fn salt_changes_candidates(&self) -> bool {
        // Only the half-way tie on an even bidirectional ring picks a direction by salt.
        self.spec.wrap && self.spec.bidirectional
    }

    /// Only the half-way tie on an even bidirectional ring lets the salt pick: a pair whose
    /// first dimension to correct (the one `route` takes) is not half its ring away.
    fn salt_free(&self, at: RouterId, dest: TerminalId) -> bool {
        let dest = self.router_of(dest);
        let n = self.dimensions();
        let first = (0..n).map(|j| self.nth_dimension(n, j)).find_map(|i| {
            let (a, b, k) = (self.coordinate(at, i), self.coordinate(dest, i), self.spec.radices[i]);
            (a != b).then(|| (if b >= a { b - a } else { b + k - a }, k))
        });
        !self.salt_changes_candidates() || first.is_none_or(|(forward, k)| 2 * forward != k)
    }

    fn rings(&self) -> bool {
        self.spec.wrap
    }

    /// Every dimension still to correct, in the routing's order: one channel each (on an even
    /// bidirectional ring the half-way tie keeps the salt's direction).
    #[inline]
    fn minimal(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        self.steps(at, self.router_of(dest), salt, out, true);
    }

    /// Dimension-order routing's one channel (`route`'s), found without a candidate list: the
    /// escape routing asks for it whenever a header finds no adaptive virtual channel free.
    #[inline]
    fn escape(&self, at: RouterId, dest: TerminalId, salt: u32) -> Option<u32> {
        let dest = self.router_of(dest);
        let n = self.dimensions();
        (0..n).find_map(|j| self.step(at, dest, self.nth_dimension(n, j), salt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(cube: &KaryNCube, src: u32, dst: u32, salt: u32) -> Vec<u32> {
        let mut at = src;
        let mut path = Vec::new();
        let mut c = Candidates::for_network(cube.network());
        loop {
            cube.route(at, dst, salt, &mut c);
            if c.is_empty() {
                return path;
            }
            let ch = c.as_slice()[0];
            assert_eq!(cube.network().source(ch), at);
            path.push(ch);
            at = cube.network().channel(ch).dst;
            assert!(path.len() <= 1000, "route does not terminate");
        }
    }

    /// Regression: a mesh of radix 2^32 − 1 overflowed counting its channels (a panic with
    /// overflow checks, a wrapped count without) before being refused as too large.
    #[test]
    fn a_mesh_too_large_to_count_is_refused() {
        let spec = CubeSpec { radices: vec![u32::MAX, u32::MAX], wrap: false, bidirectional: true };
        let e = KaryNCube::new(spec, DimensionOrder::HighestFirst).err().unwrap().to_string();
        assert!(e.contains("network too large") && e.contains("18446744065119617025 terminals"), "{e}");
    }

    #[test]
    fn dimension_order_is_highest_first_and_minimal() {
        let cube = KaryNCube::new(CubeSpec::torus(4, 3), DimensionOrder::HighestFirst).unwrap();
        // From (0,0,0) to (1,2,3): 3 hops in dim 2 first, then 2 in dim 1, then 1 in dim 0.
        let dst = 1 + 2 * 4 + 3 * 16;
        let path = walk(&cube, 0, dst, 0);
        let dims: Vec<u16> = path.iter().map(|&c| cube.network().channel(c).class).collect();
        assert_eq!(dims, vec![2, 2, 2, 1, 1, 0]);
        for s in 0..64 {
            for d in 0..64 {
                assert_eq!(walk(&cube, s, d, 0).len() as u32, cube.distance(s, d));
            }
        }
    }

    /// Small tori (an even and an odd ring), a unidirectional torus, a mesh and a hypercube,
    /// in both dimension orders.
    fn small_cubes() -> impl Iterator<Item = KaryNCube> {
        let specs = [
            CubeSpec { radices: vec![4, 3, 2], wrap: true, bidirectional: true },
            CubeSpec { radices: vec![4, 3], wrap: true, bidirectional: false },
            CubeSpec { radices: vec![3, 4], wrap: false, bidirectional: true },
            CubeSpec::hypercube(5),
        ];
        specs.into_iter().flat_map(|spec| {
            [DimensionOrder::HighestFirst, DimensionOrder::LowestFirst]
                .map(|order| KaryNCube::new(spec.clone(), order).unwrap())
        })
    }

    /// Verification: the escape channel (found without a candidate list) is dimension-order
    /// routing's one candidate, for every pair and several salts, on `small_cubes`; `minimal`
    /// offers one channel per differing dimension.
    #[test]
    fn escape_is_the_dimension_order_hop() {
        for cube in small_cubes() {
            let nodes = cube.network().routers();
            let mut c = Candidates::for_network(cube.network());
            for at in 0..nodes {
                for dest in 0..nodes {
                    for salt in [0, 1, 0xdead_beef, u32::MAX] {
                        cube.route(at, dest, salt, &mut c);
                        assert_eq!(cube.escape(at, dest, salt), c.as_slice().first().copied());
                        cube.minimal(at, dest, salt, &mut c);
                        let differ = (0..cube.dimensions())
                            .filter(|&i| cube.coordinate(at, i) != cube.coordinate(dest, i))
                            .count();
                        assert_eq!(c.as_slice().len(), differ, "{:?} {at} -> {dest}", cube.spec);
                    }
                }
            }
        }
    }

    /// Verification: where `salt_free` says the salt does not matter, 64 salts route the pair
    /// to the same candidates (brute force over every pair of `small_cubes`); the half-way tie
    /// does depend on it.
    #[test]
    fn salt_free_pairs_route_alike_under_every_salt() {
        for cube in small_cubes() {
            let nodes = cube.network().routers();
            let (mut first, mut c) = (Candidates::for_network(cube.network()), Candidates::default());
            for at in 0..nodes {
                for dest in (0..nodes).filter(|&d| cube.salt_free(at, d)) {
                    cube.route(at, dest, 0, &mut first);
                    for salt in (0..64).map(|i| 0x9e37_79b9u32.wrapping_mul(i)) {
                        cube.route(at, dest, salt, &mut c);
                        assert_eq!(
                            c.as_slice(),
                            first.as_slice(),
                            "{:?} {at} -> {dest} salt {salt}",
                            cube.spec
                        );
                    }
                }
            }
        }
        let ring = KaryNCube::new(
            CubeSpec { radices: vec![8], wrap: true, bidirectional: true },
            DimensionOrder::HighestFirst,
        )
        .unwrap();
        assert!(!ring.salt_free(0, 4) && ring.salt_free(0, 3) && ring.salt_free(0, 0));
        // On an 8x8 torus, highest dimension first: a half-way tie in dimension 0 matters only
        // once dimension 1 is corrected.
        let spec = CubeSpec { radices: vec![8, 8], wrap: true, bidirectional: true };
        let torus = KaryNCube::new(spec, DimensionOrder::HighestFirst).unwrap();
        assert!(torus.salt_free(0, 4 + 8) && !torus.salt_free(0, 4) && !torus.salt_free(0, 4 * 8 + 1));
    }

    #[test]
    fn unidirectional_wraps_forward_only() {
        let cube = KaryNCube::new(CubeSpec::torus(8, 1), DimensionOrder::HighestFirst).unwrap();
        assert_eq!(walk(&cube, 5, 4, 0).len(), 7);
        assert_eq!(walk(&cube, 4, 5, 0).len(), 1);
        assert_eq!(cube.network().channels().len(), 8);
    }

    #[test]
    fn bidirectional_torus_splits_half_way_ties_by_salt() {
        let spec = CubeSpec { radices: vec![8], wrap: true, bidirectional: true };
        let cube = KaryNCube::new(spec, DimensionOrder::HighestFirst).unwrap();
        let a = walk(&cube, 0, 4, 0);
        let b = walk(&cube, 0, 4, 1);
        assert_eq!((a.len(), b.len()), (4, 4));
        assert_ne!(cube.network().channel(a[0]).class, cube.network().channel(b[0]).class);
        assert_eq!(walk(&cube, 0, 7, 0).len(), 1);
    }

    #[test]
    fn mesh_has_no_wrap_channels_and_routes_minimally() {
        let spec = CubeSpec { radices: vec![4, 3], wrap: false, bidirectional: true };
        let cube = KaryNCube::new(spec, DimensionOrder::LowestFirst).unwrap();
        // 2·(3·3) + 2·(4·2) directed channels.
        assert_eq!(cube.network().channels().len(), 18 + 16);
        for s in 0..12 {
            for d in 0..12 {
                assert_eq!(walk(&cube, s, d, 7).len() as u32, cube.distance(s, d));
            }
        }
    }

    #[test]
    fn mean_hops_per_dimension_match_exact_averages() {
        for (wrap, bi) in [(true, false), (true, true), (false, true)] {
            for k in 2..12u32 {
                let spec = CubeSpec { radices: vec![k], wrap, bidirectional: bi };
                let cube = KaryNCube::new(spec, DimensionOrder::HighestFirst).unwrap();
                let total: u32 =
                    (0..k).flat_map(|s| (0..k).map(move |d| (s, d))).map(|(s, d)| cube.distance(s, d)).sum();
                let exact = total as f64 / (k * k) as f64;
                assert!((exact - cube.mean_hops_in_dimension(0)).abs() < 1e-12, "k={k} wrap={wrap} bi={bi}");
            }
        }
    }

    #[test]
    fn rejects_impossible_cubes() {
        assert!(KaryNCube::new(CubeSpec::torus(1, 2), DimensionOrder::HighestFirst).is_err());
        assert!(KaryNCube::new(CubeSpec::torus(4, 0), DimensionOrder::HighestFirst).is_err());
        let mesh = CubeSpec { radices: vec![4], wrap: false, bidirectional: false };
        assert!(KaryNCube::new(mesh, DimensionOrder::HighestFirst).is_err());
        assert!(KaryNCube::new(CubeSpec::torus(65536, 3), DimensionOrder::HighestFirst).is_err());
    }
}
