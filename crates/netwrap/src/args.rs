//! Command-line pieces shared by several commands: the topology families (each a subcommand
//! whose options are the fields of its [`TopologySpec`]), the routing options, and value
//! parsers whose errors say what an option takes.

use crate::cmd::model::ContentionArg;
use crate::values::{choice, count, fraction, positive, rate, small_count, threads};
use clap::{Args, Subcommand, ValueEnum};
use netwrap_sim::{
    Arbitration, Avoidance, EngineKind, Interval, ModelSpec, PatternKind, ReplyNetwork, ReplySpec,
    RouterKind, SimSpec, Switching, Threads,
};
use netwrap_topo::{DimensionOrder, RoutingAlgorithm, RoutingSpec, TopologySpec};

/// Dimension order, as a command-line value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Order {
    /// Highest dimension first (Agarwal 1991 §3.3).
    HighestFirst,
    /// Lowest dimension first.
    LowestFirst,
}

impl From<Order> for DimensionOrder {
    fn from(o: Order) -> Self {
        match o {
            Order::HighestFirst => DimensionOrder::HighestFirst,
            Order::LowestFirst => DimensionOrder::LowestFirst,
        }
    }
}

/// Routing function, as a command-line value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Routing {
    /// The family's own: dimension order on cubes, every minimal next hop on circulants,
    /// n-hop networks and CCC, destination tags on multistage networks, nearest common
    /// ancestor on the fat-tree.
    Family,
    /// A table of every minimal next hop (Puente et al. §2.2); any family, at most 64 MiB.
    Table,
    /// Puente et al.'s Midimew routing record (Table 2); Midimews only.
    Record,
}

impl From<Routing> for RoutingAlgorithm {
    fn from(r: Routing) -> Self {
        match r {
            Routing::Family => RoutingAlgorithm::Family,
            Routing::Table => RoutingAlgorithm::Table,
            Routing::Record => RoutingAlgorithm::Record,
        }
    }
}

/// The routing section's options (`routing.algorithm`, `routing.order`).
#[derive(Debug, Clone, Args)]
pub struct RoutingArgs {
    /// Routing function [spec: routing.algorithm] (default: family).
    #[arg(long, value_enum, global = true)]
    pub routing: Option<Routing>,
    /// Dimension order of dimension-order routing, cube families only [spec: routing.order]
    /// (default: highest-first).
    #[arg(long, value_enum, global = true)]
    pub order: Option<Order>,
}

impl RoutingArgs {
    /// Applies the options given onto `spec`.
    pub fn apply(&self, spec: &mut RoutingSpec) {
        if let Some(r) = self.routing {
            spec.algorithm = r.into();
        }
        if let Some(o) = self.order {
            spec.order = Some(o.into());
        }
    }
}

/// The size options of a torus or mesh.
#[derive(Debug, Clone, Args)]
pub struct CubeSize {
    /// Radix k: nodes per dimension (default 8).
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true)]
    pub k: Option<u32>,
    /// Dimensions n (default 2).
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes")]
    pub n: Option<u32>,
    /// Processors N instead of n: n = log_k N, rounded up to a whole dimension.
    #[arg(long, value_parser = count::<1>, allow_negative_numbers = true)]
    pub nodes: Option<u64>,
    /// Mixed radices k0,k1,… (dimension 0 first) instead of --k/--n.
    #[arg(long, value_delimiter = ',', value_parser = small_count::<1>, conflicts_with_all = ["k", "n", "nodes"])]
    pub radices: Option<Vec<u32>>,
}

/// Switch radix and stages (or processors) of a multistage network.
#[derive(Debug, Clone, Args)]
pub struct StageSize {
    /// Switch radix k (default 2).
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true)]
    pub k: Option<u32>,
    /// Stages n, N = k^n (default 4).
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes")]
    pub stages: Option<u32>,
    /// Processors N instead of the stages, rounded up to a power of k.
    #[arg(long, value_parser = count::<1>, allow_negative_numbers = true)]
    pub nodes: Option<u64>,
}

