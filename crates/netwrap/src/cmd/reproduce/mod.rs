//! `netwrap reproduce ID|all [--quick]`: every figure and table of the papers that netwrap can
//! compute, each written as CSV, pictures and a short page that sets our numbers beside what
//! the paper states, with each stated conclusion checked.
//!
//! An [`Item`] is one page. Its data come from simulations (the experiment files of
//! docs/validation, run by the one runner's [`run_points`]) or from the models, as one
//! [`Data`] table written as CSV; the pictures, the checks and the page are functions of that
//! table alone, so `--replot` redraws them from the CSVs already written, without simulating.

mod agarwal;
mod homework;
mod others;

use crate::chart::{self, Chart};
use crate::cmd::plot::Axes;
use crate::output::{self, VERSION, csv_line, write_failed};
use crate::progress::{Bar, Work};
use crate::runner::{channels_csv, csv_row};
use anyhow::{Context, bail};
use clap::Args;
use netwrap_app::{Point, Sweep, run_points};
use netwrap_engine::Record;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which figures, how thoroughly, and where to write them.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 every check passes (each of the paper's statements agrees with our numbers, or differs as its page documents), 6 a check fails (the summary and the page say which), 2 invalid input, 1 output not written.\nSee docs/reproduce.md."
)]
pub struct ReproduceArgs {
    /// A page id (e.g. agarwal-1991-fig-5), a prefix naming several (agarwal-1991,
    /// homework), or `all`; `netwrap reproduce list` prints the ids.
    pub id: String,
    /// Fewer messages per simulated point (a tenth, at least 2,000) and every third load of the
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

/// The paper a page reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    Agarwal,
    Puente,
    GreenbergGuan,
    RaghunathRanade,
    Homework,
}

impl Paper {
    fn name(self) -> &'static str {
        match self {
            Paper::Agarwal => "Agarwal 1991",
            Paper::Puente => "Puente et al. 1999",
            Paper::GreenbergGuan => "Greenberg & Guan 1997",
            Paper::RaghunathRanade => "Raghunath & Ranade 1995",
            Paper::Homework => "The homework",
        }
    }
}

impl Item {
    /// "Agarwal 1991 Fig. 5: …", "The homework's Ex 4: …".
    fn full_title(&self) -> String {
        match self.paper {
            Paper::Homework => format!("The homework's {}", self.title),
            p => format!("{} {}", p.name(), self.title),
        }
    }
}

/// One page: a figure, a table or an exercise.
pub struct Item {
    /// File stem and command-line id, e.g. `agarwal-1991-fig-5`.
    pub id: &'static str,
    pub paper: Paper,
    /// e.g. "Fig. 5: latency against message length at ρ = 0.4".
    pub title: &'static str,
    /// Where the data come from, for the page (an experiment file, a model, a command).
    pub source: &'static str,
    /// Computes the data (simulating through `ctx`).
    pub data: fn(&mut Ctx) -> anyhow::Result<Data>,
    /// Pictures, checks and text, from the data alone.
    pub present: fn(&Data) -> anyhow::Result<Page>,
}

/// What a page shows besides its data.
#[derive(Default)]
pub struct Page {
    /// What the paper's figure or table shows and how we computed ours (Markdown).
    pub about: String,
    /// Pictures: (file-name suffix, or empty for `<id>.svg`; picture).
    pub charts: Vec<(String, Picture)>,
    /// The paper's statements, checked.
    pub claims: Vec<Claim>,
    /// Further Markdown after the checks (tables, differences explained).
    pub notes: String,
}

/// A page's picture: a chart, or a heat map on a network's drawing.
pub enum Picture {
    Chart(Chart),
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

/// One statement of the paper, checked on our numbers.
pub struct Claim {
    /// What the paper states.
    pub paper: String,
    /// What we computed.
    pub ours: String,
    /// Whether ours bears the statement out.
    pub agrees: bool,
    /// Whether the check passed: the statement holds, or, where we differ from the paper, we
    /// differ as the page documents (a documented difference that changes fails the check).
    pub ok: bool,
}

impl Claim {
    /// A statement our numbers should bear out.
    pub fn new(paper: impl Into<String>, ours: impl Into<String>, holds: bool) -> Claim {
        Claim { paper: paper.into(), ours: ours.into(), agrees: holds, ok: holds }
    }

