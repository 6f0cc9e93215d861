//! Constrained design search: the question of the homework's Ex 7 for any inputs. Given N, a workload
//! (m, message length L in bits, locality l), a constraint on the channel width (pins per
//! switch, bisection wires, or a fixed width) and optionally switch and wire delays,
//! enumerate the k-ary n-cubes that satisfy it and rank them by predicted latency (or by
//! how far they are from saturation).
//!
//! Decisions:
//! - For each n = 1, 2, … the radix is the smallest whole k with kⁿ ≥ N, as the netwrap
//!   simulator rounds N up (the homework's App. A); candidates with kⁿ > N are marked
//!   `nodes_rounded` and can be excluded.
//! - Channel widths are whole bits (the constraint's width rounded down) and messages whole
//!   flits, B = ⌈L/W⌉ (the homework's Ex 7: "B = 11 when the channel widths are chosen to be 96").
//!   `fractional_flits` uses L/W instead, as Agarwal 1991's figures do.
//! - The contention form is [`ContentionForm::Auto`], App. B's rule as
//!   [`kary_ncube::predict`] applies it to every model command: eq. 8's (k_d − 1)/k_d² when
//!   the distance per dimension (k_dl with locality) exceeds 2, the small-k_d form otherwise
//!   (zero below k_d = ½, where it would turn negative).
//! - N is at most [`kary_ncube::MAX_NODES`] = 2^53, as for every model; candidates whose
//!   radix does not fit a `u32` (the ring of a network of more than 2^32 nodes) or whose
//!   rounded-up size kⁿ exceeds 2^53 are skipped.
//! - With switch/wire delays the ranking uses eq. 12's latency in units of T^w(2);
//!   without, latency in cycles (Ex 7 says "ignore issues of wire length"). A wire
//!   proportional to the channel width (Agarwal 1991 §4.2) takes each candidate's whole-bit W.
//! - The result is a list of [`Candidate`]s so that a simulator check can be added to the
//!   top few without changing the search.

use crate::agarwal::{self, Delays, WidthConstraint};
use crate::error::{Domain, ModelError, check, check_range};
use crate::kary_ncube::{self, ContentionForm, KaryNCube, Prediction, Wiring};
use serde::Serialize;

/// What to rank candidates by.
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
pub enum RankBy {
    /// Lowest predicted latency first; saturated candidates last.
    #[default]
    Latency,
    /// Largest saturation margin (max rate / offered rate) first.
    Margin,
}

/// A design question.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignQuery {
    /// Processors N.
    pub nodes: u64,
    /// Request rate m, messages per node per cycle.
    pub rate: f64,
    /// Message length L in bits.
    pub bits: f64,
    /// Locality fraction l.
    pub locality: f64,
    /// How the channel width is limited.
    pub constraint: WidthConstraint,
    /// Switch and wire delays; `None` counts latency in cycles. A wire proportional to the
    /// channel width (Agarwal 1991 §4.2) is taken at each candidate's W, whatever W it holds
    /// here (the requests write 1, the unit width T^w(2) is normalised to).
    pub delays: Option<Delays>,
    /// Channels both ways (bidirectional torus) instead of one way.
    pub bidirectional: bool,
    /// Use B = L/W instead of ⌈L/W⌉.
    pub fractional_flits: bool,
    /// Only networks with exactly N nodes.
    pub exact_nodes: bool,
    /// Ranking order.
    pub rank_by: RankBy,
}

/// One network that satisfies the constraint, with its prediction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// Dimensions n.
    pub n: u32,
    /// Radix k.
    pub k: u32,
    /// kⁿ nodes.
    pub nodes: u64,
    /// True when kⁿ > N.
    pub nodes_rounded: bool,
    /// Channel width W in bits.
    pub width: f64,
    /// Message length B in flits.
    pub flits: f64,
    /// Contention form used (the one `auto` chose; also in the prediction).
    pub form: ContentionForm,
    /// The k-ary n-cube model's prediction (latency in cycles).
    pub prediction: Prediction,
    /// Clock period s + T^w(n)/T^w(2) when delays are given.
    pub clock_period: Option<f64>,
    /// Latency in units of T^w(2) (eq. 12) when delays are given.
    pub latency_time: Option<f64>,
    /// How many times the offered rate the network can carry (max_rate / m).
    pub saturation_margin: f64,
}

impl Candidate {
    /// The latency the ranking uses: eq. 12's time with delays, cycles without.
    pub fn ranking_latency(&self) -> Option<f64> {
        self.latency_time.or(self.prediction.latency)
    }
}

