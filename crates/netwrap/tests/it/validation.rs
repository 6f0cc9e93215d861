//! Model against simulation on Agarwal 1991's own validation set (figs. 2–5) and on Greenberg &
//! Guan 1997 Fig. 3's fat-trees, seeded.
//!
//! On the tori the model is Agarwal 1991 eq. 10 with the contention form the homework's App. B recommends (eq. 8's
//! for k_d > 2, the small-k_d form otherwise), evaluated at the simulated point.

use netwrap_app::{Spec, simulate};
use netwrap_model::kary_ncube::{ContentionForm, KaryNCube, predict};
use netwrap_sim::report::Verdict;
use netwrap_topo::TopologySpec;

/// The 64-node default spec reshaped: a k-ary n-cube (unidirectional torus), m, B, seed 7.
fn spec(k: u32, n: u32, rate: f64, size: u32, messages: u64) -> Spec {
    let mut s = netwrap_sim::SimSpec {
        topology: TopologySpec::Torus {
            k: Some(k),
            n: Some(n),
            nodes: None,
            radices: None,
            bidirectional: false,
            concentration: None,
        },
        ..netwrap_sim::SimSpec::default()
    };
    s.workload.rate = Some(rate);
    s.workload.size = Some(size);
    s.run.messages = Some(messages);
    s.run.seed = Some(7);
    Spec { sim: s, model: None }
}

fn model(k: u32, n: u32, rate: f64, size: u32) -> f64 {
    let k_d = (k as f64 - 1.0) / 2.0;
    let form = if k_d > 2.0 { ContentionForm::LargeKd } else { ContentionForm::SmallKd };
    predict(&KaryNCube { form, ..KaryNCube::new(k, n, rate, size as f64) }).unwrap().latency.unwrap()
}

fn simulated(k: u32, n: u32, rate: f64, size: u32) -> f64 {
    let run = simulate(&spec(k, n, rate, size, 30_000)).unwrap();
    assert_eq!(run.result.report.verdict, Verdict::Ok, "k={k} n={n} m={rate} B={size} should be stable");
    run.result.report.latency.unwrap()
}

/// Figs. 2–4: k = 10 with n = 2, 3 and k = 4 with n = 2, 3, 4, B = 4, over a load sweep:
/// within 10% for ρ ≤ 0.6.
#[test]
fn load_sweeps_agree_within_ten_percent_up_to_rho_0_6() {
    for (k, n) in [(10, 2), (10, 3), (4, 2), (4, 3), (4, 4)] {
        let k_d = (k as f64 - 1.0) / 2.0;
        for rho in [0.1, 0.3, 0.5, 0.6] {
            let rate = rho / (4.0 * k_d);
            let (s, m) = (simulated(k, n, rate, 4), model(k, n, rate, 4));
            assert!((s - m).abs() / m < 0.10, "k={k} n={n} rho={rho}: sim {s:.2} model {m:.2}");
        }
    }
}

/// Fig. 5: packet sizes 2–12 at ρ = 0.4. Within 10% up to B = 8; beyond, on the 10-ary
/// 2-cube the model overestimates by slightly more, as the seed says it does for large
/// packets (§3.3: "the model's overestimation of latency for large packets results from our
/// assumption of simultaneous message arrivals at a switch").
#[test]
fn packet_sizes_at_rho_0_4() {
    for (k, n) in [(10, 2), (10, 3), (4, 3)] {
        let k_d = (k as f64 - 1.0) / 2.0;
        for size in [2, 4, 6, 8, 10, 12] {
            let rate = 0.4 / (size as f64 * k_d);
            let (s, m) = (simulated(k, n, rate, size), model(k, n, rate, size));
            let err = (s - m) / m;
            let bound = if size <= 8 { 0.10 } else { 0.13 };
            assert!(err.abs() < bound, "k={k} n={n} B={size}: sim {s:.2} model {m:.2}");
            if k == 10 && size >= 6 {
                assert!(err < 0.0, "the model overestimates large packets on k = 10: {err}");
            }
        }
    }
}

