//! Connectivity, a global deducer (`use connectivity`): the loop is one simple cycle in the graph of the edges not crossed (dots joined by lines and unknown edges), so it can use no bridge of that graph and lies in one connected part of it.
//!
//! The graph is built with petgraph (dots as nodes, every line and unknown edge as an edge)
//! each time the deducer runs, which is only on the solver's main line when the rules and the
//! cheap deducers are stuck (never inside a probe or a search branch: see [`super::Phase`]):
//! - a *bridge* (an edge whose removal splits its part of the graph) lies on no cycle: an
//!   unknown bridge is a cross, and a line that is a bridge is a contradiction;
//! - with the bridges gone, every line must lie in one connected part: lines in two parts are
//!   a contradiction, and every unknown edge of a part without lines is a cross (once there
//!   is a line at all);
//! - *linked edges* (with colouring on): the unknown edges between cells of the same two colour
//!   classes are decided together by how those classes relate (each a line or each a cross,
//!   by its cells' colours relative to their classes). Of the two ways, one that gives a dot
//!   three lines, or closes a loop that is not the whole answer (lines left off it, a second
//!   loop, or a clue unmet), cannot be: the other way holds. This is loop closure with the
//!   store's linked edges as one move. A way that relates the outside's class to a class of
//!   two cells or more places those cells inside or outside; if the inside, or the outside
//!   with the outside of the grid, would then be split (two of its cells joined by no path of
//!   cells not on the other side: the regions deducer's invariant, checked on the board as it
//!   is with those cells placed, nothing deduced), that way cannot be either. A way that
//!   joins two classes of unknown side (large enough: see [`JOINED`]) cannot be if a side
//!   would be split whichever side the joined class took.

use crate::board::{Board, CROSS, Contradiction, LINE, Reason, UNKNOWN, Why, clue_of};
use crate::deduce::Deducer;
use crate::deduce::regions::lattice;
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;

/// Deduces what the shape of the graph of uncrossed edges implies; returns the edges decided.
pub fn deduce(board: &mut Board) -> Result<u64, Contradiction> {
    if board.unknown() == 0 {
        return Ok(0);
    }
    let mut decided = crosses_bridges(board)?;
    decided += crosses_parts_without_lines(board)?;
    decided += linked_closures(board)?;
    Ok(decided)
}

/// Edges linked by the colour store go together: the unknown edges between cells of the same
/// two colour classes are all decided by how those two classes relate, so either one half of
/// them are lines and the other half crosses, or the other way round. A way that would break
/// the board's invariants (see [`blocked`]) cannot be: the other way holds. Loop closure,
/// with linked edges as one move.
fn linked_closures(board: &mut Board) -> Result<u64, Contradiction> {
    linked_closures_at(board, JOINED)
}

/// [`linked_closures`] with the least sizes of two joined classes (together and each) that
/// the regions check looks at.
fn linked_closures_at(board: &mut Board, joined: (usize, usize)) -> Result<u64, Contradiction> {
    let mut found: Vec<(usize, u8)> = Vec::new();
    let mut sides = None;
    let mut scratch = Scratch::default();
    for group in linked_groups(board).iter() {
        if let Some((way, _)) = blocked_way(board, &mut sides, &mut scratch, joined, group) {
            for &(e, o) in group {
                found.push((e, if o == way { CROSS } else { LINE }));
            }
        }
    }
    let mut decided = 0;
    for (e, state) in found {
        if board.at(e) == UNKNOWN {
            decided += u64::from(board.set_edge(e, state, Reason::By(Deducer::Connectivity))?);
        }
    }
    Ok(decided)
}

/// The unknown edges between cells of two different colour classes, grouped by the pair of
/// classes (groups in the order of the pair, edges in board order: the deductions and their
/// explanation do not depend on hashing), each with its offset: the xor of its two cells'
/// colours relative to their classes. The edges of one offset are lines exactly when the
/// others are crosses.
struct LinkedGroups {
    /// Every such edge with its offset, group after group.
    edges: Vec<(usize, u8)>,
    /// Where each group ends in `edges`.
    ends: Vec<usize>,
}

impl LinkedGroups {
    fn iter(&self) -> impl Iterator<Item = &[(usize, u8)]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.edges[a..b])
    }
}

