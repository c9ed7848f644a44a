//! Where a rule's variants fire on a grid: a plain matcher, written apart from the compiled engine, for scoring candidates on a corpus and for working out what a rule's example must give.
//!
//! A variant fires at an anchor (a dot of the lattice) when every premise fact holds there
//! (a premise cross also matches an edge outside the grid) and some conclusion edge inside the
//! grid is still unknown.

use crate::geometry::{CELL_SLOTS, Kind, Pos};
use crate::rules::expand::Variant;
use crate::rules::{Fact, Glyph};
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A grid of cells whose edges may be known.
pub trait Lattice {
    /// Cells down.
    fn rows(&self) -> usize;
    /// Cells across.
    fn cols(&self) -> usize;
    /// A grid edge's state: `Line`, `Cross` or `None` (unknown).
    fn edge(&self, at: Pos) -> Option<Glyph>;
    /// A grid cell's clue.
    fn clue(&self, at: Pos) -> Option<u8>;
    /// Every point holding this glyph (lines of one direction, or one clue), when indexed.
    fn find(&self, _glyph: Glyph, _kind: Kind) -> Option<&[Pos]> {
        None
    }
    /// Every cell holding clue `n` with its slot word (see [`slot_word`]), when indexed.
    fn clue_cells(&self, _n: u8) -> Option<&[(Pos, u32)]> {
        None
    }
    /// A cell's clue (`None` outside the grid) and slot word; the cell may lie outside.
    fn cell(&self, at: Pos) -> (Option<u8>, u32) {
        let clue = if inside(self, at) {
            self.clue(at)
        } else {
            None
        };
        (clue, slot_word(self, at))
    }
}

/// What a variant asks of one cell: its clue, and its slot word under a mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CellTest {
    /// The cell, relative to the anchor.
    at: Pos,
    /// The clue it must hold, if any.
    clue: Option<u8>,
    /// The slots read.
    mask: u32,
    /// What they must hold.
    value: u32,
}

/// The (mask, value) a variant's premise asks of the slot word of the cell at `cell`: every
/// premise line or cross among its slots.
fn slot_test(v: &Variant, cell: Pos) -> (u32, u32) {
    let (mut mask, mut value) = (0, 0);
    for f in v.premise.iter().filter(|f| f.at.is_edge()) {
        if let Some(k) = CELL_SLOTS.iter().position(|&s| cell + s == f.at) {
            mask |= 3 << (2 * k);
            value |= if f.glyph == Glyph::Line { 1 } else { 2 } << (2 * k);
        }
    }
    (mask, value)
}

impl CellTest {
    /// Whether the cell at `anchor + at` passes.
    fn holds<L: Lattice + ?Sized>(&self, l: &L, anchor: Pos) -> bool {
        let (clue, word) = l.cell(anchor + self.at);
        word & self.mask == self.value && (self.clue.is_none() || clue == self.clue)
    }
}

/// A variant's premise as tests on cell words: every clue's cell, and for every line or
/// cross a cell that holds it among its 12 slots (a cell already tested where possible).
fn cell_tests(v: &Variant) -> Vec<CellTest> {
    let mut tests: Vec<CellTest> = v
        .premise
        .iter()
        .filter_map(|f| match f.glyph {
            Glyph::Clue(n) => Some(CellTest {
                at: f.at,
                clue: Some(n),
                mask: 0,
                value: 0,
            }),
            _ => None,
        })
        .collect();
    for f in v.premise.iter().filter(|f| f.at.is_edge()) {
        let code = if f.glyph == Glyph::Line { 1 } else { 2 };
        let slot_in = |cell: Pos| CELL_SLOTS.iter().position(|&s| cell + s == f.at);
        let k = tests.iter().position(|t| slot_in(t.at).is_some());
        let k = k.unwrap_or_else(|| {
            // A new cell: one the edge is a side of.
            tests.push(CellTest {
                at: f.at + Pos::new(f.at.x & 1, f.at.y & 1),
                clue: None,
                mask: 0,
                value: 0,
            });
            tests.len() - 1
        });
        let slot = slot_in(tests[k].at).expect("the edge is a slot of its cell");
        tests[k].mask |= 3 << (2 * slot);
        tests[k].value |= code << (2 * slot);
    }
    tests
}

/// The 12 slots of a cell (sides, then corner exits, as [`CELL_SLOTS`]), 2 bits each: `01`
/// line, `10` cross or outside the grid, `00` unknown.
pub fn slot_word<L: Lattice + ?Sized>(l: &L, cell: Pos) -> u32 {
    let mut word = 0;
    for (k, &s) in CELL_SLOTS.iter().enumerate() {
        let p = cell + s;
        let code = if !inside(l, p) {
            2
        } else {
            match l.edge(p) {
                Some(Glyph::Line) => 1,
                Some(_) => 2,
                None => 0,
            }
        };
        word |= code << (2 * k);
    }
    word
}

