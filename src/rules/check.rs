//! Meaning checks on parsed rule files: pictures of equal shape, clues 0-3, a conclusion that keeps the premise and adds to it, known deducers, unique names.

use super::ast::PictureColour;
use super::ast::{Diagnostic, ExampleAst, FileAst, Glyph, PictureAst, RuleAst, Span};
use super::{Colour, Example, Fact, Rule};
use crate::deduce::Deducer;
use crate::geometry::{Kind, Pos};
use std::collections::{BTreeSet, HashMap};

/// Most cells a rule's pictures may span across or down. The engine pads every board by the
/// widest rule's span, and the soundness proof works over the whole window, so a huge picture
/// would cost memory on every puzzle and a proof that never ends.
pub const MAX_RULE_SPAN: i32 = 12;
/// Most edges a rule's window (every edge touching a drawn dot) may hold.
pub const MAX_WINDOW_EDGES: usize = 220;
/// Most cells an example board may span across or down.
pub const MAX_EXAMPLE_SPAN: usize = 100;

/// Checks every rule and `use` line of a file; returns the good rules, the deducers and every problem found.
pub fn check_file(file: &FileAst) -> (Vec<Rule>, Vec<Deducer>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut deducers = Vec::new();
    for u in &file.uses {
        match Deducer::from_name(&u.name) {
            Some(d) => {
                deducers.push(d);
                match u.instead_of_level {
                    Some(_) if d != Deducer::Probing => errors.push(
                        Diagnostic::new(
                            &file.name,
                            u.at,
                            format!("`{}` cannot stand in for rule levels", u.name),
                        )
                        .with_help("only `use probing instead of level N` is known"),
                    ),
                    Some(0) => errors.push(Diagnostic::new(
                        &file.name,
                        u.at,
                        "levels start at 1: `instead of level 0` names none",
                    )),
                    _ => {}
                }
            }
            None => {
                let known: Vec<_> = Deducer::ALL.iter().map(|d| d.name()).collect();
                errors.push(
                    Diagnostic::new(&file.name, u.at, format!("unknown deducer `{}`", u.name))
                        .with_help(format!("known deducers: {}", known.join(", "))),
                );
            }
        }
    }
    let mut rules = Vec::new();
    for rule in &file.rules {
        let before = errors.len();
        let checked = check_rule(&file.name, rule, &mut errors);
        if errors.len() == before {
            rules.extend(checked);
        }
    }
    (rules, deducers, errors)
}

/// Reports rules that share a name, pointing at the second one.
pub fn check_unique_names(rules: &[Rule]) -> Vec<Diagnostic> {
    let mut seen: HashMap<&str, &Rule> = HashMap::new();
    let mut errors = Vec::new();
    for rule in rules {
        if let Some(first) = seen.get(rule.name.as_str()) {
            errors.push(
                Diagnostic::new(
                    &rule.file,
                    Span::new(rule.line, 6),
                    format!("rule name `{}` is already used", rule.name),
                )
                .with_help(format!(
                    "the first `{}` is at {}:{}; give this one another name",
                    rule.name, first.file, first.line
                )),
            );
        } else {
            seen.insert(&rule.name, rule);
        }
    }
    errors
}

fn check_rule(file: &str, rule: &RuleAst, errors: &mut Vec<Diagnostic>) -> Option<Rule> {
    // Only this rule's own errors count below (the list holds the whole file's).
    let errors_before = errors.len();
    let pictures = [&rule.when, &rule.then].into_iter().chain(
        rule.examples
            .iter()
            .flat_map(|e| std::iter::once(&e.board).chain(e.gives.as_ref())),
    );
    if pictures.into_iter().any(|p| p.rows == 0 || p.broken) {
        return None; // the grammar already reported what is wrong with the picture
    }
    if !check_shape(file, rule, errors) {
        return None;
    }
    check_premise_kept(file, rule, errors);
    let added_colours = check_colours(file, rule, errors);
    let added = check_added(file, rule, !added_colours.is_empty(), errors, errors_before);
    let level = check_level(file, rule, errors);
    let mut examples = Vec::new();
    for ex in &rule.examples {
        if let Some(e) = check_example(file, ex, errors) {
            examples.push(e);
        }
    }
    Some(rule_of(file, rule, level, added, added_colours, examples))
}

