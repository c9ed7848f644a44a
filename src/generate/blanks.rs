//! Ordinary Slitherlink from Slink: blank clues in random order (a symmetric orbit of cells at a time) while the puzzle stays acceptable to the judge.
//!
//! Every orbit of cells (one cell without symmetry) is tried once, in an order drawn from the
//! puzzle's own random stream: its clues are blanked, the judge solves the puzzle, and the
//! clues come back unless the judge accepts it. What the judge accepts depends on the mode:
//!
//! - [`Judge::Deduce`]: deduction (rules up to a level, loop closure, colouring and, unless
//!   switched off, probing; never search) finishes it with the planted loop. The rules are
//!   sound, so it has exactly that one solution, and a person can solve it without guessing;
//! - [`Judge::Unique`]: the complete search proves the planted loop the only solution (the
//!   `unique` module's incremental check, on what probing leaves when it finds a question
//!   hard, not the solver). A clue
//!   kept because its removal gave several solutions stays needed as more clues go (fewer
//!   clues never remove a solution), so one pass leaves a *minimal* puzzle: removing any
//!   orbit's clues gives several solutions;
//! - [`Judge::Graded`]: the solver with only the means of the grade step and the easier ones
//!   finishes it with the planted loop, needing no harder step.
//!
//! Each second solution search finds is kept as the list of cells whose clue it breaks. Once
//! all of those cells but some of an orbit's are blank, blanking that orbit would let the
//! second solution through: the orbit is kept without solving again.

use super::grade::GradeStep;
use super::unique::{UniqueCheck, Verdict};
use super::{Rng, Solution, same_loop};
use crate::board::Board;
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, Solver};
use std::sync::{Condvar, Mutex};

/// What the judge accepts (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// Deduction finishes the puzzle.
    Deduce,
    /// The planted loop is the only solution (the solver searches).
    Unique,
    /// Deduction up to this step finishes the puzzle (search too at [`GradeStep::Search`]).
    Graded(GradeStep),
}

/// The clue counts of the loop on a finished board, row-major.
pub(super) fn board_clues(board: &Board, rows: usize, cols: usize) -> Vec<u8> {
    let mut clues = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let sides = [
                board.h_line(r, c),
                board.h_line(r + 1, c),
                board.v_line(r, c),
                board.v_line(r, c + 1),
            ];
            clues.push(sides.iter().filter(|&&s| s).count() as u8);
        }
    }
    clues
}

/// The conflicts the uniqueness check may spend on its own: most questions take a few dozen;
/// the rare hard one (about 1 in 100 on 30x30 grids) is asked again after probing, which
/// leaves the check less to search. 1,000 sent three times as many to probing, each
/// costing 0.1 s of deduction on a 30x30.
const CHEAP_CONFLICTS: u64 = 3000;

/// The first budget of the check after probing; when it runs out, a fresh instance (see
/// `unique`) is asked with twice as much, and so on until it answers.
const PROBED_CONFLICTS: u64 = 5000;

/// A blanking run on one puzzle.
struct Blanking<'a> {
    judge: &'a mut Solver,
    mode: Judge,
    solution: &'a Solution,
    puzzle: Puzzle,
    /// Second solutions found: the cells whose (planted) clue each one breaks.
    others: Vec<Vec<usize>>,
    /// With [`Judge::Unique`]: the uniqueness questions (the judge is not asked).
    asker: Option<Asker<'a>>,
}

/// With [`Judge::Unique`]: one thread's means of asking whether the planted loop is the only
/// solution of a puzzle.
struct Asker<'a> {
    /// The judge's deduction with probing, for the hard questions.
    prober: &'a mut Solver,
    solution: &'a Solution,
    /// The incremental uniqueness check.
    unique: UniqueCheck,
    /// Fresh uniqueness checks made after one ran out of budget.
    tries: u32,
    /// The cells whose clue is settled (kept: `true`, blank: `false`), in order.
    settled: Vec<(usize, bool)>,
}

