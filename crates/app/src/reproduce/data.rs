//! The pages' data, typed: [`Data`] is one of the tables below. Each row type's fields are its
//! CSV columns, in order.

use crate::error::{Error, Result};
use crate::row::Row;
use crate::simulation::Simulation;
use crate::sweep::Point;
use netwrap_sim::report::ChannelStats;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A page's data.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// Simulated points.
    Runs(Runs),
    /// Every channel's statistics at each simulated point.
    Channels(Vec<ChannelRow>),
    /// A model's curves (Agarwal 1991 Figs. 6–16).
    Model(Vec<ModelPoint>),
    /// Networks built and measured, beside a table's formulas (Puente et al. Table 1).
    Networks(Vec<NetworkRow>),
    /// Packaging costs beside Raghunath & Ranade's Table I formulas.
    Modules(Vec<ModuleRow>),
    /// Packaging costs beside Raghunath & Ranade's printed Table II.
    TableII(Vec<TableIIRow>),
    /// Rings measured beside the homework's Ex 4 derivation.
    Rings(Vec<RingRow>),
    /// A design search's candidates (the homework's Ex 7).
    Designs(Vec<DesignRow>),
    /// The feedback model against the open one (the homework's Ex 8).
    Feedback(Vec<FeedbackRow>),
    /// The per-channel model against simulation, case by case and load by load.
    Accuracy(Vec<AccuracyRow>),
}

/// The form of a page's [`Data`] (its variant), to read an earlier run's data back as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Kind {
    Runs,
    Channels,
    Model,
    Networks,
    Modules,
    TableII,
    Rings,
    Designs,
    Feedback,
    Accuracy,
}

macro_rules! variants {
    ($($variant:ident($t:ty) => $get:ident),* $(,)?) => {
        impl Data {
            /// Its form.
            pub fn kind(&self) -> Kind {
                match self { $(Data::$variant(_) => Kind::$variant),* }
            }
            $(
                #[doc = concat!("The data as [`Data::", stringify!($variant), "`], or an error naming the form they have.")]
                pub fn $get(&self) -> Result<&$t> {
                    match self {
                        Data::$variant(d) => Ok(d),
                        other => Err(wrong(Kind::$variant, other.kind())),
                    }
                }
            )*
        }
    };
}

variants! {
    Runs(Runs) => runs,
    Channels(Vec<ChannelRow>) => channels,
    Model(Vec<ModelPoint>) => model,
    Networks(Vec<NetworkRow>) => networks,
    Modules(Vec<ModuleRow>) => modules,
    TableII(Vec<TableIIRow>) => table_ii,
    Rings(Vec<RingRow>) => rings,
    Designs(Vec<DesignRow>) => designs,
    Feedback(Vec<FeedbackRow>) => feedback,
    Accuracy(Vec<AccuracyRow>) => accuracy,
}

fn wrong(wanted: Kind, got: Kind) -> Error {
    Error::Invalid(format!("the page's data are {got:?}, not {wanted:?}"))
}

/// Simulated points: a sweep's [`Row`]s, with the swept paths they have (a swept table spread
/// over one path per field: `topology` = `{family = "mesh", k = 4}` is `topology.family` =
/// `"mesh"` and `topology.k` = 4, a field another point has and this one lacks null).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Runs {
    /// The swept paths, in order: each row's `parameters` has exactly these keys.
    pub parameters: Vec<String>,
    /// One row a point, in point order.
    pub rows: Vec<Row>,
}

/// A swept value's leaves under their dotted paths (lists stay whole, as in every netwrap CSV).
fn leaves(path: &str, v: &Value, into: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(fields) => {
            for (key, field) in fields {
                leaves(&format!("{path}.{key}"), field, into);
            }
        }
        other => into.push((path.to_string(), other.clone())),
    }
}

