//! The engines and what they share: message generation, measurement, the stop rule, and the
//! choice among several allowed channels.
//!
//! # The cycle contract (both engines)
//! - Time is an integer cycle count starting at 0.
//! - Each cycle each terminal creates a message with probability m (the homework's App. A),
//!   drawn as geometric gaps from the terminal's own random stream, with its destination and
//!   a 32-bit tie-break salt from the same stream. A bimodal size mix draws each message's
//!   length B from a second stream of the terminal ([`crate::rng::Purpose::Size`]), so its
//!   arrivals and destinations are those of a fixed-size run with the same seed; a fixed size
//!   draws nothing.
//! - A message created at cycle t is ready at its source router at t. A message whose header
//!   is ready at a router at cycle a may start on its next channel at cycle s ≥ a; it holds the
//!   channel for ⌈B / width⌉ cycles, and its header is ready at the next router at s + 1
//!   (one cycle per hop: switch plus wire, Agarwal 1991 §2).
//! - Output ports have unbounded FIFO queues: headers are served in order of arrival; headers
//!   arriving in the same cycle are ordered by salt (then by message slot), a seeded tie-break.
//! - At the destination router the flits pass to the processor as they arrive, uncontended:
//!   a message is delivered the cycle after its last flit reaches its destination router (a
//!   self-addressed message, which uses no channel, ⌈B / w⌉ cycles after its creation, w the
//!   terminals' link width: 1 but on crossbar modules with wider processor links). With unit
//!   channels a message whose header is ready at its destination at cycle a is delivered at
//!   a + B: unloaded, a message of h hops takes exactly h + B cycles, and the mean is the
//!   model's T0 = n·k_d + B.
//! - A channel of width w carries w flits per cycle. A message may leave a router on a channel
//!   wider than the one it came in on only once its last flit has arrived (Raghunath & Ranade
//!   §5.3, note d); onto a channel as wide or narrower it cuts through.
//! - Latency T = delivery cycle − creation cycle (Agarwal's T, the homework's "message latency").
//!
//! # When a run stops ([`StopRule`])
//! At the end of the cycle in which the last measured message is delivered; or, when the
//! network is known to be saturated, once the measurement window is long enough to measure the
//! accepted throughput (whether or not its measured messages have drained); or, when asked to
//! watch, once it is measured to fall behind (two measurement windows running deliver under
//! 95% of what was created while the backlog grows beyond noise); or when more messages are in
//! flight than the run may keep in memory; or at the cycle limit, which bounds everything (the
//! warm-up included). Cycles in which nothing happens are skipped, so a run at a tiny rate
//! costs what its events cost.

#![deny(missing_docs)]

pub mod calendar;
pub mod collective;
mod crew;
pub mod deps;
pub mod ideal;
pub mod params;
pub mod progress;
pub mod reference;
pub mod rng;
pub mod stats;
pub mod switch_alloc;
pub mod trace;
pub mod traffic;
pub mod vc;
pub mod vc_reference;
pub mod workload;

use crate::calendar::Calendar;
use crate::rng::mix;
use crate::stats::{Measured, Series, SeriesBucket};
use crate::traffic::MessageSize;
use netwrap_topo::{ChannelId, Network, TerminalId};
pub use params::{
    Allocator, Arbitration, Avoidance, DatelineClass, Ejection, EngineKind, Interval, MAX_VC_PARAM, OnOff,
    Stages, Switching, Threads, VcChoice, VcParams,
};
use serde::Serialize;
pub(crate) use workload::Births;
pub use workload::{AccessOutcome, Arrivals, Memories};

/// When to stop before every measured message is delivered (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StopRule {
    /// The network is known to be saturated (its busiest channel is offered one flit per cycle
    /// or more): stop once the window below has been measured.
    pub saturated: bool,
    /// With `saturated`: cycles of measurement after the warm-up, at least.
    pub window: u64,
    /// With `saturated`: deliveries in the measurement window, at least.
    pub deliveries: u64,
    /// With `saturated`: the cycle at which the run stops whatever it has measured (its work
    /// budget).
    pub deadline: u64,
    /// Stop when more messages than this are in flight (created, not yet delivered).
    pub in_flight_limit: u64,
    /// Without `saturated`: stop once the run is measured to fall behind
    /// ([`StopReason::FellBehind`]), checked every `window` cycles after the warm-up.
    pub watch: bool,
}

impl StopRule {
    /// Run until the measured messages are delivered or the cycle limit, whatever the backlog.
    pub fn drain() -> Self {
        StopRule {
            saturated: false,
            window: 0,
            deliveries: 0,
            deadline: u64::MAX,
            in_flight_limit: u64::MAX,
            watch: false,
        }
    }
}

