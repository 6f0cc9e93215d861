//! The native half of the Python package `netwrap` (`netwrap._native`): functions over the
//! facade (`netwrap-app`), converting with serde — a dict in is read by the very serde types
//! the command line fills from its flags (unknown keys refused, with a "did you mean"), and a
//! result comes back as the dict of the JSON the command line prints, field for field.
//! Simulations run on a thread of their own with the GIL released, and Ctrl-C cancels them
//! ([`interrupt`]). The Python modules (`python/netwrap/*.py`) give these functions their
//! public shape; nothing here formats a result.

mod convert;
mod errors;
mod interrupt;

use convert::{result, to_py, to_value};
use errors::{Raise, SpecError};
use interrupt::{interruptible, interruptible_with};
use netwrap_app::predict::{self, Request};
use netwrap_app::sweep::{Identity, suggest};
use netwrap_app::{Error, Point, Row, Simulation, Sweep};
use netwrap_engine::progress::Progress;
use netwrap_engine::{Jobs, Record};
use netwrap_model::request::{
    CostRequest, DesignRequest, FatTreeRequest, FeedbackRequest, IndirectRequest, KaryNCubeRequest,
};
use netwrap_sim::trace::{TraceFormat, TraceSink};
use netwrap_topo::{RoutingSpec, TopologySpec};
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How a spec was given: TOML text, or a JSON value (a mapping, or a `.json` file).
enum Written {
    Toml(String),
    Json(Value),
}

/// A spec as Python gives it: TOML text, a path (`os.PathLike`, or a string of one line
/// ending in `.toml` or `.json`: `simulate("ex2.toml")` reads the file), or a mapping.
fn written(spec: &Bound<'_, PyAny>) -> PyResult<Written> {
    let read = |path: PathBuf| -> PyResult<Written> {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| PyValueError::new_err(format!("cannot read {}: {e}", path.display())))?;
        let json = match path.extension().and_then(|e| e.to_str()) {
            Some("json") => true,
            Some("toml") => false,
            _ => text.trim_start().starts_with('{'),
        };
        if json {
            serde_json::from_str(&text)
                .map(Written::Json)
                .map_err(|e| PyValueError::new_err(format!("in {}: not valid JSON: {e}", path.display())))
        } else {
            Ok(Written::Toml(text))
        }
    };
    if let Ok(text) = spec.cast::<PyString>() {
        let text = text.to_cow()?.into_owned();
        let trimmed = text.trim();
        // TOML text has an `=` or a `[`; a file's name has neither and ends in its extension.
        if !trimmed.contains(['\n', '=', '[']) && (trimmed.ends_with(".toml") || trimmed.ends_with(".json")) {
            return read(PathBuf::from(trimmed));
        }
        return Ok(Written::Toml(text));
    }
    if spec.hasattr("__fspath__")? {
        return read(spec.extract()?);
    }
    if spec.cast::<PyDict>().is_ok() || spec.cast::<pyo3::types::PyMapping>().is_ok() {
        return Ok(Written::Json(to_value(spec, "the spec")?));
    }
    Err(PyValueError::new_err(format!(
        "a spec is a mapping of sections, TOML text or a file's path, not {}",
        spec.get_type().name()?
    )))
}

/// Sweep axes: a mapping of dotted paths to lists (plus `replications` and `zip`).
fn axes(axes: Option<&Bound<'_, PyAny>>) -> PyResult<Map<String, Value>> {
    match axes.map(|a| to_value(a, "the sweep axes")).transpose()? {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(axes)) => Ok(axes),
        Some(_) => Err(PyValueError::new_err(
            "sweep axes are a mapping of dotted paths to lists, e.g. {\"workload.rate\": [0.01, 0.02]}",
        )),
    }
}

