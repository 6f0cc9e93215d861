//! [`items`]: every figure and table of the papers that netwrap can compute, each a page whose
//! typed [`Data`] come from simulations (the experiment files of `crates/app/experiments`,
//! embedded in netwrap, run through [`run_points`](crate::run_points)) or from the models and
//! the built networks, and whose [`Page`] sets the paper's statements beside our numbers, each
//! checked ([`Claim`]).
//!
//! Nothing here draws, prints or writes a file. A front end computes an item's data
//! ([`Item::data`]), writes them (the command line: as CSV), draws its pictures from them and
//! writes its page ([`Item::page`]); a page's checks and text are functions of its data alone,
//! so data read back from an earlier run give the same page (`netwrap reproduce --replot`).
//!
//! Simulated data are the sweep's [`Row`](crate::Row)s, with one change: a swept value that is
//! a table (Puente et al.'s `topology` and `workload`) is spread over one column per field
//! (`topology.family`, `topology.k`, …), so that every cell of a page's data is a number, a
//! word or empty.

mod accuracy;
mod agarwal;
mod collectives;
mod data;
mod homework;
mod others;
mod today;

pub use agarwal::model_title;
pub use data::{
    AccuracyRow, ChannelRow, Data, DesignRow, FeedbackRow, Kind, ModelPoint, ModuleRow, NetworkRow, Params,
    RingRow, Runs, TableIIRow,
};
pub use others::{
    FAMILIES, NS_PER_CYCLE, OpenPoint, SizePoint, THREAD_NETWORKS, TRAFFICS, base_latencies, family_label,
    max_throughputs, occupancy_networks, open_networks, open_points, thread_utilization,
};

use crate::error::{Error, Result};
use crate::simulation::Simulation;
use crate::sweep::{Point, Sweep};
use netwrap_engine::Record;
use std::collections::HashMap;

/// The paper a page reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Paper {
    /// Agarwal 1991, the k-ary n-cube's limits.
    Agarwal,
    /// Puente et al. 1999, the Midimew.
    Puente,
    /// Greenberg & Guan 1997, wormhole fat-trees.
    GreenbergGuan,
    /// Raghunath & Ranade 1995, two-level packaging.
    RaghunathRanade,
    /// The homework's exercises.
    Homework,
    /// Kim, Dally, Scott & Abts 2008, the dragonfly.
    Kim,
    /// Petrini & Vanneschi 1997, the k-ary n-tree.
    PetriniVanneschi,
    /// Thakur, Rabenseifner & Gropp 2005, MPICH's collectives.
    Thakur,
    /// netwrap's own models characterised against its simulator.
    Netwrap,
}

impl Paper {
    /// "Agarwal 1991", "Puente et al. 1999", …
    pub fn name(self) -> &'static str {
        match self {
            Paper::Agarwal => "Agarwal 1991",
            Paper::Puente => "Puente et al. 1999",
            Paper::GreenbergGuan => "Greenberg & Guan 1997",
            Paper::RaghunathRanade => "Raghunath & Ranade 1995",
            Paper::Homework => "The homework",
            Paper::Kim => "Kim, Dally, Scott & Abts 2008",
            Paper::PetriniVanneschi => "Petrini & Vanneschi 1997",
            Paper::Thakur => "Thakur, Rabenseifner & Gropp 2005",
            Paper::Netwrap => "netwrap's models against its simulator",
        }
    }
}

/// One page: a figure, a table or an exercise.
#[derive(Clone, Copy, Debug)]
pub struct Item {
    /// File stem and command-line id, e.g. `agarwal-1991-fig-5`.
    pub id: &'static str,
    /// The paper.
    pub paper: Paper,
    /// e.g. "Fig. 5: latency against packet size at ρ = 0.4".
    pub title: &'static str,
    /// Where the data come from, for the page (an experiment file, a model, a command).
    pub source: &'static str,
    /// The form of its data (what an earlier run's data are read back as).
    pub kind: Kind,
    data: fn(&mut Ctx) -> Result<Data>,
    page: fn(&Data) -> Result<Page>,
}

impl Item {
    /// "Agarwal 1991 Fig. 5: …", "The homework's Ex 4: …".
    pub fn full_title(&self) -> String {
        match self.paper {
            Paper::Homework => format!("The homework's {}", self.title),
            Paper::Netwrap => format!("netwrap: {}", self.title),
            p => format!("{} {}", p.name(), self.title),
        }
    }

