//! The one runner: every simulation (`netwrap sim`, `netwrap run`, the homework's form) is a
//! [`Sweep`] of one or more points, run here, written here (one printer per format: the
//! report, the table, CSV, JSON lines, JSON) and judged here (exit status).
//!
//! Files fill as points finish, so a killed run loses only the points in flight; `--resume`
//! skips the points a file already holds; when the run ends every file is rewritten in point
//! order, so its bytes depend only on the points, never on the number of threads or on
//! sharding (`netwrap merge` joins shards into exactly what one unsharded run writes).

use crate::details;
use crate::output::{
    self, Render, VERSION, brief, cell, csv_line, deadlocked, is_stdout, limit_reached, not_steady, num, opt,
    saturated, write_failed,
};
use crate::progress::{Bar, Work};
use crate::table;
use anyhow::{Context, bail};
use netwrap_app::reproduce::{ChannelRow, Runs};
use netwrap_app::sweep::{Axis, Identity};
use netwrap_app::{Builds, Point, Row, Saturation, Simulation, Spec, Sweep};
use netwrap_engine::traffic::MessageSize;
use netwrap_engine::{Jobs, Record};
use netwrap_sim::report::Verdict;
use netwrap_sim::trace::{TraceFormat, TraceSink};
use netwrap_sim::{Destinations, Source};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufRead, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A deterministic share of a sweep's points: those whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 0 ≤ index < count.
    pub index: u64,
    /// Shards in all.
    pub count: u64,
}

/// Parses `i/N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("takes i/N with 0 <= i < N, e.g. 0/4 (got {s:?})");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (index, count) =
        (i.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
    if count == 0 || index >= count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// Where and how to write a run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Run only this share of the points.
    pub shard: Option<Shard>,
    /// Tidy CSV: one row per point (`-`: standard output, instead of the report or table).
    pub csv: Option<PathBuf>,
    /// JSON lines: one result per line (`-`: standard output).
    pub jsonl: Option<PathBuf>,
    /// Skip the points the output files already hold.
    pub resume: bool,
    /// Print JSON on standard output instead of text.
    pub json: bool,
    /// Write detailed statistics of every point here.
    pub det_file: Option<PathBuf>,
    /// Draw latency against the first swept parameter here (SVG or PNG), redrawn as each
    /// point finishes; the model dashed where one applies, though the spec asks for none
    /// (its points are then compared with it: [`Sweep::with_model_where_it_applies`]), unless
    /// `no_model`.
    pub plot: Option<PathBuf>,
    /// With `plot`: compare with no model where the spec asks for none (`--no-model`).
    pub no_model: bool,
    /// Write every channel's utilisation and (virtual-channel router) mean buffer occupancy
    /// per VC here, as CSV (`-`: standard output).
    pub channels: Option<PathBuf>,
    /// Record the run's messages here as a trace (a single point only).
    pub record_trace: Option<PathBuf>,
    /// No progress bar on standard error, even on a terminal.
    pub quiet: bool,
    /// Threads for each run (`--jobs`; `None`: every core for a single large point, one
    /// thread for each of a sweep's points, [`Jobs`]).
    pub jobs: Option<u32>,
    /// Files the run reads besides its points' own (the experiment file), with what each is:
    /// no output may name one.
    pub inputs: Vec<(&'static str, PathBuf)>,
}

/// A file's identity for comparing paths: its canonical path, or its directory's canonical
/// path and its name when it does not exist yet.
fn identity(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()).join(p.file_name().unwrap_or_default())
}

/// The files point `p` reads (a trace it replays, a graph file), with what each is.
fn inputs_of(p: &Point) -> Vec<(&'static str, PathBuf)> {
    let sim = &p.job.sim;
    let mut inputs = Vec::new();
    if let netwrap_sim::Source::Trace(t) = &sim.workload.source {
        inputs.push(("the trace it replays (--trace)", t.path.clone()));
        if let Some(path) = &t.placement_file {
            inputs.push(("the placement file (--placement-file)", path.clone()));
        }
    }
    if let netwrap_sim::Source::Collective(c) = &sim.workload.source
        && let Some(path) = &c.placement_file
    {
        inputs.push(("the placement file (--placement-file)", path.clone()));
    }
    if let netwrap_topo::TopologySpec::Graph { file, terminals } = &sim.topology {
        inputs.push(("the graph file", file.clone()));
        inputs.extend(terminals.iter().map(|t| ("the graph's terminals file", t.clone())));
    }
    inputs
}

/// Refuses outputs that name one file twice, or a file the run reads (the experiment, and
/// `read`: the points' traces and graph files, [`inputs_of`]): writing would destroy the
/// input, or one output the other, before anything is read or written.
fn check_paths(o: &RunOptions, read: &[(&'static str, PathBuf)]) -> anyhow::Result<()> {
    let outputs = [
        ("--csv", &o.csv),
        ("--jsonl", &o.jsonl),
        ("--det-file", &o.det_file),
        ("--plot", &o.plot),
        ("--channels", &o.channels),
        ("--record-trace", &o.record_trace),
    ];
    let named: Vec<(&str, &Path, PathBuf)> = outputs
        .iter()
        .filter_map(|(flag, p)| p.as_deref().filter(|p| !is_stdout(p)).map(|p| (*flag, p, identity(p))))
        .collect();
    for (i, (a, path, id)) in named.iter().enumerate() {
        if let Some((b, ..)) = named[i + 1..].iter().find(|(.., other)| other == id) {
            bail!(
                "{a} and {b} both name {}: one file cannot hold both; give each output a file of its own",
                path.display()
            );
        }
    }
    for (what, input) in o.inputs.iter().chain(read) {
        let id = identity(input);
        if let Some((flag, path, _)) = named.iter().find(|(.., out)| *out == id) {
            bail!(
                "{flag} {} is {what}, which this run reads: writing it would destroy it; choose another file",
                path.display()
            );
        }
    }
    Ok(())
}

/// A table cell for a swept value: like [`cell`], with long decimals shortened to four
/// significant digits (the CSV and JSON keep them exact).
fn table_cell(v: &Value) -> String {
    let text = cell(v);
    match v.as_f64() {
        Some(x) if text.len() > 10 && x != 0.0 && x.is_finite() => {
            let decimals = (3 - x.abs().log10().floor() as i32).clamp(0, 12) as usize;
            format!("{x:.decimals$}")
        }
        _ => text,
    }
}

/// The CSV row of point `p`, which ran as `r`.
fn csv_row(p: &Point, r: &Simulation) -> String {
    csv_line(&table::row_cells(&Row::of(p, r)))
}

/// Every point's channels as `--channels` writes them.
fn channels_csv(done: &[(Point, Simulation)]) -> String {
    let rows: Vec<ChannelRow> = done.iter().flat_map(|(p, r)| ChannelRow::of(p, r)).collect();
    table::channels_csv(&rows)
}

fn json_line(p: &Point, r: &Simulation) -> String {
    let mut obj = serde_json::Map::new();
    obj.insert("point".into(), p.index.into());
    obj.insert("replication".into(), p.replication.into());
    obj.insert("parameters".into(), Value::Object(p.params.iter().cloned().collect()));
    obj.insert("experiment".into(), p.identity.experiment.clone().into());
    obj.insert("points".into(), p.identity.points.into());
    if let Value::Object(fields) = serde_json::to_value(r).unwrap_or(Value::Null) {
        obj.extend(fields);
    }
    Value::Object(obj).to_string()
}

/// One output file: appended to as points finish, sorted at the end.
struct Sink {
    path: PathBuf,
    csv: bool,
    file: File,
    /// Whether each point's row is in the file (a byte per point of the sweep: 10 MB for the
    /// largest).
    done: Vec<bool>,
    /// Whether the file ends with the points' combined rows (a replicated sweep's CSV, not a
    /// shard's): written again, from every run's row, when it is sorted.
    combine: bool,
}

/// A replicated sweep's combined CSV rows ([`table::combined_lines`]), computed as its rows come
/// in point order, one point's runs at a time (a point's runs are consecutive indices), and kept
/// in an unnamed temporary file until they follow the rows: a sweep of 10^7 points has 10^7
/// rows to combine, and holds one point's.
pub(crate) struct Combiner {
    header: String,
    /// The point (the index of its first run) whose runs `lines` holds.
    point: Option<u64>,
    lines: Vec<String>,
    spill: std::io::BufWriter<File>,
}

impl Combiner {
    /// Combines rows under `header`, keeping its lines in a temporary file in `dir` (the
    /// system's temporary directory: none).
    pub(crate) fn new(header: &str, dir: Option<&Path>) -> std::io::Result<Combiner> {
        Ok(Combiner {
            header: header.to_string(),
            point: None,
            lines: Vec::new(),
            spill: std::io::BufWriter::new(scratch(dir)?),
        })
    }

    /// The next row, `line`, of index `index` (rows come in point order). Its point is its
    /// index less its replication, as [`netwrap_app::row::across`] groups runs: the rows need
    /// not say how many replications the sweep has (`merge` reads only rows).
    pub(crate) fn push(&mut self, index: u64, line: &str) -> anyhow::Result<()> {
        let replication = line.split(',').nth(1).and_then(|r| r.parse::<u64>().ok()).unwrap_or(0);
        let point = index - replication.min(index);
        if self.point != Some(point) {
            self.flush()?;
            self.point = Some(point);
        }
        self.lines.push(line.trim_end().to_string());
        Ok(())
    }

    fn flush(&mut self) -> anyhow::Result<()> {
        if !self.lines.is_empty() {
            let lines: Vec<&str> = self.lines.iter().map(String::as_str).collect();
            for line in table::combined_lines(&self.header, &lines)? {
                self.spill.write_all(line.as_bytes())?;
            }
            self.lines.clear();
        }
        Ok(())
    }

    /// The combined rows: the temporary file, read from its start.
    pub(crate) fn finish(mut self) -> anyhow::Result<File> {
        self.flush()?;
        let mut file = self.spill.into_inner().map_err(std::io::IntoInnerError::into_error)?;
        file.seek(SeekFrom::Start(0))?;
        Ok(file)
    }
}

/// An unnamed temporary file in `dir` (the system's temporary directory: none), gone when
/// closed.
pub(crate) fn scratch(dir: Option<&Path>) -> std::io::Result<File> {
    match dir {
        Some(dir) => tempfile::tempfile_in(dir),
        None => tempfile::tempfile(),
    }
}

/// The bytes of rows a file's sort holds at once: a longer file is sorted in runs of this
/// size, each kept in an unnamed temporary file beside it, and the runs merged (10^7 rows of
/// about 200 bytes are 2 GB).
pub(crate) const SORT_BATCH: usize = 64 << 20;

/// Rows in point order, each with its point.
pub(crate) type Rows = Box<dyn Iterator<Item = anyhow::Result<(u64, String)>>>;

/// An external sort of rows by point, holding a bounded number of bytes of them: rows come in
/// any order and are sorted in batches, each batch but the last kept in an unnamed temporary
/// file, while rows already in point order (a shard's finished file) are merged as they are
/// read and never held. Output files of 10^7 rows are sorted this way (`Sink::sort`), and
/// `merge` joins shards this way.
pub(crate) struct Sorter {
    dir: Option<PathBuf>,
    limit: usize,
    batch: Vec<(u64, String)>,
    bytes: usize,
    runs: Vec<Rows>,
}

impl Sorter {
    /// Sorts holding at most about `limit` bytes of rows ([`SORT_BATCH`]), keeping the rest in
    /// temporary files in `dir` (the system's temporary directory: none).
    pub(crate) fn new(dir: Option<&Path>, limit: usize) -> Sorter {
        Sorter { dir: dir.map(Path::to_path_buf), limit, batch: Vec::new(), bytes: 0, runs: Vec::new() }
    }

    /// Adds a row of point `point`, in any order.
    pub(crate) fn push(&mut self, point: u64, line: String) -> std::io::Result<()> {
        // A row's String and place in the batch.
        self.bytes += line.len() + 32;
        self.batch.push((point, line));
        if self.bytes >= self.limit {
            self.spill()?;
        }
        Ok(())
    }

    /// Adds rows already in point order: read only as the sorted rows are.
    pub(crate) fn push_sorted(&mut self, rows: Rows) {
        self.runs.push(rows);
    }

    /// Writes the batch, sorted, to a temporary file (each line its point, a tab and the row).
    fn spill(&mut self) -> std::io::Result<()> {
        self.batch.sort_by_key(|r| r.0);
        let mut run = std::io::BufWriter::new(scratch(self.dir.as_deref())?);
        for (point, line) in self.batch.drain(..) {
            writeln!(run, "{point}\t{line}")?;
        }
        self.bytes = 0;
        let mut run = run.into_inner().map_err(std::io::IntoInnerError::into_error)?;
        run.seek(SeekFrom::Start(0))?;
        let mut reader = std::io::BufReader::new(run);
        self.runs.push(Box::new(std::iter::from_fn(move || {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) => None,
                Ok(_) => {
                    let line = line.strip_suffix('\n').unwrap_or(&line);
                    let (point, row) = line.split_once('\t').unwrap_or_default();
                    Some(Ok((point.parse().unwrap_or(u64::MAX), row.to_string())))
                }
                Err(e) => Some(Err(e.into())),
            }
        })));
        Ok(())
    }

    /// Every row, in point order: the rows of one point added by [`Sorter::push`] keep their
    /// order. An error ends the rows.
    pub(crate) fn finish(mut self) -> Sorted {
        // (Stable.)
        self.batch.sort_by_key(|r| r.0);
        let last = std::mem::take(&mut self.batch);
        if !last.is_empty() {
            self.runs.push(Box::new(last.into_iter().map(Ok)));
        }
        Sorted { runs: self.runs, heads: std::collections::BinaryHeap::new(), started: false, failed: false }
    }
}