fn linked_groups(board: &Board) -> LinkedGroups {
    let mut keyed: Vec<(u64, usize, u8)> = Vec::new();
    if let Some(colouring) = board.colouring() {
        for e in board.grid_edges() {
            if board.at(e) != UNKNOWN {
                continue;
            }
            let [p, q] = board.edge_cells(e);
            let (rp, pp) = colouring.find((p >> 1) as u32);
            let (rq, pq) = colouring.find((q >> 1) as u32);
            if rp != rq {
                let key = (u64::from(rp.min(rq)) << 32) | u64::from(rp.max(rq));
                keyed.push((key, e, pp ^ pq));
            }
        }
    }
    // A stable sort: within a group the edges stay in board order.
    keyed.sort_by_key(|&(key, _, _)| key);
    let mut ends = Vec::new();
    for (i, w) in keyed.windows(2).enumerate() {
        if w[0].0 != w[1].0 {
            ends.push(i + 1);
        }
    }
    if !keyed.is_empty() {
        ends.push(keyed.len());
    }
    LinkedGroups {
        edges: keyed.into_iter().map(|(_, e, o)| (e, o)).collect(),
        ends,
    }
}

/// The fewest cells two classes of unknown side must hold together, and each of them, for
/// the regions check of a way that joins them. Measured on the Slitherlink corpus (finished
/// by deduction alone; whole-process time of the default solve against the binary before
/// the check): every pair 473 at 1.17x; 4 and 2, 472 at 1.06x; 6 and 3, 470 at 1.01x; no
/// pair, 464.
const JOINED: (usize, usize) = (6, 3);

/// A node's side in [`Sides`]: not known, inside, outside.
const OPEN: u8 = 0;
const INSIDE: u8 = 1;
const OUTSIDE: u8 = 2;

/// What the regions check of a way reads, once per run: every grid cell's known side (and
/// the outside of the grid, node `rows * cols`, outside), the cells of each colour class not
/// tied to the outside with their colours relative to the class, and room for a way's sides
/// and a search.
struct Sides {
    rows: usize,
    cols: usize,
    known: Vec<u8>,
    /// The cells of the classes of unknown side with their colours relative to their class,
    /// class after class (in board order within a class), and per colour key, where the
    /// class it is the root of lies in `members` (`[u32::MAX, 0]` for none).
    members: Vec<(usize, u8)>,
    class_at: Vec<[u32; 2]>,
    /// Known cells per side (by [`INSIDE`] and [`OUTSIDE`]; the outside of the grid counted).
    counts: [usize; 3],
    /// Every node's neighbours, node after node (the outside of the grid, node `rows * cols`,
    /// beside every border cell; each grid cell's in the order outside, up, down, left,
    /// right), and where each node's list starts (`rows * cols + 2` entries): a table made
    /// once per run, so that the searches step along a slice.
    adjacent: Vec<u32>,
    adjacent_at: Vec<u32>,
    side: Vec<u8>,
    /// Cells a way placed, per side.
    placed: [usize; 3],
    /// The cells a way placed, per side.
    placed_cells: [Vec<usize>; 3],
    /// The union-find over the searches of [`Sides::joined_around`].
    parent: Vec<u32>,
    /// Per node, the stamp of the last search that reached it (in
    /// [`Sides::joined_around`], the stamp of its first search's number: one stamp a search).
    seen: Vec<u32>,
    /// The last stamp given.
    stamp: u32,
    queue: Vec<usize>,
}

impl Sides {
    fn read(board: &Board) -> Sides {
        let (rows, cols) = (board.rows(), board.cols());
        let n = rows * cols;
        let mut known = vec![OPEN; n + 1];
        // Cells of unknown side by their class's root, placed class after class by counting.
        let mut keyed: Vec<(u32, usize, u8)> = Vec::new();
        let mut class_at = vec![[u32::MAX, 0]; board.len() / 2 + 1];
        if let Some(colouring) = board.colouring() {
            let (ro, po) = colouring.find((board.index(-1, 1) >> 1) as u32);
            for (k, slot) in known.iter_mut().take(n).enumerate() {
                let cell = lattice(board, cols, k);
                let (root, p) = colouring.find((cell >> 1) as u32);
                if root == ro {
                    *slot = if p != po { INSIDE } else { OUTSIDE };
                } else {
                    class_at[root as usize][1] += 1;
                    keyed.push((root, k, p));
                }
            }
        }
        let mut members = vec![(0, 0); keyed.len()];
        let mut next = 0;
        for &(root, k, p) in &keyed {
            let at = &mut class_at[root as usize];
            if at[0] == u32::MAX {
                // The class's first cell: its count becomes the next free place.
                at[0] = next;
                next += at[1];
                at[1] = at[0];
            }
            members[at[1] as usize] = (k, p);
            at[1] += 1;
        }
        known[n] = OUTSIDE;
        let mut counts = [0; 3];
        for &s in &known {
            counts[s as usize] += 1;
        }
        let (adjacent, adjacent_at) = Self::adjacency(rows, cols);
        let side = known.clone();
        Sides {
            rows,
            cols,
            known,
            members,
            class_at,
            counts,
            adjacent,
            adjacent_at,
            side,
            placed: [0; 3],
            placed_cells: [Vec::new(), Vec::new(), Vec::new()],
            parent: Vec::new(),
            seen: vec![0; n + 1],
            stamp: 0,
            queue: Vec::with_capacity(n + 1),
        }
    }

