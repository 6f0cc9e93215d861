//! The pages of `netwrap reproduce` (and of its alias `netwrap figure`), written: each page's
//! data as CSV, its pictures as SVG (and PNG), and its Markdown page.
//!
//! The facade computes a page ([`netwrap_app::reproduce`]: its typed data, its text and its
//! checked statements); this module draws its pictures from the data alone and writes the
//! files. With `replot`, the data are read back from the CSV an earlier run wrote, so the
//! pictures and pages are redrawn without simulating.

mod accuracy;
mod agarwal;
mod homework;
mod others;

use crate::chart::{self, Chart};
use crate::output::{VERSION, write_failed};
use crate::progress::{Bar, Work};
use crate::table::{self, Axes, Table};
use anyhow::{Context, bail};
use netwrap_app::reproduce::{Claim, Ctx, Data, Item, Note, Page, Paper, Tally, TextTable};
use netwrap_app::{Point, run_points};
use netwrap_engine::Record;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How the pages are made and where they go.
#[derive(Clone, Debug)]
pub struct Options {
    /// The directory the files are written to.
    pub out: PathBuf,
    /// Read each page's data from its CSV in `out` instead of computing them.
    pub replot: bool,
    /// Also write every picture as PNG.
    pub png: bool,
    /// The pages link the index `README.md` in `out`: this run writes it (`all`), or an
    /// earlier run did. A page never links an index that is not there.
    pub index: bool,
}

/// A page written.
pub struct Written {
    /// The page.
    pub item: Item,
    /// Its statements' outcome.
    pub tally: Tally,
    /// The statements whose check failed.
    pub failed: Vec<Claim>,
    /// The files written, in order: the CSV (unless replotted), the pictures, the page.
    pub files: Vec<PathBuf>,
    /// How long it took, in seconds.
    pub seconds: f64,
}

/// What pages are computed with: `quick` runs (see [`netwrap_app::reproduce::quicken`]),
/// each experiment's points run with a progress bar unless `quiet`.
pub fn context(quick: bool, quiet: bool) -> Ctx<'static> {
    Ctx::with_runner(quick, move |points: &[Point], record: Record| {
        let bar = Bar::start(Work::Points(points.len() as u64), quiet);
        let record = Record { progress: bar.counter(), ..record };
        let results = run_points(
            points,
            record,
            |p, plan| bar.started(p.index, plan.cycles),
            |p, r| bar.point_done(p.index, r.as_ref().ok().map(|r| r.result.report.cycles)),
        );
        bar.finish();
        results
    })
}

