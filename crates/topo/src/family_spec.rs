//! The topology and routing as a user names them: [`TopologySpec`] and [`RoutingSpec`], the
//! `topology` and `routing` sections of every netwrap spec, with the same names as the command
//! line's families and flags (`netwrap topo torus --k 8 --n 2` is
//! `{"family": "torus", "k": 8, "n": 2}`).
//!
//! [`TopologySpec::resolve`] fills every default and turns alternatives into one canonical form
//! (N into n, equal radices into k and n), so a resolved spec printed in a result builds exactly
//! the same network when read back. [`TopologySpec::shape`] lowers it, with the routing, to the
//! [`Shape`] the builders take.

use crate::TopoError;
use crate::circulant::CirculantRouting;
use crate::cube::DimensionOrder;
use crate::dragonfly::GlobalArrangement;
use crate::indirect::StageWiring;
use crate::network::Planned;
use crate::paths::{PathChoice, Paths, Via};
use crate::spec::Shape;
use crate::twolevel::ModuleSplit;
use crate::xgft::UpPort;
use serde::{Deserialize, Serialize};

/// Every family netwrap builds, as plain data (`{"family": "midimew", "nodes": 64}`), and as
/// the command line's family subcommands (`torus --k 8`), each option a field.
///
/// Optional fields are alternatives or defaults; [`TopologySpec::resolve`] fills them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "cli", derive(clap::Subcommand))]
#[strum(serialize_all = "kebab-case")]
#[serde(tag = "family", rename_all = "kebab-case", rename_all_fields = "kebab-case", deny_unknown_fields)]
pub enum TopologySpec {
    /// k-ary n-cube with end-around links, unidirectional unless `bidirectional`.
    Torus {
        /// Radix k (default 8).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        /// Dimensions n (default 2).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes"))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        n: Option<u32>,
        /// Processors N instead of n: n = log_k N, rounded up to a whole dimension.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
        /// Mixed radices k0, k1, … (dimension 0 first) instead of k and n.
        #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', value_parser = crate::cli::small_count::<1>, conflicts_with_all = ["k", "n", "nodes"]))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        radices: Option<Vec<u32>>,
        /// Channels in both directions.
        #[cfg_attr(feature = "cli", arg(long))]
        #[serde(default)]
        bidirectional: bool,
        /// Terminals per router p (default 1; BookSim's cmesh is a mesh with p = 4).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        concentration: Option<u32>,
    },
    /// k-ary n-dimensional mesh: bidirectional channels, no end-around links.
    Mesh {
        /// Radix k (default 8).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        /// Dimensions n (default 2).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes"))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        n: Option<u32>,
        /// Processors N instead of n, rounded up to a whole dimension.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
        /// Mixed radices instead of k and n.
        #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', value_parser = crate::cli::small_count::<1>, conflicts_with_all = ["k", "n", "nodes"]))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        radices: Option<Vec<u32>>,
        /// Terminals per router p (default 1; BookSim's cmesh is a mesh with p = 4).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        concentration: Option<u32>,
    },
    /// Ring of k nodes (a k-ary 1-cube).
    Ring {
        /// Nodes k (default 8).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        /// Channels in both directions.
        #[cfg_attr(feature = "cli", arg(long))]
        #[serde(default)]
        bidirectional: bool,
    },
    /// Binary n-cube.
    Hypercube {
        /// Dimensions n (default 6).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes"))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        n: Option<u32>,
        /// Nodes N = 2^n instead of n, rounded up to a power of two.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
    },
    /// Midimew of N nodes: C_N(⌈√(N/2)⌉ − 1, ⌈√(N/2)⌉) (Puente et al. §2).
    Midimew {
        /// Nodes N ≥ 4 (default 64).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u32>,
    },
    /// Circulant graph C_N(a, b).
    Circulant {
        /// Nodes N.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        nodes: u32,
        /// First generator.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        a: u32,
        /// Second generator.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        b: u32,
    },
    /// Butterfly of k×k switches: processors at the first stage, memories after the last.
    Butterfly {
        /// Switch radix k (default 2).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        /// Stages n, N = k^n (default 4).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes"))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stages: Option<u32>,
        /// Processors N instead of the stages, rounded up to a power of k.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
    },
    /// Omega network of k×k switches (a perfect shuffle before every stage).
    Omega {
        /// Switch radix k (default 2).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        /// Stages n, N = k^n (default 4).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true, conflicts_with = "nodes"))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stages: Option<u32>,
        /// Processors N instead of the stages, rounded up to a power of k.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
    },
    /// Butterfly fat-tree of N = 4^n processors (Greenberg & Guan §3.1).
    FatTree {
        /// Processors N (default 64).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u32>,
    },
    /// Extended generalized fat-tree XGFT(h; m1,…,mh; w1,…,wh) (Öhring, Ibel, Das & Kumar
    /// 1995): terminals at level 0, a level-l switch has m_l children and w_{l+1} parents.
    Xgft {
        /// Children per switch m1,…,mh, level 1 first (m1 terminals per level-1 switch).
        #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', required = true, value_parser = crate::cli::small_count::<1>))]
        children: Vec<u32>,
        /// Parents per node w1,…,wh, level 0 first; w1 = 1 (one level-1 switch per terminal).
        #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', required = true, value_parser = crate::cli::small_count::<1>))]
        parents: Vec<u32>,
    },
    /// k-ary n-tree (Petrini & Vanneschi 1997): XGFT(n; k,…,k; 1,k,…,k), k^n processors,
    /// n·k^(n−1) switches of 2k ports.
    KaryNtree {
        /// Arity k, at least 2 (default 4).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        /// Levels of switches n, at least 1 (default 3).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<1>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        n: Option<u32>,
    },
    /// Complete graph K_N.
    Complete {
        /// Nodes N.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        nodes: u32,
    },
    /// n-hop network: a product of complete graphs (`[4, 8]` is K4 × K8).
    Nhop {
        /// Complete-graph sizes.
        #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', required = true, value_parser = crate::cli::small_count::<0>))]
        factors: Vec<u32>,
    },
    /// HyperX (Ahn et al. 2009): routers at the points of an S1 × S2 × … grid, each joined to
    /// every router that differs from it in one coordinate, with p terminals per router and
    /// channels K flits wide; the flattened butterfly when the sizes are equal, the n-hop
    /// network when p = K = 1.
    Hyperx {
        /// Routers per dimension S1,S2,… (each at least 2).
        #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', required = true, value_parser = crate::cli::small_count::<0>))]
        sizes: Vec<u32>,
        /// Terminals per router p (default 1).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        p: Option<u32>,
        /// Link width K: Ahn et al.'s K parallel links between neighbours, as one channel of K
        /// flits per cycle (default 1).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        width: Option<u32>,
    },
    /// Cube-connected cycles CCC(n).
    Ccc {
        /// Cube dimension n, at least 3 (n ≤ 19 within netwrap's size limits).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        n: u32,
    },
    /// A single crossbar joining N processors.
    Crossbar {
        /// Processors N.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        nodes: u32,
    },
    /// Dragonfly (Kim, Dally, Scott & Abts 2008): groups of a routers fully connected by local
    /// channels, h global channels and p terminals per router, minimal routing. Defaults
    /// balance it as Kim et al. do, a = 2p = 2h: p alone gives a = 2p, h = p; h alone gives
    /// p = h, a = 2h; a alone gives p = h = ⌈a/2⌉; nothing gives p = 2; groups default to
    /// a·h + 1 (one global link per pair of groups).
    Dragonfly {
        /// Terminals per router p (default: h, else ⌈a/2⌉, else 2).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        p: Option<u32>,
        /// Routers per group a (default 2p).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<u32>,
        /// Global channels per router h (default p).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        h: Option<u32>,
        /// Groups g, 2 ≤ g ≤ a·h + 1 (default a·h + 1).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        groups: Option<u32>,
        /// How global ports reach the other groups (default: absolute, BookSim2's).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::choice::<GlobalArrangement>()))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arrangement: Option<GlobalArrangement>,
    },
    /// Slim Fly (Besta & Hoefler 2014): the McKay–Miller–Širáň graph of diameter 2 for a prime
    /// power q = 4w + δ (δ = −1, 0 or 1), 2q² routers of degree k' = (3q − δ)/2, p terminals
    /// per router, minimal routing (direct, or through any common neighbour).
    Slimfly {
        /// Prime power q ≥ 3 (3, 4, 5, 7, 8, 9, 11, 13, 16, …): 2q² routers.
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        q: u32,
        /// Terminals per router p (default ⌈k'/2⌉, Besta & Hoefler's balanced concentration).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        p: Option<u32>,
    },
    /// Raghunath & Ranade's two-level networks by name: Butterfly.I.E, Butterfly.I-Ddil.E,
    /// Xbar.I.E, nhop.I.E1-…-En (2hop, 3hop, …) or Xbar.I.E1-…-En, widths in bits (their §5).
    TwoLevel {
        /// The network's name, e.g. `Butterfly.16.8`.
        name: String,
        /// Processors N (default 1024).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u32>,
        /// Packaging modules M (default 32).
        #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        modules: Option<u32>,
    },
    /// Any graph from a file: BookSim2's anynet format, a CSV edge list `src,dst[,latency]`
    /// or networkx node-link JSON (docs/topo.md), routed by every minimal next hop.
    Graph {
        /// The graph's file (.csv, .json, anything else by its content; recorded as given).
        #[cfg_attr(feature = "cli", arg(long))]
        file: std::path::PathBuf,
        /// CSV edge lists: a file of `router,count` lines, each router's terminals (default 1).
        #[cfg_attr(feature = "cli", arg(long))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        terminals: Option<std::path::PathBuf>,
    },
}

