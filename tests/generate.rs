//! The generators, checked by engines they do not use: every puzzle is unique
//! by SAT, minimal puzzles lose uniqueness without any given, Xu puzzles fall
//! to the techniques, targets hold when re-rated, seeds reproduce whatever the
//! thread count, and the canonical form is invariant and separating.

use crate::common::sudolab;
use rand::SeedableRng;
use sudolab::{
    AimOptions, Engine, Engines, GenerateError, GenerateOptions, Generated, Method, Metric,
    PseudoOptions, Puzzle, RateOptions, RunOptions, SeededRng, Status, Target, TargetError,
    Transform, generate, parse_puzzle, rate,
};

fn sat() -> Engines {
    Engines::one(Engine::Sat)
}

fn puzzles(rows: &[Generated], order: usize) -> Vec<Puzzle> {
    rows.iter()
        .map(|r| {
            let p = parse_puzzle(&r.puzzle).unwrap();
            assert_eq!(p.order(), order);
            assert_eq!(p.givens(), r.givens);
            p
        })
        .collect()
}

#[test]
fn score_targets_hold_when_rescored() {
    use sudolab::{ScoreOptions, score};
    let opts = GenerateOptions {
        run: RunOptions {
            count: 2,
            seed: 5,
            max_tries: 300,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: Target::parse_all(&["score_level>=Hard", "se_equivalent<=8"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let rows = generate(&opts).unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached, "{r:?}");
        assert_eq!(sat().status(&p).unwrap(), Status::Unique);
        let s = score(&p, &ScoreOptions::default()).unwrap().score;
        assert!(
            ["Hard", "Expert"].contains(&s.score_level.as_str()),
            "{s:?}"
        );
        assert!(s.se_equivalent.unwrap() <= 8.0, "{s:?}");
        assert_eq!(
            r.metrics.text(Metric::ScoreLevel),
            Some(s.score_level.as_str())
        );
        assert_eq!(r.metrics.number(Metric::SeEquivalent), s.se_equivalent);
        // The method's own columns do not clash with the score's.
        assert_eq!((r.method_level.clone(), r.method_score), (None, None));
    }
    // In JSON the score target's field and the method's own score are two
    // keys (they once were both "score").
    let (code, json, err) = sudolab(
        &[
            "generate", "-t", "score>=0", "-n", "1", "--seed", "1", "-f", "json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json.matches("\"score\":").count(), 1, "{json}");
    assert_eq!(json.matches("\"method_score\":").count(), 1, "{json}");
    let small = GenerateOptions { order: 2, ..opts };
    assert!(matches!(
        generate(&small),
        Err(GenerateError::Target(TargetError::ScoreOrder(2)))
    ));
}

#[test]
fn cli_generate_pipes_into_rate_and_canon() {
    let (code, out, err) = sudolab(&["generate", "-n", "3", "--seed", "4"], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l.len() == 81));
    let (code, rated, err) = sudolab(&["rate", "-", "-m", "weights", "-f", "jsonl"], &out);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rated.lines().count(), 3);
    let (code, canon, err) = sudolab(&["canon", "-"], &out);
    assert_eq!(code, 0, "{err}");
    for (line, form) in lines.iter().zip(canon.lines()) {
        let p = parse_puzzle(line).unwrap();
        assert_eq!(p.canonical().unwrap().to_line(), form);
    }
    let (code, json, _) = sudolab(
        &[
            "generate", "-n", "2", "--seed", "4", "-m", "fletcher", "-f", "jsonl",
        ],
        "",
    );
    assert_eq!(code, 0);
    for l in json.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        for key in [
            "puzzle",
            "method",
            "seed",
            "index",
            "givens",
            "minimal",
            "symmetry",
            "attempts",
            "millis",
            "method_level",
            "method_score",
        ] {
            assert!(v.get(key).is_some(), "missing {key} in {l}");
        }
        assert_eq!(v["method"], "fletcher");
        assert_eq!(v["minimal"], true);
    }
}

