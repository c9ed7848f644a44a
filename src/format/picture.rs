//! A board drawn in the glyphs of rule pictures: `+` dots, `---` and `|` lines, ` x ` and `x` crosses, blanks for unknown edges, digits for clues.
//!
//! Unlike the answer frame, this shows every state, so a board mid-solve or stuck can be
//! drawn; it is also how rule files draw boards, so a drawing can be pasted into an
//! `example`.

use crate::format::view::{Edge, View};
use crate::rules::{Glyph, glyphs};

/// An edge's state as the glyph a picture draws for it.
fn glyph(edge: Edge) -> Option<Glyph> {
    match edge {
        Edge::Line => Some(Glyph::Line),
        Edge::Cross => Some(Glyph::Cross),
        Edge::Unknown => None,
    }
}

/// Draws a board, one line per lattice row, each indented by `indent` spaces, without
/// trailing spaces.
pub fn draw(view: &impl View, indent: usize) -> String {
    let mut out = String::new();
    let pad = " ".repeat(indent);
    for y in 0..=2 * view.rows() {
        let mut line = pad.clone();
        if y.is_multiple_of(2) {
            let r = y / 2;
            for c in 0..view.cols() {
                line.push(glyphs::DOT);
                line.push_str(glyphs::horizontal(glyph(view.h(r, c))));
            }
            line.push(glyphs::DOT);
        } else {
            let r = y / 2;
            for c in 0..=view.cols() {
                line.push(glyphs::vertical(glyph(view.v(r, c))));
                if c < view.cols() {
                    line.push(glyphs::BLANK);
                    line.push(glyphs::cell(view.clue(r, c)));
                    line.push(glyphs::BLANK);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::view::Picture;

    #[test]
    fn every_state_is_drawn() {
        let puzzle = crate::puzzle::parse_all("t", b"1 2\n1 .\n0 0\n")
            .unwrap()
            .remove(0);
        let mut p = Picture::blank(&puzzle);
        p.set(0, 1, Edge::Line);
        p.set(0, 3, Edge::Cross);
        p.set(1, 0, Edge::Cross);
        p.set(1, 4, Edge::Line);
        assert_eq!(draw(&p, 2), "  +---+ x +\n  x 1     |\n  +   +   +\n");
    }
}
