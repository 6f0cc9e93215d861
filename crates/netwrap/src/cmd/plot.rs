//! `netwrap plot`: a sweep's CSV as a chart — simulated points with their confidence
//! intervals, the model dashed over them when the file has it, saturated points marked — or,
//! with `--heatmap`, a `--channels` CSV as a heat map on the network's 2-D drawing.
//!
//! A heat map takes its network the way `netwrap sim` does, as a family and its options after
//! the plot's own (`… --heatmap occupancy torus --k 16 --bidirectional`): the CSV stays as
//! `--channels` writes it, and its rows are checked channel by channel against the network
//! built, so a file made on another network is refused rather than drawn wrongly.

use crate::chart::{self, Chart, Series, Style};
use crate::heatmap;
use crate::output;
use anyhow::{Context, bail};
use clap::Args;
use netwrap_topo::cli::positive;
use netwrap_topo::{RoutingSpec, TopologySpec};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Draw a CSV of results (`netwrap run … --csv`, `figure`'s files, any tidy CSV), or with
/// --heatmap a `--channels` CSV on the network's drawing: name the network after the options,
/// as for `netwrap sim`, e.g. `netwrap plot ch.csv --heatmap occupancy --out map.svg torus --k
/// 16 --bidirectional`.
#[derive(Debug, Args)]
#[command(
    subcommand_value_name = "FAMILY",
    subcommand_help_heading = "With --heatmap: the network the CSV was made on"
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
    /// `netwrap sim`.
    #[command(subcommand)]
    pub family: Option<netwrap_topo::TopologySpec>,
}

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
        let Some(family) = &a.family else {
            bail!(
                "--heatmap needs the network the CSV was made on, named after the options as for `netwrap sim`, e.g. `netwrap plot {} --heatmap {column} --out map.svg torus --k 16 --bidirectional`",
                a.file.display()
            );
        };
        let out = a.out.clone().unwrap_or_else(|| default_out(&a.file, &format!("{column}-map")));
        let format = chart::Format::of(&out)?;
        let map = table
            .heatmap(family, column, a.point, a.max, a.title.clone())
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
    chart::write(&table.chart(&axes)?, &out)?;
    let mut stdout = output::stdout();
    writeln!(stdout, "{}", out.display())?;
    stdout.finish()?;
    Ok(())
}

/// `results.csv` plotted as latency is `results-latency.svg` beside it.
pub fn default_out(csv: &Path, y: &str) -> PathBuf {
    let stem = csv.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "plot".into());
    csv.with_file_name(format!("{stem}-{}.svg", y.replace(['/', '.'], "_")))
}

