//! Every family simulated: the simulator's mean hop count matches the routes' exact mean and
//! the topology's average distance, utilisation matches the offered load per class, and no
//! message is lost.

use netwrap_sim::{EngineKind, FamilySim, simulate_family};
use netwrap_topo::{CirculantRouting, DimensionOrder, ModuleSplit, StageWiring, TopologySpec};

fn specs() -> Vec<(&'static str, TopologySpec)> {
    let cube = |radices: Vec<u32>, wrap, bidirectional| TopologySpec::Cube {
        radices,
        wrap,
        bidirectional,
        order: DimensionOrder::HighestFirst,
    };
    vec![
        ("torus 4x4", cube(vec![4, 4], true, false)),
        ("bidirectional torus 5x4", cube(vec![5, 4], true, true)),
        ("mesh 4x3", cube(vec![4, 3], false, true)),
        ("ring 9", cube(vec![9], true, true)),
        ("hypercube 5", TopologySpec::Hypercube { n: 5 }),
        ("circulant C_20(3,7)", TopologySpec::Circulant { nodes: 20, a: 3, b: 7 }),
        ("midimew 32 (table)", TopologySpec::Midimew { nodes: 32, routing: CirculantRouting::Table }),
        ("midimew 50 (record)", TopologySpec::Midimew { nodes: 50, routing: CirculantRouting::Record }),
        ("butterfly 2^4", TopologySpec::Multistage { k: 2, stages: 4, wiring: StageWiring::Butterfly }),
        ("omega 4^2", TopologySpec::Multistage { k: 4, stages: 2, wiring: StageWiring::Omega }),
        ("fat-tree 64", TopologySpec::FatTree { nodes: 64 }),
        ("complete 8", TopologySpec::NHop { factors: vec![8] }),
        ("2-hop K4 x K8", TopologySpec::NHop { factors: vec![4, 8] }),
        ("CCC(3)", TopologySpec::Ccc { n: 3 }),
        ("crossbar 16", TopologySpec::Crossbar { nodes: 16 }),
        (
            "Xbar modules",
            TopologySpec::XbarModules {
                per_module: 4,
                factors: vec![4],
                intra_bits: 16,
                inter_bits: vec![32],
            },
        ),
        (
            "Butterfly.16.4",
            TopologySpec::ModularButterfly {
                nodes: 16,
                modules: 4,
                split: ModuleSplit { factors: vec![4], intra_bits: 16, inter_bits: vec![16], dilation: 1 },
            },
        ),
        ("table-routed torus 4x4", TopologySpec::Table { of: Box::new(cube(vec![4, 4], true, true)) }),
    ]
}

fn run(spec: TopologySpec, rate: f64) -> netwrap_sim::FamilyRun {
    simulate_family(&FamilySim {
        topology: spec,
        rate,
        size: 2,
        messages: 6000,
        max_cycles: 2_000_000,
        warmup: None,
        seed: 3,
        engine: EngineKind::Fast,
    })
    .unwrap()
}

/// Under uniform traffic the simulated mean hop count is the routes' exact mean (within the
/// batch-means interval), and that mean is the topology's average distance over distinct pairs
/// combined with the self-addressed routes: ((N − 1)·avg + self)/N.
#[test]
fn mean_hops_match_average_distance_for_every_family() {
    for (name, spec) in specs() {
        let topo = spec.build().unwrap();
        let metrics = topo.metrics().unwrap();
        let r = run(spec, 0.01);
        let n = r.config.nodes as f64;
        assert!(!r.report.saturated, "{name}: {:?}", r.report.saturation_reason);
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
            (0..r.config.nodes).all(|t| topo.network().inject_router(t) == topo.network().eject_router(t));
        if direct {
            let expect = (n - 1.0) * metrics.average_distance / n;
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
    for (name, spec) in specs() {
        let r = run(spec, 0.05);
        let offered =
            r.offered_utilization.unwrap_or_else(|| panic!("{name}: loads not computed: {}", r.load_method));
        assert_eq!(r.report.saturated, offered >= 1.0, "{name}: offered {offered}");
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
    let r = run(TopologySpec::FatTree { nodes: 64 }, 0.4);
    assert!(r.report.saturated && r.report.latency.is_none());
    let capacity = r.saturation_rate.unwrap();
    assert!(
        r.report.throughput < 0.4 && r.report.throughput > 0.8 * capacity,
        "{} vs {capacity}",
        r.report.throughput
    );
}
