//! [`SimSpec`]: everything a simulation needs, in one serde value with one section per concern
//! — `topology`, `routing`, `router`, `workload`, `run` — and an optional `model` comparison.
//!
//! Every key is spelled as its command-line flag (`run.max-cycles` is `--max-cycles`), except
//! the two section selectors, which take their section's name: `--routing` sets
//! `routing.algorithm` and `--router` sets `router.kind`. Missing keys take their defaults;
//! unknown keys are errors. [`SimSpec::resolve`] checks every value once and fills every
//! default, so the `config` a result prints is complete and reads back to the same result.

use crate::SimError;
pub use netwrap_engine::params::{
    Arbitration, Avoidance, EngineKind, Interval, MAX_VC_PARAM, Switching, Threads, VcParams,
};
use netwrap_engine::traffic::MessageSize;
use netwrap_topo::{RoutingAlgorithm, RoutingSpec, TopologySpec};
use serde::{Deserialize, Serialize};

/// A whole simulation, as a user writes it (flags, a TOML experiment file, a result's JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimSpec {
    /// The network.
    #[serde(default)]
    pub topology: TopologySpec,
    /// How messages are routed.
    #[serde(default)]
    pub routing: RoutingSpec,
    /// The router model.
    #[serde(default)]
    pub router: RouterSpec,
    /// What the terminals send.
    #[serde(default)]
    pub workload: WorkloadSpec,
    /// Run control.
    #[serde(default)]
    pub run: RunControl,
    /// Compare with an analytical model (`--model`): present means compare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelSpec>,
}

/// The router model: the `router` section. Every key but `kind` belongs to the
/// virtual-channel router (`kind = "vc"`) and is an error with the ideal switch; resolving a
/// `vc` spec fills every absent key with its default, so a result's `config` is complete.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RouterSpec {
    /// Which router (`--router`).
    #[serde(default)]
    pub kind: RouterKind,
    /// Virtual channels per input port, V (`--vcs`; default 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vcs: Option<u32>,
    /// Buffer per virtual channel in flits, F (`--buffer`; default 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<u32>,
    /// Router delay r in cycles, the pipeline every flit crosses in a router
    /// (`--router-delay`; default 0, so that r + l = 1 is the ideal switch's hop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub router_delay: Option<u32>,
    /// Link latency l in cycles, Agarwal 1991's wire delay (`--link-latency`; default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_latency: Option<u32>,
    /// Most flits per packet, P: a message is sent as ⌈B / P⌉ packets (`--packet`; default 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet: Option<u32>,
    /// Switching (`--switching`; default wormhole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switching: Option<Switching>,
    /// Arbitration among requests for a virtual channel or a switch port (`--arbitration`;
    /// default round-robin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arbitration: Option<Arbitration>,
    /// Deadlock avoidance (`--deadlock`; default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadlock: Option<Avoidance>,
}

/// The router models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum RouterKind {
    /// The ideal switch of Agarwal 1991 and the homework: unbounded output queues, one cycle
    /// per hop (switch plus wire), pipelined.
    #[default]
    Ideal,
    /// An input-buffered virtual-channel router with credit-based flow control (Puente et
    /// al.'s router, as BookSim2 and CAMINOS model one): finite buffers, packets, switching.
    /// (Its rules: the `engine::vc` module.)
    Vc,
}

impl RouterSpec {
    /// The virtual-channel parameters of a resolved `vc` spec (`None` for the ideal switch).
    pub fn vc_params(&self) -> Option<VcParams> {
        (self.kind == RouterKind::Vc).then(|| {
            let d = VcParams::DEFAULT;
            VcParams {
                vcs: self.vcs.unwrap_or(d.vcs),
                buffer: self.buffer.unwrap_or(d.buffer),
                router_delay: self.router_delay.unwrap_or(d.router_delay),
                link_latency: self.link_latency.unwrap_or(d.link_latency),
                packet: self.packet.unwrap_or(d.packet),
                switching: self.switching.unwrap_or(d.switching),
                arbitration: self.arbitration.unwrap_or(d.arbitration),
                deadlock: self.deadlock.unwrap_or(d.deadlock),
            }
        })
    }

