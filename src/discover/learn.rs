//! Rules learned from probes (`slink rules discover --from-probes`): the short probes that finish stuck puzzles, turned into local rules.
//!
//! Each puzzle of a corpus is solved with probing on (search off), keeping the reasons of
//! every edge and, for each probe that met a contradiction, its chain (the shortest among
//! the next candidates, as `explain` picks them). A probe whose failing way took at most
//! `max_steps` steps is a candidate rule: its *window* is the box of cells holding the probed
//! edge, the chain's edges, the place it broke and the premises of the chain's rules at their
//! places (capped at the `windows` sizes, 3x4 by default and at most 4x4 or 3x5, the largest
//! whose 60 and 58 edges, exits included, fit in a `u64`; when it is over the cap or not
//! local, each box of a cap's size whose window holds the probed edge), and its premise is
//! every fact of the window (clues, lines and crosses; edges beyond the grid are crosses)
//! decided before the probe. The conclusion is the probed edge the other way. With colour
//! facts (`colours` above 0), the relations the colour store held before the probe between
//! the cells of the window's block (the box and the ring around it) are premises too, used
//! only when lines, crosses and clues alone do not force the conclusion.
//!
//! The premise is kept only when the window's local laws (those of `rules check`: clue
//! counts, dot degree 0 or 2 and, marked `assumes single-loop`, no cycle inside the window)
//! force the conclusion: two searches that propagate ([`Laws::forces_with`]: one assignment
//! matches, none with the probed edge the other way; a search that spends its branch budget
//! counts as "not forced"). It is then minimised (facts dropped, farthest from the probed edge
//! first, while the laws still force it), the box cut down to the smallest box whose window
//! holds what is left and whose laws still force it, the conclusion widened to everything
//! those laws force, and the candidate put in canonical form under the 8 symmetries of the
//! square, so that the same rule harvested twice counts once. The rest of the pipeline is
//! discovery's: novelty, examples, proof and ranking on the corpus.
//!
//! With `every_probe`, the probes are not those a solve with probing makes but every probe
//! at the point where deduction alone stops: each puzzle is solved with probing and search
//! off, and each unknown edge of the board it leaves stuck is tried both ways (the board's
//! decided edges given, then that edge, then deduction); each way that meets a
//! contradiction is harvested as above, with the stuck board's colour store. A solve with
//! probing harvests one probe per step (the shortest failure among the next candidates),
//! which a window often cannot decide; at the stuck point some other probe often can.

use super::enumerate::{Candidate, edge_facts, premise_facts};
use super::laws::{Edges, Laws, Placement};
use super::window::Window;
use crate::board::colours::Colouring;
use crate::board::{Board, CROSS, LINE, Reason, UNKNOWN};
use crate::deduce::{Deducer, DeducerSet};
use crate::geometry::{Pos, Symmetry};
use crate::puzzle::Puzzle;
use crate::rules::compile::RuleBook;
use crate::rules::{Fact, RuleSet};
use crate::solve::{Outcome, SolveOptions, Solver};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// What to harvest.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// The longest chain (edges the failing way decided before it broke) harvested.
    pub max_steps: usize,
    /// The largest windows (cells down and across, either way round): a chain's box is
    /// taken when it fits one of them; else each box of each of their sizes whose window
    /// holds the probed edge is tried.
    pub windows: Vec<(usize, usize)>,
    /// Harvest rounds: each after the first solves the corpus again with the picks of the
    /// rounds before added.
    pub rounds: usize,
    /// The most colour facts a premise may keep (0: lines, crosses and clues only). With
    /// colour facts, the relations the colour store held before the probe between the cells
    /// of the window's block are premises too.
    pub colours: usize,
    /// Harvest every probe at the point where deduction alone stops (each unknown edge of
    /// the stuck board tried both ways) instead of the probes a solve with probing makes.
    pub every_probe: bool,
}

/// What the harvest saw.
#[derive(Clone, Debug, Default)]
pub struct Harvest {
    /// Puzzles that needed probing.
    pub puzzles: usize,
    /// Probes that decided their edge by a contradiction.
    pub probes: usize,
    /// Of those, the ones whose chain is at most `max_steps` long.
    pub short: usize,
    /// Of those, the ones whose window is larger than the cap.
    pub too_big: usize,
    /// Of the rest, the ones the window's local laws decide (each a candidate).
    pub local: usize,
    /// Distinct candidates after minimising and canonical form, with how many probes gave each.
    pub candidates: Vec<(Candidate, usize)>,
}

