//! Shared output: a fallible standard output, the exit statuses, and number formatting.
//!
//! Every command writes through [`stdout`], never `println!`: a closed pipe (`netwrap … | head
//! -1`) ends the command quietly with status 0, and a failed write (a full disk) is an error
//! that names what was being written and exits with status 1. Every JSON result records the
//! netwrap version, the seed and the fully resolved configuration.

use serde::Serialize;
use std::io::{self, Write};

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

/// A number as a person reads it: the shortest decimal that reads back exactly when it is of
/// ordinary size, scientific notation otherwise (`1e-17`, not seventeen zeros; `1.8e19`, not
/// twenty digits).
pub fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e9).contains(&a) { format!("{x}") } else { format!("{x:e}") }
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
