//! `netwrap topo FAMILY …`: build a topology and print its exact metrics.

use crate::output::{VERSION, opt, print_json};
use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use netwrap_topo::{
    CirculantRouting, DimensionOrder, Metrics, ModuleSplit, StageWiring, Topology, TopologySpec,
};
use serde::Serialize;
use std::io::Write;

/// Build a topology and print its size, distances, bisection and uniform-traffic load.
#[derive(Debug, Args)]
pub struct TopoArgs {
    #[command(subcommand)]
    family: FamilyCmd,
    /// Print one JSON object instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// Route by a table of every minimal next hop (seed 001 §2.2) instead of the family's own
    /// routing; the table (destination routers x routers bytes) is limited to 64 MiB.
    #[arg(long, global = true)]
    table_routing: bool,
}

/// Dimension order.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Order {
    Highest,
    Lowest,
}

/// Midimew routing.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MidimewRouting {
    Table,
    Record,
}

/// k, n or N for cube-like families.
#[derive(Debug, Args)]
pub struct CubeSize {
    /// Radix k (nodes per dimension).
    #[arg(long, default_value_t = 8)]
    k: u32,
    /// Dimensions n.
    #[arg(long, conflicts_with = "nodes")]
    n: Option<u32>,
    /// Nodes N instead of n: must be a power of k.
    #[arg(long)]
    nodes: Option<u64>,
    /// Mixed radices k0,k1,… (dimension 0 first) instead of --k/--n.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["n", "nodes"])]
    radices: Option<Vec<u32>>,
}

/// Switch radix and stages (or processors) of a multistage network.
#[derive(Debug, Args)]
pub struct StageSize {
    /// Switch radix k.
    #[arg(long, default_value_t = 2)]
    k: u32,
    /// Stages n (N = k^n).
    #[arg(long, conflicts_with = "nodes")]
    stages: Option<u32>,
    /// Processors N (a power of k).
    #[arg(long)]
    nodes: Option<u64>,
}

