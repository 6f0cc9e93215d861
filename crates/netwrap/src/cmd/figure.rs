//! `netwrap figure`: Agarwal 1991's model figures 6–16, an alias of their pages of `netwrap
//! reproduce` (`agarwal-1991-fig-6` … `-16`): the same files (the figure's points as CSV, each
//! panel as SVG, the page with the paper's statements checked), written by the same code.

use crate::output;
use crate::pages::{self, Options};
use anyhow::bail;
use clap::Args;
use netwrap_app::reproduce;
use netwrap_model::figures::FIGURE_IDS;
use std::io::Write;
use std::path::PathBuf;

/// Which figure, and where to write it.
#[derive(Debug, Args)]
#[command(
    after_help = "The files are those of `netwrap reproduce agarwal-1991-fig-N` (of which this command is an alias): agarwal-1991-fig-N.csv, its panels' SVGs and the page agarwal-1991-fig-N.md. Exit status: 0 written, 6 a statement of the paper checked on the page fails, 2 invalid input, 1 output not written.\nSee docs/figures.md."
)]
pub struct FigureArgs {
    /// Figure number (6–16), one of its panels (7a, 7b, 8a, 8b, 10a, 10b, 11a–11d, 14a, 14b:
    /// the figure's page, every panel), or `all`.
    #[arg(allow_negative_numbers = true)]
    pub id: String,
    /// Output directory for the files agarwal-1991-fig-N.csv, .svg (one a panel: -a.svg, …)
    /// and .md (created if missing).
    #[arg(long, default_value = "figures")]
    pub out: PathBuf,
}

/// The figure numbers `id` names, in order.
fn select(id: &str) -> anyhow::Result<Vec<u32>> {
    let panels: Vec<&'static str> = if id == "all" {
        FIGURE_IDS.to_vec()
    } else {
        FIGURE_IDS
            .iter()
            .copied()
            .filter(|f| *f == id || (f.trim_end_matches(char::is_alphabetic) == id && f.len() > id.len()))
            .collect()
    };
    if panels.is_empty() {
        bail!("no figure {id:?}: Agarwal 1991's model figures are {} (or `all`)", FIGURE_IDS.join(", "));
    }
    let mut numbers: Vec<u32> = Vec::new();
    for p in panels {
        let n = p.trim_end_matches(char::is_alphabetic).parse()?;
        if !numbers.contains(&n) {
            numbers.push(n);
        }
    }
    Ok(numbers)
}

/// Runs `netwrap figure` with its parsed arguments.
pub fn run(a: FigureArgs) -> anyhow::Result<()> {
    let numbers = select(&a.id)?;
    output::out_dir(&a.out, "the CSV, SVG and Markdown files")?;
    // Model figures: nothing is simulated.
    let mut ctx = pages::context(false, true);
    let o =
        Options { out: a.out.clone(), replot: false, png: false, index: a.out.join("README.md").is_file() };
    let mut out = output::stdout();
    let mut failed = Vec::new();
    for n in numbers {
        for item in reproduce::select(&format!("agarwal-1991-fig-{n}"))? {
            let w = pages::write(&item, &mut ctx, &o)?;
            for f in &w.files {
                writeln!(out, "{}", f.display())?;
            }
            if w.tally.fail > 0 {
                failed.push(item.id);
            }
        }
    }
    out.finish()?;
    pages::verdict(&failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_figures_by_number_or_panel() {
        assert_eq!(select("11").unwrap(), vec![11]);
        assert_eq!(select("7a").unwrap(), vec![7]);
        assert_eq!(select("6").unwrap(), vec![6]);
        assert!(select("1").unwrap_err().to_string().contains("no figure"));
        assert_eq!(select("all").unwrap(), (6..=16).collect::<Vec<_>>());
    }
}
