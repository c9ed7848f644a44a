//! Ambiguity (issue 26 item 1) and the search's counting (issue 25 items 2 and 3), through
//! the binary and checked against the brute-force oracle (`tests/oracle`, varisat): the
//! count, the facts and the suggested clues on random small ambiguous puzzles (generated
//! Slink puzzles with clues blanked), a puzzle of two independent ambiguous parts counted as
//! the product, and a second answer found near the first.

mod common;
mod oracle;

use common::{Lcg, slink};
use oracle::{Common, Grid, count, is_solution};
use serde_json::Value;

/// A generated Slink puzzle (unique, every cell a clue).
fn generated(rows: usize, cols: usize, seed: u64) -> Grid {
    let run = slink(
        &[
            "gen",
            "--rows",
            &rows.to_string(),
            "--cols",
            &cols.to_string(),
            "--seed",
            &seed.to_string(),
        ],
        b"",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = run.stdout_text();
    let clues: Vec<Option<u8>> = text
        .lines()
        .skip(1)
        .take(rows)
        .flat_map(|l| l.split_whitespace().map(|w| w.parse::<u8>().ok()))
        .collect();
    Grid::new(rows, cols, clues)
}

/// Small puzzles with several answers (at most `most`, all enumerated by the oracle): generated
/// Slink puzzles with a random share of their clues blanked.
fn ambiguous(n: usize, most: usize) -> Vec<(Grid, oracle::Count)> {
    let mut rng = Lcg(26);
    let mut out = Vec::new();
    let mut seed = 1;
    while out.len() < n {
        seed += 1;
        assert!(seed < 400, "too few ambiguous puzzles found");
        let (rows, cols) = (3 + rng.below(3) as usize, 3 + rng.below(3) as usize);
        let full = generated(rows, cols, seed);
        let share = 3 + rng.below(5);
        let clues = (0..rows * cols)
            .map(|i| {
                let k = full.clue(i / cols, i % cols);
                if rng.below(10) < share { None } else { k }
            })
            .collect();
        let grid = Grid::new(rows, cols, clues);
        let all = count(&grid, most + 1);
        if all.len() >= 2 && !all.capped {
            out.push((grid, all));
        }
    }
    out
}

/// The JSON records of a run, one per puzzle.
fn records(args: &[&str], grids: &[&Grid]) -> Vec<Value> {
    let stream: String = grids
        .iter()
        .map(|g| g.to_text().trim_end_matches("0 0\n").to_string())
        .collect::<String>()
        + "0 0\n";
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let run = slink(&all, stream.as_bytes());
    let out: Vec<Value> = run
        .stdout_text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(out.len(), grids.len(), "{}", run.stderr);
    out
}

/// An edge-state object (`edges` or `facts`) as one character per oracle edge.
fn edge_chars(grid: &Grid, edges: &Value) -> Vec<char> {
    let mut out = vec![' '; grid.edges()];
    for (r, row) in edges["horizontal"].as_array().unwrap().iter().enumerate() {
        for (c, ch) in row.as_str().unwrap().chars().enumerate() {
            out[grid.h(r, c)] = ch;
        }
    }
    for (r, row) in edges["vertical"].as_array().unwrap().iter().enumerate() {
        for (c, ch) in row.as_str().unwrap().chars().enumerate() {
            out[grid.v(r, c)] = ch;
        }
    }
    out
}

/// The oracle's facts as `edges` characters.
fn oracle_facts(all: &oracle::Count) -> Vec<char> {
    all.common()
        .into_iter()
        .map(|c| match c {
            Common::Line => 'L',
            Common::Cross => 'x',
            Common::Differs => '?',
        })
        .collect()
}

/// The grid with one more clue.
fn with_clue(grid: &Grid, r: usize, c: usize, k: u8) -> Grid {
    let mut clues: Vec<Option<u8>> = (0..grid.rows * grid.cols)
        .map(|i| grid.clue(i / grid.cols, i % grid.cols))
        .collect();
    assert!(clues[r * grid.cols + c].is_none(), "a suggestion on a clue");
    clues[r * grid.cols + c] = Some(k);
    Grid::new(grid.rows, grid.cols, clues)
}

#[test]
fn counts_and_facts_agree_with_the_oracle_on_random_ambiguous_puzzles() {
    let puzzles = ambiguous(24, 400);
    let grids: Vec<&Grid> = puzzles.iter().map(|(g, _)| g).collect();
    for bound in [2usize, 1000] {
        let got = records(&["--count", &bound.to_string()], &grids);
        for ((grid, all), rec) in puzzles.iter().zip(&got) {
            let text = grid.to_text();
            assert_eq!(rec["outcome"], "several", "{text}");
            assert_eq!(
                rec["solutions"].as_u64().unwrap() as usize,
                all.len().min(bound),
                "{text}"
            );
            assert_eq!(edge_chars(grid, &rec["facts"]), oracle_facts(all), "{text}");
            // The answer printed agrees with every fact.
            let answer = edge_chars(grid, &rec["edges"]);
            for (a, f) in answer.iter().zip(oracle_facts(all)) {
                assert!(f == '?' || *a == f, "{text}");
            }
        }
    }
    // A puzzle with one answer: one solution, and the facts are the answer.
    let unique = generated(4, 4, 7);
    let rec = &records(&["--count", "5"], &[&unique])[0];
    assert_eq!(rec["outcome"], "solved");
    assert_eq!(rec["solutions"], 1);
    assert_eq!(rec["facts"], rec["edges"]);
    // Without --count, a puzzle with one answer gets no new fields.
    let rec = &records(&[], &[&unique])[0];
    assert!(rec.get("solutions").is_none() && rec.get("facts").is_none());
}

#[test]
fn suggested_clues_make_the_answer_unique_and_agree_with_the_oracle() {
    let puzzles = ambiguous(12, 200);
    let grids: Vec<&Grid> = puzzles.iter().map(|(g, _)| g).collect();
    let got = records(&["--suggest"], &grids);
    for ((grid, all), rec) in puzzles.iter().zip(&got) {
        let text = grid.to_text();
        let suggestions = rec["suggestions"].as_array().unwrap();
        // Every blank cell and value, by the oracle: does it alone leave one answer?
        let mut unique_exists = false;
        for r in 0..grid.rows {
            for c in 0..grid.cols {
                if grid.clue(r, c).is_some() {
                    continue;
                }
                for k in 0..=3 {
                    unique_exists |= count(&with_clue(grid, r, c, k), 2).len() == 1;
                }
            }
        }
        assert!(all.len() >= 2);
        for s in suggestions {
            let (r, c) = (
                s["cell"][0].as_u64().unwrap() as usize,
                s["cell"][1].as_u64().unwrap() as usize,
            );
            let k = s["clue"].as_u64().unwrap() as u8;
            let changed = with_clue(grid, r, c, k);
            let after = count(&changed, 100_000);
            assert!(!after.capped);
            let left = oracle_facts(&after).iter().filter(|&&f| f == '?').count();
            assert_eq!(
                s["undetermined"].as_u64().unwrap() as usize,
                left,
                "{text}{s}"
            );
            assert_eq!(left == 0, unique_exists, "{text}{s}");
            if left == 0 {
                // Solved again end to end: one answer, no message.
                let run = slink(&[], changed.to_text().as_bytes());
                assert_eq!(run.status, 0, "{}{}", changed.to_text(), run.stderr);
                assert!(run.stderr.is_empty(), "{}", run.stderr);
            }
        }
    }
}

#[test]
fn the_text_outcome_says_how_many_edges_are_undetermined_and_names_the_suggestions() {
    let run = slink(&["--count", "100", "--suggest"], b"2 2\n. .\n. .\n0 0\n");
    assert_eq!(run.status, 1);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(
        lines[0].contains("several solutions (exactly 13)")
            && lines[0].contains("12 of 12 edges are undetermined"),
        "{}",
        run.stderr
    );
    assert!(
        lines[1].contains("suggest: clue 0 in cell (0, 0)")
            && lines[1].contains("makes the answer unique"),
        "{}",
        run.stderr
    );
    let bad = slink(&["--count", "0"], b"");
    assert_eq!(bad.status, 2);
    assert!(bad.stderr.contains("at least 1"), "{}", bad.stderr);
}

#[test]
fn unicode_and_svg_draw_the_undetermined_edges_apart() {
    // A 2x3 grid with two 2s and several answers: the oracle says which edges differ, and
    // the drawings mark exactly those.
    let grid = Grid::new(2, 3, vec![None, Some(2), None, None, Some(2), None]);
    let all = count(&grid, 1000);
    assert!(all.len() >= 2);
    let differ = oracle_facts(&all).iter().filter(|&&f| f == '?').count();
    let uni = slink(
        &["--format", "unicode", "--color", "never"],
        grid.to_text().as_bytes(),
    );
    let text = uni.stdout_text();
    let marks =
        text.matches('┄').count() / 3 + text.matches('┆').count() + text.matches('?').count();
    assert_eq!(marks, differ, "{text}");
    let plain = slink(
        &["--format", "unicode", "--color", "never"],
        generated(3, 3, 2).to_text().as_bytes(),
    );
    assert!(!plain.stdout_text().contains('?') && !plain.stdout_text().contains('┄'));
    let svg = slink(&["--format", "svg"], grid.to_text().as_bytes()).stdout_text();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let path = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("undetermined"))
        .expect("a path of undetermined edges");
    assert_eq!(path.attribute("d").unwrap().matches('M').count(), differ);
}