/// What to keep beyond the aggregate statistics (for tests, detailed output and traces).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Record {
    /// Every measured message's latency, source wait and hops, by sequence number.
    pub messages: bool,
    /// Every channel's busy cycles in the window.
    pub channels: bool,
    /// Hand every message created (warm-up included) to this log, as a trace record
    /// ([`crate::trace`]), in creation order.
    #[serde(skip)]
    pub trace: Option<crate::trace::MessageLog>,
    /// Count the simulated cycles here as the run goes, for a caller showing progress
    /// ([`crate::progress`]); it only observes, and costs nothing when absent.
    #[serde(skip)]
    pub progress: Option<crate::progress::Progress>,
    /// How many threads the run may use (it changes no result; see [`Jobs`]).
    #[serde(skip)]
    pub jobs: Jobs,
}

/// How many threads one run may use ([`Record::jobs`]). The ideal switch's fast engine cuts
/// the routers into that many shards ([`ideal`]'s "Threads"), stepped on as many threads, at
/// most one a core (threads beyond the cores would only wait on each other); its results are
/// the same, bit for bit, for any number. The virtual-channel router and the flit-by-flit
/// reference run on one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jobs {
    /// Every core on a network of at least [`Jobs::AUTO_ROUTERS`] routers, where a cycle's
    /// work outweighs handing it out and gathering it each cycle; one thread on smaller ones.
    Auto,
    /// This many shards (at least 1; at most one a router), on any network.
    Exactly(u32),
}

/// Whether a run on `net` under path choice `choice` can be cut into shards, on the virtual-
/// channel router (`vc`) or the fast ideal switch: not under UGAL-global (it reads queues
/// beyond the deciding router), nor on the VC router where terminals are not numbered in
/// router order ([`vc::terminals_in_order`]). The one rule the engines and the run's plan
/// follow.
pub fn shardable(net: &Network, choice: netwrap_topo::PathChoice, vc: bool) -> bool {
    choice != netwrap_topo::PathChoice::UgalGlobal && (!vc || vc::terminals_in_order(net))
}

impl Jobs {
    /// The smallest network [`Jobs::Auto`] shares out.
    pub const AUTO_ROUTERS: u32 = 4096;

    /// The threads that step a run on a network of `routers` routers at once: its
    /// [`Jobs::threads`], at most one a router and one a core; one where the run cannot be cut
    /// (`shardable` false: UGAL-global, the reference engines, a VC router run whose
    /// terminals are not in router order, [`vc::terminals_in_order`]).
    pub fn working(self, routers: u32, shardable: bool) -> usize {
        if !shardable {
            return 1;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.for_routers(routers).min(routers.max(1) as usize).min(cores)
    }

    /// The threads a run on `net` takes.
    pub fn threads(self, net: &Network) -> usize {
        self.for_routers(net.routers())
    }

    /// [`Jobs::threads`] on a network of `routers` routers.
    fn for_routers(self, routers: u32) -> usize {
        match self {
            Jobs::Exactly(n) => n.max(1) as usize,
            Jobs::Auto if routers >= Self::AUTO_ROUTERS => {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            }
            Jobs::Auto => 1,
        }
    }
}

impl Default for Jobs {
    /// One thread: sweeps run their points in parallel instead.
    fn default() -> Self {
        Jobs::Exactly(1)
    }
}

/// What an engine runs: workload and run control, already validated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSpec {
    /// How messages are created.
    pub arrivals: Arrivals,
    /// Flits per message, each at least 1.
    pub size: MessageSize,
    /// Memories that serve each message as an access and reply to it (`None`: a message is
    /// complete when it is delivered).
    pub memories: Option<Memories>,
    /// Cycles discarded before measurement starts; below `max_cycles`.
    pub warmup: u64,
    /// Messages created at or after the warm-up whose latency is measured (at most 2^32 − 2).
    pub messages: u64,
    /// Hard limit on simulated cycles, the warm-up included.
    pub max_cycles: u64,
    /// Seed of every random stream.
    pub seed: u64,
    /// When to stop early.
    pub stop: StopRule,
    /// What to record.
    pub record: Record,
    /// Which paths messages take (minimal, Valiant, UGAL, PAR) over the network's routing.
    pub paths: netwrap_topo::Paths,
    /// Terminals per group and groups, on families built of groups ([`netwrap_topo::Topology::groups`]).
    pub groups: Option<(u32, u32)>,
    /// Virtual-channel router: each channel's latency in cycles, at least 1 (its credits
    /// return as slowly); empty: the router's link latency on every channel.
    pub channel_latency: Vec<u32>,
}

