//! Greenberg & Guan's wormhole model applied to the butterfly fat-tree:
//! the general model of §2 (eqs. 1–11) specialised to the fat-tree's channels (eqs. 12–25)
//! and the maximum throughput of eq. 26.
//!
//! Channels are named ⟨i, j⟩ from level i to level j; processors are level 0, switches
//! levels 1..=n with N = 4ⁿ. All up (or all down) channels between two levels are
//! equivalent, so one service time x and one wait W per kind of channel suffice. Service
//! times are resolved backwards from the ejection channel ⟨1, 0⟩ (x = B, the worm length in
//! flits) down the tree, then up the tree to the injection channel ⟨0, 1⟩, whose service
//! time includes every later wait (the long-worm assumption).
//!
//! Decisions where the paper leaves room, each selectable and tested both ways:
//!
//! - **The M/G/2 arrival rate** ([`Mg2Rate`]). Eqs. 21 and 23 feed the per-link rate
//!   λ_{l−1,l} to the two-server formula, but the manuscript carries the author's note
//!   "Correction: Insert: 2" at both, and eq. 22's blocking factor
//!   1 − (λ_{l−1,l}/λ_{l,l+1})·P↑ is eq. 10 with m = 2 only if the outgoing "channel" (the
//!   pair of up links) carries 2λ_{l,l+1}. So by default the two-server queue is fed 2λ
//!   ([`Mg2Rate::Pair`]); [`Mg2Rate::PerLink`] is the text as printed, under which a
//!   single link would count as stable up to λ·x̄ = 2, busy twice over.
//! - **The turn probability in eq. 22** ([`TurnProbability`]). Eq. 22 weights the up and
//!   down branches at level l by P↑_l and P↓_l of eq. 12, which are probabilities for a
//!   message leaving a processor. A message that has already climbed to level l goes up
//!   with probability P↑_l/P↑_{l−1}. By default we follow the printed equation
//!   ([`TurnProbability::Printed`]); [`TurnProbability::Conditional`] uses the conditional one.
//! - **The range of eq. 22.** The text says 1 ≤ l < n − 1, which would leave channel
//!   ⟨n−2, n−1⟩ undefined; we apply it for 1 ≤ l ≤ n − 1. Eq. 20 is eq. 22 at l = n
//!   (P↑_n = 0), which is how it is computed, and which covers N = 4 (n = 1).
//! - The fat-tree's "utilization" is that of the injection channel, λ0·x̄_{0,1}: eq. 26's
//!   saturation is where it reaches 1.

use crate::error::{Domain, ModelError, check, check_range};
use serde::Serialize;

/// What rate the two-server (paired up-link) queues of eqs. 21 and 23 are fed.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Serialize,
    serde::Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Mg2Rate {
    /// 2λ: both up links' messages join one two-server queue (the manuscript's correction).
    #[default]
    Pair,
    /// λ of one link, as eqs. 21 and 23 are printed.
    PerLink,
}

/// Which probability of going up weights eq. 22's branches.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Serialize,
    serde::Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum TurnProbability {
    /// P↑_l of eq. 12, as eq. 22 is printed.
    #[default]
    Printed,
    /// P↑_l / P↑_{l−1}: the probability for a message that has reached level l.
    Conditional,
}

/// Inputs of the fat-tree model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FatTree {
    /// Processors N = 4ⁿ.
    pub nodes: u64,
    /// λ0: messages injected per processor per cycle (Poisson).
    pub rate: f64,
    /// Worm length s/f in flits.
    pub size: f64,
    /// Arrival rate of the two-server queues.
    pub mg2_rate: Mg2Rate,
    /// Turn probability in eq. 22.
    pub turn: TurnProbability,
}

impl FatTree {
    /// The model with the default readings.
    pub fn new(nodes: u64, rate: f64, size: f64) -> Self {
        FatTree { nodes, rate, size, mg2_rate: Mg2Rate::Pair, turn: TurnProbability::Printed }
    }
}

