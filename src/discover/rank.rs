//! Ranking candidates on a corpus: how many more edges and puzzles the rule set decides with each one added (deduction only), and a greedy choice of the best few.
//!
//! The corpus is solved once with the current rule set, search and probing off (colouring as
//! asked), and every puzzle's board at the fixpoint is kept. A candidate can only change a
//! puzzle where it fires on that board (the fixpoint of the larger set is the smaller set's
//! fixpoint otherwise). To score it there, its conclusions are written on a copy of the
//! board and the set's engine propagates them, in turn, until it fires no more: the same
//! fixpoint as solving with the candidate in the set, without compiling a book per candidate.
//!
//! Selection is greedy and lazy: the candidate with the best score (puzzles finished, then
//! edges) is taken when its score is fresh; a stale score is recomputed first. After each
//! pick the puzzles it changed are solved again, and candidates that now fire where they did
//! not are rescored. Scores of the others are kept as they were: rules seldom gain from one
//! another, and rescoring all of them each round would cost as much as the first round.

use super::matcher::{Index, Lattice, Pattern, inside, slot_word};
use crate::board::{Board, CROSS, Contradiction, LINE, Reason, UNKNOWN};
use crate::deduce::{Deducer, DeducerSet};
use crate::engine::Engine;
use crate::geometry::{Kind, Pos};
use crate::puzzle::Puzzle;
use crate::rules::compile::{RuleBook, StageCache, Stages};
use crate::rules::examples::glyph_at;
use crate::rules::expand::expand_rule;
use crate::rules::{Glyph, Rule, RuleSet};
use crate::solve::{Outcome, SolveOptions, Solver};
use crate::verify::check_answer;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What adding a rule gains on a corpus; gains compare by puzzles first, then edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Gain {
    /// Puzzles finished that were not.
    pub puzzles: usize,
    /// Edges decided that were not.
    pub edges: usize,
}

impl Gain {
    /// Both gains together.
    pub fn plus(self, other: Gain) -> Gain {
        Gain {
            edges: self.edges + other.edges,
            puzzles: self.puzzles + other.puzzles,
        }
    }
}

/// Cells beyond the grid whose slot words a fixpoint keeps, on every side.
const RING: usize = 3;

/// A puzzle's board at the rule set's fixpoint, as the matcher reads it.
#[derive(Clone, Debug)]
struct Fixpoint {
    rows: usize,
    cols: usize,
    /// Edge states and clues on the (2R+1) x (2C+1) lattice: `Some(glyph)` or `None`.
    points: Vec<Option<Glyph>>,
    /// Points by glyph and kind, for anchoring (clues and lines).
    index: HashMap<(Glyph, u8), Vec<Pos>>,
    /// Clue cells by clue, with their slot words.
    cells: [Vec<(Pos, u32)>; 4],
    /// Every cell's clue and slot word, [`RING`] cells beyond the grid included, row by row.
    words: Vec<(Option<u8>, u32)>,
    /// Grid edges still unknown.
    unknown: usize,
    /// Whether deduction finished the puzzle.
    solved: bool,
}

fn kind_code(k: Kind) -> u8 {
    match k {
        Kind::Dot => 0,
        Kind::HEdge => 1,
        Kind::VEdge => 2,
        Kind::Cell => 3,
    }
}

