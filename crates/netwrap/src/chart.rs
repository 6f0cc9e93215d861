//! Charts: the one place netwrap draws. `plot`, `run --plot` and the pages of `reproduce` (and
//! its alias `figure`) describe what to draw as a [`Chart`] and call [`write()`], which renders
//! SVG or PNG through plotters;
//! `plot --heatmap` draws a [`crate::heatmap`] through the same [`render`]. Text
//! is set in the bundled DejaVu Sans, so a PNG needs no system fonts or libraries.

use crate::output::write_failed;
use anyhow::{Context, bail};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use std::path::Path;

/// DejaVu Sans (Bitstream Vera licence: `assets/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// (x, y, 95% confidence half-width).
pub type Point = (f64, f64, Option<f64>);

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A solid line (a model's figure).
    Line,
    /// Markers joined by a solid line, with confidence-interval bars (a simulation).
    Points,
    /// A dashed line (a model drawn over a simulation).
    Dashed,
}

/// One curve.
#[derive(Clone, Debug)]
pub struct Series {
    /// Its legend entry.
    pub label: String,
    /// Colour index: a simulation and its model share one.
    pub color: usize,
    /// How it is drawn.
    pub style: Style,
    /// The points, in x order.
    pub points: Vec<Point>,
    /// x values at which the run was saturated: no latency to draw, marked at the top edge.
    pub saturated: Vec<f64>,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Caption.
    pub title: String,
    /// x axis label, with its unit.
    pub x_label: String,
    /// y axis label, with its unit.
    pub y_label: String,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// Start a linear x axis at 0 (rates and loads), not at the lowest x.
    pub x_from_zero: bool,
    /// Highest y shown, when the largest values would flatten the rest (a latency curve's
    /// last points near saturation); points above it are left out.
    pub y_cap: Option<f64>,
    /// The curves.
    pub series: Vec<Series>,
}

/// The formats netwrap writes, chosen by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// Portable network graphics.
    Png,
}

impl Format {
    /// The format a path's extension names.
    pub fn of(path: &Path) -> anyhow::Result<Format> {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => bail!("{}: a plot is written as .svg or .png (the extension chooses)", path.display()),
        }
    }
}

/// Size in pixels.
pub const SIZE: (u32, u32) = (800, 560);

/// The curves' colours, readable on white and told apart by readers with a colour-vision
/// deficiency: Okabe & Ito's palette without its yellow (too pale on white), then darker
/// shades.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 0, 0),       // black
    RGBColor(120, 120, 120), // grey
    RGBColor(0, 60, 110),    // dark blue
    RGBColor(140, 50, 0),    // dark vermillion
];

/// The colour of series colour index `i`.
pub fn colour_of(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Draws `chart` into `path` (its extension chooses the format). A failed write names the
/// file (status 1); an empty chart or a log axis over values that are not positive is an
/// error (status 2).
pub fn write(chart: &Chart, path: &Path) -> anyhow::Result<()> {
    write_sized(chart, path, SIZE)
}

/// [`write()`] at `size` pixels (width, height): a chart for print or a slide.
pub fn write_sized(chart: &Chart, path: &Path, size: (u32, u32)) -> anyhow::Result<()> {
    let format = Format::of(path)?;
    let mut bounds = Bounds::of(chart)?;
    make_room(chart, &mut bounds);
    render(&Plotted(chart, bounds, size), format, path)
}

/// Something drawn on a white canvas of its own size: a chart, or a heat map
/// ([`crate::heatmap`]). One trait so both go through one SVG and PNG path.
pub trait Picture {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws onto `root`, which is already white.
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static;
}

/// A chart with its axes' ranges worked out.
struct Plotted<'a>(&'a Chart, Bounds, (u32, u32));

impl Picture for Plotted<'_> {
    fn size(&self) -> (u32, u32) {
        self.2
    }
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        draw(root, self.0, &self.1)
    }
}

