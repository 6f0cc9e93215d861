//! Property: whatever a spec's numbers, `netwrap run spec.json --json` answers honestly, in
//! bounded time and memory.
//!
//! Each case is a valid spec of a random topology family (every family netwrap builds), one or
//! two of whose numeric fields — topology sizes, radices, factors, the numbers in a two-level
//! network's name, rate, size, locality, warm-up, messages, cycle limit, seed — are replaced by
//! a hostile JSON literal ([`HOSTILE`]: 0, negatives, 1e-300, 1e300, the u32 and u64 extremes
//! and one past them, NaN and infinities as strings and as the literals JSON cannot hold,
//! fractions where integers belong, other types). The run must end with 0, 2, 3, 5 or 7 — never
//! 101 (a panic) or a signal (an abort on a failed allocation) — within
//! [`crate::hostile::LIMITS`] (20 s, 2 GiB); a refusal must be netwrap's own message, and a
//! report's `verdict` must be the exit status's.
//!
//! What is fair to ask of the time: a run's work is its messages times their hops, and netwrap
//! allows networks of up to 2^24 terminals whose runs legitimately take tens of seconds and
//! gigabytes (measured: a 4096x4096 torus saturates in 12 s and 2.1 GB, a Midimew of 2^24
//! nodes takes 30 s and 3 GB). So the generator caps the valid sizes — at most 1024 terminals
//! (the papers' sizes), 200 measured messages, 20,000 cycles — and a hostile value that makes
//! a network larger is one past a limit (refused at once, before anything is built); and it
//! replaces at most one of the fields that set a run's length (warm-up, messages, cycle limit),
//! since two of them together legitimately ask for 2^32 cycles of warm-up. The networks at
//! the limits are exercised by the hostile table instead. Measured: 512 cases in about 4 s on
//! two cores (three in four refused, the others run to ok, saturated or limit reached), the
//! slowest case 0.3 s.

use crate::hostile::LIMITS;
use crate::{run_bounded, scratch};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};

/// JSON literals put in place of a number: valid and invalid, in range and out of it, of the
/// wrong type, and the non-numbers JSON cannot write (`NaN`, `1e999` are not JSON: the file
/// is then not valid JSON, which is an answer too).
const HOSTILE: [&str; 24] = [
    "0",
    "-1",
    "-0",
    "1",
    "2",
    "1e-300",
    "1e300",
    "0.5",
    "2.5",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1e999",
    "-1e999",
    "NaN",
    "\"NaN\"",
    "\"inf\"",
    "\"-inf\"",
    "null",
    "true",
    "[]",
    "\"8\"",
];

/// Extreme values that some fields take: a run at a rate of 1e-300, a message of 2^32 − 1
/// flits, the last seed, a cycle limit of 2^64 − 1. Drawn as often as [`HOSTILE`]'s, so that
/// a good share of the cases run.
const EXTREME_BUT_VALID: [&str; 10] =
    ["1", "2", "1e-300", "1e-17", "0.999", "4294967294", "4294967295", "18446744073709551615", "0.5", "64"];

/// Terminals above which a valid network is a legitimately long run, not a hostile input: a
/// replaced size that lands between this and netwrap's limit of 2^24 terminals (a 64-ary
/// 3-dimensional mesh, 262,144 nodes: 30 s; CCC(16), 1,048,576 nodes) is not drawn. Sizes past
/// the limit are drawn: they are refused before anything is built.
const LONG_RUN_TERMINALS: f64 = 65_536.0;

/// The terminals a spec's network has, when its topology's numbers are all whole and its
/// family's count is a formula (an estimate for `nodes`, which may round up to whole
/// dimensions); `None` when it cannot tell (the spec is then refused, or small).
fn terminals(text: &str) -> Option<f64> {
    let spec: Value = serde_json::from_str(text).ok()?;
    let t = spec.get("topology")?;
    let whole = |key: &str| t.get(key).and_then(Value::as_u64).map(|v| v as f64);
    let all = |key: &str| -> Option<f64> {
        t.get(key)?.as_array()?.iter().map(|v| v.as_u64().map(|x| x as f64)).product::<Option<f64>>()
    };
    if t.get("nodes").is_some() {
        return whole("nodes");
    }
    match t.get("family")?.as_str()? {
        "torus" | "mesh" => all("radices").or_else(|| Some(whole("k")?.powf(whole("n").unwrap_or(1.0)))),
        "ring" => whole("k"),
        "hypercube" => Some(2f64.powf(whole("n")?)),
        "ccc" => Some(whole("n")? * 2f64.powf(whole("n")?)),
        "butterfly" | "omega" => Some(whole("k")?.powf(whole("stages")?)),
        "nhop" => all("factors"),
        _ => None,
    }
}

