//! The colour store: every cell, and the region outside the grid, lies inside or outside the loop; the relations known between cells (same side, opposite sides), kept in an undoable union-find with parity.
//!
//! The store is board state, not a deducer: every edge written relates the two cells across
//! it (cells across a line differ, across a cross agree), and [`crate::board::Board::undo_to`]
//! takes those relations back with the edges. That is why the board holds it and its writer
//! feeds it. What follows from the relations is the colouring deducer's
//! (`deduce/colouring.rs`).
//!
//! The union-find is keyed by lattice index / 2, with union by size, no path compression, and
//! a history of merges tagged with the trail length, so that undo takes them back exactly.
//! Every class also threads a circular list of its members, so a merge can name the cells
//! whose relations just changed.

use crate::board::{Board, LINE, UNKNOWN};

/// One union, as the history records it.
#[derive(Clone, Copy, Debug)]
struct Merge {
    /// Trail length when it was made: undone when the trail is cut below it.
    tag: u32,
    /// The root that was linked under `root`.
    child: u32,
    /// The root that stayed a root.
    root: u32,
}

/// The colour classes of a board's cells.
#[derive(Clone, Debug)]
pub struct Colouring {
    parent: Vec<u32>,
    /// 1 when a key's colour differs from its parent's.
    parity: Vec<u8>,
    /// Members of a root's class.
    size: Vec<u32>,
    /// The next member of the same class, circularly.
    next: Vec<u32>,
    history: Vec<Merge>,
    /// Trail length when colouring was switched on.
    started_at: usize,
    /// Cells (lattice indices) whose class changed since the deducer last looked.
    pub(crate) queue: Vec<u32>,
    /// The key of the cells outside the grid.
    outside: u32,
    /// Per key: the deducer round that last listed the cell to look at (see `mark_clue`).
    pub(crate) seen: Vec<u16>,
    /// The deducer's current round (never 0, the mark of a cell not listed yet).
    pub(crate) epoch: u16,
    /// Changes whenever a class changes (a merge or an undo), and differs between stores:
    /// what a reader cached of the classes is good while it stays.
    version: Version,
}

/// A store's version: a copy of a store starts a version range of its own, so that what
/// was cached of the original is never taken for the copy's.
#[derive(Debug)]
struct Version(u64);

/// The next store's first version; each store takes a range of 2^32.
static NEXT_VERSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1 << 32);

