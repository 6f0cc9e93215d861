//! `model network --router vc`: the virtual-channel router's model of any network
//! (Greenberg & Guan 1997 §2, netwrap_model::network::wormhole), from the simulator's exact
//! turn flows, against Greenberg & Guan's fat-tree model (eqs. 12–26) and hand arithmetic.

use netwrap_app::Spec;
use netwrap_app::predict::network;
use netwrap_model::fat_tree::{self, FatTree, Mg2Rate, TurnProbability};
use netwrap_model::network::NetworkPrediction;
use netwrap_model::network::wormhole::{LinkKind, WormDetail};

fn spec(toml_text: &str) -> Spec {
    toml::from_str(toml_text).unwrap()
}

/// The butterfly fat-tree of `nodes` processors on the VC router set up as Greenberg & Guan
/// assume (docs/validation.md): one VC, wormhole, a message one worm of `size` flits, one cycle a
/// hop, destinations uniform over the others.
fn fat_tree_spec(nodes: u64, size: u32, rate: f64) -> Spec {
    spec(&format!(
        "[topology]\nfamily = \"fat-tree\"\nnodes = {nodes}\n[router]\nkind = \"vc\"\nvcs = 1\nbuffer = 3\npacket = {size}\nswitching = \"wormhole\"\n[workload]\npattern = \"uniform-others\"\nsize = {size}\nrate = {rate}\n"
    ))
}

fn vc_model(s: &Spec) -> (NetworkPrediction, WormDetail) {
    let r = network(s, None).unwrap().points.remove(0);
    (r.prediction, r.vc.expect("the VC router's model"))
}

/// Verification, exact: on the butterfly fat-tree (N = 16, 64, 256, 1024; B = 16, 32, 64) the
/// general model, fed the exact turn flows of netwrap's fat-tree, is Greenberg & Guan's
/// eqs. 12–26 (`model fat-tree`) with eq. 22's turn probability read as the conditional one
/// (`--turn conditional`: the flows are a message's chances at the level it has reached) and
/// the two-server queues fed both links' rate (`--mg2-rate pair`): the contention L − T0 is
/// eq. 25's L − (B + D̄ − 1), the source service time eq. 26's x̄_{0,1}, and the saturation
/// eq. 26's. Tolerance: 10⁻⁹ of the value (sums of rates over every channel, and the fixed
/// point's own stopping rule at 10⁻¹³) and 10⁻⁹ for the two bisections (each to 10⁻¹²). T0 is
/// the VC router's B + D̄ − 2 (docs/validation.md: netwrap's router has a message in its
/// source router's buffer the cycle it is created, one cycle less than eq. 25's start).
#[test]
fn fat_tree_reduces_to_greenberg_guan_eqs_12_to_26() {
    for (nodes, b) in [(16u64, 16u32), (64, 16), (64, 32), (256, 32), (1024, 64)] {
        let conditional = FatTree {
            turn: TurnProbability::Conditional,
            mg2_rate: Mg2Rate::Pair,
            ..FatTree::new(nodes, 0.0, b as f64)
        };
        let max = fat_tree::predict(&conditional).unwrap().max_rate;
        for fraction in [0.2, 0.5, 0.8] {
            let rate = fraction * max;
            let gg = fat_tree::predict(&FatTree { rate, ..conditional.clone() }).unwrap();
            let (p, vc) = vc_model(&fat_tree_spec(nodes, b, rate));
            let d = gg.mean_hops;
            assert!((p.mean_hops + 2.0 - d).abs() < 1e-9, "{nodes}: D̄ {d} vs {} + 2", p.mean_hops);
            assert!((p.unloaded_latency - (b as f64 + d - 2.0)).abs() < 1e-9);
            let theirs = gg.latency.unwrap() - (b as f64 + d - 1.0);
            let ours = p.contention.unwrap();
            assert!(
                (ours - theirs).abs() <= 1e-9 * theirs,
                "N = {nodes}, B = {b}, {fraction}: {ours} vs {theirs}"
            );
            let x01 = gg.channels[0].service_time;
            let xs = vc.source_service_time.unwrap();
            assert!((xs - x01).abs() <= 1e-9 * x01, "{xs} vs {x01}");
            // Every up-link pair is one queue of two servers, every other link of one.
            let links = vc.links.unwrap();
            let pairs = links.iter().filter(|l| l.servers == 2).count();
            let ups = gg.channels.iter().filter(|c| c.servers == 2).count();
            assert_eq!(pairs > 0, ups > 0, "{nodes}");
            assert!(links.iter().filter(|l| l.kind != LinkKind::Channel).all(|l| l.servers == 1));
        }
        let (p, _) = vc_model(&fat_tree_spec(nodes, b, 0.2 * max));
        assert!(
            (p.max_rate - max).abs() <= 1e-9 * max,
            "N = {nodes}, B = {b}: {} vs eq. 26's {max}",
            p.max_rate
        );
    }
}

