//! Cost of constraint relaxation (`relax::relax`, `relax::sweep`) on one
//! typical puzzle (the first NYT "Medium" of `website-nyt/nyt.tsv`) and one
//! easy one (the first NYT "Easy"), both read at run time from
//! `../shared/data` or `$SUDOLAB_DATA` ([`sudolab::data_dir`]).
//!
//! Measured: k = 45, 1000 samples, cap 1000 with no engine cross-check and
//! with the default 30 verified samples; exact counts (cap 0) at k = 45; a
//! sweep over k = 0, 5, …, 60 with 1000 samples per k; k = 120 (cap 1000)
//! to show that heavily relaxed instances finish; and exact counts at k = 60
//! and 90 (few samples, 10⁴–10⁹ solutions each). Throughput is in samples,
//! so criterion reports samples/s. Relaxation runs its samples on the rayon
//! pool: run once as is and once with `RAYON_NUM_THREADS=1` for one core.
//! `SUDOLAB_BENCH_CLOCK=cpu` measures process CPU time instead of wall-clock
//! time (see `common`). Figures and commands are in `docs/performance.md`.

mod common;

use common::Clock;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use sudolab::Puzzle;
use sudolab::read_puzzles;
use sudolab::{Engine, RelaxedInstance, derive_seed};
use sudolab::{RelaxOptions, Verification};

const NYT_FILE: &str = "website-nyt/nyt.tsv";
const SAMPLES: usize = 1000;

/// The first puzzle of `nyt.tsv` whose level column is `level`.
fn nyt(level: &str) -> Puzzle {
    first_of(NYT_FILE, |p| {
        p.label.as_deref().and_then(|l| l.split('\t').next()) == Some(level)
    })
}

/// The first puzzle of a shared-data file whose line passes `keep`.
fn first_of(rel: &str, keep: impl Fn(&Puzzle) -> bool) -> Puzzle {
    let path = common::data_dir().join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read benchmark data {}: {e}", path.display()));
    read_puzzles(&text)
        .into_iter()
        .filter_map(Result::ok)
        .map(|(_, p)| p)
        .find(|p| keep(p))
        .unwrap_or_else(|| panic!("no matching puzzle in {rel}"))
}

fn puzzles() -> [(&'static str, Puzzle); 2] {
    [("nyt-medium", nyt("Medium")), ("nyt-easy", nyt("Easy"))]
}

fn opts(k: usize, cap: u64, verify: usize) -> RelaxOptions {
    RelaxOptions {
        k,
        samples: SAMPLES,
        cap,
        verify,
        verify_by: Verification::Resolve,
        ..RelaxOptions::default()
    }
}

fn run(puzzle: &Puzzle, o: &RelaxOptions) -> f64 {
    sudolab::relax(black_box(puzzle), o)
        .unwrap_or_else(|e| panic!("relax failed: {e}"))
        .0
        .summary
        .mean_solutions
}

fn k45(c: &mut Criterion<Clock>) {
    let mut g = c.benchmark_group("relax-k45");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(SAMPLES as u64));
    for (name, p) in puzzles() {
        for (label, o) in [
            ("cap1000-verify0", opts(45, 1000, 0)),
            ("cap1000-verify30", opts(45, 1000, 30)),
            ("exact-verify0", opts(45, 0, 0)),
        ] {
            g.bench_with_input(BenchmarkId::new(label, name), &p, |b, p| {
                b.iter(|| run(p, &o))
            });
        }
    }
    g.finish();
}

/// The harder puzzles of the relaxation targets: the first "Expert" of
/// `qqwing-generated/qqwing_levels.tsv` and the first puzzle of
/// `tdoku-forum-hardest-1106.txt` (k = 45, cap 1000, no cross-check).
fn k45_hard(c: &mut Criterion<Clock>) {
    let mut g = c.benchmark_group("relax-k45-hard");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(SAMPLES as u64));
    let expert = first_of("qqwing-generated/qqwing_levels.tsv", |p| {
        p.label.as_deref().and_then(|l| l.split('\t').next()) == Some("Expert")
    });
    let hardest = first_of("tdoku-benchmarks/tdoku-forum-hardest-1106.txt", |_| true);
    let o = opts(45, 1000, 0);
    for (name, p) in [("qqwing-expert", expert), ("forum-hardest", hardest)] {
        g.bench_with_input(BenchmarkId::new("cap1000-verify0", name), &p, |b, p| {
            b.iter(|| run(p, &o))
        });
    }
    g.finish();
}

