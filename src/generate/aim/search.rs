//! The search for a puzzle that meets the targets: generate-and-test, a
//! local search over mutants, and the walk back along a removal sequence
//! (the method is described in [`super`]).

use super::distance::{Need, need};
use super::evaluator::Evaluator;
use super::values::Values;
use crate::bitset::sudoku::Solver;
use crate::engine::Disagreement;
use crate::generate::minimal::{is_minimal, minimize};
use crate::generate::xu::techniques_solve;
use crate::generate::{Candidate, GenerateOptions, Method, Symmetry, make_traced};
use crate::graph::derive_seed;
use crate::grid::Puzzle;
use crate::human::RateRow;
use crate::seed::SeededRng;
use rand::Rng;
use rand::SeedableRng;
use std::time::Instant;

/// Solutions a move enumerates after removing a given, to find the empty
/// cells that rule out all of them.
const MOVE_SOLUTIONS: u64 = 16;

/// Distance of a candidate that is not minimal when minimal puzzles are
/// asked for and cannot be reduced to one (symmetric or Xu puzzles; it is
/// not rated).
pub(crate) const NOT_MINIMAL: f64 = 1000.0;

/// The outcome of a search for one puzzle.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The closest puzzle found, with its solution.
    pub candidate: Candidate,
    /// The method guarantees the candidate is minimal.
    pub minimal_known: bool,
    /// Its rating row (`None` when no model is needed).
    pub row: Option<RateRow>,
    /// The value of every target field, by field name.
    pub metrics: Values,
    /// Its distance to the targets (0 when all are met; see [`super::distance()`]).
    pub distance: f64,
    /// Attempts made: fresh puzzles plus mutations, the first included.
    pub attempts: usize,
    /// Local-search mutations tried.
    pub mutations: usize,
    /// Mutations accepted (closer or as close as the best so far).
    pub accepted: usize,
}

/// One rated candidate of the search.
struct Judged {
    candidate: Candidate,
    minimal_known: bool,
    row: Option<RateRow>,
    metrics: Values,
    distance: f64,
    /// The row is the full one (not cut by [`Evaluator::screen`]).
    exact: bool,
}

/// Rates `candidate` against the evaluator's targets. With `opts.minimal`,
/// a candidate that is not minimal is first reduced to a minimal one
/// (`minimize`, seeded by the attempt's seed `s`) where that keeps the
/// method's promises, else refused at [`NOT_MINIMAL`] without being rated.
fn judge(
    opts: &GenerateOptions,
    ev: &Evaluator,
    candidate: Candidate,
    minimal_known: bool,
    s: u64,
) -> Result<Judged, Disagreement> {
    let (candidate, minimal_known) =
        if !opts.minimal || minimal_known || is_minimal(&candidate.puzzle, &candidate.solution) {
            (candidate, minimal_known)
        } else if opts.symmetry == Symmetry::None && opts.method != Method::Xu {
            (minimize(&candidate, &mut SeededRng::seed_from_u64(s)), true)
        } else {
            return Ok(Judged {
                candidate,
                minimal_known: false,
                row: None,
                metrics: Values::default(),
                distance: NOT_MINIMAL,
                exact: true,
            });
        };
    let (row, metrics, distance, exact) = ev.screen(&candidate)?;
    Ok(Judged {
        candidate,
        minimal_known,
        row,
        metrics,
        distance,
        exact,
    })
}

/// The closest candidate so far, and whether its row is the full one.
type Best = Option<(Found, bool)>;

/// Keeps `j` when it is closer than the best so far, or as close and a
/// mutant of it (a minimal puzzle can lose a given only after a move has
/// made one redundant).
fn keep_if_closer(best: &mut Best, j: Judged, mutant: bool) {
    let Some((found, exact)) = best else {
        *best = Some((
            Found {
                candidate: j.candidate,
                minimal_known: j.minimal_known,
                row: j.row,
                metrics: j.metrics,
                distance: j.distance,
                attempts: 1,
                mutations: 0,
                accepted: 0,
            },
            j.exact,
        ));
        return;
    };
    if j.distance < found.distance || (mutant && j.distance == found.distance) {
        found.accepted += usize::from(mutant);
        found.candidate = j.candidate;
        found.minimal_known = j.minimal_known;
        found.row = j.row;
        found.metrics = j.metrics;
        found.distance = j.distance;
        *exact = j.exact;
    }
}