/// Renders `picture` as `format` into `path`; a failed write names the file (status 1).
pub fn render(picture: &impl Picture, format: Format, path: &Path) -> anyhow::Result<()> {
    register_font();
    let size = picture.size();
    match format {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                root.fill(&WHITE).map_err(plot_error)?;
                picture.draw_on(&root)?;
                root.present().map_err(plot_error)?;
            }
            std::fs::write(path, svg).map_err(|e| write_failed(path.display().to_string(), e))?;
        }
        Format::Png => {
            let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
                root.fill(&WHITE).map_err(plot_error)?;
                picture.draw_on(&root)?;
                root.present().map_err(plot_error)?;
            }
            let image =
                image::RgbImage::from_raw(size.0, size.1, rgb).context("a PNG buffer of the wrong size")?;
            let mut bytes = Vec::new();
            image
                .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
                .context("encoding the PNG")?;
            std::fs::write(path, bytes).map_err(|e| write_failed(path.display().to_string(), e))?;
        }
    }
    Ok(())
}

fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // The bundled font parses; were it not to, text would be missing, not the chart.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// The most decades a logarithmic axis spans.
const MAX_DECADES: f64 = 100.0;

/// The axes' ranges.
struct Bounds {
    x: (f64, f64),
    y: (f64, f64),
}

impl Bounds {
    fn of(chart: &Chart) -> anyhow::Result<Bounds> {
        let shown = |p: &&Point| chart.y_cap.is_none_or(|cap| p.1 <= cap * 1.0001);
        let points: Vec<&Point> = chart.series.iter().flat_map(|s| s.points.iter()).filter(shown).collect();
        let saturated = chart.series.iter().flat_map(|s| s.saturated.iter().copied());
        let xs = points.iter().map(|p| p.0).chain(saturated);
        let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
        if !x0.is_finite() {
            bail!("nothing to plot: no point has both an x and a y value");
        }
        let lo = |p: &&&Point| p.1 - p.2.unwrap_or(0.0);
        let hi = |p: &&&Point| p.1 + p.2.unwrap_or(0.0);
        let y0 = points.iter().map(|p| lo(&p)).fold(f64::INFINITY, f64::min);
        let y1 = points.iter().map(|p| hi(&p)).fold(f64::NEG_INFINITY, f64::max);
        let (y0, y1) = if y0.is_finite() { (y0, y1) } else { (0.0, 1.0) };
        for (log, name, low) in [
            (chart.log_x, "x", x0),
            (chart.log_y, "y", points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min)),
        ] {
            if log && low <= 0.0 {
                bail!("a logarithmic {name} axis needs positive values; the lowest is {low}");
            }
        }
        let pad = |a: f64, b: f64| if b > a { (b - a) * 0.04 } else { a.abs().max(1.0) * 0.5 };
        let x = if chart.log_x {
            (x0 / 1.1, x1 * 1.1)
        } else if chart.x_from_zero && x0 >= 0.0 {
            (0.0, x1 + pad(0.0, x1))
        } else {
            (x0 - pad(x0, x1), x1 + pad(x0, x1))
        };
        let y = if chart.log_y {
            (
                points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min).min(y0.max(f64::MIN_POSITIVE)) * 0.8,
                y1 * 1.25,
            )
        } else {
            (
                (y0 - pad(y0, y1)).min(0.0).max(if y0 >= 0.0 { 0.0 } else { f64::NEG_INFINITY }),
                y1 + pad(y0, y1),
            )
        };
        // Values near ±1e308 overflow an axis's span (the tick computation then never ends),
        // and a logarithmic axis over more than a hundred decades has no readable ticks.
        let values = points.iter().map(|p| p.1);
        let data_y =
            values.clone().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        for (name, (a, b), (lo, hi), log) in [("x", x, (x0, x1), chart.log_x), ("y", y, data_y, chart.log_y)]
        {
            if !(a.is_finite() && b.is_finite() && (b - a).is_finite()) {
                bail!(
                    "the {name} values run from {lo:e} to {hi:e}, a range no axis can span: leave out the rows with such values"
                );
            }
            let decades = b.log10() - a.log10();
            if log && decades > MAX_DECADES {
                bail!(
                    "a logarithmic {name} axis from {lo:e} to {hi:e} spans {decades:.0} decades, more than the {MAX_DECADES} an axis draws readably: leave out the extreme rows"
                );
            }
        }
        Ok(Bounds { x, y })
    }
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart, b: &Bounds) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let (x, y) = (b.x.0..b.x.1, b.y.0..b.y.1);
    match (chart.log_x, chart.log_y) {
        (false, false) => draw_in(root, chart, b, x, y)?,
        (true, false) => draw_in(root, chart, b, x.log_scale(), y)?,
        (false, true) => draw_in(root, chart, b, x, y.log_scale())?,
        (true, true) => draw_in(root, chart, b, x.log_scale(), y.log_scale())?,
    }
    Ok(())
}

