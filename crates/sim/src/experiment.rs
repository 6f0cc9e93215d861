//! [`Experiment`]: a spec validated once and built — topology, routing, destination pattern,
//! the routes' facts and exact channel loads — ready to run any number of points that share
//! those (a sweep over rates, sizes, seeds or run control builds the network once).

use crate::report::{Context, summarize};
use crate::resolved::error;
use crate::result::{NetworkInfo, SimResult};
use crate::routes::{RouteFacts, facts, offered, saturates};
use crate::spec::{Avoidance, EngineKind, Mapping, PatternKind, ReplyNetwork, SelfTraffic, SimSpec};
use crate::{Destinations, Resolved, Router, SimError, Source, Warmup};
use netwrap_engine::Memories;
use netwrap_engine::traffic::{self, CubeLocality, GroupShift, Hotspot, LocalitySubcube, Pattern, subcube};
use netwrap_engine::{self as engine, Arrivals, Outcome, Record, RunSpec, StopRule};
use netwrap_topo::metrics::offers_choice;
use netwrap_topo::{
    Family, FileGraph, Legs, Network, PathChoice, Routing, Shape, TableRouted, TerminalId, Topology, Visitor,
};

/// What a run will do, decided before its first cycle ([`Experiment::plan`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The point as it runs: its warm-up filled in, its replies' network decided.
    pub point: Resolved,
    /// When the run stops early.
    pub stop: StopRule,
    /// Offered busy fraction of the busiest channel and per class, when the loads are known
    /// (the busiest channel's is no bound under adaptive routing: `bound`).
    pub loads: Option<(f64, Vec<f64>)>,
    /// Whether the busiest channel's load bounds the run: the routing leaves no choice to
    /// queue state.
    pub bound: bool,
    /// Mean offered busy fraction over every channel, when the loads are not known.
    pub offered_mean: Option<f64>,
    /// How the loads were obtained, or why they are not known (or no bound).
    pub load_method: String,
    /// Longest route plus message length.
    pub unloaded_worst: u64,
    /// A saturated run's window, when its budgets shortened it.
    pub short_window: Option<u64>,
    /// Cycles the run is expected to simulate (an estimate).
    pub cycles: f64,
    /// Hop events it is expected to simulate (an estimate; see [`hop_events`]).
    pub hop_events: f64,
    /// Seconds it is expected to take on one core: `hop_events` at the measured cost of one
    /// on a network of its size, family and router ([`seconds_per_hop_event`], [`CCC_FACTOR`],
    /// [`VC_FACTOR`], [`REFERENCE_FACTOR`]), within a factor of about two.
    pub seconds: f64,
    /// The routers of the network it runs on ([`Plan::threads`]).
    pub routers: u32,
    /// Whether the run can be cut into shards: not under UGAL-global, on the reference
    /// engine, or on the VC router where terminals are not in router order.
    pub shardable: bool,
}

impl Plan {
    /// The threads the run takes with `jobs` ([`engine::Jobs::working`]).
    pub fn threads(&self, jobs: engine::Jobs) -> usize {
        jobs.working(self.routers, self.shardable)
    }
}

/// Hop events (a message crossing a channel, or leaving the network: `per_message` =
/// mean hops + 1 each) of a run of `cycles` cycles creating `creations` messages a cycle. A
/// message makes at most one a cycle, so one created c cycles before the end has made at most
/// c: a run shorter than a route (a saturated run stopped after its first cycles, as on a
/// 2^24-node ring) makes about `creations × cycles² / 2`, not `creations × cycles ×
/// per_message`.
pub fn hop_events(cycles: f64, creations: f64, per_message: f64) -> f64 {
    creations
        * if cycles >= per_message {
            per_message * (cycles - per_message / 2.0)
        } else {
            cycles * cycles / 2.0
        }
}

/// Seconds the fast engine takes per hop event on a network of `channels` channels, measured
/// with `netwrap sim … --messages 200000` (release build, one core of a shared 2-core x86-64
/// machine; user time less that of the same run with `--max-cycles 1`, over the hop events the
/// plan counts). The cost is set by memory more than by the family: a hop touches its message,
/// its channel and the event calendar at random, so it costs a few cache misses once the
/// channels outgrow the caches. Measured: 54 ns on a bidirectional 16×16 torus at load 0.1
/// (1024 channels), 148 ns on CCC(9) at 0.1 (1.4·10^4: its routing costs more), 78 ns on a
/// 12-cube at rate 0.04 (4.9·10^4), 120 ns on a 65536-node Midimew at 0.1 (2.6·10^5), 220 ns on
/// a 16-cube at 0.04 (10^6), 300 ns on CCC(17) at 0.04 (6.7·10^6: 48 s for its 94 saturated
/// cycles, which the old announcement at "20–100 million hop events a second" put at 2–9 s;
/// as saturated, fewer hop events than the plan counts).
/// The curve below, linear in log(channels) between its points, is within a factor of two of
/// each.
pub fn seconds_per_hop_event(channels: usize) -> f64 {
    // (log10 channels, nanoseconds per hop event)
    const CURVE: [(f64, f64); 4] = [(3.0, 50.0), (4.7, 100.0), (6.0, 220.0), (6.8, 300.0)];
    let x = (channels.max(1) as f64).log10();
    let ns = match CURVE.iter().position(|&(at, _)| x < at) {
        Some(0) => CURVE[0].1,
        Some(i) => {
            let ((x0, y0), (x1, y1)) = (CURVE[i - 1], CURVE[i]);
            y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        }
        None => CURVE[CURVE.len() - 1].1,
    };
    ns * 1e-9
}

/// Seconds a network of this size takes to set up before its first cycle: its routes'
/// distances and exact channel loads, worked out for every router (a breadth-first search of a
/// Midimew's distances, a CCC's routes pair by pair), and the memory they fill. Measured with
/// `netwrap sim … --max-cycles 1` (wall time, optimised build, a shared and loaded 2-core
/// x86-64 machine; page faults are a good part of it): 14.7 s for a Midimew of 2^24 nodes, 11.8
/// s for the 4096×4096 torus, 4.6 s for a ring of 2^24, 2.4 s for a 21-cube (2^21 routers),
/// 1.4 s for a Midimew of 2^22 and 0.3 s of 2^20: about a quarter of a microsecond per channel
/// a router has, counting at most four (the 21-cube's loads cost no more than a Midimew's). CCC(n)
/// costs about 9 µs a router at n = 16 and 17 (9.1 s and 21 s), 5 at n = 15 (2.6 s): its loads
/// follow every route. Within a factor of two of each.
pub fn setup_seconds(topology: &Topology) -> f64 {
    let net = topology.network();
    let routers = f64::from(net.routers().max(1));
    let per_router = match topology {
        Topology::Ccc(_) => 9e-6,
        _ => 0.25e-6 * (net.channels().len() as f64 / routers).min(4.0),
    };
    routers * per_router
}

/// How many times the curve's cost per hop event the cube-connected cycles take: their
/// routing works out each hop from the cycle position and the dimensions left (148 ns at load
/// 0.1 on CCC(9), 404 ns on CCC(13), 1.8 and 2.7 times the curve).
pub const CCC_FACTOR: f64 = 2.0;

