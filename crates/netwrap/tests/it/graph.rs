//! `netwrap sim|topo|check graph --file F`: any network from a file (examples/graphs/).

use crate::{json, netwrap, root, scratch};
use predicates::prelude::*;
use serde_json::Value;

fn example(name: &str) -> String {
    root().join("examples/graphs").join(name).display().to_string()
}

/// `netwrap topo --json` without what names the file.
fn measured(args: &[&str]) -> Value {
    let mut v = json(&[&["topo"], args, &["--json"]].concat());
    let o = v.as_object_mut().unwrap();
    for k in ["config", "name", "netwrap_version"] {
        o.remove(k);
    }
    v
}

#[test]
fn a_ring_in_every_format_is_the_same_network() {
    let csv = measured(&["graph", "--file", &example("ring.csv")]);
    assert_eq!(csv["routers"], 4);
    assert_eq!(csv["channels"], 8);
    assert_eq!(csv["nodes"], 4);
    assert_eq!(csv["diameter"], 2);
    for other in ["ring.anynet", "ring.json"] {
        assert_eq!(measured(&["graph", "--file", &example(other)]), csv, "{other}");
    }
    // The spec records the file as given.
    let v = json(&["topo", "graph", "--file", "../../examples/graphs/ring.csv", "--json"]);
    assert_eq!(v["config"]["topology"]["file"], "../../examples/graphs/ring.csv");
}

/// The kite: triangle a-b-c, tail c-d-e; a has two terminals, c none (a pure switch).
/// The processors' routers are a, a, b, d, e; hops a-b 1, a-d 2, a-e 3, b-d 2, b-e 3, d-e 1.
#[test]
fn an_irregular_graph_measures_as_by_hand() {
    let v = json(&[
        "topo",
        "graph",
        "--file",
        &example("kite.csv"),
        "--terminals",
        &example("kite-terminals.csv"),
        "--json",
    ]);
    // Pairs: (a,a) 0; (a,b) 1 twice; (a,d) 2 twice; (a,e) 3 twice; (b,d) 2; (b,e) 3; (d,e) 1.
    assert_eq!(v["nodes"], 5);
    assert_eq!(v["routers"], 5);
    assert_eq!(v["channels"], 10);
    assert_eq!(v["diameter"], 3);
    assert!((v["average_distance"].as_f64().unwrap() - 2.0 * 18.0 / 20.0).abs() < 1e-12, "{v}");
    // c -> d carries a, a, b to d, e: 6 of each source's 4 destinations at 1/4 each.
    assert!((v["channel_load"].as_f64().unwrap() - 1.5).abs() < 1e-12, "{v}");
}

#[test]
fn the_4x4_torus_as_an_edge_list_measures_and_runs_like_the_family() {
    let graph = measured(&["graph", "--file", &example("torus4x4.csv")]);
    let torus = measured(&["torus", "--k", "4", "--n", "2", "--bidirectional"]);
    for k in [
        "nodes",
        "routers",
        "channels",
        "degree",
        "diameter",
        "average_distance",
        "channel_load",
        "bisection_width",
    ] {
        let (g, t) = (graph[k].as_f64().unwrap(), torus[k].as_f64().unwrap());
        assert!((g - t).abs() < 1e-12, "{k}: {g} vs {t}");
    }
    // Same seed, same messages; every route minimal: the same mean hops exactly. (Latencies
    // differ a little: the family routes in dimension order, the graph by any minimal hop,
    // its channels in another order.)
    let run = |args: &[&str]| {
        json(&[&["sim"], args, &["--rate", "0.1", "--messages", "2000", "--seed", "7", "--json"]].concat())
    };
    let g = run(&["graph", "--file", &example("torus4x4.csv")]);
    let t = run(&["torus", "--k", "4", "--n", "2", "--bidirectional"]);
    assert_eq!(g["mean_hops"], t["mean_hops"]);
    assert_eq!(g["expected_mean_hops"], 2.0);
}