impl Default for TopologySpec {
    /// The homework's Ex 1 network: an 8-ary 2-cube, unidirectional.
    fn default() -> Self {
        TopologySpec::Torus {
            k: Some(8),
            n: Some(2),
            nodes: None,
            radices: None,
            bidirectional: false,
            concentration: None,
        }
    }
}

/// How messages are routed: the `routing` section of a spec.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RoutingSpec {
    /// Routing function [spec: routing.algorithm] (default: family).
    #[serde(default)]
    #[cfg_attr(feature = "cli", arg(id = "routing", long = "routing", value_parser = crate::cli::routing_choice(), default_value = "family", hide_default_value = true, global = true))]
    pub algorithm: RoutingAlgorithm,
    /// Dimension order of dimension-order routing, cube families only [spec: routing.order]
    /// (default: highest-first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::choice::<DimensionOrder>(), global = true))]
    pub order: Option<DimensionOrder>,
    /// Up-port choice of nearest-common-ancestor routing, XGFTs and k-ary n-trees only
    /// [spec: routing.up-port] (default: random).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::choice::<UpPort>(), global = true))]
    pub up_port: Option<UpPort>,
    /// Where the intermediate of valiant, ugal-local, ugal-global and par lies [spec:
    /// routing.via] (default: group on dragonflies, router elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::choice::<Via>(), global = true))]
    pub via: Option<Via>,
    /// UGAL, PAR and DAL: flits added to the non-minimal side of the comparison, so that a
    /// message leaves its minimal path only when that is clearly better [spec:
    /// routing.threshold] (default: 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "cli", arg(long, value_parser = crate::cli::small_count::<0>, allow_negative_numbers = true, global = true))]
    pub threshold: Option<u32>,
}

