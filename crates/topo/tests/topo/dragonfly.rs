//! The dragonfly (Kim, Dally, Scott & Abts 2008): structure, arrangements, minimal routing,
//! and the exact numbers of `netwrap topo dragonfly`, each against a count written here from
//! the channels alone.

use crate::families::walk;
use netwrap_topo::*;
use std::collections::VecDeque;

const ARRANGEMENTS: [GlobalArrangement; 3] =
    [GlobalArrangement::Absolute, GlobalArrangement::Relative, GlobalArrangement::Palmtree];

fn shape(p: u32, a: u32, h: u32, groups: u32, arrangement: GlobalArrangement) -> Shape {
    Shape::Dragonfly { p, a, h, groups, arrangement }
}

fn build(p: u32, a: u32, h: u32, g: u32, arr: GlobalArrangement) -> Dragonfly {
    match shape(p, a, h, g, arr).build().unwrap() {
        Topology::Dragonfly(d) => d,
        other => panic!("{other:?}"),
    }
}

/// Breadth-first distances from `src` over the network's channels (written here, not the
/// crate's search).
fn bfs(net: &Network, src: u32) -> Vec<u32> {
    let mut d = vec![u32::MAX; net.routers() as usize];
    let mut q = VecDeque::from([src]);
    d[src as usize] = 0;
    while let Some(r) = q.pop_front() {
        for c in net.out_channels(r) {
            let v = net.channel(c).dst as usize;
            if d[v] == u32::MAX {
                d[v] = d[r as usize] + 1;
                q.push_back(v as u32);
            }
        }
    }
    d
}

/// Routers a message traverses from router `s` to router `t` under minimal routing, from the
/// channel list alone (g = a·h + 1: one global channel from each group to each other): the
/// source, the router holding the global channel to t's group when it is another, the router
/// that channel enters, and t when it is another.
fn min_routers(net: &Network, a: u32, s: u32, t: u32) -> u32 {
    if s == t {
        return 1;
    }
    if s / a == t / a {
        return 2;
    }
    let global = net.classes().iter().position(|c| c == "global").unwrap() as u16;
    let (holder, lands) = (0..net.routers())
        .filter(|&r| r / a == s / a)
        .flat_map(|r| net.out_channels(r).map(move |c| (r, c)))
        .map(|(r, c)| (r, *net.channel(c)))
        .find(|(_, ch)| ch.class == global && ch.dst / a == t / a)
        .map(|(r, ch)| (r, ch.dst))
        .unwrap();
    1 + (holder != s) as u32 + 1 + (lands != t) as u32
}

/// Verification of the p = 2 dragonfly (a = 4, h = 2, g = 9) against counts from its
/// definition: 72 terminals, 36 routers, p + a − 1 + h = 7 ports per router (5 router-to-router
/// channels plus 2 terminals), 36·3 = 108 local and 36·2 = 72 global directed channels, one
/// global link each way per pair of groups, in all three arrangements.
#[test]
fn p2_structure_in_every_arrangement() {
    for arr in ARRANGEMENTS {
        let d = build(2, 4, 2, 9, arr);
        let net = d.network();
        assert_eq!((net.terminals(), net.routers()), (72, 36));
        assert_eq!(net.degree_range(), (5, 5));
        let per_router_terminals = (0..72).filter(|&t| net.inject_router(t) == 0).count() as u32;
        assert_eq!(per_router_terminals + net.degree(0), 7);
        assert_eq!(net.classes(), ["local", "global"]);
        let count = |class: u16| net.channels().iter().filter(|c| c.class == class).count();
        assert_eq!((count(0), count(1)), (108, 72));
        // One global channel from every group to every other, and its reverse.
        let mut pairs = vec![[0u32; 9]; 9];
        for (src, ch) in net.edges() {
            let (i, x) = (src / 4, ch.dst / 4);
            if ch.class == 1 {
                pairs[i as usize][x as usize] += 1;
                assert!(
                    net.out_channels(ch.dst).any(|c| net.channel(c).dst == src && net.channel(c).class == 1),
                    "{arr:?}: global {src} -> {} has no reverse",
                    ch.dst
                );
            } else {
                assert_eq!(i, x, "a local channel stays in its group");
            }
        }
        for (i, row) in pairs.iter().enumerate() {
            for (x, &links) in row.iter().enumerate() {
                assert_eq!(links, (i != x) as u32, "{arr:?}: group {i} to {x}");
            }
        }
    }
}

