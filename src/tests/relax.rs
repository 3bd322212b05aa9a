//! Constraint relaxation: hand-computed small cases, SAT vs Dancing Links on
//! 10,000 random relaxations of real puzzles across k = 0..=120, k = 0, nested
//! samples and seed reproducibility across thread counts; intervals, relaxation
//! to a precision (the same rows at one and two threads), the onset and k = auto.

use super::common;

use crate::engine::{Count, Engine, Engines, InstanceAnalysis};
use crate::graph::{RelaxedInstance, derive_seed};
use crate::grid::parse_puzzle;
use crate::relax::{self, RelaxOptions};
use rayon::prelude::*;

fn analyze(r: &RelaxedInstance, engine: Engine, cap: u64) -> InstanceAnalysis {
    engine.implementation().analyze_relaxed(r, cap)
}

const SOLVED4: &str = "1234341221434321";

#[test]
fn hand_computed_4x4_cases() {
    // r1c1 (solution 1) empty; its neighbours hold 2,3,4 (row), 3,2,4 (column), 4 (box).
    let mut line = String::from(".");
    line.push_str(&SOLVED4[1..]);
    let p = parse_puzzle(&line).unwrap();
    for engine in Engine::ALL {
        let k0 = analyze(&RelaxedInstance::unrelaxed(&p), engine, 0);
        assert_eq!(
            k0.count,
            Count {
                solutions: 1,
                capped: false
            }
        );
        assert_eq!(k0.fixed, vec![0]);
        // Removing r1c1–r1c2 still leaves 2 adjacent via r3c1: one solution.
        let one = RelaxedInstance::new(&p, &[(0, 1)]).unwrap();
        let a = analyze(&one, engine, 0);
        assert_eq!((a.count.solutions, a.fixed.clone()), (1, vec![0]));
        // Removing r1c1–r1c2 and r1c1–r3c1 frees colour 2: two solutions, nothing fixed.
        let two = RelaxedInstance::new(&p, &[(0, 1), (0, 8)]).unwrap();
        let a = analyze(&two, engine, 0);
        assert_eq!((a.count.solutions, a.fixed.clone()), (2, vec![]));
        // An edge between two givens changes nothing.
        let givens = RelaxedInstance::new(&p, &[(14, 15)]).unwrap();
        assert_eq!(analyze(&givens, engine, 0).count.solutions, 1);
        // The empty 4x4 grid: 288 colourings; removing every edge: 4^16.
        let empty = crate::Puzzle::empty(2);
        assert_eq!(
            analyze(&RelaxedInstance::unrelaxed(&empty), engine, 0)
                .count
                .solutions,
            288
        );
    }
    let empty = crate::Puzzle::empty(2);
    let all: Vec<_> = crate::Geometry::of(2).edges();
    let free = RelaxedInstance::new(&empty, &all).unwrap();
    // Only the bitset search can count 4^16 colourings: it multiplies the
    // counts of independent components instead of enumerating them.
    let c = analyze(&free, Engine::Bitset, 0).count;
    assert_eq!(c.solutions, 4u64.pow(16));
}

/// Compares the engines on `total` relaxations of `puzzles`, k cycling over
/// `0..=max_k`, with the caps given (Dancing Links on every `dlx_every`-th
/// instance with k at most `dlx_max_k`; with `certify`, the bitset search's
/// certificate checked by SAT on every instance).
pub(super) fn compare_engines(
    puzzles: &[crate::Puzzle],
    total: usize,
    max_k: usize,
    caps: [u64; 2],
    seed: u64,
    (dlx_every, dlx_max_k): (usize, usize),
    certify: bool,
) {
    let disagreements: Vec<String> = (0..total)
        .into_par_iter()
        .filter_map(|i| {
            let p = &puzzles[i % puzzles.len()];
            let k = i % (max_k + 1);
            let removed = RelaxedInstance::sample_edges(3, k, derive_seed(seed, i as u64)).unwrap();
            let r = RelaxedInstance::new(p, &removed).unwrap();
            let cap = if i % 5 == 0 { caps[1] } else { caps[0] };
            let sat = analyze(&r, Engine::Sat, cap);
            let bitset = analyze(&r, Engine::Bitset, cap);
            // Dancing Links proper is the slowest (its filtering search has no
            // restarts): it checks every `dlx_every`-th instance up to `dlx_max_k`.
            let dlx = (i % dlx_every == 0 && k <= dlx_max_k).then(|| analyze(&r, Engine::Dlx, cap));
            // (A pencilmark grid may have lost its solution's digit.)
            assert!(
                sat.count.solutions >= 1 || p.has_pencilmarks(),
                "the original solution survives"
            );
            let certified = certify.then(|| {
                crate::engine::analyze_relaxed_certified(&r, cap).map_err(|d| d.to_string())
            });
            let agree = sat == bitset
                && dlx.as_ref().is_none_or(|d| *d == sat)
                && certified.as_ref().is_none_or(|c| c.as_ref() == Ok(&sat));
            (!agree).then(|| {
                format!("{p} k={k} removed={removed:?}: sat {sat:?} bitset {bitset:?} dlx {dlx:?} certificate {certified:?}")
            })
        })
        .collect();
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first: {}",
        disagreements.len(),
        disagreements[0]
    );
}

