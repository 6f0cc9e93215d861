//! `netwrap run FILE`: an experiment file (a spec plus sweep axes, TOML or JSON) or a
//! result's JSON, run by the one runner.

use crate::runner::{self, RunOptions, Shard, parse_shard};

use clap::Args;

use std::path::PathBuf;

/// Run an experiment file: a spec with optional sweep axes (TOML, or JSON), or a result
/// printed by `--json`, which is run again from its `config` and reproduces it bit for bit.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("outputs").args(["csv", "jsonl"]).multiple(true)))]
#[command(
    after_help = "Exit status: 0 ok (a sweep marks saturated points and succeeds), 2 invalid input, 1 output not written; a single point exits 3 saturated, 5 limit reached.\n\nAn experiment file is a spec in TOML, a table per section ([topology] with family = \"torus\", k = 8; [routing], [router], [workload], [run], [model]), its keys spelt as `netwrap sim`'s flags, and a [sweep] table of axes: a field's dotted path and its values (\"workload.rate\" = [0.01, 0.02]), [[sweep.zip]] groups of axes that advance together, replications = R. A result printed by `--json` runs again as it ran."
)]
pub struct RunArgs {
    /// The experiment: `*.toml`, or `*.json` (a spec, or a result).
    pub file: PathBuf,
    /// Write tidy CSV here, one row per point as each finishes (`-`: standard output).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write JSON lines here, one result per point as each finishes (`-`: standard output).
    #[arg(long)]
    pub jsonl: Option<PathBuf>,
    /// Skip the points already in the --csv/--jsonl files (after a killed run).
    #[arg(long, requires = "outputs")]
    pub resume: bool,
    /// Run a deterministic share of the points: those whose index is i modulo N (for job
    /// arrays); `netwrap merge` joins the shards' files.
    #[arg(long, value_parser = parse_shard, allow_hyphen_values = true)]
    pub shard: Option<Shard>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write detailed statistics of every point to this file.
    #[arg(long)]
    pub det_file: Option<PathBuf>,
    /// Draw latency against the first swept parameter, one curve per value of the others, the
    /// model dashed over them wherever one applies (the points are then compared with it, as
    /// with a `model` section; --no-model: not), redrawn as each point finishes: into FILE
    /// (.svg or .png) (default: EXPERIMENT-latency.svg in the current directory). `netwrap
    /// plot` draws any column of the CSV.
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    pub plot: Option<Option<PathBuf>>,
    /// With --plot: draw no model, and compare with none (for a file without a `model`
    /// section).
    #[arg(long, requires = "plot")]
    pub no_model: bool,
    /// Write every channel's utilisation and, with the virtual-channel router, its mean buffer
    /// occupancy per VC, one row per point and channel, as CSV (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub channels: Option<PathBuf>,
    /// Write every message of the run (a single point) to FILE as a trace that --trace
    /// replays: CSV, or JSON lines for a .jsonl or .json FILE.
    #[arg(long, value_name = "FILE")]
    pub record_trace: Option<PathBuf>,
    /// Threads for one run (at least 1): the routers are cut into N shards, stepped in
    /// parallel on as many threads (at most one a core), and the result is the same for any N,
    /// on either router. Default: every core for a single point on a network of 4096 routers
    /// or more, one thread otherwise (a sweep runs its points in parallel instead).
    /// UGAL-global runs on one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// Draw no progress bar (otherwise drawn on standard error, when it is a terminal, for work
    /// lasting over a second).
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `netwrap run` with its parsed arguments.
pub fn run(a: RunArgs) -> anyhow::Result<()> {
    let sweep = runner::read_experiment(&a.file)?;
    let options = RunOptions {
        shard: a.shard,
        csv: a.csv,
        jsonl: a.jsonl,
        resume: a.resume,
        json: a.json,
        det_file: a.det_file,
        channels: a.channels,
        record_trace: a.record_trace,
        quiet: a.quiet,
        jobs: a.jobs,
        no_model: a.no_model,
        inputs: vec![("the experiment file", a.file.clone())],
        plot: a.plot.map(|p| {
            p.unwrap_or_else(|| {
                let stem = a.file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                PathBuf::from(format!("{stem}-latency.svg"))
            })
        }),
    };
    runner::run(&sweep, &options)
}
