//! One entry point for all human models: [`rate`] a puzzle into a
//! [`RateRow`] with stable field names, for the `sudolab rate` subcommand.
//!
//! A row always names the puzzle. Metrics of models not requested are null.
//! A model that cannot finish leaves its metrics null and writes its reason in
//! `status` under the model's name; a puzzle that is contradictory, has no
//! solution or has several gets a `status.puzzle` entry and no model metric
//! (except `givens`, when the baseline is requested).
//!
//! Every mean over random runs is an [`Estimate`] and carries its standard
//! error (`_se`, `sd/√n`; the oracle score's by the delete-one jackknife)
//! and the oracle level the probability that it is the level of infinitely
//! many trials (`oracle_level_confidence`), as `docs/methods.md` §3.10
//! defines them.
//! The default seed is [`crate::seed::DEFAULT_SEED`], every command's.

use super::models::annealing::AnnealingOptions;
use super::models::harmony::HarmonyOptions;
use super::models::hsolve::HsolveOptions;
use super::models::nishio::NishioOptions;
use super::models::oracle::OracleOptions;
use super::models::singles::SinglesOptions;
use super::models::sisus::SisusOptions;
use super::models::{Model, Rating, plug_ins, registry};
use super::solver::{Solved, solve};
use crate::grid::Puzzle;
use crate::limits::{self, OptionError};
use crate::stats::Estimate;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What to compute and with which parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateOptions {
    /// Models to run; default every model.
    pub models: BTreeSet<Model>,
    /// Seed of every randomized model (each derives its own per-run seeds);
    /// [`crate::seed::DEFAULT_SEED`] by default.
    pub seed: u64,
    /// SiSuS parameters (30 runs, dependency over k = 25 steps by default).
    pub sisus: SisusOptions,
    /// Singles-model parameters (30 runs, dependency over 30 steps).
    pub singles: SinglesOptions,
    /// Oracle parameters (trials, α, β, G, δ, σ, A, B, level cuts); defaults
    /// from Fletcher et al. Table 2.
    pub oracle: OracleOptions,
    /// hsolve parameters (20 runs, tiers, whether failed tiers are charged).
    pub hsolve: HsolveOptions,
    /// Nishio parameters (50 random starts, cycle cap).
    pub nishio: NishioOptions,
    /// Simulated annealing parameters (5 runs, 1,000,000 moves at most).
    pub annealing: AnnealingOptions,
    /// Harmony search parameters (5 runs, 10,000 steps).
    pub harmony: HarmonyOptions,
    /// The plain DFS baseline gives up after this many backtracks.
    pub backtrack_cap: u64,
    /// Work units (branch propagations) Sudoku Explainer's nesting levels
    /// 3–5 may use for one puzzle in serate (from 16×16 on, every chain
    /// producer, a branch counted as its candidates against 9×9's); past
    /// it serate is null with the status "over budget".
    /// [`RateOptions::SERATE_BUDGET`] by default.
    pub serate_budget: u64,
    /// Chain-search nodes each of Berthier's ratings may visit for one
    /// puzzle (`crate::berthier::Budget`); past it the rating is null with
    /// `berthier_status` saying `budget`.
    pub berthier_budget: u64,
}

impl Default for RateOptions {
    fn default() -> Self {
        RateOptions {
            models: Model::DEFAULT.into_iter().collect(),
            seed: crate::seed::DEFAULT_SEED,
            sisus: SisusOptions::default(),
            singles: SinglesOptions::default(),
            oracle: OracleOptions::default(),
            hsolve: HsolveOptions::default(),
            nishio: NishioOptions::default(),
            annealing: AnnealingOptions::default(),
            harmony: HarmonyOptions::default(),
            backtrack_cap: 10_000_000,
            serate_budget: Self::SERATE_BUDGET,
            berthier_budget: crate::berthier::Budget::default().nodes,
        }
    }
}

impl RateOptions {
    /// Ceiling of `runs` (`rate --runs`, `report --runs`, Python's `runs=`):
    /// runs of a randomised human model per puzzle.
    pub const MAX_RUNS: usize = crate::limits::MAX_RUNS;

    /// The default work budget of serate's nesting levels 3–5, 20 million
    /// units: about 30 s of one core for the hardest famous puzzles, none
    /// for a puzzle that never needs them (`docs/methods.md` §3.11).
    pub const SERATE_BUDGET: u64 = crate::se::WorkBudget::DEFAULT.0;

    /// Options with the models of a comma list and defaults elsewhere.
    pub fn for_models(list: &str) -> Result<RateOptions, super::RateError> {
        Ok(RateOptions {
            models: Model::parse_list(list)?,
            ..RateOptions::default()
        })
    }

