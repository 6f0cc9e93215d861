//! Interconnection network topologies as data.
//!
//! A topology is a [`Network`]: routers joined by directed [`Channel`]s, and terminals
//! (processors, memories) that inject at one router and are delivered from one router. Each
//! family is a builder that produces a `Network` plus whatever structure (coordinates, levels)
//! its routing needs; routing is a separate value implementing [`Routing`] that reads it.
//!
//! Ids are plain `u32` indices into vectors, so the simulator's hot loop never chases
//! pointers or hashes.
#![deny(missing_docs)]

mod cube;
mod error;
mod network;

pub use cube::{CubeSpec, DimensionOrder, KaryNCube};
pub use error::TopoError;
pub use network::{Candidates, Channel, ChannelId, Network, RouterId, Routing, TerminalId};
