//! DAL on the HyperX (Ahn et al. 2009 §4): what it carries under the dimension shift that
//! minimal routing cannot, how closely it follows minimal routing under uniform traffic, and
//! its per-hop classes at full load on the virtual-channel router.

use netwrap_engine::traffic::{MessageSize, Pattern};
use netwrap_engine::{Arrivals, Record, RunSpec, StopRule};
use netwrap_sim::report::Verdict;
use netwrap_sim::{
    Arbitration, Avoidance, Router, SimResult, SimSpec, Switching, VcParams, execute, simulate,
};
use netwrap_topo::{PathChoice, Paths, RoutingSpec, TopologySpec, Via};

/// The 8 x 8 HyperX with p = 4 terminals per router (256 terminals), one-flit messages.
fn routed(rate: f64, pattern: &str, router: &str, routing: &str) -> SimResult {
    let router = match router {
        "ideal" => r#"{"kind": "ideal"}"#.to_string(),
        // Four classes (DAL's most hops on a 2-D HyperX), oldest-first arbitration.
        _ => r#"{"kind": "vc", "vcs": 4, "packet": 4, "deadlock": "phases", "arbitration": "oldest-first"}"#
            .to_string(),
    };
    let size = if router.contains("vc") { 4 } else { 1 };
    let deadlock_free =
        if routing == "dal" || !router.contains("vc") { router } else { router.replace("phases", "none") };
    let text = format!(
        r#"{{"topology": {{"family": "hyperx", "sizes": [8, 8], "p": 4}},
            "routing": {{"algorithm": "{routing}"}},
            "router": {deadlock_free},
            "workload": {{"rate": {}, "size": {size}, "pattern": "{pattern}"}},
            "run": {{"messages": 20000, "seed": 7, "max-cycles": 400000}}}}"#,
        rate / size as f64
    );
    let s: SimSpec = serde_json::from_str(&text).unwrap();
    simulate(&s).unwrap()
}

/// Four binomial standard errors of the accepted load of a run that accepts what it is
/// offered.
fn tolerance(r: &SimResult) -> f64 {
    let n = r.network.nodes as f64;
    let w = (r.report.cycles - r.report.warmup) as f64;
    4.0 * (r.report.offered * (1.0 - r.report.offered) / (n * w)).sqrt()
}

/// Verification on the ideal switch. Under the dimension shift (s = 1) all p terminals of a
/// router send to the next router in dimension 0, whose one direct channel then carries p per
/// unit rate: minimal routing's bound is 1/p = 0.25 (the exact loads say so). DAL may deroute
/// through any of the S − 2 other routers of the row: a direct channel carrying x ≤ 1 and the
/// rest spread over the S − 2 deroutes, each of whose channels then carries its share twice
/// (as a first hop of one router's deroutes and the second hop of another's), so DAL's bound
/// is p·λ ≤ 1 + (S − 2)/2, λ ≤ S/(2p) = 1.0. At offered 0.8 DAL accepts everything (within
/// four binomial standard errors) and must deroute at least 1 − 1/(p·λ) = 0.6875 of the
/// messages (the direct channel carries at most one per cycle), while minimal routing
/// saturates at the bound (plus three Poisson standard errors of what it delivered and the
/// messages each router's direct channel held when the window opened).
#[test]
fn dal_carries_the_dimension_shift_that_saturates_minimal_routing() {
    let min = routed(0.8, "dimension-shift", "ideal", "family");
    assert!((min.max_rate.unwrap() - 0.25).abs() < 1e-12, "{:?}", min.max_rate);
    assert!(min.report.saturated);
    let n = min.network.nodes as f64;
    let w = (min.report.cycles - min.report.warmup) as f64;
    let delivered = min.report.accepted_load * n * w;
    let margin = (64.0 * 4.0 + 3.0 * delivered.sqrt()) / (n * w);
    assert!(min.report.accepted_load <= 0.25 + margin, "minimal {}", min.report.accepted_load);
    let dal = routed(0.8, "dimension-shift", "ideal", "dal");
    assert_eq!(dal.report.verdict, Verdict::Ok, "{:?}", dal.report.verdict_reason);
    assert!(
        (dal.report.accepted_load - dal.report.offered_load).abs() <= tolerance(&dal),
        "dal accepted {} of {}",
        dal.report.accepted_load,
        dal.report.offered_load
    );
    let derouted = dal.report.nonminimal.unwrap();
    assert!(derouted >= 1.0 - 1.0 / (4.0 * 0.8) - 0.01, "derouted {derouted}");
    eprintln!(
        "dimension shift at 0.8: minimal accepts {}, dal {} with {derouted} derouted",
        min.report.accepted_load, dal.report.accepted_load
    );
}

