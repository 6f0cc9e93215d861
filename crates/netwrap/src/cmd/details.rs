//! The detailed statistics file (the homework's det-file): utilisation per channel class,
//! latency and hop distributions, and per-node counts, as tab-separated sections a spreadsheet
//! or gnuplot reads directly.

use crate::output::write_failed;
use netwrap_sim::SimResult;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Fails early, before simulating, when `path` cannot be written: a path that cannot be opened
/// is a bad argument (status 2); a write that fails later is a failed write (status 1).
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot write the detailed statistics file {}: {e}", path.display()))?;
    Ok(())
}

/// True for the null device, where the homework sends details it does not want.
pub fn is_null(path: &Path) -> bool {
    path == Path::new("/dev/null")
}

/// Writes every run's details to `path`.
pub fn write(path: &Path, runs: &[&SimResult]) -> anyhow::Result<()> {
    if is_null(path) {
        return Ok(());
    }
    let what = || format!("the detailed statistics file {}", path.display());
    let f = File::create(path).map_err(|e| write_failed(what(), e))?;
    let mut w = BufWriter::new(f);
    let mut all = || -> std::io::Result<()> {
        for run in runs {
            section(&mut w, run)?;
        }
        w.flush()
    };
    all().map_err(|e| write_failed(what(), e))?;
    Ok(())
}

fn section(w: &mut impl Write, run: &SimResult) -> std::io::Result<()> {
    let r = &run.report;
    let o = &run.outcome;
    writeln!(w, "# netwrap {} detailed statistics", crate::output::VERSION)?;
    writeln!(w, "# config: {}", serde_json::to_string(&run.config).unwrap_or_default())?;
    writeln!(w, "# seed: {}", run.seed)?;
    writeln!(w, "# verdict: {}", serde_json::to_string(&r.verdict).unwrap_or_default().trim_matches('"'))?;
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
    for (l, n) in o.measured.latency.iter() {
        writeln!(w, "{l}\t{n}")?;
    }
    writeln!(w, "\n## per node (measurement window)\nnode\tgenerated\tdelivered")?;
    for (i, (g, d)) in o.generated.iter().zip(&o.delivered).enumerate() {
        writeln!(w, "{i}\t{g}\t{d}")?;
    }
    writeln!(w)
}
