//! Cube-connected cycles, crossbars, and two-level networks of crossbar modules.

use crate::TopoError;
use crate::graph::{UNREACHED, bfs_from};
use crate::hamming::{Hamming, Shape};
use crate::network::{
    Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId, product,
};

/// Cube-connected cycles CCC(n): every corner w of an n-cube is a cycle of n routers
/// (w, 0..n); router (w, i) = `w·n + i` joins (w, i±1 mod n) along its cycle and
/// (w xor 2^i, i) across cube dimension i, and carries terminal `w·n + i` (Raghunath & Ranade Table I).
/// Classes: `cycle +` (0), `cycle -` (1), `cube` (2).
///
/// Routing offers every minimal next hop without a routers² table: the map
/// (w, i) ↦ (rot_{−i_x}(w xor w_x), i − i_x), which rotates corner bits along with cycle
/// positions, is an automorphism taking router x to (0, 0), so the hop count from x to y is
/// the hop count from (0, 0) to the image of y, found by one breadth-first search (O(N)
/// memory, one byte per router: the diameter of CCC(n) is below 3n). Tested against
/// breadth-first search from every router.
#[derive(Clone, Debug)]
pub struct Ccc {
    n: u32,
    /// Hop count from router (0, 0) to every router.
    dist0: Vec<u8>,
    network: Network,
}

impl Ccc {
    /// Builds CCC(n) for n ≥ 3, within netwrap's size limits ([`crate::MAX_ROUTERS`]: n ≤ 19,
    /// 24 to 9,961,472 routers).
    pub fn new(n: u32) -> Result<Self, TopoError> {
        if n < 3 {
            return Err(TopoError::Invalid(format!(
                "cube-connected cycles need dimension n >= 3 (CCC(3) has 24 routers); got n = {n}"
            )));
        }
        let nodes = 1u64.checked_shl(n).and_then(|c| c.checked_mul(n as u64));
        Planned { terminals: nodes, routers: nodes, channels: nodes.and_then(|x| x.checked_mul(3)) }
            .check(|| format!("cube-connected cycles CCC({n})"))?;
        let corners = 1u32 << n;
        let nodes = corners * n;
        let classes = vec!["cycle +".into(), "cycle -".into(), "cube".into()];
        let mut b = NetworkBuilder::new(nodes, 3 * nodes as usize, classes);
        for w in 0..corners {
            for i in 0..n {
                let me = w * n + i;
                b.push(me, w * n + (i + 1) % n, 1, 0);
                b.push(me, w * n + (i + n - 1) % n, 1, 1);
                b.push(me, (w ^ (1 << i)) * n + i, 1, 2);
            }
        }
        let network = b.finish(
            format!("cube-connected cycles CCC({n}), {nodes} nodes"),
            nodes,
            Attach::one_each(),
            Attach::one_each(),
        );
        // Connected, with diameter 2n + ⌊n/2⌋ − 2 < 3n <= 57 < 255 (u8::MAX marks unreached).
        let dist0 = bfs_from(&network, 0)
            .into_iter()
            .map(|d| if d == UNREACHED { u8::MAX } else { d.min(254) as u8 })
            .collect();
        Ok(Ccc { n, dist0, network })
    }
    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// Cube dimension n.
    pub fn dimension(&self) -> u32 {
        self.n
    }
    /// The image of router `y` under the automorphism taking router `x` to (0, 0).
    #[inline]
    fn relative(&self, x: RouterId, y: RouterId) -> usize {
        let n = self.n;
        let (wx, ix) = (x / n, x % n);
        let (wy, iy) = (y / n, y % n);
        let v = wx ^ wy;
        let mask = (1u32 << n) - 1;
        // Rotate corner bits down by ix: bit j moves to bit (j − ix) mod n.
        let rot = if ix == 0 { v } else { ((v >> ix) | (v << (n - ix))) & mask };
        (rot * n + (iy + n - ix) % n) as usize
    }
    /// Minimal hop count between routers.
    #[inline]
    pub fn distance(&self, a: RouterId, b: RouterId) -> u32 {
        self.dist0[self.relative(a, b)] as u32
    }
    /// Bytes held on the heap: the network and the hop counts from router (0, 0).
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes() + self.dist0.capacity()
    }
}

impl Routing for Ccc {
    /// Every minimal next hop, in channel order (cycle +, cycle −, cube).
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        let here = self.distance(at, dest);
        if here == 0 {
            return;
        }
        for c in self.network.out_channels(at) {
            if self.distance(self.network.channel(c).dst, dest) + 1 == here {
                out.push(c);
            }
        }
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}

