//! Command-line interface: the argument grammar (clap) and dispatch to each command.

mod ablate;
mod args;
mod convert;
mod corpus;
mod discover;
mod explain;
mod generate;
mod hint;
mod input;
mod interrupt;
mod io;
mod parallel;
mod proof;
pub mod proof_cache;
mod rules_check;
mod rules_export;
mod rules_test;
mod solve;
pub(crate) mod write_file;

use crate::deduce::{Deducer, DeducerSet};
use crate::puzzle::MAX_CELLS;
use crate::rules::compile::RuleBook;
use crate::rules::{LoadError, RuleSet};
use crate::solve::{LateRules, SolveOptions};
use crate::stats::StatsView;
use clap::{Args, Parser, Subcommand};
use io::{Io, say};
use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
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
    /// Explain each puzzle's solution step by step: every rule (file and line), symmetry,
    /// place and the edges it decided; as text, or as an HTML page to step through.
    Explain(explain::ExplainArgs),
    /// Convert puzzles between the stream format, puzz.link URLs and boards with marks
    /// (framed pictures, pzprjs `pzprv3` files), without solving.
    Convert(convert::ConvertArgs),
    /// For a half-solved board (lines and crosses made so far): which marks are wrong, or
    /// else the easiest next step from the board as it is.
    Hint(hint::HintArgs),
    /// Generate random Slink puzzles that the built-in rules finish (so each has one solution).
    Gen(generate::GenArgs),
}

#[derive(Subcommand, Debug)]
enum RulesCommand {
    /// Parse and check every rule file, and prove each rule sound by brute force.
    Check(RuleDirArg),
    /// Run the examples written in the rule files and name each outcome.
    Test(RuleDirArg),
    /// Write the built-in rule files into a directory, to edit them or add to them (load them
    /// with `--rules DIR`).
    Export(rules_export::ExportArgs),
    /// For each rule, count the puzzles of a corpus the rules no longer finish without it.
    Ablate(ablate::AblateArgs),
    /// Find new proven-sound rules in a small window and write them as rule files.
    Discover(discover::DiscoverArgs),
}

/// The rule directories of `rules check` and `rules test`.
#[derive(Args, Debug, Clone)]
struct RuleDirArg {
    /// The rule directories, loaded together as the solver loads them (default: the built-in
    /// rule set; `builtin` names it, so `builtin mine` is the built-in set with mine's rules).
    #[arg(value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// A rule directory, as `--rules DIR` (the same as giving DIR; repeatable).
    #[arg(long = "rules", value_name = "DIR")]
    rules: Vec<PathBuf>,
}

impl RuleDirArg {
    fn dirs(&self) -> Vec<PathBuf> {
        self.dirs.iter().chain(&self.rules).cloned().collect()
    }
}

