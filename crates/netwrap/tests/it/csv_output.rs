//! `--csv FILE|-` on the commands that print a table: the models and `topo` (one result, one
//! row), `cost` (a row per network), `design` (a row per candidate), `saturation` (a row per
//! probe) and `bench` (a row per configuration). One column per field of the JSON's result or
//! item (nested fields under dotted names), the same numbers as the JSON printer's; `-`
//! replaces the table, a file is written besides it.
use crate::{netwrap, scratch};
use serde_json::Value;

/// The four model commands, each at a point below saturation, and `topo` (a Midimew with its
/// mapping, a list), each with columns it must have.
const COMMANDS: [(&[&str], &[&str]); 7] = [
    (&["model", "kary-ncube", "--k", "8", "--n", "2", "--rate", "0.04", "--size", "4"], MODEL_COLUMNS),
    (
        &["model", "indirect", "--k", "4", "--n", "3", "--rate", "0.01", "--bits", "128", "--pins", "64"],
        MODEL_COLUMNS,
    ),
    (
        &[
            "model",
            "feedback",
            "--k",
            "8",
            "--n",
            "2",
            "--rate",
            "0.04",
            "--size",
            "4",
            "--switch-delay",
            "1",
        ],
        MODEL_COLUMNS,
    ),
    (&["model", "fat-tree", "--nodes", "64", "--rate", "0.001", "--size", "16"], MODEL_COLUMNS),
    (&["topo", "torus", "--k", "4", "--n", "2"], TOPO_COLUMNS),
    (&["topo", "fat-tree", "--nodes", "64"], TOPO_COLUMNS),
    (&["topo", "midimew", "--nodes", "10", "--mapping"], TOPO_COLUMNS),
];

/// Columns every model's CSV has: the keys a simulation report shares.
const MODEL_COLUMNS: &[&str] =
    &["model", "netwrap_version", "utilization", "latency", "saturated", "max_rate"];

/// Columns every topology's CSV has.
const TOPO_COLUMNS: &[&str] =
    &["netwrap_version", "name", "nodes", "diameter", "average_distance", "bisection_width", "channel_load"];

/// Runs `args`, which must end with `status`, and returns its standard output.
fn stdout(args: &[&str], status: i32) -> String {
    let out = netwrap().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(status), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Parses CSV text into its header and rows.
fn parse(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect();
    (header, rows)
}

/// The JSON result's leaves under dotted names, in order: the columns the docs promise.
fn leaves(prefix: &str, v: &Value, into: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(fields) => {
            for (key, field) in fields {
                let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                leaves(&name, field, into);
            }
        }
        other => into.push((prefix.to_string(), other.clone())),
    }
}

/// Whether a CSV cell says the same as a JSON value: a number the same `f64` exactly, none an
/// empty cell, text and booleans as written, a list the same JSON. The cell is read by the
/// same parser as the JSON (serde_json's, which is not exact in the last bit for every decimal
/// without its `float_roundtrip` feature), so equal text reads equal.
fn agrees(cell: &str, v: &Value) -> bool {
    match v {
        Value::Null => cell.is_empty(),
        Value::Number(n) => serde_json::from_str::<f64>(cell).ok() == n.as_f64(),
        Value::String(s) => cell == s,
        Value::Bool(b) => cell == b.to_string(),
        other => serde_json::from_str::<Value>(cell).ok().as_ref() == Some(other),
    }
}

/// Verification that the two printers agree: each command's `--csv -` is a header of exactly
/// the JSON result's fields (dotted where nested) and one row, whose every cell equals the
/// JSON's value; the metrics and the network's parameters are among the columns.
#[test]
fn csv_is_one_row_equal_to_the_json() {
    for (args, columns) in COMMANDS {
        let json: Value = serde_json::from_str(&stdout(&[args, &["--json"]].concat(), 0)).unwrap();
        let (header, rows) = parse(&stdout(&[args, &["--csv", "-"]].concat(), 0));
        let mut expected = Vec::new();
        leaves("", &json, &mut expected);
        let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(header, names, "{args:?}");
        assert_eq!(rows.len(), 1, "{args:?}");
        for ((name, value), cell) in expected.iter().zip(&rows[0]) {
            assert!(agrees(cell, value), "{args:?}: column {name} is {cell:?}, the JSON says {value}");
        }
        for column in columns {
            assert!(header.iter().any(|h| h == column), "{args:?}: no {column} column");
        }
        assert!(header.iter().any(|h| h.starts_with("config.")), "{args:?}: no config columns");
    }
}

