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
        "latency against request rate",
        "request rate (messages/node/cycle)",
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
    // For print: --size WIDTHxHEIGHT.
    netwrap().arg("plot").arg(&csv).args(["--size", "1600x1120", "--out"]).arg(&png).assert().code(0);
    let bytes = std::fs::read(&png).unwrap();
    let size = [16..20, 20..24].map(|r| u32::from_be_bytes(bytes[r].try_into().unwrap()));
    assert_eq!(size, [1600, 1120]);
    netwrap()
        .arg("plot")
        .arg(&csv)
        .args(["--size", "16x11", "--out"])
        .arg(&png)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("a size is WIDTHxHEIGHT in pixels"));
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
    assert!(text.contains("message size = 2") && text.contains("message size = 4"), "one curve per size");
    netwrap().args(["sim", "--plot", "x.svg"]).assert().code(2).stderr(predicates::str::contains("--rates"));
}

/// A plotted sweep draws the model dashed over it wherever one applies, though the spec asks
/// for none: a 4×8 mesh (unequal radices: the per-channel model) gets the model's column in
/// its CSV, one value per point, and the dashed curve in its SVG, which `netwrap plot` draws
/// again from the CSV; `--no-model` draws none; the virtual-channel router's sweep on a
/// dragonfly draws its model, and storing and forwarding (no model applies) plots without one,
/// and without a word.
#[test]
fn a_plotted_sweep_draws_the_model_where_one_applies() {
    let dir = scratch("plot-model");
    let (svg, csv) = (dir.join("mesh.svg"), dir.join("mesh.csv"));
    let sweep = ["sim", "--rates", "0.02,0.04", "--messages", "500", "--quiet"];
    netwrap()
        .args(sweep)
        .arg("--plot")
        .arg(&svg)
        .arg("--csv")
        .arg(&csv)
        .args(["mesh", "--radices", "4,8"])
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("dashed: the model"));
    let text = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|h| *h == "model_latency").unwrap();
    let values: Vec<f64> =
        text.lines().skip(1).map(|l| l.split(',').nth(column).unwrap().parse().unwrap()).collect();
    assert_eq!(values.len(), 2);
    assert!(values[0] > 7.875 && values[1] > values[0], "above T0 = 7.875, rising: {values:?}");
    let again = dir.join("again.svg");
    netwrap().arg("plot").arg(&csv).arg("--out").arg(&again).assert().code(0);
    assert!(std::fs::read_to_string(&again).unwrap().contains("dashed: the model"));
    netwrap()
        .args(sweep)
        .arg("--plot")
        .arg(&svg)
        .args(["--no-model", "mesh", "--radices", "4,8"])
        .assert()
        .code(0);
    assert!(!std::fs::read_to_string(&svg).unwrap().contains("dashed: the model"));
    // An experiment file alike; with a `model` section it asks for the model, and refuses
    // --no-model.
    let file = dir.join("mesh.toml");
    let text = "[topology]\nfamily = \"mesh\"\nradices = [4, 8]\n[run]\nmessages = 500\n[sweep]\n\"workload.rate\" = [0.02, 0.04]\n";
    std::fs::write(&file, text).unwrap();
    netwrap().current_dir(&dir).arg("run").arg(&file).args(["--plot", "--quiet"]).assert().code(0);
    assert!(std::fs::read_to_string(dir.join("mesh-latency.svg")).unwrap().contains("dashed: the model"));
    std::fs::write(&file, format!("{text}[model]\n")).unwrap();
    netwrap()
        .current_dir(&dir)
        .arg("run")
        .arg(&file)
        .args(["--plot", "--no-model"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--no-model, and the spec asks for the model"));
    // The VC router's sweep draws its model (Greenberg & Guan 1997 §2 on every channel); one
    // it does not describe (store-and-forward) draws none, and says nothing of it.
    netwrap().args(sweep).arg("--plot").arg(&svg).args(["--router", "vc", "dragonfly"]).assert().code(0);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("dashed: the model"));
    let out = netwrap()
        .args(sweep)
        .arg("--plot")
        .arg(&svg)
        .args(["--router", "vc", "--switching", "saf", "dragonfly"])
        .assert()
        .code(0);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(stderr, format!("netwrap: plot: {}\n", svg.display()), "nothing said of a model");
    assert!(!std::fs::read_to_string(&svg).unwrap().contains("dashed: the model"));
}

