//! Unit tests of the board: contradiction checks, bookkeeping, and undo.

use super::*;
use crate::puzzle::Puzzle;

fn board(text: &str, loop_closure: bool) -> Board {
    let puzzle = crate::puzzle::parse_all("t", text.as_bytes())
        .unwrap()
        .remove(0);
    Board::new(
        &puzzle,
        4,
        Tracking {
            closures: loop_closure,
            reasons: true,
        },
    )
}

/// Lattice index of the horizontal edge on dot row `r` right of dot `c`.
fn h(b: &Board, r: isize, c: isize) -> usize {
    b.index(2 * r, 2 * c + 1)
}

/// Lattice index of the vertical edge on cell row `r` at dot column `c`.
fn v(b: &Board, r: isize, c: isize) -> usize {
    b.index(2 * r + 1, 2 * c)
}

#[test]
fn a_line_where_a_cross_stands_is_a_contradiction() {
    let mut b = board("2 2\n2 2\n2 2\n0 0\n", false);
    let e = h(&b, 0, 0);
    assert_eq!(b.set_edge(e, CROSS, Reason::Given), Ok(true));
    assert_eq!(b.set_edge(e, CROSS, Reason::Given), Ok(false));
    let err = b.set_edge(e, LINE, Reason::Given).unwrap_err();
    assert!(
        err.to_string().contains("is a cross but a line is asked"),
        "{err}"
    );
}

#[test]
fn off_grid_edges_take_crosses_and_refuse_lines() {
    let mut b = board("2 2\n2 2\n2 2\n0 0\n", false);
    let outside = b.index(-1, 0);
    assert_eq!(b.set_edge(outside, CROSS, Reason::Given), Ok(false));
    assert!(b.set_edge(outside, LINE, Reason::Given).is_err());
}

#[test]
fn a_dot_with_three_lines_is_a_contradiction() {
    let mut b = board("2 2\n. .\n. .\n0 0\n", false);
    // Dot (1, 1), the centre: lines west, east and north.
    b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap();
    b.set_edge(h(&b, 1, 1), LINE, Reason::Given).unwrap();
    let err = b.set_edge(v(&b, 0, 1), LINE, Reason::Given).unwrap_err();
    assert!(err.to_string().contains("three lines"), "{err}");
}

#[test]
fn an_exceeded_or_unreachable_clue_is_a_contradiction() {
    let mut b = board("1 2\n1 .\n0 0\n", false);
    b.set_edge(h(&b, 0, 0), LINE, Reason::Given).unwrap();
    let err = b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap_err();
    assert!(err.to_string().contains("more than 1 line"), "{err}");

    let mut b = board("1 2\n3 .\n0 0\n", false);
    b.set_edge(h(&b, 0, 0), CROSS, Reason::Given).unwrap();
    let err = b.set_edge(v(&b, 0, 0), CROSS, Reason::Given).unwrap_err();
    assert!(
        err.to_string().contains("could no longer have 3 lines"),
        "{err}"
    );
}

#[test]
fn a_loop_end_with_no_way_out_is_a_contradiction() {
    let mut b = board("2 2\n. .\n. .\n0 0\n", false);
    // Dot (1, 1): a line west, then crosses north, east and south.
    b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap();
    b.set_edge(v(&b, 0, 1), CROSS, Reason::Given).unwrap();
    b.set_edge(h(&b, 1, 1), CROSS, Reason::Given).unwrap();
    let err = b.set_edge(v(&b, 1, 1), CROSS, Reason::Given).unwrap_err();
    assert!(err.to_string().contains("the loop would end"), "{err}");
}

