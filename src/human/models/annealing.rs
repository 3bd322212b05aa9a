//! Simulated annealing as a solver of the puzzle, and its number of steps as
//! a difficulty metric (Pelánek, "Difficulty rating of Sudoku puzzles",
//! §3.3 "Other approaches" and Table 3, after Křivánek's experiments with
//! Lewis's annealing, "Metaheuristics can solve sudoku puzzles", 2007).
//!
//! Lewis's formulation: every box is filled with a random permutation of
//! the digits its givens leave, so boxes are always right; the cost is the
//! number of digits missing from each row plus from each column (0 exactly
//! when the grid is a solution). A move swaps two non-given cells of one
//! random box. A worse move of cost change Δ is accepted with probability
//! e^{−Δ/t}. The initial temperature is the standard deviation of the costs
//! met along 200 random moves; the temperature is multiplied by 0.99 after
//! every chain of Σ_b f_b² moves (f_b = free cells of box b); when the cost
//! has ended 20 chains in a row where it began (the search is frozen in a
//! local minimum) the temperature goes back to the initial one (a reheat,
//! Lewis's escape from local minima).
//!
//! The metric is the number of moves tried until the cost reaches 0, mean
//! over seeded runs. A run that reaches the step cap counts as the cap (a
//! censored value: `sa_solved` says how many runs finished).

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::{Geometry, Puzzle};
use crate::human::seeds::run_rng;
use crate::stats::{Estimate, Summary};
use crate::util::bits;
use rand::Rng;
use rand::seq::SliceRandom;

/// Annealing parameters.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AnnealingOptions {
    /// Seeded runs (default 5).
    pub runs: usize,
    /// Moves tried per run before giving up (default 1,000,000).
    pub max_steps: u64,
    /// Cooling factor per chain (default 0.99, Lewis).
    pub cooling: f64,
    /// Chains in a row that end at the cost they began with before a
    /// reheat (default 20).
    pub reheat_after: usize,
}

impl Default for AnnealingOptions {
    fn default() -> Self {
        AnnealingOptions {
            runs: 5,
            max_steps: 1_000_000,
            cooling: 0.99,
            reheat_after: 20,
        }
    }
}

/// One annealing run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AnnealingRun {
    /// Moves tried (the cap when the run did not finish).
    pub steps: u64,
    /// The final grid (a solution of the puzzle when `solved`).
    pub grid: Vec<u8>,
    /// Whether the cost reached 0.
    pub solved: bool,
}

/// The annealing state: the grid and the digit counts of rows and columns.
struct State<'g> {
    g: &'g Geometry,
    grid: Vec<u8>,
    /// Digit counts of the lines, `side + 1` entries a line (index 0 unused):
    /// lines 0..N are the rows, N..2N the columns.
    counts: Vec<u16>,
}

