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
pub mod contradiction;

use crate::colouring::Colouring;
use crate::geometry::CELL_SLOTS;
use crate::puzzle::Puzzle;
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

/// Why an edge was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A rule variant (index into the rule book) matched with its origin at this lattice index.
    Rule {
        /// Index of the variant in the rule book.
        variant: u32,
        /// Lattice index of the variant's origin.
        anchor: u32,
    },
    /// The loop-closure deducer.
    LoopClosure,
    /// The inside/outside colouring deducer.
    Colouring,
    /// Probing: one way of this edge (or of another) led to a contradiction, or both agreed.
    Probing,
    /// A guess made by search.
    Guess,
    /// Given before solving started (an example board's lines and crosses).
    Given,
}

impl Reason {
    const LOOP_CLOSURE: u32 = u32::MAX;
    const GUESS: u32 = u32::MAX - 1;
    const GIVEN: u32 = u32::MAX - 2;
    const COLOURING: u32 = u32::MAX - 3;
    const PROBING: u32 = u32::MAX - 4;

    /// Packs the reason into 8 bytes for the trail: the variant (or a kind) and the anchor.
    #[inline]
    fn pack(self) -> u64 {
        let (kind, anchor) = match self {
            Reason::Rule { variant, anchor } => (variant, anchor),
            Reason::LoopClosure => (Self::LOOP_CLOSURE, 0),
            Reason::Colouring => (Self::COLOURING, 0),
            Reason::Probing => (Self::PROBING, 0),
            Reason::Guess => (Self::GUESS, 0),
            Reason::Given => (Self::GIVEN, 0),
        };
        (u64::from(kind) << 32) | u64::from(anchor)
    }

    /// The reason packed by [`Reason::pack`].
    fn unpack(packed: u64) -> Reason {
        match (packed >> 32) as u32 {
            Self::LOOP_CLOSURE => Reason::LoopClosure,
            Self::COLOURING => Reason::Colouring,
            Self::PROBING => Reason::Probing,
            Self::GUESS => Reason::Guess,
            Self::GIVEN => Reason::Given,
            variant => Reason::Rule {
                variant,
                anchor: packed as u32,
            },
        }
    }
}

/// What a board keeps beyond what solving needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tracking {
    /// Queue the edges that join the two ends of one chain, for the loop-closure deducer.
    pub closures: bool,
    /// Record why each edge was decided (statistics, explanations).
    pub reasons: bool,
}

/// What the board keeps about one point of the lattice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
struct Point {
    /// Edge state ([`UNKNOWN`], [`LINE`], [`CROSS`], [`OFF`]) or cell clue code (`CLUE0 << n`, 0 for none).
    code: u8,
    /// Lines around a dot or cell.
    lines: u8,
    /// Crosses (off-grid edges included) around a dot or cell.
    crosses: u8,
    /// A dot's 4 edges (N, E, S, W), 2 bits each (see [`slot_bits`]).
    dot_word: u8,
    /// A cell's 12 slots (sides, then corner exits), 2 bits each. For a dot that ends a
    /// chain of lines: the lattice index of the chain's other end (see `chains`).
    word: u32,
}

/// A puzzle being solved.
#[derive(Clone)]
pub struct Board {
    rows: usize,
    cols: usize,
    margin: usize,
    stride: usize,
    /// Everything known about each lattice point, by lattice index: one record per point so
    /// that an edge's neighbourhood sits in few cache lines.
    points: Vec<Point>,
    /// The cells whose slots hold an edge, for horizontal (`[1]`) and vertical (`[0]`) edges:
    /// (index difference from the edge to the cell, the bits of the slot).
    slot_watch: [[(isize, u32); 6]; 2],
    /// Every edge decided, in order: the log that [`Board::undo_to`] takes back.
    trail: Vec<u32>,
    /// The reason of each trail entry, packed (see [`Reason::pack`]), when tracked.
    reasons: Vec<u64>,
    tracking: Tracking,
    unknown: usize,
    unsatisfied: usize,
    line_count: usize,
    /// Edges that joined the two ends of one chain when they were queued (loop closure).
    closures: Vec<u32>,
    /// Inside/outside colouring, once switched on.
    colouring: Option<Box<Colouring>>,
}