impl Table {
    /// The heat map of `column` at one point of a `--channels` CSV, on `family`'s drawing.
    /// The rows must be the network's channels, each once, with their `from` and `to` routers:
    /// otherwise the file was made on another network (status 2).
    pub fn heatmap(
        &self,
        family: &TopologySpec,
        column: &str,
        point: Option<u64>,
        max: Option<f64>,
        title: Option<String>,
    ) -> anyhow::Result<heatmap::Map> {
        let (spec, _) = family.resolve()?;
        let routing = spec.resolve_routing(&RoutingSpec::default())?;
        let topo = spec.shape(&routing)?.build().context("invalid topology")?;
        // A family without a drawing is the first thing wrong, whatever the file holds.
        let layout = heatmap::Layout::of(&topo)?;
        let net = topo.network();
        let [p_col, ch_col, from_col, to_col] =
            ["point", "channel", "from", "to"].map(|c| self.column(c, "a --channels CSV"));
        let (p_col, ch_col, from_col, to_col) = (p_col?, ch_col?, from_col?, to_col?);
        let value = self.column(column, "--heatmap")?;
        let whole = |row: usize, col: usize| -> anyhow::Result<u64> {
            let cell = self.rows[row][col].trim();
            cell.parse::<u64>().map_err(|_| {
                anyhow::anyhow!("line {}: {} = {cell:?} is not a whole number", row + 2, self.header[col])
            })
        };
        let mut points = std::collections::BTreeSet::new();
        for row in 0..self.rows.len() {
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
        let rows: Vec<usize> =
            (0..self.rows.len()).filter(|&r| whole(r, p_col).ok() == Some(chosen)).collect();
        let channels = net.channels().len();
        if rows.len() != channels {
            bail!(
                "point {chosen} has {} channels, but {} has {channels}: the CSV was made on another network (name the one `netwrap sim` ran)",
                rows.len(),
                net.name()
            );
        }
        let mut values = vec![f64::NAN; channels];
        let sources: Vec<u32> = net.edges().map(|(s, _)| s).collect();
        for &row in &rows {
            let line = row + 2;
            let ch = whole(row, ch_col)?;
            let Some(&src) = usize::try_from(ch).ok().and_then(|c| sources.get(c)) else {
                bail!("line {line}: channel {ch}: {} has channels 0 to {}", net.name(), channels - 1);
            };
            let dst = net.channels()[ch as usize].dst;
            let (from, to) = (whole(row, from_col)?, whole(row, to_col)?);
            if (from, to) != (src as u64, dst as u64) {
                bail!(
                    "line {line}: channel {ch} goes from router {src} to {dst} in {}, not from {from} to {to}: the CSV was made on another network",
                    net.name()
                );
            }
            if !values[ch as usize].is_nan() {
                bail!("line {line}: channel {ch} appears twice at point {chosen}");
            }
            values[ch as usize] = match self.number(row, value, column)? {
                Some(v) => v.max(0.0),
                None => bail!(
                    "line {line}: no {column} value (buffer occupancy is measured by `--router vc` only)"
                ),
            };
        }
        let top = max.unwrap_or_else(|| {
            let largest = values.iter().copied().fold(0.0, f64::max);
            if column == "utilization" || largest <= 0.0 { 1.0 } else { nice_ceiling(largest) }
        });
        let unit = match column {
            "utilization" => "(busy fraction of cycles)".to_string(),
            "occupancy" => "(flits, mean over cycles, all VCs)".to_string(),
            vc if vc.strip_prefix("vc").is_some_and(|n| n.parse::<u32>().is_ok()) => {
                format!("(flits, mean over cycles, VC {})", &vc[2..])
            }
            _ => String::new(),
        };
        let at_point = if points.len() > 1 { format!(", point {chosen}") } else { String::new() };
        let title = title.unwrap_or_else(|| format!("{column} per channel: {}{at_point}", net.name()));
        heatmap::map(&topo, layout, &values, title, [column.to_string(), unit], top)
    }
}

/// The least of 1, 2, 2.5 and 5 times a power of ten that is at least `v` (> 0): a colour
/// scale's top whose quarter ticks read plainly.
fn nice_ceiling(v: f64) -> f64 {
    let power = 10f64.powf(v.log10().floor());
    let m = v / power;
    [1.0, 2.0, 2.5, 5.0, 10.0].into_iter().find(|&s| s >= m * (1.0 - 1e-12)).unwrap_or(10.0) * power
}

/// One curve's simulated points, model points and saturated x values.
#[derive(Default)]
struct Curve(Vec<chart::Point>, Vec<chart::Point>, Vec<f64>);

/// What to draw from a table.
#[derive(Clone, Debug, Default)]
pub struct Axes {
    /// x column (default: the first parameter).
    pub x: Option<String>,
    /// y column.
    pub y: String,
    /// Series columns (default: the other parameters that vary).
    pub series: Option<Vec<String>>,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// Caption.
    pub title: Option<String>,
    /// Name swept parameters in the legend by their path's last part (`k = 4`, not
    /// `topology.k = 4`), where the caption already says what they belong to.
    pub short_labels: bool,
}

/// A CSV held as text cells: what `plot` draws, and what `reproduce` computes and reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// One list of cells a row, in the header's order.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads a CSV with a header line.
    pub fn parse(text: &str) -> anyhow::Result<Table> {
        let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let header: Vec<String> =
            r.headers().context("not a CSV with a header")?.iter().map(String::from).collect();
        if header.iter().all(|h| h.is_empty()) {
            bail!("empty: a CSV to plot starts with a header line naming its columns");
        }
        let mut rows = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.with_context(|| format!("line {}", i + 2))?;
            rows.push(rec.iter().map(String::from).collect());
        }
        Ok(Table { header, rows })
    }

    /// The column named `name`; an error names `what` wanted it and the nearest column.
    pub fn column(&self, name: &str, what: &str) -> anyhow::Result<usize> {
        if let Some(i) = self.header.iter().position(|h| h == name) {
            return Ok(i);
        }
        let near = netwrap_app::sweep::closest(name, self.header.iter().map(String::as_str));
        let hint = near.map(|h| format!(" (did you mean {h}?)"));
        bail!(
            "{what}: no column {name:?}{}; the columns are {}",
            hint.unwrap_or_default(),
            self.header.join(", ")
        )
    }

    /// The swept parameters of a `netwrap run` CSV: the columns between `replication` and
    /// `verdict`.
    fn parameters(&self) -> Vec<usize> {
        let from = self.header.iter().position(|h| h == "replication").map(|i| i + 1);
        let to = self.header.iter().position(|h| h == "verdict");
        match (from, to) {
            (Some(a), Some(b)) if a <= b => (a..b).collect(),
            _ => Vec::new(),
        }
    }

    fn number(&self, row: usize, col: usize, name: &str) -> anyhow::Result<Option<f64>> {
        let cell = self.rows[row][col].trim();
        if cell.is_empty() {
            return Ok(None);
        }
        match cell.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Some(v)),
            _ => bail!("line {}: {name} = {cell:?} is not a number", row + 2),
        }
    }

    /// The chart `axes` asks for.
    pub fn chart(&self, axes: &Axes) -> anyhow::Result<Chart> {
        let params = self.parameters();
        let x_name = match &axes.x {
            Some(x) => x.clone(),
            None => match params.first() {
                Some(&i) => self.header[i].clone(),
                None => bail!(
                    "--x: this file has no swept parameters; name the x column (columns: {})",
                    self.header.join(", ")
                ),
            },
        };
        let x = self.column(&x_name, "--x")?;
        let y = self.column(&axes.y, "--y")?;
        let ci = self.header.iter().position(|h| *h == format!("{}_ci95", axes.y));
        let model = self.header.iter().position(|h| *h == format!("model_{}", axes.y));
        let saturated = self.header.iter().position(|h| h == "saturated");
        let series_cols: Vec<usize> = match &axes.series {
            Some(names) => names.iter().map(|n| self.column(n, "--series")).collect::<anyhow::Result<_>>()?,
            None => params
                .iter()
                .copied()
                .filter(|&c| c != x && self.rows.iter().any(|r| r[c] != self.rows[0][c]))
                .collect(),
        };
        // Curves in order of first appearance.
        let mut order: Vec<String> = Vec::new();
        let mut curves: BTreeMap<String, Curve> = BTreeMap::new();
        for row in 0..self.rows.len() {
            let label = series_cols
                .iter()
                .map(|&c| {
                    let name = &self.header[c];
                    let name = if axes.short_labels { short(name) } else { name };
                    format!("{name} = {}", self.rows[row][c])
                })
                .collect::<Vec<_>>()
                .join(", ");
            if !curves.contains_key(&label) {
                order.push(label.clone());
            }
            let Curve(sim, modeled, sat) = curves.entry(label).or_default();
            let Some(xv) = self.number(row, x, &x_name)? else { continue };
            let is_saturated = saturated.is_some_and(|c| self.rows[row][c] == "true");
            // A saturated point has no latency, but an accepted throughput: drawn when it has
            // a value, and marked either way.
            if let Some(yv) = self.number(row, y, &axes.y)? {
                let h = match ci {
                    Some(c) => self.number(row, c, &self.header[c])?,
                    None => None,
                };
                sim.push((xv, yv, h));
            }
            if is_saturated {
                sat.push(xv);
            }
            if let Some(m) = model
                && let Some(mv) = self.number(row, m, &self.header[m])?
            {
                modeled.push((xv, mv, None));
            }
        }
        let mut series = Vec::new();
        for (i, label) in order.iter().enumerate() {
            let Curve(mut sim, mut modeled, sat) = curves.remove(label).unwrap_or_default();
            sim.sort_by(|a, b| a.0.total_cmp(&b.0));
            modeled.sort_by(|a, b| a.0.total_cmp(&b.0));
            let simulated = ci.is_some() || model.is_some() || saturated.is_some();
            let name = match (label.is_empty(), simulated) {
                (false, _) => label.clone(),
                (true, true) => "simulation".into(),
                (true, false) => axes.y.clone(),
            };
            series.push(Series {
                label: name.clone(),
                color: i,
                style: if simulated { Style::Points } else { Style::Line },
                points: sim,
                saturated: sat,
            });
            if !modeled.is_empty() {
                series.push(Series {
                    label: name,
                    color: i,
                    style: Style::Dashed,
                    points: modeled,
                    saturated: Vec::new(),
                });
            }
        }
        Ok(Chart {
            title: axes.title.clone().unwrap_or_else(|| format!("{} against {x_name}", axes.y)),
            x_label: with_unit(&x_name),
            y_label: with_unit(&axes.y),
            log_x: axes.log_x,
            log_y: axes.log_y,
            x_from_zero: false,
            y_cap: None,
            series,
        })
    }
}

