//! Nishio human cycles of Eisenkolb-Vaithyanathan's Project Patti (§5.1-5.2,
//! Figure 3; §7.2-7.3; heuristic variant §9.1, Figure 8).
//!
//! The simulated solver knows 2, 3 or 4 strategies, always applied in this
//! order: naked single, hidden single, naked pair ("naked twins"), X-wing.
//! One **cycle** is one pass over its strategies, each applied repeatedly
//! until it stops making progress. Following Figure 3 (and Figure 8 for the
//! heuristic solver), a solve **starts with an assumption** (step 2), before
//! any strategy is applied (step 3), so even a puzzle the strategies solve
//! alone takes more than one cycle on average (the paper's smallest
//! puzzle mean is 1.30, the lower edge of Universal Easy).
//! [`NishioOrder::StrategiesFirst`] applies the strategies before the first
//! assumption instead: §9.2's "Step 1.5" advice to human solvers, kept as
//! an option. Cycles repeat until one changes nothing. Then:
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

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::Puzzle;
use crate::human::board::Board;
use crate::human::seeds::run_rng;
use crate::human::techniques::{Single, Technique, find, hidden_singles, naked_singles};
use crate::stats::Estimate;
use crate::stats::Summary;
use crate::util::bits as digits;
use rand::Rng;
use serde::Serialize;
use std::fmt;

const MODEL_TAG: u64 = 0x4e49_5348;

/// Patti's universal class boundaries on 4-strategy Nishio cycles (§8.2).
#[cfg(test)]
pub(crate) const UNIVERSAL_CUTS: [f64; 2] = [3.48, 6.52];

/// When the first assumption is made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NishioOrder {
    /// Figure 3 (and Figure 8): assume a candidate first (step 2), then
    /// apply the strategies (step 3). The paper's metric.
    #[default]
    GuessFirst,
    /// §9.2, "Step 1.5": apply the strategies until they stop, and assume a
    /// candidate only then; a puzzle the strategies solve takes no
    /// assumption.
    StrategiesFirst,
}

/// Parameters of the Nishio solvers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NishioOptions {
    /// Random starts averaged (paper: 50).
    pub runs: usize,
    /// A run stops with "cycle cap reached" after this many cycles.
    pub max_cycles: u64,
    /// Whether a solve starts with an assumption (Figure 3, the default) or
    /// with the strategies (§9.2).
    pub order: NishioOrder,
}

impl Default for NishioOptions {
    fn default() -> Self {
        NishioOptions {
            runs: 50,
            max_cycles: 200_000,
            order: NishioOrder::default(),
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
pub(crate) fn solved_by_strategies(puzzle: &Puzzle, strategies: usize) -> bool {
    let mut b = Board::new(puzzle);
    let mut cycles = 0;
    b.is_solved() || cycles_until_halt(&mut b, strategies.clamp(1, 4), &mut cycles) == Halt::Solved
}

/// Why one Nishio count could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NishioFailure {
    /// The strategies stalled with no open cell left to assume.
    #[error("no cell to assume")]
    NoCellToAssume,
    /// A contradiction with no assumption to undo.
    #[error("contradiction without assumption")]
    ContradictionWithoutAssumption,
    /// More cycles than `max_cycles`.
    #[error("cycle cap reached")]
    CycleCapReached,
    /// No run was made.
    #[error("no run")]
    NoRun,
}

/// One of the Nishio counts of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NishioCount {
    /// Random starts with this many strategies (2, 3 or 4).
    Random(u8),
    /// Patti's heuristic with 4 strategies.
    Heuristic,
}

impl fmt::Display for NishioCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NishioCount::Random(n) => write!(f, "{n} strategies"),
            NishioCount::Heuristic => f.write_str("heuristic"),
        }
    }
}

/// Why some of a row's Nishio counts are null: each count that failed, in
/// the row's order, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NishioNull(pub Vec<(NishioCount, NishioFailure)>);

impl fmt::Display for NishioNull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (count, why)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{count}: {why}")?;
        }
        Ok(())
    }
}