/// Characterisation: against eq. 22 as printed (`--turn printed`, `model fat-tree`'s default),
/// which weights a message at level l by its chance of going up from a processor, P↑_l,
/// rather than from level l, the model differs by what that reading changes: nothing at
/// N = 16 (eq. 22 at l = 1 has P↑_0 = 1, and l = n has P↑_n = 0) and, on larger trees,
/// a lower service time (P↑_l < P↑_l/P↑_{l−1}: fewer messages climb). Stated here: at N = 1024,
/// B = 32, half of eq. 26's rate, the printed reading's contention is below ours, and both
/// saturate within 20% of each other.
#[test]
fn fat_tree_against_eq22_as_printed() {
    let printed = |nodes: u64, rate: f64| fat_tree::predict(&FatTree::new(nodes, rate, 32.0)).unwrap();
    let contention = |g: &fat_tree::FatTreePrediction| g.latency.unwrap() - (32.0 + g.mean_hops - 1.0);
    let small = printed(16, 0.005);
    let (p, _) = vc_model(&fat_tree_spec(16, 32, 0.005));
    assert!((p.contention.unwrap() - contention(&small)).abs() <= 1e-9 * contention(&small));
    let max = printed(1024, 0.0).max_rate;
    let g = printed(1024, 0.5 * max);
    let (p, _) = vc_model(&fat_tree_spec(1024, 32, 0.5 * max));
    assert!(contention(&g) < p.contention.unwrap(), "{} vs {}", contention(&g), p.contention.unwrap());
    assert!((p.max_rate / max - 1.0).abs() < 0.2, "{} vs {max}", p.max_rate);
}

