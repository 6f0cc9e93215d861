//! [`Resolved`]: a [`SimSpec`] checked once, with nothing left to default — the router's,
//! workload's and run's parameters as the engine takes them. A point of a sweep is resolved
//! once, on its way in; everything after (building, planning, running, reporting) reads this.
//!
//! What can be checked without the network is checked here, each error naming its field
//! ([`SpecError`]); what needs the built network is checked when the experiment is built
//! ([`crate::Experiment::build`]).

use crate::spec::{
    Allocator, Avoidance, CollectiveKind, CollectiveSpec, DatelineClass, Ejection, EngineKind, Interval,
    MAX_VC_PARAM, Mapping, PatternKind, Placement, Preset, ProcessorSpec, ReplyNetwork, ReplySpec,
    RouterKind, RouterSpec, RunControl, Schedule, SelfTraffic, SimSpec, Stages, Switching, Threads,
    TraceKind, VcChoice, VcParams, WorkloadSpec, defaults,
};
use crate::{SimError, SpecError};
use netwrap_engine::params::OnOff;
use netwrap_engine::traffic::MessageSize;
use netwrap_topo::{PathChoice, RoutingAlgorithm, RoutingSpec, Shape, TopologySpec};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

/// A spec checked and complete (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// The network, in its canonical form (N turned into n, equal radices into k and n).
    pub topology: TopologySpec,
    /// Its routing (up*/down* routing replaces the family's as `family`, without an order).
    pub routing: RoutingSpec,
    /// The router model and its parameters.
    pub router: Router,
    /// Virtual-channel router: latencies of channel classes by name (the others take the link
    /// latency); checked against the network's classes when it is built.
    pub class_latency: std::collections::BTreeMap<String, u32>,
    /// What the terminals send.
    pub workload: Workload,
    /// Run control.
    pub run: Run,
    /// What resolving adjusted, for the user (e.g. N rounded up to a whole dimension).
    pub notes: Vec<String>,
}

/// The router model, with its engine's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Router {
    /// The ideal switch, on the fast or the flit-by-flit reference engine.
    Ideal(EngineKind),
    /// The virtual-channel router.
    Vc(VcParams),
}

impl Router {
    /// The virtual-channel router's parameters (`None` for the ideal switch).
    pub fn vc(&self) -> Option<&VcParams> {
        match self {
            Router::Vc(p) => Some(p),
            Router::Ideal(_) => None,
        }
    }
}

/// The workload, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// How messages are created.
    pub source: Source,
    /// Their lengths.
    pub size: MessageSize,
    /// Where they go (uniform with a trace, which says so itself).
    pub destinations: Destinations,
    /// Memories that reply, if any.
    pub reply: Option<Reply>,
    /// What becomes of messages addressed to their own source.
    pub self_traffic: SelfTraffic,
    /// The numbering the node-number patterns are taken on: `layout` only on a Midimew that
    /// has one.
    pub mapping: Mapping,
}

/// How messages are created.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Open loop at request rate m in (0, 1].
    Open {
        /// Request rate m.
        rate: f64,
        /// Geometric, periodic or on/off intervals.
        interval: Interval,
        /// An on/off source's burst and idle means (with [`Interval::OnOff`] only).
        on_off: Option<OnOff>,
    },
    /// Processors of `threads` threads that wait for their accesses.
    Threads {
        /// Request rate m while busy.
        rate: f64,
        /// Geometric or periodic intervals.
        interval: Interval,
        /// Threads per processor.
        threads: u32,
    },
    /// A trace's messages.
    Trace(TraceInput),
    /// A collective run to completion (its size: the workload's, the data per rank).
    Collective(CollectiveSource),
}

/// A trace to replay, as written: its format (detected from the file when not given), and for
/// a netrace trace or an MPI dump (whose nodes are ranks) the flit's bytes, the placement and
/// the measured messages (all of them when not given).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraceInput {
    /// The file.
    pub path: PathBuf,
    /// Its format: as given, else from the file's name or first bytes
    /// ([`crate::trace::detect`]).
    pub format: TraceKind,
    /// Bytes a flit, if given (default 16).
    pub flit_bytes: Option<u32>,
    /// Which node runs which rank, if given.
    pub placement: Option<Placement>,
    /// The placement file, if given.
    pub placement_file: Option<PathBuf>,
    /// `run.messages`, if given.
    pub messages: Option<u64>,
}

impl TraceInput {
    /// The bytes of a flit.
    pub fn flit_bytes(&self) -> u32 {
        self.flit_bytes.unwrap_or(crate::trace::FLIT_BYTES)
    }

    /// The placement: as given, file with a file, else linear.
    pub fn placement(&self) -> Placement {
        match (self.placement, &self.placement_file) {
            (Some(p), _) => p,
            (None, Some(_)) => Placement::File,
            (None, None) => Placement::Linear,
        }
    }
}

/// A collective, resolved: what can be checked without the network is (the rank count,
/// placement and grid against the nodes are checked when it is built).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CollectiveSource {
    /// Which collective.
    pub kind: CollectiveKind,
    /// Ranks (`None`: one per node, or a placement file's lines).
    pub ranks: Option<u32>,
    /// Repetitions.
    pub iterations: u32,
    /// Compute cycles per step.
    pub compute: u64,
    /// An all-to-all's schedule.
    pub schedule: Schedule,
    /// A halo's process grid (`None`: chosen for the ranks).
    pub grid: Option<Vec<u32>>,
    /// Which node runs which rank.
    pub placement: Placement,
    /// The placement file, with `Placement::File`.
    pub placement_file: Option<PathBuf>,
}

/// Where messages go: the destination pattern with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Destinations {
    /// Uniform over every terminal, the source included.
    Uniform,
    /// Uniform over every other terminal.
    UniformOthers,
    /// One of the fixed permutations on node numbers or coordinates (the kind says which).
    Permutation(PatternKind),
    /// A fraction of messages to hot-spot nodes, the rest uniform.
    Hotspot {
        /// The hot spots.
        nodes: Vec<u32>,
        /// The fraction sent to them, in (0, 1].
        fraction: f64,
    },
    /// A locality subcube of fraction l in (0, 1).
    Locality(f64),
    /// Group shift by s ≥ 1 groups (checked against the built network's groups).
    GroupShift(u32),
    /// A shift by s along dimension 0 of the router coordinates.
    DimensionShift(u32),
}

impl Destinations {
    /// The pattern's name.
    pub fn kind(&self) -> PatternKind {
        match self {
            Destinations::Uniform => PatternKind::Uniform,
            Destinations::UniformOthers => PatternKind::UniformOthers,
            Destinations::Permutation(k) => *k,
            Destinations::Hotspot { .. } => PatternKind::Hotspot,
            Destinations::Locality(_) => PatternKind::Locality,
            Destinations::GroupShift(_) => PatternKind::GroupShift,
            Destinations::DimensionShift(_) => PatternKind::DimensionShift,
        }
    }
}

/// Two destination patterns are the same build when they agree bit for bit.
impl Eq for Destinations {}

impl Hash for Destinations {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.kind().hash(h);
        match self {
            Destinations::Hotspot { nodes, fraction } => {
                nodes.hash(h);
                fraction.to_bits().hash(h);
            }
            Destinations::Locality(l) => l.to_bits().hash(h),
            Destinations::GroupShift(s) | Destinations::DimensionShift(s) => s.hash(h),
            _ => {}
        }
    }
}

/// Memories that serve each message as an access and reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reply {
    /// Memory access time M in cycles.
    pub memory_latency: u32,
    /// Flits of a reply (0: the memory answers without a message).
    pub size: u32,
    /// Where replies travel (`auto` until the network is built).
    pub network: ReplyNetwork,
}

/// Run control, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Cycles discarded before measuring.
    pub warmup: Warmup,
    /// Measured messages.
    pub messages: u64,
    /// Cycle limit, the warm-up included.
    pub max_cycles: u64,
    /// Seed of every random stream.
    pub seed: u64,
}

/// The warm-up: given, or the default, which needs the built network and the offered loads
/// ([`crate::default_warmup`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warmup {
    /// The default.
    Default,
    /// This many cycles.
    Cycles(u64),
}

/// What decides the built part of an experiment: points of a sweep that agree on it share one
/// built [`crate::Experiment`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BuildKey {
    topology: TopologySpec,
    routing: RoutingSpec,
    destinations: Destinations,
    /// What becomes of messages addressed to their own source.
    self_traffic: SelfTraffic,
    /// The numbering the node-number patterns are taken on.
    mapping: Mapping,
    /// The seed a random permutation is drawn from.
    permutation_seed: Option<u64>,
    /// Routed up*/down* instead of by `routing`.
    updown: bool,
    /// Where replies travel, when there are reply messages (a separate network is built).
    replies: Option<ReplyNetwork>,
    trace: Option<TraceInput>,
}