    /// If a group joins the outside's class to another, whether drawing lines on the edges of
    /// offset `way` would split a side: the cells of the other class then have known sides
    /// (by the group's first edge), and the cells of each side must stay joined side to side
    /// through cells not on the other side (the outside through the outside of the grid).
    /// Only a class of two cells or more is looked at: one cell that would split a side
    /// is the regions deducer's.
    fn splits(
        sides: &mut Option<Sides>,
        board: &Board,
        (together, each): (usize, usize),
        group: &[(usize, u8)],
        way: u8,
    ) -> Option<Blocked> {
        let colouring = board.colouring()?;
        let &(e, o) = group.first()?;
        let [p, q] = board.edge_cells(e);
        let (rp, pp) = colouring.find((p >> 1) as u32);
        let (rq, pq) = colouring.find((q >> 1) as u32);
        let outside = colouring.find((board.index(-1, 1) >> 1) as u32).0;
        let line = o == way;
        if rp != outside && rq != outside {
            // Neither class has a known side: the way joins them into one, and it cannot be
            // if a side is split whichever side that class takes.
            let me = sides.get_or_insert_with(|| Sides::read(board));
            let (a, b) = (me.class(rp), me.class(rq));
            if a.len() + b.len() < together || a.len().min(b.len()) < each {
                return None;
            }
            let mut found = [None; 2];
            for (slot, p_inside) in found.iter_mut().zip([true, false]) {
                let q_inside = p_inside != line;
                me.reset();
                for (members, inside, parity) in
                    [(a.clone(), p_inside, pp), (b.clone(), q_inside, pq)]
                {
                    for i in members {
                        let (k, pk) = me.members[i];
                        me.place(k, inside != (pk != parity));
                    }
                }
                *slot = me.split_any(board);
                if slot.is_none() {
                    break;
                }
            }
            let [Some(one), Some(other)] = found else {
                return None;
            };
            let found = [one, other];
            return Some(Blocked::SplitEither(found));
        }
        let me = sides.get_or_insert_with(|| Sides::read(board));
        // `known` lies in the outside's class; the other cell, in the class whose side is decided.
        let (known, root, parity) = if rp == outside {
            (p, rq, pq)
        } else {
            (q, rp, pp)
        };
        let other_inside = colouring.inside(known)? != line;
        let members = me.class(root);
        if members.len() < 2 {
            return None;
        }
        me.reset();
        for i in members {
            let (k, pk) = me.members[i];
            me.place(k, other_inside != (pk != parity));
        }
        let (inside, a, b) = me.split_any(board)?;
        Some(Blocked::SplitSide(inside, a, b))
    }

    /// Where the class of root `root` lies in `members` (empty for a class of known side).
    fn class(&self, root: u32) -> std::ops::Range<usize> {
        match self.class_at[root as usize] {
            [u32::MAX, _] => 0..0,
            [a, b] => a as usize..b as usize,
        }
    }

    /// Resets `side` to the known sides, before a way's cells are placed with [`Sides::place`]:
    /// only the cells the last way placed differ from them.
    fn reset(&mut self) {
        for cells in &self.placed_cells {
            for &k in cells {
                self.side[k] = self.known[k];
            }
        }
        self.placed = [0; 3];
        self.placed_cells.iter_mut().for_each(Vec::clear);
    }

    fn place(&mut self, k: usize, inside: bool) {
        let s = if inside { INSIDE } else { OUTSIDE };
        self.side[k] = s;
        self.placed[s as usize] += 1;
        self.placed_cells[s as usize].push(k);
    }

    /// The neighbour table of a `rows` by `cols` grid and where each node's list starts (see
    /// [`Sides::adjacent`]).
    fn adjacency(rows: usize, cols: usize) -> (Vec<u32>, Vec<u32>) {
        let n = rows * cols;
        let mut adjacent = Vec::with_capacity(4 * n + 2 * (rows + cols));
        let mut adjacent_at = Vec::with_capacity(n + 2);
        let mut border = Vec::with_capacity(2 * (rows + cols));
        for r in 0..rows {
            for c in 0..cols {
                let v = r * cols + c;
                adjacent_at.push(adjacent.len() as u32);
                if r == 0 || c == 0 || r + 1 == rows || c + 1 == cols {
                    adjacent.push(n as u32);
                    border.push(v as u32);
                }
                if r > 0 {
                    adjacent.push((v - cols) as u32);
                }
                if r + 1 < rows {
                    adjacent.push((v + cols) as u32);
                }
                if c > 0 {
                    adjacent.push((v - 1) as u32);
                }
                if c + 1 < cols {
                    adjacent.push((v + 1) as u32);
                }
            }
        }
        adjacent_at.push(adjacent.len() as u32);
        adjacent.extend_from_slice(&border);
        adjacent_at.push(adjacent.len() as u32);
        (adjacent, adjacent_at)
    }