/// Verification against hand arithmetic through the whole path (spec, turn flows, links): the
/// unidirectional ring of three (a 3-ary 1-cube), every terminal sending to the two others,
/// links of 2 cycles and a router delay of 1. Per unit rate a channel carries its router's
/// messages (1) and its predecessor's passing through (½); it passes ½ on to the next channel
/// (R = 1/3, whose queue it feeds ½ of 3/2: P = 2/3) and delivers the rest to a terminal
/// that has no other input (P = 0); a terminal's injection feeds 1 of 3/2 (P = 1/3). So
/// y_c = (y_c + (2/3)W)/3 = W/3 with W eq. 6's at rate 1.5λ and x = B + W/3 (wormhole) or B
/// (cut-through), y_inj = 2W/3, and L = T0 + W_src + (S − B) (+ y_inj under cut-through) with
/// T0 = (h + 1)·1 + 2h + B, h = 1.5. Solved here as a scalar fixed point by bisection. By
/// distance (half the messages each): a message to the next router meets the injection's
/// blocking W/3 alone, one two routers on also the channel's 2W/3, so L(1) = T0(1) + W_src +
/// W/3 and L(2) = T0(2) + W_src + W, with T0(h) = (h + 1) + 2h + B and W_src the source's
/// wait (S − B = y_inj under wormhole).
#[test]
fn ring_of_three_by_hand() {
    let b = 8.0;
    let mg1 = |l: f64, x: f64| l * x * x / (2.0 * (1.0 - l * x)) * (1.0 + (x - b).powi(2) / (x * x));
    for switching in ["wormhole", "vct"] {
        for lam in [0.01, 0.02] {
            let s = spec(&format!(
                "[topology]\nfamily = \"torus\"\nk = 3\nn = 1\n[router]\nkind = \"vc\"\nvcs = 2\nbuffer = 16\npacket = 8\nrouter-delay = 1\nlink-latency = 2\nswitching = \"{switching}\"\n[workload]\npattern = \"uniform-others\"\nsize = 8\nrate = {lam}\n"
            ));
            let worm = switching == "wormhole";
            let x_of = |w: f64| if worm { b + w / 3.0 } else { b };
            let g = |w: f64| mg1(1.5 * lam, x_of(w)) - w;
            let (mut lo, mut hi) = (0.0, 1.0);
            while g(hi) > 0.0 {
                hi *= 2.0;
            }
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if g(mid) > 0.0 { lo = mid } else { hi = mid }
            }
            let w = 0.5 * (lo + hi);
            let y_inj = 2.0 * w / 3.0;
            let contention = if worm {
                mg1(lam, b + y_inj) + y_inj
            } else {
                lam * b * b / (2.0 * (1.0 - lam * b)) + y_inj
            };
            let t0 = 2.5 + 3.0 + b;
            let (p, vc) = vc_model(&s);
            assert!((p.unloaded_latency - t0).abs() < 1e-9, "{}", p.unloaded_latency);
            let got = p.contention.unwrap();
            assert!(
                (got - contention).abs() <= 1e-9 * contention,
                "{switching} {lam}: {got} vs {contention}"
            );
            // Both switchings: L − T0 = W_src + y_inj (wormhole's S − B is y_inj).
            let w_src = contention - y_inj;
            let by = vc.latency_by_distance.unwrap();
            assert_eq!(by.iter().map(|c| c.distance).collect::<Vec<_>>(), [1, 2]);
            for (c, (t0, blocking)) in by.iter().zip([(12.0, w / 3.0), (15.0, w)]) {
                assert!((c.share - 0.5).abs() < 1e-12 && (c.unloaded_latency - t0).abs() < 1e-9);
                let expect = t0 + w_src + blocking;
                assert!(
                    (c.latency - expect).abs() <= 1e-9 * expect,
                    "{switching} {lam} distance {}: {} vs {expect}",
                    c.distance,
                    c.latency
                );
            }
        }
    }
}

/// The VC router's model refuses what it does not cover, naming the field.
#[test]
fn vc_refusals_name_the_field() {
    let cases = [
        ("[router]\nkind = \"vc\"\nswitching = \"saf\"\n", "router.switching", "store-and-forward"),
        ("[router]\nkind = \"vc\"\nejection = \"every-vc\"\n", "router.ejection", "one packet at a time"),
        ("[router]\nkind = \"vc\"\noutput-buffer = 16\n", "router.output-buffer", "output buffers"),
        (
            "[router]\nkind = \"vc\"\ndeadlock = \"escape\"\nswitching = \"vct\"\nbuffer = 32\n[topology]\nfamily = \"torus\"\nbidirectional = true\n",
            "router.deadlock",
            "escape",
        ),
    ];
    for (text, path, words) in cases {
        let e = network(&spec(text), None).unwrap_err();
        let s = e.spec().unwrap_or_else(|| panic!("{text}: {e}"));
        assert_eq!(s.path, path, "{e}");
        assert!(e.to_string().contains(words), "{e}");
    }
}

