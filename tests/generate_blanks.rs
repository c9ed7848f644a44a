//! End-to-end tests of `slink gen --blanks` with `--symmetry`, `--minimal`,
//! `--no-adjacent-zeros`, `--grade` and `--shape`: every generated puzzle of a run is checked
//! with the `slink` binary itself (its answers, its `several` outcome, its `--grade` line).

use slink::{Puzzle, parse_all};

mod common;

use common::slink;

/// Runs `slink gen` with `args`; it must succeed. Returns the puzzles.
fn generate(args: &[&str]) -> Vec<Puzzle> {
    let mut full = vec!["gen", "-j", "2"];
    full.extend_from_slice(args);
    let r = slink(&full, b"");
    assert_eq!(r.status, 0, "slink {full:?} failed: {}", r.stderr);
    assert!(r.stderr.is_empty(), "slink {full:?} wrote: {}", r.stderr);
    parse_all("gen", &r.stdout).expect("generated output parses")
}

/// The stream text of one puzzle.
fn stream(p: &Puzzle) -> Vec<u8> {
    let mut text = Vec::new();
    p.write_to(&mut text);
    text.extend_from_slice(b"0 0\n");
    text
}

/// Solves one puzzle with `slink` and `extra` options; returns (status, stderr).
fn solve(p: &Puzzle, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(extra);
    let r = slink(&args, &stream(p));
    (r.status, r.stderr)
}

/// The outcome word of the JSON record of one puzzle.
fn outcome(p: &Puzzle) -> String {
    let r = slink(&["--format", "json"], &stream(p));
    let text = String::from_utf8(r.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON line");
    v["outcome"].as_str().unwrap().to_string()
}

fn unique(p: &Puzzle) {
    assert_eq!(
        outcome(p),
        "solved",
        "not unique:\n{}",
        String::from_utf8(stream(p)).unwrap()
    );
}

#[test]
fn symmetric_layouts() {
    for (sym, rows, cols) in [("180", 7, 8), ("90", 7, 7), ("mirror", 6, 9)] {
        let puzzles = generate(&[
            "--rows",
            &rows.to_string(),
            "--cols",
            &cols.to_string(),
            "--count",
            "3",
            "--blanks",
            "--symmetry",
            sym,
            "--seed",
            "4",
        ]);
        assert_eq!(puzzles.len(), 3);
        for p in &puzzles {
            let blank = |r: usize, c: usize| p.clue(r, c).is_none();
            for r in 0..rows {
                for c in 0..cols {
                    let image = match sym {
                        "180" => (rows - 1 - r, cols - 1 - c),
                        "90" => (c, rows - 1 - r),
                        _ => (r, cols - 1 - c),
                    };
                    assert_eq!(blank(r, c), blank(image.0, image.1), "{sym} at ({r}, {c})");
                }
            }
            assert!(p.clues.iter().any(Option::is_none), "something is blanked");
            unique(p);
        }
    }
    // Quarter turns need a square grid.
    let r = slink(
        &[
            "gen",
            "--rows",
            "4",
            "--cols",
            "5",
            "--blanks",
            "--symmetry",
            "90",
        ],
        b"",
    );
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .contains("symmetry 90 needs a square grid, not 4x5"),
        "{}",
        r.stderr
    );
}

#[test]
fn minimal_puzzles_need_every_clue() {
    for (size, sym) in [("6", "none"), ("7", "180")] {
        let puzzles = generate(&[
            "--rows",
            size,
            "--cols",
            size,
            "--count",
            "2",
            "--blanks",
            "--minimal",
            "--symmetry",
            sym,
            "--seed",
            "11",
        ]);
        for p in &puzzles {
            unique(p);
            let (rows, cols) = (p.rows, p.cols);
            let mut tried = vec![false; rows * cols];
            for r in 0..rows {
                for c in 0..cols {
                    if p.clue(r, c).is_none() || tried[r * cols + c] {
                        continue;
                    }
                    // The clue, with its symmetric image, removed: several solutions.
                    let mut q = p.clone();
                    let mut orbit = vec![(r, c)];
                    if sym == "180" {
                        orbit.push((rows - 1 - r, cols - 1 - c));
                    }
                    for &(y, x) in &orbit {
                        q.clues[y * cols + x] = None;
                        tried[y * cols + x] = true;
                    }
                    assert_eq!(outcome(&q), "several", "clue ({r}, {c}) is not needed");
                }
            }
        }
    }
}

