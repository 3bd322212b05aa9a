//! The metrics a score is made of, computed as `sudolab analyze` computes
//! them (`docs/methods.md` §6.1), on the puzzle's canonical form and with
//! the model's fixed seed, so a puzzle and every puzzle equivalent to it get
//! the same values.
//!
//! The fit reads the same values from `sudolab score --metrics-out` rows,
//! so the metrics a model was fitted on and the ones it is applied to come
//! from this one function.

use super::{ScoreError, SeCalibration};
use crate::engine::Engines;
use crate::grid::Puzzle;
use crate::human::{Model, Technique};
use crate::metrics::{self, Metric, MetricGroup, MetricOptions, Source};
use crate::relax::RelaxOptions;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Every metric a score may use (their groups are in [`crate::metrics`]).
pub(crate) const CANDIDATES: [Metric; 21] = [
    Metric::WeightsScore,
    Metric::HardestWeight,
    Metric::Hsolve,
    Metric::SisusRefutationSum,
    Metric::SisusDependency,
    Metric::SinglesDependency,
    Metric::SinglesBoxReach,
    Metric::SinglesHiddenReach,
    Metric::SinglesNakedReach,
    Metric::BasicReach,
    Metric::Nishio4Heuristic,
    Metric::OracleScore,
    Metric::Givens,
    Metric::Candidates,
    Metric::Backtracks,
    Metric::ShortPct,
    Metric::MeanFixed,
    Metric::PUnique,
    Metric::TrialRating,
    Metric::Serate,
    Metric::Fowler,
];

/// Parameters of the randomised metrics, fixed in the model so a puzzle's
/// score never depends on a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureParams {
    /// Seed of the relaxation and of every human model.
    pub seed: u64,
    /// Relaxation samples.
    pub samples: usize,
    /// Edges removed per relaxation sample.
    pub k: usize,
    /// Solution cap per relaxation sample.
    pub cap: u64,
    /// Backtracks after which the baseline's plain depth-first search gives
    /// up (`backtracks` is then missing, and its term takes the fill value).
    /// A model without the field was fitted with `rate`'s cap of 10 million.
    #[serde(default = "FeatureParams::rate_backtrack_cap")]
    pub backtrack_cap: u64,
}

impl FeatureParams {
    /// The score's backtrack cap. On puzzles with few givens the plain
    /// search runs to any cap (85 of 96 17-clue puzzles reach 10 million)
    /// and was nearly all of the score's time; 83 of the 3,600 fitting
    /// puzzles need a million or more (`docs/score.md`).
    pub const BACKTRACK_CAP: u64 = 1_000_000;

    /// The largest solution cap of a score model's relaxation samples.
    pub const MAX_CAP: usize = 1_000_000;

    /// The cap of `rate`'s baseline, which models fitted before the field
    /// existed were computed with.
    fn rate_backtrack_cap() -> u64 {
        crate::human::RateOptions::default().backtrack_cap
    }

    /// Refuses parameters the command line would refuse as flags, with the
    /// same check: the relaxation's ([`RelaxOptions::check`]: samples
    /// outside `1..=`[`MAX_SAMPLES`](crate::RelaxOptions::MAX_SAMPLES)) and a `k`
    /// beyond the edges of the 9×9 Sudoku graph. The error names the field
    /// (`params.samples`, `params.k`) and its value; a `backtrack_cap` of 0
    /// or above `rate`'s, and a `cap` of 0 (uncapped) or above
    /// [`FeatureParams::MAX_CAP`], are refused by name.
    pub fn check(&self) -> Result<(), crate::limits::OptionError> {
        let relax = RelaxOptions {
            k: self.k,
            samples: self.samples,
            seed: self.seed,
            cap: self.cap,
            ..RelaxOptions::default()
        };
        relax.check().map_err(|e| e.within("params"))?;
        let as_usize = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        // A score runs on every puzzle of a batch: an uncapped count (cap 0)
        // or a search past `rate`'s own cap has no time bound.
        crate::limits::at_least("params.cap", as_usize(self.cap), 1)?;
        crate::limits::at_most("params.cap", as_usize(self.cap), Self::MAX_CAP)?;
        crate::limits::at_least("params.backtrack_cap", as_usize(self.backtrack_cap), 1)?;
        crate::limits::at_most(
            "params.backtrack_cap",
            as_usize(self.backtrack_cap),
            as_usize(Self::rate_backtrack_cap()),
        )?;
        crate::limits::check_k("params.k", self.k, 3)
    }
}

impl Default for FeatureParams {
    fn default() -> Self {
        FeatureParams {
            seed: 1,
            samples: 20,
            k: 45,
            cap: 1000,
            backtrack_cap: Self::BACKTRACK_CAP,
        }
    }
}

