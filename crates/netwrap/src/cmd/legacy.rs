//! The homework's positional form (its App. A):
//! `netwrap procs pkts steps req-rt msg-size rad-k det-file loc`.
//!
//! It builds the same spec as `netwrap sim --nodes procs --messages pkts --max-cycles steps
//! --rate req-rt --size msg-size --k rad-k --locality loc --det-file det-file` and runs it
//! through the same runner. procs is raised to the next power of rad-k when log_k(procs) is
//! not whole (stderr says so); pkts counts measured messages, created after a warm-up; the
//! run lasts until they are delivered or steps cycles pass (the warm-up included); the seed
//! is 1 (use `netwrap sim --seed` for others).
//!
//! A `--quiet` after the eight arguments silences the progress bar (drawn on a terminal for
//! runs over a second): it cannot be taken for one of them, so the positional interface is
//! unchanged.

use crate::output::{self, VERSION, num};
use crate::progress::{Bar, Work};
use crate::{details, runner};
use anyhow::{Context, bail};
use netwrap_app::{Builds, Point, Spec};
use netwrap_engine::Record;
use netwrap_sim::report::Verdict;
use netwrap_topo::TopologySpec;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

const USAGE: &str = "usage: netwrap procs pkts steps req-rt msg-size rad-k det-file loc\n\
    e.g.  netwrap 64 1000 9999999 0.05 6 8 /dev/null 1.0   (or see `netwrap --help`)";

/// True when the arguments look like `netwrap procs pkts …` (first argument a number).
pub fn is_legacy(args: &[OsString]) -> bool {
    args.get(1).and_then(|a| a.to_str()).is_some_and(|a| a.parse::<f64>().is_ok())
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, name: &str, what: &str) -> anyhow::Result<T> {
    args[i].trim().parse().map_err(|_| anyhow::anyhow!("{name} = '{}': takes {what}\n{USAGE}", args[i]))
}

/// The spec the positional arguments describe, and the detail file.
fn spec(args: &[String]) -> anyhow::Result<(Spec, PathBuf)> {
    if args.len() != 8 {
        bail!("expected 8 arguments, got {}\n{USAGE}", args.len());
    }
    let procs: u64 = arg(args, 0, "procs", "a whole number of processors, at least 1")?;
    let pkts: u64 = arg(args, 1, "pkts", "a whole number of measured messages, at least 1")?;
    let steps: u64 = arg(args, 2, "steps", "a whole number of cycles, at least 1")?;
    let rate: f64 = arg(args, 3, "req-rt", "a probability in (0, 1]")?;
    let size: u32 = arg(args, 4, "msg-size", "a whole number of flits, at least 1")?;
    let k: u32 = arg(args, 5, "rad-k", "a whole radix, at least 2")?;
    let det = PathBuf::from(&args[6]);
    let locality: f64 = arg(args, 7, "loc", "a fraction in (0, 1]")?;
    let check = |ok: bool, name: &str, value: String, what: &str| -> anyhow::Result<()> {
        if ok { Ok(()) } else { bail!("{name} = {value} is invalid: {what}\n{USAGE}") }
    };
    check(procs >= 1, "procs", procs.to_string(), "at least one processor is needed")?;
    check(pkts >= 1, "pkts", pkts.to_string(), "at least one message must be measured")?;
    check(steps >= 1, "steps", steps.to_string(), "at least one cycle must be simulated")?;
    check(
        rate.is_finite() && rate > 0.0 && rate <= 1.0,
        "req-rt",
        num(rate),
        "the request rate is a probability in (0, 1]",
    )?;
    check(size >= 1, "msg-size", size.to_string(), "a message needs at least one flit")?;
    check(k >= 2, "rad-k", k.to_string(), "the radix must be at least 2")?;
    check(
        locality.is_finite() && locality > 0.0 && locality <= 1.0,
        "loc",
        num(locality),
        "the locality fraction is in (0, 1]",
    )?;
    let mut spec = Spec::default();
    spec.sim.topology = TopologySpec::Torus {
        k: Some(k),
        n: None,
        nodes: Some(procs),
        radices: None,
        bidirectional: false,
        concentration: None,
    };
    spec.sim.workload.rate = Some(rate);
    spec.sim.workload.size = Some(size);
    spec.sim.workload.locality = Some(locality);
    spec.sim.run.messages = Some(pkts);
    spec.sim.run.max_cycles = Some(steps);
    Ok((spec, det))
}