/// How many times the fast engine's cost per hop event the virtual-channel router takes (it
/// moves every flit through its routers' stages each cycle): 0.60 s against 0.08 s for 300 000
/// messages on a bidirectional 16×16 torus at load 0.1 (7.5 times), 13.2 s against 0.72 s on
/// `netwrap bench`'s 256×256 rows (18 times: the VC router's state outgrows the caches).
pub const VC_FACTOR: f64 = 9.0;

/// How many times the fast engine's cost per hop event the flit-by-flit reference takes: 0.76
/// s against 0.15 s on the same run.
pub const REFERENCE_FACTOR: f64 = 5.0;

/// A built spec: everything a run needs that does not depend on the rate, size or run control.
pub struct Experiment {
    /// The point it was built from, its replies' network decided.
    spec: Resolved,
    topology: Topology,
    facts: RouteFacts,
    pattern: Pattern,
    subcube: Option<LocalitySubcube>,
    /// With replies on a separate network: the request and reply networks as one, routed by
    /// a table of minimal next hops.
    joined: Option<TableRouted>,
    /// The replayed trace, validated against the network.
    trace: Option<crate::trace::TraceSummary>,
    /// A graph file, parsed (for its channels' latencies).
    graph: Option<Box<FileGraph>>,
    /// Whether the routing offers a message several next hops, which the engines choose among
    /// by queue state: the family's routing, and every minimal next hop (escape routing's
    /// adaptive channels). The loads of an even split over them are then no bound.
    choice: Choice,
    /// The turn flows ([`Experiment::turn_flows`]), computed the first time they are asked
    /// for and kept: every point of a sweep that shares the network shares them.
    turns: std::sync::OnceLock<Result<Result<crate::routes::TurnFlows, String>, SimError>>,
}

/// Where the routing in use leaves the engines a choice of next hop ([`Experiment`]).
#[derive(Clone, Copy, Debug)]
struct Choice {
    routing: bool,
    minimal: bool,
}

/// Default warm-up: ten unloaded worst-case latencies (`longest`, the longest route's
/// unloaded latency less B, + B), stretched by
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

/// The most threads (processors × threads per processor) a run keeps: 2^26, about 1 GiB of
/// thread and access state at most.
pub const MAX_THREAD_SLOTS: u64 = 1 << 26;

/// The most messages a run keeps in flight: 16 per terminal, between 2^18 and 2^23 (at
/// about 64 bytes each, 16 MiB to half a gigabyte).
pub fn in_flight_limit(terminals: u32) -> u64 {
    (16 * terminals as u64).clamp(1 << 18, 1 << 23)
}

/// Times a run's warm-up may grow for the steady-state test (each at least doubling it).
pub const WARMUP_EXTENSIONS: u32 = 6;

/// The longer warm-up a run found not steady ([`Verdict::NotSteady`]) runs again with: past
/// the transient's end with a fifth to spare (the run's end when it found none), and at least
/// twice the last; `None` when it may not grow: after [`WARMUP_EXTENSIONS`] times, when the
/// run with it would not fit in the cycle limit or in `budget` cycles with the `spent` ones
/// of the runs before, or when the run records its messages as a trace (which a second run
/// would write twice).
fn longer_warmup(
    report: &crate::report::Report,
    run: &RunSpec,
    extensions: u32,
    spent: u64,
    budget: u64,
) -> Option<u64> {
    if report.verdict != crate::report::Verdict::NotSteady
        || run.record.trace.is_some()
        || extensions >= WARMUP_EXTENSIONS
    {
        return None;
    }
    let transient = report.steady_state.and_then(|s| s.transient_end).unwrap_or(report.cycles);
    let next = (transient.saturating_mul(6) / 5).max(run.warmup.saturating_mul(2)).max(run.warmup + 1);
    let cycles = next.saturating_add(report.cycles.saturating_sub(run.warmup));
    (cycles <= run.max_cycles && spent.saturating_add(cycles) <= budget).then_some(next)
}

impl Experiment {
    /// Builds `point`'s network, routing and destination pattern, and checks `point` against
    /// them ([`Experiment::admit`]): every check that needs the network happens here, before
    /// anything runs.
    pub fn build(point: &Resolved) -> Result<Self, SimError> {
        let experiment = Self::build_shared(point, &|_| {})?;
        experiment.admit(point)?;
        Ok(experiment)
    }

    /// Builds what `point`'s [`crate::BuildKey`] decides, checking only that: an experiment
    /// for every point that shares the key, each checked by [`Experiment::admit`] when it is
    /// planned. Once the topology is built, `setting_up` is told the seconds the rest of the
    /// setup is estimated to take ([`setup_seconds`]), so a slow one can be announced.
    pub fn build_shared(point: &Resolved, setting_up: &dyn Fn(f64)) -> Result<Self, SimError> {
        let mut spec = point.clone();
        let shape = spec.shape()?;
        // A graph file's latencies, checked against each point's router.
        let graph = match &shape {
            Shape::Graph(g) => Some(g.clone()),
            Shape::UpDown { of } => match of.as_ref() {
                Shape::Graph(g) => Some(g.clone()),
                _ => None,
            },
            _ => None,
        };
        let topology = shape.build()?;
        setting_up(setup_seconds(&topology));
        let (pattern, subcube) = build_pattern(&spec, &topology)?;
        let facts = facts(&topology, &pattern, subcube.as_ref(), spec.routing.paths())?;
        let joined = match &mut spec.workload.reply {
            Some(reply) => {
                reply.network = reply_network(reply.network, topology.network())?;
                let separate = reply.network == ReplyNetwork::Separate && reply.size != 0;
                separate.then(|| joined_network(topology.network())).transpose()?
            }
            None => None,
        };
        // Every error in a trace comes before any simulation.
        let trace = match &spec.workload.source {
            Source::Trace(t) => Some(crate::trace::validate_input(t, &topology, spec.run.seed)?),
            _ => None,
        };
        struct Probe(Vec<(u32, u32)>);
        impl Visitor for Probe {
            type Output = Choice;
            fn visit<F: Family>(self, f: &F) -> Choice {
                let net = f.network();
                Choice {
                    routing: offers_choice(net, self.0.iter().copied(), |at, t, salt, c| {
                        f.route(at, t, salt, c)
                    }),
                    minimal: offers_choice(net, self.0.iter().copied(), |at, t, salt, c| {
                        f.minimal(at, t, salt, c)
                    }),
                }
            }
        }
        let choice = topology.visit(Probe(sample_pairs(&pattern, topology.network().terminals())));
        Ok(Experiment {
            spec,
            topology,
            facts,
            pattern,
            subcube,
            joined,
            trace,
            graph,
            choice,
            turns: std::sync::OnceLock::new(),
        })
    }

