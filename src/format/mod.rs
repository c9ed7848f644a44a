//! Output formats beyond the spec's ASCII frame, all built on [`crate::view::View`]: a board drawing in rule-picture glyphs, Unicode box drawing, SVG, JSON, and puzz.link URLs.

pub mod json;
pub mod picture;
pub mod svg;
pub mod unicode;
pub mod url;

/// How answers are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The spec's framed ASCII picture (the default).
    #[default]
    Ascii,
    /// Box-drawing lines and `×` crosses, coloured on a terminal.
    Unicode,
    /// An SVG picture per puzzle.
    Svg,
    /// One JSON object per line per puzzle: clues, every edge's state, outcome, statistics.
    Json,
    /// A puzz.link URL per puzzle (the puzzle only, not its answer).
    Url,
}
