//! A queue on every channel of any network: Agarwal 1991's contention model (§3, eqs. 3–8)
//! generalised from a k-ary n-cube's switch to any channel whose arrivals are known input by
//! input, for the ideal switch (unbounded output queues, a message of B flits holds a channel
//! of w flits a cycle for ⌈B/w⌉ cycles, a hop costs one cycle). The virtual-channel router's
//! model, from the same turn flows, is [`wormhole`] (Greenberg & Guan 1997 §2).
//!
//! Pure functions over plain numbers: per channel its service time S_c = ⌈B/w_c⌉ and the
//! message rates p_i of the streams that feed it (one per input: each incoming channel of its
//! router, each terminal injecting there), per unit request rate. Where those numbers come
//! from (every route of a network's routing under its destination pattern, walked turn by
//! turn) is the simulator's business (`netwrap_sim::routes::turn_flows`); the facade joins the
//! two (`netwrap_app::predict::network`).
//!
//! # The wait at one channel (derivation)
//! Agarwal 1991 §3 (after Kruskal & Snir) treats an output queue as a discrete-time queue that
//! v packets join each cycle, v independent from cycle to cycle with mean E and variance V;
//! for unit packets the mean wait in cycles is eq. 3,
//!
//! w = V / (2E(1 − E)) − ½.
//!
//! §3.1 builds v as a sum of independent Bernoulli arrivals, one per input (ρ_c, ρ_s, ρ_i,
//! eq. 5). For any channel, take one Bernoulli stream per input i with probability p_i a
//! cycle: E = Σ p_i = ρ, V = Σ p_i(1 − p_i) = ρ − Σ p_i², so
//!
//! w = (ρ − Σp_i² − ρ(1 − ρ)) / (2ρ(1 − ρ)) = (ρ² − Σ p_i²) / (2ρ(1 − ρ))
//!   = E\[v(v − 1)\] / (2·E\[v\]·(1 − ρ)),
//!
//! since E\[v(v − 1)\] = V + E² − E = ρ² − Σ p_i² (with Agarwal's three streams this is eq. 5's
//! full variance: ρ² − ρ_c² − ρ_s² − ρ_i² = 2(ρ_cρ_s + ρ_sρ_i + ρ_iρ_c)). A single input never
//! waits (w = 0: a stream from one channel arrives no faster than the channel serves it).
//!
//! §3.2 extends this to B-flit packets "as would be the case in a system with synchronized
//! message arrivals at a switch": time runs in slots of the service time S, a stream that
//! sends p_i messages a cycle sends q_i = S·p_i a slot, ρ = Σ q_i = S·Σ p_i is the channel's
//! utilisation (eq. 7's ρ = m·B·k_d when S = B), and the unit-slot wait, in slots, times S
//! cycles a slot, is
//!
//! **W_c = S_c · (ρ_c² − S_c²·Σ_i p_i²) / (2·ρ_c·(1 − ρ_c)),  ρ_c = S_c·Σ_i p_i**
//!
//! ([`channel_wait`]). With Agarwal's three streams and S = B this is eq. 8's B·w with eq. 5's
//! full variance; his eq. 6/8 then approximate the split of ρ over the streams (below).
//!
//! # A message's latency
//! A message waits at every channel it crosses; the mean over messages of the sum of its
//! waits weights each channel by its share of the crossings: with λ_c messages a cycle on
//! channel c and Λ messages a cycle sent in all (both per unit request rate, so their ratio
//! does not depend on the rate),
//!
//! **T = T0 + Σ_c (λ_c / Λ)·W_c**
//!
//! ([`NetworkQueues::latency`]). T0 is the ideal switch's unloaded latency, exactly
//! (`netwrap_engine::ideal`): a message created at cycle t takes its first channel at t, its
//! header reaches the next router one cycle after each grant, so the next grant is one cycle
//! later — or, when the next channel is wider than the last, once the tail has arrived, S_j
//! cycles after the last grant; it is delivered one cycle after its last channel releases it
//! (grant + S). A route of H ≥ 1 channels therefore takes
//!
//! T0(route) = Σ_{j<H} inc(j, j + 1) + S_H + 1,  inc = S_j if w_{j+1} > w_j, else 1,
//!
//! (H + S on channels of one width), and a message that crosses no channel (self-addressed)
//! ⌈B/w_t⌉ over its terminal's link. Each term belongs to one turn (channel j into j + 1) or
//! to one channel's deliveries, so the mean over messages is a sum over turns and channels
//! ([`NetworkQueues::unloaded_latency`]).
//!
//! # Saturation
//! Every ρ_c is linear in the request rate m, so the first channel reaches ρ = 1 at
//! m_sat = 1 / max_c ρ_c(m = 1) ([`NetworkQueues::max_rate`]); at or beyond it the queue is
//! unstable and there is no latency.
//!
//! # What the model leaves out
//! - Arrivals are independent from cycle to cycle and between inputs (Agarwal 1991 §3's
//!   assumption): a channel's output is in truth smoother than Bernoulli.
//! - Synchronized arrivals (Agarwal 1991 §3.2): a terminal's own messages, created at most one
//!   a cycle, can queue behind each other when B > 1 (a Geo/D/1 queue's p·S(S − 1)/(2(1 − ρ))),
//!   which the slotted model does not see; packets from different inputs overlap less than
//!   whole slots, which it overcounts (§3.3: "the model's overestimation of latency for large
//!   packets results from our assumption of simultaneous message arrivals").
//! - A message waiting for its tail before a wider channel, under load.
//!
//! # Reduction to Agarwal 1991 eq. 10
//! On a unidirectional k-ary n-cube under uniform traffic and dimension-order routing the
//! exact split of a channel's arrivals differs from §3.1's: Agarwal steers a node's packets
//! "randomly to one of the output ports" (ρ_i = m/n on every dimension) and lets each output
//! be fed by its own dimension and the next higher one only, while dimension order sends a
//! new message into the first dimension it must cross (with a = (k − 1)/k, q = 1/k, the
//! dimension routed j-th receives a·q^j injected, a²·q^l from the dimension routed l + 1
//! places before it, and c = k_d − a continuing). Summed, the exact contention term of T is
//! eq. 10's times
//!
//! R(k, n) = \[n·c·a + a²q/(1 + q)·(n − (1 − q^{2n})/(1 − q²))\] / ((n + 1)(k_d − 1)),
//!
//! whatever the rate and B ([`eq10_ratio`]; derived in its docs). R → n/(n + 1) as k grows:
//! eq. 10's (1 + 1/n) is the injected stream meeting every dimension's continuing stream,
//! where dimension order lets it meet only the first one's.