/// Whether a lattice point lies on the grid.
pub fn inside<L: Lattice + ?Sized>(l: &L, p: Pos) -> bool {
    (0..=2 * l.rows() as i32).contains(&p.y) && (0..=2 * l.cols() as i32).contains(&p.x)
}

/// How a variant finds the anchors it may match at.
#[derive(Clone, Copy, Debug)]
enum Key {
    /// Through the cells holding this clue at `at`, whose slot words hold `value` under `mask`.
    Clue {
        at: Pos,
        n: u8,
        mask: u32,
        value: u32,
    },
    /// Through the lines of this kind at `at`.
    Line { at: Pos, kind: Kind },
    /// Every anchor near the grid.
    Everywhere,
}

/// A rule's variants, each with the key it is anchored by and its premise as cell tests.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// The variants.
    pub variants: Vec<Variant>,
    keys: Vec<Key>,
    tests: Vec<Vec<CellTest>>,
}

impl Pattern {
    /// Prepares variants for matching.
    pub fn new(variants: Vec<Variant>) -> Pattern {
        let keys = variants
            .iter()
            .map(|v| {
                // The clue whose slots hold the most premise facts: the most selective key.
                let clue = v
                    .premise
                    .iter()
                    .filter_map(|f| match f.glyph {
                        Glyph::Clue(n) => Some((f.at, n, slot_test(v, f.at))),
                        _ => None,
                    })
                    .max_by_key(|&(at, _, (mask, _))| (mask.count_ones(), std::cmp::Reverse(at)));
                if let Some((at, n, (mask, value))) = clue {
                    return Key::Clue { at, n, mask, value };
                }
                match v.premise.iter().find(|f| f.glyph == Glyph::Line) {
                    Some(f) => Key::Line {
                        at: f.at,
                        kind: f.at.kind(),
                    },
                    None => Key::Everywhere,
                }
            })
            .collect();
        let tests = variants.iter().map(cell_tests).collect();
        Pattern {
            variants,
            keys,
            tests,
        }
    }

    /// Whether variant `i`'s premise holds at `anchor` and it would decide some edge.
    pub fn fires_at<L: Lattice + ?Sized>(&self, l: &L, i: usize, anchor: Pos) -> bool {
        self.tests[i].iter().all(|t| t.holds(l, anchor))
            && self.variants[i].conclusion.iter().any(|f| {
                let p = anchor + f.at;
                inside(l, p) && l.edge(p).is_none()
            })
    }

    /// Calls `each` with every anchor at which variant `i` may match, until it returns false;
    /// returns whether it was never stopped.
    fn each_anchor<L: Lattice + ?Sized>(
        &self,
        l: &L,
        i: usize,
        each: &mut dyn FnMut(Pos) -> bool,
    ) -> bool {
        match self.keys[i] {
            Key::Clue { at, n, mask, value } => {
                if let Some(cells) = l.clue_cells(n) {
                    // Only cells whose slots already hold what the premise asks there.
                    return cells
                        .iter()
                        .filter(|&&(_, word)| word & mask == value)
                        .all(|&(p, _)| each(p - at));
                }
                if let Some(found) = l.find(Glyph::Clue(n), Kind::Cell) {
                    return found.iter().all(|&p| each(p - at));
                }
            }
            Key::Line { at, kind } => {
                if let Some(found) = l.find(Glyph::Line, kind) {
                    return found.iter().all(|&p| each(p - at));
                }
            }
            Key::Everywhere => {}
        }
        let v = &self.variants[i];
        let facts = v.premise.iter().chain(&v.conclusion).map(|f| f.at);
        let Some((lo, hi)) = crate::geometry::bounds(facts) else {
            return true;
        };
        let (h, w) = (2 * l.rows() as i32, 2 * l.cols() as i32);
        for y in ((-hi.y - 1) & !1..=h - lo.y + 1).step_by(2) {
            for x in ((-hi.x - 1) & !1..=w - lo.x + 1).step_by(2) {
                if !each(Pos::new(y, x)) {
                    return false;
                }
            }
        }
        true
    }

    /// Every (variant, anchor) at which the rule fires.
    pub fn firings<L: Lattice + ?Sized>(&self, l: &L) -> Vec<(usize, Pos)> {
        let mut out = Vec::new();
        for i in 0..self.variants.len() {
            self.each_anchor(l, i, &mut |a| {
                if self.fires_at(l, i, a) {
                    out.push((i, a));
                }
                true
            });
        }
        out
    }

    /// Whether the rule fires anywhere.
    pub fn fires<L: Lattice + ?Sized>(&self, l: &L) -> bool {
        (0..self.variants.len()).any(|i| !self.each_anchor(l, i, &mut |a| !self.fires_at(l, i, a)))
    }

