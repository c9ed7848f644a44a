//! `slink rules test` run as a program: the built-in rules pass their examples, and a fixture of failing examples is reported outcome by outcome.

use std::path::Path;
use std::process::{Command, Output};

/// Runs the built binary with `args`; returns its output.
fn slink(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slink"))
        .args(args)
        .output()
        .expect("the slink binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn builtin_rules_pass_every_example_and_every_rule_has_one() {
    let out = slink(&["rules", "test"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("warning"), "{text}");
    let summary = text.lines().last().unwrap_or_default();
    assert!(
        summary.ends_with(" failed; 0 rules without examples") && summary.contains(", 0 failed"),
        "{summary}"
    );
    for line in text.lines().filter(|l| !l.contains(" examples: ")) {
        assert!(line.starts_with("passed  "), "{line}");
    }
    // Every built-in rule shows up with a must-fire example.
    let set = slink::rules::RuleSet::builtin();
    for rule in &set.rules {
        let needle = format!("passed  {} example at ", rule.name);
        assert!(
            text.contains(&needle),
            "no example for {}: {text}",
            rule.name
        );
    }
}

#[test]
fn the_rules_directory_passes_too() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let out = slink(&["rules", "test", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn failing_examples_are_named_and_exit_1() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/examples");
    let out = slink(&["rules", "test", dir.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let file = dir.join("failing.rules").display().to_string();
    for (outcome, kind, line) in [
        ("passed", "example", 16),
        ("did not fire", "example", 26),
        ("fired where it must not", "quiet", 36),
        ("wrong result", "example", 42),
        ("contradiction", "example", 52),
        ("invalid example", "example", 62),
    ] {
        let headline = format!("{outcome}  adjacent-threes {kind} at {file}:{line}\n");
        assert!(text.contains(&headline), "missing {headline:?} in:\n{text}");
    }
    // Failures come with their details.
    assert!(text.contains("    expected:\n"), "{text}");
    assert!(
        text.contains("the vertical edge below dot (0, 2): expected unknown, got a line"),
        "{text}"
    );
    assert!(text.contains("is a cross but a line is asked"), "{text}");
    assert!(
        text.contains(&format!(
            "warning: rule `zero` at {file}:71 has no example\n"
        )),
        "{text}"
    );
    assert!(
        text.ends_with("6 examples: 1 passed, 5 failed; 1 rule without examples\n"),
        "{text}"
    );
}

#[test]
fn unreadable_rules_exit_2() {
    let out = slink(&["rules", "test", "/nonexistent/rules/dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the rules"));
}
