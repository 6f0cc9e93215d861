//! The subcommand form of the command line.

use crate::cmd;
use clap::{Parser, Subcommand};

/// Simulate and model interconnection networks of parallel computers.
///
/// The homework's form `netwrap procs pkts steps req-rt msg-size rad-k det-file loc` also
/// works, e.g. `netwrap 64 1000 9999999 0.05 6 8 /dev/null 1.0`.
#[derive(Debug, Parser)]
#[command(
    name = "netwrap",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = "The homework's positional form also works:\n  netwrap procs pkts steps req-rt msg-size rad-k det-file loc\n  e.g. netwrap 64 1000 9999999 0.05 6 8 /dev/null 1.0\n\nExit status: 0 success, 1 output could not be written, 2 invalid input, 3 the network is saturated, 5 a run reached its cycle limit below saturation (the report is printed first in both)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate a network cycle by cycle.
    Sim(cmd::sim::SimArgs),
    /// Run an experiment file (a spec and sweep axes) or re-run a result's JSON.
    Run(cmd::run::RunArgs),
    /// Join the output files of a sharded run.
    Merge(cmd::merge::MergeArgs),
    /// Search by simulation the load at which a spec's network saturates.
    Saturation(cmd::saturation::SaturationArgs),
    /// Evaluate an analytical model.
    #[command(subcommand)]
    Model(cmd::model::ModelCommand),
    /// Measure the simulator's speed on standard configurations.
    Bench(cmd::bench::BenchArgs),
    /// Regenerate Agarwal 1991's model figures 6–16 as CSV and SVG.
    Figure(cmd::figure::FigureArgs),
    /// Search the k-ary n-cubes that meet a width constraint, ranked by predicted latency.
    Design(cmd::design::DesignArgs),
    /// Build a topology and print its exact metrics.
    Topo(cmd::topo::TopoArgs),
    /// Packaging cost of inter-module networks (Raghunath & Ranade Tables I, II).
    Cost(cmd::cost::CostArgs),
}

/// `netwrap sim --topology FAMILY …` is `netwrap sim FAMILY …`: the option names the family
/// subcommand, whose own options follow it.
fn topology_as_family(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args.get(1).is_some_and(|a| a == "sim") {
        if let Some(i) = args.iter().position(|a| a == "--topology") {
            args.remove(i);
        } else if let Some(i) =
            args.iter().position(|a| a.to_str().is_some_and(|s| s.starts_with("--topology=")))
        {
            let family = args[i].to_str().unwrap_or_default()["--topology=".len()..].to_string();
            args[i] = family.into();
        }
    }
    args
}

/// Parses `args` (program name first) and runs the chosen subcommand.
pub fn run(args: Vec<std::ffi::OsString>) -> anyhow::Result<()> {
    let cli = match Cli::try_parse_from(topology_as_family(args)) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            e.print()?;
            return Ok(());
        }
        Err(e) => {
            e.print()?;
            std::process::exit(2);
        }
    };
    match cli.command {
        Command::Sim(a) => cmd::sim::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Saturation(a) => cmd::saturation::run(a),
        Command::Model(m) => cmd::model::run(m),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Figure(a) => cmd::figure::run(a),
        Command::Design(a) => cmd::design::run(a),
        Command::Topo(a) => cmd::topo::run(a),
        Command::Cost(a) => cmd::cost::run(a),
    }
}
