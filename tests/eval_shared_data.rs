//! Smoke tests on the labelled data sets in `../shared/data/` (read at run
//! time, never copied into the repository). Each test prints a note and
//! passes when its file is missing, so the suite runs anywhere; with `CI`
//! set a missing file fails.

use crate::common;

use sudolab::BootstrapOptions;
use sudolab::{ClassifyOptions, classify};
use sudolab::{EvalOptions, LabelSpec, Ordinal, ResultsTable, evaluate};
use sudolab::{FitOptions, fit_linear};

const QQWING: &str = "qqwing-generated/qqwing_levels.tsv";
const KRAZYDAD: &str = "website-krazydad/krazydad.tsv";

fn load(rel: &str) -> Option<ResultsTable> {
    let path = common::shared_data_path(rel)?;
    Some(ResultsTable::from_path(&path).expect("shared data set parses"))
}

fn few_replicates() -> EvalOptions {
    EvalOptions {
        bootstrap: BootstrapOptions {
            replicates: 50,
            seed: 1,
            confidence: 0.95,
        },
        ..EvalOptions::default()
    }
}

#[test]
fn qqwing_givens_and_guesses_track_the_level() {
    let Some(t) = load(QQWING) else { return };
    assert_eq!(t.len(), 7221);
    assert_eq!(t.columns[..3], ["puzzle", "qqwing_level", "level_rank"]);
    let metrics = vec!["givens".to_string(), "guesses".to_string()];
    let r = evaluate(
        &t,
        &LabelSpec::column("level_rank"),
        Some(&metrics),
        &few_replicates(),
    )
    .unwrap();
    let givens = &r.rows[0];
    let guesses = &r.rows[1];
    assert_eq!(givens.n, 7221);
    // More givens: easier. More guesses: harder.
    assert!(givens.spearman.unwrap() < 0.0, "{givens:?}");
    assert!(givens.spearman_hi.unwrap() < 0.0);
    assert!(guesses.spearman.unwrap() > 0.0, "{guesses:?}");
    assert!(guesses.kendall_tau_b_lo.unwrap() > 0.0);
    assert!(guesses.gk_gamma.unwrap() >= guesses.kendall_tau_b.unwrap());
    // Four levels → a 4 × 4 table; QQWing's level is far from independent
    // of its own guess count.
    let ct = &r.contingency[1];
    assert_eq!(ct.levels, ["1", "2", "3", "4"]);
    assert!(ct.p_value.unwrap() < 1e-6, "{ct:?}");

    // The same through the text level and its order.
    let order = Ordinal::parse("Simple,Easy,Intermediate,Expert").unwrap();
    let by_text = evaluate(
        &t,
        &LabelSpec::column("qqwing_level"),
        Some(&metrics),
        &EvalOptions {
            ordinal: Some(order),
            ..few_replicates()
        },
    )
    .unwrap();
    assert_eq!(by_text.rows[0].spearman, givens.spearman);

    let c = classify(
        &t,
        "guesses",
        Some(&LabelSpec::column("qqwing_level")),
        &ClassifyOptions::default(),
    )
    .unwrap();
    assert_eq!(c.summary.n, 7221);
    let fit = fit_linear(
        &t,
        &LabelSpec::column("level_rank"),
        &[
            "givens".to_string(),
            "singles".to_string(),
            "guesses".to_string(),
        ],
        &FitOptions::default(),
    )
    .unwrap();
    assert!(fit.test_spearman.unwrap() > 0.0, "{fit:?}");
}

#[test]
fn krazydad_ordinal_level_matches_its_rank() {
    let Some(t) = load(KRAZYDAD) else { return };
    assert_eq!(t.len(), 112_000);
    let order = Ordinal::parse("EZ,NO,IM,CH,TF,ST,IN").unwrap();
    let opts = EvalOptions {
        ordinal: Some(order),
        bootstrap: BootstrapOptions {
            replicates: 4,
            seed: 1,
            confidence: 0.95,
        },
        ..EvalOptions::default()
    };
    let r = evaluate(
        &t,
        &LabelSpec::column("level"),
        Some(&["level_rank".to_string()]),
        &opts,
    )
    .unwrap();
    let row = &r.rows[0];
    assert_eq!(row.n, 112_000);
    for v in [row.pearson, row.spearman, row.kendall_tau_b, row.gk_gamma] {
        assert!((v.unwrap() - 1.0).abs() < 1e-12, "{row:?}");
    }
    let ct = &r.contingency[0];
    assert_eq!(ct.counts.len(), 7);
    for (i, counts) in ct.counts.iter().enumerate() {
        assert_eq!(counts[i], 16_000, "level {i} fills its own bin");
    }
}
