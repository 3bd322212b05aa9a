//! How far a puzzle's metrics are from the targets, and which way a puzzle
//! must move to meet the ones it misses (directions from the registry,
//! [`crate::metrics`]).

use super::spec::{Op, Target, TargetValue};
use super::values::Values;
use crate::metrics::{Direction, Kind, Metric, MetricValue, Role, Source};

/// Distance charged for a target whose model could not rate the puzzle.
pub(crate) const MISSING: f64 = 100.0;

/// How far `actual` is from meeting one target (0 when it holds).
pub(crate) fn target_distance(t: &Target, actual: Option<&MetricValue>) -> f64 {
    let numeric = |v: f64, want: f64, scale: f64| {
        let gap = (v - want) / scale;
        // A strict bound missed at equality still counts as a miss.
        let strict = 1e-3;
        match t.op {
            Op::Eq => gap.abs(),
            Op::Ne => f64::from(v == want),
            Op::Lt if v < want => 0.0,
            Op::Lt => gap + strict,
            Op::Le => gap.max(0.0),
            Op::Gt if v > want => 0.0,
            Op::Gt => -gap + strict,
            Op::Ge => (-gap).max(0.0),
        }
    };
    let equal = |same: bool| match t.op {
        Op::Eq => f64::from(!same),
        _ => f64::from(same),
    };
    match (&t.value, actual) {
        (TargetValue::Number(want), Some(v)) => match v.as_f64() {
            Some(v) => numeric(v, *want, want.abs().max(1.0)),
            None => MISSING,
        },
        (TargetValue::Level(want), Some(MetricValue::Text(s))) => match rank(t.field, s) {
            Some(rank) => numeric(rank as f64, *want as f64, 1.0),
            None => MISSING,
        },
        (TargetValue::Bool(want), Some(MetricValue::Bool(b))) => equal(want == b),
        (TargetValue::Text(want), Some(MetricValue::Text(s))) => {
            equal(want.eq_ignore_ascii_case(s))
        }
        _ => MISSING,
    }
}

/// The rank of a level of a level field (0 = easiest).
fn rank(field: Metric, level: &str) -> Option<usize> {
    match field.kind() {
        Kind::Levels(levels) => levels.iter().position(|l| *l == level),
        _ => None,
    }
}

/// The score behind a level field.
pub(super) struct LevelScale {
    /// The score's field.
    pub(super) field: Metric,
    /// The score range of each level, inclusive (the oracle's and the
    /// score's upper ends are exclusive cut points, which makes no
    /// difference to a distance).
    pub(super) ranges: [(f64, f64); 4],
    /// The width of a middle level, the unit of [`level_gap`].
    unit: f64,
}

pub(super) fn level_scale(field: Metric) -> Option<LevelScale> {
    const INF: f64 = f64::INFINITY;
    match field {
        // The shipped score's four-level scale (quartiles of its reference
        // puzzles).
        Metric::ScoreLevel => {
            let c = crate::score::ScoreModel::shipped().full.level_cuts(4);
            Some(LevelScale {
                field: Metric::Score,
                ranges: [(-INF, c[0]), (c[0], c[1]), (c[1], c[2]), (c[2], INF)],
                unit: c[2] - c[1],
            })
        }
        // Xu & Xu Table 3 (crate::human::weights::WeightLevel::of).
        Metric::WeightsLevel => Some(LevelScale {
            field: Metric::WeightsScore,
            ranges: [(-INF, 72.0), (73.0, 86.0), (87.0, 98.0), (99.0, INF)],
            unit: 12.0,
        }),
        // Fletcher et al. cut points (crate::human::oracle::OracleOptions).
        Metric::OracleLevel => Some(LevelScale {
            field: Metric::OracleScore,
            ranges: [(-INF, 0.18), (0.18, 0.6), (0.6, 0.8), (0.8, INF)],
            unit: 0.2,
        }),
        _ => None,
    }
}

