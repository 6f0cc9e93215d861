//! One module per subcommand.

pub mod bench;
pub mod details;
pub mod legacy;
pub mod model;
pub mod sim;
