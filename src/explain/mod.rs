//! Explanations: a solved (or stuck) board's trail of reasons read back as numbered steps, each naming its rule (file and line), the symmetry it was used in, where it matched, and the edges it decided.
//!
//! Consecutive trail entries decided by one match (one rule variant at one place, or one
//! run of a global deducer) make one step; every guess of search is a step of its own.
//! Replaying the steps in order on the bare puzzle rebuilds exactly the final board
//! ([`replay`]).

pub mod html;

use crate::board::{Board, CROSS, LINE, Reason, contradiction::describe_point};
use crate::deduce::Deducer;
use crate::format::view::{Edge, Picture};
use crate::rules::compile::RuleBook;
use crate::rules::draw::{draw, draw_framed};
use std::fmt::Write as _;

/// One edge a step decided: doubled-grid coordinates and its new state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    /// Row on the doubled grid.
    pub y: usize,
    /// Column on the doubled grid.
    pub x: usize,
    /// [`Edge::Line`] or [`Edge::Cross`].
    pub edge: Edge,
}

impl Decided {
    /// `h(r,c)` for the edge right of dot (r, c), `v(r,c)` for the one below it.
    pub fn name(&self) -> String {
        if self.y.is_multiple_of(2) {
            format!("h({},{})", self.y / 2, self.x / 2)
        } else {
            format!("v({},{})", self.y / 2, self.x / 2)
        }
    }
}

/// One step of an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What decided it, as the trail records it.
    pub reason: Reason,
    /// For a rule step: the doubled-grid point (row, column) of the rule's origin.
    pub anchor: Option<(isize, isize)>,
    /// The edges it decided, in order.
    pub decided: Vec<Decided>,
}

/// The steps of a board's trail (the board must keep reasons).
pub fn steps(board: &Board) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (&e, reason) in board.trail().iter().zip(board.reasons()) {
        let (y, x) = board.point(e as usize);
        let anchor = match reason {
            Reason::Rule { anchor, .. } => Some(board.point(anchor as usize)),
            _ => None,
        };
        let edge = if board.at(e as usize) == LINE {
            Edge::Line
        } else {
            debug_assert_eq!(board.at(e as usize), CROSS);
            Edge::Cross
        };
        let decided = Decided {
            y: y as usize,
            x: x as usize,
            edge,
        };
        match steps.last_mut() {
            Some(last) if last.reason == reason && reason != Reason::Guess => {
                last.decided.push(decided)
            }
            _ => steps.push(Step {
                reason,
                anchor,
                decided: vec![decided],
            }),
        }
    }
    steps
}

/// The board the first `count` steps make of the bare puzzle `start`.
pub fn replay(start: &Picture, steps: &[Step], count: usize) -> Picture {
    let mut picture = start.clone();
    for step in &steps[..count.min(steps.len())] {
        for d in &step.decided {
            picture.set(d.y, d.x, d.edge);
        }
    }
    picture
}

impl Step {
    /// What decided the step, in words: the rule's name, file and line, symmetry and place,
    /// or the deducer.
    pub fn title(&self, book: &RuleBook) -> String {
        match self.reason {
            Reason::Rule { variant, .. } => {
                let v = &book.variants[variant as usize];
                let rule = &book.set.rules[v.rule];
                let (y, x) = self.anchor.unwrap_or_default();
                format!(
                    "{} ({}:{}), {} at {}",
                    rule.name,
                    rule.file,
                    rule.line,
                    v.symmetry,
                    describe_point(y as i32, x as i32)
                )
            }
            Reason::By(Deducer::Colouring) => "inside/outside colouring".to_string(),
            Reason::By(Deducer::Probing) => {
                "probing (one way led to a contradiction, or both agreed)".to_string()
            }
            Reason::By(d) => d.words().to_string(),
            Reason::Guess => "search guess".to_string(),
            Reason::Given => "given".to_string(),
        }
    }

    /// The edges it decided, as `line h(0,1), cross v(2,3)`.
    pub fn edges_text(&self) -> String {
        let mut s = String::new();
        for (k, d) in self.decided.iter().enumerate() {
            if k > 0 {
                s.push_str(", ");
            }
            let word = if d.edge == Edge::Line {
                "line"
            } else {
                "cross"
            };
            write!(s, "{word} {}", d.name()).unwrap();
        }
        s
    }

    /// The rule's `when` and `then` pictures as it was used (in its symmetry), for a rule step.
    pub fn rule_pictures(&self, book: &RuleBook) -> Option<(String, String)> {
        let Reason::Rule { variant, .. } = self.reason else {
            return None;
        };
        let v = &book.variants[variant as usize];
        let mut then = v.premise.clone();
        then.extend(v.conclusion.iter().copied());
        let frame: Vec<_> = v.conclusion.iter().map(|f| f.at).collect();
        Some((
            draw_framed(&v.dots, &v.premise, &frame, 0),
            draw(&v.dots, &then, 0),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;
    use crate::solve::{SolveOptions, Solver};

    #[test]
    fn replaying_every_step_rebuilds_the_final_board() {
        let book = RuleBook::new(RuleSet::builtin());
        let options = SolveOptions {
            reasons: true,
            ..SolveOptions::default()
        };
        let mut solver = Solver::with_options(book, options);
        let text = include_str!("../../tests/data/sample.in");
        let mut puzzles = crate::puzzle::parse_all("sample", text.as_bytes()).unwrap();
        // And one that needs probing or search.
        puzzles.extend(crate::puzzle::parse_all("t", b"3 3\n3 . .\n. . .\n. . 3\n0 0\n").unwrap());
        for puzzle in &puzzles {
            let attempt = solver.attempt(puzzle);
            let steps = steps(&attempt.board);
            assert!(!steps.is_empty());
            let rebuilt = replay(&Picture::blank(puzzle), &steps, steps.len());
            assert_eq!(rebuilt, Picture::of(&attempt.board));
            for step in &steps {
                let title = step.title(solver.book());
                assert!(!title.is_empty());
                if let Reason::Rule { .. } = step.reason {
                    assert!(title.contains(".rules:"), "{title}");
                    assert!(step.rule_pictures(solver.book()).is_some());
                }
            }
        }
    }
}