/// A [`Sorter`]'s rows in point order: its runs merged.
pub(crate) struct Sorted {
    runs: Vec<Rows>,
    /// Each run's next row, smallest point first (ties: the earlier run's).
    heads: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize, String)>>,
    started: bool,
    failed: bool,
}

impl Sorted {
    /// Reads run `i`'s next row into the heads.
    fn advance(&mut self, i: usize) -> anyhow::Result<()> {
        if let Some((point, line)) = self.runs[i].next().transpose()? {
            self.heads.push(std::cmp::Reverse((point, i, line)));
        }
        Ok(())
    }

    fn step(&mut self) -> anyhow::Result<Option<(u64, String)>> {
        if !self.started {
            self.started = true;
            for i in 0..self.runs.len() {
                self.advance(i)?;
            }
        }
        let Some(std::cmp::Reverse((point, i, line))) = self.heads.pop() else { return Ok(None) };
        self.advance(i)?;
        Ok(Some((point, line)))
    }
}

impl Iterator for Sorted {
    type Item = anyhow::Result<(u64, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let row = self.step().transpose();
        self.failed = matches!(row, Some(Err(_)));
        row
    }
}

/// The point index of a line of one of our files.
pub(crate) fn point_of(line: &str, csv: bool) -> Option<u64> {
    if csv {
        line.split(',').next()?.parse().ok()
    } else {
        serde_json::from_str::<Value>(line).ok()?.get("point")?.as_u64()
    }
}

/// The first value of `ours` (a point's spec, as JSON) that `theirs` (a row's recorded
/// `config`) does not share: its dotted path, our value and theirs. A value we leave unset
/// (null: the run fills it in, as the warm-up) is not compared.
fn first_difference(path: &str, ours: &Value, theirs: &Value) -> Option<(String, Value, Value)> {
    match (ours, theirs) {
        (Value::Null, _) => None,
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, v)| {
            let at = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
            first_difference(&at, v, b.get(k).unwrap_or(&Value::Null))
        }),
        _ if ours == theirs => None,
        _ => Some((path.to_string(), ours.clone(), theirs.clone())),
    }
}

/// Why a row of a file being resumed is not one of `sweep`'s: a difference it can name (a value
/// of the point's config, for JSON lines; a swept value, for CSV: `Named`), else its identity
/// (`Other`).
/// `config` is the row's recorded config (JSON lines); `cells` the row's swept values and
/// identity as text (CSV).
fn foreign_row(
    sweep: &Sweep,
    point: u64,
    config: Option<&Value>,
    cells: Option<(&[String], &Identity)>,
    identity: Option<Identity>,
) -> anyhow::Result<Option<Foreign>> {
    let ours = sweep.identity();
    if point < ours.points {
        let p = sweep.point(point)?;
        if let Some(config) = config {
            let written = serde_json::to_value(p.job.written()).unwrap_or(Value::Null);
            if let Some((path, a, b)) = first_difference("", &written, config) {
                return Ok(Some(Foreign::Named(format!(
                    "it ran point {point} with {path} = {}, and this experiment's point {point} has {path} = {}",
                    cell(&b),
                    cell(&a)
                ))));
            }
        }
        if let Some((values, _)) = cells {
            for ((name, v), theirs) in p.params.iter().zip(values) {
                if cell(v) != *theirs {
                    return Ok(Some(Foreign::Named(format!(
                        "its point {point} has {name} = {theirs}, and this experiment's has {name} = {}",
                        cell(v)
                    ))));
                }
            }
        }
    }
    let Some(theirs) = identity.or_else(|| cells.map(|(_, i)| i.clone())) else {
        return Ok(Some(Foreign::Other(
            "it records no experiment (written by an older netwrap?): write the file afresh, without --resume"
                .into(),
        )));
    };
    if theirs.points != ours.points {
        return Ok(Some(Foreign::Other(format!(
            "it is a row of an experiment of {} points, and this one has {}",
            theirs.points, ours.points
        ))));
    }
    if theirs.experiment != ours.experiment {
        return Ok(Some(Foreign::Other(format!(
            "it is a row of experiment {}, and this one is {} (another base spec, other axes or replications)",
            theirs.experiment, ours.experiment
        ))));
    }
    Ok(None)
}

/// How a row is another experiment's (see [`foreign_row`]).
enum Foreign {
    /// A value that differs, named.
    Named(String),
    /// Only its identity differs (or it has none).
    Other(String),
}

impl Sink {
    /// Opens `path` for the rows of `sweep`: created afresh, or with `resume` read back — its
    /// complete rows are the points done; a last row cut short (no newline: the run was killed
    /// mid-write) is dropped and its point run again; a row that is not one of this sweep's
    /// (unreadable, another experiment's, a point out of range, a point twice, a CSV row of
    /// other columns) refuses the resume, naming the first difference it can.
    fn open(
        path: &Path,
        csv: bool,
        header: &str,
        resume: bool,
        sweep: &Sweep,
        combine: bool,
    ) -> anyhow::Result<Sink> {
        let what = || format!("{}", path.display());
        let points = sweep.len();
        // Locked before it is read or emptied: another run may be writing it.
        let mut file = output::lock_output(path, &what(), !resume)?;
        let mut done = vec![false; usize::try_from(points).unwrap_or(usize::MAX)];
        // Read a line at a time: a resumed file of 10^7 rows is not held.
        let (mut read, mut complete, mut cut, mut headed) = (0u64, 0u64, false, false);
        if resume {
            let cannot = || format!("cannot read {} to resume", what());
            let mut reader = std::io::BufReader::new(&file);
            let params = sweep.parameters().len();
            let columns = header.trim_end().split(',').count();
            // A row another experiment's by its identity alone: reported unless a later row
            // names a difference.
            let mut other: Option<String> = None;
            let mut buf = String::new();
            for row in 1usize.. {
                buf.clear();
                let n = reader.read_line(&mut buf).with_context(cannot)?;
                read += n as u64;
                if n == 0 {
                    break;
                }
                let Some(line) = buf.strip_suffix('\n') else {
                    cut = true;
                    break;
                };
                complete += n as u64;
                let line = line.strip_suffix('\r').unwrap_or(line);
                if csv && row == 1 {
                    check_header(line, header, &what())?;
                    headed = true;
                    continue;
                }
                // Combined rows are not points: they are written again at the end.
                if line.is_empty() || csv && table::is_combined(line) {
                    continue;
                }
                let not_ours =
                    || format!("cannot resume {}: line {row} is not a row of netwrap's: {line:?}", what());
                let (p, foreign) = if csv {
                    let p = point_of(line, csv).with_context(not_ours)?;
                    let cells = table::csv_record(line);
                    if cells.len() != columns {
                        bail!(
                            "cannot resume {}: line {row} has {} fields where this experiment's rows have {columns}",
                            what(),
                            cells.len()
                        );
                    }
                    let theirs = Identity {
                        experiment: cells[columns - 2].clone(),
                        points: cells[columns - 1].parse().unwrap_or(0),
                    };
                    (p, foreign_row(sweep, p, None, Some((&cells[2..2 + params], &theirs)), None)?)
                } else {
                    let v: Value = serde_json::from_str(line).ok().with_context(not_ours)?;
                    let p = v.get("point").and_then(Value::as_u64).with_context(not_ours)?;
                    let identity = Identity::deserialize(&v).ok();
                    (p, foreign_row(sweep, p, v.get("config"), None, identity)?)
                };
                match foreign {
                    Some(Foreign::Named(why)) => {
                        bail!("cannot resume {}: line {row} is another experiment's: {why}", what())
                    }
                    Some(Foreign::Other(why)) => {
                        other.get_or_insert(format!("line {row} is another experiment's: {why}"));
                        continue;
                    }
                    None => {}
                }
                if p >= points {
                    bail!(
                        "cannot resume {}: line {row} is point {p}, and this experiment has {points} points (another experiment's output?)",
                        what()
                    );
                }
                if std::mem::replace(&mut done[p as usize], true) {
                    bail!("cannot resume {}: point {p} appears twice (line {row})", what());
                }
            }
            if csv && read > 0 && !headed {
                // Its header is cut short.
                check_header("", header, &what())?;
            }
            if let Some(why) = other {
                bail!("cannot resume {}: {why}", what());
            }
        }
        if read > 0 {
            if cut {
                // The cut row goes; its point runs again.
                file.set_len(complete).map_err(|e| write_failed(what(), e))?;
                output::note(format!("{}: its last row was cut short and is run again", what()));
            }
            file.seek(SeekFrom::End(0)).map_err(|e| write_failed(what(), e))?;
            return Ok(Sink { path: path.to_path_buf(), csv, file, done, combine });
        }
        if csv {
            file.write_all(header.as_bytes()).map_err(|e| write_failed(what(), e))?;
        }
        Ok(Sink { path: path.to_path_buf(), csv, file, done, combine })
    }

