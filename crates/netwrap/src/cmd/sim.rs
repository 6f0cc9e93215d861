//! `netwrap sim`: simulate a k-ary n-cube, optionally beside the model's prediction, for one
//! request rate or a sweep.

use crate::cmd::details;
use crate::cmd::model::{KaryNCubeArgs, dimensions, wiring};
use crate::cmd::topo::{FamilyCmd, spec as family_spec};
use crate::output::{VERSION, opt, print_json, saturated};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use netwrap_model::kary_ncube::{self, ContentionForm, KaryNCube, Prediction};

use netwrap_sim::{CubeRun, CubeSim, EngineKind, FamilyRun, FamilySim, simulate_cube, simulate_family};
use netwrap_topo::{DimensionOrder, TopologySpec};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;

/// Simulation options: the network and workload options of `netwrap model kary-ncube`, plus
/// run control. Defaults are seed 004 Ex 1: 64 processors in an 8-ary 2-cube, m = 0.04, B = 4.
/// Name a FAMILY (as in `netwrap topo`), or `--topology FAMILY`, to simulate any other network.
#[derive(Debug, Args)]
#[command(
    subcommand_value_name = "FAMILY",
    subcommand_help_heading = "Topology families (default: the k-ary n-cube of --k/--n)"
)]
pub struct SimArgs {
    #[command(flatten)]
    pub net: KaryNCubeArgs,
    /// Another topology family instead of the k-ary n-cube: any family of `netwrap topo`.
    #[command(subcommand)]
    pub topology: Option<FamilyCmd>,
    /// With a family: route by a table of every minimal next hop instead of the family's own
    /// routing (at most 8192 routers).
    #[arg(long, global = true)]
    pub table_routing: bool,
    /// A sweep: comma-separated request rates, run in parallel and printed as a table.
    #[arg(long, value_delimiter = ',', num_args = 1.., allow_negative_numbers = true, conflicts_with = "rate", global = true)]
    pub rates: Option<Vec<f64>>,
    /// Measured messages: the run lasts until all of them are delivered.
    #[arg(long, default_value_t = 10_000, global = true)]
    pub messages: u64,
    /// Stop after this many cycles even if measured messages are still in flight.
    #[arg(long, default_value_t = 10_000_000, global = true)]
    pub max_cycles: u64,
    /// Seed of all random streams.
    #[arg(long, default_value_t = 1, global = true)]
    pub seed: u64,
    /// Warm-up cycles discarded before measuring (default: ten worst-case unloaded latencies,
    /// stretched near saturation; at least 1,000).
    #[arg(long, global = true)]
    pub warmup: Option<u64>,
    /// Dimension order of routing.
    #[arg(long, value_enum, default_value_t = Order::HighestFirst)]
    pub order: Order,
    /// Engine: the per-message fast path or the flit-by-flit reference.
    #[arg(long, value_enum, default_value_t = Engine::Fast, global = true)]
    pub engine: Engine,
    /// Print the model's prediction beside the simulation, with the relative error.
    #[arg(long, global = true)]
    pub model: bool,
    /// With --model: force eq. 8's contention form, (k_d − 1)/k_d² (default: the form
    /// Appendix B recommends, the small-k_d one when k_d <= 2, eq. 8's otherwise).
    #[arg(long, conflicts_with = "contention", global = true)]
    pub large_kd: bool,
    /// Write detailed statistics (utilisation per channel class, latency and hop
    /// distributions, per-node counts) to this file.
    #[arg(long, global = true)]
    pub det_file: Option<PathBuf>,
}

/// Dimension order, as a command-line value.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Order {
    /// Highest dimension first (seed 000 §3.3).
    HighestFirst,
    /// Lowest dimension first.
    LowestFirst,
}

/// Engine, as a command-line value.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Engine {
    /// Per-message passage computation.
    Fast,
    /// Flit by flit (slow; for checking).
    Reference,
}

impl SimArgs {
    /// The contention form forced on the command line, if any.
    pub fn form(&self) -> Option<ContentionForm> {
        match (self.net.contention.forced(), self.large_kd) {
            (Some(form), _) => Some(form),
            (_, true) => Some(ContentionForm::LargeKd),
            _ => None,
        }
    }

