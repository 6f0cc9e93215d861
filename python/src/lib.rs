//! The native half of the Python package `netwrap` (`netwrap._native`): three functions over
//! [`netwrap::api`], each releasing the GIL while netwrap works. The Python modules
//! (`python/netwrap/*.py`) give them their public shape; nothing here computes or formats.

use netwrap::api::{self, Format, Print};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The experiment of a spec's text (TOML, or JSON) plus sweep axes (a JSON object's text).
fn experiment(spec: &str, toml: bool, axes: &str) -> Result<api::Sweep, String> {
    let axes: serde_json::Map<String, serde_json::Value> = if axes.trim().is_empty() {
        serde_json::Map::new()
    } else {
        serde_json::from_str(axes).map_err(|e| format!("sweep axes: not a table of lists: {e}"))?
    };
    api::experiment(spec, if toml { Format::Toml } else { Format::Json }, &axes)
}

/// Runs `netwrap ARGS…` (subcommand form) and returns what it prints on standard output;
/// raises `ValueError` with the command line's message for invalid input.
#[pyfunction]
fn command(py: Python<'_>, args: Vec<String>) -> PyResult<String> {
    py.detach(|| api::command(&args)).map_err(PyValueError::new_err)
}

/// The number of points of an experiment (every point validated), as `netwrap run` counts them.
#[pyfunction]
fn points(py: Python<'_>, spec: String, toml: bool, axes: String) -> PyResult<u64> {
    py.detach(|| experiment(&spec, toml, &axes).and_then(|s| api::points(&s))).map_err(PyValueError::new_err)
}

/// Runs an experiment as `netwrap run FILE --json` (or `--csv -` when `csv`) does, only the
/// points of `shard` = (index, count) when given, and returns what it prints.
#[pyfunction]
#[pyo3(signature = (spec, toml, axes, csv, shard=None))]
fn run(
    py: Python<'_>,
    spec: String,
    toml: bool,
    axes: String,
    csv: bool,
    shard: Option<(u64, u64)>,
) -> PyResult<String> {
    py.detach(|| {
        let sweep = experiment(&spec, toml, &axes)?;
        api::run(&sweep, if csv { Print::Csv } else { Print::Json }, shard)
    })
    .map_err(PyValueError::new_err)
}

/// The module `netwrap._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(command, m)?)?;
    m.add_function(wrap_pyfunction!(points, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add("__version__", netwrap::output::VERSION)?;
    Ok(())
}