/// A `--channels` CSV of a short run of `family` (its arguments after `sim`) on the VC router.
fn channels_csv(dir: &std::path::Path, name: &str, family: &[&str]) -> std::path::PathBuf {
    let csv = dir.join(name);
    netwrap()
        .arg("sim")
        .args(family)
        .args(["--router", "vc", "--messages", "300", "--rate", "0.05", "--channels"])
        .arg(&csv)
        .assert()
        .code(0);
    csv
}

/// Draws `csv` as a heat map of `column` on `family` into an SVG and returns its text.
fn heat_map(csv: &std::path::Path, column: &str, family: &[&str]) -> String {
    let svg = csv.with_extension("svg");
    netwrap()
        .arg("plot")
        .arg(csv)
        .args(["--heatmap", column, "--out"])
        .arg(&svg)
        .args(family)
        .assert()
        .code(0)
        .stdout(format!("{}\n", svg.display()));
    std::fs::read_to_string(&svg).unwrap()
}

/// Verification: a 4×4 bidirectional torus's heat map has one coloured arrow (polygon) per
/// channel — 16 routers × 4 — its routers as numbered boxes, and a colour bar of 64 slices
/// labelled with the column, its unit and its ticks (utilisation runs 0 to 1).
#[test]
fn a_torus_heat_map_has_an_arrow_per_channel_and_a_labelled_colour_bar() {
    let dir = scratch("heatmap-torus");
    let csv = channels_csv(&dir, "t4.csv", &["torus", "--k", "4", "--bidirectional"]);
    let text = heat_map(&csv, "utilization", &["torus", "--k", "4", "--bidirectional"]);
    assert!(text.starts_with("<svg"));
    assert_eq!(count(&text, "<polygon"), 64, "one arrow per channel");
    // Per router a filled box and its border; 64 colour-bar slices and the bar's border.
    assert_eq!(count(&text, "<rect"), 16 * 2 + 64 + 1 + 1, "the background, boxes and the bar");
    for label in [
        "utilization per channel: 4-ary 2-cube (torus, bidirectional)",
        "(busy fraction of cycles)",
        "wrap-around channels are stubs",
    ] {
        assert!(text.contains(label), "no {label:?} in the SVG");
    }
    // Tick labels and router numbers, each a text element's whole content.
    for label in ["0", "0.25", "0.75", "1", "15"] {
        assert!(text.lines().any(|l| l.trim() == label), "no text {label:?} in the SVG");
    }
}

/// Verification: a 16-node Midimew, C_16(2,3), is drawn on Puente et al. 1999 Fig. 1's layout
/// with an arrow per channel (16 × 4) and occupancy in flits on its colour bar.
#[test]
fn a_midimew_heat_map_uses_the_mesh_with_wrap_around_layout() {
    let dir = scratch("heatmap-midimew");
    let csv = channels_csv(&dir, "m16.csv", &["midimew", "--nodes", "16"]);
    let text = heat_map(&csv, "occupancy", &["midimew", "--nodes", "16"]);
    assert_eq!(count(&text, "<polygon"), 64, "one arrow per channel");
    for label in ["Midimew 16 = C_16(2,3)", "(flits, mean over cycles, all VCs)", "2 columns x 8 rows"] {
        assert!(text.contains(label), "no {label:?} in the SVG");
    }
}

/// Characterisation (golden files): the heat maps in docs/plots that reproduce Puente et al.
/// 1999 Fig. 8 are what the committed CSVs and today's drawing make (a changed drawing or CSV
/// fails here; the commands are in docs/validation.md).
#[test]
fn committed_heat_maps_are_current() {
    let dir = scratch("heatmap-golden");
    for (name, title, family) in [
        ("torus-16x16", "16x16 torus", &["torus", "--k", "16", "--bidirectional"][..]),
        ("midimew-256", "256-node Midimew", &["midimew", "--nodes", "256"][..]),
    ] {
        let out = dir.join(format!("{name}.svg"));
        netwrap()
            .current_dir(crate::root())
            .arg("plot")
            .arg(format!("docs/validation/puente-fig-8-{name}.csv"))
            .args(["--heatmap", "vc1", "--max", "80", "--title"])
            .arg(format!("Adaptive VC occupancy, transpose at offered load 0.5: {title}"))
            .arg("--out")
            .arg(&out)
            .args(family)
            .assert()
            .code(0);
        let committed = crate::root().join(format!("docs/plots/puente-fig-8-{name}.svg"));
        let committed = std::fs::read_to_string(&committed)
            .unwrap_or_else(|_| panic!("docs/plots/puente-fig-8-{name}.svg is missing"));
        assert!(
            std::fs::read_to_string(&out).unwrap() == committed,
            "docs/plots/puente-fig-8-{name}.svg is stale"
        );
    }
}

