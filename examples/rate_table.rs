//! Correlation of every human-model metric with external difficulty labels,
//! on samples of the data sets in `../shared/data` or `$SUDOLAB_DATA`
//! (`$SUDOLAB_DATA`, else `../shared/data`; read at run time, never copied). Prints a Markdown table of Spearman ρ and Goodman–Kruskal γ.
//!
//! ```text
//! cargo run --release --example rate_table [-- PER_LEVEL [SE_COUNT]]
//! ```
//!
//! `PER_LEVEL` (default 30) puzzles are taken per label level of QQWing,
//! KrazyDad and each Project Patti site (evenly spaced through the file, so
//! the sample is the same on every run), all 57 NYT puzzles, and `SE_COUNT`
//! (default 300) evenly spaced puzzles of the Sukaku Explainer ratings
//! (`ER`), and `SE_COUNT / 2` evenly spaced puzzles of the Sudoku Exchange
//! set (SE 5.0 to 9.3 only). Every model runs with its default run count and
//! seed 0.
//!
//! Environment: `MODELS=hsolve,weights` restricts the models (default all);
//! `HSOLVE_COUNT_FAILED=0` charges hsolve only for the tier that succeeds.
//!
//! A model that cannot finish a puzzle ("needs search", "no finite
//! refutation", backtrack cap) is ranked above every finished puzzle for the
//! effort metrics (refutation sum, hsolve, weights, backtracks): not
//! finishing means harder. Ease metrics (givens, dependency) drop such pairs.
//! The `censored` column counts them.

use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;
use sudolab::parse_puzzle;
use sudolab::{RateOptions, RateRow, rate};

#[path = "../src/data.rs"]
mod data;

struct Set {
    name: String,
    /// (puzzle, label value)
    items: Vec<(String, f64)>,
}

fn read(path: &str) -> Option<String> {
    let full = data::data_dir().join(path);
    match std::fs::read_to_string(&full) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("skipping {}: {e}", full.display());
            None
        }
    }
}

fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// `per` evenly spaced rows of each level (level from column `col`).
fn per_level(rows: &[Vec<String>], col: usize, per: usize) -> Vec<(String, f64)> {
    let mut by: BTreeMap<String, Vec<&Vec<String>>> = BTreeMap::new();
    for r in rows {
        if let Some(l) = r.get(col) {
            by.entry(l.clone()).or_default().push(r);
        }
    }
    let mut out = Vec::new();
    for (level, rs) in by {
        let Ok(v) = level.parse::<f64>() else {
            continue;
        };
        let step = (rs.len() / per.max(1)).max(1);
        out.extend(rs.iter().step_by(step).take(per).map(|r| (r[0].clone(), v)));
    }
    out
}

fn sets(per: usize, se_count: usize) -> Vec<Set> {
    let mut out = Vec::new();
    if let Some(t) = read("se-ratings-sukakuexplainer/se_ratings.tsv") {
        let rs = rows(&t);
        let step = (rs.len() / se_count.max(1)).max(1);
        let items = rs
            .iter()
            .step_by(step)
            .take(se_count)
            .filter_map(|r| Some((r[0].clone(), r.get(1)?.parse().ok()?)))
            .collect();
        out.push(Set {
            name: "SE rating ER".into(),
            items,
        });
    }
    if let Some(t) = read("se-sudokuexchange/diabolical_se.tsv") {
        let rs = rows(&t);
        let want = se_count / 2;
        let step = (rs.len() / want.max(1)).max(1);
        let items = rs
            .iter()
            .step_by(step)
            .take(want)
            .filter_map(|r| Some((r[0].clone(), r.get(1)?.parse().ok()?)))
            .collect();
        out.push(Set {
            name: "SE rating, Sudoku Exchange 5.0-9.3".into(),
            items,
        });
    }
    if let Some(t) = read("qqwing-generated/qqwing_levels.tsv") {
        out.push(Set {
            name: "QQWing level".into(),
            items: per_level(&rows(&t), 2, per),
        });
    }
    if let Some(t) = read("website-nyt/nyt.tsv") {
        out.push(Set {
            name: "NYT level".into(),
            items: per_level(&rows(&t), 2, 1000),
        });
    }
    if let Some(t) = read("website-krazydad/krazydad.tsv") {
        out.push(Set {
            name: "KrazyDad level".into(),
            items: per_level(&rows(&t), 2, per),
        });
    }
    if let Some(t) = read("website-projectpatti/patti.tsv") {
        let rs = rows(&t);
        for site in ["Sudoku.org.uk", "Sudoku of the Day", "Extreme_Sudoku"] {
            let site_rows: Vec<Vec<String>> = rs
                .iter()
                .filter(|r| {
                    r.get(1)
                        .is_some_and(|s| s.replace(' ', "_") == site.replace(' ', "_"))
                })
                .cloned()
                .collect();
            out.push(Set {
                name: format!("Patti {site}"),
                items: per_level(&site_rows, 3, per),
            });
        }
    }
    out
}