impl Blanking<'_> {
    /// Blanks `orbit` if the judge accepts the puzzle without it; returns whether it did.
    fn try_blank(&mut self, orbit: &[usize]) -> bool {
        if orbit.iter().all(|&c| self.puzzle.clues[c].is_none()) {
            return true;
        }
        if known_other(&self.others, &self.puzzle.clues, orbit).is_some() {
            return false;
        }
        let saved: Vec<Option<u8>> = orbit.iter().map(|&c| self.puzzle.clues[c].take()).collect();
        if let Some(asker) = &mut self.asker {
            let accepted = match asker.ask(&self.puzzle, orbit) {
                Verdict::Unique => true,
                Verdict::Second(counts) => {
                    self.others.push(broken_cells(self.solution, counts));
                    false
                }
                Verdict::Unknown => unreachable!("asked again until known"),
            };
            if !accepted {
                for (&c, clue) in orbit.iter().zip(saved) {
                    self.puzzle.clues[c] = clue;
                }
            }
            for &c in orbit {
                asker.settle(c, !accepted);
            }
            return accepted;
        }
        let attempt = self.judge.attempt(&self.puzzle);
        let accepted = match attempt.outcome {
            Outcome::Solved if same_loop(&attempt.board, self.solution) => match self.mode {
                Judge::Graded(step) => GradeStep::of(&attempt.report) <= step,
                Judge::Deduce | Judge::Unique => true,
            },
            Outcome::Several => {
                let second = self.judge.take_second();
                let other = if same_loop(&attempt.board, self.solution) {
                    second
                } else {
                    Some(attempt.board.clone())
                };
                if let Some(other) = other {
                    let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
                    let counts = board_clues(&other, rows, cols);
                    self.others.push(broken_cells(self.solution, counts));
                }
                false
            }
            _ => false,
        };
        self.judge.recycle(attempt.board);
        if !accepted {
            for (&c, clue) in orbit.iter().zip(saved) {
                self.puzzle.clues[c] = clue;
            }
        }
        accepted
    }

    /// Whether two side-by-side cells both hold the clue 0.
    fn adjacent_zeros(&self, cell: usize) -> bool {
        let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
        let clues = &self.puzzle.clues;
        if clues[cell] != Some(0) {
            return false;
        }
        let (r, c) = (cell / cols, cell % cols);
        (r > 0 && clues[cell - cols] == Some(0))
            || (r + 1 < rows && clues[cell + cols] == Some(0))
            || (c > 0 && clues[cell - 1] == Some(0))
            || (c + 1 < cols && clues[cell + 1] == Some(0))
    }
}

/// Whether a second solution remembered in `others` (the cells whose clue it breaks) meets
/// every clue of `clues` but those of `orbit`: then blanking `orbit` lets it through.
fn known_other(others: &[Vec<usize>], clues: &[Option<u8>], orbit: &[usize]) -> Option<usize> {
    others.iter().position(|cells| {
        cells
            .iter()
            .all(|c| clues[*c].is_none() || orbit.contains(c))
    })
}

/// The cells whose planted clue a second solution (its clue counts) breaks.
fn broken_cells(solution: &Solution, counts: Vec<u8>) -> Vec<usize> {
    let cols = solution.cols();
    counts
        .into_iter()
        .enumerate()
        .filter(|&(i, k)| k != solution.clue(i / cols, i % cols))
        .map(|(i, _)| i)
        .collect()
}

