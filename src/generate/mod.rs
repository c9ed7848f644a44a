//! Random puzzles: a random single loop, its clue counts, kept only when the rules finish it; for ordinary Slitherlink, clues then blanked while deduction still finishes it.
//!
//! A candidate is drawn in three steps:
//!
//! 1. grow a random *region* of cells from one random cell, one cell at a time, keeping it simply
//!    connected and *pinch-free* (no 2x2 block holds two diagonal region cells whose two other
//!    cells are outside). The boundary of such a region is one single closed loop, which never
//!    touches itself at a dot;
//! 2. give every cell the number of its sides on that boundary (0 to 3);
//! 3. solve the clues with the rule book: the candidate is kept only when the rules finish it
//!    ([`Outcome::Solved`]). The rules are sound, so a puzzle they finish has exactly one
//!    solution; other candidates are dropped and another one is drawn.
//!
//! Growth keeps a frontier of cells next to the region, with lazy deletion: a cell whose 3x3
//! neighbourhood changed is checked again when it is picked. Adding a cell keeps the region
//! simply connected and pinch-free iff its in-region neighbours, read around it in circular
//! order, form one contiguous arc that is not a lone diagonal cell (a cell touching the region
//! only at a corner would pinch it) and not the whole ring (which would fill a hole, and there are
//! none). Cells off the grid count as outside. Each cell is looked at a bounded number of times
//! per change of its neighbourhood, so growth takes expected time linear in the number of cells.
//!
//! Everything random comes from [`Rng`] (xoshiro256** seeded through SplitMix64), written here so
//! that a seed gives the same puzzles on every machine and with every version of the
//! dependencies. Puzzle `i` of a run uses its own stream, derived from the seed and `i`, and no
//! decision depends on time.

mod blanks;
pub mod grade;
pub mod symmetry;
mod unique;

pub use blanks::Judge;
pub use grade::GradeStep;
pub use symmetry::Symmetry;

use crate::board::Board;
use crate::deduce::{Deducer, DeducerSet};
use crate::puzzle::{MAX_CELLS, MAX_SIDE, Puzzle};
use crate::rules::RuleSet;
use crate::rules::compile::RuleBook;
use crate::solve::{Outcome, SolveOptions, Solver};
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Default bounds of the fraction of cells inside the loop, see [`GenOptions::fill`].
pub const DEFAULT_FILL: RangeInclusive<f64> = 0.35..=0.65;
/// Default bounds of the growth compactness, see [`GenOptions::compactness`].
pub const DEFAULT_COMPACTNESS: RangeInclusive<f64> = 0.1..=0.6;
/// Default number of candidates rejected in a row before giving up on a puzzle.
pub const DEFAULT_MAX_ATTEMPTS: u64 = 2_000;

/// SplitMix64 step: advances `state` and returns the next output.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mix64(*state)
}

/// The SplitMix64 finaliser: a bijective scramble of a 64-bit word.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A small deterministic random generator (xoshiro256**), seeded through SplitMix64.
///
/// Its stream is fixed by this code alone: the same seed gives the same numbers everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose state is four SplitMix64 outputs started from `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut state = seed;
        let s = [
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
        ];
        Rng { s }
    }

    /// An independent-looking generator for item `index` of the run seeded with `seed`.
    pub fn for_stream(seed: u64, index: u64) -> Rng {
        Rng::new(mix64(
            mix64(seed ^ 0x5d1c_0a5e_ed00_0001).wrapping_add(index),
        ))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform number in `0..n` (`n` must be at least 1), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        // Lemire's multiply-and-reject method.
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniform index in `0..n` (`n` must be at least 1).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform number in the range (its end included up to rounding).
    pub fn in_range(&mut self, range: &RangeInclusive<f64>) -> f64 {
        let (lo, hi) = (*range.start(), *range.end());
        lo + (hi - lo) * self.unit()
    }
}

/// The shape parameters of one random region.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Fraction of the cells that growth tries to put inside the loop (it stops earlier when no
    /// cell can be added). The region always takes at least 2 cells; grids of at most
    /// [`SMALL_GRID`] cells ignore this and draw their area uniformly.
    pub fill: f64,
    /// How much growth favours cells with many neighbours already inside, in `(0, 1]`.
    ///
    /// A frontier cell touching `k` region cells (orthogonal and diagonal neighbours, in one arc)
    /// is picked with weight `compactness^(k-1)`: near 0 the region grows as thin branching
    /// corridors (a maze-like loop that visits the whole grid, few zeros); at 1 every frontier
    /// cell is equally likely (a compact blob, with large areas of zeros inside and outside).
    pub compactness: f64,
}

