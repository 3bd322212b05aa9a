//! Calibrations of a fitted score (`docs/methods.md` §6.3): the
//! SE-equivalent is the isotonic (pool-adjacent-violators) regression of
//! SE's rating on the score, per hardest technique where enough puzzles
//! have one; a source's level cuts are, for each boundary between adjacent
//! levels, the threshold with the fewest puzzles on the wrong side, made
//! ascending.

use super::FitData;
use crate::human::Technique;
use crate::score::{SeCalibration, TrialCalibration};
use crate::stats::quantile_sorted;
use std::collections::{BTreeMap, BTreeSet};

/// Isotonic regression (pool adjacent violators) of `y` on `x`: ascending
/// `(mean x, mean y)` of the pooled blocks, at most `max_knots` of them.
pub(crate) fn isotonic_knots(points: &[(f64, f64)], max_knots: usize) -> Vec<(f64, f64)> {
    let mut pts = points.to_vec();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Equal scores are one observation of their mean rating: (x, sum y, count).
    let mut ties: Vec<(f64, f64, f64)> = Vec::new();
    for (x, y) in pts {
        match ties.last_mut() {
            Some(t) if t.0 == x => {
                t.1 += y;
                t.2 += 1.0;
            }
            _ => ties.push((x, y, 1.0)),
        }
    }
    // Blocks of (sum x, sum y, count).
    let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
    for (x, sum_y, n) in ties {
        blocks.push((x * n, sum_y, n));
        while blocks.len() >= 2 {
            let (b, a) = (blocks[blocks.len() - 1], blocks[blocks.len() - 2]);
            if a.1 / a.2 <= b.1 / b.2 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
        }
    }
    let mut knots: Vec<(f64, f64)> = blocks.iter().map(|b| (b.0 / b.2, b.1 / b.2)).collect();
    // A pooled mean can round below the one before it.
    for i in 1..knots.len() {
        knots[i].0 = knots[i].0.max(knots[i - 1].0);
    }
    if knots.len() <= max_knots || max_knots < 2 {
        return knots;
    }
    (0..max_knots)
        .map(|k| knots[k * (knots.len() - 1) / (max_knots - 1)])
        .collect()
}

/// The SE-equivalent of the training rows with an SE rating: per hardest
/// technique with at least 20 such rows the isotonic curve, with 3 to 19 one
/// knot at the medians, rarer ones left to the curve of every row.
pub(super) fn se_calibration(
    data: &FitData,
    train: &[usize],
    s_of: &BTreeMap<usize, f64>,
) -> SeCalibration {
    let mut groups: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut pooled = Vec::new();
    for &i in train {
        let r = &data.rows[i];
        if let Some(se) = r.se {
            let key = r
                .hardest
                .clone()
                .unwrap_or_else(|| SeCalibration::BEYOND.to_string());
            groups.entry(key).or_default().push((s_of[&i], se));
            pooled.push((s_of[&i], se));
        }
    }
    let median = |v: Vec<f64>| -> f64 {
        let mut v = v;
        v.sort_by(f64::total_cmp);
        quantile_sorted(&v, 0.5).unwrap_or(0.0)
    };
    let by_technique = groups
        .into_iter()
        .filter(|(_, pts)| pts.len() >= 3)
        .map(|(k, pts)| {
            let knots = if pts.len() >= 20 {
                isotonic_knots(&pts, 32)
            } else {
                vec![(
                    median(pts.iter().map(|p| p.0).collect()),
                    median(pts.iter().map(|p| p.1).collect()),
                )]
            };
            (k, knots)
        })
        .collect();
    SeCalibration {
        by_technique,
        pooled: isotonic_knots(&pooled, 64),
        trial: trial_calibration(data, train),
        serate: false,
    }
}

/// Share of the trial placement in the SE-equivalent of a puzzle single
/// assumptions solve (`docs/score.md`: the mean of the two placements ranks
/// top1465 best).
const TRIAL_WEIGHT: f64 = 0.5;