impl Runs {
    /// The rows of `done` (points of a sweep over `parameters`, each with its simulation),
    /// tables spread over columns.
    pub fn of<'p>(
        parameters: &[String],
        done: impl IntoIterator<Item = (&'p Point, &'p Simulation)>,
    ) -> Runs {
        let rows: Vec<Row> = done.into_iter().map(|(p, s)| Row::of(p, s)).collect();
        // Each row's leaves, parameter by parameter.
        let spread: Vec<Vec<Vec<(String, Value)>>> = rows
            .iter()
            .map(|r| {
                parameters
                    .iter()
                    .map(|p| {
                        let mut out = Vec::new();
                        leaves(p, r.parameters.get(p).unwrap_or(&Value::Null), &mut out);
                        out
                    })
                    .collect()
            })
            .collect();
        // Each parameter's columns in the order they first appear, parameter by parameter.
        let mut columns: Vec<String> = Vec::new();
        for i in 0..parameters.len() {
            for row in &spread {
                for (path, _) in &row[i] {
                    if !columns.contains(path) {
                        columns.push(path.clone());
                    }
                }
            }
        }
        let rows = rows
            .into_iter()
            .zip(spread)
            .map(|(mut r, leaves)| {
                let mut parameters: Map<String, Value> =
                    columns.iter().map(|c| (c.clone(), Value::Null)).collect();
                for (path, v) in leaves.into_iter().flatten() {
                    parameters.insert(path, v);
                }
                r.parameters = parameters;
                r
            })
            .collect();
        Runs { parameters: columns, rows }
    }

    /// The rows `keep` accepts.
    pub fn filter(&self, keep: impl Fn(&Row) -> bool) -> Runs {
        Runs {
            parameters: self.parameters.clone(),
            rows: self.rows.iter().filter(|r| keep(r)).cloned().collect(),
        }
    }

    /// The rows whose parameter `path` is the number `value`.
    pub fn at(&self, path: &str, value: f64) -> Runs {
        self.filter(|r| r.num(path) == value)
    }

    /// The first row `keep` accepts: an error naming `what` if none does.
    pub fn find(&self, what: &str, keep: impl Fn(&Row) -> bool) -> Result<&Row> {
        self.rows
            .iter()
            .find(|r| keep(r))
            .ok_or_else(|| Error::Invalid(format!("the data have no row for {what}")))
    }
}

/// A row's swept values by their paths.
pub trait Params {
    /// The value at `path`, if swept.
    fn param(&self, path: &str) -> Option<&Value>;

    /// The value at `path` as a number (NaN when absent or not a number: every comparison
    /// with it fails).
    fn num(&self, path: &str) -> f64 {
        self.param(path).and_then(Value::as_f64).unwrap_or(f64::NAN)
    }

    /// The value at `path` as its CSV cell holds it ("mesh", "0.04", or empty when absent).
    fn text(&self, path: &str) -> String {
        match self.param(path) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
        }
    }
}

impl Params for Row {
    fn param(&self, path: &str) -> Option<&Value> {
        self.parameters.get(path)
    }
}

/// One channel at one simulated point (a row of `netwrap run --channels`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelRow {
    /// The point's index in its sweep.
    pub point: u64,
    /// The point's network as the command line names it (`torus k=4 n=2 bidirectional=false`,
    /// [`crate::sweep::value_name`]): a heat map reads it back ([`crate::sweep::named_value`]).
    /// Empty when read from a file written before it was recorded.
    pub network: String,
    /// The channel's statistics.
    pub stats: ChannelStats,
}

impl ChannelRow {
    /// The channels of `point`, which ran as `s` recording them.
    pub fn of(point: &Point, s: &Simulation) -> Vec<ChannelRow> {
        let network = serde_json::to_value(&s.config.sim.topology)
            .map(|t| crate::sweep::value_name(&t))
            .unwrap_or_default();
        let channels = s.result.report.channels.iter().flatten();
        channels
            .map(|c| ChannelRow { point: point.index, network: network.clone(), stats: c.clone() })
            .collect()
    }

    /// Virtual channel `k`'s mean occupancy in flits (virtual-channel router only).
    pub fn vc(&self, k: usize) -> Option<f64> {
        self.stats.occupancy.as_ref()?.get(k).copied()
    }
}

