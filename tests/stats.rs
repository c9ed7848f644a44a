//! End-to-end tests of `slink --stats` and `slink rules ablate`: the built binary is run on the
//! puzzle files of `tests/data/`, and its answers, tables and exit status are checked.

use std::path::PathBuf;

mod common;

use common::{TempDir, copy_rules_for_deduction, data, root, slink};

fn sample() -> Vec<u8> {
    std::fs::read(data("sample.in")).expect("tests/data/sample.in")
}

/// The names of the built-in rules, read from the `rule NAME` lines of `rules/*.rules`.
fn builtin_rule_names() -> Vec<String> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(root().join("rules")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rules") {
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                if let Some(name) = line.strip_prefix("rule ") {
                    names.push(name.trim().to_string());
                }
            }
        }
    }
    assert!(names.len() > 10, "found the rule files");
    names
}

/// The first `n` puzzles of a stream file, as a stream of their own.
fn first_puzzles(name: &str, n: usize) -> String {
    let text = std::fs::read_to_string(data(name)).unwrap();
    let mut lines = text.lines();
    let mut out = String::new();
    for _ in 0..n {
        let header = lines.next().unwrap();
        let rows: usize = header.split_whitespace().next().unwrap().parse().unwrap();
        if rows == 0 {
            break;
        }
        out.push_str(header);
        out.push('\n');
        for _ in 0..rows {
            out.push_str(lines.next().unwrap());
            out.push('\n');
        }
    }
    out.push_str("0 0\n");
    out
}