/// Characterisation against minimal routing on the ideal switch, as UGAL's on the dragonfly:
/// under uniform traffic at 10% load DAL's latency is within 1% of minimal routing's (the same
/// seed: the same messages; a deroute trades a queued cycle for a hop, UGAL's test at equal
/// cost) and at full offered load it accepts at least 90% of what minimal routing accepts.
#[test]
fn dal_follows_minimal_routing_under_uniform_traffic() {
    let (min, dal) = (routed(0.1, "uniform", "ideal", "family"), routed(0.1, "uniform", "ideal", "dal"));
    let (lm, ld) = (min.report.latency.unwrap(), dal.report.latency.unwrap());
    assert!((ld - lm).abs() <= 0.01 * lm, "10%: dal {ld} minimal {lm}");
    let (min, dal) = (routed(1.0, "uniform", "ideal", "family"), routed(1.0, "uniform", "ideal", "dal"));
    assert!(
        dal.report.accepted_load >= 0.9 * min.report.accepted_load,
        "full load: dal {} minimal {}",
        dal.report.accepted_load,
        min.report.accepted_load
    );
}

/// The virtual-channel router (4-flit packets, wormhole, one VC per class, oldest-first): under
/// the dimension shift at offered 0.8 minimal routing stays within its bound 0.25 (plus what
/// the direct channels' downstream buffers, 4 VCs of 16 flits at each of the 64 routers, held
/// when the window opened, and three Poisson standard errors of the flits delivered), and DAL
/// accepts at least twice that bound.
#[test]
fn dal_on_the_vc_router_beats_minimal_routing_under_the_dimension_shift() {
    let min = routed(0.8, "dimension-shift", "vc", "family");
    let dal = routed(0.8, "dimension-shift", "vc", "dal");
    eprintln!(
        "vc, dimension shift at 0.8: minimal {}, dal {}",
        min.report.accepted_load, dal.report.accepted_load
    );
    let n = min.network.nodes as f64;
    let w = (min.report.cycles - min.report.warmup) as f64;
    let flits = min.report.accepted_load * n * w;
    let margin = (64.0 * 64.0 + 3.0 * flits.sqrt()) / (n * w);
    assert!(
        min.report.accepted_load <= 0.25 + margin,
        "minimal {} (margin {margin})",
        min.report.accepted_load
    );
    assert!(dal.report.accepted_load >= 2.0 * 0.25, "dal {}", dal.report.accepted_load);
}

/// 100,000 cycles at full offered load on the 4 x 4 HyperX (p = 2) on the virtual-channel
/// router, round-robin and oldest-first, wormhole and cut-through: with `phases` (a class per
/// hop, four on two dimensions) DAL never deadlocks — the run ends at its cycle limit, the
/// network saturated, having derouted.
#[test]
fn dal_with_a_class_per_hop_never_deadlocks_at_full_load() {
    let topo: TopologySpec =
        serde_json::from_str(r#"{"family": "hyperx", "sizes": [4, 4], "p": 2}"#).unwrap();
    let topo = topo.shape(&RoutingSpec::default()).unwrap().build().unwrap();
    let size = 4u32;
    for (arbitration, switching) in
        [(Arbitration::RoundRobin, Switching::Wormhole), (Arbitration::OldestFirst, Switching::Vct)]
    {
        let spec = RunSpec {
            arrivals: Arrivals::bernoulli(1.0 / size as f64),
            memories: None,
            size: MessageSize::Fixed(size),
            warmup: 50_000,
            messages: 1 << 31,
            max_cycles: 100_000,
            seed: 9,
            stop: StopRule::drain(),
            record: Record::default(),
            paths: Paths { choice: PathChoice::Dal, via: Via::Router, threshold: 0 },
            groups: None,
            channel_latency: Vec::new(),
        };
        let p = VcParams {
            vcs: 4,
            buffer: 8,
            router_delay: 0,
            link_latency: 1,
            packet: size,
            switching,
            arbitration,
            deadlock: Avoidance::Phases,
            ..VcParams::DEFAULT
        };
        for pattern in [Pattern::Uniform(32), dimension_shift()] {
            let o = execute(&topo, &pattern, &spec, Router::Vc(p));
            assert!(o.deadlock.is_none(), "{arbitration:?} {switching:?}: {:?}", o.deadlock);
            assert_eq!(o.end, 100_000);
            assert!(o.measured.nonminimal > 0);
        }
    }
}

/// The dimension shift on the 4 x 4 HyperX with p = 2: router (x, y)'s terminals to router
/// (x + 1 mod 4, y)'s, terminal for terminal.
fn dimension_shift() -> Pattern {
    let table = (0..32u32).map(|t| (t / 2 / 4 * 4 + (t / 2 % 4 + 1) % 4) * 2 + t % 2).collect();
    Pattern::Fixed(table)
}
