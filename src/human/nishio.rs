//! Nishio human cycles of Eisenkolb-Vaithyanathan's Project Patti (§5.1-5.2,
//! Figure 3; §7.2-7.3; heuristic variant §9.1, Figure 8).
//!
//! The simulated solver knows 2, 3 or 4 strategies, always applied in this
//! order: naked single, hidden single, naked pair ("naked twins"), X-wing.
//! One **cycle** is one pass over its strategies, each applied repeatedly
//! until it stops making progress. Cycles repeat until one changes nothing.
//! Then:
//! * solved: stop;
//! * some empty cell has no candidate: undo to the state before the last
//!   assumption and remove the assumed candidate there (and go on cycling);
//! * otherwise assume a candidate (Nishio, trial and error), keeping the
//!   current state, and go on cycling.
//!
//! The metric is the total number of cycles, including the last one of each
//! series that changes nothing, and stopping as soon as the grid is full.
//! The **randomized** solver picks a random unsolved cell and a random
//! candidate of it; the result is the mean over 50 random starts. The
//! **heuristic** solver picks the cell with fewest candidates (ties: the
//! highest sum over its candidates of how often each digit is a candidate on
//! the grid, then the first cell) and its most frequent candidate first (ties:
//! the smallest digit); it is deterministic. **Solved by strategies alone**
//! runs the cycles without any assumption.
//!
//! The only contradiction the solver looks for is the paper's one, an empty
//! cell without candidate. Patti's universal classes cut the 4-strategy
//! cycles at 3.48 and 6.52.

use super::Unfinished;
use super::board::Board;
use super::seeds::run_rng;
use super::techniques::{Single, Technique, find, hidden_singles, naked_singles};
use crate::grid::Puzzle;
use crate::stats::Summary;
use crate::util::bits as digits;
use rand::Rng;
use serde::Serialize;

const MODEL_TAG: u64 = 0x4e49_5348;

/// Patti's universal class boundaries on 4-strategy Nishio cycles (§8.2).
pub const UNIVERSAL_CUTS: [f64; 2] = [3.48, 6.52];

/// Parameters of the Nishio solvers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NishioOptions {
    /// Random starts averaged (paper: 50).
    pub runs: usize,
    /// A run stops with "cycle cap reached" after this many cycles.
    pub max_cycles: u64,
}

impl Default for NishioOptions {
    fn default() -> Self {
        NishioOptions {
            runs: 50,
            max_cycles: 200_000,
        }
    }
}

/// How a series of cycles ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Halt {
    Solved,
    Dead,
    Stuck,
}

fn place_singles(b: &mut Board, found: &[Single]) -> bool {
    let mut progress = false;
    for s in found {
        if b.value(s.cell) == 0 && b.cands(s.cell) & (1 << s.digit) != 0 {
            b.place(s.cell, s.digit);
            progress = true;
        }
    }
    progress
}

/// Applies strategy `i` (0-based in Patti's order) until it stops making
/// progress; true if it changed the board.
fn apply_strategy(b: &mut Board, i: usize, buf: &mut Vec<Single>) -> bool {
    let mut progress = false;
    loop {
        let step = match i {
            0 | 1 => {
                buf.clear();
                if i == 0 {
                    naked_singles(b, buf);
                } else {
                    hidden_singles(b, buf);
                }
                place_singles(b, buf)
            }
            _ => {
                let t = if i == 2 {
                    Technique::NakedPair
                } else {
                    Technique::XWing
                };
                let apps = find(t, b);
                let mut changed = false;
                for a in &apps {
                    changed |= a.apply(b);
                }
                changed
            }
        };
        if !step {
            return progress;
        }
        progress = true;
        if b.has_dead_cell() || b.is_solved() {
            return progress;
        }
    }
}

/// Runs cycles until solved, dead or no progress; adds them to `cycles`.
fn cycles_until_halt(b: &mut Board, strategies: usize, cycles: &mut u64) -> Halt {
    let mut buf = Vec::new();
    loop {
        *cycles += 1;
        let mut progress = false;
        for i in 0..strategies {
            progress |= apply_strategy(b, i, &mut buf);
            if b.has_dead_cell() {
                return Halt::Dead;
            }
            if b.is_solved() {
                return Halt::Solved;
            }
        }
        if !progress {
            return Halt::Stuck;
        }
    }
}