/// Distance of a missed level target measured on the score behind the
/// level: the gap from `score` to the nearest level the target accepts, in
/// widths of a middle level (so one level off is about 1, as a rank step,
/// but a puzzle just below the range is nearer than one far below it, which
/// guides the local search). `None` for fields without a score.
fn level_gap(t: &Target, score: f64) -> Option<f64> {
    let TargetValue::Level(want) = t.value else {
        return None;
    };
    let LevelScale { ranges, unit, .. } = level_scale(t.field)?;
    let gap = (0..4)
        .filter(|&r| accepts(t.op, r, want))
        .map(|r| {
            let (lo, hi) = ranges[r];
            (lo - score).max(score - hi).max(0.0)
        })
        .fold(f64::INFINITY, f64::min);
    // A miss on the cut point itself still counts (the oracle's upper ends
    // are exclusive).
    Some(if gap == 0.0 { 1e-3 } else { gap / unit })
}

/// Whether a level of rank `rank` meets `op want`.
fn accepts(op: Op, rank: usize, want: usize) -> bool {
    match op {
        Op::Eq => rank == want,
        Op::Ne => rank != want,
        Op::Lt => rank < want,
        Op::Le => rank <= want,
        Op::Gt => rank > want,
        Op::Ge => rank >= want,
    }
}

/// The probability that target `t` holds when the value behind it (the
/// field, or the score behind a level) is normal around the measured value
/// with its standard error (`Values::se`; [`crate::stats::probability_in`]):
/// `Φ((v − cut)/se)` for `>=` and `>`, the normal mass of the accepted
/// levels' score ranges for a level. `None` for a deterministic field (no
/// or a zero standard error), a missing value, and `=` or `!=` on a number.
pub(crate) fn holds_probability(t: &Target, metrics: &Values) -> Option<f64> {
    use crate::stats::probability_in;
    const INF: f64 = f64::INFINITY;
    let positive = |m: Metric| metrics.se.get(&m).copied().filter(|&e| e > 0.0);
    match t.value {
        TargetValue::Number(want) => {
            let v = metrics.number(t.field)?;
            let se = positive(t.field)?;
            let (lo, hi) = match t.op {
                Op::Ge | Op::Gt => (want, INF),
                Op::Le | Op::Lt => (-INF, want),
                Op::Eq | Op::Ne => return None,
            };
            Some(probability_in(v, se, lo, hi))
        }
        TargetValue::Level(want) => {
            let LevelScale { field, ranges, .. } = level_scale(t.field)?;
            let score = metrics.number_or_score(field)?;
            let se = positive(field)?;
            let p: f64 = (0..4)
                .filter(|&r| accepts(t.op, r, want))
                .map(|r| probability_in(score, se, ranges[r].0, ranges[r].1))
                .sum();
            Some(p.min(1.0))
        }
        TargetValue::Bool(_) | TargetValue::Text(_) => None,
    }
}

/// How sure the least sure stochastic target is: the smallest
/// [`holds_probability`] over the targets; `None` when no target has one.
pub(crate) fn target_confidence(targets: &[Target], metrics: &Values) -> Option<f64> {
    targets
        .iter()
        .filter_map(|t| holds_probability(t, metrics))
        .reduce(f64::min)
}

/// Whether `t` holds on the point value but not with `metrics.confidence`.
fn unsure(t: &Target, metrics: &Values) -> bool {
    metrics
        .confidence
        .zip(holds_probability(t, metrics))
        .is_some_and(|(c, p)| p < c)
}

