//! The deducers' names and the types keyed by them: [`Deducer`] (listed once in
//! [`Deducer::ALL`]), the set of those switched on ([`DeducerSet`]) and one value per deducer
//! ([`PerDeducer`]). A leaf: the board's trail names deducers without depending on them.

use serde::ser::{Serialize, SerializeMap, Serializer};
use std::ops::{Index, IndexMut};

/// A global deducer written in code, switched on by a rule set with `use NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Deducer {
    /// An unknown edge joining the two ends of one chain of lines is a cross, unless closing it finishes the puzzle.
    LoopClosure,
    /// Inside/outside colouring of the cells: same side across a cross, different sides across a line.
    Colouring,
    /// The loop is one cycle in the graph of uncrossed edges: no bridge is a line, a part
    /// without lines is crossed out, and edges the colour store links are not drawn together
    /// where they would close a loop early.
    Connectivity,
    /// The cells inside the loop stay joined, and so do those outside it: a cell every path
    /// between two cells of one side passes is on that side, a part no path reaches on the other.
    Regions,
    /// Region parity: the loop crosses the boundary of any set of cells an even number of
    /// times, so the clues of a set of cells fix the parity of the lines around it.
    Parity,
    /// When everything else is stuck, try unknown edges both ways with full propagation.
    Probing,
    /// When deduction is stuck, guess an edge and backtrack on contradiction; prove the answer unique.
    Search,
}

/// When a deducer runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Inside propagation, whenever the rules run dry ([`super::at_fixpoint`]).
    Fixpoint,
    /// At the fixpoints of the solver's main line only, when the rules and the fixpoint
    /// deducers are stuck (never inside a probe or a search branch): for deducers that look
    /// at the whole board ([`super::at_fixpoint`] too).
    Settle,
    /// When propagation is stuck: it drives the engine itself.
    Stuck,
}

impl Deducer {
    /// Every deducer, in the order they come on.
    pub const ALL: [Deducer; 7] = [
        Deducer::LoopClosure,
        Deducer::Colouring,
        Deducer::Connectivity,
        Deducer::Regions,
        Deducer::Parity,
        Deducer::Probing,
        Deducer::Search,
    ];

    /// How many deducers there are.
    pub const COUNT: usize = Deducer::ALL.len();

