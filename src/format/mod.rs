//! Output formats beyond the spec's ASCII frame, all built on [`crate::view::View`]: a board drawing in rule-picture glyphs, Unicode box drawing, SVG, JSON, and puzz.link URLs.

pub mod json;
pub mod picture;
pub mod svg;
pub mod unicode;
pub mod url;