    /// Whether point `index`'s row is in the file.
    fn has(&self, index: u64) -> bool {
        self.done.get(index as usize).copied().unwrap_or(false)
    }

    /// Appends one row in one write, so a killed run leaves whole rows or a cut last one.
    fn append(&mut self, line: &str) -> std::io::Result<()> {
        let mut row = String::with_capacity(line.len() + 1);
        row.push_str(line);
        if !line.ends_with('\n') {
            row.push('\n');
        }
        self.file.write_all(row.as_bytes())?;
        self.file.flush()
    }

    /// Rewrites the file with its lines in point order (via a temporary file and a rename),
    /// sorted by a [`Sorter`] holding at most [`SORT_BATCH`] bytes of rows, its runs in
    /// unnamed temporary files beside it.
    fn sort(self) -> anyhow::Result<()> {
        // The lock (on `self.file`) is held until the sorted file has replaced it.
        let what = || format!("{}", self.path.display());
        let cannot = || format!("cannot read back {}", what());
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut lines = std::io::BufReader::new(File::open(&self.path).with_context(cannot)?).lines();
        let header = if self.csv { lines.next().transpose().with_context(cannot)? } else { None };
        let mut sorter = Sorter::new(Some(dir), SORT_BATCH);
        for line in lines {
            let line = line.with_context(cannot)?;
            if line.is_empty() || self.csv && table::is_combined(&line) {
                continue;
            }
            // A line that names no point goes last.
            let point = point_of(&line, self.csv).unwrap_or(u64::MAX);
            sorter.push(point, line).map_err(|e| write_failed(what(), e))?;
        }
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".netwrap-tmp");
        let tmp = PathBuf::from(tmp);
        let mut out = std::io::BufWriter::new(File::create(&tmp).map_err(|e| write_failed(what(), e))?);
        if let Some(h) = &header {
            writeln!(out, "{h}").map_err(|e| write_failed(what(), e))?;
        }
        let mut combiner = match &header {
            Some(h) if self.combine => {
                Some(Combiner::new(h, Some(dir)).map_err(|e| write_failed(what(), e))?)
            }
            _ => None,
        };
        for row in sorter.finish() {
            let (point, line) = row.with_context(cannot)?;
            writeln!(out, "{line}").map_err(|e| write_failed(what(), e))?;
            if let Some(c) = &mut combiner {
                c.push(point, &line).with_context(cannot)?;
            }
        }
        if let Some(c) = combiner {
            let mut combined = c.finish().with_context(cannot)?;
            std::io::copy(&mut combined, &mut out).map_err(|e| write_failed(what(), e))?;
        }
        out.flush().map_err(|e| write_failed(what(), e))?;
        drop(out);
        std::fs::rename(&tmp, &self.path).map_err(|e| write_failed(what(), e))?;
        Ok(())
    }
}

/// Refuses to resume a CSV file whose first line, `first`, is not the experiment's `header`.
fn check_header(first: &str, header: &str, what: &str) -> anyhow::Result<()> {
    if first != header.trim_end() {
        let older = header.trim_end().strip_suffix(",experiment,points") == Some(first);
        bail!(
            "cannot resume into {what}: its columns differ from this experiment's ({})",
            if older {
                "written by an older netwrap, without the experiment and points columns: write it afresh, without --resume"
            } else {
                "another experiment's output?"
            }
        );
    }
    Ok(())
}

/// Points run together: each chunk's networks are built once and its points run in
/// parallel, and a run holds one chunk's points and results at a time (a point about 500
/// bytes, a result a few KB), however many points the sweep has.
pub const CHUNK: usize = 4096;

/// The most points whose results a run keeps to its end, for the outputs made of all of them
/// at once (the table, `--json`, `--det-file`, `--channels`, `--plot`); a larger run writes its
/// rows as they finish (`--csv`, `--jsonl`) and holds none.
pub const HELD: u64 = 10_000;

