//! `netwrap model kary-ncube`.

use super::{fixed, form_line, notes, opt_fixed, saturated_error};
use crate::output::{self, Render, VERSION, num};
use clap::Args;
use netwrap_app::predict::KaryNCubeReport;
use netwrap_model::request::KaryNCubeRequest;
use std::io::Write;
use std::path::PathBuf;

/// `netwrap model kary-ncube`: the request's flags and the output's.
#[derive(Debug, Clone, Args)]
pub struct KaryNCubeArgs {
    #[command(flatten)]
    pub request: KaryNCubeRequest,
    /// Print one JSON object instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
    /// Write the result as tidy CSV, a header and one row (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-", global = true)]
    pub csv: Option<PathBuf>,
}

pub fn run(a: KaryNCubeArgs) -> anyhow::Result<()> {
    let report = netwrap_app::predict::kary_ncube(&a.request)?;
    notes(&report.notes);
    output::emit(&report, a.json, a.csv.as_deref())?;
    let p = &report.prediction;
    if p.saturated {
        return Err(saturated_error("the network", p.utilization, p.max_rate));
    }
    Ok(())
}

impl Render for KaryNCubeReport {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (cfg, p) = (&self.config, &self.prediction);
        let params = &cfg.network;
        writeln!(
            out,
            "netwrap {VERSION} model kary-ncube (Agarwal 1991 eqs. 7, 8, 10; the homework's App. B)"
        )?;
        writeln!(
            out,
            "network: {}-ary {}-cube, N = {}, {}; workload: m = {}, B = {}, l = {}",
            params.k,
            params.n,
            cfg.nodes,
            params.wiring,
            num(params.rate),
            num(params.size),
            num(params.locality)
        )?;
        if let (Some(bits), Some(w), Some(c)) = (cfg.bits, cfg.width, cfg.constraint) {
            writeln!(out, "channel width W = {} bits ({c}); L = {} bits", fixed(w, 4), num(bits))?;
        }
        writeln!(
            out,
            "contention form              {}",
            form_line(params.form, p.contention_form, p.k_d, params.locality)
        )?;
        if params.pipeline != 1 {
            writeln!(
                out,
                "switch pipeline p            {} cycles a switch (Agarwal 1991 §3.2: T = (p + w)·n·k_d + B)",
                params.pipeline
            )?;
        }
        writeln!(out, "k_d                          {}", fixed(p.k_d, 4))?;
        writeln!(out, "channel utilization rho      {}", fixed(p.utilization, 4))?;
        writeln!(out, "unloaded latency T0          {}", fixed(p.unloaded_latency, 4))?;
        writeln!(out, "contention per switch w      {}", opt_fixed(p.contention_per_switch, 4))?;
        writeln!(out, "latency T                    {}", opt_fixed(p.latency, 4))?;
        if let Some(t) = &self.timing {
            writeln!(out, "clock period (T^w(2) units)  {}", fixed(t.clock_period, 4))?;
            writeln!(out, "base latency, eq. 2          {}", fixed(t.base_latency_time, 4))?;
            writeln!(out, "latency, eq. 12              {}", opt_fixed(t.latency_time, 4))?;
        }
        if let Some(note) = &self.note {
            writeln!(out, "note: {note}")?;
        }
        Ok(())
    }
}