/// True when `strategies` (2, 3 or 4) solve the puzzle without assumption.
pub fn solved_by_strategies(puzzle: &Puzzle, strategies: usize) -> bool {
    let mut b = Board::new(puzzle);
    let mut cycles = 0;
    b.is_solved() || cycles_until_halt(&mut b, strategies.clamp(1, 4), &mut cycles) == Halt::Solved
}

/// Nishio with a choice rule for the assumption; returns the cycle count.
fn nishio_run(
    puzzle: &Puzzle,
    strategies: usize,
    max_cycles: u64,
    choose: &mut impl FnMut(&Board) -> Option<(usize, u8)>,
) -> Result<u64, Unfinished> {
    let strategies = strategies.clamp(1, 4);
    let mut b = Board::new(puzzle);
    if b.is_solved() {
        return Ok(0);
    }
    let mut stack: Vec<(Board, usize, u8)> = Vec::new();
    let mut cycles = 0u64;
    loop {
        match cycles_until_halt(&mut b, strategies, &mut cycles) {
            Halt::Solved => return Ok(cycles),
            Halt::Dead => {
                let Some((saved, cell, d)) = stack.pop() else {
                    return Err(Unfinished::new("contradiction without assumption"));
                };
                b = saved;
                b.eliminate(cell, d);
            }
            Halt::Stuck => {
                let Some((cell, d)) = choose(&b) else {
                    return Err(Unfinished::new("no cell to assume"));
                };
                stack.push((b.clone(), cell, d));
                b.place(cell, d);
            }
        }
        if cycles > max_cycles {
            return Err(Unfinished::new("cycle cap reached"));
        }
    }
}

/// Randomized Nishio with `strategies` (2..=4) over `opts.runs` starts.
pub fn nishio_random(
    puzzle: &Puzzle,
    strategies: usize,
    opts: &NishioOptions,
    seed: u64,
) -> Result<Summary, Unfinished> {
    let runs = opts.runs.max(1);
    let mut xs = Vec::with_capacity(runs);
    for i in 0..runs {
        let mut rng = run_rng(seed, MODEL_TAG + strategies as u64, i as u64);
        let mut choose = |b: &Board| {
            let open: Vec<usize> = (0..b.values().len())
                .filter(|&c| b.value(c) == 0 && b.cands(c) != 0)
                .collect();
            if open.is_empty() {
                return None;
            }
            let cell = open[rng.gen_range(0..open.len())];
            let ds: Vec<u8> = digits(b.cands(cell)).collect();
            Some((cell, ds[rng.gen_range(0..ds.len())]))
        };
        xs.push(nishio_run(puzzle, strategies, opts.max_cycles, &mut choose)? as f64);
    }
    Summary::of(&xs).ok_or_else(|| Unfinished::new("no run"))
}

/// Patti's heuristic choice: fewest candidates, then highest candidate
/// frequency sum; the most frequent candidate of that cell.
fn heuristic_choice(b: &Board) -> Option<(usize, u8)> {
    let freq = b.digit_frequencies();
    let mut best: Option<(u32, usize, usize)> = None;
    for c in 0..b.values().len() {
        let m = b.cands(c);
        if b.value(c) != 0 || m == 0 {
            continue;
        }
        let k = m.count_ones();
        let sum: usize = digits(m).map(|d| freq[d as usize]).sum();
        let better = match best {
            None => true,
            Some((bk, bsum, _)) => k < bk || (k == bk && sum > bsum),
        };
        if better {
            best = Some((k, sum, c));
        }
    }
    let (_, _, cell) = best?;
    let d = digits(b.cands(cell)).max_by_key(|&d| (freq[d as usize], std::cmp::Reverse(d)))?;
    Some((cell, d))
}

/// Heuristic (deterministic) Nishio cycles with `strategies` (2..=4).
pub fn nishio_heuristic(
    puzzle: &Puzzle,
    strategies: usize,
    opts: &NishioOptions,
) -> Result<u64, Unfinished> {
    nishio_run(puzzle, strategies, opts.max_cycles, &mut heuristic_choice)
}