/// What to generate. Build it with [`GenOptions::new`] and change the fields you need.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct GenOptions {
    /// Cell rows of every puzzle.
    pub rows: usize,
    /// Cell columns of every puzzle.
    pub cols: usize,
    /// Seed of the run: the same options and seed give the same puzzles, in the same order.
    pub seed: u64,
    /// Bounds of [`Shape::fill`], the fraction of cells inside the loop; each candidate draws
    /// its own value uniformly in it. Must lie within `0..=1`.
    pub fill: RangeInclusive<f64>,
    /// Bounds of [`Shape::compactness`]; each candidate draws its own value uniformly in it.
    /// Must lie within `0..=1` (a drawn 0 is raised to a tiny positive weight).
    pub compactness: RangeInclusive<f64>,
    /// Candidates rejected in a row (the rules did not finish them) before
    /// [`Generator::next_puzzle`] gives up with [`GenError::GaveUp`]; at least 1. This bounds
    /// the work on sizes or rule sets with no puzzle the rules finish (a count, not a time, so
    /// that the output never depends on the speed of the machine).
    pub max_attempts: u64,
    /// Ordinary Slitherlink: after a Slink puzzle is found, blank its clues in random order
    /// while it stays uniquely solvable by the judge's deduction (see the `blanks` module).
    pub blanks: bool,
    /// Only rules of at most this level judge the puzzles (all levels when `None`).
    pub max_level: Option<u32>,
    /// The global deducers the judge may use besides the rules (of those the rule set
    /// switches on; search never). Plain Slink puzzles default to loop closure alone, as the
    /// puzzle's statement promises; [`GenOptions::with_blanks`] adds colouring and probing.
    pub judge: DeducerSet,
    /// With `blanks`: the symmetry of the clue layout (clues are blanked an orbit at a time).
    pub symmetry: Symmetry,
    /// With `blanks`: blank while the planted loop stays the only solution, as the complete
    /// search proves, so that every clue (every orbit of clues) is needed.
    pub minimal: bool,
    /// With `blanks`: no two side-by-side cells both hold the clue 0.
    pub no_adjacent_zeros: bool,
    /// With `blanks`: the puzzle needs exactly this step of the grade scale.
    pub grade: Option<GradeStep>,
}

/// The loop shapes of `slink gen --shape`: bounds of [`GenOptions::fill`] and
/// [`GenOptions::compactness`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LoopShape {
    /// The default: anything from winding corridors to compact regions.
    #[default]
    Mixed,
    /// A round compact region (growth picks every frontier cell alike), about a third to
    /// half of the grid.
    Blob,
    /// Thin winding corridors (growth shuns cells with several neighbours inside) reaching
    /// over the whole grid: a long loop.
    Maze,
}

impl LoopShape {
    /// The fill and compactness bounds of the shape.
    pub fn bounds(self) -> (RangeInclusive<f64>, RangeInclusive<f64>) {
        match self {
            LoopShape::Mixed => (DEFAULT_FILL, DEFAULT_COMPACTNESS),
            LoopShape::Blob => (0.3..=0.5, 1.0..=1.0),
            LoopShape::Maze => (0.5..=0.6, 0.0..=0.02),
        }
    }
}

impl GenOptions {
    /// Options for `rows` x `cols` puzzles with seed 1 and the default shapes and limits.
    pub fn new(rows: usize, cols: usize) -> GenOptions {
        GenOptions {
            rows,
            cols,
            seed: 1,
            fill: DEFAULT_FILL,
            compactness: DEFAULT_COMPACTNESS,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            blanks: false,
            max_level: None,
            judge: DeducerSet::NONE.with(Deducer::LoopClosure),
            symmetry: Symmetry::None,
            minimal: false,
            no_adjacent_zeros: false,
            grade: None,
        }
    }

    /// The same options with the loops of `shape`.
    pub fn with_shape(mut self, shape: LoopShape) -> GenOptions {
        (self.fill, self.compactness) = shape.bounds();
        self
    }

    /// The same options for ordinary Slitherlink: clues blanked while the puzzle stays
    /// uniquely solvable by the rules, loop closure, colouring and (when `probing`) probing.
    pub fn with_blanks(mut self, probing: bool) -> GenOptions {
        self.blanks = true;
        let judge = DeducerSet::ALL.without(Deducer::Search);
        self.judge = if probing {
            judge
        } else {
            judge.without(Deducer::Probing)
        };
        self
    }

    /// Checks the size and the option values.
    pub fn validate(&self) -> Result<(), GenError> {
        let (rows, cols) = (self.rows, self.cols);
        if rows == 0 || cols == 0 {
            return Err(GenError::NoCells { rows, cols });
        }
        if rows > MAX_SIDE || cols > MAX_SIDE || rows.saturating_mul(cols) > MAX_CELLS {
            return Err(GenError::TooLarge { rows, cols });
        }
        if rows * cols == 1 {
            return Err(GenError::OneCell);
        }
        let unit = 0.0..=1.0;
        for (name, range) in [("fill", &self.fill), ("compactness", &self.compactness)] {
            if !(unit.contains(range.start())
                && unit.contains(range.end())
                && range.start() <= range.end())
            {
                return Err(GenError::BadOption(format!(
                    "{name} must be a range within 0..=1, found {range:?}"
                )));
            }
        }
        if self.max_level == Some(0) {
            return Err(GenError::BadOption(
                "the rule level must be at least 1".to_string(),
            ));
        }
        if self.symmetry == Symmetry::Quarter && rows != cols {
            return Err(GenError::BadOption(format!(
                "symmetry 90 needs a square grid, not {rows}x{cols}"
            )));
        }
        let blanking = self.symmetry != Symmetry::None
            || self.minimal
            || self.no_adjacent_zeros
            || self.grade.is_some();
        if blanking && !self.blanks {
            return Err(GenError::BadOption(
                "symmetry, minimal, no adjacent zeros and grade apply to blanked puzzles only"
                    .to_string(),
            ));
        }
        if self.max_attempts == 0 {
            return Err(GenError::BadOption(
                "max_attempts must be at least 1".to_string(),
            ));
        }
        Ok(())
    }