/// Runs `sweep` as `o` says, printing and writing its results; a single point's verdict
/// becomes the exit status (3 saturated, 5 limit reached); a sweep marks its points and succeeds.
///
/// Every point of the run is resolved up front, one at a time, and dropped (a bad value fails
/// before anything runs); then the points are made again by index, [`CHUNK`] at a time.
pub fn run(sweep: &Sweep, o: &RunOptions) -> anyhow::Result<()> {
    if o.no_model && sweep.base().model.is_some() {
        bail!(
            "--no-model, and the spec asks for the model (its `model` section): remove the section, or --no-model"
        );
    }
    // A plotted sweep draws the model's curve wherever a model applies.
    let with_model;
    let sweep = if o.plot.is_some() && !o.no_model {
        with_model = sweep.clone().with_model_where_it_applies();
        &with_model
    } else {
        sweep
    };
    // A shard resolves only its own points (its cost does not grow with the sweep).
    let indices = match o.shard {
        Some(s) => sweep.shard_indices(s.index, s.count)?,
        None => sweep.shard_indices(0, 1)?,
    };
    let count = indices.clone().count() as u64;
    if count > 1_000_000 {
        output::note(format!(
            "checking each of the {count} points before any runs (some seconds per million)"
        ));
    }
    let mut read: Vec<(&'static str, PathBuf)> = Vec::new();
    sweep.check_points(indices.clone(), |p| {
        for input in inputs_of(p) {
            if !read.contains(&input) {
                read.push(input);
            }
        }
    })?;
    check_paths(o, &read)?;
    for (path, what) in [(&o.det_file, "the detailed statistics file"), (&o.channels, "the --channels file")]
    {
        if let Some(path) = path.as_deref().filter(|p| !is_stdout(p)) {
            details::check_writable(path, what)?;
        }
    }
    // Outputs made of every result at once are refused, before any file is opened, when the
    // run has more points than it keeps.
    let hold = count <= HELD;
    if !hold {
        let whole = [
            (o.json, "--json prints every point's result at the end"),
            (o.det_file.is_some(), "--det-file writes every point's statistics at the end"),
            (o.channels.is_some(), "--channels writes every point's channels at the end"),
            (o.plot.is_some(), "--plot draws every point"),
        ];
        if let Some((_, what)) = whole.iter().find(|w| w.0) {
            bail!(
                "{what}, and this run has {count} points, more than the {HELD} a run keeps: write them as they finish with --csv FILE or --jsonl FILE (- for standard output)"
            );
        }
        if o.csv.is_none() && o.jsonl.is_none() {
            bail!(
                "this run has {count} points, more than the {HELD} whose table netwrap prints: write them as they finish with --csv FILE or --jsonl FILE (- for standard output)"
            );
        }
    }
    let params = sweep.parameters();
    // A sweep of collectives has their columns too.
    let collective = indices.clone().next().and_then(|i| sweep.point(i).ok()).is_some_and(|p| {
        match &p.job.sim.workload.source {
            Source::Collective(_) => true,
            Source::Trace(t) => t.format.ranked(),
            _ => false,
        }
    });
    let header = csv_line(&if collective { Row::collective_columns(&params) } else { Row::columns(&params) });
    // A replicated sweep's CSV ends with each point's runs combined (a shard's has only some
    // of them: `merge` combines them).
    let combine = sweep.replications() > 1 && o.shard.is_none();
    let mut sinks = Vec::new();
    for (path, csv) in [(&o.csv, true), (&o.jsonl, false)] {
        if let Some(p) = path.as_ref().filter(|p| !is_stdout(p)) {
            sinks.push(Sink::open(p, csv, &header, o.resume, sweep, combine)?);
        }
    }
    // The points every file already holds (none without files).
    let skip: Vec<bool> = match sinks.first() {
        Some(first) => (0..first.done.len() as u64).map(|i| sinks.iter().all(|s| s.has(i))).collect(),
        None => Vec::new(),
    };
    let pending = |i: &u64| !skip.get(*i as usize).copied().unwrap_or(false);
    let todo = indices.clone().filter(pending).count() as u64;
    if let Some(path) = &o.plot {
        if params.is_empty() {
            bail!(
                "--plot draws latency against a swept parameter, and this run sweeps none (give --rates, or sweep axes in the file)"
            );
        }
        crate::chart::Format::of(path)?;
    }
    // The points to run, CHUNK at a time. What resolving a point notes (a Midimew pattern
    // taken on network numbers, N rounded up, …) is said once per distinct note, as `netwrap
    // sim` prints it, before the first point that has it runs.
    let mut left = indices.filter(pending);
    let mut noted = BTreeSet::new();
    let mut next_chunk = || -> anyhow::Result<Vec<Point>> {
        let chunk: Vec<u64> = left.by_ref().take(CHUNK).collect();
        let points = chunk.into_par_iter().map(|i| sweep.point(i)).collect::<Result<Vec<Point>, _>>()?;
        for p in &points {
            for note in &p.job.sim.notes {
                if noted.insert(note.clone()) {
                    output::note(note);
                }
            }
        }
        Ok(points)
    };
    let mut chunk = next_chunk()?;
    let sinks = Mutex::new(sinks);
    let write_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    // The plot's rows so far, redrawn as each point finishes; a failure to draw is reported
    // once, at the end.
    let plotted: Mutex<Vec<Row>> = Mutex::new(Vec::new());
    let redraw = |rows: &mut Vec<Row>| -> anyhow::Result<()> {
        let Some(path) = &o.plot else { return Ok(()) };
        rows.sort_by_key(|r| r.point);
        let runs = Runs { parameters: params.clone(), rows: rows.clone() };
        let axes = table::Axes { y: "latency".into(), ..Default::default() };
        crate::chart::write(&table::Table::of_runs(&runs).chart(&axes)?, path)
    };
    let several = todo > 1;
    // `--csv -` and `--jsonl -` stream their rows as the points finish, in point order (a
    // row waits only for the points before it in its chunk), each flushed: a stopped sweep
    // keeps its rows. A replicated sweep's combined rows follow them at the end.
    let streamed = if o.channels.as_deref().is_some_and(is_stdout) {
        None
    } else if o.csv.as_deref().is_some_and(is_stdout) {
        Some(true)
    } else if o.jsonl.as_deref().is_some_and(is_stdout) {
        Some(false)
    } else {
        None
    };
    let combiner = match streamed {
        Some(true) if combine => Some(Combiner::new(&header, None)?),
        _ => None,
    };
    // The chunk's next row to write, the rows waiting for the points before them (none: the
    // point failed, and has no row), the combined rows so far.
    type Waiting = BTreeMap<usize, Option<(u64, String)>>;
    let stream = Mutex::new((0usize, Waiting::new(), output::stdout(), combiner));
    if streamed == Some(true) {
        let (_, _, out, _) = &mut *stream.lock().expect("stream lock");
        // `Out` names standard output in its errors.
        out.write_all(header.as_bytes()).and_then(|()| out.flush())?;
    }
    let sink = match &o.record_trace {
        Some(path) => {
            if sweep.len() != 1 {
                bail!(
                    "--record-trace {} records one run's messages, and this run has {} points: record a single point",
                    path.display(),
                    sweep.len()
                );
            }
            let file = output::lock_output(path, &path.display().to_string(), true)?;
            let format = TraceFormat::of_path(path).unwrap_or(TraceFormat::Csv);
            Some(TraceSink::new(Box::new(std::io::BufWriter::new(file)), format))
        }
        None => None,
    };
    let bar = Bar::start(if several { Work::Points(todo) } else { Work::Run }, o.quiet);
    let record = Record {
        channels: o.channels.is_some(),
        trace: sink.as_ref().map(TraceSink::log),
        progress: bar.counter(),
        jobs: match o.jobs {
            Some(n) => Jobs::Exactly(n),
            None if several => Jobs::default(),
            None => Jobs::Auto,
        },
        ..Record::default()
    };
    let record_jobs = record.jobs;
    // The results kept to the end (`hold`), and the first failure with the count of others.
    let mut held: Vec<(Point, Simulation)> = Vec::new();
    let mut failed: Option<(u64, netwrap_app::Error)> = None;
    let mut more = 0u64;
    // A network is built once for the whole run, not once a chunk.
    let builds =
        Builds::announcing(move |p, seconds| warn_if_slow_setup(several.then_some(p.index), seconds));
    while !chunk.is_empty() {
        stream.lock().expect("stream lock").0 = 0;
        let order: Vec<u64> = chunk.iter().map(|p| p.index).collect();
        let results = builds.run(
            &chunk,
            record.clone(),
            |p, plan| {
                warn_if_long(several.then_some(p.index), plan, record_jobs);
                bar.started(p.index, plan.cycles);
            },
            |p, r| {
                bar.point_done(p.index, r.as_ref().ok().map(|r| r.result.report.cycles));
                if let Some(csv) = streamed {
                    let (next, waiting, out, combiner) = &mut *stream.lock().expect("stream lock");
                    let at = order.binary_search(&p.index).unwrap_or(0);
                    let line = r.as_ref().ok().map(|r| {
                        (p.index, if csv { csv_row(p, r) } else { format!("{}\n", json_line(p, r)) })
                    });
                    waiting.insert(at, line);
                    while let Some(line) = waiting.remove(next) {
                        *next += 1;
                        let Some((index, line)) = line else { continue };
                        let written = out.write_all(line.as_bytes()).and_then(|()| out.flush());
                        let combined = combiner.as_mut().map_or(Ok(()), |c| c.push(index, &line));
                        if let Err(e) = written.map_err(anyhow::Error::from).and(combined) {
                            write_error.lock().expect("error lock").get_or_insert(e);
                        }
                    }
                }
                let Ok(r) = r else { return };
                if o.plot.is_some() {
                    let mut rows = plotted.lock().expect("plot lock");
                    rows.push(Row::of(p, r));
                    // Drawn again at the end, where a failure is reported.
                    let _ = redraw(&mut rows);
                }
                let mut sinks = sinks.lock().expect("output lock");
                for s in sinks.iter_mut().filter(|s| !s.has(p.index)) {
                    let line = if s.csv { csv_row(p, r) } else { json_line(p, r) };
                    if let Err(e) = s.append(&line) {
                        let what = s.path.display().to_string();
                        write_error.lock().expect("error lock").get_or_insert(write_failed(what, e).into());
                    }
                }
            },
        );
        for (p, r) in chunk.drain(..).zip(results) {
            match r {
                Ok(r) if hold => held.push((p, r)),
                Ok(_) => {}
                Err(e) if failed.is_none() => failed = Some((p.index, e)),
                Err(_) => more += 1,
            }
        }
        // A file that cannot be written stops the run at the end of its chunk.
        if write_error.lock().expect("error lock").is_some() {
            break;
        }
        chunk = next_chunk()?;
    }
    // Cleared before anything else is written.
    bar.finish();
    if let Some(e) = write_error.into_inner().expect("error lock") {
        return Err(e);
    }
    if let (Some(sink), Some(path)) = (&sink, &o.record_trace) {
        sink.finish().map_err(|e| write_failed(path.display().to_string(), e))?;
    }
    if let Some(path) = &o.plot {
        redraw(&mut plotted.into_inner().expect("plot lock"))
            .with_context(|| format!("--plot {}", path.display()))?;
        output::note(format!("plot: {}", path.display()));
    }
    let sinks = sinks.into_inner().expect("output lock");
    let files: Vec<String> = sinks.iter().map(|s| s.path.display().to_string()).collect();
    for s in sinks {
        s.sort()?;
    }
    let done = held;
    if let Some(path) = &o.det_file {
        let runs: Vec<&Simulation> = done.iter().map(|(_, r)| r).collect();
        details::write(path, &runs)?;
    }
    if let Some(path) = o.channels.as_deref().filter(|p| !is_stdout(p)) {
        let what = path.display().to_string();
        let mut file = output::lock_output(path, &what, true)?;
        file.write_all(channels_csv(&done).as_bytes()).map_err(|e| write_failed(what, e))?;
    }
    let mut out = output::stdout();
    let single = sweep.len() == 1;
    if o.channels.as_deref().is_some_and(is_stdout) {
        out.write_all(channels_csv(&done).as_bytes())?;
    } else if streamed.is_some() {
        // Written as the points finished; the combined rows follow.
        let (_, _, mut streamed_out, combiner) = stream.into_inner().expect("stream lock");
        if let Some(c) = combiner {
            std::io::copy(&mut c.finish()?, &mut streamed_out)?;
        }
        streamed_out.flush()?;
    } else if o.json && single {
        if let Some((_, r)) = done.first() {
            output::write_json(&mut out, r)?;
        }
    } else if o.json {
        let rows: Vec<Value> =
            done.iter().map(|(p, r)| serde_json::from_str(&json_line(p, r)).unwrap_or(Value::Null)).collect();
        output::write_json(&mut out, &rows)?;
    } else if single {
        if let Some((_, r)) = done.first() {
            report(&mut out, r)?;
        }
    } else if !hold {
        output::note(format!(
            "{todo} points run, their rows in {}: netwrap prints the table of at most {HELD} points",
            files.join(" and ")
        ));
    } else if !done.is_empty() {
        table(&mut out, sweep, &done)?;
    }
    out.finish()?;
    if let Some((index, e)) = failed {
        if single {
            return Err(e.into());
        }
        bail!(
            "point {index} of the sweep failed: {}{}",
            output::message(&e.into()),
            if more > 0 { format!(" (and {more} more)") } else { String::new() }
        );
    }
    if single && let Some((_, r)) = done.first() {
        return verdict(r);
    }
    Ok(())
}

/// Reads an experiment file (see [`Sweep::read`]); its errors say which file.
pub fn read_experiment(path: &Path) -> anyhow::Result<Sweep> {
    Sweep::read(path).with_context(|| format!("in {}", path.display()))
}

/// The saturation search's default relative precision.
pub const DEFAULT_TOLERANCE: f64 = 0.02;

/// Runs the search on `spec` and prints it; `csv`: also (`-`: only) its probes as CSV;
/// `quiet`: without a progress bar; `jobs`: threads for each probe (`None`: one, since the
/// probes of a round run in parallel).
pub fn search(
    spec: &Spec,
    tolerance: f64,
    json: bool,
    csv: Option<&Path>,
    quiet: bool,
    jobs: Option<u32>,
) -> anyhow::Result<()> {
    for note in spec.resolve()?.sim.notes {
        output::note(note);
    }
    let bar = Bar::start(Work::Search, quiet);
    let jobs = jobs.map_or_else(Jobs::default, Jobs::Exactly);
    let record = Record { progress: bar.counter(), jobs, ..Record::default() };
    let report = netwrap_app::saturation(spec, tolerance, &record, |status| {
        bar.probe_done();
        bar.bracket(status.stable, status.saturated);
    });
    bar.finish();
    let report = report?;
    output::emit(&report, json, csv)
}

/// One CSV row: a probe as the JSON has it, numbered in the order the search ran it (1 =
/// first).
#[derive(Serialize)]
struct CsvRow<'a> {
    probe: usize,
    #[serde(flatten)]
    result: &'a netwrap_sim::saturation::Probe,
}

impl Render for Saturation {
    fn rows(&self) -> Vec<serde_json::Value> {
        let s = &self.search;
        s.probes
            .iter()
            .enumerate()
            .map(|(i, result)| serde_json::to_value(CsvRow { probe: i + 1, result }).unwrap_or_default())
            .collect()
    }

    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (report, s) = (self, &self.search);
        writeln!(
            out,
            "netwrap {VERSION} saturation search: {}, B = {} flits, seed {}",
            s.network,
            report.config.sim.workload.size.unwrap_or(netwrap_sim::defaults::SIZE),
            report.seed
        )?;
        writeln!(out, "criterion: {}", s.criterion)?;
        writeln!(out)?;
        writeln!(
            out,
            "{:>14} {:>8} {:>10} {:>10} {:>14} {:>14}",
            "rate", "rho", "accepted", "offered", "latency", "judged"
        )?;
        for p in &s.probes {
            writeln!(
                out,
                "{:>14} {:>8.4} {:>10.5} {:>10.5} {:>14} {:>14}",
                num(p.rate),
                p.utilization,
                p.throughput,
                p.offered,
                opt(p.latency, 2),
                if p.saturated { "saturated" } else { "stable" }
            )?;
        }
        writeln!(out)?;
        match s.first_saturated {
            Some(hi) => writeln!(
                out,
                "saturation: between m = {} (stable) and {} (saturated): {:.4} flits/node/cycle",
                brief(s.max_rate),
                brief(hi),
                s.max_flits
            )?,
            None => writeln!(out, "no saturation up to m = 1 message/node/cycle")?,
        }
        if let Some(m) = s.max_rate_from_loads {
            writeln!(out, "the exact channel load reaches one flit per cycle at m = {}", brief(m))?;
        }
        if let Some(m) = &report.model {
            writeln!(out, "model {} ({}): saturates at m = {}", m.model, m.source, brief(m.max_rate))?;
        }
        Ok(())
    }
}

