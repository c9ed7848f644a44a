//! The write path: one edge's new state put into the words that hold it, with the counts and chains it changes, over the board's parts passed apart.
//!
//! Every function here takes the board's arrays and counts as separate references rather
//! than `&mut Board`: then the compiler knows that a store into one cannot change another
//! (nor the board's lengths and stride), and reads each array's place and length once per
//! write instead of after every store. `Board::set_edge_along` and `Board::undo_to` call in.

use super::{
    CELL_STATUS, CODE_SHIFT, Counts, DOT_PROBLEMS, DOT_STATUS, EARLY_LOOP, EDGE_GEOMETRY, EXCEEDED,
    LINE, ONE_LINE, ONE_OVER, Problem, SATISFIED, THREE_LINES, UNREACHABLE, ends_step, problem_at,
};

/// What a write needs to know of the board besides its arrays, copied out of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// Lattice points per row.
    pub stride: usize,
    /// Whether cells' corner-exit slots are kept.
    pub exits: bool,
    /// Whether loop-closure candidates are queued.
    pub closures: bool,
}

/// One edge's write: its lattice index, its new state ([`LINE`] or [`super::CROSS`]) and its
/// direction (`horizontal`: the index is odd; a constant where the caller knows it, and then
/// every step size and slot number of the write is one too).
#[derive(Clone, Copy, Debug)]
pub(super) struct Write {
    pub edge: usize,
    pub state: u8,
    pub horizontal: bool,
}

/// Writes an unknown edge's new state into its code and the words that hold it, keeps the
/// counts and the chains, and names the first problem at its dots and side cells as a
/// [`Problem`] (0: none). The trail entry is the caller's.
#[inline(always)]
pub(super) fn write_edge(
    codes: &mut [u8],
    words: &mut [u32],
    counts: &mut Counts,
    closures: &mut Vec<u32>,
    layout: Layout,
    w: Write,
) -> Problem {
    let i = w.edge;
    codes[i] = w.state;
    // LINE = 2 -> slot bits 01 everywhere; CROSS = 4 -> 10.
    let bits = 0x5555_5555 * u32::from(w.state >> 1);
    write_slots::<true>(codes, words, layout, i, bits, w.horizontal);
    check(codes, words, counts, closures, layout, w)
}

/// The edge's dots and side cells (in lattice order), one step along it and one across
/// (constant steps where the direction is).
#[inline(always)]
fn around(edge: usize, stride: usize, horizontal: bool) -> ([usize; 2], [usize; 2]) {
    let (along, across) = if horizontal { (1, stride) } else { (stride, 1) };
    ([edge - along, edge + along], [edge - across, edge + across])
}

/// Sets (`SET`: `bits` all `01` or all `10`, and the slot is unknown, `00`) or clears (`bits`
/// unread) the edge's 2-bit slot in the words of the six cells and two dots that hold it.
///
/// The six cells lie in runs of neighbouring words (`words` is indexed by lattice index /
/// 2), so each run is one bounds check. `horizontal` is a constant where the caller knows
/// the direction, and the other branch goes.
#[inline(always)]
pub(super) fn write_slots<const SET: bool>(
    codes: &mut [u8],
    words: &mut [u32],
    layout: Layout,
    i: usize,
    bits: u32,
    horizontal: bool,
) {
    let s = layout.stride;
    let g = &EDGE_GEOMETRY[usize::from(horizontal)];
    // A slot being set was `00` (unknown), so setting it is an or; clearing is an and.
    let slot = |k: u8, w: &mut u32| {
        let mask = 3u32 << (2 * k);
        *w = if SET { *w | (bits & mask) } else { *w & !mask };
    };
    let dot = |k: u8, w: &mut u8| {
        let mask = 3u8 << (2 * k);
        *w = if SET {
            *w | (bits as u8 & mask)
        } else {
            *w & !mask
        };
    };
    if horizontal {
        // The cell above and the one below, each with its two neighbours along the edge
        // holding it as a corner exit: two runs of three words.
        let (a, b) = ((i - s) >> 1, (i + s) >> 1);
        if layout.exits {
            let up = &mut words[a - 1..=a + 1];
            slot(g.exits[0], &mut up[0]);
            slot(g.exits[1], &mut up[2]);
            let down = &mut words[b - 1..=b + 1];
            slot(g.exits[2], &mut down[0]);
            slot(g.exits[3], &mut down[2]);
        }
        slot(g.sides[0], &mut words[a]);
        slot(g.sides[1], &mut words[b]);
        let d = &mut codes[i - 1..=i + 1];
        dot(g.dots[0], &mut d[0]);
        dot(g.dots[1], &mut d[2]);
    } else {
        // The cells left and right, and the pairs above and below them holding it as a
        // corner exit: three runs of two words.
        let c = (i - 1) >> 1;
        if layout.exits {
            let up = &mut words[c - s..=c - s + 1];
            slot(g.exits[0], &mut up[0]);
            slot(g.exits[2], &mut up[1]);
            let down = &mut words[c + s..=c + s + 1];
            slot(g.exits[1], &mut down[0]);
            slot(g.exits[3], &mut down[1]);
        }
        let mid = &mut words[c..=c + 1];
        slot(g.sides[0], &mut mid[0]);
        slot(g.sides[1], &mut mid[1]);
        dot(g.dots[0], &mut codes[i - s]);
        dot(g.dots[1], &mut codes[i + s]);
    }
}

