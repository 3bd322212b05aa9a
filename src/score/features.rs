//! The metrics a score is made of, computed as `sudolab analyze` computes
//! them (`docs/methods.md` §6.1), on the puzzle's canonical form and with
//! the model's fixed seed, so a puzzle and every puzzle equivalent to it get
//! the same values.
//!
//! The fit reads the same values from `sudolab score --metrics-out` rows,
//! so the metrics a model was fitted on and the ones it is applied to come
//! from this one function.

use super::ScoreError;
use crate::engine::Engines;
use crate::grid::Puzzle;
use crate::grid::canon::canonical;
use crate::human::Model;
use crate::metrics::{self, MetricGroup, MetricOptions, Source};
use crate::relax::RelaxOptions;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Every metric a score may use (their groups are in [`crate::metrics`]).
pub(crate) const CANDIDATES: [&str; 16] = [
    "weights_score",
    "hardest_weight",
    "hsolve",
    "sisus_refutation_sum",
    "sisus_dependency",
    "singles_dependency",
    "singles_box_reach",
    "singles_hidden_reach",
    "nishio4_heuristic",
    "oracle_score",
    "givens",
    "backtracks",
    "short_pct",
    "mean_fixed",
    "p_unique",
    "trial_rating",
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
}

impl Default for FeatureParams {
    fn default() -> Self {
        FeatureParams {
            seed: 1,
            samples: 20,
            k: 45,
            cap: 1000,
        }
    }
}

/// The metric groups that compute these metrics (nothing more).
fn metric_options(names: &[String], p: &FeatureParams) -> MetricOptions {
    let mut models = BTreeSet::new();
    let (mut clauses, mut relax) = (false, false);
    for name in names {
        match metrics::registry::find(name).map(|m| m.source) {
            Some(Source::Rate(m)) => {
                models.insert(m);
            }
            Some(Source::Clauses) => clauses = true,
            Some(Source::Relax) => relax = true,
            Some(Source::Score) | None => {}
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
            samples: p.samples,
            seed: p.seed,
            cap: p.cap,
            engines: Engines::default(),
            // Two samples are still re-counted by a second engine.
            verify: 2,
            verify_by: Default::default(),
        },
        rate_seed: p.seed,
        fixedness: false,
        sisus_dependency: names.iter().any(|n| n.starts_with("sisus_dependency")),
    }
}

/// The metrics of one puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Features {
    /// The named metrics; `None` where a model cannot finish without search.
    pub values: BTreeMap<String, Option<f64>>,
    /// The hardest technique of the technique-weight path (`None`: nothing to
    /// fill, or the catalogue cannot finish).
    pub hardest_technique: Option<String>,
    /// The trial rating (`docs/methods.md` §3.9), which places the
    /// SE-equivalent of the hardest puzzles.
    pub trial_rating: Option<f64>,
}

/// The named metrics of a 9×9 puzzle with exactly one solution, computed on
/// its canonical form, and its hardest technique.
pub fn feature_values(
    puzzle: &Puzzle,
    names: &[String],
    p: &FeatureParams,
) -> Result<Features, ScoreError> {
    if puzzle.order() != 3 {
        return Err(ScoreError::Order(puzzle.side()));
    }
    // The canonical form renames digits and moves cells: its contradiction
    // would name another digit and unit than the puzzle as given.
    puzzle
        .check()
        .map_err(|c| ScoreError::NotUnique(format!("puzzle is contradictory: {c}")))?;
    let canon = match canonical(puzzle) {
        Ok(c) => c,
        Err(e) => unreachable!("every 9×9 puzzle has a canonical form: {e}"),
    };
    let row = metrics::compute(&canon, &metric_options(names, p))?;
    if let Some(why) = row.rate.as_ref().and_then(|r| r.status.get("puzzle")) {
        return Err(ScoreError::NotUnique(why.clone()));
    }
    if let Some((group, why)) = row.errors.iter().next() {
        return Err(ScoreError::NotUnique(format!("{group}: {why}")));
    }
    let json = match serde_json::to_value((&row.clauses, &row.relax, &row.rate)) {
        Ok(serde_json::Value::Array(parts)) => {
            let mut all = serde_json::Map::new();
            for part in parts {
                if let serde_json::Value::Object(fields) = part {
                    all.extend(fields);
                }
            }
            serde_json::Value::Object(all)
        }
        Ok(other) => unreachable!("a tuple serialises as an array: {other}"),
        Err(e) => unreachable!("metric values serialise: {e}"),
    };
    Ok(Features {
        values: names
            .iter()
            .map(|n| (n.clone(), json.get(n).and_then(serde_json::Value::as_f64)))
            .collect(),
        trial_rating: row.rate.as_ref().and_then(|r| r.trial_rating),
        hardest_technique: row.rate.and_then(|r| r.hardest_technique),
    })
}

/// The gate of a candidate metric (`docs/methods.md` §6.1): the singles
/// model's dependency and box reach count the moves of a puzzle hidden
/// singles solve, so their terms are multiplied by `singles_hidden_reach`
/// and fall silent on harder puzzles.
pub fn gate_of(name: &str) -> Option<&'static str> {
    match name {
        "singles_dependency" | "singles_box_reach" => Some("singles_hidden_reach"),
        _ => None,
    }
}

/// Every candidate metric's name.
pub fn candidate_names() -> Vec<String> {
    CANDIDATES.iter().map(|c| c.to_string()).collect()
}

/// The candidates `--fast` leaves out (the registry's costly metrics).
pub fn costly(name: &str) -> bool {
    metrics::registry::find(name).is_some_and(|m| m.costly)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::canon::Transform as Symmetry;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn every_candidate_is_a_number_of_the_analysis_row() {
        let p = crate::grid::parse_puzzle(P).unwrap();
        let f = feature_values(&p, &candidate_names(), &FeatureParams::default()).unwrap();
        assert!(f.hardest_technique.is_some());
        let v = f.values;
        for (name, value) in &v {
            assert!(value.is_some(), "{name} missing");
        }
        assert_eq!(v["givens"], Some(30.0));
        let costly: Vec<&str> = CANDIDATES
            .into_iter()
            .filter(|c| super::costly(c))
            .collect();
        assert_eq!(
            costly,
            [
                "hsolve",
                "sisus_refutation_sum",
                "sisus_dependency",
                "mean_fixed",
                "p_unique"
            ]
        );
    }

    #[test]
    fn equivalent_puzzles_get_identical_metrics() {
        let p = crate::grid::parse_puzzle(P).unwrap();
        let names = candidate_names();
        let params = FeatureParams::default();
        let base = feature_values(&p, &names, &params).unwrap();
        let mut rng = SeededRng::seed_from_u64(5);
        for _ in 0..3 {
            let q = Symmetry::random(3, &mut rng).apply(&p);
            assert_ne!(q.to_line(), p.to_line());
            assert_eq!(feature_values(&q, &names, &params).unwrap(), base);
        }
    }

    #[test]
    fn puzzles_without_one_solution_or_of_other_orders_are_refused() {
        let two = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5.........",
        )
        .unwrap();
        let names = candidate_names();
        let params = FeatureParams::default();
        assert!(matches!(
            feature_values(&two, &names, &params),
            Err(ScoreError::NotUnique(_))
        ));
        let small = crate::grid::parse_puzzle("1...........4...").unwrap();
        assert_eq!(
            feature_values(&small, &names, &params),
            Err(ScoreError::Order(4))
        );
    }
}