impl Fixpoint {
    fn new(board: &Board, outcome: &Outcome) -> Fixpoint {
        let (rows, cols) = (board.rows(), board.cols());
        let (h, w) = (2 * rows as i32 + 1, 2 * cols as i32 + 1);
        let mut points = vec![None; (h * w) as usize];
        let mut index: HashMap<(Glyph, u8), Vec<Pos>> = HashMap::new();
        for y in 0..h {
            for x in 0..w {
                let at = Pos::new(y, x);
                let glyph = glyph_at(board, at);
                points[(y * w + x) as usize] = glyph;
                if let Some(g) = glyph
                    && g != Glyph::Cross
                {
                    index.entry((g, kind_code(at.kind()))).or_default().push(at);
                }
            }
        }
        let mut fixpoint = Fixpoint {
            rows,
            cols,
            points,
            index,
            cells: Default::default(),
            words: Vec::new(),
            unknown: board.unknown(),
            solved: matches!(outcome, Outcome::Solved),
        };
        let ring = RING as i32;
        let words: Vec<(Option<u8>, u32)> = (-ring..rows as i32 + ring)
            .flat_map(|r| (-ring..cols as i32 + ring).map(move |c| Pos::new(2 * r + 1, 2 * c + 1)))
            .map(|p| {
                let inside = (0..rows as i32).contains(&(p.y / 2))
                    && (0..cols as i32).contains(&(p.x / 2))
                    && p.y > 0
                    && p.x > 0;
                let clue = if inside { fixpoint.clue(p) } else { None };
                (clue, slot_word(&fixpoint, p))
            })
            .collect();
        fixpoint.words = words;
        for n in 0..4u8 {
            let cells: Vec<(Pos, u32)> = fixpoint
                .index
                .get(&(Glyph::Clue(n), kind_code(Kind::Cell)))
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .map(|&p| (p, slot_word(&fixpoint, p)))
                .collect();
            fixpoint.cells[n as usize] = cells;
        }
        fixpoint
    }

    fn at(&self, p: Pos) -> Option<Glyph> {
        self.points[(p.y * (2 * self.cols as i32 + 1) + p.x) as usize]
    }
}

impl Lattice for Fixpoint {
    fn rows(&self) -> usize {
        self.rows
    }
    fn cols(&self) -> usize {
        self.cols
    }
    fn edge(&self, at: Pos) -> Option<Glyph> {
        self.at(at)
    }
    fn clue(&self, at: Pos) -> Option<u8> {
        match self.at(at) {
            Some(Glyph::Clue(n)) => Some(n),
            _ => None,
        }
    }
    fn find(&self, glyph: Glyph, kind: Kind) -> Option<&[Pos]> {
        Some(
            self.index
                .get(&(glyph, kind_code(kind)))
                .map_or(&[][..], Vec::as_slice),
        )
    }
    fn clue_cells(&self, n: u8) -> Option<&[(Pos, u32)]> {
        self.cells.get(n as usize).map(Vec::as_slice)
    }
    fn cell(&self, at: Pos) -> (Option<u8>, u32) {
        let ring = RING as i32;
        let (r, c) = (
            (at.y - 1).div_euclid(2) + ring,
            (at.x - 1).div_euclid(2) + ring,
        );
        let w = self.cols as i32 + 2 * ring;
        if (0..self.rows as i32 + 2 * ring).contains(&r) && (0..w).contains(&c) {
            self.words[(r * w + c) as usize]
        } else {
            (None, slot_word(self, at))
        }
    }
}

/// A grid board read by the matcher (no index: every anchor is tried).
struct Live<'a>(&'a Board);

impl Lattice for Live<'_> {
    fn rows(&self) -> usize {
        self.0.rows()
    }
    fn cols(&self) -> usize {
        self.0.cols()
    }
    fn edge(&self, at: Pos) -> Option<Glyph> {
        match self.0.at(self.0.index(at.y as isize, at.x as isize)) {
            UNKNOWN => None,
            LINE => Some(Glyph::Line),
            _ => Some(Glyph::Cross),
        }
    }
    fn clue(&self, at: Pos) -> Option<u8> {
        self.0.clue((at.y / 2) as usize, (at.x / 2) as usize)
    }
}

/// A corpus solved by deduction with a rule set, ready to score candidates.
pub struct Scorer {
    puzzles: Vec<Puzzle>,
    /// The rule set, with the rules added since the start at its end.
    set: RuleSet,
    /// How many rules the set had at the start.
    base_rules: usize,
    book: RuleBook,
    options: SolveOptions,
    /// The book's matchers per (stride, single-loop rules on).
    cache: StageCache,
    /// Each puzzle's matchers, from the cache.
    stages: Vec<Arc<Stages>>,
    /// Each puzzle's board at the set's fixpoint.
    boards: Vec<Board>,
    /// The same, as the matcher reads it.
    fixpoints: Vec<Fixpoint>,
}