    /// Every (variant, anchor) at which the rule fires with a premise fact on one of the
    /// edges `near`: where it may fire anew once those edges were decided.
    pub fn firings_near<L: Lattice + ?Sized>(&self, l: &L, near: &[Pos]) -> Vec<(usize, Pos)> {
        let mut out = Vec::new();
        for (i, v) in self.variants.iter().enumerate() {
            let mut anchors: Vec<Pos> = near
                .iter()
                .flat_map(|&q| {
                    v.premise
                        .iter()
                        .filter(move |f| f.at.is_edge() && f.at.kind() == q.kind())
                        .map(move |f| q - f.at)
                })
                .collect();
            anchors.sort();
            anchors.dedup();
            out.extend(
                anchors
                    .into_iter()
                    .filter(|&a| self.fires_at(l, i, a))
                    .map(|a| (i, a)),
            );
        }
        out
    }
}

/// A variant filed under its key: where its clue cell lies, and a second cell test checked on
/// the spot (most variants under a key fail it, without reading the pattern).
#[derive(Clone, Copy, Debug)]
struct Probe {
    /// The pattern.
    pattern: u32,
    /// Its variant.
    variant: u32,
    /// The key clue cell, relative to the anchor.
    at: Pos,
    /// Another cell test of the variant, relative to the anchor.
    second: Option<CellTest>,
}

/// A map keyed by (clue, slot mask, masked word), hashed by one multiplication.
type KeyMap = HashMap<u64, Vec<Probe>, BuildHasherDefault<KeyHasher>>;

/// Hashes a `u64` key by multiplying it with an odd constant (Fibonacci hashing).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ n >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The key of a clue cell test: clue, slot mask and masked word.
fn key(n: u8, mask: u32, value: u32) -> u64 {
    u64::from(n) << 48 | u64::from(mask) << 24 | u64::from(value)
}

/// Many patterns at once, indexed by the clue their variants are anchored by and what they
/// ask of that clue cell's slots. A clue cell matches the keys made of its decided slots, so
/// finding which patterns fire on a lattice looks up every small subset of each clue cell's
/// decided slots (no larger than the largest key), instead of testing every pattern there.
pub struct Index {
    /// (pattern, variant, clue offset) by key.
    by_key: KeyMap,
    /// The most slots any key reads.
    widest: u32,
    /// Patterns with a variant not anchored by a clue, tested one by one.
    others: Vec<usize>,
}

impl Index {
    /// Indexes the patterns numbered `which` of `patterns`.
    pub fn new(patterns: &[Pattern], which: &[usize]) -> Index {
        let mut index = Index {
            by_key: KeyMap::default(),
            widest: 0,
            others: Vec::new(),
        };
        for &j in which {
            let p = &patterns[j];
            if !p.keys.iter().all(|k| matches!(k, Key::Clue { .. })) {
                index.others.push(j);
                continue;
            }
            for (i, k) in p.keys.iter().enumerate() {
                if let Key::Clue { at, n, mask, value } = *k {
                    index.widest = index.widest.max(mask.count_ones() / 2);
                    let second = p.tests[i]
                        .iter()
                        .filter(|t| t.at != at)
                        .max_by_key(|t| 2 * u32::from(t.clue.is_some()) + t.mask.count_ones())
                        .copied();
                    index
                        .by_key
                        .entry(key(n, mask, value))
                        .or_default()
                        .push(Probe {
                            pattern: j as u32,
                            variant: i as u32,
                            at,
                            second,
                        });
                }
            }
        }
        index
    }

    /// The indexed patterns that fire somewhere on `l` (sorted).
    pub fn firing<L: Lattice + ?Sized>(&self, patterns: &[Pattern], l: &L) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .others
            .iter()
            .copied()
            .filter(|&j| patterns[j].fires(l))
            .collect();
        let mut seen = vec![false; patterns.len()];
        let mut slots = Vec::with_capacity(12);
        for n in 0..4u8 {
            let Some(cells) = l.clue_cells(n) else {
                continue;
            };
            for &(p, word) in cells {
                slots.clear();
                slots.extend(
                    (0..12)
                        .filter(|k| word >> (2 * k) & 3 != 0)
                        .map(|k| 3u32 << (2 * k)),
                );
                subsets(&slots, self.widest, 0, 0, &mut |mask| {
                    if let Some(list) = self.by_key.get(&key(n, mask, word & mask)) {
                        for probe in list {
                            let (j, anchor) = (probe.pattern as usize, p - probe.at);
                            if seen[j] || probe.second.is_some_and(|t| !t.holds(l, anchor)) {
                                continue;
                            }
                            if patterns[j].fires_at(l, probe.variant as usize, anchor) {
                                seen[j] = true;
                                out.push(j);
                            }
                        }
                    }
                });
            }
        }
        out.sort_unstable();
        out
    }
}

