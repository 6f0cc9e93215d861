//! Processor utilisation with network feedback (the homework's Appendix D).
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
//! **An inconsistency in the homework.** The printed closed form is not the solution of the printed
//! system: it is [`Solution::Quadratic`] with q = B·k_d/2, i.e. the solution for
//! ρ = U·m·B·k_d/2 (channels both ways), while the system states ρ = U·m·B·k_d. All three
//! of its differences (B·k_d/4, B·k_d/2, 2B²) follow from that one factor. The closed form
//! therefore predicts lower latency and higher utilisation than the system it claims to
//! solve; tests pin both facts.

use crate::error::{ModelError, check_finite, num};
use crate::kary_ncube::{self, ContentionForm, KaryNCube};
use serde::Serialize;

/// How to solve Appendix D's system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Solution {
    /// Bisection on U: the stated system, solved to machine precision (default).
    #[default]
    Exact,
    /// The root of the stated system's quadratic, in closed form (eq. 8's or the small-k_d
    /// contention form).
    Quadratic,
    /// The closed form exactly as printed in App. D (see the module docs: it solves the
    /// system with ρ halved, and it embeds eq. 8's large-k_d form).
    ClosedForm,
}

impl std::fmt::Display for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Solution::Exact => "the exact solution (bisection on U)",
            Solution::Quadratic => "the stated system's quadratic root",
            Solution::ClosedForm => "the printed closed form",
        })
    }
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
    /// The contention form used (never `auto`): the printed closed form always uses eq. 8's.
    pub contention_form: ContentionForm,
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

/// The contention form `solution` uses for `p` at distance `k_d`, or why it cannot: the
/// quadratic needs a form that is a constant times ρ/(1 − ρ) (not the full variance); the
/// printed closed form embeds eq. 8's large-k_d form, so it takes `auto` or `large-kd`,
/// and k_d ≥ 1.
fn form_for(p: &KaryNCube, solution: Solution, k_d: f64) -> Result<ContentionForm, ModelError> {
    let form = p.form.resolve(k_d);
    match (solution, p.form) {
        (Solution::Quadratic, _) if form == ContentionForm::FullVariance => Err(ModelError::Invalid(
            "the quadratic solution needs eq. 8's or the small-k_d contention form: use the exact solution with the full variance".into(),
        )),
        (Solution::ClosedForm, ContentionForm::SmallKd | ContentionForm::FullVariance) => {
            Err(ModelError::Invalid(format!(
                "the printed closed form embeds eq. 8's large-k_d form, not {}: use the exact solution for that form",
                p.form
            )))
        }
        (Solution::ClosedForm, _) if k_d < 1.0 => Err(ModelError::Invalid(format!(
            "the printed closed form embeds eq. 8's large-k_d form, which is negative for k_d < 1, and this network has k_d = {}: use the exact solution, which applies App. B's small-k_d form",
            num(k_d)
        ))),
        (Solution::ClosedForm, _) => Ok(ContentionForm::LargeKd),
        _ => Ok(form),
    }
}

/// [`solve`] for processors of `threads` threads (1: App. D itself).
pub fn solve_threads(
    p: &KaryNCube,
    threads: u32,
    solution: Solution,
) -> Result<FeedbackPrediction, ModelError> {
    if threads != 1 {
        return Err(ModelError::Invalid(format!("threads = {threads}: the model is solved for one thread")));
    }
    solve(p, solution)
}

/// Solves Appendix D for the network and workload in `p` (`p.rate` is m, the request rate
/// while busy). Every input is validated once, before any solution runs
/// ([`kary_ncube::validate`]: m must be a probability, B positive, …), so the three
/// solutions see the same inputs; the contention form is resolved once, for all of them.
pub fn solve(p: &KaryNCube, solution: Solution) -> Result<FeedbackPrediction, ModelError> {
    let k_d = kary_ncube::validate(p)?;
    let form = form_for(p, solution, k_d)?;
    let directions = p.directions();
    let m = p.rate;
    let latency_at =
        |u: f64| kary_ncube::evaluate(k_d, p.n, m * u, p.size, directions, form, p.memory_latency);
    let open = latency_at(0.0);
    let t0 = open.unloaded_latency;
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
                let c = kary_ncube::contention_per_switch(0.5, p.size, k_d, p.n, form) * open.mean_hops;
                quadratic_root(t0, p.size * k_d / directions, c, m)
            }
            Solution::ClosedForm => closed_form_printed(t0, p.size, k_d, p.n, m),
        }
    };
    let u = 1.0 / (1.0 + m * latency);
    let at = latency_at(u);
    let prediction = FeedbackPrediction {
        processor_utilization: u,
        latency,
        utilization: at.utilization,
        contention_per_switch: at.contention_per_switch.unwrap_or(f64::INFINITY),
        contention_form: form,
        throughput: m * u,
        offered: m,
        unloaded_latency: t0,
        k_d,
        mean_hops: open.mean_hops,
        saturated: false,
        max_rate: open.max_rate,
        solution,
    };
    check_finite(&[latency, u, at.utilization, prediction.contention_per_switch, t0])?;
    Ok(prediction)
}

