//! The rule-file grammar (nom): turns text into a [`FileAst`], naming file:line:column and what was expected for every syntax error.
//!
//! A rule file is line oriented. Lines at column 0 hold keywords (`rule NAME`, `use NAME`,
//! `when`, `then`, `example`, `gives`, `quiet`); indented lines hold a rule's header
//! (`"description"`, `assumes single-loop`) or the rows of a picture; `#` starts a comment line.
//! Pictures are drawn in the answer's own glyphs: even rows are dot rows (`+`, `---`, ` x `),
//! odd rows are cell rows (`|`, `x`, digits); the leftmost `+` fixes the columns.

use super::ast::{
    Diagnostic, ExampleAst, FileAst, Glyph, PictureAst, PictureFact, RuleAst, Span, UseAst,
};
use super::glyphs;
use crate::geometry::Pos;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, satisfy, space0, space1};
use nom::combinator::{eof, map, value};
use nom::sequence::{delimited, preceded, terminated};
use nom::{IResult, Parser};

/// One line of a rule file, classified.
#[derive(Debug)]
enum Line<'a> {
    /// Empty or only white space.
    Blank,
    /// A `#` comment.
    Comment,
    /// Starts with white space: a header line or a picture row.
    Indented(&'a str),
    /// Starts at column 0: a keyword line.
    Keyword(&'a str),
}

fn classify(text: &str) -> Line<'_> {
    let trimmed = text.trim_start();
    if trimmed.trim_end().is_empty() {
        Line::Blank
    } else if trimmed.starts_with('#') {
        Line::Comment
    } else if text.starts_with(' ') || text.starts_with('\t') {
        Line::Indented(text)
    } else {
        Line::Keyword(text)
    }
}

/// A parsed keyword line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Keyword<'a> {
    Rule(&'a str),
    Use(&'a str),
    When,
    Then,
    Example,
    Gives,
    Quiet,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

fn name(input: &str) -> IResult<&str, &str> {
    take_while1(is_name_char).parse(input)
}

fn end_of_line(input: &str) -> IResult<&str, &str> {
    terminated(space0, eof).parse(input)
}

/// `rule NAME`, `use NAME` or a bare keyword, alone on its line.
fn keyword_line(input: &str) -> IResult<&str, Keyword<'_>> {
    let named = |word: &'static str| terminated(preceded((tag(word), space1), name), end_of_line);
    let bare = |word: &'static str| terminated(tag(word), end_of_line);
    alt((
        map(named("rule"), Keyword::Rule),
        map(named("use"), Keyword::Use),
        value(Keyword::When, bare("when")),
        value(Keyword::Then, bare("then")),
        value(Keyword::Example, bare("example")),
        value(Keyword::Gives, bare("gives")),
        value(Keyword::Quiet, bare("quiet")),
    ))
    .parse(input)
}

/// A rule header line: `"description"` or `assumes single-loop`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Header<'a> {
    Description(&'a str),
    AssumesSingleLoop,
    Level(u32),
}

fn header_line(input: &str) -> IResult<&str, Header<'_>> {
    preceded(
        space1,
        terminated(
            alt((
                map(
                    delimited(char('"'), take_while(|c| c != '"'), char('"')),
                    Header::Description,
                ),
                value(
                    Header::AssumesSingleLoop,
                    (tag("assumes"), space1, tag("single-loop")),
                ),
                map(
                    preceded((tag("level"), space1), nom::character::complete::u32),
                    Header::Level,
                ),
            )),
            end_of_line,
        ),
    )
    .parse(input)
}

/// The glyph group between two dots of a dot row.
fn edge_slot(input: &str) -> IResult<&str, Option<Glyph>> {
    alt((
        value(Some(Glyph::Line), tag(glyphs::H_LINE)),
        value(Some(Glyph::Cross), tag(glyphs::H_CROSS)),
        value(None, tag(glyphs::H_BLANK)),
    ))
    .parse(input)
}

/// A dot position of a dot row.
fn dot_slot(input: &str) -> IResult<&str, bool> {
    alt((
        value(true, char(glyphs::DOT)),
        value(false, char(glyphs::BLANK)),
    ))
    .parse(input)
}

/// A dot column of a cell row: a vertical edge.
fn side_slot(input: &str) -> IResult<&str, Option<Glyph>> {
    alt((
        value(Some(Glyph::Line), char(glyphs::V_LINE)),
        value(Some(Glyph::Cross), char(glyphs::V_CROSS)),
        value(None, char(glyphs::BLANK)),
    ))
    .parse(input)
}

