//! The `netwrap` command line as a library: the binary (`main.rs`) is a thin `main` over
//! [`cli`]. Every command computes through the facade (`netwrap-app`), which the Python
//! package (`python/`) calls too, so that a spec, a sweep or a model gives the same numbers
//! and fields whichever way it is run.

#![deny(missing_docs)]

pub mod args;
pub mod chart;
pub mod cli;
pub mod cmd;
pub mod details;
pub mod heatmap;
pub mod output;
pub mod pages;
pub mod progress;
pub mod runner;
pub mod table;
