//! Routing keeps every minimal next hop, however many a router has (a k-ary n-cube offers up
//! to one per dimension and direction, 2n on a bidirectional torus of radix 4).

use netwrap_topo::*;
use proptest::prelude::*;
use std::collections::{BTreeSet, VecDeque};

fn cube(radices: Vec<u32>, wrap: bool, bidirectional: bool) -> Shape {
    Shape::Cube { radices, wrap, bidirectional, order: DimensionOrder::HighestFirst, concentration: 1 }
}

fn table(of: Shape) -> Shape {
    Shape::Table { of: Box::new(of) }
}

/// Hop counts between every ordered pair of routers (`d[from][to]`), by a breadth-first
/// search over the channels written here, independent of the crate's searches and tables.
fn all_distances(net: &Network) -> Vec<Vec<u32>> {
    let n = net.routers() as usize;
    let mut adj = vec![Vec::new(); n];
    for (src, c) in net.edges() {
        adj[src as usize].push(c.dst as usize);
    }
    (0..n)
        .map(|s| {
            let mut d = vec![u32::MAX; n];
            d[s] = 0;
            let mut q = VecDeque::from([s]);
            while let Some(x) = q.pop_front() {
                for &y in &adj[x] {
                    if d[y] == u32::MAX {
                        d[y] = d[x] + 1;
                        q.push_back(y);
                    }
                }
            }
            d
        })
        .collect()
}

/// Verification (independent expected value): on the 4-ary 6-cube with bidirectional channels
/// and table routing (every minimal next hop, the message split evenly over them), uniform
/// traffic loads every channel class exactly alike, by symmetry: reflecting a dimension swaps
/// its + and − classes and permuting dimensions permutes the classes, and both commute with
/// routing by distances. The value is uniform traffic's hops per channel: each of the 4096
/// nodes sends to the 4095 others, a ring of 4 contributes 0 + 1 + 2 + 1 = 4 hops per
/// destination coordinate, so the mean distance is 6·4·4^5 / 4095 and a channel (12 per
/// node) carries 4096 · 24576 / (4095 · 12 · 4096) = 2048/4095 messages per cycle per unit
/// rate. The tolerance is summation rounding (a few thousand additions of shares near 1):
/// 1e-12 relative. Up to twelve minimal next hops leave a router here (two in each dimension
/// at offset 2), so a routing that keeps fewer loads some classes more than others.
#[test]
fn every_class_of_the_bidirectional_4_ary_6_cube_carries_the_same_table_routed_load() {
    let topo = table(cube(vec![4; 6], true, true)).build().unwrap();
    let (lo, hi) = topo.network().degree_range();
    assert_eq!((lo, hi), (12, 12));
    let m = topo.metrics().unwrap();
    let expect = 2048.0 / 4095.0;
    let close = |x: f64| ((x - expect) / expect).abs() < 1e-12;
    assert_eq!(m.class_loads.len(), 12);
    for c in &m.class_loads {
        assert!(close(c.max_load), "{}: {} vs {expect}", c.class, c.max_load);
    }
    let load = m.channel_load.expect("the load is computed");
    assert!(close(load), "channel load {load} vs {expect}");
}