/// The corner of the plot whose legend box would cover the fewest points and line
/// segments (upper left on a tie), so the legend hides as little of the data as it can; with
/// how many it covers and the legend's height as a fraction of the plot.
fn legend_corner(chart: &Chart, b: &Bounds) -> (SeriesLabelPosition, usize, f64) {
    let scale = |v: f64, (lo, hi): (f64, f64), log: bool| {
        if log { (v.ln() - lo.ln()) / (hi.ln() - lo.ln()) } else { (v - lo) / (hi - lo) }
    };
    let shown = |p: &&Point| chart.y_cap.is_none_or(|cap| p.1 <= cap * 1.0001);
    // Points, and points along each segment, in [0, 1]² with y up.
    let mut marks: Vec<(f64, f64)> = Vec::new();
    for s in &chart.series {
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(shown)
            .map(|p| (scale(p.0, b.x, chart.log_x), scale(p.1, b.y, chart.log_y)))
            .collect();
        for w in pts.windows(2) {
            for i in 0..8 {
                let t = i as f64 / 8.0;
                marks.push((w[0].0 + t * (w[1].0 - w[0].0), w[0].1 + t * (w[1].1 - w[0].1)));
            }
        }
        marks.extend(pts.last());
        marks.extend(s.saturated.iter().map(|&x| (scale(x, b.x, chart.log_x), 1.0)));
    }
    // The legend's size as a fraction of the plot: about 7 pixels a character plus the key,
    // 18 pixels an entry, on a plot area of about 690 × 440 pixels.
    let entries = chart.series.iter().filter(|s| s.style != Style::Dashed).count()
        + usize::from(chart.series.iter().any(|s| s.style == Style::Dashed))
        + usize::from(chart.series.iter().any(|s| !s.saturated.is_empty()));
    let longest = chart.series.iter().map(|s| s.label.chars().count()).max().unwrap_or(0).max(20);
    let (w, h) =
        (((longest * 7 + 50) as f64 / 690.0).min(1.0), ((entries * 18 + 12) as f64 / 440.0).min(1.0));
    let corners = [
        (SeriesLabelPosition::UpperLeft, (0.0, 1.0 - h)),
        (SeriesLabelPosition::UpperRight, (1.0 - w, 1.0 - h)),
        (SeriesLabelPosition::LowerRight, (1.0 - w, 0.0)),
        (SeriesLabelPosition::LowerLeft, (0.0, 0.0)),
    ];
    let covered = |(x0, y0): (f64, f64)| {
        marks
            .iter()
            .filter(|&&(x, y)| x >= x0 - 0.02 && x <= x0 + w + 0.02 && y >= y0 - 0.02 && y <= y0 + h + 0.02)
            .count()
    };
    let mut best = (SeriesLabelPosition::UpperLeft, usize::MAX, h);
    for (corner, origin) in corners {
        let n = covered(origin);
        if n < best.1 {
            best = (corner, n, h);
        }
    }
    best
}

