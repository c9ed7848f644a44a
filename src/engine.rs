//! The propagation engine: works through the decided edges (newest first), wakes the matchers that watch each one, runs the global deducers (loop closure, colouring) when the rules run dry, and brings rule levels on one after the other.
//!
//! [`Engine::start`] takes a fresh board to the fixpoint of the rule set, level by level, and
//! switches colouring on when the rules and loop closure are stuck. [`Engine::propagate`]
//! takes a board already at a fixpoint, plus edges decided after trail position `head` (a
//! probe or a guess), to the next fixpoint with every level on: probing and search stand on
//! it. The engine's own queue is a stack of runs of trail positions (each run the edges one
//! wake decided), the newest run on top, worked off from its start: pushed as one pair
//! whenever the trail grows, not copied entry by entry.

use crate::board::colours::Colouring;
use crate::board::{
    Board, CLUE0, CODE_SHIFT, CROSS, Contradiction, LINE, OFF, Outcome, Reason, SLOTS, UNKNOWN, Why,
};
use crate::deduce::{self, Call, Deducer, DeducerSet, PerDeducer, Phase};
use crate::rules::compile::{
    CellTest, ColourRule, ColourWakes, Group, Matchers, PREMISE_CHECKS, RuleBook, Stages,
};
use std::hint::select_unpredictable;

/// Counts of what each variant and deducer did, kept when statistics are asked for.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Per variant: matches that decided at least one edge.
    pub fired: Vec<u64>,
    /// Per variant: edges decided.
    pub decided: Vec<u64>,
    /// Per variant: premise tests tried.
    pub tried: Vec<u64>,
}

impl Tally {
    /// Zeroed counts for `variants` variants.
    pub fn new(variants: usize) -> Tally {
        Tally {
            fired: vec![0; variants],
            decided: vec![0; variants],
            tried: vec![0; variants],
        }
    }

    /// Adds another tally's counts to this one.
    pub fn absorb(&mut self, other: &Tally) {
        for (a, b) in self.fired.iter_mut().zip(&other.fired) {
            *a += b;
        }
        for (a, b) in self.decided.iter_mut().zip(&other.decided) {
            *a += b;
        }
        for (a, b) in self.tried.iter_mut().zip(&other.tried) {
            *a += b;
        }
    }

    /// Zeroes every count, keeping the sizes.
    pub fn clear(&mut self) {
        self.fired.fill(0);
        self.decided.fill(0);
        self.tried.fill(0);
    }
}

/// The buffers an engine works in, handed from one engine to the next (see
/// [`Engine::with_workspace`]) so that a stream of puzzles grows them once, not per puzzle.
#[derive(Debug, Default)]
pub struct Workspace {
    /// Runs of trail entries still to wake (start, end), the newest run on top; a run is
    /// worked off from its start.
    queue: Vec<(u32, u32)>,
    /// Work space of the global deducers.
    scratch: Vec<u32>,
    /// Work space of [`Engine::init`]: the cells of a row that can match.
    todo: Vec<u32>,
    /// The colour pass's cache of cell classes, by cell key: the store's version it was
    /// read at, and the class (root * 2 + parity).
    classes: Vec<(u64, u32)>,
}

/// Runs a rule book's matchers over boards; `COUNT` says whether it keeps a [`Tally`]
/// (a compile-time switch, so that plain solving pays nothing for statistics).
pub struct Engine<'a, const COUNT: bool = false> {
    book: &'a RuleBook,
    stages: &'a Stages,
    /// The matchers running now (of the current level).
    matchers: &'a Matchers,
    /// How many of the stages (levels) the engine brings on: all but those held back (see
    /// [`Engine::holding_back_from`]).
    top: usize,
    switches: DeducerSet,
    tally: Option<&'a mut Tally>,
    work: Workspace,
    /// Edges each deducer decided (always counted: one addition per deducer run).
    deduced: PerDeducer<u64>,
    /// Edges the colour rules decided (counted among the rules' edges too).
    colour_decided: u64,
    /// The deducers on that run inside propagation, in order.
    at_fixpoint: Vec<Deducer>,
    /// The deducers on that run at the main line's fixpoints only ([`Phase::Settle`]).
    settling: Vec<Deducer>,
}

impl<'a> Engine<'a, false> {
    /// An engine for boards whose stride is `stages.stride`, with the deducers the rule set
    /// switches on.
    pub fn new(book: &'a RuleBook, stages: &'a Stages) -> Engine<'a, false> {
        Engine {
            book,
            stages,
            matchers: &stages.stage(0).all,
            top: stages.len(),
            switches: book.deducers(),
            tally: None,
            work: Workspace::default(),
            deduced: PerDeducer::default(),
            colour_decided: 0,
            at_fixpoint: deducers_of(book.deducers(), Phase::Fixpoint),
            settling: deducers_of(book.deducers(), Phase::Settle),
        }
    }

    /// The same engine, counting what each variant does into `tally`.
    pub fn with_tally(self, tally: &'a mut Tally) -> Engine<'a, true> {
        Engine {
            book: self.book,
            stages: self.stages,
            matchers: self.matchers,
            top: self.top,
            switches: self.switches,
            tally: Some(tally),
            work: self.work,
            deduced: self.deduced,
            colour_decided: self.colour_decided,
            at_fixpoint: self.at_fixpoint,
            settling: self.settling,
        }
    }
}

impl<'a, const COUNT: bool> Engine<'a, COUNT> {
    /// The same engine with only these deducers on (of those the rule set switches on).
    pub fn with_switches(mut self, switches: DeducerSet) -> Self {
        self.switches = self.book.deducers().and(switches);
        self.at_fixpoint = deducers_of(self.switches, Phase::Fixpoint);
        self.settling = deducers_of(self.switches, Phase::Settle);
        self
    }

