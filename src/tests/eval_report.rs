//! `evaluate`, `classify` and `fit_linear` on small tables with known answers.

use crate::eval::classify::{ClassMethod, ClassifyOptions, Direction, Preset, classify};
use crate::eval::combine::{FitOptions, fit_linear};
use crate::eval::{
    EvalError, EvalOptions, LabelError, LabelSpec, Ordinal, ResultsTable, TableFormat, evaluate,
};
use crate::stats::{self, BootstrapOptions, FitError, least_absolute_deviations, least_squares};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Nine puzzles, three per level; `m` rises with the level, `flat` is
/// constant, `word` is text, `sparse` has two values only.
fn levels_table() -> ResultsTable {
    let mut text = String::from("puzzle,level,m,flat,word,sparse\n");
    let levels = [
        "Easy", "Easy", "Easy", "Medium", "Medium", "Medium", "Hard", "Hard", "Hard",
    ];
    for (i, level) in levels.iter().enumerate() {
        let sparse = if i < 2 { format!("{i}") } else { String::new() };
        text += &format!("p{i},{level},{},5,w{i},{sparse}\n", i + 1);
    }
    ResultsTable::parse(&text, TableFormat::Delimited(',')).unwrap()
}

fn opts_ordinal() -> EvalOptions {
    EvalOptions {
        ordinal: Some(Ordinal::parse("Easy,Medium,Hard").unwrap()),
        bootstrap: BootstrapOptions {
            replicates: 200,
            seed: 3,
            confidence: 0.95,
        },
        ..EvalOptions::default()
    }
}

#[test]
fn evaluate_ordinal_label() {
    let t = levels_table();
    let report = evaluate(&t, &LabelSpec::column("level"), None, &opts_ordinal()).unwrap();
    let names: Vec<&str> = report.rows.iter().map(|r| r.metric.as_str()).collect();
    assert_eq!(names, vec!["m", "flat", "sparse"], "numeric columns only");
    assert_eq!(report.rows_labelled, 9);
    assert_eq!(
        report.levels.as_deref().unwrap(),
        ["Easy", "Medium", "Hard"]
    );

    let m = &report.rows[0];
    assert_eq!(m.n, 9);
    assert!(m.note.is_none(), "{:?}", m.note);
    // 27 concordant pairs across levels, none discordant, 9 tied in the label:
    // τ-b = 27/√(27·36) = √(3/4), γ = 1.
    assert!(close(m.kendall_tau_b.unwrap(), 0.75f64.sqrt()));
    assert!(close(m.gk_gamma.unwrap(), 1.0));
    let ranks = [1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0];
    let values: Vec<f64> = (1..=9).map(f64::from).collect();
    assert!(close(
        m.spearman.unwrap(),
        stats::spearman(&ranks, &values).unwrap()
    ));
    assert!(close(
        m.pearson.unwrap(),
        stats::pearson(&ranks, &values).unwrap()
    ));
    let (lo, hi) = (m.pearson_lo.unwrap(), m.pearson_hi.unwrap());
    assert!(lo <= m.pearson.unwrap() && m.pearson.unwrap() <= hi && hi <= 1.0);
    assert!(m.gk_gamma_lo.unwrap() <= 1.0 && m.gk_gamma_hi.unwrap() <= 1.0);

    let flat = &report.rows[1];
    assert_eq!(flat.n, 9);
    assert_eq!(flat.pearson, None);
    assert_eq!(flat.pearson_lo, None);
    assert_eq!(
        flat.note.as_deref(),
        Some("metric is constant (every value is 5)")
    );
    let sparse = &report.rows[2];
    assert_eq!(sparse.n, 2);
    assert!(sparse.note.as_deref().unwrap().starts_with("only 2 rows"));

    // Contingency: level × equal-count tertile of m is the identity.
    let ct = &report.contingency[0];
    assert_eq!(ct.metric, "m");
    assert_eq!(ct.bin_edges, vec![3.0, 6.0]);
    assert_eq!(ct.counts, vec![vec![3, 0, 0], vec![0, 3, 0], vec![0, 0, 3]]);
    assert!(close(ct.chi2.unwrap(), 18.0));
    assert_eq!(ct.df, Some(4));
    assert!(close(ct.gamma.unwrap(), 1.0));
    assert!(ct.p_value.unwrap() < 0.01);
    assert!(report.contingency[1].note.is_some(), "constant metric");
    assert_eq!(report.contingency[2].chi2, None);
}

