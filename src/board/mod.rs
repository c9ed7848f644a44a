//! The board: edge states and clues on a padded doubled lattice, the running counts, the one function that writes an edge and the one that takes writes back.
//!
//! The lattice of [`crate::geometry`] is stored row-major with a margin of off-grid points around
//! it, so that a rule anchored near the border reads off-grid edges (state [`OFF`], which a
//! premise cross matches) without bounds checks. The stride is even, so an edge's index parity
//! tells its direction: odd indices are horizontal edges, even ones vertical.
//!
//! Every decided edge goes on the *trail*, in order. [`Board::set_edge`] always completes
//! its write (state, counts, slot words, chain ends, colouring) before it reports a
//! contradiction, so [`Board::undo_to`] can take any suffix of the trail back exactly; this
//! is what probing and search stand on. [`Board::recount`] checks every cached count against
//! the edges, as Tatham's Loopy does.

mod chains;
pub mod colours;
mod write;
pub(crate) use chains::{DEFERRED, NEXT_LINE};
pub mod contradiction;

use crate::deduce::deducer::Deducer;
use crate::geometry::CELL_SLOTS;
use crate::puzzle::Puzzle;
use colours::Colouring;
pub use contradiction::{Contradiction, Why};

/// Edge state: not decided yet.
pub const UNKNOWN: u8 = 1;
/// Edge state: on the loop.
pub const LINE: u8 = 2;
/// Edge state: known not on the loop.
pub const CROSS: u8 = 4;
/// Edge state: outside the grid (counts as a cross for premises).
pub const OFF: u8 = 8;
/// Cell code of clue `n` is `CLUE0 << n`; blank and off-grid cells are 0.
pub const CLUE0: u8 = 16;

/// The bits of a cell's state word ([`Board::cell_state`]) that hold its 12 slots.
pub const SLOTS: u32 = 0xFF_FFFF;
/// Where a cell's state word keeps its code (the top byte), so that one read gives both.
pub const CODE_SHIFT: u32 = 24;

/// Two bits per slot: `01` line, `10` cross (or off-grid), `00` unknown.
#[inline(always)]
pub fn slot_bits(state: u8) -> u32 {
    // UNKNOWN = 1, LINE = 2, CROSS = 4, OFF = 8.
    const CODE: [u8; 16] = [0, 0, 1, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
    CODE[(state & 15) as usize] as u32
}

/// The clue of a cell code, if it is a clue cell.
#[inline(always)]
pub fn clue_of(code: u8) -> Option<u8> {
    (code >= CLUE0).then(|| code.trailing_zeros() as u8 - 4)
}

/// Why an edge was decided: what the trail records for each entry, and what statistics and
/// explanations read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A rule variant (index into the rule book) matched with its origin at this lattice index.
    Rule {
        /// Index of the variant in the rule book.
        variant: u32,
        /// Lattice index of the variant's origin.
        anchor: u32,
    },
    /// A global deducer.
    By(Deducer),
    /// A guess made by search.
    Guess,
    /// Given before solving started (an example board's lines and crosses).
    Given,
}

impl Reason {
    const GUESS: u32 = u32::MAX;
    const GIVEN: u32 = u32::MAX - 1;
    /// `By(d)` packs as `BY - d.index()`.
    const BY: u32 = u32::MAX - 2;

    /// Packs the reason into 8 bytes for the trail: the variant (or a kind) and the anchor.
    #[inline]
    fn pack(self) -> u64 {
        let (kind, anchor) = match self {
            Reason::Rule { variant, anchor } => (variant, anchor),
            Reason::By(d) => (Self::BY - d.index() as u32, 0),
            Reason::Guess => (Self::GUESS, 0),
            Reason::Given => (Self::GIVEN, 0),
        };
        (u64::from(kind) << 32) | u64::from(anchor)
    }

    /// The reason packed by [`Reason::pack`].
    fn unpack(packed: u64) -> Reason {
        match (packed >> 32) as u32 {
            Self::GUESS => Reason::Guess,
            Self::GIVEN => Reason::Given,
            kind if kind > Self::BY - Deducer::COUNT as u32 => {
                Reason::By(Deducer::ALL[(Self::BY - kind) as usize])
            }
            variant => Reason::Rule {
                variant,
                anchor: packed as u32,
            },
        }
    }
}

/// What one probe found, kept beside the trail (when reasons are tracked) so that an
/// explanation can say which edge was tried, what it led to, and where it broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeNote {
    /// Trail position of the first edge the probe decided.
    pub at: u32,
    /// The edge tried (lattice index).
    pub edge: u32,
    /// The state tried that led to a contradiction ([`LINE`] or [`CROSS`]); 0 when both ways
    /// were possible and agreed on the edges the probe decided.
    pub tried: u8,
    /// The edges that way decided after the tried one, with their reasons, in order, up to
    /// the contradiction.
    pub chain: Vec<(u32, Reason)>,
    /// The contradiction that way met.
    pub contradiction: Option<Contradiction>,
}

/// A cell the regions deducer placed on one side of the loop, kept beside the trail (when
/// reasons are tracked) so that an explanation can say why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideNote {
    /// Trail length when it was placed.
    pub at: u32,
    /// The cell (lattice index).
    pub cell: u32,
    /// The side: inside the loop when true.
    pub inside: bool,
    /// Two cells of that side that only paths through it join (lattice indices; `None` for
    /// the outside of the grid); `None` when no path joins it to that side's cells, so that it
    /// is on the other side.
    pub joins: Option<(u32, Option<u32>)>,
}

/// What a board keeps beyond what solving needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tracking {
    /// Queue the edges that join the two ends of one chain, for the loop-closure deducer.
    pub closures: bool,
    /// Record why each edge was decided (statistics, explanations).
    pub reasons: bool,
}

