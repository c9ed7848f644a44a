//! End-to-end tests of completeness: the built binary finishes every Slitherlink puzzle of
//! the corpus, says whether an answer is the only one, keeps its budgets, and `slink gen
//! --blanks` makes Slitherlink puzzles that deduction alone finishes.

mod common;

use common::{Lcg, Run, data, slink};

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap_or_else(|e| panic!("tests/data/{name}: {e}"))
}

fn text(name: &str) -> String {
    String::from_utf8(read(name)).unwrap()
}

/// The numbers of the answers in an answer stream (the lines holding only a number).
fn answered(run: &Run) -> Vec<usize> {
    run.stdout_text()
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect()
}

/// The stderr lines about puzzle `k`.
fn lines_about(run: &Run, k: usize) -> Vec<&str> {
    let tag = format!("puzzle {k} (");
    run.stderr.lines().filter(|l| l.contains(&tag)).collect()
}

/// Puzzle `k` (1-based) of a stream file, as a stream of its own.
fn nth_puzzle(name: &str, k: usize) -> String {
    common::answers::nth_puzzle(&text(name), k - 1)
}

#[test]
fn every_slitherlink_puzzle_of_the_corpus_is_solved_exactly_and_unique() {
    let run = slink(&["solve", "tests/data/puzzles-slitherlink.in"], b"");
    assert_eq!(run.stderr, "", "every puzzle solved, each unique");
    assert!(
        run.stdout_text() == text("puzzles-slitherlink.out"),
        "the answers differ from tests/data/puzzles-slitherlink.out"
    );
    assert_eq!(run.status, 0);
}

#[test]
fn deduction_alone_finishes_nine_in_ten_slitherlink_puzzles() {
    let run = slink(&["--no-search", "tests/data/puzzles-slitherlink.in"], b"");
    let expected = text("puzzles-slitherlink.out");
    let out = run.stdout_text();
    // Every answer printed is the expected one.
    let blocks = |s: &str| -> Vec<String> {
        let mut blocks: Vec<String> = Vec::new();
        for line in s.lines() {
            if line.parse::<usize>().is_ok() {
                blocks.push(String::new());
            }
            let block = blocks.last_mut().expect("a number line first");
            block.push_str(line);
            block.push('\n');
        }
        blocks
    };
    let expected: Vec<String> = blocks(&expected);
    let got = blocks(&out);
    for block in &got {
        let k: usize = block.lines().next().unwrap().parse().unwrap();
        assert_eq!(block, &expected[k - 1], "answer {k}");
    }
    assert!(
        got.len() * 10 >= 580 * 9,
        "only {} of 580 solved by deduction",
        got.len()
    );
    // The others are reported stuck, and nothing is called unsolvable.
    assert_eq!(
        run.stderr.lines().count(),
        580 - got.len(),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.lines().all(|l| l.contains("stuck")),
        "{}",
        run.stderr
    );
    assert_eq!(run.status, 1);
}

#[test]
fn no_search_gives_the_same_results_on_the_slink_corpus() {
    for args in [
        vec!["--no-search", "tests/data/puzzles-slink.in"],
        vec![
            "--no-search",
            "--no-probing",
            "--no-colouring",
            "tests/data/puzzles-slink.in",
        ],
    ] {
        let run = slink(&args, b"");
        assert_eq!(run.stderr, "", "{args:?}");
        assert!(
            run.stdout_text() == text("puzzles-slink.out"),
            "{args:?}: answers differ"
        );
        assert_eq!(run.status, 0);
    }
}