/// Nishio with a choice rule for the assumption; returns the cycle count.
fn nishio_run(
    puzzle: &Puzzle,
    strategies: usize,
    opts: &NishioOptions,
    choose: &mut impl FnMut(&Board) -> Option<(usize, u8)>,
) -> Result<u64, NishioFailure> {
    let max_cycles = opts.max_cycles;
    let strategies = strategies.clamp(1, 4);
    let mut b = Board::new(puzzle);
    if b.is_solved() {
        return Ok(0);
    }
    let mut stack: Vec<(Board, usize, u8)> = Vec::new();
    let mut cycles = 0u64;
    if opts.order == NishioOrder::GuessFirst {
        let Some((cell, d)) = choose(&b) else {
            return Err(NishioFailure::NoCellToAssume);
        };
        stack.push((b.clone(), cell, d));
        b.place(cell, d);
    }
    loop {
        match cycles_until_halt(&mut b, strategies, &mut cycles) {
            Halt::Solved => return Ok(cycles),
            Halt::Dead => {
                let Some((saved, cell, d)) = stack.pop() else {
                    return Err(NishioFailure::ContradictionWithoutAssumption);
                };
                b = saved;
                b.eliminate(cell, d);
            }
            Halt::Stuck => {
                let Some((cell, d)) = choose(&b) else {
                    return Err(NishioFailure::NoCellToAssume);
                };
                stack.push((b.clone(), cell, d));
                b.place(cell, d);
            }
        }
        if cycles > max_cycles {
            return Err(NishioFailure::CycleCapReached);
        }
    }
}

/// Randomized Nishio with `strategies` (2..=4) over `opts.runs` starts.
pub(crate) fn nishio_random(
    puzzle: &Puzzle,
    strategies: usize,
    opts: &NishioOptions,
    seed: u64,
) -> Result<Summary, NishioFailure> {
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
        xs.push(nishio_run(puzzle, strategies, opts, &mut choose)? as f64);
    }
    Summary::of(&xs).ok_or(NishioFailure::NoRun)
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
pub(crate) fn nishio_heuristic(
    puzzle: &Puzzle,
    strategies: usize,
    opts: &NishioOptions,
) -> Result<u64, NishioFailure> {
    nishio_run(puzzle, strategies, opts, &mut heuristic_choice)
}

/// The Nishio cycles' row: "solved by strategies alone", the random
/// starts with 2, 3 and 4 strategies and Patti's heuristic; a count that
/// cannot finish is named in `why_null` and leaves the others.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NishioRow {
    /// Cycles with 2 strategies (singles) over the random starts
    /// (`nishio2`, `_se`).
    pub nishio2: Option<Estimate>,
    /// Cycles with 3 strategies (singles, naked pair) over the random
    /// starts (`nishio3`, `_se`).
    pub nishio3: Option<Estimate>,
    /// Cycles with 4 strategies (singles, naked pair, X-wing) over the
    /// random starts (`nishio4`, `_sd`, `_se`); Patti's universal classes
    /// cut the mean at 3.48 and 6.52.
    pub nishio4: Option<Estimate>,
    /// Median of the 4-strategy cycles over the random starts.
    pub nishio4_median: Option<f64>,
    /// Cycles with 4 strategies when each assumption follows Patti's
    /// heuristic (deterministic).
    pub nishio4_heuristic: Option<f64>,
    /// Whether the 2 strategies alone (no assumption) solve the puzzle.
    pub solved_by_2: Option<bool>,
    /// Whether the 3 strategies alone solve the puzzle.
    pub solved_by_3: Option<bool>,
    /// Whether the 4 strategies alone solve the puzzle.
    pub solved_by_4: Option<bool>,
    /// The counts that could not be made, and why.
    pub why_null: Option<NishioNull>,
}