/// One kind of channel at the solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Channel {
    /// Level the channel starts at.
    pub from: u32,
    /// Level it ends at.
    pub to: u32,
    /// Messages per cycle on one such link (eqs. 14–15).
    pub rate: f64,
    /// Mean service time x̄ (eqs. 16, 18, 20, 22).
    pub service_time: f64,
    /// Mean wait W̄ for the channel (eqs. 17, 19, 21, 23, 24); `None` when its queue is unstable.
    pub waiting_time: Option<f64>,
    /// Servers of the queue model: 1 (M/G/1) or 2 (the paired up links, M/G/2).
    pub servers: u32,
}

/// What the fat-tree model predicts; the field names match the other models.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FatTreePrediction {
    /// Levels n = log₄ N.
    pub levels: u32,
    /// Injection-channel utilisation λ0·x̄_{0,1}.
    pub utilization: f64,
    /// Mean latency L̄ = W̄_{0,1} + x̄_{0,1} + D̄ − 1 (eq. 25); `None` when saturated.
    pub latency: Option<f64>,
    /// Unloaded latency B + D̄ − 1.
    pub unloaded_latency: f64,
    /// Accepted messages per processor per cycle.
    pub throughput: f64,
    /// Offered λ0.
    pub offered: f64,
    /// True when some queue is unstable or λ0·x̄_{0,1} ≥ 1.
    pub saturated: bool,
    /// The channel whose queue is unstable, if any, as "⟨i,j⟩".
    pub limiting_channel: Option<String>,
    /// Maximum throughput λ0 where x̄_{0,1} = 1/λ0 (eq. 26), messages per processor per cycle.
    pub max_rate: f64,
    /// Mean distance D̄ in links.
    pub mean_hops: f64,
    /// Every kind of channel at the solution, injection first.
    pub channels: Vec<Channel>,
    /// A note when the worm is shorter than the diameter 2n (the model assumes longer).
    pub note: Option<String>,
}

/// P↑_l = (4ⁿ − 4ˡ)/(4ⁿ − 1): the probability a message goes up from level l (eq. 12).
pub fn p_up(levels: u32, l: u32) -> f64 {
    let big = 4f64.powi(levels as i32);
    (big - 4f64.powi(l as i32)) / (big - 1.0)
}

/// λ_{l,l+1} = λ_{l+1,l} = λ0 · P↑_l · 2ˡ (eqs. 14–15).
pub fn link_rate(levels: u32, l: u32, rate: f64) -> f64 {
    rate * p_up(levels, l) * 2f64.powi(l as i32)
}

/// D̄ = Σ_{l=0}^{n−1} 2·P↑_l: a message crosses each level it climbs twice.
pub fn mean_distance(levels: u32) -> f64 {
    (0..levels).map(|l| 2.0 * p_up(levels, l)).sum()
}

/// M/G/1 wait with Draper and Ghosh's service variance (eq. 6):
/// W = λx²/(2(1 − λx)) · [1 + (x − B)²/x²]; `None` when λx ≥ 1.
pub fn wait_mg1(rate: f64, service: f64, size: f64) -> Option<f64> {
    let rho = rate * service;
    (rho < 1.0).then(|| rate * service * service / (2.0 * (1.0 - rho)) * cb2(service, size))
}

/// M/G/2 wait after Hokstad (eq. 8): W = λ²x³/(2(4 − λ²x²)) · [1 + (x − B)²/x²], with λ
/// the total arrival rate to both servers; `None` when λx ≥ 2.
pub fn wait_mg2(rate: f64, service: f64, size: f64) -> Option<f64> {
    let a = rate * service;
    (a < 2.0).then(|| rate * rate * service.powi(3) / (2.0 * (4.0 - a * a)) * cb2(service, size))
}

/// 1 + C_b² with C_b² = (x − B)²/x² (eq. 5).
fn cb2(service: f64, size: f64) -> f64 {
    1.0 + (service - size).powi(2) / (service * service)
}

/// The levels n with N = 4ⁿ, or an error naming the valid sizes: 4 to 4^26 = 2^52, the
/// largest power of four within the models' limit of 2^53 nodes
/// ([`crate::kary_ncube::MAX_NODES`]).
pub fn levels(nodes: u64) -> Result<u32, ModelError> {
    let n = (1..=26).find(|&n| 4u64.pow(n) == nodes);
    n.ok_or_else(|| {
        ModelError::Invalid(format!(
            "a butterfly fat-tree has N = 4^n processors (4, 16, 64, 256, 1024, …, up to 4^26 = 2^52); {nodes} is not one"
        ))
    })
}

