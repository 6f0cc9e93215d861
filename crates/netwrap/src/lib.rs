//! The `netwrap` command line as a library: the binary (`main.rs`) is a thin `main` over
//! [`cli`], and the Python package (`python/`) calls the very same commands through [`api`],
//! so that a spec, a sweep or a model gives the same numbers, columns and error messages
//! whichever way it is run.

pub mod api;
pub mod args;
pub mod chart;
pub mod cli;
pub mod cmd;
pub mod details;
pub mod heatmap;
pub mod output;
pub mod progress;
pub mod runner;