/// The three columns of a cell: space, clue digit or space, space.
fn clue_slot(input: &str) -> IResult<&str, Option<Glyph>> {
    delimited(
        char(glyphs::BLANK),
        alt((
            map(satisfy(|c| glyphs::clue(c).is_some()), |d| {
                glyphs::clue(d).map(Glyph::Clue)
            }),
            value(None, char(glyphs::BLANK)),
        )),
        char(glyphs::BLANK),
    )
    .parse(input)
}

/// Reads one picture from its rows; `at` is the position of its keyword.
fn parse_picture(
    file: &str,
    at: Span,
    rows: &[(usize, &str)],
    errors: &mut Vec<Diagnostic>,
) -> PictureAst {
    let mut picture = PictureAst {
        at,
        ..PictureAst::default()
    };
    let first = rows.iter().position(|(_, t)| !t.trim().is_empty());
    let last = rows.iter().rposition(|(_, t)| !t.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        errors.push(
            // Below the keyword, or at the keyword when the file ends right after it.
            match rows.first() {
                Some(&(line, _)) => Diagnostic::new(file, Span::new(line, 1), "expected a picture here"),
                None => Diagnostic::new(file, at, "expected a picture below this line"),
            }
                .with_help("draw the picture on indented lines below the keyword, starting with a dot row such as `  +   +`"),
        );
        return picture;
    };
    let rows = &rows[first..=last];
    picture.rows = rows.len();
    let errors_before = errors.len();
    let mut bad = false;
    for &(line, text) in rows {
        if let Some(i) = text.find(|c: char| c == '\t' || !c.is_ascii()) {
            errors.push(
                Diagnostic::new(
                    file,
                    Span::new(line, i + 1),
                    "pictures may hold only spaces and the glyphs + - | x and digits",
                )
                .with_help("replace tabs and other characters by spaces"),
            );
            bad = true;
        }
    }
    if bad {
        picture.broken = true;
        return picture;
    }
    let origin = rows
        .iter()
        .step_by(2)
        .filter_map(|(_, t)| t.find(glyphs::DOT))
        .min();
    let Some(origin) = origin else {
        errors.push(
            Diagnostic::new(
                file,
                Span::new(rows[0].0, 1),
                "expected a dot row starting the picture",
            )
            .with_help("a picture starts with a dot row, and its leftmost `+` fixes the columns"),
        );
        return picture;
    };
    for (row, &(line, text)) in rows.iter().enumerate() {
        let text = text.trim_end();
        let y = row as i32;
        if let Some(i) = text[..origin.min(text.len())].find(|c| c != ' ') {
            errors.push(
                Diagnostic::new(
                    file,
                    Span::new(line, i + 1),
                    "nothing may stand left of the picture's leftmost dot",
                )
                .with_help("line the picture up on its dots: `+` every four columns"),
            );
            continue;
        }
        if text.len() <= origin {
            continue;
        }
        // Pad to whole groups so that trimmed trailing spaces do not matter.
        let mut padded = text[origin..].to_string();
        while padded.len() % 4 != 1 {
            padded.push(' ');
        }
        let mut rest: &str = &padded;
        let mut k = 0i32;
        let column = |rest: &str| origin + (padded.len() - rest.len()) + 1;
        if row % 2 == 0 {
            loop {
                match dot_slot(rest) {
                    Ok((r, is_dot)) => {
                        if is_dot {
                            picture.dots.push(Pos::new(y, 2 * k));
                        }
                        rest = r;
                    }
                    Err(_) => {
                        errors.push(
                            Diagnostic::new(
                                file,
                                Span::new(line, column(rest)),
                                format!(
                                    "expected `+` or a space at a dot's column, found `{}`",
                                    &rest[..1]
                                ),
                            )
                            .with_help("dots stand every four columns from the leftmost `+`"),
                        );
                        break;
                    }
                }
                if rest.is_empty() {
                    break;
                }
                match edge_slot(rest) {
                    Ok((r, glyph)) => {
                        if let Some(glyph) = glyph {
                            // Point at the `x` of ` x `, or at the first `-` of `---`.
                            let offset = usize::from(glyph == Glyph::Cross);
                            picture.facts.push(PictureFact {
                                at: Pos::new(y, 2 * k + 1),
                                glyph,
                                span: Span::new(line, column(rest) + offset),
                            });
                        }
                        rest = r;
                    }
                    Err(_) => {
                        errors.push(Diagnostic::new(
                            file,
                            Span::new(line, column(rest)),
                            format!("expected `---` (line), ` x ` (cross) or three spaces between dots, found `{}`", &rest[..3]),
                        ).with_help("dots stand every four columns from the leftmost `+`, with three columns between them"));
                        break;
                    }
                }
                k += 1;
            }
        } else {
            loop {
                match side_slot(rest) {
                    Ok((r, glyph)) => {
                        if let Some(glyph) = glyph {
                            picture.facts.push(PictureFact {
                                at: Pos::new(y, 2 * k),
                                glyph,
                                span: Span::new(line, column(rest)),
                            });
                        }
                        rest = r;
                    }
                    Err(_) => {
                        errors.push(Diagnostic::new(
                            file,
                            Span::new(line, column(rest)),
                            format!("expected `|` (line), `x` (cross) or a space at a dot's column, found `{}`", &rest[..1]),
                        ));
                        break;
                    }
                }
                if rest.is_empty() {
                    break;
                }
                match clue_slot(rest) {
                    Ok((r, glyph)) => {
                        if let Some(glyph) = glyph {
                            picture.facts.push(PictureFact {
                                at: Pos::new(y, 2 * k + 1),
                                glyph,
                                span: Span::new(line, column(rest) + 1),
                            });
                        }
                        rest = r;
                    }
                    Err(_) => {
                        let found = rest[..3].chars().find(|&c| c != ' ').unwrap_or(' ');
                        let offset = rest[..3].find(found).unwrap_or(0);
                        errors.push(Diagnostic::new(
                            file,
                            Span::new(line, column(rest) + offset),
                            format!("expected a clue digit or a space in the middle of a cell, found `{found}`"),
                        ).with_help("a cell's clue stands two columns right of its left side"));
                        break;
                    }
                }
                k += 1;
            }
        }
    }
    picture.broken = errors.len() > errors_before;
    picture
}