    /// The simulation these options describe, at request rate `rate`.
    pub fn cube_sim(&self, rate: f64) -> anyhow::Result<CubeSim> {
        let net = &self.net;
        let n = dimensions(net.k, net.n, net.nodes)?;
        let (bidirectional, wrap) = (net.bidirectional || net.no_wrap, !net.no_wrap);
        Ok(CubeSim {
            wrap,
            bidirectional,
            order: match self.order {
                Order::HighestFirst => DimensionOrder::HighestFirst,
                Order::LowestFirst => DimensionOrder::LowestFirst,
            },
            locality: net.locality,
            messages: self.messages,
            max_cycles: self.max_cycles,
            warmup: self.warmup,
            seed: self.seed,
            engine: match self.engine {
                Engine::Fast => EngineKind::Fast,
                Engine::Reference => EngineKind::Reference,
            },
            ..CubeSim::new(net.k, n, rate, net.size)
        })
    }
}

/// The model evaluated at the point a run actually simulated (the effective locality), with
/// the contention form `form` or, when `None`, the one seed 004 App. B recommends: eq. 8's
/// "for values of k_d > 2", the small-k_d form otherwise.
pub fn model_for(run: &CubeRun, form: Option<ContentionForm>) -> anyhow::Result<ModelPoint> {
    let c = &run.config.sim;
    let mut params = KaryNCube {
        locality: run.config.subcube.effective_locality,
        wiring: wiring(c.bidirectional, !c.wrap),
        ..KaryNCube::new(c.k, c.n, c.rate, c.size as f64)
    };
    params.form = ContentionForm::LargeKd;
    let large = kary_ncube::predict(&params).context("model parameters")?;
    params.form = match form {
        Some(f) => f,
        None if large.k_d > 2.0 => ContentionForm::LargeKd,
        None => ContentionForm::SmallKd,
    };
    Ok(ModelPoint {
        form: params.form,
        prediction: kary_ncube::predict(&params).context("model parameters")?,
    })
}

/// A model prediction and the contention form it used.
#[derive(Debug, Clone, Serialize)]
pub struct ModelPoint {
    /// Contention form.
    pub form: ContentionForm,
    /// The prediction.
    #[serde(flatten)]
    pub prediction: Prediction,
}

impl std::ops::Deref for ModelPoint {
    type Target = Prediction;
    fn deref(&self) -> &Prediction {
        &self.prediction
    }
}

/// Relative error of the simulation against the model, (sim − model) / model.
#[derive(Debug, Serialize)]
pub struct Errors {
    utilization: Option<f64>,
    latency: Option<f64>,
}

#[derive(Serialize)]
struct Point<'a> {
    netwrap_version: &'static str,
    seed: u64,
    #[serde(flatten)]
    run: &'a CubeRun,
    model: Option<ModelPoint>,
    relative_error: Option<Errors>,
}

fn rel(sim: Option<f64>, model: Option<f64>) -> Option<f64> {
    match (sim, model) {
        (Some(s), Some(m)) if m != 0.0 => Some((s - m) / m),
        _ => None,
    }
}

fn point(run: &CubeRun, model: Option<ModelPoint>) -> Point<'_> {
    let relative_error = model.as_ref().map(|m| Errors {
        utilization: rel(Some(run.report.utilization), Some(m.utilization)),
        latency: rel(run.report.latency, m.latency),
    });
    Point { netwrap_version: VERSION, seed: run.config.sim.seed, run, model, relative_error }
}

pub fn run(a: SimArgs) -> anyhow::Result<()> {
    if a.topology.is_some() {
        return run_family(&a);
    }
    let rates = a.rates.clone().unwrap_or_else(|| vec![a.net.rate]);
    let sims = rates.iter().map(|&r| a.cube_sim(r)).collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(path) = &a.det_file {
        details::check_writable(path)?;
    }
    let runs: Vec<CubeRun> = sims
        .par_iter()
        .map(simulate_cube)
        .collect::<Result<_, _>>()
        .context("invalid simulation parameters")?;
    let models: Vec<Option<ModelPoint>> = runs
        .iter()
        .map(|r| if a.model { model_for(r, a.form()).map(Some) } else { Ok(None) })
        .collect::<anyhow::Result<_>>()?;
    if let Some(path) = &a.det_file {
        details::write(path, &runs)?;
    }
    if a.net.json {
        let points: Vec<Point> = runs.iter().zip(models).map(|(r, m)| point(r, m)).collect();
        if a.rates.is_some() {
            print_json(&points)?;
        } else {
            print_json(&points[0])?;
        }
        return single_run_verdict(&runs, a.rates.is_some());
    }
    if a.rates.is_some() {
        print_sweep(&runs, &models);
    } else {
        print_one(&runs[0], models[0].as_ref());
    }
    single_run_verdict(&runs, a.rates.is_some())
}