#[test]
fn eval_row_field_names_are_stable() {
    let t = levels_table();
    let report = evaluate(
        &t,
        &LabelSpec::column("level"),
        Some(&["m".to_string()]),
        &opts_ordinal(),
    )
    .unwrap();
    let json = serde_json::to_value(&report.rows[0]).unwrap();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    let mut expected = vec![
        "metric",
        "n",
        "pearson",
        "spearman",
        "kendall_tau_b",
        "gk_gamma",
        "pearson_lo",
        "pearson_hi",
        "spearman_lo",
        "spearman_hi",
        "kendall_tau_b_lo",
        "kendall_tau_b_hi",
        "gk_gamma_lo",
        "gk_gamma_hi",
        "note",
    ];
    expected.sort();
    let mut keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, expected);
    // No NaN anywhere: serde_json would have written null for NaN, so check
    // every defined number is finite.
    let text = serde_json::to_string(&report).unwrap();
    assert!(!text.contains("NaN"));
}

#[test]
fn evaluate_is_deterministic_per_seed() {
    let t = levels_table();
    let label = LabelSpec::column("level");
    let a = evaluate(&t, &label, None, &opts_ordinal()).unwrap();
    let b = evaluate(&t, &label, None, &opts_ordinal()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn evaluate_errors_are_actionable() {
    let t = levels_table();
    let label = LabelSpec::column("level");
    let err = evaluate(&t, &label, None, &EvalOptions::default()).unwrap_err();
    assert!(matches!(
        err,
        EvalError::Label(LabelError::NeedsOrdinal { line: 2, .. })
    ));
    let err = evaluate(&t, &label, Some(&["nope".to_string()]), &opts_ordinal()).unwrap_err();
    assert!(err.to_string().contains("no column \"nope\""), "{err}");
    // A text column asked for by name is skipped with a note.
    let report = evaluate(&t, &label, Some(&["word".to_string()]), &opts_ordinal()).unwrap();
    assert_eq!(report.rows[0].n, 0);
    assert!(report.rows[0].note.as_deref().unwrap().contains("line 2"));
    let only_label =
        ResultsTable::parse("rank,p\n1,a\n2,b\n", TableFormat::Delimited(',')).unwrap();
    assert!(matches!(
        evaluate(
            &only_label,
            &LabelSpec::column("rank"),
            None,
            &EvalOptions::default()
        ),
        Err(EvalError::NoMetrics { .. })
    ));
}

#[test]
fn numeric_label_with_few_values_gets_a_contingency_table() {
    let mut text = String::from("rank,x\n");
    for i in 0..30 {
        text += &format!("{},{}\n", i % 3 + 1, i);
    }
    let t = ResultsTable::parse(&text, TableFormat::Delimited(',')).unwrap();
    let opts = EvalOptions {
        bootstrap: BootstrapOptions {
            replicates: 0,
            ..BootstrapOptions::default()
        },
        contingency_bins: Some(2),
        ..EvalOptions::default()
    };
    let r = evaluate(&t, &LabelSpec::column("rank"), None, &opts).unwrap();
    assert_eq!(r.levels.as_deref().unwrap(), ["1", "2", "3"]);
    assert_eq!(r.rows[0].pearson_lo, None, "bootstrap off");
    let ct = &r.contingency[0];
    assert_eq!(ct.bin_edges, vec![14.0]);
    assert_eq!(ct.counts, vec![vec![5, 5], vec![5, 5], vec![5, 5]]);
    assert!(close(ct.chi2.unwrap(), 0.0));
    assert!(close(ct.p_value.unwrap(), 1.0));
}

fn class_table(values: &[f64]) -> ResultsTable {
    let mut text = String::from("puzzle\tlevel\tv\n");
    for (i, v) in values.iter().enumerate() {
        let level = ["A", "B", "C"][i * 3 / values.len()];
        text += &format!("p{i}\t{level}\t{v}\n");
    }
    ResultsTable::parse(&text, TableFormat::Delimited('\t')).unwrap()
}

fn classes(report: &crate::eval::ClassifyReport) -> Vec<String> {
    report
        .puzzles
        .iter()
        .map(|p| p.class.clone().unwrap_or_default())
        .collect()
}

#[test]
fn equal_count_classification_with_groups() {
    let values: Vec<f64> = (1..=9).map(f64::from).collect();
    let t = class_table(&values);
    let label = LabelSpec::column("level");
    let r = classify(&t, "v", Some(&label), &ClassifyOptions::default()).unwrap();
    assert_eq!(r.summary.edges, vec![3.0, 6.0]);
    assert_eq!(
        classes(&r),
        [
            "easy", "easy", "easy", "medium", "medium", "medium", "hard", "hard", "hard"
        ]
    );
    let ranges: Vec<&str> = r.summary.ranges.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(ranges, ["(-inf, 3]", "(3, 6]", "(6, inf)"]);
    assert_eq!(
        r.summary.counts.iter().map(|c| c.n).collect::<Vec<_>>(),
        [3, 3, 3]
    );
    assert_eq!((r.summary.min, r.summary.max), (Some(1.0), Some(9.0)));
    assert_eq!(r.puzzles[4].puzzle.as_deref(), Some("p4"));
    assert_eq!(r.puzzles[4].label.as_deref(), Some("B"));
    let g = &r.groups[1];
    assert_eq!((g.group.as_str(), g.n), ("B", 3));
    assert!(close(g.mean, 5.0) && close(g.median, 5.0));
    assert_eq!(
        (g.class_of_mean.as_str(), g.class_of_median.as_str()),
        ("medium", "medium")
    );
    let json = serde_json::to_value(g).unwrap();
    assert_eq!(json["share_medium"], 1.0);
    assert_eq!(json["share_easy"], 0.0);
    assert_eq!(json["class_of_mean"], "medium");

    // Lower is harder: the largest values are easy.
    let opts = ClassifyOptions {
        direction: Direction::LowerIsHarder,
        ..ClassifyOptions::default()
    };
    let r = classify(&t, "v", None, &opts).unwrap();
    assert_eq!(
        classes(&r),
        [
            "hard", "hard", "hard", "medium", "medium", "medium", "easy", "easy", "easy"
        ]
    );
    assert_eq!(r.summary.edges, vec![7.0, 4.0]);
    assert!(r.groups.is_empty());
}

#[test]
fn equal_count_ties_go_to_the_easier_bin() {
    let t = class_table(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0]);
    let r = classify(&t, "v", None, &ClassifyOptions::default()).unwrap();
    assert_eq!(
        classes(&r),
        [
            "easy", "easy", "easy", "easy", "easy", "easy", "hard", "hard", "hard"
        ]
    );
    let opts = ClassifyOptions {
        method: ClassMethod::EqualCount { bins: 2 },
        ..ClassifyOptions::default()
    };
    let r = classify(&t, "v", None, &opts).unwrap();
    assert_eq!(r.summary.bins, 2);
    assert_eq!(r.summary.counts[0].class, "easy");
    assert_eq!(r.summary.counts[1].class, "hard");
}

#[test]
fn patti_presets_follow_the_paper_intervals() {
    // Nishio cycles: Easy [1.30, 3.48), Medium [3.48, 6.52), Hard [6.52, 98.14].
    let t = class_table(&[1.3, 3.47, 3.48, 6.51, 6.52, 98.14]);
    let opts = ClassifyOptions {
        method: ClassMethod::Preset("patti".parse().unwrap()),
        ..ClassifyOptions::default()
    };
    let r = classify(&t, "v", None, &opts).unwrap();
    assert_eq!(
        classes(&r),
        ["easy", "easy", "medium", "medium", "hard", "hard"]
    );
    assert_eq!(r.summary.method, "patti-nishio");
    assert_eq!(r.summary.ranges[1].text, "[3.48, 6.52)");

    // Short clauses: Easy (22.6, 100], Medium (17.6, 22.6], Hard [0, 17.6].
    let t = class_table(&[100.0, 22.7, 22.6, 17.7, 17.6, 0.0]);
    let opts = ClassifyOptions {
        method: ClassMethod::Preset(Preset::PattiShort),
        ..ClassifyOptions::default()
    };
    let r = classify(&t, "v", None, &opts).unwrap();
    assert_eq!(
        classes(&r),
        ["easy", "easy", "medium", "medium", "hard", "hard"]
    );
    assert_eq!(r.summary.direction, Direction::LowerIsHarder);
    assert_eq!(r.summary.edges, vec![22.6, 17.6]);
    let ranges: Vec<&str> = r.summary.ranges.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(ranges, ["(22.6, inf)", "(17.6, 22.6]", "(-inf, 17.6]"]);
    assert!("nonsense".parse::<Preset>().is_err());
}

#[test]
fn group_mean_and_median_can_disagree() {
    // Group A: 1, 1, 9 → median 1 (easy), mean 3.67 (medium) with cut points 3.48 / 6.52.
    let t = class_table(&[1.0, 1.0, 9.0, 4.0, 4.0, 4.0, 7.0, 8.0, 9.0]);
    let opts = ClassifyOptions {
        method: ClassMethod::Preset(Preset::PattiNishio),
        ..ClassifyOptions::default()
    };
    let r = classify(&t, "v", Some(&LabelSpec::column("level")), &opts).unwrap();
    let a = &r.groups[0];
    assert_eq!(
        (a.class_of_median.as_str(), a.class_of_mean.as_str()),
        ("easy", "medium")
    );
    assert!(close(a.shares[0].1, 2.0 / 3.0) && close(a.shares[2].1, 1.0 / 3.0));
}

#[test]
fn classify_errors() {
    let t = levels_table();
    let err = classify(&t, "word", None, &ClassifyOptions::default()).unwrap_err();
    assert!(err.to_string().contains("not a numeric column"), "{err}");
    assert!(classify(&t, "nope", None, &ClassifyOptions::default()).is_err());
    let err = classify(&t, "sparse", None, &ClassifyOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("cannot make 3 bins from 2 values"),
        "{err}"
    );
    let bad = ClassifyOptions {
        method: ClassMethod::Fixed {
            cut_points: vec![5.0, 2.0],
        },
        ..ClassifyOptions::default()
    };
    assert!(classify(&t, "m", None, &bad).is_err());
}

#[test]
fn least_squares_by_hand_and_exact() {
    // x = 1..5, y = 2, 4, 5, 4, 5: slope Sxy/Sxx = 6/10, intercept 4 − 0.6·3.
    let x: Vec<Vec<f64>> = (1..=5).map(|v| vec![f64::from(v)]).collect();
    let b = least_squares(&x, &[2.0, 4.0, 5.0, 4.0, 5.0]).unwrap();
    assert!(close(b[0], 2.2) && close(b[1], 0.6), "{b:?}");
    // y = 1 + 2a − 3b exactly.
    let rows: Vec<Vec<f64>> = (0..20)
        .map(|i| vec![f64::from(i), f64::from((i * i) % 7)])
        .collect();
    let y: Vec<f64> = rows.iter().map(|r| 1.0 + 2.0 * r[0] - 3.0 * r[1]).collect();
    let b = least_squares(&rows, &y).unwrap();
    assert!(
        close(b[0], 1.0) && close(b[1], 2.0) && close(b[2], -3.0),
        "{b:?}"
    );
    // Collinear and constant predictors are singular.
    let collinear: Vec<Vec<f64>> = (0..10)
        .map(|i| vec![f64::from(i), 2.0 * f64::from(i)])
        .collect();
    assert_eq!(
        least_squares(&collinear, &y[..10]),
        Err(FitError::Singular { index: 1 })
    );
    let constant: Vec<Vec<f64>> = (0..10).map(|_| vec![4.0]).collect();
    assert_eq!(
        least_squares(&constant, &y[..10]),
        Err(FitError::Singular { index: 0 })
    );
    assert!(matches!(
        least_squares(&x[..1], &[1.0]),
        Err(FitError::TooFewRows { .. })
    ));
}

#[test]
fn least_absolute_deviations_is_the_median_line() {
    // y = 1 + 2x on nine points, then one point far above: least squares
    // follows it, the median line does not move.
    let x: Vec<Vec<f64>> = (0..10).map(|v| vec![f64::from(v)]).collect();
    let mut y: Vec<f64> = x.iter().map(|r| 1.0 + 2.0 * r[0]).collect();
    y[9] += 100.0;
    let lad = least_absolute_deviations(&x, &y).unwrap();
    assert!(
        (lad[0] - 1.0).abs() < 1e-4 && (lad[1] - 2.0).abs() < 1e-4,
        "{lad:?}"
    );
    let ols = least_squares(&x, &y).unwrap();
    assert!(ols[1] > 3.0, "{ols:?}");
    // One predictor constant in x's place: the intercept alone is the
    // median (an even count: any value between the middle two minimises,
    // here between 3 and 4).
    let flat: Vec<Vec<f64>> = vec![vec![]; 6];
    let b = least_absolute_deviations(&flat, &[1.0, 2.0, 3.0, 4.0, 50.0, 90.0]).unwrap();
    assert!((3.0 - 1e-6..=4.0 + 1e-6).contains(&b[0]), "{b:?}");
    let b = least_absolute_deviations(&flat[..5], &[1.0, 2.0, 3.0, 40.0, 90.0]).unwrap();
    assert!((b[0] - 3.0).abs() < 1e-4, "{b:?}");
    // Half of the residuals on each side; an exact line is recovered.
    let rows: Vec<Vec<f64>> = (0..30)
        .map(|i| vec![f64::from(i), f64::from((i * i) % 7)])
        .collect();
    let noisy: Vec<f64> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| 1.0 + 2.0 * r[0] - 3.0 * r[1] + if i % 3 == 0 { 5.0 } else { -0.5 })
        .collect();
    let b = least_absolute_deviations(&rows, &noisy).unwrap();
    let above = rows
        .iter()
        .zip(&noisy)
        .filter(|(r, y)| **y > stats::predict(&b, r) + 1e-6)
        .count();
    let below = rows
        .iter()
        .zip(&noisy)
        .filter(|(r, y)| **y < stats::predict(&b, r) - 1e-6)
        .count();
    assert!(above <= 15 && below <= 15, "{above} above, {below} below");
    // The same errors as least squares on a singular design.
    let constant: Vec<Vec<f64>> = (0..10).map(|_| vec![4.0]).collect();
    assert_eq!(
        least_absolute_deviations(&constant, &noisy[..10]),
        Err(FitError::Singular { index: 0 })
    );
}

