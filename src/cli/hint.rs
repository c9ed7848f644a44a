//! `slink hint`: for a half-solved board (a framed picture with lines and crosses, or a pzprjs `pzprv3` file), which marks are wrong, or else the easiest next step from the board as it is.

use super::input::{Inputs, Item, Source};
use super::io::{Io, say};
use super::{
    BudgetArgs, DeductionArgs, EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED, InputArgs, RulesArg,
    TrustArg,
};
use crate::explain::hint::{Hinter, Verdict, marks_of, place_words};
use crate::explain::{Decided, Step};
use crate::format::board;
use crate::format::view::{Edge, Picture};
use crate::rules::compile::RuleBook;
use clap::Args;
use std::fmt::Write as _;
use std::io::Cursor;
use std::path::PathBuf;

/// Options of `slink hint`.
#[derive(Args, Debug, Clone)]
pub struct HintArgs {
    /// Boards: framed pictures with the lines (`---`, `|`) and crosses (`x`) made so far,
    /// pzprjs/puzz.link `pzprv3` files, or puzzles (streams, URLs: no marks); standard input
    /// when none is given (or for `-`).
    #[arg(value_name = "FILE|URL")]
    files: Vec<PathBuf>,
    /// List every step available at the easiest level, not only the first.
    #[arg(long)]
    all: bool,
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

/// A board read from the input, with the name of its source.
pub(super) struct Named {
    /// Where it came from.
    pub name: String,
    /// Its clues and marks.
    pub board: Picture,
}

/// Reads every board of the sources: board files (framed or `pzprv3`, found by their first
/// line) and puzzles (streams, files of URLs, URLs), which come with no marks. Problems are
/// said on standard error; the second value is whether there was one.
pub(super) fn read_boards(io: &mut Io, files: &[PathBuf], max_cells: usize) -> (Vec<Named>, bool) {
    let mut boards = Vec::new();
    let mut bad = false;
    for source in Source::of_args(files) {
        let (name, text) = match &source {
            Source::Url(_) => (String::new(), None),
            Source::Stdin => {
                let mut bytes = Vec::new();
                if let Err(e) = io.stdin.read_to_end(&mut bytes) {
                    say!(
                        io,
                        "slink: cannot read standard input: {}",
                        super::io_reason(&e)
                    );
                    bad = true;
                    continue;
                }
                ("<stdin>".to_string(), Some(bytes))
            }
            Source::File(path) => {
                let name = path.display().to_string();
                if path.is_dir() {
                    say!(
                        io,
                        "slink: cannot read {name}: it is a directory (give board files, or - for standard input)"
                    );
                    bad = true;
                    continue;
                }
                match std::fs::read(path) {
                    Ok(bytes) => (name, Some(bytes)),
                    Err(e) => {
                        say!(io, "slink: cannot read {name}: {}", super::io_reason(&e));
                        bad = true;
                        continue;
                    }
                }
            }
        };
        let kind = text
            .as_deref()
            .and_then(|t| std::str::from_utf8(t).ok())
            .and_then(board::sniff);
        if let (Some(kind), Some(bytes)) = (kind, &text) {
            let text = std::str::from_utf8(bytes).unwrap_or_default();
            match board::read(&name, text, kind, max_cells) {
                Ok(read) => boards.extend(read.into_iter().map(|board| Named {
                    name: name.clone(),
                    board,
                })),
                Err(message) => {
                    say!(io, "{message}");
                    bad = true;
                }
            }
            continue;
        }
        // Not a board file: puzzles, without marks.
        let mut replay = Cursor::new(text.unwrap_or_default());
        let mut inputs = Inputs::new(vec![source], &mut replay, max_cells);
        while let Some(item) = inputs.next(&mut std::io::sink()) {
            match item {
                Item::Puzzle { source, puzzle, .. } => boards.push(Named {
                    name: source.to_string(),
                    board: Picture::blank(&puzzle),
                }),
                Item::Problem(message) => {
                    say!(io, "{message}");
                    bad = true;
                }
                Item::Warning(message) => say!(io, "{message}"),
            }
        }
    }
    (boards, bad)
}

/// Gives a hint for every board of the sources; returns the exit status.
pub fn run(io: &mut Io, args: &HintArgs) -> i32 {
    let book = match args.rules.load(io, args.trust) {
        Ok(book) => book,
        Err(status) => return status,
    };
    let options = args.budget.solve_options(&args.deduction, false);
    let mut hinter = Hinter::new(book, options);
    let (boards, bad) = read_boards(io, &args.files, args.input.max_cells);
    let mut unhelped = false;
    let mut text = String::new();
    for (k, named) in boards.iter().enumerate() {
        text.clear();
        unhelped |= !write_hint(&mut text, &mut hinter, k + 1, named, args.all);
        if let Err(status) = io.print(&text) {
            return status;
        }
    }
    if bad {
        EXIT_BAD_INPUT
    } else if unhelped {
        EXIT_UNSOLVED
    } else {
        EXIT_OK
    }
}

/// `n word` or `n words` (`words` as given).
fn plural(n: usize, word: &str, words: &str) -> String {
    format!("{n} {}", if n == 1 { word } else { words })
}

/// Writes the hint for one board; returns whether it names a step (or the board is solved).
fn write_hint(
    text: &mut String,
    hinter: &mut Hinter,
    number: usize,
    named: &Named,
    all: bool,
) -> bool {
    let board = &named.board;
    let marks = marks_of(board);
    let lines = marks.iter().filter(|m| m.edge == Edge::Line).count();
    let head = format!(
        "board {number} ({}, {}x{}, {} and {})",
        named.name,
        board.rows,
        board.cols,
        plural(lines, "line", "lines"),
        plural(marks.len() - lines, "cross", "crosses")
    );
    let hint = hinter.hint(board, all);
    let right = if hint.checked {
        "the marks are right"
    } else {
        "the marks are not checked (search is off, and deduction alone does not finish the puzzle)"
    };
    let several = if hint.several {
        " (the puzzle has several solutions; the marks agree with some of them)"
    } else {
        ""
    };
    let legend = "(h(r,c) is the edge right of dot (r,c), v(r,c) the edge below it; dots and cells count from 0)";
    match &hint.verdict {
        Verdict::Wrong(wrong) => {
            let _ = writeln!(
                text,
                "{head}: {} wrong",
                if wrong.len() == 1 {
                    "1 mark is".to_string()
                } else {
                    format!("{} marks are", wrong.len())
                }
            );
            let _ = writeln!(text, "{legend}");
            for m in wrong {
                let _ = writeln!(text, "    {}", wrong_words(board, m));
            }
            false
        }
        Verdict::Clash(why, suspects) => {
            let _ = writeln!(
                text,
                "{head}: no solution agrees with all the marks together: {why}"
            );
            if !suspects.is_empty() {
                let _ = writeln!(
                    text,
                    "taking away any one of these marks would leave a solution:\n{legend}"
                );
                for m in suspects {
                    let _ = writeln!(text, "    {}", suspect_words(board, m));
                }
            }
            false
        }
        Verdict::NoSolution(why) => {
            let _ = writeln!(text, "{head}: the puzzle has no solution: {why}");
            false
        }
        Verdict::Unchecked(limit) => {
            let _ = writeln!(
                text,
                "{head}: the marks could not be checked: {limit} before the puzzle was solved"
            );
            false
        }
        Verdict::Solved => {
            let _ = writeln!(text, "{head}: solved, every line of the loop is drawn");
            true
        }
        Verdict::NoStep => {
            let _ = writeln!(
                text,
                "{head}: {right}{several}, but deduction finds no step from here: only a guess goes on"
            );
            false
        }
        Verdict::Next { level, steps } => {
            let kind = match level {
                Some(level) => format!("a level-{level} rule"),
                None => "no rule applies".to_string(),
            };
            let what = if steps.len() == 1 {
                format!("the next step ({kind})")
            } else {
                format!("{} ({kind})", plural(steps.len(), "step", "steps"))
            };
            let _ = writeln!(text, "{head}: {right}{several}; {what}:");
            let _ = writeln!(text, "{legend}");
            for (k, step) in steps.iter().enumerate() {
                write_step(text, hinter.book(), k + 1, step);
            }
            true
        }
    }
}

/// One wrong mark in words: what it is, where, and what the solution has there.
fn wrong_words(board: &Picture, m: &Decided) -> String {
    let place = place_words(board.rows, board.cols, m.y, m.x);
    let (mark, truth) = if m.edge == Edge::Line {
        ("line", "the loop does not run there")
    } else {
        ("cross", "the loop runs there")
    };
    format!("{mark} {}, {place}: {truth}", m.name())
}

/// A mark to blame in words: what it is and where.
fn suspect_words(board: &Picture, m: &Decided) -> String {
    let mark = if m.edge == Edge::Line {
        "line"
    } else {
        "cross"
    };
    format!(
        "{mark} {}, {}",
        m.name(),
        place_words(board.rows, board.cols, m.y, m.x)
    )
}

/// One step: its title and edges, and for a rule its pictures as used.
fn write_step(text: &mut String, book: &RuleBook, k: usize, step: &Step) {
    let _ = writeln!(text, "{k:>5}. {}: {}", step.title(book), step.edges_text());
    if let Some((when, then)) = step.rule_pictures(book) {
        for (label, picture) in [("when", when), ("then", then)] {
            let _ = writeln!(text, "       {label}:");
            for line in picture.lines() {
                let _ = writeln!(text, "{}", format!("         {line}").trim_end());
            }
        }
    }
}
