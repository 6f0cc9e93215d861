//! `netwrap design`: constrained design search over k-ary n-cubes (seed 004 Ex 7).

use crate::cmd::model::physical::DelayArgs;
use crate::output::{VERSION, opt, print_json};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use netwrap_model::agarwal::WidthConstraint;
use netwrap_model::design::{self, Candidate, DesignQuery, RankBy};
use serde::Serialize;
use std::io::Write;

/// Ranking order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RankArg {
    /// Lowest predicted latency first.
    Latency,
    /// Largest saturation margin first.
    Margin,
}

/// The design question.
#[derive(Debug, Args)]
pub struct DesignArgs {
    /// Processors N.
    #[arg(long)]
    pub nodes: u64,
    /// Request rate m: messages per node per cycle.
    #[arg(long)]
    pub rate: f64,
    /// Message length L in bits.
    #[arg(long)]
    pub bits: f64,
    /// Locality fraction l.
    #[arg(long, default_value_t = 1.0)]
    pub locality: f64,
    /// Signal pins per switch (the constraint of seed 004 Ex 7).
    #[arg(long, conflicts_with_all = ["bisection", "width"], required_unless_present_any = ["bisection", "width"])]
    pub pins: Option<f64>,
    /// Wires across the bisection.
    #[arg(long, conflicts_with = "width")]
    pub bisection: Option<f64>,
    /// A fixed channel width in bits.
    #[arg(long)]
    pub width: Option<f64>,
    /// Switch and wire delays; with them candidates rank by eq. 12's latency.
    #[command(flatten)]
    pub delay: DelayArgs,
    /// Channels both ways (bidirectional torus).
    #[arg(long)]
    pub bidirectional: bool,
    /// B = L/W instead of whole flits ⌈L/W⌉.
    #[arg(long)]
    pub fractional_flits: bool,
    /// Only networks with exactly N nodes (no rounding N up to k^n).
    #[arg(long)]
    pub exact_nodes: bool,
    /// Ranking order.
    #[arg(long, value_enum, default_value = "latency")]
    pub rank: RankArg,
    /// Show only the best K candidates.
    #[arg(long)]
    pub top: Option<usize>,
    /// Confirm the best K candidates with the simulator (whole flits ⌈L/W⌉, the same
    /// locality and wiring), printing simulated latency beside the model's.
    #[arg(long, value_name = "K")]
    pub simulate: Option<usize>,
    /// With --simulate: measured messages per simulation.
    #[arg(long, default_value_t = 20_000)]
    pub messages: u64,
    /// With --simulate: seed of the simulations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// A candidate confirmed by simulation.
#[derive(Debug, Serialize)]
pub struct Simulated {
    /// Rank of the candidate in the model's ordering (1 = best).
    pub rank: usize,
    /// Dimensions.
    pub n: u32,
    /// Radix.
    pub k: u32,
    /// Flits simulated, ⌈L/W⌉.
    pub flits: u32,
    /// Simulated mean latency in cycles (`None`: saturated).
    pub latency: Option<f64>,
    /// Its 95% confidence half-width.
    pub latency_ci95: Option<f64>,
    /// Measured channel utilisation.
    pub utilization: f64,
    /// The simulation saw the network saturated.
    pub saturated: bool,
    /// Locality simulated: the subcube side is a whole number of nodes (see `netwrap sim`).
    pub effective_locality: f64,
    /// The model's latency at the simulated point (whole flits, effective locality).
    pub model_latency: Option<f64>,
    /// (simulated − model) / model latency, in cycles.
    pub relative_error: Option<f64>,
}

/// Simulates the first `count` unsaturated candidates in parallel.
fn simulate(a: &DesignArgs, candidates: &[Candidate], count: usize) -> anyhow::Result<Vec<Simulated>> {
    use rayon::prelude::*;
    let chosen: Vec<(usize, &Candidate)> =
        candidates.iter().enumerate().filter(|(_, c)| !c.prediction.saturated).take(count).collect();
    chosen
        .par_iter()
        .map(|&(i, c)| {
            let sim = netwrap_sim::CubeSim {
                bidirectional: a.bidirectional,
                locality: a.locality,
                messages: a.messages,
                seed: a.seed,
                ..netwrap_sim::CubeSim::new(c.k, c.n, a.rate, c.flits.ceil() as u32)
            };
            let run = netwrap_sim::simulate_cube(&sim).context("simulating a candidate")?;
            let r = &run.report;
            let model = crate::cmd::sim::model_for(&run, Some(c.form))?.latency;
            Ok(Simulated {
                rank: i + 1,
                n: c.n,
                k: c.k,
                flits: sim.size,
                latency: r.latency,
                latency_ci95: r.latency_ci95,
                utilization: r.utilization,
                saturated: r.saturated,
                effective_locality: run.config.subcube.effective_locality,
                model_latency: model,
                relative_error: r.latency.zip(model).map(|(s, m)| (s - m) / m),
            })
        })
        .collect()
}

#[derive(Serialize)]
struct Report<'a> {
    model: &'static str,
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: &'a DesignQuery,
    candidates: &'a [Candidate],
    simulated: Option<&'a [Simulated]>,
}

