//! Shared output: a fallible standard output, the exit statuses, and number formatting.
//!
//! Every command writes through [`stdout`], never `println!`: a closed pipe (`netwrap … | head
//! -1`) ends the command quietly with status 0, and a failed write (a full disk) is an error
//! that names what was being written and exits with status 1. Every JSON result records the
//! netwrap version, the seed and the fully resolved configuration.

use serde::Serialize;
use serde_json::Value;
use std::io::{self, Write};
use std::path::Path;

/// netwrap's version, as recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Exit statuses. 0 is success.
pub mod status {
    /// Output could not be written (a full disk, a file that cannot be created).
    pub const WRITE_FAILED: u8 = 1;
    /// The input is invalid: the message names the parameter and what it takes.
    pub const INVALID: u8 = 2;
    /// The network is saturated: the report was printed, but it has no steady-state latency.
    pub const SATURATED: u8 = 3;
    /// The network deadlocked (virtual-channel router): the report shows the cycle of waits.
    pub const DEADLOCK: u8 = 4;
    /// The run reached its cycle (or in-flight message) limit before its measured messages were
    /// delivered, below saturation: the report says what to raise.
    pub const LIMIT_REACHED: u8 = 5;
    /// `netwrap reproduce`: a paper's stated conclusion does not hold on netwrap's numbers
    /// (the pages and the summary say which).
    pub const CONCLUSION_FAILS: u8 = 6;
    /// The run ended before its initial transient did, however long the cycle limit let its
    /// warm-up grow: the report has no steady-state latency and says what to raise.
    pub const NOT_STEADY: u8 = 7;
}

/// An outcome that is not success but still produced a report: the error a command returns
/// after printing, which `main` turns into the outcome's exit status.
#[derive(Debug)]
pub struct Verdict {
    /// The exit status.
    pub status: u8,
    /// One line for standard error.
    pub message: String,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Verdict {}

/// A [`Verdict`] with status [`status::SATURATED`].
pub fn saturated(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Verdict { status: status::SATURATED, message: message.into() })
}

/// A [`Verdict`] with status [`status::LIMIT_REACHED`].
pub fn limit_reached(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Verdict { status: status::LIMIT_REACHED, message: message.into() })
}

/// A [`Verdict`] with status [`status::NOT_STEADY`].
pub fn not_steady(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Verdict { status: status::NOT_STEADY, message: message.into() })
}

/// A [`Verdict`] with status [`status::DEADLOCK`].
pub fn deadlocked(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Verdict { status: status::DEADLOCK, message: message.into() })
}

/// Writing some output failed; carried inside the `io::Error` so `main` can tell a failed
/// write (status 1) from invalid input (status 2).
#[derive(Debug)]
pub struct WriteFailed {
    /// What was being written: "standard output", or a file's path.
    pub what: String,
    /// Why.
    pub source: io::Error,
}

impl std::fmt::Display for WriteFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}", self.what, self.source)
    }
}

impl std::error::Error for WriteFailed {}

/// Wraps an I/O error met while writing `what`, keeping its kind (a broken pipe stays one).
pub fn write_failed(what: impl Into<String>, source: io::Error) -> io::Error {
    io::Error::new(source.kind(), WriteFailed { what: what.into(), source })
}

/// The exit status for an error that reached `main`, and whether to print it (a broken pipe
/// ends quietly with status 0).
pub fn exit_status(e: &anyhow::Error) -> (u8, bool) {
    for cause in e.chain() {
        if let Some(io) = cause.downcast_ref::<io::Error>() {
            if io.kind() == io::ErrorKind::BrokenPipe {
                return (0, false);
            }
            if io.get_ref().is_some_and(|inner| inner.is::<WriteFailed>()) {
                return (status::WRITE_FAILED, true);
            }
        }
        if let Some(v) = cause.downcast_ref::<Verdict>() {
            return (v.status, true);
        }
    }
    (status::INVALID, true)
}

