//! Hints for a half-solved board: whether the marks a person made agree with the solution, and if they do, the easiest next step from the board as it is (a rule at its lowest level, else the first deducer that decides something).
//!
//! The marks are given facts ([`Reason::Given`]), never replayed from an empty board. Rule
//! steps are found by trying every rule variant at every place of the marked board (the
//! rules are data; this only reads their premises), so every step listed can be taken now,
//! with nothing decided before it. Rules with colour letters read the colour store, which is
//! off on the marked board: they are tried only when no other rule applies and the solver,
//! going on from the marks, takes a colour rule's step first (loop closure found nothing,
//! and colouring came on); then they are tried on the marked board with its store on. When
//! no rule applies, the solver runs from the marks with every deducer but search, and the
//! first thing it decides (loop closure, connectivity or a probe, in the deducers' order)
//! is the step.

use super::{Decided, Step, steps};
use crate::board::{Board, CLUE0, CROSS, LINE, OFF, Reason, Tracking, UNKNOWN};
use crate::deduce::Deducer;
use crate::format::view::{Edge, Picture, View};
use crate::rules::Glyph;
use crate::rules::compile::RuleBook;
use crate::solve::{Outcome, SolveOptions, Solver};
use std::collections::HashSet;

/// What a hint says about a marked board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// These marks disagree with the puzzle's only solution (each as the person made it).
    Wrong(Vec<Decided>),
    /// No solution agrees with all the marks together (the puzzle has several solutions, so
    /// no mark disagrees with the only one): why, in words, and the marks whose removal
    /// alone would leave a solution (looked for on boards of at most [`SUSPECTS_TRIED`]
    /// marks).
    Clash(String, Vec<Decided>),
    /// The puzzle itself has no solution; why, in words.
    NoSolution(String),
    /// A budget ran out before the puzzle was solved, so the marks could not be checked.
    Unchecked(String),
    /// Every line of the loop is marked (and no mark is wrong).
    Solved,
    /// The marks are right, and these steps can be taken next (all of one kind and level).
    Next {
        /// Rule level of the steps, or `None` for a deducer's step.
        level: Option<u32>,
        /// The steps, easiest first; at most one unless every step was asked for.
        steps: Vec<Step>,
    },
    /// The marks are right, but deduction finds nothing more: only a guess goes on.
    NoStep,
}

/// A hint, with what it found out about the puzzle on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The verdict.
    pub verdict: Verdict,
    /// Whether the puzzle has more than one solution (the marks were checked for agreeing
    /// with some solution, not with the only one).
    pub several: bool,
    /// Whether the marks were checked against a solution (not when search is off and
    /// deduction alone does not finish the puzzle).
    pub checked: bool,
}

/// The most marks a board may have for a hint to look for the one mark to blame when the
/// marks clash on a puzzle with several solutions (one solve per mark).
pub const SUSPECTS_TRIED: usize = 200;

/// Gives hints with one rule book: a solver for the answer and one that keeps reasons.
pub struct Hinter {
    answer: Solver,
    explainer: Solver,
}

impl Hinter {
    /// Hinters for this rule book; `options` carries the deducer switches and budgets.
    pub fn new(book: RuleBook, options: SolveOptions) -> Hinter {
        let explain = SolveOptions {
            switches: options.switches.without(Deducer::Search),
            reasons: true,
            ..options
        };
        let answer = SolveOptions {
            reasons: false,
            ..options
        };
        Hinter {
            explainer: Solver::with_options(book.clone(), explain),
            answer: Solver::with_options(book, answer),
        }
    }

    /// The rule book in use.
    pub fn book(&self) -> &RuleBook {
        self.explainer.book()
    }

