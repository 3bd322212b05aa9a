//! Chang, Fan & Sun's pseudo-generator (hsolve paper, abstract and §4.2 as
//! the table of contents names it): new puzzles of about the difficulty of a
//! given hard one, made by modifying it.
//!
//! Our copy of the paper ends in §3.3, so the details are ours. A mutant is
//! the source after one to three local changes that keep its solution
//! unique (remove, add or move a given: [`super::aim::mutate`]). It is
//! kept when its hsolve difficulty (§3.2, the mean of 20 runs) is within a
//! relative tolerance of the source's — or the value of another metric
//! (`PseudoOptions::metric`, any numeric field a target may name: hsolve
//! cannot rate puzzles its techniques do not finish, such as the forum's
//! hardest) — when it meets every target, and when
//! it is not equivalent, under [`crate::grid::canon`], to the source or to a mutant
//! kept before. With `GenerateOptions::minimal` a mutant is first reduced to
//! a minimal puzzle ([`super::minimal::minimize`]). Attempts run in fixed
//! batches in parallel and are judged in attempt order, so the output does
//! not depend on the number of threads.

use super::aim::{Evaluator, mutate};
use super::{Candidate, GenerateError, GenerateOptions, Generated, Symmetry};
use crate::bitset::sudoku::{Solver, solve};
use crate::engine::Disagreement;
use crate::graph::derive_seed;
use crate::grid::Puzzle;
use crate::metrics::MetricValue;
use crate::seed::SeededRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::collections::HashSet;
use std::time::Instant;

/// Attempts judged together; fixed so results do not depend on threads.
const BATCH: usize = 32;

/// The source after one to three uniqueness-keeping changes.
pub(crate) fn mutant(source: &Candidate, opts: &GenerateOptions, seed: u64) -> Option<Candidate> {
    let mut rng = SeededRng::seed_from_u64(seed);
    let mut solver = Solver::new(source.puzzle.order());
    let local = GenerateOptions {
        symmetry: Symmetry::None,
        ..opts.clone()
    };
    let steps = rng.gen_range(1..=3);
    let mut current = source.clone();
    for _ in 0..steps {
        current =
            (0..20).find_map(|_| mutate(&current, &local, &mut solver, &mut rng, None, false))?;
    }
    Some(current)
}

/// The source puzzle with its solution, checked.
fn source_of(opts: &GenerateOptions) -> Result<Candidate, GenerateError> {
    let puzzle = opts.pseudo.source.clone().ok_or(GenerateError::NoSource)?;
    let bad = |why: &str| GenerateError::Source(format!("{}: {why}", puzzle.to_line()));
    if puzzle.order() > 3 {
        return Err(bad(
            "the pseudo-generator needs order 2 or 3 (canonical form)",
        ));
    }
    match crate::bitset::sudoku::count(&puzzle, 2).solutions {
        0 => return Err(bad("contradictory: it has no solution")),
        1 => {}
        _ => return Err(bad("not unique: it has more than one solution")),
    }
    let solution = solve(&puzzle).ok_or_else(|| bad("no solution"))?;
    Ok(Candidate { puzzle, solution })
}

/// Up to `opts.run.count` mutants of `opts.pseudo.source` (fewer when
/// `opts.run.max_tries` or the time limit runs out first).
pub(crate) fn pseudo(
    opts: &GenerateOptions,
    ev: &Evaluator,
    deadline: Option<Instant>,
) -> Result<Vec<Generated>, GenerateError> {
    let start = Instant::now();
    let source = source_of(opts)?;
    let form = |p: &Puzzle| p.canonical().map(|c| c.to_line());
    let source_form = form(&source.puzzle).map_err(|e| GenerateError::Source(e.to_string()))?;
    let metric = opts.pseudo.metric;
    let (row, metrics, _) = ev.evaluate(&source.puzzle)?;
    let h0 = metrics
        .get(metric)
        .and_then(MetricValue::as_f64)
        .ok_or_else(|| {
            // The reason the metric's model gave (status keys are model names,
            // which begin the names of their metrics).
            let why = row
                .as_ref()
                .and_then(|r| {
                    let status = &r.ratings.status();
                    status
                        .iter()
                        .find(|(model, _)| metric.name().starts_with(model.as_str()))
                        .or_else(|| status.iter().next())
                        .map(|(_, why)| why.clone())
                })
                .unwrap_or_else(|| "no value".to_string());
            GenerateError::Source(format!(
                "{}: {metric} cannot rate it ({why}); choose another --metric",
                source.puzzle.to_line()
            ))
        })?;
    let mut seen: HashSet<String> = HashSet::from([source_form]);
    let mut out = Vec::new();
    let mut attempt = 0;
    while out.len() < opts.run.count
        && attempt < opts.run.max_tries
        && deadline.is_none_or(|d| Instant::now() < d)
    {
        let end = (attempt + BATCH).min(opts.run.max_tries);
        let judged: Vec<_> = (attempt..end)
            .into_par_iter()
            .map(|a| {
                let seed = derive_seed(opts.run.seed, a as u64);
                let Some(mut m) = mutant(&source, opts, seed) else {
                    return Ok(None);
                };
                if opts.minimal && !super::minimal::is_minimal(&m.puzzle, &m.solution) {
                    m = super::minimal::minimize(&m, &mut SeededRng::seed_from_u64(seed));
                }
                let Ok(f) = form(&m.puzzle) else {
                    return Ok(None);
                };
                let (_, metrics, distance) = ev.evaluate(&m.puzzle)?;
                let h = metrics.get(metric).and_then(MetricValue::as_f64);
                Ok(h.map(|h| (a, m, f, h, metrics, distance)))
            })
            .collect::<Result<_, Disagreement>>()?;
        for (a, m, f, h, mut metrics, distance) in judged.into_iter().flatten() {
            let close = (h - h0).abs() <= opts.pseudo.tolerance * h0.abs();
            if out.len() == opts.run.count || !close || distance > 0.0 || seen.contains(&f) {
                continue;
            }
            seen.insert(f);
            metrics.source = Some((metric, h0));
            out.push(Generated {
                puzzle: m.puzzle.to_line(),
                method: opts.method,
                seed: opts.run.seed,
                index: out.len(),
                givens: m.puzzle.givens(),
                minimal: super::minimal::is_minimal(&m.puzzle, &m.solution),
                symmetry: Symmetry::None,
                attempts: a + 1,
                millis: start.elapsed().as_secs_f64() * 1e3,
                reached: true,
                distance,
                acceptance: None,
                method_level: None,
                method_score: Some(h),
                metrics,
            });
        }
        attempt = end;
    }
    Ok(out)
}
