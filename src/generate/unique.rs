//! Uniqueness of a blanked puzzle whose solution is known: one incremental SAT instance per puzzle, its clues switched by assumption literals, asked for a loop other than the known one.
//!
//! The instance has one variable per edge and one per cell (its colour: inside or outside,
//! with an edge on exactly where the colours on its sides differ; the solver decides colours,
//! as `deduce/sat.rs` does), the dot clauses (0 or 2 lines at each dot) and "some line" (a
//! question assumes a broken clue, so its answer differs from the known loop). Each cell's
//! clue holds only while its *guard*
//! literal is assumed: blanking a clue is leaving its guard out of the assumptions, so one
//! instance answers every candidate of a blanking run, and what it learnt carries over.
//!
//! The single-loop condition is a theory, as in `deduce/sat.rs`: when the edges on close a
//! loop `C`, `C` is an answer alone when it meets every assumed clue and is not the known
//! loop. Otherwise the solver gets the lemma "not all of `C`" (sound: an answer holding every
//! edge of a loop is that loop), with the guard of a clue `C` breaks in it, so the lemma and
//! what is learnt from it hold whatever clues are assumed later. UNSAT proves the known loop
//! the only answer; a model gives a second answer (any of its loops: each is one alone).
//!
//! Three more things keep the questions short. The puzzle before a blanking has one answer,
//! so a second answer breaks a clue just blanked: each cell has a literal "its clue is
//! broken" (its count of sides on differs), and a question assumes it for the blanked cell
//! (some of them, for an orbit), which keeps the search near that cell. A clue settled for the
//! rest of the run (kept, or blanked for good) has its guard fixed as a fact, so its clauses
//! simplify. And the theory also cuts by regions of cell colours, as `deduce/sat.rs` does:
//! one region of inside cells, every region of outside cells reaching the border. Those
//! lemmas name colours only, no clue, so need no guard; on a 20x20 a question that took
//! 75,000 loop lemmas and over 15 s without them takes a few dozen conflicts. They run at
//! one partial check in 32, and at every one once a question has backtracked 400 times.

use super::Solution;
use crate::board::{Board, CROSS, LINE, UNKNOWN};
use crate::deduce::sat::Stop;
use batsat::{Lit, Solver, SolverInterface, SolverOpts, Theory, TheoryArg, Var, lbool};

/// The verdict of a question.
pub(super) enum Verdict {
    /// The known loop is the only answer.
    Unique,
    /// A second answer, by its clue counts (row-major).
    Second(Vec<u8>),
    /// The conflict budget ran out first.
    Unknown,
}

/// The fixed geometry of a grid, on edge, dot and cell indices.
struct Grid {
    /// Per edge: its two dots.
    edge_dots: Vec<[usize; 2]>,
    /// Per edge: the cells on its sides (one on the border).
    edge_cells: Vec<Vec<usize>>,
    /// Per dot: its edges.
    dot_edges: Vec<Vec<usize>>,
    /// Per cell: its four sides.
    cell_edges: Vec<[usize; 4]>,
    /// Per edge: its place on the board's lattice (row, column).
    lattice: Vec<(isize, isize)>,
    /// Per cell: the cells beside it (`usize::MAX` off the grid).
    cell_nbrs: Vec<[usize; 4]>,
}

impl Grid {
    fn new(rows: usize, cols: usize) -> Grid {
        let h = (rows + 1) * cols;
        let dot = |r: usize, c: usize| r * (cols + 1) + c;
        let hedge = |r: usize, c: usize| r * cols + c;
        let vedge = |r: usize, c: usize| h + r * (cols + 1) + c;
        let edges = h + rows * (cols + 1);
        let mut edge_dots = vec![[0; 2]; edges];
        let mut lattice = vec![(0, 0); edges];
        let mut edge_cells = vec![Vec::new(); edges];
        let mut dot_edges = vec![Vec::new(); (rows + 1) * (cols + 1)];
        for r in 0..=rows {
            for c in 0..cols {
                let e = hedge(r, c);
                edge_dots[e] = [dot(r, c), dot(r, c + 1)];
                lattice[e] = (2 * r as isize, 2 * c as isize + 1);
            }
        }
        for r in 0..rows {
            for c in 0..=cols {
                let e = vedge(r, c);
                edge_dots[e] = [dot(r, c), dot(r + 1, c)];
                lattice[e] = (2 * r as isize + 1, 2 * c as isize);
            }
        }
        for (e, ds) in edge_dots.iter().enumerate() {
            for &d in ds {
                dot_edges[d].push(e);
            }
        }
        let mut cell_edges = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                let sides = [hedge(r, c), hedge(r + 1, c), vedge(r, c), vedge(r, c + 1)];
                for &e in &sides {
                    edge_cells[e].push(r * cols + c);
                }
                cell_edges.push(sides);
            }
        }
        let cell_nbrs = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                [
                    if r > 0 { i - cols } else { usize::MAX },
                    if r + 1 < rows { i + cols } else { usize::MAX },
                    if c > 0 { i - 1 } else { usize::MAX },
                    if c + 1 < cols { i + 1 } else { usize::MAX },
                ]
            })
            .collect();
        Grid {
            edge_dots,
            edge_cells,
            dot_edges,
            cell_edges,
            lattice,
            cell_nbrs,
        }
    }
}

