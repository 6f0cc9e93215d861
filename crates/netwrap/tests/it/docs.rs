//! The numbers in the docs come from the commands shown beside them: every ```` ```console ````
//! block of the README and of `docs/*.md` is run again and its output compared.
//!
//! In a console block, a line starting with `$ ` is a command (run by `sh` from the
//! repository's root, with this build of `netwrap` first on the PATH); the lines up to the
//! next command are its expected standard output, exactly, except that a line holding only `…`
//! stands for any number of lines. Output that changes from run to run (timings) belongs in
//! ```` ```text ```` blocks, which are not checked. `NETWRAP_BLESS=1` rewrites stale outputs in
//! place (review the diff).

use crate::root;
use std::path::Path;

struct Snippet {
    file: String,
    /// 1-based line of the command.
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn snippets(path: &Path) -> Vec<Snippet> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    let mut out: Vec<Snippet> = Vec::new();
    let mut inside = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside && line.trim() == "```console";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.push(Snippet {
                file: file.clone(),
                line: i + 1,
                command: cmd.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(s) = out.last_mut() {
            s.expected.push(line.to_string());
        }
    }
    out
}

/// Whether `actual` matches `expected`, where a `…` line matches any run of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == "…" => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((e, rest)) => actual.first().is_some_and(|a| a == e) && matches(rest, &actual[1..]),
    }
}

#[test]
fn console_blocks_in_the_docs_are_current() {
    let bin = assert_cmd::cargo::cargo_bin("netwrap");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut files = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "md") {
            files.push(p);
        }
    }
    files.sort();
    let bless = std::env::var_os("NETWRAP_BLESS").is_some();
    let mut checked = 0;
    let mut stale = Vec::new();
    for f in &files {
        let mut lines: Vec<String> =
            std::fs::read_to_string(f).unwrap().lines().map(str::to_string).collect();
        let mut shift: isize = 0;
        for s in snippets(f) {
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(&s.command)
                .current_dir(root())
                .env("PATH", &path)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            let actual: Vec<&str> = text.lines().collect();
            if !matches(&s.expected, &actual) {
                if bless {
                    let at = (s.line as isize + shift) as usize;
                    lines.splice(at..at + s.expected.len(), actual.iter().map(|l| l.to_string()));
                    shift += actual.len() as isize - s.expected.len() as isize;
                } else {
                    stale.push(format!("{}:{}: `{}` now prints:\n{text}", s.file, s.line, s.command));
                }
            }
            checked += 1;
        }
        if bless {
            std::fs::write(f, lines.join("\n") + "\n").unwrap();
        }
    }
    assert!(stale.is_empty(), "{} stale doc snippets:\n{}", stale.len(), stale.join("\n"));
    assert!(checked >= 10, "only {checked} console blocks found");
}

#[test]
fn ellipsis_matches_any_lines() {
    let e: Vec<String> = ["a", "…", "d"].iter().map(|s| s.to_string()).collect();
    assert!(matches(&e, &["a", "b", "c", "d"]));
    assert!(matches(&e, &["a", "d"]));
    assert!(!matches(&e, &["a", "b"]));
}
