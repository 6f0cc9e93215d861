//! The command line as a user meets it: the homework's positional form, `sim`, `bench`,
//! `design --simulate`, and what each says about bad input.

use crate::{json, netwrap, scratch};
use predicates::prelude::*;
use serde_json::Value;

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

/// The reliability issue's light-load case: ρ = 0.014, but 10,000 steps cannot create 1,000
/// measured messages at 0.064 a cycle: the limit is the verdict (status 5), not saturation.
#[test]
fn legacy_light_load_with_too_few_steps_reaches_the_limit() {
    netwrap()
        .args(["64", "1000", "10000", "0.001", "4", "8", "/dev/null", "1.0"])
        .assert()
        .code(5)
        .stdout(predicate::str::contains("limit reached"))
        .stdout(predicate::str::contains("raise --max-cycles (the homework's steps)"))
        .stdout(predicate::str::contains("saturated").not());
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
    let dir = scratch("det");
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
}

#[test]
fn legacy_bad_input_is_a_clear_error() {
    for (args, msg) in [
        (vec!["64", "1000", "9999999", "-0.1", "6", "8", "/dev/null", "1.0"], "req-rt = -0.1 is invalid"),
        (vec!["64", "1000", "9999999", "1.5", "6", "8", "/dev/null", "1.0"], "req-rt = 1.5 is invalid"),
        (vec!["64", "1000", "9999999", "NaN", "6", "8", "/dev/null", "1.0"], "req-rt = NaN is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "0", "8", "/dev/null", "1.0"], "msg-size = 0 is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "6", "1", "/dev/null", "1.0"], "rad-k = 1 is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "6", "8", "/dev/null", "0"], "loc = 0 is invalid"),
        (vec!["64", "1000", "9999999", "0.05", "6", "8", "/dev/null", "1.2"], "loc = 1.2 is invalid"),
        (vec!["64", "1000", "0.05", "6"], "expected 8 arguments"),
        (vec!["64", "ten", "9999999", "0.05", "6", "8", "/dev/null", "1.0"], "pkts = 'ten'"),
    ] {
        netwrap().args(&args).assert().code(2).stderr(predicate::str::contains(msg));
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
        "verdict",
        "utilization",
        "latency",
        "latency_ci95",
        "throughput",
        "offered",
        "offered_load",
        "accepted_load",
        "saturated",
        "max_rate",
        "messages_delivered",
        "cycles",
        "mean_hops",
        "netwrap_version",
        "seed",
        "config",
        "network",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["seed"], 5);
    assert_eq!(v["config"]["topology"]["k"], 4);
    assert_eq!(v["config"]["run"]["messages"], 2000);
    assert_eq!(v["config"]["run"]["seed"], 5);
    assert!(v["config"]["run"]["warmup"].is_u64(), "the warm-up is resolved in the config");
    assert_eq!(v["messages_delivered"], 2000);
    assert_eq!(v["verdict"], "ok");
}

#[test]
fn sim_is_reproducible_and_seed_sensitive() {
    let args = ["sim", "--k", "5", "--n", "2", "--rate", "0.05", "--messages", "3000", "--json"];
    assert_eq!(json(&args), json(&args));
    let mut other = args.to_vec();
    other.extend(["--seed", "2"]);
    assert_ne!(json(&args)["latency"], json(&other)["latency"]);
}

/// Verification: `--jobs N` changes nothing but the threads. A run on 1, 2 and 3 threads
/// (forced on a small network), the default, a run from its result file, a sweep and a
/// saturation search all print the same JSON; `--jobs 0` is refused with status 2.
#[test]
fn jobs_change_no_result() {
    let net = ["sim", "--k", "6", "--bidirectional", "--messages", "2000", "--json"];
    let args = [&net[..], &["--rate", "0.1"]].concat();
    let (sweep, find) =
        ([&net[..], &["--rates", "0.05,0.1"]].concat(), [&net[..], &["--find-saturation"]].concat());
    let (one, swept, found) = (json(&args), json(&sweep), json(&find));
    let on = |a: &[&str], jobs: &str| json(&[a, &["--jobs", jobs]].concat());
    for jobs in ["1", "2", "3"] {
        assert_eq!(on(&args, jobs), one, "--jobs {jobs}");
    }
    let vc =
        [&args[..], &["--router", "vc", "--vcs", "2", "--deadlock", "dateline", "--buffer", "4"]].concat();
    let vc_one = json(&vc);
    for jobs in ["2", "3"] {
        assert_eq!(on(&vc, jobs), vc_one, "--router vc --jobs {jobs}");
    }
    assert_eq!(on(&sweep, "2"), swept);
    assert_eq!(on(&find, "2"), found);
    let dir = crate::scratch("jobs");
    let file = dir.join("one.json");
    std::fs::write(&file, one.to_string()).unwrap();
    assert_eq!(json(&["run", file.to_str().unwrap(), "--jobs", "2", "--json"]), one);
    for bad in ["0", "-1", "two"] {
        netwrap().args(["sim", "--jobs", bad]).assert().code(2);
    }
}

