//! Up*/down* routing for any graph (Schroeder et al. 1991, Autonet): deadlock-free on any
//! network with one virtual channel, whatever the switching.
//!
//! # The order
//! Every router gets a distinct rank, and a channel u → v is **up** when it leads to a lower
//! rank (rank v < rank u), **down** otherwise. A legal route takes zero or more up channels and
//! then zero or more down channels. Its channel dependency graph is acyclic (Dally & Seitz's
//! condition, so no deadlock): a dependency joins two consecutive channels of a route, so it
//! is up → up, up → down or down → down, never down → up; along a chain of up channels the
//! rank falls at every step and along a chain of down channels it rises, so a cycle could be
//! neither all up nor all down, and a mixed cycle would need a down → up dependency.
//!
//! The ranks, as built:
//! - When the routers' graph has a cycle (every bidirectional family: tori, meshes, rings,
//!   hypercubes, circulants and Midimews, n-hop and complete graphs, CCC, the fat-tree), the
//!   root is router 0 and the ranks follow (level, id), the level being the hop count from the
//!   root by breadth-first search (Autonet's spanning tree). On a graph whose channels come in
//!   both directions every router reaches the root going up (its search-tree parent is a
//!   level lower) and the root reaches every router going down, so every pair has a legal
//!   route.
//! - When the graph has no cycle (multistage networks, whose channels all lead one stage on),
//!   the ranks are a topological order: every channel is down, every route legal, and the
//!   routing is the network's minimal routing. (Levels from router 0 would not do: in a
//!   butterfly only router 0's forward cone is reachable from it, and a route entering that
//!   cone from outside would turn from down to up.)
//!
//! A graph with cycles but channels one way only (a unidirectional ring) may have pairs
//! without a legal route; [`UpDownRouting::new`] finds them and refuses the network.
//!
//! # The rule (stateless)
//! A [`Routing`] sees the router and the destination, not the channel a packet came in on, so
//! the rule must keep every route legal by itself. For a destination router d:
//! - down(x): hops from x to d on down channels only (∞ when there is no such path);
//! - dist(x) = down(x) when finite, otherwise 1 + the least dist(v) over the up channels
//!   x → v (∞ when none is finite). The up channels lead to lower ranks, so dist is computed in
//!   rank order, each router after every router it depends on.
//!
//! At router x: when down(x) is finite, offer the down channels x → v with down(v) =
//! down(x) − 1 (shortest down-only paths); otherwise offer the up channels x → v with dist(v) =
//! dist(x) − 1.
//!
//! **Never up after down.** A packet takes a down channel w → x only when down(w) is finite
//! and down(x) = down(w) − 1, so down(x) is finite too, and at x it is offered down channels
//! only; by induction every later hop is down. So every route the rule gives is legal, and the
//! dependency graph of all of them together is acyclic (the argument above).
//!
//! **Routes terminate.** Every hop lowers dist by exactly one, and dist(x) = 0 only at d, so a
//! packet injected at x arrives after dist(x) hops whichever candidates it takes.
//!
//! The rule prefers a down-only path whenever one exists, even when climbing first would be
//! shorter: a router that could not tell a packet that arrived going down from one going up
//! cannot offer it an up channel safely. Routes are therefore at least as long as minimal ones,
//! and the channels near the root carry more traffic.
//!
//! # Memory
//! Per destination router, one `u16` per router holds dist(x) (15 bits) and whether it is
//! down(x) (the top bit): when down(x) is finite it equals dist(x), so one entry holds both
//! distances. At most [`UPDOWN_LIMIT`] bytes (64 MiB), like [`crate::TABLE_LIMIT`]; routes of
//! at most 32,766 hops.

use crate::TopoError;
use crate::graph::{HopTable, Routed, bfs_from, destination_rows, in_lists};
use crate::network::{Candidates, Network, RouterId};
use rayon::prelude::*;

