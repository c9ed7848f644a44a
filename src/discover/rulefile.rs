//! Writing candidates as rules a person can read: a name from the clues and the box, a description in words, pictures, and an example and a quiet board that pass `rules test`.
//!
//! The example board is the candidate's box with one empty cell all round (so its exits lie
//! inside the grid), the premise drawn on it; its `gives` board is what the rule does there
//! when it runs alone to a fixpoint, worked out by the plain matcher of
//! [`super::matcher`] and then checked with the engine ([`run_example`]). The quiet board is
//! the same board with one premise fact left out, on which the rule must not fire.

use super::enumerate::Candidate;
use super::matcher::{Pattern, Sketch};
use crate::geometry::Pos;
use crate::rules::examples::{Outcome, run_example};
use crate::rules::expand::expand_rule;
use crate::rules::{Colour, Example, Fact, Glyph, Rule, write};
use std::fmt::Write;

/// The file name rules are given before they are written.
pub const FILE: &str = "discovered.rules";

/// The rule of a candidate, without examples.
pub fn bare_rule(c: &Candidate, name: &str, level: u32) -> Rule {
    Rule {
        name: name.to_string(),
        description: Some(describe(c)),
        assumes_single_loop: c.single_loop,
        level,
        file: FILE.to_string(),
        line: 0,
        dots: c.dots(),
        premise: c.premise.clone(),
        conclusion: c.conclusion.clone(),
        premise_colours: letters(c).0,
        conclusion_colours: letters(c).1,
        examples: Vec::new(),
    }
}

/// The colour letters of a candidate's premise and conclusion: one letter per class of
/// related premise cells (lower case on its first cell, upper case on the cells across), and
/// the conclusion's relations as premise letters on new cells or new letters.
pub fn letters(c: &Candidate) -> (Vec<Colour>, Vec<Colour>) {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwyz";
    let mut next = 0;
    let mut fresh = || {
        let l = ALPHABET[next % ALPHABET.len()];
        next += 1;
        l
    };
    // Premise classes: a cell takes the letter of the first related cell lettered.
    let mut premise: Vec<Colour> = Vec::new();
    let mut rels = c.premise_colours.clone();
    while !rels.is_empty() {
        let before = rels.len();
        rels.retain(|&(a, b, d)| {
            let la = premise.iter().find(|g| g.at == a).copied();
            let lb = premise.iter().find(|g| g.at == b).copied();
            match (la, lb) {
                (Some(_), Some(_)) => false,
                (Some(g), None) => {
                    premise.push(Colour {
                        at: b,
                        letter: g.letter,
                        upper: g.upper ^ d,
                    });
                    false
                }
                (None, Some(g)) => {
                    premise.push(Colour {
                        at: a,
                        letter: g.letter,
                        upper: g.upper ^ d,
                    });
                    false
                }
                (None, None) => true,
            }
        });
        if rels.len() == before {
            let (a, b, d) = rels.remove(0);
            let letter = fresh();
            premise.push(Colour {
                at: a,
                letter,
                upper: false,
            });
            premise.push(Colour {
                at: b,
                letter,
                upper: d,
            });
        }
    }
    let mut conclusion: Vec<Colour> = Vec::new();
    for &(a, b, d) in &c.conclusion_colours {
        let known = |p: Pos, conclusion: &[Colour]| {
            premise
                .iter()
                .chain(conclusion)
                .find(|g| g.at == p)
                .copied()
        };
        match (known(a, &conclusion), known(b, &conclusion)) {
            (Some(_), Some(_)) => {}
            (Some(g), None) => conclusion.push(Colour {
                at: b,
                letter: g.letter,
                upper: g.upper ^ d,
            }),
            (None, Some(g)) => conclusion.push(Colour {
                at: a,
                letter: g.letter,
                upper: g.upper ^ d,
            }),
            (None, None) => {
                let letter = fresh();
                conclusion.push(Colour {
                    at: a,
                    letter,
                    upper: false,
                });
                conclusion.push(Colour {
                    at: b,
                    letter,
                    upper: d,
                });
            }
        }
    }
    premise.sort();
    conclusion.sort();
    (premise, conclusion)
}