/// Writes `item`'s page into `o.out` (which exists): its data (computed through `ctx`, or read
/// back with `o.replot`), pictures and Markdown.
pub fn write(item: &Item, ctx: &mut Ctx, o: &Options) -> anyhow::Result<Written> {
    let started = Instant::now();
    let mut files = Vec::new();
    let csv_path = o.out.join(format!("{}.csv", item.id));
    let data = if o.replot {
        let text = std::fs::read_to_string(&csv_path).with_context(|| {
            format!("--replot redraws from the CSVs of an earlier run: cannot read {}", csv_path.display())
        })?;
        // Every line netwrap writes ends with a newline: a last row without one was cut short
        // (a copy or a write interrupted), and its last number may be a prefix of the real one.
        if !text.is_empty() && !text.ends_with('\n') {
            bail!(
                "in {}: its last row is cut short (no newline at its end): not a page's CSV as netwrap writes it; write it again without --replot",
                csv_path.display()
            );
        }
        table::read(item.kind, &text).with_context(|| format!("in {}", csv_path.display()))?
    } else {
        let data = item.data(ctx).with_context(|| format!("{}: computing the data", item.id))?;
        write_file(&csv_path, &table::write(&data))?;
        files.push(csv_path);
        data
    };
    let page = item.page(&data).with_context(|| format!("{}: checking the data", item.id))?;
    let pictures = pictures(item, &data).with_context(|| format!("{}: drawing the page", item.id))?;
    for (suffix, picture) in &pictures {
        let stem = picture_stem(item.id, suffix);
        let svg = o.out.join(format!("{stem}.svg"));
        picture.write(&svg)?;
        files.push(svg);
        if o.png {
            let png = o.out.join(format!("{stem}.png"));
            picture.write(&png)?;
            files.push(png);
        }
    }
    let md = o.out.join(format!("{}.md", item.id));
    write_file(&md, &markdown(item, &page, &pictures, &data, o.index))?;
    files.push(md);
    Ok(Written {
        item: *item,
        tally: page.tally(),
        failed: page.claims.into_iter().filter(|c| !c.ok).collect(),
        files,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The verdict on pages written: status 6 (a conclusion fails) naming the pages with a failed
/// check, if any.
pub fn verdict(failed: &[&str]) -> anyhow::Result<()> {
    if failed.is_empty() {
        return Ok(());
    }
    Err(crate::output::Verdict {
        status: crate::output::status::CONCLUSION_FAILS,
        message: format!("a check failed on: {}", failed.join(", ")),
    }
    .into())
}

/// The index of the pages `done` (`netwrap reproduce all`'s README.md).
pub fn index(done: &[Written], quick: bool) -> String {
    let mut md = String::from("# The papers' figures and tables, reproduced\n\n");
    let _ = writeln!(
        md,
        "Written by `netwrap reproduce all{}` (netwrap {VERSION}); see [docs/reproduce.md](../reproduce.md) for the command, its options and the full run's wall time. Each page puts netwrap's numbers beside what the paper states and checks each stated conclusion.\n",
        if quick { " --quick" } else { "" }
    );
    let mut paper: Option<Paper> = None;
    for d in done {
        if paper != Some(d.item.paper) {
            let _ = writeln!(md, "\n## {}\n", d.item.paper.name());
            md.push_str("| page | the paper's statements |\n|---|---|\n");
            paper = Some(d.item.paper);
        }
        let _ = writeln!(md, "| [{}]({}.md) | {} |", d.item.title, d.item.id, tally_text(&d.tally));
    }
    md
}

/// "3 agree, 1 differ as documented, 1 CHECKS FAIL".
pub fn tally_text(t: &Tally) -> String {
    let mut text = format!("{} agree", t.agree);
    if t.differ > 0 {
        let _ = write!(text, ", {} differ as documented", t.differ);
    }
    if t.fail > 0 {
        let _ = write!(text, ", {} CHECKS FAIL", t.fail);
    }
    text
}

/// Writes `text` to `path`; a failure names the file (status 1).
pub fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).map_err(|e| write_failed(path.display().to_string(), e))?;
    Ok(())
}

/// A page's picture: a chart, or a heat map on a network's drawing.
pub enum Picture {
    /// A chart.
    Chart(Chart),
    /// A heat map.
    Map(crate::heatmap::Map),
}

impl Picture {
    fn title(&self) -> &str {
        match self {
            Picture::Chart(c) => &c.title,
            Picture::Map(m) => &m.title,
        }
    }

    fn write(&self, path: &Path) -> anyhow::Result<()> {
        match self {
            Picture::Chart(c) => chart::write(c, path),
            Picture::Map(m) => chart::render(m, chart::Format::of(path)?, path),
        }
    }
}

impl From<Chart> for Picture {
    fn from(c: Chart) -> Picture {
        Picture::Chart(c)
    }
}

/// A page's pictures: (file-name suffix, or empty for `<id>.svg`; picture), from its data.
type Pictures = Vec<(String, Picture)>;

/// The pictures of `item`, drawn from `data`.
fn pictures(item: &Item, data: &Data) -> anyhow::Result<Pictures> {
    let id = item.id;
    if let Some(number) = id.strip_prefix("agarwal-1991-fig-").and_then(|n| n.parse::<u32>().ok())
        && number >= 6
    {
        return agarwal::model(number, data.model()?);
    }
    match id {
        "agarwal-1991-figs-2-4" => agarwal::figs_2_4(data.runs()?),
        "agarwal-1991-figs-2-3-sizes" => agarwal::figs_2_3_sizes(data.runs()?),
        "agarwal-1991-fig-5" => agarwal::fig_5(data.runs()?),
        "puente-1999-fig-6" => others::puente_fig_6(data.runs()?),
        "puente-1999-fig-7" => others::puente_fig_7(data.runs()?),
        "puente-1999-fig-8" => others::puente_fig_8(data.channels()?),
        "greenberg-guan-1997-fig-3" => others::greenberg_guan_fig_3(data.runs()?),
        "raghunath-ranade-1995-fig-4" => others::rr_open(data.runs()?, 4),
        "raghunath-ranade-1995-fig-5" => others::rr_open(data.runs()?, 5),
        "raghunath-ranade-1995-fig-6" => others::rr_open(data.runs()?, 6),
        "raghunath-ranade-1995-fig-7" => others::rr_threads(data.runs()?, 16),
        "raghunath-ranade-1995-fig-8" => others::rr_threads(data.runs()?, 32),
        "homework-ex-2" => homework::ex_2(data.runs()?),
        "homework-ex-4" => homework::ex_4(data.rings()?),
        "homework-ex-5" => homework::ex_5(data.runs()?),
        "homework-ex-8" => homework::ex_8(data.feedback()?),
        "kim-2008-dragonfly-routing" => others::kim_routing(data.runs()?),
        "petrini-vanneschi-1997-kary-ntree" => others::kary_ntree(data.runs()?),
        "thakur-2005-allreduce-crossover" => others::allreduce_crossover(data.runs()?),
        "thakur-2005-alltoall-bisection" => others::alltoall_bisection(data.runs()?),
        "netwrap-model-accuracy" => accuracy::model_accuracy(data.accuracy()?),
        // Tables and single numbers.
        _ => Ok(Vec::new()),
    }
}

/// Axes for a chart of `y` against `x` with the given series columns and caption.
fn axes(x: &str, y: &str, series: &[&str], title: String) -> Axes {
    Axes {
        x: Some(x.into()),
        y: y.into(),
        series: Some(series.iter().map(|s| s.to_string()).collect()),
        log_x: false,
        log_y: false,
        title: Some(title),
        short_labels: true,
    }
}

/// The chart `axes` asks for of simulated rows.
fn runs_chart(runs: &netwrap_app::reproduce::Runs, axes: &Axes) -> anyhow::Result<Picture> {
    Ok(Table::of_runs(runs).chart(axes)?.into())
}

fn picture_stem(id: &str, suffix: &str) -> String {
    if suffix.is_empty() { id.to_string() } else { format!("{id}-{suffix}") }
}

/// A Markdown table: `columns` as (heading, right-aligned), one line a row.
pub fn md_table(t: &TextTable) -> String {
    // An empty cell is one space between its bars, as "| |".
    let line = |cells: Vec<String>| {
        let cells: Vec<String> = cells
            .iter()
            .map(|c| if c.is_empty() { " ".to_string() } else { format!(" {} ", escape(c)) })
            .collect();
        format!("|{}|\n", cells.join("|"))
    };
    let mut text = line(t.columns.iter().map(|c| c.0.clone()).collect());
    text += &format!(
        "|{}|\n",
        t.columns.iter().map(|c| if c.1 { "---:" } else { "---" }).collect::<Vec<_>>().join("|")
    );
    for r in &t.rows {
        text += &line(r.clone());
    }
    text
}

/// Escapes a table cell's `|`.
fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}

