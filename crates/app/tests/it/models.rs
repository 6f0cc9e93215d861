//! Simulations beside the analytical models.

use netwrap_app::{Spec, simulate};

/// Verification: with one thread and geometric intervals the processor is busy for X cycles
/// (E[X] = 1/m) and then waits one access latency L, so by the renewal-reward argument
/// U = E[X] / (E[X] + E[L]) = 1 / (1 + m·E[L]) exactly: App. D's third equation holds for the
/// simulated U and round trip. The tolerance is the round trip's 95% interval carried through
/// that equation (|dU/dL| = m·U²), plus the window's edges (a period in the window).
///
/// Characterisation: the homework's App. D (the exact fixed point) against the simulation at
/// light load, where the open model's contention formula is within 10% of simulation
/// (Agarwal 1991 figs. 2–4, docs/validation.md, for ρ ≤ 0.6): the round trip is within 10% of
/// App. D's T plus its interval, and U within what that 10% implies through U = 1/(1 + m·T).
#[test]
fn app_d_holds_for_simulated_processors_and_the_model_agrees_at_light_load() {
    for (k, n, b, m) in [(8, 2, 4, 0.007143), (8, 2, 4, 0.021429), (4, 3, 8, 0.008333), (16, 2, 4, 0.01)] {
        let s: Spec = toml::from_str(&format!(
            "[topology]\nfamily = \"torus\"\nk = {k}\nn = {n}\n[workload]\nrate = {m}\nsize = {b}\n[workload.processor]\nthreads = 1\n[run]\nmessages = 20000\n[model]\n"
        ))
        .unwrap();
        let r = simulate(&s).unwrap();
        let a = r.result.report.accesses.clone().unwrap();
        let (u, l, ci) = (a.processor_utilization.unwrap(), a.round_trip, a.round_trip_ci95.unwrap());
        let window = (r.result.report.cycles - r.result.report.warmup) as f64;
        let renewal = 1.0 / (1.0 + m * l);
        assert!(
            (u - renewal).abs() <= m * u * u * ci + (1.0 / m + l) / window,
            "{k}-ary {n}-cube, m = {m}: U = {u}, 1/(1 + mL) = {renewal}"
        );
        let model = r.model.unwrap();
        let (t_model, u_model) = (model.latency.unwrap(), model.processor_utilization.unwrap());
        assert!((l - t_model).abs() <= 0.1 * t_model + ci, "T {l} vs App. D {t_model}");
        assert!((u - u_model).abs() <= m * u * u_model * (0.1 * t_model + ci), "U {u} vs App. D {u_model}");
    }
}
