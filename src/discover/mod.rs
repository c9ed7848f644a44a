//! Rule discovery (`slink rules discover`): enumerate premises in a small window (or learn them from the short probes of a corpus), keep the proven-sound, minimal ones the current rules cannot derive, rank them on a corpus and write them as rule files.
//!
//! The stages, each in its own module:
//! 1. [`enumerate`]: every box up to the window, every clue placement and premise of a few
//!    lines and crosses; what each forces under the local laws ([`laws`], on a [`window`]);
//!    the minimal, canonical ones that force something are the candidates; or, with
//!    `--from-probes`, [`learn`]: the windows of the short probes that solving a corpus
//!    makes, minimised under the same laws;
//! 2. [`novelty`]: candidates the current rule set (rules and loop closure) derives from the
//!    premise alone are dropped;
//! 3. each survivor is given an example and a quiet board ([`rulefile`]);
//! 4. [`rank`]: with a corpus, a greedy choice of the best few by the edges and puzzles they
//!    add to deduction (search and probing off); [`matcher`] finds where a rule fires. Each
//!    rule is proved sound by [`crate::rules::prove::prove`], the checker behind `rules check`,
//!    before it is kept;
//! 5. [`rulefile`]: names, descriptions and pictures, written as one rule file.

pub mod colours;
pub mod enumerate;
pub mod laws;
pub mod learn;
pub mod matcher;
pub mod novelty;
pub mod progress;
pub mod rank;
pub mod rulefile;
pub mod window;

use crate::puzzle::Puzzle;
use crate::rules::prove::{Verdict, prove};
use crate::rules::{Rule, RuleSet};
use enumerate::Candidate;
use novelty::{Derived, Known};
use progress::Progress;
use rank::{Gain, Scorer};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What to discover and how to choose.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The window, alphabet, premise size and laws.
    pub enumerate: enumerate::Options,
    /// The level the written rules get.
    pub level: u32,
    /// The most rules to keep.
    pub keep: usize,
    /// With a corpus: pick this many more than `keep` greedily, then drop the weakest one at
    /// a time (see [`rank::prune`]).
    pub overshoot: usize,
    /// Whether the corpus is scored with colouring on.
    pub colouring: bool,
}

/// A rule found and kept.
#[derive(Clone, Debug)]
pub struct Found {
    /// The rule, named, with its example and quiet board.
    pub rule: Rule,
    /// The candidate it was made from.
    #[cfg_attr(not(test), allow(dead_code))] // the tests check it against the rule set
    pub candidate: Candidate,
    /// What it added on the corpus when it was picked.
    pub gain: Option<Gain>,
}

/// The corpus before and after the kept rules were added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorpusFigures {
    /// Puzzles in the corpus.
    pub puzzles: usize,
    /// Puzzles deduction finishes, with the rule set alone.
    pub solved_before: usize,
    /// Edges decided, with the rule set alone.
    pub decided_before: usize,
    /// Puzzles deduction finishes, with the kept rules added.
    pub solved_after: usize,
    /// Edges decided, with the kept rules added.
    pub decided_after: usize,
}

/// What a discovery run found, stage by stage.
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    /// Clue placements searched (over every box, up to symmetry).
    pub placements: usize,
    /// Minimal, canonical candidates that force something.
    pub candidates: usize,
    /// Of those, the ones the rule set derives already.
    pub known: usize,
    /// Of those, the ones whose premise the rule set finds contradictory, or that the proof
    /// finds no board for.
    pub impossible: usize,
    /// Candidates that `prove` did not find sound (a bug if ever nonzero).
    pub unsound: Vec<(Candidate, Verdict)>,
    /// Candidates without a working example board.
    pub without_examples: usize,
    /// New, sound candidates with examples (before ranking).
    pub new: usize,
    /// Corpus figures, when a corpus ranked them.
    pub corpus: Option<CorpusFigures>,
    /// The rules kept, best first with a corpus, else in enumeration order.
    pub rules: Vec<Found>,
    /// Whether the picks were pruned back (each rule's gain is then its weight in the kept
    /// set: what the set loses without it).
    pub pruned: bool,
    /// Seconds each stage took, in order.
    pub timings: Vec<(&'static str, f64)>,
}

