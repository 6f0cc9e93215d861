//! `netwrap bench`: simulated cycles per second, flit-hops per second and peak memory on
//! standard configurations, one core, each configuration in its own process so its peak
//! memory is its own.

use crate::output::{self, VERSION};
use anyhow::{Context, bail};
use clap::Args;
use netwrap_app::{Simulation, Spec, Sweep, run_on, run_points};
use netwrap_engine::{Jobs, Record};
use netwrap_sim::Experiment;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::time::Instant;

/// Benchmark options.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Run only the configuration with this name (as listed in the output).
    #[arg(long)]
    pub only: Option<String>,
    /// Scale the measured messages (e.g. 0.1 for a quick look), in (0, 100].
    #[arg(long, default_value_t = 1.0, value_parser = netwrap_topo::cli::number, allow_negative_numbers = true)]
    pub scale: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the figures as tidy CSV, one row per configuration (`-`: standard output,
    /// instead of the table or JSON; a file is written besides them).
    #[arg(long, value_name = "FILE|-")]
    pub csv: Option<std::path::PathBuf>,
    /// Run in this process instead of one child per configuration (peak memory then
    /// accumulates over configurations).
    #[arg(long)]
    pub in_process: bool,
}

struct Config {
    name: &'static str,
    what: &'static str,
    spec: Spec,
    /// Rates of a sweep on one thread, instead of a single point.
    sweep: Option<Vec<f64>>,
    /// Threads of the run (`--jobs`): above 1, the run is timed on one thread too, on the same
    /// built network, and must give the same result.
    jobs: u32,
}

fn spec(json: &str, messages: u64) -> Spec {
    let mut s: Spec = serde_json::from_str(json).expect("benchmark specs are valid");
    s.sim.run.messages = Some(messages);
    s
}

/// The virtual-channel router's benchmark: CAMINOS's bubble configuration (docs/sim.md) on a
/// k×k bidirectional torus at `load` flits/node/cycle.
fn vc_bubble(k: u32, load: f64) -> String {
    format!(
        r#"{{"topology": {{"family": "torus", "k": {k}, "bidirectional": true}}, "router": {{"kind": "vc", "vcs": 1, "buffer": 16, "packet": 4, "switching": "vct", "deadlock": "bubble"}}, "workload": {{"load": {load}, "size": 4, "pattern": "uniform-others"}}}}"#
    )
}

/// The 256x256 bidirectional torus of the scaling rows, with `router` (JSON keys, each after a
/// comma) added.
fn torus256(router: &str) -> String {
    format!(
        r#"{{"topology": {{"family": "torus", "k": 256, "n": 2, "bidirectional": true}}{router}, "workload": {{"load": 0.01, "size": 4}}, "run": {{"warmup": 300}}}}"#
    )
}

/// The virtual-channel router of the scaling rows (2 VCs x 8 flits, dateline, wormhole, P = 4),
/// as JSON keys after a comma.
const VC_DATELINE: &str =
    r#", "router": {"kind": "vc", "vcs": 2, "buffer": 8, "packet": 4, "deadlock": "dateline"}"#;

