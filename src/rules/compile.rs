//! Compiling rule variants into matchers, indexed by the edges they read at each spot.
//!
//! A [`RuleBook`] is built once from a rule set. [`Matchers`] lay its variants out for one
//! lattice stride (offsets become plain index differences), in three forms:
//! - a variant that reads one clue cell and only its 4 sides (the counting rules) is folded
//!   into a 256-entry table per clue, indexed by the cell's side word: one lookup per woken
//!   cell ([`Table`]);
//! - a variant that reads only the 4 edges of one dot is folded into a 256-entry table
//!   indexed by the dot's word;
//! - a variant that reads one or two clue cells and edges among their 12 slots (sides and
//!   corner exits) becomes a (mask, value) [`CellTest`] on the cells' slot words, filed in
//!   watch lists by (clue, slot, new state);
//! - anything else goes to the general watch index: per edge direction and new state, the
//!   entries that read such an edge, grouped by the clue they need nearby.
//!
//! [`Stages`] hold the matchers of each rule level, kept per grid width in a [`StageCache`].

use crate::board::{CLUE0, CROSS, LINE, OFF};
use crate::deduce::DeducerSet;
use crate::geometry::{CELL_SLOTS, DOT_SLOTS, Pos, bounds};
use crate::rules::expand::{Variant, expand_all};
use crate::rules::{Fact, Glyph, RuleSet};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// A rule set ready to run: its rules, their variants, and the margin a board needs.
#[derive(Clone, Debug)]
pub struct RuleBook {
    /// The checked rules (names, descriptions, sources).
    pub set: RuleSet,
    /// Every distinct variant of every rule (shared with the stages compiled from the book,
    /// which lay out their levels when first asked for).
    pub variants: Arc<Vec<Variant>>,
    /// Off-grid lattice points a board needs around the grid for these variants.
    pub margin: usize,
    /// For rules marked `assumes single-loop`: how many cells a loop confined to one of
    /// their windows can reach across. Such rules are switched off on puzzles whose nonzero
    /// clues fit in a square of that size, where the whole answer might be such a small loop.
    pub single_loop_reach: Option<usize>,
}

impl RuleBook {
    /// Expands every rule of the set into its variants.
    pub fn new(set: RuleSet) -> RuleBook {
        let variants = expand_all(&set.rules);
        // General matchers read up to their span away from a changed edge; compiled cell tests
        // read a second clue cell at most `reach` away, and slots two lattice steps away.
        let span = variants
            .iter()
            .map(|v| {
                if v.has_colours() {
                    return variant_span(v);
                }
                match shape(v) {
                    Shape::General => variant_span(v),
                    Shape::Pair([(a, _), (b, _)]) => (a.y - b.y).abs().max((a.x - b.x).abs()),
                    Shape::Cell(..) | Shape::Dot(_) => 2,
                }
            })
            .max()
            .unwrap_or(0);
        let single_loop_reach = variants
            .iter()
            .filter(|v| set.rules[v.rule].assumes_single_loop)
            .map(|v| variant_span(v) as usize / 2 + 2)
            .max();
        RuleBook {
            margin: (span as usize + 2).next_multiple_of(2),
            single_loop_reach,
            set,
            variants: Arc::new(variants),
        }
    }

    /// Whether rules marked `assumes single-loop` may run on this puzzle: its nonzero clues
    /// spread wider than any loop confined to one of their windows could reach.
    pub fn single_loop_rules_apply(&self, puzzle: &crate::puzzle::Puzzle) -> bool {
        let Some(reach) = self.single_loop_reach else {
            return false;
        };
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        let spread = |r0: usize, r1: usize, c0: usize, c1: usize| {
            r0 != usize::MAX && (r1 - r0 + 1 > reach || c1 - c0 + 1 > reach)
        };
        for (r, row) in puzzle.clues.chunks_exact(puzzle.cols.max(1)).enumerate() {
            for (c, clue) in row.iter().enumerate() {
                if clue.is_some_and(|n| n > 0) {
                    r0 = r0.min(r);
                    r1 = r1.max(r);
                    c0 = c0.min(c);
                    c1 = c1.max(c);
                }
            }
            // Spread wide enough already: the rest cannot narrow it.
            if spread(r0, r1, c0, c1) {
                return true;
            }
        }
        spread(r0, r1, c0, c1)
    }

    /// `use probing instead of level N`: the N.
    pub fn probing_replaces(&self) -> Option<u32> {
        self.set.probing_replaces
    }

    /// The global deducers the rule set switches on.
    pub fn deducers(&self) -> DeducerSet {
        self.set.deducers.iter().copied().collect()
    }

    /// The distinct levels of the rules, cheapest first (`[1]` for an empty set).
    pub fn levels(&self) -> Vec<u32> {
        let mut levels: Vec<u32> = self.set.rules.iter().map(|r| r.level).collect();
        levels.sort_unstable();
        levels.dedup();
        if levels.is_empty() {
            levels.push(1);
        }
        levels
    }

    /// The matchers of each level for boards of this stride, with or without the rules marked
    /// `assumes single-loop`. The first level is laid out now, the others when first asked
    /// for ([`Stages::stage`]): most puzzles never need them.
    pub fn stages(&self, stride: usize, single_loop: bool) -> Stages {
        let plan = Arc::new(LevelPlan {
            variants: Arc::clone(&self.variants),
            level: self
                .variants
                .iter()
                .map(|v| {
                    let rule = &self.set.rules[v.rule];
                    (single_loop || !rule.assumes_single_loop).then_some(rule.level)
                })
                .collect(),
            levels: self.levels(),
        });
        let stages = (0..plan.levels.len())
            .map(|k| match k {
                0 => OnceLock::from(plan.stage(0, stride)),
                _ => OnceLock::new(),
            })
            .collect();
        Stages {
            stride,
            stages,
            levels: plan.levels.clone(),
            source: Source::Compile(plan),
        }
    }
}

/// What laying out a rule book's levels needs: its variants, the level of each (`None`: its
/// rule is left out, being marked `assumes single-loop` while such rules are off), and the
/// distinct levels, cheapest first.
#[derive(Debug)]
struct LevelPlan {
    variants: Arc<Vec<Variant>>,
    level: Vec<Option<u32>>,
    levels: Vec<u32>,
}

impl LevelPlan {
    /// Lays out, for boards of this stride, the variants whose level passes `keep`.
    fn matchers_where(&self, stride: usize, keep: impl Fn(u32) -> bool) -> Matchers {
        let keep: Vec<bool> = self.level.iter().map(|l| l.is_some_and(&keep)).collect();
        Matchers::build(&self.variants, &keep, stride)
    }