/// Whether a candidate has colour facts.
fn coloured(c: &Candidate) -> bool {
    !c.premise_colours.is_empty() || !c.conclusion_colours.is_empty()
}

fn number(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// "a line", "two lines", "no crosses".
fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("a {what}"),
        _ if what.ends_with('s') => format!("{} {what}es", number(n)),
        _ => format!("{} {what}s", number(n)),
    }
}

fn clue_word(n: u8) -> &'static str {
    ["zero", "one", "two", "three"]
        .get(n as usize)
        .copied()
        .unwrap_or("clue")
}

/// The base of a candidate's name: its clues in reading order and its box, e.g.
/// `three-one-2x2`; `dot` for a lone dot, `blank` for a box without clues.
pub fn base_name(c: &Candidate) -> String {
    let clues: Vec<&str> = c.clues().map(|(_, n)| clue_word(n)).collect();
    if c.rows == 0 && c.cols == 0 {
        return "dot".to_string();
    }
    let what = if clues.is_empty() {
        "blank".to_string()
    } else {
        clues.join("-")
    };
    let colour = if coloured(c) { "-colour" } else { "" };
    format!("{what}-{}x{}{colour}", c.rows, c.cols)
}

/// "two cells on the same side", "a cell on each side", for colour relations.
fn relations(rels: &[(Pos, Pos, bool)]) -> String {
    let same = rels.iter().filter(|r| !r.2).count();
    let apart = rels.len() - same;
    let pairs = |n: usize, how: &str| match n {
        1 => format!("two cells on {how}"),
        n => format!("{} pairs of cells on {how}", number(n)),
    };
    match (same, apart) {
        (0, 0) => String::new(),
        (s, 0) => pairs(s, "the same side"),
        (0, a) => pairs(a, "opposite sides"),
        (s, a) => format!(
            "{} and {}",
            pairs(s, "the same side"),
            pairs(a, "opposite sides")
        ),
    }
}

/// One line in words: the premise (clues, window, given lines and crosses) and what follows.
pub fn describe(c: &Candidate) -> String {
    let clues: Vec<String> = c.clues().map(|(_, n)| n.to_string()).collect();
    let who = match clues.as_slice() {
        [] => "Any clues".to_string(),
        [a] => format!("A {a}"),
        [a, b] => format!("A {a} and a {b}"),
        [rest @ .., last] => format!("Clues {} and {last}", rest.join(", ")),
    };
    let place = if c.rows == 0 && c.cols == 0 {
        "at a dot".to_string()
    } else {
        format!("in a {}x{} window", c.rows, c.cols)
    };
    let lines = |facts: &[Fact], g: Glyph| facts.iter().filter(|f| f.glyph == g).count();
    let given = match (
        lines(&c.premise, Glyph::Line),
        lines(&c.premise, Glyph::Cross),
    ) {
        (0, 0) => String::new(),
        (l, 0) => format!(", with {} as drawn", count(l, "line")),
        (0, x) => format!(", with {} as drawn", count(x, "cross")),
        (l, x) => format!(
            ", with {} and {} as drawn",
            count(l, "line"),
            count(x, "cross")
        ),
    };
    let given = match (given.is_empty(), c.premise_colours.is_empty()) {
        (_, true) => given,
        (true, false) => format!(", with {} as lettered", relations(&c.premise_colours)),
        (false, false) => format!("{given}, and {} as lettered", relations(&c.premise_colours)),
    };
    let edges = match (
        lines(&c.conclusion, Glyph::Line),
        lines(&c.conclusion, Glyph::Cross),
    ) {
        (0, 0) => String::new(),
        (l, 0) => count(l, "line"),
        (0, x) => count(x, "cross"),
        (l, x) => format!("{} and {}", count(l, "line"), count(x, "cross")),
    };
    let follows = match (edges.is_empty(), relations(&c.conclusion_colours)) {
        (_, r) if r.is_empty() => edges,
        (true, r) => r,
        (false, r) => format!("{edges}, and {r},"),
    };
    let verb = if c.conclusion.len() == 1 && c.conclusion_colours.is_empty() {
        "follows"
    } else {
        "follow"
    };
    let law = if c.single_loop {
        " (the answer being one loop)"
    } else {
        ""
    };
    format!("{who} {place}{given}: {follows} {verb}{law}.")
}