/// A replacement literal: hostile or extreme-but-valid, evenly.
fn literal() -> impl Strategy<Value = &'static str> {
    prop_oneof![prop::sample::select(HOSTILE.to_vec()), prop::sample::select(EXTREME_BUT_VALID.to_vec())]
}

/// A valid base spec of one family, at most 1024 terminals, with the numeric paths a hostile
/// value may replace (topology fields first; `topology.name` is a two-level network's name,
/// whose first number is replaced).
fn family() -> impl Strategy<Value = (Value, Vec<&'static str>)> {
    prop_oneof![
        (2u32..=8, 1u32..=3, any::<bool>()).prop_map(|(k, n, bi)| (
            json!({"family": "torus", "k": k, "n": n, "bidirectional": bi}),
            vec!["topology.k", "topology.n", "topology.nodes"]
        )),
        (2u32..=8, 2u32..=8).prop_map(|(a, b)| (
            json!({"family": "torus", "radices": [a, b]}),
            vec!["topology.radices.0", "topology.radices.1"]
        )),
        (2u32..=8, 1u32..=3).prop_map(|(k, n)| (
            json!({"family": "mesh", "k": k, "n": n}),
            vec!["topology.k", "topology.n", "topology.nodes"]
        )),
        (2u32..=64, any::<bool>())
            .prop_map(|(k, bi)| (json!({"family": "ring", "k": k, "bidirectional": bi}), vec!["topology.k"])),
        (1u32..=8)
            .prop_map(|n| (json!({"family": "hypercube", "n": n}), vec!["topology.n", "topology.nodes"])),
        (4u32..=256).prop_map(|n| (json!({"family": "midimew", "nodes": n}), vec!["topology.nodes"])),
        (1u32..=3, 1u32..=4).prop_map(|(a, d)| (
            json!({"family": "circulant", "nodes": 64, "a": a, "b": a + d}),
            vec!["topology.nodes", "topology.a", "topology.b"]
        )),
        (prop::sample::select(vec!["butterfly", "omega"]), 2u32..=4, 1u32..=4).prop_map(|(f, k, s)| (
            json!({"family": f, "k": k, "stages": s}),
            vec!["topology.k", "topology.stages", "topology.nodes"]
        )),
        prop::sample::select(vec![4u32, 16, 64, 256, 1024])
            .prop_map(|n| (json!({"family": "fat-tree", "nodes": n}), vec!["topology.nodes"])),
        (2u32..=32).prop_map(|n| (json!({"family": "complete", "nodes": n}), vec!["topology.nodes"])),
        prop::collection::vec(2u32..=6, 1..=3)
            .prop_map(|f| (json!({"family": "nhop", "factors": f}), vec!["topology.factors.0"])),
        (3u32..=6).prop_map(|n| (json!({"family": "ccc", "n": n}), vec!["topology.n"])),
        (2u32..=64).prop_map(|n| (json!({"family": "crossbar", "nodes": n}), vec!["topology.nodes"])),
        prop::sample::select(vec!["Butterfly.16.8", "Xbar.32.8", "2hop.32.64-32", "Butterfly.8-2dil.8"])
            .prop_map(|name| (
                json!({"family": "two-level", "name": name}),
                vec!["topology.nodes", "topology.modules", "topology.name"]
            )),
    ]
}

/// The fields that set a run's length: at most one of them is replaced.
const LENGTH: [&str; 3] = ["run.warmup", "run.messages", "run.max-cycles"];
/// The other numeric fields every spec has.
const OTHER: [&str; 4] = ["workload.rate", "workload.size", "workload.locality", "run.seed"];

/// A spec's text: a valid base, then one or two fields replaced by hostile literals.
#[derive(Debug, Clone)]
struct Hostile {
    text: String,
    replaced: Vec<(&'static str, &'static str)>,
}