/// 2,500 seeded instances (10,000 under `SUDOLAB_FULL_TESTS=1`): every k
/// from 0 to 120 and each of the 200 puzzles a dozen times or more.
#[test]
fn engines_agree_on_thousands_of_random_relaxations() {
    // QQWing-generated and Sudoku Exchange (SE 5.0-9.3) puzzles of the fixture.
    let puzzles: Vec<_> = common::fixture("unique.txt")
        .into_iter()
        .take(200)
        .collect();
    let total = common::full_or(10_000, 2_500);
    compare_engines(&puzzles, total, 120, [100, 300], 99, (3, 45), false);
}

#[test]
fn engines_agree_on_relaxations_of_the_hardest_puzzles() {
    // top1465, 17-clue and forum-hardest puzzles: slower for both engines.
    let puzzles: Vec<_> = common::fixture("unique.txt")
        .into_iter()
        .skip(200)
        .collect();
    // 200 seeded instances (600 under `SUDOLAB_FULL_TESTS=1`), every k
    // from 0 to 120 at least once.
    let total = common::full_or(600, 200);
    compare_engines(&puzzles, total, 120, [50, 100], 7, (5, 30), false);
}

#[test]
fn k0_gives_one_solution_all_fixed() {
    for p in crate::grid::Puzzle::examples() {
        let opts = RelaxOptions {
            k: 0,
            samples: 5,
            verify: 5,
            ..Default::default()
        };
        let (report, samples) = relax::relax(&p, &opts).unwrap();
        assert_eq!(report.summary.mean_solutions, 1.0);
        assert_eq!(report.summary.p_unique, 1.0);
        assert_eq!(report.summary.mean_fixed, (81 - p.givens()) as f64);
        assert!(report.summary.fixedness.iter().all(|&f| f == 1.0));
        assert_eq!(report.verified, 5);
        assert!(samples.iter().all(|s| s.removed.is_empty()));
    }
}

#[test]
fn nested_samples_never_lose_solutions() {
    let puzzles = common::fixture("unique.txt");
    // The first 8 puzzles of the fixture (20 under `SUDOLAB_FULL_TESTS=1`).
    for (i, p) in puzzles.iter().take(common::full_or(20, 8)).enumerate() {
        let order = RelaxedInstance::shuffled_edges(3, derive_seed(7, i as u64));
        let mut last = 0;
        let mut last_fixed = usize::MAX;
        for k in (0..=80).step_by(8) {
            let r = RelaxedInstance::new(p, &order[..k]).unwrap();
            let a = analyze(&r, Engine::Dlx, 100_000);
            assert!(a.count.solutions >= last, "{p}: k={k}");
            assert!(a.fixed.len() <= last_fixed, "{p}: k={k} fixed grew");
            last = a.count.solutions;
            last_fixed = a.fixed.len();
        }
    }
    // The relax module's samples are nested the same way across k.
    let p = &puzzles[0];
    let (small, s1) = relax::relax(
        p,
        &RelaxOptions {
            k: 10,
            samples: 50,
            ..Default::default()
        },
    )
    .unwrap();
    let (large, s2) = relax::relax(
        p,
        &RelaxOptions {
            k: 40,
            samples: 50,
            ..Default::default()
        },
    )
    .unwrap();
    for (a, b) in s1.iter().zip(&s2) {
        assert!(a.removed.iter().all(|e| b.removed.contains(e)));
        assert!(b.solutions >= a.solutions);
    }
    assert!(large.summary.mean_solutions >= small.summary.mean_solutions);
}

