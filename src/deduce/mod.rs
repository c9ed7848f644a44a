//! The global deducers: the reasoning that no rule picture can state (loop closure, inside/outside colouring, probing, search), one file each, listed once in [`Deducer::ALL`].
//!
//! Everything about a deducer is keyed by [`Deducer`]: a rule set switches it on by its
//! [`Deducer::name`] (`use colouring`), the solver's switches are a [`DeducerSet`], the counts
//! of what each decided are a [`PerDeducer`] (in the engine's and the solver's reports, the
//! statistics and the JSON), the board's trail records `Reason::By(deducer)`, and the command
//! line's `--no-NAME` flags are made from [`Deducer::flag`].
//!
//! Adding a deducer touches its own file, the enum below (its name, words, help and phase in
//! the `match`es of its `impl`), and one dispatch point: [`at_fixpoint`] for a deducer that
//! runs inside propagation, as loop closure and colouring do, or the solver's `finish` for one
//! that runs when propagation is stuck, as probing and search do.
//!
//! Layers: [`budget`], [`loop_closure`] and [`colouring`] stand on the board (the engine calls
//! them at every fixpoint); [`probing`] and [`search`] stand on the engine.

pub mod ambiguity;
#[cfg(test)]
pub(crate) mod brute_force;
pub mod budget;
pub mod colouring;
pub mod connectivity;
pub mod loop_closure;
pub mod parity;
pub mod probing;
pub mod regions;
pub mod sat;
pub mod search;

pub(crate) mod deducer;

pub use deducer::{Deducer, DeducerSet, PerDeducer, Phase};

use crate::board::{Board, Contradiction};

/// What the engine asks of a deducer that runs inside propagation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// The rules and the deducers before it are stuck on a fresh board: come on (colouring
    /// lays out its classes only then, so puzzles the rules finish never pay for it).
    ComeOn,
    /// Deduce what follows from the edges decided since the last call.
    Deduce,
}

/// The one dispatch point of the deducers that run inside propagation ([`Phase::Fixpoint`]):
/// returns the edges decided. `scratch` is the engine's work space, reused between calls.
pub fn at_fixpoint(
    d: Deducer,
    call: Call,
    board: &mut Board,
    scratch: &mut Vec<u32>,
) -> Result<u64, Contradiction> {
    match (d, call) {
        (Deducer::LoopClosure, Call::Deduce) => loop_closure::deduce(board, scratch),
        (Deducer::Colouring, Call::ComeOn) => colouring::come_on(board).map(|()| 0),
        // The colour rules run in the engine (they are compiled matchers).
        (Deducer::Colouring, Call::Deduce) => Ok(0),
        (Deducer::Connectivity, Call::Deduce) => connectivity::deduce(board),
        (Deducer::Regions, Call::Deduce) => regions::deduce(board, scratch),
        (Deducer::Parity, Call::Deduce) => parity::deduce(board),
        (
            Deducer::LoopClosure | Deducer::Connectivity | Deducer::Regions | Deducer::Parity,
            Call::ComeOn,
        )
        | (Deducer::Probing | Deducer::Search, _) => Ok(0),
    }
}
