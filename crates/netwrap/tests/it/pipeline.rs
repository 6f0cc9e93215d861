//! The pipeline's promises, from the outside: a result's `config` reproduces it bit for bit on
//! every family; experiment files sweep any field; sharded-and-merged, resumed and 1- or
//! 2-thread runs write the same bytes; every example runs; the saturation search finds the
//! exact saturation point of the ideal switch.

use crate::{json, netwrap, root, scratch};
use predicates::str::contains;
use std::path::Path;

/// Every family (and table routing, the routing record, a locality pattern) round trips:
/// `sim … --json` → `run result.json --json` gives the identical result.
#[test]
fn every_family_round_trips_through_its_config() {
    let dir = scratch("roundtrip");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--locality", "0.5"],
        vec!["--bidirectional", "--order", "lowest-first"],
        vec!["mesh", "--k", "4"],
        vec!["ring", "--k", "9", "--bidirectional"],
        vec!["hypercube", "--n", "5"],
        vec!["midimew", "--nodes", "50"],
        vec!["--routing", "record", "midimew", "--nodes", "50"],
        vec!["circulant", "--nodes", "20", "--a", "3", "--b", "7"],
        vec!["butterfly", "--k", "2", "--stages", "4"],
        vec!["omega", "--k", "4", "--stages", "2"],
        vec!["fat-tree", "--nodes", "64"],
        vec!["complete", "--nodes", "8"],
        vec!["nhop", "--factors", "4,8"],
        vec!["ccc", "--n", "3"],
        vec!["crossbar", "--nodes", "16"],
        vec!["two-level", "Butterfly.16.8", "--nodes", "64", "--modules", "8"],
        vec!["two-level", "Xbar.32.8", "--nodes", "32", "--modules", "4"],
        vec!["--routing", "table", "torus", "--k", "4", "--bidirectional"],
        vec!["--engine", "reference", "--model", "torus", "--k", "4"],
        // Every traffic option: patterns, hot spots, bimodal sizes.
        vec!["--pattern", "uniform-others"],
        vec!["--pattern", "transpose", "midimew", "--nodes", "64"],
        vec!["--pattern", "bit-reversal", "--bidirectional"],
        vec!["--pattern", "shuffle", "mesh", "--k", "4"],
        vec!["--pattern", "bit-complement", "hypercube", "--n", "4"],
        vec!["--pattern", "tornado", "--bidirectional"],
        vec!["--pattern", "neighbor", "mesh", "--k", "4"],
        vec!["--pattern", "permutation", "--seed", "5"],
        vec!["--pattern", "hotspot", "--hotspots", "0,17", "--hotspot-fraction", "0.2"],
        vec!["--size", "2", "--long-size", "20", "--long-fraction", "0.1"],
    ];
    for (i, case) in cases.iter().enumerate() {
        let mut args = vec!["sim", "--rate", "0.02", "--messages", "800", "--json"];
        args.extend(case);
        let first = netwrap().args(&args).output().unwrap();
        assert!(first.status.success(), "{case:?}: {}", String::from_utf8_lossy(&first.stderr));
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
}

