//! Fitting and validating the score (`docs/methods.md` §6.2–§6.4).
//!
//! **Fit.** Labelled sources grade on their own scales (a site's levels, a
//! rater's numbers), so the weights are fitted to *order* puzzles as each
//! source orders them: for every pair of puzzles of one source with
//! different labels, the logistic loss of the score difference
//! (`ln(1 + e^{−(s_harder − s_easier)})`), each source weighing the same
//! unless given its own weight (`timed_weight` for the timed source,
//! `source_weights` for the others; the timed source's pairs differ by
//! `time_margin` in ln time at least), at most `max_pairs` seeded pairs per
//! source, with a small ridge
//! penalty; Newton's method on the standardised, transformed metrics.
//!
//! **Selection.** Backward elimination on leave-one-source-out Spearman:
//! while dropping a metric lowers the mean held-out Spearman over the
//! sources by less than [`KEEP_MARGIN`], the metric whose removal costs
//! least is dropped. A metric that does not help out of sample is therefore
//! left out.
//!
//! **Calibration.** The SE-equivalent is the isotonic (pool-adjacent-
//! violators) regression of SE's rating on the score; a source's level cuts
//! are, for each boundary between adjacent levels, the threshold with the
//! fewest puzzles on the wrong side, made ascending.
//!
//! **Validation.** [`leave_one_source_out`] refits everything — selection,
//! weights, calibration — without the held-out source, and reports its
//! Spearman and Goodman–Kruskal γ against the held-out labels beside every
//! single metric and SE's own rating on the same puzzles (bootstrap
//! intervals from [`crate::eval`]).
//!
//! One file per step: `data.rs` (the labelled rows), `weights.rs` (the
//! pairwise-ranking fit), `calibration.rs` (SE-equivalent and level cuts),
//! `selection.rs` (backward elimination) and `validation.rs` (leave one
//! source out); this file assembles them into a [`LinearScore`] and the
//! [`ScoreFitReport`].

mod calibration;
mod data;
mod selection;
mod spec;
mod time;
mod validation;
mod weights;

pub(crate) use data::{FitData, FitRow};
pub use data::{LabelFields, ScoreFitError};
pub use selection::SelectionStep;
pub(crate) use selection::select_metrics;
pub use spec::{ScoreFitSpec, fit_score};
pub(crate) use validation::leave_one_source_out;
#[cfg(test)]
use validation::validate_source;
pub use validation::{BandRows, Difference, HeldOut, MinutesCheck};
pub(crate) use weights::scores;

use crate::metrics::Metric;
use crate::score::TimeModel;
use crate::score::{LinearScore, SeCalibration, SiteLevels};
use crate::stats::{BootstrapOptions, quantile_sorted};
use calibration::{level_cuts, se_calibration};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;
use std::collections::BTreeMap;
pub(crate) use time::effort_metrics;
pub use time::{TimeCrossValidation, TimeFitError, TimedPuzzle, cross_validate_time};
use time::{TimedRow, effort_terms_for, fit_time};
use weights::{fit_weights, raw_sum};

/// Options of the fit.
#[derive(Debug, Clone, Serialize)]
pub struct ScoreFitOptions {
    /// Seed of the pair sampling and of the bootstrap.
    pub seed: u64,
    /// Pairs used per source at most (seeded sample).
    pub max_pairs: usize,
    /// Ridge penalty on the weights.
    pub ridge: f64,
    /// Bootstrap of the validation's correlations.
    pub bootstrap: BootstrapOptions,
    /// The source whose labels are solving times in seconds (the human
    /// times): its pairs must differ by more than [`TIME_MARGIN`] in ln
    /// time, it is validated by `folds`-fold cross-validation instead of
    /// being held out whole, and the time model is fitted on it.
    pub timed: Option<String>,
    /// How much the timed source's pairs weigh against each other source's
    /// (1: every source the same). The human times are the one source that
    /// measures people rather than a site's grading.
    pub timed_weight: f64,
    /// How much each named source's pairs weigh against a source not named
    /// here (1); the timed source's weight is `timed_weight`.
    pub source_weights: BTreeMap<String, f64>,
    /// The smallest difference in ln time that makes a pair of the timed
    /// source ([`TIME_MARGIN`] by default).
    pub time_margin: f64,
    /// Folds of the timed source's cross-validation.
    pub folds: usize,
    /// Who the timed source's players are (the time model's population).
    pub population: String,
    /// Metrics the backward elimination never drops (the modeller's choice,
    /// stated in the model's `about`).
    pub keep: Vec<Metric>,
}