/// The metric groups that compute these metrics (nothing more).
fn metric_options(names: &[Metric], p: &FeatureParams) -> MetricOptions {
    let mut models = BTreeSet::new();
    let (mut clauses, mut relax) = (false, false);
    for name in names {
        match name.source() {
            // Serate runs after the trial depth, where it is used
            // (`feature_values`).
            Source::Rate(Model::Serate | Model::Fowler) => {}
            Source::Rate(m) => {
                models.insert(m);
            }
            Source::Clauses => clauses = true,
            Source::Relax => relax = true,
            Source::Score => {}
        }
    }
    // The uniqueness check of `rate` says why a puzzle has no score; the
    // hardest technique and the trial depth place the SE-equivalent.
    models.insert(Model::Baseline);
    models.insert(Model::Weights);
    models.insert(Model::Trial);
    let mut groups = vec![MetricGroup::Rate(models)];
    if clauses {
        groups.push(MetricGroup::Clauses);
    }
    if relax {
        groups.push(MetricGroup::Relax);
    }
    MetricOptions {
        groups,
        relax: RelaxOptions {
            k: p.k,
            auto_k: false,
            samples: p.samples,
            precision: None,
            stop_at_saturation: false,
            seed: p.seed,
            cap: p.cap,
            engines: Engines::default(),
            // Two samples are still re-counted by a second engine.
            verify: 2,
            verify_by: Default::default(),
        },
        rate_seed: p.seed,
        fixedness: false,
        sisus_dependency: names
            .iter()
            .any(|n| matches!(n, Metric::SisusDependency | Metric::SisusDependencySd)),
        backtrack_cap: p.backtrack_cap,
        // Serate's metrics are computed apart (`feature_values`).
        serate_budget: 0,
    }
}

/// The metrics of one puzzle.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Features {
    /// The metrics; `None` where a model cannot finish without search.
    pub values: BTreeMap<Metric, Option<f64>>,
    /// The hardest technique of the technique-weight path (`None`: nothing to
    /// fill, or the catalogue cannot finish).
    pub hardest_technique: Option<Technique>,
    /// The trial rating (`docs/methods.md` §3.9), which places the
    /// SE-equivalent of the hardest puzzles.
    pub trial_rating: Option<f64>,
    /// The trial depth (§3.9).
    pub trial_depth: Option<u8>,
}

/// The metrics of a 9×9 puzzle with exactly one solution, computed on
/// its canonical form, its hardest technique, trial rating and trial depth.
/// Serate's metrics are left out where the calibration `se` places the
/// puzzle by its trial rating alone.
pub(crate) fn feature_values(
    puzzle: &Puzzle,
    names: &[Metric],
    p: &FeatureParams,
    se: &SeCalibration,
) -> Result<Features, ScoreError> {
    if puzzle.order() != 3 {
        return Err(ScoreError::Order(puzzle.side()));
    }
    if puzzle.has_pencilmarks() {
        return Err(ScoreError::Pencilmarks);
    }
    // The canonical form renames digits and moves cells: its contradiction
    // would name another digit and unit than the puzzle as given.
    puzzle
        .check()
        .map_err(|c| ScoreError::NotUnique(format!("puzzle is contradictory: {c}")))?;
    let canon = match puzzle.canonical() {
        Ok(c) => c,
        Err(e) => unreachable!("every 9×9 puzzle has a canonical form: {e}"),
    };
    let row = metrics::compute(&canon, &metric_options(names, p))?;
    if let Some(fault) = row.rate.as_ref().and_then(|r| r.puzzle.as_ref()) {
        return Err(ScoreError::NotUnique(fault.to_string()));
    }
    if let Some((group, why)) = row.errors.iter().next() {
        return Err(ScoreError::NotUnique(format!("{group}: {why}")));
    }
    let trial_rating = row.rate.as_ref().and_then(|r| r.trial.rating);
    let trial_depth = row.rate.as_ref().and_then(|r| r.trial.depth);
    let hardest_technique = row.rate.as_ref().and_then(|r| r.weights.hardest_technique);
    // Serate's metrics (without nesting levels 3–5, as the model was fitted)
    // are missing where the trial curve places the puzzle alone, as where
    // serate cannot finish. They are the canonical form's: SE's path
    // depends on where the cells are, so a rating of the puzzle as given
    // (`rate -m serate`, the SE-equivalent) cannot stand in for them.
    let wanted = names
        .iter()
        .any(|m| matches!(m, Metric::Serate | Metric::Fowler));
    let rated = (wanted
        && !se.placed_by_trial_alone(hardest_technique.map(Technique::name), trial_rating))
    .then(|| {
        use crate::se::{WorkBudget, serate_within};
        serate_within(&canon, WorkBudget::OFF).ok()
    })
    .flatten();
    Ok(Features {
        values: names
            .iter()
            .map(|&m| {
                let v = match m {
                    Metric::Serate => rated.as_ref().map(|r| r.serate),
                    Metric::Fowler => rated.as_ref().map(|r| r.fowler),
                    _ => row.get(m).as_ref().and_then(metrics::MetricValue::as_f64),
                };
                (m, v)
            })
            .collect(),
        trial_rating,
        trial_depth,
        hardest_technique,
    })
}

