//! Interconnection network topologies as data.
//!
//! A topology is a [`Network`]: routers joined by directed [`Channel`]s, and terminals
//! (processors, memories) that inject at one router and are delivered from one router. Each
//! family is a builder that produces a `Network` plus whatever structure (coordinates, levels)
//! its routing needs; routing is a separate value implementing [`Routing`] that reads it.
//! [`TopologySpec`] and [`RoutingSpec`] name every family and its routing as plain data, in the
//! command line's words; [`TopologySpec::shape`] lowers them to a [`Shape`], whose
//! [`Shape::build`] gives a [`Topology`]; [`Topology::visit`] hands the concrete family to
//! generic code.
//!
//! Ids are plain `u32` indices into vectors, so the simulator's hot loop never chases
//! pointers or hashes. A network costs about 8 bytes per directed channel (see [`Network`]),
//! and every builder refuses sizes beyond [`MAX_TERMINALS`], [`MAX_ROUTERS`] and
//! [`MAX_CHANNELS`] from its parameters, before allocating, with a [`TopoError::TooLarge`]
//! that says what was asked, the limit and why.
//!
//! Generic code gets the concrete family once, through a [`Visitor`], and is monomorphised
//! per family (no `dyn` per hop):
//!
//! ```
//! use netwrap_topo::{Candidates, Family, Routing, RoutingSpec, TopologySpec, Visitor};
//!
//! /// Hops from terminal 0 to terminal `to`, following the first candidate.
//! struct Walk { to: u32 }
//! impl Visitor for Walk {
//!     type Output = u32;
//!     fn visit<F: Family>(self, f: &F) -> u32 {
//!         let net = f.network();
//!         // Room for every candidate at any router: made once, reused for every hop.
//!         let mut c = Candidates::for_network(net);
//!         let (mut at, mut hops) = (net.inject_router(0), 0);
//!         loop {
//!             f.route(at, self.to, 0, &mut c);
//!             let Some(&ch) = c.as_slice().first() else { return hops };
//!             at = net.channel(ch).dst;
//!             hops += 1;
//!         }
//!     }
//! }
//!
//! let spec: TopologySpec = serde_json::from_str(r#"{"family": "midimew", "nodes": 64}"#).unwrap();
//! let topo = spec.shape(&RoutingSpec::default()).unwrap().build().unwrap();
//! assert_eq!(topo.visit(Walk { to: 6 }), 1); // 6 = b is one hop away in C_64(5, 6)
//! ```
#![deny(missing_docs)]

mod circulant;
#[cfg(feature = "cli")]
pub mod cli;
pub mod cost;
mod cube;
mod dragonfly;
mod error;
mod family_spec;
mod fattree;
mod file_graph;
mod graph;
mod hamming;
mod indirect;
pub mod metrics;
mod misc;
mod network;
pub mod paths;
mod slimfly;
mod spec;
mod twolevel;
mod updown;
mod xgft;

pub use circulant::{Circulant, CirculantRouting, midimew_generators, midimew_layout};
pub use cube::{CubeSpec, DimensionOrder, KaryNCube};
pub use dragonfly::{Dragonfly, GlobalArrangement};
pub use error::TopoError;
pub use family_spec::{RoutingAlgorithm, RoutingSpec, TopologySpec, whole_dimensions};
pub use fattree::FatTree;
pub use file_graph::FileGraph;
pub use graph::{HopTable, Routed, TABLE_LIMIT, TableRouted, TableRouting, bfs_from};
pub use hamming::Hamming;
pub use indirect::{Indirect, StageWiring};
pub use metrics::Metrics;
pub use misc::{Ccc, XbarModules};
pub use network::{
    Attach, Candidates, Channel, ChannelId, MAX_CHANNELS, MAX_ROUTERS, MAX_TERMINALS, MAX_WIDTH, Network,
    NetworkBuilder, RouterId, Routing, TerminalId,
};
pub use paths::{Legs, PathChoice, Paths, Via};
pub use slimfly::SlimFly;
pub use spec::{Family, Shape, SwitchLevel, Topology, Visitor};
pub use twolevel::{ModularButterfly, ModuleSplit};
pub use updown::{Ranking, UPDOWN_LIMIT, UpDownRouted, UpDownRouting};
pub use xgft::{UpPort, Xgft};