/// The rule of a file known to pass [`check_file`], built without checking it again, and
/// without its examples: what the built-in set to solve with needs (the test suite checks
/// the built-in files, and that this gives the same rules as [`check_file`] less their
/// examples). Its deducers are read as `check_file` reads them; an unknown one panics.
pub(crate) fn read_checked_file(file: &FileAst) -> (Vec<Rule>, Vec<Deducer>) {
    let deducers = file
        .uses
        .iter()
        .map(|u| Deducer::from_name(&u.name).expect("a checked file names known deducers"))
        .collect();
    let rules = file
        .rules
        .iter()
        .map(|rule| {
            let mut added: Vec<Fact> = rule
                .then
                .facts
                .iter()
                .filter(|f| !rule.when.facts.iter().any(|w| w.at == f.at))
                .map(|f| Fact {
                    at: f.at,
                    glyph: f.glyph,
                })
                .collect();
            added.sort();
            let level = rule.level.map_or(1, |(n, _)| n);
            rule_of(
                &file.name,
                rule,
                level,
                added,
                added_colours(rule),
                Vec::new(),
            )
        })
        .collect();
    (rules, deducers)
}

/// A checked rule from its parsed form and the parts checking worked out.
fn rule_of(
    file: &str,
    rule: &RuleAst,
    level: u32,
    added: Vec<Fact>,
    added_colours: Vec<Colour>,
    examples: Vec<Example>,
) -> Rule {
    let mut premise: Vec<Fact> = rule
        .when
        .facts
        .iter()
        .map(|f| Fact {
            at: f.at,
            glyph: f.glyph,
        })
        .collect();
    premise.sort();
    let mut dots = rule.when.dots.clone();
    dots.sort();
    Rule {
        name: rule.name.clone(),
        description: rule.description.clone(),
        assumes_single_loop: rule.assumes_single_loop,
        level,
        file: file.to_string(),
        line: rule.at.line,
        dots,
        premise,
        conclusion: added,
        premise_colours: colours(&rule.when.colours),
        conclusion_colours: added_colours,
        examples,
    }
}

/// Colour facts as drawn, checked (sorted).
fn colours(drawn: &[PictureColour]) -> Vec<Colour> {
    let mut out: Vec<Colour> = drawn
        .iter()
        .map(|c| Colour {
            at: c.at,
            letter: c.letter.to_ascii_lowercase() as u8,
            upper: c.letter.is_ascii_uppercase(),
        })
        .collect();
    out.sort();
    out
}

/// Checks the colour letters of a rule: every premise letter is kept by the conclusion, a
/// letter stands on two cells at least (a relation needs two), and the `then` picture's new
/// letters are returned.
fn check_colours(file: &str, rule: &RuleAst, errors: &mut Vec<Diagnostic>) -> Vec<Colour> {
    let then: HashMap<Pos, &PictureColour> = rule.then.colours.iter().map(|c| (c.at, c)).collect();
    for c in &rule.when.colours {
        match then.get(&c.at) {
            Some(t) if t.letter == c.letter => {}
            Some(t) => errors.push(
                Diagnostic::new(
                    file,
                    t.span,
                    "the conclusion changes a colour letter of the premise",
                )
                .with_help(
                    "a conclusion keeps every premise letter and may add letters on other cells",
                ),
            ),
            None => errors.push(
                Diagnostic::new(
                    file,
                    c.span,
                    "the conclusion drops this premise colour letter",
                )
                .with_help("repeat every premise letter in the `then` picture"),
            ),
        }
    }
    let alone = |picture: &[PictureColour], which: &str, errors: &mut Vec<Diagnostic>| {
        for c in picture {
            let lower = c.letter.to_ascii_lowercase();
            if picture
                .iter()
                .filter(|d| d.letter.to_ascii_lowercase() == lower)
                .count()
                < 2
            {
                errors.push(
                    Diagnostic::new(
                        file,
                        c.span,
                        format!("colour letter `{}` stands on one cell of the `{which}` picture only", c.letter),
                    )
                    .with_help(format!(
                        "a letter relates cells: the same letter on another cell means the same side of the loop, `{}` the other side",
                        if c.letter.is_ascii_lowercase() { c.letter.to_ascii_uppercase() } else { c.letter.to_ascii_lowercase() }
                    )),
                );
            }
        }
    };
    alone(&rule.when.colours, "when", errors);
    alone(&rule.then.colours, "then", errors);
    added_colours(rule)
}