impl<'g> State<'g> {
    fn new(g: &'g Geometry, grid: Vec<u8>) -> State<'g> {
        let counts = vec![0u16; 2 * g.side * (g.side + 1)];
        let mut s = State { g, grid, counts };
        for cell in 0..g.cells {
            let d = s.grid[cell] as usize;
            for line in s.lines(cell) {
                s.counts[line * (g.side + 1) + d] += 1;
            }
        }
        s
    }

    fn count(&self, line: usize, digit: usize) -> u16 {
        self.counts[line * (self.g.side + 1) + digit]
    }

    fn cost(&self) -> i64 {
        let side = self.g.side;
        (0..2 * side)
            .map(|l| (1..=side).filter(|&d| self.count(l, d) == 0).count() as i64)
            .sum()
    }

    /// The row and the column of a cell as line indices (`cell_units`
    /// numbers rows 0..N and columns N..2N, as `counts` does).
    fn lines(&self, cell: usize) -> [usize; 2] {
        let [row, col, _] = self.g.cell_units[cell];
        [row, col]
    }

    fn swap(&mut self, a: usize, b: usize) {
        let stride = self.g.side + 1;
        let (da, db) = (self.grid[a] as usize, self.grid[b] as usize);
        for (cell, from, to) in [(a, da, db), (b, db, da)] {
            for line in self.lines(cell) {
                self.counts[line * stride + from] -= 1;
                self.counts[line * stride + to] += 1;
            }
        }
        self.grid.swap(a, b);
    }

    /// Cost change of one line giving up a `from` for a `to`: a digit goes
    /// missing when its only copy leaves, and stops missing when it arrives.
    fn trade(&self, line: usize, from: usize, to: usize) -> i64 {
        i64::from(self.count(line, from) == 1) - i64::from(self.count(line, to) == 0)
    }

    /// Cost change of swapping `a` and `b`, read off the counts. Only lines
    /// holding one of the two cells change, and a line holding both keeps its
    /// digits.
    fn delta(&self, a: usize, b: usize) -> i64 {
        let (da, db) = (self.grid[a] as usize, self.grid[b] as usize);
        if da == db {
            return 0;
        }
        let mut d = 0;
        for (la, lb) in self.lines(a).into_iter().zip(self.lines(b)) {
            if la != lb {
                d += self.trade(la, da, db) + self.trade(lb, db, da);
            }
        }
        d
    }
}

/// Two distinct free cells of a random box.
fn pick(rng: &mut impl Rng, free: &[Vec<usize>]) -> (usize, usize) {
    let cells = &free[rng.gen_range(0..free.len())];
    let i = rng.gen_range(0..cells.len());
    let mut j = rng.gen_range(0..cells.len() - 1);
    if j >= i {
        j += 1;
    }
    (cells[i], cells[j])
}

/// One seeded annealing run on `puzzle` (whose givens must not clash).
pub(crate) fn anneal(puzzle: &Puzzle, opts: &AnnealingOptions, rng: &mut impl Rng) -> AnnealingRun {
    let g = Geometry::of(puzzle.order());
    let side = g.side;
    let mut grid = puzzle.cells().to_vec();
    let mut free: Vec<Vec<usize>> = Vec::new();
    for b in 0..side {
        let cells = &g.units[2 * side + b];
        let placed = cells.iter().fold(0u32, |m, &c| m | 1 << grid[c]);
        let mut missing: Vec<u8> = bits(g.all_digits() & !placed).collect();
        missing.shuffle(rng);
        let empty: Vec<usize> = cells.iter().copied().filter(|&c| grid[c] == 0).collect();
        for (&c, &d) in empty.iter().zip(&missing) {
            grid[c] = d;
        }
        if empty.len() >= 2 {
            free.push(empty);
        }
    }
    let mut s = State::new(g, grid);
    let mut cost = s.cost();
    if cost == 0 || free.is_empty() {
        let solved = cost == 0;
        return AnnealingRun {
            steps: 0,
            grid: s.grid,
            solved,
        };
    }
    // Initial temperature: spread of the costs along 200 random moves.
    let mut probe = Vec::with_capacity(200);
    for _ in 0..200 {
        let (a, b) = pick(rng, &free);
        s.swap(a, b);
        probe.push(s.cost() as f64);
    }
    cost = s.cost();
    let t0 = Summary::of(&probe).map_or(1.0, |x| x.sd).max(0.5);
    let chain: u64 = free.iter().map(|f| (f.len() * f.len()) as u64).sum();
    let mut t = t0;
    let mut stale = 0usize;
    let mut steps = 0u64;
    while cost > 0 && steps < opts.max_steps {
        let began = cost;
        // e^{-Δ/t} for the cost changes a move can make (Δ ≤ 4: two rows and
        // two columns), computed once a chain.
        let accept: [f64; 5] = std::array::from_fn(|d| (-(d as f64) / t).exp());
        for _ in 0..chain {
            if cost == 0 || steps >= opts.max_steps {
                break;
            }
            steps += 1;
            let (a, b) = pick(rng, &free);
            let d = s.delta(a, b);
            if d <= 0 || rng.r#gen::<f64>() < accept[d as usize] {
                s.swap(a, b);
                cost += d;
            }
        }
        if cost == began {
            stale += 1;
        } else {
            stale = 0;
        }
        t *= opts.cooling;
        if stale >= opts.reheat_after {
            t = t0;
            stale = 0;
        }
    }
    AnnealingRun {
        steps,
        grid: s.grid,
        solved: cost == 0,
    }
}

/// Seed tag of the annealing runs ([`run_rng`]).
const ANNEALING_TAG: u64 = 0x414e_4e45;

