//! `netwrap reproduce ID|all [--quick]`: every figure and table of the papers that netwrap can
//! compute, each written as CSV, pictures and a short page that sets our numbers beside what
//! the paper states, with each stated conclusion checked.
//!
//! The pages are computed by the facade ([`netwrap_app::reproduce`]: typed data, text, checks)
//! and written by [`crate::pages`] (CSV, pictures, Markdown); `--replot` reads each page's
//! CSV back and redraws its pictures and page without simulating.

use crate::output::{self, write_failed};
use crate::pages::{self, Options};
use anyhow::bail;
use clap::Args;
use netwrap_app::reproduce;
use std::io::Write;
use std::path::PathBuf;

/// Which figures, how thoroughly, and where to write them.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 every check passes (each of the paper's statements agrees with our numbers, or differs as its page documents), 6 a check fails (the summary and the page say which), 2 invalid input, 1 output not written.\nSee docs/reproduce.md."
)]
pub struct ReproduceArgs {
    /// A page id (e.g. agarwal-1991-fig-5), a prefix naming several (agarwal-1991,
    /// homework), or `all`; `netwrap reproduce list` prints the ids.
    pub id: String,
    /// Fewer messages per simulated point (a tenth, at least 10,000 of a longer run, 2,000 of a shorter) and every third load of the
    /// throughput sweeps: under two minutes instead of the full run's eight on two cores; each
    /// page's statements are checked all the same.
    #[arg(long)]
    pub quick: bool,
    /// Directory for the CSV, SVG and Markdown files (created if missing).
    #[arg(long, default_value = "reproduce")]
    pub out: PathBuf,
    /// Redraw the pictures and pages from the CSVs already in --out, without simulating.
    #[arg(long, conflicts_with = "quick")]
    pub replot: bool,
    /// Also write every picture as PNG beside its SVG.
    #[arg(long)]
    pub png: bool,
    /// Draw no progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `netwrap reproduce` with its parsed arguments.
pub fn run(a: ReproduceArgs) -> anyhow::Result<()> {
    let mut out = output::stdout();
    if a.id == "list" {
        for i in reproduce::items() {
            writeln!(out, "{:<34} {}", i.id, i.full_title())?;
        }
        out.finish()?;
        return Ok(());
    }
    let every = a.id == "all";
    let chosen = reproduce::select(&a.id)?;
    if a.replot && !a.out.is_dir() {
        bail!(
            "--replot redraws the pages from the CSVs of an earlier run in --out DIR, and {} is not a directory",
            a.out.display()
        );
    }
    output::out_dir(&a.out, "the pages")?;
    let mut ctx = pages::context(a.quick, a.quiet);
    let index = every || a.out.join("README.md").is_file();
    let o = Options { out: a.out.clone(), replot: a.replot, png: a.png, index };
    let mut done = Vec::new();
    for item in &chosen {
        let w = pages::write(item, &mut ctx, &o)?;
        writeln!(out, "{:<34} {}  ({:.1} s)", item.id, pages::tally_text(&w.tally), w.seconds)?;
        for c in &w.failed {
            writeln!(out, "    check failed: {} — ours: {}", c.paper, c.ours)?;
        }
        done.push(w);
    }
    if every {
        let index = a.out.join("README.md");
        std::fs::write(&index, pages::index(&done, a.quick))
            .map_err(|e| write_failed(index.display().to_string(), e))?;
        writeln!(out, "index: {}", index.display())?;
    }
    out.finish()?;
    let failed: Vec<&str> = done.iter().filter(|d| d.tally.fail > 0).map(|d| d.item.id).collect();
    pages::verdict(&failed)
}