    /// A statement our numbers do not bear out, for a reason the page gives; `as_documented`
    /// checks that they differ as documented.
    pub fn differs(paper: impl Into<String>, ours: impl Into<String>, as_documented: bool) -> Claim {
        Claim { paper: paper.into(), ours: ours.into(), agrees: false, ok: as_documented }
    }
}

/// A page's data, as its CSV holds them: the table `netwrap plot` draws.
pub use crate::cmd::plot::Table as Data;

impl Data {
    pub fn new(header: &[&str]) -> Data {
        Data { header: header.iter().map(|h| h.to_string()).collect(), rows: Vec::new() }
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// The CSV text, as `netwrap run --csv` writes it.
    pub fn to_csv(&self) -> String {
        std::iter::once(csv_line(&self.header)).chain(self.rows.iter().map(|r| csv_line(r))).collect()
    }

    /// The column named `name`.
    pub fn col(&self, name: &str) -> anyhow::Result<usize> {
        self.column(name, "the page's data")
    }

    /// The rows whose `column` cell is `value`.
    pub fn only(&self, column: &str, value: &str) -> anyhow::Result<Data> {
        let c = self.col(column)?;
        Ok(Data {
            header: self.header.clone(),
            rows: self.rows.iter().filter(|r| r[c] == value).cloned().collect(),
        })
    }

    /// The rows `keep` accepts.
    pub fn filter(&self, keep: impl Fn(&Row) -> bool) -> Data {
        let rows = self.rows.iter().filter(|r| keep(&Row { data: self, cells: r })).cloned().collect();
        Data { header: self.header.clone(), rows }
    }

    pub fn iter(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().map(move |r| Row { data: self, cells: r })
    }

    /// The one row `keep` accepts: an error naming `what` if none does.
    pub fn find(&self, what: &str, keep: impl Fn(&Row) -> bool) -> anyhow::Result<Row<'_>> {
        self.iter().find(|r| keep(r)).with_context(|| format!("the data have no row for {what}"))
    }
}

/// One row of a [`Data`], read by column name.
pub struct Row<'a> {
    data: &'a Data,
    cells: &'a [String],
}

impl Row<'_> {
    pub fn s(&self, column: &str) -> &str {
        self.data.col(column).map(|c| self.cells[c].as_str()).unwrap_or("")
    }

    /// The cell as a number (NaN when empty or not a number: every comparison with it fails).
    pub fn f(&self, column: &str) -> f64 {
        self.s(column).trim().parse().unwrap_or(f64::NAN)
    }
}

/// The experiment files pages run, by their path in the repository, embedded so that
/// `netwrap reproduce` runs anywhere.
macro_rules! embedded {
    ($($path:literal),* $(,)?) => { &[$(($path, include_str!(concat!("../../../../../", $path)))),*] };
}
const EXPERIMENTS: &[(&str, &str)] = embedded![
    "docs/validation/agarwal-figs-2-4.toml",
    "docs/validation/agarwal-fig-5.toml",
    "docs/validation/greenberg-guan-fig-3.toml",
    "docs/validation/puente-5-1-latency.toml",
    "docs/validation/puente-5-1-throughput-16.toml",
    "docs/validation/puente-5-1-throughput-64.toml",
    "docs/validation/puente-5-1-throughput-256.toml",
    "docs/validation/raghunath-ranade-open.toml",
    "docs/validation/raghunath-ranade-threads.toml",
    "docs/validation/puente-fig-8.toml",
    "examples/ex1.toml",
    "examples/ex2-grid.toml",
    "examples/ex5-locality.toml",
];

