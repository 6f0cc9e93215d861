//! `netwrap design`: constrained design search over k-ary n-cubes (the homework's Ex 7).

use crate::output::{self, Render, VERSION, num, opt};
use clap::Args;
use netwrap_app::{DesignReport, Simulated};
use netwrap_engine::Record;
use netwrap_model::agarwal::WidthConstraint;
use netwrap_model::design::Candidate;
use netwrap_model::request::DesignRequest;
use serde::Serialize;
use serde_json::Value;
use std::io::Write;

/// `netwrap design`: the design question's flags and the output's.
#[derive(Debug, Args)]
pub struct DesignArgs {
    /// The design question.
    #[command(flatten)]
    pub request: DesignRequest,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the candidates as tidy CSV, one row per candidate (`-`: standard output, instead
    /// of the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<std::path::PathBuf>,
}

/// A width constraint in words.
fn constraint_text(c: &WidthConstraint) -> String {
    match c {
        WidthConstraint::Width { bits } => format!("channels {} bits wide", num(*bits)),
        WidthConstraint::Bisection { wires } => {
            format!("{} wires across the bisection", num(*wires))
        }
        WidthConstraint::Pins { pins } => format!("{} signal pins per switch", num(*pins)),
    }
}

/// One CSV row: a candidate as the JSON has it, with its rank and, when it was simulated, its
/// simulation (`simulated.*`), so that each row stands alone.
#[derive(Serialize)]
struct CsvRow<'a> {
    rank: usize,
    #[serde(flatten)]
    candidate: &'a Candidate,
    #[serde(skip_serializing_if = "Option::is_none")]
    simulated: Option<&'a Simulated>,
}

/// The answer as printed: the report (its JSON), and what its text says about the
/// simulations asked for.
#[derive(Serialize)]
#[serde(transparent)]
struct Answer<'a> {
    report: &'a DesignReport,
    #[serde(skip)]
    request: &'a DesignRequest,
}

/// Runs `netwrap design` with its parsed arguments.
pub fn run(a: DesignArgs) -> anyhow::Result<()> {
    let report = netwrap_app::design(&a.request, Record::default())?;
    output::emit(&Answer { report: &report, request: &a.request }, a.json, a.csv.as_deref())
}

impl Render for Answer<'_> {
    /// One row per candidate, with its simulation when it was simulated.
    fn rows(&self) -> Vec<Value> {
        let simulated = &self.report.simulated;
        self.report
            .candidates
            .iter()
            .enumerate()
            .map(|(i, candidate)| CsvRow {
                rank: i + 1,
                candidate,
                simulated: simulated.iter().flatten().find(|s| s.rank == i + 1),
            })
            .map(|row| serde_json::to_value(row).unwrap_or(Value::Null))
            .collect()
    }

    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (q, c, simulated) = (&self.report.config, &self.report.candidates, &self.report.simulated);
        let a = self.request;
        writeln!(
            out,
            "netwrap {VERSION} design: N = {}, m = {}, L = {} bits, l = {}, {}",
            q.nodes,
            num(q.rate),
            num(q.bits),
            num(q.locality),
            constraint_text(&q.constraint)
        )?;
        writeln!(
            out,
            "{:>4} {:>3} {:>4} {:>8} {:>7} {:>7} {:>7} {:>7} {:>10} {:>12} {:>8}",
            "rank", "n", "k", "nodes", "W", "B", "k_d", "rho", "latency", "latency_time", "margin"
        )?;
        for (i, x) in c.iter().enumerate() {
            writeln!(
                out,
                "{:>4} {:>3} {:>4} {:>8} {:>7} {:>7} {:>7.3} {:>7.3} {:>10} {:>12} {:>8.3}{}",
                i + 1,
                x.n,
                x.k,
                x.nodes,
                x.width,
                x.flits,
                x.prediction.k_d,
                x.prediction.utilization,
                opt(x.prediction.latency, 3),
                opt(x.latency_time, 2),
                x.saturation_margin,
                if x.prediction.saturated { "  SATURATED" } else { "" }
            )?;
        }
        if let Some(sims) = simulated {
            writeln!(
                out,
                "\nconfirmed by simulation ({} measured messages, seed {}); the model column is eq. 10 at the simulated point\n\
                 (whole flits, and the locality subcube rounded to whole nodes, l_sim):",
                a.messages, a.seed
            )?;
            writeln!(
                out,
                "{:>4} {:>3} {:>4} {:>5} {:>8} {:>18} {:>10} {:>8}",
                "rank", "n", "k", "B", "l_sim", "sim latency", "model", "error"
            )?;
            for s in sims {
                let lat = match (s.latency, s.latency_ci95) {
                    (Some(l), Some(ci)) => format!("{l:.2} ± {ci:.2}"),
                    (Some(l), None) => format!("{l:.2}"),
                    (None, _) => "saturated".into(),
                };
                writeln!(
                    out,
                    "{:>4} {:>3} {:>4} {:>5} {:>8.4} {:>18} {:>10} {:>8}",
                    s.rank,
                    s.n,
                    s.k,
                    s.flits,
                    s.effective_locality,
                    lat,
                    opt(s.model_latency, 2),
                    s.relative_error.map_or("—".into(), |e| format!("{:+.1}%", 100.0 * e))
                )?;
            }
            // A subcube side is a whole number of nodes: say loudly when that moved the point.
            for s in sims.iter().filter(|s| (s.effective_locality - a.locality).abs() > 1e-9) {
                writeln!(
                    out,
                    "NOTE: rank {} ({}-ary {}-cube) simulated locality l = {:.4}, not the {} asked: a subcube side of (l·N)^(1/n) = {:.3} nodes rounds to {}; its model column is evaluated at l = {:.4}",
                    s.rank,
                    s.k,
                    s.n,
                    s.effective_locality,
                    num(a.locality),
                    a.locality.powf(1.0 / s.n as f64) * s.k as f64,
                    (s.effective_locality.powf(1.0 / s.n as f64) * s.k as f64).round(),
                    s.effective_locality
                )?;
            }
        }
        Ok(())
    }
}
