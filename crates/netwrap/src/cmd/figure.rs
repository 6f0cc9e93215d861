//! `netwrap figure`: Agarwal 1991's model figures 6–16 as tidy CSV and SVG plots.

use crate::chart::{self, Chart, Series, Style};
use crate::output::{self, write_failed};
use anyhow::bail;
use clap::Args;
use netwrap_model::figures::{self, FIGURE_IDS, Figure};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which figure, and where to write it.
#[derive(Debug, Args)]
pub struct FigureArgs {
    /// Figure id (6, 7a, 7b, 8a, 8b, 9, 10a, 10b, 11a–11d, 12, 13, 14a, 14b, 15, 16), a
    /// figure number for all its panels (e.g. 11), or `all`.
    #[arg(allow_negative_numbers = true)]
    pub id: String,
    /// Output directory for the files figID.csv and figID.svg, e.g. fig7a.csv (created if missing).
    #[arg(long, default_value = "figures")]
    pub out: PathBuf,
}

/// The figure ids `id` names.
fn select(id: &str) -> anyhow::Result<Vec<&'static str>> {
    if id == "all" {
        return Ok(FIGURE_IDS.to_vec());
    }
    let ids: Vec<&'static str> = FIGURE_IDS
        .iter()
        .copied()
        .filter(|f| *f == id || (f.trim_end_matches(char::is_alphabetic) == id && f.len() > id.len()))
        .collect();
    if ids.is_empty() {
        bail!("no figure {id:?}: Agarwal 1991's model figures are {} (or `all`)", FIGURE_IDS.join(", "));
    }
    Ok(ids)
}

pub fn run(a: FigureArgs) -> anyhow::Result<()> {
    let ids = select(&a.id)?;
    output::out_dir(&a.out, "the CSV and SVG files")?;
    let mut out = output::stdout();
    for id in ids {
        let fig = figures::figure(id)?;
        let csv_path = a.out.join(format!("fig{id}.csv"));
        write_csv(&fig, &csv_path)?;
        let svg_path = a.out.join(format!("fig{id}.svg"));
        write_svg(&fig, &svg_path)?;
        writeln!(out, "{}\n{}", csv_path.display(), svg_path.display())?;
    }
    out.finish()?;
    Ok(())
}

/// One row per point: figure, key parameter, x, y. A failure names the file (status 1).
pub fn write_csv(fig: &Figure, path: &Path) -> anyhow::Result<()> {
    let failed = |e: std::io::Error| write_failed(path.display().to_string(), e);
    let file = std::fs::File::create(path).map_err(failed)?;
    let mut w = csv::Writer::from_writer(file);
    let io = |e: csv::Error| failed(e.into());
    w.write_record(["figure", fig.key_name, fig.x_name, fig.y_name]).map_err(io)?;
    for s in &fig.series {
        for &(x, y) in &s.points {
            w.write_record([fig.id, s.key.as_str(), &x.to_string(), &y.to_string()]).map_err(io)?;
        }
    }
    w.flush().map_err(failed)?;
    Ok(())
}

/// The plot: log-y for base-latency figures as in the paper; the y range of rate sweeps is
/// capped at six times the lowest unloaded latency so the knees stay visible.
pub fn write_svg(fig: &Figure, path: &Path) -> anyhow::Result<()> {
    chart::write(&figure_chart(fig), path)
}

/// A model figure's column as an axis label with its unit.
fn axis_label(name: &str) -> String {
    match name {
        "dimension" => "dimension n".into(),
        "rate" => "request rate m (messages/node/cycle)".into(),
        "latency" => "latency (units of T^w(2), the 2-D wire delay)".into(),
        "latency_cycles" => "latency (network cycles)".into(),
        other => other.into(),
    }
}

/// The chart of a model figure (see [`write_svg`]).
pub fn figure_chart(fig: &Figure) -> Chart {
    let floor = fig.series.iter().filter_map(|s| s.points.first().map(|p| p.1)).fold(f64::MAX, f64::min);
    Chart {
        title: format!("Figure {}", fig.id),
        x_label: axis_label(fig.x_name),
        y_label: axis_label(fig.y_name),
        log_x: false,
        log_y: fig.log_y,
        x_from_zero: !fig.log_y,
        y_cap: (!fig.log_y).then_some(6.0 * floor),
        series: fig
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| Series {
                label: format!("{} = {}", fig.key_name, s.key),
                color: i,
                style: Style::Line,
                points: s.points.iter().map(|&(x, y)| (x, y, None)).collect(),
                saturated: Vec::new(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_panels_by_number() {
        assert_eq!(select("11").unwrap(), vec!["11a", "11b", "11c", "11d"]);
        assert_eq!(select("6").unwrap(), vec!["6"]);
        assert!(select("1").unwrap_err().to_string().contains("no figure"));
        assert_eq!(select("all").unwrap().len(), FIGURE_IDS.len());
    }
}
