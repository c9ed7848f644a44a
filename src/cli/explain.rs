//! `slink explain`: each puzzle's solution as numbered steps (rule and `file:line`, symmetry, place, edges decided; loop closure, colouring, probing and guesses named), the board drawn every N steps and where it got stuck, or one HTML page per puzzle to step through.

use super::input::{Inputs, Item, Source};
use super::io::{Io, say};
use super::write_file::{Existing, write_file};
use super::{
    BudgetArgs, DeductionArgs, EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED, InputArgs, RulesArg,
    TrustArg,
};
use crate::deduce::ambiguity::Ambiguity;
use crate::explain::index::{self, Entry};
use crate::explain::{edge_name, html, replay, steps};
use crate::format::json::outcome_word;
use crate::format::picture;
use crate::format::view::{Marked, Picture};
use crate::format::words::count;
use crate::rules::compile::RuleBook;
use crate::solve::{Outcome, Solver};
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Options of `slink explain`.
#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// Puzzle stream files, files of URLs, or URLs; standard input when none is given.
    #[arg(value_name = "FILE|URL")]
    files: Vec<PathBuf>,
    /// Draw the board (lines, crosses, unknown edges) after every N steps.
    #[arg(long, value_name = "N")]
    every: Option<usize>,
    /// Write an HTML page to step through instead of text: OUT for the first puzzle, OUT
    /// with `-2`, `-3`, ... before its extension for the next ones (puzzle K's page is named
    /// after K also when an earlier puzzle is bad); for several puzzles, --out-dir is tidier.
    /// An existing file is kept (see --force).
    #[arg(long, value_name = "OUT", conflicts_with = "out_dir")]
    html: Option<PathBuf>,
    /// Write the HTML pages into DIR, one per puzzle (DIR/K.html for puzzle K), and
    /// DIR/index.html listing them (DIR is made when missing). An existing file is kept (see
    /// --force).
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// With --html or --out-dir: replace pages that exist already (never through a symbolic
    /// link).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    rules: RulesArg,
    #[command(flatten)]
    trust: TrustArg,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    deduction: DeductionArgs,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Explains every puzzle of the sources; returns the exit status.
/// The largest puzzle, in cells, that `--html` writes a page for: the page stores its steps
/// as numbers and its script draws the board, so it takes about 40 bytes a cell (500x500
/// makes a page of about 10 MB); a browser then holds some 4 elements a cell, which is what
/// the cap is for.
pub(crate) const MAX_PAGE_CELLS: usize = 250_000;

