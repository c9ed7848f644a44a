//! slink: a Slink and Slitherlink solver whose deductions live in text rule files.
//!
//! Rule files (`rules/*.rules`) are parsed ([`rules::grammar`]), checked ([`rules::check`]),
//! expanded over the 8 symmetries ([`rules::expand`]) and compiled into matchers with a watch
//! index ([`compile`]); the [`engine`] propagates decided edges through them on a [`board`],
//! with loop closure ([`loops`]) as the one global deducer in code.

pub mod board;
pub mod cli;
pub mod compile;
pub mod engine;
pub mod examples;
pub mod generate;
pub mod geometry;
pub mod loops;
pub mod puzzle;
pub mod render;
pub mod rules;
pub mod solve;
pub mod soundness;
pub mod stats;
pub mod verify;