/// The most threads a processor may run.
pub const MAX_THREADS: u32 = 1 << 16;

/// The most measured messages a run may ask for: sequence numbers are 32-bit.
pub const MAX_MESSAGES: u64 = u32::MAX as u64 - 1;

/// An error about `path` (and the other fields in `also`).
pub(crate) fn error(path: &str, also: &[&str], message: impl Into<String>) -> SimError {
    SimError::Spec(SpecError::new(path, also, message))
}

/// The builders' description of `topology` under `routing`: [`TopologySpec::shape`], except
/// that a graph's file (and terminals file) is read here ([`crate::graph_file`]), routed by its
/// table of every minimal next hop under `family` and `table` alike.
pub fn shape_of(topology: &TopologySpec, routing: &RoutingSpec) -> Result<Shape, SimError> {
    match topology {
        TopologySpec::Graph { file, terminals } => {
            topology.resolve_routing(routing)?;
            Ok(Shape::Graph(Box::new(crate::graph_file::read(file, terminals.as_deref())?)))
        }
        _ => Ok(topology.shape(routing)?),
    }
}

/// Formats a float for an error message: short, whatever its size.
pub fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e9).contains(&a) { format!("{x}") } else { format!("{x:e}") }
}

impl SimSpec {
    /// Checks every value that can be checked without the network and fills every default:
    /// see [`Resolved`].
    pub fn resolve(&self) -> Result<Resolved, SimError> {
        let (topology, mut notes) = self.topology.resolve().map_err(|e| match e {
            // A key's value: the error names it in the spec, so a file's error gives its line.
            netwrap_topo::TopoError::Key { key, message } => {
                error(&format!("topology.{key}"), &[], format!("topology.{message}"))
            }
            other => other.into(),
        })?;
        let routing = topology.resolve_routing(&self.routing)?;
        let w = &self.workload;
        if let Some(path) = &w.trace {
            trace_alone(w, path)?;
        } else if let Some(key) =
            [("trace-format", w.trace_format.is_some()), ("flit-bytes", w.flit_bytes.is_some())]
                .iter()
                .find(|k| k.1)
        {
            return Err(error(
                &format!("workload.{}", key.0),
                &["workload.trace"],
                format!(
                    "workload.{} describes a trace: it applies with workload.trace (--trace FILE)",
                    key.0
                ),
            ));
        }
        let collective = collective(w, &self.run)?;
        let size = message_size(w)?;
        let rate = rate(w, &size)?;
        let destinations = destinations(w, &topology)?;
        let processor = &w.processor;
        let threads = processor.threads.unwrap_or_default();
        let interval = processor.interval.unwrap_or_default();
        let source = if let Some(c) = &collective {
            Source::Collective(c.clone())
        } else {
            match (&w.trace, threads) {
                (Some(path), _) => Source::Trace(trace_input(w, path, self.run.messages)?),
                (None, Threads::Unbounded) => {
                    Source::Open { rate, interval, on_off: on_off(processor, rate)? }
                }
                (None, Threads::Count(0)) => {
                    return Err(error(
                        "workload.processor.threads",
                        &[],
                        "workload.processor.threads = 0: a processor needs at least one thread, or unbounded for an open loop",
                    ));
                }
                (None, Threads::Count(t)) if t > MAX_THREADS => {
                    return Err(error(
                        "workload.processor.threads",
                        &[],
                        format!(
                            "workload.processor.threads = {t}: at most {MAX_THREADS} threads per processor (each keeps an access in flight)"
                        ),
                    ));
                }
                (None, Threads::Count(_)) if interval == Interval::OnOff => {
                    return Err(error(
                        "workload.processor.interval",
                        &["workload.processor.threads"],
                        "workload.processor.interval = on-off is an open-loop source's: processors whose threads wait for their accesses compute for geometric or periodic intervals",
                    ));
                }
                (None, Threads::Count(threads)) => Source::Threads { rate, interval, threads },
            }
        };
        let reply = (!w.reply.is_empty()).then_some(w.reply).map(|r| Reply {
            memory_latency: r.memory_latency.unwrap_or(0),
            size: r.size.unwrap_or(match size {
                MessageSize::Fixed(b) | MessageSize::Bimodal { short: b, .. } => b,
            }),
            network: r.network.unwrap_or_default(),
        });
        let run = run(&self.run, w.trace.is_some() || collective.is_some())?;
        let engine = self.run.engine.unwrap_or_default();
        let router = router(&self.router, engine, &topology, &routing)?;
        if let (Some(reply), Router::Vc(p)) = (&reply, &router) {
            reply_classes(reply, p)?;
        }
        let routing = match router {
            Router::Vc(p) if p.deadlock == Avoidance::Updown => updown_routing(&self.routing)?,
            _ => routing,
        };
        let mapping = mapping(w.mapping, &topology, &destinations, &mut notes)?;
        let self_traffic = self_traffic(w, &destinations, &source, reply.is_some())?;
        let class_latency = class_latency(&self.router)?;
        Ok(Resolved {
            topology,
            routing,
            router,
            class_latency,
            workload: Workload { source, size, destinations, reply, self_traffic, mapping },
            run,
            notes,
        })
    }
}

/// The numbering the node-number patterns are taken on (`workload.mapping`): by default a
/// Midimew's layout (Puente et al. Fig. 9's application numbering) where it has one
/// ([`netwrap_topo::midimew_layout`]: N a multiple of a generator), the network's numbers
/// elsewhere, with a note when a node-number pattern on a Midimew falls back to them. `layout`
/// on a Midimew without one, or on another family, is an error.
fn mapping(
    asked: Option<Mapping>,
    topology: &TopologySpec,
    destinations: &Destinations,
    notes: &mut Vec<String>,
) -> Result<Mapping, SimError> {
    let TopologySpec::Midimew { nodes: Some(n) } = topology else {
        return match asked {
            Some(Mapping::Layout) => Err(error(
                "workload.mapping",
                &[],
                format!(
                    "workload.mapping = layout numbers a Midimew's nodes on its layout (Puente et al. Fig. 9): a {} has none, its patterns take the network's node numbers (workload.mapping = network)",
                    topology.family()
                ),
            )),
            _ => Ok(Mapping::Network),
        };
    };
    let (a, b) = netwrap_topo::midimew_generators(*n);
    let has_layout = netwrap_topo::midimew_layout(*n).is_some();
    let why = || {
        format!(
            "the Midimew of {n} nodes has no rectangular layout (Puente et al. Fig. 1): N is a multiple of neither generator, {a} or {b}"
        )
    };
    match asked {
        Some(Mapping::Layout) if !has_layout => Err(error(
            "workload.mapping",
            &[],
            format!("workload.mapping = layout: {}; use workload.mapping = network", why()),
        )),
        Some(m) => Ok(m),
        None if has_layout => Ok(Mapping::Layout),
        None => {
            if let Destinations::Permutation(kind) = destinations
                && kind.on_node_numbers()
            {
                notes.push(format!(
                    "workload.pattern = {}: {}, so the pattern is taken on the network's node numbers, not on Puente et al. Fig. 9's application numbering",
                    kind.name(),
                    why()
                ));
            }
            Ok(Mapping::Network)
        }
    }
}

/// The per-class latencies of the router section: `class-latency`, with `local-latency` and
/// `global-latency` for the classes `local` and `global`, each 1 to [`MAX_VC_PARAM`] cycles.
fn class_latency(spec: &RouterSpec) -> Result<std::collections::BTreeMap<String, u32>, SimError> {
    let mut map = spec.class_latency.clone().unwrap_or_default().0;
    for (key, class, value) in
        [("local-latency", "local", spec.local_latency), ("global-latency", "global", spec.global_latency)]
    {
        if let Some(v) = value
            && map.insert(class.to_string(), v).is_some()
        {
            return Err(error(
                &format!("router.{key}"),
                &["router.class-latency"],
                format!(
                    "router.{key} and router.class-latency both give the latency of class '{class}': give it once"
                ),
            ));
        }
    }
    for (class, &v) in &map {
        if !(1..=MAX_VC_PARAM).contains(&v) {
            return Err(error(
                "router.class-latency",
                &[],
                format!(
                    "router.class-latency: class '{class}' = {v} cycles: must be from 1 to {MAX_VC_PARAM} (a flit sent in a cycle reaches the next router in a later one)"
                ),
            ));
        }
    }
    Ok(map)
}

