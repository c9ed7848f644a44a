//! Ambiguity of a puzzle with several answers, from complete SAT searches on what deduction left: the edges every answer shares (facts) and those that differ, the answers counted up to a bound (independent parts counted apart, their counts multiplied), and single clues that make the answer unique.
//!
//! Facts: with the first answer `S0` in hand, for each edge no answer found so far differs
//! on, the solver is asked for an answer with that edge flipped (an assumption). Each answer
//! found settles every edge where it differs from `S0` (on a 30x30 grid with half its clues
//! blanked, 70 questions settle 1335 edges); UNSAT proves the edge the same in every answer.
//! Deduction's edges are facts already (every rule and deducer is sound).
//!
//! Count: answers are blocked one by one (under a guard) up to the bound, unless the
//! undetermined edges split into parts that share no dot and no clue cell while some line is
//! fixed. Then each part is enumerated on its own (clue and dot clauses only, with the fixed
//! lines around it); a part's local answer joins the fixed chains' ends in pairs, and when
//! every local answer of every part joins them as the first answer does, every combination
//! is one loop, so the count is the product. Otherwise the product of the answers that join
//! as the first does is still a lower bound, and below the bound the answers are counted
//! one by one.
//!
//! Suggestions: for a blank cell beside an undetermined edge and a clue value, the solver
//! looks for two answers meeting that clue (under a guard); one alone makes the clue a
//! suggestion. When no single clue does, the clues that leave the fewest undetermined edges
//! (the facts loop again, under the clue) are proposed.

use crate::board::{Board, LINE, clue_of};
use crate::deduce::budget::{Budget, Halt};
use crate::deduce::sat::Instance;
use crate::deduce::search::SearchCounts;
use batsat::{BasicSolver, Lit, SolverInterface, Var, lbool};

/// At most this many suggestions.
pub const MAX_SUGGESTIONS: usize = 5;

/// The search for suggestions stops after this long with the best found by then.
pub const SUGGEST_TIME: std::time::Duration = std::time::Duration::from_secs(5);

/// At most this many solver calls for ranking clues that leave the answer ambiguous.
const RANKING_CALLS: usize = 4000;

/// What to work out about a puzzle's answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmbiguityOptions {
    /// Count answers up to this many.
    pub count: u64,
    /// Propose clues that make the answer unique.
    pub suggest: bool,
}

impl Default for AmbiguityOptions {
    fn default() -> Self {
        AmbiguityOptions {
            count: 2,
            suggest: false,
        }
    }
}

/// A clue proposed for a blank cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The cell's row (from 0).
    pub row: usize,
    /// The cell's column (from 0).
    pub col: usize,
    /// The clue.
    pub clue: u8,
    /// Edges still undetermined with the clue added (0: the answer is unique).
    pub undetermined: usize,
}

/// What is known about a puzzle's answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ambiguity {
    /// Answers counted, at most `bound`.
    pub solutions: u64,
    /// The count's bound (`--count`).
    pub bound: u64,
    /// The edges that differ between answers (lattice indices, sorted); all others are the
    /// same in every answer.
    pub undetermined: Vec<u32>,
    /// How many independent parts were counted apart (0: the count did not split).
    pub parts: usize,
    /// Clues that make the answer unique (or, failing that, leave the fewest undetermined
    /// edges), best first.
    pub suggestions: Vec<Suggestion>,
    /// Whether the search for suggestions ran out of time ([`SUGGEST_TIME`] or the puzzle's
    /// budget) before it looked at every clue: `suggestions` are the best found by then.
    pub cut_short: bool,
    /// Whether the facts are complete; false when a budget ran out while working them out:
    /// `undetermined` then holds the edges found to differ by then (others may too), and
    /// `solutions` the distinct answers found (a lower bound), and nothing else is done.
    pub complete: bool,
}

impl Ambiguity {
    /// A puzzle with one answer.
    pub fn unique(options: AmbiguityOptions) -> Ambiguity {
        Ambiguity {
            solutions: 1,
            bound: options.count.max(1),
            complete: true,
            ..Ambiguity::default()
        }
    }