/// A must-fire example and a quiet board for a rule, both checked with the engine.
pub fn examples(rule: &Rule, c: &Candidate) -> Option<(Example, Example)> {
    if coloured(c) {
        return colour_examples(rule, c);
    }
    let pattern = Pattern::new(expand_rule(0, rule));
    for margin in 1..=2 {
        let rows = c.rows + 2 * margin;
        let cols = c.cols + 2 * margin;
        let shift = Pos::new(2 * margin as i32, 2 * margin as i32);
        let board: Vec<Fact> = c
            .premise
            .iter()
            .map(|f| Fact {
                at: f.at + shift,
                glyph: f.glyph,
            })
            .collect();
        let sketch = Sketch::new(rows, cols, &board);
        let Some(after) = sketch.run(&pattern) else {
            continue;
        };
        let example = Example {
            line: 0,
            rows,
            cols,
            board: board.clone(),
            gives: Some(after.to_facts()),
            gives_colours: Vec::new(),
        };
        if !run_example(rule, &example).passed() {
            continue;
        }
        // Near misses: leave out one premise fact, lines and crosses first.
        let mut order: Vec<usize> = (0..board.len()).collect();
        order.sort_by_key(|&i| matches!(board[i].glyph, Glyph::Clue(_)));
        for i in order {
            let mut near = board.clone();
            near.remove(i);
            if pattern.fires(&Sketch::new(rows, cols, &near)) {
                continue;
            }
            let quiet = Example {
                line: 0,
                rows,
                cols,
                board: near,
                gives: None,
                gives_colours: Vec::new(),
            };
            if run_example(rule, &quiet).passed() {
                return Some((example, quiet));
            }
        }
    }
    None
}

/// The examples of a rule with colour letters. The board is the block (the box and one cell
/// all round), the premise drawn on it; each premise letter's cells, all on the board's
/// border, are related through the outside: a cross on a border side for a cell outside, a
/// line for one inside. The `gives` board is what the engine makes of it, with the
/// conclusion's letters; the quiet board leaves out one premise fact (a letter's cell: its
/// border side).
fn colour_examples(rule: &Rule, c: &Candidate) -> Option<(Example, Example)> {
    let (rows, cols) = (c.rows + 2, c.cols + 2);
    let shift = Pos::new(2, 2);
    let on_border =
        |p: Pos| p.y == 0 || p.x == 0 || p.y == 2 * rows as i32 || p.x == 2 * cols as i32;
    let moved = |f: &Fact| Fact {
        at: f.at + shift,
        glyph: f.glyph,
    };
    let base: Vec<Fact> = c.premise.iter().map(moved).collect();
    let mut letters = rule.premise_colours.clone();
    letters.extend(rule.conclusion_colours.iter().copied());
    let gives_colours: Vec<Colour> = letters
        .iter()
        .map(|g| Colour {
            at: g.at + shift,
            ..*g
        })
        .collect();
    for flip in [false, true] {
        // Each premise-lettered cell's border side: a line when it is inside.
        let sides: Vec<(Pos, Fact)> = rule
            .premise_colours
            .iter()
            .filter_map(|g| {
                let cell = g.at + shift;
                let side = cell.around().into_iter().find(|&e| on_border(e))?;
                let inside = g.upper ^ flip;
                let glyph = if inside { Glyph::Line } else { Glyph::Cross };
                Some((cell, Fact { at: side, glyph }))
            })
            .collect();
        if sides.len() != rule.premise_colours.len() {
            return None;
        }
        let mut board = base.clone();
        board.extend(sides.iter().map(|s| s.1));
        let mut example = Example {
            line: 0,
            rows,
            cols,
            board: board.clone(),
            gives: Some(board.clone()),
            gives_colours: gives_colours.clone(),
        };
        let got = match run_example(rule, &example) {
            Outcome::Passed => board.clone(),
            Outcome::WrongResult { got, .. } => got,
            _ => continue,
        };
        example.gives = Some(got);
        if !run_example(rule, &example).passed() {
            continue;
        }
        // Near misses: a letter's cell left unrelated, then a line or cross, then a clue.
        let mut nears: Vec<Vec<Fact>> = Vec::new();
        for (_, side) in &sides {
            nears.push(board.iter().copied().filter(|f| f != side).collect());
        }
        let mut order: Vec<usize> = (0..base.len()).collect();
        order.sort_by_key(|&i| matches!(base[i].glyph, Glyph::Clue(_)));
        for i in order {
            nears.push(board.iter().copied().filter(|f| *f != base[i]).collect());
        }
        for near in nears {
            let quiet = Example {
                line: 0,
                rows,
                cols,
                board: near,
                gives: None,
                gives_colours: Vec::new(),
            };
            if run_example(rule, &quiet).passed() {
                return Some((example, quiet));
            }
        }
    }
    None
}

