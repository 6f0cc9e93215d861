//! Indirect multistage networks of k×k switches: the butterfly and the Omega network (seed
//! 004 App. C, seed 000 §5.2), and the butterfly partitioned into packaging modules whose
//! inter-module links form a complete graph or an n-hop network (seed 003 §5.1, §5.2).
//!
//! N = k^D rows; D stages of N/k switches; router id = stage·(N/k) + switch. Processors are
//! on the input side and memories (or the same processors, folded back) on the output side:
//! terminal `t` injects as processor `t` at stage 0 and is delivered as memory `t` from the
//! last stage (`inject_router(t) ≠ eject_router(t)` unless D = 1). The channels are those
//! between consecutive stages; the processor and memory links are the terminals' own ports.
//!
//! * **Butterfly**: stage j's switches join the k rows that differ only in digit D−1−j
//!   (most significant digit first); a message keeps its row number between stages.
//! * **Omega**: a perfect shuffle (rotate the D-digit row number left by one digit) precedes
//!   every stage, whose switches join rows k·s … k·s+k−1.
//!
//! Both route by destination tag: stage j sends a message out of port = digit D−1−j of its
//! destination, which leaves it on the destination's row after the last stage.

use crate::TopoError;
use crate::network::{Candidates, Channel, ChannelId, Network, RouterId, Routing, TerminalId};
use serde::{Deserialize, Serialize};

/// Which multistage wiring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageWiring {
    /// Butterfly: rows kept, digit D−1−j switched at stage j.
    #[default]
    Butterfly,
    /// Omega: perfect shuffle before every stage.
    Omega,
}

/// Partition of a butterfly into packaging modules (seed 003 §5.2's construction).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleSplit {
    /// Inter-module hops n: the D digits form n + 1 equal groups of x = D/(n+1) digits, and
    /// there are M = k^(n·x) modules of k^x rows. n = 1 gives a complete graph between modules.
    pub hops: u32,
    /// Intra-module channel width in bits (also the processors' and memories' links).
    pub intra_bits: u32,
    /// Inter-module channel width in bits, one per group boundary (per n-hop dimension).
    pub inter_bits: Vec<u32>,
    /// Parallel intra-module channels between two switches (dilation d, seed 003 §5.1.3);
    /// processor and memory links are not dilated.
    pub dilation: u32,
}

/// A built multistage network.
#[derive(Clone, Debug)]
pub struct Indirect {
    k: u32,
    digits: u32,
    per_stage: u32,
    wiring: StageWiring,
    /// `port_start[r·k + p] .. port_start[r·k + p + 1]`: channel ids of output port p of r.
    port_start: Vec<u32>,
    port_list: Vec<ChannelId>,
    modules: Option<(ModuleSplit, u32)>,
    network: Network,
}

fn pow(k: u32, e: u32) -> u64 {
    (k as u64).pow(e)
}

impl Indirect {
    /// A butterfly or Omega network of `stages` stages of k×k switches, N = k^stages
    /// terminals; valid: k ≥ 2, stages ≥ 1, N < 2^31.
    pub fn new(k: u32, stages: u32, wiring: StageWiring) -> Result<Self, TopoError> {
        Self::build(k, stages, wiring, None)
    }

