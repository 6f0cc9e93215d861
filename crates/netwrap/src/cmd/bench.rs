//! `netwrap bench`.
use clap::Args;

/// Benchmark options.
#[derive(Debug, Args)]
pub struct BenchArgs {}

pub fn run(_a: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("bench is being built")
}