/// Simulated annealing's row: moves until a solution and the share of
/// solved runs, means over the runs with their standard errors.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnnealingRow {
    /// Moves until a solution over the runs (a run that hits the cap
    /// counts as the cap; `sa_steps`, `_se`).
    pub steps: Option<Estimate>,
    /// Share of the runs that reached a solution, in [0, 1]: the mean of 1
    /// per solved run and 0 per other (`sa_solved`, `_se`).
    pub solved: Option<Estimate>,
}

impl HumanModel for AnnealingRow {
    /// Givens alone: its moves fill each box with the digits its givens lack.
    fn reads_pencilmarks() -> bool {
        false
    }

    type Options = AnnealingOptions;
    fn runs(opts: &AnnealingOptions) -> Option<usize> {
        Some(opts.runs)
    }
    fn set_runs(opts: &mut AnnealingOptions, runs: usize) {
        opts.runs = runs;
    }
    fn rate(&mut self, on: &Rating<'_>, opts: &AnnealingOptions) {
        let runs: Vec<AnnealingRun> = (0..opts.runs as u64)
            .map(|i| anneal(on.puzzle, opts, &mut run_rng(on.seed, ANNEALING_TAG, i)))
            .collect();
        self.steps = Estimate::of(&runs.iter().map(|r| r.steps as f64).collect::<Vec<_>>());
        self.solved = Estimate::of(
            &runs
                .iter()
                .map(|r| f64::from(u8::from(r.solved)))
                .collect::<Vec<_>>(),
        );
    }
}

impl ModelRow for AnnealingRow {
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
    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn a_full_grid_costs_nothing() {
        let p = parse_puzzle(SOLUTION).unwrap();
        let r = anneal(
            &p,
            &AnnealingOptions::default(),
            &mut SeededRng::seed_from_u64(1),
        );
        assert_eq!((r.steps, r.solved), (0, true));
    }

    #[test]
    fn annealing_solves_an_easy_puzzle_and_is_seeded() {
        let p = parse_puzzle(EASY).unwrap();
        let opts = AnnealingOptions::default();
        let r = anneal(&p, &opts, &mut SeededRng::seed_from_u64(3));
        assert!(r.solved, "{} steps", r.steps);
        assert!(r.steps > 0);
        let s = crate::grid::Solution::from_cells(3, r.grid.clone()).unwrap();
        assert!(s.solves(&p));
        assert_eq!(
            r.grid,
            SOLUTION.bytes().map(|b| b - b'0').collect::<Vec<_>>()
        );
        let again = anneal(&p, &opts, &mut SeededRng::seed_from_u64(3));
        assert_eq!(again, r);
    }

    #[test]
    fn delta_is_the_cost_change_of_the_swap() {
        // Random walks over grids whose boxes are permutations (the annealing
        // state space): every same-box swap's delta against a full recount.
        let g = Geometry::of(3);
        let mut rng = SeededRng::seed_from_u64(7);
        let mut grid: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        for b in 0..9 {
            let cells = &g.units[18 + b];
            let mut digits: Vec<u8> = cells.iter().map(|&c| grid[c]).collect();
            digits.shuffle(&mut rng);
            for (&c, d) in cells.iter().zip(digits) {
                grid[c] = d;
            }
        }
        let mut s = State::new(g, grid);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let cells = &g.units[18 + rng.gen_range(0..9)];
            for &a in cells {
                for &b in cells {
                    if a == b {
                        continue;
                    }
                    let before = s.cost();
                    let d = s.delta(a, b);
                    s.swap(a, b);
                    assert_eq!(s.cost() - before, d, "swap {a} {b}");
                    seen.insert(d);
                    s.swap(a, b);
                }
            }
            let (a, b) = (cells[rng.gen_range(0..9)], cells[rng.gen_range(0..9)]);
            s.swap(a, b);
        }
        // The walk met gains, losses and neutral swaps.
        assert!(
            seen.contains(&-2) && seen.contains(&0) && seen.contains(&2),
            "{seen:?}"
        );
    }

    #[test]
    fn the_step_cap_stops_a_run() {
        let p = parse_puzzle(EASY).unwrap();
        let opts = AnnealingOptions {
            max_steps: 10,
            ..AnnealingOptions::default()
        };
        let r = anneal(&p, &opts, &mut SeededRng::seed_from_u64(3));
        assert_eq!((r.steps, r.solved), (10, false));
    }
}