impl Default for ScoreFitOptions {
    fn default() -> Self {
        ScoreFitOptions {
            seed: 1,
            max_pairs: 4000,
            ridge: 1e-3,
            bootstrap: BootstrapOptions::default(),
            timed: None,
            timed_weight: 1.0,
            source_weights: BTreeMap::new(),
            time_margin: TIME_MARGIN,
            folds: 5,
            population: String::new(),
            keep: Vec::new(),
        }
    }
}

/// The weights a source's pairs may have against the others' (1): within
/// twelve orders of magnitude, so the normalised weights neither overflow
/// nor leave a source with none.
pub const WEIGHT_RANGE: (f64, f64) = (1e-6, 1e6);

/// Whether `w` is a source weight the fit takes ([`WEIGHT_RANGE`]).
///
/// ```
/// assert!(sudolab::source_weight_ok(2.0));
/// assert!(!sudolab::source_weight_ok(0.0));
/// assert!(!sudolab::source_weight_ok(f64::NAN));
/// ```
pub fn source_weight_ok(w: f64) -> bool {
    (WEIGHT_RANGE.0..=WEIGHT_RANGE.1).contains(&w)
}

/// Two mean solving times closer than this in ln time (about 10 %) make no
/// pair: the means of 10–43 players are not that precise.
pub(crate) const TIME_MARGIN: f64 = 0.1;

impl ScoreFitOptions {
    /// The smallest label difference that makes a pair of `source`.
    pub(super) fn margin(&self, source: &str) -> f64 {
        if self.timed.as_deref() == Some(source) {
            self.time_margin
        } else {
            0.0
        }
    }

    /// How much `source`'s pairs weigh in the fit, before the weights are
    /// normalised to sum to one over the sources.
    pub(super) fn source_weight(&self, source: &str) -> f64 {
        if self.timed.as_deref() == Some(source) {
            self.timed_weight
        } else {
            self.source_weights.get(source).copied().unwrap_or(1.0)
        }
    }

    /// The modeller's choices these options make, as the model's `about`
    /// states them after its data: the metrics kept by choice, then every
    /// source weight and time margin that is not the default.
    pub(crate) fn choices(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        if !self.keep.is_empty() {
            let _ = write!(
                s,
                "; kept by choice: {}",
                crate::metrics::join(&self.keep, ", ")
            );
        }
        if let Some(t) = &self.timed
            && self.timed_weight != 1.0
        {
            let _ = write!(
                s,
                "; the timed source {t} weighs {} sources",
                self.timed_weight
            );
        }
        for (source, w) in &self.source_weights {
            let _ = write!(s, "; {source} weighs {w}");
        }
        if let Some(t) = &self.timed
            && self.time_margin != TIME_MARGIN
        {
            let _ = write!(s, "; {t}'s pairs differ by {} in ln time", self.time_margin);
        }
        s
    }

    /// The test folds of a held-out source among `rows`: the whole source,
    /// or for the timed source `folds` seeded folds of its rows.
    pub(super) fn test_folds(&self, data: &FitData, held: &str, rows: &[usize]) -> Vec<Vec<usize>> {
        let mine: Vec<usize> = rows
            .iter()
            .copied()
            .filter(|&i| data.rows[i].source == held)
            .collect();
        if self.timed.as_deref() != Some(held) || self.folds < 2 {
            return vec![mine];
        }
        let mut rng =
            crate::seed::SeededRng::seed_from_u64(crate::graph::derive_seed(self.seed, 0x71ed));
        let mut shuffled = mine;
        shuffled.shuffle(&mut rng);
        let k = self.folds.min(shuffled.len()).max(1);
        (0..k)
            .map(|f| shuffled.iter().skip(f).step_by(k).copied().collect())
            .collect()
    }
}

/// A line `a + b·score` through the timed rows among `train` (least
/// squares of ln time on the score): puts the scores of models fitted on
/// different folds on one scale, ln seconds, without changing their order
/// within a fold (`b` is forced positive), so the folds' held-out scores can
/// be pooled. `None` without timed rows among `train`.
pub(super) fn time_scale(
    data: &FitData,
    score_of: impl Fn(usize) -> f64,
    train: &[usize],
    opts: &ScoreFitOptions,
) -> Option<(f64, f64)> {
    let timed = opts.timed.as_deref()?;
    let (x, y): (Vec<Vec<f64>>, Vec<f64>) = train
        .iter()
        .filter(|&&i| data.rows[i].source == timed)
        .map(|&i| (vec![score_of(i)], data.rows[i].rank))
        .unzip();
    let coef = crate::stats::least_squares(&x, &y).ok()?;
    Some((coef[0], coef[1].max(1e-9)))
}

