//! The virtual-channel router's model of any network: Greenberg & Guan 1997 §2's general
//! wormhole model (eqs. 1–11) on every channel, its turn probabilities the exact turn flows,
//! its saturation §2.3's (eq. 26 generalised).
//!
//! # Links and queues
//! A *link* is anything a worm holds: every router-to-router channel, each terminal's
//! injection link (the terminal's source queue feeds it) and each terminal's ejection link
//! (G&G's Fig. 1: a PE reaches its RE by an injecting and an ejecting channel). A *queue* is
//! what a header waits for: one link, or m links the routing offers together, of which the
//! worm takes whichever frees first (the fat-tree's up-links: G&G's multi-server channel,
//! §2.2). Every number is per unit request rate (one message per terminal per cycle); a
//! message of B flits is n = ⌈B/P⌉ packets, each a worm of b = B/n flits (the mean: exact when
//! P divides B).
//!
//! # Service and wait (G&G eqs. 3–11)
//! With λ_ℓ the messages a cycle on link ℓ, f(ℓ → ℓ') the flow turning from ℓ into ℓ', and
//! R(ℓ → ℓ') = f(ℓ → ℓ')/λ_ℓ the turn probability, the time a worm on ℓ spends, beyond its own
//! b flits, waiting downstream is
//!
//! **y_ℓ = Σ_ℓ' R(ℓ → ℓ')·(y_ℓ' + P_{ℓ|q}·W_q),  q the queue of ℓ'**  (eqs. 3 and 9)
//!
//! with the blocking probability of eq. 10, P_{ℓ|q} = 1 − m_q·f(ℓ → q)/Λ_q (Λ_q the queue's
//! arrivals, f(ℓ → q) those from ℓ; taken as 0 where it would be negative, which eq. 10's
//! "m less than the number of incoming links" excludes). An ejection link has no turns
//! (y = 0: assumption 4, no blocking at the destination). Under **wormhole** a worm holds
//! every link until its tail leaves, so a link's service time is its worm plus the blocking
//! below it, x̄_ℓ = b + y_ℓ (eq. 11; eq. 16 at the ejection link: x̄ = b). Under **virtual
//! cut-through** a blocked packet is taken whole into the buffer where it blocks and frees the
//! links behind it: x̄_ℓ = b, and the waits y are the packet's own, met on its way.
//!
//! A queue of m links serves x̄_q = Σ_{ℓ∈q} λ_ℓ·x̄_ℓ/Λ_q on average, and its wait is
//! M/G/m with G&G's service variance (eq. 5, C_b² = (x̄ − b)²/x̄²) at n·Λ_q packets a cycle:
//! eq. 6 for m = 1, eq. 8 (Hokstad) for m = 2, and for m ≥ 3 the same form, eq. 7 being
//! (1 + C_b²)/2 times the M/M/2 wait: W = (1 + C_b²)/2 · W_{M/M/m} with Erlang's C formula
//! ([`wait_mgm`]; a test checks it gives eqs. 6 and 8 at m = 1 and 2).
//!
//! Service times depend on the waits downstream and the waits on the service times: the
//! whole is a fixed point in y, found by iterating from y = 0 (each step is monotone, so the
//! iterates rise to the least fixed point; on a network whose channels form no cycle, as the
//! fat-tree's, they reach it exactly after as many steps as the longest route has links, which
//! is G&G's backward resolution from the ejection links). A network with cycles of channels
//! (a torus's rings) converges geometrically; the solution is taken when no y moves by more
//! than 10⁻¹³ of itself, and the rate counts as past saturation if it does not within
//! [`MAX_SWEEPS`] steps. The iteration runs on classes of links that no step can tell apart
//! ([`WormSolver`]: an equitable partition, found once per network by colour refinement), so
//! a symmetric network costs what its few classes cost at every step — a curve of 50 rates on
//! the 1,056-node dragonfly takes a tenth of a second beyond its turn flows, where every link
//! iterated alone took a minute — with the plain iteration's iterates to rounding.
//!
//! # Latency (G&G eqs. 1–2) and time
//! A message from terminal s waits W_s for its source queue (M/G/1 of whole messages: its n
//! worms hold the injection link n·x̄_inj back to back under wormhole, B cycles under
//! cut-through; eq. 24's wait with eq. 5's variance about B), then crosses the network. G&G
//! count the time after the tail leaves the injection link as D − 1 steps; netwrap's
//! virtual-channel router has its own unloaded latency T0 (each link's header time: a
//! channel's latency and the router delay and header stages at its end, the source router's
//! at injection, the terminals' channel latencies), so
//!
//! **L = T0 + Σ_s (λ_s/Λ)·(W_s + S_s − B) (+ y_inj,s under cut-through)**,
//! S_s = n·x̄_inj,s (wormhole) or B (cut-through),
//!
//! and at zero load L = T0 exactly. With r = 0 and links of one cycle T0 = B + D̄ − 2 (D̄
//! counting the injection and ejection links, as G&G's), one cycle below eq. 25's B + D̄ − 1:
//! the contention L − T0 is eq. 25's L − (B + D̄ − 1).
//!
//! # Saturation (G&G §2.3, eq. 26)
//! At a rate, the model is saturated when a queue's utilisation n·Λ_q·x̄_q/m_q or a source's
//! λ_s·S_s reaches 1 (the latter is eq. 26, x̄_{0,1} = 1/λ0), or the fixed point does not
//! settle. The highest rate it settles at ([`WormNetwork::max_rate`]) is found by bisection
//! (every y rises with the rate); the bandwidth bound, where the first queue would reach
//! ρ = 1 with no blocking (x̄ = b), lies above it.
//!
//! # What is left out
//! - Virtual channels: a physical channel is one server. Several VCs let a worm pass one
//!   blocked on the same channel, which the model does not see (it is then pessimistic);
//!   dateline classes change only which VC a packet takes, not its route.
//! - The switch: its allocation, arbitration order (G&G assume FCFS, assumption 3), speedups
//!   and the buffers' depth (a blocked worm is taken as stopped in place).
//! - The packets of one message are independent worms downstream of the source queue (its n
//!   worms arrive at a channel as n Poisson arrivals, not back to back).
//! - Arrivals are Poisson (G&G assumption 1); netwrap's terminals draw Bernoulli.

use super::NetworkPrediction;
use crate::error::ModelError;
use crate::fat_tree::{wait_mg1, wait_mg2};
use serde::Serialize;

/// How a worm holds the links behind its head.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Holding {
    /// Wormhole: a blocked worm holds every link back to its tail (x̄ = b + y).
    Wormhole,
    /// Virtual cut-through: a blocked packet frees the links behind it (x̄ = b).
    CutThrough,
}