/// The options of a deduction-only solve (search and probing off).
pub fn deduction(colouring: bool) -> SolveOptions {
    SolveOptions {
        // Every deducer but trial (probing, search): what `rules ablate` measures too.
        switches: {
            let deduction = DeducerSet::ALL
                .without(Deducer::Probing)
                .without(Deducer::Search);
            if colouring {
                deduction
            } else {
                deduction.without(Deducer::Colouring)
            }
        },
        ..SolveOptions::default()
    }
}

impl Scorer {
    /// Solves every puzzle with the rule set (in parallel) and keeps the fixpoints.
    pub fn new(set: RuleSet, puzzles: Vec<Puzzle>, colouring: bool) -> Scorer {
        let options = deduction(colouring);
        let book = RuleBook::new(set.clone());
        let mut scorer = Scorer {
            puzzles,
            base_rules: set.rules.len(),
            set,
            book,
            options,
            cache: StageCache::new(),
            stages: Vec::new(),
            boards: Vec::new(),
            fixpoints: Vec::new(),
        };
        let all: Vec<usize> = (0..scorer.puzzles.len()).collect();
        let solved = scorer.solve(&all);
        (scorer.boards, scorer.fixpoints) = solved.into_iter().unzip();
        scorer.compile();
        scorer
    }

    /// Solves some puzzles afresh with the current set (in parallel).
    fn solve(&self, which: &[usize]) -> Vec<(Board, Fixpoint)> {
        which
            .par_iter()
            .map_init(
                || Solver::with_options(self.book.clone(), self.options),
                |solver, &i| {
                    let (board, outcome) = solver.solve(&self.puzzles[i]);
                    let fixpoint = Fixpoint::new(&board, &outcome);
                    (board, fixpoint)
                },
            )
            .collect()
    }

    /// Compiles the book's matchers for every board of the corpus.
    fn compile(&mut self) {
        self.cache.clear();
        let (cache, book) = (&mut self.cache, &self.book);
        self.stages = self
            .puzzles
            .iter()
            .zip(&self.boards)
            .map(|(p, b)| cache.get(book, b.stride(), book.single_loop_rules_apply(p)))
            .collect();
    }

    /// Puzzles finished and edges decided by the current set.
    pub fn totals(&self) -> (usize, usize) {
        let solved = self.fixpoints.iter().filter(|b| b.solved).count();
        let decided = self
            .puzzles
            .iter()
            .zip(&self.fixpoints)
            .map(|(p, b)| edge_count(p) - b.unknown)
            .sum();
        (solved, decided)
    }

    /// Number of puzzles.
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    /// The puzzles among `among`, not finished, on whose fixpoint a rule fires.
    fn firing(&self, pattern: &Pattern, among: &[usize]) -> Vec<usize> {
        among
            .iter()
            .copied()
            .filter(|&i| !self.fixpoints[i].solved && pattern.fires(&self.fixpoints[i]))
            .collect()
    }

    /// For each pattern of `which`, the puzzles among `among`, not finished, on whose
    /// fixpoint it fires (all patterns at once, puzzle by puzzle in parallel).
    fn firing_all(
        &self,
        patterns: &[Pattern],
        which: &[usize],
        among: &[usize],
    ) -> Vec<Vec<usize>> {
        let index = Index::new(patterns, which);
        let slot: HashMap<usize, usize> = which.iter().enumerate().map(|(k, &j)| (j, k)).collect();
        let per_puzzle: Vec<(usize, Vec<usize>)> = among
            .par_iter()
            .filter(|&&i| !self.fixpoints[i].solved)
            .map(|&i| (i, index.firing(patterns, &self.fixpoints[i])))
            .collect();
        let mut out = vec![Vec::new(); which.len()];
        for (i, fired) in per_puzzle {
            for j in fired {
                out[slot[&j]].push(i);
            }
        }
        out
    }

