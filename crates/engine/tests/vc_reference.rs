//! Verification: the virtual-channel router's fast path ([`vc::run`]) and its flit-by-flit
//! reference ([`vc_reference::run`]) give identical [`Outcome`]s (and so do the ideal switch's
//! fast path grouping a cycle's events by router and taking them in salt order,
//! [`ideal::run_as`], on the same cases) — every field, the deadlock
//! report, the buffer occupancy and the class service included — on random small networks of
//! every family, under every switching, deadlock avoidance and arbitration the spec layer
//! accepts, with the pipeline as r alone or as stages (speculative or not), injection and
//! ejection channels of 0 to 2 cycles, ejection one packet at a time or one per VC, both
//! dateline class rules, every switch allocator and both VC choices, from light load to past saturation, with replies and
//! threads on some.
//!
//! The cases respect the validity rules of the spec layer (`netwrap_sim`'s
//! `RouterSpec::resolve` and `reply_classes`): `vct` and `saf` need buffer ≥ packet; Bubble
//! flow control and escape routing need `vct`, and buffer ≥ 2 × packet where routes go round
//! rings; a dateline and escape routing need two VCs or more; replies on the request network
//! need two VCs (four with a dateline or escape routing); replies on a separate network only
//! without deadlock avoidance; buffer ≥ packet where a packet may leave a router on a channel
//! wider than the one it came in on (Raghunath & Ranade's two-level networks, drawn with
//! channels and terminals' links of 1 to 4 flits).

use netwrap_engine::traffic::{MessageSize, Pattern};
use netwrap_engine::{
    Allocator, Arbitration, Arrivals, Avoidance, DatelineClass, Ejection, Interval, Jobs, Memories, Outcome,
    Record, RunSpec, Stages, StopReason, StopRule, Switching, VcChoice, VcParams, ideal, vc, vc_reference,
};
use netwrap_topo::{
    CirculantRouting, DimensionOrder, Family, GlobalArrangement, Legs, Network, PathChoice, Paths, Routing,
    Shape, StageWiring, TableRouted, Topology, UpPort, Via, Visitor,
};
use proptest::prelude::*;

/// One random case: a network and a run.
#[derive(Clone, Debug)]
struct Case {
    shape: Shape,
    p: VcParams,
    spec: RunSpec,
    uniform_others: bool,
}

fn order() -> impl Strategy<Value = DimensionOrder> {
    prop_oneof![Just(DimensionOrder::HighestFirst), Just(DimensionOrder::LowestFirst)]
}

/// Tori of one or two dimensions (rings when one), uni- or bidirectional, with one or two
/// terminals per router.
fn torus() -> impl Strategy<Value = Shape> {
    (any::<bool>(), 1..=2usize, 2..=5u32, order(), 1..=2u32).prop_map(
        |(bidirectional, n, k, order, concentration)| Shape::Cube {
            radices: vec![if bidirectional { k.max(3) } else { k }; n],
            wrap: true,
            bidirectional,
            order,
            concentration,
        },
    )
}

/// A longer ring, uni- or bidirectional.
fn ring() -> impl Strategy<Value = Shape> {
    (any::<bool>(), 3..=8u32).prop_map(|(bidirectional, k)| Shape::Cube {
        radices: vec![k],
        wrap: true,
        bidirectional,
        order: DimensionOrder::HighestFirst,
        concentration: 1,
    })
}

fn mesh() -> impl Strategy<Value = Shape> {
    (1..=2usize, 2..=5u32, order(), 1..=3u32).prop_map(|(n, k, order, concentration)| Shape::Cube {
        radices: vec![k; n],
        wrap: false,
        bidirectional: true,
        order,
        concentration,
    })
}

fn hypercube() -> impl Strategy<Value = Shape> {
    (2..=5u32, order()).prop_map(|(n, order)| Shape::Hypercube { n, order })
}

fn midimew(record: bool) -> impl Strategy<Value = Shape> {
    let routing = if record { CirculantRouting::Record } else { CirculantRouting::Table };
    (4..=32u32).prop_map(move |nodes| Shape::Midimew { nodes, routing })
}

fn circulant() -> impl Strategy<Value = Shape> {
    (5..=16u32).prop_flat_map(|nodes| (2..=nodes / 2).prop_map(move |b| Shape::Circulant { nodes, a: 1, b }))
}

fn multistage() -> impl Strategy<Value = Shape> {
    (2..=3u32, 2..=4u32, prop_oneof![Just(StageWiring::Butterfly), Just(StageWiring::Omega)]).prop_map(
        |(k, stages, wiring)| Shape::Multistage {
            k,
            stages: if k == 3 { stages.min(3) } else { stages },
            wiring,
        },
    )
}

