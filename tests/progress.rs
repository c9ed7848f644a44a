//! The progress bar: shown on a terminal after a second of work, never when stderr is piped,
//! never while a person types puzzles in; its elapsed time and time left are the real ones.
//! The terminal is a pseudo-terminal from util-linux's `script`: those tests are ignored by a
//! plain `cargo test` and run by `.ci/run` (with `--ignored`) where `script` is present.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{BIN, data, slink};

/// A stream of `copies` copies of the Slink corpus (about 30 ms of solving each).
fn big_stream(copies: usize) -> String {
    stream_of("puzzles-slink.in", copies)
}

/// `copies` copies of the puzzles of the corpus `name` in one stream.
fn stream_of(name: &str, copies: usize) -> String {
    let corpus = std::fs::read_to_string(data(name)).unwrap();
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
        screen.contains("puzzles solved") && screen.contains("% done"),
        "no progress bar on the terminal: {screen:?}"
    );
}

/// What a terminal shows of the bar: the frames' text, escape sequences taken out.
fn frames(screen: &str) -> Vec<String> {
    let mut text = String::new();
    let mut chars = screen.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters, then a final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            text.push(c);
        }
    }
    text.split(['\r', '\n'])
        .map(str::trim)
        .filter(|f| f.contains("elapsed"))
        .map(String::from)
        .collect()
}

/// The seconds of `4.2 s`, `17 s`, `3 min 05 s` at the start of `text`.
fn seconds(text: &str) -> f64 {
    let words: Vec<&str> = text.split(' ').collect();
    match words[..] {
        [n, "s", ..] => n.parse().unwrap(),
        [m, "min", s, "s", ..] => m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap(),
        _ => panic!("not a duration: {text:?}"),
    }
}

/// How far a shown time may be above the real one: the bar rounds to a tenth of a second below
/// 10 s (4.2 shown may be 4.15 in a 4.17 s run) and to a second above.
fn rounding(shown: f64) -> f64 {
    if shown < 10.0 { 0.05 } else { 0.5 }
}

#[test]
#[ignore = "needs util-linux's `script` for a pseudo-terminal: `.ci/run` runs it with --ignored"]
fn the_time_left_on_a_terminal_is_within_reason() {
    let input = std::env::temp_dir().join(format!("slink-left-{}.in", std::process::id()));
    // The Slitherlink corpus, 40 times: about 4 s on two idle cores (150 copies of the Slink
    // corpus took 1.3 s on a fresh machine, too short for an estimate to show).
    std::fs::write(&input, stream_of("puzzles-slitherlink.in", 40)).unwrap();
    let command = format!("{BIN} --jobs 2 {} > /dev/null", input.display());
    let started = Instant::now();
    let output = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .output()
        .expect("script runs");
    let total = started.elapsed().as_secs_f64();
    std::fs::remove_file(&input).unwrap();
    assert!(output.status.success(), "{output:?}");
    let screen = String::from_utf8_lossy(&output.stdout);
    let frames = frames(&screen);
    assert!(!frames.is_empty(), "no progress bar: {screen:?}");
    // Elapsed is the time since the start: the bar shows after a second, saying so.
    let first = frames[0]
        .split(", ")
        .find(|p| p.ends_with("elapsed"))
        .unwrap();
    let first = seconds(first);
    assert!(
        (0.9..total + rounding(first)).contains(&first),
        "the first frame says {first} s elapsed in a {total:.1} s run: {frames:?}"
    );
    // Each estimate (elapsed + left) is within a factor of two of the run's real length.
    let mut estimates = 0;
    for frame in &frames {
        let parts: Vec<&str> = frame.split(", ").collect();
        let elapsed = parts.iter().find(|p| p.ends_with(" elapsed")).unwrap();
        let elapsed = seconds(elapsed);
        assert!(
            elapsed <= total + rounding(elapsed),
            "{elapsed} s elapsed in a {total:.2} s run"
        );
        let Some(left) = parts.iter().find_map(|p| p.strip_prefix("about ")) else {
            continue;
        };
        estimates += 1;
        let guess = elapsed + seconds(left);
        assert!(
            guess > total / 2.0 && guess < total * 2.0,
            "{frame:?}: a run of {guess:.1} s foreseen, {total:.1} s taken"
        );
    }
    assert!(
        estimates > 0,
        "no time left shown in a {total:.1} s run: {frames:?}"
    );
}

#[test]
#[ignore = "needs util-linux's `script` for a pseudo-terminal: `.ci/run` runs it with --ignored"]
fn no_bar_while_a_person_types_puzzles_in() {
    let sample = std::fs::read_to_string(data("sample.in")).unwrap();
    let first: String = sample.lines().take(9).map(|l| format!("{l}\n")).collect();
    assert!(
        first.starts_with("8 8\n"),
        "the sample starts with an 8x8 puzzle"
    );
    // Standard input and error are the pseudo-terminal; the puzzles come in over seconds.
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c", BIN, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut stdin = child.stdin.take().unwrap();
    for _ in 0..3 {
        stdin.write_all(first.as_bytes()).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(800));
    }
    stdin.write_all(b"0 0\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let screen = String::from_utf8_lossy(&output.stdout);
    let frame_lines = screen
        .lines()
        .map(str::trim_end)
        .filter(|l| l.len() > 4 && l.chars().all(|c| c == '#'))
        .count();
    assert_eq!(frame_lines, 6, "three answers, each framed: {screen:?}");
    assert!(
        !screen.contains("solved") && !screen.contains("elapsed"),
        "a bar while a person types: {screen:?}"
    );
}

#[test]
#[ignore = "needs util-linux's `script` for a pseudo-terminal: `.ci/run` runs it with --ignored"]
fn a_long_gen_blanks_shows_where_it_is_on_a_terminal() {
    let out = std::env::temp_dir().join(format!("slink-gen-{}.out", std::process::id()));
    // 24x24 takes several seconds of blanking; the line shows after two.
    let command = format!("{BIN} gen --rows 24 --cols 24 --blanks > {}", out.display());
    let output = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .output()
        .expect("script runs");
    let generated = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(generated.starts_with("24 24\n") && generated.ends_with("0 0\n"));
    let screen = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = screen
        .split(['\r', '\n'])
        .filter(|l| l.contains("candidates tried"))
        .collect();
    assert!(!lines.is_empty(), "no progress line: {screen:?}");
    assert!(lines[0].contains("puzzles kept"), "{lines:?}");
}