/// T = T0 + (√(A² + r²) − A)/2, evaluated without cancellation or overflow: for A ≥ 0 as
/// r·(r/(s + A))/2 with s = hypot(A, r), for A < 0 as (s + |A|)/2. Both closed forms of
/// App. D are this root with A = T0 − q + 1/m; written out directly they lose every digit
/// when 1/m dwarfs T0 (m = 10⁻³⁰⁰ gives ∞ − ∞) and overflow when B is huge.
fn root(t0: f64, a: f64, r: f64) -> f64 {
    let s = a.hypot(r);
    let rise = if r == 0.0 {
        0.0
    } else if a >= 0.0 {
        0.5 * r * (r / (s + a))
    } else {
        0.5 * (s - a)
    };
    t0 + rise
}

/// Positive root of m·T² + (1 − a − m·T0)·T − T0(1 − a) − c·a = 0 with a = m·q: the
/// latency of T = T0 + c·ρ/(1 − ρ), ρ = U·m·q, U = 1/(1 + m·T). `c` ≥ 0 is the contention
/// coefficient (w·n·k_d at ρ/(1 − ρ) = 1). This root always has ρ < 1. Written as
/// T = T0/2 + q/2 − 1/(2m) + ½·√((T0 − q + 1/m)² + 4·c·q), evaluated stably.
pub fn quadratic_root(t0: f64, q: f64, c: f64, m: f64) -> f64 {
    root(t0, t0 - q + 1.0 / m, 2.0 * c.sqrt() * q.sqrt())
}

/// The homework's App. D closed form as printed:
/// T = T0/2 + B·k_d/4 − 1/(2m) + ½·√((T0 − B·k_d/2 + 1/m)² + 2B²(k_d − 1)(n + 1)),
/// evaluated stably (the same algebra, see [`quadratic_root`]). Needs k_d ≥ 1.
pub fn closed_form_printed(t0: f64, size: f64, k_d: f64, n: u32, m: f64) -> f64 {
    let r = size * (2.0 * (k_d - 1.0) * (n as f64 + 1.0)).sqrt();
    root(t0, t0 - size * k_d / 2.0 + 1.0 / m, r)
}