    /// What adding a rule gains on each of the `affected` puzzles (those it gains on).
    fn gains_on(&self, pattern: &Pattern, affected: &[usize]) -> Vec<(usize, Gain)> {
        let switches = self.book.deducers().and(self.options.switches);
        let mut out = Vec::new();
        for &i in affected {
            let mut board = self.boards[i].clone();
            let mut engine = Engine::new(&self.book, &self.stages[i]).with_switches(switches);
            if extend(&mut board, &self.fixpoints[i], &mut engine, pattern).is_err() {
                continue;
            }
            let before = &self.fixpoints[i];
            let solved = board.unknown() == 0 && check_answer(&board).is_ok();
            let gain = Gain {
                edges: before.unknown.saturating_sub(board.unknown()),
                puzzles: usize::from(solved && !before.solved),
            };
            if gain.edges > 0 {
                out.push((i, gain));
            }
        }
        out
    }

    /// Adds a rule to the set; returns the puzzles whose fixpoint changed. Each changed
    /// fixpoint is extended from the old one with the rule (as when scoring it), then the
    /// book is compiled anew with the rule in it.
    pub fn add(&mut self, rule: Rule) -> Vec<usize> {
        let pattern = Pattern::new(expand_rule(0, &rule));
        let all: Vec<usize> = (0..self.puzzles.len()).collect();
        let affected = self.firing(&pattern, &all);
        let switches = self.book.deducers().and(self.options.switches);
        let extended: Vec<(Board, Fixpoint)> = affected
            .par_iter()
            .map(|&i| {
                let mut board = self.boards[i].clone();
                let mut engine = Engine::new(&self.book, &self.stages[i]).with_switches(switches);
                let outcome = match extend(&mut board, &self.fixpoints[i], &mut engine, &pattern) {
                    Err(c) => Outcome::Contradiction(c),
                    Ok(()) if board.unknown() > 0 => Outcome::Stuck {
                        unknown: board.unknown(),
                    },
                    Ok(()) => match check_answer(&board) {
                        Ok(()) => Outcome::Solved,
                        Err(c) => Outcome::Contradiction(c),
                    },
                };
                let fixpoint = Fixpoint::new(&board, &outcome);
                (board, fixpoint)
            })
            .collect();
        for (&i, (board, fixpoint)) in affected.iter().zip(extended) {
            self.boards[i] = board;
            self.fixpoints[i] = fixpoint;
        }
        self.set.rules.push(rule);
        self.book = RuleBook::new(self.set.clone());
        self.compile();
        affected
    }
}

impl Scorer {
    /// Puzzles deduction has not finished yet.
    fn unsolved(&self) -> Vec<usize> {
        (0..self.puzzles.len())
            .filter(|&i| !self.fixpoints[i].solved)
            .collect()
    }

    /// What adding a rule gains, by solving every unfinished puzzle afresh with it in the
    /// set (one thread): for rules with colour letters, which the plain matcher cannot read.
    pub fn gain_full(&self, rule: &Rule) -> Gain {
        let mut set = self.set.clone();
        set.rules.push(rule.clone());
        let mut solver = Solver::with_options(RuleBook::new(set), self.options);
        let mut gain = Gain::default();
        for i in self.unsolved() {
            let (board, outcome) = solver.solve(&self.puzzles[i]);
            gain.edges += self.fixpoints[i].unknown.saturating_sub(board.unknown());
            gain.puzzles += usize::from(matches!(outcome, Outcome::Solved));
        }
        gain
    }

    /// Adds a rule to the set, solving every unfinished puzzle afresh with it (in parallel).
    pub fn add_full(&mut self, rule: Rule) {
        self.set.rules.push(rule);
        self.book = RuleBook::new(self.set.clone());
        let which = self.unsolved();
        let solved = self.solve(&which);
        for (&i, (board, fixpoint)) in which.iter().zip(solved) {
            self.boards[i] = board;
            self.fixpoints[i] = fixpoint;
        }
        self.compile();
    }

    /// The rule set the scorer started from, without the rules added since.
    pub fn set_without_picks(&self) -> RuleSet {
        let mut set = self.set.clone();
        set.rules.truncate(self.base_rules);
        set
    }