    /// The same engine with the rule levels from `level` up held back: [`Engine::start`] and
    /// propagation run without them until [`Engine::release`] brings them on. An engine that
    /// holds every level back is for a board another engine started: it must release before
    /// it propagates.
    pub fn holding_back_from(mut self, level: u32) -> Self {
        let stages = self.stages;
        self.top = (0..stages.len())
            .take_while(|&k| stages.level(k) < level)
            .count();
        self
    }

    /// The same engine working in the buffers of an earlier one.
    pub fn with_workspace(mut self, work: Workspace) -> Self {
        self.work = work;
        self
    }

    /// Takes back buffers handed over to another engine (see [`Engine::take_workspace`]).
    pub fn put_workspace(&mut self, work: Workspace) {
        self.work = work;
    }

    /// Hands over the engine's buffers for the next engine (it keeps empty ones).
    pub fn take_workspace(&mut self) -> Workspace {
        std::mem::take(&mut self.work)
    }

    /// The deducers on.
    pub fn switches(&self) -> DeducerSet {
        self.switches
    }

    /// Edges each global deducer decided so far.
    pub fn deduced(&self) -> PerDeducer<u64> {
        self.deduced
    }

    /// Edges the colour rules decided so far (the rules with colour letters, which run in
    /// the colour pass while colouring is on).
    pub fn colour_decided(&self) -> u64 {
        self.colour_decided
    }

    /// Applies the rules from a fresh board to a fixpoint, level by level: the rules of the
    /// cheapest level run to a fixpoint (loop closure included) before the next level comes
    /// on, and so on while edges stay unknown; colouring comes on last. Returns the highest
    /// level that ran.
    pub fn start(&mut self, board: &mut Board) -> Result<u32, Contradiction> {
        debug_assert_eq!(board.stride(), self.stages.stride);
        debug_assert!(
            self.top > 0,
            "an engine holding every level back must release first"
        );
        let stages = self.stages;
        let mut level = stages.stage(0).level;
        for k in 0..self.top {
            if k > 0 && board.unknown() == 0 {
                break;
            }
            level = stages.stage(k).level;
            self.bring_on(board, k, k == 0)?;
        }
        // The deducers that come on only when the rules are stuck (colouring) come on now.
        for k in 0..self.at_fixpoint.len() {
            if board.unknown() == 0 {
                break;
            }
            let head = board.trail().len();
            let d = self.at_fixpoint[k];
            self.deduced[d] += deduce::at_fixpoint(d, Call::ComeOn, board, &mut self.work.scratch)?;
            // Colouring coming on wakes the colour rules at every decided edge.
            let colour_from = if d == Deducer::Colouring { 0 } else { head };
            self.propagate_with(board, head, colour_from)?;
        }
        self.settle(board)?;
        Ok(level)
    }

    /// Brings on the rule levels held back (see [`Engine::holding_back_from`]) on a board at a
    /// fixpoint of the others, and takes it to the next fixpoint (the deducers of
    /// [`Engine::settle`] included). Returns the highest level that came on, if any did.
    pub fn release(&mut self, board: &mut Board) -> Result<Option<u32>, Contradiction> {
        let stages = self.stages;
        let mut level = None;
        while self.top < stages.len() {
            let k = self.top;
            self.top += 1;
            if board.unknown() == 0 {
                continue;
            }
            level = Some(stages.level(k));
            // Colouring may be on already: the colour rules of the new level look at every
            // cell and every decided edge once.
            board.queue_every_cell();
            self.bring_on(board, k, false)?;
        }
        if level.is_some() {
            self.settle(board)?;
        }
        Ok(level)
    }

    /// Brings stage `k` on: its new matchers run where they can match (from the border ring
    /// on a `fresh` board, everywhere on a later level) and over the trail so far, then every
    /// matcher of the stage propagates from the trail length before. Once colouring is on (a
    /// level released after it), the colour rules look at every decided edge too.
    fn bring_on(&mut self, board: &mut Board, k: usize, fresh: bool) -> Result<(), Contradiction> {
        // A level is laid out only when it comes on.
        let stage = self.stages.stage(k);
        let decided = board.trail().len();
        if stage.all.has_cell_lists {
            board.keep_exits();
        }
        self.matchers = &stage.new;
        if fresh {
            // A fresh board: only the border ring and the edges given before the start
            // (example boards) can match anything.
            self.init(board, false)?;
            for i in 0..decided {
                let q = board.trail()[i] as usize;
                self.wake::<true>(board, q)?;
            }
        } else {
            // A new level comes on: scan every cell and dot once (in memory order, which
            // beats replaying the trail), and replay the trail for the general matchers.
            self.init(board, true)?;
            if !self.matchers.entries.is_empty() {
                for i in 0..decided {
                    let q = board.trail()[i] as usize;
                    self.wake_general(board, q, board.at(q))?;
                }
            }
        }
        self.matchers = &stage.all;
        let coloured = if board.colouring().is_some() {
            0
        } else {
            decided
        };
        self.propagate_with(board, decided, coloured)
    }

