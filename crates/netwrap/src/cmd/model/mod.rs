//! `netwrap model …`: the analytical models.

mod fat_tree;
mod feedback;
mod indirect;
mod kary_ncube;
pub mod physical;

use clap::Subcommand;

/// The models netwrap carries.
#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Contention model of a buffered k-ary n-cube (seed 000 eqs. 1–12, seed 004 App. B).
    KaryNcube(kary_ncube::KaryNCubeModelArgs),
    /// Buffered indirect (Omega) network (seed 000 eqs. 13–14, seed 004 App. C).
    Indirect(indirect::IndirectArgs),
    /// Processor utilisation with network feedback (seed 004 App. D).
    Feedback(feedback::FeedbackArgs),
    /// Wormhole butterfly fat-tree (seed 002, Greenberg and Guan).
    FatTree(fat_tree::FatTreeArgs),
}

/// Runs one model command.
pub fn run(command: ModelCommand) -> anyhow::Result<()> {
    match command {
        ModelCommand::KaryNcube(a) => kary_ncube::run(a),
        ModelCommand::Indirect(a) => indirect::run(a),
        ModelCommand::Feedback(a) => feedback::run(a),
        ModelCommand::FatTree(a) => fat_tree::run(a),
    }
}