/// The instance of one puzzle (see the module notes).
pub(super) struct UniqueCheck {
    solver: Solver<Stop>,
    grid: Grid,
    /// Per edge: its variable.
    edge_vars: Vec<Var>,
    /// Per cell: its colour variable (true: inside).
    cell_vars: Vec<Var>,
    /// Per cell: the literal that switches its clue on.
    guards: Vec<Lit>,
    /// Per cell: a literal whose truth breaks its clue (the number of its sides on differs).
    broken: Vec<Lit>,
    /// Per cell: its clue in the known loop.
    clues: Vec<u8>,
    /// Per edge: on the known loop.
    known: Vec<bool>,
    known_len: usize,
    /// The theory's explanations, kept between questions.
    why: Vec<Vec<Lit>>,
    /// The explanations of colours the theory propagated, kept between questions.
    arena: Vec<Lit>,
    span: Vec<(u32, u32)>,
    assumptions: Vec<Lit>,
}

impl UniqueCheck {
    /// The instance for puzzles whose answer is `solution` (every clue of it switchable).
    /// Try 0 decides the known loop's colours first; a later try (a fresh instance after a
    /// question ran out of budget) saves phases and picks a share of its decisions at random,
    /// from its own seed: the search's long runs are luck, and a fresh start draws again.
    pub(super) fn new(solution: &Solution, try_number: u32) -> UniqueCheck {
        let (rows, cols) = (solution.rows(), solution.cols());
        let grid = Grid::new(rows, cols);
        let opts = SolverOpts {
            ccmin_mode: 1,
            var_decay: 0.8,
            random_seed: 91_648_253.0 + f64::from(try_number),
            random_var_freq: if try_number == 0 { 0.0 } else { 0.02 },
            ..SolverOpts::default()
        };
        let stop = Stop {
            deadline: None,
            max_conflicts: None,
            conflicts: 0,
        };
        let mut solver = Solver::new(opts, stop);
        let edges = grid.edge_dots.len();
        let edge_vars: Vec<Var> = (0..edges)
            .map(|_| solver.new_var(lbool::UNDEF, false))
            .collect();
        // Colours are decided, on try 0 the known loop's colour first: a second answer near
        // it is found first.
        let cell_vars: Vec<Var> = (0..rows * cols)
            .map(|i| {
                let pol = if solution.inside((i / cols) as isize, (i % cols) as isize) {
                    lbool::TRUE
                } else {
                    lbool::FALSE
                };
                let pol = if try_number == 0 { pol } else { lbool::UNDEF };
                solver.new_var(pol, true)
            })
            .collect();
        let guards: Vec<Lit> = (0..rows * cols)
            .map(|_| Lit::new(solver.new_var(lbool::UNDEF, false), true))
            .collect();
        let mut clues = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                clues.push(solution.clue(r, c));
            }
        }
        let add = |solver: &mut Solver<Stop>, lits: &[Lit]| {
            let mut c = lits.to_vec();
            solver.add_clause_reuse(&mut c);
        };
        // Colours: an edge is on exactly when the cells on its sides differ (off the grid:
        // outside).
        for (e, &var) in edge_vars.iter().enumerate() {
            let x = Lit::new(var, true);
            match grid.edge_cells[e][..] {
                [a, b] => {
                    let (p, q) = (Lit::new(cell_vars[a], true), Lit::new(cell_vars[b], true));
                    add(&mut solver, &[!x, p, q]);
                    add(&mut solver, &[!x, !p, !q]);
                    add(&mut solver, &[x, !p, q]);
                    add(&mut solver, &[x, p, !q]);
                }
                [a] => {
                    let p = Lit::new(cell_vars[a], true);
                    add(&mut solver, &[!x, p]);
                    add(&mut solver, &[x, !p]);
                }
                _ => unreachable!("an edge has one or two cells"),
            }
        }
        // The known loop: where the colours on an edge's sides differ.
        let inside = |i: usize| solution.inside((i / cols) as isize, (i % cols) as isize);
        let known: Vec<bool> = grid
            .edge_cells
            .iter()
            .map(|cells| match cells[..] {
                [a, b] => inside(a) != inside(b),
                [a] => inside(a),
                _ => unreachable!("an edge has one or two cells"),
            })
            .collect();
        // Dots: 0 or 2 lines.
        for d in 0..grid.dot_edges.len() {
            let lits: Vec<Lit> = grid.dot_edges[d]
                .iter()
                .map(|&e| Lit::new(edge_vars[e], true))
                .collect();
            for (i, &a) in lits.iter().enumerate() {
                let mut c = vec![!a];
                c.extend(
                    lits.iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, &b)| b),
                );
                add(&mut solver, &c);
            }
            let n = lits.len();
            for mask in 0u32..(1 << n) {
                if mask.count_ones() == 3 {
                    let c: Vec<Lit> = (0..n)
                        .filter(|&i| mask & (1 << i) != 0)
                        .map(|i| !lits[i])
                        .collect();
                    add(&mut solver, &c);
                }
            }
        }
        // Clues, each under its guard.
        for (cell, sides) in grid.cell_edges.iter().enumerate() {
            let lits: Vec<Lit> = sides
                .iter()
                .map(|&e| Lit::new(edge_vars[e], true))
                .collect();
            let (k, g) = (usize::from(clues[cell]), guards[cell]);
            for mask in 0u32..16 {
                let size = mask.count_ones() as usize;
                let pick = |neg: bool| {
                    let mut c: Vec<Lit> = (0..4)
                        .filter(|&i| mask & (1 << i) != 0)
                        .map(|i| if neg { !lits[i] } else { lits[i] })
                        .collect();
                    c.push(!g);
                    c
                };
                // At most k: no k+1 on together. At least k: no 4-k+1 off together.
                if size == k + 1 {
                    add(&mut solver, &pick(true));
                }
                if size == 4 - k + 1 {
                    add(&mut solver, &pick(false));
                }
            }
        }
        // Broken clues: no pattern of exactly the clue's count of sides on.
        let broken: Vec<Lit> = (0..rows * cols)
            .map(|_| Lit::new(solver.new_var(lbool::UNDEF, false), true))
            .collect();
        for (cell, sides) in grid.cell_edges.iter().enumerate() {
            let k = u32::from(clues[cell]);
            for mask in 0u32..16 {
                if mask.count_ones() == k {
                    let mut c: Vec<Lit> = (0..4)
                        .map(|i| Lit::new(edge_vars[sides[i]], mask & (1 << i) == 0))
                        .collect();
                    c.push(!broken[cell]);
                    add(&mut solver, &c);
                }
            }
        }
        // Some line, the known loop's edges first: they are the two watched ones, which the
        // solver, deciding the known loop's colours first, rarely turns off (a clause is
        // scanned for another literal whenever a watched one turns false). No clause says
        // "some edge differs from the known loop": every question assumes a broken clue,
        // which says it.
        let some: Vec<Lit> = (0..edges)
            .filter(|&e| known[e])
            .chain((0..edges).filter(|&e| !known[e]))
            .map(|e| Lit::new(edge_vars[e], true))
            .collect();
        add(&mut solver, &some);
        let known_len = known.iter().filter(|&&k| k).count();
        UniqueCheck {
            solver,
            grid,
            edge_vars,
            cell_vars,
            guards,
            broken,
            clues,
            known,
            known_len,
            why: vec![Vec::new(); edges],
            arena: Vec::new(),
            span: vec![(0, 0); rows * cols],
            assumptions: Vec::new(),
        }
    }

    /// Settles the clue of `cell` for every later question: `present` (it is always
    /// assumed) or blank (never again). Its guard becomes a fact, so the clauses it switches
    /// are simplified away or become plain clauses.
    pub(super) fn settle(&mut self, cell: usize, present: bool) {
        let g = self.guards[cell];
        self.solver
            .add_clause_reuse(&mut vec![if present { g } else { !g }]);
    }

    /// The unknown edges (of `states`, per edge) that no answer has on: when some line is
    /// drawn, those of a part of the unknown edges (joined at dots) with no chain end, as a
    /// line there would be on a second loop (see `deduce/sat.rs`).
    fn closed_parts(&self, states: &[u8]) -> Vec<bool> {
        let edges = states.len();
        let mut off = vec![false; edges];
        if !states.contains(&LINE) {
            return off;
        }
        let mut part: Vec<usize> = (0..edges).collect();
        fn find(part: &mut [usize], mut v: usize) -> usize {
            while part[v] != v {
                part[v] = part[part[v]];
                v = part[v];
            }
            v
        }
        let mut has_end = vec![false; edges];
        for dot in &self.grid.dot_edges {
            let lines = dot.iter().filter(|&&e| states[e] == LINE).count();
            let mut first = None;
            for &e in dot.iter().filter(|&&e| states[e] == UNKNOWN) {
                match first {
                    None => first = Some(e),
                    Some(f) => {
                        let (a, b) = (find(&mut part, f), find(&mut part, e));
                        part[a] = b;
                    }
                }
            }
            if let (Some(f), 1) = (first, lines) {
                // Marked on the part's root below, once every union is made.
                has_end[f] = true;
            }
        }
        let mut root_end = vec![false; edges];
        for (e, &end) in has_end.iter().enumerate() {
            if end {
                let root = find(&mut part, e);
                root_end[root] = true;
            }
        }
        for e in 0..edges {
            if states[e] == UNKNOWN {
                let root = find(&mut part, e);
                off[e] = !root_end[root];
            }
        }
        off
    }

    /// With the clues of the cells where `present` holds: whether the known loop is the only
    /// answer, within `max_conflicts` (none: no budget). The edges decided on `deduced` (a
    /// board of the same puzzle that sound deduction left stuck) are assumed too: every answer
    /// has them, so the solver searches only the rest.
    pub(super) fn second(
        &mut self,
        present: impl Fn(usize) -> bool,
        blanked: &[usize],
        deduced: Option<&Board>,
        max_conflicts: Option<u64>,
    ) -> Verdict {
        let cells = self.clues.len();
        let active: Vec<bool> = (0..cells).map(present).collect();
        self.assumptions.clear();
        self.assumptions
            .extend((0..cells).filter(|&c| active[c]).map(|c| self.guards[c]));
        // The puzzle with the clues of `blanked` has one answer, so a second one breaks one of
        // them.
        let mut question = None;
        if let [cell] = blanked {
            self.assumptions.push(self.broken[*cell]);
        } else {
            let q = Lit::new(self.solver.new_var(lbool::UNDEF, false), true);
            let mut c: Vec<Lit> = blanked.iter().map(|&b| self.broken[b]).collect();
            c.push(!q);
            self.solver.add_clause_reuse(&mut c);
            self.assumptions.push(q);
            question = Some(q);
        }
        if let Some(board) = deduced {
            let states: Vec<u8> = (self.grid.lattice.iter())
                .map(|&(y, x)| board.at(board.index(y, x)))
                .collect();
            let off = self.closed_parts(&states);
            for (e, &state) in states.iter().enumerate() {
                let on = match state {
                    LINE => true,
                    CROSS => false,
                    _ if off[e] => false,
                    _ => continue,
                };
                self.assumptions.push(Lit::new(self.edge_vars[e], on));
            }
        }
        let positive = (0..cells)
            .filter(|&c| active[c] && self.clues[c] > 0)
            .count();
        let mut theory = LoopTheory {
            grid: &self.grid,
            edge_vars: &self.edge_vars,
            cell_vars: &self.cell_vars,
            guards: &self.guards,
            clues: &self.clues,
            known: &self.known,
            known_len: self.known_len,
            active: &active,
            positive,
            assumed: self.assumptions.len(),
            levels: Vec::new(),
            done: 0,
            walk: Vec::new(),
            lemma: Vec::new(),
            count: vec![0; cells],
            touched: Vec::new(),
            why: std::mem::take(&mut self.why),
            arena: std::mem::take(&mut self.arena),
            span: std::mem::take(&mut self.span),
            label: vec![u32::MAX; cells],
            walled: vec![u32::MAX; cells],
            stack: Vec::new(),
            members: Vec::new(),
            wall: Vec::new(),
            regions: Vec::new(),
            skipped: 0,
            backtracks: 0,
            seen: vec![0; self.known.len()],
            stamp: 0,
        };
        let assumptions = std::mem::take(&mut self.assumptions);
        let stop = self.solver.cb_mut();
        stop.max_conflicts = max_conflicts;
        stop.conflicts = 0;
        let result = self.solver.solve_limited_th(&mut theory, &assumptions);
        self.assumptions = assumptions;
        if let Some(q) = question {
            self.solver.add_clause_reuse(&mut vec![!q]);
        }
        self.why = theory.why;
        self.arena = theory.arena;
        self.span = theory.span;
        if result == lbool::FALSE {
            return Verdict::Unique;
        }
        if result != lbool::TRUE {
            return Verdict::Unknown;
        }
        // Any loop of the model is an answer alone: take the one through the first edge on.
        let model = self.solver.get_model();
        let on = |e: usize| model[self.edge_vars[e].idx() as usize] == lbool::TRUE;
        let start = (0..self.known.len()).find(|&e| on(e)).expect("some line");
        let mut counts = vec![0u8; cells];
        let (mut e, mut d) = (start, self.grid.edge_dots[start][1]);
        loop {
            for &c in &self.grid.edge_cells[e] {
                counts[c] += 1;
            }
            let next = self.grid.dot_edges[d]
                .iter()
                .copied()
                .find(|&f| f != e && on(f));
            let Some(f) = next else { break };
            if f == start {
                break;
            }
            let [a, b] = self.grid.edge_dots[f];
            d = if a == d { b } else { a };
            e = f;
        }
        Verdict::Second(counts)
    }
}

