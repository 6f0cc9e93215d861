//! Processor utilisation with network feedback (seed 004 Appendix D).
//!
//! A processor that waits for each request issues them at the effective rate m·U, so
//!
//! - ρ = U·m·B·k_d,
//! - T = [1 + ρB/(1 − ρ) · (k_d − 1)/k_d² · (1 + 1/n)]·n·k_d + M + B,
//! - U = 1/(1 + m·T).
//!
//! Three ways to solve it, chosen with [`Solution`]:
//!
//! - [`Solution::Exact`] bisects on U ∈ [0, 1]. g(U) = U − 1/(1 + m·T(U)) is increasing
//!   (T grows with U) and g(0) < 0; where ρ(U) ≥ 1 the queue is unstable, T = ∞ and
//!   g(U) = U > 0, so the root is bracketed, unique, and inside [0, 1] with ρ < 1 for every
//!   input: the solver cannot diverge, unlike the fixed-point iteration App. D suggests,
//!   which oscillates near saturation.
//! - [`Solution::Quadratic`] is the positive root of the quadratic the appendix describes
//!   ("knead the above equation into the form of a standard quadratic"), derived here:
//!   T = T0/2 + q/2 − 1/(2m) + ½·√((T0 − q + 1/m)² + 4·c·q), with q = B·k_d/d,
//!   c = B·f(k_d)·(1 + 1/n)·n·k_d, f the contention factor and d the channel directions.
//! - [`Solution::ClosedForm`] is the formula App. D prints:
//!   T = T0/2 + B·k_d/4 − 1/(2m) + ½·√((T0 − B·k_d/2 + 1/m)² + 2B²(k_d − 1)(n + 1)).
//!
//! **Seed inconsistency.** The printed closed form is not the solution of the printed
//! system: it is [`Solution::Quadratic`] with q = B·k_d/2, i.e. the solution for
//! ρ = U·m·B·k_d/2 (channels both ways), while the system states ρ = U·m·B·k_d. All three
//! of its differences (B·k_d/4, B·k_d/2, 2B²) follow from that one factor. The closed form
//! therefore predicts lower latency and higher utilisation than the system it claims to
//! solve; tests pin both facts.

use crate::error::ModelError;
use crate::kary_ncube::{self, ContentionForm, KaryNCube, Wiring};
use serde::Serialize;

/// How to solve Appendix D's system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Solution {
    /// Bisection on U: the stated system, solved to machine precision (default).
    #[default]
    Exact,
    /// The root of the stated system's quadratic, in closed form (eq. 8-type contention only).
    Quadratic,
    /// The closed form exactly as printed in App. D (see the module docs: it solves the
    /// system with ρ halved).
    ClosedForm,
}

/// What the feedback model predicts; field names match [`kary_ncube::Prediction`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FeedbackPrediction {
    /// Processor utilisation U ∈ [0, 1].
    pub processor_utilization: f64,
    /// Latency T at the fixed point.
    pub latency: f64,
    /// Channel utilisation ρ = U·m·B·k_d (per direction).
    pub utilization: f64,
    /// Contention per switch w at the fixed point.
    pub contention_per_switch: f64,
    /// Messages accepted per node per cycle: the effective rate m·U.
    pub throughput: f64,
    /// Request rate m while the processor is busy.
    pub offered: f64,
    /// Unloaded latency T0 = n·k_d + M + B.
    pub unloaded_latency: f64,
    /// Mean hops per dimension used.
    pub k_d: f64,
    /// Mean hops n·k_d.
    pub mean_hops: f64,
    /// Always false: feedback throttles the processor so the queue stays stable.
    pub saturated: bool,
    /// Highest effective rate the channels can carry (ρ = 1).
    pub max_rate: f64,
    /// Which solution produced these numbers.
    pub solution: Solution,
}