/// What a link is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LinkKind {
    /// A router-to-router channel, by its number.
    Channel,
    /// A terminal's injection link, by the terminal's number.
    Injection,
    /// A terminal's ejection link, by the terminal's number.
    Ejection,
}

/// One link: what it is, its queue, its flow and where that flow turns next.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WormLink {
    /// What it is.
    pub kind: LinkKind,
    /// The channel's or the terminal's number.
    pub index: u32,
    /// Its queue (an index into [`WormNetwork::queues`]).
    pub queue: u32,
    /// λ_ℓ: messages a cycle at unit request rate.
    pub rate: f64,
    /// Cycles a header spends from entering it to being ready at the next link, unloaded.
    pub hop: f64,
    /// (next link, messages a cycle turning into it at unit rate); none for an ejection link.
    pub turns: Vec<(u32, f64)>,
}

/// One queue: its servers, and whether it is a terminal's source queue.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WormQueue {
    /// m: the links a worm may take any free one of (1 but where the routing offers several).
    pub servers: u32,
    /// The source queue of a terminal's own messages (before its injection link): M/G/1 of
    /// whole messages, no blocking correction.
    pub source: bool,
}

/// A network as links and queues for the virtual-channel router's model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WormNetwork {
    /// Every link.
    pub links: Vec<WormLink>,
    /// Every queue.
    pub queues: Vec<WormQueue>,
    /// Λ: messages a cycle sent in all at unit request rate.
    pub messages: f64,
    /// B: flits per message.
    pub size: f64,
    /// n: packets per message (each a worm of b = B/n flits).
    pub packets: f64,
    /// How worms hold links.
    pub holding: Holding,
}

/// Steps of the fixed-point iteration after which a rate counts as past saturation.
pub const MAX_SWEEPS: usize = 20_000;

/// One link at the solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WormLinkState {
    /// What it is.
    pub kind: LinkKind,
    /// The channel's or the terminal's number.
    pub index: u32,
    /// Messages a cycle on it.
    pub rate: f64,
    /// m of its queue.
    pub servers: u32,
    /// x̄: mean cycles a worm holds it (b + y under wormhole, b under cut-through).
    pub service_time: f64,
    /// The mean wait for it (W of its queue; at an injection link, the source queue's wait
    /// for a whole message); `None` where unstable.
    pub waiting_time: Option<f64>,
}

/// What the virtual-channel router's model adds to [`NetworkPrediction`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WormDetail {
    /// `wormhole` or `cut-through`.
    pub holding: Holding,
    /// The rate at which the first queue would reach ρ = 1 were no worm ever blocked (x̄ = b):
    /// a bound above `max_rate`.
    pub bandwidth_rate: f64,
    /// What fails first at `max_rate`: a queue ("channel 12", "channels 4+5" for m links, "the
    /// source queue of terminal 3", "ejection 3") or "the fixed point" (no queue at ρ = 1, but
    /// the service times grow without bound).
    pub limiting: String,
    /// The mean source-queue service time Σ_s (λ_s/Λ)·S_s (eq. 26's x̄_{0,1} when n = 1);
    /// `None` when saturated.
    pub source_service_time: Option<f64>,
    /// Every link at this rate: its flow, service time and wait (`None` when saturated).
    pub links: Option<Vec<WormLinkState>>,
    /// The latency of each class of source–destination pairs ([`PairClasses`]), by the
    /// distance between them; `None` when saturated or not asked for.
    pub latency_by_distance: Option<Vec<ClassLatency>>,
}

/// The messages of one class of source–destination pairs, per unit request rate, as the
/// per-class latency needs them ([`PairClasses`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairClass {
    /// The class: the distance (routers' hops) from source to destination.
    pub distance: u32,
    /// Messages a cycle of the class.
    pub messages: f64,
    /// Σ over the class's messages (and the routes each splits over) of its unloaded
    /// latency: B plus its links' header times.
    pub unloaded: f64,
    /// (injection link, messages a cycle of the class its terminal sends).
    pub sources: Vec<(u32, f64)>,
    /// (queue, Σ over the class's turns into the queue of messages × P_{ℓ|q}): the blocking a
    /// header meets on its own route, eq. 9's terms summed along it.
    pub blocking: Vec<(u32, f64)>,
}

/// The source–destination pairs grouped into classes, for the latency of each
/// ([`WormSolver::predict_with`]).
///
/// A message from s to d waits W_s for its source queue and, on its route, P_{ℓ|q}·W_q for
/// each queue q it turns into from link ℓ (eqs. 9–10): its header's blocking along its own
/// route, where y_inj averages over every route from s. Its latency is
///
/// **L(s, d) = T0(s, d) + W_s + n·Σ_route P_{ℓ|q}·W_q** (wormhole: the worm holds the injection
/// link through its blocking, S_s − B = n·y) or with 1 in place of n (cut-through: L = T0 +
/// W_s + y_inj). Averaged over every pair, weighted by its messages, this is the model's mean
/// latency exactly: the expected turns of the chain the fixed point takes (from each
/// injection link, by the turn probabilities R) are the flows' turns, so Σ_s λ_s·y_inj,s =
/// Σ_turns f(ℓ → ℓ')·P_{ℓ|q(ℓ')}·W_{q(ℓ')} (a test checks the mean to 10⁻⁹).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairClasses {
    /// Every class with messages, by distance.
    pub classes: Vec<PairClass>,
}

/// One class's latency at a rate ([`WormDetail::latency_by_distance`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassLatency {
    /// The distance (routers' hops) from source to destination.
    pub distance: u32,
    /// Its share of the messages.
    pub share: f64,
    /// Its mean unloaded latency T0.
    pub unloaded_latency: f64,
    /// Its mean latency L.
    pub latency: f64,
}

/// The VC router's model at one rate: the fields every model prints, and its own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WormPrediction {
    /// The fields the ideal switch's model prints too.
    #[serde(flatten)]
    pub network: NetworkPrediction,
    /// The fields of this model.
    #[serde(flatten)]
    pub detail: WormDetail,
}

/// Where the model saturates ([`WormNetwork::saturation`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Saturation {
    /// The bandwidth bound ([`WormDetail::bandwidth_rate`]).
    pub bandwidth_rate: f64,
    /// The highest rate the model settles at.
    pub max_rate: f64,
    /// What fails first just above it ([`WormDetail::limiting`]).
    pub limiting: String,
}

