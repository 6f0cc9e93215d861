//! Cube-connected cycles, crossbars, and two-level networks of crossbar modules.

use crate::TopoError;
use crate::graph::bfs_from;
use crate::hamming::Hamming;
use crate::network::{Candidates, Channel, Network, RouterId, Routing, TerminalId};

/// Cube-connected cycles CCC(n): every corner w of an n-cube is a cycle of n routers
/// (w, 0..n); router (w, i) = `w·n + i` joins (w, i±1 mod n) along its cycle and
/// (w xor 2^i, i) across cube dimension i, and carries terminal `w·n + i` (seed 003 Table I).
/// Classes: `cycle +` (0), `cycle -` (1), `cube` (2).
///
/// Routing offers every minimal next hop without a routers² table: the map
/// (w, i) ↦ (rot_{−i_x}(w xor w_x), i − i_x), which rotates corner bits along with cycle
/// positions, is an automorphism taking router x to (0, 0), so the hop count from x to y is
/// the hop count from (0, 0) to the image of y, found by one breadth-first search (O(N)
/// memory). Tested against breadth-first search from every router.
#[derive(Clone, Debug)]
pub struct Ccc {
    n: u32,
    /// Hop count from router (0, 0) to every router.
    dist0: Vec<u32>,
    network: Network,
}

impl Ccc {
    /// Builds CCC(n) for 3 ≤ n ≤ 16 (24 to 1,048,576 routers).
    pub fn new(n: u32) -> Result<Self, TopoError> {
        if !(3..=16).contains(&n) {
            return Err(TopoError::Invalid(format!(
                "cube-connected cycles need dimension 3 <= n <= 16 (n·2^n = 24 .. 1048576 routers); got n = {n}"
            )));
        }
        let corners = 1u32 << n;
        let mut channels = Vec::new();
        for w in 0..corners {
            for i in 0..n {
                let me = w * n + i;
                channels.push(Channel { src: me, dst: w * n + (i + 1) % n, width: 1, class: 0 });
                channels.push(Channel { src: me, dst: w * n + (i + n - 1) % n, width: 1, class: 1 });
                channels.push(Channel { src: me, dst: (w ^ (1 << i)) * n + i, width: 1, class: 2 });
            }
        }
        let nodes = corners * n;
        let t: Vec<u32> = (0..nodes).collect();
        let classes = vec!["cycle +".into(), "cycle -".into(), "cube".into()];
        let network = Network::new(
            format!("cube-connected cycles CCC({n}), {nodes} nodes"),
            nodes,
            channels,
            t.clone(),
            t,
            classes,
        );
        let dist0 = bfs_from(&network, 0);
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
    pub fn distance(&self, a: RouterId, b: RouterId) -> u32 {
        self.dist0[self.relative(a, b)]
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
        for &c in self.network.out_channels(at) {
            if self.distance(self.network.channel(c).dst, dest) + 1 == here {
                out.push(c);
            }
        }
    }
}

/// A two-level network of crossbar modules (seed 003 §5.1.4, Xbar.I.E): M modules of P
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
    inter: Option<Hamming>,
    network: Network,
}

impl XbarModules {
    /// Builds it; valid: P ≥ 1, factors ≥ 2 (none for a lone crossbar), one width per factor,
    /// all widths ≥ 1 bit.
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
        let flit_bits = inter_bits.iter().fold(intra_bits, |a, &b| gcd(a, b));
        let (inter, mut network) = if factors.is_empty() {
            let name = format!("Xbar {per_module}x{per_module}");
            let t = vec![0; per_module as usize];
            (None, Network::new(name, 1, Vec::new(), t.clone(), t, vec!["none".into()]))
        } else {
            let widths: Vec<u32> = inter_bits.iter().map(|b| b / flit_bits).collect();
            let h = Hamming::new(factors, &widths)?;
            let modules = h.network().routers();
            let total = modules as u64 * per_module as u64;
            if total > u32::MAX as u64 / 2 {
                return Err(TopoError::TooLarge(format!("{total} processors")));
            }
            let t: Vec<u32> = (0..total as u32).map(|t| t / per_module).collect();
            let inter = inter_bits.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
            let name = format!("Xbar.{intra_bits}.{inter} ({total} processors, {modules} modules)");
            let net = Network::new(
                name,
                modules,
                h.network().channels().to_vec(),
                t.clone(),
                t,
                h.network().classes().to_vec(),
            );
            (Some(h), net)
        };
        network.set_terminal_width(intra_bits / flit_bits);
        Ok(XbarModules { per_module, flit_bits, inter, network })
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
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        match &self.inter {
            Some(h) => h.route(at, dest / self.per_module, salt, out),
            None => out.clear(),
        }
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
