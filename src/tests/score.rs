//! The score against Sukaku Explainer (moved from `tests/score.rs`: it
//! ranks with the crate's Spearman coefficient).

use super::common::shared_data;
use crate::{ScoreOptions, parse_puzzle, score};

/// The score against Sukaku Explainer on the NYT set (57 puzzles, Easy <
/// Medium < Hard), with SE's ratings from `se-ratings-sukakuexplainer`.
#[test]
fn on_nyt_the_score_ranks_the_levels_better_than_se() {
    let (Some(nyt), Some(se)) = (
        shared_data("website-nyt/nyt.tsv"),
        shared_data("se-ratings-sukakuexplainer/se_ratings.tsv"),
    ) else {
        return;
    };
    let se: std::collections::HashMap<&str, f64> = se
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((f[0], f[1].parse().ok()?))
        })
        .collect();
    let opts = ScoreOptions::default();
    let (mut ours, mut theirs, mut level, mut within) = (vec![], vec![], vec![], 0);
    for l in nyt.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        let s = score(&parse_puzzle(f[0]).unwrap(), &opts).unwrap().score;
        let rated = se[f[0]];
        ours.push(s.score);
        theirs.push(rated);
        level.push(f[2].parse::<f64>().unwrap());
        if (s.se_equivalent.unwrap() - rated).abs() <= 1.0 {
            within += 1;
        }
    }
    assert_eq!(ours.len(), 57);
    let rho = crate::stats::spearman(&ours, &level).unwrap();
    let rho_se = crate::stats::spearman(&theirs, &level).unwrap();
    // docs/score.md: SE 0.780 on these puzzles.
    assert!((rho_se - 0.780).abs() < 0.001, "{rho_se}");
    assert!(rho > rho_se + 0.05, "score {rho} vs SE {rho_se}");
    assert!(within as f64 >= 0.8 * 57.0, "{within} of 57 within ±1.0");
}
