//! Throughput of the generators: minimal unique puzzles by removal (4×4,
//! 9×9, 16×16, and 9×9 with rot180 symmetry), Fletcher et al.'s Algorithm 2
//! (Dancing Links, without the oracle score) and Xu & Xu's phases a–b, one
//! thread, the canonical form, and targeted puzzles (`weights_level=Hard`,
//! `oracle_level=Challenging`: the whole search per puzzle, one thread).
//!
//! Each iteration makes a batch of puzzles from consecutive seeds and
//! declares `Throughput::Elements(batch)`, so criterion reports puzzles/s.
//! `SUDOLAB_BENCH_CLOCK=cpu` measures process CPU time (see `common`).
//! Figures and commands are in `docs/generation.md`.

mod common;

use common::Clock;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use sudolab::{
    AimOptions, FletcherOptions, GenerateOptions, Method, RunOptions, Symmetry, Target,
    generate as generate_targets,
};

fn configure<'a>(c: &'a mut Criterion<Clock>, name: &str) -> criterion::BenchmarkGroup<'a, Clock> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g
}

fn generate(c: &mut Criterion<Clock>) {
    let mut g = configure(c, "generate");
    for (name, order, symmetry, batch) in [
        ("minimal/9x9", 3, Symmetry::None, 1000u64),
        ("minimal/9x9-rot180", 3, Symmetry::Rot180, 1000),
        ("minimal/4x4", 2, Symmetry::None, 1000),
        ("minimal/16x16", 4, Symmetry::None, 10),
    ] {
        g.throughput(Throughput::Elements(batch));
        g.bench_function(name, |b| {
            let mut seed = 0u64;
            b.iter(|| {
                let mut givens = 0;
                for _ in 0..batch {
                    seed += 1;
                    let opts = GenerateOptions {
                        order,
                        symmetry,
                        ..GenerateOptions::default()
                    };
                    givens += opts.make_one(seed).0.puzzle.givens();
                }
                black_box(givens)
            })
        });
    }
    let fletcher = GenerateOptions {
        method: Method::Fletcher,
        fletcher: FletcherOptions { completions: 100 },
        ..GenerateOptions::default()
    };
    let xu = GenerateOptions {
        method: Method::Xu,
        ..GenerateOptions::default()
    };
    g.throughput(Throughput::Elements(50));
    g.bench_function("fletcher/9x9", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            (0..50)
                .map(|_| {
                    seed += 1;
                    fletcher.make_one(seed).0.puzzle.givens()
                })
                .sum::<usize>()
        })
    });
    g.throughput(Throughput::Elements(5));
    g.bench_function("xu/9x9", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            (0..5)
                .map(|_| {
                    seed += 1;
                    xu.make_one(seed).0.puzzle.givens()
                })
                .sum::<usize>()
        })
    });
    let puzzles: Vec<_> = (0..20u64)
        .map(|s| GenerateOptions::default().make_one(s).0.puzzle)
        .collect();
    g.throughput(Throughput::Elements(puzzles.len() as u64));
    g.bench_function("canon/9x9", |b| {
        b.iter(|| {
            puzzles
                .iter()
                .map(|p| black_box(p).canonical().map(|c| c.givens()).unwrap_or(0))
                .sum::<usize>()
        })
    });
    // Targeted generation on one thread: hits per second, each a fresh run
    // of the search (consecutive run seeds, so every iteration differs).
    for (name, target, batch) in [
        ("target/weights-hard", "weights_level=Hard", 20u64),
        ("target/oracle-challenging", "oracle_level=Challenging", 4),
    ] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a one-thread pool");
        g.throughput(Throughput::Elements(batch));
        g.bench_function(name, |b| {
            let mut seed = 0u64;
            b.iter(|| {
                seed += 1;
                let opts = GenerateOptions {
                    run: RunOptions {
                        count: batch as usize,
                        seed,
                        ..RunOptions::default()
                    },
                    aim: AimOptions {
                        targets: Target::parse_all(&[target]).expect("a valid target"),
                        ..AimOptions::default()
                    },
                    ..GenerateOptions::default()
                };
                let rows = pool
                    .install(|| generate_targets(&opts))
                    .expect("valid options");
                black_box(rows.iter().filter(|r| r.reached).count())
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = generate
}
criterion_main!(benches);