/// Each channel's latency on the virtual-channel router: `spec.channel_latency`, or the link
/// latency everywhere.
pub(crate) fn channel_latencies(net: &Network, p: &params::VcParams, spec: &RunSpec) -> Vec<u32> {
    if spec.channel_latency.is_empty() {
        vec![p.link_latency; net.channels().len()]
    } else {
        spec.channel_latency.clone()
    }
}

/// The longest channel latency of a run on the virtual-channel router.
pub(crate) fn longest_latency(p: &params::VcParams, spec: &RunSpec) -> u32 {
    spec.channel_latency.iter().copied().max().unwrap_or(p.link_latency).max(1)
}

/// The cycle after an idle `now`: the earliest of the engine's next events (`None`: none of
/// that kind), at least `now + 1` and at most the cycle limit, so idle cycles cost nothing.
#[inline]
pub(crate) fn next_busy_cycle(now: u64, events: [Option<u64>; 3], max_cycles: u64) -> u64 {
    let next = events.into_iter().flatten().min().unwrap_or(max_cycles);
    next.clamp(now + 1, max_cycles.max(now + 1))
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// Every measured message was delivered.
    Drained,
    /// The network is saturated and the accepted throughput was measured.
    SaturationMeasured,
    /// The network was measured to fall behind ([`StopRule::watch`]): over two successive
    /// checks it delivered under 95% of the flits created while the messages in flight grew
    /// beyond their noise; the accepted throughput was measured.
    FellBehind,
    /// More messages were in flight than the run may keep.
    InFlightLimit,
    /// The cycle limit was reached first.
    CycleLimit,
    /// No flit moved for a while with packets in the network: a deadlock (virtual-channel
    /// router only; [`Outcome::deadlock`] holds the cycle of waits).
    Deadlock,
    /// The caller asked the run to stop ([`progress::Progress::cancel`]).
    Cancelled,
}

impl StopReason {
    /// In words.
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Drained => "every measured message delivered",
            StopReason::SaturationMeasured => "accepted throughput of the saturated network measured",
            StopReason::FellBehind => "the network measured falling behind",
            StopReason::InFlightLimit => "more messages in flight than a run keeps",
            StopReason::CycleLimit => "the cycle limit",
            StopReason::Deadlock => "a deadlock",
            StopReason::Cancelled => "the caller's cancellation",
        }
    }
}

/// One measured message, when [`Record::messages`] asks for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageRecord {
    /// Delivery cycle minus creation cycle (`u64::MAX`: not delivered).
    pub latency: u64,
    /// Cycles waited at the source before the first hop started.
    pub source_wait: u64,
    /// Channels crossed.
    pub hops: u32,
}

/// Raw results of one run; the spec layer (`netwrap_sim::report`) turns them into statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Cycle at which the run ended: the last measured delivery, or the cycle it stopped at.
    pub end: u64,
    /// First measured cycle (the warm-up length).
    pub warmup: u64,
    /// Why it stopped.
    pub stop: StopReason,
    /// The measured messages.
    pub measured: Measured,
    /// Busy cycles in the measurement window, per channel class.
    pub class_busy: Vec<u64>,
    /// Channels per class.
    pub class_channels: Vec<u64>,
    /// Busy cycles in the measurement window per channel, when recorded.
    pub channel_busy: Option<Vec<u64>>,
    /// Messages created in the measurement window, per terminal.
    pub generated: Vec<u32>,
    /// Messages delivered in the measurement window, per terminal (by destination).
    pub delivered: Vec<u32>,
    /// The same messages counted by their source: each source's accepted throughput.
    pub accepted: Vec<u32>,
    /// Flits of the messages created in the measurement window.
    pub flits_generated: u64,
    /// Flits of the messages delivered in the measurement window.
    pub flits_delivered: u64,
    /// Of `flits_generated`, those of self-addressed messages (which cross no channel).
    pub self_flits_generated: u64,
    /// Of `flits_delivered`, those of self-addressed messages.
    pub self_flits_delivered: u64,
    /// The same four counts over the warm-up, up to the run's end: what a run stopped before
    /// its measurement window (an overload reaching the in-flight limit) accepted.
    pub warmup_counts: SpanCounts,
    /// Every delivery by its cycle, warm-up included: the steady-state test's series.
    pub series: Series,
    /// Messages created over the whole run, warm-up included.
    pub messages_total: u64,
    /// Messages created but not delivered when the run ended.
    pub in_flight: u64,
    /// Channel-cycles of transmission over the whole run (flit-hops on unit channels).
    pub flit_hops: u64,
    /// Channel-occupancy checks that failed: a message found its next flit missing when the
    /// channel was granted (always 0 with unbounded queues; the reference engine counts it).
    pub stalls: u64,
    /// Every measured message, when recorded.
    pub messages: Option<Vec<MessageRecord>>,
    /// The cycle of waits found when the run stopped on a deadlock.
    pub deadlock: Option<Deadlock>,
    /// Packets of the measured messages, when messages are sent as packets (virtual-channel
    /// router).
    pub packets: Option<PacketStats>,
    /// Virtual-channel router: flit-cycles each channel's input VCs held in the window
    /// [warm-up, end), indexed channel × V + VC (divide by the window for the mean occupancy).
    pub vc_occupancy: Option<Vec<u64>>,
    /// Virtual-channel router only: per channel class, how long packets held a channel and how
    /// long their headers waited for it.
    pub channel_service: Option<Vec<ClassService>>,
    /// Processors that wait and memories that reply: what their accesses measured.
    pub accesses: Option<AccessOutcome>,
    /// A dependency graph's run (a trace, a collective): its completion and critical path.
    pub completion: Option<deps::Completion>,
}

