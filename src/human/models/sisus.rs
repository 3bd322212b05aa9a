//! SiSuS, the "Simple Sudoku Solver" model of Pelánek (§3.1, "General
//! Model" and "Evaluation of the Model"; metrics in "Difficulty Metrics Based
//! on the Model" and Table 3).
//!
//! The simulated solver knows two techniques of equal difficulty, naked and
//! hidden singles. At each step it collects every cell a single can fill;
//! that number is the step's *possibility count*. When there is one, it fills
//! one chosen uniformly at random. When there is none, it rates each empty
//! cell by a *refutation score*: for each wrong candidate `v` it assumes `v`
//! and runs a random sequence of singles until a contradiction shows (an empty
//! cell without candidate or a digit without place in a unit); `ref_v` is the
//! number of steps, counting the final check as one step (so `ref_v ≥ 1`,
//! a decision of ours: an immediate contradiction still costs a look). A
//! candidate the singles cannot refute makes the score infinite. The cell with
//! the lowest finite score (ties at random) gets its solution value and the
//! score is added to the run's refutation sum.
//!
//! Metrics over the runs (30 by default, the paper's value):
//! * **refutation sum**: mean over runs of the summed scores;
//! * **dependency**: mean possibility count over the first `k = 25` steps
//!   (fewer possibilities = harder; all steps when the puzzle has fewer; the
//!   paper finds k between 20 and 30 works, Table 2, and 25 is our default);
//! * **fill order**: per cell, mean step at which a run filled it.
//!
//! If in some run every empty cell has an infinite score, the model reports
//! "no finite refutation" instead of a number (Pelánek notes this never
//! happened on his puzzles).
//!
//! When only the refutation sum is wanted ([`sisus_refutation_sum`]), a
//! puzzle that the first run solves by singles alone needs no further run:
//! the singles of a puzzle with a solution are confluent (a cell that a
//! single can fill stays fillable, by the same digit, whatever correct
//! digits are placed elsewhere, since candidates only shrink and the
//! solution's digit never leaves them), so no run can get stuck and every
//! run's refutation sum is 0.

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::{Puzzle, Solution};
use crate::human::board::Board;
use crate::human::seeds::run_rng;
use crate::human::techniques::{Single, hidden_singles, naked_singles};
use crate::seed::SeededRng;
use crate::stats::Estimate;
use crate::stats::Summary;
use crate::util::bits as digits;
use rand::Rng;
use serde::Serialize;

const MODEL_TAG: u64 = 0x5151_5355;

/// Parameters of the SiSuS model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SisusOptions {
    /// Randomized runs (paper: 30).
    pub runs: usize,
    /// Steps averaged by the dependency metric (default 25; the paper: k
    /// between 20 and 30 works, Table 2).
    pub dependency_steps: usize,
    /// Whether the dependency is wanted (the default). When it is not,
    /// [`crate::human::rate`] calls `sisus_refutation_sum`, which skips
    /// the runs after the first on a puzzle singles solve.
    #[serde(skip)]
    pub dependency: bool,
}

impl Default for SisusOptions {
    fn default() -> Self {
        SisusOptions {
            runs: 30,
            dependency_steps: 25,
            dependency: true,
        }
    }
}

/// What SiSuS measured on a puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct SisusResult {
    /// Summed refutation scores per run.
    pub refutation_sum: Summary,
    /// Mean possibility count over the first `k` steps, per run.
    pub dependency: Summary,
    /// Per cell (row-major), mean 1-based step at which it was filled;
    /// `None` for givens.
    pub fill_order: Vec<Option<f64>>,
    /// Mean number of steps that needed a refutation.
    pub refutation_steps: f64,
    /// The curve of Pelánek's Fig. 7: at step `i + 1`, the mean over runs
    /// of the number of possibilities for the next step (cells a single
    /// fills; 0 where the step needs a refutation). Every step fills one
    /// cell, so every run has as many steps as the puzzle has empty cells,
    /// and the dependency is the mean of the first `k` entries.
    pub possibilities: Vec<f64>,
}

struct Run {
    refutation_sum: u64,
    dependency: f64,
    order: Vec<usize>,
    refutation_steps: usize,
    counts: Vec<usize>,
}

