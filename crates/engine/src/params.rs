//! The engines' parameters: the virtual-channel router's ([`VcParams`] and its choices), the
//! processors' ([`Threads`], [`Interval`]) and the ideal switch's engine ([`EngineKind`]).
//!
//! These are the values the user's spec names (serde, kebab-case, as in a spec file and on the
//! command line): the spec layer takes them as they are, so no enum is written twice. Each
//! choice lists its variants and their documentation ([`strum::VariantArray`],
//! [`strum::EnumMessage`]) for the command line's help.

use serde::{Deserialize, Serialize};

/// How the virtual-channel router avoids deadlock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Avoidance {
    /// None: a cyclic routing may deadlock, and the run-time detector reports it.
    #[default]
    None,
    /// Two VC classes on every ring of a torus (Dally & Seitz): a packet travels in the lower
    /// half of the VCs until it crosses its ring's wrap-around channel, and in the upper half
    /// from that channel until it leaves the ring. Needs vcs >= 2 (--vcs).
    Dateline,
    /// Bubble flow control (Puente et al. §3, Fig. 3), with virtual cut-through: a packet may
    /// enter a ring of a torus or a Midimew (at injection or on a change of dimension) only if
    /// the VC it takes has room for two whole packets; moving along the ring needs room for
    /// one. Routing is dimension order (on a Midimew, `routing.algorithm = record`: --routing
    /// record). Needs switching = vct and buffer >= 2 x packet.
    Bubble,
    /// Puente et al.'s adaptive router (Fig. 4; Duato's escape channels), with virtual
    /// cut-through, on tori, rings, meshes, hypercubes and Midimews: VC 0 of every channel is
    /// the deterministic escape channel (dimension order, with Bubble flow control where the
    /// network has rings), the other VCs are adaptive and take any minimal next hop; a packet
    /// takes an adaptive VC when one is free and falls back to the escape channel at any hop.
    /// Needs switching = vct and vcs >= 2.
    Escape,
    /// Up*/down* routing (Schroeder et al. 1991, Autonet) in place of the family's routing, on
    /// any family whose every pair has a legal route: routers ranked by breadth-first level
    /// from router 0 (topologically on networks without cycles), a route takes channels towards the root ("up") and then away from it
    /// ("down"), never up after down, so the channel dependency graph is acyclic with any
    /// number of VCs and any switching (the argument: `netwrap_topo::UpDownRouting`). Needs
    /// `routing.algorithm = family` (the routing it replaces; not --routing table or record).
    Updown,
    /// VC classes by route phase (Kim et al. 2008 §4.2; Jiang, Kim & Dally 2009): a route
    /// starts in class 0 and rises one class after each global channel (the dragonfly's) and
    /// where its leg switches (it reaches its Valiant intermediate, or PAR turns it), so its
    /// classes never fall and no dependency cycle stays within one. The VCs are split evenly
    /// among the classes the routing needs: on a dragonfly 2 (minimal), 3 (Valiant or UGAL
    /// through a group), 4 (through a router, or PAR through a group), 5 (PAR through a
    /// router); elsewhere 1, and 2 with an intermediate. Under DAL (HyperX) the class rises
    /// at every hop: n + (dimensions of 3 or more routers) classes. Needs vcs >= that many.
    Phases,
    /// Dragonflies: class 1 on channels leaving a router of the packet's destination group, 0
    /// elsewhere — the two classes that make minimal routing deadlock-free (Kim et al. 2008
    /// §4.2). A non-minimal route reuses class 0 across its intermediate group (global class
    /// 0, local class 0, global class 0), the reuse BookSim2's dragonfly UGAL makes too (its VC
    /// is the route's phase, 0 for the whole first leg): `netwrap check` finds the cycle it
    /// leaves. Needs vcs >= 2.
    DestGroup,
}

/// How a packet advances through the virtual-channel router.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Switching {
    /// A virtual channel is taken with room for one flit; a blocked packet holds the channels
    /// behind it back to its source.
    #[default]
    Wormhole,
    /// Virtual cut-through: a virtual channel is taken only with room for the whole packet.
    Vct,
    /// Store-and-forward: as `vct`, and a packet leaves a router only once all its flits are
    /// there.
    Saf,
}

