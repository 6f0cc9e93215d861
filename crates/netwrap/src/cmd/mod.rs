//! One module per subcommand.

pub mod bench;
pub mod cost;
pub mod design;
pub mod details;
pub mod figure;
pub mod legacy;
pub mod model;
pub mod sim;
pub mod topo;
