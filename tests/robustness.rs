//! End-to-end tests of what hostile or careless input can do: unsound rule sets (refused at
//! load, or trusted and then named in the messages), resource limits, rule files from
//! anywhere, command-line hygiene, the puzzle stream going on after a bad puzzle, and proofs
//! that would run for minutes. Each test runs the built binary and checks the message text
//! and the exit status.

mod common;

use common::{BIN, data, root, slink};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A scratch directory unique to this process and name, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("slink-robust-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }

    /// A copy of the files of `rules/` (not its subdirectories) plus the given extra files.
    fn rules_with(name: &str, extra: &[(&str, &[u8])]) -> Scratch {
        let dir = Scratch::new(name);
        for entry in std::fs::read_dir(root().join("rules")).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, dir.0.join(path.file_name().unwrap())).unwrap();
            }
        }
        for (file, bytes) in extra {
            dir.write(file, bytes);
        }
        dir
    }

    fn write(&self, file: &str, bytes: &[u8]) {
        std::fs::write(self.0.join(file), bytes).unwrap();
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sample() -> Vec<u8> {
    std::fs::read(data("sample.in")).unwrap()
}

/// The answer blocks of the sample output, by puzzle number (1-based).
fn sample_answer(k: usize) -> String {
    let text = std::fs::read_to_string(data("sample.out")).unwrap();
    let mut blocks = Vec::new();
    for line in text.lines() {
        if line.parse::<usize>().is_ok() {
            blocks.push(String::new());
        }
        let block = blocks.last_mut().unwrap();
        block.push_str(line);
        block.push('\n');
    }
    blocks[k - 1].clone()
}

/// The answer of sample puzzle `k`, numbered `as_number`.
fn renumbered(k: usize, as_number: usize) -> String {
    sample_answer(k).replacen(&format!("{k}\n"), &format!("{as_number}\n"), 1)
}

/// An unsound corner rule for 2s: a 2 with its top and left sides crossed does not have to
/// cross its right side. With it, the sample's first puzzle has "no solution".
const MADE_UP_TWO: &[u8] = b"rule two-corner-made-up
  \"Made up: a 2 with two crossed sides at a corner crosses a third.\"
when
  + x +
  x 2
  +   +
then
  + x +
  x 2 x
  +   +
";

/// Runs the binary on the sample with `SLINK_CACHE_DIR` set to `cache`.
fn with_cache(cache: &Path, args: &[&str]) -> common::Run {
    let output = Command::new(BIN)
        .args(args)
        .arg(data("sample.in"))
        .env("SLINK_CACHE_DIR", cache)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    common::finish(output, &format!("slink {}", args.join(" ")))
}

#[test]
fn rules_proven_once_are_remembered_and_an_edited_rule_is_proven_again() {
    let cache = Scratch::new("cache");
    let dir = Scratch::rules_with("cached", &[]);
    let first = with_cache(&cache.0, &["--rules", dir.path()]);
    assert_eq!(first.status, 0, "{}", first.stderr);
    let file = slink::cli::proof_cache::file_in(&cache.0);
    let set = slink::rules::RuleSet::load_dirs(&[&dir.0]).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut keys: Vec<&str> = text.lines().collect();
    let mut expected: Vec<String> = set.rules.iter().map(slink::cli::proof_cache::key).collect();
    keys.sort();
    expected.sort();
    assert_eq!(keys, expected, "one line per rule proven");
    let second = with_cache(&cache.0, &["--rules", dir.path()]);
    assert_eq!(second.stdout, first.stdout);
    assert_eq!(second.stderr, first.stderr);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "nothing new to add"
    );

    // The cache is read: a line for the made-up rule (written by hand here, as a tampered
    // cache would be) lets it through, and --no-proof-cache proves it anyway.
    let unsound = Scratch::rules_with("cached-unsound", &[("made-up.rules", MADE_UP_TWO)]);
    let made_up = slink::rules::RuleSet::load_dirs(&[&unsound.0]).unwrap();
    let rule = made_up
        .rules
        .iter()
        .find(|r| r.name == "two-corner-made-up")
        .unwrap();
    let refused = with_cache(&cache.0, &["--rules", unsound.path()]);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(
        !std::fs::read_to_string(&file)
            .unwrap()
            .contains(&slink::cli::proof_cache::key(rule)),
        "an unsound rule is never remembered"
    );
    std::fs::write(
        &file,
        format!("{text}{}\n", slink::cli::proof_cache::key(rule)),
    )
    .unwrap();
    let let_through = with_cache(&cache.0, &["--rules", unsound.path()]);
    assert!(
        !let_through.stderr.contains("refusing") && let_through.stderr.contains("no solution"),
        "the cached line is believed (and the unsound rule misleads): {}",
        let_through.stderr
    );
    let proven_anyway = with_cache(&cache.0, &["--rules", unsound.path(), "--no-proof-cache"]);
    assert_eq!(proven_anyway.status, 2, "{}", proven_anyway.stderr);

    // An edited rule is a new rule: the made-up rule written over a cached sound one is
    // proven, and refused.
    let edited = Scratch::rules_with("cached-edited", &[]);
    let corners = std::fs::read_to_string(edited.0.join("corners.rules")).unwrap();
    edited.write(
        "corners.rules",
        format!("{corners}\n{}", String::from_utf8_lossy(MADE_UP_TWO)).as_bytes(),
    );
    std::fs::write(&file, &text).unwrap();
    let run = with_cache(&cache.0, &["--rules", edited.path()]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("UNSOUND two-corner-made-up"),
        "{}",
        run.stderr
    );

    // An empty SLINK_CACHE_DIR: no cache is read or written.
    let off = Scratch::new("cache-off");
    let run = Command::new(BIN)
        .args(["--rules", dir.path()])
        .arg(data("sample.in"))
        .env("SLINK_CACHE_DIR", "")
        .env("HOME", &off.0)
        .env("XDG_CACHE_HOME", &off.0)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(run.status.success());
    assert_eq!(std::fs::read_dir(&off.0).unwrap().count(), 0);
}

