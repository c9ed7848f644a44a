//! Regions, a global deducer (`use regions`): the cells inside the loop form one region joined side to side, and so do the cells outside it together with the outside of the grid; a cell every path between two cells of one side must pass lies on that side, and cells no such path can reach lie on the other.
//!
//! It reads the colour store (cells known inside or outside, that is related to the outside
//! of the grid) and runs, like connectivity, only on the solver's main line when everything
//! cheaper is stuck ([`super::Phase::Settle`]). For each side, on the graph of the cells not
//! known to be on the other side, joined side to side (for the outside, plus one node for the
//! outside of the grid, beside every border cell), with the cells known on that side as
//! *terminals*:
//! - terminals in two parts of the graph are a contradiction (that side would be split);
//! - a part with no terminal, while another has one, lies on the other side;
//! - a cell whose removal leaves terminals in two parts lies on that side. One depth-first
//!   search finds them: with low points, a vertex's children whose subtrees only it joins to
//!   the rest are cut off by it, and counting the terminals of each subtree tells whether two
//!   of the pieces it leaves hold terminals.
//!
//! A cell found is related to the outside of the grid in the colour store (the colour rules
//! then take it up); each edge between it and a neighbour of known colour is decided here
//! too, so that the step is named in explanations. Correct because the loop is a simple
//! closed curve: its inside is one region, and two inside cells meeting only at a corner
//! would need four lines at that dot (the same holds for the outside).

use crate::board::{Board, CROSS, Contradiction, LINE, Reason, SideNote, UNKNOWN, Why};
use crate::deduce::Deducer;

