//! `netwrap model feedback`: processor utilisation with network feedback (the homework's
//! App. D), with T threads per processor (`--threads`; Saavedra-Barrera, Culler & von Eicken
//! 1990, Agarwal 1992). With one thread (the default) every output is App. D's, unchanged;
//! with more, the table and JSON add the threads and the multithreading regime.

use super::{fixed, form_line, notes, opt_fixed};
use crate::output::{self, Render, VERSION, num};
use clap::Args;
use netwrap_app::predict::FeedbackReport;
use netwrap_model::feedback::{self, Regime, Solution};
use netwrap_model::request::FeedbackRequest;
use std::io::Write;
use std::path::PathBuf;

/// `netwrap model feedback`: the request's flags and the output's.
#[derive(Debug, Clone, Args)]
pub struct FeedbackArgs {
    #[command(flatten)]
    pub request: FeedbackRequest,
    /// Print one JSON object instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
    /// Write the result as tidy CSV, a header and one row (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-", global = true)]
    pub csv: Option<PathBuf>,
}

pub fn run(a: FeedbackArgs) -> anyhow::Result<()> {
    let report = netwrap_app::predict::feedback(&a.request)?;
    notes(&report.notes);
    output::emit(&report, a.json, a.csv.as_deref())
}

impl Render for FeedbackReport {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (cfg, p) = (&self.config, &self.prediction);
        let (solution, threads) = (p.solution, p.threads);
        let n = &cfg.network;
        if threads > 1 {
            writeln!(
                out,
                "netwrap {VERSION} model feedback (the homework's App. D with threads: Saavedra-Barrera et al. 1990, Agarwal 1992), {solution}"
            )?;
        } else {
            writeln!(out, "netwrap {VERSION} model feedback (the homework's App. D), {solution}")?;
        }
        writeln!(
            out,
            "network: {}-ary {}-cube, N = {}, {}; workload: m = {} while busy, B = {}, l = {}",
            n.k,
            n.n,
            cfg.nodes,
            n.wiring,
            num(n.rate),
            num(n.size),
            num(n.locality)
        )?;
        let form = if solution == Solution::ClosedForm {
            format!("{} (the printed closed form embeds it)", p.contention_form)
        } else {
            form_line(n.form, p.contention_form, p.k_d, n.locality)
        };
        if let Some(regime) = p.regime {
            let c = feedback::switch_cost(threads);
            writeln!(
                out,
                "threads per processor T      {threads}, round robin, switch cost C = {} cycle",
                num(c)
            )?;
            let formula = match regime {
                Regime::Linear => "too few threads to hide L: U = T*R/(R+L)",
                Regime::Saturated => "the threads hide L: U = R/(R+C)",
            };
            writeln!(
                out,
                "multithreading regime        {regime}, {formula}, R = 1/m = {}",
                fixed(1.0 / n.rate, 4)
            )?;
        }
        writeln!(out, "contention form              {form}")?;
        let latency = if threads > 1 { "latency L" } else { "latency T" };
        writeln!(out, "{latency:<29}{}", fixed(p.latency, 4))?;
        writeln!(out, "processor utilization U      {}", fixed(p.processor_utilization, 4))?;
        writeln!(out, "effective rate m*U           {}", fixed(p.throughput, 6))?;
        writeln!(out, "channel utilization rho      {}", fixed(p.utilization, 4))?;
        writeln!(out, "unloaded latency T0          {}", fixed(p.unloaded_latency, 4))?;
        if let Some(t) = &self.timing {
            writeln!(out, "latency, eq. 12 (T^w(2))     {}", opt_fixed(t.latency_time, 4))?;
        }
        Ok(())
    }
}