/// Bytes (2 per destination router and router) above which [`UpDownRouting`] refuses to build:
/// 64 MiB.
pub const UPDOWN_LIMIT: u64 = 1 << 26;

/// Flag of an entry whose distance is down-only.
const DOWN: u16 = 0x8000;
/// Entry of a router with no legal route to the destination.
const FAR: u16 = 0x7FFF;
/// Longest route an entry holds.
const MAX_HOPS: u16 = FAR - 1;

#[inline]
fn hops(entry: u16) -> u16 {
    entry & !DOWN
}

/// How the routers were ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// By (breadth-first level from router 0, id): the graph has cycles.
    Levels,
    /// A topological order: the graph has no cycle, and every channel is down.
    Topological,
}

/// Up*/down* routing tables for any graph: see the module docs for the order, the rule and
/// why it is deadlock-free.
#[derive(Clone, Debug)]
pub struct UpDownRouting {
    routers: usize,
    ranking: Ranking,
    /// Rank of each router: channel u → v is up when `rank[v] < rank[u]`.
    rank: Vec<u32>,
    /// Row of each router in `dist`, or `u32::MAX` when no terminal is delivered there.
    row_of: Vec<u32>,
    /// `dist[row * routers + r]`: that row's destination's entry for router `r` (its distance,
    /// [`DOWN`] when down-only, [`FAR`] when unreachable).
    dist: Vec<u16>,
}

/// A topological order of the routers (Kahn's algorithm, ties by id), when the graph has no
/// cycle.
fn topological(net: &Network) -> Option<Vec<u32>> {
    let n = net.routers() as usize;
    let mut indegree = vec![0u32; n];
    for c in net.channels() {
        indegree[c.dst as usize] += 1;
    }
    let mut order: Vec<u32> = (0..n as u32).filter(|&r| indegree[r as usize] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let r = order[head];
        head += 1;
        for c in net.out_channels(r) {
            let v = net.channel(c).dst as usize;
            indegree[v] -= 1;
            if indegree[v] == 0 {
                order.push(v as u32);
            }
        }
    }
    (order.len() == n).then_some(order)
}

/// Routers in rank order: topological when the graph has no cycle, otherwise by (level from
/// router 0, id), routers the search does not reach last.
fn ranked(net: &Network) -> (Ranking, Vec<u32>) {
    if let Some(order) = topological(net) {
        return (Ranking::Topological, order);
    }
    let level = bfs_from(net, 0);
    let mut order: Vec<u32> = (0..net.routers()).collect();
    order.sort_unstable_by_key(|&r| (level[r as usize], r));
    (Ranking::Levels, order)
}

