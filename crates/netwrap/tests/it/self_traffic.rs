//! Messages a pattern addresses to their own source: counted apart from the accepted load
//! (`self_load`), and excluded or rerouted with `--self-traffic`.

use crate::{json, netwrap};

/// The 16×16 bidirectional torus under transpose at offered `load`, with `mode`.
fn transpose(mode: &str, load: &str) -> serde_json::Value {
    json(&[
        "sim",
        "torus",
        "--k",
        "16",
        "--bidirectional",
        "--pattern",
        "transpose",
        "--load",
        load,
        "--messages",
        "20000",
        "--self-traffic",
        mode,
        "--json",
    ])
}

/// Four binomial standard errors of a per-node flit rate near `load` measured over `window`
/// cycles on `nodes` nodes with messages of `size` flits.
fn four_se(load: f64, size: f64, nodes: f64, window: f64) -> f64 {
    let m = load / size;
    4.0 * size * (m * (1.0 - m) / (nodes * window)).sqrt()
}

/// Verification (closed forms): transpose on a 16×16 torus has 16 fixed points (the
/// diagonal), so the mean route over the 256 sources is 2·(k/4) = 8 hops including them; over
/// the 240 that send when they are excluded, 8·256/240; rerouted, each fixed point sends
/// uniformly to the other 255 nodes, whose mean distance is 8·256/255, so the mean is
/// (240·8·256/240 + 16·8·256/255)/256. The route facts must give these to rounding.
#[test]
fn fixed_points_excluded_or_rerouted_change_the_routes_as_counted() {
    let hops = |mode: &str| transpose(mode, "0.05")["expected_mean_hops"].as_f64().unwrap();
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(close(hops("include"), 8.0), "{}", hops("include"));
    assert!(close(hops("exclude"), 8.0 * 256.0 / 240.0), "{}", hops("exclude"));
    let rerouted = (8.0 * 256.0 + 16.0 * 8.0 * 256.0 / 255.0) / 256.0;
    assert!(close(hops("reroute"), rerouted), "{}", hops("reroute"));
}

/// Verification: what the fixed points hand to themselves is reported apart. Included, the 16
/// fixed points of 256 offer 16/256 of the load to themselves (`self_load`) and the network is
/// offered and accepts the other 240/256; excluded, nothing is self-addressed and the fixed
/// points send nothing, so the network's load is the same 240/256 of the offer; rerouted, the
/// network carries the whole offer. Each within four binomial standard errors of its window.
#[test]
fn self_traffic_is_kept_apart_from_the_accepted_load() {
    let load = 0.1;
    for (mode, network, own) in
        [("include", 240.0 / 256.0, 16.0 / 256.0), ("exclude", 240.0 / 256.0, 0.0), ("reroute", 1.0, 0.0)]
    {
        let v = transpose(mode, "0.1");
        assert_eq!(v["verdict"], "ok", "{mode}");
        let window = v["cycles"].as_f64().unwrap() - v["warmup"].as_f64().unwrap();
        let tolerance = four_se(load, 4.0, 256.0, window);
        let (accepted, self_load) = (v["accepted_load"].as_f64().unwrap(), v["self_load"].as_f64().unwrap());
        assert!((accepted - load * network).abs() <= tolerance, "{mode}: accepted {accepted} ± {tolerance}");
        assert!((self_load - load * own).abs() <= tolerance, "{mode}: self {self_load} ± {tolerance}");
        if own == 0.0 {
            assert_eq!(self_load, 0.0, "{mode}");
        }
    }
}

/// Verification: uniform traffic with its draws of the source excluded is uniform over the
/// others, exactly the `uniform-others` pattern: the same seed gives the same bytes of
/// results but for the spec they record.
#[test]
fn uniform_without_the_source_is_uniform_others() {
    let run = |args: &[&str]| {
        let mut v = json(&[&["sim", "--rate", "0.03", "--messages", "3000", "--json"], args].concat());
        v.as_object_mut().unwrap().remove("config");
        v
    };
    let others = run(&["--pattern", "uniform-others"]);
    assert_eq!(run(&["--self-traffic", "exclude"]), others);
    assert_eq!(run(&["--self-traffic", "reroute"]), others);
    assert_eq!(others["self_load"], 0.0);
}

/// Bad input: patterns whose draws include the source by definition, and excluding the
/// accesses of processors that wait, are refused with status 2 and a reason.
#[test]
fn self_traffic_refuses_what_it_cannot_mean() {
    for (args, says) in [
        (
            &[
                "--pattern",
                "hotspot",
                "--hotspots",
                "1",
                "--hotspot-fraction",
                "0.2",
                "--self-traffic",
                "exclude",
            ][..],
            "applies to uniform traffic and the permutations",
        ),
        (&["--pattern", "transpose", "--threads", "2", "--self-traffic", "exclude"][..], "use reroute"),
    ] {
        let out = netwrap().arg("sim").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The result's spec records the choice (and leaves the default out, as every default).
#[test]
fn the_recorded_spec_keeps_self_traffic() {
    let v = transpose("reroute", "0.05");
    assert_eq!(v["config"]["workload"]["self-traffic"], "reroute");
    assert_eq!(transpose("include", "0.05")["config"]["workload"].get("self-traffic"), None);
}