/// M/G/m wait with G&G's service variance: eq. 6 (m = 1), eq. 8 (Hokstad, m = 2), and for
/// m ≥ 3 (1 + C_b²)/2 · W_{M/M/m}(λ, x̄), eq. 7's form (module docs), with Erlang's C formula;
/// `rate` is the queue's total arrivals, `size` the worm's b. `None` when λx̄ ≥ m.
pub fn wait_mgm(servers: u32, rate: f64, service: f64, size: f64) -> Option<f64> {
    match servers {
        0 | 1 => wait_mg1(rate, service, size),
        2 => wait_mg2(rate, service, size),
        m => {
            let (a, mf) = (rate * service, m as f64);
            if a >= mf {
                return None;
            }
            Some(0.5 * (1.0 + (service - size).powi(2) / (service * service)) * mm_wait(m, a, service))
        }
    }
}

/// W_{M/M/m} = C(m, a)·x̄/(m − a), with a = λx̄ < m and Erlang's C(m, a).
fn mm_wait(m: u32, a: f64, service: f64) -> f64 {
    let mf = m as f64;
    // Σ_{k<m} a^k/k! and a^m/m!, term by term (no factorial overflows).
    let (mut sum, mut term) = (0.0, 1.0);
    for k in 0..m {
        sum += term;
        term *= a / (k + 1) as f64;
    }
    let last = term * mf / (mf - a);
    let c = last / (sum + last);
    c * service / (mf - a)
}

/// The solution at one rate, by class ([`WormSolver`]).
struct Solution {
    /// y per link class.
    y: Vec<f64>,
    /// x̄ per link class.
    x: Vec<f64>,
    /// W per queue class (0 for source queues and queues nothing reaches); `None` when
    /// unstable.
    w: Vec<Option<f64>>,
    /// Per link class whose links start at a source queue: (S_s, W_s); (0, None) for others.
    sources: Vec<(f64, Option<f64>)>,
    /// What failed, if anything.
    failed: Option<String>,
}

/// A class of links the fixed point cannot tell apart ([`WormSolver`]).
struct LinkClass {
    /// λ_ℓ of every member.
    rate: f64,
    /// Its first link (the lowest index).
    first: u32,
    /// Whether its links start at a source queue.
    source: bool,
    /// (link class, Σ R(ℓ → ℓ') over the class's links ℓ'): the same for every member.
    turns: Vec<(u32, f64)>,
    /// (queue class, Σ c_{ℓ,q} over the class's queues q): the same for every member.
    blocking: Vec<(u32, f64)>,
}

/// A class of queues the fixed point cannot tell apart ([`WormSolver`]).
struct QueueClass {
    /// m of every member.
    servers: u32,
    /// Whether its members are source queues.
    source: bool,
    /// Λ_q of every member.
    load: f64,
    /// Its first queue (the lowest index).
    first: u32,
    /// (link class, Σ λ_ℓ over a member's links of that class): the same for every member.
    members: Vec<(u32, f64)>,
}

/// The model of one network prepared for any number of rates: what does not depend on the
/// rate (queue loads, turn probabilities, eq. 10's blocking probabilities) computed once, and
/// the links and queues grouped into the classes the fixed point cannot tell apart, its
/// saturation found once.
///
/// **Classes.** Two links whose λ, queue kind and servers are equal and whose turn
/// probabilities and blocking terms into each class sum alike (and two queues whose Λ, m and
/// links' rates by class are alike) get the same y and W at every step of the iteration from
/// y = 0: the partition is *equitable* (found by colour refinement, equal meaning equal to
/// 2⁻⁴⁰ of the value), and the iteration runs on one representative per class. On a network
/// with symmetry (a torus's rings, a dragonfly's groups, a fat-tree's levels) a few classes
/// stand for thousands of links; on one without, each link is its own class and the
/// iteration is the plain one. The iterates are the plain iteration's to rounding, so the
/// solution, the rate at which it stops settling and what fails there are its too.
pub struct WormSolver<'a> {
    net: &'a WormNetwork,
    /// The class of every link.
    link_class: Vec<u32>,
    /// The class of every queue.
    queue_class: Vec<u32>,
    classes: Vec<LinkClass>,
    queue_classes: Vec<QueueClass>,
    saturation: Saturation,
}

/// Rounds of colour refinement after which [`WormSolver`] leaves every link its own class.
const MAX_ROUNDS: usize = 100;

/// v rounded to 40 bits of mantissa (a class key: values equal to 2⁻⁴⁰ of themselves agree).
fn key(v: f64) -> u64 {
    if v == 0.0 { 0 } else { (v.to_bits() + (1 << 11)) >> 12 }
}

/// Sums `(class, value)` pairs by class into key words, ordered by class.
fn keyed(pairs: &mut [(u32, f64)], into: &mut Vec<u64>) {
    pairs.sort_by_key(|p| p.0);
    let mut i = 0;
    while i < pairs.len() {
        let (c, mut sum) = (pairs[i].0, 0.0);
        while i < pairs.len() && pairs[i].0 == c {
            sum += pairs[i].1;
            i += 1;
        }
        into.push(c as u64);
        into.push(key(sum));
    }
}

/// Numbers the distinct keys in order of first appearance.
fn intern(keys: Vec<Vec<u64>>) -> (Vec<u32>, usize) {
    let mut seen: std::collections::HashMap<Vec<u64>, u32> = std::collections::HashMap::new();
    let colours = keys
        .into_iter()
        .map(|k| {
            let next = seen.len() as u32;
            *seen.entry(k).or_insert(next)
        })
        .collect();
    (colours, seen.len())
}

impl WormNetwork {
    /// b: flits per worm.
    fn worm(&self) -> f64 {
        self.size / self.packets
    }

    /// Checks the numbers: every index in range, rates finite and non-negative.
    fn check(&self) -> Result<(), ModelError> {
        let bad = |what: String| Err(ModelError::Invalid(format!("the VC router's model: {what}")));
        if !(self.messages > 0.0 && self.messages.is_finite()) {
            return bad("the network sends no messages: nothing to model".into());
        }
        if !(self.size >= 1.0 && self.packets >= 1.0 && self.packets <= self.size) {
            return bad(format!("{} flits in {} packets is not a message", self.size, self.packets));
        }
        for l in &self.links {
            let q = self.queues.get(l.queue as usize);
            if q.is_none() || !(l.rate >= 0.0 && l.rate.is_finite()) {
                return bad(format!("link {:?} {} has no queue or no rate", l.kind, l.index));
            }
            if l.turns.iter().any(|&(to, f)| to as usize >= self.links.len() || f.is_nan() || f < 0.0) {
                return bad(format!("link {:?} {} turns into no link", l.kind, l.index));
            }
        }
        Ok(())
    }