/// Distinct cells fillable by a single (first digit found per cell).
fn fillable(board: &Board, buf: &mut Vec<Single>, out: &mut Vec<(usize, u8)>) {
    buf.clear();
    out.clear();
    naked_singles(board, buf);
    hidden_singles(board, buf);
    for s in buf.iter() {
        if !out.iter().any(|&(c, _)| c == s.cell) {
            out.push((s.cell, s.digit));
        }
    }
}

/// The storage a refutation reuses from one candidate to the next.
struct Scratch {
    board: Board,
    buf: Vec<Single>,
    moves: Vec<(usize, u8)>,
}

/// Steps a random singles sequence needs to expose a contradiction after
/// `cell = v`; `None` if the singles get stuck first or `budget` is passed.
fn refute(
    board: &Board,
    cell: usize,
    v: u8,
    budget: u64,
    rng: &mut SeededRng,
    scratch: &mut Scratch,
) -> Option<u64> {
    let Scratch {
        board: b,
        buf,
        moves,
    } = scratch;
    b.copy_from(board);
    // `board` holds only correct digits, so it shows no contradiction and
    // each placement needs only the check of what it changed.
    debug_assert!(!b.contradiction());
    let mut shows_contradiction = b.place_shows_contradiction(cell, v);
    let mut steps = 1u64;
    loop {
        debug_assert_eq!(shows_contradiction, b.contradiction());
        if shows_contradiction {
            return Some(steps);
        }
        if steps >= budget {
            return None;
        }
        fillable(b, buf, moves);
        if moves.is_empty() {
            return None;
        }
        let (c, d) = moves[rng.gen_range(0..moves.len())];
        shows_contradiction = b.place_shows_contradiction(c, d);
        steps += 1;
    }
}

fn run_once(puzzle: &Puzzle, solution: &Solution, k: usize, rng: &mut SeededRng) -> Option<Run> {
    let mut b = Board::new(puzzle);
    let cells = b.values().len();
    let mut order = vec![0usize; cells];
    let mut counts = Vec::new();
    let mut buf = Vec::new();
    let mut moves = Vec::new();
    let mut refsum = 0u64;
    let mut refutation_steps = 0;
    let mut step = 0usize;
    let mut scratch = Scratch {
        board: b.clone(),
        buf: Vec::new(),
        moves: Vec::new(),
    };
    while !b.is_solved() {
        fillable(&b, &mut buf, &mut moves);
        counts.push(moves.len());
        step += 1;
        if !moves.is_empty() {
            let (c, d) = moves[rng.gen_range(0..moves.len())];
            b.place(c, d);
            order[c] = step;
            continue;
        }
        refutation_steps += 1;
        // Cells with few candidates first, so a low best score prunes early.
        let mut empties: Vec<usize> = (0..cells).filter(|&c| b.value(c) == 0).collect();
        empties.sort_by_key(|&c| b.cands(c).count_ones());
        let mut best = u64::MAX;
        let mut best_cells: Vec<usize> = Vec::new();
        for &cell in &empties {
            let mut score = 0u64;
            let mut finite = true;
            for v in digits(b.cands(cell)) {
                if v == solution.get(cell) {
                    continue;
                }
                let budget = best.saturating_sub(score);
                match refute(&b, cell, v, budget, rng, &mut scratch) {
                    Some(r) => score += r,
                    None => {
                        finite = false;
                        break;
                    }
                }
                if score > best {
                    finite = false;
                    break;
                }
            }
            if !finite {
                continue;
            }
            if score < best {
                best = score;
                best_cells.clear();
            }
            best_cells.push(cell);
        }
        if best_cells.is_empty() {
            return None;
        }
        let cell = best_cells[rng.gen_range(0..best_cells.len())];
        b.place(cell, solution.get(cell));
        order[cell] = step;
        refsum += best;
    }
    let used = counts.len().min(k);
    let dependency = if used == 0 {
        0.0
    } else {
        counts[..used].iter().sum::<usize>() as f64 / used as f64
    };
    Some(Run {
        refutation_sum: refsum,
        dependency,
        order,
        refutation_steps,
        counts,
    })
}

/// Runs SiSuS `opts.runs` times; run `i` uses `crate::human::seeds::run_seed`.
pub(crate) fn sisus(
    puzzle: &Puzzle,
    solution: &Solution,
    opts: &SisusOptions,
    seed: u64,
) -> Result<SisusResult, SisusNull> {
    all_runs(puzzle, solution, opts, seed, None)
}

