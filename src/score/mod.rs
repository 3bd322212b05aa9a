//! One difficulty score per puzzle (`docs/methods.md` §6): a small linear
//! model over sudolab's own metrics, with calibrated equivalents on scales
//! people know.
//!
//! Pelánek ("Difficulty Rating of Sudoku Puzzles: An Overview and
//! Evaluation", "Evaluation and Discussion") finds that no single
//! technique-based number predicts human solving as well as a combination of
//! the difficulty of the steps with the structure of the dependencies between
//! them. The score is such a combination: a weighted sum of standardised,
//! transformed metrics ([`Term`]) whose weights are fitted ([`fit`]) to rank
//! puzzles as the labelled sources rank them — only pairs of puzzles from the
//! same source are compared, so sources whose levels mean different things
//! can be used together. The features are computed on the puzzle's canonical
//! form ([`crate::grid::canon::canonical`]) with a fixed seed, so equivalent
//! puzzles (relabelled, rotated, transposed, …) get identical scores.
//!
//! Every number of the model — the features kept, their transforms,
//! weights, the 0–10 scaling, the reference percentiles behind the levels,
//! the SE-equivalent curve and the site level cuts — is data
//! (`src/score/model.json`, written by `sudolab fit --score`; `docs/score.sh`
//! regenerates it and the validation in `docs/score.md`).

pub(crate) mod features;
pub(crate) mod fit;
pub(crate) mod time;

pub use features::FeatureParams;
pub(crate) use features::feature_values;
pub use time::{Continuation as TimeContinuation, Minutes, TimeModel};
pub use {Term as ScoreTerm, Transform as ScoreTransform};

use crate::grid::Puzzle;
use crate::human::{SerateUnfinished, Technique};
use crate::metrics::{Metric, MetricValue};
use crate::stats::quantile_sorted;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The model shipped with sudolab (fitted by `docs/score.sh`).
pub(crate) const DEFAULT_MODEL_JSON: &str = include_str!("model.json");

/// How a metric enters the score before standardisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transform {
    /// The value as it is.
    Identity,
    /// `ln(1 + x)`, for counts and sums with long right tails.
    Log1p,
    /// 1 when a share is whole, else 0: for a reach, whether the technique
    /// alone solves the puzzle (the line between a site's levels, where the
    /// share short of whole says little).
    Whole,
}

impl Transform {
    /// The transformed value.
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Transform::Identity => x,
            Transform::Log1p => x.max(0.0).ln_1p(),
            Transform::Whole => f64::from(u8::from(x >= 1.0)),
        }
    }
}

/// One metric of the score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Term {
    /// The metric (its name is an `analyze` column).
    pub name: Metric,
    /// Transform applied first.
    pub transform: Transform,
    /// A metric in [0, 1] the transformed value is multiplied by, so the
    /// term speaks only where the gate is open: the singles-model terms are
    /// gated by `singles_hidden_reach`, as the moves they count are the
    /// whole puzzle only when hidden singles solve it (`docs/methods.md` §6.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<Metric>,
    /// Transformed value used when the metric is undefined for a puzzle (a
    /// model that cannot finish without search): the largest transformed
    /// value among the fitting puzzles, so "no technique finishes" counts as
    /// at least as hard as anything seen.
    pub fill: f64,
    /// Mean of the transformed value over the fitting puzzles.
    pub mean: f64,
    /// Standard deviation of the transformed value over the fitting puzzles.
    pub sd: f64,
    /// Weight of the standardised value.
    pub weight: f64,
}

impl Term {
    /// The metrics the term reads: its metric and its gate.
    pub(crate) fn metrics(&self) -> impl Iterator<Item = Metric> {
        std::iter::once(self.name).chain(self.gate)
    }

    /// The transformed (and gated) value of a metric value (`None` = undefined).
    pub fn transformed(&self, value: Option<f64>, gate: Option<f64>) -> f64 {
        let t = match value {
            Some(x) if x.is_finite() => self.transform.apply(x),
            _ => self.fill,
        };
        match (&self.gate, gate) {
            (None, _) => t,
            (Some(_), Some(g)) if g.is_finite() => t * g,
            (Some(_), _) => 0.0,
        }
    }

    /// The standardised value `z` of a metric value and its gate's value.
    pub(crate) fn z_with(&self, value: Option<f64>, gate: Option<f64>) -> f64 {
        (self.transformed(value, gate) - self.mean) / self.sd
    }

    /// The standardised transformed value `z` of the term on metric values.
    pub fn z(&self, values: &BTreeMap<Metric, Option<f64>>) -> f64 {
        let get = |m: Metric| values.get(&m).copied().flatten();
        self.z_with(get(self.name), self.gate.and_then(get))
    }

    /// The term's contribution `weight · z` on metric values.
    pub fn contribution(&self, values: &BTreeMap<Metric, Option<f64>>) -> f64 {
        self.weight * self.z(values)
    }
}

/// Level cuts of one labelled source on the score scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteLevels {
    /// The source's level names, easiest first.
    pub levels: Vec<String>,
    /// `levels.len() − 1` ascending cuts: a score at or above `cuts[i]` is at
    /// least level `i + 1`.
    pub cuts: Vec<f64>,
}

impl SiteLevels {
    /// The level of a score.
    pub fn level(&self, score: f64) -> &str {
        let i = self.cuts.iter().take_while(|&&c| score >= c).count();
        &self.levels[i.min(self.levels.len() - 1)]
    }
}

