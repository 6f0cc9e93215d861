//! The homework's positional form.
use std::ffi::OsString;

/// True when the arguments look like `netwrap procs pkts …` (first argument a number).
pub fn is_legacy(args: &[OsString]) -> bool {
    args.get(1).and_then(|a| a.to_str()).is_some_and(|a| a.parse::<f64>().is_ok())
}

pub fn run(_args: &[OsString]) -> anyhow::Result<()> {
    anyhow::bail!("legacy form is being built")
}