/// How one class of channels served packets on the virtual-channel router, over the packets
/// that took such a channel in the measurement window: Greenberg & Guan's service time x̄ (the
/// cycles from a packet taking the channel's virtual channel to its tail leaving, both
/// counted) and wait w (the cycles its header, at the front of its buffer and ready, waited
/// for it) of each kind of channel. Besides the network's classes there are `injection` (a
/// packet holds its injection channel from taking it to its last flit written; its wait is
/// from its creation, in the source queue) and `ejection`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassService {
    /// The class's name (the network's, or `injection`, `ejection`).
    pub class: String,
    /// Packets that took such a channel in the measurement window and let it go.
    pub packets: u64,
    /// Sum of their holding times.
    pub hold_sum: u64,
    /// Sum of their headers' waits.
    pub wait_sum: u64,
}

impl ClassService {
    /// An empty record for each of `net`'s channel classes, then `injection` and `ejection`:
    /// the order reports list them in.
    pub fn per_class(net: &netwrap_topo::Network) -> Vec<ClassService> {
        net.classes()
            .iter()
            .cloned()
            .chain(["injection".to_string(), "ejection".to_string()])
            .map(|class| ClassService { class, ..ClassService::default() })
            .collect()
    }
}

/// The packets of the measured messages that were delivered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PacketStats {
    /// Packets delivered.
    pub delivered: u64,
    /// Sum of their latencies: delivery cycle minus their message's creation cycle.
    pub latency_sum: u64,
    /// Sum of their network latencies: delivery cycle minus the cycle their header left the
    /// source router.
    pub network_sum: u64,
    /// Those sent through an intermediate (Valiant, UGAL, PAR).
    pub nonminimal: u64,
}

/// A deadlock found at run time: a cycle of input virtual channels, each holding a packet that
/// waits for the next one's room (or for an output VC the next one's packet holds).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Deadlock {
    /// Cycle at which it was declared.
    pub detected_at: u64,
    /// Cycles without any flit moving before it was declared.
    pub quiet_cycles: u64,
    /// Flits in the network then (buffered or on a wire).
    pub flits_in_network: u64,
    /// The cycle of waits: each entry waits for the next, the last for the first.
    pub cycle: Vec<DeadlockWait>,
}

/// One input virtual channel of a deadlock cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct DeadlockWait {
    /// The router holding the packet.
    pub router: u32,
    /// The input channel (absent: the injection channel of `terminal`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub channel: Option<u32>,
    /// The input channel's class, e.g. `dim 0 +`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub class: Option<String>,
    /// The injecting terminal, for an injection channel.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub terminal: Option<u32>,
    /// The virtual channel.
    pub vc: u32,
    /// The blocked packet's destination terminal.
    pub destination: u32,
    /// The packet's message's source terminal.
    pub source: u32,
}

impl Outcome {
    /// True when every measured message was delivered.
    pub fn drained(&self) -> bool {
        self.stop == StopReason::Drained
    }
}

/// A message in flight: one cache line, on a line of its own. Shards on different threads
/// write messages whose slots lie side by side; a message straddling two lines would share
/// them with its neighbours, and on two threads the lines would bounce between the cores (a
/// 65,536-node torus on two threads took 12% longer, `farm-bench` pairs).
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(crate) struct Msg {
    pub created: u64,
    pub first_start: u64,
    /// Cycle at which the message's last flit reaches its current router.
    pub tail_at: u64,
    /// Width of the channel the message arrived on (0 at its source).
    pub in_width: u32,
    pub dst: TerminalId,
    /// The terminal that sent it.
    pub src: TerminalId,
    pub at: u32,
    pub salt: u32,
    pub seq: u32,
    pub hops: u32,
    /// Flits.
    pub size: u32,
    /// The access it belongs to, as the workload numbers it ([`workload::UNTRACKED`]: none).
    pub tag: u32,
    /// Its routing state ([`netwrap_topo::paths::Leg`]).
    pub leg: netwrap_topo::paths::Leg,
}