/// Verification: one global link per group pair when g = a·h + 1, for every arrangement and
/// several (p, a, h), and each arrangement's definition read back from the channels: router j's
/// port k of group i reaches group i + 1 + (j·h + k) mod g (relative), i − (j·h + k) − 1 mod g
/// (palm-tree), and t or t + 1 for t = j·h + k below or from i (absolute, BookSim2's).
#[test]
fn arrangements_match_their_definitions_and_join_every_pair_once() {
    for (p, a, h) in [(1, 2, 1), (2, 4, 2), (1, 3, 2), (3, 2, 4), (4, 8, 4)] {
        let g = a * h + 1;
        for arr in ARRANGEMENTS {
            let d = build(p, a, h, g, arr);
            let net = d.network();
            for r in 0..net.routers() {
                let (i, j) = (r / a, r % a);
                let globals: Vec<u32> = net.out_channels(r).skip(a as usize - 1).collect();
                assert_eq!(globals.len() as u32, h);
                for (k, &c) in globals.iter().enumerate() {
                    let t = j * h + k as u32;
                    let want = match arr {
                        GlobalArrangement::Absolute => {
                            if t < i {
                                t
                            } else {
                                t + 1
                            }
                        }
                        GlobalArrangement::Relative => (i + 1 + t) % g,
                        GlobalArrangement::Palmtree => (i + g - t - 1) % g,
                    };
                    assert_eq!(
                        net.channel(c).dst / a,
                        want,
                        "{arr:?} p={p} a={a} h={h}: router {r} port {k}"
                    );
                }
            }
            for i in 0..g {
                for x in (0..g).filter(|&x| x != i) {
                    assert_eq!(d.global_channels(i, x).len(), 1, "{arr:?} {i}->{x}");
                }
            }
        }
    }
}

/// Verification: every route reaches its destination in at most 3 hops, is as long as the
/// local–global–local count from the channels ([`min_routers`]), and never shorter than
/// the breadth-first distance; with fewer groups (g − 1 dividing a·h) every offered candidate
/// reaches too, in as many hops.
#[test]
fn minimal_routes_are_local_global_local() {
    for arr in ARRANGEMENTS {
        let d = build(2, 4, 2, 9, arr);
        let net = d.network();
        for s in 0..net.terminals() {
            let dist = bfs(net, net.inject_router(s));
            for t in 0..net.terminals() {
                let (rs, rt) = (net.inject_router(s), net.eject_router(t));
                let h = walk(net, &d, s, t, 0, 0);
                assert_eq!(h + 1, min_routers(net, 4, rs, rt), "{arr:?} {s}->{t}");
                assert!(h >= dist[rt as usize] && h <= 3);
            }
        }
        for (a, h, g) in [(4, 2, 5), (4, 2, 3), (4, 2, 2), (2, 3, 4)] {
            let d = build(1, a, h, g, arr);
            let net = d.network();
            for s in 0..net.terminals() {
                for t in 0..net.terminals() {
                    let lens: Vec<u32> = (0..4).map(|pick| walk(net, &d, s, t, 0, pick)).collect();
                    assert!(
                        lens.iter().all(|&l| l == lens[0] && l <= 3),
                        "{arr:?} a={a} h={h} g={g}: {lens:?}"
                    );
                }
            }
        }
    }
}