/// The text of one rule: header, pictures and examples (written by [`crate::rules::write`]);
/// `comment` (without `#`) goes above it, and a note above its quiet board.
pub fn rule_text(rule: &Rule, comment: &str) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "# {line}");
    }
    write::header(&mut out, rule);
    write::pictures(&mut out, rule);
    for e in &rule.examples {
        out.push('\n');
        if e.gives.is_none() {
            out.push_str("# Near miss: one fact of the premise left out.\n");
        }
        write::example(&mut out, e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    fn fact(y: i32, x: i32, glyph: Glyph) -> Fact {
        Fact {
            at: Pos::new(y, x),
            glyph,
        }
    }

    /// A 1 with its top side a line (the built-in counting rule, found anew).
    fn one_with_a_line() -> Candidate {
        Candidate {
            rows: 1,
            cols: 1,
            premise: vec![fact(0, 1, Glyph::Line), fact(1, 1, Glyph::Clue(1))],
            conclusion: vec![
                fact(1, 0, Glyph::Cross),
                fact(1, 2, Glyph::Cross),
                fact(2, 1, Glyph::Cross),
            ],
            single_loop: false,
            premise_colours: Vec::new(),
            conclusion_colours: Vec::new(),
        }
    }

    #[test]
    fn names_and_words() {
        let c = one_with_a_line();
        assert_eq!(base_name(&c), "one-1x1");
        assert_eq!(
            describe(&c),
            "A 1 in a 1x1 window, with a line as drawn: three crosses follow."
        );
    }

    #[test]
    fn the_written_rule_reads_back_and_passes_its_examples() {
        let c = one_with_a_line();
        let mut rule = bare_rule(&c, "one-1x1-1", 3);
        let (example, quiet) = examples(&rule, &c).expect("examples found");
        rule.examples = vec![example, quiet];
        let text = rule_text(&rule, "found by a test");
        let set = RuleSet::from_sources(&[("t.rules", text.as_str())])
            .unwrap_or_else(|d| panic!("{text}\n{d:?}"));
        let back = &set.rules[0];
        assert_eq!(back.premise, c.premise, "{text}");
        assert_eq!(back.conclusion, c.conclusion, "{text}");
        assert_eq!(back.level, 3);
        assert_eq!(back.examples.len(), 2);
        for e in &back.examples {
            assert_eq!(run_example(back, e), Outcome::Passed, "{text}");
        }
    }
}