#[test]
fn several_solutions_and_none_are_named_and_the_stream_goes_on() {
    let blank5 = format!("5 5\n{}0 0\n", ". . . . .\n".repeat(5));
    let input = format!(
        "2 2\n. .\n. .\n2 2\n3 3\n3 3\n{}2 2\n2 2\n2 2\n0 0\n",
        blank5.trim_end_matches("0 0\n")
    );
    let run = slink(&["--timeout", "60"], input.as_bytes());
    // 1: blank 2x2, several; 2: 3s, none; 3: blank 5x5, several; 4: the sample's 2x2, solved.
    assert_eq!(answered(&run), vec![1, 3, 4], "{}", run.stderr);
    for k in [1, 3] {
        let lines = lines_about(&run, k);
        assert_eq!(lines.len(), 1, "{}", run.stderr);
        assert!(lines[0].contains("several solutions"), "{}", lines[0]);
    }
    let lines = lines_about(&run, 2);
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(lines[0].contains("no solution"), "{}", lines[0]);
    assert!(lines_about(&run, 4).is_empty(), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 3, "{}", run.stderr);
    assert_eq!(run.status, 1);
    // The answers printed for several solutions are loops meeting every clue: the 2x2 of
    // blanks has a loop; the last answer is the sample's.
    assert!(run.stdout_text().ends_with(
        "4\n#############\n#           #\n# +-------+ #\n# | 2   2 | #\n# |       | #\n# | 2   2 | #\n# +-------+ #\n#           #\n#############\n"
    ));
}

#[test]
fn budgets_end_a_puzzle_as_limit_and_the_stream_goes_on() {
    // Puzzle 284 of the corpus (8x8) needs search: deduction alone, probing included, is
    // stuck on it (one of two since linked edges keep the sides joined).
    let hard = nth_puzzle("puzzles-slitherlink.in", 284);
    let stuck = slink(&["--no-search"], hard.as_bytes());
    assert!(stuck.stderr.contains("stuck"), "{}", stuck.stderr);
    let two = format!("{}{}", hard.trim_end_matches("0 0\n"), hard);
    let run = slink(&["--max-nodes", "1"], two.as_bytes());
    for k in [1, 2] {
        let lines = lines_about(&run, k);
        assert_eq!(lines.len(), 1, "{}", run.stderr);
        assert!(
            lines[0].contains("limit") && lines[0].contains("search-node limit (1)"),
            "{}",
            lines[0]
        );
    }
    assert_eq!(run.status, 1);
    // Enough nodes: solved, unique.
    let run = slink(&["--max-nodes", "1000"], two.as_bytes());
    assert_eq!(run.stderr, "");
    assert_eq!(answered(&run), vec![1, 2]);
    // A time limit far below what any puzzle takes.
    let blank = format!("12 12\n{}0 0\n", ". . . . . . . . . . . .\n".repeat(12));
    let input = format!("{}2 2\n2 2\n2 2\n0 0\n", blank.trim_end_matches("0 0\n"));
    let run = slink(&["--timeout", "0.000001"], input.as_bytes());
    let lines = lines_about(&run, 1);
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(lines[0].contains("time limit"), "{}", lines[0]);
    assert_eq!(answered(&run).last(), Some(&2), "the stream goes on");
    assert_eq!(run.status, 1);
    // Bad budgets are refused.
    for args in [
        ["--timeout", "-1"],
        ["--timeout", "soon"],
        ["--max-nodes", "x"],
    ] {
        let run = slink(&args, b"0 0\n");
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
    }
}

