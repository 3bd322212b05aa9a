//! The window of the singles model's hidden-single dependency
//! (`docs/methods.md` §3.8), chosen on human solving times: for each window
//! `k`, the Spearman correlation of `singles_dependency` with the log of the
//! mean solving time on `../shared/data/human-cloudsudoku-train/` (746
//! puzzles, 30 runs, seed 0), over all puzzles and over those Sukaku
//! Explainer rates 1.5 or below (singles only). Pelánek's Table 2 does the
//! same for SiSuS dependency and finds 20–30 best.
//!
//! ```text
//! cargo run --release --example singles_window
//! ```

use rayon::prelude::*;
use sudolab::{Model, RateOptions, SinglesOptions, parse_puzzle, rate, spearman};

#[path = "../src/data.rs"]
mod data;

const WINDOWS: [usize; 8] = [5, 10, 15, 20, 25, 30, 40, 81];

fn main() {
    let path = data::data_dir().join("human-cloudsudoku-train/cloudsudoku_train.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} not found", path.display());
        std::process::exit(1);
    };
    // Columns: puzzle, game_no, n_solves, mean_time_s, se_er.
    let rows: Vec<(String, f64, f64)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((
                f.first()?.to_string(),
                f.get(3)?.parse().ok()?,
                f.get(4)?.parse().ok()?,
            ))
        })
        .collect();
    let deps: Vec<Option<Vec<f64>>> = rows
        .par_iter()
        .map(|(text, _, _)| {
            let p = parse_puzzle(text).ok()?;
            // A puzzle without a unique solution has no rating.
            WINDOWS
                .iter()
                .map(|&window| {
                    let opts = RateOptions {
                        models: [Model::Singles].into(),
                        seed: 0,
                        singles: SinglesOptions {
                            window,
                            ..SinglesOptions::default()
                        },
                        ..RateOptions::default()
                    };
                    Some(rate(&p, &opts).ratings.singles.dependency?.mean)
                })
                .collect()
        })
        .collect();
    println!("| window k | Spearman with ln time (all) | (SE ≤ 1.5) |");
    println!("|---:|---:|---:|");
    for (w, &k) in WINDOWS.iter().enumerate() {
        let mut all = (Vec::new(), Vec::new());
        let mut simple = (Vec::new(), Vec::new());
        for ((_, t, se), d) in rows.iter().zip(&deps) {
            let Some(d) = d else { continue };
            all.0.push(d[w]);
            all.1.push(t.ln());
            if *se <= 1.5 {
                simple.0.push(d[w]);
                simple.1.push(t.ln());
            }
        }
        let rho = |v: &(Vec<f64>, Vec<f64>)| spearman(&v.0, &v.1).unwrap_or(f64::NAN);
        println!("| {k} | {:+.3} | {:+.3} |", rho(&all), rho(&simple));
    }
}
