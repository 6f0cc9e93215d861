//! Complete graphs and n-hop networks: products of complete graphs K_m1 × K_m2 × … (seed 003
//! §5.2), with unequal factors allowed (K4 × K8 for 32 modules). A product of n factors of
//! size 2 is the hypercube; one factor is the complete graph.
//!
//! Router `r` has coordinate `(r / stride_i) % m_i` in dimension `i` (dimension 0 first) and
//! carries terminal `r`. Its output channels come in dimension order, and within dimension `i`
//! in order of the neighbour's coordinate; they belong to class `i` (`"K{m_i} dim {i}"`).

use crate::TopoError;
use crate::network::{Candidates, Channel, Network, RouterId, Routing, TerminalId};

/// A built product of complete graphs.
#[derive(Clone, Debug)]
pub struct Hamming {
    factors: Vec<u32>,
    strides: Vec<u32>,
    /// Offset of dimension `i`'s channels within a router's channel list.
    dim_offset: Vec<u32>,
    degree: u32,
    network: Network,
}

impl Hamming {
    /// Builds K_m0 × K_m1 × …; valid: at least one factor, every factor ≥ 2, and at most
    /// 2^32 channels. `widths` gives each dimension's channel width (flits per cycle), or is
    /// empty for unit widths.
    pub fn new(factors: &[u32], widths: &[u32]) -> Result<Self, TopoError> {
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
        if widths.contains(&0) {
            return Err(TopoError::Invalid("channel width 0 is invalid: widths must be at least 1".into()));
        }
        let nodes = factors
            .iter()
            .try_fold(1u64, |acc, &m| acc.checked_mul(m as u64).filter(|&x| x <= u32::MAX as u64))
            .ok_or_else(|| TopoError::TooLarge(format!("{factors:?} has more than 2^32 nodes")))?;
        let degree: u64 = factors.iter().map(|&m| m as u64 - 1).sum();
        if nodes * degree >= u32::MAX as u64 || nodes * degree > 1 << 31 {
            return Err(TopoError::TooLarge(format!("{nodes} nodes x degree {degree} is too many channels")));
        }
        let nodes = nodes as u32;
        let mut strides = Vec::new();
        let mut dim_offset = Vec::new();
        let (mut s, mut off) = (1u32, 0u32);
        for &m in factors {
            strides.push(s);
            dim_offset.push(off);
            s = s.wrapping_mul(m);
            off += m - 1;
        }
        let mut channels = Vec::with_capacity((nodes as u64 * degree) as usize);
        for r in 0..nodes {
            for (i, &m) in factors.iter().enumerate() {
                let c = (r / strides[i]) % m;
                let width = widths.get(i).copied().unwrap_or(1);
                for v in (0..m).filter(|&v| v != c) {
                    let dst = r - c * strides[i] + v * strides[i];
                    channels.push(Channel { src: r, dst, width, class: i as u16 });
                }
            }
        }
        let classes = factors.iter().enumerate().map(|(i, m)| format!("K{m} dim {i}")).collect();
        let name = if factors.len() == 1 {
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
        let terminals: Vec<u32> = (0..nodes).collect();
        let network = Network::new(name, nodes, channels, terminals.clone(), terminals, classes);
        Ok(Hamming { factors: factors.to_vec(), strides, dim_offset, degree: degree as u32, network })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// The complete-graph sizes m_i.
    pub fn factors(&self) -> &[u32] {
        &self.factors
    }
    /// Coordinate of router `r` in dimension `i`.
    #[inline]
    pub fn coordinate(&self, r: RouterId, i: usize) -> u32 {
        (r / self.strides[i]) % self.factors[i]
    }
    /// Minimal hop count: the number of coordinates that differ.
    pub fn distance(&self, a: RouterId, b: RouterId) -> u32 {
        (0..self.factors.len()).filter(|&i| self.coordinate(a, i) != self.coordinate(b, i)).count() as u32
    }
}

impl Routing for Hamming {
    /// Every minimal next hop: for each differing dimension, the direct channel to the
    /// destination's coordinate, lowest dimension first (at most eight are kept, enough for
    /// any product of up to eight factors; more factors still route minimally).
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        for i in 0..self.factors.len() {
            let (c, d) = (self.coordinate(at, i), self.coordinate(dest, i));
            if c != d {
                let idx = if d < c { d } else { d - 1 };
                out.push(at * self.degree + self.dim_offset[i] + idx);
            }
        }
    }
}