#[test]
fn an_empty_rule_set_does_not_search() {
    let dir = std::env::temp_dir().join(format!("slink-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = slink(&["--rules", dir.to_str().unwrap()], b"2 2\n. .\n. .\n0 0\n");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(run.stdout_text(), "");
    assert!(run.stderr.contains("stuck"), "{}", run.stderr);
}

#[test]
fn gen_blanks_makes_slitherlink_that_deduction_finishes_uniquely() {
    let generate = |args: &[&str]| {
        let run = slink(args, b"");
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        run.stdout
    };
    let args = [
        "gen", "--blanks", "--rows", "8", "--cols", "9", "--count", "5", "--seed", "11",
    ];
    let first = generate(&args);
    assert_eq!(first, generate(&args), "same seed, same output");
    let other = generate(&[
        "gen", "--blanks", "--rows", "8", "--cols", "9", "--count", "5", "--seed", "12",
    ]);
    assert_ne!(first, other);
    let stream = String::from_utf8(first.clone()).unwrap();
    let blanks = stream.split_whitespace().filter(|&w| w == ".").count();
    assert!(blanks > 5 * 72 / 4, "few blanks: {stream}");
    // Deduction alone (no search) finishes each one; search agrees that it is unique.
    let deduced = slink(&["--no-search"], &first);
    assert_eq!(deduced.stderr, "", "{stream}");
    assert_eq!(answered(&deduced), vec![1, 2, 3, 4, 5]);
    let searched = slink(&[], &first);
    assert_eq!(searched.stderr, "");
    assert_eq!(searched.stdout, deduced.stdout);
    // Without probing, rules plus loop closure and colouring finish them; capped at level 1,
    // the level-1 rules do.
    let plain = generate(&[
        "gen",
        "--blanks",
        "--no-probing",
        "--rows",
        "7",
        "--cols",
        "7",
        "--count",
        "4",
    ]);
    let run = slink(&["--no-search", "--no-probing"], &plain);
    assert_eq!(run.stderr, "");
    assert_eq!(answered(&run), vec![1, 2, 3, 4]);
    let level1 = generate(&[
        "gen", "--blanks", "--level", "1", "--rows", "6", "--cols", "6", "--count", "3",
    ]);
    let run = slink(&["--no-search"], &level1);
    assert_eq!(run.stderr, "");
    assert_eq!(answered(&run), vec![1, 2, 3]);
    // --no-probing needs --blanks; level 0 is refused.
    let bad = slink(&["gen", "--no-probing", "--rows", "4", "--cols", "4"], b"");
    assert_eq!(bad.status, 2, "{}", bad.stderr);
    let bad = slink(&["gen", "--level", "0", "--rows", "4", "--cols", "4"], b"");
    assert_eq!(bad.status, 2, "{}", bad.stderr);
}

// ---------------------------------------------------------------------------------------------
// Verdicts against a brute force (issue 25)

/// Whether the cells of `inside` (a bit per cell, row by row) bound one simple loop: the
/// inside is connected, the outside (with the margin) is connected, and no dot has the
/// inside on one diagonal and the outside on the other (four lines).
fn one_loop(rows: usize, cols: usize, inside: u32) -> bool {
    let at = |r: isize, c: isize| -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < rows
            && (c as usize) < cols
            && inside & (1 << (r as usize * cols + c as usize)) != 0
    };
    if inside == 0 {
        return false;
    }
    for r in 0..=rows as isize {
        for c in 0..=cols as isize {
            let (a, b, d, e) = (at(r - 1, c - 1), at(r - 1, c), at(r, c - 1), at(r, c));
            if a == e && b == d && a != b {
                return false;
            }
        }
    }
    // Connected components of each side, over the grid padded by one outside ring.
    let (h, w) = (rows as isize + 2, cols as isize + 2);
    for side in [true, false] {
        let cells: Vec<(isize, isize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|&(r, c)| at(r - 1, c - 1) == side)
            .collect();
        let mut seen = vec![cells[0]];
        let mut k = 0;
        while k < seen.len() {
            let (r, c) = seen[k];
            k += 1;
            for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let n = (r + dr, c + dc);
                if n.0 >= 0
                    && n.1 >= 0
                    && n.0 < h
                    && n.1 < w
                    && at(n.0 - 1, n.1 - 1) == side
                    && !seen.contains(&n)
                {
                    seen.push(n);
                }
            }
        }
        if seen.len() != cells.len() {
            return false;
        }
    }
    true
}

/// The clue each cell would have for the loop around `inside`.
fn clues_of(rows: usize, cols: usize, inside: u32) -> Vec<u8> {
    let at = |r: isize, c: isize| -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < rows
            && (c as usize) < cols
            && inside & (1 << (r as usize * cols + c as usize)) != 0
    };
    let mut clues = Vec::new();
    for r in 0..rows as isize {
        for c in 0..cols as isize {
            let me = at(r, c);
            let n = [(0, 1), (1, 0), (0, -1), (-1, 0)]
                .iter()
                .filter(|&&(dr, dc)| at(r + dr, c + dc) != me)
                .count();
            clues.push(n as u8);
        }
    }
    clues
}

/// How many answers a puzzle has (clue 9: blank), by trying every inside set.
fn brute_count(rows: usize, cols: usize, clues: &[u8]) -> usize {
    (1u32..1 << (rows * cols))
        .filter(|&s| {
            one_loop(rows, cols, s)
                && clues_of(rows, cols, s)
                    .iter()
                    .zip(clues)
                    .all(|(&got, &want)| want == 9 || got == want)
        })
        .count()
}