impl UpDownRouting {
    /// Builds the tables; fails when they would exceed [`UPDOWN_LIMIT`] bytes, when some
    /// terminal has no legal route to another, or when a route would exceed 32,766 hops.
    pub fn new(net: &Network) -> Result<Self, TopoError> {
        let n = net.routers() as usize;
        let (row_of, targets) = destination_rows(net);
        let bytes = 2 * targets.len() as u64 * n as u64;
        if bytes > UPDOWN_LIMIT {
            return Err(TopoError::TooLarge {
                what: format!(
                    "the up*/down* routing table of the {} ({} destination routers x {n} routers)",
                    net.name(),
                    targets.len()
                ),
                quantity: "bytes",
                count: Some(bytes),
                limit: UPDOWN_LIMIT,
                why: "two bytes per (destination router, router) pair",
            });
        }
        let (ranking, order) = ranked(net);
        let mut rank = vec![0u32; n];
        for (i, &r) in order.iter().enumerate() {
            rank[r as usize] = i as u32;
        }
        let (start, srcs) = in_lists(net);
        let mut dist = vec![FAR; targets.len() * n];
        let too_far = dist.par_chunks_mut(n.max(1)).zip(targets.par_iter()).map(|(row, &d)| {
            let mut far = false;
            // down(x): backwards from d along down channels u -> x (rank u < rank x).
            let mut queue = Vec::with_capacity(n);
            row[d] = DOWN;
            queue.push(d as u32);
            let mut head = 0;
            while head < queue.len() {
                let x = queue[head] as usize;
                head += 1;
                let h = hops(row[x]);
                if h >= MAX_HOPS {
                    far = true;
                    continue;
                }
                for &u in &srcs[start[x] as usize..start[x + 1] as usize] {
                    if rank[u as usize] < rank[x] && row[u as usize] == FAR {
                        row[u as usize] = DOWN | (h + 1);
                        queue.push(u);
                    }
                }
            }
            // dist(x) for the rest, in rank order: its up channels lead to lower ranks.
            for &x in &order {
                let x = x as usize;
                if row[x] != FAR {
                    continue;
                }
                let best = net
                    .out_channels(x as RouterId)
                    .map(|c| net.channel(c).dst as usize)
                    .filter(|&v| rank[v] < rank[x] && row[v] != FAR)
                    .map(|v| hops(row[v]))
                    .min();
                match best {
                    Some(h) if h >= MAX_HOPS => far = true,
                    Some(h) => row[x] = h + 1,
                    None => {}
                }
            }
            far
        });
        if too_far.reduce(|| false, |a, b| a || b) {
            return Err(TopoError::Invalid(format!(
                "up*/down* routing supports routes of at most {MAX_HOPS} hops"
            )));
        }
        let mut from_seen = vec![false; n];
        for s in 0..net.terminals() {
            let from = net.inject_router(s) as usize;
            if std::mem::replace(&mut from_seen[from], true) {
                continue;
            }
            for &d in &targets {
                if dist[row_of[d] as usize * n + from] == FAR {
                    return Err(TopoError::Invalid(format!(
                        "up*/down* routing has no route from router {from} to router {d} in the {}: a route must climb towards router 0 and then descend, and this network's one-way channels allow none (networks with channels both ways, such as bidirectional tori and rings, and networks without cycles always have one)",
                        net.name()
                    )));
                }
            }
        }
        Ok(UpDownRouting { routers: n, ranking, rank, row_of, dist })
    }

    /// How the routers were ranked.
    pub fn ranking(&self) -> Ranking {
        self.ranking
    }

    /// Rank of router `r`: channels to lower ranks are up.
    #[inline]
    pub fn rank(&self, r: RouterId) -> u32 {
        self.rank[r as usize]
    }

    /// Whether a channel from router `from` to router `to` is an up channel.
    #[inline]
    pub fn is_up(&self, from: RouterId, to: RouterId) -> bool {
        self.rank[to as usize] < self.rank[from as usize]
    }

    /// The route's length from `from` to router `to` (a router that delivers to some terminal)
    /// under the rule, and whether it is down-only; `None` when `to` delivers to none or has no
    /// legal route from `from`.
    pub fn distance(&self, from: RouterId, to: RouterId) -> Option<(u32, bool)> {
        let row = *self.row_of.get(to as usize)?;
        if row == u32::MAX {
            return None;
        }
        let e = self.dist[row as usize * self.routers + from as usize];
        (e != FAR).then_some((hops(e) as u32, e & DOWN != 0))
    }

    /// Bytes held on the heap (from capacities).
    pub fn heap_bytes(&self) -> usize {
        (self.rank.capacity() + self.row_of.capacity()) * size_of::<u32>()
            + self.dist.capacity() * size_of::<u16>()
    }

