//! `netwrap model kary-ncube`.

use super::physical::PhysicalArgs;
use crate::output::{VERSION, opt, print_json};
use anyhow::{Context, bail};
use clap::Args;
use netwrap_model::agarwal::{self, Delays, WidthConstraint};
use netwrap_model::kary_ncube::{self, ContentionForm, KaryNCube, Prediction, Wiring};
use serde::Serialize;

/// Network and workload of the k-ary n-cube model; `sim` takes the same names.
#[derive(Debug, Clone, Args, Serialize)]
pub struct KaryNCubeArgs {
    /// Radix k (nodes per dimension).
    #[arg(long, default_value_t = 8)]
    pub k: u32,
    /// Dimensions n.
    #[arg(long, conflicts_with = "nodes")]
    pub n: Option<u32>,
    /// Number of processors N instead of n: n = log_k N, rounded up to a whole dimension.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Request rate m: messages generated per node per cycle.
    #[arg(long, default_value_t = 0.04, allow_negative_numbers = true, global = true)]
    pub rate: f64,
    /// Message length B in flits.
    #[arg(long, default_value_t = 4, global = true)]
    pub size: u32,
    /// Locality fraction l in (0, 1]: the share of all nodes a source addresses (a subcube
    /// with a corner at the source).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, global = true)]
    pub locality: f64,
    /// Channels in both directions (default: unidirectional).
    #[arg(long)]
    pub bidirectional: bool,
    /// No end-around connections: a mesh (implies bidirectional channels).
    #[arg(long)]
    pub no_wrap: bool,
    /// Use Appendix B's second contention form, (k_d − ½)/(k_d + ½)², for small k_d.
    #[arg(long, global = true)]
    pub small_kd: bool,
    /// Print one JSON object instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
}

/// Resolves `--n`/`--nodes` into the dimension count, saying on stderr when N is rounded up.
pub fn dimensions(k: u32, n: Option<u32>, nodes: Option<u64>) -> anyhow::Result<u32> {
    if k < 2 {
        bail!("radix --k {k} is invalid: k must be at least 2");
    }
    match (n, nodes) {
        (Some(0), _) => bail!("--n 0 is invalid: a k-ary n-cube needs at least one dimension"),
        (Some(n), _) => Ok(n),
        (None, None) => Ok(2),
        (None, Some(0)) => bail!("--nodes 0 is invalid: at least one processor is needed"),
        (None, Some(nodes)) => {
            let (n, rounded) = whole_dimensions(nodes, k);
            if rounded != nodes {
                eprintln!(
                    "netwrap: log_{k}({nodes}) is not a whole number: using n = {n}, N = {k}^{n} = {rounded} processors"
                );
            }
            Ok(n)
        }
    }
}

/// The smallest n ≥ 1 with k^n ≥ nodes, and k^n.
pub fn whole_dimensions(nodes: u64, k: u32) -> (u32, u64) {
    let mut n = 1;
    let mut size = k as u64;
    while size < nodes {
        n += 1;
        size = size.saturating_mul(k as u64);
    }
    (n, size)
}

/// The wiring the flags select.
pub fn wiring(bidirectional: bool, no_wrap: bool) -> Wiring {
    match (bidirectional, no_wrap) {
        (_, true) => Wiring::Mesh,
        (true, false) => Wiring::BidirectionalTorus,
        (false, false) => Wiring::UnidirectionalTorus,
    }
}

/// The model parameters these arguments describe.
pub fn kary_ncube_params(a: &KaryNCubeArgs) -> anyhow::Result<KaryNCube> {
    let n = dimensions(a.k, a.n, a.nodes)?;
    Ok(KaryNCube {
        locality: a.locality,
        wiring: wiring(a.bidirectional, a.no_wrap),
        form: if a.small_kd { ContentionForm::SmallKd } else { ContentionForm::LargeKd },
        ..KaryNCube::new(a.k, n, a.rate, a.size as f64)
    })
}

/// `netwrap model kary-ncube`: the network and workload plus seed 000's physical options.
#[derive(Debug, Clone, Args, Serialize)]
pub struct KaryNCubeModelArgs {
    #[command(flatten)]
    pub net: KaryNCubeArgs,
    #[command(flatten)]
    pub physical: PhysicalArgs,
    /// Use eq. 3 with the full variance of seed 000 eq. 5 instead of its approximation.
    #[arg(long, conflicts_with = "small_kd")]
    pub full_variance: bool,
}

/// The fully resolved model input: the cube, and what --bits and the delays add.
#[derive(Debug, Clone, Serialize)]
pub struct ResolvedConfig {
    #[serde(flatten)]
    pub network: KaryNCube,
    /// Message length in bits, when given.
    pub bits: Option<f64>,
    /// The width constraint, when given.
    pub constraint: Option<WidthConstraint>,
    /// Channel width W in bits it leaves.
    pub width: Option<f64>,
    /// Switch and wire delays, when given.
    pub delays: Option<Delays>,
}

