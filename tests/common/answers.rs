//! Reading the spec's answer frames and puzzle streams independently of the crate, as oracles
//! for the tests of other formats.
#![allow(dead_code)] // each test crate uses its own subset

use std::collections::BTreeSet;

/// An edge: `('h', r, c)` is the edge right of dot (r, c), `('v', r, c)` the edge below it.
pub type EdgeKey = (char, usize, usize);

/// One answer of an answer stream: its number, size and the edges that are lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub number: usize,
    pub rows: usize,
    pub cols: usize,
    pub lines: BTreeSet<EdgeKey>,
}

/// The answers of an answer stream in the spec's format: a number line, then the `#` frame
/// around the picture (dot rows at picture lines 2, 4, ..., dots every 4 columns from 2).
pub fn parse_answers(text: &str) -> Vec<Answer> {
    let lines: Vec<&str> = text.lines().collect();
    let mut answers = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let number: usize = lines[i]
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("answer line {}: expected a number", i + 1));
        i += 1;
        let start = i;
        while i < lines.len() && lines[i].starts_with('#') {
            i += 1;
        }
        let frame = &lines[start..i];
        assert!(frame.len() >= 5, "answer {number}: frame too short");
        let width = frame[0].len();
        let cols = (width - 5) / 4;
        let rows = (frame.len() - 5) / 2;
        let at = |y: usize, x: usize| frame[y].as_bytes().get(x).copied().unwrap_or(b' ');
        let mut set = BTreeSet::new();
        for r in 0..=rows {
            for c in 0..cols {
                if at(2 + 2 * r, 2 + 4 * c + 2) == b'-' {
                    set.insert(('h', r, c));
                }
            }
        }
        for r in 0..rows {
            for c in 0..=cols {
                if at(3 + 2 * r, 2 + 4 * c) == b'|' {
                    set.insert(('v', r, c));
                }
            }
        }
        answers.push(Answer {
            number,
            rows,
            cols,
            lines: set,
        });
    }
    answers
}

/// One puzzle of a puzzle stream: size and clue tokens (`.` blank), row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleText {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<String>,
}

/// The puzzles of a well-formed stream (`rows cols`, rows of clues, `0 0` at the end).
pub fn parse_puzzles(text: &str) -> Vec<PuzzleText> {
    let mut tokens = text.split_whitespace();
    let mut puzzles = Vec::new();
    loop {
        let rows: usize = tokens.next().expect("size").parse().expect("number");
        let cols: usize = tokens.next().expect("size").parse().expect("number");
        if rows == 0 && cols == 0 {
            return puzzles;
        }
        let mut clues = Vec::new();
        for _ in 0..rows {
            clues.push((0..cols).map(|_| tokens.next().expect("clue")).collect());
        }
        puzzles.push(PuzzleText { rows, cols, clues });
    }
}

/// The first `n` puzzles of a stream, as a stream.
pub fn first_puzzles(text: &str, n: usize) -> String {
    let puzzles: Vec<PuzzleText> = parse_puzzles(text).into_iter().take(n).collect();
    stream(&puzzles)
}

/// Puzzle `index` (from 0) of a stream, as a stream of its own.
pub fn nth_puzzle(text: &str, index: usize) -> String {
    let puzzle = parse_puzzles(text)
        .into_iter()
        .nth(index)
        .unwrap_or_else(|| panic!("the stream has no puzzle {index} (from 0)"));
    stream(&[puzzle])
}

/// Puzzles written as a stream, with its end marker.
fn stream(puzzles: &[PuzzleText]) -> String {
    let mut out = String::new();
    for p in puzzles {
        out += &format!("{} {}\n", p.rows, p.cols);
        for row in &p.clues {
            let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            out += &cells.join(" ");
            out.push('\n');
        }
    }
    out + "0 0\n"
}
