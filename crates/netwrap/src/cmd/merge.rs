//! `netwrap merge`: joins the files of a sharded run into exactly what one unsharded run
//! writes.

use crate::output::{self, write_failed};
use crate::table;
use anyhow::{Context, bail};
use clap::Args;
use netwrap_app::sweep::Identity;
use serde::Deserialize;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// Join the CSV (or JSON lines) files of a sharded run (`netwrap run --shard i/N`) into one,
/// in point order: byte for byte what one unsharded run writes. Every row says which
/// experiment it is of and how many points that has: rows of two experiments are refused,
/// and points missing anywhere (the last shard's included) are reported.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' files: all CSV (`.csv`) or all JSON lines (`.jsonl`).
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Write here instead of standard output.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

/// Runs `netwrap merge` with its parsed arguments.
pub fn run(a: MergeArgs) -> anyhow::Result<()> {
    let csv = a.files.iter().all(|f| f.extension().is_some_and(|e| e == "csv"));
    let jsonl = a.files.iter().all(|f| f.extension().is_some_and(|e| e == "jsonl"));
    if !csv && !jsonl {
        bail!("merge joins files of one kind: all .csv or all .jsonl");
    }
    let mut header: Option<String> = None;
    let mut rows: Vec<(u64, String)> = Vec::new();
    // The experiment of the first row read (its identity, or none in a file written before
    // rows carried it) and the file it is in: every other row must be of the same.
    let mut experiment: Option<(Option<Identity>, &PathBuf)> = None;
    for f in &a.files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        // Every row netwrap writes ends with a newline: a last one without was cut short by a
        // killed run, and its last value may be a prefix of the real one.
        if !text.is_empty() && !text.ends_with('\n') {
            bail!(
                "{}: its last row is cut short (a killed run?): finish that shard with `netwrap run … --shard i/N --resume`",
                f.display()
            );
        }
        let mut lines = text.lines();
        if csv {
            // `netwrap run` writes the header first, even for a shard without points.
            let Some(h) = lines.next().filter(|h| !h.is_empty()).map(str::to_string) else {
                bail!(
                    "{} is empty: a sweep's CSV starts with its header (not written by `netwrap run --csv`?)",
                    f.display()
                );
            };
            match &header {
                None => header = Some(h),
                Some(first) if *first != h => {
                    bail!(
                        "{} has other columns than {}: not shards of one experiment",
                        f.display(),
                        a.files[0].display()
                    )
                }
                Some(_) => {}
            }
        }
        // A replicated sweep's combined rows are computed again from all the runs.
        for line in lines.filter(|l| !(l.is_empty() || csv && table::is_combined(l))) {
            let point = if csv {
                line.split(',').next().and_then(|p| p.parse().ok())
            } else {
                serde_json::from_str::<Value>(line).ok().and_then(|v| v.get("point")?.as_u64())
            };
            let point =
                point.with_context(|| format!("{}: a line without a point index: {line:?}", f.display()))?;
            let identity = if csv { csv_identity(header.as_deref(), line) } else { json_identity(line) };
            match &experiment {
                None => experiment = Some((identity, f)),
                Some((first, first_file)) if *first != identity => bail!(
                    "{} holds rows of {}, and {} of {}: not shards of one experiment",
                    first_file.display(),
                    describe(first),
                    f.display(),
                    describe(&identity)
                ),
                Some(_) => {}
            }
            rows.push((point, line.to_string()));
        }
    }
    rows.sort_by_key(|r| r.0);
    if let Some(w) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
        bail!("point {} appears twice: the files overlap (shards of one run never do)", w[0].0);
    }
    // The points the rows say their experiment has (unknown in older files).
    let total = experiment.and_then(|(i, _)| i).map(|i| i.points);
    if let (Some(n), Some((last, _))) = (total, rows.last())
        && *last >= n
    {
        bail!("point {last} is out of range: the rows' experiment has {n} points");
    }
    let first = rows.first().map_or(0, |r| r.0);
    let end = total.unwrap_or_else(|| rows.last().map_or(0, |r| r.0.saturating_add(1)));
    let last = rows.last().map_or(0, |r| r.0.saturating_add(1));
    let missing: Vec<u64> = (0..first)
        .chain(rows.windows(2).flat_map(|w| w[0].0 + 1..w[1].0))
        .chain(last.max(first)..end)
        .take(11)
        .collect();
    if let Some(first_missing) = missing.first() {
        bail!(
            "point {first_missing} is missing{}{}: a shard's file is absent or incomplete (resume it with `netwrap run … --shard i/N --resume`)",
            if missing.len() > 1 { format!(" (and {} more)", missing.len() - 1) } else { String::new() },
            total.map(|n| format!(", of the experiment's {n} points")).unwrap_or_default()
        );
    }
    // A replicated sweep (a run of replication 1 or more) ends with its points combined, as
    // one unsharded run writes it.
    let replicated = rows.iter().any(|(_, l)| l.split(',').nth(1).is_some_and(|r| r != "0"));
    let combined = match &header {
        Some(h) if replicated => {
            table::combined_lines(h, &rows.iter().map(|r| r.1.as_str()).collect::<Vec<_>>())?
        }
        _ => Vec::new(),
    };
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        if let Some(h) = &header {
            writeln!(out, "{h}")?;
        }
        for (_, l) in &rows {
            writeln!(out, "{l}")?;
        }
        for l in &combined {
            write!(out, "{l}")?;
        }
        out.flush()
    };
    match &a.out {
        Some(path) => {
            let what = path.display().to_string();
            let f = output::lock_output(path, &what, true)?;
            write(&mut std::io::BufWriter::new(f)).map_err(|e| write_failed(what, e))?;
        }
        None => {
            let mut out = output::stdout();
            write(&mut out)?;
            out.finish()?;
        }
    }
    Ok(())
}

/// A CSV row's experiment: its last two cells, under a header ending with `experiment` and
/// `points` (neither holds a comma); none in a file written before rows carried it.
fn csv_identity(header: Option<&str>, line: &str) -> Option<Identity> {
    header?.strip_suffix(",experiment,points")?;
    let mut cells = line.rsplitn(3, ',');
    let points = cells.next()?.parse().ok()?;
    Some(Identity { experiment: cells.next()?.to_string(), points })
}

/// A JSON line's experiment: its `experiment` and `points` fields.
fn json_identity(line: &str) -> Option<Identity> {
    Identity::deserialize(serde_json::from_str::<Value>(line).ok()?).ok()
}

/// An experiment as merge's messages name it.
fn describe(identity: &Option<Identity>) -> String {
    match identity {
        Some(i) => format!("experiment {} ({} points)", i.experiment, i.points),
        None => "no recorded experiment (written by an older netwrap)".into(),
    }
}