/// What the data functions simulate with.
pub struct Ctx {
    quick: bool,
    quiet: bool,
    /// Experiments already run in this invocation (several pages share one).
    runs: HashMap<&'static str, Data>,
}

/// Quick runs measure a tenth of the messages (at least 2,000, never more than the full run),
/// after the same warm-up: a shorter warm-up would measure queues still filling.
fn quicken(run: &mut netwrap_sim::Run) {
    run.messages = (run.messages / 10).max(2000).min(run.messages);
}

impl Ctx {
    /// Runs the experiment file `name` (its path in the repository, one netwrap embeds) and returns its CSV, as
    /// `netwrap run FILE --csv` writes it; a point that fails fails the page.
    pub fn experiment(&mut self, name: &'static str) -> anyhow::Result<Data> {
        self.experiment_thinned(name, 1)
    }

    /// [`Ctx::experiment`], keeping in a quick run only every `thin`-th point (sweeps of many
    /// loads whose curves keep their shape with fewer).
    pub fn experiment_thinned(&mut self, name: &'static str, thin: u64) -> anyhow::Result<Data> {
        if let Some(d) = self.runs.get(name) {
            return Ok(d.clone());
        }
        let (sweep, points, results) = self.simulate(name, thin, false)?;
        let mut data = Data { header: netwrap_app::Row::columns(&sweep.parameters()), rows: Vec::new() };
        for (p, r) in points.iter().zip(&results) {
            data.push(csv_row(p, r));
        }
        self.runs.insert(name, data.clone());
        Ok(data)
    }

    /// Runs the experiment file `name` recording every channel: its `--channels` CSV.
    pub fn channels(&mut self, name: &'static str) -> anyhow::Result<Data> {
        let (_, points, results) = self.simulate(name, 1, true)?;
        let done: Vec<_> = points.iter().zip(results).collect();
        Data::parse(&channels_csv(&done))
    }

    fn simulate(
        &self,
        name: &'static str,
        thin: u64,
        channels: bool,
    ) -> anyhow::Result<(Sweep, Vec<Point>, Vec<netwrap_app::Simulation>)> {
        let text =
            EXPERIMENTS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).context("no such experiment")?;
        let sweep = Sweep::from_toml(text).with_context(|| format!("in {}", name))?;
        let thin = if self.quick { thin.max(1) } else { 1 };
        let mut points = sweep.points_where(|i| i % thin == 0)?;
        if self.quick {
            for p in &mut points {
                quicken(&mut p.job.sim.run);
            }
        }
        let bar = Bar::start(Work::Points(points.len() as u64), self.quiet);
        let record = Record { progress: bar.counter(), channels, ..Record::default() };
        let results = run_points(
            &points,
            record,
            |p, plan| bar.started(p.index, plan.cycles),
            |p, r| bar.point_done(p.index, r.as_ref().ok().map(|r| r.result.report.cycles)),
        );
        bar.finish();
        let mut done = Vec::new();
        for (p, r) in points.iter().zip(results) {
            done.push(r.map_err(|e| anyhow::anyhow!("{}: point {}: {e}", name, p.index))?);
        }
        Ok((sweep, points, done))
    }
}

/// Every page, in the order of the index.
pub fn items() -> Vec<Item> {
    let mut all = agarwal::items();
    all.extend(others::items());
    all.extend(homework::items());
    all
}

/// The pages `id` names: one id, every id starting with `id-` or equal to it, or `all`.
fn select(id: &str, all: Vec<Item>) -> anyhow::Result<Vec<Item>> {
    if id == "all" {
        return Ok(all);
    }
    let ids: Vec<&'static str> = all.iter().map(|i| i.id).collect();
    let chosen: Vec<Item> =
        all.into_iter().filter(|i| i.id == id || i.id.starts_with(&format!("{id}-"))).collect();
    if chosen.is_empty() {
        let near = netwrap_app::sweep::closest(id, ids.iter().copied());
        bail!(
            "no page {id:?}{}: `netwrap reproduce list` prints the ids ({} pages; a prefix such as agarwal-1991 or homework names several, `all` every one)",
            near.map(|n| format!(" (did you mean {n}?)")).unwrap_or_default(),
            ids.len()
        );
    }
    Ok(chosen)
}