use crate::error::ModelError;
use serde::Serialize;

pub mod wormhole;

/// One input's stream into a channel's queue: messages a cycle at unit request rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stream {
    /// The channel it arrives by (an index into [`NetworkQueues::channels`]), or `None` for a
    /// terminal's own messages.
    pub from: Option<u32>,
    /// Messages a cycle at one message per terminal per cycle.
    pub rate: f64,
}

/// One channel's queue: its service time and its input streams.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelQueue {
    /// Cycles a message holds the channel, S = ⌈B/w⌉.
    pub service: u64,
    /// Flits a cycle (the unloaded latency waits for the tail before a wider channel).
    pub width: u32,
    /// Its streams, one per input that feeds it.
    pub inputs: Vec<Stream>,
}

impl ChannelQueue {
    /// λ_c: messages a cycle at unit request rate.
    pub fn load(&self) -> f64 {
        self.inputs.iter().map(|s| s.rate).sum()
    }

    /// ρ_c at request rate `rate`: S·Σ p_i.
    pub fn utilization(&self, rate: f64) -> f64 {
        self.service as f64 * rate * self.load()
    }
}

/// A network as queues: every channel's, and what crosses none.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetworkQueues {
    /// Every channel, by its number.
    pub channels: Vec<ChannelQueue>,
    /// Λ: messages a cycle sent in all at unit request rate (N, or the senders of a
    /// permutation with silent fixed points).
    pub messages: f64,
    /// Of those, the ones that cross no channel (self-addressed), a cycle.
    pub unrouted: f64,
    /// Their latency: ⌈B/w_t⌉ over the terminal's link.
    pub unrouted_latency: f64,
}