/// Runs discovery against a rule set, ranking on `corpus` when one is given.
pub fn discover(
    set: &RuleSet,
    settings: &Settings,
    corpus: Option<Vec<Puzzle>>,
    progress: &Progress,
) -> Discovery {
    let mut report = Discovery::default();
    let mut clock = Instant::now();
    let mut lap = |report: &mut Discovery, name: &'static str| {
        report.timings.push((name, clock.elapsed().as_secs_f64()));
        clock = Instant::now();
    };
    let candidates = enumerate_stage(settings, progress, &mut report);
    lap(&mut report, "enumerate");
    let fresh = novelty_stage(set, candidates, progress, &mut report);
    lap(&mut report, "novelty");
    let pool = examples_stage(fresh, settings, progress, &mut report);
    lap(&mut report, "examples");
    let proofs = Proofs::default();
    let chosen = choose_stage(set, settings, corpus, &pool, &proofs, progress, &mut report);
    lap(&mut report, "prove and rank");
    name_rules(set, &pool, chosen, "", &mut report);
    report
}

/// Discovery from probes ([`learn`]): the candidates are harvested from the short probes
/// that solving `corpus` with probing on makes, then go through novelty, examples, proof
/// and ranking on the same corpus as enumerated ones do. The rules are named `probe-...`.
pub fn discover_from_probes(
    set: &RuleSet,
    settings: &Settings,
    options: learn::LearnOptions,
    corpus: Vec<Puzzle>,
    progress: &Progress,
) -> (Discovery, learn::Harvest) {
    let mut report = Discovery::default();
    let mut clock = Instant::now();
    let mut lap = |report: &mut Discovery, name: &'static str| {
        report.timings.push((name, clock.elapsed().as_secs_f64()));
        clock = Instant::now();
    };
    // Each round harvests with the rule set plus the picks of the rounds before (on the
    // candidates pooled so far), so that later rounds see the stuck boards those picks leave.
    let mut harvest = learn::Harvest::default();
    let mut current = set.clone();
    // The proofs of the rounds before: a candidate picked again is not proved again.
    let proofs = Proofs::default();
    for round in 0..options.rounds.max(1) {
        let stage = progress.stage("harvest", corpus.len());
        let found = learn::harvest(&current, &corpus, &options, &|| stage.tick());
        stage.done();
        harvest.absorb(found);
        if round + 1 == options.rounds.max(1) {
            break;
        }
        let mut scratch = Discovery::default();
        let candidates = harvest.candidates.iter().map(|(c, _)| c.clone()).collect();
        let fresh = novelty_stage(set, candidates, progress, &mut scratch);
        let pool = examples_stage(fresh, settings, progress, &mut scratch);
        let chosen = choose_stage(
            set,
            settings,
            Some(corpus.clone()),
            &pool,
            &proofs,
            progress,
            &mut scratch,
        );
        current = set.clone();
        for (k, (i, _)) in chosen.into_iter().enumerate() {
            let mut rule = pool[i].1.clone();
            rule.name = format!("probe-round-{round}-{k}");
            current.rules.push(rule);
        }
    }
    report.placements = harvest.short;
    report.candidates = harvest.candidates.len();
    lap(&mut report, "harvest");
    let candidates = harvest.candidates.iter().map(|(c, _)| c.clone()).collect();
    let fresh = novelty_stage(set, candidates, progress, &mut report);
    lap(&mut report, "novelty");
    let pool = examples_stage(fresh, settings, progress, &mut report);
    lap(&mut report, "examples");
    let chosen = choose_stage(
        set,
        settings,
        Some(corpus),
        &pool,
        &proofs,
        progress,
        &mut report,
    );
    lap(&mut report, "prove and rank");
    name_rules(set, &pool, chosen, "probe-", &mut report);
    (report, harvest)
}

/// Stage 1: the candidates of the window.
fn enumerate_stage(
    settings: &Settings,
    progress: &Progress,
    report: &mut Discovery,
) -> Vec<Candidate> {
    let jobs = enumerate::plan(&settings.enumerate);
    report.placements = jobs.iter().map(|j| j.placements.len()).sum();
    let stage = progress.stage("enumerate", report.placements);
    let candidates = if settings.enumerate.colours > 0 {
        colours::enumerate(&jobs, settings.enumerate.colours, &|| stage.tick())
    } else {
        enumerate::enumerate(&jobs, &|| stage.tick())
    };
    stage.done();
    report.candidates = candidates.len();
    candidates
}

