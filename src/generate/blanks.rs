//! Ordinary Slitherlink from Slink: blank clues in random order (a symmetric orbit of cells at a time) while the puzzle stays acceptable to the judge.
//!
//! Every orbit of cells (one cell without symmetry) is tried once, in an order drawn from the
//! puzzle's own random stream: its clues are blanked, the judge solves the puzzle, and the
//! clues come back unless the judge accepts it. What the judge accepts depends on the mode:
//!
//! - [`Judge::Deduce`]: deduction (rules up to a level, loop closure, colouring and, unless
//!   switched off, probing; never search) finishes it with the planted loop. The rules are
//!   sound, so it has exactly that one solution, and a person can solve it without guessing;
//! - [`Judge::Unique`]: the complete search proves the planted loop the only solution. A clue
//!   kept because its removal gave several solutions stays needed as more clues go (fewer
//!   clues never remove a solution), so one pass leaves a *minimal* puzzle: removing any
//!   orbit's clues gives several solutions;
//! - [`Judge::Graded`]: the solver with only the means of the grade step and the easier ones
//!   finishes it with the planted loop, needing no harder step.
//!
//! Each second solution search finds is kept as the list of cells whose clue it breaks. Once
//! all of those cells but some of an orbit's are blank, blanking that orbit would let the
//! second solution through: the orbit is kept without solving again.

use super::grade::GradeStep;
use super::{Rng, Solution, same_loop};
use crate::board::Board;
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, Solver};

/// What the judge accepts (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// Deduction finishes the puzzle.
    Deduce,
    /// The planted loop is the only solution (the solver searches).
    Unique,
    /// Deduction up to this step finishes the puzzle (search too at [`GradeStep::Search`]).
    Graded(GradeStep),
}

/// The clue counts of the loop on a finished board, row-major.
pub(super) fn board_clues(board: &Board, rows: usize, cols: usize) -> Vec<u8> {
    let mut clues = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let sides = [
                board.h_line(r, c),
                board.h_line(r + 1, c),
                board.v_line(r, c),
                board.v_line(r, c + 1),
            ];
            clues.push(sides.iter().filter(|&&s| s).count() as u8);
        }
    }
    clues
}

/// A blanking run on one puzzle.
struct Blanking<'a> {
    judge: &'a mut Solver,
    mode: Judge,
    solution: &'a Solution,
    puzzle: Puzzle,
    /// Second solutions found: the cells whose (planted) clue each one breaks.
    others: Vec<Vec<usize>>,
}

impl Blanking<'_> {
    /// Blanks `orbit` if the judge accepts the puzzle without it; returns whether it did.
    fn try_blank(&mut self, orbit: &[usize]) -> bool {
        if orbit.iter().all(|&c| self.puzzle.clues[c].is_none()) {
            return true;
        }
        let clues = &self.puzzle.clues;
        let known_other = self.others.iter().any(|cells| {
            cells
                .iter()
                .all(|c| clues[*c].is_none() || orbit.contains(c))
        });
        if known_other {
            return false;
        }
        let saved: Vec<Option<u8>> = orbit.iter().map(|&c| self.puzzle.clues[c].take()).collect();
        let attempt = self.judge.attempt(&self.puzzle);
        let accepted = match attempt.outcome {
            Outcome::Solved if same_loop(&attempt.board, self.solution) => match self.mode {
                Judge::Graded(step) => GradeStep::of(&attempt.report) <= step,
                Judge::Deduce | Judge::Unique => true,
            },
            Outcome::Several => {
                let second = self.judge.take_second();
                let other = if same_loop(&attempt.board, self.solution) {
                    second
                } else {
                    Some(attempt.board.clone())
                };
                if let Some(other) = other {
                    let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
                    self.remember(board_clues(&other, rows, cols));
                }
                false
            }
            _ => false,
        };
        self.judge.recycle(attempt.board);
        if !accepted {
            for (&c, clue) in orbit.iter().zip(saved) {
                self.puzzle.clues[c] = clue;
            }
        }
        accepted
    }

    /// Keeps a second solution (its clue counts) as the cells whose clue it breaks.
    fn remember(&mut self, counts: Vec<u8>) {
        let cols = self.puzzle.cols;
        let cells = counts
            .into_iter()
            .enumerate()
            .filter(|&(i, k)| k != self.solution.clue(i / cols, i % cols))
            .map(|(i, _)| i)
            .collect();
        self.others.push(cells);
    }

    /// Whether two side-by-side cells both hold the clue 0.
    fn adjacent_zeros(&self, cell: usize) -> bool {
        let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
        let clues = &self.puzzle.clues;
        if clues[cell] != Some(0) {
            return false;
        }
        let (r, c) = (cell / cols, cell % cols);
        (r > 0 && clues[cell - cols] == Some(0))
            || (r + 1 < rows && clues[cell + cols] == Some(0))
            || (c > 0 && clues[cell - 1] == Some(0))
            || (c + 1 < cols && clues[cell + 1] == Some(0))
    }
}

/// Blanks what clues it can of a puzzle that `judge` accepts with `solution`, an orbit at a
/// time. With `no_adjacent_zeros`, the orbits holding a 0 beside another 0 go first, and
/// `None` comes back when some such pair cannot be broken.
pub fn blank_clues(
    judge: &mut Solver,
    mode: Judge,
    puzzle: &Puzzle,
    solution: &Solution,
    orbits: &[Vec<usize>],
    no_adjacent_zeros: bool,
    rng: &mut Rng,
) -> Option<Puzzle> {
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.index(i + 1));
    }
    let mut run = Blanking {
        judge,
        mode,
        solution,
        puzzle: puzzle.clone(),
        others: Vec::new(),
    };
    if no_adjacent_zeros {
        for &o in &order {
            if orbits[o].iter().any(|&c| run.adjacent_zeros(c)) {
                run.try_blank(&orbits[o]);
            }
        }
        if (0..run.puzzle.clues.len()).any(|c| run.adjacent_zeros(c)) {
            return None;
        }
    }
    for &o in &order {
        run.try_blank(&orbits[o]);
    }
    Some(run.puzzle)
}
