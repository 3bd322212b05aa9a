//! The singles model: how hard the moves of a simple puzzle are to find.
//!
//! Most puzzles people play are solved by singles alone, where the hardest
//! step says nothing (it is always a single). Pelánek's overview
//! (`../shared/papers/pelanek-difficulty-rating-overview.txt`, "Dependency
//! Metrics" and Tables 2–3; `docs/methods.md` §3.8) finds that the
//! *dependency* of the steps — how many moves are available while solving —
//! separates simple puzzles, that it is partly orthogonal to the hardest
//! step, and that its window `k` must be tuned per data set (20–30 there).
//! This model measures the same idea with what human solvers find first:
//!
//! * **hidden-single dependency** (`singles_dependency`): over random runs
//!   that fill one cell a single allows per step (uniformly among the cells
//!   naked or hidden singles can fill), the mean number of cells a *hidden*
//!   single can fill in the first `window` steps (default 30, chosen on
//!   human solving times: `examples/singles_window.rs`). When no
//!   single applies, the run counts 0 and places the solution value in the
//!   empty cell with the fewest candidates (the step a harder technique
//!   finds), so the measure is defined for every puzzle;
//! * **box reach** (`singles_box_reach`): the share of the empty cells that
//!   hidden singles in boxes alone fill, applied until none is left
//!   (cross-hatching, the first technique people learn);
//! * **hidden reach** (`singles_hidden_reach`): the same with hidden singles
//!   in every unit;
//! * **naked reach** (`singles_naked_reach`): the share naked singles alone
//!   fill (the other half of the hidden-versus-naked mix: a puzzle naked
//!   singles finish never needs a player to scan a unit for a digit's
//!   places).
//!
//! Fewer available moves and a shorter reach mean a longer search for the
//! next move. The reaches are deterministic; the dependency is a mean
//! over seeded runs (the per-run seeds of every human model).

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::{Puzzle, Solution};
use crate::human::board::Board;
use crate::human::seeds::run_rng;
use crate::human::techniques::{Single, hidden_singles, naked_singles};
use crate::stats::Estimate;
use crate::stats::Summary;
use rand::Rng;
use serde::Serialize;

const MODEL_TAG: u64 = 0x5349_4e47;

/// Parameters of the singles model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SinglesOptions {
    /// Randomized runs of the dependency (default 30, as SiSuS).
    pub runs: usize,
    /// Steps the dependency averages (default 30).
    pub window: usize,
}

impl Default for SinglesOptions {
    fn default() -> Self {
        SinglesOptions {
            runs: 30,
            window: 30,
        }
    }
}

/// What the singles model measured on a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct SinglesResult {
    /// Cells a hidden single can fill per step over the first `window`
    /// steps, per run.
    pub dependency: Summary,
    /// Share of the empty cells hidden singles in boxes alone fill, in [0, 1].
    pub box_reach: f64,
    /// Share of the empty cells hidden singles alone fill, in [0, 1].
    pub hidden_reach: f64,
    /// Share of the empty cells naked singles alone fill, in [0, 1].
    pub naked_reach: f64,
}

/// Scratch space of [`cells_of`]: one bit per cell and the digit of each
/// marked cell, reused from step to step.
struct CellMarks {
    words: Vec<u64>,
    digit: Vec<u8>,
}

impl CellMarks {
    fn new(cells: usize) -> CellMarks {
        CellMarks {
            words: vec![0; cells.div_ceil(64)],
            digit: vec![0; cells],
        }
    }
}

/// Distinct cells in `singles`, sorted by cell, into `out`. Every single of
/// a board whose placements are all correct places the solution's digit,
/// so the singles naming one cell agree on its digit.
fn cells_of(singles: &[Single], marks: &mut CellMarks, out: &mut Vec<(usize, u8)>) {
    out.clear();
    for s in singles {
        marks.words[s.cell / 64] |= 1 << (s.cell % 64);
        marks.digit[s.cell] = s.digit;
    }
    for (w, word) in marks.words.iter_mut().enumerate() {
        let mut rest = std::mem::take(word);
        while rest != 0 {
            let cell = w * 64 + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out.push((cell, marks.digit[cell]));
        }
    }
}

