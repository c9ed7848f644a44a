//! Rule examples: run one rule on a little board and name the outcome (passed, did not fire, fired where it must not, wrong result).
//!
//! An example board is a whole little grid: its clues become a [`Puzzle`] (blank cells
//! elsewhere), its lines and crosses are given with [`Reason::Given`], and the edges beyond it
//! are outside the grid, so they match a premise cross. Only the rule under test runs (no other
//! rule, no deducer), to a fixpoint; the board is then compared exactly with the `gives` picture.

use crate::board::{Board, CROSS, LINE, Reason, Tracking};
use crate::engine::Engine;
use crate::geometry::{Kind, Pos};
use crate::puzzle::Puzzle;
use crate::rules::compile::RuleBook;
use crate::rules::draw::draw;
use crate::rules::{Example, Fact, Glyph, Rule, RuleSet};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One point where the board after the run and the `gives` picture disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The edge or cell, on the example's lattice.
    pub at: Pos,
    /// What the `gives` picture shows there (`None`: unknown edge or blank cell).
    pub expected: Option<Glyph>,
    /// What the board holds there after the run.
    pub got: Option<Glyph>,
}

/// How running a rule on one of its examples ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The rule did what the example says: fired and gave exactly the `gives` board, or stayed quiet.
    Passed,
    /// A must-fire example on which the rule decided nothing.
    DidNotFire,
    /// A `quiet` example on which the rule decided something.
    FiredWhereItMustNot {
        /// The edges it decided, in the order it decided them.
        decided: Vec<Fact>,
        /// The whole board after the run.
        got: Vec<Fact>,
    },
    /// The rule fired, but the board differs from the `gives` picture.
    WrongResult {
        /// The `gives` picture.
        expected: Vec<Fact>,
        /// The board after the run.
        got: Vec<Fact>,
        /// Every edge or cell where the two differ, in lattice order.
        differences: Vec<Difference>,
    },
    /// The rule ran into a contradiction on the board.
    Contradiction {
        /// What the board said.
        message: String,
        /// The board as far as the rule got.
        got: Vec<Fact>,
    },
    /// The rule ran, but the colour relations of the `gives` board do not all hold.
    WrongColours {
        /// The relations missing, in words.
        missing: Vec<String>,
        /// The board after the run.
        got: Vec<Fact>,
    },
    /// The example cannot be run: a fact lies outside its board, or its given facts contradict each other.
    Invalid {
        /// What is wrong with the example.
        message: String,
    },
}

impl Outcome {
    /// The outcome's name as reports print it.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::DidNotFire => "did not fire",
            Outcome::FiredWhereItMustNot { .. } => "fired where it must not",
            Outcome::WrongResult { .. } => "wrong result",
            Outcome::Contradiction { .. } => "contradiction",
            Outcome::WrongColours { .. } => "wrong colours",
            Outcome::Invalid { .. } => "invalid example",
        }
    }

    /// Whether the example passed.
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Passed)
    }
}

