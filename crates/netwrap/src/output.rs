//! Shared output helpers: every JSON result records the netwrap version, the seed and the
//! fully resolved configuration.

use serde::Serialize;
use std::io::Write;

/// netwrap's version, as recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Exit status of a run whose network is saturated: the report was printed, but it has no
/// steady-state latency (0 is success, 2 an error in the input or environment).
pub const EXIT_SATURATED: u8 = 3;

/// The error a command returns, after printing its report, when the network it evaluated or
/// simulated is saturated; `main` turns it into exit status [`EXIT_SATURATED`].
#[derive(Debug)]
pub struct Saturated(pub String);

impl std::fmt::Display for Saturated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Saturated {}

/// A [`Saturated`] error carrying `message`.
pub fn saturated(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Saturated(message.into()))
}

/// Writes `value` as one pretty JSON object on stdout, followed by a newline.
pub fn print_json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

/// Formats an optional number, writing "—" for none.
pub fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "—".to_string(), |x| format!("{x:.decimals$}"))
}