/// One run: hidden-single cells per step over the first `window` steps.
fn run_once(puzzle: &Puzzle, solution: &Solution, window: usize, rng: &mut impl Rng) -> f64 {
    let mut b = Board::new(puzzle);
    let mut counts = Vec::with_capacity(window);
    let mut hidden = Vec::new();
    let mut naked = Vec::new();
    let mut hidden_cells = Vec::new();
    let mut fillable = Vec::new();
    let mut marks = CellMarks::new(b.values().len());
    while !b.is_solved() && counts.len() < window {
        hidden.clear();
        naked.clear();
        hidden_singles(&b, &mut hidden);
        naked_singles(&b, &mut naked);
        cells_of(&hidden, &mut marks, &mut hidden_cells);
        counts.push(hidden_cells.len());
        hidden.extend_from_slice(&naked);
        cells_of(&hidden, &mut marks, &mut fillable);
        let (cell, digit) = if fillable.is_empty() {
            let cells = b.values().len();
            match (0..cells)
                .filter(|&c| b.value(c) == 0)
                .min_by_key(|&c| b.cands(c).count_ones())
            {
                Some(c) => (c, solution.get(c)),
                None => break,
            }
        } else {
            fillable[rng.gen_range(0..fillable.len())]
        };
        b.place(cell, digit);
    }
    if counts.is_empty() {
        return 0.0;
    }
    counts.iter().sum::<usize>() as f64 / counts.len() as f64
}

/// Share of the empty cells that hidden singles in the units `keep` accepts
/// fill, applied until none is left, on a puzzle with one solution.
///
/// Such a single places the solution's digit, and it stays a single (or
/// its cell filled with that digit) whatever correct digits are placed
/// elsewhere, since a digit's places in a unit only shrink and keep the
/// solution's cell. So every order of application reaches the same cells,
/// and each scan places all the singles it finds.
fn reach(puzzle: &Puzzle, keep: impl Fn(usize) -> bool) -> f64 {
    reach_with(puzzle, |b, found| {
        hidden_singles(b, found);
        found.retain(|s| s.unit.is_some_and(&keep));
    })
}

/// Share of the empty cells naked singles fill, applied until none is left,
/// on a puzzle with one solution. A naked single of a board whose
/// placements are correct places the solution's digit and stays one (a
/// cell's candidates only shrink and keep the solution's digit), so the
/// order of application does not matter, as for [`reach`].
fn naked_reach(puzzle: &Puzzle) -> f64 {
    reach_with(puzzle, naked_singles)
}

/// Share of the empty cells the singles `find` puts into its vector fill,
/// each scan placing all it finds, until a scan finds none.
fn reach_with(puzzle: &Puzzle, mut find: impl FnMut(&Board, &mut Vec<Single>)) -> f64 {
    let mut b = Board::new(puzzle);
    let start = b.empty_count();
    if start == 0 {
        return 1.0;
    }
    let mut found = Vec::new();
    loop {
        found.clear();
        find(&b, &mut found);
        let before = b.empty_count();
        for s in &found {
            if b.value(s.cell) == 0 {
                b.place(s.cell, s.digit);
            }
        }
        if b.empty_count() == before {
            break;
        }
    }
    1.0 - b.empty_count() as f64 / start as f64
}

/// Runs the singles model on a puzzle with its (unique) solution; run `i`
/// of the dependency uses the run seed of `(seed, MODEL_TAG, i)`.
pub(crate) fn singles(
    puzzle: &Puzzle,
    solution: &Solution,
    opts: &SinglesOptions,
    seed: u64,
) -> SinglesResult {
    let runs = opts.runs.max(1);
    let deps: Vec<f64> = (0..runs)
        .map(|i| {
            let mut rng = run_rng(seed, MODEL_TAG, i as u64);
            run_once(puzzle, solution, opts.window.max(1), &mut rng)
        })
        .collect();
    let first_box = 2 * puzzle.side();
    SinglesResult {
        dependency: Summary::of(&deps).unwrap_or(Summary {
            mean: 0.0,
            median: 0.0,
            sd: 0.0,
            n: 0,
        }),
        box_reach: reach(puzzle, |u| u >= first_box),
        hidden_reach: reach(puzzle, |_| true),
        naked_reach: naked_reach(puzzle),
    }
}

/// The singles model's row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SinglesRow {
    /// Cells a hidden single can fill per step over the first 30 steps,
    /// over the runs (`singles_dependency`, `_sd`, `_se`); lower is harder.
    pub dependency: Option<Estimate>,
    /// Share of the empty cells hidden singles in boxes alone fill, in
    /// [0, 1]; lower is harder.
    pub box_reach: Option<f64>,
    /// Share of the empty cells hidden singles alone fill.
    pub hidden_reach: Option<f64>,
    /// Share of the empty cells naked singles alone fill.
    pub naked_reach: Option<f64>,
}