/// Stage 2: the candidates the rule set does not derive (in part or at all) from their
/// premise alone.
fn novelty_stage(
    set: &RuleSet,
    candidates: Vec<Candidate>,
    progress: &Progress,
    report: &mut Discovery,
) -> Vec<Candidate> {
    let known = Known::new(set);
    let stage = progress.stage("novelty", candidates.len());
    let derived: Vec<Derived> = candidates
        .par_iter()
        .map(|c| {
            let d = known.derive(c);
            stage.tick();
            d
        })
        .collect();
    stage.done();
    report.known = derived.iter().filter(|&&d| d == Derived::All).count();
    report.impossible = derived
        .iter()
        .filter(|&&d| d == Derived::Contradiction)
        .count();
    candidates
        .into_iter()
        .zip(derived)
        .filter(|(_, d)| *d == Derived::Part)
        .map(|(c, _)| c)
        .collect()
}

/// Stage 3: each new candidate as a rule with an example and a quiet board; those without
/// are counted and dropped.
fn examples_stage(
    fresh: Vec<Candidate>,
    settings: &Settings,
    progress: &Progress,
    report: &mut Discovery,
) -> Vec<(Candidate, Rule)> {
    let stage = progress.stage("examples", fresh.len());
    let with_examples: Vec<Option<Rule>> = fresh
        .par_iter()
        .map(|c| {
            let mut rule = rulefile::bare_rule(c, "candidate", settings.level);
            let found = rulefile::examples(&rule, c).map(|(e, q)| {
                rule.examples = vec![e, q];
                rule
            });
            stage.tick();
            found
        })
        .collect();
    stage.done();
    let mut pool: Vec<(Candidate, Rule)> = Vec::new();
    for (c, rule) in fresh.into_iter().zip(with_examples) {
        match rule {
            Some(rule) => pool.push((c, rule)),
            None => report.without_examples += 1,
        }
    }
    report.new = pool.len();
    pool
}

/// The verdicts of the candidates proved so far.
type Proofs = Mutex<BTreeMap<Candidate, Verdict>>;

/// Stage 4: the rules of the pool to keep (by index), each proved sound first (or found in
/// `proofs`, where each new verdict goes); ranked on the corpus when there is one, else the
/// first sound ones.
fn choose_stage(
    set: &RuleSet,
    settings: &Settings,
    corpus: Option<Vec<Puzzle>>,
    pool: &[(Candidate, Rule)],
    proofs: &Proofs,
    progress: &Progress,
    report: &mut Discovery,
) -> Vec<(usize, Option<Gain>)> {
    // Each rule is proved sound before it is kept (the proof is the costly part: only the
    // rules about to be kept pay for it).
    // A premise no board of the rule's window matches (the local laws of the box could not
    // see that far) can never fire: it is dropped as impossible, not reported.
    let unsound = std::sync::Mutex::new(Vec::new());
    let never = AtomicUsize::new(0);
    let verdict = |i: usize| {
        let known = proofs
            .lock()
            .expect("no panic holding it")
            .get(&pool[i].0)
            .cloned();
        known.unwrap_or_else(|| {
            let v = prove(&pool[i].1);
            proofs
                .lock()
                .expect("no panic holding it")
                .insert(pool[i].0.clone(), v.clone());
            v
        })
    };
    let sound = |i: usize| match verdict(i) {
        Verdict::Sound { .. } => true,
        Verdict::NeverFires => {
            never.fetch_add(1, Ordering::Relaxed);
            false
        }
        verdict => {
            unsound
                .lock()
                .expect("no panic holding it")
                .push((pool[i].0.clone(), verdict));
            false
        }
    };
    let chosen = match corpus {
        Some(puzzles) => rank_on_corpus(set, settings, puzzles, pool, &sound, progress, report),
        None => (0..pool.len())
            .filter(|&i| sound(i))
            .take(settings.keep)
            .map(|i| (i, None))
            .collect(),
    };
    report.unsound = unsound.into_inner().expect("no panic holding it");
    report.impossible += never.into_inner();
    chosen
}

