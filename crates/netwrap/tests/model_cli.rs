//! The model, figure and design commands end to end: JSON keys, seed numbers, and clear
//! errors for bad input and unstable queues.

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;

fn netwrap() -> Command {
    Command::cargo_bin("netwrap").unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = netwrap().args(args).arg("--json").assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).unwrap()
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} missing in {v}"))
}

const SHARED_KEYS: &[&str] = &[
    "utilization",
    "latency",
    "throughput",
    "offered",
    "saturated",
    "max_rate",
    "netwrap_version",
    "seed",
    "config",
];

#[test]
fn every_model_reports_the_shared_keys() {
    for args in [
        &["model", "kary-ncube", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"][..],
        &["model", "indirect", "--k", "4", "--n", "5", "--rate", "0.01", "--size", "8"],
        &["model", "feedback", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"],
        &["model", "fat-tree", "--nodes", "64", "--rate", "0.001", "--size", "16"],
    ] {
        let v = json(args);
        for key in SHARED_KEYS {
            assert!(v.get(key).is_some(), "{key} missing from {args:?}");
        }
        assert!(v["seed"].is_null());
        assert_eq!(v["netwrap_version"], env!("CARGO_PKG_VERSION"));
    }
}

/// Seed 004 Ex 1: 64 processors, 2-D, m = 0.04, B = 4: ρ = 0.56, T ≈ 21.9.
#[test]
fn kary_ncube_seed004_exercise1() {
    let v = json(&["model", "kary-ncube", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"]);
    assert!((num(&v, "utilization") - 0.56).abs() < 1e-12);
    assert!((num(&v, "latency") - 21.91).abs() < 0.01);
}

/// Seed 000 §5.2: the 128-pin 3-D torus (W = 128/6) saturates at m ≈ 0.037 with L = 128;
/// the 4×4 indirect network (W = 16) at 1/B = 0.125.
#[test]
fn saturation_rates_of_section_5_2() {
    let v = json(&[
        "model",
        "kary-ncube",
        "--k",
        "10",
        "--n",
        "3",
        "--rate",
        "0.01",
        "--bits",
        "128",
        "--pins",
        "128",
    ]);
    assert!((num(&v["config"], "width") - 128.0 / 6.0).abs() < 1e-9);
    assert!((num(&v, "max_rate") - 0.037).abs() < 0.001);
    let v = json(&[
        "model", "indirect", "--k", "4", "--nodes", "1024", "--rate", "0.01", "--bits", "128", "--pins",
        "128",
    ]);
    assert_eq!(num(&v, "max_rate"), 0.125);
}

/// Seed 000 §4.2 and §5: a binary-cube bisection gives W = k/2 ("256 nodes … n = 2 has
/// W = 8"); the 2-D 32-bit normalisation gives W = k.
#[test]
fn bisection_normalisations() {
    let v = json(&[
        "model",
        "kary-ncube",
        "--k",
        "16",
        "--n",
        "2",
        "--rate",
        "0.001",
        "--bits",
        "160",
        "--bisection-binary-cube",
    ]);
    assert_eq!(num(&v["config"], "width"), 8.0);
    let v = json(&[
        "model",
        "kary-ncube",
        "--k",
        "4",
        "--n",
        "5",
        "--rate",
        "0.001",
        "--bits",
        "128",
        "--bisection-of",
        "2:32",
    ]);
    assert_eq!(num(&v["config"], "width"), 4.0);
    netwrap()
        .args(["model", "kary-ncube", "--bits", "128", "--bisection-of", "2"])
        .assert()
        .failure()
        .stderr(contains("n0:W0"));
}

#[test]
fn delays_add_eq12_timing() {
    let v = json(&[
        "model",
        "kary-ncube",
        "--k",
        "32",
        "--n",
        "2",
        "--rate",
        "0.001",
        "--bits",
        "128",
        "--width",
        "32",
        "--switch-delay",
        "4",
    ]);
    // Planar 2-D wires are unit length: clock 4 + 1.
    assert_eq!(num(&v, "clock_period"), 5.0);
    assert!((num(&v, "latency_time") - 5.0 * num(&v, "latency")).abs() < 1e-9);
}

#[test]
fn feedback_solutions_and_processor_utilization() {
    let base = ["model", "feedback", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"];
    let exact = json(&base);
    let u = num(&exact, "processor_utilization");
    assert!(u > 0.0 && u < 1.0);
    assert!((u - 1.0 / (1.0 + 0.04 * num(&exact, "latency"))).abs() < 1e-12);
    let quad = json(&[&base[..], &["--solution", "quadratic"]].concat());
    assert!((num(&quad, "latency") - num(&exact, "latency")).abs() < 1e-9);
    let printed = json(&[&base[..], &["--solution", "closed-form"]].concat());
    assert!(num(&exact, "latency") - num(&printed, "latency") > 1.0);
    netwrap().args(base).assert().success().stdout(contains("processor utilization U"));
}

#[test]
fn unstable_queues_are_errors_that_say_so() {
    netwrap()
        .args(["model", "kary-ncube", "--k", "32", "--n", "2", "--rate", "0.02", "--size", "4"])
        .assert()
        .code(3)
        .stderr(contains("saturated"))
        .stderr(contains("0.016129"));
    netwrap()
        .args(["model", "indirect", "--k", "4", "--n", "5", "--rate", "0.2", "--size", "8"])
        .assert()
        .code(3)
        .stderr(contains("unstable"));
    netwrap()
        .args(["model", "fat-tree", "--nodes", "1024", "--rate", "0.01", "--size", "32"])
        .assert()
        .code(3)
        .stderr(contains("unstable"))
        .stderr(contains("eq. 26"));
}

#[test]
fn bad_input_is_a_clear_error() {
    for (args, msg) in [
        (&["model", "kary-ncube", "--k", "1"][..], "k must be at least 2"),
        (&["model", "kary-ncube", "--rate=-0.1"], "rate"),
        (&["model", "kary-ncube", "--locality", "0"], "locality"),
        (&["model", "kary-ncube", "--bits", "128"], "needs a channel width"),
        (&["model", "kary-ncube", "--width", "16"], "give --bits"),
        (&["model", "kary-ncube", "--bits", "128", "--width", "0"], "must be a positive number"),
        (&["model", "kary-ncube", "--switch-delay=-1"], "--switch-delay"),
        (&["model", "fat-tree", "--nodes", "100"], "4^n"),
        (&["model", "fat-tree", "--size", "0"], "size"),
        (&["model", "indirect", "--k", "1"], "at least 2"),
        (&["model", "feedback", "--k", "2", "--n", "6"], "contention form"),
        (&["figure", "5"], "no figure"),
        (&["design", "--nodes", "64", "--rate", "0.01", "--bits", "1024", "--pins", "0"], "positive"),
        (
            &["design", "--nodes", "1", "--rate", "0.01", "--bits", "1024", "--pins", "384"],
            "at least 2 nodes",
        ),
    ] {
        netwrap().args(args).assert().failure().stderr(contains("error")).stderr(contains(msg));
    }
}

/// Seed 004 Ex 7: the 4-ary 3-cube with 64-bit channels comes first.
#[test]
fn design_answers_exercise7() {
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
    ]);
    let best = &v["candidates"][0];
    assert_eq!(
        (best["n"].as_u64(), best["k"].as_u64(), best["width"].as_f64()),
        (Some(3), Some(4), Some(64.0))
    );
    for key in ["netwrap_version", "seed", "config"] {
        assert!(v.get(key).is_some());
    }
    netwrap()
        .args([
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
        ])
        .assert()
        .success()
        .stdout(contains("SATURATED"));
}

#[test]
fn figures_are_written_as_csv_and_svg() {
    let dir = std::env::temp_dir().join(format!("netwrap-fig-{}", std::process::id()));
    netwrap().args(["figure", "11", "--out"]).arg(&dir).assert().success();
    for p in ["a", "b", "c", "d"] {
        let csv = std::fs::read_to_string(dir.join(format!("fig11{p}.csv"))).unwrap();
        assert!(csv.starts_with("figure,dimension,rate,latency\n"));
        assert!(csv.lines().count() > 20);
        let svg = std::fs::read_to_string(dir.join(format!("fig11{p}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("polyline"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The committed figure data in docs/figures are what the code produces now (golden files).
#[test]
fn committed_figure_data_is_current() {
    let dir = std::env::temp_dir().join(format!("netwrap-golden-{}", std::process::id()));
    netwrap().args(["figure", "all", "--out"]).arg(&dir).assert().success();
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/figures");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "csv") {
            let name = path.file_name().unwrap();
            let committed = std::fs::read_to_string(docs.join(name)).unwrap_or_else(|_| {
                panic!(
                    "docs/figures/{} is missing: run `netwrap figure all --out docs/figures`",
                    name.display()
                )
            });
            assert_eq!(std::fs::read_to_string(&path).unwrap(), committed, "{} is stale", name.display());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