const _: () = assert!(std::mem::size_of::<Msg>() == 64);

impl Msg {
    /// A message of `size` flits created at `now`, ready at router `at`, not yet moved.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        now: u64,
        src: TerminalId,
        dst: TerminalId,
        at: u32,
        salt: u32,
        seq: u32,
        size: u32,
        tag: u32,
    ) -> Self {
        Msg {
            created: now,
            first_start: now,
            tail_at: now,
            in_width: 0,
            dst,
            src,
            at,
            salt,
            seq,
            hops: 0,
            size,
            tag,
            leg: netwrap_topo::paths::UNDECIDED,
        }
    }

    /// Whether it is a reply.
    pub fn is_reply(&self) -> bool {
        self.tag != workload::UNTRACKED && self.tag & (1 << 31) != 0
    }
}

/// The sequence number of a message that is not measured.
pub(crate) const UNMEASURED: u32 = u32::MAX;

/// A terminal that never creates another message.
pub(crate) const NEVER: u64 = u64::MAX;

/// A delivery known ahead of the clock, counted when the clock reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Delivery {
    dst: TerminalId,
    src: TerminalId,
    seq: u32,
    hops: u32,
    latency: u64,
    source_wait: u64,
    size: u32,
    nonminimal: bool,
}

/// Messages and flits created and delivered over a span of the run, and of the flits the
/// self-addressed messages' (which cross no channel).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SpanCounts {
    /// Messages created.
    pub messages_generated: u64,
    /// Messages delivered.
    pub messages_delivered: u64,
    /// Flits of the messages created.
    pub generated: u64,
    /// Flits of the messages delivered.
    pub delivered: u64,
    /// Of `generated`, the self-addressed messages'.
    pub self_generated: u64,
    /// Of `delivered`, the self-addressed messages'.
    pub self_delivered: u64,
}

/// Measurement bookkeeping and the stop rule, shared by both engines.
pub(crate) struct Collector {
    warmup: u64,
    rule: StopRule,
    measured: Measured,
    /// Measured messages whose delivery is known (possibly a few cycles ahead).
    measured_known: u64,
    last_delivery: u64,
    /// Deliveries at or after the warm-up, filed by their cycle (engines know a delivery a few
    /// cycles ahead), so that a run stopped at cycle `end` counts exactly those up to `end`.
    pending: Calendar<Delivery>,
    due: Vec<Delivery>,
    window_deliveries: u64,
    /// Flits of the messages created and delivered in the window.
    window_flits_created: u64,
    window_flits_delivered: u64,
    /// Of those, the self-addressed messages' flits.
    window_self_created: u64,
    window_self_delivered: u64,
    /// The same over the warm-up.
    warmup_counts: SpanCounts,
    delivered_total: u64,
    messages_total: u64,
    flit_hops: u64,
    stalls: u64,
    generated: Vec<u32>,
    delivered: Vec<u32>,
    accepted: Vec<u32>,
    records: Option<Vec<MessageRecord>>,
    record_channels: bool,
    /// Nodes counted per terminal: the processors (a joined request and reply network's
    /// memory terminal N + d counts as node d).
    nodes: u32,
    /// Measured accesses issued and completed (processors that wait, memories that reply): the
    /// run drains when both its measured messages and its measured accesses are done.
    accesses_issued: u64,
    accesses_completed: u64,
    access_target: u64,
    /// Accesses issued and not completed (measured or not).
    accesses_open: u64,
    /// Counts the simulated cycles into [`Record::progress`], if any.
    progress: crate::progress::Reporter,
    /// Every delivery by its cycle, for the steady-state test.
    series: Series,
    /// What the last falling-behind check saw ([`StopRule::watch`]).
    watch: Watch,
}

/// The falling-behind watch's last check ([`StopRule::watch`]).
#[derive(Clone, Copy, Debug, Default)]
struct Watch {
    /// The next check's cycle (0: no check yet; the first, at the warm-up's end, sets the
    /// baseline).
    next: u64,
    /// Flits created and delivered in the window up to the last check.
    created: u64,
    delivered: u64,
    /// Messages in flight at the last check.
    in_flight: u64,
    /// Successive checks that found the run behind.
    behind: u32,
}

