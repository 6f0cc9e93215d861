//! Heat maps: per-channel values (a `--channels` CSV: utilisation, buffer occupancy) drawn on
//! the network's own 2-D drawing, as Puente et al. 1999 Fig. 8 shows the buffers of a 16×16
//! torus and a 256-node Midimew.
//!
//! Layout rules (one grid cell per router, x to the right, y down):
//! - tori, meshes and rings of one or two dimensions: router `r` at column = its dimension-0
//!   coordinate, row = its dimension-1 coordinate (node numbers run dimension 0 fastest);
//! - circulant graphs and Midimews with Puente et al.'s rectangular layout (Fig. 1, N a multiple
//!   of a or b): the layout of [`netwrap_topo::Circulant::layout`];
//! - other circulants (the 256-node Midimew, C_256(11,12), is one): each router at its shortest
//!   offset from router 0 in steps of a (right) and b (down), found breadth-first, so the
//!   drawing is the Midimew's minimal-distance diamond.
//!
//! Each directed channel is one arrow leaving its router, drawn to the right of its direction
//! of travel so the two directions of a link sit side by side; a channel whose far end is not
//! the next cell (a wrap-around) is a stub that stops at the cell's edge, pointing the way it
//! leaves, as Fig. 1 draws wrap-around links.

use crate::chart::{Picture, plot_error, tick};
use anyhow::{Context, bail};
use netwrap_topo::{Network, RoutingSpec, Topology, TopologySpec};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Where each router sits and which way each channel leaves it.
pub struct Layout {
    /// Grid cell of each router (x right, y down).
    pub at: Vec<(i64, i64)>,
    /// Unit step of each channel, in channel order.
    pub step: Vec<(i64, i64)>,
    /// How to read the drawing, a short line each.
    pub notes: Vec<String>,
}

/// The families with a layout, for the error that names them.
pub const FAMILIES: &str = "tori and meshes of one or two dimensions, rings, and circulant graphs (Midimews)";

impl Layout {
    /// The layout of a built topology; other families have none (status 2, naming those that do).
    pub fn of(topo: &Topology) -> anyhow::Result<Layout> {
        match topo {
            Topology::Table(_, inner) | Topology::UpDown(_, inner) => Layout::of(inner),
            Topology::Cube(c) => {
                let net = c.network();
                if c.dimensions() > 2 {
                    bail!(
                        "--heatmap: {} has {} dimensions and no 2-D drawing; the families with one are {FAMILIES}",
                        net.name(),
                        c.dimensions()
                    );
                }
                let two = c.dimensions() == 2;
                let at: Vec<(i64, i64)> = (0..net.routers())
                    .map(|r| (c.coordinate(r, 0) as i64, if two { c.coordinate(r, 1) as i64 } else { 0 }))
                    .collect();
                let step = steps(net, &at, |_, (dx, dy)| match (dx, dy) {
                    (d, 0) | (0, d) if d.abs() == 1 => Some((dx, dy)),
                    // A wrap-around leaves the opposite way to the way it lands.
                    (d, 0) if d != 0 => Some((-d.signum(), 0)),
                    (0, d) if d != 0 => Some((0, -d.signum())),
                    _ => None,
                })?;
                let mut notes = vec![if two {
                    "router r at column (r mod k0), row (r div k0): dimension 0 runs right, dimension 1 down"
                        .into()
                } else {
                    "router r at column r: the ring runs right".into()
                }];
                if c.spec().wrap {
                    notes.push(
                        "wrap-around channels are stubs at the edge, pointing the way they leave".into(),
                    );
                }
                Ok(Layout { at, step, notes })
            }
            Topology::Circulant(c) => {
                let net = c.network();
                let (a, b) = c.generators();
                let n = c.nodes();
                let (at, horizontal, note) = match c.layout() {
                    Some((cols, rows, xs, ys)) => {
                        let mut at = vec![None; n as usize];
                        for p in 0..n as u64 {
                            let (x, y) = (p % cols as u64, p / cols as u64);
                            at[((x * xs as u64 + y * ys as u64) % n as u64) as usize] =
                                Some((x as i64, y as i64));
                        }
                        let Some(at) = at.into_iter().collect::<Option<Vec<_>>>() else {
                            bail!("--heatmap: the layout of {} does not place every router", net.name());
                        };
                        let note = format!(
                            "Puente et al. 1999 Fig. 1's layout: {cols} columns x {rows} rows, router (x*{xs} + y*{ys}) mod {n} at column x, row y"
                        );
                        (at, xs, note)
                    }
                    None => (
                        shortest_offsets(n, a, b),
                        a,
                        format!(
                            "no rectangular layout ({n} is a multiple of neither {a} nor {b}): each router at its shortest offset from router 0 (centre)"
                        ),
                    ),
                };
                let (h, v) = if horizontal == a { ("a", "b") } else { ("b", "a") };
                let classes = net.classes();
                let step = steps(net, &at, |ch, _| {
                    let class = classes.get(net.channels()[ch].class as usize)?;
                    let (sign, generator) = (class.get(..1)?, class.get(1..)?);
                    let d = if sign == "+" { 1 } else { -1 };
                    if generator == h {
                        Some((d, 0))
                    } else if generator == v {
                        Some((0, d))
                    } else {
                        None
                    }
                })?;
                let notes = vec![
                    note,
                    format!(
                        "+{h} channels run right, +{v} down; wrap-around channels are stubs pointing the way they leave"
                    ),
                ];
                Ok(Layout { at, step, notes })
            }
            other => bail!(
                "--heatmap: a {} has no 2-D drawing; the families with one are {FAMILIES}",
                other.network().name()
            ),
        }
    }
}