    /// Draws the shape of one candidate.
    pub fn draw_shape(&self, rng: &mut Rng) -> Shape {
        Shape {
            fill: rng.in_range(&self.fill),
            compactness: rng.in_range(&self.compactness),
        }
    }
}

/// Why puzzles cannot be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// A size with no cells.
    #[error("size {rows}x{cols} has no cells: rows and columns must be at least 1")]
    NoCells {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A size the puzzle reader would not accept.
    #[error(
        "size {rows}x{cols} is too large (at most {MAX_SIDE} rows, {MAX_SIDE} columns and {MAX_CELLS} cells)"
    )]
    TooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// The 1x1 grid: its only loop runs around the cell, whose clue would be 4.
    #[error(
        "size 1x1 has no Slink puzzle: its only loop runs around the one cell, which would need the clue 4 (at least 2 cells are needed)"
    )]
    OneCell,
    /// An option out of its range.
    #[error("bad option: {0}")]
    BadOption(String),
    /// Every one of `attempts` candidates in a row was rejected, `unfit` of them after
    /// blanking (the grade or the zeros asked for could not be met).
    #[error(
        "gave up on a {rows}x{cols} puzzle: none of {attempts} random candidates in a row was kept ({unfit} blanked but without the grade or the zeros asked for)"
    )]
    NoFit {
        /// Rows of the puzzle.
        rows: usize,
        /// Columns of the puzzle.
        cols: usize,
        /// Candidates drawn and rejected.
        attempts: u64,
        /// Candidates rejected after blanking.
        unfit: u64,
    },
    /// Every one of `attempts` candidates in a row was rejected.
    #[error(
        "gave up on a {rows}x{cols} puzzle: the rules finished none of {attempts} random candidates in a row (this size may have no puzzle they finish)"
    )]
    GaveUp {
        /// Rows of the puzzle.
        rows: usize,
        /// Columns of the puzzle.
        cols: usize,
        /// Candidates drawn and rejected.
        attempts: u64,
    },
}

/// The solution of a generated puzzle: a region of cells whose boundary is the loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    rows: usize,
    cols: usize,
    /// Row-major: whether each cell is inside the loop.
    inside: Vec<bool>,
}

impl Solution {
    /// Cell rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Cell columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether cell (r, c) is inside the loop; cells off the grid are outside.
    pub fn inside(&self, r: isize, c: isize) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows
            && (c as usize) < self.cols
            && self.inside[r as usize * self.cols + c as usize]
    }

    /// Number of cells inside the loop.
    pub fn area(&self) -> usize {
        self.inside.iter().filter(|&&b| b).count()
    }

    /// Whether horizontal edge (dot row `r` in `0..=rows`, between dots `c` and `c+1`) is on
    /// the loop.
    pub fn h_line(&self, r: usize, c: usize) -> bool {
        let (r, c) = (r as isize, c as isize);
        self.inside(r - 1, c) != self.inside(r, c)
    }

    /// Whether vertical edge (cell row `r`, dot column `c` in `0..=cols`) is on the loop.
    pub fn v_line(&self, r: usize, c: usize) -> bool {
        let (r, c) = (r as isize, c as isize);
        self.inside(r, c - 1) != self.inside(r, c)
    }

    /// Number of loop sides of cell (r, c): its clue.
    pub fn clue(&self, r: usize, c: usize) -> u8 {
        let (y, x) = (r as isize, c as isize);
        let me = self.inside(y, x);
        [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
            .iter()
            .filter(|&&(a, b)| self.inside(a, b) != me)
            .count() as u8
    }

    /// The Slink puzzle of this loop: every cell clued with its number of loop sides.
    pub fn to_puzzle(&self) -> Puzzle {
        let mut clues = Vec::with_capacity(self.rows * self.cols);
        for r in 0..self.rows {
            for c in 0..self.cols {
                clues.push(Some(self.clue(r, c)));
            }
        }
        Puzzle {
            rows: self.rows,
            cols: self.cols,
            clues,
        }
    }
}

/// Cell state bits of the padded growth grid.
const INSIDE: u8 = 1;
const QUEUED: u8 = 2;
const WALL: u8 = 4;

