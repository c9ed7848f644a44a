//! Fuzz targets of slink: the puzzle reader, the rule-file parser and checker (with proofs,
//! compilation, examples and a solve under the rules read), and the solver on small random
//! puzzles against a brute-force count of their answers, and the puzz.link URL reader and
//! writer.
//!
//! Each target takes raw bytes and panics when slink breaks one of its promises. They are run
//! by libFuzzer through `cargo fuzz` (coverage-guided; `--sanitizer none` works on the stable
//! toolchain) and, on stable without any extra tool, by `tests/fuzz.rs` of the main crate,
//! which replays every input under `fuzz/regressions/` and then random byte vectors.

use arbitrary::{Arbitrary, Unstructured};
use slink::RuleBook;
use slink::rules::RuleSet;
use slink::rules::{ProofBudget as Budget, prove_with};
use slink::{Deducer, DeducerSet};
use slink::{Outcome, SolveOptions, Solver};
use slink::{Puzzle, PuzzleReader};
use std::collections::HashSet;
use std::io;
use std::sync::OnceLock;

/// Every result of reading `data` with a reader whose buffer holds `capacity` bytes.
fn read_stream(data: &[u8], capacity: usize, max_cells: usize) -> Vec<Result<Puzzle, String>> {
    let mut reader = PuzzleReader::with_capacity("f.in", data, capacity).with_max_cells(max_cells);
    let mut results = Vec::new();
    let lines = data.split(|&b| b == b'\n').count();
    while let Some(result) = reader.next_puzzle(&mut io::sink()) {
        results.push(result.map_err(|e| {
            assert!(
                e.position.line >= 1 && e.position.line <= lines + 1 && e.position.column >= 1,
                "{e}: position outside the input ({lines} lines)"
            );
            assert!(!e.message.is_empty());
            e.to_string()
        }));
        // Every result consumes at least one line of its own.
        assert!(results.len() <= lines + 1, "the reader does not stop");
    }
    assert!(reader.next_puzzle(&mut io::sink()).is_none());
    results
}

/// The puzzle reader: whatever the bytes, it ends; its errors lie inside the input; each
/// puzzle it reads has its cells and is written back and read again unchanged; and the result
/// does not depend on the size of its buffer.
pub fn puzzle_reader(data: &[u8]) {
    let (capacity, max_cells) = match data.first() {
        Some(&b) => (1 + (b & 0x1f) as usize, 1 + (b >> 5) as usize * 40),
        None => (1, 1),
    };
    let small = read_stream(data, capacity, max_cells);
    let large = read_stream(data, 1 << 16, max_cells);
    assert_eq!(small, large, "the result depends on the buffer size");
    for puzzle in small.iter().flatten() {
        assert_eq!(puzzle.clues.len(), puzzle.rows * puzzle.cols);
        assert!(puzzle.rows * puzzle.cols <= max_cells);
        assert!(puzzle.clues.iter().flatten().all(|&c| c <= 3));
        let mut text = Vec::new();
        puzzle.write_to(&mut text);
        text.extend_from_slice(b"0 0\n");
        let again = slink::parse_all("again", &text).expect("a written puzzle reads");
        assert_eq!(again, std::slice::from_ref(puzzle));
    }
}

/// The built-in rule book, built once.
fn builtin_book() -> &'static RuleBook {
    static BOOK: OnceLock<RuleBook> = OnceLock::new();
    BOOK.get_or_init(|| RuleBook::new(RuleSet::builtin()))
}

/// The sample's 2x2 puzzle of 2s and a 3x3 one with blanks: what the rules read are run on.
fn probe_puzzles() -> [Puzzle; 2] {
    let two = Puzzle {
        rows: 2,
        cols: 2,
        clues: vec![Some(2); 4],
    };
    let mut clues = vec![None; 9];
    clues[0] = Some(3);
    clues[4] = Some(1);
    clues[8] = Some(2);
    let three = Puzzle {
        rows: 3,
        cols: 3,
        clues,
    };
    [two, three]
}