/// Agarwal 1991 eqs. 3 and 8 for any channel: the mean wait in cycles of a message at a
/// channel whose messages hold it `service` cycles, fed by streams of `rates` messages a cycle
/// (at the rate in question): W = S(ρ² − S²Σp²)/(2ρ(1 − ρ)), ρ = S·Σp (derived in the module
/// docs); `None` when ρ ≥ 1 (unstable), 0 when nothing arrives.
pub fn channel_wait(service: u64, rates: impl IntoIterator<Item = f64>) -> Option<f64> {
    let s = service as f64;
    let (mut sum, mut squares) = (0.0, 0.0);
    for p in rates {
        sum += p;
        squares += p * p;
    }
    let rho = s * sum;
    if saturates(rho) {
        return None;
    }
    if rho <= 0.0 {
        return Some(0.0);
    }
    // ρ² − S²Σp² = S²((Σp)² − Σp²) ≥ 0: written so, it cannot turn negative by rounding.
    let cross = (s * s * (sum * sum - squares)).max(0.0);
    Some(s * cross / (2.0 * rho * (1.0 - rho)))
}

/// True when a channel at utilisation `rho` is saturated: ρ ≥ 1 to within 10⁻⁹ for the
/// rounding of a sum of rates (the simulator's test, `netwrap_sim::routes::saturates`).
pub fn saturates(rho: f64) -> bool {
    rho >= 1.0 - 1e-9
}

/// The model at one request rate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetworkPrediction {
    /// Request rate m, messages per terminal per cycle.
    pub offered: f64,
    /// Accepted throughput, messages per terminal per cycle: m below saturation, the rate at
    /// which the first channel saturates beyond it.
    pub throughput: f64,
    /// Mean channel utilisation over every channel (the simulator's `utilization`).
    pub utilization: f64,
    /// The busiest channel's utilisation.
    pub max_utilization: f64,
    /// The busiest channel's number.
    pub busiest_channel: u32,
    /// Mean channels crossed by a message.
    pub mean_hops: f64,
    /// T0: the ideal switch's unloaded latency.
    pub unloaded_latency: f64,
    /// Σ_c (λ_c/Λ)·W_c: the mean of a message's waits; `None` when saturated.
    pub contention: Option<f64>,
    /// T = T0 + contention; `None` when saturated.
    pub latency: Option<f64>,
    /// Whether a channel is saturated (ρ ≥ 1).
    pub saturated: bool,
    /// m_sat: the request rate at which the busiest channel reaches ρ = 1.
    pub max_rate: f64,
}

impl NetworkQueues {
    /// λ_c of every channel, and the crossings a message makes on average.
    pub fn mean_hops(&self) -> f64 {
        self.channels.iter().map(ChannelQueue::load).sum::<f64>() / self.messages
    }

    /// The busiest channel at unit rate: (its number, its ρ at m = 1).
    pub fn busiest(&self) -> (u32, f64) {
        let mut best = (0, 0.0);
        for (i, c) in self.channels.iter().enumerate() {
            let u = c.utilization(1.0);
            if u > best.1 {
                best = (i as u32, u);
            }
        }
        best
    }

    /// m_sat = 1 / max_c ρ_c(m = 1): the rate at which the first channel saturates (infinite
    /// when no message crosses a channel).
    pub fn max_rate(&self) -> f64 {
        1.0 / self.busiest().1
    }

