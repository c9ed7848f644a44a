//! The rule-file grammar (nom): turns text into a [`FileAst`], naming file:line:column and what was expected for every syntax error.
//!
//! A rule file is line oriented. Lines at column 0 hold keywords (`rule NAME`, `use NAME`,
//! `when`, `then`, `example`, `gives`, `quiet`); indented lines hold a rule's header
//! (`"description"`, `assumes single-loop`) or the rows of a picture; `#` starts a comment line.
//! Pictures are drawn in the answer's own glyphs: even rows are dot rows (`+`, `---`, ` x `),
//! odd rows are cell rows (`|`, `x`, digits); the leftmost `+` fixes the columns.

use super::ast::{
    Diagnostic, ExampleAst, FileAst, Glyph, PictureAst, PictureColour, PictureFact, RuleAst, Span,
    UseAst,
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
    /// `use NAME`, with `instead of level N` after it when given.
    Use(&'a str, Option<u32>),
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

/// `rule NAME`, `use NAME` (or `use NAME instead of level N`) or a bare keyword, alone on
/// its line.
fn keyword_line(input: &str) -> IResult<&str, Keyword<'_>> {
    let named = |word: &'static str| terminated(preceded((tag(word), space1), name), end_of_line);
    let bare = |word: &'static str| terminated(tag(word), end_of_line);
    let placed = terminated(
        (
            preceded((tag("use"), space1), name),
            preceded(
                (
                    space1,
                    tag("instead"),
                    space1,
                    tag("of"),
                    space1,
                    tag("level"),
                    space1,
                ),
                nom::character::complete::u32,
            ),
        ),
        end_of_line,
    );
    alt((
        map(named("rule"), Keyword::Rule),
        map(named("use"), |n| Keyword::Use(n, None)),
        map(placed, |(n, level)| Keyword::Use(n, Some(level))),
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

/// What the middle column of a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Middle {
    Clue(u8),
    Colour(char),
    Blank,
}

/// The three columns of a cell: a colour letter or a space; a clue digit, a colour letter (in
/// a cell without a clue) or a space; a space. Returns the letter's column within the cell.
/// A cell as read: its colour letter with its column in the cell, and its clue.
type CellSlot = (Option<(usize, char)>, Option<Glyph>);

fn clue_slot(input: &str) -> IResult<&str, CellSlot> {
    let letter = || satisfy(glyphs::is_colour);
    let (rest, (left, middle)) = terminated(
        (
            alt((map(letter(), Some), value(None, char(glyphs::BLANK)))),
            alt((
                map(satisfy(|c| glyphs::clue(c).is_some()), |d| {
                    Middle::Clue(glyphs::clue(d).unwrap_or(0))
                }),
                map(letter(), Middle::Colour),
                value(Middle::Blank, char(glyphs::BLANK)),
            )),
        ),
        char(glyphs::BLANK),
    )
    .parse(input)?;
    match (left, middle) {
        // One letter to a cell.
        (Some(_), Middle::Colour(_)) => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Verify,
        ))),
        (_, Middle::Colour(c)) => Ok((rest, (Some((1, c)), None))),
        (left, Middle::Clue(n)) => Ok((rest, (left.map(|c| (0, c)), Some(Glyph::Clue(n))))),
        (left, Middle::Blank) => Ok((rest, (left.map(|c| (0, c)), None))),
    }
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
    let Some(rows) = drawn_rows(file, at, rows, errors) else {
        return picture;
    };
    picture.rows = rows.len();
    let errors_before = errors.len();
    if !plain_rows(file, rows, errors) {
        picture.broken = true;
        return picture;
    }
    let Some(origin) = picture_origin(file, rows, errors) else {
        return picture;
    };
    // One buffer for the padded rows of the picture, not one per row.
    let mut padded = String::new();
    for (row, &(line, text)) in rows.iter().enumerate() {
        let mut reader = RowReader {
            file,
            line,
            y: row as i32,
            origin,
            width: 0,
            picture: &mut picture,
            errors: &mut *errors,
        };
        reader.read(text, row % 2 == 0, &mut padded);
    }
    picture.broken = errors.len() > errors_before;
    picture
}