    /// Computes the page's data (simulating through `ctx`).
    pub fn data(&self, ctx: &mut Ctx) -> Result<Data> {
        let data = (self.data)(ctx)?;
        debug_assert_eq!(data.kind(), self.kind, "{}", self.id);
        Ok(data)
    }

    /// What the page says about `data`: its text and the paper's statements, checked.
    pub fn page(&self, data: &Data) -> Result<Page> {
        if data.kind() != self.kind {
            return Err(invalid(format!("{}: its data are {:?}, not {:?}", self.id, data.kind(), self.kind)));
        }
        (self.page)(data)
    }
}

/// What a page says besides its pictures (which a front end draws from the data).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    /// What the paper's figure or table shows and how we computed ours (Markdown).
    pub about: String,
    /// The paper's statements, checked.
    pub claims: Vec<Claim>,
    /// After the checks: tables and differences explained.
    pub notes: Vec<Note>,
}

impl Page {
    /// How many statements agree, differ as documented, and fail their check.
    pub fn tally(&self) -> Tally {
        let count = |f: fn(&Claim) -> bool| self.claims.iter().filter(|c| f(c)).count();
        Tally { agree: count(|c| c.agrees), differ: count(|c| !c.agrees && c.ok), fail: count(|c| !c.ok) }
    }
}

/// A page's statements: how many agree, how many differ as documented, how many checks fail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Statements our numbers bear out.
    pub agree: usize,
    /// Statements we differ from as the page documents.
    pub differ: usize,
    /// Checks that fail.
    pub fail: usize,
}

/// One statement of the paper, checked on our numbers.
#[derive(Clone, Debug, PartialEq)]
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

/// A part of a page's notes.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// Prose (Markdown).
    Text(String),
    /// A table of numbers as the page shows them.
    Table(TextTable),
}

/// A table of formatted cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextTable {
    /// The columns: heading, and whether its cells are numbers (aligned right).
    pub columns: Vec<(String, bool)>,
    /// One list of cells a row.
    pub rows: Vec<Vec<String>>,
}

impl TextTable {
    /// A table with these columns (heading, aligned right) and rows.
    pub fn new(columns: &[(&str, bool)], rows: Vec<Vec<String>>) -> TextTable {
        TextTable { columns: columns.iter().map(|&(h, r)| (h.to_string(), r)).collect(), rows }
    }
}

fn invalid(message: String) -> Error {
    Error::Invalid(message)
}

/// An error about the experiment file `name`, naming it.
fn in_file(name: &str, e: Error) -> Error {
    match e {
        Error::Invalid(m) => invalid(format!("in {EXPERIMENT_DIR}/{name}.toml: {m}")),
        other => other,
    }
}

/// The folder of the experiment files, in the repository.
pub const EXPERIMENT_DIR: &str = "crates/app/experiments";

/// The experiment files pages run, by name (`crates/app/experiments/NAME.toml`), embedded so
/// that pages are computed anywhere.
macro_rules! embedded {
    ($($name:literal),* $(,)?) => { &[$(($name, include_str!(concat!("../../experiments/", $name, ".toml")))),*] };
}
/// Every experiment file a page runs: (name, text).
pub const EXPERIMENTS: &[(&str, &str)] = embedded![
    "agarwal-figs-2-4",
    "agarwal-figs-2-3-sizes",
    "agarwal-fig-5",
    "greenberg-guan-fig-3",
    "puente-5-1-latency",
    "puente-5-1-throughput-16",
    "puente-5-1-throughput-64",
    "puente-5-1-throughput-256",
    "raghunath-ranade-open",
    "raghunath-ranade-threads",
    "puente-fig-8",
    "ex1",
    "ex2-grid",
    "ex5-locality",
    "kim-dragonfly-routing",
    "kary-ntree",
    "allreduce-crossover",
    "alltoall-bisection",
    "accuracy-ideal",
    "accuracy-wormhole",
    "accuracy-vct",
];

/// The text of the experiment file `name` (as in [`EXPERIMENTS`]).
pub fn experiment(name: &str) -> Option<&'static str> {
    EXPERIMENTS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// How a [`Ctx`] runs a list of points: [`run_points`](crate::run_points) with a front end's