/// The message lengths of `w`.
fn message_size(w: &WorkloadSpec) -> Result<MessageSize, SimError> {
    let short = w.size.unwrap_or(defaults::SIZE);
    if short == 0 {
        return Err(error("workload.size", &[], "workload.size = 0: a message needs at least one flit"));
    }
    match (w.long_size, w.long_fraction) {
        (None, None) => Ok(MessageSize::Fixed(short)),
        (Some(0), _) => {
            Err(error("workload.long-size", &[], "workload.long-size = 0: a message needs at least one flit"))
        }
        (_, Some(f)) if !(f.is_finite() && f > 0.0 && f <= 1.0) => Err(error(
            "workload.long-fraction",
            &[],
            format!("workload.long-fraction = {}: the fraction of long messages must be in (0, 1]", num(f)),
        )),
        (Some(long), Some(long_fraction)) => Ok(MessageSize::Bimodal { short, long, long_fraction }),
        (Some(_), None) | (None, Some(_)) => Err(error(
            "workload.long-size",
            &["workload.long-fraction"],
            "workload.long-size and workload.long-fraction make a bimodal size mix together: give both or neither",
        )),
    }
}

/// The request rate of `w`: its `rate`, or its `load` over the mean message length.
fn rate(w: &WorkloadSpec, size: &MessageSize) -> Result<f64, SimError> {
    if let Some(rate) = w.rate
        && !(rate.is_finite() && rate > 0.0 && rate <= 1.0)
    {
        return Err(error(
            "workload.rate",
            &[],
            format!(
                "workload.rate = {}: the request rate must be a probability in (0, 1], messages per terminal per cycle",
                num(rate)
            ),
        ));
    }
    match (w.rate, w.load) {
        (Some(_), Some(_)) => Err(error(
            "workload.rate",
            &["workload.load"],
            "workload.rate and workload.load both say how much is offered: give one of them",
        )),
        (Some(rate), None) => Ok(rate),
        (None, Some(load)) => {
            if !(load.is_finite() && load > 0.0) {
                return Err(error(
                    "workload.load",
                    &[],
                    format!(
                        "workload.load = {}: the offered load must be a positive number of flits per node per cycle",
                        num(load)
                    ),
                ));
            }
            let rate = load / size.mean();
            if !(rate > 0.0 && rate <= 1.0) {
                return Err(error(
                    "workload.load",
                    &[],
                    format!(
                        "workload.load = {}: with a mean message length of {} flits that is a request rate of {} messages per terminal per cycle, outside (0, 1]",
                        num(load),
                        num(size.mean()),
                        num(rate)
                    ),
                ));
            }
            Ok(rate)
        }
        (None, None) => Ok(defaults::RATE),
    }
}

/// The destination pattern of `w` on the (resolved) `topology`.
fn destinations(w: &WorkloadSpec, topology: &TopologySpec) -> Result<Destinations, SimError> {
    let pattern = w.pattern.unwrap_or_default();
    let locality = match (pattern, w.locality) {
        (_, Some(l)) if !(l.is_finite() && l > 0.0 && l <= 1.0) => {
            return Err(error(
                "workload.locality",
                &[],
                format!("workload.locality = {}: the locality fraction must be in (0, 1]", num(l)),
            ));
        }
        (PatternKind::Locality, None) => {
            return Err(error(
                "workload.locality",
                &[],
                "workload.pattern = locality needs workload.locality, the fraction l in (0, 1]",
            ));
        }
        // l = 1 addresses every node: uniform traffic.
        (PatternKind::Uniform | PatternKind::Locality, Some(l)) => (l < 1.0).then_some(l),
        (p, Some(_)) => {
            return Err(error(
                "workload.locality",
                &[],
                format!(
                    "workload.locality applies to the locality pattern, not to workload.pattern = {}",
                    p.name()
                ),
            ));
        }
        (_, None) => None,
    };
    if locality.is_some() && !matches!(topology, TopologySpec::Torus { .. } | TopologySpec::Ring { .. }) {
        return Err(error(
            "workload.locality",
            &[],
            format!(
                "workload.locality applies to tori and rings (a subcube with a corner at the source, wrapping round the end-around links): a {} has none",
                topology.family()
            ),
        ));
    }
    let grid =
        topology.is_cube() || matches!(topology, TopologySpec::Hyperx { .. } | TopologySpec::Nhop { .. });
    if matches!(pattern, PatternKind::Tornado | PatternKind::Neighbor | PatternKind::DimensionShift) && !grid
    {
        return Err(error(
            "workload.pattern",
            &[],
            format!(
                "workload.pattern = {} is defined on router coordinates (torus, mesh, ring, hypercube, HyperX, n-hop networks): a {} has no coordinates",
                pattern.name(),
                topology.family()
            ),
        ));
    }
    match (pattern, &w.hotspots, w.hotspot_fraction) {
        (PatternKind::Hotspot, Some(h), Some(f)) => {
            if h.is_empty() {
                return Err(error(
                    "workload.hotspots",
                    &[],
                    "workload.hotspots is empty: the hotspot pattern needs at least one node",
                ));
            }
            if !(f.is_finite() && f > 0.0 && f <= 1.0) {
                return Err(error(
                    "workload.hotspot-fraction",
                    &[],
                    format!(
                        "workload.hotspot-fraction = {}: the fraction of messages sent to the hot spots must be in (0, 1]",
                        num(f)
                    ),
                ));
            }
            return Ok(Destinations::Hotspot { nodes: h.clone(), fraction: f });
        }
        (PatternKind::Hotspot, _, _) => {
            return Err(error(
                "workload.hotspots",
                &["workload.hotspot-fraction"],
                "workload.pattern = hotspot needs workload.hotspots, the hot-spot nodes, and workload.hotspot-fraction, the fraction of messages sent to them",
            ));
        }
        (p, Some(_), _) | (p, _, Some(_)) => {
            return Err(error(
                "workload.hotspots",
                &["workload.hotspot-fraction"],
                format!(
                    "workload.hotspots and workload.hotspot-fraction apply to the hotspot pattern, not to workload.pattern = {}",
                    p.name()
                ),
            ));
        }
        _ => {}
    }
    match (pattern, w.shift) {
        (PatternKind::GroupShift, Some(0)) => {
            return Err(error(
                "workload.shift",
                &[],
                "workload.shift = 0: group-shift would send every group to itself; give s ≥ 1 (s ≢ 0 mod the groups)",
            ));
        }
        (PatternKind::GroupShift, s) => return Ok(Destinations::GroupShift(s.unwrap_or(1))),
        (PatternKind::DimensionShift, s) => return Ok(Destinations::DimensionShift(s.unwrap_or(1))),
        (p, Some(_)) => {
            return Err(error(
                "workload.shift",
                &[],
                format!(
                    "workload.shift applies to the group-shift and dimension-shift patterns, not to workload.pattern = {}",
                    p.name()
                ),
            ));
        }
        _ => {}
    }
    Ok(match (pattern, locality) {
        (_, Some(l)) => Destinations::Locality(l),
        (PatternKind::Uniform | PatternKind::Locality, None) => Destinations::Uniform,
        (PatternKind::UniformOthers, None) => Destinations::UniformOthers,
        (kind, None) => Destinations::Permutation(kind),
    })
}

/// `workload.self-traffic`, checked against the pattern: it applies to uniform traffic and the
/// permutations (hot spots and locality subcubes draw the source with the rest, and have no
/// other reading); excluding a fixed point's messages needs open-loop sources without
/// replies (a processor that waits for its access cannot skip it).
fn self_traffic(
    w: &WorkloadSpec,
    destinations: &Destinations,
    source: &Source,
    replies: bool,
) -> Result<SelfTraffic, SimError> {
    let mode = w.self_traffic.unwrap_or_default();
    if mode == SelfTraffic::Include {
        return Ok(mode);
    }
    let name: &'static str = mode.into();
    match destinations {
        Destinations::Hotspot { .. } | Destinations::Locality(_) => Err(error(
            "workload.self-traffic",
            &["workload.pattern"],
            format!(
                "workload.self-traffic = {name} applies to uniform traffic and the permutations, not to workload.pattern = {}: its draws include the source by definition",
                destinations.kind().name()
            ),
        )),
        Destinations::Permutation(_) | Destinations::DimensionShift(_)
            if mode == SelfTraffic::Exclude && (replies || matches!(source, Source::Threads { .. })) =>
        {
            Err(error(
                "workload.self-traffic",
                &["workload.processor.threads", "workload.reply"],
                "workload.self-traffic = exclude: a processor that waits for its access, or whose access a memory answers, cannot skip the accesses a permutation addresses to itself; use reroute (they go to another terminal drawn uniformly)",
            ))
        }
        _ => Ok(mode),
    }
}