#[test]
fn a_premature_loop_is_a_contradiction_and_the_whole_answer_is_not() {
    // Around the top-left cell of a 2x2 whose other cells need lines too.
    let mut b = board("2 2\n. 1\n1 2\n0 0\n", true);
    b.set_edge(h(&b, 0, 0), LINE, Reason::Given).unwrap();
    b.set_edge(v(&b, 0, 0), LINE, Reason::Given).unwrap();
    b.set_edge(v(&b, 0, 1), LINE, Reason::Given).unwrap();
    let err = b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap_err();
    assert!(err.to_string().contains("a loop would close"), "{err}");

    // The same loop is fine when it is the whole answer.
    let mut b = board("1 1\n.\n0 0\n", true);
    for e in [h(&b, 0, 0), v(&b, 0, 0), v(&b, 0, 1)] {
        b.set_edge(e, LINE, Reason::Given).unwrap();
    }
    assert_eq!(b.set_edge(h(&b, 1, 0), LINE, Reason::Given), Ok(true));

    // A second loop, closed after a whole one, is premature: no chain is left open then, but
    // the first loop is.
    let mut b = board(
        "1 3
. . .
0 0
",
        true,
    );
    let around = |b: &Board, c: isize| [h(b, 0, c), v(b, 0, c), v(b, 0, c + 1), h(b, 1, c)];
    for e in around(&b, 0) {
        b.set_edge(e, LINE, Reason::Given).unwrap();
    }
    let [first, second, third, last] = around(&b, 2);
    for e in [first, second, third] {
        b.set_edge(e, LINE, Reason::Given).unwrap();
    }
    let err = b.set_edge(last, LINE, Reason::Given).unwrap_err();
    assert!(err.to_string().contains("a loop would close"), "{err}");
    b.undo_to(b.trail().len() - 1);
    assert_eq!(b.recount(), Ok(()));
    assert!(b.set_edge(last, LINE, Reason::Given).is_err());
}

#[test]
fn set_edge_keeps_counts_words_and_the_trail() {
    let mut b = board("2 2\n2 2\n2 2\n0 0\n", false);
    let top = h(&b, 0, 0);
    b.set_edge(top, LINE, Reason::Given).unwrap();
    let cell = b.index(1, 1);
    assert_eq!(b.cell_lines(cell), 1);
    assert_eq!(b.word(cell) & 3, 1, "north side of the cell is a line");
    assert_eq!(b.trail(), &[top as u32]);
    assert_eq!(b.reasons().collect::<Vec<_>>(), [Reason::Given]);
    assert_eq!(b.unknown(), 11);
    assert_eq!(b.line_count(), 1);
}

/// A random puzzle of up to 6x6 cells with clues and blanks, from a seed.
fn random_board(seed: u64) -> (Board, crate::generate::Rng) {
    let mut rng = crate::generate::Rng::new(seed);
    let rows = 1 + rng.index(6);
    let cols = 1 + rng.index(6);
    let clues = (0..rows * cols)
        .map(|_| {
            let k = rng.index(6);
            (k < 4).then_some(k as u8)
        })
        .collect();
    let puzzle = Puzzle { rows, cols, clues };
    let tracking = Tracking {
        closures: true,
        reasons: true,
    };
    (Board::new(&puzzle, 4, tracking), rng)
}

/// The same board built again by replaying `trail` (with the states of `from`) on a fresh
/// copy, colouring switched on after `colour_at` entries when given.
fn replayed(from: &Board, fresh: &Board, colour_at: Option<usize>) -> Board {
    let mut b = fresh.clone();
    for (k, &e) in from.trail().iter().enumerate() {
        if colour_at == Some(k) {
            let _ = b.start_colouring();
        }
        let _ = b.set_edge(e as usize, from.at(e as usize), Reason::Given);
    }
    if colour_at == Some(from.trail().len()) {
        let _ = b.start_colouring();
    }
    b
}

#[test]
fn undo_takes_back_every_count_chain_end_and_colour() {
    // As search uses the board: marks are taken on boards without contradiction, and a
    // contradiction is followed by an undo to the newest mark.
    for seed in 0..400 {
        let (mut board, mut rng) = random_board(seed);
        let fresh = board.clone();
        let edges: Vec<usize> = board.grid_edges().collect();
        let mut marks = vec![0];
        let mut colour_at = None;
        let mut undos = 0;
        let check = |board: &Board, colour_at: Option<usize>| {
            board
                .recount()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let again = replayed(board, &fresh, colour_at);
            assert_eq!(
                (board.unknown(), board.line_count(), board.unsatisfied()),
                (again.unknown(), again.line_count(), again.unsatisfied()),
                "seed {seed}"
            );
            for &a in &edges {
                assert_eq!(board.at(a), again.at(a), "seed {seed}");
                let [c, d] = board.edge_cells(a);
                let rel = |b: &Board| b.colouring().map(|k| k.relation(c, d));
                assert_eq!(rel(board), rel(&again), "seed {seed}: colours");
            }
        };
        for _ in 0..100 {
            match rng.index(12) {
                0..=7 => {
                    let e = edges[rng.index(edges.len())];
                    let state = if rng.index(2) == 0 { LINE } else { CROSS };
                    if board.set_edge(e, state, Reason::Given).is_err() {
                        let mark = if marks.len() > 1 {
                            marks.pop().unwrap()
                        } else {
                            0
                        };
                        if mark < colour_at.unwrap_or(0) {
                            colour_at = None;
                        }
                        board.undo_to(mark);
                        undos += 1;
                        check(&board, colour_at);
                    }
                }
                8 => {
                    if rng.index(4) == 0 {
                        board.keep_exits();
                    }
                    marks.push(board.trail().len())
                }
                9 if colour_at.is_none() && board.start_colouring().is_ok() => {
                    colour_at = Some(board.trail().len());
                    marks.push(board.trail().len());
                }
                _ => {
                    if marks.len() > 1 {
                        let mark = marks.pop().unwrap();
                        if mark < colour_at.unwrap_or(0) {
                            colour_at = None;
                        }
                        board.undo_to(mark);
                        undos += 1;
                        check(&board, colour_at);
                    }
                }
            }
        }
        assert!(undos > 0 || seed > 0, "the test undoes something");
    }
}