    /// Checks the router section and fills the `vc` defaults.
    fn resolve(
        &self,
        engine: EngineKind,
        topology: &TopologySpec,
        routing: RoutingAlgorithm,
    ) -> Result<RouterSpec, SimError> {
        let given = [
            ("vcs", "--vcs", self.vcs.is_some()),
            ("buffer", "--buffer", self.buffer.is_some()),
            ("router-delay", "--router-delay", self.router_delay.is_some()),
            ("link-latency", "--link-latency", self.link_latency.is_some()),
            ("packet", "--packet", self.packet.is_some()),
            ("switching", "--switching", self.switching.is_some()),
            ("arbitration", "--arbitration", self.arbitration.is_some()),
            ("deadlock", "--deadlock", self.deadlock.is_some()),
        ];
        let Some(p) = self.vc_params() else {
            if let Some((key, flag, _)) = given.iter().find(|g| g.2) {
                return Err(invalid(format!(
                    "router.{key} ({flag}) belongs to the virtual-channel router (--router vc): the ideal switch has unbounded output queues, one-cycle hops and whole messages"
                )));
            }
            return Ok(self.clone());
        };
        if engine != EngineKind::Fast {
            return Err(invalid(
                "run.engine = reference chooses the ideal switch's flit-by-flit engine: the virtual-channel router has one engine (--engine, --router vc)".into(),
            ));
        }
        for (key, flag, value, min) in [
            ("vcs", "--vcs", p.vcs, 1),
            ("buffer", "--buffer", p.buffer, 1),
            ("router-delay", "--router-delay", p.router_delay, 0),
            ("link-latency", "--link-latency", p.link_latency, 1),
            ("packet", "--packet", p.packet, 1),
        ] {
            if value < min || value > MAX_VC_PARAM {
                let why = if key == "link-latency" {
                    " (a flit sent in a cycle reaches the next router in a later one)"
                } else {
                    ""
                };
                return Err(invalid(format!(
                    "router.{key} = {value}: must be from {min} to {MAX_VC_PARAM}{why} ({flag})"
                )));
            }
        }
        if p.switching != Switching::Wormhole && p.buffer < p.packet {
            return Err(invalid(format!(
                "router.buffer = {} is below router.packet = {}: {} switching takes a virtual channel only with room for a whole packet, so no packet could ever move (--buffer, --packet, --switching)",
                p.buffer,
                p.packet,
                if p.switching == Switching::Vct { "vct" } else { "saf" }
            )));
        }
        let rings = matches!(
            topology,
            TopologySpec::Torus { .. } | TopologySpec::Ring { .. } | TopologySpec::Midimew { .. }
        );
        let family = topology.family();
        match p.deadlock {
            Avoidance::None => {}
            Avoidance::Dateline => {
                if !matches!(topology, TopologySpec::Torus { .. } | TopologySpec::Ring { .. }) {
                    return Err(invalid(format!(
                        "router.deadlock = dateline is built for the rings of tori (torus, ring): a {family} has no wrap-around channel to mark (--deadlock; bubble and escape cover Midimews)"
                    )));
                }
            }
            Avoidance::Bubble => {
                if !rings {
                    return Err(invalid(format!(
                        "router.deadlock = bubble protects the rings of tori and Midimews (torus, ring, midimew): a {family}'s cycles are not rings of one dimension (--deadlock)"
                    )));
                }
                if matches!(topology, TopologySpec::Midimew { .. }) && routing != RoutingAlgorithm::Record {
                    return Err(invalid(
                        "router.deadlock = bubble on a Midimew needs dimension-order routing, routing.algorithm = record (--routing record): the Midimew's own routing takes any minimal next hop, whose turns between rings Bubble flow control does not protect (for adaptive routing use --deadlock escape)".into(),
                    ));
                }
            }
            Avoidance::Updown => {}
            Avoidance::Escape => {
                let known =
                    rings || matches!(topology, TopologySpec::Mesh { .. } | TopologySpec::Hypercube { .. });
                let midimew = matches!(topology, TopologySpec::Midimew { .. });
                if !known || (routing == RoutingAlgorithm::Table && !midimew) {
                    return Err(invalid(format!(
                        "router.deadlock = escape needs a dimension-order escape routing: tori, rings, meshes and hypercubes under their own routing, and Midimews (escaping by the routing record), not a {family} routed by '{}' (--deadlock, --routing)",
                        routing.name()
                    )));
                }
                if p.vcs < 2 {
                    return Err(invalid(format!(
                        "router.deadlock = escape needs an escape VC and at least one adaptive VC, router.vcs >= 2, not {} (--deadlock, --vcs)",
                        p.vcs
                    )));
                }
            }
        }
        if matches!(p.deadlock, Avoidance::Bubble | Avoidance::Escape) {
            let name = if p.deadlock == Avoidance::Bubble { "bubble" } else { "escape" };
            if p.switching != Switching::Vct {
                return Err(invalid(format!(
                    "router.deadlock = {name} needs router.switching = vct: Puente et al.'s Bubble flow control{} is defined on virtual cut-through, where a packet moves only into room for all of it and the free space counts in whole packets; a wormhole packet spreads over several routers (--deadlock, --switching)",
                    if name == "escape" { " and adaptive router" } else { "" }
                )));
            }
            if rings && p.buffer < 2 * p.packet {
                return Err(invalid(format!(
                    "router.deadlock = {name} needs router.buffer >= 2 x router.packet = {}, not {}: a packet enters a ring only with room for two (--deadlock, --buffer, --packet)",
                    2 * p.packet,
                    p.buffer
                )));
            }
        }
        if p.deadlock == Avoidance::Dateline && p.vcs < 2 {
            return Err(invalid(format!(
                "router.deadlock = dateline needs two classes of virtual channels, router.vcs >= 2, not {} (--deadlock, --vcs)",
                p.vcs
            )));
        }
        Ok(RouterSpec {
            kind: RouterKind::Vc,
            vcs: Some(p.vcs),
            buffer: Some(p.buffer),
            router_delay: Some(p.router_delay),
            link_latency: Some(p.link_latency),
            packet: Some(p.packet),
            switching: Some(p.switching),
            arbitration: Some(p.arbitration),
            deadlock: Some(p.deadlock),
        })
    }
}

