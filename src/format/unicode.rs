//! Answers in Unicode box drawing: the loop as joined lines, crosses as `×`, optionally coloured for a terminal.
//!
//! Edges that differ between a puzzle's answers are drawn apart: a line of the answer shown
//! dashed (`┄`, `┆`), an edge off in it as `?` (yellow in colour).

use crate::format::view::{Edge, View};

const LINE_COLOUR: &str = "\x1b[1;36m";
const CROSS_COLOUR: &str = "\x1b[2;31m";
/// Edges that differ between a puzzle's answers.
const UNDETERMINED_COLOUR: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

/// The glyph of a dot by the lines around it: bit 0 up, 1 right, 2 down, 3 left.
const DOTS: [char; 16] = [
    '·', '╵', '╶', '└', '╷', '│', '┌', '├', '╴', '┘', '─', '┴', '┐', '┤', '┬', '┼',
];

/// Appends puzzle `number`'s board: a line holding the number, then the drawing.
pub fn render(out: &mut String, number: usize, view: &impl View, colour: bool) {
    let paint = |out: &mut String, text: &str, colour_code: &str| {
        if colour {
            out.push_str(colour_code);
            out.push_str(text);
            out.push_str(RESET);
        } else {
            out.push_str(text);
        }
    };
    out.push_str(&number.to_string());
    out.push('\n');
    let (rows, cols) = (view.rows(), view.cols());
    let line = |e: Edge| e == Edge::Line;
    for r in 0..=rows {
        for c in 0..=cols {
            let bits = usize::from(r > 0 && line(view.v(r - 1, c)))
                | usize::from(c < cols && line(view.h(r, c))) << 1
                | usize::from(r < rows && line(view.v(r, c))) << 2
                | usize::from(c > 0 && line(view.h(r, c - 1))) << 3;
            let dot = DOTS[bits].to_string();
            if bits == 0 {
                out.push_str(&dot);
            } else {
                paint(out, &dot, LINE_COLOUR);
            }
            if c < cols && view.undetermined_h(r, c) {
                match view.h(r, c) {
                    Edge::Line => paint(out, "┄┄┄", UNDETERMINED_COLOUR),
                    _ => paint(out, " ? ", UNDETERMINED_COLOUR),
                }
            } else if c < cols {
                match view.h(r, c) {
                    Edge::Line => paint(out, "───", LINE_COLOUR),
                    Edge::Cross => paint(out, " × ", CROSS_COLOUR),
                    Edge::Unknown => out.push_str("   "),
                }
            }
        }
        trim_end(out);
        out.push('\n');
        if r == rows {
            break;
        }
        for c in 0..=cols {
            match view.v(r, c) {
                Edge::Line if view.undetermined_v(r, c) => paint(out, "┆", UNDETERMINED_COLOUR),
                _ if view.undetermined_v(r, c) => paint(out, "?", UNDETERMINED_COLOUR),
                Edge::Line => paint(out, "│", LINE_COLOUR),
                Edge::Cross => paint(out, "×", CROSS_COLOUR),
                Edge::Unknown => out.push(' '),
            }
            if c < cols {
                out.push(' ');
                out.push(view.clue(r, c).map_or(' ', |n| char::from(b'0' + n)));
                out.push(' ');
            }
        }
        trim_end(out);
        out.push('\n');
    }
}

fn trim_end(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::view::Picture;

    #[test]
    fn a_solved_square_and_its_colours() {
        let puzzle = crate::puzzle::parse_all("t", b"1 1\n.\n0 0\n")
            .unwrap()
            .remove(0);
        let mut p = Picture::blank(&puzzle);
        for (y, x) in [(0, 1), (2, 1), (1, 0), (1, 2)] {
            p.set(y, x, Edge::Line);
        }
        let mut plain = String::new();
        render(&mut plain, 1, &p, false);
        assert_eq!(plain, "1\n┌───┐\n│   │\n└───┘\n");
        let mut coloured = String::new();
        render(&mut coloured, 1, &p, true);
        assert!(coloured.contains(LINE_COLOUR) && coloured.contains(RESET));
        let stripped = coloured.replace(LINE_COLOUR, "").replace(RESET, "");
        assert_eq!(stripped, plain);
    }
}