/// Agarwal 1991 §3.3 and fig. 4: for k = 4 the simulation rises above the model near saturation
/// (the model underestimates there); for k = 10, n = 3 the two stay closer, even at ρ = 0.9
/// (a characterisation: the model's error there is smaller than k = 4's at ρ = 0.8).
#[test]
fn near_saturation_the_model_underestimates_small_radix() {
    let rate = 0.8 / (4.0 * 1.5);
    let (s, m) = (simulated(4, 4, rate, 4), model(4, 4, rate, 4));
    assert!(s > m * 1.05, "k=4 n=4 rho=0.8: sim {s:.2} model {m:.2}");
    let small = s / m - 1.0;
    let rate = 0.9 / (4.0 * 4.5);
    let (s, m) = (simulated(10, 3, rate, 4), model(10, 3, rate, 4));
    // At ρ = 0.9 the k = 10 model also underestimates, by less: about 6% once the warm-up
    // outlasts the transient (a 300,000-message run gives 137.1 cycles against the model's
    // 129.5); with the old fixed 3,100-cycle warm-up the run was biased low, to 131.
    assert!((s - m).abs() / m < small, "k=10 n=3 rho=0.9: sim {s:.2} model {m:.2}, k=4's error {small:.3}");
}

/// The homework's Ex 1 (64 processors, m = 0.04, B = 4): ρ ≈ 0.56 both ways, and the
/// simulated latency within 10% of the model's 21.9.
#[test]
fn homework_exercise1() {
    let mut s = spec(8, 2, 0.04, 4, 20_000);
    s.sim.run.seed = Some(1);
    let run = simulate(&s).unwrap();
    assert!((run.result.report.utilization - 0.56).abs() < 0.01, "{}", run.result.report.utilization);
    let t = run.result.report.latency.unwrap();
    assert!((t - 21.91).abs() / 21.91 < 0.10, "{t}");
}

/// Agarwal 1991 §5.1 / fig. 12 (N = 1K, k = 32, n = 2, B = 4): the light-load latency is
/// about 35 without locality and falls by about 10% with l^(1/2) = 0.9 (the simulated side is
/// 29, so l = 29²/1024).
#[test]
fn agarwal_fig12_locality_at_light_load() {
    let run = |l: f64| {
        let mut s = spec(32, 2, 0.001, 4, 20_000);
        s.sim.run.seed = Some(1);
        s.sim.workload.locality = Some(l);
        simulate(&s).unwrap().result.report.latency.unwrap()
    };
    let (full, local) = (run(1.0), run(0.81));
    assert!((full - 35.0).abs() < 1.5, "{full}");
    assert!((local / full - 0.9).abs() < 0.03, "{local} vs {full}");
}

/// Greenberg & Guan 1997 Fig. 3, the 64-processor butterfly fat-tree with 16-flit worms
/// (docs/validation.md): a **characterisation**, not a verification. The router is the one of
/// crates/app/experiments/greenberg-guan-fig-3.toml (wormhole, one worm a message, one VC of 3 flits,
/// oldest-first, destinations over the other processors); the model is eq. 25 with
/// `netwrap model fat-tree`'s default readings, through the simulation's own `--model`
/// comparison. The stated aim is agreement within 10% below 60% of saturation; the bound is
/// that 10% of the model's latency plus the run's 95% confidence interval, at 30% and 50% of
/// eq. 26's maximum throughput (24% and 41% of the simulated saturation, m ≈ 0.0123).
#[test]
fn greenberg_guan_fat_tree_64_processors_16_flit_worms_within_ten_percent() {
    let eq26 = netwrap_model::fat_tree::predict(&netwrap_model::fat_tree::FatTree::new(64, 0.001, 16.0))
        .unwrap()
        .max_rate;
    assert!((eq26 - 0.00999).abs() < 1e-5, "eq. 26: {eq26}");
    for fraction in [0.3, 0.5] {
        let spec: Spec = serde_json::from_value(serde_json::json!({
            "topology": { "family": "fat-tree", "nodes": 64 },
            "router": { "kind": "vc", "vcs": 1, "buffer": 3, "packet": 16, "switching": "wormhole",
                        "arbitration": "oldest-first" },
            "workload": { "rate": fraction * eq26, "size": 16, "pattern": "uniform-others" },
            "run": { "messages": 20000, "warmup": 20000, "seed": 7 },
            "model": {}
        }))
        .unwrap();
        let run = simulate(&spec).unwrap();
        assert_eq!(run.result.report.verdict, Verdict::Ok, "{fraction} of eq. 26 should be stable");
        let (s, ci) = (run.result.report.latency.unwrap(), run.result.report.latency_ci95.unwrap());
        let m = run.model.as_ref().unwrap().latency.unwrap();
        assert!((s - m).abs() <= 0.10 * m + ci, "{fraction} of eq. 26: sim {s:.2} ± {ci:.2}, model {m:.2}");
    }
}