#[test]
fn same_seed_same_report_whatever_the_threads_and_engine() {
    let p = crate::grid::Puzzle::example("Confusing").unwrap();
    let opts = RelaxOptions {
        k: 45,
        samples: 200,
        seed: 42,
        cap: 500,
        verify: 10,
        ..Default::default()
    };
    let run = |threads: usize, engine: Engine| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            relax::relax(
                &p,
                &RelaxOptions {
                    engines: Engines::one(engine),
                    ..opts.clone()
                },
            )
            .unwrap()
        })
    };
    let (a, sa) = run(1, Engine::Bitset);
    let (b, sb) = run(2, Engine::Bitset);
    assert_eq!(a, b);
    assert_eq!(sa, sb);
    let (c, sc) = run(2, Engine::Sat);
    assert_eq!(sa, sc);
    assert_eq!(a.summary.fixedness, c.summary.fixedness);
    assert_eq!(a.summary.mean_solutions, c.summary.mean_solutions);
    let (e, se) = run(2, Engine::Dlx);
    assert_eq!(sa, se);
    assert_eq!(a.summary.fixedness, e.summary.fixedness);
    let (d, _) = pool_free(
        &p,
        RelaxOptions {
            seed: 43,
            ..opts.clone()
        },
    );
    assert_ne!(a.summary.fixedness, d.summary.fixedness);
}

fn pool_free(p: &crate::Puzzle, o: RelaxOptions) -> (relax::RelaxReport, Vec<relax::SampleResult>) {
    relax::relax(p, &o).unwrap()
}

