//! `netwrap model indirect`: buffered multistage networks (Agarwal 1991 eqs. 13–14; the
//! homework's App. C).

use super::kary_ncube::saturated_error;
use super::{fixed, opt_fixed};
use crate::output::{self, VERSION, num, print_json};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use netwrap_model::indirect::{self, Indirect, IndirectPrediction};
use netwrap_model::kary_ncube::{MAX_NODES, network_size};
use netwrap_topo::cli::{count, non_negative, positive, probability, small_count};
use netwrap_topo::whole_dimensions;
use serde::Serialize;
use std::io::Write;

/// Network and workload of the indirect-network model.
#[derive(Debug, Clone, Args, Serialize)]
pub struct IndirectArgs {
    /// Switch size k (k×k crossbars), at least 2.
    #[arg(long, default_value_t = 2, value_parser = small_count::<2>, allow_hyphen_values = true)]
    pub k: u32,
    /// Stages n, at least 1 (N = k^n at most 2^53).
    #[arg(long, conflicts_with = "nodes", value_parser = small_count::<1>, allow_hyphen_values = true)]
    pub n: Option<u32>,
    /// Processors N instead of n: n = log_k N, rounded up to a whole stage.
    #[arg(long, value_parser = count::<1>, allow_hyphen_values = true)]
    pub nodes: Option<u64>,
    /// Request rate m: messages per processor per cycle, a probability in [0, 1].
    #[arg(long, default_value_t = 0.04, value_parser = probability, allow_hyphen_values = true)]
    pub rate: f64,
    /// Message length B in flits, positive.
    #[arg(long, default_value_t = 4.0, value_parser = positive, allow_hyphen_values = true)]
    pub size: f64,
    /// Message length L in bits instead of --size: B = L/W. Needs --width or --pins.
    #[arg(long, conflicts_with = "size", value_parser = positive, allow_hyphen_values = true)]
    pub bits: Option<f64>,
    /// Channel width W in bits, positive.
    #[arg(long, conflicts_with = "pins", value_parser = positive, allow_hyphen_values = true)]
    pub width: Option<f64>,
    /// Signal pins per switch, positive: W = pins/(2k) (Agarwal 1991 §5.2).
    #[arg(long, value_parser = positive, allow_hyphen_values = true)]
    pub pins: Option<f64>,
    /// Memory latency M added to every message, zero or positive (the homework's App. C).
    #[arg(long, default_value_t = 0.0, value_parser = non_negative, allow_hyphen_values = true)]
    pub memory_latency: f64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the result as tidy CSV, a header and one row (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<std::path::PathBuf>,
}

#[derive(Serialize)]
struct Config<'a> {
    #[serde(flatten)]
    network: &'a Indirect,
    nodes: u64,
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

/// Stages n from --n or --nodes, with N = k^n at most 2^53 (the models' limit).
fn stages(k: u32, n: Option<u32>, nodes: Option<u64>) -> anyhow::Result<u32> {
    let n = match (n, nodes) {
        (Some(n), _) => n,
        (None, None) => 2,
        (None, Some(nodes)) if nodes > MAX_NODES => {
            bail!("--nodes {nodes} is too large: the models accept at most 2^53 = {MAX_NODES} processors")
        }
        (None, Some(nodes)) => {
            let (n, rounded) = whole_dimensions(nodes, k);
            if rounded != nodes && rounded <= MAX_NODES {
                let _ = writeln!(
                    std::io::stderr(),
                    "netwrap: log_{k}({nodes}) is not a whole number: using n = {n} stages, N = {k}^{n} = {rounded} processors"
                );
            }
            n
        }
    };
    network_size(k, n).map_err(|_| {
        anyhow!(
            "--k {k} with {n} stages connects {k}^{n} processors, more than the 2^53 the models accept (2^53 keeps N exact in floating point)"
        )
    })?;
    Ok(n)
}

pub fn run(a: IndirectArgs) -> anyhow::Result<()> {
    let n = stages(a.k, a.n, a.nodes)?;
    let width = match (a.bits, a.width, a.pins) {
        (Some(_), Some(w), _) => Some(w),
        (Some(_), None, Some(p)) => Some(p / (2.0 * a.k as f64)),
        (Some(_), None, None) => bail!("--bits needs a channel width: give --width or --pins"),
        (None, Some(_), _) | (None, None, Some(_)) => {
            bail!("--width/--pins set W; give --bits too so that B = L/W")
        }
        (None, None, None) => None,
    };
    let size = match (a.bits, width) {
        (Some(bits), Some(w)) => bits / w,
        _ => a.size,
    };
    if let (Some(bits), Some(w)) = (a.bits, width)
        && !(w > 0.0 && size.is_finite() && size > 0.0)
    {
        bail!(
            "--bits {} over a channel width of {} bits gives B = {} flits: it must be a positive finite number",
            num(bits),
            num(w),
            num(size)
        );
    }
    let params = Indirect { k: a.k, n, rate: a.rate, size, memory_latency: a.memory_latency };
    let p = indirect::predict(&params).context("invalid model parameters")?;
    let nodes = network_size(a.k, n)?;
    let report = Report {
        model: "indirect",
        netwrap_version: VERSION,
        seed: None,
        config: Config { network: &params, nodes, bits: a.bits, width },
        prediction: &p,
    };
    let csv_only = output::write_csv_if(a.csv.as_deref(), &[&report])?;
    if csv_only {
        // The CSV on standard output replaces the table and the JSON.
    } else if a.json {
        print_json(&report)?;
    } else {
        let mut out = output::stdout();
        writeln!(out, "netwrap {VERSION} model indirect (Agarwal 1991 eqs. 13-14; the homework's App. C)")?;
        writeln!(
            out,
            "network: {n} stages of {k}x{k} switches, N = {nodes}; workload: m = {}, B = {}, M = {}",
            num(a.rate),
            num(size),
            num(a.memory_latency),
            k = a.k
        )?;
        writeln!(out, "channel utilization rho      {}", fixed(p.utilization, 4))?;
        writeln!(out, "unloaded latency             {}", fixed(p.unloaded_latency, 4))?;
        writeln!(out, "contention per stage w       {}", opt_fixed(p.contention_per_switch, 4))?;
        writeln!(out, "latency T                    {}", opt_fixed(p.latency, 4))?;
        writeln!(out, "saturation rate 1/B          {}", fixed(p.max_rate, 6))?;
        out.finish()?;
    }
    if p.saturated {
        return Err(saturated_error("the indirect network", p.utilization, p.max_rate));
    }
    Ok(())
}
