//! Project Patti's per-level table (paper §8.1, Tables 3-7) recomputed on the
//! three released sites in `../shared/data/website-projectpatti/patti.tsv`:
//! mean and median randomized Nishio cycles with 4 and 2 strategies (50
//! starts each, seed 0) and the share of puzzles solved by 2, 3 and 4
//! strategies alone. Non-unique puzzles are skipped. The solves follow
//! Figure 3 (assumption first); `--strategies-first` applies the strategies
//! before the first assumption (§9.2).
//!
//! ```text
//! cargo run --release --example patti_levels [-- --strategies-first]
//! ```

use rayon::prelude::*;
use std::collections::BTreeMap;
use sudolab::{Model, NishioOptions, NishioOrder, RateOptions, parse_puzzle, rate};

#[path = "../src/data.rs"]
mod data;

struct Rated {
    n4: f64,
    n2: f64,
    solved: [bool; 3],
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let path = data::data_dir().join("website-projectpatti/patti.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} not found", path.display());
        std::process::exit(1);
    };
    // (site, rank, level) -> puzzles
    let mut groups: BTreeMap<(String, u32, String), Vec<String>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 4 {
            continue;
        }
        let rank = f[3].parse().unwrap_or(0);
        groups
            .entry((f[1].to_string(), rank, f[2].to_string()))
            .or_default()
            .push(f[0].to_string());
    }
    let order = if std::env::args().any(|a| a == "--strategies-first") {
        NishioOrder::StrategiesFirst
    } else {
        NishioOrder::GuessFirst
    };
    let opts = RateOptions {
        models: [Model::Nishio].into(),
        seed: 0,
        nishio: NishioOptions {
            order,
            ..NishioOptions::default()
        },
        ..RateOptions::default()
    };
    println!(
        "| site | level | n | Nishio 4 mean | median | Nishio 2 mean | median | solved by 2 / 3 / 4 (%) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for ((site, _, level), puzzles) in groups {
        let rated: Vec<Rated> = puzzles
            .par_iter()
            .filter_map(|s| {
                // A puzzle without a unique solution has no rating.
                let r = rate(&parse_puzzle(s).ok()?, &opts).ratings;
                Some(Rated {
                    n4: r.nishio.nishio4?.mean,
                    n2: r.nishio.nishio2?.mean,
                    solved: [
                        r.nishio.solved_by_2?,
                        r.nishio.solved_by_3?,
                        r.nishio.solved_by_4?,
                    ],
                })
            })
            .collect();
        let n = rated.len() as f64;
        let mean = |f: fn(&Rated) -> f64| rated.iter().map(f).sum::<f64>() / n;
        let pct = |i: usize| 100.0 * rated.iter().filter(|r| r.solved[i]).count() as f64 / n;
        println!(
            "| {site} | {level} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.0} / {:.0} / {:.0} |",
            rated.len(),
            mean(|r| r.n4),
            median(rated.iter().map(|r| r.n4).collect()),
            mean(|r| r.n2),
            median(rated.iter().map(|r| r.n2).collect()),
            pct(0),
            pct(1),
            pct(2)
        );
    }
}
