//! Analytical models of interconnection network performance.
//!
//! Pure functions and small solvers; every public model names the seed document and the
//! equation it implements, so a reader can check it against the page. Seeds are the files in
//! `shared/seeds/`: 000 Agarwal, *Limits on Interconnection Network Performance*; 004 the
//! netwrap homework and its appendices B–D.
//!
//! Predictions share field names with simulation reports (`utilization`, `latency`,
//! `throughput`, …) so the two can be printed side by side.
#![deny(missing_docs)]

pub mod agarwal;
pub mod design;
mod error;
pub mod exercises;
pub mod fat_tree;
pub mod feedback;
pub mod figures;
pub mod indirect;
pub mod kary_ncube;

pub use error::ModelError;
