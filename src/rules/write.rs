//! Writing checked rules back as rule-file text the grammar reads: the inverse of
//! [`super::grammar`] and [`super::check`] (discovery writes its rules with it).
//!
//! A rule is written as its `rule` line, its header (description, `assumes single-loop`,
//! `level`), its `when` and `then` pictures drawn in one frame, and its examples, each after a
//! blank line. Reading the text back gives the same rule, but for where it was written (its
//! file and lines) and for positions: the grammar counts them from a picture's first row and
//! leftmost dot, so a rule whose dots start elsewhere comes back moved there.
//!
//! A description holding `"` or a line break cannot be written (the grammar reads a
//! description up to the next `"`); checked rules never hold one.

use super::draw::{draw_coloured, draw_framed};
use super::examples::board_dots;
use super::{Example, Fact, Rule, RuleSet};
use crate::geometry::Pos;
use std::fmt::Write;

/// Indentation of header lines and picture rows.
const INDENT: usize = 2;

/// The text of one rule with its examples.
pub fn rule(rule: &Rule) -> String {
    let mut out = String::new();
    header(&mut out, rule);
    pictures(&mut out, rule);
    for e in &rule.examples {
        out.push('\n');
        example(&mut out, e);
    }
    out
}

/// The text of a whole rule set as one file: its `use` lines, then its rules, a blank line
/// before each.
pub fn rule_set(set: &RuleSet) -> String {
    let mut out = String::new();
    for d in &set.deducers {
        match set.probing_replaces {
            Some(level) if *d == crate::deduce::Deducer::Probing => {
                let _ = writeln!(out, "use {} instead of level {level}", d.name());
            }
            _ => {
                let _ = writeln!(out, "use {}", d.name());
            }
        }
    }
    for (i, r) in set.rules.iter().enumerate() {
        if i > 0 || !set.deducers.is_empty() {
            out.push('\n');
        }
        out.push_str(&rule(r));
    }
    out
}

/// The `rule NAME` line and the header lines: the description, `assumes single-loop` and the
/// level (always written, also the default 1).
pub fn header(out: &mut String, rule: &Rule) {
    let _ = writeln!(out, "rule {}", rule.name);
    let pad = " ".repeat(INDENT);
    if let Some(d) = &rule.description {
        debug_assert!(
            !d.contains(['"', '\n', '\r']),
            "a description the grammar cannot read back: {d:?}"
        );
        let _ = writeln!(out, "{pad}\"{d}\"");
    }
    if rule.assumes_single_loop {
        let _ = writeln!(out, "{pad}assumes single-loop");
    }
    let _ = writeln!(out, "{pad}level {}", rule.level);
}

/// The `when` and `then` keywords with their pictures, drawn in one frame so that they line
/// up (the premise, then the premise with the conclusion).
pub fn pictures(out: &mut String, rule: &Rule) {
    let mut then = rule.premise.clone();
    then.extend(rule.conclusion.iter().copied());
    then.sort();
    let frame: Vec<Pos> = rule
        .dots
        .iter()
        .copied()
        .chain(then.iter().map(|f| f.at))
        .collect();
    let mut then_colours = rule.premise_colours.clone();
    then_colours.extend(rule.conclusion_colours.iter().copied());
    let _ = write!(
        out,
        "when\n{}then\n{}",
        draw_coloured(
            &rule.dots,
            &rule.premise,
            &rule.premise_colours,
            &frame,
            INDENT
        ),
        draw_coloured(&rule.dots, &then, &then_colours, &frame, INDENT)
    );
}

