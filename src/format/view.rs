//! One read-only view of a board for every renderer: its size, its clues, and each edge's state (line, cross or unknown).
//!
//! [`crate::board::Board`] is a [`View`] as it stands (mid-solve, stuck, or solved);
//! [`Picture`] is an owned copy of one, which explanations keep per step and formats read
//! back from puzzle URLs.

use crate::board::{Board, CROSS, LINE};
use crate::puzzle::Puzzle;

/// What is known about one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    /// Not decided.
    Unknown,
    /// On the loop.
    Line,
    /// Known not on the loop.
    Cross,
}

/// A board as renderers see it. Horizontal edge `(r, c)` lies on dot row `r` (0..=rows)
/// right of dot `c` (0..cols); vertical edge `(r, c)` on cell row `r` (0..rows) below dot
/// `c` (0..=cols).
pub trait View {
    /// Cells down.
    fn rows(&self) -> usize;
    /// Cells across.
    fn cols(&self) -> usize;
    /// The clue of cell `(r, c)`, `None` for a blank.
    fn clue(&self, r: usize, c: usize) -> Option<u8>;
    /// The horizontal edge on dot row `r` right of dot `c`.
    fn h(&self, r: usize, c: usize) -> Edge;
    /// The vertical edge on cell row `r` below dot `c`.
    fn v(&self, r: usize, c: usize) -> Edge;
    /// Whether the horizontal edge differs between a puzzle's answers (drawn apart).
    fn undetermined_h(&self, _r: usize, _c: usize) -> bool {
        false
    }
    /// Whether the vertical edge differs between a puzzle's answers (drawn apart).
    fn undetermined_v(&self, _r: usize, _c: usize) -> bool {
        false
    }
}

/// A puzzle's first answer with the edges that differ between its answers marked.
pub struct Marked<'a> {
    /// The first answer.
    pub board: &'a Board,
    /// The edges that differ between answers (lattice indices, sorted).
    pub undetermined: &'a [u32],
}

impl Marked<'_> {
    fn marked(&self, y: usize, x: usize) -> bool {
        let i = self.board.index(y as isize, x as isize) as u32;
        self.undetermined.binary_search(&i).is_ok()
    }

    /// The undetermined edges as doubled-lattice `(y, x)` places: the horizontal ones row by
    /// row, then the vertical ones.
    pub fn places(&self) -> Vec<(usize, usize)> {
        let (rows, cols) = (self.rows(), self.cols());
        let horizontal = (0..=rows)
            .flat_map(|r| (0..cols).map(move |c| (2 * r, 2 * c + 1)))
            .filter(|&(y, x)| self.marked(y, x));
        let vertical = (0..rows)
            .flat_map(|r| (0..=cols).map(move |c| (2 * r + 1, 2 * c)))
            .filter(|&(y, x)| self.marked(y, x));
        horizontal.chain(vertical).collect()
    }
}

impl View for Marked<'_> {
    fn rows(&self) -> usize {
        self.board.rows()
    }

    fn cols(&self) -> usize {
        self.board.cols()
    }

    fn clue(&self, r: usize, c: usize) -> Option<u8> {
        self.board.clue(r, c)
    }

    fn h(&self, r: usize, c: usize) -> Edge {
        View::h(self.board, r, c)
    }

    fn v(&self, r: usize, c: usize) -> Edge {
        View::v(self.board, r, c)
    }

    fn undetermined_h(&self, r: usize, c: usize) -> bool {
        self.marked(2 * r, 2 * c + 1)
    }

    fn undetermined_v(&self, r: usize, c: usize) -> bool {
        self.marked(2 * r + 1, 2 * c)
    }
}

fn edge_of(code: u8) -> Edge {
    match code {
        LINE => Edge::Line,
        CROSS => Edge::Cross,
        _ => Edge::Unknown,
    }
}

impl View for Board {
    fn rows(&self) -> usize {
        Board::rows(self)
    }

    fn cols(&self) -> usize {
        Board::cols(self)
    }

