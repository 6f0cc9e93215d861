//! One module per subcommand.

pub mod bench;
pub mod legacy;
pub mod model;
pub mod sim;
