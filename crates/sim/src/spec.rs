//! [`SimSpec`]: a simulation as its user writes it, in one serde value with one section per
//! concern — `topology`, `routing`, `router`, `workload`, `run` — from flags, a TOML
//! experiment file, a result's JSON or a Python dict alike.
//!
//! Every key is spelled as its command-line flag (`run.max-cycles` is `--max-cycles`), except
//! the two section selectors, which take their section's name: `--routing` sets
//! `routing.algorithm` and `--router` sets `router.kind`. Every key may be left out (it takes
//! its default); unknown keys are errors. [`SimSpec::resolve`] checks every value once and
//! gives a [`crate::Resolved`], which holds no defaults left to fill; its
//! [`crate::Resolved::written`] is the spec with every key written, the `config` a result
//! prints, which reads back to the same result.

pub use netwrap_engine::collective::{CollectiveKind, Schedule};
pub use netwrap_engine::params::{
    Allocator, Arbitration, Avoidance, DatelineClass, Ejection, EngineKind, Interval, MAX_VC_PARAM, Stages,
    Switching, Threads, VcChoice, VcParams,
};
use netwrap_topo::{RoutingSpec, TopologySpec};
use serde::{Deserialize, Serialize};

/// A whole simulation, as a user writes it.
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
}

/// The router model: the `router` section. Every key but `kind` belongs to the
/// virtual-channel router (`kind = "vc"`) and is an error with the ideal switch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct RouterSpec {
    /// Router model [spec: router.kind] (default: ideal).
    #[cfg_attr(feature = "cli", arg(long = "router", value_parser = netwrap_topo::cli::choice::<RouterKind>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<RouterKind>,
    /// With --router vc: start from another simulator's router, its defaults for every key
    /// not given [spec: router.preset] (default: none, netwrap's defaults).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Preset>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// With --router vc: virtual channels per input port V [spec: router.vcs] (default 2).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vcs: Option<u32>,
    /// With --router vc: flits per virtual-channel buffer F [spec: router.buffer] (default 16).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<u32>,
    /// With --router vc: flits per output VC's buffer in the sending router, between the
    /// switch and the link (CAMINOS's output buffers) [spec: router.output-buffer] (default 0:
    /// none, the input-buffered router).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_buffer: Option<u32>,
    /// With --router vc: switch grants an input port may take per cycle, to different
    /// outputs (BookSim2's input_speedup) [spec: router.input-speedup] (default 1).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_speedup: Option<u32>,
    /// With --router vc: switch grants an output channel's buffers may take per cycle, from
    /// different VCs (BookSim2's output_speedup; needs --output-buffer) [spec:
    /// router.output-speedup] (default 1).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_speedup: Option<u32>,
    /// With --router vc: router delay r in cycles, the pipeline each flit crosses in a router
    /// [spec: router.router-delay] (default 0: r + l = 1, the ideal switch's hop).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub router_delay: Option<u32>,
    /// With --router vc: cycles a header spends routing, from when it is ready at the front of
    /// its VC (0: lookahead routing) [spec: router.routing-delay] (default 0). With any stage
    /// delay the router delay r is switch-alloc-delay + traversal-delay.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, conflicts_with = "router_delay", global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing_delay: Option<u32>,
    /// With --router vc: cycles from a header's VC grant to its first switch request [spec:
    /// router.vc-alloc-delay] (default 0).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, conflicts_with = "router_delay", global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc_alloc_delay: Option<u32>,
    /// With --router vc: cycles every flit spends in switch allocation [spec:
    /// router.switch-alloc-delay] (default 0).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, conflicts_with = "router_delay", global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switch_alloc_delay: Option<u32>,
    /// With --router vc: cycles every flit spends crossing the switch [spec:
    /// router.traversal-delay] (default 0).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, conflicts_with = "router_delay", global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traversal_delay: Option<u32>,
    /// With --router vc: switch allocation speculates beside VC allocation, hiding the VC
    /// allocation stage up to the switch allocation's length [spec: router.speculative]
    /// (default false).
    #[cfg_attr(feature = "cli", arg(long, num_args = 0..=1, default_missing_value = "true", value_parser = clap::value_parser!(bool), conflicts_with = "router_delay", global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speculative: Option<bool>,
    /// With --router vc: cycles a flit spends on its terminal's injection channel [spec:
    /// router.injection-latency] (default 0: written into the router's buffer).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injection_latency: Option<u32>,
    /// With --router vc: cycles from a flit's ejection to its terminal [spec:
    /// router.ejection-latency] (default 0: delivered the cycle after its tail is ejected).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ejection_latency: Option<u32>,
    /// With --router vc: packets an ejection port takes at once [spec: router.ejection]
    /// (default: one-packet).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Ejection>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ejection: Option<Ejection>,
    /// With --router vc --deadlock dateline: when a packet takes its ring's upper VC class
    /// [spec: router.dateline-class] (default: at-wrap).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<DatelineClass>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dateline_class: Option<DatelineClass>,
    /// With --router vc: link latency l in cycles (Agarwal 1991's wire delay), also the credit
    /// delay [spec: router.link-latency] (default 1).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_latency: Option<u32>,
    /// With --router vc: most flits per packet P; a message of B flits is ⌈B/P⌉ packets
    /// [spec: router.packet] (default 16).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet: Option<u32>,
    /// With --router vc: switching [spec: router.switching] (default: wormhole).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Switching>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switching: Option<Switching>,
    /// With --router vc: arbitration for VCs and switch ports [spec: router.arbitration]
    /// (default: round-robin).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Arbitration>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arbitration: Option<Arbitration>,
    /// With --router vc: the switch allocator; its arbiters follow --arbitration [spec:
    /// router.allocator] (default: greedy).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Allocator>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocator: Option<Allocator>,
    /// With --router vc: which free VC a packet takes, at a router's output and at injection
    /// [spec: router.vc-choice] (default: lowest).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<VcChoice>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc_choice: Option<VcChoice>,
    /// With --router vc: deadlock avoidance [spec: router.deadlock] (default: none).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Avoidance>(), global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadlock: Option<Avoidance>,
    /// With --router vc: latency in cycles of the channels of class `local` (a dragonfly's
    /// local channels), their credits' alike [spec: router.local-latency] (default: the link
    /// latency).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_latency: Option<u32>,
    /// With --router vc: latency in cycles of the channels of class `global` (a dragonfly's
    /// global channels), their credits' alike [spec: router.global-latency] (default: the link
    /// latency).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_latency: Option<u32>,
    /// With --router vc: latencies of any family's channel classes by name, `CLASS=CYCLES,…`
    /// (e.g. `up 1-2=2,up 2-3=8`; the classes `netwrap topo` lists) [spec: router.class-latency,
    /// a table] (default: the link latency).
    #[cfg_attr(feature = "cli", arg(long, value_parser = ClassLatency::parse, global = true, help_heading = "Router"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_latency: Option<ClassLatency>,
}