/// Families without rings or coordinates: fat-trees (butterfly and XGFT), complete graphs,
/// n-hop networks and HyperX, dragonflies, Slim Flies, cube-connected cycles, crossbars.
fn others() -> impl Strategy<Value = Shape> {
    prop_oneof![
        prop_oneof![Just(4u32), Just(16), Just(64)].prop_map(|nodes| Shape::FatTree { nodes }),
        (prop::collection::vec(2..=4u32, 1..=2), 1..=2u32, 1..=2u32)
            .prop_map(|(factors, per_router, width)| Shape::NHop { factors, per_router, width }),
        (1..=2u32, prop_oneof![Just(UpPort::Random), Just(UpPort::Adaptive), Just(UpPort::Dmodk)]).prop_map(
            |(levels, up_port)| Shape::Xgft {
                children: vec![2; levels as usize + 1],
                parents: [vec![1], vec![2; levels as usize]].concat(),
                up_port
            }
        ),
        (1..=2u32).prop_map(|p| Shape::SlimFly { q: 3, p }),
        (1..=2u32).prop_map(|p| Shape::Dragonfly {
            p,
            a: 2 * p,
            h: p,
            groups: 2 * p * p + 1,
            arrangement: GlobalArrangement::Absolute
        }),
        (3..=4u32).prop_map(|n| Shape::Ccc { n }),
        (2..=8u32).prop_map(|nodes| Shape::Crossbar { nodes }),
    ]
}

/// Raghunath & Ranade's two-level networks, whose channels and terminals' links may be wider
/// than a flit and differ from hop to hop: butterflies split into 2 or 4 modules (intra-module
/// channels 1, 2 or 4 flits wide, dilated 1 or 2 ways; inter-module ones 1 or 2 flits per row)
/// and crossbar modules.
fn wide() -> impl Strategy<Value = Shape> {
    use netwrap_topo::ModuleSplit;
    prop_oneof![
        (
            prop_oneof![Just(2u32), Just(4)],
            1..=2u32,
            prop_oneof![Just(8u32), Just(16), Just(32)],
            1..=2u32,
            1..=2u32
        )
            .prop_map(|(modules, per_row, intra_bits, inter, dilation)| Shape::ModularButterfly {
                nodes: modules * modules * per_row,
                modules,
                // A K_m edge is shared by the module's m rows: 8 bits a row per flit.
                split: ModuleSplit {
                    factors: vec![modules],
                    intra_bits,
                    inter_bits: vec![8 * modules * inter],
                    dilation
                },
            }),
        (
            1..=3u32,
            prop_oneof![Just(vec![2u32]), Just(vec![3]), Just(vec![2, 2])],
            prop_oneof![Just(8u32), Just(16), Just(32)],
            1..=2u32
        )
            .prop_map(|(per_module, factors, intra_bits, inter)| Shape::XbarModules {
                per_module,
                inter_bits: vec![8 * inter; factors.len()],
                factors,
                intra_bits,
            }),
    ]
}

/// Every family under its own routing.
fn any_family() -> impl Strategy<Value = Shape> {
    prop_oneof![
        torus(),
        ring(),
        mesh(),
        hypercube(),
        midimew(false),
        midimew(true),
        circulant(),
        multistage(),
        others(),
        wide()
    ]
}

/// Non-minimal paths on direct networks: Valiant and UGAL (local and global) through a random
/// router on tori, meshes, hypercubes, HyperX and Slim Flies, and on dragonflies also through a
/// group and PAR; DAL on HyperX; no avoidance, `phases`, or on dragonflies `dest-group`.
fn nonminimal() -> impl Strategy<Value = (Shape, Avoidance, Paths)> {
    let choice =
        prop_oneof![Just(PathChoice::Valiant), Just(PathChoice::UgalLocal), Just(PathChoice::UgalGlobal)];
    let direct =
        prop_oneof![
            torus(),
            mesh(),
            hypercube(),
            (prop::collection::vec(2..=4u32, 1..=2), 1..=2u32)
                .prop_map(|(factors, per_router)| Shape::NHop { factors, per_router, width: 1 }),
            (1..=2u32).prop_map(|p| Shape::SlimFly { q: 3, p }),
        ];
    let dragonfly = (1..=2u32).prop_map(|p| Shape::Dragonfly {
        p,
        a: 2 * p,
        h: p,
        groups: 2 * p * p + 1,
        arrangement: GlobalArrangement::Absolute,
    });
    let hyperx = (prop::collection::vec(2..=4u32, 1..=3), 1..=2u32)
        .prop_map(|(factors, per_router)| Shape::NHop { factors, per_router, width: 1 });
    prop_oneof![
        (hyperx, prop_oneof![Just(Avoidance::None), Just(Avoidance::Phases)], 0..=8u32).prop_map(
            |(shape, deadlock, threshold)| (
                shape,
                deadlock,
                Paths { choice: PathChoice::Dal, via: Via::Router, threshold }
            )
        ),
        (direct, choice.clone(), prop_oneof![Just(Avoidance::None), Just(Avoidance::Phases)], 0..=8u32)
            .prop_map(|(shape, choice, deadlock, threshold)| (
                shape,
                deadlock,
                Paths { choice, via: Via::Router, threshold }
            )),
        (
            dragonfly,
            prop_oneof![choice, Just(PathChoice::Par)],
            prop_oneof![Just(Via::Group), Just(Via::Router)],
            prop_oneof![Just(Avoidance::None), Just(Avoidance::Phases), Just(Avoidance::DestGroup)],
            0..=8u32
        )
            .prop_map(|(shape, choice, via, deadlock, threshold)| (
                shape,
                deadlock,
                Paths { choice, via, threshold }
            )),
    ]
}

