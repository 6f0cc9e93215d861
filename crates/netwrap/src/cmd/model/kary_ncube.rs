//! `netwrap model kary-ncube`.

use super::physical::PhysicalArgs;
use super::{fixed, opt_fixed};
use crate::output::{self, VERSION, num, print_json};
use anyhow::{Context, anyhow, bail};
use clap::{Args, ValueEnum};
use netwrap_model::agarwal::{self, Delays, WidthConstraint};
use netwrap_model::kary_ncube::{self, ContentionForm, KaryNCube, MAX_NODES, Prediction, Wiring};
use netwrap_topo::cli::{fraction, probability, small_count};
use netwrap_topo::whole_dimensions;
use serde::Serialize;
use std::io::Write;

/// The contention form, as a command-line value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContentionArg {
    /// The homework's App. B rule: eq. 8's form when the distance per dimension (k_d, or
    /// k_dl with locality) exceeds 2, the small-k_d form otherwise.
    #[default]
    Auto,
    /// Agarwal 1991 eq. 8's (k_d − 1)/k_d², for large k_d.
    LargeKd,
    /// The homework's App. B (k_d − ½)/(k_d + ½)², for small k_d.
    SmallKd,
    /// Agarwal 1991 eq. 3 with eq. 5's full variance.
    FullVariance,
}

impl ContentionArg {
    /// The model's form.
    pub fn form(self) -> ContentionForm {
        match self {
            ContentionArg::Auto => ContentionForm::Auto,
            ContentionArg::LargeKd => ContentionForm::LargeKd,
            ContentionArg::SmallKd => ContentionForm::SmallKd,
            ContentionArg::FullVariance => ContentionForm::FullVariance,
        }
    }
}

/// Network and workload of the k-ary n-cube model, with the names `netwrap sim` gives the
/// same quantities.
#[derive(Debug, Clone, Args, Serialize)]
pub struct KaryNCubeArgs {
    /// Radix k (nodes per dimension), at least 2.
    #[arg(long, default_value_t = 8, value_parser = small_count::<2>, allow_hyphen_values = true)]
    pub k: u32,
    /// Dimensions n, at least 1 (N = k^n at most 2^53).
    #[arg(long, conflicts_with = "nodes", value_parser = small_count::<1>, allow_hyphen_values = true)]
    pub n: Option<u32>,
    /// Number of processors N instead of n: n = log_k N, rounded up to a whole dimension
    /// (k^n at most 2^53).
    #[arg(long, value_parser = netwrap_topo::cli::count::<1>, allow_hyphen_values = true)]
    pub nodes: Option<u64>,
    /// Request rate m: messages generated per node per cycle, a probability in [0, 1].
    #[arg(long, default_value_t = 0.04, value_parser = probability, allow_hyphen_values = true, global = true)]
    pub rate: f64,
    /// Message length B in flits, at least 1.
    #[arg(long, default_value_t = 4, value_parser = small_count::<1>, allow_hyphen_values = true, global = true)]
    pub size: u32,
    /// Locality fraction l in (0, 1]: the share of all nodes a source addresses (a subcube
    /// with a corner at the source).
    #[arg(long, default_value_t = 1.0, value_parser = fraction, allow_hyphen_values = true, global = true)]
    pub locality: f64,
    /// Channels in both directions (default: unidirectional).
    #[arg(long)]
    pub bidirectional: bool,
    /// No end-around connections: a mesh (implies bidirectional channels).
    #[arg(long)]
    pub no_wrap: bool,
    /// Contention form: `auto` applies the homework's App. B rule (eq. 8's form for
    /// k_d > 2, the small-k_d form otherwise); the others force one form.
    #[arg(long, value_enum, default_value_t = ContentionArg::Auto, global = true)]
    pub contention: ContentionArg,
    /// Print one JSON object instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
    /// Write the result as tidy CSV, a header and one row (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-", global = true)]
    pub csv: Option<std::path::PathBuf>,
}

