//! End-to-end tests of `slink gen`: the built binary generates puzzle streams, which must be
//! reproducible, well formed, and solved by `slink` itself with answers that meet every clue.

use slink::{Puzzle, parse_all};

mod common;

use common::{Run, slink};

/// Runs `slink` with `args`, feeding it `input` on standard input.
fn run(args: &[&str], input: &[u8]) -> Run {
    slink(args, input)
}

/// Runs `slink gen` with `args`; it must succeed. Returns its output.
fn generate(args: &[&str]) -> Vec<u8> {
    let mut full = vec!["gen"];
    full.extend_from_slice(args);
    let r = run(&full, b"");
    assert_eq!(r.status, 0, "slink {full:?} failed: {}", r.stderr);
    assert!(r.stderr.is_empty(), "slink {full:?} wrote: {}", r.stderr);
    r.stdout
}

/// Parses a generated stream, which must end with the `0 0` line.
fn parse(text: &[u8]) -> Vec<Puzzle> {
    assert!(text.ends_with(b"\n0 0\n") || text == b"0 0\n");
    let puzzles = parse_all("gen", text).expect("generated output parses");
    for p in &puzzles {
        assert_eq!(p.clues.len(), p.rows * p.cols);
        assert!(
            p.clues.iter().all(|c| matches!(c, Some(0..=3))),
            "every cell holds a clue 0-3"
        );
    }
    puzzles
}

/// Solves `text` with `slink` (no arguments) and checks every answer against its puzzle: the
/// clues printed are the puzzle's, and each cell has as many line sides as its clue.
fn solve_and_check(text: &[u8], puzzles: &[Puzzle]) {
    let r = run(&[], text);
    assert_eq!(
        r.status, 0,
        "slink did not solve the generated puzzles: {}",
        r.stderr
    );
    let answer = String::from_utf8(r.stdout).unwrap();
    let mut lines = answer.lines();
    for (k, p) in puzzles.iter().enumerate() {
        assert_eq!(lines.next(), Some((k + 1).to_string().as_str()));
        let block: Vec<&[u8]> = (0..2 * p.rows + 5)
            .map(|_| lines.next().expect("answer block too short").as_bytes())
            .collect();
        // Grid line y (0..=2R) is block line y + 2; grid column x is character x + 2.
        let at = |y: usize, x: usize| block[y + 2][x + 2];
        for r in 0..p.rows {
            for c in 0..p.cols {
                let clue = p.clue(r, c).unwrap();
                assert_eq!(at(2 * r + 1, 4 * c + 2), b'0' + clue, "puzzle {}", k + 1);
                let top = &block[2 * r + 2][4 * c + 3..4 * c + 6] == b"---";
                let bottom = &block[2 * r + 4][4 * c + 3..4 * c + 6] == b"---";
                let left = at(2 * r + 1, 4 * c) == b'|';
                let right = at(2 * r + 1, 4 * c + 4) == b'|';
                let sides = [top, bottom, left, right].iter().filter(|&&s| s).count();
                assert_eq!(
                    sides,
                    clue as usize,
                    "puzzle {}: cell ({r}, {c}) has {sides} line sides, clue {clue}",
                    k + 1
                );
            }
        }
    }
    assert_eq!(lines.next(), None, "extra output after the last answer");
}

#[test]
fn same_seed_same_output() {
    let args = [
        "--rows", "7", "--cols", "9", "--count", "5", "--seed", "123",
    ];
    let a = generate(&args);
    let b = generate(&args);
    assert_eq!(a, b);
    let puzzles = parse(&a);
    assert_eq!(puzzles.len(), 5);
    assert!(puzzles.iter().all(|p| (p.rows, p.cols) == (7, 9)));
    // The first puzzles of a run do not depend on how many are asked for.
    let fewer = generate(&[
        "--rows", "7", "--cols", "9", "--count", "2", "--seed", "123",
    ]);
    assert_eq!(parse(&fewer), puzzles[..2]);
}

#[test]
fn different_seeds_differ() {
    let a = generate(&["--rows", "10", "--cols", "10", "--seed", "1"]);
    let b = generate(&["--rows", "10", "--cols", "10", "--seed", "2"]);
    assert_ne!(a, b);
    // The default seed is 1.
    assert_eq!(generate(&["--rows", "10", "--cols", "10"]), a);
    // Puzzles of one run differ from each other.
    let run = parse(&generate(&["--rows", "10", "--cols", "10", "--count", "4"]));
    for i in 0..run.len() {
        for j in 0..i {
            assert_ne!(run[i], run[j], "puzzles {j} and {i} of one run are equal");
        }
    }
}

#[test]
fn generated_puzzles_are_solved() {
    let mut text = Vec::new();
    let mut puzzles = Vec::new();
    for (rows, cols, count, seed) in [
        ("5", "5", "8", "7"),
        ("12", "20", "3", "8"),
        ("1", "9", "3", "9"),
        ("6", "1", "2", "10"),
        ("2", "2", "3", "11"),
        ("2", "3", "3", "12"),
        ("1", "2", "1", "13"),
    ] {
        let out = generate(&[
            "--rows", rows, "--cols", cols, "--count", count, "--seed", seed,
        ]);
        let more = parse(&out);
        assert_eq!(more.len().to_string(), count);
        text.extend_from_slice(&out[..out.len() - 4]);
        puzzles.extend(more);
    }
    text.extend_from_slice(b"0 0\n");
    solve_and_check(&text, &puzzles);
}

#[test]
fn a_200_by_200_puzzle() {
    let out = generate(&["--rows", "200", "--cols", "200", "--seed", "5"]);
    let puzzles = parse(&out);
    assert_eq!(puzzles.len(), 1);
    assert_eq!((puzzles[0].rows, puzzles[0].cols), (200, 200));
    solve_and_check(&out, &puzzles);
}

#[test]
fn count_zero_writes_only_the_end_line() {
    assert_eq!(
        generate(&["--rows", "3", "--cols", "3", "--count", "0"]),
        b"0 0\n"
    );
}

#[test]
fn impossible_sizes_are_rejected() {
    for (args, expected) in [
        (
            &["gen", "--rows", "0", "--cols", "5"][..],
            "size 0x5 has no cells",
        ),
        (
            &["gen", "--rows", "4", "--cols", "0"][..],
            "size 4x0 has no cells",
        ),
        (
            &["gen", "--rows", "1", "--cols", "1"][..],
            "size 1x1 has no Slink puzzle",
        ),
        (
            &["gen", "--rows", "100001", "--cols", "2"][..],
            "size 100001x2 is too large",
        ),
    ] {
        let r = run(args, b"");
        assert_eq!(r.status, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.starts_with("slink gen: ") && r.stderr.contains(expected),
            "{args:?}: {}",
            r.stderr
        );
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
    }
    // A rule set that finishes nothing: generation gives up after a bounded number of
    // candidates; the puzzles written before (none here) still end with `0 0`.
    let empty = std::env::temp_dir().join(format!("slink-gen-empty-rules-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let dir = empty.to_str().unwrap();
    let r = run(&["gen", "--rows", "3", "--cols", "3", "--rules", dir], b"");
    std::fs::remove_dir(&empty).unwrap();
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(r.stderr.contains("gave up on a 3x3 puzzle"), "{}", r.stderr);
    assert_eq!(r.stdout, b"0 0\n");
    // Bad arguments are clap's usage errors, also status 2.
    let r = run(&["gen", "--rows", "-3", "--cols", "3"], b"");
    assert_eq!(r.status, 2);
    let r = run(&["gen", "--cols", "3"], b"");
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("--rows"));
}
