//! The framed ASCII picture of an answer, in the exact output format of the spec, read off any [`View`].
//!
//! The picture is written straight into the output bytes: the block is reserved at its exact
//! size and filled with spaces, then only the non-space characters are set.

use crate::board::{Board, LINE};
use crate::format::view::{Edge, View};
use crate::puzzle::push_decimal;

/// A dot's character by which of its edges are lines (bits: 1 left, 2 right, 4 up, 8 down):
/// `+` for one horizontal and one vertical, `-` for two horizontal, `|` for two vertical.
const DOT: [u8; 16] = {
    let mut table = [b' '; 16];
    table[1 | 4] = b'+';
    table[1 | 8] = b'+';
    table[2 | 4] = b'+';
    table[2 | 8] = b'+';
    table[1 | 2] = b'-';
    table[4 | 8] = b'|';
    table
};

/// Number of bytes [`render_answer`] appends for puzzle `number` of `rows` x `cols` cells.
pub fn answer_len(number: usize, rows: usize, cols: usize) -> usize {
    let mut digits = 1;
    let mut n = number;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits + 1 + (2 * rows + 5) * (4 * cols + 6)
}

/// Appends the answer of puzzle `number` (1-based) in the exact output format of the spec:
/// the number line, then the 2R+5 framed lines, each ending in '\n', no trailing spaces.
/// Only lines are drawn (crosses and unknown edges alike are blank), as the spec says.
///
/// Each clue and edge of the view is read exactly once. A dot shows `+` with one horizontal
/// and one vertical line, `-` with two horizontal lines, `|` with two vertical lines, and a
/// space otherwise. A clue above 9 (never produced by the reader) shows as `?`.
pub fn render_answer(out: &mut Vec<u8>, number: usize, view: &impl View) {
    let (rows, cols) = (view.rows(), view.cols());
    let clue = |r, c| view.clue(r, c);
    let h = |r, c| view.h(r, c) == Edge::Line;
    let v = |r, c| view.v(r, c) == Edge::Line;
    out.reserve(answer_len(number, rows, cols));
    push_decimal(out, number);
    out.push(b'\n');

    let width = 4 * cols + 5; // characters of a line, without its '\n'
    let stride = width + 1;
    let lines = 2 * rows + 5;
    let grid_width = 4 * cols + 1;
    let base = out.len();
    out.resize(base + lines * stride, b' ');
    let pic = &mut out[base..];

    // Frame: full '#' lines first and last, '#' at both ends of the others.
    pic[..width].fill(b'#');
    pic[(lines - 1) * stride..][..width].fill(b'#');
    for line in pic.chunks_exact_mut(stride) {
        line[0] = b'#';
        line[width - 1] = b'#';
        line[width] = b'\n';
    }

    // Grid line k (0..2R+1) starts at line k+2, column 2; dot row i is grid line 2i, cell row i
    // is grid line 2i+1. Edges and clues first, each asked for once, written without branches
    // (edges follow no pattern a branch predictor could learn).
    let grid = |k: usize| (k + 2) * stride + 2;
    for i in 0..=rows {
        let start = grid(2 * i);
        let dot_row = &mut pic[start..start + grid_width];
        // Each chunk: the three characters of edge j, then dot j+1.
        for (j, chunk) in dot_row[1..].chunks_exact_mut(4).enumerate() {
            chunk[..3].copy_from_slice(if h(i, j) { b"---" } else { b"   " });
        }
        if i < rows {
            let start = grid(2 * i + 1);
            let cell_row = &mut pic[start..start + grid_width];
            // Each chunk: wall j, then the three characters of cell j.
            for (j, chunk) in cell_row.chunks_exact_mut(4).enumerate() {
                chunk[0] = if v(i, j) { b'|' } else { b' ' };
                chunk[2] = match clue(i, j) {
                    Some(d) if d <= 9 => b'0' + d,
                    Some(_) => b'?',
                    None => b' ',
                };
            }
            cell_row[4 * cols] = if v(i, cols) { b'|' } else { b' ' };
        }
    }

    // Dots, read back from the four edge characters around them. Around the grid these are
    // the spaces of the frame, so no dot needs a bounds test.
    for i in 0..=rows {
        let start = grid(2 * i);
        for at in (start..start + grid_width).step_by(4) {
            let index = usize::from(pic[at - 1] == b'-')
                | usize::from(pic[at + 1] == b'-') << 1
                | usize::from(pic[at - stride] == b'|') << 2
                | usize::from(pic[at + stride] == b'|') << 3;
            pic[at] = DOT[index];
        }
    }
}