/// The run section, checked; with a trace the warm-up defaults to 0 (a trace's first cycle is
/// the run's).
fn run(r: &RunControl, trace: bool) -> Result<Run, SimError> {
    let messages = r.messages.unwrap_or(defaults::MESSAGES);
    let max_cycles = r.max_cycles.unwrap_or(defaults::MAX_CYCLES);
    if messages == 0 || messages > MAX_MESSAGES {
        return Err(error(
            "run.messages",
            &[],
            format!("run.messages = {messages}: at least 1 and at most {MAX_MESSAGES} measured messages"),
        ));
    }
    if max_cycles == 0 {
        return Err(error("run.max-cycles", &[], "run.max-cycles = 0: at least one cycle must be simulated"));
    }
    if let Some(warmup) = r.warmup
        && warmup >= max_cycles
    {
        return Err(error(
            "run.warmup",
            &["run.max-cycles"],
            format!(
                "run.warmup = {warmup} is not below run.max-cycles = {max_cycles}: no cycle would be measured"
            ),
        ));
    }
    let warmup = match (r.warmup, trace) {
        (Some(w), _) => Warmup::Cycles(w),
        (None, true) => Warmup::Cycles(0),
        (None, false) => Warmup::Default,
    };
    Ok(Run { warmup, messages, max_cycles, seed: r.seed.unwrap_or(defaults::SEED) })
}

/// The router section, checked, with the virtual-channel router's defaults filled.
fn router(
    spec: &RouterSpec,
    engine: EngineKind,
    topology: &TopologySpec,
    routing: &RoutingSpec,
) -> Result<Router, SimError> {
    let stage_given = [
        ("routing-delay", spec.routing_delay.is_some()),
        ("vc-alloc-delay", spec.vc_alloc_delay.is_some()),
        ("switch-alloc-delay", spec.switch_alloc_delay.is_some()),
        ("traversal-delay", spec.traversal_delay.is_some()),
        ("speculative", spec.speculative.is_some()),
    ];
    let given = [
        ("preset", spec.preset.is_some()),
        ("vcs", spec.vcs.is_some()),
        ("buffer", spec.buffer.is_some()),
        ("output-buffer", spec.output_buffer.is_some()),
        ("input-speedup", spec.input_speedup.is_some()),
        ("output-speedup", spec.output_speedup.is_some()),
        ("router-delay", spec.router_delay.is_some()),
        ("routing-delay", spec.routing_delay.is_some()),
        ("vc-alloc-delay", spec.vc_alloc_delay.is_some()),
        ("switch-alloc-delay", spec.switch_alloc_delay.is_some()),
        ("traversal-delay", spec.traversal_delay.is_some()),
        ("speculative", spec.speculative.is_some()),
        ("injection-latency", spec.injection_latency.is_some()),
        ("ejection-latency", spec.ejection_latency.is_some()),
        ("ejection", spec.ejection.is_some()),
        ("dateline-class", spec.dateline_class.is_some()),
        ("allocator", spec.allocator.is_some()),
        ("vc-choice", spec.vc_choice.is_some()),
        ("link-latency", spec.link_latency.is_some()),
        ("packet", spec.packet.is_some()),
        ("switching", spec.switching.is_some()),
        ("arbitration", spec.arbitration.is_some()),
        ("deadlock", spec.deadlock.is_some()),
        ("local-latency", spec.local_latency.is_some()),
        ("global-latency", spec.global_latency.is_some()),
        ("class-latency", spec.class_latency.is_some()),
    ];
    if spec.kind.unwrap_or_default() == RouterKind::Ideal {
        if let Some((key, _)) = given.iter().find(|g| g.1) {
            return Err(error(
                &format!("router.{key}"),
                &["router.kind"],
                format!(
                    "router.{key} belongs to the virtual-channel router (router.kind = vc): the ideal switch has unbounded output queues, one-cycle hops and whole messages"
                ),
            ));
        }
        return Ok(Router::Ideal(engine));
    }
    if let (Some(_), Some((key, _))) = (spec.router_delay, stage_given.iter().find(|g| g.1)) {
        return Err(error(
            "router.router-delay",
            &[&format!("router.{key}")],
            format!(
                "router.router-delay is the shorthand for a pipeline without per-packet stages (r = switch-alloc-delay + traversal-delay, routing and VC allocation 0): give it or router.{key}, not both"
            ),
        ));
    }
    // A preset's values for every key not given; then the pipeline: r alone (router-delay, or
    // the preset's r when no stage is given) or stages, each stage not given from the preset.
    let d = spec.preset.map_or(VcParams::DEFAULT, Preset::params);
    let stages = if spec.router_delay.is_some() {
        None
    } else if stage_given.iter().any(|g| g.1) || d.stages.is_some() {
        let s = d.stages.unwrap_or_default();
        Some(Stages {
            routing: spec.routing_delay.unwrap_or(s.routing),
            vc_alloc: spec.vc_alloc_delay.unwrap_or(s.vc_alloc),
            switch_alloc: spec.switch_alloc_delay.unwrap_or(s.switch_alloc),
            traversal: spec.traversal_delay.unwrap_or(s.traversal),
            speculative: spec.speculative.unwrap_or(s.speculative),
        })
    } else {
        None
    };
    let mut p = VcParams {
        vcs: spec.vcs.unwrap_or(d.vcs),
        buffer: spec.buffer.unwrap_or(d.buffer),
        output_buffer: spec.output_buffer.unwrap_or(d.output_buffer),
        input_speedup: spec.input_speedup.unwrap_or(d.input_speedup),
        output_speedup: spec.output_speedup.unwrap_or(d.output_speedup),
        router_delay: match stages {
            Some(s) => s.switch_alloc.saturating_add(s.traversal),
            None => spec.router_delay.unwrap_or(d.router_delay),
        },
        stages,
        injection_latency: spec.injection_latency.unwrap_or(d.injection_latency),
        ejection_latency: spec.ejection_latency.unwrap_or(d.ejection_latency),
        ejection: spec.ejection.unwrap_or(d.ejection),
        dateline_class: spec.dateline_class.unwrap_or(d.dateline_class),
        allocator: spec.allocator.unwrap_or(d.allocator),
        vc_choice: spec.vc_choice.unwrap_or(d.vc_choice),
        link_latency: spec.link_latency.unwrap_or(d.link_latency),
        packet: spec.packet.unwrap_or(d.packet),
        switching: spec.switching.unwrap_or(d.switching),
        arbitration: spec.arbitration.unwrap_or(d.arbitration),
        deadlock: spec.deadlock.unwrap_or(d.deadlock),
    };
    if engine != EngineKind::Fast {
        return Err(error(
            "run.engine",
            &["router.kind"],
            "run.engine = reference chooses the ideal switch's flit-by-flit engine: the virtual-channel router has one engine",
        ));
    }
    if p.buffer > netwrap_engine::vc::MAX_VC_BUFFER {
        return Err(error(
            "router.buffer",
            &[],
            format!(
                "router.buffer = {}: must be from 1 to {} flits (an input VC counts its flits in 16 bits)",
                p.buffer,
                netwrap_engine::vc::MAX_VC_BUFFER
            ),
        ));
    }
    for (key, value, min) in [
        ("vcs", p.vcs, 1),
        ("buffer", p.buffer, 1),
        ("output-buffer", p.output_buffer, 0),
        ("input-speedup", p.input_speedup, 1),
        ("output-speedup", p.output_speedup, 1),
        ("router-delay", p.router_delay, 0),
        ("routing-delay", p.stages.map_or(0, |s| s.routing), 0),
        ("vc-alloc-delay", p.stages.map_or(0, |s| s.vc_alloc), 0),
        ("switch-alloc-delay", p.stages.map_or(0, |s| s.switch_alloc), 0),
        ("traversal-delay", p.stages.map_or(0, |s| s.traversal), 0),
        ("injection-latency", p.injection_latency, 0),
        ("ejection-latency", p.ejection_latency, 0),
        ("link-latency", p.link_latency, 1),
        ("packet", p.packet, 1),
    ] {
        if value < min || value > MAX_VC_PARAM {
            let why = if key == "link-latency" {
                " (a flit sent in a cycle reaches the next router in a later one)"
            } else {
                ""
            };
            return Err(error(
                &format!("router.{key}"),
                &[],
                format!("router.{key} = {value}: must be from {min} to {MAX_VC_PARAM}{why}"),
            ));
        }
    }
    if p.switching != Switching::Wormhole && p.buffer < p.packet {
        return Err(error(
            "router.buffer",
            &["router.packet", "router.switching"],
            format!(
                "router.buffer = {} is below router.packet = {}: {} switching takes a virtual channel only with room for a whole packet, so no packet could ever move",
                p.buffer,
                p.packet,
                if p.switching == Switching::Vct { "vct" } else { "saf" }
            ),
        ));
    }
    if p.output_buffer > 0 && p.switching != Switching::Wormhole && p.output_buffer < p.packet {
        return Err(error(
            "router.output-buffer",
            &["router.packet", "router.switching"],
            format!(
                "router.output-buffer = {} is below router.packet = {}: {} switching takes an output buffer only with room for a whole packet, so no packet could ever cross the switch",
                p.output_buffer,
                p.packet,
                if p.switching == Switching::Vct { "vct" } else { "saf" }
            ),
        ));
    }
    if p.output_speedup > 1 && p.output_buffer == 0 {
        return Err(error(
            "router.output-speedup",
            &["router.output-buffer"],
            format!(
                "router.output-speedup = {} needs router.output-buffer: without output buffers a channel's link carries what the switch gives it, one grant a cycle",
                p.output_speedup
            ),
        ));
    }
    if let Some((key, speedup)) = [("input-speedup", p.input_speedup), ("output-speedup", p.output_speedup)]
        .into_iter()
        .find(|s| s.1 > 1)
        && p.allocator != Allocator::Greedy
    {
        return Err(error(
            &format!("router.{key}"),
            &["router.allocator"],
            format!(
                "router.{key} = {speedup} needs router.allocator = greedy: the separable allocators grant each input and output port once a cycle"
            ),
        ));
    }
    // (A preset's dateline rule matters only with a dateline.)
    if p.deadlock != Avoidance::Dateline {
        p.dateline_class = DatelineClass::AtWrap;
    }
    if spec.dateline_class.is_some() && p.deadlock != Avoidance::Dateline {
        return Err(error(
            "router.dateline-class",
            &["router.deadlock"],
            "router.dateline-class chooses the dateline's VC classes: it needs router.deadlock = dateline",
        ));
    }
    if p.deadlock == Avoidance::Dateline && p.dateline_class == DatelineClass::ByRoute {
        let bidirectional = matches!(
            topology,
            TopologySpec::Torus { bidirectional: true, .. } | TopologySpec::Ring { bidirectional: true, .. }
        );
        if !bidirectional {
            return Err(error(
                "router.dateline-class",
                &["router.deadlock", "topology.bidirectional"],
                "router.dateline-class = by-route is deadlock-free where a route covers at most half a ring, on bidirectional tori and rings (BookSim2's tori are bidirectional): on a unidirectional ring the routes that take the wrap-around channel cover the whole ring in the upper class; use --bidirectional or --dateline-class at-wrap",
            ));
        }
        if routing.algorithm != RoutingAlgorithm::Family || routing.paths().choice != PathChoice::Minimal {
            return Err(error(
                "router.dateline-class",
                &["routing.algorithm"],
                "router.dateline-class = by-route chooses a class from the route a packet will take, so it needs one route per pair: the torus's dimension-order routing (--routing family, no non-minimal paths)",
            ));
        }
    }
    avoidance(&p, topology, routing)?;
    Ok(Router::Vc(p))
}