/// A fitted score: the terms, the 0–10 scaling and the calibrations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearScore {
    /// The metrics and their weights.
    pub terms: Vec<Term>,
    /// Raw sum at the 1st percentile of the fitting puzzles (score 0).
    pub low: f64,
    /// Raw sum at the 99th percentile of the fitting puzzles (score 10).
    pub high: f64,
    /// Percentiles 0, 1, …, 100 of the score over the fitting puzzles (the
    /// reference behind `--scale`).
    pub reference: Vec<f64>,
    /// The SE-equivalent.
    pub se: SeCalibration,
    /// Level cuts per labelled source (`--calibrate NAME`).
    pub sites: BTreeMap<String, SiteLevels>,
    /// The predicted solving time (`minutes`), when the fit had human times.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<time::TimeModel>,
}

impl LinearScore {
    /// The metrics the score and its time model need (terms and gates,
    /// each once).
    pub(crate) fn metrics(&self) -> Vec<Metric> {
        let mut out: Vec<Metric> = Vec::new();
        let time = self.time.iter().flat_map(time::TimeModel::metrics);
        for m in self.terms.iter().flat_map(Term::metrics).chain(time) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    }

    /// Score on the 0–10 scale of metric values.
    pub fn score(&self, values: &BTreeMap<Metric, Option<f64>>) -> f64 {
        let raw: f64 = self.terms.iter().map(|t| t.contribution(values)).sum();
        self.scaled(raw)
    }

    /// [`LinearScore::score`], refused when it is not finite (weights near
    /// the largest `f64` overflow): the error names the term with the
    /// largest contribution, its weight and its `z`.
    pub(crate) fn finite_score(
        &self,
        values: &BTreeMap<Metric, Option<f64>>,
    ) -> Result<f64, String> {
        let s = self.score(values);
        if s.is_finite() {
            return Ok(s);
        }
        let worst = self.terms.iter().max_by(|a, b| {
            let size = |t: &Term| {
                let c = t.contribution(values).abs();
                if c.is_nan() { f64::INFINITY } else { c }
            };
            size(a).total_cmp(&size(b))
        });
        Err(match worst {
            Some(t) => format!(
                "score {s}: term {}: weight {:e} × z {} = {:e} (low {}, high {})",
                t.name,
                t.weight,
                t.z(values),
                t.contribution(values),
                self.low,
                self.high
            ),
            None => format!("score {s}"),
        })
    }

    /// Raw weighted sum → 0–10 scale.
    pub fn scaled(&self, raw: f64) -> f64 {
        10.0 * (raw - self.low) / (self.high - self.low)
    }

    /// SE-equivalent rating of a score, hardest technique, trial rating
    /// and serate rating (used only by a calibration that takes it, and
    /// only below nested assumptions: [`SeCalibration::at`]).
    pub fn se_equivalent(
        &self,
        score: f64,
        hardest: Option<Technique>,
        trial: Option<f64>,
        serate: Option<f64>,
    ) -> Option<f64> {
        self.se
            .at(score, hardest.map(Technique::name), trial, serate)
    }

    /// Whether a puzzle lies above everything the model was fitted on: for
    /// a puzzle the trial curve places, a trial rating above every puzzle of
    /// that curve; for the others, a score above the hardest fitting
    /// puzzle's.
    pub fn extrapolates(&self, score: f64, hardest: Option<Technique>, trial: Option<f64>) -> bool {
        self.se
            .trial_extrapolates(hardest.map(Technique::name), trial)
            .unwrap_or_else(|| self.reference.last().is_some_and(|&top| score > top))
    }

    /// Level `1..=n` of a score on an `n`-level scale: the cuts are the
    /// `i/n` percentiles of the fitting puzzles' scores.
    pub(crate) fn level_index(&self, score: f64, n: usize) -> usize {
        1 + self.level_cuts(n).iter().filter(|&&c| score >= c).count()
    }

    /// The `n − 1` cuts of an `n`-level scale (a score at or above the
    /// `i`-th cut is at least level `i + 1`).
    pub fn level_cuts(&self, n: usize) -> Vec<f64> {
        let n = n.max(1);
        (1..n)
            .map(|i| quantile_sorted(&self.reference, i as f64 / n as f64).unwrap_or(0.0))
            .collect()
    }
}

/// Sukaku Explainer's rating rates the hardest step, the score the whole
/// effort, so the SE-equivalent is placed by both: for each hardest technique
/// of the technique-weight path, the isotonic regression of SE's rating on
/// the score among the fitting puzzles with that hardest technique.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct SeCalibration {
    /// `(score, SE rating)` knots per hardest technique (key
    /// [`SeCalibration::BEYOND`] when the catalogue cannot finish), ascending;
    /// interpolated linearly, flat beyond the ends.
    pub by_technique: BTreeMap<String, Vec<(f64, f64)>>,
    /// Knots of every fitting puzzle, for a technique too rare in the fit.
    pub pooled: Vec<(f64, f64)>,
    /// The placement of the hardest puzzles by their trial depth (absent in a
    /// model fitted without `trial_rating`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial: Option<TrialCalibration>,
    /// Whether the SE-equivalent is serate's rating, SE's own rules rebuilt
    /// (`docs/methods.md` §3.11, §6.3), wherever serate finishes the puzzle
    /// within its work budget. The full score's calibration does; the fast
    /// one computes no serate.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub serate: bool,
}