impl HumanModel for SinglesRow {
    type Options = SinglesOptions;
    fn runs(opts: &SinglesOptions) -> Option<usize> {
        Some(opts.runs)
    }
    fn set_runs(opts: &mut SinglesOptions, runs: usize) {
        opts.runs = runs;
    }
    fn rate(&mut self, on: &Rating<'_>, opts: &SinglesOptions) {
        let r = singles(on.puzzle, on.solution, opts, on.seed);
        *self = SinglesRow {
            dependency: Some(r.dependency.estimate()),
            box_reach: Some(r.box_reach),
            hidden_reach: Some(r.hidden_reach),
            naked_reach: Some(r.naked_reach),
        };
    }
}

impl ModelRow for SinglesRow {
    fn why_null(&self) -> Option<WhyNull> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;
    use crate::human::solver::{Solved, solve};

    fn solved(text: &str) -> (Puzzle, Solution) {
        let p = parse_puzzle(text).unwrap();
        match solve(&p) {
            Solved::Unique(s) => (p, s),
            _ => panic!("not unique"),
        }
    }

    #[test]
    fn one_empty_cell_has_one_hidden_single_and_full_reach() {
        // A solved grid with its first cell emptied: one move, found by a
        // hidden single in its box (and row and column).
        let (p, s) = solved(
            ".34678912672195348198342567859761423426853791713924856961537284287419635345286179",
        );
        let r = singles(&p, &s, &SinglesOptions::default(), 1);
        assert_eq!(r.dependency.mean, 1.0);
        assert_eq!(r.dependency.sd, 0.0);
        assert_eq!(
            (r.box_reach, r.hidden_reach, r.naked_reach),
            (1.0, 1.0, 1.0)
        );
    }

    #[test]
    fn a_puzzle_harder_than_singles_reaches_less_and_is_seeded() {
        // AI Escargot: no single at the start.
        let (p, s) = solved(
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        );
        let o = SinglesOptions::default();
        let r = singles(&p, &s, &o, 7);
        assert!(r.box_reach < 0.2 && r.hidden_reach < 0.2, "{r:?}");
        assert!(r.box_reach <= r.hidden_reach);
        assert!(r.naked_reach < 0.2, "{r:?}");
        assert_eq!(r, singles(&p, &s, &o, 7));
        // The easy example has more hidden-single moves per step.
        let (e, es) = solved(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let easy = singles(&e, &es, &o, 7);
        assert!(easy.dependency.mean > r.dependency.mean, "{easy:?} {r:?}");
        assert_eq!(easy.hidden_reach, 1.0);
    }

    /// Naked singles applied by hand: every round recomputes each empty
    /// cell's candidates from its filled peers and fills the cells left
    /// with one, until a round fills none.
    fn naked_reach_by_hand(p: &Puzzle) -> f64 {
        let side = p.side();
        let n = p.order();
        let mut v: Vec<u8> = p.cells().to_vec();
        let peers = |a: usize, b: usize| {
            let (ra, ca, rb, cb) = (a / side, a % side, b / side, b % side);
            a != b && (ra == rb || ca == cb || (ra / n == rb / n && ca / n == cb / n))
        };
        let start = v.iter().filter(|&&x| x == 0).count();
        loop {
            let fills: Vec<(usize, u8)> = (0..v.len())
                .filter(|&c| v[c] == 0)
                .filter_map(|c| {
                    let open: Vec<u8> = (1..=side as u8)
                        .filter(|&d| !(0..v.len()).any(|o| peers(c, o) && v[o] == d))
                        .collect();
                    (open.len() == 1).then(|| (c, open[0]))
                })
                .collect();
            if fills.is_empty() {
                break;
            }
            for (c, d) in fills {
                v[c] = d;
            }
        }
        let left = v.iter().filter(|&&x| x == 0).count();
        1.0 - left as f64 / start as f64
    }

    #[test]
    fn naked_reach_agrees_with_naked_singles_by_hand() {
        let mut seen_partial = false;
        let mut puzzles: Vec<Puzzle> = crate::grid::Puzzle::examples();
        puzzles.push(
            parse_puzzle(
                "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            )
            .unwrap(),
        );
        for p in puzzles {
            let Solved::Unique(s) = solve(&p) else {
                continue;
            };
            let r = singles(&p, &s, &SinglesOptions::default(), 1);
            let want = naked_reach_by_hand(&p);
            assert!(
                (r.naked_reach - want).abs() < 1e-12,
                "{}: {r:?} vs {want}",
                p.to_line()
            );
            seen_partial |= want > 0.0 && want < 1.0;
        }
        assert!(seen_partial, "no example stops naked singles part-way");
    }
}