#[test]
fn refuses_contradictory_and_too_large_k() {
    let mut line = String::from("11");
    line.push_str(&".".repeat(79));
    let bad = parse_puzzle(&line).unwrap();
    assert!(relax::relax(&bad, &RelaxOptions::default()).is_err());
    let p = crate::grid::Puzzle::example("Cinch").unwrap();
    let e = relax::relax(
        &p,
        &RelaxOptions {
            k: 811,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "k = 811 exceeds the 810 edges of the Sudoku graph"
    );
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// `--precision`: the samples and the row are the same on one and two
/// threads, the run stops at a block end once the interval is narrow enough
/// (and not at the one before), and its samples are the first samples of a
/// fixed run with the same seed.
#[test]
fn precision_rows_are_the_same_at_one_and_two_threads() {
    let p = crate::grid::Puzzle::example("Confusing").unwrap();
    let e = 2.0;
    let opts = RelaxOptions {
        k: 30,
        samples: 1000,
        precision: Some(e),
        seed: 7,
        ..Default::default()
    };
    let (a, sa) = in_pool(1, || relax::relax(&p, &opts).unwrap());
    let (b, sb) = in_pool(2, || relax::relax(&p, &opts).unwrap());
    assert_eq!(a, b);
    assert_eq!(sa, sb);
    let n = a.summary.samples;
    assert_eq!(a.precision, Some(e));
    assert!(n > relax::PRECISION_MIN_SAMPLES && n < 1000, "{n}");
    assert_eq!(
        (n - relax::PRECISION_MIN_SAMPLES) % relax::PRECISION_BLOCK,
        0
    );
    let half =
        |s: &relax::RelaxSummary| (s.mean_fixed_high.unwrap() - s.mean_fixed_low.unwrap()) / 2.0;
    assert!(half(&a.summary) <= e, "{:?}", a.summary);
    // One block fewer is not precise enough.
    let fixed = RelaxOptions {
        samples: n - relax::PRECISION_BLOCK,
        precision: None,
        ..opts.clone()
    };
    let (shorter, s_shorter) = relax::relax(&p, &fixed).unwrap();
    assert!(half(&shorter.summary) > e, "{:?}", shorter.summary);
    assert_eq!(s_shorter[..], sa[..n - relax::PRECISION_BLOCK]);
    // The same samples as a fixed run of n: the same summary.
    let (same, _) = relax::relax(
        &p,
        &RelaxOptions {
            samples: n,
            precision: None,
            ..opts.clone()
        },
    )
    .unwrap();
    assert_eq!(same.summary, a.summary);
    let bad = RelaxOptions {
        precision: Some(0.0),
        ..opts
    };
    assert_eq!(
        relax::relax(&p, &bad).unwrap_err().to_string(),
        "precision 0: expected a positive number of cells, e.g. 1"
    );
}

/// `relax --precision 1` stops within 100 samples on a
/// forum-hardest puzzle (nearly every sample fixes nothing, so the
/// interval is narrow from the first block).
#[test]
fn precision_one_stops_within_100_samples_on_forum_hardest() {
    let Some(text) = common::shared_data("tdoku-benchmarks/tdoku-forum-hardest-1106.txt") else {
        return;
    };
    let p = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_puzzle(l.trim()).unwrap())
        .unwrap();
    let opts = RelaxOptions {
        precision: Some(1.0),
        ..Default::default()
    };
    let (r, _) = relax::relax(&p, &opts).unwrap();
    assert!(r.summary.samples <= 100, "{:?}", r.summary);
    assert!(r.summary.mean_fixed < 1.0);
    assert!(r.summary.saw_nothing, "{:?}", r.summary);
}

/// The intervals of a fixed run: they hold their estimate, Wilson's stays
/// inside [0, 1], the t interval is the mean ± t·se clipped to the possible
/// range, and one sample has no spread.
#[test]
fn every_row_carries_the_intervals_of_mean_fixed_and_p_unique() {
    let p = crate::grid::Puzzle::example("Cinch").unwrap();
    for k in [0, 20, 45] {
        let (r, samples) = relax::relax(
            &p,
            &RelaxOptions {
                k,
                samples: 200,
                ..Default::default()
            },
        )
        .unwrap();
        let s = &r.summary;
        assert!(
            s.p_unique_low <= s.p_unique && s.p_unique <= s.p_unique_high,
            "{s:?}"
        );
        assert!(0.0 <= s.p_unique_low && s.p_unique_high <= 1.0);
        let (lo, hi, se) = (
            s.mean_fixed_low.unwrap(),
            s.mean_fixed_high.unwrap(),
            s.mean_fixed_se.unwrap(),
        );
        assert!(lo <= s.mean_fixed && s.mean_fixed <= hi, "{s:?}");
        let fixed: Vec<f64> = samples.iter().map(|x| x.fixed.len() as f64).collect();
        let sd = crate::stats::Summary::of(&fixed).unwrap().sd;
        assert!((se - sd / 200f64.sqrt()).abs() < 1e-12);
        let t = crate::stats::t95(199.0);
        let empty = (81 - p.givens()) as f64;
        assert!((hi - (s.mean_fixed + t * se).min(empty)).abs() < 1e-12);
        assert!((lo - (s.mean_fixed - t * se).max(0.0)).abs() < 1e-12);
        if k == 0 {
            // Every sample unique and fully fixed: zero width, Wilson's
            // upper end at 1 and lower end below it.
            assert_eq!((lo, hi, se), (empty, empty, 0.0));
            assert_eq!(s.p_unique_high, 1.0);
            assert!(s.p_unique_low < 1.0 && s.p_unique_low > 0.98);
        }
    }
    let (one, _) = relax::relax(
        &p,
        &RelaxOptions {
            samples: 1,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(one.summary.mean_fixed_se, None);
    assert_eq!(one.summary.mean_fixed_low, None);
}

/// The onset is where P(unique) of the first 100 nested samples falls to
/// one half: at the onset it is at most 1/2, one edge before it is above.
#[test]
fn onset_is_where_p_unique_falls_through_one_half() {
    let p = crate::grid::Puzzle::example("AI Escargot").unwrap();
    let opts = RelaxOptions {
        samples: relax::ONSET_SAMPLES,
        seed: 3,
        ..Default::default()
    };
    let k0 = relax::onset(&p, &opts).unwrap().unwrap();
    let at = |k: usize| {
        relax::relax(&p, &RelaxOptions { k, ..opts.clone() })
            .unwrap()
            .0
            .summary
            .p_unique
    };
    assert!(at(k0) <= 0.5, "k0 = {k0}: {}", at(k0));
    assert!(at(k0 - 1) > 0.5, "k0 = {k0}: {}", at(k0 - 1));
    // The same at any thread count.
    assert_eq!(in_pool(1, || relax::onset(&p, &opts).unwrap()), Some(k0));
    // A full grid never relaxes.
    let full = parse_puzzle(
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    )
    .unwrap();
    assert_eq!(relax::onset(&full, &opts).unwrap(), None);
    assert_eq!(
        relax::KChoice::Auto.resolve(&full, &opts).unwrap_err(),
        relax::RelaxError::NoOnset
    );
}

/// At k = 45 AI Escargot's map is saturation (most samples
/// capped or fixing nothing) and the row says so and names the onset;
/// `--k auto` relaxes there and gives a map that is neither all 0 % nor
/// all capped.
#[test]
fn k_auto_on_ai_escargot_gives_a_map_that_sees_something() {
    let p = crate::grid::Puzzle::example("AI Escargot").unwrap();
    let opts = RelaxOptions {
        samples: 200,
        ..Default::default()
    };
    let (mut at45, _) = relax::relax(&p, &opts).unwrap();
    assert_eq!(
        at45.summary.relaxation_onset_k, None,
        "relax alone does not look"
    );
    at45.name_onset(&p, &opts).unwrap();
    let s = &at45.summary;
    assert!(s.saw_nothing && s.p_nothing > 0.5, "{s:?}");
    let k0 = s.relaxation_onset_k.unwrap();
    assert!((5..45).contains(&k0), "{k0}");
    assert_eq!(relax::KChoice::Auto.resolve(&p, &opts).unwrap(), k0);
    let (auto, _) = relax::relax(&p, &RelaxOptions { k: k0, ..opts }).unwrap();
    let a = &auto.summary;
    assert!(!a.saw_nothing, "{a:?}");
    assert!(a.capped < a.samples / 2, "{a:?}");
    let open: Vec<f64> = (0..81)
        .filter(|&c| !p.is_given(c))
        .map(|c| a.fixedness[c])
        .collect();
    assert!(open.iter().any(|&f| f > 0.0) && open.iter().any(|&f| f < 1.0));
    assert!(a.mean_fixed > 1.0, "{a:?}");
}

/// `auto` is resolved by the library, per puzzle, for every
/// caller of [`relax::relax`] (`analyze`, `report`, Python): the row's `k`
/// is the puzzle's onset and `relaxation_onset_k` says so; a fixed `k`
/// leaves the onset unlooked-for.
#[test]
fn relax_with_auto_k_relaxes_each_puzzle_at_its_own_onset() {
    let p = crate::grid::Puzzle::example("AI Escargot").unwrap();
    let opts = RelaxOptions {
        samples: 20,
        ..Default::default()
    }
    .with_k(relax::KChoice::Auto);
    assert_eq!(opts.k_choice(), relax::KChoice::Auto);
    let k0 = relax::onset(&p, &opts).unwrap().unwrap();
    let (row, samples) = relax::relax(&p, &opts).unwrap();
    assert_eq!(row.summary.k, k0);
    assert_eq!(row.summary.relaxation_onset_k, Some(k0));
    assert!(samples.iter().all(|s| s.removed.len() == k0));
    // The same samples as a fixed k at the onset.
    let fixed = opts.clone().with_k(relax::KChoice::At(k0));
    let (at_k0, _) = relax::relax(&p, &fixed).unwrap();
    assert_eq!(at_k0.summary.relaxation_onset_k, None);
    assert_eq!(at_k0.summary.mean_fixed, row.summary.mean_fixed);
    assert_eq!(at_k0.summary.p_unique, row.summary.p_unique);
    // A full grid has no onset: auto is refused with the reason.
    let full = parse_puzzle(
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    )
    .unwrap();
    assert_eq!(
        relax::relax(&full, &opts).unwrap_err(),
        relax::RelaxError::NoOnset
    );
}

/// Stopping at saturation: on Easter Monster at k = 45 every one of the
/// first 30 samples is capped or fixes no cell (Wilson's interval [0.886, 1]
/// lies above one half), so the run stops there with the summary of a fixed
/// run of 30 samples and says so; Fletcher's Cinch, whose samples show
/// findings, draws all it is given.
#[test]
fn a_run_stops_once_its_samples_establish_saturation() {
    let monster = crate::grid::Puzzle::example("Easter Monster").unwrap();
    let opts = RelaxOptions {
        samples: 200,
        verify: 1,
        stop_at_saturation: true,
        ..Default::default()
    };
    let (stopped, samples) = relax::relax(&monster, &opts).unwrap();
    assert_eq!(stopped.summary.samples, relax::PRECISION_MIN_SAMPLES);
    assert!(stopped.stopped_saturated && stopped.summary.saw_nothing);
    let fixed = RelaxOptions {
        samples: relax::PRECISION_MIN_SAMPLES,
        stop_at_saturation: false,
        ..opts.clone()
    };
    let (same, same_samples) = relax::relax(&monster, &fixed).unwrap();
    assert_eq!(same.summary, stopped.summary);
    assert_eq!(same_samples, samples);
    assert!(!same.stopped_saturated);
    let cinch = crate::grid::Puzzle::example("Cinch").unwrap();
    let (all, _) = relax::relax(&cinch, &opts).unwrap();
    assert_eq!(all.summary.samples, 200);
    assert!(!all.stopped_saturated && !all.summary.saw_nothing);
}