/// SE's rating of the puzzles the technique catalogue finishes only with
/// forcing chains, or not at all, placed by their trial rating
/// (`docs/methods.md` §3.9, §6.3): the isotonic regression of SE's rating
/// on `trial_rating` over the SE-rated fitting puzzles of those tiers and
/// the anchor puzzles known to be at least a given rating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialCalibration {
    /// The hardest techniques (keys of [`SeCalibration::by_technique`])
    /// whose puzzles it places.
    pub techniques: Vec<String>,
    /// `(trial_rating, SE rating)` knots, ascending.
    pub knots: Vec<(f64, f64)>,
    /// Share of the trial placement in the SE-equivalent of a puzzle that
    /// single assumptions solve; the rest is the score's placement. A puzzle
    /// that needs nested assumptions is placed by its trial rating alone.
    pub weight: f64,
    /// The largest trial rating among the fitting puzzles: above it the
    /// SE-equivalent is an extrapolation.
    pub max_rating: f64,
}

impl TrialCalibration {
    /// The trial rating from which assumptions nest (depth 2).
    pub const NESTED: f64 = 2.0;
}

impl SeCalibration {
    /// Key of the puzzles no technique of the catalogue finishes.
    pub const BEYOND: &'static str = "beyond the catalogue";

    /// Whether the trial curve alone places a puzzle with this hardest
    /// technique and trial rating: assumptions nest, in the tier the curve
    /// covers (the score's metrics leave serate out there).
    pub fn placed_by_trial_alone(&self, hardest: Option<&str>, trial: Option<f64>) -> bool {
        self.trial_placing(hardest, trial)
            .is_some_and(|(_, t)| t >= TrialCalibration::NESTED)
    }

    /// The trial curve and the trial rating of a puzzle the curve places:
    /// one with a trial rating whose hardest technique is of the curve's
    /// tier.
    fn trial_placing(
        &self,
        hardest: Option<&str>,
        trial: Option<f64>,
    ) -> Option<(&TrialCalibration, f64)> {
        let key = hardest.unwrap_or(Self::BEYOND);
        let cal = self
            .trial
            .as_ref()
            .filter(|c| c.techniques.iter().any(|k| k == key))?;
        Some((cal, trial?))
    }

    /// The SE-equivalent of a score with this hardest technique, trial
    /// rating and serate rating: serate's where the calibration takes it and
    /// serate finished, else placed by the score and the trial rating.
    pub fn at(
        &self,
        score: f64,
        hardest: Option<&str>,
        trial: Option<f64>,
        serate: Option<f64>,
    ) -> Option<f64> {
        if let Some(r) = serate.filter(|r| r.is_finite() && self.serate) {
            return Some(r);
        }
        let key = hardest.unwrap_or(Self::BEYOND);
        let by_score = match self.by_technique.get(key) {
            Some(knots) => interpolate(knots, score),
            None => interpolate(&self.pooled, score),
        };
        let Some((cal, t)) = self.trial_placing(hardest, trial) else {
            return by_score;
        };
        let by_trial = interpolate(&cal.knots, t);
        match (by_score, by_trial) {
            (_, Some(b)) if t >= TrialCalibration::NESTED => Some(b),
            (Some(a), Some(b)) => Some(cal.weight * b + (1.0 - cal.weight) * a),
            (a, b) => a.or(b),
        }
    }

    /// Whether the trial curve places a puzzle with this hardest technique
    /// and trial rating, and if so whether the rating is above every
    /// fitting puzzle's (`Some(true)`: an extrapolation).
    pub fn trial_extrapolates(&self, hardest: Option<&str>, trial: Option<f64>) -> Option<bool> {
        self.trial_placing(hardest, trial)
            .map(|(cal, t)| t > cal.max_rating)
    }
}

/// Linear interpolation in ascending `(x, y)` knots, flat beyond the ends.
fn interpolate(knots: &[(f64, f64)], x: f64) -> Option<f64> {
    if !x.is_finite() {
        return None;
    }
    let first = knots.first()?;
    let last = knots.last()?;
    if x <= first.0 {
        return Some(first.1);
    }
    if x >= last.0 {
        return Some(last.1);
    }
    let i = knots.partition_point(|k| k.0 <= x);
    let (a, b) = (knots[i - 1], knots[i]);
    if b.0 == a.0 {
        return Some(b.1);
    }
    Some(a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0))
}

/// The shipped model: how features are computed and the two fitted scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreModel {
    /// What the model is and the command that fitted it.
    pub about: String,
    /// Parameters of the randomised metrics.
    pub params: FeatureParams,
    /// The score over every metric kept by the fit.
    pub full: LinearScore,
    /// The score without the costly metrics (`--fast`).
    pub fast: LinearScore,
}

