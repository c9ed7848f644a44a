//! Golden tests of the messages `slink` prints for malformed rule files.
//!
//! Each case is a directory `tests/golden/<case>/` holding one or more `*.rules` files and
//! `expected.stderr`. The test runs `slink --rules tests/golden/<case> tests/data/sample.in`
//! from the crate root (so the paths in the messages are relative and stable), expects exit
//! status 2, nothing on stdout, and stderr equal to `expected.stderr` byte for byte.
//!
//! To accept the current messages as the new expectation, run
//! `UPDATE_GOLDEN=1 cargo test --release --test rule_diagnostics` and review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_slink");

/// Cases that must exist (more may be added freely).
const REQUIRED_CASES: &[&str] = &[
    "bad_glyph",
    "bad_cell_glyph",
    "unknown_keyword",
    "missing_then",
    "dropped_premise",
    "changed_premise",
    "clue_five",
    "shape_mismatch",
    "unknown_deducer",
    "replacing_deducer",
    "bad_replacement",
    "duplicate_name",
    "misspelled_header",
    "ends_inside_rule",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> Vec<String> {
    let mut cases: Vec<String> = std::fs::read_dir(root().join("tests/golden"))
        .expect("tests/golden is readable")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    cases.sort();
    cases
}

fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Checks that every `FILE:LINE:COLUMN: error:` line names a rule file of the case and a
/// position inside it (column at most one past the end of the line).
fn check_positions(case: &str, stderr: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let prefix = format!("tests/golden/{case}/");
    let mut diagnostics = 0;
    for line in stderr.lines() {
        let Some(head) = line
            .split(": error: ")
            .next()
            .filter(|_| line.contains(": error: "))
        else {
            continue;
        };
        diagnostics += 1;
        let mut parts = head.rsplitn(3, ':');
        let (Some(column), Some(line_no), Some(file)) = (parts.next(), parts.next(), parts.next())
        else {
            problems.push(format!("{case}: no FILE:LINE:COLUMN in `{line}`"));
            continue;
        };
        let (Ok(column), Ok(line_no)) = (column.parse::<usize>(), line_no.parse::<usize>()) else {
            problems.push(format!("{case}: no FILE:LINE:COLUMN in `{line}`"));
            continue;
        };
        if !file.starts_with(&prefix) || !file.ends_with(".rules") {
            problems.push(format!("{case}: `{line}` names a file outside the case"));
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root().join(file)) else {
            problems.push(format!("{case}: `{line}` names a missing file"));
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        if line_no == 0 || line_no > lines.len() {
            problems.push(format!("{case}: `{line}`: line {line_no} is not in {file}"));
            continue;
        }
        let length = lines[line_no - 1].chars().count();
        if column == 0 || column > length + 1 {
            problems.push(format!(
                "{case}: `{line}`: column {column} is past the end of line {line_no} ({length} characters)"
            ));
        }
    }
    if diagnostics == 0 {
        problems.push(format!("{case}: no `FILE:LINE:COLUMN: error:` line at all"));
    }
    problems
}

#[test]
fn malformed_rule_files_give_the_expected_messages() {
    let cases = cases();
    for required in REQUIRED_CASES {
        assert!(
            cases.iter().any(|c| c == required),
            "golden case tests/golden/{required} is missing"
        );
    }
    let update = updating();
    let mut failures = Vec::new();
    for case in &cases {
        let dir = format!("tests/golden/{case}");
        let has_rules = std::fs::read_dir(root().join(&dir))
            .unwrap()
            .any(|e| e.unwrap().path().extension().is_some_and(|x| x == "rules"));
        assert!(has_rules, "{dir} holds no .rules file");
        let output = Command::new(BIN)
            .args(["--rules", &dir, "tests/data/sample.in"])
            .current_dir(root())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        if stderr.contains("panicked") {
            failures.push(format!("{case}: the binary panicked:\n{stderr}"));
            continue;
        }
        if output.status.code() != Some(2) {
            failures.push(format!(
                "{case}: exit status {:?}, expected 2; stderr:\n{stderr}",
                output.status.code()
            ));
        }
        if !stdout.is_empty() {
            failures.push(format!(
                "{case}: something was solved with broken rules:\n{stdout}"
            ));
        }
        failures.extend(check_positions(case, &stderr));
        let expected_path: PathBuf = root().join(&dir).join("expected.stderr");
        if update {
            std::fs::write(&expected_path, &stderr).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == stderr => {}
            Ok(expected) => failures.push(format!(
                "{case}: stderr differs from {dir}/expected.stderr\n--- expected\n{expected}--- got\n{stderr}---"
            )),
            Err(e) => failures.push(format!(
                "{case}: cannot read {dir}/expected.stderr ({e}); run with UPDATE_GOLDEN=1 to create it"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_golden_case_with_two_files_really_has_two_files() {
    // The duplicate-name case only means something across files.
    let count = std::fs::read_dir(root().join("tests/golden/duplicate_name"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "rules")
        })
        .count();
    assert_eq!(count, 2);
}