/// The experiment of `spec` with `axes` joining its own sweep table (an axis of the same
/// path replaces the spec's), read by the same code as `netwrap run FILE`.
fn experiment(spec: Written, axes: Map<String, Value>) -> netwrap_app::Result<Sweep> {
    match spec {
        Written::Toml(text) => {
            // The text alone first: its errors name the lines of the text as given.
            let sweep = Sweep::from_toml(&text)?;
            if axes.is_empty() {
                return Ok(sweep);
            }
            let mut table: toml::Table = toml::from_str(&text).map_err(|e| Error::Invalid(e.to_string()))?;
            let entry = table.entry("sweep").or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let toml::Value::Table(sweep) = entry else {
                return Err(Error::Invalid(
                    "sweep: a table of axes, e.g. [sweep] \"workload.rate\" = [0.01, 0.02]".into(),
                ));
            };
            for (path, values) in axes {
                let value = toml::Value::try_from(values)
                    .map_err(|e| Error::Invalid(format!("sweep axis {path}: {e}")))?;
                sweep.insert(path, value);
            }
            let merged = toml::to_string(&table).map_err(|e| Error::Invalid(e.to_string()))?;
            Sweep::from_toml(&merged)
        }
        Written::Json(mut root) => {
            if !axes.is_empty() {
                let Some(fields) = root.as_object_mut() else {
                    return Err(Error::Invalid(
                        "an experiment is a table of sections (topology, workload, …)".into(),
                    ));
                };
                let sweep = fields.entry("sweep").or_insert_with(|| Value::Object(Map::new()));
                let Some(sweep) = sweep.as_object_mut() else {
                    return Err(Error::Invalid(
                        "sweep: a table of axes, e.g. {\"workload.rate\": [0.01, 0.02]}".into(),
                    ));
                };
                sweep.extend(axes);
            }
            Sweep::from_value(root)
        }
    }
}

/// The experiment of a Python spec and axes. serde's "unknown field" and "unknown variant"
/// name no path: the spec as given is searched for the name, so that the error is a
/// `SpecError` whose path says where it is (`workload.rat`, `topology.family`).
fn sweep_of(py: Python<'_>, spec: &Bound<'_, PyAny>, axes_: Option<&Bound<'_, PyAny>>) -> PyResult<Sweep> {
    let (spec, axes) = (written(spec)?, axes(axes_)?);
    let tree = match &spec {
        Written::Json(v) => Some(v.clone()),
        Written::Toml(t) => toml::from_str::<toml::Table>(t).ok().and_then(|t| serde_json::to_value(t).ok()),
    };
    match py.detach(|| experiment(spec, axes)) {
        Ok(sweep) => Ok(sweep),
        Err(Error::Invalid(message)) => match tree.and_then(|t| unknown_name_path(&t, &message)) {
            Some(path) => Err(errors::spec_error(py, message.clone(), &path, Vec::new(), &message)),
            None => Err(PyValueError::new_err(message)),
        },
        Err(e) => Err(errors::to_py(py, e)),
    }
}

/// Where the unknown name of serde's `message` ("unknown field `x`": a key; "unknown variant
/// `x`": a value) is in `tree`, as a dotted path; `None` if the message names none or it is
/// not found.
fn unknown_name_path(tree: &Value, message: &str) -> Option<String> {
    fn find(at: &Value, prefix: &str, name: &str, key: bool) -> Option<String> {
        let Value::Object(fields) = at else { return None };
        for (k, v) in fields {
            let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            if (key && k == name) || (!key && v.as_str() == Some(name)) {
                return Some(path);
            }
            if let Some(found) = find(v, &path, name, key) {
                return Some(found);
            }
        }
        None
    }
    let (rest, key) = match (message.find("unknown field `"), message.find("unknown variant `")) {
        (Some(i), _) => (&message[i + "unknown field `".len()..], true),
        (None, Some(i)) => (&message[i + "unknown variant `".len()..], false),
        _ => return None,
    };
    let name = rest.split('`').next()?;
    find(tree, "", name, key)
}

/// The one point of a spec that must not sweep (`what` is the function, `instead` what to
/// use for a sweep).
fn single(py: Python<'_>, sweep: &Sweep, what: &str, instead: &str) -> PyResult<Point> {
    if sweep.len() != 1 {
        return Err(PyValueError::new_err(format!(
            "{what} runs one point, and this spec's sweep table has {}: {instead}",
            sweep.len()
        )));
    }
    py.detach(|| sweep.point(0)).raise(py)
}