    /// The neighbours of node `v`, from the table `adjacent` and its starts `at`.
    #[inline]
    fn neighbours<'a>(adjacent: &'a [u32], at: &[u32], v: usize) -> &'a [u32] {
        &adjacent[at[v] as usize..at[v + 1] as usize]
    }

    /// Whether the nodes open to side `mine` beside the cells just placed on the other side
    /// are still joined to each other without them (a search from all of them at once, that
    /// stops when they meet): if so, those cells split nothing that was joined before. If
    /// not, the search has gone through every part of the side's open nodes that those
    /// nodes lie in, and its parts tell whether the side is split (`total` of its nodes)
    /// unless at most one of them holds nodes of the side and some are elsewhere.
    fn joined_around(&mut self, mine: u8, total: usize) -> Around {
        let other = INSIDE + OUTSIDE - mine;
        // Search `i` stamps the nodes it reaches first with `base + i`: a node was reached
        // when its stamp is `base` or more. Stamps start again before they could run out.
        if self.stamp > u32::MAX / 2 {
            self.seen.fill(0);
            self.stamp = 0;
        }
        let base = self.stamp + 1;
        self.queue.clear();
        self.parent.clear();
        let (seen, queue, parent, side) = (
            &mut self.seen,
            &mut self.queue,
            &mut self.parent,
            &self.side,
        );
        let (adjacent, at) = (&self.adjacent[..], &self.adjacent_at[..]);
        for &k in &self.placed_cells[other as usize] {
            for &u in Self::neighbours(adjacent, at, k) {
                let u = u as usize;
                if seen[u] < base && side[u] != other {
                    seen[u] = base + parent.len() as u32;
                    parent.push(parent.len() as u32);
                    queue.push(u);
                }
            }
        }
        self.stamp = base + parent.len() as u32;
        let mut sets = parent.len();
        fn find(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        }
        let mut next = 0;
        while sets > 1 && next < queue.len() {
            let v = queue[next];
            next += 1;
            // The root of `v`'s search, kept a root: the others join it.
            let root = find(parent, seen[v] - base);
            for &u in Self::neighbours(adjacent, at, v) {
                let u = u as usize;
                if side[u] == other {
                    continue;
                }
                if seen[u] < base {
                    seen[u] = base + root;
                    queue.push(u);
                } else {
                    let a = find(parent, seen[u] - base);
                    if a != root {
                        parent[a as usize] = root;
                        sets -= 1;
                    }
                }
            }
        }
        if sets <= 1 {
            return Around::Joined;
        }
        // Every part reached: the nodes of side `mine` in each.
        let (mut first, mut reached) = (None, 0);
        for &u in queue.iter() {
            if side[u] != mine {
                continue;
            }
            reached += 1;
            let root = find(parent, seen[u] - base);
            match first {
                None => first = Some(root),
                Some(r) if r != root => return Around::Split,
                Some(_) => {}
            }
        }
        if reached == total {
            Around::Joined
        } else {
            Around::Unsure
        }
    }

    /// With the sides of `side`: a side that is split, and two of its cells cut apart (the
    /// first `None` for the outside of the grid), as lattice indices. A side none of whose
    /// paths the cells placed block is not searched (the regions deducer keeps it joined).
    fn split_any(&mut self, board: &Board) -> Option<(bool, Option<usize>, usize)> {
        let n = self.rows * self.cols;
        for mine in [INSIDE, OUTSIDE] {
            let other = INSIDE + OUTSIDE - mine;
            let total = self.counts[mine as usize] + self.placed[mine as usize];
            if self.placed[other as usize] == 0 || total < 2 {
                continue;
            }
            let cut = match self.joined_around(mine, total) {
                Around::Joined => None,
                Around::Split => Some(self.cut_apart(mine)),
                Around::Unsure => self.split(mine, total),
            };
            if let Some((a, b)) = cut {
                let lattice = |k: usize| (k != n).then(|| lattice(board, self.cols, k));
                return Some((mine == INSIDE, lattice(a), lattice(b).expect("a grid cell")));
            }
        }
        None
    }

    /// Two nodes of side `mine` (of which there are `total`) that no path through nodes not
    /// on the other side joins, if the side is split (the outside of the grid, beside every
    /// border cell, is the outside's first node, and is named first).
    fn split(&mut self, mine: u8, total: usize) -> Option<(usize, usize)> {
        let n = self.rows * self.cols;
        let start = if mine == OUTSIDE {
            n
        } else {
            self.side.iter().position(|&s| s == mine)?
        };
        if self.part_of(start, mine, total) == total {
            return None;
        }
        Some(self.cut_apart(mine))
    }

    /// The nodes of side `mine` that paths through nodes not on the other side join to
    /// `start`, counted up to `total` (the search stops there); those it reached are marked
    /// with the current stamp.
    fn part_of(&mut self, start: usize, mine: u8, total: usize) -> usize {
        let other = INSIDE + OUTSIDE - mine;
        self.stamp += 1;
        let stamp = self.stamp;
        self.queue.clear();
        self.seen[start] = stamp;
        self.queue.push(start);
        let (seen, queue, side) = (&mut self.seen, &mut self.queue, &self.side);
        let mut reached = 1;
        let mut at = 0;
        while at < queue.len() && reached < total {
            let v = queue[at];
            at += 1;
            for &u in Self::neighbours(&self.adjacent, &self.adjacent_at, v) {
                let u = u as usize;
                if seen[u] != stamp && side[u] != other {
                    seen[u] = stamp;
                    queue.push(u);
                    reached += usize::from(side[u] == mine);
                }
            }
        }
        reached
    }

    /// On a split side `mine`, two of its nodes cut apart, named for a person reading the
    /// step: the one nearest the cells the way placed, and the nearest of those it cannot
    /// reach (the outside of the grid first when it is one of them). Runs only when a split is
    /// found.
    fn cut_apart(&mut self, mine: u8) -> (usize, usize) {
        let (rows, cols) = (self.rows, self.cols);
        let other = INSIDE + OUTSIDE - mine;
        // Every node, by its distance from the placed cells (a search from all of them).
        self.stamp += 1;
        let stamp = self.stamp;
        self.queue.clear();
        for &k in &self.placed_cells[other as usize] {
            if self.seen[k] != stamp {
                self.seen[k] = stamp;
                self.queue.push(k);
            }
        }
        let (seen, queue) = (&mut self.seen, &mut self.queue);
        let mut at = 0;
        while at < queue.len() {
            let v = queue[at];
            at += 1;
            for &u in Self::neighbours(&self.adjacent, &self.adjacent_at, v) {
                let u = u as usize;
                if seen[u] != stamp {
                    seen[u] = stamp;
                    queue.push(u);
                }
            }
        }
        let near: Vec<usize> = queue
            .iter()
            .copied()
            .filter(|&u| self.side[u] == mine)
            .collect();
        let a = near[0];
        self.part_of(a, mine, usize::MAX);
        let stamp = self.stamp;
        let b = *near
            .iter()
            .find(|&&u| self.seen[u] != stamp)
            .expect("a split side has a node the search did not reach");
        if b == rows * cols { (b, a) } else { (a, b) }
    }
}

