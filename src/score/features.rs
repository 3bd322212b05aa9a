//! The metrics a score is made of, computed as `sudolab analyze` computes
//! them (`docs/methods.md` §6.1), on the puzzle's canonical form and with
//! the model's fixed seed, so a puzzle and every puzzle equivalent to it get
//! the same values.
//!
//! The fit reads the same values from `sudolab score --metrics-out` rows,
//! so the metrics a model was fitted on and the ones it is applied to come
//! from this one function.

use super::ScoreError;
use crate::analyze::{AnalyzeOptions, MetricGroup, analyze};
use crate::engine::Engines;
use crate::grid::Puzzle;
use crate::grid::canon::canonical;
use crate::human::Model;
use crate::relax::RelaxOptions;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Every metric a score may use, with the metric group that computes it.
pub const CANDIDATES: [(&str, Group); 12] = [
    ("weights_score", Group::Rate(Model::Weights)),
    ("hardest_weight", Group::Rate(Model::Weights)),
    ("hsolve", Group::Rate(Model::Hsolve)),
    ("sisus_refutation_sum", Group::Rate(Model::Sisus)),
    ("sisus_dependency", Group::Rate(Model::Sisus)),
    ("nishio4_heuristic", Group::Rate(Model::Nishio)),
    ("oracle_score", Group::Rate(Model::Oracle)),
    ("givens", Group::Rate(Model::Baseline)),
    ("backtracks", Group::Rate(Model::Baseline)),
    ("short_pct", Group::Clauses),
    ("mean_fixed", Group::Relax),
    ("p_unique", Group::Relax),
];

/// The metrics `--fast` leaves out: the relaxation samples and the
/// randomised SiSuS and hsolve runs, which take most of the time (measured
/// in `docs/score.md`).
pub const COSTLY: [&str; 5] = [
    "hsolve",
    "sisus_refutation_sum",
    "sisus_dependency",
    "mean_fixed",
    "p_unique",
];

/// Where a candidate metric comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// A human model of `rate`.
    Rate(Model),
    /// The clause-length distribution.
    Clauses,
    /// The relaxation summary.
    Relax,
}

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

/// The group of a candidate metric; `None` for a name that is no candidate.
pub fn group_of(name: &str) -> Option<Group> {
    CANDIDATES.iter().find(|c| c.0 == name).map(|c| c.1)
}

/// The analyze options that compute these metrics (nothing more).
fn analyze_options(names: &[String], p: &FeatureParams) -> AnalyzeOptions {
    let mut models = BTreeSet::new();
    let (mut clauses, mut relax) = (false, false);
    for name in names {
        match group_of(name) {
            Some(Group::Rate(m)) => {
                models.insert(m);
            }
            Some(Group::Clauses) => clauses = true,
            Some(Group::Relax) => relax = true,
            None => {}
        }
    }
    // The uniqueness check of `rate` says why a puzzle has no score; the
    // hardest technique places the SE-equivalent.
    models.insert(Model::Baseline);
    models.insert(Model::Weights);
    let mut groups = vec![MetricGroup::Rate(models)];
    if clauses {
        groups.push(MetricGroup::Clauses);
    }
    if relax {
        groups.push(MetricGroup::Relax);
    }
    AnalyzeOptions {
        groups,
        relax: RelaxOptions {
            k: p.k,
            samples: p.samples,
            seed: p.seed,
            cap: p.cap,
            engines: Engines::default(),
            // Two samples are still re-counted by a second engine.
            verify: 2,
        },
        rate_seed: p.seed,
        fixedness: false,
        dedup: false,
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
    let canon = match canonical(puzzle) {
        Ok(c) => c,
        Err(e) => unreachable!("every 9×9 puzzle has a canonical form: {e}"),
    };
    let row = analyze(&canon, &analyze_options(names, p))?;
    if let Some(why) = row.rate.as_ref().and_then(|r| r.status.get("puzzle")) {
        return Err(ScoreError::NotUnique(why.clone()));
    }
    if let Some((group, why)) = row.errors.iter().next() {
        return Err(ScoreError::NotUnique(format!("{group}: {why}")));
    }
    let json = match serde_json::to_value(&row) {
        Ok(v) => v,
        Err(e) => unreachable!("an analysis row serialises: {e}"),
    };
    Ok(Features {
        values: names
            .iter()
            .map(|n| (n.clone(), json.get(n).and_then(serde_json::Value::as_f64)))
            .collect(),
        hardest_technique: row.rate.and_then(|r| r.hardest_technique),
    })
}

/// Every candidate metric's name.
pub fn candidate_names() -> Vec<String> {
    CANDIDATES.iter().map(|c| c.0.to_string()).collect()
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
        for c in COSTLY {
            assert!(group_of(c).is_some());
        }
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
