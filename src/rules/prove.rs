//! Soundness proofs of rules by brute force over their window, and duplicate / subsumption reports.
//!
//! A rule's *window* is every edge touching one of its drawn dots. [`prove`] enumerates every
//! assignment of line / cross to the window's edges that obeys the local laws and matches the
//! premise, and checks that each one also satisfies the conclusion. The local laws are:
//!
//! - each clue cell of the premise has exactly as many lines as its clue;
//! - each dot whose four edges all lie in the window (every drawn dot) has 0 or 2 lines;
//! - no other dot touching the window has more than 2 lines among its window edges (its other
//!   edges lie beyond the window and are free, so this is all that can be said about it);
//! - for rules marked `assumes single-loop` only: the answer is one loop, and one that does not
//!   fit inside the window, so the window's lines contain no closed cycle. (The engine keeps
//!   that promise: it switches such rules off on puzzles whose nonzero clues fit in the reach
//!   of a loop confined to one of their windows, see `RuleBook::single_loop_rules_apply`;
//!   without that guard a closed cycle in the window could be the whole answer, as the loop
//!   around two adjacent 3s is on the 1x2 puzzle `3 3`.)
//!
//! Colour facts are judged on each full assignment: the cells on either side of each window
//! edge are related (across a line they differ, across a cross they agree), cells outside the
//! grid are the outside, and the premise's relations are added; an assignment whose relations
//! clash cannot be part of a board and is skipped. A conclusion relation holds when these
//! relations imply it; two cells they leave unrelated break it (either side is possible).
//!
//! The search backtracks edge by edge and prunes as soon as a dot or a clue can no longer be
//! satisfied. Besides this general reading, every way the grid's border can cut the window
//! (a premise cross also matches an edge outside the grid) is checked as its own reading: the
//! edges outside are crosses and the dots outside obey no law. Such a reading only ever admits
//! assignments the general one admits too, so it can find nothing new; it is checked anyway.
//!
//! [`overlaps`] compares the symmetry variants of different rules and finds rules that are the
//! same up to rotation, reflection and translation, or that another rule makes redundant
//! (rules with colour letters are left out of that comparison).

use crate::geometry::{Kind, Pos, Symmetry};
use crate::rules::expand::{Variant, expand_all};
use crate::rules::{Colour, Fact, Glyph, Rule, colour_relations};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Where the grid's border cuts a rule's window, in the rule's own lattice coordinates.
///
/// Each side names the lattice row or column of the grid's outermost dots on that side;
/// `None` means that side of the grid is far from the window. [`Border::NONE`] is the general
/// reading, where the whole window lies inside the grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Border {
    /// The lattice row of the grid's top dot row.
    pub top: Option<i32>,
    /// The lattice row of the grid's bottom dot row.
    pub bottom: Option<i32>,
    /// The lattice column of the grid's leftmost dot column.
    pub left: Option<i32>,
    /// The lattice column of the grid's rightmost dot column.
    pub right: Option<i32>,
}

impl Border {
    /// The general reading: no border anywhere near the window.
    pub const NONE: Border = Border {
        top: None,
        bottom: None,
        left: None,
        right: None,
    };

    /// Whether no side of the grid cuts the window.
    pub fn is_none(&self) -> bool {
        *self == Border::NONE
    }

    /// Whether a lattice point (dot, edge or cell) lies inside the grid.
    pub fn contains(&self, p: Pos) -> bool {
        self.top.is_none_or(|t| p.y >= t)
            && self.bottom.is_none_or(|b| p.y <= b)
            && self.left.is_none_or(|l| p.x >= l)
            && self.right.is_none_or(|r| p.x <= r)
    }

    /// Names the reading in words, e.g. "at the grid's top-left corner".
    pub fn describe(&self) -> String {
        let mut sides = Vec::new();
        if self.top.is_some() {
            sides.push("top");
        }
        if self.bottom.is_some() {
            sides.push("bottom");
        }
        if self.left.is_some() {
            sides.push("left");
        }
        if self.right.is_some() {
            sides.push("right");
        }
        match sides.as_slice() {
            [] => "anywhere inside the grid".to_string(),
            [side] => format!("along the grid's {side} border"),
            [a, b] if (*a == "top" || *a == "bottom") && (*b == "left" || *b == "right") => {
                format!("at the grid's {a}-{b} corner")
            }
            _ => format!("with the grid's {} borders", sides.join(", ")),
        }
    }
}

/// The outcome of one reading of a rule (general or at a border).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // one per reading checked; the counterexample is its point
pub enum Outcome {
    /// No assignment obeying the laws matches the premise.
    NeverMatches,
    /// Every assignment that matches the premise satisfies the conclusion.
    Holds,
    /// This assignment matches the premise and breaks the conclusion.
    Fails(Counterexample),
}

/// What [`prove`] found out about a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The rule is sound in every reading.
    Sound {
        /// It is sound only given the single-loop law (it is marked `assumes single-loop`).
        needs_single_loop: bool,
    },
    /// Some board matches the premise and breaks the conclusion.
    Unsound(Counterexample),
    /// Not marked `assumes single-loop`, unsound without that law and sound with it; the
    /// counterexample breaks the single-loop law.
    NeedsSingleLoop(Counterexample),
    /// No board matches the premise: the rule can never fire.
    NeverFires,
    /// The proof ran out of its budget before it could decide (the window is too large for
    /// a brute-force proof within the budget).
    Undecided {
        /// Search steps taken (edges set) before giving up.
        steps: u64,
        /// Edges in the rule's window.
        edges: usize,
    },
}

impl Verdict {
    /// Whether the verdict is a failure of the check (unsound, never firing or undecided).
    pub fn is_error(&self) -> bool {
        !matches!(self, Verdict::Sound { .. })
    }

    /// Whether a rule with this verdict may run without risk of a false conclusion: proven
    /// sound, or never firing.
    pub fn is_safe(&self) -> bool {
        matches!(self, Verdict::Sound { .. } | Verdict::NeverFires)
    }
}