    /// Whether `solutions` is the exact count (it stayed below the bound).
    pub fn exact(&self) -> bool {
        self.solutions < self.bound
    }
}

/// The four sides of a cell (lattice indices).
fn sides(board: &Board, cell: usize) -> [usize; 4] {
    let s = board.stride();
    [cell - s, cell + 1, cell + s, cell - 1]
}

/// The facts, count and suggestions of the puzzle on `board` (deduction's fixpoint, left as
/// it was) whose first answer is `first`.
pub fn analyse(
    board: &mut Board,
    first: &Board,
    options: AmbiguityOptions,
    budget: &mut Budget,
    counts: &mut SearchCounts,
) -> Result<Ambiguity, Halt> {
    let bound = options.count.max(1);
    let mut inst = Instance::new(board, budget);
    let n = inst.edges().len();
    let s0: Vec<bool> = inst.edges().iter().map(|&e| first.at(e) == LINE).collect();
    let mut sols = vec![s0.clone()];
    let (differs, complete) = facts(board, &mut inst, &s0, &mut sols, budget, counts);
    let undetermined: Vec<u32> = {
        let mut u: Vec<u32> = (0..n)
            .filter(|&v| differs[v])
            .map(|v| inst.edges()[v] as u32)
            .collect();
        u.sort_unstable();
        u
    };
    if !complete {
        return Ok(Ambiguity {
            solutions: (sols.len() as u64).min(bound),
            bound,
            undetermined,
            complete,
            ..Ambiguity::default()
        });
    }
    let mut parts = 0;
    let solutions = if sols.len() as u64 >= bound {
        bound
    } else if let Some((count, k)) = split_count(board, &inst, &s0, &differs, bound, budget)? {
        parts = k;
        count
    } else {
        enumerate(board, &mut inst, &differs, &sols, bound, budget, counts)?
    };
    let mut suggestions = Vec::new();
    let mut cut_short = false;
    if options.suggest && solutions > 1 {
        // Within its own time (and the puzzle's budget): what is found by then is kept.
        let mut time = SUGGEST_TIME;
        if let Some(deadline) = budget.deadline() {
            time = time.min(deadline.saturating_duration_since(std::time::Instant::now()));
        }
        let mut own = Budget::new(budget.nodes_left(), Some(time));
        cut_short = suggest(
            board,
            &mut inst,
            &differs,
            &mut sols,
            &mut own,
            counts,
            &mut suggestions,
        )
        .is_err();
        budget.spend(own.nodes())?;
    }
    Ok(Ambiguity {
        solutions,
        bound,
        undetermined,
        parts,
        suggestions,
        cut_short,
        complete,
    })
}

/// Which variables differ between answers (see the module notes), and whether that is all
/// of them (false: a budget ran out, and those are the ones found by then); answers found
/// are added to `sols`.
fn facts(
    board: &mut Board,
    inst: &mut Instance,
    base: &[bool],
    sols: &mut Vec<Vec<bool>>,
    budget: &mut Budget,
    counts: &mut SearchCounts,
) -> (Vec<bool>, bool) {
    let n = base.len();
    let mut differs = vec![false; n];
    for s in sols.iter() {
        for v in 0..n {
            differs[v] |= s[v] != base[v];
        }
    }
    let open: Vec<usize> = (0..n).filter(|&v| !differs[v]).collect();
    let mut found = Vec::new();
    let result = flips(
        board,
        inst,
        base,
        open,
        &[],
        budget,
        counts,
        usize::MAX,
        &mut found,
    );
    for s in found {
        for v in 0..n {
            differs[v] |= s[v] != base[v];
        }
        sols.push(s);
    }
    (differs, result.is_ok())
}