/// The command line's name for a spec's field: its flag (`router.buffer` is `--buffer`).
pub fn flag(path: &str) -> String {
    let named = match path {
        "routing.algorithm" => "--routing",
        "router.kind" => "--router",
        "workload.reply.size" => "--reply-size",
        "workload.reply.network" => "--reply-network",
        "workload.reply" => "--memory-latency, --reply-size, --reply-network",
        "model" => "--model",
        "model.contention" => "--contention",
        "workload.collective.kind" => "--collective",
        _ => "",
    };
    if !named.is_empty() {
        return named.to_string();
    }
    format!("--{}", path.rsplit('.').next().unwrap_or(path))
}

/// A spec error as the command line says it: its message, then the flags of the fields it is
/// about (`(--buffer, --packet, --switching)`), then its line in the file, if any.
pub fn spec_message(e: &netwrap_sim::SpecError) -> String {
    let mut flags: Vec<String> = Vec::new();
    for f in e.fields().map(flag) {
        if !flags.contains(&f) {
            flags.push(f);
        }
    }
    e.text_with(&format!(" ({})", flags.join(", ")))
}

/// An error's message as `main` prints it after `netwrap: error: `: its chain of contexts
/// joined by `: `, a spec error naming its flags, the values it echoes kept short
/// ([`netwrap_app::sweep::shorten_echoes`]).
pub fn message(e: &anyhow::Error) -> String {
    let spec = |cause: &(dyn std::error::Error + 'static)| {
        cause
            .downcast_ref::<netwrap_app::Error>()
            .and_then(netwrap_app::Error::spec)
            .or_else(|| match cause.downcast_ref::<netwrap_sim::SimError>() {
                Some(netwrap_sim::SimError::Spec(s)) => Some(s),
                _ => None,
            })
            .or_else(|| cause.downcast_ref::<netwrap_sim::SpecError>())
            .map(spec_message)
    };
    let text = e
        .chain()
        .map(|cause| spec(cause).unwrap_or_else(|| cause.to_string()))
        .collect::<Vec<_>>()
        .join(": ");
    netwrap_app::sweep::shorten_echoes(&text)
}

/// Standard output, buffered; write errors name it (see [`write_failed`]). Call
/// [`Out::finish`] at the end: a buffered write that fails only on the final flush is still
/// reported.
pub struct Out {
    inner: io::BufWriter<io::Stdout>,
}

/// The command's standard output.
pub fn stdout() -> Out {
    Out { inner: io::BufWriter::new(io::stdout()) }
}

impl Out {
    /// Flushes, reporting a failure.
    pub fn finish(mut self) -> io::Result<()> {
        self.flush()
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| write_failed("standard output", e))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| write_failed("standard output", e))
    }
}

/// Makes sure `--out DIR` is a directory, creating it if missing: a path that exists and is
/// not a directory is invalid input (status 2), a directory that cannot be made is status 1.
/// `what` says what goes there, e.g. "the CSV and SVG files".
pub fn out_dir(dir: &Path, what: &str) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "--out {} is not a directory: --out takes the directory {what} are written to (created if missing)",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| write_failed(format!("the directory {} (--out)", dir.display()), e))?;
    Ok(())
}

/// Opens the output file `path` (`what` names it in errors) for reading and writing, created if
/// missing, and takes an advisory exclusive lock on it, held as long as the file stays open:
/// two netwrap runs writing one file would interleave their rows, so a file another run holds
/// is refused (status 2) before anything is written. Only once the lock is held is the file
/// emptied, when `truncate` says so (a resumed file is read back instead). A file system that
/// keeps no locks (some network file systems) is written without one.
pub fn lock_output(path: &Path, what: &str, truncate: bool) -> anyhow::Result<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| write_failed(what, e))?;
    if let Ok(false) = fs4::fs_std::FileExt::try_lock_exclusive(&file) {
        anyhow::bail!(
            "{what} is being written by another netwrap run: wait for it to end, or give this run another file"
        );
    }
    if truncate {
        file.set_len(0).map_err(|e| write_failed(what, e))?;
    }
    Ok(file)
}

/// A note for the user on standard error (`netwrap: …`); a closed standard error is ignored.
/// A progress bar on screen steps aside for it.
pub fn note(message: impl std::fmt::Display) {
    crate::progress::suspend(|| {
        let _ = writeln!(io::stderr(), "netwrap: {message}");
    });
}

