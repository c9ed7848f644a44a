//! Solving one puzzle with a rule book: lay out the board, propagate, and name the outcome.

use crate::board::{Board, Contradiction};
use crate::compile::{RuleBook, Stages};
use crate::engine::{Engine, Tally};
use crate::puzzle::Puzzle;
use crate::verify::check_answer;
use std::collections::HashMap;

/// How solving a puzzle ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The lines form one loop meeting every clue.
    Solved,
    /// The rules ran out with this many edges undecided.
    Stuck {
        /// Grid edges still unknown.
        unknown: usize,
    },
    /// The puzzle has no solution.
    Contradiction(Contradiction),
}

/// Solves puzzles with one rule book, keeping matchers for the grid widths it has seen.
pub struct Solver {
    book: RuleBook,
    stages: HashMap<(usize, bool), Stages>,
}

impl Solver {
    /// A solver for a rule book.
    pub fn new(book: RuleBook) -> Solver {
        Solver {
            book,
            stages: HashMap::new(),
        }
    }

    /// The rule book in use.
    pub fn book(&self) -> &RuleBook {
        &self.book
    }

    /// Solves a puzzle; returns the board as far as the rules took it, and the outcome.
    pub fn solve(&mut self, puzzle: &Puzzle) -> (Board, Outcome) {
        self.run(puzzle, None)
    }

    /// Solves a puzzle, adding what each variant did to `tally`.
    pub fn solve_counting(&mut self, puzzle: &Puzzle, tally: &mut Tally) -> (Board, Outcome) {
        self.run(puzzle, Some(tally))
    }

    fn run(&mut self, puzzle: &Puzzle, tally: Option<&mut Tally>) -> (Board, Outcome) {
        let mut board = Board::new(puzzle, self.book.margin, self.book.loop_closure());
        let stride = board.stride();
        if self.stages.len() > 64 {
            self.stages.clear();
        }
        let book = &self.book;
        let single_loop = book.single_loop_rules_apply(puzzle);
        let stages = self
            .stages
            .entry((stride, single_loop))
            .or_insert_with(|| book.stages(stride, single_loop));
        let result = match tally {
            Some(t) => Engine::new(book, stages).with_tally(t).start(&mut board),
            None => Engine::new(book, stages).start(&mut board),
        };
        let outcome = match result {
            Err(c) => Outcome::Contradiction(c),
            Ok(_level) => match check_answer(&board) {
                Ok(()) => Outcome::Solved,
                Err(why) if board.unknown() == 0 => Outcome::Contradiction(Contradiction::new(
                    format!("every edge is decided but {why}"),
                )),
                Err(_) => Outcome::Stuck {
                    unknown: board.unknown(),
                },
            },
        };
        (board, outcome)
    }
}