    /// The stage of the `k`-th level for boards of this stride.
    fn stage(&self, k: usize, stride: usize) -> Stage {
        let level = self.levels[k];
        let all = self.matchers_where(stride, |l| l <= level);
        // The first level's new rules are all its rules: built once.
        let new = if k == 0 {
            all.clone()
        } else {
            self.matchers_where(stride, |l| l == level)
        };
        Stage { level, all, new }
    }
}

/// A rule book's compiled stages per (stride, single-loop rules on), as the solver, the
/// discovery scorer and the novelty check keep them.
///
/// The first stages compiled with and without the single-loop rules are kept as templates:
/// other strides relocate them ([`Stages::relocate`]) instead of compiling again. At most
/// [`StageCache::BOUND`] entries are kept; past that the cache starts afresh (the templates
/// stay). The cache belongs to one rule book: [`StageCache::clear`] it when the book changes.
#[derive(Clone, Debug, Default)]
pub struct StageCache {
    stages: HashMap<(usize, bool), Arc<Stages>>,
    /// The first stages compiled, without and with the single-loop rules.
    templates: [Option<Arc<Stages>>; 2],
}

impl StageCache {
    /// How many (stride, single-loop) entries are kept before the cache starts afresh.
    pub const BOUND: usize = 64;

    /// An empty cache.
    pub fn new() -> StageCache {
        StageCache::default()
    }

    /// The book's stages for boards of this stride, with or without the single-loop rules:
    /// from the cache, relocated from a template, or compiled.
    pub fn get(&mut self, book: &RuleBook, stride: usize, single_loop: bool) -> Arc<Stages> {
        if self.stages.len() > StageCache::BOUND {
            self.stages.clear();
        }
        let template = &mut self.templates[usize::from(single_loop)];
        let stages = self
            .stages
            .entry((stride, single_loop))
            .or_insert_with(|| match template {
                Some(t) => Arc::new(t.relocate(stride)),
                None => Arc::clone(template.insert(Arc::new(book.stages(stride, single_loop)))),
            });
        Arc::clone(stages)
    }

    /// Forgets every entry and template (the rule book changed).
    pub fn clear(&mut self) {
        *self = StageCache::default();
    }
}

/// The matchers of one cost level.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The level.
    pub level: u32,
    /// The variants of this level and every cheaper one: what runs while this level is on.
    pub all: Matchers,
    /// The variants of this level alone: what is caught up on when the level comes on.
    pub new: Matchers,
}

/// A rule book's matchers for one stride, level by level, cheapest first.
///
/// Stages lay out the first level at once and the others when first asked for, compiled from
/// the rule book ([`RuleBook::stages`]) or relocated from another stride's
/// ([`Stages::relocate`]): most puzzles never need them, and a stream of mixed widths then
/// relocates (and faults in fresh memory for) the first level only.
#[derive(Clone, Debug)]
pub struct Stages {
    /// The stride the offsets were computed for.
    pub stride: usize,
    /// One stage per level, laid out or still to be.
    stages: Vec<OnceLock<Stage>>,
    /// The level of each stage, known before it is laid out.
    levels: Vec<u32>,
    /// Where the stages not laid out yet come from.
    source: Source,
}

/// Where a stage not laid out yet comes from.
#[derive(Clone, Debug)]
enum Source {
    /// Compiled from the rule book's variants.
    Compile(Arc<LevelPlan>),
    /// Relocated from another stride's stages.
    Relocate(Arc<Stages>),
}

impl Stages {
    /// How many levels there are.
    pub fn len(&self) -> usize {
        self.stages.len()
    }

    /// Whether there are no levels (never: a rule book has at least one).
    pub fn is_empty(&self) -> bool {
        self.stages.is_empty()
    }

    /// The stage of the `k`-th level (cheapest first), laid out now if it was not yet.
    pub fn stage(&self, k: usize) -> &Stage {
        self.stages[k].get_or_init(|| match &self.source {
            Source::Compile(plan) => plan.stage(k, self.stride),
            Source::Relocate(template) => template.stage(k).relocate(self.stride),
        })
    }

    /// The level of the `k`-th stage (cheapest first), without laying it out.
    pub fn level(&self, k: usize) -> u32 {
        self.levels[k]
    }

    /// Every stage, cheapest first (laying out those not laid out yet).
    pub fn iter(&self) -> impl Iterator<Item = &Stage> {
        (0..self.len()).map(|k| self.stage(k))
    }

    /// The same stages laid out for boards of another stride (see [`Matchers::relocate`]):
    /// the first level now, the others from `self` when first asked for.
    pub fn relocate(self: &Arc<Stages>, stride: usize) -> Stages {
        let stages = (0..self.len())
            .map(|k| match k {
                0 => OnceLock::from(self.stage(0).relocate(stride)),
                _ => OnceLock::new(),
            })
            .collect();
        Stages {
            stride,
            stages,
            levels: self.levels.clone(),
            source: Source::Relocate(Arc::clone(self)),
        }
    }
}

impl PartialEq for Stages {
    /// Same stride and the same stages (laying out those not laid out yet).
    fn eq(&self, other: &Stages) -> bool {
        self.stride == other.stride
            && self.len() == other.len()
            && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl Stage {
    /// The same stage laid out for boards of another stride.
    fn relocate(&self, stride: usize) -> Stage {
        Stage {
            level: self.level,
            all: self.all.relocate(stride),
            new: self.new.relocate(stride),
        }
    }
}

fn variant_span(v: &Variant) -> i32 {
    let points = v
        .dots
        .iter()
        .copied()
        .chain(v.premise.iter().chain(&v.conclusion).map(|f| f.at))
        .chain(
            v.premise_colours
                .iter()
                .chain(&v.conclusion_colours)
                .map(|c| c.at),
        );
    bounds(points).map_or(0, |(lo, hi)| (hi.y - lo.y).max(hi.x - lo.x))
}

/// A premise test: the lattice point at `anchor + offset` must have a bit of `mask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// Index difference from the variant's origin.
    pub offset: isize,
    /// The same as a lattice displacement (to lay the matchers out for another stride).
    pub at: Pos,
    /// Allowed states or clue codes.
    pub mask: u8,
}

/// A conclusion: the edge at `anchor + offset` gets `state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conclude {
    /// Index difference from the variant's origin.
    pub offset: isize,
    /// The same as a lattice displacement.
    pub at: Pos,
    /// [`LINE`] or [`CROSS`].
    pub state: u8,
}