/// A network, a deadlock avoidance it admits and the paths messages take.
fn network() -> impl Strategy<Value = (Shape, Avoidance, Paths)> {
    prop_oneof![4 => minimal().prop_map(|(s, a)| (s, a, Paths::default())), 1 => nonminimal()]
}

/// A network and a deadlock avoidance it admits, routed minimally.
fn minimal() -> impl Strategy<Value = (Shape, Avoidance)> {
    let table = prop_oneof![torus(), mesh(), hypercube(), multistage(), others()]
        .prop_map(|of| Shape::Table { of: Box::new(of) });
    prop_oneof![
        3 => prop_oneof![3 => any_family(), 1 => table].prop_map(|s| (s, Avoidance::None)),
        2 => prop_oneof![torus(), ring()].prop_map(|s| (s, Avoidance::Dateline)),
        2 => prop_oneof![torus(), ring(), midimew(true)].prop_map(|s| (s, Avoidance::Bubble)),
        2 => prop_oneof![torus(), ring(), mesh(), hypercube(), midimew(false), midimew(true)]
            .prop_map(|s| (s, Avoidance::Escape)),
        2 => any_family()
            .prop_map(|of| Shape::UpDown { of: Box::new(of) })
            .prop_filter("up*/down* needs a legal route for every pair", |s| s.build().is_ok())
            .prop_map(|s| (s, Avoidance::Updown)),
    ]
}

/// Whether routes on `shape` go round rings (Bubble flow control and escape routing then
/// need room for two packets).
fn has_rings(shape: &Shape) -> bool {
    matches!(shape, Shape::Cube { wrap: true, .. } | Shape::Midimew { .. })
}

/// Whether every terminal is delivered where it injects (replies can share the network).
fn direct(net: &Network) -> bool {
    (0..net.terminals()).all(|t| net.inject_router(t) == net.eject_router(t))
}

#[derive(Clone, Debug)]
struct Knobs {
    switching: Switching,
    arbitration: Arbitration,
    vcs: u32,
    extra_buffer: u32,
    packet: u32,
    router_delay: u32,
    /// The pipeline as stages instead of r alone, and the terminals' channels' latencies.
    stages: Option<Stages>,
    terminal_latencies: (u32, u32),
    ejection: Ejection,
    dateline_class: DatelineClass,
    allocator: Allocator,
    vc_choice: VcChoice,
    /// Output buffers (flits beyond the least the case admits) and the input and output
    /// speedups (taken where the allocator and output buffers admit them).
    output_buffer: Option<u32>,
    speedups: (u32, u32),
    link_latency: u32,
    size: MessageSize,
    /// Offered flits per node per cycle.
    load: f64,
    arrivals: u8,
    threads: u32,
    replies: Option<(u64, u32)>,
    warmup: u64,
    messages: u64,
    max_cycles: u64,
    seed: u64,
    stop: u8,
    uniform_others: bool,
}

