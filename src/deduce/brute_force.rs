//! Test support: every single loop of a small grid by brute force, to check deducers against every answer.

use crate::board::{Board, CROSS, Contradiction, LINE, Reason, Tracking, UNKNOWN};
use crate::puzzle::parse_all;

/// The lines of every single loop on a `rows` x `cols` grid, found by brute force over
/// the colourings of its cells (a loop is the boundary of the inside), as doubled-grid
/// points of the line edges.
pub fn loops(rows: usize, cols: usize) -> Vec<Vec<(usize, usize)>> {
    let mut all = Vec::new();
    for mask in 1u32..1 << (rows * cols) {
        let inside = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < rows
                && (c as usize) < cols
                && mask >> (r as usize * cols + c as usize) & 1 == 1
        };
        let mut lines = Vec::new();
        for y in 0..=2 * rows {
            for x in 0..=2 * cols {
                let (a, b) = match (y % 2, x % 2) {
                    (0, 1) => (
                        (y as isize / 2 - 1, x as isize / 2),
                        (y as isize / 2, x as isize / 2),
                    ),
                    (1, 0) => (
                        (y as isize / 2, x as isize / 2 - 1),
                        (y as isize / 2, x as isize / 2),
                    ),
                    _ => continue,
                };
                if inside(a.0, a.1) != inside(b.0, b.1) {
                    lines.push((y, x));
                }
            }
        }
        if is_one_loop(&lines) {
            all.push(lines);
        }
    }
    all
}

/// Whether line edges (doubled-grid points) make one loop: every dot has 0 or 2 lines and
/// the lines are connected.
pub fn is_one_loop(lines: &[(usize, usize)]) -> bool {
    let ends = |&(y, x): &(usize, usize)| {
        if y % 2 == 0 {
            [(y, x - 1), (y, x + 1)]
        } else {
            [(y - 1, x), (y + 1, x)]
        }
    };
    let mut degree = std::collections::HashMap::new();
    for l in lines {
        for d in ends(l) {
            *degree.entry(d).or_insert(0) += 1;
        }
    }
    if degree.values().any(|&n| n != 2) {
        return false;
    }
    let mut seen = vec![false; lines.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(k) = stack.pop() {
        let mine = ends(&lines[k]);
        for (j, l) in lines.iter().enumerate() {
            if !seen[j] && ends(l).iter().any(|d| mine.contains(d)) {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

/// The clue of cell (r, c) under a loop.
pub fn count(lines: &[(usize, usize)], r: usize, c: usize) -> usize {
    let (y, x) = (2 * r + 1, 2 * c + 1);
    [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
        .iter()
        .filter(|p| lines.contains(p))
        .count()
}

/// A random number source for the brute-force tests (xorshift): `random(n)` is below `n`.
pub fn random_from(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

/// A random board to check a deducer on: one of `loops` as the hidden answer, its clues at
/// about `clue_tenths` in ten cells and its edges given at about `given_tenths` in ten, with
/// every answer of those clues and edges.
pub struct Case {
    /// The puzzle as a stream (for messages).
    pub text: String,
    /// The board with the given edges.
    pub board: Board,
    /// Every single loop that meets the clues and the given edges.
    pub answers: Vec<Vec<(usize, usize)>>,
}

impl Case {
    /// A random case on a `rows` x `cols` grid whose single loops are `loops`.
    pub fn random(
        loops: &[Vec<(usize, usize)>],
        (rows, cols): (usize, usize),
        (clue_tenths, given_tenths): (u64, u64),
        random: &mut impl FnMut(u64) -> u64,
    ) -> Case {
        let answer = &loops[random(loops.len() as u64) as usize];
        let mut text = format!("{rows} {cols}\n");
        let mut clues = vec![None; rows * cols];
        for r in 0..rows {
            let row: Vec<String> = (0..cols)
                .map(|c| {
                    let n = count(answer, r, c);
                    if random(10) < clue_tenths && n < 4 {
                        clues[r * cols + c] = Some(n);
                        n.to_string()
                    } else {
                        ".".to_string()
                    }
                })
                .collect();
            text += &(row.join(" ") + "\n");
        }
        text += "0 0\n";
        let puzzle = parse_all("t", text.as_bytes()).unwrap().remove(0);
        let mut board = Board::new(&puzzle, 4, Tracking::default());
        let mut given = Vec::new();
        for e in board.grid_edges().collect::<Vec<_>>() {
            let (y, x) = board.point(e);
            let p = (y as usize, x as usize);
            if random(10) < given_tenths {
                let state = if answer.contains(&p) { LINE } else { CROSS };
                given.push((p, state));
                if board.set_edge(e, state, Reason::Given).is_err() {
                    break;
                }
            }
        }
        let answers: Vec<Vec<(usize, usize)>> = loops
            .iter()
            .filter(|l| {
                (0..rows * cols).all(|k| clues[k].is_none_or(|n| count(l, k / cols, k % cols) == n))
                    && given.iter().all(|(p, s)| l.contains(p) == (*s == LINE))
            })
            .cloned()
            .collect();
        assert!(answers.contains(answer));
        Case {
            text,
            board,
            answers,
        }
    }

    /// Runs a deducer on the board and checks that every edge it decides is so in every
    /// answer; returns whether it decided any.
    pub fn check(&mut self, deduce: impl FnOnce(&mut Board) -> Result<u64, Contradiction>) -> bool {
        let board = &mut self.board;
        let before: Vec<u8> = (0..board.len()).map(|i| board.at(i)).collect();
        let text = &self.text;
        let decided = deduce(board).unwrap_or_else(|c| panic!("{text}: {c}"));
        for e in board.grid_edges() {
            if before[e] == UNKNOWN && board.at(e) != UNKNOWN {
                let (y, x) = board.point(e);
                let p = (y as usize, x as usize);
                for a in &self.answers {
                    assert_eq!(a.contains(&p), board.at(e) == LINE, "{text} {p:?}");
                }
            }
        }
        decided > 0
    }
}