/// After the write `w`: keeps the line count, the satisfied clues and the chains, and names
/// the first problem at the edge's dots and side cells (in lattice order) as a [`Problem`]
/// (0: none).
#[inline(always)]
fn check(
    codes: &[u8],
    words: &mut [u32],
    counts: &mut Counts,
    closures: &mut Vec<u32>,
    layout: Layout,
    w: Write,
) -> Problem {
    let (dots, cells) = around(w.edge, layout.stride, w.horizontal);
    // The words are read back from where the write just put them (whole, so that the
    // store's value is forwarded), not carried over from it.
    let sides = cells.map(|c| words[c >> 1]);
    let dot_words = dots.map(|d| codes[d]);
    let cell_status = [0, 1]
        .map(|k| CELL_STATUS[(sides[k] >> (CODE_SHIFT + 4)) as usize][(sides[k] & 0xFF) as usize]);
    let dot_status = dot_words.map(|w| DOT_STATUS[usize::from(w)]);
    let bad = ((cell_status[0] | cell_status[1]) & (EXCEEDED | UNREACHABLE))
        | ((dot_status[0] | dot_status[1]) & DOT_PROBLEMS);
    if w.state == LINE {
        // Before this line a cell had one line fewer: it was satisfied exactly when it
        // now has one line too many.
        let now = |s: u8| usize::from(s & SATISFIED != 0);
        let before = |s: u8| usize::from(s & ONE_OVER != 0);
        counts.unsatisfied = counts.unsatisfied + before(cell_status[0]) + before(cell_status[1])
            - now(cell_status[0])
            - now(cell_status[1]);
        counts.line_count += 1;
        counts.ends = counts
            .ends
            .wrapping_add_signed(ends_step(dot_status[0]) + ends_step(dot_status[1]));
        if (dot_status[0] | dot_status[1]) & THREE_LINES == 0
            && !link(codes, words, counts, closures, layout, dots, dot_status)
        {
            return first_problem(w, layout.stride, cell_status, dot_status, EARLY_LOOP);
        }
    }
    if bad != 0 {
        return first_problem(w, layout.stride, cell_status, dot_status, 0);
    }
    0
}

/// The first of the problems `check` found, in the order cells, dots, early loop.
#[cold]
#[inline(never)]
fn first_problem(
    w: Write,
    stride: usize,
    cell_status: [u8; 2],
    dot_status: [u8; 2],
    early_loop: u64,
) -> Problem {
    // Worked out again here rather than kept from `check`: fewer values live on the path
    // that finds nothing.
    let (dots, cells) = around(w.edge, stride, w.horizontal);
    for (c, status) in cells.into_iter().zip(cell_status) {
        if status & (EXCEEDED | UNREACHABLE) != 0 {
            return problem_at(u64::from(status & (EXCEEDED | UNREACHABLE)), c);
        }
    }
    for (d, status) in dots.into_iter().zip(dot_status.map(|s| s & DOT_PROBLEMS)) {
        if status != 0 {
            return problem_at(u64::from(status) << 2, d);
        }
    }
    problem_at(early_loop, dots[0])
}

/// Joins the chains at dots `a` and `b` for the line just added between them (each now has
/// at most two lines; `status`: their [`DOT_STATUS`]; see `chains` for the scheme). False
/// when the line closed a loop that is not the whole answer.
#[inline(always)]
fn link(
    codes: &[u8],
    words: &mut [u32],
    counts: &mut Counts,
    closures: &mut Vec<u32>,
    layout: Layout,
    [a, b]: [usize; 2],
    status: [u8; 2],
) -> bool {
    // Both ends are read whether needed or not, so that choosing is a select, not a
    // branch (which way it goes is a coin toss).
    let (mate_a, mate_b) = (words[a >> 1] as usize, words[b >> 1] as usize);
    let ea = if status[0] & ONE_LINE != 0 { a } else { mate_a };
    let eb = if status[1] & ONE_LINE != 0 { b } else { mate_b };
    if ea == b {
        return close_loop(counts, closures, layout, a, b);
    }
    words[ea >> 1] = eb as u32;
    words[eb >> 1] = ea as u32;
    if layout.closures {
        let diff = ea.abs_diff(eb);
        let edge = ea.min(eb) + diff / 2;
        if (diff == 2 || diff == 2 * layout.stride) && codes[edge] == super::UNKNOWN {
            closures.push(edge as u32);
        }
    }
    true
}

/// The line between `a` and `b` closed a loop: true when the loop is the whole answer
/// (then the loop-closure deducer is told, when tracked).
#[cold]
#[inline(never)]
fn close_loop(
    counts: &mut Counts,
    closures: &mut Vec<u32>,
    layout: Layout,
    a: usize,
    b: usize,
) -> bool {
    // The loop is every line there is when no chain is left (this line's dots are counted
    // with it already: every dot of the loop has two lines) and no other loop was closed.
    let whole = counts.unsatisfied == 0 && counts.ends == 0 && counts.loops == 0;
    counts.loops += 1;
    if whole && layout.closures {
        // Tell the loop-closure deducer that the answer is complete.
        closures.push(((a + b) / 2) as u32);
    }
    whole
}
