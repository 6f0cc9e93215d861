//! Analytical models of interconnection network performance.
//!
//! Pure functions and small solvers; every public model names the paper and the equation it
//! implements, so a reader can check it against the page. The papers: Agarwal 1991, *Limits
//! on Interconnection Network Performance*; Greenberg & Guan, *An Improved Analytical Model
//! for Wormhole Routed Networks with Application to Butterfly Fat-Trees*; and the homework
//! (the netwrap course homework, its Appendices B–D and exercises Ex 1–8).
//!
//! - [`kary_ncube`]: the k-ary n-cube contention model on whole radices (Agarwal 1991 §3, the
//!   homework's App. B), as the simulator comparisons use it; [`kary_ncube::predict`] with
//!   [`kary_ncube::ContentionForm::Auto`] is the one rule for the contention form.
//! - [`agarwal`]: Agarwal 1991's pieces on real numbers: the switch arrival distribution,
//!   eqs. 3–12, wire lengths, channel widths under each constraint.
//! - [`indirect`]: buffered multistage networks (Agarwal 1991 eqs. 13–14, the homework's App. C).
//! - [`feedback`]: processor utilisation with feedback (the homework's App. D).
//! - [`fat_tree`]: the wormhole butterfly fat-tree (Greenberg & Guan).
//! - [`network`]: a queue on every channel of any network, Agarwal 1991 eqs. 3–8 generalised
//!   (its input streams from the simulator's turn flows).
//! - [`figures`]: Agarwal 1991's Figures 6–16 as data.
//! - [`design`]: constrained design search (the homework's Ex 7).
//! - [`exercises`]: the homework's Ex 4 and Ex 6.
//! - [`request`]: what the front ends ask of the models, of `cost` and of `design`, one
//!   serde type per command, resolved once into the models' parameters (with the `cli`
//!   feature, each is also the command's flags).
//!
//! Predictions share field names with simulation reports (`utilization`, `latency`,
//! `throughput`, …) so the two can be printed side by side. Every input is validated before
//! any formula runs; a message names the parameter and what it takes in words, and no model
//! returns NaN or an infinite latency as an answer.
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
pub mod network;
pub mod request;

pub use error::ModelError;