/// Runs `rule` alone on the board of `example` to a fixpoint and names the outcome.
pub fn run_example(rule: &Rule, example: &Example) -> Outcome {
    let (rows, cols) = (example.rows, example.cols);
    let pictures = std::iter::once(&example.board).chain(example.gives.as_ref());
    for f in pictures.flatten() {
        if !inside(f.at, rows, cols) {
            return Outcome::Invalid {
                message: format!(
                    "the example draws a {} outside its {rows}x{cols} board",
                    glyph_word(f.glyph)
                ),
            };
        }
    }
    let mut puzzle = Puzzle {
        rows,
        cols,
        clues: vec![None; rows * cols],
    };
    for f in &example.board {
        if let Glyph::Clue(n) = f.glyph {
            puzzle.clues[cell_number(f.at, cols)] = Some(n);
        }
    }
    // A rule with colour letters runs with the colour store on (it reads or writes it).
    let coloured = !rule.premise_colours.is_empty() || !rule.conclusion_colours.is_empty();
    let book = RuleBook::new(RuleSet {
        rules: vec![rule.clone()],
        deducers: if coloured {
            vec![crate::deduce::Deducer::Colouring]
        } else {
            Vec::new()
        },
        probing_replaces: None,
    });
    let tracking = Tracking {
        closures: false,
        reasons: true,
    };
    let mut board = Board::new(&puzzle, book.margin, tracking);
    for f in &example.board {
        let state = match f.glyph {
            Glyph::Line => LINE,
            Glyph::Cross => CROSS,
            Glyph::Clue(_) => continue,
        };
        let i = board.index(f.at.y as isize, f.at.x as isize);
        if let Err(c) = board.set_edge(i, state, Reason::Given) {
            return Outcome::Invalid {
                message: format!("the example board contradicts itself before the rule runs: {c}"),
            };
        }
    }
    let stages = book.stages(board.stride(), true);
    let result = Engine::new(&book, &stages).start(&mut board);
    let got = board_facts(&board);
    if let Err(c) = result {
        return Outcome::Contradiction {
            message: c.message(),
            got,
        };
    }
    let decided: Vec<Fact> = board
        .trail()
        .iter()
        .zip(board.reasons())
        .filter(|(_, r)| !matches!(r, Reason::Given))
        .map(|(&i, _)| edge_fact(&board, i as usize))
        .collect();
    let missing: Vec<String> = crate::rules::colour_relations(&[], &example.gives_colours)
        .into_iter()
        .filter(|&(a, b, differ)| {
            let index = |p: Pos| board.index(p.y as isize, p.x as isize);
            board
                .colouring()
                .and_then(|c| c.relation(index(a), index(b)))
                != Some(differ)
        })
        .map(|(a, b, differ)| {
            let side = if differ {
                "opposite sides"
            } else {
                "the same side"
            };
            format!(
                "{} and {} are not known to be on {side}",
                describe(a),
                describe(b)
            )
        })
        .collect();
    match &example.gives {
        None if decided.is_empty() => Outcome::Passed,
        None => Outcome::FiredWhereItMustNot { decided, got },
        Some(_) if decided.is_empty() && example.gives_colours.is_empty() => Outcome::DidNotFire,
        Some(_) if !missing.is_empty() => Outcome::WrongColours { missing, got },
        Some(expected) => {
            let differences = differences(expected, &got);
            if differences.is_empty() {
                Outcome::Passed
            } else {
                Outcome::WrongResult {
                    expected: expected.clone(),
                    got,
                    differences,
                }
            }
        }
    }
}

/// Whether a lattice point lies on a `rows` x `cols` board.
fn inside(p: Pos, rows: usize, cols: usize) -> bool {
    (0..=2 * rows as i32).contains(&p.y) && (0..=2 * cols as i32).contains(&p.x)
}

/// Row-major number of the cell at lattice point `p`.
fn cell_number(p: Pos, cols: usize) -> usize {
    (p.y as usize / 2) * cols + p.x as usize / 2
}

/// The fact a decided edge of the board holds.
fn edge_fact(board: &Board, i: usize) -> Fact {
    let (y, x) = board.point(i);
    Fact {
        at: Pos::new(y as i32, x as i32),
        glyph: if board.at(i) == LINE {
            Glyph::Line
        } else {
            Glyph::Cross
        },
    }
}

/// The clue, line or cross at a lattice place of the grid (`None` for a dot, a blank cell or
/// an unknown edge).
pub fn glyph_at(board: &Board, at: Pos) -> Option<Glyph> {
    match at.kind() {
        Kind::Dot => None,
        Kind::Cell => board
            .clue((at.y / 2) as usize, (at.x / 2) as usize)
            .map(Glyph::Clue),
        Kind::HEdge | Kind::VEdge => match board.at(board.index(at.y as isize, at.x as isize)) {
            LINE => Some(Glyph::Line),
            CROSS => Some(Glyph::Cross),
            _ => None,
        },
    }
}

/// Every clue, line and cross on the board, in lattice order.
fn board_facts(board: &Board) -> Vec<Fact> {
    let (rows, cols) = (board.rows() as i32, board.cols() as i32);
    let mut facts = Vec::new();
    for y in 0..=2 * rows {
        for x in 0..=2 * cols {
            let at = Pos::new(y, x);
            if let Some(glyph) = glyph_at(board, at) {
                facts.push(Fact { at, glyph });
            }
        }
    }
    facts
}

/// Where two boards' facts differ, in lattice order.
fn differences(expected: &[Fact], got: &[Fact]) -> Vec<Difference> {
    let mut both: BTreeMap<Pos, (Option<Glyph>, Option<Glyph>)> = BTreeMap::new();
    for f in expected {
        both.entry(f.at).or_default().0 = Some(f.glyph);
    }
    for f in got {
        both.entry(f.at).or_default().1 = Some(f.glyph);
    }
    both.into_iter()
        .filter(|(_, (e, g))| e != g)
        .map(|(at, (expected, got))| Difference { at, expected, got })
        .collect()
}