/// The trial curve: the isotonic regression of SE's rating on the trial
/// rating over the SE-rated training rows whose hardest technique is a
/// forcing chain or beyond the catalogue, and the anchors; `None` without
/// 20 such points.
fn trial_calibration(data: &FitData, train: &[usize]) -> Option<TrialCalibration> {
    let techniques = [
        Technique::ForcingChain.name().to_string(),
        SeCalibration::BEYOND.to_string(),
    ];
    let mut points: Vec<(f64, f64)> = train
        .iter()
        .map(|&i| &data.rows[i])
        .filter(|r| {
            let key = r.hardest.as_deref().unwrap_or(SeCalibration::BEYOND);
            techniques.iter().any(|t| t == key)
        })
        .filter_map(|r| Some((r.trial?, r.se?)))
        .collect();
    points.extend(data.anchors.iter().copied());
    if points.len() < 20 {
        return None;
    }
    let max_rating = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    Some(TrialCalibration {
        techniques: techniques.to_vec(),
        knots: isotonic_knots(&points, 64),
        weight: TRIAL_WEIGHT,
        max_rating,
    })
}

/// Level cuts of one source: per boundary the threshold with the fewest
/// puzzles on the wrong side, then made ascending.
pub(super) fn level_cuts(scored: &[(f64, f64)]) -> Vec<f64> {
    let ranks: BTreeSet<u64> = scored.iter().map(|p| p.1.to_bits()).collect();
    let mut ranks: Vec<f64> = ranks.into_iter().map(f64::from_bits).collect();
    ranks.sort_by(f64::total_cmp);
    let mut sorted: Vec<f64> = scored.iter().map(|p| p.0).collect();
    sorted.sort_by(f64::total_cmp);
    let mut cuts = Vec::new();
    for b in ranks.windows(2) {
        let lower = b[0];
        let mut best = (usize::MAX, 0.0);
        let mut candidates: Vec<f64> = sorted.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
        candidates.push(sorted[0] - 1.0);
        for t in candidates {
            let wrong = scored
                .iter()
                .filter(|(s, r)| (*r <= lower) == (*s >= t))
                .count();
            if wrong < best.0 {
                best = (wrong, t);
            }
        }
        cuts.push(best.1);
    }
    for i in 1..cuts.len() {
        cuts[i] = cuts[i].max(cuts[i - 1]);
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isotonic_pools_violators_and_ties() {
        let k = isotonic_knots(&[(1.0, 1.0), (2.0, 3.0), (3.0, 2.0), (4.0, 5.0)], 64);
        assert_eq!(k, vec![(1.0, 1.0), (2.5, 2.5), (4.0, 5.0)]);
        // Equal scores pool first, whatever their order.
        let k = isotonic_knots(&[(1.0, 4.0), (1.0, 2.0), (2.0, 3.5)], 64);
        assert_eq!(k, vec![(1.0, 3.0), (2.0, 3.5)]);
    }

    #[test]
    fn the_trial_curve_takes_chain_puzzles_and_anchors_only() {
        use crate::score::fit::{FitData, FitRow};
        let row = |hardest: Option<&str>, trial: f64, se: f64| FitRow {
            source: "s".into(),
            rank: se,
            se: Some(se),
            level: None,
            hardest: hardest.map(str::to_string),
            trial: Some(trial),
            values: vec![Some(0.0)],
        };
        let mut rows: Vec<FitRow> = (0..30)
            .map(|i| {
                row(
                    Some("forcing chain"),
                    1.2 + 0.01 * f64::from(i),
                    6.0 + 0.1 * f64::from(i),
                )
            })
            .collect();
        // A pointing puzzle is placed by the score, never by the trial curve.
        rows.push(row(Some("pointing"), 1.9, 2.6));
        rows.push(row(Some("forum"), 2.5, 11.0));
        rows[31].source = "forum".into();
        let data = FitData {
            metrics: vec![crate::metrics::Metric::Hsolve],
            rows,
            anchors: Vec::new(),
        }
        .split_anchors("forum");
        assert_eq!(data.rows.len(), 31);
        assert_eq!(data.anchors, vec![(2.5, 11.0)]);
        let train: Vec<usize> = (0..data.rows.len()).collect();
        let cal = trial_calibration(&data, &train).unwrap();
        assert_eq!(cal.max_rating, 2.5);
        assert_eq!(cal.knots.last(), Some(&(2.5, 11.0)));
        assert_eq!(cal.knots.len(), 31);
        assert!(cal.knots.iter().all(|k| k.1 >= 6.0));
        assert_eq!(cal.weight, TRIAL_WEIGHT);
    }

    #[test]
    fn level_cuts_separate_clean_levels() {
        let pts = [(1.0, 1.0), (2.0, 1.0), (5.0, 2.0), (6.0, 2.0), (9.0, 3.0)];
        assert_eq!(level_cuts(&pts), vec![3.5, 7.5]);
    }
}
