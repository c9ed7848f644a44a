//! Property tests of laws the solver must keep: a planted loop is the one found (with every
//! clue, or with clues blanked: then search gives a loop that meets every clue, the planted
//! one when it says the answer is unique, and deduction never decides an edge against it),
//! a rotated puzzle gives the rotated answer, and puzzles survive being written and read back.

use proptest::prelude::*;
use slink::Board;
use slink::RuleBook;
use slink::check_answer;
use slink::format::view::{Edge, View};
use slink::rules::RuleSet;
use slink::{Deducer, DeducerSet};
use slink::{Outcome, SolveOptions, Solver};
use slink::{Puzzle, parse_all};
use slink::{Rng, Solution, random_loop_puzzle};

fn solver() -> Solver {
    Solver::new(RuleBook::new(RuleSet::builtin()))
}

/// The built-in rules with every deducer but search.
fn deducer() -> Solver {
    let options = SolveOptions {
        switches: DeducerSet::ALL.without(Deducer::Search),
        ..SolveOptions::default()
    };
    Solver::with_options(RuleBook::new(RuleSet::builtin()), options)
}

/// A planted loop's puzzle with each clue blanked with probability `share`.
fn blanked(seed: u64, rows: usize, cols: usize, share: f64) -> (Puzzle, Solution) {
    let mut rng = Rng::new(seed);
    let (mut puzzle, planted) = random_loop_puzzle(rows, cols, &mut rng);
    for clue in &mut puzzle.clues {
        if rng.unit() < share {
            *clue = None;
        }
    }
    (puzzle, planted)
}

/// The first decided edge of `board` that the planted loop contradicts, if any.
fn disagreement(board: &Board, planted: &Solution) -> Option<String> {
    let (rows, cols) = (planted.rows(), planted.cols());
    let differs = |s: Edge, line: bool| s != Edge::Unknown && (s == Edge::Line) != line;
    for r in 0..=rows {
        for c in 0..cols {
            let s = board.h(r, c);
            if differs(s, planted.h_line(r, c)) {
                return Some(format!("horizontal edge ({r}, {c}) is {s:?} on the board"));
            }
        }
    }
    for r in 0..rows {
        for c in 0..=cols {
            let s = board.v(r, c);
            if differs(s, planted.v_line(r, c)) {
                return Some(format!("vertical edge ({r}, {c}) is {s:?} on the board"));
            }
        }
    }
    None
}

/// The puzzle turned a quarter clockwise: cell (r, c) goes to (c, rows - 1 - r).
fn rotate(p: &Puzzle) -> Puzzle {
    let mut clues = vec![None; p.rows * p.cols];
    for r in 0..p.rows {
        for c in 0..p.cols {
            clues[c * p.rows + (p.rows - 1 - r)] = p.clue(r, c);
        }
    }
    Puzzle {
        rows: p.cols,
        cols: p.rows,
        clues,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every planted loop is found: the rules are sound, so when they finish a puzzle made
    /// from a loop they find that very loop, and they never call it unsolvable.
    #[test]
    fn a_planted_loop_is_the_loop_found(seed in any::<u64>(), rows in 1usize..12, cols in 2usize..12) {
        let (puzzle, planted) = random_loop_puzzle(rows, cols, &mut Rng::new(seed));
        let (board, outcome) = solver().solve(&puzzle);
        prop_assert!(!matches!(outcome, Outcome::Contradiction(_)), "{outcome:?}");
        if outcome == Outcome::Solved {
            for r in 0..=rows {
                for c in 0..cols {
                    prop_assert_eq!(board.h_line(r, c), planted.h_line(r, c));
                }
            }
            for r in 0..rows {
                for c in 0..=cols {
                    prop_assert_eq!(board.v_line(r, c), planted.v_line(r, c));
                }
            }
        }
    }

    /// Solving a rotated puzzle gives the rotated answer (and the same outcome).
    #[test]
    fn a_rotated_puzzle_gives_the_rotated_answer(seed in any::<u64>(), rows in 2usize..10, cols in 2usize..10) {
        let (puzzle, _) = random_loop_puzzle(rows, cols, &mut Rng::new(seed));
        let mut solver = solver();
        let (board, outcome) = solver.solve(&puzzle);
        let (turned, turned_outcome) = solver.solve(&rotate(&puzzle));
        prop_assert_eq!(&outcome, &turned_outcome);
        if outcome == Outcome::Solved {
            // A horizontal edge (r, c) turns into the vertical edge (c, rows - r).
            for r in 0..=rows {
                for c in 0..cols {
                    prop_assert_eq!(board.h_line(r, c), turned.v_line(c, rows - r));
                }
            }
        }
    }

    /// With clues blanked, search finishes every puzzle: one loop meeting every clue, the
    /// planted one when the answer is said to be unique (and never "no solution").
    #[test]
    fn search_finds_a_loop_and_the_planted_one_when_unique(
        seed in any::<u64>(),
        rows in 1usize..9,
        cols in 2usize..9,
        share in 0.0f64..0.9,
    ) {
        let (puzzle, planted) = blanked(seed, rows, cols, share);
        let (board, outcome) = solver().solve(&puzzle);
        prop_assert!(matches!(outcome, Outcome::Solved | Outcome::Several), "{outcome:?}");
        prop_assert!(check_answer(&board).is_ok(), "{:?}", check_answer(&board));
        if outcome == Outcome::Solved {
            prop_assert_eq!(disagreement(&board, &planted), None);
        }
    }

    /// Deduction alone (rules, loop closure, colouring, probing) never decides an edge
    /// against the planted loop, whether it finishes the puzzle or gets stuck.
    #[test]
    fn deduction_never_contradicts_the_planted_loop(
        seed in any::<u64>(),
        rows in 1usize..10,
        cols in 2usize..10,
        share in 0.0f64..0.9,
    ) {
        let (puzzle, planted) = blanked(seed, rows, cols, share);
        let (board, outcome) = deducer().solve(&puzzle);
        prop_assert!(matches!(outcome, Outcome::Solved | Outcome::Stuck { .. }), "{outcome:?}");
        prop_assert_eq!(disagreement(&board, &planted), None);
    }

    /// Writing a puzzle in the input format and reading it back gives the same puzzle.
    #[test]
    fn puzzles_round_trip_through_the_input_format(
        rows in 1usize..8,
        cols in 1usize..8,
        cells in proptest::collection::vec(proptest::option::of(0u8..4), 64),
    ) {
        let puzzle = Puzzle { rows, cols, clues: cells[..rows * cols].to_vec() };
        let mut text = Vec::new();
        puzzle.write_to(&mut text);
        text.extend_from_slice(b"0 0\n");
        prop_assert_eq!(parse_all("p", &text).unwrap(), vec![puzzle]);
    }
}
