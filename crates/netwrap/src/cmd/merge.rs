//! `netwrap merge`: joins the files of a sharded run into exactly what one unsharded run
//! writes.

use crate::output::{self, write_failed};
use crate::runner::{Combiner, Rows, SORT_BATCH, Sorter, point_of, scratch};
use crate::table;
use anyhow::{Context, bail};
use clap::Args;
use netwrap_app::sweep::Identity;
use serde::Deserialize;
use serde_json::Value;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

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
///
/// Memory stays bounded whatever the number of rows: the files are read a line at a time, once
/// to check them and once to join them; a file in point order (a finished shard's) is merged as
/// it is read, and one out of order (a killed shard's) sorted by the runner's own
/// external sort; the joined rows wait in an unnamed temporary file (beside `--out`, or in the
/// system's temporary directory) until every check has passed, so a refused merge writes
/// nothing; a replicated sweep's combined rows are computed a point at a time, by the
/// combiner an unsharded run uses (`runner::Combiner`).
pub fn run(a: MergeArgs) -> anyhow::Result<()> {
    let csv = a.files.iter().all(|f| f.extension().is_some_and(|e| e == "csv"));
    let jsonl = a.files.iter().all(|f| f.extension().is_some_and(|e| e == "jsonl"));
    if !csv && !jsonl {
        bail!("merge joins files of one kind: all .csv or all .jsonl");
    }
    let mut header: Option<String> = None;
    // The experiment of the first row read (its identity, or none in a file written before
    // rows carried it) and the file it is in: every other row must be of the same.
    let mut experiment: Option<(Option<Identity>, &PathBuf)> = None;
    // Whether each file's rows are in point order, the largest point, and whether a row is
    // of a replication other than 0 (a replicated sweep's).
    let mut in_order = Vec::new();
    let (mut largest, mut replicated) = (None, false);
    for f in &a.files {
        let (first, rows) = open(f, csv)?;
        if csv {
            // `netwrap run` writes the header first, even for a shard without points.
            let Some(h) = first else {
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
        let mut previous = None;
        let mut ordered = true;
        for row in rows {
            let (point, line) = row?;
            let identity = if csv { csv_identity(header.as_deref(), &line) } else { json_identity(&line) };
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
            ordered &= previous.is_none_or(|p| p <= point);
            previous = Some(point);
            largest = largest.max(Some(point));
            replicated |= line.split(',').nth(1).is_some_and(|r| r != "0");
        }
        in_order.push(ordered);
    }
    // The points the rows say their experiment has (unknown in older files).
    let total = experiment.and_then(|(i, _)| i).map(|i| i.points);
    let out_of_range = largest.filter(|last| total.is_some_and(|n| *last >= n));
    // Temporary files go beside the output (where its rows will be), else to the system's
    // temporary directory.
    let dir = a.out.as_deref().map(|p| match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    });
    let what = match (&a.out, dir) {
        (Some(path), _) => path.display().to_string(),
        _ => format!("a temporary file in {}", std::env::temp_dir().display()),
    };
    let failed = |e| write_failed(what.clone(), e);
    let mut sorter = Sorter::new(dir, SORT_BATCH);
    for (f, ordered) in a.files.iter().zip(in_order) {
        let (_, rows) = open(f, csv)?;
        if ordered {
            sorter.push_sorted(Box::new(rows));
        } else {
            for row in rows {
                let (point, line) = row?;
                sorter.push(point, line).map_err(failed)?;
            }
        }
    }
    // A replicated sweep (a run of replication 1 or more) ends with its points combined, as
    // one unsharded run writes it.
    let mut combiner = match &header {
        Some(h) if replicated => Some(Combiner::new(h, dir).map_err(failed)?),
        _ => None,
    };
    let mut combine_failed: Option<anyhow::Error> = None;
    let mut joined = BufWriter::new(scratch(dir).map_err(failed)?);
    // The point after the last row's, and the first missing points (11 at most: the message
    // counts up to 10 more).
    let (mut next, mut previous) = (0u64, None);
    let mut missing: Vec<u64> = Vec::new();
    for row in sorter.finish() {
        let (point, line) = row?;
        if previous == Some(point) {
            bail!("point {point} appears twice: the files overlap (shards of one run never do)");
        }
        previous = Some(point);
        // A point out of range is reported once no point is found twice.
        if out_of_range.is_some() {
            continue;
        }
        missing.extend((next..point).take(11 - missing.len()));
        next = point.saturating_add(1);
        writeln!(joined, "{line}").map_err(failed)?;
        if let (Some(c), None) = (&mut combiner, &combine_failed)
            && let Err(e) = c.push(point, &line)
        {
            combine_failed = Some(e);
        }
    }
    if let (Some(n), Some(last)) = (total, out_of_range) {
        bail!("point {last} is out of range: the rows' experiment has {n} points");
    }
    let end = total.unwrap_or(next);
    missing.extend((next..end).take(11 - missing.len()));
    if let Some(first_missing) = missing.first() {
        bail!(
            "point {first_missing} is missing{}{}: a shard's file is absent or incomplete (resume it with `netwrap run … --shard i/N --resume`)",
            if missing.len() > 1 { format!(" (and {} more)", missing.len() - 1) } else { String::new() },
            total.map(|n| format!(", of the experiment's {n} points")).unwrap_or_default()
        );
    }
    if let Some(e) = combine_failed {
        return Err(e);
    }
    let mut combined = combiner.map(Combiner::finish).transpose()?;
    let mut joined = joined.into_inner().map_err(std::io::IntoInnerError::into_error).map_err(failed)?;
    joined.seek(SeekFrom::Start(0)).map_err(failed)?;
    let mut write = |out: &mut dyn Write| -> std::io::Result<()> {
        if let Some(h) = &header {
            writeln!(out, "{h}")?;
        }
        std::io::copy(&mut joined, out)?;
        if let Some(c) = &mut combined {
            std::io::copy(c, out)?;
        }
        out.flush()
    };
    match &a.out {
        Some(path) => {
            let what = path.display().to_string();
            let f = output::lock_output(path, &what, true)?;
            write(&mut BufWriter::new(f)).map_err(|e| write_failed(what, e))?;
        }
        None => {
            let mut out = output::stdout();
            write(&mut out)?;
            out.finish()?;
        }
    }
    Ok(())
}

/// Opens a shard's file: its first line when that is not empty (a CSV's header), and its rows
/// after it, each with its point, read a line at a time (blank lines and a replicated sweep's
/// combined rows, computed again from all the runs, are skipped). A file whose last row has no
/// newline is refused first: every row netwrap writes ends with one, so that row was cut short
/// by a killed run, and its last value may be a prefix of the real one.
fn open(f: &Path, csv: bool) -> anyhow::Result<(Option<String>, Rows)> {
    let cannot = {
        let f = f.to_path_buf();
        move || format!("cannot read {}", f.display())
    };
    let mut file = File::open(f).with_context(cannot.clone())?;
    if file.seek(SeekFrom::End(0)).with_context(cannot.clone())? > 0 {
        let mut last = [0u8];
        file.seek(SeekFrom::End(-1)).and_then(|_| file.read_exact(&mut last)).with_context(cannot.clone())?;
        if last[0] != b'\n' {
            bail!(
                "{}: its last row is cut short (a killed run?): finish that shard with `netwrap run … --shard i/N --resume`",
                f.display()
            );
        }
        file.seek(SeekFrom::Start(0)).with_context(cannot.clone())?;
    }
    let mut lines = BufReader::new(file).lines();
    let first = if csv {
        lines.next().transpose().with_context(cannot.clone())?.filter(|h| !h.is_empty())
    } else {
        None
    };
    let name = f.display().to_string();
    let rows = lines.filter_map(move |line| {
        let line = match line.with_context(cannot.clone()) {
            Ok(line) => line,
            Err(e) => return Some(Err(e)),
        };
        if line.is_empty() || csv && table::is_combined(&line) {
            return None;
        }
        Some(match point_of(&line, csv) {
            Some(point) => Ok((point, line)),
            None => Err(anyhow::anyhow!("{name}: a line without a point index: {line:?}")),
        })
    });
    Ok((first, Box::new(rows)))
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
