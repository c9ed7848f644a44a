//! The board: edge states and clues on a padded doubled lattice, the running counts, and the one function that writes an edge.
//!
//! The lattice of [`crate::geometry`] is stored row-major with a margin of off-grid points around
//! it, so that a rule anchored near the border reads off-grid edges (state [`OFF`], which a
//! premise cross matches) without bounds checks. The stride is even, so an edge's index parity
//! tells its direction: odd indices are horizontal edges, even ones vertical.

use crate::geometry::CELL_SLOTS;
use crate::loops::{LineAdded, LoopTracker};
use crate::puzzle::Puzzle;
use std::fmt;

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
    /// A guess made by search.
    Guess,
    /// Given before solving started (an example board's lines and crosses).
    Given,
}

impl Reason {
    const LOOP_CLOSURE: u32 = u32::MAX;
    const GUESS: u32 = u32::MAX - 1;
    const GIVEN: u32 = u32::MAX - 2;

    /// Packs the reason into 8 bytes for the trail: the variant (or a kind) and the anchor.
    #[inline]
    fn pack(self) -> u64 {
        let (kind, anchor) = match self {
            Reason::Rule { variant, anchor } => (variant, anchor),
            Reason::LoopClosure => (Self::LOOP_CLOSURE, 0),
            Reason::Guess => (Self::GUESS, 0),
            Reason::Given => (Self::GIVEN, 0),
        };
        (u64::from(kind) << 32) | u64::from(anchor)
    }

    /// The reason packed by [`Reason::pack`].
    fn unpack(packed: u64) -> Reason {
        match (packed >> 32) as u32 {
            Self::LOOP_CLOSURE => Reason::LoopClosure,
            Self::GUESS => Reason::Guess,
            Self::GIVEN => Reason::Given,
            variant => Reason::Rule {
                variant,
                anchor: packed as u32,
            },
        }
    }
}

/// Why the board cannot be completed.
///
/// Boxed so that the `Result`s of the hot paths stay one word wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    #[allow(clippy::box_collection)]
    // a thin pointer keeps `Result<(), Contradiction>` one word wide
    message: Box<String>,
}

impl Contradiction {
    /// A contradiction described by `message` (what went wrong, with the place in grid coordinates).
    pub fn new(message: String) -> Contradiction {
        Contradiction {
            message: Box::new(message),
        }
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
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
    /// A cell's 12 slots (sides, then corner exits), 2 bits each.
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
    /// Every edge decided, in order: the work queue of the engine and the log for undo.
    trail: Vec<u32>,
    /// The reason of each trail entry, packed (see [`Reason::pack`]).
    reasons: Vec<u64>,
    unknown: usize,
    unsatisfied: usize,
    line_count: usize,
    loops: Option<LoopTracker>,
    pending_closures: Vec<u32>,
}

impl Board {
    /// Lays out a puzzle with `margin` (rounded up to even) off-grid lattice points on every side.
    pub fn new(puzzle: &Puzzle, margin: usize, loop_closure: bool) -> Board {
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
        let mut board = Board {
            points,
            slot_watch,
            rows,
            cols,
            margin,
            stride,
            trail: Vec::new(),
            reasons: Vec::new(),
            unknown: (rows + 1) * cols + rows * (cols + 1),
            unsatisfied,
            line_count: 0,
            loops: loop_closure.then(|| LoopTracker::new(rows, cols)),
            pending_closures: Vec::new(),
        };
        board.trail.reserve(board.unknown);
        board.reasons.reserve(board.unknown);
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

    /// Recomputes a dot's cross count and word from the grid.
    fn refresh_dot(&mut self, d: usize) {
        let mut word = 0u8;
        let mut crosses = 0;
        for (k, e) in [d - self.stride, d + 1, d + self.stride, d - 1]
            .into_iter()
            .enumerate()
        {
            let bits = slot_bits(self.points[e].code) as u8;
            word |= bits << (2 * k);
            crosses += u8::from(bits == 2);
        }
        self.points[d].dot_word = word;
        self.points[d].crosses = crosses;
    }

    /// Recomputes a cell's word from the grid.
    fn refresh_cell(&mut self, c: usize) {
        let stride = self.stride as isize;
        let mut word = 0u32;
        for (k, &p) in CELL_SLOTS.iter().enumerate() {
            word |= slot_bits(
                self.points[c.wrapping_add_signed(p.y as isize * stride + p.x as isize)].code,
            ) << (2 * k);
        }
        self.points[c].word = word;
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
        let code = self.points[self.index(2 * r as isize + 1, 2 * c as isize + 1)].code;
        (code != 0).then(|| code.trailing_zeros() as u8 - 4)
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

    /// The cells whose slots hold the edge at `i`: (index difference to the cell, slot bits).
    #[must_use]
    #[inline]
    pub fn slot_watch(&self, i: usize) -> [(isize, u32); 6] {
        self.slot_watch[i & 1]
    }

    /// Lines at the dot or cell of a lattice index.
    pub fn lines_at(&self, i: usize) -> u8 {
        self.points[i].lines
    }

    /// Grid edges still unknown.
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
    pub fn trail(&self) -> &[u32] {
        &self.trail
    }

    /// Why each trail entry was decided, in trail order.
    pub fn reasons(&self) -> impl ExactSizeIterator<Item = Reason> + '_ {
        self.reasons.iter().map(|&packed| Reason::unpack(packed))
    }

    /// Candidate edges queued by the loop tracker for the loop-closure deducer, drained by the caller.
    pub fn take_pending_closures(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.pending_closures)
    }