    /// Its place in [`Deducer::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name a rule file uses for it (`use NAME`), and JSON keys.
    pub const fn name(self) -> &'static str {
        match self {
            Deducer::LoopClosure => "loop-closure",
            Deducer::Colouring => "colouring",
            Deducer::Connectivity => "connectivity",
            Deducer::Regions => "regions",
            Deducer::Parity => "parity",
            Deducer::Probing => "probing",
            Deducer::Search => "search",
        }
    }

    /// Its name in running text ("loop closure").
    pub const fn words(self) -> &'static str {
        match self {
            Deducer::LoopClosure => "loop closure",
            Deducer::Colouring => "colouring",
            Deducer::Connectivity => "connectivity",
            Deducer::Regions => "regions",
            Deducer::Parity => "region parity",
            Deducer::Probing => "probing",
            Deducer::Search => "search",
        }
    }

    /// Its row in the statistics' per-rule table (the edges of the answers it decided).
    pub const fn row(self) -> &'static str {
        match self {
            Deducer::Search => "search guesses",
            d => d.words(),
        }
    }

    /// Its column in the statistics' per-puzzle table (at most 7 characters).
    pub const fn column(self) -> &'static str {
        match self {
            Deducer::LoopClosure => "closure",
            Deducer::Colouring => "colour",
            Deducer::Connectivity => "connect",
            Deducer::Regions => "regions",
            Deducer::Parity => "parity",
            Deducer::Probing => "probing",
            Deducer::Search => "guessed",
        }
    }

    /// The command-line flag that switches it off.
    pub const fn flag(self) -> &'static str {
        match self {
            Deducer::LoopClosure => "no-loop-closure",
            Deducer::Colouring => "no-colouring",
            Deducer::Connectivity => "no-connectivity",
            Deducer::Regions => "no-regions",
            Deducer::Parity => "no-parity",
            Deducer::Probing => "no-probing",
            Deducer::Search => "no-search",
        }
    }

    /// The help of its `--no-NAME` flag.
    pub const fn flag_help(self) -> &'static str {
        match self {
            Deducer::LoopClosure => "No loop closure",
            Deducer::Colouring => "No inside/outside colouring",
            Deducer::Connectivity => {
                "No connectivity (bridges and parts of the uncrossed edges, linked edges that would close a loop early)"
            }
            Deducer::Regions => "No regions (the cells inside, and those outside, stay joined)",
            Deducer::Parity => "No region parity (the clues' parities over sets of cells)",
            Deducer::Probing => "No probing",
            Deducer::Search => {
                "Deduction only: no search (puzzles the deducers cannot finish end as \"stuck\")"
            }
        }
    }

    /// When it runs.
    pub const fn phase(self) -> Phase {
        match self {
            Deducer::LoopClosure | Deducer::Colouring => Phase::Fixpoint,
            Deducer::Connectivity | Deducer::Regions | Deducer::Parity => Phase::Settle,
            Deducer::Probing | Deducer::Search => Phase::Stuck,
        }
    }

    /// For a [`Phase::Settle`] deducer: whether, in a round of the settle deducers, it looks
    /// only when those before it found nothing in that round. Region parity does: it adds
    /// little where colouring is on and costs a system of equations over the whole board, so
    /// it waits for connectivity and regions to be stuck (docs/rules.md, "Region parity").
    pub const fn waits_for_the_others(self) -> bool {
        matches!(self, Deducer::Parity)
    }

    /// The deducer of that name.
    pub fn from_name(name: &str) -> Option<Deducer> {
        Deducer::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// A set of deducers (which are on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeducerSet(u8);

impl DeducerSet {
    /// Every deducer.
    pub const ALL: DeducerSet = DeducerSet((1 << Deducer::COUNT) - 1);
    /// No deducer.
    pub const NONE: DeducerSet = DeducerSet(0);

    /// Whether `d` is in the set.
    #[inline]
    pub const fn contains(self, d: Deducer) -> bool {
        self.0 & (1 << d as u8) != 0
    }

    /// The set with `d` added.
    pub const fn with(self, d: Deducer) -> DeducerSet {
        DeducerSet(self.0 | (1 << d as u8))
    }

    /// The set with `d` taken out.
    pub const fn without(self, d: Deducer) -> DeducerSet {
        DeducerSet(self.0 & !(1 << d as u8))
    }

    /// What is in both.
    pub const fn and(self, other: DeducerSet) -> DeducerSet {
        DeducerSet(self.0 & other.0)
    }

    /// The deducers in the set, in [`Deducer::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Deducer> {
        Deducer::ALL.into_iter().filter(move |&d| self.contains(d))
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl Default for DeducerSet {
    fn default() -> DeducerSet {
        DeducerSet::ALL
    }
}

impl FromIterator<Deducer> for DeducerSet {
    fn from_iter<I: IntoIterator<Item = Deducer>>(iter: I) -> DeducerSet {
        iter.into_iter().fold(DeducerSet::NONE, DeducerSet::with)
    }
}

/// One value per deducer, indexed by [`Deducer`]: what each decided, whether each was needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerDeducer<T>([T; Deducer::COUNT]);

impl<T> PerDeducer<T> {
    /// Each deducer with its value, in [`Deducer::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Deducer, &T)> {
        Deducer::ALL.into_iter().zip(&self.0)
    }

    /// The values made from each deducer's.
    pub fn map<U>(&self, mut f: impl FnMut(Deducer, &T) -> U) -> PerDeducer<U> {
        PerDeducer(std::array::from_fn(|k| f(Deducer::ALL[k], &self.0[k])))
    }
}

impl PerDeducer<u64> {
    /// Adds another's counts to these.
    pub fn add(&mut self, other: &PerDeducer<u64>) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }

    /// The sum over every deducer.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl<T> Index<Deducer> for PerDeducer<T> {
    type Output = T;
    #[inline]
    fn index(&self, d: Deducer) -> &T {
        &self.0[d.index()]
    }
}

impl<T> IndexMut<Deducer> for PerDeducer<T> {
    #[inline]
    fn index_mut(&mut self, d: Deducer) -> &mut T {
        &mut self.0[d.index()]
    }
}

/// Written as an object keyed by [`Deducer::name`].
impl<T: Serialize> Serialize for PerDeducer<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Deducer::COUNT))?;
        for (d, value) in self.iter() {
            map.serialize_entry(d.name(), value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_flags_are_distinct() {
        for d in Deducer::ALL {
            assert_eq!(Deducer::from_name(d.name()), Some(d));
            assert_eq!(d.flag(), format!("no-{}", d.name()));
        }
    }

    #[test]
    fn sets_hold_what_is_put_in() {
        let set = DeducerSet::NONE
            .with(Deducer::Colouring)
            .with(Deducer::Search);
        assert!(set.contains(Deducer::Colouring) && !set.contains(Deducer::Probing));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Deducer::Colouring, Deducer::Search]
        );
        assert_eq!(
            set.without(Deducer::Search)
                .and(DeducerSet::ALL)
                .iter()
                .count(),
            1
        );
        assert_eq!(DeducerSet::ALL.iter().count(), Deducer::COUNT);
    }

    #[test]
    fn per_deducer_counts_serialise_by_name() {
        let mut counts = PerDeducer::<u64>::default();
        counts[Deducer::Probing] = 3;
        let json = serde_json::to_string(&counts).unwrap();
        assert_eq!(
            json,
            r#"{"loop-closure":0,"colouring":0,"connectivity":0,"regions":0,"parity":0,"probing":3,"search":0}"#
        );
    }
}