fn fit_table(noise: bool) -> ResultsTable {
    let mut text = String::new();
    for i in 0..40 {
        let a = f64::from(i);
        let b = f64::from((i * 13) % 11);
        let e = if noise {
            f64::from((i * 7919) % 17) - 8.0
        } else {
            0.0
        };
        let y = 3.0 + 0.5 * a + 2.0 * b + e;
        text += &format!("{{\"puzzle\": \"p{i}\", \"y\": {y}, \"a\": {a}, \"b\": {b}}}\n");
    }
    text += "{\"puzzle\": \"missing\", \"a\": 1}\n";
    ResultsTable::parse(&text, TableFormat::Jsonl).unwrap()
}

#[test]
fn fit_recovers_an_exact_combination() {
    let t = fit_table(false);
    let metrics = vec!["a".to_string(), "b".to_string()];
    let r = fit_linear(
        &t,
        &LabelSpec::column("y"),
        &metrics,
        &FitOptions::default(),
    )
    .unwrap();
    let c: Vec<f64> = r.coefficients.iter().map(|c| c.value).collect();
    assert_eq!(r.coefficients[0].name, "intercept");
    assert!(
        close(c[0], 3.0) && close(c[1], 0.5) && close(c[2], 2.0),
        "{c:?}"
    );
    assert_eq!((r.n_train, r.n_test, r.n_incomplete), (20, 20, 1));
    assert!(close(r.test_pearson.unwrap(), 1.0));
    assert!(close(r.train_spearman.unwrap(), 1.0));
}