/// Resolves the model arguments: n from --n/--nodes, B from --size or --bits/W, the form.
pub fn resolve(a: &KaryNCubeModelArgs) -> anyhow::Result<ResolvedConfig> {
    let mut network = kary_ncube_params(&a.net)?;
    if a.full_variance {
        network.form = ContentionForm::FullVariance;
    }
    let nodes = (network.k as f64).powi(network.n as i32);
    let wrap = network.wiring != Wiring::Mesh;
    let bidir = network.wiring != Wiring::UnidirectionalTorus;
    let constraint = a.physical.constraint(nodes, bidir, wrap)?;
    let mut width = None;
    if let (Some(bits), Some(c)) = (a.physical.bits, constraint) {
        let w = agarwal::channel_width(c, nodes, network.k as f64, network.n, bidir, wrap)?;
        network.size = bits / w;
        width = Some(w);
    }
    Ok(ResolvedConfig { network, bits: a.physical.bits, constraint, width, delays: a.physical.delays()? })
}

/// Clock period, eq. 12's latency and eq. 2's base latency, in units of T^w(2).
#[derive(Debug, Clone, Serialize)]
pub struct Timing {
    /// s + T^w(n)/T^w(2).
    pub clock_period: f64,
    /// Eq. 12: the clock period times the latency in cycles (M excluded).
    pub latency_time: Option<f64>,
    /// Eq. 2: the clock period times the unloaded latency.
    pub base_latency_time: f64,
}

/// The timing for `delays`, given the latency and unloaded latency in cycles.
pub fn timing(cfg: &ResolvedConfig, latency: Option<f64>, unloaded: f64) -> Option<Timing> {
    let d = cfg.delays?;
    let c = d.clock_period(cfg.network.k as f64, cfg.network.n);
    let m = cfg.network.memory_latency;
    Some(Timing {
        clock_period: c,
        latency_time: latency.map(|t| c * (t - m)),
        base_latency_time: c * (unloaded - m),
    })
}

#[derive(Serialize)]
struct Report<'a> {
    model: &'static str,
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: &'a ResolvedConfig,
    #[serde(flatten)]
    prediction: &'a Prediction,
    #[serde(flatten)]
    timing: Option<Timing>,
    note: Option<String>,
}

/// The error returned after printing a saturated prediction.
pub fn saturated_error(what: &str, utilization: f64, max_rate: f64) -> anyhow::Error {
    crate::output::saturated(format!(
        "{what} is saturated: utilization {utilization:.4} >= 1, so the queue is unstable and has no steady-state latency; \
         the highest sustainable rate is {max_rate:.6} messages/node/cycle"
    ))
}

pub fn run(a: KaryNCubeModelArgs) -> anyhow::Result<()> {
    let cfg = resolve(&a)?;
    let params = &cfg.network;
    let p = kary_ncube::predict(params).context("invalid model parameters")?;
    let timing = timing(&cfg, p.latency, p.unloaded_latency);
    let note = (p.k_d <= 2.0 && params.form == ContentionForm::LargeKd)
        .then(|| format!("k_d = {} <= 2: Appendix B recommends its small-k_d form (--small-kd)", p.k_d));
    if a.net.json {
        print_json(&Report {
            model: "kary-ncube",
            netwrap_version: VERSION,
            seed: None,
            config: &cfg,
            prediction: &p,
            timing: timing.clone(),
            note,
        })?;
    } else {
        println!("netwrap {VERSION} model kary-ncube (seed 000 eqs. 7, 8, 10; seed 004 App. B)");
        println!(
            "network: {}-ary {}-cube, N = {}, {:?}; workload: m = {}, B = {}, l = {}",
            params.k,
            params.n,
            (params.k as f64).powi(params.n as i32),
            params.wiring,
            params.rate,
            params.size,
            params.locality
        );
        if let (Some(bits), Some(w)) = (cfg.bits, cfg.width) {
            println!("channel width W = {w:.4} bits ({:?}); L = {bits} bits", cfg.constraint.unwrap());
        }
        println!("k_d                          {:.4}", p.k_d);
        println!("channel utilization rho      {:.4}", p.utilization);
        println!("unloaded latency T0          {:.4}", p.unloaded_latency);
        println!("contention per switch w      {}", opt(p.contention_per_switch, 4));
        println!("latency T                    {}", opt(p.latency, 4));
        if let Some(t) = &timing {
            println!("clock period (T^w(2) units)  {:.4}", t.clock_period);
            println!("base latency, eq. 2          {:.4}", t.base_latency_time);
            println!("latency, eq. 12              {}", opt(t.latency_time, 4));
        }
        if let Some(note) = note {
            println!("note: {note}");
        }
    }
    if p.saturated {
        return Err(saturated_error("the network", p.utilization, p.max_rate));
    }
    Ok(())
}