/// The 8-ary 2-cube (unidirectional, dimension order, dateline over 2 VCs) at a
/// busiest-channel utilisation `rho`, 16-flit messages of one packet, uniform traffic; VCs of
/// 16 flits under wormhole, 32 (two packets) under cut-through.
fn torus_spec(switching: &str, rho: f64) -> Spec {
    let buffer = if switching == "wormhole" { 16 } else { 32 };
    spec(&format!(
        "[topology]\nfamily = \"torus\"\nk = 8\nn = 2\n[router]\nkind = \"vc\"\ndeadlock = \"dateline\"\nbuffer = {buffer}\nswitching = \"{switching}\"\n[workload]\nsize = 16\nrate = {}\n[run]\nmessages = 40000\n",
        rho / 56.0
    ))
}

/// The 64-processor fat-tree as [`fat_tree_spec`] (3-flit buffers under wormhole, 32 under
/// cut-through: two packets), oldest-first, at a busiest-link utilisation `rho`.
fn fat_tree_sim(switching: &str, rho: f64) -> Spec {
    let mut s = fat_tree_spec(64, 16, rho / (16.0 * 64.0 / 21.0));
    let buffer = if switching == "wormhole" { 3 } else { 32 };
    let text = format!(
        "[router]\nkind = \"vc\"\nvcs = 1\nbuffer = {buffer}\npacket = 16\nswitching = \"{switching}\"\narbitration = \"oldest-first\"\n"
    );
    let router: Spec = spec(&text);
    s.sim.router = router.sim.router;
    s.sim.run.messages = Some(40_000);
    s
}

/// Characterisation against simulation (40,000 messages, seed 1) on the 8-ary 2-cube with a
/// dateline and the 64-processor fat-tree, both switchings, at busiest-channel utilisations
/// 0.1 to 0.3. The stated model errors, each a bound derived from what the model leaves out:
///
/// - The two switchings' models bracket the router: wormhole's has a blocked worm hold every
///   channel back to its source as one server, cut-through's frees them all; the router's
///   blocked packet holds at least none and at most all of them (several VCs let others pass;
///   a cut-through buffer of one packet holds the channel it came by until the packet leaves).
///   The cut-through runs have buffers of two packets: with one, a packet must also wait for
///   the buffer to empty and its credits to return before it may take the VC, which neither
///   model sees (measured: at ρ = 0.1 on the torus 26.70 ± 0.13 against 26.30 for wormhole's).
///   So the simulated latency lies between the cut-through and the wormhole models' (the
///   latter infinite past its saturation), within the simulation's 95% interval and the
///   queueing approximations both models share (Poisson arrivals where netwrap draws
///   Bernoulli, eq. 5's service variance, eq. 10's blocking probability, arbitration not
///   FCFS), taken at the 10% Greenberg & Guan's model meets on the fat-tree
///   (docs/validation.md), of each model's contention L − T0.
/// - On the fat-tree under wormhole the model is Greenberg & Guan's (eqs. 12–26, conditional
///   turn probability), whose aim docs/validation.md states and meets: within 10% below 60%
///   of the simulated saturation (m = 0.0123 for 3-flit buffers, oldest-first: ρ 0.6 here),
///   i.e. 10% of the model plus the simulation's interval.
///
/// Measured (docs/models.md has the table to ρ = 0.6): at ρ = 0.2 the torus simulates
/// 31.79 ± 0.22 (wormhole) and 32.76 ± 0.27 (cut-through) against the models' 35.88 and 28.94;
/// the fat-tree 22.60 ± 0.09 and 22.71 ± 0.09 against 22.74 and 22.23.
#[test]
fn simulation_lies_between_the_two_switchings_models() {
    for rho in [0.1, 0.2, 0.3] {
        for (name, of) in [("torus", torus_spec as fn(&str, f64) -> Spec), ("fat-tree", fat_tree_sim)] {
            let worm = network(&of("wormhole", rho), None).unwrap().points.remove(0).prediction;
            let cut = network(&of("vct", rho), None).unwrap().points.remove(0).prediction;
            let (lo, hi) = (cut.latency.unwrap(), worm.latency.unwrap_or(f64::INFINITY));
            // The queueing approximations both models share, at G&G's 10% of the contention.
            let t0 = cut.unloaded_latency;
            let (lo, hi) = (lo - 0.10 * (lo - t0), hi + 0.10 * (hi - t0));
            for switching in ["wormhole", "vct"] {
                let r = netwrap_app::simulate(&of(switching, rho)).unwrap();
                let (t, ci) = (r.result.report.latency.unwrap(), r.result.report.latency_ci95.unwrap());
                assert!(
                    lo - ci <= t && t <= hi + ci,
                    "{name} {switching} rho {rho}: {t} ± {ci} outside [{lo}, {hi}]"
                );
                if name == "fat-tree" && switching == "wormhole" {
                    let model = worm.latency.unwrap();
                    assert!(
                        (t - model).abs() <= 0.10 * model + ci,
                        "{name} rho {rho}: {t} ± {ci} vs {model}"
                    );
                }
            }
        }
    }
}

