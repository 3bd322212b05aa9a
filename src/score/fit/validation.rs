//! Validation of the score (`docs/methods.md` §6.4): leave one source out
//! (the timed source, the human solving times: k folds of it in turn),
//! refit everything — selection, weights, calibration — on the others, and
//! report the held-out source's Spearman and Goodman–Kruskal γ against its
//! labels beside every single metric and SE's own rating on the same
//! puzzles, with the paired bootstrap difference of the score's and SE's
//! Spearman.

use super::selection::{select_metrics, without};
use super::time::predicted_ln_seconds;
use super::weights::scores;
use super::{FitData, FitRow, ScoreFitOptions, fit_linear_score, time_scale};
use crate::eval::{EvalRow, evaluate_pairs};
use crate::metrics::Metric;
use crate::stats::{self, BootstrapOptions};
use serde::Serialize;

/// The validation of one held-out source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeldOut {
    /// The source.
    pub source: String,
    /// Puzzles of the source.
    pub n: usize,
    /// Metrics the selection kept without this source (full score).
    pub kept: Vec<Metric>,
    /// Metrics the selection kept for the fast score.
    pub kept_fast: Vec<Metric>,
    /// Correlations with the label: `score`, `score_fast`, every single
    /// metric, and `se` (SE's rating) where known.
    pub rows: Vec<EvalRow>,
    /// Puzzles of the source with an SE rating.
    pub n_se: usize,
    /// Share of those whose SE-equivalent is within ±1.0 of SE's rating.
    pub se_within_1: Option<f64>,
    /// Mean absolute difference of SE-equivalent and SE's rating.
    pub se_mean_abs: Option<f64>,
    /// Spearman of the score minus Spearman of SE's rating, with the label,
    /// on the puzzles SE rated, with its paired bootstrap interval.
    pub vs_se: Option<Difference>,
    /// For the timed source: the held-out predicted solving times.
    pub minutes: Option<MinutesCheck>,
    /// For the timed source: the score, the predicted time and SE's rating
    /// against the times inside SE bands (singles only, SE ≤ 1.5, and
    /// harder), where a score that only places the hardest step is blind.
    pub bands: Vec<BandRows>,
}

/// Correlations with the label inside one band of SE's rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandRows {
    /// The band, e.g. `SE <= 1.5`.
    pub band: String,
    /// `score`, `minutes` and `se` against the label.
    pub rows: Vec<EvalRow>,
}

/// The SE bands of the timed source's report.
const SE_BANDS: [(&str, f64, f64); 2] = [("SE <= 1.5", 0.0, 1.5), ("SE > 1.5", 1.5, f64::INFINITY)];

/// The score, predicted time and SE's rating inside each SE band.
fn band_rows(
    data: &FitData,
    test: &[usize],
    score: &[f64],
    ln_pred: &[Option<f64>],
    boot: &BootstrapOptions,
) -> Vec<BandRows> {
    if ln_pred.iter().all(Option::is_none) {
        return Vec::new();
    }
    SE_BANDS
        .iter()
        .map(|&(band, lo, hi)| {
            let inside: Vec<usize> = test
                .iter()
                .copied()
                .filter(|&i| data.rows[i].se.is_some_and(|se| se > lo && se <= hi))
                .collect();
            let y: Vec<f64> = inside.iter().map(|&i| data.rows[i].rank).collect();
            let column = |f: &dyn Fn(usize) -> Option<f64>| -> (Vec<f64>, Vec<f64>) {
                inside
                    .iter()
                    .zip(&y)
                    .filter_map(|(&i, &y)| f(i).map(|x| (x, y)))
                    .unzip()
            };
            let row = |name: &str, (x, y): (Vec<f64>, Vec<f64>)| evaluate_pairs(name, &x, &y, boot);
            BandRows {
                band: band.to_string(),
                rows: vec![
                    row("score", column(&|i| Some(score[i]))),
                    row("minutes", column(&|i| ln_pred[i])),
                    row("se", column(&|i| data.rows[i].se)),
                ],
            }
        })
        .collect()
}

/// A difference of two statistics on the same puzzles with its paired
/// percentile-bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Difference {
    /// The difference on the sample.
    pub value: f64,
    /// Lower end of the interval (null when the bootstrap is off).
    pub lo: Option<f64>,
    /// Upper end of the interval.
    pub hi: Option<f64>,
}

