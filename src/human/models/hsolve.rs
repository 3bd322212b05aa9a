//! hsolve, the expected-search-time model of Chang, Fan & Sun (§3.1
//! "HumanSolve", §3.2 "hsolve and Metric Calculation", Lemma 1).
//!
//! A human looks for an application of the easiest tier of techniques not
//! yet searched on the current board, checking the `p` possible
//! configurations of that tier in random order until one of the `v` valid
//! ones turns up. The expected number of checks is `E(p, v) = (p + 1)/(v + 1)`
//! (Lemma 1). hsolve adds `E(p, v)` to the difficulty for every tier it
//! searches — a tier with no valid application costs `E(p, 0) = p + 1`,
//! a full search, as in the paper's step 2 where each tier searched adds its
//! expected time; set `count_failed_tiers = false` to charge only the tier
//! that succeeds — then applies one valid application chosen at random, and
//! starts again from the easiest tier. The metric is the mean difficulty over
//! runs (20 by default, the paper's value).
//!
//! The paper's appendix listing the strategies and their "possible
//! applications" is not in our copy; `p` is defined per technique in
//! [`crate::human::techniques::possible_count`]. The default tiers are the engine's
//! techniques one per tier, simplest first. A puzzle the tiers cannot finish
//! is reported as "needs search".

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::Puzzle;
use crate::human::board::Board;
use crate::human::seeds::run_rng;
use crate::human::techniques::{
    Single, Technique, find, hidden_singles, naked_singles, possible_count,
};
use crate::stats::Estimate;
use crate::stats::Summary;
use rand::Rng;
use serde::Serialize;

const MODEL_TAG: u64 = 0x4853_4f4c;

/// Parameters of hsolve.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HsolveOptions {
    /// Randomized runs averaged (paper: 20).
    pub runs: usize,
    /// Tiers of techniques, easiest first.
    pub tiers: Vec<Vec<Technique>>,
    /// Charge `E(p, 0) = p + 1` for every tier searched in vain.
    pub count_failed_tiers: bool,
}

impl Default for HsolveOptions {
    fn default() -> Self {
        HsolveOptions {
            runs: 20,
            tiers: Technique::ALL.iter().map(|&t| vec![t]).collect(),
            count_failed_tiers: true,
        }
    }
}

/// Expected checks before the first of `v` valid among `p` possible
/// applications (Chang et al., Lemma 1).
pub(crate) fn expected_checks(p: usize, v: usize) -> f64 {
    (p as f64 + 1.0) / (v as f64 + 1.0)
}

/// Whether a technique is a single, found by the fast singles scan.
fn is_single(t: Technique) -> bool {
    matches!(t, Technique::NakedSingle | Technique::HiddenSingle)
}

/// Appends the singles of technique `t` in the order of [`find`]'s list.
fn singles_of(t: Technique, b: &Board, out: &mut Vec<Single>) {
    match t {
        Technique::NakedSingle => naked_singles(b, out),
        _ => hidden_singles(b, out),
    }
}

/// One run's difficulty; `None` when the tiers get stuck.
///
/// A tier made of singles only is searched with the fast singles scan
/// into a reused buffer: it lists the same singles in the same order as
/// [`find`], so the same one is picked, without building an
/// [`crate::human::Application`] for each.
fn run_once(puzzle: &Puzzle, opts: &HsolveOptions, rng: &mut impl Rng) -> Option<f64> {
    let mut b = Board::new(puzzle);
    let mut d = 0.0;
    let single_tiers: Vec<bool> = opts
        .tiers
        .iter()
        .map(|tier| tier.iter().all(|&t| is_single(t)))
        .collect();
    let mut singles = Vec::new();
    let mut valid = Vec::new();
    'steps: while !b.is_solved() {
        for (tier, &only_singles) in opts.tiers.iter().zip(&single_tiers) {
            let mut p = 0;
            let found = if only_singles {
                singles.clear();
                for &t in tier {
                    p += possible_count(t, &b);
                    singles_of(t, &b, &mut singles);
                }
                singles.len()
            } else {
                valid.clear();
                for &t in tier {
                    p += possible_count(t, &b);
                    valid.extend(find(t, &b));
                }
                valid.len()
            };
            let p = p.max(found);
            if found == 0 {
                if opts.count_failed_tiers {
                    d += expected_checks(p, 0);
                }
                continue;
            }
            d += expected_checks(p, found);
            let pick = rng.gen_range(0..found);
            if only_singles {
                let s = singles[pick];
                if b.value(s.cell) == 0 && b.cands(s.cell) & (1 << s.digit) != 0 {
                    b.place(s.cell, s.digit);
                }
            } else {
                valid[pick].apply(&mut b);
            }
            continue 'steps;
        }
        return None;
    }
    Some(d)
}

/// Why hsolve has no difficulty for a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HsolveNull {
    /// A run got stuck: its techniques cannot finish the puzzle.
    #[error("needs search")]
    NeedsSearch,
    /// No run was made.
    #[error("no run")]
    NoRun,
}

/// Runs hsolve; run `i` uses `crate::human::seeds::run_seed`.
pub(crate) fn hsolve(
    puzzle: &Puzzle,
    opts: &HsolveOptions,
    seed: u64,
) -> Result<Summary, HsolveNull> {
    let runs = opts.runs.max(1);
    let mut ds = Vec::with_capacity(runs);
    for i in 0..runs {
        let mut rng = run_rng(seed, MODEL_TAG, i as u64);
        match run_once(puzzle, opts, &mut rng) {
            Some(d) => ds.push(d),
            None => return Err(HsolveNull::NeedsSearch),
        }
    }
    Summary::of(&ds).ok_or(HsolveNull::NoRun)
}

/// hsolve's row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HsolveRow {
    /// hsolve difficulty `d` (sum of expected checks `(p + 1)/(v + 1)`)
    /// over the runs (`hsolve`, `_sd`, `_se`).
    pub difficulty: Option<Estimate>,
    /// Median of the difficulty over the runs (`hsolve_median`).
    pub median: Option<f64>,
    /// Why the difficulty is null when hsolve ran.
    pub why_null: Option<HsolveNull>,
}

impl HumanModel for HsolveRow {
    type Options = HsolveOptions;
    fn runs(opts: &HsolveOptions) -> Option<usize> {
        Some(opts.runs)
    }
    fn set_runs(opts: &mut HsolveOptions, runs: usize) {
        opts.runs = runs;
    }
    fn rate(&mut self, on: &Rating<'_>, opts: &HsolveOptions) {
        match hsolve(on.puzzle, opts, on.seed) {
            Ok(s) => {
                self.difficulty = Some(s.estimate());
                self.median = Some(s.median);
            }
            Err(why) => self.why_null = Some(why),
        }
    }
}

impl ModelRow for HsolveRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lemma_values() {
        assert_eq!(expected_checks(9, 0), 10.0);
        assert_eq!(expected_checks(9, 9), 1.0);
        assert_eq!(expected_checks(3, 1), 2.0);
    }
}