/// A page's outcome, for the index and the summary.
struct Done {
    id: &'static str,
    paper: Paper,
    title: &'static str,
    tally: Tally,
}

/// A page's statements: how many agree, how many differ as documented, how many checks fail.
struct Tally {
    agree: usize,
    differ: usize,
    fail: usize,
}

impl Tally {
    fn text(&self) -> String {
        let mut t = format!("{} agree", self.agree);
        if self.differ > 0 {
            let _ = write!(t, ", {} differ as documented", self.differ);
        }
        if self.fail > 0 {
            let _ = write!(t, ", {} CHECKS FAIL", self.fail);
        }
        t
    }
}

pub fn run(a: ReproduceArgs) -> anyhow::Result<()> {
    let mut out = output::stdout();
    if a.id == "list" {
        for i in items() {
            writeln!(out, "{:<34} {}", i.id, i.full_title())?;
        }
        out.finish()?;
        return Ok(());
    }
    let every = a.id == "all";
    let chosen = select(&a.id, items())?;
    if a.replot && !a.out.is_dir() {
        bail!(
            "--replot redraws the pages from the CSVs of an earlier run in --out DIR, and {} is not a directory",
            a.out.display()
        );
    }
    output::out_dir(&a.out, "the pages")?;
    let mut ctx = Ctx { quick: a.quick, quiet: a.quiet, runs: HashMap::new() };
    let mut done = Vec::new();
    for item in &chosen {
        let started = Instant::now();
        let csv_path = a.out.join(format!("{}.csv", item.id));
        let data = if a.replot {
            let text = std::fs::read_to_string(&csv_path).with_context(|| {
                format!(
                    "--replot redraws from the CSVs of an earlier run: cannot read {}",
                    csv_path.display()
                )
            })?;
            Data::parse(&text).with_context(|| format!("in {}", csv_path.display()))?
        } else {
            let data = (item.data)(&mut ctx).with_context(|| format!("{}: computing the data", item.id))?;
            write(&csv_path, &data.to_csv())?;
            data
        };
        let page = (item.present)(&data).with_context(|| format!("{}: drawing the page", item.id))?;
        for (suffix, chart) in &page.charts {
            let stem = picture_stem(item.id, suffix);
            let svg = a.out.join(format!("{stem}.svg"));
            chart.write(&svg)?;
            if a.png {
                chart.write(&a.out.join(format!("{stem}.png")))?;
            }
        }
        let md = a.out.join(format!("{}.md", item.id));
        write(&md, &markdown(item, &page, &data))?;
        let count = |f: fn(&Claim) -> bool| page.claims.iter().filter(|c| f(c)).count();
        let tally = Tally {
            agree: count(|c| c.agrees),
            differ: count(|c| !c.agrees && c.ok),
            fail: count(|c| !c.ok),
        };
        writeln!(out, "{:<34} {}  ({:.1} s)", item.id, tally.text(), started.elapsed().as_secs_f64())?;
        for c in page.claims.iter().filter(|c| !c.ok) {
            writeln!(out, "    check failed: {} — ours: {}", c.paper, c.ours)?;
        }
        done.push(Done { id: item.id, paper: item.paper, title: item.title, tally });
    }
    if every {
        let index = a.out.join("README.md");
        write(&index, &index_page(&done, a.quick))?;
        writeln!(out, "index: {}", index.display())?;
    }
    out.finish()?;
    let failed: Vec<&str> = done.iter().filter(|d| d.tally.fail > 0).map(|d| d.id).collect();
    if !failed.is_empty() {
        return Err(output::Verdict {
            status: output::status::CONCLUSION_FAILS,
            message: format!("a check failed on: {}", failed.join(", ")),
        }
        .into());
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).map_err(|e| write_failed(path.display().to_string(), e))?;
    Ok(())
}

