//! Memory per node, the size limits, and large builds within them.

use crate::families::walk;
use netwrap_topo::*;

/// Heap bytes of a built family (from capacities), plus the family value itself.
fn footprint(t: &Topology) -> u64 {
    let heap = match t {
        Topology::Cube(c) => c.heap_bytes(),
        Topology::Circulant(c) => c.heap_bytes(),
        Topology::Multistage(c) => c.heap_bytes(),
        Topology::ModularButterfly(c) => c.heap_bytes(),
        Topology::Table(c, inner) => c.heap_bytes() + footprint(inner) as usize,
        Topology::UpDown(c, inner) => c.heap_bytes() + footprint(inner) as usize,
        Topology::FatTree(c) => c.heap_bytes(),
        Topology::Xgft(c) => c.heap_bytes(),
        Topology::NHop(c) => c.heap_bytes(),
        Topology::Ccc(c) => c.heap_bytes(),
        Topology::Xbar(c) => c.heap_bytes(),
        Topology::Dragonfly(c) => c.heap_bytes(),
        Topology::SlimFly(c) => c.heap_bytes(),
        Topology::Graph(c) => c.heap_bytes(),
    };
    (heap + size_of::<Topology>()) as u64
}

/// Bytes a layout implies for a built network, from its counts.
type Bound = Box<dyn Fn(&Network) -> u64>;

/// Bytes that do not grow with the network: names, class names, strides, runs of degrees.
const CONSTANT: u64 = 2048;

fn build(spec: &Shape) -> Topology {
    spec.build().unwrap_or_else(|e| panic!("{spec:?}: {e}"))
}

fn cube(radices: Vec<u32>, wrap: bool, bidirectional: bool) -> Shape {
    Shape::Cube { radices, wrap, bidirectional, order: DimensionOrder::HighestFirst, concentration: 1 }
}

/// Guards Goal 1's layout against an independent bound: a unidirectional 32-ary 4-cube
/// (1,048,576 nodes) holds its 4 directed channels per node at 8 bytes each and nothing else
/// per node (no out-lists, no port table, no terminal lists: dimension-order routing and the
/// terminal attachment are arithmetic), so topology plus routing is 32 bytes per node plus a
/// constant; before this layout it was 108 bytes per node.
#[test]
fn footprint_of_a_32_ary_4_cube() {
    let cube = KaryNCube::new(CubeSpec::torus(32, 4), DimensionOrder::HighestFirst).unwrap();
    let nodes = 1u64 << 20;
    let net = cube.network();
    assert_eq!((net.terminals() as u64, net.routers() as u64), (nodes, nodes));
    assert_eq!(net.channels().len() as u64, 4 * nodes);
    assert_eq!(size_of::<Channel>(), 8);
    let bytes = cube.heap_bytes() as u64 + size_of::<KaryNCube>() as u64;
    assert!(
        (32 * nodes..=32 * nodes + CONSTANT).contains(&bytes),
        "{bytes} bytes = {} per node",
        bytes / nodes
    );
    // The routing needs nothing else: a route from node 0 to the far corner is 4 x 31 hops.
    let far = (1 << 20) - 1;
    assert_eq!(walk(net, &cube, 0, far, 0, 0), 4 * 31);
}