/// Writes `value` as one pretty JSON object on stdout, followed by a newline.
pub fn print_json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    let mut out = stdout();
    write_json(&mut out, value)?;
    out.finish()?;
    Ok(())
}

/// Writes `value` as pretty JSON and a newline to `out`.
pub fn write_json<T: Serialize>(out: &mut impl Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)
}

/// Whether an output path is `-`, standard output.
pub fn is_stdout(p: &Path) -> bool {
    p == Path::new("-")
}

/// A CSV cell for a JSON value: numbers as their shortest exact decimal, text as is, nothing
/// for null, JSON for lists, and a table (a swept topology) as the command line names it
/// (`torus k=8 n=2 bidirectional`, [`netwrap_app::sweep::value_name`]).
pub fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Object(_) => netwrap_app::sweep::value_name(v),
        other => other.to_string(),
    }
}

/// One CSV record and its newline, quoted by the `csv` crate where a cell needs it.
pub fn csv_line(cells: &[String]) -> String {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    w.write_record(cells).expect("writing CSV to memory");
    String::from_utf8(w.into_inner().expect("flushing CSV to memory")).expect("CSV of UTF-8 cells")
}

/// A JSON value's leaves under dotted names (`config.k`), in order: a tidy row's columns.
/// Lists stay whole (one cell of JSON), so a row's columns are its parameters and metrics.
fn flatten(prefix: &str, v: &Value, into: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(fields) => {
            for (key, field) in fields {
                let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                flatten(&name, field, into);
            }
        }
        other => into.push((prefix.to_string(), other.clone())),
    }
}

/// Tidy CSV of `rows`, each what the command's JSON printer serialises: a header of every
/// column any row has (in the order they first appear), then one row per item, empty where a
/// row has no such column. Built from the JSON value so that the two printers cannot disagree.
/// No rows (a design search that kept no candidate) is no text at all: the columns come from
/// the rows, and a CSV reader takes an empty file as an empty table.
pub fn csv_table<T: Serialize>(rows: &[T]) -> io::Result<String> {
    let mut columns: Vec<String> = Vec::new();
    let mut flat = Vec::with_capacity(rows.len());
    for row in rows {
        let mut leaves = Vec::new();
        flatten("", &serde_json::to_value(row).map_err(io::Error::from)?, &mut leaves);
        for (name, _) in &leaves {
            if !columns.contains(name) {
                columns.push(name.clone());
            }
        }
        flat.push(leaves);
    }
    if columns.is_empty() {
        return Ok(String::new());
    }
    let mut text = csv_line(&columns);
    for leaves in flat {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| leaves.iter().find(|(name, _)| name == c).map(|(_, v)| cell(v)).unwrap_or_default())
            .collect();
        text.push_str(&csv_line(&cells));
    }
    Ok(text)
}

/// Writes `--csv FILE|-`: the tidy CSV of `rows` (see [`csv_table`]) into `path`, or on
/// standard output for `-`. Returns whether it went to standard output, where it replaces the
/// table (and the JSON); a file is written besides them. A file that cannot be written is an
/// error naming it (status 1).
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> anyhow::Result<bool> {
    let text = csv_table(rows)?;
    if is_stdout(path) {
        let mut out = stdout();
        out.write_all(text.as_bytes())?;
        out.finish()?;
        Ok(true)
    } else {
        let what = path.display().to_string();
        let mut file = lock_output(path, &what, true)?;
        file.write_all(text.as_bytes()).map_err(|e| write_failed(what, e))?;
        Ok(false)
    }
}

/// [`write_csv`] when `--csv` was given; `false` (print the table) when it was not.
pub fn write_csv_if<T: Serialize>(path: Option<&Path>, rows: &[T]) -> anyhow::Result<bool> {
    path.map_or(Ok(false), |path| write_csv(path, rows))
}

/// A command's result as the command line prints it: as text for a person, as JSON (`--json`:
/// the value itself), or as tidy CSV (`--csv`: [`Render::rows`]). [`emit`] is the one printer
/// that chooses.
pub trait Render: Serialize {
    /// The text a person reads.
    fn text(&self, out: &mut dyn Write) -> io::Result<()>;