/// A single saturated run ends with exit status 3 after its report; a sweep, which explores
/// load up to and past saturation on purpose, marks saturated points and succeeds.
fn single_run_verdict(runs: &[CubeRun], sweep: bool) -> anyhow::Result<()> {
    match runs[0].report.saturation_reason.as_deref() {
        Some(reason) if !sweep => Err(saturated(format!("the network is saturated: {reason}"))),
        _ => Ok(()),
    }
}

fn header(run: &CubeRun, sweep: bool) {
    let c = &run.config;
    println!("netwrap {VERSION} sim: {}, {} processors, seed {}", c.topology, c.nodes, c.sim.seed);
    let rate = if sweep { "swept".to_string() } else { format!("{} messages/node/cycle", c.sim.rate) };
    println!(
        "workload: m = {rate}, B = {} flits, l = {} (subcube sides {:?}, effective l = {:.4})",
        c.sim.size, c.sim.locality, c.subcube.sides, c.subcube.effective_locality
    );
    let warmup = if sweep { "per-rate".to_string() } else { c.sim.warmup.unwrap_or(0).to_string() };
    println!(
        "run: {warmup} warm-up cycles, {} measured messages, {} engine, {} routing",
        c.sim.messages,
        match c.sim.engine {
            EngineKind::Fast => "fast",
            EngineKind::Reference => "flit-by-flit reference",
        },
        match c.sim.order {
            DimensionOrder::HighestFirst => "dimension-order (highest first)",
            DimensionOrder::LowestFirst => "dimension-order (lowest first)",
        }
    );
}

/// Latency with its interval: wide ("12.345 ± 0.678", "saturated") for reports, narrow
/// ("12.35±0.68", "—") for sweep tables.
fn latency_text(r: &netwrap_sim::report::Report, wide: bool) -> String {
    match (r.latency, r.latency_ci95, wide) {
        (Some(l), Some(ci), true) => format!("{l:.3} ± {ci:.3}"),
        (Some(l), Some(ci), false) => format!("{l:.2}±{ci:.2}"),
        (Some(l), None, true) => format!("{l:.3}"),
        (Some(l), None, false) => format!("{l:.2}"),
        (None, _, true) => "saturated".into(),
        (None, _, false) => "—".into(),
    }
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |e| format!("{:+.1}%", 100.0 * e))
}