impl Board {
    /// Lays out a puzzle with `margin` (rounded up to even) off-grid lattice points on every side.
    pub fn new(puzzle: &Puzzle, margin: usize, tracking: Tracking) -> Board {
        let margin = margin.next_multiple_of(2).max(2);
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let stride = (2 * cols + 1 + 2 * margin).next_multiple_of(2);
        let height = 2 * rows + 1 + 2 * margin;
        // Every edge slot starts off-grid (dot rows: odd columns; cell rows: even columns) ...
        let off = Point {
            code: OFF,
            ..Point::default()
        };
        let pattern = |parity: usize| -> Vec<Point> {
            (0..stride)
                .map(|x| {
                    if x % 2 == parity {
                        off
                    } else {
                        Point::default()
                    }
                })
                .collect()
        };
        let (dot_row, cell_row) = (pattern(1), pattern(0));
        let mut points = Vec::with_capacity(stride * height);
        for y in 0..height {
            points.extend_from_slice(if y % 2 == 0 { &dot_row } else { &cell_row });
        }
        // ... then the grid's own edges become unknown and its cells get their clues.
        let mut unsatisfied = 0;
        for y in 0..=2 * rows {
            let base = (y + margin) * stride + margin;
            let row = &mut points[base..base + 2 * cols + 1];
            if y % 2 == 0 {
                for x in (1..2 * cols).step_by(2) {
                    row[x].code = UNKNOWN;
                }
            } else {
                let clues = &puzzle.clues[(y / 2) * cols..(y / 2 + 1) * cols];
                for (j, clue) in clues.iter().enumerate() {
                    row[2 * j].code = UNKNOWN;
                    if let Some(n) = *clue {
                        row[2 * j + 1].code = CLUE0 << n;
                        unsatisfied += usize::from(n != 0);
                    }
                }
                row[2 * cols].code = UNKNOWN;
            }
        }
        let flat = |p: crate::geometry::Pos| p.y as isize * stride as isize + p.x as isize;
        let mut slot_watch = [[(0isize, 0u32); 6]; 2];
        let mut filled = [0usize; 2];
        for (k, &p) in CELL_SLOTS.iter().enumerate() {
            let dir = (p.y & 1) as usize;
            slot_watch[dir][filled[dir]] = (-flat(p), 3 << (2 * k));
            filled[dir] += 1;
        }
        let edges = (rows + 1) * cols + rows * (cols + 1);
        let mut board = Board {
            points,
            slot_watch,
            rows,
            cols,
            margin,
            stride,
            trail: Vec::with_capacity(edges),
            reasons: Vec::with_capacity(if tracking.reasons { edges } else { 0 }),
            tracking,
            unknown: edges,
            unsatisfied,
            line_count: 0,
            closures: Vec::new(),
            colouring: None,
        };
        // Only the border ring sees off-grid edges: its dots count them as crosses, and its
        // cells and dots hold them in their words.
        let dot = |y: usize, x: usize| (2 * y + margin) * stride + 2 * x + margin;
        for x in 0..=cols {
            board.refresh_dot(dot(0, x));
            board.refresh_dot(dot(rows, x));
        }
        for y in 1..rows {
            board.refresh_dot(dot(y, 0));
            board.refresh_dot(dot(y, cols));
        }
        for x in 0..cols {
            board.refresh_cell(dot(0, x) + stride + 1);
            board.refresh_cell(dot(rows - 1, x) + stride + 1);
        }
        for y in 1..rows.saturating_sub(1) {
            board.refresh_cell(dot(y, 0) + stride + 1);
            board.refresh_cell(dot(y, cols - 1) + stride + 1);
        }
        board
    }

    /// The four edges of a dot (N, E, S, W) as lattice indices.
    #[inline]
    fn dot_edges(&self, d: usize) -> [usize; 4] {
        [d - self.stride, d + 1, d + self.stride, d - 1]
    }

    /// The word and cross count a dot has from its edges' states.
    fn dot_counts(&self, d: usize) -> (u8, u8, u8) {
        let (mut word, mut lines, mut crosses) = (0u8, 0, 0);
        for (k, e) in self.dot_edges(d).into_iter().enumerate() {
            let bits = slot_bits(self.points[e].code) as u8;
            word |= bits << (2 * k);
            lines += u8::from(bits == 1);
            crosses += u8::from(bits == 2);
        }
        (word, lines, crosses)
    }

    /// The word a cell has from its slots' states.
    fn cell_word(&self, c: usize) -> u32 {
        let stride = self.stride as isize;
        let mut word = 0u32;
        for (k, &p) in CELL_SLOTS.iter().enumerate() {
            word |= slot_bits(
                self.points[c.wrapping_add_signed(p.y as isize * stride + p.x as isize)].code,
            ) << (2 * k);
        }
        word
    }

