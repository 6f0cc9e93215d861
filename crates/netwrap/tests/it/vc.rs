//! The virtual-channel router from the outside: every new key round trips, sweeps over it give
//! the same bytes on one and two threads, and options that do not apply are refused.

use crate::{json, netwrap, scratch};
use predicates::prelude::*;
use predicates::str::contains;

/// Every `router` key, none at its default, reads back from a result's `config` to the
/// identical result (and the resolved config names every key).
#[test]
fn every_router_key_round_trips_through_its_config() {
    let dir = scratch("vc-roundtrip");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--router", "vc"],
        vec![
            "--router",
            "vc",
            "--vcs",
            "3",
            "--buffer",
            "9",
            "--router-delay",
            "2",
            "--link-latency",
            "2",
            "--packet",
            "3",
            "--switching",
            "vct",
            "--arbitration",
            "oldest-first",
            "--size",
            "7",
        ],
        vec![
            "--router",
            "vc",
            "--switching",
            "saf",
            "--packet",
            "4",
            "--buffer",
            "4",
            "midimew",
            "--nodes",
            "16",
        ],
        vec!["--router", "vc", "fat-tree", "--nodes", "64"],
        vec!["--router", "vc", "--deadlock", "dateline", "torus", "--k", "4", "--bidirectional"],
        vec![
            "--router",
            "vc",
            "--deadlock",
            "bubble",
            "--switching",
            "vct",
            "--vcs",
            "1",
            "--packet",
            "4",
            "--buffer",
            "16",
            "--size",
            "4",
            "torus",
            "--k",
            "8",
            "--bidirectional",
        ],
    ];
    for (i, case) in cases.iter().enumerate() {
        let mut args = vec!["sim", "--rate", "0.01", "--messages", "600", "--json"];
        args.extend(case);
        let first = netwrap().args(&args).output().unwrap();
        assert!(first.status.success(), "{case:?}: {}", String::from_utf8_lossy(&first.stderr));
        let v: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
        let router = v["config"]["router"].as_object().unwrap();
        for key in
            ["kind", "vcs", "buffer", "router-delay", "link-latency", "packet", "switching", "arbitration"]
        {
            assert!(router.contains_key(key), "{case:?}: config.router lacks {key}");
        }
        let file = dir.join(format!("result{i}.json"));
        std::fs::write(&file, &first.stdout).unwrap();
        let again = netwrap().args(["run", file.to_str().unwrap(), "--json"]).output().unwrap();
        assert!(again.status.success(), "{case:?}: {}", String::from_utf8_lossy(&again.stderr));
        assert_eq!(
            String::from_utf8_lossy(&first.stdout),
            String::from_utf8_lossy(&again.stdout),
            "{case:?}: the re-run differs"
        );
    }
    let v = json(&["sim", "--rate", "0.01", "--messages", "300", "--json", "--router", "vc", "--vcs", "3"]);
    assert_eq!(v["config"]["router"]["vcs"], 3);
    assert_eq!(v["config"]["router"]["switching"], "wormhole");
}

/// A sweep of the virtual-channel router over switching modes and rates writes the same bytes
/// on one and on two threads.
#[test]
fn a_vc_sweep_gives_the_same_bytes_on_one_and_two_threads() {
    let dir = scratch("vc-threads");
    let file = dir.join("vc.toml");
    std::fs::write(
        &file,
        "[topology]\nfamily = \"torus\"\nk = 4\nbidirectional = true\n[router]\nkind = \"vc\"\nbuffer = 8\npacket = 4\n[workload]\nsize = 6\n[run]\nmessages = 1500\n[sweep]\n\"router.switching\" = [\"wormhole\", \"vct\", \"saf\"]\n\"workload.rate\" = [0.01, 0.04, 0.2]\n",
    )
    .unwrap();
    let run = |threads: &str| {
        let csv = dir.join(format!("t{threads}.csv"));
        netwrap()
            .env("RAYON_NUM_THREADS", threads)
            .args(["run", file.to_str().unwrap(), "--csv", csv.to_str().unwrap()])
            .assert()
            .success();
        std::fs::read(csv).unwrap()
    };
    let one = run("1");
    assert_eq!(String::from_utf8_lossy(&one).lines().count(), 10, "a header and nine points");
    assert_eq!(one, run("2"));
}