/// Searches for a puzzle meeting the evaluator's targets (see the module
/// doc); attempt `a` draws from `derive_seed(seed, a)`.
pub(crate) fn search(
    opts: &GenerateOptions,
    ev: &Evaluator,
    seed: u64,
    deadline: Option<Instant>,
) -> Result<Found, Disagreement> {
    let mut best: Best = None;
    let local = !opts.aim.targets.is_empty();
    let side = opts.order * opts.order;
    let orbits = opts.symmetry.orbits_cached(side);
    let mut solver = Solver::new(opts.order);
    let mut attempts = 0;
    let done = |best: &Best, attempts: usize| {
        best.as_ref().is_some_and(|(f, _)| f.distance == 0.0)
            || attempts >= opts.run.max_tries.max(1)
            || (attempts > 0 && deadline.is_some_and(|d| Instant::now() >= d))
    };
    let mut mutations = 0;
    // A fresh puzzle that can be walked back is worth more: one attempt in
    // two is fresh then, else one in four.
    let walk = local && matches!(opts.method, Method::Minimal | Method::Chang) && !opts.minimal;
    let every = if walk { 2 } else { 4 };
    while !done(&best, attempts) {
        let a = attempts;
        attempts += 1;
        let s = derive_seed(seed, a as u64);
        let fresh = best.is_none() || !local || a % every == 0;
        if !fresh {
            mutations += 1;
            let Some((found, _)) = &best else { continue };
            let mut rng = SeededRng::seed_from_u64(s);
            let need = need(&ev.targets, &found.metrics);
            if let Some(c) = mutate(
                &found.candidate,
                opts,
                &mut solver,
                &mut rng,
                need,
                found.minimal_known,
            ) {
                let j = judge(opts, ev, c, false, s)?;
                keep_if_closer(&mut best, j, true);
            }
            continue;
        }
        let (candidate, minimal_known, removed) = make_traced(opts, s);
        let j = judge(opts, ev, candidate, minimal_known, s)?;
        let too_hard = j.distance > 0.0 && need(&ev.targets, &j.metrics) == Some(Need::Easier);
        let solution = j.candidate.solution.clone();
        keep_if_closer(&mut best, j, false);
        if !too_hard || !walk || removed.is_empty() {
            continue;
        }
        // Too hard: walk back along the removal sequence (binary search for
        // the step where the puzzle becomes too hard; every prefix is unique).
        let (mut easy, mut hard) = (0, removed.len());
        while hard - easy > 1 && !done(&best, attempts) {
            let mid = (easy + hard) / 2;
            attempts += 1;
            let mut values = solution.cells().to_vec();
            for &o in &removed[..mid] {
                for &cell in &orbits[o] {
                    values[cell] = 0;
                }
            }
            let Ok(puzzle) = Puzzle::from_cells(opts.order, values) else {
                break;
            };
            let prefix = Candidate {
                puzzle,
                solution: solution.clone(),
            };
            let j = judge(opts, ev, prefix, false, s)?;
            match need(&ev.targets, &j.metrics) {
                _ if j.distance == 0.0 => {}
                Some(Need::Easier) => hard = mid,
                Some(Need::Harder) => easy = mid,
                None => hard = easy,
            }
            keep_if_closer(&mut best, j, false);
        }
    }
    let Some((mut best, exact)) = best else {
        unreachable!("the loop makes at least one attempt")
    };
    best.attempts = attempts;
    best.mutations = mutations;
    if !exact {
        // A miss whose rating stopped early: its row and distance are
        // reported in full.
        (best.row, best.metrics, best.distance) = ev.evaluate(&best.candidate.puzzle)?;
    }
    Ok(best)
}