/// Raises the top of the y axis, when every corner's legend would hide data, so that the data
/// lie below an upper-left legend.
fn make_room(chart: &Chart, b: &mut Bounds) {
    let (_, covered, h) = legend_corner(chart, b);
    if covered == 0 || h >= 0.6 || chart.y_cap.is_some() {
        return;
    }
    let grow = 1.0 / (1.0 - h - 0.02);
    b.y.1 = if chart.log_y { b.y.0 * (b.y.1 / b.y.0).powf(grow) } else { b.y.0 + (b.y.1 - b.y.0) * grow };
}

/// A tick label: at most five significant digits, no trailing zeros (`35000`, `0.015`, `1e-6`).
/// A tick label on a logarithmic axis: only at 1, 2 and 5 times a power of ten, so the
/// crowded marks near each decade's end stay unlabelled instead of running together.
fn log_tick(v: &f64) -> String {
    let mantissa = v.abs() / 10f64.powf(v.abs().log10().floor());
    if [1.0, 2.0, 5.0].iter().any(|m| (mantissa - m).abs() < 1e-6) { tick(v) } else { String::new() }
}

/// An axis tick's label: zero as `0`, very small or large values in scientific notation,
/// otherwise about five significant digits with trailing zeros trimmed.
pub fn tick(v: &f64) -> String {
    let a = v.abs();
    if *v == 0.0 {
        "0".into()
    } else if !(1e-4..1e6).contains(&a) {
        format!("{v:.1e}")
    } else {
        let digits = (4 - a.log10().floor() as i32).clamp(0, 8) as usize;
        let s = format!("{v:.digits$}");
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
    }
}

/// A drawing backend's error as an `anyhow` error, for `?` in the chart code.
pub fn plot_error<E: std::error::Error + Send + Sync + 'static>(e: DrawingAreaErrorKind<E>) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {e}")
}

