//! End-to-end tests of the regions deducer (`use regions`, in the built-in set): it finishes
//! puzzles by deduction that colouring and connectivity leave, `--no-regions` switches it off,
//! with no rules it deduces nothing from clues, and `explain` says of each cell a regions step
//! placed which side it is on and why, which the answer bears out.

mod common;

use common::answers::nth_puzzle;

use common::{TempDir, data, slink};
use serde_json::Value;

fn corpus() -> String {
    std::fs::read_to_string(data("puzzles-slitherlink.in")).unwrap()
}

/// Puzzles of the Slitherlink corpus that end stuck with deduction alone.
fn stuck(args: &[&str]) -> usize {
    let mut all = vec!["--no-search", "--no-probing"];
    all.extend(args);
    let run = slink(&all, corpus().as_bytes());
    run.stderr.lines().filter(|l| l.contains("stuck")).count()
}

#[test]
fn regions_finish_puzzles_colouring_and_connectivity_leave_and_no_regions_switches_them_off() {
    let with = stuck(&[]);
    let without = stuck(&["--no-regions"]);
    // 43 and 62 (2026-12-06, with the small set of 97 learned rules; 72 and 92 with 31; 74 and 94 with 27; 78 and 97 with 23; 85 and 104 with 17; 105 and 125 with
    // probe-one-two-2x2-1 built in too; 107 and 125 with
    // two-1x1-colour-1 and region parity built in; 109 and 127
    // with the rule alone, 110 and 128 before): fewer
    // apart than before, since connectivity's linked edges keep the sides joined too (also
    // with --no-regions).
    assert!(
        with + 10 < without,
        "regions: {with} stuck, without: {without}"
    );
}

#[test]
fn with_no_rules_colouring_and_regions_deduce_nothing_from_clues() {
    let dir = TempDir::new("regions-only");
    std::fs::write(dir.0.join("global.rules"), "use colouring\nuse regions\n").unwrap();
    let input = std::fs::read(data("sample.in")).unwrap();
    let run = slink(
        &["--rules", dir.path(), "--no-probing", "--no-search"],
        &input,
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    let mut puzzles = 0;
    for line in run.stderr.lines().filter(|l| l.contains("stuck")) {
        // "... with N of N edges unknown": not one edge decided.
        let words: Vec<&str> = line.rsplit(' ').collect();
        assert_eq!(words[3], "of", "{line}");
        assert_eq!(words[2], words[4], "{line}");
        puzzles += 1;
    }
    assert!(puzzles > 0, "{}", run.stderr);
}

/// Every `(r, c)` in a text.
fn cells_in(text: &str) -> Vec<(usize, usize)> {
    text.split('(')
        .skip(1)
        .filter_map(|s| {
            let (pair, _) = s.split_once(')')?;
            let (r, c) = pair.split_once(", ")?;
            Some((r.parse().ok()?, c.parse().ok()?))
        })
        .collect()
}

#[test]
fn explain_says_which_side_each_placed_cell_is_on_and_the_answer_agrees() {
    let text = corpus();
    let mut named = 0;
    // Puzzles 15, 17 and 25 (from 1) have regions steps in their explanations.
    for index in 0..25 {
        let puzzle = nth_puzzle(&text, index);
        // The answer's sides: a cell is inside when an odd number of vertical lines lie to
        // its left in its row.
        let run = slink(&["--format", "json"], puzzle.as_bytes());
        assert_eq!(run.status, 0, "{}", run.stderr);
        let record: Value = serde_json::from_str(run.stdout_text().trim()).unwrap();
        let vertical: Vec<Vec<char>> = record["edges"]["vertical"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_str().unwrap().chars().collect())
            .collect();
        let inside = |(r, c): (usize, usize)| {
            vertical[r][..=c].iter().filter(|&&e| e == 'L').count() % 2 == 1
        };
        let run = slink(&["explain"], puzzle.as_bytes());
        assert_eq!(run.status, 0, "{}", run.stderr);
        for line in run.stdout_text().lines() {
            let Some(words) = line.split_once(". regions").map(|(_, w)| w) else {
                continue;
            };
            let (placed, _edges) = words.rsplit_once(": ").unwrap();
            let placed = placed
                .strip_prefix(": ")
                .expect("a regions step names its cells");
            for cell in placed.split("; ") {
                let (head, why) = cell.split_once(": ").unwrap();
                let side = head.ends_with("is inside");
                assert!(side || head.ends_with("is outside"), "{line}");
                let at = cells_in(head)[0];
                assert_eq!(inside(at), side, "puzzle {index}: {line}");
                // The cells it joins are on its side too.
                for other in cells_in(why) {
                    assert_eq!(inside(other), side, "puzzle {index}: {line}");
                }
                named += 1;
            }
        }
    }
    assert!(named > 0, "some regions step in the first puzzles");
}

#[test]
fn a_cell_placed_with_no_edge_decided_still_has_its_step() {
    // Regions may place a cell when none of its neighbours' colours is known yet: no edge
    // follows at once, and the step is still told, in the text and on the HTML page.
    // (Connectivity is off: its linked edges, which come first, leave regions fewer cells.)
    const NO_EDGE: &str = ": no edge decided yet (the colour rules take the cells up)";
    let text = corpus();
    let (index, step, line) = (0..150)
        .find_map(|index| {
            let puzzle = nth_puzzle(&text, index);
            let run = slink(&["explain", "--no-connectivity"], puzzle.as_bytes());
            assert_eq!(run.status, 0, "{}", run.stderr);
            let out = run.stdout_text();
            let line = out
                .lines()
                .find(|l| l.ends_with(NO_EDGE))?
                .trim()
                .to_string();
            let (step, _) = line.split_once(". ").unwrap();
            Some((index, step.parse::<usize>().unwrap(), line))
        })
        .expect("a regions step that decided no edge in the corpus's first 150 puzzles");
    assert!(line.contains(". regions: cell ("), "{line}");
    let dir = TempDir::new("regions-edgeless");
    let page = dir.0.join("p.html");
    let puzzle = nth_puzzle(&text, index);
    let run = slink(
        &[
            "explain",
            "--no-connectivity",
            "--html",
            page.to_str().unwrap(),
        ],
        puzzle.as_bytes(),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let words = line[format!("{step}. ").len()..line.len() - NO_EDGE.len()].to_string();
    assert!(html.contains(&words), "{words}");
    assert!(html.contains("\"no_edge\":\"no edge decided yet"));
}