/// Deduces what the connectedness of the two sides implies; returns the edges decided plus
/// the cells placed. `scratch` holds the run's graph and search (reused between runs).
pub fn deduce(board: &mut Board, scratch: &mut Vec<u32>) -> Result<u64, Contradiction> {
    if board.unknown() == 0 {
        return Ok(0);
    }
    if board.colouring().is_none() {
        return Ok(0);
    }
    let mut work = Work::carve(scratch, board.rows(), board.cols());
    let explained = board.tracking().reasons;
    let mut decided = 0;
    let mut stale = true;
    for inside in [true, false] {
        if stale {
            work.read_sides(board);
            stale = false;
        }
        let mine = if inside { INSIDE } else { OUTSIDE };
        let found = side(board, &mut work, mine)?;
        if found.is_empty() {
            continue;
        }
        // For explanations: two cells of the side each cell found alone joins.
        let joins: Vec<Option<(u32, Option<u32>)>> = if explained {
            let view = work.view(mine);
            let border = work.n;
            found
                .iter()
                .map(|&(k, on)| {
                    (on == inside).then(|| {
                        let (a, b) = apart_by(&view, k);
                        let lattice = |k: usize| lattice(board, work.cols, k) as u32;
                        (lattice(a), (b != border).then(|| lattice(b)))
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        decided += place(board, work.cols, &found, &joins)?;
        stale = true;
    }
    Ok(decided)
}

/// A node's side in [`Work::side`]: not known, inside, outside.
const OPEN: u32 = 0;
const INSIDE: u32 = 1;
const OUTSIDE: u32 = 2;

/// A run's work space, carved out of the engine's scratch: the graph of the cells of a grid
/// joined side to side, plus the outside of the grid (node `rows * cols`) beside every border
/// cell, as adjacency lists; every node's side; the depth-first search's arrays.
struct Work<'a> {
    cols: usize,
    /// The outside of the grid; the cells are nodes `0..n`.
    n: usize,
    /// Where each node's neighbours start in `next`.
    start: &'a mut [u32],
    next: &'a mut [u32],
    /// Per node: [`OPEN`], [`INSIDE`] or [`OUTSIDE`].
    side: &'a mut [u32],
    search: Search<'a>,
}

impl<'a> Work<'a> {
    fn carve(scratch: &'a mut Vec<u32>, rows: usize, cols: usize) -> Work<'a> {
        let n = rows * cols;
        let nodes = n + 1;
        // Every cell has at most four neighbours (a border cell fewer in the grid, plus the
        // outside once); the outside has at most one per cell.
        let sizes = [
            nodes + 1,
            5 * nodes,
            nodes,
            nodes,
            nodes,
            nodes,
            nodes,
            nodes,
            nodes,
            nodes,
        ];
        scratch.clear();
        scratch.resize(sizes.iter().sum(), 0);
        let mut rest: &'a mut [u32] = scratch;
        let mut take = |len: usize| {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            head
        };
        let [
            start,
            next,
            side,
            disc,
            low,
            below,
            cut_off,
            pieces,
            stack_v,
            stack_i,
        ] = sizes.map(&mut take);
        let mut work = Work {
            cols,
            n,
            start,
            next,
            side,
            search: Search {
                disc,
                low,
                below,
                cut_off,
                pieces,
                stack_v,
                stack_i,
            },
        };
        work.build(rows);
        work
    }

    /// Lays out the adjacency lists: a cell's neighbours above, below, left and right, the
    /// outside in the place of the first one missing; the outside's, the border cells in order.
    fn build(&mut self, rows: usize) {
        let (cols, n) = (self.cols, self.n);
        let mut len = 0;
        for r in 0..rows {
            for c in 0..cols {
                let k = r * cols + c;
                self.start[k] = len as u32;
                let mut border = false;
                for (ok, other) in [
                    (r > 0, k.wrapping_sub(cols)),
                    (r + 1 < rows, k + cols),
                    (c > 0, k.wrapping_sub(1)),
                    (c + 1 < cols, k + 1),
                ] {
                    if ok {
                        self.next[len] = other as u32;
                        len += 1;
                    } else if !border {
                        border = true;
                        self.next[len] = n as u32;
                        len += 1;
                    }
                }
            }
        }
        self.start[n] = len as u32;
        for r in 0..rows {
            let inner = r > 0 && r + 1 < rows;
            for c in 0..cols {
                if !inner || c == 0 || c + 1 == cols {
                    self.next[len] = (r * cols + c) as u32;
                    len += 1;
                }
            }
        }
        self.start[n + 1] = len as u32;
    }

    /// Reads every cell's side from the colour store; the outside of the grid is outside.
    fn read_sides(&mut self, board: &Board) {
        let colouring = board.colouring().expect("colouring is on");
        for (slot, known) in self.side.iter_mut().zip(colouring.cell_sides(board)) {
            *slot = match known {
                None => OPEN,
                Some(true) => INSIDE,
                Some(false) => OUTSIDE,
            };
        }
        self.side[self.n] = OUTSIDE;
    }

    fn view(&self, mine: u32) -> View<'_> {
        View {
            start: self.start,
            next: self.next,
            side: self.side,
            mine,
        }
    }
}

/// The board's lattice index of cell node `k`.
pub(super) fn lattice(board: &Board, cols: usize, k: usize) -> usize {
    board.index(2 * (k / cols) as isize + 1, 2 * (k % cols) as isize + 1)
}

/// Per node, for one side: left out (known on the other side), open (colour unknown) or a
/// terminal (known on this side).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Node {
    Out,
    Open,
    Terminal,
}

/// The graph and the nodes' kinds for one side (`mine`).
#[derive(Clone, Copy)]
struct View<'a> {
    start: &'a [u32],
    next: &'a [u32],
    side: &'a [u32],
    mine: u32,
}

impl View<'_> {
    #[inline]
    fn neighbours(&self, v: usize) -> &[u32] {
        &self.next[self.start[v] as usize..self.start[v + 1] as usize]
    }

    #[inline]
    fn kind(&self, v: usize) -> Node {
        match self.side[v] {
            OPEN => Node::Open,
            s if s == self.mine => Node::Terminal,
            _ => Node::Out,
        }
    }

    /// Nodes in all, the outside of the grid last.
    fn len(&self) -> usize {
        self.side.len()
    }
}

/// The open cells (grid indices) that the connectedness of one side (`mine`) places: on
/// that side (`true`) or on the other.
fn side(board: &Board, work: &mut Work, mine: u32) -> Result<Vec<(usize, bool)>, Contradiction> {
    let inside = mine == INSIDE;
    let n = work.n;
    let total = work.side.iter().filter(|&&s| s == mine).count() as u32;
    if total == 0 {
        return Ok(Vec::new());
    }
    let view = View {
        start: work.start,
        next: work.next,
        side: work.side,
        mine,
    };
    let search = &mut work.search;
    // Nodes left out count as seen, too late to lower a low point: the search need not ask.
    let other = INSIDE + OUTSIDE - mine;
    for (disc, &s) in search.disc.iter_mut().zip(view.side) {
        *disc = if s == other { LEFT_OUT } else { UNSEEN };
    }
    search.cut_off.fill(0);
    search.pieces.fill(0);
    let mut home = None;
    let mut found = Vec::new();
    // The parts: searched from their terminals first, so the part holding them is found
    // whole; open nodes left unreached afterwards lie in parts without terminals.
    for root in (0..=n).rev() {
        if view.kind(root) != Node::Terminal || search.disc[root] != UNSEEN {
            continue;
        }
        if home.is_some() {
            // A terminal outside the part of the first: this side is split.
            let at = lattice(board, work.cols, if root == n { 0 } else { root });
            return Err(board.contradiction(Why::SplitSide(inside), at));
        }
        home = Some(root);
        search.run(&view, root, total, &mut found);
    }
    let mut out: Vec<(usize, bool)> = found.into_iter().map(|k| (k, inside)).collect();
    out.extend(
        (0..n)
            .filter(|&k| view.side[k] == OPEN && search.disc[k] == UNSEEN)
            .map(|k| (k, !inside)),
    );
    Ok(out)
}

/// The discovery time of a node not reached yet, and of a node left out.
const UNSEEN: u32 = u32::MAX;
const LEFT_OUT: u32 = u32::MAX - 1;

/// A depth-first search with low points and terminal counts per subtree.
struct Search<'a> {
    disc: &'a mut [u32],
    low: &'a mut [u32],
    /// Terminals in the node's subtree.
    below: &'a mut [u32],
    /// Terminals in the subtrees of the node's children that only it joins to the rest.
    cut_off: &'a mut [u32],
    /// Of those children, how many have terminals.
    pieces: &'a mut [u32],
    /// The path searched above the current node: its nodes, and the place in the adjacency
    /// lists of each one's next neighbour.
    stack_v: &'a mut [u32],
    stack_i: &'a mut [u32],
}

