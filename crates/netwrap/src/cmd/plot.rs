//! `netwrap plot`: a sweep's CSV as a chart — simulated points with their confidence
//! intervals, the model dashed over them when the file has it, saturated points marked — or,
//! with `--heatmap`, a `--channels` CSV as a heat map on the network's 2-D drawing.
//!
//! A heat map reads its network from the CSV (the `network` column `--channels` writes), or
//! takes it the way `netwrap sim` does, as a family and its options after the plot's own
//! (`… --heatmap occupancy torus --k 16 --bidirectional`); its rows are checked channel by
//! channel against the network built, so a file made on another network is refused rather
//! than drawn wrongly.

use crate::chart;
use crate::heatmap;
use crate::output;
use crate::table::{Axes, Table};
use anyhow::{Context, bail};
use clap::Args;
use netwrap_topo::TopologySpec;
use netwrap_topo::cli::positive;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Draw a CSV of results (`netwrap run … --csv`, `figure`'s files, any tidy CSV), or with
/// --heatmap a `--channels` CSV on the drawing of the network it records (`netwrap plot ch.csv
/// --heatmap occupancy`), or of one named after the options as for `netwrap sim`.
#[derive(Debug, Args)]
#[command(
    subcommand_value_name = "FAMILY",
    subcommand_help_heading = "With --heatmap: the network the CSV was made on (default: the one it records)"
)]
pub struct PlotArgs {
    /// The CSV file (`-` for standard input).
    pub file: PathBuf,
    /// Column on the x axis (default: a sweep's first parameter).
    #[arg(long, global = true)]
    pub x: Option<String>,
    /// Column on the y axis; its confidence interval is the column Y_ci95 and its model the
    /// column model_Y, when the file has them.
    #[arg(long, default_value = "latency", global = true)]
    pub y: String,
    /// Columns whose values tell the curves apart, comma-separated (default: a sweep's other
    /// parameters that vary).
    #[arg(long, value_delimiter = ',', global = true)]
    pub series: Option<Vec<String>>,
    /// Where to write, FILE.svg or FILE.png (default: beside the CSV, its name ending in -Y.svg).
    #[arg(long, short, global = true)]
    pub out: Option<PathBuf>,
    /// Logarithmic x axis.
    #[arg(long, global = true)]
    pub log_x: bool,
    /// Logarithmic y axis.
    #[arg(long, global = true)]
    pub log_y: bool,
    /// Caption (default: the y column against the x column).
    #[arg(long, global = true)]
    pub title: Option<String>,
    /// A chart's size in pixels, WIDTHxHEIGHT (default 800x560; 1600x1120 prints sharp at
    /// twice the size); text keeps its size, so a larger chart has room for more.
    #[arg(long, value_name = "WIDTHxHEIGHT", global = true, value_parser = pixels, conflicts_with = "heatmap")]
    pub size: Option<(u32, u32)>,
    /// Draw a `--channels` CSV as a heat map on the network's 2-D drawing (tori, meshes and
    /// rings of one or two dimensions, Midimews), coloured by COLUMN: utilization, occupancy,
    /// or one VC's occupancy (vc0, vc1, …).
    #[arg(long, value_name = "COLUMN", global = true, conflicts_with_all = ["x", "series", "log_x", "log_y"])]
    pub heatmap: Option<String>,
    /// With --heatmap: the point to draw, when the file holds several (its `point` column).
    #[arg(long, global = true, value_parser = netwrap_topo::cli::count::<0>)]
    pub point: Option<u64>,
    /// With --heatmap: the value at the top of the colour scale (default: 1 for utilization,
    /// else the largest value drawn, rounded up to 1, 2, 2.5 or 5 times a power of ten); larger
    /// values take its colour.
    #[arg(long, global = true, value_parser = positive, allow_negative_numbers = true)]
    pub max: Option<f64>,
    /// With --heatmap: the network the CSV was made on, a family and its options as for
    /// `netwrap sim` (default: the network the CSV records).
    #[command(subcommand)]
    pub family: Option<netwrap_topo::TopologySpec>,
}

