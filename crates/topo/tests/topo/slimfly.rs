//! The Slim Fly (Besta & Hoefler 2014): the MMS graph's counts, diameter 2 and regularity for
//! every δ and for prime powers, the Hoffman–Singleton graph at q = 5, minimal routes, and the
//! numbers of `netwrap topo slimfly`, each against values derived here.

use crate::families::walk;
use netwrap_topo::*;
use std::collections::{BTreeSet, VecDeque};

fn build(q: u32, p: u32) -> SlimFly {
    match (Shape::SlimFly { q, p }).build().unwrap_or_else(|e| panic!("q = {q}: {e}")) {
        Topology::SlimFly(s) => s,
        other => panic!("{other:?}"),
    }
}

/// Breadth-first distances from `src` (written here, not the crate's search).
fn bfs(net: &Network, src: u32) -> Vec<u32> {
    let mut d = vec![u32::MAX; net.routers() as usize];
    let mut queue = VecDeque::from([src]);
    d[src as usize] = 0;
    while let Some(r) = queue.pop_front() {
        for c in net.out_channels(r) {
            let v = net.channel(c).dst as usize;
            if d[v] == u32::MAX {
                d[v] = d[r as usize] + 1;
                queue.push_back(v as u32);
            }
        }
    }
    d
}

/// The neighbour sets of every router, checking that the graph is simple and undirected
/// (no loops, no parallel channels, every channel with its reverse).
fn neighbours(net: &Network) -> Vec<BTreeSet<u32>> {
    let sets: Vec<BTreeSet<u32>> = (0..net.routers())
        .map(|r| {
            let set: BTreeSet<u32> = net.out_channels(r).map(|c| net.channel(c).dst).collect();
            assert_eq!(set.len() as u32, net.degree(r), "router {r}: parallel channels");
            assert!(!set.contains(&r), "router {r}: a loop");
            set
        })
        .collect();
    for (u, set) in sets.iter().enumerate() {
        for &v in set {
            assert!(sets[v as usize].contains(&(u as u32)), "{u}->{v} has no reverse");
        }
    }
    sets
}

/// δ with q = 4w + δ, from q alone.
fn delta(q: u32) -> i32 {
    match q % 4 {
        0 => 0,
        1 => 1,
        _ => -1,
    }
}

/// For every δ (−1: 3, 7, 11, 19, 27; 0: 4, 8, 16; 1: 5, 9, 13, 25), primes and prime powers
/// (GF(8), GF(9), GF(16), GF(25), GF(27)): 2q² routers, every one of degree (3q − δ)/2, an
/// undirected simple graph, diameter 2 by breadth-first search from every router, and q²·k'
/// … 2q²·k' directed channels in the three classes (q channels `inter` and (q − δ)/2 within
/// the subgraph per router).
#[test]
fn mms_graphs_have_diameter_2_and_degree_3q_minus_delta_over_2() {
    for q in [3u32, 4, 5, 7, 8, 9, 11, 13, 16, 19, 25, 27] {
        let s = build(q, 1);
        let net = s.network();
        let k = ((3 * q as i32 - delta(q)) / 2) as u32;
        assert_eq!(net.routers(), 2 * q * q, "q = {q}");
        assert_eq!(net.degree_range(), (k, k), "q = {q}");
        assert_eq!(s.delta(), delta(q));
        neighbours(net);
        let mut diameter = 0;
        for r in 0..net.routers() {
            let d = bfs(net, r);
            diameter = diameter.max(*d.iter().max().unwrap());
        }
        assert_eq!(diameter, 2, "q = {q}");
        let per_class = |name: &str| {
            let class = net.classes().iter().position(|c| c == name).unwrap() as u16;
            net.channels().iter().filter(|c| c.class == class).count() as u32
        };
        let intra = (q as i32 - delta(q)) as u32 / 2;
        assert_eq!(per_class("intra 0"), q * q * intra, "q = {q}");
        assert_eq!(per_class("intra 1"), q * q * intra, "q = {q}");
        assert_eq!(per_class("inter"), 2 * q * q * q, "q = {q}");
        let [x, x2] = s.generators();
        assert_eq!((x.len() as u32, x2.len() as u32), (intra, intra), "q = {q}");
    }
}

/// q = 5 is the Hoffman–Singleton graph (Hoffman & Singleton 1960): the Moore graph of degree
/// 7 and diameter 2, 50 vertices, 175 edges, girth 5. Strongly regular with λ = 0 and μ = 1:
/// adjacent routers have no common neighbour (no triangle), others exactly one (no 4-cycle,
/// and diameter 2); 1 + 7 + 7·6 = 50 is the Moore bound.
#[test]
fn q5_is_the_hoffman_singleton_graph() {
    let s = build(5, 1);
    let net = s.network();
    let sets = neighbours(net);
    assert_eq!(net.routers(), 50);
    assert_eq!(net.channels().len(), 2 * 175);
    assert_eq!(1 + 7 + 7 * 6, 50);
    for u in 0..50u32 {
        assert_eq!(sets[u as usize].len(), 7);
        for v in (0..50u32).filter(|&v| v != u) {
            let common = sets[u as usize].intersection(&sets[v as usize]).count();
            let adjacent = sets[u as usize].contains(&v);
            assert_eq!(common, if adjacent { 0 } else { 1 }, "{u}, {v}");
            assert_eq!(s.adjacent(u, v), adjacent);
        }
    }
    // Girth exactly 5: some cycle u, a, c, d, b, u of length 5 exists (a, b neighbours of u,
    // c a neighbour of a, d a neighbour of b, c and d joined).
    let pentagon = (0..50u32).any(|u| {
        let nu = &sets[u as usize];
        nu.iter().any(|&a| {
            nu.iter().any(|&b| {
                a < b
                    && sets[a as usize].iter().any(|&c| {
                        c != u && sets[b as usize].iter().any(|&d| d != u && sets[c as usize].contains(&d))
                    })
            })
        })
    });
    assert!(pentagon);
}

