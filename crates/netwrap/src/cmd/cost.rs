//! `netwrap cost`: packaging cost of inter-module networks (seed 003 Tables I and II).

use crate::output::{VERSION, print_json};
use clap::Args;
use netwrap_topo::cost::{CostRow, InterModule, cost};
use serde::Serialize;
use std::io::Write;

/// Module pin count, bundles per module and total bundles for a given bisection width.
#[derive(Debug, Args, Serialize)]
pub struct CostArgs {
    /// Packaging modules M.
    #[arg(long, default_value_t = 32)]
    pub modules: u32,
    /// Bisection width B in wires.
    #[arg(long, default_value_t = 8192)]
    pub bisection: u64,
    /// Also an n-hop network with this many hops (repeatable).
    #[arg(long = "nhop")]
    pub nhop: Vec<u32>,
    /// Also a toroid of this many dimensions (repeatable).
    #[arg(long = "toroid")]
    pub toroid: Vec<u32>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    #[serde(skip)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: &'a CostArgs,
    rows: Vec<CostRow>,
    skipped: Vec<String>,
}

pub fn run(a: CostArgs) -> anyhow::Result<()> {
    if a.modules < 2 {
        anyhow::bail!("--modules {} is invalid: at least 2 modules are needed", a.modules);
    }
    if a.bisection == 0 {
        anyhow::bail!("--bisection 0 is invalid: the bisection width must be at least 1 wire");
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
    if a.json {
        return print_json(&Report { netwrap_version: VERSION, seed: None, config: &a, rows, skipped });
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "netwrap {VERSION} cost: {} modules, bisection width B = {} (seed 003 Tables I, II)",
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
        let widths = r
            .bundle_widths
            .iter()
            .map(|w| format!("{}", (w * 100.0).round() / 100.0))
            .collect::<Vec<_>>()
            .join(",");
        writeln!(
            out,
            "{:<16} {:>9} {:>10} {:>8} {:>8}  {:<12} {}",
            r.topology,
            r.bisection,
            (r.pin_count * 100.0).round() / 100.0,
            r.bundles_per_module,
            r.total_bundles,
            factors,
            widths
        )?;
    }
    for s in &skipped {
        writeln!(out, "skipped: {s}")?;
    }
    Ok(())
}