    /// The loop tracker, when loop closure is on.
    pub fn loops(&self) -> Option<&LoopTracker> {
        self.loops.as_ref()
    }

    /// Human-readable place of a lattice index, for messages.
    pub fn describe(&self, i: usize) -> String {
        let (y, x) = self.point(i);
        match (y.rem_euclid(2), x.rem_euclid(2)) {
            (0, 1) => format!(
                "the horizontal edge right of dot ({}, {})",
                y / 2,
                (x - 1) / 2
            ),
            (1, 0) => format!("the vertical edge below dot ({}, {})", (y - 1) / 2, x / 2),
            (1, 1) => format!("cell ({}, {})", (y - 1) / 2, (x - 1) / 2),
            _ => format!("dot ({}, {})", y / 2, x / 2),
        }
    }

    /// The one function that decides an edge: keeps every count, records the reason, and reports contradictions.
    ///
    /// Returns `Ok(true)` when the edge changed, `Ok(false)` when it already had that state
    /// (or is off-grid and a cross is asked).
    #[inline]
    pub fn set_edge(&mut self, i: usize, state: u8, reason: Reason) -> Result<bool, Contradiction> {
        let cur = self.points[i].code;
        if cur == state || (cur == OFF && state == CROSS) {
            return Ok(false);
        }
        if cur != UNKNOWN {
            return Err(self.conflict(i, state, cur));
        }
        self.points[i].code = state;
        self.unknown -= 1;
        self.trail.push(i as u32);
        self.reasons.push(reason.pack());
        let bits = if state == LINE {
            0x5555_5555
        } else {
            0xAAAA_AAAA
        };
        for &(off, slot) in &self.slot_watch[i & 1] {
            self.points[i.wrapping_add_signed(off)].word |= slot & bits;
        }
        // The edge is slot E (1) of its first dot and W (3) of its second when horizontal,
        // S (2) and N (0) when vertical.
        let (dots, cells, slots) = if i & 1 == 1 {
            (
                [i - 1, i + 1],
                [i - self.stride, i + self.stride],
                [2u32, 6],
            )
        } else {
            (
                [i - self.stride, i + self.stride],
                [i - 1, i + 1],
                [4u32, 0],
            )
        };
        let dot_bits = bits as u8 & 3;
        self.points[dots[0]].dot_word |= dot_bits << slots[0];
        self.points[dots[1]].dot_word |= dot_bits << slots[1];
        if state == LINE {
            self.line_count += 1;
            for d in dots {
                self.points[d].lines += 1;
                if self.points[d].lines > 2 {
                    return Err(self.too_many_lines(d));
                }
                if self.points[d].lines == 1 && self.points[d].crosses == 3 {
                    return Err(self.dead_end(d));
                }
            }
            for c in cells {
                self.points[c].lines += 1;
                let code = self.points[c].code;
                if code != 0 {
                    let clue = code.trailing_zeros() as u8 - 4;
                    let n = self.points[c].lines;
                    if n == clue {
                        self.unsatisfied -= 1;
                    } else if n == clue + 1 {
                        self.unsatisfied += 1;
                        return Err(self.clue_exceeded(c, clue));
                    }
                }
            }
            if self.loops.is_some() {
                self.track_line(dots[0], dots[1])?;
            }
        } else {
            for d in dots {
                self.points[d].crosses += 1;
                if self.points[d].crosses == 3 && self.points[d].lines == 1 {
                    return Err(self.dead_end(d));
                }
            }
            for c in cells {
                self.points[c].crosses += 1;
                let code = self.points[c].code;
                if code != 0 && self.points[c].crosses > 4 - (code.trailing_zeros() as u8 - 4) {
                    return Err(self.clue_unreachable(c));
                }
            }
        }
        Ok(true)
    }