/// SiSuS's refutation sum over `opts.runs` runs, the same summary as
/// [`sisus`]'s, and the dependency when every run was made: a puzzle the
/// first run solves by singles alone has a refutation sum of 0 in every run
/// (see the module doc), so its other runs are skipped and the dependency
/// is `None`.
pub(crate) fn sisus_refutation_sum(
    puzzle: &Puzzle,
    solution: &Solution,
    opts: &SisusOptions,
    seed: u64,
) -> Result<(Summary, Option<Summary>), SisusNull> {
    let runs = opts.runs.max(1);
    let mut rng = run_rng(seed, MODEL_TAG, 0);
    let first = run_once(puzzle, solution, opts.dependency_steps, &mut rng);
    if first.as_ref().is_some_and(|r| r.refutation_steps == 0) {
        return match Summary::of(&vec![0.0; runs]) {
            Some(zero) => Ok((zero, None)),
            None => Err(SisusNull::NoRunFinished),
        };
    }
    let all = all_runs(puzzle, solution, opts, seed, Some(first))?;
    Ok((all.refutation_sum, Some(all.dependency)))
}

/// Every run of [`sisus`]; `first`, when given, is run 0 already made.
fn all_runs(
    puzzle: &Puzzle,
    solution: &Solution,
    opts: &SisusOptions,
    seed: u64,
    first: Option<Option<Run>>,
) -> Result<SisusResult, SisusNull> {
    let runs = opts.runs.max(1);
    let mut done = Vec::with_capacity(runs);
    let mut failed = 0;
    let mut first = first;
    for i in 0..runs {
        let run = match first.take() {
            Some(made) => made,
            None => {
                let mut rng = run_rng(seed, MODEL_TAG, i as u64);
                run_once(puzzle, solution, opts.dependency_steps, &mut rng)
            }
        };
        match run {
            Some(r) => done.push(r),
            None => failed += 1,
        }
    }
    if failed > 0 {
        return Err(SisusNull::NoFiniteRefutation { failed, runs });
    }
    let refs: Vec<f64> = done.iter().map(|r| r.refutation_sum as f64).collect();
    let deps: Vec<f64> = done.iter().map(|r| r.dependency).collect();
    let n = done.len() as f64;
    let fill_order = (0..puzzle.cells().len())
        .map(|c| {
            (!puzzle.is_given(c)).then(|| done.iter().map(|r| r.order[c] as f64).sum::<f64>() / n)
        })
        .collect();
    let refutation_steps = done.iter().map(|r| r.refutation_steps as f64).sum::<f64>() / n;
    let steps = done.iter().map(|r| r.counts.len()).max().unwrap_or(0);
    let possibilities = (0..steps)
        .map(|i| done.iter().filter_map(|r| r.counts.get(i)).sum::<usize>() as f64 / n)
        .collect();
    match (Summary::of(&refs), Summary::of(&deps)) {
        (Some(refutation_sum), Some(dependency)) => Ok(SisusResult {
            refutation_sum,
            dependency,
            fill_order,
            refutation_steps,
            possibilities,
        }),
        _ => Err(SisusNull::NoRunFinished),
    }
}

/// Why SiSuS has no refutation sum for a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SisusNull {
    /// Some runs reached a state no candidate's refutation is finite in.
    #[error("no finite refutation (in {failed} of {runs} runs)")]
    NoFiniteRefutation {
        /// Runs that stopped so.
        failed: usize,
        /// Runs made.
        runs: usize,
    },
    /// No run finished.
    #[error("no run finished")]
    NoRunFinished,
}

/// SiSuS's row: the refutation sum and the dependency, each a mean over
/// the runs with its spread and standard error; without `dependency`, the
/// runs a singles-solved puzzle does not need are skipped
/// ([`sisus_refutation_sum`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SisusRow {
    /// Refutation sum over the runs (`sisus_refutation_sum`, `_sd`, `_se`).
    pub refutation_sum: Option<Estimate>,
    /// Dependency: mean possibility count of the first `k` steps (default
    /// 25) over the runs (`sisus_dependency`, `_sd`, `_se`); lower is
    /// harder.
    pub dependency: Option<Estimate>,
    /// Why both are null when SiSuS ran.
    pub why_null: Option<SisusNull>,
}

