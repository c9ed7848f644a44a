//! Answers as SVG pictures: dots, clues, the loop as one path per chain of lines, and crosses on request.
//!
//! Edges that differ between a puzzle's answers are one more path, `class="undetermined"`,
//! dashed in orange over the answer drawn.
//!
//! Each chain of lines (the whole loop, once solved) is one `<path class="loop">` whose
//! points are dot centres in walking order (closed with `Z` when the chain is a loop), so a
//! reader of the file can rebuild the lines from it.

use crate::format::view::{Edge, View};
use std::fmt::Write as _;

/// Pixels between neighbouring dots.
pub const CELL: usize = 32;
/// Pixels around the grid.
const MARGIN: usize = CELL / 2;

/// What to draw besides dots, clues and lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// Draw crosses as small `×` marks.
    pub crosses: bool,
}

/// Pixel position of dot `(r, c)`.
pub fn dot_xy(r: usize, c: usize) -> (usize, usize) {
    (MARGIN + c * CELL, MARGIN + r * CELL)
}

/// The SVG document of a board.
pub fn render(view: &impl View, options: SvgOptions) -> String {
    render_labelled(view, options, None)
}

/// The SVG document of a board, labelled with its puzzle number and source when given: a
/// `<title>` (`puzzle 3 (file.in)`) and the attributes `data-puzzle` and `data-source` of
/// the root element.
pub fn render_labelled(
    view: &impl View,
    options: SvgOptions,
    label: Option<(usize, &str)>,
) -> String {
    let (rows, cols) = (view.rows(), view.cols());
    let (width, height) = (2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL);
    let mut s = String::new();
    let data = label.map_or_else(String::new, |(number, source)| {
        format!(
            r#" data-puzzle="{number}" data-source="{}""#,
            escape(source)
        )
    });
    writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"{data}>"#
    )
    .unwrap();
    if let Some((number, source)) = label {
        writeln!(s, "<title>puzzle {number} ({})</title>", escape(source)).unwrap();
    }
    writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    )
    .unwrap();
    // Clues.
    writeln!(
        s,
        r##"<g class="clues" font-family="sans-serif" font-size="{}" text-anchor="middle" dominant-baseline="central" fill="#222222">"##,
        CELL * 5 / 8
    )
    .unwrap();
    for r in 0..rows {
        for c in 0..cols {
            if let Some(n) = view.clue(r, c) {
                let (x, y) = dot_xy(r, c);
                writeln!(
                    s,
                    r#"<text x="{}" y="{}">{n}</text>"#,
                    x + CELL / 2,
                    y + CELL / 2
                )
                .unwrap();
            }
        }
    }
    s.push_str("</g>\n");
    // Crosses.
    if options.crosses {
        let mut d = String::new();
        let k = CELL / 8;
        let mut cross = |x: usize, y: usize| {
            write!(
                d,
                "M{} {}L{} {}M{} {}L{} {}",
                x - k,
                y - k,
                x + k,
                y + k,
                x - k,
                y + k,
                x + k,
                y - k
            )
            .unwrap();
        };
        for r in 0..=rows {
            for c in 0..cols {
                if view.h(r, c) == Edge::Cross {
                    let (x, y) = dot_xy(r, c);
                    cross(x + CELL / 2, y);
                }
            }
        }
        for r in 0..rows {
            for c in 0..=cols {
                if view.v(r, c) == Edge::Cross {
                    let (x, y) = dot_xy(r, c);
                    cross(x, y + CELL / 2);
                }
            }
        }
        if !d.is_empty() {
            writeln!(
                s,
                r##"<path class="crosses" d="{d}" stroke="#c62828" stroke-width="2" fill="none"/>"##
            )
            .unwrap();
        }
    }
    // The loop: one path per chain of lines.
    for (chain, closed) in chains(view) {
        let mut d = String::new();
        for (k, &(r, c)) in chain.iter().enumerate() {
            let (x, y) = dot_xy(r, c);
            write!(d, "{}{x} {y}", if k == 0 { "M" } else { "L" }).unwrap();
        }
        if closed {
            d.push('Z');
        }
        writeln!(
            s,
            r##"<path class="loop" d="{d}" stroke="#1565c0" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round" fill="none"/>"##,
            CELL / 8
        )
        .unwrap();
    }
    // Edges that differ between the answers: dashed, in a colour of their own.
    let mut d = String::new();
    for r in 0..=rows {
        for c in 0..cols {
            if view.undetermined_h(r, c) {
                let ((x0, y0), (x1, y1)) = (dot_xy(r, c), dot_xy(r, c + 1));
                write!(d, "M{x0} {y0}L{x1} {y1}").unwrap();
            }
        }
    }
    for r in 0..rows {
        for c in 0..=cols {
            if view.undetermined_v(r, c) {
                let ((x0, y0), (x1, y1)) = (dot_xy(r, c), dot_xy(r + 1, c));
                write!(d, "M{x0} {y0}L{x1} {y1}").unwrap();
            }
        }
    }
    if !d.is_empty() {
        writeln!(
            s,
            r##"<path class="undetermined" d="{d}" stroke="#ef6c00" stroke-width="{}" stroke-dasharray="4 3" fill="none"/>"##,
            CELL / 10
        )
        .unwrap();
    }
    // Dots on top.
    writeln!(s, r##"<g class="dots" fill="#222222">"##).unwrap();
    for r in 0..=rows {
        for c in 0..=cols {
            let (x, y) = dot_xy(r, c);
            writeln!(s, r#"<circle cx="{x}" cy="{y}" r="2.5"/>"#).unwrap();
        }
    }
    s.push_str("</g>\n</svg>\n");
    s
}

/// Text escaped for XML content and attribute values; characters XML cannot hold become `?`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The chains of lines, each as the dots it passes in order, and whether it is closed.
pub fn chains(view: &impl View) -> Vec<(Vec<(usize, usize)>, bool)> {
    let (rows, cols) = (view.rows(), view.cols());
    let neighbours = |r: usize, c: usize| -> Vec<(usize, usize)> {
        let mut n = Vec::with_capacity(2);
        if r > 0 && view.v(r - 1, c) == Edge::Line {
            n.push((r - 1, c));
        }
        if c < cols && view.h(r, c) == Edge::Line {
            n.push((r, c + 1));
        }
        if r < rows && view.v(r, c) == Edge::Line {
            n.push((r + 1, c));
        }
        if c > 0 && view.h(r, c - 1) == Edge::Line {
            n.push((r, c - 1));
        }
        n
    };
    let mut seen = vec![false; (rows + 1) * (cols + 1)];
    let id = |(r, c): (usize, usize)| r * (cols + 1) + c;
    let mut out = Vec::new();
    // Open chains from their ends first (dots with one line), then closed ones.
    for pass in 0..2 {
        for r in 0..=rows {
            for c in 0..=cols {
                let degree = neighbours(r, c).len();
                let start = if pass == 0 { degree == 1 } else { degree >= 2 };
                if !start || seen[id((r, c))] {
                    continue;
                }
                let mut chain = vec![(r, c)];
                seen[id((r, c))] = true;
                let (mut prev, mut at) = ((usize::MAX, usize::MAX), (r, c));
                let mut closed = false;
                loop {
                    let next = neighbours(at.0, at.1).into_iter().find(|&n| n != prev);
                    let Some(next) = next else { break };
                    if next == (r, c) {
                        closed = true;
                        break;
                    }
                    if seen[id(next)] {
                        break;
                    }
                    seen[id(next)] = true;
                    chain.push(next);
                    prev = at;
                    at = next;
                }
                out.push((chain, closed));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::view::Picture;

    #[test]
    fn a_square_loop_is_one_closed_path() {
        let puzzle = crate::puzzle::parse_all("t", b"1 1\n3\n0 0\n")
            .unwrap()
            .remove(0);
        let mut p = Picture::blank(&puzzle);
        for (y, x) in [(0, 1), (2, 1), (1, 0), (1, 2)] {
            p.set(y, x, Edge::Line);
        }
        let svg = render(&p, SvgOptions::default());
        assert_eq!(svg.matches(r#"class="loop""#).count(), 1);
        assert!(svg.contains("Z\""), "{svg}");
        assert!(svg.contains(">3</text>"));
    }
}