/// A swept parameter as a legend names it: its path's last part (`k` for `topology.k`).
fn short(column: &str) -> &str {
    column.rsplit('.').next().unwrap_or(column)
}

/// A netwrap column's name with its unit, for an axis label.
fn with_unit(column: &str) -> String {
    let name = column.rsplit('.').next().unwrap_or(column);
    let unit = match name {
        "rate" | "throughput" | "offered" | "max_rate" | "model_max_rate" => "messages/node/cycle",
        "load" | "offered_load" | "accepted_load" => "flits/node/cycle",
        "size" | "long-size" | "packet" | "buffer" => "flits",
        "latency" | "latency_observed" | "model_latency" | "source_queueing" | "network_latency"
        | "latency_p50" | "latency_p95" | "latency_p99" | "latency_max" | "cycles" | "warmup" => "cycles",
        "utilization" | "offered_utilization" | "model_utilization" => "busy fraction of a channel",
        "mean_hops" | "expected_mean_hops" => "channels",
        "processor_utilization" | "model_processor_utilization" => "busy fraction of a processor",
        "round_trip" | "request_latency" | "memory_time" | "reply_latency" => "cycles",
        "access_rate" => "accesses/processor/cycle",
        _ => return column.to_string(),
    };
    format!("{column} ({unit})")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWEEP: &str = "point,replication,workload.rate,workload.size,verdict,saturated,latency,latency_ci95,model_latency\n\
        0,0,0.01,4,ok,false,10.5,0.2,10.1\n\
        1,0,0.02,4,ok,false,12.5,0.3,12.0\n\
        2,0,0.03,4,saturated,true,,,\n\
        3,0,0.01,8,ok,false,15.5,0.4,15.0\n";

    #[test]
    fn a_sweep_plots_the_first_parameter_with_one_curve_per_other_value() {
        let t = Table::parse(SWEEP).unwrap();
        let c = t.chart(&Axes { y: "latency".into(), ..Axes::default() }).unwrap();
        let labels: Vec<&str> = c.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            ["workload.size = 4", "workload.size = 4", "workload.size = 8", "workload.size = 8"]
        );
        assert_eq!(c.x_label, "workload.rate (messages/node/cycle)");
        assert_eq!(c.series[0].points, vec![(0.01, 10.5, Some(0.2)), (0.02, 12.5, Some(0.3))]);
        assert_eq!(c.series[0].saturated, vec![0.03]);
        assert_eq!(c.series[1].style, Style::Dashed);
    }

    /// Verification: a colour scale's default top is the next plain number.
    #[test]
    fn scale_tops_are_plain_numbers() {
        assert_eq!(nice_ceiling(0.24), 0.25);
        assert_eq!(nice_ceiling(80.0), 100.0);
        assert_eq!(nice_ceiling(50.0), 50.0);
        assert_eq!(nice_ceiling(1.3), 2.0);
    }

    #[test]
    fn unknown_columns_are_named_with_a_suggestion() {
        let t = Table::parse(SWEEP).unwrap();
        let e = t.chart(&Axes { y: "latncy".into(), ..Axes::default() }).unwrap_err().to_string();
        assert!(e.contains("no column \"latncy\" (did you mean latency?)"), "{e}");
        let e = t.chart(&Axes { y: "latency".into(), x: Some("rate".into()), ..Axes::default() });
        assert!(e.unwrap_err().to_string().contains("--x: no column \"rate\""));
    }

    #[test]
    fn cells_that_are_not_numbers_name_their_line() {
        let t = Table::parse("point,replication,a,verdict,latency\n0,0,1,ok,x\n").unwrap();
        let e = t.chart(&Axes { y: "latency".into(), ..Axes::default() }).unwrap_err().to_string();
        assert!(e.contains("line 2: latency = \"x\" is not a number"), "{e}");
    }
}
