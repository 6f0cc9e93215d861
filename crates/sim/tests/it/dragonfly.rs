//! The dragonfly (Kim, Dally, Scott & Abts 2008) simulated: group-shift traffic's exact loads
//! under minimal routing, and the ideal switch and the virtual-channel router on it.

use netwrap_engine::traffic::{GroupShift, Pattern};
use netwrap_sim::report::Verdict;
use netwrap_sim::routes::facts;
use netwrap_sim::{SimResult, SimSpec, simulate};
use netwrap_topo::{RoutingSpec, TopologySpec};

fn dragonfly(p: u32) -> TopologySpec {
    serde_json::from_str(&format!(r#"{{"family": "dragonfly", "p": {p}}}"#)).unwrap()
}

/// Verification: under group shift every terminal of group i sends to group i + 1, whose only
/// global link from group i then carries all a·p terminals' traffic: the busiest channel's
/// load is a·p per unit rate and minimal routing's bound 1/(a·p), 1/8 = 0.125 for p = 2 (a = 4)
/// and 1/32 = 0.03125 for p = 4 (a = 8). The local channels carry less: at most p (the
/// terminals of a router, to the router holding the link) plus the landing router's share.
/// Under uniform traffic (the source included) a global channel i → j carries the messages of
/// group i's a·p terminals to group j's a·p: a·p·(a·p)/N = (a·p)/g per unit rate.
#[test]
fn group_shift_bound_is_one_over_a_p() {
    for (p, bound) in [(2u32, 0.125), (4, 0.03125)] {
        let (a, h) = (2 * p, p);
        let g = a * h + 1;
        let topo = dragonfly(p).shape(&RoutingSpec::default()).unwrap().build().unwrap();
        assert_eq!(topo.groups(), Some((a * p, g)));
        let pattern = Pattern::GroupShift(GroupShift { size: a * p, groups: g, shift: 1 });
        let f = facts(&topo, &pattern, None).unwrap();
        let loads = f.loads.unwrap();
        let max = loads.iter().map(|l| l.max).fold(0.0, f64::max);
        assert!((1.0 / max - bound).abs() < 1e-12, "p={p}: 1/{max}");
        let global = loads.iter().find(|l| l.class == 1).unwrap();
        assert!((global.max - (a * p) as f64).abs() < 1e-9);
        // g global channels carry a·p each; the other a·h·g − g carry nothing.
        assert!((global.sum - (g * a * p) as f64).abs() < 1e-6, "{}", global.sum);
        let u = facts(&topo, &Pattern::Uniform(a * p * g), None).unwrap();
        let gmax = u.loads.unwrap().iter().find(|l| l.class == 1).unwrap().max;
        assert!((gmax - (a * p) as f64 / g as f64).abs() < 1e-9, "p={p}: uniform global load {gmax}");
    }
}

fn run(rate: f64, pattern: &str, router: &str, messages: u64) -> SimResult {
    let text = format!(
        r#"{{"topology": {{"family": "dragonfly", "p": 2}},
            "router": {{"kind": "{router}"}},
            "workload": {{"rate": {rate}, "size": 1, "pattern": "{pattern}"}},
            "run": {{"messages": {messages}, "seed": 5, "max-cycles": 400000}}}}"#
    );
    let s: SimSpec = serde_json::from_str(&text).unwrap();
    simulate(&s).unwrap()
}

/// The ideal switch on the p = 2 dragonfly under group shift: below the bound (0.06 < 0.125)
/// every message is accepted (accepted within four binomial standard errors of offered); at
/// 0.3 the run saturates and accepts at most the bound plus a margin. The margin: every
/// delivered message crossed its group's one global link (one one-flit message per cycle),
/// during the window (at most W + 1 per link) or before it (at most what was beyond the link
/// at the window's start: the landing routers' queues toward the a − 1 other routers and
/// their own terminals, each served at a fraction 1/a of the link's rate, so a few messages);
/// allowing a (a + 1) per group for those, and three Poisson standard errors of the count.
#[test]
fn ideal_switch_under_group_shift_accepts_at_most_the_bound() {
    let low = run(0.06, "group-shift", "ideal", 20_000);
    assert_eq!(low.report.verdict, Verdict::Ok, "{:?}", low.report.verdict_reason);
    let n = low.network.nodes as f64;
    let w = (low.report.cycles - low.report.warmup) as f64;
    let se = (low.report.offered * (1.0 - low.report.offered) / (n * w)).sqrt();
    assert!(
        (low.report.accepted_load - low.report.offered_load).abs() <= 4.0 * se.max(1e-4),
        "accepted {} offered {}",
        low.report.accepted_load,
        low.report.offered_load
    );
    assert!((low.max_rate.unwrap() - 0.125).abs() < 1e-12);

    let high = run(0.3, "group-shift", "ideal", 20_000);
    assert!(high.report.saturated);
    let w = (high.report.cycles - high.report.warmup) as f64;
    let (a, g) = (4.0, 9.0);
    let delivered = high.report.accepted_load * n * w;
    let margin = (g * (1.0 + a + 1.0) + 3.0 * delivered.sqrt()) / (n * w);
    eprintln!(
        "group-shift 0.06: offered {} accepted {} (se {se}); 0.3: offered {} accepted {} window {w} margin {margin}",
        low.report.offered_load,
        low.report.accepted_load,
        high.report.offered_load,
        high.report.accepted_load
    );
    assert!(high.report.accepted_load <= 0.125 + margin, "{} > 0.125 + {margin}", high.report.accepted_load);
    assert!(high.report.accepted_load > 0.9 * 0.125, "{}", high.report.accepted_load);
}

/// The virtual-channel router (one class of virtual channels, minimal routing) on the p = 2
/// dragonfly under uniform traffic at a low load completes every measured message. (At high
/// load minimal routing with one class can deadlock: its channel dependencies have cycles.)
#[test]
fn vc_router_on_a_dragonfly_at_low_load_completes() {
    let r = run(0.05, "uniform", "vc", 5_000);
    assert_eq!(r.report.verdict, Verdict::Ok, "{:?}", r.report.verdict_reason);
    assert_eq!(r.report.messages_delivered, 5_000);
    eprintln!(
        "vc uniform 0.05: accepted {} latency {:?} ± {:?}",
        r.report.accepted_load, r.report.latency, r.report.latency_ci95
    );
}

/// Group shift is refused on networks without groups, and with a shift that is a multiple of
/// the groups; a shift goes with group shift only.
#[test]
fn group_shift_needs_groups() {
    let err = |text: &str| {
        let s: SimSpec = serde_json::from_str(text).unwrap();
        simulate(&s).unwrap_err().to_string()
    };
    let e = err(r#"{"topology": {"family": "torus", "k": 4}, "workload": {"pattern": "group-shift"}}"#);
    assert!(e.contains("no groups"), "{e}");
    let e = err(
        r#"{"topology": {"family": "dragonfly", "p": 1}, "workload": {"pattern": "group-shift", "shift": 3}}"#,
    );
    assert!(e.contains("multiple of the 3 groups"), "{e}");
    let e = err(r#"{"topology": {"family": "dragonfly", "p": 1}, "workload": {"shift": 1}}"#);
    assert!(e.contains("applies to the group-shift pattern"), "{e}");
}