/// Runs `netwrap plot` with its parsed arguments.
pub fn run(a: PlotArgs) -> anyhow::Result<()> {
    let text = if a.file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("cannot read standard input")?;
        s
    } else {
        std::fs::read_to_string(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?
    };
    let out = match &a.out {
        Some(o) => o.clone(),
        None if a.file.as_os_str() == "-" => {
            bail!("--out FILE.svg|FILE.png is needed when the CSV comes from standard input")
        }
        None => default_out(&a.file, &a.y),
    };
    let table = Table::parse(&text).with_context(|| format!("{}", a.file.display()))?;
    if let Some(column) = &a.heatmap {
        let out = a.out.clone().unwrap_or_else(|| default_out(&a.file, &format!("{column}-map")));
        let format = chart::Format::of(&out)?;
        let map = heatmap(&table, a.family.as_ref(), column, a.point, a.max, a.title.clone())
            .with_context(|| format!("{}", a.file.display()))?;
        chart::render(&map, format, &out)?;
        let mut stdout = output::stdout();
        writeln!(stdout, "{}", out.display())?;
        stdout.finish()?;
        return Ok(());
    }
    if let Some(f) = &a.family {
        bail!(
            "`{}` names the network of a --heatmap; without --heatmap, `plot` draws columns against each other",
            f.family()
        );
    }
    for (given, name) in [(a.point.is_some(), "--point"), (a.max.is_some(), "--max")] {
        if given {
            bail!("{name} is for --heatmap");
        }
    }
    let axes = Axes {
        x: a.x,
        y: a.y,
        series: a.series,
        log_x: a.log_x,
        log_y: a.log_y,
        title: a.title,
        short_labels: false,
    };
    chart::write_sized(&table.chart(&axes)?, &out, a.size.unwrap_or(chart::SIZE))?;
    let mut stdout = output::stdout();
    writeln!(stdout, "{}", out.display())?;
    stdout.finish()?;
    Ok(())
}

/// A chart's size, `WIDTHxHEIGHT` in pixels, each from 200 to 10000.
fn pixels(s: &str) -> Result<(u32, u32), String> {
    let size =
        s.split_once(['x', 'X']).and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)));
    match size {
        Some((w, h)) if (200..=10_000).contains(&w) && (200..=10_000).contains(&h) => Ok((w, h)),
        _ => Err(format!("{s:?}: a size is WIDTHxHEIGHT in pixels, each from 200 to 10000, e.g. 1600x1120")),
    }
}

/// `results.csv` plotted as latency is `results-latency.svg` beside it.
pub fn default_out(csv: &Path, y: &str) -> PathBuf {
    let stem = csv.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "plot".into());
    csv.with_file_name(format!("{stem}-{}.svg", y.replace(['/', '.'], "_")))
}

/// The heat map of `column` at one point of a `--channels` CSV, on the drawing of `family`, or
/// else of the network the file records for that point (its `network` column): the rows of
/// that point must be the network's channels (checked by [`heatmap::Drawing::map`]).
fn heatmap(
    table: &Table,
    family: Option<&TopologySpec>,
    column: &str,
    point: Option<u64>,
    max: Option<f64>,
    title: Option<String>,
) -> anyhow::Result<heatmap::Map> {
    // A family without a drawing is the first thing wrong, whatever the file holds.
    if let Some(family) = family {
        heatmap::Drawing::of(family)?;
    }
    let [p_col, ch_col, from_col, to_col] =
        ["point", "channel", "from", "to"].map(|c| table.column(c, "a --channels CSV"));
    let (p_col, ch_col, from_col, to_col) = (p_col?, ch_col?, from_col?, to_col?);
    let value = table.column(column, "--heatmap")?;
    let whole = |row: usize, col: usize| -> anyhow::Result<u64> {
        let cell = table.text(row, col);
        let cell = cell.trim();
        cell.parse::<u64>().map_err(|_| {
            anyhow::anyhow!("line {}: {} = {cell:?} is not a whole number", row + 2, table.header[col])
        })
    };
    let mut points = std::collections::BTreeSet::new();
    for row in 0..table.rows.len() {
        points.insert(whole(row, p_col)?);
    }
    let list = || points.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let chosen = match (point, points.first()) {
        (_, None) => bail!("no channels: the file has a header and no rows"),
        (Some(p), _) if points.contains(&p) => p,
        (Some(p), _) => bail!("--point {p}: the file holds point(s) {}", list()),
        (None, Some(&p)) if points.len() == 1 => p,
        (None, _) => bail!("the file holds points {}: choose one with --point", list()),
    };
    let family = match family {
        Some(f) => f.clone(),
        None => {
            let recorded = table.header.iter().position(|h| h == "network").and_then(|c| {
                (0..table.rows.len())
                    .find(|&r| whole(r, p_col).ok() == Some(chosen))
                    .map(|r| table.text(r, c).trim().to_string())
                    .filter(|n| !n.is_empty())
            });
            let Some(name) = recorded else {
                bail!(
                    "the file records no network (written by an older netwrap?): name it after the options as for `netwrap sim`, e.g. `netwrap plot FILE --heatmap {column} --out map.svg torus --k 16 --bidirectional`"
                );
            };
            serde_json::from_value(netwrap_app::sweep::named_value(&name))
                .map_err(|e| anyhow::anyhow!("its network {name:?} is not one netwrap reads back ({e}): name it after the options, as for `netwrap sim`"))?
        }
    };
    let drawing = heatmap::Drawing::of(&family)?;
    let mut readings = Vec::new();
    for row in (0..table.rows.len()).filter(|&r| whole(r, p_col).ok() == Some(chosen)) {
        readings.push(heatmap::Reading {
            line: row + 2,
            channel: whole(row, ch_col)?,
            from: whole(row, from_col)?,
            to: whole(row, to_col)?,
            value: table.number(row, value, column)?,
        });
    }
    drawing.map(&readings, column, chosen, points.len() > 1, max, title)
}