impl<'a> Asker<'a> {
    fn new(prober: &'a mut Solver, solution: &'a Solution) -> Asker<'a> {
        Asker {
            prober,
            solution,
            unique: UniqueCheck::new(solution, 0),
            tries: 0,
            settled: Vec::new(),
        }
    }

    /// Settles the clue of `cell` for every later question: kept (`present`) or blank.
    fn settle(&mut self, cell: usize, present: bool) {
        self.settled.push((cell, present));
        self.unique.settle(cell, present);
    }

    /// Whether the planted loop is the only solution of `puzzle` (`orbit` just blanked, and
    /// every solution of `puzzle` with the clues of `orbit` back is the planted loop). The
    /// uniqueness check first, alone, for at most [`CHEAP_CONFLICTS`] (deduction first cost
    /// more than it saved: most questions take a few dozen conflicts). Past that, probing
    /// deduces what it can (the prober) and the check searches the rest, on fresh instances
    /// with growing budgets until it answers. Never [`Verdict::Unknown`].
    fn ask(&mut self, puzzle: &Puzzle, orbit: &[usize]) -> Verdict {
        let mut verdict = self.deduce_then_check(puzzle, orbit, false, CHEAP_CONFLICTS);
        let mut budget = PROBED_CONFLICTS;
        while let Verdict::Unknown = verdict {
            verdict = self.deduce_then_check(puzzle, orbit, true, budget);
            if let Verdict::Unknown = verdict {
                self.tries += 1;
                let mut fresh = UniqueCheck::new(self.solution, self.tries);
                for &(c, present) in &self.settled {
                    fresh.settle(c, present);
                }
                self.unique = fresh;
                budget = budget.saturating_mul(2);
            }
        }
        verdict
    }

    /// The uniqueness check on `puzzle` (`orbit` just blanked), within `max_conflicts`; with
    /// `probe`, on what deduction with probing (the prober) left.
    fn deduce_then_check(
        &mut self,
        puzzle: &Puzzle,
        orbit: &[usize],
        probe: bool,
        max_conflicts: u64,
    ) -> Verdict {
        let clues = &puzzle.clues;
        if !probe {
            let present = |c: usize| clues[c].is_some();
            return self
                .unique
                .second(present, orbit, None, Some(max_conflicts));
        }
        let attempt = self.prober.attempt(puzzle);
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let verdict = match attempt.outcome {
            Outcome::Solved if same_loop(&attempt.board, self.solution) => Verdict::Unique,
            Outcome::Solved => Verdict::Second(board_clues(&attempt.board, rows, cols)),
            outcome => {
                // A contradiction cannot be (the planted loop is an answer): then the board
                // is not trusted and the check searches from scratch.
                let deduced =
                    (!matches!(outcome, Outcome::Contradiction(_))).then_some(&attempt.board);
                let present = |c: usize| clues[c].is_some();
                self.unique
                    .second(present, orbit, deduced, Some(max_conflicts))
            }
        };
        self.prober.recycle(attempt.board);
        verdict
    }
}

/// Where one orbit of the pass stands, in [`Shared`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Slot {
    /// Not asked yet, or to be asked again.
    Open,
    /// A thread is asking.
    Taken,
    /// Blankable: the planted loop is the only solution with the committed clues but this
    /// orbit's, the earlier uncommitted orbits blank but for those at these positions. It
    /// holds when those are kept (fewer clues than the committed ones then); otherwise the
    /// orbit is asked again.
    Blank(Vec<usize>),
    /// A second solution: the cells whose clue it breaks, each blank or of this orbit or of
    /// an earlier uncommitted one that the commit blanks (checked then; otherwise the orbit
    /// is asked again).
    Kept(Vec<usize>),
}

/// The state a parallel pass shares between its threads (see [`blank_parallel`]).
struct Shared<'o> {
    orbits: &'o [Vec<usize>],
    order: &'o [usize],
    /// The clues of the puzzle with every orbit before `next` committed.
    clues: Vec<Option<u8>>,
    /// The first position of `order` not committed.
    next: usize,
    /// Per position of `order`.
    slots: Vec<Slot>,
    /// Second solutions found (the cells whose clue each breaks).
    others: Vec<Vec<usize>>,
    /// The settled clues in commit order (every thread's check settles them in turn).
    settled: Vec<(usize, bool)>,
    /// The share of orbits kept lately (a moving average over about 10 commits).
    kept: f64,
}