/// Verifies each family's memory against the bound its layout implies (from capacities): 8
/// bytes per channel, plus per node only what the family documents (a circulant's and CCC's
/// distances from node 0, 4 and 1 bytes; a mesh's per-router channel starts; a two-level
/// butterfly's listed injection routers; a routing table's bytes), plus a constant.
#[test]
fn footprints_follow_the_layout() {
    let split =
        |dilation| ModuleSplit { factors: vec![4, 8], intra_bits: 32, inter_bits: vec![64, 32], dilation };
    let cases: Vec<(Shape, Bound)> = vec![
        (
            Shape::Midimew { nodes: 1 << 16, routing: CirculantRouting::Table },
            Box::new(|n| 36 * n.routers() as u64),
        ),
        (Shape::Ccc { n: 10 }, Box::new(|n| 25 * n.routers() as u64)),
        (Shape::FatTree { nodes: 1 << 16 }, Box::new(|n| 8 * n.channels().len() as u64)),
        (
            Shape::Multistage { k: 4, stages: 6, wiring: StageWiring::Omega },
            Box::new(|n| 8 * n.channels().len() as u64),
        ),
        (
            Shape::Hypercube { n: 12, order: DimensionOrder::HighestFirst },
            Box::new(|n| 8 * n.channels().len() as u64),
        ),
        (
            cube(vec![64, 64], false, true),
            Box::new(|n| 8 * n.channels().len() as u64 + 4 * (n.routers() as u64 + 1)),
        ),
        (Shape::Crossbar { nodes: 1 << 24 }, Box::new(|_| 0)),
        (
            Shape::XbarModules {
                per_module: 64,
                factors: vec![8, 8],
                intra_bits: 32,
                inter_bits: vec![8, 8],
            },
            Box::new(|n| 8 * n.channels().len() as u64),
        ),
        (
            Shape::ModularButterfly { nodes: 4096, modules: 32, split: split(1) },
            Box::new(|n| 8 * n.channels().len() as u64 + 4 * n.terminals() as u64),
        ),
        (
            Shape::ModularButterfly { nodes: 4096, modules: 32, split: split(2) },
            Box::new(|n| {
                8 * n.channels().len() as u64 + 4 * n.terminals() as u64 + 4 * (n.routers() as u64 + 1)
            }),
        ),
        (
            Shape::Table { of: Box::new(cube(vec![16, 16], true, false)) },
            // Two copies of the graph (the family's and the table's) and a 256 x 256 table.
            Box::new(|n| 2 * 8 * n.channels().len() as u64 + 256 * 256 + 4 * 256),
        ),
    ];
    for (spec, expect) in cases {
        let t = build(&spec);
        let (got, want) = (footprint(&t), expect(t.network()));
        assert!(
            (want..=want + CONSTANT).contains(&got),
            "{spec:?}: {got} bytes, layout says {want} + a constant"
        );
    }
}

/// The refusal for `spec`, which must be [`TopoError::TooLarge`].
fn too_large(spec: &Shape) -> (String, &'static str, Option<u64>, u64) {
    match spec.build() {
        Err(e @ TopoError::TooLarge { quantity, count, limit, .. }) => {
            (e.to_string(), quantity, count, limit)
        }
        Err(e) => panic!("{spec:?}: not TooLarge: {e}"),
        Ok(_) => panic!("{spec:?} was built"),
    }
}