/// One way a changed edge can wake a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The variant (index into the rule book).
    pub variant: u32,
    /// The variant's origin is the changed edge's index plus this.
    pub delta: isize,
    /// Where the changed edge sits relative to the variant's origin (`delta` is its
    /// negated index difference).
    pub trigger_at: Pos,
    /// The premise tests left after the trigger edge and the key clue.
    pub checks: Range<u32>,
    /// What it concludes.
    pub concludes: Range<u32>,
}

/// How many of an entry's premise checks its [`Premise`] holds.
pub const PREMISE_CHECKS: usize = 3;

/// An entry's first [`PREMISE_CHECKS`] premise checks, read from the woken point (the
/// changed edge, or the clue cell of a static entry) so that the engine tests a run of
/// entries without a branch per check: `Matchers::premises` holds one per entry, in the
/// order of `Matchers::entries`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Premise {
    /// Index differences from the woken point (the entry's `delta` plus the check's offset).
    /// An entry with fewer checks is padded with tests of the woken point itself (offset 0,
    /// mask `0xFF`), which hold: a decided edge's or a clue cell's code is never 0.
    pub offsets: [i32; PREMISE_CHECKS],
    /// The checks' masks of allowed states or clue codes.
    pub masks: [u8; PREMISE_CHECKS],
    /// Where the entry's checks after these start in `Matchers::checks` (its end when it has
    /// no more).
    pub rest: u32,
}

/// Watchers of one (edge direction, new state) whose key clue cell sits at one offset from the edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Index difference from the changed edge to the key clue cell.
    pub key: isize,
    /// The same as a lattice displacement.
    pub key_at: Pos,
    /// Entries by the key cell's clue (0-3).
    pub by_clue: [Range<u32>; 4],
    /// The clues with entries (bit `n`: clue `n`), so that the key cell's code shifted right
    /// by 4 (`1 << n` for clue `n`, 0 for a blank or off-grid cell or an edge) tells in one
    /// test whether the group has anything to try there.
    pub clues: u8,
}

impl Group {
    /// A group keyed at `key` (`key_at`) with these entries or wakes by clue.
    fn new(key: isize, key_at: Pos, by_clue: [Range<u32>; 4]) -> Group {
        let clues = (0..4)
            .filter(|&n| !by_clue[n].is_empty())
            .map(|n| 1 << n)
            .sum();
        Group {
            key,
            key_at,
            by_clue,
            clues,
        }
    }
}

/// Watchers of one edge direction and new state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Watch {
    /// Entries that need a clue near the edge, grouped by where.
    pub groups: Vec<Group>,
    /// Entries that need no clue.
    pub free: Range<u32>,
}

/// A variant compiled to (mask, value) tests on the 24-bit words of one clue cell (the
/// primary, where the test is filed) and optionally a second clue cell at a fixed offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellTest {
    /// Bits of the primary cell's word the premise reads.
    pub mask: u32,
    /// The values those bits must have.
    pub value: u32,
    /// Bits of the primary cell's word the conclusion sets.
    pub conclude: u32,
    /// The variant.
    pub variant: u32,
    /// Lattice index difference to the second cell; 0 when there is none.
    pub other: i32,
    /// The same as a lattice displacement.
    pub other_at: Pos,
    /// The second cell's clue code (see [`crate::board::CLUE0`]).
    pub other_code: u8,
    /// Bits of the second cell's word the premise reads.
    pub other_mask: u32,
    /// The values those bits must have.
    pub other_value: u32,
    /// Bits of the second cell's word the conclusion sets.
    pub other_conclude: u32,
}

/// The cell tests woken by one (clue, slot, new state).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WatchList {
    /// A range of `Matchers::cell_watch_tests`.
    pub tests: Range<u32>,
    /// The conclusion bits (line `01`, cross `10`) of every test of the list, on the woken
    /// cell: when the cell's word holds all of them, single-cell tests have nothing left to
    /// add. A slot decided the other way is not skipped: a test concluding against it is a
    /// contradiction to report.
    pub concludes: u32,
    /// Whether some test of the list also reads a second cell (which it may conclude on).
    pub pairs: bool,
}

/// A list of cell tests.
pub type CellRules = Vec<CellTest>;

/// What the variants folded into it conclude for each of the 256 states of four edges (a
/// dot's, or a clue cell's sides): per state, a byte with 2 bits per edge (`01` line, `10`
/// cross, `00` nothing; see [`crate::board::slot_bits`]) read on the hot path, and the
/// variant behind each conclusion, read only for reasons and statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Per state: what to set, 2 bits per edge; only edges not already in that state.
    pub set: [u8; 256],
    /// Per state and edge: the variant that concludes it. Shared, not copied, by the
    /// matchers laid out for other strides (it does not depend on the stride, and a copy
    /// per stride is fresh memory to fault in for each puzzle size of a stream).
    pub variants: Arc<[[u32; 4]; 256]>,
    /// Whether any variant is folded in.
    pub used: bool,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            set: [0; 256],
            variants: Arc::new([[0; 4]; 256]),
            used: false,
        }
    }
}

impl Table {
    /// Folds in variant `vi`, whose premise and conclusion facts sit on the four edges
    /// (`slot` maps a fact's position to its edge 0-3; facts it maps to `None` are ignored,
    /// such as the clue of a cell table).
    fn fold(&mut self, vi: usize, v: &Variant, slot: &dyn Fn(Pos) -> Option<usize>) {
        self.used = true;
        // The premise as the slot bits a state must hold, and the conclusion's slots and bits,
        // worked out once rather than for each of the 256 states.
        let need = v
            .premise
            .iter()
            .filter_map(|f| slot(f.at).map(|k| bit(k, f.glyph)))
            .fold(0, |need, b| need | b);
        let conclusion: Vec<(usize, u32)> = v
            .conclusion
            .iter()
            .filter_map(|f| slot(f.at).map(|k| (k, bit(k, f.glyph))))
            .collect();
        let variants = Arc::make_mut(&mut self.variants);
        // Only the states that hold the premise: `need` plus each subset of the other bits
        // (states are independent, so their order does not matter).
        let free = 0xFF & !need;
        let mut rest = free;
        loop {
            let state = need | rest;
            for &(k, b) in &conclusion {
                let s = &mut self.set[state as usize];
                if state & b == 0 && (u32::from(*s) >> (2 * k)) & 3 == 0 {
                    *s |= b as u8;
                    variants[state as usize][k] = vi as u32;
                }
            }
            if rest == 0 {
                break;
            }
            rest = (rest - 1) & free;
        }
    }
}

