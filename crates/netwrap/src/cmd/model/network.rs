//! `netwrap model network`: a queue on every channel of any network `netwrap sim` takes
//! (Agarwal 1991 eqs. 3–8 generalised, [`netwrap_model::network`]), from the same flags or
//! spec file.

use super::{fixed, notes, opt_fixed};
use crate::args::NetworkArgs;
use crate::output::{self, Render, VERSION, num};
use crate::runner;
use anyhow::{Context, bail};
use clap::Args;
use netwrap_app::predict::{NetworkCurve, NetworkReport};
use netwrap_model::network::wormhole::Holding;
use netwrap_topo::cli::rate;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// Predict any network `netwrap sim` simulates: the exact flows of its routing and destination
/// pattern, turn by turn, and a queue on every channel; with the ideal switch Agarwal 1991
/// eqs. 3-8 generalised to any channel, with --router vc (wormhole or vct) Greenberg & Guan
/// 1997's wormhole model (eqs. 1-11), service times resolved backwards from the ejection links. The network, routing and workload are `netwrap sim`'s
/// flags, or a spec file as `netwrap run` reads it.
#[derive(Debug, Args)]
#[command(
    subcommand_value_name = "FAMILY",
    subcommand_help_heading = "Topology families (default: the torus of --k/--n)",
    after_help = "Exit status: 0 ok, 2 invalid input or a network the model does not cover, 3 saturated (a single rate; the report is printed first; a curve marks its points and exits 0).\nExamples:\n  netwrap model network --k 8 --n 2 --size 4 --rates 0.01,0.02,0.03\n  netwrap model network --pattern transpose mesh --k 8\n  netwrap model network experiment.toml"
)]
pub struct NetworkModelArgs {
    /// A spec or experiment file (`*.toml`, `*.json`); without it, the options below. An
    /// experiment file's sweep may be over `workload.rate` only (its rates are the curve's).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The network and workload, as `netwrap sim` takes them.
    #[command(flatten)]
    pub net: NetworkArgs,
    /// A curve over the request rate: comma-separated rates, one line each.
    #[arg(long, value_delimiter = ',', value_parser = rate, allow_negative_numbers = true, conflicts_with = "rate", global = true, help_heading = "Workload")]
    pub rates: Option<Vec<f64>>,
    /// Print JSON instead of a table: one object, or an array of them with several rates.
    #[arg(long, global = true, help_heading = "Output")]
    pub json: bool,
    /// Write the result as tidy CSV, one row per rate (`-`: standard output, instead of the
    /// table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-", global = true, help_heading = "Output")]
    pub csv: Option<PathBuf>,
}

pub fn run(a: NetworkModelArgs) -> anyhow::Result<()> {
    let curve = match &a.file {
        Some(file) => {
            if a.net.any() {
                bail!("netwrap model network: give a FILE or the options of `netwrap sim`, not both");
            }
            let sweep = runner::read_experiment(file)?;
            netwrap_app::predict::network_of(&sweep, a.rates.as_deref())
                .with_context(|| format!("in {}", file.display()))?
        }
        None => netwrap_app::predict::network(&a.net.spec()?, a.rates.as_deref())?,
    };
    if let Some(first) = curve.points.first() {
        notes(&first.notes);
    }
    match curve.points.as_slice() {
        [one] => {
            output::emit(one, a.json, a.csv.as_deref())?;
            let p = &one.prediction;
            if p.saturated && one.vc.is_some() {
                return Err(output::saturated(format!(
                    "the network is saturated: the VC router's model does not settle at this rate (its service times grow without bound; {} fails first at the highest sustainable rate, {} messages/node/cycle)",
                    one.vc.as_ref().map_or("", |v| v.limiting.as_str()),
                    fixed(p.max_rate, 6)
                )));
            }
            if p.saturated {
                return Err(output::saturated(format!(
                    "the network is saturated: its busiest channel is offered utilization {} >= 1, so its queue is unstable and has no steady-state latency; the highest sustainable rate is {} messages/node/cycle",
                    fixed(p.max_utilization, 4),
                    fixed(p.max_rate, 6)
                )));
            }
            Ok(())
        }
        _ => output::emit(&curve, a.json, a.csv.as_deref()),
    }
}