impl Shared<'_> {
    fn orbit(&self, position: usize) -> &[usize] {
        &self.orbits[self.order[position]]
    }

    /// Commits the orbits from `next` on whose verdict holds, in order.
    fn commit(&mut self) {
        while self.next < self.order.len() {
            let k = self.next;
            let orbit = self.orbits[self.order[k]].as_slice();
            if orbit.iter().all(|&c| self.clues[c].is_none()) {
                self.next += 1;
                continue;
            }
            let kept = |p: usize| {
                let o = &self.orbits[self.order[p]];
                o.iter().any(|&c| self.clues[c].is_some())
            };
            let blank = match &self.slots[k] {
                Slot::Blank(present) if present.iter().all(|&p| kept(p)) => true,
                Slot::Kept(cells)
                    if cells
                        .iter()
                        .all(|c| self.clues[*c].is_none() || orbit.contains(c)) =>
                {
                    false
                }
                Slot::Taken => return,
                Slot::Open | Slot::Blank(_) | Slot::Kept(_) => {
                    if known_other(&self.others, &self.clues, orbit).is_none() {
                        // Asked again, now with exactly the committed clues.
                        self.slots[k] = Slot::Open;
                        return;
                    }
                    false
                }
            };
            for &c in orbit {
                if blank {
                    self.clues[c] = None;
                }
                self.settled.push((c, !blank));
            }
            self.kept = 0.9 * self.kept + if blank { 0.0 } else { 0.1 };
            self.next += 1;
        }
    }
}

/// How far past the first uncommitted orbit, per thread, a thread may ask ahead.
const AHEAD_PER_THREAD: usize = 2;

/// The blanking pass over `order` with [`Judge::Unique`] on one thread per asker, with the
/// same result as on one: each orbit is blanked exactly when the puzzle with the orbits before
/// it decided stays unique without it. A thread takes the first orbit not asked yet (up to
/// [`AHEAD_PER_THREAD`] per thread past the first uncommitted one) and asks with every earlier
/// uncommitted orbit blank too. A second solution that breaks such an orbit's clue is asked
/// again with that orbit's clues in, until the second solution breaks none of them (it holds
/// whatever they become) or the planted loop is unique (which holds when the orbits put back
/// in are kept: the planted loop unique with fewer clues is unique with more). Verdicts are
/// committed in order; one that does not hold is asked again.
fn blank_parallel(
    askers: Vec<Asker<'_>>,
    puzzle: &mut Puzzle,
    solution: &Solution,
    orbits: &[Vec<usize>],
    order: &[usize],
    others: Vec<Vec<usize>>,
) {
    let threads = askers.len();
    let cols = puzzle.cols;
    let mut position_of = vec![usize::MAX; puzzle.clues.len()];
    for (p, &o) in order.iter().enumerate() {
        for &c in &orbits[o] {
            position_of[c] = p;
        }
    }
    let shared = Mutex::new(Shared {
        orbits,
        order,
        clues: puzzle.clues.clone(),
        next: 0,
        slots: vec![Slot::Open; order.len()],
        others,
        settled: askers[0].settled.clone(),
        kept: 0.0,
    });
    let changed = Condvar::new();
    let work = |mut asker: Asker<'_>| {
        let mut question = puzzle.clone();
        let mut state = shared.lock().expect("no thread panics");
        loop {
            state.commit();
            if state.next == order.len() {
                changed.notify_all();
                return;
            }
            let end = order.len().min(state.next + AHEAD_PER_THREAD * threads);
            let Some(position) = (state.next..end).find(|&p| state.slots[p] == Slot::Open) else {
                state = changed.wait(state).expect("no thread panics");
                continue;
            };
            let orbit = state.orbit(position).to_vec();
            if orbit.iter().all(|&c| state.clues[c].is_none()) {
                state.slots[position] = Slot::Blank(Vec::new());
                continue;
            }
            // A second solution known to meet every committed clue but the orbit's.
            if let Some(i) = known_other(&state.others, &state.clues, &orbit) {
                state.slots[position] = Slot::Kept(state.others[i].clone());
                continue;
            }
            // The question: the committed clues, every earlier uncommitted orbit blank.
            let first = state.next;
            question.clues.clone_from(&state.clues);
            let mut present = Vec::new();
            for p in first..position {
                let blank = match state.slots[p] {
                    Slot::Blank(_) => true,
                    Slot::Kept(_) => false,
                    Slot::Open | Slot::Taken => state.kept < 0.5,
                };
                if blank {
                    for &c in state.orbit(p) {
                        question.clues[c] = None;
                    }
                } else {
                    present.push(p);
                }
            }
            for &c in &orbit {
                question.clues[c] = None;
            }
            state.slots[position] = Slot::Taken;
            let settled = state.settled[asker.settled.len()..].to_vec();
            drop(state);
            for (c, present) in settled {
                asker.settle(c, present);
            }
            let mut found = Vec::new();
            let slot = loop {
                match asker.ask(&question, &orbit) {
                    Verdict::Unique => break Slot::Blank(present),
                    Verdict::Second(counts) => {
                        let cells = broken_cells(solution, counts);
                        let back: Vec<usize> = cells
                            .iter()
                            .map(|&c| position_of[c])
                            .filter(|p| (first..position).contains(p) && !present.contains(p))
                            .collect();
                        found.push(cells.clone());
                        if back.is_empty() {
                            break Slot::Kept(cells);
                        }
                        for p in back {
                            present.push(p);
                            for &c in &orbits[order[p]] {
                                question.clues[c] = Some(solution.clue(c / cols, c % cols));
                            }
                        }
                    }
                    Verdict::Unknown => unreachable!("asked again until known"),
                }
            };
            state = shared.lock().expect("no thread panics");
            state.others.extend(found);
            state.slots[position] = slot;
            changed.notify_all();
        }
    };
    std::thread::scope(|scope| {
        let mut askers = askers.into_iter();
        let first = askers.next().expect("an asker");
        for asker in askers {
            scope.spawn(|| work(asker));
        }
        work(first);
    });
    puzzle.clues = shared.into_inner().expect("no thread panics").clues;
}

