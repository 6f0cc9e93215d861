//! `netwrap topo FAMILY …`: build a topology and print its exact metrics.

use crate::args::{FamilyCmd, RoutingArgs};
use crate::output::{self, VERSION, opt};
use anyhow::{Context, bail};
use clap::Args;
use netwrap_topo::{Metrics, RoutingSpec, Topology, TopologySpec};
use serde::Serialize;
use std::io::Write;

/// Build a topology and print its size, distances, bisection and uniform-traffic load.
#[derive(Debug, Args)]
pub struct TopoArgs {
    #[command(subcommand)]
    family: FamilyCmd,
    #[command(flatten)]
    routing: RoutingArgs,
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

/// The resolved description of what was built: the topology and routing sections of a spec.
#[derive(Serialize)]
struct Config<'a> {
    topology: &'a TopologySpec,
    routing: &'a RoutingSpec,
}

#[derive(Serialize)]
struct Layout {
    columns: u32,
    rows: u32,
    x_step: u32,
    y_step: u32,
}

#[derive(Serialize)]
struct Report<'a> {
    netwrap_version: &'static str,
    seed: Option<u64>,
    config: Config<'a>,
    name: &'a str,
    classes: &'a [String],
    #[serde(flatten)]
    metrics: &'a Metrics,
    /// Mean distance over all ordered pairs of processors, a processor's messages to itself
    /// (distance 0) included: the homework's Ex 4 and the simulator's uniform traffic count
    /// those. Direct networks only (where a processor's message to itself uses no channel).
    average_distance_with_self: Option<f64>,
    layout: Option<Layout>,
    /// Bits per flit where channel widths were given in bits (Raghunath & Ranade's networks).
    #[serde(skip_serializing_if = "Option::is_none")]
    flit_bits: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    application_to_network: Option<Vec<u32>>,
}

pub fn run(a: TopoArgs) -> anyhow::Result<()> {
    let (spec, notes) = a.family.spec().resolve()?;
    let mut routing = RoutingSpec::default();
    a.routing.apply(&mut routing);
    let routing = spec.resolve_routing(&routing)?;
    if a.mapping && !matches!(spec, TopologySpec::Midimew { .. }) {
        bail!(
            "--mapping prints a Midimew's application-to-network mapping (Puente et al. Fig. 9): a {} has none",
            spec.family()
        );
    }
    for note in &notes {
        crate::output::note(note);
    }
    let topo = spec.shape(&routing)?.build().context("invalid topology")?;
    let metrics = topo.metrics().context("cannot measure the topology")?;
    let (layout, mapping) = match &topo {
        Topology::Circulant(c) => {
            let layout =
                c.layout().map(|(columns, rows, x_step, y_step)| Layout { columns, rows, x_step, y_step });
            let mapping = a
                .mapping
                .then(|| (0..c.nodes()).filter_map(|p| c.application_to_network(p)).collect::<Vec<_>>());
            (layout, mapping.filter(|m| !m.is_empty()))
        }
        _ => (None, None),
    };
    let flit_bits = match &topo {
        Topology::ModularButterfly(t) => Some(t.flit_bits()),
        Topology::Xbar(x) if x.network().routers() > 1 => Some(x.flit_bits()),
        _ => None,
    };
    let net = topo.network();
    let direct = (0..net.terminals()).all(|t| net.inject_router(t) == net.eject_router(t));
    let n = net.terminals() as f64;
    let with_self = direct.then(|| metrics.average_distance * (n - 1.0) / n);
    let report = Report {
        netwrap_version: VERSION,
        seed: None,
        config: Config { topology: &spec, routing: &routing },
        name: net.name(),
        classes: net.classes(),
        metrics: &metrics,
        average_distance_with_self: with_self,
        layout,
        flit_bits,
        application_to_network: mapping,
    };
    if let Some(path) = &a.csv
        && output::write_csv(path, &[&report])?
    {
        return Ok(());
    }
    if a.json {
        return output::print_json(&report);
    }
    let Report { layout, application_to_network: mapping, .. } = report;
    let m = &metrics;
    let mut out = output::stdout();
    writeln!(out, "netwrap {VERSION} topo: {}", net.name())?;
    writeln!(out, "processors (terminals)   {}", m.nodes)?;
    writeln!(out, "routers                  {}", m.routers)?;
    writeln!(out, "directed channels        {}", m.channels)?;
    if let Some(bits) = flit_bits {
        writeln!(out, "flit                     {bits} bits (channel widths and loads are in flits)")?;
    }
    match m.degree {
        Some(d) => writeln!(out, "degree                   {d} (regular)"),
        None => writeln!(out, "degree                   {}..{}", m.degree_range.0, m.degree_range.1),
    }?;
    writeln!(out, "diameter                 {}", m.diameter)?;
    writeln!(
        out,
        "average distance         {:.4} (ordered pairs of distinct processors)",
        m.average_distance
    )?;
    if let Some(d) = with_self {
        writeln!(
            out,
            "                         {d:.4} (every destination, the source included: the homework's Ex 4, `netwrap sim`)"
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
    if let Some(l) = layout {
        writeln!(
            out,
            "layout (Puente et al. Fig. 1): {} columns x {} rows; node at (x, y) = (x*{} + y*{}) mod N",
            l.columns, l.rows, l.x_step, l.y_step
        )?;
    }
    if let Some(map) = mapping {
        writeln!(out, "application node -> network node (Puente et al. Fig. 9):")?;
        for (p, r) in map.iter().enumerate() {
            writeln!(out, "{p:>6} -> {r}")?;
        }
    }
    writeln!(
        out,
        "(distances are router-to-router hops; loads are messages/cycle per channel at one message/processor/cycle, uniform traffic over distinct pairs)"
    )?;
    out.finish()?;
    Ok(())
}