/// Options of `slink solve`.
#[derive(Args, Debug, Clone, Default)]
pub struct SolveArgs {
    /// Puzzle stream files, files of puzz.link URLs (one per line), or URLs; standard input
    /// when none is given (or for `-`).
    #[arg(value_name = "FILE|URL")]
    files: Vec<PathBuf>,
    /// How answers are written: `ascii` (the spec's frame), `unicode` (box drawing), `svg`
    /// (one SVG document: standard output holds one puzzle's, and a second puzzle ends the
    /// run with a message; give --out-dir for one file per puzzle), `json` (one object per
    /// line per puzzle, solved or not, and `"outcome": "error"` for one that cannot be read),
    /// `url` (each puzzle's puzz.link URL).
    #[arg(long, value_enum, default_value_t = FormatArg::Ascii)]
    format: FormatArg,
    /// With `--format svg`: write each answer to its own file, DIR/K.svg for puzzle K, instead
    /// of standard output (DIR is made when missing; an existing file is kept, see --force).
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// With --out-dir: replace files that exist already (never through a symbolic link).
    #[arg(long)]
    force: bool,
    /// Colour for `--format unicode` (other formats ignore it, with a warning): `auto` (on a
    /// terminal, unless NO_COLOR is set), `always`, `never`.
    #[arg(long = "color", alias = "colour", value_enum, default_value_t = ColourArg::Auto)]
    colour: ColourArg,
    /// With `--format svg`: draw crosses too (other formats ignore it, with a warning).
    #[arg(long)]
    crosses: bool,
    /// Count each puzzle's answers up to N (default 2), and work out the edges every answer
    /// shares even when there is one (JSON `solutions` and `facts`).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    count: Option<u64>,
    /// For a puzzle with several answers, propose clues for blank cells that make the
    /// answer unique (or, failing that, leave the fewest edges undetermined), best first.
    #[arg(long)]
    suggest: bool,
    /// Solve on N threads (default: every core); answers stay in input order.
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,
    /// Print each puzzle's grade on standard error: the highest rule level it needed, whether
    /// loop closure, colouring, connectivity, parity, probing or search was needed, how many
    /// probes (preferring the shortest chains, as `explain` does) and how deep the deepest went,
    /// and how many search nodes.
    #[arg(long)]
    grade: bool,
    /// Keep the rules probing stands in for (`use probing instead of level N`: the rules
    /// learned from probes), and try every rule before a probe, as `explain`, --grade,
    /// --stats and --no-probing do. Without it, a plain solve leaves them out: probing finds
    /// what they would, sooner.
    #[arg(long)]
    rules_first: bool,
    #[command(flatten)]
    rules: RulesArg,
    #[command(flatten)]
    trust: TrustArg,
    #[command(flatten)]
    input: InputArgs,
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
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Per-puzzle budgets.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct BudgetArgs {
    /// Give up on a puzzle after N search nodes (guesses); it ends as "limit".
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Give up on a puzzle after SECS seconds (decimals allowed); it ends as "limit".
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

impl BudgetArgs {
    /// The solver's options: these budgets, the deducers of `deduction`, and whether the trail
    /// keeps a reason for every edge (`reasons`: statistics and explanations need them).
    fn solve_options(&self, deduction: &DeductionArgs, reasons: bool) -> SolveOptions {
        SolveOptions {
            switches: deduction.switches(),
            max_nodes: self.max_nodes,
            timeout: self.timeout,
            reasons,
        }
    }
}

/// Whether a rule set read from files is proven sound before it is used.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct TrustArg {
    /// Use the rules of --rules without proving them sound first. Answers are still checked
    /// before they are printed, but "no solution" and "the only answer" then hold only as far
    /// as those rules are sound, and the messages say so.
    #[arg(long)]
    trust_rules: bool,
    /// Prove every rule of --rules now, even those proven before on this machine (see
    /// docs/trust.md for the cache of proven rules).
    #[arg(long)]
    no_proof_cache: bool,
}

/// Limits on the puzzle input.
#[derive(Args, Debug, Clone, Copy)]
pub struct InputArgs {
    /// Largest puzzle accepted, in cells (rows x columns); a larger one is reported and
    /// skipped, and the stream goes on after it. Memory grows with the cells of a puzzle.
    #[arg(long, value_name = "N", default_value_t = MAX_CELLS, value_parser = parse_cells)]
    max_cells: usize,
}

impl Default for InputArgs {
    fn default() -> Self {
        InputArgs {
            max_cells: MAX_CELLS,
        }
    }
}

/// Parses a positive number of cells.
fn parse_cells(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "`{text}`: give a whole number of cells, at least 1"
        )),
    }
}

/// Switching global deducers off (each only takes effect when the rule set uses it): one
/// `--no-NAME` flag per deducer, made from [`Deducer::ALL`].
#[derive(Debug, Clone, Copy, Default)]
pub struct DeductionArgs {
    /// The deducers switched off.
    off: DeducerSet,
}

impl DeductionArgs {
    /// The deducers these flags allow.
    pub fn switches(self) -> DeducerSet {
        self.off.iter().fold(DeducerSet::ALL, DeducerSet::without)
    }
}

impl clap::FromArgMatches for DeductionArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut args = DeductionArgs {
            off: DeducerSet::NONE,
        };
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for d in Deducer::ALL {
            if matches.get_flag(d.flag()) {
                self.off = self.off.with(d);
            }
        }
        Ok(())
    }
}

impl Args for DeductionArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Deducer::ALL.into_iter().fold(cmd, |cmd, d| {
            cmd.arg(
                clap::Arg::new(d.flag())
                    .long(d.flag())
                    .action(clap::ArgAction::SetTrue)
                    .help(d.flag_help()),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        DeductionArgs::augment_args(cmd)
    }
}

/// Parses `--count N`: a number of answers, at least 1.
fn parse_count(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{text}`: give a number of answers, at least 1")),
    }
}

/// The formats of `--format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// The spec's framed ASCII picture.
    #[default]
    Ascii,
    /// Box-drawing lines and crosses.
    Unicode,
    /// An SVG document per answer (one on standard output; --out-dir for several).
    Svg,
    /// One JSON object per line per puzzle.
    Json,
    /// Each puzzle's puzz.link URL.
    Url,
}

/// The choices of `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourArg {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Parses a positive number of threads.
fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("`{text}`: give a number of threads from 1 to 1024")),
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

