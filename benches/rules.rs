//! Rule loading benchmarks: each stage of turning the built-in rule files into matchers, and
//! all of them together ("load and compile the default rule set", target under 5 ms).
//!
//! Stages: `parse` (grammar), `check` (meaning checks and unique names, on parsed files),
//! `expand` (the 8 symmetries), `compile` (`RuleBook::new`, which expands again, plus
//! `stages` (the matchers of every level) for a 20x20 board), `matchers` (the stages alone) and `load_and_compile`
//! (`RuleSet::from_sources` + `RuleBook::new` + `stages`). Stages lay out their levels past the
//! first when first asked for: these benches ask for every level.
//!
//! `load_to_solve` is what `slink` pays before its first puzzle: the built-in set without
//! its examples (`RuleSet::builtin_to_solve`), the book, and the first level's matchers.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use slink::Board;
use slink::Puzzle;
use slink::RuleBook;
use slink::rules::Stages;
use slink::rules::expand_all;
use slink::rules::{BUILTIN_RULES, RuleSet, check_file, check_unique_names, parse_file};
use std::hint::black_box;
use std::time::Duration;

/// The board stride the matchers are laid out for: a 20x20 (contest size) puzzle's.
fn stride_20x20(book: &RuleBook) -> usize {
    let puzzle = Puzzle {
        rows: 20,
        cols: 20,
        clues: vec![Some(2); 400],
    };
    Board::new(&puzzle, book.margin, Default::default()).stride()
}

/// Lays out every level of the stages (past the first, they are laid out when asked for).
fn every_level(stages: Stages) -> Stages {
    for stage in stages.iter() {
        black_box(stage);
    }
    stages
}

fn rules(c: &mut Criterion) {
    let files: Vec<_> = BUILTIN_RULES
        .iter()
        .map(|(name, text)| {
            let (file, errors) = parse_file(name, text);
            assert!(errors.is_empty(), "{name}: {errors:?}");
            file
        })
        .collect();
    let set = RuleSet::from_sources(BUILTIN_RULES).expect("the built-in rules load");
    let book = RuleBook::new(set.clone());
    let stride = stride_20x20(&book);
    eprintln!(
        "built-in rules: {} files, {} rules, {} variants, matchers for stride {stride}",
        BUILTIN_RULES.len(),
        set.rules.len(),
        book.variants.len()
    );

    let mut group = c.benchmark_group("rules");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));

    group.bench_function("parse", |b| {
        b.iter(|| {
            for (name, text) in BUILTIN_RULES {
                black_box(parse_file(black_box(name), black_box(text)));
            }
        })
    });
    group.bench_function("check", |b| {
        b.iter(|| {
            let mut all = Vec::new();
            for file in &files {
                let (rules, deducers, errors) = check_file(black_box(file));
                black_box((&deducers, &errors));
                all.extend(rules);
            }
            black_box(check_unique_names(&all));
            all
        })
    });
    group.bench_function("expand", |b| b.iter(|| expand_all(black_box(&set.rules))));
    group.bench_function("compile", |b| {
        b.iter_batched(
            || set.clone(),
            |set| {
                let book = RuleBook::new(set);
                let stages = every_level(book.stages(black_box(stride), true));
                (book, stages)
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("matchers", |b| {
        b.iter(|| every_level(book.stages(black_box(stride), true)))
    });
    group.bench_function("load_and_compile", |b| {
        b.iter(|| {
            let set = RuleSet::from_sources(black_box(BUILTIN_RULES)).expect("loads");
            let book = RuleBook::new(set);
            let stages = every_level(book.stages(black_box(stride), true));
            (book, stages)
        })
    });
    group.bench_function("load_to_solve", |b| {
        b.iter(|| {
            let book = RuleBook::new(RuleSet::builtin_to_solve());
            let stages = book.stages(black_box(stride), true);
            (book, stages)
        })
    });
    group.finish();
}

criterion_group!(benches, rules);
criterion_main!(benches);
