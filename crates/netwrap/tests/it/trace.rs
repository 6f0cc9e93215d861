//! Message traces on the command line: `--record-trace FILE` and `--trace FILE`, and what
//! they say about bad traces and options that do not apply.

use crate::{json, netwrap, scratch};
use predicates::prelude::*;
use serde_json::Value;

/// The report's latency figures that a replay must reproduce.
fn latencies(r: &Value) -> Vec<Value> {
    ["latency", "latency_percentiles", "hop_histogram", "mean_hops", "messages_delivered", "verdict"]
        .iter()
        .map(|k| r[k].clone())
        .collect()
}

/// *Verification*: a run recorded with `--record-trace` and replayed with `--trace` on the
/// same network reports the same latency mean, percentiles and hop histogram (the expected
/// values are the recorded run's own report); per-message equality is checked in the sim
/// crate (`trace::tests`). Open loop on the ideal switch (CSV) and on the virtual-channel
/// router (JSON lines), and a closed loop of two threads per processor, whose dependencies are
/// recorded. The replay's `config` names the trace and no rate.
#[test]
fn a_recorded_run_replays_with_the_same_latencies() {
    let dir = scratch("trace-replay");
    for (file, workload) in [
        ("ideal.csv", vec!["--rate", "0.06"]),
        ("vc.jsonl", vec!["--rate", "0.1", "--router", "vc"]),
        ("threads.csv", vec!["--rate", "0.1", "--threads", "2"]),
    ] {
        let path = dir.join(file);
        let path = path.to_str().unwrap();
        let common = ["sim", "--k", "4", "--messages", "2000", "--warmup", "300", "--json"];
        let vc: &[&str] = if file.starts_with("vc") { &["--router", "vc"] } else { &[] };
        let mut args: Vec<&str> = common.to_vec();
        args.extend(&workload);
        args.extend(["--record-trace", path]);
        let recorded = json(&args);
        let mut args: Vec<&str> = common.to_vec();
        args.extend(vc);
        args.extend(["--trace", path]);
        let replayed = json(&args);
        assert_eq!(latencies(&recorded), latencies(&replayed), "{file}");
        assert_eq!(recorded["verdict"], "ok");
        assert_eq!(replayed["config"]["workload"]["trace"], path, "{file}");
        assert!(replayed["config"]["workload"].get("rate").is_none(), "{file}");
        let text = std::fs::read_to_string(path).unwrap();
        let dependent = if file.ends_with(".csv") {
            text.lines().skip(1).filter(|l| l.split(',').nth(5).is_some_and(|a| !a.is_empty())).count()
        } else {
            text.lines().filter(|l| l.contains("\"after\"")).count()
        };
        assert_eq!(dependent > 0, file.starts_with("threads"), "{file}: {dependent} dependent records");
    }
}

/// *Verification*: recording a replay of a whole trace on the trace's own network writes the
/// trace again, byte for byte (every message created in the same cycle and order, with the
/// same salt and the same dependencies), here for a closed loop of two threads whose accesses
/// wait for their memories (M = 3) and replies. The replays ask for more measured messages
/// than the trace holds, so they measure all of them and end with the trace. *Characterisation*:
/// replayed on another network (the mesh of the same 16 nodes, and the virtual-channel
/// router), the same trace runs to its end: every message created (its recording has as many
/// records), and every one created from the warm-up on (by its recording's cycles) measured
/// and delivered.
#[test]
fn a_replay_records_its_trace_again() {
    let dir = scratch("trace-again");
    let (a, b, c) = (dir.join("a.csv"), dir.join("b.csv"), dir.join("c.csv"));
    let (a, b, c) = (a.to_str().unwrap(), b.to_str().unwrap(), c.to_str().unwrap());
    let run = ["sim", "--k", "4", "--messages", "1000", "--warmup", "100"];
    let mut args = run.to_vec();
    args.extend(["--rate", "0.1", "--threads", "2", "--memory-latency", "3", "--record-trace", a]);
    netwrap().args(&args).assert().success();
    let whole = ["sim", "--k", "4", "--messages", "1000000", "--warmup", "100"];
    let mut args = whole.to_vec();
    args.extend(["--trace", a, "--record-trace", b]);
    netwrap().args(&args).assert().success();
    let recorded = std::fs::read_to_string(a).unwrap();
    assert!(recorded.lines().filter(|l| l.split(',').nth(5).is_some_and(|x| !x.is_empty())).count() > 1000);
    assert!(recorded == std::fs::read_to_string(b).unwrap(), "the replay's recording differs");
    for other in [vec!["--no-wrap"], vec!["--router", "vc"]] {
        let mut args = whole.to_vec();
        args.extend(&other);
        args.extend(["--trace", a, "--record-trace", c, "--json"]);
        let r = json(&args);
        let again = std::fs::read_to_string(c).unwrap();
        assert_eq!(again.lines().count(), recorded.lines().count(), "{other:?}");
        let measured = again
            .lines()
            .skip(1)
            .filter(|l| l.split(',').nth(1).is_some_and(|t| t.parse::<u64>().unwrap() >= 100));
        assert_eq!(r["verdict"], "ok", "{other:?}");
        assert_eq!(r["messages_delivered"].as_u64(), Some(measured.count() as u64), "{other:?}");
    }
}

/// *Characterisation*: the text report names the trace in place of the rate and pattern.
#[test]
fn the_report_names_the_trace() {
    let dir = scratch("trace-report");
    let path = dir.join("t.csv");
    std::fs::write(&path, "id,cycle,source,destination,size\n0,0,0,5,4\n1,2,3,7,4\n").unwrap();
    netwrap()
        .args(["sim", "--k", "4", "--trace", path.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("workload: the trace {} replayed", path.display())))
        .stdout(predicate::str::contains("messages delivered                            2 of 2"));
}