/// Which request wins a virtual channel or a switch port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Arbitration {
    /// A rotating priority over a router's input virtual channels, advanced every cycle.
    #[default]
    RoundRobin,
    /// The oldest packet first (by creation cycle), ties by the packets' seeded salts.
    OldestFirst,
}

/// How the switch is allocated among a router's input VCs (`crate::switch_alloc`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Allocator {
    /// The requests one by one in the router's arbitration order, each granted if its input
    /// port and output are still free (a maximal matching).
    #[default]
    Greedy,
    /// Separable, input first: each input port picks one of its VCs, each output one of the
    /// input ports that picked it (round-robin arbiters, one iteration).
    InputFirst,
    /// Separable, output first: each output picks one input port asking for it, each input
    /// port one of its VCs so picked (round-robin arbiters, one iteration).
    OutputFirst,
    /// iSLIP (McKeown 1999), one iteration: output first, an output's pointer advancing only
    /// when its pick is accepted (BookSim2's default switch allocator).
    Islip,
}

/// Which of the free VCs a packet may take it takes (at a router's output and at injection).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum VcChoice {
    /// The lowest-numbered: short packets queue in one VC while the others idle.
    #[default]
    Lowest,
    /// The first at or after a pointer per port that moves past each VC taken, spreading
    /// packets over the VCs as BookSim2's round-robin VC allocator and injection do.
    Rotating,
}

/// The VCs of `range` in the order a [`VcChoice::Rotating`] pointer at `start` tries them:
/// from `start` up, then from the range's start.
#[inline]
pub fn rotated(range: std::ops::Range<u32>, start: u32) -> impl Iterator<Item = u32> {
    let split = start.clamp(range.start, range.end);
    (split..range.end).chain(range.start..split)
}

/// When a packet under a dateline (`Avoidance::Dateline`) takes its ring's upper VC class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum DatelineClass {
    /// The lower class until the packet takes its ring's wrap-around channel, the upper class
    /// from that channel until it leaves the ring (Dally & Seitz 1987).
    #[default]
    AtWrap,
    /// The class chosen as the packet enters a ring, for the whole ring: the upper one if its
    /// route will take the ring's wrap-around channel, the lower one if not (BookSim2's
    /// `dim_order_torus`). Needs a routing with one route per pair (dimension order).
    ByRoute,
}

/// How many packets a terminal's ejection port takes at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Ejection {
    /// One packet at a time (Greenberg & Guan 1997's assumption 4).
    #[default]
    OnePacket,
    /// One packet per VC, their flits interleaved at one flit a cycle (BookSim2's ejection
    /// port, which has every VC of the router's ports).
    EveryVc,
}

/// The router's pipeline as separate stages (BookSim2's `routing_delay`, `vc_alloc_delay`,
/// `sw_alloc_delay`, `st_final_delay` and `speculative`; Peh & Dally 2001's pipeline).
///
/// Every flit crosses switch allocation and traversal (`switch_alloc + traversal` cycles, the
/// per-flit delay r); a header also routes (`routing` cycles, from when it is at the front of
/// its VC and past the per-flit stages) and allocates a VC (`vc_alloc` cycles between its VC
/// grant and its switch grant; with `speculative`, switch allocation runs beside VC allocation
/// and only the excess of `vc_alloc` over `switch_alloc` remains). So the next packet of an
/// input VC starts routing only once the previous tail has left, as in BookSim's router.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stages {
    /// Cycles a header spends in routing (0: lookahead routing, done one router earlier).
    pub routing: u32,
    /// Cycles from a header's VC grant to its first switch request.
    pub vc_alloc: u32,
    /// Cycles every flit spends in switch allocation.
    pub switch_alloc: u32,
    /// Cycles every flit spends crossing the switch.
    pub traversal: u32,
    /// Switch allocation speculates beside VC allocation.
    pub speculative: bool,
}

