//! The first hour of a new user: what netwrap says to someone who has just installed it and
//! makes the usual mistakes (issue 21, item 7).

use crate::{netwrap, scratch};
use predicates::prelude::*;

/// Verification against each file's own text (line numbers counted by hand in the strings
/// below): an error about a sweep axis names the experiment file and the axis's line, for
/// every kind of error met there (a wrong type, an unknown field, a scalar axis, a value out
/// of range, a topology that cannot be), all with status 2.
#[test]
fn sweep_axis_errors_name_the_file_and_line() {
    let dir = scratch("first-hour-axes");
    let head = "[topology]\nfamily = \"torus\"\nk = 8\n\n[sweep]\n";
    let cases = [
        (
            "wrong-type.toml",
            "\"workload.size\" = [2]\n\"workload.rate\" = [0.01, \"x\"]\n",
            "sweep point 1",
            7,
        ),
        ("misspelt.toml", "\"workload.rat\" = [0.01, 0.02]\n", "unknown field `rat`", 6),
        ("scalar.toml", "\"workload.rate\" = 0.01\n", "an axis is a list of values", 6),
        ("range.toml", "\"workload.rate\" = [0.01, 2.0]\n", "workload.rate = 2: the request rate", 6),
        ("radix.toml", "\"topology.k\" = [4, 1]\n", "sweep point 1 (topology.k = 1): topology.k = 1", 6),
    ];
    for (name, sweep, says, line) in cases {
        let file = dir.join(name);
        std::fs::write(&file, format!("{head}{sweep}")).unwrap();
        let file = file.display().to_string();
        netwrap().args(["run", &file, "--quiet"]).assert().code(2).stderr(
            predicate::str::contains(format!("in {file}: "))
                .and(predicate::str::contains(says))
                .and(predicate::str::contains(format!("(line {line})"))),
        );
    }
}

/// Characterisation of a swept topology's naming: the table, the CSV and the header name each
/// network as `netwrap sim` spells it (`torus k=4 n=2 bidirectional`), never as JSON, and the
/// header says which values are swept instead of naming the first point's network.
#[test]
fn swept_topologies_are_named_as_the_command_line_names_them() {
    let dir = scratch("first-hour-names");
    let file = dir.join("two.toml");
    std::fs::write(
        &file,
        "[run]\nmessages = 200\n\n[sweep]\n\"workload.rate\" = [0.01, 0.02]\n\n[[sweep.zip]]\ntopology = [\n  { family = \"torus\", k = 4, n = 2, bidirectional = true },\n  { family = \"midimew\", nodes = 16 },\n]\n",
    )
    .unwrap();
    let csv = dir.join("two.csv");
    let out = netwrap().arg("run").arg(&file).arg("--csv").arg(&csv).arg("--quiet").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8(out.stdout).unwrap();
    let mut lines = table.lines();
    assert_eq!(lines.next(), Some("netwrap 0.1.0 sim: networks swept; seed 1"), "{table}");
    assert_eq!(
        lines.next(),
        Some("swept: workload.rate = 0.01, 0.02; topology = torus k=4 n=2 bidirectional, midimew nodes=16"),
        "{table}"
    );
    assert!(table.contains(" torus k=4 n=2 bidirectional ") && !table.contains('{'), "{table}");
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(
        csv.contains(",0.01,torus k=4 n=2 bidirectional,ok,") && csv.contains(",0.02,midimew nodes=16,"),
        "{csv}"
    );
    assert!(!csv.contains('{'), "{csv}");
}

/// `run --help` points to nothing an installed user lacks (the repository's docs/): it says
/// what an experiment file holds.
#[test]
fn run_help_describes_the_file_format_itself() {
    netwrap().args(["run", "--help"]).assert().success().stdout(
        predicate::str::contains("docs/").not().and(predicate::str::contains("[sweep] table of axes")),
    );
}

/// A page written alone does not link an index that is not there; `all` writes the index and
/// its pages link it, and a page written later beside that index links it too.
#[test]
fn a_page_links_the_index_only_when_there_is_one() {
    let dir = scratch("first-hour-index");
    netwrap().args(["reproduce", "homework-ex-4", "--quiet", "--out"]).arg(&dir).assert().success();
    let page = std::fs::read_to_string(dir.join("homework-ex-4.md")).unwrap();
    assert!(!dir.join("README.md").exists() && !page.contains("README.md"), "{page}");
    std::fs::write(dir.join("README.md"), "# an index\n").unwrap();
    netwrap().args(["reproduce", "homework-ex-4", "--quiet", "--out"]).arg(&dir).assert().success();
    let page = std::fs::read_to_string(dir.join("homework-ex-4.md")).unwrap();
    assert!(page.contains("[All pages](README.md)"), "{page}");
}

/// Verification: a heat map of a `--channels` CSV drawn on the network the file records is
/// the one drawn on that network named after the options, byte for byte (a torus and a
/// Midimew).
#[test]
fn a_heat_map_reads_its_network_from_the_channels_file() {
    let dir = scratch("first-hour-heatmap");
    for (name, family) in
        [("t4", &["torus", "--k", "4", "--bidirectional"][..]), ("m16", &["midimew", "--nodes", "16"][..])]
    {
        let csv = dir.join(format!("{name}.csv"));
        netwrap()
            .arg("sim")
            .args(family)
            .args(["--messages", "300", "--rate", "0.05", "--channels"])
            .arg(&csv)
            .assert()
            .success();
        let [named, recorded] = ["named", "recorded"].map(|w| dir.join(format!("{name}-{w}.svg")));
        netwrap()
            .arg("plot")
            .arg(&csv)
            .args(["--heatmap", "utilization", "--out"])
            .arg(&named)
            .args(family)
            .assert()
            .success();
        netwrap()
            .arg("plot")
            .arg(&csv)
            .args(["--heatmap", "utilization", "--out"])
            .arg(&recorded)
            .assert()
            .success();
        assert_eq!(std::fs::read(&named).unwrap(), std::fs::read(&recorded).unwrap(), "{name}");
    }
}

/// Characterisation of a chart's colours and saturation marks: no yellow (Plotters' default
/// palette drew the third curve in (255, 225, 25), unreadable on white), and two curves
/// saturated at one rate get marks at two heights, not one over the other.
#[test]
fn charts_use_colours_readable_on_white_and_keep_saturation_marks_apart() {
    let dir = scratch("first-hour-chart");
    let csv = dir.join("three.csv");
    std::fs::write(
        &csv,
        "point,replication,workload.rate,workload.size,verdict,saturated,latency\n\
         0,0,0.01,2,ok,false,10\n1,0,0.01,4,ok,false,12\n2,0,0.01,6,ok,false,14\n\
         3,0,0.09,2,saturated,true,\n4,0,0.09,4,saturated,true,\n5,0,0.09,6,saturated,true,\n",
    )
    .unwrap();
    let svg = dir.join("three.svg");
    netwrap().arg("plot").arg(&csv).arg("--out").arg(&svg).assert().success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(!text.to_ascii_uppercase().contains("#FFE119"), "yellow in the chart");
    // Each saturation mark is a cross of two lines; their heights, one per curve.
    let mut heights: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("<line") && l.contains("stroke-width=\"2\""))
        .filter_map(|l| l.split("y1=\"").nth(1)?.split('"').next())
        .collect();
    heights.sort();
    heights.dedup();
    assert!(heights.len() >= 3, "marks at {heights:?}");
}
