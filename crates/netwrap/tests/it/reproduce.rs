//! `netwrap reproduce`: every page of the papers' figures and tables runs quickly and its
//! checks pass; the committed full run (docs/reproduce) is current.

use crate::{netwrap, root, scratch};
use std::collections::BTreeSet;
use std::path::Path;

/// The page ids `reproduce list` prints.
fn ids() -> Vec<String> {
    let out = netwrap().args(["reproduce", "list"]).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

fn files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

/// The pages whose data a quick run computes exactly as the full run does (models, topology
/// and cost, and the homework's runs of 2,000 messages, which a quick run does not shorten):
/// their committed CSVs must equal a quick run's.
fn same_when_quick(id: &str) -> bool {
    let simulated_in_full = [
        "agarwal-1991-figs-2-4",
        "agarwal-1991-figs-2-3-sizes",
        "agarwal-1991-fig-5",
        "puente-1999-fig-6",
        "puente-1999-fig-7",
        "puente-1999-fig-8",
        "greenberg-guan-1997-fig-3",
        "raghunath-ranade-1995-fig-4",
        "raghunath-ranade-1995-fig-5",
        "raghunath-ranade-1995-fig-6",
        "raghunath-ranade-1995-fig-7",
        "raghunath-ranade-1995-fig-8",
        "kim-2008-dragonfly-routing",
        "petrini-vanneschi-1997-kary-ntree",
        "netwrap-model-accuracy",
    ];
    !simulated_in_full.contains(&id)
}

/// Pages that are tables or single numbers.
const WITHOUT_PICTURES: [&str; 7] = [
    "puente-1999-table-1",
    "raghunath-ranade-1995-table-1",
    "raghunath-ranade-1995-table-2",
    "homework-ex-1",
    "homework-ex-3",
    "homework-ex-6",
    "homework-ex-7",
];

/// Verification of the papers' stated conclusions, on fewer messages: every page is written
/// (CSV, pictures, page), every check passes (status 0), the index links every page, and the
/// pages computed without shortened runs equal the committed ones.
#[test]
fn reproduce_all_quick_passes_every_check() {
    let dir = scratch("reproduce-quick");
    let out = netwrap().args(["reproduce", "all", "--quick", "--quiet", "--out"]).arg(&dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(!stdout.contains("CHECKS FAIL"), "{stdout}");
    let written = files(&dir);
    let index = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let committed = root().join("docs/reproduce");
    for id in ids() {
        for ext in ["csv", "md"] {
            assert!(written.contains(&format!("{id}.{ext}")), "{id}.{ext} missing");
        }
        let pictures: Vec<&String> = written
            .iter()
            .filter(|f| {
                f.ends_with(".svg") && (f.trim_end_matches(".svg") == id || f.starts_with(&format!("{id}-")))
            })
            .collect();
        assert_eq!(
            pictures.is_empty(),
            WITHOUT_PICTURES.contains(&id.as_str()),
            "{id}: pictures {pictures:?}"
        );
        assert!(index.contains(&format!("]({id}.md)")), "the index does not link {id}");
        let page = std::fs::read_to_string(dir.join(format!("{id}.md"))).unwrap();
        for svg in pictures {
            assert!(page.contains(&format!("]({svg})")), "{id}.md does not show {svg}");
        }
        if same_when_quick(&id) {
            let ours = std::fs::read_to_string(dir.join(format!("{id}.csv"))).unwrap();
            let theirs = std::fs::read_to_string(committed.join(format!("{id}.csv")))
                .unwrap_or_else(|_| panic!("docs/reproduce/{id}.csv is not committed"));
            assert_eq!(
                ours, theirs,
                "docs/reproduce/{id}.csv is stale: run `netwrap reproduce {id} --out docs/reproduce`"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The committed pictures and pages are what the committed CSVs give: `--replot` redraws
/// them all, byte for byte (a stale picture or page fails here).
#[test]
fn committed_pages_and_pictures_are_current() {
    let committed = root().join("docs/reproduce");
    let dir = scratch("reproduce-replot");
    for f in files(&committed).iter().filter(|f| f.ends_with(".csv")) {
        std::fs::copy(committed.join(f), dir.join(f)).unwrap();
    }
    let out =
        netwrap().args(["reproduce", "all", "--replot", "--quiet", "--out"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The index is written by the full run, with its wall time noted in docs/reproduce.md.
    for f in files(&dir) {
        let ours = std::fs::read(dir.join(&f)).unwrap();
        let theirs = std::fs::read(committed.join(&f))
            .unwrap_or_else(|_| panic!("docs/reproduce/{f} is not committed"));
        assert!(
            ours == theirs,
            "docs/reproduce/{f} is stale: run `netwrap reproduce all --replot --out docs/reproduce`"
        );
    }
    assert_eq!(files(&dir), files(&committed), "docs/reproduce holds files no page writes (or misses some)");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_ids_and_outputs_are_refused_with_status_2() {
    let out = netwrap().args(["reproduce", "agarwal-1991-fig-55"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no page \"agarwal-1991-fig-55\"") && err.contains("reproduce list"), "{err}");
    let out = netwrap().args(["reproduce", "homework-ex-4", "--out", "/dev/null"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a directory"));
    let dir = scratch("reproduce-replot-missing");
    let out = netwrap().args(["reproduce", "homework-ex-4", "--replot", "--out"]).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let out = netwrap().args(["reproduce", "homework-ex-4", "--replot", "--quick"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // --replot reads an earlier run's directory: it never makes one.
    let absent = dir.join("absent");
    let out =
        netwrap().args(["reproduce", "homework-ex-4", "--replot", "--out"]).arg(&absent).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a directory") && !absent.exists());
}

/// A page's CSV edited so that a stated conclusion no longer holds fails its check with
/// status 6, and the page says which statement.
#[test]
fn a_conclusion_that_fails_exits_6() {
    let dir = scratch("reproduce-fail");
    let csv = dir.join("homework-ex-4.csv");
    let ok = netwrap().args(["reproduce", "homework-ex-4", "--quiet", "--out"]).arg(&dir).output().unwrap();
    assert!(ok.status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    // k = 2's measured mean hops, made wrong.
    let broken = text.replacen("\n2,1,1,0.5,0.5\n", "\n2,1.5,1,0.5,0.5\n", 1);
    assert_ne!(broken, text, "{text}");
    std::fs::write(&csv, broken).unwrap();
    let out = netwrap().args(["reproduce", "homework-ex-4", "--replot", "--out"]).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&out.stdout).contains("check failed"));
    let page = std::fs::read_to_string(dir.join("homework-ex-4.md")).unwrap();
    assert!(page.contains("**no: check failed**"), "{page}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A page's CSV that is not what netwrap wrote is a malformed file (status 2) naming it, never
/// a conclusion that fails (status 6): a last row cut short (its last number may be a prefix of
/// the real one, "0.5" cut to "0."), a file of garbage.
#[test]
fn replot_refuses_a_cut_or_garbage_csv_naming_it() {
    let dir = scratch("reproduce-cut");
    let csv = dir.join("homework-ex-4.csv");
    let ok = netwrap().args(["reproduce", "homework-ex-4", "--quiet", "--out"]).arg(&dir).output().unwrap();
    assert!(ok.status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    let name = csv.display().to_string();
    for (broken, says) in [
        (&text[..text.len() - 2], "its last row is cut short"),
        (&text[..text.len() - 1], "its last row is cut short"),
        ("garbage\n", ""),
        ("\u{0}\u{1}", ""),
    ] {
        std::fs::write(&csv, broken).unwrap();
        let out =
            netwrap().args(["reproduce", "homework-ex-4", "--replot", "--out"]).arg(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{broken:?}: {err}");
        assert!(err.contains(&format!("in {name}")) && err.contains(says), "{broken:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