/// The time model of a fitted score on the timed rows among `train`
/// (`None` without a timed source or with too few rows).
pub(super) fn fit_time_model(
    data: &FitData,
    score: &LinearScore,
    train: &[usize],
    opts: &ScoreFitOptions,
) -> Option<TimeModel> {
    let timed = opts.timed.as_deref()?;
    let idx: Vec<usize> = train
        .iter()
        .copied()
        .filter(|&i| data.rows[i].source == timed)
        .collect();
    let all = scores(data, score);
    let values: Vec<BTreeMap<Metric, Option<f64>>> =
        idx.iter().map(|&i| data.values_of(i)).collect();
    let rows: Vec<TimedRow<'_>> = idx
        .iter()
        .zip(&values)
        .map(|(&i, v)| TimedRow {
            score: all[i],
            values: v,
            se: data.rows[i].se,
            ln_seconds: data.rows[i].rank,
        })
        .collect();
    let names: Vec<Metric> = score.terms.iter().map(|t| t.name).collect();
    fit_time(&rows, &effort_terms_for(&names), &opts.population).ok()
}

/// Fits one score on the training rows with these metrics: weights, 0–10
/// scaling, reference percentiles, SE curve and per-source level cuts.
pub(crate) fn fit_linear_score(
    data: &FitData,
    metrics: &[usize],
    train: &[usize],
    opts: &ScoreFitOptions,
) -> LinearScore {
    let terms = fit_weights(data, metrics, train, opts);
    let raw_of: Vec<f64> = train
        .iter()
        .map(|&i| raw_sum(data, &terms, metrics, &data.rows[i]))
        .collect();
    let mut raws = raw_of.clone();
    raws.sort_by(f64::total_cmp);
    let low = quantile_sorted(&raws, 0.01).unwrap_or(0.0);
    let mut high = quantile_sorted(&raws, 0.99).unwrap_or(1.0);
    if high <= low {
        high = low + 1.0;
    }
    let mut score = LinearScore {
        terms,
        low,
        high,
        reference: Vec::new(),
        se: SeCalibration::default(),
        sites: BTreeMap::new(),
        time: None,
    };
    let scaled: Vec<f64> = raws.iter().map(|&r| score.scaled(r)).collect();
    score.reference = (0..=100)
        .map(|p| quantile_sorted(&scaled, p as f64 / 100.0).unwrap_or(0.0))
        .collect();
    // Score of each training row, keyed by row index.
    let s_of: BTreeMap<usize, f64> = train
        .iter()
        .zip(&raw_of)
        .map(|(&i, &r)| (i, score.scaled(r)))
        .collect();
    score.se = se_calibration(data, train, &s_of);
    let mut by_source: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in train {
        if data.rows[i].level.is_some() {
            by_source.entry(&data.rows[i].source).or_default().push(i);
        }
    }
    for (source, idx) in by_source {
        if opts.timed.as_deref() == Some(source) {
            continue;
        }
        // Level name of each rank: the most common name given to it.
        let mut names: BTreeMap<u64, BTreeMap<&str, usize>> = BTreeMap::new();
        for &i in &idx {
            let r = &data.rows[i];
            if let Some(l) = &r.level {
                *names
                    .entry(r.rank.to_bits())
                    .or_default()
                    .entry(l)
                    .or_default() += 1;
            }
        }
        if names.len() < 2 || names.len() > 12 {
            continue;
        }
        let mut ranked: Vec<(f64, String)> = names
            .iter()
            .map(|(bits, counts)| {
                let name = counts.iter().max_by_key(|c| c.1).map(|c| c.0.to_string());
                (f64::from_bits(*bits), name.unwrap_or_default())
            })
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let scored: Vec<(f64, f64)> = idx.iter().map(|&i| (s_of[&i], data.rows[i].rank)).collect();
        score.sites.insert(
            source.to_string(),
            SiteLevels {
                levels: ranked.into_iter().map(|r| r.1).collect(),
                cuts: level_cuts(&scored),
            },
        );
    }
    score.time = fit_time_model(data, &score, train, opts);
    score
}

/// Everything `sudolab fit --score` produces.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreFitReport {
    /// Sources of the fitting data and their puzzle counts.
    pub sources: BTreeMap<String, usize>,
    /// Backward elimination of the full score on every source.
    pub selection: Vec<SelectionStep>,
    /// Backward elimination of the fast score on every source.
    pub selection_fast: Vec<SelectionStep>,
    /// Leave-one-source-out validation of each held-out source.
    pub validation: Vec<HeldOut>,
    /// The model fitted on every source.
    pub model: crate::score::ScoreModel,
}