/// How much a proof may work before it gives up with [`Verdict::Undecided`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search steps (an edge set to line or cross) over every reading of one rule.
    pub steps: u64,
}

impl Budget {
    /// The budget of `rules check` and of loading a rule set: about 2 s on the development
    /// machine when a large window uses it all.
    pub const DEFAULT: Budget = Budget { steps: 25_000_000 };
}

/// Steps between two calls of a proof's progress callback.
pub const PROGRESS_EVERY: u64 = 1 << 22;

/// The proof gave up: its budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OutOfBudget;

/// The work done so far by one proof, against its budget.
struct Work<'a> {
    steps: u64,
    limit: u64,
    progress: &'a mut dyn FnMut(u64),
}

impl Work<'_> {
    /// Counts one step; fails once the budget is spent.
    #[inline]
    fn step(&mut self) -> Result<(), OutOfBudget> {
        self.steps += 1;
        if self.steps.is_multiple_of(PROGRESS_EVERY) {
            (self.progress)(self.steps);
        }
        if self.steps > self.limit {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }
}

/// An assignment of the window that matches a rule's premise and breaks its conclusion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The reading it was found in.
    pub border: Border,
    /// Whether the single-loop law was assumed.
    pub single_loop: bool,
    /// The rule's drawn dots inside the grid.
    pub dots: Vec<Pos>,
    /// The premise's clues.
    pub clues: Vec<Fact>,
    /// Every window edge inside the grid that is a line (sorted).
    pub lines: Vec<Pos>,
    /// Every window edge inside the grid that is a cross (sorted).
    pub crosses: Vec<Pos>,
    /// The conclusion facts that do not hold.
    pub failed: Vec<Fact>,
    /// The conclusion relations (cell, cell, differ) that do not hold.
    pub failed_colours: Vec<(Pos, Pos, bool)>,
    /// The sides of the premise's and conclusion's lettered cells in this assignment, as
    /// letters (cells with no relation between them get different letters).
    pub colours: Vec<Colour>,
}

impl Counterexample {
    /// The state of an edge in this assignment: `Line`, `Cross` (also for an edge outside the
    /// grid), or `None` for an edge outside the window.
    pub fn state(&self, at: Pos) -> Option<Glyph> {
        if self.lines.binary_search(&at).is_ok() {
            Some(Glyph::Line)
        } else if self.crosses.binary_search(&at).is_ok() || !self.border.contains(at) {
            Some(Glyph::Cross)
        } else {
            None
        }
    }

    /// Every fact of the assignment: clues, lines and crosses.
    pub fn facts(&self) -> Vec<Fact> {
        let mut facts = self.clues.clone();
        facts.extend(self.lines.iter().map(|&at| Fact {
            at,
            glyph: Glyph::Line,
        }));
        facts.extend(self.crosses.iter().map(|&at| Fact {
            at,
            glyph: Glyph::Cross,
        }));
        facts.sort();
        facts
    }

    /// Draws the assignment in the rule language's glyphs: clues, every line, and the crosses
    /// that matter (those of `premise` and those of failed conclusion facts). Blank edges are
    /// crosses too. Only the part inside the grid is drawn.
    pub fn picture(&self, premise: &[Fact], indent: usize) -> String {
        let mut facts = self.clues.clone();
        facts.extend(self.lines.iter().map(|&at| Fact {
            at,
            glyph: Glyph::Line,
        }));
        let shown: BTreeSet<Pos> = premise
            .iter()
            .chain(&self.failed)
            .filter(|f| f.glyph == Glyph::Cross)
            .map(|f| f.at)
            .collect();
        facts.extend(
            self.crosses
                .iter()
                .filter(|at| shown.contains(at))
                .map(|&at| Fact {
                    at,
                    glyph: Glyph::Cross,
                }),
        );
        crate::rules::draw::draw_coloured(&self.dots, &facts, &self.colours, &[], indent)
    }
}

/// Proves a rule sound, or finds a counterexample, or finds that it can never fire, within
/// [`Budget::DEFAULT`].
pub fn prove(rule: &Rule) -> Verdict {
    prove_with(rule, Budget::DEFAULT, &mut |_| {})
}

/// Like [`prove`], within `budget`, calling `progress` with the steps taken every
/// [`PROGRESS_EVERY`] steps (for a progress line on a terminal).
///
/// The general reading decides; the border readings are checked only once it holds. A rule not
/// marked `assumes single-loop` that fails without the law is tried again with it, to tell
/// "unsound" from "sound only given a single loop".
pub fn prove_with(rule: &Rule, budget: Budget, progress: &mut dyn FnMut(u64)) -> Verdict {
    let mut work = Work {
        steps: 0,
        limit: budget.steps,
        progress,
    };
    match decide(rule, &mut work) {
        Ok(verdict) => verdict,
        Err(OutOfBudget) => Verdict::Undecided {
            steps: work.steps,
            edges: window(rule).len(),
        },
    }
}

fn decide(rule: &Rule, work: &mut Work<'_>) -> Result<Verdict, OutOfBudget> {
    let marked = rule.assumes_single_loop;
    match check_within(rule, &Border::NONE, marked, work)? {
        Outcome::NeverMatches => return Ok(Verdict::NeverFires),
        Outcome::Fails(cx) if marked => return Ok(Verdict::Unsound(cx)),
        Outcome::Fails(cx) => {
            return Ok(match check_within(rule, &Border::NONE, true, work)? {
                Outcome::Fails(cx) => Verdict::Unsound(cx),
                _ => Verdict::NeedsSingleLoop(cx),
            });
        }
        Outcome::Holds => {}
    }
    for border in borders(rule) {
        if let Outcome::Fails(cx) = check_within(rule, &border, marked, work)? {
            return Ok(Verdict::Unsound(cx));
        }
    }
    let needs_single_loop =
        marked && check_within(rule, &Border::NONE, false, work)? != Outcome::Holds;
    Ok(Verdict::Sound { needs_single_loop })
}