/// The parser's place in a rule while reading lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Between rules: `rule` or `use`.
    Item,
    /// After `rule`: header lines, then `when`.
    Header,
    /// After `when`'s picture: `then`.
    Then,
    /// After `then` or an example: `example`, `quiet`, or the next item.
    Examples,
    /// After `example`'s picture: `gives`.
    Gives,
    /// Skipping a broken rule up to the next `rule` or `use`.
    Skip,
}

/// Parses a whole rule file. Returns the file as far as it could be read, and every syntax error found.
pub fn parse_file(file: &str, text: &str) -> (FileAst, Vec<Diagnostic>) {
    let mut ast = FileAst {
        name: file.to_string(),
        ..FileAst::default()
    };
    let mut errors = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text); // a UTF-8 byte order mark
    let lines: Vec<&str> = text.lines().collect();
    // The errors of the current rule's `when` picture start here; `then` may start at the line.
    let mut when_mark: Option<WhenMark> = None;
    let mut expect = Expect::Item;
    let mut i = 0;
    let mut current: Option<RuleAst> = None;
    let finish = |current: &mut Option<RuleAst>, ast: &mut FileAst| {
        if let Some(rule) = current.take() {
            ast.rules.push(rule);
        }
    };
    while i < lines.len() {
        let line_no = i + 1;
        let text = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
        match classify(text) {
            Line::Blank | Line::Comment => {
                i += 1;
            }
            Line::Indented(content) => {
                match expect {
                    Expect::Header => match header_line(content) {
                        Ok((_, Header::Description(d))) => {
                            if let Some(rule) = current.as_mut() {
                                if rule.description.is_some() {
                                    errors.push(Diagnostic::new(
                                        file,
                                        Span::new(line_no, indent(content) + 1),
                                        "a rule has at most one description",
                                    ));
                                }
                                rule.description = Some(d.to_string());
                            }
                        }
                        Ok((_, Header::AssumesSingleLoop)) => {
                            if let Some(rule) = current.as_mut() {
                                rule.assumes_single_loop = true;
                            }
                        }
                        Ok((_, Header::Level(n))) => {
                            if let Some(rule) = current.as_mut() {
                                rule.level = Some((n, Span::new(line_no, indent(content) + 1)));
                            }
                        }
                        Err(_) => {
                            errors.push(
                                Diagnostic::new(
                                    file,
                                    Span::new(line_no, indent(content) + 1),
                                    format!("expected a description in double quotes, `assumes single-loop` or `level N`, found `{}`", content.trim()),
                                )
                                .with_help(if content.trim_start().starts_with([glyphs::DOT, glyphs::V_LINE]) {
                                    "a rule's pictures start after a `when` line at column 0"
                                } else {
                                    "the header lines of a rule are `\"one-line description\"`, `assumes single-loop` and `level N`"
                                }),
                            );
                        }
                    },
                    Expect::Skip => {}
                    _ => {
                        errors.push(
                            Diagnostic::new(
                                file,
                                Span::new(line_no, indent(content) + 1),
                                "expected a keyword at column 0 (`rule`, `use`, `when`, `then`, `example`, `gives` or `quiet`), found an indented line",
                            ),
                        );
                        if expect == Expect::Examples {
                            finish(&mut current, &mut ast);
                        }
                        if expect != Expect::Item {
                            expect = Expect::Skip;
                            current = None;
                        }
                    }
                }
                i += 1;
            }
            Line::Keyword(content) => {
                let kw = match keyword_line(content) {
                    Ok((_, kw)) => kw,
                    Err(_) => {
                        let word: String =
                            content.chars().take_while(|&c| is_name_char(c)).collect();
                        let diag = match word.as_str() {
                            "rule" | "use" => Diagnostic::new(
                                file,
                                Span::new(line_no, word.len() + 1),
                                match content[word.len()..].trim() {
                                    "" => format!("expected a name after `{word}` (letters, digits, `-` and `_`), found the end of the line"),
                                    rest => format!("expected a name after `{word}` (letters, digits, `-` and `_`), found `{rest}`"),
                                },
                            ),
                            _ => Diagnostic::new(
                                file,
                                Span::new(line_no, 1),
                                format!("expected `rule`, `use`, `when`, `then`, `example`, `gives` or `quiet`, found `{}`", content.trim_end()),
                            )
                            .with_help("picture rows and rule headers must be indented"),
                        };
                        errors.push(diag);
                        if expect == Expect::Examples {
                            finish(&mut current, &mut ast);
                        }
                        if expect != Expect::Item || word == "rule" {
                            expect = Expect::Skip;
                            current = None;
                        }
                        i += 1;
                        continue;
                    }
                };
                let at = Span::new(line_no, 1);
                i += 1;
                match kw {
                    Keyword::Rule(n) => {
                        if matches!(expect, Expect::Header | Expect::Then | Expect::Gives) {
                            let fallback = Diagnostic::new(
                                file,
                                at,
                                format!(
                                    "rule `{}` is not finished: expected `{}` before the next rule",
                                    current.as_ref().map_or("", |r| r.name.as_str()),
                                    expected_word(expect)
                                ),
                            );
                            unfinished(file, expect, &current, &when_mark, &mut errors, fallback);
                            current = None;
                        }
                        finish(&mut current, &mut ast);
                        current = Some(RuleAst {
                            name: n.to_string(),
                            at: Span::new(line_no, 6),
                            description: None,
                            assumes_single_loop: false,
                            level: None,
                            when: PictureAst::default(),
                            then: PictureAst::default(),
                            examples: Vec::new(),
                        });
                        expect = Expect::Header;
                    }
                    Keyword::Use(n) => {
                        if matches!(expect, Expect::Header | Expect::Then | Expect::Gives) {
                            let fallback = Diagnostic::new(
                                file,
                                at,
                                format!(
                                    "rule `{}` is not finished: expected `{}` before `use`",
                                    current.as_ref().map_or("", |r| r.name.as_str()),
                                    expected_word(expect)
                                ),
                            );
                            unfinished(file, expect, &current, &when_mark, &mut errors, fallback);
                            current = None;
                        }
                        finish(&mut current, &mut ast);
                        ast.uses.push(UseAst {
                            name: n.to_string(),
                            at: Span::new(line_no, 5),
                        });
                        expect = Expect::Item;
                    }
                    Keyword::When
                    | Keyword::Then
                    | Keyword::Example
                    | Keyword::Gives
                    | Keyword::Quiet => {
                        let wanted = match (expect, &kw) {
                            (Expect::Header, Keyword::When)
                            | (Expect::Then, Keyword::Then)
                            | (Expect::Examples, Keyword::Example)
                            | (Expect::Examples, Keyword::Quiet)
                            | (Expect::Gives, Keyword::Gives) => true,
                            (Expect::Skip, _) => {
                                continue;
                            }
                            _ => false,
                        };
                        if !wanted {
                            let found = content.trim_end();
                            let msg = match expect {
                                Expect::Item => format!(
                                    "`{found}` outside a rule: expected `rule NAME` or `use NAME`"
                                ),
                                _ => {
                                    format!("expected `{}`, found `{found}`", expected_word(expect))
                                }
                            };
                            let fallback = Diagnostic::new(file, at, msg);
                            unfinished(file, expect, &current, &when_mark, &mut errors, fallback);
                            if expect == Expect::Examples {
                                finish(&mut current, &mut ast);
                            }
                            expect = Expect::Skip;
                            current = None;
                            continue;
                        }
                        // Gather the picture: blank, comment and indented lines up to the next keyword.
                        let mut rows = Vec::new();
                        // The first row after a blank line inside the picture.
                        let mut after_gap = None;
                        let (mut drawn, mut gap) = (false, false);
                        while i < lines.len() {
                            let t = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
                            match classify(t) {
                                Line::Keyword(_) => break,
                                Line::Comment => {}
                                Line::Blank => {
                                    gap = drawn;
                                    rows.push((i + 1, t));
                                }
                                Line::Indented(_) => {
                                    if gap && after_gap.is_none() {
                                        after_gap = Some(i + 1);
                                    }
                                    drawn = true;
                                    rows.push((i + 1, t));
                                }
                            }
                            i += 1;
                        }
                        let errors_before = errors.len();
                        let picture = parse_picture(file, at, &rows, &mut errors);
                        if kw == Keyword::When {
                            when_mark = Some(WhenMark {
                                errors: errors_before,
                                then_at: after_gap
                                    .or_else(|| errors.get(errors_before).map(|d| d.at.line)),
                            });
                        }
                        let Some(rule) = current.as_mut() else {
                            continue;
                        };
                        match kw {
                            Keyword::When => {
                                rule.when = picture;
                                expect = Expect::Then;
                            }
                            Keyword::Then => {
                                rule.then = picture;
                                expect = Expect::Examples;
                            }
                            Keyword::Example => {
                                rule.examples.push(ExampleAst {
                                    at,
                                    board: picture,
                                    gives: None,
                                });
                                expect = Expect::Gives;
                            }
                            Keyword::Quiet => {
                                rule.examples.push(ExampleAst {
                                    at,
                                    board: picture,
                                    gives: None,
                                });
                                expect = Expect::Examples;
                            }
                            Keyword::Gives => {
                                if let Some(example) = rule.examples.last_mut() {
                                    example.gives = Some(picture);
                                }
                                expect = Expect::Examples;
                            }
                            _ => unreachable!("only picture keywords reach here"),
                        }
                    }
                }
            }
        }
    }
    match expect {
        Expect::Header | Expect::Then | Expect::Gives => {
            let fallback = Diagnostic::new(
                file,
                Span::new(lines.len().max(1), 1),
                format!(
                    "the file ends inside rule `{}`: expected `{}`",
                    current.as_ref().map_or("", |r| r.name.as_str()),
                    expected_word(expect)
                ),
            );
            unfinished(file, expect, &current, &when_mark, &mut errors, fallback);
        }
        _ => finish(&mut current, &mut ast),
    }
    (ast, errors)
}

