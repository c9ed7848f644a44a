//! The last gate before printing: an answer is one closed loop through degree-2 dots that meets every clue.
//!
//! It counts lines through the dots' and cells' words (which `Board::recount` checks against
//! the edges in the tests) and walks the loop over the edge states, not trusting the
//! board's running totals.

use crate::board::{Board, Contradiction, Why, clue_of};

/// Checks that the board's lines form one single loop satisfying every clue; says what is wrong otherwise.
pub fn check_answer(board: &Board) -> Result<(), Contradiction> {
    let (rows, cols) = (board.rows() as isize, board.cols() as isize);
    let stride = board.stride();
    let steps = [stride.wrapping_neg(), 1, stride, 1usize.wrapping_neg()];
    let mut start = None;
    let mut lines = 0usize;
    for r in 0..=rows {
        let row = board.index(2 * r, 0);
        for d in (row..=row + 2 * cols as usize).step_by(2) {
            match board.dot_lines(d) {
                0 => {}
                2 => {
                    start = start.or(Some(d));
                    lines += 2;
                }
                n => return Err(board.contradiction(Why::DotDegree(n), d)),
            }
        }
    }
    for r in 0..rows {
        let row = board.index(2 * r + 1, 1);
        for cell in (row..row + 2 * cols as usize).step_by(2) {
            if let Some(clue) = clue_of(board.at(cell)) {
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
    // Walk the loop from `start` and count its edges (each line has two dots: `lines / 2`).
    let (mut came, mut dot, mut walked) = (usize::MAX, start, 0usize);
    loop {
        // The dot's line slots, from its word: at most two, one of them where we came from.
        let word = board.dot_word(dot);
        let mut next = None;
        for (k, s) in steps.into_iter().enumerate() {
            let e = dot.wrapping_add(s);
            if (word >> (2 * k)) & 3 == 1 && e != came {
                next = Some(e);
                break;
            }
        }
        let Some(edge) = next else {
            return Err(board.contradiction(Why::DotDegree(1), dot));
        };
        walked += 1;
        dot = 2 * edge - dot;
        came = edge;
        if dot == start || walked > lines {
            break;
        }
    }
    if walked != lines / 2 || dot != start {
        return Err(board.contradiction(Why::SeveralLoops, start));
    }
    Ok(())
}
