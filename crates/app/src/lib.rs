//! netwrap's typed facade: what every front end calls. The command line (`netwrap`) parses
//! its flags into these types, calls a function here and renders the result; the Python
//! package deserialises its dicts into the same types and hands the results back as dicts
//! and DataFrames. Nothing here prints, parses a command line or draws.
//!
//! - Simulation: a [`Spec`] as written (the sections of a [`netwrap_sim::SimSpec`] and an
//!   optional `model` section) is resolved once into a [`Job`]; [`simulate`] runs one,
//!   [`Sweep`] expands an experiment file into [`Point`]s, [`run_points`] runs them (each
//!   network built once) and [`run_point`] one alone (a distributed sweep's task); each gives
//!   a [`Simulation`], which [`Row`] flattens into a tidy row.
//! - Studies: the saturation search ([`saturation`]) and the static deadlock check
//!   ([`check`]).
//! - Topologies: [`topo`] builds one and measures it exactly; [`cost`] prices the
//!   inter-module networks' packaging.
//! - The analytical models: [`predict`], one function per model, each taking its request
//!   ([`netwrap_model::request`], the command's flags as one serde type) and giving the report
//!   `netwrap model … --json` prints; [`design`] searches the k-ary n-cubes that meet a width
//!   constraint and simulates the best.
//! - The model beside the simulation: [`compare`].
//! - The papers' figures and tables, computed and checked: [`reproduce`].
#![deny(missing_docs)]

pub mod compare;
mod cost;
mod design;
mod error;
pub mod predict;
pub mod reproduce;
pub mod row;
mod simulation;
pub mod spec;
mod studies;
pub mod sweep;
mod topology;

pub use cost::{CostReport, cost};
pub use design::{DesignReport, Simulated, design};
pub use error::{Error, Result};
pub use row::Row;
pub use simulation::{Builds, Simulation, run_on, run_point, run_points, simulate};
pub use spec::{Job, ModelSpec, Spec};
pub use studies::{Saturation, SaturationModel, check, saturation};
pub use sweep::{Point, Sweep};
pub use topology::{Layout, TopoConfig, TopoReport, topo};
