//! A graph a user wrote in a file (`graph --file F`), already parsed: routers, directed
//! channels with their latencies, and where the terminals attach. netwrap-topo reads no files;
//! `netwrap_sim::graph_file` parses the formats (BookSim2's anynet, a CSV edge list,
//! networkx node-link JSON) into a [`FileGraph`], which [`crate::Shape::Graph`] carries and
//! builds, routed by a table of every minimal next hop ([`crate::TableRouted`]).

use crate::TopoError;
use crate::network::{Attach, Network, NetworkBuilder, Planned, RouterId};

/// A parsed graph: dense router ids `0..names.len()`, directed channels sorted by (source,
/// destination) without duplicates or self-loops, and the router of every terminal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileGraph {
    /// The file, as the spec names it (for the network's name and messages).
    pub file: String,
    /// Every router's name in the file, by dense id.
    pub names: Vec<String>,
    /// Directed channels `(source, destination, latency in cycles)`, sorted, each pair once.
    pub channels: Vec<(RouterId, RouterId, u32)>,
    /// The router of terminal `t` (it injects and is delivered there).
    pub attach: Vec<RouterId>,
}

impl FileGraph {
    /// The graph as a [`Network`]: router `r`'s channels in the order of their destinations,
    /// all of one class (`link`), one flit wide.
    pub fn network(&self) -> Result<Network, TopoError> {
        let routers = self.names.len() as u64;
        Planned {
            terminals: Some(self.attach.len() as u64),
            routers: Some(routers),
            channels: Some(self.channels.len() as u64),
        }
        .check(|| format!("the graph of {}", self.file))?;
        if routers == 0 || self.attach.is_empty() {
            return Err(TopoError::Invalid(format!(
                "the graph of {} has no routers or no terminals",
                self.file
            )));
        }
        let sorted = self.channels.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1));
        let in_range =
            self.channels.iter().all(|&(s, d, _)| s != d && (s as u64) < routers && (d as u64) < routers)
                && self.attach.iter().all(|&r| (r as u64) < routers);
        if !sorted || !in_range {
            return Err(TopoError::Invalid(format!(
                "the graph of {}: channels must be sorted, distinct, without self-loops, between existing routers",
                self.file
            )));
        }
        let mut b = NetworkBuilder::new(routers as u32, self.channels.len(), vec!["link".into()]);
        for &(s, d, _) in &self.channels {
            b.push(s, d, 1, 0);
        }
        let name = format!(
            "graph {} ({} routers, {} terminals, {} channels)",
            self.file,
            routers,
            self.attach.len(),
            self.channels.len()
        );
        Ok(b.finish(
            name,
            self.attach.len() as u32,
            Attach::Listed(self.attach.clone()),
            Attach::Listed(self.attach.clone()),
        ))
    }

    /// The first channel whose latency is not `latency`, as (source name, destination name,
    /// its latency).
    pub fn latency_other_than(&self, latency: u32) -> Option<(&str, &str, u32)> {
        self.channels
            .iter()
            .find(|c| c.2 != latency)
            .map(|&(s, d, l)| (self.names[s as usize].as_str(), self.names[d as usize].as_str(), l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::TableRouted;

    fn ring() -> FileGraph {
        let mut channels = Vec::new();
        for r in 0..4u32 {
            channels.push((r, (r + 1) % 4, 1));
            channels.push((r, (r + 3) % 4, 1));
        }
        channels.sort();
        FileGraph {
            file: "ring".into(),
            names: (0..4).map(|r| r.to_string()).collect(),
            channels,
            attach: vec![0, 1, 2, 3],
        }
    }

    #[test]
    fn a_ring_builds_and_routes_minimally() {
        let net = ring().network().unwrap();
        assert_eq!((net.routers(), net.terminals(), net.channels().len()), (4, 4, 8));
        let routed = TableRouted::new(net).unwrap();
        assert_eq!(routed.table().distance(0, 2), Some(2));
    }

    #[test]
    fn unsorted_or_looped_channels_are_refused() {
        let mut g = ring();
        g.channels.swap(0, 1);
        assert!(g.network().is_err());
        let mut g = ring();
        g.channels[0] = (0, 0, 1);
        assert!(g.network().is_err());
    }
}