/// Channel latencies by class name (`router.class-latency`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClassLatency(pub std::collections::BTreeMap<String, u32>);

impl ClassLatency {
    /// Parses `CLASS=CYCLES,…` (the command line's form).
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut map = std::collections::BTreeMap::new();
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let (class, cycles) = part
                .rsplit_once('=')
                .ok_or_else(|| format!("'{part}': give CLASS=CYCLES, e.g. global=100"))?;
            let cycles: u32 = cycles
                .trim()
                .parse()
                .map_err(|_| format!("'{part}': the latency must be a whole number of cycles"))?;
            if map.insert(class.trim().to_string(), cycles).is_some() {
                return Err(format!("class '{}' is given twice", class.trim()));
            }
        }
        Ok(ClassLatency(map))
    }
}

/// Another simulator's router defaults (`router.preset`), for comparing with it.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Preset {
    /// BookSim2's IQ router as its configuration defaults set it: 16 VCs of 8 flits, 1-flit
    /// packets, wormhole, routing, VC allocation, switch allocation and traversal 1 cycle each
    /// without speculation, a one-iteration iSLIP switch allocator, VCs taken round-robin,
    /// injection and ejection
    /// channels of 1 cycle, ejection with every VC, the dateline class by route; unloaded 3 + (H + 1)·t_r + H·t_c + (L − 1) cycles with
    /// t_r = 4, t_c = 1 (links of 1 cycle: BookSim's `use_noc_latency = 0`).
    Booksim,
    /// CAMINOS's Basic router as its bubble example sets it: one VC of 16 flits, an output
    /// buffer of 16 flits per VC, 4-flit packets, no router delay, links of 1 cycle, a
    /// server-to-router link of 1 cycle, virtual cut-through; unloaded (H + 2) + (P − 1)
    /// cycles (H counting the channels between routers).
    Caminos,
}