/// What [`Sides::joined_around`] found of a side.
enum Around {
    /// The side is joined as it was.
    Joined,
    /// The side is split.
    Split,
    /// The nodes beside the cells placed lie in parts of which at most one holds nodes of
    /// the side, and some of the side's nodes lie in no part reached: a search from one of
    /// them tells.
    Unsure,
}

/// The way of a linked group that cannot be, if one cannot: the offset whose edges would be
/// lines, and why.
/// `sides` is read on the first group that needs it.
fn blocked_way(
    board: &Board,
    sides: &mut Option<Sides>,
    scratch: &mut Scratch,
    joined: (usize, usize),
    group: &[(usize, u8)],
) -> Option<(u8, Blocked)> {
    (0..2u8).find_map(|way| {
        let Scratch { lines, work } = scratch;
        lines.clear();
        lines.extend(group.iter().filter(|&&(_, o)| o == way).map(|&(e, _)| e));
        let why = blocked(board, lines, work)
            .or_else(|| Sides::splits(sides, board, joined, group, way))?;
        Some((way, why))
    })
}

/// Buffers for [`blocked_way`] and [`blocked`], kept for a run's groups.
#[derive(Default)]
struct Scratch {
    /// The edges of the way looked at.
    lines: Vec<usize>,
    work: Work,
}

/// [`blocked`]'s lists: the dots touched, the clue cells touched, the chains' links, the
/// dots where loops close, and the dots and clue cells with the lines they get.
#[derive(Default)]
struct Work {
    dots: Vec<usize>,
    clue_cells: Vec<usize>,
    parent: Vec<(usize, usize)>,
    loops: Vec<usize>,
    added: Vec<(usize, u8)>,
    clue_lines: Vec<(usize, u8)>,
}

/// Why a way of drawing a set of unknown edges cannot be part of the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// This dot (lattice index) would have three lines.
    ThreeLines(usize),
    /// A loop would close at this dot with lines left off it.
    LinesLeftOff(usize),
    /// Two loops would close (at these dots).
    TwoLoops(usize, usize),
    /// The loop would close, at this dot, with the clue of this cell unmet.
    ClueUnmet(usize, usize),
    /// The inside (`true`) or the outside would be split: these two of its cells (the first
    /// `None` for the outside of the grid) would be cut apart by cells of the other side.
    SplitSide(bool, Option<usize>, usize),
    /// The two classes, joined, would split a side whether their cells were placed one way
    /// (the first cell of the group's first edge inside) or the other: for each, as in
    /// [`Blocked::SplitSide`].
    SplitEither([(bool, Option<usize>, usize); 2]),
}

