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

use crate::grid::{Geometry, Puzzle};
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
    /// counts[line][digit], lines 0..N rows, N..2N columns.
    counts: Vec<Vec<u16>>,
}

impl State<'_> {
    fn line_cost(&self, line: usize) -> i64 {
        self.counts[line][1..].iter().filter(|&&c| c == 0).count() as i64
    }

    fn cost(&self) -> i64 {
        (0..2 * self.g.side).map(|l| self.line_cost(l)).sum()
    }

    /// The lines (row and column) two cells lie on, without repeats.
    fn lines(&self, a: usize, b: usize) -> Vec<usize> {
        let side = self.g.side;
        let mut ls = vec![a / side, b / side, side + a % side, side + b % side];
        ls.sort_unstable();
        ls.dedup();
        ls
    }

    fn swap(&mut self, a: usize, b: usize) {
        let side = self.g.side;
        let (da, db) = (self.grid[a] as usize, self.grid[b] as usize);
        for (cell, from, to) in [(a, da, db), (b, db, da)] {
            for line in [cell / side, side + cell % side] {
                self.counts[line][from] -= 1;
                self.counts[line][to] += 1;
            }
        }
        self.grid.swap(a, b);
    }

    /// Cost change of swapping `a` and `b`.
    fn delta(&mut self, a: usize, b: usize) -> i64 {
        let lines = self.lines(a, b);
        let before: i64 = lines.iter().map(|&l| self.line_cost(l)).sum();
        self.swap(a, b);
        let after: i64 = lines.iter().map(|&l| self.line_cost(l)).sum();
        self.swap(a, b);
        after - before
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
    let mut counts = vec![vec![0u16; side + 1]; 2 * side];
    for (cell, &d) in grid.iter().enumerate() {
        counts[cell / side][d as usize] += 1;
        counts[side + cell % side][d as usize] += 1;
    }
    let mut s = State { g, grid, counts };
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
    let t0 = crate::stats::Summary::of(&probe)
        .map_or(1.0, |x| x.sd)
        .max(0.5);
    let chain: u64 = free.iter().map(|f| (f.len() * f.len()) as u64).sum();
    let mut t = t0;
    let mut stale = 0usize;
    let mut steps = 0u64;
    while cost > 0 && steps < opts.max_steps {
        let began = cost;
        for _ in 0..chain {
            if cost == 0 || steps >= opts.max_steps {
                break;
            }
            steps += 1;
            let (a, b) = pick(rng, &free);
            let d = s.delta(a, b);
            if d <= 0 || rng.r#gen::<f64>() < (-(d as f64) / t).exp() {
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