    /// T0: the ideal switch's mean unloaded latency, exactly (module docs): Σ over turns of
    /// their rate times inc, over channels of their deliveries times S + 1, and the
    /// self-addressed messages' ⌈B/w_t⌉, over Λ.
    pub fn unloaded_latency(&self) -> f64 {
        let mut total = self.unrouted * self.unrouted_latency;
        // Rate leaving each channel for another channel; the rest is delivered.
        let mut onward = vec![0.0; self.channels.len()];
        for c in &self.channels {
            for s in &c.inputs {
                if let Some(from) = s.from {
                    let prev = &self.channels[from as usize];
                    let inc = if c.width > prev.width { prev.service } else { 1 };
                    total += s.rate * inc as f64;
                    onward[from as usize] += s.rate;
                }
            }
        }
        for (c, out) in self.channels.iter().zip(&onward) {
            let delivered = (c.load() - out).max(0.0);
            total += delivered * (c.service + 1) as f64;
        }
        total / self.messages
    }

    /// Σ_c (λ_c/Λ)·W_c at request rate `rate`: a message's mean total wait; `None` when a
    /// channel saturates.
    pub fn contention(&self, rate: f64) -> Option<f64> {
        let mut total = 0.0;
        for c in &self.channels {
            let load = c.load();
            if load == 0.0 {
                continue;
            }
            let w = channel_wait(c.service, c.inputs.iter().map(|s| s.rate * rate))?;
            total += load * w;
        }
        Some(total / self.messages)
    }

    /// T = T0 + Σ_c (λ_c/Λ)·W_c at request rate `rate`; `None` when a channel saturates.
    pub fn latency(&self, rate: f64) -> Option<f64> {
        Some(self.unloaded_latency() + self.contention(rate)?)
    }

    /// The model at request rate `rate` (a probability: checked).
    pub fn predict(&self, rate: f64) -> Result<NetworkPrediction, ModelError> {
        crate::error::check("rate", rate, crate::error::Domain::Probability)?;
        if self.messages.is_nan() || self.messages <= 0.0 {
            return Err(ModelError::Invalid("the network sends no messages: nothing to model".into()));
        }
        if self.channels.is_empty() {
            return Err(ModelError::Invalid(
                "the network has no channels between its routers: no queue to model".into(),
            ));
        }
        let (busiest, top) = self.busiest();
        let max_rate = 1.0 / top;
        let max_utilization = top * rate;
        let saturated = saturates(max_utilization);
        let contention = if saturated { None } else { self.contention(rate) };
        let unloaded = self.unloaded_latency();
        let utilization =
            self.channels.iter().map(|c| c.utilization(rate)).sum::<f64>() / self.channels.len() as f64;
        Ok(NetworkPrediction {
            offered: rate,
            throughput: if saturated { max_rate } else { rate },
            utilization: if saturated { utilization / max_utilization } else { utilization },
            max_utilization,
            busiest_channel: busiest,
            mean_hops: self.mean_hops(),
            unloaded_latency: unloaded,
            contention,
            latency: contention.map(|w| unloaded + w),
            saturated,
            max_rate,
        })
    }
}