fn knobs() -> impl Strategy<Value = Knobs> {
    let router = (
        prop_oneof![Just(Switching::Wormhole), Just(Switching::Vct), Just(Switching::Saf)],
        prop_oneof![Just(Arbitration::RoundRobin), Just(Arbitration::OldestFirst)],
        1..=4u32,
        0..=8u32,
        1..=4u32,
        0..=3u32,
        1..=3u32,
    );
    let size = prop_oneof![
        4 => (1..=10u32).prop_map(MessageSize::Fixed),
        1 => (1..=4u32, 5..=12u32, 0.1..0.5f64)
            .prop_map(|(short, long, long_fraction)| MessageSize::Bimodal { short, long, long_fraction }),
    ];
    let workload = (
        size,
        prop_oneof![0.01..0.2f64, 0.2..1.5f64],
        0..10u8,
        1..=3u32,
        prop::option::weighted(0.25, (0..=4u64, 0..=4u32)),
    );
    let run = (0..=300u64, 10..=250u64, 2_000..=8_000u64, any::<u64>(), 0..11u8, any::<bool>());
    let stages = (
        prop::option::weighted(
            0.3,
            (0..=2u32, 0..=2u32, 0..=2u32, 0..=2u32, any::<bool>()).prop_map(
                |(routing, vc_alloc, switch_alloc, traversal, speculative)| Stages {
                    routing,
                    vc_alloc,
                    switch_alloc,
                    traversal,
                    speculative,
                },
            ),
        ),
        prop_oneof![3 => Just((0u32, 0u32)), 1 => (0..=2u32, 0..=2u32)],
        prop_oneof![Just(Ejection::OnePacket), Just(Ejection::EveryVc)],
        prop_oneof![Just(DatelineClass::AtWrap), Just(DatelineClass::ByRoute)],
        prop_oneof![
            Just(Allocator::Greedy),
            Just(Allocator::InputFirst),
            Just(Allocator::OutputFirst),
            Just(Allocator::Islip)
        ],
        prop_oneof![Just(VcChoice::Lowest), Just(VcChoice::Rotating)],
        (
            prop::option::weighted(0.3, 0..=6u32),
            prop_oneof![3 => Just((1u32, 1u32)), 1 => (1..=3u32, 1..=3u32)],
        ),
    );
    (router, workload, run, stages).prop_map(
        |(
            (switching, arbitration, vcs, extra_buffer, packet, router_delay, link_latency),
            (size, load, arrivals, threads, replies),
            (warmup, messages, max_cycles, seed, stop, uniform_others),
            (
                stages,
                terminal_latencies,
                ejection,
                dateline_class,
                allocator,
                vc_choice,
                (output_buffer, speedups),
            ),
        )| Knobs {
            switching,
            arbitration,
            vcs,
            extra_buffer,
            packet,
            // With stages, r is their switch allocation plus traversal.
            router_delay: stages.map_or(router_delay, |s| s.switch_alloc + s.traversal),
            stages,
            terminal_latencies,
            ejection,
            dateline_class,
            allocator,
            vc_choice,
            output_buffer,
            speedups,
            link_latency,
            size,
            load,
            arrivals,
            threads,
            replies,
            warmup,
            messages,
            max_cycles,
            seed,
            stop,
            uniform_others,
        },
    )
}

/// A valid case: the knobs bent to what the network and avoidance admit.
fn case() -> impl Strategy<Value = Case> {
    (network(), knobs()).prop_map(|((shape, deadlock, paths), k)| {
        let switching = match deadlock {
            Avoidance::Bubble | Avoidance::Escape => Switching::Vct,
            _ => k.switching,
        };
        let built = shape.build().expect("a valid shape");
        let indirect = !direct(built.network());
        // Replies on the request network (direct networks), or on a network of their own
        // (indirect ones, without deadlock avoidance).
        let replies = k.replies.filter(|_| !indirect || deadlock == Avoidance::None);
        let split = replies.is_some_and(|(_, size)| size > 0) && !indirect;
        let classes = match deadlock {
            Avoidance::Phases => Legs::new(paths, built.network(), built.groups()).phase_classes(),
            Avoidance::Dateline | Avoidance::Escape | Avoidance::DestGroup => 2,
            _ => 1,
        };
        let min_vcs = if split { 2 * classes } else { classes };
        // Replies on a network of their own run on the joined network's channels.
        let split_network = indirect && replies.is_some_and(|(_, size)| size > 0);
        let packet = k.packet;
        let min_buffer = match deadlock {
            Avoidance::Bubble => 2 * packet,
            Avoidance::Escape if has_rings(&shape) => 2 * packet,
            _ if switching != Switching::Wormhole || vc::widening(built.network()).is_some() => packet,
            _ => 1,
        };
        // Output buffers need the input buffers' least room (a flit, a packet, or two for a
        // ring's entry); speedups greater than one need the greedy allocator, and an output
        // speedup output buffers.
        let output_buffer = k.output_buffer.map_or(0, |extra| min_buffer + extra);
        let greedy = k.allocator == Allocator::Greedy;
        let input_speedup = if greedy { k.speedups.0 } else { 1 };
        let output_speedup = if greedy && output_buffer > 0 { k.speedups.1 } else { 1 };
        let p = VcParams {
            vcs: k.vcs.max(min_vcs),
            buffer: min_buffer + k.extra_buffer,
            output_buffer,
            input_speedup,
            output_speedup,
            router_delay: k.router_delay,
            stages: k.stages,
            injection_latency: k.terminal_latencies.0,
            ejection_latency: k.terminal_latencies.1,
            ejection: k.ejection,
            dateline_class: k.dateline_class,
            allocator: k.allocator,
            vc_choice: k.vc_choice,
            link_latency: k.link_latency,
            packet,
            switching,
            arbitration: k.arbitration,
            deadlock,
        };
        let rate = (k.load / k.size.mean()).min(1.0);
        let arrivals = match k.arrivals {
            0..=6 => Arrivals::bernoulli(rate),
            7 => Arrivals::Open { rate, interval: Interval::Periodic, on_off: None },
            _ => Arrivals::Threads { rate, interval: Interval::Geometric, threads: k.threads },
        };
        let stop = match k.stop {
            0..=6 => StopRule::drain(),
            // A saturated run's window (it may stop before its measured messages drain).
            7 | 8 => StopRule {
                saturated: true,
                window: 100 + k.seed % 400,
                deliveries: 10 + k.seed % 40,
                deadline: k.warmup + 300 + k.seed % 1500,
                in_flight_limit: u64::MAX,
                watch: false,
            },
            // The falling-behind watch, checked every 50 to 250 cycles.
            10 => StopRule { watch: true, window: 50 + k.seed % 200, deliveries: 10, ..StopRule::drain() },
            _ => StopRule { in_flight_limit: 20 + k.seed % 100, ..StopRule::drain() },
        };
        let spec = RunSpec {
            arrivals,
            size: k.size,
            memories: replies.map(|(latency, reply_size)| Memories {
                latency,
                reply_size,
                joined: indirect && reply_size > 0,
            }),
            warmup: k.warmup,
            messages: k.messages,
            max_cycles: k.max_cycles,
            seed: k.seed,
            stop,
            record: Record { messages: true, channels: true, ..Record::default() },
            paths,
            groups: built.groups(),
            // A third of the cases give each channel its own latency, 1 to 4 cycles.
            channel_latency: if k.seed % 3 == 0 && !split_network {
                (0..built.network().channels().len() as u64)
                    .map(|c| 1 + ((k.seed >> 8) ^ c.wrapping_mul(0x9E37)) as u32 % 4)
                    .collect()
            } else {
                Vec::new()
            },
        };
        Case { shape, p, spec, uniform_others: k.uniform_others }
    })
}

