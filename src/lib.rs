//! slink: a Slink and Slitherlink solver whose deductions live in text rule files.
//!
//! Rule files (`rules/*.rules`) are parsed, checked, expanded over the 8 symmetries and
//! compiled into matchers ([`rules`]); a worklist engine propagates decided edges through
//! them on a board, with the global deducers in code switched on by name ([`Deducer`]): loop
//! closure, colouring, probing and search. See `docs/architecture.md` for the module map.
//!
//! This is the façade: what the binary, the tests, the benches and the fuzz targets use.
//!
//! ```
//! let puzzles = slink::parse_all("example", b"2 2\n2 2\n2 2\n0 0\n").unwrap();
//! let mut solver = slink::Solver::new(slink::RuleBook::new(slink::rules::RuleSet::builtin()));
//! let (board, outcome) = solver.solve(&puzzles[0]);
//! assert_eq!(outcome, slink::Outcome::Solved);
//! assert!(slink::check_answer(&board).is_ok());
//! let mut out = Vec::new();
//! slink::format::ascii::render_board(&mut out, 1, &board);
//! assert!(out.starts_with(b"1\n#############\n"));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod board;
pub mod cli;
mod deduce;
mod discover;
mod engine;
mod explain;
pub mod format;
mod generate;
mod geometry;
mod puzzle;
pub mod rules;
mod solve;
mod stats;
mod verify;

pub use board::{Board, Contradiction, Why};
pub use deduce::ambiguity::{Ambiguity, AmbiguityOptions, Suggestion};
pub use deduce::{Deducer, DeducerSet, PerDeducer};
pub use generate::{
    GenOptions, Generator, Rng, Shape, Solution, random_loop_puzzle, random_region,
};
pub use puzzle::{InputError, MAX_CELLS, Position, Puzzle, PuzzleReader, parse_all};
pub use rules::RuleBook;
pub use solve::{Attempt, LateRules, Outcome, Report, SolveOptions, Solver};
pub use verify::check_answer;