/// What explains a linked-edges step: the group's edges that would be lines in the way that
/// cannot be (lattice indices), those that would be crosses, and why it cannot be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linked {
    /// The edges that would be lines.
    pub lines: Vec<usize>,
    /// The edges that would be crosses.
    pub crosses: Vec<usize>,
    /// Why it cannot be.
    pub why: Blocked,
}

/// For an explanation: on the board as it was before a connectivity run, every linked group
/// with a way that cannot be, and why.
pub fn why_linked(board: &Board) -> Vec<Linked> {
    why_linked_at(board, JOINED)
}

fn why_linked_at(board: &Board, joined: (usize, usize)) -> Vec<Linked> {
    let mut sides = None;
    let mut scratch = Scratch::default();
    linked_groups(board)
        .iter()
        .filter_map(|group| {
            let (way, why) = blocked_way(board, &mut sides, &mut scratch, joined, group)?;
            let pick = |line: bool| {
                group
                    .iter()
                    .filter(|&&(_, o)| (o == way) == line)
                    .map(|&(e, _)| e)
                    .collect()
            };
            Some(Linked {
                lines: pick(true),
                crosses: pick(false),
                why,
            })
        })
        .collect()
}

/// Why lines on all of `lines` (unknown edges) could not be part of the answer, if they
/// could not: a dot with three lines, or a loop that is not the whole answer (lines left off
/// it, a second loop, a clue unmet).
fn blocked(board: &Board, lines: &[usize], work: &mut Work) -> Option<Blocked> {
    // Dots and clue cells touched, with the lines they get (in board order), counted from
    // sorted lists: a group has few edges, so no map is needed.
    fn counted(keys: &mut [usize], counts: &mut Vec<(usize, u8)>) {
        keys.sort_unstable();
        counts.clear();
        for &k in keys.iter() {
            match counts.last_mut() {
                Some((last, n)) if *last == k => *n += 1,
                _ => counts.push((k, 1)),
            }
        }
    }
    let Work {
        dots,
        clue_cells,
        parent,
        loops,
        added,
        clue_lines,
    } = work;
    dots.clear();
    clue_cells.clear();
    // Chains joined so far: each dot stands for its chain (a dot with one line by the lower
    // of its chain's two ends); `parent` holds the links (dot, the dot it was joined to).
    parent.clear();
    loops.clear();
    fn find(parent: &[(usize, usize)], mut x: usize) -> usize {
        while let Some(&(_, up)) = parent.iter().find(|&&(d, _)| d == x) {
            x = up;
        }
        x
    }
    let chain = |d: usize| {
        if board.dot_lines(d) == 1 {
            d.min(board.chain_end(d))
        } else {
            d
        }
    };
    for &e in lines {
        let [a, b] = board.edge_dots(e);
        dots.extend([a, b]);
        for c in board.edge_cells(e) {
            if clue_of(board.at(c)).is_some() {
                clue_cells.push(c);
            }
        }
        let (ra, rb) = (find(parent, chain(a)), find(parent, chain(b)));
        if ra == rb {
            loops.push(a);
        } else {
            parent.push((ra, rb));
        }
    }
    counted(dots, added);
    counted(clue_cells, clue_lines);
    let mut ends = board.ends_count() as isize;
    for &(d, n) in added.iter() {
        let before = board.dot_lines(d);
        let after = before + n;
        if after > 2 {
            return Some(Blocked::ThreeLines(d));
        }
        ends += isize::from(after == 1) - isize::from(before == 1);
    }
    match loops[..] {
        [] => return None,
        [at] if ends > 0 => return Some(Blocked::LinesLeftOff(at)),
        [at] => {
            for &(c, n) in clue_lines.iter() {
                let clue = clue_of(board.at(c)).unwrap_or(0);
                if board.cell_lines(c) + n != clue {
                    return Some(Blocked::ClueUnmet(at, c));
                }
            }
        }
        [a, b, ..] => return Some(Blocked::TwoLoops(a, b)),
    }
    // The closed loop holds every line: every clue cell it does not touch must be met.
    let touched = |c: &usize| clue_lines.binary_search_by_key(c, |&(k, _)| k).is_ok();
    let unmet_elsewhere = board.unsatisfied()
        - clue_lines
            .iter()
            .filter(|&&(c, _)| Some(board.cell_lines(c)) != clue_of(board.at(c)))
            .count();
    if unmet_elsewhere > 0 {
        let cell = board.grid_cells().find(|c| {
            !touched(c) && clue_of(board.at(*c)).is_some_and(|k| k != board.cell_lines(*c))
        });
        return cell.map(|c| Blocked::ClueUnmet(loops[0], c));
    }
    None
}