/// Guards Goal 2: every family refuses sizes beyond the limits from its parameters alone,
/// with what was asked, the count, the limit and why. Before, these aborted on allocations of
/// up to tens of GB (a 1000-ary 3-cube needed 48 GB), so merely returning here shows the
/// check comes first; the counts are independent values (products of the parameters).
#[test]
fn impossible_sizes_are_refused_before_allocating() {
    let (t, r, c, tb) = ("terminals", "routers", "directed channels", "bytes");
    let modules = |nodes, factors: Vec<u32>| {
        let m = factors.iter().product();
        let split = ModuleSplit { inter_bits: vec![8; factors.len()], factors, intra_bits: 8, dilation: 1 };
        Shape::ModularButterfly { nodes, modules: m, split }
    };
    let cases: Vec<(Shape, &str, Option<u64>, u64)> = vec![
        (cube(vec![1000; 3], true, false), t, Some(1_000_000_000), MAX_TERMINALS),
        (cube(vec![4096, 8192], true, true), t, Some(1 << 25), MAX_TERMINALS),
        (cube(vec![2; 64], true, false), t, None, MAX_TERMINALS),
        (cube(vec![256; 3], true, true), c, Some(6 << 24), MAX_CHANNELS),
        (Shape::Hypercube { n: 31, order: DimensionOrder::HighestFirst }, t, Some(1 << 31), MAX_TERMINALS),
        (Shape::Hypercube { n: 22, order: DimensionOrder::HighestFirst }, c, Some(22 << 22), MAX_CHANNELS),
        (Shape::Crossbar { nodes: u32::MAX }, t, Some(u32::MAX as u64), MAX_TERMINALS),
        (Shape::FatTree { nodes: 1 << 30 }, t, Some(1 << 30), MAX_TERMINALS),
        (
            Shape::Midimew { nodes: u32::MAX, routing: CirculantRouting::Table },
            t,
            Some(u32::MAX as u64),
            MAX_TERMINALS,
        ),
        (Shape::Circulant { nodes: (1 << 24) + 2, a: 1, b: 2 }, t, Some((1 << 24) + 2), MAX_TERMINALS),
        (
            Shape::Multistage { k: 2, stages: 25, wiring: StageWiring::Butterfly },
            t,
            Some(1 << 25),
            MAX_TERMINALS,
        ),
        (Shape::Multistage { k: 2, stages: 21, wiring: StageWiring::Omega }, r, Some(21 << 20), MAX_ROUTERS),
        (
            Shape::Multistage { k: 16, stages: 6, wiring: StageWiring::Butterfly },
            c,
            Some(5 << 24),
            MAX_CHANNELS,
        ),
        (Shape::Multistage { k: u32::MAX, stages: 3, wiring: StageWiring::Omega }, t, None, MAX_TERMINALS),
        (
            Shape::NHop { factors: vec![1000; 3], per_router: 1, width: 1 },
            t,
            Some(1_000_000_000),
            MAX_TERMINALS,
        ),
        (Shape::NHop { factors: vec![8193], per_router: 1, width: 1 }, c, Some(8193 * 8192), MAX_CHANNELS),
        (Shape::Ccc { n: 20 }, t, Some(20 << 20), MAX_TERMINALS),
        (Shape::Ccc { n: 64 }, t, None, MAX_TERMINALS),
        (
            Shape::XbarModules { per_module: 1 << 20, factors: vec![32], intra_bits: 8, inter_bits: vec![8] },
            t,
            Some(1 << 25),
            MAX_TERMINALS,
        ),
        (
            Shape::XbarModules {
                per_module: 1,
                factors: vec![4096, 4096],
                intra_bits: 8,
                inter_bits: vec![8, 8],
            },
            c,
            Some((1 << 24) * 8190),
            MAX_CHANNELS,
        ),
        (modules(1 << 25, vec![32]), t, Some(1 << 25), MAX_TERMINALS),
        // 2^24 rows of one processor in 4096 modules of 4096 rows: 24 stages of 2^23 switches.
        (modules(1 << 24, vec![4096]), r, Some(24 << 23), MAX_ROUTERS),
        (Shape::Table { of: Box::new(cube(vec![128, 128], true, false)) }, tb, Some(1 << 28), TABLE_LIMIT),
    ];
    for (spec, quantity, count, limit) in cases {
        let (text, q, n, l) = too_large(&spec);
        assert_eq!((q, n, l), (quantity, count, limit), "{spec:?}");
        let asked = count.map_or("more than 2^64".to_string(), |n| n.to_string());
        assert!(text.contains(&format!("{asked} {quantity}")), "{text}");
        assert!(text.contains(&format!("at most {limit} = 2^{}", limit.trailing_zeros())), "{text}");
    }
}

/// Verifies that channel widths above the 16-bit field are refused rather than truncated.
#[test]
fn widths_beyond_sixteen_bits_are_refused() {
    let e = Hamming::new(&[4, 4], &[1, 70_000]).unwrap_err().to_string();
    assert!(e.contains("70000 flits per cycle") && e.contains("1..=65535"), "{e}");
    let e = XbarModules::new(4, &[4], 1, &[1 << 20]).unwrap_err().to_string();
    assert!(e.contains("1048576 flits per cycle"), "{e}");
    assert!(Hamming::new(&[4, 4], &[1, 65_535]).is_ok());
}