    #[cold]
    #[inline(never)]
    fn too_many_lines(&self, d: usize) -> Contradiction {
        self.fail(format!("{} would have three lines", self.describe(d)))
    }

    #[cold]
    #[inline(never)]
    fn clue_exceeded(&self, c: usize, clue: u8) -> Contradiction {
        let lines = if clue == 1 { "line" } else { "lines" };
        self.fail(format!(
            "{} would have more than {clue} {lines}",
            self.describe(c)
        ))
    }

    #[cold]
    #[inline(never)]
    fn dead_end(&self, d: usize) -> Contradiction {
        self.fail(format!("the loop would end at {}", self.describe(d)))
    }

    #[cold]
    #[inline(never)]
    fn clue_unreachable(&self, c: usize) -> Contradiction {
        let code = self.points[c].code;
        let clue = code.trailing_zeros() as u8 - 4;
        let lines = if clue == 1 { "line" } else { "lines" };
        self.fail(format!(
            "{} could no longer have {clue} {lines}",
            self.describe(c)
        ))
    }

    fn track_line(&mut self, a: usize, b: usize) -> Result<(), Contradiction> {
        let da = self.dot_number(a);
        let db = self.dot_number(b);
        let tracker = self.loops.as_mut().expect("checked by the caller");
        match tracker.add_line(da, db) {
            LineAdded::Extended(x, y) => {
                let (px, py) = (self.dot_index(x), self.dot_index(y));
                let diff = px.abs_diff(py);
                if (diff == 2 || diff == 2 * self.stride)
                    && self.points[px.min(py) + diff / 2].code == UNKNOWN
                {
                    self.pending_closures.push((px.min(py) + diff / 2) as u32);
                }
                Ok(())
            }
            LineAdded::ClosedLoop => {
                // The line closed a loop: fine only when it is the whole answer.
                if self.unsatisfied == 0 && tracker.lines_in_chain_of(da) == self.line_count {
                    Ok(())
                } else {
                    Err(self.fail(format!(
                        "a loop would close at {} before the puzzle is done",
                        self.describe(a)
                    )))
                }
            }
        }
    }

    /// Dot number (row-major over the (R+1) x (C+1) dots) of a dot's lattice index.
    pub fn dot_number(&self, i: usize) -> usize {
        let y = i / self.stride - self.margin;
        let x = i % self.stride - self.margin;
        (y / 2) * (self.cols + 1) + x / 2
    }

