//! `netwrap model …`: the analytical models.

mod kary_ncube;

use clap::Subcommand;
pub use kary_ncube::{KaryNCubeArgs, dimensions, whole_dimensions, wiring};

/// The models netwrap carries.
#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Contention model of a buffered k-ary n-cube (seed 000 eqs. 1–10, seed 004 App. B).
    KaryNcube(KaryNCubeArgs),
}

/// Runs one model command.
pub fn run(command: ModelCommand) -> anyhow::Result<()> {
    match command {
        ModelCommand::KaryNcube(a) => kary_ncube::run(a),
    }
}