/// Characterisation of where the CSV goes: `--csv FILE` writes the same CSV as `--csv -` and
/// leaves the table (and `--json`) on standard output unchanged; `--csv -` with `--json` prints
/// the CSV, as `netwrap sim` does.
#[test]
fn csv_file_is_written_besides_the_table() {
    let dir = scratch("csv-one-row");
    for (i, &(args, _)) in COMMANDS.iter().enumerate() {
        let file = dir.join(format!("{i}.csv"));
        let path = file.to_str().unwrap();
        let csv = stdout(&[args, &["--csv", "-"]].concat(), 0);
        assert_eq!(stdout(&[args, &["--csv", path]].concat(), 0), stdout(args, 0), "{args:?}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), csv, "{args:?}");
        let json = stdout(&[args, &["--json"]].concat(), 0);
        assert_eq!(stdout(&[args, &["--json", "--csv", path]].concat(), 0), json, "{args:?}");
        assert_eq!(stdout(&[args, &["--json", "--csv", "-"]].concat(), 0), csv, "{args:?}");
    }
}

/// Characterisation of a saturated model: the CSV row is printed, with `saturated` true and no
/// latency, and the status is still 3.
#[test]
fn a_saturated_model_still_writes_its_csv_row() {
    let (header, rows) = parse(&stdout(&["model", "kary-ncube", "--rate", "1", "--csv", "-"], 3));
    assert_eq!(rows.len(), 1);
    let col = |name: &str| &rows[0][header.iter().position(|h| h == name).unwrap()];
    assert_eq!(col("saturated"), "true");
    assert_eq!(col("latency"), "");
}

/// Verification that `cost`'s two printers agree: `--csv -` is a header of `modules` and the
/// fields of the JSON's rows, then one row per network of the JSON's `rows` (the skipped ones
/// named on standard error), every cell equal to the JSON's value; `--csv FILE` writes the
/// same and leaves the table unchanged.
#[test]
fn cost_csv_is_one_row_per_network_equal_to_the_json() {
    let args = ["cost", "--modules", "24", "--bisection", "4096", "--nhop", "4", "--toroid", "3"];
    let json: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat(), 0)).unwrap();
    let out = netwrap().args(args).args(["--csv", "-"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("skipped: Hypercube"));
    let text = String::from_utf8(out.stdout).unwrap();
    let (header, rows) = parse(&text);
    let json_rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), json_rows.len());
    assert!(rows.len() >= 8, "{text}");
    for (row, v) in rows.iter().zip(json_rows) {
        let mut expected = vec![("modules".to_string(), json["config"]["modules"].clone())];
        leaves("", v, &mut expected);
        let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(header, names);
        for ((name, value), cell) in expected.iter().zip(row) {
            assert!(agrees(cell, value), "column {name} is {cell:?}, the JSON says {value}");
        }
    }
    let file = scratch("csv-cost").join("cost.csv");
    let path = file.to_str().unwrap();
    assert_eq!(stdout(&[&args[..], &["--csv", path]].concat(), 0), stdout(&args, 0));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