/// Whether the deadlock avoidance `p.deadlock` applies to this family and routing with these
/// parameters.
fn avoidance(p: &VcParams, topology: &TopologySpec, routing_spec: &RoutingSpec) -> Result<(), SimError> {
    let routing = routing_spec.algorithm;
    let rings = matches!(
        topology,
        TopologySpec::Torus { .. } | TopologySpec::Ring { .. } | TopologySpec::Midimew { .. }
    );
    let family = topology.family();
    let dragonfly = matches!(topology, TopologySpec::Dragonfly { .. });
    if routing.path_choice() != PathChoice::Minimal
        && matches!(p.deadlock, Avoidance::Dateline | Avoidance::Bubble | Avoidance::Escape)
    {
        return Err(error(
            "router.deadlock",
            &["routing.algorithm"],
            format!(
                "router.deadlock = {} protects the family's minimal routes, and routing '{}' sends messages through an intermediate: use router.deadlock = phases (VC classes by route phase; `netwrap check` proves them) or none",
                <&str>::from(p.deadlock),
                routing.name()
            ),
        ));
    }
    match p.deadlock {
        Avoidance::None | Avoidance::Updown => {}
        // The classes `phases` needs depend on the built network: checked when it is built.
        Avoidance::Phases => {}
        Avoidance::DestGroup => {
            if !dragonfly {
                return Err(error(
                    "router.deadlock",
                    &[],
                    format!(
                        "router.deadlock = dest-group splits the VCs by the packet's destination group: it applies to dragonflies, not to a {family} (use phases)"
                    ),
                ));
            }
            if p.vcs < 2 {
                return Err(error(
                    "router.deadlock",
                    &["router.vcs"],
                    format!(
                        "router.deadlock = dest-group needs two classes of virtual channels, router.vcs >= 2, not {}",
                        p.vcs
                    ),
                ));
            }
        }
        Avoidance::Dateline => {
            if !matches!(topology, TopologySpec::Torus { .. } | TopologySpec::Ring { .. }) {
                return Err(error(
                    "router.deadlock",
                    &[],
                    format!(
                        "router.deadlock = dateline is built for the rings of tori (torus, ring): a {family} has no wrap-around channel to mark (bubble and escape cover Midimews)"
                    ),
                ));
            }
            if p.vcs < 2 {
                return Err(error(
                    "router.deadlock",
                    &["router.vcs"],
                    format!(
                        "router.deadlock = dateline needs two classes of virtual channels, router.vcs >= 2, not {}",
                        p.vcs
                    ),
                ));
            }
        }
        Avoidance::Bubble => {
            if !rings {
                return Err(error(
                    "router.deadlock",
                    &[],
                    format!(
                        "router.deadlock = bubble protects the rings of tori and Midimews (torus, ring, midimew): a {family}'s cycles are not rings of one dimension"
                    ),
                ));
            }
            if matches!(topology, TopologySpec::Midimew { .. }) && routing != RoutingAlgorithm::Record {
                return Err(error(
                    "router.deadlock",
                    &["routing.algorithm"],
                    "router.deadlock = bubble on a Midimew needs dimension-order routing, routing.algorithm = record: the Midimew's own routing takes any minimal next hop, whose turns between rings Bubble flow control does not protect (for adaptive routing use router.deadlock = escape)",
                ));
            }
        }
        Avoidance::Escape => {
            let known =
                rings || matches!(topology, TopologySpec::Mesh { .. } | TopologySpec::Hypercube { .. });
            let midimew = matches!(topology, TopologySpec::Midimew { .. });
            if !known || (routing == RoutingAlgorithm::Table && !midimew) {
                return Err(error(
                    "router.deadlock",
                    &["routing.algorithm"],
                    format!(
                        "router.deadlock = escape needs a dimension-order escape routing: tori, rings, meshes and hypercubes under their own routing, and Midimews (escaping by the routing record), not a {family} routed by '{}'",
                        routing.name()
                    ),
                ));
            }
            if p.vcs < 2 {
                return Err(error(
                    "router.deadlock",
                    &["router.vcs"],
                    format!(
                        "router.deadlock = escape needs an escape VC and at least one adaptive VC, router.vcs >= 2, not {}",
                        p.vcs
                    ),
                ));
            }
        }
    }
    if matches!(p.deadlock, Avoidance::Bubble | Avoidance::Escape) {
        let name = if p.deadlock == Avoidance::Bubble { "bubble" } else { "escape" };
        if p.switching != Switching::Vct {
            return Err(error(
                "router.deadlock",
                &["router.switching"],
                format!(
                    "router.deadlock = {name} needs router.switching = vct: Puente et al.'s Bubble flow control{} is defined on virtual cut-through, where a packet moves only into room for all of it and the free space counts in whole packets; a wormhole packet spreads over several routers",
                    if name == "escape" { " and adaptive router" } else { "" }
                ),
            ));
        }
        if rings && p.buffer < 2 * p.packet {
            return Err(error(
                "router.deadlock",
                &["router.buffer", "router.packet"],
                format!(
                    "router.deadlock = {name} needs router.buffer >= 2 x router.packet = {}, not {}: a packet enters a ring only with room for two",
                    2 * p.packet,
                    p.buffer
                ),
            ));
        }
        if rings && p.output_buffer > 0 && p.output_buffer < 2 * p.packet {
            return Err(error(
                "router.deadlock",
                &["router.output-buffer", "router.packet"],
                format!(
                    "router.deadlock = {name} needs router.output-buffer >= 2 x router.packet = {}, not {}: a packet enters a ring only with room for two, in the output buffer as downstream",
                    2 * p.packet,
                    p.output_buffer
                ),
            ));
        }
    }
    Ok(())
}