/// Characterisation with four servers a queue (the M/G/m form past eq. 8): the 4-ary 3-tree
/// with adaptive up-ports (a switch's four up-links are one queue), set up as the fat-tree
/// above (one VC of 3 flits, wormhole, 16-flit messages, oldest-first, uniform over the
/// others), at m = 0.005, 0.01, 0.015 (busiest utilisation 0.08–0.23; the model saturates at
/// 0.0256). The stated error is the fat-tree's, Greenberg & Guan's 10% (docs/validation.md),
/// plus the simulation's interval. Measured (40,000 messages, seed 1): 21.591 ± 0.087,
/// 25.094 ± 0.183, 30.713 ± 0.372 against the model's 21.660, 25.089, 31.357.
#[test]
fn four_server_up_links_of_a_kary_ntree() {
    for rate in [0.005, 0.01, 0.015] {
        let s = spec(&format!(
            "[topology]\nfamily = \"kary-ntree\"\nk = 4\nn = 3\n[routing]\nup-port = \"adaptive\"\n[router]\nkind = \"vc\"\nvcs = 1\nbuffer = 3\npacket = 16\narbitration = \"oldest-first\"\n[workload]\npattern = \"uniform-others\"\nsize = 16\nrate = {rate}\n[run]\nmessages = 40000\n"
        ));
        let (p, vc) = vc_model(&s);
        assert!(vc.links.unwrap().iter().any(|l| l.servers == 4));
        let model = p.latency.unwrap();
        let r = netwrap_app::simulate(&s).unwrap();
        let (t, ci) = (r.result.report.latency.unwrap(), r.result.report.latency_ci95.unwrap());
        assert!((t - model).abs() <= 0.10 * model + ci, "m = {rate}: {t} ± {ci} vs {model}");
    }
}

/// Verification: the model beside a VC router's simulation (`--model`, `[model]`) where no
/// paper's model applies is `model network --router vc`'s at the simulated point, number for
/// number (the same links and queues from the same turn flows): the dragonfly (wormhole) and
/// the 64-processor fat-tree under virtual cut-through (Greenberg & Guan's fat-tree model is
/// wormhole's only).
#[test]
fn the_model_beside_a_vc_simulation_is_model_networks() {
    let cases = [
        (
            "[topology]\nfamily = \"dragonfly\"\n[router]\nkind = \"vc\"\n[workload]\nrate = 0.02\n",
            "wormhole",
        ),
        (
            "[topology]\nfamily = \"fat-tree\"\nnodes = 64\n[router]\nkind = \"vc\"\nvcs = 1\nbuffer = 32\nswitching = \"vct\"\n[workload]\nsize = 16\nrate = 0.006\n",
            "virtual cut-through",
        ),
    ];
    for (text, switching) in cases {
        let s = spec(&format!("{text}[run]\nmessages = 2000\n[model]\n"));
        let m = crate::network_model::beside_equals_model_network(&s, text);
        assert_eq!(m.model, "network");
        assert_eq!(
            m.source,
            format!("Greenberg & Guan 1997 eqs. 1-11 on every channel: VC router, {switching}")
        );
    }
}

