//! One module per subcommand, plus the runner and detail file they share.

pub mod bench;
pub mod check;
pub mod cost;
pub mod design;

pub mod figure;
pub mod legacy;
pub mod merge;
pub mod model;
pub mod plot;
pub mod reproduce;
pub mod run;

pub mod saturation;
pub mod sim;
pub mod topo;
