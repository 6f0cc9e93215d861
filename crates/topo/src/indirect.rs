//! Indirect multistage networks of k×k switches: the butterfly and the Omega network (seed
//! 004 App. C, seed 000 §5.2). (The butterfly split into packaging modules, seed 003 §5, is
//! [`crate::ModularButterfly`].)
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
    network: Network,
}

fn pow(k: u32, e: u32) -> u64 {
    (k as u64).pow(e)
}

impl Indirect {
    /// A butterfly or Omega network of `stages` stages of k×k switches, N = k^stages
    /// terminals; valid: k ≥ 2, stages ≥ 1, N < 2^31.
    pub fn new(k: u32, stages: u32, wiring: StageWiring) -> Result<Self, TopoError> {
        Self::build(k, stages, wiring)
    }

    fn build(k: u32, digits: u32, wiring: StageWiring) -> Result<Self, TopoError> {
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
        if routers * k as u64 >= 1 << 31 {
            return Err(TopoError::TooLarge(format!("{routers} switches x {k} ports")));
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
                    port_list.push(channels.len() as u32);
                    channels.push(Channel { src: me, dst, width: 1, class: j as u16 });
                }
            }
        }
        port_start.push(port_list.len() as u32);
        let classes: Vec<String> =
            (0..digits.saturating_sub(1).max(1)).map(|j| format!("stage {j}-{}", j + 1)).collect();
        let inject: Vec<u32> = (0..n_rows).map(|t| sw(t, 0)).collect();
        let last = (digits - 1) * per_stage;
        // After the last stage a message sits on its destination's row, in switch row / k.
        let eject: Vec<u32> = (0..n_rows).map(|t| last + t / k).collect();
        let name = format!(
            "{} of {k}x{k} switches, {digits} stages, {n_rows} processors",
            match wiring {
                StageWiring::Butterfly => "butterfly",
                StageWiring::Omega => "Omega network",
            }
        );
        let network = Network::new(name, routers as u32, channels, inject, eject, classes);
        Ok(Indirect { k, digits, per_stage, wiring, port_start, port_list, network })
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
}

fn shuffle(r: u32, k: u32, n: u32) -> u32 {
    ((r as u64 * k as u64) % n as u64 + r as u64 / (n as u64 / k as u64)) as u32
}

impl Routing for Indirect {
    /// Destination-tag routing.
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