/// The rule-file parser and checker: bytes split into up to three files at each 0xFF byte.
/// Diagnostics point inside their file; a set that checks is proven (within a small budget),
/// compiled, its examples run, and puzzles are solved under it with search on: whatever the
/// rules, every answer printed is a checked loop, and a proven-sound set never says "no
/// solution" for a puzzle that has one.
pub fn rule_files(data: &[u8]) {
    let files: Vec<(String, String)> = data
        .split(|&b| b == 0xff)
        .take(3)
        .enumerate()
        .map(|(i, bytes)| {
            (
                format!("f{i}.rules"),
                String::from_utf8_lossy(bytes).into_owned(),
            )
        })
        .collect();
    let set = match RuleSet::from_sources(&files) {
        Ok(set) => set,
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty());
            for d in &diagnostics {
                let (_, text) = files
                    .iter()
                    .find(|(name, _)| *name == d.file)
                    .unwrap_or_else(|| panic!("{d}: names no file"));
                let text = text.strip_prefix('\u{feff}').unwrap_or(text);
                let lines: Vec<&str> = text.lines().collect();
                assert!(
                    d.at.line >= 1 && d.at.line <= lines.len().max(1),
                    "{d}: line outside the file ({} lines)",
                    lines.len()
                );
                let length = lines.get(d.at.line - 1).map_or(0, |l| l.len());
                assert!(
                    d.at.column >= 1 && d.at.column <= length + 1,
                    "{d}: column outside its line ({length} bytes)"
                );
            }
            return;
        }
    };
    let mut sound = true;
    for rule in &set.rules {
        let verdict = prove_with(rule, Budget { steps: 300_000 }, &mut |_| {});
        sound &= verdict.is_safe();
    }
    let _ = slink::rules::overlaps(&set.rules);
    let _ = slink::rules::run_examples(&set);
    let options = SolveOptions {
        switches: DeducerSet::ALL,
        max_nodes: Some(2_000),
        ..SolveOptions::default()
    };
    let mut solver = Solver::with_options(RuleBook::new(set), options);
    for puzzle in probe_puzzles() {
        let attempt = solver.attempt(&puzzle);
        if attempt.outcome.has_answer() {
            slink::check_answer(&attempt.board).expect("an answer is a checked loop");
        }
        if sound && solver.switches().contains(Deducer::Search) {
            assert!(
                !matches!(attempt.outcome, Outcome::Contradiction(_)),
                "proven rules say a solvable puzzle has no solution"
            );
        }
    }
}

/// A small puzzle and how to solve it, drawn from the fuzzer's bytes.
#[derive(Debug)]
struct SmallPuzzle {
    puzzle: Puzzle,
    switches: DeducerSet,
    max_nodes: u64,
}

impl<'a> Arbitrary<'a> for SmallPuzzle {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let rows = u.int_in_range(1..=6)?;
        let cols = u.int_in_range(1..=6)?;
        let mut clues = Vec::with_capacity(rows * cols);
        for _ in 0..rows * cols {
            clues.push(match u.int_in_range(0..=6u8)? {
                n @ 0..=3 => Some(n),
                _ => None,
            });
        }
        let mut switches = DeducerSet::ALL;
        for (d, on) in [
            (Deducer::Colouring, u.arbitrary()?),
            (Deducer::Probing, u.arbitrary()?),
            (Deducer::Search, u.ratio(7, 8)?),
        ] {
            if !on {
                switches = switches.without(d);
            }
        }
        Ok(SmallPuzzle {
            puzzle: Puzzle { rows, cols, clues },
            switches,
            max_nodes: u.int_in_range(1..=5_000)?,
        })
    }
}

/// Every answer of a puzzle, as sets of line edges, by brute force over the simple cycles of
/// its dot grid (only for small grids). Edges are numbered: horizontal (r, c) as
/// `r * cols + c`, then vertical (r, c) after all horizontal ones.
fn brute_force(p: &Puzzle) -> Vec<u64> {
    let (rows, cols) = (p.rows, p.cols);
    let dots = (rows + 1) * (cols + 1);
    let h = |r: usize, c: usize| r * cols + c;
    let v = |r: usize, c: usize| (rows + 1) * cols + r * (cols + 1) + c;
    // Neighbours of each dot with the edge between.
    let mut next: Vec<Vec<(usize, usize)>> = vec![Vec::new(); dots];
    let dot = |r: usize, c: usize| r * (cols + 1) + c;
    for r in 0..=rows {
        for c in 0..=cols {
            if c < cols {
                next[dot(r, c)].push((dot(r, c + 1), h(r, c)));
                next[dot(r, c + 1)].push((dot(r, c), h(r, c)));
            }
            if r < rows {
                next[dot(r, c)].push((dot(r + 1, c), v(r, c)));
                next[dot(r + 1, c)].push((dot(r, c), v(r, c)));
            }
        }
    }
    let meets = |mask: u64| {
        (0..rows).all(|r| {
            (0..cols).all(|c| match p.clues[r * cols + c] {
                None => true,
                Some(n) => {
                    let sides = [h(r, c), h(r + 1, c), v(r, c), v(r, c + 1)];
                    sides.iter().filter(|&&e| mask >> e & 1 == 1).count() == n as usize
                }
            })
        })
    };
    let mut found = HashSet::new();
    // Cycles through `start` whose other dots are all larger than it.
    fn walk(
        next: &[Vec<(usize, usize)>],
        start: usize,
        at: usize,
        seen: &mut Vec<bool>,
        mask: u64,
        length: usize,
        out: &mut dyn FnMut(u64),
    ) {
        for &(to, edge) in &next[at] {
            if to == start && length >= 3 && mask >> edge & 1 == 0 {
                out(mask | 1 << edge);
            } else if to > start && !seen[to] {
                seen[to] = true;
                walk(next, start, to, seen, mask | 1 << edge, length + 1, out);
                seen[to] = false;
            }
        }
    }
    let mut seen = vec![false; dots];
    for start in 0..dots {
        walk(&next, start, start, &mut seen, 0, 1, &mut |mask| {
            if meets(mask) {
                found.insert(mask);
            }
        });
    }
    found.into_iter().collect()
}