/// Options that do not apply are errors naming the key, the flag and why (status 2).
#[test]
fn options_that_do_not_apply_are_refused() {
    for (args, says) in [
        (vec!["--vcs", "2"], "router.vcs (--vcs) belongs to the virtual-channel router"),
        (vec!["--switching", "vct"], "router.switching (--switching)"),
        (vec!["--router", "vc", "--engine", "reference"], "run.engine = reference"),
        (
            vec!["--router", "vc", "--switching", "vct", "--buffer", "4"],
            "router.buffer = 4 is below router.packet = 16",
        ),
        (vec!["--router", "vc", "--vcs", "0"], "router.vcs = 0"),
        (vec!["--router", "vc", "--link-latency", "0"], "router.link-latency = 0"),
        (vec!["--router", "vc", "--buffer", "100000"], "router.buffer = 100000"),
        (
            vec!["--router", "vc", "two-level", "Xbar.16.32", "--nodes", "16", "--modules", "4"],
            "unit-width channels",
        ),
        (vec!["--router", "vc", "--vcs", "65536", "--buffer", "65536"], "lower --vcs or --buffer"),
        (vec!["--router", "vc", "--deadlock", "dateline", "--vcs", "1"], "router.vcs >= 2, not 1"),
        (
            vec!["--router", "vc", "--deadlock", "dateline", "mesh", "--k", "4"],
            "a mesh's cycles are not protected",
        ),
        (vec!["--deadlock", "dateline"], "router.deadlock (--deadlock) belongs"),
        (vec!["--router", "vc", "--deadlock", "bubble"], "needs router.switching = vct"),
        (
            vec![
                "--router",
                "vc",
                "--deadlock",
                "bubble",
                "--switching",
                "vct",
                "--packet",
                "16",
                "--buffer",
                "16",
            ],
            "router.buffer >= 2 x router.packet = 32, not 16",
        ),
        (
            vec!["--router", "vc", "--deadlock", "bubble", "--switching", "vct", "midimew", "--nodes", "16"],
            "a midimew's cycles are not protected by it yet",
        ),
    ] {
        let mut a = vec!["sim", "--messages", "100"];
        a.extend(args.iter());
        netwrap().args(&a).assert().code(2).stderr(contains(says));
    }
}

/// A deadlock exits with status 4, prints the cycle of waits, and its JSON holds a `deadlock`
/// object; the same flags on a mesh do not deadlock (status 3: saturated).
#[test]
fn a_deadlock_exits_4_with_its_cycle() {
    let flags =
        ["--router", "vc", "--vcs", "1", "--buffer", "4", "--size", "16", "--rate", "1", "--messages", "500"];
    let mut a = vec!["sim", "torus", "--k", "4"];
    a.extend(flags);
    netwrap()
        .args(&a)
        .assert()
        .code(4)
        .stdout(contains("DEADLOCK").and(contains("Cycle of waits")).and(contains("router")))
        .stderr(contains("deadlock"));
    a.push("--json");
    let out = netwrap().args(&a).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "deadlock");
    assert!(!v["deadlock"]["cycle"].as_array().unwrap().is_empty());
    let mut m = vec!["sim", "mesh", "--k", "4"];
    m.extend(flags);
    netwrap().args(&m).assert().code(3);
}

/// The per-class service statistics (`Outcome::channel_service`, the detailed statistics'
/// "service by channel class"): one message alone in the network holds every channel for
/// exactly its packet's length and never waits, except its second packet, which waits in the
/// source queue while the first is written (4 cycles here).
#[test]
fn unloaded_packets_hold_each_channel_for_their_length_and_never_wait() {
    let run = |topology: serde_json::Value, size: u32, packet: u32| {
        let spec: netwrap_sim::SimSpec = serde_json::from_value(serde_json::json!({
            "topology": topology,
            "router": { "kind": "vc", "vcs": 1, "buffer": 3, "packet": packet },
            "workload": { "rate": 0.00001, "size": size, "pattern": "uniform-others" },
            "run": { "messages": 300 }
        }))
        .unwrap();
        netwrap_sim::simulate(&spec).unwrap().outcome.channel_service.unwrap()
    };
    let fat = run(serde_json::json!({ "family": "fat-tree", "nodes": 16 }), 8, 8);
    let names: Vec<&str> = fat.iter().map(|c| c.class.as_str()).collect();
    assert_eq!(names, ["up 1-2", "down 2-1", "injection", "ejection"]);
    for c in &fat {
        assert!(c.packets > 0, "{c:?}");
        assert_eq!((c.hold_sum, c.wait_sum), (8 * c.packets, 0), "{c:?}");
    }
    assert_eq!((fat[2].packets, fat[3].packets), (300, 300));
    assert_eq!(fat[0].packets, fat[1].packets, "every packet that goes up comes down");
    let torus = run(serde_json::json!({ "family": "torus", "k": 4, "bidirectional": true }), 6, 4);
    let inj = torus.iter().find(|c| c.class == "injection").unwrap();
    assert_eq!((inj.packets, inj.hold_sum, inj.wait_sum), (600, 300 * (4 + 2), 300 * 4));
    for c in torus.iter().filter(|c| c.class != "injection") {
        assert_eq!((c.hold_sum, c.wait_sum), (3 * c.packets, 0), "{c:?}");
    }
}
