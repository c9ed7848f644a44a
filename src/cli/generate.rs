//! `slink gen`: random Slink puzzles that the built-in rules finish.

use super::EXIT_OK;
use clap::Args;

/// Options of `slink gen`.
#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// Cell rows.
    #[arg(long)]
    pub rows: usize,
    /// Cell columns.
    #[arg(long)]
    pub cols: usize,
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Seed of the random generator: the same seed gives the same output.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Generates the puzzles; returns the exit status.
pub fn run(_args: &GenArgs) -> i32 {
    EXIT_OK
}
