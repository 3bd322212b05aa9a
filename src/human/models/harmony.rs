//! Harmony search as a solver of the puzzle, and its metrics (Pelánek,
//! "Difficulty rating of Sudoku puzzles", §3.3 and Table 3, after Geem,
//! "Harmony search algorithm for solving Sudoku", 2007).
//!
//! A harmony assigns every empty cell a digit among the candidates its
//! given peers leave. The harmony memory holds `HMS` random harmonies. A
//! step improvises one new harmony, cell by cell: with probability `HMCR`
//! the digit of that cell in a random memory member, then with probability
//! `PAR` moved to the next candidate of the cell (pitch adjustment);
//! otherwise a random candidate. The new harmony replaces the worst member
//! when it costs less. Geem's cost is the distance of each row, column and
//! box sum from 45, which is 0 on grids that are not solutions; ours counts
//! the digits missing from every row, column and box (0 exactly on a
//! solution), so a finished run is a solution of the puzzle.
//!
//! Pelánek: "this approach is often not able to find a solution, so the
//! metric is defined as the cost of the best candidate after 10 000 steps".
//! We report that cost (`harmony_cost`, mean over seeded runs), the number of
//! steps until a solution (`harmony_steps`, a run that does not finish
//! counts as the cap: a censored value) and the share of runs that finish.

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::{Geometry, Puzzle};
use crate::human::seeds::run_rng;
use crate::stats::Estimate;
use crate::util::bits;
use rand::Rng;

/// Harmony search parameters (Geem's HMS, HMCR, PAR; Pelánek's 10,000 steps).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct HarmonyOptions {
    /// Seeded runs (default 5).
    pub runs: usize,
    /// Improvisations per run (default 10,000, Pelánek).
    pub max_steps: u64,
    /// Harmony memory size (default 50).
    pub memory: usize,
    /// Harmony memory considering rate (default 0.9).
    pub hmcr: f64,
    /// Pitch adjusting rate (default 0.3).
    pub par: f64,
}

impl Default for HarmonyOptions {
    fn default() -> Self {
        HarmonyOptions {
            runs: 5,
            max_steps: 10_000,
            memory: 50,
            hmcr: 0.9,
            par: 0.3,
        }
    }
}

/// One harmony search run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HarmonyRun {
    /// Improvisations until the best harmony was a solution (the cap when
    /// none was).
    pub steps: u64,
    /// The cost of the best harmony at the end.
    pub best_cost: u32,
    /// The best harmony as a full grid.
    pub grid: Vec<u8>,
}

/// Digits missing from every unit of a full grid.
pub(crate) fn conflicts(g: &Geometry, grid: &[u8]) -> u32 {
    g.units
        .iter()
        .map(|cells| {
            let seen = cells.iter().fold(0u32, |m, &c| m | 1 << grid[c]);
            (g.all_digits() & !seen).count_ones()
        })
        .sum()
}

/// One seeded harmony search run on `puzzle`.
pub(crate) fn harmony(puzzle: &Puzzle, opts: &HarmonyOptions, rng: &mut impl Rng) -> HarmonyRun {
    let g = Geometry::of(puzzle.order());
    let givens = puzzle.cells();
    let cands = puzzle.candidates();
    let empty: Vec<usize> = (0..g.cells).filter(|&c| givens[c] == 0).collect();
    let domains: Vec<Vec<u8>> = empty
        .iter()
        .map(|&c| {
            let d: Vec<u8> = bits(cands[c]).collect();
            // A cell its givens leave without a digit: any digit, so the
            // cost never reaches 0.
            if d.is_empty() { vec![1] } else { d }
        })
        .collect();
    // A harmony's digits written into a grid that holds the givens.
    let fill = |grid: &mut [u8], h: &[usize]| {
        for ((&c, dom), &i) in empty.iter().zip(&domains).zip(h) {
            grid[c] = dom[i];
        }
    };
    let mut scratch = givens.to_vec();
    let mut cost_of = |h: &[usize]| {
        fill(&mut scratch, h);
        conflicts(g, &scratch)
    };
    let mut memory: Vec<(u32, Vec<usize>)> = (0..opts.memory.max(1))
        .map(|_| {
            let h: Vec<usize> = domains.iter().map(|d| rng.gen_range(0..d.len())).collect();
            (cost_of(&h), h)
        })
        .collect();
    // Only the worst member is ever replaced, by a cheaper harmony, so the best
    // cost is the minimum of the old best and the newcomer.
    let mut best = memory.iter().map(|x| x.0).min().unwrap_or(0);
    // The member a cheaper harmony replaces (the last of the costliest); it
    // changes only when the memory does.
    let worst_of = |m: &[(u32, Vec<usize>)]| (0..m.len()).max_by_key(|&i| m[i].0).unwrap_or(0);
    let mut worst = worst_of(&memory);
    let mut new = vec![0usize; domains.len()];
    let mut steps = 0u64;
    while best > 0 && steps < opts.max_steps {
        steps += 1;
        for (i, (v, d)) in new.iter_mut().zip(&domains).enumerate() {
            *v = if rng.r#gen::<f64>() < opts.hmcr {
                let v = memory[rng.gen_range(0..memory.len())].1[i];
                if rng.r#gen::<f64>() < opts.par {
                    (v + 1) % d.len()
                } else {
                    v
                }
            } else {
                rng.gen_range(0..d.len())
            };
        }
        let cost = cost_of(&new);
        if cost < memory[worst].0 {
            memory[worst].0 = cost;
            std::mem::swap(&mut memory[worst].1, &mut new);
            best = best.min(cost);
            worst = worst_of(&memory);
        }
    }
    let (best_cost, h) = memory
        .iter()
        .min_by_key(|x| x.0)
        .cloned()
        .unwrap_or((u32::MAX, Vec::new()));
    let mut grid = givens.to_vec();
    fill(&mut grid, &h);
    HarmonyRun {
        steps,
        best_cost,
        grid,
    }
}