/// Per 4-slot word (a dot's edges, or a cell's sides: 2 bits each): lines in the low
/// nibble, crosses (off-grid edges included) in the high nibble.
static COUNTS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut w = 0;
    while w < 256 {
        let (mut lines, mut crosses) = (0u8, 0u8);
        let mut k = 0;
        while k < 4 {
            match (w >> (2 * k)) & 3 {
                1 => lines += 1,
                2 => crosses += 1,
                _ => {}
            }
            k += 1;
        }
        t[w] = lines | (crosses << 4);
        w += 1;
    }
    t
};

/// [`CELL_STATUS`]: the cell has more lines than its clue.
const EXCEEDED: u8 = 1;
/// [`CELL_STATUS`]: the cell can no longer reach its clue.
const UNREACHABLE: u8 = 2;
/// [`CELL_STATUS`]: the cell has exactly its clue's lines.
const SATISFIED: u8 = 4;
/// [`CELL_STATUS`]: the cell has exactly one line more than its clue.
const ONE_OVER: u8 = 8;
/// [`DOT_STATUS`]: three or four lines.
const THREE_LINES: u8 = 1;
/// [`DOT_STATUS`]: one line and no way on.
const DEAD_END: u8 = 2;
/// [`DOT_STATUS`]: exactly one line (the dot ends a chain).
const ONE_LINE: u8 = 4;
/// [`DOT_STATUS`]: exactly two lines.
const TWO_LINES: u8 = 8;
/// The [`DOT_STATUS`] flags that are problems.
const DOT_PROBLEMS: u8 = THREE_LINES | DEAD_END;

/// Per cell code / 16 (0 for a blank cell, `1 << n` for clue `n`; every code / 16 has a row,
/// so that the lookup needs no bounds check) and side word: the
/// [`EXCEEDED`], [`UNREACHABLE`], [`SATISFIED`] and [`ONE_OVER`] flags.
static CELL_STATUS: [[u8; 256]; 16] = {
    let mut t = [[0u8; 256]; 16];
    let mut clue = 0;
    while clue < 4 {
        let mut w = 0;
        while w < 256 {
            let c = COUNTS[w];
            let (lines, crosses) = (c & 15, c >> 4);
            let mut status = 0;
            if lines > clue {
                status |= EXCEEDED;
            }
            if crosses > 4 - clue {
                status |= UNREACHABLE;
            }
            if lines == clue {
                status |= SATISFIED;
            }
            if lines == clue + 1 {
                status |= ONE_OVER;
            }
            t[1 << clue][w] = status;
            w += 1;
        }
        clue += 1;
    }
    t
};

/// Per dot word: the [`THREE_LINES`], [`DEAD_END`], [`ONE_LINE`] and [`TWO_LINES`] flags.
static DOT_STATUS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut w = 0;
    while w < 256 {
        let c = COUNTS[w];
        let (lines, crosses) = (c & 15, c >> 4);
        if lines > 2 {
            t[w] = THREE_LINES;
        } else if lines == 1 && crosses == 3 {
            t[w] = DEAD_END;
        }
        if lines == 1 {
            t[w] |= ONE_LINE;
        } else if lines == 2 {
            t[w] |= TWO_LINES;
        }
        w += 1;
    }
    t
};

/// Where an edge sits in the words that hold it, by direction (index parity: 0 vertical,
/// 1 horizontal): the slot it has in its two side cells (the one before it, then the one
/// after it, in lattice order), in its two dots, and in the four cells whose corner exits
/// it is: the before-side cell's neighbours two lattice steps back and forward along the
/// edge, then the after-side cell's. See [`CELL_SLOTS`] for the numbers.
struct EdgeGeometry {
    sides: [u8; 2],
    dots: [u8; 2],
    exits: [u8; 4],
}

static EDGE_GEOMETRY: [EdgeGeometry; 2] = [
    // Vertical: the cell left holds it as E (1), right as W (3); the dot above as S (2),
    // below as N (0); above-left SE-down (9), below-left NE-up (6), above-right SW-down
    // (10), below-right NW-up (4).
    EdgeGeometry {
        sides: [1, 3],
        dots: [2, 0],
        exits: [9, 6, 10, 4],
    },
    // Horizontal: the cell above holds it as S (2), below as N (0); the dot left as E (1),
    // right as W (3); above-left SE-right (8), above-right SW-left (11), below-left NE-right
    // (7), below-right NW-left (5).
    EdgeGeometry {
        sides: [2, 0],
        dots: [1, 3],
        exits: [8, 11, 7, 5],
    },
];

/// What `set_edge` found wrong, packed: the kind in the top 16 bits (the [`CELL_STATUS`]
/// flags, the [`DOT_STATUS`] flags shifted by 2, or [`EARLY_LOOP`]) and the lattice index of
/// the place below; 0 for nothing. Turned into a [`Contradiction`] only when there is one.
type Problem = u64;

/// [`Problem`] kind: a loop closed before the puzzle is done.
const EARLY_LOOP: u64 = 1 << 5;
/// [`Problem`] kind: the colouring found that the cells on either side of the edge must be
/// on the same side and on different sides.
const COLOUR_CLASH: u64 = 1 << 6;
/// [`Problem`] kind: the edge is already decided the other way (the state it has and the
/// state asked for follow, 4 bits each, from bit 8).
const CONFLICT: u64 = 1 << 7;

/// What a write did, as one number: [`Outcome::CHANGED`], [`Outcome::KEPT`], or else the
/// [`Problem`] it found (see [`Board::contradiction_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome(Problem);

impl Outcome {
    /// The edge was unknown and now has the state asked for.
    pub const CHANGED: Outcome = Outcome(0);
    /// The edge already had the state asked for (or is off the grid and a cross was asked).
    pub const KEPT: Outcome = Outcome(1);

    /// Whether the write found a contradiction.
    #[inline(always)]
    pub fn is_problem(self) -> bool {
        self.0 > 1
    }
}

