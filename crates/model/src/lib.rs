//! Analytical models of interconnection network performance.
//!
//! Pure functions and small solvers; every public model names the seed document and the
//! equation it implements, so a reader can check it against the page. Seeds are the files in
//! `shared/seeds/`: 000 Agarwal, *Limits on Interconnection Network Performance*; 002
//! Greenberg and Guan, *An Improved Analytical Model for Wormhole Routed Networks with
//! Application to Butterfly Fat-Trees*; 004 the netwrap homework and its appendices B–D.
//!
//! - [`kary_ncube`]: the k-ary n-cube contention model on whole radices (seed 000 §3, seed
//!   004 App. B), as the simulator comparisons use it.
//! - [`agarwal`]: seed 000's pieces on real numbers: the switch arrival distribution,
//!   eqs. 3–12, wire lengths, channel widths under each constraint.
//! - [`indirect`]: buffered multistage networks (seed 000 eqs. 13–14, seed 004 App. C).
//! - [`feedback`]: processor utilisation with feedback (seed 004 App. D).
//! - [`fat_tree`]: the wormhole butterfly fat-tree (seed 002).
//! - [`figures`]: seed 000's Figures 6–16 as data.
//! - [`design`]: constrained design search (seed 004 Ex 7).
//! - [`exercises`]: seed 004 Ex 4 and Ex 6.
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
