//! `slink rules ablate`: what each rule is worth on a corpus.

use super::{EXIT_OK, RulesArg};
use clap::Args;
use std::path::PathBuf;

/// Options of `slink rules ablate`.
#[derive(Args, Debug, Clone)]
pub struct AblateArgs {
    /// The puzzle stream to measure on.
    #[arg(value_name = "CORPUS")]
    pub corpus: PathBuf,
    #[command(flatten)]
    pub rules: RulesArg,
}

/// Runs the ablation; returns the exit status.
pub fn run(_args: &AblateArgs) -> i32 {
    EXIT_OK
}
