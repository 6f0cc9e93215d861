//! `netwrap topo FAMILY …`: build a topology and print its exact metrics.

use crate::output::{self, Render, VERSION, opt};
use clap::Args;
use netwrap_app::TopoReport;
use netwrap_topo::{RoutingSpec, TopologySpec};
use std::io::Write;

/// Build a topology and print its size, distances, bisection and uniform-traffic load.
#[derive(Debug, Args)]
pub struct TopoArgs {
    #[command(subcommand)]
    family: TopologySpec,
    #[command(flatten)]
    routing: RoutingSpec,
    /// Midimew only: also print the application-to-network node mapping (Puente et al. Fig. 9).
    #[arg(long, global = true)]
    mapping: bool,
    /// Print one JSON object instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// Write the metrics as tidy CSV, a header and one row (`-`: standard output, instead of
    /// the table or JSON; a file is written besides them).
    #[arg(long, global = true, value_name = "FILE|-")]
    csv: Option<std::path::PathBuf>,
}

/// Runs `netwrap topo` with its parsed arguments.
pub fn run(a: TopoArgs) -> anyhow::Result<()> {
    let report = netwrap_app::topo(&a.family, &a.routing, a.mapping)?;
    for note in &report.notes {
        crate::output::note(note);
    }
    output::emit(&report, a.json, a.csv.as_deref())
}

impl Render for TopoReport {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let report = self;
        let m = &report.metrics;
        writeln!(out, "netwrap {VERSION} topo: {}", report.name)?;
        writeln!(out, "processors (terminals)   {}", m.nodes)?;
        writeln!(out, "routers                  {}", m.routers)?;
        writeln!(out, "directed channels        {}", m.channels)?;
        if let Some(bits) = report.flit_bits {
            writeln!(out, "flit                     {bits} bits (channel widths and loads are in flits)")?;
        }
        match m.degree {
            Some(d) => writeln!(out, "degree                   {d} (regular)"),
            None => writeln!(out, "degree                   {}..{}", m.degree_range.0, m.degree_range.1),
        }?;
        if !report.switch_levels.is_empty() {
            writeln!(out, "{:<24} {:>9} {:>9} {:>9}", "switch level", "switches", "children", "parents")?;
            for l in &report.switch_levels {
                writeln!(out, "{:<24} {:>9} {:>9} {:>9}", l.level, l.switches, l.children, l.parents)?;
            }
        }
        writeln!(out, "diameter                 {}", m.diameter)?;
        writeln!(
            out,
            "average distance         {:.4} (ordered pairs of distinct processors)",
            m.average_distance
        )?;
        if let Some(d) = report.average_distance_with_self {
            writeln!(
                out,
                "                         {d:.4} (every destination, the source included: the homework's Ex 4, `netwrap sim`)"
            )?;
        }
        if let Some(r) = m.average_route {
            writeln!(
                out,
                "average route            {r:.4} (the routing's routes, distinct pairs: longer than the shortest paths)"
            )?;
        }
        if let Some(r) = report.average_route_with_self {
            writeln!(
                out,
                "                         {r:.4} (every destination, the source included; {:.4} routers traversed)",
                r + 1.0
            )?;
        }
        writeln!(
            out,
            "bisection width          {} ({}: {})",
            m.bisection_width,
            if m.bisection_exact { "exact" } else { "upper bound" },
            m.bisection_how
        )?;
        writeln!(out, "max channel load         {} ({})", opt(m.channel_load, 4), m.load_how)?;
        writeln!(out, "ideal throughput         {} flits/processor/cycle", opt(m.ideal_throughput, 4))?;
        if !m.class_loads.is_empty() {
            writeln!(out, "{:<24} {:>9} {:>10}", "channel class", "channels", "max load")?;
            for c in &m.class_loads {
                writeln!(out, "{:<24} {:>9} {:>10.4}", c.class, c.channels, c.max_load)?;
            }
        }
        if let Some(l) = &report.layout {
            writeln!(
                out,
                "layout (Puente et al. Fig. 1): {} columns x {} rows; node at (x, y) = (x*{} + y*{}) mod N",
                l.columns, l.rows, l.x_step, l.y_step
            )?;
        }
        if let Some(map) = &report.application_to_network {
            writeln!(out, "application node -> network node (Puente et al. Fig. 9):")?;
            for (p, r) in map.iter().enumerate() {
                writeln!(out, "{p:>6} -> {r}")?;
            }
        }
        writeln!(
            out,
            "(distances are router-to-router hops; loads are messages/cycle per channel at one message/processor/cycle, uniform traffic over distinct pairs)"
        )
    }
}
