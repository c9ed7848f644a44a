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
/// the cells placed.
pub fn deduce(board: &mut Board) -> Result<u64, Contradiction> {
    if board.unknown() == 0 || board.colouring().is_none() {
        return Ok(0);
    }
    let graph = Graph::new(board.rows(), board.cols());
    let explained = board.tracking().reasons;
    let mut decided = 0;
    for inside in [true, false] {
        let node = kinds(board, &graph, inside);
        let found = side(board, &graph, &node, inside)?;
        // For explanations: two cells of the side each cell found alone joins.
        let joins: Vec<Option<(u32, Option<u32>)>> = if explained {
            let border = node.len() - 1;
            found
                .iter()
                .map(|&(k, on)| {
                    (on == inside).then(|| {
                        let (a, b) = apart_by(&graph, &node, k);
                        let lattice = |k: usize| graph.lattice(board, k) as u32;
                        (lattice(a), (b != border).then(|| lattice(b)))
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        decided += place(board, &graph, &found, &joins)?;
    }
    Ok(decided)
}

/// The cells of a grid joined side to side, plus the outside of the grid (node `rows * cols`)
/// beside every border cell, as adjacency lists.
struct Graph {
    cols: usize,
    /// Where each node's neighbours start in `next`.
    start: Vec<usize>,
    next: Vec<usize>,
}

impl Graph {
    fn new(rows: usize, cols: usize) -> Graph {
        let n = rows * cols;
        let mut lists: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for k in 0..n {
            let (r, c) = (k / cols, k % cols);
            for (ok, other) in [
                (r > 0, k.wrapping_sub(cols)),
                (r + 1 < rows, k + cols),
                (c > 0, k.wrapping_sub(1)),
                (c + 1 < cols, k + 1),
            ] {
                if ok {
                    lists[k].push(other);
                } else if !lists[k].contains(&n) {
                    lists[k].push(n);
                    lists[n].push(k);
                }
            }
        }
        let mut start = Vec::with_capacity(n + 2);
        let mut next = Vec::with_capacity(4 * n + 4 * (rows + cols));
        for list in &lists {
            start.push(next.len());
            next.extend_from_slice(list);
        }
        start.push(next.len());
        Graph { cols, start, next }
    }

    fn neighbours(&self, v: usize) -> &[usize] {
        &self.next[self.start[v]..self.start[v + 1]]
    }

    /// The board's lattice index of cell node `k`.
    fn lattice(&self, board: &Board, k: usize) -> usize {
        board.index(
            2 * (k / self.cols) as isize + 1,
            2 * (k % self.cols) as isize + 1,
        )
    }
}

/// Per node, for one side: left out (known on the other side), open (colour unknown) or a
/// terminal (known on this side).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Node {
    Out,
    Open,
    Terminal,
}

/// Every node's kind for one side (`inside`).
fn kinds(board: &Board, graph: &Graph, inside: bool) -> Vec<Node> {
    let colouring = board.colouring().expect("colouring is on");
    let n = graph.start.len() - 2;
    let mut node: Vec<Node> = (0..n)
        .map(|k| match colouring.inside(graph.lattice(board, k)) {
            Some(s) if s == inside => Node::Terminal,
            Some(_) => Node::Out,
            None => Node::Open,
        })
        .collect();
    // The outside of the grid is outside; for the inside it is not in the graph.
    node.push(if inside { Node::Out } else { Node::Terminal });
    node
}

/// The open cells (grid indices) that the connectedness of one side (`inside`) places: on
/// that side (`true`) or on the other.
fn side(
    board: &Board,
    graph: &Graph,
    node: &[Node],
    inside: bool,
) -> Result<Vec<(usize, bool)>, Contradiction> {
    let n = node.len() - 1;
    let total = node.iter().filter(|&&k| k == Node::Terminal).count();
    if total == 0 {
        return Ok(Vec::new());
    }
    let mut search = Search::new(n + 1);
    let mut home = None;
    let mut found = Vec::new();
    // The parts: searched from their terminals first, so the part holding them is found
    // whole; open nodes left unreached afterwards lie in parts without terminals.
    for root in (0..=n).rev() {
        if node[root] != Node::Terminal || search.disc[root] != UNSEEN {
            continue;
        }
        if home.is_some() {
            // A terminal outside the part of the first: this side is split.
            return Err(
                board.contradiction(Why::SplitSide(inside), split_place(board, graph, root))
            );
        }
        home = Some(root);
        search.run(graph, node, root, total, &mut found);
    }
    let mut out: Vec<(usize, bool)> = found.into_iter().map(|k| (k, inside)).collect();
    out.extend(
        (0..n)
            .filter(|&k| node[k] == Node::Open && search.disc[k] == UNSEEN)
            .map(|k| (k, !inside)),
    );
    Ok(out)
}

/// The lattice index a split is reported at: the terminal cell found apart (or, for the
/// outside of the grid, the first border cell).
fn split_place(board: &Board, graph: &Graph, root: usize) -> usize {
    let n = graph.start.len() - 2;
    graph.lattice(board, if root == n { 0 } else { root })
}

const UNSEEN: u32 = u32::MAX;

/// A depth-first search with low points and terminal counts per subtree.
struct Search {
    disc: Vec<u32>,
    low: Vec<u32>,
    /// Terminals in the node's subtree.
    below: Vec<usize>,
    /// Terminals in the subtrees of the node's children that only it joins to the rest.
    cut_off: Vec<usize>,
    /// Of those children, how many have terminals.
    pieces: Vec<u32>,
}

impl Search {
    fn new(nodes: usize) -> Search {
        Search {
            disc: vec![UNSEEN; nodes],
            low: vec![0; nodes],
            below: vec![0; nodes],
            cut_off: vec![0; nodes],
            pieces: vec![0; nodes],
        }
    }

    /// Searches the part of `root`, which holds all `total` terminals; pushes onto `found` the
    /// open nodes whose removal leaves terminals in two parts.
    fn run(
        &mut self,
        graph: &Graph,
        node: &[Node],
        root: usize,
        total: usize,
        found: &mut Vec<usize>,
    ) {
        let mut time = 0;
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        self.enter(root, node, &mut time);
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            let around = graph.neighbours(v);
            if *i < around.len() {
                let u = around[*i];
                *i += 1;
                if node[u] == Node::Out {
                    continue;
                }
                if self.disc[u] == UNSEEN {
                    self.enter(u, node, &mut time);
                    stack.push((u, 0));
                } else {
                    self.low[v] = self.low[v].min(self.disc[u]);
                }
                continue;
            }
            stack.pop();
            if let Some(&(parent, _)) = stack.last() {
                self.low[parent] = self.low[parent].min(self.low[v]);
                self.below[parent] += self.below[v];
                if self.low[v] >= self.disc[parent] {
                    self.cut_off[parent] += self.below[v];
                    self.pieces[parent] += u32::from(self.below[v] > 0);
                }
            }
            if node[v] == Node::Open {
                // The pieces it leaves: the subtrees cut off, and the rest of the part.
                let rest = total - self.cut_off[v];
                if self.pieces[v] + u32::from(rest > 0) >= 2 {
                    found.push(v);
                }
            }
        }
    }

    fn enter(&mut self, v: usize, node: &[Node], time: &mut u32) {
        self.disc[v] = *time;
        self.low[v] = *time;
        *time += 1;
        self.below[v] = usize::from(node[v] == Node::Terminal);
    }
}

/// Writes the cells found: each related to the outside of the grid (with a note of why, from
/// `joins`, when reasons are tracked), and each edge between it and a neighbour of known
/// colour decided. Returns the edges decided plus the cells placed.
fn place(
    board: &mut Board,
    graph: &Graph,
    found: &[(usize, bool)],
    joins: &[Option<(u32, Option<u32>)>],
) -> Result<u64, Contradiction> {
    let outside = board.index(-1, 1);
    let stride = board.stride();
    let mut count = 0;
    for (i, &(k, inside)) in found.iter().enumerate() {
        let cell = graph.lattice(board, k);
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
fn apart_by(graph: &Graph, node: &[Node], v: usize) -> (usize, usize) {
    let first = by_distance(graph, node, v, &[])
        .into_iter()
        .find(|&k| node[k] == Node::Terminal)
        .expect("a terminal");
    let reached = by_distance(graph, node, first, &[v]);
    let mut seen = vec![false; node.len()];
    for k in reached {
        seen[k] = true;
    }
    let other = by_distance(graph, node, v, &[])
        .into_iter()
        .find(|&k| node[k] == Node::Terminal && !seen[k])
        .expect("v separates terminals");
    (first, other)
}

/// The nodes reachable from `from` without passing `avoid` or a left-out node, nearest first.
fn by_distance(graph: &Graph, node: &[Node], from: usize, avoid: &[usize]) -> Vec<usize> {
    let mut seen = vec![false; node.len()];
    seen[from] = true;
    for &a in avoid {
        seen[a] = true;
    }
    let mut order = vec![from];
    let mut k = 0;
    while k < order.len() {
        for &u in graph.neighbours(order[k]) {
            if !seen[u] && node[u] != Node::Out {
                seen[u] = true;
                order.push(u);
            }
        }
        k += 1;
    }
    order
}