    /// The hint for a marked board: its clues and the lines and crosses made so far. With
    /// `all`, every step available at the easiest level is listed, else the first.
    pub fn hint(&mut self, board: &Picture, all: bool) -> Hint {
        let puzzle = board.puzzle();
        let marks = marks_of(board);
        let attempt = self.answer.attempt(&puzzle);
        let mut several = false;
        let mut checked = true;
        match &attempt.outcome {
            Outcome::Solved => {
                let wrong: Vec<Decided> = marks
                    .iter()
                    .filter(|m| {
                        let answer = attempt
                            .board
                            .at(attempt.board.index(m.y as isize, m.x as isize));
                        (answer == LINE) != (m.edge == Edge::Line)
                    })
                    .copied()
                    .collect();
                if !wrong.is_empty() {
                    return Hint {
                        verdict: Verdict::Wrong(wrong),
                        several,
                        checked: true,
                    };
                }
                let complete = attempt.board.grid_edges().all(|e| {
                    let (y, x) = attempt.board.point(e);
                    attempt.board.at(e) != LINE
                        || mark_at(board, y as usize, x as usize) == Edge::Line
                });
                if complete {
                    return Hint {
                        verdict: Verdict::Solved,
                        several,
                        checked: true,
                    };
                }
            }
            Outcome::Several => {
                several = true;
                let givens = givens_of(&marks);
                let with_marks = self.answer.attempt_from(&puzzle, &givens);
                match with_marks.outcome {
                    Outcome::Contradiction(c) => {
                        let suspects = self.suspects(&puzzle, &marks);
                        return Hint {
                            verdict: Verdict::Clash(c.to_string(), suspects),
                            several,
                            checked: true,
                        };
                    }
                    Outcome::Limit { limit, .. } => {
                        return Hint {
                            verdict: Verdict::Unchecked(limit.to_string()),
                            several,
                            checked: false,
                        };
                    }
                    _ => {}
                }
            }
            Outcome::Contradiction(c) => {
                return Hint {
                    verdict: Verdict::NoSolution(c.to_string()),
                    several,
                    checked: true,
                };
            }
            Outcome::Limit { limit, .. } => {
                return Hint {
                    verdict: Verdict::Unchecked(limit.to_string()),
                    several,
                    checked: false,
                };
            }
            Outcome::Stuck { .. } => {
                // Search is off: the marks cannot be checked against a solution, but a step
                // can still be named (the rules are sound whatever the solution).
                checked = false;
            }
        }
        let verdict = self.next_steps(board, &marks, all);
        Hint {
            verdict,
            several,
            checked,
        }
    }

    /// The marks each of which, taken away alone, leaves a solution that agrees with the
    /// others (none when there are more than [`SUSPECTS_TRIED`] marks).
    fn suspects(&mut self, puzzle: &crate::puzzle::Puzzle, marks: &[Decided]) -> Vec<Decided> {
        if marks.len() > SUSPECTS_TRIED {
            return Vec::new();
        }
        let mut suspects = Vec::new();
        for k in 0..marks.len() {
            let mut others = marks.to_vec();
            others.remove(k);
            let outcome = self
                .answer
                .attempt_from(puzzle, &givens_of(&others))
                .outcome;
            if matches!(outcome, Outcome::Solved | Outcome::Several) {
                suspects.push(marks[k]);
            }
        }
        suspects
    }

    /// The easiest steps from the marked board (the marks agree with a solution).
    fn next_steps(&mut self, picture: &Picture, marks: &[Decided], all: bool) -> Verdict {
        let puzzle = picture.puzzle();
        let book = self.explainer.book();
        let mut board = Board::new(&puzzle, book.margin, Tracking::default());
        for m in marks {
            let i = board.index(m.y as isize, m.x as isize);
            if let Err(c) = board.set_edge(i, state_of(m.edge), Reason::Given) {
                return Verdict::Clash(c.to_string(), Vec::new());
            }
        }
        let single_loop = book.single_loop_rules_apply(&puzzle);
        let mut found = rule_steps(book, &board, single_loop);
        let book_steps = |board: &Board, hinter: &Hinter| {
            rule_steps(hinter.explainer.book(), board, single_loop)
        };
        let givens = givens_of(marks);
        let mut first_deduced = None;
        if found.is_empty() {
            // No rule applies to the edges as they are: the solver goes on from the marks
            // (loop closure, then colouring, ...). When its first step is a colour rule's,
            // colouring came on with nothing decided before it, so the colour rules' steps
            // are those found on the marked board with its colour store on.
            let attempt = self.explainer.attempt_from(&puzzle, &givens);
            let first = steps(&attempt.board).into_iter().find(|s| {
                // A step that only placed cells (regions) leaves no mark to make.
                s.reason != Reason::Given && s.reason != Reason::Guess && !s.decided.is_empty()
            });
            if matches!(first.as_ref().map(|s| s.reason), Some(Reason::Rule { .. })) {
                if board.start_colouring().is_ok() {
                    found = book_steps(&board, self);
                }
                if found.is_empty() {
                    found.extend(first.clone());
                }
            }
            first_deduced = first;
        }
        let book = self.explainer.book();
        if let Some(first) = found.first() {
            let level = book.set.rules[rule_of(book, first)].level;
            found.retain(|s| book.set.rules[rule_of(book, s)].level == level);
            if !all {
                found.truncate(1);
            }
            return Verdict::Next {
                level: Some(level),
                steps: found,
            };
        }
        match first_deduced {
            Some(step) => Verdict::Next {
                level: None,
                steps: vec![step],
            },
            None => Verdict::NoStep,
        }
    }
}