#[test]
fn sim_with_model_reports_relative_error() {
    let v = json(&["sim", "--messages", "5000", "--model", "--json"]);
    let model = v["model"]["latency"].as_f64().unwrap();
    assert!((model - 21.909).abs() < 0.01);
    assert_eq!(v["model"]["contention"], "large-kd", "k_d = 3.5 > 2: App. B's rule picks eq. 8");
    let err = v["model"]["relative_error"]["latency"].as_f64().unwrap();
    let sim = v["latency"].as_f64().unwrap();
    assert!((err - (sim - model) / model).abs() < 1e-9);
    netwrap()
        .args(["sim", "--messages", "2000", "--model"])
        .assert()
        .success()
        .stdout(predicate::str::contains("simulation"))
        .stdout(predicate::str::contains("Agarwal 1991 eq. 10"));
}

#[test]
fn sim_sweep_prints_one_row_per_rate() {
    let v = json(&["sim", "--rates", "0.01,0.02,0.08", "--messages", "1000", "--model", "--json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2]["saturated"], true);
    assert_eq!(rows[2]["latency"], Value::Null);
    assert_eq!(rows[1]["parameters"]["workload.rate"], 0.02);
    // The table has no model columns without --model.
    let out = netwrap().args(["sim", "--rates", "0.01,0.02", "--messages", "500"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("verdict") && !text.contains("T_model"), "{text}");
}

/// A family named after `--rates` is the family, not another rate.
#[test]
fn sim_rates_before_a_family_name() {
    let v = json(&["sim", "--rates", "0.01,0.02", "--messages", "500", "--json", "ring", "--k", "6"]);
    assert_eq!(v[0]["config"]["topology"]["family"], "ring");
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
        (vec!["sim", "--rate", "-1"], "probability in (0, 1]"),
        (vec!["sim", "--rate", "0"], "probability in (0, 1]"),
        (vec!["sim", "--size", "0"], "at least 1"),
        (vec!["sim", "--size", "-1"], "at least 1"),
        (vec!["sim", "--k", "1"], "at least 2"),
        (vec!["sim", "--locality", "0"], "fraction in (0, 1]"),
        (vec!["sim", "--frobnicate"], "unexpected argument"),
        (vec!["sim", "--warmup", "100000000000", "--max-cycles", "5000"], "no cycle would be measured"),
        (vec!["sim", "--messages", "0"], "at least 1"),
    ] {
        netwrap().args(&args).assert().code(2).stderr(predicate::str::contains(msg));
    }
}

/// Every option that does not apply to the chosen network is refused, saying why — one case
/// each.
#[test]
fn options_that_do_not_apply_are_errors() {
    for (args, msg) in [
        (vec!["sim", "--bidirectional", "--n", "3", "ring", "--k", "8"], "--n before `ring`"),
        (vec!["sim", "--k", "4", "midimew"], "--k before `midimew`"),
        (vec!["sim", "--no-wrap", "fat-tree"], "--no-wrap before `fat-tree`"),
        (vec!["sim", "--locality", "0.5", "midimew"], "applies to tori and rings"),
        (vec!["sim", "--no-wrap", "--locality", "0.5"], "a mesh has none"),
        (vec!["sim", "--locality", "0.5", "hypercube"], "a hypercube has none"),
        (vec!["sim", "--order", "lowest-first", "fat-tree"], "not to a fat-tree"),
        (vec!["sim", "--order", "lowest-first", "--routing", "table"], "no dimension order"),
        (vec!["sim", "--routing", "record"], "Midimew routing record"),
        (vec!["sim", "--model", "midimew"], "not for a midimew"),
        (vec!["sim", "--model", "fat-tree"], "wormhole routers"),
        (
            vec!["sim", "--model", "--router", "vc", "--switching", "saf", "torus", "--radices", "4,8"],
            "same radix in every dimension",
        ),
        (vec!["sim", "--contention", "small-kd"], "--model"),
        (vec!["sim", "--model", "--contention", "small-kd", "butterfly"], "k-ary n-cube model"),
        (vec!["sim", "--rates", "0.1", "--find-saturation"], "cannot be used with"),
    ] {
        netwrap().args(&args).assert().code(2).stderr(predicate::str::contains(msg));
    }
}

#[test]
fn bench_runs_one_configuration_and_records_its_spec() {
    let v = json(&["bench", "--only", "torus8x8", "--scale", "0.001", "--json"]);
    let row = &v.as_array().unwrap()[0];
    assert!(row["cycles_per_second"].as_f64().unwrap() > 0.0);
    assert!(row["flit_hops_per_second"].as_f64().unwrap() > 0.0);
    for key in ["netwrap_version", "seed", "config"] {
        assert!(!row[key].is_null(), "missing {key}");
    }
    netwrap()
        .args(["bench", "--only", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("torus32x32"));
    for scale in ["inf", "0", "nan", "-1"] {
        netwrap()
            .args(["bench", "--scale", scale])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("scale"));
    }
}

/// The homework's Ex 7 confirmed by simulation: the model's best two designs simulated, in
/// the same order, each within 15% of the model at the simulated point (Agarwal 1991 §3.3's
/// model errors at these loads are below 10%; 15% covers the batch-means interval of 5,000
/// messages on top).
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

/// The 3-ary 4-cube and binary 6-cube cannot realise l = 0.5 with whole-node subcube sides:
/// `design --simulate` says so beside the result.
#[test]
fn design_says_loudly_when_the_locality_moved() {
    netwrap()
        .args([
            "design",
            "--nodes",
            "64",
            "--pins",
            "384",
            "--rate",
            "0.005",
            "--bits",
            "256",
            "--locality",
            "0.5",
            "--simulate",
            "6",
            "--messages",
            "500",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("NOTE: rank"))
        .stdout(predicate::str::contains("not the 0.5 asked"));
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
    assert_eq!(a["config"]["topology"]["nodes"], 64);
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
        netwrap().args(&args).assert().code(2).stderr(predicate::str::contains("--switch-delay"));
    }
}

/// Every traffic option that does not fit the network or another option exits 2 with the rule
/// in the message (Puente et al.'s patterns on node numbers, Dally & Towles' on coordinates).
#[test]
fn traffic_that_does_not_fit_is_a_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["ring", "--k", "6", "--pattern", "bit-reversal"],
            "bit-reversal does not fit N = 6 nodes: it needs N a power of two",
        ),
        (
            &["ring", "--k", "12", "--pattern", "shuffle"],
            "shuffle does not fit N = 12 nodes: it needs N a power of two",
        ),
        (
            &["ring", "--k", "6", "--pattern", "bit-complement"],
            "bit-complement does not fit N = 6 nodes: it needs N a power of two",
        ),
        (
            &["--k", "8", "--n", "3", "--pattern", "transpose"],
            "transpose does not fit N = 512 nodes: it needs N a square",
        ),
        (&["midimew", "--nodes", "64", "--pattern", "tornado"], "defined on router coordinates"),
        (&["fat-tree", "--nodes", "64", "--pattern", "neighbor"], "defined on router coordinates"),
        (&["--pattern", "hotspot"], "needs workload.hotspots"),
        (
            &["--pattern", "hotspot", "--hotspots", "64", "--hotspot-fraction", "0.1"],
            "node 64 does not exist",
        ),
        (&["--hotspots", "1", "--hotspot-fraction", "0.1"], "apply to the hotspot pattern"),
        (&["--pattern", "transpose", "--locality", "0.5"], "applies to the locality pattern"),
        (&["--long-size", "20"], "give both or neither"),
        (&["--load", "8"], "outside (0, 1]"),
        (&["--long-fraction", "1.5", "--long-size", "9"], "invalid value '1.5' for '--long-fraction"),
        (&["--load", "-1"], "invalid value '-1' for '--load"),
    ];
    for (args, message) in cases {
        let mut all = vec!["sim", "--messages", "100"];
        all.extend(*args);
        netwrap().args(&all).assert().code(2).stderr(predicate::str::contains(*message));
    }
}

