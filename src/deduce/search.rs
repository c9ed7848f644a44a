//! Search (`use search`): when deduction is stuck, the unknown edges that are left go to a CDCL SAT solver ([`crate::deduce::sat`]) that finds an answer and then proves it the only one, or finds a second.
//!
//! The depth-first search over the engine that stood here before (guesses, propagation,
//! backtracking through the trail, restarts) is in the history; docs/search.md says why the
//! SAT hand-off replaced it and what it measured.

use crate::board::{Board, Why};

/// What search found.
#[derive(Clone, Default)]
pub struct Found {
    /// The first answer, if any.
    pub first: Option<Board>,
    /// Whether a second, different answer was found (then the search stopped there).
    pub several: bool,
    /// The second answer, when one was found.
    pub second: Option<Board>,
    /// The lines of the first answer (lattice indices, sorted), to tell answers apart.
    pub(crate) first_edges: Option<Vec<u32>>,
    /// Whether the SAT search has blocked the first answer.
    pub(crate) blocked: bool,
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Search nodes: solver calls and the conflicts they met.
    pub nodes: u64,
    /// Solver calls (the first answer, then the proof that it is the only one, and again
    /// after each extra loop cut).
    pub runs: u32,
}

/// Searches the board (at a fixpoint of the engine) for up to two answers; see
/// [`crate::deduce::sat`].
pub use crate::deduce::sat::search;

/// A contradiction for a search that found no answer at all.
pub fn exhausted(board: &Board) -> crate::board::Contradiction {
    board.contradiction(Why::Exhausted, board.index(0, 0))
}