/// Every grid edge (lattice index, in the order of [`Board::grid_edges`]) with the nodes of
/// its two dots (as [`Board::edge_dots`] names them) in the graph, row-major over the grid's
/// dots: counted along the rows, no division per edge.
fn edges_with_nodes(board: &Board) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let (rows, cols) = (board.rows(), board.cols());
    let width = cols + 1;
    (0..=2 * rows).flat_map(move |y| {
        let first = (y / 2) * width;
        let (x, count, down) = if y % 2 == 0 {
            (1, cols, 1)
        } else {
            (0, cols + 1, width)
        };
        let start = board.index(y as isize, x);
        (0..count).map(move |k| (start + 2 * k, first + k, first + k + down))
    })
}

/// Every unknown bridge becomes a cross; a line that is a bridge is a contradiction.
fn crosses_bridges(board: &mut Board) -> Result<u64, Contradiction> {
    let dots = (board.rows() + 1) * (board.cols() + 1);
    let mut graph = UnGraph::<(), u32>::with_capacity(dots, board.edge_count());
    for _ in 0..dots {
        graph.add_node(());
    }
    for (e, a, b) in edges_with_nodes(board) {
        if board.at(e) != CROSS {
            graph.add_edge(NodeIndex::new(a), NodeIndex::new(b), e as u32);
        }
    }
    let bridges: Vec<usize> = petgraph::algo::bridges::bridges(&graph)
        .map(|edge| *edge.weight() as usize)
        .collect();
    let mut decided = 0;
    for e in bridges {
        match board.at(e) {
            LINE => return Err(board.contradiction(Why::Unjoinable, e)),
            UNKNOWN => {
                decided +=
                    u64::from(board.set_edge(e, CROSS, Reason::By(Deducer::Connectivity))?);
            }
            _ => {}
        }
    }
    Ok(decided)
}

