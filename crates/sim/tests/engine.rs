//! Engine tests: exact small cases, fast path against the flit-by-flit reference, and the
//! statistics the seeds' model relies on.

use netwrap_sim::engine::{Arrivals, Outcome, RunSpec};
use netwrap_sim::traffic::Uniform;
use netwrap_sim::{CubeSim, EngineKind, execute, simulate_cube};
use netwrap_topo::{CubeSpec, DimensionOrder, KaryNCube};

fn cube(k: u32, n: u32) -> KaryNCube {
    KaryNCube::new(CubeSpec::torus(k, n), DimensionOrder::HighestFirst).unwrap()
}

fn scripted(c: &KaryNCube, size: u32, msgs: Vec<(u64, u32, u32)>, engine: EngineKind) -> Outcome {
    let spec = RunSpec {
        messages: msgs.len() as u64,
        arrivals: Arrivals::Script(msgs),
        size,
        warmup: 0,
        max_cycles: 100_000,
        seed: 9,
    };
    execute(c.network(), c, &Uniform::new(c.network().terminals()), &spec, engine)
}

/// Unloaded, a message of h hops takes exactly h + B cycles, on both engines, for every
/// source-destination pair of a 4-ary 3-cube (self-addressed messages: 0 hops, B cycles).
#[test]
fn single_message_latency_is_hops_plus_size() {
    let c = cube(4, 3);
    for engine in [EngineKind::Fast, EngineKind::Reference] {
        for size in [1, 4] {
            for dst in 0..64 {
                let src = 21;
                let o = scripted(&c, size, vec![(5, src, dst)], engine);
                let h = c.distance(src, dst);
                assert!(o.drained);
                assert_eq!(o.hops, vec![h as u16]);
                assert_eq!(o.latencies, vec![h + size], "{engine:?} B={size} {src}->{dst}");
                assert_eq!(o.source_waits, vec![0]);
                assert_eq!(o.end, 5 + (h + size) as u64);
            }
        }
    }
}

/// Dimension-order hop counts on a unidirectional torus: (d_i − s_i) mod k per dimension.
#[test]
fn hop_counts_are_dimension_order_distances() {
    let c = cube(5, 2);
    let msgs: Vec<(u64, u32, u32)> = (0..25).map(|d| (d as u64 * 50, 7, d)).collect();
    let o = scripted(&c, 2, msgs, EngineKind::Fast);
    for d in 0..25u32 {
        let expect = (d % 5 + 5 - 2) % 5 + (d / 5 + 5 - 1) % 5;
        assert_eq!(o.hops[d as usize] as u32, expect);
    }
}

/// Two messages meeting at one channel in the same cycle: one goes first, the other waits
/// exactly B cycles, whichever wins the seeded tie-break.
#[test]
fn contention_costs_one_message_time() {
    let c = cube(8, 1);
    for engine in [EngineKind::Fast, EngineKind::Reference] {
        // 0 -> 2 reaches router 1 at cycle 1, when 1 -> 3 is created there.
        let o = scripted(&c, 4, vec![(0, 0, 2), (1, 1, 3)], engine);
        let mut l = o.latencies.clone();
        l.sort_unstable();
        assert_eq!(l, vec![6, 10], "{engine:?}");
    }
}

fn compare(sim: CubeSim) {
    let fast = simulate_cube(&CubeSim { engine: EngineKind::Fast, ..sim.clone() }).unwrap();
    let slow = simulate_cube(&CubeSim { engine: EngineKind::Reference, ..sim.clone() }).unwrap();
    assert_eq!(slow.stalls, 0, "a granted message found its next flit missing: {sim:?}");
    let (f, r) = (&fast.outcome, &slow.outcome);
    assert_eq!(f.latencies, r.latencies, "latencies differ on {sim:?}");
    assert_eq!(f.hops, r.hops, "hops differ on {sim:?}");
    assert_eq!(f.source_waits, r.source_waits, "source waits differ on {sim:?}");
    assert_eq!((f.end, f.drained), (r.end, r.drained), "end differs on {sim:?}");
    assert_eq!((&f.generated, &f.delivered), (&r.generated, &r.delivered), "counts differ on {sim:?}");
    assert_eq!(f.channel_busy, r.channel_busy, "busy cycles differ on {sim:?}");
}

/// The per-message fast path and the flit-by-flit reference give identical results: light and
/// heavy load, saturation, long and short messages, locality, both wirings and a mesh.
#[test]
fn fast_engine_matches_flit_reference() {
    for (k, n, rate, size) in
        [(4, 2, 0.05, 4), (4, 2, 0.3, 1), (5, 2, 0.12, 3), (3, 3, 0.2, 2), (4, 2, 0.4, 4)]
    {
        compare(CubeSim { messages: 1500, warmup: Some(200), ..CubeSim::new(k, n, rate, size) });
    }
    compare(CubeSim { locality: 0.3, messages: 1500, warmup: Some(100), ..CubeSim::new(6, 2, 0.1, 3) });
    compare(CubeSim {
        bidirectional: true,
        messages: 1500,
        warmup: Some(100),
        ..CubeSim::new(6, 2, 0.15, 3)
    });
    compare(CubeSim {
        bidirectional: true,
        wrap: false,
        messages: 1500,
        warmup: Some(100),
        ..CubeSim::new(5, 2, 0.1, 2)
    });
    compare(CubeSim {
        order: DimensionOrder::LowestFirst,
        messages: 800,
        warmup: Some(100),
        ..CubeSim::new(4, 3, 0.08, 5)
    });
}