/// Mean routers traversed under uniform traffic (every destination, the source's own router
/// included: hops + 1), from the channel list, against the hand counts 238/72 (p = 2) and
/// 3900/1056 (p = 4); and against the diameter, the mean distance and the per-class channel
/// counts `netwrap topo` prints.
#[test]
fn p2_and_p4_numbers_of_netwrap_topo() {
    for (p, routers_sum) in [(2u32, 238u64), (4, 3900)] {
        let (a, h) = (2 * p, p);
        let g = a * h + 1;
        for arr in ARRANGEMENTS {
            let topo = shape(p, a, h, g, arr).build().unwrap();
            let net = topo.network();
            let n = net.terminals();
            assert_eq!(n, a * p * g);
            // From one terminal's router per router position would do by symmetry; count every pair.
            let mut sum = 0u64;
            let mut bfs_sum = 0u64;
            let mut diameter = 0;
            for rs in 0..net.routers() {
                let dist = bfs(net, rs);
                for rt in 0..net.routers() {
                    let m = min_routers(net, a, rs, rt) as u64;
                    sum += m * (p * p) as u64;
                    bfs_sum += dist[rt as usize] as u64 * (p * p) as u64;
                    diameter = diameter.max(dist[rt as usize]);
                }
            }
            // Every source sees the same mean: the total over N sources is N times one's.
            assert_eq!(sum, routers_sum * n as u64, "{arr:?} p={p}");
            assert_eq!(diameter, 3);
            let m = topo.metrics().unwrap();
            assert_eq!(m.diameter, 3);
            assert_eq!(m.degree, Some(a - 1 + h));
            let with_self = m.average_distance * (n as f64 - 1.0) / n as f64;
            assert!((with_self - bfs_sum as f64 / (n as f64 * n as f64)).abs() < 1e-9);
            // Minimal routing takes one global hop: some pairs are nearer through a third group
            // (two global hops), so the routes are longer on average than the shortest paths,
            // and the report gives their mean apart: (routers − N)/(N − 1) hops per distinct pair.
            assert!(bfs_sum < routers_sum * n as u64 - (n as u64).pow(2), "{arr:?} p={p}");
            let route = m.average_route.expect("routes longer than the shortest paths");
            let want = (routers_sum - n as u64) as f64 / (n as f64 - 1.0);
            assert!((route - want).abs() < 1e-9, "{arr:?} p={p}: {route} vs {want}");
            let classes: Vec<(String, u64)> =
                m.class_loads.iter().map(|c| (c.class.clone(), c.channels)).collect();
            let routers = (a * g) as u64;
            assert_eq!(
                classes,
                [("local".to_string(), routers * (a as u64 - 1)), ("global".to_string(), routers * h as u64)]
            );
        }
    }
    assert_eq!(format!("{:.4}", 238.0 / 72.0), "3.3056");
    assert_eq!(format!("{:.4}", 3900.0 / 1056.0), "3.6932");
}

/// The refusals: zero values, fewer than 2 or more than a·h + 1 groups, and group counts the
/// arrangements cannot pair (g − 1 not dividing a·h).
#[test]
fn impossible_dragonflies_are_refused() {
    let e = |p, a, h, g, arr| shape(p, a, h, g, arr).build().unwrap_err().to_string();
    assert!(e(0, 4, 2, 9, GlobalArrangement::Absolute).contains("p = 0"));
    assert!(e(2, 0, 2, 9, GlobalArrangement::Absolute).contains("a = 0"));
    assert!(e(2, 4, 0, 9, GlobalArrangement::Absolute).contains("h = 0"));
    assert!(e(2, 4, 2, 1, GlobalArrangement::Absolute).contains("at least 2 groups"));
    assert!(e(2, 4, 2, 10, GlobalArrangement::Absolute).contains("at most a·h + 1 = 9"));
    for arr in ARRANGEMENTS {
        let m = e(2, 4, 2, 7, arr);
        assert!(m.contains("cannot wire") && m.contains(arr.name()), "{m}");
    }
}
