//! Dancing Links benchmarks: Sudoku uniqueness checks on the tdoku benchmark
//! sets and relaxed-instance analysis on qqwing puzzles.
//!
//! Data are read at run time from `../shared/data` relative to the crate
//! (override with `SUDOLAB_DATA`; [`sudolab::data_dir`]). Run with `cargo bench --bench dlx`;
//! throughput is reported in puzzles (or instances) per second.
//!
//! On a loaded machine wall-clock time says little about the code: with
//! `SUDOLAB_BENCH_CLOCK=cpu` the benchmarks measure the CPU time of the
//! benchmark thread instead (Linux, from `/proc/thread-self/schedstat`).

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use sudolab::Puzzle;
use sudolab::parse_puzzle;
use sudolab::{Engine, RelaxedInstance, derive_seed};

/// Wall-clock time, or the CPU time of the running thread.
enum Clock {
    Wall,
    ThreadCpu,
}

/// Nanoseconds the current thread has run on a CPU.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

impl Measurement for Clock {
    type Intermediate = (std::time::Instant, u64);
    type Value = f64;

    fn start(&self) -> Self::Intermediate {
        (std::time::Instant::now(), thread_cpu_ns())
    }
    fn end(&self, (t, cpu): Self::Intermediate) -> f64 {
        match self {
            Clock::Wall => t.elapsed().as_nanos() as f64,
            Clock::ThreadCpu => thread_cpu_ns().saturating_sub(cpu) as f64,
        }
    }
    fn add(&self, a: &f64, b: &f64) -> f64 {
        a + b
    }
    fn zero(&self) -> f64 {
        0.0
    }
    fn to_f64(&self, v: &f64) -> f64 {
        *v
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WallTime.formatter()
    }
}

fn clock() -> Clock {
    match std::env::var("SUDOLAB_BENCH_CLOCK").as_deref() {
        Ok("cpu") if thread_cpu_ns() > 0 => Clock::ThreadCpu,
        _ => Clock::Wall,
    }
}

/// The shared data folder: `$SUDOLAB_DATA` when set, else `../shared/data`
/// beside the crate's `Cargo.toml`.
fn data_dir() -> std::path::PathBuf {
    std::env::var_os("SUDOLAB_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
        })
}

/// Puzzles of a data file (first field of each non-comment line), every
/// `step`-th one.
fn load(rel: &str, step: usize) -> Vec<Puzzle> {
    let path = data_dir().join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(step)
        .filter_map(|l| parse_puzzle(l.split('\t').next().unwrap_or("")).ok())
        .collect()
}

fn sudoku_uniqueness(c: &mut Criterion<Clock>) {
    let sets = [
        (
            "magictour-top1465",
            load("tdoku-benchmarks/tdoku-magictour-top1465.txt", 1),
        ),
        (
            "17clue-every5th",
            load("tdoku-benchmarks/tdoku-17clue.txt", 5),
        ),
    ];
    let mut group = c.benchmark_group("sudoku_unique");
    group.sample_size(10);
    for (name, puzzles) in &sets {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(format!("bitset/{name}"), |b| {
            b.iter(|| {
                let mut unique = 0;
                for p in puzzles {
                    unique += usize::from(
                        Engine::Bitset
                            .implementation()
                            .count(black_box(p), 2)
                            .solutions
                            == 1,
                    );
                }
                assert_eq!(unique, puzzles.len());
            })
        });
        group.bench_function(format!("dlx/{name}"), |b| {
            let dlx = Engine::Dlx.implementation();
            b.iter(|| {
                let mut unique = 0;
                for p in puzzles {
                    unique += usize::from(dlx.count(black_box(p), 2).solutions == 1);
                }
                assert_eq!(unique, puzzles.len());
            })
        });
    }
    group.finish();
}

/// Relaxed instances of qqwing puzzles (all levels) at `k` random edges.
fn relaxed_instances(count: usize, k: usize) -> Vec<RelaxedInstance> {
    let puzzles = load("qqwing-generated/qqwing_levels.tsv", 1);
    let step = (puzzles.len() / count).max(1);
    puzzles
        .iter()
        .step_by(step)
        .take(count)
        .enumerate()
        .filter_map(|(i, p)| {
            let edges = RelaxedInstance::sample_edges(3, k, derive_seed(2024, i as u64)).ok()?;
            RelaxedInstance::new(p, &edges).ok()
        })
        .collect()
}

fn relaxed_analyze(c: &mut Criterion<Clock>) {
    let instances = relaxed_instances(400, 45);
    let mut group = c.benchmark_group("relaxed_analyze_k45_cap1000");
    group.sample_size(10);
    group.throughput(Throughput::Elements(instances.len() as u64));
    group.bench_function("bitset", |b| {
        b.iter(|| {
            for r in &instances {
                black_box(
                    Engine::Bitset
                        .implementation()
                        .analyze_relaxed(black_box(r), 1000),
                );
            }
        })
    });
    let few = &instances[..40];
    group.throughput(Throughput::Elements(few.len() as u64));
    group.bench_function("dlx", |b| {
        b.iter(|| {
            for r in few {
                black_box(
                    Engine::Dlx
                        .implementation()
                        .analyze_relaxed(black_box(r), 1000),
                );
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(clock());
    targets = sudoku_uniqueness, relaxed_analyze
}
criterion_main!(benches);