/// The window of a rule: every edge touching one of its drawn dots (sorted).
pub fn window(rule: &Rule) -> Vec<Pos> {
    let mut edges: BTreeSet<Pos> = rule.dots.iter().flat_map(|d| d.around()).collect();
    // The checker guarantees the rest lie in the window already; keep the search total anyway.
    for f in rule.premise.iter().chain(&rule.conclusion) {
        match f.glyph {
            Glyph::Clue(_) => edges.extend(f.at.around()),
            _ => {
                edges.insert(f.at);
            }
        }
    }
    edges.into_iter().collect()
}

/// Every way the grid's border can cut the window of a rule, leaving each premise clue cell and
/// premise line inside the grid; placements that leave the same edges outside are listed once.
pub fn borders(rule: &Rule) -> Vec<Border> {
    let edges = window(rule);
    let (Some(y0), Some(y1)) = (
        rule.dots.iter().map(|d| d.y).min(),
        rule.dots.iter().map(|d| d.y).max(),
    ) else {
        return Vec::new();
    };
    let (x0, x1) = (
        rule.dots.iter().map(|d| d.x).min().unwrap_or(0),
        rule.dots.iter().map(|d| d.x).max().unwrap_or(0),
    );
    let options = |lo: i32, hi: i32| -> Vec<Option<i32>> {
        std::iter::once(None)
            .chain((lo..=hi).step_by(2).map(Some))
            .collect()
    };
    let (rows, cols) = (options(y0, y1), options(x0, x1));
    let keep: Vec<Pos> = rule
        .premise
        .iter()
        .filter(|f| f.glyph != Glyph::Cross)
        .map(|f| f.at)
        .collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for &top in &rows {
        for &bottom in &rows {
            if matches!((top, bottom), (Some(t), Some(b)) if t >= b) {
                continue;
            }
            for &left in &cols {
                for &right in &cols {
                    if matches!((left, right), (Some(l), Some(r)) if l >= r) {
                        continue;
                    }
                    let border = Border {
                        top,
                        bottom,
                        left,
                        right,
                    };
                    if border.is_none() || !keep.iter().all(|&p| border.contains(p)) {
                        continue;
                    }
                    let outside: Vec<Pos> = edges
                        .iter()
                        .copied()
                        .filter(|&e| !border.contains(e))
                        .collect();
                    if !outside.is_empty() && seen.insert(outside) {
                        out.push(border);
                    }
                }
            }
        }
    }
    out
}

/// Checks one reading: first whether any assignment matches the premise at all, then, for
/// each conclusion fact, whether some assignment matches the premise with that fact broken.
/// Forcing the broken fact first prunes far more than enumerating every matching assignment
/// and testing the conclusion on each (a 0 drawn in a large window is proven at once: a line
/// on its side breaks its law on the first step).
fn check_within(
    rule: &Rule,
    border: &Border,
    single_loop: bool,
    work: &mut Work<'_>,
) -> Result<Outcome, OutOfBudget> {
    let problem = Problem::new(rule, border, single_loop);
    let Some(first) = problem.find(None, work)? else {
        return Ok(Outcome::NeverMatches);
    };
    for &(e, glyph) in &problem.conclusion {
        let broken = glyph != Glyph::Line;
        let found = match problem.fixed[e] {
            // A fact fixed by the reading (an edge outside the grid) holds or breaks everywhere.
            Some(value) if value == broken => Some(first.clone()),
            Some(_) => None,
            None => problem.find(Some((e, broken)), work)?,
        };
        if let Some(values) = found {
            let failed: Vec<Fact> = problem
                .conclusion
                .iter()
                .filter(|&&(e, glyph)| values[e] != (glyph == Glyph::Line))
                .map(|&(e, glyph)| Fact {
                    at: problem.edges[e],
                    glyph,
                })
                .collect();
            return Ok(Outcome::Fails(
                problem.counterexample(rule, &values, failed),
            ));
        }
    }
    for &relation in &problem.colour_conclusion {
        let broken = |values: &[bool]| {
            problem
                .relations(values)
                .is_some_and(|uf| !uf.implies(relation))
        };
        if let Some(values) = problem.find_where(None, &broken, work)? {
            return Ok(Outcome::Fails(problem.counterexample(
                rule,
                &values,
                Vec::new(),
            )));
        }
    }
    Ok(Outcome::Holds)
}

/// A union-find with parity over cells (lattice positions), for judging colour facts.
#[derive(Default)]
struct Sides {
    /// Per cell: its parent and its side relative to it.
    parent: HashMap<Pos, (Pos, bool)>,
}

/// Stands for every cell outside the grid.
const OUTSIDE: Pos = Pos {
    y: i32::MIN,
    x: i32::MIN,
};

impl Sides {
    fn find(&self, mut p: Pos) -> (Pos, bool) {
        let mut flip = false;
        while let Some(&(up, f)) = self.parent.get(&p) {
            if up == p {
                break;
            }
            flip ^= f;
            p = up;
        }
        (p, flip)
    }

    /// Relates two cells; false when that clashes with what is known.
    fn relate(&mut self, a: Pos, b: Pos, differ: bool) -> bool {
        let ((ra, fa), (rb, fb)) = (self.find(a), self.find(b));
        if ra == rb {
            return (fa ^ fb) == differ;
        }
        self.parent.insert(ra, (rb, fa ^ fb ^ differ));
        self.parent.entry(rb).or_insert((rb, false));
        true
    }

    /// Whether the relations imply `(a, b, differ)`.
    fn implies(&self, (a, b, differ): (Pos, Pos, bool)) -> bool {
        let ((ra, fa), (rb, fb)) = (self.find(a), self.find(b));
        ra == rb && (fa ^ fb) == differ
    }
}

