//! The last gate before printing: an answer is one closed loop through degree-2 dots that meets every clue.

use crate::board::{Board, Contradiction, LINE, Why};

/// Checks that the board's lines form one single loop satisfying every clue; says what is wrong otherwise.
pub fn check_answer(board: &Board) -> Result<(), Contradiction> {
    let (rows, cols) = (board.rows() as isize, board.cols() as isize);
    let stride = board.stride();
    let mut start = None;
    for r in 0..=rows {
        for c in 0..=cols {
            let d = board.index(2 * r, 2 * c);
            match board.dot_lines(d) {
                0 => {}
                2 => start = start.or(Some(d)),
                n => return Err(board.contradiction(Why::DotDegree(n), d)),
            }
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            if let Some(clue) = board.clue(r as usize, c as usize) {
                let cell = board.index(2 * r + 1, 2 * c + 1);
                let n = board.cell_lines(cell);
                if n != clue {
                    return Err(board.contradiction(Why::ClueCount { lines: n, clue }, cell));
                }
            }
        }
    }
    let Some(start) = start else {
        return Err(board.contradiction(Why::NoLoop, board.index(0, 0)));
    };
    // Walk the loop from `start` and count its edges.
    let steps = [1isize, -1, stride as isize, -(stride as isize)];
    let (mut prev_edge, mut dot, mut walked) = (usize::MAX, start, 0usize);
    loop {
        let next = steps
            .iter()
            .map(|&s| dot.wrapping_add_signed(s))
            .find(|&e| e != prev_edge && board.at(e) == LINE);
        let Some(edge) = next else {
            return Err(board.contradiction(Why::DotDegree(1), dot));
        };
        walked += 1;
        dot = edge.wrapping_add(edge.wrapping_sub(dot));
        prev_edge = edge;
        if dot == start {
            break;
        }
    }
    if walked != board.line_count() {
        return Err(board.contradiction(Why::SeveralLoops, start));
    }
    Ok(())
}