/// The rows from the first drawn one to the last; reports a picture with none.
fn drawn_rows<'r, 'a>(
    file: &str,
    at: Span,
    rows: &'r [(usize, &'a str)],
    errors: &mut Vec<Diagnostic>,
) -> Option<&'r [(usize, &'a str)]> {
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
        return None;
    };
    Some(&rows[first..=last])
}

/// Whether the rows hold only ASCII and no tabs; reports every row that does not.
fn plain_rows(file: &str, rows: &[(usize, &str)], errors: &mut Vec<Diagnostic>) -> bool {
    let mut plain = true;
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
            plain = false;
        }
    }
    plain
}

/// The column of the leftmost dot of the dot rows; reports a picture without dots.
fn picture_origin(
    file: &str,
    rows: &[(usize, &str)],
    errors: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let origin = rows
        .iter()
        .step_by(2)
        .filter_map(|(_, t)| t.find(glyphs::DOT))
        .min();
    if origin.is_none() {
        errors.push(
            Diagnostic::new(
                file,
                Span::new(rows[0].0, 1),
                "expected a dot row starting the picture",
            )
            .with_help("a picture starts with a dot row, and its leftmost `+` fixes the columns"),
        );
    }
    origin
}

/// Reads one row of a picture into it.
struct RowReader<'p, 'f> {
    file: &'f str,
    /// The row's line in the file.
    line: usize,
    /// The row's lattice row.
    y: i32,
    /// The column of the picture's leftmost dot.
    origin: usize,
    /// The length of the row from the origin on, padded to whole groups.
    width: usize,
    picture: &'p mut PictureAst,
    errors: &'p mut Vec<Diagnostic>,
}

impl RowReader<'_, '_> {
    /// Reads a dot row (`dots`) or a cell row; `padded` is a buffer to pad it in.
    fn read(&mut self, text: &str, dots: bool, padded: &mut String) {
        let text = text.trim_end();
        let origin = self.origin;
        if let Some(i) = text[..origin.min(text.len())].find(|c| c != ' ') {
            self.errors.push(
                Diagnostic::new(
                    self.file,
                    Span::new(self.line, i + 1),
                    "nothing may stand left of the picture's leftmost dot",
                )
                .with_help("line the picture up on its dots: `+` every four columns"),
            );
            return;
        }
        if text.len() <= origin {
            return;
        }
        // Pad to whole groups so that trimmed trailing spaces do not matter.
        padded.clear();
        padded.push_str(&text[origin..]);
        while padded.len() % 4 != 1 {
            padded.push(' ');
        }
        self.width = padded.len();
        if dots {
            self.dot_row(padded);
        } else {
            self.cell_row(padded);
        }
    }

    /// The 1-based column in the file of the start of `rest`, the unread end of the row.
    fn column(&self, rest: &str) -> usize {
        self.origin + (self.width - rest.len()) + 1
    }

    fn error(&mut self, rest: &str, message: String) -> &mut Diagnostic {
        let at = Span::new(self.line, self.column(rest));
        self.errors.push(Diagnostic::new(self.file, at, message));
        self.errors.last_mut().expect("just pushed")
    }

    fn fact(&mut self, x: i32, glyph: Glyph, column: usize) {
        self.picture.facts.push(PictureFact {
            at: Pos::new(self.y, x),
            glyph,
            span: Span::new(self.line, column),
        });
    }

