//! Engine tests: exact small cases, the fast path against the flit-by-flit reference on every
//! family, the statistics the models rely on, and the verdicts.

use netwrap_engine::traffic::{MessageSize, Pattern};
use netwrap_engine::{Arrivals, Outcome, Record, RunSpec, StopReason, StopRule};
use netwrap_sim::report::Verdict;
use netwrap_sim::{EngineKind, Experiment, Resolved, Router, SimResult, SimSpec, execute_on, simulate};
use netwrap_topo::{CubeSpec, DimensionOrder, KaryNCube, TopologySpec};

fn cube(k: u32, n: u32) -> KaryNCube {
    KaryNCube::new(CubeSpec::torus(k, n), DimensionOrder::HighestFirst).unwrap()
}

fn script(msgs: Vec<(u64, u32, u32)>, size: u32) -> RunSpec {
    RunSpec {
        messages: msgs.len() as u64,
        arrivals: Arrivals::Script(msgs),
        memories: None,
        size: MessageSize::Fixed(size),
        warmup: 0,
        max_cycles: 100_000,
        seed: 9,
        stop: StopRule::drain(),
        record: Record { messages: true, channels: true, ..Record::default() },
        paths: Default::default(),
        groups: None,
        channel_latency: Vec::new(),
    }
}

fn scripted(c: &KaryNCube, size: u32, msgs: Vec<(u64, u32, u32)>, engine: EngineKind) -> Outcome {
    execute_on(
        c.network(),
        c,
        &Pattern::Uniform(c.network().terminals()),
        &script(msgs, size),
        Router::Ideal(engine),
    )
}

fn latencies(o: &Outcome) -> Vec<u64> {
    o.messages.as_ref().unwrap().iter().map(|m| m.latency).collect()
}

/// A spec from JSON (the form users write), for brevity.
fn spec(json: &str) -> SimSpec {
    serde_json::from_str(json).unwrap()
}

fn torus(k: u32, n: u32, rate: f64, size: u32) -> SimSpec {
    let mut s = SimSpec {
        topology: TopologySpec::Torus {
            k: Some(k),
            n: Some(n),
            nodes: None,
            radices: None,
            bidirectional: false,
            concentration: None,
        },
        ..SimSpec::default()
    };
    s.workload.rate = Some(rate);
    s.workload.size = Some(size);
    s
}

fn run(s: &SimSpec) -> SimResult {
    simulate(s).unwrap()
}

/// Verification: unloaded, a message of h hops takes exactly h + B cycles, on both engines,
/// for every source-destination pair of a 4-ary 3-cube (self-addressed messages: 0 hops, B).
#[test]
fn single_message_latency_is_hops_plus_size() {
    let c = cube(4, 3);
    for engine in [EngineKind::Fast, EngineKind::Reference] {
        for size in [1, 4] {
            for dst in 0..64 {
                let src = 21;
                let o = scripted(&c, size, vec![(5, src, dst)], engine);
                let h = c.distance(src, dst);
                assert!(o.drained());
                let m = o.messages.as_ref().unwrap()[0];
                assert_eq!(
                    (m.hops, m.latency, m.source_wait),
                    (h, (h + size) as u64, 0),
                    "{engine:?} B={size} {src}->{dst}"
                );
                assert_eq!(o.end, 5 + (h + size) as u64);
            }
        }
    }
}

/// Verification: dimension-order hop counts on a unidirectional torus, (d_i − s_i) mod k per
/// dimension.
#[test]
fn hop_counts_are_dimension_order_distances() {
    let c = cube(5, 2);
    let msgs: Vec<(u64, u32, u32)> = (0..25).map(|d| (d as u64 * 50, 7, d)).collect();
    let o = scripted(&c, 2, msgs, EngineKind::Fast);
    for d in 0..25u32 {
        let expect = (d % 5 + 5 - 2) % 5 + (d / 5 + 5 - 1) % 5;
        assert_eq!(o.messages.as_ref().unwrap()[d as usize].hops, expect);
    }
}