/// Blanks what clues it can of a puzzle that `judge` accepts with `solution`, an orbit at a
/// time (`probers`: the judge with probing, one per thread, for [`Judge::Unique`], whose pass
/// runs on as many threads, with the same result as on one). With `no_adjacent_zeros`, the
/// orbits holding a 0 beside another 0 go first, and `None` comes back when some such pair
/// cannot be broken.
pub fn blank_clues(
    (judge, probers): (&mut Solver, &mut [Solver]),
    mode: Judge,
    puzzle: &Puzzle,
    solution: &Solution,
    orbits: &[Vec<usize>],
    no_adjacent_zeros: bool,
    rng: &mut Rng,
) -> Option<Puzzle> {
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.index(i + 1));
    }
    let mut probers = probers.iter_mut();
    let first = (mode == Judge::Unique).then(|| probers.next().expect("a prober"));
    let mut run = Blanking {
        judge,
        mode,
        solution,
        puzzle: puzzle.clone(),
        others: Vec::new(),
        asker: first.map(|prober| Asker::new(prober, solution)),
    };
    if no_adjacent_zeros {
        for &o in &order {
            if orbits[o].iter().any(|&c| run.adjacent_zeros(c)) {
                run.try_blank(&orbits[o]);
            }
        }
        if (0..run.puzzle.clues.len()).any(|c| run.adjacent_zeros(c)) {
            return None;
        }
    }
    if run.asker.is_some() && probers.len() > 0 {
        let mut askers = vec![run.asker.take().expect("an asker")];
        askers.extend(probers.map(|prober| Asker::new(prober, solution)));
        let mut blanked = run.puzzle;
        blank_parallel(askers, &mut blanked, solution, orbits, &order, run.others);
        return Some(blanked);
    }
    for &o in &order {
        run.try_blank(&orbits[o]);
    }
    Some(run.puzzle)
}
