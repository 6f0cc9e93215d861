//! The command line as functions, for the Python package (`python/`): a command's arguments
//! in, what it prints on standard output out, or the message it prints after
//! `netwrap: error: `. Nothing here computes or formats a result: every call parses the
//! command line (or an experiment file) and runs the one runner exactly as the binary does,
//! with [`output::capture`] keeping what it prints, so that Python and the CLI cannot
//! disagree on a number, a column or an error message.
//!
//! A run whose verdict is saturated, a deadlock or a limit reached prints its result and exits
//! with status 3, 4 or 5; here that result is returned like any other (its `verdict` says so).

use crate::cli;
use crate::output::{self, status};
use crate::runner::{self, RunOptions, Shard};
pub use netwrap_app::Sweep;
use serde_json::{Map, Value};
use std::path::PathBuf;

/// How an experiment's text is written: the two formats `netwrap run FILE` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// TOML, as `*.toml` experiment files.
    Toml,
    /// JSON, as `*.json` experiment files (or a result's JSON, re-run from its `config`).
    Json,
}

/// An error's message as `main` prints it (after `netwrap: error: `), or `None` for a verdict
/// that printed its result first (saturated, deadlock, limit reached).
fn failure(e: &anyhow::Error) -> Option<String> {
    match output::exit_status(e).0 {
        status::SATURATED | status::DEADLOCK | status::LIMIT_REACHED => None,
        _ => Some(format!("{e:#}")),
    }
}

/// Clap's message for a command line it refused, without its `error: ` and usage lines.
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let text = text.trim_start().strip_prefix("error: ").unwrap_or(&text);
    let end = ["\n\nUsage:", "\n\nFor more information"].iter().filter_map(|m| text.find(m)).min();
    text[..end.unwrap_or(text.len())].trim_end().to_string()
}

/// Runs `f`, returning what it printed on standard output, or its error's message.
fn printed(f: impl FnOnce() -> anyhow::Result<()>) -> Result<String, String> {
    let (result, text) = output::capture(f);
    if let Err(e) = result
        && let Some(message) = failure(&e)
    {
        return Err(message);
    }
    String::from_utf8(text).map_err(|e| format!("output is not UTF-8: {e}"))
}

/// Runs the command line `netwrap ARGS…` (subcommand form, `args` without the program name)
/// and returns what it prints on standard output; invalid input is the message the CLI
/// prints. Help (`--help`) comes back as an error carrying the help text.
pub fn command(args: &[String]) -> Result<String, String> {
    let argv = std::iter::once("netwrap".to_string()).chain(args.iter().cloned()).map(Into::into).collect();
    let parsed = cli::parse(argv).map_err(|e| format!("{e:#}"))?;
    let cli = parsed.map_err(|e| clap_message(&e))?;
    printed(|| cli::execute(cli))
}

