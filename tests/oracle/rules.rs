//! The oracle's judgement of small rules, for the differential test of slink's rule prover.
//!
//! A rule here is drawn in a window of `h x w` cells (1 or 2 each way): clues in some of
//! its cells, lines and crosses on some of the edges between its dots (the premise), and one
//! or more further facts on edges the premise leaves unknown (what the conclusion adds).
//!
//! Two judgements, both on the SAT encoding and neither sharing code with slink:
//!
//! - [`local`], slink's own notion of soundness (src/soundness.rs) rebuilt independently:
//!   the variables are the window's edges (those touching a drawn dot, so with the stubs
//!   leaving the picture); every drawn dot has 0 or 2 lines, every premise clue its count;
//!   for the single-loop law, no closed cycle among the window's lines (lazy cuts). The
//!   rule is sound when premise and "some added fact fails" together have no model. The
//!   verdict (sound / unsound / sound only given a single loop / never fires) must equal
//!   the prover's, since the notions are the same by definition.
//! - [`padded`], the global reading: the window in the middle of a grid two cells larger on
//!   every side, blank clues outside, every solution a single loop (lazy cuts, as for the
//!   puzzles), for a rule marked `assumes single-loop` also a loop that does not lie wholly
//!   in the window (the engine's guard keeps such rules off puzzles where it could). A
//!   counterexample here is an answer of a real puzzle that breaks the rule; so a rule the
//!   prover calls sound must have none. The converse need not hold: the prover's local
//!   counterexample may not extend to a single loop (two cycles, or a cycle and a path).

use super::{Grid, LoopSat, components};
use varisat::{ExtendFormula, Lit, Var};

/// A random rule in the oracle's terms.
#[derive(Clone, Debug)]
pub struct RuleCase {
    /// Cells down and across.
    pub h: usize,
    pub w: usize,
    /// Premise clues, row by row.
    pub clues: Vec<Option<u8>>,
    /// Premise facts on the picture's edges (numbered as in `Grid::blank(h, w)`).
    pub premise: Vec<Option<bool>>,
    /// Facts the conclusion adds (edge, is-a-line), on edges the premise leaves unknown.
    pub added: Vec<(usize, bool)>,
    /// Marked `assumes single-loop`.
    pub single_loop: bool,
}

/// A verdict, in the prover's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    Sound,
    /// Unsound without the single-loop law, sound with it (only for unmarked rules).
    NeedsSingleLoop,
    Unsound,
    NeverFires,
    Undecided,
}

impl RuleCase {
    fn small(&self) -> Grid {
        Grid::blank(self.h, self.w)
    }

    /// The rule in slink's rule-file syntax.
    pub fn to_text(&self, name: &str) -> String {
        let mut s = format!("rule {name}\n");
        if self.single_loop {
            s.push_str("  assumes single-loop\n");
        }
        let mut with_added = self.premise.clone();
        for &(e, on) in &self.added {
            with_added[e] = Some(on);
        }
        s.push_str("when\n");
        s.push_str(&self.picture(&self.premise));
        s.push_str("then\n");
        s.push_str(&self.picture(&with_added));
        s.push('\n');
        s
    }

    fn picture(&self, facts: &[Option<bool>]) -> String {
        let g = self.small();
        let mut s = String::new();
        for r in 0..=self.h {
            s.push_str("  +");
            for c in 0..self.w {
                s.push_str(match facts[g.h(r, c)] {
                    Some(true) => "---",
                    Some(false) => " x ",
                    None => "   ",
                });
                s.push('+');
            }
            s.push('\n');
            if r == self.h {
                break;
            }
            s.push_str("  ");
            for c in 0..=self.w {
                s.push_str(match facts[g.v(r, c)] {
                    Some(true) => "|",
                    Some(false) => "x",
                    None => " ",
                });
                if c < self.w {
                    match self.clues[r * self.w + c] {
                        Some(k) => s.push_str(&format!(" {k} ")),
                        None => s.push_str("   "),
                    }
                }
            }
            s.push('\n');
        }
        s
    }
}

/// The picture's edge `e` (numbered in `Grid::blank(h, w)`) in a grid `pad` cells larger on
/// every side.
fn embed(small: &Grid, big: &Grid, pad: usize, e: usize) -> usize {
    let hs = (small.rows + 1) * small.cols;
    if e < hs {
        let (r, c) = (e / small.cols, e % small.cols);
        big.h(r + pad, c + pad)
    } else {
        let k = e - hs;
        let (r, c) = (k / (small.cols + 1), k % (small.cols + 1));
        big.v(r + pad, c + pad)
    }
}

fn lit(e: usize, line: bool) -> Lit {
    Lit::from_var(Var::from_index(e), line)
}