/// Verification: two messages meeting at one channel in the same cycle: one goes first, the
/// other waits exactly B cycles, whichever wins the seeded tie-break.
#[test]
fn contention_costs_one_message_time() {
    let c = cube(8, 1);
    for engine in [EngineKind::Fast, EngineKind::Reference] {
        // 0 -> 2 reaches router 1 at cycle 1, when 1 -> 3 is created there.
        let o = scripted(&c, 4, vec![(0, 0, 2), (1, 1, 3)], engine);
        let mut l = latencies(&o);
        l.sort_unstable();
        assert_eq!(l, vec![6, 10], "{engine:?}");
    }
}

/// Runs `s` on both engines, recording every message and channel, and requires identical
/// outcomes: latencies, hops, source waits, end, per-terminal counts, per-channel busy cycles.
fn compare(s: &SimSpec) {
    let mut fast = s.clone();
    fast.run.engine = Some(EngineKind::Fast);
    let mut slow = s.clone();
    slow.run.engine = Some(EngineKind::Reference);
    let record = Record { messages: true, channels: true, ..Record::default() };
    let (fast, slow) = (fast.resolve().unwrap(), slow.resolve().unwrap());
    let e = Experiment::build(&fast).unwrap();
    let (f, r) =
        (e.run_with(&fast, record.clone()).unwrap().outcome, e.run_with(&slow, record).unwrap().outcome);
    let name = serde_json::to_string(&s).unwrap();
    assert_eq!(r.stalls, 0, "a granted message found its next flit missing: {name}");
    first_difference(f.messages.as_ref().unwrap(), r.messages.as_ref().unwrap(), "messages", &name);
    assert_eq!((f.end, f.stop), (r.end, r.stop), "end differs on {name}");
    assert_eq!(
        (f.flits_generated, f.flits_delivered),
        (r.flits_generated, r.flits_delivered),
        "flits on {name}"
    );
    first_difference(&f.generated, &r.generated, "generated", &name);
    first_difference(&f.delivered, &r.delivered, "delivered", &name);
    first_difference(
        f.channel_busy.as_ref().unwrap(),
        r.channel_busy.as_ref().unwrap(),
        "busy cycles",
        &name,
    );
    assert!(f.measured.delivered > 0, "{name}: nothing measured");
}

/// Fails naming the first index at which two sequences differ (without printing them whole).
fn first_difference<T: PartialEq + std::fmt::Debug>(a: &[T], b: &[T], what: &str, name: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths differ on {name}");
    if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
        panic!("{what} differ at {i} on {name}: fast {:?}, reference {:?}", a[i], b[i]);
    }
}

/// Oracle: the per-message fast path and the flit-by-flit reference give identical results on
/// cubes: light and heavy load, saturation, long and short messages, locality, both wirings,
/// a mesh and the other dimension order.
#[test]
fn fast_engine_matches_flit_reference_on_cubes() {
    for (k, n, rate, size) in
        [(4, 2, 0.05, 4), (4, 2, 0.3, 1), (5, 2, 0.12, 3), (3, 3, 0.2, 2), (4, 2, 0.4, 4)]
    {
        let mut s = torus(k, n, rate, size);
        s.run.messages = Some(1500);
        s.run.warmup = Some(200);
        compare(&s);
    }
    let mut s = torus(6, 2, 0.1, 3);
    s.workload.locality = Some(0.3);
    s.run.messages = Some(1500);
    s.run.warmup = Some(100);
    compare(&s);
    for json in [
        r#"{"topology": {"family": "torus", "k": 6, "bidirectional": true}, "workload": {"rate": 0.15, "size": 3}}"#,
        r#"{"topology": {"family": "mesh", "k": 5}, "workload": {"rate": 0.1, "size": 2}}"#,
        r#"{"topology": {"family": "torus", "k": 4, "n": 3}, "routing": {"order": "lowest-first"}, "workload": {"rate": 0.08, "size": 5}}"#,
    ] {
        let mut s = spec(json);
        s.run.messages = Some(1500);
        s.run.warmup = Some(100);
        compare(&s);
    }
}

