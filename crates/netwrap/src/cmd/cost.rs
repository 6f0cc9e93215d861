//! `netwrap cost`: packaging cost of inter-module networks (Raghunath & Ranade, Tables I and
//! II).

use crate::output::{self, Render, VERSION, num};
use clap::Args;
use netwrap_app::CostReport;
use netwrap_model::request::CostRequest;
use netwrap_topo::cost::CostRow;
use serde::Serialize;
use serde_json::Value;
use std::io::Write;

/// `netwrap cost`: the request's flags and the output's.
#[derive(Debug, Args)]
pub struct CostArgs {
    /// The machine to cost.
    #[command(flatten)]
    pub request: CostRequest,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the rows as tidy CSV, one row per network (`-`: standard output, instead of the
    /// table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<std::path::PathBuf>,
}

/// One CSV row: the JSON's row of one network, with the module count it was costed for (the
/// row carries its bisection width), so that every row stands alone.
#[derive(Serialize)]
struct CsvRow<'a> {
    modules: u32,
    #[serde(flatten)]
    row: &'a CostRow,
}

/// A wire count as the table shows it: two decimals, or scientific notation for counts too
/// small or too large for that to be readable (bundles of a hundredth of a wire, bisections
/// of 10^19 wires).
fn wires(x: f64) -> String {
    if x == 0.0 || (0.01..1e9).contains(&x.abs()) {
        num((x * 100.0).round() / 100.0)
    } else {
        format!("{x:.2e}")
    }
}

/// Runs `netwrap cost` with its parsed arguments.
pub fn run(a: CostArgs) -> anyhow::Result<()> {
    let report = netwrap_app::cost(&a.request)?;
    output::emit(&report, a.json, a.csv.as_deref())?;
    if a.csv.as_deref().is_some_and(output::is_stdout) {
        // The CSV holds the rows that exist; say which were skipped, as the table does.
        for s in &report.skipped {
            output::note(format!("skipped: {s}"));
        }
    }
    Ok(())
}

impl Render for CostReport {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "netwrap {VERSION} cost: {} modules, bisection width B = {} (Raghunath & Ranade, Tables I, II)",
            self.config.modules, self.config.bisection
        )?;
        writeln!(
            out,
            "{:<16} {:>9} {:>10} {:>8} {:>8}  {:<12} wires/bundle",
            "topology", "bisection", "pin count", "bundles", "total", "factors"
        )?;
        for r in &self.rows {
            let factors = if r.factors.is_empty() {
                "formula".to_string()
            } else {
                r.factors.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
            };
            let widths = r.bundle_widths.iter().map(|&w| wires(w)).collect::<Vec<_>>().join(",");
            writeln!(
                out,
                "{:<16} {:>9} {:>10} {:>8} {:>8}  {:<12} {}",
                r.topology,
                r.bisection,
                wires(r.pin_count),
                r.bundles_per_module,
                r.total_bundles,
                factors,
                widths
            )?;
        }
        for s in &self.skipped {
            writeln!(out, "skipped: {s}")?;
        }
        Ok(())
    }

    /// One row per network that exists, with the module count it was costed for.
    fn rows(&self) -> Vec<Value> {
        let modules = self.config.modules;
        self.rows
            .iter()
            .map(|row| serde_json::to_value(CsvRow { modules, row }).unwrap_or(Value::Null))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characterisation of the wire format.
    #[test]
    fn wire_counts_stay_readable() {
        assert_eq!(wires(992.0), "992");
        assert_eq!(wires(1.456), "1.46");
        assert_eq!(wires(0.015625), "0.02");
        assert_eq!(wires(3.8e-6), "3.80e-6");
        assert_eq!(wires(5.764607523034235e18), "5.76e18");
    }
}