/// The table: the network, then a line per rate, then the saturation rate.
fn table(points: &[NetworkReport], out: &mut dyn Write) -> std::io::Result<()> {
    let Some(first) = points.first() else { return Ok(()) };
    let p = &first.prediction;
    match &first.vc {
        None => writeln!(
            out,
            "netwrap {VERSION} model network (Agarwal 1991 eqs. 3-8 on every channel; ideal switch)"
        )?,
        Some(vc) => {
            let holding = match vc.holding {
                Holding::Wormhole => "wormhole",
                Holding::CutThrough => "virtual cut-through",
            };
            writeln!(
                out,
                "netwrap {VERSION} model network (Greenberg & Guan 1997 eqs. 1-11 on every channel; VC router, {holding})"
            )?
        }
    }
    writeln!(
        out,
        "network: {}, {} nodes, {} routers, {} channels; routing: {}; workload: {}, B = {}",
        first.network.name,
        first.network.nodes,
        first.network.routers,
        first.network.channels,
        runner::routing_text(&first.point),
        pattern_name(&first.config),
        size_name(&first.config),
    )?;
    writeln!(
        out,
        "mean hops {}, unloaded latency T0 {}",
        fixed(p.mean_hops, 4),
        fixed(p.unloaded_latency, 4)
    )?;
    writeln!(
        out,
        "{:>10}  {:>10}  {:>10}  {:>10}  {:>10}",
        "rate", "latency", "throughput", "rho mean", "rho max"
    )?;
    for r in points {
        let p = &r.prediction;
        let latency = if p.saturated { "saturated".to_string() } else { opt_fixed(p.latency, 4) };
        writeln!(
            out,
            "{:>10}  {:>10}  {:>10}  {:>10}  {:>10}",
            num(p.offered),
            latency,
            fixed(p.throughput, 6),
            fixed(p.utilization, 4),
            fixed(p.max_utilization, 4)
        )?;
    }
    match &first.vc {
        None => writeln!(
            out,
            "saturation rate              {} (busiest channel {} reaches rho = 1)",
            fixed(p.max_rate, 6),
            p.busiest_channel
        ),
        Some(vc) => {
            let why = if vc.limiting == "the fixed point" {
                "the service times grow without bound before any queue reaches rho = 1".to_string()
            } else {
                format!("{} reaches rho = 1 first", vc.limiting)
            };
            writeln!(
                out,
                "saturation rate              {} (G&G eq. 26 generalised: {why})",
                fixed(p.max_rate, 6)
            )?;
            writeln!(
                out,
                "bandwidth bound              {} (busiest channel {} reaches rho = 1 unblocked)",
                fixed(vc.bandwidth_rate, 6),
                p.busiest_channel
            )
        }
    }
}

/// A spec section's key as the config prints it, or `default`.
fn key(config: &netwrap_sim::SimSpec, section: &str, name: &str) -> Option<Value> {
    let v = serde_json::to_value(config).ok()?;
    v.get(section)?.get(name).cloned()
}

fn pattern_name(config: &netwrap_sim::SimSpec) -> String {
    key(config, "workload", "pattern")
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "uniform".into())
}

fn size_name(config: &netwrap_sim::SimSpec) -> String {
    key(config, "workload", "size").map_or_else(|| "?".into(), |v| v.to_string())
}

impl Render for NetworkReport {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        table(std::slice::from_ref(self), out)
    }
}

impl Render for NetworkCurve {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        table(&self.points, out)
    }

    fn rows(&self) -> Vec<Value> {
        self.points.iter().map(|p| serde_json::to_value(p).unwrap_or(Value::Null)).collect()
    }
}