/// For each 8-bit mask of in-region neighbours (bit k = k-th neighbour clockwise from north:
/// N, NE, E, SE, S, SW, W, NW), whether adding the cell keeps the region simply connected and
/// pinch-free: the set bits form exactly one circular run, which is not a lone diagonal and not
/// the whole ring.
static ADDABLE: [bool; 256] = {
    let mut table = [false; 256];
    let mut mask = 1;
    while mask < 255 {
        let m = mask as u8;
        let runs = (m & !m.rotate_left(1)).count_ones();
        let lone_diagonal = m.count_ones() == 1 && m & 0b1010_1010 != 0;
        table[mask] = runs == 1 && !lone_diagonal;
        mask += 1;
    }
    table
};

/// Number of frontier classes: a cell is classed by its number of in-region neighbours (1..=7).
const CLASSES: usize = 7;
/// Fixed-point scale of the class weights (integer weights keep the draws exact everywhere).
const WEIGHT_ONE: u64 = 1 << 24;

/// Grids of at most this many cells ignore [`Shape::fill`]: their target area is uniform in
/// `2..=cells`, as some of them (2x2) have no finished puzzle with a middling area.
pub const SMALL_GRID: usize = 16;

/// Grows a random region with the given shape; its boundary is one loop.
///
/// The grid needs at least 2 cells; the region gets at least 2 (so no clue is 4).
pub fn random_region(rows: usize, cols: usize, shape: &Shape, rng: &mut Rng) -> Solution {
    let cells = rows * cols;
    assert!(cells >= 2, "random_region needs at least two cells");
    let w = cols + 2;
    assert!(
        u32::try_from(w * (rows + 2)).is_ok(),
        "random_region: grid too large"
    );
    let mut state = vec![0u8; w * (rows + 2)];
    for c in 0..w {
        state[c] = WALL;
        state[(rows + 1) * w + c] = WALL;
    }
    for r in 1..=rows {
        state[r * w] = WALL;
        state[r * w + cols + 1] = WALL;
    }
    let target = if cells <= SMALL_GRID {
        2 + rng.index(cells - 1)
    } else {
        ((shape.fill * cells as f64).round() as usize).clamp(2, cells)
    };
    let wi = w as isize;
    let offsets: [isize; 8] = [-wi, -wi + 1, 1, wi + 1, wi, wi - 1, -1, -wi - 1];
    let mask_at = |state: &[u8], i: usize| -> u8 {
        let mut m = 0u8;
        for (k, &d) in offsets.iter().enumerate() {
            m |= (state[i.wrapping_add_signed(d)] & INSIDE) << k;
        }
        m
    };
    // Class weights compactness^k in fixed point, at least 1.
    let mut weights = [0u64; CLASSES];
    let mut weight = WEIGHT_ONE as f64;
    for slot in &mut weights {
        *slot = (weight.round() as u64).max(1);
        weight *= shape.compactness;
    }
    let mut lists: [Vec<u32>; CLASSES] = Default::default();
    let start = {
        let r = rng.index(rows);
        let c = rng.index(cols);
        (r + 1) * w + c + 1
    };
    let mut area = 0;
    let mut add = |state: &mut Vec<u8>, lists: &mut [Vec<u32>; CLASSES], i: usize| {
        state[i] = INSIDE;
        area += 1;
        for &d in &offsets {
            let j = i.wrapping_add_signed(d);
            if state[j] == 0 {
                state[j] = QUEUED;
                let class = (mask_at(state, j).count_ones() as usize).clamp(1, CLASSES) - 1;
                lists[class].push(j as u32);
            }
        }
        area
    };
    let mut area_now = add(&mut state, &mut lists, start);
    while area_now < target {
        let total: u64 = lists
            .iter()
            .zip(&weights)
            .map(|(l, &w)| l.len() as u64 * w)
            .sum();
        if total == 0 {
            break;
        }
        let mut pick = rng.below(total);
        let mut class = 0;
        while pick >= lists[class].len() as u64 * weights[class] {
            pick -= lists[class].len() as u64 * weights[class];
            class += 1;
        }
        let list = &mut lists[class];
        let i = list.swap_remove(rng.index(list.len())) as usize;
        let mask = mask_at(&state, i);
        if !ADDABLE[mask as usize] {
            // Checked again when its neighbourhood changes.
            state[i] &= !QUEUED;
            continue;
        }
        let now = mask.count_ones() as usize - 1;
        if now != class {
            lists[now].push(i as u32);
            continue;
        }
        area_now = add(&mut state, &mut lists, i);
    }
    let mut inside = Vec::with_capacity(cells);
    for r in 1..=rows {
        inside.extend(
            state[r * w + 1..r * w + 1 + cols]
                .iter()
                .map(|&s| s & INSIDE != 0),
        );
    }
    Solution { rows, cols, inside }
}

/// A random Slink puzzle of a single loop with the default shapes, and its solution.
///
/// Not checked against any rule set: its solution may not be unique. Needs at least 2 cells.
pub fn random_loop_puzzle(rows: usize, cols: usize, rng: &mut Rng) -> (Puzzle, Solution) {
    let shape = GenOptions::new(rows, cols).draw_shape(rng);
    let solution = random_region(rows, cols, &shape, rng);
    (solution.to_puzzle(), solution)
}

