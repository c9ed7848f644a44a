//! Connectivity, a global deducer (`use connectivity`): the loop is one simple cycle in the graph of the edges not crossed (dots joined by lines and unknown edges), so it can use no bridge of that graph and lies in one connected part of it.
//!
//! The graph is walked on the board itself (dots as nodes, every line and unknown edge as an
//! edge; the search's arrays in the engine's scratch) each time the deducer runs, which is
//! only on the solver's main line when the rules and the cheap deducers are stuck (never
//! inside a probe or a search branch: see [`super::Phase`]):
//! - a *bridge* (an edge whose removal splits its part of the graph) lies on no cycle: an
//!   unknown bridge is a cross, and a line that is a bridge is a contradiction;
//! - with the bridges gone, every line must lie in one connected part: lines in two parts are
//!   a contradiction, and every unknown edge of a part without lines is a cross (once there
//!   is a line at all).

use crate::board::{Board, CROSS, Contradiction, LINE, Reason, UNKNOWN, Why};
use crate::deduce::Deducer;

/// Deduces what the shape of the graph of uncrossed edges implies; returns the edges decided.
/// `scratch` holds the searches' arrays (reused between runs).
pub fn deduce(board: &mut Board, scratch: &mut Vec<u32>) -> Result<u64, Contradiction> {
    if board.unknown() == 0 {
        return Ok(0);
    }
    let mut decided = crosses_bridges(board, scratch)?;
    decided += crosses_parts_without_lines(board, scratch)?;
    Ok(decided)
}

const UNSEEN: u32 = u32::MAX;

/// The graph of the dots: dot `(y, x)` is node `y * (cols + 1) + x`; a node's neighbours lie
/// across its edges up, down, left and right that are lines or unknown (off-grid edges and
/// crosses are not).
struct Dots {
    /// Dots in all.
    len: usize,
    /// Per direction: the step to the neighbour's node, and to the edge's lattice index (the
    /// neighbour's is twice that).
    steps: [(usize, usize); 4],
}

impl Dots {
    fn new(board: &Board) -> Dots {
        let across = board.cols() + 1;
        let stride = board.stride();
        Dots {
            len: (board.rows() + 1) * across,
            steps: [
                (across.wrapping_neg(), stride.wrapping_neg()),
                (across, stride),
                (1usize.wrapping_neg(), 1usize.wrapping_neg()),
                (1, 1),
            ],
        }
    }

    /// The lattice index of node `v`.
    fn lattice(&self, board: &Board, v: usize) -> usize {
        let across = board.cols() + 1;
        board.index(2 * (v / across) as isize, 2 * (v % across) as isize)
    }

    /// Node `v`'s neighbour in direction `d` (`v` at lattice index `at`) and its lattice
    /// index, when the edge to it is a line or unknown.
    #[inline]
    fn step(&self, board: &Board, v: usize, at: usize, d: usize) -> Option<(usize, usize)> {
        let (node, edge) = self.steps[d];
        let e = at.wrapping_add(edge);
        (board.at(e) & (LINE | UNKNOWN) != 0).then(|| (v.wrapping_add(node), e.wrapping_add(edge)))
    }
}

