//! The same puzzles under other rule sets, side by side in one group `rulesets`:
//!
//! - `default`: the built-in rules;
//! - `no-loop-closure`: the built-in rules without the loop-closure deducer;
//! - `minimal`: only the counting and dot rules (`rules/counting.rules`, `rules/dots.rules`).
//!
//! Each is run on the real corpus (the one the tests use) and on 100 generated 20x20 puzzles
//! (which the default rules finish). The weaker sets get stuck on some puzzles: that still
//! measures the time to their fixpoint. How many each set solves is printed once at setup.
//! Throughput is in puzzles (elements) per second.

mod common;

use common::{corpus, count_solved, generated};
use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use slink::Deducer;
use slink::Puzzle;
use slink::RuleBook;
use slink::Solver;
use slink::rules::{BUILTIN_RULES, RuleSet};
use std::hint::black_box;
use std::time::Duration;

/// The rule sets compared, by name.
fn rule_sets() -> Vec<(&'static str, RuleSet)> {
    let default = RuleSet::builtin();
    let mut no_closure = default.clone();
    no_closure.deducers.retain(|&d| d != Deducer::LoopClosure);
    let minimal_sources: Vec<(&str, &str)> = BUILTIN_RULES
        .iter()
        .copied()
        .filter(|(name, _)| name.ends_with("/counting.rules") || name.ends_with("/dots.rules"))
        .collect();
    assert_eq!(
        minimal_sources.len(),
        2,
        "counting.rules and dots.rules are built in"
    );
    let minimal = RuleSet::from_sources(&minimal_sources).expect("the minimal set loads");
    assert!(!minimal.uses(Deducer::LoopClosure));
    vec![
        ("default", default),
        ("no-loop-closure", no_closure),
        ("minimal", minimal),
    ]
}

fn rulesets(c: &mut Criterion) {
    let mut corpora: Vec<(&str, Vec<Puzzle>)> = Vec::new();
    if let Some(real) = corpus() {
        corpora.push(("corpus", real.puzzles));
    }
    corpora.push(("20x20", generated(20, 20, 100, 20)));
    let sets = rule_sets();

    for (set_name, set) in &sets {
        let mut solver = Solver::new(RuleBook::new(set.clone()));
        let counts: Vec<String> = corpora
            .iter()
            .map(|(name, puzzles)| {
                let solved = count_solved(&mut solver, puzzles);
                format!("{name} {solved}/{}", puzzles.len())
            })
            .collect();
        eprintln!(
            "rule set {set_name} ({} rules, deducers {:?}) solves: {}",
            set.rules.len(),
            set.deducers,
            counts.join(", ")
        );
    }

    let mut group = c.benchmark_group("rulesets");
    // An iteration takes ~5-100 ms: 50 samples of equal iteration counts fit in 6 s.
    group
        .warm_up_time(Duration::from_secs(1))
        .sample_size(50)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(6));
    for (corpus_name, puzzles) in &corpora {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        for (set_name, set) in &sets {
            let mut solver = Solver::new(RuleBook::new(set.clone()));
            group.bench_function(BenchmarkId::new(*corpus_name, set_name), |b| {
                b.iter(|| {
                    for p in puzzles {
                        black_box(solver.solve(black_box(p)));
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, rulesets);
criterion_main!(benches);