/// Resolves `--n`/`--nodes` into the dimension count, saying on stderr when N is rounded
/// up; N = k^n is computed without overflow and refused above 2^53 (the models' limit,
/// which keeps N exact in floating point).
pub fn dimensions(k: u32, n: Option<u32>, nodes: Option<u64>) -> anyhow::Result<u32> {
    if k < 2 {
        bail!("--k {k} is invalid: the radix must be a whole number of at least 2");
    }
    match (n, nodes) {
        (Some(0), _) => bail!("--n 0 is invalid: a k-ary n-cube needs at least one dimension"),
        (Some(n), _) => {
            kary_ncube::network_size(k, n).map_err(|e| anyhow!("--k {k} --n {n} is too large: {e}"))?;
            Ok(n)
        }
        (None, None) => Ok(2),
        (None, Some(0)) => bail!("--nodes 0 is invalid: at least one processor is needed"),
        (None, Some(nodes)) if nodes > MAX_NODES => {
            bail!("--nodes {nodes} is too large: the models accept at most 2^53 = {MAX_NODES} nodes")
        }
        (None, Some(nodes)) => {
            let (n, rounded) = whole_dimensions(nodes, k);
            if rounded > MAX_NODES {
                bail!(
                    "--nodes {nodes} rounds up to a whole dimension, {k}^{n} nodes, more than the 2^53 the models accept: choose --k so that k^n is at most 2^53"
                );
            }
            if rounded != nodes {
                // A closed standard error is no reason to fail.
                let _ = writeln!(
                    std::io::stderr(),
                    "netwrap: log_{k}({nodes}) is not a whole number: using n = {n}, N = {k}^{n} = {rounded} processors"
                );
            }
            Ok(n)
        }
    }
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
        form: a.contention.form(),
        ..KaryNCube::new(a.k, n, a.rate, a.size as f64)
    })
}

/// `netwrap model kary-ncube`: the network and workload plus Agarwal 1991's physical options.
#[derive(Debug, Clone, Args, Serialize)]
pub struct KaryNCubeModelArgs {
    #[command(flatten)]
    pub net: KaryNCubeArgs,
    #[command(flatten)]
    pub physical: PhysicalArgs,
}

/// The fully resolved model input: the cube, and what --bits and the delays add.
#[derive(Debug, Clone, Serialize)]
pub struct ResolvedConfig {
    #[serde(flatten)]
    pub network: KaryNCube,
    /// Processors N = k^n.
    pub nodes: u64,
    /// Message length in bits, when given.
    pub bits: Option<f64>,
    /// The width constraint, when given.
    pub constraint: Option<WidthConstraint>,
    /// Channel width W in bits it leaves.
    pub width: Option<f64>,
    /// Switch and wire delays, when given.
    pub delays: Option<Delays>,
}