/// Both engines on one network and routing.
/// (The fast path takes its large-network paths — prefetches, flits landing by block of 64
/// routers, a shared pool of flit chunks — in half the cases, and runs as one, two or three
/// shards, by the seed.)
fn both<R: Routing + Sync>(net: &Network, routing: &R, pattern: &Pattern, c: &Case) -> (Outcome, Outcome) {
    let large = c.spec.seed % 2 == 1;
    let shards = 1 + (c.spec.seed >> 1) as usize % 3;
    (
        vc::run_as(net, routing, pattern, &c.spec, &c.p, Some(large), shards),
        vc_reference::run(net, routing, pattern, &c.spec, &c.p),
    )
}

struct Both<'a>(&'a Case, &'a Pattern);

impl Visitor for Both<'_> {
    type Output = (Outcome, Outcome);
    fn visit<F: Family>(self, f: &F) -> (Outcome, Outcome) {
        both(f.network(), f, self.1, self.0)
    }
}

/// The ideal switch's fast path with a cycle's events grouped by router (on one, two or three
/// shards, by the seed) and in salt order (on one; the order the tests of `netwrap-sim` check
/// against the flit-by-flit reference), on one network and routing.
fn both_ideal<R: Routing + Sync>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    c: &Case,
) -> (Outcome, Outcome) {
    let mut spec = c.spec.clone();
    spec.record.jobs = Jobs::Exactly(1 + (c.spec.seed >> 1) as u32 % 3);
    let mut one = c.spec.clone();
    one.record.jobs = Jobs::Exactly(1);
    (
        ideal::run_as(net, routing, pattern, &spec, Some(true)),
        ideal::run_as(net, routing, pattern, &one, Some(false)),
    )
}

struct BothIdeal<'a>(&'a Case, &'a Pattern);

impl Visitor for BothIdeal<'_> {
    type Output = (Outcome, Outcome);
    fn visit<F: Family>(self, f: &F) -> (Outcome, Outcome) {
        both_ideal(f.network(), f, self.1, self.0)
    }
}

/// Runs `c` on both engines: the VC router's, or with `ideal` the ideal switch's.
fn run_on(c: &Case, ideal: bool) -> (Outcome, Outcome) {
    let topology: Topology = c.shape.build().expect("a valid shape");
    let n = topology.network().terminals();
    let pattern = if c.uniform_others && n >= 2 { Pattern::UniformOthers(n) } else { Pattern::Uniform(n) };
    if c.spec.memories.is_some_and(|m| m.joined) {
        // Replies travel on the network reversed, joined to it and routed by a table.
        let net = topology.network();
        let joined = TableRouted::joined(net.joined(&net.reversed())).expect("the joined network");
        return if ideal {
            both_ideal(joined.network(), &joined, &pattern, c)
        } else {
            both(joined.network(), &joined, &pattern, c)
        };
    }
    if ideal { topology.visit(BothIdeal(c, &pattern)) } else { topology.visit(Both(c, &pattern)) }
}