    /// Refuses options no model can run with: runs of a randomized model
    /// outside `1..=`[`MAX_RUNS`](RateOptions::MAX_RUNS) (named `runs`,
    /// the flag and keyword that set them all), an oracle parameter that is
    /// not a finite number.
    pub fn check(&self) -> Result<(), OptionError> {
        for runs in plug_ins().filter_map(|m| m.runs(self)) {
            limits::at_least("runs", runs, 1)?;
            limits::at_most("runs", runs, limits::MAX_RUNS)?;
        }
        let o = &self.oracle;
        for (name, value) in [
            ("alpha", o.alpha),
            ("beta", o.beta),
            ("G", o.big_g),
            ("delta", o.delta),
            ("sigma", o.sigma),
            ("A", o.a),
            ("B", o.b),
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

    /// Overrides the run count of every randomized model (SiSuS runs, oracle
    /// trials, hsolve runs, Nishio starts, annealing and harmony runs).
    pub fn set_runs(&mut self, runs: usize) {
        for m in plug_ins() {
            m.set_runs(self, runs);
        }
    }
}

/// One puzzle's ratings, with the puzzle they belong to.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct RateRow {
    /// The puzzle as one line (`Puzzle::to_line`).
    pub puzzle: String,
    /// The puzzle's label from the input line, if any.
    pub label: Option<String>,
    /// Every model's metrics, flattened into the row.
    #[serde(flatten)]
    pub ratings: Ratings,
}

/// The metrics of every model. Their columns are the metric registry's
/// of the human models (`crate::Metric` with a `rate:` source), under its
/// names and in its order, then `status`: `Ratings` serialises through the
/// registry and [`Ratings::value`], so a field has no serde name of its own.
///
/// A random metric (a mean over a model's runs) is one [`Estimate`], whose
/// columns are the metric (the mean), its `_sd` and its `_se`, those the
/// registry lists (`docs/methods.md` §3.10); the estimate and all its
/// columns are null when the model did not run or could not finish.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ratings {
    /// Number of givens (Pelánek's baseline); null unless the baseline is requested.
    pub givens: Option<usize>,
    /// Candidates of the empty cells the givens leave, the pencil marks a
    /// player starts from (ours, beside the baseline); null unless the
    /// baseline is requested.
    pub candidates: Option<usize>,
    /// Backtracks of the plain depth-first search before the first complete grid;
    /// null when not requested, the puzzle is invalid or `backtrack_cap` is hit.
    pub backtracks: Option<u64>,
    /// SiSuS refutation sum over the runs (`sisus_refutation_sum`, `_sd`,
    /// `_se`); null when the model did not run or could not finish (no
    /// finite refutation).
    pub sisus_refutation_sum: Option<Estimate>,
    /// SiSuS dependency: mean possibility count of the first `k` steps
    /// (default 25) over the runs (`sisus_dependency`, `_sd`, `_se`); lower
    /// is harder. Null as for the refutation sum.
    pub sisus_dependency: Option<Estimate>,
    /// Singles model: cells a hidden single can fill per step over the first
    /// 30 steps, over the runs (`singles_dependency`, `_sd`, `_se`); lower
    /// is harder. Null unless requested.
    pub singles_dependency: Option<Estimate>,
    /// Singles model: share of the empty cells hidden singles in boxes alone
    /// fill, in [0, 1]; lower is harder.
    pub singles_box_reach: Option<f64>,
    /// Singles model: share of the empty cells hidden singles alone fill.
    pub singles_hidden_reach: Option<f64>,
    /// Singles model: share of the empty cells naked singles alone fill.
    pub singles_naked_reach: Option<f64>,
    /// Oracle score `(1 + tanh(A·(s − B)))/2`, in [0, 1]; null unless the
    /// oracle ran. A function of three run means, not a mean itself, so no
    /// [`Estimate`]: its standard error is `oracle_score_se`.
    pub oracle_score: Option<f64>,
    /// Standard error of the oracle score over the trials (delete-one
    /// jackknife, `docs/methods.md` §3.10); null for a single trial.
    pub oracle_score_se: Option<f64>,
    /// Oracle level of the score: `Cinch`, `Confusing`, `Challenging` or `Crazy`.
    pub oracle_level: Option<super::models::oracle::OracleLevel>,
    /// How sure the oracle level is: the probability, under the normal
    /// approximation with `oracle_score_se`, that the score of infinitely
    /// many trials is in the stated level, in [0, 1]; null with the level.
    pub oracle_level_confidence: Option<f64>,
    /// Oracle visits per trial over the trials (`Ō`; `oracle_visits`,
    /// `_sd`, `_se`).
    pub oracle_visits: Option<Estimate>,
    /// hsolve difficulty `d` (sum of expected checks `(p + 1)/(v + 1)`) over
    /// the runs (`hsolve`, `_sd`, `_se`); null when not requested or a run
    /// needs search.
    pub hsolve: Option<Estimate>,
    /// Median of the hsolve difficulty over the runs.
    pub hsolve_median: Option<f64>,
    /// Nishio cycles with 2 strategies (singles) over the random starts
    /// (`nishio2`, `_se`).
    pub nishio2: Option<Estimate>,
    /// Nishio cycles with 3 strategies (singles, naked pair) over the random
    /// starts (`nishio3`, `_se`).
    pub nishio3: Option<Estimate>,
    /// Nishio cycles with 4 strategies (singles, naked pair, X-wing) over
    /// the random starts (`nishio4`, `_sd`, `_se`); Patti's universal
    /// classes cut the mean at 3.48 and 6.52.
    pub nishio4: Option<Estimate>,
    /// Median of the 4-strategy cycles over the random starts.
    pub nishio4_median: Option<f64>,
    /// Nishio cycles with 4 strategies when each assumption follows Patti's
    /// heuristic (deterministic).
    pub nishio4_heuristic: Option<f64>,
    /// Whether the 2 Nishio strategies alone (no assumption) solve the puzzle.
    pub solved_by_2: Option<bool>,
    /// Whether the 3 Nishio strategies alone solve the puzzle.
    pub solved_by_3: Option<bool>,
    /// Whether the 4 Nishio strategies alone solve the puzzle.
    pub solved_by_4: Option<bool>,
    /// Xu & Xu technique-weight score: sum of Table 1 weights along the
    /// simplest-first path; null when the catalogue cannot finish.
    pub weights_score: Option<u32>,
    /// Xu & Xu Table 3 level of the score (`Easy`, `Intermediate`, `Hard`,
    /// `Challenging`); null for orders other than 9×9.
    pub weights_level: Option<super::models::weights::WeightLevel>,
    /// The used technique with the highest first-use weight (serialised by
    /// its name); null when nothing had to be filled.
    pub hardest_technique: Option<super::Technique>,
    /// First-use weight (Xu & Xu Table 1) of the hardest technique.
    pub hardest_weight: Option<u32>,
    /// Share of the empty cells singles, pairs and intersections fill
    /// before they stall, in [0, 1]; lower is harder.
    pub basic_reach: Option<f64>,
    /// Serate: Sudoku Explainer's ER, the highest rating along SE's path
    /// (the first hint of the first rule that applies; chains by kind,
    /// nesting and length, `docs/methods.md` §3.11); null when the rules
    /// cannot finish or levels 3–5 run past their work budget (`status`
    /// says which).
    pub serate: Option<f64>,
    /// How many steps of that path used each Sudoku Explainer rule
    /// (`rule:count` joined by `;`, in rating order); null when the
    /// catalogue cannot finish.
    pub serate_uses: Option<String>,
    /// Sudoku Explainer's EP ("pearl") on that path: the highest rating up
    /// to and including the first step that places a digit; null as
    /// `serate`.
    pub serate_ep: Option<f64>,
    /// Sudoku Explainer's ED ("diamond") on that path: the rating of the
    /// first step; null as `serate`.
    pub serate_ed: Option<f64>,
    /// Fowler-like rating: the sum of the ratings of every step of that
    /// path; null as `serate`.
    pub fowler: Option<f64>,
    /// Trial depth: deepest nesting of assumptions singles needed (0–3).
    pub trial_depth: Option<u8>,
    /// Trial depth: the largest fewest-step refutation count at that depth.
    pub trial_steps: Option<u32>,
    /// Trial depth and steps in one number, `depth + steps/(steps + 8)`.
    pub trial_rating: Option<f64>,
    /// Trial depth: candidates eliminated by assumptions over the solve.
    pub trial_eliminations: Option<u32>,
    /// Berthier's W rating: the longest whip the simplest-first path needs
    /// (null outside T&E(1) or when whips do not solve the puzzle).
    pub w_rating: Option<u32>,
    /// Berthier's B rating: the longest braid needed (null outside T&E(1)).
    pub b_rating: Option<u32>,
    /// Berthier's BxB: the least p such that T&E(B_p, 1) solves a T&E(2) puzzle.
    pub bxb: Option<u32>,
    /// Berthier's BxBB: the least p such that T&E(B_p, 2) solves a T&E(3) puzzle.
    pub bxbb: Option<u32>,
    /// The T&E depth and why each of Berthier's ratings is null
    /// (`te1 w=rated b=rated bxb=out_of_range(te1) bxbb=out_of_range(te1)`).
    pub berthier_status: Option<String>,
    /// Simulated annealing moves until a solution over the runs (a run that
    /// hits the cap counts as the cap; `sa_steps`, `_se`).
    pub sa_steps: Option<Estimate>,
    /// Share of the annealing runs that reached a solution, in [0, 1]: the
    /// mean of 1 per solved run and 0 per other (`sa_solved`, `_se`).
    pub sa_solved: Option<Estimate>,
    /// Harmony search: cost (digits missing from the units) of the best
    /// harmony after at most 10,000 steps over the runs (Pelánek's metric;
    /// `harmony_cost`, `_se`).
    pub harmony_cost: Option<Estimate>,
    /// Harmony search steps until a solution over the runs (a run that does
    /// not finish counts as the cap; `harmony_steps`, `_se`).
    pub harmony_steps: Option<Estimate>,
    /// Model name (or `puzzle`) → why its metrics are null.
    pub status: BTreeMap<String, String>,
}

