//! One module per subcommand.

pub mod bench;
pub mod cost;
pub mod legacy;
pub mod model;
pub mod sim;
pub mod topo;