/// Checks that the virtual-channel router can carry replies as `reply` asks: on the same
/// network requests and replies take separate halves of every channel's VCs (so a reply never
/// waits behind a request: no protocol deadlock), and each half must suit the deadlock
/// avoidance. A separate reply network is checked once built ([`crate::Experiment::build`]).
fn reply_classes(reply: &Reply, p: &VcParams) -> Result<(), SimError> {
    if reply.size == 0 || reply.network == ReplyNetwork::Separate {
        return Ok(());
    }
    let need = match p.deadlock {
        Avoidance::Dateline | Avoidance::Escape => 4,
        _ => 2,
    };
    if p.vcs < need {
        return Err(error(
            "router.vcs",
            &["workload.reply.network"],
            format!(
                "router.vcs = {}: replies on the request network take half of every channel's virtual channels and requests the other half{}, so at least {need} are needed (or replies on a separate network)",
                p.vcs,
                if need == 4 {
                    format!(", and router.deadlock = {:?} needs two in each half", p.deadlock).to_lowercase()
                } else {
                    String::new()
                }
            ),
        ));
    }
    Ok(())
}

/// The routing section under `router.deadlock = updown`, which replaces the family's routing:
/// `family`, without a dimension order (none is followed).
fn updown_routing(routing: &RoutingSpec) -> Result<RoutingSpec, SimError> {
    if routing.algorithm != RoutingAlgorithm::Family {
        return Err(error(
            "routing.algorithm",
            &["router.deadlock"],
            format!(
                "router.deadlock = updown routes every message up*/down* (Schroeder et al. 1991), in place of the family's routing: routing.algorithm = {} cannot apply as well; leave it at family",
                routing.algorithm.name()
            ),
        ));
    }
    if routing.order.is_some() {
        return Err(error(
            "routing.order",
            &["router.deadlock"],
            "router.deadlock = updown routes every message up*/down* (Schroeder et al. 1991), in place of dimension-order routing: routing.order does not apply",
        ));
    }
    if routing.up_port.is_some() {
        return Err(error(
            "routing.up-port",
            &["router.deadlock"],
            "router.deadlock = updown routes every message up*/down* (Schroeder et al. 1991), in place of nearest-common-ancestor routing: routing.up-port does not apply",
        ));
    }
    Ok(RoutingSpec { algorithm: RoutingAlgorithm::Family, ..Default::default() })
}

/// The collective asked for (`workload.collective`), checked as far as it can be without the
/// network; `None` without one. With a collective the keys describing open-loop sources
/// must be left out, as must `run.messages` (a collective runs to completion).
fn collective(w: &WorkloadSpec, run: &RunControl) -> Result<Option<CollectiveSource>, SimError> {
    let c: &CollectiveSpec = &w.collective;
    let Some(kind) = c.kind else {
        let given = [
            ("collective.ranks", c.ranks.is_some()),
            ("collective.iterations", c.iterations.is_some()),
            ("collective.compute", c.compute.is_some()),
            ("collective.schedule", c.schedule.is_some()),
            ("collective.grid", c.grid.is_some()),
            ("placement", w.placement.is_some() && w.trace.is_none()),
            ("placement-file", w.placement_file.is_some() && w.trace.is_none()),
        ];
        if let Some((key, _)) = given.iter().find(|g| g.1) {
            return Err(error(
                &format!("workload.{key}"),
                &["workload.collective.kind"],
                format!(
                    "workload.{key} belongs to a collective: choose one with workload.collective.kind (--collective)"
                ),
            ));
        }
        return Ok(None);
    };
    let given = [[("trace", w.trace.is_some())].as_slice(), &sources_keys(w)].concat();
    if let Some((key, _)) = given.iter().find(|g| g.1) {
        return Err(error(
            &format!("workload.{key}"),
            &["workload.collective.kind"],
            format!(
                "workload.{key} does not apply with workload.collective.kind = {}: the collective says what every rank sends, to whom and when (workload.size is the data per rank)",
                kind.name()
            ),
        ));
    }
    if run.messages.is_some() {
        return Err(error(
            "run.messages",
            &["workload.collective.kind"],
            format!(
                "run.messages does not apply with workload.collective.kind = {}: a collective runs to completion, every one of its messages measured",
                kind.name()
            ),
        ));
    }
    let iterations = c.iterations.unwrap_or(1);
    if iterations == 0 {
        return Err(error(
            "workload.collective.iterations",
            &[],
            "workload.collective.iterations = 0: a collective runs at least once",
        ));
    }
    if c.ranks == Some(0) {
        return Err(error(
            "workload.collective.ranks",
            &[],
            "workload.collective.ranks = 0: a collective needs at least one rank",
        ));
    }
    if c.schedule.is_some() && kind != CollectiveKind::Alltoall {
        return Err(error(
            "workload.collective.schedule",
            &["workload.collective.kind"],
            format!(
                "workload.collective.schedule orders an all-to-all's rounds: it does not apply to {}",
                kind.name()
            ),
        ));
    }
    let grid = match (&c.grid, kind.grid_dimensions()) {
        (None, _) => None,
        (Some(_), None) => {
            return Err(error(
                "workload.collective.grid",
                &["workload.collective.kind"],
                format!(
                    "workload.collective.grid is a halo exchange's process grid: it does not apply to {}",
                    kind.name()
                ),
            ));
        }
        (Some(g), Some(d)) if g.len() != d || g.contains(&0) => {
            return Err(error(
                "workload.collective.grid",
                &[],
                format!("workload.collective.grid = {g:?}: {} takes {d} sides, each at least 1", kind.name()),
            ));
        }
        (Some(g), Some(_)) => Some(g.clone()),
    };
    let placement = match (w.placement, &w.placement_file) {
        (None, Some(_)) | (Some(Placement::File), Some(_)) => Placement::File,
        (Some(Placement::File), None) => {
            return Err(error(
                "workload.placement",
                &["workload.placement-file"],
                "workload.placement = file reads the ranks' nodes from workload.placement-file (--placement-file FILE): give it",
            ));
        }
        (Some(p), Some(_)) => {
            return Err(error(
                "workload.placement-file",
                &["workload.placement"],
                format!("workload.placement-file is read with workload.placement = file, not {}", p.name()),
            ));
        }
        (p, None) => p.unwrap_or_default(),
    };
    if placement == Placement::Block && kind.grid_dimensions().is_none() {
        return Err(error(
            "workload.placement",
            &["workload.collective.kind"],
            format!(
                "workload.placement = block maps a halo exchange's process grid onto a torus's coordinates: {} has no process grid (use linear, random or file)",
                kind.name()
            ),
        ));
    }
    Ok(Some(CollectiveSource {
        kind,
        ranks: c.ranks,
        iterations,
        compute: c.compute.unwrap_or(0),
        schedule: c.schedule.unwrap_or_default(),
        grid,
        placement,
        placement_file: w.placement_file.clone(),
    }))
}

/// An open-loop source's on/off parameters, checked at `rate` (see
/// [`netwrap_engine::workload`]): with `interval = on-off` a burst of at least one cycle, an
/// idle spell of at least one if given, and a rate they can offer; neither key otherwise.
fn on_off(p: &ProcessorSpec, rate: f64) -> Result<Option<OnOff>, SimError> {
    if p.interval != Some(Interval::OnOff) {
        if let Some(key) = [("burst", p.burst.is_some()), ("idle", p.idle.is_some())].iter().find(|k| k.1) {
            return Err(error(
                &format!("workload.processor.{}", key.0),
                &["workload.processor.interval"],
                format!(
                    "workload.processor.{} is an on/off source's: it applies with workload.processor.interval = on-off (--interval on-off)",
                    key.0
                ),
            ));
        }
        return Ok(None);
    }
    let Some(burst) = p.burst else {
        return Err(error(
            "workload.processor.burst",
            &["workload.processor.interval"],
            "workload.processor.interval = on-off needs workload.processor.burst (--burst): the mean cycles a source stays on",
        ));
    };
    for (key, x) in [("burst", Some(burst)), ("idle", p.idle)] {
        if let Some(x) = x
            && !(x.is_finite() && (1.0..=1e12).contains(&x))
        {
            return Err(error(
                &format!("workload.processor.{key}"),
                &[],
                format!(
                    "workload.processor.{key} = {}: a mean {} in cycles, from 1 to 1e12",
                    num(x),
                    if key == "burst" { "burst" } else { "idle spell" }
                ),
            ));
        }
    }
    let o = OnOff { burst, idle: p.idle };
    o.at(rate).map_err(|why| {
        let key = if p.idle.is_some() { "workload.processor.idle" } else { "workload.processor.burst" };
        error(
            key,
            &["workload.rate", "workload.load"],
            format!("workload.processor.interval = on-off: {why}"),
        )
    })?;
    Ok(Some(o))
}