/// The routing functions.
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
pub enum RoutingAlgorithm {
    /// The family's own: dimension order on tori, meshes, rings and hypercubes; every minimal
    /// next hop on circulants, Midimews, n-hop networks, Slim Flies, CCC and crossbar modules;
    /// destination tags on butterflies and Omega networks; up to the nearest common ancestor
    /// (either parent, the free one first) on the fat-tree, and (up port by `up-port`) on XGFTs
    /// and k-ary n-trees.
    #[default]
    #[serde(alias = "min")]
    Family,
    /// Any family: a table of every minimal next hop from breadth-first search (Puente et al.
    /// §2.2), at most 64 MiB.
    Table,
    /// Midimews only: Puente et al.'s routing record (Table 2), recomputed at every hop.
    Record,
    /// Valiant's oblivious routing (Valiant & Brebner 1981): minimally to a random
    /// intermediate (a group on dragonflies, Kim et al. 2008 §4.1; a router elsewhere:
    /// `via`), then minimally to the destination. Messages within one router (group) go
    /// minimally.
    Valiant,
    /// UGAL with local queues (Singh 2005; Kim et al. 2008 §4.1): at the source, the minimal
    /// path unless its first hop's queue × hops exceeds that of one random Valiant path plus
    /// `threshold`.
    UgalLocal,
    /// UGAL with every queue along both paths: an idealised bound on what UGAL can do
    /// (Jiang, Kim & Dally 2009 §2).
    UgalGlobal,
    /// Progressive adaptive routing, dragonflies (Jiang, Kim & Dally 2009 §3): as ugal-local,
    /// and a message sent minimally decides again at its first hop if that hop kept it in its
    /// source group.
    Par,
    /// Dimensionally-adaptive, load-balanced routing, HyperX (Ahn et al. 2009 §4): at every
    /// hop the packet takes the least-queued minimal hop of any dimension it has still to
    /// align, or a deroute within one of those dimensions (to another coordinate, at most once
    /// per dimension) when the minimal queue × the hops left exceeds the deroute's queue ×
    /// one hop more plus `threshold`. At most two hops per dimension.
    Dal,
}

impl RoutingAlgorithm {
    /// The value as written in a spec and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RoutingAlgorithm::Family => "family",
            RoutingAlgorithm::Table => "table",
            RoutingAlgorithm::Record => "record",
            RoutingAlgorithm::Valiant => "valiant",
            RoutingAlgorithm::UgalLocal => "ugal-local",
            RoutingAlgorithm::UgalGlobal => "ugal-global",
            RoutingAlgorithm::Par => "par",
            RoutingAlgorithm::Dal => "dal",
        }
    }

    /// The paths it chooses among (minimal for the routing functions themselves).
    pub fn path_choice(self) -> PathChoice {
        match self {
            RoutingAlgorithm::Family | RoutingAlgorithm::Table | RoutingAlgorithm::Record => {
                PathChoice::Minimal
            }
            RoutingAlgorithm::Valiant => PathChoice::Valiant,
            RoutingAlgorithm::UgalLocal => PathChoice::UgalLocal,
            RoutingAlgorithm::UgalGlobal => PathChoice::UgalGlobal,
            RoutingAlgorithm::Par => PathChoice::Par,
            RoutingAlgorithm::Dal => PathChoice::Dal,
        }
    }
}

impl RoutingSpec {
    /// The paths messages take (of a resolved routing: [`TopologySpec::resolve_routing`]).
    pub fn paths(&self) -> Paths {
        Paths {
            choice: self.algorithm.path_choice(),
            via: self.via.unwrap_or_default(),
            threshold: self.threshold.unwrap_or(0),
        }
    }
}

impl DimensionOrder {
    /// The value as written in a spec and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DimensionOrder::HighestFirst => "highest-first",
            DimensionOrder::LowestFirst => "lowest-first",
        }
    }
}

fn invalid(msg: impl Into<String>) -> TopoError {
    TopoError::Invalid(msg.into())
}

/// An invalid value of the topology section's key `name`.
fn key(name: &'static str, message: String) -> TopoError {
    TopoError::Key { key: name, message }
}

/// The smallest n ≥ 1 with k^n ≥ `nodes`, and k^n (saturating).
pub fn whole_dimensions(nodes: u64, k: u32) -> (u32, u64) {
    let mut n = 1;
    let mut size = k as u64;
    while size < nodes {
        n += 1;
        size = size.saturating_mul(k as u64);
    }
    (n, size)
}

/// n for `nodes` processors at radix `k`, rounded up to a whole dimension; a note when rounded.
fn dimensions_for(k: u32, nodes: u64, what: &str, notes: &mut Vec<String>) -> Result<u32, TopoError> {
    if nodes == 0 {
        return Err(key("nodes", format!("nodes = 0 is invalid: a {what} needs at least one processor")));
    }
    let (n, rounded) = whole_dimensions(nodes, k);
    if rounded != nodes {
        notes.push(format!(
            "log_{k}({nodes}) is not a whole number: using n = {n}, N = {k}^{n} = {rounded} processors"
        ));
    }
    Ok(n)
}