#[test]
fn the_deadlock_check_finds_the_rings_cycle_and_updown_breaks_it() {
    netwrap()
        .args(["check", "graph", "--file", &example("ring.csv"), "--router", "vc"])
        .assert()
        .code(4)
        .stdout(predicate::str::contains("CYCLE of 4 channels"));
    netwrap()
        .args(["check", "graph", "--file", &example("ring.csv"), "--router", "vc", "--deadlock", "updown"])
        .assert()
        .success()
        .stdout(predicate::str::contains("acyclic: deadlock-free"));
}

#[test]
fn bad_files_are_refused_with_their_line() {
    let dir = scratch("graph");
    let cases: &[(&str, &str, &str)] = &[
        ("neg.csv", "src,dst\n0,1\n1,2\n\n2,-3\n", "neg.csv line 5: router -3 is not a number ≥ 0"),
        ("loop.csv", "0,1\n1,1\n", "loop.csv line 2: router 1 is joined to itself"),
        ("dup.csv", "0,1\n1,2\n2,1\n", "dup.csv line 3: channel 2 -> 1 is given twice (line 2 and line 3)"),
        ("lat.csv", "0,1,x\n", "lat.csv line 1: latency x is not a whole number"),
        ("cols.csv", "0,1,1,0,9\n", "cols.csv line 1: 5 fields"),
        (
            "apart.csv",
            "0,1\n2,3\n",
            "apart.csv: the graph is not connected: router 2 cannot be reached from router 0",
        ),
        ("empty.csv", "# nothing\n", "empty.csv: the graph is empty"),
        (
            "bad.anynet",
            "router 0 node 0 router 1\nrouter 1 switch 2\n",
            "bad.anynet line 2: expected router or node, not switch",
        ),
        ("nodes.anynet", "router 0 node 0 router 1\nrouter 1 node 2\n", "nodes.anynet: node 1 is missing"),
        (
            "g.json",
            "{\"nodes\": [{\"id\": 0}, {\"id\": 1}],\n\"links\": [{\"source\": 0, \"target\": 2}]}",
            "g.json: links[0].target: no node 2 in nodes",
        ),
        ("syntax.json", "{\"nodes\": [\n{\"id\": 0},\n]}", "syntax.json line 3"),
    ];
    for (name, text, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        netwrap()
            .current_dir(&dir)
            .args(["topo", "graph", "--file", name])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*want));
    }
    netwrap()
        .args(["topo", "graph", "--file", "no-such-graph.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read graph file no-such-graph.csv"));
    std::fs::write(dir.join("t.csv"), "router,count\n0,1\n9,2\n").unwrap();
    netwrap()
        .current_dir(&dir)
        .args(["topo", "graph", "--file", &example("ring.csv"), "--terminals", "t.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("t.csv line 3: router 9 is in no edge"));
}

/// A graph file's latencies: hop counts on the ideal switch; on the virtual-channel router
/// each channel takes its own (the channels of one class share `--class-latency`'s otherwise).
/// The three-router ring with one 3-cycle channel: a message 0 -> 1 alone takes that channel,
/// so its unloaded latency is 2 cycles above the all-1 ring's (T = (h + 1)·r + Σ l + B).
#[test]
fn latencies_run_on_the_ideal_switch_and_per_channel_on_the_vc_router() {
    let dir = scratch("graph-latency");
    let slow = dir.join("slow.anynet");
    std::fs::write(&slow, "router 0 node 0 router 1 3\nrouter 1 node 1 router 2\nrouter 2 node 2 router 0\n")
        .unwrap();
    let slow = slow.display().to_string();
    let sim = |extra: &[&str]| {
        let mut c = netwrap();
        c.args([&["sim", "graph", "--file", &slow, "--rate", "0.05", "--messages", "300"], extra].concat());
        c
    };
    sim(&[]).assert().success();
    let one = dir.join("one.anynet");
    std::fs::write(&one, "router 0 node 0 router 1\nrouter 1 node 1 router 2\nrouter 2 node 2 router 0\n")
        .unwrap();
    let one = one.display().to_string();
    // Uniform traffic at a load low enough that messages never meet: both runs draw the same
    // messages (same seed), and 1 of the 9 (source, destination) pairs crosses the 3-cycle
    // channel (0 -> 1; anynet gives 1 -> 0 its default 1 cycle), so the mean latency rises by
    // 2 × 1/9 = 0.222 cycles, within four binomial standard errors of the crossing fraction
    // over the 2,000 messages.
    let mean = |file: &str| -> f64 {
        let out = netwrap()
            .args(["sim", "graph", "--file", file, "--router", "vc", "--rate", "0.0005", "--size", "2"])
            .args(["--messages", "2000", "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["latency"].as_f64().unwrap()
    };
    let rise = mean(&slow) - mean(&one);
    let se = 2.0 * (1.0 / 9.0 * 8.0 / 9.0 / 2000.0f64).sqrt();
    assert!((rise - 2.0 / 9.0).abs() <= 4.0 * se, "latency rose by {rise}, expected 0.222 ± {}", 4.0 * se);
    let even = dir.join("even.csv");
    std::fs::write(&even, "src,dst,latency\n0,1,2\n1,2,2\n2,0,2\n").unwrap();
    let even = even.display().to_string();
    netwrap()
        .args(["sim", "graph", "--file", &even, "--router", "vc", "--link-latency", "2", "--rate", "0.05"])
        .args(["--messages", "300", "--deadlock", "updown"])
        .assert()
        .success();
}

#[test]
fn a_graph_whose_table_is_too_large_is_refused_with_the_limit() {
    let dir = scratch("graph-large");
    let n = 8200;
    let text: String = (0..n).map(|i| format!("{i},{}\n", (i + 1) % n)).collect();
    std::fs::write(dir.join("big.csv"), text).unwrap();
    netwrap()
        .current_dir(&dir)
        .args(["topo", "graph", "--file", "big.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the routing table of the graph big.csv (8200 routers, 8200 terminals, 16400 channels) (8200 destination routers x 8200 routers) would have 67240000 bytes",
        ));
}

/// Valiant and UGAL over a graph's table of minimal next hops, on the 4 x 4 torus read as an
/// edge list. Verification: Valiant's exact loads are two uniform legs, so every channel
/// carries twice uniform traffic's 0.5 per unit rate (the torus is edge-transitive and the
/// table splits evenly), as on the torus family; in a run every message leaves its router
/// through an intermediate but those to its own router (1/16 of uniform traffic): the
/// non-minimal fraction is 15/16 within four binomial standard errors of the 2,000 measured
/// messages. Characterisation: UGAL over the same table at this load (a third of Valiant's
/// bound) takes the minimal path for most messages (fewer than half non-minimal) and the
/// Valiant path for some.
#[test]
fn valiant_and_ugal_route_over_a_graphs_table() {
    let file = example("torus4x4.csv");
    for args in [&["graph", "--file", &file][..], &["torus", "--k", "4", "--n", "2", "--bidirectional"]] {
        let v = json(&[&["topo"], args, &["--routing", "valiant", "--json"]].concat());
        assert!((v["channel_load"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{args:?}: {v}");
    }
    let run = |routing: &str| {
        json(&[
            "sim",
            "graph",
            "--file",
            &file,
            "--routing",
            routing,
            "--rate",
            "0.1",
            "--messages",
            "2000",
            "--seed",
            "7",
            "--json",
        ])
    };
    let valiant = run("valiant");
    assert_eq!(valiant["verdict"], "ok");
    let (p, n) = (15.0f64 / 16.0, 2000.0);
    let se = (p * (1.0 - p) / n).sqrt();
    let f = valiant["nonminimal"].as_f64().unwrap();
    assert!((f - p).abs() <= 4.0 * se, "valiant non-minimal {f}");
    let ugal = run("ugal-local");
    assert_eq!(ugal["verdict"], "ok");
    let f = ugal["nonminimal"].as_f64().unwrap();
    assert!(f > 0.0 && f < 0.5, "ugal non-minimal {f}");
}
