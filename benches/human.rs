//! Speed of the human models: every model with its default run count on one
//! typical puzzle (QQWing "Intermediate": needs pairs or intersections), plus
//! each model alone (the two costly solvers, annealing and harmony search,
//! through `rate` with only that model) and a singles-only puzzle; the trial
//! depth also on a top1465 puzzle that needs nested assumptions.
//!
//! `cargo bench --bench human`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use sudolab::paper::trial_depth;
use sudolab::paper::weights;
use sudolab::paper::{HsolveOptions, hsolve};
use sudolab::paper::{NishioOptions, nishio_heuristic, nishio_random};
use sudolab::paper::{OracleOptions, oracle};
use sudolab::paper::{SisusOptions, sisus};
use sudolab::paper::{Solved, solve};
use sudolab::parse_puzzle;
use sudolab::{Model, RateOptions, explain, rate};

const TYPICAL: &str =
    "..5..........9........1.53.....3..7..68......3..85.1.2.....36.9..958..2.23.16....";
/// top1465, SE 9.6: nested assumptions (trial depth 2).
const NESTED: &str =
    "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........";
const SINGLES: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn bench(c: &mut Criterion) {
    let typical = parse_puzzle(TYPICAL).expect("bench puzzle parses");
    let singles = parse_puzzle(SINGLES).expect("bench puzzle parses");
    let Solved::Unique(sol) = solve(&typical) else {
        panic!("bench puzzle must be unique")
    };
    let opts = RateOptions::default();
    c.bench_function("rate_all_default_typical", |b| {
        b.iter(|| rate(black_box(&typical), &opts))
    });
    c.bench_function("rate_all_default_singles", |b| {
        b.iter(|| rate(black_box(&singles), &opts))
    });
    c.bench_function("sisus_30", |b| {
        b.iter(|| sisus(black_box(&typical), &sol, &SisusOptions::default(), 0))
    });
    c.bench_function("oracle_100", |b| {
        b.iter(|| oracle(black_box(&typical), &sol, &OracleOptions::default(), 0))
    });
    c.bench_function("hsolve_20", |b| {
        b.iter(|| hsolve(black_box(&typical), &HsolveOptions::default(), 0))
    });
    c.bench_function("nishio4_50", |b| {
        b.iter(|| nishio_random(black_box(&typical), 4, &NishioOptions::default(), 0))
    });
    c.bench_function("nishio4_heuristic", |b| {
        b.iter(|| nishio_heuristic(black_box(&typical), 4, &NishioOptions::default()))
    });
    c.bench_function("weights", |b| b.iter(|| weights(black_box(&typical))));
    c.bench_function("explain", |b| b.iter(|| explain(black_box(&typical))));
    c.bench_function("trial_depth", |b| {
        b.iter(|| trial_depth(black_box(&typical)))
    });
    let nested = parse_puzzle(NESTED).expect("bench puzzle parses");
    c.bench_function("trial_depth_nested", |b| {
        b.iter(|| trial_depth(black_box(&nested)))
    });
    for (name, model) in [
        ("annealing_5", Model::Annealing),
        ("harmony_5", Model::Harmony),
    ] {
        let only = RateOptions {
            models: [model].into_iter().collect(),
            ..RateOptions::default()
        };
        c.bench_function(name, |b| b.iter(|| rate(black_box(&typical), &only)));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
