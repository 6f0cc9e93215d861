//! `netwrap check`: the static deadlock check of a spec — its channel dependency graph
//! (Dally & Seitz), or for Bubble flow control Puente et al.'s argument.

use crate::args::NetworkArgs;
use crate::output::{self, Render};
use crate::runner;
use anyhow::bail;
use clap::Args;
use netwrap_sim::deadlock::{Check, DepNode, Verdict};
use std::io::Write;
use std::path::PathBuf;

/// Check statically whether a spec's routing and virtual-channel assignment can deadlock:
/// build the channel dependency graph of (channel, VC class) pairs over every route and say
/// whether it is acyclic (Dally & Seitz), or show one of its cycles. With `--deadlock bubble`
/// state Puente et al.'s argument: every cycle lies within one ring, which the bubble
/// condition protects. With `--deadlock updown` the routing is up*/down* (Schroeder et al.
/// 1991), whose graph is acyclic on every family it builds for. The ideal switch (unbounded queues) cannot deadlock. Give a spec file
/// (as `netwrap run` reads; a sweep file's base spec), or the topology and router options of
/// `netwrap sim`.
#[derive(Debug, Args)]
#[command(
    subcommand_value_name = "FAMILY",
    subcommand_help_heading = "Topology families (default: the torus of --k/--n)",
    after_help = "Exit status: 0 deadlock-free, 4 a cycle found (the run-time detector's status), 2 invalid input.\nExamples:\n  netwrap check --router vc --vcs 1 torus --k 4\n  netwrap check --router vc --vcs 2 --deadlock dateline torus --k 4\n  netwrap check --router vc --vcs 1 --deadlock updown midimew --nodes 16\n  netwrap check experiment.toml"
)]
pub struct CheckArgs {
    /// A spec or experiment file (`*.toml`, `*.json`); without it, the options below.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The network to check, as flags.
    #[command(flatten)]
    pub net: NetworkArgs,
    /// Print JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

/// Runs `netwrap check` with its parsed arguments.
pub fn run(a: CheckArgs) -> anyhow::Result<()> {
    let spec = match &a.file {
        Some(file) => {
            if a.net.any() {
                bail!("netwrap check: give a FILE or the options of `netwrap sim`, not both");
            }
            runner::read_experiment(file)?.base().clone()
        }
        None => a.net.spec()?,
    };
    for note in &spec.resolve()?.sim.notes {
        output::note(note);
    }
    let c = netwrap_app::check(&spec)?;
    output::emit(&c, a.json, None)?;
    if c.verdict.deadlock_free() {
        Ok(())
    } else {
        Err(output::deadlocked(format!(
            "the channel dependency graph of the {} has a cycle: the routing may deadlock",
            c.network
        )))
    }
}

fn node(n: &DepNode) -> String {
    match &n.vcs {
        Some(vcs) => format!("channel {} ({} -> {}, {}, {} VCs)", n.channel, n.from, n.to, n.class, vcs),
        None => format!("channel {} ({} -> {}, {})", n.channel, n.from, n.to, n.class),
    }
}

impl Render for Check {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        write_text(out, self)
    }
}