    /// Puzzles finished and edges decided on the corpus by `set` solved from scratch
    /// (deduction only, as the scorer solves; in parallel).
    pub fn totals_with(&self, set: RuleSet) -> (usize, usize) {
        let book = RuleBook::new(set);
        self.puzzles
            .par_iter()
            .map_init(
                || Solver::with_options(book.clone(), self.options),
                |solver, p| {
                    let (board, outcome) = solver.solve(p);
                    let solved = usize::from(matches!(outcome, Outcome::Solved));
                    (solved, edge_count(p) - board.unknown())
                },
            )
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }
}

/// Drops picks until `keep` remain, each time the one whose loss (puzzles, then edges the
/// set with every remaining pick finishes without it) is least, solving the corpus afresh for
/// each; returns the picks kept, in their order, each with its loss in the final set as its
/// gain. Rules picked greedily for their edges are often made redundant by later picks:
/// picking a few more than wanted and pruning back trades them for rules that carry weight.
/// `tick` is called with the picks dropped so far.
pub fn prune(
    scorer: &Scorer,
    candidates: &[Rule],
    mut picks: Vec<Pick>,
    keep: usize,
    tick: &dyn Fn(usize),
) -> Vec<Pick> {
    let with = |picks: &[Pick], skip: Option<usize>| {
        let mut set = scorer.set_without_picks();
        set.rules.extend(
            picks
                .iter()
                .enumerate()
                .filter(|&(k, _)| Some(k) != skip)
                .map(|(_, p)| candidates[p.candidate].clone()),
        );
        scorer.totals_with(set)
    };
    let mut dropped = 0;
    loop {
        let (solved, decided) = with(&picks, None);
        let losses: Vec<Gain> = (0..picks.len())
            .map(|k| {
                let (s, d) = with(&picks, Some(k));
                Gain {
                    puzzles: solved.saturating_sub(s),
                    edges: decided.saturating_sub(d),
                }
            })
            .collect();
        if picks.len() <= keep {
            for (p, loss) in picks.iter_mut().zip(losses) {
                p.gain = loss;
            }
            return picks;
        }
        // The least loss; among equals the latest pick.
        let weakest = (0..picks.len())
            .min_by_key(|&k| (losses[k], Reverse(k)))
            .expect("more picks than kept");
        picks.remove(weakest);
        dropped += 1;
        tick(dropped);
    }
}

/// Alternates a rule (by its variants, through the plain matcher) with an engine's
/// propagation until the rule fires no more. `fixpoint` is the board as the matcher reads it
/// at the start; after that, the rule can only fire anew next to edges decided since.
fn extend<const C: bool>(
    board: &mut Board,
    fixpoint: &Fixpoint,
    engine: &mut Engine<'_, C>,
    pattern: &Pattern,
) -> Result<(), Contradiction> {
    let variants = &pattern.variants;
    let mut fired = pattern.firings(fixpoint);
    while !fired.is_empty() {
        let head = board.trail().len();
        for (v, anchor) in fired {
            for f in &variants[v].conclusion {
                let p = anchor + f.at;
                if !inside(&Live(board), p) {
                    continue;
                }
                let i = board.index(p.y as isize, p.x as isize);
                if board.at(i) == UNKNOWN {
                    let state = if f.glyph == Glyph::Line { LINE } else { CROSS };
                    board.set_edge(i, state, Reason::Given)?;
                }
            }
        }
        engine.propagate(board, head)?;
        let near: Vec<Pos> = board.trail()[head..]
            .iter()
            .map(|&i| {
                let (y, x) = board.point(i as usize);
                Pos::new(y as i32, x as i32)
            })
            .collect();
        fired = pattern.firings_near(&Live(board), &near);
    }
    Ok(())
}

/// Grid edges of a puzzle.
fn edge_count(p: &Puzzle) -> usize {
    (p.rows + 1) * p.cols + p.rows * (p.cols + 1)
}

/// One pick of the greedy selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index of the candidate.
    pub candidate: usize,
    /// What it gained when it was picked.
    pub gain: Gain,
}

/// Idle candidates are checked for firing anew every this many picks (checking after every
/// pick would cost more than all the scoring).
const WAKE_EVERY: usize = 4;