#[test]
fn cli_generate_errors_and_missed_targets() {
    let (code, _, err) = sudolab(&["generate", "--order", "6"], "");
    assert_eq!(code, 1);
    assert!(err.contains("order 6"), "{err}");
    let (code, _, err) = sudolab(&["generate", "--count", "0"], "");
    assert_eq!(code, 1);
    assert!(err.contains("count"), "{err}");
    let (code, _, err) = sudolab(&["generate", "-t", "hardness>3"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("unknown field") && err.contains("weights_score"),
        "{err}"
    );
    let (code, _, err) = sudolab(&["generate", "-m", "xu", "--level", "crazy"], "");
    assert_eq!(code, 1);
    assert!(err.contains("does not apply"), "{err}");
    let (code, out, err) = sudolab(
        &[
            "generate",
            "-t",
            "givens<=12",
            "--max-tries",
            "5",
            "-f",
            "csv",
        ],
        "",
    );
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("missed"), "{err}");
    assert!(out.starts_with("puzzle,method,seed,index,givens"), "{out}");
    assert!(out.contains(",false,"), "{out}");
}

#[test]
fn cli_dedup_on_generate_and_analyze() {
    let (code, out, err) = sudolab(
        &[
            "generate", "--order", "2", "-n", "15", "--seed", "3", "--dedup",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (_, forms, _) = sudolab(&["canon", "-"], &out);
    let mut distinct: Vec<&str> = forms.lines().collect();
    assert_eq!(distinct.len(), 15);
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 15);
    let (code, _, err) = sudolab(&["generate", "--order", "4", "--dedup"], "");
    assert_eq!(code, 1);
    assert!(err.contains("--dedup") && err.contains("order 4"), "{err}");

    // Lines 3 and 5 are transforms of line 1; line 4 repeats line 2.
    let a = sudolab::Puzzle::example("Golden Nugget").unwrap();
    let b = sudolab::Puzzle::example("Fletcher Fig. 3 Crazy").unwrap();
    let mut rng = SeededRng::seed_from_u64(5);
    let input = [
        a.to_line(),
        b.to_line(),
        Transform::random(3, &mut rng).apply(&a).to_line(),
        b.to_line(),
        Transform::random(3, &mut rng).apply(&a).to_line(),
    ]
    .join("\n");
    let args = ["analyze", "-", "--metrics", "clauses", "-f", "jsonl"];
    let (code, full, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    let (code, dedup, err) = sudolab(&[&args[..], &["--dedup"]].concat(), &input);
    assert_eq!(code, 0, "{err}");
    let full: Vec<&str> = full.lines().collect();
    // The kept rows are the full run's rows; only the recorded parameter differs.
    let dedup = dedup.replace("\"dedup\":true", "\"dedup\":false");
    assert_eq!(dedup.lines().collect::<Vec<_>>(), vec![full[0], full[1]]);
    for (line, first) in [(3, 1), (4, 2), (5, 1)] {
        let msg = format!("line {line} skipped: equivalent to line {first}");
        assert!(err.contains(&msg), "{msg} not in {err}");
    }
    let big = format!("1{}", ".".repeat(255));
    let (code, _, err) = sudolab(&["analyze", "-", "--metrics", "clauses", "--dedup"], &big);
    assert_eq!(code, 1);
    assert!(
        err.contains("--dedup: line 1") && err.contains("order 4"),
        "{err}"
    );
}

#[test]
fn pseudo_keeps_another_metric_where_hsolve_cannot_rate_the_source() {
    // hsolve cannot finish Golden Nugget; the oracle score rates it.
    let source = sudolab::Puzzle::example("Golden Nugget").unwrap();
    let opts = GenerateOptions {
        method: Method::Pseudo,
        run: RunOptions {
            count: 4,
            seed: 3,
            ..RunOptions::default()
        },
        pseudo: PseudoOptions {
            source: Some(source.clone()),
            metric: Metric::OracleScore,
            tolerance: 0.1,
        },
        ..GenerateOptions::default()
    };
    let rows = generate(&opts).unwrap();
    assert_eq!(rows.len(), 4);
    let oracle = RateOptions::for_models("oracle").unwrap();
    let s0 = rate(&source, &oracle).ratings.oracle.score.unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert_eq!(sat().status(&p).unwrap(), Status::Unique, "{p}");
        let s = rate(&p, &oracle).ratings.oracle.score.unwrap();
        assert_eq!(r.method_score, Some(s));
        assert_eq!(r.metrics.number(Metric::OracleScore), Some(s));
        assert_eq!(r.metrics.source, Some((Metric::OracleScore, s0)));
        assert!((s - s0).abs() <= 0.1 * s0, "{s} vs {s0}");
        assert!(!p.equivalent(&source).unwrap());
    }
    // A metric must be a numeric field.
    let o = GenerateOptions {
        pseudo: PseudoOptions {
            metric: Metric::WeightsLevel,
            ..opts.pseudo.clone()
        },
        ..opts.clone()
    };
    assert!(
        matches!(generate(&o), Err(GenerateError::Target(TargetError::Metric { ref field, .. })) if field == "weights_level")
    );
    let (code, _, err) = sudolab(
        &[
            "generate",
            "-m",
            "pseudo",
            "--from",
            &source.to_line(),
            "--metric",
            "nishio",
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("metric \"nishio\"") && err.contains("nishio4"),
        "{err}"
    );
    let (code, _, err) = sudolab(
        &["generate", "-m", "pseudo", "--from", &source.to_line()],
        "",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("hsolve cannot rate it") && err.contains("--metric"),
        "{err}"
    );
}

#[test]
fn cli_pseudo_reads_its_source_from_a_file_or_stdin() {
    let source = sudolab::Puzzle::example("Fletcher Fig. 3 Crazy")
        .unwrap()
        .to_line();
    let dir = std::env::temp_dir().join(format!("sudolab-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("source.txt");
    std::fs::write(
        &file,
        format!("# a comment\n{source}\n{}\n", ".".repeat(81)),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let args = |from: &str| {
        [
            "generate", "-m", "pseudo", "-n", "3", "--seed", "2", "--from",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([from.to_string()])
        .collect::<Vec<_>>()
    };
    let run = |from: &str, stdin: &str| {
        let a = args(from);
        sudolab(&a.iter().map(String::as_str).collect::<Vec<_>>(), stdin)
    };
    let (code, by_line, err) = run(&source, "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(by_line.lines().count(), 3);
    let (code, by_file, err) = run(file, "");
    assert_eq!((code, &by_file), (0, &by_line), "{err}");
    let (code, by_stdin, err) = run("-", &format!("{source}\n"));
    assert_eq!((code, &by_stdin), (0, &by_line), "{err}");
    // A non-unique and a contradictory source are named.
    let several = dir.join("several.txt");
    std::fs::write(&several, format!("{}\n", ".".repeat(81))).unwrap();
    let several = several.to_str().unwrap();
    let (code, _, err) = run(several, "");
    assert_eq!(code, 1);
    assert!(err.contains(several) && err.contains("not unique"), "{err}");
    let clash = format!("55{}", &source[2..]);
    let (code, _, err) = run(&clash, "");
    assert_eq!(code, 1);
    assert!(
        err.contains(&clash) && err.contains("contradictory"),
        "{err}"
    );
    let (code, _, err) = run("/no/such/file", "");
    assert_eq!(code, 1);
    assert!(
        err.contains("neither an existing file nor a puzzle line"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_chang_missed_level_exits_3_with_the_closest() {
    // One try cannot reach level 1 for every puzzle of seed 1 (most
    // minimal puzzles are harder).
    let (code, out, err) = sudolab(
        &[
            "generate",
            "-m",
            "chang",
            "--level",
            "level1",
            "-n",
            "4",
            "--seed",
            "1",
            "--max-tries",
            "1",
            "-f",
            "jsonl",
        ],
        "",
    );
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("missed"), "{err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    assert!(
        rows.iter()
            .any(|r| r["reached"] == false && r["method_level"] != "level1")
    );
    for r in &rows {
        assert_eq!(r["method"], "chang");
        assert!(r["hsolve"].as_f64().is_some() && r["attempts"] == 1);
    }
}
