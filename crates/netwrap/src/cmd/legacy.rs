//! The homework's positional form (seed 004 App. A):
//! `netwrap procs pkts steps req-rt msg-size rad-k det-file loc`.
//!
//! procs is raised to the next power of rad-k when log_k(procs) is not whole (stderr says
//! so); the run lasts until pkts measured messages are delivered or steps cycles pass; the
//! seed is 1 (use `netwrap sim --seed` for others).

use crate::cmd::details;
use crate::cmd::model::whole_dimensions;
use crate::output::VERSION;
use anyhow::{Context, bail};
use netwrap_sim::{CubeSim, simulate_cube};
use std::ffi::OsString;
use std::path::PathBuf;

const USAGE: &str = "usage: netwrap procs pkts steps req-rt msg-size rad-k det-file loc\n\
    e.g.  netwrap 64 1000 9999999 0.05 6 8 /dev/null 1.0   (or see `netwrap --help`)";

/// True when the arguments look like `netwrap procs pkts …` (first argument a number).
pub fn is_legacy(args: &[OsString]) -> bool {
    args.get(1).and_then(|a| a.to_str()).is_some_and(|a| a.parse::<f64>().is_ok())
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, name: &str, what: &str) -> anyhow::Result<T> {
    args[i].parse().map_err(|_| anyhow::anyhow!("{name} = '{}' is not {what}\n{USAGE}", args[i]))
}

/// Runs the positional form; `args` excludes the program name.
pub fn run(args: &[OsString]) -> anyhow::Result<()> {
    let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    if args.len() != 8 {
        bail!("expected 8 arguments, got {}\n{USAGE}", args.len());
    }
    let procs: u64 = arg(&args, 0, "procs", "a whole number of processors")?;
    let pkts: u64 = arg(&args, 1, "pkts", "a whole number of packets")?;
    let steps: u64 = arg(&args, 2, "steps", "a whole number of cycles")?;
    let rate: f64 = arg(&args, 3, "req-rt", "a probability")?;
    let size: u32 = arg(&args, 4, "msg-size", "a whole number of flits")?;
    let k: u32 = arg(&args, 5, "rad-k", "a whole radix")?;
    let det = PathBuf::from(&args[6]);
    let locality: f64 = arg(&args, 7, "loc", "a fraction")?;
    if procs == 0 {
        bail!("procs = 0 is invalid: at least one processor is needed");
    }
    if k < 2 {
        bail!("rad-k = {k} is invalid: the radix must be at least 2");
    }
    let (n, nodes) = whole_dimensions(procs, k);
    if nodes != procs {
        eprintln!(
            "netwrap: log_{k}({procs}) is not a whole number: simulating N = {k}^{n} = {nodes} processors"
        );
    }
    if !details::is_null(&det) {
        details::check_writable(&det)?;
    }
    let sim = CubeSim { messages: pkts, max_cycles: steps, locality, ..CubeSim::new(k, n, rate, size) };
    let run = simulate_cube(&sim).context("invalid parameters")?;
    details::write(&det, std::slice::from_ref(&run))?;
    let r = &run.report;
    println!("netwrap {VERSION}  seed {}", sim.seed);
    println!("network: {} with {} processors", run.config.topology, run.config.nodes);
    println!(
        "workload: req-rt {rate}  msg-size {size}  loc {locality}  pkts {pkts}  steps {steps}  warm-up {} cycles",
        run.config.sim.warmup.unwrap_or(0)
    );
    println!("messages generated:           {}", r.messages_generated);
    println!("messages delivered:           {}", r.messages_delivered);
    println!("cycles simulated:             {}", r.cycles);
    println!("channel utilization (rho):    {:.4}", r.utilization);
    match r.latency {
        Some(t) => println!(
            "average latency (T):          {t:.3}  (95% CI ± {})",
            r.latency_ci95.map_or("—".into(), |c| format!("{c:.3}"))
        ),
        None => {
            println!("average latency (T):          none: the network is saturated");
            println!(
                "saturated: {}; accepted {:.5} of {:.5} offered messages/node/cycle (the network saturates at req-rt {:.5})",
                r.saturation_reason.as_deref().unwrap_or(""),
                r.throughput,
                r.offered,
                run.saturation_rate
            );
        }
    }
    println!("average hops:                 {:.3}", r.mean_hops);
    match &r.saturation_reason {
        Some(reason) => Err(crate::output::saturated(format!("the network is saturated: {reason}"))),
        None => Ok(()),
    }
}
