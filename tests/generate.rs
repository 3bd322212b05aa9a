//! The generators, checked by engines they do not use: every puzzle is unique
//! by SAT, minimal puzzles lose uniqueness without any given, Xu puzzles fall
//! to the techniques, targets hold when re-rated, seeds reproduce whatever the
//! thread count, and the canonical form is invariant and separating.

use proptest::prelude::*;
use rand::SeedableRng;
use std::io::Write;
use std::process::{Command, Stdio};
use sudolab::SeededRng;
use sudolab::engine::{Engine, Engines};
use sudolab::generate::minimal;
use sudolab::generate::{
    AimOptions, GenerateError, GenerateOptions, Generated, Level, Method, PseudoOptions,
    RunOptions, Symmetry, TargetError, generate, parse_targets,
};
use sudolab::grid::canon::{Transform, canonical, equivalent};
use sudolab::grid::{Puzzle, parse_puzzle};
use sudolab::human::path::simplest_path;
use sudolab::human::{Model, RateOptions, Technique, rate};
use sudolab::metrics::Metric;
use sudolab::{Status, examples};

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

/// SAT says unique, and minimal puzzles go to multiple without any given.
fn assert_unique_and_minimality(p: &Puzzle, minimal: bool) {
    assert_eq!(sat().status(p).unwrap(), Status::Unique, "{p}");
    let mut all_needed = true;
    for cell in 0..p.cells().len() {
        if p.is_given(cell) {
            let mut q = p.clone();
            q.set(cell, 0);
            all_needed &= sat().status(&q).unwrap() == Status::Multiple;
        }
    }
    assert_eq!(all_needed, minimal, "{p}");
}

#[test]
fn minimal_puzzles_of_every_order_and_symmetry_checked_by_sat() {
    for (order, symmetry, count) in [
        (3, Symmetry::None, 12),
        (2, Symmetry::None, 6),
        (4, Symmetry::None, 1),
        (3, Symmetry::Rot180, 3),
        (3, Symmetry::Rot90, 2),
        (3, Symmetry::Diagonal, 2),
        (3, Symmetry::Mirror, 2),
    ] {
        let opts = GenerateOptions {
            order,
            symmetry,
            run: RunOptions {
                count,
                seed: 42,
                ..RunOptions::default()
            },
            ..GenerateOptions::default()
        };
        let rows = generate(&opts).unwrap();
        assert_eq!(rows.len(), count);
        for (i, (r, p)) in rows.iter().zip(puzzles(&rows, order)).enumerate() {
            assert_eq!(
                (r.index, r.method, r.symmetry),
                (i, Method::Minimal, symmetry)
            );
            assert!(r.reached && r.distance == 0.0 && r.attempts == 1);
            if order == 4 {
                // SAT on every removal of a 16×16 is slow; uniqueness only.
                assert_eq!(sat().status(&p).unwrap(), Status::Unique, "{p}");
                assert!(r.minimal);
            } else {
                assert_unique_and_minimality(&p, r.minimal);
            }
            if symmetry == Symmetry::None {
                assert!(r.minimal, "{p}");
            }
            let side = order * order;
            for orbit in symmetry.orbits(side) {
                let given = p.is_given(orbit[0]);
                assert!(
                    orbit.iter().all(|&c| p.is_given(c) == given),
                    "{symmetry}: {p}"
                );
            }
        }
    }
}

#[test]
fn fletcher_puzzles_are_minimal_and_scored_by_the_oracle() {
    let opts = GenerateOptions {
        method: Method::Fletcher,
        run: RunOptions {
            count: 4,
            seed: 7,
            ..RunOptions::default()
        },
        ..GenerateOptions::default()
    };
    let rows = generate(&opts).unwrap();
    // The default rating seed, as generate rates its candidates.
    let oracle = RateOptions::for_models("oracle").unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert_unique_and_minimality(&p, true);
        assert!(r.minimal);
        let rated = rate(&p, &oracle);
        assert_eq!(
            r.method_level.as_deref(),
            rated.ratings.oracle_level.map(|l| l.name()),
            "{p}"
        );
        assert_eq!(r.method_score, rated.ratings.oracle_score);
    }
}

