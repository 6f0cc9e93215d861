//! `netwrap cost`: packaging cost of inter-module networks (Raghunath & Ranade, Tables I and
//! II).

use crate::output::{self, VERSION, num, print_json};
use clap::Args;
use netwrap_topo::cli::{count, small_count};
use netwrap_topo::cost::{CostRow, InterModule, cost};
use serde::Serialize;
use std::io::Write;

/// Module pin count, bundles per module and total bundles for a given bisection width.
#[derive(Debug, Args, Serialize)]
pub struct CostArgs {
    /// Packaging modules M, from 2 to 65536 (the rows are counted on the built graph).
    #[arg(long, default_value_t = 32, value_parser = small_count::<2>, allow_hyphen_values = true)]
    pub modules: u32,
    /// Bisection width B in wires, at least 1.
    #[arg(long, default_value_t = 8192, value_parser = count::<1>, allow_hyphen_values = true)]
    pub bisection: u64,
    /// Also an n-hop network with this many hops, at least 1 (repeatable).
    #[arg(long = "nhop", value_parser = small_count::<1>, allow_hyphen_values = true)]
    pub nhop: Vec<u32>,
    /// Also a toroid of this many dimensions, at least 1 (repeatable).
    #[arg(long = "toroid", value_parser = small_count::<1>, allow_hyphen_values = true)]
    pub toroid: Vec<u32>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    #[serde(skip)]
    pub json: bool,
    /// Write the rows as tidy CSV, one row per network (`-`: standard output, instead of the
    /// table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    #[serde(skip)]
    pub csv: Option<std::path::PathBuf>,
}

#[derive(Serialize)]
struct Report<'a> {
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: &'a CostArgs,
    rows: Vec<CostRow>,
    skipped: Vec<String>,
}

/// One CSV row: the JSON's row of one network, with the module count it was costed for (the
/// row carries its bisection width), so that every row stands alone.
#[derive(Serialize)]
struct CsvRow<'a> {
    modules: u32,
    #[serde(flatten)]
    row: &'a CostRow,
}

/// The most modules `cost` accepts: its rows are counted on the built inter-module graph,
/// and the 2-hop network on 2^16 modules already has 33 million channels (about 1.3 GB);
/// the papers' machines have tens to hundreds of modules.
pub const MAX_MODULES: u32 = 1 << 16;

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

pub fn run(a: CostArgs) -> anyhow::Result<()> {
    if a.modules > MAX_MODULES {
        anyhow::bail!(
            "--modules {} is too large: cost counts pins and bundles on the built inter-module graph, which for more than {MAX_MODULES} modules needs gigabytes; give at most {MAX_MODULES}",
            a.modules
        );
    }
    let mut wanted: Vec<InterModule> = InterModule::TABLE_II.to_vec();
    wanted.extend(a.nhop.iter().map(|&n| InterModule::NHop(n)));
    wanted.extend(a.toroid.iter().map(|&d| InterModule::Toroid(d)));
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for t in wanted {
        match cost(t, a.modules, a.bisection) {
            Ok(r) => rows.push(r),
            // Some rows do not exist for every M (a hypercube needs M = 2^d): say why, keep going.
            Err(e) => skipped.push(format!("{}: {e}", t.label())),
        }
    }
    if let Some(path) = &a.csv {
        let csv: Vec<CsvRow> = rows.iter().map(|row| CsvRow { modules: a.modules, row }).collect();
        if output::write_csv(path, &csv)? {
            // The CSV holds the rows that exist; say which were skipped, as the table does.
            for s in &skipped {
                output::note(format!("skipped: {s}"));
            }
            return Ok(());
        }
    }
    if a.json {
        return print_json(&Report { netwrap_version: VERSION, seed: None, config: &a, rows, skipped });
    }
    let mut out = output::stdout();
    writeln!(
        out,
        "netwrap {VERSION} cost: {} modules, bisection width B = {} (Raghunath & Ranade, Tables I, II)",
        a.modules, a.bisection
    )?;
    writeln!(
        out,
        "{:<16} {:>9} {:>10} {:>8} {:>8}  {:<12} wires/bundle",
        "topology", "bisection", "pin count", "bundles", "total", "factors"
    )?;
    for r in &rows {
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
    for s in &skipped {
        writeln!(out, "skipped: {s}")?;
    }
    out.finish()?;
    Ok(())
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