impl Preset {
    /// The spelling of the spec and the flag.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The router parameters this preset starts from.
    pub fn params(self) -> VcParams {
        let d = VcParams::DEFAULT;
        match self {
            Preset::Booksim => VcParams {
                vcs: 16,
                buffer: 8,
                packet: 1,
                router_delay: 2,
                stages: Some(Stages {
                    routing: 1,
                    vc_alloc: 1,
                    switch_alloc: 1,
                    traversal: 1,
                    speculative: false,
                }),
                injection_latency: 1,
                ejection_latency: 1,
                ejection: Ejection::EveryVc,
                dateline_class: DatelineClass::ByRoute,
                allocator: Allocator::Islip,
                vc_choice: VcChoice::Rotating,
                ..d
            },
            Preset::Caminos => VcParams {
                vcs: 1,
                buffer: 16,
                output_buffer: 16,
                packet: 4,
                switching: Switching::Vct,
                injection_latency: 1,
                ..d
            },
        }
    }
}

/// The router models.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
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

/// Where messages go: the `pattern` of the workload.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum PatternKind {
    /// Uniform over every terminal, the source included (the homework's App. A).
    #[default]
    Uniform,
    /// Uniform over every other terminal, the source excluded (as CAMINOS' uniform; BookSim2's
    /// includes the source, as `uniform`).
    UniformOthers,
    /// Matrix transpose on node numbers (Puente et al. §5.1): N = k², y·k + x → x·k + y.
    Transpose,
    /// Bit reversal on node numbers (Puente et al. §5.1): N = 2^b.
    BitReversal,
    /// Perfect shuffle, the address rotated left one bit (Puente et al. §5.1): N = 2^b.
    Shuffle,
    /// Bit complement, d = N − 1 − s (Dally & Towles §3.2): N = 2^b.
    BitComplement,
    /// Tornado, every router coordinate + ⌈k/2⌉ − 1 mod k (Dally & Towles §3.2): k-ary
    /// n-cubes and HyperX.
    Tornado,
    /// Neighbour, every router coordinate + 1 mod k (Dally & Towles §3.2): k-ary n-cubes and
    /// HyperX.
    Neighbor,
    /// A fraction of messages to hot-spot nodes, the rest uniform: needs `hotspots` and
    /// `hotspot-fraction`.
    Hotspot,
    /// A random permutation drawn from the run's seed.
    Permutation,
    /// Uniform over a subcube of l·N nodes with a corner at the source (Agarwal 1991 §5.1,
    /// the homework before Ex 5): tori and rings only; needs `locality`.
    Locality,
    /// Every terminal of group i to a uniformly chosen terminal of group i + s mod g (Kim,
    /// Dally, Scott & Abts 2008's adversarial traffic): families with groups (dragonflies);
    /// s is `shift` (default 1).
    GroupShift,
    /// Every terminal of router (x0, x1, …) to the same-numbered terminal of router
    /// (x0 + s mod k0, x1, …): a shift along dimension 0, s = `shift` (default 1), on k-ary
    /// n-cubes and HyperX. On a HyperX all p terminals of a router then cross one channel,
    /// minimal routing's worst case (1/p; Kim, Dally & Abts 2007 on the flattened butterfly).
    DimensionShift,
}

