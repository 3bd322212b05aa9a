//! The oracle model of Fletcher, Johnson & Morrison ("A Trip to the Oracle",
//! "A Sudoku Difficulty Metric", "Scoring with tanh", Tables 1-2).
//!
//! A trial plays a solver who only knows singles: it fills naked singles scan
//! after scan until a scan finds none, then makes one pass of hidden singles,
//! and repeats. When neither finds anything it asks the *oracle*, which
//! reveals the solution value of an empty cell chosen at random; the oracle
//! stands for every technique beyond singles. Per trial, `N` and `H` are the
//! mean numbers of naked and hidden singles found per *scan through the
//! board*, and `O` is the number of oracle visits. A scan is one iteration of
//! Algorithm 1's "find all singles" loop: naked singles until none is left,
//! then one pass of hidden singles ([`ScanUnit::Round`], the default; every
//! round counts, the one that finds nothing before an oracle visit too).
//! This is the loop whose "number of iterations" the paper says the
//! algorithm keeps track of, and the reading that gives the larger singles
//! term the paper's observations point to (its Table 1 Cinch mean of 0.06
//! needs `αN + βH ≈ 4.5`; "a puzzle rated .85 that had no oracle visits"
//! needs `≈ 13.5`, which neither reading reaches on our puzzles:
//! `docs/generation.md`). The finer reading, where each search for naked
//! singles and each hidden pass
//! is a scan of its own (the one that finds nothing and ends a naked phase
//! included), is kept as [`ScanUnit::Search`].
//!
//! Over the trials (100 by default) with means `N̄`, `H̄`, `Ō`:
//! `s = αN̄ + βH̄ + γ(1 − e^{−δ(Ō−σ)})` with `γ = 0` when `Ō < 1` and `G`
//! otherwise, and the score `(1 + tanh(A(s − B)))/2 ∈ [0, 1]`. The paper
//! prints `e^{δ(Ō−σ)}`, which would make more oracle visits lower the score;
//! its text says each visit should add less than the previous one, which the
//! decaying form above does (`docs/methods.md` §3.2). Defaults are the paper's Table 2:
//! α = 0.1, β = 0.5, G = 15, δ = 0.5, σ = 1, A = 0.25, B = 10. Levels cut at
//! 0.18 / 0.6 / 0.8: Cinch, Confusing, Challenging, Crazy.

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::{Puzzle, Solution};
use crate::human::board::Board;
use crate::human::seeds::run_rng;
use crate::human::techniques::{Single, hidden_singles, naked_singles};
use crate::limits::OptionError;
use crate::stats::Estimate;
use crate::stats::Summary;
use rand::Rng;
use serde::Serialize;
use std::fmt;

const MODEL_TAG: u64 = 0x4f52_4143;

/// What `N` and `H` are counted per.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScanUnit {
    /// One iteration of Algorithm 1's singles loop (naked singles until none,
    /// then one hidden pass): the paper's "scan through the board".
    #[default]
    Round,
    /// Each search for naked singles and each hidden pass on its own.
    Search,
}

/// Parameters of the oracle score (paper's Table 2 by default).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OracleOptions {
    /// Trials averaged.
    pub trials: usize,
    /// What `N` and `H` are counted per (default: the paper's round).
    pub scan: ScanUnit,
    /// Weight of naked singles per scan.
    pub alpha: f64,
    /// Weight of hidden singles per scan.
    pub beta: f64,
    /// Oracle weight `G` (γ = G when Ō ≥ 1, else 0).
    pub big_g: f64,
    /// Steepness of the oracle term.
    pub delta: f64,
    /// Shift of the oracle term.
    pub sigma: f64,
    /// Spread of the tanh.
    pub a: f64,
    /// Shift of the tanh.
    pub b: f64,
    /// Upper score bounds of Cinch, Confusing and Challenging.
    pub level_cuts: [f64; 3],
}

impl Default for OracleOptions {
    fn default() -> Self {
        OracleOptions {
            trials: 100,
            scan: ScanUnit::default(),
            alpha: 0.1,
            beta: 0.5,
            big_g: 15.0,
            delta: 0.5,
            sigma: 1.0,
            a: 0.25,
            b: 10.0,
            level_cuts: [0.18, 0.6, 0.8],
        }
    }
}