/// The dots of a `rows` x `cols` board.
pub fn board_dots(rows: usize, cols: usize) -> Vec<Pos> {
    let mut dots = Vec::new();
    for i in 0..=rows as i32 {
        for j in 0..=cols as i32 {
            dots.push(Pos::new(2 * i, 2 * j));
        }
    }
    dots
}

/// A lattice point in words: "cell (0, 1)", "the horizontal edge right of dot (1, 0)".
pub fn describe(p: Pos) -> String {
    match p.kind() {
        Kind::HEdge => format!(
            "the horizontal edge right of dot ({}, {})",
            p.y / 2,
            (p.x - 1) / 2
        ),
        Kind::VEdge => format!(
            "the vertical edge below dot ({}, {})",
            (p.y - 1) / 2,
            p.x / 2
        ),
        Kind::Cell => format!("cell ({}, {})", (p.y - 1) / 2, (p.x - 1) / 2),
        Kind::Dot => format!("dot ({}, {})", p.y / 2, p.x / 2),
    }
}

fn glyph_word(g: Glyph) -> String {
    match g {
        Glyph::Line => "line".to_string(),
        Glyph::Cross => "cross".to_string(),
        Glyph::Clue(n) => format!("clue {n}"),
    }
}

/// What a point holds, in words, for a difference list.
fn state_words(p: Pos, g: Option<Glyph>) -> String {
    match (g, p.kind()) {
        (Some(Glyph::Line), _) => "a line".to_string(),
        (Some(Glyph::Cross), _) => "a cross".to_string(),
        (Some(Glyph::Clue(n)), _) => format!("clue {n}"),
        (None, Kind::Cell) => "a blank cell".to_string(),
        (None, _) => "unknown".to_string(),
    }
}

/// The outcome of one example of one rule, ready to report.
#[derive(Clone, Debug)]
pub struct ExampleResult<'a> {
    /// The rule tested.
    pub rule: &'a Rule,
    /// The example it was tested on.
    pub example: &'a Example,
    /// How it ended.
    pub outcome: Outcome,
}

impl ExampleResult<'_> {
    /// `example` for a must-fire example, `quiet` for one where the rule must not fire.
    pub fn kind(&self) -> &'static str {
        if self.example.gives.is_some() {
            "example"
        } else {
            "quiet"
        }
    }

    /// The one-line report: `passed  adjacent-threes example at rules/threes.rules:25`.
    pub fn headline(&self) -> String {
        format!(
            "{}  {} {} at {}:{}",
            self.outcome.name(),
            self.rule.name,
            self.kind(),
            self.rule.file,
            self.example.line
        )
    }

    /// What went wrong, as indented lines (pictures and differing edges); empty when it passed.
    pub fn details(&self) -> String {
        let dots = board_dots(self.example.rows, self.example.cols);
        let picture = |facts: &[Fact]| draw(&dots, facts, 6);
        let mut out = String::new();
        match &self.outcome {
            Outcome::Passed => {}
            Outcome::DidNotFire => {
                out.push_str("    the rule decided nothing on this board:\n");
                out.push_str(&picture(&self.example.board));
            }
            Outcome::FiredWhereItMustNot { decided, got } => {
                out.push_str("    the rule must stay quiet here, but decided:\n");
                for f in decided {
                    let _ = writeln!(
                        out,
                        "      {}: {}",
                        describe(f.at),
                        state_words(f.at, Some(f.glyph))
                    );
                }
                out.push_str("    board after the rule ran:\n");
                out.push_str(&picture(got));
            }
            Outcome::WrongResult {
                expected,
                got,
                differences,
            } => {
                out.push_str("    expected:\n");
                out.push_str(&picture(expected));
                out.push_str("    got:\n");
                out.push_str(&picture(got));
                out.push_str("    differences:\n");
                for d in differences {
                    let _ = writeln!(
                        out,
                        "      {}: expected {}, got {}",
                        describe(d.at),
                        state_words(d.at, d.expected),
                        state_words(d.at, d.got)
                    );
                }
            }
            Outcome::Contradiction { message, got } => {
                let _ = writeln!(out, "    {message}");
                out.push_str("    board when it happened:\n");
                out.push_str(&picture(got));
            }
            Outcome::WrongColours { missing, got } => {
                for m in missing {
                    let _ = writeln!(out, "    {m}");
                }
                out.push_str("    board after the rule ran:\n");
                out.push_str(&picture(got));
            }
            Outcome::Invalid { message } => {
                let _ = writeln!(out, "    {message}");
            }
        }
        out
    }
}