/// progress display around it.
pub type Runner<'a> = dyn Fn(&[Point], Record) -> Vec<Result<Simulation>> + 'a;

/// What the data of pages are computed with: quick or full runs, how points run, and the
/// experiments already run (several pages share one).
pub struct Ctx<'a> {
    quick: bool,
    runner: Box<Runner<'a>>,
    runs: HashMap<&'static str, Runs>,
}

impl Ctx<'static> {
    /// Points run by [`run_points`](crate::run_points), showing no progress; `quick`: see
    /// [`quicken`].
    pub fn new(quick: bool) -> Ctx<'static> {
        Ctx::with_runner(quick, |points, record| crate::run_points(points, record, |_, _| {}, |_, _| {}))
    }
}

/// Quick runs measure a tenth of the messages after the same warm-up (a shorter warm-up would
/// measure queues still filling): at least 10,000 of a run of that many or more, whose checks
/// widen by a latency's confidence interval (fewer messages seldom give an honest one), and at
/// least 2,000 of a shorter run (the throughput runs'), never more than the full run.
pub fn quicken(run: &mut netwrap_sim::Run) {
    let least = if run.messages >= 10_000 { 10_000 } else { 2_000 };
    run.messages = (run.messages / 10).max(least).min(run.messages);
}

impl<'a> Ctx<'a> {
    /// Points run by `runner` (which calls [`run_points`](crate::run_points), showing
    /// progress as it likes); `quick`: see [`quicken`], and throughput sweeps keep only some
    /// of their loads.
    pub fn with_runner(
        quick: bool,
        runner: impl Fn(&[Point], Record) -> Vec<Result<Simulation>> + 'a,
    ) -> Ctx<'a> {
        Ctx { quick, runner: Box::new(runner), runs: HashMap::new() }
    }

    /// Runs the experiment file `name` (of [`EXPERIMENTS`]): its rows, as `netwrap run FILE
    /// --csv` writes them (tables spread over columns); a point that fails fails the page.
    pub fn experiment(&mut self, name: &'static str) -> Result<Runs> {
        self.experiment_thinned(name, 1)
    }

    /// [`Ctx::experiment`], keeping in a quick run only every `thin`-th point (sweeps of many
    /// loads whose curves keep their shape with fewer).
    pub fn experiment_thinned(&mut self, name: &'static str, thin: u64) -> Result<Runs> {
        if let Some(d) = self.runs.get(name) {
            return Ok(d.clone());
        }
        let (sweep, done) = self.simulate(name, thin, false)?;
        let runs = Runs::of(&sweep.parameters(), done.iter().map(|(p, s)| (p, s)));
        self.runs.insert(name, runs.clone());
        Ok(runs)
    }

    /// Runs the experiment file `name` recording every channel: its channels' statistics, as
    /// `netwrap run FILE --channels` writes them.
    pub fn channels(&mut self, name: &'static str) -> Result<Vec<ChannelRow>> {
        let (_, done) = self.simulate(name, 1, true)?;
        Ok(done.iter().flat_map(|(p, s)| ChannelRow::of(p, s)).collect())
    }

    /// Whether runs are quick ([`quicken`]).
    pub fn quick(&self) -> bool {
        self.quick
    }

    /// The sweep of the experiment file `name` (of [`EXPERIMENTS`]), for a page that makes
    /// its points from it (and runs them with [`Ctx::run`]).
    pub fn sweep(&self, name: &'static str) -> Result<Sweep> {
        let text = experiment(name).ok_or_else(|| invalid(format!("no experiment {name}")))?;
        Sweep::from_toml(text).map_err(|e| in_file(name, e))
    }

    /// Runs `points` of the experiment file `name` (quickened in a quick run); a point that
    /// fails fails the page.
    pub fn run(&self, name: &'static str, mut points: Vec<Point>) -> Result<Vec<(Point, Simulation)>> {
        if self.quick {
            for p in &mut points {
                quicken(&mut p.job.sim.run);
            }
        }
        self.run_as_given(name, points, Record::default())
    }

    fn run_as_given(
        &self,
        name: &'static str,
        points: Vec<Point>,
        record: Record,
    ) -> Result<Vec<(Point, Simulation)>> {
        let results = (self.runner)(&points, record);
        let mut done = Vec::new();
        for (p, r) in points.into_iter().zip(results) {
            match r {
                Ok(s) => done.push((p, s)),
                Err(e) => {
                    return Err(invalid(format!("{EXPERIMENT_DIR}/{name}.toml: point {}: {e}", p.index)));
                }
            }
        }
        Ok(done)
    }

    fn simulate(
        &self,
        name: &'static str,
        thin: u64,
        channels: bool,
    ) -> Result<(Sweep, Vec<(Point, Simulation)>)> {
        let sweep = self.sweep(name)?;
        let thin = if self.quick { thin.max(1) } else { 1 };
        let mut points = sweep.points_where(|i| i % thin == 0).map_err(|e| in_file(name, e))?;
        if self.quick {
            for p in &mut points {
                quicken(&mut p.job.sim.run);
            }
        }
        let done = self.run_as_given(name, points, Record { channels, ..Record::default() })?;
        Ok((sweep, done))
    }
}