/// Issues each note (what resolving adjusted, `netwrap: …` on the command line) once, as a
/// Python `UserWarning`.
fn warn<'a>(py: Python<'_>, notes: impl IntoIterator<Item = &'a String>) -> PyResult<()> {
    let mut seen: Vec<&String> = Vec::new();
    for note in notes {
        if seen.contains(&note) {
            continue;
        }
        seen.push(note);
        let text = std::ffi::CString::new(note.replace('\0', " ")).expect("no NUL left");
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 2)?;
    }
    Ok(())
}

/// A trace file being written (`record_trace`): the messages of one run, as
/// `--record-trace FILE` writes them (CSV, or JSON lines for `.jsonl`/`.json`).
struct TraceFile {
    path: PathBuf,
    sink: TraceSink,
}

impl TraceFile {
    fn create(path: &Path) -> PyResult<TraceFile> {
        let file = std::fs::File::create(path)
            .map_err(|e| PyValueError::new_err(format!("cannot write {}: {e}", path.display())))?;
        let format = TraceFormat::of_path(path).unwrap_or(TraceFormat::Csv);
        let sink = TraceSink::new(Box::new(std::io::BufWriter::new(file)), format);
        Ok(TraceFile { path: path.to_path_buf(), sink })
    }

    fn finish(&self) -> PyResult<()> {
        self.sink
            .finish()
            .map(|_| ())
            .map_err(|e| PyValueError::new_err(format!("cannot write {}: {e}", self.path.display())))
    }
}

/// The threads of one run: `jobs` (at least 1), or `Jobs::Auto` for `None` (`auto`: every core
/// for a large network, as a single run on the command line) or one thread.
fn jobs(jobs: Option<i64>, auto: bool) -> PyResult<Jobs> {
    match jobs {
        None if auto => Ok(Jobs::Auto),
        None => Ok(Jobs::default()),
        Some(n @ 1..=1024) => Ok(Jobs::Exactly(n as u32)),
        Some(n) => Err(PyValueError::new_err(format!(
            "jobs = {n} is invalid: the threads of one run, from 1 to 1024 (None: every core for a large network)"
        ))),
    }
}

/// Runs one point on `jobs` threads, interruptibly, keeping each channel's statistics when
/// `channels`.
fn run_one(
    py: Python<'_>,
    point: &Point,
    channels: bool,
    trace: Option<&TraceFile>,
    jobs: Jobs,
) -> PyResult<Simulation> {
    let progress = Progress::new();
    let record = Record {
        channels,
        trace: trace.map(|t| t.sink.log()),
        progress: Some(progress.clone()),
        jobs,
        ..Record::default()
    };
    interruptible(py, &progress, || netwrap_app::run_point(point, record))?.raise(py)
}

/// Simulates one spec: the dict `netwrap run SPEC --json` prints.
#[pyfunction]
#[pyo3(signature = (spec, channels=false, record_trace=None, jobs=None))]
fn simulate<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyAny>,
    channels: bool,
    record_trace: Option<PathBuf>,
    jobs: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let jobs = self::jobs(jobs, true)?;
    let sweep = sweep_of(py, spec, None)?;
    let point = single(py, &sweep, "simulate", "use netwrap.sweep")?;
    warn(py, &point.job.sim.notes)?;
    let trace = record_trace.as_deref().map(TraceFile::create).transpose()?;
    let run = run_one(py, &point, channels, trace.as_ref(), jobs);
    if let Some(t) = &trace {
        t.finish()?;
    }
    result(py, &run?)
}

/// A point as Python holds it: its index, replication, swept values and its spec with every
/// key written (what a task needs, and nothing of the rest of the sweep).
fn point_to_py<'py>(py: Python<'py>, p: &Point) -> PyResult<Bound<'py, PyAny>> {
    let dict = PyDict::new(py);
    dict.set_item(pyo3::intern!(py, "index"), p.index)?;
    dict.set_item(pyo3::intern!(py, "replication"), p.replication)?;
    let params: Map<String, Value> = p.params.iter().cloned().collect();
    dict.set_item(pyo3::intern!(py, "params"), to_py(py, &Value::Object(params))?)?;
    dict.set_item(pyo3::intern!(py, "spec"), result(py, &p.job.written())?)?;
    dict.set_item(pyo3::intern!(py, "experiment"), &p.identity.experiment)?;
    dict.set_item(pyo3::intern!(py, "points"), p.identity.points)?;
    Ok(dict.into_any())
}

