//! `netwrap model feedback`: processor utilisation with network feedback (the homework's
//! App. D), with T threads per processor (`--threads`; Saavedra-Barrera, Culler & von Eicken
//! 1990, Agarwal 1992). With one thread (the default) every output is App. D's, unchanged;
//! with more, the table and JSON add the threads and the multithreading regime.

use super::kary_ncube::{KaryNCubeModelArgs, ResolvedConfig, Timing, form_line, resolve, timing};
use super::{fixed, opt_fixed};
use crate::output::{self, VERSION, num, print_json};
use anyhow::Context;
use clap::{Args, ValueEnum};
use netwrap_model::feedback::{self, FeedbackPrediction, Regime, Solution};
use netwrap_topo::cli::small_count;
use serde::Serialize;
use std::io::Write;

/// How to solve App. D's system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolutionArg {
    /// Bisection on U: the stated system, exactly.
    Exact,
    /// The stated system's quadratic root (agrees with `exact`).
    Quadratic,
    /// The closed form App. D prints (solves the system with ρ halved, and uses eq. 8's
    /// large-k_d form; see docs/models.md).
    ClosedForm,
}

/// The k-ary n-cube options plus the solution method.
#[derive(Debug, Clone, Args)]
pub struct FeedbackArgs {
    #[command(flatten)]
    pub model: KaryNCubeModelArgs,
    /// Solution method.
    #[arg(long, value_enum, default_value = "exact")]
    pub solution: SolutionArg,
    /// Threads per processor T, at least 1: each computes for R = 1/m cycles on average, then
    /// waits for its access while the processor switches (1 cycle) to the next in round-robin
    /// order. 1 is App. D; more take --solution exact or quadratic.
    #[arg(long, default_value_t = 1, value_parser = small_count::<1>, allow_hyphen_values = true)]
    pub threads: u32,
}

#[derive(Serialize)]
struct Report<'a> {
    model: &'static str,
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: &'a ResolvedConfig,
    #[serde(flatten)]
    prediction: &'a FeedbackPrediction,
    #[serde(flatten)]
    timing: Option<Timing>,
}

pub fn run(a: FeedbackArgs) -> anyhow::Result<()> {
    let cfg = resolve(&a.model)?;
    let solution = match a.solution {
        SolutionArg::Exact => Solution::Exact,
        SolutionArg::Quadratic => Solution::Quadratic,
        SolutionArg::ClosedForm => Solution::ClosedForm,
    };
    let threads = a.threads;
    let p = feedback::solve_threads(&cfg.network, solution, threads).with_context(|| {
        let name = a.solution.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
        if threads > 1 {
            format!("--solution {name} with --threads {threads}")
        } else {
            format!("--solution {name} with --contention {}", cfg.network.form.name())
        }
    })?;
    let timing = timing(&cfg, Some(p.latency), p.unloaded_latency)?;
    let report = Report {
        model: "feedback",
        netwrap_version: VERSION,
        seed: None,
        config: &cfg,
        prediction: &p,
        timing,
    };
    if let Some(path) = &a.model.net.csv
        && output::write_csv(path, &[&report])?
    {
        return Ok(());
    }
    if a.model.net.json {
        return print_json(&report);
    }
    let timing = report.timing;
    let n = &cfg.network;
    let mut out = output::stdout();
    if threads > 1 {
        writeln!(
            out,
            "netwrap {VERSION} model feedback (the homework's App. D with threads: Saavedra-Barrera et al. 1990, Agarwal 1992), {solution}"
        )?;
    } else {
        writeln!(out, "netwrap {VERSION} model feedback (the homework's App. D), {solution}")?;
    }
    writeln!(
        out,
        "network: {}-ary {}-cube, N = {}, {}; workload: m = {} while busy, B = {}, l = {}",
        n.k,
        n.n,
        cfg.nodes,
        n.wiring,
        num(n.rate),
        num(n.size),
        num(n.locality)
    )?;
    let form = if solution == Solution::ClosedForm {
        format!("{} (the printed closed form embeds it)", p.contention_form)
    } else {
        form_line(n.form, p.contention_form, p.k_d, n.locality)
    };
    if let Some(regime) = p.regime {
        let c = feedback::switch_cost(threads);
        writeln!(
            out,
            "threads per processor T      {threads}, round robin, switch cost C = {} cycle",
            num(c)
        )?;
        let formula = match regime {
            Regime::Linear => "too few threads to hide L: U = T*R/(R+L)",
            Regime::Saturated => "the threads hide L: U = R/(R+C)",
        };
        writeln!(
            out,
            "multithreading regime        {regime}, {formula}, R = 1/m = {}",
            fixed(1.0 / n.rate, 4)
        )?;
    }
    writeln!(out, "contention form              {form}")?;
    let latency = if threads > 1 { "latency L" } else { "latency T" };
    writeln!(out, "{latency:<29}{}", fixed(p.latency, 4))?;
    writeln!(out, "processor utilization U      {}", fixed(p.processor_utilization, 4))?;
    writeln!(out, "effective rate m*U           {}", fixed(p.throughput, 6))?;
    writeln!(out, "channel utilization rho      {}", fixed(p.utilization, 4))?;
    writeln!(out, "unloaded latency T0          {}", fixed(p.unloaded_latency, 4))?;
    if let Some(t) = timing {
        writeln!(out, "latency, eq. 12 (T^w(2))     {}", opt_fixed(t.latency_time, 4))?;
    }
    out.finish()?;
    Ok(())
}
