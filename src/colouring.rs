//! Inside/outside colouring, a global deducer (`use colouring`): every cell, and the region outside the grid, lies inside or outside the loop.
//!
//! Two cells that share a line side lie on different sides of the loop, two that share a
//! cross on the same side. The relations are kept in a union-find with parity over the
//! cells (keyed by lattice index / 2), with union by size, no path compression, and a history
//! of merges tagged with the trail length, so that [`Board::undo_to`] takes them back exactly.
//! Every class also threads a circular list of its members, so a merge can name the cells
//! whose relations just changed.
//!
//! What the deducer derives:
//! - an unknown edge between two cells of one class: a cross when they have the same colour,
//!   a line when they differ (a cell and the outside included, along the border);
//! - around a clue cell, two neighbours of one class (other than the cell's): with the same
//!   colour, a 3 has both of their sides as lines and a 1 both as crosses; with different
//!   colours, exactly one of them differs from the cell, so a 1 has its other two sides as
//!   crosses and a 3 as lines, and a 2 relates its other two neighbours (equal colours when
//!   the pair is equal, opposite otherwise, and opposite to the pair when it is equal);
//! - around a clue cell, two neighbours of the cell's own class: their colours against the
//!   cell's count towards the clue, and the other two neighbours make up the rest: both the
//!   cell's colour (crosses), both the other (lines), or one each, so they differ from each
//!   other (a relation no edge holds, e.g. a 2 with one line and one cross).

use crate::board::{Board, CROSS, Contradiction, LINE, OFF, Reason, UNKNOWN, Why, clue_of};

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
    queue: Vec<u32>,
    /// The key of the cells outside the grid.
    outside: u32,
    stride: usize,
    /// Per key: the deducer round that last listed the cell to look at (see `mark_clue`).
    seen: Vec<u16>,
    /// The deducer's current round (never 0, the mark of a cell not listed yet).
    epoch: u16,
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
            stride: board.stride(),
            seen: vec![0; n],
            epoch: 0,
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
    fn find(&self, mut k: u32) -> (u32, u8) {
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

/// Runs the colouring deducer until its queue is empty; returns the edges it decided.
///
/// `scratch` is reused between calls to hold the queue being worked through.
pub fn deduce(board: &mut Board, scratch: &mut Vec<u32>) -> Result<u64, Contradiction> {
    let mut decided = 0;
    loop {
        let Some(colouring) = board.colouring_mut() else {
            return Ok(decided);
        };
        if colouring.queue.is_empty() {
            return Ok(decided);
        }
        scratch.clear();
        scratch.append(&mut colouring.queue);
        colouring.epoch = colouring.epoch.wrapping_add(1);
        if colouring.epoch == 0 {
            colouring.seen.fill(0);
            colouring.epoch = 1;
        }
        let stride = colouring.stride;
        // The clue cells to look at, each once this round: a queued clue cell (its own class
        // changed, so it may now share it with two neighbours) and the clue cells next to a
        // queued cell (a neighbour's class changed). They follow the queued cells in
        // `scratch`.
        let queued = scratch.len();
        for q in 0..queued {
            let m = scratch[q] as usize;
            if clue_of(board.at(m)).is_some() {
                mark_clue(board, scratch, m);
            }
            for side in [m - stride, m + 1, m + stride, m - 1] {
                // An off-grid member (of the outside) has one grid side; skip the others.
                if board.at(side) == OFF {
                    continue;
                }
                let across = 2 * side - m;
                if board.at(side) == UNKNOWN {
                    let relation = board.colouring().and_then(|c| c.relation(m, across));
                    if let Some(differ) = relation {
                        let state = if differ { LINE } else { CROSS };
                        decided += u64::from(board.set_edge(side, state, Reason::Colouring)?);
                    }
                }
                if clue_of(board.at(across)).is_some() {
                    mark_clue(board, scratch, across);
                }
            }
        }
        for &cell in &scratch[queued..] {
            let cell = cell as usize;
            if let Some(clue) = clue_of(board.at(cell)) {
                decided += clue_pairs(board, cell, clue)?;
            }
        }
    }
}

/// Adds a clue cell to the cells to look at this round (`scratch` past the queued ones),
/// unless it is there already.
fn mark_clue(board: &mut Board, scratch: &mut Vec<u32>, cell: usize) {
    if let Some(colouring) = board.colouring_mut() {
        let key = cell >> 1;
        if colouring.seen[key] != colouring.epoch {
            colouring.seen[key] = colouring.epoch;
            scratch.push(cell as u32);
        }
    }
}

/// What two neighbours of one class tell about a clue cell (see the module notes).
fn clue_pairs(board: &mut Board, cell: usize, clue: u8) -> Result<u64, Contradiction> {
    if !(1..=3).contains(&clue) {
        return Ok(0);
    }
    let Some(colouring) = board.colouring() else {
        return Ok(0);
    };
    let stride = colouring.stride;
    let sides = [cell - stride, cell + 1, cell + stride, cell - 1];
    let across = sides.map(|s| 2 * s - cell);
    let (own, own_parity) = colouring.find((cell >> 1) as u32);
    let classes = across.map(|n| colouring.find((n >> 1) as u32));
    let mut decided = 0;
    let set = |board: &mut Board, edges: [usize; 2], state: u8| {
        let mut n = 0;
        for e in edges {
            n += u64::from(board.set_edge(e, state, Reason::Colouring)?);
        }
        Ok::<u64, Contradiction>(n)
    };
    for i in 0..4 {
        for j in i + 1..4 {
            let ((ri, pi), (rj, pj)) = (classes[i], classes[j]);
            if ri != rj {
                continue;
            }
            let mut rest = (0..4).filter(|&k| k != i && k != j);
            let (k, l) = (rest.next().unwrap_or(0), rest.next().unwrap_or(0));
            if ri == own {
                // Both neighbours' colours are known against the cell's: the other two must
                // make up the clue. One of two is a relation no edge holds (they differ).
                let differing = u8::from(pi != own_parity) + u8::from(pj != own_parity);
                match clue.checked_sub(differing) {
                    Some(0) => decided += set(board, [sides[k], sides[l]], CROSS)?,
                    Some(1) => {
                        if !board.relate_cells(across[k], across[l], true) {
                            return Err(board.contradiction(Why::ColourClash, cell));
                        }
                    }
                    Some(2) => decided += set(board, [sides[k], sides[l]], LINE)?,
                    _ => return Err(board.contradiction(Why::ColourClash, cell)),
                }
                continue;
            }
            let equal = pi == pj;
            match (clue, equal) {
                (3, true) => decided += set(board, [sides[i], sides[j]], LINE)?,
                (1, true) => decided += set(board, [sides[i], sides[j]], CROSS)?,
                (3, false) => decided += set(board, [sides[k], sides[l]], LINE)?,
                (1, false) => decided += set(board, [sides[k], sides[l]], CROSS)?,
                (2, true) => {
                    if !board.relate_cells(across[k], across[l], false)
                        || !board.relate_cells(across[k], across[i], true)
                    {
                        return Err(board.contradiction(Why::ColourClash, cell));
                    }
                }
                _ => {
                    if !board.relate_cells(across[k], across[l], true) {
                        return Err(board.contradiction(Why::ColourClash, cell));
                    }
                }
            }
        }
    }
    Ok(decided)
}