/// Calls `each` with the union of every subset of `slots[from..]` of at most `left` items,
/// each joined to `mask`.
fn subsets(slots: &[u32], left: u32, from: usize, mask: u32, each: &mut dyn FnMut(u32)) {
    each(mask);
    if left == 0 {
        return;
    }
    for k in from..slots.len() {
        subsets(slots, left - 1, k + 1, mask | slots[k], each);
    }
}

/// A little board kept as facts: for example boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sketch {
    /// Cells down.
    pub rows: usize,
    /// Cells across.
    pub cols: usize,
    /// Clues, lines and crosses by position.
    pub facts: BTreeMap<Pos, Glyph>,
}

impl Sketch {
    /// A board of `rows` x `cols` cells holding `facts`.
    pub fn new(rows: usize, cols: usize, facts: &[Fact]) -> Sketch {
        Sketch {
            rows,
            cols,
            facts: facts.iter().map(|f| (f.at, f.glyph)).collect(),
        }
    }

    /// Its facts, in lattice order.
    pub fn to_facts(&self) -> Vec<Fact> {
        self.facts
            .iter()
            .map(|(&at, &glyph)| Fact { at, glyph })
            .collect()
    }

    /// Runs a rule alone to a fixpoint; `None` when a conclusion meets the opposite fact.
    pub fn run(&self, pattern: &Pattern) -> Option<Sketch> {
        let variants = &pattern.variants;
        let mut board = self.clone();
        loop {
            let fired = pattern.firings(&board);
            if fired.is_empty() {
                return Some(board);
            }
            for (i, a) in fired {
                for f in &variants[i].conclusion {
                    let p = a + f.at;
                    if !inside(&board, p) {
                        if f.glyph == Glyph::Line {
                            return None;
                        }
                        continue;
                    }
                    match board.facts.get(&p) {
                        None => {
                            board.facts.insert(p, f.glyph);
                        }
                        Some(&g) if g != f.glyph => return None,
                        Some(_) => {}
                    }
                }
            }
        }
    }
}

impl Lattice for Sketch {
    fn rows(&self) -> usize {
        self.rows
    }
    fn cols(&self) -> usize {
        self.cols
    }
    fn edge(&self, at: Pos) -> Option<Glyph> {
        self.facts.get(&at).copied()
    }
    fn clue(&self, at: Pos) -> Option<u8> {
        match self.facts.get(&at) {
            Some(Glyph::Clue(n)) => Some(*n),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;
    use crate::rules::expand::expand_rule;

    fn pattern(text: &str) -> Pattern {
        let set = RuleSet::from_sources(&[("t.rules", text)]).unwrap();
        Pattern::new(expand_rule(0, &set.rules[0]))
    }

    const THREES: &str = "rule t\nwhen\n  +   +   +\n    3   3\n  +   +   +\nthen\n  +   +   +\n  | 3 | 3 |\n  +   +   +\n";
    const DEAD_END: &str = "rule d\nwhen\n      +\n      x\n  + x + x +\nthen\n      +\n      x\n  + x + x +\n      x\n";

    fn fact(y: i32, x: i32, glyph: Glyph) -> Fact {
        Fact {
            at: Pos::new(y, x),
            glyph,
        }
    }

    #[test]
    fn two_threes_fire_once_each_way_they_lie() {
        let v = pattern(THREES);
        let board = Sketch::new(
            2,
            2,
            &[fact(1, 1, Glyph::Clue(3)), fact(1, 3, Glyph::Clue(3))],
        );
        let fired = v.firings(&board);
        assert_eq!(fired.len(), 1, "{fired:?}");
        let after = board.run(&v).unwrap();
        let lines: Vec<Pos> = after
            .to_facts()
            .into_iter()
            .filter(|f| f.glyph == Glyph::Line)
            .map(|f| f.at)
            .collect();
        assert_eq!(lines, vec![Pos::new(1, 0), Pos::new(1, 2), Pos::new(1, 4)]);
        assert!(!v.fires(&after));
    }

    #[test]
    fn premise_crosses_match_the_border_and_the_fixpoint_spreads() {
        // A one-row board with its left side crossed: both corner dots dead-end, as the
        // engine's own example test shows.
        let v = pattern(DEAD_END);
        let board = Sketch::new(1, 2, &[fact(1, 0, Glyph::Cross)]);
        let after = board.run(&v).unwrap();
        assert_eq!(
            after.to_facts(),
            vec![
                fact(0, 1, Glyph::Cross),
                fact(1, 0, Glyph::Cross),
                fact(2, 1, Glyph::Cross)
            ]
        );
    }
}