/// Runs `c` on both VC engines.
fn run(c: &Case) -> (Outcome, Outcome) {
    run_on(c, false)
}

/// Fails naming the first field in which the outcomes differ.
fn assert_same(fast: &Outcome, reference: &Outcome) {
    if fast == reference {
        return;
    }
    let fields = [
        (
            "end, stop",
            format!("{:?}", (fast.end, fast.stop)),
            format!("{:?}", (reference.end, reference.stop)),
        ),
        ("deadlock", format!("{:?}", fast.deadlock), format!("{:?}", reference.deadlock)),
        ("messages", format!("{:?}", fast.messages), format!("{:?}", reference.messages)),
        ("packets", format!("{:?}", fast.packets), format!("{:?}", reference.packets)),
        ("channel busy", format!("{:?}", fast.channel_busy), format!("{:?}", reference.channel_busy)),
        ("occupancy", format!("{:?}", fast.vc_occupancy), format!("{:?}", reference.vc_occupancy)),
        ("service", format!("{:?}", fast.channel_service), format!("{:?}", reference.channel_service)),
        ("accesses", format!("{:?}", fast.accesses), format!("{:?}", reference.accesses)),
        ("flit hops", format!("{}", fast.flit_hops), format!("{}", reference.flit_hops)),
        (
            "totals",
            format!("{:?}", (fast.messages_total, fast.in_flight)),
            format!("{:?}", (reference.messages_total, reference.in_flight)),
        ),
    ];
    for (name, a, b) in fields {
        assert_eq!(a, b, "{name} differ");
    }
    panic!("the outcomes differ: fast {fast:?}\nreference {reference:?}");
}

