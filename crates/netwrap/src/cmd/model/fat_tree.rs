//! `netwrap model fat-tree`: Greenberg and Guan's wormhole model of the butterfly fat-tree
//! (seed 002 eqs. 1–26).

use crate::output::{VERSION, opt, print_json};
use anyhow::Context;
use clap::{Args, ValueEnum};
use netwrap_model::fat_tree::{self, FatTree, FatTreePrediction, Mg2Rate, TurnProbability};
use serde::Serialize;

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
    /// Processors N = 4^n.
    #[arg(long, default_value_t = 1024)]
    pub nodes: u64,
    /// λ0: messages injected per processor per cycle.
    #[arg(long, default_value_t = 0.001)]
    pub rate: f64,
    /// Worm length in flits.
    #[arg(long, default_value_t = 32.0)]
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
    let p = fat_tree::predict(&params).context("invalid model parameters")?;
    if a.json {
        print_json(&Report {
            model: "fat-tree",
            netwrap_version: VERSION,
            seed: None,
            config: &params,
            prediction: &p,
        })?;
    } else {
        println!("netwrap {VERSION} model fat-tree (seed 002 eqs. 1-26)");
        println!(
            "network: butterfly fat-tree, N = {}, {} levels; workload: λ0 = {}, {} flits",
            a.nodes, p.levels, a.rate, a.size
        );
        println!(
            "{:>8} {:>8} {:>12} {:>12} {:>12} {:>7}",
            "channel", "servers", "rate", "service x", "wait W", ""
        );
        for c in &p.channels {
            println!(
                "{:>8} {:>8} {:>12.6} {:>12.4} {:>12}",
                format!("<{},{}>", c.from, c.to),
                c.servers,
                c.rate,
                c.service_time,
                opt(c.waiting_time, 4)
            );
        }
        println!("mean distance D              {:.4}", p.mean_hops);
        println!("injection utilization        {:.4}", p.utilization);
        println!("latency (eq. 25)             {}", opt(p.latency, 4));
        println!(
            "max throughput (eq. 26)      {:.6} messages/processor/cycle ({:.4} flits)",
            p.max_rate,
            p.max_rate * a.size
        );
        if let Some(n) = &p.note {
            println!("note: {n}");
        }
    }
    if p.saturated {
        return Err(crate::output::saturated(format!(
            "the fat-tree is saturated at λ0 = {}: the queue of channel {} is unstable; the maximum throughput (eq. 26) is {:.6} messages/processor/cycle",
            a.rate,
            p.limiting_channel.as_deref().unwrap_or("<0,1>"),
            p.max_rate
        )));
    }
    Ok(())
}