/// Where messages go: the `pattern` of the workload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum PatternKind {
    /// Uniform over every terminal, the source included (the homework's App. A).
    #[default]
    Uniform,
    /// Uniform over every other terminal, the source excluded (as BookSim2 and CAMINOS).
    UniformOthers,
    /// Matrix transpose on node numbers (Puente et al. §5.1): N = k², y·k + x → x·k + y.
    Transpose,
    /// Bit reversal on node numbers (Puente et al. §5.1): N = 2^b.
    BitReversal,
    /// Perfect shuffle, the address rotated left one bit (Puente et al. §5.1): N = 2^b.
    Shuffle,
    /// Bit complement, d = N − 1 − s (Dally & Towles §3.2): N = 2^b.
    BitComplement,
    /// Tornado, every coordinate + ⌈k/2⌉ − 1 mod k (Dally & Towles §3.2): k-ary n-cubes only.
    Tornado,
    /// Neighbour, every coordinate + 1 mod k (Dally & Towles §3.2): k-ary n-cubes only.
    Neighbor,
    /// A fraction of messages to hot-spot nodes, the rest uniform: needs `hotspots` and
    /// `hotspot-fraction`.
    Hotspot,
    /// A random permutation drawn from the run's seed.
    Permutation,
    /// Uniform over a subcube of l·N nodes with a corner at the source (Agarwal 1991 §5.1,
    /// the homework before Ex 5): tori and rings only; needs `locality`.
    Locality,
}

impl PatternKind {
    /// The spelling of the spec and the flag.
    pub fn name(self) -> &'static str {
        match self {
            PatternKind::Uniform => "uniform",
            PatternKind::UniformOthers => "uniform-others",
            PatternKind::Transpose => "transpose",
            PatternKind::BitReversal => "bit-reversal",
            PatternKind::Shuffle => "shuffle",
            PatternKind::BitComplement => "bit-complement",
            PatternKind::Tornado => "tornado",
            PatternKind::Neighbor => "neighbor",
            PatternKind::Hotspot => "hotspot",
            PatternKind::Permutation => "permutation",
            PatternKind::Locality => "locality",
        }
    }

    /// Whether every source sends to one fixed destination (a table of N entries).
    pub fn is_fixed(self) -> bool {
        matches!(
            self,
            PatternKind::Transpose
                | PatternKind::BitReversal
                | PatternKind::Shuffle
                | PatternKind::BitComplement
                | PatternKind::Tornado
                | PatternKind::Neighbor
                | PatternKind::Permutation
        )
    }
}