/// The outcome of a write to an edge that is not unknown (its code is `cur`): nothing to
/// do when it already has that state (or is off the grid and a cross is asked), a conflict
/// otherwise.
#[inline(always)]
fn refused(i: usize, state: u8, cur: u8) -> Outcome {
    if cur == state || (cur == OFF && state == CROSS) {
        Outcome::KEPT
    } else {
        let kind = CONFLICT | u64::from(cur) << 8 | u64::from(state) << 12;
        Outcome(problem_at(kind, i))
    }
}

/// [`Board::write_along`] was told wrong whether the board has its colouring on.
#[cold]
#[inline(never)]
fn colouring_not_said() -> ! {
    panic!("an edge written with the board's colouring said wrong")
}

/// A [`Problem`] of kind `kind` at lattice index `at`.
#[inline(always)]
fn problem_at(kind: u64, at: usize) -> Problem {
    (kind << 48) | at as u64
}

/// For a line just added at a dot whose [`DOT_STATUS`] is `status`: how the number of chain
/// ends changes (+1: the dot has one line, so it became an end; -1: it has two, so an end
/// became an inner dot; 0: three or more, a contradiction counted back the same way when it
/// is undone).
#[inline(always)]
fn ends_step(status: u8) -> isize {
    isize::from(status & ONE_LINE != 0) - isize::from(status & TWO_LINES != 0)
}

/// Lines among the four slots of a dot's word or of a cell word's sides.
#[inline(always)]
pub fn lines_of_word(word: u32) -> u8 {
    COUNTS[(word & 0xFF) as usize] & 15
}

/// Lines and crosses of a 4-slot word (see [`COUNTS`]).
#[inline(always)]
fn counts(word: u32) -> (u8, u8) {
    let c = COUNTS[(word & 0xFF) as usize];
    (c & 15, c >> 4)
}

/// The counts the writes keep up to date, for questions asked without a walk.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    /// Clue cells whose lines are not their clue.
    unsatisfied: usize,
    /// Lines.
    line_count: usize,
    /// Dots with exactly one line: the ends of the chains of lines.
    ends: usize,
    /// Closed loops of lines (at most one on a board without a contradiction).
    loops: usize,
}

/// A puzzle being solved.
///
/// Memory: one byte per lattice point (`codes`: an edge's state, a cell's clue code, a dot's
/// word of its 4 edges) and one `u32` per two points (`words`, at lattice index / 2, where
/// dots and cells never collide: a cell's 12 slots, a dot's chain mate), so about 12 bytes
/// per cell, plus the trail (4 bytes per decided edge) and, when tracked, the reasons (8);
/// once the rules leave its puzzle stuck, 8 bytes per two points for the clues near each
/// edge (`near`).
/// Line and cross counts are read off the words through a 256-entry table.
#[derive(Clone)]
pub struct Board {
    rows: usize,
    cols: usize,
    margin: usize,
    stride: usize,
    /// Per lattice point: an edge's state ([`UNKNOWN`], [`LINE`], [`CROSS`], [`OFF`]), a
    /// cell's clue code (`CLUE0 << n`, 0 for none), a dot's 4 edges (N, E, S, W; 2 bits each,
    /// see [`slot_bits`]).
    codes: Vec<u8>,
    /// Per dot and cell, at lattice index / 2: a cell's 12 slots (sides, then corner exits),
    /// 2 bits each; for a dot that ends a chain of lines, the lattice index of the chain's
    /// other end (see `chains`).
    words: Vec<u32>,
    /// Whether cells' corner-exit slots are kept in their words (only the cell tests of
    /// `compile` read them; side slots are always kept). Switched on by
    /// [`Board::keep_exits`], never off.
    exits: bool,
    /// Every edge decided, in order (the first `decided` entries): the log that
    /// [`Board::undo_to`] takes back. Sized once to the number of edges, as no edge is
    /// decided twice, so a write needs no capacity check.
    trail: Vec<u32>,
    /// Entries of `trail` in use.
    decided: usize,
    /// The reason of each trail entry, packed (see [`Reason::pack`]), when tracked; like
    /// the trail, only the first `decided` entries are in use.
    reasons: Vec<u64>,
    tracking: Tracking,
    /// Grid edges: those not on the trail are unknown.
    edges: usize,
    /// The running counts the writes keep.
    counts: Counts,
    /// Edges that joined the two ends of one chain when they were queued (loop closure).
    closures: Vec<u32>,
    /// Edges joining the two ends of the only chain where closing it would have finished the
    /// answer when the deducer looked: looked at again each time (see `chains`).
    deferred: Vec<u32>,
    /// Inside/outside colouring, once switched on.
    colouring: Option<Box<Colouring>>,
    /// What the probes behind the trail's probing entries found (reasons tracked only), in
    /// trail order.
    notes: Vec<ProbeNote>,
    /// The cells the regions deducer placed (reasons tracked only), in trail order.
    sides: Vec<SideNote>,
    /// The codes a dot row and a cell row start with (off-grid edges), for the stride of
    /// the last reset: reused while the stride stays.
    row_patterns: Vec<u8>,
}

impl Board {
    /// Lays out a puzzle with `margin` (rounded up to even, at least 4) off-grid lattice points on every side.
    pub fn new(puzzle: &Puzzle, margin: usize, tracking: Tracking) -> Board {
        let mut board = Board {
            rows: 0,
            cols: 0,
            margin: 0,
            stride: 0,
            codes: Vec::new(),
            words: Vec::new(),
            exits: false,
            trail: Vec::new(),
            decided: 0,
            reasons: Vec::new(),
            tracking,
            edges: 0,
            counts: Counts::default(),
            closures: Vec::new(),
            deferred: Vec::new(),
            colouring: None,
            notes: Vec::new(),
            sides: Vec::new(),
            row_patterns: Vec::new(),
        };
        board.reset(puzzle, margin, tracking);
        board
    }