/// The variants of a rule book laid out for one stride, with the watch index.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchers {
    /// The stride the offsets were computed for.
    pub stride: usize,
    /// Premise tests of all entries.
    pub checks: Vec<Check>,
    /// Conclusions of all entries.
    pub concludes: Vec<Conclude>,
    /// All entries, grouped as the watch index says.
    pub entries: Vec<Entry>,
    /// Per entry: its first premise checks, laid out for a branch-free test.
    pub premises: Vec<Premise>,
    /// `watch[d][s]`: d = 1 for horizontal edges (odd index), 0 for vertical; s = 0 for a new line, 1 for a new cross.
    pub watch: [[Watch; 2]; 2],
    /// Variants whose premise reads no edge, by the clue of their key cell: tried once per cell at the start.
    pub statics: [Range<u32>; 4],
    /// Lattice index differences of the 12 cell slots.
    pub cell_offsets: [isize; 12],
    /// Lattice index differences of the 4 dot slots.
    pub dot_offsets: [isize; 4],
    /// Variants that read one clue cell and its 12 slots, by clue.
    pub cells: [CellRules; 4],
    /// The same tests indexed by what woke them: `cell_watch[(clue * 12 + slot) * 2 + s]`
    /// (s = 0 for a new line, 1 for a new cross).
    pub cell_watch: Vec<WatchList>,
    /// The tests of `cell_watch`, list after list.
    pub cell_watch_tests: Vec<CellTest>,
    /// The dot-local variants, by the dot's word.
    pub dots: Table,
    /// The variants that read one clue cell's sides only, by clue, then by the side word.
    pub sides: [Table; 4],
    /// The `set` bytes of `sides` indexed by the cell's code / 16 (0: blank or off-grid,
    /// nothing to set; `1 << n`: clue `n`; every row a cell code cannot have is zeros), so
    /// that a woken cell costs one lookup. Shared by the layouts for other strides, like the
    /// tables' variants.
    pub side_set: Arc<[[u8; 256]; 16]>,
    /// By cell code / 16: whether a clue cell with nothing decided around it can match a
    /// cell test or a static entry (a static cell test or entry exists for its clue).
    pub starts_bare: [bool; 16],
    /// By cell code / 16: whether a clue cell with something decided around it can match a
    /// cell test or a static entry.
    pub starts_touched: [bool; 16],
    /// Whether any cell test is filed in `cell_watch` (otherwise woken cells need only the
    /// side tables).
    pub has_cell_lists: bool,
    /// Cell tests without any edge premise, by clue: the only ones that can hold on a fresh interior cell.
    pub static_cells: [CellRules; 4],
    /// The 6 cells whose slots hold an edge, by direction (1 horizontal, 0 vertical): (index difference to the cell, slot).
    pub edge_cells: [[(isize, usize); 6]; 2],
    /// The variants that read or write colours.
    pub colour_rules: Vec<ColourRule>,
    /// Their colour relations.
    pub colour_pairs: Vec<ColourPair>,
    /// Every wake of the colour rules, grouped as `colour_by_cell` and `colour_by_edge` say.
    pub colour_wakes: Vec<ColourWake>,
    /// What wakes them when a cell's colour class changes: a cell of a premise relation (a
    /// variant without one and without premise edges: its premise clue cells, else its
    /// lettered cells).
    pub colour_by_cell: ColourWakes,
    /// What wakes them when an edge is decided, by direction (as `watch`).
    pub colour_by_edge: [ColourWakes; 2],
}

/// A variant that reads or writes colours, compiled for the engine's colour pass: it is tried
/// where a cell it reads changed colour class, or an edge its premise reads was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourRule {
    /// The variant (index into the rule book).
    pub variant: u32,
    /// The premise's edge and clue tests (clues first), in `Matchers::checks`.
    pub checks: Range<u32>,
    /// The edges it concludes, in `Matchers::concludes`.
    pub concludes: Range<u32>,
    /// The premise's colour relations, in `Matchers::colour_pairs`.
    pub same: Range<u32>,
    /// The colour relations it concludes, in `Matchers::colour_pairs`.
    pub relate: Range<u32>,
    /// It has a key clue and concludes only that clue's sides and relations among the clue
    /// cell and its four neighbours: once the clue's four sides are decided (each relating
    /// the clue cell to a neighbour), it can add nothing.
    pub key_local: bool,
}

/// A colour relation between two cells of a variant: on opposite sides when `differ`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourPair {
    /// Index differences of the two cells from the variant's origin.
    pub cells: [isize; 2],
    /// The same as lattice displacements.
    pub at: [Pos; 2],
    /// Opposite sides (else the same side).
    pub differ: bool,
}

/// One way to wake a colour rule: its origin is the woken cell's or edge's index plus `delta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourWake {
    /// Index into `Matchers::colour_rules`.
    pub rule: u32,
    /// Index difference from the woken point to the origin.
    pub delta: isize,
    /// Where the woken point sits relative to the origin.
    pub at: Pos,
}

/// The colour rules woken by one kind of point (a cell whose class changed, or an edge of
/// one direction), grouped by the clue they need near it, as the general watch index is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColourWakes {
    /// Wakes that need a clue at one offset from the woken point.
    pub groups: Vec<Group>,
    /// Wakes that need no clue.
    pub free: Range<u32>,
    /// Per group and key clue: the wakes of `by_clue` whose rule is not `key_local`, in the
    /// same order (a copy). Once the key clue's four sides are decided only these are tried:
    /// the rules left out can add nothing there, and one such rule in a group no longer
    /// makes the group try every other rule of every clue too.
    pub open: Vec<[Range<u32>; 4]>,
    /// The woken point is a cell and every free wake's rule relates no cells and concludes
    /// only sides of that cell: the free wakes are passed over when its four sides are
    /// decided.
    pub free_sides: bool,
}

/// How a variant is compiled.
enum Shape {
    /// Reads only the 4 edges of the dot at this position; no clue.
    Dot(Pos),
    /// Reads one clue cell at this position and edges among its 12 slots.
    Cell(Pos, u8),
    /// Reads two clue cells and edges among their slots.
    Pair([(Pos, u8); 2]),
    /// Anything else: matched through the watch index.
    General,
}