    /// A butterfly of 2×2 switches (k = `k`) connecting N processors to N memories, split
    /// into modules as in seed 003 §5.2: N = k^((n+1)·x) rows, M = k^(n·x) modules, each
    /// holding k^x rows of every stage. Inter-module channels (class `inter g` for the g-th
    /// group boundary) have `inter_bits[g]` bits, intra-module ones (class `intra`)
    /// `intra_bits` bits, `dilation` of them in parallel. Channel widths are in flits of
    /// gcd(all widths) bits ([`Indirect::flit_bits`]).
    pub fn partitioned(k: u32, processors: u32, modules: u32, split: ModuleSplit) -> Result<Self, TopoError> {
        let n = split.hops;
        if n == 0 || split.inter_bits.len() != n as usize {
            return Err(TopoError::Invalid(format!(
                "a partitioned butterfly needs n >= 1 inter-module hops and one inter-module width per hop (got n = {n}, {} widths)",
                split.inter_bits.len()
            )));
        }
        if split.intra_bits == 0 || split.inter_bits.contains(&0) || split.dilation == 0 {
            return Err(TopoError::Invalid("channel widths and dilation must be at least 1".into()));
        }
        let mut digits = 0u32;
        while pow(k, digits) < processors as u64 {
            digits += 1;
        }
        let x = digits / (n + 1);
        let valid = k >= 2
            && pow(k, digits) == processors as u64
            && digits % (n + 1) == 0
            && x >= 1
            && pow(k, n * x) == modules as u64;
        if !valid {
            return Err(TopoError::Invalid(format!(
                "a butterfly of {k}x{k} switches splits into an {n}-hop network of modules only when N = {k}^((n+1)x) and M = {k}^(n x) for some x >= 1 (e.g. N = {}, M = {} for x = {}); got N = {processors}, M = {modules}",
                pow(k, (n + 1) * x.max(1)),
                pow(k, n * x.max(1)),
                x.max(1)
            )));
        }
        Self::build(k, digits, StageWiring::Butterfly, Some(split))
    }