/// A puzzle that the rules finished, with how it was found.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle (every cell clued).
    pub puzzle: Puzzle,
    /// Its solution, the only one.
    pub solution: Solution,
    /// The shape it was grown with.
    pub shape: Shape,
    /// Candidates drawn for it, itself included (so `candidates - 1` were rejected).
    pub candidates: u64,
}

/// Counts over the run of a [`Generator`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    /// Puzzles handed out.
    pub puzzles: u64,
    /// Candidates drawn, kept or not.
    pub candidates: u64,
    /// Candidates rejected because the rules got stuck.
    pub stuck: u64,
    /// Candidates rejected because the rules found a contradiction (a rule unsound for them).
    pub contradictions: u64,
    /// Candidates rejected because the rules finished them with another loop than the one they
    /// were made from (so they have two solutions and some rule is unsound for them).
    pub mismatches: u64,
    /// Candidates rejected after blanking: another grade than the one asked for, or zeros
    /// side by side that could not be blanked.
    pub unfit: u64,
}

/// Generates puzzles one after the other, each kept only when its rule book finishes it.
pub struct Generator {
    options: GenOptions,
    solver: Solver,
    /// The blanking judge, when it is not `solver` (minimal or graded puzzles).
    blank_judge: Option<(Solver, Judge)>,
    /// With `minimal`: the judge's deduction with probing, for the hard questions.
    prober: Option<Solver>,
    /// The full solver that grades a blanked puzzle (with `grade`).
    checker: Option<Solver>,
    /// The orbits of the symmetry, blanked together.
    orbits: Vec<Vec<usize>>,
    /// Counts every candidate drawn, shared with whoever shows progress.
    counter: Option<Arc<AtomicU64>>,
    next_index: u64,
    stats: GenStats,
}

impl Generator {
    /// A generator of puzzles that `book` finishes; fails when the options are invalid.
    pub fn new(options: GenOptions, book: RuleBook) -> Result<Generator, GenError> {
        options.validate()?;
        let book = judge_book(book, options.max_level);
        let blank_judge = if !options.blanks {
            None
        } else if options.minimal {
            // Deduction first, then the incremental uniqueness check searches what it left;
            // probing only when that check finds it hard (`blanks`).
            let switches = DeducerSet::ALL
                .without(Deducer::Probing)
                .without(Deducer::Search);
            Some((switches, Judge::Unique))
        } else {
            options.grade.map(|step| {
                let mut switches = step.deducers();
                if step < GradeStep::Search {
                    switches = switches.without(Deducer::Search);
                }
                (switches, Judge::Graded(step))
            })
        }
        .map(|(switches, mode)| {
            let options = SolveOptions {
                switches,
                ..SolveOptions::default()
            };
            (Solver::with_options(book.clone(), options), mode)
        });
        let prober = blank_judge
            .as_ref()
            .filter(|(_, mode)| *mode == Judge::Unique)
            .map(|(judge, _)| {
                let options = SolveOptions {
                    switches: judge.switches().with(Deducer::Probing),
                    ..judge.options()
                };
                Solver::with_options(book.clone(), options)
            });
        let checker = options
            .grade
            .map(|_| Solver::with_options(book.clone(), SolveOptions::default()));
        let orbits = options.symmetry.orbits(options.rows, options.cols);
        let solver = Solver::with_options(book, judge_options(&options));
        Ok(Generator {
            options,
            solver,
            blank_judge,
            prober,
            checker,
            orbits,
            counter: None,
            next_index: 0,
            stats: GenStats::default(),
        })
    }

    /// Adds one to `counter` for every candidate drawn (for a progress display).
    pub fn count_candidates(&mut self, counter: Arc<AtomicU64>) {
        self.counter = Some(counter);
    }

    /// A generator of puzzles that the built-in rules ([`RuleSet::builtin`]) finish (the
    /// options are checked before the rules are compiled).
    pub fn builtin(options: GenOptions) -> Result<Generator, GenError> {
        options.validate()?;
        Generator::new(options, RuleBook::new(RuleSet::builtin()))
    }

    /// The options in use.
    pub fn options(&self) -> &GenOptions {
        &self.options
    }

    /// Counts over the puzzles generated so far.
    pub fn stats(&self) -> GenStats {
        self.stats
    }

    /// The next puzzle of the run (puzzle 0, 1, 2, ...).
    ///
    /// After [`GenError::GaveUp`] the run goes on with the next index.
    pub fn next_puzzle(&mut self) -> Result<Generated, GenError> {
        let index = self.next_index;
        self.next_index += 1;
        self.puzzle_at(index)
    }

