//! Chain ends: for every dot that ends a chain of lines, the chain's other end, kept in step by `set_edge` and `undo_to` without a log.
//!
//! A dot with one line ends a chain; its word (`words[dot / 2]`) holds the lattice index of the
//! chain's other end (its *mate*). Adding a line between dots `a` and `b` (each with at most
//! one line before) joins the chain ending at `a` (other end `ea`, or `a` itself when `a` was
//! bare) to the one ending at `b`: only `mate[ea]` and `mate[eb]` are written. `a` and `b`
//! become inner dots (or new ends when bare), and an inner dot's record is never written
//! again until the line is taken back, so its stale mate still names `ea`: undoing the line
//! reads it back and restores both chains. When `ea == b` the line closes a loop, which is
//! fine only when it is the whole answer; nothing is written then, and undo sees the same
//! test hold (`mate[a] == b`, both with one line before) and writes nothing either. A line
//! that gives a dot a third line is a contradiction and skips the chains both ways.
//!
//! This is the union-find of loop closure made undoable at no cost: no history, no path
//! compression to roll back, O(1) per line both ways. Lengths are not kept: the question "is
//! this loop (or chain) every line there is?" is answered by two counts the writes keep, the
//! chain ends (dots with one line) and the closed loops (none, or one while its closing line
//! stands), with no walk.

use super::{Board, UNKNOWN};

/// Per dot word (2 bits per edge N, E, S, W; `01` a line) and the edge a walk came in by
/// (0-3; 4: none): the first line out of the dot other than that one, 4 if there is none.
pub(crate) static NEXT_LINE: [[u8; 5]; 256] = {
    let mut t = [[4u8; 5]; 256];
    let mut w = 0;
    while w < 256 {
        let mut from = 0;
        while from < 5 {
            let mut k = 0;
            while k < 4 {
                if (w >> (2 * k)) & 3 == 1 && k != from {
                    t[w][from] = k as u8;
                    break;
                }
                k += 1;
            }
            from += 1;
        }
        w += 1;
    }
    t
};

/// The bit [`Board::take_closures`] marks a deferred edge with (lattice indices stay far
/// below it: a board holds at most a few hundred million points).
pub(crate) const DEFERRED: u32 = 1 << 31;

impl Board {
    /// The other end of the chain of lines that ends at `dot` (a dot with one line).
    #[inline]
    pub fn chain_end(&self, dot: usize) -> usize {
        self.words[dot >> 1] as usize
    }

    /// Takes back `write::link` for the line between `a` and `b`, which is being undone
    /// (each still counts it).
    #[inline]
    pub(super) fn unlink(&mut self, a: usize, b: usize) {
        let bare_a = self.dot_lines(a) == 1;
        let bare_b = self.dot_lines(b) == 1;
        if !bare_a && !bare_b && self.chain_end(a) == b {
            // The line had closed a loop: nothing was written but the count of loops.
            self.counts.loops -= 1;
            return;
        }
        let ea = if bare_a { a } else { self.chain_end(a) };
        let eb = if bare_b { b } else { self.chain_end(b) };
        self.words[ea >> 1] = a as u32;
        self.words[a >> 1] = ea as u32;
        self.words[eb >> 1] = b as u32;
        self.words[b >> 1] = eb as u32;
    }

    /// Walks a chain from `end` (a dot with one line, or any dot of a closed loop) to its
    /// other end (back to `end` for a loop), showing `visit` every dot it leaves; returns that
    /// end. Each step reads the dot's word once: [`NEXT_LINE`] gives the way out. (Only
    /// [`Board::recount`] walks chains: the writes keep what solving needs to know.)
    pub(super) fn walk_chain(&self, end: usize, mut visit: impl FnMut(usize)) -> usize {
        let steps = [
            self.stride.wrapping_neg(),
            1,
            self.stride,
            1usize.wrapping_neg(),
        ];
        let (mut dot, mut from, mut walked) = (end, 4, 0);
        loop {
            let k = NEXT_LINE[usize::from(self.codes[dot])][from];
            if k == 4 {
                break;
            }
            visit(dot);
            walked += 1;
            dot = dot.wrapping_add(steps[usize::from(k)].wrapping_mul(2));
            from = usize::from(k ^ 2);
            if dot == end || walked > self.counts.line_count {
                break;
            }
        }
        dot
    }

    /// Whether loop-closure candidates are queued or deferred.
    #[inline]
    pub fn has_closures(&self) -> bool {
        !self.closures.is_empty() || !self.deferred.is_empty()
    }

    /// Queued edges that joined the two ends of one chain when they were queued, or whose line
    /// closed the loop as the whole answer, and the deferred ones (marked with
    /// `DEFERRED`), drained by the loop-closure deducer.
    pub fn take_closures(&mut self, into: &mut Vec<u32>) {
        into.clear();
        into.append(&mut self.closures);
        into.extend(self.deferred.drain(..).map(|e| e | DEFERRED));
    }

    /// Keeps an edge that joins the two ends of the only chain, where a line would finish the
    /// answer now, for the deducer to look at again: a line off the chain, found later, makes
    /// it a cross. (Dropping it made deduction depend on the order edges were found in: a set
    /// with more rules could finish fewer puzzles.)
    pub fn defer_closure(&mut self, edge: usize) {
        if !self.deferred.contains(&(edge as u32)) {
            self.deferred.push(edge as u32);
        }
    }

    /// How many dots end a chain of lines (have exactly one line).
    #[inline]
    pub fn ends_count(&self) -> usize {
        self.counts.ends
    }

    /// Whether the unknown edge `edge` joins the two ends of one chain.
    #[inline]
    pub fn joins_chain_ends(&self, edge: usize) -> bool {
        let [a, b] = self.edge_dots(edge);
        self.codes[edge] == UNKNOWN
            && self.dot_lines(a) == 1
            && self.dot_lines(b) == 1
            && self.chain_end(a) == b
    }

    /// Whether a line at `edge` (unknown, joining the two ends of one chain) would finish the
    /// puzzle: every clue met and no line off that chain.
    pub fn closing_finishes(&self, edge: usize) -> bool {
        let mut unsatisfied = self.counts.unsatisfied as isize;
        for c in self.edge_cells(edge) {
            if let Some(clue) = super::clue_of(self.codes[c]) {
                let n = self.cell_lines(c);
                if n + 1 == clue {
                    unsatisfied -= 1;
                } else if n == clue {
                    unsatisfied += 1;
                }
            }
        }
        // No line off the chain: its two ends are the only ones, and no loop is closed.
        unsatisfied == 0 && self.counts.ends == 2 && self.counts.loops == 0
    }
}
