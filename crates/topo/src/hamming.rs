//! Complete graphs, n-hop networks and HyperX: products of complete graphs K_m1 × K_m2 × …
//! (Raghunath & Ranade §5.2), with unequal factors allowed (K4 × K8 for 32 modules). A product
//! of n factors of size 2 is the hypercube; one factor is the complete graph. With p terminals
//! per router and links K flits wide it is Ahn et al. 2009's HyperX (the flattened butterfly
//! when every dimension has the same size): the n-hop network is the HyperX with p = 1, K = 1.
//!
//! Router `r` has coordinate `(r / stride_i) % m_i` in dimension `i` (dimension 0 first) and
//! carries terminals `r·p … r·p + p − 1`. Its output channels come in dimension order, and
//! within dimension `i` in order of the neighbour's coordinate; they belong to class `i`
//! (`"K{m_i} dim {i}"`). Ahn et al.'s K parallel links between neighbours are one channel of
//! K flits per cycle here (the same bandwidth; one buffer per VC instead of K).

use crate::TopoError;
use crate::network::{
    Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId, channel_width,
    product,
};

/// The arithmetic of a product of complete graphs: coordinates and channel ids. Kept apart
/// from the [`Network`] so that a family built on the same graph (crossbar modules) routes
/// with it without a second copy of the channels.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    factors: Vec<u32>,
    strides: Vec<u32>,
    /// Offset of dimension `i`'s channels within a router's channel list.
    dim_offset: Vec<u32>,
    degree: u32,
}

impl Shape {
    #[inline]
    fn coordinate(&self, r: RouterId, i: usize) -> u32 {
        (r / self.strides[i]) % self.factors[i]
    }

    /// Every minimal next hop from router `at` to router `dest`.
    #[inline]
    pub(crate) fn route(&self, at: RouterId, dest: RouterId, out: &mut Candidates) {
        out.clear();
        for i in 0..self.factors.len() {
            let (c, d) = (self.coordinate(at, i), self.coordinate(dest, i));
            if c != d {
                let idx = if d < c { d } else { d - 1 };
                out.push(at * self.degree + self.dim_offset[i] + idx);
            }
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        (self.factors.capacity() + self.strides.capacity() + self.dim_offset.capacity()) * size_of::<u32>()
    }
}

/// A built product of complete graphs.
#[derive(Clone, Debug)]
pub struct Hamming {
    shape: Shape,
    network: Network,
    /// Terminals per router p.
    per_router: u32,
}

impl Hamming {
    /// Builds K_m0 × K_m1 × …; valid: at least one factor, every factor ≥ 2, and within
    /// netwrap's size limits ([`crate::MAX_ROUTERS`], [`crate::MAX_CHANNELS`]). `widths` gives
    /// each dimension's channel width (flits per cycle, 1 to [`crate::MAX_WIDTH`]), or is empty
    /// for unit widths.
    pub fn new(factors: &[u32], widths: &[u32]) -> Result<Self, TopoError> {
        Self::build(factors, widths, 1, None)
    }

    /// Ahn et al. 2009's HyperX: K_m0 × K_m1 × … with `per_router` terminals p at every
    /// router (p ≥ 1) and every channel `width` flits per cycle (Ahn et al.'s K links).
    pub fn hyperx(sizes: &[u32], per_router: u32, width: u32) -> Result<Self, TopoError> {
        let name = format!(
            "HyperX {} (p = {per_router}, K = {width})",
            sizes.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" x ")
        );
        Self::build(sizes, &vec![width; sizes.len()], per_router, Some(name))
    }

