//! slink: a Slink and Slitherlink solver whose deductions live in text rule files.
//!
//! Rule files (`rules/*.rules`) are parsed ([`rules::grammar`]), checked ([`rules::check`]),
//! expanded over the 8 symmetries ([`rules::expand`]) and compiled into matchers with a watch
//! index ([`rules::compile`]); the [`engine`] propagates decided edges through them on a
//! [`board`], with the global deducers of [`deduce`] switched on by name: loop closure,
//! colouring, probing and search, under budgets.

#![forbid(unsafe_code)]

pub mod board;
pub mod cli;
pub mod deduce;
pub mod discover;
pub mod engine;
pub mod explain;
pub mod format;
pub mod generate;
pub mod geometry;
pub mod puzzle;
pub mod rules;
pub mod solve;
pub mod stats;
pub mod verify;