    /// Lays out another puzzle on this board, reusing its memory (a stream's boards are all
    /// alike in size, so after the first puzzle nothing is allocated). The margin is at least
    /// 4, so that the words of the off-grid cells along the border can be read whole.
    pub fn reset(&mut self, puzzle: &Puzzle, margin: usize, tracking: Tracking) {
        let margin = margin.next_multiple_of(2).max(4);
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let stride = (2 * cols + 1 + 2 * margin).next_multiple_of(2);
        let height = 2 * rows + 1 + 2 * margin;
        self.rows = rows;
        self.cols = cols;
        self.margin = margin;
        self.stride = stride;
        self.tracking = tracking;
        // Every edge slot starts off-grid (dot rows: odd columns; cell rows: even columns),
        // then the grid's own edges become unknown and its cells get their clues.
        if self.row_patterns.len() != 2 * stride {
            // A dot row, then a cell row, as they are before the grid is laid in.
            self.row_patterns = (0..2 * stride)
                .map(|x| if (x / stride + x) % 2 == 1 { OFF } else { 0 })
                .collect();
        }
        // Every code is written below (the row patterns cover them all), so the old ones need
        // not be cleared first.
        let codes = &mut self.codes;
        codes.resize(stride * height, 0);
        // Cells' slot words start empty but for the clue code on top; a dot's word is read
        // only once it ends a chain, which writes it first.
        let words = &mut self.words;
        words.clear();
        words.resize(codes.len() / 2 + 1, 0);
        let (dot_row, cell_row) = self.row_patterns.split_at(stride);
        for (rows, _) in codes.chunks_exact_mut(2 * stride).zip(0..) {
            rows[..stride].copy_from_slice(dot_row);
            rows[stride..].copy_from_slice(cell_row);
        }
        // `height` is odd: the last row is a dot row.
        let last = codes.len() - stride;
        codes[last..].copy_from_slice(dot_row);
        let mut unsatisfied = 0;
        for y in 0..=2 * rows {
            let base = (y + margin) * stride + margin;
            let row = &mut codes[base..base + 2 * cols + 1];
            if y % 2 == 0 {
                for pair in row.chunks_exact_mut(2) {
                    pair[1] = UNKNOWN;
                }
            } else {
                let clues = &puzzle.clues[(y / 2) * cols..(y / 2 + 1) * cols];
                let first = (base + 1) >> 1;
                let row_words = &mut words[first..first + cols];
                for ((pair, clue), word) in row.chunks_exact_mut(2).zip(clues).zip(row_words) {
                    // A blank's code (0) is its pattern's, and its word stays 0: written
                    // alike, without a branch.
                    let code = clue.map_or(0, |n| CLUE0 << n);
                    pair[0] = UNKNOWN;
                    pair[1] = code;
                    *word = u32::from(code) << CODE_SHIFT;
                    unsatisfied += usize::from(code > CLUE0);
                }
                row[2 * cols] = UNKNOWN;
            }
        }
        let edges = (rows + 1) * cols + rows * (cols + 1);
        // The trail's entries past `decided` are never read: it only has to be long enough.
        if self.trail.len() < edges {
            self.trail.resize(edges, 0);
        }
        self.decided = 0;
        // Like the trail, sized once (when tracked) so that a write needs no capacity check
        // (nor a call that could move the board's other arrays).
        if tracking.reasons && self.reasons.len() < edges {
            self.reasons.resize(edges, 0);
        }
        self.edges = edges;
        self.counts = Counts {
            unsatisfied,
            ..Counts::default()
        };
        self.closures.clear();
        self.deferred.clear();
        self.notes.clear();
        self.sides.clear();
        self.colouring = None;
        self.exits = false;
        // Only the border ring sees off-grid edges: its dots hold them as crosses in their
        // words (N, E, S, W: bits 0, 2, 4, 6; `10` a cross).
        let dot = |y: usize, x: usize| (2 * y + margin) * stride + 2 * x + margin;
        let side = |at_start: bool, at_end: bool, k_start: u8, k_end: u8| {
            (u8::from(at_start) << (2 * k_start + 1)) | (u8::from(at_end) << (2 * k_end + 1))
        };
        for y in 0..=rows {
            let ends = side(y == 0, y == rows, 0, 2);
            if y == 0 || y == rows {
                for x in 0..=cols {
                    self.codes[dot(y, x)] = ends | side(x == 0, x == cols, 3, 1);
                }
            } else {
                self.codes[dot(y, 0)] = side(true, false, 3, 1);
                self.codes[dot(y, cols)] = side(false, true, 3, 1);
            }
        }
        debug_assert!(
            (0..=rows).all(|y| (0..=cols).all(|x| {
                let d = dot(y, x);
                self.codes[d] == self.dot_word_of(d)
            })),
            "border dot words"
        );
    }

    /// Keeps the corner-exit slots of every cell word from now on (the cell tests of the
    /// matchers running read them); brings them up to date first.
    pub fn keep_exits(&mut self) {
        if self.exits {
            return;
        }
        self.exits = true;
        for c in self.grid_cells().collect::<Vec<_>>() {
            self.refresh_cell(c);
        }
        // Off-grid cells along the border hold grid edges in their slots too.
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        for x in -1..=cols {
            for y in [-1, rows] {
                let c = self.index(2 * y + 1, 2 * x + 1);
                self.refresh_cell(c);
            }
        }
        for y in 0..rows {
            for x in [-1, cols] {
                let c = self.index(2 * y + 1, 2 * x + 1);
                self.refresh_cell(c);
            }
        }
    }

    /// The four edges of a dot (N, E, S, W) as lattice indices.
    #[inline]
    fn dot_edges(&self, d: usize) -> [usize; 4] {
        [d - self.stride, d + 1, d + self.stride, d - 1]
    }