// ---------------------------------------------------------------------------------------------
// 1. No false verdicts from an unsound rule set

#[test]
fn an_unsound_rule_set_is_refused_at_load_with_its_counterexample() {
    let dir = Scratch::rules_with("unsound", &[("made-up.rules", MADE_UP_TWO)]);
    let run = slink(&["--rules", dir.path()], &sample());
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert_eq!(
        run.stdout_text(),
        "",
        "nothing is solved with refused rules"
    );
    assert!(
        run.stderr.starts_with("UNSOUND two-corner-made-up ("),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("counterexample: the premise holds, but the conclusion's cross"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("  x 2 |"),
        "the picture: {}",
        run.stderr
    );
    let last = run.stderr.lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "slink: refusing the rules of {0}: 1 of its 189 rules is not proven sound (`slink \
             rules check {0}` shows every proof; --trust-rules uses the rules anyway)",
            dir.path()
        )
    );
    // `gen` and `rules ablate` refuse the set too.
    let run = slink(
        &["gen", "--rows", "3", "--cols", "3", "--rules", dir.path()],
        b"",
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("refusing the rules of"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn trusted_unsound_rules_never_give_a_false_verdict_without_saying_so() {
    let dir = Scratch::rules_with("trusted", &[("made-up.rules", MADE_UP_TWO)]);
    let run = slink(&["--trust-rules", "--rules", dir.path()], &sample());
    assert_eq!(run.status, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(
        lines[0].starts_with(&format!(
            "slink: warning: the rules of {} are used without proof (--trust-rules)",
            dir.path()
        )),
        "{}",
        run.stderr
    );
    let first = lines
        .iter()
        .find(|l| l.starts_with("slink: puzzle 1 "))
        .unwrap_or_else(|| panic!("puzzle 1 is not reported: {}", run.stderr));
    assert!(
        first.contains(
            "no solution under these rules, which are trusted without proof (--trust-rules)"
        ) && first.ends_with("the puzzle itself may have a solution"),
        "{first}"
    );
    // No message says "no solution" as a fact.
    assert!(
        !run.stderr.contains("): no solution: "),
        "a false verdict: {}",
        run.stderr
    );
    // Whatever is printed is a right answer.
    let text = run.stdout_text();
    for k in 1..=4 {
        if text.contains(&format!("\n{k}\n")) || text.starts_with(&format!("{k}\n")) {
            assert!(
                text.contains(&sample_answer(k)),
                "answer {k} is wrong:\n{text}"
            );
        }
    }
    // Without --rules, --trust-rules changes nothing: the built-in set is proven by the tests.
    let run = slink(&["--trust-rules"], &sample());
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
}

#[test]
fn a_sound_rule_directory_loads_quietly() {
    let dir = Scratch::rules_with("sound", &[]);
    let run = slink(&["--rules", dir.path()], &sample());
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
}

// ---------------------------------------------------------------------------------------------
// 8. Rule sets that would exhaust the machine

/// A closed loop around one cell in a 6x6-cell window, marked `assumes single-loop`: the proof
/// has to go through every assignment of 84 edges.
fn closed_loop_rule() -> Vec<u8> {
    let dots = "  +   +   +   +   +   +   +\n";
    let mut text = String::from("rule closed\n  assumes single-loop\nwhen\n");
    text.push_str("  +---+   +   +   +   +   +\n  |   |\n  +---+   +   +   +   +   +\n");
    let mut then = String::from("then\n");
    then.push_str("  +---+ x +   +   +   +   +\n  |   |\n  +---+   +   +   +   +   +\n");
    for _ in 0..5 {
        text.push_str(&format!("\n{dots}"));
        then.push_str(&format!("\n{dots}"));
    }
    text.push_str(&then);
    text.into_bytes()
}

#[test]
fn an_undecided_rule_is_refused_at_load_unless_trusted() {
    let dir = Scratch::new("undecided");
    dir.write("closed.rules", &closed_loop_rule());
    let started = std::time::Instant::now();
    let run = slink(&["--rules", dir.path()], b"1 1\n.\n0 0\n");
    // About 2 s in a release build; a proof without its budget would run for hours.
    assert!(
        started.elapsed().as_secs() < 300,
        "the proof ran for {:?}",
        started.elapsed()
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("UNDECIDED closed (")
            && run
                .stderr
                .contains("the proof gave up after 25000001 search steps"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("1 of its 1 rule is not proven sound"),
        "{}",
        run.stderr
    );
    let run = slink(
        &["--rules", dir.path(), "--trust-rules", "--no-search"],
        b"1 1\n.\n0 0\n",
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stderr.contains("--trust-rules"), "{}", run.stderr);
}

#[test]
fn a_rule_wider_than_the_cap_is_an_error_not_a_huge_board() {
    let dir = Scratch::new("wide");
    let dots = format!("  {}+\n", "+   ".repeat(2000));
    let text = format!(
        "rule wide\nwhen\n{dots}    0\n{dots}then\n  + x {}+\n  x 0 x\n  + x {}+\n",
        "+   ".repeat(1999),
        "+   ".repeat(1999)
    );
    dir.write("wide.rules", text.as_bytes());
    let run = slink(&["--rules", dir.path()], &sample());
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "wide.rules:2:1: error: rule `wide` spans 1x2000 cells: a rule spans at most 12 \
             cells down and across"
        ),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// 2. Resource limits

#[test]
fn max_cells_skips_larger_puzzles_and_goes_on() {
    let run = slink(&["--max-cells", "30"], &sample());
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert_eq!(
        run.stdout_text(),
        sample_answer(3) + &sample_answer(4),
        "puzzles 3 and 4 keep their numbers"
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert_eq!(
        lines[0],
        "slink: <stdin>:1:1: puzzle 1: size 8x8 is too large (at most 100000 rows, 100000 \
         columns and 30 cells; --max-cells sets the cell limit); skipped lines 2-9 up to the \
         next size line (line 10)"
    );
    assert!(lines[1].starts_with("slink: <stdin>:10:1: puzzle 2: size 6x6 is too large"));
    let run = slink(&["--max-cells", "0"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("--max-cells"), "{}", run.stderr);
}

// ---------------------------------------------------------------------------------------------
// 6. The stream goes on after a bad puzzle

/// Runs `input` and checks the answers (sample puzzle 3, the 2x2 of 2s, renumbered) and the
/// error lines.
fn check_stream(input: &str, answers: &[usize], errors: &[&str], status: i32) {
    let run = slink(&[], input.as_bytes());
    let expected: String = answers.iter().map(|&k| renumbered(3, k)).collect();
    assert_eq!(run.stdout_text(), expected, "{input:?}\n{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines, errors, "{input:?}");
    assert_eq!(run.status, status, "{input:?}");
}

const TWOS: &str = "2 2\n2 2\n2 2\n";

#[test]
fn a_too_large_size_line_spoils_only_its_own_puzzle() {
    check_stream(
        &format!("{TWOS}8000 8000\n1 1 1 1\n1 1 1 1\n{TWOS}0 0\n"),
        &[1, 3],
        &[
            "slink: <stdin>:4:1: puzzle 2: size 8000x8000 is too large (at most 100000 rows, \
             100000 columns and 50000000 cells; --max-cells sets the cell limit); skipped lines \
             5-6 up to the next size line (line 7)",
        ],
        2,
    );
}

#[test]
fn a_negative_size_spoils_only_its_own_puzzle() {
    check_stream(
        &format!("{TWOS}2 -3\n1 1 1\n1 1 1\n{TWOS}{TWOS}0 0\n"),
        &[1, 3, 4],
        &[
            "slink: <stdin>:4:3: expected the size 'rows columns' of puzzle 2 (two whole \
             numbers), found '-3' (a size is never negative); skipped lines 5-6 up to the next \
             size line (line 7)",
        ],
        2,
    );
}

#[test]
fn an_end_marker_read_as_a_missing_row_is_still_the_end() {
    check_stream(
        "2 2\n2 2 2\n0 0\n",
        &[],
        &["slink: <stdin>:2:5: puzzle 1, row 1: expected 2 values, found 3"],
        2,
    );
    // A wider puzzle short a row gives back the end marker.
    check_stream(
        &format!("{TWOS}3 3\n1 1 1\n1 1 1\n0 0\n"),
        &[1],
        &[
            "slink: <stdin>:7:1: puzzle 2 ends after 2 of its 3 rows: this line reads as the \
           size of the next puzzle",
        ],
        2,
    );
}

#[test]
fn a_blank_line_inside_a_puzzle_is_skipped() {
    check_stream(&format!("2 2\n2 2\n\n2 2\n{TWOS}0 0\n"), &[1, 2], &[], 0);
    // With a row missing too: one error, and the end marker is still the end.
    check_stream(
        "2 3\n\n1 1 1\n0 0\n",
        &[],
        &[
            "slink: <stdin>:4:1: puzzle 1 ends after 1 of its 2 rows: this line reads as the \
           size of the next puzzle",
        ],
        2,
    );
}

#[test]
fn an_extra_row_takes_no_number() {
    check_stream(
        &format!("{TWOS}2 2 2\n{TWOS}0 0\n"),
        &[1, 2],
        &[
            "slink: <stdin>:4:5: expected the size 'rows columns' of puzzle 2, found more after \
             it: '2' (this looks like a row: does puzzle 1 have more than the 2 rows its header \
             says?)",
        ],
        2,
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Rule files from anywhere

#[test]
fn a_rule_file_that_is_not_utf8_is_named_with_its_position() {
    let dir = Scratch::new("latin1");
    dir.write(
        "zero.rules",
        b"# z\xe9ro\nrule zero\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n",
    );
    let run = slink(&["--rules", dir.path()], &sample());
    assert_eq!(run.status, 2);
    let expected = format!(
        "{0}/zero.rules:1:4: error: the file is not UTF-8 text: byte 0xE9 here\n  help: save \
         the rule file as UTF-8 (pictures use only ASCII)\nslink: 1 error in the rules of {0}\n",
        dir.path()
    );
    assert_eq!(run.stderr, expected);
}

#[test]
fn a_rule_directory_without_rule_files_is_warned_about() {
    let dir = Scratch::new("no-rules");
    dir.write("zero.rule", b"not read: wrong extension\n");
    let run = slink(&["--rules", dir.path(), "--no-search"], b"1 1\n.\n0 0\n");
    assert_eq!(run.status, 1);
    assert!(
        run.stderr.starts_with(&format!(
            "slink: warning: {} holds no `*.rules` files: the rule set is empty and deduces \
             nothing\n",
            dir.path()
        )),
        "{}",
        run.stderr
    );
    let run = slink(&["rules", "check", dir.path()], b"");
    assert_eq!(run.status, 0);
    assert!(
        run.stderr.contains("holds no `*.rules` files"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout_text().contains("deducers in use: none"),
        "{}",
        run.stdout_text()
    );
}

#[test]
fn a_set_without_the_built_in_deducers_is_warned_about() {
    let dir = Scratch::new("few-deducers");
    dir.write("loops.rules", b"use loop-closure\n");
    let run = slink(&["--rules", dir.path(), "--no-search"], b"1 1\n.\n0 0\n");
    assert!(
        run.stderr.starts_with(&format!(
            "slink: warning: the rules of {} use loop-closure of the global deducers; the \
             built-in set also uses colouring, connectivity, regions, parity, probing and search (a `use NAME` line \
             switches one on)\n",
            dir.path()
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn missing_and_unreadable_rule_paths_are_named() {
    let dir = Scratch::new("unreadable");
    let missing = dir.0.join("gone");
    let run = slink(&["--rules", missing.to_str().unwrap()], &sample());
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        format!(
            "slink: cannot read the rules of {}: no such file or directory\n",
            missing.display()
        )
    );
    // A directory named like a rule file cannot be read as one.
    std::fs::create_dir(dir.0.join("sub.rules")).unwrap();
    let run = slink(&["--rules", dir.path()], &sample());
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        format!(
            "slink: cannot read the rules of {}/sub.rules: is a directory\n",
            dir.path()
        )
    );
    // A file given where a directory belongs.
    let run = slink(&["--rules", "rules/dots.rules"], &sample());
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "slink: cannot read the rules of rules/dots.rules: not a directory (--rules takes a \
         directory of `*.rules` files)\n"
    );
}

// ---------------------------------------------------------------------------------------------
// 5. Command-line hygiene

#[test]
fn bad_files_and_flags_give_one_line_and_status_2() {
    let run = slink(&["solve", "no-such-file.in"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "slink: cannot read no-such-file.in: no such file or directory\n"
    );
    let run = slink(&["solve", "tests"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "slink: cannot read tests: it is a directory (give puzzle files, or - for standard \
         input)\n"
    );
    let run = slink(&["--no-such-flag"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "slink: unexpected argument '--no-such-flag' found (a similar argument exists: \
         '--no-search'); see `slink --help`\n"
    );
    let run = slink(&["gen", "--rows", "2", "--colz", "2"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("'--colz'") && run.stderr.contains("slink gen --help"),
        "{}",
        run.stderr
    );
    // The answers of the other files are still written.
    let run = slink(&["solve", "no-such-file.in", "tests/data/sample.in"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stdout_text(),
        std::fs::read_to_string(data("sample.out")).unwrap()
    );
}

#[test]
fn version_and_help() {
    let run = slink(&["--version"], b"");
    assert_eq!(run.status, 0);
    assert_eq!(
        run.stdout_text(),
        format!("slink {}\n", env!("CARGO_PKG_VERSION"))
    );
    let run = slink(&["gen", "--help"], b"");
    assert_eq!(run.status, 0);
    for flag in ["--rules", "--stats", "--trust-rules", "--blanks", "--level"] {
        assert!(run.stdout_text().contains(flag), "gen --help lacks {flag}");
    }
    let run = slink(&["--help"], b"");
    for flag in ["--max-cells", "--trust-rules", "--rules", "--timeout"] {
        assert!(run.stdout_text().contains(flag), "--help lacks {flag}");
    }
}

/// Runs slink, reads `keep` bytes of its output, closes the pipe, and returns its exit status
/// and standard error.
fn with_closed_stdout(args: &[&str], keep: usize) -> (i32, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0; keep];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (
        output.status.code().expect("not killed by a signal"),
        stderr,
    )
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let corpus = data("puzzles-slink.in");
    for args in [
        vec!["solve", corpus.to_str().unwrap()],
        vec!["gen", "--rows", "10", "--cols", "10", "--count", "2000"],
        vec!["rules", "check"],
    ] {
        let (status, stderr) = with_closed_stdout(&args, 10);
        assert_eq!(stderr, "", "{args:?}");
        assert!(status == 0, "{args:?}: status {status}");
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Messages a person can act on

#[test]
fn options_before_a_command_are_taken_there() {
    let run = slink(&["--rules", "rules", "rules", "check"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout_text()
            .contains("188 rules: 188 sound, 0 unsound"),
        "{}",
        run.stdout_text()
    );
    let run = slink(&["--stats", "gen", "--rows", "3", "--cols", "3"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("slink gen: 1 puzzle from "),
        "{}",
        run.stderr
    );
    // An option the command does not take is named against that command.
    let run = slink(&["--no-search", "gen", "--rows", "3", "--cols", "3"], b"");
    assert_eq!(run.status, 2);
    assert!(
        run.stderr
            .starts_with("slink: unexpected argument '--no-search' found")
            && run.stderr.contains("slink gen --help"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_prover_and_the_readme_name_every_flag() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for flag in [
        "--max-cells",
        "--trust-rules",
        "gen --rows",
        "--stats",
        "--rules DIR",
        "compiled into the binary",
    ] {
        assert!(readme.contains(flag), "README.md does not mention {flag}");
    }
    assert!(Path::new(&root().join("fuzz/README.md")).is_file());
}