/// Idle candidates that fire on a puzzle of `unwoken` are woken: pushed as stale with an
/// unknown score, so that they are rescored first.
fn wake(
    scorer: &Scorer,
    patterns: &[Pattern],
    unwoken: &mut BTreeSet<usize>,
    idle: &mut BTreeSet<usize>,
    heap: &mut BinaryHeap<(Gain, usize, Reverse<usize>)>,
    round: usize,
) {
    let changed: Vec<usize> = std::mem::take(unwoken).into_iter().collect();
    if changed.is_empty() {
        return;
    }
    let idle_list: Vec<usize> = idle.iter().copied().collect();
    let firing = scorer.firing_all(patterns, &idle_list, &changed);
    let woken: Vec<usize> = idle_list
        .into_iter()
        .zip(firing)
        .filter(|(_, on)| !on.is_empty())
        .map(|(j, _)| j)
        .collect();
    for j in woken {
        idle.remove(&j);
        let unknown = Gain {
            puzzles: usize::MAX,
            edges: usize::MAX,
        };
        heap.push((unknown, round.saturating_sub(1), Reverse(j)));
    }
}

/// A candidate's gain puzzle by puzzle, as of the round it was scored in.
#[derive(Clone, Debug, Default)]
struct Ledger {
    /// The round (number of picks made) it was scored in.
    round: usize,
    /// (puzzle, gain) wherever it gains.
    gains: Vec<(usize, Gain)>,
}

impl Ledger {
    fn total(&self) -> Gain {
        self.gains
            .iter()
            .fold(Gain::default(), |a, &(_, g)| a.plus(g))
    }
}