/// Answers (under `assume`) that settle the variables of `open`: for each variable no
/// answer found so far has flipped, an answer with it flipped from `base` (each found flips
/// many at once), or none, which proves it the same in every answer (at most `calls` solver
/// questions). Asking per variable keeps each search near `base` and short; one clause
/// "some open variable flipped" made every call ten times longer on 30x30 grids.
#[allow(clippy::too_many_arguments)]
fn flips(
    board: &mut Board,
    inst: &mut Instance,
    base: &[bool],
    open: Vec<usize>,
    assume: &[Lit],
    budget: &mut Budget,
    counts: &mut SearchCounts,
    calls: usize,
    found: &mut Vec<Vec<bool>>,
) -> Result<(), Halt> {
    let mut assumptions = assume.to_vec();
    let mut asked = 0;
    for v in open {
        if asked >= calls {
            break;
        }
        if found.iter().any(|s| s[v] != base[v]) {
            continue;
        }
        asked += 1;
        assumptions.push(inst.lit(v, !base[v]));
        let got = inst.answer(board, &assumptions, budget, counts)?;
        assumptions.pop();
        match got {
            // The same in every answer (under `assume`): kept as a clause when that is all.
            None if assume.is_empty() => {
                let fact = inst.lit(v, base[v]);
                inst.add(&[fact]);
            }
            None => {}
            Some(s) => found.push(s),
        }
    }
    Ok(())
}

/// Adds "some undetermined variable differs from `s`" under `guard`.
fn block(inst: &mut Instance, guard: Lit, differs: &[bool], s: &[bool]) {
    let mut clause: Vec<Lit> = (0..s.len())
        .filter(|&v| differs[v])
        .map(|v| inst.lit(v, !s[v]))
        .collect();
    clause.push(!guard);
    inst.add(&clause);
}

/// Counts answers one by one, up to `bound`.
fn enumerate(
    board: &mut Board,
    inst: &mut Instance,
    differs: &[bool],
    sols: &[Vec<bool>],
    bound: u64,
    budget: &mut Budget,
    counts: &mut SearchCounts,
) -> Result<u64, Halt> {
    let g = inst.guard();
    for s in sols {
        block(inst, g, differs, s);
    }
    let mut count = sols.len() as u64;
    while count < bound {
        match inst.answer(board, &[g], budget, counts) {
            Ok(Some(s)) => {
                block(inst, g, differs, &s);
                count += 1;
            }
            Ok(None) => break,
            Err(e) => {
                inst.add(&[!g]);
                return Err(e);
            }
        }
    }
    inst.add(&[!g]);
    Ok(count)
}

/// The count as the product of independent parts' counts (module notes), with the number
/// of parts; `None` when the parts do not give it.
fn split_count(
    board: &Board,
    inst: &Instance,
    s0: &[bool],
    differs: &[bool],
    bound: u64,
    budget: &mut Budget,
) -> Result<Option<(u64, usize)>, Halt> {
    let edges = inst.edges();
    let line = |e: usize| match inst.var_of(e) {
        Some(v) => !differs[v] && s0[v],
        None => board.at(e) == LINE,
    };
    let undetermined = |e: usize| inst.var_of(e).is_some_and(|v| differs[v]);
    if !board.grid_edges().any(line) {
        return Ok(None);
    }
    // Parts: undetermined variables joined by a dot or a clue cell.
    let n = edges.len();
    let mut part: Vec<usize> = (0..n).collect();
    fn find(part: &mut [usize], mut v: usize) -> usize {
        while part[v] != v {
            part[v] = part[part[v]];
            v = part[v];
        }
        v
    }
    let mut joins: Vec<Vec<usize>> = Vec::new();
    for y in 0..=board.rows() as isize {
        for x in 0..=board.cols() as isize {
            joins.push(sides(board, board.index(2 * y, 2 * x)).to_vec());
        }
    }
    for c in board.grid_cells() {
        if clue_of(board.at(c)).is_some() {
            joins.push(sides(board, c).to_vec());
        }
    }
    for group in &joins {
        let vs: Vec<usize> = group
            .iter()
            .filter(|&&e| undetermined(e))
            .filter_map(|&e| inst.var_of(e))
            .collect();
        for w in vs.windows(2) {
            let (a, b) = (find(&mut part, w[0]), find(&mut part, w[1]));
            part[a] = b;
        }
    }
    let mut roots: Vec<usize> = (0..n)
        .filter(|&v| differs[v])
        .map(|v| find(&mut part, v))
        .collect();
    roots.sort_unstable();
    roots.dedup();
    if roots.len() < 2 {
        return Ok(None);
    }
    let mut product: u64 = 1;
    let mut exact = true;
    for &root in &roots {
        let vars: Vec<usize> = (0..n)
            .filter(|&v| differs[v] && find(&mut part, v) == root)
            .collect();
        let local = Local::new(board, inst, &vars, &line);
        let (same, whole) = local.count(s0, bound, budget)?;
        exact &= whole;
        product = product.saturating_mul(same).min(bound);
    }
    Ok(if exact || product >= bound {
        Some((product.min(bound), roots.len()))
    } else {
        None
    })
}

