//! Tables: the CSV files netwrap draws and reads back.
//!
//! - [`Table`]: any CSV (or a sweep's rows) by column name, and [`Table::chart`], which draws
//!   columns against each other as [`Axes`] say: what `netwrap plot`, `run --plot` and the
//!   pages of `netwrap reproduce` draw.
//! - [`write()`] and [`read()`]: a `netwrap reproduce` page's typed data as its CSV, and that CSV
//!   back as the same data (the one reader of those files, for `--replot`). A simulated page's
//!   CSV is the rows `netwrap run --csv` writes; the other pages' columns are their row type's
//!   fields, numbers written in full (`1`, `0.5`, `8.333333333333334`).

use crate::chart::{self, Chart, Series, Style};
use crate::output::{cell, csv_line};
use anyhow::{Context, bail};
use netwrap_app::Row;
use netwrap_app::reproduce::{ChannelRow, Data, Kind, Runs};
use netwrap_app::row::Metrics;
use netwrap_app::sweep::Identity;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

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

/// A table by column name: a CSV's text cells, or a sweep's typed values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// One list of cells a row, in the header's order (text read from a file, or the numbers,
    /// words and nulls of a sweep's rows).
    pub rows: Vec<Vec<Value>>,
}

/// One curve's simulated points, model points and saturated x values.
#[derive(Default)]
struct Curve(Vec<chart::Point>, Vec<chart::Point>, Vec<f64>);

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
            rows.push(rec.iter().map(|c| Value::String(c.to_string())).collect());
        }
        Ok(Table { header, rows })
    }

    /// A sweep's rows, with their columns as `netwrap run --csv` writes them.
    pub fn of_runs(runs: &Runs) -> Table {
        Table {
            header: match runs.rows.first() {
                Some(Row { collective: Some(_), .. }) => Row::collective_columns(&runs.parameters),
                _ => Row::columns(&runs.parameters),
            },
            rows: runs.rows.iter().map(|r| fields(r).into_iter().map(|(_, v)| v).collect()).collect(),
        }
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

    /// The cell at (`row`, `col`) as text.
    pub fn text(&self, row: usize, col: usize) -> String {
        cell(&self.rows[row][col])
    }

    /// The cell at (`row`, `col`) as a number; `None` when empty; an error naming its line and
    /// the column `name` when it is not a number.
    pub fn number(&self, row: usize, col: usize, name: &str) -> anyhow::Result<Option<f64>> {
        let not_a_number =
            |cell: &str| anyhow::anyhow!("line {}: {name} = {cell:?} is not a number", row + 2);
        match &self.rows[row][col] {
            Value::Null => Ok(None),
            Value::Number(n) => n.as_f64().map(Some).ok_or_else(|| not_a_number(&n.to_string())),
            Value::String(s) => {
                let cell = s.trim();
                if cell.is_empty() {
                    return Ok(None);
                }
                match cell.parse::<f64>() {
                    Ok(v) if v.is_finite() => Ok(Some(v)),
                    _ => Err(not_a_number(cell)),
                }
            }
            other => Err(not_a_number(&other.to_string())),
        }
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
        // A replicated sweep's combined rows (`replication` = all) are drawn from its runs.
        let replication = self.header.iter().position(|h| h == "replication");
        let combined = |row: usize| replication.is_some_and(|c| self.text(row, c) == netwrap_app::row::ALL);
        for row in (0..self.rows.len()).filter(|&r| !combined(r)) {
            let label = series_cols
                .iter()
                .map(|&c| {
                    let name = &self.header[c];
                    let value = self.text(row, c);
                    if name == "topology" {
                        // A swept network's name says what it is: `torus k=8 n=2`.
                        return value;
                    }
                    let name = if axes.short_labels { short(name).to_string() } else { words(name) };
                    format!("{name} = {value}")
                })
                .collect::<Vec<_>>()
                .join(", ");
            if !curves.contains_key(&label) {
                order.push(label.clone());
            }
            let Curve(sim, modeled, sat) = curves.entry(label).or_default();
            let Some(xv) = self.number(row, x, &x_name)? else { continue };
            let is_saturated = saturated.is_some_and(|c| self.text(row, c) == "true");
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
        // Replications (rows of one point but for their `replication`) are drawn as their mean
        // with its Student-t interval across the runs, not as one point each.
        let replicated =
            replication.is_some_and(|c| (0..self.rows.len()).any(|r| !combined(r) && self.text(r, c) != "0"));
        let mut series = Vec::new();
        for (i, label) in order.iter().enumerate() {
            let Curve(mut sim, mut modeled, mut sat) = curves.remove(label).unwrap_or_default();
            if replicated {
                sim = across(sim);
                modeled = across(modeled);
                sat.dedup();
            }
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
            title: axes
                .title
                .clone()
                .unwrap_or_else(|| format!("{} against {}", words(&axes.y), words(&x_name))),
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

/// Points sharing an x (a point's replications) as one: the mean of their y and its Student-t
/// half-width across them ([`netwrap_app::row::across_replications`]); a lone point keeps its
/// own interval.
fn across(points: Vec<(f64, f64, Option<f64>)>) -> Vec<(f64, f64, Option<f64>)> {
    let mut by_x: BTreeMap<u64, Vec<(f64, f64, Option<f64>)>> = BTreeMap::new();
    for p in points {
        by_x.entry(p.0.to_bits()).or_default().push(p);
    }
    by_x.into_values()
        .filter_map(|runs| match runs.as_slice() {
            [one] => Some(*one),
            _ => {
                let ys: Vec<f64> = runs.iter().map(|p| p.1).collect();
                netwrap_app::row::across_replications(&ys).map(|(m, h)| (runs[0].0, m, h))
            }
        })
        .collect()
}

/// A swept parameter as a legend names it: its path's last part (`k` for `topology.k`).
fn short(column: &str) -> &str {
    column.rsplit('.').next().unwrap_or(column)
}

/// A column in words, for captions, axes and legends: netwrap's columns and swept paths by
/// what they are (`workload.rate` is `request rate`, `mean_hops` `mean hops`), any other
/// column's last part with its `_` and `-` as spaces.
pub fn words(column: &str) -> String {
    let name = column.rsplit('.').next().unwrap_or(column);
    let known = match column {
        "workload.rate" | "rate" => "request rate",
        "workload.load" | "load" => "offered load",
        "workload.size" => "message size",
        "workload.locality" => "locality",
        "workload.pattern" => "traffic pattern",
        "workload.processor.threads" => "threads per processor",
        "topology" => "network",
        "topology.k" => "radix k",
        "topology.n" => "dimensions n",
        "topology.nodes" => "nodes",
        "router.vcs" => "virtual channels",
        "router.buffer" => "buffer depth",
        "utilization" => "channel utilization",
        "throughput" => "accepted throughput",
        "offered" => "offered rate",
        "latency_ci95" => "latency's 95% interval",
        "model_latency" => "model latency",
        "model_utilization" => "model channel utilization",
        "processor_utilization" => "processor utilization",
        "jain" => "Jain's fairness index",
        _ => "",
    };
    if known.is_empty() { name.replace(['_', '-'], " ") } else { known.to_string() }
}

/// A netwrap column's name in words with its unit, for an axis label.
fn with_unit(column: &str) -> String {
    let name = column.rsplit('.').next().unwrap_or(column);
    let column = &words(column);
    let unit = match name {
        "rate" | "throughput" | "offered" | "max_rate" | "model_max_rate" => "messages/node/cycle",
        "load" | "offered_load" | "accepted_load" | "self_load" => "flits/node/cycle",
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

/// A row's fields, its columns in order (as `netwrap run --csv` writes them).
fn fields(row: &Row) -> Map<String, Value> {
    match serde_json::to_value(row) {
        Ok(Value::Object(fields)) => fields,
        _ => unreachable!("a row serialises as a table"),
    }
}

/// A row's CSV cells, in the order of [`Row::columns`].
pub fn row_cells(row: &Row) -> Vec<String> {
    fields(row).values().map(cell).collect()
}

/// Whether `line`, a row of a sweep's CSV, is a combined row (`replication` = all), which
/// `--resume` and `merge` recompute rather than read.
pub fn is_combined(line: &str) -> bool {
    line.split(',').nth(1) == Some(netwrap_app::row::ALL)
}

/// The combined rows ([`netwrap_app::row::across`]) of a replicated sweep's CSV rows `lines`
/// under `header`, in its columns: each fills those it shares with [`netwrap_app::row::Across`]
/// (point, replication, the swept values, latency, latency_ci95, throughput, the identity), the
/// others empty. Combined rows among `lines` are skipped.
pub fn combined_lines(header: &str, lines: &[&str]) -> anyhow::Result<Vec<String>> {
    let mut text = header.trim_end().to_string();
    for l in lines {
        text.push('\n');
        text.push_str(l.trim_end());
    }
    text.push('\n');
    let runs = read_runs(&text)?;
    let columns = csv_record(header.trim_end());
    Ok(netwrap_app::row::across(&runs.rows)
        .iter()
        .map(|a| {
            let fields = match serde_json::to_value(a) {
                Ok(Value::Object(f)) => f,
                _ => unreachable!("a combined row serialises as a table"),
            };
            csv_line(&columns.iter().map(|c| fields.get(c).map(cell).unwrap_or_default()).collect::<Vec<_>>())
        })
        .collect())
}

/// The cells of one CSV line (quoted cells may hold commas).
pub fn csv_record(line: &str) -> Vec<String> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes())
        .records()
        .next()
        .and_then(Result::ok)
        .map_or_else(Vec::new, |r| r.iter().map(str::to_string).collect())
}

/// A reproduce page's data as CSV text.
pub fn write(data: &Data) -> String {
    match data {
        Data::Runs(runs) => {
            let lines = runs.rows.iter().map(|r| csv_line(&row_cells(r)));
            std::iter::once(csv_line(&Table::of_runs(runs).header)).chain(lines).collect()
        }
        Data::Channels(rows) => channels_csv(rows),
        Data::Model(rows) => write_plain(rows),
        Data::Networks(rows) => write_plain(rows),
        Data::Modules(rows) => write_plain(rows),
        Data::TableII(rows) => write_plain(rows),
        Data::Rings(rows) => write_plain(rows),
        Data::Designs(rows) => write_plain(rows),
        Data::Feedback(rows) => write_plain(rows),
        Data::Accuracy(rows) => write_plain(rows),
    }
}

/// Reads a reproduce page's CSV back as data of the form `kind`.
pub fn read(kind: Kind, text: &str) -> anyhow::Result<Data> {
    Ok(match kind {
        Kind::Runs => Data::Runs(read_runs(text)?),
        Kind::Channels => Data::Channels(read_channels(text)?),
        Kind::Model => Data::Model(read_plain(text)?),
        Kind::Networks => Data::Networks(read_plain(text)?),
        Kind::Modules => Data::Modules(read_plain(text)?),
        Kind::TableII => Data::TableII(read_plain(text)?),
        Kind::Rings => Data::Rings(read_plain(text)?),
        Kind::Designs => Data::Designs(read_plain(text)?),
        Kind::Feedback => Data::Feedback(read_plain(text)?),
        Kind::Accuracy => Data::Accuracy(read_plain(text)?),
    })
}

/// A number as the pages' tables write it: in full, without a decimal point when whole.
fn plain_cell(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_f64() => n.as_f64().map(|x| x.to_string()).unwrap_or_default(),
        other => cell(other),
    }
}

/// Rows of a flat type as CSV: its fields are the columns.
fn write_plain<T: Serialize>(rows: &[T]) -> String {
    let mut text = String::new();
    for (i, row) in rows.iter().enumerate() {
        let Ok(Value::Object(fields)) = serde_json::to_value(row) else {
            unreachable!("a table's row serialises as a table")
        };
        if i == 0 {
            text += &csv_line(&fields.keys().cloned().collect::<Vec<_>>());
        }
        text += &csv_line(&fields.values().map(plain_cell).collect::<Vec<_>>());
    }
    text
}

fn reader(text: &str) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new().from_reader(text.as_bytes())
}

/// Reads rows of a flat type, its fields named by the header.
fn read_plain<T: DeserializeOwned>(text: &str) -> anyhow::Result<Vec<T>> {
    let mut rows = Vec::new();
    for (i, row) in reader(text).deserialize().enumerate() {
        rows.push(row.with_context(|| format!("line {}", i + 2))?);
    }
    // netwrap writes a table only with its rows: a header alone (or a line of garbage read as
    // one) is not a page's CSV.
    if rows.is_empty() {
        bail!("no rows under its first line: not a page's CSV as netwrap writes it");
    }
    Ok(rows)
}

/// A swept value read back: a number, `true` or `false`, a word, or null when empty.
fn value(cell: &str) -> Value {
    if cell.is_empty() {
        return Value::Null;
    }
    if let Ok(b) = cell.parse::<bool>() {
        return Value::Bool(b);
    }
    if let Ok(i) = cell.parse::<u64>() {
        return i.into();
    }
    if let Ok(i) = cell.parse::<i64>() {
        return i.into();
    }
    match cell.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
        Some(x) => Value::Number(x),
        None => Value::String(cell.to_string()),
    }
}

/// Reads a sweep's rows: the point and replication, the swept values (the columns up to
/// `verdict`), the metrics, and the experiment's identity (absent from files written before
/// rows carried it: read as empty).
fn read_runs(text: &str) -> anyhow::Result<Runs> {
    let mut r = reader(text);
    let header = r.headers().context("not a CSV with a header")?.clone();
    let names: Vec<&str> = header.iter().collect();
    let (Some(2), Some(to)) = (
        names.iter().position(|h| *h == "replication").map(|i| i + 1),
        names.iter().position(|h| *h == "verdict"),
    ) else {
        bail!(
            "not the rows of a sweep: the columns start point, replication and end with the metrics from verdict on"
        );
    };
    let parameters: Vec<String> = names[2..to].iter().map(|s| s.to_string()).collect();
    let [experiment, points] = ["experiment", "points"].map(|c| names.iter().position(|h| *h == c));
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.with_context(|| format!("line {line}"))?;
        if &rec[1] == netwrap_app::row::ALL {
            // A combined row: recomputed from the runs wherever it is needed.
            continue;
        }
        let whole = |col: usize| -> anyhow::Result<u64> {
            let c = &rec[col];
            c.parse()
                .map_err(|_| anyhow::anyhow!("line {line}: {} = {c:?} is not a whole number", names[col]))
        };
        let metrics: Metrics = rec.deserialize(Some(&header)).with_context(|| format!("line {line}"))?;
        let identity = match (experiment, points) {
            (Some(e), Some(p)) => Identity { experiment: rec[e].to_string(), points: whole(p)? },
            _ => Identity::default(),
        };
        let collective = match header.iter().any(|h| h == "completion") {
            true => Some(rec.deserialize(Some(&header)).with_context(|| format!("line {line}"))?),
            false => None,
        };
        rows.push(Row {
            point: whole(0)?,
            replication: whole(1)? as u32,
            parameters: parameters.iter().enumerate().map(|(j, p)| (p.clone(), value(&rec[2 + j]))).collect(),
            metrics,
            collective,
            identity,
        });
    }
    Ok(Runs { parameters, rows })
}

