//! `netwrap model feedback`: processor utilisation with network feedback (seed 004 App. D).

use super::kary_ncube::{KaryNCubeModelArgs, ResolvedConfig, Timing, resolve, timing};
use crate::output::{VERSION, print_json};
use anyhow::Context;
use clap::{Args, ValueEnum};
use netwrap_model::feedback::{self, FeedbackPrediction, Solution};
use serde::Serialize;

/// How to solve App. D's system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolutionArg {
    /// Bisection on U: the stated system, exactly.
    Exact,
    /// The stated system's quadratic root (agrees with `exact`).
    Quadratic,
    /// The closed form App. D prints (solves the system with ρ halved; see docs/models.md).
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
    let p = feedback::solve(&cfg.network, solution).context("invalid model parameters")?;
    let timing = timing(&cfg, Some(p.latency), p.unloaded_latency);
    if a.model.net.json {
        return print_json(&Report {
            model: "feedback",
            netwrap_version: VERSION,
            seed: None,
            config: &cfg,
            prediction: &p,
            timing,
        });
    }
    let n = &cfg.network;
    println!("netwrap {VERSION} model feedback (seed 004 App. D, {:?} solution)", solution);
    println!(
        "network: {}-ary {}-cube, {:?}; workload: m = {} while busy, B = {}, l = {}",
        n.k, n.n, n.wiring, n.rate, n.size, n.locality
    );
    println!("latency T                    {:.4}", p.latency);
    println!("processor utilization U      {:.4}", p.processor_utilization);
    println!("effective rate m*U           {:.6}", p.throughput);
    println!("channel utilization rho      {:.4}", p.utilization);
    println!("unloaded latency T0          {:.4}", p.unloaded_latency);
    if let Some(t) = timing {
        println!("latency, eq. 12 (T^w(2))     {:.4}", t.latency_time.unwrap_or(f64::NAN));
    }
    Ok(())
}