/// The topology families; each one's options are the fields of its `topology` section.
#[derive(Debug, Clone, Subcommand)]
pub enum FamilyCmd {
    /// k-ary n-cube with end-around links, unidirectional unless --bidirectional.
    Torus {
        #[command(flatten)]
        size: CubeSize,
        /// Channels in both directions.
        #[arg(long)]
        bidirectional: bool,
    },
    /// k-ary n-dimensional mesh (bidirectional, no end-around links).
    Mesh {
        #[command(flatten)]
        size: CubeSize,
    },
    /// Ring of k nodes.
    Ring {
        /// Nodes k (default 8).
        #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true)]
        k: Option<u32>,
        /// Channels in both directions.
        #[arg(long)]
        bidirectional: bool,
    },
    /// Binary hypercube of n dimensions (or --nodes 2^n).
    Hypercube {
        /// Dimensions n (default 6).
        #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes")]
        n: Option<u32>,
        /// Nodes N, rounded up to a power of 2.
        #[arg(long, value_parser = count::<1>, allow_negative_numbers = true)]
        nodes: Option<u64>,
    },
    /// Midimew of N nodes: C_N(⌈√(N/2)⌉−1, ⌈√(N/2)⌉) (Puente et al. §2).
    Midimew {
        /// Nodes N ≥ 4 (default 64).
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        nodes: Option<u32>,
    },
    /// Circulant graph C_N(a, b).
    Circulant {
        /// Nodes N.
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        nodes: u32,
        /// First generator a.
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        a: u32,
        /// Second generator b.
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        b: u32,
    },
    /// Butterfly of k×k switches: processors at stage 0, memories after the last stage.
    Butterfly {
        #[command(flatten)]
        size: StageSize,
    },
    /// Omega network of k×k switches (perfect shuffle before every stage).
    Omega {
        #[command(flatten)]
        size: StageSize,
    },
    /// Butterfly fat-tree of N = 4^n processors (Greenberg & Guan §3.1).
    FatTree {
        /// Processors N (4, 16, 64, 256, 1024, …; default 64).
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        nodes: Option<u32>,
    },
    /// Complete graph K_N.
    Complete {
        /// Nodes N.
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        nodes: u32,
    },
    /// n-hop network: product of complete graphs, e.g. --factors 4,8 for K4 × K8.
    Nhop {
        /// Complete-graph sizes.
        #[arg(long, value_delimiter = ',', required = true, value_parser = small_count::<0>)]
        factors: Vec<u32>,
    },
    /// Cube-connected cycles CCC(n).
    Ccc {
        /// Cube dimension n, at least 3 (CCC(n) has n·2^n routers: n ≤ 19 within netwrap's size limits).
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        n: u32,
    },
    /// A single N-port crossbar.
    Crossbar {
        /// Processors N.
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        nodes: u32,
    },
    /// Raghunath & Ranade's two-level networks by name: Butterfly.I.E, Butterfly.I-Ddil.E,
    /// Xbar.I.E, nhop.I.E1-…-En such as 2hop.32.64-32 (butterfly intra-module network) or Xbar.I.E1-…-En, widths in bits.
    TwoLevel {
        /// The network's name, e.g. Butterfly.16.8, Butterfly.8-2dil.8, Xbar.32.8, 2hop.32.64-32.
        name: String,
        /// Processors N (default 1024).
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        nodes: Option<u32>,
        /// Packaging modules M (default 32).
        #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true)]
        modules: Option<u32>,
    },
}

impl FamilyCmd {
    /// The `topology` section these options describe (unresolved: defaults stay empty).
    pub fn spec(&self) -> TopologySpec {
        match self.clone() {
            FamilyCmd::Torus { size, bidirectional } => TopologySpec::Torus {
                k: size.k,
                n: size.n,
                nodes: size.nodes,
                radices: size.radices,
                bidirectional,
            },
            FamilyCmd::Mesh { size } => {
                TopologySpec::Mesh { k: size.k, n: size.n, nodes: size.nodes, radices: size.radices }
            }
            FamilyCmd::Ring { k, bidirectional } => TopologySpec::Ring { k, bidirectional },
            FamilyCmd::Hypercube { n, nodes } => TopologySpec::Hypercube { n, nodes },
            FamilyCmd::Midimew { nodes } => TopologySpec::Midimew { nodes },
            FamilyCmd::Circulant { nodes, a, b } => TopologySpec::Circulant { nodes, a, b },
            FamilyCmd::Butterfly { size } => {
                TopologySpec::Butterfly { k: size.k, stages: size.stages, nodes: size.nodes }
            }
            FamilyCmd::Omega { size } => {
                TopologySpec::Omega { k: size.k, stages: size.stages, nodes: size.nodes }
            }
            FamilyCmd::FatTree { nodes } => TopologySpec::FatTree { nodes },
            FamilyCmd::Complete { nodes } => TopologySpec::Complete { nodes },
            FamilyCmd::Nhop { factors } => TopologySpec::Nhop { factors },
            FamilyCmd::Ccc { n } => TopologySpec::Ccc { n },
            FamilyCmd::Crossbar { nodes } => TopologySpec::Crossbar { nodes },
            FamilyCmd::TwoLevel { name, nodes, modules } => TopologySpec::TwoLevel { name, nodes, modules },
        }
    }
}