/// The homework's Ex 8: for k ≫ 1 the feedback latency grows linearly in k_d with slope
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

    /// The homework's Ex 8: T/k_d tends to max(n, B) as k grows (k = 9001 keeps the 4-cube
    /// within the models' 2^53 nodes).
    #[test]
    fn exercise8_latency_linear_in_kd() {
        for (n, b) in [(2u32, 4.0), (4, 2.0)] {
            let slope = |k: u32| {
                let s = solve(&net(k, n, 0.04, b), Solution::Exact).unwrap();
                s.latency / s.k_d
            };
            let target = large_network_slope(n, b);
            assert!((slope(9001) - target).abs() / target < 0.01, "{}", slope(9001));
            assert!((slope(9001) - target).abs() < (slope(101) - target).abs());
        }
    }

    /// Verification at k = 2 (k_d = ½): the default `auto` form is App. B's small-k_d form,
    /// zero at k_d = ½, so T = T0 = n/2 + B and U = 1/(1 + m·T0). Eq. 8's form is refused
    /// with a message naming the forms that work; the printed closed form (which embeds
    /// eq. 8's form) is refused naming the solution that works.
    #[test]
    fn k2_works_by_default_and_says_what_to_use_otherwise() {
        let p = net(2, 6, 0.1, 4.0);
        for solution in [Solution::Exact, Solution::Quadratic] {
            let s = solve(&p, solution).unwrap();
            assert_eq!(s.contention_form, ContentionForm::SmallKd);
            assert_eq!(s.latency, 7.0);
            assert!((s.processor_utilization - 1.0 / 1.7).abs() < 1e-15);
        }
        let e =
            solve(&KaryNCube { form: ContentionForm::LargeKd, ..p.clone() }, Solution::Exact).unwrap_err();
        assert!(e.to_string().contains("small-k_d form, or auto"), "{e}");
        let e = solve(&p, Solution::ClosedForm).unwrap_err();
        assert!(e.to_string().contains("use the exact solution"), "{e}");
        let small = KaryNCube { form: ContentionForm::SmallKd, ..net(8, 2, 0.04, 4.0) };
        assert!(solve(&small, Solution::ClosedForm).unwrap_err().to_string().contains("embeds eq. 8"));
        let full = KaryNCube { form: ContentionForm::FullVariance, ..net(8, 2, 0.04, 4.0) };
        assert!(solve(&full, Solution::Quadratic).is_err());
        assert!(solve(&full, Solution::Exact).is_ok());
    }

    /// Verification: the rate is validated once, before any solution, so NaN, ±∞, negative
    /// rates and rates above 1 are refused by all three solutions alike, with the same message.
    #[test]
    fn invalid_rates_are_refused_by_every_solution() {
        for m in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, -1e-300, 2.0, 1.0 + 1e-15] {
            let errors: Vec<String> = [Solution::Exact, Solution::Quadratic, Solution::ClosedForm]
                .into_iter()
                .map(|s| solve(&net(8, 2, m, 4.0), s).unwrap_err().to_string())
                .collect();
            assert!(
                errors.iter().all(|e| e == &errors[0] && e.contains("probability in [0, 1]")),
                "{errors:?}"
            );
        }
    }

    /// Verification at the extremes of the rate: as m → 0, U → 1 and T → T0 for every solution
    /// (the quadratic's 1/m terms cancel exactly; evaluated stably they do not turn into
    /// ∞ − ∞); at m = 1 the exact and quadratic solutions still agree.
    #[test]
    fn tiny_and_unit_rates_agree_across_solutions() {
        // T − T0 is proportional to m (about 70·m cycles here), so within 1e-12 of T0.
        for m in [1e-300, 5e-324, 1e-17] {
            for solution in [Solution::Exact, Solution::Quadratic, Solution::ClosedForm] {
                let s = solve(&net(8, 2, m, 4.0), solution).unwrap();
                assert!((s.latency - 11.0).abs() < 1e-12, "{solution:?} at m = {m}: {}", s.latency);
                assert!((s.processor_utilization - 1.0).abs() < 1e-15);
            }
        }
        let e = solve(&net(8, 2, 1.0, 4.0), Solution::Exact).unwrap();
        let q = solve(&net(8, 2, 1.0, 4.0), Solution::Quadratic).unwrap();
        assert!((e.latency - q.latency).abs() <= 1e-9 * q.latency);
    }

    /// Verification of the stable evaluation: where the printed formula loses nothing to
    /// cancellation (T0, B·k_d and 1/m of similar size) it and [`closed_form_printed`] agree to
    /// rounding (1e-12 relative: a few operations of 2^-52 each).
    #[test]
    fn stable_closed_form_is_the_printed_formula() {
        for (k, n, m, b) in
            [(8u32, 2u32, 0.04, 4.0), (32, 2, 0.012, 4.0), (4, 3, 0.1, 8.0), (16, 3, 0.5, 2.0)]
        {
            let kd = (k as f64 - 1.0) / 2.0;
            let t0 = n as f64 * kd + b;
            let bk = b * kd;
            let literal = 0.5 * t0 + bk / 4.0 - 0.5 / m
                + 0.5
                    * ((t0 - bk / 2.0 + 1.0 / m).powi(2) + 2.0 * b * b * (kd - 1.0) * (n as f64 + 1.0))
                        .sqrt();
            let stable = closed_form_printed(t0, b, kd, n, m);
            assert!((stable - literal).abs() <= 1e-12 * literal, "{k} {n} {m} {b}: {stable} vs {literal}");
        }
    }

    proptest::proptest! {
        /// Never outside [0, 1], never unstable, never NaN, for any valid input.
        #[test]
        fn exact_is_always_in_range(k in 2u32..200, n in 1u32..6, m in 0.0f64..=1.0, b in 0.1f64..2000.0,
                                    l in 0.01f64..=1.0) {
            proptest::prop_assume!(kary_ncube::locality_side(k, n, l) >= 1.0);
            let p = KaryNCube { locality: l, ..net(k, n, m, b) };
            let s = solve(&p, Solution::Exact).unwrap();
            proptest::prop_assert!((0.0..=1.0).contains(&s.processor_utilization));
            proptest::prop_assert!(s.utilization < 1.0 && s.latency.is_finite() && s.latency >= s.unloaded_latency - 1e-9);
        }
    }
}