/// Solves Appendix D for the network and workload in `p` (`p.rate` is m, the request rate
/// while busy). Errors for invalid inputs, and for a contention factor that is negative
/// (the large-k_d form below k_d = 1), where T would fall with load and the fixed point
/// is meaningless.
pub fn solve(p: &KaryNCube, solution: Solution) -> Result<FeedbackPrediction, ModelError> {
    let open = kary_ncube::predict(&KaryNCube { rate: 0.0, ..p.clone() })?;
    let k_d = open.k_d;
    let directions = if p.wiring == Wiring::UnidirectionalTorus { 1.0 } else { 2.0 };
    if kary_ncube::contention_per_switch(0.5, p.size, k_d, p.n, p.form) < 0.0 {
        return Err(ModelError::Invalid(format!(
            "k_d = {k_d} is below the range of the {:?} contention form (its factor is negative){}",
            p.form,
            if p.form == ContentionForm::SmallKd { "" } else { "; the small-k_d form covers k_d >= 1/2" }
        )));
    }
    let m = p.rate;
    let t0 = open.unloaded_latency;
    let latency_at =
        |u: f64| kary_ncube::evaluate(k_d, p.n, m * u, p.size, directions, p.form, p.memory_latency);
    let latency = if m == 0.0 {
        t0
    } else {
        match solution {
            Solution::Exact => {
                let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
                for _ in 0..200 {
                    let mid = 0.5 * (lo + hi);
                    let g = match latency_at(mid).latency {
                        Some(t) => mid - 1.0 / (1.0 + m * t),
                        None => mid,
                    };
                    if g < 0.0 {
                        lo = mid
                    } else {
                        hi = mid
                    }
                    if hi - lo <= f64::EPSILON * hi {
                        break;
                    }
                }
                latency_at(lo).latency.expect("g(lo) < 0 implies a stable queue")
            }
            Solution::Quadratic => {
                if p.form == ContentionForm::FullVariance {
                    return Err(ModelError::Invalid(
                        "the quadratic solution needs eq. 8's contention form; use the exact solution".into(),
                    ));
                }
                let c = kary_ncube::contention_per_switch(0.5, p.size, k_d, p.n, p.form) * open.mean_hops;
                quadratic_root(t0, p.size * k_d / directions, c, m)
            }
            Solution::ClosedForm => closed_form_printed(t0, p.size, k_d, p.n, m),
        }
    };
    let u = 1.0 / (1.0 + m * latency);
    let at = latency_at(u);
    Ok(FeedbackPrediction {
        processor_utilization: u,
        latency,
        utilization: at.utilization,
        contention_per_switch: at.contention_per_switch.unwrap_or(f64::INFINITY),
        throughput: m * u,
        offered: m,
        unloaded_latency: t0,
        k_d,
        mean_hops: open.mean_hops,
        saturated: false,
        max_rate: open.max_rate,
        solution,
    })
}

/// Positive root of m·T² + (1 − a − m·T0)·T − T0(1 − a) − c·a = 0 with a = m·q: the
/// latency of T = T0 + c·ρ/(1 − ρ), ρ = U·m·q, U = 1/(1 + m·T). `c` is the contention
/// coefficient (w·n·k_d at ρ/(1 − ρ) = 1). This root always has ρ < 1.
pub fn quadratic_root(t0: f64, q: f64, c: f64, m: f64) -> f64 {
    let inv = 1.0 / m;
    0.5 * t0 + 0.5 * q - 0.5 * inv + 0.5 * ((t0 - q + inv).powi(2) + 4.0 * c * q).sqrt()
}

/// Seed 004 App. D's closed form as printed:
/// T = T0/2 + B·k_d/4 − 1/(2m) + ½·√((T0 − B·k_d/2 + 1/m)² + 2B²(k_d − 1)(n + 1)).
pub fn closed_form_printed(t0: f64, size: f64, k_d: f64, n: u32, m: f64) -> f64 {
    let bk = size * k_d;
    let inv = 1.0 / m;
    0.5 * t0 + bk / 4.0 - 0.5 * inv
        + 0.5 * ((t0 - bk / 2.0 + inv).powi(2) + 2.0 * size * size * (k_d - 1.0) * (n as f64 + 1.0)).sqrt()
}