impl Harvest {
    /// Adds another round's counts, and its candidates to the pool (most often harvested
    /// first, ties in canonical order).
    pub fn absorb(&mut self, other: Harvest) {
        self.puzzles += other.puzzles;
        self.probes += other.probes;
        self.short += other.short;
        self.too_big += other.too_big;
        self.local += other.local;
        let mut counts: BTreeMap<Candidate, usize> = self.candidates.drain(..).collect();
        for (c, n) in other.candidates {
            *counts.entry(c).or_default() += n;
        }
        self.candidates = counts.into_iter().collect();
        self.candidates
            .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    }
}

/// Laws of every box shape, built once (without tables: the premises are large).
struct LawCache(Mutex<HashMap<(usize, usize, bool), Arc<Laws>>>);

impl LawCache {
    fn get(&self, rows: usize, cols: usize, single_loop: bool) -> Option<Arc<Laws>> {
        let mut map = self.0.lock().expect("no panic holding it");
        if let Some(l) = map.get(&(rows, cols, single_loop)) {
            return Some(l.clone());
        }
        let laws = Arc::new(Laws::searching(Window::new(rows, cols)?, single_loop));
        map.insert((rows, cols, single_loop), laws.clone());
        Some(laws)
    }
}

/// A premise on the whole board's lattice: the facts decided before a probe, and the clues.
#[derive(Clone, Debug)]
struct Local {
    /// Edge facts (grid lattice), lines true.
    edges: Vec<(Pos, bool)>,
    /// Clues (grid lattice).
    clues: Vec<(Pos, u8)>,
    /// Colour facts between block cells (grid lattice): on opposite sides when true.
    colours: Vec<(Pos, Pos, bool)>,
    /// The probed edge and the state that follows (line true).
    conclusion: (Pos, bool),
}

/// Solves every puzzle with probing on and harvests the candidates of its short probes.
pub fn harvest(
    set: &RuleSet,
    puzzles: &[Puzzle],
    options: &LearnOptions,
    tick: &(dyn Fn() + Sync),
) -> Harvest {
    let book = RuleBook::new(set.clone());
    let solve = SolveOptions {
        switches: DeducerSet::ALL.without(Deducer::Search),
        reasons: true,
        ..SolveOptions::default()
    };
    let solve = if options.every_probe {
        SolveOptions {
            switches: solve.switches.without(Deducer::Probing),
            ..solve
        }
    } else {
        solve
    };
    let mut first = Solver::with_options(book, solve);
    first.set_shortest_probes(true);
    let laws = LawCache(Mutex::new(HashMap::new()));
    let found: Vec<(Harvest, Vec<Candidate>)> = puzzles
        .par_iter()
        .map_init(
            || first.sibling(),
            |solver, puzzle| {
                let out = if options.every_probe {
                    harvest_stuck(solver, puzzle, options, &laws)
                } else {
                    let attempt = solver.attempt(puzzle);
                    let out = harvest_board(solver.book(), puzzle, &attempt.board, options, &laws);
                    solver.recycle(attempt.board);
                    out
                };
                tick();
                out
            },
        )
        .collect();
    let mut report = Harvest::default();
    let mut counts: BTreeMap<Candidate, usize> = BTreeMap::new();
    for (h, list) in found {
        report.puzzles += h.puzzles;
        report.probes += h.probes;
        report.short += h.short;
        report.too_big += h.too_big;
        report.local += h.local;
        for c in list {
            *counts.entry(c).or_default() += 1;
        }
    }
    report.candidates = counts.into_iter().collect();
    // Most often harvested first (ties in canonical order).
    report
        .candidates
        .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    report
}