/// A scratch file under the target directory, unique to this test.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stats-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The rows of a table whose first column is one of `names`: name -> the other columns.
fn rows_named<'a>(text: &'a str, names: &[String]) -> Vec<(String, Vec<&'a str>)> {
    text.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let first = words.next()?;
            names
                .iter()
                .any(|n| n == first)
                .then(|| (first.to_string(), words.collect()))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// --stats

#[test]
fn stats_leave_the_answers_alone_and_name_the_rules() {
    let plain = slink(&[], &sample());
    let stats = slink(&["--stats"], &sample());
    assert_eq!(plain.status, 0, "{}", plain.stderr);
    assert_eq!(stats.status, 0, "{}", stats.stderr);
    assert!(plain.stderr.is_empty(), "{}", plain.stderr);
    assert!(plain.stdout == stats.stdout, "--stats changed the answers");
    let table = &stats.stderr;
    for needle in [
        "zero",
        "adjacent-threes",
        "time % (est.)",
        "loop closure",
        "total",
    ] {
        assert!(table.contains(needle), "no {needle:?} in:\n{table}");
    }
    assert!(
        table.contains("4 puzzles: 4 solved, 0 with several solutions, 0 stuck, 0 without solution, 0 at a limit"),
        "{table}"
    );
    for deducer in ["loop closure", "colouring", "probing", "search guesses"] {
        assert!(table.contains(deducer), "no {deducer:?} row in:\n{table}");
    }
    // Every rule has a row, even one that never fired, and the rows are sorted by edges decided.
    let names = builtin_rule_names();
    let rows = rows_named(table, &names);
    assert_eq!(rows.len(), names.len(), "{table}");
    let edges: Vec<u64> = rows
        .iter()
        .map(|(_, cols)| cols[1].parse().unwrap())
        .collect();
    assert!(edges.windows(2).all(|w| w[0] >= w[1]), "{table}");
    assert!(edges[0] > 0, "{table}");
}

#[test]
fn stats_work_on_files_and_with_the_solve_command() {
    let file = data("sample.in");
    let file = file.to_str().unwrap();
    let plain = slink(&["solve", file], b"");
    for args in [
        vec!["solve", "--stats", file],
        vec!["solve", "--stats=rules", file],
        vec!["--stats", file],
        vec![file, "--stats"],
    ] {
        let run = slink(&args, b"");
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        assert!(run.stdout == plain.stdout, "{args:?} changed the answers");
        assert!(
            run.stderr.contains("time % (est.)"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let bad = slink(&["--stats=everything"], &sample());
    assert_eq!(bad.status, 2, "{}", bad.stderr);
}

#[test]
fn stats_per_puzzle_give_one_line_per_puzzle() {
    let plain = slink(&[], &sample());
    let run = slink(&["--stats=puzzles"], &sample());
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout == plain.stdout,
        "--stats=puzzles changed the answers"
    );
    let lines: Vec<Vec<&str>> = run
        .stderr
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.first().is_some_and(|n| n.parse::<usize>().is_ok()))
        .collect();
    let sizes = ["8x8", "6x6", "2x2", "3x5"];
    assert_eq!(lines.len(), sizes.len(), "{}", run.stderr);
    for (k, (words, size)) in lines.iter().zip(sizes).enumerate() {
        assert_eq!(
            words[..3],
            [&(k + 1).to_string(), size, "solved"],
            "{}",
            run.stderr
        );
        // The unknown column: nothing left unknown on a solved puzzle.
        assert_eq!(words[8], "0", "{}", run.stderr);
    }
    assert!(run.stderr.contains("zero"), "{}", run.stderr);
    assert!(
        run.stderr.contains("time % (est.)"),
        "the rule table follows"
    );
}

#[test]
fn stats_count_stuck_puzzles_and_keep_the_exit_status() {
    // A blank 3x3 has many loops: deduction alone is stuck, search finds two.
    let blank = b"3 3\n. . .\n. . .\n. . .\n2 2\n2 2\n2 2\n0 0\n";
    let plain = slink(&["--no-search"], blank);
    let run = slink(&["--no-search", "--stats=puzzles"], blank);
    assert_eq!(plain.status, 1, "{}", plain.stderr);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stdout == plain.stdout);
    assert!(
        run.stderr
            .contains("2 puzzles: 1 solved, 0 with several solutions, 1 stuck, 0 without solution"),
        "{}",
        run.stderr
    );
    let line = |stderr: &str| -> Vec<String> {
        stderr
            .lines()
            .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .find(|w| w.len() > 10 && w[0] == "1" && w[1] == "3x3")
            .unwrap_or_else(|| panic!("no line for puzzle 1:\n{stderr}"))
    };
    let stuck = line(&run.stderr);
    assert_eq!(stuck[2], "stuck");
    // Columns: number, size, outcome, time, one per deducer, unknown, probes, nodes.
    let unknown = 4 + slink::Deducer::COUNT;
    assert!(
        stuck[unknown].parse::<usize>().unwrap() > 0,
        "{}",
        run.stderr
    );
    assert!(
        stuck[unknown + 1].parse::<usize>().unwrap() > 0,
        "probes: {}",
        run.stderr
    );

    let searched = slink(&["--stats=puzzles"], blank);
    assert_eq!(searched.status, 1, "{}", searched.stderr);
    assert!(
        searched
            .stderr
            .contains("2 puzzles: 1 solved, 1 with several solutions, 0 stuck"),
        "{}",
        searched.stderr
    );
    let several = line(&searched.stderr);
    assert_eq!(several[2], "several");
    assert!(
        several[4 + slink::Deducer::Search.index()]
            .parse::<usize>()
            .unwrap()
            > 0,
        "guesses: {}",
        searched.stderr
    );
    assert!(
        several[unknown + 2].parse::<usize>().unwrap() > 0,
        "nodes: {}",
        searched.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// rules ablate

#[test]
fn ablate_names_every_rule_and_the_deducer() {
    let run = slink(&["rules", "ablate", "tests/data/sample.in"], b"");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("4 puzzles"), "{text}");
    assert!(text.contains("finishes 4"), "{text}");
    let names = builtin_rule_names();
    let rows = rows_named(&text, &names);
    assert_eq!(rows.len(), names.len(), "{text}");
    for (name, cols) in &rows {
        assert_eq!(cols[0], "rule", "{name}: {text}");
        cols[1].parse::<usize>().expect("puzzles lost is a count");
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with("loop-closure") && l.contains("deducer")),
        "{text}"
    );
    assert!(
        text.contains("not needed by any puzzle of this corpus"),
        "{text}"
    );
}

#[test]
fn ablate_finds_rules_the_slink_corpus_needs() {
    // The whole corpus takes seconds in a debug build; a tenth of it still needs `zero`.
    let corpus = if cfg!(debug_assertions) {
        scratch("slink-60.in", &first_puzzles("puzzles-slink.in", 60))
    } else {
        data("puzzles-slink.in")
    };
    // The table's rules and loop closure, without probing and colouring, which would make
    // up for most single rules.
    let rules = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stats-tests/table-rules");
    std::fs::create_dir_all(&rules).unwrap();
    for entry in std::fs::read_dir(root().join("rules")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if path.extension().is_some_and(|e| e == "rules") && name != "global.rules" {
            std::fs::copy(&path, rules.join(name)).unwrap();
        }
    }
    let run = slink(
        &[
            "rules",
            "ablate",
            corpus.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = String::from_utf8(run.stdout).unwrap();
    let rows = rows_named(&text, &builtin_rule_names());
    let lost: Vec<(&str, usize)> = rows
        .iter()
        .map(|(n, cols)| (n.as_str(), cols[1].parse().unwrap()))
        .collect();
    assert!(lost.iter().any(|&(n, k)| n == "zero" && k > 0), "{text}");
    // Most edges lost first.
    assert!(lost.windows(2).all(|w| w[0].1 >= w[1].1), "{text}");
    // A rule the report calls needed is not in the list of unneeded ones.
    let unneeded: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("not needed by any puzzle of this corpus"))
        .and_then(|l| l.split_once(": "))
        .map_or(Vec::new(), |(_, list)| list.split(", ").collect());
    assert!(
        !unneeded.is_empty(),
        "some rules are redundant here: {text}"
    );
    assert!(!unneeded.contains(&"zero"), "{text}");
}

#[test]
fn ablate_uses_the_rules_of_a_directory() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stats-tests/counting-only");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        root().join("rules/counting.rules"),
        dir.join("counting.rules"),
    )
    .unwrap();
    let run = slink(
        &[
            "rules",
            "ablate",
            "tests/data/sample.in",
            "--rules",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("0 deducers"), "{text}");
    assert!(text.contains("zero"), "{text}");
    assert!(!text.contains("adjacent-threes"), "{text}");
    assert!(!text.contains("loop-closure"), "{text}");
}

#[test]
fn ablate_rejects_unreadable_input() {
    let missing = slink(&["rules", "ablate", "tests/data/no-such-file.in"], b"");
    assert_eq!(missing.status, 2);
    assert!(
        missing.stderr.contains("no-such-file.in"),
        "{}",
        missing.stderr
    );
    let broken = scratch("broken.in", "2 2\n1 x\n2 2\n0 0\n");
    let bad = slink(&["rules", "ablate", broken.to_str().unwrap()], b"");
    assert_eq!(bad.status, 2, "{}", bad.stderr);
    let no_rules = slink(
        &[
            "rules",
            "ablate",
            "tests/data/sample.in",
            "--rules",
            "tests/data/no-such-dir",
        ],
        b"",
    );
    assert_eq!(no_rules.status, 2, "{}", no_rules.stderr);
}

#[test]
fn deduction_never_finishes_more_with_a_rule_left_out() {
    // Sound rules and deducers that reach their full fixpoint can only gain from one more
    // rule: leaving one out may lose puzzles but never finish one the whole set leaves stuck.
    // (Loop closure once dropped an edge it had to leave open, and colouring skipped two
    // neighbours in a clue's own class; either made a larger set finish fewer puzzles.)
    let dir = TempDir::new("monotone");
    copy_rules_for_deduction(&dir.0);
    let corpus = data("puzzles-slitherlink.in");
    let run = slink(
        &[
            "rules",
            "ablate",
            "--rules",
            dir.path(),
            corpus.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let report = run.stdout_text();
    assert!(report.contains("finishes 537 ("), "{report}");
    assert!(!report.contains("gained"), "{report}");
}