/// Seconds of simulation from which a run is announced as long before it starts: a run whose
/// estimate ([`netwrap_sim::Plan::seconds`], good to a factor of two) may reach a minute.
const LONG_RUN: f64 = 30.0;

/// Says on standard error, before it starts, that a run on `jobs` threads may take a minute or
/// more, and what bounds it; `point` names the point of a sweep.
pub fn warn_if_long(point: Option<u64>, plan: &netwrap_sim::Plan, jobs: Jobs) {
    if let Some(note) = long_run(plan, plan.threads(jobs)) {
        output::note(format!("{}{note}", point.map(|i| format!("point {i}: ")).unwrap_or_default()));
    }
}

/// Seconds of setup (a network's distances and exact channel loads) from which it is announced
/// before it starts: a network of 2^24 routers, or CCC(17), keeps a run silent for 10–20 s
/// before its first cycle.
const SLOW_SETUP: f64 = 10.0;

/// Says on standard error, once its topology is built, that a network's setup may take
/// ten seconds or more ([`netwrap_sim::setup_seconds`], good to a factor of two);
/// `point` names the point of a sweep.
pub fn warn_if_slow_setup(point: Option<u64>, seconds: f64) {
    if let Some(note) = slow_setup(seconds) {
        output::note(format!("{}{note}", point.map(|i| format!("point {i}: ")).unwrap_or_default()));
    }
}

/// The announcement of a slow setup (see [`warn_if_slow_setup`]), none for a quicker one.
pub fn slow_setup(seconds: f64) -> Option<String> {
    (seconds >= SLOW_SETUP).then(|| {
        format!(
            "a slow setup: the network's routes and exact channel loads take about {}–{} s to work out before its first cycle",
            num((seconds / 2.0).round()),
            num((seconds * 2.0).round())
        )
    })
}

/// The announcement of a long run on `threads` threads (see [`warn_if_long`]), none for a
/// shorter one. Several threads divide the one-thread estimate by their number (two run a large
/// network 1.8–2.3 times as fast: docs/sim.md, "One run on every core").
pub fn long_run(plan: &netwrap_sim::Plan, threads: usize) -> Option<String> {
    let seconds = plan.seconds / threads.max(1) as f64;
    if seconds < LONG_RUN {
        return None;
    }
    let r = &plan.point.run;
    let bound = if plan.stop.saturated {
        format!(
            "saturated before its first cycle, it only measures what the network accepts, within its budget of {:.0e} hop events; --max-cycles shortens it",
            netwrap_sim::SATURATED_WORK
        )
    } else if plan.cycles >= r.max_cycles as f64 {
        format!("--max-cycles {} bounds it", r.max_cycles)
    } else {
        format!(
            "its warm-up and --messages {} set its length (--warmup and --messages shorten it), --max-cycles {} bounds it",
            r.messages, r.max_cycles
        )
    };
    let minutes = |x: f64| num((x / 60.0 * 2.0).round() / 2.0);
    let on = if threads > 1 { format!(" on {threads} threads") } else { String::new() };
    Some(format!(
        "a long run: {}–{} minutes{on} ({:.1e} hop events over {} cycles, at the cost of a hop event measured on networks of its size); {bound}",
        minutes(seconds / 2.0),
        minutes(seconds * 2.0),
        plan.hop_events,
        num(plan.cycles.round()),
    ))
}

/// A single run's verdict as the exit status.
pub fn verdict(r: &Simulation) -> anyhow::Result<()> {
    let reason = r.result.report.verdict_reason.clone().unwrap_or_default();
    match r.result.report.verdict {
        Verdict::Ok => Ok(()),
        Verdict::Saturated => Err(saturated(format!("the network is saturated: {reason}"))),
        Verdict::LimitReached => Err(limit_reached(format!("limit reached: {reason}"))),
        Verdict::Deadlock => Err(deadlocked(format!("deadlock: {reason}"))),
        Verdict::NotSteady => Err(not_steady(format!("no steady state: {reason}"))),
    }
}

/// The replayed trace, if any (the destination pattern's figures do not apply to it).
fn c_trace(r: &Simulation) -> Option<&Path> {
    match &r.result.point.workload.source {
        Source::Trace(t) => Some(&t.path),
        _ => None,
    }
}

/// Whether the run is a collective's (the destination pattern's figures do not apply to it).
fn c_collective(r: &Simulation) -> bool {
    matches!(r.result.point.workload.source, Source::Collective(_))
}

/// A collective's completion, its critical path and its bound, in the text report.
fn collective_text(
    out: &mut dyn Write,
    rep: &netwrap_sim::report::Report,
    c: &netwrap_sim::report::CollectiveReport,
) -> std::io::Result<()> {
    let line = |out: &mut dyn Write, name: &str, value: String| writeln!(out, "{name:<32}{value:>20}");
    match rep.completion {
        Some(t) => line(out, "completion (cycles)", t.to_string())?,
        None => line(out, "completion (cycles)", "not completed".into())?,
    }
    if c.iterations.len() > 1 {
        let ends: Vec<String> = c.iterations.iter().map(u64::to_string).collect();
        line(out, "iterations end at", ends.join(" "))?;
        line(out, "mean iteration (cycles)", format!("{:.1}", c.iteration_time))?;
    }
    let b = &c.breakdown;
    line(out, "critical path: compute", b.compute.to_string())?;
    line(out, "  network (source queueing)", format!("{} ({})", b.network, b.source_queueing))?;
    line(out, "  unloaded / contention", format!("{:.0} / {:.0}", b.unloaded, b.contention))?;
    line(out, "  messages / hops", format!("{} / {}", b.messages, b.hops))?;
    line(out, "waiting on dependencies (mean)", format!("{:.1}", b.dependency_wait))?;
    let channel = c.bound.channel.map_or("-".to_string(), |x| format!("{x:.0}"));
    line(out, "bound: busiest channel / path", format!("{channel} / {:.0}", c.bound.critical_path))?;
    if let Some(b) = c.bound.injection {
        line(out, "bound: injection", format!("{b:.0}"))?;
    }
    if let Some(b) = c.bound.bisection {
        line(out, "bound: bisection", format!("{b:.0}"))?;
    }
    if let Some(ratio) = c.ratio {
        line(out, "completion / bound", format!("{ratio:.3}"))?;
    }
    line(out, "ranks, rounds per iteration", format!("{}, {}", c.ranks, c.rounds))?;
    line(out, "messages (flits)", format!("{} ({})", c.messages, c.flits))
}

/// Relative error as a signed percentage.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |e| format!("{:+.1}%", 100.0 * e))
}

/// Latency with its interval: wide ("12.345 ± 0.678") for reports, narrow ("12.35±0.68") for
/// tables, "—" when the verdict is not ok.
fn latency_text(r: &netwrap_sim::report::Report, wide: bool) -> String {
    match (r.latency, r.latency_ci95, wide) {
        (Some(l), Some(ci), true) => format!("{l:.3} ± {ci:.3}"),
        (Some(l), Some(ci), false) => format!("{l:.2}±{ci:.2}"),
        (Some(l), None, true) => format!("{l:.3}"),
        (Some(l), None, false) => format!("{l:.2}"),
        (None, _, _) => match r.verdict {
            Verdict::Saturated => "saturated".into(),
            Verdict::Deadlock => "deadlock".into(),
            _ => "—".into(),
        },
    }
}

/// The routing of a resolved point, in words (the report's `routing:`).
pub fn routing_text(c: &netwrap_sim::Resolved) -> String {
    if c.updown() {
        return "up*/down* from router 0 (Schroeder et al. 1991, Autonet; --deadlock updown)".into();
    }
    if c.router.vc().is_some_and(|p| p.deadlock == netwrap_sim::Avoidance::Escape) {
        let escape = match (c.routing.algorithm.name(), c.routing.order) {
            ("family", Some(o)) => format!("dimension order ({})", o.name().replace('-', " ")),
            ("record", _) => "the Midimew routing record".into(),
            _ => "the family's own".into(),
        };
        return format!(
            "every minimal next hop, adaptively, with {escape} as the escape (Puente et al. Fig. 4)"
        );
    }
    match (c.routing.algorithm.name(), c.routing.order) {
        ("family", Some(o)) => format!("dimension order ({})", o.name().replace('-', " ")),
        ("family", None) => "the family's own".into(),
        ("table", _) => "table of every minimal next hop".into(),
        ("record", _) => "Midimew routing record".into(),
        (other, _) => other.into(),
    }
}

