//! The topology crate from the outside: one test binary (a module per concern).

mod candidates;
mod dragonfly;
mod families;
mod metrics_bounds;
mod sizes;
mod slimfly;
