//! [`Experiment`]: a spec validated once and built — topology, routing, destination pattern,
//! the routes' facts and exact channel loads — ready to run any number of points that share
//! those (a sweep over rates, sizes, seeds or run control builds the network once).

use crate::SimError;
use crate::engine::{self, Arrivals, Outcome, Record, RunSpec, StopRule};
use crate::report::{Context, summarize};
use crate::result::{NetworkInfo, SimResult, VERSION, compare, model_unavailable};
use crate::routes::{RouteFacts, facts, offered, saturates};
use crate::spec::{EngineKind, PatternKind, SimSpec, VcParams};
use crate::traffic::{CubeLocality, LocalitySubcube, Pattern, subcube};
use netwrap_topo::{Family, Network, Routing, Topology, Visitor};

/// What a run will do, decided before its first cycle ([`Experiment::plan`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The point's resolved spec, its warm-up filled in.
    pub spec: SimSpec,
    /// When the run stops early.
    pub stop: StopRule,
    /// Offered busy fraction of the busiest channel and per class, when the loads are known.
    pub loads: Option<(f64, Vec<f64>)>,
    /// Mean offered busy fraction over every channel, when the loads are not known.
    pub offered_mean: Option<f64>,
    /// Longest route plus message length.
    pub unloaded_worst: u64,
    /// A saturated run's window, when its budgets shortened it.
    pub short_window: Option<u64>,
    /// Cycles the run is expected to simulate (an estimate).
    pub cycles: f64,
    /// Hop events it is expected to simulate: what its time is proportional to (an estimate).
    pub hop_events: f64,
}

/// A built spec: everything a run needs that does not depend on the rate, size or run control.
pub struct Experiment {
    spec: SimSpec,
    notes: Vec<String>,
    topology: Topology,
    facts: RouteFacts,
    pattern: Pattern,
    subcube: Option<LocalitySubcube>,
}

/// Default warm-up: ten unloaded worst-case latencies (longest route + B), stretched by
/// 1/(1 − ρ) below saturation so queues have time to fill, at least 1,000 and at most 100,000
/// cycles. A saturated network's queues never settle: its warm-up is forty such latencies (at
/// least 100 cycles), long enough for the bottlenecks to fill, short enough that the backlog
/// growing meanwhile stays small. Never more than a
/// tenth of the cycle limit, so a short run still measures.
pub fn default_warmup(longest: u64, size: u32, offered_max: Option<f64>, max_cycles: u64) -> u64 {
    let base = 10.0 * (longest as f64 + size as f64);
    let (stretch, min) = match offered_max {
        Some(rho) if rho < 1.0 => (1.0 / (1.0 - rho), 1_000),
        Some(_) => (4.0, 100),
        None => (2.0, 1_000),
    };
    ((base * stretch).min(1e12) as u64).clamp(min, 100_000).min(max_cycles / 10)
}

/// Hop events a saturated run spends on measuring its accepted throughput, at most (about
/// ten seconds of simulation): its verdict is known before its first cycle.
pub const SATURATED_WORK: f64 = 5e8;

/// The most messages a run keeps in flight: 16 per terminal, between 2^18 and 2^23 (at
/// about 64 bytes each, 16 MiB to half a gigabyte).
pub fn in_flight_limit(terminals: u32) -> u64 {
    (16 * terminals as u64).clamp(1 << 18, 1 << 23)
}

impl Experiment {
    /// Validates `spec` and builds its network, routing and pattern.
    pub fn new(spec: &SimSpec) -> Result<Self, SimError> {
        let (spec, notes) = spec.resolve()?;
        if spec.model.is_some()
            && let Some(why) = model_unavailable(&spec.topology)
        {
            return Err(SimError::Invalid(format!("--model: {why}")));
        }
        let topology = spec.topology.shape(&spec.routing)?.build()?;
        let net = topology.network();
        let (pattern, subcube) = match (spec.workload.pattern, &topology) {
            (PatternKind::Locality, Topology::Cube(cube)) => {
                let l = spec.workload.locality.unwrap_or(1.0);
                (Pattern::CubeLocality(CubeLocality::new(cube, l)), Some(subcube(&cube.spec().radices, l)))
            }
            _ => (Pattern::Uniform(net.terminals()), None),
        };
        let facts = facts(&topology, subcube.as_ref())?;
        Ok(Experiment { spec, notes, topology, facts, pattern, subcube })
    }

