//! Breadth-first search over a [`Network`]'s routers, and routing tables built from it.

use crate::TopoError;
use crate::network::{Candidates, Network, RouterId, Routing, TerminalId};
use rayon::prelude::*;

/// Marks a router that a search has not reached.
pub const UNREACHED: u32 = u32::MAX;

/// Hop counts from router `src` to every router, following channels forwards.
pub fn bfs_from(net: &Network, src: RouterId) -> Vec<u32> {
    let mut dist = vec![UNREACHED; net.routers() as usize];
    let mut queue = Vec::with_capacity(net.routers() as usize);
    dist[src as usize] = 0;
    queue.push(src);
    let mut head = 0;
    while head < queue.len() {
        let r = queue[head];
        head += 1;
        let d = dist[r as usize] + 1;
        for &c in net.out_channels(r) {
            let next = net.channel(c).dst as usize;
            if dist[next] == UNREACHED {
                dist[next] = d;
                queue.push(next as RouterId);
            }
        }
    }
    dist
}

/// Incoming-channel lists, for searches that run backwards from a destination.
fn in_lists(net: &Network) -> (Vec<u32>, Vec<RouterId>) {
    let r = net.routers() as usize;
    let mut start = vec![0u32; r + 1];
    for c in net.channels() {
        start[c.dst as usize + 1] += 1;
    }
    for i in 0..r {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut srcs = vec![0; net.channels().len()];
    for c in net.channels() {
        srcs[fill[c.dst as usize] as usize] = c.src;
        fill[c.dst as usize] += 1;
    }
    (start, srcs)
}

/// Routers above which [`TableRouting`] refuses to build (its table has routers² bytes).
pub const TABLE_LIMIT: u32 = 8192;

/// Table routing for any graph: every minimal next hop, as seed 001 §2.2 argues routers
/// should hold ("a routing table, which has an entry for each destination node … listing the
/// output channel(s) that will get the message closer to its destination").
///
/// The table stores, for every (destination router, router) pair, the hop count between them
/// (one byte each), found by a backward breadth-first search from every destination, run on
/// both cores. A message at `at` may take any channel whose far end is one hop closer; all
/// such channels are returned (up to eight), in the router's channel order, so an adaptive
/// router can choose and a deterministic one can take the first.
#[derive(Clone, Debug)]
pub struct TableRouting {
    routers: usize,
    /// `dist[d * routers + r]`: hops from `r` to `d`.
    dist: Vec<u8>,
    eject: Vec<RouterId>,
}

impl TableRouting {
    /// Builds the table; fails when the network has more than [`TABLE_LIMIT`] routers, when a
    /// destination cannot be reached from some router, or when a distance exceeds 254 hops.
    pub fn new(net: &Network) -> Result<Self, TopoError> {
        if net.routers() > TABLE_LIMIT {
            return Err(TopoError::TooLarge(format!(
                "table routing stores routers^2 bytes and is limited to {TABLE_LIMIT} routers; this network has {}",
                net.routers()
            )));
        }
        let n = net.routers() as usize;
        let (start, srcs) = in_lists(net);
        let mut dist = vec![u8::MAX; n * n];
        let failed = dist.par_chunks_mut(n).enumerate().map(|(d, row)| {
            let mut queue = Vec::with_capacity(n);
            row[d] = 0;
            queue.push(d as u32);
            let mut head = 0;
            while head < queue.len() {
                let r = queue[head] as usize;
                head += 1;
                let next = row[r].saturating_add(1);
                for &s in &srcs[start[r] as usize..start[r + 1] as usize] {
                    if row[s as usize] == u8::MAX {
                        row[s as usize] = next;
                        queue.push(s);
                    }
                }
            }
            queue.len() < n || row.contains(&u8::MAX)
        });
        if failed.reduce(|| false, |a, b| a || b) {
            return Err(TopoError::Invalid(
                "table routing needs every router to reach every other in at most 254 hops".into(),
            ));
        }
        let eject = (0..net.terminals()).map(|t| net.eject_router(t)).collect();
        Ok(TableRouting { routers: n, dist, eject })
    }

    /// Hops from router `from` to router `to`.
    #[inline]
    pub fn distance(&self, from: RouterId, to: RouterId) -> u32 {
        self.dist[to as usize * self.routers + from as usize] as u32
    }

    /// Fills `out` with every channel out of `at` that is one hop closer to router `to`.
    #[inline]
    pub fn next_hops(&self, net: &Network, at: RouterId, to: RouterId, out: &mut Candidates) {
        out.clear();
        let row = &self.dist[to as usize * self.routers..(to as usize + 1) * self.routers];
        let here = row[at as usize];
        if here == 0 {
            return;
        }
        for &c in net.out_channels(at) {
            if row[net.channel(c).dst as usize] + 1 == here {
                out.push(c);
            }
        }
    }
}

/// A network routed by a [`TableRouting`]: used for families without a closed-form routing
/// function (cube-connected cycles, and any graph a user builds).
#[derive(Clone, Debug)]
pub struct TableRouted {
    network: Network,
    table: TableRouting,
}

impl TableRouted {
    /// Builds the routing table for `network`.
    pub fn new(network: Network) -> Result<Self, TopoError> {
        let table = TableRouting::new(&network)?;
        Ok(TableRouted { network, table })
    }
    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// The table.
    pub fn table(&self) -> &TableRouting {
        &self.table
    }
}

impl Routing for TableRouted {
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        let to = self.table.eject[dest as usize];
        self.table.next_hops(&self.network, at, to, out);
    }
}
