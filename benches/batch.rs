//! The per-row cost of the batch driver ([`sudolab::Driver`]): rows per
//! second through an empty job, so what the driver itself costs a row
//! (windows, ordering, hand-overs between threads, the sink) shows apart
//! from any solver. Every command that reads a data set runs through it;
//! `check` on easy puzzles spends a few microseconds a puzzle in the
//! solver, so a driver that costs one more a row is a regression there.
//!
//! Measured over 14,650 puzzles (magictour top1465 ten times, read from
//! `../shared/data` or `$SUDOLAB_DATA` and parsed before timing):
//! `empty/threads-N`, the rows handed to a sink that drops them, and
//! `jsonl/threads-N`, each window's rows serialised as JSON Lines into a
//! buffer kept from window to window ([`sudolab::RowStream::write_rows`],
//! the bytes `check -f jsonl` writes), on one thread (every puzzle on the
//! calling thread) and on two (worker threads handing rows over in
//! batches); `streamed/threads-2` adds rows handed on as they finish
//! (`Driver::rows_as_they_finish`, as `analyze` streams). Throughput is in
//! rows, so criterion reports rows/s. `SUDOLAB_BENCH_CLOCK=cpu` measures
//! process CPU time instead of wall-clock time (see `common`). Figures and
//! commands are in `docs/performance.md`.

mod common;

use common::Clock;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use criterion::{criterion_group, criterion_main};
use std::time::Duration;
use sudolab::{Driver, Format, Input, Puzzle, RowStream, Source, read_puzzles};

const HARD_FILE: &str = "tdoku-benchmarks/tdoku-magictour-top1465.txt";
const COPIES: usize = 10;

/// top1465 `COPIES` times, numbered as the lines of one file.
fn puzzles() -> Vec<(usize, Puzzle)> {
    let path = common::data_dir().join(HARD_FILE);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read benchmark data {}: {e}", path.display()));
    let one: Vec<Puzzle> = read_puzzles(&text)
        .into_iter()
        .filter_map(Result::ok)
        .map(|(_, p)| p)
        .collect();
    assert!(!one.is_empty(), "no puzzles in {HARD_FILE}");
    (0..COPIES)
        .flat_map(|_| one.iter().cloned())
        .enumerate()
        .map(|(i, p)| (i + 1, p))
        .collect()
}

/// Runs the empty job over `all` and returns the rows the sink saw; with
/// `jsonl`, each window's rows are serialised into one kept buffer.
fn run(driver: Driver<'_>, all: Vec<(usize, Puzzle)>, jsonl: bool) -> usize {
    let mut stream = RowStream::new(Format::Jsonl);
    let mut buf = Vec::new();
    let mut seen = 0;
    driver
        .run(
            Input::of(Source::Parsed(all)),
            |line, p| Ok((line, p.givens())),
            |rows| {
                seen += rows.len();
                if jsonl {
                    buf.clear();
                    stream.write_rows(&rows, &mut buf)?;
                }
                Ok(())
            },
        )
        .expect("an empty job refuses nothing");
    seen
}

fn batch(c: &mut Criterion<Clock>) {
    let all = puzzles();
    let mut g = c.benchmark_group("batch");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(all.len() as u64));
    let cases: [(&str, usize, bool, bool); 5] = [
        ("empty", 1, false, false),
        ("empty", 2, false, false),
        ("jsonl", 1, true, false),
        ("jsonl", 2, true, false),
        ("streamed", 2, true, true),
    ];
    for (name, threads, jsonl, streamed) in cases {
        let id = BenchmarkId::new(name, format!("threads-{threads}"));
        g.bench_function(id, |b| {
            b.iter_batched(
                || all.clone(),
                |all| {
                    let driver = Driver::new().threads(threads);
                    let driver = if streamed {
                        driver.rows_as_they_finish()
                    } else {
                        driver
                    };
                    run(driver, all, jsonl)
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = batch
}
criterion_main!(benches);
