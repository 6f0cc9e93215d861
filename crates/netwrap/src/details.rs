//! The detailed statistics file (the homework's det-file): utilisation per channel class,
//! latency and hop distributions, and per-node counts, as tab-separated sections a spreadsheet
//! or gnuplot reads directly.

use crate::output::write_failed;
use netwrap_app::Simulation;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Fails early, before simulating, when `path` cannot be written. A file that cannot be
/// created is output that could not be written (status 1, naming the file), as for `--csv`
/// and `--jsonl`, whether it fails now or on a later write.
pub fn check_writable(path: &Path, what: &str) -> anyhow::Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| write_failed(format!("{what} {}", quoted(path)), e))?;
    Ok(())
}

/// A path as a message shows it: quoted when empty or padded, so that it cannot vanish.
fn quoted(path: &Path) -> String {
    let text = path.display().to_string();
    if text.is_empty() || text.trim() != text { format!("{text:?}") } else { text }
}

/// True for the null device, where the homework sends details it does not want.
pub fn is_null(path: &Path) -> bool {
    path == Path::new("/dev/null")
}

/// Writes every run's details to `path`.
pub fn write(path: &Path, runs: &[&Simulation]) -> anyhow::Result<()> {
    if is_null(path) {
        return Ok(());
    }
    let what = || format!("the detailed statistics file {}", quoted(path));
    let f = crate::output::lock_output(path, &what(), true)?;
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

fn section(w: &mut impl Write, run: &Simulation) -> std::io::Result<()> {
    let r = &run.result.report;
    let o = &run.result.outcome;
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
    if let Some(service) = &o.channel_service {
        writeln!(
            w,
            "\n## service by channel class (virtual-channel router; packets taking a channel in the window)\nclass\tpackets\tmean hold\tmean header wait"
        )?;
        for c in service {
            let n = c.packets.max(1) as f64;
            writeln!(
                w,
                "{}\t{}\t{:.4}\t{:.4}",
                c.class,
                c.packets,
                c.hold_sum as f64 / n,
                c.wait_sum as f64 / n
            )?;
        }
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