/// The region cuts run at one partial check in this many (a pass costs two walks over every
/// cell). Measured on 20x20 seeds 1-8 (mean CPU): every check 0.75 s, every 16th to 64th
/// 0.45-0.5 s, every 128th to 400th about the same on average but with slower seeds, never
/// (whole assignments only) one seed over 60 s.
const REGION_EVERY: usize = 32;

/// Once a question has backtracked this many times it is a hard one, and the region cuts run
/// at every partial check: most questions end in a few dozen conflicts, where the passes
/// would cost more than they save, but a hard one needs every cut early (on 30x30 seed 8,
/// 49,000 conflicts in all instead of 67,000; 200 gave about as few but cost more CPU on
/// the easy seeds; see docs/usage.md).
const HARD_AFTER: u64 = 400;

/// The single-loop condition under the assumed clues (see the module notes).
struct LoopTheory<'a> {
    grid: &'a Grid,
    edge_vars: &'a [Var],
    cell_vars: &'a [Var],
    guards: &'a [Lit],
    clues: &'a [u8],
    known: &'a [bool],
    known_len: usize,
    /// Per cell: its clue is assumed.
    active: &'a [bool],
    /// Assumed clues above 0.
    positive: usize,
    /// Assumptions (clues, then deduced edges).
    assumed: usize,
    /// Per decision level: the trail length checked and the length of `arena`.
    levels: Vec<(usize, usize)>,
    /// Trail length checked.
    done: usize,
    walk: Vec<usize>,
    lemma: Vec<Lit>,
    /// Per cell: sides of the loop in `walk` (zero outside [`LoopTheory::answer`]).
    count: Vec<u8>,
    touched: Vec<usize>,
    why: Vec<Vec<Lit>>,
    /// Explanations of colour propagations, one shared by every cell of a region.
    arena: Vec<Lit>,
    /// Per cell: its explanation in `arena` (start, end), when it was propagated.
    span: Vec<(u32, u32)>,
    /// Per cell: its region in the last pass (`u32::MAX`: none).
    label: Vec<u32>,
    /// Per cell: the region whose wall holds it.
    walled: Vec<u32>,
    stack: Vec<usize>,
    members: Vec<usize>,
    wall: Vec<usize>,
    regions: Vec<Region>,
    /// Partial checks since the last colour check.
    skipped: usize,
    /// Backtracks in this question (conflicts and restarts): past [`HARD_AFTER`], the
    /// colours are checked at every partial check.
    backtracks: u64,
    /// Per edge: the check whose walk passed it last (see `stamp`).
    seen: Vec<u32>,
    /// The number of the check, for `seen`.
    stamp: u32,
}

