//! `netwrap sim`.
use clap::Args;

/// Simulation options.
#[derive(Debug, Args)]
pub struct SimArgs {}

pub fn run(_a: SimArgs) -> anyhow::Result<()> {
    anyhow::bail!("sim is being built")
}