fn write_text(out: &mut dyn Write, c: &Check) -> std::io::Result<()> {
    if c.verdict == Verdict::Ideal {
        writeln!(out, "{}, ideal router", c.network)?;
        return writeln!(
            out,
            "deadlock-free: the ideal switch has unbounded queues, so no packet ever waits for buffer space"
        );
    }
    let deadlock = match c.deadlock {
        netwrap_sim::Avoidance::None => "none",
        netwrap_sim::Avoidance::Dateline => "dateline",
        netwrap_sim::Avoidance::Bubble => "bubble",
        netwrap_sim::Avoidance::Escape => "escape",
        netwrap_sim::Avoidance::Updown => "updown",
        netwrap_sim::Avoidance::Phases => "phases",
        netwrap_sim::Avoidance::DestGroup => "dest-group",
    };
    writeln!(out, "{}, VC router, deadlock avoidance {deadlock}", c.network)?;
    if c.paths.choice == netwrap_topo::PathChoice::Dal {
        writeln!(
            out,
            "paths: dal, at every hop a minimal hop or a deroute within a dimension still to align, at most once per dimension (every choice followed)"
        )?;
    } else if c.paths.choice != netwrap_topo::PathChoice::Minimal {
        writeln!(
            out,
            "paths: {}, through a random intermediate {} (each route's two legs followed)",
            match c.paths.choice {
                netwrap_topo::PathChoice::Valiant => "valiant",
                netwrap_topo::PathChoice::UgalLocal => "ugal-local (minimal or valiant)",
                netwrap_topo::PathChoice::UgalGlobal => "ugal-global (minimal or valiant)",
                netwrap_topo::PathChoice::Par => "par (minimal, valiant, or turning at the first hop)",
                netwrap_topo::PathChoice::Minimal | netwrap_topo::PathChoice::Dal => "minimal",
            },
            c.paths.via.name()
        )?;
    }
    if let Some(rc) = c.route_classes {
        writeln!(
            out,
            "VC classes: {} (the VCs split evenly among them); the routes reach {}{}",
            rc.classes,
            rc.reached,
            if rc.reached > rc.classes { ", so the top class is shared beyond its phase" } else { "" }
        )?;
    }
    writeln!(out, "channel dependency graph: {} nodes, {} edges", c.nodes, c.edges)?;
    match &c.verdict {
        Verdict::Ideal => {}
        Verdict::Acyclic => {
            if c.deadlock == netwrap_sim::Avoidance::Updown {
                writeln!(
                    out,
                    "up*/down* routing (Schroeder et al. 1991): the routers are ranked by level from router 0 (in topological order on a network without cycles); every route takes channels to lower ranks (up), then to higher ones (down), never up after down, so no dependency cycle can close"
                )?;
            }
            writeln!(out, "acyclic: deadlock-free (Dally & Seitz)")?
        }
        Verdict::Cycle { cycle } => {
            writeln!(out, "CYCLE of {} channels: the routing may deadlock (Dally & Seitz)", cycle.len())?;
            for n in cycle {
                writeln!(out, "  {}", node(n))?;
            }
            writeln!(out, "  (each waits for the next, the last for the first)")?;
        }
        Verdict::Bubble { ring_edges } => {
            writeln!(
                out,
                "cyclic within rings only: without its {ring_edges} intra-ring edges the graph is acyclic, so every cycle lies within one ring"
            )?;
            writeln!(
                out,
                "each ring is protected by the bubble condition (a packet enters a ring only with room for two packets)"
            )?;
            writeln!(out, "deadlock-free by the bubble argument (Puente et al.)")?;
        }
        Verdict::Escape { ring_edges } => {
            match ring_edges {
                None => writeln!(out, "escape sub-network (VC 0, dimension order): acyclic")?,
                Some(e) => writeln!(
                    out,
                    "escape sub-network (VC 0, dimension order): cyclic within rings only (without its {e} intra-ring edges it is acyclic), each ring protected by the bubble condition"
                )?,
            }
            writeln!(
                out,
                "adaptive VCs 1..V-1 take any minimal hop; a packet may fall back to the escape VC at any hop, and a cut-through packet fits in one buffer"
            )?;
            writeln!(out, "deadlock-free by Duato's theorem (Puente et al.'s adaptive bubble router)")?;
        }
        Verdict::EscapeFails { cycle } => {
            writeln!(
                out,
                "CYCLE in the escape sub-network of {} channels: the escape argument does not hold",
                cycle.len()
            )?;
            for n in cycle {
                writeln!(out, "  {}", node(n))?;
            }
        }
        Verdict::BubbleFails { cycle } => {
            writeln!(
                out,
                "CYCLE across rings of {} channels: the bubble argument does not hold",
                cycle.len()
            )?;
            for n in cycle {
                writeln!(out, "  {}", node(n))?;
            }
        }
    }
    Ok(())
}