impl Ratings {
    /// The oracle model's fields; the level only for a 9×9 puzzle (`order`
    /// 3), the only size Fletcher et al.'s cut points are defined for.
    /// A 4×4 or 16×16 puzzle gets a status saying why its level is null.
    pub(crate) fn set_oracle(
        &mut self,
        r: &super::models::oracle::OracleResult,
        opts: &super::models::oracle::OracleOptions,
        order: usize,
    ) {
        self.oracle_score = Some(r.score);
        self.oracle_score_se = r.score_se;
        self.oracle_level = (order == 3).then_some(r.level);
        self.oracle_level_confidence = self
            .oracle_level
            .and(r.score_se)
            .map(|se| opts.level_confidence(r.score, se));
        self.oracle_visits = Some(r.visits.estimate());
        if order != 3 {
            self.status.insert(
                "oracle_level".into(),
                "levels are defined for 9×9 only".into(),
            );
        }
    }

    /// The technique-weight model's fields.
    pub(crate) fn set_weights(
        &mut self,
        score: u32,
        level: Option<super::models::weights::WeightLevel>,
        hardest: Option<super::Technique>,
    ) {
        self.weights_score = Some(score);
        self.weights_level = level;
        self.hardest_technique = hardest;
        self.hardest_weight = hardest.map(|t| super::models::weights::weight(t).0);
    }
}