#[test]
fn refused_writes_change_nothing_and_contradictions_are_undone_whole() {
    let mut b = board("2 2\n1 .\n. .\n0 0\n", true);
    let top = h(&b, 0, 0);
    b.set_edge(top, LINE, Reason::Given).unwrap();
    let before = b.clone();
    // A conflict writes nothing.
    assert!(b.set_edge(top, CROSS, Reason::Given).is_err());
    assert_eq!(b.trail(), before.trail());
    b.recount().unwrap();
    // A clue exceeded is written whole, then taken back whole.
    let mark = b.trail().len();
    assert!(b.set_edge(v(&b, 0, 0), LINE, Reason::Given).is_err());
    assert_eq!(b.trail().len(), mark + 1);
    b.recount().unwrap();
    b.undo_to(mark);
    b.recount().unwrap();
    assert_eq!(b.word(b.index(1, 1)), before.word(before.index(1, 1)));
    assert_eq!(b.unsatisfied(), before.unsatisfied());
}

/// A blank 3x3 board with lines on three sides of the middle cell (loop closure on), and the
/// fourth, left side.
fn middle_cell_open_on_the_left() -> (Board, usize) {
    let mut b = board("3 3\n. . .\n. . .\n. . .\n0 0\n", true);
    for e in [h(&b, 1, 1), v(&b, 1, 2), h(&b, 2, 1)] {
        b.set_edge(e, LINE, Reason::Given).unwrap();
    }
    let closing = v(&b, 1, 1);
    (b, closing)
}

#[test]
fn a_closing_edge_left_open_becomes_a_cross_once_a_line_lies_elsewhere() {
    // Three sides of the middle cell: closing the fourth would finish the (blank) puzzle, so
    // loop closure leaves it; a line found later off that chain makes it a cross.
    let (mut b, closing) = middle_cell_open_on_the_left();
    let mut scratch = Vec::new();
    assert_eq!(
        crate::deduce::loop_closure::deduce(&mut b, &mut scratch),
        Ok(0)
    );
    assert_eq!(b.at(closing), UNKNOWN);
    b.set_edge(h(&b, 0, 0), LINE, Reason::Given).unwrap();
    assert_eq!(
        crate::deduce::loop_closure::deduce(&mut b, &mut scratch),
        Ok(1)
    );
    assert_eq!(b.at(closing), CROSS);
}

#[test]
fn a_deferred_edge_that_became_a_line_later_is_no_closing_line() {
    // Deferred inside a probe (closing would finish the blank puzzle), kept over the undo;
    // the same edge set as a line afterwards, on a board without that chain, closes nothing,
    // and loop closure must not cross every other edge as if the answer were complete.
    let (mut b, closing) = middle_cell_open_on_the_left();
    let mut scratch = Vec::new();
    assert_eq!(
        crate::deduce::loop_closure::deduce(&mut b, &mut scratch),
        Ok(0)
    );
    b.undo_to(0);
    b.set_edge(closing, LINE, Reason::Given).unwrap();
    assert_eq!(
        crate::deduce::loop_closure::deduce(&mut b, &mut scratch),
        Ok(0)
    );
    assert_eq!(b.at(h(&b, 0, 0)), UNKNOWN);
}