    /// What resolving the spec adjusted (e.g. N rounded up to a whole dimension).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The resolved spec it was built from.
    pub fn spec(&self) -> &SimSpec {
        &self.spec
    }

    /// The built network.
    pub fn network(&self) -> &Network {
        self.topology.network()
    }

    /// Runs `point`, which must build the same network as this experiment (same topology,
    /// routing and pattern); everything else may differ.
    pub fn run(&self, point: &SimSpec) -> Result<SimResult, SimError> {
        self.run_with(point, Record::default())
    }

    /// What running `point` will do, decided before its first cycle: its resolved spec (the
    /// warm-up filled in), the stop rule, the offered loads, and an estimate of its work.
    pub fn plan(&self, point: &SimSpec) -> Result<Plan, SimError> {
        let (mut point, _) = point.resolve()?;
        if point.build_key() != self.spec.build_key() {
            return Err(SimError::Invalid(
                "this point's topology, routing or destination pattern differs from the experiment's".into(),
            ));
        }
        let net = self.topology.network();
        if let Some(p) = point.router.vc_params() {
            let widest = net.channels().iter().map(|c| c.width as u32).max().unwrap_or(1);
            if widest > 1 || net.terminal_width() > 1 {
                return Err(SimError::Invalid(format!(
                    "router.kind = vc: the {} has channels {} flits wide, and the virtual-channel router models unit-width channels (one flit per cycle per port); use --router ideal, which models wider channels",
                    net.name(),
                    widest.max(net.terminal_width())
                )));
            }
            if let Some(why) = engine::vc::too_large(net, &p) {
                return Err(SimError::Invalid(why));
            }
        }
        let w = &point.workload;
        let classes = net.classes();
        let loads = self.facts.loads.as_ref().map(|g| offered(g, classes.len(), w.rate, w.size));
        let offered_max = loads.as_ref().map(|l| l.0);
        // Without the loads, the mean over every channel still bounds the busiest one from
        // below: a message of h hops holds h channels for at least ⌈B / widest⌉ cycles each.
        let offered_mean = match (&loads, net.channels().iter().map(|c| c.width as u64).max()) {
            (None, Some(widest)) => {
                let hold = (w.size as u64).div_ceil(widest) as f64;
                let channels = net.channels().len() as f64;
                Some(w.rate * net.terminals() as f64 * self.facts.mean_hops * hold / channels)
            }
            _ => None,
        };
        // A mean over every channel of one or more is as saturated as a busiest channel of one
        // or more; a mean below one says nothing about the busiest channel.
        let known_load = offered_max.or(offered_mean.filter(|&m| saturates(m)));
        let saturated = known_load.is_some_and(saturates);
        let limit = in_flight_limit(net.terminals());
        // A saturated run's answer is known before its first cycle; it only measures the
        // accepted throughput, within two budgets: the cycles until its backlog could reach the
        // in-flight limit were nothing delivered, and SATURATED_WORK hop events. Its warm-up
        // takes at most a third of them, its window the rest.
        let creations = w.rate * net.terminals() as f64;
        let per_cycle = creations * (self.facts.mean_hops + 1.0);
        let budget = (limit as f64 / creations).min(SATURATED_WORK / per_cycle).min(1e15) as u64;
        let warmup = point.run.warmup.unwrap_or_else(|| {
            let w = default_warmup(self.facts.longest, w.size, known_load, point.run.max_cycles);
            if saturated { w.min(budget / 3) } else { w }
        });
        point.run.warmup = Some(warmup);
        let (w, r) = (&point.workload, &point.run);
        let unloaded_worst = self.facts.longest + w.size as u64;
        let full_window = (20 * unloaded_worst).max(2_000);
        let window = full_window.min((budget * 2 / 3).max(1));
        let deadline = warmup.saturating_add((budget * 2 / 3).max(window));
        let stop = StopRule {
            saturated,
            window,
            deliveries: r.messages.min(10_000),
            deadline,
            in_flight_limit: limit,
        };
        // Cycles: the warm-up, the time to create the measured messages, a few latencies to
        // drain them; a saturated run stops at its deadline; nothing runs past the limit.
        let cycles = if saturated {
            deadline as f64
        } else {
            warmup as f64 + r.messages as f64 / creations + 4.0 * unloaded_worst as f64
        }
        .min(r.max_cycles as f64);
        Ok(Plan {
            spec: point.clone(),
            stop,
            loads,
            offered_mean,
            unloaded_worst,
            short_window: (saturated && window < full_window).then_some(window),
            cycles,
            hop_events: cycles * per_cycle,
        })
    }