fn configs(scale: f64) -> Vec<Config> {
    let msgs = |m: f64| ((m * scale) as u64).max(100);
    let butterfly =
        r#"{"topology": {"family": "two-level", "name": "Butterfly.16.8"}, "workload": {"rate": 0.04}}"#;
    vec![
        Config {
            name: "torus8x8",
            what: "8x8 unidirectional torus, m = 0.04, B = 4 (0.16 flits/node/cycle, rho = 0.56)",
            spec: spec(r#"{"workload": {"rate": 0.04, "size": 4}}"#, msgs(2_000_000.0)),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "torus8x8-bi",
            what: "8x8 bidirectional torus, 0.27 flits/node/cycle (m = 0.0675, B = 4)",
            spec: spec(
                r#"{"topology": {"family": "torus", "bidirectional": true}, "workload": {"rate": 0.0675, "size": 4}}"#,
                msgs(2_000_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-caminos8x8",
            what: "--router vc as the CAMINOS bubble configuration: 8x8 bidirectional torus, VCT, 1 VC x 16 flits, P = 4, bubble, uniform-others, 0.27 flits/node/cycle (half its saturation, 0.547 in CAMINOS)",
            spec: spec(&vc_bubble(8, 0.27), msgs(500_000.0)),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-torus16x16-bi",
            what: "the same router on a 16x16 bidirectional torus, 0.16 flits/node/cycle (half its saturation, 0.325)",
            spec: spec(&vc_bubble(16, 0.16), msgs(500_000.0)),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-torus32x32-bi",
            what: "the same router on a 32x32 bidirectional torus, 0.089 flits/node/cycle (half its saturation, 0.178)",
            spec: spec(&vc_bubble(32, 0.089), msgs(500_000.0)),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-dragonfly1056-ugal",
            what: "--router vc on the 1,056-terminal balanced dragonfly (p = 4), UGAL-local through a group, 3 VCs x 16 flits in route-phase classes, wormhole, P = B = 4, uniform, 0.2 flits/node/cycle (half its saturation, about 0.40)",
            spec: spec(
                r#"{"topology": {"family": "dragonfly", "p": 4}, "routing": {"algorithm": "ugal-local"}, "router": {"kind": "vc", "vcs": 3, "buffer": 16, "packet": 4, "deadlock": "phases"}, "workload": {"load": 0.2, "size": 4}}"#,
                msgs(300_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-torus8x8-dateline",
            what: "the router of vc-torus256x256-bi (2 VCs x 8 flits, dateline, wormhole, P = 4) on an 8x8 bidirectional torus at the same rho, 0.32 flits/node/cycle (B = 4): the flit-by-flit router's cost of a flit-hop on a small network",
            spec: spec(
                &format!(
                    r#"{{"topology": {{"family": "torus", "k": 8, "n": 2, "bidirectional": true}}{VC_DATELINE}, "workload": {{"load": 0.32, "size": 4}}}}"#
                ),
                msgs(1_000_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "torus256x256-bi",
            what: "a 256x256 bidirectional torus (65,536 nodes) at a third of its saturation, 0.01 flits/node/cycle, B = 4, warm-up 300: the cost of a flit-hop at scale, against torus8x8-bi",
            spec: spec(&torus256(""), msgs(60_000.0)),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-torus256x256-bi",
            what: "the same on --router vc (2 VCs x 8 flits, dateline, wormhole, P = 4), against vc-torus8x8-dateline (the same router) and vc-caminos8x8 (1 VC, virtual cut-through: packets, not flits)",
            spec: spec(&torus256(VC_DATELINE), msgs(60_000.0)),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "torus256x256-bi-jobs2",
            what: "torus256x256-bi longer (300,000 messages) on 2 threads (--jobs 2), against the same run on one, on the network built once",
            spec: spec(&torus256(""), msgs(300_000.0)),
            sweep: None,
            jobs: 2,
        },
        Config {
            name: "vc-torus256x256-bi-jobs2",
            what: "vc-torus256x256-bi on 2 threads, against the same run on one, on the network built once",
            spec: spec(&torus256(VC_DATELINE), msgs(60_000.0)),
            sweep: None,
            jobs: 2,
        },
        Config {
            name: "torus8x8-bi-jobs2",
            what: "torus8x8-bi (200,000 messages) on 2 threads, forced: a network too small to share, where the threads' meeting each cycle shows",
            spec: spec(
                r#"{"topology": {"family": "torus", "bidirectional": true}, "workload": {"rate": 0.0675, "size": 4}}"#,
                msgs(200_000.0),
            ),
            sweep: None,
            jobs: 2,
        },
        Config {
            name: "torus32x32",
            what: "32x32 unidirectional torus, B = 4, rho = 0.5 (m = 0.5/(4*15.5))",
            spec: spec(
                &format!(
                    r#"{{"topology": {{"family": "torus", "k": 32}}, "workload": {{"rate": {}}}}}"#,
                    0.5 / 62.0
                ),
                msgs(1_000_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "cube16^4",
            what: "16-ary 4-cube (65,536 nodes), B = 4, rho = 0.5 (m = 0.5/(4*7.5))",
            spec: spec(
                &format!(
                    r#"{{"topology": {{"family": "torus", "k": 16, "n": 4}}, "workload": {{"rate": {}}}}}"#,
                    0.5 / 30.0
                ),
                msgs(2_000_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "cube16^4-jobs2",
            what: "cube16^4 (500,000 messages) on 2 threads, against the same run on one",
            spec: spec(
                &format!(
                    r#"{{"topology": {{"family": "torus", "k": 16, "n": 4}}, "workload": {{"rate": {}}}}}"#,
                    0.5 / 30.0
                ),
                msgs(500_000.0),
            ),
            sweep: None,
            jobs: 2,
        },
        Config {
            name: "cube32^4",
            what: "32-ary 4-cube (1,048,576 nodes), B = 4, rho = 0.5 (m = 0.5/(4*15.5)): memory per node",
            spec: spec(
                &format!(
                    r#"{{"topology": {{"family": "torus", "k": 32, "n": 4}}, "workload": {{"rate": {}}}, "run": {{"warmup": 200}}}}"#,
                    0.5 / 62.0
                ),
                msgs(200_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-cube32^4",
            what: "--router vc on the 32-ary 4-cube (1,048,576 nodes), 2 VCs x 8 flits, dateline, wormhole, P = B = 4, 0.01 flits/node/cycle: memory per node",
            spec: spec(
                r#"{"topology": {"family": "torus", "k": 32, "n": 4}, "router": {"kind": "vc", "vcs": 2, "buffer": 8, "packet": 4, "deadlock": "dateline"}, "workload": {"load": 0.01, "size": 4}, "run": {"warmup": 50}}"#,
                msgs(20_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "ntree32^4",
            what: "32-ary 4-tree (1,048,576 nodes, 131,072 switches of 64 ports), random up ports, 0.01 flits/node/cycle, B = 4: memory per node",
            spec: spec(
                r#"{"topology": {"family": "kary-ntree", "k": 32, "n": 4}, "workload": {"load": 0.01, "size": 4}, "run": {"warmup": 50}}"#,
                msgs(20_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-ntree32^4",
            what: "--router vc on the 32-ary 4-tree, 2 VCs x 8 flits, wormhole, P = B = 4, 0.01 flits/node/cycle: memory per node",
            spec: spec(
                r#"{"topology": {"family": "kary-ntree", "k": 32, "n": 4}, "router": {"kind": "vc", "vcs": 2, "buffer": 8, "packet": 4}, "workload": {"load": 0.01, "size": 4}, "run": {"warmup": 50}}"#,
                msgs(20_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "dragonfly-p23",
            what: "balanced dragonfly p = h = 23, a = 46, g = 1,059 (1,120,422 nodes), minimal routing, 0.01 flits/node/cycle, B = 4: memory per node",
            spec: spec(
                r#"{"topology": {"family": "dragonfly", "p": 23}, "workload": {"load": 0.01, "size": 4}, "run": {"warmup": 50}}"#,
                msgs(20_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "vc-dragonfly-p23",
            what: "--router vc on the same dragonfly, 2 VCs x 8 flits in route-phase classes, wormhole, P = B = 4, 0.01 flits/node/cycle: memory per node",
            spec: spec(
                r#"{"topology": {"family": "dragonfly", "p": 23}, "router": {"kind": "vc", "vcs": 2, "buffer": 8, "packet": 4, "deadlock": "phases"}, "workload": {"load": 0.01, "size": 4}, "run": {"warmup": 50}}"#,
                msgs(20_000.0),
            ),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "butterfly16.8",
            what: "Raghunath & Ranade's Butterfly.16.8 (1024 processors), one point, m = 0.04",
            spec: spec(butterfly, msgs(10_000.0)),
            sweep: None,
            jobs: 1,
        },
        Config {
            name: "butterfly16.8-sweep6",
            what: "the same, six rates 0.01..0.06 on one thread (the network built once)",
            spec: spec(butterfly, msgs(10_000.0)),
            sweep: Some(vec![0.01, 0.02, 0.03, 0.04, 0.05, 0.06]),
            jobs: 1,
        },
    ]
}

/// One configuration's figures.
#[derive(Debug, Serialize, Deserialize)]
pub struct Figures {
    name: String,
    what: String,
    netwrap_version: String,
    seed: u64,
    config: serde_json::Value,
    nodes: u32,
    points: u64,
    cycles: u64,
    messages: u64,
    seconds: f64,
    cycles_per_second: f64,
    flit_hops_per_second: f64,
    utilization: f64,
    peak_rss_bytes: Option<u64>,
    peak_rss_bytes_per_node: Option<f64>,
    /// Threads of the run; with more than one, the same run's seconds on one thread and the
    /// speed-up (both timed without building the network, which `seconds` then leaves out).
    threads: u32,
    one_thread_seconds: Option<f64>,
    speedup: Option<f64>,
}

fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `c` on `c.jobs` threads and on one, on the network built once, twice each in turn,
/// and times the runs: (result, the faster of the two runs on `c.jobs` threads, of the two on
/// one). (Alternating, both have a run after the other's: a first run alone would pay for
/// the memory the later ones reuse.) The results must be equal.
fn on_threads(c: &Config) -> anyhow::Result<(Simulation, f64, f64)> {
    let job = c.spec.resolve()?;
    let experiment = Experiment::build(&job.sim)?;
    let timed = |jobs: u32| -> anyhow::Result<(Simulation, f64)> {
        let start = Instant::now();
        let record = Record { jobs: Jobs::Exactly(jobs), ..Record::default() };
        let r = run_on(&experiment, &job, record)?;
        Ok((r, start.elapsed().as_secs_f64()))
    };
    let (one, mut one_seconds) = timed(1)?;
    let (many, mut seconds) = timed(c.jobs)?;
    let one = serde_json::to_value(&one)?;
    for (jobs, best) in [(1, &mut one_seconds), (c.jobs, &mut seconds)] {
        let (again, s) = timed(jobs)?;
        if serde_json::to_value(&again)? != one {
            bail!("benchmark {}: a run on {jobs} threads differs from the first on one", c.name);
        }
        *best = best.min(s);
    }
    if serde_json::to_value(&many)? != one {
        bail!("benchmark {}: the run on {} threads differs from the run on one", c.name, c.jobs);
    }
    Ok((many, seconds, one_seconds))
}

fn measure(c: &Config) -> anyhow::Result<Figures> {
    if c.jobs > 1 {
        let (r, seconds, one_seconds) = on_threads(c)?;
        let mut f = figures(c, &[r], seconds)?;
        f.threads = c.jobs;
        f.one_thread_seconds = Some(one_seconds);
        f.speedup = Some(one_seconds / seconds);
        return Ok(f);
    }
    let start = Instant::now();
    let results = match &c.sweep {
        None => vec![netwrap_app::simulate(&c.spec)?],
        Some(rates) => {
            let axis =
                ("workload.rate".to_string(), rates.iter().map(|&r| serde_json::Value::from(r)).collect());
            let points = Sweep::with_axes(c.spec.clone(), [axis].into_iter().collect())?.points()?;
            let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().context("a one-thread pool")?;
            pool.install(|| run_points(&points, netwrap_engine::Record::default(), |_, _| {}, |_, _| {}))
                .into_iter()
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    figures(c, &results, start.elapsed().as_secs_f64())
}

/// The figures of `results`, the runs of `c`, taking `seconds`.
fn figures(c: &Config, results: &[Simulation], seconds: f64) -> anyhow::Result<Figures> {
    let first = &results[0];
    let nodes = first.result.network.nodes;
    let cycles: u64 = results.iter().map(|r| r.result.report.cycles).sum();
    let flit_hops: u64 = results.iter().map(|r| r.result.outcome.flit_hops).sum();
    let peak = peak_rss();
    Ok(Figures {
        name: c.name.into(),
        what: c.what.into(),
        netwrap_version: VERSION.into(),
        seed: first.seed,
        config: serde_json::to_value(&first.config)?,
        nodes,
        points: results.len() as u64,
        cycles,
        messages: results.iter().map(|r| r.result.outcome.messages_total).sum(),
        seconds,
        cycles_per_second: cycles as f64 / seconds,
        flit_hops_per_second: flit_hops as f64 / seconds,
        utilization: first.result.report.utilization,
        peak_rss_bytes: peak,
        peak_rss_bytes_per_node: peak.map(|p| p as f64 / nodes as f64),
        threads: 1,
        one_thread_seconds: None,
        speedup: None,
    })
}

/// Runs `netwrap bench` with its parsed arguments.
pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    if !(a.scale.is_finite() && a.scale > 0.0 && a.scale <= 100.0) {
        bail!(
            "--scale {} is invalid: it scales the measured messages, a number in (0, 100]",
            output::num(a.scale)
        );
    }
    let all = configs(a.scale);
    if let Some(name) = &a.only
        && !all.iter().any(|c| c.name == name)
    {
        let names: Vec<_> = all.iter().map(|c| c.name).collect();
        bail!("no benchmark named '{name}': choose one of {}", names.join(", "));
    }
    let chosen: Vec<&Config> = all.iter().filter(|c| a.only.as_deref().is_none_or(|n| n == c.name)).collect();
    let mut results = Vec::new();
    // `--csv -` replaces the table and the JSON, as with `netwrap sim`.
    let csv_only = a.csv.as_deref().is_some_and(output::is_stdout);
    let mut out = output::stdout();
    for c in chosen {
        let figures = if a.in_process || a.only.is_some() {
            measure(c)?
        } else {
            let exe = std::env::current_exe().context("locating the netwrap binary")?;
            let child = std::process::Command::new(exe)
                .args(["bench", "--json", "--only", c.name, "--scale", &a.scale.to_string()])
                .output()
                .context("running a benchmark child process")?;
            if !child.status.success() {
                bail!("benchmark {} failed: {}", c.name, String::from_utf8_lossy(&child.stderr));
            }
            let mut v: Vec<Figures> =
                serde_json::from_slice(&child.stdout).context("reading a benchmark's result")?;
            v.pop().context("empty benchmark result")?
        };
        if !a.json && !csv_only {
            row(&mut out, &figures)?;
            out.flush()?;
        }
        results.push(figures);
    }
    if let Some(path) = &a.csv {
        output::write_csv(path, &results)?;
    }
    if a.json && !csv_only {
        output::write_json(&mut out, &results)?;
    }
    out.finish()?;
    Ok(())
}

fn row(out: &mut impl Write, f: &Figures) -> std::io::Result<()> {
    let cores = if f.threads == 1 { "one core".to_string() } else { format!("{} threads", f.threads) };
    writeln!(out, "{} — netwrap {VERSION}, {cores}", f.what)?;
    writeln!(
        out,
        "  {:>7} nodes {:>2} point{} {:>10} cycles {:>9} messages {:>7.2} s   {:>10.0} cycles/s   {:>6.1} M flit-hops/s   rho {:.3}   peak RSS {}",
        f.nodes,
        f.points,
        if f.points == 1 { " " } else { "s" },
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
    )?;
    if let (Some(one), Some(speedup)) = (f.one_thread_seconds, f.speedup) {
        let per_cycle = |s: f64| s / f.cycles.max(1) as f64 * 1e6;
        writeln!(
            out,
            "  the same run on one thread: {one:.2} s; speed-up {speedup:.2}x; a cycle {:.2} us on one thread, {:.2} us on {}; results identical",
            per_cycle(one),
            per_cycle(f.seconds),
            f.threads
        )?;
    }
    Ok(())
}