/// A local law over some window edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Law {
    /// A clue cell: exactly this many lines.
    Exactly(u8),
    /// A dot with all four edges in the window: 0 or 2 lines.
    ZeroOrTwo,
    /// A dot with some edges beyond the window: at most 2 lines among its window edges.
    AtMostTwo,
}

impl Law {
    /// Whether `lines` decided lines and `open` undecided edges can still satisfy the law.
    fn feasible(self, lines: u8, open: u8) -> bool {
        match self {
            Law::Exactly(n) => lines <= n && lines + open >= n,
            Law::ZeroOrTwo => lines <= 2 && (lines != 1 || open > 0),
            Law::AtMostTwo => lines <= 2,
        }
    }
}

/// One reading of a rule as a constraint problem over its window's edges.
struct Problem {
    /// Window edges inside the grid or not, sorted (search order).
    edges: Vec<Pos>,
    /// Fixed edges: premise facts and crosses outside the grid.
    fixed: Vec<Option<bool>>,
    /// The laws, each with its edges.
    laws: Vec<(Law, Vec<usize>)>,
    /// For each edge, the laws it takes part in.
    by_edge: Vec<Vec<usize>>,
    /// For each edge, its two dots (indices into a dot numbering), for the single-loop law.
    ends: Vec<[usize; 2]>,
    /// Number of dots in that numbering.
    dot_count: usize,
    /// Whether the single-loop law applies.
    single_loop: bool,
    /// The conclusion as (edge, glyph).
    conclusion: Vec<(usize, Glyph)>,
    /// The premise's colour relations (cell, cell, differ).
    colour_premise: Vec<(Pos, Pos, bool)>,
    /// The conclusion's colour relations.
    colour_conclusion: Vec<(Pos, Pos, bool)>,
    /// The lettered cells (premise, then conclusion), for counterexample pictures.
    lettered: Vec<Pos>,
    /// The reading.
    border: Border,
}

impl Problem {
    fn new(rule: &Rule, border: &Border, single_loop: bool) -> Problem {
        let edges = window(rule);
        let index: HashMap<Pos, usize> = edges.iter().enumerate().map(|(i, &e)| (e, i)).collect();
        let mut fixed: Vec<Option<bool>> = edges
            .iter()
            .map(|&e| (!border.contains(e)).then_some(false))
            .collect();
        let mut laws = Vec::new();
        for f in &rule.premise {
            match f.glyph {
                Glyph::Clue(n) => {
                    let sides = f.at.around().iter().map(|s| index[s]).collect();
                    laws.push((Law::Exactly(n), sides));
                }
                Glyph::Line => fixed[index[&f.at]] = Some(true),
                Glyph::Cross => fixed[index[&f.at]] = Some(false),
            }
        }
        let mut dots: BTreeMap<Pos, Vec<usize>> = BTreeMap::new();
        for (i, e) in edges.iter().enumerate() {
            for d in e.edge_dots() {
                dots.entry(d).or_default().push(i);
            }
        }
        let dot_index: HashMap<Pos, usize> =
            dots.keys().enumerate().map(|(i, &d)| (d, i)).collect();
        for (&dot, around) in &dots {
            if !border.contains(dot) {
                continue;
            }
            let law = if around.len() == 4 {
                Law::ZeroOrTwo
            } else {
                Law::AtMostTwo
            };
            laws.push((law, around.clone()));
        }
        let mut by_edge = vec![Vec::new(); edges.len()];
        for (l, (_, members)) in laws.iter().enumerate() {
            for &e in members {
                by_edge[e].push(l);
            }
        }
        let ends = edges
            .iter()
            .map(|e| {
                let [a, b] = e.edge_dots();
                [dot_index[&a], dot_index[&b]]
            })
            .collect();
        let conclusion = rule
            .conclusion
            .iter()
            .filter(|f| f.at.is_edge())
            .map(|f| (index[&f.at], f.glyph))
            .collect();
        // Cells outside the grid are one: the outside.
        let outside = |list: Vec<(Pos, Pos, bool)>| -> Vec<(Pos, Pos, bool)> {
            let cell = |p: Pos| if border.contains(p) { p } else { OUTSIDE };
            list.into_iter()
                .map(|(a, b, differ)| (cell(a), cell(b), differ))
                .collect()
        };
        let mut lettered: Vec<Pos> = rule
            .premise_colours
            .iter()
            .chain(&rule.conclusion_colours)
            .map(|c| c.at)
            .collect();
        lettered.dedup();
        Problem {
            edges,
            fixed,
            laws,
            by_edge,
            ends,
            dot_count: dots.len(),
            single_loop,
            conclusion,
            colour_premise: outside(colour_relations(&[], &rule.premise_colours)),
            colour_conclusion: outside(colour_relations(
                &rule.premise_colours,
                &rule.conclusion_colours,
            )),
            lettered,
            border: *border,
        }
    }

    /// Whether the rule states colours at all.
    fn coloured(&self) -> bool {
        !self.lettered.is_empty()
    }

    /// The relations between cells that a full assignment and the premise's colour facts
    /// give, or `None` when they clash (no board holds both).
    fn relations(&self, values: &[bool]) -> Option<Sides> {
        let mut sides = Sides::default();
        let cell = |p: Pos| if self.border.contains(p) { p } else { OUTSIDE };
        for (e, &line) in self.edges.iter().zip(values) {
            let across = if e.y & 1 == 0 {
                Pos::new(1, 0)
            } else {
                Pos::new(0, 1)
            };
            if !sides.relate(cell(*e - across), cell(*e + across), line) {
                return None;
            }
        }
        for &(a, b, differ) in &self.colour_premise {
            if !sides.relate(a, b, differ) {
                return None;
            }
        }
        Some(sides)
    }