/// The `then` picture's colour letters on cells the `when` picture leaves unlettered, as
/// checked colour facts (sorted).
fn added_colours(rule: &RuleAst) -> Vec<Colour> {
    let added: Vec<PictureColour> = rule
        .then
        .colours
        .iter()
        .filter(|c| !rule.when.colours.iter().any(|w| w.at == c.at))
        .copied()
        .collect();
    colours(&added)
}

/// Checks each picture's facts against its dots, that both pictures draw the same dots, and
/// the window's size; returns whether the rule's shape is good enough to read its facts.
fn check_shape(file: &str, rule: &RuleAst, errors: &mut Vec<Diagnostic>) -> bool {
    check_picture(file, &rule.when, "when", errors);
    check_picture(file, &rule.then, "then", errors);
    let when_dots: BTreeSet<Pos> = rule.when.dots.iter().copied().collect();
    let then_dots: BTreeSet<Pos> = rule.then.dots.iter().copied().collect();
    if when_dots != then_dots {
        errors.push(
            Diagnostic::new(
                file,
                rule.then.at,
                format!(
                    "the `then` picture of rule `{}` has another shape than its `when` picture",
                    rule.name
                ),
            )
            .with_help("draw the same dots in both pictures"),
        );
        return false;
    }
    check_window(file, rule, errors)
}

/// The conclusion keeps every premise fact, and the premise states something.
fn check_premise_kept(file: &str, rule: &RuleAst, errors: &mut Vec<Diagnostic>) {
    let then: HashMap<Pos, (Glyph, Span)> = rule
        .then
        .facts
        .iter()
        .map(|f| (f.at, (f.glyph, f.span)))
        .collect();
    for f in &rule.when.facts {
        match then.get(&f.at) {
            Some((g, _)) if *g == f.glyph => {}
            Some((_, span)) => errors.push(
                Diagnostic::new(file, *span, "the conclusion changes a fact of the premise")
                    .with_help(
                        "a conclusion keeps every premise fact and only adds lines and crosses",
                    ),
            ),
            None => errors.push(
                Diagnostic::new(file, f.span, "the conclusion drops this premise fact")
                    .with_help("repeat every premise fact in the `then` picture"),
            ),
        }
    }
    if rule.when.facts.is_empty() && rule.when.colours.is_empty() {
        errors.push(
            Diagnostic::new(
                file,
                rule.when.at,
                format!("rule `{}` has an empty premise", rule.name),
            )
            .with_help("a `when` picture states at least one clue, line, cross or colour letter"),
        );
    }
}

/// The facts the conclusion adds (sorted): lines and crosses only, at least one when the rule
/// has no other error (`errors_before`: where the rule's errors start).
fn check_added(
    file: &str,
    rule: &RuleAst,
    adds_colours: bool,
    errors: &mut Vec<Diagnostic>,
    errors_before: usize,
) -> Vec<Fact> {
    let when: BTreeSet<Pos> = rule.when.facts.iter().map(|f| f.at).collect();
    let mut added = Vec::new();
    for f in &rule.then.facts {
        if when.contains(&f.at) {
            continue;
        }
        match f.glyph {
            Glyph::Clue(_) => errors.push(
                Diagnostic::new(file, f.span, "the conclusion adds a clue")
                    .with_help("conclusions may only add lines and crosses"),
            ),
            _ => added.push(Fact {
                at: f.at,
                glyph: f.glyph,
            }),
        }
    }
    if added.is_empty() && !adds_colours && errors.len() == errors_before {
        errors.push(
            Diagnostic::new(
                file,
                rule.then.at,
                format!("rule `{}` concludes nothing new", rule.name),
            )
            .with_help("the `then` picture must add at least one line, cross or colour letter"),
        );
    }
    added.sort();
    added
}

/// The rule's level: 1 when not given, else the one given (reported unless 1-9).
fn check_level(file: &str, rule: &RuleAst, errors: &mut Vec<Diagnostic>) -> u32 {
    match rule.level {
        None => 1,
        Some((n, span)) => {
            if !(1..=9).contains(&n) {
                errors.push(
                    Diagnostic::new(file, span, format!("level {n} is not 1-9"))
                        .with_help("levels run from 1 (cheapest, the default) to 9"),
                );
            }
            n
        }
    }
}