#[test]
fn same_seed_same_result_other_seed_other_result() {
    let sim = CubeSim { messages: 3000, ..CubeSim::new(8, 2, 0.04, 4) };
    let a = simulate_cube(&sim).unwrap();
    let b = simulate_cube(&sim).unwrap();
    assert_eq!(a.outcome, b.outcome);
    let c = simulate_cube(&CubeSim { seed: 2, ..sim }).unwrap();
    assert_ne!(a.outcome.latencies, c.outcome.latencies);
}

/// Mean hops within the 95% confidence interval of n·k_d, and n·k_dl with locality (k_dl from
/// the subcube side actually simulated).
#[test]
fn mean_hops_match_n_k_d() {
    for (k, n, l) in [(8, 2, 1.0), (10, 3, 1.0), (16, 2, 0.25), (8, 3, 0.5)] {
        let run = simulate_cube(&CubeSim { locality: l, messages: 20_000, ..CubeSim::new(k, n, 0.005, 2) })
            .unwrap();
        let side = run.config.subcube.sides[0] as f64;
        let expect = n as f64 * (side - 1.0) / 2.0;
        let ci = run.report.mean_hops_ci95.unwrap();
        assert!(
            (run.report.mean_hops - expect).abs() <= ci.max(0.02 * expect),
            "k={k} n={n} l={l}: {} ± {ci} vs {expect}",
            run.report.mean_hops
        );
    }
}

/// Measured utilisation within 2% of m·B·k_d below saturation, in every dimension.
#[test]
fn utilisation_matches_m_b_k_d() {
    for (k, n, rate, size) in [(8, 2, 0.04, 4), (10, 2, 0.02, 4), (4, 3, 0.1, 2)] {
        let run = simulate_cube(&CubeSim { messages: 40_000, ..CubeSim::new(k, n, rate, size) }).unwrap();
        let expect = rate * size as f64 * (k as f64 - 1.0) / 2.0;
        assert!(!run.report.saturated);
        assert!(
            (run.report.utilization - expect).abs() / expect < 0.02,
            "{} vs {expect}",
            run.report.utilization
        );
        for class in &run.report.utilization_by_class {
            assert!((class.utilization - expect).abs() / expect < 0.03, "{class:?}");
            assert!((class.expected.unwrap() - expect).abs() < 1e-12);
        }
    }
}

/// Seed 004's typical run (m = 0.05, B = 6 on 64 nodes: ρ = 1.05) is beyond capacity: it is
/// reported as saturated, with no latency and an accepted throughput near 1/(B·k_d).
#[test]
fn overload_is_reported_as_saturated() {
    let run = simulate_cube(&CubeSim { messages: 5000, ..CubeSim::new(8, 2, 0.05, 6) }).unwrap();
    assert!(run.report.saturated);
    assert!(run.report.latency.is_none());
    assert!(run.report.saturation_reason.as_deref().unwrap().contains("offered load"));
    let capacity = 1.0 / (6.0 * 3.5);
    assert!(
        run.report.throughput < 0.05 && run.report.throughput > 0.85 * capacity,
        "{}",
        run.report.throughput
    );
    // A run cut short by the cycle limit is also saturated, and says so.
    let run = simulate_cube(&CubeSim {
        messages: 5000,
        max_cycles: 3000,
        warmup: Some(500),
        ..CubeSim::new(8, 2, 0.06, 6)
    })
    .unwrap();
    assert!(run.report.saturated && !run.outcome.drained);
}

#[test]
fn bad_parameters_are_errors() {
    for sim in [
        CubeSim::new(8, 2, -0.1, 4),
        CubeSim::new(8, 2, 1.1, 4),
        CubeSim::new(8, 2, f64::NAN, 4),
        CubeSim::new(8, 2, 0.0, 4),
        CubeSim::new(8, 2, 0.1, 0),
        CubeSim::new(1, 2, 0.1, 4),
        CubeSim::new(8, 0, 0.1, 4),
        CubeSim { locality: 0.0, ..CubeSim::new(8, 2, 0.1, 4) },
        CubeSim { locality: 1.5, ..CubeSim::new(8, 2, 0.1, 4) },
        CubeSim { messages: 0, ..CubeSim::new(8, 2, 0.1, 4) },
        CubeSim { wrap: false, bidirectional: true, locality: 0.5, ..CubeSim::new(8, 2, 0.1, 4) },
        CubeSim { wrap: false, ..CubeSim::new(8, 2, 0.1, 4) },
        CubeSim::new(1 << 20, 2, 0.1, 4),
    ] {
        assert!(simulate_cube(&sim).is_err(), "{sim:?}");
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

/// Seed 003 §5.3 note d: onto a wider channel a message waits for its last flit; onto a
/// narrower one it cuts through. B = 4: narrow-then-wide takes 4 + 2 + 1 = 7 cycles,
/// wide-then-narrow 1 + 4 + 1 = 6, two unit channels 2 + 4 = 6, two wide ones 1 + 2 + 1 = 4.
#[test]
fn wider_channels_carry_more_flits_and_buffer_whole_messages() {
    for (widths, expect) in [([1, 2], 7), ([2, 1], 6), ([1, 1], 6), ([2, 2], 4)] {
        let l = line(widths);
        let spec = RunSpec {
            messages: 1,
            arrivals: Arrivals::Script(vec![(3, 0, 1)]),
            size: 4,
            warmup: 0,
            max_cycles: 100,
            seed: 1,
        };
        let o = execute(&l.0, &l, &Uniform::new(2), &spec, EngineKind::Fast);
        assert_eq!(o.latencies, vec![expect], "widths {widths:?}");
        assert_eq!(o.hops, vec![2]);
    }
}
