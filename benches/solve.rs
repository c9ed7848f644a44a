//! Solving benchmarks with the default (built-in) rules.
//!
//! - `solve/…`: `Solver::solve` alone on parsed puzzles. `10x10` and `20x20` solve a batch of
//!   100 distinct generated puzzles per iteration and `corpus` the whole real corpus (the one
//!   the tests use), each with throughput in puzzles (elements) per second; `100x100`,
//!   `300x300` and `1000x1000` solve one generated puzzle, all of one shape (fill and
//!   compactness), with throughput in cells per second.
//! - `e2e/…`: what `slink solve` does, minus stdout: parse the text stream from bytes, solve,
//!   render every answer into a `Vec<u8>`. Besides the batches and the 1000x1000 of
//!   `solve/…`, `1000x1000-blob` and `1000x1000-maze` are the two extremes of shape (a
//!   compact blob with large areas of zeros, a maze-like loop with few).
//! - `cli/…`: the command line itself, in-process (`slink::cli::run`, everything the binary
//!   does but starting the process): a stream of 2,000 20x20 puzzles with `--jobs 1` and
//!   `--jobs 2` (reader, solver threads and in-order writer), and the corpus with the
//!   defaults.
//! - `complete/…`: the real Slitherlink corpus (the Slink corpus with its blanks), end to
//!   end with search (`slitherlink`), and solved by deduction alone (`deduction`: rules,
//!   loop closure, colouring and probing, as `slink --no-search`).
//!
//! Every solver here is that of a plain `slink` run: the built-in set without the rules
//! probing stands in for (`use probing instead of level 4`: the rules learned from probes),
//! which come on only where probing is stuck.
//!
//! Puzzles are generated at setup (not measured) with fixed seeds, by `slink::generate`'s
//! `Generator`, so the rules finish every one of them. The solver is reused across iterations,
//! as the CLI reuses it across a stream: its matchers for a grid width are built once.

mod common;

use common::{Corpus, cells, corpus, generated, generated_shaped, solve_stream, stream};
use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
    measurement::WallTime,
};
use slink::Puzzle;
use slink::RuleBook;
use slink::rules::RuleSet;
use slink::{Deducer, DeducerSet};
use slink::{LateRules, Outcome, SolveOptions, Solver};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Puzzles per iteration of the small-grid batches.
const BATCH: usize = 100;

/// The one shape of the large-grid puzzles (the middles of the generator's default ranges),
/// so that their times per cell compare across sizes: with random shapes, one 1000x1000
/// puzzle takes from 0.37 to 0.60 us per cell depending on its compactness alone.
const LARGE_FILL: f64 = 0.5;
const LARGE_COMPACTNESS: f64 = 0.35;
/// Growth compactness of the 1000x1000 blob of `e2e/1000x1000-blob`.
const BLOB_COMPACTNESS: f64 = 0.9;
/// Growth compactness of the 1000x1000 maze of `e2e/1000x1000-maze`.
const MAZE_COMPACTNESS: f64 = 0.05;

/// The solver of a plain `slink` run: the built-in set without the rules probing stands in
/// for, which come on only where probing is stuck (`use probing instead of level 4`).
fn solver() -> Solver {
    plain_solver(SolveOptions::default())
}

fn plain_solver(options: SolveOptions) -> Solver {
    let book = RuleBook::new(RuleSet::builtin_to_solve_with_probing());
    Solver::with_probing_instead(book, options, LateRules::Builtin)
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    eprintln!("setup: {what} in {:.2?}", start.elapsed());
    value
}

/// Asserts the rules finish every puzzle (the benchmarks must measure finished solves).
fn assert_all_solved(solver: &mut Solver, puzzles: &[Puzzle], what: &str) {
    for (i, p) in puzzles.iter().enumerate() {
        let outcome = solver.solve(p).1;
        assert_eq!(outcome, Outcome::Solved, "{what}: puzzle {i}");
    }
}