/// Spearman(a, label) − Spearman(b, label) with a paired bootstrap interval
/// (each resample draws puzzles, keeping their three values together).
pub(crate) fn spearman_difference(
    a: &[f64],
    b: &[f64],
    label: &[f64],
    boot: &BootstrapOptions,
) -> Option<Difference> {
    let diff = |idx: &[f64]| -> Option<f64> {
        let pick = |v: &[f64]| -> Vec<f64> { idx.iter().map(|&i| v[i as usize]).collect() };
        let y = pick(label);
        Some(stats::spearman(&pick(a), &y).ok()? - stats::spearman(&pick(b), &y).ok()?)
    };
    let idx: Vec<f64> = (0..a.len()).map(|i| i as f64).collect();
    let value = diff(&idx)?;
    let ci = stats::bootstrap_intervals(&idx, label, boot, 1, |xs, _| vec![diff(xs)]);
    let interval = ci.first().copied().flatten();
    Some(Difference {
        value,
        lo: interval.map(|i| i.lo),
        hi: interval.map(|i| i.hi),
    })
}

/// Fits selection, weights and calibration without the held-out source and
/// scores it; `fast` lists the candidates of the fast score.
pub(crate) fn validate_source(
    data: &FitData,
    held: &str,
    candidates: &[usize],
    fast: &[usize],
    opts: &ScoreFitOptions,
) -> HeldOut {
    let everything: Vec<usize> = (0..data.rows.len()).collect();
    let folds = opts.test_folds(data, held, &everything);
    let timed = opts.timed.as_deref() == Some(held);
    let test: Vec<usize> = folds.iter().flatten().copied().collect();
    // Each fold is scored by a model selected and fitted without it (the
    // whole source is one fold, the timed source has `opts.folds`); the
    // kept metrics reported are those of the first fold.
    let mut all_full = vec![f64::NAN; data.rows.len()];
    let mut all_fast = vec![f64::NAN; data.rows.len()];
    let mut se_eq: Vec<Option<f64>> = vec![None; data.rows.len()];
    let mut ln_pred: Vec<Option<f64>> = vec![None; data.rows.len()];
    let mut band: Vec<(f64, f64)> = vec![(0.0, 0.0); data.rows.len()];
    let mut kept_first = None;
    for fold in &folds {
        let train = without(&everything, fold, data.rows.len());
        let (kept, _) = select_metrics(data, candidates, &train, opts);
        let (kept_fast, _) = select_metrics(data, fast, &train, opts);
        let full = fit_linear_score(data, &kept, &train, opts);
        let quick = fit_linear_score(data, &kept_fast, &train, opts);
        let (s_full, s_fast) = (scores(data, &full), scores(data, &quick));
        // The timed source's folds are pooled on the ln-time scale (each
        // fold's order kept); a whole held-out source keeps the 0–10 scale.
        let scale = |s: &[f64]| {
            if folds.len() > 1 {
                time_scale(data, |i| s[i], &train, opts).unwrap_or((0.0, 1.0))
            } else {
                (0.0, 1.0)
            }
        };
        let ((a, b), (a_fast, b_fast)) = (scale(&s_full), scale(&s_fast));
        for &i in fold {
            all_full[i] = a + b * s_full[i];
            all_fast[i] = a_fast + b_fast * s_fast[i];
            se_eq[i] = full.se.at(
                s_full[i],
                data.rows[i].hardest.as_deref(),
                data.rows[i].trial,
                None,
            );
            if let Some(time) = &full.time {
                ln_pred[i] = Some(predicted_ln_seconds(time, data, i, s_full[i]));
                band[i] = time.band;
            }
        }
        kept_first.get_or_insert((kept, kept_fast));
    }
    let (kept, kept_fast) = kept_first.unwrap_or_default();
    let y: Vec<f64> = test.iter().map(|&i| data.rows[i].rank).collect();
    let mut rows = Vec::new();
    let pick = |v: &[f64]| -> Vec<f64> { test.iter().map(|&i| v[i]).collect() };
    rows.push(evaluate_pairs(
        "score",
        &pick(&all_full),
        &y,
        &opts.bootstrap,
    ));
    rows.push(evaluate_pairs(
        "score_fast",
        &pick(&all_fast),
        &y,
        &opts.bootstrap,
    ));
    let mut column = |name: &str, get: &dyn Fn(&FitRow) -> Option<f64>| {
        let (x, yy): (Vec<f64>, Vec<f64>) = test
            .iter()
            .filter_map(|&i| get(&data.rows[i]).map(|x| (x, data.rows[i].rank)))
            .unzip();
        rows.push(evaluate_pairs(name, &x, &yy, &opts.bootstrap));
    };
    for (m, name) in data.metrics.iter().enumerate() {
        column(name.name(), &|r: &FitRow| r.values[m]);
    }
    column("se", &|r: &FitRow| r.se);
    let diffs: Vec<f64> = test
        .iter()
        .filter_map(|&i| Some((se_eq[i]? - data.rows[i].se?).abs()))
        .collect();
    let n_se = diffs.len();
    let rated: Vec<usize> = test
        .iter()
        .copied()
        .filter(|&i| data.rows[i].se.is_some())
        .collect();
    let vs_se = spearman_difference(
        &rated.iter().map(|&i| all_full[i]).collect::<Vec<_>>(),
        &rated
            .iter()
            .filter_map(|&i| data.rows[i].se)
            .collect::<Vec<_>>(),
        &rated.iter().map(|&i| data.rows[i].rank).collect::<Vec<_>>(),
        &opts.bootstrap,
    );
    HeldOut {
        source: held.to_string(),
        n: test.len(),
        kept: kept.iter().map(|&m| data.metrics[m]).collect(),
        kept_fast: kept_fast.iter().map(|&m| data.metrics[m]).collect(),
        rows,
        n_se,
        se_within_1: (n_se > 0)
            .then(|| diffs.iter().filter(|&&d| d <= 1.0).count() as f64 / n_se as f64),
        se_mean_abs: (n_se > 0).then(|| diffs.iter().sum::<f64>() / n_se as f64),
        vs_se,
        minutes: timed
            .then(|| minutes_check(data, &test, &ln_pred, &band, &opts.bootstrap))
            .flatten(),
        bands: if timed {
            band_rows(data, &test, &all_full, &ln_pred, &opts.bootstrap)
        } else {
            Vec::new()
        },
    }
}

