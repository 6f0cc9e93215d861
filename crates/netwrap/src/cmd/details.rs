//! The detailed statistics file (seed 004's det-file): utilisation per channel class, latency
//! and hop distributions, and per-node counts, as tab-separated sections a spreadsheet or
//! gnuplot reads directly.

use anyhow::Context;
use netwrap_sim::engine::Outcome;
use netwrap_sim::report::Report;
use netwrap_sim::{CubeRun, FamilyRun};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Fails early, before simulating, when `path` cannot be written.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write the detailed statistics file {}", path.display()))?;
    Ok(())
}

/// True for the null device, where the homework sends details it does not want.
pub fn is_null(path: &Path) -> bool {
    path == Path::new("/dev/null")
}

/// A finished run whose details can be written.
pub trait Detailed {
    /// The configuration as run.
    fn config(&self) -> &impl Serialize;
    /// Its seed.
    fn seed(&self) -> u64;
    /// Statistics.
    fn report(&self) -> &Report;
    /// Raw outcome.
    fn outcome(&self) -> &Outcome;
}

macro_rules! detailed {
    ($($t:ty),*) => {$(
        impl Detailed for $t {
            fn config(&self) -> &impl Serialize {
                &self.config
            }
            fn seed(&self) -> u64 {
                self.config.sim.seed
            }
            fn report(&self) -> &Report {
                &self.report
            }
            fn outcome(&self) -> &Outcome {
                &self.outcome
            }
        }
    )*};
}
detailed!(CubeRun, FamilyRun);

/// Writes every run's details to `path`.
pub fn write<R: Detailed>(path: &Path, runs: &[R]) -> anyhow::Result<()> {
    if is_null(path) {
        return Ok(());
    }
    let f = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut w = BufWriter::new(f);
    for run in runs {
        section(&mut w, run).with_context(|| format!("writing {}", path.display()))?;
    }
    w.flush()?;
    Ok(())
}

fn section(w: &mut impl Write, run: &impl Detailed) -> std::io::Result<()> {
    let r = run.report();
    let o = run.outcome();
    writeln!(w, "# netwrap {} detailed statistics", crate::output::VERSION)?;
    writeln!(w, "# config: {}", serde_json::to_string(run.config()).unwrap_or_default())?;
    writeln!(w, "# seed: {}", run.seed())?;
    writeln!(w, "\n## utilization by channel class\nclass\tmeasured\texpected")?;
    for u in &r.utilization_by_class {
        writeln!(
            w,
            "{}\t{:.6}\t{}",
            u.class,
            u.utilization,
            u.expected.map_or("".into(), |e| format!("{e:.6}"))
        )?;
    }
    writeln!(w, "\n## hop distribution (measured messages)\nhops\tmessages")?;
    for (h, n) in r.hop_histogram.iter().enumerate() {
        writeln!(w, "{h}\t{n}")?;
    }
    writeln!(w, "\n## latency distribution (measured messages)\nlatency\tmessages")?;
    let mut hist = std::collections::BTreeMap::new();
    for &l in o.latencies.iter().filter(|&&l| l != u32::MAX) {
        *hist.entry(l).or_insert(0u64) += 1;
    }
    for (l, n) in hist {
        writeln!(w, "{l}\t{n}")?;
    }
    writeln!(w, "\n## per node (measurement window)\nnode\tgenerated\tdelivered")?;
    for (i, (g, d)) in o.generated.iter().zip(&o.delivered).enumerate() {
        writeln!(w, "{i}\t{g}\t{d}")?;
    }
    writeln!(w)
}