/// Rates one puzzle with the requested models.
///
/// ```
/// use sudolab::{RateOptions, Technique, WeightLevel, parse_puzzle, rate};
///
/// let p = parse_puzzle(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let row = rate(&p, &RateOptions::for_models("weights")?);
/// // Singles alone solve it.
/// assert_eq!(row.ratings.hardest_technique, Some(Technique::NakedSingle));
/// assert!(row.ratings.weights_level.is_some());
/// # let _: Option<WeightLevel> = row.ratings.weights_level;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rate(puzzle: &Puzzle, opts: &RateOptions) -> RateRow {
    let mut row = RateRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        ..RateRow::default()
    };
    let ratings = &mut row.ratings;
    for &m in &opts.models {
        registry(m).rate_any(puzzle, ratings);
    }
    if let Err(c) = puzzle.check() {
        ratings
            .status
            .insert("puzzle".into(), format!("contradiction: {c}"));
        return row;
    }
    let solution = match solve(puzzle) {
        Solved::Unique(s) => s,
        Solved::Multiple => {
            ratings
                .status
                .insert("puzzle".into(), "not unique: at least 2 solutions".into());
            return row;
        }
        Solved::None => {
            ratings.status.insert("puzzle".into(), "no solution".into());
            return row;
        }
    };
    let on = Rating::new(puzzle, &solution, opts);
    for &m in &opts.models {
        let model = registry(m);
        if let Err(why) = model.rate(&on, ratings) {
            ratings.status.insert(model.name().to_string(), why.0);
        }
    }
    row
}

#[cfg(test)]
mod tests {
    /// Fletcher et al.'s cut points are for 9×9 puzzles: a 4×4 or 16×16
    /// puzzle gets the oracle's score but no level, and the status says why.
    #[test]
    fn oracle_levels_only_for_nine_by_nine() {
        use super::{RateOptions, rate};
        let oracle = RateOptions::for_models("oracle").unwrap();
        let small = crate::grid::parse_puzzle("1..2.......1..4.").unwrap();
        let r = rate(&small, &oracle).ratings;
        assert!(r.oracle_score.is_some());
        assert_eq!(r.oracle_level, None);
        assert_eq!(r.status["oracle_level"], "levels are defined for 9×9 only");
        let p = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let r = rate(&p, &oracle).ratings;
        assert!(r.oracle_level.is_some());
        assert!(!r.status.contains_key("oracle_level"));
    }
}
