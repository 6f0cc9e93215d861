//! `netwrap sim`: a spec from flags, run by the one runner — a single point, a sweep over
//! rates, or a saturation search.

use crate::args::SpecArgs;
use crate::cmd::runner::{self, RunOptions};
use crate::cmd::saturation;
use anyhow::bail;
use clap::Args;
use netwrap_app::{Spec, Sweep};
use netwrap_topo::TopologySpec;
use netwrap_topo::cli::{count, rate, small_count};
use std::path::PathBuf;

/// Simulate a network cycle by cycle. Without a FAMILY: the homework's Ex 1 network, an
/// 8-ary 2-cube (unidirectional torus), shaped by --k, --n or --nodes, --bidirectional and
/// --no-wrap; name a FAMILY (as in `netwrap topo`), or `--topology FAMILY`, for any other
/// network, its options after its name. Every option is a field of the spec that `--json`
/// prints as `config` and `netwrap run` reads back.
#[derive(Debug, Args)]
#[command(
    subcommand_value_name = "FAMILY",
    subcommand_help_heading = "Topology families (default: the torus of --k/--n)",
    after_help = "Exit status: 0 ok, 2 invalid input, 3 saturated, 5 limit reached (the report is printed first); a sweep marks its points and exits 0."
)]
pub struct SimArgs {
    /// Radix k of the default torus (default 8) [spec: topology.k].
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, help_heading = "Default torus")]
    pub k: Option<u32>,
    /// Dimensions n of the default torus (default 2) [spec: topology.n].
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes", help_heading = "Default torus")]
    pub n: Option<u32>,
    /// Processors N instead of n, rounded up to a whole dimension [spec: topology.nodes].
    #[arg(long, value_parser = count::<1>, allow_negative_numbers = true, help_heading = "Default torus")]
    pub nodes: Option<u64>,
    /// Channels in both directions [spec: topology.bidirectional].
    #[arg(long, help_heading = "Default torus")]
    pub bidirectional: bool,
    /// No end-around links: the mesh family [spec: topology.family = "mesh"].
    #[arg(long, help_heading = "Default torus")]
    pub no_wrap: bool,
    /// Another topology family instead of the torus: any family of `netwrap topo`.
    #[command(subcommand)]
    pub family: Option<TopologySpec>,
    #[command(flatten)]
    pub spec: SpecArgs,
    /// A sweep over the request rate: comma-separated rates, run in parallel and printed as a
    /// table [spec: a sweep axis "workload.rate"].
    #[arg(long, value_delimiter = ',', value_parser = rate, allow_negative_numbers = true, conflicts_with_all = ["rate", "trace"], global = true, help_heading = "Workload")]
    pub rates: Option<Vec<f64>>,
    /// Search the request rate at which the network saturates (see `netwrap saturation`).
    #[arg(long, global = true, conflicts_with_all = ["rates", "trace"], help_heading = "Output")]
    pub find_saturation: bool,
    /// Write every message the run creates (warm-up included, requests and replies, in
    /// creation order) to FILE as a trace that --trace replays: CSV, or JSON lines for a
    /// .jsonl or .json FILE (see docs/sim.md).
    #[arg(long, global = true, value_name = "FILE", help_heading = "Output")]
    pub record_trace: Option<PathBuf>,
    /// Print JSON instead of text: the result, or an array of points for a sweep.
    #[arg(long, global = true, help_heading = "Output")]
    pub json: bool,
    /// Also write tidy CSV, one row per point, or per probe with --find-saturation (`-` for
    /// standard output).
    #[arg(long, global = true, help_heading = "Output")]
    pub csv: Option<PathBuf>,
    /// Write detailed statistics (utilisation per channel class, latency and hop
    /// distributions, per-node counts) to this file.
    #[arg(long, global = true, help_heading = "Output")]
    pub det_file: Option<PathBuf>,
    /// Write every channel's utilisation and, with --router vc, its mean buffer occupancy per
    /// VC in flits, as CSV: one row per channel (and point), `-` for standard output (Puente
    /// et al. Fig. 8's map).
    #[arg(long, global = true, help_heading = "Output", value_name = "FILE")]
    pub channels: Option<PathBuf>,
    /// With --rates: draw latency against the rate (the model dashed with --model) into FILE,
    /// .svg or .png (default: sim-latency.svg).
    #[arg(long, global = true, help_heading = "Output", value_name = "FILE", num_args = 0..=1, default_missing_value = "sim-latency.svg", requires = "rates")]
    pub plot: Option<PathBuf>,
    /// Draw no progress bar (otherwise drawn on standard error, when it is a terminal, for work
    /// lasting over a second).
    #[arg(long, global = true, help_heading = "Output")]
    pub quiet: bool,
}

impl SimArgs {
    /// The spec these options describe.
    pub fn spec(&self) -> anyhow::Result<Spec> {
        let topology = match &self.family {
            Some(f) => {
                let given: Vec<&str> = [
                    ("--k", self.k.is_some()),
                    ("--n", self.n.is_some()),
                    ("--nodes", self.nodes.is_some()),
                    ("--bidirectional", self.bidirectional),
                    ("--no-wrap", self.no_wrap),
                ]
                .iter()
                .filter(|(_, on)| *on)
                .map(|(name, _)| *name)
                .collect();
                if let Some(first) = given.first() {
                    let family = f.family();
                    bail!(
                        "{first} before `{family}` shapes the default torus, which `{family}` replaces: give {family}'s own options after its name, e.g. `netwrap sim {family} --help`"
                    );
                }
                f.clone()
            }
            None if self.no_wrap => {
                TopologySpec::Mesh { k: self.k, n: self.n, nodes: self.nodes, radices: None }
            }
            None => TopologySpec::Torus {
                k: self.k,
                n: self.n,
                nodes: self.nodes,
                radices: None,
                bidirectional: self.bidirectional,
            },
        };
        Ok(self.spec.spec(topology))
    }
}

pub fn run(a: SimArgs) -> anyhow::Result<()> {
    let spec = a.spec()?;
    if a.find_saturation {
        return saturation::search_and_print(
            &spec,
            saturation::DEFAULT_TOLERANCE,
            a.json,
            a.csv.as_deref(),
            a.quiet,
        );
    }
    let sweep = match &a.rates {
        Some(rates) => Sweep::with_axes(
            spec,
            [("workload.rate".to_string(), rates.iter().map(|&r| serde_json::Value::from(r)).collect())]
                .into_iter()
                .collect(),
        )?,
        None => Sweep::single(spec),
    };
    let options = RunOptions {
        csv: a.csv,
        json: a.json,
        det_file: a.det_file,
        plot: a.plot,
        channels: a.channels,
        record_trace: a.record_trace,
        quiet: a.quiet,
        ..RunOptions::default()
    };
    // `runner::run` prints the notes resolving the spec makes.
    runner::run(&sweep, &options)
}