impl ScoreModel {
    /// The model shipped with sudolab (read once).
    pub fn shipped() -> &'static ScoreModel {
        static MODEL: std::sync::OnceLock<ScoreModel> = std::sync::OnceLock::new();
        MODEL.get_or_init(|| match serde_json::from_str(DEFAULT_MODEL_JSON) {
            Ok(m) => m,
            Err(e) => unreachable!("src/score/model.json is checked by a test: {e}"),
        })
    }

    /// Reads a model written by `sudolab fit --score`.
    pub fn from_json(text: &str) -> Result<ScoreModel, ModelError> {
        let model: ScoreModel = serde_json::from_str(text)?;
        model.check()?;
        Ok(model)
    }

    /// Refuses a model no score can be computed with: parameters the
    /// command line would refuse (`FeatureParams::check`), terms that all
    /// weigh 0 (one score for every puzzle), a term with a zero or
    /// non-finite spread, an empty or unordered curve, level cuts that do not
    /// fit their levels.
    pub fn check(&self) -> Result<(), ModelError> {
        let bad = |what: String| Err(ModelError::Invalid(what));
        self.params
            .check()
            .map_err(|e| ModelError::Invalid(e.to_string()))?;
        for (variant, s) in [("full", &self.full), ("fast", &self.fast)] {
            if s.terms.is_empty() {
                return bad(format!("{variant}: no term"));
            }
            if s.terms.iter().all(|t| t.weight == 0.0) {
                return bad(format!(
                    "{variant}: every term weighs 0, so every puzzle would score the same"
                ));
            }
            if !(s.low.is_finite() && s.high.is_finite() && s.high > s.low) {
                return bad(format!("{variant}: low {} / high {}", s.low, s.high));
            }
            if s.reference.len() != 101 || !ascending(&s.reference) {
                return bad(format!(
                    "{variant}: reference is not 101 ascending percentiles"
                ));
            }
            if let Some(time) = &s.time
                && let Err(e) = time.check()
            {
                return bad(format!("{variant}: time model: {e}"));
            }
            for t in &s.terms {
                let finite = [t.fill, t.mean, t.sd, t.weight]
                    .iter()
                    .all(|x| x.is_finite());
                if !finite || t.sd <= 0.0 {
                    return bad(format!(
                        "{variant}: term {} is not finite with sd > 0",
                        t.name
                    ));
                }
            }
            for (name, knots) in
                s.se.by_technique
                    .iter()
                    .chain([(&"pooled".to_string(), &s.se.pooled)])
            {
                let xs: Vec<f64> = knots.iter().map(|k| k.0).collect();
                let ys: Vec<f64> = knots.iter().map(|k| k.1).collect();
                if knots.is_empty() || !ascending(&xs) || !ascending(&ys) {
                    return bad(format!(
                        "{variant}: SE curve {name} is empty or not ascending"
                    ));
                }
            }
            for (name, site) in &s.sites {
                if site.levels.is_empty()
                    || site.cuts.len() + 1 != site.levels.len()
                    || !ascending(&site.cuts)
                {
                    return bad(format!(
                        "{variant}: level cuts of {name} do not fit its levels"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Names of the labelled sources the model has level cuts for.
    pub fn calibrations(&self) -> Vec<String> {
        self.full.sites.keys().cloned().collect()
    }

    /// The full or the fast score.
    pub fn variant(&self, fast: bool) -> &LinearScore {
        if fast { &self.fast } else { &self.full }
    }
}

/// Finite and ascending (equal neighbours allowed).
fn ascending(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite()) && v.windows(2).all(|w| w[0] <= w[1])
}

/// Why a model file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Not JSON of a model.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A model whose numbers cannot give a score.
    #[error("{0}")]
    Invalid(String),
}

/// Why a puzzle has no score.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoreError {
    /// The model is fitted on 9×9 puzzles only.
    #[error("the score is defined for 9×9 puzzles (this one is {0}×{0})")]
    Order(usize),
    /// The puzzle is contradictory, has no solution or several.
    #[error("the score is defined for puzzles with exactly one solution: {0}")]
    NotUnique(String),
    /// A pencilmark grid (`docs/methods.md` §0.1): the model is fitted on
    /// puzzles of givens, and its time model reads their number.
    #[error("the score is fitted on puzzles of givens: a pencilmark grid has none")]
    Pencilmarks,
    /// The model's numbers give no finite score for this puzzle (a model
    /// file whose weights overflow): names the variant and the term.
    #[error("the score model gives no finite score: {0}")]
    NotFinite(String),
    /// The engines disagreed on a relaxation (a bug, with the case).
    #[error("{0}")]
    Disagreement(#[from] crate::engine::Disagreement),
}

/// Names of the levels of an `n`-level scale, easiest first.
///
/// ```
/// assert_eq!(sudolab::score_level_names(3), ["Easy", "Medium", "Hard"]);
/// ```
pub fn scale_names(n: usize) -> Vec<String> {
    let named: &[&str] = match n {
        2 => &["Easy", "Hard"],
        3 => &["Easy", "Medium", "Hard"],
        4 => &["Easy", "Medium", "Hard", "Expert"],
        5 => &["Beginner", "Easy", "Medium", "Hard", "Expert"],
        _ => &[],
    };
    if named.is_empty() {
        (1..=n).map(|i| format!("{i}/{n}")).collect()
    } else {
        named.iter().map(|s| s.to_string()).collect()
    }
}

/// A puzzle's score with its level and calibrated equivalents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Score {
    /// The score, 0–10 on the reference puzzles (can leave that range).
    pub score: f64,
    /// Level on the `--scale` (default 4 levels).
    pub score_level: String,
    /// SE-equivalent rating: Sudoku Explainer's ER by serate where it
    /// finishes within its work budget, else the score's placement.
    pub se_equivalent: Option<f64>,
    /// What `se_equivalent` is ([`SeBy`]); null with it.
    pub se_by: Option<SeBy>,
    /// Expected mean solving time in minutes of the population the model's
    /// time was fitted on (`null` for a model without one).
    pub minutes: Option<f64>,
    /// 25 % end of the band of solving times around `minutes`.
    pub minutes_low: Option<f64>,
    /// 75 % end of the band.
    pub minutes_high: Option<f64>,
    /// The puzzle is above everything the model was fitted on (a score
    /// above the hardest fitting puzzle's, or a trial rating above every
    /// fitting puzzle's): the score and SE-equivalent are extrapolations.
    pub extrapolated: bool,
    /// The score is above every puzzle of the time model's population:
    /// `minutes` is the continuation past them, which grows with the
    /// SE-equivalent from the hardest timed puzzles' time (`null` without a
    /// time model).
    pub minutes_extrapolated: Option<bool>,
}

/// Where a row's SE-equivalent comes from (written as [`SeBy::name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeBy {
    /// Serate's ER: Sudoku Explainer's rules rebuilt (`docs/methods.md`
    /// §3.11), which finished the puzzle within its work budget.
    Serate,
    /// The score and trial rating placed on SE's scale (§6.3): a calibration
    /// without serate (the fast score), or a puzzle beyond serate's rules.
    Placement,
    /// The placement, because serate ran past its work budget
    /// ([`ScoreOptions::serate_budget`]).
    OverBudget,
}

impl Serialize for SeBy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl SeBy {
    /// The value as every output writes it.
    pub fn name(self) -> &'static str {
        match self {
            SeBy::Serate => "serate",
            SeBy::Placement => "placement",
            SeBy::OverBudget => "placement (serate over budget)",
        }
    }
}