    /// The word a dot has from its edges' states.
    fn dot_word_of(&self, d: usize) -> u8 {
        let mut word = 0u8;
        for (k, e) in self.dot_edges(d).into_iter().enumerate() {
            word |= (slot_bits(self.codes[e]) as u8) << (2 * k);
        }
        word
    }

    /// The word a cell has from its slots' states.
    fn cell_word(&self, c: usize) -> u32 {
        let stride = self.stride as isize;
        let mut word = 0u32;
        for (k, &p) in CELL_SLOTS.iter().enumerate() {
            word |=
                slot_bits(self.codes[c.wrapping_add_signed(p.y as isize * stride + p.x as isize)])
                    << (2 * k);
        }
        word
    }

    /// Recomputes a cell's word from the grid.
    fn refresh_cell(&mut self, c: usize) {
        self.words[c >> 1] = self.cell_word(c) | (u32::from(self.codes[c]) << CODE_SHIFT);
    }

    /// Cells down.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Cells across.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Off-grid lattice points on each side.
    pub fn margin(&self) -> usize {
        self.margin
    }

    /// Lattice indices per row.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Lattice points in all (margin included): every lattice index is below this.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether the board has no lattice points (never: even a 0x0 grid has its margin).
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// What the board keeps beyond what solving needs.
    pub fn tracking(&self) -> Tracking {
        self.tracking
    }

    /// Grid edges in all.
    pub fn edge_count(&self) -> usize {
        (self.rows + 1) * self.cols + self.rows * (self.cols + 1)
    }

    /// Lattice index of doubled-grid point (y, x) (may lie in the margin).
    #[inline]
    pub fn index(&self, y: isize, x: isize) -> usize {
        ((y + self.margin as isize) as usize) * self.stride + (x + self.margin as isize) as usize
    }

    /// Doubled-grid point of a lattice index.
    pub fn point(&self, i: usize) -> (isize, isize) {
        (
            (i / self.stride) as isize - self.margin as isize,
            (i % self.stride) as isize - self.margin as isize,
        )
    }

