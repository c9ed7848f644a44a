//! The window of a discovered rule: a box of cells, its dots, every edge touching one of them, and the symmetries that map the box onto itself.
//!
//! A box of `rows` x `cols` cells (either may be 0: a 0x0 box is one dot, a 0xC box a row of
//! dots) has its top-left dot at the lattice origin. Its window is what `rules check` proves a
//! rule on when the box's dots are drawn: every edge touching a box dot, the *exits* of the
//! border dots included. Edges are numbered in lattice order, so a set of edges is a `u64`
//! mask (a window has at most 64 edges).

use crate::geometry::{Pos, Symmetry};

/// The most edges a window may have (one bit each in a `u64`).
pub const MAX_EDGES: usize = 64;

/// A box of cells and every edge touching one of its dots.
#[derive(Clone, Debug)]
pub struct Window {
    /// Cells down (0 for a row of dots).
    pub rows: usize,
    /// Cells across (0 for a column of dots).
    pub cols: usize,
    /// Every edge touching a box dot, in lattice order; bit `i` of a mask is `edges[i]`.
    pub edges: Vec<Pos>,
    /// The box's cells, row by row.
    pub cells: Vec<Pos>,
    /// For each box dot, the mask of its four edges.
    pub dot_masks: Vec<u64>,
    /// For each box cell, the mask of its four sides.
    pub cell_masks: Vec<u64>,
    /// For each edge, its two dots as numbers (box dots and the outer ends of exits).
    pub ends: Vec<[u8; 2]>,
    /// How many dots `ends` numbers.
    pub dot_count: usize,
    /// The symmetries mapping the box onto itself (the identity first).
    pub symmetries: Vec<BoxSymmetry>,
    /// For each side (top, bottom, left, right) that can be cut off: the edges and cells that
    /// the box without that row or column of cells still holds in its window.
    pub sub_windows: Vec<(u64, Vec<bool>)>,
    /// The cells whose colour the window's edges relate: the box's cells and the ring of
    /// cells around it (every cell touching a box dot), row by row. Every edge between two of
    /// them is a window edge, and they enclose exactly the box's dots.
    pub block: Vec<Pos>,
    /// For each block cell, the window edges crossed on a path from the first block cell to
    /// it: the two cells are on opposite sides of the loop exactly when an odd number of
    /// them are lines (every box dot has 0 or 2 lines, so any path gives the same parity).
    pub block_paths: Vec<u64>,
    /// For each entry of `sub_windows`, which block cells the cut box's block still holds.
    pub sub_blocks: Vec<Vec<bool>>,
}

/// A symmetry of a box, as permutations of its edges and cells.
#[derive(Clone, Debug)]
pub struct BoxSymmetry {
    /// Edge `i` goes to edge `edges[i]`.
    pub edges: Vec<u8>,
    /// Cell `i` goes to cell `cells[i]`.
    pub cells: Vec<u8>,
    /// Block cell `i` goes to block cell `block[i]`.
    pub block: Vec<u8>,
}

impl BoxSymmetry {
    /// The image of an edge mask.
    pub fn map_mask(&self, mask: u64) -> u64 {
        let mut out = 0;
        let mut rest = mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= 1 << self.edges[i];
        }
        out
    }
}

impl Window {
    /// The window of a `rows` x `cols` box, or `None` when it has more than [`MAX_EDGES`] edges.
    pub fn new(rows: usize, cols: usize) -> Option<Window> {
        let (h, w) = (2 * rows as i32, 2 * cols as i32);
        let dots: Vec<Pos> = (0..=h)
            .step_by(2)
            .flat_map(|y| (0..=w).step_by(2).map(move |x| Pos::new(y, x)))
            .collect();
        let cells: Vec<Pos> = (1..h)
            .step_by(2)
            .flat_map(|y| (1..w).step_by(2).map(move |x| Pos::new(y, x)))
            .collect();
        let mut edges: Vec<Pos> = dots.iter().flat_map(|d| d.around()).collect();
        edges.sort();
        edges.dedup();
        if edges.len() > MAX_EDGES {
            return None;
        }
        let index = |p: Pos| edges.binary_search(&p).ok();
        let mask_of = |points: [Pos; 4]| {
            points
                .iter()
                .map(|&p| 1u64 << index(p).expect("inside the window"))
                .fold(0, |a, b| a | b)
        };
        let dot_masks = dots.iter().map(|d| mask_of(d.around())).collect();
        let cell_masks = cells.iter().map(|c| mask_of(c.around())).collect();
        let mut all_dots: Vec<Pos> = edges.iter().flat_map(|e| e.edge_dots()).collect();
        all_dots.sort();
        all_dots.dedup();
        let dot_number = |d: Pos| all_dots.binary_search(&d).expect("listed") as u8;
        let ends = edges
            .iter()
            .map(|e| e.edge_dots().map(dot_number))
            .collect();
        let block: Vec<Pos> = (-1..=rows as i32)
            .flat_map(|r| (-1..=cols as i32).map(move |c| Pos::new(2 * r + 1, 2 * c + 1)))
            .collect();
        let mut window = Window {
            block_paths: Vec::new(),
            sub_blocks: Vec::new(),
            block,
            rows,
            cols,
            dot_count: all_dots.len(),
            edges,
            cells,
            dot_masks,
            cell_masks,
            ends,
            symmetries: Vec::new(),
            sub_windows: Vec::new(),
        };
        window.block_paths = window.paths();
        window.symmetries = window.box_symmetries();
        window.sub_windows = window.cut_sides();
        window.sub_blocks = window.cut_blocks();
        Some(window)
    }