/// Resolves and validates the model arguments once, naming the option at fault: n from
/// --n/--nodes, the locality subcube, B from --size or --bits/W, and whether a forced
/// contention form applies to this network.
pub fn resolve(a: &KaryNCubeModelArgs) -> anyhow::Result<ResolvedConfig> {
    let mut network = kary_ncube_params(&a.net)?;
    let nodes = kary_ncube::network_size(network.k, network.n)?;
    let k_d = kary_ncube::distance_per_dimension(&network).map_err(|e| {
        let mesh = if network.wiring == Wiring::Mesh { " with --no-wrap" } else { "" };
        anyhow!("--locality {}{mesh}: {e}", num(network.locality))
    })?;
    if network.form.check(k_d).is_err() {
        bail!(
            "--contention {} does not apply to this network: {} is negative for k_d < 1, and k_d = {} here; use --contention auto (the default, App. B's rule) or --contention small-kd",
            network.form.name(),
            network.form,
            num(k_d)
        );
    }
    let wrap = network.wiring != Wiring::Mesh;
    let bidir = network.wiring != Wiring::UnidirectionalTorus;
    let constraint = a.physical.constraint(nodes as f64, bidir, wrap)?;
    let mut width = None;
    if let (Some(bits), Some(c)) = (a.physical.bits, constraint) {
        let w = agarwal::channel_width(c, nodes as f64, network.k as f64, network.n, bidir, wrap)
            .with_context(|| a.physical.constraint_option())?;
        network.size = bits / w;
        if !(network.size.is_finite() && network.size > 0.0) {
            bail!(
                "--bits {} over a channel width of {} bits gives B = {} flits: it must be a positive finite number",
                num(bits),
                num(w),
                num(network.size)
            );
        }
        width = Some(w);
    }
    Ok(ResolvedConfig {
        network,
        nodes,
        bits: a.physical.bits,
        constraint,
        width,
        delays: a.physical.delays()?,
    })
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

/// The timing for `delays`, given the latency and unloaded latency in cycles; an error when
/// a switch delay valid on its own takes the times beyond floating point.
pub fn timing(cfg: &ResolvedConfig, latency: Option<f64>, unloaded: f64) -> anyhow::Result<Option<Timing>> {
    let Some(d) = cfg.delays else { return Ok(None) };
    let c = d.clock_period(cfg.network.k as f64, cfg.network.n);
    let m = cfg.network.memory_latency;
    let t = Timing {
        clock_period: c,
        latency_time: latency.map(|t| c * (t - m)),
        base_latency_time: c * (unloaded - m),
    };
    if ![t.clock_period, t.base_latency_time, t.latency_time.unwrap_or(0.0)].iter().all(|x| x.is_finite()) {
        bail!(
            "--switch-delay {} takes the latency in units of T^w(2) beyond floating point: choose a smaller switch delay",
            num(d.switch_delay)
        );
    }
    Ok(Some(t))
}

/// One line saying which contention form was used and why: `auto`'s choice with the
/// distance that decided it, or the form forced with --contention.
pub fn form_line(asked: ContentionForm, used: ContentionForm, k_d: f64, locality: f64) -> String {
    let distance = if locality < 1.0 { "k_dl" } else { "k_d" };
    let formula = used.formula().unwrap_or_default();
    if asked == ContentionForm::Auto {
        let cmp = if used == ContentionForm::LargeKd { ">" } else { "<=" };
        format!("{used}, {formula} (auto: {distance} = {} {cmp} 2)", fixed(k_d, 4))
    } else {
        format!("{used}, {formula} (--contention {})", asked.name())
    }
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
    output::saturated(format!(
        "{what} is saturated: utilization {} >= 1, so the queue is unstable and has no steady-state latency; \
         the highest sustainable rate is {} messages/node/cycle",
        fixed(utilization, 4),
        fixed(max_rate, 6)
    ))
}

pub fn run(a: KaryNCubeModelArgs) -> anyhow::Result<()> {
    let cfg = resolve(&a)?;
    let params = &cfg.network;
    let p = kary_ncube::predict(params).context("invalid model parameters")?;
    let timing = timing(&cfg, p.latency, p.unloaded_latency)?;
    let note = (p.k_d <= 2.0 && params.form == ContentionForm::LargeKd).then(|| {
        format!(
            "k_d = {} <= 2: the homework's App. B recommends its small-k_d form (--contention auto or small-kd)",
            num(p.k_d)
        )
    });
    let report = Report {
        model: "kary-ncube",
        netwrap_version: VERSION,
        seed: None,
        config: &cfg,
        prediction: &p,
        timing: timing.clone(),
        note: note.clone(),
    };
    let csv_only = output::write_csv_if(a.net.csv.as_deref(), &[&report])?;
    if csv_only {
        // The CSV on standard output replaces the table and the JSON.
    } else if a.net.json {
        print_json(&report)?;
    } else {
        let mut out = output::stdout();
        writeln!(
            out,
            "netwrap {VERSION} model kary-ncube (Agarwal 1991 eqs. 7, 8, 10; the homework's App. B)"
        )?;
        writeln!(
            out,
            "network: {}-ary {}-cube, N = {}, {}; workload: m = {}, B = {}, l = {}",
            params.k,
            params.n,
            cfg.nodes,
            params.wiring,
            num(params.rate),
            num(params.size),
            num(params.locality)
        )?;
        if let (Some(bits), Some(w), Some(c)) = (cfg.bits, cfg.width, cfg.constraint) {
            writeln!(out, "channel width W = {} bits ({c}); L = {} bits", fixed(w, 4), num(bits))?;
        }
        writeln!(
            out,
            "contention form              {}",
            form_line(params.form, p.contention_form, p.k_d, params.locality)
        )?;
        writeln!(out, "k_d                          {}", fixed(p.k_d, 4))?;
        writeln!(out, "channel utilization rho      {}", fixed(p.utilization, 4))?;
        writeln!(out, "unloaded latency T0          {}", fixed(p.unloaded_latency, 4))?;
        writeln!(out, "contention per switch w      {}", opt_fixed(p.contention_per_switch, 4))?;
        writeln!(out, "latency T                    {}", opt_fixed(p.latency, 4))?;
        if let Some(t) = &timing {
            writeln!(out, "clock period (T^w(2) units)  {}", fixed(t.clock_period, 4))?;
            writeln!(out, "base latency, eq. 2          {}", fixed(t.base_latency_time, 4))?;
            writeln!(out, "latency, eq. 12              {}", opt_fixed(t.latency_time, 4))?;
        }
        if let Some(note) = note {
            writeln!(out, "note: {note}")?;
        }
        out.finish()?;
    }
    if p.saturated {
        return Err(saturated_error("the network", p.utilization, p.max_rate));
    }
    Ok(())
}