/// Every channel at every point, as `netwrap run --channels` writes them: one column per
/// virtual channel's occupancy, and their sum.
pub fn channels_csv(rows: &[ChannelRow]) -> String {
    let vcs = rows.iter().map(|r| r.stats.occupancy.as_ref().map_or(0, Vec::len)).max().unwrap_or(0);
    let header: Vec<String> = ["point", "channel", "from", "to", "class", "utilization", "occupancy"]
        .iter()
        .map(|s| s.to_string())
        .chain((0..vcs).map(|k| format!("vc{k}")))
        .chain(["network".to_string()])
        .collect();
    let mut text = csv_line(&header);
    for r in rows {
        let c = &r.stats;
        let occ = c.occupancy.as_deref().unwrap_or_default();
        let cells: Vec<String> = [
            r.point.to_string(),
            c.channel.to_string(),
            c.from.to_string(),
            c.to.to_string(),
            c.class.clone(),
            c.utilization.to_string(),
            if occ.is_empty() { String::new() } else { occ.iter().sum::<f64>().to_string() },
        ]
        .into_iter()
        .chain((0..vcs).map(|k| occ.get(k).map(|x| x.to_string()).unwrap_or_default()))
        .chain([r.network.clone()])
        .collect();
        text += &csv_line(&cells);
    }
    text
}

