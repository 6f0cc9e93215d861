//! netwrap's cycle-accurate network simulator.
//!
//! The engine's contract (what a cycle is, in which order things happen, what is
//! deterministic) is written in [`engine`]. Two engines implement it for the ideal switch of
//! seeds 000 and 004 (unbounded output queues, one cycle per hop, pipelined): [`engine::ideal`]
//! computes each message's passage per hop (fast), [`engine::reference`] moves every flit
//! every cycle (slow, the oracle); tests require identical results.
//!
//! Results depend only on the seed and the configuration: every terminal draws from its own
//! stream, derived from (seed, terminal, purpose), and same-cycle ties are broken by
//! per-message salts, never by iteration order.
#![deny(missing_docs)]

pub mod calendar;
pub mod engine;
pub mod family;
pub mod load;
pub mod report;
pub mod rng;
pub mod traffic;

use engine::{Outcome, RunSpec};
pub use family::{FamilyRun, FamilySim, simulate_family};
use load::cube_load;
use netwrap_topo::{CubeSpec, DimensionOrder, KaryNCube, Network, Routing};
use report::{OfferedLoad, Report, summarize};
use serde::Serialize;
use thiserror::Error;
use traffic::{CubeLocality, Destinations, LocalitySubcube, Uniform, subcube};

/// Why a simulation could not run.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SimError {
    /// A parameter is outside its valid range; the message names it.
    #[error("{0}")]
    Invalid(String),
    /// The topology could not be built.
    #[error(transparent)]
    Topology(#[from] netwrap_topo::TopoError),
}

/// Which engine runs the ideal switch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EngineKind {
    /// Per-message passage computation (the default).
    #[default]
    Fast,
    /// Flit-by-flit reference (slow; for checking).
    Reference,
}

/// A k-ary n-cube simulation: network, workload and run control.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CubeSim {
    /// Radix k.
    pub k: u32,
    /// Dimensions n.
    pub n: u32,
    /// End-around connections.
    pub wrap: bool,
    /// Channels in both directions.
    pub bidirectional: bool,
    /// Dimension order of routing.
    pub order: DimensionOrder,
    /// Request rate m, messages per node per cycle, in (0, 1].
    pub rate: f64,
    /// Message length B in flits.
    pub size: u32,
    /// Locality fraction l in (0, 1].
    pub locality: f64,
    /// Measured messages.
    pub messages: u64,
    /// Cycle limit.
    pub max_cycles: u64,
    /// Warm-up cycles; `None` picks [`default_warmup`].
    pub warmup: Option<u64>,
    /// Seed.
    pub seed: u64,
    /// Engine.
    pub engine: EngineKind,
}

impl CubeSim {
    /// Seed 004 Ex 1's network and workload (k = 8, n = 2, m = 0.04, B = 4), 10,000 measured
    /// messages, seed 1.
    pub fn new(k: u32, n: u32, rate: f64, size: u32) -> Self {
        CubeSim {
            k,
            n,
            wrap: true,
            bidirectional: false,
            order: DimensionOrder::HighestFirst,
            rate,
            size,
            locality: 1.0,
            messages: 10_000,
            max_cycles: 10_000_000,
            warmup: None,
            seed: 1,
            engine: EngineKind::Fast,
        }
    }
}

/// The configuration as run, with defaults resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResolvedCube {
    /// What was asked for (with the warm-up filled in).
    #[serde(flatten)]
    pub sim: CubeSim,
    /// Number of processors N = k^n.
    pub nodes: u32,
    /// The locality subcube simulated.
    pub subcube: LocalitySubcube,
    /// Topology name.
    pub topology: String,
}

/// A finished simulation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CubeRun {
    /// Configuration as run.
    pub config: ResolvedCube,
    /// Offered utilisation of the busiest channel, from the traffic and routing.
    pub offered_utilization: f64,
    /// Highest request rate the busiest channel can carry.
    pub saturation_rate: f64,
    /// Statistics.
    #[serde(flatten)]
    pub report: Report,
    /// Failed flit-availability checks (the reference engine's self-check; 0 when sound).
    pub stalls: u64,
    /// Raw outcome, for detailed output.
    #[serde(skip)]
    pub outcome: Outcome,
}

/// Warm-up used when none is given: ten unloaded worst-case latencies (diameter + B),
/// stretched by 1/(1 − ρ) so queues near saturation have time to fill, at least 1,000 and at
/// most 100,000 cycles.
pub fn default_warmup(diameter: u64, size: u32, offered_utilization: f64) -> u64 {
    let base = 10.0 * (diameter + size as u64) as f64;
    let stretch = if offered_utilization < 1.0 { 1.0 / (1.0 - offered_utilization) } else { 10.0 };
    ((base * stretch) as u64).clamp(1_000, 100_000)
}