    /// Puzzle `index` of the run: it depends only on the options, the rule book and `index`.
    pub fn puzzle_at(&mut self, index: u64) -> Result<Generated, GenError> {
        let (rows, cols) = (self.options.rows, self.options.cols);
        let mut rng = Rng::for_stream(self.options.seed, index);
        let mut unfit = 0;
        for attempt in 1..=self.options.max_attempts {
            let shape = self.options.draw_shape(&mut rng);
            let solution = random_region(rows, cols, &shape, &mut rng);
            let puzzle = solution.to_puzzle();
            self.stats.candidates += 1;
            if let Some(counter) = &self.counter {
                counter.fetch_add(1, Ordering::Relaxed);
            }
            let (board, outcome) = self.solver.solve(&puzzle);
            match outcome {
                Outcome::Solved if !same_loop(&board, &solution) => self.stats.mismatches += 1,
                Outcome::Solved => {
                    let puzzle = if self.options.blanks {
                        match self.blank(&puzzle, &solution, &mut rng) {
                            Some(puzzle) => puzzle,
                            None => {
                                self.stats.unfit += 1;
                                unfit += 1;
                                continue;
                            }
                        }
                    } else {
                        puzzle
                    };
                    self.stats.puzzles += 1;
                    return Ok(Generated {
                        puzzle,
                        solution,
                        shape,
                        candidates: attempt,
                    });
                }
                Outcome::Stuck { .. } | Outcome::Several | Outcome::Limit { .. } => {
                    self.stats.stuck += 1
                }
                Outcome::Contradiction(_) => self.stats.contradictions += 1,
            }
        }
        let attempts = self.options.max_attempts;
        Err(if unfit > 0 {
            GenError::NoFit {
                rows,
                cols,
                attempts,
                unfit,
            }
        } else {
            GenError::GaveUp {
                rows,
                cols,
                attempts,
            }
        })
    }

    /// Blanks the clues of a candidate the judge finished; `None` when the result does not
    /// have the grade or the zeros asked for.
    fn blank(&mut self, puzzle: &Puzzle, solution: &Solution, rng: &mut Rng) -> Option<Puzzle> {
        let (judge, mode) = match &mut self.blank_judge {
            Some((judge, mode)) => (judge, *mode),
            None => (&mut self.solver, Judge::Deduce),
        };
        let options = &self.options;
        let blanked = blanks::blank_clues(
            (judge, self.prober.as_mut()),
            mode,
            puzzle,
            solution,
            &self.orbits,
            options.no_adjacent_zeros,
            rng,
        )?;
        if let (Some(step), Some(checker)) = (options.grade, &mut self.checker) {
            let attempt = checker.attempt(&blanked);
            let graded = attempt.outcome == Outcome::Solved
                && same_loop(&attempt.board, solution)
                && GradeStep::of(&attempt.report) == step;
            checker.recycle(attempt.board);
            if !graded {
                return None;
            }
        }
        Some(blanked)
    }
}

/// How candidates are judged: by deduction alone (never search), with the deducers the
/// options allow.
fn judge_options(options: &GenOptions) -> SolveOptions {
    SolveOptions {
        switches: options.judge.without(Deducer::Search),
        ..SolveOptions::default()
    }
}

/// The rule book without the rules above `max_level`.
fn judge_book(book: RuleBook, max_level: Option<u32>) -> RuleBook {
    match max_level {
        None => book,
        Some(level) => {
            let mut set = book.set;
            set.rules.retain(|r| r.level <= level);
            RuleBook::new(set)
        }
    }
}