impl HumanModel for SisusRow {
    type Options = SisusOptions;
    fn runs(opts: &SisusOptions) -> Option<usize> {
        Some(opts.runs)
    }
    fn set_runs(opts: &mut SisusOptions, runs: usize) {
        opts.runs = runs;
    }
    fn rate(&mut self, on: &Rating<'_>, opts: &SisusOptions) {
        let rated = if opts.dependency {
            sisus(on.puzzle, on.solution, opts, on.seed)
                .map(|r| (r.refutation_sum, Some(r.dependency)))
        } else {
            sisus_refutation_sum(on.puzzle, on.solution, opts, on.seed)
        };
        match rated {
            Ok((refutation_sum, dependency)) => {
                self.refutation_sum = Some(refutation_sum.estimate());
                self.dependency = dependency.map(Summary::estimate);
            }
            Err(why) => self.why_null = Some(why),
        }
    }
}

impl ModelRow for SisusRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;
    use crate::human::solver::{Solved, solve};

    /// The shortcut gives the refutation sum of every run made, on a puzzle
    /// singles solve (where it skips runs) and on puzzles that need
    /// refutations (where it makes them all), and fails where SiSuS fails.
    #[test]
    fn refutation_sum_shortcut_is_the_full_sum() {
        let puzzles = [
            // QQWing easy: singles only.
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            // QQWing intermediate and expert, Fletcher's "Crazy": refutations.
            "..5..........9........1.53.....3..7..68......3..85.1.2.....36.9..958..2.23.16....",
            "........12...94..6...3.7..8.....82..7.64...8....1..3.76.472...3..168.4...........",
            "...4....2.2...9...8.5...4........734...2.485..5..76....6......81729...4....6521..",
            // Platinum Blonde: some run has no finite refutation.
            ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
        ];
        let opts = SisusOptions::default();
        let mut refuted = 0;
        for line in puzzles {
            let p = parse_puzzle(line).unwrap();
            let Solved::Unique(sol) = solve(&p) else {
                panic!("{line} has not one solution")
            };
            for seed in [1, 7] {
                let full = sisus(&p, &sol, &opts, seed);
                let quick = sisus_refutation_sum(&p, &sol, &opts, seed);
                match (full, quick) {
                    (Ok(full), Ok((sum, dependency))) => {
                        assert_eq!(sum, full.refutation_sum, "{line} seed {seed}");
                        if full.refutation_steps > 0.0 {
                            refuted += 1;
                            assert!(sum.mean > 0.0);
                            assert_eq!(dependency, Some(full.dependency));
                        } else {
                            assert_eq!(sum.mean, 0.0);
                            assert_eq!(sum.n, 30);
                        }
                    }
                    (Err(full), Err(quick)) => assert_eq!(full, quick),
                    (full, quick) => panic!("{line}: {full:?} vs {quick:?}"),
                }
            }
        }
        assert!(refuted >= 4, "{refuted}");
    }

    /// Fig. 7's curve: one entry per empty cell, its first `k` entries
    /// average to the dependency, and the easy puzzle offers more
    /// possibilities per step than the hard one, ending with its last cell.
    #[test]
    fn possibilities_per_step_are_the_dependency_curve() {
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let hard =
            "...4....2.2...9...8.5...4........734...2.485..5..76....6......81729...4....6521..";
        let opts = SisusOptions::default();
        let mut first_steps = Vec::new();
        for line in [easy, hard] {
            let p = parse_puzzle(line).unwrap();
            let Solved::Unique(sol) = solve(&p) else {
                panic!("{line} has not one solution")
            };
            let r = sisus(&p, &sol, &opts, 3).unwrap();
            let empty = line.bytes().filter(|&b| b == b'.').count();
            assert_eq!(r.possibilities.len(), empty, "{line}");
            let k = opts.dependency_steps;
            let head = r.possibilities[..k].iter().sum::<f64>() / k as f64;
            assert!(
                (head - r.dependency.mean).abs() < 1e-9,
                "{head} {:?}",
                r.dependency
            );
            // The last empty cell is the only one left to fill.
            assert_eq!(r.possibilities.last(), Some(&1.0));
            first_steps.push(head);
        }
        assert!(first_steps[0] > 2.0 * first_steps[1], "{first_steps:?}");
    }
}
