//! The command line as a user meets it: the homework's positional form, `sim`, `model
//! kary-ncube`, `bench`, and bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn netwrap() -> Command {
    Command::cargo_bin("netwrap").unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = netwrap().args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn legacy_form_runs_the_homework_example() {
    netwrap()
        .args(["64", "1000", "9999999", "0.04", "4", "8", "/dev/null", "1.0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("channel utilization (rho):"))
        .stdout(predicate::str::contains("average latency (T):"))
        .stdout(predicate::str::contains("messages generated:"))
        .stdout(predicate::str::contains("messages delivered:           1000"))
        .stdout(predicate::str::contains("cycles simulated:"))
        .stdout(predicate::str::contains("seed 1"));
}

#[test]
fn legacy_typical_run_is_saturated_and_says_so() {
    netwrap()
        .args(["64", "1000", "9999999", "0.05", "6", "8", "/dev/null", "1.0"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("the network is saturated"))
        .stdout(predicate::str::contains("saturated"))
        .stdout(predicate::str::contains("offered load on the busiest channel is 1.0500"));
}

#[test]
fn legacy_rounds_processors_up_to_a_power_of_k() {
    netwrap()
        .args(["100", "300", "9999999", "0.01", "4", "8", "/dev/null", "1.0"])
        .assert()
        .success()
        .stderr(predicate::str::contains("log_8(100) is not a whole number"))
        .stderr(predicate::str::contains("N = 8^3 = 512"))
        .stdout(predicate::str::contains("with 512 processors"));
}

#[test]
fn legacy_det_file_receives_detailed_statistics() {
    let dir = std::env::temp_dir().join(format!("netwrap-det-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let det = dir.join("det.txt");
    netwrap()
        .args(["64", "500", "9999999", "0.02", "4", "8", det.to_str().unwrap(), "0.5"])
        .assert()
        .success();
    let text = std::fs::read_to_string(&det).unwrap();
    for section in
        ["## utilization by channel class", "## hop distribution", "## latency distribution", "## per node"]
    {
        assert!(text.contains(section), "missing {section}");
    }
    assert!(text.contains("\"locality\":0.5"));
    assert!(text.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())).count() > 64);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn legacy_bad_input_is_a_clear_error() {
    for (args, msg) in [
        (vec!["64", "1000", "9999999", "-0.1", "6", "8", "/dev/null", "1.0"], "rate -0.1 is invalid"),
        (vec!["64", "1000", "9999999", "1.5", "6", "8", "/dev/null", "1.0"], "rate 1.5 is invalid"),
        (vec!["64", "1000", "9999999", "NaN", "6", "8", "/dev/null", "1.0"], "rate NaN is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "0", "8", "/dev/null", "1.0"], "size 0 is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "6", "1", "/dev/null", "1.0"], "rad-k = 1 is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "6", "8", "/dev/null", "0"], "locality 0 is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "6", "8", "/dev/null", "1.2"], "locality 1.2 is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "6", "8", "/nonexistent/dir/x", "1.0"], "cannot write"),
        (vec!["64", "1000", "0.05", "6"], "expected 8 arguments"),
        (vec!["64", "ten", "9999999", "0.05", "6", "8", "/dev/null", "1.0"], "pkts = 'ten'"),
    ] {
        netwrap().args(&args).assert().failure().code(2).stderr(predicate::str::contains(msg));
    }
}

#[test]
fn sim_json_has_the_documented_keys_and_records_its_configuration() {
    let v = json(&[
        "sim",
        "--k",
        "4",
        "--n",
        "2",
        "--rate",
        "0.05",
        "--messages",
        "2000",
        "--seed",
        "5",
        "--json",
    ]);
    for key in [
        "utilization",
        "latency",
        "latency_ci95",
        "throughput",
        "offered",
        "saturated",
        "messages_delivered",
        "cycles",
        "mean_hops",
        "netwrap_version",
        "seed",
        "config",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["seed"], 5);
    assert_eq!(v["config"]["k"], 4);
    assert_eq!(v["config"]["messages"], 2000);
    assert_eq!(v["messages_delivered"], 2000);
    assert_eq!(v["saturated"], false);
}

#[test]
fn sim_is_reproducible_and_seed_sensitive() {
    let args = ["sim", "--k", "5", "--n", "2", "--rate", "0.05", "--messages", "3000", "--json"];
    assert_eq!(json(&args), json(&args));
    let mut other = args.to_vec();
    other.extend(["--seed", "2"]);
    assert_ne!(json(&args)["latency"], json(&other)["latency"]);
}

#[test]
fn sim_with_model_reports_relative_error() {
    let v = json(&["sim", "--messages", "5000", "--model", "--json"]);
    let model = v["model"]["latency"].as_f64().unwrap();
    assert!((model - 21.909).abs() < 0.01);
    let err = v["relative_error"]["latency"].as_f64().unwrap();
    let sim = v["latency"].as_f64().unwrap();
    assert!((err - (sim - model) / model).abs() < 1e-9);
    netwrap()
        .args(["sim", "--messages", "2000", "--model"])
        .assert()
        .success()
        .stdout(predicate::str::contains("simulation"))
        .stdout(predicate::str::contains("model"));
}

#[test]
fn sim_sweep_prints_one_row_per_rate() {
    let v = json(&["sim", "--rates", "0.01,0.02,0.08", "--messages", "1000", "--model", "--json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2]["saturated"], true);
    assert_eq!(rows[2]["latency"], Value::Null);
}

#[test]
fn sim_saturated_run_reports_throughput_not_latency() {
    netwrap()
        .args(["sim", "--rate", "0.08", "--messages", "2000"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("SATURATED"))
        .stdout(predicate::str::contains("accepts"));
}

#[test]
fn sim_bad_input_is_a_clear_error() {
    for (args, msg) in [
        (vec!["sim", "--rate", "-1"], "'--rate <RATE>': must be a probability in [0, 1]"),
        (vec!["sim", "--size", "0"], "'--size <SIZE>': must be a whole number of at least 1"),
        (vec!["sim", "--k", "1"], "'--k <K>': must be a whole number of at least 2"),
        (vec!["sim", "--locality", "0"], "'--locality <LOCALITY>': must be a fraction in (0, 1]"),
        (vec!["sim", "--no-wrap", "--locality", "0.5"], "end-around"),
        (vec!["sim", "--frobnicate"], "unexpected argument"),
        (vec!["sim", "--det-file", "/nonexistent/dir/x"], "cannot write"),
    ] {
        netwrap().args(&args).assert().failure().stderr(predicate::str::contains(msg));
    }
}

#[test]
fn model_kary_ncube_json_and_saturation() {
    let v = json(&["model", "kary-ncube", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4", "--json"]);
    assert!((v["utilization"].as_f64().unwrap() - 0.56).abs() < 1e-12);
    assert!((v["latency"].as_f64().unwrap() - 21.909).abs() < 0.001);
    assert!(v["contention_per_switch"].as_f64().is_some() && v["unloaded_latency"] == 11.0);
    netwrap()
        .args(["model", "kary-ncube", "--k", "32", "--n", "2", "--rate", "0.02", "--size", "4"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("saturated"))
        .stderr(predicate::str::contains("0.016129"));
    netwrap()
        .args(["model", "kary-ncube", "--rate", "nan"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("rate"));
}

#[test]
fn bench_runs_one_configuration() {
    let v = json(&["bench", "--only", "torus8x8", "--scale", "0.001", "--json"]);
    let row = &v.as_array().unwrap()[0];
    assert!(row["cycles_per_second"].as_f64().unwrap() > 0.0);
    assert!(row["flit_hops_per_second"].as_f64().unwrap() > 0.0);
    netwrap()
        .args(["bench", "--only", "nope"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("torus32x32"));
}

/// Seed 004 Ex 7 confirmed by simulation: the model's best two designs simulated, in the same
/// order, each within 15% of the model at the simulated point.
#[test]
fn design_top_candidates_are_confirmed_by_simulation() {
    let v = json(&[
        "design",
        "--nodes",
        "64",
        "--pins",
        "384",
        "--rate",
        "0.015",
        "--bits",
        "1024",
        "--locality",
        "0.5",
        "--simulate",
        "2",
        "--messages",
        "5000",
        "--json",
    ]);
    let sims = v["simulated"].as_array().unwrap();
    assert_eq!(sims.len(), 2);
    assert_eq!((sims[0]["n"].as_u64(), sims[0]["k"].as_u64()), (Some(3), Some(4)));
    let lat = |i: usize| sims[i]["latency"].as_f64().unwrap();
    assert!(lat(0) < lat(1), "simulation disagrees with the ranking: {} vs {}", lat(0), lat(1));
    for s in sims {
        assert!(s["relative_error"].as_f64().unwrap().abs() < 0.15, "{s}");
    }
    assert_eq!(v["seed"], 1);
}

#[test]
fn sim_runs_any_family_by_name_or_with_topology() {
    let a = json(&[
        "sim",
        "--topology",
        "midimew",
        "--nodes",
        "64",
        "--rate",
        "0.05",
        "--messages",
        "3000",
        "--json",
    ]);
    let b = json(&["sim", "--rate", "0.05", "--messages", "3000", "--json", "midimew", "--nodes", "64"]);
    assert_eq!(a, b);
    for key in [
        "utilization",
        "latency",
        "throughput",
        "saturated",
        "mean_hops",
        "expected_mean_hops",
        "config",
        "seed",
    ] {
        assert!(a.get(key).is_some(), "missing {key}");
    }
    assert_eq!(a["config"]["nodes"], 64);
    assert_eq!(a["config"]["topology"]["family"], "midimew");
    let (hops, expect) = (a["mean_hops"].as_f64().unwrap(), a["expected_mean_hops"].as_f64().unwrap());
    assert!((hops - expect).abs() / expect < 0.03, "{hops} vs {expect}");
    let classes = a["utilization_by_class"].as_array().unwrap();
    assert_eq!(classes.len(), 4, "Midimew channel classes ±a, ±b");
}

#[test]
fn sim_family_overload_and_bad_input() {
    netwrap()
        .args(["sim", "butterfly", "--k", "2", "--stages", "4", "--rate", "0.5", "--messages", "2000"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("SATURATED"));
    netwrap()
        .args(["sim", "fat-tree", "--nodes", "100"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("N = 4^n processors (4, 16, 64"));
    netwrap()
        .args(["sim", "--model", "ring", "--k", "8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--model"));
    netwrap()
        .args(["sim", "--locality", "0.5", "ring", "--k", "8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--locality applies to k-ary n-cubes"));
}

/// `design` and `model kary-ncube` share one delay parser: a negative switch delay is refused
/// by both, naming the option.
#[test]
fn negative_switch_delay_is_refused_everywhere() {
    for args in [
        vec![
            "design",
            "--nodes",
            "64",
            "--pins",
            "384",
            "--rate",
            "0.015",
            "--bits",
            "1024",
            "--switch-delay",
            "-1",
        ],
        vec!["model", "kary-ncube", "--bits", "128", "--width", "32", "--switch-delay", "-1"],
    ] {
        netwrap()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("'-1' for '--switch-delay <SWITCH_DELAY>'"));
    }
}