    /// The queue's name as a report prints it.
    fn queue_name(&self, q: u32) -> String {
        let members: Vec<&WormLink> = self.links.iter().filter(|l| l.queue == q).collect();
        let Some(first) = members.first() else { return format!("queue {q}") };
        let indices: Vec<String> = members.iter().map(|l| l.index.to_string()).collect();
        match first.kind {
            LinkKind::Channel if members.len() > 1 => format!("channels {}", indices.join("+")),
            LinkKind::Channel => format!("channel {}", first.index),
            LinkKind::Injection => format!("the source queue of terminal {}", first.index),
            LinkKind::Ejection => format!("ejection {}", first.index),
        }
    }

    /// Λ_q of every queue: messages a cycle at unit rate.
    fn queue_loads(&self) -> Vec<f64> {
        let mut load = vec![0.0; self.queues.len()];
        for l in &self.links {
            load[l.queue as usize] += l.rate;
        }
        load
    }

    /// The flow link `l` turns into each queue (summed over that queue's links), where positive.
    fn turns_by_queue(&self, l: &WormLink) -> Vec<(u32, f64)> {
        let mut by_queue: Vec<(u32, f64)> = Vec::new();
        for &(to, f) in &l.turns {
            let q = self.links[to as usize].queue;
            match by_queue.iter_mut().find(|e| e.0 == q) {
                Some(e) => e.1 += f,
                None => by_queue.push((q, f)),
            }
        }
        by_queue.retain(|&(_, f)| f > 0.0);
        by_queue
    }

    /// c_{ℓ,q} = R_{ℓ|q}·P_{ℓ|q} for every link ℓ and queue q it turns into (eqs. 9–10).
    fn blocking(&self, load: &[f64]) -> Vec<Vec<(u32, f64)>> {
        self.links
            .iter()
            .map(|l| {
                self.turns_by_queue(l)
                    .into_iter()
                    .filter(|_| l.rate > 0.0)
                    .map(|(q, f)| {
                        let m = self.queues[q as usize].servers.max(1) as f64;
                        let p = (1.0 - m * f / load[q as usize]).max(0.0);
                        (q, f / l.rate * p)
                    })
                    .collect()
            })
            .collect()
    }

    /// P_{ℓ|q} (eq. 10) for every link ℓ and queue q it turns into: (q, P) per link.
    pub fn blocking_probabilities(&self) -> Vec<Vec<(u32, f64)>> {
        let load = self.queue_loads();
        self.links
            .iter()
            .map(|l| {
                self.turns_by_queue(l)
                    .into_iter()
                    .map(|(q, f)| {
                        let m = self.queues[q as usize].servers.max(1) as f64;
                        (q, (1.0 - m * f / load[q as usize]).max(0.0))
                    })
                    .collect()
            })
            .collect()
    }

    /// The model prepared for any number of rates, its saturation found ([`WormSolver`]).
    pub fn solver(&self) -> Result<WormSolver<'_>, ModelError> {
        self.check()?;
        let mut s = WormSolver::prepare(self, true);
        let (bandwidth_rate, _) = self.bandwidth_rate();
        let (max_rate, limiting) = s.max_rate();
        s.saturation = Saturation { bandwidth_rate, max_rate, limiting };
        Ok(s)
    }

    /// The bandwidth bound: the rate at which the first queue reaches ρ = 1 with x̄ = b, or a
    /// source with S = B; with the queue's name.
    pub fn bandwidth_rate(&self) -> (f64, String) {
        let b = self.worm();
        let load = self.queue_loads();
        let mut busiest = vec![0.0f64; self.queues.len()];
        for l in &self.links {
            busiest[l.queue as usize] = busiest[l.queue as usize].max(l.rate);
        }
        let mut best = (0.0, 0);
        for (q, queue) in self.queues.iter().enumerate() {
            let rho = if queue.source {
                busiest[q] * self.size
            } else {
                self.packets * load[q] * b / queue.servers.max(1) as f64
            };
            if rho > best.0 {
                best = (rho, q);
            }
        }
        let name = if best.0 > 0.0 { self.queue_name(best.1 as u32) } else { String::new() };
        (1.0 / best.0, name)
    }

    /// The highest rate at which the model settles (G&G §2.3; eq. 26 on the fat-tree), by
    /// bisection below the bandwidth bound, to 10⁻¹² of itself; with what fails just above.
    pub fn max_rate(&self) -> Result<(f64, String), ModelError> {
        let s = self.solver()?;
        Ok((s.saturation.max_rate, s.saturation.limiting.clone()))
    }

    /// T0: B plus the mean over messages of their links' header times.
    pub fn unloaded_latency(&self) -> f64 {
        self.size + self.links.iter().map(|l| l.rate * l.hop).sum::<f64>() / self.messages
    }

    /// Its saturation: the bandwidth bound, the highest rate the model settles at, and what
    /// fails there ([`WormNetwork::max_rate`]).
    pub fn saturation(&self) -> Result<Saturation, ModelError> {
        Ok(self.solver()?.saturation)
    }

    /// The model at request rate `rate` (a probability: checked). For a curve, prepare once
    /// with [`WormNetwork::solver`] and ask it each rate.
    pub fn predict(&self, rate: f64) -> Result<WormPrediction, ModelError> {
        self.solver()?.predict(rate)
    }
}