/// Where the errors of a rule's `when` picture start, and the line where its `then` picture
/// probably starts when the `then` keyword was left out.
#[derive(Clone, Copy, Debug)]
struct WhenMark {
    /// Number of errors before the `when` picture was read.
    errors: usize,
    /// The first row after a blank line inside the picture, or else its first bad row.
    then_at: Option<usize>,
}

/// Reports a rule that is not finished. When it lacks its `then`, the errors of its `when`
/// picture are taken back (they come from reading the conclusion's picture as part of the
/// premise's) and only the missing `then` is reported, where the conclusion seems to start.
fn unfinished(
    file: &str,
    expect: Expect,
    current: &Option<RuleAst>,
    when_mark: &Option<WhenMark>,
    errors: &mut Vec<Diagnostic>,
    fallback: Diagnostic,
) {
    let (Expect::Then, Some(mark)) = (expect, when_mark) else {
        errors.push(fallback);
        return;
    };
    errors.truncate(mark.errors);
    let name = current.as_ref().map_or("", |r| r.name.as_str());
    match mark.then_at {
        Some(line) => errors.push(
            Diagnostic::new(
                file,
                Span::new(line, 1),
                format!(
                    "rule `{name}` has no `then`: its `when` picture runs on into what looks \
                     like the conclusion's picture here"
                ),
            )
            .with_help("write `then` at column 0 on the line before the conclusion's picture"),
        ),
        None => errors.push(
            fallback.with_help("write `then` at column 0, followed by the conclusion's picture"),
        ),
    }
}