/// One region of cells found by [`LoopTheory::regions`]: cells joined through cells not of
/// the other colour.
struct Region {
    /// Its cells, in `LoopTheory::members`.
    members: (usize, usize),
    /// The cells of the other colour around it, in `LoopTheory::wall`.
    wall: (usize, usize),
    /// A cell of it already of the colour looked for.
    any: Option<usize>,
    /// Whether it reaches the grid's border.
    border: bool,
}

/// The other colour.
fn other(colour: lbool) -> lbool {
    if colour == lbool::TRUE {
        lbool::FALSE
    } else {
        lbool::TRUE
    }
}

/// Why a loop is not an answer alone.
enum NotAnswer {
    /// It is the known loop.
    Known,
    /// It breaks the clue of this cell.
    Breaks(usize),
}

impl LoopTheory<'_> {
    fn on(&self, acts: &TheoryArg, e: usize) -> bool {
        acts.value(self.edge_vars[e]) == lbool::TRUE
    }

    /// Whether the loop in `walk` alone is an answer: it meets every assumed clue and is not
    /// the known loop.
    fn answer(&mut self) -> Result<(), NotAnswer> {
        for &e in &self.walk {
            for &c in &self.grid.edge_cells[e] {
                if self.count[c] == 0 {
                    self.touched.push(c);
                }
                self.count[c] += 1;
            }
        }
        let mut met = 0;
        let mut broken = None;
        for &c in &self.touched {
            if self.active[c] {
                if self.count[c] != self.clues[c] {
                    broken = Some(c);
                    break;
                }
                met += 1;
            }
        }
        let result = if let Some(c) = broken {
            Err(NotAnswer::Breaks(c))
        } else if met < self.positive {
            // Some assumed clue above 0 has no side on the loop.
            let c = (0..self.clues.len())
                .find(|&c| self.active[c] && self.clues[c] > 0 && self.count[c] == 0)
                .expect("an untouched clue");
            Err(NotAnswer::Breaks(c))
        } else if self.walk.len() == self.known_len && self.walk.iter().all(|&e| self.known[e]) {
            Err(NotAnswer::Known)
        } else {
            Ok(())
        };
        for &c in &self.touched {
            self.count[c] = 0;
        }
        self.touched.clear();
        result
    }

    /// Walks from `dot` away from `edge` along edges that are on, pushing them on `walk`;
    /// returns the dot where the chain ends (`Err(true)`: it came back to `stop`, a closed
    /// loop; `Err(false)`: a dot has more than two lines).
    fn walk_from(
        &mut self,
        acts: &TheoryArg,
        mut edge: usize,
        mut dot: usize,
        stop: usize,
    ) -> Result<usize, bool> {
        loop {
            let mut next = None;
            for &f in &self.grid.dot_edges[dot] {
                if f != edge && self.on(acts, f) {
                    if next.is_some() {
                        return Err(false);
                    }
                    next = Some(f);
                }
            }
            let Some(f) = next else { return Ok(dot) };
            if f == stop {
                return Err(true);
            }
            let [c, d] = self.grid.edge_dots[f];
            dot = if c == dot { d } else { c };
            edge = f;
            self.walk.push(f);
        }
    }

    fn check(&mut self, acts: &mut TheoryArg, partial: bool) {
        if !self.check_edges(acts) || !partial {
            // On a whole assignment every loop was checked by the edges: each is an answer.
            return;
        }
        self.skipped += 1;
        if self.skipped < REGION_EVERY && self.backtracks <= HARD_AFTER {
            return;
        }
        self.skipped = 0;
        self.check_colours(acts);
    }

    fn inside(&self, c: usize) -> Lit {
        Lit::new(self.cell_vars[c], true)
    }

    /// Splits the cells not of colour `!want` into regions (joined side to side), each with
    /// its wall (the cells of colour `!want` beside it).
    fn regions(&mut self, acts: &TheoryArg, want: lbool) {
        self.members.clear();
        self.wall.clear();
        self.regions.clear();
        self.label.fill(u32::MAX);
        self.walled.fill(u32::MAX);
        for c in 0..self.cell_vars.len() {
            if self.label[c] != u32::MAX || acts.value(self.cell_vars[c]) == other(want) {
                continue;
            }
            let id = self.regions.len() as u32;
            let (m0, w0) = (self.members.len(), self.wall.len());
            let mut any = None;
            let mut border = false;
            self.label[c] = id;
            self.stack.push(c);
            while let Some(d) = self.stack.pop() {
                self.members.push(d);
                if any.is_none() && acts.value(self.cell_vars[d]) == want {
                    any = Some(d);
                }
                for n in self.grid.cell_nbrs[d] {
                    if n == usize::MAX {
                        border = true;
                    } else if acts.value(self.cell_vars[n]) == other(want) {
                        if self.walled[n] != id {
                            self.walled[n] = id;
                            self.wall.push(n);
                        }
                    } else if self.label[n] == u32::MAX {
                        self.label[n] = id;
                        self.stack.push(n);
                    }
                }
            }
            self.regions.push(Region {
                members: (m0, self.members.len()),
                wall: (w0, self.wall.len()),
                any,
                border,
            });
        }
    }

    /// The region cuts (as in `deduce/sat.rs`): one region of inside cells, every region of
    /// outside cells reaching the border. They name colours only, no clue, so they hold
    /// whatever clues are assumed. `false` when it raised a conflict or propagated something.
    fn check_colours(&mut self, acts: &mut TheoryArg) -> bool {
        // Inside: one region of inside cells at most.
        self.regions(acts, lbool::TRUE);
        let holding: Vec<usize> = (0..self.regions.len())
            .filter(|&k| self.regions[k].any.is_some())
            .collect();
        if holding.len() >= 2 {
            // Cut the region with the shortest wall off from another inside cell.
            let &k = holding
                .iter()
                .min_by_key(|&&k| self.regions[k].wall.1 - self.regions[k].wall.0)
                .expect("two");
            let &other = holding.iter().find(|&&j| j != k).expect("two");
            let r = &self.regions[k];
            self.lemma.clear();
            for c in [r.any, self.regions[other].any].into_iter().flatten() {
                self.lemma.push(!self.inside(c));
            }
            for &w in &self.wall[r.wall.0..r.wall.1] {
                self.lemma.push(self.inside(w));
            }
            let lemma = std::mem::take(&mut self.lemma);
            acts.raise_conflict(&lemma, true);
            self.lemma = lemma;
            return false;
        }
        if let [h] = holding[..] {
            let a = self.inside(self.regions[h].any.expect("holding"));
            let mut quiet = true;
            for k in 0..self.regions.len() {
                if k == h {
                    continue;
                }
                // Every cell of region k is outside: walled off from `a`.
                let start = self.arena.len() as u32;
                self.arena.push(a);
                let (w0, w1) = self.regions[k].wall;
                for j in w0..w1 {
                    let w = self.inside(self.wall[j]);
                    self.arena.push(!w);
                }
                let span = (start, self.arena.len() as u32);
                let (m0, m1) = self.regions[k].members;
                for j in m0..m1 {
                    let u = self.members[j];
                    self.span[u] = span;
                    quiet = false;
                    if !acts.propagate(!self.inside(u)) {
                        return false;
                    }
                }
            }
            if !quiet {
                return false;
            }
        }
        // Outside: every region of outside cells reaches the border.
        self.regions(acts, lbool::FALSE);
        let shut = (0..self.regions.len())
            .filter(|&k| !self.regions[k].border && self.regions[k].any.is_some())
            .min_by_key(|&k| self.regions[k].wall.1 - self.regions[k].wall.0);
        if let Some(k) = shut {
            let r = &self.regions[k];
            self.lemma.clear();
            self.lemma.push(self.inside(r.any.expect("holding")));
            for &w in &self.wall[r.wall.0..r.wall.1] {
                self.lemma.push(!self.inside(w));
            }
            let lemma = std::mem::take(&mut self.lemma);
            acts.raise_conflict(&lemma, true);
            self.lemma = lemma;
            return false;
        }
        let mut quiet = true;
        for k in 0..self.regions.len() {
            if self.regions[k].border {
                continue;
            }
            // Every cell of region k is inside: walled off from the border.
            let start = self.arena.len() as u32;
            let (w0, w1) = self.regions[k].wall;
            for j in w0..w1 {
                let w = self.inside(self.wall[j]);
                self.arena.push(w);
            }
            let span = (start, self.arena.len() as u32);
            let (m0, m1) = self.regions[k].members;
            for j in m0..m1 {
                let u = self.members[j];
                self.span[u] = span;
                quiet = false;
                if !acts.propagate(self.inside(u)) {
                    return false;
                }
            }
        }
        quiet
    }

    /// The loop part of the check (module notes); `false` when it raised a conflict or
    /// propagated something.
    fn check_edges(&mut self, acts: &mut TheoryArg) -> bool {
        // Until every clue's guard is assumed (one decision level each), a lemma could not
        // name the guard of a clue it breaks: wait, the edges are checked once they are.
        if self.levels.len() < self.assumed {
            return false;
        }
        let mut quiet = true;
        self.stamp += 1;
        let edges = self.edge_vars.len();
        while self.done < acts.model().len() {
            let lit = acts.model()[self.done];
            self.done += 1;
            // Edge variables come first, numbered as the edges.
            let e = lit.var().idx() as usize;
            if !lit.sign() || e >= edges {
                continue;
            }
            if self.seen[e] == self.stamp {
                // On a chain already walked in this check: the same verdict.
                continue;
            }
            self.walk.clear();
            self.walk.push(e);
            let [a, b] = self.grid.edge_dots[e];
            let walked = self.walk_from(acts, e, b, e);
            for &f in &self.walk {
                self.seen[f] = self.stamp;
            }
            let y = match walked {
                Ok(y) => y,
                Err(true) => {
                    let guard = match self.answer() {
                        Ok(()) => continue,
                        Err(NotAnswer::Known) => None,
                        Err(NotAnswer::Breaks(c)) => Some(self.guards[c]),
                    };
                    self.lemma.clear();
                    for &f in &self.walk {
                        self.lemma.push(Lit::new(self.edge_vars[f], false));
                    }
                    self.lemma.extend(guard.map(|g| !g));
                    acts.raise_conflict(&self.lemma, false);
                    return false;
                }
                Err(false) => continue,
            };
            let from = self.walk.len();
            let walked = self.walk_from(acts, e, a, e);
            for &f in &self.walk[from..] {
                self.seen[f] = self.stamp;
            }
            let x = match walked {
                Ok(x) => x,
                Err(_) => continue,
            };
            // The edge joining the chain's two ends, if they are neighbours.
            let Some(f) = self.grid.dot_edges[x]
                .iter()
                .copied()
                .find(|&f| self.grid.edge_dots[f].contains(&y))
            else {
                continue;
            };
            if acts.value(self.edge_vars[f]) != lbool::UNDEF {
                continue;
            }
            self.walk.push(f);
            let answer = self.answer();
            self.walk.pop();
            let guard = match answer {
                Ok(()) => continue,
                Err(NotAnswer::Known) => None,
                Err(NotAnswer::Breaks(c)) => Some(self.guards[c]),
            };
            let why = &mut self.why[f];
            why.clear();
            for &g in &self.walk {
                why.push(Lit::new(self.edge_vars[g], true));
            }
            why.extend(guard);
            quiet = false;
            if !acts.propagate(Lit::new(self.edge_vars[f], false)) {
                return false;
            }
        }
        quiet
    }
}

impl Theory for LoopTheory<'_> {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts, false);
    }

    fn partial_check(&mut self, acts: &mut TheoryArg) {
        self.check(acts, true);
    }

    fn create_level(&mut self) {
        self.levels.push((self.done, self.arena.len()));
    }

    fn pop_levels(&mut self, n: usize) {
        self.backtracks += 1;
        let keep = self.levels.len() - n;
        let (done, arena) = self.levels[keep];
        self.done = done;
        self.arena.truncate(arena);
        self.levels.truncate(keep);
    }

    fn n_levels(&self) -> usize {
        self.levels.len()
    }

    fn explain_propagation(&mut self, p: Lit) -> &[Lit] {
        let v = p.var().idx() as usize;
        let edges = self.edge_vars.len();
        if v < edges {
            &self.why[v]
        } else {
            let (a, b) = self.span[v - edges];
            &self.arena[a as usize..b as usize]
        }
    }
}
