//! The glyphs of rule pictures, in one table: the grammar reads them, the drawer and the
//! writer draw rules with them, and the picture format draws boards with them.
//!
//! A picture alternates dot rows and cell rows, starting with a dot row. A dot row holds a
//! [`DOT`] every four columns and, between two dots, the three columns of a horizontal edge
//! ([`H_LINE`], [`H_CROSS`] or [`H_BLANK`]). A cell row holds a vertical edge at each dot's
//! column ([`V_LINE`], [`V_CROSS`] or [`BLANK`]) and, between them, a cell: a colour letter
//! or a space, the clue's digit (or a colour letter in a cell without a clue) or a space, and
//! a space.

use super::Glyph;

/// A dot of the lattice (a corner of cells).
pub const DOT: char = '+';
/// Nothing drawn at one column: no dot, no edge, no clue.
pub const BLANK: char = ' ';
/// A horizontal edge on the loop: the three columns between two dots.
pub const H_LINE: &str = "---";
/// A horizontal edge off the loop.
pub const H_CROSS: &str = " x ";
/// A horizontal edge not known either way.
pub const H_BLANK: &str = "   ";
/// A vertical edge on the loop: the column of a dot in a cell row.
pub const V_LINE: char = '|';
/// A vertical edge off the loop.
pub const V_CROSS: char = 'x';

/// The three columns of a horizontal edge holding `glyph` (a line, a cross, or nothing).
pub fn horizontal(glyph: Option<Glyph>) -> &'static str {
    match glyph {
        Some(Glyph::Line) => H_LINE,
        Some(Glyph::Cross) => H_CROSS,
        Some(Glyph::Clue(_)) | None => H_BLANK,
    }
}

/// The column of a vertical edge holding `glyph` (a line, a cross, or nothing).
pub fn vertical(glyph: Option<Glyph>) -> char {
    match glyph {
        Some(Glyph::Line) => V_LINE,
        Some(Glyph::Cross) => V_CROSS,
        Some(Glyph::Clue(_)) | None => BLANK,
    }
}

/// The digit of a clue (`0` to `9`).
pub fn digit(n: u8) -> char {
    debug_assert!(n < 10, "a clue is one digit");
    char::from(b'0' + n)
}

/// The clue a digit stands for, if it is one.
pub fn clue(c: char) -> Option<u8> {
    c.to_digit(10).map(|d| d as u8)
}

/// Whether a character is a colour letter: `a`-`z` or `A`-`Z`, but not `x` or `X` (a cross).
/// The same letter in the same case marks cells on the same side of the loop; the same
/// letter in the other case, cells on opposite sides.
pub fn is_colour(c: char) -> bool {
    c.is_ascii_alphabetic() && c.to_ascii_lowercase() != V_CROSS
}

/// The column of a cell holding a colour letter (or nothing).
pub fn colour(letter: Option<char>) -> char {
    letter.unwrap_or(BLANK)
}

/// The middle column of a cell holding `clue` (its digit, or nothing).
pub fn cell(clue: Option<u8>) -> char {
    clue.map_or(BLANK, digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_read_back() {
        for n in 0..10 {
            assert_eq!(clue(digit(n)), Some(n));
        }
        assert_eq!(clue(V_CROSS), None);
        assert_eq!(clue(BLANK), None);
    }

    #[test]
    fn colour_letters_are_letters_but_not_crosses() {
        assert!(is_colour('a') && is_colour('A') && is_colour('z'));
        assert!(!is_colour(V_CROSS) && !is_colour('X') && !is_colour('3') && !is_colour(BLANK));
    }

    #[test]
    fn edges_are_a_gap_wide() {
        for text in [H_LINE, H_CROSS, H_BLANK] {
            assert_eq!(text.len(), 3);
        }
    }
}