    /// Fills `out` with the channels out of `at` the rule offers towards router `to` (a router
    /// that delivers to some terminal): the down channels on shortest down-only paths when
    /// there is one, otherwise the up channels on shortest legal paths.
    #[inline]
    pub fn next_hops(&self, net: &Network, at: RouterId, to: RouterId, out: &mut Candidates) {
        out.clear();
        let row = self.row_of[to as usize] as usize;
        let row = &self.dist[row * self.routers..(row + 1) * self.routers];
        let here = row[at as usize];
        if here == FAR || hops(here) == 0 {
            return;
        }
        let want = hops(here) - 1;
        let rank_at = self.rank[at as usize];
        let down = here & DOWN != 0;
        for c in net.out_channels(at) {
            let v = net.channel(c).dst as usize;
            let e = row[v];
            let ok = if down {
                self.rank[v] > rank_at && e & DOWN != 0 && hops(e) == want
            } else {
                self.rank[v] < rank_at && e != FAR && hops(e) == want
            };
            if ok {
                out.push(c);
            }
        }
    }
}

/// A network routed up*/down* (`--deadlock updown`): any family, deadlock-free on the
/// virtual-channel router with one VC.
pub type UpDownRouted = Routed<UpDownRouting>;

impl HopTable for UpDownRouting {
    fn build(net: &Network) -> Result<Self, TopoError> {
        UpDownRouting::new(net)
    }
    fn next_hops(&self, net: &Network, at: RouterId, to: RouterId, out: &mut Candidates) {
        UpDownRouting::next_hops(self, net, at, to, out)
    }
    fn heap_bytes(&self) -> usize {
        UpDownRouting::heap_bytes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::Routing;
    use crate::{Channel, CirculantRouting, DimensionOrder, Shape};

    /// A cycle of the channel dependency graph of every route the rule offers (every candidate
    /// followed from every router towards every destination), if there is one.
    fn dependency_cycle(net: &Network, r: &UpDownRouted) -> Option<Vec<u32>> {
        let nc = net.channels().len();
        let mut adj = vec![Vec::new(); nc];
        let mut cands = Candidates::default();
        let mut next = Candidates::default();
        for t in 0..net.terminals() {
            for at in 0..net.routers() {
                r.route(at, t, 0, &mut cands);
                for &c in cands.as_slice() {
                    r.route(net.channel(c).dst, t, 0, &mut next);
                    adj[c as usize].extend_from_slice(next.as_slice());
                }
            }
        }
        // Iterative depth-first search: 0 new, 1 on the stack, 2 done.
        let mut color = vec![0u8; nc];
        for root in 0..nc {
            if color[root] != 0 {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            color[root] = 1;
            while let Some(&mut (v, ref mut i)) = stack.last_mut() {
                if let Some(&w) = adj[v].get(*i) {
                    *i += 1;
                    match color[w as usize] {
                        0 => {
                            color[w as usize] = 1;
                            stack.push((w as usize, 0));
                        }
                        1 => {
                            let from = stack.iter().position(|&(x, _)| x == w as usize).unwrap();
                            return Some(stack[from..].iter().map(|&(x, _)| x as u32).collect());
                        }
                        _ => {}
                    }
                } else {
                    color[v] = 2;
                    stack.pop();
                }
            }
        }
        None
    }

    /// Follows every candidate from every injection router to every terminal: each route
    /// reaches the terminal's router in exactly the announced number of hops and never takes an
    /// up channel after a down one.
    fn every_route_is_legal(net: &Network, r: &UpDownRouted) {
        let mut cands = Candidates::default();
        for t in 0..net.terminals() {
            let to = net.eject_router(t);
            // (router, whether the packet has gone down, hops so far); every branch.
            let mut seen = vec![[false; 2]; net.routers() as usize];
            let mut stack: Vec<(u32, bool, u32)> = Vec::new();
            for s in 0..net.terminals() {
                stack.push((net.inject_router(s), false, 0));
            }
            while let Some((at, went_down, h)) = stack.pop() {
                if std::mem::replace(&mut seen[at as usize][went_down as usize], true) {
                    continue;
                }
                let (d, _) = r.table().distance(at, to).expect("a legal route");
                r.route(at, t, 0, &mut cands);
                if cands.is_empty() {
                    assert_eq!(at, to, "{}: stopped at {at}, not {to}", net.name());
                    continue;
                }
                assert!(d > 0 && h < 2 * net.routers(), "{}", net.name());
                for &c in cands.as_slice() {
                    let v = net.channel(c).dst;
                    let up = r.table().is_up(at, v);
                    assert!(!(up && went_down), "{}: up {at} -> {v} after a down channel", net.name());
                    assert_eq!(r.table().distance(v, to).unwrap().0, d - 1, "{}", net.name());
                    stack.push((v, went_down || !up, h + 1));
                }
            }
        }
    }

    fn shapes() -> Vec<Shape> {
        let cube = |radices: Vec<u32>, wrap, bidirectional| Shape::Cube {
            radices,
            wrap,
            bidirectional,
            order: DimensionOrder::HighestFirst,
            concentration: 1,
        };
        vec![
            Shape::Circulant { nodes: 20, a: 3, b: 7 },
            Shape::Midimew { nodes: 16, routing: CirculantRouting::Table },
            Shape::Midimew { nodes: 50, routing: CirculantRouting::Table },
            cube(vec![4, 4], true, true),
            cube(vec![3, 5], false, true),
            cube(vec![9], true, true),
            Shape::Hypercube { n: 4, order: DimensionOrder::HighestFirst },
            Shape::Ccc { n: 3 },
            Shape::NHop { factors: vec![7], per_router: 1, width: 1 },
            Shape::NHop { factors: vec![3, 4], per_router: 1, width: 1 },
            Shape::FatTree { nodes: 64 },
            Shape::Multistage { k: 2, stages: 3, wiring: crate::StageWiring::Butterfly },
            Shape::Multistage { k: 3, stages: 2, wiring: crate::StageWiring::Omega },
        ]
    }

    /// Verification of the module's two claims on a circulant, Midimews of 16 and 50 nodes,
    /// tori (both directions, and one way: a 2-D unidirectional torus still has legal routes),
    /// a mesh, a bidirectional ring, a hypercube, CCC(3), a complete graph, an n-hop network, a
    /// fat-tree and two multistage networks: every route of every ordered pair of routers
    /// reaches its destination, never takes an up channel after a down one, and the channel
    /// dependency graph of all routes is acyclic.
    #[test]
    fn every_pair_is_routed_legally_and_the_dependency_graph_is_acyclic() {
        for shape in shapes() {
            let built = shape.build().unwrap();
            let net = built.network().clone();
            let r = match UpDownRouted::new(net.clone()) {
                Ok(r) => r,
                Err(e) => panic!("{shape:?}: {e}"),
            };
            every_route_is_legal(&net, &r);
            assert_eq!(dependency_cycle(&net, &r), None, "{}", net.name());
            let expect = if matches!(shape, Shape::Multistage { .. }) {
                Ranking::Topological
            } else {
                Ranking::Levels
            };
            assert_eq!(r.table().ranking(), expect, "{}", net.name());
        }
    }

    /// Verification on a direct network: every ordered pair of routers (not only those the
    /// terminals' injection routers start from) has a route, and on a multistage network the
    /// routes are minimal (every channel is down).
    #[test]
    fn every_ordered_pair_of_routers_has_a_route() {
        for shape in [Shape::Midimew { nodes: 16, routing: CirculantRouting::Table }, Shape::Ccc { n: 3 }] {
            let net = shape.build().unwrap().network().clone();
            let r = UpDownRouted::new(net.clone()).unwrap();
            for from in 0..net.routers() {
                for to in 0..net.routers() {
                    let (d, _) = r.table().distance(from, to).unwrap();
                    assert_eq!(d == 0, from == to);
                }
            }
        }
        let shape = Shape::Multistage { k: 2, stages: 4, wiring: crate::StageWiring::Butterfly };
        let net = shape.build().unwrap().network().clone();
        let r = UpDownRouted::new(net.clone()).unwrap();
        for (src, c) in net.edges() {
            assert!(!r.table().is_up(src, c.dst));
        }
        for s in 0..net.terminals() {
            let from = net.inject_router(s);
            for t in 0..net.terminals() {
                assert_eq!(r.table().distance(from, net.eject_router(t)), Some((3, true)));
            }
        }
    }

    /// Verification by hand on a bidirectional ring of 4 routers from root 0: levels 0, 1, 2, 1
    /// rank the routers 0, 1, 3, 2. From router 2 to router 3 the direct channel 2 -> 3 is up
    /// (rank 3 = 2 < rank 2 = 3) and legal: one hop. From 1 to 3: no down-only path (1 -> 2 is
    /// down, but 2 -> 3 is up), so the packet climbs to 0 and descends: 1 -> 0 -> 3, two hops.
    #[test]
    fn a_ring_of_four_routes_by_hand() {
        let ch = |dst| Channel { dst, width: 1, class: 0 };
        let list = vec![
            (0, ch(1)),
            (0, ch(3)),
            (1, ch(2)),
            (1, ch(0)),
            (2, ch(3)),
            (2, ch(1)),
            (3, ch(0)),
            (3, ch(2)),
        ];
        let net = Network::new("ring", 4, list, vec![0, 1, 2, 3], vec![0, 1, 2, 3], vec!["x".into()]);
        let r = UpDownRouted::new(net.clone()).unwrap();
        let ranks: Vec<u32> = (0..4).map(|x| r.table().rank(x)).collect();
        assert_eq!(ranks, [0, 1, 3, 2]);
        let mut c = Candidates::default();
        r.route(2, 3, 0, &mut c);
        assert_eq!(c.as_slice(), [4]);
        assert_eq!(r.table().distance(2, 3), Some((1, false)));
        r.route(1, 3, 0, &mut c);
        assert_eq!(c.as_slice(), [3], "1 -> 0, up");
        r.route(0, 3, 0, &mut c);
        assert_eq!(c.as_slice(), [1], "0 -> 3, down");
        assert_eq!(r.table().distance(1, 3), Some((2, false)));
        assert_eq!(r.table().distance(0, 2), Some((2, true)));
    }

    /// Verification: unidirectional rings and tori have pairs without a legal route, and are
    /// refused with a reason (on a ring every route of n - 1 channels but two turns from down to
    /// up; on a torus router 1's channels both lead a level further from router 0, so it has no
    /// up channel and cannot reach router 0, whose in-channels are all up); tables over the
    /// limit are refused naming it before anything is allocated.
    #[test]
    fn impossible_and_oversized_networks_are_refused() {
        for radices in [vec![5], vec![4, 4]] {
            let one_way = Shape::Cube {
                radices,
                wrap: true,
                bidirectional: false,
                order: DimensionOrder::HighestFirst,
                concentration: 1,
            };
            let e = UpDownRouted::new(one_way.build().unwrap().network().clone()).unwrap_err().to_string();
            assert!(e.contains("no route from router") && e.contains("one-way channels"), "{e}");
        }
        // 6000 routers, each a destination: 2 x 6000^2 = 72,000,000 bytes > 2^26.
        let big = Shape::Cube {
            radices: vec![6000],
            wrap: true,
            bidirectional: true,
            order: DimensionOrder::HighestFirst,
            concentration: 1,
        };
        let e = UpDownRouted::new(big.build().unwrap().network().clone()).unwrap_err();
        let TopoError::TooLarge { quantity, count, limit, .. } = &e else { panic!("{e:?}") };
        assert_eq!((*quantity, *count, *limit), ("bytes", Some(72_000_000), UPDOWN_LIMIT));
        let text = e.to_string();
        assert!(text.contains("up*/down* routing table") && text.contains("67108864 = 2^26"), "{text}");
    }
}