    /// [`Experiment::run`], keeping what `record` asks for in the outcome (per-message and
    /// per-channel data: for tests and detailed output).
    pub fn run_with(&self, point: &SimSpec, record: Record) -> Result<SimResult, SimError> {
        let Plan { spec: mut point, stop, loads, offered_mean, unloaded_worst, short_window, .. } =
            self.plan(point)?;
        let point = &mut point;
        let net = self.topology.network();
        let classes = net.classes();
        let offered_max = loads.as_ref().map(|l| l.0);
        let (w, r) = (&point.workload, &point.run);
        let limit = stop.in_flight_limit;
        let run = RunSpec {
            arrivals: Arrivals::Bernoulli(w.rate),
            size: w.size,
            warmup: r.warmup.unwrap_or(0),
            messages: r.messages,
            max_cycles: r.max_cycles,
            seed: r.seed,
            stop,
            record,
        };
        let model = match point.router.vc_params() {
            Some(p) => RouterModel::Vc(p),
            None => RouterModel::Ideal(r.engine),
        };
        let outcome = execute(&self.topology, &self.pattern, &run, model);
        let ctx = Context {
            offered_max,
            offered_mean,
            terminals: net.terminals(),
            rate: w.rate,
            unloaded_worst,
            max_cycles: r.max_cycles,
            in_flight_limit: limit,
            short_window,
            finite_buffers: point.router.vc_params().is_some(),
        };
        let report = summarize(&outcome, classes, loads.as_ref().map(|l| l.1.as_slice()), &ctx);
        let effective_locality = self.subcube.as_ref().map_or(1.0, |s| s.effective_locality);
        let model = match &point.model {
            Some(_) => Some(compare(point, effective_locality, &report)?),
            None => None,
        };
        Ok(SimResult {
            netwrap_version: VERSION,
            seed: point.run.seed,
            config: point.clone(),
            network: NetworkInfo {
                name: net.name().to_string(),
                nodes: net.terminals(),
                routers: net.routers(),
                channels: net.channels().len() as u64,
            },
            locality: self.subcube.clone(),
            expected_mean_hops: self.facts.mean_hops,
            offered_utilization: offered_max,
            max_rate: offered_max.map(|m| if m > 0.0 { (w.rate / m).min(1.0) } else { 1.0 }),
            load_method: self.facts.load_method.clone(),
            report,
            model,
            outcome,
        })
    }
}

/// Builds `spec` and runs it.
pub fn simulate(spec: &SimSpec) -> Result<SimResult, SimError> {
    Experiment::new(spec)?.run(spec)
}

/// Which router model runs a network, with its engine's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouterModel {
    /// The ideal switch, on the fast or the reference engine.
    Ideal(EngineKind),
    /// The virtual-channel router.
    Vc(VcParams),
}

impl From<EngineKind> for RouterModel {
    fn from(e: EngineKind) -> Self {
        RouterModel::Ideal(e)
    }
}

/// Runs one engine on a built topology under `pattern`: the single place the engine is chosen
/// and the routing type made concrete.
pub fn execute(
    topology: &Topology,
    pattern: &Pattern,
    spec: &RunSpec,
    model: impl Into<RouterModel>,
) -> Outcome {
    struct Run<'a> {
        pattern: &'a Pattern,
        spec: &'a RunSpec,
        model: RouterModel,
    }
    impl Visitor for Run<'_> {
        type Output = Outcome;
        fn visit<F: Family>(self, f: &F) -> Outcome {
            execute_on(f.network(), f, self.pattern, self.spec, self.model)
        }
    }
    topology.visit(Run { pattern, spec, model: model.into() })
}

/// Runs one engine on any network and routing (exact tests use hand-made networks). The
/// virtual-channel router needs unit-width channels and buffers that fit
/// [`engine::vc::too_large`] ([`Experiment::new`] checks both).
pub fn execute_on<R: Routing>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    model: impl Into<RouterModel>,
) -> Outcome {
    match model.into() {
        RouterModel::Ideal(EngineKind::Fast) => engine::ideal::run(net, routing, pattern, spec),
        RouterModel::Ideal(EngineKind::Reference) => engine::reference::run(net, routing, pattern, spec),
        RouterModel::Vc(p) => engine::vc::run(net, routing, pattern, spec, &p),
    }
}