/// One part of the undetermined edges as a SAT instance of its own: clue and dot clauses,
/// with the fixed lines around it.
struct Local<'a> {
    board: &'a Board,
    /// The part's edges.
    edges: Vec<usize>,
    /// Its variables in the whole instance.
    outer: Vec<usize>,
    /// Per edge of the part: its place in `edges`.
    index: std::collections::HashMap<usize, usize>,
    vars: Vec<Var>,
    /// Per dot of the part: fixed lines at it.
    fixed: std::collections::HashMap<usize, u8>,
    solver: BasicSolver,
}

impl<'a> Local<'a> {
    fn new(
        board: &'a Board,
        inst: &Instance,
        outer: &[usize],
        line: &dyn Fn(usize) -> bool,
    ) -> Local<'a> {
        let mut solver = BasicSolver::default();
        let edges: Vec<usize> = outer.iter().map(|&v| inst.edges()[v]).collect();
        let vars: Vec<Var> = edges
            .iter()
            .map(|_| solver.new_var(lbool::UNDEF, true))
            .collect();
        let mut local = Local {
            board,
            edges: edges.clone(),
            outer: outer.to_vec(),
            index: edges.iter().enumerate().map(|(i, &e)| (e, i)).collect(),
            vars,
            fixed: Default::default(),
            solver,
        };
        let mut dots: Vec<usize> = local
            .edges
            .iter()
            .flat_map(|&e| board.edge_dots(e))
            .collect();
        dots.sort_unstable();
        dots.dedup();
        for d in dots {
            let around = sides(board, d);
            let fixed = around.iter().filter(|&&e| line(e)).count();
            local.fixed.insert(d, fixed as u8);
            let lits: Vec<Lit> = around.iter().filter_map(|&e| local.lit(e)).collect();
            match fixed {
                0 => {
                    exactly_one_of(&mut local.solver, &lits, &[0, 2]);
                }
                1 => exactly_one_of(&mut local.solver, &lits, &[1]),
                _ => exactly_one_of(&mut local.solver, &lits, &[0]),
            }
        }
        let mut cells: Vec<usize> = local
            .edges
            .iter()
            .flat_map(|&e| board.edge_cells(e))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        for c in cells {
            let Some(clue) = clue_of(board.at(c)) else {
                continue;
            };
            let around = sides(board, c);
            let fixed = around.iter().filter(|&&e| line(e)).count();
            let lits: Vec<Lit> = around.iter().filter_map(|&e| local.lit(e)).collect();
            match usize::from(clue).checked_sub(fixed) {
                Some(k) => exactly_one_of(&mut local.solver, &lits, &[k]),
                None => {
                    local.solver.add_clause_reuse(&mut Vec::new());
                }
            }
        }
        local
    }

    /// The literal "edge `e` is on", if `e` is in the part.
    fn lit(&self, e: usize) -> Option<Lit> {
        self.index.get(&e).map(|&i| Lit::new(self.vars[i], true))
    }

    /// Counts the part's local answers that join the fixed chains' ends as `s0` does (up to
    /// `bound`); and whether every local answer was seen and joins them so.
    fn count(mut self, s0: &[bool], bound: u64, budget: &mut Budget) -> Result<(u64, bool), Halt> {
        let first: Vec<bool> = self.outer.iter().map(|&v| s0[v]).collect();
        let Some(want) = self.pairing(&first) else {
            return Ok((0, false));
        };
        let mut same = 0;
        loop {
            budget.node()?;
            if same >= bound {
                return Ok((same, false));
            }
            if self.solver.solve_limited(&[]) != lbool::TRUE {
                return Ok((same, true));
            }
            let model = self.solver.get_model();
            let on: Vec<bool> = self
                .vars
                .iter()
                .map(|v| model[v.idx() as usize] == lbool::TRUE)
                .collect();
            // Exclude this local answer from now on.
            let mut clause: Vec<Lit> = self
                .vars
                .iter()
                .zip(&on)
                .map(|(&v, &b)| Lit::new(v, !b))
                .collect();
            self.solver.add_clause_reuse(&mut clause);
            match self.pairing(&on) {
                Some(p) if p == want => same += 1,
                Some(_) => return Ok((same, false)),
                None => {}
            }
        }
    }

    /// The pairs of fixed chain ends that the part's lines `on` join, sorted; `None` when
    /// they also make a closed loop of their own (never part of an answer while some line is
    /// fixed elsewhere).
    fn pairing(&self, on: &[bool]) -> Option<Vec<(usize, usize)>> {
        let board = self.board;
        let is_on = |e: usize| self.index.get(&e).is_some_and(|&i| on[i]);
        let mut used = vec![false; self.edges.len()];
        let mut pairs = Vec::new();
        let mut ends: Vec<usize> = self
            .fixed
            .iter()
            .filter(|&(_, &f)| f == 1)
            .map(|(&d, _)| d)
            .collect();
        ends.sort_unstable();
        for &start in &ends {
            let Some(mut e) = sides(board, start).into_iter().find(|&e| is_on(e)) else {
                continue;
            };
            if used[self.index[&e]] {
                continue;
            }
            let mut d = start;
            loop {
                used[self.index[&e]] = true;
                let [a, b] = board.edge_dots(e);
                d = if a == d { b } else { a };
                if self.fixed.get(&d) == Some(&1) {
                    break;
                }
                match sides(board, d).into_iter().find(|&f| f != e && is_on(f)) {
                    Some(f) => e = f,
                    None => break,
                }
            }
            pairs.push((start.min(d), start.max(d)));
        }
        let closed = (0..self.edges.len()).any(|i| on[i] && !used[i]);
        pairs.sort_unstable();
        (!closed).then_some(pairs)
    }
}