/// How long one iteration of a benchmark takes, roughly.
enum Size {
    /// Up to ~20 ms: 100 samples in 4 s.
    Fast,
    /// ~100 ms (the whole corpus): 50 samples in 6 s.
    Batch,
    /// Up to ~1 s (300x300, 1000x1000): 10 samples of equal iteration counts in 8 s.
    Huge,
}

/// Sets the sampling of the next benchmarks of the group.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, size: Size) {
    let (samples, seconds, mode) = match size {
        Size::Fast => (100, 4, SamplingMode::Auto),
        Size::Batch => (50, 6, SamplingMode::Auto),
        Size::Huge => (10, 8, SamplingMode::Flat),
    };
    group
        .sample_size(samples)
        .measurement_time(Duration::from_secs(seconds))
        .sampling_mode(mode);
}

fn bench_batch(group: &mut BenchmarkGroup<'_, WallTime>, id: &str, puzzles: &[Puzzle]) {
    let mut solver = solver();
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function(id, |b| {
        b.iter(|| {
            for p in puzzles {
                black_box(solver.solve(black_box(p)));
            }
        })
    });
}

fn bench_one(group: &mut BenchmarkGroup<'_, WallTime>, id: &str, puzzle: &Puzzle) {
    let mut solver = solver();
    group.throughput(Throughput::Elements((puzzle.rows * puzzle.cols) as u64));
    group.bench_function(id, |b| b.iter(|| solver.solve(black_box(puzzle))));
}

fn bench_e2e(group: &mut BenchmarkGroup<'_, WallTime>, id: &str, input: &[u8], elements: u64) {
    let mut solver = solver();
    let mut out = Vec::new();
    let unsolved = solve_stream(&mut solver, input, &mut out);
    assert_eq!(unsolved, 0, "e2e/{id}: every puzzle is solved");
    eprintln!(
        "e2e/{id}: {} input bytes, {} output bytes",
        input.len(),
        out.len()
    );
    group.throughput(Throughput::Elements(elements));
    group.bench_function(id, |b| {
        b.iter(|| {
            out.clear();
            solve_stream(&mut solver, black_box(input), &mut out);
            black_box(out.len())
        })
    });
}

fn solve(c: &mut Criterion) {
    let small = timed("generated 100 10x10 puzzles", || {
        generated(10, 10, BATCH, 10)
    });
    let contest = timed("generated 100 20x20 puzzles", || {
        generated(20, 20, BATCH, 20)
    });
    let big: Vec<(usize, Puzzle)> = [100, 300, 1000]
        .into_iter()
        .map(|n| {
            let p = timed(&format!("generated one {n}x{n} puzzle"), || {
                generated_shaped(n, n, 1, n as u64, LARGE_FILL, LARGE_COMPACTNESS).remove(0)
            });
            (n, p)
        })
        .collect();
    let real: Option<Corpus> = corpus();

    let mut check = solver();
    assert_all_solved(&mut check, &small, "10x10");
    assert_all_solved(&mut check, &contest, "20x20");
    for (n, p) in &big {
        assert_all_solved(&mut check, std::slice::from_ref(p), &format!("{n}x{n}"));
    }
    if let Some(real) = &real {
        let solved = common::count_solved(&mut check, &real.puzzles);
        eprintln!(
            "corpus {}: {} puzzles, {} cells; default rules solve {solved}",
            real.path.display(),
            real.puzzles.len(),
            real.cells()
        );
    }

    let mut group = c.benchmark_group("solve");
    group.warm_up_time(Duration::from_secs(1));
    configure(&mut group, Size::Fast);
    bench_batch(&mut group, "10x10", &small);
    bench_batch(&mut group, "20x20", &contest);
    if let Some(real) = &real {
        configure(&mut group, Size::Batch);
        bench_batch(&mut group, "corpus", &real.puzzles);
    }
    for (n, p) in &big {
        configure(&mut group, if *n >= 300 { Size::Huge } else { Size::Fast });
        bench_one(&mut group, &format!("{n}x{n}"), p);
    }
    group.finish();

    let mut group = c.benchmark_group("e2e");
    group.warm_up_time(Duration::from_secs(1));
    configure(&mut group, Size::Fast);
    bench_e2e(&mut group, "20x20", &stream(&contest), contest.len() as u64);
    if let Some(real) = &real {
        configure(&mut group, Size::Batch);
        bench_e2e(&mut group, "corpus", &real.bytes, real.puzzles.len() as u64);
    }
    let (_, huge) = big.last().expect("the 1000x1000 puzzle");
    let huge = std::slice::from_ref(huge);
    configure(&mut group, Size::Huge);
    bench_e2e(&mut group, "1000x1000", &stream(huge), cells(huge));
    // The two extremes of shape the speed goals name: a compact blob (large areas of zeros)
    // and a maze-like loop through the whole grid (few zeros).
    for (name, compactness) in [("blob", BLOB_COMPACTNESS), ("maze", MAZE_COMPACTNESS)] {
        let p = timed(&format!("generated one 1000x1000 {name}"), || {
            generated_shaped(1000, 1000, 1, 1000, LARGE_FILL, compactness)
        });
        assert_all_solved(&mut check, &p, &format!("1000x1000 {name}"));
        bench_e2e(
            &mut group,
            &format!("1000x1000-{name}"),
            &stream(&p),
            cells(&p),
        );
    }
    group.finish();
}