fn stream_of(rows: usize, cols: usize, clues: &[u8]) -> String {
    let mut s = format!("{rows} {cols}\n");
    for r in 0..rows {
        let row: Vec<String> = (0..cols)
            .map(|c| match clues[r * cols + c] {
                9 => ".".to_string(),
                k => k.to_string(),
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

/// The stream of `puzzles` and the verdict a brute force gives each (0 none, 1 one answer, 2
/// several); the sample must hold all three.
fn stream_and_verdicts(puzzles: &[(usize, usize, Vec<u8>)]) -> (String, Vec<usize>) {
    let mut stream = String::new();
    let mut want = Vec::new();
    for (rows, cols, clues) in puzzles {
        stream.push_str(&stream_of(*rows, *cols, clues));
        want.push(brute_count(*rows, *cols, clues).min(2));
    }
    stream.push_str("0 0\n");
    for v in 0..3 {
        assert!(want.contains(&v), "the sample has verdict {v}: {want:?}");
    }
    (stream, want)
}

/// Random puzzles of at most 4x4: from a random loop with a random share of its clues
/// blanked (unique, several), and with one clue changed (often none).
fn small_puzzles(count: usize, seed: u64) -> Vec<(usize, usize, Vec<u8>)> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let rows = 2 + rng.below(3) as usize;
        let cols = 2 + rng.below(3) as usize;
        let inside = rng.below(1 << (rows * cols)) as u32;
        if !one_loop(rows, cols, inside) {
            continue;
        }
        let mut clues = clues_of(rows, cols, inside);
        if clues.contains(&4) {
            continue; // a clue 4 is not written (a one-cell loop still counts as an answer)
        }
        let blank = rng.below(90);
        for c in clues.iter_mut() {
            if rng.below(100) < blank {
                *c = 9;
            }
        }
        if rng.below(4) == 0 {
            let k = rng.below(clues.len() as u64) as usize;
            clues[k] = rng.below(4) as u8;
        }
        out.push((rows, cols, clues));
    }
    out
}

/// The verdicts of a stream of puzzles: 0 none, 1 the only answer, 2 several.
fn verdicts(args: &[&str], stream: &str, count: usize) -> Vec<usize> {
    let run = slink(args, stream.as_bytes());
    (1..=count)
        .map(|k| match lines_about(&run, k).as_slice() {
            [] => 1,
            [line] if line.contains("several solutions") => 2,
            [line] if line.contains("no solution") => 0,
            other => panic!("puzzle {k}: {other:?}"),
        })
        .collect()
}

#[test]
fn verdicts_on_small_random_puzzles_agree_with_a_brute_force() {
    let puzzles = small_puzzles(120, 25);
    let (stream, want) = stream_and_verdicts(&puzzles);
    for args in [
        vec![],
        vec!["--no-probing"],
        vec!["--no-probing", "--no-colouring"],
    ] {
        let got = verdicts(&args, &stream, puzzles.len());
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{args:?}: puzzle {}:\n{}", k + 1, {
                let (r, c, clues) = &puzzles[k];
                stream_of(*r, *c, clues)
            });
        }
    }
}

#[test]
fn a_puzzle_with_two_answers_is_reported_several_with_one_of_them_printed() {
    // Find a small puzzle with exactly two answers (brute force), then ask slink.
    let puzzles = small_puzzles(400, 7);
    let (rows, cols, clues) = puzzles
        .iter()
        .find(|(r, c, clues)| *r * *c >= 9 && brute_count(*r, *c, clues) == 2)
        .expect("a puzzle with two answers");
    let stream = format!("{}0 0\n", stream_of(*rows, *cols, clues));
    let run = slink(&[], stream.as_bytes());
    let lines = lines_about(&run, 1);
    assert!(
        lines.len() == 1 && lines[0].contains("several solutions"),
        "{stream}{}",
        run.stderr
    );
    // The answer printed is one of the two (as the checker passed it: a loop meeting every
    // clue); the second was checked the same way before "several" was said.
    assert_eq!(answered(&run), vec![1]);
}

