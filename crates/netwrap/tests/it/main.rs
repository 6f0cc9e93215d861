//! netwrap's integration tests, one binary (one link on CI): the command line as a user meets
//! it, the pipeline's promises (round trip, sweeps, shards, goldens), and validation against
//! the models and the papers.

mod cli;
mod docs;
mod goldens;
mod models;
mod pipeline;
mod topo;
mod validation;

use assert_cmd::Command;
use serde_json::Value;

/// The binary under test.
pub fn netwrap() -> Command {
    Command::cargo_bin("netwrap").unwrap()
}

/// Runs `args` (which must succeed) and parses standard output as JSON.
pub fn json(args: &[&str]) -> Value {
    let out = netwrap().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A fresh scratch directory under the system's temporary directory.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("netwrap-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The repository's root.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
