//! End-to-end tests of region parity (`use parity`): the answers stay exact with it on, it
//! finishes puzzles by deduction that the rules alone leave, `--no-parity` switches it off,
//! and `explain` names the clue cells whose parity decided each of its edges.

mod common;

use common::answers::nth_puzzle;

use common::{TempDir, data, root, slink};

/// A copy of the built-in rule set with `use parity` added.
fn rules_with_parity() -> TempDir {
    let dir = TempDir::new("parity-rules");
    for entry in std::fs::read_dir(root().join("rules")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dir.0.join(path.file_name().unwrap())).unwrap();
        }
    }
    let global = dir.0.join("global.rules");
    let mut text = std::fs::read_to_string(&global).unwrap();
    if !text.lines().any(|l| l == "use parity") {
        text.push_str("use parity\n");
    }
    std::fs::write(global, text).unwrap();
    dir
}

fn corpus() -> Vec<u8> {
    std::fs::read(data("puzzles-slitherlink.in")).unwrap()
}

/// Puzzles that end stuck with deduction alone.
fn stuck(args: &[&str]) -> usize {
    let mut all = vec!["--no-search", "--no-probing"];
    all.extend(args);
    let run = slink(&all, &corpus());
    run.stderr.lines().filter(|l| l.contains("stuck")).count()
}

#[test]
fn answers_stay_exact_with_parity_on() {
    let rules = rules_with_parity();
    for name in ["sample", "puzzles-slitherlink"] {
        let input = std::fs::read(data(&format!("{name}.in"))).unwrap();
        let run = slink(&["--rules", rules.path()], &input);
        assert_eq!(run.status, 0, "{}", run.stderr);
        let expected = std::fs::read(data(&format!("{name}.out"))).unwrap();
        assert!(
            run.stdout == expected,
            "{name}: answers differ with parity on"
        );
    }
}

#[test]
fn parity_finishes_puzzles_the_edge_rules_leave_and_no_parity_switches_it_off() {
    let rules = rules_with_parity();
    let r = rules.path();
    let without = stuck(&["--rules", r, "--no-colouring", "--no-parity"]);
    let with = stuck(&["--rules", r, "--no-colouring"]);
    assert!(
        with + 20 < without,
        "parity: {with} stuck, without: {without}"
    );
    // With colouring it still adds (the figures are in docs/rules.md).
    assert!(stuck(&["--rules", r]) <= stuck(&["--rules", r, "--no-parity"]));
}

#[test]
fn explain_names_the_clue_cells_whose_parity_decided_each_edge() {
    let rules = rules_with_parity();
    let text = String::from_utf8(corpus()).unwrap();
    let mut named = 0;
    for index in 0..6 {
        let puzzle = nth_puzzle(&text, index);
        let clues: Vec<Vec<&str>> = puzzle
            .lines()
            .skip(1)
            .take_while(|l| *l != "0 0")
            .map(|l| l.split(' ').collect())
            .collect();
        let run = slink(
            &["explain", "--rules", rules.path(), "--no-colouring"],
            puzzle.as_bytes(),
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        for line in run.stdout_text().lines() {
            let Some(words) = line.split_once("region parity: ").map(|(_, w)| w) else {
                continue;
            };
            let (what, edges) = words.rsplit_once(": ").unwrap();
            let edge = edges.split(' ').nth(1).unwrap();
            assert!(what.contains(edge), "{line}");
            if what.contains("either side") {
                continue;
            }
            // "cells (r, c), (r, c) and (r, c) hold clues summing to N": N is their clues' sum.
            let (cells, rest) = what.split_once(" hold").unwrap();
            let sum: u32 = rest
                .split(|c: char| !c.is_ascii_digit())
                .find(|s| !s.is_empty())
                .unwrap()
                .parse()
                .unwrap();
            let mut total = 0;
            for cell in cells.split('(').skip(1) {
                let (r, c) = cell.split_once(')').unwrap().0.split_once(", ").unwrap();
                let clue = clues[r.parse::<usize>().unwrap()][c.parse::<usize>().unwrap()];
                total += clue.parse::<u32>().expect("a region's cells hold clues");
            }
            assert_eq!(total, sum, "{line}");
            let odd = what.contains("an odd number");
            assert_eq!(odd, sum % 2 == 1, "{line}");
            assert!(what.contains("boundary edges"), "{line}");
            named += 1;
        }
    }
    assert!(named > 0, "some step names its region");
}