/// The candidates of one solved (or stuck) board's probes.
fn harvest_board(
    book: &RuleBook,
    puzzle: &Puzzle,
    board: &Board,
    options: &LearnOptions,
    laws: &LawCache,
) -> (Harvest, Vec<Candidate>) {
    let mut h = Harvest::default();
    let mut out = Vec::new();
    let notes = board.probe_notes();
    if notes.is_empty() {
        return (h, out);
    }
    h.puzzles = 1;
    let mut position = vec![u32::MAX; board.len()];
    for (k, &t) in board.trail().iter().enumerate() {
        position[t as usize] = k as u32;
    }
    let point = |i: u32| {
        let (y, x) = board.point(i as usize);
        Pos::new(y as i32, x as i32)
    };
    // The colour store as it stood before each probe: the final store with the relations
    // made later taken back (notes are in trail order, so from the last one back).
    let mut store = if options.colours > 0 {
        board.colouring().cloned()
    } else {
        None
    };
    for note in notes.iter().rev() {
        if let Some(store) = store.as_mut() {
            store.undo_to(note.at as usize);
        }
        let store = store.as_ref();
        let Some(contradiction) = note.contradiction else {
            continue;
        };
        if note.tried == 0 {
            continue;
        }
        h.probes += 1;
        if note.chain.len() > options.max_steps {
            continue;
        }
        h.short += 1;
        let probe = point(note.edge);
        let spot = Pos::new(contradiction.y, contradiction.x);
        let at = Probe {
            at: note.at,
            edge: probe,
            tried: note.tried,
            chain: &note.chain,
            broke: spot,
        };
        if let Some(c) = learn_probe(
            book, puzzle, board, store, &position, &at, options, laws, &mut h,
        ) {
            h.local += 1;
            out.push(c);
        }
    }
    (h, out)
}

/// A probe that met a contradiction: where its edge stands on the trail, the edge (lattice
/// point), the state tried, the edges that way decided with their reasons, and where it broke.
struct Probe<'a> {
    at: u32,
    edge: Pos,
    tried: u8,
    chain: &'a [(u32, Reason)],
    broke: Pos,
}

