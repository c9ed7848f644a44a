//! Output formats, all read off one [`view::View`] of a board: the spec's ASCII frame (the default), a board drawing in rule-picture glyphs, Unicode box drawing, SVG, JSON, and puzz.link URLs.

pub mod ascii;
pub mod board;
pub mod json;
pub mod picture;
pub mod svg;
pub mod unicode;
pub mod url;
pub mod view;
pub mod words;