/// Enumerates and ranks the k-ary n-cubes for `q` (see the module docs).
pub fn search(q: &DesignQuery) -> Result<Vec<Candidate>, ModelError> {
    if q.nodes < 2 {
        return Err(ModelError::Invalid(format!(
            "N = {} is too small: a network needs at least 2 nodes",
            q.nodes
        )));
    }
    if q.nodes > kary_ncube::MAX_NODES {
        return Err(ModelError::Invalid(format!(
            "N = {} is more than the 2^53 nodes the models accept (2^53 keeps N exact in floating point)",
            q.nodes
        )));
    }
    check("the request rate m", q.rate, Domain::Fraction)?;
    check_range("the message length in bits", q.bits, 1.0, 1e12)?;
    check("the locality fraction l", q.locality, Domain::Fraction)?;
    if let Some(d) = &q.delays {
        d.validate()?;
    }
    let wiring = if q.bidirectional { Wiring::BidirectionalTorus } else { Wiring::UnidirectionalTorus };
    let mut out = Vec::new();
    // Why the last candidate the model could not predict was dropped (e.g. a locality below
    // 1/N): the error to give when every candidate was.
    let mut unpredictable = None;
    let mut n = 1u32;
    loop {
        let k = whole_radix(q.nodes, n);
        // Rounding N up to k^n can overshoot far (4^33 = 2^66 for N = 2^53): such networks,
        // beyond the models' limit, are skipped like radices that do not fit a u32.
        let nodes = k.checked_pow(n).filter(|&v| v <= kary_ncube::MAX_NODES);
        if let (Ok(k), Some(nodes)) = (u32::try_from(k), nodes)
            && !(q.exact_nodes && nodes != q.nodes)
            && let Some(c) = candidate(q, n, k, nodes, wiring, &mut unpredictable)?
        {
            out.push(c);
        }
        if k == 2 {
            break;
        }
        n += 1;
    }
    if out.is_empty()
        && let Some(why) = unpredictable
    {
        return Err(ModelError::Invalid(format!(
            "the model cannot predict any k-ary n-cube with N = {}: {why}",
            q.nodes
        )));
    }
    if out.is_empty() {
        return Err(ModelError::Invalid(format!(
            "no k-ary n-cube with N = {} satisfies the constraint of {} with at least 1-bit channels",
            q.nodes, q.constraint
        )));
    }
    let key = |c: &Candidate| c.ranking_latency().unwrap_or(f64::INFINITY);
    match q.rank_by {
        RankBy::Latency => out.sort_by(|a, b| {
            key(a).total_cmp(&key(b)).then(b.saturation_margin.total_cmp(&a.saturation_margin))
        }),
        RankBy::Margin => out.sort_by(|a, b| {
            b.saturation_margin.total_cmp(&a.saturation_margin).then(key(a).total_cmp(&key(b)))
        }),
    }
    Ok(out)
}

/// The smallest whole k ≥ 2 with kⁿ ≥ N (as a `u64`: for n = 1 it is N itself).
pub fn whole_radix(nodes: u64, n: u32) -> u64 {
    let mut k = ((nodes as f64).powf(1.0 / n as f64).round() as u64).max(2);
    while k > 2 && (k - 1).checked_pow(n).is_none_or(|v| v >= nodes) {
        k -= 1;
    }
    while k.checked_pow(n).is_some_and(|v| v < nodes) {
        k += 1;
    }
    k
}

fn candidate(
    q: &DesignQuery,
    n: u32,
    k: u32,
    nodes: u64,
    wiring: Wiring,
    unpredictable: &mut Option<ModelError>,
) -> Result<Option<Candidate>, ModelError> {
    let width =
        agarwal::channel_width(q.constraint, nodes as f64, k as f64, n, q.bidirectional, true)?.floor();
    if width < 1.0 {
        return Ok(None);
    }
    let flits = if q.fractional_flits { q.bits / width } else { (q.bits / width).ceil() };
    let params = KaryNCube { locality: q.locality, wiring, ..KaryNCube::new(k, n, q.rate, flits) };
    let prediction = match kary_ncube::predict(&params) {
        Ok(p) => p,
        // e.g. a locality subcube smaller than one node
        Err(e) => {
            *unpredictable = Some(e);
            return Ok(None);
        }
    };
    let form = prediction.contention_form;
    let clock_period = q.delays.map(|d| d.at_width(width).clock_period(k as f64, n));
    let latency_time = match (clock_period, prediction.latency) {
        (Some(c), Some(t)) => Some(c * t),
        _ => None,
    };
    Ok(Some(Candidate {
        n,
        k,
        nodes,
        nodes_rounded: nodes != q.nodes,
        width,
        flits,
        form,
        saturation_margin: prediction.max_rate / q.rate,
        prediction,
        clock_period,
        latency_time,
    }))
}