/// Picks up to `keep` candidates greedily, each the best on top of the set and the picks
/// before it; stops early when no candidate gains anything. A candidate is only picked when
/// `accept` says yes (it is dropped otherwise). `tick` is called with the number of
/// candidates scored so far and of picks made.
///
/// Each candidate's gain is kept puzzle by puzzle; rescoring a stale one only revisits the
/// puzzles whose fixpoint a pick changed since it was scored (elsewhere nothing changed).
pub fn select(
    scorer: &mut Scorer,
    candidates: &[Rule],
    keep: usize,
    accept: &dyn Fn(usize) -> bool,
    tick: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Pick> {
    let patterns: Vec<Pattern> = candidates
        .iter()
        .map(|r| Pattern::new(expand_rule(0, r)))
        .collect();
    let all: Vec<usize> = (0..scorer.len()).collect();
    let scored = AtomicUsize::new(0);
    // First round: every candidate against the set as it is, on the puzzles it fires on.
    let firing = scorer.firing_all(&patterns, &(0..patterns.len()).collect::<Vec<_>>(), &all);
    let mut ledgers: Vec<Ledger> = patterns
        .par_iter()
        .zip(&firing)
        .map(|(p, on)| {
            let gains = scorer.gains_on(p, on);
            let n = scored.fetch_add(1, Ordering::Relaxed) + 1;
            tick(n, 0);
            Ledger { round: 0, gains }
        })
        .collect();
    // The round in which each puzzle's fixpoint last changed.
    let mut changed_in = vec![0usize; scorer.len()];
    // (score, round it was computed in, candidate): the best score first, a fresh one before
    // a stale one, then the earlier candidate. `round` counts the picks made. Candidates
    // that gain nothing wait in `idle` until a pick changes a puzzle they fire on.
    let mut heap: BinaryHeap<(Gain, usize, Reverse<usize>)> = BinaryHeap::new();
    let mut idle: BTreeSet<usize> = BTreeSet::new();
    for (i, l) in ledgers.iter().enumerate() {
        let g = l.total();
        if g.edges > 0 {
            heap.push((g, 0, Reverse(i)));
        } else {
            idle.insert(i);
        }
    }
    let mut round = 0;
    let mut picks = Vec::new();
    let batch = 2 * rayon::current_num_threads();
    // Puzzles changed since idle candidates were last checked on them.
    let mut unwoken: BTreeSet<usize> = BTreeSet::new();
    while picks.len() < keep {
        // Rescore the stale candidates on top, a few at a time in parallel, until the best
        // score is a fresh one.
        let mut stale = Vec::new();
        while stale.len() < batch && heap.peek().is_some_and(|&(_, at, _)| at != round) {
            let Some((_, _, Reverse(i))) = heap.pop() else {
                break;
            };
            stale.push(i);
        }
        if !stale.is_empty() {
            let rescored: Vec<(usize, Ledger)> = stale
                .into_par_iter()
                .map(|i| {
                    let old = &ledgers[i];
                    let redo: Vec<usize> = (0..scorer.len())
                        .filter(|&p| changed_in[p] > old.round)
                        .collect();
                    let mut gains: Vec<(usize, Gain)> = old
                        .gains
                        .iter()
                        .copied()
                        .filter(|&(p, _)| changed_in[p] <= old.round)
                        .collect();
                    gains
                        .extend(scorer.gains_on(&patterns[i], &scorer.firing(&patterns[i], &redo)));
                    gains.sort();
                    (i, Ledger { round, gains })
                })
                .collect();
            for (i, ledger) in rescored {
                let g = ledger.total();
                ledgers[i] = ledger;
                if g.edges > 0 {
                    heap.push((g, round, Reverse(i)));
                } else {
                    idle.insert(i);
                }
            }
            continue;
        }
        let Some((gain, _, Reverse(i))) = heap.pop() else {
            break;
        };
        if !accept(i) {
            continue;
        }
        picks.push(Pick { candidate: i, gain });
        let changed = scorer.add(candidates[i].clone());
        round += 1;
        for &p in &changed {
            changed_in[p] = round;
        }
        tick(scored.load(Ordering::Relaxed), picks.len());
        unwoken.extend(changed);
        if round % WAKE_EVERY == 0 {
            wake(scorer, &patterns, &mut unwoken, &mut idle, &mut heap, round);
        }
        if heap.is_empty() {
            // Nothing gains now: whatever the last picks changed may wake something still.
            wake(scorer, &patterns, &mut unwoken, &mut idle, &mut heap, round);
        }
    }
    picks
}

/// Picks up to `keep` candidates greedily like [`select`], scoring each by solving the
/// unfinished puzzles afresh with it ([`Scorer::gain_full`]): slower, but it reads colour
/// letters. Lazy: a stale score on top is recomputed before it is trusted.
pub fn select_full(
    scorer: &mut Scorer,
    candidates: &[Rule],
    keep: usize,
    accept: &dyn Fn(usize) -> bool,
    tick: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Pick> {
    let scored = AtomicUsize::new(0);
    let first: Vec<Gain> = candidates
        .par_iter()
        .map(|r| {
            let g = scorer.gain_full(r);
            tick(scored.fetch_add(1, Ordering::Relaxed) + 1, 0);
            g
        })
        .collect();
    let mut heap: BinaryHeap<(Gain, usize, Reverse<usize>)> = first
        .into_iter()
        .enumerate()
        .filter(|(_, g)| g.edges > 0)
        .map(|(i, g)| (g, 0, Reverse(i)))
        .collect();
    let (mut round, mut picks) = (0, Vec::new());
    let batch = 2 * rayon::current_num_threads();
    while picks.len() < keep {
        let mut stale = Vec::new();
        while stale.len() < batch && heap.peek().is_some_and(|&(_, at, _)| at != round) {
            let Some((_, _, Reverse(i))) = heap.pop() else {
                break;
            };
            stale.push(i);
        }
        if !stale.is_empty() {
            let rescored: Vec<(usize, Gain)> = stale
                .into_par_iter()
                .map(|i| (i, scorer.gain_full(&candidates[i])))
                .collect();
            for (i, g) in rescored {
                if g.edges > 0 {
                    heap.push((g, round, Reverse(i)));
                }
            }
            continue;
        }
        let Some((gain, _, Reverse(i))) = heap.pop() else {
            break;
        };
        if !accept(i) {
            continue;
        }
        picks.push(Pick { candidate: i, gain });
        scorer.add_full(candidates[i].clone());
        round += 1;
        tick(scored.load(Ordering::Relaxed), picks.len());
    }
    picks
}