    /// Checks that `point` can run on this experiment: it builds the same network (same
    /// [`crate::BuildKey`]), and what it asks of the network beyond the build (its processors'
    /// threads, its router's buffers and channel widths) fits.
    pub fn admit(&self, point: &Resolved) -> Result<(), SimError> {
        if self.point(point).build_key() != self.spec.build_key() {
            return Err(SimError::Invalid(
                "this point's topology, routing or destination pattern differs from the experiment's".into(),
            ));
        }
        if !point.class_latency.is_empty() {
            let net = self.topology.network();
            if let Some(class) = point.class_latency.keys().find(|c| !net.classes().contains(c)) {
                return Err(error(
                    "router.class-latency",
                    &[],
                    format!(
                        "router.class-latency: the {} has no channel class '{class}'; its classes are {}",
                        net.name(),
                        net.classes().iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            if self.joined.is_some() {
                return Err(error(
                    "router.class-latency",
                    &["workload.reply.network"],
                    "router.class-latency: replies on a separate network take the link latency on every channel; carry them on the same network (workload.reply.network = same)",
                ));
            }
        }
        let net = self.topology.network();
        if let Source::Threads { threads: t, .. } = point.workload.source {
            let slots = t as u64 * net.terminals() as u64;
            if slots > MAX_THREAD_SLOTS {
                return Err(error(
                    "workload.processor.threads",
                    &[],
                    format!(
                        "workload.processor.threads = {t} on {} processors: {slots} threads, more than the {MAX_THREAD_SLOTS} a run keeps (each may hold an access in flight)",
                        net.terminals()
                    ),
                ));
            }
        }
        if let Some(c) = crate::collective::source(point) {
            self.collective(point, c)?;
        }
        let paths = self.spec.routing.paths();
        if paths.choice != PathChoice::Minimal && self.joined.is_some() {
            return Err(error(
                "routing.algorithm",
                &["workload.reply.network"],
                format!(
                    "routing '{}' on the {}: replies on a separate network are routed by tables of minimal next hops; carry them on the same network (workload.reply.network = same)",
                    self.spec.routing.algorithm.name(),
                    net.name()
                ),
            ));
        }
        let Some(p) = point.router.vc() else { return Ok(()) };
        if p.deadlock == Avoidance::Phases {
            let halves = if point.replies() && self.joined.is_none() { 2 } else { 1 };
            phase_vcs(net, self.topology.groups(), &self.spec.routing, p.vcs, halves)?;
        }
        if p.buffer < p.packet
            && let Some((rt, narrow, wide)) = engine::vc::widening(net)
        {
            return Err(error(
                "router.buffer",
                &["router.packet"],
                format!(
                    "router.buffer = {} is less than router.packet = {}: on the {} a packet leaves router {rt} on a channel {wide} flits wide after coming in on one {narrow} wide, and a router sends a packet onto a wider channel only once it holds all of it (Raghunath & Ranade 1995, §5.3): give buffers of a packet or more",
                    p.buffer,
                    p.packet,
                    net.name()
                ),
            ));
        }
        if let Some(why) = engine::vc::too_large(self.run_network(), p) {
            return Err(error("router.buffer", &["router.vcs"], why));
        }
        if let Some(reply) = &self.spec.workload.reply
            && reply.network == ReplyNetwork::Separate
            && p.deadlock != Avoidance::None
            && reply.size != 0
        {
            let advice = if indirect(net) {
                "use router.deadlock = none"
            } else {
                "use workload.reply.network = same (requests and replies on separate halves of the virtual channels) or router.deadlock = none"
            };
            return Err(error(
                "router.deadlock",
                &["workload.reply.network"],
                format!(
                    "the {} carries its replies on a separate network, and the two are routed by tables of minimal next hops, while router.deadlock = {} needs the family's own routing: {advice}",
                    net.name(),
                    <&str>::from(p.deadlock)
                ),
            ));
        }
        Ok(())
    }

    /// `point`'s collective `c` on this network: placed, checked, and counted.
    fn collective(
        &self,
        point: &Resolved,
        c: &crate::resolved::CollectiveSource,
    ) -> Result<(engine::collective::Collective, engine::collective::Summary), SimError> {
        let size = point.workload.size.max();
        let built = crate::collective::build(c, size, &self.topology, point.run.seed)?;
        let summary = built.summary();
        if summary.messages > crate::MAX_MESSAGES {
            return Err(error(
                "workload.collective.kind",
                &["workload.collective.iterations"],
                format!(
                    "{} on {} ranks sends {} messages, more than the {} a run measures: fewer iterations or ranks",
                    c.kind.name(),
                    built.ranks(),
                    summary.messages,
                    crate::MAX_MESSAGES
                ),
            ));
        }
        Ok((built, summary))
    }

    /// Each channel's latency on the virtual-channel router where they differ (empty: the link
    /// latency everywhere): a class's from `router.class-latency`, else a graph file's own
    /// (when the file gives any other than 1), else the link latency.
    pub fn channel_latency(&self, point: &Resolved) -> Vec<u32> {
        let Some(p) = point.router.vc() else { return Vec::new() };
        let file = self.graph.as_ref().filter(|g| g.latency_other_than(1).is_some());
        if point.class_latency.is_empty() && file.is_none() {
            return Vec::new();
        }
        let net = self.topology.network();
        net.channels()
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let class = &net.classes()[c.class as usize];
                point
                    .class_latency
                    .get(class)
                    .copied()
                    .or_else(|| file.map(|g| g.channels[i].2))
                    .unwrap_or(p.link_latency)
            })
            .collect()
    }

    /// `point` as this experiment runs it: where its replies travel, decided by the network.
    fn point(&self, point: &Resolved) -> Resolved {
        let mut point = point.clone();
        if let (Some(r), Some(mine)) = (&mut point.workload.reply, &self.spec.workload.reply)
            && r.network == ReplyNetwork::Auto
        {
            r.network = mine.network;
        }
        point
    }

    /// The network the engine runs: the topology's, or with a separate reply network the two
    /// joined.
    fn run_network(&self) -> &Network {
        self.joined.as_ref().map_or(self.topology.network(), |j| j.network())
    }

    /// What resolving the spec adjusted (e.g. N rounded up to a whole dimension).
    pub fn notes(&self) -> &[String] {
        &self.spec.notes
    }

    /// The point it was built from, as built (its replies' network decided).
    pub fn spec(&self) -> &Resolved {
        &self.spec
    }

    /// The routes' facts: mean and longest route, and the loads of an even split over the
    /// routing's candidates under the pattern.
    pub fn facts(&self) -> &RouteFacts {
        &self.facts
    }

    /// The turn flows of its routes under its pattern ([`crate::routes::turn_flows`]): every
    /// channel's arrivals split by the input feeding them, per unit request rate; or why they
    /// are not known before a run. A routing that offers several next hops, which the engines
    /// choose among by queue state, is one of those (an even split over them is not the run's)
    /// unless `choice` is [`crate::routes::QueueChoice::Servers`]: the caller then models the
    /// channels offered together ([`crate::routes::TurnFlows::offered`]) as the servers of one
    /// queue. Computed once and kept (the points of a sweep that share this experiment share
    /// them).
    pub fn turn_flows(
        &self,
        choice: crate::routes::QueueChoice,
    ) -> Result<Result<&crate::routes::TurnFlows, &str>, SimError> {
        if self.choice.routing && choice == crate::routes::QueueChoice::Refuse {
            return Ok(Err(
                "the routing offers several next hops, chosen by queue state: how it splits its messages depends on the load",
            ));
        }
        let kept = self.turns.get_or_init(|| {
            crate::routes::turn_flows(&self.topology, &self.pattern, self.spec.routing.paths())
        });
        match kept {
            Ok(flows) => Ok(flows.as_ref().map_err(String::as_str)),
            Err(e) => Err(e.clone()),
        }
    }

    /// Every flow of its pattern walked turn by turn into `sink` as its turn flows are
    /// ([`crate::routes::walk_flows`]: each flow announced to the sink first), with the
    /// messages a cycle sent in all, per unit request rate; or why not (as
    /// [`Experiment::turn_flows`] refuses, but for next hops chosen by queue state: the caller
    /// has taken those already). Walked anew each call.
    pub fn walk_flows<S: netwrap_topo::metrics::FlowSink>(
        &self,
        sink: S,
    ) -> Result<Result<(S, f64), String>, SimError> {
        crate::routes::walk_flows(&self.topology, &self.pattern, self.spec.routing.paths(), sink)
    }

    /// Whether the routing offers several next hops somewhere, which the engines choose among
    /// by queue state (adaptive routing).
    pub fn offers_queue_choice(&self) -> bool {
        self.choice.routing
    }

    /// The built network.
    pub fn network(&self) -> &Network {
        self.topology.network()
    }

    /// Runs `point`, which must share this experiment's [`crate::BuildKey`] (same topology,
    /// routing and pattern); everything else may differ.
    pub fn run(&self, point: &Resolved) -> Result<SimResult, SimError> {
        self.run_with(point, Record::default())
    }

    /// What running `point` will do, decided before its first cycle: the point as it runs
    /// (the warm-up filled in), the stop rule, the offered loads, and an estimate of its work.
    pub fn plan(&self, point: &Resolved) -> Result<Plan, SimError> {
        self.admit(point)?;
        let mut point = self.point(point);
        let net = self.topology.network();
        let w = &point.workload;
        let (rate, size) = (point.rate(), w.size);
        let classes = net.classes();
        // Replies add load the request pattern's loads do not hold: the run's own measurements
        // judge it. Processors that wait never offer more than the network accepts.
        // (Nor does a trace offer what the rate says.)
        let trace = matches!(w.source, Source::Trace(_) | Source::Collective(_));
        let closed = point.closed_loop() || trace;
        let replies = point.replies();
        // The loads split each message evenly over the routing's candidates: the run's own
        // split only when the routing leaves no choice to queue state (escape routing chooses
        // among every minimal next hop).
        let escape = point.router.vc().is_some_and(|p| p.deadlock == Avoidance::Escape);
        let adaptive = if escape { self.choice.minimal } else { self.choice.routing };
        let loads = self
            .facts
            .loads
            .as_ref()
            .filter(|_| !closed && !replies)
            .map(|g| offered(g, classes.len(), rate, &size));
        // An adaptive routing's class means stay (its minimal routes cross the same channels
        // of each class whichever hop it takes), its busiest channel is no bound.
        let bound = loads.is_some() && !adaptive;
        let load_method = if self.facts.loads.is_some() && adaptive {
            format!(
                "class means {}; no busiest-channel bound: the routing offers several next hops, chosen by queue state, so the verdict rests on measurement",
                self.facts.load_method
            )
        } else {
            self.facts.load_method.clone()
        };
        let offered_max = loads.as_ref().map(|l| l.0).filter(|_| bound);
        // Without the busiest channel's load, the mean over every channel still bounds it from
        // below: a message of h hops holds h channels for at least ⌈B / widest⌉ cycles each.
        let offered_mean = match (bound, net.channels().iter().map(|c| c.width as u64).max()) {
            (false, Some(widest)) if !closed => {
                let hold = size.mean_hold(widest);
                let channels = net.channels().len() as f64;
                let senders = self.pattern.senders().unwrap_or(net.terminals());
                Some(rate * senders as f64 * self.facts.mean_hops * hold / channels)
            }
            _ => None,
        };
        // A mean over every channel of one or more is as saturated as a busiest channel of one
        // or more; a mean below one says nothing about the busiest channel.
        let known_load = offered_max.or(offered_mean.filter(|&m| saturates(m))).filter(|_| !closed);
        let saturated = known_load.is_some_and(saturates);
        let limit = in_flight_limit(net.terminals());
        // A saturated run's answer is known before its first cycle; it only measures the
        // accepted throughput, within two budgets: the cycles until its backlog could reach the
        // in-flight limit were nothing delivered, and SATURATED_WORK hop events. Its warm-up
        // takes at most a third of them, its window the rest.
        let creations = rate * net.terminals() as f64;
        let per_cycle = creations * (self.facts.mean_hops + 1.0);
        let budget = (limit as f64 / creations).min(SATURATED_WORK / per_cycle).min(1e15) as u64;
        let r = point.run;
        // The longest route's unloaded latency less B: h cycles on the ideal switch; on the VC
        // router h channels of the slowest latency (per-class latencies included) and h + 1
        // routers' pipelines and headers' stages, plus the terminals' channels.
        let slowest = self.channel_latency(&point).iter().copied().max();
        let h = self.facts.longest;
        let longest = match point.router.vc() {
            Some(p) => {
                let link = slowest.unwrap_or(p.link_latency) as u64;
                let router = (p.router_delay + p.header_extra()) as u64;
                let terminals = (p.injection_latency + p.ejection_latency) as u64;
                h.saturating_mul(link)
                    .saturating_add((h + 1).saturating_mul(router))
                    .saturating_add(terminals)
            }
            None => h,
        };
        let warmup = match r.warmup {
            Warmup::Cycles(w) => w,
            Warmup::Default => {
                let w = default_warmup(longest, size.max(), known_load, r.max_cycles);
                if saturated { w.min(budget / 3) } else { w }
            }
        };
        point.run.warmup = Warmup::Cycles(warmup);
        let unloaded_worst = longest + size.max() as u64;
        let full_window = (20 * unloaded_worst).max(2_000);
        let window = full_window.min((budget * 2 / 3).max(1));
        let deadline = warmup.saturating_add((budget * 2 / 3).max(window));
        let stop = StopRule {
            saturated,
            window,
            deliveries: r.messages.min(10_000),
            deadline,
            in_flight_limit: limit,
            // Where the run's own measurements judge it (no busiest-channel bound, or finite
            // buffers that may saturate below it), a run measured falling behind stops there.
            watch: !saturated && !closed && (offered_max.is_none() || point.router.vc().is_some()),
        };
        // Cycles: the warm-up, the time to create the measured messages, a few latencies to
        // drain them; a saturated run stops at its deadline; nothing runs past the limit.
        let cycles = if saturated {
            deadline as f64
        } else {
            warmup as f64 + r.messages as f64 / creations + 4.0 * unloaded_worst as f64
        }
        .min(r.max_cycles as f64);
        let events = hop_events(cycles, creations, self.facts.mean_hops + 1.0);
        let engine_factor = match point.router {
            Router::Vc(_) => VC_FACTOR,
            Router::Ideal(EngineKind::Reference) => REFERENCE_FACTOR,
            Router::Ideal(EngineKind::Fast) => 1.0,
        };
        let family_factor = if matches!(self.topology, Topology::Ccc(_)) { CCC_FACTOR } else { 1.0 };
        let run_net = self.run_network();
        let choice = point.routing.paths().choice;
        let shardable = match point.router {
            Router::Vc(_) => engine::shardable(run_net, choice, true),
            Router::Ideal(EngineKind::Fast) => engine::shardable(run_net, choice, false),
            Router::Ideal(EngineKind::Reference) => false,
        };
        Ok(Plan {
            point,
            stop,
            loads,
            bound,
            offered_mean,
            load_method,
            unloaded_worst,
            short_window: (saturated && window < full_window).then_some(window),
            cycles,
            hop_events: events,
            seconds: events * seconds_per_hop_event(net.channels().len()) * engine_factor * family_factor,
            routers: run_net.routers(),
            shardable,
        })
    }

    /// [`Experiment::run`], keeping what `record` asks for in the outcome (per-message and
    /// per-channel data: for tests and detailed output).
    pub fn run_with(&self, point: &Resolved, record: Record) -> Result<SimResult, SimError> {
        let Plan {
            mut point,
            stop,
            loads,
            bound,
            offered_mean,
            load_method,
            unloaded_worst,
            short_window,
            ..
        } = self.plan(point)?;
        let net = self.run_network();
        let nodes = self.topology.network().terminals();
        let offered_max = loads.as_ref().map(|l| l.0).filter(|_| bound);
        let (w, r) = (&point.workload, &point.run);
        let limit = stop.in_flight_limit;
        let rate = point.rate();
        let replay = match (&w.source, self.trace) {
            (Source::Trace(t), Some(summary)) => {
                let placement = match t.format.ranked() {
                    true => crate::collective::trace_placement(t, summary.ranks, &self.topology, r.seed)?,
                    false => Vec::new(),
                };
                Some(crate::trace::TraceReplay::of(t, nodes, summary, placement))
            }
            _ => None,
        };
        let collective = match &w.source {
            Source::Collective(c) => Some(self.collective(&point, c)?),
            _ => None,
        };
        let arrivals = match (&w.source, &replay) {
            (_, Some(replay)) => Arrivals::Trace(replay.source()),
            (Source::Collective(_), _) => Arrivals::Collective(
                collective
                    .as_ref()
                    .map(|c| c.0.clone())
                    .ok_or_else(|| SimError::Invalid("a collective's point was not built as one".into()))?,
            ),
            (Source::Threads { rate, interval, threads }, _) => {
                Arrivals::Threads { rate: *rate, interval: *interval, threads: *threads }
            }
            (Source::Open { rate, interval, on_off }, _) => {
                // A saturation search's probe may ask a rate the source cannot offer.
                if let Some(o) = on_off {
                    o.at(*rate).map_err(|why| {
                        SimError::Spec(crate::SpecError::new(
                            "workload.processor.interval",
                            &["workload.rate"],
                            format!("workload.processor.interval = on-off: {why}"),
                        ))
                    })?;
                }
                Arrivals::Open { rate: *rate, interval: *interval, on_off: *on_off }
            }
            (Source::Trace(_), None) => unreachable!("an experiment with a trace validated it"),
        };
        let memories = w.reply.map(|reply| Memories {
            latency: reply.memory_latency as u64,
            reply_size: reply.size,
            joined: self.joined.is_some(),
        });
        let Warmup::Cycles(warmup) = r.warmup else { unreachable!("a plan fills the warm-up in") };
        let mut run = RunSpec {
            arrivals,
            size: w.size,
            memories,
            warmup,
            // A trace holds no more messages than its records (replies aside).
            messages: match (&replay, w.reply, self.trace, &collective) {
                (_, _, _, Some((_, summary))) => summary.messages.max(1),
                // A netrace trace or a dump replays to its end unless asked for fewer.
                (Some(p), None, Some(t), _) if p.input.as_ref().is_some_and(|i| i.format.ranked()) => {
                    p.input.as_ref().and_then(|i| i.messages).unwrap_or(t.records).min(t.records).max(1)
                }
                (Some(_), None, Some(t), _) => r.messages.min(t.records.max(1)),
                _ => r.messages,
            },
            max_cycles: r.max_cycles,
            seed: r.seed,
            stop,
            record,
            paths: self.spec.routing.paths(),
            groups: self.topology.groups(),
            channel_latency: self.channel_latency(&point),
        };
        let ctx = Context {
            offered_max,
            offered_mean,
            terminals: nodes,
            rate,
            unloaded_worst,
            max_cycles: r.max_cycles,
            in_flight_limit: limit,
            short_window,
            finite_buffers: point.router.vc().is_some(),
            closed_loop: point.closed_loop(),
            nonminimal_paths: point.routing.paths().choice != PathChoice::Minimal,
            steady_test: replay.is_none() && collective.is_none(),
            collective: collective.as_ref().map(|(c, summary)| (c.kind.name(), summary.messages)),
            trace_last_cycle: self.trace.map(|t| t.last_cycle),
            relaxation: offered_max.filter(|&rho| rho < 1.0).map(|rho| {
                let widest = net.channels().iter().map(|c| c.width as u64).max().unwrap_or(1);
                w.size.mean_hold(widest) / (1.0 - rho.sqrt()).powi(2)
            }),
        };
        let expected = loads.as_ref().map(|l| l.1.as_slice());
        // A run that ends before its transient runs again, the same but for a longer warm-up
        // (the same seed: identical up to the old end), until the steady-state test passes or
        // the cycle limit leaves no room ([`longer_warmup`]).
        let planned = warmup;
        let mut extensions = 0;
        // The runs again may cost four times the first run, plus twenty unloaded crossings
        // of the network (a run shorter than its fill time may need that much).
        let (mut spent, mut budget) = (0u64, 0u64);
        let (outcome, mut report) = loop {
            let outcome = match &self.joined {
                Some(joined) => execute_on(joined.network(), joined, &self.pattern, &run, point.router),
                None => execute(&self.topology, &self.pattern, &run, point.router),
            };
            if let Some(e) = replay.as_ref().and_then(|r| r.take_error()) {
                return Err(e);
            }
            if outcome.stop == engine::StopReason::Cancelled {
                return Err(SimError::Cancelled);
            }
            let report = summarize(&outcome, net, expected, &ctx);
            if extensions == 0 {
                budget = report.cycles.saturating_mul(5).saturating_add(20 * unloaded_worst);
            }
            spent = spent.saturating_add(report.cycles);
            match longer_warmup(&report, &run, extensions, spent, budget) {
                Some(next) => {
                    extensions += 1;
                    run.stop.deadline = run.stop.deadline.saturating_add(next - run.warmup);
                    run.warmup = next;
                }
                None => break (outcome, report),
            }
        };
        if run.warmup != planned {
            report.warmup_extended_from = Some(planned);
            point.run.warmup = Warmup::Cycles(run.warmup);
        }
        if let (Some((c, summary)), Some(done)) = (&collective, &outcome.completion) {
            let per_hop = match point.router {
                Router::Vc(p) => self.channel_latency(&point).into_iter().min().unwrap_or(p.link_latency),
                Router::Ideal(_) => 1,
            };
            let widest = net.channels().iter().map(|c| c.width).max().unwrap_or(1);
            let channel = crate::collective::channel_bound(c, &self.topology, self.spec.routing.paths())?;
            let critical = crate::collective::critical_path_bound(done, widest.into(), per_hop);
            let bisection = crate::collective::bisection_bound(c, &self.topology);
            let injection = point.router.vc().map(|_| crate::collective::injection_bound(c));
            let bound = [channel, bisection, injection].into_iter().flatten().fold(critical, f64::max);
            let bound =
                crate::collective::Bound { channel, injection, bisection, critical_path: critical, bound };
            report.set_collective(c, summary, done, bound);
        }
        // A netrace trace or a dump: its completion, the cycle its last message was delivered,
        // when every message of it was (joins after the last delivery, a rank's reaching its
        // last receives, do not count).
        if let (Some(p), Some(done)) = (&replay, &outcome.completion)
            && p.input.as_ref().is_some_and(|i| i.format.ranked())
            && done.messages == p.summary.records
            && report.verdict == crate::report::Verdict::Ok
        {
            report.completion = Some(done.completion);
        }
        Ok(SimResult {
            network: NetworkInfo {
                name: net.name().to_string(),
                nodes,
                routers: net.routers(),
                channels: net.channels().len() as u64,
            },
            locality: self.subcube.clone(),
            expected_mean_hops: self.facts.mean_hops,
            expected_mean_hops_exact: self.facts.hops_exact,
            offered_utilization: offered_max,
            max_rate: offered_max.map(|m| if m > 0.0 { (rate / m).min(1.0) } else { 1.0 }),
            load_method,
            report,
            point,
            outcome,
        })
    }

    /// The effective locality of the subcube simulated (1 without locality): what a model
    /// of the network is evaluated at.
    pub fn effective_locality(&self) -> f64 {
        self.subcube.as_ref().map_or(1.0, |s| s.effective_locality)
    }
}

/// Source–destination pairs of `pattern` on `n` terminals, a sample spread over them: every
/// source's destination for a permutation (up to 65,536 sources), up to 16 of the target
/// group's terminals under group shift, and otherwise up to 64 sources to up to 1,024
/// destinations.
fn sample_pairs(pattern: &Pattern, n: u32) -> Vec<(u32, u32)> {
    let spread = |most: u32| (0..n).step_by((n / most).max(1) as usize);
    match pattern {
        // A silent fixed point sends nothing; one sent elsewhere, to the terminal halfway round.
        Pattern::Fixed(table) => spread(65_536)
            .filter_map(|s| match table[s as usize] {
                traffic::SILENT => None,
                traffic::ELSEWHERE => Some((s, (s + n / 2) % n)),
                d => Some((s, d)),
            })
            .collect(),
        Pattern::GroupShift(g) => spread(4096)
            .flat_map(|s| (0..g.size.min(16)).map(move |k| (s, g.target(s) * g.size + k)))
            .collect(),
        _ => spread(64).flat_map(|s| spread(1024).map(move |t| (s, t))).collect(),
    }
}

/// Whether `net` is indirect: some terminal is delivered from another router than it injects
/// at, so its memory has no path back to it on `net`.
fn indirect(net: &Network) -> bool {
    (0..net.terminals()).any(|t| net.inject_router(t) != net.eject_router(t))
}

/// Where replies travel on `net`: `auto` is `same` on a direct network and `separate` on an
/// indirect one (where a terminal is delivered from another router than it injects at, so
/// its memory has no path back to it); `same` on an indirect network is an error.
fn reply_network(asked: ReplyNetwork, net: &Network) -> Result<ReplyNetwork, SimError> {
    let indirect = indirect(net);
    match asked {
        ReplyNetwork::Auto if indirect => Ok(ReplyNetwork::Separate),
        ReplyNetwork::Auto => Ok(ReplyNetwork::Same),
        ReplyNetwork::Same if indirect => Err(error(
            "workload.reply.network",
            &[],
            format!(
                "workload.reply.network = same: the {} is an indirect network (its terminals are delivered at other routers than they inject at), so a memory has no path back to its processor on it; replies travel on the network reversed: workload.reply.network = separate (or auto)",
                net.name()
            ),
        )),
        other => Ok(other),
    }
}

/// The request network `net` and its reply network side by side ([`Network::joined`]), routed
/// by a table of minimal next hops: on an indirect network the replies travel on `net`
/// reversed (Raghunath & Ranade 1995 §5.1), on a direct one on a copy of it.
fn joined_network(net: &Network) -> Result<TableRouted, SimError> {
    let reply = if indirect(net) { net.reversed() } else { net.clone() };
    Ok(TableRouted::joined(net.joined(&reply))?)
}

/// The destination pattern of a resolved `spec` on its built network, and the locality
/// subcube when there is one; a pattern that does not fit the network is an error naming the
/// rule.
///
/// Patterns on node numbers (transpose, bit-reversal, shuffle, bit-complement) are, with
/// `workload.mapping = layout` (a Midimew's default where it has a layout), taken on the
/// application's numbering of Puente et al. Fig. 9 (row-major on the layout of its Fig. 1,
/// [`netwrap_topo::Circulant::application_to_network`]) and moved onto the network's: the
/// application node p runs on network node map(p), and sends to map(f(p)). With `network`
/// (every other family, and a Midimew whose N is a multiple of neither generator) they are
/// taken on the network's own numbers. Hot spots and the random permutation are network node
/// numbers on every family.
pub(crate) fn build_pattern(
    spec: &Resolved,
    topology: &Topology,
) -> Result<(Pattern, Option<LocalitySubcube>), SimError> {
    let net = topology.network();
    let n = net.terminals();
    let destinations = &spec.workload.destinations;
    let kind = destinations.kind();
    let cube = match topology {
        Topology::Cube(c) => Some(c),
        _ => None,
    };
    // Routed up*/down*, a cube keeps its coordinates for the patterns defined on them.
    let coordinates = match topology {
        Topology::UpDown(_, inner) => match inner.as_ref() {
            Topology::Cube(c) => Some(c),
            _ => None,
        },
        _ => cube,
    };
    // The router grid the coordinate patterns move on, and terminals per router: a k-ary
    // n-cube's, or a HyperX's (its sizes, dimension 0 first like the cube's).
    let grid: Option<(Vec<u32>, u32)> = match topology {
        Topology::UpDown(_, inner) | Topology::Table(_, inner) => match inner.as_ref() {
            Topology::NHop(h) => Some((h.factors().to_vec(), h.per_router())),
            _ => None,
        },
        Topology::NHop(h) => Some((h.factors().to_vec(), h.per_router())),
        _ => None,
    }
    .or_else(|| coordinates.map(|c| (c.spec().radices.clone(), c.per_router())));
    // On coordinates: a router permutation, each terminal going to the same-numbered terminal
    // of its router's image (p terminals per router).
    let on_coordinates = |routers: Vec<TerminalId>| -> Pattern {
        let p = grid.as_ref().map_or(1, |g| g.1);
        Pattern::Fixed((0..n).map(|t| routers[(t / p) as usize] * p + t % p).collect())
    };
    let radices = || -> Result<Vec<u32>, SimError> {
        grid.as_ref().map(|g| g.0.clone()).ok_or_else(|| {
            error(
                "workload.pattern",
                &[],
                format!(
                    "workload.pattern = {} is defined on router coordinates (k-ary n-cubes, HyperX): a {} has none",
                    kind.name(),
                    spec.topology.family()
                ),
            )
        })
    };
    let on_numbers = |table: Result<Vec<TerminalId>, String>| -> Result<Pattern, SimError> {
        let table = table.map_err(|why| error("workload.pattern", &[], why))?;
        let map = match spec.workload.mapping {
            Mapping::Layout => midimew_map(topology, n),
            Mapping::Network => None,
        };
        Ok(Pattern::Fixed(match map {
            Some(map) => traffic::remap(&table, &map),
            None => table,
        }))
    };
    let pattern = match destinations {
        Destinations::Uniform => Pattern::Uniform(n),
        Destinations::UniformOthers => {
            if n < 2 {
                return Err(error(
                    "workload.pattern",
                    &[],
                    format!(
                        "workload.pattern = uniform-others does not fit N = {n} node: a message needs another node to go to"
                    ),
                ));
            }
            Pattern::UniformOthers(n)
        }
        Destinations::Permutation(PatternKind::Transpose) => on_numbers(traffic::transpose(n))?,
        Destinations::Permutation(PatternKind::BitReversal) => on_numbers(traffic::bit_reversal(n))?,
        Destinations::Permutation(PatternKind::Shuffle) => on_numbers(traffic::shuffle(n))?,
        Destinations::Permutation(PatternKind::BitComplement) => on_numbers(traffic::bit_complement(n))?,
        Destinations::Permutation(PatternKind::Tornado) => on_coordinates(traffic::tornado(&radices()?)),
        Destinations::Permutation(PatternKind::Neighbor) => on_coordinates(traffic::neighbor(&radices()?)),
        Destinations::DimensionShift(s) => on_coordinates(traffic::dimension_shift(&radices()?, *s)),
        Destinations::Permutation(_) => Pattern::Fixed(traffic::permutation(n, spec.run.seed)),
        Destinations::Hotspot { nodes, fraction } => {
            if let Some(&bad) = nodes.iter().find(|&&h| h >= n) {
                return Err(error(
                    "workload.hotspots",
                    &[],
                    format!(
                        "workload.hotspots: node {bad} does not exist in a network of N = {n} nodes (0 to {})",
                        n - 1
                    ),
                ));
            }
            Pattern::Hotspot(Hotspot { nodes: nodes.clone(), fraction: *fraction, terminals: n })
        }
        Destinations::GroupShift(s) => {
            let Some((size, groups)) = topology.groups() else {
                return Err(error(
                    "workload.pattern",
                    &[],
                    format!(
                        "workload.pattern = group-shift sends each group of terminals to another group: a {} has no groups (dragonflies have)",
                        spec.topology.family()
                    ),
                ));
            };
            if s % groups == 0 {
                return Err(error(
                    "workload.shift",
                    &[],
                    format!(
                        "workload.shift = {s} is a multiple of the {groups} groups: every group would send to itself"
                    ),
                ));
            }
            Pattern::GroupShift(GroupShift { size, groups, shift: *s % groups })
        }
        Destinations::Locality(l) => {
            if matches!(topology, Topology::UpDown(..)) {
                return Err(error(
                    "workload.locality",
                    &["router.deadlock"],
                    "workload.locality's offered loads are computed for dimension-order routing, not for up*/down* routing",
                ));
            }
            let Some(cube) = cube else {
                return Err(error(
                    "workload.locality",
                    &[],
                    format!(
                        "workload.locality applies to tori and rings: a {} has none",
                        spec.topology.family()
                    ),
                ));
            };
            if cube.per_router() > 1 {
                return Err(error(
                    "workload.locality",
                    &["topology.concentration"],
                    "workload.locality's subcube is one of routers with one processor each (Agarwal 1991 §2.3): it does not apply with a concentration",
                ));
            }
            return Ok((
                Pattern::CubeLocality(CubeLocality::new(cube, *l)),
                Some(subcube(&cube.spec().radices, *l)),
            ));
        }
    };
    Ok((without_self(pattern, spec.workload.self_traffic), None))
}

/// `pattern` with its messages to their own source excluded or rerouted (`mode`; resolving the
/// spec refused the patterns it does not apply to): uniform draws among the others; a
/// permutation's fixed points send nothing ([`traffic::SILENT`]) or to another terminal drawn
/// uniformly ([`traffic::ELSEWHERE`]); group shift never sends to its own group.
fn without_self(pattern: Pattern, mode: SelfTraffic) -> Pattern {
    let stand_in = match mode {
        SelfTraffic::Include => return pattern,
        SelfTraffic::Exclude => traffic::SILENT,
        SelfTraffic::Reroute => traffic::ELSEWHERE,
    };
    match pattern {
        Pattern::Uniform(n) if n >= 2 => Pattern::UniformOthers(n),
        Pattern::Fixed(mut table) if table.len() >= 2 => {
            for (s, d) in table.iter_mut().enumerate() {
                if *d == s as TerminalId {
                    *d = stand_in;
                }
            }
            Pattern::Fixed(table)
        }
        other => other,
    }
}

/// On a Midimew with a rectangular layout, the application-to-network map of Puente et al.
/// Fig. 9; `None` on other families and Midimews without one.
fn midimew_map(topology: &Topology, n: u32) -> Option<Vec<TerminalId>> {
    let c = match topology {
        Topology::Circulant(c) => c,
        Topology::Table(_, inner) | Topology::UpDown(_, inner) => match inner.as_ref() {
            Topology::Circulant(c) => c,
            _ => return None,
        },
        _ => return None,
    };
    if !c.is_midimew() {
        return None;
    }
    (0..n).map(|p| c.application_to_network(p)).collect()
}

/// Resolves `spec`, builds it and runs it.
pub fn simulate(spec: &SimSpec) -> Result<SimResult, SimError> {
    let point = spec.resolve()?;
    Experiment::build(&point)?.run(&point)
}

/// Checks that `vcs` virtual channels hold the classes `phases` needs for `routing` on `net`
/// (in each of `halves` message classes: requests and replies on one network take half each).
pub(crate) fn phase_vcs(
    net: &Network,
    groups: Option<(u32, u32)>,
    routing: &netwrap_topo::RoutingSpec,
    vcs: u32,
    halves: u32,
) -> Result<(), SimError> {
    let paths = routing.paths();
    let need = Legs::new(paths, net, groups).phase_classes();
    if vcs >= need * halves {
        return Ok(());
    }
    let what = match paths.choice {
        PathChoice::Minimal => format!("minimal routing on the {}", net.name()),
        PathChoice::Dal => format!("routing 'dal' (a class per hop) on the {}", net.name()),
        _ => format!(
            "routing '{}' through a {} on the {}",
            routing.algorithm.name(),
            paths.via.name(),
            net.name()
        ),
    };
    Err(error(
        "router.vcs",
        &["router.deadlock"],
        format!(
            "router.deadlock = phases: {what} needs {need} classes of virtual channels (one per route phase){}, so router.vcs >= {}, not {vcs}",
            if halves == 2 { ", in each of the request and reply halves" } else { "" },
            need * halves,
        ),
    ))
}

/// Runs one engine on a built topology under `pattern`: the single place the engine is chosen
/// and the routing type made concrete.
pub fn execute(topology: &Topology, pattern: &Pattern, spec: &RunSpec, router: Router) -> Outcome {
    struct Run<'a> {
        pattern: &'a Pattern,
        spec: &'a RunSpec,
        router: Router,
    }
    impl Visitor for Run<'_> {
        type Output = Outcome;
        fn visit<F: Family>(self, f: &F) -> Outcome {
            execute_on(f.network(), f, self.pattern, self.spec, self.router)
        }
    }
    topology.visit(Run { pattern, spec, router })
}