/// The experiment of `spec` (an experiment file's text) with `axes` (dotted path → list of
/// values, or `replications`, or `zip`) added to its `[sweep]` table, replacing any axis of
/// the same path: read by the same code as `netwrap run FILE`.
pub fn experiment(spec: &str, format: Format, axes: &Map<String, Value>) -> Result<Sweep, String> {
    let text = |e: netwrap_app::Error| e.to_string();
    match format {
        Format::Toml => {
            // The text alone first: its errors name the lines of the text as given.
            let sweep = Sweep::from_toml(spec).map_err(text)?;
            if axes.is_empty() {
                return Ok(sweep);
            }
            let mut table: toml::Table = toml::from_str(spec).map_err(|e| e.to_string())?;
            let entry = table.entry("sweep").or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let toml::Value::Table(sweep) = entry else {
                return Err("sweep: a table of axes, e.g. [sweep] \"workload.rate\" = [0.01, 0.02]".into());
            };
            for (path, values) in axes {
                let value = toml::Value::try_from(values).map_err(|e| format!("sweep axis {path}: {e}"))?;
                sweep.insert(path.clone(), value);
            }
            let merged = toml::to_string(&table).map_err(|e| e.to_string())?;
            Sweep::from_toml(&merged).map_err(text)
        }
        Format::Json => {
            let mut root: Value = serde_json::from_str(spec).map_err(|e| format!("not valid JSON: {e}"))?;
            if !axes.is_empty() {
                let Some(fields) = root.as_object_mut() else {
                    return Err("an experiment is a table of sections (topology, workload, …)".into());
                };
                let sweep = fields.entry("sweep").or_insert_with(|| Value::Object(Map::new()));
                let Some(sweep) = sweep.as_object_mut() else {
                    return Err("sweep: a table of axes, e.g. {\"workload.rate\": [0.01, 0.02]}".into());
                };
                sweep.extend(axes.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            Sweep::from_json(&root.to_string()).map_err(text)
        }
    }
}

/// The number of points of `sweep`, every point validated first (as `netwrap run` does
/// before running any).
pub fn points(sweep: &Sweep) -> Result<u64, String> {
    sweep.points().map(|p| p.len() as u64).map_err(|e| e.to_string())
}

/// What to print for [`run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Print {
    /// `--json`: the result (one point), or an array of points.
    Json,
    /// `--csv -`: the tidy CSV, a header and one row per point.
    Csv,
}

/// Runs `sweep` as `netwrap run FILE --json` (or `--csv -`) does, with no progress bar;
/// `shard` (index, count) runs only the points whose index is `index` modulo `count`, as
/// `--shard index/count` does. Returns what it prints.
pub fn run(sweep: &Sweep, print: Print, shard: Option<(u64, u64)>) -> Result<String, String> {
    let shard = match shard {
        Some((index, count)) if count == 0 || index >= count => {
            return Err(format!("--shard {index}/{count}: takes i/N with 0 <= i < N"));
        }
        Some((index, count)) => Some(Shard { index, count }),
        None => None,
    };
    let options = RunOptions {
        shard,
        json: print == Print::Json,
        csv: (print == Print::Csv).then(|| PathBuf::from("-")),
        quiet: true,
        ..RunOptions::default()
    };
    printed(|| runner::run(sweep, &options))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification against the command line's own output: the same command captured here
    /// prints what `netwrap model kary-ncube --json` prints (checked by the CLI tests), and
    /// invalid input is refused with the CLI's message naming the option.
    #[test]
    fn commands_print_and_refuse_as_the_cli() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let json: Value =
            serde_json::from_str(&command(&args("model kary-ncube --k 8 --n 2 --json")).unwrap()).unwrap();
        assert_eq!(json["model"], "kary-ncube");
        assert_eq!(json["config"]["k"], 8);
        let e = command(&args("model kary-ncube --rate 2 --json")).unwrap_err();
        assert!(e.starts_with("invalid value '2' for '--rate <RATE>'"), "{e}");
        let e = command(&args("model kary-ncube --n 0 --json")).unwrap_err();
        assert!(e.contains("--n"), "{e}");
        // A saturated prediction is a result, as printed before status 3.
        let json = command(&args("model kary-ncube --rate 0.5 --json")).unwrap();
        assert!(json.contains("\"saturated\": true"), "{json}");
    }

    /// Characterisation: axes join the file's own `[sweep]` table, in either format, and the
    /// points are the file's.
    #[test]
    fn axes_join_the_sweep_table() {
        let toml = "[topology]\nfamily = \"torus\"\nk = 4\n[sweep]\n\"workload.size\" = [2, 4]\n";
        let axes: Map<String, Value> =
            serde_json::from_str(r#"{"workload.rate": [0.01, 0.02, 0.03]}"#).unwrap();
        let s = experiment(toml, Format::Toml, &axes).unwrap();
        assert_eq!(s.parameters(), ["workload.size", "workload.rate"]);
        assert_eq!(points(&s), Ok(6));
        let json = r#"{"topology": {"family": "torus", "k": 4}}"#;
        let s = experiment(json, Format::Json, &axes).unwrap();
        assert_eq!(s.parameters(), ["workload.rate"]);
        let e = experiment("[workload]\nrat = 0.1\n", Format::Toml, &Map::new()).unwrap_err();
        assert!(e.contains("did you mean `rate`"), "{e}");
        let bad: Map<String, Value> = serde_json::from_str(r#"{"workload.rate": [0.1, 2.0]}"#).unwrap();
        let e = points(&experiment(json, Format::Json, &bad).unwrap()).unwrap_err();
        assert!(e.contains("sweep point 1") && e.contains("workload.rate"), "{e}");
    }

    /// Verification: a sweep's shards, each one point, hold exactly the rows of the whole
    /// run's CSV (the runner's `--shard`), whatever runs them.
    #[test]
    fn shards_of_one_point_rebuild_the_csv() {
        let toml = "[topology]\nfamily = \"torus\"\nk = 3\n[run]\nmessages = 200\nwarmup = 50\n[sweep]\n\"workload.rate\" = [0.01, 0.02]\n";
        let s = experiment(toml, Format::Toml, &Map::new()).unwrap();
        let whole = run(&s, Print::Csv, None).unwrap();
        let mut joined = String::new();
        for i in 0..2 {
            let part = run(&s, Print::Csv, Some((i, 2))).unwrap();
            let (header, row) = part.split_once('\n').unwrap();
            if i == 0 {
                joined.push_str(header);
                joined.push('\n');
            }
            joined.push_str(row);
        }
        assert_eq!(joined, whole);
        assert!(run(&s, Print::Csv, Some((2, 2))).is_err());
    }
}
