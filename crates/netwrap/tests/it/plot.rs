//! Plots: each kind is rendered and its file checked — the SVG's elements for the axes, the
//! series, the confidence bars, the model and the saturation marks; the PNG's signature and
//! size. These are verifications: what each picture must hold follows from the CSV drawn.

use crate::{netwrap, scratch};

/// A rate sweep with the model on the default 8×8 unidirectional torus, whose last rate is
/// beyond saturation (Agarwal 1991's ρ = m B k_d = 0.09 · 4 · 3.5 = 1.26), as CSV.
fn sweep_csv(dir: &std::path::Path) -> std::path::PathBuf {
    let csv = dir.join("sweep.csv");
    netwrap()
        .args(["sim", "--rates", "0.01,0.03,0.09", "--model", "--messages", "2000", "--csv"])
        .arg(&csv)
        .assert()
        .code(0);
    csv
}

fn count(text: &str, pattern: &str) -> usize {
    text.matches(pattern).count()
}

#[test]
fn an_svg_holds_the_axes_the_points_their_bars_the_model_and_the_saturation_mark() {
    let dir = scratch("plot-svg");
    let csv = sweep_csv(&dir);
    let svg = dir.join("latency.svg");
    netwrap()
        .arg("plot")
        .arg(&csv)
        .arg("--out")
        .arg(&svg)
        .assert()
        .code(0)
        .stdout(format!("{}\n", svg.display()));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..80.min(text.len())]);
    for label in [
        "latency against workload.rate",
        "workload.rate (messages/node/cycle)",
        "latency (cycles)",
        "simulation",
        "dashed: the model",
        "saturated (top edge)",
    ] {
        assert!(text.contains(label), "no {label:?} in the SVG");
    }
    // Two stable points drawn as filled markers, plus the legend's marker.
    let filled = text.lines().filter(|l| l.starts_with("<circle") && !l.contains("fill=\"none\"")).count();
    assert_eq!(filled, 3, "filled markers");
    assert!(text.contains("stroke-dasharray") || count(&text, "<polyline") > 10, "the model's dashes");
}

#[test]
fn a_png_is_a_png_of_the_stated_size() {
    let dir = scratch("plot-png");
    let csv = sweep_csv(&dir);
    let png = dir.join("latency.png");
    netwrap()
        .arg("plot")
        .arg(&csv)
        .args(["--y", "throughput", "--log-x", "--out"])
        .arg(&png)
        .assert()
        .code(0);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian, at bytes 16..24.
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (800, 560));
    assert!(bytes.len() > 10_000, "a picture with text and curves, not a blank: {} bytes", bytes.len());
}

#[test]
fn a_sweep_draws_its_plot_and_a_single_run_refuses_to() {
    let dir = scratch("plot-run");
    let exp = dir.join("grid.toml");
    std::fs::write(
        &exp,
        "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[run]\nmessages = 500\n[sweep]\n\"workload.rate\" = [0.02, 0.04]\n\"workload.size\" = [2, 4]\n",
    )
    .unwrap();
    netwrap().current_dir(&dir).arg("run").arg(&exp).arg("--plot").assert().code(0);
    let text = std::fs::read_to_string(dir.join("grid-latency.svg")).unwrap();
    assert!(text.contains("workload.size = 2") && text.contains("workload.size = 4"), "one curve per size");
    netwrap().args(["sim", "--plot", "x.svg"]).assert().code(2).stderr(predicates::str::contains("--rates"));
}