/// The header lines every report and table starts with.
fn header(out: &mut impl Write, r: &Simulation, axes: &[&Axis]) -> std::io::Result<()> {
    let c = &r.result.point;
    let n = &r.result.network;
    let swept: Vec<&str> = axes.iter().map(|a| a.path.as_str()).collect();
    if swept.iter().any(|p| *p == "topology" || p.starts_with("topology.")) {
        // The first point's network is not the sweep's: the swept line below names each.
        writeln!(out, "netwrap {VERSION} sim: networks swept; seed {}", c.run.seed)?;
    } else {
        writeln!(
            out,
            "netwrap {VERSION} sim: {}, {} processors, {} routers, {} channels; seed {}",
            n.name, n.nodes, n.routers, n.channels, c.run.seed
        )?;
    }
    if !axes.is_empty() {
        let each: Vec<String> = axes
            .iter()
            .map(|a| {
                // Each distinct value once, in the order met (a zipped axis repeats them); a
                // long list as its first three, its last and its count.
                let mut values: Vec<String> = Vec::new();
                for v in a.values.iter().map(table_cell) {
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
                let n = values.len();
                if n > 6 {
                    values = [&values[..3], &["…".to_string()], &values[n - 1..]].concat();
                    format!("{} = {} ({n} values)", a.path, values.join(", "))
                } else {
                    format!("{} = {}", a.path, values.join(", "))
                }
            })
            .collect();
        writeln!(out, "swept: {}", each.join("; "))?;
    }
    let is = |p: &str| swept.contains(&p);
    let rate =
        if is("workload.rate") { "swept".into() } else { format!("{} messages/node/cycle", brief(c.rate())) };
    let w = &c.workload;
    let size = if is("workload.size") {
        "swept".into()
    } else {
        match w.size {
            MessageSize::Fixed(b) => format!("{b} flits"),
            MessageSize::Bimodal { short, long, long_fraction } => {
                format!("{short} flits, or {long} flits with probability {}", brief(long_fraction))
            }
        }
    };
    let traffic = match (&r.result.locality, &w.destinations) {
        _ if is("workload.pattern") => "pattern swept".into(),
        (Some(l), Destinations::Locality(locality)) => format!(
            "locality l = {} (subcube sides {:?}, effective l = {:.4})",
            num(*locality),
            l.sides,
            l.effective_locality
        ),
        (_, Destinations::Hotspot { nodes, fraction }) => {
            format!("hotspot traffic ({} of messages to nodes {nodes:?}, the rest uniform)", brief(*fraction))
        }
        (_, d) => format!("{} traffic", d.kind().name()),
    };
    let traffic = match w.self_traffic {
        netwrap_sim::SelfTraffic::Include => traffic,
        netwrap_sim::SelfTraffic::Exclude => format!("{traffic}, none to the source (fixed points silent)"),
        netwrap_sim::SelfTraffic::Reroute => {
            format!("{traffic}, none to the source (fixed points to another node drawn uniformly)")
        }
    };
    let (threads, interval) = match &w.source {
        Source::Trace(t) if t.format.ranked() => {
            let placement = match &t.placement_file {
                Some(f) => format!("placement from {}", f.display()),
                None => format!("{} placement", t.placement().name()),
            };
            writeln!(
                out,
                "workload: the {} trace {} replayed with its dependencies, {} bytes a flit, {placement}",
                t.format.name(),
                t.path.display(),
                t.flit_bytes()
            )?;
            (None, netwrap_sim::Interval::Geometric)
        }
        Source::Trace(t) => {
            writeln!(out, "workload: the trace {} replayed", t.path.display())?;
            (None, netwrap_sim::Interval::Geometric)
        }
        Source::Collective(c) => {
            let schedule = match c.kind {
                netwrap_sim::CollectiveKind::Alltoall => format!(", {} schedule", c.schedule.name()),
                _ => String::new(),
            };
            let placement = match &c.placement_file {
                Some(f) => format!("placement from {}", f.display()),
                None => format!("{} placement", c.placement.name()),
            };
            writeln!(
                out,
                "workload: {} of {size} a rank{schedule}, {} iteration{}, compute {} cycles a step, {placement}",
                c.kind.name(),
                c.iterations,
                if c.iterations == 1 { "" } else { "s" },
                c.compute
            )?;
            (None, netwrap_sim::Interval::Geometric)
        }
        Source::Open { interval, on_off, .. } => {
            writeln!(out, "workload: {traffic}, m = {rate}, B = {size}")?;
            if let Some(o) = on_off
                && let Ok((idle, p)) = o.at(c.rate())
            {
                writeln!(
                    out,
                    "sources: on/off, bursts of mean {} cycles, idle spells of mean {} cycles{}, a message with probability {} each cycle on",
                    brief(o.burst),
                    brief(idle),
                    if o.idle.is_none() { " (for a message every cycle on)" } else { "" },
                    brief(p)
                )?;
            }
            (None, *interval)
        }
        Source::Threads { interval, threads, .. } => {
            writeln!(out, "workload: {traffic}, m = {rate}, B = {size}")?;
            (Some(*threads), *interval)
        }
    };
    // (An open loop's on/off sources have their own line above.)
    if threads.is_some() || interval == netwrap_sim::Interval::Periodic {
        let intervals = match interval {
            netwrap_sim::Interval::Geometric => "geometric",
            netwrap_sim::Interval::Periodic => "periodic",
            netwrap_sim::Interval::OnOff => "on/off",
        };
        let threads = match threads {
            None => "open loop".to_string(),
            Some(1) => "1 thread, waiting for each access (m is the request rate while busy)".to_string(),
            Some(t) => format!(
                "{t} threads, each waiting for its access, round-robin with a one-cycle switch (m is the request rate while busy)"
            ),
        };
        writeln!(out, "processors: {threads}; {intervals} intervals between accesses")?;
    }
    if let Some(reply) = &w.reply {
        let replies = if reply.size == 0 {
            "answered without a reply message".to_string()
        } else {
            format!(
                "replies of {} flits on {}",
                reply.size,
                match reply.network {
                    netwrap_sim::ReplyNetwork::Separate => "a separate network (tables of minimal next hops)",
                    _ => "the request network",
                }
            )
        };
        writeln!(
            out,
            "memories: access time M = {} cycles, one access at a time, first come first served; {replies}",
            reply.memory_latency
        )?;
    }
    let warmup = if swept.is_empty() {
        match r.result.report.warmup_extended_from {
            Some(planned) => format!(
                "{} warm-up cycles (grown from {planned}: the steady-state test found the transient longer)",
                r.result.report.warmup
            ),
            None => format!("{} warm-up cycles", r.result.report.warmup),
        }
    } else {
        "warm-up per point".into()
    };
    writeln!(
        out,
        "run: {warmup}, {} measured messages, {} engine; routing: {}; offered loads: {}",
        if c_collective(r)
            || matches!(&c.workload.source, Source::Trace(t) if t.format.ranked() && t.messages.is_none())
        {
            format!("all {}", r.result.outcome.measured.target)
        } else if matches!(&c.workload.source, Source::Trace(t) if t.format.ranked()) {
            r.result.outcome.measured.target.to_string()
        } else {
            c.run.messages.to_string()
        },
        match c.router {
            netwrap_sim::Router::Vc(_) => "virtual-channel",
            netwrap_sim::Router::Ideal(netwrap_sim::EngineKind::Fast) => "fast",
            netwrap_sim::Router::Ideal(netwrap_sim::EngineKind::Reference) => "flit-by-flit reference",
        },
        routing_text(&r.result.point),
        if c_trace(r).is_some() {
            "none (a trace's messages are the run's own)"
        } else if c_collective(r) {
            "none (a collective's messages are its own)"
        } else {
            &r.result.load_method
        }
    )?;
    if let Some(p) = c.router.vc() {
        writeln!(
            out,
            "router: virtual-channel, {} VCs x {} flits per input port{}, router delay {}, link latency {} (credits alike){}, packets of at most {} flits, {}, {}{}",
            p.vcs,
            p.buffer,
            buffers_text(p),
            pipeline_text(p),
            p.link_latency,
            terminal_channels_text(p),
            p.packet,
            match p.switching {
                netwrap_sim::Switching::Wormhole => "wormhole",
                netwrap_sim::Switching::Vct => "virtual cut-through",
                netwrap_sim::Switching::Saf => "store-and-forward",
            },
            arbitration_text(p),
            match p.deadlock {
                netwrap_sim::Avoidance::None => "",
                netwrap_sim::Avoidance::Dateline => match p.dateline_class {
                    netwrap_sim::DatelineClass::AtWrap => ", dateline",
                    netwrap_sim::DatelineClass::ByRoute =>
                        ", dateline (the class chosen by route on entering a ring)",
                },
                netwrap_sim::Avoidance::Bubble => ", bubble flow control",
                netwrap_sim::Avoidance::Escape =>
                    ", adaptive (any minimal hop) with a dimension-order escape VC (bubble flow control on rings)",
                netwrap_sim::Avoidance::Updown => ", up*/down* routing",
                netwrap_sim::Avoidance::Phases => ", VC classes by route phase",
                netwrap_sim::Avoidance::DestGroup => ", VC classes by destination group",
            }
        )?;
    }
    if !c.class_latency.is_empty() {
        let classes: Vec<String> = c.class_latency.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(out, "channel latencies by class (credits alike): {}", classes.join(", "))?;
    }
    if let Some(m) = &r.model {
        writeln!(out, "model: {}", m.source)?;
    }
    Ok(())
}

/// The arbitration, and the switch allocator when not netwrap's greedy one.
fn arbitration_text(p: &netwrap_sim::VcParams) -> String {
    let arbitration = match p.arbitration {
        netwrap_sim::Arbitration::RoundRobin => "round-robin",
        netwrap_sim::Arbitration::OldestFirst => "oldest-first",
    };
    let allocator = match p.allocator {
        netwrap_sim::Allocator::Greedy => return format!("{arbitration} arbitration"),
        netwrap_sim::Allocator::InputFirst => "separable input-first",
        netwrap_sim::Allocator::OutputFirst => "separable output-first",
        netwrap_sim::Allocator::Islip => "iSLIP",
    };
    format!("{allocator} switch allocation with {arbitration} arbiters")
}

/// The router's output buffers and speedups, when it has them (", …" or nothing).
fn buffers_text(p: &netwrap_sim::VcParams) -> String {
    let mut text = String::new();
    if p.output_buffer > 0 {
        text += &format!(" and {} flits per output VC", p.output_buffer);
    }
    for (name, speedup) in [("input", p.input_speedup), ("output", p.output_speedup)] {
        if speedup > 1 {
            text += &format!(", {name} speedup {speedup}");
        }
    }
    text
}

/// The router delay, and its stages when given as stages.
fn pipeline_text(p: &netwrap_sim::VcParams) -> String {
    match p.stages {
        None => p.router_delay.to_string(),
        Some(s) => format!(
            "{} + per packet {} (routing {}, VC allocation {}, switch allocation {}, traversal {}{})",
            p.router_delay,
            p.header_extra(),
            s.routing,
            s.vc_alloc,
            s.switch_alloc,
            s.traversal,
            if s.speculative { ", speculative" } else { "" }
        ),
    }
}

/// The terminals' channels and ejection port, where they differ from netwrap's defaults.
fn terminal_channels_text(p: &netwrap_sim::VcParams) -> String {
    let mut text = String::new();
    if p.injection_latency != 0 || p.ejection_latency != 0 {
        text += &format!(
            ", injection and ejection channels of {} and {} cycles",
            p.injection_latency, p.ejection_latency
        );
    }
    if p.ejection == netwrap_sim::Ejection::EveryVc {
        text += ", ejection of one packet per VC";
    }
    if p.vc_choice == netwrap_sim::VcChoice::Rotating {
        text += ", VCs taken round-robin";
    }
    text
}

/// The model line of a sweep whose points use different forms of the model.
fn varying_model(out: &mut impl Write, done: &[(Point, Simulation)]) -> std::io::Result<()> {
    let sources: Vec<&str> =
        done.iter().filter_map(|(_, r)| r.model.as_ref().map(|m| m.source.as_str())).collect();
    if sources.windows(2).any(|w| w[0] != w[1]) {
        let name = done.iter().find_map(|(_, r)| r.model.as_ref().map(|m| m.model)).unwrap_or_default();
        writeln!(
            out,
            "(model {name}: the contention form differs between points; --json or --csv give each point's)"
        )?;
    }
    Ok(())
}

/// The report of one run.
pub fn report(out: &mut impl Write, r: &Simulation) -> std::io::Result<()> {
    header(out, r, &[])?;
    let rep = &r.result.report;
    let m = r.model.as_ref();
    writeln!(out)?;
    if m.is_some() {
        writeln!(out, "{:<32}{:>20}{:>14}{:>10}", "", "simulation", "model", "error")?;
    }
    let row =
        |out: &mut dyn Write, name: &str, sim: String, model: Option<String>, err: Option<String>| match m {
            Some(_) => {
                let line = format!(
                    "{name:<32}{sim:>20}{:>14}{:>10}",
                    model.unwrap_or_default(),
                    err.unwrap_or_default()
                );
                writeln!(out, "{}", line.trim_end())
            }
            None => writeln!(out, "{name:<32}{sim:>20}"),
        };
    if let Some(c) = &rep.collective {
        collective_text(out, rep, c)?;
    } else if let Some(t) = rep.completion {
        // A netrace trace's or a dump's, replayed to its end.
        writeln!(out, "{:<32}{:>20}", "completion (cycles)", t)?;
    }
    row(
        out,
        "channel utilization rho",
        format!("{:.4}", rep.utilization),
        m.map(|m| format!("{:.4}", m.utilization)),
        m.map(|m| pct(m.relative_error.utilization)),
    )?;
    row(
        out,
        "latency T",
        latency_text(rep, true),
        m.map(|m| opt(m.latency, 3)),
        m.map(|m| pct(m.relative_error.latency)),
    )?;
    if let (Some(model), Some(u)) =
        (m.and_then(|m| m.processor_utilization), rep.accesses.as_ref().and_then(|a| a.processor_utilization))
    {
        row(
            out,
            "processor utilization U",
            format!("{u:.4}"),
            Some(format!("{model:.4}")),
            m.map(|m| pct(m.relative_error.processor_utilization)),
        )?;
        if let Some(a) = &rep.accesses {
            row(
                out,
                "round trip (App. D's T)",
                format!("{:.3} ± {}", a.round_trip, opt(a.round_trip_ci95, 3)),
                m.map(|m| opt(m.latency, 3)),
                m.map(|m| pct(m.relative_error.latency)),
            )?;
        }
    }
    row(
        out,
        "mean hops",
        format!("{:.3} ± {}", rep.mean_hops, opt(rep.mean_hops_ci95, 3)),
        m.map(|m| format!("{:.3}", m.mean_hops)),
        m.map(|m| pct(m.relative_error.mean_hops)),
    )?;
    row(
        out,
        "throughput (msg/node/cycle)",
        format!("{:.5}", rep.throughput),
        m.map(|m| format!("{:.5}", m.throughput)),
        None,
    )?;
    row(out, "offered (msg/node/cycle)", format!("{:.5}", rep.offered), None, None)?;
    let line = |out: &mut dyn Write, name: &str, value: String| writeln!(out, "{name:<32}{value:>20}");
    line(out, "offered load (flits/node/cycle)", format!("{:.5}", rep.offered_load))?;
    line(out, "accepted load (flits/node/cycle)", format!("{:.5}", rep.accepted_load))?;
    if rep.self_load > 0.0 {
        line(out, "to themselves (flits/node/cycle)", format!("{:.5}", rep.self_load))?;
    }
    let hops_label = if r.result.expected_mean_hops_exact {
        "routes' mean hops (exact)"
    } else if r.result.point.routing.paths().choice != netwrap_topo::PathChoice::Minimal {
        "routes' mean hops (minimal)"
    } else {
        "routes' mean hops (uniform's)"
    };
    if c_trace(r).is_none() && !c_collective(r) {
        line(out, hops_label, format!("{:.3}", r.result.expected_mean_hops))?;
    }
    if let (Some(u), Some(max)) = (r.result.offered_utilization, r.result.max_rate) {
        writeln!(
            out,
            "{:<32}{:>20}   (saturates at m = {max:.5})",
            "busiest channel offered",
            format!("{u:.4}")
        )?;
    }
    line(out, "source queueing", format!("{:.3}", rep.source_queueing))?;
    line(out, "network latency", format!("{:.3}", rep.network_latency))?;
    if let Some(a) = &rep.accesses {
        if let (Some(u), None) = (a.processor_utilization, m) {
            line(out, "processor utilization U", format!("{u:.4}"))?;
        }
        line(out, "accesses (per processor/cycle)", format!("{:.5}", a.access_rate))?;
        line(out, "round trip", format!("{:.3} ± {}", a.round_trip, opt(a.round_trip_ci95, 3)))?;
        line(out, "  request", format!("{:.3}", a.request_latency))?;
        if r.result.point.workload.reply.is_some() {
            line(out, "  memory (queueing + M)", format!("{:.3}", a.memory_time))?;
            line(out, "  reply", format!("{:.3}", a.reply_latency))?;
        }
        if let Some(p) = &a.round_trip_percentiles {
            line(out, "round trip p50/p95/p99/max", format!("{}/{}/{}/{}", p.p50, p.p95, p.p99, p.max))?;
        }
        line(
            out,
            "accesses measured",
            format!("{} of {}", a.accesses_measured, r.result.point.run.messages),
        )?;
    }
    if let (Some(p), Some(n), Some(d)) =
        (rep.packet_latency, rep.packet_network_latency, rep.packets_delivered)
    {
        line(out, "packet latency (network)", format!("{p:.3} ({n:.3})"))?;
        line(out, "packets delivered", format!("{d}"))?;
    }
    if let Some(f) = rep.nonminimal {
        line(out, "routed non-minimally", format!("{f:.4}"))?;
    }
    if let Some(f) = rep.fairness {
        line(out, "per-source accepted min/max", format!("{:.5}/{:.5}", f.min, f.max))?;
        line(out, "Jain's fairness index", format!("{:.4}", f.jain))?;
    }
    if let Some(p) = &rep.latency_percentiles {
        line(out, "latency p50/p95/p99/max", format!("{}/{}/{}/{}", p.p50, p.p95, p.p99, p.max))?;
    }
    if let Some(s) = &rep.accepted_by_window {
        let loads: Vec<String> = s.loads.iter().map(|x| format!("{x:.4}")).collect();
        writeln!(
            out,
            "{:<32}{}   (flits/node/cycle, windows of {} cycles)",
            "accepted per window",
            loads.join(" "),
            s.window
        )?;
        let trend = format!("{:+.1}% from first window to last", 100.0 * s.trend);
        line(
            out,
            "accepted load drift",
            if s.drifts { format!("drifts, {trend}") } else { format!("none ({trend})") },
        )?;
    }
    // (A replayed trace that ends early measures the messages it has.)
    line(
        out,
        "messages delivered",
        format!("{} of {}", rep.messages_delivered, r.result.outcome.measured.target),
    )?;
    line(out, "messages generated (window)", rep.messages_generated.to_string())?;
    line(out, "cycles simulated", rep.cycles.to_string())?;
    for c in &rep.utilization_by_class {
        match c.expected {
            Some(e) => writeln!(
                out,
                "{:<32}{:>20}   (offered {e:.4})",
                format!("utilization {}", c.class),
                format!("{:.4}", c.utilization)
            )?,
            None => line(out, &format!("utilization {}", c.class), format!("{:.4}", c.utilization))?,
        }
    }
    // The virtual-channel router's mean buffer occupancy per VC, in flits (at most 8 VCs shown;
    // the JSON has them all).
    for c in &rep.utilization_by_class {
        if let Some(occ) = &c.occupancy {
            let mut shown: Vec<String> = occ.iter().take(8).map(|x| format!("{x:.3}")).collect();
            if occ.len() > 8 {
                shown.push("…".into());
            }
            line(out, &format!("flits per VC {}", c.class), shown.join(" / "))?;
        }
    }
    match rep.verdict {
        Verdict::Ok => {
            if let Some(note) = &rep.latency_ci_note {
                writeln!(out)?;
                writeln!(out, "Latency has {note}.")?;
            }
        }
        Verdict::Saturated => {
            writeln!(out)?;
            writeln!(out, "SATURATED: {}.", rep.verdict_reason.as_deref().unwrap_or(""))?;
            writeln!(
                out,
                "The network accepts {:.5} messages/node/cycle of the {:.5} offered{}; latency grows with the length of the run ({}, no steady-state figure).",
                rep.throughput,
                rep.offered,
                r.result
                    .max_rate
                    .map(|m| format!(" (the busiest channel saturates at m = {})", brief(m)))
                    .unwrap_or_default(),
                if rep.messages_delivered > 0 {
                    format!("mean over this run: {:.1} cycles", rep.latency_observed)
                } else {
                    "no measured message was delivered before the run stopped".into()
                }
            )?;
        }
        Verdict::NotSteady => {
            writeln!(out)?;
            writeln!(out, "NOT STEADY: {}.", rep.verdict_reason.as_deref().unwrap_or(""))?;
            writeln!(
                out,
                "Mean latency over this run: {:.3} cycles, of {} measured messages (no steady-state figure).",
                rep.latency_observed, rep.messages_delivered
            )?;
        }
        Verdict::LimitReached => {
            writeln!(out)?;
            writeln!(out, "LIMIT REACHED: {}.", rep.verdict_reason.as_deref().unwrap_or(""))?;
            if rep.messages_delivered > 0 {
                writeln!(
                    out,
                    "Mean latency of the {} measured messages delivered: {:.3} (biased low: the slowest are still in flight).",
                    rep.messages_delivered, rep.latency_observed
                )?;
            }
        }
        Verdict::Deadlock => {
            writeln!(out)?;
            writeln!(out, "DEADLOCK: {}.", rep.verdict_reason.as_deref().unwrap_or(""))?;
            if let Some(d) = &rep.deadlock {
                writeln!(
                    out,
                    "Cycle of waits (each input virtual channel's packet waits for room in the next, or for the output virtual channel the next one's packet holds):"
                )?;
                for w in &d.cycle {
                    let input = match (w.channel, &w.class, w.terminal) {
                        (Some(c), Some(class), _) => format!("channel {c} ({class})"),
                        (Some(c), None, _) => format!("channel {c}"),
                        (None, _, Some(t)) => format!("injection from terminal {t}"),
                        (None, _, None) => "injection".into(),
                    };
                    writeln!(
                        out,
                        "  router {:>6}  input {input:<24} VC {}  packet {} -> {}",
                        w.router, w.vc, w.source, w.destination
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// A sweep as a table: the swept values, then the measurements.
pub fn table(out: &mut impl Write, sweep: &Sweep, done: &[(Point, Simulation)]) -> std::io::Result<()> {
    let params = sweep.parameters();
    let first = &done[0].1;
    header(out, first, &sweep.axes())?;
    varying_model(out, done)?;
    writeln!(out)?;
    let names: Vec<String> = params.iter().map(|p| p.rsplit('.').next().unwrap_or(p).to_string()).collect();
    let with_model = done.iter().any(|(_, r)| r.model.is_some());
    let reps = sweep.replications() > 1;
    // Columns of at least 12 characters, wider where a value is (a pattern's name).
    let widths: Vec<usize> = (0..names.len())
        .map(|i| {
            done.iter()
                .filter_map(|(p, _)| p.params.get(i).map(|(_, v)| table_cell(v).chars().count()))
                .chain([12, names[i].chars().count()])
                .max()
                .unwrap_or(12)
        })
        .collect();
    let mut head = String::new();
    for (n, w) in names.iter().zip(&widths) {
        head += &format!("{n:>w$} ");
    }
    if reps {
        head += &format!("{:>4} ", "rep");
    }
    head += &format!("{:>8} {:>16} {:>8} {:>10} {:>14}", "rho", "latency", "hops", "accepted", "verdict");
    // Processors that wait: their utilisation and round trip (and the model's U).
    let with_u = done
        .iter()
        .any(|(_, r)| r.result.report.accesses.as_ref().is_some_and(|a| a.processor_utilization.is_some()));
    let with_trip = done.iter().any(|(_, r)| r.result.report.accesses.is_some());
    let with_collective = done.iter().any(|(_, r)| r.result.report.collective.is_some());
    if with_collective {
        head += &format!(" {:>11} {:>11} {:>8}", "completion", "bound", "ratio");
    }
    if with_u {
        head += &format!(" {:>7}", "U");
    }
    if with_trip {
        head += &format!(" {:>16}", "round trip");
    }
    if with_model {
        head += &format!(" {:>8} {:>10} {:>8}", "rho_mdl", "T_model", "error");
        if with_u {
            head += &format!(" {:>7} {:>8}", "U_mdl", "error_U");
        }
    }
    writeln!(out, "{head}")?;
    for (p, r) in done {
        let rep = &r.result.report;
        let mut line = String::new();
        for ((_, v), w) in p.params.iter().zip(&widths) {
            line += &format!("{:>w$} ", table_cell(v));
        }
        if reps {
            line += &format!("{:>4} ", p.replication);
        }
        let verdict = match rep.verdict {
            Verdict::Ok => "ok",
            Verdict::Saturated => "saturated",
            Verdict::LimitReached => "limit reached",
            Verdict::Deadlock => "deadlock",
            Verdict::NotSteady => "not steady",
        };
        line += &format!(
            "{:>8.4} {:>16} {:>8.3} {:>10.5} {:>14}",
            rep.utilization,
            latency_text(rep, false),
            rep.mean_hops,
            rep.throughput,
            verdict
        );
        let a = rep.accesses.as_ref();
        if with_collective {
            let c = rep.collective.as_ref();
            line += &format!(
                " {:>11} {:>11} {:>8}",
                rep.completion.map_or("—".into(), |t| t.to_string()),
                c.map_or("—".into(), |c| format!("{:.0}", c.bound.bound)),
                c.and_then(|c| c.ratio).map_or("—".into(), |r| format!("{r:.3}"))
            );
        }
        if with_u {
            line += &format!(
                " {:>7}",
                a.and_then(|a| a.processor_utilization).map_or("—".into(), |u| format!("{u:.4}"))
            );
        }
        if with_trip {
            line += &format!(
                " {:>16}",
                a.map_or("—".into(), |a| format!("{:.2}±{}", a.round_trip, opt(a.round_trip_ci95, 2)))
            );
        }
        if with_model {
            let m = r.model.as_ref();
            line += &format!(
                " {:>8} {:>10} {:>8}",
                m.map_or("—".into(), |m| format!("{:.4}", m.utilization)),
                m.map_or("—".into(), |m| opt(m.latency, 2)),
                pct(m.and_then(|m| m.relative_error.latency))
            );
            if with_u {
                line += &format!(
                    " {:>7} {:>8}",
                    m.and_then(|m| m.processor_utilization).map_or("—".into(), |u| format!("{u:.4}")),
                    pct(m.and_then(|m| m.relative_error.processor_utilization))
                );
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    if reps {
        across_table(out, done, &names, &widths)?;
    }
    Ok(())
}

/// A replicated sweep's points combined ([`netwrap_app::row::across`]): per point, the runs
/// whose verdict is ok, their mean latency with its Student-t interval across them, and the
/// mean accepted throughput of every run with its interval.
fn across_table(
    out: &mut impl Write,
    done: &[(Point, Simulation)],
    names: &[String],
    widths: &[usize],
) -> std::io::Result<()> {
    let rows: Vec<Row> = done.iter().map(|(p, r)| Row::of(p, r)).collect();
    writeln!(out)?;
    writeln!(
        out,
        "across replications: means with their 95% Student-t intervals over the runs (latency over the runs whose verdict is ok)"
    )?;
    let mut head = String::new();
    for (n, w) in names.iter().zip(widths) {
        head += &format!("{n:>w$} ");
    }
    writeln!(out, "{head}{:>7} {:>18} {:>20}", "ok", "latency", "accepted")?;
    let text = |mean: Option<f64>, half: Option<f64>, digits: usize| match (mean, half) {
        (Some(m), Some(h)) => format!("{m:.digits$}±{h:.digits$}"),
        (Some(m), None) => format!("{m:.digits$}"),
        (None, _) => "—".into(),
    };
    for a in netwrap_app::row::across(&rows) {
        let mut line = String::new();
        for ((_, v), w) in a.parameters.iter().zip(widths) {
            line += &format!("{:>w$} ", table_cell(v));
        }
        line += &format!(
            "{:>7} {:>18} {:>20}",
            format!("{}/{}", a.ok, a.runs),
            text(a.latency, a.latency_ci95, 2),
            text(Some(a.throughput), a.throughput_ci95, 5)
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification of the external sort against a stable in-memory sort: 2000 rows of 400
    /// points in a shuffled order (each point five times, numbered in the order added) pushed
    /// through a 1 KB batch, so in about 100 runs in temporary files, plus two runs already in
    /// point order, come out in point order; the rows of one point that were pushed keep their
    /// order, and every row comes out once.
    #[test]
    fn the_external_sort_orders_rows_in_bounded_batches() {
        let mut sorter = Sorter::new(None, 1 << 10);
        let mut pushed = Vec::new();
        for i in 0..2000u64 {
            let point = (i * 7919) % 400;
            let line = format!("{point},row {i}");
            pushed.push((point, line.clone()));
            sorter.push(point, line).unwrap();
        }
        assert!(sorter.runs.len() > 50, "{} runs", sorter.runs.len());
        let sorted_run = |tag: &'static str| -> Rows {
            Box::new((0..400u64).step_by(3).map(move |p| Ok((p, format!("{p},{tag}")))))
        };
        sorter.push_sorted(sorted_run("first sorted"));
        sorter.push_sorted(sorted_run("second sorted"));
        let rows: Vec<(u64, String)> = sorter.finish().collect::<anyhow::Result<_>>().unwrap();
        assert!(rows.windows(2).all(|w| w[0].0 <= w[1].0), "not in point order");
        assert_eq!(rows.len(), 2000 + 2 * 134);
        let ours: Vec<&(u64, String)> = rows.iter().filter(|r| !r.1.contains("sorted")).collect();
        pushed.sort_by_key(|r| r.0);
        assert!(ours.iter().copied().eq(pushed.iter()), "the pushed rows differ from a stable sort's");
    }

    /// The combined rows of a replicated sweep's CSV are those of all its rows at once
    /// ([`table::combined_lines`]) when computed a point at a time: each run's point is its
    /// index less its replication.
    #[test]
    fn combined_rows_are_computed_a_point_at_a_time() {
        let header = csv_line(&Row::columns(&[]));
        let lines: Vec<String> = (0..12u64)
            .map(|i| {
                let metrics = netwrap_app::row::Metrics {
                    verdict: Some(if i == 4 { Verdict::Saturated } else { Verdict::Ok }),
                    latency: Some((10 + i * i % 7) as f64),
                    throughput: 0.1 * (i % 4) as f64,
                    ..Default::default()
                };
                let identity = Identity { experiment: "00000000000000aa".into(), points: 12 };
                let row = Row { point: i, replication: (i % 3) as u32, metrics, identity, ..Row::default() };
                csv_line(&table::row_cells(&row)).trim_end().to_string()
            })
            .collect();
        let mut c = Combiner::new(&header, None).unwrap();
        for (i, l) in lines.iter().enumerate() {
            c.push(i as u64, l).unwrap();
        }
        let mut combined = String::new();
        std::io::Read::read_to_string(&mut c.finish().unwrap(), &mut combined).unwrap();
        let whole =
            table::combined_lines(&header, &lines.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
        assert_eq!(combined.lines().count(), 4);
        assert_eq!(combined, whole.concat());
    }

    /// The plan of `spec` (TOML) on its network.
    fn plan(spec: &str) -> netwrap_sim::Plan {
        let job = Sweep::from_toml(spec).unwrap().base().resolve().unwrap();
        netwrap_sim::Experiment::build(&job.sim).unwrap().plan(&job.sim).unwrap()
    }

    /// Characterisation of the long-run announcement. A ring of 2^20 nodes is saturated before
    /// its first cycle (its exact loads say so), so its run is its saturated budget's one cycle:
    /// not announced (it was, as 4–19 minutes, when every cycle counted the hop events of the
    /// steady state). A 12-cube asked for 4·10^9 messages is, naming --max-cycles, which bounds
    /// it, or with a limit past them, --messages; a 4×4 torus's default run is not.
    #[test]
    fn long_runs_are_announced_from_their_real_bound() {
        let ring = plan("[topology]\nfamily = \"ring\"\nk = 1048576\n");
        assert!(ring.stop.saturated);
        assert_eq!(ring.cycles, 1.0);
        assert_eq!(long_run(&ring, 1), None);
        let cube = "[topology]\nfamily = \"hypercube\"\nn = 12\n[run]\nmessages = 4000000000\n";
        let note = long_run(&plan(cube), 1).expect("announced");
        assert!(
            note.starts_with("a long run: ") && note.ends_with("--max-cycles 10000000 bounds it"),
            "{note}"
        );
        let note = long_run(&plan(&format!("{cube}max-cycles = 1000000000\n")), 1).expect("announced");
        assert!(note.contains("its warm-up and --messages 4000000000 set its length"), "{note}");
        assert_eq!(long_run(&plan("[topology]\nfamily = \"torus\"\nk = 4\n"), 1), None);
        // On several threads the estimate is divided by their number, and says so; a run that
        // cannot be cut (UGAL-global) takes one whatever --jobs says.
        let big = plan(cube);
        let minutes = |note: &str| note.split(' ').nth(3).unwrap().to_string();
        let (one, four) = (long_run(&big, 1).unwrap(), long_run(&big, 4).unwrap());
        assert!(four.contains(" minutes on 4 threads ("), "{four}");
        let range = |s: String| -> Vec<f64> { s.split('–').map(|x| x.parse().unwrap()).collect() };
        let (r1, r4) = (range(minutes(&one)), range(minutes(&four)));
        assert!((r1[1] / r4[1] - 4.0).abs() < 0.5, "{one} / {four}");
        assert_eq!(big.threads(Jobs::Exactly(1)), 1);
        let ugal =
            plan("[topology]\nfamily = \"dragonfly\"\np = 2\n[routing]\nalgorithm = \"ugal-global\"\n");
        assert!(!ugal.shardable);
        assert_eq!(ugal.threads(Jobs::Exactly(8)), 1);
        // A setup estimated at 10 s or more is announced, with the factor of two either way.
        assert_eq!(slow_setup(9.9), None);
        let note = slow_setup(20.0).expect("announced");
        assert!(note.starts_with("a slow setup: ") && note.contains("about 10–40 s"), "{note}");
    }
}
