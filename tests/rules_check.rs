//! `slink rules check` run as a program: the built-in set, and fixture sets under `tests/fixtures/check/` with unsound, never-firing, loop-dependent, overlapping and malformed rules.

use std::path::Path;
use std::process::{Command, Output};

/// Runs the built binary as `slink rules check [dir]` from the crate root (so that paths in its
/// messages are relative and stable).
fn check(dir: Option<&str>) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_slink"));
    cmd.current_dir(root).args(["rules", "check"]);
    if let Some(dir) = dir {
        cmd.arg(dir);
    }
    cmd.output().expect("the slink binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The last line of the report: `N rules: S sound, U unsound[, K never fire(s)]; W warnings`.
fn summary(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

#[test]
fn builtin_set_gets_one_line_per_rule_and_a_summary() {
    let out = check(None);
    let text = stdout(&out);
    let last = summary(&text);
    assert!(
        last.contains(" rules: ") && last.contains(" sound, "),
        "{text}"
    );
    let rules: usize = last.split(' ').next().unwrap().parse().expect("a count");
    let verdicts = text
        .lines()
        .filter(|l| {
            l.starts_with("ok      ") || l.starts_with("UNSOUND ") || l.starts_with("NEVER   ")
        })
        .count();
    assert_eq!(verdicts, rules, "{text}");
    for line in text.lines().filter(|l| l.starts_with("ok      ")) {
        assert!(
            line.contains("(rules/") && line.contains(".rules:"),
            "{line}"
        );
    }
    // Exit 0 exactly when every rule is sound and fires somewhere.
    let clean = last.contains(" 0 unsound") && !last.contains("never");
    assert_eq!(out.status.code(), Some(if clean { 0 } else { 1 }), "{text}");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn an_unsound_rule_is_reported_with_a_counterexample_picture() {
    let out = check(Some("tests/fixtures/check/unsound"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("ok      zero (tests/fixtures/check/unsound/ones.rules:4)\n"),
        "{text}"
    );
    assert!(
        text.contains("UNSOUND one-wrong-side (tests/fixtures/check/unsound/ones.rules:14)\n"),
        "{text}"
    );
    assert!(
        text.contains("the conclusion's line on the 1's bottom side, at (2, 1), is a cross"),
        "{text}"
    );
    // The picture: the crossed top side, the 1, and its one line on the left or right.
    let picture: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("UNSOUND"))
        .filter(|l| l.starts_with("            "))
        .map(str::trim_end)
        .collect();
    assert!(picture.len() >= 3, "{text}");
    assert!(
        picture.iter().any(|l| l.trim().starts_with("+ x +")),
        "{picture:?}"
    );
    assert!(
        picture
            .iter()
            .any(|l| l.trim() == "| 1" || l.trim() == "1 |"),
        "{picture:?}"
    );
    assert_eq!(summary(&text), "2 rules: 1 sound, 1 unsound; 0 warnings");
}

#[test]
fn a_syntax_error_exits_2_naming_file_line_and_column() {
    let out = check(Some("tests/fixtures/check/syntax"));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("tests/fixtures/check/syntax/broken.rules:5:4: error:"),
        "{err}"
    );
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn a_missing_directory_exits_2() {
    let out = check(Some("tests/fixtures/check/no-such-dir"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no-such-dir"), "{}", stderr(&out));
}

#[test]
fn a_rule_needing_the_single_loop_law_says_so() {
    let out = check(Some("tests/fixtures/check/loop"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("UNSOUND no-early-loop ("), "{text}");
    assert!(
        text.contains("sound only given a single loop: mark it `assumes single-loop`"),
        "{text}"
    );
    assert!(
        text.contains("ok      no-early-loop-marked (tests/fixtures/check/loop/loop.rules:15)  (given a single loop)"),
        "{text}"
    );
    assert_eq!(summary(&text), "2 rules: 1 sound, 1 unsound; 0 warnings");
}

#[test]
fn a_rule_that_can_never_fire_is_an_error() {
    let out = check(Some("tests/fixtures/check/never"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with("NEVER   zero-with-a-line (tests/fixtures/check/never/never.rules:3)\n"),
        "{text}"
    );
    assert!(text.contains("can never fire"), "{text}");
    assert_eq!(
        summary(&text),
        "1 rule: 0 sound, 0 unsound, 1 never fires; 0 warnings"
    );
}

#[test]
fn duplicates_and_subsumed_rules_are_warnings() {
    let out = check(Some("tests/fixtures/check/overlap"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "warning: `one-upside-down` (tests/fixtures/check/overlap/overlap.rules:13) duplicates \
             `one-has-its-line` (tests/fixtures/check/overlap/overlap.rules:3)\n         \
             `one-upside-down` under rotate-180 is `one-has-its-line` as drawn, moved\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "warning: `one-weaker` (tests/fixtures/check/overlap/overlap.rules:23) is subsumed by \
             `one-has-its-line` (tests/fixtures/check/overlap/overlap.rules:3)\n"
        ),
        "{text}"
    );
    assert_eq!(text.matches("warning: ").count(), 3, "{text}");
    assert_eq!(summary(&text), "3 rules: 3 sound, 0 unsound; 3 warnings");
}