impl PatternKind {
    /// The spelling of the spec and the flag.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether the pattern is defined on node numbers (transpose, bit-reversal, shuffle,
    /// bit-complement): those `workload.mapping` applies to.
    pub fn on_node_numbers(self) -> bool {
        matches!(
            self,
            PatternKind::Transpose
                | PatternKind::BitReversal
                | PatternKind::Shuffle
                | PatternKind::BitComplement
        )
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct WorkloadSpec {
    /// Request rate m: messages each terminal creates per cycle, in (0, 1] [spec:
    /// workload.rate] (default 0.04).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::rate, allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate: Option<f64>,
    /// Offered load in flits per node per cycle, instead of --rate: the rate is the load over
    /// the mean message length [spec: workload.load].
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::positive, allow_negative_numbers = true, conflicts_with = "rate", global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// Message length B in flits [spec: workload.size] (default 4); with --long-size, the
    /// short messages' length.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<1>, allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// Length of the long messages of a bimodal mix (Puente et al.: 200 of 20) [spec:
    /// workload.long-size]; needs --long-fraction.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<1>, allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub long_size: Option<u32>,
    /// Fraction of long messages, in (0, 1] (Puente et al.: 0.1) [spec:
    /// workload.long-fraction]; needs --long-size.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::fraction, allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub long_fraction: Option<f64>,
    /// Destination pattern [spec: workload.pattern] (default: uniform).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<PatternKind>(), global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<PatternKind>,
    /// Locality fraction l in (0, 1]: destinations in a subcube of l·N nodes with a corner at
    /// the source (tori and rings) [spec: workload.locality]; l = 1 is uniform traffic.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::fraction, allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locality: Option<f64>,
    /// The groups on that --pattern group-shift sends to, s ≢ 0 mod g [spec: workload.shift]
    /// (default 1).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shift: Option<u32>,
    /// The hot-spot nodes of --pattern hotspot, comma-separated network node numbers [spec:
    /// workload.hotspots].
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, value_delimiter = ',', num_args = 1.., allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hotspots: Option<Vec<u32>>,
    /// Fraction of messages sent to the hot spots, in (0, 1] [spec: workload.hotspot-fraction].
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::fraction, allow_negative_numbers = true, global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hotspot_fraction: Option<f64>,
    /// Messages a pattern addresses to their own source (uniform's draws of it, a
    /// permutation's fixed points), which cross no channel: include them, exclude them (no
    /// draw falls on the source; a fixed point sends nothing), or reroute them (no draw falls
    /// on the source; a fixed point sends to another terminal drawn uniformly) [spec:
    /// workload.self-traffic] (default: include, as the homework's uniform requires).
    /// Either way they are counted apart from the accepted load (`self_load`).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<SelfTraffic>(), global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_traffic: Option<SelfTraffic>,
    /// The node numbering the node-number patterns (transpose, bit-reversal, shuffle,
    /// bit-complement) are taken on: a Midimew's layout (the application's numbering of
    /// Puente et al. Fig. 9) or the network's own [spec: workload.mapping] (default: layout
    /// on a Midimew that has one, network elsewhere).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Mapping>(), global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping: Option<Mapping>,
    /// The processors: open loop (the default) or threads that wait for their accesses.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(skip_serializing_if = "ProcessorSpec::is_empty")]
    pub processor: ProcessorSpec,
    /// Memories that serve each message as an access and reply to it, when any of its keys is
    /// given; none: a message is complete when it is delivered.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(skip_serializing_if = "ReplySpec::is_empty")]
    pub reply: ReplySpec,
    /// Replay this message trace (CSV or JSON lines; see docs/sim.md) instead of the sources:
    /// its records give every message's cycle, source, destination and size [spec:
    /// workload.trace]; the rate, size, pattern, processor and memory options do not apply,
    /// and the warm-up defaults to 0.
    #[cfg_attr(feature = "cli", arg(long, value_name = "FILE", global = true, help_heading = "Workload", conflicts_with_all = ["rate", "load", "size", "long_size", "long_fraction", "pattern", "locality", "shift", "hotspots", "hotspot_fraction", "mapping", "threads", "interval", "burst", "idle", "memory_latency", "reply_size", "reply_network", "collective"]))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<std::path::PathBuf>,
    /// The trace's format: csv, jsonl, netrace (Hestness et al. 2010's binary traces, bzip2 or
    /// not) or dumpi (an MPI dump as text: time rank send|recv peer bytes) [spec:
    /// workload.trace-format] (default: from the file's extension — .csv, .jsonl, .tra or .bz2,
    /// .dumpi — else its first bytes).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<TraceKind>(), requires = "trace", global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_format: Option<TraceKind>,
    /// Bytes a flit carries, turning a netrace packet's or an MPI message's bytes into flits
    /// (⌈bytes / flit-bytes⌉, at least 1) [spec: workload.flit-bytes] (default 16).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, requires = "trace", global = true, help_heading = "Workload"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flit_bytes: Option<u32>,
    /// A collective or motif run to completion instead of the sources (docs/sim.md,
    /// "Collectives"); `size` is then the data per rank.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(skip_serializing_if = "CollectiveSpec::is_empty")]
    pub collective: CollectiveSpec,
    /// Which node runs which rank of a collective, a netrace trace or an MPI dump: linear (rank
    /// r on node r), random (a permutation drawn from the seed), block (a process grid onto a
    /// torus's or mesh's coordinates), or file (--placement-file) [spec: workload.placement]
    /// (default: linear, file with --placement-file).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Placement>(), global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// A placement file: one node number per line, line r giving rank r's node (blank lines and
    /// lines starting with `#` skipped) [spec: workload.placement-file].
    #[cfg_attr(feature = "cli", arg(long, value_name = "FILE", global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement_file: Option<std::path::PathBuf>,
}

/// The `workload.collective` section: a collective or motif as the workload.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct CollectiveSpec {
    /// Run this collective to completion instead of open-loop sources; --size is the data per
    /// rank in flits [spec: workload.collective.kind].
    #[cfg_attr(feature = "cli", arg(id = "collective", long = "collective", value_parser = netwrap_topo::cli::choice::<CollectiveKind>(), global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<CollectiveKind>,
    /// Ranks of the collective, at most the nodes [spec: workload.collective.ranks] (default:
    /// one per node; a placement file's lines).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranks: Option<u32>,
    /// Times the collective runs, each rank starting the next when it has finished the last
    /// (a motif's iterations) [spec: workload.collective.iterations] (default 1).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
    /// Cycles of compute per step: between a rank's receipt and its next sends (a reduction's
    /// arithmetic), and before each iteration's exchange of halo2d, halo3d and bsp [spec:
    /// workload.collective.compute] (default 0).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<0>, allow_negative_numbers = true, global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute: Option<u64>,
    /// The all-to-all's schedule: linear-shift or pairwise [spec: workload.collective.schedule]
    /// (default: linear-shift).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Schedule>(), global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    /// A halo exchange's process grid, comma-separated sides whose product is the ranks, e.g.
    /// 4,8 [spec: workload.collective.grid] (default: the most balanced, as MPI_Dims_create;
    /// with --placement block, the torus's radices).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, value_delimiter = ',', num_args = 1.., allow_negative_numbers = true, global = true, help_heading = "Collectives"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<Vec<u32>>,
}

impl CollectiveSpec {
    /// Nothing written: no collective.
    pub fn is_empty(&self) -> bool {
        *self == CollectiveSpec::default()
    }
}

/// A trace file's format (`workload.trace-format`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum TraceKind {
    /// netwrap's CSV: id, cycle, source, destination, size (after, wait, salt optional), network nodes.
    Csv,
    /// netwrap's JSON lines, one record an object, the CSV's keys.
    Jsonl,
    /// netrace v1 (Hestness et al. 2010): binary packets with dependencies, bzip2 or not.
    Netrace,
    /// An MPI dump as text: time rank send|recv peer bytes, a line an event.
    Dumpi,
}