/// The paper's four difficulty regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum OracleLevel {
    /// Score below `level_cuts[0]` (default 0.18).
    Cinch,
    /// Score from `level_cuts[0]` up to `level_cuts[1]` (default 0.18 to 0.6).
    Confusing,
    /// Score from `level_cuts[1]` up to `level_cuts[2]` (default 0.6 to 0.8).
    Challenging,
    /// Score of `level_cuts[2]` or more (default 0.8).
    Crazy,
}

impl OracleLevel {
    /// The four levels, easiest first.
    pub const ALL: [OracleLevel; 4] = [
        OracleLevel::Cinch,
        OracleLevel::Confusing,
        OracleLevel::Challenging,
        OracleLevel::Crazy,
    ];

    /// The level's name, as every output prints it.
    pub const fn name(self) -> &'static str {
        match self {
            OracleLevel::Cinch => "Cinch",
            OracleLevel::Confusing => "Confusing",
            OracleLevel::Challenging => "Challenging",
            OracleLevel::Crazy => "Crazy",
        }
    }
}

impl fmt::Display for OracleLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the oracle model measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct OracleResult {
    /// Scaled score in [0, 1].
    pub score: f64,
    /// Standard error of the score over the trials: the delete-one
    /// jackknife of the score as a function of the trial means `N̄`, `H̄`,
    /// `Ō` (`crate::stats::jackknife_se`); `None` for a single trial.
    pub score_se: Option<f64>,
    /// Level of [`score`](Self::score) under [`OracleOptions::level_cuts`].
    pub level: OracleLevel,
    /// Unscaled score `s`.
    pub unscaled: f64,
    /// `N̄`: naked singles per scan, averaged over trials.
    pub naked_per_scan: f64,
    /// `H̄`: hidden singles per scan, averaged over trials.
    pub hidden_per_scan: f64,
    /// Naked singles filled per trial (mean over trials).
    pub naked_total: f64,
    /// Hidden singles filled per trial (mean over trials).
    pub hidden_total: f64,
    /// Scans per trial in the unit of [`OracleOptions::scan`] (mean over
    /// trials).
    pub scans: f64,
    /// Oracle visits per trial.
    pub visits: Summary,
}

impl OracleOptions {
    /// Refuses a parameter that is not a finite number.
    pub(crate) fn check(&self) -> Result<(), OptionError> {
        for (name, value) in [
            ("alpha", self.alpha),
            ("beta", self.beta),
            ("G", self.big_g),
            ("delta", self.delta),
            ("sigma", self.sigma),
            ("A", self.a),
            ("B", self.b),
        ] {
            if !value.is_finite() {
                return Err(OptionError::NotFinite {
                    name: format!("oracle parameter {name}"),
                    value,
                });
            }
        }
        Ok(())
    }

    /// Unscaled score from the trial means.
    pub fn unscaled(&self, n: f64, h: f64, o: f64) -> f64 {
        let gamma = if o < 1.0 { 0.0 } else { self.big_g };
        self.alpha * n + self.beta * h + gamma * (1.0 - (-self.delta * (o - self.sigma)).exp())
    }

    /// Scaled score of an unscaled one.
    pub fn scaled(&self, s: f64) -> f64 {
        (1.0 + (self.a * (s - self.b)).tanh()) / 2.0
    }

    /// The scores of a level, `[lo, hi)` (the ends of Cinch and Crazy are
    /// infinite).
    pub fn level_range(&self, level: OracleLevel) -> (f64, f64) {
        let [c1, c2, c3] = self.level_cuts;
        match level {
            OracleLevel::Cinch => (f64::NEG_INFINITY, c1),
            OracleLevel::Confusing => (c1, c2),
            OracleLevel::Challenging => (c2, c3),
            OracleLevel::Crazy => (c3, f64::INFINITY),
        }
    }

    /// How sure the level of `score` is: the probability, under the normal
    /// approximation with the score's standard error `se`, that the score
    /// of infinitely many trials lies in the level of `score`
    /// (1 with no sampling error).
    pub fn level_confidence(&self, score: f64, se: f64) -> f64 {
        let (lo, hi) = self.level_range(self.level(score));
        crate::stats::probability_in(score, se, lo, hi)
    }