/// *Characterisation*: bad traces are refused before any simulation with their line numbers
/// and exit status 2, like every bad input.
#[test]
fn bad_traces_are_refused_with_their_line() {
    let dir = scratch("trace-bad");
    let h = "id,cycle,source,destination,size,after,wait\n";
    for (name, text, msg) in [
        (
            "node.csv",
            format!("{h}0,0,1,2,4,,\n1,3,1,16,4,,\n"),
            "line 3: destination = 16: the network has 16 nodes, 0 to 15",
        ),
        ("field.csv", format!("{h}0,0,1,two,4,,\n"), "line 2: destination = \"two\" is not a whole number"),
        ("negative.csv", format!("{h}0,-3,1,2,4,,\n"), "line 2: cycle = \"-3\" is negative"),
        (
            "word.jsonl",
            "{\"id\":0,\"cycle\":\"soon\",\"source\":1,\"destination\":2,\"size\":4}\n".to_string(),
            "line 1: cycle = \"soon\" is text, not a number",
        ),
        ("size.csv", format!("{h}0,0,1,2,0,,\n"), "line 2: size = 0: a message needs at least one flit"),
        (
            "after.csv",
            format!("{h}0,0,1,2,4,,\n1,1,1,2,4,3,0\n"),
            "line 3: after = 3: a record waits for the delivery of an earlier record's message, and this is record 1",
        ),
        (
            "order.csv",
            format!("{h}0,5,1,2,4,,\n1,3,1,2,4,,\n"),
            "line 3: cycle = 3 is before the previous record's cycle 5",
        ),
        (
            "missing.csv",
            "id,cycle,source,destination,size\n".to_string() + "0,0,1,2,4\n" + "1,1,1\n",
            "line 3: 3 fields, and the header names 5",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        netwrap()
            .args(["sim", "--k", "4", "--trace", path.to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(msg))
            .stderr(predicate::str::contains(format!("workload.trace {}", path.display())));
    }
    netwrap()
        .args(["sim", "--trace", dir.join("absent.csv").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("workload.trace: cannot read"));
}

/// *Characterisation*: with a trace, the options that describe the sources do not apply and
/// are refused (status 2), on the command line and in a spec file; a trace is one run, so it
/// is not swept over rates, and a recording is of a single point.
#[test]
fn options_that_do_not_apply_to_a_trace_are_refused() {
    let dir = scratch("trace-options");
    let path = dir.join("t.csv");
    std::fs::write(&path, "id,cycle,source,destination,size\n0,0,0,5,4\n").unwrap();
    let p = path.to_str().unwrap();
    for flags in [
        vec!["--rate", "0.1"],
        vec!["--size", "4"],
        vec!["--pattern", "transpose"],
        vec!["--threads", "2"],
        vec!["--memory-latency", "3"],
        vec!["--rates", "0.1,0.2"],
        vec!["--find-saturation"],
        vec!["--model"],
    ] {
        let mut args = vec!["sim", "--k", "4", "--trace", p];
        args.extend(&flags);
        let refusal = if flags[0] == "--model" {
            "the analytical models predict a rate"
        } else {
            "cannot be used with"
        };
        netwrap().args(&args).assert().code(2).stderr(predicate::str::contains(refusal));
    }
    let spec = dir.join("spec.toml");
    std::fs::write(
        &spec,
        format!("[topology]\nfamily = \"torus\"\nk = 4\n[workload]\nrate = 0.1\ntrace = {p:?}\n"),
    )
    .unwrap();
    netwrap().args(["run", spec.to_str().unwrap()]).assert().code(2).stderr(
        predicate::str::contains("workload.rate does not apply with workload.trace")
            .and(predicate::str::contains("(--rate, --trace) (line 5)")),
    );
    netwrap()
        .args([
            "sim",
            "--k",
            "4",
            "--rates",
            "0.01,0.02",
            "--record-trace",
            dir.join("r.csv").to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("records one run's messages, and this run has 2 points"));
}

/// *Characterisation*: a trace that cannot be written is a failed output (status 1), after
/// the run.
#[test]
fn an_unwritable_recording_fails_with_status_one() {
    netwrap()
        .args(["sim", "--k", "4", "--messages", "100", "--record-trace", "/nonexistent-dir/t.csv"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot write /nonexistent-dir/t.csv"));
}

/// Verification: a trace whose last record is at cycle 2^63 ends at the cycle limit having
/// created one of its two messages; the report counts the trace's records as the measured
/// messages (not the 10,000 asked for) and estimates the cycles from the trace's last cycle,
/// not from a rate it does not have; at cycle 2^64 − 616 no cycle limit suffices, and it says
/// so.
#[test]
fn a_trace_beyond_the_cycle_limit_is_estimated_from_its_last_record() {
    let dir = scratch("trace-far");
    for (cycle, expect) in [
        (
            "9223372036854775808",
            "last message at cycle 9223372036854775808, so the run needs about 1.2e19 cycles",
        ),
        ("18446744073709551000", "beyond any cycle limit"),
    ] {
        let trace = dir.join(format!("t{cycle}.csv"));
        std::fs::write(&trace, format!("id,cycle,source,destination,size\n0,0,0,1,4\n1,{cycle},1,2,4\n"))
            .unwrap();
        netwrap()
            .args(["sim", "--trace", trace.to_str().unwrap()])
            .assert()
            .code(5)
            .stderr(predicate::str::contains("1 of 2 measured messages delivered (1 not yet created)"))
            .stderr(predicate::str::contains(expect));
    }
}