    fn build(
        k: u32,
        digits: u32,
        wiring: StageWiring,
        split: Option<ModuleSplit>,
    ) -> Result<Self, TopoError> {
        if k < 2 || digits == 0 {
            return Err(TopoError::Invalid(format!(
                "a multistage network needs k >= 2 (got {k}) and at least one stage (got {digits})"
            )));
        }
        let rows = (k as u64)
            .checked_pow(digits)
            .filter(|&n| n < 1 << 31)
            .ok_or_else(|| TopoError::TooLarge(format!("{k}^{digits} terminals exceeds 2^31")))?;
        let per_stage = (rows / k as u64) as u32;
        let n_rows = rows as u32;
        let routers = per_stage as u64 * digits as u64;
        let dil = split.as_ref().map_or(1, |s| s.dilation as u64);
        if routers * k as u64 * dil >= 1 << 31 {
            return Err(TopoError::TooLarge(format!("{routers} switches x {k} ports x dilation {dil}")));
        }
        // Switch containing row r at stage j, and the row leaving output port p of switch s.
        let q = |j: u32| digits - 1 - j;
        let sw = |r: u32, j: u32| -> u32 {
            match wiring {
                StageWiring::Butterfly => {
                    let lo = pow(k, q(j)) as u32;
                    (r / (lo * k)) * lo + r % lo
                }
                StageWiring::Omega => shuffle(r, k, n_rows) / k,
            }
        };
        let row_out = |s: u32, j: u32, p: u32| -> u32 {
            match wiring {
                StageWiring::Butterfly => {
                    let lo = pow(k, q(j)) as u32;
                    (s / lo) * lo * k + p * lo + s % lo
                }
                StageWiring::Omega => s * k + p,
            }
        };
        let (flit_bits, modules_count) = match &split {
            Some(s) => {
                let g = s.inter_bits.iter().fold(s.intra_bits, |a, &b| gcd(a, b));
                let x = digits / (s.hops + 1);
                (g, pow(k, s.hops * x) as u32)
            }
            None => (1, 0),
        };
        // Module of router (stage j, switch s): its rows without the super-digit being switched.
        let module_of = |s: u32, j: u32| -> u32 {
            let Some(sp) = &split else { return 0 };
            let x = digits / (sp.hops + 1);
            let big = pow(k, x);
            let g = j / x;
            let super_digit = sp.hops - g;
            let r = row_out(s, j, 0) as u64;
            let above = pow(k, x * (super_digit + 1));
            let below = pow(k, x * super_digit);
            let _ = big;
            ((r / above) * below + r % below) as u32
        };
        let mut channels = Vec::new();
        let mut port_start = Vec::with_capacity(routers as usize * k as usize + 1);
        let mut port_list = Vec::new();
        for j in 0..digits {
            for s in 0..per_stage {
                let me = j * per_stage + s;
                for p in 0..k {
                    port_start.push(port_list.len() as u32);
                    if j + 1 == digits {
                        continue;
                    }
                    let next = j + 1;
                    let dst = next * per_stage + sw(row_out(s, j, p), next);
                    let (class, width, copies) = match &split {
                        None => (j as u16, 1, 1),
                        Some(sp) => {
                            let (a, b) = (module_of(s, j), module_of(dst % per_stage, next));
                            let x = digits / (sp.hops + 1);
                            if a != b {
                                let g = (j / x) as usize;
                                (1 + g as u16, sp.inter_bits[g] / flit_bits, 1)
                            } else {
                                (0, sp.intra_bits / flit_bits, sp.dilation)
                            }
                        }
                    };
                    for _ in 0..copies {
                        port_list.push(channels.len() as u32);
                        channels.push(Channel { src: me, dst, width, class });
                    }
                }
            }
        }
        port_start.push(port_list.len() as u32);
        let classes: Vec<String> = match &split {
            None => (0..digits.saturating_sub(1).max(1)).map(|j| format!("stage {j}-{}", j + 1)).collect(),
            Some(sp) => std::iter::once("intra".to_string())
                .chain((0..sp.hops).map(|g| format!("inter {}", g + 1)))
                .collect(),
        };
        let inject: Vec<u32> = (0..n_rows).map(|t| sw(t, 0)).collect();
        let last = (digits - 1) * per_stage;
        // After the last stage a message sits on its destination's row, in switch row / k.
        let eject: Vec<u32> = (0..n_rows).map(|t| last + t / k).collect();
        let name = match &split {
            None => format!(
                "{} of {k}x{k} switches, {digits} stages, {n_rows} processors",
                match wiring {
                    StageWiring::Butterfly => "butterfly",
                    StageWiring::Omega => "Omega network",
                }
            ),
            Some(sp) => {
                let intra = if sp.dilation > 1 {
                    format!("{}-{}dil", sp.intra_bits, sp.dilation)
                } else {
                    sp.intra_bits.to_string()
                };
                let inter = sp.inter_bits.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
                let family = if sp.hops == 1 { "Butterfly".to_string() } else { format!("{}hop", sp.hops) };
                format!("{family}.{intra}.{inter} ({n_rows} processors, {modules_count} modules)")
            }
        };
        let mut network = Network::new(name, routers as u32, channels, inject, eject, classes);
        if let Some(sp) = &split {
            network.set_terminal_width(sp.intra_bits / flit_bits);
        }
        let modules = split.map(|s| (s, flit_bits));
        Ok(Indirect { k, digits, per_stage, wiring, port_start, port_list, modules, network })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// Switch radix k.
    pub fn k(&self) -> u32 {
        self.k
    }
    /// Number of stages D.
    pub fn stages(&self) -> u32 {
        self.digits
    }
    /// The wiring.
    pub fn wiring(&self) -> StageWiring {
        self.wiring
    }
    /// Bits per flit of a partitioned butterfly (the gcd of its channel widths); 1 otherwise.
    pub fn flit_bits(&self) -> u32 {
        self.modules.as_ref().map_or(1, |m| m.1)
    }
    /// The module split, for a partitioned butterfly.
    pub fn split(&self) -> Option<&ModuleSplit> {
        self.modules.as_ref().map(|m| &m.0)
    }
}

fn shuffle(r: u32, k: u32, n: u32) -> u32 {
    ((r as u64 * k as u64) % n as u64 + r as u64 / (n as u64 / k as u64)) as u32
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Routing for Indirect {
    /// Destination-tag routing; with dilation, every parallel channel of the port is offered.
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        let j = at / self.per_stage;
        if j + 1 >= self.digits {
            return;
        }
        let port = (dest as u64 / pow(self.k, self.digits - 1 - j)) % self.k as u64;
        let slot = at as usize * self.k as usize + port as usize;
        for &c in &self.port_list[self.port_start[slot] as usize..self.port_start[slot + 1] as usize] {
            out.push(c);
        }
    }
}
