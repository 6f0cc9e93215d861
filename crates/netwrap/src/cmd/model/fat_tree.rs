//! `netwrap model fat-tree`: Greenberg & Guan's wormhole model of the butterfly fat-tree
//! (their eqs. 1–26).

use super::{fixed, opt_fixed};
use crate::output::{self, Render, VERSION, num};
use clap::Args;
use netwrap_app::predict::FatTreeReport;
use netwrap_model::request::FatTreeRequest;
use std::io::Write;
use std::path::PathBuf;

/// `netwrap model fat-tree`: the request's flags and the output's.
#[derive(Debug, Clone, Args)]
pub struct FatTreeArgs {
    #[command(flatten)]
    pub request: FatTreeRequest,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the result as tidy CSV, a header and one row (the channels as one cell of JSON) (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<PathBuf>,
}

pub fn run(a: FatTreeArgs) -> anyhow::Result<()> {
    let report = netwrap_app::predict::fat_tree(&a.request)?;
    output::emit(&report, a.json, a.csv.as_deref())?;
    let (cfg, p) = (&report.config, &report.prediction);
    if p.saturated {
        return Err(output::saturated(format!(
            "the fat-tree is saturated at λ0 = {}: the queue of channel {} is unstable; the maximum throughput (eq. 26) is {} messages/processor/cycle",
            num(cfg.rate),
            p.limiting_channel.as_deref().unwrap_or("<0,1>"),
            fixed(p.max_rate, 6)
        )));
    }
    Ok(())
}

impl Render for FatTreeReport {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (cfg, p) = (&self.config, &self.prediction);
        writeln!(out, "netwrap {VERSION} model fat-tree (Greenberg & Guan eqs. 1-26)")?;
        writeln!(
            out,
            "network: butterfly fat-tree, N = {}, {} levels; workload: λ0 = {}, {} flits",
            cfg.nodes,
            p.levels,
            num(cfg.rate),
            num(cfg.size)
        )?;
        writeln!(
            out,
            "{:>8} {:>8} {:>12} {:>12} {:>12}",
            "channel", "servers", "rate", "service x", "wait W"
        )?;
        for c in &p.channels {
            writeln!(
                out,
                "{:>8} {:>8} {:>12} {:>12} {:>12}",
                format!("<{},{}>", c.from, c.to),
                c.servers,
                fixed(c.rate, 6),
                fixed(c.service_time, 4),
                opt_fixed(c.waiting_time, 4)
            )?;
        }
        writeln!(out, "mean distance D              {}", fixed(p.mean_hops, 4))?;
        writeln!(out, "injection utilization        {}", fixed(p.utilization, 4))?;
        writeln!(out, "latency (eq. 25)             {}", opt_fixed(p.latency, 4))?;
        writeln!(
            out,
            "max throughput (eq. 26)      {} messages/processor/cycle ({} flits)",
            fixed(p.max_rate, 6),
            fixed(p.max_rate * cfg.size, 4)
        )?;
        if let Some(n) = &p.note {
            writeln!(out, "note: {n}")?;
        }
        Ok(())
    }
}