fn shape(v: &Variant) -> Shape {
    // Read without collecting: the rule book and every level's layout ask for each variant.
    let facts = || v.premise.iter().chain(&v.conclusion);
    let mut clues = facts().filter(|f| matches!(f.glyph, Glyph::Clue(_)));
    match (clues.next(), clues.next(), clues.next()) {
        (None, ..) => {
            let Some(first) = facts().next() else {
                return Shape::General;
            };
            for dot in first.at.edge_dots() {
                if facts().all(|f| DOT_SLOTS.iter().any(|&s| dot + s == f.at)) {
                    return Shape::Dot(dot);
                }
            }
            Shape::General
        }
        (Some(clue), None, _) => {
            let Glyph::Clue(n) = clue.glyph else {
                unreachable!("filtered on clues")
            };
            let local =
                facts().all(|f| f.at == clue.at || CELL_SLOTS.iter().any(|&s| clue.at + s == f.at));
            if local && n <= 3 {
                Shape::Cell(clue.at, n)
            } else {
                Shape::General
            }
        }
        (Some(a), Some(b), None) => {
            let (Glyph::Clue(na), Glyph::Clue(nb)) = (a.glyph, b.glyph) else {
                unreachable!("filtered on clues")
            };
            let in_window = |cell: Pos, p: Pos| CELL_SLOTS.iter().any(|&s| cell + s == p);
            let local = facts().all(|f| {
                f.at == a.at || f.at == b.at || in_window(a.at, f.at) || in_window(b.at, f.at)
            });
            if local && na <= 3 && nb <= 3 {
                Shape::Pair([(a.at, na), (b.at, nb)])
            } else {
                Shape::General
            }
        }
        _ => Shape::General,
    }
}

/// The (mask, value, conclude) bits of the facts a cell's word holds; facts already taken by
/// another cell's word are skipped.
fn word_bits(cell: Pos, v: &Variant, taken: &dyn Fn(Pos) -> bool) -> (u32, u32, u32) {
    let slot = |p: Pos| CELL_SLOTS.iter().position(|&s| cell + s == p);
    let (mut mask, mut value, mut conclude) = (0, 0, 0);
    for f in v.premise.iter().filter(|f| f.at.is_edge() && !taken(f.at)) {
        if let Some(k) = slot(f.at) {
            mask |= 3 << (2 * k);
            value |= bit(k, f.glyph);
        }
    }
    for f in v.conclusion.iter().filter(|f| !taken(f.at)) {
        if let Some(k) = slot(f.at) {
            conclude |= bit(k, f.glyph);
        }
    }
    (mask, value, conclude)
}

/// Files a cell test under its primary cell's clue: in the full list, the static list when
/// it reads no edge, and the watch lists of every slot state its primary word's premise needs.
/// A `mirror` (a pair test filed again at its second cell) stays out of the static list: the
/// start scan visits the first cell, and finds the pair there.
fn file_test(m: &mut Matchers, cell_watch: &mut [CellRules], n: u8, test: CellTest, mirror: bool) {
    m.cells[n as usize].push(test);
    if test.value == 0 && test.other_value == 0 && !mirror {
        m.static_cells[n as usize].push(test);
    }
    for k in 0..12 {
        for s in 0..2 {
            if test.value & (1 << (2 * k + s)) != 0 {
                cell_watch[(n as usize * 12 + k) * 2 + s].push(test);
            }
        }
    }
}

/// Line bit (`01`) or cross bit (`10`) of a slot.
fn bit(slot: usize, glyph: Glyph) -> u32 {
    match glyph {
        Glyph::Line => 1 << (2 * slot),
        _ => 2 << (2 * slot),
    }
}

fn mask(glyph: Glyph) -> u8 {
    match glyph {
        Glyph::Line => LINE,
        Glyph::Cross => CROSS | OFF,
        Glyph::Clue(n) => CLUE0 << n,
    }
}

/// (direction, state) -> (key offset, key position) -> clue -> entries of the watch index.
type Keyed<T = Entry> = BTreeMap<(isize, Pos), [Vec<T>; 4]>;

/// Matchers being built: variants are filed one by one ([`Builder::file`]), then the lists
/// are laid out ([`Builder::finish`]).
struct Builder {
    /// The matchers so far.
    m: Matchers,
    /// Dot-local variants, with their dot, folded into the dot table at the end.
    dot_variants: Vec<(usize, Pos)>,
    /// Cell tests by what wakes them, `[(clue * 12 + slot) * 2 + state]`.
    cell_watch: Vec<CellRules>,
    /// General entries with a key clue, by (direction, state).
    keyed: [[Keyed; 2]; 2],
    /// General entries without a key clue, by (direction, state).
    free: [[Vec<Entry>; 2]; 2],
    /// Entries whose premise reads no edge, by the clue of their key cell.
    statics: [Vec<Entry>; 4],
    /// Colour wakes by cell (0) and by edge direction (1 + direction), with a key clue.
    colour_keyed: [Keyed<ColourWake>; 3],
    /// Colour wakes without a key clue.
    colour_free: [Vec<ColourWake>; 3],
}

/// Index difference of a lattice displacement for boards of this stride.
fn flat(stride: usize, p: Pos) -> isize {
    p.y as isize * stride as isize + p.x as isize
}

impl Builder {
    fn new(stride: usize) -> Builder {
        let flat = |p: Pos| flat(stride, p);
        let m = Matchers {
            stride,
            checks: Vec::new(),
            concludes: Vec::new(),
            entries: Vec::new(),
            premises: Vec::new(),
            watch: Default::default(),
            statics: Default::default(),
            cell_offsets: CELL_SLOTS.map(flat),
            dot_offsets: DOT_SLOTS.map(flat),
            cells: Default::default(),
            cell_watch: Vec::new(),
            cell_watch_tests: Vec::new(),
            dots: Table::default(),
            sides: Default::default(),
            side_set: Arc::new([[0; 256]; 16]),
            starts_bare: [false; 16],
            starts_touched: [false; 16],
            has_cell_lists: false,
            static_cells: Default::default(),
            edge_cells: Default::default(),
            colour_rules: Vec::new(),
            colour_pairs: Vec::new(),
            colour_wakes: Vec::new(),
            colour_by_cell: ColourWakes::default(),
            colour_by_edge: Default::default(),
        };
        Builder {
            m,
            dot_variants: Vec::new(),
            cell_watch: vec![Vec::new(); 4 * 12 * 2],
            keyed: Default::default(),
            free: Default::default(),
            statics: Default::default(),
            colour_keyed: Default::default(),
            colour_free: Default::default(),
        }
    }

    fn flat(&self, p: Pos) -> isize {
        flat(self.m.stride, p)
    }

    /// Files one variant in the form its shape allows.
    fn file(&mut self, vi: usize, v: &Variant) {
        if v.has_colours() {
            self.file_colour(vi, v);
            return;
        }
        match shape(v) {
            Shape::Dot(dot) => self.dot_variants.push((vi, dot)),
            Shape::Cell(cell, n) => self.file_cell(vi, v, cell, n),
            Shape::Pair(cells) => self.file_pair(vi, v, cells),
            Shape::General => self.file_general(vi, v),
        }
    }