/// What the terminals send: the `workload` section.
///
/// The offered traffic is given either as a request rate m (`rate`) or as a load in flits per
/// node per cycle (`load` = m times the mean message length), never both. Resolving turns a
/// load into the rate it means, m = load / mean length, so a resolved spec (a result's
/// `config`) always carries the rate and never the load: read back, it runs the same rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct WorkloadSpec {
    /// Request rate m: messages each terminal creates per cycle, a probability in (0, 1]
    /// (`--rate`); 0.04 when neither it nor `load` is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate: Option<f64>,
    /// Offered load in flits per node per cycle, instead of `rate` (`--load`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// Message length B in flits (`--size`); the short length of a bimodal mix.
    pub size: u32,
    /// Length of the long messages of a bimodal mix (`--long-size`); needs `long-fraction`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub long_size: Option<u32>,
    /// Fraction of long messages, in (0, 1] (`--long-fraction`); needs `long-size`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub long_fraction: Option<f64>,
    /// Destination pattern (`--pattern`).
    pub pattern: PatternKind,
    /// Locality fraction l in (0, 1] of the locality pattern (`--locality`); giving it selects
    /// that pattern, and l = 1 is uniform traffic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locality: Option<f64>,
    /// The hot-spot nodes of the hotspot pattern (`--hotspots`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hotspots: Option<Vec<u32>>,
    /// Fraction of messages sent to the hot spots, in (0, 1] (`--hotspot-fraction`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hotspot_fraction: Option<f64>,
    /// The processors: open loop (the default) or threads that wait for their accesses.
    #[serde(skip_serializing_if = "ProcessorSpec::is_open_geometric")]
    pub processor: ProcessorSpec,
    /// Memories that serve each message as an access and reply to it; absent: a message is
    /// complete when it is delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<ReplySpec>,
    /// A message trace to replay instead of the sources (`--trace`; format: [`crate::trace`]):
    /// every other workload key must keep its default, and `run.warmup` defaults to 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<std::path::PathBuf>,
}

/// The `workload.processor` section.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct ProcessorSpec {
    /// Threads per processor, or `unbounded` (`--threads`; default unbounded, open loop).
    pub threads: Threads,
    /// Intervals between a thread's accesses, of mean 1/m (`--interval`).
    pub interval: Interval,
}

impl ProcessorSpec {
    /// The default: open loop, geometric intervals (left out of a printed spec).
    pub fn is_open_geometric(&self) -> bool {
        *self == ProcessorSpec::default()
    }
}

/// Where replies travel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum ReplyNetwork {
    /// The family's own choice: `same` on direct networks, `separate` on indirect ones.
    #[default]
    Auto,
    /// The request network itself (direct networks; on the virtual-channel router requests
    /// and replies take separate halves of every channel's virtual channels).
    Same,
    /// A second network: an identical copy on direct networks (Puente et al. 1999's separate
    /// data and control networks), the request network reversed on indirect ones (Raghunath &
    /// Ranade 1995 §5.1).
    Separate,
}

/// The `workload.reply` section: memories that serve each message as an access and reply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct ReplySpec {
    /// Memory access time M in cycles (`--memory-latency`; default 0).
    pub memory_latency: u32,
    /// Flits of a reply (`--reply-size`; default the request's size); 0: the memory answers
    /// without a message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// Where replies travel (`--reply-network`).
    pub network: ReplyNetwork,
}

impl Default for WorkloadSpec {
    /// The homework's Ex 1 (m = 0.04 once resolved), B = 4, uniform.
    fn default() -> Self {
        WorkloadSpec {
            rate: None,
            load: None,
            size: 4,
            long_size: None,
            long_fraction: None,
            pattern: PatternKind::Uniform,
            locality: None,
            hotspots: None,
            hotspot_fraction: None,
            processor: ProcessorSpec::default(),
            reply: None,
            trace: None,
        }
    }
}

/// The request rate when neither `rate` nor `load` is given: the homework's Ex 1.
pub const DEFAULT_RATE: f64 = 0.04;

impl WorkloadSpec {
    /// The request rate m of a resolved workload (the default when it is not resolved and has
    /// none).
    pub fn rate(&self) -> f64 {
        self.rate.unwrap_or(DEFAULT_RATE)
    }

    /// The message lengths.
    pub fn message_size(&self) -> MessageSize {
        match (self.long_size, self.long_fraction) {
            (Some(long), Some(long_fraction)) => {
                MessageSize::Bimodal { short: self.size, long, long_fraction }
            }
            _ => MessageSize::Fixed(self.size),
        }
    }
}

/// Run control: the `run` section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct RunControl {
    /// Cycles discarded before measuring (`--warmup`); resolved to the default when absent:
    /// ten worst-case unloaded latencies stretched by 1/(1 − ρ), at least 1,000 and at most
    /// 100,000 cycles, and at most a tenth of the cycle limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warmup: Option<u64>,
    /// Measured messages: the run lasts until all of them are delivered (`--messages`).
    pub messages: u64,
    /// Cycle limit, the warm-up included (`--max-cycles`).
    pub max_cycles: u64,
    /// Seed of every random stream (`--seed`).
    pub seed: u64,
    /// Engine (`--engine`).
    pub engine: EngineKind,
}

impl Default for RunControl {
    fn default() -> Self {
        RunControl {
            warmup: None,
            messages: 10_000,
            max_cycles: 10_000_000,
            seed: 1,
            engine: EngineKind::Fast,
        }
    }
}