/// A point from Python: read back from [`point_to_py`]'s dict, its spec resolved again.
fn point_of(py: Python<'_>, point: &Bound<'_, PyAny>) -> PyResult<Point> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Written {
        index: u64,
        #[serde(default)]
        replication: u32,
        #[serde(default)]
        params: Map<String, Value>,
        spec: Value,
        #[serde(default)]
        experiment: String,
        #[serde(default)]
        points: u64,
    }
    let w: Written = serde_json::from_value(to_value(point, "the point")?).map_err(|e| {
        PyValueError::new_err(suggest(&format!(
            "a point is a dict of index, replication, params, spec, experiment and points (as netwrap.points gives): {e}"
        )))
    })?;
    py.detach(|| {
        let sweep = Sweep::from_value(w.spec)?;
        let job = sweep.base().resolve()?;
        let identity = Identity { experiment: w.experiment, points: w.points };
        let params = w.params.into_iter().collect();
        Ok(Point { index: w.index, replication: w.replication, params, job, identity })
    })
    .raise(py)
}

/// Every point of `spec` swept over `axes`, each validated, as dicts.
#[pyfunction]
#[pyo3(signature = (spec, axes=None))]
fn points<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyAny>,
    axes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let sweep = sweep_of(py, spec, axes)?;
    let points = py.detach(|| sweep.points()).raise(py)?;
    let list = PyList::empty(py);
    for p in &points {
        list.append(point_to_py(py, p)?)?;
    }
    Ok(list)
}

/// Runs one point of `points` alone: the dict `netwrap run --json` prints for it.
#[pyfunction]
#[pyo3(signature = (point, channels=false, jobs=None))]
fn run_point<'py>(
    py: Python<'py>,
    point: &Bound<'py, PyAny>,
    channels: bool,
    jobs: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let jobs = self::jobs(jobs, false)?;
    let point = point_of(py, point)?;
    result(py, &run_one(py, &point, channels, None, jobs)?)
}

/// A row's cell as the DataFrame holds it, as the CSV has it: numbers, text and booleans as
/// themselves, none as None, lists as their JSON text, and a table (a swept topology) named
/// as the command line names it (`torus k=8 n=2 bidirectional`).
fn cell<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    match v {
        Value::Array(_) => Ok(PyString::new(py, &v.to_string()).into_any()),
        Value::Object(_) => Ok(PyString::new(py, &netwrap_app::sweep::value_name(v)).into_any()),
        scalar => to_py(py, scalar),
    }
}

/// A row as a dict of cells, in the columns' order.
fn row_to_py<'py>(py: Python<'py>, row: &Row) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    if let Value::Object(fields) =
        serde_json::to_value(row).map_err(|e| PyValueError::new_err(e.to_string()))?
    {
        for (k, v) in &fields {
            dict.set_item(PyString::intern(py, k), cell(py, v)?)?;
        }
    }
    Ok(dict)
}

/// One task of a distributed sweep: runs `point` alone and returns its row and the seconds
/// from this call to the point's run starting (its network built and checked).
#[pyfunction]
fn task<'py>(py: Python<'py>, point: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyDict>, f64)> {
    let start = Instant::now();
    let point = point_of(py, point)?;
    let progress = Progress::new();
    let record = Record { progress: Some(progress.clone()), ..Record::default() };
    let started = std::sync::OnceLock::new();
    let mut results = interruptible(py, &progress, || {
        netwrap_app::run_points(
            std::slice::from_ref(&point),
            record,
            |_, _| {
                let _ = started.set(start.elapsed().as_secs_f64());
            },
            |_, _| {},
        )
    })?;
    let run = results.pop().expect("one point, one result").raise(py)?;
    let row = row_to_py(py, &Row::of(&point, &run))?;
    Ok((row, started.get().copied().unwrap_or_else(|| start.elapsed().as_secs_f64())))
}