    /// A dot row: dots, and horizontal edges between them.
    fn dot_row(&mut self, padded: &str) {
        let mut rest = padded;
        let mut k = 0i32;
        loop {
            match dot_slot(rest) {
                Ok((r, is_dot)) => {
                    if is_dot {
                        self.picture.dots.push(Pos::new(self.y, 2 * k));
                    }
                    rest = r;
                }
                Err(_) => {
                    let found = &rest[..1];
                    let e = self.error(
                        rest,
                        format!("expected `+` or a space at a dot's column, found `{found}`"),
                    );
                    e.help = Some("dots stand every four columns from the leftmost `+`".into());
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
                        self.fact(2 * k + 1, glyph, self.column(rest) + offset);
                    }
                    rest = r;
                }
                Err(_) => {
                    let found = &rest[..3];
                    let e = self.error(rest, format!("expected `---` (line), ` x ` (cross) or three spaces between dots, found `{found}`"));
                    e.help = Some("dots stand every four columns from the leftmost `+`, with three columns between them".into());
                    break;
                }
            }
            k += 1;
        }
    }

    /// A cell row: vertical edges at the dots' columns, and clues between them.
    fn cell_row(&mut self, padded: &str) {
        let mut rest = padded;
        let mut k = 0i32;
        loop {
            match side_slot(rest) {
                Ok((r, glyph)) => {
                    if let Some(glyph) = glyph {
                        self.fact(2 * k, glyph, self.column(rest));
                    }
                    rest = r;
                }
                Err(_) => {
                    let found = &rest[..1];
                    self.error(rest, format!("expected `|` (line), `x` (cross) or a space at a dot's column, found `{found}`"));
                    break;
                }
            }
            if rest.is_empty() {
                break;
            }
            match clue_slot(rest) {
                Ok((r, (letter, glyph))) => {
                    if let Some((offset, letter)) = letter {
                        self.picture.colours.push(PictureColour {
                            at: Pos::new(self.y, 2 * k + 1),
                            letter,
                            span: Span::new(self.line, self.column(rest) + offset),
                        });
                    }
                    if let Some(glyph) = glyph {
                        self.fact(2 * k + 1, glyph, self.column(rest) + 1);
                    }
                    rest = r;
                }
                Err(_) => {
                    let found = rest[..3].chars().find(|&c| c != ' ').unwrap_or(' ');
                    let offset = rest[..3].find(found).unwrap_or(0);
                    let at = Span::new(self.line, self.column(rest) + offset);
                    self.errors.push(Diagnostic::new(
                        self.file,
                        at,
                        format!("expected a clue digit, a colour letter or a space in a cell, found `{found}`"),
                    ).with_help("a cell's clue stands two columns right of its left side; one colour letter stands there in a cell without a clue, or just left of the clue"));
                    break;
                }
            }
            k += 1;
        }
    }
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
    parse_file_with(file, text, true)
}

/// [`parse_file`], but with `examples` false the pictures of `example`, `gives` and `quiet`
/// are passed over unread (their keywords still must come in order): the rules alone, for a
/// file whose examples are known good (the built-in set, which the test suite runs) and a
/// caller that only solves with it. Half the built-in files' text is examples.
pub fn parse_file_with(file: &str, text: &str, examples: bool) -> (FileAst, Vec<Diagnostic>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text); // a UTF-8 byte order mark
    let mut parser = FileParser::new(file, text);
    parser.examples = examples;
    parser.run()
}

/// The state of reading a rule file line by line: what comes next, the rule being read, and
/// what was read so far.
struct FileParser<'a> {
    file: &'a str,
    lines: Vec<&'a str>,
    /// The next line to read (0-based).
    i: usize,
    ast: FileAst,
    errors: Vec<Diagnostic>,
    expect: Expect,
    /// The rule being read.
    current: Option<RuleAst>,
    /// The errors of the current rule's `when` picture start here; `then` may start at the line.
    when_mark: Option<WhenMark>,
    /// Whether example pictures are read (see [`parse_file_with`]).
    examples: bool,
}