/// Oracle under every destination pattern and with bimodal sizes (per-message lengths through
/// both engines), on a torus, a mesh, a Midimew (Puente et al. Fig. 9's mapping), a hypercube,
/// wide channels (a two-level network) and a butterfly, below and beyond saturation.
#[test]
fn fast_engine_matches_flit_reference_under_every_pattern_and_bimodal_sizes() {
    let patterns = [
        r#""pattern": "uniform-others""#,
        r#""pattern": "transpose""#,
        r#""pattern": "bit-reversal""#,
        r#""pattern": "shuffle""#,
        r#""pattern": "bit-complement""#,
        r#""pattern": "permutation""#,
        r#""pattern": "hotspot", "hotspots": [0, 5], "hotspot-fraction": 0.3"#,
    ];
    let families = [
        (r#"{"family": "torus", "k": 4, "bidirectional": true}"#, 0.08),
        (r#"{"family": "mesh", "k": 4}"#, 0.06),
        (r#"{"family": "midimew", "nodes": 16}"#, 0.1),
        (r#"{"family": "hypercube", "n": 4}"#, 0.1),
        (r#"{"family": "two-level", "name": "Butterfly.8-2dil.8", "nodes": 64, "modules": 8}"#, 0.05),
        (r#"{"family": "butterfly", "k": 2, "stages": 4}"#, 0.3),
    ];
    for (topology, rate) in families {
        for pattern in patterns {
            for sizes in [r#""size": 3"#, r#""size": 2, "long-size": 9, "long-fraction": 0.2"#] {
                let mut s = spec(&format!(
                    r#"{{"topology": {topology}, "workload": {{"rate": {rate}, {sizes}, {pattern}}}, "run": {{"messages": 600, "warmup": 100}}}}"#
                ));
                compare(&s);
                s.run.seed = Some(3);
                compare(&s);
            }
        }
    }
    for pattern in ["tornado", "neighbor"] {
        for topology in
            [r#"{"family": "torus", "k": 5, "bidirectional": true}"#, r#"{"family": "mesh", "k": 4, "n": 3}"#]
        {
            let s = spec(&format!(
                r#"{{"topology": {topology}, "workload": {{"rate": 0.1, "size": 2, "long-size": 7, "long-fraction": 0.25, "pattern": "{pattern}"}}, "run": {{"messages": 600, "warmup": 100}}}}"#
            ));
            compare(&s);
        }
    }
}

/// Oracle on every other family, table routing and wide and dilated channels (Raghunath &
/// Ranade's two-level networks), below and beyond saturation.
#[test]
fn fast_engine_matches_flit_reference_on_every_family() {
    for (json, rate) in [
        (r#"{"family": "midimew", "nodes": 32}"#, 0.05),
        (r#"{"family": "midimew", "nodes": 50}"#, 0.2),
        (r#"{"family": "circulant", "nodes": 20, "a": 3, "b": 7}"#, 0.1),
        (r#"{"family": "butterfly", "k": 2, "stages": 4}"#, 0.2),
        (r#"{"family": "omega", "k": 4, "stages": 2}"#, 0.3),
        (r#"{"family": "fat-tree", "nodes": 64}"#, 0.05),
        (r#"{"family": "fat-tree", "nodes": 16}"#, 0.4),
        (r#"{"family": "nhop", "factors": [4, 4]}"#, 0.2),
        (r#"{"family": "ccc", "n": 3}"#, 0.05),
        (r#"{"family": "crossbar", "nodes": 8}"#, 0.3),
        (r#"{"family": "hypercube", "n": 4}"#, 0.1),
        (r#"{"family": "two-level", "name": "Butterfly.16.8", "nodes": 64, "modules": 8}"#, 0.1),
        (r#"{"family": "two-level", "name": "Butterfly.8-2dil.8", "nodes": 64, "modules": 8}"#, 0.1),
        (r#"{"family": "two-level", "name": "2hop.16.32-16", "nodes": 64, "modules": 16}"#, 0.1),
        (r#"{"family": "two-level", "name": "Xbar.32.8", "nodes": 32, "modules": 4}"#, 0.05),
    ] {
        let mut s = SimSpec { topology: serde_json::from_str(json).unwrap(), ..SimSpec::default() };
        s.workload.rate = Some(rate);
        s.workload.size = Some(4);
        s.run.messages = Some(1200);
        s.run.warmup = Some(150);
        compare(&s);
        s.routing.algorithm = netwrap_topo::RoutingAlgorithm::Table;
        compare(&s);
    }
}

/// Characterisation of the reproducibility contract: the same spec gives the same outcome,
/// another seed another one.
#[test]
fn same_seed_same_result_other_seed_other_result() {
    let mut s = torus(8, 2, 0.04, 4);
    s.run.messages = Some(3000);
    let (a, b) = (run(&s), run(&s));
    assert_eq!(a, b);
    s.run.seed = Some(2);
    assert_ne!(a.report.latency, run(&s).report.latency);
}

/// Verification: mean hops within the 95% confidence interval of n·k_d, and n·k_dl with
/// locality (k_dl from the subcube side actually simulated).
#[test]
fn mean_hops_match_n_k_d() {
    for (k, n, l) in [(8, 2, 1.0), (10, 3, 1.0), (16, 2, 0.25), (8, 3, 0.5)] {
        let mut s = torus(k, n, 0.005, 2);
        s.workload.locality = Some(l);
        s.run.messages = Some(20_000);
        let r = run(&s);
        let side = r.locality.as_ref().map_or(k, |c| c.sides[0]) as f64;
        let expect = n as f64 * (side - 1.0) / 2.0;
        assert!((r.expected_mean_hops - expect).abs() < 1e-12);
        let ci = r.report.mean_hops_ci95.unwrap();
        assert!(
            (r.report.mean_hops - expect).abs() <= ci.max(0.02 * expect),
            "k={k} n={n} l={l}: {} ± {ci} vs {expect}",
            r.report.mean_hops
        );
    }
}

/// Verification: measured utilisation within 2% of m·B·k_d (Agarwal 1991 eq. 7) below
/// saturation, in every dimension; 2% is several batch-means intervals at 40,000 messages.
#[test]
fn utilisation_matches_m_b_k_d() {
    for (k, n, rate, size) in [(8, 2, 0.04, 4), (10, 2, 0.02, 4), (4, 3, 0.1, 2)] {
        let mut s = torus(k, n, rate, size);
        s.run.messages = Some(40_000);
        let r = run(&s);
        let expect = rate * size as f64 * (k as f64 - 1.0) / 2.0;
        assert_eq!(r.report.verdict, Verdict::Ok);
        assert!(
            (r.report.utilization - expect).abs() / expect < 0.02,
            "{} vs {expect}",
            r.report.utilization
        );
        for class in &r.report.utilization_by_class {
            assert!((class.utilization - expect).abs() / expect < 0.03, "{class:?}");
            assert!((class.expected.unwrap() - expect).abs() < 1e-12);
        }
    }
}

/// Verification: an overload whose in-flight limit is reached during its (long) warm-up still
/// reports what it offered and accepted, over the cycles it ran: every node creates a 4-flit
/// message each cycle, one in 64 of them to itself, so the network is offered 4·63/64 flits
/// per node per cycle (within four binomial standard errors of the messages created) and
/// accepts some of it, never more; the self-addressed 4/64 are reported apart.
#[test]
fn an_overload_stopped_in_its_warm_up_reports_what_it_accepted() {
    let mut s = torus(8, 2, 1.0, 4);
    s.run.warmup = Some(1_000_000);
    let r = run(&s);
    assert_eq!(r.outcome.stop, StopReason::InFlightLimit);
    let rep = &r.report;
    assert!(rep.cycles < 1_000_000, "{}", rep.cycles);
    let created = 64.0 * rep.cycles as f64;
    let se = 4.0 * (63.0 / 64.0 / 64.0 / created).sqrt();
    assert!((rep.offered_load - 4.0 * 63.0 / 64.0).abs() <= 4.0 * se, "offered {} ± {se}", rep.offered_load);
    assert!((rep.self_load - 4.0 / 64.0).abs() <= 4.0 * se, "self {} ± {se}", rep.self_load);
    assert!(
        rep.accepted_load > 0.0 && rep.accepted_load <= rep.offered_load,
        "accepted {}",
        rep.accepted_load
    );
    assert!(rep.verdict_reason.as_deref().unwrap().contains("warm-up included"), "{:?}", rep.verdict_reason);
}

/// Verification: the homework's typical run (m = 0.05, B = 6 on 64 nodes: ρ = 1.05) is
/// beyond capacity; it is reported saturated, with no latency and an accepted throughput near
/// the capacity 1/(B·k_d), and it stops once that throughput is measured instead of running on.
#[test]
fn overload_is_reported_as_saturated_and_stops_early() {
    let mut s = torus(8, 2, 0.05, 6);
    s.run.messages = Some(5000);
    let r = run(&s);
    assert_eq!(r.report.verdict, Verdict::Saturated);
    assert!(r.report.latency.is_none());
    assert!(r.report.verdict_reason.as_deref().unwrap().contains("offered load"));
    let capacity = 1.0 / (6.0 * 3.5);
    assert!(r.report.throughput < 0.05 && r.report.throughput > 0.85 * capacity, "{}", r.report.throughput);
    assert_eq!(r.outcome.stop, StopReason::SaturationMeasured);
    // At rate 1 the backlog grows by ~60 messages a cycle: the run still stops within a few
    // thousand cycles (warm-up of 10 unloaded worst-case latencies, window of 1,000 cycles).
    let mut s = torus(8, 2, 1.0, 4);
    s.run.messages = Some(10_000);
    let r = run(&s);
    assert_eq!(r.report.verdict, Verdict::Saturated);
    assert!(r.report.cycles <= 1_000 + 2_000, "{} cycles", r.report.cycles);
}

/// Verification: below saturation, a run that hits its cycle limit says so (limit reached,
/// what to raise), not that the network is saturated: the homework's `netwrap 64 1000 10000
/// 0.001 4 8 /dev/null 1.0` (ρ = 0.014, 1000 messages need about 15,600 cycles to be created).
#[test]
fn cycle_limit_below_saturation_is_its_own_verdict() {
    let mut s = torus(8, 2, 0.001, 4);
    s.run.messages = Some(1000);
    s.run.max_cycles = Some(10_000);
    let r = run(&s);
    assert_eq!(r.report.verdict, Verdict::LimitReached);
    assert!(!r.report.saturated);
    let why = r.report.verdict_reason.unwrap();
    assert!(why.contains("raise --max-cycles"), "{why}");
    assert_eq!(r.report.cycles, 10_000);
    // The limit it suggests is enough: the same run with it measures a steady state.
    let suggested: f64 =
        why.split("needs about ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    s.run.max_cycles = Some(suggested as u64);
    assert_eq!(run(&s).report.verdict, Verdict::Ok);
    // A one-cycle limit: the warm-up shrinks to fit, and the verdict is the limit.
    s.run.max_cycles = Some(1);
    let r = run(&s);
    assert_eq!((r.report.verdict, r.report.cycles, r.report.warmup), (Verdict::LimitReached, 1, 0));
}

/// Verification: a tiny rate is what it is: at m = 1e-17 nothing is created in 1,500 cycles
/// (expected 1e-12 messages), the run ends at its limit without waiting cycle by cycle, and
/// at the smallest positive rate a limit of 10^18 cycles is crossed in no time.
#[test]
fn tiny_rates_stay_tiny_and_idle_cycles_are_skipped() {
    let mut s = torus(8, 2, 1e-17, 4);
    s.run.messages = Some(10);
    s.run.max_cycles = Some(1_500);
    let r = run(&s);
    assert_eq!((r.report.messages_generated, r.outcome.messages_total), (0, 0));
    assert_eq!(r.report.verdict, Verdict::LimitReached);
    s.workload.rate = Some(f64::from_bits(1));
    s.run.max_cycles = Some(1_000_000_000_000_000_000);
    let start = std::time::Instant::now();
    let r = run(&s);
    assert_eq!(Some(r.report.cycles), s.run.max_cycles);
    assert!(start.elapsed().as_secs() < 30);
}

/// Verification: the memory a run keeps does not depend on the message length: a message of
/// 4,294,967,295 flits is simulated (and stopped by the cycle limit) like any other.
#[test]
fn huge_messages_need_no_memory() {
    let mut s = torus(4, 2, 0.01, u32::MAX);
    s.run.messages = Some(5);
    s.run.max_cycles = Some(100_000);
    let r = run(&s);
    assert_eq!(r.report.verdict, Verdict::Saturated);
}

#[test]
fn bad_parameters_are_errors() {
    let base = torus(8, 2, 0.1, 4);
    type Edit = Box<dyn Fn(&mut SimSpec)>;
    let cases: Vec<Edit> = vec![
        Box::new(|s| s.workload.rate = Some(-0.1)),
        Box::new(|s| s.workload.rate = Some(1.1)),
        Box::new(|s| s.workload.rate = Some(f64::NAN)),
        Box::new(|s| s.workload.rate = Some(0.0)),
        Box::new(|s| s.workload.size = Some(0)),
        Box::new(|s| {
            s.topology = TopologySpec::Torus {
                k: Some(1),
                n: Some(2),
                nodes: None,
                radices: None,
                bidirectional: false,
                concentration: None,
            }
        }),
        Box::new(|s| {
            s.topology = TopologySpec::Torus {
                k: Some(8),
                n: Some(0),
                nodes: None,
                radices: None,
                bidirectional: false,
                concentration: None,
            }
        }),
        Box::new(|s| s.workload.locality = Some(0.0)),
        Box::new(|s| s.workload.locality = Some(1.5)),
        Box::new(|s| s.run.messages = Some(0)),
        Box::new(|s| {
            s.topology = TopologySpec::Mesh {
                k: Some(8),
                n: Some(2),
                nodes: None,
                radices: None,
                concentration: None,
            };
            s.workload.locality = Some(0.5);
        }),
        Box::new(|s| {
            s.topology = TopologySpec::Torus {
                k: Some(1 << 20),
                n: Some(2),
                nodes: None,
                radices: None,
                bidirectional: false,
                concentration: None,
            }
        }),
    ];
    for (i, edit) in cases.iter().enumerate() {
        let mut s = base.clone();
        edit(&mut s);
        assert!(simulate(&s).is_err(), "case {i}: {s:?}");
    }
}

/// A line of routers 0 → 1 → 2 with the given channel widths; terminals 0 and 1 sit at the
/// ends. Routing follows the only channel out.
struct Line(netwrap_topo::Network);

impl netwrap_topo::Routing for Line {
    fn route(&self, at: u32, dest: u32, _salt: u32, out: &mut netwrap_topo::Candidates) {
        out.clear();
        if at != self.0.eject_router(dest) {
            out.push(self.0.out_channels(at).start);
        }
    }
}

fn line(widths: [u16; 2]) -> Line {
    use netwrap_topo::{Channel, Network};
    let channels = vec![
        (0, Channel { dst: 1, width: widths[0], class: 0 }),
        (1, Channel { dst: 2, width: widths[1], class: 0 }),
    ];
    Line(Network::new("line", 3, channels, vec![0, 2], vec![0, 2], vec!["link".into()]))
}

/// Verification (Raghunath & Ranade §5.3, note d): onto a wider channel a message waits for
/// its last flit; onto a narrower one it cuts through. B = 4: narrow-then-wide takes
/// 4 + 2 + 1 = 7 cycles, wide-then-narrow 1 + 4 + 1 = 6, two unit channels 2 + 4 = 6, two wide
/// ones 1 + 2 + 1 = 4 — on both engines.
#[test]
fn wider_channels_carry_more_flits_and_buffer_whole_messages() {
    for engine in [EngineKind::Fast, EngineKind::Reference] {
        for (widths, expect) in [([1, 2], 7), ([2, 1], 6), ([1, 1], 6), ([2, 2], 4)] {
            let l = line(widths);
            let o = execute_on(
                &l.0,
                &l,
                &Pattern::Uniform(2),
                &script(vec![(3, 0, 1)], 4),
                Router::Ideal(engine),
            );
            assert_eq!(latencies(&o), vec![expect], "{engine:?} widths {widths:?}");
            assert_eq!(o.stalls, 0);
        }
    }
}

/// Verification: a progress counter only observes. On each engine (the fast ideal switch, its
/// flit-by-flit reference, the virtual-channel router), a run with a counter attached gives a
/// result identical to the bit (its JSON, every float included) to one without, and the counter
/// ends at the run's simulated cycles; a counter shared by a sweep's points running on several
/// threads ends at the sum of their cycles.
#[test]
fn a_progress_counter_changes_nothing_and_ends_at_the_simulated_cycles() {
    use netwrap_engine::progress::Progress;
    use rayon::prelude::*;
    let mut specs = Vec::new();
    for engine in [EngineKind::Fast, EngineKind::Reference] {
        let mut s = torus(8, 2, 0.03, 4);
        s.run.messages = Some(20_000);
        s.run.engine = Some(engine);
        specs.push(s);
    }
    let mut vc: SimSpec = spec(
        r#"{"topology": {"family": "torus", "k": 8, "bidirectional": true}, "router": {"kind": "vc", "buffer": 16}}"#,
    );
    vc.workload.rate = Some(0.05);
    vc.run.messages = Some(30_000);
    specs.push(vc);
    let points: Vec<Resolved> = specs.iter().map(|s| s.resolve().unwrap()).collect();
    for s in &points {
        let e = Experiment::build(s).unwrap();
        let plain = e.run(s).unwrap();
        let progress = Progress::new();
        let watched =
            e.run_with(s, Record { progress: Some(progress.clone()), ..Record::default() }).unwrap();
        assert_eq!(serde_json::to_string(&watched).unwrap(), serde_json::to_string(&plain).unwrap());
        // Long enough that the counter was updated during the run, not only at its end.
        assert!(plain.report.cycles > 2 * Progress::EVERY, "{}", plain.report.cycles);
        assert_eq!(progress.cycles(), plain.report.cycles);
    }
    let progress = Progress::new();
    let record = Record { progress: Some(progress.clone()), ..Record::default() };
    let total: u64 = points
        .par_iter()
        .map(|s| Experiment::build(s).unwrap().run_with(s, record.clone()).unwrap().report.cycles)
        .sum();
    assert_eq!(progress.cycles(), total);
}

/// Verification of cancellation: a run whose progress counter is cancelled stops at its next
/// update of the counter (within `Progress::EVERY` simulated cycles) and is refused as
/// cancelled, not reported; the same spec without cancellation runs far longer.
#[test]
fn a_cancelled_run_stops_at_its_next_update_and_is_refused() {
    use netwrap_engine::progress::Progress;
    let mut s = torus(8, 2, 0.03, 4);
    s.run.messages = Some(200_000);
    let point = s.resolve().unwrap();
    let e = Experiment::build(&point).unwrap();
    let progress = Progress::new();
    progress.cancel();
    let r = e.run_with(&point, Record { progress: Some(progress.clone()), ..Record::default() });
    assert_eq!(r.unwrap_err(), netwrap_sim::SimError::Cancelled);
    assert!(progress.cycles() <= Progress::EVERY + 1, "{}", progress.cycles());
    assert!(e.run(&point).unwrap().report.cycles > 10 * Progress::EVERY);
}

/// Oracle under non-minimal paths: Valiant, UGAL-local, UGAL-global and PAR (its queues the
/// cycles a channel is granted ahead, which both engines know alike) give identical results on
/// both engines — a dragonfly through groups and routers under uniform and group-shift
/// traffic, a bidirectional torus and a HyperX through routers — light and beyond saturation.
#[test]
fn fast_engine_matches_flit_reference_under_nonminimal_paths() {
    let dragonfly = r#"{"family": "dragonfly", "p": 2}"#;
    let cases = [
        (dragonfly, "valiant", r#", "via": "group""#, r#""pattern": "group-shift""#),
        (dragonfly, "valiant", r#", "via": "router""#, r#""pattern": "uniform""#),
        (dragonfly, "ugal-local", "", r#""pattern": "group-shift""#),
        (dragonfly, "ugal-global", r#", "threshold": 2"#, r#""pattern": "group-shift""#),
        (dragonfly, "par", "", r#""pattern": "uniform""#),
        (
            r#"{"family": "torus", "k": 4, "bidirectional": true}"#,
            "ugal-local",
            "",
            r#""pattern": "transpose""#,
        ),
        (r#"{"family": "hyperx", "sizes": [3, 3], "p": 2}"#, "valiant", "", r#""pattern": "uniform""#),
    ];
    for (topology, routing, extra, pattern) in cases {
        for rate in [0.05, 0.4] {
            let s = spec(&format!(
                r#"{{"topology": {topology}, "routing": {{"algorithm": "{routing}"{extra}}}, "workload": {{"rate": {rate}, "size": 2, {pattern}}}, "run": {{"messages": 800, "warmup": 100}}}}"#
            ));
            compare(&s);
        }
    }
}

/// Verification of the per-source counts and Jain's index on a script: sources 0, 0, 1 and 5
/// send one message each to 3 on a 4-ring (every message delivered in the window), so the
/// sources that sent accept 2, 1 and 1 messages (and none of the others sent), over the run's
/// window W: Jain's index (2 + 1 + 1)² / (3 · (4 + 1 + 1)) = 16/18, min 1/W, max 2/W.
#[test]
fn accepted_throughput_is_counted_by_source_and_jain_follows() {
    let c = cube(4, 2);
    let o = scripted(&c, 2, vec![(0, 0, 3), (1, 0, 3), (2, 1, 3), (3, 5, 3)], EngineKind::Fast);
    let mut want = vec![0u32; 16];
    want[0] = 2;
    want[1] = 1;
    want[5] = 1;
    assert_eq!(o.accepted, want);
    let w = (o.end - o.warmup) as f64;
    let f = netwrap_sim::report::Fairness::of(&o.generated, &o.accepted, w).unwrap();
    assert!((f.jain - 16.0 / 18.0).abs() < 1e-12, "{f:?}");
    assert!((f.min - 1.0 / w).abs() < 1e-12 && (f.max - 2.0 / w).abs() < 1e-12, "{f:?}");
}

/// The 64×64 torus (VC router, 2 VCs of 8 flits, dateline) at a third of its capacity, with a
/// 1-cycle warm-up and one measured message: a run that lies wholly in the network's fill
/// transient (its mean route is 64 hops, its deliveries and latencies still rising).
fn filling(max_cycles: u64) -> SimSpec {
    spec(&format!(
        r#"{{"topology": {{"family": "torus", "k": 64, "n": 2, "bidirectional": true}},
            "router": {{"kind": "vc", "vcs": 2, "deadlock": "dateline", "buffer": 8, "packet": 4}},
            "workload": {{"load": 0.01, "size": 4}},
            "run": {{"warmup": 1, "messages": 1, "max-cycles": {max_cycles}}}}}"#
    ))
}

/// Verification of the steady-state test on a known transient: a network filling up is not
/// saturated. Run as given, the 64×64 torus's one measured message is created at cycle 1 and
/// arrives while deliveries are still rising; the test finds the transient (MSER) and the warm-up
/// grows (each time at least doubled) until it ends, past the first deliveries (the shortest
/// routes, 1 hop plus 4 flits, arrive from cycle 5); the accepted load then matches the offer
/// within the window's noise. With a cycle limit too small to grow the warm-up the verdict is
/// `not-steady`, never `saturated`.
#[test]
fn a_network_filling_up_is_not_called_saturated() {
    let r = run(&filling(10_000_000)).report;
    assert_eq!(r.verdict, Verdict::Ok, "{:?}", r.verdict_reason);
    assert_eq!(r.warmup_extended_from, Some(1));
    let steady = r.steady_state.unwrap();
    assert!(r.warmup >= steady.transient_end.unwrap() && r.warmup > 5, "{r:?}");
    let r = run(&filling(60)).report;
    assert_eq!(r.verdict, Verdict::NotSteady, "{:?}", r.verdict_reason);
    assert!(r.verdict_reason.unwrap().contains("--max-cycles"));
    assert!(r.latency.is_none());
}

/// Verification of MSER on series whose transient is known: a ramp over the first 40 of 100
/// values then a constant truncates at the ramp's end; a series rising throughout has its
/// minimum at the search's bound, half the series (no steady part); a constant one at 0.
#[test]
fn mser_finds_a_ramps_end() {
    use netwrap_sim::report::mser;
    let ramp: Vec<f64> = (0..100).map(|i| (i.min(40)) as f64).collect();
    assert_eq!(mser(&ramp), 40);
    let rising: Vec<f64> = (0..100).map(|i| i as f64).collect();
    assert_eq!(mser(&rising), 50);
    assert_eq!(mser(&[3.0; 100]), 0);
}
