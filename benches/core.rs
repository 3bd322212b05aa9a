//! Throughput of the core operations on an easy and a hard puzzle set:
//! parsing, CNF encoding (with and without DIMACS writing), SAT solve and
//! uniqueness (varisat, one fresh solver per puzzle, minimal encoding) and
//! Dancing Links solve and uniqueness.
//!
//! Every benchmark processes a whole set per iteration and declares
//! `Throughput::Elements(puzzles)`, so criterion reports puzzles/s. The sets
//! are read at run time from `../shared/data` or `$SUDOLAB_DATA`
//! ([`sudolab::data_dir`]; see its `PROVENANCE.md`):
//! easy = the first 1000 puzzles of Royle's 17-clue list, hard = magictour
//! top1465. `SUDOLAB_BENCH_CLOCK=cpu` measures process CPU time instead of wall-clock
//! time (see `common`). Figures and commands are in `docs/performance.md`.

mod common;

use common::Clock;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use sudolab::Encoding;
use sudolab::{Engine, Puzzle};
use sudolab::{parse_puzzle, read_puzzles};

const EASY_FILE: &str = "tdoku-benchmarks/tdoku-17clue.txt";
const HARD_FILE: &str = "tdoku-benchmarks/tdoku-magictour-top1465.txt";
const EASY_COUNT: usize = 1000;

fn data_path(rel: &str) -> PathBuf {
    common::data_dir().join(rel)
}

fn read_text(rel: &str) -> String {
    let path = data_path(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read benchmark data {}: {e}", path.display()))
}

fn load(rel: &str, limit: usize) -> Vec<Puzzle> {
    let puzzles: Vec<Puzzle> = read_puzzles(&read_text(rel))
        .into_iter()
        .filter_map(Result::ok)
        .map(|(_, p)| p)
        .take(limit)
        .collect();
    assert!(!puzzles.is_empty(), "no puzzles in {rel}");
    puzzles
}

fn sets() -> [(&'static str, Vec<Puzzle>); 2] {
    [
        ("17clue-1000", load(EASY_FILE, EASY_COUNT)),
        ("top1465", load(HARD_FILE, usize::MAX)),
    ]
}

fn configure<'a>(c: &'a mut Criterion<Clock>, name: &str) -> criterion::BenchmarkGroup<'a, Clock> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g
}

fn parse(c: &mut Criterion<Clock>) {
    let text = read_text(HARD_FILE);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let mut g = configure(c, "parse");
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.bench_function("read_puzzles/top1465", |b| {
        b.iter(|| read_puzzles(black_box(&text)).len())
    });
    g.bench_function("parse_puzzle/top1465", |b| {
        b.iter(|| {
            lines
                .iter()
                .filter(|l| parse_puzzle(black_box(l)).is_ok())
                .count()
        })
    });
    g.finish();
}

fn encode(c: &mut Criterion<Clock>) {
    let mut g = configure(c, "encode");
    for (name, puzzles) in sets() {
        g.throughput(Throughput::Elements(puzzles.len() as u64));
        for encoding in [Encoding::Min, Encoding::Max] {
            g.bench_with_input(
                BenchmarkId::new(encoding.name(), name),
                &puzzles,
                |b, ps| {
                    b.iter(|| {
                        ps.iter()
                            .map(|p| {
                                sudolab::encode(black_box(p), encoding)
                                    .map_or(0, |c| c.num_clauses())
                            })
                            .sum::<usize>()
                    })
                },
            );
            g.bench_with_input(
                BenchmarkId::new(format!("{}+dimacs", encoding.name()), name),
                &puzzles,
                |b, ps| {
                    b.iter(|| {
                        ps.iter()
                            .map(|p| {
                                sudolab::encode(black_box(p), encoding)
                                    .map_or(0, |c| c.to_dimacs_bytes().len())
                            })
                            .sum::<usize>()
                    })
                },
            );
            // One stream for the whole set, as `encode` writes it.
            let mut stream = Vec::new();
            g.bench_with_input(
                BenchmarkId::new(format!("{}+dimacs-stream", encoding.name()), name),
                &puzzles,
                |b, ps| {
                    b.iter(|| {
                        stream.clear();
                        for p in ps {
                            let _ =
                                sudolab::Cnf::append_dimacs(black_box(p), encoding, &mut stream);
                        }
                        stream.len()
                    })
                },
            );
        }
    }
    g.finish();
}

fn sat(c: &mut Criterion<Clock>) {
    let mut g = configure(c, "sat");
    g.measurement_time(Duration::from_secs(8));
    for (name, puzzles) in sets() {
        g.throughput(Throughput::Elements(puzzles.len() as u64));
        g.bench_with_input(BenchmarkId::new("solve-min", name), &puzzles, |b, ps| {
            b.iter(|| {
                ps.iter()
                    .filter(|p| Engine::Sat.implementation().solve(black_box(p)).is_some())
                    .count()
            })
        });
        g.bench_with_input(BenchmarkId::new("count-cap2", name), &puzzles, |b, ps| {
            b.iter(|| {
                ps.iter()
                    .map(|p| {
                        Engine::Sat
                            .implementation()
                            .count(black_box(p), 2)
                            .solutions
                    })
                    .sum::<u64>()
            })
        });
    }
    g.finish();
}

fn bitset(c: &mut Criterion<Clock>) {
    let mut g = configure(c, "bitset");
    for (name, puzzles) in sets() {
        g.throughput(Throughput::Elements(puzzles.len() as u64));
        g.bench_with_input(BenchmarkId::new("solve", name), &puzzles, |b, ps| {
            b.iter(|| {
                ps.iter()
                    .filter(|p| {
                        Engine::Bitset
                            .implementation()
                            .solve(black_box(p))
                            .is_some()
                    })
                    .count()
            })
        });
        g.bench_with_input(BenchmarkId::new("count-cap2", name), &puzzles, |b, ps| {
            b.iter(|| {
                ps.iter()
                    .map(|p| {
                        Engine::Bitset
                            .implementation()
                            .count(black_box(p), 2)
                            .solutions
                    })
                    .sum::<u64>()
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = parse, encode, sat, bitset
}
criterion_main!(benches);
