//! The subcommand form of the command line.

use crate::cmd;
use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;

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
    after_help = "The homework's positional form also works:\n  netwrap procs pkts steps req-rt msg-size rad-k det-file loc\n  e.g. netwrap 64 1000 9999999 0.05 6 8 /dev/null 1.0\n\nExit status: 0 success, 1 output could not be written, 2 invalid input, 3 the network is saturated, 4 a deadlock (or `check` found a cycle), 5 a run reached its cycle limit below saturation (the report is printed first in both), 6 `reproduce`: a paper's stated conclusion does not hold on netwrap's numbers."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate a network cycle by cycle.
    Sim(Box<cmd::sim::SimArgs>),
    /// Check statically whether a spec's routing can deadlock (channel dependency graph).
    Check(Box<cmd::check::CheckArgs>),
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
    /// Agarwal 1991's model figures 6–16 as CSV, SVG and a page each: an alias of their
    /// `netwrap reproduce` pages.
    Figure(cmd::figure::FigureArgs),
    /// Reproduce the papers' figures and tables (CSV, SVG and a page each), checking what
    /// each paper concludes from them.
    Reproduce(cmd::reproduce::ReproduceArgs),
    /// Draw a CSV of results as SVG or PNG: latency against load, the model dashed over it;
    /// or per-channel values as a heat map on the network's 2-D drawing (--heatmap).
    Plot(cmd::plot::PlotArgs),
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
    if args.get(1).is_some_and(|a| a == "sim" || a == "check" || a == "plot") {
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

/// `--option -value` is `--option=-value` when the value reads as a number (or a
/// comma-separated list of numbers): clap reads `--rate -inf`, `--tolerance -1` or
/// `--rates -1,0.5` as unknown short flags otherwise ("unexpected argument '-i'"), whereas
/// joined, the value reaches the option's parser, which says what the option takes.
fn join_negative_values(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let numeric = |s: &str| s.starts_with('-') && s.split(',').all(|x| x.trim().parse::<f64>().is_ok());
    let mut out: Vec<std::ffi::OsString> = Vec::with_capacity(args.len());
    let mut rest = args.into_iter();
    while let Some(a) = rest.next() {
        if a == "--" {
            out.push(a);
            out.extend(rest);
            break;
        }
        let option = a.to_str().is_some_and(|s| s.starts_with("--") && s.len() > 2 && !s.contains('='));
        out.push(a);
        if option {
            let next = rest.next();
            match next {
                Some(v) if v.to_str().is_some_and(numeric) => {
                    let last = out.last_mut().expect("pushed above");
                    last.push("=");
                    last.push(&v);
                }
                Some(v) => out.push(v),
                None => {}
            }
        }
    }
    out
}

/// `--topology` must name a family: alone (last, or before another option) it would be
/// dropped and the default torus run instead.
fn check_topology(args: &[std::ffi::OsString]) -> anyhow::Result<()> {
    if args.get(1).is_some_and(|a| a == "sim" || a == "check" || a == "plot")
        && let Some(i) = args.iter().position(|a| a == "--topology")
        && args.get(i + 1).is_none_or(|f| f.to_str().is_none_or(|f| f.starts_with('-')))
    {
        anyhow::bail!(
            "--topology needs a family, e.g. `netwrap sim --topology fat-tree` (the families: `netwrap sim --help`)"
        );
    }
    Ok(())
}

/// Parses `args` (program name first) as the subcommand form, printing nothing: the outer
/// error is invalid input found before clap, the inner one clap's (which may be help).
pub fn parse(args: Vec<std::ffi::OsString>) -> anyhow::Result<Result<Cli, clap::Error>> {
    check_topology(&args)?;
    Ok(Cli::try_parse_from(topology_as_family(join_negative_values(args))))
}

/// Parses `args` (program name first) and runs the chosen subcommand.
pub fn run(args: Vec<std::ffi::OsString>) -> anyhow::Result<()> {
    let cli = match parse(args.clone())? {
        Ok(cli) => cli,
        // Help and version go to standard output: a failed write there is a failed write
        // (status 1, or a quiet 0 for a closed pipe), not invalid input.
        Err(e) if !e.use_stderr() => {
            e.print().map_err(|err| crate::output::write_failed("standard output", err))?;
            return Ok(());
        }
        Err(e) => {
            // A closed standard error is no reason to fail differently.
            match hint(&e, &args) {
                Some((tip, usage)) => {
                    let _ = write!(
                        std::io::stderr(),
                        "{}",
                        with_tip(&e.render().to_string(), &tip, usage.as_deref())
                    );
                }
                None => {
                    let _ = e.print();
                }
            }
            std::process::exit(2);
        }
    };
    execute(cli)
}

/// Clap's message with its tip replaced by `tip` (after the first line) and its usage line by
/// `usage` when given.
fn with_tip(message: &str, tip: &str, usage: Option<&str>) -> String {
    let mut lines = message.lines();
    let mut out = format!("{}\n\n  tip: {tip}\n", lines.next().unwrap_or("error:"));
    let mut blank = false;
    for line in lines.filter(|l| !l.trim_start().starts_with("tip:")) {
        let line = match usage {
            Some(u) if line.starts_with("Usage:") => u.trim_end(),
            _ => line,
        };
        if line.trim().is_empty() {
            blank = true;
            continue;
        }
        if blank {
            out.push('\n');
            blank = false;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A better tip than clap's for the mistakes made most: a list's values separated by spaces
/// (`--rates 0.01 0.02`), a flag another family takes (`sim midimew --k 8`: the family's own
/// flags), and a misspelt flag (`--cvs`: the nearest flag of the command, by edit distance);
/// with the usage line of the command (or family) where one was given.
fn hint(e: &clap::Error, args: &[std::ffi::OsString]) -> Option<(String, Option<String>)> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(e.kind(), ErrorKind::UnknownArgument | ErrorKind::InvalidSubcommand) {
        return None;
    }
    let bad = match e.get(ContextKind::InvalidArg).or_else(|| e.get(ContextKind::InvalidSubcommand)) {
        Some(ContextValue::String(s)) => s.clone(),
        _ => return None,
    };
    let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let number = |a: &str| a.parse::<f64>().is_ok();
    if number(&bad) {
        let i = args.iter().position(|a| *a == bad)?;
        let flag = (1..i).rev().find(|&j| !number(&args[j]))?;
        let end = (i..args.len()).find(|&j| !number(&args[j])).unwrap_or(args.len());
        let name = &args[flag];
        return (name.starts_with("--") && flag + 1 < i).then(|| {
            let tip = format!(
                "{name} takes one value: join a list with commas, not spaces ({name} {})",
                args[flag + 1..end].join(",")
            );
            (tip, None)
        });
    }
    let wrong = bad.split('=').next()?.strip_prefix("--")?;
    let mut cli = Cli::command();
    cli.build();
    let sub = cli.find_subcommand(args.get(1)?)?;
    let family = args.get(2).and_then(|f| sub.find_subcommand(f));
    let here = family.unwrap_or(sub);
    let nearest = here
        .get_arguments()
        .filter_map(|a| a.get_long())
        .map(|l| (strsim::damerau_levenshtein(wrong, l), l))
        .min()
        .filter(|&(d, l)| d <= 2 && d < l.len());
    let nearest = nearest.map(|(_, l)| format!("did you mean '--{l}'? "));
    let usage = Some(here.clone().render_usage().to_string());
    match family {
        Some(f) => {
            let own: Vec<String> = f
                .get_arguments()
                .filter(|a| !a.is_global_set())
                .filter_map(|a| a.get_long())
                .filter(|l| !matches!(*l, "help" | "version"))
                .map(|l| format!("--{l}"))
                .collect();
            let takes = if own.is_empty() { "no options of its own".into() } else { own.join(", ") };
            let tip = format!(
                "{}the {} family takes {takes} (`netwrap {} {} --help`)",
                nearest.unwrap_or_default(),
                f.get_name(),
                sub.get_name(),
                f.get_name()
            );
            Some((tip, usage))
        }
        None => nearest.map(|n| (n.trim_end().to_string(), usage)),
    }
}

/// Runs a parsed command line.
pub fn execute(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Sim(a) => cmd::sim::run(*a),
        Command::Check(a) => cmd::check::run(*a),
        Command::Run(a) => cmd::run::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Saturation(a) => cmd::saturation::run(a),
        Command::Model(m) => cmd::model::run(m),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Figure(a) => cmd::figure::run(a),
        Command::Reproduce(a) => cmd::reproduce::run(a),
        Command::Plot(a) => cmd::plot::run(a),
        Command::Design(a) => cmd::design::run(a),
        Command::Topo(a) => cmd::topo::run(a),
        Command::Cost(a) => cmd::cost::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(std::ffi::OsString::from).collect();
        join_negative_values(args).into_iter().map(|a| a.into_string().unwrap()).collect()
    }

    #[test]
    fn negative_values_are_joined_to_their_option_and_nothing_else_is() {
        assert_eq!(join(&["netwrap", "sim", "--rate", "-inf"]), ["netwrap", "sim", "--rate=-inf"]);
        assert_eq!(join(&["netwrap", "sim", "--rates", "-1,0.5"]), ["netwrap", "sim", "--rates=-1,0.5"]);
        assert_eq!(
            join(&["netwrap", "sim", "--k", "-1", "--n", "2"]),
            ["netwrap", "sim", "--k=-1", "--n", "2"]
        );
        for unchanged in [
            &["netwrap", "sim", "--csv", "-", "--json"][..],
            &["netwrap", "sim", "--rate", "0.1"],
            &["netwrap", "sim", "--rate=-1"],
            &["netwrap", "merge", "-o", "-1"],
            &["netwrap", "run", "x.toml", "--", "--rate", "-1"],
            &["netwrap", "sim", "--k"],
        ] {
            assert_eq!(join(unchanged), unchanged);
        }
    }
}
