//! Command-line interface: the argument grammar (clap) and dispatch to each command.

mod ablate;
mod generate;
mod rules_check;
mod rules_test;
mod solve;

use crate::compile::{RuleBook, Switches};
use crate::rules::{LoadError, RuleSet};
use crate::stats::StatsView;
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Exit status: every puzzle solved, every check passed.
pub const EXIT_OK: i32 = 0;
/// Exit status: some puzzle was not solved (stuck or no solution), or some check failed.
pub const EXIT_UNSOLVED: i32 = 1;
/// Exit status: the input or the rules could not be read.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Solve Slink and Slitherlink puzzles with deduction rules read from text files.
///
/// With no command, `slink` reads a puzzle stream on standard input and writes the
/// answers on standard output (same as `slink solve`).
#[derive(Parser, Debug)]
#[command(name = "slink", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzle streams (standard input when no file is given).
    Solve(SolveArgs),
    /// Work on rule sets: check them, test them on their examples, measure what each rule is worth.
    #[command(subcommand)]
    Rules(RulesCommand),
    /// Generate random Slink puzzles that the built-in rules finish (so each has one solution).
    Gen(generate::GenArgs),
}

#[derive(Subcommand, Debug)]
enum RulesCommand {
    /// Parse and check every rule file, and prove each rule sound by brute force.
    Check {
        /// The rule directory (default: the built-in rule set).
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Run the examples written in the rule files and name each outcome.
    Test {
        /// The rule directory (default: the built-in rule set).
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// For each rule, count the puzzles of a corpus the rules no longer finish without it.
    Ablate(ablate::AblateArgs),
}

/// Options of `slink solve`.
#[derive(Args, Debug, Clone, Default)]
pub struct SolveArgs {
    /// Puzzle stream files; standard input when none is given (or for `-`).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    rules: RulesArg,
    /// After the run, print statistics on standard error: per rule (`rules`, the default), or
    /// also one line per puzzle (`puzzles`).
    #[arg(
        long,
        value_name = "VIEW",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "rules"
    )]
    stats: Option<StatsArg>,
    #[command(flatten)]
    deduction: DeductionArgs,
    /// Give up on a puzzle after N search nodes (guesses); it ends as "limit".
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Give up on a puzzle after SECS seconds (decimals allowed); it ends as "limit".
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

/// Switching global deducers off (each only takes effect when the rule set uses it).
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct DeductionArgs {
    /// Deduction only: no search (puzzles the deducers cannot finish end as "stuck").
    #[arg(long)]
    no_search: bool,
    /// No probing.
    #[arg(long)]
    no_probing: bool,
    /// No inside/outside colouring.
    #[arg(long)]
    no_colouring: bool,
}

impl DeductionArgs {
    /// The deducers these flags allow.
    pub fn switches(self) -> Switches {
        Switches {
            loop_closure: true,
            colouring: !self.no_colouring,
            probing: !self.no_probing,
            search: !self.no_search,
        }
    }
}

/// The views of `--stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum StatsArg {
    /// One line per rule, with totals.
    Rules,
    /// One line per puzzle, then the per-rule table.
    Puzzles,
}

impl From<StatsArg> for StatsView {
    fn from(arg: StatsArg) -> StatsView {
        match arg {
            StatsArg::Rules => StatsView::Rules,
            StatsArg::Puzzles => StatsView::Puzzles,
        }
    }
}

/// Parses a positive number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0 && secs < 1e9) {
        return Err(format!("`{text}`: give a positive number of seconds"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Where the rule set comes from.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArg {
    /// Load the rule set from the `*.rules` files of DIR instead of the built-in one.
    #[arg(long = "rules", value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl RulesArg {
    /// Loads and compiles the chosen rule set, or prints why it cannot.
    fn load(&self) -> Result<RuleBook, i32> {
        load_book(self.dir.as_deref())
    }
}

/// Loads a rule set (built-in when `dir` is None) and expands it; prints diagnostics on failure.
fn load_book(dir: Option<&Path>) -> Result<RuleBook, i32> {
    load_set(dir).map(RuleBook::new)
}

/// Loads a rule set (built-in when `dir` is None); prints diagnostics on failure.
fn load_set(dir: Option<&Path>) -> Result<RuleSet, i32> {
    let set = match dir {
        None => RuleSet::builtin(),
        Some(dir) => match RuleSet::load_dir(dir) {
            Ok(set) => set,
            Err(e @ LoadError::Io { .. }) => {
                eprintln!("slink: {e}");
                return Err(EXIT_BAD_INPUT);
            }
            Err(LoadError::Invalid(diagnostics)) => {
                for d in &diagnostics {
                    eprintln!("{d}");
                }
                let n = diagnostics.len();
                eprintln!(
                    "slink: {n} error{} in the rules of {}",
                    if n == 1 { "" } else { "s" },
                    dir.display()
                );
                return Err(EXIT_BAD_INPUT);
            }
        },
    };
    Ok(set)
}

/// Runs the command line; returns the process exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                EXIT_BAD_INPUT
            } else {
                EXIT_OK
            };
        }
    };
    match cli.command {
        None => solve::run(&cli.solve),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Rules(RulesCommand::Check { dir })) => rules_check::run(dir.as_deref()),
        Some(Command::Rules(RulesCommand::Test { dir })) => rules_test::run(dir.as_deref()),
        Some(Command::Rules(RulesCommand::Ablate(args))) => ablate::run(&args),
        Some(Command::Gen(args)) => generate::run(&args),
    }
}