pub fn run(io: &mut Io, args: &ExplainArgs) -> i32 {
    let book = match args.rules.load(io, args.trust) {
        Ok(book) => book,
        Err(status) => return status,
    };
    if args.force && args.html.is_none() && args.out_dir.is_none() {
        say!(
            io,
            "slink explain: --force is for --html or --out-dir (replace pages that exist already)"
        );
        return EXIT_BAD_INPUT;
    }
    if let Some(dir) = &args.out_dir
        && let Err(message) = super::solve::make_dir(dir)
    {
        say!(io, "slink explain: {message}");
        return EXIT_BAD_INPUT;
    }
    if args.every == Some(0) {
        say!(
            io,
            "slink explain: --every takes a number of steps, at least 1"
        );
        return EXIT_BAD_INPUT;
    }
    let options = args.budget.solve_options(&args.deduction, true);
    let mut solver = Solver::with_options(book, options);
    solver.set_shortest_probes(true);
    // For a puzzle with several solutions: which edges differ, said and drawn.
    solver.set_unasked_ambiguity(true);
    let sources = Source::of_args(&args.files);
    let Io {
        stdin, out, err, ..
    } = io;
    let mut inputs = Inputs::new(sources, &mut **stdin, args.input.max_cells);
    let (mut bad, mut unsolved) = (false, false);
    let mut text = String::new();
    let mut numbered_before = 0;
    // Trusted rules may be unsound: a contradiction then is one under those rules.
    let relative = args.trust.trust_rules && !args.rules.is_builtin();
    let mut pages = Vec::new();
    while let Some(item) = inputs.next(&mut **out) {
        let (number, source, puzzle) = match item {
            Item::Puzzle {
                number,
                source,
                puzzle,
            } => {
                numbered_before = number;
                (number, source, puzzle)
            }
            Item::Problem(message) => {
                bad = true;
                let _ = writeln!(err, "{message}");
                // A bad puzzle keeps its number, and so its page's name: no page for it.
                if let Some(path) = page_path(args, inputs.numbered())
                    && inputs.numbered() > numbered_before
                {
                    let number = inputs.numbered();
                    let _ = writeln!(
                        err,
                        "slink: puzzle {number} could not be read, so {} is not written",
                        path.display()
                    );
                }
                numbered_before = inputs.numbered();
                continue;
            }
            Item::Warning(message) => {
                let _ = writeln!(err, "{message}");
                continue;
            }
        };
        let page_path = page_path(args, number);
        if page_path.is_some() && puzzle.rows * puzzle.cols > MAX_PAGE_CELLS {
            bad = true;
            let _ = writeln!(
                err,
                "slink: puzzle {number} ({}x{}) is too big for an explanation page: a page holds \
                 at most {MAX_PAGE_CELLS} cells (about 10 MB); explain it as text instead",
                puzzle.rows, puzzle.cols
            );
            continue;
        }
        let attempt = solver.attempt(&puzzle);
        unsolved |= attempt.outcome != Outcome::Solved;
        let outcome = describe_outcome(&attempt.outcome, attempt.ambiguity.as_ref(), relative);
        let headline = format!(
            "puzzle {number} ({source}, {}x{}): {outcome}",
            puzzle.rows, puzzle.cols
        );
        if let Some(path) = page_path {
            let page = html::render(
                &headline,
                &outcome,
                &Picture::blank(&puzzle),
                &attempt.board,
                solver.book(),
                attempt.ambiguity.as_ref(),
            );
            if let Err(status) = write_page(err, &path, &page, args.force) {
                return status;
            }
            pages.push(Entry {
                file: format!("{number}.html"),
                headline,
            });
            continue;
        }
        text.clear();
        explain_text(
            &mut text,
            &headline,
            &puzzle,
            &attempt,
            solver.book(),
            args.every,
        );
        if let Err(e) = out.write_all(text.as_bytes()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return EXIT_OK;
            }
            let _ = writeln!(err, "slink: cannot write the explanation: {e}");
            return EXIT_BAD_INPUT;
        }
    }
    let _ = out.flush();
    if let Some(dir) = &args.out_dir
        && let Err(status) = write_page(
            err,
            &dir.join("index.html"),
            &index::render(&pages),
            args.force,
        )
    {
        return status;
    }
    if bad {
        EXIT_BAD_INPUT
    } else if unsolved {
        EXIT_UNSOLVED
    } else {
        EXIT_OK
    }
}

/// Writes one explanation page (never over an existing file unless `force`, never through a
/// link) and says so; the exit status when it cannot.
fn write_page(
    err: &mut dyn std::io::Write,
    path: &Path,
    page: &str,
    force: bool,
) -> Result<(), i32> {
    let existing = if force {
        Existing::Replace
    } else {
        Existing::Keep
    };
    match write_file(path, page.as_bytes(), existing) {
        Ok(()) => {
            let _ = writeln!(err, "slink: wrote {}", path.display());
            Ok(())
        }
        Err(e) => {
            let _ = writeln!(err, "slink: {e}");
            Err(EXIT_BAD_INPUT)
        }
    }
}

/// The file of puzzle `number`'s page: under --out-dir, or named after --html; `None` for text.
fn page_path(args: &ExplainArgs, number: usize) -> Option<PathBuf> {
    match (&args.out_dir, &args.html) {
        (Some(dir), _) => Some(dir.join(format!("{number}.html"))),
        (None, Some(base)) => Some(numbered(base, number)),
        (None, None) => None,
    }
}

