//! The progress bar: shown on a terminal after a second of work, never when stderr is piped.
//! The terminal is a pseudo-terminal from util-linux's `script`: that test is ignored by a
//! plain `cargo test` and run by `.ci/run` (with `--ignored`) where `script` is present.

use std::process::Command;

mod common;

use common::{BIN, data, slink};

/// A stream of `copies` copies of the Slink corpus (about 30 ms of solving each).
fn big_stream(copies: usize) -> String {
    let corpus = std::fs::read_to_string(data("puzzles-slink.in")).unwrap();
    let body = corpus
        .trim_end()
        .strip_suffix("0 0")
        .expect("the corpus ends with 0 0");
    let mut text = body.repeat(copies);
    text.push_str("0 0\n");
    text
}

#[test]
fn a_long_run_shows_nothing_extra_when_piped() {
    let input = std::env::temp_dir().join(format!("slink-piped-{}.in", std::process::id()));
    std::fs::write(&input, big_stream(100)).unwrap();
    // Piped: answers only, nothing on stderr.
    let piped = slink(&["--jobs", "1", input.to_str().unwrap()], b"");
    std::fs::remove_file(&input).unwrap();
    assert_eq!(piped.status, 0);
    assert_eq!(piped.stderr, "", "nothing extra when stderr is piped");
}

#[test]
#[ignore = "needs util-linux's `script` for a pseudo-terminal: `.ci/run` runs it with --ignored"]
fn a_long_run_shows_progress_on_a_terminal() {
    let input = std::env::temp_dir().join(format!("slink-progress-{}.in", std::process::id()));
    std::fs::write(&input, big_stream(100)).unwrap();
    assert!(
        Command::new("script").arg("--version").output().is_ok(),
        "no `script` (util-linux) for a pseudo-terminal"
    );
    // On a terminal (stdout to /dev/null, stderr on the pseudo-terminal).
    let command = format!("{BIN} --jobs 1 {} > /dev/null", input.display());
    let output = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .output()
        .expect("script runs");
    std::fs::remove_file(&input).unwrap();
    assert!(output.status.success(), "{output:?}");
    let screen = String::from_utf8_lossy(&output.stdout);
    assert!(
        screen.contains("puzzles solved") && screen.contains("% read"),
        "no progress bar on the terminal: {screen:?}"
    );
}