    /// The number of a cell of the block.
    pub fn block_index(&self, p: Pos) -> Option<usize> {
        self.block.iter().position(|&c| c == p)
    }

    /// Whether block cell `i` is in the ring (not a cell of the box).
    pub fn in_ring(&self, i: usize) -> bool {
        self.cell_index(self.block[i]).is_none()
    }

    /// The edges whose lines say whether two block cells are on opposite sides (an odd
    /// number of lines) or the same side.
    pub fn relation_mask(&self, i: usize, j: usize) -> u64 {
        self.block_paths[i] ^ self.block_paths[j]
    }

    /// A path from the first block cell to each block cell, breadth first across the window
    /// edges between block cells.
    fn paths(&self) -> Vec<u64> {
        let mut paths: Vec<Option<u64>> = vec![None; self.block.len()];
        paths[0] = Some(0);
        let mut queue = vec![0usize];
        while let Some(i) = queue.pop() {
            let here = paths[i].expect("reached");
            for (j, &q) in self.block.iter().enumerate() {
                let d = q - self.block[i];
                if paths[j].is_some() || d.y.abs() + d.x.abs() != 2 {
                    continue;
                }
                let edge = Pos::new((q.y + self.block[i].y) / 2, (q.x + self.block[i].x) / 2);
                let e = self
                    .edge_index(edge)
                    .expect("an edge between block cells is a window edge");
                paths[j] = Some(here | 1 << e);
                queue.insert(0, j);
            }
        }
        paths
            .into_iter()
            .map(|p| p.expect("the block is connected"))
            .collect()
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// The mask of every edge.
    pub fn all_edges(&self) -> u64 {
        if self.edges.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.edges.len()) - 1
        }
    }

    /// The number of an edge of the window.
    pub fn edge_index(&self, p: Pos) -> Option<usize> {
        self.edges.binary_search(&p).ok()
    }

    /// The number of a cell of the box.
    pub fn cell_index(&self, p: Pos) -> Option<usize> {
        self.cells.iter().position(|&c| c == p)
    }

    #[cfg(test)]
    /// Whether an edge is an exit: it touches only one box dot.
    pub fn is_exit(&self, i: usize) -> bool {
        let (h, w) = (2 * self.rows as i32, 2 * self.cols as i32);
        let inside = |d: Pos| (0..=h).contains(&d.y) && (0..=w).contains(&d.x);
        !self.edges[i].edge_dots().into_iter().all(inside)
    }

    /// Whether the lines of `lines` close a cycle (every dot of the window has at most two).
    pub fn has_cycle(&self, lines: u64) -> bool {
        self.line_parts(lines).is_none()
    }

    /// The parts the lines of `lines` join the window's dots into, as a union-find over the
    /// dots (read it with [`root`]), or `None` when they close a cycle.
    pub fn line_parts(&self, lines: u64) -> Option<[u8; 128]> {
        let mut parent = [0u8; 128];
        for (i, p) in parent.iter_mut().enumerate().take(self.dot_count) {
            *p = i as u8;
        }
        let mut rest = lines;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let [a, b] = self.ends[e];
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            if ra == rb {
                return None;
            }
            parent[ra as usize] = rb;
        }
        Some(parent)
    }

    /// Maps a lattice point of the box by a symmetry, placed back so that the box's top-left
    /// dot is the origin again.
    pub fn map_point(&self, symmetry: Symmetry, p: Pos) -> Pos {
        symmetry.apply(p) - self.shift(symmetry)
    }

    /// Where a symmetry puts the box's top-left corner, to be subtracted.
    fn shift(&self, symmetry: Symmetry) -> Pos {
        let corner = Pos::new(2 * self.rows as i32, 2 * self.cols as i32);
        let a = symmetry.apply(Pos::new(0, 0));
        let b = symmetry.apply(corner);
        Pos::new(a.y.min(b.y), a.x.min(b.x))
    }

    /// The symmetries that map the box onto itself: all 8 for a square box, otherwise the
    /// four that keep its rows rows.
    fn box_symmetries(&self) -> Vec<BoxSymmetry> {
        let mut out = Vec::new();
        for symmetry in Symmetry::ALL {
            let edges: Option<Vec<u8>> = self
                .edges
                .iter()
                .map(|&e| {
                    self.edge_index(self.map_point(symmetry, e))
                        .map(|i| i as u8)
                })
                .collect();
            let cells: Option<Vec<u8>> = self
                .cells
                .iter()
                .map(|&c| {
                    self.cell_index(self.map_point(symmetry, c))
                        .map(|i| i as u8)
                })
                .collect();
            // A bijection of the edges: the box lands on itself (a long box turned a quarter does not).
            let block: Option<Vec<u8>> = self
                .block
                .iter()
                .map(|&c| {
                    self.block_index(self.map_point(symmetry, c))
                        .map(|i| i as u8)
                })
                .collect();
            if let (Some(edges), Some(cells), Some(block)) = (edges, cells, block) {
                out.push(BoxSymmetry {
                    edges,
                    cells,
                    block,
                });
            }
        }
        out
    }

    /// For each cut of [`Window::cut_sides`], the block cells the cut box's block holds.
    fn cut_blocks(&self) -> Vec<Vec<bool>> {
        self.cuts()
            .into_iter()
            .map(|((y0, y1), (x0, x1))| {
                self.block
                    .iter()
                    .map(|c| (y0 - 1..=y1 + 1).contains(&c.y) && (x0 - 1..=x1 + 1).contains(&c.x))
                    .collect()
            })
            .collect()
    }

    /// (dot rows kept, dot columns kept) for top, bottom, left and right cut off.
    fn cuts(&self) -> Vec<((i32, i32), (i32, i32))> {
        let (h, w) = (2 * self.rows as i32, 2 * self.cols as i32);
        let mut cuts = Vec::new();
        if self.rows > 0 {
            cuts.push(((2, h), (0, w)));
            cuts.push(((0, h - 2), (0, w)));
        }
        if self.cols > 0 {
            cuts.push(((0, h), (2, w)));
            cuts.push(((0, h), (0, w - 2)));
        }
        cuts
    }

    /// The windows of the box with one side's row or column of cells cut off.
    fn cut_sides(&self) -> Vec<(u64, Vec<bool>)> {
        self.cuts()
            .into_iter()
            .map(|((y0, y1), (x0, x1))| {
                let kept = |d: Pos| (y0..=y1).contains(&d.y) && (x0..=x1).contains(&d.x);
                let edges = self
                    .edges
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.edge_dots().into_iter().any(kept))
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                let cells = self
                    .cells
                    .iter()
                    .map(|c| c.corners().into_iter().all(kept))
                    .collect();
                (edges, cells)
            })
            .collect()
    }
}