    /// Recomputes a dot's cross count and word from the grid.
    fn refresh_dot(&mut self, d: usize) {
        let (word, _, crosses) = self.dot_counts(d);
        self.points[d].dot_word = word;
        self.points[d].crosses = crosses;
    }

    /// Recomputes a cell's word from the grid.
    fn refresh_cell(&mut self, c: usize) {
        self.points[c].word = self.cell_word(c);
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
        self.points.len()
    }

    /// Whether the board has no lattice points (never: even a 0x0 grid has its margin).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
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
        (0..=2 * self.rows as isize).flat_map(move |y| {
            let first = if y % 2 == 0 { 1 } else { 0 };
            (first..=2 * self.cols as isize)
                .step_by(2)
                .map(move |x| self.index(y, x))
        })
    }

    /// Every grid cell's lattice index, row by row.
    pub fn grid_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rows as isize).flat_map(move |r| {
            (0..self.cols as isize).map(move |c| self.index(2 * r + 1, 2 * c + 1))
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

    /// The state of the edge or the code of the cell at a lattice index.
    #[inline]
    pub fn at(&self, i: usize) -> u8 {
        self.points[i].code
    }

    /// Whether horizontal edge (dot row `r`, between dots `c` and `c+1`) is a line.
    pub fn h_line(&self, r: usize, c: usize) -> bool {
        self.points[self.index(2 * r as isize, 2 * c as isize + 1)].code == LINE
    }

    /// Whether vertical edge (cell row `r`, dot column `c`) is a line.
    pub fn v_line(&self, r: usize, c: usize) -> bool {
        self.points[self.index(2 * r as isize + 1, 2 * c as isize)].code == LINE
    }

    /// The clue of cell (r, c), `None` for a blank.
    pub fn clue(&self, r: usize, c: usize) -> Option<u8> {
        clue_of(self.points[self.index(2 * r as isize + 1, 2 * c as isize + 1)].code)
    }

    /// The 12 slots of the cell at a lattice index, 2 bits each (see [`slot_bits`]).
    #[inline]
    pub fn word(&self, cell: usize) -> u32 {
        self.points[cell].word
    }

    /// The 4 edges (N, E, S, W) of the dot at a lattice index, 2 bits each.
    #[inline]
    pub fn dot_word(&self, dot: usize) -> u8 {
        self.points[dot].dot_word
    }

    /// Lines at the dot or cell of a lattice index.
    #[inline]
    pub fn lines_at(&self, i: usize) -> u8 {
        self.points[i].lines
    }

    /// Crosses (off-grid edges included for dots) at the dot or cell of a lattice index.
    #[inline]
    pub fn crosses_at(&self, i: usize) -> u8 {
        self.points[i].crosses
    }

    /// Grid edges still unknown.
    #[inline]
    pub fn unknown(&self) -> usize {
        self.unknown
    }

    /// Edges on the loop so far.
    pub fn line_count(&self) -> usize {
        self.line_count
    }

    /// Clue cells whose line count differs from their clue.
    pub fn unsatisfied(&self) -> usize {
        self.unsatisfied
    }

    /// The decided edges in order (lattice indices).
    #[inline]
    pub fn trail(&self) -> &[u32] {
        &self.trail
    }

    /// Why each trail entry was decided, in trail order (empty unless reasons are tracked).
    pub fn reasons(&self) -> impl ExactSizeIterator<Item = Reason> + '_ {
        self.reasons.iter().map(|&packed| Reason::unpack(packed))
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
        Contradiction::new(why, y as i32, x as i32)
    }

    /// The one function that decides an edge: keeps every count, records the reason, and reports contradictions.
    ///
    /// Returns `Ok(true)` when the edge changed, `Ok(false)` when it already had that state
    /// (or is off-grid and a cross is asked). An edge already decided the other way is refused
    /// without any write; otherwise the write is complete (trail entry included) even when a
    /// contradiction is reported, so that [`Board::undo_to`] takes it back.
    #[inline]
    pub fn set_edge(&mut self, i: usize, state: u8, reason: Reason) -> Result<bool, Contradiction> {
        let cur = self.points[i].code;
        if cur == state || (cur == OFF && state == CROSS) {
            return Ok(false);
        }
        if cur != UNKNOWN {
            return Err(self.contradiction(
                Why::Conflict {
                    was: cur,
                    asked: state,
                },
                i,
            ));
        }
        self.points[i].code = state;
        self.unknown -= 1;
        self.trail.push(i as u32);
        if self.tracking.reasons {
            self.reasons.push(reason.pack());
        }
        let bits = if state == LINE {
            0x5555_5555
        } else {
            0xAAAA_AAAA
        };
        for &(off, slot) in &self.slot_watch[i & 1] {
            self.points[i.wrapping_add_signed(off)].word |= slot & bits;
        }
        let (dots, cells, shifts) = self.neighbourhood(i);
        let dot_bits = bits as u8 & 3;
        self.points[dots[0]].dot_word |= dot_bits << shifts[0];
        self.points[dots[1]].dot_word |= dot_bits << shifts[1];
        let problem = if state == LINE {
            self.count_line(dots, cells)
        } else {
            self.count_cross(dots, cells)
        };
        let clash = match self.colouring.as_deref_mut() {
            Some(colouring) => !colouring.relate(cells, state == LINE, self.trail.len()),
            None => false,
        };
        match problem {
            None if clash => Err(self.contradiction(Why::ColourClash, i)),
            None => Ok(true),
            Some((why, at)) => Err(self.contradiction(why, at)),
        }
    }

    /// An edge's two dots, two cells, and its shift in each dot's word.
    #[inline(always)]
    fn neighbourhood(&self, i: usize) -> ([usize; 2], [usize; 2], [u32; 2]) {
        // The edge is slot E (1) of its first dot and W (3) of its second when horizontal,
        // S (2) and N (0) when vertical.
        if i & 1 == 1 {
            ([i - 1, i + 1], [i - self.stride, i + self.stride], [2, 6])
        } else {
            ([i - self.stride, i + self.stride], [i - 1, i + 1], [4, 0])
        }
    }

    /// Counts a new line at its dots and cells, links the chains, and names the first problem.
    #[inline(always)]
    fn count_line(&mut self, dots: [usize; 2], cells: [usize; 2]) -> Option<(Why, usize)> {
        self.line_count += 1;
        let mut problem = None;
        for c in cells {
            let p = &mut self.points[c];
            p.lines += 1;
            if let Some(clue) = clue_of(p.code) {
                let n = p.lines;
                if n == clue {
                    self.unsatisfied -= 1;
                } else if n == clue + 1 {
                    self.unsatisfied += 1;
                    problem = problem.or(Some((Why::ClueExceeded(clue), c)));
                }
            }
        }
        for d in dots {
            let p = &mut self.points[d];
            p.lines += 1;
            if p.lines > 2 {
                problem = problem.or(Some((Why::ThreeLines, d)));
            } else if p.lines == 1 && p.crosses == 3 {
                problem = problem.or(Some((Why::DeadEnd, d)));
            }
        }
        if self.points[dots[0]].lines <= 2
            && self.points[dots[1]].lines <= 2
            && !self.link(dots[0], dots[1])
        {
            problem = problem.or(Some((Why::EarlyLoop, dots[0])));
        }
        problem
    }

    /// Counts a new cross at its dots and cells and names the first problem.
    #[inline(always)]
    fn count_cross(&mut self, dots: [usize; 2], cells: [usize; 2]) -> Option<(Why, usize)> {
        let mut problem = None;
        for d in dots {
            let p = &mut self.points[d];
            p.crosses += 1;
            if p.crosses == 3 && p.lines == 1 {
                problem = problem.or(Some((Why::DeadEnd, d)));
            }
        }
        for c in cells {
            let p = &mut self.points[c];
            p.crosses += 1;
            if let Some(clue) = clue_of(p.code)
                && p.crosses > 4 - clue
            {
                problem = problem.or(Some((Why::ClueUnreachable(clue), c)));
            }
        }
        problem
    }

    /// Takes back every edge decided after the first `len` trail entries, newest first, with
    /// every count, word, chain end and colouring relation they brought; queued loop-closure
    /// candidates are dropped (marks are taken at fixpoints, where none are queued).
    pub fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            let i = self.trail.pop().expect("longer than len") as usize;
            let state = self.points[i].code;
            self.points[i].code = UNKNOWN;
            self.unknown += 1;
            for &(off, slot) in &self.slot_watch[i & 1] {
                self.points[i.wrapping_add_signed(off)].word &= !slot;
            }
            let (dots, cells, shifts) = self.neighbourhood(i);
            self.points[dots[0]].dot_word &= !(3 << shifts[0]);
            self.points[dots[1]].dot_word &= !(3 << shifts[1]);
            if state == LINE {
                if self.points[dots[0]].lines <= 2 && self.points[dots[1]].lines <= 2 {
                    self.unlink(dots[0], dots[1]);
                }
                self.line_count -= 1;
                for d in dots {
                    self.points[d].lines -= 1;
                }
                for c in cells {
                    let p = &mut self.points[c];
                    if let Some(clue) = clue_of(p.code) {
                        if p.lines == clue {
                            self.unsatisfied += 1;
                        } else if p.lines == clue + 1 {
                            self.unsatisfied -= 1;
                        }
                    }
                    p.lines -= 1;
                }
            } else {
                for d in dots {
                    self.points[d].crosses -= 1;
                }
                for c in cells {
                    self.points[c].crosses -= 1;
                }
            }
        }
        if self.tracking.reasons {
            self.reasons.truncate(len);
        }
        self.closures.clear();
        if let Some(colouring) = self.colouring.as_deref_mut() {
            if colouring.started_at() > len {
                self.colouring = None;
            } else {
                colouring.undo_to(len);
            }
        }
        #[cfg(debug_assertions)]
        if self.points.len() <= 4096 {
            if let Err(e) = self.recount() {
                panic!("board drifted after undo: {e}");
            }
        }
    }

    /// Checks every cached count, word, chain end and the trail against the edge states; says
    /// what drifted. Tests call it after undoing; debug builds after every undo on small boards.
    pub fn recount(&self) -> Result<(), String> {
        let mut unknown = 0;
        let mut decided = 0;
        let mut lines = 0;
        for e in self.grid_edges() {
            match self.points[e].code {
                UNKNOWN => unknown += 1,
                LINE => {
                    lines += 1;
                    decided += 1;
                }
                CROSS => decided += 1,
                other => return Err(format!("{} holds code {other}", self.describe(e))),
            }
        }
        if unknown != self.unknown {
            return Err(format!(
                "{} unknown edges counted as {}",
                unknown, self.unknown
            ));
        }
        if lines != self.line_count {
            return Err(format!("{lines} lines counted as {}", self.line_count));
        }
        if decided != self.trail.len() {
            return Err(format!(
                "{decided} decided edges but {} on the trail",
                self.trail.len()
            ));
        }
        let mut on_trail = vec![false; self.points.len()];
        for &t in &self.trail {
            let t = t as usize;
            if on_trail[t] || self.points[t].code == UNKNOWN {
                return Err(format!("{} is on the trail wrongly", self.describe(t)));
            }
            on_trail[t] = true;
        }
        if self.tracking.reasons && self.reasons.len() != self.trail.len() {
            return Err("reasons and trail differ in length".into());
        }
        let mut unsatisfied = 0;
        for c in self.grid_cells() {
            let p = self.points[c];
            let (mut l, mut x) = (0, 0);
            for e in self.dot_edges(c) {
                l += u8::from(self.points[e].code == LINE);
                x += u8::from(self.points[e].code == CROSS);
            }
            if (l, x) != (p.lines, p.crosses) {
                return Err(format!(
                    "{} has {l} lines and {x} crosses, counted as {} and {}",
                    self.describe(c),
                    p.lines,
                    p.crosses
                ));
            }
            if p.word != self.cell_word(c) {
                return Err(format!("{} has a stale slot word", self.describe(c)));
            }
            if clue_of(p.code).is_some_and(|clue| clue != l) {
                unsatisfied += 1;
            }
        }
        if unsatisfied != self.unsatisfied {
            return Err(format!(
                "{unsatisfied} unsatisfied clues counted as {}",
                self.unsatisfied
            ));
        }
        for r in 0..=self.rows as isize {
            for c in 0..=self.cols as isize {
                let d = self.index(2 * r, 2 * c);
                let (word, l, x) = self.dot_counts(d);
                let p = self.points[d];
                if (word, l, x) != (p.dot_word, p.lines, p.crosses) {
                    return Err(format!("{} has stale counts", self.describe(d)));
                }
                if l == 1 {
                    let (end, _) = self.walk_chain(d);
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
        let len = self.trail.len();
        for &e in &self.trail {
            let e = e as usize;
            if !colouring.relate(self.edge_cells(e), self.points[e].code == LINE, len) {
                return Err(self.contradiction(Why::ColourClash, e));
            }
        }
        colouring.queue_all(self);
        self.colouring = Some(colouring);
        Ok(())
    }

    /// Relates two cells (lattice indices) as on the same side of the loop or on different
    /// sides; false on a clash.
    pub fn relate_cells(&mut self, a: usize, b: usize, differ: bool) -> bool {
        let len = self.trail.len();
        match self.colouring.as_deref_mut() {
            Some(colouring) => colouring.relate([a, b], differ, len),
            None => true,
        }
    }
}

#[cfg(test)]
mod tests;