impl<'a> FileParser<'a> {
    fn new(file: &'a str, text: &'a str) -> FileParser<'a> {
        FileParser {
            file,
            lines: text.lines().collect(),
            i: 0,
            ast: FileAst {
                name: file.to_string(),
                ..FileAst::default()
            },
            errors: Vec::new(),
            expect: Expect::Item,
            current: None,
            when_mark: None,
            examples: true,
        }
    }

    /// Line `i` without a carriage return at its end.
    fn line(&self, i: usize) -> &'a str {
        self.lines[i].strip_suffix('\r').unwrap_or(self.lines[i])
    }

    /// Reads every line, then closes the file.
    fn run(mut self) -> (FileAst, Vec<Diagnostic>) {
        while self.i < self.lines.len() {
            let line_no = self.i + 1;
            match classify(self.line(self.i)) {
                Line::Blank | Line::Comment => self.i += 1,
                Line::Indented(content) => {
                    self.indented(line_no, content);
                    self.i += 1;
                }
                Line::Keyword(content) => self.keyword(line_no, content),
            }
        }
        self.end();
        (self.ast, self.errors)
    }

    /// The rule being read is done: keep it.
    fn finish(&mut self) {
        if let Some(rule) = self.current.take() {
            self.ast.rules.push(rule);
        }
    }

    /// Drops the rule being read and skips to the next `rule` or `use`.
    fn skip(&mut self) {
        self.expect = Expect::Skip;
        self.current = None;
    }

    /// The name of the rule being read (empty outside a rule).
    fn rule_name(&self) -> &str {
        self.current.as_ref().map_or("", |r| r.name.as_str())
    }

    /// An indented line: a header line of the rule just begun, or out of place.
    fn indented(&mut self, line_no: usize, content: &str) {
        match self.expect {
            Expect::Header => self.header(line_no, content),
            Expect::Skip => {}
            _ => {
                self.errors.push(
                    Diagnostic::new(
                        self.file,
                        Span::new(line_no, indent(content) + 1),
                        "expected a keyword at column 0 (`rule`, `use`, `when`, `then`, `example`, `gives` or `quiet`), found an indented line",
                    ),
                );
                if self.expect == Expect::Examples {
                    self.finish();
                }
                if self.expect != Expect::Item {
                    self.skip();
                }
            }
        }
    }

    /// A header line: a description, `assumes single-loop` or `level N`.
    fn header(&mut self, line_no: usize, content: &str) {
        let at = Span::new(line_no, indent(content) + 1);
        match header_line(content) {
            Ok((_, Header::Description(d))) => {
                if let Some(rule) = self.current.as_mut() {
                    if rule.description.is_some() {
                        self.errors.push(Diagnostic::new(
                            self.file,
                            at,
                            "a rule has at most one description",
                        ));
                    }
                    rule.description = Some(d.to_string());
                }
            }
            Ok((_, Header::AssumesSingleLoop)) => {
                if let Some(rule) = self.current.as_mut() {
                    rule.assumes_single_loop = true;
                }
            }
            Ok((_, Header::Level(n))) => {
                if let Some(rule) = self.current.as_mut() {
                    rule.level = Some((n, at));
                }
            }
            Err(_) => {
                self.errors.push(
                    Diagnostic::new(
                        self.file,
                        at,
                        format!("expected a description in double quotes, `assumes single-loop` or `level N`, found `{}`", content.trim()),
                    )
                    .with_help(if content.trim_start().starts_with([glyphs::DOT, glyphs::V_LINE]) {
                        "a rule's pictures start after a `when` line at column 0"
                    } else {
                        "the header lines of a rule are `\"one-line description\"`, `assumes single-loop` and `level N`"
                    }),
                );
            }
        }
    }

    /// A line at column 0: a keyword, with the picture below it for a picture keyword.
    fn keyword(&mut self, line_no: usize, content: &'a str) {
        let kw = match keyword_line(content) {
            Ok((_, kw)) => kw,
            Err(_) => {
                self.bad_keyword(line_no, content);
                self.i += 1;
                return;
            }
        };
        let at = Span::new(line_no, 1);
        self.i += 1;
        match kw {
            Keyword::Rule(n) => {
                self.close_unfinished(at, "the next rule");
                self.finish();
                self.current = Some(RuleAst {
                    name: n.to_string(),
                    at: Span::new(line_no, 6),
                    description: None,
                    assumes_single_loop: false,
                    level: None,
                    when: PictureAst::default(),
                    then: PictureAst::default(),
                    examples: Vec::new(),
                });
                self.expect = Expect::Header;
            }
            Keyword::Use(n, instead_of_level) => {
                self.close_unfinished(at, "`use`");
                self.finish();
                self.ast.uses.push(UseAst {
                    name: n.to_string(),
                    at: Span::new(line_no, 5),
                    instead_of_level,
                });
                self.expect = Expect::Item;
            }
            Keyword::When | Keyword::Then | Keyword::Example | Keyword::Gives | Keyword::Quiet => {
                self.picture_keyword(kw, at, content)
            }
        }
    }

    /// A line at column 0 that is no keyword: a `rule` or `use` without a good name, or an
    /// unknown word.
    fn bad_keyword(&mut self, line_no: usize, content: &str) {
        let file = self.file;
        let word: String = content.chars().take_while(|&c| is_name_char(c)).collect();
        // `use NAME` followed by something other than `instead of level N`.
        let placed = preceded((tag("use"), space1), name)
            .parse(content)
            .ok()
            .filter(|(rest, _)| !rest.trim().is_empty());
        let diag = match word.as_str() {
            "use" if let Some((rest, n)) = placed => Diagnostic::new(
                file,
                Span::new(line_no, content.len() - rest.trim_start().len() + 1),
                format!(
                    "expected the end of the line or `instead of level N` after `use {n}`, found `{}`",
                    rest.trim()
                ),
            ),
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
        self.errors.push(diag);
        if self.expect == Expect::Examples {
            self.finish();
        }
        if self.expect != Expect::Item || word == "rule" {
            self.skip();
        }
    }

    /// At a `rule` or `use` line (`before` names it): reports the rule being read when it
    /// lacks a picture, and drops it.
    fn close_unfinished(&mut self, at: Span, before: &str) {
        if matches!(self.expect, Expect::Header | Expect::Then | Expect::Gives) {
            let fallback = Diagnostic::new(
                self.file,
                at,
                format!(
                    "rule `{}` is not finished: expected `{}` before {before}",
                    self.rule_name(),
                    expected_word(self.expect)
                ),
            );
            self.unfinished(fallback);
            self.current = None;
        }
    }

    /// `when`, `then`, `example`, `gives` or `quiet`: reads the picture below it into the rule,
    /// or reports the keyword out of place.
    fn picture_keyword(&mut self, kw: Keyword<'a>, at: Span, content: &str) {
        let wanted = match (self.expect, &kw) {
            (Expect::Header, Keyword::When)
            | (Expect::Then, Keyword::Then)
            | (Expect::Examples, Keyword::Example)
            | (Expect::Examples, Keyword::Quiet)
            | (Expect::Gives, Keyword::Gives) => true,
            (Expect::Skip, _) => return,
            _ => false,
        };
        if !wanted {
            let found = content.trim_end();
            let msg = match self.expect {
                Expect::Item => {
                    format!("`{found}` outside a rule: expected `rule NAME` or `use NAME`")
                }
                _ => format!("expected `{}`, found `{found}`", expected_word(self.expect)),
            };
            let fallback = Diagnostic::new(self.file, at, msg);
            self.unfinished(fallback);
            if self.expect == Expect::Examples {
                self.finish();
            }
            self.skip();
            return;
        }
        if !self.examples && matches!(kw, Keyword::Example | Keyword::Gives | Keyword::Quiet) {
            // Passed over: up to the next keyword line, as `picture_rows` would gather.
            while self.i < self.lines.len()
                && !matches!(classify(self.line(self.i)), Line::Keyword(_))
            {
                self.i += 1;
            }
            if self.current.is_none() {
                return;
            }
            self.expect = match kw {
                Keyword::Example => Expect::Gives,
                _ => Expect::Examples,
            };
            return;
        }
        let (rows, after_gap) = self.picture_rows();
        let errors_before = self.errors.len();
        let picture = parse_picture(self.file, at, &rows, &mut self.errors);
        if kw == Keyword::When {
            self.when_mark = Some(WhenMark {
                errors: errors_before,
                then_at: after_gap.or_else(|| self.errors.get(errors_before).map(|d| d.at.line)),
            });
        }
        self.attach(kw, at, picture);
    }

    /// Gathers a picture: blank, comment and indented lines up to the next keyword. Returns
    /// its rows (with their line numbers), and the first row after a blank line inside it.
    fn picture_rows(&mut self) -> (Vec<(usize, &'a str)>, Option<usize>) {
        let mut rows = Vec::new();
        let mut after_gap = None;
        let (mut drawn, mut gap) = (false, false);
        while self.i < self.lines.len() {
            let t = self.line(self.i);
            match classify(t) {
                Line::Keyword(_) => break,
                Line::Comment => {}
                Line::Blank => {
                    gap = drawn;
                    rows.push((self.i + 1, t));
                }
                Line::Indented(_) => {
                    if gap && after_gap.is_none() {
                        after_gap = Some(self.i + 1);
                    }
                    drawn = true;
                    rows.push((self.i + 1, t));
                }
            }
            self.i += 1;
        }
        (rows, after_gap)
    }

    /// Puts a picture read below `kw` into the rule being read.
    fn attach(&mut self, kw: Keyword<'a>, at: Span, picture: PictureAst) {
        let Some(rule) = self.current.as_mut() else {
            return;
        };
        match kw {
            Keyword::When => {
                rule.when = picture;
                self.expect = Expect::Then;
            }
            Keyword::Then => {
                rule.then = picture;
                self.expect = Expect::Examples;
            }
            Keyword::Example => {
                rule.examples.push(ExampleAst {
                    at,
                    board: picture,
                    gives: None,
                });
                self.expect = Expect::Gives;
            }
            Keyword::Quiet => {
                rule.examples.push(ExampleAst {
                    at,
                    board: picture,
                    gives: None,
                });
                self.expect = Expect::Examples;
            }
            Keyword::Gives => {
                if let Some(example) = rule.examples.last_mut() {
                    example.gives = Some(picture);
                }
                self.expect = Expect::Examples;
            }
            _ => unreachable!("only picture keywords reach here"),
        }
    }

    /// The end of the file: reports a rule left unfinished, or keeps the last rule.
    fn end(&mut self) {
        match self.expect {
            Expect::Header | Expect::Then | Expect::Gives => {
                let fallback = Diagnostic::new(
                    self.file,
                    Span::new(self.lines.len().max(1), 1),
                    format!(
                        "the file ends inside rule `{}`: expected `{}`",
                        self.rule_name(),
                        expected_word(self.expect)
                    ),
                );
                self.unfinished(fallback);
            }
            _ => self.finish(),
        }
    }

    /// Reports a rule that is not finished. When it lacks its `then`, the errors of its `when`
    /// picture are taken back (they come from reading the conclusion's picture as part of the
    /// premise's) and only the missing `then` is reported, where the conclusion seems to start.
    fn unfinished(&mut self, fallback: Diagnostic) {
        let (Expect::Then, Some(mark)) = (self.expect, self.when_mark) else {
            self.errors.push(fallback);
            return;
        };
        self.errors.truncate(mark.errors);
        let name = self.rule_name().to_string();
        let diagnostic = match mark.then_at {
            Some(line) => Diagnostic::new(
                self.file,
                Span::new(line, 1),
                format!(
                    "rule `{name}` has no `then`: its `when` picture runs on into what looks \
                     like the conclusion's picture here"
                ),
            )
            .with_help("write `then` at column 0 on the line before the conclusion's picture"),
            None => {
                fallback.with_help("write `then` at column 0, followed by the conclusion's picture")
            }
        };
        self.errors.push(diagnostic);
    }
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
    fn examples_left_unread_leave_the_rules_as_they_are() {
        let examples = "example\n  +   +   +\n    3   3\n  +   +   +\ngives\n  +   +   +\n  | 3 | 3 |\n  +   +   +\nquiet\n  +   +\n    3\n  +   +\n";
        let text = format!(
            "{ADJACENT}{examples}rule next\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n"
        );
        let (full, errors) = parse_file("t.rules", &text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(full.rules[0].examples.len(), 2);
        let (bare, errors) = parse_file_with("t.rules", &text, false);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(bare.rules.len(), 2);
        for (b, f) in bare.rules.iter().zip(&full.rules) {
            assert!(b.examples.is_empty());
            assert_eq!((&b.name, &b.when, &b.then), (&f.name, &f.when, &f.then));
        }
        // The keywords must still come in order: a `gives` with no `example` is an error.
        let (_, errors) = parse_file_with("t.rules", &format!("{ADJACENT}gives\n  +   +\n"), false);
        assert_eq!(errors.len(), 1, "{errors:?}");
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
