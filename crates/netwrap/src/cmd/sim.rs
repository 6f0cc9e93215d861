//! `netwrap sim`: a spec from flags, run by the one runner — a single point, a sweep over
//! rates, or a saturation search.

use crate::args::NetworkArgs;
use crate::runner::{self, RunOptions};
use clap::Args;
use netwrap_app::Sweep;
use netwrap_topo::cli::rate;
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
    /// The network and spec, as flags.
    #[command(flatten)]
    pub net: NetworkArgs,
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
    /// With --rates: draw latency against the rate into FILE, .svg or .png (default:
    /// sim-latency.svg), the model dashed over it wherever one applies (the points are then
    /// compared with it, as with --model; --no-model: not).
    #[arg(long, global = true, help_heading = "Output", value_name = "FILE", num_args = 0..=1, default_missing_value = "sim-latency.svg", requires = "rates")]
    pub plot: Option<PathBuf>,
    /// With --plot: draw no model, and compare with none.
    #[arg(long, global = true, help_heading = "Output", requires = "plot", conflicts_with = "model")]
    pub no_model: bool,
    /// Threads for one run (at least 1): the routers are cut into N shards, stepped in
    /// parallel on as many threads (at most one a core), and the result is the same for any N,
    /// on either router. Default: every core for a single run on a network of 4096 routers or
    /// more, one thread otherwise (a sweep, or --find-saturation, runs its points in parallel
    /// instead). UGAL-global runs on one.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024), help_heading = "Run")]
    pub jobs: Option<u32>,
    /// Draw no progress bar (otherwise drawn on standard error, when it is a terminal, for work
    /// lasting over a second).
    #[arg(long, global = true, help_heading = "Output")]
    pub quiet: bool,
}

/// Runs `netwrap sim` with its parsed arguments.
pub fn run(a: SimArgs) -> anyhow::Result<()> {
    let spec = a.net.spec()?;
    if a.find_saturation {
        return runner::search(&spec, runner::DEFAULT_TOLERANCE, a.json, a.csv.as_deref(), a.quiet, a.jobs);
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
        no_model: a.no_model,
        channels: a.channels,
        record_trace: a.record_trace,
        quiet: a.quiet,
        jobs: a.jobs,
        ..RunOptions::default()
    };
    // `runner::run` prints the notes resolving the spec makes.
    runner::run(&sweep, &options)
}
