//! The model, figure, cost and design commands end to end: JSON keys, the papers' numbers,
//! clear errors for bad input and unstable queues, and what the output may never contain.

use crate::netwrap;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use serde_json::Value;

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

/// Characterisation: every model's JSON carries the keys a simulation report shares.
#[test]
fn every_model_reports_the_shared_keys() {
    for args in [
        &["model", "kary-ncube", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"][..],
        &["model", "indirect", "--k", "4", "--n", "5", "--rate", "0.01", "--size", "8"],
        &["model", "feedback", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"],
        &["model", "fat-tree", "--nodes", "64", "--rate", "0.001", "--size", "16"],
        &["model", "network", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"],
    ] {
        let v = json(args);
        for key in SHARED_KEYS {
            assert!(v.get(key).is_some(), "{key} missing from {args:?}");
        }
        assert!(v["seed"].is_null());
        assert_eq!(v["netwrap_version"], env!("CARGO_PKG_VERSION"));
    }
}

/// Verification against the homework's Ex 1: 64 processors, 2-D, m = 0.04, B = 4: ρ = 0.56,
/// T ≈ 21.9.
#[test]
fn kary_ncube_homework_exercise1() {
    let v = json(&["model", "kary-ncube", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"]);
    assert!((num(&v, "utilization") - 0.56).abs() < 1e-12);
    assert!((num(&v, "latency") - 21.91).abs() < 0.01);
}

/// Verification against Agarwal 1991 §5.2: the 128-pin 3-D torus (W = 128/6) saturates at
/// m ≈ 0.037 with L = 128 (the paper's three digits: ±0.001); the 4×4 indirect network
/// (W = 16) at 1/B = 0.125 exactly.
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

/// Verification against Agarwal 1991 §4.2 and §5: a binary-cube bisection gives W = k/2
/// ("256 nodes … n = 2 has W = 8"); the 2-D 32-bit normalisation gives W = k.
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

/// Verification of Agarwal 1991 eq. 12's clock factor: planar 2-D wires are one unit long,
/// so with s = 4 the clock period is 5 and eq. 12's latency is 5 times eq. 10's (exact
/// arithmetic; 1e-9 allows for rounding).
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

/// Verification of Agarwal 1991 §3.2's pipelined switch end to end, by hand: the 10-ary
/// 3-cube (n·k_d = 13.5) at m = 0.02, B = 4 has ρ = 0.36 and eq. 8's w = 14/27, so w·n·k_d = 7
/// and T = p·13.5 + 7 + 4: 24.5 for p = 1, 51.5 for p = 3 (T0 = 44.5). `--switch-pipeline 1`,
/// the default, prints exactly what the command printed without it, in text and JSON.
#[test]
fn switch_pipeline_adds_p_cycles_a_switch() {
    let base = ["model", "kary-ncube", "--k", "10", "--n", "3", "--rate", "0.02", "--size", "4"];
    let three = json(&[&base[..], &["--switch-pipeline", "3"]].concat());
    assert!((num(&three, "latency") - 51.5).abs() < 1e-9);
    assert!((num(&three, "unloaded_latency") - 44.5).abs() < 1e-9);
    assert_eq!(three["config"]["switch_pipeline"], 3);
    let one = json(&base);
    assert!((num(&one, "latency") - 24.5).abs() < 1e-9);
    assert!(one["config"].get("switch_pipeline").is_none());
    assert_eq!(num(&three, "utilization"), num(&one, "utilization"));
    assert_eq!(num(&three, "contention_per_switch"), num(&one, "contention_per_switch"));
    for extra in [&[][..], &["--json"], &["--csv", "-"], &["--switch-delay", "4", "--wire-delay", "length"]] {
        let (status, without, _) = run(&[&base[..], extra].concat());
        let (_, with, _) = run(&[&base[..], extra, &["--switch-pipeline", "1"]].concat());
        assert_eq!((status, &with), (0, &without), "{extra:?}");
    }
    let (_, text, _) = run(&[&base[..], &["--switch-pipeline", "3"]].concat());
    assert!(text.contains("switch pipeline p            3 cycles a switch"), "{text}");
}

/// Verification of Agarwal 1991 §4.2's wire proportional to the channel width end to end:
/// with the bisection of a unit-width binary n-cube (W = k/2) the longest wire is
/// W·k^(n/2 − 1) = √N/2 "for all n": at N = 4096 it is 32 for k = 64, 16 and 8 (n = 2, 3, 4),
/// so s = 4 gives a clock period of 36, and eq. 12 is that times the latency in cycles.
#[test]
fn width_proportional_wire_is_constant_under_a_binary_cube_bisection() {
    for (k, n) in [("64", "2"), ("16", "3"), ("8", "4")] {
        let v = json(&[
            "model",
            "kary-ncube",
            "--k",
            k,
            "--n",
            n,
            "--rate",
            "0.001",
            "--bits",
            "160",
            "--bisection-binary-cube",
            "--switch-delay",
            "4",
            "--wire-delay",
            "width",
        ]);
        assert!((num(&v, "clock_period") - 36.0).abs() < 1e-9, "k = {k}: {v}");
        assert!((num(&v, "latency_time") - 36.0 * num(&v, "latency")).abs() < 1e-9);
        assert_eq!(v["config"]["delays"]["wire"]["model"], "width");
    }
}

/// Verification of the homework's App. D at Ex 1's network: U = 1/(1 + m·T) (exact to
/// rounding, 1e-12), the quadratic root equals the bisection (1e-9, the bisection's
/// tolerance), and the printed closed form is more than a cycle lower (docs/models.md).
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

/// Verification: `--threads 1` is App. D unchanged — table and JSON byte for byte the same as
/// without the option, for every solution, and the JSON has no `threads` or `regime` keys.
#[test]
fn feedback_one_thread_prints_app_d_unchanged() {
    for solution in ["exact", "quadratic", "closed-form"] {
        for json in [&[][..], &["--json"]] {
            let base = [&["model", "feedback", "--rate", "0.05", "--solution", solution][..], json].concat();
            let plain = netwrap().args(&base).assert().success().get_output().stdout.clone();
            let one =
                netwrap().args(&base).args(["--threads", "1"]).assert().success().get_output().stdout.clone();
            assert_eq!(plain, one, "{base:?}");
            let text = String::from_utf8(one).unwrap();
            assert!(!text.contains("threads") && !text.contains("regime"), "{text}");
        }
    }
}

/// Characterisation of `--threads` on Ex 1's network (k = 8, n = 2, m = 0.04, B = 4): two
/// threads are already saturated (T(R + C) = 52 ≥ R + L ≈ 46), so U = R/(R + C) = 25/26
/// exactly; at m = 0.2 (R = 5) they are linear and U = 2R/(R + L) holds at the reported
/// L to rounding, and the quadratic agrees (1e-9). The table and JSON name the threads and
/// the regime; T = 0 and the printed closed form with T ≥ 2 are refused with status 2, naming
/// what to use.
#[test]
fn feedback_threads_report_threads_and_regime() {
    let base = ["model", "feedback", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"];
    let v = json(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(v["threads"], 2);
    assert_eq!(v["regime"], "saturated");
    assert_eq!(num(&v, "processor_utilization"), 25.0 / 26.0);
    let v = json(&["model", "feedback", "--rate", "0.2", "--threads", "2"]);
    assert_eq!(v["regime"], "linear");
    let (u, l) = (num(&v, "processor_utilization"), num(&v, "latency"));
    assert!((u - 10.0 / (5.0 + l)).abs() < 1e-12, "{u} {l}");
    netwrap()
        .args(["model", "feedback", "--threads", "8"])
        .assert()
        .success()
        .stdout(contains("threads per processor T      8, round robin, switch cost C = 1 cycle"))
        .stdout(contains("multithreading regime        saturated"));
    netwrap()
        .args(["model", "feedback", "--threads", "0"])
        .assert()
        .code(2)
        .stderr(contains("--threads"))
        .stderr(contains("at least 1"));
    let q = json(&["model", "feedback", "--rate", "0.2", "--threads", "2", "--solution", "quadratic"]);
    assert!((num(&q, "processor_utilization") - u).abs() < 1e-9 * u);
    netwrap()
        .args(["model", "feedback", "--threads", "2", "--solution", "closed-form"])
        .assert()
        .code(2)
        .stderr(contains("--solution closed-form with --threads 2"))
        .stderr(contains("use the exact solution (bisection on U) or the quadratic"));
}

/// Characterisation: a saturated model prints its report and exits with status 3, saying
/// which queue is unstable and the highest sustainable rate.
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

/// Characterisation: invalid input is an error naming what is wrong.
#[test]
fn bad_input_is_a_clear_error() {
    for (args, msg) in [
        (&["model", "kary-ncube", "--k", "1"][..], "'--k <K>': must be a whole number of at least 2"),
        (&["model", "kary-ncube", "--rate=-0.1"], "rate"),
        (&["model", "kary-ncube", "--locality", "0"], "locality"),
        (&["model", "kary-ncube", "--bits", "128"], "needs a channel width"),
        (&["model", "kary-ncube", "--width", "16"], "give --bits"),
        (&["model", "kary-ncube", "--bits", "128", "--width", "0"], "must be a positive finite number"),
        (&["model", "kary-ncube", "--switch-delay=-1"], "--switch-delay"),
        (&["model", "fat-tree", "--nodes", "100"], "4^n"),
        (&["model", "fat-tree", "--size", "0"], "size"),
        (&["model", "indirect", "--k", "1"], "at least 2"),
        (&["model", "feedback", "--k", "2", "--n", "6", "--contention", "large-kd"], "--contention auto"),
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

/// Verification against the homework's Ex 7: the 4-ary 3-cube with 64-bit channels comes first.
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

/// Characterisation: a figure is written as its `reproduce` page: tidy CSV, an SVG plot a
/// panel, and the page.
#[test]
fn figures_are_written_as_csv_and_svg() {
    let dir = std::env::temp_dir().join(format!("netwrap-fig-{}", std::process::id()));
    netwrap().args(["figure", "11", "--out"]).arg(&dir).assert().success();
    let csv = std::fs::read_to_string(dir.join("agarwal-1991-fig-11.csv")).unwrap();
    assert!(csv.starts_with("figure,key_name,key,x_name,x,y_name,y\n"));
    for p in ["a", "b", "c", "d"] {
        assert!(csv.lines().filter(|l| l.starts_with(&format!("11{p},"))).count() > 20);
        let svg = std::fs::read_to_string(dir.join(format!("agarwal-1991-fig-11-{p}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("polyline"));
    }
    assert!(std::fs::read_to_string(dir.join("agarwal-1991-fig-11.md")).unwrap().contains("| yes |"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Characterisation (golden files): `netwrap figure`, an alias of the `reproduce` pages of
/// Figs. 6–16, writes exactly their committed files in docs/reproduce (a changed model or a
/// changed drawing fails here).
#[test]
fn committed_figure_data_is_current() {
    let dir = std::env::temp_dir().join(format!("netwrap-golden-{}", std::process::id()));
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/reproduce");
    // As in docs/reproduce, the pages' index is there, so the pages link it.
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(docs.join("README.md"), dir.join("README.md")).unwrap();
    netwrap().args(["figure", "all", "--out"]).arg(&dir).assert().success();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if name == "README.md" {
            continue;
        }
        let committed = std::fs::read_to_string(docs.join(name)).unwrap_or_else(|_| {
            panic!(
                "docs/reproduce/{} is missing: run `netwrap figure all --out docs/reproduce`",
                name.display()
            )
        });
        assert_eq!(std::fs::read_to_string(&path).unwrap(), committed, "{} is stale", name.display());
        seen += 1;
    }
    assert_eq!(seen, 11 * 2 + 18, "a CSV and a page a figure, an SVG a panel");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs netwrap and returns (status, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = netwrap().args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// Characterisation of input validation, option by option: every model command refuses 0
/// (where invalid), negatives (as separate tokens too), NaN, ±infinity, out-of-range and
/// overflowing values with status 2 and a short message that names the option and says what
/// it takes in words — never clap's "unexpected argument", never a 300-digit range.
#[test]
fn every_numeric_option_refuses_bad_values_in_words() {
    let probability = "must be a probability in [0, 1]";
    let fraction = "must be a fraction in (0, 1]";
    let positive = "must be a positive finite number";
    let cases: &[(&[&str], &str, &[&str], &str)] = &[
        (&["model", "kary-ncube"], "--k", &["0", "1", "-1", "nan", "1.5", "4294967296"], "whole number"),
        (&["model", "kary-ncube"], "--n", &["0", "-1", "inf", "4294967296"], "whole number"),
        (&["model", "kary-ncube"], "--nodes", &["0", "-1", "nan", "18446744073709551616"], "whole number"),
        (
            &["model", "kary-ncube"],
            "--rate",
            &["-1", "2", "nan", "inf", "-inf", "1e300", "-1e-300"],
            probability,
        ),
        (&["model", "kary-ncube"], "--size", &["0", "-4", "nan", "4294967296"], "whole number"),
        (&["model", "kary-ncube"], "--locality", &["0", "-0.5", "1.5", "nan", "inf"], fraction),
        (
            &["model", "kary-ncube", "--width", "32"],
            "--bits",
            &["0", "-128", "nan", "inf", "1e309"],
            positive,
        ),
        (&["model", "kary-ncube", "--bits", "128"], "--width", &["0", "-32", "nan", "-inf"], positive),
        (&["model", "kary-ncube", "--bits", "128"], "--pins", &["0", "-384", "nan", "inf"], positive),
        (&["model", "kary-ncube", "--bits", "128"], "--bisection", &["0", "-1", "nan", "inf"], positive),
        (
            &["model", "kary-ncube"],
            "--switch-delay",
            &["-1", "nan", "inf", "-1e-300"],
            "zero or a positive finite number",
        ),
        (
            &["model", "kary-ncube", "--switch-delay", "1"],
            "--space-dims",
            &["0", "-2", "nan"],
            "whole number",
        ),
        (
            &["model", "kary-ncube"],
            "--switch-pipeline",
            &["0", "-1", "nan", "1.5", "inf", "4294967296"],
            "whole number",
        ),
        (&["model", "feedback"], "--rate", &["-1", "2", "nan", "inf"], probability),
        (&["model", "feedback"], "--locality", &["0", "2", "nan"], fraction),
        (&["model", "indirect"], "--k", &["0", "1", "-2", "nan"], "whole number"),
        (&["model", "indirect"], "--n", &["0", "-1", "1e3"], "whole number"),
        (&["model", "indirect"], "--rate", &["-1", "2", "nan", "inf"], probability),
        (&["model", "indirect"], "--size", &["0", "-4", "nan", "inf", "1e309"], positive),
        (
            &["model", "indirect"],
            "--memory-latency",
            &["-1", "nan", "inf"],
            "zero or a positive finite number",
        ),
        (&["model", "fat-tree"], "--nodes", &["0", "-4", "nan"], "whole number"),
        (&["model", "fat-tree"], "--rate", &["-0.001", "2", "nan", "inf"], probability),
        (
            &["model", "fat-tree"],
            "--size",
            &["0", "0.5", "-32", "nan", "inf", "1e300"],
            "from 1 to 1e9 flits",
        ),
        (&["cost"], "--modules", &["0", "1", "-1", "nan", "4294967296"], "whole number"),
        (&["cost"], "--bisection", &["0", "-8192", "nan", "18446744073709551616"], "whole number"),
        (&["cost"], "--toroid", &["0", "-3"], "whole number"),
        (&["cost"], "--nhop", &["0", "-2"], "whole number"),
    ];
    for (command, option, values, words) in cases {
        for value in *values {
            for args in [
                [&command[..], &[*option, *value]].concat(),
                [&command[..], &[&format!("{option}={value}")[..]]].concat(),
            ] {
                let (status, _, stderr) = run(&args);
                assert_eq!(status, 2, "{args:?}: {stderr}");
                assert!(stderr.contains(option) && stderr.contains(words), "{args:?}: {stderr}");
                assert!(!stderr.contains("unexpected argument") && stderr.len() < 300, "{args:?}: {stderr}");
            }
        }
    }
}

/// Characterisation: options whose range depends on other options (N = k^n, the locality
/// subcube, B = L/W, eq. 12's times) are refused with status 2, naming the option.
#[test]
fn combinations_beyond_the_models_are_refused_naming_the_option() {
    for (args, words) in [
        (&["model", "kary-ncube", "--n", "4294967295"][..], "--n 4294967295 is too large"),
        (&["model", "kary-ncube", "--k", "65536", "--n", "4"], "2^53"),
        (&["model", "kary-ncube", "--k", "4294967295", "--n", "2"], "2^53"),
        (
            &["model", "kary-ncube", "--nodes", "18446744073709551615"],
            "--nodes 18446744073709551615 is too large",
        ),
        (&["model", "kary-ncube", "--k", "3", "--nodes", "9007199254740991"], "rounds up"),
        (&["model", "feedback", "--k", "65536", "--n", "4"], "2^53"),
        (&["model", "indirect", "--k", "4294967295", "--n", "4294967295"], "2^53"),
        (&["model", "indirect", "--n", "54"], "2^53"),
        (&["model", "fat-tree", "--nodes", "18446744073709551615"], "4^26"),
        (&["model", "kary-ncube", "--locality", "1e-300"], "--locality 1e-300"),
        (&["model", "kary-ncube", "--locality", "0.5", "--no-wrap"], "--locality 0.5 with --no-wrap"),
        (&["model", "kary-ncube", "--bits", "1e300", "--width", "1e-300"], "--bits 1e300"),
        (&["model", "indirect", "--bits", "1e300", "--width", "1e-300"], "--bits 1e300"),
        (&["model", "kary-ncube", "--bits", "128", "--bisection-of", "4294967295:1e308"], "--bisection-of"),
        (
            &["model", "kary-ncube", "--switch-delay", "1e308", "--bits", "128", "--width", "32"],
            "--switch-delay 1e308",
        ),
        (&["model", "kary-ncube", "--wire-delay", "width"], "--wire-delay width spaces the nodes"),
        (&["model", "feedback", "--wire-delay", "width", "--size", "8"], "give --bits"),
        (
            &[
                "model",
                "kary-ncube",
                "--wire-delay",
                "width",
                "--bits",
                "128",
                "--width",
                "32",
                "--space-dims",
                "3",
            ],
            "--space-dims 3 is not 2",
        ),
        (
            &[
                "design",
                "--nodes",
                "64",
                "--rate",
                "0.01",
                "--bits",
                "64",
                "--pins",
                "32",
                "--wire-delay",
                "width",
                "--space-dims",
                "3",
            ],
            "--space-dims 3 is not 2",
        ),
        (
            &[
                "model",
                "kary-ncube",
                "--wire-delay",
                "width",
                "--bits",
                "1e300",
                "--width",
                "1e300",
                "--k",
                "2",
                "--n",
                "53",
                "--rate",
                "0",
            ],
            "--wire-delay width with W = 1e300 bits",
        ),
        (
            &["model", "indirect", "--memory-latency", "1.7e308", "--size", "1e308", "--rate", "0"],
            "floating point",
        ),
    ] {
        let (status, stdout, stderr) = run(args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(
            stdout.is_empty() && stderr.len() < 400 && !stderr.contains("00000000000"),
            "{args:?}: {stderr}"
        );
    }
}

/// Verification at valid extremes: tiny rates give the unloaded latency (ρ → 0, so
/// T = T0 = n·k_d + B = 11 for the 8-ary 2-cube with B = 4, and U = 1/(1 + m·T0) → 1), the
/// largest network (2^53 nodes) is exact, and huge messages saturate (status 3) with short
/// numbers.
#[test]
fn valid_extremes_give_correct_answers() {
    for rate in ["0", "1e-300", "5e-324"] {
        let v = json(&["model", "kary-ncube", "--rate", rate]);
        assert_eq!(num(&v, "latency"), 11.0);
        for solution in ["exact", "quadratic", "closed-form"] {
            let v = json(&["model", "feedback", "--rate", rate, "--solution", solution]);
            assert!((num(&v, "latency") - 11.0).abs() < 1e-12, "{solution} {rate}");
            assert!((num(&v, "processor_utilization") - 1.0).abs() < 1e-15);
        }
        let v = json(&["model", "indirect", "--rate", rate]);
        assert_eq!(num(&v, "latency"), 6.0); // n + B with n = 2 stages
    }
    let v = json(&["model", "kary-ncube", "--k", "2", "--n", "53"]);
    assert_eq!(v["config"]["nodes"].as_u64(), Some(1 << 53));
    assert_eq!(num(&v, "mean_hops"), 26.5);
    let (status, stdout, stderr) = run(&["model", "indirect", "--size", "1e300"]);
    assert_eq!(status, 3, "{stderr}");
    assert!(stdout.contains("B = 1e300") && !stdout.contains("00000000000"), "{stdout}");
    let (status, stdout, _) = run(&["model", "fat-tree", "--nodes", "4503599627370496"]);
    assert_eq!(status, 3);
    assert!(stdout.contains("26 levels"));
}

/// Verification: the feedback model's rate is checked once, before any solution, so the
/// three solutions refuse NaN, ±∞, −1 and 2 alike (they used to print NaN or a negative
/// utilisation with status 0, each a different one).
#[test]
fn feedback_refuses_bad_rates_before_any_solution() {
    for rate in ["nan", "inf", "-inf", "-1", "2"] {
        let messages: Vec<String> = ["exact", "quadratic", "closed-form"]
            .iter()
            .map(|s| {
                let (status, stdout, stderr) = run(&["model", "feedback", "--rate", rate, "--solution", s]);
                assert!(status == 2 && stdout.is_empty(), "{rate} {s}: {stderr}");
                stderr
            })
            .collect();
        assert!(messages.iter().all(|m| m == &messages[0] && m.contains("--rate")), "{messages:?}");
    }
}

/// Regression: `cost --toroid 100` suggested M >= 68719476736 (2^100 wrapped to 2^36), and 64
/// panicked on the shift.
#[test]
fn cost_toroid_suggestion_does_not_wrap() {
    for d in ["64", "100", "4294967295"] {
        let (status, stdout, stderr) = run(&["cost", "--toroid", d]);
        assert_eq!(status, 0, "{stderr}");
        assert!(stdout.contains(&format!("M >= 2^{d}")), "{stdout}");
        assert!(!stdout.contains("68719476736"));
    }
    let (status, _, stderr) = run(&["cost", "--modules", "65537"]);
    assert!(
        status == 2 && stderr.contains("--modules 65537") && stderr.contains("at most 65536"),
        "{stderr}"
    );
}

/// Characterisation: no Rust names or Debug formatting reach the user, in text or in help.
#[test]
fn output_uses_words_not_internal_names() {
    let leaks = [
        "UnidirectionalTorus",
        "BidirectionalTorus",
        "LargeKd",
        "SmallKd",
        "FullVariance",
        "ClosedForm",
        "Exact solution",
        "Pins {",
        "Width {",
        "Bisection {",
        "Some(",
        "None",
    ];
    let runs: &[&[&str]] = &[
        &["model", "kary-ncube"],
        &[
            "model",
            "kary-ncube",
            "--k",
            "10",
            "--n",
            "3",
            "--bits",
            "128",
            "--pins",
            "384",
            "--switch-delay",
            "4",
        ],
        &["model", "kary-ncube", "--bits", "128", "--width", "32", "--bidirectional"],
        &["model", "kary-ncube", "--bits", "128", "--bisection-binary-cube", "--no-wrap", "--rate", "0.001"],
        &["model", "kary-ncube", "--k", "4", "--contention", "large-kd"],
        &["model", "feedback"],
        &["model", "feedback", "--solution", "closed-form"],
        &["model", "feedback", "--solution", "quadratic", "--k", "2"],
        &["model", "indirect"],
        &["model", "fat-tree", "--nodes", "64", "--size", "4"],
        &["cost"],
        &["cost", "--modules", "24", "--toroid", "5", "--nhop", "9"],
    ];
    for args in runs {
        let (status, stdout, stderr) = run(args);
        assert_eq!(status, 0, "{args:?}: {stderr}");
        for leak in leaks {
            assert!(
                !stdout.contains(leak) && !stderr.contains(leak),
                "{args:?} prints {leak:?}:\n{stdout}{stderr}"
            );
        }
    }
    let (_, stdout, _) = run(runs[1]);
    assert!(stdout.contains("384 pins per switch") && stdout.contains("unidirectional torus"), "{stdout}");
    let (_, stdout, _) = run(&["model", "feedback", "--solution", "closed-form"]);
    assert!(stdout.contains("the printed closed form"), "{stdout}");
}

/// Characterisation of the naming rule: the papers are named by author and year in help and
/// output, never by the internal inventory names "Agarwal 1991" … "the homework". (The one-line
/// descriptions of `cost` and `figure` in `netwrap --help` come from cli.rs, outside these
/// commands; their options are checked here.)
#[test]
fn papers_are_named_by_author() {
    let mut texts = Vec::new();
    for args in [
        &["model", "--help"][..],
        &["model", "kary-ncube", "--help"],
        &["model", "feedback", "--help"],
        &["model", "indirect", "--help"],
        &["model", "fat-tree", "--help"],
        &["model", "kary-ncube"],
        &["model", "feedback"],
        &["model", "indirect"],
        &["model", "fat-tree"],
        &["cost"],
        &["figure", "5"],
    ] {
        let (_, stdout, stderr) = run(args);
        texts.push((args, stdout + &stderr));
    }
    for args in [&["cost", "--help"][..], &["figure", "--help"]] {
        let (_, stdout, _) = run(args);
        let options = stdout.split_once("Options:").map(|(_, o)| o.to_string()).unwrap_or_default();
        assert!(!options.is_empty(), "{stdout}");
        texts.push((args, options));
    }
    for (args, text) in &texts {
        for seed in ["seed 00", "Seed 00", "seed00"] {
            assert!(!text.to_lowercase().contains(&seed.to_lowercase()), "{args:?}: {text}");
        }
    }
    assert!(texts.iter().any(|(_, t)| t.contains("Agarwal 1991")));
    assert!(texts.iter().any(|(_, t)| t.contains("Greenberg & Guan")));
    assert!(texts.iter().any(|(_, t)| t.contains("Raghunath & Ranade")));
}

/// Verification of the one contention-form rule (the homework's App. B: eq. 8's form "for
/// values of k_d > 2", the small-k_d form otherwise, applied to the distance the formula
/// uses). At k = 8, n = 2, B = 4, m = 0.04, l = 0.2: side √0.2·8, k_dl = (side − 1)/2 ≈ 1.289
/// <= 2, so `auto` is the small form, worked here by hand; `large-kd` forces eq. 8.
#[test]
fn contention_auto_is_appendix_b_rule_everywhere() {
    let base = ["--k", "8", "--n", "2", "--rate", "0.04", "--size", "4", "--locality", "0.2"];
    let kd = (0.2f64.sqrt() * 8.0 - 1.0) / 2.0;
    let rho = 0.04 * 4.0 * kd;
    let w = |f: f64| rho * 4.0 / (1.0 - rho) * f * 1.5;
    let small = (1.0 + w((kd - 0.5) / ((kd + 0.5) * (kd + 0.5)))) * 2.0 * kd + 4.0;
    let large = (1.0 + w((kd - 1.0) / (kd * kd))) * 2.0 * kd + 4.0;
    let v = json(&[&["model", "kary-ncube"][..], &base].concat());
    assert_eq!(v["config"]["contention"], "auto");
    assert_eq!(v["contention_form"], "small-kd");
    assert!((num(&v, "latency") - small).abs() < 1e-12, "{} vs {small}", num(&v, "latency"));
    let v = json(&[&["model", "kary-ncube"][..], &base, &["--contention", "large-kd"]].concat());
    assert_eq!(v["contention_form"], "large-kd");
    assert!((num(&v, "latency") - large).abs() < 1e-12);
    // The feedback model resolves the same way and says so.
    let v = json(&[&["model", "feedback"][..], &base].concat());
    assert_eq!(
        (v["contention_form"].as_str(), v["config"]["contention"].as_str()),
        (Some("small-kd"), Some("auto"))
    );
    // Text output says which form was used and why.
    let (_, stdout, _) = run(&[&["model", "kary-ncube"][..], &base].concat());
    assert!(
        stdout.contains("contention form")
            && stdout.contains("small-k_d form")
            && stdout.contains("auto: k_dl"),
        "{stdout}"
    );
    let (_, stdout, _) = run(&["model", "feedback"]);
    assert!(
        stdout.contains("eq. 8's large-k_d form") && stdout.contains("auto: k_d = 3.5000 > 2"),
        "{stdout}"
    );
    // Above k_d = 2, auto is eq. 8: the homework's Ex 1 latency is unchanged.
    assert_eq!(json(&["model", "kary-ncube"])["contention_form"], "large-kd");
    // The old flags are gone; the option takes the four forms.
    for old in ["--small-kd", "--large-kd", "--full-variance"] {
        assert_eq!(run(&["model", "kary-ncube", old]).0, 2, "{old}");
    }
    let (status, _, stderr) = run(&["model", "kary-ncube", "--contention", "huge"]);
    assert!(status == 2 && stderr.contains("auto") && stderr.contains("full-variance"), "{stderr}");
}

/// Regression: `model feedback --k 2` failed without naming the option that works. Now the
/// default (`auto`, the small-k_d form, zero contention at k_d = ½) gives T = T0 = n/2 + B;
/// forcing eq. 8's form names `--contention auto` and `small-kd`; the printed closed form
/// (which embeds eq. 8's form) names `--solution`.
#[test]
fn feedback_k2_works_or_names_the_option_that_does() {
    let v = json(&["model", "feedback", "--k", "2", "--n", "6", "--size", "4"]);
    assert_eq!(num(&v, "latency"), 7.0);
    assert_eq!(v["contention_form"], "small-kd");
    let (status, _, stderr) = run(&["model", "feedback", "--k", "2", "--contention", "large-kd"]);
    assert!(
        status == 2 && stderr.contains("--contention auto") && stderr.contains("--contention small-kd"),
        "{stderr}"
    );
    let (status, _, stderr) = run(&["model", "feedback", "--k", "2", "--solution", "closed-form"]);
    assert!(status == 2 && stderr.contains("--solution closed-form") && stderr.contains("exact"), "{stderr}");
}

/// Characterisation of the output layer for these commands: `--out` that is not a directory
/// is invalid input naming it (status 2); a file that cannot be written is named (status 1);
/// a full standard output is status 1 naming it; a closed pipe ends quietly with status 0.
#[test]
fn figure_out_and_write_failures_are_named() {
    let (status, _, stderr) = run(&["figure", "all", "--out", "/dev/null"]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("--out /dev/null is not a directory") && !stderr.contains("File exists"),
        "{stderr}"
    );
    let dir = std::env::temp_dir().join(format!("netwrap-figfail-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("agarwal-1991-fig-6.csv")).unwrap();
    let (status, _, stderr) = run(&["figure", "6", "--out", dir.to_str().unwrap()]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("agarwal-1991-fig-6.csv"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
    let out_dir = std::env::temp_dir().join(format!("netwrap-figfull-{}", std::process::id()));
    for args in [
        &["model", "kary-ncube"][..],
        &["model", "kary-ncube", "--json"],
        &["model", "feedback"],
        &["model", "indirect"],
        &["model", "fat-tree"],
        &["cost"],
        &["figure", "6", "--out", out_dir.to_str().unwrap()],
    ] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("netwrap"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("standard output"), "{args:?}: {stderr}");
        // A pipe closed before anything is read: status 0, nothing on stderr.
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("netwrap"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// `model network` end to end: the homework's Ex 1 network from `netwrap sim`'s flags gives
/// the model's numbers (verification by hand: T0 = n·k_d + B = 11, ρ = m·B·k_d = 0.56,
/// m_sat = 1/(B·k_d) = 1/14); a curve is an array; the CSV has a row per rate; what the
/// models do not cover (store-and-forward on the VC router, adaptive routing) is refused with
/// status 2 naming the flag; a saturated single rate prints its report and exits 3.
#[test]
fn model_network_end_to_end() {
    let v = json(&["model", "network", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"]);
    assert_eq!(v["model"], "network");
    assert_eq!(num(&v, "unloaded_latency"), 11.0);
    assert!((num(&v, "utilization") - 0.56).abs() < 1e-12);
    assert!((num(&v, "max_rate") - 1.0 / 14.0).abs() < 1e-12);
    assert_eq!(v["config"]["workload"]["rate"], 0.04);
    let out = netwrap()
        .args(["model", "network", "--size", "4", "--rates", "0.01,0.02,0.09", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let curve: Value = serde_json::from_slice(&out).unwrap();
    let points = curve.as_array().unwrap();
    assert_eq!(points.len(), 3);
    assert!(points[2]["saturated"].as_bool().unwrap() && points[2]["latency"].is_null());
    let csv = netwrap()
        .args(["model", "network", "--size", "4", "--rates", "0.01,0.02", "--csv", "-"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(csv).unwrap().lines().count(), 3);
    // An experiment file: its sweep over workload.rate is the curve (4-ary 2-cube, B = 2:
    // T0 = n·k_d + B = 5, m_sat = 1/(B·k_d) = 1/3); a sweep over anything else is refused.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("curve.toml");
    let text = "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[workload]\nsize = 2\n[sweep]\n\"workload.rate\" = [0.05, 0.1]\n";
    std::fs::write(&file, text).unwrap();
    let out = netwrap()
        .args(["model", "network", "--json"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let curve: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(curve.as_array().unwrap().len(), 2);
    assert_eq!(num(&curve[1], "unloaded_latency"), 5.0);
    assert!((num(&curve[1], "max_rate") - 1.0 / 3.0).abs() < 1e-12);
    std::fs::write(&file, text.replace("\"workload.rate\" = [0.05, 0.1]", "\"workload.size\" = [1, 2]"))
        .unwrap();
    netwrap().args(["model", "network"]).arg(&file).assert().code(2).stderr(contains("workload.rate alone"));
    netwrap()
        .args(["model", "network", "--router", "vc", "--switching", "saf"])
        .assert()
        .code(2)
        .stderr(contains("--switching"));
    netwrap()
        .args(["model", "network", "--routing", "ugal-local", "dragonfly"])
        .assert()
        .code(2)
        .stderr(contains("queue state"));
    netwrap()
        .args(["model", "network", "--rate", "0.1", "--size", "4"])
        .assert()
        .code(3)
        .stdout(contains("saturated"))
        .stderr(contains("0.071429"));
}

/// Verification: `--model` where no paper's model applies is `model network` at the simulated
/// point, number for number (same spec, both commands): a unidirectional 4-ary 2-cube under
/// transpose traffic. The virtual-channel router, which neither describes, is refused with
/// status 2 naming both reasons and the flags, in `sim`, `run` and `saturation` alike.
#[test]
fn sim_model_falls_back_to_model_network() {
    let spec = ["--k", "4", "--pattern", "transpose", "--rate", "0.05", "--size", "4"];
    let sim = json(&[&["sim", "--model", "--messages", "2000"][..], &spec].concat());
    let model = json(&[&["model", "network"][..], &spec].concat());
    let m = &sim["model"];
    assert_eq!(m["model"], "network");
    assert_eq!(m["source"], "Agarwal 1991 eqs. 3-8 generalised: a queue on every channel");
    for key in
        ["utilization", "latency", "unloaded_latency", "throughput", "max_rate", "mean_hops", "saturated"]
    {
        assert_eq!(m[key], model[key], "{key}");
    }
    let err = (num(&sim, "latency") - num(&model, "latency")) / num(&model, "latency");
    assert!((num(&m["relative_error"], "latency") - err).abs() < 1e-12);
    let refusal = "store-and-forward is not modelled";
    netwrap()
        .args(["sim", "--model", "--router", "vc", "--switching", "saf", "dragonfly"])
        .assert()
        .code(2)
        .stderr(
            contains("not for a dragonfly").and(contains(refusal)).and(contains("(--model, --switching)")),
        );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vc.toml");
    std::fs::write(
        &file,
        "[topology]\nfamily = \"dragonfly\"\n[router]\nkind = \"vc\"\nswitching = \"saf\"\n[model]\n",
    )
    .unwrap();
    for command in ["run", "saturation"] {
        netwrap().arg(command).arg(&file).assert().code(2).stderr(contains(refusal));
    }
}

/// Verification: the saturation search with `--model` prints the model's saturation rate
/// beside the simulated one, and on the ideal switch the per-channel model's m_sat = 1/(S·λ_max)
/// (from the turn flows) is the rate at which the exact channel loads (another computation,
/// `sim::load`) reach one flit per cycle: a 4×8 mesh, B = 4 (its busiest channel carries
/// λ_max = 2 messages a cycle per unit rate, so 1/8 = 0.125). A spec no model describes is
/// refused before any probe runs.
#[test]
fn saturation_search_prints_the_models_saturation_rate() {
    let v = json(&[
        "sim",
        "--find-saturation",
        "--model",
        "--messages",
        "300",
        "--size",
        "4",
        "mesh",
        "--radices",
        "4,8",
    ]);
    assert_eq!(v["model"]["model"], "network");
    assert_eq!(num(&v["model"], "max_rate"), 0.125);
    assert_eq!(num(&v, "max_rate_from_loads"), 0.125);
    let stable = num(&v, "max_rate");
    assert!(stable > 0.0 && stable <= 0.125 * 1.1, "{v}");
    netwrap()
        .args(["sim", "--find-saturation", "--model", "--messages", "300", "--size", "4", "mesh", "--radices", "4,8"])
        .assert()
        .success()
        .stdout(contains("model network (Agarwal 1991 eqs. 3-8 generalised: a queue on every channel): saturates at m = 0.125"));
    netwrap()
        .args(["sim", "--find-saturation", "--model", "midimew"])
        .assert()
        .code(2)
        .stderr(contains("queue state"));
}

/// `model network --router vc` end to end (verification): on the 16-processor butterfly
/// fat-tree set up as Greenberg & Guan assume (one VC, wormhole, a message one worm) the
/// latency is `model fat-tree --turn conditional`'s eq. 25 less the one cycle netwrap's
/// router starts earlier (T0 = B + D̄ − 2), to 10⁻⁹, and the saturation is eq. 26's; the
/// JSON adds the VC model's fields; past saturation a single rate exits 3 naming what fails.
#[test]
fn model_network_vc_router_end_to_end() {
    let rate = "0.01";
    let vc = [
        "model",
        "network",
        "fat-tree",
        "--nodes",
        "16",
        "--router",
        "vc",
        "--vcs",
        "1",
        "--pattern",
        "uniform-others",
        "--size",
        "16",
        "--packet",
        "16",
        "--rate",
        rate,
    ];
    let v = json(&vc);
    let gg = json(&[
        "model",
        "fat-tree",
        "--nodes",
        "16",
        "--size",
        "16",
        "--turn",
        "conditional",
        "--rate",
        rate,
    ]);
    assert!((num(&v, "latency") - (num(&gg, "latency") - 1.0)).abs() < 1e-9, "{v} {gg}");
    assert!((num(&v, "max_rate") - num(&gg, "max_rate")).abs() < 1e-9 * num(&gg, "max_rate"));
    assert_eq!(v["holding"], "wormhole");
    assert!(v["links"].as_array().is_some_and(|l| !l.is_empty()) && v["limiting"].is_string());
    let mut past = vc.to_vec();
    let last = past.len() - 1;
    past[last] = "0.05";
    netwrap().args(past).assert().code(3).stdout(contains("saturated")).stderr(contains("VC router's model"));
}