/// Runs every point of `spec` swept over `axes` (each network built once, the points in
/// parallel on Rust threads) and returns the rows as columns: a dict of column name to cells,
/// the columns of `netwrap run --csv`. `progress`, when given, is called with (points done,
/// points in all) as they finish (at most every 0.1 s, and once at the end).
#[pyfunction]
#[pyo3(signature = (spec, axes=None, progress=None))]
fn sweep<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyAny>,
    axes: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let sweep = sweep_of(py, spec, axes)?;
    let points = py.detach(|| sweep.points()).raise(py)?;
    warn(py, points.iter().flat_map(|p| &p.job.sim.notes))?;
    let total = points.len() as u64;
    let finished = AtomicU64::new(0);
    let mut told = None;
    let mut tell = |_py: Python<'_>| -> PyResult<()> {
        let done = finished.load(Ordering::Relaxed);
        match progress {
            Some(callback) if told != Some(done) => {
                told = Some(done);
                callback.call1((done, total)).map(drop)
            }
            _ => Ok(()),
        }
    };
    tell(py)?;
    let cancel = Progress::new();
    let record = Record { progress: Some(cancel.clone()), ..Record::default() };
    let results = interruptible_with(
        py,
        &cancel,
        || {
            netwrap_app::run_points(
                &points,
                record,
                |_, _| {},
                |_, _| {
                    finished.fetch_add(1, Ordering::Relaxed);
                },
            )
        },
        &mut tell,
    )?;
    tell(py)?;
    let mut columns = Row::columns(&sweep.parameters());
    let mut rows = Vec::with_capacity(points.len());
    for (p, r) in points.iter().zip(results) {
        let row = Row::of(p, &r.raise(py)?);
        if row.collective.is_some() {
            // A sweep of collectives has their columns too.
            columns = Row::collective_columns(&sweep.parameters());
        }
        rows.push(row);
    }
    let cells: Vec<Bound<'py, PyList>> = columns.iter().map(|_| PyList::empty(py)).collect();
    for row in rows {
        let row = serde_json::to_value(row).map_err(|e| PyValueError::new_err(e.to_string()))?;
        for (c, list) in columns.iter().zip(&cells) {
            list.append(cell(py, row.get(c).unwrap_or(&Value::Null))?)?;
        }
    }
    let table = PyDict::new(py);
    for (c, list) in columns.iter().zip(cells) {
        table.set_item(PyString::intern(py, c), list)?;
    }
    Ok(table)
}

/// The columns of a sweep over `parameters`, in order (a row's fields).
#[pyfunction]
fn columns(parameters: Vec<String>) -> Vec<String> {
    Row::columns(&parameters)
}

/// The columns of a sweep of collectives over `parameters`, in order (a row's fields, a
/// collective's among them).
#[pyfunction]
fn collective_columns(parameters: Vec<String>) -> Vec<String> {
    Row::collective_columns(&parameters)
}

