//! Speed of the human models: every model with its default run count on one
//! typical puzzle (QQWing "Intermediate": needs pairs or intersections) and on
//! a singles-only puzzle, then each model alone through `rate` with only that
//! model (beside `rate` with none, its fixed cost: solving the puzzle); the
//! trial depth also on a top1465 puzzle that needs nested assumptions.
//!
//! `cargo bench --bench human`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use sudolab::{Explanation, Model, RateOptions, parse_puzzle, rate};

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
    let opts = RateOptions::default();
    c.bench_function("rate_all_default_typical", |b| {
        b.iter(|| rate(black_box(&typical), &opts))
    });
    c.bench_function("rate_all_default_singles", |b| {
        b.iter(|| rate(black_box(&singles), &opts))
    });
    // Each model alone with its default runs, through `rate`, which also
    // solves the puzzle once with the default engines: `rate_no_model` is
    // that fixed part.
    let only = |model: Model| RateOptions {
        models: [model].into(),
        ..RateOptions::default()
    };
    let none = RateOptions {
        models: Default::default(),
        ..RateOptions::default()
    };
    c.bench_function("rate_no_model", |b| {
        b.iter(|| rate(black_box(&typical), &none))
    });
    for (name, model) in [
        ("sisus_30", Model::Sisus),
        ("oracle_100", Model::Oracle),
        ("hsolve_20", Model::Hsolve),
        ("nishio_50", Model::Nishio),
        ("weights", Model::Weights),
        ("trial_depth", Model::Trial),
        ("annealing_5", Model::Annealing),
        ("harmony_5", Model::Harmony),
    ] {
        let opts = only(model);
        c.bench_function(name, |b| b.iter(|| rate(black_box(&typical), &opts)));
    }
    c.bench_function("explain", |b| {
        b.iter(|| Explanation::of(black_box(&typical)))
    });
    let nested = parse_puzzle(NESTED).expect("bench puzzle parses");
    let trial = only(Model::Trial);
    c.bench_function("trial_depth_nested", |b| {
        b.iter(|| rate(black_box(&nested), &trial))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
