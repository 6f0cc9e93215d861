//! Breadth-first search over a [`Network`]'s routers, and routing tables built from it.

use crate::TopoError;
use crate::network::{Candidates, Network, RouterId, Routing, TerminalId};
use rayon::prelude::*;

/// Marks a router that a search has not reached.
pub const UNREACHED: u32 = u32::MAX;

/// Hop counts from router `src` to every router, following channels forwards.
pub fn bfs_from(net: &Network, src: RouterId) -> Vec<u32> {
    let mut dist = vec![UNREACHED; net.routers() as usize];
    bfs_into(net, &[src], None, &mut dist, &mut Vec::with_capacity(net.routers() as usize));
    dist
}

/// Hop counts from the nearest of `sources` to every router, into `dist` (one a router):
/// following channels forwards, or with `backwards` (the network's [`in_lists`]) against them,
/// the hops from every router to the nearest of `sources`. `queue` is scratch.
pub(crate) fn bfs_into(
    net: &Network,
    sources: &[RouterId],
    backwards: Option<(&[u32], &[RouterId])>,
    dist: &mut [u32],
    queue: &mut Vec<RouterId>,
) {
    dist.fill(UNREACHED);
    queue.clear();
    for &a in sources {
        dist[a as usize] = 0;
        queue.push(a);
    }
    let mut head = 0;
    while head < queue.len() {
        let x = queue[head];
        head += 1;
        let next = dist[x as usize] + 1;
        let mut visit = |y: RouterId| {
            if dist[y as usize] == UNREACHED {
                dist[y as usize] = next;
                queue.push(y);
            }
        };
        match backwards {
            Some((start, srcs)) => srcs[start[x as usize] as usize..start[x as usize + 1] as usize]
                .iter()
                .for_each(|&y| visit(y)),
            None => net.out_channels(x).for_each(|c| visit(net.channel(c).dst)),
        }
    }
}

/// Incoming-channel lists, for searches that run backwards from a destination:
/// `srcs[start[r] .. start[r + 1]]` are the routers with a channel into `r`.
pub(crate) fn in_lists(net: &Network) -> (Vec<u32>, Vec<RouterId>) {
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
    for (src, c) in net.edges() {
        srcs[fill[c.dst as usize] as usize] = src;
        fill[c.dst as usize] += 1;
    }
    (start, srcs)
}

/// Table entries (destination routers × routers, one byte each) above which
/// [`TableRouting`] refuses to build: 64 MiB.
pub const TABLE_LIMIT: u64 = 1 << 26;

/// Table routing for any graph: every minimal next hop, as Puente et al. §2.2 argues routers
/// should hold ("a routing table, which has an entry for each destination node … listing the
/// output channel(s) that will get the message closer to its destination").
///
/// For every router that delivers to some terminal, a backward breadth-first search (run on
/// both cores) records every router's hop count to it, one byte each. A message at `at` may
/// take any channel whose far end is one hop closer; all such channels are returned, in the
/// router's channel order, so an adaptive router can choose and a deterministic one can take
/// the first.
#[derive(Clone, Debug)]
pub struct TableRouting {
    routers: usize,
    /// Row of each router in `dist`, or `u32::MAX` when no terminal is delivered there.
    row_of: Vec<u32>,
    /// `dist[row * routers + r]`: hops from `r` to that row's router (`u8::MAX`: unreachable).
    dist: Vec<u8>,
}

/// The routers that deliver to some terminal, each with a row of a per-destination table:
/// `row_of[router]` (`u32::MAX` for the others) and the routers in row order.
pub(crate) fn destination_rows(net: &Network) -> (Vec<u32>, Vec<usize>) {
    let mut row_of = vec![u32::MAX; net.routers() as usize];
    let mut targets = Vec::new();
    for t in 0..net.terminals() {
        let e = net.eject_router(t) as usize;
        if row_of[e] == u32::MAX {
            row_of[e] = targets.len() as u32;
            targets.push(e);
        }
    }
    (row_of, targets)
}

impl TableRouting {
    /// Builds the table; fails when it would exceed [`TABLE_LIMIT`] bytes, when some terminal
    /// cannot reach another, or when a route would exceed 254 hops.
    pub fn new(net: &Network) -> Result<Self, TopoError> {
        Self::build(net, false)
    }

    /// As [`TableRouting::new`] for a request and reply network joined ([`Network::joined`]):
    /// each processor must reach every memory and each memory every processor (the halves do
    /// not reach each other otherwise).
    pub fn new_joined(net: &Network) -> Result<Self, TopoError> {
        Self::build(net, true)
    }