/// Verification (independent expected value): in the 10-cube, the router of node 0 and node
/// 1023 differ in all 10 bits, so each of router 0's 10 channels (one per dimension) is a
/// minimal next hop, and the only ones. `Routing::minimal` of the cube's own routing (what
/// escape routing offers its adaptive virtual channels) and the table routing of the same
/// graph both offer exactly those 10; a destination differing in `j` bits gets `j`.
#[test]
fn every_minimal_next_hop_of_a_10_cube_is_offered() {
    let cube10 = KaryNCube::new(CubeSpec::hypercube(10), DimensionOrder::HighestFirst).unwrap();
    let net = cube10.network();
    let all: BTreeSet<u32> = net.out_channels(0).collect();
    assert_eq!(all.len(), 10);
    let mut c = Candidates::for_network(net);
    cube10.minimal(0, 1023, 0, &mut c);
    assert_eq!(c.as_slice().len(), 10, "{:?}", c.as_slice());
    assert_eq!(c.as_slice().iter().copied().collect::<BTreeSet<u32>>(), all);
    // Dimension-order routing itself takes one hop: the highest dimension's.
    cube10.route(0, 1023, 0, &mut c);
    assert_eq!(c.as_slice(), &[net.out_channels(0).find(|&ch| net.channel(ch).dst == 512).unwrap()]);
    assert_eq!(cube10.escape(0, 1023, 0), Some(c.as_slice()[0]));
    let Topology::Table(t, _) =
        table(Shape::Hypercube { n: 10, order: DimensionOrder::HighestFirst }).build().unwrap()
    else {
        unreachable!()
    };
    let mut d = Candidates::default();
    for dest in [1023u32, 0b11_1111_1110, 0b10_1010_1010, 1, 0] {
        let bits = dest.count_ones() as usize;
        t.route(0, dest, 0, &mut d);
        assert_eq!(d.as_slice().len(), bits, "to {dest:#b}");
        cube10.minimal(0, dest, 0, &mut c);
        assert_eq!(c.as_slice().len(), bits, "to {dest:#b}");
        let mut a = c.as_slice().to_vec();
        let mut b = d.as_slice().to_vec();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "to {dest:#b}");
    }
}

/// Radices of a small cube, up to 1024 routers (some cases with more than 8 minimal next
/// hops at a router: a 4-ary 5-cube has 10, a bidirectional 2-ary torus two per dimension).
fn small_radices() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(2u32..6, 1..=7)
        .prop_filter("at most 1024 routers", |r| r.iter().map(|&k| k as u64).product::<u64>() <= 1024)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Verification (property, against an independent breadth-first search): on a random
    /// small torus or mesh of up to 7 dimensions with table routing, the candidates at every
    /// router towards every sampled destination are exactly the channels whose far end is one
    /// hop closer to the destination: every minimal next hop, no other channel, none twice.
    #[test]
    fn table_routing_offers_exactly_the_channels_one_hop_closer(
        radices in small_radices(),
        wrap: bool,
        bidirectional: bool,
        step in 1u32..8,
    ) {
        let spec = table(cube(radices, wrap || !bidirectional, bidirectional));
        let topo = spec.build().unwrap();
        let net = topo.network();
        let d = all_distances(net);
        let Topology::Table(t, _) = &topo else { unreachable!() };
        let mut c = Candidates::for_network(net);
        let room = c.capacity();
        let mut most = 0;
        for dest in (0..net.terminals()).step_by(step as usize) {
            let to = net.eject_router(dest) as usize;
            for at in 0..net.routers() {
                t.route(at, dest, 0, &mut c);
                let got: Vec<u32> = c.as_slice().to_vec();
                let set: BTreeSet<u32> = got.iter().copied().collect();
                prop_assert_eq!(set.len(), got.len(), "a candidate offered twice at {} to {}", at, dest);
                let here = d[at as usize][to];
                let expect: BTreeSet<u32> = net
                    .out_channels(at)
                    .filter(|&ch| d[net.channel(ch).dst as usize][to] + 1 == here)
                    .collect();
                prop_assert_eq!(&set, &expect, "{}: at {} to {}", net.name(), at, dest);
                most = most.max(got.len());
            }
        }
        prop_assert!(most <= net.degree_range().1 as usize);
        // A list made for the network never had to grow.
        prop_assert_eq!(c.capacity(), room);
    }
}
/// Verification: a candidate list keeps every candidate pushed, past any capacity it was
/// made with, in order; `for_network` is made for the network's largest out-degree.
#[test]
fn candidates_keep_every_push_in_order() {
    let mut c = Candidates::with_capacity(2);
    for i in 0..20 {
        c.push(i);
    }
    assert_eq!(c.as_slice(), (0..20).collect::<Vec<u32>>().as_slice());
    c.clear();
    assert!(c.is_empty());
    let net = cube(vec![4; 6], true, true).build().unwrap();
    assert!(Candidates::for_network(net.network()).capacity() >= 12);
}
