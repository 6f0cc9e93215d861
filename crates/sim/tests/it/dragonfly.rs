//! The dragonfly (Kim, Dally, Scott & Abts 2008) simulated: group-shift traffic's exact loads
//! under minimal routing, and the ideal switch and the virtual-channel router on it.

use netwrap_engine::traffic::{GroupShift, Pattern};
use netwrap_engine::{Arrivals, Record, RunSpec, StopRule};
use netwrap_sim::report::Verdict;
use netwrap_sim::routes::facts;
use netwrap_sim::{
    Arbitration, Avoidance, Router, SimResult, SimSpec, Switching, VcParams, execute, simulate,
};
use netwrap_topo::{Candidates, Family, PathChoice, Paths, RoutingSpec, TopologySpec, Via, Visitor};

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
        let f = facts(&topo, &pattern, None, Paths::default()).unwrap();
        let loads = f.loads.unwrap();
        let max = loads.iter().map(|l| l.max).fold(0.0, f64::max);
        assert!((1.0 / max - bound).abs() < 1e-12, "p={p}: 1/{max}");
        let global = loads.iter().find(|l| l.class == 1).unwrap();
        assert!((global.max - (a * p) as f64).abs() < 1e-9);
        // g global channels carry a·p each; the other a·h·g − g carry nothing.
        assert!((global.sum - (g * a * p) as f64).abs() < 1e-6, "{}", global.sum);
        let u = facts(&topo, &Pattern::Uniform(a * p * g), None, Paths::default()).unwrap();
        let gmax = u.loads.unwrap().iter().find(|l| l.class == 1).unwrap().max;
        assert!((gmax - (a * p) as f64 / g as f64).abs() < 1e-9, "p={p}: uniform global load {gmax}");
    }
}

fn run(rate: f64, pattern: &str, router: &str, messages: u64) -> SimResult {
    routed(rate, pattern, router, "family", messages)
}