/// The `model` section: compare the simulation with the analytical model of its network.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct ModelSpec {
    /// Contention form of the k-ary n-cube model (`--contention`): `auto` is the homework's
    /// App. B rule (eq. 8's form when the distance per dimension exceeds 2, the small-k_d form
    /// otherwise), as `netwrap model kary-ncube` applies it.
    pub contention: netwrap_model::kary_ncube::ContentionForm,
}

/// What decides the built part of an experiment ([`SimSpec::build_key`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildKey {
    /// The network.
    pub topology: TopologySpec,
    /// Its routing.
    pub routing: RoutingSpec,
    /// The destination pattern.
    pub pattern: PatternKind,
    /// The locality fraction's bits.
    pub locality: Option<u64>,
    /// The hot-spot nodes.
    pub hotspots: Option<Vec<u32>>,
    /// The hot-spot fraction's bits.
    pub hotspot_fraction: Option<u64>,
    /// The seed a random permutation is drawn from.
    pub permutation_seed: Option<u64>,
    /// Routed up*/down* (`router.deadlock = updown`) instead of by `routing`.
    pub updown: bool,
    /// Where replies travel, when there are reply messages (a separate reply network is built).
    pub replies: Option<ReplyNetwork>,
    /// The replayed trace (validated against the network).
    pub trace: Option<std::path::PathBuf>,
}

/// The most threads a processor may run.
pub const MAX_THREADS: u32 = 1 << 16;

/// Checks that the virtual-channel router can carry replies as `reply` asks: on the same
/// network requests and replies take separate halves of every channel's VCs (so a reply never
/// waits behind a request: no protocol deadlock), and each half must suit the deadlock
/// avoidance. A separate reply network is checked once built ([`crate::Experiment::new`]).
fn reply_classes(reply: &ReplySpec, p: &VcParams) -> Result<(), SimError> {
    if reply.size == Some(0) {
        return Ok(());
    }
    if reply.network != ReplyNetwork::Separate {
        let need = match p.deadlock {
            Avoidance::Dateline | Avoidance::Escape => 4,
            _ => 2,
        };
        if p.vcs < need {
            return Err(invalid(format!(
                "router.vcs = {}: replies on the request network take half of every channel's virtual channels and requests the other half{}, so at least {need} are needed (--vcs, --reply-network separate)",
                p.vcs,
                if need == 4 {
                    format!(", and router.deadlock = {:?} needs two in each half", p.deadlock).to_lowercase()
                } else {
                    String::new()
                }
            )));
        }
    }
    Ok(())
}

/// The most measured messages a run may ask for: sequence numbers are 32-bit.
pub const MAX_MESSAGES: u64 = u32::MAX as u64 - 1;

/// The routing section under `router.deadlock = updown`, which replaces the family's routing:
/// `family`, without a dimension order (none is followed).
fn updown_routing(routing: &RoutingSpec) -> Result<RoutingSpec, SimError> {
    if routing.algorithm != RoutingAlgorithm::Family {
        return Err(invalid(format!(
            "router.deadlock = updown routes every message up*/down* (Schroeder et al. 1991), in place of the family's routing: routing.algorithm = {} cannot apply as well; leave it at family (--deadlock, --routing)",
            routing.algorithm.name()
        )));
    }
    if routing.order.is_some() {
        return Err(invalid(
            "router.deadlock = updown routes every message up*/down* (Schroeder et al. 1991), in place of dimension-order routing: routing.order does not apply (--deadlock, --order)".into(),
        ));
    }
    Ok(RoutingSpec { algorithm: RoutingAlgorithm::Family, order: None })
}

/// With `workload.trace`, the trace says what every message is: the keys that describe the
/// sources (rate, sizes, pattern, processors, memories) must keep their defaults.
fn trace_alone(w: &WorkloadSpec, path: &std::path::Path) -> Result<(), SimError> {
    let d = WorkloadSpec::default();
    let given = [
        ("rate", "--rate", w.rate.is_some()),
        ("load", "--load", w.load.is_some()),
        ("size", "--size", w.size != d.size),
        ("long-size", "--long-size", w.long_size.is_some()),
        ("long-fraction", "--long-fraction", w.long_fraction.is_some()),
        ("pattern", "--pattern", w.pattern != d.pattern),
        ("locality", "--locality", w.locality.is_some()),
        ("hotspots", "--hotspots", w.hotspots.is_some()),
        ("hotspot-fraction", "--hotspot-fraction", w.hotspot_fraction.is_some()),
        ("processor.threads", "--threads", w.processor.threads != d.processor.threads),
        ("processor.interval", "--interval", w.processor.interval != d.processor.interval),
        ("reply", "--memory-latency, --reply-size, --reply-network", w.reply.is_some()),
    ];
    if let Some((key, flag, _)) = given.iter().find(|g| g.2) {
        return Err(invalid(format!(
            "workload.{key} ({flag}) does not apply with workload.trace = {}: the trace gives every message's cycle, source, destination and size, and what it waits for (--trace)",
            path.display()
        )));
    }
    Ok(())
}

