//! `slink rules check`: parse and check every rule file, prove each rule sound, report duplicates and subsumed variants.
//!
//! The report has one line per rule (`ok`, `UNSOUND` with a counterexample picture, or `NEVER`
//! for a rule that can never fire), then the warnings (duplicates, subsumed rules, needless
//! `assumes single-loop` marks), then a summary line. Unsound or never-firing rules make the
//! exit status 1; warnings do not change it.

use super::io::Io;
use super::proof::{deducer_list, missing_deducers, prove_rule};
use super::{EXIT_OK, EXIT_UNSOLVED, load_dirs};
use crate::geometry::Symmetry;
use crate::rules::prove::{Counterexample, Overlap, Verdict, overlaps};
use crate::rules::{Fact, Glyph, Rule, RuleSet};
use std::fmt::Write;

/// Width of the status column.
const STATUS: usize = 8;

/// Runs the check; returns the exit status.
pub fn run(io: &mut Io, dirs: &[std::path::PathBuf]) -> i32 {
    match load_dirs(io, dirs) {
        Ok(set) => {
            let report = check_set(io, &set);
            if let Err(status) = io.print(&report.text) {
                return status;
            }
            if report.errors > 0 {
                EXIT_UNSOLVED
            } else {
                EXIT_OK
            }
        }
        Err(status) => status,
    }
}

/// The text of a check and the number of rules that failed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// What to print.
    pub text: String,
    /// Rules that are unsound, can never fire, or could not be decided.
    pub errors: usize,
}

/// The report of one rule: its status line (`ok`, `UNSOUND`, `NEVER` or `UNDECIDED`) and,
/// when it fails, why (with a counterexample picture where there is one).
pub fn describe(rule: &Rule, verdict: &Verdict) -> String {
    let mut text = String::new();
    let at = location(rule);
    match verdict {
        Verdict::Sound { needs_single_loop } => {
            let note = if *needs_single_loop {
                "  (given a single loop)"
            } else {
                ""
            };
            writeln!(text, "{:STATUS$}{} {at}{note}", "ok", rule.name).unwrap();
        }
        Verdict::Unsound(cx) => {
            writeln!(text, "{:STATUS$}{} {at}", "UNSOUND", rule.name).unwrap();
            write_counterexample(&mut text, cx, "counterexample");
            if cx.single_loop {
                writeln!(text, "{:STATUS$}(even given a single loop)", "").unwrap();
            }
            write_picture(&mut text, rule, cx);
        }
        Verdict::NeedsSingleLoop(cx) => {
            writeln!(text, "{:STATUS$}{} {at}", "UNSOUND", rule.name).unwrap();
            writeln!(
                text,
                "{:STATUS$}sound only given a single loop: mark it `assumes single-loop`",
                ""
            )
            .unwrap();
            write_counterexample(&mut text, cx, "counterexample without that law");
            write_picture(&mut text, rule, cx);
        }
        Verdict::NeverFires => {
            writeln!(text, "{:STATUS$}{} {at}", "NEVER", rule.name).unwrap();
            writeln!(
                text,
                "{:STATUS$}can never fire: no board obeying the clue and dot laws matches its premise",
                ""
            )
            .unwrap();
        }
        Verdict::Undecided { steps, edges } => {
            writeln!(text, "UNDECIDED {} {at}", rule.name).unwrap();
            writeln!(
                text,
                "{:STATUS$}the proof gave up after {steps} search steps over the {edges} edges of its window: \
                 neither proven sound nor shown unsound; draw the rule in a smaller window",
                ""
            )
            .unwrap();
        }
    }
    text
}