/// Verification of the classes' reach: the 1,056-node dragonfly's 5,016 links (its 2,904
/// channels, each terminal's injection and ejection) fall into four classes under uniform
/// traffic — every local channel alike, every global channel alike, every terminal alike —
/// so that a curve of 50 rates costs little beyond its turn flows (docs/models.md).
#[test]
fn the_dragonfly_is_a_few_classes() {
    let s = spec("[topology]\nfamily = \"dragonfly\"\np = 4\n[router]\nkind = \"vc\"\n");
    let w = netwrap_app::predict::worm_network(&s).unwrap();
    assert_eq!(w.model.links.len(), 2904 + 2 * 1056);
    // Injection, local, global, ejection: links and their queues alike.
    assert_eq!(w.model.solver().unwrap().classes(), (4, 4));
}

/// The 8-ary 2-cube mesh (dimension order, 2 VCs, no deadlock avoidance needed) at a
/// busiest-channel utilisation `rho` (m = ρ/32), 16-flit messages of one packet, uniform
/// traffic; VCs of 16 flits under wormhole, 32 under cut-through.
fn mesh_spec(switching: &str, rho: f64) -> Spec {
    let buffer = if switching == "wormhole" { 16 } else { 32 };
    spec(&format!(
        "[topology]\nfamily = \"mesh\"\nk = 8\nn = 2\n[router]\nkind = \"vc\"\nbuffer = {buffer}\nswitching = \"{switching}\"\n[workload]\nsize = 16\nrate = {}\n[run]\nmessages = 40000\n",
        rho / 32.0
    ))
}

/// Characterisation, where the model holds: within the stated error of Greenberg & Guan's
/// model — 10% of the model's latency (docs/validation.md: below 60% of the simulated
/// saturation on their fat-trees) — plus the simulation's 95% interval (40,000 messages,
/// seed 1), on the 8-ary 2-cube torus (dateline over 2 VCs) and mesh and the 64-processor
/// fat-tree, both switchings, at the busiest-channel utilisations listed; and where it does
/// not, as the page `netwrap reproduce netwrap-model-accuracy` shows: the wormhole model, one server a physical channel,
/// saturates below ρ = 0.4 on the torus and the mesh, where the router, whose second VC lets
/// a worm pass one blocked, carries ρ = 0.4 with a settled latency. Measured: torus ρ = 0.1
/// 26.41 ± 0.12 against 26.30 (wormhole) and 25.66 (cut-through); mesh ρ = 0.1–0.3 wormhole
/// 24.71 ± 0.13, 29.35 ± 0.21, 35.57 ± 0.41 against 23.58, 27.47, 36.67, cut-through
/// 24.71 ± 0.12 against 23.31; fat-tree ρ = 0.4 31.05 ± 0.56 against 34.31 (wormhole),
/// 29.24 ± 0.39 against 26.53 (cut-through).
#[test]
fn where_the_vc_model_holds_against_simulation() {
    type Of = fn(&str, f64) -> Spec;
    let held: [(&str, Of, &str, &[f64]); 6] = [
        ("torus", torus_spec, "wormhole", &[0.1]),
        ("torus", torus_spec, "vct", &[0.1]),
        ("mesh", mesh_spec, "wormhole", &[0.1, 0.2, 0.3]),
        ("mesh", mesh_spec, "vct", &[0.1]),
        ("fat-tree", fat_tree_sim, "wormhole", &[0.1, 0.2, 0.3, 0.4]),
        ("fat-tree", fat_tree_sim, "vct", &[0.1, 0.2, 0.3, 0.4]),
    ];
    for (name, of, switching, rhos) in held {
        for &rho in rhos {
            let s = of(switching, rho);
            let model = network(&s, None).unwrap().points.remove(0).prediction.latency.unwrap();
            let r = netwrap_app::simulate(&s).unwrap();
            let (t, ci) = (r.result.report.latency.unwrap(), r.result.report.latency_ci95.unwrap());
            assert!(
                (t - model).abs() <= 0.10 * model + ci,
                "{name} {switching} rho {rho}: {t} ± {ci} vs {model}"
            );
        }
    }
    for (name, of) in [("torus", torus_spec as Of), ("mesh", mesh_spec)] {
        let p = network(&of("wormhole", 0.4), None).unwrap().points.remove(0).prediction;
        assert!(p.saturated && p.max_rate < of("wormhole", 0.4).sim.workload.rate.unwrap(), "{name}");
        let r = netwrap_app::simulate(&of("wormhole", 0.4)).unwrap();
        assert!(r.result.report.latency_ci95.is_some() && !r.result.report.saturated, "{name}");
    }
}