/// Every page, in the order of the index.
pub fn items() -> Vec<Item> {
    let mut all = agarwal::items();
    all.extend(others::items());
    all.extend(homework::items());
    all.extend(today::items());
    all.extend(collectives::items());
    all.extend(accuracy::items());
    all
}

/// The pages `id` names: one id, every id starting with `id-` or equal to it, or `all`.
pub fn select(id: &str) -> Result<Vec<Item>> {
    let all = items();
    if id == "all" {
        return Ok(all);
    }
    let ids: Vec<&'static str> = all.iter().map(|i| i.id).collect();
    let chosen: Vec<Item> =
        all.into_iter().filter(|i| i.id == id || i.id.starts_with(&format!("{id}-"))).collect();
    if chosen.is_empty() {
        let near = crate::sweep::closest(id, ids.iter().copied());
        return Err(invalid(format!(
            "no page {id:?}{}: `netwrap reproduce list` prints the ids ({} pages; a prefix such as agarwal-1991 or homework names several, `all` every one)",
            near.map(|n| format!(" (did you mean {n}?)")).unwrap_or_default(),
            ids.len()
        )));
    }
    Ok(chosen)
}

/// A number with `decimals` decimals (NaN as "—").
pub(crate) fn fmt(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:.decimals$}") } else { "—".into() }
}

/// (a − b)/b in percent, signed.
pub(crate) fn pct(a: f64, b: f64) -> String {
    format!("{:+.1}%", (a / b - 1.0) * 100.0)
}

/// An optional number, NaN when absent (every comparison with it fails).
pub(crate) fn nan(x: Option<f64>) -> f64 {
    x.unwrap_or(f64::NAN)
}

/// A 95% half-width as a check widens by it: a point too short for an honest interval (NaN
/// here, "± —" on its page) counts its latency alone.
pub(crate) fn width(ci: f64) -> f64 {
    if ci.is_nan() { 0.0 } else { ci }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page has its own id, and every experiment file a page names is embedded.
    #[test]
    fn ids_are_distinct_and_sources_embedded() {
        let all = items();
        let ids: std::collections::BTreeSet<&str> = all.iter().map(|i| i.id).collect();
        assert_eq!(ids.len(), all.len());
        for (name, text) in EXPERIMENTS {
            assert!(Sweep::from_toml(text).is_ok(), "{name}");
            assert!(text.contains(&format!("netwrap run {EXPERIMENT_DIR}/{name}.toml")), "{name}");
        }
        assert!(select("agarwal-1991-fig-55").unwrap_err().to_string().contains("no page"));
        assert_eq!(select("agarwal-1991").unwrap().len(), 14);
    }

    /// The model pages and the tables compute without simulating, and their checks pass.
    #[test]
    fn pages_without_simulation_pass_their_checks() {
        let mut ctx = Ctx::with_runner(true, |_, _| panic!("nothing to simulate"));
        for item in items().iter().filter(|i| !matches!(i.kind, Kind::Runs | Kind::Channels | Kind::Accuracy))
        {
            let data = item.data(&mut ctx).unwrap();
            let page = item.page(&data).unwrap();
            assert_eq!(page.tally().fail, 0, "{}: {:?}", item.id, page.claims);
        }
    }
}