    /// The sides of the lettered cells in an assignment, as letters.
    fn letters(&self, values: &[bool]) -> Vec<Colour> {
        let Some(sides) = self.relations(values) else {
            return Vec::new();
        };
        let cell = |p: Pos| if self.border.contains(p) { p } else { OUTSIDE };
        let mut roots: Vec<(Pos, bool)> = Vec::new();
        let mut out = Vec::new();
        for &at in &self.lettered {
            if !self.border.contains(at) {
                continue;
            }
            let (root, flip) = sides.find(cell(at));
            let k = match roots.iter().position(|&(r, _)| r == root) {
                Some(k) => k,
                None => {
                    roots.push((root, flip));
                    roots.len() - 1
                }
            };
            out.push(Colour {
                at,
                letter: b'a' + k as u8 + u8::from(k >= (b'x' - b'a') as usize),
                upper: flip != roots[k].1,
            });
        }
        out.sort();
        out
    }

    /// The first assignment (crosses tried before lines) that obeys the laws and matches the
    /// premise, with one more edge forced to a value if asked.
    fn find(
        &self,
        force: Option<(usize, bool)>,
        work: &mut Work<'_>,
    ) -> Result<Option<Vec<bool>>, OutOfBudget> {
        self.find_where(force, &|_| true, work)
    }

    /// Like [`Problem::find`], for an assignment that `extra` also accepts.
    fn find_where(
        &self,
        force: Option<(usize, bool)>,
        extra: &dyn Fn(&[bool]) -> bool,
        work: &mut Work<'_>,
    ) -> Result<Option<Vec<bool>>, OutOfBudget> {
        let mut search = Search::new(self, force);
        if !search.start() {
            return Ok(None);
        }
        let mut found = None;
        let coloured = self.coloured();
        search.run(0, work, &mut |values| {
            if coloured && self.relations(values).is_none() || !extra(values) {
                return false;
            }
            found = Some(values.to_vec());
            true
        })?;
        Ok(found)
    }

    /// Whether the lines of a full assignment obey the single-loop law: no closed cycle.
    fn one_loop(&self, values: &[bool]) -> bool {
        let lines: Vec<[usize; 2]> = self
            .ends
            .iter()
            .zip(values)
            .filter(|&(_, &v)| v)
            .map(|(&ends, _)| ends)
            .collect();
        closed_cycles(self.dot_count, &lines).is_empty()
    }

    fn counterexample(&self, rule: &Rule, values: &[bool], failed: Vec<Fact>) -> Counterexample {
        let inside = |e: &&Pos| self.border.contains(**e);
        let pick = |want: bool| -> Vec<Pos> {
            self.edges
                .iter()
                .zip(values)
                .filter(|&(_, &v)| v == want)
                .map(|(e, _)| e)
                .filter(inside)
                .copied()
                .collect()
        };
        Counterexample {
            border: self.border,
            single_loop: self.single_loop,
            dots: rule.dots.iter().filter(inside).copied().collect(),
            clues: rule
                .premise
                .iter()
                .filter(|f| matches!(f.glyph, Glyph::Clue(_)))
                .copied()
                .collect(),
            lines: pick(true),
            crosses: pick(false),
            failed,
            failed_colours: match self.relations(values) {
                Some(sides) => self
                    .colour_conclusion
                    .iter()
                    .filter(|&&r| !sides.implies(r))
                    .copied()
                    .collect(),
                None => Vec::new(),
            },
            colours: self.letters(values),
        }
    }
}

/// Backtracking over a [`Problem`]: crosses are tried before lines, so the first assignments
/// found have few lines.
struct Search<'a> {
    problem: &'a Problem,
    /// The problem's fixed edges, and the forced one.
    fixed: Vec<Option<bool>>,
    values: Vec<bool>,
    /// Per law: decided lines and undecided edges.
    counts: Vec<(u8, u8)>,
}