/// Serate's outcome on a puzzle as given, as the SE-equivalent reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SerateOutcome {
    /// Serate's ER.
    Rated(f64),
    /// Serate ran past its work budget.
    OverBudget,
    /// Serate's rules cannot finish the puzzle (or it was not run).
    Unfinished,
}

impl SerateOutcome {
    /// Serate on `puzzle` as given (SE rates the puzzle as written, not its
    /// canonical form), its nesting levels 3–5 within `budget` work units.
    pub(crate) fn of(puzzle: &Puzzle, budget: u64) -> SerateOutcome {
        use crate::se::{WorkBudget, serate_within};
        SerateOutcome::from_rating(serate_within(puzzle, WorkBudget(budget)).map(|r| r.serate))
    }

    /// Serate's rating, or why it has none.
    pub(crate) fn from_rating(rating: Result<f64, SerateUnfinished>) -> SerateOutcome {
        match rating {
            Ok(er) => SerateOutcome::Rated(er),
            Err(SerateUnfinished::OverBudget) => SerateOutcome::OverBudget,
            Err(SerateUnfinished::NeedsSearch) => SerateOutcome::Unfinished,
        }
    }

    fn rating(self) -> Option<f64> {
        match self {
            SerateOutcome::Rated(r) => Some(r),
            _ => None,
        }
    }
}

/// What `score` computes and how it is shown.
#[derive(Debug, Clone)]
pub struct ScoreOptions {
    /// The model (default: the shipped one).
    pub model: ScoreModel,
    /// Use the fast variant.
    pub fast: bool,
    /// Number of levels of the level scale (2–10).
    pub scale: usize,
    /// Compute every candidate metric, not only the model's (the input of
    /// `sudolab fit --score`).
    pub all_metrics: bool,
    /// Work units serate's nesting levels 3–5 may use for the SE-equivalent
    /// of one puzzle; past them the SE-equivalent is the placement and
    /// `se_by` says so ([`crate::RateOptions::SERATE_BUDGET`] by default).
    pub serate_budget: u64,
    /// Chain-search nodes each of Berthier's ratings may visit for the
    /// row's `w_rating`, `b_rating`, `bxb`, `bxbb` and `berthier_status`
    /// (`crate::BerthierBudget`); 0 (the default) leaves them out. `sudolab
    /// score` and Python's `score` give [`ScoreOptions::BERTHIER_BUDGET`].
    pub berthier_budget: u64,
}

impl ScoreOptions {
    /// The Berthier budget of `sudolab score` and Python's `score`: that of
    /// `rate -m berthier`.
    pub const BERTHIER_BUDGET: u64 = crate::berthier::Budget::DEFAULT_NODES;
}

impl Default for ScoreOptions {
    fn default() -> Self {
        ScoreOptions {
            model: ScoreModel::shipped().clone(),
            fast: false,
            scale: 4,
            all_metrics: false,
            serate_budget: crate::human::RateOptions::SERATE_BUDGET,
            berthier_budget: 0,
        }
    }
}

impl ScoreOptions {
    /// Refuses options no score is computed with: a `scale` outside 2 to
    /// 10 levels, model parameters the command line would refuse
    /// (`FeatureParams::check`).
    pub fn check(&self) -> Result<(), crate::limits::OptionError> {
        if !(2..=10).contains(&self.scale) {
            return Err(crate::limits::OptionError::OutOfRange {
                name: "scale".into(),
                value: self.scale,
                min: 2,
                max: 10,
            });
        }
        self.model.params.check()
    }

    /// The default options (shipped model), built once: what `analyze` and
    /// `rate` use for every puzzle.
    pub fn shipped() -> &'static ScoreOptions {
        static OPTIONS: std::sync::OnceLock<ScoreOptions> = std::sync::OnceLock::new();
        OPTIONS.get_or_init(ScoreOptions::default)
    }
}

impl Score {
    /// The value of one of the score's metrics (`Source::Score`); `None`
    /// for any other metric or where the model has no such value.
    pub fn value(&self, m: Metric) -> Option<MetricValue> {
        let n = |x: Option<f64>| x.map(MetricValue::Number);
        match m {
            Metric::Score => Some(MetricValue::Number(self.score)),
            Metric::ScoreLevel => Some(MetricValue::Text(self.score_level.clone())),
            Metric::SeEquivalent => n(self.se_equivalent),
            Metric::SeBy => self.se_by.map(|b| MetricValue::Text(b.name().into())),
            Metric::Minutes => n(self.minutes),
            Metric::MinutesLow => n(self.minutes_low),
            Metric::MinutesHigh => n(self.minutes_high),
            Metric::Extrapolated => Some(MetricValue::Bool(self.extrapolated)),
            Metric::MinutesExtrapolated => self.minutes_extrapolated.map(MetricValue::Bool),
            _ => None,
        }
    }
}