/// The spec's router, workload, run and model options, shared by every command that simulates.
/// Each is one field of the spec (named in brackets); absent options keep the spec's value.
#[derive(Debug, Clone, Args)]
pub struct SpecArgs {
    /// Router model [spec: router.kind] (default: ideal).
    #[arg(long, value_parser = choice::<RouterKind>(), global = true, help_heading = "Router")]
    pub router: Option<RouterKind>,
    /// With --router vc: virtual channels per input port [spec: router.vcs] (default 2).
    #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router")]
    pub vcs: Option<u32>,
    /// With --router vc: flits per virtual-channel buffer [spec: router.buffer] (default 16).
    #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router")]
    pub buffer: Option<u32>,
    /// With --router vc: router delay r in cycles, the pipeline each flit crosses in a router
    /// [spec: router.router-delay] (default 0: r + l = 1, the ideal switch's hop).
    #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router")]
    pub router_delay: Option<u32>,
    /// With --router vc: link latency l in cycles (Agarwal 1991's wire delay), also the credit
    /// delay [spec: router.link-latency] (default 1).
    #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router")]
    pub link_latency: Option<u32>,
    /// With --router vc: most flits per packet P; a message of B flits is ⌈B/P⌉ packets
    /// [spec: router.packet] (default 16).
    #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Router")]
    pub packet: Option<u32>,
    /// With --router vc: switching [spec: router.switching] (default: wormhole).
    #[arg(long, value_parser = choice::<Switching>(), global = true, help_heading = "Router")]
    pub switching: Option<Switching>,
    /// With --router vc: arbitration for VCs and switch ports [spec: router.arbitration]
    /// (default: round-robin).
    #[arg(long, value_parser = choice::<Arbitration>(), global = true, help_heading = "Router")]
    pub arbitration: Option<Arbitration>,
    /// With --router vc: deadlock avoidance [spec: router.deadlock] (default: none).
    #[arg(long, value_parser = choice::<Avoidance>(), global = true, help_heading = "Router")]
    pub deadlock: Option<Avoidance>,
    /// Request rate m: messages each terminal creates per cycle, in (0, 1] [spec:
    /// workload.rate] (default 0.04).
    #[arg(long, value_parser = rate, allow_negative_numbers = true, global = true, help_heading = "Workload")]
    pub rate: Option<f64>,
    /// Offered load in flits per node per cycle, instead of --rate: the rate is the load over
    /// the mean message length [spec: workload.load].
    #[arg(long, value_parser = positive, allow_negative_numbers = true, global = true, conflicts_with = "rate", help_heading = "Workload")]
    pub load: Option<f64>,
    /// Message length B in flits [spec: workload.size] (default 4); with --long-size, the
    /// short messages' length.
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, global = true, help_heading = "Workload")]
    pub size: Option<u32>,
    /// Length of the long messages of a bimodal mix (Puente et al.: 200 of 20) [spec:
    /// workload.long-size]; needs --long-fraction.
    #[arg(long, value_parser = small_count::<1>, allow_negative_numbers = true, global = true, help_heading = "Workload")]
    pub long_size: Option<u32>,
    /// Fraction of long messages, in (0, 1] (Puente et al.: 0.1) [spec:
    /// workload.long-fraction]; needs --long-size.
    #[arg(long, value_parser = fraction, allow_negative_numbers = true, global = true, help_heading = "Workload")]
    pub long_fraction: Option<f64>,
    /// Destination pattern [spec: workload.pattern] (default: uniform).
    #[arg(long, value_parser = choice::<PatternKind>(), global = true, help_heading = "Workload")]
    pub pattern: Option<PatternKind>,
    /// Locality fraction l in (0, 1]: destinations in a subcube of l·N nodes with a corner at
    /// the source (tori and rings) [spec: workload.locality]; l = 1 is uniform traffic.
    #[arg(long, value_parser = fraction, allow_negative_numbers = true, global = true, help_heading = "Workload")]
    pub locality: Option<f64>,
    /// The hot-spot nodes of --pattern hotspot, comma-separated network node numbers [spec:
    /// workload.hotspots].
    #[arg(long, value_parser = small_count::<0>, value_delimiter = ',', num_args = 1.., allow_negative_numbers = true, global = true, help_heading = "Workload")]
    pub hotspots: Option<Vec<u32>>,
    /// Fraction of messages sent to the hot spots, in (0, 1] [spec: workload.hotspot-fraction].
    #[arg(long, value_parser = fraction, allow_negative_numbers = true, global = true, help_heading = "Workload")]
    pub hotspot_fraction: Option<f64>,
    /// Threads per processor, each waiting for its access (Raghunath & Ranade 1995 §6.2;
    /// 1 is the homework's App. D processor, whose --rate is the request rate while busy), or
    /// unbounded: an open loop [spec: workload.processor.threads] (default: unbounded).
    #[arg(long, value_parser = threads, allow_negative_numbers = true, global = true, help_heading = "Processors and memories")]
    pub threads: Option<Threads>,
    /// Intervals between a processor's accesses, of mean 1/m: geometric or periodic [spec:
    /// workload.processor.interval] (default: geometric).
    #[arg(long, value_parser = choice::<Interval>(), global = true, help_heading = "Processors and memories")]
    pub interval: Option<Interval>,
    /// Memory access time M in cycles: each message is an access served by its destination's
    /// memory, one at a time, first come first served [spec: workload.reply.memory-latency]
    /// (default 0).
    #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Processors and memories")]
    pub memory_latency: Option<u32>,
    /// Flits of the reply each memory sends back; 0: it answers without a message [spec:
    /// workload.reply.size] (default: the request's size).
    #[arg(long, value_parser = small_count::<0>, allow_negative_numbers = true, global = true, help_heading = "Processors and memories")]
    pub reply_size: Option<u32>,
    /// Where replies travel: the request network (same), or a separate one (a copy of a
    /// direct network, an indirect network reversed) [spec: workload.reply.network] (default:
    /// auto, same on direct networks and separate on indirect ones).
    #[arg(long, value_parser = choice::<ReplyNetwork>(), global = true, help_heading = "Processors and memories")]
    pub reply_network: Option<ReplyNetwork>,
    /// Replay this message trace (CSV or JSON lines; see docs/sim.md) instead of the sources:
    /// its records give every message's cycle, source, destination and size [spec:
    /// workload.trace]; the rate, size, pattern, processor and memory options do not apply.
    #[arg(long, value_name = "FILE", global = true, help_heading = "Workload", conflicts_with_all = ["rate", "load", "size", "long_size", "long_fraction", "pattern", "locality", "hotspots", "hotspot_fraction", "threads", "interval", "memory_latency", "reply_size", "reply_network"])]
    pub trace: Option<std::path::PathBuf>,
    /// Measured messages: the run lasts until all of them are delivered [spec: run.messages]
    /// (default 10000); with processors that wait or memories, also that many accesses.
    #[arg(long, value_parser = count::<1>, allow_negative_numbers = true, global = true, help_heading = "Run")]
    pub messages: Option<u64>,
    /// Cycle limit, the warm-up included [spec: run.max-cycles] (default 10000000).
    #[arg(long, value_parser = count::<1>, allow_negative_numbers = true, global = true, help_heading = "Run")]
    pub max_cycles: Option<u64>,
    /// Warm-up cycles discarded before measuring [spec: run.warmup] (default: ten worst-case
    /// unloaded latencies, stretched near saturation; 1,000 to 100,000 and at most a tenth of
    /// the cycle limit).
    #[arg(long, value_parser = count::<0>, allow_negative_numbers = true, global = true, help_heading = "Run")]
    pub warmup: Option<u64>,
    /// Seed of every random stream [spec: run.seed] (default 1).
    #[arg(long, value_parser = count::<0>, allow_negative_numbers = true, global = true, help_heading = "Run")]
    pub seed: Option<u64>,
    /// Engine: the per-message fast path or the flit-by-flit reference [spec: run.engine].
    #[arg(long, value_parser = choice::<EngineKind>(), global = true, help_heading = "Run")]
    pub engine: Option<EngineKind>,
    /// Compare with the analytical model of the network [spec: a `model` section]: k-ary
    /// n-cubes (Agarwal 1991 eq. 10), butterfly and Omega networks (Agarwal 1991 eqs. 13-14),
    /// butterfly fat-trees with --router vc --switching wormhole (Greenberg & Guan eqs. 1-26).
    #[arg(long, global = true, help_heading = "Model")]
    pub model: bool,
    /// With --model on a k-ary n-cube: the contention form [spec: model.contention] (default:
    /// auto, the homework's App. B rule, eq. 8's form when k_d > 2, the small-k_d form otherwise).
    #[arg(long, value_enum, global = true, requires = "model", help_heading = "Model")]
    pub contention: Option<ContentionArg>,
}

