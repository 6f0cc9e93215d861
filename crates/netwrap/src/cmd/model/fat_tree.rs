//! `netwrap model fat-tree`: Greenberg & Guan's wormhole model of the butterfly fat-tree
//! (their eqs. 1–26).

use super::{fixed, opt_fixed};
use crate::output::{self, VERSION, num, print_json};
use anyhow::Context;
use clap::{Args, ValueEnum};
use netwrap_model::fat_tree::{self, FatTree, FatTreePrediction, Mg2Rate, TurnProbability};
use netwrap_topo::cli::{count, probability, worm_flits};
use serde::Serialize;
use std::io::Write;

/// Arrival rate of the paired up-link (M/G/2) queues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mg2Arg {
    /// 2λ: both links' traffic (the manuscript's correction; default).
    Pair,
    /// λ of one link, as eqs. 21 and 23 are printed.
    PerLink,
}

/// Turn probability in eq. 22.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TurnArg {
    /// P↑_l of eq. 12, as printed.
    Printed,
    /// P↑_l / P↑_{l-1}, conditional on having reached level l.
    Conditional,
}

/// Fat-tree size and workload.
#[derive(Debug, Clone, Args)]
pub struct FatTreeArgs {
    /// Processors N = 4^n (4, 16, 64, …, up to 4^26).
    #[arg(long, default_value_t = 1024, value_parser = count::<1>, allow_hyphen_values = true)]
    pub nodes: u64,
    /// λ0: messages injected per processor per cycle, a probability in [0, 1].
    #[arg(long, default_value_t = 0.001, value_parser = probability, allow_hyphen_values = true)]
    pub rate: f64,
    /// Worm length in flits, from 1 to 1e9.
    #[arg(long, default_value_t = 32.0, value_parser = worm_flits, allow_hyphen_values = true)]
    pub size: f64,
    /// Arrival rate of the two-server queues.
    #[arg(long, value_enum, default_value = "pair")]
    pub mg2_rate: Mg2Arg,
    /// Turn probability in eq. 22.
    #[arg(long, value_enum, default_value = "printed")]
    pub turn: TurnArg,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the result as tidy CSV, a header and one row (the channels as one cell of JSON) (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<std::path::PathBuf>,
}

#[derive(Serialize)]
struct Report<'a> {
    model: &'static str,
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: &'a FatTree,
    #[serde(flatten)]
    prediction: &'a FatTreePrediction,
}

pub fn run(a: FatTreeArgs) -> anyhow::Result<()> {
    let params = FatTree {
        mg2_rate: match a.mg2_rate {
            Mg2Arg::Pair => Mg2Rate::Pair,
            Mg2Arg::PerLink => Mg2Rate::PerLink,
        },
        turn: match a.turn {
            TurnArg::Printed => TurnProbability::Printed,
            TurnArg::Conditional => TurnProbability::Conditional,
        },
        ..FatTree::new(a.nodes, a.rate, a.size)
    };
    fat_tree::levels(a.nodes).context("--nodes")?;
    let p = fat_tree::predict(&params).context("invalid model parameters")?;
    let report =
        Report { model: "fat-tree", netwrap_version: VERSION, seed: None, config: &params, prediction: &p };
    let csv_only = output::write_csv_if(a.csv.as_deref(), &[&report])?;
    if csv_only {
        // The CSV on standard output replaces the table and the JSON.
    } else if a.json {
        print_json(&report)?;
    } else {
        let mut out = output::stdout();
        writeln!(out, "netwrap {VERSION} model fat-tree (Greenberg & Guan eqs. 1-26)")?;
        writeln!(
            out,
            "network: butterfly fat-tree, N = {}, {} levels; workload: λ0 = {}, {} flits",
            a.nodes,
            p.levels,
            num(a.rate),
            num(a.size)
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
            fixed(p.max_rate * a.size, 4)
        )?;
        if let Some(n) = &p.note {
            writeln!(out, "note: {n}")?;
        }
        out.finish()?;
    }
    if p.saturated {
        return Err(output::saturated(format!(
            "the fat-tree is saturated at λ0 = {}: the queue of channel {} is unstable; the maximum throughput (eq. 26) is {} messages/processor/cycle",
            num(a.rate),
            p.limiting_channel.as_deref().unwrap_or("<0,1>"),
            fixed(p.max_rate, 6)
        )));
    }
    Ok(())
}
