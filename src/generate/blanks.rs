//! Ordinary Slitherlink from Slink: blank clues in random order while deduction alone still finishes the puzzle with its one loop.
//!
//! Every cell is tried once, in an order drawn from the puzzle's own random stream: its clue
//! is blanked, the judge (the generator's solver: rules up to a level, loop closure,
//! colouring and, unless switched off, probing; never search) solves the puzzle, and the
//! clue comes back unless the judge finished it with the planted loop. The judge's rules
//! are sound, so a puzzle it finishes has exactly that one solution, and a person can solve
//! it without guessing (beyond one-step probing, when it is on).

use super::{Rng, Solution, same_loop};
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, Solver};

/// Blanks what clues it can of a puzzle that `judge` finishes with `solution`; `tried` is
/// told after each clue how many of them are tried, and of how many.
pub fn blank_clues(
    judge: &mut Solver,
    puzzle: &Puzzle,
    solution: &Solution,
    rng: &mut Rng,
    tried: &mut dyn FnMut(usize, usize),
) -> Puzzle {
    let mut puzzle = puzzle.clone();
    let mut order: Vec<usize> = (0..puzzle.clues.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.index(i + 1));
    }
    let cells = order.len();
    for (k, cell) in order.into_iter().enumerate() {
        let clue = puzzle.clues[cell].take();
        let (board, outcome) = judge.solve(&puzzle);
        if outcome != Outcome::Solved || !same_loop(&board, solution) {
            puzzle.clues[cell] = clue;
        }
        tried(k + 1, cells);
    }
    puzzle
}
