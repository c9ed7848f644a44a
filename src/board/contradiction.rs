//! Why a board cannot be completed: a small `Copy` value (what went wrong and where) whose words are built only for display.
//!
//! Contradictions are the common path of search and probing, so building one costs a few
//! stores; [`Contradiction`]'s `Display` turns it into a sentence when a person reads it.

use std::fmt;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// An edge already decided was asked to take the other state.
    Conflict {
        /// The state it has ([`super::LINE`], [`super::CROSS`] or [`super::OFF`]).
        was: u8,
        /// The state asked for.
        asked: u8,
    },
    /// A line would leave the grid at a dot of its border (a line asked on an edge outside
    /// the grid; the place is the grid's dot nearest to that edge).
    LeavesGrid,
    /// A dot would have three or four lines.
    ThreeLines,
    /// A dot would have one line and no way on.
    DeadEnd,
    /// A clue cell would have more lines than its clue.
    ClueExceeded(u8),
    /// A clue cell could no longer reach its clue.
    ClueUnreachable(u8),
    /// A line would close a loop that is not the whole answer.
    EarlyLoop,
    /// Inside/outside colouring: the cells on either side of an edge would have to be both
    /// on the same side and on different sides of the loop.
    ColourClash,
    /// A line that no single loop can take in: it is on no cycle of the edges not crossed, or
    /// it cannot be joined to the other lines.
    Unjoinable,
    /// Regions: the cells on one side of the loop (inside when true) would fall into two
    /// parts that no path of cells side to side joins (this cell in the part apart).
    SplitSide(bool),
    /// Region parity: the clues of a set of cells (this one among them) and the decided edges
    /// would have the loop cross the set's boundary an odd number of times.
    OddCrossings,
    /// Every edge is decided but a dot has a number of lines other than 0 or 2.
    DotDegree(u8),
    /// Every edge is decided but a clue cell has this many lines.
    ClueCount {
        /// Lines around the cell.
        lines: u8,
        /// Its clue.
        clue: u8,
    },
    /// Every edge is decided but there is no line at all.
    NoLoop,
    /// Every edge is decided but the lines form more than one loop.
    SeveralLoops,
    /// Search tried every way of completing the board and none is a solution.
    Exhausted,
}

/// Why a board cannot be completed, and where: a point of the doubled lattice, in grid
/// coordinates (the top-left dot is (0, 0); points outside the grid have negative or large
/// coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// What went wrong.
    pub why: Why,
    /// Row of the place on the doubled lattice.
    pub y: i32,
    /// Column of the place on the doubled lattice.
    pub x: i32,
}

impl Contradiction {
    /// A contradiction of kind `why` at doubled-lattice point (`y`, `x`).
    #[inline]
    pub const fn new(why: Why, y: i32, x: i32) -> Contradiction {
        Contradiction { why, y, x }
    }

    /// The sentence a person reads (the same as `Display`).
    pub fn message(&self) -> String {
        self.to_string()
    }
}

/// Names a point of the doubled lattice in grid terms: a dot, an edge (by the dot it leaves
/// rightwards or downwards) or a cell. Coordinates round towards minus infinity, so the edge
/// just left of the grid's first column leaves dot (r, -1).
pub fn describe_point(y: i32, x: i32) -> String {
    let half = |v: i32| v.div_euclid(2);
    match (y.rem_euclid(2), x.rem_euclid(2)) {
        (0, 1) => format!(
            "the horizontal edge right of dot ({}, {})",
            half(y),
            half(x - 1)
        ),
        (1, 0) => format!("the vertical edge below dot ({}, {})", half(y - 1), half(x)),
        (1, 1) => format!("cell ({}, {})", half(y - 1), half(x - 1)),
        _ => format!("dot ({}, {})", half(y), half(x)),
    }
}

fn state_words(state: u8) -> &'static str {
    match state {
        super::LINE => "a line",
        super::CROSS => "a cross",
        super::OFF => "outside the grid",
        _ => "unknown",
    }
}

fn lines(n: u8) -> &'static str {
    if n == 1 { "line" } else { "lines" }
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = describe_point(self.y, self.x);
        match self.why {
            Why::Conflict { was, asked } => write!(
                f,
                "{place} is {} but {} is asked",
                state_words(was),
                state_words(asked)
            ),
            Why::LeavesGrid => write!(
                f,
                "the loop would have to leave the grid at {place} (a line is asked on the edge outside it)"
            ),
            Why::ThreeLines => write!(f, "{place} would have three lines"),
            Why::DeadEnd => write!(f, "the loop would end at {place}"),
            Why::ClueExceeded(n) => write!(f, "{place} would have more than {n} {}", lines(n)),
            Why::ClueUnreachable(n) => {
                write!(f, "{place} could no longer have {n} {}", lines(n))
            }
            Why::EarlyLoop => write!(f, "a loop would close at {place} before the puzzle is done"),
            Why::ColourClash => write!(
                f,
                "the cells on either side of {place} would be both on the same side of the loop and on different sides"
            ),
            Why::Unjoinable => write!(
                f,
                "the line at {place} cannot be joined with the others into one loop"
            ),
            Why::SplitSide(inside) => write!(
                f,
                "the cells {} the loop would fall apart: {place} could not be joined to the others",
                if inside { "inside" } else { "outside" }
            ),
            Why::OddCrossings => write!(
                f,
                "the loop would cross the boundary of a set of clue cells ({place} among them) an odd number of times"
            ),
            Why::DotDegree(n) => {
                write!(f, "every edge is decided but {place} has {n} {}", lines(n))
            }
            Why::ClueCount { lines: n, clue } => write!(
                f,
                "every edge is decided but {place} has {n} {} and its clue is {clue}",
                lines(n)
            ),
            Why::NoLoop => write!(f, "every edge is decided but there is no loop"),
            Why::Exhausted => write!(f, "search tried every way and none is a solution"),
            Why::SeveralLoops => write!(
                f,
                "every edge is decided but the lines form more than one loop (one passes {place})"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_outside_the_grid_round_down() {
        assert_eq!(
            describe_point(0, -1),
            "the horizontal edge right of dot (0, -1)"
        );
        assert_eq!(describe_point(-1, 0), "the vertical edge below dot (-1, 0)");
        assert_eq!(describe_point(-1, -1), "cell (-1, -1)");
        assert_eq!(describe_point(4, 6), "dot (2, 3)");
    }

    #[test]
    fn contradictions_are_small_copy_values() {
        assert!(std::mem::size_of::<Contradiction>() <= 16);
        let c = Contradiction::new(Why::ClueExceeded(1), 1, 1);
        let d = c;
        assert_eq!(c, d);
        assert_eq!(c.to_string(), "cell (0, 0) would have more than 1 line");
    }
}