/// Large builds within the limits: each is linear in its size (these run in about a second
/// all together in the test profile), counts are the families' formulas, and routes on them
/// are as long as their distances, which exercises the arithmetic channel lookup far from
/// router 0.
#[test]
fn large_networks_within_the_limits_build() {
    // A ring of 2^20 nodes, both ways round.
    for bi in [false, true] {
        let ring = KaryNCube::new(CubeSpec::ring(1 << 20, bi), DimensionOrder::HighestFirst).unwrap();
        assert_eq!(ring.network().channels().len(), (1 << 20) * if bi { 2 } else { 1 });
        let (s, d) = (1 << 19, (1 << 19) + 1000);
        assert_eq!(walk(ring.network(), &ring, s, d, 0, 0), 1000);
        assert_eq!(walk(ring.network(), &ring, d, s, 0, 0), if bi { 1000 } else { (1 << 20) - 1000 });
    }
    // A 2^24-node torus (the largest allowed) and a mesh of 2^20 nodes.
    let torus = KaryNCube::new(CubeSpec::torus(4096, 2), DimensionOrder::LowestFirst).unwrap();
    assert_eq!(torus.network().channels().len(), 1 << 25);
    let (s, d) = (4096 * 4000 + 17, 4096 * 3 + 4095);
    assert_eq!(walk(torus.network(), &torus, s, d, 0, 0), torus.distance(s, d));
    let mesh = KaryNCube::new(
        CubeSpec { radices: vec![1024, 1024], wrap: false, bidirectional: true },
        DimensionOrder::HighestFirst,
    )
    .unwrap();
    let (s, d) = (1024 * 1000 + 3, 1024 * 7 + 1000);
    assert_eq!(walk(mesh.network(), &mesh, s, d, 7, 0), 993 + 997);
    // Fat-tree 4^10, butterfly 2^20, Midimew 2^20, CCC(16), K_4096, crossbar of 2^24.
    let ft = FatTree::new(1 << 20).unwrap();
    assert_eq!(ft.network().routers(), (1..=10).map(|l| (1u32 << 20) >> (l + 1)).sum::<u32>());
    assert_eq!(walk(ft.network(), &ft, 5, (1 << 20) - 5, 1, 1), 18);
    let bf = Indirect::new(2, 20, StageWiring::Butterfly).unwrap();
    assert_eq!((bf.network().routers(), bf.network().channels().len()), (20 << 19, 19 << 20));
    assert_eq!(walk(bf.network(), &bf, 12345, 987_654, 0, 0), 19);
    let mm = Circulant::midimew(1 << 20, CirculantRouting::Record).unwrap();
    let far = mm.generators().1 * 300 + 5;
    assert_eq!(walk(mm.network(), &mm, 77, 77 + far, 0, 0), mm.distance(77, 77 + far));
    let ccc = Ccc::new(16).unwrap();
    assert_eq!(ccc.network().routers(), 16 << 16);
    assert_eq!(walk(ccc.network(), &ccc, 0, (16 << 16) - 1, 0, 0), ccc.distance(0, (16 << 16) - 1));
    let k = Hamming::new(&[4096], &[]).unwrap();
    assert_eq!(k.network().channels().len(), 4096 * 4095);
    assert_eq!(walk(k.network(), &k, 4095, 0, 0, 0), 1);
    let xbar = XbarModules::new(1 << 24, &[], 1, &[]).unwrap();
    assert_eq!((xbar.network().terminals(), xbar.network().routers()), (1 << 24, 1));
    assert_eq!(xbar.network().eject_router((1 << 24) - 1), 0);
}
