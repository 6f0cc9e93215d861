//! Simulation of every topology family netwrap builds ([`TopologySpec`]) with the ideal
//! switch, under uniform traffic (destinations uniform over all terminals, the source
//! included, as on the cubes).
//!
//! The offered load of every channel is computed exactly where the family allows — by routing
//! one terminal's messages and spreading them over each channel class when the family is
//! symmetric, or by routing every pair up to [`netwrap_topo::metrics::LOAD_PAIRS_LIMIT`]
//! terminals — so saturation is known before the run; otherwise the run's own evidence decides.

use crate::engine::RunSpec;
use crate::report::{OfferedLoad, Report, summarize};
use crate::traffic::Uniform;
use crate::{EngineKind, SimError, default_warmup, engine::Outcome, execute, validate_workload};
use netwrap_topo::metrics::channel_loads;
use netwrap_topo::{Candidates, Family, Network, TerminalId, TopologySpec, Visitor};
use serde::Serialize;

/// A simulation of any family.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FamilySim {
    /// The network.
    pub topology: TopologySpec,
    /// Request rate m, messages per terminal per cycle, in (0, 1].
    pub rate: f64,
    /// Message length B in flits.
    pub size: u32,
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

/// The configuration as run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResolvedFamily {
    /// What was asked for (warm-up filled in).
    #[serde(flatten)]
    pub sim: FamilySim,
    /// Terminals (processors).
    pub nodes: u32,
    /// Routers.
    pub routers: u32,
    /// Directed channels.
    pub channels: u32,
    /// The family's name for this instance.
    pub name: String,
}

/// A finished simulation of a family.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FamilyRun {
    /// Configuration as run.
    pub config: ResolvedFamily,
    /// Mean hops of the routes under this traffic (self-addressed messages included), exact:
    /// from every pair, or from one terminal on vertex-transitive families.
    pub expected_mean_hops: f64,
    /// Offered busy fraction of the busiest channel, when the loads could be computed.
    pub offered_utilization: Option<f64>,
    /// Highest request rate the busiest channel can carry, when known.
    pub saturation_rate: Option<f64>,
    /// How the loads were obtained (or why not).
    pub load_method: String,
    /// Statistics.
    #[serde(flatten)]
    pub report: Report,
    /// Raw outcome, for detailed output.
    #[serde(skip)]
    pub outcome: Outcome,
}

/// The channels of the route from `s` to `d` (first candidate at every hop: the families'
/// alternatives are equally long), into `path`.
fn route<F: Family>(f: &F, s: TerminalId, d: TerminalId, path: &mut Vec<u32>) -> Result<(), SimError> {
    let net = f.network();
    let mut cands = Candidates::default();
    let mut at = net.inject_router(s);
    path.clear();
    loop {
        f.route(at, d, 0, &mut cands);
        let Some(&c) = cands.as_slice().first() else { return Ok(()) };
        path.push(c);
        at = net.channel(c).dst;
        if path.len() > u16::MAX as usize {
            return Err(SimError::Invalid(format!(
                "the route from {s} to {d} does not reach its destination"
            )));
        }
    }
}

/// Mean route length over all (source, destination) pairs — from terminal 0 alone when
/// `one_source` (vertex-transitive families) — the longest route seen, and how often each
/// channel is used by self-addressed messages (one per terminal).
fn walk_routes<F: Family>(f: &F, one_source: bool) -> Result<(f64, u64, Vec<f64>), SimError> {
    let net = f.network();
    let n = net.terminals();
    let mut path = Vec::new();
    let mut self_use = vec![0.0; net.channels().len()];
    let sources = if one_source { 1 } else { n };
    let (mut total, mut longest) = (0u64, 0u64);
    for s in 0..sources {
        for d in 0..n {
            route(f, s, d, &mut path)?;
            total += path.len() as u64;
            longest = longest.max(path.len() as u64);
        }
    }
    for s in 0..n {
        route(f, s, s, &mut path)?;
        for &c in &path {
            self_use[c as usize] += 1.0;
        }
    }
    Ok((total as f64 / (sources as f64 * n as f64), longest, self_use))
}

/// Terminals above which an asymmetric family's expected hops are not computed pair by pair.
const PAIRS_LIMIT: u32 = 4096;

/// What the run needs to know about the routes before it starts.
struct RouteFacts {
    mean_hops: f64,
    longest: u64,
    loads: Option<(Vec<f64>, String)>,
    self_use: Vec<f64>,
}