/// A page's notes: prose and tables, one after another.
fn notes(notes: &[Note]) -> String {
    notes
        .iter()
        .map(|n| match n {
            Note::Text(t) => t.clone(),
            Note::Table(t) => md_table(t),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The page: title, what it shows, the pictures, the checks, the notes, and how it was made.
fn markdown(item: &Item, page: &Page, pictures: &Pictures, data: &Data, index: bool) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", item.full_title());
    let _ = writeln!(
        md,
        "{}data: [{id}.csv]({id}.csv) · made by `netwrap reproduce {id}` (netwrap {VERSION}) from {}\n",
        if index { "[All pages](README.md) · " } else { "" },
        item.source,
        id = item.id
    );
    if let Some(seeds) = seeds_and_messages(data) {
        let _ = writeln!(md, "{seeds}\n");
    }
    if !page.about.is_empty() {
        let _ = writeln!(md, "{}\n", page.about.trim_end());
    }
    for (suffix, picture) in pictures {
        let _ = writeln!(md, "![{}]({}.svg)\n", picture.title(), picture_stem(item.id, suffix));
    }
    if !page.claims.is_empty() {
        let rows = page
            .claims
            .iter()
            .map(|c| {
                let verdict = match (c.agrees, c.ok) {
                    (true, _) => "yes",
                    (false, true) => "no: see below",
                    (false, false) => "**no: check failed**",
                };
                vec![c.paper.clone(), c.ours.clone(), verdict.to_string()]
            })
            .collect();
        md += &md_table(&TextTable::new(
            &[("the paper states", false), ("netwrap", false), ("agrees", false)],
            rows,
        ));
        md.push('\n');
    }
    let notes = notes(&page.notes);
    if !notes.is_empty() {
        let _ = writeln!(md, "{}\n", notes.trim_end());
    }
    md.truncate(md.trim_end().len());
    md.push('\n');
    md
}

/// "Random seed 1; 40000 measured messages a point" for simulated data, so a page says how it
/// was made.
fn seeds_and_messages(data: &Data) -> Option<String> {
    let Data::Runs(runs) = data else { return None };
    let mut seeds: Vec<u64> = runs.rows.iter().map(|r| r.metrics.seed).collect();
    seeds.sort();
    seeds.dedup();
    let most = runs.rows.iter().map(|r| r.metrics.messages_delivered).max()?;
    Some(format!(
        "Simulated: random seed {}; up to {most} measured messages a point ({} points). The experiment file holds the full spec; each row of the CSV is one point.",
        seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
        runs.rows.len()
    ))
}