/// The outcomes of every example of a rule set, and the rules that have none.
#[derive(Clone, Debug)]
pub struct TestRun<'a> {
    /// One result per example, in rule order then file order.
    pub results: Vec<ExampleResult<'a>>,
    /// Rules without any example.
    pub without_examples: Vec<&'a Rule>,
    /// Rules whose every example is `quiet`: nothing shows them firing.
    pub only_quiet: Vec<&'a Rule>,
}

impl TestRun<'_> {
    /// Examples that did not pass.
    pub fn failed(&self) -> usize {
        self.results.iter().filter(|r| !r.outcome.passed()).count()
    }

    /// The summary line: `34 examples: 34 passed, 0 failed; 0 rules without examples`.
    pub fn summary(&self) -> String {
        let n = self.results.len();
        let failed = self.failed();
        let w = self.without_examples.len();
        format!(
            "{n} example{}: {} passed, {failed} failed; {w} rule{} without examples",
            if n == 1 { "" } else { "s" },
            n - failed,
            if w == 1 { "" } else { "s" }
        )
    }

    /// The warnings about rules that have no example, or no must-fire example.
    pub fn warnings(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .without_examples
            .iter()
            .map(|r| {
                format!(
                    "warning: rule `{}` at {}:{} has no example",
                    r.name, r.file, r.line
                )
            })
            .collect();
        out.extend(self.only_quiet.iter().map(|r| {
            format!(
                "warning: rule `{}` at {}:{} has only quiet examples: none shows it firing",
                r.name, r.file, r.line
            )
        }));
        out
    }
}