/// The part of dot `i` in a union-find of [`Window::line_parts`] (halving its path).
pub fn root(parent: &mut [u8], mut i: u8) -> u8 {
    while parent[i as usize] != i {
        parent[i as usize] = parent[parent[i as usize] as usize];
        i = parent[i as usize];
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_counts_and_exits() {
        let one = Window::new(1, 1).unwrap();
        assert_eq!(one.edge_count(), 12);
        assert_eq!((0..12).filter(|&i| one.is_exit(i)).count(), 8);
        let dot = Window::new(0, 0).unwrap();
        assert_eq!(dot.edge_count(), 4);
        assert_eq!(Window::new(2, 2).unwrap().edge_count(), 24);
        assert_eq!(Window::new(3, 3).unwrap().edge_count(), 40);
        assert!(Window::new(5, 5).is_none());
    }

    #[test]
    fn a_square_box_has_eight_symmetries_and_a_long_one_four() {
        assert_eq!(Window::new(2, 2).unwrap().symmetries.len(), 8);
        assert_eq!(Window::new(1, 2).unwrap().symmetries.len(), 4);
        assert_eq!(Window::new(0, 0).unwrap().symmetries.len(), 8);
        for w in [Window::new(1, 2).unwrap(), Window::new(2, 2).unwrap()] {
            for s in &w.symmetries {
                let mut image = s.edges.clone();
                image.sort();
                assert_eq!(image, (0..w.edge_count() as u8).collect::<Vec<_>>());
                assert_eq!(s.map_mask(w.all_edges()), w.all_edges());
            }
        }
    }

    #[test]
    fn cycles_are_found() {
        let w = Window::new(1, 1).unwrap();
        let sides = w.cell_masks[0];
        assert!(w.has_cycle(sides));
        let three = sides & !(1 << w.edge_index(Pos::new(0, 1)).unwrap());
        assert!(!w.has_cycle(three));
    }

    #[test]
    fn cutting_a_side_keeps_what_touches_the_rest() {
        let w = Window::new(1, 1).unwrap();
        // Cutting the top row of a 1x1 box leaves the bottom dots: their edges are the bottom
        // side, the two vertical sides and the four exits at the bottom corners.
        let (edges, cells) = &w.sub_windows[0];
        assert_eq!(edges.count_ones(), 7);
        assert_eq!(cells, &vec![false]);
    }
}