/// A generated Slink puzzle (`slink gen ARGS`, `rows` rows) with about half its clues blanked
/// at random (a fixed generator seeded by `seed`), as a stream.
fn half_blanked(args: &[&str], rows: usize, seed: u64) -> String {
    let mut all = vec!["gen"];
    all.extend(args);
    let text = slink(&all, b"").stdout_text();
    let mut rng = Lcg(seed);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for line in lines.iter_mut().skip(1).take(rows) {
        let cells: Vec<String> = line
            .split_whitespace()
            .map(|w| {
                if rng.below(2) == 0 {
                    ".".to_string()
                } else {
                    w.to_string()
                }
            })
            .collect();
        *line = cells.join(" ");
    }
    format!("{}\n", lines.join("\n"))
}

/// A generated N x N puzzle of a loop shape (`slink gen --rows N --cols N --seed SEED --shape
/// SHAPE`) with half its clues blanked (the blanking drawn from N).
fn shaped_half_blanked(n: usize, seed: u64, shape: &str) -> String {
    let (n_text, seed_text) = (n.to_string(), seed.to_string());
    half_blanked(
        &[
            "--rows", &n_text, "--cols", &n_text, "--seed", &seed_text, "--shape", shape,
        ],
        n,
        n as u64,
    )
}

#[test]
fn verdicts_with_every_backjump_chronological_agree_with_a_brute_force() {
    // `SLINK_SAT_CHRONO=0`: every backjump of the verdict search's solver backtracks one
    // level only and assigns the asserting literal out of order (by default only backjumps
    // of over 100 levels do, which small puzzles never make), so the trail out of order,
    // and the loop theory's backtracking over it, are exercised on every conflict.
    verdicts_with_env_agree_with_a_brute_force(26, ("SLINK_SAT_CHRONO", "0"), "chrono");
}

#[test]
fn verdicts_with_stable_phases_from_the_first_conflict_agree_with_a_brute_force() {
    // `SLINK_SAT_STABLE=1`: the verdict search's solver switches between restarts and no
    // restarts after 1, 1, 2, 2, 4, ... conflicts (by default after 2,000, which small
    // puzzles never reach), so both kinds of phase and the switches are exercised.
    verdicts_with_env_agree_with_a_brute_force(27, ("SLINK_SAT_STABLE", "1"), "stable");
}

/// The verdicts of `slink --no-probing` (with and without colouring) with one environment
/// variable of the SAT search set, on 120 small puzzles made from `seed`, against a brute
/// force.
fn verdicts_with_env_agree_with_a_brute_force(seed: u64, var: (&str, &str), name: &str) {
    let puzzles = small_puzzles(120, seed);
    let (stream, want) = stream_and_verdicts(&puzzles);
    for args in [vec!["--no-probing"], vec!["--no-probing", "--no-colouring"]] {
        let run = with_env_args(&args, &stream, (var.0, var.1.as_ref()), name);
        for (k, w) in want.iter().enumerate() {
            let got = match lines_about(&run, k + 1).as_slice() {
                [] => 1,
                [line] if line.contains("several solutions") => 2,
                [line] if line.contains("no solution") => 0,
                other => panic!("puzzle {}: {other:?}", k + 1),
            };
            assert_eq!(got, *w, "{var:?} {args:?}: puzzle {}:\n{}", k + 1, {
                let (r, c, clues) = &puzzles[k];
                stream_of(*r, *c, clues)
            });
        }
    }
}

/// `slink --jobs 1 --timeout 60` on `stream` with one environment variable set (standard
/// output thrown away), for the debugging aids of the SAT search.
fn with_env(stream: &str, var: (&str, &std::ffi::OsStr), name: &str) -> common::Run {
    with_env_args(&[], stream, var, name)
}

/// [`with_env`] with more arguments.
fn with_env_args(
    args: &[&str],
    stream: &str,
    var: (&str, &std::ffi::OsStr),
    name: &str,
) -> common::Run {
    let mut child = std::process::Command::new(common::BIN)
        .args(["--jobs", "1", "--timeout", "60"])
        .args(args)
        .env("SLINK_CACHE_DIR", "")
        .env(var.0, var.1)
        .current_dir(common::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stream.as_bytes())
        .unwrap();
    common::finish(child.wait_with_output().unwrap(), name)
}