fn sweep(c: &mut Criterion<Clock>) {
    let ks: Vec<usize> = (0..=60).step_by(5).collect();
    let mut g = c.benchmark_group("relax-sweep");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1))
        .throughput(Throughput::Elements((SAMPLES * ks.len()) as u64));
    for (name, p) in puzzles() {
        let o = opts(0, 1000, RelaxOptions::default().verify);
        g.bench_with_input(
            BenchmarkId::new("0:60:5-cap1000-verify30", name),
            &p,
            |b, p| {
                b.iter(|| {
                    sudolab::sweep(black_box(p), &ks, &o)
                        .unwrap_or_else(|e| panic!("sweep failed: {e}"))
                        .points
                        .len()
                })
            },
        );
    }
    g.finish();
}

/// Heavily relaxed instances, where the fixed-cell filtering search does
/// most of the work (one nyt-medium sample once took minutes there).
fn k120(c: &mut Criterion<Clock>) {
    let mut g = c.benchmark_group("relax-k120");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(SAMPLES as u64));
    for (name, p) in puzzles() {
        let o = opts(120, 1000, 0);
        g.bench_with_input(BenchmarkId::new("cap1000-verify0", name), &p, |b, p| {
            b.iter(|| run(p, &o))
        });
    }
    g.finish();
}

/// Exact counts (cap 0) at high k on nyt-medium, the Ganak comparison of
/// `docs/performance.md` (`benches/peers/ganak_count.py`): 20 samples at
/// k = 60 (≈ 5·10⁴ solutions each), 2 at k = 90 (≈ 10⁸).
fn exact(c: &mut Criterion<Clock>) {
    let mut g = c.benchmark_group("relax-exact");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1));
    let p = nyt("Medium");
    for (k, samples) in [(60, 20), (90, 2)] {
        let o = RelaxOptions {
            samples,
            ..opts(k, 0, 0)
        };
        g.throughput(Throughput::Elements(samples as u64));
        g.bench_with_input(
            BenchmarkId::new(format!("k{k}-verify0"), "nyt-medium"),
            &p,
            |b, p| b.iter(|| run(p, &o)),
        );
    }
    g.finish();
}

/// Where the k = 45 time goes: the same 1000 relaxed instances of one puzzle,
/// built up front and analyzed on the calling thread, by count only (cap
/// 1000) and by count + fixed cells with the bitset engine (`bitset-…`,
/// named `dlx-…` before though they ran the bitset search) and with SAT.
fn split(c: &mut Criterion<Clock>) {
    let mut g = c.benchmark_group("relax-split-k45");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(SAMPLES as u64));
    for (name, p) in puzzles() {
        let seeds: Vec<u64> = (0..SAMPLES as u64)
            .map(|i| derive_seed(RelaxOptions::default().seed, i))
            .collect();
        g.bench_with_input(BenchmarkId::new("build", name), &p, |b, p| {
            b.iter(|| {
                seeds
                    .iter()
                    .map(|&s| instance(p, s).edges().len())
                    .sum::<usize>()
            })
        });
        let instances: Vec<RelaxedInstance> = seeds.iter().map(|&s| instance(&p, s)).collect();
        g.bench_with_input(
            BenchmarkId::new("bitset-analyze-cap1000", name),
            &instances,
            |b, rs| {
                b.iter(|| {
                    rs.iter()
                        .map(|r| {
                            Engine::Bitset
                                .implementation()
                                .analyze_relaxed(r, 1000)
                                .fixed
                                .len()
                        })
                        .sum::<usize>()
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("sat-analyze-cap1000", name),
            &instances,
            |b, rs| {
                b.iter(|| {
                    rs.iter()
                        .map(|r| {
                            Engine::Sat
                                .implementation()
                                .analyze_relaxed(r, 1000)
                                .fixed
                                .len()
                        })
                        .sum::<usize>()
                })
            },
        );
    }
    g.finish();
}

/// The relaxed instance of sample seed `seed` at k = 45, as `relax` draws it.
fn instance(p: &Puzzle, seed: u64) -> RelaxedInstance {
    let mut removed = RelaxedInstance::shuffled_edges(p.order(), seed);
    removed.truncate(45);
    RelaxedInstance::new(p, &removed).unwrap_or_else(|e| panic!("bad sample: {e}"))
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = split, k45, k45_hard, sweep, k120, exact
}
criterion_main!(benches);