impl Collector {
    pub fn new(spec: &RunSpec, net: &Network) -> Self {
        let joined = spec.memories.is_some_and(|m| m.joined);
        let nodes = if joined { net.terminals() / 2 } else { net.terminals() };
        let terminals = nodes as usize;
        let tracked = spec.memories.is_some() || matches!(spec.arrivals, Arrivals::Threads { .. });
        Collector {
            warmup: spec.warmup,
            rule: spec.stop.clone(),
            measured: Measured::new(spec.messages),
            measured_known: 0,
            last_delivery: 0,
            pending: Calendar::new(),
            due: Vec::new(),
            window_deliveries: 0,
            window_flits_created: 0,
            window_flits_delivered: 0,
            window_self_created: 0,
            window_self_delivered: 0,
            warmup_counts: SpanCounts::default(),
            delivered_total: 0,
            messages_total: 0,
            flit_hops: 0,
            stalls: 0,
            generated: vec![0; terminals],
            delivered: vec![0; terminals],
            accepted: vec![0; terminals],
            records: spec.record.messages.then(Vec::new),
            record_channels: spec.record.channels,
            nodes,
            accesses_issued: 0,
            accesses_completed: 0,
            accesses_open: 0,
            access_target: if tracked { spec.messages } else { 0 },
            progress: crate::progress::Reporter::new(spec.record.progress.clone()),
            series: Series::default(),
            watch: Watch::default(),
        }
    }

    /// An access was issued (`measured`: one of the measured ones).
    #[inline]
    pub fn access_issued(&mut self, measured: bool) {
        self.accesses_open += 1;
        self.accesses_issued += measured as u64;
    }

    /// An access completed at cycle `at`.
    #[inline]
    pub fn access_completed(&mut self, at: u64, measured: bool) {
        self.accesses_open -= 1;
        if measured {
            self.accesses_completed += 1;
            self.last_delivery = self.last_delivery.max(at);
        }
    }

    /// The node a terminal counts for.
    #[inline]
    fn node(&self, t: TerminalId) -> usize {
        (if t >= self.nodes { t - self.nodes } else { t }) as usize
    }

    /// Registers a message of `size` flits created at `t` (`own`: addressed to its source's
    /// own terminal); returns its measured sequence number, if any.
    #[inline]
    pub fn created(&mut self, src: TerminalId, t: u64, size: u32, own: bool) -> u32 {
        self.messages_total += 1;
        if t < self.warmup {
            self.warmup_counts.messages_generated += 1;
            self.warmup_counts.generated += size as u64;
            self.warmup_counts.self_generated += if own { size as u64 } else { 0 };
            return UNMEASURED;
        }
        self.window_flits_created += size as u64;
        self.window_self_created += if own { size as u64 } else { 0 };
        let node = self.node(src);
        self.generated[node] = self.generated[node].saturating_add(1);
        if self.measured.created < self.measured.target {
            self.measured.created += 1;
            if let Some(r) = &mut self.records {
                r.push(MessageRecord { latency: u64::MAX, source_wait: u64::MAX, hops: 0 });
            }
            (self.measured.created - 1) as u32
        } else {
            UNMEASURED
        }
    }

    /// No message will be created any more (a replayed trace ended): the measured messages are
    /// those created so far.
    pub fn creations_ended(&mut self) {
        self.measured.target = self.measured.target.min(self.measured.created);
    }

    /// Records that `m` will be delivered at cycle `at` (not before the clock).
    #[inline]
    pub fn delivered(&mut self, m: &Msg, at: u64) {
        self.delivered_total += 1;
        if m.seq != UNMEASURED {
            self.measured_known += 1;
            self.last_delivery = self.last_delivery.max(at);
        }
        // Filed whenever it happens, so a run that ends in its warm-up counts exactly the
        // deliveries up to its end.
        let source_wait = if m.hops == 0 { 0 } else { m.first_start - m.created };
        self.pending.push(
            at,
            Delivery {
                dst: m.dst,
                src: m.src,
                seq: m.seq,
                hops: m.hops,
                latency: at - m.created,
                source_wait,
                size: m.size,
                nonminimal: netwrap_topo::paths::went_nonminimal(m.leg),
            },
        );
    }

    /// Counts `cycles` channel-cycles of transmission (for the flit-hop figure).
    #[inline]
    pub fn transmitted(&mut self, cycles: u64) {
        self.flit_hops += cycles;
    }