/// `--load` is resolved to the rate it means (load / mean message length): the config carries
/// the rate and not the load, and reads back to the identical result; the same load given as
/// its rate gives the identical result too.
#[test]
fn a_load_resolves_to_its_rate_and_round_trips() {
    let dir = scratch("load");
    let args = [
        "sim",
        "--k",
        "4",
        "--size",
        "2",
        "--long-size",
        "20",
        "--long-fraction",
        "0.1",
        "--messages",
        "800",
    ];
    let mut with_load = args.to_vec();
    with_load.extend(["--load", "0.19", "--json"]);
    let first = netwrap().args(&with_load).output().unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let v: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    // Mean length 2·0.9 + 20·0.1 = 3.8 flits: 0.19 flits/node/cycle is m = 0.05.
    let rate = v["config"]["workload"]["rate"].as_f64().unwrap();
    assert_eq!(rate, 0.19 / 3.8);
    assert!(v["config"]["workload"].get("load").is_none());
    let file = dir.join("load.json");
    std::fs::write(&file, &first.stdout).unwrap();
    let again = netwrap().args(["run", file.to_str().unwrap(), "--json"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&first.stdout), String::from_utf8_lossy(&again.stdout));
    let mut with_rate = args.to_vec();
    let r = rate.to_string();
    with_rate.extend(["--rate", &r, "--json"]);
    assert_eq!(json(&with_rate), v);
    // A spec giving both is refused, naming both keys.
    let both = dir.join("both.toml");
    std::fs::write(&both, "[workload]\nrate = 0.05\nload = 0.2\n").unwrap();
    netwrap()
        .args(["run", both.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("workload.rate and workload.load"));
}

/// The config printed as TOML (sections and kebab-case keys) reads back to the same result.
#[test]
fn a_config_written_as_toml_reproduces_the_result() {
    let dir = scratch("toml");
    let v = json(&["sim", "--k", "4", "--rate", "0.05", "--messages", "1000", "--json"]);
    let c = &v["config"];
    let toml = format!(
        "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[workload]\nrate = 0.05\nsize = 4\n[run]\nwarmup = {}\nmessages = 1000\nmax-cycles = {}\n",
        c["run"]["warmup"], c["run"]["max-cycles"]
    );
    let file = dir.join("spec.toml");
    std::fs::write(&file, toml).unwrap();
    assert_eq!(json(&["run", file.to_str().unwrap(), "--json"]), v);
}

fn run_to(dir: &Path, name: &str, extra: &[&str], threads: &str) -> (Vec<u8>, Vec<u8>) {
    let example = root().join("crates/app/experiments/ex2-grid.toml");
    let (csv, jsonl) = (dir.join(format!("{name}.csv")), dir.join(format!("{name}.jsonl")));
    let mut args = vec![
        "run",
        example.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--jsonl",
        jsonl.to_str().unwrap(),
    ];
    args.extend(extra);
    netwrap().env("RAYON_NUM_THREADS", threads).args(&args).assert().success();
    (std::fs::read(csv).unwrap(), std::fs::read(jsonl).unwrap())
}

/// Sharded runs merged, a resumed run and a one-thread run write byte for byte what one
/// unsharded two-thread run writes.
#[test]
fn shards_resume_and_threads_give_the_same_bytes() {
    let dir = scratch("shards");
    let full = run_to(&dir, "full", &[], "2");
    assert_eq!(run_to(&dir, "one", &[], "1"), full, "1 vs 2 threads");
    for i in 0..3 {
        run_to(&dir, &format!("s{i}"), &["--shard", &format!("{i}/3")], "2");
    }
    for ext in ["csv", "jsonl"] {
        let files: Vec<String> =
            (0..3).map(|i| dir.join(format!("s{i}.{ext}")).to_str().unwrap().to_string()).collect();
        let out = dir.join(format!("merged.{ext}"));
        let mut args = vec!["merge".to_string()];
        args.extend(files.iter().rev().cloned());
        args.extend(["--out".to_string(), out.to_str().unwrap().to_string()]);
        netwrap().args(&args).assert().success();
        let expect = if ext == "csv" { &full.0 } else { &full.1 };
        assert_eq!(&std::fs::read(&out).unwrap(), expect, "merged {ext}");
    }
    // A run killed after a few points: its file holds a prefix; --resume completes it.
    let text = String::from_utf8(full.0.clone()).unwrap();
    let partial: String = text.lines().take(9).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("resumed.csv"), partial).unwrap();
    let jsonl: String = String::from_utf8(full.1.clone())
        .unwrap()
        .lines()
        .skip(4)
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("resumed.jsonl"), jsonl).unwrap();
    assert_eq!(run_to(&dir, "resumed", &["--resume"], "2"), full, "resumed");
    // Killed mid-row: the last row has no newline. It is dropped and its point run again.
    let cut = format!("{}{}", partial_lines(&text, 6), &text.lines().nth(6).unwrap()[..20]);
    std::fs::write(dir.join("cut.csv"), cut).unwrap();
    std::fs::write(dir.join("cut.jsonl"), "").unwrap();
    assert_eq!(run_to(&dir, "cut", &["--resume"], "2").0, full.0, "resumed after a cut row");
    // Rows that are not this experiment's refuse the resume, naming the line.
    let header = text.lines().next().unwrap();
    let row = |i: usize| text.lines().nth(i).unwrap().to_string();
    let far = row(1).replacen("0,", "999,", 1);
    for (name, body, says) in [
        ("dup", format!("{header}\n{}\n{}\n", row(1), row(1)), "point 0 appears twice (line 3)"),
        ("far", format!("{header}\n{far}\n"), "line 2 is point 999, and this experiment has"),
        ("short", format!("{header}\n8,0,ok\n"), "line 2 has 3 fields where this experiment's rows have"),
    ] {
        let csv = dir.join(format!("{name}.csv"));
        std::fs::write(&csv, body).unwrap();
        let example = root().join("crates/app/experiments/ex2-grid.toml");
        netwrap()
            .args(["run", example.to_str().unwrap(), "--csv", csv.to_str().unwrap(), "--resume"])
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    // Merging overlapping or incomplete shards is refused.
    let s0 = dir.join("s0.csv");
    netwrap()
        .args(["merge", s0.to_str().unwrap(), s0.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("twice"));
    netwrap().args(["merge", s0.to_str().unwrap()]).assert().code(2).stderr(contains("missing"));
}

/// Verification of a sweep run in chunks: 12000 tiny points (60 rates × 100 seeds × 2
/// replications on a 4-node ring, 20 messages each) are three chunks of the runner's 4096, and
/// more than the 10000 whose results a run keeps. Its CSV and JSON lines are byte for byte what
/// the same points write as four shards of 3000 (each run in one chunk) merged; a run resumed
/// from a file a killed run left (its first 5000 rows in reverse order, then a row cut short)
/// writes them again; `--csv -` streams the same bytes; the run prints no table but says where
/// its rows are, and `--json`, which would hold every result, is refused before any file is
/// written.
#[test]
fn a_sweep_larger_than_a_chunk_runs_in_chunks_and_resumes() {
    let dir = scratch("chunks");
    let rates: Vec<String> = (1..=60).map(|i| format!("{}", f64::from(i) / 1000.0)).collect();
    let seeds: Vec<String> = (0..100).map(|i| i.to_string()).collect();
    let file = dir.join("chunks.toml");
    std::fs::write(
        &file,
        format!(
            "[topology]\nfamily = \"ring\"\nk = 4\n[run]\nmessages = 20\n[sweep]\nreplications = 2\n\"workload.rate\" = [{}]\n\"run.seed\" = [{}]\n",
            rates.join(", "),
            seeds.join(", ")
        ),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |name: &str, extra: &[&str]| {
        let (csv, jsonl) = (path(&format!("{name}.csv")), path(&format!("{name}.jsonl")));
        let mut args = vec!["run", file, "--quiet", "--csv", &csv, "--jsonl", &jsonl];
        args.extend(extra);
        let out = netwrap().args(&args).assert().success().get_output().clone();
        (std::fs::read(&csv).unwrap(), std::fs::read(&jsonl).unwrap(), out)
    };
    let (csv, jsonl, out) = run("full", &[]);
    assert!(out.stdout.is_empty());
    let says = String::from_utf8(out.stderr).unwrap();
    assert!(
        says.contains("12000 points run, their rows in") && says.contains("at most 10000 points"),
        "{says}"
    );
    let text = String::from_utf8(csv.clone()).unwrap();
    assert_eq!(text.lines().count(), 1 + 12000 + 6000, "header, rows, combined rows");
    for i in 0..4 {
        run(&format!("s{i}"), &["--shard", &format!("{i}/4")]);
    }
    for (ext, full) in [("csv", &csv), ("jsonl", &jsonl)] {
        let out = path(&format!("merged.{ext}"));
        let mut args = vec!["merge".to_string()];
        args.extend((0..4).map(|i| path(&format!("s{i}.{ext}"))));
        args.extend(["--out".to_string(), out.clone()]);
        netwrap().args(&args).assert().success();
        assert!(std::fs::read(&out).unwrap() == *full, "merged shards' {ext} differs from the chunked run's");
        // A shard a killed run left unsorted (rows are written as points finish) is sorted.
        let s1 = path(&format!("s1.{ext}"));
        let text = std::fs::read_to_string(&s1).unwrap();
        let (head, rows) = if ext == "csv" { text.split_once('\n').unwrap() } else { ("", text.as_str()) };
        let reversed: String = rows.lines().rev().map(|l| format!("{l}\n")).collect();
        std::fs::write(&s1, if ext == "csv" { format!("{head}\n{reversed}") } else { reversed }).unwrap();
        netwrap().args(&args).assert().success();
        assert!(std::fs::read(&out).unwrap() == *full, "merged unsorted shards' {ext} differs");
    }
    let rows: Vec<&str> = text.lines().skip(1).take(5000).collect();
    let mut partial = format!("{}\n", text.lines().next().unwrap());
    for row in rows.iter().rev() {
        partial += &format!("{row}\n");
    }
    partial += &text.lines().nth(5001).unwrap()[..30];
    std::fs::write(path("resumed.csv"), partial).unwrap();
    std::fs::write(path("resumed.jsonl"), "").unwrap();
    let (resumed_csv, resumed_jsonl, _) = run("resumed", &["--resume"]);
    assert!(resumed_csv == csv && resumed_jsonl == jsonl, "the resumed run's files differ");
    let streamed = netwrap().args(["run", file, "--quiet", "--csv", "-"]).assert().success();
    assert!(streamed.get_output().stdout == csv, "--csv - differs from the file");
    let json = path("refused.csv");
    std::fs::write(&json, "kept\n").unwrap();
    netwrap()
        .args(["run", file, "--json", "--csv", &json])
        .assert()
        .code(2)
        .stderr(contains("--json prints every point's result at the end, and this run has 12000 points"));
    assert_eq!(std::fs::read_to_string(&json).unwrap(), "kept\n");
    netwrap().args(["run", file]).assert().code(2).stderr(contains(
        "12000 points, more than the 10000 whose table netwrap prints: write them as they finish",
    ));
}

/// `netwrap merge` in bounded memory: 200,000 synthetic rows of about 440 bytes (87 MB, a
/// valid identity, one point each) in four shards, one of them out of point order as a killed
/// run leaves it, merged under an 80 MiB address-space limit, which the rows do not fit in:
/// the merge (about 60 MiB here; it read every file whole before, and needed more than 100)
/// holds one row per shard in point order and sorts the other in one batch. Verification: the
/// result is byte for byte the rows in point order, as one run writes them; a point missing
/// at the very end, or one given twice, is found after every row is read, and nothing is
/// written. Takes about a second.
#[cfg(target_os = "linux")]
#[test]
fn merge_joins_large_shards_in_bounded_memory() {
    use crate::{Limits, run_bounded};
    let dir = scratch("merge-large");
    let points = 200_000u64;
    let header = "point,replication,foo,pad,experiment,points\n";
    let pad = "x".repeat(400);
    let row = |i: u64| format!("{i},0,{},{pad},00000000000000aa,{points}\n", i * 7 % 1000);
    let expect: String = std::iter::once(header.to_string()).chain((0..points).map(row)).collect();
    let path = |name: &str| dir.join(name).display().to_string();
    for s in 0..4 {
        let mut rows: Vec<u64> = (s..points).step_by(4).collect();
        if s == 1 {
            rows.reverse();
        }
        let text: String = std::iter::once(header.to_string()).chain(rows.into_iter().map(row)).collect();
        std::fs::write(path(&format!("s{s}.csv")), text).unwrap();
    }
    let shards: Vec<String> = (0..4).map(|s| path(&format!("s{s}.csv"))).collect();
    let limits = Limits { address_space: 80 << 20, time: std::time::Duration::from_secs(60) };
    let merge = |files: &[String], out: &str| {
        let args: Vec<String> = std::iter::once("merge".to_string())
            .chain(files.iter().cloned())
            .chain(["-o".into(), out.into()])
            .collect();
        run_bounded(&args, limits, None)
    };
    let run = merge(&shards, &path("merged.csv"));
    assert!(run.status == Some(0), "{}", run.describe());
    assert!(std::fs::read_to_string(path("merged.csv")).unwrap() == expect, "the merged rows differ");
    // The last shard without its last row; the first one's last row in a file of its own.
    let s3 = std::fs::read_to_string(&shards[3]).unwrap();
    let cut = &s3[..s3.trim_end().rfind('\n').unwrap() + 1];
    std::fs::write(path("short.csv"), cut).unwrap();
    std::fs::write(path("again.csv"), format!("{header}{}", row(points - 4))).unwrap();
    for (files, says) in [
        (
            vec![shards[0].clone(), shards[1].clone(), shards[2].clone(), path("short.csv")],
            format!("point {} is missing, of the experiment's {points} points", points - 1),
        ),
        ([shards.clone(), vec![path("again.csv")]].concat(), format!("point {} appears twice", points - 4)),
    ] {
        let run = merge(&files, &path("refused.csv"));
        assert!(run.status == Some(2) && run.stderr.contains(&says), "{}", run.describe());
        assert!(!Path::new(&path("refused.csv")).exists(), "a refused merge wrote its output");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Verification that a sweep's files say which experiment they hold: `--resume` refuses
/// another experiment's file (other rates, another run length, another topology) with status
/// 2, naming the first difference it can (a value of the recorded config in JSON lines, a
/// swept value or else the identity column in CSV); `merge` refuses shards of two experiments
/// and reports the points a missing last shard held.
#[test]
fn files_of_another_experiment_are_refused() {
    let dir = scratch("identity");
    let base = "[topology]\nfamily = \"torus\"\nk = 4\n[run]\nmessages = 300\n[sweep]\n";
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let ours = write("ours.toml", format!("{base}\"workload.rate\" = [0.01, 0.02, 0.03]\n"));
    let rates = write("rates.toml", format!("{base}\"workload.rate\" = [0.01, 0.025, 0.03]\n"));
    let messages = write(
        "messages.toml",
        format!("{base}\"workload.rate\" = [0.01, 0.02, 0.03]\n").replace("300", "400"),
    );
    let topology = write(
        "topology.toml",
        format!("{base}\"workload.rate\" = [0.01, 0.02, 0.03]\n").replace("torus", "mesh"),
    );
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    netwrap()
        .args(["run", &ours, "--csv", &file("ours.csv"), "--jsonl", &file("ours.jsonl")])
        .assert()
        .success();
    let csv = std::fs::read_to_string(file("ours.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with(",jain,experiment,points"), "{header}");
    let experiment = csv.lines().nth(1).unwrap().rsplit(',').nth(1).unwrap().to_string();
    assert!(csv.lines().skip(1).all(|l| l.ends_with(&format!(",{experiment},3"))), "{csv}");
    let jsonl = std::fs::read_to_string(file("ours.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(
        (first["experiment"].as_str(), first["points"].as_u64()),
        (Some(experiment.as_str()), Some(3))
    );
    for (spec, ext, says) in [
        (
            &rates,
            "csv",
            "line 3 is another experiment's: its point 1 has workload.rate = 0.02, and this experiment's has workload.rate = 0.025",
        ),
        (
            &rates,
            "jsonl",
            "line 2 is another experiment's: it ran point 1 with workload.rate = 0.02, and this experiment's point 1 has workload.rate = 0.025",
        ),
        (
            &messages,
            "csv",
            &format!(
                "line 2 is another experiment's: it is a row of experiment {experiment}, and this one is "
            ),
        ),
        (
            &messages,
            "jsonl",
            "line 1 is another experiment's: it ran point 0 with run.messages = 300, and this experiment's point 0 has run.messages = 400",
        ),
        (
            &topology,
            "csv",
            &format!("line 2 is another experiment's: it is a row of experiment {experiment}"),
        ),
        (
            &topology,
            "jsonl",
            "it ran point 0 with topology.family = torus, and this experiment's point 0 has topology.family = mesh",
        ),
    ] {
        let target = file(&format!("foreign.{ext}"));
        std::fs::copy(file(&format!("ours.{ext}")), &target).unwrap();
        netwrap()
            .args(["run", spec, &format!("--{ext}"), &target, "--resume"])
            .assert()
            .code(2)
            .stderr(contains(says));
        // Refused before anything was written.
        assert_eq!(std::fs::read(&target).unwrap(), std::fs::read(file(&format!("ours.{ext}"))).unwrap());
    }
    // A file written before rows carried their experiment is not resumed into.
    let older: String = csv.lines().map(|l| format!("{}\n", l.rsplitn(3, ',').nth(2).unwrap())).collect();
    let older_path = write("older.csv", older);
    netwrap()
        .args(["run", &ours, "--csv", &older_path, "--resume"])
        .assert()
        .code(2)
        .stderr(contains("written by an older netwrap, without the experiment and points columns"));
    // Shards: of two experiments, refused; the last missing, its points reported.
    for (name, spec, shard) in [("s0", &ours, "0/3"), ("s1", &ours, "1/3"), ("x2", &rates, "2/3")] {
        netwrap()
            .args([
                "run",
                spec,
                "--shard",
                shard,
                "--csv",
                &file(&format!("{name}.csv")),
                "--jsonl",
                &file(&format!("{name}.jsonl")),
            ])
            .assert()
            .success();
    }
    for ext in ["csv", "jsonl"] {
        let shard = |name: &str| file(&format!("{name}.{ext}"));
        netwrap()
            .args(["merge", &shard("s0"), &shard("s1"), &shard("x2")])
            .assert()
            .code(2)
            .stderr(contains(format!("s0.{ext} holds rows of experiment {experiment} (3 points), and ")))
            .stderr(contains(format!("x2.{ext} of experiment ")))
            .stderr(contains("not shards of one experiment"));
        netwrap()
            .args(["merge", &shard("s0"), &shard("s1")])
            .assert()
            .code(2)
            .stderr(contains("point 2 is missing, of the experiment's 3 points"));
    }
}

/// Every example experiment (and the homework's, which `netwrap reproduce` embeds) runs and
/// its points have the expected verdicts where the exact channel load decides them.
#[test]
fn every_example_runs() {
    let dir = root().join("examples");
    let homework =
        ["ex1", "ex2-grid", "ex5-locality"].map(|f| root().join(format!("crates/app/experiments/{f}.toml")));
    let mut seen = 0;
    let examples = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path());
    for path in examples.chain(homework) {
        if path.extension().is_none_or(|e| e != "toml") || path.file_name().unwrap() == "saturation.toml" {
            continue;
        }
        let v = json(&["run", path.to_str().unwrap(), "--json"]);
        // Every example is a sweep but the homework's Ex 1, one point.
        let points = v.as_array().map_or(1, Vec::len);
        let single = path.file_name().unwrap() == "ex1.toml";
        assert!(
            if single { v["latency"].is_number() } else { points >= 2 },
            "{}: {points} points",
            path.display()
        );
        if let Some(rows) = v.as_array() {
            for r in rows {
                if let Some(u) = r["offered_utilization"].as_f64() {
                    assert_eq!(r["saturated"], u >= 1.0 - 1e-9, "{}: {r}", path.display());
                }
            }
        }
        seen += 1;
    }
    assert!(seen >= 5, "only {seen} examples");
    netwrap()
        .args(["saturation", dir.join("saturation.toml").to_str().unwrap(), "--tolerance", "0.05"])
        .assert()
        .success()
        .stdout(contains("saturation: between"));
}

/// The homework's Ex 2 grid has 30 points: 6 rates × 5 sizes, rate varying slowest.
#[test]
fn ex2_grid_expands_as_the_homework_asks() {
    let v = json(&["run", root().join("crates/app/experiments/ex2-grid.toml").to_str().unwrap(), "--json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 30);
    assert_eq!(rows[0]["parameters"]["workload.rate"], 0.01);
    assert_eq!(rows[4]["parameters"]["workload.size"], 10);
    assert_eq!(rows[29]["parameters"]["workload.rate"], 0.06);
    // m = 0.05, B = 6: ρ = 1.05, saturated; m = 0.05, B = 4: ρ = 0.7, not.
    assert_eq!(rows[22]["saturated"], true);
    assert_eq!(rows[21]["saturated"], false);
}

/// Experiment-file errors name the key, its line and what it takes, with a suggestion.
#[test]
fn experiment_file_errors_point_at_the_line() {
    let dir = scratch("badfiles");
    for (text, fragments) in [
        ("[workload]\nrat = 0.1\n", vec!["line 2", "did you mean `rate`"]),
        ("[topology]\nfamily = \"toru\"\n", vec!["line 2", "did you mean `torus`"]),
        ("[workload]\nrate = 2.0\n", vec!["workload.rate = 2", "(0, 1]", "line 2"]),
        (
            "[sweep]\n\"workload.rate\" = [0.01, -0.5]\n",
            vec!["sweep point 1", "workload.rate = -0.5", "line 2"],
        ),
        ("[sweep]\n\"worklaod.rate\" = [0.01]\n", vec!["did you mean `workload`"]),
        ("[sweep]\n\"topology.kk\" = [4]\n", vec!["unknown field `kk`"]),
        ("[[sweep.zip]]\n\"workload.rate\" = [0.01]\n\"workload.size\" = [2, 4]\n", vec!["equal lengths"]),
    ] {
        let file = dir.join("bad.toml");
        std::fs::write(&file, text).unwrap();
        let out = netwrap().args(["run", file.to_str().unwrap()]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        for f in fragments {
            assert!(err.contains(f), "{text:?}: missing {f:?} in {err}");
        }
    }
}

/// Verification of the saturation search against the exact answer: on the 8×8 unidirectional
/// torus with B = 4 the busiest channel is offered m·B·k_d = 14m flits a cycle, so the ideal
/// switch saturates at m = 1/14. The search, which judges probes on what they measure, must
/// bracket it within its tolerance.
#[test]
fn saturation_search_finds_the_exact_point() {
    let v = json(&["sim", "--find-saturation", "--messages", "3000", "--json"]);
    let (lo, hi) = (v["max_rate"].as_f64().unwrap(), v["first_saturated"].as_f64().unwrap());
    let exact = 1.0 / 14.0;
    assert!(lo <= exact * 1.0001 && hi >= exact * 0.9999, "[{lo}, {hi}] misses {exact}");
    assert!((hi - lo) / hi <= 0.02 + 1e-9, "bracket [{lo}, {hi}] wider than the tolerance");
    assert!(v["probes"].as_array().unwrap().len() >= 5);
    assert!(v["config"].is_object() && v["netwrap_version"].is_string());
}

/// The first `n` lines of `text`, each with its newline.
fn partial_lines(text: &str, n: usize) -> String {
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

/// `--csv -` and `--jsonl -` stream their rows as points finish, held back only for the
/// points before them: the same bytes in point order on one thread and on two, and the same
/// rows as the files.
#[test]
fn streamed_rows_come_in_point_order_on_any_threads() {
    let dir = scratch("streamed");
    let example = root().join("crates/app/experiments/ex2-grid.toml");
    let example = example.to_str().unwrap();
    for (flag, ext) in [("--csv", "csv"), ("--jsonl", "jsonl")] {
        let stream = |threads: &str| {
            netwrap()
                .env("RAYON_NUM_THREADS", threads)
                .args(["run", example, flag, "-"])
                .output()
                .unwrap()
                .stdout
        };
        let one = stream("1");
        assert_eq!(stream("2"), one, "{flag}");
        let file = dir.join(format!("rows.{ext}"));
        netwrap().args(["run", example, flag, file.to_str().unwrap()]).assert().success();
        assert_eq!(std::fs::read(&file).unwrap(), one, "{flag}");
    }
}

/// A replicated sweep's CSV ends with each point's runs combined: a row whose `replication` is
/// `all`, its `point` the first run's, `latency` and `latency_ci95` the mean of the ok runs'
/// latencies and its Student-t half-width, `throughput` the runs' mean. Verification: the test
/// recomputes them from the per-run rows, with t(0.975, 2) = 4.303 from Student's table (to its
/// 4 digits). `--csv -` streams the same bytes; a resumed run, the merge of two shards (whose
/// files hold no combined rows) and the merge of the whole file give the same bytes; `netwrap
/// plot` draws the file with its combined rows as without them.
#[test]
fn replicated_csv_ends_with_the_combined_rows() {
    let dir = scratch("combined");
    let spec = dir.join("reps.toml");
    std::fs::write(
        &spec,
        "[topology]\nfamily = \"torus\"\nk = 4\n[run]\nmessages = 600\n[sweep]\nreplications = 3\n\"workload.rate\" = [0.02, 0.05]\n",
    )
    .unwrap();
    let run = |name: &str, extra: &[&str]| -> String {
        let csv = dir.join(name);
        netwrap().arg("run").arg(&spec).arg("--csv").arg(&csv).args(extra).assert().success();
        std::fs::read_to_string(csv).unwrap()
    };
    let full = run("full.csv", &[]);
    let lines: Vec<&str> = full.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let cells = |l: &str| l.split(',').map(str::to_string).collect::<Vec<_>>();
    let (runs, combined): (Vec<Vec<String>>, Vec<Vec<String>>) =
        lines[1..].iter().map(|l| cells(l)).partition(|c| c[1] != "all");
    assert_eq!(runs.len(), 6);
    assert_eq!(combined.len(), 2);
    assert!(lines[7..].iter().all(|l| l.split(',').nth(1) == Some("all")), "combined rows come last");
    let num = |c: &Vec<String>, name: &str| c[col(name)].parse::<f64>().unwrap();
    for (i, all) in combined.iter().enumerate() {
        let mine = &runs[3 * i..3 * i + 3];
        assert_eq!(all[col("point")], (3 * i).to_string());
        assert_eq!(all[col("workload.rate")], mine[0][col("workload.rate")]);
        assert!(mine.iter().all(|r| r[col("verdict")] == "ok"));
        let lat: Vec<f64> = mine.iter().map(|r| num(r, "latency")).collect();
        let mean = lat.iter().sum::<f64>() / 3.0;
        let s = (lat.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
        assert!((num(all, "latency") - mean).abs() < 1e-9 * mean);
        let half = num(all, "latency_ci95");
        assert!((half - 4.303 * s / 3f64.sqrt()).abs() < 1e-4 * half, "{half}");
        let thr = mine.iter().map(|r| num(r, "throughput")).sum::<f64>() / 3.0;
        assert!((num(all, "throughput") - thr).abs() < 1e-9 * thr);
        assert_eq!(all[col("verdict")], "", "a combined row has no verdict");
        assert_eq!(all[col("experiment")], mine[0][col("experiment")]);
    }
    let out = netwrap().arg("run").arg(&spec).args(["--csv", "-", "--quiet"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), full, "--csv -");
    // Resumed from its first four lines (three runs and one of the next point's).
    let partial: String = full.lines().take(4).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("resumed.csv"), partial).unwrap();
    assert_eq!(run("resumed.csv", &["--resume"]), full, "resumed");
    // Resumed when complete: the combined rows are read past and written again.
    assert_eq!(run("resumed.csv", &["--resume"]), full, "resumed complete");
    let s0 = run("s0.csv", &["--shard", "0/2"]);
    let s1 = run("s1.csv", &["--shard", "1/2"]);
    assert!(!s0.contains(",all,") && !s1.contains(",all,"), "a shard has no combined rows");
    let merged = dir.join("merged.csv");
    netwrap()
        .arg("merge")
        .arg(dir.join("s1.csv"))
        .arg(dir.join("s0.csv"))
        .arg("-o")
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), full, "merged shards");
    netwrap().arg("merge").arg(dir.join("full.csv")).arg("-o").arg(&merged).assert().success();
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), full, "merged whole file");
    let runs_only: String = full.lines().take(7).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("runs.csv"), runs_only).unwrap();
    for name in ["full", "runs"] {
        netwrap()
            .args(["plot"])
            .arg(dir.join(format!("{name}.csv")))
            .args(["--y", "latency", "--out"])
            .arg(dir.join(format!("{name}.svg")))
            .assert()
            .success();
    }
    assert_eq!(std::fs::read(dir.join("full.svg")).unwrap(), std::fs::read(dir.join("runs.svg")).unwrap());
}
