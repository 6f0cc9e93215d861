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

/// The virtual-channel router's parameters, resolved (the spec's `router` section).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VcParams {
    /// Virtual channels per input port.
    pub vcs: u32,
    /// Flits per virtual-channel buffer.
    pub buffer: u32,
    /// Router delay in cycles.
    pub router_delay: u32,
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
        router_delay: 0,
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
