//! Whether a rule set already derives a candidate: its rules (and loop closure, when it uses it) run to a fixpoint on the candidate's premise, drawn in the middle of an otherwise empty board.
//!
//! The premise sits [`PAD`] cells from the board's border on every side, so the border's
//! off-grid edges cannot help. One far clue, a 1 in the bottom-right cell, keeps loop closure
//! honest: without any clue, any small loop would "finish the whole answer" and loop closure
//! would never cross an edge. Colouring, probing and search stay off: a discovered rule is
//! meant to add to the cheap deductions. A candidate with colour facts is judged with
//! colouring on (the store's closure and the set's colour rules): its premise relations go
//! into the store, and its conclusion's relations must come out of it.

use super::enumerate::Candidate;
use crate::board::{Board, CROSS, LINE, Reason, Tracking};
use crate::deduce::{Deducer, DeducerSet};
use crate::engine::Engine;
use crate::geometry::Pos;
use crate::puzzle::Puzzle;
use crate::rules::compile::{RuleBook, StageCache, Stages};
use crate::rules::{Glyph, RuleSet};
use std::sync::{Arc, Mutex};

/// Empty cells between a premise's box and the board's border.
pub const PAD: usize = 4;

/// A rule set ready to tell which candidates it already derives.
pub struct Known {
    book: RuleBook,
    /// The rules with colouring on (its store's closure and the colour rules), for
    /// candidates with colour facts.
    coloured: RuleBook,
    stages: Mutex<StageCache>,
    coloured_stages: Mutex<StageCache>,
}

/// What the rule set makes of a candidate's premise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derived {
    /// Every fact of the conclusion.
    All,
    /// Some facts of the conclusion are left unknown.
    Part,
    /// The rules find a contradiction: the premise cannot occur in a puzzle.
    Contradiction,
}

impl Known {
    /// The rules of a set, with loop closure when the set uses it (no other deducer).
    pub fn new(set: &RuleSet) -> Known {
        let mut set = set.clone();
        set.deducers.retain(|&d| d == Deducer::LoopClosure);
        let mut with_colouring = set.clone();
        with_colouring.deducers.push(Deducer::Colouring);
        Known {
            coloured: RuleBook::new(with_colouring),
            book: RuleBook::new(set),
            stages: Mutex::new(StageCache::new()),
            coloured_stages: Mutex::new(StageCache::new()),
        }
    }

    /// What the rules derive from a candidate's premise (with colouring on, its premise
    /// relations put in the colour store, when the candidate has colour facts).
    pub fn derive(&self, c: &Candidate) -> Derived {
        let coloured = !c.premise_colours.is_empty() || !c.conclusion_colours.is_empty();
        let book = if coloured { &self.coloured } else { &self.book };
        let (rows, cols) = (c.rows + 2 * PAD, c.cols.max(1) + 2 * PAD);
        let mut puzzle = Puzzle {
            rows,
            cols,
            clues: vec![None; rows * cols],
        };
        let shift = Pos::new(2 * PAD as i32, 2 * PAD as i32);
        for (at, n) in c.clues() {
            let p = at + shift;
            puzzle.clues[(p.y as usize / 2) * cols + p.x as usize / 2] = Some(n);
        }
        puzzle.clues[rows * cols - 1] = Some(1);
        let mut wanted = DeducerSet::NONE.with(Deducer::LoopClosure);
        if coloured {
            wanted = wanted.with(Deducer::Colouring);
        }
        let switches = book.deducers().and(wanted);
        let tracking = Tracking {
            closures: switches.contains(Deducer::LoopClosure),
            reasons: false,
        };
        let mut board = Board::new(&puzzle, book.margin, tracking);
        for f in &c.premise {
            let state = match f.glyph {
                Glyph::Line => LINE,
                Glyph::Cross => CROSS,
                Glyph::Clue(_) => continue,
            };
            let p = f.at + shift;
            let i = board.index(p.y as isize, p.x as isize);
            if board.set_edge(i, state, Reason::Given).is_err() {
                return Derived::Contradiction;
            }
        }
        let stages = self.stages_for(board.stride(), coloured);
        let mut engine = Engine::new(book, &stages).with_switches(switches);
        if engine.start(&mut board).is_err() {
            return Derived::Contradiction;
        }
        let index = |board: &Board, p: Pos| {
            let p = p + shift;
            board.index(p.y as isize, p.x as isize)
        };
        if coloured {
            if board.colouring().is_none() {
                // Colouring comes on only while edges stay unknown; a finished board is
                // checked by its edges alone.
                if board.start_colouring().is_err() {
                    return Derived::Contradiction;
                }
            }
            for &(a, b, differ) in &c.premise_colours {
                let (ia, ib) = (index(&board, a), index(&board, b));
                if !board.relate_cells(ia, ib, differ) {
                    return Derived::Contradiction;
                }
            }
            let head = board.trail().len();
            if engine.propagate(&mut board, head).is_err() {
                return Derived::Contradiction;
            }
        }
        let edges = c.conclusion.iter().all(|f| {
            let want = if f.glyph == Glyph::Line { LINE } else { CROSS };
            board.at(index(&board, f.at)) == want
        });
        let all = edges
            && c.conclusion_colours.iter().all(|&(a, b, differ)| {
                board
                    .colouring()
                    .and_then(|s| s.relation(index(&board, a), index(&board, b)))
                    == Some(differ)
            });
        if all { Derived::All } else { Derived::Part }
    }

    fn stages_for(&self, stride: usize, coloured: bool) -> Arc<Stages> {
        let (cache, book) = if coloured {
            (&self.coloured_stages, &self.coloured)
        } else {
            (&self.stages, &self.book)
        };
        let mut cache = cache.lock().expect("no thread panics holding it");
        cache.get(book, stride, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Fact;

    fn fact(y: i32, x: i32, glyph: Glyph) -> Fact {
        Fact {
            at: Pos::new(y, x),
            glyph,
        }
    }

    #[test]
    fn the_builtin_rules_know_adjacent_threes_and_not_an_invented_fact() {
        let known = Known::new(&RuleSet::builtin());
        let mut threes = Candidate {
            rows: 1,
            cols: 2,
            premise: vec![fact(1, 1, Glyph::Clue(3)), fact(1, 3, Glyph::Clue(3))],
            conclusion: vec![
                fact(1, 0, Glyph::Line),
                fact(1, 2, Glyph::Line),
                fact(1, 4, Glyph::Line),
            ],
            single_loop: true,
            premise_colours: Vec::new(),
            conclusion_colours: Vec::new(),
        };
        assert_eq!(known.derive(&threes), Derived::All);
        // The top sides are not known from the two 3s alone.
        threes.conclusion.push(fact(0, 1, Glyph::Line));
        assert_eq!(known.derive(&threes), Derived::Part);
        let empty = Known::new(&RuleSet::default());
        threes.conclusion.pop();
        assert_eq!(empty.derive(&threes), Derived::Part);
    }

    #[test]
    fn loop_closure_counts_as_known() {
        // Three sides of an empty cell are lines: the fourth would close a small loop.
        let u = Candidate {
            rows: 1,
            cols: 1,
            premise: vec![
                fact(0, 1, Glyph::Line),
                fact(1, 0, Glyph::Line),
                fact(1, 2, Glyph::Line),
            ],
            conclusion: vec![fact(2, 1, Glyph::Cross)],
            single_loop: true,
            premise_colours: Vec::new(),
            conclusion_colours: Vec::new(),
        };
        assert_eq!(Known::new(&RuleSet::builtin()).derive(&u), Derived::All);
    }
}
