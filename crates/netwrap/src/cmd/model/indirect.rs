//! `netwrap model indirect`: buffered multistage networks (Agarwal 1991 eqs. 13–14; the
//! homework's App. C).

use super::{fixed, notes, opt_fixed, saturated_error};
use crate::output::{self, Render, VERSION, num};
use clap::Args;
use netwrap_app::predict::IndirectReport;
use netwrap_model::request::IndirectRequest;
use std::io::Write;
use std::path::PathBuf;

/// `netwrap model indirect`: the request's flags and the output's.
#[derive(Debug, Clone, Args)]
pub struct IndirectArgs {
    #[command(flatten)]
    pub request: IndirectRequest,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the result as tidy CSV, a header and one row (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<PathBuf>,
}

pub fn run(a: IndirectArgs) -> anyhow::Result<()> {
    let report = netwrap_app::predict::indirect(&a.request)?;
    notes(&report.notes);
    output::emit(&report, a.json, a.csv.as_deref())?;
    let p = &report.prediction;
    if p.saturated {
        return Err(saturated_error("the indirect network", p.utilization, p.max_rate));
    }
    Ok(())
}

impl Render for IndirectReport {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (cfg, p) = (&self.config, &self.prediction);
        let net = &cfg.network;
        writeln!(out, "netwrap {VERSION} model indirect (Agarwal 1991 eqs. 13-14; the homework's App. C)")?;
        writeln!(
            out,
            "network: {n} stages of {k}x{k} switches, N = {nodes}; workload: m = {}, B = {}, M = {}",
            num(net.rate),
            num(net.size),
            num(net.memory_latency),
            n = net.n,
            k = net.k,
            nodes = cfg.nodes
        )?;
        writeln!(out, "channel utilization rho      {}", fixed(p.utilization, 4))?;
        writeln!(out, "unloaded latency             {}", fixed(p.unloaded_latency, 4))?;
        writeln!(out, "contention per stage w       {}", opt_fixed(p.contention_per_switch, 4))?;
        writeln!(out, "latency T                    {}", opt_fixed(p.latency, 4))?;
        writeln!(out, "saturation rate 1/B          {}", fixed(p.max_rate, 6))
    }
}