/// `solved, the only answer`, `stuck`, ... (`relative`: the rules are trusted without proof).
fn describe_outcome(outcome: &Outcome, ambiguity: Option<&Ambiguity>, relative: bool) -> String {
    match outcome {
        Outcome::Solved => "solved, the only answer".to_string(),
        Outcome::Several => match ambiguity {
            Some(a) => format!(
                "several solutions ({}{} between them); the first found is explained",
                if a.complete { "" } else { "at least " },
                count_verb(a.undetermined.len(), "edge differs", "edges differ")
            ),
            None => "several solutions; the first found is explained".to_string(),
        },
        Outcome::Stuck { unknown } => format!("stuck with {} unknown", count(*unknown, "edge")),
        Outcome::Contradiction(c) if relative => format!(
            "no solution under these rules, which are trusted without proof (--trust-rules): {c}"
        ),
        Outcome::Contradiction(c) => format!("no solution: {c}"),
        Outcome::Limit { limit, .. } => format!("{}: {limit}", outcome_word(outcome)),
    }
}

/// The file for puzzle `number`: `base` for the first, `name-K.ext` for the others.
fn numbered(base: &Path, number: usize) -> PathBuf {
    if number == 1 {
        return base.to_path_buf();
    }
    let stem = base
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match base.extension() {
        Some(ext) => format!("{stem}-{number}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{number}"),
    };
    base.with_file_name(name)
}

/// The text explanation of one puzzle.
fn explain_text(
    text: &mut String,
    headline: &str,
    puzzle: &crate::puzzle::Puzzle,
    attempt: &crate::solve::Attempt,
    book: &RuleBook,
    every: Option<usize>,
) {
    let steps = steps(&attempt.board);
    let start = Picture::blank(puzzle);
    let probes = steps.iter().filter(|s| s.probe.is_some()).count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let trial = if probes > 0 {
        format!(" ({} of them)", plural(probes, "probe"))
    } else {
        String::new()
    };
    writeln!(
        text,
        "{headline}, in {}{trial}",
        plural(steps.len(), "step")
    )
    .unwrap();
    writeln!(
        text,
        "(h(r,c) is the edge right of dot (r,c), v(r,c) the edge below it; dots and cells count from 0)"
    )
    .unwrap();
    for (k, step) in steps.iter().enumerate() {
        writeln!(
            text,
            "{:>5}. {}: {}",
            k + 1,
            step.title(book),
            step.edges_text()
        )
        .unwrap();
        if let Some(n) = every
            && (k + 1) % n == 0
            && k + 1 < steps.len()
        {
            writeln!(text, "       after step {}:", k + 1).unwrap();
            text.push_str(&picture::draw(&replay(&start, &steps, k + 1), 7));
        }
    }
    let last = Picture::of(&attempt.board);
    match attempt.outcome {
        Outcome::Solved | Outcome::Several | Outcome::Limit { found: true, .. } => {
            writeln!(text, "       the answer:").unwrap();
        }
        _ => writeln!(text, "       where it ends (x: cross, blank: unknown):").unwrap(),
    }
    text.push_str(&picture::draw(&last, 7));
    if attempt.outcome == Outcome::Several
        && let Some(a) = &attempt.ambiguity
    {
        let marked = Marked {
            board: &attempt.board,
            undetermined: &a.undetermined,
        };
        let names: Vec<String> = marked
            .places()
            .into_iter()
            .map(|(y, x)| edge_name(y, x))
            .collect();
        writeln!(
            text,
            "       {} between the solutions{}: {}",
            count_verb(names.len(), "edge differs", "edges differ"),
            if a.complete { "" } else { " (at least)" },
            names.join(", ")
        )
        .unwrap();
    }
}

/// `1 edge differs`, `3 edges differ`.
fn count_verb(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