/// Every candidate metric.
pub(crate) fn candidates() -> Vec<Metric> {
    CANDIDATES.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::canon::Transform as Symmetry;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    /// SE's path depends on where the cells are: the Fowler-like sum of a
    /// puzzle and of its canonical form differ (ER agrees here), so the
    /// features rate the canonical form themselves.
    #[test]
    fn serate_of_the_canonical_form_is_not_the_puzzles() {
        use crate::se::{WorkBudget, serate_within};
        let p = crate::grid::parse_puzzle(
            "..6.2...72....351....4.......7.45.6...1.6.8...2.91.7.......1....985....35...9.1..",
        )
        .unwrap();
        let given = serate_within(&p, WorkBudget::OFF).unwrap();
        let canon = serate_within(&p.canonical().unwrap(), WorkBudget::OFF).unwrap();
        assert_eq!((given.serate, canon.serate), (7.1, 7.1));
        assert_eq!((given.fowler, canon.fowler), (76.2, 96.1));
    }

    #[test]
    fn every_candidate_is_a_number_of_the_analysis_row() {
        let p = crate::grid::parse_puzzle(P).unwrap();
        let f = feature_values(
            &p,
            &candidates(),
            &FeatureParams::default(),
            &SeCalibration::default(),
        )
        .unwrap();
        assert!(f.hardest_technique.is_some());
        let v = f.values;
        for (name, value) in &v {
            assert!(value.is_some(), "{name} missing");
        }
        assert_eq!(v[&Metric::Givens], Some(30.0));
        let costly: Vec<Metric> = CANDIDATES.into_iter().filter(|c| c.costly()).collect();
        assert_eq!(
            costly,
            [
                Metric::Hsolve,
                Metric::SisusRefutationSum,
                Metric::SisusDependency,
                Metric::MeanFixed,
                Metric::PUnique
            ]
        );
    }

    #[test]
    fn equivalent_puzzles_get_identical_metrics() {
        let p = crate::grid::parse_puzzle(P).unwrap();
        let names = candidates();
        let params = FeatureParams::default();
        let se = SeCalibration {
            serate: true,
            ..SeCalibration::default()
        };
        let base = feature_values(&p, &names, &params, &se).unwrap();
        // Serate rates the canonical form: hidden singles in boxes (1.2),
        // as it rates the puzzle as given (`rate -m serate`).
        assert_eq!(base.values[&Metric::Serate], Some(1.2));
        assert_eq!(base.trial_depth, Some(0));
        let mut rng = SeededRng::seed_from_u64(5);
        for _ in 0..3 {
            let q = Symmetry::random(3, &mut rng).apply(&p);
            assert_ne!(q.to_line(), p.to_line());
            assert_eq!(feature_values(&q, &names, &params, &se).unwrap(), base);
        }
    }

    #[test]
    fn the_backtrack_cap_is_a_checked_parameter_that_old_models_read_as_rates() {
        assert_eq!(FeatureParams::default().backtrack_cap, 1_000_000);
        let zero = FeatureParams {
            backtrack_cap: 0,
            ..FeatureParams::default()
        };
        let err = zero.check().unwrap_err().to_string();
        assert!(err.contains("params.backtrack_cap"), "{err}");
        let huge = FeatureParams {
            backtrack_cap: 1_000_000_000_000_000_000,
            ..FeatureParams::default()
        };
        let err = huge.check().unwrap_err().to_string();
        assert!(
            err.contains("params.backtrack_cap") && err.contains("at most 10000000"),
            "{err}"
        );
        for cap in [0, 1_000_001] {
            let p = FeatureParams {
                cap,
                ..FeatureParams::default()
            };
            let err = p.check().unwrap_err().to_string();
            assert!(err.contains(&format!("params.cap {cap}")), "{err}");
        }
        // A model written before the field: rate's cap of 10 million.
        let old: FeatureParams =
            serde_json::from_str(r#"{"seed": 1, "samples": 20, "k": 45, "cap": 1000}"#).unwrap();
        assert_eq!(old.backtrack_cap, 10_000_000);
        assert_eq!(
            old.backtrack_cap,
            crate::human::RateOptions::default().backtrack_cap
        );
    }

    #[test]
    fn puzzles_without_one_solution_or_of_other_orders_are_refused() {
        let two = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5.........",
        )
        .unwrap();
        let names = candidates();
        let params = FeatureParams::default();
        assert!(matches!(
            feature_values(&two, &names, &params, &SeCalibration::default()),
            Err(ScoreError::NotUnique(_))
        ));
        let small = crate::grid::parse_puzzle("1...........4...").unwrap();
        assert_eq!(
            feature_values(&small, &names, &params, &SeCalibration::default()),
            Err(ScoreError::Order(4))
        );
    }
}