fn invalid(msg: String) -> SimError {
    SimError::Invalid(msg)
}

/// Formats a float for an error message: short, whatever its size.
pub(crate) fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e9).contains(&a) { format!("{x}") } else { format!("{x:e}") }
}

impl SimSpec {
    /// Checks every value and fills every default that does not need the built network (the
    /// warm-up does: see [`crate::Experiment`]); the notes say what was adjusted (e.g. N
    /// rounded up to a whole dimension).
    pub fn resolve(&self) -> Result<(SimSpec, Vec<String>), SimError> {
        let (topology, notes) = self.topology.resolve()?;
        let routing = topology.resolve_routing(&self.routing)?;
        let w = &self.workload;
        if let Some(path) = &w.trace {
            trace_alone(w, path)?;
            if self.model.is_some() {
                return Err(invalid(format!(
                    "model: the analytical models predict a rate and a destination pattern, and workload.trace = {} replays a trace's own messages (--model, --trace)",
                    path.display()
                )));
            }
        }
        if let Some(rate) = w.rate
            && !(rate.is_finite() && rate > 0.0 && rate <= 1.0)
        {
            return Err(invalid(format!(
                "workload.rate = {}: the request rate must be a probability in (0, 1], messages per terminal per cycle (--rate)",
                num(rate)
            )));
        }
        if w.size == 0 {
            return Err(invalid("workload.size = 0: a message needs at least one flit (--size)".into()));
        }
        let size = match (w.long_size, w.long_fraction) {
            (None, None) => MessageSize::Fixed(w.size),
            (Some(0), _) => {
                return Err(invalid(
                    "workload.long-size = 0: a message needs at least one flit (--long-size)".into(),
                ));
            }
            (_, Some(f)) if !(f.is_finite() && f > 0.0 && f <= 1.0) => {
                return Err(invalid(format!(
                    "workload.long-fraction = {}: the fraction of long messages must be in (0, 1] (--long-fraction)",
                    num(f)
                )));
            }
            (Some(long), Some(long_fraction)) => MessageSize::Bimodal { short: w.size, long, long_fraction },
            (Some(_), None) | (None, Some(_)) => {
                return Err(invalid(
                    "workload.long-size and workload.long-fraction make a bimodal size mix together: give both or neither (--long-size, --long-fraction)".into(),
                ));
            }
        };
        let rate = match (w.rate, w.load) {
            (Some(_), Some(_)) => {
                return Err(invalid(
                    "workload.rate and workload.load both say how much is offered: give one of them (--rate or --load)".into(),
                ));
            }
            (Some(rate), None) => rate,
            (None, Some(load)) => {
                if !(load.is_finite() && load > 0.0) {
                    return Err(invalid(format!(
                        "workload.load = {}: the offered load must be a positive number of flits per node per cycle (--load)",
                        num(load)
                    )));
                }
                let rate = load / size.mean();
                if !(rate > 0.0 && rate <= 1.0) {
                    return Err(invalid(format!(
                        "workload.load = {}: with a mean message length of {} flits that is a request rate of {} messages per terminal per cycle, outside (0, 1] (--load)",
                        num(load),
                        num(size.mean()),
                        num(rate)
                    )));
                }
                rate
            }
            (None, None) => DEFAULT_RATE,
        };
        let (pattern, locality) = match (w.pattern, w.locality) {
            (_, Some(l)) if !(l.is_finite() && l > 0.0 && l <= 1.0) => {
                return Err(invalid(format!(
                    "workload.locality = {}: the locality fraction must be in (0, 1] (--locality)",
                    num(l)
                )));
            }
            (PatternKind::Locality, None) => {
                return Err(invalid(
                    "workload.pattern = locality needs workload.locality, the fraction l in (0, 1] (--locality)".into(),
                ));
            }
            (PatternKind::Uniform | PatternKind::Locality, Some(l)) => {
                // l = 1 addresses every node: uniform traffic.
                if l == 1.0 { (PatternKind::Uniform, None) } else { (PatternKind::Locality, Some(l)) }
            }
            (p, Some(_)) => {
                return Err(invalid(format!(
                    "workload.locality applies to the locality pattern, not to workload.pattern = {} (--locality)",
                    p.name()
                )));
            }
            (p, None) => (p, None),
        };
        if pattern == PatternKind::Locality
            && !matches!(topology, TopologySpec::Torus { .. } | TopologySpec::Ring { .. })
        {
            return Err(invalid(format!(
                "workload.locality applies to tori and rings (a subcube with a corner at the source, wrapping round the end-around links): a {} has none (--locality)",
                topology.family()
            )));
        }
        if matches!(pattern, PatternKind::Tornado | PatternKind::Neighbor) && !topology.is_cube() {
            return Err(invalid(format!(
                "workload.pattern = {} is defined on the coordinates of a k-ary n-cube (torus, mesh, ring, hypercube): a {} has no coordinates (--pattern)",
                pattern.name(),
                topology.family()
            )));
        }
        let (hotspots, hotspot_fraction) = match (pattern, &w.hotspots, w.hotspot_fraction) {
            (PatternKind::Hotspot, Some(h), Some(f)) => {
                if h.is_empty() {
                    return Err(invalid(
                        "workload.hotspots is empty: the hotspot pattern needs at least one node (--hotspots)".into(),
                    ));
                }
                if !(f.is_finite() && f > 0.0 && f <= 1.0) {
                    return Err(invalid(format!(
                        "workload.hotspot-fraction = {}: the fraction of messages sent to the hot spots must be in (0, 1] (--hotspot-fraction)",
                        num(f)
                    )));
                }
                (Some(h.clone()), Some(f))
            }
            (PatternKind::Hotspot, _, _) => {
                return Err(invalid(
                    "workload.pattern = hotspot needs workload.hotspots, the hot-spot nodes, and workload.hotspot-fraction, the fraction of messages sent to them (--hotspots, --hotspot-fraction)".into(),
                ));
            }
            (p, Some(_), _) | (p, _, Some(_)) => {
                return Err(invalid(format!(
                    "workload.hotspots and workload.hotspot-fraction apply to the hotspot pattern, not to workload.pattern = {} (--hotspots, --hotspot-fraction)",
                    p.name()
                )));
            }
            _ => (None, None),
        };
        if w.processor.threads == Threads::Count(0) {
            return Err(invalid(
                "workload.processor.threads = 0: a processor needs at least one thread, or unbounded for an open loop (--threads)".into(),
            ));
        }
        if let Threads::Count(t) = w.processor.threads
            && t > MAX_THREADS
        {
            return Err(invalid(format!(
                "workload.processor.threads = {t}: at most {MAX_THREADS} threads per processor (each keeps an access in flight) (--threads)"
            )));
        }
        let reply = w.reply.map(|r| ReplySpec { size: Some(r.size.unwrap_or(w.size)), ..r });
        let r = &self.run;
        if r.messages == 0 || r.messages > MAX_MESSAGES {
            return Err(invalid(format!(
                "run.messages = {}: at least 1 and at most {MAX_MESSAGES} measured messages (--messages)",
                r.messages
            )));
        }
        if r.max_cycles == 0 {
            return Err(invalid(
                "run.max-cycles = 0: at least one cycle must be simulated (--max-cycles)".into(),
            ));
        }
        if let Some(warmup) = r.warmup
            && warmup >= r.max_cycles
        {
            return Err(invalid(format!(
                "run.warmup = {warmup} is not below run.max-cycles = {}: no cycle would be measured (--warmup, --max-cycles)",
                r.max_cycles
            )));
        }
        if let Some(m) = &self.model
            && m.contention != netwrap_model::kary_ncube::ContentionForm::Auto
            && !topology.is_cube()
        {
            return Err(invalid(format!(
                "model.contention chooses the contention form of the k-ary n-cube model: a {} is compared with another model (--contention)",
                topology.family()
            )));
        }
        let router = self.router.resolve(r.engine, &topology, routing.algorithm)?;
        if let (Some(reply), Some(p)) = (&reply, router.vc_params()) {
            reply_classes(reply, &p)?;
        }
        let routing =
            if router.deadlock == Some(Avoidance::Updown) { updown_routing(&self.routing)? } else { routing };
        let mut notes = notes;
        if let TopologySpec::Midimew { nodes: Some(n) } = topology
            && matches!(
                pattern,
                PatternKind::Transpose
                    | PatternKind::BitReversal
                    | PatternKind::Shuffle
                    | PatternKind::BitComplement
            )
        {
            let (a, b) = netwrap_topo::midimew_generators(n);
            if b > 0 && n % b != 0 && !(a > 1 && n % a == 0) {
                notes.push(format!(
                    "workload.pattern = {}: the Midimew of {n} nodes has no rectangular layout (N is a multiple of neither generator, {a} or {b}), so the pattern is taken on the network's node numbers, not on Puente et al. Fig. 9's application numbering",
                    pattern.name()
                ));
            }
        }
        let mut run = r.clone();
        if w.trace.is_some() {
            // A trace's first cycle is the run's: nothing is discarded unless asked.
            run.warmup = Some(run.warmup.unwrap_or(0));
        }
        let spec = SimSpec {
            topology,
            routing,
            router,
            workload: WorkloadSpec {
                // A trace says what is offered: no rate is recorded beside it.
                rate: w.trace.is_none().then_some(rate),
                load: None,
                pattern,
                locality,
                hotspots,
                hotspot_fraction,
                reply,
                ..w.clone()
            },
            run,
            model: self.model.clone(),
        };
        Ok((spec, notes))
    }