/// Regression: `netwrap run` and `netwrap saturation` printed none of the notes that resolving a
/// spec makes (here: a Midimew without a rectangular layout takes a node-number pattern on its
/// network numbers, not Puente et al. Fig. 9's), which `netwrap sim` prints; each command prints
/// each distinct note once, however many points make it.
#[test]
fn run_and_saturation_print_the_notes_sim_prints() {
    let note = "the Midimew of 64 nodes has no rectangular layout";
    let once = |args: &[&str]| {
        let out = netwrap().args(args).output().unwrap();
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.matches(note).count(), 1, "{args:?}: {stderr}");
    };
    let sim = ["sim", "midimew", "--nodes", "64", "--pattern", "shuffle", "--messages", "500"];
    once(&[&sim[..], &["--rate", "0.001"]].concat());
    once(&[&sim[..], &["--rates", "0.001,0.002"]].concat());
    once(&[&sim[..], &["--find-saturation"]].concat());
    let dir = scratch("run-notes");
    let file = dir.join("midimew.toml");
    std::fs::write(
        &file,
        "[topology]\nfamily = \"midimew\"\nnodes = 64\n[workload]\npattern = \"shuffle\"\n[run]\nmessages = 100\n[sweep]\n\"workload.rate\" = [0.001, 0.002]\n",
    )
    .unwrap();
    once(&["run", file.to_str().unwrap()]);
    let single = dir.join("single.toml");
    std::fs::write(
        &single,
        "[topology]\nfamily = \"midimew\"\nnodes = 64\n[workload]\npattern = \"shuffle\"\n[run]\nmessages = 500\n",
    )
    .unwrap();
    once(&["saturation", single.to_str().unwrap(), "--tolerance", "0.2"]);
}

