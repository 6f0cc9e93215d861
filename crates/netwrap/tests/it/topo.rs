//! `netwrap topo` and `netwrap cost` from the outside.

use crate::{json, netwrap, scratch};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

#[test]
fn topo_json_has_every_key() {
    let v = json(&["topo", "midimew", "--nodes", "64", "--json"]);
    for key in [
        "netwrap_version",
        "seed",
        "config",
        "nodes",
        "routers",
        "channels",
        "degree",
        "diameter",
        "average_distance",
        "bisection_width",
        "bisection_exact",
        "channel_load",
        "ideal_throughput",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert!(v["seed"].is_null());
    assert_eq!(v["config"]["topology"]["family"], "midimew");
    assert_eq!(v["config"]["routing"]["algorithm"], "family");
    assert_eq!(v["nodes"], 64);
    assert_eq!(v["degree"], 4);
    assert_eq!(v["diameter"], 6);
    // 64 is a multiple of neither a = 5 nor b = 6: no rectangular layout (Puente et al. §2).
    assert!(v["layout"].is_null());
    let v = json(&["topo", "midimew", "--nodes", "32", "--mapping", "--json"]);
    assert_eq!(v["layout"]["columns"], 4);
    assert_eq!(v["layout"]["rows"], 8);
    assert_eq!(v["application_to_network"].as_array().unwrap().len(), 32);
}

#[test]
fn torus_and_fat_tree_numbers() {
    let v = json(&["topo", "torus", "--k", "16", "--n", "2", "--bidirectional", "--json"]);
    assert_eq!(v["diameter"], 16);
    assert_eq!(v["bisection_width"], 64);
    assert_eq!(v["bisection_exact"], true);
    let f = json(&["topo", "fat-tree", "--nodes", "1024", "--json"]);
    assert_eq!(f["routers"], 496);
    assert_eq!(f["diameter"], 8);
}

#[test]
fn two_level_names_build() {
    let v = json(&["topo", "two-level", "Butterfly.16.8", "--json"]);
    assert_eq!(v["nodes"], 1024);
    assert_eq!(v["config"]["topology"]["family"], "two-level");
    let x = json(&["topo", "two-level", "Xbar.32.8", "--json"]);
    assert_eq!(x["routers"], 32);
    // The old name still works.
    assert_eq!(json(&["topo", "two-level", "Xbar.32.8", "--json"])["routers"], 32);
}

/// The homework's Ex 4: on a unidirectional ring of k nodes a message travels (k − 1)/2 hops
/// on average when the source itself is a possible destination, k/2 over distinct pairs;
/// `topo` prints both, labelled.
#[test]
fn ring_average_distance_both_ways() {
    let v = json(&["topo", "ring", "--k", "8", "--json"]);
    assert_eq!(v["average_distance"], 4.0);
    assert_eq!(v["average_distance_with_self"], 3.5);
    netwrap()
        .args(["topo", "ring", "--k", "8"])
        .assert()
        .success()
        .stdout(contains("4.0000 (ordered pairs of distinct processors)"))
        .stdout(contains("3.5000 (every destination, the source included"));
}

#[test]
fn bad_sizes_fail_with_the_valid_sizes() {
    netwrap()
        .args(["topo", "fat-tree", "--nodes", "100"])
        .assert()
        .failure()
        .stderr(contains("N = 4^n processors (4, 16, 64"));
    netwrap().args(["topo", "midimew", "--nodes", "3"]).assert().failure().stderr(contains("N >= 4"));
    netwrap()
        .args(["topo", "nhop", "--factors", "4,1"])
        .assert()
        .failure()
        .stderr(contains("at least 2 nodes"));
    // N is rounded up to a whole dimension, as in `sim` and the homework, and stderr says so.
    netwrap()
        .args(["topo", "torus", "--k", "4", "--nodes", "60"])
        .assert()
        .success()
        .stderr(contains("N = 4^3 = 64"));
    netwrap().args(["topo", "two-level", "Xbar.0.8"]).assert().failure().stderr(contains("at least 1"));
    netwrap()
        .args(["cost", "--modules", "32", "--bisection", "0"])
        .assert()
        .failure()
        .stderr(contains("'--bisection <BISECTION>': must be a whole number of at least 1"));
}

/// Raghunath & Ranade Table II: M = 32, B = 8192.
#[test]
fn cost_reproduces_table_ii() {
    let v = json(&["cost", "--modules", "32", "--bisection", "8192", "--json"]);
    assert!(v["seed"].is_null());
    assert_eq!(v["netwrap_version"], env!("CARGO_PKG_VERSION"));
    let rows = v["rows"].as_array().unwrap();
    let find = |name: &str| rows.iter().find(|r| r["topology"] == name).unwrap().clone();
    let two = find("2-hop Network");
    assert_eq!(two["pin_count"].as_f64(), Some(1664.0));
    assert_eq!(two["bundles_per_module"], 10);
    assert_eq!(two["total_bundles"], 160);
    assert_eq!(two["bisection"], 8192);
    assert_eq!(find("Complete graph")["pin_count"].as_f64(), Some(992.0));
    assert_eq!(find("2-dim Toroid")["pin_count"].as_f64(), Some(3072.0));
    netwrap().args(["cost"]).assert().success().stdout(contains("1664"));
}

#[test]
fn table_routing_and_every_family_runs() {
    let v =
        json(&["topo", "torus", "--k", "4", "--n", "2", "--bidirectional", "--routing", "table", "--json"]);
    assert_eq!(v["config"]["routing"]["algorithm"], "table");
    assert_eq!(v["config"]["topology"]["family"], "torus");
    for args in [
        &["topo", "mesh", "--k", "4"][..],
        &["topo", "ring", "--k", "5", "--bidirectional"],
        &["topo", "hypercube", "--nodes", "64"],
        &["topo", "circulant", "--nodes", "20", "--a", "3", "--b", "7"],
        &["topo", "butterfly", "--k", "2", "--stages", "4"],
        &["topo", "omega", "--k", "4", "--nodes", "64"],
        &["topo", "complete", "--nodes", "8"],
        &["topo", "nhop", "--factors", "4,8"],
        &["topo", "ccc", "--n", "4"],
        &["topo", "crossbar", "--nodes", "8"],
        &["topo", "two-level", "Butterfly.8-2dil.8"],
        &["topo", "two-level", "2hop.32.64-32"],
    ] {
        let mut with_json = args.to_vec();
        with_json.push("--json");
        let v = json(&with_json);
        assert!(v["diameter"].is_u64(), "{args:?}");
        netwrap().args(args).assert().success().stdout(contains("average distance"));
    }
}

#[test]
fn more_bad_input() {
    netwrap().args(["topo", "ccc", "--n", "2"]).assert().code(2).stderr(contains("n >= 3"));
    netwrap().args(["topo", "torus", "--mapping"]).assert().code(2).stderr(contains("Midimew"));
    netwrap()
        .args(["topo", "ring", "--routing", "record"])
        .assert()
        .code(2)
        .stderr(contains("Midimew routing record"));
    netwrap()
        .args(["topo", "fat-tree", "--order", "lowest-first"])
        .assert()
        .code(2)
        .stderr(contains("not to a fat-tree"));
    netwrap()
        .args(["topo", "two-level", "Butterfly.8-9dil.8"])
        .assert()
        .failure()
        .stderr(contains("use 1 to 4"));
    netwrap().args(["topo", "two-level", "Foo.8"]).assert().failure().stderr(contains("Butterfly.I.E"));
    netwrap()
        .args(["cost", "--modules", "24", "--json"])
        .assert()
        .success()
        .stdout(contains("a hypercube needs M = 2^d modules"));
}

/// Sizes that cannot be built are refused at once, with status 2, the count asked for and the
/// limit (before, these aborted on a failed allocation of tens of GB).
#[test]
fn impossible_sizes_are_refused_with_the_limit() {
    for (args, says) in [
        (&["topo", "torus", "--k", "1000", "--n", "3"][..], "1000000000 terminals"),
        (&["topo", "crossbar", "--nodes", "4294967295"], "4294967295 terminals"),
        (&["topo", "fat-tree", "--nodes", "1073741824"], "1073741824 terminals"),
        (&["topo", "ccc", "--n", "20"], "20971520 terminals"),
        (&["topo", "hypercube", "--n", "22"], "92274688 directed channels"),
        (&["topo", "butterfly", "--k", "2", "--stages", "21"], "22020096 routers"),
    ] {
        netwrap()
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(says))
            .stderr(contains("netwrap allows at most"));
    }
}