fn complete(c: &mut Criterion) {
    let Some(real) = common::slitherlink_corpus() else {
        return;
    };
    let mut group = c.benchmark_group("complete");
    group.warm_up_time(Duration::from_secs(1));
    configure(&mut group, Size::Huge);
    bench_e2e(
        &mut group,
        "slitherlink",
        &real.bytes,
        real.puzzles.len() as u64,
    );
    let options = SolveOptions {
        switches: DeducerSet::ALL.without(Deducer::Search),
        ..SolveOptions::default()
    };
    let mut deducer = plain_solver(options);
    let solved = common::count_solved(&mut deducer, &real.puzzles);
    eprintln!(
        "complete/deduction: {solved} of {} solved without search",
        real.puzzles.len()
    );
    group.throughput(Throughput::Elements(real.puzzles.len() as u64));
    group.bench_function("deduction", |b| {
        b.iter(|| {
            for p in &real.puzzles {
                black_box(deducer.solve(black_box(p)));
            }
        })
    });
    group.finish();
}

/// `slink ARGS` in-process on `input`; returns the bytes written.
fn run_cli(args: &[&str], input: &[u8], out: &mut Vec<u8>) -> usize {
    let argv: Vec<std::ffi::OsString> = std::iter::once("slink")
        .chain(args.iter().copied())
        .map(Into::into)
        .collect();
    out.clear();
    let mut err = Vec::new();
    let status = slink::cli::run(argv, &mut &input[..], out, &mut err);
    assert_eq!(status, 0, "{}", String::from_utf8_lossy(&err));
    out.len()
}

fn cli(c: &mut Criterion) {
    let contest = timed("generated 2000 20x20 puzzles", || {
        generated(20, 20, 2000, 21)
    });
    let input = stream(&contest);
    let mut out = Vec::new();
    let mut group = c.benchmark_group("cli");
    group.warm_up_time(Duration::from_secs(1));
    configure(&mut group, Size::Batch);
    group.throughput(Throughput::Elements(contest.len() as u64));
    for jobs in ["1", "2"] {
        let args = ["--jobs", jobs];
        assert!(run_cli(&args, &input, &mut out) > 0);
        group.bench_function(format!("20x20/jobs-{jobs}"), |b| {
            b.iter(|| run_cli(&args, black_box(&input), &mut out))
        });
    }
    if let Some(real) = corpus() {
        group.throughput(Throughput::Elements(real.puzzles.len() as u64));
        group.bench_function("corpus/default", |b| {
            b.iter(|| run_cli(&[], black_box(&real.bytes), &mut out))
        });
        group.bench_function("corpus/jobs-1", |b| {
            b.iter(|| run_cli(&["--jobs", "1"], black_box(&real.bytes), &mut out))
        });
    }
    group.finish();
}

criterion_group!(benches, solve, cli, complete);
criterion_main!(benches);