    /// A variant that reads one clue cell: into the side table when it reads only the cell's
    /// sides, else a cell test.
    fn file_cell(&mut self, vi: usize, v: &Variant, cell: Pos, n: u8) {
        let (mask, value, conclude) = word_bits(cell, v, &|_| false);
        if (mask | conclude) & !0xFF == 0 {
            let side = |p: Pos| CELL_SLOTS[..4].iter().position(|&s| cell + s == p);
            self.m.sides[n as usize].fold(vi, v, &side);
            return;
        }
        let test = CellTest {
            mask,
            value,
            conclude,
            variant: vi as u32,
            ..CellTest::default()
        };
        file_test(&mut self.m, &mut self.cell_watch, n, test, false);
    }

    /// A variant that reads two clue cells: a test filed at each of the two cells, each
    /// reading the edges of its own window first; the edges of the other window go to the
    /// other cell.
    fn file_pair(&mut self, vi: usize, v: &Variant, cells: [(Pos, u8); 2]) {
        for (i, &(cell, n)) in cells.iter().enumerate() {
            let (other, other_n) = cells[1 - i];
            let in_own = |p: Pos| CELL_SLOTS.iter().any(|&s| cell + s == p);
            let (mask, value, conclude) = word_bits(cell, v, &|_| false);
            let (other_mask, other_value, other_conclude) = word_bits(other, v, &in_own);
            let test = CellTest {
                mask,
                value,
                conclude,
                variant: vi as u32,
                other: self.flat(other - cell) as i32,
                other_at: other - cell,
                other_code: CLUE0 << other_n,
                other_mask,
                other_value,
                other_conclude,
            };
            file_test(&mut self.m, &mut self.cell_watch, n, test, i == 1);
        }
    }

    /// A variant that reads or writes colours: a colour rule, with its wakes.
    fn file_colour(&mut self, vi: usize, v: &Variant) {
        // The key clue (the first) is tested by the wake's group, not again by the rule.
        let key_fact: Vec<Fact> = v
            .premise
            .iter()
            .find(|f| matches!(f.glyph, Glyph::Clue(n) if n <= 3))
            .into_iter()
            .copied()
            .collect();
        let entry = self.entry(vi, v, &key_fact, Pos::new(0, 0));
        let stride = self.m.stride;
        let m = &mut self.m;
        let mut pairs = |list: Vec<(Pos, Pos, bool)>| {
            let start = m.colour_pairs.len() as u32;
            for (a, b, differ) in list {
                m.colour_pairs.push(ColourPair {
                    cells: [flat(stride, a), flat(stride, b)],
                    at: [a, b],
                    differ,
                });
            }
            start..m.colour_pairs.len() as u32
        };
        let same = pairs(crate::rules::colour_relations(&[], &v.premise_colours));
        let relate = pairs(crate::rules::colour_relations(
            &v.premise_colours,
            &v.conclusion_colours,
        ));
        let key_local = key_fact.first().is_some_and(|key| {
            let side = |p: Pos| {
                let d = p - key.at;
                d.y.abs() + d.x.abs() == 1
            };
            let near = |p: Pos| {
                let d = p - key.at;
                d.y.abs() + d.x.abs() <= 2 && (d.y == 0 || d.x == 0)
            };
            v.conclusion.iter().all(|f| side(f.at))
                && m.colour_pairs[range_of(&relate)]
                    .iter()
                    .all(|p| p.at.iter().all(|&a| near(a)))
        });
        let rule = m.colour_rules.len() as u32;
        m.colour_rules.push(ColourRule {
            variant: vi as u32,
            checks: entry.checks,
            concludes: entry.concludes,
            same,
            relate,
            key_local,
        });
        let clues: Vec<Pos> = v
            .premise
            .iter()
            .filter(|f| matches!(f.glyph, Glyph::Clue(_)))
            .map(|f| f.at)
            .collect();
        // A rule whose premise reads edges but no colours is woken by those edges (and by
        // every decided edge when colouring comes on): a cell's class changing tells it nothing.
        let reads_edges = v.premise.iter().any(|f| f.at.is_edge());
        let mut cells: Vec<Pos> = if !v.premise_colours.is_empty() {
            v.premise_colours.iter().map(|c| c.at).collect()
        } else if reads_edges {
            Vec::new()
        } else if !clues.is_empty() {
            clues
        } else {
            v.conclusion_colours.iter().map(|c| c.at).collect()
        };
        cells.dedup();
        let key = key_fact.first().and_then(|f| match f.glyph {
            Glyph::Clue(n) => Some((f.at, n as usize)),
            _ => None,
        });
        let points = cells.into_iter().map(|at| (0, at)).chain(
            v.premise
                .iter()
                .filter(|f| f.at.is_edge())
                .map(|f| (1 + (f.at.x & 1) as usize, f.at)),
        );
        for (list, at) in points {
            let wake = ColourWake {
                rule,
                delta: -flat(stride, at),
                at,
            };
            match key {
                Some((clue, n)) => {
                    let offset = clue - at;
                    self.colour_keyed[list]
                        .entry((flat(stride, offset), offset))
                        .or_default()[n]
                        .push(wake);
                }
                None => self.colour_free[list].push(wake),
            }
        }
    }

    /// Any other variant: an entry in the watch index per edge of its premise (keyed by the
    /// nearest clue, if any), or a static entry when its premise reads no edge.
    fn file_general(&mut self, vi: usize, v: &Variant) {
        let clues: Vec<&Fact> = v
            .premise
            .iter()
            .filter(|f| matches!(f.glyph, Glyph::Clue(_)))
            .collect();
        let edges: Vec<&Fact> = v.premise.iter().filter(|f| f.at.is_edge()).collect();
        if edges.is_empty() {
            if let Some(key) = clues.first() {
                let Glyph::Clue(n) = key.glyph else {
                    unreachable!()
                };
                let e = self.entry(vi, v, &[**key], key.at);
                self.statics[n as usize].push(e);
            }
            return;
        }
        for trigger in edges {
            let dir = (trigger.at.x & 1) as usize;
            let state = usize::from(trigger.glyph == Glyph::Cross);
            let key = clues.iter().min_by_key(|c| {
                let d = c.at - trigger.at;
                (d.y.abs() + d.x.abs(), c.at)
            });
            match key {
                Some(key) => {
                    let Glyph::Clue(n) = key.glyph else {
                        unreachable!()
                    };
                    let e = self.entry(vi, v, &[*trigger, **key], trigger.at);
                    let offset = key.at - trigger.at;
                    let key = (self.flat(offset), offset);
                    self.keyed[dir][state].entry(key).or_default()[n as usize].push(e);
                }
                None => {
                    let e = self.entry(vi, v, &[*trigger], trigger.at);
                    self.free[dir][state].push(e);
                }
            }
        }
    }