/// A two-level network of crossbar modules (Raghunath & Ranade §5.1.4, Xbar.I.E): M modules of P
/// processors; each module is one crossbar router (the seed treats "the entire cross-bar as a
/// single routing node"), and the modules are joined by a product of complete graphs (one
/// factor: a complete graph; n factors: an n-hop network). Terminal `t` sits in module
/// `t / P`. Classes: one per inter-module dimension (`K{m} dim i`). Widths are in flits of
/// gcd(all widths) bits; the processor links are `intra_bits` wide
/// ([`Network::terminal_width`]). A single module (M = 1) is a plain N-port crossbar.
#[derive(Clone, Debug)]
pub struct XbarModules {
    per_module: u32,
    flit_bits: u32,
    /// The inter-module n-hop network's routing arithmetic (its graph is `network`).
    inter: Option<Shape>,
    network: Network,
}

impl XbarModules {
    /// Builds it; valid: P ≥ 1, factors ≥ 2 (none for a lone crossbar), one width per factor,
    /// all widths ≥ 1 bit, and within netwrap's size limits ([`crate::MAX_TERMINALS`],
    /// [`crate::MAX_CHANNELS`]).
    pub fn new(
        per_module: u32,
        factors: &[u32],
        intra_bits: u32,
        inter_bits: &[u32],
    ) -> Result<Self, TopoError> {
        if per_module == 0 {
            return Err(TopoError::Invalid("a module needs at least 1 processor".into()));
        }
        if intra_bits == 0 || inter_bits.contains(&0) {
            return Err(TopoError::Invalid(
                "channel width 0 is invalid: widths must be at least 1 bit".into(),
            ));
        }
        if inter_bits.len() != factors.len() {
            return Err(TopoError::Invalid(format!(
                "{} inter-module widths given for {} complete-graph factors: give one per factor",
                inter_bits.len(),
                factors.len()
            )));
        }
        if let Some(m) = factors.iter().find(|&&m| m < 2) {
            return Err(TopoError::Invalid(format!(
                "complete-graph factor K{m} is invalid: every factor needs at least 2 modules"
            )));
        }
        let modules = product(factors.iter().copied());
        let total = modules.and_then(|m| m.checked_mul(per_module as u64));
        let channels = modules.and_then(|m| m.checked_mul(factors.iter().map(|&f| f as u64 - 1).sum()));
        let inter = inter_bits.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
        Planned { terminals: total, routers: modules, channels }.check(|| {
            if factors.is_empty() {
                format!("a {per_module}x{per_module} crossbar")
            } else {
                format!(
                    "Xbar.{intra_bits}.{inter} with {per_module} processors in each of {factors:?} modules"
                )
            }
        })?;
        let (modules, total) = (modules.unwrap_or(0) as u32, total.unwrap_or(0) as u32);
        let flit_bits = inter_bits.iter().fold(intra_bits, |a, &b| gcd(a, b));
        // Processor t sits in module t / P, for injection and delivery.
        let attach = Attach::Blocks { first: 0, per_router: per_module, cycle: u32::MAX };
        let (inter, mut network) = if factors.is_empty() {
            let name = format!("Xbar {per_module}x{per_module}");
            let net =
                NetworkBuilder::new(1, 0, vec!["none".into()]).finish(name, total, attach.clone(), attach);
            (None, net)
        } else {
            let widths: Vec<u32> = inter_bits.iter().map(|b| b / flit_bits).collect();
            let (shape, graph) = Hamming::new(factors, &widths)?.into_parts();
            let name = format!("Xbar.{intra_bits}.{inter} ({total} processors, {modules} modules)");
            (Some(shape), graph.with_terminals(name, total, attach.clone(), attach))
        };
        network.set_terminal_width(intra_bits / flit_bits);
        Ok(XbarModules { per_module, flit_bits, inter, network })
    }
    /// Bytes held on the heap: the network and the n-hop arithmetic.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes() + self.inter.as_ref().map_or(0, |s| s.heap_bytes())
    }
    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// Bits per flit (gcd of the widths).
    pub fn flit_bits(&self) -> u32 {
        self.flit_bits
    }
}

impl Routing for XbarModules {
    /// Every minimal next hop between modules (the n-hop routing); deliver in the destination's
    /// module.
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        match &self.inter {
            Some(h) => h.route(at, dest / self.per_module, out),
            None => out.clear(),
        }
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