impl Search<'_> {
    /// Searches the part of `root`, which holds all `total` terminals; pushes onto `found` the
    /// open nodes whose removal leaves terminals in two parts.
    fn run(&mut self, view: &View, root: usize, total: u32, found: &mut Vec<usize>) {
        let mut time = 0;
        let mut depth = 0;
        // The node searched from, and the place in `view.next` of its next neighbour.
        let (mut v, mut i) = (root, view.start[root] as usize);
        self.enter(root, view, &mut time);
        'search: loop {
            let end = view.start[v + 1] as usize;
            while i < end {
                let u = view.next[i] as usize;
                i += 1;
                if self.disc[u] == UNSEEN {
                    self.stack_v[depth] = v as u32;
                    self.stack_i[depth] = i as u32;
                    depth += 1;
                    self.enter(u, view, &mut time);
                    (v, i) = (u, view.start[u] as usize);
                    continue 'search;
                }
                self.low[v] = self.low[v].min(self.disc[u]);
            }
            // Every neighbour of `v` tried.
            if view.side[v] == OPEN {
                // The pieces it leaves: the subtrees cut off, and the rest of the part.
                let rest = total - self.cut_off[v];
                if self.pieces[v] + u32::from(rest > 0) >= 2 {
                    found.push(v);
                }
            }
            if depth == 0 {
                return;
            }
            depth -= 1;
            let parent = self.stack_v[depth] as usize;
            self.low[parent] = self.low[parent].min(self.low[v]);
            self.below[parent] += self.below[v];
            if self.low[v] >= self.disc[parent] {
                self.cut_off[parent] += self.below[v];
                self.pieces[parent] += u32::from(self.below[v] > 0);
            }
            (v, i) = (parent, self.stack_i[depth] as usize);
        }
    }

    fn enter(&mut self, v: usize, view: &View, time: &mut u32) {
        self.disc[v] = *time;
        self.low[v] = *time;
        *time += 1;
        self.below[v] = u32::from(view.side[v] == view.mine);
    }
}