/// Keeps a rule's window within [`MAX_RULE_SPAN`] and [`MAX_WINDOW_EDGES`]; returns whether
/// it is.
fn check_window(file: &str, rule: &RuleAst, errors: &mut Vec<Diagnostic>) -> bool {
    let dots = &rule.when.dots;
    let span =
        |coord: fn(&Pos) -> i32| match (dots.iter().map(coord).min(), dots.iter().map(coord).max())
        {
            (Some(lo), Some(hi)) => (hi - lo) / 2,
            _ => 0,
        };
    let (down, across) = (span(|p| p.y), span(|p| p.x));
    let help = "the engine pads every board by the widest rule's span and proofs search the \
                whole window: draw the rule in a smaller window, or split it";
    if down > MAX_RULE_SPAN || across > MAX_RULE_SPAN {
        errors.push(
            Diagnostic::new(
                file,
                rule.when.at,
                format!(
                    "rule `{}` spans {down}x{across} cells: a rule spans at most \
                     {MAX_RULE_SPAN} cells down and across",
                    rule.name
                ),
            )
            .with_help(help),
        );
        return false;
    }
    let edges: BTreeSet<Pos> = dots.iter().flat_map(|d| d.around()).collect();
    if edges.len() > MAX_WINDOW_EDGES {
        errors.push(
            Diagnostic::new(
                file,
                rule.when.at,
                format!(
                    "rule `{}` has {} edges in its window (the edges at its drawn dots): at \
                     most {MAX_WINDOW_EDGES}",
                    rule.name,
                    edges.len()
                ),
            )
            .with_help(help),
        );
        return false;
    }
    true
}

/// Clues 0-3 with their corner dots drawn, edges that touch a drawn dot.
fn check_picture(file: &str, picture: &PictureAst, which: &str, errors: &mut Vec<Diagnostic>) {
    let dots: BTreeSet<Pos> = picture.dots.iter().copied().collect();
    for c in &picture.colours {
        if !c.at.corners().iter().all(|d| dots.contains(d)) {
            errors.push(
                Diagnostic::new(
                    file,
                    c.span,
                    format!("the colour letter in the `{which}` picture needs its cell's four corner dots drawn"),
                )
                .with_help("draw `+` at each corner of the lettered cell"),
            );
        }
    }
    for f in &picture.facts {
        match f.glyph {
            Glyph::Clue(n) => {
                if n > 3 {
                    errors.push(
                        Diagnostic::new(file, f.span, format!("clue {n} is not 0-3"))
                            .with_help("a cell has four sides, so its clue is 0, 1, 2 or 3"),
                    );
                }
                if !f.at.corners().iter().all(|c| dots.contains(c)) {
                    errors.push(
                        Diagnostic::new(
                            file,
                            f.span,
                            format!(
                                "the clue in the `{which}` picture needs its four corner dots drawn"
                            ),
                        )
                        .with_help("draw `+` at each corner of the clue's cell"),
                    );
                }
            }
            Glyph::Line | Glyph::Cross => {
                if !f.at.edge_dots().iter().any(|d| dots.contains(d)) {
                    errors.push(
                        Diagnostic::new(
                            file,
                            f.span,
                            format!("this edge of the `{which}` picture touches no drawn dot"),
                        )
                        .with_help("draw `+` at one end of the edge at least"),
                    );
                }
            }
        }
    }
}

/// An example board is a full rectangle of dots; its `gives` picture has the same shape.
fn check_example(file: &str, ex: &ExampleAst, errors: &mut Vec<Diagnostic>) -> Option<Example> {
    let before = errors.len();
    let (rows, cols) = board_shape(file, &ex.board, errors)?;
    let board = board_facts(file, &ex.board, errors);
    if let Some(c) = ex.board.colours.first() {
        errors.push(
            Diagnostic::new(file, c.span, "an example board holds no colour letters (its `gives` board may)")
                .with_help("draw the lines and crosses that relate the cells instead: the engine colours the board from them"),
        );
    }
    let gives = match &ex.gives {
        None => None,
        Some(g) => {
            let shape = board_shape(file, g, errors)?;
            if shape != (rows, cols) {
                errors.push(
                    Diagnostic::new(
                        file,
                        g.at,
                        "the `gives` board has another size than its example",
                    )
                    .with_help(format!(
                        "draw it with {rows} rows and {cols} columns of cells"
                    )),
                );
            }
            Some(board_facts(file, g, errors))
        }
    };
    let gives_colours = ex
        .gives
        .as_ref()
        .map_or_else(Vec::new, |g| colours(&g.colours));
    (errors.len() == before).then_some(Example {
        line: ex.at.line,
        rows,
        cols,
        board,
        gives,
        gives_colours,
    })
}