/// `k` (given as the key `name`: `k` or `radices`) when it is a radix, at least 2.
fn check_radix(k: u32, name: &'static str, what: &str) -> Result<u32, TopoError> {
    if k < 2 {
        let given = if name == "k" { format!("k = {k} is invalid") } else { format!("{name} holds {k}") };
        return Err(key(name, format!("{given}: the radix of a {what} must be at least 2")));
    }
    Ok(k)
}

/// Canonical (k, n, radices) of a torus or mesh: k and n when every radix is equal, radices
/// otherwise.
type CubeSize = (Option<u32>, Option<u32>, Option<Vec<u32>>);

fn resolve_cube(
    k: Option<u32>,
    n: Option<u32>,
    nodes: Option<u64>,
    radices: &Option<Vec<u32>>,
    what: &str,
    notes: &mut Vec<String>,
) -> Result<CubeSize, TopoError> {
    if let Some(r) = radices {
        if k.is_some() || n.is_some() || nodes.is_some() {
            return Err(invalid(format!("a {what} takes either radices or k with n (or nodes), not both")));
        }
        if r.is_empty() {
            return Err(invalid(format!("radices is empty: a {what} needs at least one dimension")));
        }
        for &x in r {
            check_radix(x, "radices", what)?;
        }
        if r.iter().all(|&x| x == r[0]) {
            return Ok((Some(r[0]), Some(r.len() as u32), None));
        }
        return Ok((None, None, Some(r.clone())));
    }
    let k = check_radix(k.unwrap_or(8), "k", what)?;
    let n = match (n, nodes) {
        (Some(_), Some(_)) => return Err(invalid(format!("a {what} takes n or nodes, not both"))),
        (Some(0), _) => {
            return Err(key("n", format!("n = 0 is invalid: a {what} needs at least one dimension")));
        }
        (Some(n), None) => n,
        (None, Some(nodes)) => dimensions_for(k, nodes, what, notes)?,
        (None, None) => 2,
    };
    Ok((Some(k), Some(n), None))
}

fn resolve_stages(
    k: Option<u32>,
    stages: Option<u32>,
    nodes: Option<u64>,
    notes: &mut Vec<String>,
) -> Result<(Option<u32>, Option<u32>), TopoError> {
    let k = check_radix(k.unwrap_or(2), "k", "multistage network's switches")?;
    let stages = match (stages, nodes) {
        (Some(_), Some(_)) => return Err(invalid("a multistage network takes stages or nodes, not both")),
        (Some(s), None) => s,
        (None, Some(nodes)) => dimensions_for(k, nodes, "multistage network", notes)?,
        (None, None) => 4,
    };
    Ok((Some(k), Some(stages)))
}

/// Concentration with `nodes`: refused, since N would not say whether it counts routers or
/// terminals.
fn concentrated(nodes: Option<u64>, concentration: Option<u32>) -> Result<(), TopoError> {
    match (nodes, concentration) {
        (Some(_), Some(p)) if p > 1 => Err(TopoError::Invalid(format!(
            "nodes with concentration = {p} is ambiguous (routers or terminals?): give k and n, or radices, with the concentration"
        ))),
        _ => Ok(()),
    }
}