/// Verification: the progress bar is for terminals only. A sweep lasting over a second (the
/// bar's delay) with standard error captured, as here and in CI, writes nothing to standard
/// error, with or without --quiet, and the same standard output either way.
#[test]
fn progress_bar_writes_nothing_without_a_terminal() {
    let args = ["sim", "--k", "8", "--n", "2", "--rates", "0.01,0.02,0.03,0.04", "--messages", "1000000"];
    let started = std::time::Instant::now();
    let plain = netwrap().args(args).output().unwrap();
    let took = started.elapsed();
    assert!(plain.status.success(), "{}", String::from_utf8_lossy(&plain.stderr));
    assert_eq!(String::from_utf8_lossy(&plain.stderr), "", "after {took:?}");
    let quiet = netwrap().args(args).arg("--quiet").output().unwrap();
    assert!(quiet.status.success());
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "");
    assert_eq!(quiet.stdout, plain.stdout);
}

/// Verification: every command that simulates takes --quiet (the homework's form after its
/// eight arguments), and it changes neither output.
#[test]
fn quiet_is_accepted_by_every_command_that_simulates() {
    let dir = scratch("quiet");
    let file = dir.join("spec.toml");
    std::fs::write(
        &file,
        "[topology]\nfamily = \"torus\"\nk = 4\n\n[workload]\nrate = 0.05\n\n[run]\nmessages = 500\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let legacy = ["64", "1000", "9999999", "0.04", "4", "8", "/dev/null", "1.0"];
    for args in [
        &["sim", "--k", "4", "--messages", "500"][..],
        &["sim", "--k", "4", "--messages", "500", "--find-saturation"],
        &["run", file],
        &["saturation", file],
        &legacy,
    ] {
        let plain = netwrap().args(args).output().unwrap();
        let quiet = netwrap().args(args).arg("--quiet").output().unwrap();
        assert!(quiet.status.success(), "{args:?}: {}", String::from_utf8_lossy(&quiet.stderr));
        assert_eq!(quiet.stdout, plain.stdout, "{args:?}");
        assert_eq!(quiet.stderr, plain.stderr, "{args:?}");
    }
}

/// The tips for the mistakes made most, in place of clap's: a list's values given with spaces,
/// a flag another family takes (the family's own flags, and its usage, not another flag's), a
/// misspelt flag; all status 2. And `--help` lists every exit status, 6 included.
#[test]
fn wrong_arguments_get_a_tip_that_fits() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["sim", "--rates", "0.01", "0.02", "0.03"],
            "--rates takes one value: join a list with commas, not spaces (--rates 0.01,0.02,0.03)",
        ),
        (
            &["sim", "midimew", "--k", "8"],
            "tip: the midimew family takes --nodes (`netwrap sim midimew --help`)",
        ),
        (&["sim", "ring", "--n", "2"], "tip: the ring family takes --k, --bidirectional"),
        (&["run", "x.toml", "--cvs", "f"], "tip: did you mean '--csv'?"),
    ];
    for (args, tip) in cases {
        netwrap()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(tip).and(predicate::str::contains("--engine").not()));
    }
    netwrap()
        .args(["sim", "ring", "--n", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Usage: netwrap sim ring [OPTIONS]"));
    netwrap()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("6 `reproduce`: a paper's stated conclusion does not hold"));
}