    fn build(
        factors: &[u32],
        widths: &[u32],
        per_router: u32,
        name: Option<String>,
    ) -> Result<Self, TopoError> {
        if per_router == 0 {
            return Err(TopoError::Invalid(
                "0 terminals per router is invalid: a HyperX needs p >= 1 terminals at every router".into(),
            ));
        }
        if factors.is_empty() {
            return Err(TopoError::Invalid(
                "an n-hop network needs at least one complete-graph factor".into(),
            ));
        }
        if let Some(m) = factors.iter().find(|&&m| m < 2) {
            return Err(TopoError::Invalid(format!(
                "complete-graph factor K{m} is invalid: every factor needs at least 2 nodes"
            )));
        }
        if !widths.is_empty() && widths.len() != factors.len() {
            return Err(TopoError::Invalid(format!(
                "{} channel widths given for {} factors: give one width per factor",
                widths.len(),
                factors.len()
            )));
        }
        let widths: Vec<u16> = if widths.is_empty() {
            vec![1; factors.len()]
        } else {
            widths.iter().map(|&w| channel_width(w, "a channel width")).collect::<Result<_, _>>()?
        };
        let name = if let Some(name) = name {
            name
        } else if factors.len() == 1 {
            format!("complete graph K{}", factors[0])
        } else if factors.iter().all(|&m| m == 2) {
            format!("hypercube ({} dimensions, as K2^{})", factors.len(), factors.len())
        } else {
            format!(
                "{}-hop network {}",
                factors.len(),
                factors.iter().map(|m| format!("K{m}")).collect::<Vec<_>>().join(" x ")
            )
        };
        let nodes = product(factors.iter().copied());
        let degree = factors.iter().map(|&m| m as u64 - 1).sum::<u64>();
        let channels = nodes.and_then(|n| n.checked_mul(degree));
        let terminals = nodes.and_then(|n| n.checked_mul(per_router as u64));
        Planned { terminals, routers: nodes, channels }.check(|| format!("the {name}"))?;
        let nodes = nodes.unwrap_or(0) as u32;
        let mut strides = Vec::new();
        let mut dim_offset = Vec::new();
        let (mut s, mut off) = (1u32, 0u32);
        for &m in factors {
            strides.push(s);
            dim_offset.push(off);
            s = s.wrapping_mul(m);
            off += m - 1;
        }
        let classes = factors.iter().enumerate().map(|(i, m)| format!("K{m} dim {i}")).collect();
        let mut b = NetworkBuilder::new(nodes, channels.unwrap_or(0) as usize, classes);
        for r in 0..nodes {
            for (i, &m) in factors.iter().enumerate() {
                let c = (r / strides[i]) % m;
                for v in (0..m).filter(|&v| v != c) {
                    let dst = r - c * strides[i] + v * strides[i];
                    b.push(r, dst, widths[i], i as u16);
                }
            }
        }
        let attach = Attach::Blocks { first: 0, per_router, cycle: u32::MAX };
        let network = b.finish(name, terminals.unwrap_or(0) as u32, attach.clone(), attach);
        let shape = Shape { factors: factors.to_vec(), strides, dim_offset, degree: degree as u32 };
        Ok(Hamming { shape, network, per_router })
    }

    /// The routing arithmetic and the graph, apart.
    pub(crate) fn into_parts(self) -> (Shape, Network) {
        (self.shape, self.network)
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// The complete-graph sizes m_i.
    pub fn factors(&self) -> &[u32] {
        &self.shape.factors
    }
    /// Terminals per router p.
    pub fn per_router(&self) -> u32 {
        self.per_router
    }
    /// Coordinate of router `r` in dimension `i`.
    #[inline]
    pub fn coordinate(&self, r: RouterId, i: usize) -> u32 {
        self.shape.coordinate(r, i)
    }
    /// Minimal hop count: the number of coordinates that differ.
    pub fn distance(&self, a: RouterId, b: RouterId) -> u32 {
        (0..self.shape.factors.len()).filter(|&i| self.coordinate(a, i) != self.coordinate(b, i)).count()
            as u32
    }
    /// Bytes held on the heap: the network and the per-dimension arithmetic.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes() + self.shape.heap_bytes()
    }
}

impl Routing for Hamming {
    /// Every minimal next hop: for each differing dimension, the direct channel to the
    /// destination's coordinate, lowest dimension first (one per differing dimension).
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        self.shape.route(at, dest / self.per_router, out);
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}