/// Runs every example of every rule of a set.
pub fn run_all(set: &RuleSet) -> TestRun<'_> {
    let mut run = TestRun {
        results: Vec::new(),
        without_examples: Vec::new(),
        only_quiet: Vec::new(),
    };
    for rule in &set.rules {
        if rule.examples.is_empty() {
            run.without_examples.push(rule);
        } else if rule.examples.iter().all(|e| e.gives.is_none()) {
            run.only_quiet.push(rule);
        }
        for example in &rule.examples {
            run.results.push(ExampleResult {
                rule,
                example,
                outcome: run_example(rule, example),
            });
        }
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZERO: &str =
        "rule zero\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n";
    const THREES: &str = "rule adjacent-threes\nwhen\n  +   +   +\n    3   3\n  +   +   +\nthen\n  +   +   +\n  | 3 | 3 |\n  +   +   +\n";
    const DEAD_END: &str = "rule dead-end\nwhen\n      +\n      x\n  + x + x +\nthen\n      +\n      x\n  + x + x +\n      x\n";

    /// Runs the examples written after `rule` and returns their outcomes.
    fn outcomes(rule: &str, examples: &str) -> Vec<Outcome> {
        let text = format!("{rule}{examples}");
        let set = RuleSet::from_sources(&[("t.rules", text.as_str())])
            .unwrap_or_else(|d| panic!("{d:?}"));
        run_all(&set)
            .results
            .into_iter()
            .map(|r| r.outcome)
            .collect()
    }

    #[test]
    fn passed_when_the_board_matches_and_when_quiet_stays_quiet() {
        let got = outcomes(
            THREES,
            "example\n  +   +   +\n    3   3\n  +   +   +\ngives\n  +   +   +\n  | 3 | 3 |\n  +   +   +\n\
             quiet\n  +   +   +\n    3   2\n  +   +   +\n",
        );
        assert_eq!(got, vec![Outcome::Passed, Outcome::Passed]);
    }

    #[test]
    fn did_not_fire() {
        let got = outcomes(
            ZERO,
            "example\n  +   +\n    1\n  +   +\ngives\n  + x +\n  x 1 x\n  + x +\n",
        );
        assert_eq!(got, vec![Outcome::DidNotFire]);
    }

    #[test]
    fn fired_where_it_must_not_lists_what_it_decided() {
        let set = RuleSet::from_sources(&[(
            "t.rules",
            format!("{THREES}quiet\n  +   +   +\n    3   3\n  +   +   +\n").as_str(),
        )])
        .unwrap();
        let run = run_all(&set);
        let r = &run.results[0];
        let Outcome::FiredWhereItMustNot { decided, .. } = &r.outcome else {
            panic!("{:?}", r.outcome);
        };
        assert_eq!(decided.len(), 3);
        assert!(decided.iter().all(|f| f.glyph == Glyph::Line));
        assert_eq!(
            r.headline(),
            "fired where it must not  adjacent-threes quiet at t.rules:10"
        );
        assert!(
            r.details()
                .contains("the vertical edge below dot (0, 1): a line"),
            "{}",
            r.details()
        );
        assert_eq!(run.failed(), 1);
        assert!(run.warnings()[0].contains("has only quiet examples"));
    }

    #[test]
    fn wrong_result_shows_both_pictures_and_the_differences() {
        // The rule fires, but the picture forgets the right-hand outer side.
        let set = RuleSet::from_sources(&[(
            "t.rules",
            format!(
                "{THREES}example\n  +   +   +\n    3   3\n  +   +   +\ngives\n  +   +   +\n  | 3 | 3\n  +   +   +\n"
            )
            .as_str(),
        )])
        .unwrap();
        let run = run_all(&set);
        let r = &run.results[0];
        let Outcome::WrongResult { differences, .. } = &r.outcome else {
            panic!("{:?}", r.outcome);
        };
        assert_eq!(
            differences,
            &[Difference {
                at: Pos::new(1, 4),
                expected: None,
                got: Some(Glyph::Line)
            }]
        );
        let details = r.details();
        assert!(details.contains("    expected:\n      +   +   +\n      | 3 | 3\n"));
        assert!(details.contains("    got:\n      +   +   +\n      | 3 | 3 |\n"));
        assert!(
            details.contains("the vertical edge below dot (0, 2): expected unknown, got a line")
        );
        assert_eq!(
            run.summary(),
            "1 example: 0 passed, 1 failed; 0 rules without examples"
        );
    }

    #[test]
    fn a_clue_that_differs_is_a_wrong_result() {
        let got = outcomes(
            ZERO,
            "example\n  +   +\n    0\n  +   +\ngives\n  + x +\n  x 1 x\n  + x +\n",
        );
        let Outcome::WrongResult { differences, .. } = &got[0] else {
            panic!("{got:?}");
        };
        assert_eq!(differences.len(), 1);
        assert_eq!(differences[0].expected, Some(Glyph::Clue(1)));
    }

    #[test]
    fn contradiction_names_the_message() {
        // The shared side of two 3s given as a cross: the rule asks for a line there.
        let got = outcomes(
            THREES,
            "example\n  +   +   +\n    3 x 3\n  +   +   +\ngives\n  +   +   +\n  | 3 | 3 |\n  +   +   +\n",
        );
        let Outcome::Contradiction { message, .. } = &got[0] else {
            panic!("{got:?}");
        };
        assert!(
            message.contains("is a cross but a line is asked"),
            "{message}"
        );
    }

    #[test]
    fn facts_off_the_board_or_a_self_contradicting_board_are_invalid() {
        let got = outcomes(
            ZERO,
            "example\n  +   +---\n    0\n  +   +\ngives\n  + x +\n  x 0 x\n  + x +\n\
             example\n  +---+\n    0\n  +   +\ngives\n  +---+\n  x 0 x\n  + x +\n",
        );
        assert!(
            matches!(&got[0], Outcome::Invalid { message } if message.contains("outside its 1x1 board")),
            "{got:?}"
        );
        assert!(
            matches!(&got[1], Outcome::Invalid { message } if message.contains("contradicts itself")),
            "{got:?}"
        );
    }

    #[test]
    fn edges_beyond_the_board_are_crosses_and_the_rule_runs_to_a_fixpoint() {
        // A corner dot has two edges off the grid: a cross on the left side of a 1x2 board
        // dead-ends both corner dots at its ends.
        let got = outcomes(
            DEAD_END,
            "example\n  +   +   +\n  x\n  +   +   +\ngives\n  + x +   +\n  x\n  + x +   +\n",
        );
        assert_eq!(got, vec![Outcome::Passed]);
    }

    #[test]
    fn rules_without_examples_are_counted() {
        let set = RuleSet::from_sources(&[("t.rules", ZERO)]).unwrap();
        let run = run_all(&set);
        assert!(run.results.is_empty());
        assert_eq!(
            run.summary(),
            "0 examples: 0 passed, 0 failed; 1 rule without examples"
        );
        assert_eq!(
            run.warnings(),
            vec!["warning: rule `zero` at t.rules:1 has no example".to_string()]
        );
    }

    #[test]
    fn describe_names_edges_and_cells() {
        assert_eq!(
            describe(Pos::new(2, 3)),
            "the horizontal edge right of dot (1, 1)"
        );
        assert_eq!(
            describe(Pos::new(3, 0)),
            "the vertical edge below dot (1, 0)"
        );
        assert_eq!(describe(Pos::new(3, 5)), "cell (1, 2)");
    }
}