/// The rule index of a rule step.
fn rule_of(book: &RuleBook, step: &Step) -> usize {
    match step.reason {
        Reason::Rule { variant, .. } => book.variants[variant as usize].rule,
        _ => unreachable!("only rule steps are listed"),
    }
}

/// The marks of a picture (its lines and crosses), in reading order of the doubled grid.
pub fn marks_of(picture: &Picture) -> Vec<Decided> {
    let mut marks = Vec::new();
    for y in 0..=2 * picture.rows {
        let r = y / 2;
        if y.is_multiple_of(2) {
            for c in 0..picture.cols {
                let edge = picture.h(r, c);
                if edge != Edge::Unknown {
                    marks.push(Decided {
                        y,
                        x: 2 * c + 1,
                        edge,
                    });
                }
            }
        } else {
            for c in 0..=picture.cols {
                let edge = picture.v(r, c);
                if edge != Edge::Unknown {
                    marks.push(Decided { y, x: 2 * c, edge });
                }
            }
        }
    }
    marks
}

/// The mark of the edge at doubled-grid point (y, x).
fn mark_at(picture: &Picture, y: usize, x: usize) -> Edge {
    if y.is_multiple_of(2) {
        picture.h(y / 2, x / 2)
    } else {
        picture.v(y / 2, x / 2)
    }
}

fn state_of(edge: Edge) -> u8 {
    if edge == Edge::Line { LINE } else { CROSS }
}

fn givens_of(marks: &[Decided]) -> Vec<(usize, usize, u8)> {
    marks.iter().map(|m| (m.y, m.x, state_of(m.edge))).collect()
}