/// slink's notion, rebuilt on SAT: whether some assignment of the window's edges obeys the
/// local laws (and the single-loop law when `law`), matches the premise and, when
/// `break_conclusion`, breaks some added fact.
fn local_sat(rule: &RuleCase, law: bool, break_conclusion: bool) -> bool {
    let small = rule.small();
    // The window's edges are those of a grid one cell larger each side that touch a dot of
    // the picture; the others get no clause and are ignored.
    let big = Grid::blank(rule.h + 2, rule.w + 2);
    let mut in_window = vec![false; big.edges()];
    let mut solver = varisat::Solver::new();
    for r in 1..=rule.h + 1 {
        for c in 1..=rule.w + 1 {
            let edges = big.dot_edges(r, c);
            for &e in &edges {
                in_window[e] = true;
            }
            forbid(&mut solver, &edges, |n| n == 0 || n == 2);
        }
    }
    for r in 0..rule.h {
        for c in 0..rule.w {
            if let Some(k) = rule.clues[r * rule.w + c] {
                forbid(&mut solver, &big.sides(r + 1, c + 1), |n| n == k as usize);
            }
        }
    }
    for (e, fact) in rule.premise.iter().enumerate() {
        if let Some(on) = *fact {
            solver.add_clause(&[lit(embed(&small, &big, 1, e), on)]);
        }
    }
    if break_conclusion {
        let clause: Vec<Lit> = rule
            .added
            .iter()
            .map(|&(e, on)| lit(embed(&small, &big, 1, e), !on))
            .collect();
        solver.add_clause(&clause);
    }
    loop {
        if !solver.solve().expect("varisat failed") {
            return false;
        }
        if !law {
            return true;
        }
        let model = solver.model().expect("a model");
        let mut lines = vec![false; big.edges()];
        for l in model {
            if l.index() < lines.len() {
                lines[l.index()] = l.is_positive() && in_window[l.index()];
            }
        }
        // A closed cycle: a component every dot of which has two of its lines.
        let mut cut = false;
        for comp in components(&big, &lines) {
            let mut degree = std::collections::HashMap::new();
            for &e in &comp {
                let (a, b) = big.ends(e);
                *degree.entry(a).or_insert(0) += 1;
                *degree.entry(b).or_insert(0) += 1;
            }
            if degree.values().all(|&d| d == 2) {
                let clause: Vec<Lit> = comp.iter().map(|&e| lit(e, false)).collect();
                solver.add_clause(&clause);
                cut = true;
            }
        }
        if !cut {
            return true;
        }
    }
}

fn forbid(solver: &mut varisat::Solver<'static>, edges: &[usize], allowed: impl Fn(usize) -> bool) {
    let n = edges.len();
    for mask in 0u32..(1 << n) {
        if !allowed(mask.count_ones() as usize) {
            let clause: Vec<Lit> = (0..n)
                .map(|i| lit(edges[i], mask & (1 << i) == 0))
                .collect();
            solver.add_clause(&clause);
        }
    }
}

/// The oracle's verdict in slink's own (local) notion of soundness.
pub fn local(rule: &RuleCase) -> Verdict {
    let marked = rule.single_loop;
    if !local_sat(rule, marked, false) {
        return Verdict::NeverFires;
    }
    if !local_sat(rule, marked, true) {
        return Verdict::Sound;
    }
    if marked || local_sat(rule, true, true) {
        Verdict::Unsound
    } else {
        Verdict::NeedsSingleLoop
    }
}

/// Whether some added fact is sound in slink's notion alone (a helper for drawing rules
/// that are likely sound).
pub fn locally_forced(rule: &RuleCase, e: usize, on: bool) -> bool {
    let one = RuleCase {
        added: vec![(e, on)],
        ..rule.clone()
    };
    local_sat(&one, rule.single_loop, false) && !local_sat(&one, rule.single_loop, true)
}

/// The global reading on a padded grid: `Some(answer)` is the answer of a puzzle (blank
/// outside the window) that matches the premise and breaks the conclusion; `None` when no
/// such answer exists.
pub fn padded(rule: &RuleCase) -> Option<Vec<bool>> {
    const PAD: usize = 2;
    let small = rule.small();
    let mut big = Grid::blank(rule.h + 2 * PAD, rule.w + 2 * PAD);
    for r in 0..rule.h {
        for c in 0..rule.w {
            big.clues[(r + PAD) * big.cols + c + PAD] = rule.clues[r * rule.w + c];
        }
    }
    let mut sat = LoopSat::new(&big);
    for (e, fact) in rule.premise.iter().enumerate() {
        if let Some(on) = *fact {
            sat.add_clause(&[(embed(&small, &big, PAD, e), on)]);
        }
    }
    let broken: Vec<(usize, bool)> = rule
        .added
        .iter()
        .map(|&(e, on)| (embed(&small, &big, PAD, e), !on))
        .collect();
    sat.add_clause(&broken);
    if rule.single_loop {
        // The loop does not lie wholly on the edges between the picture's dots.
        let inside: std::collections::HashSet<usize> = (0..small.edges())
            .map(|e| embed(&small, &big, PAD, e))
            .collect();
        let outside: Vec<(usize, bool)> = (0..big.edges())
            .filter(|e| !inside.contains(e))
            .map(|e| (e, true))
            .collect();
        sat.add_clause(&outside);
    }
    sat.next_loop()
}
