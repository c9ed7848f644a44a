//! Drawing facts back as a picture in the rule language's glyphs, for counterexamples and example reports.

use super::{Colour, Fact, Glyph, glyphs};
use crate::geometry::{Pos, bounds};

/// Draws dots and facts as picture rows (the inverse of the grammar), each row indented by `indent` spaces.
///
/// The picture spans every dot and fact given; rows and columns are placed so that the
/// smallest dot row and column come first. Trailing spaces are trimmed.
pub fn draw(dots: &[Pos], facts: &[Fact], indent: usize) -> String {
    draw_framed(dots, facts, &[], indent)
}

/// Draws like [`draw`], in a frame that also spans the places of `frame` (so that two
/// pictures of one rule, such as its `when` and `then`, line up).
pub fn draw_framed(dots: &[Pos], facts: &[Fact], frame: &[Pos], indent: usize) -> String {
    draw_coloured(dots, facts, &[], frame, indent)
}

/// Like [`draw_framed`], with colour letters in their cells (in the middle of a cell
/// without a clue, else just left of the clue).
pub fn draw_coloured(
    dots: &[Pos],
    facts: &[Fact],
    colours: &[Colour],
    frame: &[Pos],
    indent: usize,
) -> String {
    let points = dots
        .iter()
        .copied()
        .chain(facts.iter().map(|f| f.at))
        .chain(colours.iter().map(|c| c.at))
        .chain(frame.iter().copied());
    let Some((lo, hi)) = bounds(points) else {
        return String::new();
    };
    let (y0, y1, x0, x1) = (lo.y, hi.y, lo.x, hi.x);
    // Start on a dot row and a dot column.
    let (y0, x0) = (y0 & !1, x0 & !1);
    let height = (y1 - y0 + 1) as usize;
    let width = (2 * (x1 - x0) + 1) as usize;
    let mut rows = vec![vec![glyphs::BLANK; width + 3]; height];
    let col = |x: i32| (2 * (x - x0)) as usize;
    for d in dots {
        rows[(d.y - y0) as usize][col(d.x)] = glyphs::DOT;
    }
    for f in facts {
        let row = &mut rows[(f.at.y - y0) as usize];
        let c = col(f.at.x);
        match (f.glyph, f.at.y & 1 == 0) {
            (Glyph::Clue(n), _) => row[c] = glyphs::digit(n),
            (glyph, true) => {
                for (i, ch) in glyphs::horizontal(Some(glyph)).chars().enumerate() {
                    row[c - 1 + i] = ch;
                }
            }
            (glyph, false) => row[c] = glyphs::vertical(Some(glyph)),
        }
    }
    for c in colours {
        // In the middle of a cell without a clue, else just left of the clue.
        let row = &mut rows[(c.at.y - y0) as usize];
        let c0 = col(c.at.x);
        let at = if row[c0] == glyphs::BLANK { c0 } else { c0 - 1 };
        row[at] = glyphs::colour(Some(c.glyph()));
    }
    let mut out = String::new();
    for row in rows {
        let text: String = row.into_iter().collect();
        let text = text.trim_end();
        if !text.is_empty() {
            out.push_str(&" ".repeat(indent));
            out.push_str(text);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    #[test]
    fn drawing_a_parsed_rule_gives_its_picture_back() {
        let then = "  +---+\n  | 3\n  +   +   +\n        3 |\n      +---+\n";
        let text = format!(
            "rule d\nwhen\n  +   +\n    3\n  +   +   +\n        3\n      +   +\nthen\n{then}"
        );
        let set = RuleSet::from_sources(&[("t.rules", text.as_str())]).unwrap();
        let rule = &set.rules[0];
        let mut facts = rule.premise.clone();
        facts.extend(rule.conclusion.iter().copied());
        assert_eq!(draw(&rule.dots, &facts, 2), then);
    }
}