/// A replicated sweep's rows combined (`netwrap_app::row::across`): `rows` are columns of
/// cells as `sweep` returns them (or a CSV's, its combined rows skipped), the swept paths those
/// between `replication` and `verdict`; the result is the combined rows as columns.
#[pyfunction]
fn across<'py>(py: Python<'py>, rows: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let Value::Object(columns) = to_value(rows, "the rows")? else {
        return Err(PyValueError::new_err("the rows are a mapping of column name to cells"));
    };
    let names: Vec<&String> = columns.keys().collect();
    let at = |name: &str| names.iter().position(|n| *n == name);
    let (Some(from), Some(to)) = (at("replication"), at("verdict")) else {
        return Err(PyValueError::new_err(
            "not the rows of a sweep: the columns point, replication, the swept paths, then verdict, latency, throughput, …",
        ));
    };
    let column = |name: &str| -> PyResult<&Vec<Value>> {
        match columns.get(name) {
            Some(Value::Array(cells)) => Ok(cells),
            _ => Err(PyValueError::new_err(format!("the rows have no column {name:?} of cells"))),
        }
    };
    let whole = |v: &Value| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()));
    let points = column("point")?;
    let mut runs = Vec::new();
    for (i, point) in points.iter().enumerate() {
        let cell =
            |name: &str| -> PyResult<Value> { Ok(column(name)?.get(i).cloned().unwrap_or(Value::Null)) };
        let replication = cell("replication")?;
        if replication.as_str() == Some(netwrap_app::row::ALL) {
            continue;
        }
        let bad = |name: &str, v: &Value| {
            PyValueError::new_err(format!("row {i}: {name} = {v} is not a whole number"))
        };
        let mut row = Row {
            point: whole(point).ok_or_else(|| bad("point", point))?,
            replication: whole(&replication)
                .and_then(|r| u32::try_from(r).ok())
                .ok_or_else(|| bad("replication", &replication))?,
            ..Row::default()
        };
        for name in &names[from + 1..to] {
            row.parameters.insert((*name).clone(), cell(name)?);
        }
        row.metrics.verdict = serde_json::from_value(cell("verdict")?).ok();
        row.metrics.latency = cell("latency")?.as_f64();
        row.metrics.throughput = cell("throughput")?.as_f64().unwrap_or(0.0);
        if let (Some(Value::String(e)), Some(n)) =
            (cell("experiment").ok(), cell("points").ok().as_ref().and_then(whole))
        {
            row.identity = Identity { experiment: e, points: n };
        }
        runs.push(row);
    }
    let table = PyDict::new(py);
    let combined = netwrap_app::row::across(&runs);
    let rows: Vec<Map<String, Value>> = combined
        .iter()
        .map(|a| match serde_json::to_value(a) {
            Ok(Value::Object(f)) => f,
            _ => unreachable!("a combined row serialises as a table"),
        })
        .collect();
    if let Some(first) = rows.first() {
        for name in first.keys() {
            let list = PyList::empty(py);
            for r in &rows {
                list.append(cell(py, r.get(name).unwrap_or(&Value::Null))?)?;
            }
            table.set_item(PyString::intern(py, name), list)?;
        }
    }
    Ok(table)
}

/// The saturation search of one spec: the dict `netwrap saturation --json` prints.
#[pyfunction]
#[pyo3(signature = (spec, tolerance=0.02))]
fn saturation<'py>(py: Python<'py>, spec: &Bound<'py, PyAny>, tolerance: f64) -> PyResult<Bound<'py, PyAny>> {
    let sweep = sweep_of(py, spec, None)?;
    if sweep.len() != 1 {
        return Err(PyValueError::new_err(
            "the saturation search sweeps the rate itself: give a spec without sweep axes or replications",
        ));
    }
    let job = py.detach(|| sweep.base().resolve()).raise(py)?;
    warn(py, &job.sim.notes)?;
    let progress = Progress::new();
    let record = Record { progress: Some(progress.clone()), ..Record::default() };
    let spec = sweep.base();
    let found = interruptible(py, &progress, || netwrap_app::saturation(spec, tolerance, &record, |_| {}))?;
    result(py, &found.raise(py)?)
}

/// The static deadlock check of a spec (a sweep's base spec): the dict `netwrap check --json`
/// prints.
#[pyfunction]
fn check<'py>(py: Python<'py>, spec: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let sweep = sweep_of(py, spec, None)?;
    let spec = sweep.base();
    let job = py.detach(|| spec.resolve()).raise(py)?;
    warn(py, &job.sim.notes)?;
    result(py, &py.detach(|| netwrap_app::check(spec)).raise(py)?)
}

/// A spec section read from a dict, with serde's message and a "did you mean".
fn section<T: serde::de::DeserializeOwned>(value: Value, what: &str) -> PyResult<T> {
    serde_json::from_value(value).map_err(|e| PyValueError::new_err(suggest(&format!("{what}: {e}"))))
}

/// A topology built and measured: the dict `netwrap topo FAMILY … --json` prints.
#[pyfunction]
fn topo<'py>(
    py: Python<'py>,
    topology: &Bound<'py, PyAny>,
    routing: &Bound<'py, PyAny>,
    mapping: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let topology: TopologySpec = section(to_value(topology, "the topology")?, "topology")?;
    let routing: RoutingSpec = section(to_value(routing, "the routing")?, "routing")?;
    let report = py.detach(|| netwrap_app::topo(&topology, &routing, mapping)).raise(py)?;
    warn(py, &report.notes)?;
    result(py, &report)
}

/// A request of type `T` from a dict of options (keys as the flags spell them).
fn request<T: Request>(py: Python<'_>, options: &Bound<'_, PyAny>) -> PyResult<T> {
    predict::request::<T>(to_value(options, "the options")?).raise(py)
}