fn check(what: &str, ok: bool, valid: &str) -> Result<(), SimError> {
    if ok { Ok(()) } else { Err(SimError::Invalid(format!("{what} is invalid: {valid}"))) }
}

/// Validates the workload and run-control parameters shared by every simulation.
pub fn validate_workload(rate: f64, size: u32, messages: u64, max_cycles: u64) -> Result<(), SimError> {
    check(
        &format!("rate {rate}"),
        rate.is_finite() && rate > 0.0 && rate <= 1.0,
        "the request rate must be in (0, 1] messages per node per cycle",
    )?;
    check("size 0", size >= 1, "messages need at least one flit")?;
    check("messages 0", messages >= 1, "at least one message must be measured")?;
    check("max-cycles 0", max_cycles >= 1, "at least one cycle must be simulated")?;
    Ok(())
}

/// Builds and runs a k-ary n-cube simulation.
pub fn simulate_cube(sim: &CubeSim) -> Result<CubeRun, SimError> {
    validate_workload(sim.rate, sim.size, sim.messages, sim.max_cycles)?;
    check(
        &format!("locality {}", sim.locality),
        sim.locality.is_finite() && sim.locality > 0.0 && sim.locality <= 1.0,
        "the locality fraction must be in (0, 1]",
    )?;
    check("n 0", sim.n >= 1, "a k-ary n-cube needs at least one dimension")?;
    check(&format!("k {}", sim.k), sim.k >= 2, "the radix must be at least 2")?;
    if !sim.wrap && sim.locality < 1.0 {
        return Err(SimError::Invalid(
            "locality < 1 needs end-around connections: the subcube has a corner at the source and wraps round the torus".into(),
        ));
    }
    let spec =
        CubeSpec { radices: vec![sim.k; sim.n as usize], wrap: sim.wrap, bidirectional: sim.bidirectional };
    let nodes = spec.nodes()?;
    check(&format!("network of {nodes} nodes"), nodes <= 1 << 26, "at most 2^26 nodes are supported")?;
    let diameter = sim.n as u64 * (sim.k as u64 - 1);
    check(
        &format!("diameter {diameter}"),
        diameter < u16::MAX as u64,
        "routes must be shorter than 65535 hops",
    )?;
    let cube = KaryNCube::new(spec, sim.order)?;
    let sub = subcube(&cube.spec().radices, sim.locality);
    let profile = cube_load(&cube, &sub.sides, sim.order);
    let mb = sim.rate * sim.size as f64;
    let offered = OfferedLoad {
        max: profile.max * mb,
        class_mean: profile.class_mean.iter().map(|l| l * mb).collect(),
    };
    let warmup = sim.warmup.unwrap_or_else(|| default_warmup(diameter, sim.size, offered.max));
    let run = RunSpec::bernoulli(sim.rate, sim.size, warmup, sim.messages, sim.max_cycles, sim.seed);
    let outcome = if sim.locality < 1.0 {
        execute(cube.network(), &cube, &CubeLocality::new(&cube, sim.locality), &run, sim.engine)
    } else {
        execute(cube.network(), &cube, &Uniform::new(nodes), &run, sim.engine)
    };
    let class_of: Vec<u16> = cube.network().channels().iter().map(|c| c.class).collect();
    let report = summarize(&outcome, &class_of, cube.network().classes(), Some(&offered));
    Ok(CubeRun {
        config: ResolvedCube {
            sim: CubeSim { warmup: Some(warmup), ..sim.clone() },
            nodes,
            subcube: sub,
            topology: cube.network().name().to_string(),
        },
        offered_utilization: offered.max,
        saturation_rate: if profile.max > 0.0 {
            (1.0 / (profile.max * sim.size as f64)).min(1.0)
        } else {
            1.0
        },
        stalls: outcome.stalls,
        report,
        outcome,
    })
}

/// Runs one engine on a built network: the single place the engine choice is matched.
pub fn execute<R: Routing, D: Destinations>(
    net: &Network,
    routing: &R,
    dests: &D,
    spec: &RunSpec,
    engine: EngineKind,
) -> Outcome {
    match engine {
        EngineKind::Fast => engine::ideal::run(net, routing, dests, spec),
        EngineKind::Reference => engine::reference::run(net, routing, dests, spec),
    }
}