/// Puente et al. §5.1 Fig. 6 on 64 nodes, uniform traffic (docs/validation.md): a
/// **verification**. On Puente et al.'s router (virtual cut-through, an adaptive VC and a
/// dimension-order escape VC with Bubble flow control, 80-flit buffers, 4 pipeline stages,
/// 20-flit messages) a message of h hops alone in the network takes exactly (h + 1)·4 + h + 20
/// cycles, so at 0.05% of the bisection-limited load the mean latency is 5·h̄ + 24 with the
/// networks' exact mean distances h̄ (destinations over the other nodes): 8x8 mesh 16/3, 8x8
/// torus 256/63, C_64(5,6) 238/63. Each latency must lie within its 95% interval (plus 0.1
/// cycle for the odd blocked message) of that, and the Midimew must beat the torus and the
/// torus the mesh by the distances' margin less both intervals — 5·(256 − 238)/63 = 1.43
/// cycles for the Midimew against the torus, the ordering Fig. 6 shows.
#[test]
fn puente_base_latency_64_nodes_uniform_midimew_below_torus_below_mesh() {
    let run = |topology: serde_json::Value, load: f64| {
        let spec: Spec = serde_json::from_value(serde_json::json!({
            "topology": topology,
            "router": { "kind": "vc", "deadlock": "escape", "switching": "vct", "vcs": 2,
                        "packet": 20, "buffer": 80, "router-delay": 4 },
            "workload": { "load": load, "size": 20, "pattern": "uniform-others" },
            "run": { "messages": 5000, "max-cycles": 1_000_000_000u64, "seed": 7 }
        }))
        .unwrap();
        let run = simulate(&spec).unwrap();
        assert_eq!(run.result.report.verdict, Verdict::Ok, "{topology} should be stable");
        (run.result.report.latency.unwrap(), run.result.report.latency_ci95.unwrap())
    };
    let unloaded = |h: f64| 5.0 * h + 24.0;
    let nets = [
        (serde_json::json!({ "family": "mesh", "k": 8 }), 0.0002461, 16.0 / 3.0),
        (serde_json::json!({ "family": "torus", "k": 8, "bidirectional": true }), 0.0004922, 256.0 / 63.0),
        (serde_json::json!({ "family": "midimew", "nodes": 64 }), 0.0005164, 238.0 / 63.0),
    ];
    let got: Vec<(f64, f64, f64)> = nets
        .into_iter()
        .map(|(t, load, h)| {
            let (l, ci) = run(t.clone(), load);
            assert!(
                (l - unloaded(h)).abs() <= ci + 0.1,
                "{t}: {l:.3} ± {ci:.3}, exact unloaded {:.3}",
                unloaded(h)
            );
            (l, ci, h)
        })
        .collect();
    for pair in got.windows(2) {
        let ((l_far, ci_far, h_far), (l_near, ci_near, h_near)) = (pair[0], pair[1]);
        let margin = unloaded(h_far) - unloaded(h_near) - ci_far - ci_near;
        assert!(margin > 0.5, "the intervals must resolve the distances: margin {margin:.3}");
        assert!(l_far - l_near > margin, "{l_far:.3} ± {ci_far:.3} against {l_near:.3} ± {ci_near:.3}");
    }
}