/// The candidate of one short probe, when some window's laws decide it: the chain's box when
/// it fits a cap, else each box of a cap's size whose window holds the probed edge. `board`
/// holds the facts decided before the probe at trail positions below `probe.at`.
#[allow(clippy::too_many_arguments)]
fn learn_probe(
    book: &RuleBook,
    puzzle: &Puzzle,
    board: &Board,
    store: Option<&Colouring>,
    position: &[u32],
    probe: &Probe,
    options: &LearnOptions,
    laws: &LawCache,
    h: &mut Harvest,
) -> Option<Candidate> {
    let point = |i: u32| {
        let (y, x) = board.point(i as usize);
        Pos::new(y as i32, x as i32)
    };
    let mut points = vec![probe.edge, probe.broke];
    for &(e, reason) in probe.chain {
        points.push(point(e));
        if let Reason::Rule { variant, anchor } = reason {
            let at = point(anchor);
            let v = &book.variants[variant as usize];
            points.extend(v.premise.iter().map(|f| f.at + at));
        }
    }
    let (lo, hi) = crate::geometry::bounds(points.iter().copied()).expect("some points");
    let (r0, r1) = (lo.y.div_euclid(2), (hi.y + 1).div_euclid(2));
    let (c0, c1) = (lo.x.div_euclid(2), (hi.x + 1).div_euclid(2));
    let (rows, cols) = ((r1 - r0) as usize, (c1 - c0) as usize);
    let (small, large) = (rows.min(cols), rows.max(cols));
    let fits = options
        .windows
        .iter()
        .any(|&(r, c)| small <= r.min(c) && large <= r.max(c));
    let read = |origin: Pos, rows: usize, cols: usize| {
        local_facts(
            board,
            puzzle,
            store,
            position,
            probe.at,
            probe.edge,
            probe.tried,
            origin,
            rows,
            cols,
        )
    };
    let learned = if fits {
        read(Pos::new(2 * r0, 2 * c0), rows, cols)
            .and_then(|(local, origin)| learn(&local, origin, rows, cols, laws, options.colours))
    } else {
        h.too_big += 1;
        None
    };
    // Else the windows of the cap's size around the probed edge, each way round.
    learned.or_else(|| {
        let mut sizes = Vec::new();
        for &(r, c) in &options.windows {
            sizes.push((r, c));
            if r != c {
                sizes.push((c, r));
            }
        }
        for (rows, cols) in sizes {
            // Box corners (in cells) whose window holds the probed edge.
            let (py, px) = (probe.edge.y.div_euclid(2), probe.edge.x.div_euclid(2));
            for r0 in py - rows as i32..=py {
                for c0 in px - cols as i32..=px {
                    let found =
                        read(Pos::new(2 * r0, 2 * c0), rows, cols).and_then(|(local, origin)| {
                            learn(&local, origin, rows, cols, laws, options.colours)
                        });
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
        None
    })
}

/// With [`LearnOptions::every_probe`]: the candidates of every probe at the point where
/// deduction alone stops. The puzzle is solved with probing and search off; on the board it
/// leaves stuck, each unknown edge is tried both ways (the stuck board's decided edges given,
/// then that edge, then deduction), and each way that meets a contradiction within
/// `max_steps` edges is a probe as the prober's would be. The colour store is the stuck
/// board's.
fn harvest_stuck(
    solver: &mut Solver,
    puzzle: &Puzzle,
    options: &LearnOptions,
    laws: &LawCache,
) -> (Harvest, Vec<Candidate>) {
    let mut h = Harvest::default();
    let mut out = Vec::new();
    let attempt = solver.attempt(puzzle);
    if !matches!(attempt.outcome, Outcome::Stuck { .. }) {
        solver.recycle(attempt.board);
        return (h, out);
    }
    h.puzzles = 1;
    let stuck = attempt.board;
    let store = if options.colours > 0 {
        stuck.colouring().cloned()
    } else {
        None
    };
    let (h2, w2) = (2 * puzzle.rows as isize, 2 * puzzle.cols as isize);
    let mut givens = Vec::new();
    for &t in stuck.trail() {
        let (y, x) = stuck.point(t as usize);
        if (0..=h2).contains(&y) && (0..=w2).contains(&x) {
            givens.push((y as usize, x as usize, stuck.at(t as usize)));
        }
    }
    let mut open = Vec::new();
    for y in 0..=h2 {
        for x in 0..=w2 {
            if (y + x) % 2 == 1 && stuck.at(stuck.index(y, x)) == UNKNOWN {
                open.push((y as usize, x as usize));
            }
        }
    }
    for &(y, x) in &open {
        for tried in [LINE, CROSS] {
            givens.push((y, x, tried));
            let attempt = solver.attempt_from(puzzle, &givens);
            givens.pop();
            let board = attempt.board;
            if let Outcome::Contradiction(c) = attempt.outcome {
                let i = board.index(y as isize, x as isize);
                let mut position = vec![u32::MAX; board.len()];
                for (k, &t) in board.trail().iter().enumerate() {
                    position[t as usize] = k as u32;
                }
                // A mark that broke a clue or a dot at once never reached the trail.
                if position[i] != u32::MAX {
                    h.probes += 1;
                    let at = position[i];
                    let chain = board.trail_with_reasons(at as usize + 1);
                    if chain.len() <= options.max_steps {
                        h.short += 1;
                        let probe = Probe {
                            at,
                            edge: Pos::new(y as i32, x as i32),
                            tried,
                            chain: &chain,
                            broke: Pos::new(c.y, c.x),
                        };
                        if let Some(c) = learn_probe(
                            solver.book(),
                            puzzle,
                            &board,
                            store.as_ref(),
                            &position,
                            &probe,
                            options,
                            laws,
                            &mut h,
                        ) {
                            h.local += 1;
                            out.push(c);
                        }
                    }
                }
            }
            solver.recycle(board);
        }
    }
    (h, out)
}

/// The facts of a `rows` x `cols` box's window with its top-left dot at `origin`, decided
/// before trail position `at`, and the clues of its cells; `None` when the window does not
/// hold the probed edge.
#[allow(clippy::too_many_arguments)]
fn local_facts(
    board: &Board,
    puzzle: &Puzzle,
    store: Option<&Colouring>,
    position: &[u32],
    at: u32,
    probe: Pos,
    tried: u8,
    origin: Pos,
    rows: usize,
    cols: usize,
) -> Option<(Local, Pos)> {
    let window = Window::new(rows, cols)?;
    window.edge_index(probe - origin)?;
    let (h2, w2) = (2 * puzzle.rows as i32, 2 * puzzle.cols as i32);
    let on_grid = |p: Pos| (0..=h2).contains(&p.y) && (0..=w2).contains(&p.x);
    let mut local = Local {
        edges: Vec::new(),
        clues: Vec::new(),
        colours: Vec::new(),
        conclusion: (probe, tried != LINE),
    };
    for &e in &window.edges {
        let p = e + origin;
        if p == probe {
            continue;
        }
        if !on_grid(p) {
            local.edges.push((p, false));
            continue;
        }
        let i = board.index(p.y as isize, p.x as isize);
        let state = board.at(i);
        if state != UNKNOWN && position[i] < at {
            local.edges.push((p, state == LINE));
        }
    }
    for &c in &window.cells {
        let p = c + origin;
        if !on_grid(p) {
            continue;
        }
        let (r, col) = (p.y as usize / 2, p.x as usize / 2);
        if let Some(n) = puzzle.clues[r * puzzle.cols + col] {
            local.clues.push((p, n));
        }
    }
    if let Some(store) = store {
        // Each block cell related to the first block cell of its class (a star per class):
        // the same relations as every pair, in fewer facts. A cell beyond the grid is the
        // outside.
        let inside_grid = |p: Pos| p.y > 0 && p.y < h2 && p.x > 0 && p.x < w2;
        let key = |p: Pos| board.index(p.y as isize, p.x as isize);
        let relation = |a: Pos, b: Pos| match (inside_grid(a), inside_grid(b)) {
            (true, true) => store.relation(key(a), key(b)),
            (true, false) => store.inside(key(a)),
            (false, true) => store.inside(key(b)),
            (false, false) => Some(false),
        };
        let mut firsts: Vec<Pos> = Vec::new();
        for &c in &window.block {
            let p = c + origin;
            match firsts.iter().find_map(|&f| relation(f, p).map(|d| (f, d))) {
                Some((f, differ)) => local.colours.push((f, p, differ)),
                None => firsts.push(p),
            }
        }
    }
    Some((local, origin))
}

/// A premise put on a box's window: its edges, placement and conclusion bit, or `None` when
/// some fact falls outside the window.
fn on_window(local: &Local, window: &Window, origin: Pos) -> Option<OnWindow> {
    let mut edges = Edges::default();
    for &(p, line) in &local.edges {
        let i = window.edge_index(p - origin)?;
        edges = edges.with(1 << i, line);
    }
    let mut placement: Placement = vec![None; window.cells.len()];
    for &(p, n) in &local.clues {
        placement[window.cell_index(p - origin)?] = Some(n);
    }
    let mut parities = Vec::new();
    for &(a, b, differ) in &local.colours {
        let i = window.block_index(a - origin)?;
        let j = window.block_index(b - origin)?;
        parities.push((window.relation_mask(i, j), differ));
    }
    let bit = 1u64 << window.edge_index(local.conclusion.0 - origin)?;
    Some(OnWindow {
        edges,
        placement,
        parities,
        bit,
        line: local.conclusion.1,
    })
}

/// A premise on a box's window: lines and crosses, clues, colour facts (as parities), and
/// the conclusion's edge bit and state.
struct OnWindow {
    edges: Edges,
    placement: Placement,
    parities: Vec<(u64, bool)>,
    bit: u64,
    line: bool,
}

/// Whether the laws force the conclusion from the premise.
fn forces(laws: &Laws, w: &OnWindow) -> bool {
    laws.forces_with(&w.placement, w.edges, &w.parities, w.bit, w.line)
}

/// The minimal, canonical candidate of a premise, when the local laws of its window force
/// the conclusion and it keeps at most `max_colours` colour facts.
fn learn(
    local: &Local,
    origin: Pos,
    rows: usize,
    cols: usize,
    cache: &LawCache,
    max_colours: usize,
) -> Option<Candidate> {
    // Lines, crosses and clues alone first: colour facts only when they are needed.
    if !local.colours.is_empty() {
        let plain = Local {
            colours: Vec::new(),
            ..local.clone()
        };
        if let Some(c) = learn(&plain, origin, rows, cols, cache, 0) {
            return Some(c);
        }
    }
    let laws = cache.get(rows, cols, true)?;
    if !forces(&laws, &on_window(local, &laws.window, origin)?) {
        return None;
    }
    // Drop facts, farthest from the probed edge first (a colour fact by its nearer cell).
    let target = local.conclusion.0;
    let distance = |p: Pos| (p.y - target.y).abs() + (p.x - target.x).abs();
    let (ne, nc) = (local.edges.len(), local.clues.len());
    let mut facts: Vec<(i32, usize)> = Vec::new();
    for (k, f) in local.edges.iter().enumerate() {
        facts.push((distance(f.0), k));
    }
    for (k, f) in local.clues.iter().enumerate() {
        facts.push((distance(f.0), ne + k));
    }
    for (k, f) in local.colours.iter().enumerate() {
        facts.push((distance(f.0).min(distance(f.1)), ne + nc + k));
    }
    facts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut keep = vec![true; facts.len()];
    let build = |keep: &[bool]| Local {
        edges: (0..ne)
            .filter(|&k| keep[k])
            .map(|k| local.edges[k])
            .collect(),
        clues: (0..nc)
            .filter(|&k| keep[ne + k])
            .map(|k| local.clues[k])
            .collect(),
        colours: (0..local.colours.len())
            .filter(|&k| keep[ne + nc + k])
            .map(|k| local.colours[k])
            .collect(),
        conclusion: local.conclusion,
    };
    for &(_, k) in &facts {
        keep[k] = false;
        if !forces(&laws, &on_window(&build(&keep), &laws.window, origin)?) {
            keep[k] = true;
        }
    }
    let kept = build(&keep);
    if kept.colours.len() > max_colours {
        return None;
    }
    // The smallest box (by cells, then rows) whose window holds the facts and still forces.
    let mut boxes = Vec::new();
    for a0 in 0..=rows {
        for a1 in a0..=rows {
            for b0 in 0..=cols {
                for b1 in b0..=cols {
                    boxes.push(((a1 - a0) * (b1 - b0), a1 - a0, a0, a1, b0, b1));
                }
            }
        }
    }
    boxes.sort();
    for (_, _, a0, a1, b0, b1) in boxes {
        let sub_origin = origin + Pos::new(2 * a0 as i32, 2 * b0 as i32);
        let Some(sub) = cache.get(a1 - a0, b1 - b0, true) else {
            continue;
        };
        let Some(w) = on_window(&kept, &sub.window, sub_origin) else {
            continue;
        };
        if !forces(&sub, &w) {
            continue;
        }
        // The conclusion: every edge the laws force, without the single-loop law if they
        // force the probed edge without it.
        let plain = cache.get(a1 - a0, b1 - b0, false)?;
        let single_loop = !forces(&plain, &w);
        let used = if single_loop { &sub } else { &plain };
        let all = used.backbone_with(&w.placement, w.edges, &w.parities)?;
        let new = all.minus(w.edges);
        let premise = premise_facts(&sub.window, w.edges, &w.placement);
        let mut premise_colours: Vec<(Pos, Pos, bool)> = kept
            .colours
            .iter()
            .map(|&(a, b, d)| {
                let (a, b) = (a - sub_origin, b - sub_origin);
                (a.min(b), a.max(b), d)
            })
            .collect();
        premise_colours.sort();
        let candidate = Candidate {
            rows: a1 - a0,
            cols: b1 - b0,
            premise,
            conclusion: edge_facts(&sub.window, new),
            single_loop,
            premise_colours,
            conclusion_colours: Vec::new(),
        };
        return Some(canonical(&candidate, &sub.window));
    }
    None
}

/// The least of a candidate's images under the 8 symmetries of the square.
fn canonical(c: &Candidate, window: &Window) -> Candidate {
    Symmetry::ALL
        .iter()
        .map(|&s| {
            let map = |facts: &[Fact]| {
                let mut out: Vec<Fact> = facts
                    .iter()
                    .map(|f| Fact {
                        at: window.map_point(s, f.at),
                        glyph: f.glyph,
                    })
                    .collect();
                out.sort();
                out
            };
            let turned = s.apply(Pos::new(2, 0));
            let (rows, cols) = if turned.y == 0 {
                (c.cols, c.rows)
            } else {
                (c.rows, c.cols)
            };
            let mut premise_colours: Vec<(Pos, Pos, bool)> = c
                .premise_colours
                .iter()
                .map(|&(a, b, d)| {
                    let (a, b) = (window.map_point(s, a), window.map_point(s, b));
                    (a.min(b), a.max(b), d)
                })
                .collect();
            premise_colours.sort();
            Candidate {
                rows,
                cols,
                premise: map(&c.premise),
                conclusion: map(&c.conclusion),
                premise_colours,
                ..c.clone()
            }
        })
        .min()
        .expect("eight images")
}