    /// Level of a scaled score.
    pub fn level(&self, score: f64) -> OracleLevel {
        let [c1, c2, c3] = self.level_cuts;
        if score < c1 {
            OracleLevel::Cinch
        } else if score < c2 {
            OracleLevel::Confusing
        } else if score < c3 {
            OracleLevel::Challenging
        } else {
            OracleLevel::Crazy
        }
    }
}

fn place_all(b: &mut Board, found: &[Single]) -> usize {
    let mut placed = 0;
    for s in found {
        if b.value(s.cell) == 0 && b.cands(s.cell) & (1 << s.digit) != 0 {
            b.place(s.cell, s.digit);
            placed += 1;
        }
    }
    placed
}

/// Counts of one trial.
struct Trial {
    naked_per_scan: f64,
    hidden_per_scan: f64,
    naked: usize,
    hidden: usize,
    scans: usize,
    visits: usize,
}

/// A trial in progress: the board and the counts so far.
#[derive(Clone)]
struct Walk {
    b: Board,
    nscans: usize,
    nfound: usize,
    hscans: usize,
    hfound: usize,
    rounds: usize,
    visits: usize,
}

impl Walk {
    fn new(puzzle: &Puzzle) -> Walk {
        Walk {
            b: Board::new(puzzle),
            nscans: 0,
            nfound: 0,
            hscans: 0,
            hfound: 0,
            rounds: 0,
            visits: 0,
        }
    }

    /// Singles as the trial finds them (naked scans until one finds none,
    /// then one hidden pass, repeated) until the board is solved (true) or
    /// a round makes no progress and the oracle must be asked (false).
    /// Uses no randomness.
    fn singles(&mut self, buf: &mut Vec<Single>) -> bool {
        while !self.b.is_solved() {
            self.rounds += 1;
            let mut progress = false;
            loop {
                buf.clear();
                naked_singles(&self.b, buf);
                self.nscans += 1;
                let placed = place_all(&mut self.b, buf);
                self.nfound += placed;
                progress |= placed > 0;
                if placed == 0 || self.b.is_solved() {
                    break;
                }
            }
            if self.b.is_solved() {
                break;
            }
            buf.clear();
            hidden_singles(&self.b, buf);
            self.hscans += 1;
            let placed = place_all(&mut self.b, buf);
            self.hfound += placed;
            progress |= placed > 0;
            if !progress {
                return false;
            }
        }
        true
    }

    /// The oracle reveals the solution value of a random empty cell.
    fn ask_oracle(&mut self, solution: &Solution, rng: &mut impl Rng) {
        let empties: Vec<usize> = (0..self.b.values().len())
            .filter(|&c| self.b.value(c) == 0)
            .collect();
        let cell = empties[rng.gen_range(0..empties.len())];
        self.b.place(cell, solution.get(cell));
        self.visits += 1;
    }

    fn counts(&self, unit: ScanUnit) -> Trial {
        let per = |found: usize, scans: usize| {
            if scans == 0 {
                0.0
            } else {
                found as f64 / scans as f64
            }
        };
        let (nscans, hscans, scans) = match unit {
            ScanUnit::Round => (self.rounds, self.rounds, self.rounds),
            ScanUnit::Search => (self.nscans, self.hscans, self.nscans + self.hscans),
        };
        Trial {
            naked_per_scan: per(self.nfound, nscans),
            hidden_per_scan: per(self.hfound, hscans),
            naked: self.nfound,
            hidden: self.hfound,
            scans,
            visits: self.visits,
        }
    }
}

/// One trial, continuing from `start`: the walk up to the first oracle
/// visit uses no randomness, so every trial shares it (and when singles
/// solve the puzzle, every trial is that walk).
fn trial(
    start: &Walk,
    solved: bool,
    solution: &Solution,
    unit: ScanUnit,
    rng: &mut impl Rng,
) -> Trial {
    if solved {
        return start.counts(unit);
    }
    let mut w = start.clone();
    let mut buf = Vec::new();
    loop {
        w.ask_oracle(solution, rng);
        if w.singles(&mut buf) {
            return w.counts(unit);
        }
    }
}

