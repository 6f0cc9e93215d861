//! Invariants every family must satisfy, and the papers' numbers.

use netwrap_topo::*;
use proptest::prelude::*;

/// Follows the first candidate (and, separately, every candidate in turn via the salt) from
/// `s` to `t`; checks that the candidates at each hop are distinct channels leaving the current
/// router (the routing contract that bounds them by its out-degree), that the walk ends at
/// `t`'s ejection router, and returns the hop count.
pub fn walk<R: Routing>(net: &Network, r: &R, s: u32, t: u32, salt: u32, pick: usize) -> u32 {
    let mut at = net.inject_router(s);
    let mut c = Candidates::for_network(net);
    let mut hops = 0;
    loop {
        r.route(at, t, salt, &mut c);
        if c.is_empty() {
            assert_eq!(at, net.eject_router(t), "route {s}->{t} stopped at router {at}");
            return hops;
        }
        let opts = c.as_slice();
        for (i, ch) in opts.iter().enumerate() {
            assert!(net.out_channels(at).contains(ch), "candidate does not leave the current router");
            assert!(!opts[..i].contains(ch), "candidate {ch} offered twice at router {at}");
        }
        let ch = opts[pick % opts.len()];
        at = net.channel(ch).dst;
        hops += 1;
        assert!(hops <= net.routers() + 1, "route {s}->{t} does not terminate");
    }
}

/// Every route of every pair reaches its destination, and (for minimal routing) is exactly
/// as long as the breadth-first distance, whichever candidate is taken.
fn check_all_pairs(spec: &Shape, minimal: bool) {
    let topo = spec.build().unwrap();
    struct V(bool);
    impl Visitor for V {
        type Output = ();
        fn visit<F: Family>(self, f: &F) {
            let net = f.network();
            for s in 0..net.terminals() {
                let d = bfs_from(net, net.inject_router(s));
                for t in 0..net.terminals() {
                    for (salt, pick) in [(0, 0), (u32::MAX, 1), (7, 2)] {
                        let h = walk(net, f, s, t, salt, pick);
                        if self.0 {
                            assert_eq!(h, d[net.eject_router(t) as usize], "{}: {s}->{t}", net.name());
                        }
                    }
                }
            }
        }
    }
    topo.visit(V(minimal));
}