fn print_one(run: &CubeRun, model: Option<&ModelPoint>) {
    header(run, false);
    let r = &run.report;
    let lat = latency_text(r, true);
    let row = |name: &str, sim: String, m: Option<String>, e: Option<String>| match model {
        Some(_) => println!("{name:<30}{sim:>20}{:>14}{:>10}", m.unwrap_or_default(), e.unwrap_or_default()),
        None => println!("{name:<30}{sim:>20}"),
    };
    println!();
    if let Some(m) = model {
        println!("model: seed 000 eq. 10 with {}", form_name(m.form));
        println!("{:<30}{:>20}{:>14}{:>10}", "", "simulation", "model", "error");
    }
    row(
        "channel utilization rho",
        format!("{:.4}", r.utilization),
        model.map(|m| format!("{:.4}", m.utilization)),
        model.map(|m| pct(rel(Some(r.utilization), Some(m.utilization)))),
    );
    row("latency T", lat, model.map(|m| opt(m.latency, 3)), model.map(|m| pct(rel(r.latency, m.latency))));
    row(
        "mean hops",
        format!("{:.3} ± {}", r.mean_hops, opt(r.mean_hops_ci95, 3)),
        model.map(|m| format!("{:.3}", m.mean_hops)),
        model.map(|m| pct(rel(Some(r.mean_hops), Some(m.mean_hops)))),
    );
    row(
        "throughput (msg/node/cycle)",
        format!("{:.5}", r.throughput),
        model.map(|m| format!("{:.5}", m.throughput)),
        None,
    );
    row(
        "offered (msg/node/cycle)",
        format!("{:.5}", r.offered),
        model.map(|m| format!("{:.5}", m.offered)),
        None,
    );
    println!("{:<30}{:>20}", "source queueing", format!("{:.3}", r.source_queueing));
    println!("{:<30}{:>20}", "network latency", format!("{:.3}", r.network_latency));
    if let Some(p) = &r.latency_percentiles {
        println!(
            "{:<30}{:>20}",
            "latency p50/p95/p99/max",
            format!("{}/{}/{}/{}", p.p50, p.p95, p.p99, p.max)
        );
    }
    println!("{:<30}{:>20}", "messages delivered", r.messages_delivered);
    println!("{:<30}{:>20}", "messages generated (window)", r.messages_generated);
    println!("{:<30}{:>20}", "cycles simulated", r.cycles);
    for c in &r.utilization_by_class {
        println!("{:<30}{:>20}", format!("utilization {}", c.class), format!("{:.4}", c.utilization));
    }
    if let Some(reason) = &r.saturation_reason {
        println!();
        println!("SATURATED: {reason}.");
        println!(
            "The network accepts {:.5} messages/node/cycle of the {:.5} offered (the busiest channel saturates at m = {:.5}); \
             latency grows with the length of the run (mean over this run: {:.1} cycles, meaningless as a steady-state figure).",
            r.throughput, r.offered, run.saturation_rate, r.latency_observed
        );
    }
}

fn form_name(f: ContentionForm) -> &'static str {
    match f {
        ContentionForm::LargeKd => "eq. 8's contention, (k_d-1)/k_d^2",
        ContentionForm::SmallKd => "App. B's small-k_d contention, (k_d-1/2)/(k_d+1/2)^2",
        ContentionForm::FullVariance => "eq. 3 with eq. 5's full variance",
        ContentionForm::Auto => "App. B's rule",
    }
}

fn print_sweep(runs: &[CubeRun], models: &[Option<ModelPoint>]) {
    header(&runs[0], true);
    if let Some(Some(m)) = models.first() {
        println!("model: seed 000 eq. 10 with {}", form_name(m.form));
    }
    println!();
    println!(
        "{:>9} {:>8} {:>8} {:>16} {:>10} {:>9} {:>10} {:>10}",
        "rate", "rho", "rho_mdl", "latency", "T_model", "error", "accepted", "saturated"
    );
    for (run, m) in runs.iter().zip(models) {
        let r = &run.report;
        let lat = latency_text(r, false);
        println!(
            "{:>9} {:>8.4} {:>8} {:>16} {:>10} {:>9} {:>10.5} {:>10}",
            run.config.sim.rate,
            r.utilization,
            m.as_ref().map_or("—".into(), |m| format!("{:.4}", m.utilization)),
            lat,
            m.as_ref().map_or("—".into(), |m| opt(m.latency, 2)),
            pct(m.as_ref().and_then(|m| rel(r.latency, m.latency))),
            r.throughput,
            if r.saturated { "yes" } else { "no" }
        );
    }
}

/// One family run as JSON.
#[derive(Serialize)]
struct FamilyPoint<'a> {
    netwrap_version: &'static str,
    seed: u64,
    #[serde(flatten)]
    run: &'a FamilyRun,
}

