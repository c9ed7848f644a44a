//! Minimal generated puzzles (issue 26): group `gen/minimal`, one case per size (`20x20`,
//! `30x30`). One iteration makes one `slink gen --rows N --cols N --blanks --minimal --seed S`
//! puzzle on one thread, the seeds going round 1 to 8 (the seeds of the speed table in
//! docs/usage.md), so the median is that of the same eight puzzles whatever the iteration
//! count. `cargo bench --bench gen`; `cargo bench --bench gen -- 30x30` for one size.

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use slink::{GenOptions, Generator};
use std::hint::black_box;
use std::time::Duration;

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
                let mut options = GenOptions::new(n, n).with_blanks(true);
                options.minimal = true;
                options.seed = seed;
                let mut generator = Generator::builtin(options).expect("valid options");
                black_box(generator.next_puzzle().expect("a puzzle"))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, gen_minimal);
criterion_main!(benches);