#[test]
fn random_blanked_grids_get_a_verdict_quickly() {
    // A 30x30 generated puzzle with half its clues blanked (the shape that ran millions of
    // nodes without a verdict before the SAT search), with and without probing.
    let stream = half_blanked(&["--rows", "30", "--cols", "30", "--seed", "3"], 30, 30);
    for args in [
        vec!["--timeout", "20"],
        vec!["--timeout", "20", "--no-probing"],
    ] {
        let run = slink(&args, stream.as_bytes());
        assert!(!run.stderr.contains("limit"), "{args:?}: {}", run.stderr);
        assert_eq!(answered(&run), vec![1], "{args:?}: {}", run.stderr);
    }
}

#[test]
fn the_puzzles_the_oracle_once_outran_get_a_verdict() {
    // tests/fixtures/oracle-limits.in: small sparse puzzles (7x11 to 12x12, most with no
    // answer) on which slink's search ran 3 to 53 s, or past its 60 s limit, while the
    // differential test's oracle answered in a second or two. Since the region cuts each
    // takes milliseconds. This is a defect check, not a timing test: the 20 s bound per
    // puzzle is generous, so that only a search that lost its region cuts (or loops)
    // fails it. Whether each verdict is right is checked against the oracle in
    // tests/differential.rs.
    let stream = std::fs::read(common::root().join("tests/fixtures/oracle-limits.in")).unwrap();
    let puzzles = String::from_utf8_lossy(&stream)
        .lines()
        .filter(|l| l.split_whitespace().count() == 2 && *l != "0 0")
        .count();
    assert_eq!(puzzles, 20);
    for args in [
        vec!["--timeout", "20", "--jobs", "1"],
        vec!["--timeout", "20", "--jobs", "1", "--no-probing"],
    ] {
        let run = slink(&args, &stream);
        assert!(!run.stderr.contains("limit"), "{args:?}: {}", run.stderr);
        // Each puzzle has a verdict: an answer printed, or a line saying it has none.
        let verdicts = (1..=puzzles)
            .filter(|&k| {
                answered(&run).contains(&k)
                    || lines_about(&run, k)
                        .iter()
                        .any(|l| l.contains("no solution"))
            })
            .count();
        assert_eq!(verdicts, puzzles, "{args:?}: {}", run.stderr);
    }
}

#[test]
fn a_maze_grid_over_the_full_region_pass_size_gets_a_verdict() {
    // A 60x60 maze-like generated puzzle (3,600 cells: over the 2,500 up to which the region
    // cuts also run as passes over every cell, so only the local region check and the
    // incremental chains run) with half its clues blanked. A defect check, not a timing
    // test: the bound is generous, so only a search that loops or lost its cuts fails it.
    let stream = shaped_half_blanked(60, 5, "maze");
    for args in [
        vec!["--timeout", "60", "--jobs", "1"],
        vec!["--timeout", "60", "--jobs", "1", "--no-probing"],
    ] {
        let run = slink(&args, stream.as_bytes());
        assert!(!run.stderr.contains("limit"), "{args:?}: {}", run.stderr);
        assert_eq!(answered(&run), vec![1], "{args:?}: {}", run.stderr);
    }
}

#[test]
fn a_maze_grid_left_mostly_to_search_starts_from_the_planted_comb() {
    // An 80x80 maze-like generated puzzle with half its clues blanked: deduction leaves 92%
    // of its edges unknown, so the solver's first phase is the planted comb (one loop),
    // not every cell outside. From the comb the first answer took about 1,400 conflicts
    // (before the parity clauses, which take it under 600); with every cell starting
    // outside it took about 4,600, over this budget of 2,500.
    maze_80x80_gets_its_verdict_within("2500");
}

#[test]
fn short_parity_equations_halve_the_conflicts_on_a_maze_grid() {
    // The same 80x80 maze grid as above. Each clue fixes the parity of its four neighbours'
    // colours; the short equations that Gauss-Jordan elimination finds in windows of cells
    // are given to the solver as clauses (`encode_parity` in src/deduce/sat.rs). With them
    // the verdict takes between 300 and 600 search nodes (measured); without them it took
    // between 1,200 and 2,500, over this budget of 900.
    maze_80x80_gets_its_verdict_within("900");
}