proptest! {
    // About 8 s on one core of the dev profile (optimised). A failure prints the case; there is
    // no regression file (an integration test has no source root for one).
    #![proptest_config(ProptestConfig { cases: 1536, failure_persistence: None, ..ProptestConfig::default() })]

    /// Verification: identical outcomes on random small cases (see the module docs): networks
    /// of up to 64 terminals, 1 to 4 VCs, buffers of 1 to 16 flits, packets of 1 to 4, router
    /// delays 0 to 3, link latencies 1 to 3, offered loads of 0.01 to 1.5 flits per node per
    /// cycle, 10 to 250 measured messages, and every stop rule (drained, saturated window,
    /// falling behind, in-flight limit, cycle limit, deadlock).
    #[test]
    fn fast_path_matches_the_reference(c in case()) {
        let (fast, reference) = run(&c);
        assert_same(&fast, &reference);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Verification: the ideal switch's fast path with a cycle's events grouped by router
    /// (the order it takes on large networks, forced here on small ones) gives the same outcome
    /// as in salt order on the same random cases (the VC router's parameters unused).
    #[test]
    fn ideal_switch_grouped_by_router_matches_salt_order(c in case()) {
        let (fast, reference) = run_on(&c, true);
        assert_same(&fast, &reference);
    }
}

/// Verification: runs that deadlock — one VC on tori and rings without avoidance, wormhole and
/// cut-through, heavy uniform load — stop on the same cycle with the same cycle of waits on
/// both engines.
#[test]
fn deadlocks_are_reported_alike() {
    let mut deadlocks = 0;
    for (i, (radices, bidirectional, switching)) in [
        (vec![4], false, Switching::Wormhole),
        (vec![6], true, Switching::Wormhole),
        (vec![4, 4], false, Switching::Wormhole),
        (vec![3, 3], true, Switching::Vct),
        (vec![4, 4], false, Switching::Vct),
    ]
    .into_iter()
    .enumerate()
    {
        let p = VcParams {
            vcs: 1,
            buffer: 4,
            packet: 4,
            switching,
            deadlock: Avoidance::None,
            ..VcParams::DEFAULT
        };
        let c = cube_case(radices, true, bidirectional, p, (0.25, 8), (1000, 20_000), 11 + i as u64);
        let (fast, reference) = run(&c);
        assert_same(&fast, &reference);
        deadlocks += (fast.stop == StopReason::Deadlock) as u32;
    }
    assert!(deadlocks >= 3, "only {deadlocks} of the 5 runs deadlocked");
}

/// Verification: DAL under heavy uniform load on a 4 x 4 HyperX, wormhole and cut-through,
/// with its per-hop classes: the packets deroute (taken only when no minimal hop has a free
/// VC), and both engines agree on every one.
#[test]
fn dal_deroutes_alike() {
    for (i, switching) in [Switching::Wormhole, Switching::Vct].into_iter().enumerate() {
        let c = Case {
            shape: Shape::NHop { factors: vec![4, 4], per_router: 2, width: 1 },
            p: VcParams {
                vcs: 4,
                buffer: 4,
                packet: 4,
                switching,
                deadlock: Avoidance::Phases,
                ..VcParams::DEFAULT
            },
            spec: RunSpec {
                arrivals: Arrivals::bernoulli(0.2),
                size: MessageSize::Fixed(4),
                memories: None,
                warmup: 200,
                messages: 2000,
                max_cycles: 50_000,
                seed: 3 + i as u64,
                stop: StopRule::drain(),
                record: Record { messages: true, channels: true, ..Record::default() },
                paths: Paths { choice: PathChoice::Dal, via: Via::Router, threshold: 0 },
                groups: None,
                channel_latency: Vec::new(),
            },
            uniform_others: false,
        };
        let (fast, reference) = run(&c);
        assert_same(&fast, &reference);
        assert!(fast.measured.nonminimal > 0, "no packet derouted under {switching:?}");
        assert_eq!(fast.deadlock, None);
    }
}

/// Verification: networks of several blocks of 64 routers (a 16 x 16 bidirectional torus with a
/// dateline, a 12 x 12 mesh and a 10 x 10 torus with Bubble flow control) with the fast path's
/// large-network paths on — flits landing block by block just before their routers step —
/// agree with the reference.
#[test]
fn large_network_paths_match_the_reference() {
    for (i, (radices, wrap, deadlock, switching)) in [
        (vec![16, 16], true, Avoidance::Dateline, Switching::Wormhole),
        (vec![12, 12], false, Avoidance::None, Switching::Wormhole),
        (vec![10, 10], true, Avoidance::Bubble, Switching::Vct),
    ]
    .into_iter()
    .enumerate()
    {
        let vcs = if deadlock == Avoidance::Dateline { 2 } else { 1 };
        let p = VcParams { vcs, buffer: 8, packet: 4, switching, deadlock, ..VcParams::DEFAULT };
        // (Odd seeds: the large-network paths; see `both`.)
        let c = cube_case(radices, wrap, true, p, (0.05, 4), (1500, 50_000), 2 * i as u64 + 1);
        let (fast, reference) = run(&c);
        assert_same(&fast, &reference);
        assert_eq!(fast.deadlock, None);
    }
}

/// A drained run on a torus (`wrap`) or mesh of `radices` with router `p`: Bernoulli arrivals
/// of `load.0` messages of `load.1` flits per node per cycle, `run.0` messages measured after
/// 100 cycles of warm-up, at most `run.1` cycles.
fn cube_case(
    radices: Vec<u32>,
    wrap: bool,
    bidirectional: bool,
    p: VcParams,
    load: (f64, u32),
    run: (u64, u64),
    seed: u64,
) -> Case {
    Case {
        shape: Shape::Cube {
            radices,
            wrap,
            bidirectional,
            order: DimensionOrder::HighestFirst,
            concentration: 1,
        },
        p,
        spec: RunSpec {
            arrivals: Arrivals::bernoulli(load.0),
            size: MessageSize::Fixed(load.1),
            memories: None,
            warmup: 100,
            messages: run.0,
            max_cycles: run.1,
            seed,
            stop: StopRule::drain(),
            record: Record { messages: true, channels: true, ..Record::default() },
            paths: Default::default(),
            groups: None,
            channel_latency: Vec::new(),
        },
        uniform_others: false,
    }
}

/// `c` bent to the runs whose packets move as trains (`vc::run_trains`): one VC, virtual
/// cut-through, no stages, greedy allocation without speedup, minimal paths,
/// no replies on split VCs, and none, Bubble or up*/down* avoidance; `None` on a network with
/// a channel or terminal link wider than a flit.
fn as_trains(mut c: Case) -> Option<Case> {
    let built = c.shape.build().expect("a valid shape");
    let net = built.network();
    if net.terminal_width() > 1 || net.channels().iter().any(|ch| ch.width > 1) {
        return None;
    }
    let p = &mut c.p;
    p.vcs = 1;
    p.switching = Switching::Vct;
    if let Some(s) = p.stages.take() {
        p.router_delay = s.switch_alloc + s.traversal;
    }
    p.allocator = Allocator::Greedy;
    (p.input_speedup, p.output_speedup) = (1, 1);
    if !matches!(p.deadlock, Avoidance::Bubble | Avoidance::Updown) {
        p.deadlock = Avoidance::None;
    }
    let least = if p.deadlock == Avoidance::Bubble { 2 * p.packet } else { p.packet };
    p.buffer = p.buffer.max(least);
    if p.output_buffer > 0 {
        p.output_buffer = p.output_buffer.max(least);
    }
    c.spec.paths = Paths::default();
    if c.spec.memories.is_some_and(|m| !m.joined && m.reply_size > 0) {
        c.spec.memories = None;
    }
    Some(c)
}

/// The packet-by-packet path and the flit engine (one, two or three shards, by the seed) on one
/// network and routing; the packet-by-packet path's `None` (a run the deadlock watch stops)
/// stands for the flit engine's deadlock.
fn trains_and_flits<R: Routing + Sync>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    c: &Case,
) -> (Option<Outcome>, Outcome) {
    let shards = 1 + (c.spec.seed >> 1) as usize % 3;
    (
        vc::run_trains(net, routing, pattern, &c.spec, &c.p),
        vc::run_as(net, routing, pattern, &c.spec, &c.p, None, shards),
    )
}