/// Puzzles made from a generated Slink puzzle with the clues of a 2x2 window blanked.
fn blanked(grid: &Grid, windows: &[(usize, usize)]) -> Grid {
    let clues = (0..grid.rows * grid.cols)
        .map(|i| {
            let (r, c) = (i / grid.cols, i % grid.cols);
            let inside = windows
                .iter()
                .any(|&(wr, wc)| (wr..wr + 2).contains(&r) && (wc..wc + 2).contains(&c));
            if inside { None } else { grid.clue(r, c) }
        })
        .collect();
    Grid::new(grid.rows, grid.cols, clues)
}

/// A puzzle of two independent ambiguous parts: a 4x10 Slink puzzle with a 2x2 window
/// blanked at each end, each window alone giving several answers; with the oracle's counts
/// of each window alone and of both.
fn two_halves() -> (Grid, usize, usize, usize) {
    for seed in 1..200 {
        let full = generated(4, 10, seed);
        for left in [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)] {
            let a = count(&blanked(&full, &[left]), 50).len();
            if a < 2 {
                continue;
            }
            for right in [(0, 8), (1, 8), (2, 8), (0, 7), (1, 7), (2, 7)] {
                let b = count(&blanked(&full, &[right]), 50).len();
                if b < 2 {
                    continue;
                }
                let both = blanked(&full, &[left, right]);
                let n = count(&both, 5000).len();
                return (both, a, b, n);
            }
        }
    }
    panic!("no puzzle of two ambiguous halves found");
}