/// A mutant of `c` with the same unique solution: a symmetric orbit of
/// givens removed, an orbit of empty cells given their solution values, or
/// a move (both). A move whose removal lets in other solutions adds an
/// orbit where every one of them differs from the solution, so that all are
/// ruled out again (up to `MOVE_SOLUTIONS` are enumerated; with that many,
/// uniqueness is checked after). `None` when no orbit does, the change
/// loses uniqueness (or, for Xu's method, no longer falls to the
/// techniques). The change is drawn uniformly, or by `need`: adding a
/// given makes a puzzle easier, removing or moving one can make it harder
/// (only moving one when `c` is known to be minimal, as no given of it can
/// be removed alone).
pub(crate) fn mutate(
    c: &Candidate,
    opts: &GenerateOptions,
    solver: &mut Solver,
    rng: &mut impl Rng,
    need: Option<Need>,
    minimal: bool,
) -> Option<Candidate> {
    let side = opts.order * opts.order;
    let orbits = opts.symmetry.orbits_cached(side);
    let solution = c.solution.cells();
    let mut values = c.puzzle.cells().to_vec();
    let (given, empty): (Vec<&Vec<usize>>, Vec<&Vec<usize>>) =
        orbits.iter().partition(|o| values[o[0]] != 0);
    let pick = |list: &[&Vec<usize>], rng: &mut dyn rand::RngCore| -> Option<Vec<usize>> {
        (!list.is_empty()).then(|| list[rng.gen_range(0..list.len())].clone())
    };
    let fill = |values: &mut [u8], orbit: &[usize]| {
        for &cell in orbit {
            values[cell] = solution[cell];
        }
    };
    let change = match need {
        None => rng.gen_range(0..3),
        Some(Need::Easier) => 1,
        Some(Need::Harder) if minimal => 2,
        Some(Need::Harder) => 2 * rng.gen_range(0..2),
    };
    match change {
        0 => {
            let o = pick(&given, rng)?;
            for &cell in &o {
                values[cell] = 0;
            }
            if solver.differs_at(&values, solution, &o) {
                return None;
            }
        }
        1 => fill(&mut values, &pick(&empty, rng)?),
        _ => {
            let o = pick(&given, rng)?;
            for &cell in &o {
                values[cell] = 0;
            }
            if !solver.differs_at(&values, solution, &o) {
                fill(&mut values, &pick(&empty, rng)?);
            } else {
                // The orbits that rule out every other solution (all of them
                // when there are fewer than the cap, else checked after).
                let without = Puzzle::from_cells(opts.order, values.clone()).ok()?;
                let all = crate::bitset::sudoku::solutions(&without, MOVE_SOLUTIONS);
                let complete = (all.len() as u64) < MOVE_SOLUTIONS;
                let ruling_out: Vec<&Vec<usize>> = empty
                    .iter()
                    .filter(|e| {
                        all.iter().all(|other| {
                            let other = other.cells();
                            other == solution || e.iter().any(|&x| other[x] != solution[x])
                        })
                    })
                    .copied()
                    .collect();
                fill(&mut values, &pick(&ruling_out, rng)?);
                if !complete && solver.count(&values, 2) != 1 {
                    return None;
                }
            }
        }
    }
    let puzzle = Puzzle::from_cells(opts.order, values).ok()?;
    if opts.method == Method::Xu && !techniques_solve(&puzzle) {
        return None;
    }
    Some(Candidate {
        puzzle,
        solution: c.solution.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_keep_the_unique_solution() {
        let opts = GenerateOptions::default();
        let (c, _) = opts.make_one(17);
        let mut solver = Solver::new(3);
        let mut rng = SeededRng::seed_from_u64(1);
        let mut made = 0;
        for _ in 0..40 {
            if let Some(m) = mutate(&c, &opts, &mut solver, &mut rng, None, false) {
                assert_ne!(m.puzzle, c.puzzle);
                assert_eq!(crate::sat::count(&m.puzzle, 2).solutions, 1);
                assert!(c.solution.solves(&m.puzzle));
                made += 1;
            }
        }
        assert!(made >= 10, "{made}");
    }
}