fn read_channels(text: &str) -> anyhow::Result<Vec<ChannelRow>> {
    let mut r = reader(text);
    let header = r.headers().context("not a CSV with a header")?.clone();
    let col = |name: &str| {
        header.iter().position(|h| h == name).with_context(|| format!("a --channels CSV has a {name} column"))
    };
    let [point, channel, from, to, class, utilization] =
        ["point", "channel", "from", "to", "class", "utilization"].map(col);
    let (point, channel, from, to, class, utilization) = (point?, channel?, from?, to?, class?, utilization?);
    let vcs: Vec<usize> = (0..).map_while(|k| header.iter().position(|h| h == format!("vc{k}"))).collect();
    // Files written before the network was recorded have no such column.
    let network = header.iter().position(|h| h == "network");
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.with_context(|| format!("line {line}"))?;
        fn parse<T: std::str::FromStr>(rec: &csv::StringRecord, c: usize, line: usize) -> anyhow::Result<T> {
            rec[c].parse().map_err(|_| anyhow::anyhow!("line {line}: {:?} is not a number", &rec[c]))
        }
        let occupancy: Vec<f64> = vcs
            .iter()
            .map_while(|&c| (!rec[c].is_empty()).then(|| parse(&rec, c, line)))
            .collect::<anyhow::Result<_>>()?;
        rows.push(ChannelRow {
            point: parse(&rec, point, line)?,
            network: network.map(|c| rec[c].to_string()).unwrap_or_default(),
            stats: netwrap_sim::report::ChannelStats {
                channel: parse(&rec, channel, line)?,
                from: parse(&rec, from, line)?,
                to: parse(&rec, to, line)?,
                class: rec[class].to_string(),
                utilization: parse(&rec, utilization, line)?,
                occupancy: (!occupancy.is_empty()).then_some(occupancy),
            },
        });
    }
    Ok(rows)
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
        assert_eq!(labels, ["message size = 4", "message size = 4", "message size = 8", "message size = 8"]);
        // In words, not paths: the caption, the axis (with its unit), the legend above.
        assert_eq!(c.title, "latency against request rate");
        assert_eq!(c.x_label, "request rate (messages/node/cycle)");
        assert_eq!(c.series[0].points, vec![(0.01, 10.5, Some(0.2)), (0.02, 12.5, Some(0.3))]);
        assert_eq!(c.series[0].saturated, vec![0.03]);
        assert_eq!(c.series[1].style, Style::Dashed);
    }

    /// Verification: three replications of a point are drawn as one, their mean with its
    /// Student-t interval (10, 11, 12: mean 11, s = 1, t(0.975, 2) = 4.303 times 1/√3), not
    /// as replication 0; the point with one run keeps its own interval.
    #[test]
    fn replications_plot_as_their_mean_and_interval_across_runs() {
        let t = Table::parse(
            "point,replication,workload.rate,verdict,saturated,latency,latency_ci95\n\
             0,0,0.01,ok,false,10,0.1\n0,1,0.01,ok,false,11,0.1\n0,2,0.01,ok,false,12,\n\
             1,0,0.02,ok,false,20,0.5\n",
        )
        .unwrap();
        let c = t.chart(&Axes { y: "latency".into(), ..Axes::default() }).unwrap();
        let points = &c.series[0].points;
        assert_eq!(points.len(), 2, "{points:?}");
        assert_eq!((points[0].0, points[0].1), (0.01, 11.0));
        assert!((points[0].2.unwrap() - 4.303 / 3f64.sqrt()).abs() < 1e-3, "{points:?}");
        assert_eq!(points[1], (0.02, 20.0, Some(0.5)));
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

    /// Verification of the one reader: a sweep's rows, written and read back, are the same
    /// rows (swept values as numbers, words and nulls; metrics typed) and the same text.
    #[test]
    fn a_sweeps_rows_read_back_as_written() {
        let row = |point: u64, k: Value, name: Value, latency: Option<f64>| Row {
            point,
            replication: 0,
            parameters: [("topology.k".to_string(), k), ("topology.name".to_string(), name)]
                .into_iter()
                .collect(),
            metrics: Metrics {
                verdict: Some(netwrap_sim::report::Verdict::Ok),
                utilization: 0.5,
                latency,
                messages_delivered: 2000,
                seed: 1,
                ..Metrics::default()
            },
            collective: None,
            identity: Identity { experiment: "00c0ffee00c0ffee".into(), points: 2 },
        };
        let runs = Runs {
            parameters: vec!["topology.k".into(), "topology.name".into()],
            rows: vec![
                row(0, 4.into(), "Butterfly.8.8".into(), Some(12.25)),
                row(1, Value::Null, true.into(), None),
            ],
        };
        let text = write(&Data::Runs(runs.clone()));
        assert!(text.starts_with("point,replication,topology.k,topology.name,verdict,"), "{text}");
        let back = read(Kind::Runs, &text).unwrap();
        assert_eq!(back, Data::Runs(runs.clone()));
        assert_eq!(write(&back), text);
        assert!(text.lines().nth(1).unwrap().ends_with(",00c0ffee00c0ffee,2"), "{text}");
        // A file written before rows carried their experiment reads too, without it.
        let older: String =
            text.lines().map(|l| format!("{}\n", l.rsplitn(3, ',').nth(2).unwrap())).collect();
        let Data::Runs(back) = read(Kind::Runs, &older).unwrap() else { unreachable!() };
        assert_eq!(back.rows[0].identity, Identity::default());
        assert_eq!(back.rows[0].metrics, runs.rows[0].metrics);
    }

    /// The pages' other tables keep their numbers as written: whole numbers without a point.
    #[test]
    fn plain_tables_read_back_as_written() {
        let rows = vec![netwrap_app::reproduce::RingRow {
            k: 3,
            measured_distinct: 1.5,
            formula_distinct: 1.5,
            measured_with_self: 1.0,
            formula_with_self: 1.0,
        }];
        let text = write(&Data::Rings(rows.clone()));
        assert_eq!(
            text,
            "k,measured_distinct,formula_distinct,measured_with_self,formula_with_self\n3,1.5,1.5,1,1\n"
        );
        assert_eq!(read(Kind::Rings, &text).unwrap(), Data::Rings(rows));
    }
}