/// A metric: name, value (None = missing), whether a missing value means
/// "too hard to finish" (ranked on top).
type Metric = (&'static str, fn(&RateRow) -> Option<f64>, bool);

const METRICS: [Metric; 12] = [
    (
        "givens",
        |r| r.ratings.baseline.givens.map(|g| g as f64),
        false,
    ),
    (
        "backtracks",
        |r| r.ratings.baseline.backtracks.map(|b| b as f64),
        true,
    ),
    (
        "sisus_refutation_sum",
        |r| r.ratings.sisus.refutation_sum.map(|e| e.mean),
        true,
    ),
    (
        "sisus_dependency",
        |r| r.ratings.sisus.dependency.map(|e| e.mean),
        false,
    ),
    ("oracle_score", |r| r.ratings.oracle.score, false),
    (
        "oracle_visits",
        |r| r.ratings.oracle.visits.map(|e| e.mean),
        false,
    ),
    (
        "hsolve",
        |r| r.ratings.hsolve.difficulty.map(|e| e.mean),
        true,
    ),
    (
        "nishio2",
        |r| r.ratings.nishio.nishio2.map(|e| e.mean),
        true,
    ),
    (
        "nishio4",
        |r| r.ratings.nishio.nishio4.map(|e| e.mean),
        true,
    ),
    (
        "nishio4_heuristic",
        |r| r.ratings.nishio.nishio4_heuristic,
        true,
    ),
    (
        "solved_by_4 (0/1)",
        |r| {
            r.ratings
                .nishio
                .solved_by_4
                .map(|b| if b { 1.0 } else { 0.0 })
        },
        false,
    ),
    (
        "weights_score",
        |r| r.ratings.weights.score.map(f64::from),
        true,
    ),
];

fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for k in i..=j {
            r[idx[k]] = avg;
        }
        i = j + 1;
    }
    r
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    sxy / (sxx * syy).sqrt()
}

fn gamma(x: &[f64], y: &[f64]) -> f64 {
    let (mut c, mut d) = (0u64, 0u64);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let s = (x[i] - x[j]) * (y[i] - y[j]);
            if s > 0.0 {
                c += 1;
            } else if s < 0.0 {
                d += 1;
            }
        }
    }
    (c as f64 - d as f64) / (c + d) as f64
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let per = args.first().copied().unwrap_or(30);
    let se_count = args.get(1).copied().unwrap_or(300);
    let mut opts = RateOptions::default();
    if std::env::var("HSOLVE_COUNT_FAILED").is_ok_and(|v| v == "0") {
        opts.hsolve.count_failed_tiers = false;
    }
    if let Ok(list) = std::env::var("MODELS") {
        match sudolab::Model::parse_list(&list) {
            Ok(m) => opts.models = m,
            Err(e) => {
                eprintln!("MODELS: {e}");
                std::process::exit(2);
            }
        }
    }
    println!("| data set | n | metric | Spearman ρ | Goodman–Kruskal γ | censored |");
    println!("|---|---|---|---|---|---|");
    for set in sets(per, se_count) {
        let t = Instant::now();
        let rated: Vec<(RateRow, f64)> = set
            .items
            .par_iter()
            .filter_map(|(s, label)| {
                let p = parse_puzzle(s).ok()?;
                let row = rate(&p, &opts);
                (!row.ratings.status().contains_key("puzzle")).then_some((row, *label))
            })
            .collect();
        eprintln!(
            "{}: {} puzzles rated in {:?}",
            set.name,
            rated.len(),
            t.elapsed()
        );
        for (name, get, censor_high) in METRICS {
            let mut xs = Vec::new();
            let mut ys = Vec::new();
            let mut censored = 0;
            for (row, label) in &rated {
                match get(row) {
                    Some(v) => {
                        xs.push(v);
                        ys.push(*label);
                    }
                    None if censor_high => {
                        xs.push(f64::INFINITY);
                        ys.push(*label);
                        censored += 1;
                    }
                    None => censored += 1,
                }
            }
            if xs.len() < 3 {
                continue;
            }
            let fmt = |v: f64| {
                if v.is_nan() {
                    "n/a (constant)".to_string()
                } else {
                    format!("{v:.2}")
                }
            };
            let rho = pearson(&ranks(&xs), &ranks(&ys));
            let g = gamma(&xs, &ys);
            println!(
                "| {} | {} | {} | {} | {} | {} |",
                set.name,
                xs.len(),
                name,
                fmt(rho),
                fmt(g),
                censored
            );
        }
    }
}
