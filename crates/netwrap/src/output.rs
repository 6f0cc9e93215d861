//! Shared output helpers: every JSON result records the netwrap version, the seed and the
//! fully resolved configuration.

use serde::Serialize;
use std::io::Write;

/// netwrap's version, as recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

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