impl TopologySpec {
    /// The family's name as written in a spec and on the command line (`torus`, `fat-tree`,
    /// …): the variant's name, as serde, clap and strum spell it.
    pub fn family(&self) -> &'static str {
        self.into()
    }

    /// True for the k-ary n-cube families (torus, mesh, ring, hypercube): the ones routed in
    /// dimension order, with locality subcubes and the k-ary n-cube model.
    pub fn is_cube(&self) -> bool {
        matches!(
            self,
            TopologySpec::Torus { .. }
                | TopologySpec::Mesh { .. }
                | TopologySpec::Ring { .. }
                | TopologySpec::Hypercube { .. }
        )
    }

    /// Every default filled and every alternative in one canonical form, plus notes for the
    /// user (e.g. N rounded up to a whole dimension). Resolving a resolved spec changes nothing.
    pub fn resolve(&self) -> Result<(TopologySpec, Vec<String>), TopoError> {
        let mut notes = Vec::new();
        let spec = match self {
            TopologySpec::Torus { k, n, nodes, radices, bidirectional, concentration } => {
                concentrated(*nodes, *concentration)?;
                let (k, n, radices) = resolve_cube(*k, *n, *nodes, radices, "torus", &mut notes)?;
                TopologySpec::Torus {
                    k,
                    n,
                    nodes: None,
                    radices,
                    bidirectional: *bidirectional,
                    concentration: *concentration,
                }
            }
            TopologySpec::Mesh { k, n, nodes, radices, concentration } => {
                concentrated(*nodes, *concentration)?;
                let (k, n, radices) = resolve_cube(*k, *n, *nodes, radices, "mesh", &mut notes)?;
                TopologySpec::Mesh { k, n, nodes: None, radices, concentration: *concentration }
            }
            TopologySpec::Ring { k, bidirectional } => TopologySpec::Ring {
                k: Some(check_radix(k.unwrap_or(8), "k", "ring")?),
                bidirectional: *bidirectional,
            },
            TopologySpec::Hypercube { n, nodes } => {
                let n = match (n, nodes) {
                    (Some(_), Some(_)) => return Err(invalid("a hypercube takes n or nodes, not both")),
                    (Some(n), None) => *n,
                    (None, Some(nodes)) => dimensions_for(2, *nodes, "hypercube", &mut notes)?,
                    (None, None) => 6,
                };
                TopologySpec::Hypercube { n: Some(n), nodes: None }
            }
            TopologySpec::Midimew { nodes } => TopologySpec::Midimew { nodes: Some(nodes.unwrap_or(64)) },
            TopologySpec::Butterfly { k, stages, nodes } => {
                let (k, stages) = resolve_stages(*k, *stages, *nodes, &mut notes)?;
                TopologySpec::Butterfly { k, stages, nodes: None }
            }
            TopologySpec::Omega { k, stages, nodes } => {
                let (k, stages) = resolve_stages(*k, *stages, *nodes, &mut notes)?;
                TopologySpec::Omega { k, stages, nodes: None }
            }
            TopologySpec::FatTree { nodes } => TopologySpec::FatTree { nodes: Some(nodes.unwrap_or(64)) },
            TopologySpec::KaryNtree { k, n } => {
                let k = k.unwrap_or(4);
                if k < 2 {
                    return Err(invalid(format!(
                        "k = {k} is invalid: the radix of a k-ary n-tree must be at least 2"
                    )));
                }
                let n = n.unwrap_or(3);
                if n < 1 {
                    return Err(invalid(
                        "n = 0 is invalid: a k-ary n-tree needs at least one level of switches",
                    ));
                }
                TopologySpec::KaryNtree { k: Some(k), n: Some(n) }
            }
            TopologySpec::TwoLevel { name, nodes, modules } => TopologySpec::TwoLevel {
                name: name.clone(),
                nodes: Some(nodes.unwrap_or(1024)),
                modules: Some(modules.unwrap_or(32)),
            },
            TopologySpec::Dragonfly { p, a, h, groups, arrangement } => {
                let p = p.or(*h).or(a.map(|a| a.div_ceil(2))).unwrap_or(2);
                let h = h.unwrap_or(p);
                let a = match a {
                    Some(a) => *a,
                    None => p.checked_mul(2).ok_or_else(|| {
                        invalid(format!("p = {p} is too large: a = 2p routers per group overflows"))
                    })?,
                };
                let groups = match groups {
                    Some(g) => *g,
                    None => u32::try_from(a as u64 * h as u64 + 1).map_err(|_| {
                        invalid(format!("a·h + 1 = {} groups is too large", a as u64 * h as u64 + 1))
                    })?,
                };
                TopologySpec::Dragonfly {
                    p: Some(p),
                    a: Some(a),
                    h: Some(h),
                    groups: Some(groups),
                    arrangement: Some(arrangement.unwrap_or_default()),
                }
            }
            TopologySpec::Slimfly { q, p } => {
                let p = match p {
                    Some(p) => *p,
                    None => crate::slimfly::balanced_p(*q)?,
                };
                TopologySpec::Slimfly { q: *q, p: Some(p) }
            }
            other => other.clone(),
        };
        Ok((spec, notes))
    }

    /// The routing, checked against this family, with its defaults filled: the order of
    /// dimension-order routing is `highest-first` on cube families routed their own way, absent
    /// otherwise.
    pub fn resolve_routing(&self, routing: &RoutingSpec) -> Result<RoutingSpec, TopoError> {
        let family = self.family();
        let choice = routing.algorithm.path_choice();
        let own = routing.algorithm == RoutingAlgorithm::Family || choice != PathChoice::Minimal;
        let dimension_order = self.is_cube() && own;
        if routing.order.is_some() && !dimension_order {
            return Err(invalid(if self.is_cube() {
                format!(
                    "order applies to dimension-order routing: a {family} routed by '{}' has no dimension order",
                    routing.algorithm.name()
                )
            } else {
                format!(
                    "order applies to dimension-order routing of tori, meshes, rings and hypercubes, not to a {family}"
                )
            }));
        }
        if routing.algorithm == RoutingAlgorithm::Record && !matches!(self, TopologySpec::Midimew { .. }) {
            return Err(invalid(format!(
                "routing 'record' is Puente et al.'s Midimew routing record: a {family} routes by 'family' or 'table'"
            )));
        }
        let tree = matches!(self, TopologySpec::Xgft { .. } | TopologySpec::KaryNtree { .. });
        let nca = tree && own;
        if let Some(up) = routing.up_port
            && !nca
        {
            return Err(invalid(if tree {
                format!(
                    "up-port '{}' applies to nearest-common-ancestor routing: a {family} routed by '{}' has no up-port choice",
                    up.name(),
                    routing.algorithm.name()
                )
            } else {
                format!("up-port applies to XGFTs and k-ary n-trees, not to a {family}")
            }));
        }
        let dragonfly = matches!(self, TopologySpec::Dragonfly { .. });
        let name = routing.algorithm.name();
        if choice != PathChoice::Minimal
            && matches!(
                self,
                TopologySpec::Butterfly { .. }
                    | TopologySpec::Omega { .. }
                    | TopologySpec::Crossbar { .. }
                    | TopologySpec::TwoLevel { .. }
            )
        {
            return Err(invalid(format!(
                "routing '{name}' goes through an intermediate router and on from there: a {family} is a multistage network whose terminals inject and eject at different routers; use it on a direct network, a fat-tree or a dragonfly"
            )));
        }
        if choice == PathChoice::Par && !dragonfly {
            return Err(invalid(format!(
                "routing 'par' re-decides within the source group: it applies to dragonflies, not to a {family} (use ugal-local)"
            )));
        }
        if choice == PathChoice::Dal
            && !matches!(self, TopologySpec::Hyperx { .. } | TopologySpec::Nhop { .. })
        {
            return Err(invalid(format!(
                "routing 'dal' deroutes within the dimensions of a HyperX: it applies to hyperx and nhop, not to a {family} (use ugal-local)"
            )));
        }
        if matches!(choice, PathChoice::Minimal | PathChoice::Dal) && routing.via.is_some() {
            return Err(invalid(format!(
                "via applies to valiant, ugal-local, ugal-global and par, not to routing '{name}'"
            )));
        }
        if !choice.adaptive() && routing.threshold.is_some() {
            return Err(invalid(format!(
                "threshold applies to ugal-local, ugal-global, par and dal, not to routing '{name}'"
            )));
        }
        if routing.via == Some(Via::Group) && !dragonfly {
            return Err(invalid(format!(
                "via 'group' applies to dragonflies: a {family} has no groups (use via = router)"
            )));
        }
        let intermediate = !matches!(choice, PathChoice::Minimal | PathChoice::Dal);
        Ok(RoutingSpec {
            algorithm: routing.algorithm,
            order: dimension_order.then(|| routing.order.unwrap_or_default()),
            up_port: nca.then(|| routing.up_port.unwrap_or_default()),
            via: intermediate
                .then(|| routing.via.unwrap_or(if dragonfly { Via::Group } else { Via::Router })),
            threshold: choice.adaptive().then(|| routing.threshold.unwrap_or(0)),
        })
    }

    /// The builders' description of this family under `routing` (resolving both first).
    pub fn shape(&self, routing: &RoutingSpec) -> Result<Shape, TopoError> {
        let (spec, _) = self.resolve()?;
        let routing = spec.resolve_routing(routing)?;
        let order = routing.order.unwrap_or_default();
        let cube = |k: &Option<u32>,
                    n: &Option<u32>,
                    radices: &Option<Vec<u32>>,
                    wrap: bool,
                    bidirectional: bool| {
            match radices {
                Some(r) => Ok(r.clone()),
                None => {
                    let (k, n) = (k.unwrap_or(8), n.unwrap_or(2));
                    // Every radix is at least 2 (resolve checked), so more than 64 dimensions
                    // is more than 2^64 terminals: refuse it before allocating n radices (n
                    // may be 2^32 − 1, 16 GiB of them).
                    if n > 64 {
                        let nothing = Planned { terminals: None, routers: None, channels: None };
                        nothing.check(|| {
                            format!(
                                "the {k}-ary {n}-cube ({}, {})",
                                if wrap { "torus" } else { "mesh" },
                                if bidirectional { "bidirectional" } else { "unidirectional" }
                            )
                        })?;
                    }
                    Ok::<_, TopoError>(vec![k; n as usize])
                }
            }
        };
        let shape = match &spec {
            TopologySpec::Torus { k, n, radices, bidirectional, concentration, .. } => Shape::Cube {
                radices: cube(k, n, radices, true, *bidirectional)?,
                wrap: true,
                bidirectional: *bidirectional,
                order,
                concentration: concentration.unwrap_or(1),
            },
            TopologySpec::Mesh { k, n, radices, concentration, .. } => Shape::Cube {
                radices: cube(k, n, radices, false, true)?,
                wrap: false,
                bidirectional: true,
                order,
                concentration: concentration.unwrap_or(1),
            },
            TopologySpec::Ring { k, bidirectional } => Shape::Cube {
                radices: vec![k.unwrap_or(8)],
                wrap: true,
                bidirectional: *bidirectional,
                order,
                concentration: 1,
            },
            TopologySpec::Hypercube { n, .. } => Shape::Hypercube { n: n.unwrap_or(6), order },
            TopologySpec::Midimew { nodes } => Shape::Midimew {
                nodes: nodes.unwrap_or(64),
                routing: if routing.algorithm == RoutingAlgorithm::Record {
                    CirculantRouting::Record
                } else {
                    CirculantRouting::Table
                },
            },
            TopologySpec::Circulant { nodes, a, b } => Shape::Circulant { nodes: *nodes, a: *a, b: *b },
            TopologySpec::Butterfly { k, stages, .. } => Shape::Multistage {
                k: k.unwrap_or(2),
                stages: stages.unwrap_or(4),
                wiring: StageWiring::Butterfly,
            },
            TopologySpec::Omega { k, stages, .. } => Shape::Multistage {
                k: k.unwrap_or(2),
                stages: stages.unwrap_or(4),
                wiring: StageWiring::Omega,
            },
            TopologySpec::FatTree { nodes } => Shape::FatTree { nodes: nodes.unwrap_or(64) },
            TopologySpec::Complete { nodes } => {
                Shape::NHop { factors: vec![*nodes], per_router: 1, width: 1 }
            }
            TopologySpec::Nhop { factors } => {
                Shape::NHop { factors: factors.clone(), per_router: 1, width: 1 }
            }
            TopologySpec::Hyperx { sizes, p, width } => {
                Shape::NHop { factors: sizes.clone(), per_router: p.unwrap_or(1), width: width.unwrap_or(1) }
            }
            TopologySpec::Xgft { children, parents } => Shape::Xgft {
                children: children.clone(),
                parents: parents.clone(),
                up_port: routing.up_port.unwrap_or_default(),
            },
            TopologySpec::KaryNtree { k, n } => {
                let (k, n) = (k.unwrap_or(4), n.unwrap_or(3));
                if n > 64 {
                    // k >= 2: more than 64 levels is more than 2^64 processors; refuse it
                    // before allocating n radices.
                    let nothing = Planned { terminals: None, routers: None, channels: None };
                    nothing.check(|| format!("the {k}-ary {n}-tree"))?;
                }
                let mut parents = vec![k; n as usize];
                parents[0] = 1;
                Shape::Xgft {
                    children: vec![k; n as usize],
                    parents,
                    up_port: routing.up_port.unwrap_or_default(),
                }
            }
            TopologySpec::Ccc { n } => Shape::Ccc { n: *n },
            TopologySpec::Crossbar { nodes } => Shape::Crossbar { nodes: *nodes },
            TopologySpec::Dragonfly { p, a, h, groups, arrangement } => Shape::Dragonfly {
                p: p.unwrap_or(2),
                a: a.unwrap_or(4),
                h: h.unwrap_or(2),
                groups: groups.unwrap_or(9),
                arrangement: arrangement.unwrap_or_default(),
            },
            TopologySpec::Slimfly { q, p } => Shape::SlimFly { q: *q, p: p.unwrap_or(1) },
            TopologySpec::TwoLevel { name, nodes, modules } => {
                two_level(name, nodes.unwrap_or(1024), modules.unwrap_or(32))?
            }
            TopologySpec::Graph { file, .. } => {
                return Err(invalid(format!(
                    "the graph family's file {} is read outside netwrap-topo: build its shape with netwrap_sim::shape_of, which parses it into Shape::Graph",
                    file.display()
                )));
            }
        };
        // Circulants and Midimews route by their own minimal-next-hop table already.
        let own_table = matches!(spec, TopologySpec::Midimew { .. } | TopologySpec::Circulant { .. });
        Ok(if routing.algorithm == RoutingAlgorithm::Table && !own_table {
            Shape::Table { of: Box::new(shape) }
        } else {
            shape
        })
    }
}

