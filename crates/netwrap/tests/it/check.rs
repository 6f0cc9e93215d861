//! `netwrap check`, the static deadlock check: its verdicts on rings, tori and meshes, their
//! agreement with the run-time detector on the same configurations, and bad input.

use crate::{netwrap, scratch};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use serde_json::Value;

/// Runs `netwrap check ARGS --json`, asserts its exit status, and returns its JSON.
fn check(args: &[&str], status: i32) -> Value {
    let mut a = vec!["check", "--json"];
    a.extend(args);
    let out = netwrap().args(&a).output().unwrap();
    assert_eq!(out.status.code(), Some(status), "{a:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

const RING: &[&str] = &["--router", "vc", "--vcs", "1", "torus", "--k", "4", "--n", "1"];
const TORUS: &[&str] = &["--router", "vc", "--vcs", "1", "torus", "--k", "4"];
const MESH: &[&str] = &["--router", "vc", "--vcs", "1", "mesh", "--k", "4"];
const DATELINE: &[&str] = &["--router", "vc", "--vcs", "2", "--deadlock", "dateline", "torus", "--k", "4"];
const BUBBLE: &[&str] =
    &["--router", "vc", "--switching", "vct", "--deadlock", "bubble", "--buffer", "32", "torus", "--k", "4"];

const MIDIMEW: &[&str] = &["--router", "vc", "--vcs", "1", "--routing", "record", "midimew", "--nodes", "16"];
const MIDIMEW_BUBBLE: &[&str] = &[
    "--router",
    "vc",
    "--switching",
    "vct",
    "--deadlock",
    "bubble",
    "--buffer",
    "32",
    "--routing",
    "record",
    "midimew",
    "--nodes",
    "16",
];
const ESCAPE: &[&str] =
    &["--router", "vc", "--switching", "vct", "--deadlock", "escape", "--buffer", "32", "torus", "--k", "4"];
const MIDIMEW_ESCAPE: &[&str] = &[
    "--router",
    "vc",
    "--switching",
    "vct",
    "--deadlock",
    "escape",
    "--buffer",
    "32",
    "midimew",
    "--nodes",
    "16",
];
const MESH_ESCAPE: &[&str] =
    &["--router", "vc", "--switching", "vct", "--deadlock", "escape", "--buffer", "32", "mesh", "--k", "4"];

/// Asserts `cycle` is exactly one ring of a 4-ary torus: four channels of one class, each
/// starting where the previous ends, through four distinct routers, closing on itself.
fn is_one_ring(cycle: &[Value]) {
    assert_eq!(cycle.len(), 4, "{cycle:?}");
    let class = &cycle[0]["class"];
    let mut routers: Vec<u64> = Vec::new();
    for (i, n) in cycle.iter().enumerate() {
        assert_eq!(&n["class"], class, "{cycle:?}");
        assert_eq!(n["to"], cycle[(i + 1) % 4]["from"], "{cycle:?}");
        routers.push(n["from"].as_u64().unwrap());
    }
    routers.sort_unstable();
    routers.dedup();
    assert_eq!(routers.len(), 4, "{cycle:?}");
}

/// Verification (expected values from Dally & Seitz's theorem applied by hand): dimension-order
/// routing with one VC and no avoidance has a cyclic dependency graph on a unidirectional ring
/// and torus, the cycle being one ring (the only cycles DOR makes: it never turns back to a
/// lower dimension); on a mesh it is acyclic (no wrap-around channel closes a ring).
#[test]
fn check_finds_the_ring_cycles_of_dor_and_none_on_a_mesh() {
    let ring = check(RING, 4);
    assert_eq!(ring["verdict"], "cycle");
    let cycle = ring["cycle"].as_array().unwrap();
    is_one_ring(cycle);
    let mut channels: Vec<u64> = cycle.iter().map(|n| n["channel"].as_u64().unwrap()).collect();
    channels.sort_unstable();
    assert_eq!(channels, [0, 1, 2, 3], "the ring's four channels are all of the network's");
    assert_eq!(ring["nodes"], 4);
    assert_eq!(ring["edges"], 4);

    let torus = check(TORUS, 4);
    assert_eq!(torus["verdict"], "cycle");
    is_one_ring(torus["cycle"].as_array().unwrap());
    // The text form says so too.
    let mut a = vec!["check"];
    a.extend(TORUS);
    netwrap().args(&a).assert().code(4).stdout(contains("CYCLE of 4 channels")).stderr(contains("cycle"));

    assert_eq!(check(MESH, 0)["verdict"], "acyclic");
    let mut a = vec!["check"];
    a.extend(MESH);
    netwrap().args(&a).assert().code(0).stdout(contains("acyclic: deadlock-free (Dally & Seitz)"));
}

/// Verification: Dally & Seitz's dateline (two VC classes per ring) makes the torus's graph
/// acyclic, one and two directions; Bubble flow control leaves the rings' cycles but nothing
/// across rings (Puente et al.'s argument), and the ideal switch cannot deadlock.
#[test]
fn check_accepts_dateline_bubble_and_the_ideal_switch() {
    let d = check(DATELINE, 0);
    assert_eq!(d["verdict"], "acyclic");
    // Two classes per channel: 32 channels of the unidirectional 4x4 torus.
    assert_eq!(d["nodes"], 64);
    let mut bi = DATELINE.to_vec();
    bi.push("--bidirectional");
    assert_eq!(check(&bi, 0)["verdict"], "acyclic");

    let b = check(BUBBLE, 0);
    assert_eq!(b["verdict"], "bubble");
    // Every ring edge of DOR: each of the 32 channels feeds the next channel of its ring.
    assert_eq!(b["ring_edges"], 32);
    let mut a = vec!["check"];
    a.extend(BUBBLE);
    netwrap()
        .args(&a)
        .assert()
        .code(0)
        .stdout(contains("deadlock-free by the bubble argument (Puente et al.)"));

    assert_eq!(check(&["torus", "--k", "4"], 0)["verdict"], "ideal");
}

/// Verification (by hand, as above): on the 16-node Midimew C_16(2, 3) the routing record in
/// dimension order with one VC has a cyclic graph, one cycle lying in a ring of one generator
/// and direction (the `+a` ring of C_16(2, 3) is 0, 2, …, 14: eight channels); with Bubble
/// flow control every cycle lies within a ring, and every one of its 64 channels feeds the next
/// of its ring. Escape routing's escape sub-network is Bubble flow control's graph on the
/// unidirectional 4x4 torus (32 channels, each feeding the next of its ring) and on the
/// Midimew (64), and acyclic on the mesh.
#[test]
fn check_covers_midimews_and_escape_routing() {
    let m = check(MIDIMEW, 4);
    assert_eq!(m["verdict"], "cycle");
    let cycle = m["cycle"].as_array().unwrap();
    let class = &cycle[0]["class"];
    assert!(cycle.iter().all(|n| &n["class"] == class), "{cycle:?}");
    for (i, n) in cycle.iter().enumerate() {
        assert_eq!(n["to"], cycle[(i + 1) % cycle.len()]["from"], "{cycle:?}");
    }
    let len = if class == "+a" || class == "-a" { 8 } else { 16 };
    assert_eq!(cycle.len(), len, "{cycle:?}");

    let b = check(MIDIMEW_BUBBLE, 0);
    assert_eq!(b["verdict"], "bubble");
    // Every channel feeds the next one of its ring (a route of several hops of one class).
    assert_eq!(b["ring_edges"], 64);

    let e = check(ESCAPE, 0);
    assert_eq!((&e["verdict"], &e["ring_edges"]), (&"escape".into(), &32.into()));
    let me = check(MIDIMEW_ESCAPE, 0);
    assert_eq!((&me["verdict"], &me["ring_edges"]), (&"escape".into(), &64.into()));
    let mesh = check(MESH_ESCAPE, 0);
    assert_eq!(mesh["verdict"], "escape");
    assert!(mesh["ring_edges"].is_null());
    let mut a = vec!["check"];
    a.extend(MIDIMEW_ESCAPE);
    netwrap().args(&a).assert().code(0).stdout(contains("deadlock-free by Duato's theorem"));
    // Bubble on a Midimew needs dimension order: its own routing is adaptive.
    let mut a: Vec<&str> = vec!["check"];
    a.extend(MIDIMEW_BUBBLE.iter().filter(|&&f| f != "--routing" && f != "record"));
    netwrap()
        .args(&a)
        .assert()
        .code(2)
        .stderr(contains("routing.algorithm = record").and(contains("(--deadlock, --routing)")));
}

/// Agreement with the run-time detector (a characterisation of the simulator against the
/// check's verdicts): at full load with wormhole switching, the configurations the check
/// finds cyclic deadlock (status 4, as `a_deadlock_exits_4_with_its_cycle` already shows for
/// the torus), and those it finds deadlock-free never exit 4 (they saturate: 3).
#[test]
fn check_agrees_with_the_run_time_detector() {
    let load = ["--size", "16", "--rate", "1", "--messages", "5000"];
    for (flags, cyclic) in [
        (RING, true),
        (TORUS, true),
        (MIDIMEW, true),
        (MESH, false),
        (DATELINE, false),
        (BUBBLE, false),
        (MIDIMEW_BUBBLE, false),
        (ESCAPE, false),
        (MIDIMEW_ESCAPE, false),
    ] {
        let verdict = check(flags, if cyclic { 4 } else { 0 });
        assert_eq!(verdict["verdict"] == "cycle", cyclic, "{flags:?}");
        let mut a = vec!["sim"];
        // Bubble and escape need virtual cut-through and room for two packets (their flags say
        // so); the rest is wormhole with buffers of 4 flits, as the existing deadlock test runs.
        if !flags.contains(&"vct") {
            a.extend(["--switching", "wormhole", "--buffer", "4"]);
        }
        a.extend(flags);
        a.extend(load);
        let out = netwrap().args(&a).output().unwrap();
        let code = out.status.code();
        if cyclic {
            assert_eq!(code, Some(4), "{a:?}: {}", String::from_utf8_lossy(&out.stderr));
        } else {
            assert!(
                code == Some(0) || code == Some(3),
                "{a:?}: {code:?} {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// Verification of the input handling: a spec file is read as `netwrap run` reads it (a sweep
/// file: its base spec); a missing file, a bad spec, a file with options, a spec the VC router
/// refuses and a network too large to search are invalid input (status 2).
#[test]
fn check_reads_files_and_refuses_bad_input() {
    let dir = scratch("check");
    let good = dir.join("ring.toml");
    std::fs::write(
        &good,
        "[topology]\nfamily = \"torus\"\nk = 4\nn = 1\n[router]\nkind = \"vc\"\nvcs = 1\n[sweep]\n\"workload.rate\" = [0.1, 0.2]\n",
    )
    .unwrap();
    let v = check(&[good.to_str().unwrap()], 4);
    assert_eq!(v["verdict"], "cycle");
    netwrap()
        .args(["check", dir.join("missing.toml").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("cannot read"));
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[router]\nkind = \"vc\"\ndeadlock = \"sideways\"\n").unwrap();
    netwrap().args(["check", bad.to_str().unwrap()]).assert().code(2).stderr(contains("sideways"));
    netwrap()
        .args(["check", good.to_str().unwrap(), "--vcs", "2"])
        .assert()
        .code(2)
        .stderr(contains("not both"));
    netwrap()
        .args(["check", "--router", "vc", "--deadlock", "dateline", "--vcs", "1", "torus", "--k", "4"])
        .assert()
        .code(2)
        .stderr(contains("router.vcs >= 2"));
    // The bound on the search: 262,144 destinations x 786,432 nodes > 2^27 states.
    netwrap()
        .args(["check", "--router", "vc", "--vcs", "1", "torus", "--k", "64", "--n", "3"])
        .assert()
        .code(2)
        .stderr(contains("too large to check"));
}

/// Verification (the argument of Schroeder et al. 1991, in `netwrap_topo::UpDownRouting`'s
/// docs): with `--deadlock updown` the channel dependency graph is acyclic on every family
/// netwrap builds for the VC router — bidirectional tori and rings, meshes, hypercubes,
/// circulants and Midimews, complete and n-hop networks, CCC, the fat-tree and multistage
/// networks — with one VC, while the Midimew's own routing with one VC has a cycle. The text
/// states the argument.
#[test]
fn check_says_up_down_routing_is_acyclic_on_every_family() {
    let updown = ["--router", "vc", "--vcs", "1", "--deadlock", "updown"];
    let families: [&[&str]; 13] = [
        &["midimew", "--nodes", "16"],
        &["midimew", "--nodes", "50"],
        &["circulant", "--nodes", "20", "--a", "3", "--b", "7"],
        &["torus", "--k", "4", "--bidirectional"],
        &["torus", "--k", "3", "--n", "3", "--bidirectional"],
        &["ring", "--k", "9", "--bidirectional"],
        &["mesh", "--k", "4"],
        &["hypercube", "--n", "5"],
        &["complete", "--nodes", "8"],
        &["nhop", "--factors", "3,4"],
        &["ccc", "--n", "4"],
        &["fat-tree", "--nodes", "64"],
        &["butterfly", "--nodes", "64"],
    ];
    for family in families {
        let mut a = updown.to_vec();
        a.extend(family);
        let v = check(&a, 0);
        assert_eq!(v["verdict"], "acyclic", "{family:?}");
        assert_eq!(v["deadlock"], "updown", "{family:?}");
    }
    let mut a = vec!["check"];
    a.extend(updown);
    a.extend(["midimew", "--nodes", "16"]);
    netwrap()
        .args(&a)
        .assert()
        .code(0)
        .stdout(contains("deadlock avoidance updown"))
        .stdout(contains("never up after down, so no dependency cycle can close"))
        .stdout(contains("acyclic: deadlock-free (Dally & Seitz)"));
    let v = check(&["--router", "vc", "--vcs", "1", "midimew", "--nodes", "16"], 4);
    assert_eq!(v["verdict"], "cycle");
}

/// Verification: nearest-common-ancestor routing climbs and then descends, so the channel
/// dependency graph of a k-ary n-tree is acyclic with one VC, for every up port (Petrini &
/// Vanneschi 1997; the XGFT of Öhring et al. 1995). Edges counted by hand on the 4-ary
/// 3-tree (64 channels per class): an up 1-2 channel leads to its switch's 4 up 2-3 channels
/// and 3 down 2-1 channels (256 + 192), an up 2-3 to 3 down 3-2 (192), a down 3-2 to the 4
/// down 2-1 below (256): 896 when every up port may be taken. Under D-mod-k a top switch
/// serves only destinations whose level-2 digit is its own up-port digit, so a down 3-2
/// channel leads to one down 2-1 channel (64): 704.
#[test]
fn check_says_nearest_common_ancestor_routing_is_acyclic_on_a_k_ary_n_tree() {
    for (up, edges) in [("random", 896), ("adaptive", 896), ("dmodk", 704)] {
        let args = ["--router", "vc", "--vcs", "1", "--up-port", up, "kary-ntree", "--k", "4", "--n", "3"];
        let v = check(&args, 0);
        assert_eq!(v["verdict"], "acyclic", "{up}");
        assert_eq!((&v["nodes"], &v["edges"]), (&256.into(), &edges.into()), "{up}");
    }
    netwrap()
        .args(["check", "--router", "vc", "--vcs", "1", "kary-ntree", "--k", "4", "--n", "3"])
        .assert()
        .success()
        .stdout(contains("acyclic: deadlock-free (Dally & Seitz)"));
    netwrap()
        .args(["check", "--router", "vc", "--up-port", "dmodk", "torus", "--k", "4"])
        .assert()
        .code(2)
        .stderr(contains("up-port applies to XGFTs and k-ary n-trees, not to a torus"));
    netwrap()
        .args(["topo", "xgft", "--children", "4,4", "--parents", "2,2"])
        .assert()
        .code(2)
        .stderr(contains("w1 = 2 is not supported"));
}

/// Verification of the route-phase classes on the p = 2 dragonfly (Kim et al. 2008 §4.2;
/// Jiang, Kim & Dally 2009), the classes counted by hand from the longest routes: minimal
/// local, global, local (2 classes); Valiant through a group local, global | local, global,
/// local (3: the first leg ends on its global hop); through a router a local hop more in the
/// intermediate group before the switch (4); UGAL as Valiant; PAR one more for its turn at
/// the first hop (4 through a group, 5 through a router). Each needs exactly that many VCs,
/// the routes reach exactly that many classes, and the graph is acyclic.
#[test]
fn check_proves_the_phase_classes_of_every_dragonfly_routing() {
    for (routing, via, classes) in [
        ("min", None, 2u64),
        ("valiant", Some("group"), 3),
        ("valiant", Some("router"), 4),
        ("ugal-local", Some("group"), 3),
        ("ugal-global", Some("router"), 4),
        ("par", Some("group"), 4),
        ("par", Some("router"), 5),
    ] {
        let vcs = classes.to_string();
        let mut args = vec!["--router", "vc", "--vcs", &vcs, "--deadlock", "phases", "--routing", routing];
        if let Some(via) = via {
            args.extend(["--via", via]);
        }
        args.extend(["dragonfly", "--p", "2"]);
        let v = check(&args, 0);
        assert_eq!(v["verdict"], "acyclic", "{routing} {via:?}");
        assert_eq!(v["route_classes"]["classes"], classes, "{routing} {via:?}");
        assert_eq!(v["route_classes"]["reached"], classes, "{routing} {via:?}");
        assert_eq!(v["nodes"], 180 * classes, "{routing} {via:?}");
        let fewer = (classes - 1).to_string();
        let i = args.iter().position(|a| *a == vcs).unwrap();
        args[i] = &fewer;
        netwrap().arg("check").args(&args).assert().code(2).stderr(
            contains(format!("needs {classes} classes of virtual channels"))
                .and(contains(format!("router.vcs >= {classes}, not {fewer}"))),
        );
    }
}

/// Verification: the minimal routing's two classes (`dest-group`: class 1 only inside the
/// destination's group) are acyclic for minimal routing, and under Valiant and UGAL the check
/// finds the cycle of the BookSim and sst-macro assignment — global class 0, local class 0,
/// global class 0 across intermediate groups: every node of the cycle in class 0, global
/// and local channels alternating.
#[test]
fn check_flags_the_destination_group_classes_under_nonminimal_routing() {
    let dragonfly = ["dragonfly", "--p", "2"];
    let v =
        check(&[&["--router", "vc", "--vcs", "2", "--deadlock", "dest-group"][..], &dragonfly].concat(), 0);
    assert_eq!(v["verdict"], "acyclic");
    for routing in ["valiant", "ugal-local"] {
        let args = [
            &["--router", "vc", "--vcs", "2", "--deadlock", "dest-group", "--routing", routing][..],
            &dragonfly,
        ];
        let v = check(&args.concat(), 4);
        assert_eq!(v["verdict"], "cycle", "{routing}");
        let cycle = v["cycle"].as_array().unwrap();
        assert!(cycle.iter().all(|n| n["vcs"] == "class 0"), "{routing}: {cycle:?}");
        let globals = cycle.iter().filter(|n| n["class"] == "global").count();
        assert!(globals >= 2, "{routing}: {cycle:?}");
        for (i, n) in cycle.iter().enumerate() {
            assert_eq!(n["to"], cycle[(i + 1) % cycle.len()]["from"], "{cycle:?}");
            assert_ne!(n["class"], cycle[(i + 1) % cycle.len()]["class"], "alternating: {cycle:?}");
        }
    }
    netwrap()
        .args(["check", "--router", "vc", "--vcs", "2", "--deadlock", "dest-group", "torus", "--k", "4"])
        .assert()
        .code(2)
        .stderr(contains("applies to dragonflies, not to a torus"));
}

/// Valiant elsewhere: through a random router. On a mesh (dimension order on each leg)
/// `phases` gives each leg its own class, each dimension-ordered: acyclic, where one class
/// lets the second leg close a cycle with the first. A HyperX's own routing takes any
/// unaligned dimension, which is cyclic already for minimal routes with one class, and so in
/// each phase class too; on a torus each leg's rings close cycles within their class. The
/// check says so for both.
#[test]
fn check_follows_valiant_legs_on_meshes_hyperx_and_tori() {
    let base = ["--router", "vc", "--routing", "valiant"];
    let mesh = ["mesh", "--k", "4"];
    assert_eq!(check(&[&base[..], &["--vcs", "1"], &mesh].concat(), 4)["verdict"], "cycle");
    let v = check(&[&base[..], &["--vcs", "2", "--deadlock", "phases"], &mesh].concat(), 0);
    assert_eq!(v["verdict"], "acyclic");
    assert_eq!(v["route_classes"]["reached"], 2);
    let hyperx = ["hyperx", "--sizes", "3,3", "--p", "1"];
    assert_eq!(check(&[&["--router", "vc", "--vcs", "1"][..], &hyperx].concat(), 4)["verdict"], "cycle");
    assert_eq!(
        check(&[&base[..], &["--vcs", "2", "--deadlock", "phases"], &hyperx].concat(), 4)["verdict"],
        "cycle"
    );
    let torus = ["torus", "--k", "4", "--bidirectional"];
    assert_eq!(
        check(&[&base[..], &["--vcs", "2", "--deadlock", "phases"], &torus].concat(), 4)["verdict"],
        "cycle"
    );
}

/// Verification of DAL's classes (Ahn et al. 2009 §4; a class per hop): a route aligns each
/// dimension with one hop and may deroute once more in each dimension of three or more
/// routers, so it takes at most n + (dimensions of size ≥ 3) hops, counted by hand: 4 on the
/// 4 x 4 HyperX, 5 on 4 x 4 x 2 (its size-2 dimension has no deroute), 6 on 3 x 3 x 3, 3 on the
/// 3-cube as K2^3 (no deroutes: minimal adaptive routing with a class per hop). With that many
/// VCs the routes reach exactly that many classes and the graph is acyclic; with one fewer
/// `check` refuses and names the count; with one class (`--deadlock none`) DAL's routes close
/// a cycle within one dimension.
#[test]
fn check_proves_dals_class_per_hop() {
    for (sizes, classes) in [("4,4", 4u64), ("4,4,2", 5), ("3,3,3", 6), ("2,2,2", 3)] {
        let vcs = classes.to_string();
        let mut args = vec![
            "--router",
            "vc",
            "--vcs",
            &vcs,
            "--deadlock",
            "phases",
            "--routing",
            "dal",
            "hyperx",
            "--sizes",
            sizes,
        ];
        let v = check(&args, 0);
        assert_eq!(v["verdict"], "acyclic", "{sizes}");
        assert_eq!(v["route_classes"]["classes"], classes, "{sizes}");
        assert_eq!(v["route_classes"]["reached"], classes, "{sizes}");
        let fewer = (classes - 1).to_string();
        args[3] = &fewer;
        netwrap().arg("check").args(&args).assert().code(2).stderr(
            contains(format!("needs {classes} classes of virtual channels"))
                .and(contains(format!("router.vcs >= {classes}, not {fewer}"))),
        );
    }
    let v = check(
        &["--router", "vc", "--vcs", "4", "--routing", "dal", "hyperx", "--sizes", "4,4", "--p", "2"],
        4,
    );
    assert_eq!(v["verdict"], "cycle");
}

/// DAL applies to HyperX (and its n-hop spelling) only, and takes a threshold but no `via`.
#[test]
fn dal_is_refused_off_the_hyperx() {
    netwrap()
        .args(["sim", "torus", "--k", "4", "--n", "2", "--routing", "dal"])
        .assert()
        .code(2)
        .stderr(contains("routing 'dal' deroutes within the dimensions of a HyperX"));
    netwrap()
        .args(["sim", "hyperx", "--sizes", "4,4", "--routing", "dal", "--via", "router"])
        .assert()
        .code(2)
        .stderr(contains("via applies to valiant, ugal-local, ugal-global and par, not to routing 'dal'"));
    netwrap()
        .args([
            "sim",
            "nhop",
            "--factors",
            "4,4",
            "--routing",
            "dal",
            "--threshold",
            "4",
            "--messages",
            "200",
        ])
        .assert()
        .success();
}