/// The solver on a small random puzzle with the built-in rules: whatever it prints is a
/// checked loop; on grids of at most 12 cells, "solved", "several solutions" and "no solution"
/// agree with a brute-force count of the answers, and a solved puzzle's answer is the one.
pub fn solver(data: &[u8]) {
    let Ok(small) = SmallPuzzle::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    let options = SolveOptions {
        switches: small.switches,
        max_nodes: Some(small.max_nodes),
        ..SolveOptions::default()
    };
    let mut solver = Solver::with_options(builtin_book().clone(), options);
    let attempt = solver.attempt(&small.puzzle);
    let board = &attempt.board;
    if attempt.outcome.has_answer() {
        slink::check_answer(board).expect("an answer is a checked loop");
    }
    let p = &small.puzzle;
    if p.rows * p.cols > 12 {
        return;
    }
    let answers = brute_force(p);
    let answer_mask = || {
        let mut mask = 0u64;
        for r in 0..=p.rows {
            for c in 0..p.cols {
                if board.h_line(r, c) {
                    mask |= 1 << (r * p.cols + c);
                }
            }
        }
        for r in 0..p.rows {
            for c in 0..=p.cols {
                if board.v_line(r, c) {
                    mask |= 1 << ((p.rows + 1) * p.cols + r * (p.cols + 1) + c);
                }
            }
        }
        mask
    };
    match &attempt.outcome {
        Outcome::Solved => {
            assert_eq!(
                answers,
                [answer_mask()],
                "{p:?}: solved, but the answers differ"
            );
        }
        Outcome::Several => {
            assert!(
                answers.len() >= 2,
                "{p:?}: several, but {} answers",
                answers.len()
            );
            assert!(answers.contains(&answer_mask()));
        }
        Outcome::Contradiction(c) => {
            assert!(
                answers.is_empty(),
                "{p:?}: no solution ({c}), but {answers:?}"
            );
        }
        Outcome::Limit { found: true, .. } => assert!(answers.contains(&answer_mask())),
        Outcome::Stuck { .. } | Outcome::Limit { .. } => {}
    }
}

/// puzz.link URLs: whatever the text, reading ends with a puzzle or a message, never above
/// the cell limit; a puzzle read is written back as a URL that reads as the same puzzle, and
/// writing is stable.
pub fn urls(data: &[u8]) {
    let max_cells = match data.first() {
        Some(&b) => 1 + usize::from(b) * 64,
        None => 1,
    };
    let text = String::from_utf8_lossy(data);
    match slink::format::url::decode_limited(&text, max_cells) {
        Ok(puzzle) => {
            assert!(puzzle.rows >= 1 && puzzle.cols >= 1);
            assert!(puzzle.rows * puzzle.cols <= max_cells);
            assert_eq!(puzzle.clues.len(), puzzle.rows * puzzle.cols);
            assert!(puzzle.clues.iter().flatten().all(|&c| c <= 3));
            let url = slink::format::url::encode(&puzzle);
            let again = slink::format::url::decode(&url).expect("a written URL reads");
            assert_eq!(again, puzzle, "{url}");
            assert_eq!(slink::format::url::encode(&again), url);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// The command line's input layer: `slink` with `data` as its standard input (sniffed as a
/// file of URLs or read as a puzzle stream, each puzzle solved, small ones only so that a run
/// stays short). Whatever the bytes, it ends with a documented exit status, writes UTF-8
/// answers, and every line of its standard error is one of its own messages.
pub fn command_line(data: &[u8]) {
    let args = ["slink", "-j", "1", "--max-cells", "400", "--timeout", "2"]
        .map(std::ffi::OsString::from)
        .to_vec();
    let (mut stdin, mut out, mut err) = (data, Vec::new(), Vec::new());
    let status = slink::cli::run(args, &mut stdin, &mut out, &mut err);
    assert!(matches!(status, 0..=2), "exit status {status}");
    let out = String::from_utf8(out).expect("answers are UTF-8");
    let err = String::from_utf8_lossy(&err);
    for line in err.lines() {
        assert!(
            line.starts_with("slink") || line.starts_with(' '),
            "a line of stderr that is not a message of slink: {line:?}\n{err}"
        );
    }
    if status == 0 {
        assert!(err.lines().all(|l| !l.contains("error")), "{err}");
    }
    let _ = out;
}