/// Runs the positional form; `args` excludes the program name.
pub fn run(args: &[OsString]) -> anyhow::Result<()> {
    let mut args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let quiet = args.len() == 9 && args[8] == "--quiet";
    if quiet {
        args.pop();
    }
    let (spec, det) = spec(&args)?;
    if !details::is_null(&det) {
        details::check_writable(&det, "the detailed statistics file")?;
    }
    let point = Point::single(&spec).context("invalid parameters")?;
    for note in &point.job.sim.notes {
        crate::output::note(note);
    }
    let bar = Bar::start(Work::Run, quiet);
    let record = Record { progress: bar.counter(), ..Record::default() };
    let builds = Builds::announcing(|_, seconds| runner::warn_if_slow_setup(None, seconds));
    let mut results = builds.run(
        std::slice::from_ref(&point),
        record,
        |_, plan| {
            runner::warn_if_long(None, plan, netwrap_engine::Jobs::default());
            bar.started(0, plan.cycles);
        },
        |_, _| {},
    );
    bar.finish();
    let r = results.pop().expect("one point ran").context("invalid parameters")?;
    details::write(&det, &[&r])?;
    let rep = &r.result.report;
    let mut out = output::stdout();
    writeln!(out, "netwrap {VERSION}  seed {}", r.seed)?;
    writeln!(out, "network: {} with {} processors", r.result.network.name, r.result.network.nodes)?;
    writeln!(
        out,
        "workload: req-rt {}  msg-size {}  loc {}  pkts {}  steps {}  warm-up {} cycles",
        args[3].trim(),
        args[4].trim(),
        args[7].trim(),
        point.job.sim.run.messages,
        point.job.sim.run.max_cycles,
        rep.warmup
    )?;
    writeln!(out, "messages generated:           {}", rep.messages_generated)?;
    writeln!(out, "messages delivered:           {}", rep.messages_delivered)?;
    writeln!(out, "cycles simulated:             {}", rep.cycles)?;
    writeln!(out, "channel utilization (rho):    {:.4}", rep.utilization)?;
    let reason = rep.verdict_reason.as_deref().unwrap_or("");
    match rep.verdict {
        Verdict::Ok => writeln!(
            out,
            "average latency (T):          {:.3}  (95% CI ± {})",
            rep.latency.unwrap_or(f64::NAN),
            rep.latency_ci95.map_or("—".into(), |c| format!("{c:.3}"))
        )?,
        Verdict::Saturated => {
            writeln!(out, "average latency (T):          none: the network is saturated")?;
            writeln!(
                out,
                "saturated: {reason}; accepted {:.5} of {:.5} offered messages/node/cycle{}",
                rep.throughput,
                rep.offered,
                r.result
                    .max_rate
                    .map(|m| format!(" (the network saturates at req-rt {m:.5})"))
                    .unwrap_or_default()
            )?;
        }
        Verdict::LimitReached => {
            writeln!(
                out,
                "average latency (T):          none: the run stopped at its limit ({:.3} over the {} measured messages delivered, biased low)",
                rep.latency_observed, rep.messages_delivered
            )?;
            writeln!(out, "limit reached: {reason}")?;
        }
        Verdict::Deadlock => {
            writeln!(out, "average latency (T):          none: the network deadlocked")?;
            writeln!(out, "deadlock: {reason}")?;
        }
        Verdict::NotSteady => {
            writeln!(
                out,
                "average latency (T):          none: no steady state ({:.3} over the {} measured messages delivered)",
                rep.latency_observed, rep.messages_delivered
            )?;
            writeln!(out, "not steady: {reason}")?;
        }
    }
    writeln!(out, "average hops:                 {:.3}", rep.mean_hops)?;
    out.finish()?;
    runner::verdict(&r)
}