    /// An entry of a general variant seen from `origin`: its premise checks but `skip` (what
    /// the watch index already tells), clue tests first, and its conclusions.
    fn entry(&mut self, vi: usize, v: &Variant, skip: &[Fact], origin: Pos) -> Entry {
        let stride = self.m.stride;
        let flat = |p: Pos| flat(stride, p);
        let m = &mut self.m;
        let start = m.checks.len() as u32;
        // Clue tests first: they never change and reject most spots.
        let mut rest: Vec<&Fact> = v.premise.iter().filter(|f| !skip.contains(f)).collect();
        rest.sort_by_key(|f| !matches!(f.glyph, Glyph::Clue(_)));
        for f in rest {
            m.checks.push(Check {
                offset: flat(f.at),
                at: f.at,
                mask: mask(f.glyph),
            });
        }
        let cstart = m.concludes.len() as u32;
        for f in &v.conclusion {
            m.concludes.push(Conclude {
                offset: flat(f.at),
                at: f.at,
                state: if f.glyph == Glyph::Line { LINE } else { CROSS },
            });
        }
        Entry {
            variant: vi as u32,
            delta: -flat(origin),
            trigger_at: origin,
            checks: start..m.checks.len() as u32,
            concludes: cstart..m.concludes.len() as u32,
        }
    }

    /// Appends entries to the matchers' one list; returns where they stand.
    fn push_all(m: &mut Matchers, list: Vec<Entry>) -> Range<u32> {
        let start = m.entries.len() as u32;
        m.entries.extend(list);
        start..m.entries.len() as u32
    }

    /// Lays out the colour wakes: per list, the keyed groups in key order, then the free ones.
    fn lay_out_colour_wakes(&mut self) {
        let m = &mut self.m;
        for list in 0..3 {
            let mut push = |wakes: Vec<ColourWake>| {
                let start = m.colour_wakes.len() as u32;
                m.colour_wakes.extend(wakes);
                start..m.colour_wakes.len() as u32
            };
            let mut wakes = ColourWakes::default();
            for ((key, key_at), lists) in std::mem::take(&mut self.colour_keyed[list]) {
                let rules = &m.colour_rules;
                let open = lists.clone().map(|l| {
                    l.into_iter()
                        .filter(|w| !rules[w.rule as usize].key_local)
                        .collect()
                });
                let by_clue = lists.map(&mut push);
                wakes.open.push(open.map(&mut push));
                wakes.groups.push(Group::new(key, key_at, by_clue));
            }
            let free = std::mem::take(&mut self.colour_free[list]);
            wakes.free_sides = list == 0
                && free.iter().all(|w| {
                    let rule = &m.colour_rules[w.rule as usize];
                    rule.relate.is_empty()
                        && m.concludes[range_of(&rule.concludes)].iter().all(|c| {
                            let d = c.at - w.at;
                            d.y.abs() + d.x.abs() == 1
                        })
                });
            wakes.free = push(free);
            match list {
                0 => m.colour_by_cell = wakes,
                k => m.colour_by_edge[k - 1] = wakes,
            }
        }
    }

    /// Lays out the watch index, the static entries, the tables and the cell watch lists.
    fn finish(mut self, variants: &[Variant]) -> Matchers {
        self.lay_out_watch();
        self.lay_out_colour_wakes();
        let m = &mut self.m;
        m.statics = std::mem::take(&mut self.statics).map(|l| Builder::push_all(m, l));
        m.build_dot_table(variants, &self.dot_variants);
        for (n, table) in m.sides.iter().enumerate() {
            Arc::make_mut(&mut m.side_set)[1 << n] = table.set;
            let statics = m.statics[n].start != m.statics[n].end;
            m.starts_bare[1 << n] = statics || !m.static_cells[n].is_empty();
            m.starts_touched[1 << n] = statics || !m.cells[n].is_empty();
        }
        self.lay_out_cell_watch();
        let flat = |p: Pos| flat(self.m.stride, p);
        let mut filled = [0usize; 2];
        for (k, &p) in CELL_SLOTS.iter().enumerate() {
            let dir = (p.y & 1) as usize;
            self.m.edge_cells[dir][filled[dir]] = (-flat(p), k);
            filled[dir] += 1;
        }
        self.m.lay_out_premises();
        self.m
    }

    /// The watch index: per (direction, state), the keyed groups in key order, then the
    /// free entries.
    fn lay_out_watch(&mut self) {
        let m = &mut self.m;
        for dir in 0..2 {
            for state in 0..2 {
                let groups = std::mem::take(&mut self.keyed[dir][state]);
                let mut watch = Watch::default();
                for ((key, key_at), lists) in groups {
                    let by_clue = lists.map(|l| Builder::push_all(m, l));
                    watch.groups.push(Group::new(key, key_at, by_clue));
                }
                watch.free = Builder::push_all(m, std::mem::take(&mut self.free[dir][state]));
                m.watch[dir][state] = watch;
            }
        }
    }

    /// The cell watch lists, one after another, each with what its tests conclude.
    fn lay_out_cell_watch(&mut self) {
        let m = &mut self.m;
        m.has_cell_lists = self.cell_watch.iter().any(|l| !l.is_empty());
        for list in std::mem::take(&mut self.cell_watch) {
            let start = m.cell_watch_tests.len() as u32;
            let concludes = list.iter().fold(0, |acc, t| acc | t.conclude);
            let pairs = list.iter().any(|t| t.other != 0);
            m.cell_watch_tests.extend(list);
            m.cell_watch.push(WatchList {
                tests: start..m.cell_watch_tests.len() as u32,
                concludes,
                pairs,
            });
        }
    }
}

impl Matchers {
    fn build(variants: &[Variant], keep: &[bool], stride: usize) -> Matchers {
        let mut builder = Builder::new(stride);
        for (vi, v) in variants.iter().enumerate() {
            if keep[vi] {
                builder.file(vi, v);
            }
        }
        builder.finish(variants)
    }

