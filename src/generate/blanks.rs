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
    /// With [`Judge::Unique`]: the judge's deduction with probing.
    prober: Option<&'a mut Solver>,
    mode: Judge,
    solution: &'a Solution,
    puzzle: Puzzle,
    /// Second solutions found: the cells whose (planted) clue each one breaks.
    others: Vec<Vec<usize>>,
    /// With [`Judge::Unique`]: the incremental uniqueness check (the judge is not asked).
    unique: Option<UniqueCheck>,
    /// Fresh uniqueness checks made after one ran out of budget.
    tries: u32,
    /// With [`Judge::Unique`]: the cells whose clue is settled (kept: `true`, blank: `false`).
    settled: Vec<(usize, bool)>,
}

impl Blanking<'_> {
    /// Blanks `orbit` if the judge accepts the puzzle without it; returns whether it did.
    fn try_blank(&mut self, orbit: &[usize]) -> bool {
        if orbit.iter().all(|&c| self.puzzle.clues[c].is_none()) {
            return true;
        }
        let clues = &self.puzzle.clues;
        let known_other = self.others.iter().any(|cells| {
            cells
                .iter()
                .all(|c| clues[*c].is_none() || orbit.contains(c))
        });
        if known_other {
            return false;
        }
        let saved: Vec<Option<u8>> = orbit.iter().map(|&c| self.puzzle.clues[c].take()).collect();
        if self.unique.is_some() {
            let accepted = self.unique_without(orbit);
            if !accepted {
                for (&c, clue) in orbit.iter().zip(saved) {
                    self.puzzle.clues[c] = clue;
                }
            }
            for &c in orbit {
                self.settled.push((c, !accepted));
                let check = self.unique.as_mut().expect("a uniqueness check");
                check.settle(c, !accepted);
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
                    self.remember(board_clues(&other, rows, cols));
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

    /// With [`Judge::Unique`]: whether the planted loop is the only solution of the puzzle as
    /// it is (`orbit` just blanked). The uniqueness check first, alone, for at most
    /// [`CHEAP_CONFLICTS`] (deduction first cost more than it saved: most questions take a
    /// few dozen conflicts). Past that, probing deduces what it can (the prober) and the
    /// check searches the rest, on fresh instances with growing budgets until it answers. A
    /// second solution found is remembered.
    fn unique_without(&mut self, orbit: &[usize]) -> bool {
        let mut verdict = self.deduce_then_check(orbit, false, CHEAP_CONFLICTS);
        let mut budget = PROBED_CONFLICTS;
        while let Verdict::Unknown = verdict {
            verdict = self.deduce_then_check(orbit, true, budget);
            if let Verdict::Unknown = verdict {
                self.tries += 1;
                let mut fresh = UniqueCheck::new(self.solution, self.tries);
                for &(c, present) in &self.settled {
                    fresh.settle(c, present);
                }
                self.unique = Some(fresh);
                budget = budget.saturating_mul(2);
            }
        }
        match verdict {
            Verdict::Unique => true,
            Verdict::Second(counts) => {
                self.remember(counts);
                false
            }
            Verdict::Unknown => unreachable!("asked again until known"),
        }
    }

    /// The uniqueness check on the puzzle as it is (`orbit` just blanked), within
    /// `max_conflicts`; with `probe`, on what deduction with probing (the prober) left.
    fn deduce_then_check(&mut self, orbit: &[usize], probe: bool, max_conflicts: u64) -> Verdict {
        if !probe || self.prober.is_none() {
            let check = self.unique.as_mut().expect("a uniqueness check");
            let clues = &self.puzzle.clues;
            return check.second(|c| clues[c].is_some(), orbit, None, Some(max_conflicts));
        }
        let solver = self.prober.as_deref_mut().expect("a prober");
        let attempt = solver.attempt(&self.puzzle);
        let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
        let verdict = match attempt.outcome {
            Outcome::Solved if same_loop(&attempt.board, self.solution) => Verdict::Unique,
            Outcome::Solved => Verdict::Second(board_clues(&attempt.board, rows, cols)),
            outcome => {
                let check = self.unique.as_mut().expect("a uniqueness check");
                let clues = &self.puzzle.clues;
                // A contradiction cannot be (the planted loop is an answer): then the board
                // is not trusted and the check searches from scratch.
                let deduced =
                    (!matches!(outcome, Outcome::Contradiction(_))).then_some(&attempt.board);
                check.second(|c| clues[c].is_some(), orbit, deduced, Some(max_conflicts))
            }
        };
        solver.recycle(attempt.board);
        verdict
    }

    /// Keeps a second solution (its clue counts) as the cells whose clue it breaks.
    fn remember(&mut self, counts: Vec<u8>) {
        let cols = self.puzzle.cols;
        let cells = counts
            .into_iter()
            .enumerate()
            .filter(|&(i, k)| k != self.solution.clue(i / cols, i % cols))
            .map(|(i, _)| i)
            .collect();
        self.others.push(cells);
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

/// Blanks what clues it can of a puzzle that `judge` accepts with `solution`, an orbit at a
/// time (`prober`: the judge with probing, for [`Judge::Unique`]). With
/// `no_adjacent_zeros`, the orbits holding a 0 beside another 0 go first, and `None` comes
/// back when some such pair cannot be broken.
pub fn blank_clues(
    (judge, prober): (&mut Solver, Option<&mut Solver>),
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
    let mut run = Blanking {
        judge,
        prober,
        mode,
        solution,
        puzzle: puzzle.clone(),
        others: Vec::new(),
        unique: (mode == Judge::Unique).then(|| UniqueCheck::new(solution, 0)),
        tries: 0,
        settled: Vec::new(),
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
    for &o in &order {
        run.try_blank(&orbits[o]);
    }
    Some(run.puzzle)
}