#[test]
fn two_independent_ambiguous_halves_count_the_product() {
    let (grid, a, b, n) = two_halves();
    assert_eq!(n, a * b, "the oracle: {}", grid.to_text());
    let rec = &records(&["--count", "1000"], &[&grid])[0];
    assert_eq!(
        rec["solutions"].as_u64().unwrap() as usize,
        a * b,
        "{}",
        grid.to_text()
    );
    // Under the bound, the product is still the bound.
    let rec = &records(&["--count", &(a * b - 1).to_string()], &[&grid])[0];
    assert_eq!(rec["solutions"].as_u64().unwrap() as usize, a * b - 1);
    // The count was made part by part (the library says how many parts).
    let mut solver = oracle::slink_solver();
    solver.set_ambiguity(slink::AmbiguityOptions {
        count: 1000,
        suggest: false,
    });
    let attempt = solver.attempt(&oracle::to_puzzle(&grid));
    let ambiguity = attempt.ambiguity.expect("worked out");
    assert_eq!(ambiguity.parts, 2, "{}", grid.to_text());
    assert_eq!(ambiguity.solutions as usize, a * b);
}

#[test]
fn a_second_answer_near_the_first_is_reported_as_several_with_both_valid() {
    // A puzzle with exactly two answers that differ in one small window.
    let mut found = None;
    'seeds: for seed in 1..200 {
        let full = generated(5, 5, seed);
        for r in 0..4 {
            for c in 0..4 {
                let grid = blanked(&full, &[(r, c)]);
                if count(&grid, 3).len() == 2 {
                    found = Some(grid);
                    break 'seeds;
                }
            }
        }
    }
    let grid = found.expect("a puzzle with two answers");
    let rec = &records(&[], &[&grid])[0];
    assert_eq!(rec["outcome"], "several", "{}", grid.to_text());
    let first: Vec<bool> = edge_chars(&grid, &rec["edges"])
        .iter()
        .map(|&c| c == 'L')
        .collect();
    let facts = edge_chars(&grid, &rec["facts"]);
    // With two answers, the second is the first with every undetermined edge flipped.
    let second: Vec<bool> = first
        .iter()
        .zip(&facts)
        .map(|(&on, &f)| if f == '?' { !on } else { on })
        .collect();
    assert!(is_solution(&grid, &first) && is_solution(&grid, &second));
    assert_ne!(first, second);
    // Near: they differ within the blanked window's few edges.
    let differ = facts.iter().filter(|&&f| f == '?').count();
    assert!((1..=12).contains(&differ), "{differ}");
}