/// The workload keys of synthetic sources (rate, pattern, processors, replies), and whether
/// each is given: what a trace or a collective replaces.
fn sources_keys(w: &WorkloadSpec) -> [(&'static str, bool); 16] {
    [
        ("rate", w.rate.is_some()),
        ("load", w.load.is_some()),
        ("long-size", w.long_size.is_some()),
        ("long-fraction", w.long_fraction.is_some()),
        ("pattern", w.pattern.is_some_and(|p| p != PatternKind::Uniform)),
        ("locality", w.locality.is_some()),
        ("shift", w.shift.is_some()),
        ("hotspots", w.hotspots.is_some()),
        ("hotspot-fraction", w.hotspot_fraction.is_some()),
        ("self-traffic", w.self_traffic.is_some()),
        ("mapping", w.mapping.is_some()),
        ("processor.threads", w.processor.threads.is_some_and(|t| t != Threads::Unbounded)),
        ("processor.interval", w.processor.interval.is_some_and(|i| i != Interval::Geometric)),
        ("processor.burst", w.processor.burst.is_some()),
        ("processor.idle", w.processor.idle.is_some()),
        ("reply", !w.reply.is_empty()),
    ]
}

/// The trace of `workload.trace` = `path` with its options: the format, the flit's bytes and the
/// placement (checked against the file when the experiment is built), and placement file and
/// placement agreeing as for a collective.
fn trace_input(
    w: &WorkloadSpec,
    path: &std::path::Path,
    messages: Option<u64>,
) -> Result<TraceInput, SimError> {
    if w.flit_bytes == Some(0) {
        return Err(error(
            "workload.flit-bytes",
            &[],
            "workload.flit-bytes = 0: a flit carries at least one byte",
        ));
    }
    match (w.placement, &w.placement_file) {
        (Some(Placement::File), None) => {
            return Err(error(
                "workload.placement",
                &["workload.placement-file"],
                "workload.placement = file reads the ranks' nodes from workload.placement-file (--placement-file FILE): give it",
            ));
        }
        (Some(p), Some(_)) if p != Placement::File => {
            return Err(error(
                "workload.placement-file",
                &["workload.placement"],
                format!("workload.placement-file is read with workload.placement = file, not {}", p.name()),
            ));
        }
        _ => {}
    }
    let format = match w.trace_format {
        Some(f) => f,
        None => crate::trace::detect(path)?,
    };
    if !format.ranked() {
        let f = format;
        for (key, given) in [
            ("flit-bytes", w.flit_bytes.is_some()),
            ("placement", w.placement.is_some()),
            ("placement-file", w.placement_file.is_some()),
        ] {
            if given {
                return Err(error(
                    &format!("workload.{key}"),
                    &["workload.trace-format"],
                    format!(
                        "workload.{key} does not apply with workload.trace-format = {}: its records name the network's nodes and sizes in flits (it applies to netrace and dumpi traces, whose ranks it places)",
                        f.name()
                    ),
                ));
            }
        }
    }
    Ok(TraceInput {
        path: path.to_path_buf(),
        format,
        flit_bytes: w.flit_bytes,
        placement: w.placement,
        placement_file: w.placement_file.clone(),
        messages,
    })
}

/// With `workload.trace`, the trace says what every message is: the keys that describe the
/// sources (rate, sizes, pattern, processors, memories) must be left out.
fn trace_alone(w: &WorkloadSpec, path: &std::path::Path) -> Result<(), SimError> {
    let size = ("size", w.size.is_some_and(|s| s != defaults::SIZE));
    let mut given = sources_keys(w).to_vec();
    given.insert(2, size);
    if let Some((key, _)) = given.iter().find(|g| g.1) {
        return Err(error(
            &format!("workload.{key}"),
            &["workload.trace"],
            format!(
                "workload.{key} does not apply with workload.trace = {}: the trace gives every message's cycle, source, destination and size, and what it waits for",
                path.display()
            ),
        ));
    }
    Ok(())
}

impl Resolved {
    /// The request rate m (the default's with a trace, which offers what it holds).
    pub fn rate(&self) -> f64 {
        match self.workload.source {
            Source::Open { rate, .. } | Source::Threads { rate, .. } => rate,
            Source::Trace(_) | Source::Collective(_) => defaults::RATE,
        }
    }

    /// This point at request rate `rate` (a saturation search's probe): the rate replaces the
    /// given one.
    pub fn with_rate(&self, rate: f64) -> Resolved {
        let mut r = self.clone();
        if let Source::Open { rate: m, .. } | Source::Threads { rate: m, .. } = &mut r.workload.source {
            *m = rate;
        }
        r
    }

    /// Whether processors wait for their accesses (a closed loop).
    pub fn closed_loop(&self) -> bool {
        matches!(self.workload.source, Source::Threads { .. })
    }

    /// Whether memories send reply messages.
    pub fn replies(&self) -> bool {
        self.workload.reply.is_some_and(|r| r.size != 0)
    }

    /// Whether the network is routed up*/down* (`router.deadlock = updown`, virtual-channel
    /// router) instead of by its `routing` section.
    pub fn updown(&self) -> bool {
        self.router.vc().is_some_and(|p| p.deadlock == Avoidance::Updown)
    }

    /// The builders' description of the network with its routing: the family under `routing`,
    /// or with `router.deadlock = updown` the family routed up*/down*.
    pub fn shape(&self) -> Result<Shape, SimError> {
        let shape = shape_of(&self.topology, &self.routing)?;
        Ok(if self.updown() { Shape::UpDown { of: Box::new(shape) } } else { shape })
    }

    /// What decides the built part of the experiment (see [`BuildKey`]).
    pub fn build_key(&self) -> BuildKey {
        let w = &self.workload;
        BuildKey {
            topology: self.topology.clone(),
            routing: self.routing.clone(),
            destinations: w.destinations.clone(),
            self_traffic: w.self_traffic,
            mapping: w.mapping,
            permutation_seed: (w.destinations.kind() == PatternKind::Permutation).then_some(self.run.seed),
            updown: self.updown(),
            replies: w.reply.filter(|r| r.size != 0).map(|r| r.network),
            trace: match &w.source {
                Source::Trace(t) => Some(t.clone()),
                _ => None,
            },
        }
    }

    /// The spec with every key written: a result's `config`, which resolves to this again.
    /// The warm-up is written when known (a plan fills the default in).
    pub fn written(&self) -> SimSpec {
        let w = &self.workload;
        let (rate, processor) = match &w.source {
            Source::Open { rate, interval: Interval::Geometric, .. } => {
                (Some(*rate), ProcessorSpec::default())
            }
            Source::Open { rate, interval, on_off } => (
                Some(*rate),
                ProcessorSpec {
                    threads: Some(Threads::Unbounded),
                    interval: Some(*interval),
                    burst: on_off.map(|o| o.burst),
                    idle: on_off.and_then(|o| o.idle),
                },
            ),
            Source::Threads { rate, interval, threads } => (
                Some(*rate),
                ProcessorSpec {
                    threads: Some(Threads::Count(*threads)),
                    interval: Some(*interval),
                    ..ProcessorSpec::default()
                },
            ),
            Source::Trace(_) | Source::Collective(_) => (None, ProcessorSpec::default()),
        };
        let (size, long_size, long_fraction) = match w.size {
            MessageSize::Fixed(b) => (b, None, None),
            MessageSize::Bimodal { short, long, long_fraction } => (short, Some(long), Some(long_fraction)),
        };
        let shift = match w.destinations {
            Destinations::GroupShift(s) | Destinations::DimensionShift(s) => Some(s),
            _ => None,
        };
        let (hotspots, hotspot_fraction, locality) = match &w.destinations {
            Destinations::Hotspot { nodes, fraction } => (Some(nodes.clone()), Some(*fraction), None),
            Destinations::Locality(l) => (None, None, Some(*l)),
            _ => (None, None, None),
        };
        let router = match self.router {
            Router::Ideal(_) => RouterSpec { kind: Some(RouterKind::Ideal), ..RouterSpec::default() },
            Router::Vc(p) => RouterSpec {
                kind: Some(RouterKind::Vc),
                vcs: Some(p.vcs),
                buffer: Some(p.buffer),
                output_buffer: (p.output_buffer != 0).then_some(p.output_buffer),
                input_speedup: (p.input_speedup != 1).then_some(p.input_speedup),
                output_speedup: (p.output_speedup != 1).then_some(p.output_speedup),
                // The pipeline as it was given: r alone, or every stage (r follows from them).
                router_delay: p.stages.is_none().then_some(p.router_delay),
                routing_delay: p.stages.map(|s| s.routing),
                vc_alloc_delay: p.stages.map(|s| s.vc_alloc),
                switch_alloc_delay: p.stages.map(|s| s.switch_alloc),
                traversal_delay: p.stages.map(|s| s.traversal),
                speculative: p.stages.map(|s| s.speculative),
                // The keys netwrap's default leaves out are written only when set.
                injection_latency: (p.injection_latency != 0).then_some(p.injection_latency),
                ejection_latency: (p.ejection_latency != 0).then_some(p.ejection_latency),
                ejection: (p.ejection != Ejection::OnePacket).then_some(p.ejection),
                dateline_class: (p.deadlock == Avoidance::Dateline
                    && p.dateline_class != DatelineClass::AtWrap)
                    .then_some(p.dateline_class),
                preset: None,
                allocator: (p.allocator != Allocator::Greedy).then_some(p.allocator),
                vc_choice: (p.vc_choice != VcChoice::Lowest).then_some(p.vc_choice),
                link_latency: Some(p.link_latency),
                packet: Some(p.packet),
                switching: Some(p.switching),
                arbitration: Some(p.arbitration),
                deadlock: Some(p.deadlock),
                local_latency: None,
                global_latency: None,
                class_latency: (!self.class_latency.is_empty())
                    .then(|| crate::spec::ClassLatency(self.class_latency.clone())),
            },
        };
        let engine = match self.router {
            Router::Ideal(e) => e,
            Router::Vc(_) => EngineKind::Fast,
        };
        SimSpec {
            topology: self.topology.clone(),
            routing: self.routing.clone(),
            router,
            workload: WorkloadSpec {
                rate,
                load: None,
                size: Some(size),
                long_size,
                long_fraction,
                // A collective says where its messages go.
                pattern: (!matches!(w.source, Source::Collective(_))).then_some(w.destinations.kind()),
                locality,
                shift,
                hotspots,
                hotspot_fraction,
                self_traffic: (w.self_traffic != SelfTraffic::Include).then_some(w.self_traffic),
                // Written where it is not the default: `network` on a Midimew with a layout.
                mapping: (w.mapping == Mapping::Network
                    && matches!(self.topology, TopologySpec::Midimew { nodes: Some(n) } if netwrap_topo::midimew_layout(n).is_some()))
                .then_some(Mapping::Network),
                processor,
                reply: w.reply.map_or(ReplySpec::default(), |r| ReplySpec {
                    memory_latency: Some(r.memory_latency),
                    size: Some(r.size),
                    network: Some(r.network),
                }),
                trace: match &w.source {
                    Source::Trace(t) => Some(t.path.clone()),
                    _ => None,
                },
                // A netrace trace's or a dump's format is written (a CSV's and a JSON lines'
                // come from the file again), with its options as given.
                trace_format: match &w.source {
                    Source::Trace(t) if t.format.ranked() => Some(t.format),
                    _ => None,
                },
                flit_bytes: match &w.source {
                    Source::Trace(t) => t.flit_bytes,
                    _ => None,
                },
                collective: match &w.source {
                    Source::Collective(c) => CollectiveSpec {
                        kind: Some(c.kind),
                        ranks: c.ranks,
                        iterations: Some(c.iterations),
                        compute: Some(c.compute),
                        schedule: (c.kind == CollectiveKind::Alltoall).then_some(c.schedule),
                        grid: c.grid.clone(),
                    },
                    _ => CollectiveSpec::default(),
                },
                placement: match &w.source {
                    Source::Collective(c) => Some(c.placement),
                    Source::Trace(t) => t.placement,
                    _ => None,
                },
                placement_file: match &w.source {
                    Source::Collective(c) => c.placement_file.clone(),
                    Source::Trace(t) => t.placement_file.clone(),
                    _ => None,
                },
            },
            run: RunControl {
                warmup: match self.run.warmup {
                    Warmup::Cycles(c) => Some(c),
                    Warmup::Default => None,
                },
                // A collective runs to completion, as does a netrace trace or a dump unless
                // asked for fewer messages.
                messages: match &w.source {
                    Source::Collective(_) => None,
                    Source::Trace(t) if t.format.ranked() => t.messages,
                    _ => Some(self.run.messages),
                },
                max_cycles: Some(self.run.max_cycles),
                seed: Some(self.run.seed),
                engine: Some(engine),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(edit: impl FnOnce(&mut SimSpec), path: &str, fragment: &str) {
        let mut s = SimSpec::default();
        edit(&mut s);
        let e = s.resolve().unwrap_err();
        let SimError::Spec(e) = &e else { panic!("{e:?}") };
        assert_eq!(e.path, path, "{e}");
        assert!(e.to_string().contains(fragment), "{e}");
    }

    /// Every invalid value's error names its field by its path, and its message says why.
    #[test]
    fn every_invalid_value_names_its_key() {
        bad(|s| s.workload.rate = Some(f64::NAN), "workload.rate", "workload.rate = NaN");
        bad(|s| s.workload.rate = Some(1e-320 - 1.0), "workload.rate", "workload.rate");
        bad(|s| s.workload.rate = Some(2.0), "workload.rate", "(0, 1]");
        bad(|s| s.workload.size = Some(0), "workload.size", "workload.size = 0");
        bad(|s| s.workload.locality = Some(0.0), "workload.locality", "workload.locality = 0");
        bad(
            |s| s.workload.pattern = Some(PatternKind::Locality),
            "workload.locality",
            "needs workload.locality",
        );
        bad(|s| s.run.messages = Some(0), "run.messages", "run.messages = 0");
        bad(|s| s.run.messages = Some(u64::MAX), "run.messages", "at most");
        bad(|s| s.run.max_cycles = Some(0), "run.max-cycles", "run.max-cycles = 0");
        bad(|s| s.run.warmup = Some(100_000_000_000), "run.warmup", "no cycle would be measured");
        bad(
            |s| {
                s.router.kind = Some(RouterKind::Vc);
                s.router.buffer = Some(4);
                s.router.switching = Some(Switching::Vct);
            },
            "router.buffer",
            "below router.packet = 16",
        );
        bad(|s| s.router.vcs = Some(2), "router.vcs", "belongs to the virtual-channel router");
        bad(
            |s| {
                s.topology = TopologySpec::FatTree { nodes: None };
                s.workload.locality = Some(0.5);
            },
            "workload.locality",
            "a fat-tree has none",
        );
    }

    #[test]
    fn error_messages_stay_short_for_extreme_values() {
        let mut s = SimSpec::default();
        s.workload.rate = Some(f64::MAX);
        let e = s.resolve().unwrap_err().to_string();
        assert!(e.len() < 200 && e.contains("1.7976931348623157e308"), "{e}");
    }

    #[test]
    fn locality_one_is_uniform_and_a_fraction_selects_the_pattern() {
        let mut s = SimSpec::default();
        s.workload.locality = Some(1.0);
        assert_eq!(s.resolve().unwrap().workload.destinations, Destinations::Uniform);
        s.workload.locality = Some(0.5);
        assert_eq!(s.resolve().unwrap().workload.destinations, Destinations::Locality(0.5));
    }

    /// Verification of the round trip: a resolved spec written out resolves to itself, on
    /// specs that exercise every section's alternatives.
    #[test]
    fn written_specs_resolve_to_themselves() {
        let specs = [
            "{}",
            r#"{"workload": {"load": 0.2, "size": 8, "long-size": 40, "long-fraction": 0.1}}"#,
            r#"{"topology": {"family": "torus", "k": 4, "nodes": 100}, "workload": {"locality": 0.5}}"#,
            r#"{"router": {"kind": "vc", "switching": "vct", "deadlock": "dateline"}, "topology": {"family": "torus", "bidirectional": true}}"#,
            r#"{"workload": {"pattern": "hotspot", "hotspots": [1, 2], "hotspot-fraction": 0.2, "processor": {"threads": 2}}}"#,
            r#"{"workload": {"processor": {"interval": "periodic"}, "reply": {"memory-latency": 3}}, "run": {"seed": 5, "warmup": 20}}"#,
            r#"{"router": {"kind": "vc", "deadlock": "updown"}, "topology": {"family": "fat-tree"}}"#,
            r#"{"workload": {"rate": 0.1, "processor": {"interval": "on-off", "burst": 4}}}"#,
            r#"{"workload": {"rate": 0.1, "processor": {"interval": "on-off", "burst": 4, "idle": 12}}}"#,
            r#"{"workload": {"trace": "a.tra.bz2", "placement": "random", "flit-bytes": 8}}"#,
            r#"{"workload": {"trace": "a.dumpi", "placement-file": "p.txt"}, "run": {"messages": 20}}"#,
            r#"{"workload": {"trace": "a.txt", "trace-format": "dumpi"}}"#,
        ];
        for text in specs {
            let spec: SimSpec = serde_json::from_str(text).unwrap();
            let once = spec.resolve().unwrap();
            let again = once.written().resolve().unwrap();
            assert_eq!(
                Resolved { notes: Vec::new(), ..again },
                Resolved { notes: Vec::new(), ..once },
                "{text}"
            );
        }
    }
}