    fn clue(&self, r: usize, c: usize) -> Option<u8> {
        Board::clue(self, r, c)
    }

    fn h(&self, r: usize, c: usize) -> Edge {
        edge_of(self.at(self.index(2 * r as isize, 2 * c as isize + 1)))
    }

    fn v(&self, r: usize, c: usize) -> Edge {
        edge_of(self.at(self.index(2 * r as isize + 1, 2 * c as isize)))
    }
}

/// An owned board picture: clues and edge states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Cells down.
    pub rows: usize,
    /// Cells across.
    pub cols: usize,
    /// Clues, row by row.
    pub clues: Vec<Option<u8>>,
    /// Horizontal edges, dot row by dot row: `(rows + 1) * cols`.
    pub h: Vec<Edge>,
    /// Vertical edges, cell row by cell row: `rows * (cols + 1)`.
    pub v: Vec<Edge>,
}

impl Picture {
    /// A puzzle with every edge unknown.
    pub fn blank(puzzle: &Puzzle) -> Picture {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        Picture {
            rows,
            cols,
            clues: puzzle.clues.clone(),
            h: vec![Edge::Unknown; (rows + 1) * cols],
            v: vec![Edge::Unknown; rows * (cols + 1)],
        }
    }

    /// A copy of any view.
    pub fn of(view: &impl View) -> Picture {
        let (rows, cols) = (view.rows(), view.cols());
        Picture {
            rows,
            cols,
            clues: (0..rows * cols)
                .map(|i| view.clue(i / cols, i % cols))
                .collect(),
            h: (0..(rows + 1) * cols)
                .map(|i| view.h(i / cols, i % cols))
                .collect(),
            v: (0..rows * (cols + 1))
                .map(|i| view.v(i / (cols + 1), i % (cols + 1)))
                .collect(),
        }
    }

    /// Sets an edge given by doubled grid coordinates (an edge position of the lattice).
    pub fn set(&mut self, y: usize, x: usize, edge: Edge) {
        if y.is_multiple_of(2) {
            self.h[(y / 2) * self.cols + x / 2] = edge;
        } else {
            self.v[(y / 2) * (self.cols + 1) + x / 2] = edge;
        }
    }

    /// The puzzle (clues only).
    pub fn puzzle(&self) -> Puzzle {
        Puzzle {
            rows: self.rows,
            cols: self.cols,
            clues: self.clues.clone(),
        }
    }
}

impl View for Picture {
    fn rows(&self) -> usize {
        self.rows
    }

    fn cols(&self) -> usize {
        self.cols
    }

    fn clue(&self, r: usize, c: usize) -> Option<u8> {
        self.clues[r * self.cols + c]
    }

    fn h(&self, r: usize, c: usize) -> Edge {
        self.h[r * self.cols + c]
    }

    fn v(&self, r: usize, c: usize) -> Edge {
        self.v[r * (self.cols + 1) + c]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Reason, Tracking};

    #[test]
    fn a_board_and_its_picture_show_the_same_edges() {
        let puzzle = crate::puzzle::parse_all("t", b"2 3\n1 . 2\n. 3 .\n0 0\n")
            .unwrap()
            .remove(0);
        let mut board = Board::new(&puzzle, 4, Tracking::default());
        board
            .set_edge(board.index(0, 3), LINE, Reason::Given)
            .unwrap();
        board
            .set_edge(board.index(3, 6), CROSS, Reason::Given)
            .unwrap();
        let picture = Picture::of(&board);
        assert_eq!(picture.h(0, 1), Edge::Line);
        assert_eq!(picture.v(1, 3), Edge::Cross);
        assert_eq!(picture.v(0, 0), Edge::Unknown);
        assert_eq!(picture.clue(1, 1), Some(3));
        assert_eq!(picture.clue(0, 1), None);
        let mut blank = Picture::blank(&puzzle);
        blank.set(0, 3, Edge::Line);
        blank.set(3, 6, Edge::Cross);
        assert_eq!(blank, picture);
    }
}