/// The longest time limit taken, in seconds.
const MAX_SECONDS: f64 = 1e9;

/// Parses a positive number of seconds, at most [`MAX_SECONDS`].
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0 && secs <= MAX_SECONDS) {
        return Err(format!(
            "`{text}`: give a number of seconds above 0 and at most {MAX_SECONDS:e} (about 31 years)"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Where the rule set comes from.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArg {
    /// Load the rule set from the `*.rules` files of DIR instead of the built-in one; repeat
    /// to load several directories together, in the order given. `builtin` names the built-in
    /// set (loaded first): `--rules builtin --rules mine` adds mine's rules to it.
    #[arg(long = "rules", value_name = "DIR")]
    dirs: Vec<PathBuf>,
}

impl RulesArg {
    /// Loads and compiles the chosen rule set, or prints why it cannot; a set read from files
    /// is proven sound first unless `trust` says otherwise.
    fn load(&self, io: &mut Io, trust: TrustArg) -> Result<RuleBook, i32> {
        load_proven(io, &self.dirs, trust).map(RuleBook::new)
    }

    /// [`RulesArg::load`] for a plain solve with probing on: the book without the rules
    /// probing stands in for ([`RuleSet::without_what_probing_replaces`]), and those rules
    /// (the built-in files holding only such rules are not read now: see
    /// [`crate::solve::Late`]). A set read from files is proven whole.
    fn load_with_probing(
        &self,
        io: &mut Io,
        trust: TrustArg,
    ) -> Result<(RuleBook, LateRules), i32> {
        if self.is_builtin() {
            let book = RuleBook::new(RuleSet::builtin_to_solve_with_probing());
            return Ok((book, LateRules::Builtin));
        }
        let set = load_proven(io, &self.dirs, trust)?;
        let late = match set.probing_replaces {
            Some(n) => set.rules.iter().filter(|r| r.level >= n).cloned().collect(),
            None => Vec::new(),
        };
        let book = RuleBook::new(set.without_what_probing_replaces());
        Ok((book, LateRules::Read(std::sync::Arc::new(late))))
    }

    /// Loads the chosen rule set without compiling it, proven as [`RulesArg::load`] does.
    fn set(&self, io: &mut Io, trust: TrustArg) -> Result<RuleSet, i32> {
        load_proven(io, &self.dirs, trust)
    }

    /// Whether the rule set is the one built into the binary (proven by the test suite).
    fn is_builtin(&self) -> bool {
        split_builtin(&self.dirs).1.is_empty()
    }
}

/// The name that stands for the built-in rule set among rule directories (a directory of
/// that name is written `./builtin`).
pub const BUILTIN: &str = "builtin";

/// Whether `dirs` name the built-in set, and the directories they name besides.
fn split_builtin<P: AsRef<Path>>(dirs: &[P]) -> (bool, Vec<&Path>) {
    let builtin = dirs.is_empty() || dirs.iter().any(|d| d.as_ref() == Path::new(BUILTIN));
    let files = dirs
        .iter()
        .map(AsRef::as_ref)
        .filter(|d| *d != Path::new(BUILTIN))
        .collect();
    (builtin, files)
}

/// The command that checks the rules of `dirs`, quoted for a POSIX shell where needed.
fn check_command(dirs: &[&Path]) -> String {
    let mut command = "slink rules check".to_string();
    for dir in dirs {
        command.push(' ');
        command.push_str(&shell_word(&dir.display().to_string()));
    }
    command
}

/// A word for a POSIX shell: as it is when it is plain, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+:=@,%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Loads a rule set (built-in when `dirs` is empty, else the rules of every directory
/// together); one read from files is proven sound rule by rule and refused when a rule is not
/// (unless `--trust-rules`). Prints why on failure.
///
/// The built-in rules come without their examples (see [`RuleSet::builtin_to_solve`]): the
/// callers solve with the set and never run them.
fn load_proven<P: AsRef<Path>>(io: &mut Io, dirs: &[P], trust: TrustArg) -> Result<RuleSet, i32> {
    let set = load_dirs_with(io, dirs, false)?;
    let (builtin, files) = split_builtin(dirs);
    if !files.is_empty() {
        // The built-in rules come first and are proven by the test suite: only the others are.
        let skip = if builtin {
            RuleSet::builtin_to_solve().rules.len()
        } else {
            0
        };
        let own = RuleSet {
            rules: set.rules[skip..].to_vec(),
            deducers: set.deducers.clone(),
            probing_replaces: set.probing_replaces,
        };
        proof::vet(
            io,
            &own,
            &shown(&files),
            &check_command(&files),
            trust.trust_rules,
            !trust.no_proof_cache,
        )?;
    }
    Ok(set)
}

/// The directories as they are named in messages: `a`, `a and b`.
fn shown<P: AsRef<Path>>(dirs: &[P]) -> String {
    let names: Vec<String> = dirs
        .iter()
        .map(|d| d.as_ref().display().to_string())
        .collect();
    names.join(" and ")
}

/// Loads the rules of several directories together (built-in when there are none, or among
/// them as `builtin`), without proofs; prints diagnostics on failure, and warnings about an
/// empty directory and about deducers the set leaves off.
fn load_dirs<P: AsRef<Path>>(io: &mut Io, dirs: &[P]) -> Result<RuleSet, i32> {
    load_dirs_with(io, dirs, true)
}

/// [`load_dirs`], with the built-in set's examples left unread unless `examples`.
fn load_dirs_with<P: AsRef<Path>>(io: &mut Io, dirs: &[P], examples: bool) -> Result<RuleSet, i32> {
    let (builtin, files) = split_builtin(dirs);
    let set = match files.as_slice() {
        [] if examples => RuleSet::builtin(),
        [] => RuleSet::builtin_to_solve(),
        _ => match RuleSet::load_with_builtin(builtin, &files) {
            Ok(set) => {
                proof::warn_about_contents(io, &set, &files);
                set
            }
            Err(e @ LoadError::Io { .. }) => {
                say!(io, "slink: {e}");
                return Err(EXIT_BAD_INPUT);
            }
            Err(LoadError::Invalid(diagnostics)) => {
                for d in &diagnostics {
                    say!(io, "{d}");
                }
                let n = diagnostics.len();
                say!(
                    io,
                    "slink: {n} error{} in the rules of {}",
                    if n == 1 { "" } else { "s" },
                    shown(dirs)
                );
                return Err(EXIT_BAD_INPUT);
            }
        },
    };
    Ok(set)
}

/// What the system said about a failed file operation, without the `(os error N)` tail:
/// "no such file or directory".
pub(crate) fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text.to_string(),
    }
}

/// Runs the command line of this process on its standard streams; returns the exit status.
pub fn main() -> i32 {
    // Ctrl-C while answers are written ends the run on a whole answer.
    interrupt::install();
    let (mut stdin, mut stdout, mut stderr) =
        (std::io::stdin(), std::io::stdout(), std::io::stderr());
    let (out_terminal, err_terminal) = (stdout.is_terminal(), stderr.is_terminal());
    let mut io = Io {
        stdin: &mut stdin,
        out: &mut stdout,
        err: &mut stderr,
        out_terminal,
        err_terminal,
        proof_cache: proof_cache::dir_from_env(),
    };
    run_with(std::env::args_os().collect(), &mut io)
}

/// Runs a command line in-process on the given streams (neither is a terminal, and no proof
/// cache is used); returns the exit status. `args` starts with the program name, as `std::env::args_os` does.
pub fn run(
    args: Vec<OsString>,
    stdin: &mut (dyn Read + Send),
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> i32 {
    let mut io = Io {
        stdin,
        out: stdout,
        err: stderr,
        out_terminal: false,
        err_terminal: false,
        proof_cache: None,
    };
    run_with(args, &mut io)
}

/// Runs a command line on `io`; returns the exit status.
pub fn run_with(args: Vec<OsString>, io: &mut Io) -> i32 {
    let cli = match Cli::try_parse_from(args::hoist_options(args)) {
        Ok(cli) => cli,
        Err(e) => return args::report(io, &e),
    };
    match cli.command {
        None => solve::run(io, &cli.solve),
        Some(Command::Solve(args)) => solve::run(io, &args),
        Some(Command::Rules(RulesCommand::Check(arg))) => rules_check::run(io, &arg.dirs()),
        Some(Command::Rules(RulesCommand::Test(arg))) => rules_test::run(io, &arg.dirs()),
        Some(Command::Rules(RulesCommand::Export(args))) => rules_export::run(io, &args),
        Some(Command::Rules(RulesCommand::Ablate(args))) => ablate::run(io, &args),
        Some(Command::Rules(RulesCommand::Discover(args))) => discover::run(io, &args),
        Some(Command::Explain(args)) => explain::run(io, &args),
        Some(Command::Convert(args)) => convert::run(io, &args),
        Some(Command::Gen(args)) => generate::run(io, &args),
        Some(Command::Hint(args)) => hint::run(io, &args),
    }
}
