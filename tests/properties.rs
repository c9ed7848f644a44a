//! Property tests of laws the solver must keep: a planted loop is the one found, a rotated
//! puzzle gives the rotated answer, and puzzles survive being written and read back.

use proptest::prelude::*;
use slink::compile::RuleBook;
use slink::generate::{Rng, random_loop_puzzle};
use slink::puzzle::{Puzzle, parse_all};
use slink::rules::RuleSet;
use slink::solve::{Outcome, Solver};

fn solver() -> Solver {
    Solver::new(RuleBook::new(RuleSet::builtin()))
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