/// [`render_answer`] for a board, byte for byte, reading the board's lattice rows in memory
/// order: a dot's character comes from its word (the states of its four edges) through one
/// table, an edge's and a clue's from their codes through another, four output bytes per
/// lattice pair, with no branch on what the board holds.
pub fn render_board(out: &mut Vec<u8>, number: usize, board: &Board) {
    let (rows, cols) = (board.rows(), board.cols());
    out.reserve(answer_len(number, rows, cols));
    render_head(out, number, cols);
    render_lattice_rows(out, board, 0..2 * rows + 1);
    render_foot(out, cols);
}

/// Lattice rows [`write_board`] renders at a time: about 64 KiB of output.
fn rows_per_block(cols: usize) -> usize {
    (64 * 1024 / (4 * cols + 6)).max(1)
}

/// Writes what [`render_board`] appends, a block of rows at a time through `scratch`, so that
/// a large answer never stands whole in memory (a 1000x1000 one is 8 MB of fresh pages).
pub fn write_board(
    out: &mut dyn std::io::Write,
    scratch: &mut Vec<u8>,
    number: usize,
    board: &Board,
) -> std::io::Result<()> {
    let (rows, cols) = (board.rows(), board.cols());
    let lattice_rows = 2 * rows + 1;
    let block = rows_per_block(cols);
    scratch.clear();
    render_head(scratch, number, cols);
    let mut y = 0;
    while y < lattice_rows {
        let next = (y + block).min(lattice_rows);
        render_lattice_rows(scratch, board, y..next);
        if next == lattice_rows {
            render_foot(scratch, cols);
        }
        out.write_all(scratch)?;
        scratch.clear();
        y = next;
    }
    Ok(())
}

/// The number line and the two frame lines above the grid.
fn render_head(out: &mut Vec<u8>, number: usize, cols: usize) {
    push_decimal(out, number);
    out.push(b'\n');
    let width = 4 * cols + 5;
    out.extend(std::iter::repeat_n(b'#', width));
    out.push(b'\n');
    frame_line(out, width);
}

/// The two frame lines below the grid.
fn render_foot(out: &mut Vec<u8>, cols: usize) {
    let width = 4 * cols + 5;
    frame_line(out, width);
    out.extend(std::iter::repeat_n(b'#', width));
    out.push(b'\n');
}

/// A frame line with nothing inside: `#`, spaces, `#`.
fn frame_line(out: &mut Vec<u8>, width: usize) {
    out.push(b'#');
    out.extend(std::iter::repeat_n(b' ', width - 2));
    out.extend_from_slice(b"#\n");
}

/// Appends the picture lines of lattice rows `ys` (dot rows even, cell rows odd), framed.
fn render_lattice_rows(out: &mut Vec<u8>, board: &Board, ys: std::ops::Range<usize>) {
    let cols = board.cols();
    let width = 4 * cols + 5;
    let stride = width + 1;
    let base = out.len();
    out.resize(base + ys.len() * stride, b' ');
    let grid = &mut out[base..];
    for (y, line) in ys.zip(grid.chunks_exact_mut(stride)) {
        line[0] = b'#';
        line[width - 1] = b'#';
        line[width] = b'\n';
        let codes = board.lattice_row(y as isize);
        let cells = &mut line[2..2 + 4 * cols + 4];
        // Lattice pairs (dot or edge, then edge or cell) fill four bytes each; the row's last
        // point (a dot or an edge) fills one.
        let (pairs, last) = codes.split_at(2 * cols);
        let [firsts, seconds] = &ROW_QUADS[y & 1];
        for (out, pair) in cells.chunks_exact_mut(4).zip(pairs.chunks_exact(2)) {
            let quad = firsts[usize::from(pair[0])] | seconds[usize::from(pair[1])];
            out.copy_from_slice(&quad.to_le_bytes());
        }
        cells[4 * cols] = ROW_CHARS[y & 1][0][usize::from(last[0])];
    }
}

/// Per lattice row parity (0: dot rows, 1: cell rows), then per place in a lattice pair (a dot
/// row's dot and edge, a cell row's edge and cell), then per code: its character. A dot's
/// comes from its word as [`render_answer`] draws it, an edge's is `-` or `|` for a line, a
/// clue's its digit.
static ROW_CHARS: [[[u8; 256]; 2]; 2] = {
    let mut t = [[[b' '; 256]; 2]; 2];
    let mut code = 0;
    while code < 256 {
        // A dot word holds N, E, S, W in two bits each, `01` for a line.
        let (n, e) = ((code & 3 == 1) as usize, ((code >> 2) & 3 == 1) as usize);
        let (s, w) = (
            ((code >> 4) & 3 == 1) as usize,
            ((code >> 6) & 3 == 1) as usize,
        );
        t[0][0][code] = DOT[w | e << 1 | n << 2 | s << 3];
        code += 1;
    }
    t[0][1][LINE as usize] = b'-';
    t[1][0][LINE as usize] = b'|';
    let mut n = 0;
    while n < 4 {
        t[1][1][16 << n] = b'0' + n as u8;
        n += 1;
    }
    t
};

