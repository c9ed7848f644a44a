//! The grade scale of `slink gen --grade`: the hardest step a puzzle needs, read off the grade `slink --grade` prints.
//!
//! The solver brings its means in on a ladder: the rules (with loop closure at their
//! fixpoints), then colouring and connectivity when those are stuck, then probing, then
//! search. A puzzle's step is the last one on the ladder that decided an edge (for search:
//! that guessed) when the puzzle was solved with every deducer on, as `slink --grade`
//! reports it (`level N; loop closure, colouring; no search` is step `colouring`). Colouring
//! is needed when a colour rule (one with colour letters, run while colouring is on) decided
//! an edge: the colouring deducer itself only switches the colour store on.

use crate::deduce::{Deducer, DeducerSet};
use crate::format::json::Grade;
use crate::solve::Report;

/// One step of the grade scale, from the easiest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GradeStep {
    /// The rules alone finish it.
    Rules,
    /// The rules and loop closure.
    LoopClosure,
    /// Inside/outside colouring was needed.
    Colouring,
    /// Connectivity was needed.
    Connectivity,
    /// Regions (each side of the loop stays joined) were needed.
    Regions,
    /// Region parity was needed.
    Parity,
    /// Probing (one-step trial) was needed.
    Probing,
    /// Search (trial past probing) was needed.
    Search,
}

impl GradeStep {
    /// Every step, easiest first.
    pub const ALL: [GradeStep; 8] = [
        GradeStep::Rules,
        GradeStep::LoopClosure,
        GradeStep::Colouring,
        GradeStep::Connectivity,
        GradeStep::Regions,
        GradeStep::Parity,
        GradeStep::Probing,
        GradeStep::Search,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GradeStep::Rules => "rules",
            GradeStep::LoopClosure => "loop-closure",
            GradeStep::Colouring => "colouring",
            GradeStep::Connectivity => "connectivity",
            GradeStep::Regions => "regions",
            GradeStep::Parity => "parity",
            GradeStep::Probing => "probing",
            GradeStep::Search => "search",
        }
    }

    /// The step named `name`.
    pub fn from_name(name: &str) -> Option<GradeStep> {
        GradeStep::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The deducer of the step (none for the rules).
    fn deducer(self) -> Option<Deducer> {
        match self {
            GradeStep::Rules => None,
            GradeStep::LoopClosure => Some(Deducer::LoopClosure),
            GradeStep::Colouring => Some(Deducer::Colouring),
            GradeStep::Connectivity => Some(Deducer::Connectivity),
            GradeStep::Regions => Some(Deducer::Regions),
            GradeStep::Parity => Some(Deducer::Parity),
            GradeStep::Probing => Some(Deducer::Probing),
            GradeStep::Search => Some(Deducer::Search),
        }
    }

    /// The step of a grade: the last step whose deducer was needed.
    pub fn of_grade(grade: &Grade) -> GradeStep {
        GradeStep::ALL
            .into_iter()
            .rev()
            .find(|s| s.deducer().is_none_or(|d| grade.needed[d]))
            .unwrap_or(GradeStep::Rules)
    }

    /// The step of a solve's report.
    pub fn of(report: &Report) -> GradeStep {
        GradeStep::of_grade(&Grade::of(report))
    }

    /// The deducers of this step and the easier ones: a solver with only these finishes
    /// every puzzle of this step or easier that the full solver finishes.
    pub fn deducers(self) -> DeducerSet {
        GradeStep::ALL
            .into_iter()
            .filter(|&s| s <= self)
            .filter_map(GradeStep::deducer)
            .fold(DeducerSet::NONE, DeducerSet::with)
            // Loop closure runs with the rules at their fixpoints: it is always on.
            .with(Deducer::LoopClosure)
    }
}

impl std::fmt::Display for GradeStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order() {
        for s in GradeStep::ALL {
            assert_eq!(GradeStep::from_name(s.name()), Some(s));
        }
        assert_eq!(GradeStep::from_name("trial"), None);
        assert!(GradeStep::Colouring < GradeStep::Probing);
        assert!(GradeStep::Colouring.deducers().contains(Deducer::Colouring));
        assert!(!GradeStep::Colouring.deducers().contains(Deducer::Probing));
        assert!(GradeStep::Search.deducers().contains(Deducer::Search));
        assert!(GradeStep::Connectivity < GradeStep::Parity);
        assert!(GradeStep::Parity < GradeStep::Probing);
    }
}