    /// Counts the deliveries that happen at cycle `now`.
    #[inline]
    pub fn tick(&mut self, now: u64) {
        // Every engine ticks once a loop iteration, at the cycle it simulates or jumped to.
        self.progress.at(now);
        self.pending.take(now, &mut self.due);
        if !self.due.is_empty() {
            let mut d = SeriesBucket { messages: self.due.len() as u64, ..Default::default() };
            for x in &self.due {
                d.flits += if x.src == x.dst { 0 } else { x.size as u64 };
                d.latency_sum += x.latency;
            }
            self.series.add(now, d);
        }
        if now < self.warmup {
            self.warmup_counts.messages_delivered += self.due.len() as u64;
            for d in &self.due {
                self.warmup_counts.delivered += d.size as u64;
                self.warmup_counts.self_delivered += if d.src == d.dst { d.size as u64 } else { 0 };
            }
            self.due.clear();
            return;
        }
        self.window_deliveries += self.due.len() as u64;
        for d in &self.due {
            self.window_flits_delivered += d.size as u64;
            self.window_self_delivered += if d.src == d.dst { d.size as u64 } else { 0 };
            let node = self.node(d.dst);
            self.delivered[node] = self.delivered[node].saturating_add(1);
            let source = self.node(d.src);
            self.accepted[source] = self.accepted[source].saturating_add(1);
            if d.seq != UNMEASURED {
                self.measured.record(
                    d.seq as u64,
                    now.saturating_sub(self.warmup),
                    d.latency,
                    d.hops as u64,
                    d.source_wait,
                );
                self.measured.nonminimal += u64::from(d.nonminimal);
                if let Some(r) = &mut self.records {
                    r[d.seq as usize] =
                        MessageRecord { latency: d.latency, source_wait: d.source_wait, hops: d.hops };
                }
            }
        }
        self.due.clear();
    }

    /// The next cycle after `now` at which a delivery is due, if any.
    pub fn next_delivery(&self) -> Option<u64> {
        self.pending.next_after_now()
    }

    fn all_measured_delivered(&self) -> bool {
        self.measured_known == self.measured.target
            && self.accesses_issued == self.access_target
            && self.accesses_completed == self.access_target
    }

    /// Whether a falling-behind check at `now`, with `in_flight` messages in flight, finds the
    /// run behind for the second time running, with its throughput measured
    /// ([`StopRule::watch`]). Behind over one check: under 95% of the flits created since the
    /// last check were delivered, and the messages in flight grew by more than five times the
    /// square root of their number (in a steady state they stay level, fluctuating by about
    /// that root; the report's test, [`StopReason::FellBehind`]). Two checks running, each a
    /// measurement window long, so a filling transient that settles is not taken for it.
    fn fell_behind(&mut self, now: u64, in_flight: u64) -> bool {
        if now < self.warmup || now < self.watch.next {
            return false;
        }
        let (created, delivered) = (self.window_flits_created, self.window_flits_delivered);
        let last = self.watch;
        let next = now.saturating_add(self.rule.window.max(1));
        if last.next == 0 {
            self.watch = Watch { next, created, delivered, in_flight, behind: 0 };
            return false;
        }
        let short = ((delivered - last.delivered) as f64) < 0.95 * (created - last.created) as f64;
        let grew = in_flight.saturating_sub(last.in_flight) as f64 > 5.0 * (in_flight.max(1) as f64).sqrt();
        let behind = if short && grew { last.behind + 1 } else { 0 };
        self.watch = Watch { next, created, delivered, in_flight, behind };
        behind >= 2 && (self.window_deliveries >= self.rule.deliveries || now >= self.rule.deadline)
    }

    /// Whether the run stops at the end of cycle `now`, and why.
    #[inline]
    pub fn stop(&mut self, now: u64) -> Option<StopReason> {
        if self.rule.saturated {
            // A saturated network's run ends when its window has measured the accepted
            // throughput, however early its measured messages drained.
            let measured = now >= self.warmup.saturating_add(self.rule.window)
                && self.window_deliveries >= self.rule.deliveries;
            if measured || now >= self.rule.deadline {
                return Some(StopReason::SaturationMeasured);
            }
        } else if self.all_measured_delivered() && now + 1 >= self.last_delivery {
            // The clock reaches the cycle before the last delivery, so every engine ends alike.
            return Some(StopReason::Drained);
        }
        // Deliveries scheduled but still ahead of the clock (a huge message's) hold memory too.
        let messages = self.messages_total - self.delivered_total + self.pending.len() as u64;
        if self.rule.watch && !self.rule.saturated && self.fell_behind(now, messages) {
            return Some(StopReason::FellBehind);
        }
        // Accesses waiting at memories hold memory too, whether or not a message is in flight.
        if messages.max(self.accesses_open) > self.rule.in_flight_limit {
            return Some(StopReason::InFlightLimit);
        }
        if self.progress.cancelled() {
            return Some(StopReason::Cancelled);
        }
        None
    }

    pub fn stall(&mut self) {
        self.stalls += 1;
    }