/// Outputs that name one file twice, or a file the run reads, are refused with status 2
/// before anything is written: the trace a run replays survives `--record-trace` onto it, as
/// does the experiment file under `--csv`.
#[test]
fn outputs_never_overwrite_each_other_or_an_input() {
    let dir = scratch("same-file");
    let at = |f: &str| dir.join(f).display().to_string();
    let trace = at("t.csv");
    netwrap().args(["sim", "--messages", "300", "--record-trace", &trace]).assert().success();
    let before = std::fs::read(&trace).unwrap();
    netwrap()
        .args(["sim", "--trace", &trace, "--record-trace", &trace])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is the trace it replays (--trace), which this run reads"));
    assert_eq!(std::fs::read(&trace).unwrap(), before);
    netwrap()
        .args([
            "sim",
            "--rates",
            "0.01,0.02",
            "--messages",
            "200",
            "--csv",
            &at("a.csv"),
            "--det-file",
            &at("a.csv"),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--csv and --det-file both name"));
    let file = at("e.toml");
    let text = "[topology]\nfamily = \"torus\"\nk = 4\n[workload]\nrate = 0.01\n[run]\nmessages = 200\n";
    std::fs::write(&file, text).unwrap();
    netwrap()
        .args(["run", &file, "--csv", &file])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is the experiment file, which this run reads"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    netwrap()
        .args(["run", &file, "--csv", &at("x.csv"), "--jsonl", &at("x.csv")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--csv and --jsonl both name"));
}

/// An output file another netwrap run holds (its advisory lock, here taken by the test itself)
/// is refused with status 2 before anything is written: two runs writing one file would
/// interleave their rows. The file is neither emptied nor resumed into.
#[test]
fn an_output_another_run_writes_is_refused() {
    let dir = scratch("locked-output");
    let at = |f: &str| dir.join(f).display().to_string();
    let file = at("e.toml");
    std::fs::write(&file, "[run]\nmessages = 200\n[sweep]\n\"workload.rate\" = [0.01, 0.02]\n").unwrap();
    let shard = at("shard.csv");
    std::fs::write(&shard, "point,replication,foo\n0,0,1\n").unwrap();
    let locked = at("locked.out");
    std::fs::write(&locked, "kept\n").unwrap();
    let held = std::fs::OpenOptions::new().append(true).open(&locked).unwrap();
    fs4::fs_std::FileExt::lock_exclusive(&held).unwrap();
    let says = format!("{locked} is being written by another netwrap run");
    for args in [
        vec!["run", &file, "--csv", &locked],
        vec!["run", &file, "--jsonl", &locked, "--resume"],
        vec!["run", &file, "--det-file", &locked],
        vec!["run", &file, "--channels", &locked],
        vec!["sim", "--messages", "200", "--record-trace", &locked],
        vec!["merge", &shard, "--out", &locked],
    ] {
        let args: Vec<&str> = args.into_iter().map(|a| a as &str).collect();
        netwrap().args(&args).assert().code(2).stderr(predicate::str::contains(says.as_str()));
        assert_eq!(std::fs::read_to_string(&locked).unwrap(), "kept\n", "{args:?}");
    }
    drop(held);
    netwrap().args(["run", &file, "--csv", &locked, "--quiet"]).assert().success();
    assert!(std::fs::read_to_string(&locked).unwrap().starts_with("point,replication"));
}
