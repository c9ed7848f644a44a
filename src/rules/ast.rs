//! The raw form of a rule file as the grammar reads it: names, pictures and positions, not yet checked for meaning.

use crate::geometry::Pos;
use std::fmt;

/// A 1-based line and column in a rule file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
}

impl Span {
    /// The position at `line`, `column` (both 1-based).
    pub fn new(line: usize, column: usize) -> Self {
        Span { line, column }
    }
}

/// A problem found in a rule file, with its place and, where one helps, a suggested fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file's name as given to the loader.
    pub file: String,
    /// Where in the file.
    pub at: Span,
    /// A short sentence saying what is wrong.
    pub message: String,
    /// How to fix it, when there is something useful to say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic without help text.
    pub fn new(file: &str, at: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            at,
            message: message.into(),
            help: None,
        }
    }

    /// Adds a suggested fix.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.at.line, self.at.column, self.message
        )?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

/// What a picture says about one point of the lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Glyph {
    /// `---` or `|`: the edge is on the loop.
    Line,
    /// `x`: the edge is off the loop (in a premise: or outside the grid).
    Cross,
    /// A digit: the cell holds this clue (checked to be 0-3 later).
    Clue(u8),
}

/// One fact of a picture with the place it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PictureFact {
    /// Lattice position relative to the picture's origin (first row, leftmost dot).
    pub at: Pos,
    /// What is drawn there.
    pub glyph: Glyph,
    /// Where it was drawn in the file.
    pub span: Span,
}

/// A colour letter in a cell of a picture, with the place it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PictureColour {
    /// Lattice position of the cell relative to the picture's origin.
    pub at: Pos,
    /// The letter as written (`a`-`z` or `A`-`Z`, not `x` or `X`).
    pub letter: char,
    /// Where it was drawn in the file.
    pub span: Span,
}

/// A picture as drawn: its dots and its facts, positions relative to the first row and leftmost dot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PictureAst {
    /// Where the picture's keyword stands.
    pub at: Span,
    /// Number of picture rows (dot rows and cell rows alternate, starting with a dot row).
    pub rows: usize,
    /// The drawn dots.
    pub dots: Vec<Pos>,
    /// The drawn lines, crosses and clues.
    pub facts: Vec<PictureFact>,
    /// The colour letters drawn in cells.
    pub colours: Vec<PictureColour>,
    /// The picture had a syntax error (already reported); its meaning is not checked.
    pub broken: bool,
}

/// A board on which a rule must fire (`gives` holds the expected result) or must stay quiet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleAst {
    /// Where the `example` or `quiet` keyword stands.
    pub at: Span,
    /// The board before the rule runs.
    pub board: PictureAst,
    /// The board after the rule ran; `None` for a `quiet` example.
    pub gives: Option<PictureAst>,
}

/// A rule as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleAst {
    /// The rule's name.
    pub name: String,
    /// Where the `rule` keyword stands.
    pub at: Span,
    /// The optional one-line description.
    pub description: Option<String>,
    /// `assumes single-loop`: the rule is sound only because the answer is one loop.
    pub assumes_single_loop: bool,
    /// `level N`: the rule's cost level, with where it was written.
    pub level: Option<(u32, Span)>,
    /// What must already hold.
    pub when: PictureAst,
    /// What holds afterwards.
    pub then: PictureAst,
    /// Boards the rule is tested on.
    pub examples: Vec<ExampleAst>,
}

/// A `use NAME` line switching on a global deducer (`use probing instead of level N`: in a
/// plain solve, probing stands in for the rules of level N and up; only probing may).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UseAst {
    /// The deducer's name.
    pub name: String,
    /// Where the name stands.
    pub at: Span,
    /// The `N` of `instead of level N`, when given.
    pub instead_of_level: Option<u32>,
}

/// A whole rule file as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileAst {
    /// The file's name.
    pub name: String,
    /// Its rules, in order.
    pub rules: Vec<RuleAst>,
    /// Its `use` lines, in order.
    pub uses: Vec<UseAst>,
}