/// The metric values and the score of one puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Score, level, SE-equivalent.
    pub score: Score,
    /// The metric values the score was computed from (`None`: undefined).
    pub metrics: BTreeMap<Metric, Option<f64>>,
    /// The hardest technique of the technique-weight path.
    pub hardest_technique: Option<Technique>,
    /// The trial depth (`docs/methods.md` §3.9): how deeply assumptions
    /// nest, the forum's other axis at the top (T&E(1)–T&E(3)).
    pub trial_depth: Option<u8>,
    /// Berthier's ratings, when [`ScoreOptions::berthier_budget`] asks for
    /// them (`None` also for a puzzle they cannot rate, not 9×9).
    pub berthier: Option<crate::berthier::BerthierRatings>,
}

/// One puzzle's score as `sudolab score` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreRow {
    /// 1-based input line of the puzzle.
    pub line: usize,
    /// The puzzle as one line.
    pub puzzle: String,
    /// The puzzle's label from the input line, if any.
    pub label: Option<String>,
    /// Score, level and SE-equivalent, flattened.
    #[serde(flatten)]
    pub score: Score,
    /// Level on the scale of the source named by `--calibrate` (absent for
    /// `se`, whose equivalent is always given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calibrated_level: Option<String>,
    /// The hardest technique the SE-equivalent is placed by (null when the
    /// technique catalogue cannot finish).
    #[serde(serialize_with = "crate::human::techniques::serialize_name")]
    pub hardest_technique: Option<Technique>,
    /// The trial depth: how deeply assumptions must nest before singles
    /// finish (0–3, `docs/methods.md` §3.9), the forum's ranking of its
    /// hardest puzzles beside SE's rating (T&E(1)–T&E(3)).
    pub trial_depth: Option<u8>,
    /// Berthier's W, B, BxB and BxBB ratings and why each is null,
    /// flattened (all null when not computed).
    #[serde(flatten)]
    pub berthier: crate::berthier::BerthierColumns,
    /// The metric values (with `--all-metrics`: every candidate), flattened.
    #[serde(flatten)]
    pub metrics: BTreeMap<Metric, Option<f64>>,
}

impl ScoreRow {
    /// The row of the puzzle of input `line` scored as `scored`: with its
    /// level on `site`'s scale when one is named, and the metric values
    /// when `all_metrics`.
    pub fn new(
        line: usize,
        puzzle: &Puzzle,
        scored: Scored,
        site: Option<&SiteLevels>,
        all_metrics: bool,
    ) -> ScoreRow {
        ScoreRow {
            line,
            puzzle: puzzle.to_line(),
            label: puzzle.label.clone(),
            calibrated_level: site.map(|c| c.level(scored.score.score).to_string()),
            score: scored.score,
            hardest_technique: scored.hardest_technique,
            trial_depth: scored.trial_depth,
            berthier: scored
                .berthier
                .as_ref()
                .map(crate::berthier::BerthierColumns::from)
                .unwrap_or_default(),
            metrics: if all_metrics {
                // The trial depth has its own column.
                let mut m = scored.metrics;
                m.remove(&Metric::TrialDepth);
                m
            } else {
                BTreeMap::new()
            },
        }
    }
}

/// Scores one puzzle.
pub fn score(puzzle: &Puzzle, opts: &ScoreOptions) -> Result<Scored, ScoreError> {
    score_knowing(puzzle, opts, None)
}

/// Scores one puzzle whose serate outcome (on the puzzle as given, within
/// `opts.serate_budget`) may be known already: `rate` computes it for its
/// own column.
pub(crate) fn score_knowing(
    puzzle: &Puzzle,
    opts: &ScoreOptions,
    serate: Option<SerateOutcome>,
) -> Result<Scored, ScoreError> {
    let linear = opts.model.variant(opts.fast);
    let names = if opts.all_metrics {
        features::candidates()
    } else {
        linear.metrics()
    };
    let metrics = feature_values(puzzle, &names, &opts.model.params, &linear.se)?;
    let s = linear.finite_score(&metrics.values).map_err(|e| {
        let variant = if opts.fast { "fast" } else { "full" };
        ScoreError::NotFinite(format!("{variant}: {e}"))
    })?;
    let scale = opts.scale.max(1);
    let names = scale_names(scale);
    let level = names[linear.level_index(s, scale) - 1].clone();
    let serate = linear
        .se
        .serate
        .then(|| serate.unwrap_or_else(|| SerateOutcome::of(puzzle, opts.serate_budget)));
    let se_equivalent = linear.se_equivalent(
        s,
        metrics.hardest_technique,
        metrics.trial_rating,
        serate.and_then(SerateOutcome::rating),
    );
    let minutes = linear
        .time
        .as_ref()
        .map(|t| t.minutes(s, &metrics.values, se_equivalent));
    let se_by = se_equivalent.map(|_| match serate {
        Some(SerateOutcome::Rated(_)) => SeBy::Serate,
        Some(SerateOutcome::OverBudget) => SeBy::OverBudget,
        _ => SeBy::Placement,
    });
    Ok(Scored {
        score: Score {
            score: s,
            score_level: level,
            se_equivalent,
            se_by,
            minutes: minutes.map(|m| m.expected),
            minutes_low: minutes.map(|m| m.low),
            minutes_high: minutes.map(|m| m.high),
            extrapolated: linear.extrapolates(s, metrics.hardest_technique, metrics.trial_rating),
            minutes_extrapolated: minutes.map(|m| m.extrapolated),
        },
        hardest_technique: metrics.hardest_technique,
        trial_depth: metrics.trial_depth,
        berthier: berthier_ratings(puzzle, opts.berthier_budget),
        metrics: metrics.values,
    })
}