/// The greedy choice on a corpus, pruned back when overshooting, with the corpus figures
/// before and after.
fn rank_on_corpus(
    set: &RuleSet,
    settings: &Settings,
    puzzles: Vec<Puzzle>,
    pool: &[(Candidate, Rule)],
    sound: &dyn Fn(usize) -> bool,
    progress: &Progress,
    report: &mut Discovery,
) -> Vec<(usize, Option<Gain>)> {
    let stage = progress.stage("solve", 1);
    let mut scorer = Scorer::new(set.clone(), puzzles, settings.colouring);
    stage.done();
    let (solved_before, decided_before) = scorer.totals();
    let rules: Vec<Rule> = pool.iter().map(|(_, r)| r.clone()).collect();
    let stage = progress.stage("score", rules.len());
    let tick = |scored, picked| {
        stage.set(scored);
        stage.note(format!("{picked} picked"));
    };
    let want = settings.keep + settings.overshoot;
    // Rules with colour letters are scored by solving afresh (the plain matcher reads edges).
    let picks = if settings.enumerate.colours > 0 {
        rank::select_full(&mut scorer, &rules, want, sound, &tick)
    } else {
        rank::select(&mut scorer, &rules, want, sound, &tick)
    };
    stage.done();
    report.pruned = settings.overshoot > 0;
    let picks = if settings.overshoot > 0 && picks.len() > settings.keep {
        let stage = progress.stage("prune", picks.len() - settings.keep);
        let kept = rank::prune(&scorer, &rules, picks, settings.keep, &|dropped| {
            stage.set(dropped)
        });
        stage.done();
        kept
    } else {
        picks
    };
    // The figures after are those of the kept rules solving the corpus from scratch.
    let mut kept_set = scorer.set_without_picks();
    kept_set
        .rules
        .extend(picks.iter().map(|p| rules[p.candidate].clone()));
    let (solved_after, decided_after) = scorer.totals_with(kept_set);
    report.corpus = Some(CorpusFigures {
        puzzles: scorer.len(),
        solved_before,
        decided_before,
        solved_after,
        decided_after,
    });
    picks
        .into_iter()
        .map(|p| (p.candidate, Some(p.gain)))
        .collect()
}

/// Stage 5: the chosen rules named from their clues and box (numbered past the names the
/// rule set and the earlier picks took), into the report.
fn name_rules(
    set: &RuleSet,
    pool: &[(Candidate, Rule)],
    chosen: Vec<(usize, Option<Gain>)>,
    prefix: &str,
    report: &mut Discovery,
) {
    let mut taken: HashSet<String> = set.rules.iter().map(|r| r.name.clone()).collect();
    for (i, gain) in chosen {
        let (candidate, mut rule) = pool[i].clone();
        let base = format!("{prefix}{}", rulefile::base_name(&candidate));
        rule.name = (1..)
            .map(|k| format!("{base}-{k}"))
            .find(|n| !taken.contains(n))
            .expect("some number is free");
        taken.insert(rule.name.clone());
        report.rules.push(Found {
            rule,
            candidate,
            gain,
        });
    }
}

impl Discovery {
    /// The rule file of the rules kept, under a header of comment lines.
    pub fn file_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
        }
        for found in &self.rules {
            out.push('\n');
            let comment = match found.gain {
                Some(g) if self.pruned => format!(
                    "On the corpus, the kept rules decide {} fewer edges and finish {} fewer puzzles without it.",
                    g.edges, g.puzzles
                ),
                Some(g) => format!(
                    "Picked with {} more edges and {} more puzzles decided on the corpus.",
                    g.edges, g.puzzles
                ),
                None => String::new(),
            };
            out.push_str(&rulefile::rule_text(&found.rule, &comment));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::enumerate::{Options, Shape};
    use super::novelty::{Derived, Known};
    use super::progress::Progress;
    use super::{Settings, discover};
    use crate::rules::RuleSet;

    #[test]
    fn no_kept_candidate_is_derived_by_the_built_in_set() {
        let set = RuleSet::builtin();
        let settings = Settings {
            enumerate: Options {
                windows: vec![Shape {
                    rows: 1,
                    cols: 2,
                    max_facts: 2,
                }],
                alphabet: vec![Some(1), Some(2), Some(3), None],
                single_loop: true,
                colours: 0,
            },
            level: 3,
            keep: 1000,
            overshoot: 0,
            colouring: true,
        };
        let found = discover(&set, &settings, None, &Progress::hidden());
        assert!(found.known > 0, "some candidates are derived already");
        assert!(!found.rules.is_empty());
        assert!(found.unsound.is_empty());
        let known = Known::new(&set);
        for f in &found.rules {
            assert_eq!(
                known.derive(&f.candidate),
                Derived::Part,
                "{} is derived by the built-in set",
                f.rule.name
            );
        }
    }
}