/// Verification of refusals (status 2, said in words): a family without a 2-D drawing, a CSV
/// made on another network (other channel count, or same count and other wiring), an unknown
/// column, an absent point, no occupancy from the ideal router, no network named or recorded.
#[test]
fn heat_maps_refuse_what_they_cannot_draw() {
    let dir = scratch("heatmap-bad");
    let csv = channels_csv(&dir, "t4.csv", &["torus", "--k", "4", "--bidirectional"]);
    let ideal = dir.join("ideal.csv");
    netwrap()
        .args(["sim", "--k", "4", "--messages", "200", "--rate", "0.05", "--channels"])
        .arg(&ideal)
        .assert()
        .code(0);
    // A file written before the network was recorded.
    let old = dir.join("old.csv");
    std::fs::write(&old, "point,channel,from,to,class,utilization\n0,0,0,1,dim 0,0.5\n").unwrap();
    let svg = dir.join("x.svg").display().to_string();
    let cases: &[(&std::path::Path, &[&str], &str)] = &[
        (
            &csv,
            &["--heatmap", "utilization", "--out", &svg, "butterfly", "--k", "2"],
            "no 2-D drawing; the families with one are tori and meshes",
        ),
        (&csv, &["--heatmap", "utilization", "--out", &svg, "hypercube", "--n", "4"], "no 2-D drawing"),
        (
            &csv,
            &["--heatmap", "utilization", "--out", &svg, "torus", "--k", "5", "--bidirectional"],
            "point 0 has 64 channels, but 5-ary 2-cube (torus, bidirectional) has 100: the CSV was made on another network",
        ),
        (
            &csv,
            &["--heatmap", "utilization", "--out", &svg, "midimew", "--nodes", "16"],
            "line 2: channel 0 goes from router 0 to 2 in Midimew 16 = C_16(2,3), not from 0 to 1",
        ),
        (
            &csv,
            &["--heatmap", "occupncy", "--out", &svg, "torus", "--k", "4", "--bidirectional"],
            "--heatmap: no column \"occupncy\" (did you mean occupancy?)",
        ),
        (
            &csv,
            &[
                "--heatmap",
                "utilization",
                "--point",
                "3",
                "--out",
                &svg,
                "torus",
                "--k",
                "4",
                "--bidirectional",
            ],
            "--point 3: the file holds point(s) 0",
        ),
        (
            &ideal,
            &["--heatmap", "occupancy", "--out", &svg, "torus", "--k", "4"],
            "no occupancy value (buffer occupancy is measured by `--router vc` only)",
        ),
        (&old, &["--heatmap", "utilization", "--out", &svg], "the file records no network"),
        (&csv, &["--out", &svg, "torus", "--k", "4"], "`torus` names the network of a --heatmap"),
    ];
    for (file, args, says) in cases {
        netwrap().arg("plot").arg(file).args(*args).assert().code(2).stderr(predicates::str::contains(*says));
    }
}

/// Values an axis cannot span are refused with status 2 and a sentence, in bounded time: y
/// values of ±1e308 (whose span overflows; the tick computation never ended on them), and a
/// logarithmic axis over 600 decades.
#[test]
fn an_axis_that_cannot_be_drawn_is_refused() {
    let dir = scratch("plot-extremes");
    let text = std::fs::read_to_string(sweep_csv(&dir)).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let column = lines[0].split(',').position(|c| c == "latency").unwrap();
    let with = |values: [&str; 2]| -> String {
        let mut out = lines.clone();
        for (row, v) in out.iter_mut().skip(1).zip(values) {
            let mut cells: Vec<&str> = row.split(',').collect();
            cells[column] = v;
            *row = cells.join(",");
        }
        out.join("\n") + "\n"
    };
    for (name, values, log, says) in [
        ("huge", ["1e308", "-1e308"], false, "a range no axis can span"),
        ("decades", ["1e-300", "1e300"], true, "decades, more than the 100 an axis draws"),
    ] {
        let csv = dir.join(format!("{name}.csv"));
        std::fs::write(&csv, with(values)).unwrap();
        let mut args = vec![
            "plot".to_string(),
            csv.display().to_string(),
            "--out".into(),
            dir.join("x.svg").display().to_string(),
        ];
        if log {
            args.push("--log-y".into());
        }
        netwrap()
            .args(&args)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}