/// Seed tag of the harmony search runs ([`run_rng`]).
const HARMONY_TAG: u64 = 0x4841_524d;

/// Harmony search's row: the best harmony's cost and the steps until a
/// solution, means over the runs with their standard errors.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HarmonyRow {
    /// Cost (digits missing from the units) of the best harmony after at
    /// most 10,000 steps over the runs (Pelánek's metric; `harmony_cost`,
    /// `_se`).
    pub cost: Option<Estimate>,
    /// Steps until a solution over the runs (a run that does not finish
    /// counts as the cap; `harmony_steps`, `_se`).
    pub steps: Option<Estimate>,
}

impl HumanModel for HarmonyRow {
    type Options = HarmonyOptions;
    fn runs(opts: &HarmonyOptions) -> Option<usize> {
        Some(opts.runs)
    }
    fn set_runs(opts: &mut HarmonyOptions, runs: usize) {
        opts.runs = runs;
    }
    fn rate(&mut self, on: &Rating<'_>, opts: &HarmonyOptions) {
        let runs: Vec<HarmonyRun> = (0..opts.runs as u64)
            .map(|i| harmony(on.puzzle, opts, &mut run_rng(on.seed, HARMONY_TAG, i)))
            .collect();
        self.cost = Estimate::of(
            &runs
                .iter()
                .map(|r| f64::from(r.best_cost))
                .collect::<Vec<_>>(),
        );
        self.steps = Estimate::of(&runs.iter().map(|r| r.steps as f64).collect::<Vec<_>>());
    }
}

impl ModelRow for HarmonyRow {
    fn why_null(&self) -> Option<WhyNull> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn conflicts_count_missing_digits() {
        let g = Geometry::of(3);
        let mut grid: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        assert_eq!(conflicts(g, &grid), 0);
        // Cell 0 (5) becomes 3, a repeat of cell 1: its row, column and box
        // each miss a 5 (the 3 was already there in each).
        grid[0] = 3;
        assert_eq!(conflicts(g, &grid), 3);
    }

    #[test]
    fn harmony_solves_a_grid_with_twelve_holes_and_is_seeded() {
        // Twelve holes in four rows: every hole keeps at least two
        // candidates after its given peers, so the search has work to do.
        let mut line: Vec<u8> = SOLUTION.bytes().collect();
        for c in [0, 1, 2, 3, 9, 10, 11, 12, 18, 19, 20, 21] {
            line[c] = b'.';
        }
        let p = parse_puzzle(std::str::from_utf8(&line).unwrap()).unwrap();
        let opts = HarmonyOptions::default();
        let r = harmony(&p, &opts, &mut SeededRng::seed_from_u64(2));
        assert_eq!(r.best_cost, 0);
        assert!(r.steps > 0 && r.steps < opts.max_steps);
        let s = crate::grid::Solution::from_cells(3, r.grid.clone()).unwrap();
        assert!(s.solves(&p));
        assert_eq!(harmony(&p, &opts, &mut SeededRng::seed_from_u64(2)), r);
    }
}
