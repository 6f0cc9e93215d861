//! The simulator's integration tests, one binary: the engines on exact small cases and against
//! their references, every family, the virtual-channel router, and the workloads.

mod collective;
mod dragonfly;
mod engine;
mod families;
mod hyperx;
mod standard_traces;
mod vc;
mod workload;