fn draw_in<DB, X, Y>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    b: &Bounds,
    x: X,
    y: Y,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut c = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", 20))
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(78)
        .build_cartesian_2d(x, y)
        .map_err(plot_error)?;
    c.configure_mesh()
        .x_label_formatter(&|v| if chart.log_x { log_tick(v) } else { tick(v) })
        .y_label_formatter(&|v| if chart.log_y { log_tick(v) } else { tick(v) })
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .label_style(("sans-serif", 13))
        .light_line_style(BLACK.mix(0.04))
        .bold_line_style(BLACK.mix(0.15))
        .axis_desc_style(("sans-serif", 15))
        .draw()
        .map_err(plot_error)?;
    let y_top = c.y_range().end;
    let shown = |p: &Point| chart.y_cap.is_none_or(|cap| p.1 <= cap * 1.0001);
    // Each curve's saturation marks a row of their own below the top edge, so that marks at
    // one x stay apart.
    let mut mark_row = 0;
    for s in &chart.series {
        let color = colour_of(s.color).to_rgba();
        let line: Vec<(f64, f64)> = s.points.iter().filter(|p| shown(p)).map(|p| (p.0, p.1)).collect();
        let legend =
            move |(x, y): (i32, i32)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2));
        match s.style {
            Style::Line => {
                c.draw_series(LineSeries::new(line, color.stroke_width(2)))
                    .map_err(plot_error)?
                    .label(&s.label)
                    .legend(legend);
            }
            Style::Dashed => {
                // One legend entry says what dashes mean; the colour names the curve.
                c.draw_series(DashedLineSeries::new(line, 8, 5, color.stroke_width(2)))
                    .map_err(plot_error)?;
            }
            Style::Points => {
                c.draw_series(LineSeries::new(line.clone(), color.stroke_width(1))).map_err(plot_error)?;
                let bars = s.points.iter().filter(|p| shown(p)).filter_map(|&(x, y, ci)| {
                    ci.map(|h| ErrorBar::new_vertical(x, y - h, y, y + h, color.stroke_width(1), 8))
                });
                c.draw_series(bars).map_err(plot_error)?;
                c.draw_series(line.iter().map(|&p| Circle::new(p, 4, color.filled())))
                    .map_err(plot_error)?
                    .label(&s.label)
                    .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
            }
        }
        if !s.saturated.is_empty() {
            let dy = 8 + 15 * mark_row;
            mark_row += 1;
            let marks = s
                .saturated
                .iter()
                .map(|&x| EmptyElement::at((x, y_top)) + Cross::new((0, dy), 6, color.stroke_width(2)));
            c.draw_series(marks).map_err(plot_error)?;
        }
    }
    let grey = BLACK.mix(0.7);
    if chart.series.iter().any(|s| s.style == Style::Dashed) {
        let dashes = DashedLineSeries::new(std::iter::empty::<(f64, f64)>(), 8, 5, grey.stroke_width(2));
        c.draw_series(dashes)
            .map_err(plot_error)?
            .label("dashed: the model")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 8, y)], grey.stroke_width(2)));
    }
    if chart.series.iter().any(|s| !s.saturated.is_empty()) {
        let none = std::iter::empty::<Cross<(f64, f64), i32>>();
        c.draw_series(none)
            .map_err(plot_error)?
            .label("saturated (top edge)")
            .legend(move |(x, y)| Cross::new((x + 10, y), 5, grey.stroke_width(2)));
    }
    c.configure_series_labels()
        .label_font(("sans-serif", 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(legend_corner(chart, b).0)
        .draw()
        .map_err(plot_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(points: Vec<Point>, log_y: bool) -> Chart {
        Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            log_x: false,
            log_y,
            x_from_zero: false,
            y_cap: None,
            series: vec![Series {
                label: "a".into(),
                color: 0,
                style: Style::Line,
                points,
                saturated: Vec::new(),
            }],
        }
    }

    /// Verification: a curve falling from the top left leaves the upper right empty, and the
    /// legend goes there.
    #[test]
    fn the_legend_avoids_the_data() {
        let c = chart((0..=20).map(|i| (i as f64, 20.0 - i as f64, None)).collect(), false);
        let b = Bounds::of(&c).unwrap();
        let (corner, covered, _) = legend_corner(&c, &b);
        assert!(matches!(corner, SeriesLabelPosition::UpperRight), "{corner:?}");
        assert_eq!(covered, 0);
    }

    /// Verification: when the data cross every corner, the y axis grows until the upper left
    /// is free (linear and logarithmic axes).
    #[test]
    fn the_axis_makes_room_when_every_corner_is_taken() {
        for log in [false, true] {
            // A V and its mirror: every corner of the plot holds a point.
            let pts = [(0.0, 100.0), (5.0, 1.0), (10.0, 100.0), (0.0, 1.0), (5.0, 100.0), (10.0, 1.0)];
            let mut c = chart(pts.iter().map(|&(x, y)| (x, y, None)).collect(), log);
            c.series[0].style = Style::Points;
            c.series.push(Series { label: "b".into(), ..c.series[0].clone() });
            let mut b = Bounds::of(&c).unwrap();
            let top = b.y.1;
            assert!(legend_corner(&c, &b).1 > 0);
            make_room(&c, &mut b);
            assert!(b.y.1 > top, "log {log}");
            assert_eq!(legend_corner(&c, &b).1, 0, "log {log}");
        }
    }

    /// Verification: a logarithmic axis labels 1, 2 and 5 times powers of ten only.
    #[test]
    fn log_ticks_label_one_two_five() {
        assert_eq!(log_tick(&0.05), "0.05");
        assert_eq!(log_tick(&200.0), "200");
        assert_eq!(log_tick(&1e-6), "1.0e-6");
        assert_eq!(log_tick(&0.07), "");
        assert_eq!(log_tick(&9000.0), "");
    }
}
