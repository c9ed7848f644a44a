//! Inputs shared by the benchmarks: the real puzzle corpus (the one the tests read) and
//! deterministic generated puzzles, plus the end-to-end path of `slink solve` minus stdout.
//!
//! Each bench target includes this module and uses only part of it.
#![allow(dead_code)]

use slink::format::ascii::render_board;
use slink::{GenOptions, Generator};
use slink::{Outcome, Solver};
use slink::{Puzzle, PuzzleReader, parse_all};
use std::path::{Path, PathBuf};

/// The real corpora, by name (`puzzles-slink`, `puzzles-slitherlink`): the tests' copy first,
/// then the shared data.
fn candidates(name: &str) -> [String; 2] {
    [
        format!("tests/data/{name}.in"),
        format!("../shared/data/{name}.in"),
    ]
}

/// A real corpus: where it was read from, its bytes and its puzzles.
pub struct Corpus {
    /// The file it came from.
    pub path: PathBuf,
    /// The whole input stream, `0 0` included.
    pub bytes: Vec<u8>,
    /// Its puzzles, parsed.
    pub puzzles: Vec<Puzzle>,
}

impl Corpus {
    /// Total number of cells over all puzzles.
    pub fn cells(&self) -> u64 {
        self.puzzles.iter().map(|p| (p.rows * p.cols) as u64).sum()
    }
}

/// Loads the real Slink corpus, or explains on stderr why the corpus benchmarks are skipped.
pub fn corpus() -> Option<Corpus> {
    named_corpus("puzzles-slink")
}

/// Loads the real Slitherlink corpus (the same puzzles with blanks), or explains why not.
pub fn slitherlink_corpus() -> Option<Corpus> {
    named_corpus("puzzles-slitherlink")
}

fn named_corpus(name: &str) -> Option<Corpus> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for candidate in candidates(name) {
        let path = root.join(&candidate);
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let puzzles = parse_all(&path.display().to_string(), &bytes)
            .unwrap_or_else(|e| panic!("bad corpus {}: {e}", path.display()));
        return Some(Corpus {
            path,
            bytes,
            puzzles,
        });
    }
    eprintln!(
        "note: no {name} corpus found (looked for {}); skipping its benchmarks",
        candidates(name).join(" and ")
    );
    None
}

/// `count` distinct `rows` x `cols` Slink puzzles that the built-in rules finish, the same for
/// a given seed on every run and every machine.
pub fn generated(rows: usize, cols: usize, count: usize, seed: u64) -> Vec<Puzzle> {
    let mut options = GenOptions::new(rows, cols);
    options.seed = seed;
    generate(options, count)
}

/// Like [`generated`], every puzzle grown with one fixed shape (`fill`, `compactness`; see
/// `slink::Shape`). The time per cell depends much on the shape (compact blobs have
/// large areas of zeros and solve faster than maze-like loops), so grids of different sizes
/// are compared with one shape.
pub fn generated_shaped(
    rows: usize,
    cols: usize,
    count: usize,
    seed: u64,
    fill: f64,
    compactness: f64,
) -> Vec<Puzzle> {
    let mut options = GenOptions::new(rows, cols);
    options.seed = seed;
    options.fill = fill..=fill;
    options.compactness = compactness..=compactness;
    generate(options, count)
}

fn generate(options: GenOptions, count: usize) -> Vec<Puzzle> {
    let (rows, cols, seed) = (options.rows, options.cols, options.seed);
    let mut generator = Generator::builtin(options).expect("valid generator options");
    (0..count)
        .map(|_| {
            generator
                .next_puzzle()
                .unwrap_or_else(|e| panic!("generating {rows}x{cols} (seed {seed}): {e}"))
                .puzzle
        })
        .collect()
}

/// The input stream of these puzzles, `0 0` included.
pub fn stream(puzzles: &[Puzzle]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in puzzles {
        p.write_to(&mut out);
    }
    out.extend_from_slice(b"0 0\n");
    out
}

/// Total number of cells of these puzzles.
pub fn cells(puzzles: &[Puzzle]) -> u64 {
    puzzles.iter().map(|p| (p.rows * p.cols) as u64).sum()
}

/// How many of these puzzles the solver finishes.
pub fn count_solved(solver: &mut Solver, puzzles: &[Puzzle]) -> usize {
    puzzles
        .iter()
        .filter(|p| solver.solve(p).1 == Outcome::Solved)
        .count()
}

/// What `slink solve` does with one stream, with `out` in place of stdout: read the puzzles
/// one at a time, solve each, and append the answers of the solved ones. Returns the number
/// of puzzles not solved (the CLI reports those on stderr).
pub fn solve_stream(solver: &mut Solver, input: &[u8], out: &mut Vec<u8>) -> usize {
    let mut reader = PuzzleReader::new("<bench>", input);
    let mut unsolved = 0;
    let mut number = 0;
    while let Some(item) = reader.next_puzzle(&mut std::io::sink()) {
        number += 1;
        let puzzle = item.expect("benchmark input is valid");
        let (board, outcome) = solver.solve(&puzzle);
        if outcome == Outcome::Solved {
            render_board(out, number, &board);
        } else {
            unsolved += 1;
        }
    }
    unsolved
}