/// One point of a model figure's curve (Agarwal 1991 Figs. 6–16).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelPoint {
    /// The panel, e.g. `7a`.
    pub figure: String,
    /// The name of the parameter that tells the curves apart, e.g. `nodes`.
    pub key_name: String,
    /// Its value on this curve, e.g. `1M`.
    pub key: String,
    /// The x variable's name, e.g. `dimension`.
    pub x_name: String,
    /// x.
    pub x: f64,
    /// The y variable's name, e.g. `latency`.
    pub y_name: String,
    /// y.
    pub y: f64,
}

/// A network built and measured beside Puente et al.'s Table 1 formulas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct NetworkRow {
    /// `mesh`, `torus` or `midimew`.
    pub network: String,
    pub nodes: u32,
    /// Channels / 2.
    pub links: u64,
    pub diameter: u32,
    /// Over ordered pairs of distinct nodes, exact.
    pub average_distance: f64,
    pub table_links: f64,
    pub table_diameter: f64,
    pub table_average_distance: f64,
}

/// An inter-module network's packaging cost beside Raghunath & Ranade's Table I formulas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct ModuleRow {
    pub modules: u32,
    pub topology: String,
    pub bisection: u64,
    pub pin_count: f64,
    pub bundles_per_module: u32,
    pub total_bundles: u64,
    pub table_pin_count: f64,
    pub table_bundles_per_module: f64,
    pub table_total_bundles: f64,
}

/// An inter-module network's packaging cost beside Raghunath & Ranade's printed Table II.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct TableIIRow {
    pub topology: String,
    pub bisection: u64,
    pub pin_count: f64,
    pub bundles_per_module: u32,
    pub total_bundles: u64,
    pub paper_pin_count: f64,
    pub paper_bundles_per_module: u32,
    pub paper_total_bundles: u64,
}

/// A unidirectional ring's mean hops, measured and derived (the homework's Ex 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct RingRow {
    pub k: u32,
    pub measured_distinct: f64,
    pub formula_distinct: f64,
    pub measured_with_self: f64,
    pub formula_with_self: f64,
}

/// A design search's candidate (the homework's Ex 7); `latency` absent where saturated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct DesignRow {
    pub rank: u64,
    pub n: u32,
    pub k: u32,
    pub nodes: u64,
    pub width: f64,
    pub flits: f64,
    pub k_d: f64,
    pub utilization: f64,
    pub latency: Option<f64>,
    pub margin: f64,
}

/// The feedback model beside the open one at one radix (the homework's Ex 8); `latency_open`
/// absent where the open model saturates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct FeedbackRow {
    pub k: u32,
    pub k_d: f64,
    pub latency_feedback: f64,
    pub processor_utilization: f64,
    pub latency_open: Option<f64>,
    pub slope: f64,
}

/// One case of the model's characterisation at one load, or a case the model refuses
/// (`refused` its reason, the numbers empty): the network, its routing and pattern, the
/// router, and at the offered load ρ (a fraction of the model's bandwidth bound, where the
/// busiest channel or link would carry one flit a cycle unblocked) the simulated latency with
/// its 95% half-width and the model's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccuracyRow {
    /// The family and size, as `netwrap sim` names it (`torus k=8 n=2`).
    pub network: String,
    /// The routing algorithm.
    pub routing: String,
    /// The destination pattern.
    pub pattern: String,
    /// `ideal`, `wormhole` or `vct`.
    pub router: String,
    /// Offered load as a fraction of the model's bandwidth bound.
    pub rho: Option<f64>,
    /// Messages a terminal creates per cycle.
    pub rate: Option<f64>,
    /// The simulated latency (none where the run did not settle).
    pub latency: Option<f64>,
    /// Its 95% confidence half-width (none where too few batches give an honest one).
    pub latency_ci95: Option<f64>,
    /// The run's verdict (`ok`: settled below saturation; `saturated`, `limit-reached`,
    /// `deadlock`, `not-steady`).
    pub verdict: Option<String>,
    /// The model's latency (none where it saturates).
    pub model_latency: Option<f64>,
    /// The model's own saturation (its highest rate) as a fraction of the bandwidth bound.
    pub model_saturation: Option<f64>,
    /// Why the model does not describe the case (empty where it does).
    pub refused: String,
}