    /// The CSV's rows, each flattened into dotted columns ([`csv_table`]): by default the
    /// result itself, one row.
    fn rows(&self) -> Vec<Value> {
        vec![serde_json::to_value(self).unwrap_or(Value::Null)]
    }
}

/// Prints `result`: with `csv`, its rows as tidy CSV into that file (besides the rest) or on
/// standard output for `-` (instead of the rest); then its JSON with `json`, its text
/// otherwise.
pub fn emit(result: &impl Render, json: bool, csv: Option<&Path>) -> anyhow::Result<()> {
    if let Some(path) = csv
        && write_csv(path, &result.rows())?
    {
        return Ok(());
    }
    let mut out = stdout();
    if json {
        write_json(&mut out, result)?;
    } else {
        result.text(&mut out).map_err(|e| write_failed("standard output", e))?;
    }
    out.finish()?;
    Ok(())
}

/// A number as a person reads it: the shortest decimal that reads back exactly when it is of
/// ordinary size, scientific notation otherwise (`1e-17`, not seventeen zeros; `1.8e19`, not
/// twenty digits).
pub fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e9).contains(&a) { format!("{x}") } else { format!("{x:e}") }
}

/// A number in a sentence: at most six significant digits, trailing zeros dropped
/// (`0.0714286`, not `0.07142857142857142`), whole numbers whole. Values a user gave are echoed
/// with [`num`], exactly.
pub fn brief(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (x.fract() == 0.0 && a < 1e15) {
        return num(x);
    }
    let trim = |s: String| -> String {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
    };
    if (1e-4..1e9).contains(&a) {
        let decimals = (5 - a.log10().floor() as i32).max(0) as usize;
        trim(format!("{x:.decimals$}"))
    } else {
        let s = format!("{x:.5e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        format!("{}e{exponent}", trim(mantissa.to_string()))
    }
}

/// Formats an optional number with fixed decimals, writing "—" for none.
pub fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "—".to_string(), |x| format!("{x:.decimals$}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_any_size_stay_short() {
        assert_eq!(num(0.04), "0.04");
        assert_eq!(num(1e-17), "1e-17");
        assert_eq!(num(f64::MAX), "1.7976931348623157e308");
        assert_eq!(num(5e-324), "5e-324");
        assert_eq!(num(1024.0), "1024");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(f64::NAN), "NaN");
        assert_eq!(brief(1.0 / 14.0), "0.0714286");
        assert_eq!(brief(0.1 / 38.0), "0.00263158");
        assert_eq!(brief(0.05), "0.05");
        assert_eq!(brief(123.4567891), "123.457");
        assert_eq!(brief(9_999_999.0), "9999999");
        assert_eq!(brief(2.0 / 3.0 * 1e-6), "6.66667e-7");
        assert_eq!(brief(-0.5), "-0.5");
    }

    /// Verification of the tidy CSV: nested fields become dotted columns, lists one cell of
    /// JSON, none an empty cell, text with commas quoted, and rows missing a column leave it
    /// empty.
    #[test]
    fn csv_tables_are_tidy() {
        let rows = [
            serde_json::json!({"a": 1, "b": {"c": 0.1, "d": null}, "e": [1, 2], "f": "x, y"}),
            serde_json::json!({"a": 2.5, "g": 1e-17}),
        ];
        let text = csv_table(&rows).unwrap();
        assert_eq!(text, "a,b.c,b.d,e,f,g\n1,0.1,,\"[1,2]\",\"x, y\",\n2.5,,,,,1e-17\n");
        assert_eq!(csv_table::<Value>(&[]).unwrap(), "");
    }

    #[test]
    fn broken_pipes_are_quiet_and_failed_writes_are_status_1() {
        let pipe = anyhow::Error::new(write_failed("standard output", io::ErrorKind::BrokenPipe.into()));
        assert_eq!(exit_status(&pipe), (0, false));
        let full = anyhow::Error::new(write_failed("out.csv", io::Error::from_raw_os_error(28)));
        assert_eq!(exit_status(&full), (status::WRITE_FAILED, true));
        assert!(full.to_string().contains("out.csv"), "{full}");
        assert_eq!(exit_status(&saturated("x")), (status::SATURATED, true));
        assert_eq!(exit_status(&anyhow::anyhow!("bad")), (status::INVALID, true));
    }
}
