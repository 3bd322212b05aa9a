//! Levels that hold: every command rates a puzzle with the same
//! default seed, so `rate` and `analyze` give the same row; a stochastic
//! target of `generate` holds with the asked confidence under the metric's
//! standard error; the technique-weight level does not depend on how a
//! puzzle is written down.

use crate::common;

use common::sudolab;
use sudolab::Metric;
use sudolab::{AimOptions, GenerateOptions, RunOptions, Target, generate};
use sudolab::{Puzzle, parse_puzzle};
use sudolab::{RateOptions, rate};

const PUZZLES: [&str; 2] = [
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
];

fn json_rows(text: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    text.lines()
        .map(|l| match serde_json::from_str(l).unwrap() {
            serde_json::Value::Object(o) => o,
            other => panic!("not a row: {other}"),
        })
        .collect()
}

/// `rate` and `analyze` at their defaults give the same value in every
/// column they share (the rating seed, the runs and the score).
#[test]
fn rate_and_analyze_give_the_same_row_at_their_defaults() {
    let input = PUZZLES.join("\n") + "\n";
    let (code, rated, err) = sudolab(&["rate", "-", "-f", "jsonl"], &input);
    assert_eq!(code, 0, "{err}");
    let models = "rate:sisus,oracle,hsolve,nishio,weights,baseline,singles,serate,fowler,trial";
    let (code, analyzed, err) = sudolab(
        &[
            "analyze",
            "-",
            "--metrics",
            &format!("{models},score"),
            "-f",
            "jsonl",
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let (rated, analyzed) = (json_rows(&rated), json_rows(&analyzed));
    assert_eq!(rated.len(), 2);
    for (r, a) in rated.iter().zip(&analyzed) {
        let mut shared = 0;
        for (k, v) in r {
            if let Some(w) = a.get(k) {
                assert_eq!(v, w, "column {k}");
                shared += 1;
            }
        }
        // Every rate column is in the analyze row (which adds line and params).
        assert_eq!(shared, r.len());
        for k in [
            "oracle_score",
            "oracle_score_se",
            "hsolve",
            "hsolve_se",
            "nishio4_se",
        ] {
            assert!(r[k].is_number(), "{k}: {}", r[k]);
        }
    }
}

/// A puzzle `generate` keeps for a bound on a stochastic metric passes the
/// bound by 1.645 standard errors of its own rating (95 %, one-sided), and
/// its row says how sure the target is; with `confidence` off only the
/// point value is asked.
#[test]
fn kept_puzzles_pass_the_cut_by_their_standard_error() {
    let opts = |confidence| GenerateOptions {
        run: RunOptions {
            count: 3,
            seed: 11,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: Target::parse_all(&["oracle_score>=0.6"]).unwrap(),
            confidence,
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let oracle = RateOptions::for_models("oracle").unwrap();
    for r in generate(&opts(Some(0.95))).unwrap() {
        assert!(r.reached, "{r:?}");
        let p: Puzzle = parse_puzzle(&r.puzzle).unwrap();
        let rated = rate(&p, &oracle).ratings;
        let (score, se) = (rated.oracle.score.unwrap(), rated.oracle.score_se.unwrap());
        assert!(se > 0.0);
        assert!(score - 1.645 * se >= 0.6, "{score} ± {se}");
        assert_eq!(r.metrics.se.get(&Metric::OracleScore), Some(&se));
        // The confirmations agree that a fresh rating passes.
        assert!(r.metrics.target_confidence.unwrap() >= 0.95, "{r:?}");
    }
    for r in generate(&opts(None)).unwrap() {
        assert!(r.reached, "{r:?}");
        assert!(r.metrics.number(Metric::OracleScore).unwrap() >= 0.6);
    }
}

/// An out-of-range confidence is refused with a message naming it.
#[test]
fn a_confidence_outside_its_range_is_refused() {
    let (code, _, err) = sudolab(
        &["generate", "-t", "oracle_score>=0.6", "--confidence", "1.5"],
        "",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("confidence must be at least 0.5"), "{err}");
}
