//! Search benchmarks (issue 25): generated puzzles with a random share of their clues blanked
//! (most have several solutions), one group per size class: `search/50x50`, `search/100x100`,
//! `search/200x200`. Each case is `SHAPE-BLANKED%-SEED` (blob: compactness 0.9, maze: 0.05),
//! and one iteration solves that one puzzle to a verdict (unique, several or none) with the
//! default deducers. The puzzles are made at setup with fixed seeds, blanked by the same
//! rule as `benches/blank.py` (its LCG here: the blanked cells differ from the script's, the
//! seeds and shares are the same).
//!
//! `cargo bench --bench search`; `cargo bench --bench search -- 50x50` for one size. Minimal
//! puzzle generation (issue 26) is timed by `benches/gen.rs`.

mod common;

use common::{generated_shaped, stream};
use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use slink::RuleBook;
use slink::rules::RuleSet;
use slink::{Outcome, Solver};
use slink::{Puzzle, parse_all};
use std::hint::black_box;
use std::time::Duration;

/// The puzzle with `share` of its clues blanked, cells drawn by a seeded LCG.
fn blanked(puzzle: &Puzzle, share: f64, seed: u64) -> Puzzle {
    let text = String::from_utf8(stream(std::slice::from_ref(puzzle))).expect("utf-8");
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let rows = puzzle.rows;
    for line in lines.iter_mut().skip(1).take(rows) {
        let cells: Vec<&str> = line
            .split_whitespace()
            .map(|w| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                if ((state >> 33) as f64) < share * (1u64 << 31) as f64 {
                    "."
                } else {
                    w
                }
            })
            .collect();
        *line = cells.join(" ");
    }
    let text = format!("{}\n", lines.join("\n"));
    parse_all("blanked", text.as_bytes())
        .expect("a blanked puzzle parses")
        .remove(0)
}

fn bench(c: &mut Criterion) {
    let mut solver = Solver::new(RuleBook::new(RuleSet::builtin()));
    for n in [50, 100, 200] {
        let mut group = c.benchmark_group(format!("search/{n}x{n}"));
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(if n >= 200 { 60 } else { 10 }));
        for (shape, compactness) in [("blob", 0.9), ("maze", 0.05)] {
            for seed in [1u64, 2] {
                let full = generated_shaped(n, n, 1, seed, 0.5, compactness).remove(0);
                for share in [0.3, 0.5, 0.7] {
                    let puzzle = blanked(&full, share, seed);
                    let name = format!("{shape}-{}-{seed}", (share * 100.0) as u32);
                    group.bench_function(name, |b| {
                        b.iter(|| {
                            let (board, outcome) = solver.solve(black_box(&puzzle));
                            assert!(
                                !matches!(outcome, Outcome::Limit { .. }),
                                "{n}x{n} {shape} {share} {seed}: {outcome:?}"
                            );
                            solver.recycle(board);
                        })
                    });
                }
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