impl<'a> Search<'a> {
    fn new(problem: &'a Problem, force: Option<(usize, bool)>) -> Search<'a> {
        let counts = problem
            .laws
            .iter()
            .map(|(_, members)| (0, members.len() as u8))
            .collect();
        let mut fixed = problem.fixed.clone();
        if let Some((e, line)) = force {
            fixed[e] = Some(line);
        }
        Search {
            problem,
            fixed,
            values: vec![false; problem.edges.len()],
            counts,
        }
    }

    /// Sets an edge; returns whether every law it takes part in is still feasible.
    fn set(&mut self, e: usize, line: bool) -> bool {
        self.values[e] = line;
        let mut ok = true;
        for &l in &self.problem.by_edge[e] {
            let c = &mut self.counts[l];
            c.1 -= 1;
            c.0 += line as u8;
            ok &= self.problem.laws[l].0.feasible(c.0, c.1);
        }
        ok
    }

    fn unset(&mut self, e: usize) {
        let line = self.values[e];
        for &l in &self.problem.by_edge[e] {
            let c = &mut self.counts[l];
            c.1 += 1;
            c.0 -= line as u8;
        }
    }

    /// Sets the fixed edges; returns whether the laws can still hold.
    fn start(&mut self) -> bool {
        let mut ok = true;
        for e in 0..self.fixed.len() {
            if let Some(line) = self.fixed[e] {
                ok &= self.set(e, line);
            }
        }
        ok
    }

    /// Visits every full assignment from edge `e` on that obeys the laws; stops (and returns
    /// true) as soon as `visit` returns true, or fails when the budget runs out.
    fn run(
        &mut self,
        e: usize,
        work: &mut Work<'_>,
        visit: &mut dyn FnMut(&[bool]) -> bool,
    ) -> Result<bool, OutOfBudget> {
        let problem = self.problem;
        if e == problem.edges.len() {
            if problem.single_loop && !problem.one_loop(&self.values) {
                return Ok(false);
            }
            return Ok(visit(&self.values));
        }
        if self.fixed[e].is_some() {
            return self.run(e + 1, work, visit);
        }
        for line in [false, true] {
            work.step()?;
            let ok = self.set(e, line);
            let stop = match ok {
                true => self.run(e + 1, work, visit),
                false => Ok(false),
            };
            self.unset(e);
            if stop? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The number of lines of each closed cycle among `lines` (pairs of dot numbers below
/// `dot_count`, each dot with at most two lines, which the dot laws ensure).
fn closed_cycles(dot_count: usize, lines: &[[usize; 2]]) -> Vec<usize> {
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = (0..dot_count).collect();
    for &[a, b] in lines {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    // With degrees at most 2, a component is a cycle iff it has as many lines as dots.
    let mut edges = vec![0usize; dot_count];
    let mut dots = vec![0usize; dot_count];
    let mut touched = vec![false; dot_count];
    for &[a, b] in lines {
        edges[root(&mut parent, a)] += 1;
        for d in [a, b] {
            if !std::mem::replace(&mut touched[d], true) {
                dots[root(&mut parent, d)] += 1;
            }
        }
    }
    (0..dot_count)
        .filter(|&r| edges[r] > 0 && edges[r] == dots[r])
        .map(|r| edges[r])
        .collect()
}

/// How two rules of a set overlap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// The same premise and conclusion up to symmetry and translation.
    Duplicate {
        /// The earlier rule (index into the set) and the symmetry of its matching variant.
        first: (usize, Symmetry),
        /// The later rule and the symmetry of its matching variant.
        second: (usize, Symmetry),
    },
    /// `by` fires wherever `rule` does and concludes at least as much.
    Subsumed {
        /// The redundant rule and the symmetry of its variant.
        rule: (usize, Symmetry),
        /// The rule that covers it and the symmetry of its variant.
        by: (usize, Symmetry),
    },
}

/// Finds duplicate and subsumed rules among the symmetry variants of a rule set.
///
/// Only translations that keep lattice kinds (even shifts) are compared. Because applying one
/// symmetry to both sides keeps a relation between variants, a relation found for one pair of
/// variants holds for the whole rules.
///
/// Rules that are copies of each other (some variant of one is a variant of the other, moved)
/// form a group, found by hashing each variant's facts moved to a common origin, so many
/// copies cost time and memory linear in their number: a group is reported as each later
/// member duplicating its first (lowest) rule, one `Duplicate` per member, with the first
/// rule's identity variant. Subsumption is looked for between the first rules of the groups:
/// a first rule subsumed by another group's rules is reported once for each rule of that
/// group (the other members of its own group are covered by their duplicate report).
pub fn overlaps(rules: &[Rule]) -> Vec<Overlap> {
    let variants = expand_all(rules);
    // The variants of each moved shape: (rule, symmetry), in order.
    let mut shapes: HashMap<ShapeKey, Vec<(usize, Symmetry)>> = HashMap::new();
    let keys: Vec<Option<ShapeKey>> = variants.iter().map(shape_key).collect();
    for (v, key) in variants.iter().zip(&keys) {
        if let Some(key) = key {
            shapes
                .entry(key.clone())
                .or_default()
                .push((v.rule, v.symmetry));
        }
    }
    // Each rule's group leader: the lowest rule sharing a shape with it.
    let mut leader: Vec<usize> = (0..rules.len()).collect();
    for sharing in shapes.values() {
        let low = sharing.iter().map(|&(r, _)| r).min().unwrap_or(0);
        for &(r, _) in sharing {
            leader[r] = leader[r].min(low);
        }
    }
    // (Sharing one shape means sharing all: the variants of copies are the same set.)
    let symmetry_in = |key: &ShapeKey, rule: usize| {
        shapes[key]
            .iter()
            .find(|&&(r, _)| r == rule)
            .map(|&(_, s)| s)
    };
    let mut duplicates: BTreeMap<(usize, usize), Overlap> = BTreeMap::new();
    let mut first_variant: HashMap<usize, usize> = HashMap::new();
    for (i, v) in variants.iter().enumerate() {
        first_variant.entry(v.rule).or_insert(i);
    }
    for (rule, &first) in leader.iter().enumerate() {
        if first == rule {
            continue;
        }
        let Some(&i) = first_variant.get(&first) else {
            continue;
        };
        let Some(key) = &keys[i] else { continue };
        if let Some(symmetry) = symmetry_in(key, rule) {
            duplicates.insert(
                (first, rule),
                Overlap::Duplicate {
                    first: (first, variants[i].symmetry),
                    second: (rule, symmetry),
                },
            );
        }
    }
    // Subsumption between the groups' first rules.
    let leaders: Vec<&Variant> = variants
        .iter()
        .filter(|v| leader[v.rule] == v.rule)
        .collect();
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (rule, &first) in leader.iter().enumerate() {
        members.entry(first).or_default().push(rule);
    }
    let mut subsumed: BTreeMap<(usize, usize), Overlap> = BTreeMap::new();
    for b in &leaders {
        for a in &leaders {
            if a.rule == b.rule || subsumed.contains_key(&(b.rule, a.rule)) {
                continue;
            }
            if covers(a, b) != Some(false) {
                continue;
            }
            let a_key = variant_key(&variants, &keys, a);
            for &by in &members[&a.rule] {
                let symmetry = match a_key {
                    Some(key) if by != a.rule => symmetry_in(key, by),
                    _ => Some(a.symmetry),
                };
                if let Some(symmetry) = symmetry {
                    subsumed.entry((b.rule, by)).or_insert(Overlap::Subsumed {
                        rule: (b.rule, b.symmetry),
                        by: (by, symmetry),
                    });
                }
            }
        }
    }
    duplicates
        .into_values()
        .chain(subsumed.into_values())
        .collect()
}

/// A variant's facts moved so that its first premise fact is at the origin, with that fact's
/// lattice kind (only even moves are compared): equal keys are the same rule, moved.
type ShapeKey = (Kind, Vec<Fact>, Vec<Fact>);

fn shape_key(v: &Variant) -> Option<ShapeKey> {
    // Rules with colour letters are not compared (their letters would have to be matched up).
    if v.has_colours() {
        return None;
    }
    let origin = v.premise.iter().min()?.at;
    let moved = |facts: &[Fact]| {
        let mut moved: Vec<Fact> = facts
            .iter()
            .map(|f| Fact {
                at: f.at - origin,
                glyph: f.glyph,
            })
            .collect();
        moved.sort();
        moved
    };
    Some((origin.kind(), moved(&v.premise), moved(&v.conclusion)))
}

/// The key of `v`, one of `variants` (compared by address).
fn variant_key<'k>(
    variants: &[Variant],
    keys: &'k [Option<ShapeKey>],
    v: &Variant,
) -> Option<&'k ShapeKey> {
    let i = variants.iter().position(|w| std::ptr::eq(w, v))?;
    keys[i].as_ref()
}

/// Whether some even translation makes `a` cover `b` (a's premise within b's, b's conclusion
/// within a's conclusion and b's premise); `Some(true)` when they are then identical.
fn covers(a: &Variant, b: &Variant) -> Option<bool> {
    if a.has_colours() || b.has_colours() {
        return None;
    }
    let first = a.premise.first()?;
    let b_premise: HashSet<Fact> = b.premise.iter().copied().collect();
    let mut found = None;
    for candidate in b.premise.iter().filter(|f| f.glyph == first.glyph) {
        let t = candidate.at - first.at;
        if t.kind() != Kind::Dot {
            continue;
        }
        let shift = |f: &Fact| Fact {
            at: f.at + t,
            glyph: f.glyph,
        };
        if !a.premise.iter().all(|f| b_premise.contains(&shift(f))) {
            continue;
        }
        let a_conclusion: HashSet<Fact> = a.conclusion.iter().map(shift).collect();
        if !b
            .conclusion
            .iter()
            .all(|f| a_conclusion.contains(f) || b_premise.contains(f))
        {
            continue;
        }
        let identical =
            a.premise.len() == b.premise.len() && a.conclusion.len() == b.conclusion.len();
        if identical {
            return Some(true);
        }
        found = Some(false);
    }
    found
}

/// Checks one reading of a rule, with or without the single-loop law (without a budget).
#[cfg(test)]
fn check(rule: &Rule, border: &Border, single_loop: bool) -> Outcome {
    let mut work = Work {
        steps: 0,
        limit: u64::MAX,
        progress: &mut |_| {},
    };
    check_within(rule, border, single_loop, &mut work).unwrap_or(Outcome::NeverMatches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    fn rule(text: &str) -> Rule {
        let set = RuleSet::from_sources(&[("t.rules", text)]).unwrap_or_else(|d| {
            panic!(
                "{}",
                d.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
        set.rules.into_iter().next().unwrap()
    }

    /// Checks that an assignment obeys the laws of the general reading and matches the premise.
    fn assert_legal(rule: &Rule, cx: &Counterexample) {
        for f in &rule.premise {
            match f.glyph {
                Glyph::Clue(n) => {
                    let lines =
                        f.at.around()
                            .iter()
                            .filter(|&&s| cx.state(s) == Some(Glyph::Line))
                            .count();
                    assert_eq!(lines, n as usize, "clue at {:?}", f.at);
                }
                g => assert_eq!(cx.state(f.at), Some(g), "premise fact {f}"),
            }
        }
        for d in &rule.dots {
            let lines = d
                .around()
                .iter()
                .filter(|&&e| cx.state(e) == Some(Glyph::Line))
                .count();
            assert!(lines == 0 || lines == 2, "dot {d:?} has {lines} lines");
        }
    }

    const ZERO: &str =
        "rule zero\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n";

    #[test]
    fn zero_is_sound() {
        let r = rule(ZERO);
        assert_eq!(window(&r).len(), 12);
        assert_eq!(
            prove(&r),
            Verdict::Sound {
                needs_single_loop: false
            }
        );
    }

    #[test]
    fn an_unsound_rule_gets_a_real_counterexample() {
        // A 1 with its top side crossed does not have to take its bottom side.
        let r =
            rule("rule wrong-one\nwhen\n  + x +\n    1\n  +   +\nthen\n  + x +\n    1\n  +---+\n");
        let Verdict::Unsound(cx) = prove(&r) else {
            panic!("expected a counterexample, got {:?}", prove(&r));
        };
        assert!(cx.border.is_none());
        assert_legal(&r, &cx);
        assert_eq!(
            cx.failed,
            vec![Fact {
                at: Pos::new(2, 1),
                glyph: Glyph::Line
            }]
        );
        assert_eq!(cx.state(Pos::new(2, 1)), Some(Glyph::Cross));
        for f in &cx.failed {
            assert_ne!(cx.state(f.at), Some(f.glyph));
        }
        assert!(cx.facts().contains(&Fact {
            at: Pos::new(2, 1),
            glyph: Glyph::Cross
        }));
        let picture = cx.picture(&r.premise, 0);
        assert!(picture.contains('1') && picture.contains('x'), "{picture}");
    }

    #[test]
    fn a_rule_that_can_never_fire() {
        // A 0 with a line on it.
        let r = rule("rule never\nwhen\n  +---+\n    0\n  +   +\nthen\n  +---+\n  x 0\n  +   +\n");
        assert_eq!(prove(&r), Verdict::NeverFires);
        // Three lines at a drawn dot break its law too.
        let r = rule(
            "rule fork\nwhen\n      +\n      |\n  +---+---+\nthen\n      +\n      |\n  +---+---+\n      x\n",
        );
        assert_eq!(prove(&r), Verdict::NeverFires);
    }

    /// A U of three lines around an empty cell, and a line elsewhere in the window: closing the
    /// U makes a small closed loop, which only the single-loop law forbids.
    const NO_EARLY_LOOP: &str = "rule no-early-loop\n__MARK__when\n  +---+   +\n  |       |\n  +---+   +\nthen\n  +---+   +\n  |   x   |\n  +---+   +\n";

    #[test]
    fn a_rule_sound_only_given_a_single_loop() {
        let unmarked = rule(&NO_EARLY_LOOP.replace("__MARK__", ""));
        let Verdict::NeedsSingleLoop(cx) = prove(&unmarked) else {
            panic!("got {:?}", prove(&unmarked));
        };
        assert_legal(&unmarked, &cx);
        assert!(!cx.single_loop);
        assert_eq!(cx.state(Pos::new(1, 2)), Some(Glyph::Line));
        let marked = rule(&NO_EARLY_LOOP.replace("__MARK__", "  assumes single-loop\n"));
        assert_eq!(
            prove(&marked),
            Verdict::Sound {
                needs_single_loop: true
            }
        );
    }

    #[test]
    fn a_closed_loop_inside_the_window_is_never_the_answer() {
        // Closing a U around one cell: the answer would be that one cell's loop, which the
        // engine rules out before it runs rules marked `assumes single-loop`.
        let text = "rule close\n__MARK__when\n  +---+\n  |   |\n  +   +\nthen\n  +---+\n  |   |\n  + x +\n";
        let unmarked = rule(&text.replace("__MARK__", ""));
        let Verdict::NeedsSingleLoop(cx) = prove(&unmarked) else {
            panic!("got {:?}", prove(&unmarked));
        };
        assert_eq!(cx.lines.len(), 4, "{cx:?}");
        let marked = rule(&text.replace("__MARK__", "  assumes single-loop\n"));
        assert_eq!(
            prove(&marked),
            Verdict::Sound {
                needs_single_loop: true
            }
        );
    }

    #[test]
    fn the_single_loop_law_does_not_excuse_everything() {
        // A 2 with a line does not have to take the opposite side, loop or no loop.
        let r = rule(
            "rule two\n  assumes single-loop\nwhen\n  +---+\n    2\n  +   +\nthen\n  +---+\n    2\n  +---+\n",
        );
        let Verdict::Unsound(cx) = prove(&r) else {
            panic!("got {:?}", prove(&r));
        };
        assert!(cx.single_loop);
        assert_legal(&r, &cx);
    }

    #[test]
    fn border_readings_cut_only_blank_or_crossed_edges() {
        let r = rule(
            "rule t\nwhen\n      +\n      x\n  + x +   +\n        3\n      +   +\nthen\n      +\n      x\n  + x +---+\n      | 3\n      +   +\n",
        );
        let borders = borders(&r);
        assert!(!borders.is_empty());
        for b in &borders {
            assert!(b.contains(Pos::new(3, 3)), "{b:?} cuts off the 3");
        }
        assert!(borders.contains(&Border {
            top: Some(2),
            left: Some(2),
            ..Border::NONE
        }));
        assert_eq!(
            Border {
                top: Some(2),
                left: Some(2),
                ..Border::NONE
            }
            .describe(),
            "at the grid's top-left corner"
        );
    }

    #[test]
    fn every_builtin_rule_is_sound() {
        for r in &RuleSet::builtin().rules {
            match prove(r) {
                Verdict::Sound { .. } => {}
                v => panic!("{} ({}:{}) is not sound: {v:?}", r.name, r.file, r.line),
            }
        }
    }

    #[test]
    fn adjacent_threes_need_the_single_loop_law() {
        // Without it, the loop around both 3s crosses their shared side.
        let set = RuleSet::builtin();
        let Some(r) = set.rules.iter().find(|r| r.name == "adjacent-threes") else {
            return;
        };
        let mut unmarked = r.clone();
        unmarked.assumes_single_loop = false;
        let Verdict::NeedsSingleLoop(cx) = prove(&unmarked) else {
            panic!("got {:?}", prove(&unmarked));
        };
        assert_legal(r, &cx);
        assert_eq!(cx.lines.len(), 6, "{cx:?}");
        assert!(cx.failed.iter().all(|f| f.at == Pos::new(1, 2)), "{cx:?}");
    }

    #[test]
    fn border_readings_agree_with_the_general_one_on_the_builtin_rules() {
        let mut readings = 0;
        for r in &RuleSet::builtin().rules {
            let law = r.assumes_single_loop;
            let general = check(r, &Border::NONE, law);
            assert_ne!(general, Outcome::NeverMatches, "{}", r.name);
            for b in borders(r) {
                readings += 1;
                let outcome = check(r, &b, law);
                if let Outcome::Fails(cx) = &outcome {
                    // Whatever a border reading finds, the general reading finds too.
                    assert!(
                        matches!(general, Outcome::Fails(_)),
                        "{} {b:?}: {outcome:?}",
                        r.name
                    );
                    assert_legal(r, cx);
                }
            }
        }
        assert!(readings > 100, "only {readings} border readings");
    }

    #[test]
    fn duplicates_and_subsumption() {
        let one = "rule one-has-its-line\nwhen\n  +---+\n    1\n  +   +\nthen\n  +---+\n  x 1 x\n  + x +\n";
        // The same rule drawn upside down.
        let turned =
            "rule one-turned\nwhen\n  +   +\n    1\n  +---+\nthen\n  + x +\n  x 1 x\n  +---+\n";
        // Needs more and concludes less: covered by the first.
        let weaker =
            "rule one-weaker\nwhen\n  +---+\n    1 x\n  +   +\nthen\n  +---+\n  x 1 x\n  +   +\n";
        let text = format!("{one}{turned}{weaker}");
        let set = RuleSet::from_sources(&[("t.rules", text.as_str())]).unwrap();
        let found = overlaps(&set.rules);
        assert!(
            found.contains(&Overlap::Duplicate {
                first: (0, Symmetry::Identity),
                second: (1, Symmetry::Rotate180)
            }),
            "{found:?}"
        );
        assert!(
            found.iter().any(|o| matches!(
                o,
                Overlap::Subsumed {
                    rule: (2, Symmetry::Identity),
                    by: (0, _)
                }
            )),
            "{found:?}"
        );
        assert!(
            !found
                .iter()
                .any(|o| matches!(o, Overlap::Subsumed { rule: (0, _), .. })),
            "{found:?}"
        );
        assert_eq!(found.len(), 3, "{found:?}");
    }
}