/// Sum of the distances to every target. `metrics` holds the value of each
/// target field; for a missed level target it may also hold the score
/// behind the level (`weights_score`, `oracle_score`), which then measures
/// the miss (`level_gap`); otherwise the miss counts in rank steps. With a
/// confidence (`metrics.confidence`), a stochastic target that holds with
/// probability `p` below it adds `confidence − p` ([`holds_probability`]),
/// so a puzzle on the edge of a cut is not a hit and the search moves
/// inwards.
pub(crate) fn distance(targets: &[Target], metrics: &Values) -> f64 {
    targets
        .iter()
        .map(|t| {
            let d = target_distance(t, metrics.get(t.field));
            let score = level_scale(t.field)
                .and_then(|l| metrics.get(l.field))
                .and_then(MetricValue::as_f64);
            let d = match score {
                Some(s) if d > 0.0 && d < MISSING => level_gap(t, s).unwrap_or(d),
                _ => d,
            };
            let short = match (metrics.confidence, holds_probability(t, metrics)) {
                (Some(c), Some(p)) if d < MISSING => (c - p).max(0.0),
                _ => 0.0,
            };
            d + short
        })
        // `Sum` for floats starts at -0.0, which would print as "-0".
        .fold(0.0, |acc, d| acc + d)
}

/// Which way a target met too near its cut moves inwards: away from the
/// bound of `>=` or `<=`, towards the middle of the level's score range for
/// `=` on a level.
fn inwards(t: &Target, metrics: &Values) -> Option<Need> {
    let up = match (t.op, &t.value) {
        (Op::Ge | Op::Gt, _) => true,
        (Op::Le | Op::Lt, _) => false,
        (Op::Eq, TargetValue::Level(want)) => {
            let LevelScale { field, ranges, .. } = level_scale(t.field)?;
            let score = metrics.number_or_score(field)?;
            let (lo, hi) = ranges[*want];
            score < (lo + hi) / 2.0
        }
        _ => return None,
    };
    Some(if up == higher_is_harder(t.field)? {
        Need::Harder
    } else {
        Need::Easier
    })
}

/// Which way a puzzle must move to meet the targets it misses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// Easier (e.g. a lower score, a lower level, more givens).
    Easier,
    /// Harder.
    Harder,
}

/// Whether a higher value of `field` means a harder puzzle: true for the
/// ratings, levels and scores, false for `givens` and SiSuS dependency
/// (fewer possibilities per step is harder); `None` where there is no such
/// reading (spreads, relaxation summaries, text and booleans).
fn higher_is_harder(m: Metric) -> Option<bool> {
    // A relaxation summary is a mean over random samples: it does not move
    // monotonically with one given more or less, so it does not steer.
    if m.role() != Role::Metric || m.source() == Source::Relax {
        return None;
    }
    match m.kind() {
        Kind::Number | Kind::Levels(_) => Some(m.direction() == Direction::HigherIsHarder),
        Kind::Bool | Kind::Text | Kind::List => None,
    }
}

