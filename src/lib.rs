//! slink: a Slink and Slitherlink solver whose deductions live in text rule files.
//!
//! Rule files (`rules/*.rules`) are parsed ([`rules::grammar`]), checked ([`rules::check`]),
//! expanded over the 8 symmetries ([`rules::expand`]) and compiled into matchers with a watch
//! index ([`compile`]); the [`engine`] propagates decided edges through them on a [`board`],
//! with the global deducers in code switched on by name: loop closure ([`loops`]), colouring
//! ([`colouring`]), probing ([`probing`]) and search ([`search`]), under [`budget`]s.

#![forbid(unsafe_code)]

pub mod board;
pub mod budget;
pub mod cli;
pub mod colouring;
pub mod compile;
pub mod discover;
pub mod engine;
pub mod examples;
pub mod explain;
pub mod format;
pub mod generate;
pub mod geometry;
pub mod loops;
pub mod probing;
pub mod puzzle;
pub mod render;
pub mod rules;
pub mod search;
pub mod solve;
pub mod soundness;
pub mod stats;
pub mod verify;
pub mod view;