/// Every rule step that can be taken on the board as it is: each variant at each place
/// where its premise holds and it decides an edge still unknown. Ordered by level, then
/// rule (file order), then place in reading order; a step that decides the same edges by
/// the same rule as one before it is left out.
pub fn rule_steps(book: &RuleBook, board: &Board, single_loop: bool) -> Vec<Step> {
    let margin = board.margin() as i32;
    let (rows, cols) = (board.rows() as i32, board.cols() as i32);
    let inside = |y: i32, x: i32| {
        (-margin..=2 * rows + margin).contains(&y) && (-margin..=2 * cols + margin).contains(&x)
    };
    let mut found: Vec<(u32, usize, i32, i32, Step)> = Vec::new();
    for (v, variant) in book.variants.iter().enumerate() {
        let rule = &book.set.rules[variant.rule];
        if rule.assumes_single_loop && !single_loop {
            continue;
        }
        let (mut lo_y, mut hi_y, mut lo_x, mut hi_x) = (0, 0, 0, 0);
        for f in variant.premise.iter().chain(&variant.conclusion) {
            lo_y = lo_y.min(f.at.y);
            hi_y = hi_y.max(f.at.y);
            lo_x = lo_x.min(f.at.x);
            hi_x = hi_x.max(f.at.x);
        }
        // A colour rule reads the board's colour store: none while colouring is off.
        let colouring = board.colouring();
        if variant.has_colours() && colouring.is_none() {
            continue;
        }
        let same = crate::rules::colour_relations(&[], &variant.premise_colours);
        for f in &variant.premise_colours {
            lo_y = lo_y.min(f.at.y);
            hi_y = hi_y.max(f.at.y);
            lo_x = lo_x.min(f.at.x);
            hi_x = hi_x.max(f.at.x);
        }
        let place = place_of(variant);
        for ay in (-margin - lo_y..=2 * rows + margin - hi_y).filter(|y| y % 2 == 0) {
            for ax in (-margin - lo_x..=2 * cols + margin - hi_x).filter(|x| x % 2 == 0) {
                debug_assert!(inside(ay + lo_y, ax + lo_x) && inside(ay + hi_y, ax + hi_x));
                let at = |p: crate::geometry::Pos| {
                    board.at(board.index((ay + p.y) as isize, (ax + p.x) as isize))
                };
                let holds = variant.premise.iter().all(|f| {
                    let state = at(f.at);
                    match f.glyph {
                        Glyph::Line => state == LINE,
                        Glyph::Cross => state & (CROSS | OFF) != 0,
                        Glyph::Clue(n) => state == CLUE0 << n,
                    }
                });
                let related =
                    |(a, b, differ): &(crate::geometry::Pos, crate::geometry::Pos, bool)| {
                        let cell = |p: crate::geometry::Pos| {
                            board.index((ay + p.y) as isize, (ax + p.x) as isize)
                        };
                        colouring.is_some_and(|c| c.relation(cell(*a), cell(*b)) == Some(*differ))
                    };
                if !holds || !same.iter().all(related) {
                    continue;
                }
                let decided: Vec<Decided> = variant
                    .conclusion
                    .iter()
                    .filter(|f| at(f.at) == UNKNOWN)
                    .map(|f| Decided {
                        y: (ay + f.at.y) as usize,
                        x: (ax + f.at.x) as usize,
                        edge: if f.glyph == Glyph::Line {
                            Edge::Line
                        } else {
                            Edge::Cross
                        },
                    })
                    .collect();
                if decided.is_empty() {
                    continue;
                }
                let (py, px) = (ay + place.y, ax + place.x);
                let step = Step {
                    reason: Reason::Rule {
                        variant: v as u32,
                        anchor: board.index(py as isize, px as isize) as u32,
                    },
                    anchor: Some((py as isize, px as isize)),
                    probe: None,
                    region: None,
                    linked: None,
                    sides: Vec::new(),
                    decided,
                };
                found.push((rule.level, variant.rule, py, px, step));
            }
        }
    }
    found.sort_by_key(|(level, rule, y, x, _)| (*level, *rule, *y, *x));
    let mut seen: HashSet<(usize, Vec<(usize, usize)>)> = HashSet::new();
    found
        .into_iter()
        .filter(|(_, rule, _, _, step)| {
            let mut edges: Vec<(usize, usize)> = step.decided.iter().map(|d| (d.y, d.x)).collect();
            edges.sort_unstable();
            seen.insert((*rule, edges))
        })
        .map(|(.., step)| step)
        .collect()
}

/// The point a rule step is named by, relative to the variant's origin: its first clue
/// cell; else the dot every edge it reads and decides touches; else the origin.
fn place_of(variant: &crate::rules::expand::Variant) -> crate::geometry::Pos {
    use crate::geometry::Pos;
    let facts = || variant.premise.iter().chain(&variant.conclusion);
    if let Some(clue) = facts().find(|f| matches!(f.glyph, Glyph::Clue(_))) {
        return clue.at;
    }
    let first = facts().next().map(|f| f.at.edge_dots());
    for dot in first.into_iter().flatten() {
        if facts().all(|f| f.at.edge_dots().contains(&dot)) {
            return dot;
        }
    }
    Pos::new(0, 0)
}

/// Where an edge is, in words a person can find on the board: `the edge between dots (2, 3)
/// and (2, 4), the top side of cell (2, 3)`.
pub fn place_words(rows: usize, cols: usize, y: usize, x: usize) -> String {
    let (r, c) = (y / 2, x / 2);
    if y.is_multiple_of(2) {
        let side = if r < rows {
            format!("the top side of cell ({r}, {c})")
        } else {
            format!("the bottom side of cell ({}, {c})", r - 1)
        };
        format!(
            "the edge between dots ({r}, {c}) and ({r}, {}), {side}",
            c + 1
        )
    } else {
        let side = if c < cols {
            format!("the left side of cell ({r}, {c})")
        } else {
            format!("the right side of cell ({r}, {})", c - 1)
        };
        format!(
            "the edge between dots ({r}, {c}) and ({}, {c}), {side}",
            r + 1
        )
    }
}