impl TraceKind {
    /// The spelling of the spec and the flag.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether its nodes are ranks, placed by `workload.placement` (netrace's, a dump's), rather
    /// than the network's nodes.
    pub fn ranked(self) -> bool {
        matches!(self, TraceKind::Netrace | TraceKind::Dumpi)
    }
}

/// Which node runs which rank (`workload.placement`).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Placement {
    /// Rank r on node r.
    #[default]
    Linear,
    /// Ranks on distinct nodes drawn at random from the run's seed.
    Random,
    /// A halo's process grid onto a torus's or mesh's router coordinates: rank (x0, …, xn−1)
    /// on the router whose coordinate i is xi (the grid's sides are the radices).
    Block,
    /// Read from workload.placement-file.
    File,
}

impl Placement {
    /// The spelling of the spec and the flag.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The `workload.processor` section.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct ProcessorSpec {
    /// Threads per processor, each waiting for its access (Raghunath & Ranade 1995 §6.2;
    /// 1 is the homework's App. D processor, whose --rate is the request rate while busy), or
    /// unbounded: an open loop [spec: workload.processor.threads] (default: unbounded).
    #[cfg_attr(
        feature = "cli",
        arg(long, allow_negative_numbers = true, global = true, help_heading = "Processors and memories")
    )]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<Threads>,
    /// Intervals between a processor's accesses, of mean 1/m: geometric, periodic, or on-off
    /// (bursty, open loop; --burst, --idle) [spec: workload.processor.interval] (default:
    /// geometric).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Interval>(), global = true, help_heading = "Processors and memories"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// With --interval on-off: the mean burst, in cycles (at least 1) that a source stays on
    /// [spec: workload.processor.burst].
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::number, allow_negative_numbers = true, global = true, help_heading = "Processors and memories"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst: Option<f64>,
    /// With --interval on-off: the mean idle spell, in cycles (at least 1) that a source stays
    /// off; the rate while on is then m·(burst + idle)/burst [spec: workload.processor.idle]
    /// (default: burst·(1 − m)/m, a message every cycle while on).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::number, allow_negative_numbers = true, global = true, help_heading = "Processors and memories"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idle: Option<f64>,
}