/// `workload.mapping` through the binary: on the 16-node Midimew (which has a layout)
/// `network` is written into the result's config (it is not the default there) and reads back;
/// `layout` on the 64-node one (N a multiple of neither generator) is refused with status 2,
/// from the command line and from an experiment file (its file and line named); `topo
/// --mapping` there says why there is no map.
#[test]
fn midimew_mapping_option() {
    let v = json(&[
        "sim",
        "midimew",
        "--nodes",
        "16",
        "--pattern",
        "transpose",
        "--mapping",
        "network",
        "--messages",
        "500",
        "--json",
    ]);
    assert_eq!(v["config"]["workload"]["mapping"], "network");
    let v =
        json(&["sim", "midimew", "--nodes", "16", "--pattern", "transpose", "--messages", "500", "--json"]);
    assert!(v["config"]["workload"].get("mapping").is_none(), "{}", v["config"]["workload"]);
    netwrap()
        .args(["sim", "midimew", "--nodes", "64", "--pattern", "transpose", "--mapping", "layout"])
        .assert()
        .code(2)
        .stderr(contains("workload.mapping = layout: the Midimew of 64 nodes has no rectangular layout"))
        .stderr(contains("multiple of neither generator, 5 or 6"));
    netwrap()
        .args(["sim", "torus", "--pattern", "transpose", "--mapping", "layout"])
        .assert()
        .code(2)
        .stderr(contains("a torus has none"));
    let dir = scratch("mapping");
    let file = dir.join("layout.toml");
    std::fs::write(
        &file,
        "[topology]\nfamily = \"midimew\"\nnodes = 64\n[workload]\npattern = \"transpose\"\nmapping = \"layout\"\n",
    )
    .unwrap();
    netwrap()
        .args(["run"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains(format!("in {}: workload.mapping = layout", file.display())))
        .stderr(contains("(line 6)"));
    netwrap()
        .args(["topo", "midimew", "--nodes", "64", "--mapping"])
        .assert()
        .success()
        .stdout(contains("application node").not())
        .stderr(contains("has no application-to-network mapping"))
        .stderr(contains("multiple of neither generator, 5 or 6"));
}

/// A value of a key of an experiment file's `[topology]` that the family refuses (a torus of
/// radix 1) names the file, the key and its line, not the section's header.
#[test]
fn a_topology_keys_value_names_its_file_and_line() {
    let dir = scratch("topology-key");
    let file = dir.join("k1.toml");
    std::fs::write(&file, "[topology]\nfamily = \"torus\"\nk = 1\n").unwrap();
    netwrap()
        .args(["run"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains(format!(
            "in {}: topology.k = 1 is invalid: the radix of a torus must be at least 2",
            file.display()
        )))
        .stderr(contains("(line 3)"));
}
