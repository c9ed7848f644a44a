//! Doubled grid coordinates (dots, edges and cells on one lattice) and the 8 symmetries of the square.
//!
//! A grid of R x C cells is drawn on a (2R+1) x (2C+1) lattice: dot (i, j) sits at (2i, 2j),
//! cell (i, j) at (2i+1, 2j+1), the horizontal edge right of dot (i, j) at (2i, 2j+1) and the
//! vertical edge below it at (2i+1, 2j). Rule pictures use the same lattice, so a rule's facts
//! are plain offsets that rotate and reflect with integer arithmetic.

use std::fmt;

/// A point of the doubled lattice: `y` grows downwards, `x` to the right.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Row on the doubled lattice.
    pub y: i32,
    /// Column on the doubled lattice.
    pub x: i32,
}

impl Pos {
    /// The point at row `y`, column `x`.
    pub const fn new(y: i32, x: i32) -> Self {
        Pos { y, x }
    }

    /// What sits at this point of the lattice.
    pub fn kind(self) -> Kind {
        match (self.y & 1 == 0, self.x & 1 == 0) {
            (true, true) => Kind::Dot,
            (true, false) => Kind::HEdge,
            (false, true) => Kind::VEdge,
            (false, false) => Kind::Cell,
        }
    }

    /// Whether this point is an edge (horizontal or vertical).
    pub fn is_edge(self) -> bool {
        matches!(self.kind(), Kind::HEdge | Kind::VEdge)
    }

    /// The two dots an edge joins (meaningless for other kinds).
    pub fn edge_dots(self) -> [Pos; 2] {
        match self.kind() {
            Kind::HEdge => [Pos::new(self.y, self.x - 1), Pos::new(self.y, self.x + 1)],
            _ => [Pos::new(self.y - 1, self.x), Pos::new(self.y + 1, self.x)],
        }
    }

    /// The four neighbours at lattice distance one (for a cell: its sides; for a dot: its edges).
    pub fn around(self) -> [Pos; 4] {
        [
            Pos::new(self.y - 1, self.x),
            Pos::new(self.y, self.x + 1),
            Pos::new(self.y + 1, self.x),
            Pos::new(self.y, self.x - 1),
        ]
    }

    /// The four diagonal neighbours (for a cell: its corner dots).
    pub fn corners(self) -> [Pos; 4] {
        [
            Pos::new(self.y - 1, self.x - 1),
            Pos::new(self.y - 1, self.x + 1),
            Pos::new(self.y + 1, self.x + 1),
            Pos::new(self.y + 1, self.x - 1),
        ]
    }
}

impl std::ops::Add for Pos {
    type Output = Pos;
    fn add(self, o: Pos) -> Pos {
        Pos::new(self.y + o.y, self.x + o.x)
    }
}

impl std::ops::Sub for Pos {
    type Output = Pos;
    fn sub(self, o: Pos) -> Pos {
        Pos::new(self.y - o.y, self.x - o.x)
    }
}

/// What occupies a point of the doubled lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A dot (even, even).
    Dot,
    /// A horizontal edge (even, odd).
    HEdge,
    /// A vertical edge (odd, even).
    VEdge,
    /// A cell (odd, odd).
    Cell,
}

/// One of the 8 rotations and reflections of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Symmetry {
    /// Leaves every point where it is.
    Identity,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn anticlockwise.
    Rotate270,
    /// Left-right mirror image.
    MirrorX,
    /// Upside-down mirror image.
    MirrorY,
    /// Reflection in the main diagonal.
    Transpose,
    /// Reflection in the anti-diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorX,
        Symmetry::MirrorY,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Maps a point about the origin (the origin must be a dot or a cell for kinds to be kept).
    pub fn apply(self, p: Pos) -> Pos {
        let Pos { y, x } = p;
        match self {
            Symmetry::Identity => Pos::new(y, x),
            Symmetry::Rotate90 => Pos::new(x, -y),
            Symmetry::Rotate180 => Pos::new(-y, -x),
            Symmetry::Rotate270 => Pos::new(-x, y),
            Symmetry::MirrorX => Pos::new(y, -x),
            Symmetry::MirrorY => Pos::new(-y, x),
            Symmetry::Transpose => Pos::new(x, y),
            Symmetry::AntiTranspose => Pos::new(-x, -y),
        }
    }

    /// A short stable name, used in traces and statistics.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate-90",
            Symmetry::Rotate180 => "rotate-180",
            Symmetry::Rotate270 => "rotate-270",
            Symmetry::MirrorX => "mirror-x",
            Symmetry::MirrorY => "mirror-y",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The 12 edges a cell-local variant may read, relative to its clue cell: the four sides
/// (north, east, south, west), then the two exits at each corner (NW, NE, SE, SW).
pub const CELL_SLOTS: [Pos; 12] = [
    Pos::new(-1, 0),
    Pos::new(0, 1),
    Pos::new(1, 0),
    Pos::new(0, -1),
    Pos::new(-2, -1),
    Pos::new(-1, -2),
    Pos::new(-2, 1),
    Pos::new(-1, 2),
    Pos::new(1, 2),
    Pos::new(2, 1),
    Pos::new(2, -1),
    Pos::new(1, -2),
];

/// The 4 edges of a dot (north, east, south, west), relative to the dot.
pub const DOT_SLOTS: [Pos; 4] = [
    Pos::new(-1, 0),
    Pos::new(0, 1),
    Pos::new(1, 0),
    Pos::new(0, -1),
];

/// The smallest and largest row and column among some points: `(top-left, bottom-right)`,
/// or `None` for no points.
pub fn bounds(points: impl IntoIterator<Item = Pos>) -> Option<(Pos, Pos)> {
    points.into_iter().fold(None, |acc, p| match acc {
        None => Some((p, p)),
        Some((lo, hi)) => Some((
            Pos::new(lo.y.min(p.y), lo.x.min(p.x)),
            Pos::new(hi.y.max(p.y), hi.x.max(p.x)),
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_distinct_and_keep_kinds_about_a_dot() {
        let p = Pos::new(2, 1);
        let images: std::collections::HashSet<Pos> =
            Symmetry::ALL.iter().map(|s| s.apply(p)).collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            assert_eq!(s.apply(Pos::new(1, 1)).kind(), Kind::Cell);
            assert_eq!(s.apply(Pos::new(2, 2)).kind(), Kind::Dot);
            assert!(s.apply(Pos::new(0, 1)).is_edge());
        }
        assert_eq!(
            Symmetry::Transpose.apply(Pos::new(0, 1)).kind(),
            Kind::VEdge
        );
    }

    #[test]
    fn edge_dots_and_corners() {
        assert_eq!(Pos::new(0, 1).edge_dots(), [Pos::new(0, 0), Pos::new(0, 2)]);
        assert_eq!(Pos::new(1, 0).edge_dots(), [Pos::new(0, 0), Pos::new(2, 0)]);
        assert_eq!(Pos::new(1, 1).corners()[2], Pos::new(2, 2));
    }
}