impl ReplySpec {
    /// No key given: no memories.
    pub fn is_empty(&self) -> bool {
        *self == ReplySpec::default()
    }
}

impl ProcessorSpec {
    /// Nothing written: open loop, geometric intervals (left out of a printed spec).
    pub fn is_empty(&self) -> bool {
        *self == ProcessorSpec::default()
    }
}

/// What becomes of the messages a pattern addresses to their own source.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum SelfTraffic {
    /// Sent, and handed to the processor without crossing a channel.
    #[default]
    Include,
    /// Not sent: no draw falls on the source, and a permutation's fixed points send nothing.
    Exclude,
    /// Sent elsewhere: no draw falls on the source, and a permutation's fixed points send to
    /// another terminal drawn uniformly.
    Reroute,
}

/// The node numbering the node-number patterns are taken on.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Mapping {
    /// The network's own node numbers (every family).
    Network,
    /// A Midimew's application numbering (Puente et al. Fig. 9): nodes numbered row-major on
    /// the layout of its Fig. 1; application node p runs on network node map(p) and sends to
    /// map(f(p)). Only a Midimew whose N is a multiple of one of its generators has it.
    Layout,
}

/// Where replies travel.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
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
/// Giving any of its keys asks for memories (the others take their defaults).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct ReplySpec {
    /// Memory access time M in cycles: each message is an access served by its destination's
    /// memory, one at a time, first come first served [spec: workload.reply.memory-latency]
    /// (default 0).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Processors and memories"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_latency: Option<u32>,
    /// Flits of the reply each memory sends back; 0: it answers without a message [spec:
    /// workload.reply.size] (default: the request's size).
    #[cfg_attr(feature = "cli", arg(id = "reply_size", long = "reply-size", value_parser = netwrap_topo::cli::small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Processors and memories"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// Where replies travel: the request network (same), or a separate one (a copy of a
    /// direct network, an indirect network reversed) [spec: workload.reply.network] (default:
    /// auto, same on direct networks and separate on indirect ones).
    #[cfg_attr(feature = "cli", arg(id = "reply_network", long = "reply-network", value_parser = netwrap_topo::cli::choice::<ReplyNetwork>(), global = true, help_heading = "Processors and memories"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<ReplyNetwork>,
}