impl SpecArgs {
    /// Applies the options given onto `spec`.
    pub fn apply(&self, spec: &mut SimSpec) {
        let rt = &mut spec.router;
        if let Some(k) = self.router {
            rt.kind = k;
        }
        rt.vcs = self.vcs.or(rt.vcs);
        rt.buffer = self.buffer.or(rt.buffer);
        rt.router_delay = self.router_delay.or(rt.router_delay);
        rt.link_latency = self.link_latency.or(rt.link_latency);
        rt.packet = self.packet.or(rt.packet);
        rt.switching = self.switching.or(rt.switching);
        rt.deadlock = self.deadlock.or(rt.deadlock);
        rt.arbitration = self.arbitration.or(rt.arbitration);
        let w = &mut spec.workload;
        // A flag's rate or load replaces the file's, whichever form the file used.
        if let Some(r) = self.rate {
            w.rate = Some(r);
            w.load = None;
        }
        if let Some(l) = self.load {
            w.load = Some(l);
            w.rate = None;
        }
        if let Some(b) = self.size {
            w.size = b;
        }
        if let Some(b) = self.long_size {
            w.long_size = Some(b);
        }
        if let Some(f) = self.long_fraction {
            w.long_fraction = Some(f);
        }
        if let Some(p) = self.pattern {
            w.pattern = p;
        }
        if let Some(l) = self.locality {
            w.locality = Some(l);
        }
        if let Some(h) = &self.hotspots {
            w.hotspots = Some(h.clone());
        }
        if let Some(f) = self.hotspot_fraction {
            w.hotspot_fraction = Some(f);
        }
        if let Some(t) = self.threads {
            w.processor.threads = t;
        }
        if let Some(i) = self.interval {
            w.processor.interval = i;
        }
        if let Some(t) = &self.trace {
            w.trace = Some(t.clone());
        }
        if self.memory_latency.is_some() || self.reply_size.is_some() || self.reply_network.is_some() {
            let reply = w.reply.get_or_insert_with(ReplySpec::default);
            reply.memory_latency = self.memory_latency.unwrap_or(reply.memory_latency);
            reply.size = self.reply_size.or(reply.size);
            reply.network = self.reply_network.unwrap_or(reply.network);
        }
        let r = &mut spec.run;
        if let Some(m) = self.messages {
            r.messages = m;
        }
        if let Some(c) = self.max_cycles {
            r.max_cycles = c;
        }
        if let Some(w) = self.warmup {
            r.warmup = Some(w);
        }
        if let Some(s) = self.seed {
            r.seed = s;
        }
        if let Some(e) = self.engine {
            r.engine = e;
        }
        if self.model {
            spec.model = Some(ModelSpec { contention: self.contention.unwrap_or_default().form() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_options_are_spec_fields() {
        let f = FamilyCmd::Ring { k: Some(5), bidirectional: true };
        assert_eq!(f.spec(), TopologySpec::Ring { k: Some(5), bidirectional: true });
    }
}