/// Berthier's ratings of `puzzle` within `budget` nodes each (BxBB too);
/// `None` when the budget is 0 or the puzzle is not one they rate.
fn berthier_ratings(puzzle: &Puzzle, budget: u64) -> Option<crate::berthier::BerthierRatings> {
    let opts = crate::berthier::BerthierOptions {
        bxbb: true,
        budget: crate::berthier::Budget { nodes: budget },
        ..Default::default()
    };
    (budget > 0)
        .then(|| crate::berthier::rate_berthier(puzzle.cells(), &opts).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_marks_a_reach_that_solves_the_puzzle() {
        let w = |x: f64| Transform::Whole.apply(x);
        assert_eq!((w(1.0), w(0.999), w(0.0)), (1.0, 0.0, 0.0));
        // In the model file as a lowercase word, like the others.
        assert_eq!(
            serde_json::to_string(&Transform::Whole).unwrap(),
            "\"whole\""
        );
    }

    #[test]
    fn interpolation_is_flat_beyond_the_ends_and_linear_between() {
        let k = [(0.0, 1.0), (2.0, 3.0), (4.0, 3.0)];
        assert_eq!(interpolate(&k, -1.0), Some(1.0));
        assert_eq!(interpolate(&k, 1.0), Some(2.0));
        assert_eq!(interpolate(&k, 3.0), Some(3.0));
        assert_eq!(interpolate(&k, 9.0), Some(3.0));
        assert_eq!(interpolate(&[], 1.0), None);
    }

    #[test]
    fn the_trial_curve_places_chain_puzzles_and_says_where_its_data_ends() {
        let cal = SeCalibration {
            by_technique: [
                ("forcing chain".to_string(), vec![(5.0, 7.0), (9.0, 9.0)]),
                ("pointing".to_string(), vec![(3.0, 2.6)]),
            ]
            .into_iter()
            .collect(),
            pooled: vec![(0.0, 1.0), (10.0, 9.0)],
            trial: Some(TrialCalibration {
                techniques: vec!["forcing chain".into(), SeCalibration::BEYOND.into()],
                knots: vec![(1.0, 3.0), (1.5, 9.0), (2.5, 11.0)],
                weight: 0.5,
                max_rating: 2.8,
            }),
            serate: false,
        };
        // Single assumptions: the mean of the score's and the trial placement.
        assert_eq!(
            cal.at(5.0, Some("forcing chain"), Some(1.5), None),
            Some(8.0)
        );
        // Nested assumptions: the trial placement alone.
        assert_eq!(cal.at(5.0, None, Some(2.5), None), Some(11.0));
        assert_eq!(cal.at(5.0, None, Some(3.5), None), Some(11.0));
        // Other techniques, or no trial rating: the score's placement.
        assert_eq!(cal.at(3.0, Some("pointing"), Some(2.5), None), Some(2.6));
        assert_eq!(cal.at(5.0, Some("forcing chain"), None, None), Some(7.0));
        assert_eq!(cal.trial_extrapolates(None, Some(3.5)), Some(true));
        assert_eq!(cal.trial_extrapolates(None, Some(2.5)), Some(false));
        assert_eq!(cal.trial_extrapolates(Some("pointing"), Some(3.5)), None);
        // A serate rating is ignored unless the calibration takes it.
        assert_eq!(
            cal.at(5.0, Some("forcing chain"), Some(1.5), Some(8.3)),
            Some(8.0)
        );
        let with_serate = SeCalibration {
            serate: true,
            ..cal.clone()
        };
        // Serate's rating is the SE-equivalent wherever serate finished,
        // nested assumptions or not...
        assert_eq!(
            with_serate.at(5.0, Some("forcing chain"), Some(1.5), Some(8.3)),
            Some(8.3)
        );
        assert_eq!(
            with_serate.at(3.0, Some("pointing"), Some(0.0), Some(2.6)),
            Some(2.6)
        );
        assert_eq!(
            with_serate.at(3.0, Some("pointing"), None, Some(2.8)),
            Some(2.8)
        );
        assert_eq!(with_serate.at(5.0, None, Some(2.5), Some(11.3)), Some(11.3));
        // ...and where it did not (past its budget), the placement is.
        assert_eq!(with_serate.at(5.0, None, Some(2.5), None), Some(11.0));
        assert_eq!(
            with_serate.at(5.0, Some("forcing chain"), Some(1.5), None),
            Some(8.0)
        );
        let chain = Some("forcing chain");
        assert!(!with_serate.placed_by_trial_alone(chain, Some(1.9)));
        assert!(with_serate.placed_by_trial_alone(chain, Some(2.0)));
        assert!(with_serate.placed_by_trial_alone(None, Some(2.0)));
        // A puzzle of an easier tier whose singles-only trials nest (SE's
        // subsets solve it) is not the trial curve's.
        assert!(!with_serate.placed_by_trial_alone(Some("pointing"), Some(2.5)));
        let old = SeCalibration { trial: None, ..cal };
        assert_eq!(old.at(5.0, None, Some(2.5), None), Some(5.0));
        assert_eq!(old.trial_extrapolates(None, Some(3.5)), None);
    }

    #[test]
    fn site_levels_and_scale_levels_follow_the_cuts() {
        let site = SiteLevels {
            levels: vec!["A".into(), "B".into(), "C".into()],
            cuts: vec![2.0, 5.0],
        };
        assert_eq!(site.level(1.9), "A");
        assert_eq!(site.level(2.0), "B");
        assert_eq!(site.level(7.0), "C");
        let s = LinearScore {
            terms: vec![],
            low: 0.0,
            high: 1.0,
            reference: (0..=100).map(|i| i as f64 / 10.0).collect(),
            se: SeCalibration::default(),
            sites: BTreeMap::new(),
            time: None,
        };
        // Quartiles of 0..10 are 2.5, 5, 7.5.
        assert_eq!(s.level_index(2.4, 4), 1);
        assert_eq!(s.level_index(2.5, 4), 2);
        assert_eq!(s.level_index(9.9, 4), 4);
        assert_eq!(scale_names(4), ["Easy", "Medium", "Hard", "Expert"]);
        assert_eq!(scale_names(4), crate::metrics::registry::SCORE_LEVELS);
        assert_eq!(scale_names(7)[6], "7/7");
    }

    #[test]
    fn an_undefined_metric_counts_as_the_fill_value() {
        let t = Term {
            name: Metric::Hsolve,
            transform: Transform::Log1p,
            gate: None,
            fill: 5.0,
            mean: 3.0,
            sd: 2.0,
            weight: 0.5,
        };
        let with = |v: Option<f64>| BTreeMap::from([(Metric::Hsolve, v)]);
        assert_eq!(t.contribution(&with(None)), 0.5);
        assert_eq!(t.contribution(&BTreeMap::new()), 0.5);
        assert_eq!(t.contribution(&with(Some(f64::NAN))), 0.5);
        assert!((t.contribution(&with(Some(0.0))) + 0.75).abs() < 1e-12);
    }

    #[test]
    fn a_gated_term_speaks_only_where_its_gate_is_open() {
        let t = Term {
            name: Metric::SinglesDependency,
            transform: Transform::Log1p,
            gate: Some(Metric::SinglesHiddenReach),
            fill: 0.0,
            mean: 1.0,
            sd: 2.0,
            weight: 1.0,
        };
        let v = |dep: f64, reach: f64| {
            BTreeMap::from([
                (Metric::SinglesDependency, Some(dep)),
                (Metric::SinglesHiddenReach, Some(reach)),
            ])
        };
        // ln(1 + (e² − 1)) = 2, fully open: (2 − 1) / 2.
        let e2 = 2f64.exp() - 1.0;
        assert!((t.z(&v(e2, 1.0)) - 0.5).abs() < 1e-12);
        // Half open: (1 − 1) / 2; closed: (0 − 1) / 2.
        assert!(t.z(&v(e2, 0.5)).abs() < 1e-12);
        assert!((t.z(&v(e2, 0.0)) + 0.5).abs() < 1e-12);
        assert_eq!(
            t.metrics().collect::<Vec<_>>(),
            [Metric::SinglesDependency, Metric::SinglesHiddenReach]
        );
    }

    #[test]
    fn the_shipped_model_reads_and_is_consistent() {
        let m = ScoreModel::shipped();
        m.check().unwrap();
        for s in [&m.full, &m.fast] {
            assert!(!s.terms.is_empty());
            assert!(s.high > s.low);
            assert_eq!(s.reference.len(), 101);
            assert!(s.reference.windows(2).all(|w| w[0] <= w[1]));
            for knots in s.se.by_technique.values().chain([&s.se.pooled]) {
                assert!(!knots.is_empty());
                assert!(
                    knots
                        .windows(2)
                        .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1)
                );
            }
            for t in &s.terms {
                assert!(t.sd > 0.0 && t.weight.is_finite(), "{t:?}");
            }
            for site in s.sites.values() {
                assert_eq!(site.cuts.len() + 1, site.levels.len());
                assert!(site.cuts.windows(2).all(|w| w[0] <= w[1]));
            }
        }
        let mut bad = m.clone();
        bad.fast
            .sites
            .values_mut()
            .for_each(|site| site.levels.clear());
        assert!(ScoreModel::from_json(&serde_json::to_string(&bad).unwrap()).is_err());
        let mut bad = m.clone();
        bad.full.terms[0].sd = 0.0;
        assert!(matches!(bad.check(), Err(ModelError::Invalid(_))));
        // A term or a gate naming a metric sudolab does not compute.
        let mut bad = m.clone();
        bad.full.terms[0].name = Metric::Hsolve;
        bad.fast.terms[0].gate = Some(Metric::Hsolve);
        let json = serde_json::to_string(&bad).unwrap();
        for what in ["name", "gate"] {
            let field = format!("\"{what}\":\"hsolve\"");
            let pos = json.find(&field).unwrap();
            let text = format!(
                "{}\"{what}\":\"speed\"{}",
                &json[..pos],
                &json[pos + field.len()..]
            );
            let e = ScoreModel::from_json(&text).unwrap_err();
            assert!(e.to_string().contains("unknown metric \"speed\""), "{e}");
        }
        // The shipped model predicts times for the Cloud Sudoku population.
        let time = m.full.time.as_ref().unwrap();
        assert!(time.population.starts_with("Cloud Sudoku players"));
        assert!(time.band.0 < 0.0 && time.band.1 > 0.0);
        // The fast score needs none of the costly metric groups.
        for t in &m.fast.terms {
            assert!(!t.name.costly(), "{}", t.name);
        }
    }

    #[test]
    fn a_score_carries_minutes_inside_its_band() {
        let p = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        for fast in [false, true] {
            let opts = ScoreOptions {
                fast,
                ..ScoreOptions::default()
            };
            let s = score(&p, &opts).unwrap().score;
            let (m, lo, hi) = (
                s.minutes.unwrap(),
                s.minutes_low.unwrap(),
                s.minutes_high.unwrap(),
            );
            assert!(lo < m && m < hi, "{lo} {m} {hi}");
            // An easy newspaper puzzle: a few minutes, not seconds or hours,
            // inside the population and the fitting data.
            assert!((2.0..20.0).contains(&m), "{m}");
            assert_eq!(s.minutes_extrapolated, Some(false));
            assert!(!s.extrapolated);
        }
    }
}