    /// The same matchers laid out for boards of another stride: every index difference is
    /// recomputed from the lattice displacement it stands for (the tables and lists are
    /// kept), which costs a fraction of compiling them again.
    pub fn relocate(&self, stride: usize) -> Matchers {
        let flat = |p: Pos| p.y as isize * stride as isize + p.x as isize;
        let mut m = self.clone();
        m.stride = stride;
        for c in &mut m.checks {
            c.offset = flat(c.at);
        }
        for c in &mut m.concludes {
            c.offset = flat(c.at);
        }
        for e in &mut m.entries {
            e.delta = -flat(e.trigger_at);
        }
        for p in &mut m.colour_pairs {
            p.cells = p.at.map(flat);
        }
        for w in &mut m.colour_wakes {
            w.delta = -flat(w.at);
        }
        for wakes in std::iter::once(&mut m.colour_by_cell).chain(&mut m.colour_by_edge) {
            for g in &mut wakes.groups {
                g.key = flat(g.key_at);
            }
        }
        for watch in m.watch.iter_mut().flatten() {
            for g in &mut watch.groups {
                g.key = flat(g.key_at);
            }
        }
        let tests = m.cell_watch_tests.iter_mut();
        let lists = m
            .cells
            .iter_mut()
            .chain(m.static_cells.iter_mut())
            .flatten();
        for t in tests.chain(lists) {
            t.other = flat(t.other_at) as i32;
        }
        m.cell_offsets = CELL_SLOTS.map(flat);
        m.dot_offsets = DOT_SLOTS.map(flat);
        let mut filled = [0usize; 2];
        for (k, &p) in CELL_SLOTS.iter().enumerate() {
            let dir = (p.y & 1) as usize;
            m.edge_cells[dir][filled[dir]] = (-flat(p), k);
            filled[dir] += 1;
        }
        m.lay_out_premises();
        m
    }

    /// Lays out [`Matchers::premises`] from the entries and their checks (for this stride).
    fn lay_out_premises(&mut self) {
        let premises = self.entries.iter().map(|e| {
            let checks = &self.checks[e.checks.start as usize..e.checks.end as usize];
            let mut p = Premise {
                offsets: [0; PREMISE_CHECKS],
                masks: [0xFF; PREMISE_CHECKS],
                rest: e.checks.start + checks.len().min(PREMISE_CHECKS) as u32,
            };
            for (k, c) in checks.iter().take(PREMISE_CHECKS).enumerate() {
                p.offsets[k] =
                    i32::try_from(e.delta + c.offset).expect("a premise offset fits 32 bits");
                p.masks[k] = c.mask;
            }
            p
        });
        self.premises = premises.collect();
    }

    /// Folds every dot-local variant into the dot table.
    fn build_dot_table(&mut self, variants: &[Variant], dot_variants: &[(usize, Pos)]) {
        for &(vi, dot) in dot_variants {
            let slot = |p: Pos| DOT_SLOTS.iter().position(|&s| dot + s == p);
            self.dots.fold(vi, &variants[vi], &slot);
        }
    }
}

/// A `Range<u32>` as indices.
fn range_of(r: &Range<u32>) -> Range<usize> {
    r.start as usize..r.end as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_set_to_solve_is_the_built_in_set_without_examples() {
        let mut full = RuleSet::builtin();
        assert!(full.rules.iter().all(|r| !r.examples.is_empty()));
        for rule in &mut full.rules {
            rule.examples.clear();
        }
        assert_eq!(RuleSet::builtin_to_solve(), full);
    }

    #[test]
    fn a_plain_solve_with_probing_reads_the_built_in_set_without_what_probing_replaces() {
        let full = RuleSet::builtin_to_solve();
        // The rule files say `use probing instead of level 4` (rules/global.rules), and the
        // rules learned from probes (rules/learned.rules) are at level 4.
        assert_eq!(full.probing_replaces, Some(4));
        let learned = full.rules.iter().filter(|r| r.level >= 4).count();
        assert!(learned > 0);
        assert!(
            full.rules
                .iter()
                .filter(|r| r.level >= 4)
                .all(|r| r.file == "rules/learned.rules")
        );
        // The files passed over by their quick look at build time are those with such rules
        // only, so the set read is the whole set less them.
        let plain = RuleSet::builtin_to_solve_with_probing();
        assert_eq!(plain, full.clone().without_what_probing_replaces());
        assert_eq!(plain.rules.len() + learned, full.rules.len());
        assert_eq!(plain.deducers, full.deducers);
        // And the files read when probing is stuck hold every rule left out.
        let late = RuleSet::builtin_late_rules();
        let left_out: Vec<&crate::rules::Rule> =
            full.rules.iter().filter(|r| r.level >= 4).collect();
        assert_eq!(late.iter().collect::<Vec<_>>(), left_out);
        // The boards of a plain solve are laid out for the whole set.
        assert_eq!(
            RuleBook::new(full.clone()).margin,
            crate::solve::BUILTIN_MARGIN
        );
        assert!(RuleBook::new(plain.clone()).margin <= crate::solve::BUILTIN_MARGIN);
        // The quick look agrees with the parsed files, file by file.
        let (lowest, replaces) = crate::rules::BUILTIN_LEVELS;
        assert_eq!(replaces, full.probing_replaces);
        for (&(name, text), &low) in crate::rules::BUILTIN_RULES.iter().zip(lowest) {
            let file = RuleSet::from_sources(&[(name, text)]).unwrap();
            let parsed = match file.rules.iter().map(|r| r.level).min() {
                Some(level) if file.deducers.is_empty() => level,
                _ => 0,
            };
            assert_eq!(low, parsed, "{name}");
        }
    }

    #[test]
    fn levels_past_the_first_are_laid_out_when_first_asked_for() {
        let book = RuleBook::new(RuleSet::builtin_to_solve());
        let stages = book.stages(40, true);
        assert!(stages.len() >= 3, "the built-in set has three levels");
        let laid_out = |s: &Stages| s.stages.iter().filter(|k| k.get().is_some()).count();
        assert_eq!(laid_out(&stages), 1);
        let last = stages.stage(stages.len() - 1);
        assert_eq!(laid_out(&stages), 2);
        // The last level runs every rule: the same matchers as one level holding them all.
        let mut flat = book.set.clone();
        for rule in &mut flat.rules {
            rule.level = 1;
        }
        let flat = RuleBook::new(flat);
        assert!(last.all == flat.stages(40, true).stage(0).all);
    }

    #[test]
    fn relocated_matchers_are_the_ones_compiled_for_that_stride() {
        let general = include_str!("../../tests/fixtures/general/general.rules");
        let mut sources: Vec<(String, String)> = crate::rules::BUILTIN_RULES
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        sources.push(("general.rules".into(), general.into()));
        let book = RuleBook::new(RuleSet::from_sources(&sources).unwrap());
        for single_loop in [false, true] {
            let base = Arc::new(book.stages(40, single_loop));
            assert!(base.iter().any(|s| !s.all.entries.is_empty()));
            for stride in [22, 40, 58, 1002] {
                assert!(
                    base.relocate(stride) == book.stages(stride, single_loop),
                    "stride {stride}, single loop {single_loop}"
                );
            }
        }
    }
}
