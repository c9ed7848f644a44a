//! Connectivity, a global deducer (`use connectivity`): the loop is one simple cycle in the graph of the edges not crossed (dots joined by lines and unknown edges), so it can use no bridge of that graph and lies in one connected part of it.
//!
//! The graph is built with petgraph (dots as nodes, every line and unknown edge as an edge)
//! each time the deducer runs, which is only on the solver's main line when the rules and the
//! cheap deducers are stuck (never inside a probe or a search branch: see [`super::Phase`]):
//! - a *bridge* (an edge whose removal splits its part of the graph) lies on no cycle: an
//!   unknown bridge is a cross, and a line that is a bridge is a contradiction;
//! - with the bridges gone, every line must lie in one connected part: lines in two parts are
//!   a contradiction, and every unknown edge of a part without lines is a cross (once there
//!   is a line at all).

use crate::board::{Board, CROSS, Contradiction, LINE, Reason, UNKNOWN, Why};
use crate::deduce::Deducer;
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;

/// Deduces what the shape of the graph of uncrossed edges implies; returns the edges decided.
pub fn deduce(board: &mut Board) -> Result<u64, Contradiction> {
    if board.unknown() == 0 {
        return Ok(0);
    }
    let mut decided = crosses_bridges(board)?;
    decided += crosses_parts_without_lines(board)?;
    Ok(decided)
}

/// The node of a dot (lattice index) in the graph: row-major over the grid's dots.
fn node(board: &Board, dot: usize) -> usize {
    let (y, x) = board.point(dot);
    (y as usize / 2) * (board.cols() + 1) + x as usize / 2
}

/// Every unknown bridge becomes a cross; a line that is a bridge is a contradiction.
fn crosses_bridges(board: &mut Board) -> Result<u64, Contradiction> {
    let dots = (board.rows() + 1) * (board.cols() + 1);
    let mut graph = UnGraph::<(), u32>::with_capacity(dots, board.edge_count());
    for _ in 0..dots {
        graph.add_node(());
    }
    for e in board.grid_edges() {
        if board.at(e) != CROSS {
            let [a, b] = board.edge_dots(e);
            let (a, b) = (node(board, a), node(board, b));
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
    for e in board.grid_edges() {
        let state = board.at(e);
        if state != CROSS {
            let [a, b] = board.edge_dots(e);
            parts.union(node(board, a), node(board, b));
            if state == LINE && first_line.is_none() {
                first_line = Some(e);
            }
        }
    }
    let Some(first) = first_line else {
        return Ok(0);
    };
    let part_of = |parts: &UnionFind<usize>, board: &Board, e: usize| {
        parts.find(node(board, board.edge_dots(e)[0]))
    };
    let lines_part = part_of(&parts, board, first);
    let mut to_cross = Vec::new();
    for e in board.grid_edges() {
        match board.at(e) {
            LINE if part_of(&parts, board, e) != lines_part => {
                return Err(board.contradiction(Why::Unjoinable, e));
            }
            UNKNOWN if part_of(&parts, board, e) != lines_part => to_cross.push(e),
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
    fn a_line_that_is_a_bridge_is_a_contradiction() {
        let mut b = rooms();
        b.set_edge(h(&b, 1, 1), CROSS, Reason::Given).unwrap();
        b.set_edge(h(&b, 0, 1), LINE, Reason::Given).unwrap();
        assert_eq!(deduce(&mut b).unwrap_err().why, Why::Unjoinable);
    }
}
