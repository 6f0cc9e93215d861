//! `netwrap design`: constrained design search over k-ary n-cubes (seed 004 Ex 7).

use crate::cmd::model::physical::WireArg;
use crate::output::{VERSION, opt, print_json};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use netwrap_model::agarwal::{Delays, WidthConstraint, WireDelay};
use netwrap_model::design::{self, Candidate, DesignQuery, RankBy};
use serde::Serialize;
use std::io::Write;

/// Ranking order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RankArg {
    /// Lowest predicted latency first.
    Latency,
    /// Largest saturation margin first.
    Margin,
}

/// The design question.
#[derive(Debug, Args)]
pub struct DesignArgs {
    /// Processors N.
    #[arg(long)]
    pub nodes: u64,
    /// Request rate m: messages per node per cycle.
    #[arg(long)]
    pub rate: f64,
    /// Message length L in bits.
    #[arg(long)]
    pub bits: f64,
    /// Locality fraction l.
    #[arg(long, default_value_t = 1.0)]
    pub locality: f64,
    /// Signal pins per switch (the constraint of seed 004 Ex 7).
    #[arg(long, conflicts_with_all = ["bisection", "width"], required_unless_present_any = ["bisection", "width"])]
    pub pins: Option<f64>,
    /// Wires across the bisection.
    #[arg(long, conflicts_with = "width")]
    pub bisection: Option<f64>,
    /// A fixed channel width in bits.
    #[arg(long)]
    pub width: Option<f64>,
    /// Switch delay s in units of the 2-D wire delay; ranks by eq. 12's latency.
    #[arg(long)]
    pub switch_delay: Option<f64>,
    /// Wire delay model (default `length` once delays are asked for).
    #[arg(long, value_enum)]
    pub wire_delay: Option<WireArg>,
    /// Dimensions z of the layout space.
    #[arg(long, default_value_t = 2)]
    pub space_dims: u32,
    /// Channels both ways (bidirectional torus).
    #[arg(long)]
    pub bidirectional: bool,
    /// B = L/W instead of whole flits ⌈L/W⌉.
    #[arg(long)]
    pub fractional_flits: bool,
    /// Only networks with exactly N nodes (no rounding N up to k^n).
    #[arg(long)]
    pub exact_nodes: bool,
    /// Ranking order.
    #[arg(long, value_enum, default_value = "latency")]
    pub rank: RankArg,
    /// Show only the best K candidates.
    #[arg(long)]
    pub top: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    model: &'static str,
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: &'a DesignQuery,
    candidates: &'a [Candidate],
}

/// Validates the arguments into a query.
pub fn query(a: &DesignArgs) -> anyhow::Result<DesignQuery> {
    let constraint = match (a.pins, a.bisection, a.width) {
        (Some(pins), _, _) => WidthConstraint::Pins { pins },
        (_, Some(wires), _) => WidthConstraint::Bisection { wires },
        (_, _, Some(bits)) => WidthConstraint::Width { bits },
        _ => bail!("give a constraint: --pins, --bisection or --width"),
    };
    for v in [a.pins, a.bisection, a.width].into_iter().flatten() {
        if !(v.is_finite() && v > 0.0) {
            bail!("the constraint {v} is invalid: it must be a positive number");
        }
    }
    let delays = if a.switch_delay.is_some() || a.wire_delay.is_some() {
        let wire = match a.wire_delay.unwrap_or(WireArg::Length) {
            WireArg::Unit => WireDelay::Unit,
            WireArg::Length => WireDelay::Length { space_dims: a.space_dims },
        };
        Some(Delays { switch_delay: a.switch_delay.unwrap_or(0.0), wire })
    } else {
        None
    };
    Ok(DesignQuery {
        nodes: a.nodes,
        rate: a.rate,
        bits: a.bits,
        locality: a.locality,
        constraint,
        delays,
        bidirectional: a.bidirectional,
        fractional_flits: a.fractional_flits,
        exact_nodes: a.exact_nodes,
        rank_by: match a.rank {
            RankArg::Latency => RankBy::Latency,
            RankArg::Margin => RankBy::Margin,
        },
    })
}

pub fn run(a: DesignArgs) -> anyhow::Result<()> {
    let q = query(&a)?;
    let mut c = design::search(&q).context("design search")?;
    if let Some(top) = a.top {
        c.truncate(top);
    }
    if a.json {
        return print_json(&Report {
            model: "design",
            netwrap_version: VERSION,
            seed: None,
            config: &q,
            candidates: &c,
        });
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "netwrap {VERSION} design: N = {}, m = {}, L = {} bits, l = {}, {:?}",
        q.nodes, q.rate, q.bits, q.locality, q.constraint
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
    Ok(())
}