/// R(k, n): the exact per-channel model's contention over Agarwal 1991 eq. 10's, on a
/// unidirectional k-ary n-cube under uniform traffic (the source included) and dimension-order
/// routing, whatever the rate and message length.
///
/// Derivation. Per unit rate, with a = (k − 1)/k the chance that a dimension's offset is
/// not 0 and q = 1/k: every channel carries k_d = (k − 1)/2; a messages a cycle start their
/// run in a given dimension at a given node (each message crosses each dimension at most
/// once), so c = k_d − a continue. Of those that start, the dimension routed j-th (j = 0
/// first) takes a·q^j from the node (no offset in the j dimensions before) and a²·q^l from
/// the dimension routed l + 1 places before (l = 0..j − 1; offsets in between zero): they sum
/// to a. At S = B, with rates r_i per unit rate, W = B·ρ/(1 − ρ)·P/k_d² where
/// P = Σ_{pairs} r_a·r_b = c·a + (a² − Σ_non r²)/2 and Σ_non r² = a³(1 − q^{2j})/(1 + q) +
/// a²q^{2j} (using 1 − q² = a(1 + q)). Each of the N·n channels carries k_d of the N
/// messages, so T's contention is k_d·Σ_j W_j = B·ρ/(1 − ρ)·Σ_j P_j/k_d with
/// Σ_j P_j = n·c·a + a²q/(1 + q)·(n − (1 − q^{2n})/(1 − q²)); eq. 10's is
/// B·ρ/(1 − ρ)·(n + 1)(k_d − 1)/k_d. Their ratio is R. (k = 4, n = 2: R = 1.23046875/1.5.)
///
/// Bound: the second term of ΣP is positive and c·a = a(k_d − a) ≥ a(k_d − 1), so
/// R ≥ n·a/(n + 1), i.e. eq. 10's contention exceeds the exact split's by less than
/// 1/(n + 1) + 1/k of itself; R → n/(n + 1) as k grows.
/// Undefined for k ≤ 3 (eq. 8's form vanishes at k_d = 1).
pub fn eq10_ratio(k: u32, n: u32) -> f64 {
    let (kf, nf) = (k as f64, n as f64);
    let (a, q, kd) = ((kf - 1.0) / kf, 1.0 / kf, (kf - 1.0) / 2.0);
    let c = kd - a;
    let sum = nf * c * a + a * a * q / (1.0 + q) * (nf - (1.0 - q.powi(2 * n as i32)) / (1.0 - q * q));
    sum / ((nf + 1.0) * (kd - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification: one input never waits; two equal Bernoulli inputs at unit service
    /// (p = 0.25 each, ρ = 0.5): (0.25 − 0.125)/(2·0.5·0.5) = 0.25 cycles (eq. 3 with
    /// V = 2·0.25·0.75 = 0.375, E = 0.5: 0.375/0.5 − 0.5 = 0.25); with S = 4 and p = 1/16
    /// each, the same ρ and 4 × 0.25 = 1 cycle (eq. 8's factor B).
    #[test]
    fn waits_by_hand() {
        assert_eq!(channel_wait(1, [0.3]), Some(0.0));
        assert!((channel_wait(1, [0.25, 0.25]).unwrap() - 0.25).abs() < 1e-15);
        assert!((channel_wait(4, [1.0 / 16.0, 1.0 / 16.0]).unwrap() - 1.0).abs() < 1e-15);
        assert_eq!(channel_wait(1, [0.5, 0.5]), None);
        assert_eq!(channel_wait(3, []), Some(0.0));
    }

    /// Verification: Agarwal 1991 eq. 8 with eq. 5's full variance is the three-stream case:
    /// the library's `agarwal` pieces against [`channel_wait`] on ρ_c, ρ_s, ρ_i.
    #[test]
    fn three_streams_are_eq3_with_eq5s_full_variance() {
        let (b, rho) = (4u64, 0.5);
        let a = crate::agarwal::SwitchArrivals::new(rho / b as f64, 3.5, 2);
        let unit = [a.continuing, a.switching, a.injected];
        let ours = channel_wait(1, unit).unwrap();
        let eq3 = crate::agarwal::queue_wait(a.mean(), a.variance());
        assert!((ours - eq3).abs() < 1e-12, "{ours} {eq3}");
    }

    /// Verification: R(4, 2) by hand (module docs): ΣP = 2·0.75·0.75 + 0.5625·0.25/1.25·0.9375
    /// = 1.23046875, over (n + 1)(k_d − 1) = 1.5; and R → n/(n + 1) for large k.
    #[test]
    fn eq10_ratio_by_hand() {
        assert!((eq10_ratio(4, 2) - 1.23046875 / 1.5).abs() < 1e-15);
        assert!((eq10_ratio(1 << 20, 3) - 0.75).abs() < 1e-5);
    }
}