/// Every unknown bridge becomes a cross; a line that is a bridge is a contradiction. The
/// bridges are taken in the order of the board's edges.
fn crosses_bridges(board: &mut Board, scratch: &mut Vec<u32>) -> Result<u64, Contradiction> {
    let dots = Dots::new(board);
    let n = dots.len;
    scratch.clear();
    scratch.resize(6 * n, 0);
    let (disc, rest) = scratch.split_at_mut(n);
    let (low, rest) = rest.split_at_mut(n);
    let (stack_v, rest) = rest.split_at_mut(n);
    let (stack_at, rest) = rest.split_at_mut(n);
    let (stack_d, _) = rest.split_at_mut(n);
    disc.fill(UNSEEN);
    let mut bridges = Vec::new();
    let mut time = 0;
    for root in 0..n {
        if disc[root] != UNSEEN {
            continue;
        }
        disc[root] = time;
        low[root] = time;
        time += 1;
        stack_v[0] = root as u32;
        stack_at[0] = dots.lattice(board, root) as u32;
        stack_d[0] = 0;
        let mut depth = 1;
        while depth > 0 {
            let top = depth - 1;
            let v = stack_v[top] as usize;
            let d = stack_d[top] as usize;
            if d < 4 {
                stack_d[top] += 1;
                let Some((u, at)) = dots.step(board, v, stack_at[top] as usize, d) else {
                    continue;
                };
                if top > 0 && stack_v[top - 1] as usize == u {
                    continue;
                }
                if disc[u] == UNSEEN {
                    disc[u] = time;
                    low[u] = time;
                    time += 1;
                    stack_v[depth] = u as u32;
                    stack_at[depth] = at as u32;
                    stack_d[depth] = 0;
                    depth += 1;
                } else {
                    low[v] = low[v].min(disc[u]);
                }
                continue;
            }
            depth -= 1;
            if depth > 0 {
                let p = stack_v[depth - 1] as usize;
                low[p] = low[p].min(low[v]);
                if low[v] > disc[p] {
                    // The edge between them lies halfway.
                    bridges.push((stack_at[depth - 1] + stack_at[depth]) as usize / 2);
                }
            }
        }
    }
    bridges.sort_unstable();
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
fn crosses_parts_without_lines(
    board: &mut Board,
    scratch: &mut Vec<u32>,
) -> Result<u64, Contradiction> {
    if board.line_count() == 0 {
        return Ok(0);
    }
    let Some(first) = board.grid_edges().find(|&e| board.at(e) == LINE) else {
        return Ok(0);
    };
    // The part of the first line: every dot reached from its ends.
    let dots = Dots::new(board);
    let n = dots.len;
    scratch.clear();
    scratch.resize(3 * n, 0);
    let (reached, rest) = scratch.split_at_mut(n);
    let (stack_v, rest) = rest.split_at_mut(n);
    let (stack_at, _) = rest.split_at_mut(n);
    let (y, x) = board.point(board.edge_dots(first)[0]);
    let start = (y as usize / 2) * (board.cols() + 1) + x as usize / 2;
    reached[start] = 1;
    stack_v[0] = start as u32;
    stack_at[0] = board.edge_dots(first)[0] as u32;
    let mut depth = 1;
    while depth > 0 {
        depth -= 1;
        let (v, at) = (stack_v[depth] as usize, stack_at[depth] as usize);
        for d in 0..4 {
            if let Some((u, there)) = dots.step(board, v, at, d)
                && reached[u] == 0
            {
                reached[u] = 1;
                stack_v[depth] = u as u32;
                stack_at[depth] = there as u32;
                depth += 1;
            }
        }
    }
    // Every edge in the board's order, with the node of its first dot (above or left).
    let (rows, cols) = (board.rows(), board.cols());
    let across = cols + 1;
    let mut to_cross = Vec::new();
    for y in 0..=2 * rows {
        let row = board.index(y as isize, 0);
        let (first_x, dot_row) = if y % 2 == 0 { (1, y / 2) } else { (0, y / 2) };
        for x in (first_x..=2 * cols).step_by(2) {
            let e = row + x;
            let state = board.at(e);
            if state & (LINE | UNKNOWN) == 0 {
                continue;
            }
            if reached[dot_row * across + x / 2] != 0 {
                continue;
            }
            if state == LINE {
                return Err(board.contradiction(Why::Unjoinable, e));
            }
            to_cross.push(e);
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
        assert_eq!(deduce(&mut b, &mut Vec::new()).unwrap(), 1);
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
            deduce(&mut b, &mut Vec::new()).unwrap(),
            0,
            "no line yet: either ring may hold the loop"
        );
        b.set_edge(v(&b, 0, 0), LINE, Reason::Given).unwrap();
        assert_eq!(deduce(&mut b, &mut Vec::new()).unwrap(), 4);
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
        let c = deduce(&mut b, &mut Vec::new()).unwrap_err();
        assert_eq!(c.why, Why::Unjoinable);
        assert!(c.to_string().contains("cannot be joined"), "{c}");
    }

    #[test]
    fn a_line_that_is_a_bridge_is_a_contradiction() {
        let mut b = rooms();
        b.set_edge(h(&b, 1, 1), CROSS, Reason::Given).unwrap();
        b.set_edge(h(&b, 0, 1), LINE, Reason::Given).unwrap();
        assert_eq!(
            deduce(&mut b, &mut Vec::new()).unwrap_err().why,
            Why::Unjoinable
        );
    }
}
