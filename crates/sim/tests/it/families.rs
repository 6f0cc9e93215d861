//! Every family simulated: the simulator's mean hop count matches the routes' exact mean and
//! the topology's average distance, utilisation matches the offered load per class, and no
//! message is lost.

use netwrap_sim::report::Verdict;
use netwrap_sim::{SimResult, SimSpec, simulate};
use netwrap_topo::{RoutingAlgorithm, RoutingSpec, TopologySpec, UpPort};

/// The busiest channel's load per unit message rate under an even split of every message over
/// the routing's candidates: the exact loads `netwrap topo` prints, a bound when the routing
/// leaves no choice to queue state (a run with adaptive routing reports none).
fn even_split_busiest(s: &SimSpec) -> f64 {
    let e = netwrap_sim::Experiment::build(&s.resolve().unwrap()).unwrap();
    e.facts().loads.as_ref().unwrap().iter().map(|g| g.max).fold(0.0, f64::max)
}

fn specs() -> Vec<(&'static str, TopologySpec, RoutingSpec)> {
    let family = RoutingSpec::default();
    let table = RoutingSpec { algorithm: RoutingAlgorithm::Table, ..Default::default() };
    let record = RoutingSpec { algorithm: RoutingAlgorithm::Record, ..Default::default() };
    let t = |json: &str| -> TopologySpec { serde_json::from_str(json).unwrap() };
    let up = |u: UpPort| RoutingSpec { up_port: Some(u), ..Default::default() };
    vec![
        ("torus 4x4", t(r#"{"family": "torus", "k": 4}"#), family.clone()),
        (
            "graph kite.csv (a pure switch, two terminals at a)",
            t(
                r#"{"family": "graph", "file": "../../examples/graphs/kite.csv", "terminals": "../../examples/graphs/kite-terminals.csv"}"#,
            ),
            family.clone(),
        ),
        (
            "bidirectional torus 5x4",
            t(r#"{"family": "torus", "radices": [5, 4], "bidirectional": true}"#),
            family.clone(),
        ),
        ("mesh 4x3", t(r#"{"family": "mesh", "radices": [4, 3]}"#), family.clone()),
        ("mesh 3x3, 3 per router", t(r#"{"family": "mesh", "k": 3, "concentration": 3}"#), family.clone()),
        (
            "torus 4x4, 2 per router",
            t(r#"{"family": "torus", "k": 4, "bidirectional": true, "concentration": 2}"#),
            family.clone(),
        ),
        ("ring 9", t(r#"{"family": "ring", "k": 9, "bidirectional": true}"#), family.clone()),
        ("hypercube 5", t(r#"{"family": "hypercube", "n": 5}"#), family.clone()),
        ("circulant C_20(3,7)", t(r#"{"family": "circulant", "nodes": 20, "a": 3, "b": 7}"#), family.clone()),
        ("midimew 32 (table)", t(r#"{"family": "midimew", "nodes": 32}"#), family.clone()),
        ("midimew 50 (record)", t(r#"{"family": "midimew", "nodes": 50}"#), record),
        ("butterfly 2^4", t(r#"{"family": "butterfly", "k": 2, "stages": 4}"#), family.clone()),
        ("omega 4^2", t(r#"{"family": "omega", "k": 4, "stages": 2}"#), family.clone()),
        ("fat-tree 64", t(r#"{"family": "fat-tree", "nodes": 64}"#), family.clone()),
        ("4-ary 3-tree (random up ports)", t(r#"{"family": "kary-ntree", "k": 4, "n": 3}"#), family.clone()),
        (
            "XGFT(3; 2,3,2; 1,2,3) (D-mod-k)",
            t(r#"{"family": "xgft", "children": [2, 3, 2], "parents": [1, 2, 3]}"#),
            up(UpPort::Dmodk),
        ),
        (
            "XGFT(2; 4,4; 1,2) (adaptive)",
            t(r#"{"family": "xgft", "children": [4, 4], "parents": [1, 2]}"#),
            up(UpPort::Adaptive),
        ),
        ("complete 8", t(r#"{"family": "complete", "nodes": 8}"#), family.clone()),
        ("2-hop K4 x K8", t(r#"{"family": "nhop", "factors": [4, 8]}"#), family.clone()),
        ("HyperX 3x4, p = 2", t(r#"{"family": "hyperx", "sizes": [3, 4], "p": 2}"#), family.clone()),
        ("CCC(3)", t(r#"{"family": "ccc", "n": 3}"#), family.clone()),
        ("crossbar 16", t(r#"{"family": "crossbar", "nodes": 16}"#), family.clone()),
        (
            "Xbar modules",
            t(r#"{"family": "two-level", "name": "Xbar.16.32", "nodes": 16, "modules": 4}"#),
            family.clone(),
        ),
        (
            "Butterfly.16.16",
            t(r#"{"family": "two-level", "name": "Butterfly.16.16", "nodes": 16, "modules": 4}"#),
            family,
        ),
        ("table-routed torus 4x4", t(r#"{"family": "torus", "k": 4, "bidirectional": true}"#), table),
        ("dragonfly p = 1", t(r#"{"family": "dragonfly", "p": 1}"#), RoutingSpec::default()),
        ("Slim Fly q = 3 (p = 3)", t(r#"{"family": "slimfly", "q": 3}"#), RoutingSpec::default()),
    ]
}

fn run(topology: TopologySpec, routing: RoutingSpec, rate: f64) -> SimResult {
    let mut s = SimSpec { topology, routing, ..SimSpec::default() };
    s.workload.rate = Some(rate);
    s.workload.size = Some(2);
    s.run.messages = Some(6000);
    s.run.max_cycles = Some(2_000_000);
    s.run.seed = Some(3);
    simulate(&s).unwrap()
}

/// Under uniform traffic the simulated mean hop count is the routes' exact mean (within the
/// batch-means interval), and that mean is the topology's average distance over distinct pairs
/// combined with the self-addressed routes: ((N − 1)·avg + self)/N.
#[test]
fn mean_hops_match_average_distance_for_every_family() {
    for (name, spec, routing) in specs() {
        let topo = netwrap_sim::shape_of(&spec, &routing).unwrap().build().unwrap();
        let metrics = topo.metrics().unwrap();
        let r = run(spec, routing, 0.01);
        let n = r.network.nodes as f64;
        assert_eq!(r.report.verdict, Verdict::Ok, "{name}: {:?}", r.report.verdict_reason);
        assert_eq!(r.report.messages_delivered, 6000, "{name}");
        let ci = r.report.mean_hops_ci95.unwrap().max(0.01 * r.expected_mean_hops);
        assert!(
            (r.report.mean_hops - r.expected_mean_hops).abs() <= 2.0 * ci,
            "{name}: simulated {} vs expected {} ± {ci}",
            r.report.mean_hops,
            r.expected_mean_hops
        );
        // Self-addressed routes take 0 hops in a direct network: the mean is the average
        // distance scaled by (N − 1)/N.
        let direct =
            (0..r.network.nodes).all(|t| topo.network().inject_router(t) == topo.network().eject_router(t));
        if direct {
            // The routing's own mean route where it is longer than the shortest paths (a
            // dragonfly's local–global–local routes).
            let expect = (n - 1.0) * metrics.average_route.unwrap_or(metrics.average_distance) / n;
            assert!(
                (r.expected_mean_hops - expect).abs() < 1e-9,
                "{name}: routes {} vs average distance {}",
                r.expected_mean_hops,
                metrics.average_distance
            );
        }
    }
}

/// Measured utilisation per channel class within 10% of the offered load computed from the
/// routes, wherever that load is known, at a moderate rate.
#[test]
fn class_utilisation_matches_offered_load() {
    let mut checked = 0;
    for (name, spec, routing) in specs() {
        let r = run(spec, routing, 0.05);
        // With adaptive routing the busiest channel is no bound: the run's measurement decides.
        match r.offered_utilization {
            Some(offered) => assert_eq!(r.report.saturated, offered >= 1.0, "{name}: offered {offered}"),
            None => assert!(r.load_method.contains("no busiest-channel bound"), "{name}: {}", r.load_method),
        }
        if r.report.saturated {
            continue;
        }
        for c in &r.report.utilization_by_class {
            if let Some(e) = c.expected.filter(|&e| e > 0.02) {
                assert!((c.utilization - e).abs() / e < 0.10, "{name} {}: {} vs {e}", c.class, c.utilization);
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} classes checked");
}

/// Beyond the busiest channel's capacity a family is reported saturated, with the accepted
/// throughput near the capacity the loads predict.
#[test]
fn overload_is_saturation_on_any_family() {
    let r = run(TopologySpec::FatTree { nodes: Some(64) }, RoutingSpec::default(), 0.4);
    assert!(r.report.saturated && r.report.latency.is_none());
    // Its routing chooses either parent by queue state: no bound in the run; the even split's
    // capacity, which that choice approaches.
    assert_eq!(r.max_rate, None);
    let capacity = 1.0 / (2.0 * even_split_busiest(&r.point.written()));
    assert!(
        r.report.throughput < 0.4 && r.report.throughput > 0.8 * capacity,
        "{} vs {capacity}",
        r.report.throughput
    );
}

/// Verification: under non-uniform patterns the measured utilisation of every channel class
/// lies within four standard errors of the exact offered load (the class mean of the routes'
/// loads, hand-checked in `routes.rs`). A class of c channels offered e busy cycles per cycle
/// over a window of W cycles sees about n = e·c·W / B messages; their count is a sum of
/// independent Bernoulli creations, so its relative standard error is at most 1/√n (sizes
/// fixed). A class offered nothing must carry nothing.
#[test]
fn class_utilisation_follows_the_pattern() {
    let cases = [
        r#"{"topology": {"family": "torus", "k": 8, "bidirectional": true}, "workload": {"rate": 0.05, "pattern": "tornado"}}"#,
        r#"{"topology": {"family": "mesh", "k": 4}, "workload": {"rate": 0.05, "pattern": "transpose"}}"#,
        r#"{"topology": {"family": "hypercube", "n": 4}, "workload": {"rate": 0.1, "pattern": "bit-complement"}}"#,
        r#"{"topology": {"family": "midimew", "nodes": 64}, "workload": {"rate": 0.02, "pattern": "shuffle"}}"#,
        r#"{"topology": {"family": "torus", "k": 8}, "workload": {"rate": 0.02, "pattern": "hotspot", "hotspots": [0, 17], "hotspot-fraction": 0.2}}"#,
    ];
    let mut checked = 0;
    for json in cases {
        let mut s: SimSpec = serde_json::from_str(json).unwrap();
        s.run.messages = Some(40_000);
        let s = s.resolve().unwrap();
        let e = netwrap_sim::Experiment::build(&s).unwrap();
        let net = e.network();
        let r = e.run(&s).unwrap();
        assert_eq!(r.report.verdict, Verdict::Ok, "{json}");
        let window = (r.report.cycles - r.report.warmup) as f64;
        let size = s.workload.size.mean();
        for c in &r.report.utilization_by_class {
            let class = net.classes().iter().position(|n| *n == c.class).unwrap();
            let channels = net.channels().iter().filter(|ch| ch.class as usize == class).count() as f64;
            let expected = c.expected.unwrap();
            if expected == 0.0 {
                assert_eq!(c.utilization, 0.0, "{json} {}", c.class);
                continue;
            }
            let n = expected * channels * window / size;
            let bound = 4.0 * expected / n.sqrt();
            assert!(
                (c.utilization - expected).abs() < bound,
                "{json} {}: {} vs {expected} ± {bound}",
                c.class,
                c.utilization
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} classes checked");
}

/// Verification: the ideal switch carries Petrini & Vanneschi's 4-ary 3-tree at 0.9 flits per
/// processor per cycle (its busiest channel is offered 0.9 · 60/64 < 1, the source's own
/// messages included), for every up-port choice: not saturated, and the accepted load within
/// four standard errors of the offered one (a window of W cycles and N processors creates
/// Binomial(N·W, 0.9) messages: relative error √(0.1 / (0.9·N·W))). The mean hop count is the
/// routes' 3.375 within its interval: 4.375 routers per message (280/64 by hand).
#[test]
fn the_ideal_switch_carries_a_k_ary_n_tree_at_0_9() {
    for u in [UpPort::Random, UpPort::Adaptive, UpPort::Dmodk] {
        let topology: TopologySpec =
            serde_json::from_str(r#"{"family": "kary-ntree", "k": 4, "n": 3}"#).unwrap();
        let mut s = SimSpec {
            topology,
            routing: RoutingSpec { up_port: Some(u), ..Default::default() },
            ..SimSpec::default()
        };
        s.workload.rate = Some(0.9);
        s.workload.size = Some(1);
        s.run.messages = Some(100_000);
        s.run.seed = Some(5);
        let r = simulate(&s).unwrap();
        let rep = &r.report;
        assert_eq!(rep.verdict, Verdict::Ok, "{u:?}: {:?}", rep.verdict_reason);
        assert!(!rep.saturated, "{u:?}");
        // The adaptive up-port chooses by queue state: no bound in the run; the even split's.
        assert_eq!(r.offered_utilization.is_some(), u != UpPort::Adaptive, "{u:?}");
        assert!((0.9 * even_split_busiest(&s) - 0.9 * 60.0 / 64.0).abs() < 1e-12);
        let window = (rep.cycles - rep.warmup) as f64 * 64.0;
        let se = (0.9f64 * 0.1 / window).sqrt();
        // Uniform draws the source one time in 64: that share crosses no channel (`self_load`).
        let network = 0.9 * 63.0 / 64.0;
        assert!((rep.offered_load - network).abs() < 4.0 * se, "{u:?}: offered {} ± {se}", rep.offered_load);
        assert!(
            (rep.accepted_load - rep.offered_load).abs() < 4.0 * se,
            "{u:?}: accepted {} vs offered {} ± {se}",
            rep.accepted_load,
            rep.offered_load
        );
        assert!((r.expected_mean_hops + 1.0 - 280.0 / 64.0).abs() < 1e-12);
        let ci = rep.mean_hops_ci95.unwrap();
        assert!((rep.mean_hops - 3.375).abs() <= 2.0 * ci.max(0.005), "{u:?}: {} ± {ci}", rep.mean_hops);
    }
}

/// Verification: the oversubscribed XGFT(2; 4,4; 1,2) saturates where its up links predict.
/// A level-1 switch's 4 processors send 12/16 of their messages (the source's own included)
/// over 2 up links: 1.5 per link per unit rate, so the capacity is 2/3; at 0.8 it is
/// saturated. The ideal switch never blocks a source, so it still delivers the local quarter
/// of the traffic (0.8/4 = 0.2) besides what the up links carry (2 flits per cycle for 4
/// processors, 0.5): it accepts 0.7 per processor.
#[test]
fn an_oversubscribed_xgft_saturates_at_its_up_link_capacity() {
    let topology: TopologySpec =
        serde_json::from_str(r#"{"family": "xgft", "children": [4, 4], "parents": [1, 2]}"#).unwrap();
    for u in [UpPort::Random, UpPort::Adaptive, UpPort::Dmodk] {
        let routing = RoutingSpec { up_port: Some(u), ..Default::default() };
        let mut s = SimSpec { topology: topology.clone(), routing, ..SimSpec::default() };
        s.workload.rate = Some(0.8);
        s.workload.size = Some(1);
        s.run.messages = Some(20_000);
        s.run.seed = Some(3);
        let r = simulate(&s).unwrap();
        assert_eq!(r.max_rate.is_some(), u != UpPort::Adaptive, "{u:?}");
        assert!((1.0 / even_split_busiest(&s) - 2.0 / 3.0).abs() < 1e-9, "{u:?}");
        assert!(r.report.saturated, "{u:?}");
        let t = r.report.throughput;
        assert!((t - 0.7).abs() < 0.02, "{u:?}: {t}");
    }
}

/// Verification: tornado on a HyperX's router coordinates (Dally & Towles §3.2, here on the
/// 4 × 4 HyperX): every router (x, y) sends to (x + 1, y + 1) (⌈4/2⌉ − 1 = 1), two hops; the
/// routing offers both unaligned dimensions first, so each message splits evenly and the
/// channel (x, y) → (x + 1, y) carries half of (x, y)'s messages (first hop) and half of
/// (x, y − 1)'s (second hop): p messages per cycle per unit rate with p terminals per router.
/// Neighbour is the same shift by one. A dragonfly has no coordinates.
#[test]
fn tornado_and_neighbour_run_on_hyperx_coordinates() {
    for p in [1u32, 2] {
        let text = format!(
            r#"{{"topology": {{"family": "hyperx", "sizes": [4, 4], "p": {p}}}, "workload": {{"pattern": "tornado", "rate": 0.01, "size": 1}}, "run": {{"messages": 2000}}}}"#
        );
        let s = serde_json::from_str::<SimSpec>(&text).unwrap();
        let r = simulate(&s).unwrap();
        assert_eq!(r.expected_mean_hops, 2.0);
        assert_eq!(r.report.mean_hops, 2.0);
        // The routing offers both unaligned dimensions, chosen by queue state: the run reports
        // no bound; the even split's loads are these.
        assert_eq!(r.offered_utilization, None);
        let per_unit = even_split_busiest(&s);
        assert!((per_unit - p as f64).abs() < 1e-9, "p = {p}: {per_unit}");
    }
    let e = simulate(
        &serde_json::from_str::<SimSpec>(
            r#"{"topology": {"family": "dragonfly", "p": 1}, "workload": {"pattern": "neighbor"}}"#,
        )
        .unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("defined on router coordinates"), "{e}");
}

/// Verification: dimension shift on the 4 × 4 HyperX — router (x, y) to (x + 1, y) — sends all
/// p terminals of a router over its one channel to its neighbour in dimension 0, so minimal
/// routing's busiest channel carries p messages per unit rate (its bound 1/p: Kim, Dally &
/// Abts 2007's worst case for the flattened butterfly); on a unidirectional 4-ring a shift by 2
/// crosses two channels, each carrying two routers' messages.
#[test]
fn dimension_shift_loads_one_channel_per_router() {
    let per_unit = |json: &str| {
        let r = simulate(&serde_json::from_str::<SimSpec>(json).unwrap()).unwrap();
        r.offered_utilization.unwrap() / 0.01
    };
    for p in [1u32, 2] {
        let json = format!(
            r#"{{"topology": {{"family": "hyperx", "sizes": [4, 4], "p": {p}}}, "workload": {{"pattern": "dimension-shift", "rate": 0.01, "size": 1}}, "run": {{"messages": 2000}}}}"#
        );
        assert!((per_unit(&json) - p as f64).abs() < 1e-9, "p = {p}");
    }
    let ring = r#"{"topology": {"family": "ring", "k": 4}, "workload": {"pattern": "dimension-shift", "shift": 2, "rate": 0.01, "size": 1}, "run": {"messages": 2000}}"#;
    assert!((per_unit(ring) - 2.0).abs() < 1e-9);
}

/// Verification of the ideal switch's threads: a run cut into 1, 2, 3 or 4 shards (forced,
/// however small the network) gives the same result to the bit — its whole JSON, every
/// message's latency and every channel's busy cycles — as the run on one thread, on every
/// family, under non-minimal paths (whose decisions read the queues), with wide channels,
/// processors that wait for memories and replies, multithreaded processors, and beyond
/// saturation (long queues ahead of the clock). The one-thread run is itself held to the
/// flit-by-flit reference (`engine.rs`).
#[test]
fn the_ideal_switch_gives_the_same_result_on_any_number_of_threads() {
    let mut cases: Vec<(String, SimSpec)> = Vec::new();
    for (name, topology, routing) in specs() {
        for rate in [0.02, 0.3] {
            let mut s =
                SimSpec { topology: topology.clone(), routing: routing.clone(), ..SimSpec::default() };
            s.workload.rate = Some(rate);
            s.workload.size = Some(3);
            s.run.messages = Some(1500);
            s.run.seed = Some(5);
            cases.push((format!("{name} at m = {rate}"), s));
        }
    }
    let json = [
        r#"{"topology": {"family": "dragonfly", "p": 2}, "routing": {"algorithm": "valiant", "via": "group"}, "workload": {"rate": 0.05, "pattern": "group-shift"}}"#,
        r#"{"topology": {"family": "dragonfly", "p": 2}, "routing": {"algorithm": "ugal-local"}, "workload": {"rate": 0.2, "pattern": "group-shift"}}"#,
        r#"{"topology": {"family": "dragonfly", "p": 2}, "routing": {"algorithm": "ugal-global"}, "workload": {"rate": 0.2, "pattern": "group-shift"}}"#,
        r#"{"topology": {"family": "dragonfly", "p": 2}, "routing": {"algorithm": "par"}, "workload": {"rate": 0.1}}"#,
        r#"{"topology": {"family": "hyperx", "sizes": [4, 4], "p": 4}, "routing": {"algorithm": "dal"}, "workload": {"rate": 0.2, "pattern": "transpose"}}"#,
        r#"{"topology": {"family": "torus", "k": 6, "bidirectional": true}, "routing": {"algorithm": "ugal-local"}, "workload": {"rate": 0.1, "pattern": "tornado"}}"#,
        r#"{"topology": {"family": "two-level", "name": "Butterfly.16.8"}, "workload": {"rate": 0.04}}"#,
        r#"{"topology": {"family": "torus", "k": 4}, "workload": {"rate": 0.05, "reply": {"memory-latency": 3, "size": 2}}}"#,
        r#"{"topology": {"family": "torus", "k": 4, "n": 3}, "workload": {"rate": 0.05, "processor": {"threads": 4, "interval": "periodic"}, "reply": {"memory-latency": 10, "size": 8}}}"#,
        r#"{"topology": {"family": "torus", "k": 4, "n": 3}, "workload": {"rate": 0.1, "processor": {"interval": "on-off", "burst": 8}}}"#,
        r#"{"topology": {"family": "mesh", "k": 6}, "workload": {"rate": 0.05, "processor": {"interval": "on-off", "burst": 4, "idle": 20}, "reply": {"memory-latency": 3, "size": 2}}}"#,
    ];
    for j in json {
        let mut s: SimSpec = serde_json::from_str(j).unwrap();
        s.run.messages = Some(2000);
        cases.push((j.to_string(), s));
    }
    same_on_any_number_of_threads(cases);
}

/// Verification: each case's whole result (every message and channel recorded) on 2, 3 and 4
/// threads (shards forced, however small the network) equals its result on one.
pub(crate) fn same_on_any_number_of_threads(cases: Vec<(String, SimSpec)>) {
    use netwrap_engine::{Jobs, Record};
    for (name, s) in cases {
        let point = s.resolve().unwrap_or_else(|e| panic!("{name}: {e}"));
        let e = netwrap_sim::Experiment::build(&point).unwrap();
        let on = |jobs: u32| {
            let record =
                Record { messages: true, channels: true, jobs: Jobs::Exactly(jobs), ..Record::default() };
            let r = e.run_with(&point, record).unwrap();
            (serde_json::to_string(&r).unwrap(), r.outcome.messages.clone(), r.outcome.channel_busy.clone())
        };
        let one = on(1);
        for jobs in 2..=4 {
            assert!(on(jobs) == one, "{name}: {jobs} threads differ from one");
        }
    }
}

/// Verification: the virtual-channel router's result is the same on any number of threads, on
/// every family (beyond saturation, without deadlock avoidance, some deadlock, and the report
/// must agree too), and under each of its options that changes
/// what a router reads: dateline, Bubble, escape and up*/down*, output buffers, wide
/// channels, the separable allocators, oldest-first arbitration, rotating VC choice, replies
/// on their own VCs, router stages, ejection by VC, speedup, UGAL's and DAL's queue reads and
/// the phases' VC classes. The one-thread run is held to the flit-by-flit reference by the
/// engine's oracle, which also runs it sharded.
#[test]
fn the_vc_router_gives_the_same_result_on_any_number_of_threads() {
    let mut cases: Vec<(String, SimSpec)> = Vec::new();
    let vc = |json: &str| -> netwrap_sim::spec::RouterSpec { serde_json::from_str(json).unwrap() };
    for (name, topology, routing) in specs() {
        for (rate, router) in [
            (0.02, r#"{"kind": "vc", "vcs": 2, "buffer": 4, "packet": 2}"#),
            (0.3, r#"{"kind": "vc", "vcs": 2, "buffer": 4, "packet": 2}"#),
        ] {
            let mut s =
                SimSpec { topology: topology.clone(), routing: routing.clone(), ..SimSpec::default() };
            s.router = vc(router);
            s.workload.rate = Some(rate);
            s.workload.size = Some(3);
            s.run.messages = Some(600);
            s.run.seed = Some(5);
            cases.push((format!("{name} at m = {rate}, {router}"), s));
        }
    }
    let json = [
        r#"{"topology": {"family": "torus", "k": 6, "bidirectional": true}, "router": {"kind": "vc", "vcs": 2, "deadlock": "dateline", "buffer": 4, "packet": 4}, "workload": {"rate": 0.1}}"#,
        r#"{"topology": {"family": "torus", "k": 6, "bidirectional": true}, "router": {"kind": "vc", "preset": "caminos"}, "workload": {"load": 0.6}}"#,
        r#"{"topology": {"family": "hypercube", "n": 5}, "router": {"kind": "vc", "vcs": 2, "deadlock": "updown", "buffer": 4}, "workload": {"rate": 0.2}}"#,
        r#"{"topology": {"family": "torus", "k": 5}, "router": {"kind": "vc", "vcs": 3, "deadlock": "escape", "switching": "vct", "buffer": 8, "packet": 4, "arbitration": "oldest-first"}, "workload": {"rate": 0.1}}"#,
        r#"{"topology": {"family": "mesh", "k": 6}, "router": {"kind": "vc", "vcs": 4, "buffer": 4, "allocator": "islip", "vc-choice": "rotating", "ejection": "every-vc"}, "workload": {"rate": 0.2}}"#,
        r#"{"topology": {"family": "mesh", "k": 6}, "router": {"kind": "vc", "vcs": 2, "buffer": 6, "input-speedup": 2, "output-speedup": 2, "output-buffer": 4}, "workload": {"rate": 0.2}}"#,
        r#"{"topology": {"family": "mesh", "k": 5}, "router": {"kind": "vc", "vcs": 2, "buffer": 8, "routing-delay": 1, "vc-alloc-delay": 1, "switch-alloc-delay": 1}, "workload": {"rate": 0.1, "pattern": "transpose"}}"#,
        r#"{"topology": {"family": "two-level", "name": "Butterfly.16.8"}, "router": {"kind": "vc", "vcs": 2, "buffer": 16, "packet": 8}, "workload": {"rate": 0.04, "size": 8}}"#,
        r#"{"topology": {"family": "torus", "k": 4, "bidirectional": true}, "router": {"kind": "vc", "vcs": 4, "deadlock": "dateline", "buffer": 4}, "workload": {"rate": 0.05, "reply": {"memory-latency": 3, "size": 2}}}"#,
        r#"{"topology": {"family": "dragonfly", "p": 2}, "routing": {"algorithm": "ugal-local"}, "router": {"kind": "vc", "vcs": 4, "deadlock": "phases", "buffer": 8, "packet": 4}, "workload": {"rate": 0.2, "pattern": "group-shift"}}"#,
        r#"{"topology": {"family": "dragonfly", "p": 2}, "routing": {"algorithm": "ugal-global"}, "router": {"kind": "vc", "vcs": 4, "deadlock": "phases", "buffer": 8, "packet": 4}, "workload": {"rate": 0.2, "pattern": "group-shift"}}"#,
        r#"{"topology": {"family": "hyperx", "sizes": [4, 4], "p": 4}, "routing": {"algorithm": "dal"}, "router": {"kind": "vc", "vcs": 4, "deadlock": "phases", "buffer": 8, "packet": 4}, "workload": {"rate": 0.2, "pattern": "transpose"}}"#,
        r#"{"topology": {"family": "torus", "k": 4, "bidirectional": true}, "router": {"kind": "vc", "vcs": 2, "deadlock": "dateline", "buffer": 4}, "workload": {"rate": 0.1, "processor": {"interval": "on-off", "burst": 16, "idle": 48}}}"#,
    ];
    for j in json {
        let mut s: SimSpec = serde_json::from_str(j).unwrap();
        s.run.messages = Some(1000);
        cases.push((j.to_string(), s));
    }
    same_on_any_number_of_threads(cases);
}
