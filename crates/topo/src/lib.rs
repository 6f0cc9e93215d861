//! Interconnection network topologies as data.
//!
//! A topology is a [`Network`]: routers joined by directed [`Channel`]s, and terminals
//! (processors, memories) that inject at one router and are delivered from one router. Each
//! family is a builder that produces a `Network` plus whatever structure (coordinates, levels)
//! its routing needs; routing is a separate value implementing [`Routing`] that reads it.
//! [`TopologySpec`] names every family as plain data; [`TopologySpec::build`] gives a
//! [`Topology`], whose [`Topology::visit`] hands the concrete family to generic code.
//!
//! Ids are plain `u32` indices into vectors, so the simulator's hot loop never chases
//! pointers or hashes.
#![deny(missing_docs)]

mod circulant;
pub mod cost;
mod cube;
mod error;
mod fattree;
mod graph;
mod hamming;
mod indirect;
pub mod metrics;
mod misc;
mod network;
mod spec;
mod twolevel;

pub use circulant::{Circulant, CirculantRouting, midimew_generators};
pub use cube::{CubeSpec, DimensionOrder, KaryNCube};
pub use error::TopoError;
pub use fattree::FatTree;
pub use graph::{TABLE_LIMIT, TableRouted, TableRouting, bfs_from};
pub use hamming::Hamming;
pub use indirect::{Indirect, StageWiring};
pub use metrics::Metrics;
pub use misc::{Ccc, XbarModules};
pub use network::{Candidates, Channel, ChannelId, Network, RouterId, Routing, TerminalId};
pub use spec::{Family, Topology, TopologySpec, Visitor};
pub use twolevel::{ModularButterfly, ModuleSplit};