impl<'a> WormSolver<'a> {
    /// The classes (colour refinement from λ, kind and queue, [`WormSolver`]) and what each
    /// class's representative gives the iteration; the saturation is left for
    /// [`WormNetwork::solver`] to find.
    /// `refine` false leaves every link and queue its own class (the plain iteration, for tests).
    fn prepare(net: &'a WormNetwork, refine: bool) -> WormSolver<'a> {
        let load = net.queue_loads();
        let blocking = net.blocking(&load);
        let (nl, nq) = (net.links.len(), net.queues.len());
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); nq];
        for (i, l) in net.links.iter().enumerate() {
            members[l.queue as usize].push(i as u32);
        }
        let kind = |k: LinkKind| k as u64;
        let (mut lc, mut nlc) = intern(
            net.links
                .iter()
                .map(|l| {
                    let q = net.queues[l.queue as usize];
                    vec![kind(l.kind), key(l.rate), q.servers as u64, q.source as u64]
                })
                .collect(),
        );
        let (mut qc, mut nqc) = intern(
            net.queues
                .iter()
                .enumerate()
                .map(|(q, queue)| vec![queue.servers as u64, queue.source as u64, key(load[q])])
                .collect(),
        );
        if !refine {
            (lc, nlc, qc, nqc) = ((0..nl as u32).collect(), nl, (0..nq as u32).collect(), nq);
        }
        let mut pairs = Vec::new();
        let mut done = !refine;
        let mut rounds = 0;
        while !done {
            // Each round costs a pass over the turns; a partition still splitting after
            // MAX_ROUNDS (a long chain of links without symmetry) gives way to every link its
            // own class, which is always equitable.
            rounds += 1;
            if rounds > MAX_ROUNDS {
                (lc, nlc, qc, nqc) = ((0..nl as u32).collect(), nl, (0..nq as u32).collect(), nq);
                break;
            }
            let link_keys = (0..nl)
                .map(|i| {
                    let l = &net.links[i];
                    let mut k = vec![lc[i] as u64];
                    pairs.clear();
                    if l.rate > 0.0 {
                        pairs.extend(l.turns.iter().map(|&(to, f)| (lc[to as usize], f / l.rate)));
                    }
                    keyed(&mut pairs, &mut k);
                    k.push(u64::MAX);
                    pairs.clear();
                    pairs.extend(blocking[i].iter().map(|&(q, c)| (qc[q as usize], c)));
                    keyed(&mut pairs, &mut k);
                    k
                })
                .collect();
            let queue_keys = (0..nq)
                .map(|q| {
                    let mut k = vec![qc[q] as u64];
                    pairs.clear();
                    pairs.extend(members[q].iter().map(|&i| (lc[i as usize], net.links[i as usize].rate)));
                    keyed(&mut pairs, &mut k);
                    k
                })
                .collect();
            let (lc2, nlc2) = intern(link_keys);
            let (qc2, nqc2) = intern(queue_keys);
            // Each round refines the last (its key starts with the old class): the same counts
            // are the same partition.
            done = nlc2 == nlc && nqc2 == nqc;
            (lc, nlc, qc, nqc) = (lc2, nlc2, qc2, nqc2);
        }
        let mut classes: Vec<Option<LinkClass>> = (0..nlc).map(|_| None).collect();
        for (i, l) in net.links.iter().enumerate() {
            let slot = &mut classes[lc[i] as usize];
            if slot.is_some() {
                continue;
            }
            let sum = |pairs: Vec<(u32, f64)>| {
                let mut out: Vec<(u32, f64)> = Vec::new();
                for (c, v) in pairs {
                    match out.iter_mut().find(|e| e.0 == c) {
                        Some(e) => e.1 += v,
                        None => out.push((c, v)),
                    }
                }
                out
            };
            let turns = if l.rate > 0.0 {
                sum(l.turns.iter().map(|&(to, f)| (lc[to as usize], f / l.rate)).collect())
            } else {
                Vec::new()
            };
            *slot = Some(LinkClass {
                rate: l.rate,
                first: i as u32,
                source: net.queues[l.queue as usize].source,
                turns,
                blocking: sum(blocking[i].iter().map(|&(q, c)| (qc[q as usize], c)).collect()),
            });
        }
        let mut queue_classes: Vec<Option<QueueClass>> = (0..nqc).map(|_| None).collect();
        for (q, queue) in net.queues.iter().enumerate() {
            let slot = &mut queue_classes[qc[q] as usize];
            if slot.is_some() {
                continue;
            }
            let mut by: Vec<(u32, f64)> = Vec::new();
            for &i in &members[q] {
                let c = lc[i as usize];
                match by.iter_mut().find(|e| e.0 == c) {
                    Some(e) => e.1 += net.links[i as usize].rate,
                    None => by.push((c, net.links[i as usize].rate)),
                }
            }
            *slot = Some(QueueClass {
                servers: queue.servers,
                source: queue.source,
                load: load[q],
                first: q as u32,
                members: by,
            });
        }
        WormSolver {
            net,
            link_class: lc,
            queue_class: qc,
            classes: classes.into_iter().map(|c| c.expect("every class has a link")).collect(),
            queue_classes: queue_classes.into_iter().map(|c| c.expect("every class has a queue")).collect(),
            saturation: Saturation { bandwidth_rate: 0.0, max_rate: 0.0, limiting: String::new() },
        }
    }

    /// Its saturation, found once for every rate of a curve.
    pub fn saturation(&self) -> &Saturation {
        &self.saturation
    }

    /// How many classes the links and the queues fall into ([`WormSolver`]).
    pub fn classes(&self) -> (usize, usize) {
        (self.classes.len(), self.queue_classes.len())
    }

    /// x̄ of every link class from y (wormhole: b + y; cut-through: b).
    fn services(&self, y: &[f64]) -> Vec<f64> {
        let b = self.net.worm();
        match self.net.holding {
            Holding::Wormhole => y.iter().map(|v| b + v).collect(),
            Holding::CutThrough => vec![b; y.len()],
        }
    }

    /// W of every queue class (0 for source queues and queues nothing reaches) from the link
    /// classes' x̄, at `rate`; or the name of the first unstable queue.
    fn waits(&self, rate: f64, x: &[f64]) -> Result<Vec<f64>, String> {
        let mut w = vec![0.0; self.queue_classes.len()];
        let mut failed: Option<u32> = None;
        for (c, q) in self.queue_classes.iter().enumerate() {
            if q.source || q.load <= 0.0 {
                continue;
            }
            let xq = q.members.iter().map(|&(l, r)| r * x[l as usize]).sum::<f64>() / q.load;
            match wait_mgm(q.servers, self.net.packets * rate * q.load, xq, self.net.worm()) {
                Some(v) => w[c] = v,
                None => failed = Some(failed.map_or(q.first, |f| f.min(q.first))),
            }
        }
        match failed {
            Some(q) => Err(self.net.queue_name(q)),
            None => Ok(w),
        }
    }

    /// The fixed point at request rate `rate` (module docs), by class.
    fn solve(&self, rate: f64) -> Solution {
        let nc = self.classes.len();
        let mut y = vec![0.0; nc];
        let mut next = vec![0.0; nc];
        let mut failed = None;
        let mut settled = false;
        for _ in 0..MAX_SWEEPS {
            let w = match self.waits(rate, &self.services(&y)) {
                Ok(w) => w,
                Err(name) => {
                    failed = Some(name);
                    break;
                }
            };
            let mut moved = 0.0f64;
            for (i, c) in self.classes.iter().enumerate() {
                if c.rate <= 0.0 {
                    continue;
                }
                let mut v = 0.0;
                for &(to, r) in &c.turns {
                    v += r * y[to as usize];
                }
                for &(q, b) in &c.blocking {
                    v += b * w[q as usize];
                }
                next[i] = v;
                moved = moved.max((v - y[i]).abs() / (1.0 + v.abs()));
            }
            std::mem::swap(&mut y, &mut next);
            if !y.iter().all(|v| v.is_finite() && *v < 1e15) {
                break;
            }
            if moved <= 1e-13 {
                settled = true;
                break;
            }
        }
        let x = self.services(&y);
        let w = if failed.is_none() && settled {
            match self.waits(rate, &x) {
                Ok(w) => w.into_iter().map(Some).collect(),
                Err(name) => {
                    failed = Some(name);
                    vec![None; self.queue_classes.len()]
                }
            }
        } else {
            failed = failed.or_else(|| Some("the fixed point".into()));
            vec![None; self.queue_classes.len()]
        };
        let mut sources = vec![(0.0, None); nc];
        if failed.is_none() {
            let mut first: Option<u32> = None;
            for (i, c) in self.classes.iter().enumerate() {
                if !c.source || c.rate <= 0.0 {
                    continue;
                }
                let s = match self.net.holding {
                    Holding::Wormhole => self.net.packets * x[i],
                    Holding::CutThrough => self.net.size,
                };
                let ws = wait_mg1(rate * c.rate, s, self.net.size);
                if ws.is_none() {
                    first = Some(first.map_or(c.first, |f| f.min(c.first)));
                }
                sources[i] = (s, ws);
            }
            failed = first.map(|l| self.net.queue_name(self.net.links[l as usize].queue));
        }
        Solution { y, x, w, sources, failed }
    }

    /// The highest rate at which the model settles (G&G §2.3; eq. 26 on the fat-tree), by
    /// bisection below the bandwidth bound, to 10⁻¹² of itself; with what fails just above.
    fn max_rate(&self) -> (f64, String) {
        let (bound, name) = self.net.bandwidth_rate();
        if !bound.is_finite() {
            return (bound, name);
        }
        let (mut lo, mut hi) = (0.0, bound);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if self.solve(mid).failed.is_none() {
                lo = mid
            } else {
                hi = mid
            }
            if hi - lo <= 1e-12 * hi {
                break;
            }
        }
        let why = self.solve(hi).failed.unwrap_or(name);
        (lo, why)
    }

    /// The model at request rate `rate` (a probability: checked).
    pub fn predict(&self, rate: f64) -> Result<WormPrediction, ModelError> {
        self.predict_with(rate, None)
    }

    /// The model at request rate `rate`, with the latency of each class of `pairs` when given.
    pub fn predict_with(&self, rate: f64, pairs: Option<&PairClasses>) -> Result<WormPrediction, ModelError> {
        crate::error::check("rate", rate, crate::error::Domain::Probability)?;
        let net = self.net;
        let b = net.worm();
        let sat = &self.saturation;
        let (bandwidth_rate, max_rate, limiting) = (sat.bandwidth_rate, sat.max_rate, sat.limiting.clone());
        let sol = self.solve(rate);
        let saturated = sol.failed.is_some();
        let class = |i: usize| self.link_class[i] as usize;
        let channels: Vec<(usize, &WormLink)> =
            net.links.iter().enumerate().filter(|(_, l)| l.kind == LinkKind::Channel).collect();
        let bare = |l: &WormLink| net.packets * rate * l.rate * b;
        let (mut busiest, mut top) = (0u32, 0.0);
        for (_, l) in &channels {
            if bare(l) > top {
                (busiest, top) = (l.index, bare(l));
            }
        }
        let mean_util = channels.iter().fold(0.0, |a, (_, l)| a + bare(l)) / channels.len().max(1) as f64;
        let unloaded = net.unloaded_latency();
        let crossings = channels.iter().fold(0.0, |a, (_, l)| a + l.rate);
        let (contention, source_service_time) = if saturated {
            (None, None)
        } else {
            let (mut total, mut service) = (0.0, 0.0);
            for (i, l) in net.links.iter().enumerate() {
                let c = &self.classes[class(i)];
                if !c.source || l.rate <= 0.0 {
                    continue;
                }
                let (s, ws) = sol.sources[class(i)];
                let cut = if net.holding == Holding::CutThrough { sol.y[class(i)] } else { 0.0 };
                total += l.rate * (ws.unwrap_or(f64::INFINITY) + s - net.size + cut);
                service += l.rate * s;
            }
            (Some(total / net.messages), Some(service / net.messages))
        };
        let links = (!saturated).then(|| {
            net.links
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let queue = net.queues[l.queue as usize];
                    let waiting_time = if queue.source {
                        sol.sources[class(i)].1.or(Some(0.0))
                    } else {
                        sol.w[self.queue_class[l.queue as usize] as usize]
                    };
                    WormLinkState {
                        kind: l.kind,
                        index: l.index,
                        rate: l.rate * rate,
                        servers: queue.servers,
                        service_time: sol.x[class(i)],
                        waiting_time,
                    }
                })
                .collect()
        });
        let network = NetworkPrediction {
            offered: rate,
            throughput: if saturated { max_rate } else { rate },
            utilization: if saturated { mean_util * max_rate / rate } else { mean_util },
            max_utilization: top,
            busiest_channel: busiest,
            mean_hops: crossings / net.messages,
            unloaded_latency: unloaded,
            contention,
            latency: contention.map(|c| unloaded + c),
            saturated,
            max_rate,
        };
        let latency_by_distance = pairs.filter(|_| !saturated).map(|pairs| {
            let factor = match net.holding {
                Holding::Wormhole => net.packets,
                Holding::CutThrough => 1.0,
            };
            let w_queue = |q: u32| sol.w[self.queue_class[q as usize] as usize].unwrap_or(f64::INFINITY);
            let w_source = |i: u32| sol.sources[class(i as usize)].1.unwrap_or(f64::INFINITY);
            pairs
                .classes
                .iter()
                .filter(|c| c.messages > 0.0)
                .map(|c| {
                    let sources: f64 = c.sources.iter().map(|&(i, m)| m * w_source(i)).sum();
                    let blocking: f64 = c.blocking.iter().map(|&(q, m)| m * w_queue(q)).sum();
                    ClassLatency {
                        distance: c.distance,
                        share: c.messages / net.messages,
                        unloaded_latency: c.unloaded / c.messages,
                        latency: (c.unloaded + sources + factor * blocking) / c.messages,
                    }
                })
                .collect()
        });
        let detail = WormDetail {
            holding: net.holding,
            bandwidth_rate,
            limiting,
            source_service_time,
            links,
            latency_by_distance,
        };
        Ok(WormPrediction { network, detail })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fat_tree::{self, FatTree};

    /// Verification: Erlang's C gives M/M/1's ρx/(1 − ρ) and M/M/2's a²x/(4 − a²) (so
    /// [`wait_mgm`]'s form for m ≥ 3 is eqs. 6 and 8 at m = 1 and 2), and C(3, 2) = 4/9 by
    /// hand (a³/3!·3/(3 − 2) = 4 over 1 + 2 + 2 + 4).
    #[test]
    fn erlang_form_is_eqs_6_and_8() {
        let (x, b) = (7.0, 4.0);
        for lam in [0.01, 0.05, 0.1] {
            let a: f64 = lam * x;
            assert!((mm_wait(1, a, x) - a * x / (1.0 - a)).abs() < 1e-12);
            assert!((mm_wait(2, a, x) - a * a * x / (4.0 - a * a)).abs() < 1e-12);
            let cb = 1.0 + (x - b).powi(2) / (x * x);
            assert!((0.5 * cb * mm_wait(1, a, x) - wait_mg1(lam, x, b).unwrap()).abs() < 1e-12);
            assert!((0.5 * cb * mm_wait(2, a, x) - wait_mg2(lam, x, b).unwrap()).abs() < 1e-12);
        }
        assert!((mm_wait(3, 2.0, 1.0) - 4.0 / 9.0).abs() < 1e-12);
        assert_eq!(wait_mgm(3, 1.0, 3.0, 1.0), None);
    }

    /// A link.
    fn link(kind: LinkKind, index: u32, queue: u32, rate: f64, hop: f64, turns: Vec<(u32, f64)>) -> WormLink {
        WormLink { kind, index, queue, rate, hop, turns }
    }

    /// One switch with four terminals under uniform traffic to the others (G&G's N = 4
    /// fat-tree): links 0–3 inject, 4–7 eject; each injection turns into the three other
    /// ejections at rate 1/3.
    fn one_switch(holding: Holding, size: f64) -> WormNetwork {
        let mut links = Vec::new();
        for s in 0..4u32 {
            let turns = (0..4u32).filter(|&t| t != s).map(|t| (4 + t, 1.0 / 3.0)).collect();
            links.push(link(LinkKind::Injection, s, s, 1.0, 0.0, turns));
        }
        for t in 0..4u32 {
            links.push(link(LinkKind::Ejection, t, 4 + t, 1.0, 1.0, Vec::new()));
        }
        let queues = (0..8).map(|q| WormQueue { servers: 1, source: q < 4 }).collect();
        WormNetwork { links, queues, messages: 4.0, size, packets: 1.0, holding }
    }

    /// Verification: on one switch of four terminals the model is G&G's N = 4 fat-tree
    /// (eqs. 16, 17, 20, 24, 25) to rounding: the same contention (L − T0 against eq. 25's
    /// L − (B + D̄ − 1)) and the same eq. 26 saturation.
    #[test]
    fn one_switch_is_the_four_node_fat_tree() {
        let b = 8.0;
        let net = one_switch(Holding::Wormhole, b);
        for lam in [0.01, 0.04, 0.07] {
            let ours = net.predict(lam).unwrap();
            let gg = fat_tree::predict(&FatTree::new(4, lam, b)).unwrap();
            let theirs = gg.latency.unwrap() - (b + gg.mean_hops - 1.0);
            let mine = ours.network.contention.unwrap();
            assert!((mine - theirs).abs() < 1e-12 * theirs.max(1.0), "{lam}: {mine} {theirs}");
            assert!((ours.network.unloaded_latency - (b + 1.0)).abs() < 1e-12);
        }
        let (ours, theirs) =
            (net.max_rate().unwrap().0, fat_tree::predict(&FatTree::new(4, 0.01, b)).unwrap().max_rate);
        assert!((ours - theirs).abs() < 1e-9 * theirs, "{ours} {theirs}");
        assert!(net.predict(theirs * 1.001).unwrap().network.saturated);
    }

    /// A unidirectional ring of three routers, one terminal each, every terminal sending to
    /// the two others alike: links 0–2 the channels (channel i from router i to i + 1), 3–5
    /// inject, 6–8 eject. Channel i carries terminal i's messages (1) and terminal (i − 1)'s to
    /// i + 1 (½): it delivers 1 at router i + 1 and passes ½ on.
    fn ring3(holding: Holding, size: f64, hop: f64) -> WormNetwork {
        let mut links = Vec::new();
        for i in 0..3u32 {
            let turns = vec![((i + 1) % 3, 0.5), (6 + (i + 1) % 3, 1.0)];
            links.push(link(LinkKind::Channel, i, i, 1.5, hop, turns));
        }
        for s in 0..3u32 {
            links.push(link(LinkKind::Injection, s, 3 + s, 1.0, 0.0, vec![(s, 1.0)]));
        }
        for t in 0..3u32 {
            links.push(link(LinkKind::Ejection, t, 6 + t, 1.0, 0.0, Vec::new()));
        }
        let queues = (0..9).map(|q| WormQueue { servers: 1, source: (3..6).contains(&q) }).collect();
        WormNetwork { links, queues, messages: 3.0, size, packets: 1.0, holding }
    }

    /// Verification on a cycle of channels, derived by hand: on the ring of [`ring3`] a channel
    /// turns on into the next with R = 1/3, whose queue it feeds ½ of 3/2 (P = 2/3); an
    /// ejection has one input (P = 0). So y_c = (y_c + (2/3)W)/3, i.e. y_c = W/3, where W is
    /// eq. 6's at rate 1.5λ with x = b + W/3 (wormhole; x = b under cut-through): a scalar
    /// fixed point, solved here by bisection on its least root. The injection meets P = 1/3:
    /// y_inj = W/3 + W/3, and L = T0 + W_src + y_inj with T0 = B + 1.5·hop.
    #[test]
    fn ring_of_three_by_hand() {
        let (b, hop) = (6.0, 2.0);
        let mg1 = |l: f64, x: f64| l * x * x / (2.0 * (1.0 - l * x)) * (1.0 + (x - b).powi(2) / (x * x));
        for holding in [Holding::Wormhole, Holding::CutThrough] {
            let net = ring3(holding, b, hop);
            for lam in [0.01, 0.02, 0.03] {
                let x_of = |w: f64| if holding == Holding::Wormhole { b + w / 3.0 } else { b };
                // g(W) = eq. 6 at x(W) − W: positive at 0, its least root by bisection.
                let g = |w: f64| mg1(1.5 * lam, x_of(w)) - w;
                let (mut lo, mut hi) = (0.0, 1.0);
                while g(hi) > 0.0 {
                    hi *= 2.0;
                }
                for _ in 0..200 {
                    let mid = 0.5 * (lo + hi);
                    if g(mid) > 0.0 { lo = mid } else { hi = mid }
                }
                let w = 0.5 * (lo + hi);
                let y_inj = 2.0 * w / 3.0;
                let expect = match holding {
                    Holding::Wormhole => mg1(lam, b + y_inj) + y_inj,
                    Holding::CutThrough => lam * b * b / (2.0 * (1.0 - lam * b)) + y_inj,
                };
                let p = net.predict(lam).unwrap();
                let got = p.network.contention.unwrap_or_else(|| {
                    panic!("{holding:?} {lam} {:?}", net.solver().unwrap().solve(lam).failed)
                });
                assert!((got - expect).abs() < 1e-9 * expect, "{holding:?} {lam}: {got} {expect}");
                assert!((p.network.unloaded_latency - (b + 1.5 * hop)).abs() < 1e-12);
                assert!((p.network.mean_hops - 1.5).abs() < 1e-12);
            }
        }
    }

    /// Characterisation: the model saturates where it stops settling, below the bandwidth
    /// bound (1/(1.5·b) on the ring), wormhole before cut-through, and reports what fails.
    #[test]
    fn saturation_is_below_the_bandwidth_bound() {
        let b = 6.0;
        let worm = ring3(Holding::Wormhole, b, 1.0);
        let cut = ring3(Holding::CutThrough, b, 1.0);
        let (bound, _) = worm.bandwidth_rate();
        assert!((bound - 1.0 / (1.5 * b)).abs() < 1e-12);
        let (mw, why) = worm.max_rate().unwrap();
        let (mc, _) = cut.max_rate().unwrap();
        assert!(mw < mc && mc <= bound * (1.0 + 1e-9), "{mw} {mc} {bound}");
        assert!(!why.is_empty());
        let sat = worm.predict((mw * 1.01).min(1.0)).unwrap();
        assert!(sat.network.saturated && sat.network.latency.is_none() && sat.detail.links.is_none());
        assert_eq!(sat.network.throughput, mw);
    }

    /// Verification of the classes ([`WormSolver`]): on a ring of six routers (two channels
    /// a router: the ring's and a chord to the router three on; every link alike but for its
    /// place) the links fall into a few classes, and the solution and saturation on them are
    /// the plain iteration's, every link its own class, to 10⁻¹² (the iterates agree but for
    /// rounding). Breaking the symmetry (one terminal sending twice as much) splits the
    /// classes and still agrees.
    #[test]
    fn classes_give_the_plain_iteration() {
        let ring = |skew: f64| {
            let n = 6u32;
            // Links: channel i (ring i → i+1) = i, chord i (i → i+3) = n + i, injection s =
            // 2n + s, ejection t = 3n + t. Terminal s sends to s+1 (ring), s+3 (chord), s+4
            // (chord then ring) at rates 1/3 each, times `skew` for terminal 0.
            let mut links = Vec::new();
            let rate = |s: u32| if s == 0 { skew } else { 1.0 };
            for i in 0..n {
                let through = rate((i + n - 3) % n) / 3.0; // chord into i, then the ring
                let own = rate(i) / 3.0;
                let turns = vec![(3 * n + (i + 1) % n, own + through)];
                links.push(link(LinkKind::Channel, i, i, own + through, 1.0, turns));
            }
            for i in 0..n {
                let turns = vec![(3 * n + (i + 3) % n, rate(i) / 3.0), ((i + 3) % n, rate(i) / 3.0)];
                links.push(link(LinkKind::Channel, n + i, n + i, 2.0 * rate(i) / 3.0, 1.0, turns));
            }
            for s in 0..n {
                let turns = vec![(s, rate(s) / 3.0), (n + s, 2.0 * rate(s) / 3.0)];
                links.push(link(LinkKind::Injection, s, 2 * n + s, rate(s), 0.0, turns));
            }
            for t in 0..n {
                let arriving =
                    rate((t + n - 1) % n) / 3.0 + rate((t + n - 3) % n) / 3.0 + rate((t + n - 4) % n) / 3.0;
                links.push(link(LinkKind::Ejection, t, 3 * n + t, arriving, 0.0, Vec::new()));
            }
            let queues =
                (0..4 * n).map(|q| WormQueue { servers: 1, source: (2 * n..3 * n).contains(&q) }).collect();
            let total = (0..n).map(rate).sum();
            WormNetwork {
                links,
                queues,
                messages: total,
                size: 8.0,
                packets: 1.0,
                holding: Holding::Wormhole,
            }
        };
        for (skew, expect) in [(1.0, Some(4)), (2.0, None)] {
            let net = ring(skew);
            let fast = net.solver().unwrap();
            let mut plain = WormSolver::prepare(&net, false);
            (plain.saturation.max_rate, plain.saturation.limiting) = plain.max_rate();
            let (classes, _) = fast.classes();
            assert_eq!(plain.classes().0, net.links.len());
            match expect {
                Some(c) => assert_eq!(classes, c),
                None => assert!(classes > 4 && classes < net.links.len(), "{classes}"),
            }
            let (a, b) = (fast.saturation().max_rate, plain.saturation().max_rate);
            assert!((a - b).abs() <= 1e-12 * b, "{skew}: {a} vs {b}");
            for f in [0.3, 0.6, 0.9] {
                let (p, q) = (fast.predict(f * b).unwrap(), plain.predict(f * b).unwrap());
                let (x, y) = (p.network.latency.unwrap(), q.network.latency.unwrap());
                assert!((x - y).abs() <= 1e-12 * y, "{skew} {f}: {x} vs {y}");
                for (l, m) in p.detail.links.unwrap().iter().zip(q.detail.links.unwrap()) {
                    assert!((l.service_time - m.service_time).abs() <= 1e-12 * m.service_time);
                }
            }
        }
    }

    /// A chain of 250 channels from one terminal to another: refinement splits one link a
    /// round from the ejection back, more rounds than [`MAX_ROUNDS`], so every link is its own
    /// class, and the solution is the plain iteration's.
    #[test]
    fn a_long_chain_gives_way_to_every_link_its_own_class() {
        let n = 250u32;
        let mut links: Vec<WormLink> =
            (0..n).map(|i| link(LinkKind::Channel, i, i, 1.0, 1.0, vec![(i + 1, 1.0)])).collect();
        links[n as usize - 1].turns = vec![(n + 1, 1.0)];
        links.push(link(LinkKind::Injection, 0, n, 1.0, 0.0, vec![(0, 1.0)]));
        links.push(link(LinkKind::Ejection, 0, n + 1, 1.0, 0.0, Vec::new()));
        let queues = (0..n + 2).map(|q| WormQueue { servers: 1, source: q == n }).collect();
        let net =
            WormNetwork { links, queues, messages: 1.0, size: 4.0, packets: 1.0, holding: Holding::Wormhole };
        let fast = net.solver().unwrap();
        assert_eq!(fast.classes(), (n as usize + 2, n as usize + 2));
        let mut plain = WormSolver::prepare(&net, false);
        (plain.saturation.max_rate, plain.saturation.limiting) = plain.max_rate();
        assert_eq!(fast.saturation().max_rate, plain.saturation().max_rate);
        let rate = 0.5 * plain.saturation().max_rate;
        let (p, q) = (fast.predict(rate).unwrap(), plain.predict(rate).unwrap());
        assert_eq!(p.network.latency, q.network.latency);
        assert!(p.detail.links == q.detail.links, "the links differ");
    }
}