/// Lines in two parts of the graph are a contradiction; the unknown edges of a part without
/// lines are crosses.
fn crosses_parts_without_lines(board: &mut Board) -> Result<u64, Contradiction> {
    if board.line_count() == 0 {
        return Ok(0);
    }
    let dots = (board.rows() + 1) * (board.cols() + 1);
    let mut parts = UnionFind::<usize>::new(dots);
    let mut first_line = None;
    for (e, a, b) in edges_with_nodes(board) {
        let state = board.at(e);
        if state != CROSS {
            parts.union(a, b);
            if state == LINE && first_line.is_none() {
                first_line = Some(a);
            }
        }
    }
    let Some(first) = first_line else {
        return Ok(0);
    };
    let lines_part = parts.find(first);
    let mut to_cross = Vec::new();
    for (e, a, _) in edges_with_nodes(board) {
        match board.at(e) {
            LINE if parts.find(a) != lines_part => {
                return Err(board.contradiction(Why::Unjoinable, e));
            }
            UNKNOWN if parts.find(a) != lines_part => to_cross.push(e),
            _ => {}
        }
    }
    let mut decided = 0;
    for e in to_cross {
        decided += u64::from(board.set_edge(e, CROSS, Reason::By(Deducer::Connectivity))?);
    }
    Ok(decided)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Tracking;
    use crate::puzzle::parse_all;

    fn board(text: &str) -> Board {
        let puzzle = parse_all("t", text.as_bytes()).unwrap().remove(0);
        Board::new(&puzzle, 4, Tracking::default())
    }

    fn h(b: &Board, r: isize, c: isize) -> usize {
        b.index(2 * r, 2 * c + 1)
    }

    fn v(b: &Board, r: isize, c: isize) -> usize {
        b.index(2 * r + 1, 2 * c)
    }

    /// A 1x3 blank grid is two rings of four edges (the end cells) joined by the middle
    /// cell's top and bottom edges.
    fn rooms() -> Board {
        board("1 3\n. . .\n0 0\n")
    }

    #[test]
    fn a_corridor_between_two_rooms_is_crossed() {
        // With the bottom of the middle cell crossed, its top is the only way between the
        // rings: a bridge, on no cycle.
        let mut b = rooms();
        b.set_edge(h(&b, 1, 1), CROSS, Reason::Given).unwrap();
        assert_eq!(deduce(&mut b).unwrap(), 1);
        assert_eq!(b.at(h(&b, 0, 1)), CROSS, "the corridor is a bridge");
        for e in [v(&b, 0, 1), v(&b, 0, 2), h(&b, 0, 0), h(&b, 0, 2)] {
            assert_eq!(b.at(e), UNKNOWN, "the rings are cycles");
        }
    }

    #[test]
    fn a_part_without_lines_is_crossed_once_a_line_is_drawn_elsewhere() {
        let mut b = rooms();
        for e in [h(&b, 0, 1), h(&b, 1, 1)] {
            b.set_edge(e, CROSS, Reason::Given).unwrap();
        }
        assert_eq!(
            deduce(&mut b).unwrap(),
            0,
            "no line yet: either ring may hold the loop"
        );
        b.set_edge(v(&b, 0, 0), LINE, Reason::Given).unwrap();
        assert_eq!(deduce(&mut b).unwrap(), 4);
        for e in [h(&b, 0, 2), h(&b, 1, 2), v(&b, 0, 2), v(&b, 0, 3)] {
            assert_eq!(b.at(e), CROSS);
        }
        assert_eq!(b.at(h(&b, 0, 0)), UNKNOWN, "the left ring keeps its edges");
    }

    #[test]
    fn lines_that_cannot_meet_are_a_contradiction() {
        let mut b = rooms();
        for e in [h(&b, 0, 1), h(&b, 1, 1)] {
            b.set_edge(e, CROSS, Reason::Given).unwrap();
        }
        b.set_edge(v(&b, 0, 0), LINE, Reason::Given).unwrap();
        b.set_edge(v(&b, 0, 3), LINE, Reason::Given).unwrap();
        let c = deduce(&mut b).unwrap_err();
        assert_eq!(c.why, Why::Unjoinable);
        assert!(c.to_string().contains("cannot be joined"), "{c}");
    }

    #[test]
    fn linked_edges_that_would_close_a_loop_early_hold_in_every_answer_brute_force() {
        use crate::deduce::brute_force::{Case, loops, random_from};
        let mut random = random_from(0x9e37_79b9_7f4a_7c15);
        let mut decided_somewhere = 0;
        for shape in [(3, 3), (3, 4), (4, 3), (4, 4)] {
            let loops = loops(shape.0, shape.1);
            for _ in 0..300 {
                let mut case = Case::random(&loops, shape, (4, 4), &mut random);
                decided_somewhere += usize::from(case.check(|b| {
                    b.start_colouring()?;
                    linked_closures(b)
                }));
            }
        }
        assert!(decided_somewhere > 200, "{decided_somewhere}");
    }

    #[test]
    fn linked_edges_that_would_split_a_side_hold_in_every_answer_brute_force() {
        use crate::deduce::brute_force::{Case, loops, random_from};
        let mut random = random_from(0x2545_f491_4f6c_dd1d);
        // Ways ruled out with one class placed, and with two classes of unknown side joined.
        let (mut placed, mut joined) = (0, 0);
        for (shape, given) in [((3, 4), 5), ((4, 4), 5), ((4, 5), 5), ((4, 5), 6)] {
            let loops = loops(shape.0, shape.1);
            for _ in 0..400 {
                let mut case = Case::random(&loops, shape, (3, given), &mut random);
                if case.board.start_colouring().is_err() {
                    continue;
                }
                // Every pair of classes, not only the large ones the solver looks at.
                let why = why_linked_at(&case.board, (2, 1));
                let count = |f: fn(&Blocked) -> bool| why.iter().filter(|l| f(&l.why)).count();
                let one = count(|w| matches!(w, Blocked::SplitSide(..)));
                let two = count(|w| matches!(w, Blocked::SplitEither(..)));
                (placed, joined) = (placed + one, joined + two);
                let decided = case.check(|b| linked_closures_at(b, (2, 1)));
                assert!(one + two == 0 || decided, "{}", case.text);
            }
        }
        assert!(placed > 20 && joined > 20, "{placed} {joined}");
    }

    #[test]
    fn edges_with_nodes_names_every_edges_dots_in_board_order() {
        for text in ["1 3\n. . .\n0 0\n", "3 2\n. .\n. .\n. .\n0 0\n"] {
            let b = board(text);
            let node = |dot: usize| {
                let (y, x) = b.point(dot);
                (y as usize / 2) * (b.cols() + 1) + x as usize / 2
            };
            let expected: Vec<(usize, usize, usize)> = b
                .grid_edges()
                .map(|e| {
                    let [p, q] = b.edge_dots(e);
                    (e, node(p), node(q))
                })
                .collect();
            assert_eq!(edges_with_nodes(&b).collect::<Vec<_>>(), expected);
        }
    }

    #[test]
    fn a_line_that_is_a_bridge_is_a_contradiction() {
        let mut b = rooms();
        b.set_edge(h(&b, 1, 1), CROSS, Reason::Given).unwrap();
        b.set_edge(h(&b, 0, 1), LINE, Reason::Given).unwrap();
        assert_eq!(deduce(&mut b).unwrap_err().why, Why::Unjoinable);
    }
}
