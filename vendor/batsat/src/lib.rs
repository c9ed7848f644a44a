/*****************************************************************************************[lib.rs]
Copyright (c) 2018-2018, Masaki Hara

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT
OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
**************************************************************************************************/

//! Batsat
//!
//! A SAT solver in rust, originally reimplement from Minisat 2.2 (which is in C++),
//! and evolved from there.

// slink's vendored copy (SLINK-CHANGES.md): the original's own lints, which a registry
// dependency's build caps and a path dependency's does not.
#![allow(dangerous_implicit_autorefs, mismatched_lifetime_syntaxes)]

//======== LOG ============

// stubs when logging is not enabled
#[cfg(not(feature = "logging"))]
#[macro_use]
pub(crate) mod log {
    macro_rules! trace {
        ($( $x:expr ),*) => {};
    }
    macro_rules! debug {
        ($( $x:expr ),*) => {};
    }
    macro_rules! info {
        ($( $x:expr ),*) => {};
    }
}

#[cfg(feature = "logging")]
#[macro_use]
pub(crate) extern crate log;

//======== PUBLIC INTERFACE ============

pub mod alloc;
pub mod callbacks;
pub mod clause;
pub mod core;
pub mod dimacs;
pub mod drat;
pub mod interface;
pub mod intmap;
pub mod theory;

pub use crate::{
    callbacks::{Basic as BasicCallbacks, Callbacks, ProgressStatus, Stats as StatsCallbacks},
    clause::{display::Print, lbool, Kind as ClauseKind, LMap, LSet, Lit, VMap, Var},
    core::{Solver, SolverOpts},
    interface::SolverInterface,
    theory::{EmptyTheory, Theory, TheoryArg},
};

/// Basic solver, with basic callbacks and no theory.
///
/// Use this if you just want a normal SAT solver.
pub type BasicSolver = Solver<BasicCallbacks>;