/// `h(r,c)` / `v(r,c)` for an edge in the oracle's numbering.
fn oracle_edge_name(grid: &Grid, e: usize) -> String {
    let horizontal = (grid.rows + 1) * grid.cols;
    if e < horizontal {
        format!("h({},{})", e / grid.cols, e % grid.cols)
    } else {
        let v = e - horizontal;
        format!("v({},{})", v / (grid.cols + 1), v % (grid.cols + 1))
    }
}

#[test]
fn the_explanation_names_and_draws_the_edges_that_differ() {
    let dir = common::TempDir::new("explain-undetermined");
    for (k, (grid, all)) in ambiguous(4, 200).iter().enumerate() {
        let text = grid.to_text();
        let differ: Vec<usize> = oracle_facts(all)
            .iter()
            .enumerate()
            .filter(|&(_, &f)| f == '?')
            .map(|(e, _)| e)
            .collect();
        let names: Vec<String> = differ.iter().map(|&e| oracle_edge_name(grid, e)).collect();
        // Text: the headline counts them and the last line names them.
        let run = slink(&["explain"], text.as_bytes());
        assert_eq!(run.status, 1, "{}", run.stderr);
        let out = run.stdout_text();
        let n = differ.len();
        let counted = format!("several solutions ({n} edges differ between them)");
        assert!(out.lines().next().unwrap().contains(&counted), "{out}");
        let last = out.lines().last().unwrap();
        let listed = format!(
            "{n} edges differ between the solutions: {}",
            names.join(", ")
        );
        assert!(last.ends_with(&listed), "{last}\nwant {listed}\n{text}");
        // The page: its data holds exactly those edges (the page numbers edges as the
        // oracle does), and says the list is complete.
        let (run, page) = common::explain_page(&dir, &k.to_string(), &text);
        assert_eq!(run.status, 1, "{}", run.stderr);
        let data = common::page_data(&page);
        let drawn: Vec<usize> = data["undetermined"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(drawn, differ, "{text}");
        assert_eq!(data["undetermined_complete"], true);
        assert!(data["outcome"].as_str().unwrap().contains(&counted));
    }
    // A puzzle with one answer: nothing marked, nothing said.
    let unique = generated(4, 4, 7).to_text();
    let out = slink(&["explain"], unique.as_bytes()).stdout_text();
    assert!(!out.contains("differ"), "{out}");
    let (run, page) = common::explain_page(&dir, "unique", &unique);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let data = common::page_data(&page);
    assert_eq!(data["undetermined"].as_array().unwrap().len(), 0);
}