/// Runs the oracle model; trial `i` uses `crate::human::seeds::run_seed`.
pub(crate) fn oracle(
    puzzle: &Puzzle,
    solution: &Solution,
    opts: &OracleOptions,
    seed: u64,
) -> OracleResult {
    let trials = opts.trials.max(1);
    let mut ns = Vec::with_capacity(trials);
    let mut hs = Vec::with_capacity(trials);
    let mut os = Vec::with_capacity(trials);
    let (mut nt, mut ht, mut st) = (0, 0, 0);
    let mut start = Walk::new(puzzle);
    let solved = start.singles(&mut Vec::new());
    for i in 0..trials {
        let mut rng = run_rng(seed, MODEL_TAG, i as u64);
        let t = trial(&start, solved, solution, opts.scan, &mut rng);
        ns.push(t.naked_per_scan);
        hs.push(t.hidden_per_scan);
        os.push(t.visits as f64);
        nt += t.naked;
        ht += t.hidden;
        st += t.scans;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (n, h) = (mean(&ns), mean(&hs));
    let visits = Summary::of(&os).unwrap_or(Summary {
        mean: 0.0,
        median: 0.0,
        sd: 0.0,
        n: 0,
    });
    let unscaled = opts.unscaled(n, h, visits.mean);
    let score = opts.scaled(unscaled);
    let (sn, sh, so) = (
        ns.iter().sum::<f64>(),
        hs.iter().sum::<f64>(),
        os.iter().sum::<f64>(),
    );
    let rest = (trials.max(2) - 1) as f64;
    let score_se = crate::stats::jackknife_se(trials, |i| {
        opts.scaled(opts.unscaled(
            (sn - ns[i]) / rest,
            (sh - hs[i]) / rest,
            (so - os[i]) / rest,
        ))
    });
    OracleResult {
        score,
        score_se,
        level: opts.level(score),
        unscaled,
        naked_per_scan: n,
        hidden_per_scan: h,
        naked_total: nt as f64 / trials as f64,
        hidden_total: ht as f64 / trials as f64,
        scans: st as f64 / trials as f64,
        visits,
    }
}

/// Why the oracle's level is null while its score is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OracleNull {
    /// Fletcher et al.'s cut points are defined for 9×9 puzzles only.
    #[error("levels are defined for 9×9 only")]
    LevelNotNineByNine,
}

/// The oracle model's row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OracleRow {
    /// Oracle score `(1 + tanh(A·(s − B)))/2`, in [0, 1]. A function of
    /// three run means, not a mean itself, so no [`Estimate`]: its standard
    /// error is `score_se`.
    pub score: Option<f64>,
    /// Standard error of the score over the trials (delete-one jackknife,
    /// `docs/methods.md` §3.10); null for a single trial.
    pub score_se: Option<f64>,
    /// Level of the score: `Cinch`, `Confusing`, `Challenging` or `Crazy`;
    /// null for orders other than 9×9.
    pub level: Option<OracleLevel>,
    /// How sure the level is: the probability, under the normal
    /// approximation with `score_se`, that the score of infinitely many
    /// trials is in the stated level, in [0, 1]; null with the level.
    pub level_confidence: Option<f64>,
    /// Oracle visits per trial over the trials (`Ō`; `oracle_visits`,
    /// `_sd`, `_se`).
    pub visits: Option<Estimate>,
    /// Why the level is null while the score is not.
    pub why_null: Option<OracleNull>,
}

impl OracleRow {
    /// The row of a result; the level only for a 9×9 puzzle (`order` 3),
    /// the only size Fletcher et al.'s cut points are defined for.
    pub(crate) fn of(r: &OracleResult, opts: &OracleOptions, order: usize) -> OracleRow {
        let level = (order == 3).then_some(r.level);
        OracleRow {
            score: Some(r.score),
            score_se: r.score_se,
            level,
            level_confidence: level
                .and(r.score_se)
                .map(|se| opts.level_confidence(r.score, se)),
            visits: Some(r.visits.estimate()),
            why_null: (order != 3).then_some(OracleNull::LevelNotNineByNine),
        }
    }
}