/// `netwrap sim … FAMILY …`: the ideal switch on any family, uniform traffic.
fn run_family(a: &SimArgs) -> anyhow::Result<()> {
    let family = a.topology.as_ref().expect("a family was named");
    if a.model {
        bail!(
            "--model compares with the k-ary n-cube model; for other families use `netwrap model indirect` \
             or `netwrap model fat-tree`, or simulate the cube with --k/--n"
        );
    }
    if a.net.locality != 1.0 {
        bail!(
            "--locality applies to k-ary n-cubes (a subcube with a corner at the source); simulate them with --k/--n"
        );
    }
    let mut topology = family_spec(family)?;
    if a.table_routing {
        topology = TopologySpec::Table { of: Box::new(topology) };
    }
    let rates = a.rates.clone().unwrap_or_else(|| vec![a.net.rate]);
    let sims: Vec<FamilySim> = rates
        .iter()
        .map(|&rate| FamilySim {
            topology: topology.clone(),
            rate,
            size: a.net.size,
            messages: a.messages,
            max_cycles: a.max_cycles,
            warmup: a.warmup,
            seed: a.seed,
            engine: match a.engine {
                Engine::Fast => EngineKind::Fast,
                Engine::Reference => EngineKind::Reference,
            },
        })
        .collect();
    if let Some(path) = &a.det_file {
        details::check_writable(path)?;
    }
    let runs: Vec<FamilyRun> = sims
        .par_iter()
        .map(simulate_family)
        .collect::<Result<_, _>>()
        .context("invalid simulation parameters")?;
    if let Some(path) = &a.det_file {
        details::write(path, &runs)?;
    }
    let sweep = a.rates.is_some();
    if a.net.json {
        let points: Vec<FamilyPoint> =
            runs.iter().map(|run| FamilyPoint { netwrap_version: VERSION, seed: a.seed, run }).collect();
        if sweep { print_json(&points)? } else { print_json(&points[0])? }
    } else {
        let c = &runs[0].config;
        println!(
            "netwrap {VERSION} sim: {}, {} processors, {} routers, {} channels, seed {}",
            c.name, c.nodes, c.routers, c.channels, c.sim.seed
        );
        println!(
            "workload: uniform traffic, m = {}, B = {} flits; {} measured messages; offered loads: {}",
            if sweep { "swept".to_string() } else { c.sim.rate.to_string() },
            c.sim.size,
            c.sim.messages,
            runs[0].load_method
        );
        if sweep {
            print_family_sweep(&runs);
        } else {
            print_family_one(&runs[0]);
        }
    }
    match runs[0].report.saturation_reason.as_deref() {
        Some(reason) if !sweep => Err(saturated(format!("the network is saturated: {reason}"))),
        _ => Ok(()),
    }
}

fn print_family_one(run: &FamilyRun) {
    let r = &run.report;
    let lat = latency_text(r, true);
    println!();
    println!("{:<32}{:>20}", "channel utilization rho", format!("{:.4}", r.utilization));
    println!("{:<32}{:>20}", "latency T", lat);
    println!(
        "{:<32}{:>20}   (routes: {:.3})",
        "mean hops",
        format!("{:.3} ± {}", r.mean_hops, opt(r.mean_hops_ci95, 3)),
        run.expected_mean_hops
    );
    println!("{:<32}{:>20}", "throughput (msg/node/cycle)", format!("{:.5}", r.throughput));
    println!("{:<32}{:>20}", "offered (msg/node/cycle)", format!("{:.5}", r.offered));
    if let (Some(u), Some(m)) = (run.offered_utilization, run.saturation_rate) {
        println!("{:<32}{:>20}   (saturates at m = {m:.5})", "busiest channel offered", format!("{u:.4}"));
    }
    println!("{:<32}{:>20}", "messages delivered", r.messages_delivered);
    println!("{:<32}{:>20}", "cycles simulated", r.cycles);
    for c in &r.utilization_by_class {
        println!(
            "{:<32}{:>20}   (offered {})",
            format!("utilization {}", c.class),
            format!("{:.4}", c.utilization),
            opt(c.expected, 4)
        );
    }
    if let Some(reason) = &r.saturation_reason {
        println!("\nSATURATED: {reason}; accepted {:.5} of {:.5} offered.", r.throughput, r.offered);
    }
}

fn print_family_sweep(runs: &[FamilyRun]) {
    println!();
    println!(
        "{:>9} {:>8} {:>16} {:>9} {:>10} {:>10}",
        "rate", "rho", "latency", "hops", "accepted", "saturated"
    );
    for run in runs {
        let r = &run.report;
        let lat = latency_text(r, false);
        println!(
            "{:>9} {:>8.4} {:>16} {:>9.3} {:>10.5} {:>10}",
            run.config.sim.rate,
            r.utilization,
            lat,
            r.mean_hops,
            r.throughput,
            if r.saturated { "yes" } else { "no" }
        );
    }
}