fn expected_word(expect: Expect) -> &'static str {
    match expect {
        Expect::Item => "rule",
        Expect::Header => "when",
        Expect::Then => "then",
        Expect::Examples => "example",
        Expect::Gives => "gives",
        Expect::Skip => "rule",
    }
}

fn indent(content: &str) -> usize {
    content.len() - content.trim_start().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADJACENT: &str = "\
# two threes
use loop-closure

rule adjacent-threes
  \"Side-by-side 3s.\"
when
  +   +   +
    3   3
  +   +   +
then
  +   +   +
  | 3 | 3 |
  +   +   +
";

    #[test]
    fn reads_a_rule_with_pictures() {
        let (ast, errors) = parse_file("t.rules", ADJACENT);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(ast.uses[0].name, "loop-closure");
        let rule = &ast.rules[0];
        assert_eq!(rule.name, "adjacent-threes");
        assert_eq!(rule.description.as_deref(), Some("Side-by-side 3s."));
        assert_eq!(rule.when.rows, 3);
        assert_eq!(rule.when.dots.len(), 6);
        let clues: Vec<_> = rule.when.facts.iter().map(|f| (f.at, f.glyph)).collect();
        assert_eq!(
            clues,
            vec![
                (Pos::new(1, 1), Glyph::Clue(3)),
                (Pos::new(1, 3), Glyph::Clue(3))
            ]
        );
        assert_eq!(rule.then.facts.len(), 5);
        assert_eq!(rule.then.facts[0].span, Span::new(12, 3));
    }

    #[test]
    fn leftmost_dot_fixes_the_columns() {
        let text = "rule r\nwhen\n      +\n      x\n  +---+ x +\nthen\n      +\n      x\n  +---+ x +\n      |\n";
        let (ast, errors) = parse_file("t.rules", text);
        assert!(errors.is_empty(), "{errors:?}");
        let when: Vec<_> = ast.rules[0]
            .when
            .facts
            .iter()
            .map(|f| (f.at, f.glyph))
            .collect();
        assert_eq!(
            when,
            vec![
                (Pos::new(1, 2), Glyph::Cross),
                (Pos::new(2, 1), Glyph::Line),
                (Pos::new(2, 3), Glyph::Cross)
            ]
        );
        assert_eq!(ast.rules[0].then.facts[3].at, Pos::new(3, 2));
    }

    #[test]
    fn bad_glyph_names_line_column_and_expectation() {
        let text = "rule r\nwhen\n  +-- +\nthen\n  +---+\n";
        let (_, errors) = parse_file("t.rules", text);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].at, Span::new(3, 4));
        assert!(
            errors[0].message.contains("expected `---`"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn unknown_keyword_and_missing_then_are_reported_together() {
        let text = "rule a\nwhen\n  +   +\nthen\n  +---+\nrulez b\nrule c\nwhen\n  +   +\n";
        let (ast, errors) = parse_file("t.rules", text);
        assert_eq!(ast.rules.len(), 1);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0].at, Span::new(6, 1));
        assert!(errors[1].message.contains("expected `then`"));
    }

    #[test]
    fn a_keyword_on_the_last_line_is_reported_on_that_line() {
        // Found by the rule_files fuzz target: the position was one line past the end.
        let (_, errors) = parse_file(
            "t.rules",
            "rule r\nwhen\n  +   +\nthen\n  +---+\nexample\n  +   +\ngives",
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].at, Span::new(8, 1));
        assert_eq!(errors[0].message, "expected a picture below this line");
        let (_, errors) = parse_file("t.rules", "rule r\nwhen\n\n");
        assert_eq!(errors[0].at, Span::new(3, 1), "{errors:?}");
    }

    #[test]
    fn examples_and_header_flags() {
        let text = "rule r\n  assumes single-loop\n  level 2\nwhen\n  +   +\nthen\n  +---+\nexample\n  +   +\ngives\n  +---+\nquiet\n  + x +\n";
        let (ast, errors) = parse_file("t.rules", text);
        assert!(errors.is_empty(), "{errors:?}");
        let rule = &ast.rules[0];
        assert!(rule.assumes_single_loop);
        assert_eq!(rule.level, Some((2, Span::new(3, 3))));
        assert_eq!(rule.examples.len(), 2);
        assert!(rule.examples[0].gives.is_some());
        assert!(rule.examples[1].gives.is_none());
    }
}