/// Verification: the latency of each class of source–destination pairs (by distance), weighted
/// by its share of the messages, averages to the model's mean latency and T0 (the identity in
/// `PairClasses`' docs: the chain's expected turns are the flows'), to 10⁻⁹ (sums over every
/// pair against the fixed point's own sums), on the torus with a dateline, the mesh, the
/// fat-tree, the dragonfly and a kary-ntree with four servers a queue, both switchings; each
/// class's T0 on the unidirectional torus is B + h at distance h (r = 0, links of one cycle);
/// latency rises with distance there.
#[test]
fn latency_by_distance_averages_to_the_mean() {
    let specs = [
        torus_spec("wormhole", 0.15),
        torus_spec("vct", 0.15),
        mesh_spec("wormhole", 0.2),
        mesh_spec("vct", 0.2),
        fat_tree_sim("wormhole", 0.3),
        spec("[topology]\nfamily = \"dragonfly\"\n[router]\nkind = \"vc\"\n[workload]\nrate = 0.03\n"),
        spec(
            "[topology]\nfamily = \"kary-ntree\"\nk = 4\nn = 3\n[routing]\nup-port = \"adaptive\"\n[router]\nkind = \"vc\"\nvcs = 1\nbuffer = 3\npacket = 8\n[workload]\nsize = 16\nrate = 0.01\n",
        ),
    ];
    for (i, s) in specs.iter().enumerate() {
        let (p, vc) = vc_model(s);
        let by = vc.latency_by_distance.unwrap();
        let share: f64 = by.iter().map(|c| c.share).sum();
        let mean: f64 = by.iter().map(|c| c.share * c.latency).sum();
        let t0: f64 = by.iter().map(|c| c.share * c.unloaded_latency).sum();
        let latency = p.latency.unwrap();
        assert!((share - 1.0).abs() < 1e-12, "{i}: {share}");
        assert!((mean - latency).abs() <= 1e-9 * latency, "{i}: {mean} vs {latency}");
        assert!((t0 - p.unloaded_latency).abs() <= 1e-9 * t0, "{i}: {t0} vs {}", p.unloaded_latency);
        assert!(by.windows(2).all(|w| w[0].distance < w[1].distance), "{i}");
        if i < 2 {
            assert_eq!(by.len(), 15);
            for (h, c) in by.iter().enumerate() {
                assert!((c.unloaded_latency - (16.0 + h as f64)).abs() < 1e-9, "{i} {h}");
            }
            assert!(by.windows(2).all(|w| w[0].latency < w[1].latency), "{i}");
        }
    }
    let (p, vc) = vc_model(&torus_spec("wormhole", 0.3));
    assert!(p.saturated && vc.latency_by_distance.is_none());
}
