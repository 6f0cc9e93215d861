//! The facade's integration tests, one binary.

mod models;
mod network_model;
mod vc_network_model;
