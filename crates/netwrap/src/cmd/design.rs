//! `netwrap design`: constrained design search over k-ary n-cubes (the homework's Ex 7).

use crate::cmd::model::physical::DelayArgs;
use crate::output::{VERSION, opt, print_json};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use netwrap_model::agarwal::WidthConstraint;
use netwrap_model::design::{self, Candidate, DesignQuery, RankBy};
use netwrap_topo::TopologySpec;
use netwrap_topo::cli::{count, number, positive, whole};
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
    #[arg(long, value_parser = count::<0>, allow_negative_numbers = true)]
    pub nodes: u64,
    /// Request rate m: messages per node per cycle.
    #[arg(long, value_parser = number, allow_negative_numbers = true)]
    pub rate: f64,
    /// Message length L in bits.
    #[arg(long, value_parser = number, allow_negative_numbers = true)]
    pub bits: f64,
    /// Locality fraction l.
    #[arg(long, default_value_t = 1.0, value_parser = number, allow_negative_numbers = true)]
    pub locality: f64,
    /// Signal pins per switch (the constraint of the homework's Ex 7).
    #[arg(long, conflicts_with_all = ["bisection", "width"], required_unless_present_any = ["bisection", "width"], value_parser = positive, allow_negative_numbers = true)]
    pub pins: Option<f64>,
    /// Wires across the bisection.
    #[arg(long, conflicts_with = "width", value_parser = positive, allow_negative_numbers = true)]
    pub bisection: Option<f64>,
    /// A fixed channel width in bits.
    #[arg(long, value_parser = positive, allow_negative_numbers = true)]
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
    #[arg(long, value_parser = whole, allow_negative_numbers = true)]
    pub top: Option<usize>,
    /// Confirm the best K candidates with the simulator (whole flits ⌈L/W⌉, the same
    /// locality and wiring), printing simulated latency beside the model's.
    #[arg(long, value_name = "K", value_parser = whole, allow_negative_numbers = true)]
    pub simulate: Option<usize>,
    /// With --simulate: measured messages per simulation.
    #[arg(long, default_value_t = 20_000, value_parser = count::<1>, allow_negative_numbers = true)]
    pub messages: u64,
    /// With --simulate: seed of the simulations.
    #[arg(long, default_value_t = 1, value_parser = count::<0>, allow_negative_numbers = true)]
    pub seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the candidates as tidy CSV, one row per candidate (`-`: standard output, instead
    /// of the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<std::path::PathBuf>,
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

/// Simulates the first `count` unsaturated candidates (in parallel, one spec each, through
/// the simulator's sweep runner), compared with the model at the simulated point and the
/// candidate's contention form.
fn simulate(a: &DesignArgs, candidates: &[Candidate], count: usize) -> anyhow::Result<Vec<Simulated>> {
    use netwrap_app::{Point, Spec, run_points};
    let chosen: Vec<(usize, &Candidate)> =
        candidates.iter().enumerate().filter(|(_, c)| !c.prediction.saturated).take(count).collect();
    let points: Vec<Point> = chosen
        .iter()
        .enumerate()
        .map(|(index, &(_, c))| {
            let mut spec = Spec::default();
            spec.sim.topology = TopologySpec::Torus {
                k: Some(c.k),
                n: Some(c.n),
                nodes: None,
                radices: None,
                bidirectional: a.bidirectional,
            };
            spec.sim.workload.rate = Some(a.rate);
            spec.sim.workload.size = Some(c.flits.ceil() as u32);
            spec.sim.workload.locality = Some(a.locality);
            spec.sim.run.messages = Some(a.messages);
            spec.sim.run.seed = Some(a.seed);
            spec.model = Some(netwrap_app::ModelSpec { contention: c.form });
            Ok(Point { index: index as u64, ..Point::single(&spec)? })
        })
        .collect::<anyhow::Result<_>>()?;
    let results = run_points(&points, netwrap_engine::Record::default(), |_, _| {}, |_, _| {});
    chosen
        .iter()
        .zip(results)
        .map(|(&(i, c), r)| {
            let run = r.context("simulating a candidate")?;
            let r = &run.result.report;
            let model = run.model.as_ref().and_then(|m| m.latency);
            Ok(Simulated {
                rank: i + 1,
                n: c.n,
                k: c.k,
                flits: run.result.point.workload.size.max(),
                latency: r.latency,
                latency_ci95: r.latency_ci95,
                utilization: r.utilization,
                saturated: r.saturated,
                effective_locality: run.result.locality.as_ref().map_or(1.0, |l| l.effective_locality),
                model_latency: model,
                relative_error: r.latency.zip(model).map(|(s, m)| (s - m) / m),
            })
        })
        .collect()
}

/// A width constraint in words.
fn constraint_text(c: &WidthConstraint) -> String {
    match c {
        WidthConstraint::Width { bits } => format!("channels {} bits wide", crate::output::num(*bits)),
        WidthConstraint::Bisection { wires } => {
            format!("{} wires across the bisection", crate::output::num(*wires))
        }
        WidthConstraint::Pins { pins } => format!("{} signal pins per switch", crate::output::num(*pins)),
    }
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

/// One CSV row: a candidate as the JSON has it, with its rank and, when it was simulated, its
/// simulation (`simulated.*`), so that each row stands alone.
#[derive(Serialize)]
struct CsvRow<'a> {
    rank: usize,
    #[serde(flatten)]
    candidate: &'a Candidate,
    #[serde(skip_serializing_if = "Option::is_none")]
    simulated: Option<&'a Simulated>,
}

/// Validates the arguments into a query.
pub fn query(a: &DesignArgs) -> anyhow::Result<DesignQuery> {
    let constraint = match (a.pins, a.bisection, a.width) {
        (Some(pins), _, _) => WidthConstraint::Pins { pins },
        (_, Some(wires), _) => WidthConstraint::Bisection { wires },
        (_, _, Some(bits)) => WidthConstraint::Width { bits },
        _ => bail!("give a constraint: --pins, --bisection or --width"),
    };
    for (name, v) in [("--pins", a.pins), ("--bisection", a.bisection), ("--width", a.width)] {
        if let Some(v) = v
            && !(v.is_finite() && v > 0.0)
        {
            bail!("{name} {} is invalid: the constraint must be a positive number", crate::output::num(v));
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
    if let Some(path) = &a.csv {
        let rows: Vec<CsvRow> = c
            .iter()
            .enumerate()
            .map(|(i, candidate)| CsvRow {
                rank: i + 1,
                candidate,
                simulated: simulated.iter().flatten().find(|s| s.rank == i + 1),
            })
            .collect();
        if crate::output::write_csv(path, &rows)? {
            return Ok(());
        }
    }
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
    let mut out = crate::output::stdout();
    writeln!(
        out,
        "netwrap {VERSION} design: N = {}, m = {}, L = {} bits, l = {}, {}",
        q.nodes,
        crate::output::num(q.rate),
        crate::output::num(q.bits),
        crate::output::num(q.locality),
        constraint_text(&q.constraint)
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
        // A subcube side is a whole number of nodes: say loudly when that moved the point.
        for s in sims.iter().filter(|s| (s.effective_locality - a.locality).abs() > 1e-9) {
            writeln!(
                out,
                "NOTE: rank {} ({}-ary {}-cube) simulated locality l = {:.4}, not the {} asked: a subcube side of (l·N)^(1/n) = {:.3} nodes rounds to {}; its model column is evaluated at l = {:.4}",
                s.rank,
                s.k,
                s.n,
                s.effective_locality,
                crate::output::num(a.locality),
                a.locality.powf(1.0 / s.n as f64) * s.k as f64,
                (s.effective_locality.powf(1.0 / s.n as f64) * s.k as f64).round(),
                s.effective_locality
            )?;
        }
    }
    out.finish()?;
    Ok(())
}