impl Stages {
    /// Cycles between a header's VC grant and its earliest departure beyond the per-flit
    /// delay: the VC allocation stage, less what speculation overlaps with switch allocation.
    pub fn vc_gap(&self) -> u32 {
        if self.speculative { self.vc_alloc.saturating_sub(self.switch_alloc) } else { self.vc_alloc }
    }
}

/// The virtual-channel router's parameters, resolved (the spec's `router` section).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VcParams {
    /// Virtual channels per input port.
    pub vcs: u32,
    /// Flits per virtual-channel buffer.
    pub buffer: u32,
    /// Flits per output VC's buffer in the sending router (0: none, the input-buffered
    /// router): CAMINOS's `output_buffer_size`. A packet crosses the switch into it and the
    /// link takes flits from it.
    pub output_buffer: u32,
    /// Grants an input port may take per cycle (BookSim2's `input_speedup`), each of up to its
    /// width in flits.
    pub input_speedup: u32,
    /// Grants an output channel's buffers may take per cycle, from different VCs (BookSim2's
    /// `output_speedup`); more than one needs output buffers.
    pub output_speedup: u32,
    /// Router delay r in cycles: the pipeline every flit crosses (with `stages`, their switch
    /// allocation plus traversal).
    pub router_delay: u32,
    /// The pipeline as stages, when given as stages (`None`: r alone, no per-packet stages).
    pub stages: Option<Stages>,
    /// Cycles a flit spends on its terminal's injection channel before it is in the router's
    /// buffer (BookSim2's injection channel: 1).
    pub injection_latency: u32,
    /// Cycles from a flit's ejection to its arrival at the terminal (BookSim2's ejection
    /// channel: 1).
    pub ejection_latency: u32,
    /// Packets an ejection port takes at once.
    pub ejection: Ejection,
    /// The dateline's class rule (with `Avoidance::Dateline`).
    pub dateline_class: DatelineClass,
    /// The switch allocator.
    pub allocator: Allocator,
    /// Which free VC a packet takes.
    pub vc_choice: VcChoice,
    /// Link latency in cycles (at least 1).
    pub link_latency: u32,
    /// Most flits per packet.
    pub packet: u32,
    /// Switching.
    pub switching: Switching,
    /// Arbitration.
    pub arbitration: Arbitration,
    /// Deadlock avoidance.
    pub deadlock: Avoidance,
}

impl VcParams {
    /// The defaults (the spec's `router` section documents each).
    pub const DEFAULT: VcParams = VcParams {
        vcs: 2,
        buffer: 16,
        output_buffer: 0,
        input_speedup: 1,
        output_speedup: 1,
        router_delay: 0,
        stages: None,
        injection_latency: 0,
        ejection_latency: 0,
        ejection: Ejection::OnePacket,
        dateline_class: DatelineClass::AtWrap,
        allocator: Allocator::Greedy,
        vc_choice: VcChoice::Lowest,
        link_latency: 1,
        packet: 16,
        switching: Switching::Wormhole,
        arbitration: Arbitration::RoundRobin,
        deadlock: Avoidance::None,
    };
}

/// Most virtual channels per port, flits per buffer, packet flits and delays: generous for any
/// router built, and small enough that per-port state stays small and sums cannot overflow.
pub const MAX_VC_PARAM: u32 = 1 << 16;

impl VcParams {
    /// Cycles a header spends in a router beyond the per-flit delay r when it meets no other
    /// traffic: routing, and VC allocation not overlapped by speculation.
    pub fn header_extra(&self) -> u32 {
        self.stages.map_or(0, |s| s.routing + s.vc_gap())
    }
}

/// Threads per processor: a number, or `unbounded` (open loop: messages are created whatever
/// the network does).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// Open loop.
    #[default]
    Unbounded,
    /// This many threads, each with at most one outstanding access.
    Count(u32),
}

impl Serialize for Threads {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Threads::Unbounded => s.serialize_str("unbounded"),
            Threads::Count(n) => s.serialize_u32(*n),
        }
    }
}