/// Whether the lines of a finished board are the loop of `solution`.
pub(crate) fn same_loop(board: &Board, solution: &Solution) -> bool {
    let (rows, cols) = (solution.rows(), solution.cols());
    (0..=rows).all(|r| (0..cols).all(|c| board.h_line(r, c) == solution.h_line(r, c)))
        && (0..rows).all(|r| (0..=cols).all(|c| board.v_line(r, c) == solution.v_line(r, c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that the lines of `s` form one loop; returns its length.
    fn walk_loop(s: &Solution) -> Result<usize, String> {
        let (rows, cols) = (s.rows(), s.cols());
        let degree = |r: usize, c: usize| -> usize {
            let mut d = 0;
            if c > 0 && s.h_line(r, c - 1) {
                d += 1;
            }
            if c < cols && s.h_line(r, c) {
                d += 1;
            }
            if r > 0 && s.v_line(r - 1, c) {
                d += 1;
            }
            if r < rows && s.v_line(r, c) {
                d += 1;
            }
            d
        };
        let mut lines = 0;
        let mut first = None;
        for r in 0..=rows {
            for c in 0..=cols {
                let d = degree(r, c);
                if d != 0 && d != 2 {
                    return Err(format!("dot ({r}, {c}) has {d} lines"));
                }
                if d == 2 && first.is_none() {
                    first = Some((r, c));
                }
            }
            for c in 0..cols {
                lines += s.h_line(r, c) as usize;
            }
        }
        for r in 0..rows {
            for c in 0..=cols {
                lines += s.v_line(r, c) as usize;
            }
        }
        let Some(start) = first else {
            return Err("no lines".into());
        };
        // Walk from `start`, never going straight back.
        let (mut at, mut from) = (start, (usize::MAX, usize::MAX));
        let mut steps = 0;
        loop {
            let (r, c) = at;
            let mut next = None;
            let mut options = Vec::new();
            if c > 0 && s.h_line(r, c - 1) {
                options.push((r, c - 1));
            }
            if c < cols && s.h_line(r, c) {
                options.push((r, c + 1));
            }
            if r > 0 && s.v_line(r - 1, c) {
                options.push((r - 1, c));
            }
            if r < rows && s.v_line(r, c) {
                options.push((r + 1, c));
            }
            for o in options {
                if o != from {
                    next = Some(o);
                    break;
                }
            }
            let next = next.ok_or("dead end")?;
            from = at;
            at = next;
            steps += 1;
            if at == start {
                break;
            }
            if steps > lines {
                return Err("walk does not come back".into());
            }
        }
        if steps != lines {
            return Err(format!("the walk covers {steps} of {lines} lines"));
        }
        Ok(lines)
    }

    /// Global check: region 4-connected, outside (with the off-grid ring) 4-connected, no
    /// checkerboard 2x2 block.
    fn region_is_simple(s: &Solution) -> bool {
        let (rows, cols) = (s.rows() as isize, s.cols() as isize);
        for r in -1..rows {
            for c in -1..cols {
                let a = s.inside(r, c);
                let b = s.inside(r, c + 1);
                let d = s.inside(r + 1, c);
                let e = s.inside(r + 1, c + 1);
                if a == e && b == d && a != b {
                    return false;
                }
            }
        }
        // Flood both sides over the grid padded by one ring of outside cells.
        let count_components = |want: bool| -> usize {
            let mut seen = vec![false; ((rows + 2) * (cols + 2)) as usize];
            let id = |r: isize, c: isize| ((r + 1) * (cols + 2) + c + 1) as usize;
            let mut components = 0;
            for r in -1..=rows {
                for c in -1..=cols {
                    if s.inside(r, c) != want || seen[id(r, c)] {
                        continue;
                    }
                    components += 1;
                    let mut stack = vec![(r, c)];
                    seen[id(r, c)] = true;
                    while let Some((y, x)) = stack.pop() {
                        for (ny, nx) in [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)] {
                            if ny < -1 || nx < -1 || ny > rows || nx > cols {
                                continue;
                            }
                            if s.inside(ny, nx) == want && !seen[id(ny, nx)] {
                                seen[id(ny, nx)] = true;
                                stack.push((ny, nx));
                            }
                        }
                    }
                }
            }
            components
        };
        count_components(true) == 1 && count_components(false) == 1
    }

    #[test]
    fn rng_stream_is_fixed() {
        // SplitMix64 from 0 is the reference sequence of its paper.
        let mut state = 0;
        assert_eq!(splitmix64(&mut state), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(&mut state), 0x6e78_9e6a_a1b9_65f4);
        let mut rng = Rng::new(1);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        let mut again = Rng::new(1);
        assert_eq!(first, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        // Pinned values: a change here changes every generated puzzle.
        assert_eq!(
            first,
            [
                12966619160104079557,
                9600361134598540522,
                10590380919521690900
            ]
        );
        // The reference xoshiro256** outputs from the state [1, 2, 3, 4].
        let mut reference = Rng { s: [1, 2, 3, 4] };
        let outputs: Vec<u64> = (0..5).map(|_| reference.next_u64()).collect();
        assert_eq!(
            outputs,
            [
                11520,
                0,
                1509978240,
                1215971899390074240,
                1216172134540287360
            ]
        );
        assert_ne!(Rng::for_stream(1, 0), Rng::for_stream(1, 1));
        assert_ne!(Rng::for_stream(1, 0), Rng::for_stream(2, 0));
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 150), "{seen:?}");
        assert_eq!(rng.below(1), 0);
        for _ in 0..100 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }

    #[test]
    fn addable_table() {
        // A lone orthogonal neighbour, an L of three, a straight side of three: fine.
        assert!(ADDABLE[0b0000_0001]);
        assert!(ADDABLE[0b0000_0111]);
        assert!(ADDABLE[0b1000_0011]);
        // A lone diagonal (corner touch), two separate arcs, the empty and the full ring: not.
        assert!(!ADDABLE[0b0000_0010]);
        assert!(!ADDABLE[0b0001_0001]);
        assert!(!ADDABLE[0b0000_0101]);
        assert!(!ADDABLE[0]);
        assert!(!ADDABLE[255]);
        // A run that wraps around from NW to N.
        assert!(ADDABLE[0b1100_0001]);
    }

    #[test]
    fn regions_are_bounded_by_one_loop() {
        let sizes = [
            (1, 2),
            (2, 1),
            (1, 3),
            (1, 10),
            (7, 1),
            (2, 2),
            (2, 5),
            (3, 3),
            (4, 7),
            (10, 10),
            (13, 29),
            (40, 40),
        ];
        for &(rows, cols) in &sizes {
            for seed in 0..60 {
                let mut rng = Rng::new(seed);
                let mut options = GenOptions::new(rows, cols);
                options.fill = 0.0..=1.0;
                options.compactness = 0.0..=1.0;
                let shape = options.draw_shape(&mut rng);
                let s = random_region(rows, cols, &shape, &mut rng);
                assert!(
                    s.area() >= 2,
                    "{rows}x{cols} seed {seed}: area {}",
                    s.area()
                );
                let length = walk_loop(&s).unwrap_or_else(|e| {
                    panic!("{rows}x{cols} seed {seed} ({shape:?}): {e}");
                });
                assert!(length >= 6);
                assert!(region_is_simple(&s), "{rows}x{cols} seed {seed}");
                let puzzle = s.to_puzzle();
                assert!(puzzle.clues.iter().all(|c| c.unwrap() <= 3));
            }
        }
    }

    #[test]
    fn growth_reaches_its_target() {
        let mut rng = Rng::new(3);
        for &compactness in &[0.0, 0.05, 0.3, 1.0] {
            let shape = Shape {
                fill: 0.5,
                compactness,
            };
            let s = random_region(60, 50, &shape, &mut rng);
            assert!(s.area() <= 1500);
            assert!(
                s.area() > 1000,
                "compactness {compactness}: area {}",
                s.area()
            );
            walk_loop(&s).unwrap();
        }
        // The whole grid, when asked for.
        let all = Shape {
            fill: 1.0,
            compactness: 1.0,
        };
        let s = random_region(5, 6, &all, &mut rng);
        assert_eq!(s.area(), 30);
        assert_eq!(walk_loop(&s), Ok(22));
    }

    #[test]
    fn clues_count_loop_sides() {
        let s = Solution {
            rows: 2,
            cols: 3,
            inside: vec![true, true, false, false, true, false],
        };
        let p = s.to_puzzle();
        let clues: Vec<u8> = p.clues.iter().map(|c| c.unwrap()).collect();
        assert_eq!(clues, [3, 2, 1, 2, 3, 1]);
        assert!(s.h_line(0, 0) && !s.h_line(1, 1) && s.h_line(2, 1));
        assert!(s.v_line(0, 0) && s.v_line(0, 2) && !s.v_line(0, 1) && s.v_line(1, 2));
    }

    #[test]
    fn bad_sizes_are_rejected() {
        let e = |rows, cols| Generator::builtin(GenOptions::new(rows, cols)).err();
        assert_eq!(e(0, 5), Some(GenError::NoCells { rows: 0, cols: 5 }));
        assert_eq!(e(3, 0), Some(GenError::NoCells { rows: 3, cols: 0 }));
        assert_eq!(e(1, 1), Some(GenError::OneCell));
        assert_eq!(
            e(MAX_SIDE + 1, 1),
            Some(GenError::TooLarge {
                rows: MAX_SIDE + 1,
                cols: 1
            })
        );
        let mut options = GenOptions::new(4, 4);
        options.fill = 0.5..=1.5;
        assert!(matches!(
            Generator::builtin(options).err(),
            Some(GenError::BadOption(_))
        ));
        assert!(e(1, 1).unwrap().to_string().contains("clue 4"));
    }

    #[test]
    fn generated_puzzles_are_solved_and_reproducible() {
        let mut options = GenOptions::new(8, 9);
        options.seed = 42;
        let mut a = Generator::builtin(options.clone()).unwrap();
        let first: Vec<Generated> = (0..4).map(|_| a.next_puzzle().unwrap()).collect();
        let mut b = Generator::builtin(options).unwrap();
        for (i, g) in first.iter().enumerate() {
            let again = b.puzzle_at(i as u64).unwrap();
            assert_eq!(again.puzzle, g.puzzle);
            assert_eq!(again.solution, g.solution);
            walk_loop(&g.solution).unwrap();
            assert_eq!(g.solution.to_puzzle(), g.puzzle);
        }
        assert_ne!(first[0].puzzle, first[1].puzzle);
        assert_eq!(a.stats().puzzles, 4);
        assert!(a.stats().candidates >= 4);
        // The solver agrees with the solution.
        let mut solver = Solver::new(RuleBook::new(RuleSet::builtin()));
        let (board, outcome) = solver.solve(&first[0].puzzle);
        assert_eq!(outcome, Outcome::Solved);
        for r in 0..=8 {
            for c in 0..9 {
                assert_eq!(board.h_line(r, c), first[0].solution.h_line(r, c));
            }
        }
    }

    #[test]
    fn tiny_sizes() {
        for (rows, cols) in [(1, 2), (2, 1), (1, 3), (3, 1), (2, 2), (1, 6), (2, 3)] {
            let mut g = Generator::builtin(GenOptions::new(rows, cols)).unwrap();
            for _ in 0..3 {
                let generated = g.next_puzzle().unwrap();
                let p = &generated.puzzle;
                assert_eq!((p.rows, p.cols), (rows, cols));
                walk_loop(&generated.solution).unwrap();
            }
        }
    }

    #[test]
    fn gives_up_when_the_rules_finish_nothing() {
        let mut options = GenOptions::new(3, 4);
        options.max_attempts = 5;
        let mut g = Generator::new(options, RuleBook::new(RuleSet::default())).unwrap();
        let gave_up = GenError::GaveUp {
            rows: 3,
            cols: 4,
            attempts: 5,
        };
        assert_eq!(g.next_puzzle().err(), Some(gave_up.clone()));
        assert_eq!(g.next_puzzle().err(), Some(gave_up));
        let stats = g.stats();
        assert_eq!((stats.puzzles, stats.candidates, stats.stuck), (0, 10, 10));
        assert_eq!((stats.contradictions, stats.mismatches), (0, 0));
    }
}
