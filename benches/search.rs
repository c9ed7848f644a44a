//! Search benchmarks (issue 25): generated puzzles with a random share of their clues blanked
//! (most have several solutions), one group per size class: `search/50x50`, `search/100x100`,
//! `search/200x200`. Each case is `SHAPE-BLANKED%-SEED` (blob: compactness 0.9, maze: 0.05),
//! and one iteration solves that one puzzle to a verdict (unique, several or none) with the
//! default deducers. The puzzles are made at setup with fixed seeds, blanked by the same
//! rule as `benches/blank.py` (its LCG here: the blanked cells differ from the script's, the
//! seeds and shares are the same).
//!
//! Each case is first solved once with a time limit (`LIMIT`: 10 s up to 100x100, 20 s at
//! 200x200); a case with no verdict in that time is reported on standard error as
//! `search/NxN/CASE: limit (no verdict in T s), not measured` and left out, so every group
//! finishes in bounded time. The measured iterations run under the same limit. A filter on
//! the command line is matched as a substring of `search/NxN/CASE` before the trial, so the
//! cases it leaves out are not solved at all.
//!
//! `cargo bench --bench search`; `cargo bench --bench search -- 50x50` for one size. Minimal
//! puzzle generation (issue 26) is timed by `benches/gen.rs`.

mod common;

use common::{generated_shaped, stream};
use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use slink::RuleBook;
use slink::rules::RuleSet;
use slink::{Outcome, SolveOptions, Solver};
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

/// The time limit of one solve in the group of `n`x`n` grids (see the module notes).
fn limit(n: usize) -> Duration {
    Duration::from_secs(if n >= 200 { 20 } else { 10 })
}

/// Whether the case `id` is asked for: no filter on the command line, or one that `id`
/// holds (so the trials of the cases a filter leaves out do not run).
fn asked(id: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty() || filters.iter().any(|f| id.contains(f.as_str()))
}

fn bench(c: &mut Criterion) {
    for n in [50, 100, 200] {
        let options = SolveOptions {
            timeout: Some(limit(n)),
            ..SolveOptions::default()
        };
        let mut solver = Solver::with_options(RuleBook::new(RuleSet::builtin()), options);
        let mut group = c.benchmark_group(format!("search/{n}x{n}"));
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(10));
        for (shape, compactness) in [("blob", 0.9), ("maze", 0.05)] {
            for seed in [1u64, 2] {
                let full = generated_shaped(n, n, 1, seed, 0.5, compactness).remove(0);
                for share in [0.3, 0.5, 0.7] {
                    let puzzle = blanked(&full, share, seed);
                    let name = format!("{shape}-{}-{seed}", (share * 100.0) as u32);
                    if !asked(&format!("search/{n}x{n}/{name}")) {
                        continue;
                    }
                    // The trial: a case with no verdict within the limit is not measured.
                    let (board, outcome) = solver.solve(&puzzle);
                    solver.recycle(board);
                    if matches!(outcome, Outcome::Limit { .. }) {
                        eprintln!(
                            "search/{n}x{n}/{name}: limit (no verdict in {} s), not measured",
                            limit(n).as_secs()
                        );
                        continue;
                    }
                    group.bench_function(name, |b| {
                        b.iter(|| {
                            let (board, outcome) = solver.solve(black_box(&puzzle));
                            black_box(&outcome);
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
