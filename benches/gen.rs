//! Minimal generated puzzles (issue 26), two groups, one case per size (`20x20`, `30x30`):
//!
//! - `gen/minimal`: one iteration makes one `slink gen --rows N --cols N --blanks --minimal
//!   --seed S` puzzle on one thread, the seeds going round 1 to 8 (the seeds of the speed
//!   table in docs/usage.md), so the median is that of the same eight puzzles whatever the
//!   iteration count;
//! - `gen/minimal-batch`: what `slink gen ... --count 8` costs per puzzle, made in parallel
//!   over the jobs as the command does (one thread per core, each taking the next puzzle
//!   index; `--jobs` defaults to every core). One sample is a batch of 8 puzzles (indices 0-7
//!   of seed S, S going round 1 to 4); the time reported is the batch's wall time divided by
//!   8, the average time per puzzle a setter waits for.
//!
//! `cargo bench --bench gen`; `cargo bench --bench gen -- 30x30` for one size.

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use slink::{GenOptions, Generator, Puzzle};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Puzzles per batch in `gen/minimal-batch`.
const BATCH: u64 = 8;

/// The options of `slink gen --rows n --cols n --blanks --minimal --seed seed`.
fn minimal_options(n: usize, seed: u64) -> GenOptions {
    let mut options = GenOptions::new(n, n).with_blanks(true);
    options.minimal = true;
    options.seed = seed;
    options
}

fn gen_minimal(c: &mut Criterion) {
    let mut group = c.benchmark_group("gen/minimal");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(16);
    group.warm_up_time(Duration::from_millis(500));
    for n in [20usize, 30] {
        group.measurement_time(Duration::from_secs(if n >= 30 { 40 } else { 6 }));
        let mut seed = 0u64;
        group.bench_function(format!("{n}x{n}"), |b| {
            b.iter(|| {
                seed = seed % 8 + 1;
                let mut generator =
                    Generator::builtin(minimal_options(n, seed)).expect("valid options");
                black_box(generator.next_puzzle().expect("a puzzle"))
            })
        });
    }
    group.finish();
}

/// Puzzles 0 to `BATCH - 1` of `seed` on `jobs` threads, each taking the next index, as
/// `slink gen --count 8 --jobs J` makes them.
fn batch(n: usize, seed: u64, jobs: usize) -> Vec<Puzzle> {
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let next = &next;
                scope.spawn(move || {
                    let mut generator =
                        Generator::builtin(minimal_options(n, seed)).expect("valid options");
                    let mut made = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= BATCH {
                            return made;
                        }
                        made.push(generator.puzzle_at(i).expect("a puzzle").puzzle);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("no generator panics"))
            .collect()
    })
}

fn gen_minimal_batch(c: &mut Criterion) {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("gen/minimal-batch");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    for n in [20usize, 30] {
        group.measurement_time(Duration::from_secs(if n >= 30 { 100 } else { 20 }));
        let mut seed = 0u64;
        group.bench_function(format!("{n}x{n}"), |b| {
            b.iter_custom(|iters| {
                let mut per_puzzle = Duration::ZERO;
                for _ in 0..iters {
                    seed = seed % 4 + 1;
                    let start = Instant::now();
                    let made = black_box(batch(n, seed, jobs));
                    assert_eq!(made.len() as u64, BATCH);
                    per_puzzle += start.elapsed() / BATCH as u32;
                }
                per_puzzle
            })
        });
    }
    group.finish();
}

criterion_group!(benches, gen_minimal, gen_minimal_batch);
criterion_main!(benches);
