//! `netwrap figure`: Agarwal 1991's model figures 6–16 as tidy CSV and SVG plots.

use crate::output::{self, write_failed};
use anyhow::bail;
use clap::Args;
use netwrap_model::figures::{self, FIGURE_IDS, Figure};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
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
    if a.out.exists() && !a.out.is_dir() {
        bail!(
            "--out {} is not a directory: --out takes the directory the CSV and SVG files are written to (created if missing)",
            a.out.display()
        );
    }
    std::fs::create_dir_all(&a.out)
        .map_err(|e| write_failed(format!("the directory {} (--out)", a.out.display()), e))?;
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
/// capped at six times the lowest unloaded latency so the knees stay visible. Drawn in
/// memory, then written, so a failed write names the file (status 1).
pub fn write_svg(fig: &Figure, path: &Path) -> anyhow::Result<()> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let xs = fig.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        let ys = || fig.series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
        let (y0, mut y1) = ys().fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
        if !fig.log_y {
            let floor =
                fig.series.iter().filter_map(|s| s.points.first().map(|p| p.1)).fold(f64::MAX, f64::min);
            y1 = y1.min(6.0 * floor);
        }
        let x0 = if fig.log_y { x0 } else { 0.0 };
        if fig.log_y {
            draw(fig, &root, x0..x1, (y0 * 0.8..y1 * 1.25).log_scale(), y1)?;
        } else {
            draw(fig, &root, x0..x1, 0.0..y1 * 1.05, y1)?;
        }
        root.present()?;
    }
    std::fs::write(path, svg).map_err(|e| write_failed(path.display().to_string(), e))?;
    Ok(())
}

fn draw<Y>(
    fig: &Figure,
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    x: std::ops::Range<f64>,
    y: Y,
    y_cap: f64,
) -> anyhow::Result<()>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(root)
        .caption(format!("Figure {}", fig.id), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x, y)?;
    chart.configure_mesh().x_desc(fig.x_name).y_desc(fig.y_name).draw()?;
    for (i, s) in fig.series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(f64, f64)> = s.points.iter().copied().filter(|p| p.1 <= y_cap * 1.0001).collect();
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))?
            .label(format!("{} = {}", fig.key_name, s.key))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    Ok(())
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