fn routed(rate: f64, pattern: &str, router: &str, routing: &str, messages: u64) -> SimResult {
    let text = format!(
        r#"{{"topology": {{"family": "dragonfly", "p": 2}},
            "routing": {{"algorithm": "{routing}"}},
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
    assert!(e.contains("applies to the group-shift and dimension-shift patterns"), "{e}");
}

/// Each flow's Valiant loads walked the plain way: every (source, destination, intermediate
/// terminal) triple, the routing's first candidate at every hop (the dragonfly's minimal
/// routing offers one), the first leg ending at the intermediate's router or group, messages
/// within one router (group) sent minimally — none of the aggregation `facts` does.
struct Brute {
    flows: Vec<(u32, u32, f64)>,
    via: Via,
    size: u32,
}

impl Visitor for Brute {
    type Output = Vec<f64>;
    fn visit<F: Family>(self, f: &F) -> Vec<f64> {
        let net = f.network();
        let n = net.terminals();
        let mut group_of = vec![0u32; net.routers() as usize];
        for t in 0..n {
            group_of[net.eject_router(t) as usize] = t / self.size;
        }
        let group = |r: u32| group_of[r as usize];
        let mut load = vec![0.0; net.channels().len()];
        let mut c = Candidates::for_network(net);
        let mut walk = |from: u32, to: u32, stop: &dyn Fn(u32) -> bool, w: f64, load: &mut Vec<f64>| -> u32 {
            let mut at = from;
            while !stop(at) {
                f.route(at, to, 0, &mut c);
                let Some(&ch) = c.as_slice().first() else { break };
                load[ch as usize] += w;
                at = net.channel(ch).dst;
            }
            at
        };
        for &(s, d, w) in &self.flows {
            let (rs, rd) = (net.inject_router(s), net.eject_router(d));
            let local = match self.via {
                Via::Router => rs == rd,
                Via::Group => group(rs) == group(rd),
            };
            if local {
                walk(rs, d, &|_| false, w, &mut load);
                continue;
            }
            for v in 0..n {
                let rv = net.eject_router(v);
                let arrived = |r: u32| match self.via {
                    Via::Router => r == rv,
                    Via::Group => group(r) == group(rv),
                };
                let mid = walk(rs, v, &arrived, w / n as f64, &mut load);
                walk(mid, d, &|_| false, w / n as f64, &mut load);
            }
        }
        load
    }
}

/// Verification of Valiant's exact loads on the p = 2 dragonfly, both intermediates (group and
/// router), uniform and group-shift traffic: per class, the busiest channel and the sum equal
/// the plain walk of every (source, destination, intermediate) triple. And under group shift
/// through a group, from Kim et al.'s construction: the link X → Y carries group X's messages
/// sent through Y (1/g of them) and group Y − 1's sent through X (1/g), or on the link
/// X → X + 1 X's messages sent through X or X + 1: 2·a·p/g per unit rate on every one of the
/// g(g − 1) global channels. The busiest channel is a local one at 2 per unit rate: Valiant's
/// bound 0.5 (Kim et al. 2008 §4.1: half the channel bandwidth, whatever the traffic).
#[test]
fn valiant_loads_are_the_walk_of_every_intermediate() {
    let (p, a, g) = (2u32, 4u32, 9u32);
    let n = a * p * g;
    let topo = dragonfly(p).shape(&RoutingSpec::default()).unwrap().build().unwrap();
    let shift = GroupShift { size: a * p, groups: g, shift: 1 };
    let uniform: Vec<(u32, u32, f64)> =
        (0..n).flat_map(|s| (0..n).map(move |d| (s, d, 1.0 / n as f64))).collect();
    let shifted: Vec<(u32, u32, f64)> = (0..n)
        .flat_map(|s| {
            (0..shift.size).map(move |k| (s, shift.target(s) * shift.size + k, 1.0 / shift.size as f64))
        })
        .collect();
    for (pattern, flows) in [(Pattern::Uniform(n), uniform), (Pattern::GroupShift(shift), shifted)] {
        for via in [Via::Group, Via::Router] {
            let paths = Paths { choice: PathChoice::Valiant, via, threshold: 0 };
            let f = facts(&topo, &pattern, None, paths).unwrap();
            assert!(f.hops_exact, "{}", f.load_method);
            let exact = f.loads.unwrap();
            let brute = topo.visit(Brute { flows: flows.clone(), via, size: a * p });
            let net = topo.network();
            for class in 0..2u16 {
                let of: Vec<f64> = net
                    .channels()
                    .iter()
                    .zip(&brute)
                    .filter(|(c, _)| c.class == class)
                    .map(|(_, &l)| l)
                    .collect();
                let max = of.iter().cloned().fold(0.0, f64::max);
                let sum: f64 = of.iter().sum();
                let e = exact.iter().find(|l| l.class == class).unwrap();
                assert!(
                    (e.max - max).abs() < 1e-9 && (e.sum - sum).abs() < 1e-6,
                    "{pattern:?} {via:?} class {class}: exact {e:?}, walked max {max} sum {sum}"
                );
            }
            let mean: f64 = brute.iter().sum::<f64>() / n as f64;
            assert!((f.mean_hops - mean).abs() < 1e-9, "{} vs {mean}", f.mean_hops);
            if matches!(pattern, Pattern::GroupShift(_)) && via == Via::Group {
                let global = exact.iter().find(|l| l.class == 1).unwrap();
                let per = 2.0 * (a * p) as f64 / g as f64;
                assert!((global.max - per).abs() < 1e-9, "{}", global.max);
                assert!((global.sum - per * (g * (g - 1)) as f64).abs() < 1e-6, "{}", global.sum);
                let busiest = exact.iter().map(|l| l.max).fold(0.0, f64::max);
                assert!((busiest - 2.0).abs() < 1e-9, "busiest {busiest}: bound {}", 1.0 / busiest);
            }
        }
    }
}

/// The ideal switch under group shift with Valiant routing: at 0.4 flits per node per cycle
/// (below the bound 0.5) every message is accepted, within four binomial standard errors; at
/// 1.0 the run saturates and accepts at most the bound plus the margin of
/// [`ideal_switch_under_group_shift_accepts_at_most_the_bound`] (messages beyond the busiest
/// channels when the window opened, and three Poisson standard errors), and at least 80% of
/// it: Valiant approaches 0.5 where minimal routing stops at 0.125.
#[test]
fn valiant_under_group_shift_approaches_one_half() {
    let low = routed(0.4, "group-shift", "ideal", "valiant", 20_000);
    assert_eq!(low.report.verdict, Verdict::Ok, "{:?}", low.report.verdict_reason);
    assert_eq!(low.report.nonminimal, Some(1.0));
    let n = low.network.nodes as f64;
    let w = (low.report.cycles - low.report.warmup) as f64;
    let se = (low.report.offered * (1.0 - low.report.offered) / (n * w)).sqrt();
    assert!((low.report.accepted_load - low.report.offered_load).abs() <= 4.0 * se);
    assert!((low.max_rate.unwrap() - 0.5).abs() < 1e-12);
    let high = routed(1.0, "group-shift", "ideal", "valiant", 20_000);
    assert!(high.report.saturated);
    let w = (high.report.cycles - high.report.warmup) as f64;
    let (a, g) = (4.0, 9.0);
    let delivered = high.report.accepted_load * n * w;
    let margin = (2.0 * g * (1.0 + a + 1.0) + 3.0 * delivered.sqrt()) / (n * w);
    eprintln!(
        "valiant group-shift: 0.4 accepted {}; 1.0 accepted {} (margin {margin})",
        low.report.accepted_load, high.report.accepted_load
    );
    assert!(high.report.accepted_load <= 0.5 + margin, "{}", high.report.accepted_load);
    assert!(high.report.accepted_load >= 0.8 * 0.5, "{}", high.report.accepted_load);
}

/// UGAL-local against minimal routing on the ideal switch (Kim et al. 2008 §4.1, Fig. 6's
/// claims): under uniform traffic it follows minimal routing — at 10% load its latency is
/// within 1% of minimal's (same seed: the same messages; at that load almost every queue is
/// empty and UGAL's tie goes to the minimal path) and at full offered load it accepts at least
/// 90% of what minimal routing accepts; under group shift it accepts at least twice as much
/// (minimal routing stops at 1/(a·p) = 0.125), and UGAL-global, which sees every queue on
/// both paths, at least as much as UGAL-local.
#[test]
fn ugal_follows_minimal_under_uniform_and_beats_it_under_group_shift() {
    let latency = |routing: &str| {
        let r = routed(0.1, "uniform", "ideal", routing, 20_000);
        assert_eq!(r.report.verdict, Verdict::Ok);
        r.report.latency.unwrap()
    };
    let (min, ugal) = (latency("family"), latency("ugal-local"));
    assert!((ugal - min).abs() <= 0.01 * min, "uniform 10%: ugal {ugal} min {min}");
    let accepted =
        |pattern: &str, routing: &str| routed(1.0, pattern, "ideal", routing, 20_000).report.accepted_load;
    let (min_u, ugal_u) = (accepted("uniform", "family"), accepted("uniform", "ugal-local"));
    assert!(ugal_u >= 0.9 * min_u, "uniform full load: ugal {ugal_u} min {min_u}");
    let min_s = accepted("group-shift", "family");
    let ugal_s = accepted("group-shift", "ugal-local");
    let global_s = accepted("group-shift", "ugal-global");
    eprintln!(
        "uniform 10%: min {min} ugal {ugal}; full: min {min_u} ugal {ugal_u}; group shift: min {min_s} ugal-local {ugal_s} ugal-global {global_s}"
    );
    assert!(ugal_s >= 2.0 * min_s, "group shift: ugal {ugal_s} min {min_s}");
    assert!(global_s >= ugal_s, "group shift: ugal-global {global_s} < ugal-local {ugal_s}");
}

/// 100,000 cycles at full offered load under group shift on the virtual-channel router (4-flit
/// packets, wormhole, buffers of 8 flits): with the `phases` classes every non-minimal
/// routing keeps delivering — the run ends at its cycle limit with the network saturated,
/// never on a deadlock, under group shift and under uniform traffic — while the minimal
/// routing's two classes (`dest-group`), which reuse class 0 across the intermediate group,
/// deadlock under Valiant (group shift) and UGAL (uniform), as BookSim's UGAL does.
#[test]
fn phases_keep_nonminimal_routing_deadlock_free_at_full_load() {
    let topo = dragonfly(2).shape(&RoutingSpec::default()).unwrap().build().unwrap();
    let (size, g) = (4u32, 9u32);
    let shift = Pattern::GroupShift(GroupShift { size: 8, groups: g, shift: 1 });
    let spec = |choice: PathChoice, seed: u64| RunSpec {
        arrivals: Arrivals::bernoulli(1.0 / size as f64),
        memories: None,
        size: netwrap_engine::traffic::MessageSize::Fixed(size),
        warmup: 50_000,
        messages: 1 << 31,
        max_cycles: 100_000,
        seed,
        stop: StopRule::drain(),
        record: Record::default(),
        paths: Paths { choice, via: Via::Group, threshold: 0 },
        groups: topo.groups(),
        channel_latency: Vec::new(),
    };
    let params = |vcs: u32, deadlock: Avoidance| VcParams {
        vcs,
        buffer: 8,
        router_delay: 0,
        link_latency: 1,
        packet: size,
        switching: Switching::Wormhole,
        arbitration: Arbitration::RoundRobin,
        deadlock,
        ..VcParams::DEFAULT
    };
    let runs = [(PathChoice::Valiant, 3), (PathChoice::UgalLocal, 3), (PathChoice::Par, 4)];
    for ((choice, vcs), pattern) in runs.into_iter().flat_map(|r| [(r, &shift), (r, &Pattern::Uniform(72))]) {
        let o = execute(&topo, pattern, &spec(choice, 3), Router::Vc(params(vcs, Avoidance::Phases)));
        let delivered: u64 = o.delivered.iter().map(|&d| d as u64).sum();
        let accepted = delivered as f64 * size as f64 / (72.0 * 50_000.0);
        eprintln!("{choice:?} phases at full load: accepted {accepted}, stop {:?}", o.stop);
        assert!(o.deadlock.is_none(), "{choice:?}: {:?}", o.deadlock);
        assert_eq!(o.end, 100_000);
        // Saturated: below the offered 1.0; under group shift above minimal routing's 0.125.
        assert!(accepted > 0.125 && accepted < 0.9, "{choice:?}: {accepted}");
    }
    for (choice, pattern) in [(PathChoice::Valiant, &shift), (PathChoice::UgalLocal, &Pattern::Uniform(72))] {
        let o = execute(&topo, pattern, &spec(choice, 3), Router::Vc(params(2, Avoidance::DestGroup)));
        assert!(
            o.deadlock.is_some(),
            "{choice:?}: dest-group classes ran {} cycles without a deadlock",
            o.end
        );
    }
}

/// Verification of per-class channel latencies on the virtual-channel router: a message alone
/// in the network takes T = (h + 1)·r + Σ l_c + B, the module docs' formula with each channel's
/// own latency (flits and credits alike; buffers deep enough, F ≥ B + 2·l_max + r + 1, that
/// credits never stall a stream) — for every ordered pair of the 72-terminal dragonfly with
/// local channels of 10 cycles and global ones of 100 (a route crosses one global channel
/// between groups, none within one, the rest of its hops local), and of the 4-ary 3-tree with
/// up 1-2 = 2, down 2-1 = 3, up 2-3 = 7, down 3-2 = 11 (a route to the nearest common ancestor
/// at level L climbs and descends each level below L once: L from the terminals' base-4
/// digits), wormhole and cut-through, router delays 0 and 2.
#[test]
fn unloaded_latency_adds_each_channels_own_latency() {
    use std::collections::BTreeMap;
    let trees: [(&str, &[(&str, u32)]); 2] = [
        (r#"{"family": "dragonfly", "p": 2}"#, &[("local", 10), ("global", 100)]),
        (
            r#"{"family": "kary-ntree", "k": 4, "n": 3}"#,
            &[("up 1-2", 2), ("down 2-1", 3), ("up 2-3", 7), ("down 3-2", 11)],
        ),
    ];
    for (json, classes) in trees {
        let lat: BTreeMap<&str, u32> = classes.iter().copied().collect();
        let spec: TopologySpec = serde_json::from_str(json).unwrap();
        let topo = spec.shape(&RoutingSpec::default()).unwrap().build().unwrap();
        let net = topo.network();
        let n = net.terminals();
        let channel_latency: Vec<u32> =
            net.channels().iter().map(|c| lat[net.classes()[c.class as usize].as_str()]).collect();
        let pairs: Vec<(u32, u32)> = (0..n).flat_map(|s| (0..n).map(move |d| (s, d))).collect();
        let expected = |s: u32, d: u32, h: u32| -> u64 {
            if json.contains("dragonfly") {
                let global = u32::from(s / 8 != d / 8);
                (100 * global + 10 * (h - global)) as u64
            } else {
                let level = if s / 16 != d / 16 {
                    3
                } else if s / 4 != d / 4 {
                    2
                } else {
                    1
                };
                let climb = [(2, 3), (7, 11)];
                climb[..level - 1].iter().map(|&(u, d)| (u + d) as u64).sum()
            }
        };
        for (switching, r) in [(Switching::Wormhole, 0u32), (Switching::Vct, 2)] {
            let size = 4u32;
            let p = VcParams {
                vcs: 2,
                buffer: size + 2 * 100 + r + 1,
                router_delay: r,
                link_latency: 1,
                packet: 16,
                switching,
                arbitration: Arbitration::RoundRobin,
                deadlock: Avoidance::None,
                ..VcParams::DEFAULT
            };
            let msgs: Vec<(u64, u32, u32)> =
                pairs.iter().enumerate().map(|(i, &(s, d))| (i as u64 * 600, s, d)).collect();
            let run = RunSpec {
                messages: msgs.len() as u64,
                arrivals: Arrivals::Script(msgs),
                memories: None,
                size: netwrap_engine::traffic::MessageSize::Fixed(size),
                warmup: 0,
                max_cycles: 100_000_000,
                seed: 5,
                stop: StopRule::drain(),
                record: Record { messages: true, ..Record::default() },
                paths: Paths::default(),
                groups: None,
                channel_latency: channel_latency.clone(),
            };
            let o = execute(&topo, &Pattern::Uniform(n), &run, Router::Vc(p));
            let recs = o.messages.as_ref().unwrap();
            for (i, &(s, d)) in pairs.iter().enumerate() {
                let h = recs[i].hops;
                let want = (h as u64 + 1) * r as u64 + expected(s, d, h) + size as u64;
                assert_eq!(recs[i].latency, want, "{json} {switching:?} r={r}: {s} -> {d}, {h} hops");
                if !json.contains("dragonfly") {
                    let level = if s / 16 != d / 16 {
                        3
                    } else if s / 4 != d / 4 {
                        2
                    } else {
                        1
                    };
                    assert_eq!(h, 2 * (level - 1), "{s} -> {d}");
                } else {
                    assert!(h <= 3, "{s} -> {d}: {h} hops");
                }
            }
        }
    }
}