/// Verification that `design`'s two printers agree: `--csv -` is a header of `rank`, the
/// fields of the JSON's candidates and, for those simulated, `simulated.*`, then one row per
/// candidate of the JSON, every cell equal to the JSON's value; `--csv FILE` writes the same
/// and leaves the table unchanged.
#[test]
fn design_csv_is_one_row_per_candidate_equal_to_the_json() {
    let args =
        ["design", "--nodes", "64", "--rate", "0.01", "--bits", "128", "--pins", "256", "--simulate", "1"];
    let args = [&args[..], &["--messages", "200"]].concat();
    let json: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat(), 0)).unwrap();
    let text = stdout(&[&args[..], &["--csv", "-"]].concat(), 0);
    let (header, rows) = parse(&text);
    let candidates = json["candidates"].as_array().unwrap();
    let simulated = json["simulated"].as_array().unwrap();
    assert_eq!(rows.len(), candidates.len());
    assert!(rows.len() >= 2 && simulated.len() == 1, "{text}");
    for (i, (row, v)) in rows.iter().zip(candidates).enumerate() {
        let mut expected = vec![("rank".to_string(), Value::from(i + 1))];
        leaves("", v, &mut expected);
        if let Some(s) = simulated.iter().find(|s| s["rank"] == i + 1) {
            leaves("simulated", s, &mut expected);
        }
        for (name, value) in &expected {
            let column = header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
            assert!(
                agrees(&row[column], value),
                "rank {}: {name} is {:?}, the JSON says {value}",
                i + 1,
                row[column]
            );
        }
        if i == 0 {
            let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(header, names);
        } else {
            assert!(
                header
                    .iter()
                    .filter(|h| h.starts_with("simulated."))
                    .all(|h| { row[header.iter().position(|x| x == h).unwrap()].is_empty() })
            );
        }
    }
    let file = scratch("csv-design").join("design.csv");
    let path = file.to_str().unwrap();
    assert_eq!(stdout(&[&args[..], &["--csv", path]].concat(), 0), stdout(&args, 0));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

/// Verification that `saturation`'s two printers agree: `--csv -` is a header of `probe` and
/// the fields of the JSON's probes, then one row per probe in the order the search ran them,
/// every cell equal to the JSON's value; `--csv FILE` writes the same and leaves the table
/// unchanged, and `sim --find-saturation --csv -` prints its probes with the same columns.
#[test]
fn saturation_csv_is_one_row_per_probe_equal_to_the_json() {
    let spec = crate::root().join("examples/saturation.toml");
    let args = ["saturation", spec.to_str().unwrap(), "--quiet"];
    let json: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat(), 0)).unwrap();
    let text = stdout(&[&args[..], &["--csv", "-"]].concat(), 0);
    let (header, rows) = parse(&text);
    let probes = json["probes"].as_array().unwrap();
    assert_eq!(rows.len(), probes.len());
    assert!(rows.len() >= 3, "{text}");
    for (i, (row, v)) in rows.iter().zip(probes).enumerate() {
        let mut expected = vec![("probe".to_string(), Value::from(i + 1))];
        leaves("", v, &mut expected);
        let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(header, names);
        for ((name, value), cell) in expected.iter().zip(row) {
            assert!(agrees(cell, value), "probe {}: {name} is {cell:?}, the JSON says {value}", i + 1);
        }
    }
    let file = scratch("csv-saturation").join("saturation.csv");
    let path = file.to_str().unwrap();
    assert_eq!(stdout(&[&args[..], &["--csv", path]].concat(), 0), stdout(&args, 0));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    let (sim_header, sim_rows) =
        parse(&stdout(&["sim", "--find-saturation", "--messages", "1000", "--quiet", "--csv", "-"], 0));
    assert_eq!(sim_header, header);
    assert!(sim_rows.len() >= 3);
}

/// Verification that `bench`'s two printers agree on the same run (its timings differ
/// between runs): `--json --csv FILE` prints the JSON and writes a header of the JSON's
/// fields (the spec's under `config.*`) and one row per configuration, every cell equal to
/// the JSON's value; `--csv -` prints the same columns and one row, instead of the table.
#[test]
fn bench_csv_is_one_row_per_configuration_equal_to_the_json() {
    let args = ["bench", "--only", "torus8x8", "--scale", "0.0001"];
    let file = scratch("csv-bench").join("bench.csv");
    let path = file.to_str().unwrap();
    let json: Value =
        serde_json::from_str(&stdout(&[&args[..], &["--json", "--csv", path]].concat(), 0)).unwrap();
    let (header, rows) = parse(&std::fs::read_to_string(&file).unwrap());
    let configs = json.as_array().unwrap();
    assert_eq!(rows.len(), configs.len());
    assert_eq!(rows.len(), 1);
    let mut expected = Vec::new();
    leaves("", &configs[0], &mut expected);
    let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(header, names);
    for ((name, value), cell) in expected.iter().zip(&rows[0]) {
        assert!(agrees(cell, value), "column {name} is {cell:?}, the JSON says {value}");
    }
    let (stdout_header, stdout_rows) = parse(&stdout(&[&args[..], &["--csv", "-"]].concat(), 0));
    assert_eq!(stdout_header, header);
    assert_eq!(stdout_rows.len(), 1);
}