fn board_shape(file: &str, p: &PictureAst, errors: &mut Vec<Diagnostic>) -> Option<(usize, usize)> {
    if p.rows == 0 {
        return None;
    }
    let width = p.dots.iter().map(|d| d.x).max().unwrap_or(0);
    let (rows, cols) = ((p.rows / 2) as i32, width / 2);
    let largest = MAX_EXAMPLE_SPAN as i32;
    if rows > largest || cols > largest {
        errors.push(
            Diagnostic::new(
                file,
                p.at,
                format!("this board spans {rows}x{cols} cells: an example board spans at most {largest} cells down and across"),
            )
            .with_help("examples show a rule at work on a small board"),
        );
        return None;
    }
    let full =
        p.rows % 2 == 1 && rows >= 1 && cols >= 1 && p.dots.len() as i32 == (rows + 1) * (cols + 1);
    if !full {
        errors.push(
            Diagnostic::new(
                file,
                p.at,
                "an example board must be a full rectangle of dots",
            )
            .with_help("draw every `+` of the board, with a dot row first and last"),
        );
        return None;
    }
    Some((rows as usize, cols as usize))
}

fn board_facts(file: &str, p: &PictureAst, errors: &mut Vec<Diagnostic>) -> Vec<Fact> {
    let mut facts = Vec::new();
    for f in &p.facts {
        if let Glyph::Clue(n) = f.glyph
            && n > 3
        {
            errors.push(Diagnostic::new(
                file,
                f.span,
                format!("clue {n} is not 0-3"),
            ));
        }
        debug_assert!(f.at.kind() != Kind::Dot);
        facts.push(Fact {
            at: f.at,
            glyph: f.glyph,
        });
    }
    facts.sort();
    facts
}

#[cfg(test)]
mod tests {
    use crate::rules::RuleSet;

    fn errors(text: &str) -> Vec<String> {
        match RuleSet::from_sources(&[("t.rules", text)]) {
            Ok(_) => Vec::new(),
            Err(d) => d.iter().map(|d| d.to_string()).collect(),
        }
    }

    #[test]
    fn a_good_rule_checks() {
        let ok = "rule zero\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n";
        assert_eq!(errors(ok), Vec::<String>::new());
    }

    #[test]
    fn all_meaning_problems_of_a_file_are_reported() {
        let text = "use magic\nrule a\nwhen\n  +   +\n    5\n  +   +\nthen\n  +---+\n    5\n  +   +\n\
rule b\nwhen\n  +   +\nthen\n  +   +   +\n";
        let e = errors(text);
        assert!(
            e[0].starts_with("t.rules:1:5: error: unknown deducer `magic`"),
            "{e:?}"
        );
        assert!(
            e.iter()
                .any(|m| m.contains("t.rules:5:5: error: clue 5 is not 0-3")),
            "{e:?}"
        );
        assert!(e.iter().any(|m| m.contains("another shape")), "{e:?}");
    }

    #[test]
    fn levels_default_to_1_and_run_from_1_to_9() {
        let rule = |level: &str| {
            format!(
                "rule z\n{level}when\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n"
            )
        };
        let set = RuleSet::from_sources(&[("t.rules", rule(""))]).unwrap();
        assert_eq!(set.rules[0].level, 1);
        let set = RuleSet::from_sources(&[("t.rules", rule("  level 3\n"))]).unwrap();
        assert_eq!(set.rules[0].level, 3);
        let e = errors(&rule("  level 0\n"));
        assert!(
            e[0].starts_with("t.rules:2:3: error: level 0 is not 1-9"),
            "{e:?}"
        );
    }

    #[test]
    fn conclusion_must_keep_and_add() {
        let drops = "rule a\nwhen\n  + x +\nthen\n  +   +\n";
        assert!(errors(drops)[0].contains("drops this premise fact"));
        let same = "rule a\nwhen\n  + x +\nthen\n  + x +\n";
        assert!(errors(same)[0].contains("concludes nothing new"));
    }

    #[test]
    fn duplicate_names_are_reported() {
        let text = "rule a\nwhen\n  + x +\nthen\n  + x +\n  x\nrule a\nwhen\n  + x +\nthen\n  + x +\n      x\n";
        let e = errors(text);
        assert_eq!(e.len(), 1);
        assert!(
            e[0].contains("t.rules:7:6: error: rule name `a` is already used"),
            "{e:?}"
        );
    }
}