#[test]
fn fit_split_is_seeded() {
    let t = fit_table(true);
    let metrics = vec!["a".to_string(), "b".to_string()];
    let label = LabelSpec::column("y");
    let run = |seed| {
        fit_linear(
            &t,
            &label,
            &metrics,
            &FitOptions {
                seed,
                ..FitOptions::default()
            },
        )
        .unwrap()
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5).coefficients, run(6).coefficients);
    let r = run(5);
    assert!(r.test_pearson.unwrap() > 0.7, "{r:?}");
    let err = fit_linear(
        &t,
        &label,
        &["a".to_string(), "a".to_string()],
        &FitOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(err, EvalError::Singular { .. }), "{err}");
    assert!(err.to_string().contains("drop one"));
    let bad = FitOptions {
        train_fraction: 1.0,
        ..FitOptions::default()
    };
    assert!(fit_linear(&t, &label, &metrics, &bad).is_err());
}

#[test]
fn default_metrics_leave_out_how_rows_were_made() {
    // `line` follows the level here (a data set sorted by level): evaluated,
    // it would look like a perfect metric.
    let mut text = String::from("line,level,params.seed,k,m\n");
    for (i, level) in ["Easy", "Easy", "Medium", "Medium", "Hard", "Hard"]
        .iter()
        .enumerate()
    {
        text += &format!("{},{level},1,45,{}\n", i + 1, [3, 1, 2, 5, 4, 6][i]);
    }
    let table = ResultsTable::parse(&text, TableFormat::Delimited(',')).unwrap();
    let mut opts = opts_ordinal();
    opts.bootstrap.replicates = 0;
    let report = evaluate(&table, &LabelSpec::parse("level").unwrap(), None, &opts).unwrap();
    let metrics: Vec<&str> = report.rows.iter().map(|r| r.metric.as_str()).collect();
    assert_eq!(metrics, vec!["m"]);
}