impl HumanModel for NishioRow {
    type Options = NishioOptions;
    fn runs(opts: &NishioOptions) -> Option<usize> {
        Some(opts.runs)
    }
    fn set_runs(opts: &mut NishioOptions, runs: usize) {
        opts.runs = runs;
    }
    fn rate(&mut self, on: &Rating<'_>, opts: &NishioOptions) {
        let (puzzle, seed) = (on.puzzle, on.seed);
        self.solved_by_2 = Some(solved_by_strategies(puzzle, 2));
        self.solved_by_3 = Some(solved_by_strategies(puzzle, 3));
        self.solved_by_4 = Some(solved_by_strategies(puzzle, 4));
        let mut failed = Vec::new();
        match nishio_random(puzzle, 2, opts, seed) {
            Ok(s) => self.nishio2 = Some(s.estimate()),
            Err(e) => failed.push((NishioCount::Random(2), e)),
        }
        match nishio_random(puzzle, 3, opts, seed) {
            Ok(s) => self.nishio3 = Some(s.estimate()),
            Err(e) => failed.push((NishioCount::Random(3), e)),
        }
        match nishio_random(puzzle, 4, opts, seed) {
            Ok(s) => {
                self.nishio4 = Some(s.estimate());
                self.nishio4_median = Some(s.median);
            }
            Err(e) => failed.push((NishioCount::Random(4), e)),
        }
        match nishio_heuristic(puzzle, 4, opts) {
            Ok(c) => self.nishio4_heuristic = Some(c as f64),
            Err(e) => failed.push((NishioCount::Heuristic, e)),
        }
        self.why_null = (!failed.is_empty()).then_some(NishioNull(failed));
    }
}

impl ModelRow for NishioRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full grid with three cells emptied: X = r1c1 (value 1), Y = r1c2
    /// (value 2) and Z = r4c1 (value 2). Worked by hand: X has candidates
    /// {1, 2}, Y and Z only {2}. Naked singles fill all three in one cycle.
    /// Assuming 2 in X first empties Y and Z: one cycle finds the dead cells,
    /// 2 is removed from X, and a second cycle solves.
    fn three_holes() -> Puzzle {
        let mut cells: Vec<u8> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((r * 3 + r / 3 + c) % 9 + 1) as u8
            })
            .collect();
        assert_eq!((cells[0], cells[1], cells[27]), (1, 2, 2));
        for i in [0, 1, 27] {
            cells[i] = 0;
        }
        Puzzle::from_cells(3, cells).unwrap()
    }

    fn run_with(order: NishioOrder, guess: (usize, u8)) -> (u64, usize) {
        let opts = NishioOptions {
            order,
            ..NishioOptions::default()
        };
        let mut asked = 0;
        let cycles = nishio_run(&three_holes(), 4, &opts, &mut |_: &Board| {
            asked += 1;
            Some(guess)
        })
        .unwrap();
        (cycles, asked)
    }

    #[test]
    fn figure_3_assumes_before_the_strategies_and_section_9_2_after() {
        let b = Board::new(&three_holes());
        assert_eq!((b.cands(0), b.cands(1), b.cands(27)), (0b110, 0b100, 0b100));
        // Figure 3: the wrong assumption comes first and costs a cycle.
        assert_eq!(run_with(NishioOrder::GuessFirst, (0, 2)), (2, 1));
        assert_eq!(run_with(NishioOrder::GuessFirst, (0, 1)), (1, 1));
        // §9.2: the strategies solve it before any assumption.
        assert_eq!(run_with(NishioOrder::StrategiesFirst, (0, 2)), (1, 0));
        // At random, one start in six assumes 2 in X: every start counts 1
        // or 2 cycles, so the mean is above 1 (expected 7/6) and below 2.
        let p = three_holes();
        let random = nishio_random(&p, 4, &NishioOptions::default(), 0).unwrap();
        assert!(random.mean > 1.0 && random.mean < 1.5, "{random:?}");
        assert_eq!(random.median, 1.0);
        let first = NishioOptions {
            order: NishioOrder::StrategiesFirst,
            ..NishioOptions::default()
        };
        let strategies_first = nishio_random(&p, 4, &first, 0).unwrap();
        assert_eq!((strategies_first.mean, strategies_first.sd), (1.0, 0.0));
        // Figure 8's heuristic picks a one-candidate cell: always right.
        assert_eq!(nishio_heuristic(&p, 4, &NishioOptions::default()), Ok(1));
    }
}
