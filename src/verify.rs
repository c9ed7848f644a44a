//! The last gate before printing: an answer is one closed loop through degree-2 dots that meets every clue.
//!
//! It counts lines through the dots' and cells' words (which `Board::recount` checks against
//! the edges in the tests) and walks the loop over the edge states, not trusting the
//! board's running totals.

use crate::board::{Board, CODE_SHIFT, Contradiction, NEXT_LINE, Why, clue_of, lines_of_word};

/// Checks that the board's lines form one single loop satisfying every clue; says what is wrong otherwise.
pub fn check_answer(board: &Board) -> Result<(), Contradiction> {
    let rows = board.rows() as isize;
    // Dots and clue cells are scanned without a branch per point (the outcome is as good as
    // random); the first offender is looked for only when there is one.
    let (mut bad, mut lines, mut start) = (false, 0usize, None);
    for r in 0..=rows {
        let row = board.lattice_row(2 * r);
        let mut row_lines = 0;
        // Eight lattice bytes (four dots and their edges east) at a time, then the rest.
        let chunks = row.chunks_exact(8);
        let rest = chunks.remainder();
        for chunk in chunks {
            let counts = dot_lines8(chunk.try_into().expect("eight bytes"));
            bad |= counts & 0x0505_0505_0505_0505 != 0;
            row_lines += (counts.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
        }
        for &word in rest.iter().step_by(2) {
            let n = lines_of_word(u32::from(word));
            bad |= n & !2 != 0;
            row_lines += usize::from(n);
        }
        if start.is_none() && row_lines != 0 {
            let x = row
                .iter()
                .step_by(2)
                .position(|&w| w != 0 && lines_of_word(u32::from(w)) != 0);
            start = x.map(|x| board.index(2 * r, 2 * x as isize));
        }
        lines += row_lines;
    }
    for r in 0..rows {
        // A cell's state word has its code on top.
        for &state in board.cell_row_words(r as usize) {
            let clue = (state >> (CODE_SHIFT + 4)) as usize;
            bad |= WRONG_COUNT[clue & 15][(state & 0xFF) as usize];
        }
    }
    if bad && let Some(offender) = first_offender(board) {
        return Err(offender);
    }
    let Some(start) = start else {
        return Err(board.contradiction(Why::NoLoop, board.index(0, 0)));
    };
    // Walk the loop from `start` and count its edges (each line has two dots: `lines / 2`).
    // Two walkers leave `start` by its two lines and meet halfway round (a loop on the grid
    // has even length), so that the two chains of dependent reads overlap. `NEXT_LINE` gives
    // the way out of a dot from its word and the way in (4: none).
    // N, E, S, W: one dot on is two lattice steps, a stride's for N and S, forward for E and
    // S; looked up by the way out, not worked out (the way a loop turns is a coin toss).
    let s = 2 * board.stride() as isize;
    let steps = [-s, 2, s, -2];
    let step = |dot: usize, k: u8| dot.wrapping_add_signed(steps[usize::from(k & 3)]);
    let out = |dot: usize, from: u8| NEXT_LINE[usize::from(board.dot_word(dot))][usize::from(from)];
    let first = out(start, 4);
    let second = out(start, first);
    if second == 4 {
        return Err(board.contradiction(Why::DotDegree(1), start));
    }
    let (mut a, mut from_a) = (step(start, first), first ^ 2);
    let (mut b, mut from_b) = (step(start, second), second ^ 2);
    let mut walked = 2;
    while a != b && walked <= lines {
        // `from` is the way in, 0-3 here (4 only at the start): the lookup needs no bound.
        let (ka, kb) = (out(a, from_a & 3), out(b, from_b & 3));
        if ka == 4 {
            return Err(board.contradiction(Why::DotDegree(1), a));
        }
        if kb == 4 {
            return Err(board.contradiction(Why::DotDegree(1), b));
        }
        (a, from_a) = (step(a, ka), ka ^ 2);
        (b, from_b) = (step(b, kb), kb ^ 2);
        walked += 2;
    }
    if walked != lines / 2 || a != b {
        return Err(board.contradiction(Why::SeveralLoops, start));
    }
    Ok(())
}

/// Per clue bit (a clue cell's code is `CLUE0 << n`: its top nibble is `1 << n`; 0 for a
/// blank) and side slots (2 bits each, `01` a line): whether the number of lines is not
/// the clue. Counted here, not taken from the board's tables.
static WRONG_COUNT: [[bool; 256]; 16] = {
    let mut t = [[false; 256]; 16];
    let mut n = 0;
    while n < 4 {
        let mut sides = 0;
        while sides < 256 {
            let mut lines = 0;
            let mut k = 0;
            while k < 4 {
                lines += ((sides >> (2 * k)) & 3 == 1) as usize;
                k += 1;
            }
            t[1 << n][sides] = lines != n;
            sides += 1;
        }
        n += 1;
    }
    t
};

/// The lines at each dot of eight lattice bytes of a dot row that start at a dot (dot, edge,
/// dot, ...): each dot's count (0-4) in its byte, 0 in the edges' bytes. A count is odd or 4
/// (not 0 nor 2) exactly when it has a bit of `0x05` set.
#[inline(always)]
fn dot_lines8(bytes: [u8; 8]) -> u64 {
    let w = u64::from_le_bytes(bytes);
    // A slot is a line when it reads `01`: its low bit set and its high bit clear.
    let flags = w & !(w >> 1) & 0x0055_0055_0055_0055;
    let pairs = (flags & 0x3333_3333_3333_3333) + ((flags >> 2) & 0x3333_3333_3333_3333);
    (pairs & 0x0F0F_0F0F_0F0F_0F0F) + ((pairs >> 4) & 0x0F0F_0F0F_0F0F_0F0F)
}

/// The first dot with a number of lines other than 0 or 2, else the first clue cell with
/// the wrong number of lines, as a contradiction (`check_answer` found one of them).
#[cold]
fn first_offender(board: &Board) -> Option<Contradiction> {
    let (rows, cols) = (board.rows() as isize, board.cols() as isize);
    for r in 0..=rows {
        for c in 0..=cols {
            let d = board.index(2 * r, 2 * c);
            let n = board.dot_lines(d);
            if n != 0 && n != 2 {
                return Some(board.contradiction(Why::DotDegree(n), d));
            }
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            let cell = board.index(2 * r + 1, 2 * c + 1);
            if let Some(clue) = clue_of(board.at(cell)) {
                let n = board.cell_lines(cell);
                if n != clue {
                    return Some(board.contradiction(Why::ClueCount { lines: n, clue }, cell));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{LINE, Reason, Tracking};

    /// A board of `text` with lines on the edges `lines` names, each as (doubled row, doubled
    /// column), and crosses on every other edge; contradictions on the way are ignored, so
    /// that wrong answers can be laid out too.
    fn laid_out(text: &str, lines: &[(isize, isize)]) -> Board {
        let puzzle = crate::puzzle::parse_all("t", text.as_bytes())
            .unwrap()
            .remove(0);
        let mut board = Board::new(&puzzle, 4, Tracking::default());
        let lines: Vec<usize> = lines.iter().map(|&(y, x)| board.index(y, x)).collect();
        for e in board.grid_edges().collect::<Vec<_>>() {
            let state = if lines.contains(&e) {
                LINE
            } else {
                crate::board::CROSS
            };
            let _ = board.set_edge(e, state, Reason::Given);
        }
        board
    }

    /// The four sides of cell (r, c), on the doubled lattice.
    fn around(r: isize, c: isize) -> [(isize, isize); 4] {
        let (y, x) = (2 * r + 1, 2 * c + 1);
        [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
    }

    fn why(board: &Board) -> Option<Why> {
        check_answer(board).err().map(|c| c.why)
    }

    #[test]
    fn eight_bytes_of_a_dot_row_count_each_dot_as_the_table_does() {
        // Every dot word in every dot place, with edge bytes of every value around it.
        for word in 0..=255u8 {
            for place in 0..4 {
                let mut bytes = [0u8; 8];
                for (k, b) in bytes.iter_mut().enumerate() {
                    *b = (word ^ (k as u8).wrapping_mul(37)) | 1;
                }
                bytes[2 * place] = word;
                let counts = dot_lines8(bytes);
                let got = (counts >> (16 * place)) & 0xFF;
                assert_eq!(got, u64::from(lines_of_word(u32::from(word))), "{word:08b}");
                for k in 0..4 {
                    let n = (counts >> (16 * k + 8)) & 0xFF;
                    assert_eq!(n, 0, "edge byte {k}");
                }
            }
        }
    }

    #[test]
    fn one_loop_meeting_every_clue_passes() {
        // The loop round a 2x3 block: every walker step turns or goes straight somewhere.
        let mut lines = vec![];
        for c in 0..3 {
            lines.extend([(0, 2 * c + 1), (4, 2 * c + 1)]);
        }
        lines.extend([(1, 0), (3, 0), (1, 6), (3, 6)]);
        let board = laid_out("2 3\n2 1 2\n2 1 2\n0 0\n", &lines);
        assert_eq!(why(&board), None);
    }

    #[test]
    fn two_loops_a_path_an_unmet_clue_and_no_lines_are_each_refused() {
        let two: Vec<_> = around(0, 0).into_iter().chain(around(0, 2)).collect();
        let board = laid_out("1 3\n. . .\n0 0\n", &two);
        assert_eq!(why(&board), Some(Why::SeveralLoops));

        let path = &around(0, 0)[..3];
        let board = laid_out("1 3\n. . .\n0 0\n", path);
        assert_eq!(why(&board), Some(Why::DotDegree(1)));

        let board = laid_out("1 3\n. . 1\n0 0\n", &around(0, 0));
        assert_eq!(why(&board), Some(Why::ClueCount { lines: 0, clue: 1 }));

        let board = laid_out("1 1\n.\n0 0\n", &[]);
        assert_eq!(why(&board), Some(Why::NoLoop));
    }
}
