//! `netwrap model indirect`: buffered multistage networks (seed 000 eqs. 13–14, seed 004 App. C).

use super::kary_ncube::saturated_error;
use crate::output::{VERSION, opt, print_json};
use anyhow::{Context, bail};
use clap::Args;
use netwrap_model::indirect::{self, Indirect, IndirectPrediction};
use serde::Serialize;

/// Network and workload of the indirect-network model.
#[derive(Debug, Clone, Args, Serialize)]
pub struct IndirectArgs {
    /// Switch size k (k×k crossbars).
    #[arg(long, default_value_t = 2)]
    pub k: u32,
    /// Stages n.
    #[arg(long, conflicts_with = "nodes")]
    pub n: Option<u32>,
    /// Processors N instead of n: n = log_k N, rounded up to a whole stage.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Request rate m: messages per processor per cycle.
    #[arg(long, default_value_t = 0.04)]
    pub rate: f64,
    /// Message length B in flits.
    #[arg(long, default_value_t = 4.0)]
    pub size: f64,
    /// Message length L in bits instead of --size: B = L/W. Needs --width or --pins.
    #[arg(long, conflicts_with = "size")]
    pub bits: Option<f64>,
    /// Channel width W in bits.
    #[arg(long, conflicts_with = "pins")]
    pub width: Option<f64>,
    /// Signal pins per switch: W = pins/(2k) (seed 000 §5.2).
    #[arg(long)]
    pub pins: Option<f64>,
    /// Memory latency M added to every message (seed 004 App. C).
    #[arg(long, default_value_t = 0.0)]
    pub memory_latency: f64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Config<'a> {
    #[serde(flatten)]
    network: &'a Indirect,
    bits: Option<f64>,
    width: Option<f64>,
}

#[derive(Serialize)]
struct Report<'a> {
    model: &'static str,
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: Config<'a>,
    #[serde(flatten)]
    prediction: &'a IndirectPrediction,
}

pub fn run(a: IndirectArgs) -> anyhow::Result<()> {
    let n = super::kary_ncube::dimensions(a.k, a.n, a.nodes)
        .map_err(|e| anyhow::anyhow!("{e}").context("stages"))?;
    let width = match (a.bits, a.width, a.pins) {
        (Some(_), Some(w), _) => Some(w),
        (Some(_), None, Some(p)) => Some(p / (2.0 * a.k as f64)),
        (Some(_), None, None) => bail!("--bits needs a channel width: give --width or --pins"),
        (None, Some(_), _) | (None, None, Some(_)) => {
            bail!("--width/--pins set W; give --bits too so that B = L/W")
        }
        (None, None, None) => None,
    };
    if let Some(w) = width
        && !(w.is_finite() && w > 0.0)
    {
        bail!("channel width {w} is invalid: it must be positive");
    }
    let size = match (a.bits, width) {
        (Some(bits), Some(w)) => bits / w,
        _ => a.size,
    };
    let params = Indirect { k: a.k, n, rate: a.rate, size, memory_latency: a.memory_latency };
    let p = indirect::predict(&params).context("invalid model parameters")?;
    if a.json {
        print_json(&Report {
            model: "indirect",
            netwrap_version: VERSION,
            seed: None,
            config: Config { network: &params, bits: a.bits, width },
            prediction: &p,
        })?;
    } else {
        println!("netwrap {VERSION} model indirect (seed 000 eqs. 13-14; seed 004 App. C)");
        println!(
            "network: {n} stages of {k}x{k} switches, N = {}; workload: m = {}, B = {size}, M = {}",
            (a.k as f64).powi(n as i32),
            a.rate,
            a.memory_latency,
            k = a.k
        );
        println!("channel utilization rho      {:.4}", p.utilization);
        println!("unloaded latency             {:.4}", p.unloaded_latency);
        println!("contention per stage w       {}", opt(p.contention_per_switch, 4));
        println!("latency T                    {}", opt(p.latency, 4));
        println!("saturation rate 1/B          {:.6}", p.max_rate);
    }
    if p.saturated {
        return Err(saturated_error("the indirect network", p.utilization, p.max_rate));
    }
    Ok(())
}