fn picture_stem(id: &str, suffix: &str) -> String {
    if suffix.is_empty() { id.to_string() } else { format!("{id}-{suffix}") }
}

/// A Markdown table: `columns` as (heading, right-aligned), one line a row.
pub fn md_table(columns: &[(&str, bool)], rows: Vec<Vec<String>>) -> String {
    let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
    let mut t = line(columns.iter().map(|c| c.0.to_string()).collect());
    t += &format!(
        "|{}|\n",
        columns.iter().map(|c| if c.1 { "---:" } else { "---" }).collect::<Vec<_>>().join("|")
    );
    for r in rows {
        t += &line(r.iter().map(|c| cell(c)).collect());
    }
    t
}

/// Escapes a table cell's `|`.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The page: title, what it shows, the pictures, the checks, the notes, and how it was made.
fn markdown(item: &Item, page: &Page, data: &Data) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", item.full_title());
    let _ = writeln!(
        md,
        "[All pages](README.md) · data: [{id}.csv]({id}.csv) · made by `netwrap reproduce {id}` (netwrap {VERSION}) from {}\n",
        item.source,
        id = item.id
    );
    if let Some(seeds) = seeds_and_messages(data) {
        let _ = writeln!(md, "{seeds}\n");
    }
    if !page.about.is_empty() {
        let _ = writeln!(md, "{}\n", page.about.trim_end());
    }
    for (suffix, chart) in &page.charts {
        let _ = writeln!(md, "![{}]({}.svg)\n", chart.title(), picture_stem(item.id, suffix));
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
        md += &md_table(&[("the paper states", false), ("netwrap", false), ("agrees", false)], rows);
        md.push('\n');
    }
    if !page.notes.is_empty() {
        let _ = writeln!(md, "{}\n", page.notes.trim_end());
    }
    md.truncate(md.trim_end().len());
    md.push('\n');
    md
}

/// "Random seed 1; 40000 measured messages a point" for simulated data (the CSV's `seed` and
/// `messages_delivered` columns), so a page says how it was made.
fn seeds_and_messages(data: &Data) -> Option<String> {
    let seed = data.col("seed").ok()?;
    let delivered = data.col("messages_delivered").ok()?;
    let mut seeds: Vec<&str> = data.rows.iter().map(|r| r[seed].as_str()).collect();
    seeds.sort();
    seeds.dedup();
    let most = data.rows.iter().filter_map(|r| r[delivered].parse::<u64>().ok()).max()?;
    Some(format!(
        "Simulated: random seed {}; up to {most} measured messages a point ({} points). The experiment file holds the full spec; each row of the CSV is one point.",
        seeds.join(", "),
        data.rows.len()
    ))
}

fn index_page(done: &[Done], quick: bool) -> String {
    let mut md = String::from("# The papers' figures and tables, reproduced\n\n");
    let _ = writeln!(
        md,
        "Written by `netwrap reproduce all{}` (netwrap {VERSION}); see [docs/reproduce.md](../reproduce.md) for the command, its options and the full run's wall time. Each page puts netwrap's numbers beside what the paper states and checks each stated conclusion.\n",
        if quick { " --quick" } else { "" }
    );
    let mut paper = None;
    for d in done {
        if paper != Some(d.paper) {
            let _ = writeln!(md, "\n## {}\n", d.paper.name());
            md.push_str("| page | the paper's statements |\n|---|---|\n");
            paper = Some(d.paper);
        }
        let _ = writeln!(md, "| [{}]({}.md) | {} |", d.title, d.id, d.tally.text());
    }
    md
}

/// A number with `decimals` decimals (NaN as "—").
pub fn fmt(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:.decimals$}") } else { "—".into() }
}

/// (a − b)/b in percent, signed.
pub fn pct(a: f64, b: f64) -> String {
    format!("{:+.1}%", (a / b - 1.0) * 100.0)
}

/// Axes for a chart of `y` against `x` with the given series columns and caption.
pub fn axes(x: &str, y: &str, series: &[&str], title: String) -> Axes {
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
