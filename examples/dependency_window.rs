//! Pelánek's Table 2: the SiSuS dependency metric against its window `k`
//! (the number of first steps whose possibility counts are averaged), as
//! Pearson's r with the mean human solving time on
//! `../shared/data/human-cloudsudoku-train/` (746 puzzles, 30 runs, seed 0),
//! over all puzzles and over the "simple" ones (solved by naked and hidden
//! singles alone, the paper's definition). Spearman's ρ is printed beside r
//! because the times are means over few players.
//!
//! ```text
//! cargo run --release --example dependency_window
//! ```

use rayon::prelude::*;
use sudolab::{
    Model, NishioOptions, RateOptions, SisusOptions, parse_puzzle, pearson, rate, spearman,
};

#[path = "../src/data.rs"]
mod data;

const WINDOWS: [usize; 8] = [5, 10, 15, 20, 25, 30, 40, 50];

fn main() {
    let path = data::data_dir().join("human-cloudsudoku-train/cloudsudoku_train.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} not found", path.display());
        std::process::exit(1);
    };
    // Columns: puzzle, game_no, n_solves, mean_time_s, se_er.
    let rows: Vec<(String, f64)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((f.first()?.to_string(), f.get(3)?.parse().ok()?))
        })
        .collect();
    let deps: Vec<Option<(Vec<f64>, bool)>> = rows
        .par_iter()
        .map(|(text, _)| {
            let p = parse_puzzle(text).ok()?;
            // A puzzle without a unique solution has no rating.
            let by_k = WINDOWS
                .iter()
                .map(|&k| {
                    let opts = RateOptions {
                        models: [Model::Sisus].into(),
                        seed: 0,
                        sisus: SisusOptions {
                            dependency_steps: k,
                            ..SisusOptions::default()
                        },
                        ..RateOptions::default()
                    };
                    Some(rate(&p, &opts).ratings.sisus.dependency?.mean)
                })
                .collect::<Option<Vec<f64>>>()?;
            // "Simple": solved by the first two of Patti's strategies (naked
            // and hidden singles), which the Nishio model reports.
            let nishio = RateOptions {
                models: [Model::Nishio].into(),
                nishio: NishioOptions {
                    runs: 1,
                    ..NishioOptions::default()
                },
                ..RateOptions::default()
            };
            Some((by_k, rate(&p, &nishio).ratings.nishio.solved_by_2?))
        })
        .collect();
    let simple = deps.iter().flatten().filter(|(_, s)| *s).count();
    let all = deps.iter().flatten().count();
    println!("| k | all (n={all}): r / ρ | simple (n={simple}): r / ρ |");
    println!("|---:|---|---|");
    for (w, &k) in WINDOWS.iter().enumerate() {
        let mut a = (Vec::new(), Vec::new());
        let mut s = (Vec::new(), Vec::new());
        for ((_, t), d) in rows.iter().zip(&deps) {
            let Some((d, is_simple)) = d else { continue };
            a.0.push(d[w]);
            a.1.push(*t);
            if *is_simple {
                s.0.push(d[w]);
                s.1.push(*t);
            }
        }
        let r = |v: &(Vec<f64>, Vec<f64>)| pearson(&v.0, &v.1).unwrap_or(f64::NAN);
        let rho = |v: &(Vec<f64>, Vec<f64>)| spearman(&v.0, &v.1).unwrap_or(f64::NAN);
        println!(
            "| {k} | {:+.2} / {:+.2} | {:+.2} / {:+.2} |",
            r(&a),
            rho(&a),
            r(&s),
            rho(&s)
        );
    }
}