fn hostile_spec() -> impl Strategy<Value = Hostile> {
    let base = (
        family(),
        0.001f64..0.05,
        1u32..=8,
        10u64..=200,
        2_000u64..=20_000,
        prop::option::of(0u64..=1_000),
        any::<u64>(),
    );
    let picks = (
        any::<prop::sample::Index>(),
        prop::option::weighted(0.3, (any::<prop::sample::Index>(), literal())),
        literal(),
    );
    (base, picks)
        .prop_map(|((fam, rate, size, messages, max_cycles, warmup, seed), (first, length, value))| {
            let (topology, topology_paths) = fam;
            let mut run = json!({"messages": messages, "max-cycles": max_cycles, "seed": seed});
            if let Some(w) = warmup {
                run["warmup"] = json!(w);
            }
            let mut spec =
                json!({"topology": topology, "workload": {"rate": rate, "size": size}, "run": run});
            // The first replacement is any non-length field; the optional second a length field.
            let others: Vec<&'static str> = topology_paths.into_iter().chain(OTHER).collect();
            let mut replaced = vec![(others[first.index(others.len())], value)];
            if let Some((i, v)) = length {
                replaced.push((LENGTH[i.index(LENGTH.len())], v));
            }
            for (n, (path, literal)) in replaced.iter().enumerate() {
                place(&mut spec, path, n, literal);
            }
            let mut text = serde_json::to_string_pretty(&spec).unwrap();
            for (n, (_, literal)) in replaced.iter().enumerate() {
                text = text.replace(&format!("\"@{n}@\""), literal);
            }
            Hostile { text, replaced }
        })
        .prop_filter("a valid network of more than 65,536 terminals: a long run, not a hostile input", |h| {
            terminals(&h.text).is_none_or(|n| n <= LONG_RUN_TERMINALS || n > (1u64 << 24) as f64)
        })
}

/// Puts the placeholder string `"@n@"` at `path` (dotted; a number indexes an array), which
/// the text then replaces by `literal`; in a two-level network's name (`topology.name`) the
/// literal, unquoted, replaces the first number: `Butterfly.4294967296.8`, `Butterfly.NaN.8`.
fn place(spec: &mut Value, path: &str, n: usize, literal: &str) {
    let mut at = spec;
    let parts: Vec<&str> = path.split('.').collect();
    for (i, p) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        if last && *p == "name" {
            let name = at["name"].as_str().unwrap().to_string();
            let mut pieces: Vec<&str> = name.split('.').collect();
            pieces[1] = literal.trim_matches('"');
            at["name"] = Value::String(pieces.join("."));
            return;
        }
        match p.parse::<usize>() {
            Ok(k) if last => at[k] = Value::String(format!("@{n}@")),
            Ok(k) => at = &mut at[k],
            Err(_) if last => at[*p] = Value::String(format!("@{n}@")),
            Err(_) => at = &mut at[*p],
        }
    }
}

static CASE: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, max_shrink_iters: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_spec_is_answered_honestly_in_bounded_time_and_memory(h in hostile_spec()) {
        let dir = scratch("spec-fuzz");
        let file = dir.join(format!("spec-{}.json", CASE.fetch_add(1, Ordering::Relaxed)));
        std::fs::write(&file, &h.text).unwrap();
        let args = vec!["run".to_string(), file.display().to_string(), "--json".to_string()];
        let run = run_bounded(&args, LIMITS, None);
        let _ = std::fs::remove_file(&file);
        let why = || format!("{}\nreplaced {:?} in\n{}", run.describe(), h.replaced, h.text);
        prop_assert!(!run.misbehaved(), "{}", why());
        let status = run.status.unwrap_or(-1);
        prop_assert!([0, 2, 3, 5, 7].contains(&status), "{}", why());
        if status == 2 {
            prop_assert!(run.stderr.starts_with("netwrap: error: "), "{}", why());
        } else {
            let report: Value = serde_json::from_str(&run.stdout)
                .map_err(|e| TestCaseError::fail(format!("the report is not JSON ({e}): {}", why())))?;
            let verdict = match status { 0 => "ok", 3 => "saturated", 7 => "not-steady", _ => "limit-reached" };
            prop_assert!(report["verdict"] == verdict, "verdict {} for status {status}: {}", report["verdict"], why());
        }
    }
}

/// The size filter counts what the families build (verification: the families' formulas).
#[test]
fn the_size_filter_counts_terminals_by_each_familys_formula() {
    let count = |t: &str| terminals(&format!("{{\"topology\": {t}}}"));
    assert_eq!(count(r#"{"family": "mesh", "k": 64, "n": 3}"#), Some(262_144.0));
    assert_eq!(count(r#"{"family": "ccc", "n": 16}"#), Some(1_048_576.0));
    assert_eq!(count(r#"{"family": "torus", "radices": [64, 8]}"#), Some(512.0));
    assert_eq!(count(r#"{"family": "butterfly", "k": 4, "stages": 3}"#), Some(64.0));
    assert_eq!(count(r#"{"family": "hypercube", "n": 10}"#), Some(1024.0));
    assert_eq!(count(r#"{"family": "midimew", "nodes": 64}"#), Some(64.0));
    assert_eq!(count(r#"{"family": "torus", "k": NaN, "n": 2}"#), None);
    assert_eq!(count(r#"{"family": "torus", "k": -1, "n": 2}"#), None);
}