/// The homework's Ex 7: N = 64, a 384-pin switch, m = 0.015, 1024-bit messages, l = 0.5,
/// ranked by latency in cycles (wire length ignored).
pub fn exercise_7() -> DesignQuery {
    DesignQuery {
        nodes: 64,
        rate: 0.015,
        bits: 1024.0,
        locality: 0.5,
        constraint: WidthConstraint::Pins { pins: 384.0 },
        delays: None,
        bidirectional: false,
        fractional_flits: false,
        exact_nodes: false,
        rank_by: RankBy::Latency,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex7() -> DesignQuery {
        exercise_7()
    }

    /// Regression: a locality below 1/N made every candidate unpredictable, and the search
    /// blamed the width constraint ("no k-ary n-cube satisfies the constraint of 384 pins").
    #[test]
    fn a_locality_no_candidate_can_take_is_named() {
        let q = DesignQuery { locality: 1e-300, ..ex7() };
        let e = search(&q).unwrap_err().to_string();
        assert!(e.contains("cannot predict any k-ary n-cube with N = 64") && e.contains("locality"), "{e}");
        assert!(!e.contains("pins"), "{e}");
    }

    #[test]
    fn whole_radix_is_smallest() {
        // Verification by definition: k^n >= N > (k-1)^n.
        for (nodes, n, k) in
            [(64, 1, 64), (64, 2, 8), (64, 3, 4), (64, 4, 3), (64, 6, 2), (1000, 3, 10), (1001, 3, 11)]
        {
            assert_eq!(whole_radix(nodes, n), k, "{nodes} {n}");
        }
    }

    /// The homework's Ex 7 (N = 64, 384 pins, m = 0.015, 1024-bit messages, l = 0.5): the 2-D
    /// switch of the exercise's figure has W = 96 and B = 11; the best design is the 4-ary
    /// 3-cube with W = 64, B = 16, T ≈ 25.0 cycles, ahead of the 8-ary 2-cube (≈ 27.4);
    /// the ring saturates.
    #[test]
    fn exercise7() {
        let c = search(&ex7()).unwrap();
        let two = c.iter().find(|c| c.n == 2).unwrap();
        assert_eq!((two.k, two.width, two.flits), (8, 96.0, 11.0));
        let best = &c[0];
        assert_eq!((best.n, best.k, best.width, best.flits), (3, 4, 64.0, 16.0));
        // By hand: k_dl = (0.5^(1/3)·4 − 1)/2, ρ = m·B·k_dl, App. B small-k_d form.
        let kd = (0.5f64.powf(1.0 / 3.0) * 4.0 - 1.0) / 2.0;
        let rho = 0.015 * 16.0 * kd;
        let w = rho * 16.0 / (1.0 - rho) * (kd - 0.5) / ((kd + 0.5) * (kd + 0.5)) * (4.0 / 3.0);
        assert!((best.prediction.latency.unwrap() - ((1.0 + w) * 3.0 * kd + 16.0)).abs() < 1e-9);
        assert!((best.prediction.latency.unwrap() - 25.0).abs() < 0.05);
        // Eq. 8's form instead (k_d ≈ 1.09 < 2, outside its stated range) gives ≈ 21.1:
        // the 3-cube wins under either reading.
        let large = kary_ncube::predict(&KaryNCube {
            locality: 0.5,
            form: ContentionForm::LargeKd,
            ..KaryNCube::new(4, 3, 0.015, 16.0)
        })
        .unwrap();
        assert_eq!(best.form, ContentionForm::SmallKd);
        assert!((large.latency.unwrap() - 21.1).abs() < 0.05);
        assert!(large.latency.unwrap() < two.prediction.latency.unwrap());
        assert!((two.prediction.latency.unwrap() - 27.4).abs() < 0.1);
        let ring = c.iter().find(|c| c.n == 1).unwrap();
        assert!(ring.prediction.saturated && ring.saturation_margin < 1.0);
        assert!(std::ptr::eq(ring, c.last().unwrap()) || c.last().unwrap().prediction.saturated);
    }

    #[test]
    fn exact_nodes_excludes_rounded_networks() {
        let c = search(&DesignQuery { exact_nodes: true, ..ex7() }).unwrap();
        assert!(c.iter().all(|c| c.nodes == 64));
        assert_eq!(c.len(), 4); // n = 1, 2, 3, 6
    }

    #[test]
    fn ranking_by_margin_and_with_delays() {
        let c = search(&DesignQuery { rank_by: RankBy::Margin, ..ex7() }).unwrap();
        assert!(c.windows(2).all(|w| w[0].saturation_margin >= w[1].saturation_margin));
        let d = Delays { switch_delay: 4.0, wire: agarwal::WireDelay::PLANAR };
        let c = search(&DesignQuery { delays: Some(d), ..ex7() }).unwrap();
        for x in &c {
            if let Some(t) = x.latency_time {
                assert!((t - x.clock_period.unwrap() * x.prediction.latency.unwrap()).abs() < 1e-9);
            }
        }
        let keys: Vec<f64> = c.iter().filter_map(|c| c.latency_time).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    }

    /// Verification of the width-proportional wire (Agarwal 1991 §4.2) in the search, by hand
    /// at Ex 7's 384-pin switches with s = 4: each candidate takes its own W = 384/(2n),
    /// whatever W the query's wire holds, so the clock period s + W·k^(n/2 − 1) is
    /// 4 + 192·64^(−1/2) = 28 for the 64-node ring, 4 + 96·1 = 100 for the 8-ary 2-cube and
    /// 4 + 64·4^(1/2) = 132 for the 4-ary 3-cube.
    #[test]
    fn width_proportional_wire_takes_each_candidates_width() {
        for held in [1.0, 1000.0] {
            let d = Delays { switch_delay: 4.0, wire: agarwal::WireDelay::Width { bits: held } };
            let c = search(&DesignQuery { delays: Some(d), ..ex7() }).unwrap();
            let clock = |n: u32| c.iter().find(|c| c.n == n).unwrap().clock_period.unwrap();
            assert_eq!((clock(1), clock(2), clock(3)), (28.0, 100.0, 132.0));
        }
    }

    #[test]
    fn bisection_and_width_constraints() {
        // A fixed 16-bit width: B = 64 everywhere.
        let c = search(&DesignQuery { constraint: WidthConstraint::Width { bits: 16.0 }, ..ex7() }).unwrap();
        assert!(c.iter().all(|c| c.width == 16.0 && c.flits == 64.0));
        // Bisection of 256 wires on 64 nodes: W = 256·k/128 = 2k.
        let c = search(&DesignQuery {
            constraint: WidthConstraint::Bisection { wires: 256.0 },
            exact_nodes: true,
            ..ex7()
        })
        .unwrap();
        assert!(c.iter().all(|c| c.width == 2.0 * c.k as f64));
    }

    #[test]
    fn rejects_impossible_questions() {
        assert!(search(&DesignQuery { nodes: 1, ..ex7() }).is_err());
        assert!(search(&DesignQuery { rate: 0.0, ..ex7() }).is_err());
        assert!(search(&DesignQuery { constraint: WidthConstraint::Pins { pins: 1.0 }, ..ex7() }).is_err());
        assert!(search(&DesignQuery { locality: 2.0, ..ex7() }).is_err());
        for rate in [f64::NAN, -0.01, 1.5, f64::INFINITY] {
            assert!(search(&DesignQuery { rate, ..ex7() }).is_err(), "{rate}");
        }
        let e =
            search(&DesignQuery { constraint: WidthConstraint::Pins { pins: 1.0 }, ..ex7() }).unwrap_err();
        assert!(e.to_string().contains("1 pins per switch"), "{e}");
    }

    /// Verification at the size limit: N = 2^53 is searched (the ring's radix 2^53 does not
    /// fit a u32 and is skipped; every other n is a candidate), N = 2^53 + 1 and u64::MAX are
    /// refused rather than overflowing the radix.
    #[test]
    fn large_networks_are_bounded_not_overflowed() {
        let q = DesignQuery {
            nodes: 1 << 53,
            constraint: WidthConstraint::Width { bits: 64.0 },
            locality: 1.0,
            ..ex7()
        };
        let c = search(&q).unwrap();
        assert!(c.iter().all(|c| c.n >= 2) && c.iter().any(|c| c.n == 53 && c.k == 2));
        for nodes in [(1u64 << 53) + 1, u64::MAX] {
            assert!(search(&DesignQuery { nodes, ..q.clone() }).unwrap_err().to_string().contains("2^53"));
        }
        assert_eq!(whole_radix(u64::MAX, 2), 1 << 32);
        assert_eq!(whole_radix(1 << 53, 1), 1 << 53);
    }

    proptest::proptest! {
        /// Every candidate meets its pin budget with whole bits and carries the whole message.
        #[test]
        fn candidates_meet_the_pin_budget(nodes in 2u64..5000, pins in 8.0f64..2000.0, bits in 8.0f64..4096.0) {
            let q = DesignQuery { nodes, constraint: WidthConstraint::Pins { pins }, bits, locality: 1.0, ..ex7() };
            if let Ok(c) = search(&q) {
                for x in c {
                    proptest::prop_assert!(2.0 * x.n as f64 * x.width <= pins && x.width >= 1.0);
                    proptest::prop_assert!(x.flits * x.width >= bits && x.nodes >= nodes);
                }
            }
        }
    }
}