    /// Runs the deducers that look at the whole board ([`Phase::Settle`]: on the solver's main
    /// line only, never inside a probe or a search branch) and propagates what they decide,
    /// until they decide nothing more. In a round, a deducer that
    /// [waits for the others](crate::deduce::Deducer::waits_for_the_others) is passed over
    /// once one before it has decided something.
    pub fn settle(&mut self, board: &mut Board) -> Result<(), Contradiction> {
        loop {
            let mut changed = false;
            for k in 0..self.settling.len() {
                if board.unknown() == 0 {
                    return Ok(());
                }
                let d = self.settling[k];
                if changed && d.waits_for_the_others() {
                    continue;
                }
                let head = board.trail().len();
                let version = board.colouring().map(|c| c.version());
                self.deduced[d] +=
                    deduce::at_fixpoint(d, Call::Deduce, board, &mut self.work.scratch)?;
                if board.trail().len() > head || board.colouring().map(|c| c.version()) != version {
                    self.propagate(board, head)?;
                    changed = true;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Takes a board at a fixpoint, plus the edges decided from trail position `head` on,
    /// to the next fixpoint with every rule level on (and the deducers of [`Engine::start`]).
    pub fn propagate(&mut self, board: &mut Board, head: usize) -> Result<(), Contradiction> {
        debug_assert!(
            self.top > 0,
            "an engine holding every level back must release first"
        );
        self.matchers = &self.stages.stage(self.top.max(1) - 1).all;
        if self.matchers.has_cell_lists {
            board.keep_exits();
        }
        self.propagate_here(board, head)
    }

    /// Runs the current matchers where they can match without a trigger: clue-only rules at
    /// every cell and the grid border as crosses; with `everywhere`, also every cell test and
    /// dot rule at every cell and dot (otherwise only along the border ring, where a fresh
    /// board has its only decided edges).
    fn init(&mut self, board: &mut Board, everywhere: bool) -> Result<(), Contradiction> {
        let m = self.matchers;
        let (rows, cols) = (board.rows() as isize, board.cols() as isize);
        if m.dots.used {
            if everywhere {
                for r in 0..=rows {
                    for c in 0..=cols {
                        self.eval_dot(board, board.index(2 * r, 2 * c))?;
                    }
                }
            } else {
                // The border ring, once round.
                for c in 0..=cols {
                    self.eval_dot(board, board.index(0, 2 * c))?;
                    if rows > 0 {
                        self.eval_dot(board, board.index(2 * rows, 2 * c))?;
                    }
                }
                for r in 1..rows {
                    self.eval_dot(board, board.index(2 * r, 0))?;
                    if cols > 0 {
                        self.eval_dot(board, board.index(2 * r, 2 * cols))?;
                    }
                }
            }
        }
        // Which cells can match anything is read off each row first (no writes, so no
        // bounds checks per cell): most interior cells of a fresh board cannot.
        let mut todo = std::mem::take(&mut self.work.todo);
        todo.resize(cols as usize, 0);
        for r in 0..rows {
            let states = board.cell_row_words(r as usize);
            let first = board.index(2 * r + 1, 1);
            // Every cell is written to the next free place and kept by counting it only when
            // it can match: whether it can is a coin toss, so it is not branched on.
            let mut kept = 0;
            for (c, &state) in states.iter().enumerate() {
                let kind = (state >> (CODE_SHIFT + 4)) as usize;
                let starts = select_unpredictable(
                    state & SLOTS == 0,
                    m.starts_bare[kind],
                    m.starts_touched[kind],
                );
                let table = m.side_set[kind][(state & 0xFF) as usize] != 0;
                todo[kept] = (first + 2 * c) as u32;
                kept += usize::from(table | starts);
            }
            let border_row = r == 0 || r == rows - 1;
            for &cell in &todo[..kept] {
                let cell = cell as usize;
                let code = board.at(cell);
                if code < CLUE0 {
                    continue;
                }
                let clue = code.trailing_zeros() as usize - 4;
                self.eval_cell(board, cell)?;
                // A test reading any slot holds only where that slot is decided: on a cell
                // with nothing decided around it (most cells when a level comes on) only the
                // static tests can. A pair test whose own slots read nothing has them all in
                // the other cell's window, and is filed there too with them as its own.
                let border = everywhere
                    || border_row
                    || cell == first
                    || cell == first + 2 * (cols as usize - 1);
                let tests = if board.word(cell) != 0 && border {
                    &m.cells[clue]
                } else {
                    &m.static_cells[clue]
                };
                if !tests.is_empty() {
                    self.run_cell_tests(board, cell, tests)?;
                }
                self.try_entries(board, &m.statics[clue], cell)?;
            }
        }
        self.work.todo = todo;
        // The border: each off-grid edge at a grid dot acts as a cross that was just decided.
        if !m.entries.is_empty() {
            for c in 0..=cols {
                self.wake_general(board, board.index(-1, 2 * c), OFF)?;
                self.wake_general(board, board.index(2 * rows + 1, 2 * c), OFF)?;
            }
            for r in 0..=rows {
                self.wake_general(board, board.index(2 * r, -1), OFF)?;
                self.wake_general(board, board.index(2 * r, 2 * cols + 1), OFF)?;
            }
        }
        Ok(())
    }

    /// Wakes the watchers of every trail entry from `head` on with the current matchers,
    /// then runs the global deducers, until nothing changes.
    fn propagate_here(&mut self, board: &mut Board, head: usize) -> Result<(), Contradiction> {
        self.propagate_with(board, head, head)
    }

    /// [`Engine::propagate_here`], with the colour rules woken from trail position `coloured`.
    fn propagate_with(
        &mut self,
        board: &mut Board,
        head: usize,
        mut coloured: usize,
    ) -> Result<(), Contradiction> {
        // Newest first: a decided edge's consequences are worked out while its neighbourhood
        // is still in cache, instead of sweeping the whole board breadth-first.
        self.work.queue.clear();
        let mut seen = head;
        loop {
            let len = board.trail().len();
            if len > seen {
                self.work.queue.push((seen as u32, len as u32));
                seen = len;
            }
            // Whether any cell list or general matcher watches edges is asked once, not per
            // edge.
            let m = self.matchers;
            if m.has_cell_lists || !m.entries.is_empty() {
                self.work_off::<true>(board, &mut seen)?;
            } else {
                self.work_off::<false>(board, &mut seen)?;
            }
            // The global deducers that run inside propagation, in order: when one decides
            // something, the rules go first again.
            let mut changed = false;
            for k in 0..self.at_fixpoint.len() {
                let d = self.at_fixpoint[k];
                let decided = if d == Deducer::Colouring {
                    let before = board.trail().len();
                    self.colour_rules(board, &mut coloured)?;
                    self.colour_decided += (board.trail().len() - before) as u64;
                    0
                } else {
                    deduce::at_fixpoint(d, Call::Deduce, board, &mut self.work.scratch)?
                };
                self.deduced[d] += decided;
                if board.trail().len() > seen {
                    changed = true;
                    break;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// The colour pass: wakes the colour rules at the cells whose colour class changed (the
    /// colour store's queue) and at the edges decided since trail position `coloured`, until
    /// they decide an edge (the other rules go first again) or nothing is left to wake.
    fn colour_rules(
        &mut self,
        board: &mut Board,
        coloured: &mut usize,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let keys = board.len() / 2 + 1;
        if self.work.classes.len() < keys {
            self.work.classes.resize(keys, (0, 0));
        }
        loop {
            let Some(colouring) = board.colouring_mut() else {
                *coloured = board.trail().len();
                return Ok(());
            };
            let mut cells = std::mem::take(&mut self.work.scratch);
            cells.clear();
            // Each queued cell once per round.
            colouring.epoch = colouring.epoch.wrapping_add(1);
            if colouring.epoch == 0 {
                colouring.seen.fill(0);
                colouring.epoch = 1;
            }
            for c in colouring.queue.drain(..) {
                let key = (c >> 1) as usize;
                if colouring.seen[key] != colouring.epoch {
                    colouring.seen[key] = colouring.epoch;
                    cells.push(c);
                }
            }
            let len = board.trail().len();
            if cells.is_empty() && *coloured == len {
                self.work.scratch = cells;
                return Ok(());
            }
            let mut result = Ok(());
            for i in *coloured..len {
                let q = board.trail()[i] as usize;
                result = self.wake_colour(board, &m.colour_by_edge[q & 1], q);
                if result.is_err() {
                    break;
                }
            }
            if result.is_ok() {
                for &c in &cells {
                    result = self.wake_colour(board, &m.colour_by_cell, c as usize);
                    if result.is_err() {
                        break;
                    }
                }
            }
            self.work.scratch = cells;
            result?;
            *coloured = len;
            if board.trail().len() > len {
                return Ok(());
            }
        }
    }

    /// Tries the colour rules of `wakes` at the point `q` (a cell or an edge).
    fn wake_colour(
        &mut self,
        board: &mut Board,
        wakes: &ColourWakes,
        q: usize,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let stride = board.stride();
        if wakes.groups.len() <= 64 {
            // The groups with wakes for the clue at their key, read without a branch per
            // group (a cell woken off the grid may see keys off the board: no clue there).
            let mut bits = 0u64;
            for (i, g) in wakes.groups.iter().enumerate() {
                let code = board.code_or_blank(q.wrapping_add_signed(g.key));
                bits |= u64::from(g.clues & (code >> 4) != 0) << i;
            }
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.wake_group(board, &wakes.groups[i], &wakes.open[i], q)?;
            }
        } else {
            for (g, open) in wakes.groups.iter().zip(&wakes.open) {
                if board.at(q.wrapping_add_signed(g.key)) >= CLUE0 {
                    self.wake_group(board, g, open, q)?;
                }
            }
        }
        // A cell with its four sides decided: the rules that conclude only its sides add
        // nothing.
        if wakes.free_sides
            && [q - 1, q + 1, q - stride, q + stride]
                .iter()
                .all(|&e| board.at(e) != UNKNOWN)
        {
            return Ok(());
        }
        for w in &m.colour_wakes[range(&wakes.free)] {
            let origin = q.wrapping_add_signed(w.delta);
            if self.worth_trying(board, w.rule, origin) {
                self.try_colour(board, w.rule, origin)?;
            }
        }
        Ok(())
    }

    /// Tries the colour rules of one wake group at the point `q`, whose key cell holds a clue.
    #[inline(always)]
    fn wake_group(
        &mut self,
        board: &mut Board,
        g: &Group,
        open: &[std::ops::Range<u32>; 4],
        q: usize,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let stride = board.stride();
        let cell = q.wrapping_add_signed(g.key);
        let clue = board.at(cell).trailing_zeros() as usize - 4;
        let (all, open) = (&g.by_clue[clue], &open[clue]);
        // A clue with its four sides decided: its local colour rules add nothing.
        let wakes = if open.len() < all.len()
            && [cell - 1, cell + 1, cell - stride, cell + stride]
                .iter()
                .all(|&e| board.at(e) != UNKNOWN)
        {
            open
        } else {
            all
        };
        for w in &m.colour_wakes[range(wakes)] {
            let origin = q.wrapping_add_signed(w.delta);
            if self.worth_trying(board, w.rule, origin) {
                self.try_colour(board, w.rule, origin)?;
            }
        }
        Ok(())
    }

    /// Whether colour rule `k` at `origin` could add anything: it relates cells, or an edge
    /// it concludes is still unknown (what [`Engine::try_colour`] asks first, without the
    /// call). An edge decided against the rule is not looked at: that contradiction shows in
    /// the colour store or the loop later, and checking it here cost 6% of the Slitherlink
    /// corpus (the edge rules' watch lists do report it).
    #[inline(always)]
    fn worth_trying(&self, board: &Board, k: u32, origin: usize) -> bool {
        let m = self.matchers;
        let rule = &m.colour_rules[k as usize];
        !rule.relate.is_empty()
            || m.concludes[range(&rule.concludes)]
                .iter()
                .any(|c| board.at(origin.wrapping_add_signed(c.offset)) == UNKNOWN)
    }

    /// Tries colour rule `k` with its origin at `origin`.
    fn try_colour(
        &mut self,
        board: &mut Board,
        k: u32,
        origin: usize,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let rule: &ColourRule = &m.colour_rules[k as usize];
        if COUNT && let Some(t) = self.tally.as_deref_mut() {
            t.tried[rule.variant as usize] += 1;
        }
        for c in &m.checks[range(&rule.checks)] {
            if board.at(origin.wrapping_add_signed(c.offset)) & c.mask == 0 {
                return Ok(());
            }
        }
        let at =
            |p: &crate::rules::compile::ColourPair| p.cells.map(|d| origin.wrapping_add_signed(d));
        // Nothing to do when every conclusion holds already (the common case): edges first,
        // as they cost one read each.
        let edges_open = m.concludes[range(&rule.concludes)]
            .iter()
            .any(|c| board.at(origin.wrapping_add_signed(c.offset)) == UNKNOWN);
        if !edges_open && rule.relate.is_empty() {
            return Ok(());
        }
        let Some(colouring) = board.colouring() else {
            return Ok(());
        };
        let classes = &mut self.work.classes;
        for p in &m.colour_pairs[range(&rule.same)] {
            let [a, b] = at(p);
            if relation(classes, colouring, a, b) != Some(p.differ) {
                return Ok(());
            }
        }
        let open = edges_open
            || m.colour_pairs[range(&rule.relate)].iter().any(|p| {
                let [a, b] = at(p);
                relation(classes, colouring, a, b) != Some(p.differ)
            });
        if !open {
            return Ok(());
        }
        let reason = Reason::Rule {
            variant: rule.variant,
            anchor: origin as u32,
        };
        let mut decided = 0;
        for c in &m.concludes[range(&rule.concludes)] {
            decided +=
                u64::from(board.set_edge(origin.wrapping_add_signed(c.offset), c.state, reason)?);
        }
        let mut related = false;
        for p in &m.colour_pairs[range(&rule.relate)] {
            let [a, b] = at(p);
            if board.colouring().and_then(|c| c.relation(a, b)).is_none() {
                related = true;
            }
            if !board.relate_cells(a, b, p.differ) {
                return Err(board.contradiction(Why::ColourClash, a));
            }
        }
        if COUNT
            && (decided > 0 || related)
            && let Some(t) = self.tally.as_deref_mut()
        {
            t.fired[rule.variant as usize] += 1;
            t.decided[rule.variant as usize] += decided;
        }
        Ok(())
    }

    /// Wakes the queued trail entries, and those they decide, until the queue is empty
    /// (`seen`: the trail entries queued so far). `WATCHERS`: whether the current matchers
    /// have cell lists or general matchers (see [`Engine::wake`]).
    fn work_off<const WATCHERS: bool>(
        &mut self,
        board: &mut Board,
        seen: &mut usize,
    ) -> Result<(), Contradiction> {
        while let Some(run) = self.work.queue.last_mut() {
            let q = board.trail()[run.0 as usize] as usize;
            run.0 += 1;
            if run.0 == run.1 {
                self.work.queue.pop();
            }
            self.wake::<WATCHERS>(board, q)?;
            let len = board.trail().len();
            if len > *seen {
                self.work.queue.push((*seen as u32, len as u32));
                *seen = len;
            }
        }
        Ok(())
    }

    /// Re-evaluates the dot-local variants at a dot through the dot table.
    #[inline(always)]
    fn eval_dot(&mut self, board: &mut Board, dot: usize) -> Result<(), Contradiction> {
        let word = board.dot_word(dot);
        let set = self.matchers.dots.set[word as usize];
        if set != 0 {
            self.apply_dot_table(board, dot, word, set)?;
        }
        Ok(())
    }

    /// Sets the edges a table entry asks for (2 bits per edge in `set`) around `anchor`, a
    /// dot when `DOT` (slots N, E, S, W: E and W are horizontal edges) and a cell otherwise
    /// (N and S are). Knowing each slot's direction lets the edge writes be specialised.
    #[inline(never)]
    fn apply_table<const DOT: bool>(
        &mut self,
        board: &mut Board,
        anchor: usize,
        set: u8,
        variants: &[u32; 4],
        offsets: &[isize; 4],
    ) -> Result<(), Contradiction> {
        let entry = TableEntry {
            anchor,
            set,
            variants,
            offsets,
        };
        // Asked once: a board without colouring is written with fewer of its fields read
        // again after each edge.
        if board.colouring().is_some() {
            self.apply_slots::<DOT, true>(board, entry)
        } else {
            self.apply_slots::<DOT, false>(board, entry)
        }
    }

    /// The four slots of [`Engine::apply_table`], on a board with its colouring on or not.
    #[inline(always)]
    fn apply_slots<const DOT: bool, const COLOURED: bool>(
        &mut self,
        board: &mut Board,
        entry: TableEntry,
    ) -> Result<(), Contradiction> {
        self.apply_slot::<DOT, COLOURED, 0>(board, entry)?;
        self.apply_slot::<DOT, COLOURED, 1>(board, entry)?;
        self.apply_slot::<DOT, COLOURED, 2>(board, entry)?;
        self.apply_slot::<DOT, COLOURED, 3>(board, entry)
    }

    /// Slot `K` of [`Engine::apply_table`]: its edge is horizontal for E and W of a dot and N
    /// and S of a cell, known here at compile time.
    #[inline(always)]
    fn apply_slot<const DOT: bool, const COLOURED: bool, const K: usize>(
        &mut self,
        board: &mut Board,
        entry: TableEntry,
    ) -> Result<(), Contradiction> {
        let TableEntry {
            anchor,
            set,
            variants,
            offsets,
        } = entry;
        let bits = (set >> (2 * K)) & 3;
        if bits != 0 {
            // LINE = 2, CROSS = 4.
            let state = bits << 1;
            let variant = variants[K];
            let outcome = board.write_along::<COLOURED>(
                anchor.wrapping_add_signed(offsets[K]),
                state,
                Reason::Rule {
                    variant,
                    anchor: anchor as u32,
                },
                (K & 1 == 1) == DOT,
            );
            if outcome.is_problem() {
                return Err(board.contradiction_of(outcome));
            }
            self.count_fired(variant, u64::from(outcome == Outcome::CHANGED));
        }
        Ok(())
    }

    /// Runs (mask, value) tests on the word of a cell's 12 slots (and of a second cell for
    /// two-clue tests) and applies those that hold.
    #[inline(always)]
    fn run_cell_tests(
        &mut self,
        board: &mut Board,
        cell: usize,
        tests: &[CellTest],
    ) -> Result<(), Contradiction> {
        let mut word = board.word(cell);
        // Branch-free first pass (premise outcomes are unpredictable), then the few hits.
        for chunk in tests.chunks(64) {
            let mut hits = 0u64;
            for (i, t) in chunk.iter().enumerate() {
                hits |= u64::from(word & t.mask == t.value) << i;
            }
            while hits != 0 {
                let t = &chunk[hits.trailing_zeros() as usize];
                hits &= hits - 1;
                if t.other == 0 {
                    if t.conclude & !word != 0 {
                        self.apply_cell_test(board, cell, t)?;
                        word = board.word(cell);
                    }
                    continue;
                }
                let other = cell.wrapping_add_signed(t.other as isize);
                if board.at(other) != t.other_code {
                    continue;
                }
                let other_word = board.word(other);
                if other_word & t.other_mask == t.other_value
                    && (t.conclude & !word) | (t.other_conclude & !other_word) != 0
                {
                    self.apply_cell_test(board, cell, t)?;
                    word = board.word(cell);
                }
            }
        }
        if COUNT && let Some(tally) = self.tally.as_deref_mut() {
            for t in tests {
                tally.tried[t.variant as usize] += 1;
            }
        }
        Ok(())
    }

    /// Applies the conclusion of a cell test that holds.
    #[cold]
    fn apply_cell_test(
        &mut self,
        board: &mut Board,
        cell: usize,
        t: &CellTest,
    ) -> Result<(), Contradiction> {
        let mut decided = self.apply_word(board, cell, t.conclude, t.variant)?;
        if t.other != 0 {
            let other = cell.wrapping_add_signed(t.other as isize);
            decided += self.apply_word(board, other, t.other_conclude, t.variant)?;
        }
        self.count_fired(t.variant, decided);
        Ok(())
    }

    /// Sets the slots of a cell that `bits` asks for (line bits and cross bits) and are not set yet.
    fn apply_word(
        &mut self,
        board: &mut Board,
        cell: usize,
        bits: u32,
        variant: u32,
    ) -> Result<u64, Contradiction> {
        let m = self.matchers;
        let mut todo = bits & !board.word(cell);
        let mut decided = 0;
        while todo != 0 {
            let b = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let state = if b & 1 == 0 { LINE } else { CROSS };
            decided += u64::from(board.set_edge(
                cell.wrapping_add_signed(m.cell_offsets[b / 2]),
                state,
                Reason::Rule {
                    variant,
                    anchor: cell as u32,
                },
            )?);
        }
        Ok(decided)
    }

    /// Wakes everything that reads the edge at `q`, which was just decided: its two dots, the
    /// cells holding it in their slots, and the general matchers watching it. Its state is
    /// read only where the watchers are indexed by it (a decided edge keeps its state).
    ///
    /// The direction is read off the index's parity without a branch (a branch on it is
    /// mispredicted about a third of the time). The two dots share no edge but `q`, nor do
    /// the two cells, so either pair's table entries are looked up before either is applied,
    /// and one test skips the pair when neither has anything to set (the common case).
    /// Without `WATCHERS` (the matchers have no cell lists nor general matchers), only the
    /// dots and side cells are woken.
    #[inline(always)]
    fn wake<const WATCHERS: bool>(
        &mut self,
        board: &mut Board,
        q: usize,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let s = board.stride();
        let horizontal = q & 1;
        // Horizontal: dots 1 apart, cells a stride; vertical the other way round.
        let along = s - (s - 1) * horizontal;
        let across = 1 + (s - 1) * horizontal;
        let dots = [q - along, q + along];
        let words = dots.map(|d| board.dot_word(d));
        let sets = words.map(|w| m.dots.set[w as usize]);
        if sets[0] | sets[1] != 0 {
            for k in 0..2 {
                if sets[k] != 0 {
                    self.apply_dot_table(board, dots[k], words[k], sets[k])?;
                }
            }
        }
        let cells = [q - across, q + across];
        let states = cells.map(|c| board.cell_state(c));
        let sets = states
            .map(|state| m.side_set[(state >> (CODE_SHIFT + 4)) as usize][(state & 0xFF) as usize]);
        if sets[0] | sets[1] != 0 {
            for k in 0..2 {
                if sets[k] != 0 {
                    self.apply_side_table(board, cells[k], states[k], sets[k])?;
                }
            }
        }
        if WATCHERS {
            if m.has_cell_lists {
                self.wake_lists(board, q, board.at(q))?;
            }
            if !m.entries.is_empty() {
                self.wake_general(board, q, board.at(q))?;
            }
        }
        Ok(())
    }

    /// Re-evaluates the side-only variants of a cell (any cell: a blank or off-grid one has
    /// nothing in its row of the side table).
    #[inline(always)]
    fn eval_cell(&mut self, board: &mut Board, cell: usize) -> Result<(), Contradiction> {
        let m = self.matchers;
        let state = board.cell_state(cell);
        let set = m.side_set[(state >> (CODE_SHIFT + 4)) as usize][(state & 0xFF) as usize];
        if set != 0 {
            self.apply_side_table(board, cell, state, set)?;
        }
        Ok(())
    }

    /// Applies the dot-table entry `set` of a dot whose word is `word`.
    #[inline(always)]
    fn apply_dot_table(
        &mut self,
        board: &mut Board,
        dot: usize,
        word: u8,
        set: u8,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let variants = &m.dots.variants[word as usize];
        self.apply_table::<true>(board, dot, set, variants, &m.dot_offsets)
    }

    /// Applies the side-table entry `set` of a cell whose state word is `state`.
    #[inline(always)]
    fn apply_side_table(
        &mut self,
        board: &mut Board,
        cell: usize,
        state: u32,
        set: u8,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let clue = (state >> CODE_SHIFT).trailing_zeros() as usize - 4;
        let variants = &m.sides[clue & 3].variants[(state & 0xFF) as usize];
        let offsets = m.cell_offsets[..4].try_into().expect("four sides");
        self.apply_table::<false>(board, cell, set, variants, offsets)
    }

    /// Runs the cell tests watching the edge at `q` (which just became `state`) in the six
    /// cells that hold it in their slots.
    fn wake_lists(&mut self, board: &mut Board, q: usize, state: u8) -> Result<(), Contradiction> {
        let m = self.matchers;
        let s = usize::from(state != LINE);
        for &(off, k) in &m.edge_cells[q & 1] {
            let cell = q.wrapping_add_signed(off);
            let code = board.at(cell);
            if code >= CLUE0 {
                let list = &m.cell_watch[((code.trailing_zeros() as usize - 4) * 12 + k) * 2 + s];
                if list.tests.start != list.tests.end
                    && (list.pairs || list.concludes & !board.word(cell) != 0)
                {
                    self.run_cell_tests(board, cell, &m.cell_watch_tests[range(&list.tests)])?;
                }
            }
        }
        Ok(())
    }

    /// Tries the general matchers watching the edge at `q`, which just became `state`.
    fn wake_general(
        &mut self,
        board: &mut Board,
        q: usize,
        state: u8,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        let watch = &m.watch[q & 1][usize::from(state != LINE)];
        if watch.groups.len() <= 64 {
            // Which groups have entries for the clue at their key, read without a branch per
            // group (whether a cell holds a clue is a coin toss), then those groups in order.
            let mut bits = 0u64;
            for (i, g) in watch.groups.iter().enumerate() {
                let code = board.at(q.wrapping_add_signed(g.key));
                bits |= u64::from(g.clues & (code >> 4) != 0) << i;
            }
            while bits != 0 {
                let g = &watch.groups[bits.trailing_zeros() as usize];
                bits &= bits - 1;
                let clue = board.at(q.wrapping_add_signed(g.key)).trailing_zeros() as usize - 4;
                self.try_entries(board, &g.by_clue[clue], q)?;
            }
        } else {
            for g in &watch.groups {
                let code = board.at(q.wrapping_add_signed(g.key));
                if code >= CLUE0 {
                    let clue = code.trailing_zeros() as usize - 4;
                    self.try_entries(board, &g.by_clue[clue], q)?;
                }
            }
        }
        self.try_entries(board, &watch.free, q)
    }

    /// Tries the entries `entries` (a range of `Matchers::entries`) at the woken point `q`, in
    /// order, each on the board as the ones before it left it. Their first premise checks
    /// ([`Premise`](crate::rules::compile::Premise)) are tested for up to 64 entries at a
    /// time without a branch (whether a premise holds is a coin toss, and most fail at their
    /// first check), and again for the entries after one that decided an edge.
    #[inline(always)]
    fn try_entries(
        &mut self,
        board: &mut Board,
        entries: &std::ops::Range<u32>,
        q: usize,
    ) -> Result<(), Contradiction> {
        // Many runs are empty (a clue without entries of its own): asked before the call.
        if entries.start == entries.end {
            return Ok(());
        }
        self.try_run(board, entries, q)
    }

    /// [`Engine::try_entries`] for a run that is not empty.
    #[inline(never)]
    fn try_run(
        &mut self,
        board: &mut Board,
        entries: &std::ops::Range<u32>,
        q: usize,
    ) -> Result<(), Contradiction> {
        let m = self.matchers;
        debug_assert!(board.at(q) != 0, "premise padding tests the woken point");
        let (mut start, end) = (entries.start as usize, entries.end as usize);
        while start < end {
            let stop = end.min(start + 64);
            let mut hits = 0u64;
            for (i, p) in m.premises[start..stop].iter().enumerate() {
                let mut holds = true;
                for k in 0..PREMISE_CHECKS {
                    holds &=
                        board.at(q.wrapping_add_signed(p.offsets[k] as isize)) & p.masks[k] != 0;
                }
                hits |= u64::from(holds) << i;
            }
            // Up to the entry that changed the board, after which the rest are tested again.
            let mut tried = stop;
            while hits != 0 {
                let i = start + hits.trailing_zeros() as usize;
                hits &= hits - 1;
                match self.finish_entry(board, i, q) {
                    Ok(0) => {}
                    Ok(_) => {
                        tried = i + 1;
                        break;
                    }
                    Err(e) => {
                        self.count_tried(start..i + 1);
                        return Err(e);
                    }
                }
            }
            self.count_tried(start..tried);
            start = tried;
        }
        Ok(())
    }

    /// Counts the entries `entries` as tried (when counting).
    #[inline(always)]
    fn count_tried(&mut self, entries: std::ops::Range<usize>) {
        if COUNT && let Some(t) = self.tally.as_deref_mut() {
            for e in &self.matchers.entries[entries] {
                t.tried[e.variant as usize] += 1;
            }
        }
    }

    /// Tests the rest of entry `i`'s premise at the woken point `q` (its first checks held)
    /// and applies its conclusion when it holds; returns the edges it decided.
    #[inline(always)]
    fn finish_entry(
        &mut self,
        board: &mut Board,
        i: usize,
        q: usize,
    ) -> Result<u64, Contradiction> {
        let m = self.matchers;
        let e = &m.entries[i];
        let anchor = q.wrapping_add_signed(e.delta);
        for c in &m.checks[m.premises[i].rest as usize..e.checks.end as usize] {
            if board.at(anchor.wrapping_add_signed(c.offset)) & c.mask == 0 {
                return Ok(0);
            }
        }
        let reason = Reason::Rule {
            variant: e.variant,
            anchor: anchor as u32,
        };
        let mut decided = 0;
        for c in &m.concludes[range(&e.concludes)] {
            decided +=
                u64::from(board.set_edge(anchor.wrapping_add_signed(c.offset), c.state, reason)?);
        }
        self.count_fired(e.variant, decided);
        Ok(decided)
    }

    /// Counts a match of `variant` that decided `decided` edges (when counting, and only if it decided any).
    #[inline(always)]
    fn count_fired(&mut self, variant: u32, decided: u64) {
        if COUNT
            && decided > 0
            && let Some(t) = self.tally.as_deref_mut()
        {
            t.fired[variant as usize] += 1;
            t.decided[variant as usize] += decided;
        }
    }
}

/// The deducers of `set` that run in `phase`, in [`Deducer::ALL`] order.
fn deducers_of(set: DeducerSet, phase: Phase) -> Vec<Deducer> {
    set.iter().filter(|d| d.phase() == phase).collect()
}

/// [`Colouring::relation`] through a cache of cell classes (keyed by cell, good while the
/// store's version stays).
#[inline(always)]
fn relation(classes: &mut [(u64, u32)], colouring: &Colouring, a: usize, b: usize) -> Option<bool> {
    let version = colouring.version();
    let mut class = |cell: usize| {
        let key = cell >> 1;
        let (at, class) = classes[key];
        if at == version {
            return class;
        }
        let (root, parity) = colouring.find(key as u32);
        let class = root << 1 | u32::from(parity);
        classes[key] = (version, class);
        class
    };
    let (x, y) = (class(a), class(b));
    (x >> 1 == y >> 1).then_some((x ^ y) & 1 != 0)
}

/// A table entry being applied: the dot or cell, what to set (2 bits per slot), the variant
/// behind each slot's conclusion, and the slots' index differences.
#[derive(Clone, Copy)]
struct TableEntry<'m> {
    anchor: usize,
    set: u8,
    variants: &'m [u32; 4],
    offsets: &'m [isize; 4],
}

#[inline(always)]
fn range(r: &std::ops::Range<u32>) -> std::ops::Range<usize> {
    r.start as usize..r.end as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_all;
    use crate::rules::RuleSet;

    /// Runs the built-in rules on a puzzle; returns the level reached, the tally and the board.
    fn run(text: &str) -> (u32, Tally, Board) {
        let book = RuleBook::new(RuleSet::builtin());
        let puzzle = parse_all("t", text.as_bytes()).unwrap().remove(0);
        let tracking = crate::board::Tracking {
            closures: book.deducers().contains(Deducer::LoopClosure),
            reasons: false,
        };
        let mut board = Board::new(&puzzle, book.margin, tracking);
        let stages = book.stages(board.stride(), book.single_loop_rules_apply(&puzzle));
        let mut tally = Tally::new(book.variants.len());
        let level = Engine::new(&book, &stages)
            .with_tally(&mut tally)
            .start(&mut board)
            .unwrap();
        (level, tally, board)
    }

    fn tried_at_level(tally: &Tally, level: u32) -> u64 {
        let book = RuleBook::new(RuleSet::builtin());
        book.variants
            .iter()
            .enumerate()
            .filter(|(_, v)| book.set.rules[v.rule].level == level)
            .map(|(i, _)| tally.tried[i])
            .sum()
    }

    #[test]
    fn a_puzzle_the_cheap_rules_finish_never_wakes_the_dear_ones() {
        // The sample's 6x6 puzzle falls to counting and dot rules alone.
        let text = include_str!("../tests/data/sample.in");
        let six = text.split_once("6 6\n").unwrap().1;
        let (level, tally, board) = run(&format!("6 6\n{six}"));
        assert_eq!(board.unknown(), 0);
        assert_eq!(level, 1);
        assert_eq!(tried_at_level(&tally, 2), 0);
    }

    #[test]
    fn the_next_level_comes_on_when_the_cheap_rules_are_stuck() {
        // 2x2 of 2s: the counting and dot rules alone cannot start; a corner rule must.
        let (level, tally, board) = run("2 2\n2 2\n2 2\n0 0\n");
        assert_eq!(board.unknown(), 0);
        assert_eq!(level, 2);
        assert!(tried_at_level(&tally, 2) > 0);
    }

    #[test]
    fn levels_held_back_come_on_only_when_released() {
        // Puzzle 125 of the corpus (5x5): deduction finishes it only with the rules learned
        // from probes (level 4).
        let text = include_str!("../tests/data/puzzles-slitherlink.in");
        let puzzle = parse_all("t", text.as_bytes()).unwrap().remove(124);
        let book = RuleBook::new(RuleSet::builtin());
        let tracking = crate::board::Tracking {
            closures: true,
            reasons: false,
        };
        let mut board = Board::new(&puzzle, book.margin, tracking);
        let stages = book.stages(board.stride(), book.single_loop_rules_apply(&puzzle));
        let mut tally = Tally::new(book.variants.len());
        let mut engine = Engine::new(&book, &stages)
            .with_tally(&mut tally)
            .holding_back_from(4);
        assert_eq!(engine.start(&mut board).unwrap(), 3);
        assert!(board.unknown() > 0);
        assert_eq!(engine.release(&mut board).unwrap(), Some(4));
        assert_eq!(engine.release(&mut board).unwrap(), None);
        assert_eq!(board.unknown(), 0);
        assert!(tried_at_level(&tally, 4) > 0);
        // Run at once, the same rules finish it too.
        let mut board = Board::new(&puzzle, book.margin, tracking);
        let level = Engine::new(&book, &stages).start(&mut board).unwrap();
        assert_eq!((level, board.unknown()), (4, 0));
    }
}