/// Parses Raghunath & Ranade's network names (their §5) into a shape.
fn two_level(name: &str, nodes: u32, modules: u32) -> Result<Shape, TopoError> {
    let bad = || {
        invalid(format!(
            "cannot parse network name {name:?}: use Butterfly.I.E, Butterfly.I-Ddil.E, Xbar.I.E, {{n}}hop.I.E1-...-En or Xbar.I.E1-...-En with widths in bits (Raghunath & Ranade §5)"
        ))
    };
    let number = |s: &str| s.parse::<u32>().map_err(|_| bad());
    let parts: Vec<&str> = name.split('.').collect();
    let [family, intra, inter] = parts[..] else { return Err(bad()) };
    let (intra_bits, dilation) = match intra.split_once('-') {
        Some((w, d)) => (number(w)?, number(d.strip_suffix("dil").ok_or_else(bad)?)?),
        None => (number(intra)?, 1),
    };
    let inter_bits: Vec<u32> = inter.split('-').map(number).collect::<Result<_, _>>()?;
    let hops = inter_bits.len() as u32;
    let factors = |modules: u32| -> Result<Vec<u32>, TopoError> {
        if hops == 1 {
            return Ok(vec![modules]);
        }
        crate::cost::balanced_factors(modules, hops).ok_or_else(|| {
            invalid(format!("M = {modules} modules have no factorisation into {hops} factors >= 2"))
        })
    };
    let lower = family.to_ascii_lowercase();
    if lower == "xbar" {
        if dilation != 1 {
            return Err(invalid(format!(
                "a crossbar module has no intra-module channels to dilate: drop -{dilation}dil"
            )));
        }
        if modules == 0 || !nodes.is_multiple_of(modules) {
            return Err(invalid(format!(
                "nodes = {nodes} is not a multiple of modules = {modules}: every module holds N/M processors"
            )));
        }
        return Ok(Shape::XbarModules {
            per_module: nodes / modules,
            factors: factors(modules)?,
            intra_bits,
            inter_bits,
        });
    }
    let named_hops = if lower == "butterfly" {
        1
    } else {
        lower.strip_suffix("hop").and_then(|n| n.parse::<u32>().ok()).ok_or_else(bad)?
    };
    if named_hops != hops {
        return Err(invalid(format!(
            "{name}: a {named_hops}-hop network needs {named_hops} inter-module widths, got {hops}"
        )));
    }
    Ok(Shape::ModularButterfly {
        nodes,
        modules,
        split: ModuleSplit { factors: factors(modules)?, intra_bits, inter_bits, dilation },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(s: &str) -> TopologySpec {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn resolution_is_canonical_and_idempotent() {
        let specs = [
            r#"{"family": "torus"}"#,
            r#"{"family": "torus", "k": 4, "nodes": 100}"#,
            r#"{"family": "torus", "radices": [4, 4, 4]}"#,
            r#"{"family": "mesh", "radices": [4, 3]}"#,
            r#"{"family": "hypercube", "nodes": 64}"#,
            r#"{"family": "butterfly", "nodes": 1000}"#,
            r#"{"family": "two-level", "name": "Butterfly.16.8"}"#,
            r#"{"family": "two-level", "name": "Xbar.32.8"}"#,
            r#"{"family": "dragonfly", "p": 2}"#,
            r#"{"family": "dragonfly", "h": 3, "arrangement": "palmtree"}"#,
        ];
        for s in specs {
            let (once, _) = json(s).resolve().unwrap();
            assert_eq!(once.resolve().unwrap().0, once, "{s}");
            let text = serde_json::to_string(&once).unwrap();
            assert_eq!(serde_json::from_str::<TopologySpec>(&text).unwrap(), once);
        }
        let (t, notes) = json(r#"{"family": "torus", "k": 4, "nodes": 100}"#).resolve().unwrap();
        assert_eq!(
            t,
            TopologySpec::Torus {
                k: Some(4),
                n: Some(4),
                nodes: None,
                radices: None,
                bidirectional: false,
                concentration: None
            }
        );
        assert!(notes[0].contains("N = 4^4 = 256"), "{notes:?}");
        let (t, _) = json(r#"{"family": "torus", "radices": [4, 4, 4]}"#).resolve().unwrap();
        assert_eq!(
            t,
            TopologySpec::Torus {
                k: Some(4),
                n: Some(3),
                nodes: None,
                radices: None,
                bidirectional: false,
                concentration: None
            }
        );
    }

    /// The dragonfly's defaults balance it as Kim et al. 2008 do (a = 2p = 2h, g = a·h + 1),
    /// from whichever of p, h, a is given.
    #[test]
    fn dragonfly_defaults_are_balanced() {
        let df = |p, a, h, g| TopologySpec::Dragonfly {
            p: Some(p),
            a: Some(a),
            h: Some(h),
            groups: Some(g),
            arrangement: Some(GlobalArrangement::Absolute),
        };
        for (text, want) in [
            (r#"{"family": "dragonfly"}"#, df(2, 4, 2, 9)),
            (r#"{"family": "dragonfly", "p": 4}"#, df(4, 8, 4, 33)),
            (r#"{"family": "dragonfly", "h": 3}"#, df(3, 6, 3, 19)),
            (r#"{"family": "dragonfly", "a": 5}"#, df(3, 5, 3, 16)),
            (r#"{"family": "dragonfly", "p": 2, "a": 4, "h": 2, "groups": 5}"#, df(2, 4, 2, 5)),
        ] {
            assert_eq!(json(text).resolve().unwrap().0, want, "{text}");
        }
    }

    /// Characterisation: a family's name is its serde tag (and so its spec key and flag).
    #[test]
    fn family_names_are_the_serde_tags() {
        for text in [
            r#"{"family": "torus"}"#,
            r#"{"family": "fat-tree"}"#,
            r#"{"family": "two-level", "name": "Xbar.32.8"}"#,
            r#"{"family": "nhop", "factors": [4, 8]}"#,
        ] {
            let spec = json(text);
            let tag = serde_json::to_value(&spec).unwrap()["family"].as_str().unwrap().to_string();
            assert_eq!(spec.family(), tag);
        }
    }

    #[test]
    fn unknown_fields_and_contradictions_are_refused() {
        assert!(serde_json::from_str::<TopologySpec>(r#"{"family": "ring", "n": 3}"#).is_err());
        let both = json(r#"{"family": "torus", "k": 4, "radices": [4, 8]}"#);
        assert!(both.resolve().unwrap_err().to_string().contains("either radices or k"));
        let ring = json(r#"{"family": "ring"}"#);
        let lowest = RoutingSpec { order: Some(DimensionOrder::LowestFirst), ..Default::default() };
        assert!(ring.resolve_routing(&lowest).is_ok());
        let fat = json(r#"{"family": "fat-tree"}"#);
        assert!(fat.resolve_routing(&lowest).unwrap_err().to_string().contains("not to a fat-tree"));
        let record = RoutingSpec { algorithm: RoutingAlgorithm::Record, ..Default::default() };
        assert!(ring.resolve_routing(&record).unwrap_err().to_string().contains("Midimew"));
        let table = RoutingSpec {
            algorithm: RoutingAlgorithm::Table,
            order: Some(DimensionOrder::HighestFirst),
            ..Default::default()
        };
        assert!(ring.resolve_routing(&table).unwrap_err().to_string().contains("no dimension order"));
    }

    #[test]
    fn shapes_are_the_builders_descriptions() {
        let torus = TopologySpec::default();
        assert_eq!(
            torus.shape(&RoutingSpec::default()).unwrap(),
            Shape::Cube {
                radices: vec![8, 8],
                wrap: true,
                bidirectional: false,
                order: DimensionOrder::HighestFirst,
                concentration: 1
            }
        );
        let table = RoutingSpec { algorithm: RoutingAlgorithm::Table, ..Default::default() };
        assert!(matches!(torus.shape(&table).unwrap(), Shape::Table { .. }));
        let m = json(r#"{"family": "midimew", "nodes": 50}"#);
        assert_eq!(m.shape(&table).unwrap(), Shape::Midimew { nodes: 50, routing: CirculantRouting::Table });
        let b = json(r#"{"family": "two-level", "name": "2hop.32.64-32"}"#);
        assert!(matches!(b.shape(&RoutingSpec::default()).unwrap(), Shape::ModularButterfly { .. }));
    }

    /// Regression: `--k 2 --n 4294967295` allocated n radices (16 GiB) before the size check
    /// and aborted; more than 64 dimensions of radix >= 2 is refused as too large, at once.
    #[test]
    fn a_cube_of_billions_of_dimensions_is_refused_before_allocating() {
        for s in [r#"{"family": "torus", "k": 2, "n": 4294967295}"#, r#"{"family": "mesh", "k": 3, "n": 65}"#]
        {
            let e = json(s).shape(&RoutingSpec::default()).unwrap_err().to_string();
            assert!(e.contains("network too large") && e.contains("more than 2^64 terminals"), "{e}");
        }
        let e = json(r#"{"family": "torus", "k": 2, "n": 4294967295, "bidirectional": true}"#)
            .shape(&RoutingSpec::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("the 2-ary 4294967295-cube (torus, bidirectional)"), "{e}");
        let at_64 = json(r#"{"family": "torus", "k": 2, "n": 64}"#);
        assert!(matches!(at_64.shape(&RoutingSpec::default()).unwrap(), Shape::Cube { .. }));
    }
}