impl<'de> Deserialize<'de> for Threads {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Count(u64),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::Count(n) => Ok(Threads::Count(u32::try_from(n).unwrap_or(u32::MAX))),
            Raw::Word(w) => w.parse().map_err(serde::de::Error::custom),
        }
    }
}

impl std::str::FromStr for Threads {
    type Err = String;
    /// `unbounded`, or a whole number of threads of at least 1 (the command line's words).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "unbounded" => Ok(Threads::Unbounded),
            n => match n.parse::<u32>() {
                Ok(t) if t >= 1 => Ok(Threads::Count(t)),
                _ => {
                    Err("must be a whole number of threads of at least 1, or unbounded (an open loop)".into())
                }
            },
        }
    }
}

impl std::fmt::Display for Threads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Threads::Unbounded => f.write_str("unbounded"),
            Threads::Count(n) => write!(f, "{n}"),
        }
    }
}

/// How long a processor computes between accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Interval {
    /// Geometric, mean 1/m: a Bernoulli trial each cycle (the open model of the homework's
    /// App. A and Raghunath & Ranade 1995 §6.1).
    #[default]
    Geometric,
    /// A constant 1/m cycles (Raghunath & Ranade 1995 §6.2's periodic model).
    Periodic,
    /// Bursty, open loop only: a two-state Markov (on/off) source, on for bursts of mean
    /// --burst cycles and off for idle spells of mean --idle cycles, a Bernoulli trial each
    /// cycle while on; the long-run rate is m ([`OnOff`]).
    OnOff,
}

/// An on/off source's sojourns ([`Interval::OnOff`]; see [`crate::workload`]): each terminal
/// is a two-state Markov chain stepped once a cycle, on for a geometric number of cycles of
/// mean `burst` (≥ 1), then off for a geometric number of mean `idle` (≥ 1); while on it
/// creates a message each cycle with probability p = m·(burst + idle)/burst, so that its
/// long-run rate is m.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OnOff {
    /// Mean cycles on, at least 1.
    pub burst: f64,
    /// Mean cycles off, at least 1; `None`: whatever makes p = 1 at the rate, burst·(1 − m)/m
    /// (a message every cycle while on, so a burst is a train of back-to-back messages).
    pub idle: Option<f64>,
}

impl OnOff {
    /// The mean idle spell and the probability of a message in an on cycle at long-run rate
    /// `m`; `Err` says why they do not exist (p above 1, a derived idle spell below a cycle),
    /// or why the source is refused: a message in fewer than one burst in 10^6 (p·burst below
    /// 10^-6; the source is stepped burst by burst, so that would cost a million steps a
    /// message).
    pub fn at(&self, m: f64) -> Result<(f64, f64), String> {
        let b = self.burst;
        let idle = self.idle.unwrap_or(b * (1.0 - m) / m);
        if self.idle.is_none() && idle < 1.0 {
            return Err(format!(
                "a message every cycle of a burst of mean {b} cycles needs idle spells of mean {idle:.4} cycles at m = {m}, less than one cycle: the largest rate such a source offers is burst/(burst + 1) = {:.4}",
                b / (b + 1.0)
            ));
        }
        let p = m * (b + idle) / b;
        if p > 1.0 + 1e-12 {
            return Err(format!(
                "bursts of mean {b} cycles and idle spells of mean {idle} cycles offer at most burst/(burst + idle) = {:.4} messages a cycle (one every cycle while on), less than m = {m}",
                b / (b + idle)
            ));
        }
        if p * b < 1e-6 {
            return Err(format!(
                "at m = {m}, bursts of mean {b} cycles hold a message once in {:.3e} on average (p·burst = {p:.3e}): an on/off source is stepped burst by burst, and below one message in 10^6 bursts it is refused; lengthen the bursts or raise the rate",
                1.0 / (p * b)
            ));
        }
        Ok((idle, p.min(1.0)))
    }
}

/// Which engine runs the ideal switch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::VariantArray, strum::EnumMessage, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum EngineKind {
    /// Per-message passage computation (the default).
    #[default]
    Fast,
    /// Flit-by-flit reference (slow; for checking).
    Reference,
}