/// Each channel's step, from `rule(channel, offset of its far end)`.
fn steps(
    net: &Network,
    at: &[(i64, i64)],
    rule: impl Fn(usize, (i64, i64)) -> Option<(i64, i64)>,
) -> anyhow::Result<Vec<(i64, i64)>> {
    net.edges()
        .enumerate()
        .map(|(i, (src, ch))| {
            let (a, b) = (at[src as usize], at[ch.dst as usize]);
            match rule(i, (b.0 - a.0, b.1 - a.1)) {
                Some(s) => Ok(s),
                None => bail!("--heatmap: channel {i} of {} has no direction in the drawing", net.name()),
            }
        })
        .collect()
}

/// Every node of C_N(a, b) at a shortest (x, y) with x·a + y·b ≡ node (mod N), breadth-first
/// from node 0 with ties going to the first step tried (+a, −a, +b, −b).
fn shortest_offsets(n: u32, a: u32, b: u32) -> Vec<(i64, i64)> {
    let n = n as usize;
    let mut at: Vec<Option<(i64, i64)>> = vec![None; n];
    at[0] = Some((0, 0));
    let mut queue = std::collections::VecDeque::from([0usize]);
    let (a, b) = (a as usize % n, b as usize % n);
    while let Some(u) = queue.pop_front() {
        let (x, y) = at[u].unwrap_or_default();
        for (v, p) in [
            ((u + a) % n, (x + 1, y)),
            ((u + n - a) % n, (x - 1, y)),
            ((u + b) % n, (x, y + 1)),
            ((u + n - b) % n, (x, y - 1)),
        ] {
            if at[v].is_none() {
                at[v] = Some(p);
                queue.push_back(v);
            }
        }
    }
    // A connected circulant reaches every node; an unreached one (never built) stays at 0.
    at.into_iter().map(Option::unwrap_or_default).collect()
}

/// One channel's arrow.
pub struct Arrow {
    /// The router it leaves.
    pub at: (i64, i64),
    /// The way it leaves.
    pub step: (i64, i64),
    /// A wrap-around, drawn as a stub.
    pub stub: bool,
    /// The value it is coloured by.
    pub value: f64,
}

/// A heat map ready to draw.
pub struct Map {
    /// Caption.
    pub title: String,
    /// The colour bar's label: the column, then its unit.
    pub legend: [String; 2],
    /// How to read the drawing.
    pub notes: Vec<String>,
    /// Router cells, with a label when the map is small enough to print them.
    pub routers: Vec<((i64, i64), Option<String>)>,
    /// One arrow per channel.
    pub arrows: Vec<Arrow>,
    /// The value at the top of the colour scale (0 at the bottom).
    pub top: f64,
}

/// Colours of the scale from low to high (viridis, which reads in grey and to most
/// colour-blind eyes).
const SCALE: [(u8, u8, u8); 9] = [
    (0x44, 0x01, 0x54),
    (0x47, 0x2d, 0x7b),
    (0x3b, 0x52, 0x8b),
    (0x2c, 0x72, 0x8e),
    (0x21, 0x91, 0x8c),
    (0x28, 0xae, 0x80),
    (0x5e, 0xc9, 0x62),
    (0xad, 0xdc, 0x30),
    (0xfd, 0xe7, 0x25),
];