fn cube(radices: Vec<u32>, wrap: bool, bidirectional: bool) -> Shape {
    Shape::Cube { radices, wrap, bidirectional, order: DimensionOrder::LowestFirst, concentration: 1 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn circulant_and_midimew_routes_are_minimal(n in 4u32..90, a in 1u32..12, b in 1u32..12) {
        check_all_pairs(&Shape::Midimew { nodes: n, routing: CirculantRouting::Record }, true);
        check_all_pairs(&Shape::Midimew { nodes: n, routing: CirculantRouting::Table }, true);
        let spec = Shape::Circulant { nodes: n, a, b };
        if spec.build().is_ok() {
            check_all_pairs(&spec, true);
        }
    }

    #[test]
    fn cube_routes_are_minimal(r in proptest::collection::vec(2u32..6, 1..4), wrap: bool, bi: bool) {
        let spec = cube(r, wrap || !bi, bi);
        check_all_pairs(&spec, true);
    }

    #[test]
    fn nhop_routes_are_minimal(f in proptest::collection::vec(2u32..6, 1..4)) {
        check_all_pairs(&Shape::NHop { factors: f, per_router: 1, width: 1 }, true);
    }

    #[test]
    fn hyperx_routes_are_minimal(f in proptest::collection::vec(2u32..5, 1..4), p in 1u32..4, width in 1u32..3) {
        check_all_pairs(&Shape::NHop { factors: f, per_router: p, width }, true);
    }

    #[test]
    fn multistage_routes_reach_destination(k in 2u32..5, stages in 1u32..4, omega: bool) {
        let wiring = if omega { StageWiring::Omega } else { StageWiring::Butterfly };
        check_all_pairs(&Shape::Multistage { k, stages, wiring }, true);
    }

    #[test]
    fn regular_families_are_regular(n in 4u32..200, k in 2u32..7, dims in 1u32..4) {
        for spec in [
            Shape::Midimew { nodes: n, routing: CirculantRouting::Table },
            cube(vec![k; dims as usize], true, true),
            Shape::Hypercube { n: dims, order: DimensionOrder::HighestFirst },
            Shape::NHop { factors: vec![k; dims as usize], per_router: 1, width: 1 },
        ] {
            let (lo, hi) = spec.build().unwrap().network().degree_range();
            prop_assert_eq!(lo, hi, "{:?}", spec);
        }
    }
}

#[test]
fn fat_tree_and_ccc_routes_are_minimal() {
    check_all_pairs(&Shape::FatTree { nodes: 64 }, true);
    check_all_pairs(&Shape::FatTree { nodes: 4 }, true);
    check_all_pairs(&Shape::Ccc { n: 3 }, true);
    check_all_pairs(&Shape::Ccc { n: 4 }, true);
    check_all_pairs(&Shape::Crossbar { nodes: 5 }, true);
    check_all_pairs(
        &Shape::XbarModules { per_module: 3, factors: vec![4, 2], intra_bits: 32, inter_bits: vec![16, 8] },
        true,
    );
    for (factors, nodes) in
        [(vec![4], 16), (vec![8], 128), (vec![4, 4], 64), (vec![2, 4], 32), (vec![2, 2, 2], 32)]
    {
        let modules = factors.iter().product();
        let split = ModuleSplit { inter_bits: vec![8; factors.len()], factors, intra_bits: 16, dilation: 2 };
        check_all_pairs(&Shape::ModularButterfly { nodes, modules, split }, true);
    }
}

/// Slim Flies (every δ, a prime power, several terminals per router): minimal routes.
#[test]
fn slimfly_routes_are_minimal() {
    for (q, p) in [(3, 2), (4, 1), (5, 1), (7, 1), (9, 1)] {
        check_all_pairs(&Shape::SlimFly { q, p }, true);
    }
}

/// Greenberg & Guan §3.1: every child port of every switch is used once, and (§3.2, eq. 12) the load
/// on each up-link from level l is λ0·P_l↑·2^l with P_l↑ = (4^n − 4^l)/(4^n − 1); computed
/// both from all pairs and by the per-level symmetry shortcut.
#[test]
fn fat_tree_link_loads_match_greenberg_guan_eq_12() {
    for nodes in [16u32, 64, 256] {
        let t = FatTree::new(nodes).unwrap();
        let net = t.network();
        let n = t.levels();
        let (all, _) = metrics::channel_loads(net, &t, false).unwrap().unwrap();
        let (sym, _) = metrics::channel_loads(net, &t, true).unwrap().unwrap();
        for (i, ch) in net.channels().iter().enumerate() {
            let l = ch.class as u32 / 2 + 1;
            let p_up = (4f64.powi(n as i32) - 4f64.powi(l as i32)) / (4f64.powi(n as i32) - 1.0);
            let expect = p_up * 2f64.powi(l as i32);
            assert!((all[i] - expect).abs() < 1e-9, "N={nodes} channel {i}: {} vs {expect}", all[i]);
            assert!((sym[i] - expect).abs() < 1e-9);
        }
        // Every switch below the top has two parents; level-l switches number N/2^(l+1).
        for l in 1..=n {
            let count = (0..net.routers()).filter(|&r| t.level(r) == l).count() as u32;
            assert_eq!(count, nodes >> (l + 1));
        }
    }
}

/// Puente et al. Table 1 against the exact graphs. Mesh: diameter 2k − 2, average 2k/3; torus:
/// diameter ⌈k1/2⌉ + ⌈k2/2⌉ and average 2⌊k/2⌋⌊(k+1)/2⌋·k/(k² − 1); Midimew: diameter b or
/// b − 1 and average k0(1 − 2(k0² − 1)/(3(N − 1))), k0 = ⌈k/√2⌉.
#[test]
fn puente_table_1_against_exact_graphs() {
    for k in 2u32..=20 {
        let mesh = cube(vec![k, k], false, true).build().unwrap().metrics().unwrap();
        assert_eq!(mesh.diameter, 2 * k - 2);
        assert!((mesh.average_distance - 2.0 * k as f64 / 3.0).abs() < 1e-9, "mesh k={k}");
        let torus = cube(vec![k, k], true, true).build().unwrap().metrics().unwrap();
        let formula = 2.0 * (k / 2) as f64 * k.div_ceil(2) as f64 * k as f64 / (k * k - 1) as f64;
        assert!((torus.average_distance - formula).abs() < 1e-9, "torus k={k}");
        // The exact diameter is 2⌊k/2⌋; the table's ⌈k1/2⌉ + ⌈k2/2⌉ is one too many per odd k.
        assert_eq!(torus.diameter, 2 * (k / 2));
        if k % 2 == 0 {
            assert_eq!(torus.diameter, k);
        }
    }
    // 8x8: Table 4's 5.33 (mesh) and 4.06 (torus).
    let m8 = cube(vec![8, 8], false, true).build().unwrap().metrics().unwrap();
    let t8 = cube(vec![8, 8], true, true).build().unwrap().metrics().unwrap();
    assert_eq!((m8.average_distance * 100.0).round(), 533.0);
    assert_eq!((t8.average_distance * 100.0).round(), 406.0);
    for n in [16u32, 64, 256, 1024, 4096] {
        let k = (n as f64).sqrt();
        let k0 = (k / 2f64.sqrt()).ceil();
        let formula = k0 * (1.0 - 2.0 * (k0 * k0 - 1.0) / (3.0 * (n as f64 - 1.0)));
        let m = Shape::Midimew { nodes: n, routing: CirculantRouting::Table }.build().unwrap();
        let got = m.metrics().unwrap();
        let (_, b) = midimew_generators(n);
        assert!(got.diameter == b || got.diameter == b - 1, "N={n}: diameter {} b={b}", got.diameter);
        // The formula is exact for N = 2b² only; for these N it is within 1%.
        assert!(
            (got.average_distance - formula).abs() / formula < 0.01,
            "N={n}: {} vs {formula}",
            got.average_distance
        );
    }
    // §2.1: 256 nodes: torus 8.03 (the text's "8.3"), Midimew 7.51 by formula, 7.55 exactly.
    let m256 =
        Shape::Midimew { nodes: 256, routing: CirculantRouting::Record }.build().unwrap().metrics().unwrap();
    assert_eq!((m256.average_distance * 100.0).round(), 755.0);
    let m64 =
        Shape::Midimew { nodes: 64, routing: CirculantRouting::Record }.build().unwrap().metrics().unwrap();
    assert_eq!((m64.average_distance * 100.0).round(), 378.0);
}

/// Raghunath & Ranade §5: the two-level butterfly's inter-module channels form the complete graph or
/// n-hop network between modules, and its bisection across any factor is B = 8192 wires
/// counting both networks (requests and responses), as §5.1 and §5.2 size them.
#[test]
fn two_level_butterflies_have_the_papers_module_graphs() {
    for (factors, intra, inter) in [(vec![32], 8, vec![8]), (vec![4, 8], 32, vec![64, 32])] {
        let split =
            ModuleSplit { factors: factors.clone(), intra_bits: intra, inter_bits: inter, dilation: 1 };
        let t = ModularButterfly::new(1024, 32, split).unwrap();
        let net = t.network();
        // Which module pairs are joined, and by how many bits per direction.
        let mut bits = std::collections::BTreeMap::new();
        for (src, c) in net.edges().filter(|(_, c)| c.class > 0) {
            let (a, b) = (t.module_of(src), t.module_of(c.dst));
            *bits.entry((a, b)).or_insert(0) += c.width as u32 * t.flit_bits();
        }
        let h = Hamming::new(&factors, &[]).unwrap();
        for a in 0..32 {
            for b in 0..32 {
                let joined = a != b && h.distance(a, b) == 1;
                assert_eq!(bits.contains_key(&(a, b)), joined, "{factors:?}: modules {a}, {b}");
            }
        }
        // Cut each factor's dimension in half: requests + responses = 2 x one network.
        let mut stride = 1;
        for &m in &factors {
            let side = |mm: u32| (mm / stride) % m < m / 2;
            let cut: u32 = bits.iter().filter(|((a, b), _)| side(*a) != side(*b)).map(|(_, w)| w).sum();
            assert_eq!(2 * cut, 8192, "{factors:?}: factor K{m}");
            stride *= m;
        }
        check_all_pairs_on(&t);
    }
    assert!(
        ModularButterfly::new(
            1000,
            32,
            ModuleSplit { factors: vec![32], intra_bits: 8, inter_bits: vec![8], dilation: 1 }
        )
        .is_err()
    );
    assert!(
        ModularButterfly::new(
            1024,
            32,
            ModuleSplit { factors: vec![4, 4], intra_bits: 8, inter_bits: vec![8, 8], dilation: 1 }
        )
        .is_err()
    );
}

fn check_all_pairs_on<F: Family>(f: &F) {
    let net = f.network();
    for s in (0..net.terminals()).step_by(37) {
        for t in 0..net.terminals() {
            for (salt, pick) in [(0, 0), (u32::MAX, 1)] {
                assert_eq!(walk(net, f, s, t, salt, pick), stages(net) - 1);
            }
        }
    }
}

fn stages(net: &Network) -> u32 {
    // Every path in a multistage network crosses every stage once.
    let d = bfs_from(net, net.inject_router(0));
    d[net.eject_router(0) as usize] + 1
}

#[test]
fn bad_sizes_are_rejected_with_the_valid_sizes() {
    let e = Shape::FatTree { nodes: 100 }.build().unwrap_err().to_string();
    assert!(e.contains("4^n"), "{e}");
    let e = Shape::Midimew { nodes: 3, routing: CirculantRouting::Table }.build().unwrap_err().to_string();
    assert!(e.contains("N >= 4"), "{e}");
    let e = Shape::XbarModules { per_module: 4, factors: vec![4, 8], intra_bits: 8, inter_bits: vec![8] }
        .build()
        .unwrap_err()
        .to_string();
    assert!(e.contains("one per factor"), "{e}");
    let e = Shape::XbarModules { per_module: 4, factors: vec![4], intra_bits: 0, inter_bits: vec![8] }
        .build()
        .unwrap_err()
        .to_string();
    assert!(e.contains("at least 1"), "{e}");
    assert!(Shape::Ccc { n: 2 }.build().is_err());
    assert!(Shape::NHop { factors: vec![1, 4], per_router: 1, width: 1 }.build().is_err());
}

/// Large vertex-transitive graphs use one search: a million-node torus is measured quickly.
#[test]
fn million_node_torus_distances_by_symmetry() {
    let t = cube(vec![1024, 1024], true, true).build().unwrap();
    let (diam, avg) = metrics::distances(t.network(), true).unwrap();
    assert_eq!(diam, 1024);
    let exact = 2.0 * 512.0 * 512.0 * 1024.0 / (1024.0 * 1024.0 - 1.0);
    assert!((avg - exact).abs() < 1e-9);
}

/// The k-ary n-cube shortcut (per-dimension sums) equals breadth-first search and all-pairs
/// routing on small cubes of every kind.
#[test]
fn cube_shortcut_matches_breadth_first_search() {
    for radices in [vec![5], vec![4, 3], vec![6, 2, 3], vec![2, 2, 2], vec![8, 8]] {
        for (wrap, bi, concentration) in
            [(true, false, 1), (true, true, 1), (false, true, 1), (false, true, 3), (true, true, 2)]
        {
            let Shape::Cube { radices, wrap, bidirectional, order, .. } = cube(radices.clone(), wrap, bi)
            else {
                unreachable!()
            };
            let spec = Shape::Cube { radices, wrap, bidirectional, order, concentration };
            let topo = spec.build().unwrap();
            let fast = topo.metrics().unwrap();
            let Topology::Cube(c) = &topo else { unreachable!() };
            let (diam, avg) = metrics::distances(c.network(), false).unwrap();
            assert_eq!(fast.diameter, diam, "{spec:?}");
            assert!((fast.average_distance - avg).abs() < 1e-9, "{spec:?}");
            let slow = metrics::measure(c.network(), c, false, false, topo.bisection()).unwrap();
            for (a, b) in fast.class_loads.iter().zip(&slow.class_loads) {
                assert!(
                    (a.max_load - b.max_load).abs() < 1e-9,
                    "{spec:?} {}: {} vs {}",
                    a.class,
                    a.max_load,
                    b.max_load
                );
            }
        }
    }
}

/// The one-source shortcuts (distances and loads) agree with the all-pairs computation.
#[test]
fn symmetry_shortcuts_match_all_pairs() {
    let specs = [
        Shape::Midimew { nodes: 50, routing: CirculantRouting::Table },
        Shape::Midimew { nodes: 72, routing: CirculantRouting::Record },
        Shape::Circulant { nodes: 30, a: 4, b: 7 },
        Shape::NHop { factors: vec![3, 4, 2], per_router: 1, width: 1 },
        Shape::Ccc { n: 3 },
        Shape::Ccc { n: 5 },
        Shape::FatTree { nodes: 256 },
        Shape::Multistage { k: 2, stages: 5, wiring: StageWiring::Butterfly },
        Shape::Multistage { k: 3, stages: 3, wiring: StageWiring::Omega },
        kary_ntree(4, 3, UpPort::Random),
        kary_ntree(3, 3, UpPort::Adaptive),
        xgft(&[2, 3, 2], &[1, 2, 3], UpPort::Random),
        xgft(&[3, 4], &[1, 2], UpPort::Adaptive),
    ];
    for spec in specs {
        let topo = spec.build().unwrap();
        let (vt, sym) = topo.symmetry();
        struct Both(bool, bool);
        impl Visitor for Both {
            type Output = ();
            fn visit<F: Family>(self, f: &F) {
                let net = f.network();
                let fast = metrics::distances(net, self.0).unwrap();
                let slow = metrics::distances(net, false).unwrap();
                assert_eq!(fast.0, slow.0);
                assert!((fast.1 - slow.1).abs() < 1e-9);
                let (a, _) = metrics::channel_loads(net, f, self.1).unwrap().unwrap();
                let (b, _) = metrics::channel_loads(net, f, false).unwrap().unwrap();
                for (x, y) in a.iter().zip(&b) {
                    assert!((x - y).abs() < 1e-9, "{}: {x} vs {y}", net.name());
                }
            }
        }
        topo.visit(Both(vt, sym));
    }
}

/// Enumeration agrees with the proven formulas where both apply, and the search never
/// reports less than the true minimum on small graphs.
#[test]
fn bisection_enumeration_agrees_with_formulas() {
    for (spec, expect) in [
        (cube(vec![4, 4], true, true), 16),
        (cube(vec![4, 4], true, false), 8),
        (cube(vec![4, 4], false, true), 8),
        (Shape::Hypercube { n: 4, order: DimensionOrder::HighestFirst }, 16),
        (Shape::NHop { factors: vec![8], per_router: 1, width: 1 }, 32),
    ] {
        let net = spec.build().unwrap();
        assert_eq!(metrics::exact_bisection(net.network()), Some(expect), "{spec:?}");
        assert_eq!(net.bisection().width, expect);
    }
    for spec in [
        Shape::Midimew { nodes: 18, routing: CirculantRouting::Table },
        Shape::Circulant { nodes: 20, a: 3, b: 7 },
    ] {
        let net = spec.build().unwrap();
        let exact = metrics::exact_bisection(net.network()).unwrap();
        let side = (0..net.network().routers()).map(|r| r % 2 == 0).collect();
        let found = metrics::search_bisection(net.network(), side, "alternate");
        assert!(found.width >= exact);
    }
}

#[test]
fn table_routing_and_large_ccc_are_minimal() {
    for inner in [cube(vec![4, 3], true, true), cube(vec![3, 3], false, true), Shape::FatTree { nodes: 16 }] {
        check_all_pairs(&Shape::Table { of: Box::new(inner) }, true);
    }
    // The automorphism-based CCC routing against breadth-first search.
    check_all_pairs(&Shape::Ccc { n: 5 }, true);
    let c = Ccc::new(12).unwrap();
    let d = bfs_from(c.network(), 12345);
    for y in (0..c.network().routers()).step_by(97) {
        assert_eq!(c.distance(12345, y), d[y as usize]);
    }
}

/// Every family's spec survives a JSON round trip after resolution (the form experiment files
/// and results use), and the resolved spec builds the same network as the original.
#[test]
fn specs_round_trip_through_json() {
    let specs = [
        r#"{"family": "torus", "radices": [4, 8], "bidirectional": true}"#,
        r#"{"family": "mesh", "k": 4, "n": 3}"#,
        r#"{"family": "ring", "k": 9}"#,
        r#"{"family": "hypercube", "n": 3}"#,
        r#"{"family": "midimew", "nodes": 64}"#,
        r#"{"family": "circulant", "nodes": 20, "a": 3, "b": 7}"#,
        r#"{"family": "omega", "k": 4, "stages": 3}"#,
        r#"{"family": "butterfly", "nodes": 64}"#,
        r#"{"family": "fat-tree", "nodes": 64}"#,
        r#"{"family": "complete", "nodes": 8}"#,
        r#"{"family": "nhop", "factors": [4, 8]}"#,
        r#"{"family": "ccc", "n": 4}"#,
        r#"{"family": "crossbar", "nodes": 8}"#,
        r#"{"family": "two-level", "name": "Xbar.32.8"}"#,
        r#"{"family": "two-level", "name": "2hop.32-2dil.64-32"}"#,
    ];
    for routing in
        [RoutingSpec::default(), RoutingSpec { algorithm: RoutingAlgorithm::Table, ..Default::default() }]
    {
        for text in specs {
            let spec: TopologySpec = serde_json::from_str(text).unwrap();
            let (resolved, _) = spec.resolve().unwrap();
            let back: TopologySpec =
                serde_json::from_str(&serde_json::to_string(&resolved).unwrap()).unwrap();
            assert_eq!(back, resolved, "{text}");
            let (a, b) = (spec.shape(&routing).unwrap(), back.shape(&routing).unwrap());
            assert_eq!(a, b, "{text}");
            let (na, nb) = (a.build().unwrap(), b.build().unwrap());
            assert_eq!(na.network().channels(), nb.network().channels(), "{text}");
        }
    }
    assert!(serde_json::from_str::<TopologySpec>(r#"{"family": "midimew", "nodes": 64, "k": 3}"#).is_err());
}

#[test]
fn crossbar_modules_load_by_symmetry_matches_all_pairs() {
    let t = Shape::XbarModules { per_module: 3, factors: vec![4, 2], intra_bits: 8, inter_bits: vec![8, 16] }
        .build()
        .unwrap();
    let Topology::Xbar(x) = &t else { unreachable!() };
    let (a, _) = metrics::channel_loads(x.network(), x, true).unwrap().unwrap();
    let (b, _) = metrics::channel_loads(x.network(), x, false).unwrap().unwrap();
    for (p, q) in a.iter().zip(&b) {
        assert!((p - q).abs() < 1e-9);
    }
}

/// Agarwal 1991 §5.2: a 1K-processor indirect network of 4×4 switches has k = 4, n = 5 and 1280
/// switches; every request crosses all n stages, and it saturates at m = 1/B messages per
/// cycle, i.e. one flit per processor per cycle (uniform load 1 on every channel).
#[test]
fn agarwal_indirect_network_1k_processors() {
    for wiring in [StageWiring::Butterfly, StageWiring::Omega] {
        let t = Shape::Multistage { k: 4, stages: 5, wiring }.build().unwrap();
        let m = t.metrics().unwrap();
        assert_eq!(m.nodes, 1024);
        assert_eq!(m.routers, 1280);
        assert_eq!((m.diameter, m.average_distance), (4, 4.0), "5 switches = 4 channels between them");
        assert!((m.ideal_throughput.unwrap() - 1.0).abs() < 1e-9);
        assert!(m.class_loads.iter().all(|c| (c.max_load - 1.0).abs() < 1e-9));
    }
}

/// Raghunath & Ranade's replies travel a reversed copy of the request network: memory t back to
/// processor t, every pair reachable, routed by table.
#[test]
fn reversed_network_carries_replies() {
    let split = ModuleSplit { factors: vec![4, 8], intra_bits: 32, inter_bits: vec![64, 32], dilation: 1 };
    let t = ModularButterfly::new(1024, 32, split).unwrap();
    let back = TableRouted::new(t.network().reversed()).unwrap();
    let net = back.network();
    for s in (0..1024).step_by(101) {
        for d in (0..1024).step_by(7) {
            assert_eq!(walk(net, &back, s, d, 0, 0), 8);
        }
    }
}

/// The circulant recursion over offsets equals routing every pair.
#[test]
fn circulant_offset_recursion_matches_all_pairs() {
    for spec in [
        Shape::Midimew { nodes: 50, routing: CirculantRouting::Table },
        Shape::Midimew { nodes: 64, routing: CirculantRouting::Record },
        Shape::Circulant { nodes: 30, a: 4, b: 7 },
    ] {
        let topo = spec.build().unwrap();
        let Topology::Circulant(c) = &topo else { unreachable!() };
        let fast = topo.metrics().unwrap();
        let slow = metrics::measure(c.network(), c, false, false, topo.bisection()).unwrap();
        assert!((fast.average_distance - slow.average_distance).abs() < 1e-9);
        for (a, b) in fast.class_loads.iter().zip(&slow.class_loads) {
            assert!(
                (a.max_load - b.max_load).abs() < 1e-9,
                "{spec:?} {}: {} vs {}",
                a.class,
                a.max_load,
                b.max_load
            );
        }
    }
}

/// Verification (hand counts): the HyperX 4 × 4 with p = 4 (Ahn et al. 2009). Router
/// (x, y) joins the 3 others of its row and the 3 of its column: 16 routers of degree 6, 96
/// directed channels, 64 terminals. From one terminal the 63 others lie 3 at 0 hops (its
/// router), 24 at 1 (4 terminals × 3 routers × 2 dimensions) and 36 at 2: average distance
/// 96/63, diameter 2. Halving dimension 0 cuts 8 routers × 2 channels each way: 32. Under
/// uniform traffic over distinct pairs a message crosses dimension 0 when its destination's
/// x differs (48 of 63 destinations): 64 messages per cycle × 48/63 over 48 channels, a load
/// of 64/63 and an ideal throughput of 63/64; with K = 2 (channels 2 flits wide), 2 × 63/64.
#[test]
fn hyperx_4x4_with_four_terminals_per_router_has_the_hand_counted_metrics() {
    for width in [1, 2] {
        let topo = Shape::NHop { factors: vec![4, 4], per_router: 4, width }.build().unwrap();
        let net = topo.network();
        assert_eq!((net.terminals(), net.routers(), net.channels().len()), (64, 16, 96));
        assert!((0..64).all(|t| net.inject_router(t) == t / 4 && net.eject_router(t) == t / 4));
        let m = topo.metrics().unwrap();
        assert_eq!((m.degree, m.diameter), (Some(6), 2));
        assert!((m.average_distance - 96.0 / 63.0).abs() < 1e-12, "{}", m.average_distance);
        assert_eq!((m.bisection_width, m.bisection_exact), (32 * width as u64, true));
        let load = m.channel_load.unwrap();
        assert!((load - 64.0 / 63.0 / width as f64).abs() < 1e-12, "{load}");
        let ideal = m.ideal_throughput.unwrap();
        assert!((ideal - (63.0 / 64.0 * width as f64).min(1.0)).abs() < 1e-12, "{ideal}");
    }
    // The n-hop network is the HyperX with p = K = 1: the same graph, the same routes.
    let nhop = Shape::NHop { factors: vec![3, 5], per_router: 1, width: 1 }.build().unwrap();
    let hyperx = Hamming::hyperx(&[3, 5], 1, 1).unwrap();
    assert_eq!(
        nhop.network().edges().map(|(s, c)| (s, *c)).collect::<Vec<_>>(),
        hyperx.network().edges().map(|(s, c)| (s, *c)).collect::<Vec<_>>()
    );
    assert!(Hamming::hyperx(&[4, 4], 0, 1).unwrap_err().to_string().contains("p >= 1"));
}

fn xgft(children: &[u32], parents: &[u32], up_port: UpPort) -> Shape {
    Shape::Xgft { children: children.to_vec(), parents: parents.to_vec(), up_port }
}

fn kary_ntree(k: u32, n: u32, up_port: UpPort) -> Shape {
    let mut parents = vec![k; n as usize];
    parents[0] = 1;
    xgft(&vec![k; n as usize], &parents, up_port)
}

/// Every route of every pair of XGFTs and k-ary n-trees (Öhring et al. 1995; Petrini &
/// Vanneschi 1997) reaches its destination as a shortest path, for every up-port choice and
/// whichever candidate is taken; `random` offers one up port, drawn from the salt, and over
/// the salts every up port (its `spread`, also `minimal`'s), `adaptive` all of them at once.
#[test]
fn xgft_routes_are_minimal_for_every_up_port() {
    for up in [UpPort::Random, UpPort::Adaptive, UpPort::Dmodk] {
        for spec in [
            kary_ntree(4, 3, up),
            kary_ntree(2, 4, up),
            kary_ntree(3, 1, up),
            xgft(&[4, 4], &[1, 2], up),
            xgft(&[2, 3, 2], &[1, 2, 3], up),
            xgft(&[3, 1, 2], &[1, 2, 1], up),
        ] {
            check_all_pairs(&spec, true);
        }
    }
    let Topology::Xgft(t) = kary_ntree(4, 3, UpPort::Random).build().unwrap() else { unreachable!() };
    let net = t.network();
    let (mut c, mut all) = (Candidates::for_network(net), Candidates::for_network(net));
    // Terminal 0's level-1 switch (router 0) towards terminal 63: up, four ways.
    t.spread(0, 63, 0, &mut all);
    assert_eq!(all.as_slice(), &net.out_channels(0).collect::<Vec<_>>()[..4]);
    t.minimal(0, 63, 0, &mut c);
    assert_eq!(c, all);
    let mut taken = std::collections::BTreeSet::new();
    for i in 0..64u32 {
        t.route(0, 63, i.wrapping_mul(0x0400_0000), &mut c);
        assert_eq!(c.len(), 1);
        assert!(all.as_slice().contains(&c.as_slice()[0]));
        taken.insert(c.as_slice()[0]);
    }
    assert_eq!(taken.len(), 4, "the salt reaches every up port");
    assert!(t.salt_changes_candidates());
}

/// Verification on Petrini & Vanneschi's 4-ary 3-tree, against hand counts: k^n = 64
/// processors, n·k^(n−1) = 48 switches (16 per level), 2·(n − 1)·k^n = 256 directed channels.
/// From processor 0, 4 destinations (itself included) share its level-1 switch (1 router on
/// the way), 12 more its level-2 subtree (3 routers), the other 48 need the top (5 routers):
/// 4 + 36 + 240 = 280 routers over 64 destinations, 4.375 per message with the source's own
/// messages counted. Under uniform traffic over distinct pairs a level-1 switch's 4
/// processors send 60/63 of their messages up its 4 up links (60/63 per link), a level-2
/// subtree's 16 processors 48/63 of theirs up its 16 links (48/63): the busiest channel
/// carries 60/63 < 1, so the processor link (1 flit/cycle) is the limit, ideal throughput 1.
/// Bisection: halving the processors cuts k^n/2 = 32 links each way (each top switch keeps
/// two children per side), 64 directed channels.
#[test]
fn four_ary_three_tree_against_hand_counts() {
    assert_eq!(280.0 / 64.0, 4.375);
    for up in [UpPort::Random, UpPort::Adaptive, UpPort::Dmodk] {
        let topo = kary_ntree(4, 3, up).build().unwrap();
        let net = topo.network();
        assert_eq!((net.terminals(), net.routers(), net.channels().len()), (64, 48, 256));
        let levels: Vec<u32> = topo.switch_levels().iter().map(|l| l.switches).collect();
        assert_eq!(levels, [16, 16, 16]);
        assert_eq!(
            net.degree_range(),
            (4, 8),
            "2k = 8 ports; level 1's four processor links are not channels"
        );
        let m = topo.metrics().unwrap();
        assert_eq!(m.diameter, 4);
        assert!((m.average_distance - (12.0 * 2.0 + 48.0 * 4.0) / 63.0).abs() < 1e-12);
        // Routers traversed per message, the source's own included: hops + 1.
        let routers = (m.average_distance * 63.0 + 0.0) / 64.0 + 1.0;
        assert!((routers - 4.375).abs() < 1e-12, "{routers}");
        assert_eq!(m.bisection_width, 64, "{}", m.bisection_how);
        let loads: Vec<(String, u64, f64)> =
            m.class_loads.iter().map(|c| (c.class.clone(), c.channels, c.max_load)).collect();
        let expect = [("up 1-2", 60.0), ("down 2-1", 60.0), ("up 2-3", 48.0), ("down 3-2", 48.0)];
        for ((class, channels, load), (name, num)) in loads.iter().zip(expect) {
            assert_eq!((class.as_str(), *channels), (name, 64));
            assert!((load - num / 63.0).abs() < 1e-12, "{up:?} {class}: {load}");
        }
        assert!((m.channel_load.unwrap() - 60.0 / 63.0).abs() < 1e-12);
        assert_eq!(m.ideal_throughput, Some(1.0));
    }
}

/// Verification: an oversubscribed XGFT has the throughput its up links allow. In
/// XGFT(h; m; w) with w1 = 1 a level-l subtree holds M_l = m1·…·m_l processors and
/// W_l·w_{l+1} up links (W_l = w1·…·w_l switches, w_{l+1} parents each); under uniform
/// traffic over distinct pairs it sends M_l·(N − M_l)/(N − 1) messages per cycle up them. So
/// XGFT(2; 4,4; 1,2): 4·12/15 over 2 links, 1.6 each, throughput 1/1.6 = 0.625 (a full tree
/// would have 4 links, load 0.8); XGFT(3; 4,4,4; 1,2,2): level 1 4·60/63 over 2 links (40/21),
/// level 2 16·48/63 over 2·2 links (64/21, the busiest), throughput 21/64.
#[test]
fn oversubscribed_xgft_throughput_follows_its_up_links() {
    let cases: [(&[u32], &[u32], f64); 3] =
        [(&[4, 4], &[1, 2], 1.6), (&[4, 4], &[1, 4], 0.8), (&[4, 4, 4], &[1, 2, 2], 64.0 / 21.0)];
    for (children, parents, busiest) in cases {
        for up in [UpPort::Random, UpPort::Adaptive, UpPort::Dmodk] {
            let m = xgft(children, parents, up).build().unwrap().metrics().unwrap();
            let load = m.channel_load.unwrap();
            assert!((load - busiest).abs() < 1e-12, "{children:?} {parents:?} {up:?}: {load}");
            let ideal = (1.0 / busiest).min(1.0);
            assert!((m.ideal_throughput.unwrap() - ideal).abs() < 1e-12);
        }
    }
}

/// Bad XGFTs are refused with the reason, before anything is built.
#[test]
fn bad_xgfts_are_refused_with_the_reason() {
    let err = |s: Shape| s.build().unwrap_err().to_string();
    assert!(err(xgft(&[4, 4], &[2, 4], UpPort::Random)).contains("w1 = 2 is not supported"));
    assert!(
        err(xgft(&[4, 4, 4], &[1, 4], UpPort::Random)).contains("children has 3 values but parents has 2")
    );
    assert!(err(xgft(&[4, 0], &[1, 4], UpPort::Random)).contains("m2 = 0"));
    assert!(err(xgft(&[4, 4], &[1, 0], UpPort::Random)).contains("w2 = 0"));
    assert!(err(xgft(&[], &[], UpPort::Random)).contains("height"));
    let big = err(kary_ntree(64, 5, UpPort::Random));
    assert!(big.contains("network too large") && big.contains("XGFT(5;"), "{big}");
    let spec = |s: &str| serde_json::from_str::<TopologySpec>(s).unwrap();
    let e = spec(r#"{"family": "kary-ntree", "k": 1}"#).resolve().unwrap_err().to_string();
    assert!(e.contains("at least 2"), "{e}");
    let e = spec(r#"{"family": "kary-ntree", "k": 2, "n": 100}"#)
        .shape(&RoutingSpec::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than 2^64"), "{e}");
    let up = RoutingSpec { up_port: Some(UpPort::Dmodk), ..Default::default() };
    let e = spec(r#"{"family": "torus"}"#).resolve_routing(&up).unwrap_err().to_string();
    assert!(e.contains("not to a torus"), "{e}");
    let table = RoutingSpec { algorithm: RoutingAlgorithm::Table, ..up.clone() };
    let e = spec(r#"{"family": "xgft", "children": [4, 4], "parents": [1, 2]}"#)
        .resolve_routing(&table)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no up-port choice"), "{e}");
    let tree = spec(r#"{"family": "kary-ntree"}"#);
    let resolved = tree.resolve_routing(&RoutingSpec::default()).unwrap();
    assert_eq!(resolved.up_port, Some(UpPort::Random), "the default up port");
    assert_eq!(tree.resolve().unwrap().0, spec(r#"{"family": "kary-ntree", "k": 4, "n": 3}"#));
}

/// Cross-check of two builders: Greenberg & Guan's butterfly fat-tree of 4^n processors has
/// 4 children and 2 parents per switch, the counts of XGFT(n; 4,…,4; 1,2,…,2) (Öhring et al.
/// 1995 show the butterfly fat-tree is such an XGFT): the same routers, channels and, with
/// either parent equally likely, the same uniform loads per class.
#[test]
fn the_butterfly_fat_tree_has_the_counts_and_loads_of_its_xgft() {
    for n in [2u32, 3, 4] {
        let bft = Shape::FatTree { nodes: 4u32.pow(n) }.build().unwrap().metrics().unwrap();
        let mut parents = vec![2; n as usize];
        parents[0] = 1;
        let x = xgft(&vec![4; n as usize], &parents, UpPort::Random).build().unwrap().metrics().unwrap();
        assert_eq!((bft.nodes, bft.routers, bft.channels), (x.nodes, x.routers, x.channels));
        for (a, b) in bft.class_loads.iter().zip(&x.class_loads) {
            assert_eq!((&a.class, a.channels), (&b.class, b.channels));
            assert!((a.max_load - b.max_load).abs() < 1e-12, "n = {n} {}", a.class);
        }
    }
}

/// Verification (hand counts): the 4 × 4 mesh with 4 terminals per router (BookSim's cmesh).
/// A 4-node line's coordinate pairs are 20 hops apart in all (ordered), so the 16 routers' 240
/// ordered pairs total 2 × 20 × 4² = 640 hops, and the 64 terminals' pairs p² = 16 times
/// that: 10240 hops over 64 × 63 distinct pairs (2.5397), over 64² with the source's own
/// (exactly 2.5). Under dimension order the middle channel of a line in dimension 0 carries
/// the messages from the 8 routers on one side (32 terminals) to the 2 routers beyond it in
/// its line (8 terminals): 32 × 8/63 = 256/63 at one message per terminal per cycle.
#[test]
fn a_concentrated_mesh_has_the_hand_counted_metrics() {
    let spec = Shape::Cube {
        radices: vec![4, 4],
        wrap: false,
        bidirectional: true,
        order: DimensionOrder::HighestFirst,
        concentration: 4,
    };
    let topo = spec.build().unwrap();
    let net = topo.network();
    assert_eq!((net.terminals(), net.routers(), net.channels().len()), (64, 16, 48));
    assert!((0..64).all(|t| net.inject_router(t) == t / 4 && net.eject_router(t) == t / 4));
    let m = topo.metrics().unwrap();
    assert_eq!(m.diameter, 6);
    assert!((m.average_distance - 10240.0 / 4032.0).abs() < 1e-12, "{}", m.average_distance);
    let load = m.channel_load.unwrap();
    assert!((load - 256.0 / 63.0).abs() < 1e-12, "{load}");
    check_all_pairs(&spec, true);
    let e = KaryNCube::concentrated(
        CubeSpec { radices: vec![4, 4], wrap: false, bidirectional: true },
        DimensionOrder::HighestFirst,
        0,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("p >= 1"), "{e}");
}