/// The way a puzzle with these target values must move, when every missed
/// target agrees on it; `None` when one has no direction or they disagree.
pub(crate) fn need(targets: &[Target], metrics: &Values) -> Option<Need> {
    let mut out = None;
    for t in targets {
        let actual = metrics.get(t.field);
        if target_distance(t, actual) == 0.0 {
            if !unsure(t, metrics) {
                continue;
            }
            // Met, but too near a cut: move into the accepted range.
            let n = inwards(t, metrics)?;
            if out.is_some_and(|o| o != n) {
                return None;
            }
            out = Some(n);
            continue;
        }
        let (value, want) = match (&t.value, actual) {
            (TargetValue::Number(w), Some(v)) => (v.as_f64()?, *w),
            (TargetValue::Level(w), Some(MetricValue::Text(s))) => {
                (rank(t.field, s)? as f64, *w as f64)
            }
            _ => return None,
        };
        let up = match t.op {
            Op::Ge | Op::Gt => true,
            Op::Le | Op::Lt => false,
            Op::Eq => value < want,
            Op::Ne => return None,
        };
        let n = if up == higher_is_harder(t.field)? {
            Need::Harder
        } else {
            Need::Easier
        };
        if out.is_some_and(|o| o != n) {
            return None;
        }
        out = Some(n);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::aim::spec::parse_target;
    use MetricValue::{Bool, Count, Number};

    fn text(s: &str) -> MetricValue {
        MetricValue::Text(s.to_string())
    }

    /// Values of these metrics (`None`: the model could not rate it).
    fn m(pairs: &[(Metric, Option<MetricValue>)]) -> Values {
        Values {
            values: pairs.iter().cloned().collect(),
            ..Values::default()
        }
    }

    #[test]
    fn distances() {
        let one = |k: Metric, v: MetricValue| m(&[(k, Some(v))]);
        let ge = parse_target("weights_score>=90").unwrap();
        let d = |t: &Target, v: &Values| distance(std::slice::from_ref(t), v);
        assert_eq!(d(&ge, &one(Metric::WeightsScore, Count(95))), 0.0);
        assert_eq!(d(&ge, &one(Metric::WeightsScore, Count(81))), 0.1);
        assert_eq!(d(&ge, &m(&[(Metric::WeightsScore, None)])), MISSING);
        let lt = parse_target("givens<25").unwrap();
        assert!(d(&lt, &one(Metric::Givens, Count(25))) > 0.0);
        assert_eq!(d(&lt, &one(Metric::Givens, Count(24))), 0.0);
        let lvl = parse_target("oracle_level>=Challenging").unwrap();
        assert_eq!(d(&lvl, &one(Metric::OracleLevel, text("Crazy"))), 0.0);
        assert_eq!(d(&lvl, &one(Metric::OracleLevel, text("Cinch"))), 2.0);
        let b = parse_target("solved_by_2!=true").unwrap();
        assert_eq!(d(&b, &one(Metric::SolvedBy2, Bool(true))), 1.0);
    }

    #[test]
    fn missed_targets_say_which_way_to_move() {
        let t = |texts: &[&str]| Target::parse_all(texts).unwrap();
        let some = |pairs: &[(Metric, MetricValue)]| {
            m(&pairs
                .iter()
                .map(|(k, v)| (*k, Some(v.clone())))
                .collect::<Vec<_>>())
        };
        let hard = t(&["weights_level=Hard"]);
        let easy = some(&[(Metric::WeightsLevel, text("Easy"))]);
        let challenging = some(&[(Metric::WeightsLevel, text("Challenging"))]);
        let reached = some(&[(Metric::WeightsLevel, text("Hard"))]);
        assert_eq!(need(&hard, &easy), Some(Need::Harder));
        assert_eq!(need(&hard, &challenging), Some(Need::Easier));
        assert_eq!(need(&hard, &reached), None);
        // More givens is easier: a puzzle with too many must get harder.
        let few = t(&["givens<=22"]);
        assert_eq!(
            need(&few, &some(&[(Metric::Givens, Count(25))])),
            Some(Need::Harder)
        );
        // SiSuS dependency: fewer possibilities per step is harder.
        let dep = t(&["sisus_dependency<=3"]);
        let v = some(&[(Metric::SisusDependency, Number(4.5))]);
        assert_eq!(need(&dep, &v), Some(Need::Harder));
        // Targets pulling apart, or without a direction, leave it open.
        let both = t(&["weights_score>=90", "givens>=30"]);
        let v = some(&[
            (Metric::WeightsScore, Count(80)),
            (Metric::Givens, Count(24)),
        ]);
        assert_eq!(need(&both, &v), None);
        let relax = t(&["mean_fixed<=12"]);
        assert_eq!(
            need(&relax, &some(&[(Metric::MeanFixed, Number(20.0))])),
            None
        );
        assert_eq!(need(&hard, &m(&[(Metric::WeightsLevel, None)])), None);
    }

    /// A bound met by less than 1.645 standard errors is not met at 95 %:
    /// its distance is `0.95 − Φ((v − cut)/se)` and the puzzle must move
    /// inwards; a level near its lower cut moves up, near its upper cut
    /// down; without a confidence only the point value counts.
    #[test]
    fn targets_hold_with_the_asked_confidence() {
        let sure = |v: f64, se: f64, confidence: Option<f64>| {
            let mut values = m(&[(Metric::OracleScore, Some(Number(v)))]);
            values.se.insert(Metric::OracleScore, se);
            values.confidence = confidence;
            values
        };
        let ge = Target::parse_all(&["oracle_score>=0.6"]).unwrap();
        let phi = crate::stats::normal_cdf;
        assert_eq!(distance(&ge, &sure(0.66, 0.03, Some(0.95))), 0.0);
        let d = distance(&ge, &sure(0.65, 0.05, Some(0.95)));
        assert!((d - (0.95 - phi(1.0))).abs() < 1e-9, "{d}");
        assert_eq!(need(&ge, &sure(0.65, 0.05, Some(0.95))), Some(Need::Harder));
        assert_eq!(distance(&ge, &sure(0.65, 0.05, None)), 0.0);
        assert_eq!(need(&ge, &sure(0.65, 0.05, None)), None);
        // A level: the normal mass of Challenging's [0.6, 0.8).
        let level = Target::parse_all(&["oracle_level=Challenging"]).unwrap();
        let near = |score: f64| {
            let mut v = m(&[(Metric::OracleLevel, Some(text("Challenging")))]);
            v.scores.insert(Metric::OracleScore, score);
            v.se.insert(Metric::OracleScore, 0.02);
            v.confidence = Some(0.95);
            v
        };
        let p = holds_probability(&level[0], &near(0.62)).unwrap();
        assert!((p - (phi(9.0) - phi(-1.0))).abs() < 1e-9, "{p}");
        assert_eq!(need(&level, &near(0.62)), Some(Need::Harder));
        assert_eq!(need(&level, &near(0.79)), Some(Need::Easier));
        assert_eq!(need(&level, &near(0.70)), None);
        assert_eq!(
            target_confidence(&level, &near(0.70)),
            holds_probability(&level[0], &near(0.70))
        );
    }

    #[test]
    fn level_misses_are_measured_on_the_score_behind_them() {
        let with = |level: &str, score: f64| {
            m(&[
                (Metric::WeightsLevel, Some(text(level))),
                (Metric::WeightsScore, Some(Number(score))),
            ])
        };
        let hard = parse_target("weights_level=Hard").unwrap();
        let d =
            |level: &str, score: f64| distance(std::slice::from_ref(&hard), &with(level, score));
        // Hard is 87–98 (Xu & Xu Table 3); a middle level is 12 points wide.
        assert_eq!(d("Hard", 90.0), 0.0);
        assert_eq!(d("Intermediate", 86.0), 1.0 / 12.0);
        assert_eq!(d("Intermediate", 75.0), 1.0);
        assert_eq!(d("Challenging", 122.0), 2.0);
        assert!(d("Easy", 60.0) > d("Intermediate", 80.0));
        // Without the score a miss counts in rank steps.
        let rank_only = m(&[(Metric::WeightsLevel, Some(text("Easy")))]);
        assert_eq!(distance(std::slice::from_ref(&hard), &rank_only), 2.0);
        // The oracle's cut points are exclusive upper ends: 0.6 is Challenging.
        let below = parse_target("oracle_level<=Confusing").unwrap();
        let oracle = m(&[
            (Metric::OracleLevel, Some(text("Challenging"))),
            (Metric::OracleScore, Some(Number(0.6))),
        ]);
        assert!(distance(std::slice::from_ref(&below), &oracle) > 0.0);
        let ge = parse_target("oracle_level>=Challenging").unwrap();
        let crazy = m(&[
            (Metric::OracleLevel, Some(text("Cinch"))),
            (Metric::OracleScore, Some(Number(0.1))),
        ]);
        assert!((distance(&[ge], &crazy) - 2.5).abs() < 1e-9);
    }
}