/// Run control: the `run` section.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct RunControl {
    /// Warm-up cycles discarded before measuring [spec: run.warmup] (default: ten worst-case
    /// unloaded latencies, stretched near saturation; 1,000 to 100,000 and at most a tenth of
    /// the cycle limit; 0 with a trace).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<0>, allow_negative_numbers = true, global = true, help_heading = "Run"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warmup: Option<u64>,
    /// Measured messages: the run lasts until all of them are delivered [spec: run.messages]
    /// (default 10000); with processors that wait or memories, also that many accesses.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<1>, allow_negative_numbers = true, global = true, help_heading = "Run"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<u64>,
    /// Cycle limit, the warm-up included [spec: run.max-cycles] (default 10000000).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<1>, allow_negative_numbers = true, global = true, help_heading = "Run"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cycles: Option<u64>,
    /// Seed of every random stream [spec: run.seed] (default 1).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<0>, allow_negative_numbers = true, global = true, help_heading = "Run"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Engine: the per-message fast path or the flit-by-flit reference [spec: run.engine]
    /// (default: fast).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<EngineKind>(), global = true, help_heading = "Run"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineKind>,
}

/// The defaults of keys left out, where a key's default does not depend on others.
pub mod defaults {
    /// The request rate when neither `rate` nor `load` is given: the homework's Ex 1.
    pub const RATE: f64 = 0.04;
    /// Message length B: the homework's Ex 1.
    pub const SIZE: u32 = 4;
    /// Measured messages.
    pub const MESSAGES: u64 = 10_000;
    /// Cycle limit.
    pub const MAX_CYCLES: u64 = 10_000_000;
    /// Seed.
    pub const SEED: u64 = 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_sections_and_kebab_keys() {
        let s: SimSpec = toml::from_str(
            "[topology]\nfamily = \"torus\"\nk = 4\n[run]\nmax-cycles = 5000\n[workload]\nrate = 0.01\n",
        )
        .unwrap();
        assert_eq!(s.run.max_cycles, Some(5000));
        assert!(toml::from_str::<SimSpec>("[run]\nmax_cycles = 5\n").is_err());
        assert!(toml::from_str::<SimSpec>("[workload]\nrat = 0.1\n").is_err());
    }

    /// Characterisation: the strum names of every choice are its serde names (a spec file and
    /// the command line spell a value alike).
    #[test]
    fn choices_are_spelt_as_in_a_spec() {
        fn same<T: strum::VariantArray + Into<&'static str> + Serialize + Copy>() {
            for &v in T::VARIANTS {
                let name: &'static str = v.into();
                assert_eq!(serde_json::to_value(v).unwrap(), name);
            }
        }
        same::<RouterKind>();
        same::<PatternKind>();
        same::<ReplyNetwork>();
        same::<SelfTraffic>();
        same::<Switching>();
        same::<Arbitration>();
        same::<Avoidance>();
        same::<Interval>();
        same::<EngineKind>();
        same::<CollectiveKind>();
        same::<Schedule>();
        same::<Placement>();
        same::<TraceKind>();
    }
}