/// Resolves every channel's service and waiting time at rate λ0 (eqs. 14–24). Returns the
/// channels (injection first) and the first unstable one, if any.
fn resolve(p: &FatTree, n: u32, rate: f64) -> (Vec<Channel>, Option<String>) {
    let b = p.size;
    let mut unstable: Option<String> = None;
    let mut note_unstable = |w: Option<f64>, from: u32, to: u32| {
        if w.is_none() && unstable.is_none() {
            unstable = Some(format!("<{from},{to}>"));
        }
        w.unwrap_or(f64::INFINITY)
    };
    // Down channels ⟨l+1, l⟩ for l = 0..n: index l.
    let mut down: Vec<Channel> = Vec::with_capacity(n as usize);
    for l in 0..n {
        let lam = link_rate(n, l, rate);
        let x = if l == 0 {
            b // eq. 16
        } else {
            let prev = &down[l as usize - 1];
            let w_prev = prev.waiting_time.unwrap_or(f64::INFINITY);
            let ratio = link_rate(n, l, 1.0) / link_rate(n, l - 1, 1.0);
            prev.service_time + (1.0 - 0.25 * ratio) * w_prev // eq. 18
        };
        let w = wait_mg1(lam, x, b); // eqs. 17, 19
        note_unstable(w, l + 1, l);
        down.push(Channel { from: l + 1, to: l, rate: lam, service_time: x, waiting_time: w, servers: 1 });
    }
    // Up channels ⟨l−1, l⟩ for l = n..=1, by eq. 22 (eq. 20 is its l = n case).
    let mut up: Vec<Channel> = Vec::with_capacity(n as usize);
    for l in (1..=n).rev() {
        let lam = link_rate(n, l - 1, rate);
        let pu = match p.turn {
            TurnProbability::Printed => p_up(n, l),
            TurnProbability::Conditional => p_up(n, l) / p_up(n, l - 1),
        };
        let pd = 1.0 - pu;
        let d = &down[l as usize - 1];
        let mut x = (d.service_time + (1.0 - pd / 3.0) * d.waiting_time.unwrap_or(f64::INFINITY)) * pd;
        if let Some(next) = up.last() {
            let w_next = next.waiting_time.unwrap_or(f64::INFINITY);
            let ratio = link_rate(n, l - 1, 1.0) / link_rate(n, l, 1.0);
            x += (next.service_time + (1.0 - ratio * pu) * w_next) * pu;
        }
        let (w, servers) = if l == 1 {
            (wait_mg1(lam, x, b), 1) // eq. 24
        } else {
            let total = match p.mg2_rate {
                Mg2Rate::Pair => 2.0 * lam,
                Mg2Rate::PerLink => lam,
            };
            (wait_mg2(total, x, b), 2) // eqs. 21, 23
        };
        note_unstable(w, l - 1, l);
        up.push(Channel { from: l - 1, to: l, rate: lam, service_time: x, waiting_time: w, servers });
    }
    up.reverse();
    up.extend(down);
    (up, unstable)
}