impl Version {
    fn fresh() -> Version {
        Version(NEXT_VERSION.fetch_add(1 << 32, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for Version {
    fn clone(&self) -> Version {
        Version::fresh()
    }
}

impl Colouring {
    /// Every cell in a class of its own, then the off-grid cells along the border joined
    /// into the outside.
    pub fn new(board: &Board) -> Colouring {
        let n = board.len() / 2 + 1;
        let mut c = Colouring {
            parent: (0..n as u32).collect(),
            parity: vec![0; n],
            size: vec![1; n],
            next: (0..n as u32).collect(),
            history: Vec::new(),
            started_at: board.trail().len(),
            queue: Vec::new(),
            outside: 0,
            seen: vec![0; n],
            epoch: 0,
            version: Version::fresh(),
        };
        let (rows, cols) = (board.rows() as isize, board.cols() as isize);
        let first = board.index(-1, 1);
        c.outside = (first >> 1) as u32;
        let tag = board.trail().len();
        for x in 0..cols {
            c.relate([first, board.index(-1, 2 * x + 1)], false, tag);
            c.relate([first, board.index(2 * rows + 1, 2 * x + 1)], false, tag);
        }
        for y in 0..rows {
            c.relate([first, board.index(2 * y + 1, -1)], false, tag);
            c.relate([first, board.index(2 * y + 1, 2 * cols + 1)], false, tag);
        }
        c.queue.clear();
        c
    }

    /// The store's version: the same number means the same classes.
    #[inline]
    pub fn version(&self) -> u64 {
        self.version.0
    }

    /// Every grid cell's side (as [`Colouring::inside`] says), row by row; the outside's class
    /// is looked up once.
    pub fn cell_sides<'a>(&'a self, board: &'a Board) -> impl Iterator<Item = Option<bool>> + 'a {
        let (ro, po) = self.find(self.outside);
        (0..board.rows() as isize).flat_map(move |r| {
            let first = (board.index(2 * r + 1, 1) >> 1) as u32;
            (first..first + board.cols() as u32).map(move |k| {
                let (root, p) = self.find(k);
                (root == ro).then_some(p != po)
            })
        })
    }

    /// Trail length when colouring was switched on.
    pub fn started_at(&self) -> usize {
        self.started_at
    }

    /// Queues every grid cell, so that the deducer looks at the whole board once.
    pub fn queue_all(&mut self, board: &Board) {
        self.queue.extend(board.grid_cells().map(|c| c as u32));
    }

    /// The root of a key and the key's colour relative to it.
    #[inline]
    pub(crate) fn find(&self, mut k: u32) -> (u32, u8) {
        let mut p = 0;
        loop {
            let up = self.parent[k as usize];
            if up == k {
                return (k, p);
            }
            p ^= self.parity[k as usize];
            k = up;
        }
    }

    /// Whether two cells (lattice indices) are known to differ in colour (`Some(true)`), to
    /// have the same colour (`Some(false)`), or neither.
    #[inline]
    pub fn relation(&self, a: usize, b: usize) -> Option<bool> {
        let (ra, pa) = self.find((a >> 1) as u32);
        let (rb, pb) = self.find((b >> 1) as u32);
        (ra == rb).then_some(pa != pb)
    }

    /// Whether a cell (lattice index) is known to be inside the loop (`Some(true)`) or outside.
    pub fn inside(&self, cell: usize) -> Option<bool> {
        let (r, p) = self.find((cell >> 1) as u32);
        let (ro, po) = self.find(self.outside);
        (r == ro).then_some(p != po)
    }

    /// Relates two cells (lattice indices): different colours when `differ`. `tag` is the
    /// trail length the relation rests on. False when it contradicts what is known.
    #[inline(never)]
    pub fn relate(&mut self, cells: [usize; 2], differ: bool, tag: usize) -> bool {
        let (ra, pa) = self.find((cells[0] >> 1) as u32);
        let (rb, pb) = self.find((cells[1] >> 1) as u32);
        if ra == rb {
            return (pa ^ pb) == u8::from(differ);
        }
        let (child, root) = if self.size[ra as usize] < self.size[rb as usize] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parity[child as usize] = pa ^ pb ^ u8::from(differ);
        self.parent[child as usize] = root;
        self.size[root as usize] += self.size[child as usize];
        self.next.swap(child as usize, root as usize);
        self.history.push(Merge {
            tag: tag as u32,
            child,
            root,
        });
        self.version.0 += 1;
        // After the swap the merged cycle runs root -> (the child's old members) -> child -> ...
        let mut m = self.next[root as usize];
        loop {
            self.queue.push(2 * m + 1);
            if m == child {
                break;
            }
            m = self.next[m as usize];
        }
        true
    }

    /// Takes back every merge resting on more than `len` trail entries; drops the queue.
    pub fn undo_to(&mut self, len: usize) {
        while let Some(&merge) = self.history.last() {
            if merge.tag as usize <= len {
                break;
            }
            self.history.pop();
            let (child, root) = (merge.child as usize, merge.root as usize);
            self.next.swap(child, root);
            self.size[root] -= self.size[child];
            self.parent[child] = merge.child;
            self.version.0 += 1;
        }
        self.queue.clear();
    }

    /// Checks that every decided edge's cells are related as its state says, and that every
    /// class's member list holds exactly its members.
    pub fn check(&self, board: &Board) -> Result<(), String> {
        for k in 0..self.parent.len() as u32 {
            if self.parent[k as usize] != k || self.size[k as usize] == 1 {
                continue;
            }
            let (mut m, mut count) = (k, 0u32);
            loop {
                if self.find(m).0 != k {
                    return Err(format!("the member list of class {k} holds a stranger"));
                }
                count += 1;
                m = self.next[m as usize];
                if m == k || count > self.size[k as usize] {
                    break;
                }
            }
            if count != self.size[k as usize] {
                return Err(format!(
                    "class {k} lists {count} members of {}",
                    self.size[k as usize]
                ));
            }
        }
        for e in board.grid_edges() {
            let state = board.at(e);
            if state == UNKNOWN {
                continue;
            }
            let [a, b] = board.edge_cells(e);
            if self.relation(a, b) != Some(state == LINE) {
                return Err(format!(
                    "the colouring does not relate the cells across {}",
                    board.describe(e)
                ));
            }
        }
        Ok(())
    }
}
