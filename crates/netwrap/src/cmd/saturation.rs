//! `netwrap saturation FILE` and `netwrap sim --find-saturation`: the load at which a spec
//! saturates, searched by simulation.

use crate::runner;
use anyhow::bail;
use clap::Args;
use std::path::PathBuf;

/// Search the request rate at which a spec's network saturates, by simulation: probes are
/// judged on what their runs measure (accepted throughput behind offered, or failure to
/// drain), not on the channel load alone.
#[derive(Debug, Args)]
pub struct SaturationArgs {
    /// The spec: `*.toml` or `*.json` (an experiment without sweep axes, or a result).
    pub file: PathBuf,
    /// Relative precision of the answer (the final bracket's width over its top).
    #[arg(long, default_value_t = runner::DEFAULT_TOLERANCE, value_parser = netwrap_topo::cli::number)]
    pub tolerance: f64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the probes as tidy CSV, one row per probe (`-`: standard output, instead of the
    /// table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<PathBuf>,
    /// Draw no progress bar (otherwise drawn on standard error, when it is a terminal, for a
    /// search lasting over a second).
    #[arg(long)]
    pub quiet: bool,
    /// Threads for each probe (at least 1; default 1, since the probes of
    /// a round run in parallel): as `netwrap sim --jobs`, the same answer for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
}

/// Runs `netwrap saturation` with its parsed arguments.
pub fn run(a: SaturationArgs) -> anyhow::Result<()> {
    let sweep = runner::read_experiment(&a.file)?;
    if sweep.len() != 1 {
        bail!("the saturation search sweeps the rate itself: give a spec without sweep axes or replications");
    }
    runner::search(sweep.base(), a.tolerance, a.json, a.csv.as_deref(), a.quiet, a.jobs)
}