    /// Lattice index of a dot number.
    pub fn dot_index(&self, n: usize) -> usize {
        let (r, c) = (n / (self.cols + 1), n % (self.cols + 1));
        (2 * r + self.margin) * self.stride + 2 * c + self.margin
    }

    /// Whether adding a line at `edge` (unknown, joining the two ends of one chain) would finish the puzzle.
    pub fn closing_finishes(&self, edge: usize) -> bool {
        let Some(tracker) = &self.loops else {
            return false;
        };
        let dots = if edge & 1 == 1 {
            [edge - 1, edge + 1]
        } else {
            [edge - self.stride, edge + self.stride]
        };
        if tracker.lines_in_chain_of(self.dot_number(dots[0])) != self.line_count {
            return false;
        }
        let cells = if edge & 1 == 1 {
            [edge - self.stride, edge + self.stride]
        } else {
            [edge - 1, edge + 1]
        };
        let mut unsatisfied = self.unsatisfied as isize;
        for c in cells {
            let code = self.points[c].code;
            if code != 0 {
                let clue = code.trailing_zeros() as u8 - 4;
                if self.points[c].lines + 1 == clue {
                    unsatisfied -= 1;
                } else if self.points[c].lines == clue {
                    unsatisfied += 1;
                }
            }
        }
        unsatisfied == 0
    }

    /// Whether the edge at `edge` still joins the two ends of one chain.
    pub fn joins_chain_ends(&self, edge: usize) -> bool {
        let Some(tracker) = &self.loops else {
            return false;
        };
        let dots = if edge & 1 == 1 {
            [edge - 1, edge + 1]
        } else {
            [edge - self.stride, edge + self.stride]
        };
        self.points[edge].code == UNKNOWN
            && self.points[dots[0]].lines == 1
            && self.points[dots[1]].lines == 1
            && tracker.same_chain(self.dot_number(dots[0]), self.dot_number(dots[1]))
    }

    #[cold]
    #[inline(never)]
    fn conflict(&self, i: usize, state: u8, cur: u8) -> Contradiction {
        let name = |s: u8| match s {
            LINE => "a line",
            CROSS => "a cross",
            OFF => "outside the grid",
            _ => "unknown",
        };
        self.fail(format!(
            "{} is {} but {} is asked",
            self.describe(i),
            name(cur),
            name(state)
        ))
    }

