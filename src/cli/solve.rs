//! `slink solve`: read puzzle streams, solve each puzzle, write each answer as soon as it is found.

use super::{EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED, SolveArgs, io_reason};
use crate::puzzle::PuzzleReader;
use crate::render::render_answer;
use crate::solve::{Attempt, Outcome, SolveOptions, Solver};
use crate::stats::Stats;
use std::io::{self, BufWriter, Read, Write};

/// Solves every puzzle of the given streams; returns the exit status.
pub fn run(args: &SolveArgs) -> i32 {
    let book = match args.rules.load(args.trust) {
        Ok(book) => book,
        Err(status) => return status,
    };
    let options = SolveOptions {
        switches: args.deduction.switches(),
        max_nodes: args.max_nodes,
        timeout: args.timeout,
        reasons: args.stats.is_some(),
    };
    let mut solver = Solver::with_options(book, options);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut run = Run {
        stats: args
            .stats
            .map(|view| Stats::new(solver.book(), solver.switches(), view.into())),
        // Trusted rules may be unsound: a contradiction then is one under those rules.
        relative: args.trust.trust_rules && !args.rules.is_builtin(),
        max_cells: args.input.max_cells,
        ..Run::default()
    };
    let sources: Vec<Option<&std::path::Path>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files
            .iter()
            .map(|f| (f.as_os_str() != "-").then_some(f.as_path()))
            .collect()
    };
    for source in sources {
        let result = match source {
            None => run.stream("<stdin>", io::stdin().lock(), &mut solver, &mut out),
            Some(path) => match open(path) {
                Ok(file) => run.stream(&path.display().to_string(), file, &mut solver, &mut out),
                Err(reason) => {
                    eprintln!("slink: cannot read {}: {reason}", path.display());
                    run.bad_input = true;
                    Ok(())
                }
            },
        };
        if let Err(e) = result {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return run.status();
            }
            eprintln!("slink: cannot write the answers: {e}");
            return EXIT_BAD_INPUT;
        }
    }
    if let Err(e) = out.flush()
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("slink: cannot write the answers: {e}");
        return EXIT_BAD_INPUT;
    }
    if let Some(stats) = &run.stats {
        eprint!("{}", stats.report());
    }
    run.status()
}

/// Opens a puzzle file; a directory is refused here rather than failing at its first read.
fn open(path: &std::path::Path) -> Result<std::fs::File, String> {
    let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
    match file.metadata() {
        Ok(meta) if meta.is_dir() => {
            Err("it is a directory (give puzzle files, or - for standard input)".to_string())
        }
        _ => Ok(file),
    }
}

/// What happened so far over all streams.
#[derive(Default)]
struct Run {
    /// The rules are trusted without proof: "no solution" is relative to them.
    relative: bool,
    /// Largest puzzle accepted, in cells.
    max_cells: usize,
    number: usize,
    unsolved: usize,
    bad_input: bool,
    buffer: Vec<u8>,
    /// Statistics, when `--stats` asked for them.
    stats: Option<Stats>,
}

impl Run {
    fn status(&self) -> i32 {
        if self.bad_input {
            EXIT_BAD_INPUT
        } else if self.unsolved > 0 {
            EXIT_UNSOLVED
        } else {
            EXIT_OK
        }
    }

    fn stream<R: Read, W: Write>(
        &mut self,
        name: &str,
        input: R,
        solver: &mut Solver,
        out: &mut W,
    ) -> io::Result<()> {
        let mut reader = PuzzleReader::new(name, input).with_max_cells(self.max_cells);
        while let Some(item) = reader.next_puzzle(out) {
            // Lines in error that are no puzzle (an extra row) take no number.
            if item.as_ref().map_or_else(|e| e.is_puzzle, |_| true) {
                self.number += 1;
            }
            let k = self.number;
            let puzzle = match item {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("slink: {e}");
                    self.bad_input = true;
                    if e.recoverable {
                        continue;
                    }
                    break;
                }
            };
            let Attempt { board, outcome, .. } = match self.stats.as_mut() {
                None => solver.attempt(&puzzle),
                Some(stats) => stats.solve(solver, k, &puzzle),
            };
            if outcome.has_answer() {
                self.buffer.clear();
                render_answer(
                    &mut self.buffer,
                    k,
                    board.rows(),
                    board.cols(),
                    |r, c| board.clue(r, c),
                    |r, c| board.h_line(r, c),
                    |r, c| board.v_line(r, c),
                );
                out.write_all(&self.buffer)?;
            }
            if outcome != Outcome::Solved {
                self.unsolved += 1;
                let size = format!("{}x{}", board.rows(), board.cols());
                let what = match outcome {
                    Outcome::Solved => unreachable!("handled above"),
                    Outcome::Several => {
                        "several solutions: the answer printed is the first one found".to_string()
                    }
                    Outcome::Stuck { unknown } => format!(
                        "stuck: deduction ran out with {unknown} of {} edges unknown",
                        board.edge_count()
                    ),
                    Outcome::Contradiction(c) if self.relative => format!(
                        "contradiction under the rules, which are trusted without proof \
                         (--trust-rules): {c}; the puzzle itself may have a solution"
                    ),
                    Outcome::Contradiction(c) => format!("no solution: {c}"),
                    Outcome::Limit { limit, found } => format!(
                        "limit: {limit}; {}",
                        if found {
                            "the answer printed was found by search but is not proven the only one"
                        } else {
                            "no answer found"
                        }
                    ),
                };
                eprintln!("slink: puzzle {k} ({name}, {size}): {what}");
            }
            solver.recycle(board);
        }
        if reader.missing_end_marker() {
            eprintln!("slink: warning: {name} ends without the `0 0` end marker");
        }
        Ok(())
    }
}