impl HumanModel for OracleRow {
    type Options = OracleOptions;
    fn runs(opts: &OracleOptions) -> Option<usize> {
        Some(opts.trials)
    }
    fn set_runs(opts: &mut OracleOptions, runs: usize) {
        opts.trials = runs;
    }
    fn rate(&mut self, on: &Rating<'_>, opts: &OracleOptions) {
        let r = oracle(on.puzzle, on.solution, opts, on.seed);
        *self = OracleRow::of(&r, opts, on.puzzle.order());
    }
}

impl ModelRow for OracleRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.map(|why| WhyNull {
            level_only: true,
            text: why.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full grid with r1c1 (1), r1c2 (2) and r4c1 (2) emptied. Worked by
    /// hand: the first naked-singles search finds r1c2 and r4c1 (r1c1 still
    /// has {1, 2}), the second finds r1c1 and the grid is full. One round,
    /// three naked singles, no hidden single, no visit.
    fn three_holes() -> (Puzzle, Solution) {
        let full: Vec<u8> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((r * 3 + r / 3 + c) % 9 + 1) as u8
            })
            .collect();
        let mut cells = full.clone();
        for i in [0, 1, 27] {
            cells[i] = 0;
        }
        (
            Puzzle::from_cells(3, cells).unwrap(),
            Solution::from_cells(3, full).unwrap(),
        )
    }

    #[test]
    fn singles_are_counted_per_round_of_algorithm_1() {
        let (p, sol) = three_holes();
        let o = OracleOptions::default();
        let r = oracle(&p, &sol, &o, 0);
        assert_eq!(
            (r.naked_per_scan, r.hidden_per_scan, r.scans),
            (3.0, 0.0, 1.0)
        );
        assert_eq!(r.visits.mean, 0.0);
        // Singles solve it: every trial is the same walk, no sampling error.
        assert_eq!(r.score_se, Some(0.0));
        assert!((r.unscaled - 0.3).abs() < 1e-12);
        let expected = (1.0 + (0.25f64 * (0.3 - 10.0)).tanh()) / 2.0;
        assert!((r.score - expected).abs() < 1e-12);
        let search = OracleOptions {
            scan: ScanUnit::Search,
            ..OracleOptions::default()
        };
        let r = oracle(&p, &sol, &search, 0);
        assert_eq!((r.naked_per_scan, r.scans), (1.5, 2.0));
    }

    /// Equation 1 with the decaying exponential: each visit adds less than
    /// the one before, and γ = 0 below one visit. (The printed
    /// `1 − e^{δ(Ō−σ)}` would give 15·(1 − e) ≈ −25.8 at Ō = 3: more visits,
    /// lower score.) The paper's dividing regions follow: no visit and few
    /// singles is Cinch, three visits reach Challenging.
    /// A score one standard error inside Challenging's lower cut and far
    /// from its upper one is Challenging with probability Φ(1).
    #[test]
    fn level_confidence_is_the_normal_mass_of_the_level() {
        let o = OracleOptions::default();
        assert_eq!(o.level_range(OracleLevel::Challenging), (0.6, 0.8));
        let c = o.level_confidence(0.62, 0.02);
        assert!(
            (c - (crate::stats::normal_cdf(1.0) - crate::stats::normal_cdf(-9.0))).abs() < 1e-9
        );
        assert_eq!(o.level_confidence(0.9, 0.0), 1.0);
        // On a cut it is a coin toss.
        assert!((o.level_confidence(0.8, 0.01) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn equation_1_oracle_term_grows_and_saturates() {
        let o = OracleOptions::default();
        assert_eq!(o.unscaled(0.0, 0.0, 0.5), 0.0);
        assert!(o.unscaled(0.0, 0.0, 1.0).abs() < 1e-12);
        let two = o.unscaled(0.0, 0.0, 2.0);
        let three = o.unscaled(0.0, 0.0, 3.0);
        assert!((three - 15.0 * (1.0 - (-1.0f64).exp())).abs() < 1e-12);
        assert!(two > 0.0 && three - two < two);
        assert_eq!(
            o.level(o.scaled(o.unscaled(10.0, 2.0, 0.0))),
            OracleLevel::Cinch
        );
        assert_eq!(
            o.level(o.scaled(o.unscaled(10.0, 2.0, 3.0))),
            OracleLevel::Challenging
        );
    }
}