struct Facts {
    vertex_transitive: bool,
    class_symmetric: bool,
}

impl Visitor for Facts {
    type Output = Result<RouteFacts, SimError>;
    fn visit<F: Family>(self, f: &F) -> Self::Output {
        let n = f.network().terminals();
        if !self.vertex_transitive && n > PAIRS_LIMIT {
            return Err(SimError::Invalid(format!(
                "{n} terminals without symmetry: netwrap simulates asymmetric families up to {PAIRS_LIMIT} terminals"
            )));
        }
        let (mean_hops, longest, self_use) = walk_routes(f, self.vertex_transitive)?;
        let loads = channel_loads(f.network(), f, self.class_symmetric)?;
        Ok(RouteFacts { mean_hops, longest, loads, self_use })
    }
}

struct Runner<'a> {
    spec: &'a RunSpec,
    engine: EngineKind,
}

impl Visitor for Runner<'_> {
    type Output = Outcome;
    fn visit<F: Family>(self, f: &F) -> Outcome {
        execute(f.network(), f, &Uniform::new(f.network().terminals()), self.spec, self.engine)
    }
}

/// Per-channel offered busy fraction: m · ⌈B/width⌉ · (messages per cycle per unit rate), with
/// the topology's distinct-pair loads weighted (N−1)/N and self-addressed routes 1/N.
fn offered(net: &Network, facts: &RouteFacts, rate: f64, size: u32) -> Option<(Vec<f64>, f64)> {
    let (loads, _) = facts.loads.as_ref()?;
    let n = net.terminals() as f64;
    let busy: Vec<f64> = net
        .channels()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let per_unit = loads[i] * (n - 1.0) / n + facts.self_use[i] / n;
            rate * (size as u64).div_ceil(c.width as u64) as f64 * per_unit
        })
        .collect();
    let max = busy.iter().copied().fold(0.0, f64::max);
    Some((busy, max))
}

/// Builds and runs a simulation of any family.
pub fn simulate_family(sim: &FamilySim) -> Result<FamilyRun, SimError> {
    validate_workload(sim.rate, sim.size, sim.messages, sim.max_cycles)?;
    let topo = sim.topology.build()?;
    let net = topo.network();
    let nodes = net.terminals();
    if nodes > 1 << 26 {
        return Err(SimError::Invalid(format!("{nodes} terminals: at most 2^26 are supported")));
    }
    let (vertex_transitive, class_symmetric) = topo.symmetry();
    let facts = topo.visit(Facts { vertex_transitive, class_symmetric })?;
    let offered_busy = offered(net, &facts, sim.rate, sim.size);
    let class_names = net.classes();
    let offered_load = offered_busy.as_ref().map(|(busy, max)| {
        let mut sum = vec![(0.0, 0u32); class_names.len()];
        for (c, b) in net.channels().iter().zip(busy) {
            sum[c.class as usize].0 += b;
            sum[c.class as usize].1 += 1;
        }
        OfferedLoad { max: *max, class_mean: sum.iter().map(|(s, k)| s / (*k).max(1) as f64).collect() }
    });
    let warmup = sim.warmup.unwrap_or_else(|| {
        default_warmup(facts.longest, sim.size, offered_load.as_ref().map_or(0.5, |l| l.max))
    });
    let run = RunSpec::bernoulli(sim.rate, sim.size, warmup, sim.messages, sim.max_cycles, sim.seed);
    let outcome = topo.visit(Runner { spec: &run, engine: sim.engine });
    let class_of: Vec<u16> = net.channels().iter().map(|c| c.class).collect();
    let report = summarize(&outcome, &class_of, class_names, offered_load.as_ref());
    let load_method = match &facts.loads {
        Some((_, how)) => how.clone(),
        None => "not computed: too many terminals for every pair and no symmetry to use".into(),
    };
    Ok(FamilyRun {
        config: ResolvedFamily {
            sim: FamilySim { warmup: Some(warmup), ..sim.clone() },
            nodes,
            routers: net.routers(),
            channels: net.channels().len() as u32,
            name: net.name().to_string(),
        },
        expected_mean_hops: facts.mean_hops,
        offered_utilization: offered_load.as_ref().map(|l| l.max),
        saturation_rate: offered_load
            .as_ref()
            .map(|l| if l.max > 0.0 { (sim.rate / l.max).min(1.0) } else { 1.0 }),
        load_method,
        report,
        outcome,
    })
}