/// The families and their options, shared with any command that needs a topology (e.g.
/// `netwrap sim`): parse with clap, resolve with [`spec`].
#[derive(Debug, Subcommand)]
pub enum FamilyCmd {
    /// k-ary n-cube torus (or mesh with --no-wrap); unidirectional unless --bidirectional.
    Torus {
        #[command(flatten)]
        size: CubeSize,
        /// Channels in both directions.
        #[arg(long)]
        bidirectional: bool,
        /// No end-around links: a mesh (implies bidirectional channels).
        #[arg(long)]
        no_wrap: bool,
        /// Dimension order of the routing.
        #[arg(long, value_enum, default_value_t = Order::Highest)]
        order: Order,
    },
    /// k-ary n-dimensional mesh (bidirectional, no end-around links).
    Mesh {
        #[command(flatten)]
        size: CubeSize,
        /// Dimension order of the routing.
        #[arg(long, value_enum, default_value_t = Order::Highest)]
        order: Order,
    },
    /// Ring of k nodes.
    Ring {
        /// Nodes k.
        #[arg(long, default_value_t = 8)]
        k: u32,
        /// Channels in both directions.
        #[arg(long)]
        bidirectional: bool,
    },
    /// Binary hypercube of n dimensions (or --nodes 2^n).
    Hypercube {
        /// Dimensions n.
        #[arg(long, conflicts_with = "nodes")]
        n: Option<u32>,
        /// Nodes N = 2^n.
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Midimew of N nodes: C_N(⌈√(N/2)⌉−1, ⌈√(N/2)⌉) (seed 001 §2).
    Midimew {
        /// Nodes N ≥ 4.
        #[arg(long, default_value_t = 64)]
        nodes: u32,
        /// Routing: every minimal next hop (table) or seed 001 Table 2's routing record.
        #[arg(long, value_enum, default_value_t = MidimewRouting::Table)]
        routing: MidimewRouting,
        /// Also print the application-to-network node mapping (seed 001 Fig. 9).
        #[arg(long)]
        mapping: bool,
    },
    /// Circulant graph C_N(a, b).
    Circulant {
        /// Nodes N.
        #[arg(long)]
        nodes: u32,
        /// First generator a.
        #[arg(long)]
        a: u32,
        /// Second generator b.
        #[arg(long)]
        b: u32,
    },
    /// Butterfly of k×k switches: processors at stage 0, memories after the last stage.
    Butterfly {
        #[command(flatten)]
        size: StageSize,
    },
    /// Omega network of k×k switches (perfect shuffle before every stage).
    Omega {
        #[command(flatten)]
        size: StageSize,
    },
    /// Butterfly fat-tree of N = 4^n processors (seed 002 §3.1).
    FatTree {
        /// Processors N (4, 16, 64, 256, 1024, …).
        #[arg(long, default_value_t = 64)]
        nodes: u32,
    },
    /// Complete graph K_N.
    Complete {
        /// Nodes N.
        #[arg(long)]
        nodes: u32,
    },
    /// n-hop network: product of complete graphs, e.g. --factors 4,8 for K4 × K8.
    Nhop {
        /// Complete-graph sizes.
        #[arg(long, value_delimiter = ',', required = true)]
        factors: Vec<u32>,
    },
    /// Cube-connected cycles CCC(n).
    Ccc {
        /// Cube dimension n (3..=9).
        #[arg(long)]
        n: u32,
    },
    /// A single N-port crossbar.
    Crossbar {
        /// Processors N.
        #[arg(long)]
        nodes: u32,
    },
    /// Seed 003's two-level networks by name: Butterfly.I.E, Butterfly.I-Ddil.E, Xbar.I.E,
    /// {n}hop.I.E1-E2 (butterfly intra-module network) or Xbar.I.E1-E2, widths in bits.
    Seed003 {
        /// The network's name, e.g. Butterfly.16.8, Butterfly.8-2dil.8, Xbar.32.8.
        name: String,
        /// Processors N.
        #[arg(long, default_value_t = 1024)]
        nodes: u32,
        /// Packaging modules M.
        #[arg(long, default_value_t = 32)]
        modules: u32,
    },
}

fn order(o: Order) -> DimensionOrder {
    match o {
        Order::Highest => DimensionOrder::HighestFirst,
        Order::Lowest => DimensionOrder::LowestFirst,
    }
}

/// n with k^n = N exactly, or an error listing the valid N.
fn exact_power(k: u32, nodes: u64, what: &str) -> anyhow::Result<u32> {
    if k < 2 {
        bail!("--k {k} is invalid: k must be at least 2");
    }
    let mut n = 0;
    let mut size = 1u64;
    while size < nodes {
        size = size.saturating_mul(k as u64);
        n += 1;
    }
    if size != nodes || n == 0 {
        bail!(
            "--nodes {nodes} is invalid for a {what} of radix {k}: N must be a power of k ({}, {}, {}, ...)",
            k,
            k as u64 * k as u64,
            (k as u64).pow(3)
        );
    }
    Ok(n)
}

fn radices(size: &CubeSize, what: &str) -> anyhow::Result<Vec<u32>> {
    if let Some(r) = &size.radices {
        return Ok(r.clone());
    }
    let n = match (size.n, size.nodes) {
        (Some(n), _) => n,
        (None, Some(nodes)) => exact_power(size.k, nodes, what)?,
        (None, None) => 2,
    };
    Ok(vec![size.k; n as usize])
}

/// Parses seed 003's network names into a spec.
fn seed003(name: &str, nodes: u32, modules: u32) -> anyhow::Result<TopologySpec> {
    let bad = || {
        anyhow::anyhow!(
            "cannot parse network name {name:?}: use Butterfly.I.E, Butterfly.I-Ddil.E, Xbar.I.E, {{n}}hop.I.E1-...-En or Xbar.I.E1-...-En with widths in bits (seed 003 §5)"
        )
    };
    let parts: Vec<&str> = name.split('.').collect();
    let [family, intra, inter] = parts[..] else { return Err(bad()) };
    let (intra_bits, dilation) = match intra.split_once('-') {
        Some((w, d)) => (
            w.parse::<u32>().map_err(|_| bad())?,
            d.strip_suffix("dil").ok_or_else(bad)?.parse::<u32>().map_err(|_| bad())?,
        ),
        None => (intra.parse::<u32>().map_err(|_| bad())?, 1),
    };
    let inter_bits: Vec<u32> =
        inter.split('-').map(|w| w.parse::<u32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    let hops = inter_bits.len() as u32;
    let lower = family.to_ascii_lowercase();
    if lower == "xbar" {
        if dilation != 1 {
            bail!("a crossbar module has no intra-module channels to dilate: drop -{dilation}dil");
        }
        if nodes % modules != 0 {
            bail!(
                "--nodes {nodes} is not a multiple of --modules {modules}: every module holds N/M processors"
            );
        }
        let factors = if hops == 1 {
            vec![modules]
        } else {
            netwrap_topo::cost::balanced_factors(modules, hops)
                .with_context(|| format!("M = {modules} has no factorisation into {hops} factors >= 2"))?
        };
        return Ok(TopologySpec::XbarModules {
            per_module: nodes / modules,
            factors,
            intra_bits,
            inter_bits,
        });
    }
    let named_hops = if lower == "butterfly" {
        1
    } else {
        lower.strip_suffix("hop").and_then(|n| n.parse::<u32>().ok()).ok_or_else(bad)?
    };
    if named_hops != hops {
        bail!("{name}: a {named_hops}-hop network needs {named_hops} inter-module widths, got {hops}");
    }
    let factors = if hops == 1 {
        vec![modules]
    } else {
        netwrap_topo::cost::balanced_factors(modules, hops)
            .with_context(|| format!("M = {modules} has no factorisation into {hops} factors >= 2"))?
    };
    Ok(TopologySpec::ModularButterfly {
        nodes,
        modules,
        split: ModuleSplit { factors, intra_bits, inter_bits, dilation },
    })
}

/// Resolves command-line options into a [`TopologySpec`], with errors that name the valid sizes.
pub fn spec(f: &FamilyCmd) -> anyhow::Result<TopologySpec> {
    Ok(match f {
        FamilyCmd::Torus { size, bidirectional, no_wrap, order: o } => TopologySpec::Cube {
            radices: radices(size, "torus")?,
            wrap: !no_wrap,
            bidirectional: *bidirectional || *no_wrap,
            order: order(*o),
        },
        FamilyCmd::Mesh { size, order: o } => TopologySpec::Cube {
            radices: radices(size, "mesh")?,
            wrap: false,
            bidirectional: true,
            order: order(*o),
        },
        FamilyCmd::Ring { k, bidirectional } => TopologySpec::Cube {
            radices: vec![*k],
            wrap: true,
            bidirectional: *bidirectional,
            order: DimensionOrder::HighestFirst,
        },
        FamilyCmd::Hypercube { n, nodes } => TopologySpec::Hypercube {
            n: match (n, nodes) {
                (Some(n), _) => *n,
                (None, Some(nodes)) => exact_power(2, *nodes, "hypercube")?,
                (None, None) => 6,
            },
        },
        FamilyCmd::Midimew { nodes, routing, .. } => TopologySpec::Midimew {
            nodes: *nodes,
            routing: match routing {
                MidimewRouting::Table => CirculantRouting::Table,
                MidimewRouting::Record => CirculantRouting::Record,
            },
        },
        FamilyCmd::Circulant { nodes, a, b } => TopologySpec::Circulant { nodes: *nodes, a: *a, b: *b },
        FamilyCmd::Butterfly { size } | FamilyCmd::Omega { size } => {
            let wiring = if matches!(f, FamilyCmd::Omega { .. }) {
                StageWiring::Omega
            } else {
                StageWiring::Butterfly
            };
            let stages = match (size.stages, size.nodes) {
                (Some(s), _) => s,
                (None, Some(nodes)) => exact_power(size.k, nodes, "multistage network")?,
                (None, None) => 4,
            };
            TopologySpec::Multistage { k: size.k, stages, wiring }
        }
        FamilyCmd::FatTree { nodes } => TopologySpec::FatTree { nodes: *nodes },
        FamilyCmd::Complete { nodes } => TopologySpec::NHop { factors: vec![*nodes] },
        FamilyCmd::Nhop { factors } => TopologySpec::NHop { factors: factors.clone() },
        FamilyCmd::Ccc { n } => TopologySpec::Ccc { n: *n },
        FamilyCmd::Crossbar { nodes } => TopologySpec::Crossbar { nodes: *nodes },
        FamilyCmd::Seed003 { name, nodes, modules } => seed003(name, *nodes, *modules)?,
    })
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
    config: &'a TopologySpec,
    name: &'a str,
    classes: &'a [String],
    #[serde(flatten)]
    metrics: &'a Metrics,
    layout: Option<Layout>,
    /// Bits per flit where channel widths were given in bits (seed 003's networks).
    #[serde(skip_serializing_if = "Option::is_none")]
    flit_bits: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    application_to_network: Option<Vec<u32>>,
}

pub fn run(a: TopoArgs) -> anyhow::Result<()> {
    let mut spec = spec(&a.family)?;
    if a.table_routing {
        spec = TopologySpec::Table { of: Box::new(spec) };
    }
    let topo = spec.build().context("invalid topology")?;
    let metrics = topo.metrics().context("cannot measure the topology")?;
    let (layout, mapping) = match &topo {
        Topology::Circulant(c) => {
            let layout =
                c.layout().map(|(columns, rows, x_step, y_step)| Layout { columns, rows, x_step, y_step });
            let want = matches!(a.family, FamilyCmd::Midimew { mapping: true, .. });
            let mapping =
                want.then(|| (0..c.nodes()).filter_map(|p| c.application_to_network(p)).collect::<Vec<_>>());
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
    if a.json {
        return print_json(&Report {
            netwrap_version: VERSION,
            seed: None,
            config: &spec,
            name: net.name(),
            classes: net.classes(),
            metrics: &metrics,
            layout,
            flit_bits,
            application_to_network: mapping,
        });
    }
    let m = &metrics;
    let mut out = std::io::stdout().lock();
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
    writeln!(out, "average distance         {:.4}", m.average_distance)?;
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
            "layout (seed 001 Fig. 1): {} columns x {} rows; node at (x, y) = (x*{} + y*{}) mod N",
            l.columns, l.rows, l.x_step, l.y_step
        )?;
    }
    if let Some(map) = mapping {
        writeln!(out, "application node -> network node (seed 001 Fig. 9):")?;
        for (p, r) in map.iter().enumerate() {
            writeln!(out, "{p:>6} -> {r}")?;
        }
    }
    writeln!(
        out,
        "(distances are router-to-router hops over ordered pairs of distinct processors; loads are messages/cycle per channel at one message/processor/cycle, uniform traffic)"
    )?;
    Ok(())
}
