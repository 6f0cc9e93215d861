//! `netwrap saturation FILE` and `netwrap sim --find-saturation`: the load at which a spec
//! saturates, searched by simulation.

use crate::cmd::run::read;
use crate::output::{self, VERSION, num, opt};
use crate::progress::{Bar, Work};
use anyhow::bail;
use clap::Args;
use netwrap_app::Spec;
use netwrap_engine::Record;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The search's default relative precision.
pub const DEFAULT_TOLERANCE: f64 = 0.02;

/// Search the request rate at which a spec's network saturates, by simulation: probes are
/// judged on what their runs measure (accepted throughput behind offered, or failure to
/// drain), not on the channel load alone.
#[derive(Debug, Args)]
pub struct SaturationArgs {
    /// The spec: `*.toml` or `*.json` (an experiment without sweep axes, or a result).
    pub file: PathBuf,
    /// Relative precision of the answer (the final bracket's width over its top).
    #[arg(long, default_value_t = DEFAULT_TOLERANCE, value_parser = netwrap_topo::cli::number)]
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
}

/// One CSV row: a probe as the JSON has it, numbered in the order the search ran it (1 =
/// first).
#[derive(Serialize)]
struct CsvRow<'a> {
    probe: usize,
    #[serde(flatten)]
    result: &'a netwrap_sim::saturation::Probe,
}

pub fn run(a: SaturationArgs) -> anyhow::Result<()> {
    let sweep = read(&a.file)?;
    if sweep.len() != 1 {
        bail!("the saturation search sweeps the rate itself: give a spec without sweep axes or replications");
    }
    search_and_print(sweep.base(), a.tolerance, a.json, a.csv.as_deref(), a.quiet)
}

/// Runs the search on `spec` and prints it; `csv`: also (`-`: only) its probes as CSV;
/// `quiet`: without a progress bar.
pub fn search_and_print(
    spec: &Spec,
    tolerance: f64,
    json: bool,
    csv: Option<&Path>,
    quiet: bool,
) -> anyhow::Result<()> {
    for note in spec.resolve()?.sim.notes {
        output::note(note);
    }
    let bar = Bar::start(Work::Search, quiet);
    let record = Record { progress: bar.counter(), ..Record::default() };
    let report = netwrap_app::saturation(spec, tolerance, &record, |status| {
        bar.probe_done();
        bar.bracket(status.stable, status.saturated);
    });
    bar.finish();
    let report = report?;
    let s = &report.search;
    if let Some(path) = csv {
        let rows: Vec<CsvRow> =
            s.probes.iter().enumerate().map(|(i, result)| CsvRow { probe: i + 1, result }).collect();
        if output::write_csv(path, &rows)? {
            return Ok(());
        }
    }
    let mut out = output::stdout();
    if json {
        output::write_json(&mut out, &report)?;
        return Ok(out.finish()?);
    }
    writeln!(
        out,
        "netwrap {VERSION} saturation search: {}, B = {} flits, seed {}",
        s.network,
        report.config.sim.workload.size.unwrap_or(netwrap_sim::defaults::SIZE),
        report.seed
    )?;
    writeln!(out, "criterion: {}", s.criterion)?;
    writeln!(out)?;
    writeln!(
        out,
        "{:>14} {:>8} {:>10} {:>10} {:>14} {:>14}",
        "rate", "rho", "accepted", "offered", "latency", "judged"
    )?;
    for p in &s.probes {
        writeln!(
            out,
            "{:>14} {:>8.4} {:>10.5} {:>10.5} {:>14} {:>14}",
            num(p.rate),
            p.utilization,
            p.throughput,
            p.offered,
            opt(p.latency, 2),
            if p.saturated { "saturated" } else { "stable" }
        )?;
    }
    writeln!(out)?;
    match s.first_saturated {
        Some(hi) => writeln!(
            out,
            "saturation: between m = {} (stable) and {} (saturated): {:.4} flits/node/cycle",
            num(s.max_rate),
            num(hi),
            s.max_flits
        )?,
        None => writeln!(out, "no saturation up to m = 1 message/node/cycle")?,
    }
    if let Some(m) = s.max_rate_from_loads {
        writeln!(out, "the exact channel load reaches one flit per cycle at m = {}", num(m))?;
    }
    Ok(out.finish()?)
}