    /// Every grid edge's lattice index, row by row of the doubled grid.
    pub fn grid_edges(&self) -> impl Iterator<Item = usize> + '_ {
        // Row by row: a row of horizontal edges holds `cols` of them, one of vertical edges
        // `cols + 1`, two lattice points apart.
        (0..=2 * self.rows as isize).flat_map(move |y| {
            let (first, count) = if y % 2 == 0 {
                (1, self.cols)
            } else {
                (0, self.cols + 1)
            };
            let start = self.index(y, first);
            (0..count).map(move |k| start + 2 * k)
        })
    }

    /// Every grid cell's lattice index, row by row.
    pub fn grid_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rows as isize).flat_map(move |r| {
            let start = self.index(2 * r + 1, 1);
            (0..self.cols).map(move |c| start + 2 * c)
        })
    }

    /// The grid edges within `radius` lattice steps (each way) of lattice index `i`.
    pub fn edges_near(&self, i: usize, radius: isize) -> impl Iterator<Item = usize> + '_ {
        let (y, x) = self.point(i);
        let (h, w) = (2 * self.rows as isize, 2 * self.cols as isize);
        let ys = (y - radius).max(0)..=(y + radius).min(h);
        ys.flat_map(move |y| {
            let xs = (x - radius).max(0)..=(x + radius).min(w);
            xs.filter(move |x| (y + x) % 2 == 1)
                .map(move |x| self.index(y, x))
        })
    }

    /// The state of the edge or the code of the cell at a lattice index (for a dot: its word).
    #[inline]
    pub fn at(&self, i: usize) -> u8 {
        self.codes[i]
    }

    /// The code at lattice index `i`, or 0 (a blank cell's) past either end of the board.
    #[inline(always)]
    pub fn code_or_blank(&self, i: usize) -> u8 {
        self.codes.get(i).copied().unwrap_or(0)
    }

    /// Whether horizontal edge (dot row `r`, between dots `c` and `c+1`) is a line.
    pub fn h_line(&self, r: usize, c: usize) -> bool {
        self.codes[self.index(2 * r as isize, 2 * c as isize + 1)] == LINE
    }

    /// Whether vertical edge (cell row `r`, dot column `c`) is a line.
    pub fn v_line(&self, r: usize, c: usize) -> bool {
        self.codes[self.index(2 * r as isize + 1, 2 * c as isize)] == LINE
    }

    /// The clue of cell (r, c), `None` for a blank.
    pub fn clue(&self, r: usize, c: usize) -> Option<u8> {
        clue_of(self.codes[self.index(2 * r as isize + 1, 2 * c as isize + 1)])
    }

    /// The 12 slots of the cell at a lattice index, 2 bits each (see [`slot_bits`]); the 8
    /// corner-exit slots only once [`Board::keep_exits`] was called.
    #[inline]
    pub fn word(&self, cell: usize) -> u32 {
        self.words[cell >> 1] & SLOTS
    }

    /// The cell's slots ([`Board::word`]) with its code on top (`state >> CODE_SHIFT`): what
    /// a woken cell reads, in one load.
    #[inline]
    pub fn cell_state(&self, cell: usize) -> u32 {
        self.words[cell >> 1]
    }

    /// The 4 edges (N, E, S, W) of the dot at a lattice index, 2 bits each.
    #[inline]
    pub fn dot_word(&self, dot: usize) -> u8 {
        self.codes[dot]
    }

    /// Lines at the dot of a lattice index.
    #[inline]
    pub fn dot_lines(&self, d: usize) -> u8 {
        counts(u32::from(self.codes[d])).0
    }

    /// The codes of the grid's part of lattice row `y` (`x` from 0 to `2 * cols`): dot words
    /// and edge states on dot rows, edge states and clue codes on cell rows.
    #[inline]
    pub fn lattice_row(&self, y: isize) -> &[u8] {
        let start = self.index(y, 0);
        &self.codes[start..=start + 2 * self.cols]
    }

    /// The state words ([`Board::cell_state`]: slots, code on top) of the cells of grid row
    /// `r`, first to last (their side slots, which [`lines_of_word`] counts, are always
    /// kept).
    #[inline]
    pub fn cell_row_words(&self, r: usize) -> &[u32] {
        let start = self.index(2 * r as isize + 1, 1) >> 1;
        &self.words[start..start + self.cols]
    }

    /// Crosses (off-grid edges included) at the dot of a lattice index.
    #[inline]
    pub fn dot_crosses(&self, d: usize) -> u8 {
        counts(u32::from(self.codes[d])).1
    }

    /// Line sides of the cell at a lattice index.
    #[inline]
    pub fn cell_lines(&self, c: usize) -> u8 {
        counts(self.words[c >> 1]).0
    }

    /// Cross sides of the cell at a lattice index.
    #[inline]
    pub fn cell_crosses(&self, c: usize) -> u8 {
        counts(self.words[c >> 1]).1
    }

    /// Grid edges still unknown.
    #[inline]
    pub fn unknown(&self) -> usize {
        self.edges - self.decided
    }

    /// Edges on the loop so far.
    pub fn line_count(&self) -> usize {
        self.counts.line_count
    }

    /// Clue cells whose line count differs from their clue.
    pub fn unsatisfied(&self) -> usize {
        self.counts.unsatisfied
    }

    /// The decided edges in order (lattice indices).
    #[inline]
    pub fn trail(&self) -> &[u32] {
        &self.trail[..self.decided]
    }

    /// Why each trail entry was decided, in trail order (empty unless reasons are tracked).
    pub fn reasons(&self) -> impl ExactSizeIterator<Item = Reason> + '_ {
        let tracked = if self.tracking.reasons {
            self.decided
        } else {
            0
        };
        self.reasons[..tracked]
            .iter()
            .map(|&packed| Reason::unpack(packed))
    }

    /// What the probes behind the trail's probing entries found, in trail order (empty unless
    /// reasons are tracked).
    pub fn probe_notes(&self) -> &[ProbeNote] {
        &self.notes
    }

    /// Keeps what a probe found (only when reasons are tracked); its `at` is where its first
    /// decided edge stands on the trail.
    pub fn note_probe(&mut self, note: ProbeNote) {
        if self.tracking.reasons {
            self.notes.push(note);
        }
    }

    /// The cells the regions deducer placed, in trail order (empty unless reasons are tracked).
    pub fn side_notes(&self) -> &[SideNote] {
        &self.sides
    }

    /// Keeps why the regions deducer placed a cell (only when reasons are tracked).
    pub fn note_side(&mut self, note: SideNote) {
        if self.tracking.reasons {
            self.sides.push(note);
        }
    }

    /// The trail entries from position `from` on, with their reasons (empty unless reasons are
    /// tracked).
    pub fn trail_with_reasons(&self, from: usize) -> Vec<(u32, Reason)> {
        if !self.tracking.reasons {
            return Vec::new();
        }
        let end = self.decided;
        (from.min(end)..end)
            .map(|k| (self.trail[k], Reason::unpack(self.reasons[k])))
            .collect()
    }

    /// The two dots an edge joins (lattice indices).
    #[inline]
    pub fn edge_dots(&self, e: usize) -> [usize; 2] {
        if e & 1 == 1 {
            [e - 1, e + 1]
        } else {
            [e - self.stride, e + self.stride]
        }
    }

    /// The two cells on either side of an edge (lattice indices; off-grid cells included).
    #[inline]
    pub fn edge_cells(&self, e: usize) -> [usize; 2] {
        if e & 1 == 1 {
            [e - self.stride, e + self.stride]
        } else {
            [e - 1, e + 1]
        }
    }

    /// Human-readable place of a lattice index, for messages.
    pub fn describe(&self, i: usize) -> String {
        let (y, x) = self.point(i);
        contradiction::describe_point(y as i32, x as i32)
    }

    /// A contradiction of kind `why` at lattice index `i`.
    #[cold]
    #[inline(never)]
    pub fn contradiction(&self, why: Why, i: usize) -> Contradiction {
        let (y, x) = self.point(i);
        if let Why::Conflict {
            was: OFF,
            asked: LINE,
        } = why
        {
            // A line asked outside the grid (a rule's conclusion reaching over the border):
            // named by the grid's dot nearest to it, where the loop would have to leave.
            let on_grid = |v: isize, side: usize| (v.clamp(0, 2 * side as isize) & !1) as i32;
            return Contradiction::new(
                Why::LeavesGrid,
                on_grid(y, self.rows),
                on_grid(x, self.cols),
            );
        }
        Contradiction::new(why, y as i32, x as i32)
    }

    /// The one function that decides an edge: keeps every count, records the reason, and reports contradictions.
    ///
    /// Returns `Ok(true)` when the edge changed, `Ok(false)` when it already had that state
    /// (or is off-grid and a cross is asked). An edge already decided the other way is refused
    /// without any write; otherwise the write is complete (trail entry included) even when a
    /// contradiction is reported, so that [`Board::undo_to`] takes it back.
    ///
    #[inline]
    pub fn set_edge(&mut self, i: usize, state: u8, reason: Reason) -> Result<bool, Contradiction> {
        if i & 1 == 1 {
            self.set_edge_along(i, state, reason, true)
        } else {
            self.set_edge_along(i, state, reason, false)
        }
    }

    /// [`Board::set_edge`] for a caller that knows the edge's direction (`horizontal`: the
    /// index is odd). Inlined where `horizontal` is a constant, every step size and slot
    /// number of the write is one too: the rule tables' writers know the direction of each
    /// of their four slots.
    #[inline(always)]
    pub fn set_edge_along(
        &mut self,
        i: usize,
        state: u8,
        reason: Reason,
        horizontal: bool,
    ) -> Result<bool, Contradiction> {
        let outcome = if self.colouring.is_some() {
            self.write_along::<true>(i, state, reason, horizontal)
        } else {
            self.write_along::<false>(i, state, reason, horizontal)
        };
        match outcome {
            Outcome::CHANGED => Ok(true),
            Outcome::KEPT => Ok(false),
            outcome => Err(self.contradiction_of(outcome)),
        }
    }

    /// [`Board::set_edge_along`] with its outcome as a plain number, for the engine's
    /// hottest path: nothing is built on the way (a `Result` carrying a [`Contradiction`] is
    /// laid out in memory and read back); [`Board::contradiction_of`] builds the
    /// contradiction when there is one. `COLOURED` says whether the board has its colouring
    /// switched on (a caller writing several edges asks once): without it, the write calls
    /// nothing that could move the board's arrays, so fewer of its fields are read again
    /// between writes. A caller that says otherwise is a bug, and the write panics.
    #[inline(always)]
    pub fn write_along<const COLOURED: bool>(
        &mut self,
        i: usize,
        state: u8,
        reason: Reason,
        horizontal: bool,
    ) -> Outcome {
        if COLOURED != self.colouring.is_some() {
            colouring_not_said();
        }
        debug_assert_eq!(i & 1 == 1, horizontal);
        let cur = self.codes[i];
        if cur != UNKNOWN {
            return refused(i, state, cur);
        }
        debug_assert!(state == LINE || state == CROSS);
        self.trail[self.decided] = i as u32;
        self.decided += 1;
        if self.tracking.reasons {
            self.reasons[self.decided - 1] = reason.pack();
        }
        let layout = self.layout();
        let problem = write::write_edge(
            &mut self.codes,
            &mut self.words,
            &mut self.counts,
            &mut self.closures,
            layout,
            write::Write {
                edge: i,
                state,
                horizontal,
            },
        );
        if COLOURED && let Some(colouring) = self.colouring.as_deref_mut() {
            let across = if horizontal { self.stride } else { 1 };
            if !colouring.relate([i - across, i + across], state == LINE, self.decided)
                && problem == 0
            {
                return Outcome(problem_at(COLOUR_CLASH, i));
            }
        }
        Outcome(problem)
    }

    /// The contradiction an [`Outcome`] other than [`Outcome::CHANGED`] and
    /// [`Outcome::KEPT`] names.
    #[cold]
    #[inline(never)]
    pub fn contradiction_of(&self, outcome: Outcome) -> Contradiction {
        let problem = outcome.0;
        let at = (problem & 0xFFFF_FFFF_FFFF) as usize;
        let clue = || self.codes[at].trailing_zeros() as u8 - 4;
        let kind = problem >> 48;
        let why = match kind & 0xFF {
            k if k & u64::from(EXCEEDED) != 0 => Why::ClueExceeded(clue()),
            k if k & u64::from(UNREACHABLE) != 0 => Why::ClueUnreachable(clue()),
            k if k & u64::from(THREE_LINES << 2) != 0 => Why::ThreeLines,
            k if k & u64::from(DEAD_END << 2) != 0 => Why::DeadEnd,
            k if k == EARLY_LOOP => Why::EarlyLoop,
            k if k == COLOUR_CLASH => Why::ColourClash,
            _ => Why::Conflict {
                was: (kind >> 8) as u8 & 15,
                asked: (kind >> 12) as u8 & 15,
            },
        };
        self.contradiction(why, at)
    }

    /// What the write path needs to know of the board besides its arrays.
    #[inline(always)]
    fn layout(&self) -> write::Layout {
        write::Layout {
            stride: self.stride,
            exits: self.exits,
            closures: self.tracking.closures,
        }
    }

    /// Takes back every edge decided after the first `len` trail entries, newest first, with
    /// every count, word, chain end and colouring relation they brought; queued loop-closure
    /// candidates are dropped (marks are taken at fixpoints, where none are queued), deferred
    /// ones kept (the deducer checks them afresh).
    pub fn undo_to(&mut self, len: usize) {
        while self.decided > len {
            self.decided -= 1;
            let i = self.trail[self.decided] as usize;
            if self.codes[i] == LINE {
                let [a, b] = self.edge_dots(i);
                if self.dot_lines(a) <= 2 && self.dot_lines(b) <= 2 {
                    self.unlink(a, b);
                }
                self.counts.line_count -= 1;
                self.counts.ends = self.counts.ends.wrapping_add_signed(
                    -ends_step(DOT_STATUS[usize::from(self.codes[a])])
                        - ends_step(DOT_STATUS[usize::from(self.codes[b])]),
                );
                for c in self.edge_cells(i) {
                    if let Some(clue) = clue_of(self.codes[c]) {
                        let lines = self.cell_lines(c);
                        if lines == clue {
                            self.counts.unsatisfied += 1;
                        } else if lines == clue + 1 {
                            self.counts.unsatisfied -= 1;
                        }
                    }
                }
            }
            self.codes[i] = UNKNOWN;
            let layout = self.layout();
            write::write_slots::<false>(&mut self.codes, &mut self.words, layout, i, 0, i & 1 == 1);
        }
        self.closures.clear();
        while self.notes.last().is_some_and(|n| n.at as usize >= len) {
            self.notes.pop();
        }
        // A cell placed at trail length `len` stays, as its colour relation does.
        while self.sides.last().is_some_and(|n| n.at as usize > len) {
            self.sides.pop();
        }
        if let Some(colouring) = self.colouring.as_deref_mut() {
            if colouring.started_at() > len {
                self.colouring = None;
            } else {
                colouring.undo_to(len);
            }
        }
        #[cfg(debug_assertions)]
        if self.codes.len() <= 4096
            && let Err(e) = self.recount()
        {
            panic!("board drifted after undo: {e}");
        }
    }

    /// Checks every cached count, word, chain end and the trail against the edge states; says
    /// what drifted. Tests call it after undoing; debug builds after every undo on small boards.
    pub fn recount(&self) -> Result<(), String> {
        let mut unknown = 0;
        let mut decided = 0;
        let mut lines = 0;
        for e in self.grid_edges() {
            match self.codes[e] {
                UNKNOWN => unknown += 1,
                LINE => {
                    lines += 1;
                    decided += 1;
                }
                CROSS => decided += 1,
                other => return Err(format!("{} holds code {other}", self.describe(e))),
            }
        }
        if unknown != self.unknown() {
            return Err(format!(
                "{} unknown edges counted as {}",
                unknown,
                self.unknown()
            ));
        }
        if lines != self.counts.line_count {
            return Err(format!(
                "{lines} lines counted as {}",
                self.counts.line_count
            ));
        }
        if decided != self.decided {
            return Err(format!(
                "{decided} decided edges but {} on the trail",
                self.decided
            ));
        }
        let mut on_trail = vec![false; self.codes.len()];
        for &t in self.trail() {
            let t = t as usize;
            if on_trail[t] || self.codes[t] == UNKNOWN {
                return Err(format!("{} is on the trail wrongly", self.describe(t)));
            }
            on_trail[t] = true;
        }
        if self.tracking.reasons && self.reasons.len() < self.decided {
            return Err("reasons and trail differ in length".into());
        }
        let mut unsatisfied = 0;
        for c in self.grid_cells() {
            let kept = if self.exits { SLOTS } else { 0xFF };
            if (self.words[c >> 1] ^ self.cell_word(c)) & kept != 0 {
                return Err(format!("{} has a stale slot word", self.describe(c)));
            }
            if self.words[c >> 1] >> CODE_SHIFT != u32::from(self.codes[c]) {
                return Err(format!(
                    "{} has a wrong clue code in its word",
                    self.describe(c)
                ));
            }
            let l = self
                .dot_edges(c)
                .iter()
                .filter(|&&e| self.codes[e] == LINE)
                .count() as u8;
            if clue_of(self.codes[c]).is_some_and(|clue| clue != l) {
                unsatisfied += 1;
            }
        }
        if unsatisfied != self.counts.unsatisfied {
            return Err(format!(
                "{unsatisfied} unsatisfied clues counted as {}",
                self.counts.unsatisfied
            ));
        }
        let (ends, loops) = self.count_ends_and_loops();
        if (ends, loops) != (self.counts.ends, self.counts.loops) {
            return Err(format!(
                "{ends} chain ends and {loops} loops counted as {} and {}",
                self.counts.ends, self.counts.loops
            ));
        }
        for r in 0..=self.rows as isize {
            for c in 0..=self.cols as isize {
                let d = self.index(2 * r, 2 * c);
                if self.codes[d] != self.dot_word_of(d) {
                    return Err(format!("{} has a stale word", self.describe(d)));
                }
                if self.dot_lines(d) == 1 {
                    let end = self.walk_chain(d, |_| {});
                    if end != self.chain_end(d) {
                        return Err(format!(
                            "the chain from {} ends at {}, recorded as {}",
                            self.describe(d),
                            self.describe(end),
                            self.describe(self.chain_end(d))
                        ));
                    }
                }
            }
        }
        if let Some(colouring) = &self.colouring {
            colouring.check(self)?;
        }
        Ok(())
    }

    /// Dots with one line, and closed loops of lines, counted afresh over the grid (for
    /// [`Board::recount`]): every chain is walked from its ends first, so that the dots with
    /// two lines left unvisited lie on loops.
    fn count_ends_and_loops(&self) -> (usize, usize) {
        let mut visited = vec![false; self.codes.len()];
        let dots: Vec<usize> = (0..=self.rows as isize)
            .flat_map(|r| (0..=self.cols as isize).map(move |c| (r, c)))
            .map(|(r, c)| self.index(2 * r, 2 * c))
            .collect();
        let mut ends = 0;
        for &d in &dots {
            if self.dot_lines(d) == 1 {
                ends += 1;
                self.walk_chain(d, |dot| visited[dot] = true);
            }
        }
        let mut loops = 0;
        for &d in &dots {
            if self.dot_lines(d) == 2 && !visited[d] {
                loops += 1;
                self.walk_chain(d, |dot| visited[dot] = true);
            }
        }
        (ends, loops)
    }

    /// The colouring, once switched on.
    pub fn colouring(&self) -> Option<&Colouring> {
        self.colouring.as_deref()
    }

    /// The colouring and the board's edge states, for the colouring deducer.
    pub fn colouring_mut(&mut self) -> Option<&mut Colouring> {
        self.colouring.as_deref_mut()
    }

    /// Switches colouring on: relates the cells across every decided edge and every off-grid
    /// cell to the outside, and queues every cell for the deducer. A clash means the board
    /// has no solution.
    pub fn start_colouring(&mut self) -> Result<(), Contradiction> {
        let mut colouring = Box::new(Colouring::new(self));
        let len = self.decided;
        for &e in self.trail() {
            let e = e as usize;
            if !colouring.relate(self.edge_cells(e), self.codes[e] == LINE, len) {
                return Err(self.contradiction(Why::ColourClash, e));
            }
        }
        colouring.queue_all(self);
        self.colouring = Some(colouring);
        Ok(())
    }

    /// Queues every cell for the colouring deducer's rules (when colouring is on), so that
    /// rules that came on later look at the whole board once.
    pub fn queue_every_cell(&mut self) {
        if let Some(mut colouring) = self.colouring.take() {
            colouring.queue_all(self);
            self.colouring = Some(colouring);
        }
    }

    /// Relates two cells (lattice indices) as on the same side of the loop or on different
    /// sides; false on a clash.
    pub fn relate_cells(&mut self, a: usize, b: usize, differ: bool) -> bool {
        let len = self.decided;
        match self.colouring.as_deref_mut() {
            Some(colouring) => colouring.relate([a, b], differ, len),
            None => true,
        }
    }
}

#[cfg(test)]
mod tests;