/// An example: `example` with its board and `gives` with the board after, or `quiet` with
/// its board.
pub fn example(out: &mut String, example: &Example) {
    let dots = board_dots(example.rows, example.cols);
    let board = |facts: &[Fact]| draw_framed(&dots, facts, &[], INDENT);
    match &example.gives {
        Some(gives) => {
            let _ = write!(
                out,
                "example\n{}gives\n{}",
                board(&example.board),
                draw_coloured(&dots, gives, &example.gives_colours, &[], INDENT)
            );
        }
        None => {
            let _ = write!(out, "quiet\n{}", board(&example.board));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Kind;
    use crate::rules::Glyph;
    use proptest::prelude::*;

    /// A rule as written anywhere: no file, no lines.
    fn placeless(mut rule: Rule) -> Rule {
        rule.file = String::new();
        rule.line = 0;
        for e in &mut rule.examples {
            e.line = 0;
        }
        rule
    }

    /// The rules of a text, as the loader reads them.
    fn read(text: &str) -> RuleSet {
        RuleSet::from_sources(&[("written.rules", text)])
            .unwrap_or_else(|d| panic!("the written text does not read back:\n{text}\n{d:?}"))
    }

    #[test]
    fn every_builtin_rule_reads_back_as_itself() {
        let set = RuleSet::builtin();
        assert!(!set.rules.is_empty());
        for r in &set.rules {
            let text = rule(r);
            let back = read(&text);
            assert_eq!(back.rules.len(), 1, "{text}");
            assert_eq!(
                placeless(back.rules[0].clone()),
                placeless(r.clone()),
                "{text}"
            );
        }
    }

    #[test]
    fn the_builtin_set_reads_back_as_one_file() {
        let set = RuleSet::builtin();
        let back = read(&rule_set(&set));
        assert_eq!(back.deducers, set.deducers);
        let placeless_all =
            |s: &RuleSet| -> Vec<Rule> { s.rules.iter().cloned().map(placeless).collect() };
        assert_eq!(placeless_all(&back), placeless_all(&set));
    }

    #[test]
    fn a_rule_is_written_as_a_person_would() {
        let text = "rule adjacent-threes\n  \"Side-by-side 3s.\"\n  level 1\nwhen\n  +   +   +\n    3   3\n  +   +   +\nthen\n  +   +   +\n  | 3 | 3 |\n  +   +   +\n\nquiet\n  +   +   +\n    3\n  +   +   +\n";
        let set = read(text);
        assert_eq!(rule(&set.rules[0]), text);
    }

    /// The facts a code per point says, on the points of a `rows` x `cols` board: an edge is
    /// a line (0), a cross (1) or unknown; a cell holds a clue (0-3) or none.
    fn board_facts(rows: usize, cols: usize, codes: &[u8]) -> Vec<Fact> {
        let mut facts = Vec::new();
        let width = 2 * cols + 1;
        for (i, &code) in codes.iter().enumerate() {
            let at = Pos::new((i / width) as i32, (i % width) as i32);
            let glyph = match (at.kind(), code) {
                (Kind::Dot, _) => continue,
                (Kind::Cell, 0..=3) => Glyph::Clue(code),
                (Kind::Cell, _) => continue,
                (_, 0) => Glyph::Line,
                (_, 1) => Glyph::Cross,
                _ => continue,
            };
            facts.push(Fact { at, glyph });
        }
        debug_assert!(facts.iter().all(|f| f.at.y <= 2 * rows as i32));
        facts.sort();
        facts
    }

    fn an_example() -> impl Strategy<Value = Example> {
        (1..=3usize, 1..=3usize, any::<bool>())
            .prop_flat_map(|(rows, cols, quiet)| {
                let n = (2 * rows + 1) * (2 * cols + 1);
                (
                    Just((rows, cols, quiet)),
                    prop::collection::vec(0u8..8, n),
                    prop::collection::vec(0u8..8, n),
                )
            })
            .prop_map(|((rows, cols, quiet), board, gives)| Example {
                line: 0,
                rows,
                cols,
                board: board_facts(rows, cols, &board),
                gives: (!quiet).then(|| board_facts(rows, cols, &gives)),
                gives_colours: Vec::new(),
            })
    }

    /// The window, dots and facts of a rule the checks pass, from a window of `rows` x `cols`
    /// cells, which of its dots are drawn, and a code per point (one row and column past the
    /// window, for edges that stick out of it): for an edge, a premise line (0) or cross (1),
    /// a conclusion line (2) or cross (3), or nothing; for a cell, a premise clue (0-3) or
    /// nothing.
    fn rule_body(
        rows: usize,
        cols: usize,
        drawn: &[bool],
        codes: &[u8],
    ) -> Option<(Vec<Pos>, Vec<Fact>, Vec<Fact>)> {
        let mut dots: Vec<Pos> = (0..=rows as i32)
            .flat_map(|i| (0..=cols as i32).map(move |j| Pos::new(2 * i, 2 * j)))
            .zip(drawn)
            .filter(|&(_, &d)| d)
            .map(|(p, _)| p)
            .collect();
        // The grammar counts from the first row and the leftmost dot.
        let y0 = dots.iter().map(|d| d.y).min()?;
        let x0 = dots.iter().map(|d| d.x).min()?;
        let shift = Pos::new(-y0, -x0);
        for d in &mut dots {
            *d = *d + shift;
        }
        dots.sort();
        let is_dot = |p: &Pos| dots.binary_search(p).is_ok();
        let (mut premise, mut conclusion) = (Vec::new(), Vec::new());
        let width = 2 * cols + 2;
        for (i, &code) in codes.iter().enumerate() {
            let at = Pos::new((i / width) as i32, (i % width) as i32) + shift;
            if at.y < 0 || at.x < 0 {
                continue;
            }
            match at.kind() {
                Kind::Dot => {}
                Kind::Cell => {
                    if code <= 3 && at.corners().iter().all(is_dot) {
                        premise.push(Fact {
                            at,
                            glyph: Glyph::Clue(code),
                        });
                    }
                }
                _ if !at.edge_dots().iter().any(is_dot) => {}
                _ => {
                    let glyph = if code % 2 == 0 {
                        Glyph::Line
                    } else {
                        Glyph::Cross
                    };
                    match code {
                        0 | 1 => premise.push(Fact { at, glyph }),
                        2 | 3 => conclusion.push(Fact { at, glyph }),
                        _ => {}
                    }
                }
            }
        }
        if premise.is_empty() || conclusion.is_empty() {
            return None;
        }
        premise.sort();
        conclusion.sort();
        Some((dots, premise, conclusion))
    }

    fn a_rule() -> impl Strategy<Value = Rule> {
        (1..=3usize, 1..=3usize)
            .prop_flat_map(|(rows, cols)| {
                (
                    Just((rows, cols)),
                    prop::collection::vec(prop::bool::weighted(0.85), (rows + 1) * (cols + 1)),
                    prop::collection::vec(0u8..7, (2 * rows + 2) * (2 * cols + 2)),
                )
            })
            .prop_filter_map("a rule the checks pass", |((rows, cols), drawn, codes)| {
                rule_body(rows, cols, &drawn, &codes)
            })
            .prop_flat_map(|(dots, premise, conclusion)| {
                (
                    Just((dots, premise, conclusion)),
                    "[a-z0-9][a-zA-Z0-9_-]{0,15}",
                    prop::option::of("[a-zA-Z0-9 ,.:;()'-]{0,40}"),
                    any::<bool>(),
                    1..=9u32,
                    prop::collection::vec(an_example(), 0..=2),
                )
            })
            .prop_map(
                |((dots, premise, conclusion), name, description, single_loop, level, examples)| {
                    Rule {
                        name,
                        description,
                        assumes_single_loop: single_loop,
                        level,
                        file: String::new(),
                        line: 0,
                        dots,
                        premise,
                        conclusion,
                        premise_colours: Vec::new(),
                        conclusion_colours: Vec::new(),
                        examples,
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn a_written_rule_reads_back_as_itself(r in a_rule()) {
            let text = rule(&r);
            let back = read(&text);
            prop_assert_eq!(back.rules.len(), 1);
            prop_assert_eq!(placeless(back.rules[0].clone()), r, "{}", text);
        }
    }
}