/// Validates the arguments into a query.
pub fn query(a: &DesignArgs) -> anyhow::Result<DesignQuery> {
    let constraint = match (a.pins, a.bisection, a.width) {
        (Some(pins), _, _) => WidthConstraint::Pins { pins },
        (_, Some(wires), _) => WidthConstraint::Bisection { wires },
        (_, _, Some(bits)) => WidthConstraint::Width { bits },
        _ => bail!("give a constraint: --pins, --bisection or --width"),
    };
    for v in [a.pins, a.bisection, a.width].into_iter().flatten() {
        if !(v.is_finite() && v > 0.0) {
            bail!("the constraint {v} is invalid: it must be a positive number");
        }
    }
    let delays = a.delay.delays()?;
    Ok(DesignQuery {
        nodes: a.nodes,
        rate: a.rate,
        bits: a.bits,
        locality: a.locality,
        constraint,
        delays,
        bidirectional: a.bidirectional,
        fractional_flits: a.fractional_flits,
        exact_nodes: a.exact_nodes,
        rank_by: match a.rank {
            RankArg::Latency => RankBy::Latency,
            RankArg::Margin => RankBy::Margin,
        },
    })
}

pub fn run(a: DesignArgs) -> anyhow::Result<()> {
    let q = query(&a)?;
    let mut c = design::search(&q).context("design search")?;
    if let Some(top) = a.top {
        c.truncate(top);
    }
    let simulated = a.simulate.map(|count| simulate(&a, &c, count)).transpose()?;
    if a.json {
        return print_json(&Report {
            model: "design",
            netwrap_version: VERSION,
            seed: a.simulate.map(|_| a.seed),
            config: &q,
            candidates: &c,
            simulated: simulated.as_deref(),
        });
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "netwrap {VERSION} design: N = {}, m = {}, L = {} bits, l = {}, {:?}",
        q.nodes, q.rate, q.bits, q.locality, q.constraint
    )?;
    writeln!(
        out,
        "{:>4} {:>3} {:>4} {:>8} {:>7} {:>7} {:>7} {:>7} {:>10} {:>12} {:>8}",
        "rank", "n", "k", "nodes", "W", "B", "k_d", "rho", "latency", "latency_time", "margin"
    )?;
    for (i, x) in c.iter().enumerate() {
        writeln!(
            out,
            "{:>4} {:>3} {:>4} {:>8} {:>7} {:>7} {:>7.3} {:>7.3} {:>10} {:>12} {:>8.3}{}",
            i + 1,
            x.n,
            x.k,
            x.nodes,
            x.width,
            x.flits,
            x.prediction.k_d,
            x.prediction.utilization,
            opt(x.prediction.latency, 3),
            opt(x.latency_time, 2),
            x.saturation_margin,
            if x.prediction.saturated { "  SATURATED" } else { "" }
        )?;
    }
    if let Some(sims) = &simulated {
        writeln!(
            out,
            "\nconfirmed by simulation ({} measured messages, seed {}); the model column is eq. 10 at the simulated point\n\
             (whole flits, and the locality subcube rounded to whole nodes, l_sim):",
            a.messages, a.seed
        )?;
        writeln!(
            out,
            "{:>4} {:>3} {:>4} {:>5} {:>8} {:>18} {:>10} {:>8}",
            "rank", "n", "k", "B", "l_sim", "sim latency", "model", "error"
        )?;
        for s in sims {
            let lat = match (s.latency, s.latency_ci95) {
                (Some(l), Some(ci)) => format!("{l:.2} ± {ci:.2}"),
                (Some(l), None) => format!("{l:.2}"),
                (None, _) => "saturated".into(),
            };
            writeln!(
                out,
                "{:>4} {:>3} {:>4} {:>5} {:>8.4} {:>18} {:>10} {:>8}",
                s.rank,
                s.n,
                s.k,
                s.flits,
                s.effective_locality,
                lat,
                opt(s.model_latency, 2),
                s.relative_error.map_or("—".into(), |e| format!("{:+.1}%", 100.0 * e))
            )?;
        }
    }
    Ok(())
}