struct TrainsAndFlits<'a>(&'a Case, &'a Pattern);

impl Visitor for TrainsAndFlits<'_> {
    type Output = (Option<Outcome>, Outcome);
    fn visit<F: Family>(self, f: &F) -> Self::Output {
        trains_and_flits(f.network(), f, self.1, self.0)
    }
}

/// Runs `c` packet by packet and flit by flit, and compares; returns the flit engine's outcome.
fn check_trains(c: &Case) -> Outcome {
    let topology: Topology = c.shape.build().expect("a valid shape");
    let n = topology.network().terminals();
    let pattern = if c.uniform_others && n >= 2 { Pattern::UniformOthers(n) } else { Pattern::Uniform(n) };
    let (trains, flits) = if c.spec.memories.is_some_and(|m| m.joined) {
        let net = topology.network();
        let joined = TableRouted::joined(net.joined(&net.reversed())).expect("the joined network");
        trains_and_flits(joined.network(), &joined, &pattern, c)
    } else {
        topology.visit(TrainsAndFlits(c, &pattern))
    };
    match &trains {
        Some(trains) => assert_same(trains, &flits),
        None => assert_eq!(
            flits.stop,
            StopReason::Deadlock,
            "the packet-by-packet path gave up on a run that ends"
        ),
    }
    flits
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    /// Verification: where packets move as trains (one VC, virtual cut-through; see
    /// `vc::run_trains`), the packet-by-packet path gives the flit engine's outcome, on the
    /// random cases above bent to its conditions.
    #[test]
    fn trains_match_the_flit_engine(c in case().prop_filter_map("wide channels", as_trains)) {
        check_trains(&c);
    }
}

/// Verification: on a network whose ports' state outgrows the caches (a 64x64 bidirectional
/// torus: 20,480 ports, past the packet-by-packet path's threshold for prefetching), the
/// packet-by-packet path gives the flit engine's outcome, with Bubble flow control and
/// without, with output buffers and without.
#[test]
fn trains_on_a_large_network_match_the_flit_engine() {
    for (i, (deadlock, output_buffer)) in
        [(Avoidance::Bubble, 0), (Avoidance::Bubble, 8), (Avoidance::None, 0)].into_iter().enumerate()
    {
        let p = VcParams {
            vcs: 1,
            buffer: 8,
            packet: 4,
            switching: Switching::Vct,
            deadlock,
            output_buffer,
            ..VcParams::DEFAULT
        };
        // (A light load: without Bubble the rings could deadlock, which the flit engine then
        // reports and the packet path gives up on, as `check_trains` allows.)
        let c = cube_case(vec![64, 64], true, true, p, (0.002, 4), (3_000, 100_000), 11 + i as u64);
        let flits = check_trains(&c);
        assert!(flits.packets.is_some_and(|p| p.delivered >= 3_000) || flits.stop == StopReason::Deadlock);
    }
}

/// Verification: on a crossbar (one router, every terminal on it) and a mesh with three
/// terminals a router, under heavy load, many packets' tails are ejected at one router in one
/// cycle; the packet-by-packet path delivers them as the flit engine does, both arbitrations.
/// (The crossbar of 100 has more input ports than a word of the asking bitset.)
#[test]
fn trains_eject_together_as_flits_do() {
    for (i, (shape, arbitration)) in [
        (Shape::Crossbar { nodes: 8 }, Arbitration::RoundRobin),
        (Shape::Crossbar { nodes: 8 }, Arbitration::OldestFirst),
        (Shape::Crossbar { nodes: 100 }, Arbitration::RoundRobin),
        (Shape::Crossbar { nodes: 100 }, Arbitration::OldestFirst),
        (
            Shape::Cube {
                radices: vec![3, 3],
                wrap: false,
                bidirectional: true,
                order: DimensionOrder::HighestFirst,
                concentration: 3,
            },
            Arbitration::RoundRobin,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let p = VcParams {
            vcs: 1,
            buffer: 8,
            packet: 2,
            switching: Switching::Vct,
            arbitration,
            ..VcParams::DEFAULT
        };
        let mut c = cube_case(vec![2], false, true, p, (0.3, 3), (400, 20_000), 5 + i as u64);
        c.shape = shape;
        c.spec.arrivals = Arrivals::Threads { rate: 0.3, interval: Interval::Geometric, threads: 2 };
        let flits = check_trains(&c);
        assert_eq!(flits.stop, StopReason::Drained);
        assert!(flits.packets.is_some_and(|p| p.delivered >= 400));
    }
}