/// Evaluates the fat-tree model: latency by eq. 25 at λ0 = `p.rate`, and the maximum
/// throughput of eq. 26 found by bisection on λ0 over the stable region (x̄_{0,1} grows
/// with λ0 while 1/λ0 falls, so the crossing is unique).
pub fn predict(p: &FatTree) -> Result<FatTreePrediction, ModelError> {
    let n = levels(p.nodes)?;
    check("the injection rate λ0", p.rate, Domain::Probability)?;
    check_range("the worm length in flits", p.size, 1.0, 1e9)?;
    let stable = |rate: f64| {
        let (ch, unstable) = resolve(p, n, rate);
        unstable.is_none() && rate * ch[0].service_time < 1.0
    };
    let (mut lo, mut hi) = (0.0, 1.0 / p.size);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if stable(mid) {
            lo = mid
        } else {
            hi = mid
        }
        if hi - lo <= 1e-15 * hi {
            break;
        }
    }
    let max_rate = lo;
    let (channels, unstable) = resolve(p, n, p.rate);
    let inj = &channels[0];
    let utilization = p.rate * inj.service_time;
    let saturated = unstable.is_some() || utilization >= 1.0;
    let mean_hops = mean_distance(n);
    let latency = (!saturated).then(|| inj.waiting_time.unwrap_or(0.0) + inj.service_time + mean_hops - 1.0);
    let diameter = 2 * n;
    let note = (p.size < diameter as f64).then(|| {
        format!(
            "worms of {} flits are shorter than the diameter {diameter}: the model assumes longer worms",
            p.size
        )
    });
    Ok(FatTreePrediction {
        levels: n,
        utilization,
        latency,
        unloaded_latency: p.size + mean_hops - 1.0,
        throughput: if saturated { max_rate } else { p.rate },
        offered: p.rate,
        saturated,
        limiting_channel: unstable.or_else(|| saturated.then(|| "<0,1>".to_string())),
        max_rate,
        mean_hops,
        channels,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lat(p: &FatTree) -> f64 {
        predict(p).unwrap().latency.unwrap()
    }

    /// D̄ from the fat-tree's addressing: the lowest common ancestor of leaves a and b is at
    /// the smallest h with ⌊a/4^h⌋ = ⌊b/4^h⌋, and the path has 2h links.
    #[test]
    fn mean_distance_by_enumeration() {
        for n in 1..=4u32 {
            let big = 4u64.pow(n);
            let mut total = 0u64;
            for a in 0..big {
                for b in (0..big).filter(|&b| b != a) {
                    let h = (1..=n).find(|&h| a / 4u64.pow(h) == b / 4u64.pow(h)).unwrap();
                    total += 2 * h as u64;
                }
            }
            let exact = total as f64 / (big * (big - 1)) as f64;
            assert!((mean_distance(n) - exact).abs() < 1e-12, "n = {n}");
        }
    }

    /// Eq. 14: the rate on every level's links times their number is the traffic crossing it.
    #[test]
    fn link_rates_conserve_traffic() {
        let (n, rate) = (3u32, 0.01);
        assert_eq!(link_rate(n, 0, rate), rate);
        for l in 1..n {
            let links = 4f64.powi(n as i32) / 2f64.powi(l as i32);
            let crossing = 4f64.powi(n as i32) * rate * p_up(n, l);
            assert!((link_rate(n, l, rate) * links - crossing).abs() < 1e-12);
        }
    }

    #[test]
    fn zero_load_latency_is_worm_plus_distance() {
        for nodes in [4, 16, 64, 256, 1024] {
            let p = predict(&FatTree::new(nodes, 0.0, 32.0)).unwrap();
            assert!((p.latency.unwrap() - (32.0 + p.mean_hops - 1.0)).abs() < 1e-12);
        }
    }

    /// N = 4 (one switch) worked by hand: x⟨1,0⟩ = B, W⟨1,0⟩ = λB²/(2(1 − λB)),
    /// x⟨0,1⟩ = B + (2/3)W⟨1,0⟩ (eq. 20 = eq. 22 at l = n), L = W⟨0,1⟩ + x⟨0,1⟩ + 2 − 1.
    #[test]
    fn four_nodes_by_hand() {
        let (lam, b): (f64, f64) = (0.05, 4.0);
        let w10 = lam * b * b / (2.0 * (1.0 - lam * b));
        let x01 = b + 2.0 / 3.0 * w10;
        let w01 = lam * x01 * x01 / (2.0 * (1.0 - lam * x01)) * (1.0 + (x01 - b).powi(2) / (x01 * x01));
        assert!((lat(&FatTree::new(4, lam, b)) - (w01 + x01 + 1.0)).abs() < 1e-12);
    }

    /// N = 16 worked by hand with both M/G/2 readings.
    #[test]
    fn sixteen_nodes_by_hand() {
        let (lam, b): (f64, f64) = (0.02, 8.0);
        let pu1 = (16.0 - 4.0) / 15.0;
        let l12 = lam * pu1 * 2.0;
        let mg1 = |l: f64, x: f64| l * x * x / (2.0 * (1.0 - l * x)) * (1.0 + (x - b).powi(2) / (x * x));
        let mg2 = |l: f64, x: f64| {
            l * l * x.powi(3) / (2.0 * (4.0 - l * l * x * x)) * (1.0 + (x - b).powi(2) / (x * x))
        };
        let (x10, w10) = (b, mg1(lam, b));
        let x21 = x10 + (1.0 - 0.25 * l12 / lam) * w10;
        let w21 = mg1(l12, x21);
        let x12 = x21 + 2.0 / 3.0 * w21;
        for (pair, factor) in [(Mg2Rate::Pair, 2.0), (Mg2Rate::PerLink, 1.0)] {
            let w12 = mg2(factor * l12, x12);
            let x01 = (x12 + (1.0 - lam / l12 * pu1) * w12) * pu1
                + (x10 + (1.0 - (1.0 - pu1) / 3.0) * w10) * (1.0 - pu1);
            let expect = mg1(lam, x01) + x01 + 2.0 * (1.0 + pu1) - 1.0;
            let p = FatTree { mg2_rate: pair, ..FatTree::new(16, lam, b) };
            assert!((lat(&p) - expect).abs() < 1e-12, "{pair:?}");
        }
    }

    /// Eq. 26 holds at the maximum throughput, and the latency grows without bound there.
    #[test]
    fn max_throughput_meets_eq26() {
        for (nodes, b) in [(64u64, 16.0), (1024, 32.0), (1024, 64.0)] {
            let p = predict(&FatTree::new(nodes, 0.001, b)).unwrap();
            let at = predict(&FatTree::new(nodes, p.max_rate * (1.0 - 1e-9), b)).unwrap();
            let x01 = at.channels[0].service_time;
            assert!((x01 * p.max_rate - 1.0).abs() < 1e-4 || at.limiting_channel.is_some(), "{x01}");
            assert!(predict(&FatTree::new(nodes, p.max_rate * 1.001, b)).unwrap().saturated);
            let near = predict(&FatTree::new(nodes, p.max_rate * 0.999, b)).unwrap();
            assert!(near.latency.unwrap() > 3.0 * near.unloaded_latency);
            // Throughput in flits per processor per cycle below one.
            assert!(p.max_rate * b < 1.0);
        }
    }

    #[test]
    fn readings_differ_where_it_matters() {
        let base = FatTree::new(1024, 0.001, 32.0);
        let pair = predict(&base).unwrap();
        let per = predict(&FatTree { mg2_rate: Mg2Rate::PerLink, ..base.clone() }).unwrap();
        let cond = predict(&FatTree { turn: TurnProbability::Conditional, ..base }).unwrap();
        assert!(per.max_rate > pair.max_rate, "a half-loaded M/G/2 saturates later");
        assert!(per.latency.unwrap() < pair.latency.unwrap());
        assert!(cond.latency.unwrap() != pair.latency.unwrap());
    }

    #[test]
    fn latency_increases_with_load_and_saturates() {
        let mut last = 0.0;
        for i in 1..20 {
            let p = predict(&FatTree::new(256, i as f64 * 0.001, 16.0)).unwrap();
            if let Some(l) = p.latency {
                assert!(l > last);
                last = l;
            } else {
                assert!(p.saturated && p.throughput == p.max_rate);
            }
        }
    }

    #[test]
    fn rejects_bad_sizes() {
        for nodes in [0, 1, 2, 8, 100, 1000, 1 << 54, u64::MAX, (1 << 62) + 1] {
            assert!(predict(&FatTree::new(nodes, 0.01, 16.0)).is_err(), "{nodes}");
        }
        assert_eq!(levels(1 << 52), Ok(26));
        for rate in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(predict(&FatTree::new(64, rate, 16.0)).is_err(), "{rate}");
        }
        for size in [0.5, 2e9, f64::NAN, f64::NEG_INFINITY] {
            assert!(predict(&FatTree::new(64, 0.001, size)).is_err(), "{size}");
        }
        assert!(predict(&FatTree::new(64, 0.1, 0.0)).is_err());
        assert!(predict(&FatTree::new(64, 0.01, 2.0)).unwrap().note.is_some());
    }
}
