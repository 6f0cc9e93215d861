//! `netwrap bench`: simulated cycles per second and flit-hops per second on standard
//! configurations, one core, each configuration in its own process so peak memory is its own.

use crate::output::{VERSION, print_json};
use anyhow::{Context, bail};
use clap::Args;
use netwrap_sim::{CubeSim, simulate_cube};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Benchmark options.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Run only the configuration with this name (as listed in the output).
    #[arg(long)]
    pub only: Option<String>,
    /// Scale the measured messages (e.g. 0.1 for a quick look).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Run in this process instead of one child per configuration (peak memory then
    /// accumulates over configurations).
    #[arg(long)]
    pub in_process: bool,
}

struct Config {
    name: &'static str,
    what: &'static str,
    sim: CubeSim,
}

fn configs(scale: f64) -> Vec<Config> {
    let msgs = |m: f64| ((m * scale) as u64).max(100);
    vec![
        Config {
            name: "torus8x8",
            what: "8x8 unidirectional torus, m = 0.04, B = 4 (0.16 flits/node/cycle, rho = 0.56)",
            sim: CubeSim { messages: msgs(2_000_000.0), ..CubeSim::new(8, 2, 0.04, 4) },
        },
        Config {
            name: "torus8x8-bi",
            what: "8x8 bidirectional torus, 0.27 flits/node/cycle (m = 0.0675, B = 4)",
            sim: CubeSim {
                bidirectional: true,
                messages: msgs(2_000_000.0),
                ..CubeSim::new(8, 2, 0.0675, 4)
            },
        },
        Config {
            name: "torus32x32",
            what: "32x32 unidirectional torus, B = 4, rho = 0.5 (m = 0.5/(4*15.5))",
            sim: CubeSim { messages: msgs(1_000_000.0), ..CubeSim::new(32, 2, 0.5 / 62.0, 4) },
        },
        Config {
            name: "cube16^4",
            what: "16-ary 4-cube (65,536 nodes), B = 4, rho = 0.5 (m = 0.5/(4*7.5))",
            sim: CubeSim { messages: msgs(2_000_000.0), ..CubeSim::new(16, 4, 0.5 / 30.0, 4) },
        },
    ]
}

/// One configuration's figures.
#[derive(Debug, Serialize, Deserialize)]
pub struct Figures {
    name: String,
    what: String,
    nodes: u32,
    cycles: u64,
    messages: u64,
    seconds: f64,
    cycles_per_second: f64,
    flit_hops_per_second: f64,
    utilization: f64,
    peak_rss_bytes: Option<u64>,
    peak_rss_bytes_per_node: Option<f64>,
}

fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn measure(c: &Config) -> anyhow::Result<Figures> {
    let start = Instant::now();
    let run = simulate_cube(&c.sim)?;
    let seconds = start.elapsed().as_secs_f64();
    let nodes = run.config.nodes;
    let peak = peak_rss();
    Ok(Figures {
        name: c.name.into(),
        what: c.what.into(),
        nodes,
        cycles: run.report.cycles,
        messages: run.outcome.messages_total,
        seconds,
        cycles_per_second: run.report.cycles as f64 / seconds,
        flit_hops_per_second: run.outcome.flit_hops as f64 / seconds,
        utilization: run.report.utilization,
        peak_rss_bytes: peak,
        peak_rss_bytes_per_node: peak.map(|p| p as f64 / nodes as f64),
    })
}

pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    let all = configs(a.scale);
    if let Some(name) = &a.only {
        if !all.iter().any(|c| c.name == name) {
            let names: Vec<_> = all.iter().map(|c| c.name).collect();
            bail!("no benchmark named '{name}': choose one of {}", names.join(", "));
        }
    }
    let chosen: Vec<&Config> = all.iter().filter(|c| a.only.as_deref().is_none_or(|n| n == c.name)).collect();
    let mut results = Vec::new();
    for c in chosen {
        let figures = if a.in_process || a.only.is_some() {
            measure(c)?
        } else {
            let exe = std::env::current_exe().context("locating the netwrap binary")?;
            let out = std::process::Command::new(exe)
                .args(["bench", "--json", "--only", c.name, "--scale", &a.scale.to_string()])
                .output()
                .context("running a benchmark child process")?;
            if !out.status.success() {
                bail!("benchmark {} failed: {}", c.name, String::from_utf8_lossy(&out.stderr));
            }
            let mut v: Vec<Figures> =
                serde_json::from_slice(&out.stdout).context("reading a benchmark's result")?;
            v.pop().context("empty benchmark result")?
        };
        if !a.json {
            print_row(&figures);
        }
        results.push(figures);
    }
    if a.json {
        print_json(&results)?;
    }
    Ok(())
}

fn print_row(f: &Figures) {
    println!("{} — netwrap {VERSION}, one core", f.what);
    println!(
        "  {:>7} nodes {:>10} cycles {:>9} messages {:>7.2} s   {:>10.0} cycles/s   {:>6.1} M flit-hops/s   rho {:.3}   peak RSS {}",
        f.nodes,
        f.cycles,
        f.messages,
        f.seconds,
        f.cycles_per_second,
        f.flit_hops_per_second / 1e6,
        f.utilization,
        f.peak_rss_bytes.map_or("?".into(), |p| format!(
            "{:.1} MiB ({:.0} B/node)",
            p as f64 / 1048576.0,
            f.peak_rss_bytes_per_node.unwrap_or(0.0)
        ))
    );
}