/// How the held-out predicted times compare with the times (timed source).
fn minutes_check(
    data: &FitData,
    test: &[usize],
    ln_pred: &[Option<f64>],
    band: &[(f64, f64)],
    boot: &BootstrapOptions,
) -> Option<MinutesCheck> {
    let pairs: Vec<(usize, f64)> = test
        .iter()
        .filter_map(|&i| ln_pred[i].map(|p| (i, p)))
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let mut errors: Vec<f64> = pairs
        .iter()
        .map(|&(i, p)| (data.rows[i].rank - p).abs())
        .collect();
    errors.sort_by(f64::total_cmp);
    let inside = pairs
        .iter()
        .filter(|&&(i, p)| {
            let r = data.rows[i].rank - p;
            band[i].0 <= r && r <= band[i].1
        })
        .count();
    let predicted: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let times: Vec<f64> = pairs.iter().map(|p| data.rows[p.0].rank).collect();
    Some(MinutesCheck {
        n: pairs.len(),
        median_abs_ln_error: stats::median_sorted(&errors).unwrap_or(f64::NAN),
        within_band: inside as f64 / pairs.len() as f64,
        spearman: evaluate_pairs("minutes", &predicted, &times, boot),
    })
}

/// The held-out check of the predicted solving time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MinutesCheck {
    /// Puzzles with a predicted time.
    pub n: usize,
    /// Median of |ln(time) − ln(predicted time)|: 0.18 means a typical
    /// factor of e^0.18 = 1.2 either way.
    pub median_abs_ln_error: f64,
    /// Share of the puzzles whose time lies in the predicted 25–75 % band.
    pub within_band: f64,
    /// Spearman (and Kendall, γ) of the predicted time with the time.
    pub spearman: EvalRow,
}

/// Leave-one-source-out validation over every source in `held_out`.
pub(crate) fn leave_one_source_out(
    data: &FitData,
    held_out: &[String],
    candidates: &[usize],
    fast: &[usize],
    opts: &ScoreFitOptions,
) -> Vec<HeldOut> {
    held_out
        .iter()
        .map(|s| validate_source(data, s, candidates, fast, opts))
        .collect()
}
