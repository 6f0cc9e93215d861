//! Golden outputs: small seeded runs whose exact output is checked in under
//! `crates/netwrap/tests/golden/` and compared on every run.
//!
//! These are *characterisations*, not verifications: they pin what netwrap printed when the
//! goldens were last reviewed, so any change to a number — an engine change, a statistics
//! change, a changed default — fails here and must be looked at. After a deliberate change,
//! regenerate them with `NETWRAP_BLESS=1 cargo test --test it goldens` and review the diff.

use crate::{netwrap, root};

/// (file, arguments, expected exit status).
const CASES: &[(&str, &[&str], i32)] = &[
    ("homework-ex1.txt", &["64", "2000", "9999999", "0.04", "4", "8", "/dev/null", "1.0"], 0),
    ("homework-saturated.txt", &["64", "1000", "9999999", "0.05", "6", "8", "/dev/null", "1.0"], 3),
    ("homework-limit.txt", &["64", "1000", "10000", "0.001", "4", "8", "/dev/null", "1.0"], 5),
    ("sim-default.json", &["sim", "--messages", "2000", "--model", "--json"], 0),
    ("sim-locality.json", &["sim", "--locality", "0.5", "--rate", "0.02", "--messages", "2000", "--json"], 0),
    (
        "sim-midimew.json",
        &["sim", "--rate", "0.05", "--messages", "2000", "--json", "midimew", "--nodes", "32"],
        0,
    ),
    (
        "sim-fat-tree.json",
        &["sim", "--rate", "0.02", "--messages", "2000", "--json", "fat-tree", "--nodes", "64"],
        0,
    ),
    (
        "sim-two-level.json",
        &[
            "sim",
            "--rate",
            "0.05",
            "--messages",
            "2000",
            "--json",
            "two-level",
            "Butterfly.16.8",
            "--nodes",
            "64",
            "--modules",
            "8",
        ],
        0,
    ),
    (
        "sim-butterfly-model.json",
        &["sim", "--rate", "0.1", "--messages", "2000", "--model", "--json", "butterfly", "--stages", "5"],
        0,
    ),
    ("sim-saturated.json", &["sim", "--rate", "0.08", "--messages", "2000", "--json"], 3),
    (
        "sim-vc-bubble.json",
        &[
            "sim",
            "torus",
            "--k",
            "8",
            "--bidirectional",
            "--router",
            "vc",
            "--vcs",
            "1",
            "--buffer",
            "16",
            "--packet",
            "4",
            "--switching",
            "vct",
            "--deadlock",
            "bubble",
            "--pattern",
            "uniform-others",
            "--load",
            "0.27",
            "--messages",
            "2000",
            "--json",
        ],
        0,
    ),
    (
        "sim-vc-wormhole-mesh.json",
        &[
            "sim",
            "mesh",
            "--k",
            "4",
            "--n",
            "2",
            "--router",
            "vc",
            "--vcs",
            "2",
            "--buffer",
            "4",
            "--packet",
            "8",
            "--size",
            "16",
            "--router-delay",
            "2",
            "--rate",
            "0.01",
            "--messages",
            "1000",
            "--json",
        ],
        0,
    ),
    (
        "sim-vc-deadlock.txt",
        &[
            "sim",
            "torus",
            "--k",
            "4",
            "--router",
            "vc",
            "--vcs",
            "1",
            "--buffer",
            "4",
            "--size",
            "16",
            "--rate",
            "1",
            "--messages",
            "500",
        ],
        4,
    ),
    (
        "sim-transpose-bimodal.json",
        &[
            "sim",
            "--pattern",
            "transpose",
            "--size",
            "20",
            "--long-size",
            "200",
            "--long-fraction",
            "0.1",
            "--load",
            "0.1",
            "--messages",
            "2000",
            "--json",
            "midimew",
            "--nodes",
            "64",
        ],
        0,
    ),
    ("sim-sweep.txt", &["sim", "--rates", "0.01,0.03,0.05,0.07,0.09", "--messages", "2000", "--model"], 0),
];

#[test]
fn outputs_match_the_checked_in_goldens() {
    let dir = root().join("crates/netwrap/tests/golden");
    let bless = std::env::var_os("NETWRAP_BLESS").is_some();
    let mut stale = Vec::new();
    for (file, args, status) in CASES {
        let out = netwrap().args(*args).output().unwrap();
        assert_eq!(out.status.code(), Some(*status), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        let path = dir.join(file);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &out.stdout).unwrap();
            continue;
        }
        let expected =
            std::fs::read(&path).unwrap_or_else(|_| panic!("no golden {}: bless it", path.display()));
        if expected != out.stdout {
            stale.push(*file);
        }
    }
    assert!(
        stale.is_empty(),
        "outputs differ from the goldens: {stale:?} (NETWRAP_BLESS=1 to regenerate after review)"
    );
}