    fn fail(&self, message: String) -> Contradiction {
        Contradiction::new(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str, loop_closure: bool) -> Board {
        let puzzle = crate::puzzle::parse_all("t", text.as_bytes())
            .unwrap()
            .remove(0);
        Board::new(&puzzle, 4, loop_closure)
    }

    /// Lattice index of the horizontal edge on dot row `r` right of dot `c`.
    fn h(b: &Board, r: isize, c: isize) -> usize {
        b.index(2 * r, 2 * c + 1)
    }

    /// Lattice index of the vertical edge on cell row `r` at dot column `c`.
    fn v(b: &Board, r: isize, c: isize) -> usize {
        b.index(2 * r + 1, 2 * c)
    }

    #[test]
    fn a_line_where_a_cross_stands_is_a_contradiction() {
        let mut b = board("2 2\n2 2\n2 2\n0 0\n", false);
        let e = h(&b, 0, 0);
        assert_eq!(b.set_edge(e, CROSS, Reason::Given), Ok(true));
        assert_eq!(b.set_edge(e, CROSS, Reason::Given), Ok(false));
        let err = b.set_edge(e, LINE, Reason::Given).unwrap_err();
        assert!(
            err.message().contains("is a cross but a line is asked"),
            "{err}"
        );
    }

    #[test]
    fn off_grid_edges_take_crosses_and_refuse_lines() {
        let mut b = board("2 2\n2 2\n2 2\n0 0\n", false);
        let outside = b.index(-1, 0);
        assert_eq!(b.set_edge(outside, CROSS, Reason::Given), Ok(false));
        assert!(b.set_edge(outside, LINE, Reason::Given).is_err());
    }

    #[test]
    fn a_dot_with_three_lines_is_a_contradiction() {
        let mut b = board("2 2\n. .\n. .\n0 0\n", false);
        // Dot (1, 1), the centre: lines west, east and north.
        b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap();
        b.set_edge(h(&b, 1, 1), LINE, Reason::Given).unwrap();
        let err = b.set_edge(v(&b, 0, 1), LINE, Reason::Given).unwrap_err();
        assert!(err.message().contains("three lines"), "{err}");
    }

    #[test]
    fn an_exceeded_or_unreachable_clue_is_a_contradiction() {
        let mut b = board("1 2\n1 .\n0 0\n", false);
        b.set_edge(h(&b, 0, 0), LINE, Reason::Given).unwrap();
        let err = b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap_err();
        assert!(err.message().contains("more than 1 line"), "{err}");

        let mut b = board("1 2\n3 .\n0 0\n", false);
        b.set_edge(h(&b, 0, 0), CROSS, Reason::Given).unwrap();
        let err = b.set_edge(v(&b, 0, 0), CROSS, Reason::Given).unwrap_err();
        assert!(
            err.message().contains("could no longer have 3 lines"),
            "{err}"
        );
    }

    #[test]
    fn a_loop_end_with_no_way_out_is_a_contradiction() {
        let mut b = board("2 2\n. .\n. .\n0 0\n", false);
        // Dot (1, 1): a line west, then crosses north, east and south.
        b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap();
        b.set_edge(v(&b, 0, 1), CROSS, Reason::Given).unwrap();
        b.set_edge(h(&b, 1, 1), CROSS, Reason::Given).unwrap();
        let err = b.set_edge(v(&b, 1, 1), CROSS, Reason::Given).unwrap_err();
        assert!(err.message().contains("the loop would end"), "{err}");
    }

    #[test]
    fn a_premature_loop_is_a_contradiction_and_the_whole_answer_is_not() {
        // Around the top-left cell of a 2x2 whose other cells need lines too.
        let mut b = board("2 2\n. 1\n1 2\n0 0\n", true);
        b.set_edge(h(&b, 0, 0), LINE, Reason::Given).unwrap();
        b.set_edge(v(&b, 0, 0), LINE, Reason::Given).unwrap();
        b.set_edge(v(&b, 0, 1), LINE, Reason::Given).unwrap();
        let err = b.set_edge(h(&b, 1, 0), LINE, Reason::Given).unwrap_err();
        assert!(err.message().contains("a loop would close"), "{err}");

        // The same loop is fine when it is the whole answer.
        let mut b = board("1 1\n.\n0 0\n", true);
        for e in [h(&b, 0, 0), v(&b, 0, 0), v(&b, 0, 1)] {
            b.set_edge(e, LINE, Reason::Given).unwrap();
        }
        assert_eq!(b.set_edge(h(&b, 1, 0), LINE, Reason::Given), Ok(true));
    }

    #[test]
    fn set_edge_keeps_counts_words_and_the_trail() {
        let mut b = board("2 2\n2 2\n2 2\n0 0\n", false);
        let top = h(&b, 0, 0);
        b.set_edge(top, LINE, Reason::Given).unwrap();
        let cell = b.index(1, 1);
        assert_eq!(b.lines_at(cell), 1);
        assert_eq!(b.word(cell) & 3, 1, "north side of the cell is a line");
        assert_eq!(b.trail(), &[top as u32]);
        assert_eq!(b.reasons().collect::<Vec<_>>(), [Reason::Given]);
        assert_eq!(b.unknown(), 11);
        assert_eq!(b.line_count(), 1);
    }
}