/// Runs one engine on any network and routing (exact tests use hand-made networks). The
/// virtual-channel router needs buffers that fit [`engine::vc::too_large`] and hold a packet
/// where the network has a [`engine::vc::widening`] ([`Experiment::admit`] checks both).
pub fn execute_on<R: Routing>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    router: Router,
) -> Outcome {
    match router {
        Router::Ideal(EngineKind::Fast) => engine::ideal::run(net, routing, pattern, spec),
        Router::Ideal(EngineKind::Reference) => engine::reference::run(net, routing, pattern, spec),
        Router::Vc(p) => engine::vc::run(net, routing, pattern, spec, &p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification of the hop events a plan counts, by hand: a run of one cycle makes half
    /// a hop event per message created (those created in its cycle, half of it on average);
    /// 1000 cycles of 10 messages of 5 events each make all but the last 5 cycles' missing
    /// ones, 10 × 5 × (1000 − 2.5).
    #[test]
    fn hop_events_count_what_the_cycles_allow() {
        assert_eq!(hop_events(1.0, 671_088.0, 8_388_608.5), 335_544.0);
        assert_eq!(hop_events(1000.0, 10.0, 5.0), 49_875.0);
        assert_eq!(hop_events(4.0, 10.0, 5.0), 80.0);
    }

    /// Characterisation of the cost estimate with the runs it was measured on: CCC(17)'s
    /// default run (94 cycles of 0.04 × 2228224 messages of 20.57 hops, 6684672 channels: 48
    /// s measured) and the 21-cube's (1000 warm-up cycles and 100 more of 0.04 × 2097152
    /// messages of 10.5 hops, 44040192 channels: over 4 minutes measured) come to half a
    /// minute or more (announced); a 16×16 torus's does not.
    #[test]
    fn big_networks_cost_more_per_hop_event() {
        let seconds = |cycles: f64, nodes: f64, hops: f64, channels: usize| {
            hop_events(cycles, 0.04 * nodes, hops + 1.0) * seconds_per_hop_event(channels)
        };
        let ccc = seconds(94.0, 2_228_224.0, 20.57, 6_684_672) * CCC_FACTOR;
        assert!((30.0..200.0).contains(&ccc), "{ccc}");
        let cube = seconds(1100.0, 2_097_152.0, 10.5, 44_040_192);
        assert!((120.0..600.0).contains(&cube), "{cube}");
        assert!(seconds(3000.0, 256.0, 8.0, 1024) < 1.0);
        assert!(seconds_per_hop_event(1) <= seconds_per_hop_event(1 << 20));
        assert!(seconds_per_hop_event(1 << 20) <= seconds_per_hop_event(usize::MAX));
    }

    /// The transpose's table on the Midimew of `nodes` nodes, numbered as `mapping` says
    /// (`None`: the default).
    fn transpose_on_midimew(nodes: u32, mapping: Option<Mapping>) -> Result<Vec<TerminalId>, SimError> {
        let mut s = SimSpec {
            topology: netwrap_topo::TopologySpec::Midimew { nodes: Some(nodes) },
            ..SimSpec::default()
        };
        s.workload.pattern = Some(PatternKind::Transpose);
        s.workload.mapping = mapping;
        let s = s.resolve()?;
        let topology = s.topology.shape(&s.routing).unwrap().build().unwrap();
        match build_pattern(&s, &topology).unwrap().0 {
            Pattern::Fixed(t) => Ok(t),
            other => panic!("{other:?}"),
        }
    }

    /// Verification of Puente et al. Fig. 9's mapping under transpose on the 16-node Midimew
    /// C_16(2, 3), by hand. N = 16 is a multiple of a = 2: the layout has 2 columns and 8
    /// rows, node (x, y) = 3x + 2y mod 16, and application node p sits at (p mod 2, p div 2),
    /// so map = 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1. Transpose on 16 = 4²
    /// nodes sends p = 4y + x to 4x + y. With `layout` (the default): application node 1 is
    /// network node 3, its partner 4 is network 4: network 3 sends to 4; application 6
    /// (network 6) sends to application 9, network 11; application 3 (network 5) to 12
    /// (network 12); application 13 (network 15) to 7 (network 9); application 15 (network 1)
    /// is a fixed point. With `network` the same nodes send to the transpose of their own
    /// numbers: 3 to 12, 6 to 9, 5 to 5, 15 to 15, 1 to 4.
    #[test]
    fn midimew_patterns_follow_the_mapping() {
        let nodes = [3, 6, 5, 15, 1];
        for mapping in [None, Some(Mapping::Layout)] {
            let t = transpose_on_midimew(16, mapping).unwrap();
            assert_eq!(nodes.map(|s| t[s]), [4, 11, 12, 9, 1], "{mapping:?}");
        }
        let t = transpose_on_midimew(16, Some(Mapping::Network)).unwrap();
        assert_eq!(nodes.map(|s| t[s]), [12, 9, 5, 15, 4]);
    }

    /// Verification: on the 64-node Midimew C_64(5, 6), N is a multiple of neither generator,
    /// so there is no layout. By default the pattern stays on network numbers (the transpose
    /// of 1 = 8·0 + 1 is 8·1 + 0 = 8); asking for `layout` is an error naming why.
    #[test]
    fn a_midimew_without_a_layout_takes_network_numbers_and_refuses_layout() {
        assert_eq!(transpose_on_midimew(64, None).unwrap()[1], 8);
        assert_eq!(transpose_on_midimew(64, Some(Mapping::Network)).unwrap()[1], 8);
        let e = transpose_on_midimew(64, Some(Mapping::Layout)).unwrap_err();
        let SimError::Spec(e) = e else { panic!("{e:?}") };
        assert_eq!(e.path, "workload.mapping");
        assert!(e.message.contains("multiple of neither generator, 5 or 6"), "{}", e.message);
    }

    /// `layout` on another family is refused; `network`, what every family's patterns use,
    /// is accepted.
    #[test]
    fn layout_is_a_midimews_alone() {
        let mut s = SimSpec::default();
        s.workload.pattern = Some(PatternKind::Transpose);
        s.workload.mapping = Some(Mapping::Network);
        assert_eq!(s.resolve().unwrap().workload.mapping, Mapping::Network);
        s.workload.mapping = Some(Mapping::Layout);
        let Err(SimError::Spec(e)) = s.resolve() else { panic!() };
        assert!(e.path == "workload.mapping" && e.message.contains("a torus has none"), "{}", e.message);
    }
}