#[test]
fn no_adjacent_zeros_and_no_four() {
    let puzzles = generate(&[
        "--rows",
        "10",
        "--cols",
        "10",
        "--count",
        "4",
        "--blanks",
        "--no-adjacent-zeros",
        "--shape",
        "blob",
        "--seed",
        "2",
    ]);
    for p in &puzzles {
        for r in 0..p.rows {
            for c in 0..p.cols {
                let k = p.clue(r, c);
                assert_ne!(
                    k,
                    Some(4),
                    "a 4 is met only by the 1x1 loop around its cell"
                );
                if k == Some(0) {
                    if c + 1 < p.cols {
                        assert_ne!(p.clue(r, c + 1), Some(0), "zeros at ({r}, {c}) and right");
                    }
                    if r + 1 < p.rows {
                        assert_ne!(p.clue(r + 1, c), Some(0), "zeros at ({r}, {c}) and below");
                    }
                }
            }
        }
        unique(p);
    }
}

#[test]
fn every_puzzle_has_the_grade_asked_for() {
    for (step, words) in [("colouring", "colouring"), ("probing", "probing")] {
        let puzzles = generate(&[
            "--rows", "8", "--cols", "8", "--count", "3", "--blanks", "--grade", step, "--seed",
            "5",
        ]);
        for p in &puzzles {
            let (status, err) = solve(p, &["--grade"]);
            assert_eq!(status, 0, "{err}");
            let line = err
                .lines()
                .find(|l| l.contains("grade:"))
                .expect("a grade line");
            assert!(line.contains("no search"), "{step}: {line}");
            assert!(line.contains(words), "{step}: {line}");
            if step == "colouring" {
                assert!(
                    !line.contains("probing") && !line.contains("connectivity"),
                    "{line}"
                );
            }
        }
    }
    let r = slink(
        &[
            "gen", "--rows", "4", "--cols", "4", "--blanks", "--grade", "trial",
        ],
        b"",
    );
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("give one of rules, loop-closure"),
        "{}",
        r.stderr
    );
    let r = slink(
        &["gen", "--rows", "4", "--cols", "4", "--grade", "probing"],
        b"",
    );
    assert_eq!(r.status, 2, "--grade needs --blanks: {}", r.stderr);
}

#[test]
fn shapes_make_valid_puzzles() {
    for shape in ["blob", "maze", "mixed"] {
        let puzzles = generate(&[
            "--rows", "15", "--cols", "15", "--count", "2", "--shape", shape, "--seed", "3",
        ]);
        for p in &puzzles {
            assert!(p.clues.iter().all(|c| matches!(c, Some(0..=3))));
            unique(p);
        }
        let zeros = |ps: &[Puzzle]| -> usize {
            ps.iter()
                .map(|p| p.clues.iter().filter(|&&c| c == Some(0)).count())
                .sum()
        };
        if shape == "maze" {
            // Corridors everywhere: few cells away from the loop.
            assert!(
                zeros(&puzzles) < 2 * 15 * 15 / 4,
                "maze: {} zeros",
                zeros(&puzzles)
            );
        }
    }
    // The same output on one thread and on several.
    let args = [
        "gen", "--rows", "9", "--cols", "9", "--count", "4", "--blanks", "--seed", "8",
    ];
    let one = slink(&[&args[..], &["-j", "1"]].concat(), b"");
    let two = slink(&[&args[..], &["-j", "3"]].concat(), b"");
    assert_eq!(one.stdout, two.stdout);
    assert!(
        one.stderr.is_empty(),
        "no progress bar off a terminal: {}",
        one.stderr
    );
}