    /// The part of a resolved spec that decides what is built (topology, routing, destination
    /// pattern, and the seed of a random permutation): points of a sweep that agree on it share
    /// one built [`crate::Experiment`].
    pub fn build_key(&self) -> BuildKey {
        let w = &self.workload;
        BuildKey {
            topology: self.topology.clone(),
            routing: self.routing.clone(),
            pattern: w.pattern,
            locality: w.locality.map(f64::to_bits),
            hotspots: w.hotspots.clone(),
            hotspot_fraction: w.hotspot_fraction.map(f64::to_bits),
            permutation_seed: (w.pattern == PatternKind::Permutation).then_some(self.run.seed),
            updown: self.updown(),
            replies: w.reply.filter(|r| r.size != Some(0)).map(|r| r.network),
            trace: w.trace.clone(),
        }
    }

    /// Whether the network is routed up*/down* (`router.deadlock = updown`, virtual-channel
    /// router) instead of by its `routing` section.
    pub fn updown(&self) -> bool {
        self.router.vc_params().is_some_and(|p| p.deadlock == Avoidance::Updown)
    }

    /// The builders' description of the network with its routing: the family under `routing`,
    /// or with `router.deadlock = updown` the family routed up*/down*. Call on a resolved spec.
    pub fn shape(&self) -> Result<netwrap_topo::Shape, SimError> {
        let shape = self.topology.shape(&self.routing)?;
        Ok(if self.updown() { netwrap_topo::Shape::UpDown { of: Box::new(shape) } } else { shape })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(edit: impl FnOnce(&mut SimSpec), fragment: &str) {
        let mut s = SimSpec::default();
        edit(&mut s);
        let e = s.resolve().unwrap_err().to_string();
        assert!(e.contains(fragment), "{e}");
    }

    #[test]
    fn every_invalid_value_names_its_key() {
        bad(|s| s.workload.rate = Some(f64::NAN), "workload.rate = NaN");
        bad(|s| s.workload.rate = Some(1e-320 - 1.0), "workload.rate");
        bad(|s| s.workload.rate = Some(2.0), "(0, 1]");
        bad(|s| s.workload.size = 0, "workload.size = 0");
        bad(|s| s.workload.locality = Some(0.0), "workload.locality = 0");
        bad(|s| s.workload.pattern = PatternKind::Locality, "needs workload.locality");
        bad(|s| s.run.messages = 0, "run.messages = 0");
        bad(|s| s.run.messages = u64::MAX, "at most");
        bad(|s| s.run.max_cycles = 0, "run.max-cycles = 0");
        bad(|s| s.run.warmup = Some(100_000_000_000), "no cycle would be measured");
        bad(
            |s| {
                s.topology = TopologySpec::FatTree { nodes: None };
                s.workload.locality = Some(0.5);
            },
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
        assert_eq!(
            s.resolve().unwrap().0.workload,
            WorkloadSpec { rate: Some(DEFAULT_RATE), ..WorkloadSpec::default() }
        );
        s.workload.locality = Some(0.5);
        assert_eq!(s.resolve().unwrap().0.workload.pattern, PatternKind::Locality);
    }

    #[test]
    fn toml_sections_and_kebab_keys() {
        let s: SimSpec = toml::from_str(
            "[topology]\nfamily = \"torus\"\nk = 4\n[run]\nmax-cycles = 5000\n[workload]\nrate = 0.01\n",
        )
        .unwrap();
        assert_eq!(s.run.max_cycles, 5000);
        assert!(toml::from_str::<SimSpec>("[run]\nmax_cycles = 5\n").is_err());
        assert!(toml::from_str::<SimSpec>("[workload]\nrat = 0.1\n").is_err());
    }
}
