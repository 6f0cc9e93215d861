//! Indirect multistage networks of k×k switches: the butterfly and the Omega network (the
//! homework's App. C, Agarwal 1991 §5.2). (The butterfly split into packaging modules, Raghunath & Ranade §5, is
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
use crate::network::{Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId};
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
///
/// Every switch before the last stage has one channel per output port, numbered router by
/// router, port by port, so output port `p` of router `r` is channel `r·k + p`; the last stage
/// has none (its outputs are the memories' links).
#[derive(Clone, Debug)]
pub struct Indirect {
    k: u32,
    digits: u32,
    per_stage: u32,
    wiring: StageWiring,
    network: Network,
}

fn pow(k: u32, e: u32) -> u64 {
    (k as u64).pow(e)
}

impl Indirect {
    /// A butterfly or Omega network of `stages` stages of k×k switches, N = k^stages
    /// terminals; valid: k ≥ 2, stages ≥ 1, and within netwrap's size limits
    /// ([`crate::MAX_TERMINALS`], [`crate::MAX_ROUTERS`], [`crate::MAX_CHANNELS`]).
    pub fn new(k: u32, stages: u32, wiring: StageWiring) -> Result<Self, TopoError> {
        Self::build(k, stages, wiring)
    }

    fn build(k: u32, digits: u32, wiring: StageWiring) -> Result<Self, TopoError> {
        if k < 2 || digits == 0 {
            return Err(TopoError::Invalid(format!(
                "a multistage network needs k >= 2 (got {k}) and at least one stage (got {digits})"
            )));
        }
        let omega = wiring == StageWiring::Omega;
        let label = match wiring {
            StageWiring::Butterfly => "butterfly",
            StageWiring::Omega => "Omega network",
        };
        // k^stages terminals, stages·k^(stages−1) switches, (stages−1)·k^stages channels.
        let rows = (k as u64).checked_pow(digits);
        let routers = (k as u64).checked_pow(digits - 1).and_then(|s| s.checked_mul(digits as u64));
        let channels = rows.and_then(|r| r.checked_mul(digits as u64 - 1));
        Planned { terminals: rows, routers, channels }.check(|| {
            format!("{} {label} of {k}x{k} switches with {digits} stages", if omega { "an" } else { "a" })
        })?;
        let n_rows = rows.unwrap_or(0) as u32;
        let per_stage = n_rows / k;
        let routers = routers.unwrap_or(0) as u32;
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
        let classes: Vec<String> =
            (0..digits.saturating_sub(1).max(1)).map(|j| format!("stage {j}-{}", j + 1)).collect();
        let mut b = NetworkBuilder::new(routers, channels.unwrap_or(0) as usize, classes);
        for j in 0..digits - 1 {
            for s in 0..per_stage {
                let me = j * per_stage + s;
                for p in 0..k {
                    let dst = (j + 1) * per_stage + sw(row_out(s, j, p), j + 1);
                    b.push(me, dst, 1, j as u16);
                }
            }
        }
        // Terminal t enters as processor t at the first stage, in switch t mod (N/k) (for the
        // butterfly, t without its top digit; for the Omega network, the shuffle of t over k),
        // and after the last stage sits on its own row, in switch t / k.
        debug_assert!((0..n_rows.min(4096)).all(|t| sw(t, 0) == t % per_stage));
        let inject = Attach::Blocks { first: 0, per_router: 1, cycle: per_stage };
        let eject = Attach::Blocks { first: (digits - 1) * per_stage, per_router: k, cycle: u32::MAX };
        let name = format!("{label} of {k}x{k} switches, {digits} stages, {n_rows} processors");
        let network = b.finish(name, n_rows, inject, eject);
        Ok(Indirect { k, digits, per_stage, wiring, network })
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
    /// Bytes held on the heap: the network only (routing is arithmetic).
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes()
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
        out.push(at * self.k + port as u32);
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}