/// An analytical model's report: the dict `netwrap model MODEL … --json` prints.
#[pyfunction]
fn model<'py>(py: Python<'py>, name: &str, options: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    match name {
        "kary-ncube" => {
            let r = predict::kary_ncube(&request::<KaryNCubeRequest>(py, options)?).raise(py)?;
            warn(py, &r.notes)?;
            result(py, &r)
        }
        "feedback" => {
            let r = predict::feedback(&request::<FeedbackRequest>(py, options)?).raise(py)?;
            warn(py, &r.notes)?;
            result(py, &r)
        }
        "indirect" => {
            let r = predict::indirect(&request::<IndirectRequest>(py, options)?).raise(py)?;
            warn(py, &r.notes)?;
            result(py, &r)
        }
        "fat-tree" => result(py, &predict::fat_tree(&request::<FatTreeRequest>(py, options)?).raise(py)?),
        other => Err(PyValueError::new_err(format!(
            "no model {other:?}: the models are kary-ncube, feedback, indirect and fat-tree"
        ))),
    }
}

/// The per-channel model of a spec's network (`netwrap model network`): one report per rate,
/// at `rates`, else at the rates the spec sweeps `workload.rate` over, else at its own rate:
/// the list `netwrap model network SPEC --json` prints (one report for one rate there).
#[pyfunction]
#[pyo3(signature = (spec, rates=None))]
fn model_network<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyAny>,
    rates: Option<Vec<f64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let sweep = sweep_of(py, spec, None)?;
    let curve = py.detach(|| predict::network_of(&sweep, rates.as_deref())).raise(py)?;
    if let Some(first) = curve.points.first() {
        warn(py, &first.notes)?;
    }
    result(py, &curve.points)
}

/// The keys of a command's request (`kary-ncube`, `feedback`, `indirect`, `fat-tree`, `cost`,
/// `design`), as the flags spell them.
#[pyfunction]
fn keys(command: &str) -> PyResult<Vec<String>> {
    Ok(match command {
        "kary-ncube" => predict::keys::<KaryNCubeRequest>(),
        "feedback" => predict::keys::<FeedbackRequest>(),
        "indirect" => predict::keys::<IndirectRequest>(),
        "fat-tree" => predict::keys::<FatTreeRequest>(),
        "cost" => predict::keys::<CostRequest>(),
        "design" => predict::keys::<DesignRequest>(),
        other => return Err(PyValueError::new_err(format!("no command {other:?} takes a request"))),
    })
}

/// Packaging cost of the inter-module networks: the dict `netwrap cost --json` prints.
#[pyfunction]
fn cost<'py>(py: Python<'py>, options: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = request::<CostRequest>(py, options)?;
    result(py, &py.detach(|| netwrap_app::cost(&r)).raise(py)?)
}

/// The constrained design search, its best candidates simulated when asked: the dict
/// `netwrap design --json` prints.
#[pyfunction]
fn design<'py>(py: Python<'py>, options: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = request::<DesignRequest>(py, options)?;
    let progress = Progress::new();
    let record = Record { progress: Some(progress.clone()), ..Record::default() };
    let report = interruptible(py, &progress, || netwrap_app::design(&r, record))?;
    result(py, &report.raise(py)?)
}

/// The module `netwrap._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SpecError", m.py().get_type::<SpecError>())?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(points, m)?)?;
    m.add_function(wrap_pyfunction!(run_point, m)?)?;
    m.add_function(wrap_pyfunction!(task, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(columns, m)?)?;
    m.add_function(wrap_pyfunction!(collective_columns, m)?)?;
    m.add_function(wrap_pyfunction!(across, m)?)?;
    m.add_function(wrap_pyfunction!(saturation, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(topo, m)?)?;
    m.add_function(wrap_pyfunction!(model, m)?)?;
    m.add_function(wrap_pyfunction!(model_network, m)?)?;
    m.add_function(wrap_pyfunction!(keys, m)?)?;
    m.add_function(wrap_pyfunction!(cost, m)?)?;
    m.add_function(wrap_pyfunction!(design, m)?)?;
    m.add("__version__", netwrap_sim::VERSION)?;
    Ok(())
}