/// Clauses: the number of `lits` on is one of `allowed`.
fn exactly_one_of(solver: &mut BasicSolver, lits: &[Lit], allowed: &[usize]) {
    let n = lits.len();
    for mask in 0u32..(1 << n) {
        if !allowed.contains(&(mask.count_ones() as usize)) {
            let mut clause: Vec<Lit> = (0..n)
                .map(|i| {
                    if mask & (1 << i) != 0 {
                        !lits[i]
                    } else {
                        lits[i]
                    }
                })
                .collect();
            solver.add_clause_reuse(&mut clause);
        }
    }
}

/// Lines around `cell` in the answer `s`.
fn lines_at(board: &Board, inst: &Instance, cell: usize, s: &[bool]) -> usize {
    sides(board, cell)
        .into_iter()
        .filter(|&e| match inst.var_of(e) {
            Some(v) => s[v],
            None => board.at(e) == LINE,
        })
        .count()
}

/// Clues that make the answer unique, or else leave the fewest undetermined edges (module
/// notes).
fn suggest(
    board: &mut Board,
    inst: &mut Instance,
    differs: &[bool],
    sols: &mut Vec<Vec<bool>>,
    budget: &mut Budget,
    counts: &mut SearchCounts,
    out: &mut Vec<Suggestion>,
) -> Result<(), Halt> {
    let cells: Vec<usize> = board
        .grid_cells()
        .filter(|&c| clue_of(board.at(c)).is_none())
        .filter(|&c| {
            sides(board, c)
                .into_iter()
                .any(|e| inst.var_of(e).is_some_and(|v| differs[v]))
        })
        .collect();
    let mut unique = Vec::new();
    // Clues with some answer but not one alone, for ranking: (cell, clue, an answer).
    let mut open: Vec<(usize, u8, Vec<bool>)> = Vec::new();
    'cells: for &cell in &cells {
        let known = sides(board, cell)
            .into_iter()
            .filter(|&e| inst.var_of(e).is_none() && board.at(e) == LINE)
            .count();
        let lits: Vec<Lit> = sides(board, cell)
            .into_iter()
            .filter_map(|e| inst.var_of(e).map(|v| inst.lit(v, true)))
            .collect();
        for k in known..=3 {
            let meeting: Vec<&Vec<bool>> = sols
                .iter()
                .filter(|s| lines_at(board, inst, cell, s) == k)
                .collect();
            if meeting.len() >= 2 {
                open.push((cell, k as u8, meeting[0].clone()));
                continue;
            }
            let g = inst.guard();
            inst.exactly_if(g, &lits, k - known);
            let one = match meeting.first() {
                Some(s) => Some((*s).clone()),
                None => inst.answer(board, &[g], budget, counts)?,
            };
            let Some(one) = one else {
                inst.add(&[!g]);
                continue;
            };
            let h = inst.guard();
            block(inst, h, differs, &one);
            let two = inst.answer(board, &[g, h], budget, counts)?;
            inst.add(&[!g]);
            inst.add(&[!h]);
            if !sols.contains(&one) {
                sols.push(one.clone());
            }
            match two {
                None => {
                    unique.push(suggestion(board, cell, k, 0));
                    if unique.len() >= MAX_SUGGESTIONS {
                        break 'cells;
                    }
                }
                Some(s) => {
                    sols.push(s);
                    open.push((cell, k as u8, one));
                }
            }
            // Cut short here, the unique clues found so far are the answer.
            *out = unique.clone();
        }
    }
    if !unique.is_empty() {
        *out = unique;
        return Ok(());
    }
    // No single clue makes the answer unique: rank by the edges left undetermined.
    let mut ranked = Vec::new();
    let mut calls = 0;
    for (cell, k, base) in open {
        if calls >= RANKING_CALLS {
            break;
        }
        let known = sides(board, cell)
            .into_iter()
            .filter(|&e| inst.var_of(e).is_none() && board.at(e) == LINE)
            .count();
        let lits: Vec<Lit> = sides(board, cell)
            .into_iter()
            .filter_map(|e| inst.var_of(e).map(|v| inst.lit(v, true)))
            .collect();
        let mut left = vec![false; base.len()];
        for s in sols
            .iter()
            .filter(|s| lines_at(board, inst, cell, s) == usize::from(k))
        {
            for v in 0..base.len() {
                left[v] |= s[v] != base[v];
            }
        }
        let g = inst.guard();
        inst.exactly_if(g, &lits, usize::from(k) - known);
        let open_vars: Vec<usize> = (0..base.len())
            .filter(|&v| differs[v] && !left[v])
            .collect();
        let mut found = Vec::new();
        let result = flips(
            board,
            inst,
            &base,
            open_vars,
            &[g],
            budget,
            counts,
            RANKING_CALLS - calls,
            &mut found,
        );
        inst.add(&[!g]);
        result?;
        calls += found.len() + 1;
        for s in &found {
            for v in 0..base.len() {
                left[v] |= s[v] != base[v];
            }
        }
        let u = left.iter().filter(|&&x| x).count();
        ranked.push(suggestion(board, cell, usize::from(k), u));
        ranked.sort_by_key(|s| (s.undetermined, s.row, s.col, s.clue));
        ranked.truncate(MAX_SUGGESTIONS);
        *out = ranked.clone();
    }
    Ok(())
}

fn suggestion(board: &Board, cell: usize, clue: usize, undetermined: usize) -> Suggestion {
    let (y, x) = board.point(cell);
    Suggestion {
        row: (y / 2) as usize,
        col: (x / 2) as usize,
        clue: clue as u8,
        undetermined,
    }
}