#[test]
fn fletcher_level_is_reached_by_generate_and_test() {
    let opts = GenerateOptions {
        method: Method::Fletcher,
        run: RunOptions {
            count: 2,
            seed: 3,
            max_tries: 200,
            ..RunOptions::default()
        },
        aim: AimOptions {
            level: Some(Level::Confusing),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    for r in generate(&opts).unwrap() {
        assert!(r.reached, "{r:?}");
        assert_eq!(r.method_level.as_deref(), Some("Confusing"));
        assert_eq!(r.metrics.text(Metric::OracleLevel), Some("Confusing"));
    }
}

#[test]
fn xu_puzzles_need_no_guessing_and_have_the_level() {
    let opts = GenerateOptions {
        method: Method::Xu,
        run: RunOptions {
            count: 3,
            seed: 5,
            max_tries: 100,
            ..RunOptions::default()
        },
        aim: AimOptions {
            level: Some(Level::Intermediate),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let rows = generate(&opts).unwrap();
    let weights = RateOptions::for_models("weights").unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached, "{r:?}");
        assert_eq!(sat().status(&p).unwrap(), Status::Unique);
        let path = simplest_path(&p, &Technique::ALL);
        assert!(path.solved, "{p} needs guessing");
        let rated = rate(&p, &weights);
        assert_eq!(
            rated.ratings.weights_level.map(|l| l.name()),
            Some("Intermediate")
        );
        assert_eq!(
            r.method_level.as_deref(),
            rated.ratings.weights_level.map(|l| l.name())
        );
        assert!((73..=86).contains(&rated.ratings.weights_score.unwrap()));
    }
}

#[test]
fn targets_hold_when_rerated() {
    let opts = GenerateOptions {
        run: RunOptions {
            count: 2,
            seed: 11,
            max_tries: 400,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: parse_targets(&["givens>=24", "weights_score<=80", "oracle_level=Cinch"])
                .unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let rows = generate(&opts).unwrap();
    let mut models = RateOptions::for_models("weights,oracle").unwrap();
    models.models.insert(Model::Weights);
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached, "{r:?}");
        assert_eq!(sat().status(&p).unwrap(), Status::Unique);
        assert!(p.givens() >= 24);
        let rated = rate(&p, &models);
        assert!(rated.ratings.weights_score.unwrap() <= 80, "{rated:?}");
        assert_eq!(rated.ratings.oracle_level.map(|l| l.name()), Some("Cinch"));
        assert_eq!(r.metrics.number(Metric::Givens), Some(p.givens() as f64));
        assert_eq!(
            r.metrics.number(Metric::WeightsScore),
            rated.ratings.weights_score.map(f64::from)
        );
        assert!(r.attempts >= 1 && r.attempts <= 400);
    }
}

#[test]
fn targeted_levels_hold_when_rerated_by_the_rater() {
    // Hard by technique weights: fresh puzzles, prefixes of their removal
    // sequence and mutants all end as hits only when the full rating agrees.
    let opts = GenerateOptions {
        run: RunOptions {
            count: 24,
            seed: 5,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: parse_targets(&["weights_level=Hard"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let rows = generate(&opts).unwrap();
    let weights = RateOptions::for_models("weights").unwrap();
    let mut not_minimal = 0;
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached && r.distance == 0.0, "{r:?}");
        assert_eq!(sat().status(&p).unwrap(), Status::Unique);
        let rated = rate(&p, &weights);
        assert_eq!(
            rated.ratings.weights_level.map(|l| l.name()),
            Some("Hard"),
            "{p}"
        );
        assert_eq!(r.metrics.text(Metric::WeightsLevel), Some("Hard"));
        let solution = sudolab::bitset::sudoku::solve(&p).unwrap();
        assert_eq!(r.minimal, minimal::is_minimal(&p, &solution));
        not_minimal += usize::from(!r.minimal);
    }
    // Some hits are walked-back prefixes or mutants, not minimal puzzles.
    assert!(not_minimal > 0, "{rows:?}");
    // Challenging by the oracle: the oracle's full 100 trials agree.
    let opts = GenerateOptions {
        run: RunOptions {
            count: 3,
            seed: 5,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: parse_targets(&["oracle_level=Challenging"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let oracle = RateOptions::for_models("oracle").unwrap();
    let rows = generate(&opts).unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached, "{r:?}");
        let rated = rate(&p, &oracle);
        assert_eq!(
            rated.ratings.oracle_level.map(|l| l.name()),
            Some("Challenging")
        );
        assert_eq!(r.metrics.text(Metric::OracleLevel), Some("Challenging"));
    }
}

#[test]
fn a_missed_weights_target_reports_the_full_rating() {
    // Scores of at most 20 need 61 givens or more, which the other target
    // forbids: out of reach. The search stops rating such puzzles early, but the row it
    // returns carries the puzzle's full rating, not the bound it stopped at.
    let opts = GenerateOptions {
        run: RunOptions {
            count: 4,
            seed: 2,
            max_tries: 5,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: parse_targets(&["weights_score<=20", "givens<=40"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let weights = RateOptions::for_models("weights").unwrap();
    let rows = generate(&opts).unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(!r.reached, "{r:?}");
        let score = rate(&p, &weights).ratings.weights_score.unwrap();
        assert_eq!(
            r.metrics.number(Metric::WeightsScore),
            Some(f64::from(score)),
            "{p}"
        );
        let over = (p.givens() as f64 - 40.0).max(0.0) / 40.0;
        let expected = (f64::from(score) - 20.0) / 20.0 + over;
        assert!((r.distance - expected).abs() < 1e-9, "{r:?}");
    }
}

#[test]
fn minimal_option_prints_only_minimal_puzzles() {
    let base = GenerateOptions {
        minimal: true,
        run: RunOptions {
            count: 3,
            seed: 1,
            ..RunOptions::default()
        },
        ..GenerateOptions::default()
    };
    let runs = [
        GenerateOptions {
            symmetry: Symmetry::Rot180,
            ..base.clone()
        },
        GenerateOptions {
            method: Method::Xu,
            ..base.clone()
        },
        GenerateOptions {
            aim: AimOptions {
                targets: parse_targets(&["weights_level=Hard"]).unwrap(),
                ..base.aim.clone()
            },
            ..base.clone()
        },
        GenerateOptions {
            method: Method::Pseudo,
            pseudo: PseudoOptions {
                source: examples::by_name("Fletcher Fig. 3 Crazy"),
                ..base.pseudo.clone()
            },
            ..base.clone()
        },
    ];
    let mut attempts_beyond_first = 0;
    for opts in runs {
        let rows = generate(&opts).unwrap();
        assert_eq!(rows.len(), 3, "{opts:?}");
        for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
            assert!(r.minimal && r.reached, "{r:?}");
            assert_unique_and_minimality(&p, true);
            attempts_beyond_first += r.attempts - 1;
        }
    }
    // Some candidates were refused or reduced on the way (symmetric puzzles
    // are rarely minimal cell by cell, mutants seldom are).
    assert!(attempts_beyond_first > 0);
    // Without the option, the same symmetric run prints non-minimal puzzles.
    let loose = GenerateOptions {
        symmetry: Symmetry::Rot180,
        run: RunOptions {
            count: 10,
            ..RunOptions::default()
        },
        ..GenerateOptions::default()
    };
    assert!(generate(&loose).unwrap().iter().any(|r| !r.minimal));
}

#[test]
fn score_targets_hold_when_rescored() {
    use sudolab::score::{ScoreOptions, score};
    let opts = GenerateOptions {
        run: RunOptions {
            count: 2,
            seed: 5,
            max_tries: 300,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: parse_targets(&["score_level>=Hard", "se_equivalent<=8"]).unwrap(),
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
    assert_eq!(
        sudolab::score::scale_names(4),
        ["Easy", "Medium", "Hard", "Expert"],
        "score_level targets name the four-level scale"
    );
    let small = GenerateOptions { order: 2, ..opts };
    assert!(matches!(
        generate(&small),
        Err(GenerateError::Target(TargetError::ScoreOrder(2)))
    ));
}

#[test]
fn local_search_moves_towards_an_unreachable_target_and_stops() {
    // No unique 9×9 puzzle has 10 givens: the search must end at max_tries
    // with the closest puzzle it found, having accepted some mutations.
    let opts = GenerateOptions {
        run: RunOptions {
            count: 1,
            seed: 1,
            max_tries: 60,
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: parse_targets(&["givens<=10"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let r = &generate(&opts).unwrap()[0];
    assert!(!r.reached);
    assert_eq!(r.attempts, 60);
    assert!(r.distance > 0.0);
    let p = parse_puzzle(&r.puzzle).unwrap();
    assert_eq!(sat().status(&p).unwrap(), Status::Unique);
    assert!((r.distance - (p.givens() as f64 - 10.0) / 10.0).abs() < 1e-9);
    assert!(r.acceptance.is_some_and(|a| a > 0.0 && a <= 1.0), "{r:?}");
}

#[test]
fn same_seed_same_puzzles_with_one_and_two_threads() {
    let run = |threads: usize, opts: &GenerateOptions| -> Vec<String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| generate(opts).unwrap())
            .into_iter()
            .map(|r| r.puzzle)
            .collect()
    };
    for opts in [
        GenerateOptions {
            run: RunOptions {
                count: 16,
                seed: 99,
                ..RunOptions::default()
            },
            ..GenerateOptions::default()
        },
        GenerateOptions {
            method: Method::Fletcher,
            symmetry: Symmetry::Rot180,
            run: RunOptions {
                count: 4,
                seed: 99,
                ..RunOptions::default()
            },
            ..GenerateOptions::default()
        },
        GenerateOptions {
            run: RunOptions {
                count: 3,
                seed: 99,
                max_tries: 30,
                ..RunOptions::default()
            },
            aim: AimOptions {
                targets: parse_targets(&["givens<=22"]).unwrap(),
                ..AimOptions::default()
            },
            ..GenerateOptions::default()
        },
        GenerateOptions {
            run: RunOptions {
                count: 8,
                seed: 99,
                ..RunOptions::default()
            },
            aim: AimOptions {
                targets: parse_targets(&["weights_level=Hard"]).unwrap(),
                ..AimOptions::default()
            },
            ..GenerateOptions::default()
        },
    ] {
        let one = run(1, &opts);
        assert_eq!(one, run(2, &opts));
        assert_eq!(one.len(), opts.run.count);
        let mut distinct = one.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), one.len());
    }
    // Puzzle i depends on (seed, i) only: a shorter run is a prefix.
    let short = GenerateOptions {
        run: RunOptions {
            count: 5,
            seed: 99,
            ..RunOptions::default()
        },
        ..GenerateOptions::default()
    };
    let long = GenerateOptions {
        run: RunOptions {
            count: 16,
            ..short.run.clone()
        },
        ..short.clone()
    };
    assert_eq!(run(2, &short)[..], run(1, &long)[..5]);
}

#[test]
fn bad_requests_are_errors() {
    let base = GenerateOptions::default();
    assert_eq!(
        generate(&GenerateOptions {
            order: 6,
            ..base.clone()
        }),
        Err(GenerateError::Order(6))
    );
    assert_eq!(
        generate(&GenerateOptions {
            run: RunOptions {
                count: 0,
                ..base.run.clone()
            },
            ..base.clone()
        }),
        Err(GenerateError::Option(
            sudolab::limits::OptionError::BelowMinimum {
                name: "count".into(),
                value: 0,
                min: 1
            }
        ))
    );
    let err = parse_targets(&["nonsense>=3"]).unwrap_err();
    assert!(matches!(err, TargetError::UnknownField { .. }));
    let relax_bad = GenerateOptions {
        aim: AimOptions {
            targets: parse_targets(&["mean_fixed<=12"]).unwrap(),
            relax_k: 5000,
            ..base.aim
        },
        ..base
    };
    assert!(matches!(
        generate(&relax_bad),
        Err(GenerateError::Target(TargetError::Relax { .. }))
    ));
}

#[test]
fn all_288_shidoku_grids_fall_into_two_classes() {
    // The 4×4 grids form exactly two classes under the Sudoku symmetries.
    let grids = sudolab::bitset::sudoku::solutions(&Puzzle::empty(2), 0);
    assert_eq!(grids.len(), 288);
    let mut forms: Vec<String> = grids
        .iter()
        .map(|g| canonical(&g.to_puzzle()).unwrap().to_line())
        .collect();
    forms.sort();
    forms.dedup();
    assert_eq!(forms.len(), 2, "{forms:?}");
}

#[test]
fn canonical_forms_separate_the_example_puzzles() {
    let all = examples::embedded();
    let mut forms: Vec<String> = all
        .iter()
        .map(|p| canonical(p).unwrap().to_line())
        .collect();
    forms.sort();
    forms.dedup();
    assert_eq!(forms.len(), all.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn canonical_form_is_invariant_under_symmetries(seed in any::<u64>(), which in 0usize..11) {
        let p = examples::embedded().swap_remove(which);
        let mut rng = SeededRng::seed_from_u64(seed);
        let t = Transform::random(3, &mut rng);
        let q = t.apply(&p);
        prop_assert_eq!(q.givens(), p.givens());
        prop_assert_eq!(canonical(&q).unwrap(), canonical(&p).unwrap());
        prop_assert!(equivalent(&p, &q).unwrap());
    }

    #[test]
    fn canonical_form_is_invariant_on_4x4(seed in any::<u64>()) {
        let mut rng = SeededRng::seed_from_u64(seed);
        let opts = GenerateOptions {
            order: 2,
            run: RunOptions { count: 1, seed, ..RunOptions::default() },
            ..GenerateOptions::default()
        };
        let p = parse_puzzle(&generate(&opts).unwrap()[0].puzzle).unwrap();
        let q = Transform::random(2, &mut rng).apply(&p);
        prop_assert_eq!(canonical(&q).unwrap(), canonical(&p).unwrap());
    }
}

fn sudolab(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
        assert_eq!(canonical(&p).unwrap().to_line(), form);
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
fn pseudo_mutants_keep_the_difficulty_and_are_inequivalent() {
    let source = examples::by_name("Fletcher Fig. 3 Crazy").unwrap();
    let opts = GenerateOptions {
        method: Method::Pseudo,
        run: RunOptions {
            count: 6,
            seed: 2,
            ..RunOptions::default()
        },
        pseudo: PseudoOptions {
            source: Some(source.clone()),
            tolerance: 0.15,
            ..PseudoOptions::default()
        },
        ..GenerateOptions::default()
    };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| generate(&opts).unwrap())
    };
    let rows = run(2);
    assert_eq!(rows.len(), 6);
    let hsolve = RateOptions::for_models("hsolve").unwrap();
    let h0 = rate(&source, &hsolve).ratings.hsolve.unwrap();
    let ps = puzzles(&rows, 3);
    for (r, p) in rows.iter().zip(&ps) {
        assert_eq!(sat().status(p).unwrap(), Status::Unique, "{p}");
        let h = rate(p, &hsolve).ratings.hsolve.unwrap();
        assert_eq!(r.method_score, Some(h));
        assert!((h - h0).abs() <= 0.15 * h0, "{h} vs {h0}");
        assert!(!equivalent(p, &source).unwrap());
    }
    for (i, a) in ps.iter().enumerate() {
        for b in &ps[i + 1..] {
            assert!(!equivalent(a, b).unwrap(), "{a} ~ {b}");
        }
    }
    let again: Vec<String> = run(1).into_iter().map(|r| r.puzzle).collect();
    assert_eq!(
        again,
        rows.iter().map(|r| r.puzzle.clone()).collect::<Vec<_>>()
    );
    // Bad sources.
    let no_source = GenerateOptions {
        pseudo: PseudoOptions {
            source: None,
            ..opts.pseudo.clone()
        },
        ..opts.clone()
    };
    assert_eq!(generate(&no_source), Err(GenerateError::NoSource));
    let empty = GenerateOptions {
        pseudo: PseudoOptions {
            source: Some(Puzzle::empty(3)),
            ..opts.pseudo.clone()
        },
        ..opts.clone()
    };
    assert!(matches!(generate(&empty), Err(GenerateError::Source(_))));
    let hard = GenerateOptions {
        pseudo: PseudoOptions {
            source: examples::by_name("Golden Nugget"),
            ..opts.pseudo.clone()
        },
        ..opts.clone()
    };
    assert!(matches!(generate(&hard), Err(GenerateError::Source(m)) if m.contains("hsolve")));
    let sym = GenerateOptions {
        symmetry: Symmetry::Rot180,
        ..opts
    };
    assert_eq!(
        generate(&sym),
        Err(GenerateError::PseudoSymmetry(Symmetry::Rot180))
    );
}

#[test]
fn time_limit_ends_an_endless_search() {
    let opts = GenerateOptions {
        run: RunOptions {
            count: 2,
            seed: 8,
            max_tries: usize::MAX,
            time_limit: Some(std::time::Duration::from_millis(50)),
            ..RunOptions::default()
        },
        aim: AimOptions {
            targets: parse_targets(&["givens<=5"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    for r in generate(&opts).unwrap() {
        assert!(!r.reached);
        assert!(r.attempts >= 1 && r.attempts < usize::MAX);
        let p = parse_puzzle(&r.puzzle).unwrap();
        assert_eq!(sat().status(&p).unwrap(), Status::Unique);
        assert!((r.distance - (p.givens() as f64 - 5.0) / 5.0).abs() < 1e-9);
    }
}

#[test]
fn dedup_keeps_pairwise_inequivalent_puzzles_whatever_the_threads() {
    // 4×4 minimal puzzles fall into few classes, so duplicates are common.
    let plain = GenerateOptions {
        order: 2,
        run: RunOptions {
            count: 40,
            seed: 1,
            ..RunOptions::default()
        },
        ..GenerateOptions::default()
    };
    let all = generate(&plain).unwrap();
    let dedup = GenerateOptions {
        run: RunOptions {
            dedup: true,
            count: 20,
            ..plain.run.clone()
        },
        ..plain.clone()
    };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| generate(&dedup).unwrap())
    };
    let rows = run(2);
    assert_eq!(rows.len(), 20);
    let ps = puzzles(&rows, 2);
    for (i, a) in ps.iter().enumerate() {
        assert_eq!(sat().status(a).unwrap(), Status::Unique, "{a}");
        for b in &ps[i + 1..] {
            assert!(!equivalent(a, b).unwrap(), "{a} ~ {b}");
        }
    }
    let lines = |rows: &[Generated]| rows.iter().map(|r| r.puzzle.clone()).collect::<Vec<_>>();
    assert_eq!(lines(&run(1)), lines(&rows));
    // Kept rows are the undeduplicated run's rows at their indices, and every
    // skipped index is equivalent to an earlier kept one.
    let mut kept = 0;
    for (i, r) in all.iter().enumerate() {
        let p = parse_puzzle(&r.puzzle).unwrap();
        if kept < rows.len() && rows[kept].index == i {
            assert_eq!(rows[kept].puzzle, r.puzzle);
            kept += 1;
        } else if kept < rows.len() {
            assert!(ps[..kept].iter().any(|q| equivalent(q, &p).unwrap()), "{p}");
        }
    }
    assert_eq!(kept, 20, "the first 40 indices hold 20 classes");
    assert!(rows.last().unwrap().index > 19, "some index was dropped");
    // Bounded: few tries left for duplicates means fewer rows.
    let bounded = GenerateOptions {
        run: RunOptions {
            count: 100,
            max_tries: 10,
            ..dedup.run.clone()
        },
        ..dedup.clone()
    };
    let few = generate(&bounded).unwrap();
    assert!(few.len() < 100 && !few.is_empty());
    let big = GenerateOptions { order: 4, ..dedup };
    assert_eq!(generate(&big), Err(GenerateError::DedupOrder(4)));
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
    let a = examples::by_name("Golden Nugget").unwrap();
    let b = examples::by_name("Fletcher Fig. 3 Crazy").unwrap();
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
    let source = examples::by_name("Golden Nugget").unwrap();
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
    let s0 = rate(&source, &oracle).ratings.oracle_score.unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert_eq!(sat().status(&p).unwrap(), Status::Unique, "{p}");
        let s = rate(&p, &oracle).ratings.oracle_score.unwrap();
        assert_eq!(r.method_score, Some(s));
        assert_eq!(r.metrics.number(Metric::OracleScore), Some(s));
        assert_eq!(r.metrics.source, Some((Metric::OracleScore, s0)));
        assert!((s - s0).abs() <= 0.1 * s0, "{s} vs {s0}");
        assert!(!equivalent(&p, &source).unwrap());
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
    for bad in ["weights_level", "difficulty"] {
        assert!(
            matches!(sudolab::generate::target::numeric_field(bad), Err(TargetError::Metric { ref field, .. }) if field == bad)
        );
    }
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
    let source = examples::by_name("Fletcher Fig. 3 Crazy")
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
fn chang_puzzles_fall_in_their_hsolve_quartile_and_are_unique() {
    use sudolab::generate::chang::{QUARTILES, range};
    assert!(QUARTILES.windows(2).all(|w| w[0] < w[1]));
    let hsolve = RateOptions::for_models("hsolve").unwrap();
    for (level, name) in [
        (Level::Level1, "level1"),
        (Level::Level2, "level2"),
        (Level::Level3, "level3"),
        (Level::Level4, "level4"),
    ] {
        let opts = GenerateOptions {
            method: Method::Chang,
            run: RunOptions {
                count: 2,
                seed: 1,
                max_tries: 200,
                ..RunOptions::default()
            },
            aim: AimOptions {
                level: Some(level),
                ..AimOptions::default()
            },
            ..GenerateOptions::default()
        };
        let rows = generate(&opts).unwrap();
        let (lo, hi) = range(level).unwrap();
        for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
            assert!(r.reached, "{name}: {r:?}");
            assert_eq!(r.method_level.as_deref(), Some(name));
            // Re-rated independently of the generator's row.
            let h = rate(&p, &hsolve).ratings.hsolve.unwrap();
            assert_eq!(r.method_score, Some(h));
            assert!(lo <= h && h < hi, "{name}: hsolve {h} not in [{lo}, {hi})");
            assert_unique_and_minimality(&p, true);
        }
    }
    let wrong = GenerateOptions {
        method: Method::Chang,
        aim: AimOptions {
            level: Some(Level::Crazy),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    assert!(matches!(generate(&wrong), Err(GenerateError::Level { .. })));
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