/// Writes the cells found: each related to the outside of the grid (with a note of why, from
/// `joins`, when reasons are tracked), and each edge between it and a neighbour of known
/// colour decided. Returns the edges decided plus the cells placed.
fn place(
    board: &mut Board,
    cols: usize,
    found: &[(usize, bool)],
    joins: &[Option<(u32, Option<u32>)>],
) -> Result<u64, Contradiction> {
    let outside = board.index(-1, 1);
    let stride = board.stride();
    let mut count = 0;
    for (i, &(k, inside)) in found.iter().enumerate() {
        let cell = lattice(board, cols, k);
        if board.colouring().and_then(|c| c.inside(cell)) == Some(inside) {
            continue;
        }
        if !board.relate_cells(cell, outside, inside) {
            return Err(board.contradiction(Why::ColourClash, cell));
        }
        count += 1;
        if let Some(&joins) = joins.get(i) {
            board.note_side(SideNote {
                at: board.trail().len() as u32,
                cell: cell as u32,
                inside,
                joins,
            });
        }
        for e in [cell - stride, cell + 1, cell + stride, cell - 1] {
            if board.at(e) != UNKNOWN {
                continue;
            }
            let Some(theirs) = board.colouring().and_then(|c| c.inside(2 * e - cell)) else {
                continue;
            };
            let state = if theirs == inside { CROSS } else { LINE };
            count += u64::from(board.set_edge(e, state, Reason::By(Deducer::Regions))?);
        }
    }
    Ok(count)
}

/// Two terminals that removing node `v` leaves in different parts, near it: the nearest
/// terminal, and the nearest one that the first does not reach without `v` (the outside of
/// the grid is the last node).
fn apart_by(view: &View, v: usize) -> (usize, usize) {
    let first = by_distance(view, v, &[])
        .into_iter()
        .find(|&k| view.kind(k) == Node::Terminal)
        .expect("a terminal");
    let reached = by_distance(view, first, &[v]);
    let mut seen = vec![false; view.len()];
    for k in reached {
        seen[k] = true;
    }
    let other = by_distance(view, v, &[])
        .into_iter()
        .find(|&k| view.kind(k) == Node::Terminal && !seen[k])
        .expect("v separates terminals");
    (first, other)
}

/// The nodes reachable from `from` without passing `avoid` or a left-out node, nearest first.
fn by_distance(view: &View, from: usize, avoid: &[usize]) -> Vec<usize> {
    let mut seen = vec![false; view.len()];
    seen[from] = true;
    for &a in avoid {
        seen[a] = true;
    }
    let mut order = vec![from];
    let mut k = 0;
    while k < order.len() {
        for &u in view.neighbours(order[k]) {
            let u = u as usize;
            if !seen[u] && view.kind(u) != Node::Out {
                seen[u] = true;
                order.push(u);
            }
        }
        k += 1;
    }
    order
}
