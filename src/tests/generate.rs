//! The generators, checked by engines they do not use: every puzzle is unique
//! by SAT, minimal puzzles lose uniqueness without any given, Xu puzzles fall
//! to the techniques, targets hold when re-rated, seeds reproduce whatever the
//! thread count, and the canonical form is invariant and separating.

use crate::Metric;
use crate::SeededRng;
use crate::Status;
use crate::Transform;
use crate::generate::minimal;
use crate::human::path::simplest_path;
use crate::{
    AimOptions, GenerateError, GenerateOptions, Generated, Level, Method, PseudoOptions,
    RunOptions, Symmetry, Target, TargetError, generate,
};
use crate::{Engine, Engines};
use crate::{Model, RateOptions, Technique, rate};
use crate::{Puzzle, parse_puzzle};
use proptest::prelude::*;
use rand::SeedableRng;

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
    let oracle = RateOptions::for_model(Model::Oracle);
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert_unique_and_minimality(&p, true);
        assert!(r.minimal);
        let rated = rate(&p, &oracle);
        assert_eq!(
            r.method_level.as_deref(),
            rated.ratings.oracle.level.map(|l| l.name()),
            "{p}"
        );
        assert_eq!(r.method_score, rated.ratings.oracle.score);
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
    let weights = RateOptions::for_model(Model::Weights);
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached, "{r:?}");
        assert_eq!(sat().status(&p).unwrap(), Status::Unique);
        let path = simplest_path(&p, &Technique::ALL);
        assert!(path.solved, "{p} needs guessing");
        let rated = rate(&p, &weights);
        assert_eq!(
            rated.ratings.weights.level.map(|l| l.name()),
            Some("Intermediate")
        );
        assert_eq!(
            r.method_level.as_deref(),
            rated.ratings.weights.level.map(|l| l.name())
        );
        assert!((73..=86).contains(&rated.ratings.weights.score.unwrap()));
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
            targets: Target::parse_all(&["givens>=24", "weights_score<=80", "oracle_level=Cinch"])
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
        assert!(rated.ratings.weights.score.unwrap() <= 80, "{rated:?}");
        assert_eq!(rated.ratings.oracle.level.map(|l| l.name()), Some("Cinch"));
        assert_eq!(r.metrics.number(Metric::Givens), Some(p.givens() as f64));
        assert_eq!(
            r.metrics.number(Metric::WeightsScore),
            rated.ratings.weights.score.map(f64::from)
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
            targets: Target::parse_all(&["weights_level=Hard"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let rows = generate(&opts).unwrap();
    let weights = RateOptions::for_model(Model::Weights);
    let mut not_minimal = 0;
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached && r.distance == 0.0, "{r:?}");
        assert_eq!(sat().status(&p).unwrap(), Status::Unique);
        let rated = rate(&p, &weights);
        assert_eq!(
            rated.ratings.weights.level.map(|l| l.name()),
            Some("Hard"),
            "{p}"
        );
        assert_eq!(r.metrics.text(Metric::WeightsLevel), Some("Hard"));
        let solution = crate::bitset::sudoku::solve(&p).unwrap();
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
            targets: Target::parse_all(&["oracle_level=Challenging"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let oracle = RateOptions::for_model(Model::Oracle);
    let rows = generate(&opts).unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(r.reached, "{r:?}");
        let rated = rate(&p, &oracle);
        assert_eq!(
            rated.ratings.oracle.level.map(|l| l.name()),
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
            targets: Target::parse_all(&["weights_score<=20", "givens<=40"]).unwrap(),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let weights = RateOptions::for_model(Model::Weights);
    let rows = generate(&opts).unwrap();
    for (r, p) in rows.iter().zip(puzzles(&rows, 3)) {
        assert!(!r.reached, "{r:?}");
        let score = rate(&p, &weights).ratings.weights.score.unwrap();
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
                targets: Target::parse_all(&["weights_level=Hard"]).unwrap(),
                ..base.aim.clone()
            },
            ..base.clone()
        },
        GenerateOptions {
            method: Method::Pseudo,
            pseudo: PseudoOptions {
                source: Puzzle::example("Fletcher Fig. 3 Crazy"),
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
            targets: Target::parse_all(&["givens<=10"]).unwrap(),
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
                targets: Target::parse_all(&["givens<=22"]).unwrap(),
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
                targets: Target::parse_all(&["weights_level=Hard"]).unwrap(),
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
        Err(GenerateError::Option(crate::OptionError::BelowMinimum {
            name: "count".into(),
            value: 0,
            min: 1
        }))
    );
    let err = Target::parse_all(&["nonsense>=3"]).unwrap_err();
    assert!(matches!(err, TargetError::UnknownField { .. }));
    let relax_bad = GenerateOptions {
        aim: AimOptions {
            targets: Target::parse_all(&["mean_fixed<=12"]).unwrap(),
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
    let grids = crate::bitset::sudoku::solutions(&Puzzle::empty(2), 0);
    assert_eq!(grids.len(), 288);
    let mut forms: Vec<String> = grids
        .iter()
        .map(|g| g.to_puzzle().canonical().unwrap().to_line())
        .collect();
    forms.sort();
    forms.dedup();
    assert_eq!(forms.len(), 2, "{forms:?}");
}

#[test]
fn canonical_forms_separate_the_example_puzzles() {
    let all = Puzzle::examples();
    let mut forms: Vec<String> = all
        .iter()
        .map(|p| p.canonical().unwrap().to_line())
        .collect();
    forms.sort();
    forms.dedup();
    assert_eq!(forms.len(), all.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn canonical_form_is_invariant_under_symmetries(seed in any::<u64>(), which in 0usize..11) {
        let p = Puzzle::examples().swap_remove(which);
        let mut rng = SeededRng::seed_from_u64(seed);
        let t = Transform::random(3, &mut rng);
        let q = t.apply(&p);
        prop_assert_eq!(q.givens(), p.givens());
        prop_assert_eq!(q.canonical().unwrap(), p.canonical().unwrap());
        prop_assert!(p.equivalent(&q).unwrap());
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
        prop_assert_eq!(q.canonical().unwrap(), p.canonical().unwrap());
    }
}

#[test]
fn pseudo_mutants_keep_the_difficulty_and_are_inequivalent() {
    let source = Puzzle::example("Fletcher Fig. 3 Crazy").unwrap();
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
    let hsolve = RateOptions::for_model(Model::Hsolve);
    let h0 = rate(&source, &hsolve)
        .ratings
        .hsolve
        .difficulty
        .unwrap()
        .mean;
    let ps = puzzles(&rows, 3);
    for (r, p) in rows.iter().zip(&ps) {
        assert_eq!(sat().status(p).unwrap(), Status::Unique, "{p}");
        let h = rate(p, &hsolve).ratings.hsolve.difficulty.unwrap().mean;
        assert_eq!(r.method_score, Some(h));
        assert!((h - h0).abs() <= 0.15 * h0, "{h} vs {h0}");
        assert!(!p.equivalent(&source).unwrap());
    }
    for (i, a) in ps.iter().enumerate() {
        for b in &ps[i + 1..] {
            assert!(!a.equivalent(b).unwrap(), "{a} ~ {b}");
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
            source: Puzzle::example("Golden Nugget"),
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
            targets: Target::parse_all(&["givens<=5"]).unwrap(),
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
            assert!(!a.equivalent(b).unwrap(), "{a} ~ {b}");
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
            assert!(ps[..kept].iter().any(|q| q.equivalent(&p).unwrap()), "{p}");
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
fn chang_puzzles_fall_in_their_hsolve_quartile_and_are_unique() {
    use crate::generate::chang::{QUARTILES, range};
    assert!(QUARTILES.windows(2).all(|w| w[0] < w[1]));
    let hsolve = RateOptions::for_model(Model::Hsolve);
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
            let h = rate(&p, &hsolve).ratings.hsolve.difficulty.unwrap().mean;
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
    // The message names the calls that give the level: Fletcher's method
    // for crazy; Xu's method and the score's level for hard.
    let crazy = generate(&wrong).unwrap_err().to_string();
    assert!(
        crazy.starts_with(
            "level crazy does not apply to method chang; use --method fletcher --level crazy ("
        ),
        "{crazy}"
    );
    let hard = GenerateOptions {
        method: Method::Minimal,
        aim: AimOptions {
            level: Some(Level::Hard),
            ..AimOptions::default()
        },
        ..GenerateOptions::default()
    };
    let hard = generate(&hard).unwrap_err().to_string();
    assert!(
        hard.contains("use --method xu --level hard, or --target 'score_level=Hard' for the difficulty score's level"),
        "{hard}"
    );
}

#[test]
fn score_level_targets_name_the_four_level_scale() {
    assert_eq!(
        crate::score::scale_names(4),
        ["Easy", "Medium", "Hard", "Expert"],
        "score_level targets name the four-level scale"
    );
}

#[test]
fn a_level_is_no_numeric_target_field() {
    for bad in ["weights_level", "difficulty"] {
        assert!(
            matches!(crate::generate::aim::numeric_field(bad), Err(TargetError::Metric { ref field, .. }) if field == bad)
        );
    }
}