/// The colour of `t` in [0, 1] (clamped).
pub fn colour(t: f64) -> RGBColor {
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    let f = t * (SCALE.len() - 1) as f64;
    let i = (f.floor() as usize).min(SCALE.len() - 2);
    let w = f - i as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * w).round() as u8;
    let (a, b) = (SCALE[i], SCALE[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The most routers a drawing has across or down.
pub const MAX_CELLS: i64 = 128;

/// Margins and sizes in pixels.
const LEFT: i32 = 24;
const TOP: i32 = 56;
const BAR_COLUMN: i32 = 220;
const NOTE_LINE: i32 = 20;

impl Map {
    /// Pixels per grid cell: the drawing about 640 pixels across, cells 24 to 90 pixels.
    fn cell(&self) -> i32 {
        let (w, h) = self.cells();
        (640 / w.max(h).max(1) as i32).clamp(24, 90)
    }

    /// The grid's first cell and its extent in cells.
    fn extent(&self) -> ((i64, i64), (i64, i64)) {
        let xs = self.routers.iter().map(|r| r.0.0);
        let ys = self.routers.iter().map(|r| r.0.1);
        let (x0, x1) = xs.fold((i64::MAX, i64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        let (y0, y1) = ys.fold((i64::MAX, i64::MIN), |(a, b), y| (a.min(y), b.max(y)));
        if x0 > x1 { ((0, 0), (1, 1)) } else { ((x0, y0), (x1 - x0 + 1, y1 - y0 + 1)) }
    }

    fn cells(&self) -> (i64, i64) {
        self.extent().1
    }

    fn centre(&self, (x, y): (i64, i64)) -> (f64, f64) {
        let ((x0, y0), _) = self.extent();
        let c = self.cell() as f64;
        (LEFT as f64 + ((x - x0) as f64 + 0.5) * c, TOP as f64 + ((y - y0) as f64 + 0.5) * c)
    }

    /// The arrow as one polygon: a shaft and a head, to the right of its direction of travel.
    fn polygon(&self, a: &Arrow) -> Vec<(i32, i32)> {
        let (cx, cy) = self.centre(a.at);
        let c = self.cell() as f64;
        let (dx, dy) = (a.step.0 as f64, a.step.1 as f64);
        // Right of travel on a screen whose y grows downwards.
        let (px, py) = (-dy, dx);
        let (start, end) = (0.2, if a.stub { 0.5 } else { 0.8 });
        let (lane, shaft, head, head_len) = (0.1, 0.035, 0.09, 0.15);
        let at = |t: f64, s: f64| {
            let s = lane + s;
            ((cx + (dx * t + px * s) * c).round() as i32, (cy + (dy * t + py * s) * c).round() as i32)
        };
        vec![
            at(start, -shaft),
            at(end - head_len, -shaft),
            at(end - head_len, -head),
            at(end, 0.0),
            at(end - head_len, head),
            at(end - head_len, shaft),
            at(start, shaft),
        ]
    }
}

impl Picture for Map {
    fn size(&self) -> (u32, u32) {
        let (w, h) = self.cells();
        let c = self.cell();
        let grid = (w as i32 * c, h as i32 * c);
        let widest_note = self.notes.iter().map(|n| n.chars().count()).max().unwrap_or(0) as i32;
        let width = (LEFT + grid.0 + BAR_COLUMN)
            .max(LEFT * 2 + widest_note * 7)
            .max(LEFT * 2 + self.title.chars().count() as i32 * 10);
        let height = TOP + grid.1.max(260) + 12 + NOTE_LINE * self.notes.len() as i32 + 12;
        (width as u32, height as u32)
    }

    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let c = self.cell();
        let (w, h) = self.cells();
        let grid = (w as i32 * c, h as i32 * c);
        let left_top = Pos::new(HPos::Left, VPos::Top);
        let text = |size: u32| TextStyle::from(("sans-serif", size).into_font()).color(&BLACK);
        root.draw(&Text::new(self.title.clone(), (LEFT, 18), text(18).pos(left_top))).map_err(plot_error)?;
        // Routers under the arrows' tails.
        let labelled = self.routers.iter().any(|r| r.1.is_some());
        let half = ((if labelled { 0.17 } else { 0.12 }) * c as f64).round() as i32;
        for (at, label) in &self.routers {
            let (x, y) = self.centre(*at);
            let (x, y) = (x.round() as i32, y.round() as i32);
            let corners = [(x - half, y - half), (x + half, y + half)];
            root.draw(&Rectangle::new(corners, RGBColor(0xe4, 0xe4, 0xe4).filled())).map_err(plot_error)?;
            root.draw(&Rectangle::new(corners, BLACK.mix(0.6).stroke_width(1))).map_err(plot_error)?;
            if let Some(l) = label {
                let style = text(((c / 6) as u32).clamp(8, 13)).pos(Pos::new(HPos::Center, VPos::Center));
                root.draw(&Text::new(l.clone(), (x, y), style)).map_err(plot_error)?;
            }
        }
        for a in &self.arrows {
            let fill = colour(a.value / self.top);
            root.draw(&Polygon::new(self.polygon(a), fill.filled())).map_err(plot_error)?;
        }
        // The colour bar: its label (column, unit), then the scale with five ticks.
        let bx = LEFT + grid.0 + 40;
        root.draw(&Text::new(self.legend[0].clone(), (bx, TOP), text(14).pos(left_top)))
            .map_err(plot_error)?;
        root.draw(&Text::new(self.legend[1].clone(), (bx, TOP + 18), text(13).pos(left_top)))
            .map_err(plot_error)?;
        let (top, height, width) = (TOP + 46, grid.1.max(260) - 46, 22);
        let slices = 64;
        for i in 0..slices {
            let y0 = top + height - (i + 1) * height / slices;
            let y1 = top + height - i * height / slices;
            let fill = colour((i as f64 + 0.5) / slices as f64);
            root.draw(&Rectangle::new([(bx, y0), (bx + width, y1)], fill.filled())).map_err(plot_error)?;
        }
        root.draw(&Rectangle::new([(bx, top), (bx + width, top + height)], BLACK.stroke_width(1)))
            .map_err(plot_error)?;
        let clipped = self.arrows.iter().any(|a| a.value > self.top);
        for i in 0..=4 {
            let v = self.top * i as f64 / 4.0;
            let y = top + height - i * height / 4;
            root.draw(&PathElement::new(vec![(bx + width, y), (bx + width + 5, y)], BLACK.stroke_width(1)))
                .map_err(plot_error)?;
            let label = if i == 4 && clipped { format!("{} or more", tick(&v)) } else { tick(&v) };
            let style = text(13).pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(label, (bx + width + 8, y), style)).map_err(plot_error)?;
        }
        for (i, note) in self.notes.iter().enumerate() {
            let y = TOP + grid.1.max(260) + 12 + NOTE_LINE * i as i32;
            root.draw(&Text::new(note.clone(), (LEFT, y), text(12).pos(left_top))).map_err(plot_error)?;
        }
        Ok(())
    }
}

/// A network built with its drawing: what a heat map is drawn on.
pub struct Drawing {
    topo: Topology,
    layout: Layout,
}

/// One channel's value at one point, as a row of a `--channels` CSV gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// The row's line in its file, for errors.
    pub line: usize,
    /// The channel's id.
    pub channel: u64,
    /// Its source router, as the file says.
    pub from: u64,
    /// Its destination router, as the file says.
    pub to: u64,
    /// The value drawn (none: the file has no value for this channel).
    pub value: Option<f64>,
}

impl Drawing {
    /// `family` built (routed as by default) with its layout: a family without a drawing is
    /// refused (status 2), before anything else is read.
    pub fn of(family: &TopologySpec) -> anyhow::Result<Drawing> {
        let (spec, _) = family.resolve()?;
        let routing = spec.resolve_routing(&RoutingSpec::default())?;
        let topo = netwrap_sim::shape_of(&spec, &routing)?.build().context("invalid topology")?;
        let layout = Layout::of(&topo)?;
        Ok(Drawing { topo, layout })
    }

    /// The heat map of `column` at `point` (one of several when `several`), from `readings`:
    /// they must be the network's channels, each once, with their `from` and `to` routers,
    /// else the file was made on another network (status 2). `max` is the top of the colour
    /// scale (default: 1 for utilization, else the largest value drawn, rounded up to 1, 2,
    /// 2.5 or 5 times a power of ten); `title` defaults to the column and the network.
    pub fn map(
        self,
        readings: &[Reading],
        column: &str,
        point: u64,
        several: bool,
        max: Option<f64>,
        title: Option<String>,
    ) -> anyhow::Result<Map> {
        let net = self.topo.network();
        let channels = net.channels().len();
        if readings.len() != channels {
            bail!(
                "point {point} has {} channels, but {} has {channels}: the CSV was made on another network (name the one `netwrap sim` ran)",
                readings.len(),
                net.name()
            );
        }
        let mut values = vec![f64::NAN; channels];
        let sources: Vec<u32> = net.edges().map(|(s, _)| s).collect();
        for r in readings {
            let (line, ch) = (r.line, r.channel);
            let Some(&src) = usize::try_from(ch).ok().and_then(|c| sources.get(c)) else {
                bail!("line {line}: channel {ch}: {} has channels 0 to {}", net.name(), channels - 1);
            };
            let dst = net.channels()[ch as usize].dst;
            if (r.from, r.to) != (src as u64, dst as u64) {
                bail!(
                    "line {line}: channel {ch} goes from router {src} to {dst} in {}, not from {} to {}: the CSV was made on another network",
                    net.name(),
                    r.from,
                    r.to
                );
            }
            if !values[ch as usize].is_nan() {
                bail!("line {line}: channel {ch} appears twice at point {point}");
            }
            values[ch as usize] = match r.value {
                Some(v) => v.max(0.0),
                None => bail!(
                    "line {line}: no {column} value (buffer occupancy is measured by `--router vc` only)"
                ),
            };
        }
        let top = max.unwrap_or_else(|| {
            let largest = values.iter().copied().fold(0.0, f64::max);
            if column == "utilization" || largest <= 0.0 { 1.0 } else { nice_ceiling(largest) }
        });
        let unit = match column {
            "utilization" => "(busy fraction of cycles)".to_string(),
            "occupancy" => "(flits, mean over cycles, all VCs)".to_string(),
            vc if vc.strip_prefix("vc").is_some_and(|n| n.parse::<u32>().is_ok()) => {
                format!("(flits, mean over cycles, VC {})", &vc[2..])
            }
            _ => String::new(),
        };
        let at_point = if several { format!(", point {point}") } else { String::new() };
        let title = title.unwrap_or_else(|| format!("{column} per channel: {}{at_point}", net.name()));
        map(&self.topo, self.layout, &values, title, [column.to_string(), unit], top)
    }
}

/// The least of 1, 2, 2.5 and 5 times a power of ten that is at least `v` (> 0): a colour
/// scale's top whose quarter ticks read plainly.
fn nice_ceiling(v: f64) -> f64 {
    let power = 10f64.powf(v.log10().floor());
    let m = v / power;
    [1.0, 2.0, 2.5, 5.0, 10.0].into_iter().find(|&s| s >= m * (1.0 - 1e-12)).unwrap_or(10.0) * power
}

/// Builds the map of `values` (one per channel, in channel order) on `topo`'s `layout`.
pub fn map(
    topo: &Topology,
    layout: Layout,
    values: &[f64],
    title: String,
    legend: [String; 2],
    top: f64,
) -> anyhow::Result<Map> {
    let net = topo.network();
    if layout.step.len() != values.len() || layout.at.len() != net.routers() as usize {
        bail!("--heatmap: the drawing of {} does not match its channels", net.name());
    }
    let span = |v: &dyn Fn(&(i64, i64)) -> i64| {
        let (lo, hi) = layout.at.iter().map(v).fold((i64::MAX, i64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        hi.saturating_sub(lo).saturating_add(1)
    };
    let (w, h) = (span(&|p| p.0), span(&|p| p.1));
    // Beyond this a picture is thousands of pixels across and its arrows too small to read.
    if w.max(h) > MAX_CELLS {
        bail!(
            "--heatmap: {} is {w} x {h} routers across, too large to draw legibly (at most {MAX_CELLS} a side)",
            net.name()
        );
    }
    let small = net.routers() <= 64;
    let routers = layout.at.iter().enumerate().map(|(r, &at)| (at, small.then(|| r.to_string()))).collect();
    let arrows = net
        .edges()
        .zip(&layout.step)
        .zip(values)
        .map(|(((src, ch), &step), &value)| {
            let at = layout.at[src as usize];
            let next = (at.0 + step.0, at.1 + step.1);
            Arrow { at, step, stub: layout.at[ch.dst as usize] != next, value }
        })
        .collect();
    let mut notes = layout.notes;
    notes.push("each arrow is one channel, drawn to the right of its direction of travel".into());
    Ok(Map { title, legend, notes, routers, arrows, top })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(spec: TopologySpec) -> Topology {
        let (spec, _) = spec.resolve().unwrap();
        let routing = spec.resolve_routing(&RoutingSpec::default()).unwrap();
        spec.shape(&routing).unwrap().build().unwrap()
    }

    /// Verification: on a 4×4 torus every channel leaves towards its neighbour, and exactly
    /// the end-around ones (one per ring and direction: 2 dimensions × 4 rings × 2 directions)
    /// are stubs pointing outwards.
    #[test]
    fn a_torus_has_its_wrap_arounds_as_outward_stubs() {
        let t = build(TopologySpec::Torus {
            k: Some(4),
            n: Some(2),
            nodes: None,
            radices: None,
            bidirectional: true,
            concentration: None,
        });
        let m =
            map(&t, Layout::of(&t).unwrap(), &[0.5; 64], "t".into(), ["u".into(), "v".into()], 1.0).unwrap();
        let stubs: Vec<&Arrow> = m.arrows.iter().filter(|a| a.stub).collect();
        assert_eq!(stubs.len(), 16);
        for a in stubs {
            let out = (a.at.0 + a.step.0, a.at.1 + a.step.1);
            assert!(!(0..4).contains(&out.0) || !(0..4).contains(&out.1), "{:?} {:?}", a.at, a.step);
        }
    }

    /// Verification: a Midimew's drawing places every router in its own cell, with or without
    /// a rectangular layout (16 nodes: C_16(2,3), no multiple of 3 but of 2; 256 nodes:
    /// C_256(11,12), neither).
    #[test]
    fn midimews_put_each_router_in_its_own_cell() {
        for nodes in [16, 32, 256] {
            let t = build(TopologySpec::Midimew { nodes: Some(nodes) });
            let l = Layout::of(&t).unwrap();
            let cells: std::collections::BTreeSet<_> = l.at.iter().collect();
            assert_eq!(cells.len(), nodes as usize, "{nodes}");
            // Most channels join neighbouring cells: wrap-arounds are the exception.
            let net = t.network();
            let local = net
                .edges()
                .zip(&l.step)
                .filter(|((s, ch), st)| {
                    let a = l.at[*s as usize];
                    l.at[ch.dst as usize] == (a.0 + st.0, a.1 + st.1)
                })
                .count();
            assert!(local * 2 > net.channels().len(), "{nodes}: {local} local");
        }
    }

    /// Verification: families without a 2-D drawing are refused by name.
    #[test]
    fn a_butterfly_has_no_layout() {
        let t = build(TopologySpec::Butterfly { k: Some(2), stages: Some(3), nodes: None });
        let e = Layout::of(&t).err().unwrap().to_string();
        assert!(e.contains("no 2-D drawing") && e.contains(FAMILIES), "{e}");
    }

    /// Verification: a ring too long to read is refused, not drawn thousands of pixels wide.
    #[test]
    fn a_drawing_too_large_to_read_is_refused() {
        let t = build(TopologySpec::Ring { k: Some(200), bidirectional: false });
        let e = map(&t, Layout::of(&t).unwrap(), &[0.0; 200], "t".into(), ["u".into(), "v".into()], 1.0);
        let e = e.err().unwrap().to_string();
        assert!(e.contains("200 x 1 routers across, too large to draw legibly"), "{e}");
    }

    /// Verification: a colour scale's default top is the next plain number.
    #[test]
    fn scale_tops_are_plain_numbers() {
        assert_eq!(nice_ceiling(0.24), 0.25);
        assert_eq!(nice_ceiling(80.0), 100.0);
        assert_eq!(nice_ceiling(50.0), 50.0);
        assert_eq!(nice_ceiling(1.3), 2.0);
    }

    /// Verification: the scale runs from the first colour to the last and clamps.
    #[test]
    fn the_scale_clamps() {
        assert_eq!(colour(-1.0), colour(0.0));
        assert_eq!(colour(2.0), RGBColor(0xfd, 0xe7, 0x25));
        assert_eq!(colour(f64::NAN), colour(0.0));
    }
}