    /// Why the run stopped at the end of cycle `now` (`reason`, or the cycle limit when
    /// `None`) and the last cycle of its measurement window, [warm-up, end]: creations and
    /// channel cycles before `end`, deliveries up to it.
    pub fn end(&self, now: u64, reason: Option<StopReason>) -> (StopReason, u64) {
        // Without a reason the loop ran out of cycles: deliveries still ahead of the clock
        // (a huge message's, say) fall after the limit, and do not count.
        let stop = reason.unwrap_or(StopReason::CycleLimit);
        let end = match stop {
            StopReason::Drained => self.last_delivery.max(self.warmup + 1),
            // The loop ran out: cycles 0 .. now − 1 were simulated.
            StopReason::CycleLimit => now,
            // Stopped at the end of cycle `now`, which was simulated.
            StopReason::SaturationMeasured
            | StopReason::FellBehind
            | StopReason::InFlightLimit
            | StopReason::Deadlock
            | StopReason::Cancelled => now + 1,
        };
        (stop, end)
    }

    /// Closes the run (see [`Self::end`]); `busy[c]` is channel `c`'s busy cycles in the
    /// window [warm-up, end) on `net`.
    pub fn finish(
        mut self,
        net: &Network,
        now: u64,
        reason: Option<StopReason>,
        busy: impl Iterator<Item = u64>,
    ) -> Outcome {
        let (stop, end) = self.end(now, reason);
        for t in now..=end {
            self.tick(t);
        }
        self.progress.finish(end);
        let classes = net.classes().len();
        let mut class_busy = vec![0u64; classes];
        let mut class_channels = vec![0u64; classes];
        let mut channel_busy = self.record_channels.then(Vec::new);
        for (c, b) in busy.enumerate() {
            let class = net.channels()[c].class as usize;
            class_busy[class] += b;
            class_channels[class] += 1;
            if let Some(v) = &mut channel_busy {
                v.push(b);
            }
        }
        Outcome {
            end,
            warmup: self.warmup,
            stop,
            measured: self.measured,
            class_busy,
            class_channels,
            channel_busy,
            generated: self.generated,
            delivered: self.delivered,
            accepted: self.accepted,
            flits_generated: self.window_flits_created,
            flits_delivered: self.window_flits_delivered,
            self_flits_generated: self.window_self_created,
            self_flits_delivered: self.window_self_delivered,
            warmup_counts: self.warmup_counts,
            series: self.series,
            messages_total: self.messages_total,
            // Deliveries known but after the end are still in flight.
            in_flight: self.messages_total - self.delivered_total + self.pending.len() as u64,
            flit_hops: self.flit_hops,
            stalls: self.stalls,
            messages: self.records,
            deadlock: None,
            packets: None,
            vc_occupancy: None,
            channel_service: None,
            accesses: None,
            completion: None,
        }
    }
}

/// Picks among several allowed channels: a rotation chosen by the message's salt and hop
/// count, then the first channel free at cycle `t`, else the one that frees first.
/// `free_at(c)` is the cycle at which channel `c`'s queue empties.
#[inline]
pub(crate) fn choose(
    cands: &[ChannelId],
    salt: u32,
    hops: u32,
    t: u64,
    free_at: impl Fn(ChannelId) -> u64,
) -> ChannelId {
    if cands.len() == 1 {
        return cands[0];
    }
    let start = (mix(((salt as u64) << 16) | (hops as u64 & 0xFFFF)) % cands.len() as u64) as usize;
    let mut best = cands[start];
    let mut best_free = free_at(best);
    for i in 0..cands.len() {
        let c = cands[(start + i) % cands.len()];
        let f = free_at(c);
        if f <= t {
            return c;
        }
        if f < best_free {
            best = c;
            best_free = f;
        }
    }
    best
}

/// Asks the processor to bring `x`'s cache lines in ahead of its use (a hint: it changes no
/// value): its first byte's and its last's, which differ for a record that straddles two
/// lines (a 40-byte packet does so at half its places). On a large network the engines'
/// state does not fit in the caches, and the stages read it in an order known a little ahead
/// (the VC router: landing flits, the next routers to step; the ideal switch: the next events'
/// messages).
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads no memory the program can observe and cannot fault; `x` is a
    // valid reference, so its first and last bytes are in the process's memory.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let first = (x as *const T).cast::<i8>();
        _mm_prefetch::<_MM_HINT_T0>(first);
        // (A record no larger than its alignment never straddles.)
        if std::mem::size_of::<T>() > std::mem::align_of::<T>() {
            _mm_prefetch::<_MM_HINT_T0>(first.add(std::mem::size_of::<T>() - 1));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