/// Seed 004 Ex 8: for k ≫ 1 the feedback latency grows linearly in k_d with slope
/// max(n, B), and U ≈ 1/(m·max(n, B)·k_d) falls as 1/k_d. Derived from
/// [`quadratic_root`]: T0 ≈ n·k_d, q = B·k_d, c ≈ B(n + 1), so
/// T/k_d → n/2 + B/2 + |n − B|/2.
pub fn large_network_slope(n: u32, size: f64) -> f64 {
    (n as f64).max(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(k: u32, n: u32, m: f64, b: f64) -> KaryNCube {
        KaryNCube::new(k, n, m, b)
    }

    /// The exact solution satisfies all three equations of App. D.
    #[test]
    fn exact_solution_is_a_fixed_point() {
        let p = net(8, 2, 0.04, 4.0);
        let s = solve(&p, Solution::Exact).unwrap();
        let u = s.processor_utilization;
        let rho = u * 0.04 * 4.0 * 3.5;
        let t = (1.0 + rho * 4.0 / (1.0 - rho) * 2.5 / 12.25 * 1.5) * 7.0 + 4.0;
        assert!((s.utilization - rho).abs() < 1e-12);
        assert!((s.latency - t).abs() < 1e-9);
        assert!((u - 1.0 / (1.0 + 0.04 * t)).abs() < 1e-12);
    }

    /// Bisection and the derived quadratic agree over a grid reaching deep into
    /// saturation of the open model (m·B·k_d up to 80).
    #[test]
    fn exact_and_quadratic_agree() {
        for k in [3, 4, 8, 16, 32] {
            for n in [1, 2, 3, 4] {
                for m in [1e-4, 0.001, 0.01, 0.05, 0.2, 1.0] {
                    for b in [1.0, 4.0, 16.0] {
                        let p = net(k, n, m, b);
                        let e = solve(&p, Solution::Exact).unwrap();
                        let q = solve(&p, Solution::Quadratic).unwrap();
                        assert!((e.latency - q.latency).abs() <= 1e-9 * q.latency, "{k} {n} {m} {b}");
                        assert!(e.utilization < 1.0 && (0.0..=1.0).contains(&e.processor_utilization));
                    }
                }
            }
        }
    }

    /// The printed closed form disagrees with the stated system (here by several cycles)
    /// and equals the solution of the system with ρ halved.
    #[test]
    fn printed_closed_form_solves_the_halved_system() {
        let p = net(8, 2, 0.04, 4.0);
        let exact = solve(&p, Solution::Exact).unwrap();
        let printed = solve(&p, Solution::ClosedForm).unwrap();
        assert!(exact.latency - printed.latency > 1.0, "{} vs {}", exact.latency, printed.latency);
        assert!(printed.processor_utilization > exact.processor_utilization);
        for (k, n, m, b) in [(8, 2, 0.04, 4.0), (32, 2, 0.012, 4.0), (4, 3, 0.1, 8.0)] {
            let kd = (k as f64 - 1.0) / 2.0;
            let t0 = n as f64 * kd + b;
            let c = b * (kd - 1.0) * (n as f64 + 1.0) / kd;
            let halved = quadratic_root(t0, b * kd / 2.0, c, m);
            assert!((closed_form_printed(t0, b, kd, n, m) - halved).abs() < 1e-9 * halved);
        }
    }

    #[test]
    fn zero_rate_gives_unloaded_latency_and_full_utilisation() {
        let s = solve(&net(8, 2, 0.0, 4.0), Solution::Exact).unwrap();
        assert_eq!(s.latency, 11.0);
        assert_eq!(s.processor_utilization, 1.0);
    }

    /// Seed 004 Ex 8: T/k_d tends to max(n, B) as k grows.
    #[test]
    fn exercise8_latency_linear_in_kd() {
        for (n, b) in [(2u32, 4.0), (4, 2.0)] {
            let slope = |k: u32| {
                let s = solve(&net(k, n, 0.04, b), Solution::Exact).unwrap();
                s.latency / s.k_d
            };
            let target = large_network_slope(n, b);
            assert!((slope(20001) - target).abs() / target < 0.01, "{}", slope(20001));
            assert!((slope(20001) - target).abs() < (slope(101) - target).abs());
        }
    }

    #[test]
    fn negative_contention_is_refused() {
        let p = net(2, 6, 0.1, 4.0);
        assert!(solve(&p, Solution::Exact).is_err());
        let small = KaryNCube { form: ContentionForm::SmallKd, ..p };
        assert!(solve(&small, Solution::Exact).is_ok());
    }

    proptest::proptest! {
        /// Never outside [0, 1], never unstable, never NaN, for any valid input.
        #[test]
        fn exact_is_always_in_range(k in 3u32..200, n in 1u32..6, m in 0.0f64..1.0, b in 0.1f64..2000.0,
                                    l in 0.05f64..1.0) {
            proptest::prop_assume!(crate::exercises::locality_kd(k as f64, n, l) >= 0.5);
            let p = KaryNCube { locality: l, form: ContentionForm::SmallKd, ..net(k, n, m, b) };
            let s = solve(&p, Solution::Exact).unwrap();
            proptest::prop_assert!((0.0..=1.0).contains(&s.processor_utilization));
            proptest::prop_assert!(s.utilization < 1.0 && s.latency.is_finite() && s.latency >= s.unloaded_latency - 1e-9);
        }
    }
}