/// Proves every rule of a set and looks for overlaps; renders the whole report.
pub fn check_set(io: &mut Io, set: &RuleSet) -> Report {
    let mut text = String::new();
    let (mut sound, mut unsound, mut never, mut undecided) = (0, 0, 0, 0);
    let mut warnings = Vec::new();
    for (index, rule) in set.rules.iter().enumerate() {
        let verdict = prove_rule(io, rule, index, set.rules.len());
        text.push_str(&describe(rule, &verdict));
        match &verdict {
            Verdict::Sound { needs_single_loop } => {
                sound += 1;
                if rule.assumes_single_loop && !needs_single_loop {
                    warnings.push(format!(
                        "`{}` {} is marked `assumes single-loop` but is sound without it: the mark can go",
                        rule.name,
                        location(rule)
                    ));
                }
            }
            Verdict::Unsound(_) | Verdict::NeedsSingleLoop(_) => unsound += 1,
            Verdict::NeverFires => never += 1,
            Verdict::Undecided { .. } => undecided += 1,
        }
    }
    // One warning per group: the copies of one rule, the rules one rule is subsumed by.
    let found = overlaps(&set.rules);
    for group in found.chunk_by(|a, b| match (a, b) {
        (Overlap::Duplicate { first: a, .. }, Overlap::Duplicate { first: b, .. }) => a.0 == b.0,
        (Overlap::Subsumed { rule: a, .. }, Overlap::Subsumed { rule: b, .. }) => a.0 == b.0,
        _ => false,
    }) {
        match group {
            [one] => warnings.push(describe_overlap(&set.rules, one)),
            // A few rules covering one: a warning each, as for a single one.
            [Overlap::Subsumed { .. }, ..] if group.len() <= NAMED => warnings.extend(
                group
                    .iter()
                    .map(|overlap| describe_overlap(&set.rules, overlap)),
            ),
            _ => warnings.push(describe_overlaps(&set.rules, group)),
        }
    }
    // Deducers the built-in set uses and this one leaves off are also warned about on
    // standard error when the set is loaded.
    let missing = missing_deducers(set);
    let note = if missing.is_empty() {
        String::new()
    } else {
        format!(
            " (the built-in set also uses {}: a `use NAME` line switches one on)",
            deducer_list(&missing)
        )
    };
    writeln!(
        text,
        "\ndeducers in use: {}{note}",
        deducer_list(&set.deducers)
    )
    .unwrap();
    if !warnings.is_empty() {
        text.push('\n');
        for w in &warnings {
            writeln!(text, "warning: {w}").unwrap();
        }
    }
    let n = set.rules.len();
    let mut summary = format!("{n} rule{}: {sound} sound, {unsound} unsound", plural(n));
    if never > 0 {
        write!(
            summary,
            ", {never} never fire{}",
            if never == 1 { "s" } else { "" }
        )
        .unwrap();
    }
    if undecided > 0 {
        write!(summary, ", {undecided} undecided").unwrap();
    }
    let w = warnings.len();
    writeln!(text, "\n{summary}; {w} warning{}", plural(w)).unwrap();
    Report {
        text,
        errors: unsound + never + undecided,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `(file:line)` of a rule.
fn location(rule: &Rule) -> String {
    format!("({}:{})", rule.file, rule.line)
}

/// Says where the counterexample was found and which conclusion facts fail in it.
fn write_counterexample(text: &mut String, cx: &Counterexample, what: &str) {
    let failed: Vec<String> = cx
        .failed
        .iter()
        .map(|f| {
            let found = match f.glyph {
                Glyph::Line => "a cross",
                _ => "a line",
            };
            let fact = describe_fact(f, &cx.clues);
            let comma = if fact.contains(',') { "," } else { "" };
            format!("{fact}{comma} is {found}")
        })
        .chain(cx.failed_colours.iter().map(|&(a, b, differ)| {
            let side = if differ {
                "opposite sides"
            } else {
                "the same side"
            };
            format!(
                "the cells at ({}, {}) and ({}, {}) need not be on {side}",
                a.y, a.x, b.y, b.x
            )
        }))
        .collect();
    let place = if cx.border.is_none() {
        String::new()
    } else {
        format!(
            " {} (the picture stops at the border)",
            cx.border.describe()
        )
    };
    writeln!(
        text,
        "{:STATUS$}{what}{place}: the premise holds, but {}",
        "",
        join_and(&failed)
    )
    .unwrap();
}

/// Draws the counterexample below its explanation, with a legend.
fn write_picture(text: &mut String, rule: &Rule, cx: &Counterexample) {
    text.push_str(&cx.picture(&rule.premise, STATUS + 4));
    writeln!(
        text,
        "{:STATUS$}(blank edges are crosses; (row, column): 0-based picture row, and half-cells right of the leftmost dot)",
        ""
    )
    .unwrap();
}

/// "the conclusion's line on the 1's bottom side, at (2, 1)".
fn describe_fact(f: &Fact, clues: &[Fact]) -> String {
    let what = match f.glyph {
        Glyph::Line => "line",
        Glyph::Cross => "cross",
        Glyph::Clue(_) => "clue",
    };
    let mut beside = Vec::new();
    for c in clues {
        let Glyph::Clue(n) = c.glyph else { continue };
        let side = match (f.at.y - c.at.y, f.at.x - c.at.x) {
            (-1, 0) => "top",
            (0, 1) => "right",
            (1, 0) => "bottom",
            (0, -1) => "left",
            _ => continue,
        };
        beside.push((n, side));
    }
    let whose = match beside.as_slice() {
        [(n, side)] => format!(" on the {n}'s {side} side,"),
        [(a, _), (b, _)] if a == b => format!(" between the two {a}s,"),
        [(a, _), (b, _)] => format!(" between the {a} and the {b},"),
        _ => String::new(),
    };
    format!("the conclusion's {what}{whose} at ({}, {})", f.at.y, f.at.x)
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A rule's variant in words: "`name` as drawn" or "`name` under rotate-90".
fn variant(rules: &[Rule], (i, symmetry): (usize, Symmetry)) -> String {
    match symmetry {
        Symmetry::Identity => format!("`{}` as drawn", rules[i].name),
        s => format!("`{}` under {s}", rules[i].name),
    }
}

/// Most rules named in one grouped warning; the others are counted.
const NAMED: usize = 5;

/// The warning (two lines) for the copies of one rule, or for a rule subsumed by several.
fn describe_overlaps(rules: &[Rule], group: &[Overlap]) -> String {
    let name = |i: usize| format!("`{}` {}", rules[i].name, location(&rules[i]));
    let more = " ".repeat("warning: ".len());
    let list = |names: Vec<usize>| {
        let count = names.len();
        let mut text: Vec<String> = names.into_iter().take(NAMED).map(name).collect();
        if count > NAMED {
            text.push(format!("{} more", count - NAMED));
        }
        match text.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    };
    match group[0] {
        Overlap::Duplicate { first, .. } => {
            let copies: Vec<usize> = group
                .iter()
                .filter_map(|o| match o {
                    Overlap::Duplicate { second, .. } => Some(second.0),
                    Overlap::Subsumed { .. } => None,
                })
                .collect();
            format!(
                "{} rules duplicate {}: {}\n{more}each is that rule, maybe turned, mirrored or moved: keep one",
                copies.len(),
                name(first.0),
                list(copies),
            )
        }
        Overlap::Subsumed { rule, .. } => {
            let by: Vec<usize> = group
                .iter()
                .filter_map(|o| match o {
                    Overlap::Subsumed { by, .. } => Some(by.0),
                    Overlap::Duplicate { .. } => None,
                })
                .collect();
            format!(
                "{} is subsumed by {} rules: {}\n{more}each fires wherever it does, and concludes at least as much",
                name(rule.0),
                by.len(),
                list(by),
            )
        }
    }
}

/// The warning (two lines) for a duplicate or subsumed rule.
fn describe_overlap(rules: &[Rule], overlap: &Overlap) -> String {
    let name = |i: usize| format!("`{}` {}", rules[i].name, location(&rules[i]));
    let more = " ".repeat("warning: ".len());
    match *overlap {
        Overlap::Duplicate { first, second } => format!(
            "{} duplicates {}\n{more}{} is {}, moved",
            name(second.0),
            name(first.0),
            variant(rules, second),
            variant(rules, first),
        ),
        Overlap::Subsumed { rule, by } => {
            let given = if rules[by.0].assumes_single_loop && !rules[rule.0].assumes_single_loop {
                " (given a single loop)"
            } else {
                ""
            };
            format!(
                "{} is subsumed by {}{given}\n{more}{} fires wherever {} does, and concludes at least as much",
                name(rule.0),
                name(by.0),
                variant(rules, by),
                variant(rules, rule),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(text: &str) -> Report {
        let set = RuleSet::from_sources(&[("t.rules", text)]).unwrap();
        super::super::io::captured(|io| check_set(io, &set)).0
    }

    #[test]
    fn a_sound_rule_is_one_ok_line_and_a_summary() {
        let r =
            report("rule zero\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n");
        assert_eq!(
            r.text,
            "ok      zero (t.rules:1)\n\ndeducers in use: none (the built-in set also uses \
             loop-closure, colouring, connectivity, regions, parity, probing and search: a `use NAME` line switches one \
             on)\n\n1 rule: 1 sound, 0 unsound; 0 warnings\n"
        );
        assert_eq!(r.errors, 0);
    }

    #[test]
    fn an_unsound_rule_names_the_failing_fact_and_draws_it() {
        let r =
            report("rule wrong\nwhen\n  + x +\n    1\n  +   +\nthen\n  + x +\n    1\n  +---+\n");
        assert_eq!(r.errors, 1);
        assert!(
            r.text.starts_with("UNSOUND wrong (t.rules:1)\n"),
            "{}",
            r.text
        );
        assert!(
            r.text
                .contains("the conclusion's line on the 1's bottom side, at (2, 1), is a cross"),
            "{}",
            r.text
        );
        assert!(r.text.contains("\n            + x +"), "{}", r.text);
        assert!(r.text.ends_with("1 rule: 0 sound, 1 unsound; 0 warnings\n"));
    }

    #[test]
    fn the_deducers_in_use_are_named() {
        let r = report(
            "use search\nuse loop-closure\nrule zero\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n",
        );
        assert!(
            r.text.contains(
                "\ndeducers in use: search and loop-closure (the built-in set also uses \
                 colouring, connectivity, regions, parity and probing: a `use NAME` line switches one on)\n"
            ),
            "{}",
            r.text
        );
        let builtin = super::super::io::captured(|io| check_set(io, &RuleSet::builtin())).0;
        assert!(
            builtin.text.contains(
                "deducers in use: colouring, connectivity, regions, parity, probing, search and loop-closure\n"
            ),
            "{}",
            builtin.text
        );
        assert!(!builtin.text.contains("the built-in set also uses"));
    }

    #[test]
    fn a_large_window_ends_undecided_not_after_minutes() {
        // A closed loop around one cell in a 6x6-cell window, under the single-loop law: no
        // assignment of the window obeys the law, and a brute-force proof can only learn that
        // by going through all of them. The budget stops it with a named verdict.
        let dots = "  +   +   +   +   +   +   +\n";
        let mut when = String::from("rule closed\n  assumes single-loop\nwhen\n");
        when.push_str("  +---+   +   +   +   +   +\n  |   |\n  +---+   +   +   +   +   +\n");
        let mut then = String::from("then\n");
        then.push_str("  +---+ x +   +   +   +   +\n  |   |\n  +---+   +   +   +   +   +\n");
        for _ in 0..5 {
            when.push_str(&format!("\n{dots}"));
            then.push_str(&format!("\n{dots}"));
        }
        let text = format!("{when}{then}");
        let set = RuleSet::from_sources(&[("t.rules", text.as_str())]).unwrap();
        let verdict = crate::rules::prove::prove_with(
            &set.rules[0],
            crate::rules::prove::Budget { steps: 100_000 },
            &mut |_| {},
        );
        assert!(
            matches!(verdict, Verdict::Undecided { steps, edges } if steps > 100_000 && edges > 80),
            "{verdict:?}"
        );
        let text = describe(&set.rules[0], &verdict);
        assert!(text.starts_with("UNDECIDED closed (t.rules:1)\n"), "{text}");
        assert!(
            text.contains("the proof gave up after 100001 search steps"),
            "{text}"
        );
    }

    #[test]
    fn never_firing_and_needless_marks() {
        let never =
            report("rule never\nwhen\n  +---+\n    0\n  +   +\nthen\n  +---+\n  x 0\n  +   +\n");
        assert!(
            never.text.starts_with("NEVER   never (t.rules:1)\n"),
            "{}",
            never.text
        );
        assert!(never.text.contains("1 never fires"), "{}", never.text);
        assert_eq!(never.errors, 1);
        let marked = report(
            "rule zero\n  assumes single-loop\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n",
        );
        assert_eq!(marked.errors, 0);
        assert!(marked.text.contains("warning: `zero` (t.rules:1) is marked `assumes single-loop` but is sound without it"), "{}", marked.text);
    }
}