/// Every route reaches its destination and is as long as the breadth-first distance, whichever
/// candidate is taken; a router two hops away is offered every common neighbour (μ of them).
#[test]
fn routes_are_minimal_through_every_common_neighbour() {
    for (q, p) in [(3u32, 2u32), (4, 1), (5, 1), (7, 1), (9, 1)] {
        let s = build(q, p);
        let net = s.network();
        let sets = neighbours(net);
        let mut c = Candidates::for_network(net);
        for src in 0..net.routers() {
            let d = bfs(net, src);
            for t in 0..net.terminals() {
                let to = net.eject_router(t);
                s.route(src, t, 0, &mut c);
                let common = sets[src as usize].intersection(&sets[to as usize]).count();
                let want = match d[to as usize] {
                    0 => 0,
                    1 => 1,
                    _ => common,
                };
                assert_eq!(c.len(), want, "q = {q}: {src} -> router {to}");
                for pick in 0..3 {
                    let s0 = src * p;
                    assert_eq!(walk(net, &s, s0, t, pick, pick as usize), d[to as usize], "q = {q}");
                }
            }
        }
    }
}

/// `netwrap topo slimfly --q 5`: p = ⌈7/2⌉ = 4 terminals per router, 200 terminals. From one
/// terminal the 199 others are 3 at its router (0 hops), 7·4 = 28 at the 7 neighbours (1 hop)
/// and 42·4 = 168 at the 42 routers two hops away: average (28 + 2·168)/199 = 364/199; with
/// p = 1, (7 + 2·42)/49 = 91/49.
#[test]
fn q5_numbers_of_netwrap_topo() {
    let spec: TopologySpec = serde_json::from_str(r#"{"family": "slimfly", "q": 5}"#).unwrap();
    let (resolved, _) = spec.resolve().unwrap();
    assert_eq!(resolved, TopologySpec::Slimfly { q: 5, p: Some(4) });
    let topo = spec.shape(&RoutingSpec::default()).unwrap().build().unwrap();
    let m = topo.metrics().unwrap();
    assert_eq!((m.nodes, m.routers, m.channels, m.degree), (200, 50, 350, Some(7)));
    assert_eq!(m.diameter, 2);
    assert!((m.average_distance - 364.0 / 199.0).abs() < 1e-12, "{}", m.average_distance);
    assert!(m.average_route.is_none(), "minimal routing");
    let one: TopologySpec = serde_json::from_str(r#"{"family": "slimfly", "q": 5, "p": 1}"#).unwrap();
    let m = one.shape(&RoutingSpec::default()).unwrap().build().unwrap().metrics().unwrap();
    assert!((m.average_distance - 91.0 / 49.0).abs() < 1e-12, "{}", m.average_distance);
}

/// Besta & Hoefler's balanced concentration p = ⌈k'/2⌉: q = 7 (k' = 11) gives 6, q = 19
/// (k' = 29) the paper's 15 (722 routers, 10 830 endpoints), q = 4 (k' = 6) gives 3.
#[test]
fn default_p_is_half_the_router_degree_rounded_up() {
    for (q, p) in [(7u32, 6u32), (19, 15), (4, 3), (5, 4), (3, 3)] {
        let spec = TopologySpec::Slimfly { q, p: None };
        assert_eq!(spec.resolve().unwrap().0, TopologySpec::Slimfly { q, p: Some(p) }, "q = {q}");
    }
    let s = build(19, 15);
    assert_eq!((s.network().routers(), s.network().terminals()), (722, 10830));
}

/// The refusals name the reason: q not a prime power, q = 2, p = 0, and sizes beyond the
/// limits (TooLarge before any table is built).
#[test]
fn bad_slim_flies_are_refused() {
    let e = |q, p| (Shape::SlimFly { q, p }).build().unwrap_err();
    for q in [0u32, 1, 6, 12, 15, 100] {
        let err = e(q, 1);
        assert!(
            matches!(err, TopoError::Invalid(_)) && err.to_string().contains("prime power"),
            "{q}: {err}"
        );
    }
    assert!(e(2, 1).to_string().contains("q = 2"));
    assert!(e(5, 0).to_string().contains("p = 0"));
    assert!(matches!(e(1031, 1), TopoError::TooLarge { .. }), "{}", e(1031, 1));
    assert!(matches!(e(u32::MAX, 1), TopoError::Invalid(_) | TopoError::TooLarge { .. }));
    let spec = TopologySpec::Slimfly { q: 6, p: None };
    assert!(spec.resolve().unwrap_err().to_string().contains("prime power"));
}