/// The 80x80 maze-like generated puzzle (seed 1) with half its clues blanked is found to have
/// several solutions within `nodes` search nodes.
fn maze_80x80_gets_its_verdict_within(nodes: &str) {
    let stream = shaped_half_blanked(80, 1, "maze");
    let run = slink(&["--jobs", "1", "--max-nodes", nodes], stream.as_bytes());
    assert!(!run.stderr.contains("limit"), "{}", run.stderr);
    assert_eq!(answered(&run), vec![1], "{}", run.stderr);
    assert!(run.stderr.contains("several solutions"), "{}", run.stderr);
}

/// The clauses over three or more cell colours, and no edge, in the instance that the
/// verdict search of `stream` dumps (`SLINK_SAT_DUMP`): only the parity clauses are such
/// (a colour clause names an edge, or is over one or two cells).
fn parity_clauses_dumped(stream: &str, name: &str) -> usize {
    let dir = common::TempDir::new(name);
    let path = dir.0.join("dump.cnf");
    let run = with_env(stream, ("SLINK_SAT_DUMP", path.as_os_str()), name);
    assert!(!run.stderr.contains("limit"), "{}", run.stderr);
    let dump = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let cells: std::collections::HashSet<i64> = dump
        .lines()
        .filter_map(|l| l.strip_prefix("c cell "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(!cells.is_empty(), "{name}: no cell variables in the dump");
    dump.lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .filter(|l| {
            let lits: Vec<i64> = l
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .filter(|&t: &i64| t != 0)
                .collect();
            lits.len() >= 3 && lits.iter().all(|t| cells.contains(&t.abs()))
        })
        .count()
}

#[test]
fn parity_clauses_are_for_wide_residues_only() {
    // The parity clauses pay on residues that hold most of the grid (a maze loop deduction
    // barely touched: the 80x80 maze grid above leaves 92% of its edges unknown) and cost
    // more than they save on pockets left between decided parts (blob grids: blob 200x200
    // at 70% blanked took 7.3-7.5 s CPU with them, 3.1-4.4 s without; docs/search.md).
    let maze = shaped_half_blanked(80, 1, "maze");
    assert!(parity_clauses_dumped(&maze, "maze") > 100);
    let blob = shaped_half_blanked(60, 2, "blob");
    assert_eq!(parity_clauses_dumped(&blob, "blob"), 0);
}

#[test]
fn the_trace_splits_the_time_and_the_second_answer_is_near_the_first() {
    // `SLINK_SAT_TRACE` (a debugging aid) has the verdict search say, on standard error, the
    // CPU time and the solver's counters when it starts, when its instance is built and
    // after each solver call. On the 80x80 maze grid above the first call finds the first
    // answer (hundreds of conflicts) and the second, started from it by phase saving with
    // the first answer blocked, finds a second answer within a few conflicts (measured: 1;
    // so a cheaper way to the second answer has little to win, docs/search.md).
    let stream = shaped_half_blanked(80, 1, "maze");
    let run = with_env(&stream, ("SLINK_SAT_TRACE", "1".as_ref()), "trace");
    assert!(run.stderr.contains("several solutions"), "{}", run.stderr);
    let trace: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("slink sat: cpu "))
        .collect();
    assert_eq!(trace.len(), 4, "{}", run.stderr);
    assert!(trace[0].contains("search starts ("), "{}", trace[0]);
    assert!(
        trace[1].contains("instance built: 0 conflicts"),
        "{}",
        trace[1]
    );
    assert!(
        trace[2].contains("solver call 1 ended: a model"),
        "{}",
        trace[2]
    );
    assert!(
        trace[3].contains("solver call 2 ended: a model"),
        "{}",
        trace[3]
    );
    let conflicts = |line: &str| -> u64 {
        let (_, counts) = line.split_once(" in it): ").expect("counts");
        counts.split(' ').next().unwrap().parse().unwrap()
    };
    let (first, second) = (conflicts(trace[2]), conflicts(trace[3]));
    assert!(first > 50, "the first answer took conflicts: {}", trace[2]);
    assert!(second - first <= 5, "{} then {}", trace[2], trace[3]);
    // CPU seconds, where the system says them, never go back.
    let cpu: Vec<f64> = trace
        .iter()
        .filter_map(|l| l["slink sat: cpu ".len()..].split(' ').next()?.parse().ok())
        .collect();
    assert!(cpu.windows(2).all(|w| w[0] <= w[1]), "{trace:?}");
}