/// Selects, fits and calibrates the full and the fast score on every row,
/// and validates them by leaving out each source of `held_out` in turn.
pub(crate) fn fit_model(
    data: &FitData,
    candidates: &[usize],
    fast: &[usize],
    held_out: &[String],
    opts: &ScoreFitOptions,
    about: String,
) -> ScoreFitReport {
    let all: Vec<usize> = (0..data.rows.len()).collect();
    let (kept, selection) = select_metrics(data, candidates, &all, opts);
    let (kept_fast, selection_fast) = select_metrics(data, fast, &all, opts);
    let full = fit_linear_score(data, &kept, &all, opts);
    let model = crate::score::ScoreModel {
        about,
        params: crate::score::FeatureParams::default(),
        full: LinearScore {
            // The full score's SE-equivalent takes serate's rating where the
            // trial curve does not place the puzzle alone (`docs/methods.md`
            // §6.3); the fast score computes no serate.
            se: SeCalibration {
                serate: true,
                ..full.se
            },
            ..full
        },
        fast: fit_linear_score(data, &kept_fast, &all, opts),
    };
    let mut sources = BTreeMap::new();
    for r in &data.rows {
        *sources.entry(r.source.clone()).or_insert(0) += 1;
    }
    ScoreFitReport {
        sources,
        selection,
        selection_fast,
        validation: leave_one_source_out(data, held_out, candidates, fast, opts),
        model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::SeededRng;
    use rand::{Rng, SeedableRng};

    /// Two sources that order puzzles by the same hidden difficulty `h`
    /// on different scales; metric `a` follows `h`, `b` is noise.
    fn synthetic() -> FitData {
        let mut rng = SeededRng::seed_from_u64(3);
        let mut rows = Vec::new();
        for (s, scale) in [("x", 1.0), ("y", 10.0), ("z", 3.0)] {
            for _ in 0..120 {
                let h: f64 = rng.gen_range(0.0..4.0);
                let a = h + rng.gen_range(-0.3..0.3);
                let b: f64 = rng.gen_range(0.0..4.0);
                rows.push(FitRow {
                    source: s.into(),
                    rank: (h.floor() + 1.0) * scale,
                    se: Some(1.0 + 2.0 * h),
                    level: Some(format!("L{}", h.floor() as u32 + 1)),
                    hardest: None,
                    trial: None,
                    values: vec![Some(a), Some(b)],
                });
            }
        }
        FitData {
            metrics: vec![Metric::Hsolve, Metric::Givens],
            rows,
            anchors: Vec::new(),
        }
    }

    #[test]
    fn the_fit_weights_the_informative_metric_and_selection_drops_noise() {
        let data = synthetic();
        let all: Vec<usize> = (0..data.rows.len()).collect();
        let opts = ScoreFitOptions::default();
        let s = fit_linear_score(&data, &[0, 1], &all, &opts);
        assert!(
            s.terms[0].weight > 5.0 * s.terms[1].weight.abs(),
            "{:?}",
            s.terms
        );
        let (kept, steps) = select_metrics(&data, &[0, 1], &all, &opts);
        assert_eq!(kept, vec![0], "{steps:?}");
        // Four levels per source, so three ascending cuts each.
        for site in s.sites.values() {
            assert_eq!(site.levels, ["L1", "L2", "L3", "L4"]);
            assert_eq!(site.cuts.len(), 3);
        }
        // The SE curve is monotone and close to 1 + 2h.
        assert!(s.se.pooled.windows(2).all(|w| w[1].1 >= w[0].1));
        assert_eq!(
            s.se.by_technique.keys().collect::<Vec<_>>(),
            [SeCalibration::BEYOND]
        );
        let held = validate_source(&data, "y", &[0, 1], &[1], &opts);
        assert_eq!(held.kept, [Metric::Hsolve]);
        let score_rho = held.rows[0].spearman.unwrap();
        assert!(score_rho > 0.9, "{score_rho}");
        assert!(held.se_within_1.unwrap() > 0.8);
    }

    #[test]
    fn the_choices_name_what_is_not_the_default() {
        assert_eq!(ScoreFitOptions::default().choices(), "");
        let opts = ScoreFitOptions {
            timed: Some("t".into()),
            timed_weight: 1.5,
            source_weights: [("b".to_string(), 0.25), ("a".to_string(), 2.0)].into(),
            time_margin: 0.3,
            keep: vec![Metric::Hsolve, Metric::Givens],
            ..ScoreFitOptions::default()
        };
        assert_eq!(
            opts.choices(),
            "; kept by choice: hsolve, givens; the timed source t weighs 1.5 sources; \
             a weighs 2; b weighs 0.25; t's pairs differ by 0.3 in ln time"
        );
        // Without a timed source its weight and margin are not choices.
        let untimed = ScoreFitOptions {
            timed: None,
            ..opts
        };
        assert_eq!(
            untimed.choices(),
            "; kept by choice: hsolve, givens; a weighs 2; b weighs 0.25"
        );
    }

    #[test]
    fn the_time_margin_keeps_the_pairs_of_times_that_far_apart() {
        let data = synthetic();
        let z: Vec<usize> = (0..data.rows.len())
            .filter(|&i| data.rows[i].source == "z")
            .collect();
        // z's ranks are 3, 6, 9, 12 (as seconds): in ln, neighbours differ
        // by 0.29–0.69.
        let count = |margin: f64| {
            let opts = ScoreFitOptions {
                timed: Some("z".into()),
                time_margin: margin,
                ..ScoreFitOptions::default()
            };
            assert_eq!(opts.margin("z"), margin);
            assert_eq!(opts.margin("x"), 0.0);
            // The timed source's ranks are ln seconds.
            let mut d = data.clone();
            for &i in &z {
                d.rows[i].rank = d.rows[i].rank.ln();
            }
            let pairs = weights::source_pairs(&d, &z, usize::MAX, opts.margin("z"), 1);
            assert!(
                pairs
                    .iter()
                    .all(|&(e, h)| d.rows[h].rank - d.rows[e].rank > margin)
            );
            pairs.len()
        };
        let by_level = |l: f64| z.iter().filter(|&&i| data.rows[i].rank == l).count();
        let (n3, n6, n9, n12) = (by_level(3.0), by_level(6.0), by_level(9.0), by_level(12.0));
        assert_eq!(
            count(0.1),
            n3 * (n6 + n9 + n12) + n6 * (n9 + n12) + n9 * n12
        );
        // ln(12/9) = 0.29 and ln(9/6) = 0.41 fall below a margin of 0.5.
        assert_eq!(count(0.5), n3 * (n6 + n9 + n12) + n6 * n12);
        assert_eq!(count(2.0), 0);
    }

    #[test]
    fn the_timed_weight_pulls_the_weights_toward_the_times() {
        // Sources x and y order puzzles by metric `a`; the timed source z
        // (ln seconds) by metric `b`. The heavier the times, the more `b`
        // weighs against `a`; weight 1 is every source the same.
        let mut data = synthetic();
        for r in &mut data.rows {
            if r.source == "z" {
                let b = r.values[1].unwrap();
                r.rank = 4.0 + 0.5 * b;
            }
        }
        let all: Vec<usize> = (0..data.rows.len()).collect();
        let ratio = |w: f64| {
            let opts = ScoreFitOptions {
                timed: Some("z".into()),
                timed_weight: w,
                ..ScoreFitOptions::default()
            };
            assert_eq!(opts.source_weight("z"), w);
            assert_eq!(opts.source_weight("x"), 1.0);
            let s = fit_linear_score(&data, &[0, 1], &all, &opts);
            s.terms[1].weight / s.terms[0].weight
        };
        let (one, three, ten) = (ratio(1.0), ratio(3.0), ratio(10.0));
        assert!(
            0.0 < one && one < three && three < ten,
            "{one} {three} {ten}"
        );
        // The sites weighing less pull the same way as the times weighing more.
        let light_sites = ScoreFitOptions {
            timed: Some("z".into()),
            source_weights: [("x".to_string(), 0.2), ("y".to_string(), 0.2)].into(),
            ..ScoreFitOptions::default()
        };
        assert_eq!(light_sites.source_weight("x"), 0.2);
        assert_eq!(light_sites.source_weight("z"), 1.0);
        let s = fit_linear_score(&data, &[0, 1], &all, &light_sites);
        let light = s.terms[1].weight / s.terms[0].weight;
        assert!(one < light, "{one} {light}");
        // Without a timed source the weight changes nothing.
        let plain = ScoreFitOptions::default();
        let heavy = ScoreFitOptions {
            timed_weight: 5.0,
            ..ScoreFitOptions::default()
        };
        assert_eq!(
            fit_linear_score(&data, &[0, 1], &all, &plain).terms,
            fit_linear_score(&data, &[0, 1], &all, &heavy).terms
        );
    }
}