/// The four bytes of a lattice pair as two halves to be or-ed, per row parity and place in
/// the pair as in [`ROW_CHARS`], then per code: in a dot row, the dot's character in the
/// first byte and the edge's in the other three; in a cell row, the edge's character then a
/// space, and the cell's character then a space.
static ROW_QUADS: [[[u32; 256]; 2]; 2] = {
    let mut t = [[[0u32; 256]; 2]; 2];
    let space = b' ' as u32;
    let mut code = 0;
    while code < 256 {
        t[0][0][code] = ROW_CHARS[0][0][code] as u32;
        t[0][1][code] = ROW_CHARS[0][1][code] as u32 * 0x0101_0100;
        t[1][0][code] = ROW_CHARS[1][0][code] as u32 | space << 8;
        t[1][1][code] = (ROW_CHARS[1][1][code] as u32) << 16 | space << 24;
        code += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::view::Picture;

    /// A picture from closures: clues, and which edges are lines.
    fn picture(
        rows: usize,
        cols: usize,
        clue: impl Fn(usize, usize) -> Option<u8>,
        h: impl Fn(usize, usize) -> bool,
        v: impl Fn(usize, usize) -> bool,
    ) -> Picture {
        let edge = |line: bool| if line { Edge::Line } else { Edge::Unknown };
        Picture {
            rows,
            cols,
            clues: (0..rows * cols).map(|k| clue(k / cols, k % cols)).collect(),
            h: (0..(rows + 1) * cols)
                .map(|k| edge(h(k / cols, k % cols)))
                .collect(),
            v: (0..rows * (cols + 1))
                .map(|k| edge(v(k / (cols + 1), k % (cols + 1))))
                .collect(),
        }
    }

    /// The official example: `shared/data/sample.in` and `shared/data/sample.out`.
    const SAMPLE_IN: &str = include_str!("../../tests/data/sample.in");

    const SAMPLE_OUT: &str = include_str!("../../tests/data/sample.out");

    /// The clues of a puzzle in the sample input, by puzzle index.
    fn sample_clues() -> Vec<(usize, usize, Vec<u8>)> {
        let mut lines = SAMPLE_IN.lines();
        let mut puzzles = Vec::new();
        loop {
            let header: Vec<usize> = lines
                .next()
                .unwrap()
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect();
            let (rows, cols) = (header[0], header[1]);
            if rows == 0 {
                return puzzles;
            }
            let clues = (0..rows)
                .flat_map(|_| {
                    lines
                        .next()
                        .unwrap()
                        .split(' ')
                        .map(|t| t.parse::<u8>().unwrap())
                })
                .collect();
            puzzles.push((rows, cols, clues));
        }
    }

    /// Edges read off an expected picture: (h, v) as row-major bool grids.
    fn edges_of(picture: &[&str], rows: usize, cols: usize) -> (Vec<bool>, Vec<bool>) {
        let at = |k: usize, col: usize| picture[k + 2].as_bytes()[col + 2];
        let mut h = vec![false; (rows + 1) * cols];
        let mut v = vec![false; rows * (cols + 1)];
        for i in 0..=rows {
            for j in 0..cols {
                h[i * cols + j] = at(2 * i, 4 * j + 2) == b'-';
            }
        }
        for i in 0..rows {
            for j in 0..=cols {
                v[i * (cols + 1) + j] = at(2 * i + 1, 4 * j) == b'|';
            }
        }
        (h, v)
    }

    fn render_puzzle(
        number: usize,
        rows: usize,
        cols: usize,
        clues: &[u8],
        h: &[bool],
        v: &[bool],
    ) -> Vec<u8> {
        let mut out = b"previous".to_vec();
        render_answer(
            &mut out,
            number,
            &picture(
                rows,
                cols,
                |r, c| Some(clues[r * cols + c]),
                |i, j| h[i * cols + j],
                |i, j| v[i * (cols + 1) + j],
            ),
        );
        assert_eq!(out.len(), 8 + answer_len(number, rows, cols));
        out.split_off(8)
    }

    #[test]
    fn third_sample_puzzle() {
        // The 2x2 loop around all four cells, as in the spec.
        let mut out = Vec::new();
        render_answer(
            &mut out,
            3,
            &picture(2, 2, |_, _| Some(2), |i, _| i != 1, |_, j| j != 1),
        );
        let expected = "3
#############
#           #
# +-------+ #
# | 2   2 | #
# |       | #
# | 2   2 | #
# +-------+ #
#           #
#############
";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn whole_sample_output() {
        let lines: Vec<&str> = SAMPLE_OUT.lines().collect();
        let mut at = 0;
        let mut rendered = Vec::new();
        for (index, (rows, cols, clues)) in sample_clues().into_iter().enumerate() {
            let block = &lines[at + 1..at + 1 + 2 * rows + 5];
            let (h, v) = edges_of(block, rows, cols);
            rendered.extend(render_puzzle(index + 1, rows, cols, &clues, &h, &v));
            at += 2 * rows + 6;
        }
        assert_eq!(String::from_utf8(rendered).unwrap(), SAMPLE_OUT);
    }

    /// Boards of many shapes, with blanks, each edge a line, a cross or unknown at random (so
    /// dots of every degree): the board renderer writes what the generic one writes.
    #[test]
    fn the_board_renderer_draws_what_the_view_renderer_draws() {
        use crate::board::{Board, CROSS, Reason, Tracking};
        use crate::puzzle::parse_all;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        // The last shape is wide enough that `write_board` writes it in several blocks.
        let shapes = [
            (1, 1),
            (1, 7),
            (6, 1),
            (2, 3),
            (5, 5),
            (10, 18),
            (13, 4),
            (9, 2500),
        ];
        for (rows, cols) in shapes {
            for _ in 0..8 {
                let mut text = format!("{rows} {cols}\n");
                for _ in 0..rows {
                    let row: Vec<String> = (0..cols)
                        .map(|_| match next(5) {
                            4 => ".".to_string(),
                            n => n.to_string(),
                        })
                        .collect();
                    text += &row.join(" ");
                    text += "\n";
                }
                text += "0 0\n";
                let puzzle = parse_all("t", text.as_bytes()).unwrap().remove(0);
                let mut board = Board::new(&puzzle, 4, Tracking::default());
                let edges: Vec<usize> = board.grid_edges().collect();
                for e in edges {
                    let state = [None, Some(LINE), Some(CROSS)][next(3) as usize];
                    if let Some(state) = state {
                        let _ = board.set_edge(e, state, Reason::Given);
                    }
                }
                let number = next(2000) as usize + 1;
                let (mut fast, mut generic) = (Vec::new(), Vec::new());
                render_board(&mut fast, number, &board);
                render_answer(&mut generic, number, &board);
                let (mut written, mut scratch) = (Vec::new(), Vec::new());
                write_board(&mut written, &mut scratch, number, &board).unwrap();
                assert!(rows_per_block(cols) < 2 * rows + 1 || cols < 100);
                assert_eq!(written, fast, "{text}");
                assert_eq!(
                    String::from_utf8(fast).unwrap(),
                    String::from_utf8(generic).unwrap(),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn blanks_big_numbers_and_one_cell() {
        let mut out = Vec::new();
        render_answer(
            &mut out,
            1234567,
            &picture(
                1,
                2,
                |_, c| (c == 1).then_some(0),
                |_, j| j == 0,
                |_, j| j < 2,
            ),
        );
        let expected = "1234567
#############
#           #
# +---+     #
# |   | 0   #
# +---+     #
#           #
#############
";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        // Dots with other counts of lines (never in a verified loop) show as spaces.
        let mut out = Vec::new();
        render_answer(
            &mut out,
            0,
            &picture(1, 1, |_, _| None, |_, _| true, |_, _| true),
        );
        let mut odd = Vec::new();
        render_answer(
            &mut odd,
            0,
            &picture(1, 1, |_, _| None, |i, _| i == 0, |_, _| false),
        );
        assert_eq!(
            String::from_utf8(out).unwrap() + &String::from_utf8(odd).unwrap(),
            "0\n#########\n#       #\n# +---+ #\n# |   | #\n# +---+ #\n#       #\n#########\n\
             0\n#########\n#       #\n#  ---  #\n#       #\n#       #\n#       #\n#########\n"
        );
    }

    #[test]
    fn decimal() {
        for n in [0, 7, 10, 99, 100, 20_000, usize::MAX] {
            let mut out = Vec::new();
            push_decimal(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
            assert_eq!(answer_len(n, 0, 0), n.to_string().len() + 1 + 5 * 6);
        }
    }
}