/// Raghunath & Ranade 1995 §6's networks with 1024 processors: `name` with 128-bit requests
/// and replies (`size` flits), replies on the network reversed, memories serving in `memory`
/// cycles, the workload's `extra` TOML lines, `messages` accesses, `seed`.
fn two_level(name: &str, size: u32, memory: u32, extra: &str, messages: u64, seed: u64) -> Spec {
    toml::from_str(&format!(
        "[topology]\nfamily = \"two-level\"\nname = \"{name}\"\n[workload]\nsize = {size}\n{extra}\n[workload.reply]\nnetwork = \"separate\"\nmemory-latency = {memory}\n[run]\nmessages = {messages}\nseed = {seed}\n"
    ))
    .unwrap()
}

/// Mean and 95% half-width (Student's t, 2 degrees of freedom: 4.303) of the processor
/// utilisation over three replications (seeds 1, 2, 3).
fn utilisation(name: &str, threads: u32, rate: f64, interval: &str) -> (f64, f64) {
    let us: Vec<f64> = (1..=3)
        .map(|seed| {
            let extra = format!(
                "rate = {rate}\n[workload.processor]\nthreads = {threads}\ninterval = \"{interval}\""
            );
            let r = simulate(&two_level(name, 16, 16, &extra, 20_000, seed)).unwrap();
            r.result.report.accesses.unwrap().processor_utilization.unwrap()
        })
        .collect();
    let mean = us.iter().sum::<f64>() / 3.0;
    let sd = (us.iter().map(|u| (u - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
    (mean, 4.303 * sd / 3f64.sqrt())
}

/// Verification of Raghunath & Ranade 1995 §6.3's claim that periodic access intervals give
/// higher processor utilisation than geometric ones (less variance, fewer moments when every
/// thread waits), where it matters most: near the knee, Butterfly.8-2dil.8 at a mean interval
/// of 32 cycles with 4 threads. The two 95% intervals (three replications each) must not
/// overlap.
#[test]
fn raghunath_ranade_periodic_intervals_beat_geometric_ones() {
    let (g, gi) = utilisation("Butterfly.8-2dil.8", 4, 1.0 / 32.0, "geometric");
    let (p, pi) = utilisation("Butterfly.8-2dil.8", 4, 1.0 / 32.0, "periodic");
    assert!(p - pi > g + gi, "periodic {p} ± {pi}, geometric {g} ± {gi}");
}

/// Verification of Raghunath & Ranade 1995 §6.3: "dilation of channels helps", and
/// "increasing the dilation from 2 to 4 does not seem to have much of an effect, indicating
/// that a dilation factor of 2 is sufficient to eliminate most of the intra-module
/// contention". At a mean interval of 16 cycles with 8 threads (geometric): dilation 2 raises
/// U beyond both intervals, and ("most", our reading) dilation 4 adds less than a quarter of
/// what dilation 2 added.
#[test]
fn raghunath_ranade_dilation_two_helps_and_four_adds_little() {
    let (u1, i1) = utilisation("Butterfly.8.8", 8, 1.0 / 16.0, "geometric");
    let (u2, i2) = utilisation("Butterfly.8-2dil.8", 8, 1.0 / 16.0, "geometric");
    let (u4, i4) = utilisation("Butterfly.8-4dil.8", 8, 1.0 / 16.0, "geometric");
    assert!(u2 - i2 > u1 + i1, "dilation 2: {u2} ± {i2} against {u1} ± {i1}");
    assert!(u4 - u2 + i4 + i2 < 0.25 * (u2 - u1), "dilation 4 adds {} ± {}", u4 - u2, i4 + i2);
}

/// Verification of Raghunath & Ranade 1995 §6.3: at a mean access interval of 32 cycles (50%
/// load) "at high levels of multithreading, it is possible to get processor utilizations of
/// almost 100%". With a one-cycle switch U cannot pass 32/33; with 16 threads the slowest of
/// the paper's networks, Butterfly.8.8, comes within 2% of that ceiling.
#[test]
fn raghunath_ranade_enough_threads_reach_the_ceiling_at_half_load() {
    let (u, _) = utilisation("Butterfly.8.8", 16, 1.0 / 32.0, "geometric");
    assert!(u >= 0.98 * 32.0 / 33.0, "{u}");
}

/// Verification of Raghunath & Ranade 1995 §6.3's third effect of wider intra-module channels,
/// "it increases message latency because of the non-uniformity in channel widths" (a message
/// waits for its tail where channels widen, §5.3): at 1% load, with memories that take no
/// time, Butterfly.32.8's round trip exceeds Butterfly.8.8's, and 2hop.64.64-32's exceeds
/// 2hop.32.64-32's, beyond both 95% intervals.
#[test]
fn raghunath_ranade_wider_channels_cost_latency_at_low_load() {
    let trip = |name: &str, size: u32| {
        let extra = format!("rate = {}", 0.01 / 16.0);
        let a =
            simulate(&two_level(name, size, 0, &extra, 12_000, 1)).unwrap().result.report.accesses.unwrap();
        (a.round_trip, a.round_trip_ci95.unwrap())
    };
    for (narrow, wide, size) in
        [("Butterfly.8.8", "Butterfly.32.8", 16), ("2hop.32.64-32", "2hop.64.64-32", 4)]
    {
        let ((n, ni), (w, wi)) = (trip(narrow, size), trip(wide, size));
        assert!(w - wi > n + ni, "{wide} {w} ± {wi} against {narrow} {n} ± {ni}");
    }
}

/// Confidence intervals that cover, at ρ ≈ 0.9 on the 64-node torus (m = 0.065, B = 4; the
/// busiest channel is offered 0.91): a **verification** of the batch-means interval against an
/// independent estimate, the mean latency of one run twenty times longer (another seed). Of
/// twenty 600,000-message runs each must give an interval or say why it cannot (its batch
/// means too correlated); at most three of the twenty may be wrong, that is give an interval
/// that misses the long run's mean by more than its own half-width plus the long run's (the
/// issue's 17 of 20; at 95% coverage three or more misses among twenty come about one time in
/// thirteen), and at least fifteen must give one, so the test cannot pass by refusing.
#[test]
fn latency_intervals_cover_the_long_run_mean_near_saturation() {
    let run = |seed: u64, messages: u64| {
        let mut s = spec(8, 2, 0.065, 4, messages);
        s.sim.run.seed = Some(seed);
        let r = simulate(&s).unwrap().result.report;
        assert_eq!(r.verdict, Verdict::Ok, "seed {seed}: {:?}", r.verdict_reason);
        r
    };
    let long = run(1000, 12_000_000);
    let (truth, truth_ci) = (long.latency.unwrap(), long.latency_ci95.expect("the long run has an interval"));
    let runs: Vec<_> = (1..=20).map(|seed| run(seed, 600_000)).collect();
    let given: Vec<_> =
        runs.iter().filter_map(|r| r.latency_ci95.map(|ci| (r.latency.unwrap(), ci))).collect();
    for r in runs.iter().filter(|r| r.latency_ci95.is_none()) {
        assert!(r.latency_ci_note.is_some(), "a run without an interval says why");
    }
    let misses = given.iter().filter(|(l, ci)| (l - truth).abs() > ci + truth_ci).count();
    assert!(
        given.len() >= 15 && misses <= 3,
        "{} intervals, {misses} miss {truth:.2}: {given:?}",
        given.len()
    );
}