    fn build(net: &Network, joined: bool) -> Result<Self, TopoError> {
        let n = net.routers() as usize;
        let (row_of, targets) = destination_rows(net);
        let bytes = targets.len() as u64 * n as u64;
        if bytes > TABLE_LIMIT {
            return Err(TopoError::TooLarge {
                what: format!(
                    "the routing table of the {} ({} destination routers x {n} routers)",
                    net.name(),
                    targets.len()
                ),
                quantity: "bytes",
                count: Some(bytes),
                limit: TABLE_LIMIT,
                why: "one byte per (destination router, router) pair; larger networks use their family's own routing",
            });
        }
        let (start, srcs) = in_lists(net);
        let mut dist = vec![u8::MAX; targets.len() * n];
        let too_far = dist.par_chunks_mut(n.max(1)).zip(targets.par_iter()).map(|(row, &d)| {
            let mut queue = Vec::with_capacity(n);
            row[d] = 0;
            queue.push(d as u32);
            let mut head = 0;
            let mut far = false;
            while head < queue.len() {
                let r = queue[head] as usize;
                head += 1;
                if row[r] >= 254 {
                    far = true;
                    continue;
                }
                let next = row[r] + 1;
                for &s in &srcs[start[r] as usize..start[r + 1] as usize] {
                    if row[s as usize] == u8::MAX {
                        row[s as usize] = next;
                        queue.push(s);
                    }
                }
            }
            far
        });
        if too_far.reduce(|| false, |a, b| a || b) {
            return Err(TopoError::Invalid("table routing supports routes of at most 254 hops".into()));
        }
        let half = net.terminals() / 2;
        for s in 0..net.terminals() {
            let from = net.inject_router(s) as usize;
            // Joined: processors (below half) talk to memories (from half on), and back.
            let talks_to = |d: usize| {
                !joined
                    || (0..net.terminals())
                        .any(|t| net.eject_router(t) as usize == d && (t < half) != (s < half))
            };
            for &d in &targets {
                if dist[row_of[d] as usize * n + from] == u8::MAX && talks_to(d) {
                    return Err(TopoError::Invalid(format!(
                        "the network is not connected: terminal {s} cannot reach router {d}"
                    )));
                }
            }
        }
        Ok(TableRouting { routers: n, row_of, dist })
    }

    /// Hops from router `from` to router `to`, where `to` delivers to some terminal; `None`
    /// when `to` delivers to none or cannot be reached from `from`.
    #[inline]
    pub fn distance(&self, from: RouterId, to: RouterId) -> Option<u32> {
        let row = *self.row_of.get(to as usize)?;
        if row == u32::MAX {
            return None;
        }
        let d = self.dist[row as usize * self.routers + from as usize];
        (d != u8::MAX).then_some(d as u32)
    }

    /// Bytes held on the heap (from capacities).
    pub fn heap_bytes(&self) -> usize {
        self.row_of.capacity() * size_of::<u32>() + self.dist.capacity()
    }

    /// Fills `out` with every channel out of `at` that is one hop closer to router `to` (a
    /// router that delivers to some terminal).
    #[inline]
    pub fn next_hops(&self, net: &Network, at: RouterId, to: RouterId, out: &mut Candidates) {
        out.clear();
        let row = self.row_of[to as usize] as usize;
        let row = &self.dist[row * self.routers..(row + 1) * self.routers];
        let here = row[at as usize];
        if here == 0 || here == u8::MAX {
            return;
        }
        for c in net.out_channels(at) {
            if row[net.channel(c).dst as usize].wrapping_add(1) == here {
                out.push(c);
            }
        }
    }
}

/// A routing table built for a network from its graph: [`TableRouting`] (every minimal next
/// hop) or [`crate::UpDownRouting`] (up*/down*).
pub trait HopTable: Sized + Sync {
    /// Builds the table for `net`.
    fn build(net: &Network) -> Result<Self, TopoError>;
    /// The channels from `at` towards router `to` (empty at `to`).
    fn next_hops(&self, net: &Network, at: RouterId, to: RouterId, out: &mut Candidates);
    /// Bytes held on the heap.
    fn heap_bytes(&self) -> usize;
}

impl HopTable for TableRouting {
    fn build(net: &Network) -> Result<Self, TopoError> {
        TableRouting::new(net)
    }
    fn next_hops(&self, net: &Network, at: RouterId, to: RouterId, out: &mut Candidates) {
        TableRouting::next_hops(self, net, at, to, out)
    }
    fn heap_bytes(&self) -> usize {
        TableRouting::heap_bytes(self)
    }
}

/// A network routed by a table of its own ([`HopTable`]): used for families without a
/// closed-form routing function (cube-connected cycles, and any graph a user builds) and for
/// up*/down* routing.
#[derive(Clone, Debug)]
pub struct Routed<T> {
    network: Network,
    table: T,
}

/// A network routed by a minimal-next-hop [`TableRouting`].
pub type TableRouted = Routed<TableRouting>;

impl Routed<TableRouting> {
    /// A request and reply network joined ([`Network::joined`]), routed by a table of minimal
    /// next hops.
    pub fn joined(network: Network) -> Result<Self, TopoError> {
        let table = TableRouting::new_joined(&network)?;
        Ok(Routed { network, table })
    }
}

impl<T: HopTable> Routed<T> {
    /// Builds the table for `network`.
    pub fn new(network: Network) -> Result<Self, TopoError> {
        let table = T::build(&network)?;
        Ok(Routed { network, table })
    }
    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// The table.
    pub fn table(&self) -> &T {
        &self.table
    }
    /// Bytes held on the heap: the network and the table.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes() + self.table.heap_bytes()
    }
}

impl<T: HopTable> Routing for Routed<T> {
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        let to = self.network.eject_router(dest);
        self.table.next_hops(&self.network, at, to, out);
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}
