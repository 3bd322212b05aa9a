//! Statistics against values computed by hand or by an independent O(n²)
//! reference (brute-force pair counting, exact arithmetic in Python).

use crate::stats::{
    BootstrapOptions, PairedSample, StatError, average_ranks, bin_of, bootstrap_correlations,
    bootstrap_intervals, chi_square, chi2_sf, correlations, equal_count_edges, gamma_from_table,
    gamma_q, gk_gamma, kendall_tau_b, ln_gamma, pair_counts, pearson, quantile_sorted, spearman,
};
use proptest::prelude::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

macro_rules! assert_close {
    ($a:expr, $b:expr, $tol:expr) => {{
        let (a, b) = ($a, $b);
        assert!(close(a, b, $tol), "{} = {a}, expected {b}", stringify!($a));
    }};
}

// Ties on both sides; reference values by brute force (C = 36, D = 3,
// 4 pairs tied in x, 3 in y, n = 10).
const X: [f64; 10] = [1.0, 2.0, 2.0, 3.0, 4.0, 4.0, 4.0, 5.0, 7.0, 6.0];
const Y: [f64; 10] = [2.0, 1.0, 3.0, 3.0, 5.0, 4.0, 4.0, 6.0, 5.0, 9.0];

#[test]
fn average_ranks_share_ties() {
    assert_eq!(
        average_ranks(&[10.0, 20.0, 20.0, 5.0, 20.0]),
        vec![2.0, 4.0, 4.0, 1.0, 4.0]
    );
    assert_eq!(average_ranks(&[3.0, 3.0]), vec![1.5, 1.5]);
}

#[test]
fn spearman_with_tied_ranks_by_hand() {
    // x ranks 1, 2.5, 2.5, 4; y ranks 1, 3, 2, 4:
    // Σdxdy = 4.5, Σdx² = 4.5, Σdy² = 5, ρ = 4.5/√22.5.
    let x = [1.0, 2.0, 2.0, 3.0];
    let y = [1.0, 3.0, 2.0, 4.0];
    assert_close!(spearman(&x, &y).unwrap(), 4.5 / 22.5f64.sqrt(), 1e-12);
    // C = 5, D = 0, n0 = 6, one pair tied in x: τ-b = 5/√(5·6).
    assert_close!(kendall_tau_b(&x, &y).unwrap(), 5.0 / 30f64.sqrt(), 1e-12);
    assert_close!(gk_gamma(&x, &y).unwrap(), 1.0, 1e-12);
}

#[test]
fn coefficients_match_brute_force_reference() {
    assert_close!(pearson(&X, &Y).unwrap(), 0.800_843_437_240_053_9, 1e-12);
    assert_close!(spearman(&X, &Y).unwrap(), 0.903_744_140_906_165, 1e-12);
    assert_close!(
        kendall_tau_b(&X, &Y).unwrap(),
        0.795_238_442_974_601_8,
        1e-12
    );
    assert_close!(gk_gamma(&X, &Y).unwrap(), 33.0 / 39.0, 1e-12);
    let c = pair_counts(&X, &Y).unwrap();
    assert_eq!((c.concordant, c.discordant), (36, 3));
    assert_eq!((c.tied_x, c.tied_y, c.pairs), (4, 3, 45));
    let all = correlations(&X, &Y);
    assert_close!(*all[2].as_ref().unwrap(), 0.795_238_442_974_601_8, 1e-12);
}

#[test]
fn perfect_and_reversed_orders() {
    let x: Vec<f64> = (0..50).map(f64::from).collect();
    let y: Vec<f64> = x.iter().map(|v| v * v * v).collect();
    let rev: Vec<f64> = x.iter().map(|v| -v).collect();
    assert_close!(spearman(&x, &y).unwrap(), 1.0, 1e-12);
    assert_close!(kendall_tau_b(&x, &y).unwrap(), 1.0, 1e-12);
    assert_close!(kendall_tau_b(&x, &rev).unwrap(), -1.0, 1e-12);
    assert_close!(gk_gamma(&x, &rev).unwrap(), -1.0, 1e-12);
    assert_close!(pearson(&x, &rev).unwrap(), -1.0, 1e-12);
    assert!(pearson(&x, &y).unwrap() < 0.95);
}

#[test]
fn undefined_cases_are_errors_not_nan() {
    assert_eq!(
        pearson(&[1.0, 2.0], &[3.0, 4.0]),
        Err(StatError::TooFew { n: 2, min: 3 })
    );
    assert_eq!(pearson(&[], &[]), Err(StatError::TooFew { n: 0, min: 3 }));
    assert_eq!(
        spearman(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
        Err(StatError::Constant {
            which: "x",
            value: 1.0
        })
    );
    assert!(matches!(
        kendall_tau_b(&[1.0, 2.0, 3.0], &[5.0, 5.0, 5.0]),
        Err(StatError::Constant { which: "y", .. })
    ));
    assert!(matches!(
        gk_gamma(&[1.0, 2.0], &[1.0, 2.0, 3.0]),
        Err(StatError::LengthMismatch { .. })
    ));
    // A table whose pairs are all tied in the row or the column: γ undefined.
    assert_eq!(gamma_from_table(&[vec![3, 4]]), Err(StatError::AllTied));
    assert_eq!(
        gamma_from_table(&[vec![3], vec![4]]),
        Err(StatError::AllTied)
    );
}

#[test]
fn gamma_of_chang_hsolve_table() {
    // Chang, hsolve §3.3.1: website level (rows) × metric octile (columns),
    // 100 puzzles per level; the paper reports γ = 0.82.
    let t: Vec<Vec<u64>> = vec![
        vec![81, 19, 0, 0, 0, 0, 0, 0],
        vec![19, 68, 12, 1, 0, 0, 0, 0],
        vec![0, 8, 38, 33, 18, 2, 1, 0],
        vec![0, 2, 26, 29, 22, 17, 4, 0],
        vec![0, 2, 10, 19, 20, 30, 11, 8],
        vec![0, 0, 5, 7, 22, 26, 36, 4],
        vec![0, 1, 9, 7, 16, 13, 27, 27],
        vec![0, 0, 0, 4, 2, 12, 21, 61],
    ];
    // C = 231200, D = 22862 by brute force.
    let g = gamma_from_table(&t).unwrap();
    assert_close!(g, (231_200.0 - 22_862.0) / (231_200.0 + 22_862.0), 1e-12);
    assert_eq!((g * 100.0).round() / 100.0, 0.82);
    // χ² of that table is 1449.92 with df = 49. The paper prints χ² = 6350,
    // which no 8 × 8 table of 800 observations can reach (max 800·7 = 5600).
    let chi = chi_square(&t).unwrap();
    assert_close!(chi.chi2, 1449.92, 1e-9);
    assert_eq!(chi.df, 49);
    assert!(chi.p_value < 1e-100);
}

#[test]
fn gamma_from_table_agrees_with_raw_pairs() {
    let t: Vec<Vec<u64>> = vec![vec![3, 1, 0], vec![1, 2, 2], vec![0, 1, 4]];
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (i, row) in t.iter().enumerate() {
        for (j, &n) in row.iter().enumerate() {
            for _ in 0..n {
                x.push(i as f64);
                y.push(j as f64);
            }
        }
    }
    assert_close!(
        gamma_from_table(&t).unwrap(),
        gk_gamma(&x, &y).unwrap(),
        1e-12
    );
}

#[test]
fn chi_square_two_by_two_by_hand() {
    // Expected counts 6.5, 8.5 per row; χ² = 6.6516, df = 1,
    // p = erfc(√(χ²/2)) = 0.0099068.
    let chi = chi_square(&[vec![10, 5], vec![3, 12]]).unwrap();
    assert_close!(chi.chi2, 6.651_583_710_407_239, 1e-12);
    assert_eq!(chi.df, 1);
    assert_close!(chi.p_value, 0.009_906_773_011_363_754, 1e-10);
    assert_close!(
        gamma_from_table(&[vec![10, 5], vec![3, 12]]).unwrap(),
        105.0 / 135.0,
        1e-12
    );
    // Empty rows and columns do not count towards df.
    let padded = chi_square(&[vec![10, 5, 0], vec![0, 0, 0], vec![3, 12, 0]]).unwrap();
    assert_close!(padded.chi2, chi.chi2, 1e-12);
    assert_eq!(padded.df, 1);
    assert_eq!(
        chi_square(&[vec![4, 0], vec![5, 0]]),
        Err(StatError::DegenerateTable)
    );
}

#[test]
fn incomplete_gamma_and_chi2_quantiles() {
    // Critical values of the χ² distribution at 5 %.
    assert_close!(chi2_sf(3.841_458_820_694_124, 1.0), 0.05, 1e-12);
    assert_close!(chi2_sf(7.814_727_903_251_178, 3.0), 0.05, 1e-12);
    assert_close!(chi2_sf(18.307_038_053_275_146, 10.0), 0.05, 1e-12);
    // df = 2 is the exponential: P = e^{−x/2}.
    for x in [0.1, 1.0, 5.0, 40.0] {
        assert_close!(chi2_sf(x, 2.0), (-x / 2.0f64).exp(), 1e-14);
        assert_close!(gamma_q(1.0, x), (-x).exp(), 1e-14);
    }
    assert_eq!(chi2_sf(0.0, 4.0), 1.0);
    assert_close!(ln_gamma(0.5), 0.572_364_942_924_700_4, 1e-13);
    assert_close!(ln_gamma(10.0), 362_880f64.ln(), 1e-12);
    assert_close!(ln_gamma(100.5), 361.435_540_467_767_7, 1e-10);
    assert_close!(ln_gamma(0.1), 2.252_712_651_734_205_4, 1e-13);
}

#[test]
fn equal_count_edges_and_ties() {
    let v: Vec<f64> = (1..=9).map(f64::from).collect();
    let e = equal_count_edges(&v, 3).unwrap();
    assert_eq!(e, vec![3.0, 6.0]);
    let bins: Vec<usize> = v.iter().map(|&x| bin_of(x, &e)).collect();
    assert_eq!(bins, vec![0, 0, 0, 1, 1, 1, 2, 2, 2]);
    // 10 values: chunks of ⌈10/3⌉ = 4, then 3, then 3.
    let v10: Vec<f64> = (1..=10).map(f64::from).collect();
    assert_eq!(equal_count_edges(&v10, 3).unwrap(), vec![4.0, 7.0]);
    // Ties at an edge go to the lower bin; coinciding edges leave a bin empty.
    let tied = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0];
    let e = equal_count_edges(&tied, 3).unwrap();
    assert_eq!(e, vec![0.0, 0.0]);
    let bins: Vec<usize> = tied.iter().map(|&x| bin_of(x, &e)).collect();
    assert_eq!(bins, vec![0, 0, 0, 0, 0, 0, 2, 2, 2]);
    assert_eq!(
        equal_count_edges(&[1.0, 2.0], 3),
        Err(StatError::TooFewForBins { n: 2, bins: 3 })
    );
    assert_eq!(
        equal_count_edges(&[1.0, 2.0], 1),
        Err(StatError::BadBins { bins: 1 })
    );
}

#[test]
fn quantiles_interpolate() {
    let s = [1.0, 2.0, 3.0, 4.0, 5.0];
    assert_eq!(quantile_sorted(&s, 0.5), Some(3.0));
    assert_eq!(quantile_sorted(&s, 0.25), Some(2.0));
    assert_eq!(quantile_sorted(&s, 0.1), Some(1.4));
    assert_eq!(quantile_sorted(&[], 0.5), None);
}

/// Tied values give their value exactly at every `q`, so percentiles of
/// ascending `q` ascend (a fitted score model's reference percentiles are
/// checked for it); values near f64::MAX interpolate without overflow.
#[test]
fn quantiles_of_ties_are_the_tied_value() {
    let tied = 2.8291841466122913;
    let s = vec![tied; 136];
    let q: Vec<f64> = (0..=100)
        .map(|i| quantile_sorted(&s, f64::from(i) / 100.0).unwrap())
        .collect();
    assert!(q.iter().all(|&x| x == tied), "{q:?}");
    let huge = [-f64::MAX, f64::MAX];
    assert_eq!(quantile_sorted(&huge, 0.5), Some(0.0));
    assert_eq!(quantile_sorted(&huge, 1.0), Some(f64::MAX));
}

fn noisy_line(n: usize) -> (Vec<f64>, Vec<f64>) {
    // A deterministic, mildly noisy increasing relation.
    let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let y: Vec<f64> = (0..n)
        .map(|i| i as f64 + 15.0 * ((i * 7919 % 97) as f64 / 97.0 - 0.5))
        .collect();
    (x, y)
}

#[test]
fn bootstrap_is_seeded_and_brackets_the_estimate() {
    let (x, y) = noisy_line(200);
    let opts = BootstrapOptions {
        replicates: 400,
        seed: 42,
        confidence: 0.95,
    };
    let stat = |a: &[f64], b: &[f64]| vec![pearson(a, b).ok(), spearman(a, b).ok()];
    let first = bootstrap_intervals(&x, &y, &opts, 2, stat);
    let again = bootstrap_intervals(&x, &y, &opts, 2, stat);
    assert_eq!(first, again, "same seed, same intervals");
    let other = bootstrap_intervals(&x, &y, &BootstrapOptions { seed: 43, ..opts }, 2, stat);
    assert_ne!(first, other, "another seed, other resamples");
    let r = pearson(&x, &y).unwrap();
    let iv = first[0].unwrap();
    assert!(iv.lo < r && r < iv.hi, "{iv:?} around {r}");
    assert!(iv.hi - iv.lo < 0.1 && iv.hi <= 1.0);
    // Off when B = 0; undefined when every resample is constant.
    let off = BootstrapOptions {
        replicates: 0,
        ..opts
    };
    assert_eq!(bootstrap_intervals(&x, &y, &off, 2, stat), vec![None, None]);
    let flat = vec![1.0; 50];
    assert_eq!(
        bootstrap_intervals(&flat, &flat, &opts, 2, stat),
        vec![None, None]
    );
}

#[test]
fn bootstrap_does_not_depend_on_thread_count() {
    let (x, y) = noisy_line(100);
    let opts = BootstrapOptions {
        replicates: 100,
        seed: 7,
        confidence: 0.9,
    };
    let stat = |a: &[f64], b: &[f64]| vec![kendall_tau_b(a, b).ok()];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let single = pool.install(|| bootstrap_intervals(&x, &y, &opts, 1, stat));
    assert_eq!(single, bootstrap_intervals(&x, &y, &opts, 1, stat));
}

#[test]
fn fast_bootstrap_draws_the_same_resamples() {
    let (x, y) = noisy_line(120);
    let y: Vec<f64> = y.iter().map(|v| (v / 10.0).round()).collect();
    let opts = BootstrapOptions {
        replicates: 60,
        seed: 11,
        confidence: 0.9,
    };
    let slow = bootstrap_intervals(&x, &y, &opts, 4, |a, b| {
        correlations(a, b).into_iter().map(Result::ok).collect()
    });
    let fast = bootstrap_correlations(&x, &y, &opts);
    for (s, f) in slow.iter().zip(&fast) {
        let (s, f) = (s.unwrap(), f.unwrap());
        assert_close!(s.lo, f.lo, 1e-9);
        assert_close!(s.hi, f.hi, 1e-9);
    }
}

/// Values near 1e180: Pearson's bootstrap interval is
/// the same as on the values scaled down, and contains the estimate.
#[test]
fn bootstrap_pearson_of_huge_values_contains_the_estimate() {
    let x: Vec<f64> = (0..60).map(|i| ((i * 37) % 61) as f64).collect();
    let y: Vec<f64> = (0..60)
        .map(|i| ((i * 11) % 29) as f64 + 0.5 * i as f64)
        .collect();
    let opts = BootstrapOptions {
        replicates: 400,
        ..BootstrapOptions::default()
    };
    let small = bootstrap_correlations(&x, &y, &opts);
    for scale in [1e160, 1e180, 1e200, -1e200, 1e-200] {
        let big: Vec<f64> = x.iter().map(|v| v * scale).collect();
        let r = pearson(&big, &y).unwrap();
        assert_close!(r, pearson(&x, &y).unwrap() * scale.signum(), 1e-12);
        let iv = bootstrap_correlations(&big, &y, &opts)[0].unwrap();
        assert!(
            iv.lo <= r && r <= iv.hi,
            "{scale}: {r} not in [{}, {}]",
            iv.lo,
            iv.hi
        );
        if scale > 0.0 {
            let s = small[0].unwrap();
            assert_close!(iv.lo, s.lo, 1e-9);
            assert_close!(iv.hi, s.hi, 1e-9);
        }
    }
}

fn brute_force(x: &[f64], y: &[f64]) -> (u64, u64, u64, u64) {
    let (mut c, mut d, mut tx, mut ty) = (0, 0, 0, 0);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let s = (x[i] - x[j]) * (y[i] - y[j]);
            if x[i] == x[j] {
                tx += 1;
            }
            if y[i] == y[j] {
                ty += 1;
            }
            if s > 0.0 {
                c += 1;
            } else if s < 0.0 {
                d += 1;
            }
        }
    }
    (c, d, tx, ty)
}

proptest! {
    #[test]
    fn knight_pair_counts_match_brute_force(
        pairs in prop::collection::vec((0i32..6, 0i32..6), 0..60)
    ) {
        let x: Vec<f64> = pairs.iter().map(|p| f64::from(p.0)).collect();
        let y: Vec<f64> = pairs.iter().map(|p| f64::from(p.1)).collect();
        let c = pair_counts(&x, &y).unwrap();
        prop_assert_eq!((c.concordant, c.discordant, c.tied_x, c.tied_y), brute_force(&x, &y));
    }

    #[test]
    fn coefficients_stay_in_range_and_are_symmetric(
        pairs in prop::collection::vec((-50i32..50, -50i32..50), 3..80)
    ) {
        let x: Vec<f64> = pairs.iter().map(|p| f64::from(p.0)).collect();
        let y: Vec<f64> = pairs.iter().map(|p| f64::from(p.1)).collect();
        for (a, b) in correlations(&x, &y).iter().zip(correlations(&y, &x).iter()) {
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    prop_assert!(a.is_finite() && (-1.0..=1.0).contains(a));
                    prop_assert!((a - b).abs() < 1e-12);
                }
                (Err(_), Err(_)) => {}
                _ => prop_assert!(false, "asymmetric definedness"),
            }
        }
    }

    #[test]
    fn weighted_sample_equals_expanded_sample(
        items in prop::collection::vec((0i32..5, 0i32..8, 0u32..4), 1..40)
    ) {
        let x: Vec<f64> = items.iter().map(|p| f64::from(p.0)).collect();
        let y: Vec<f64> = items.iter().map(|p| f64::from(p.1)).collect();
        let w: Vec<u32> = items.iter().map(|p| p.2).collect();
        let (mut ex, mut ey) = (Vec::new(), Vec::new());
        for i in 0..x.len() {
            for _ in 0..w[i] {
                ex.push(x[i]);
                ey.push(y[i]);
            }
        }
        let sample = PairedSample::new(&x, &y);
        let c = sample.weighted_pair_counts(&w);
        let (bc, bd, btx, bty) = brute_force(&ex, &ey);
        // The sample may index x and y the other way round; τ-b and γ do not care.
        prop_assert_eq!((c.concordant, c.discordant), (bc, bd));
        prop_assert!((c.tied_x, c.tied_y) == (btx, bty) || (c.tied_x, c.tied_y) == (bty, btx));
        let fast = sample.weighted(&w);
        let slow = correlations(&ex, &ey);
        for (f, s) in fast.iter().zip(slow.iter()) {
            match (f, s) {
                (Some(f), Ok(s)) => prop_assert!((f - s).abs() < 1e-9, "{} vs {}", f, s),
                (None, Err(_)) => {}
                (f, s) => prop_assert!(false, "weighted {:?}, expanded {:?}", f, s),
            }
        }
    }
}

/// Pearson (and Spearman through it) centres and scales
/// before squaring: a value of 1e200 among small ones neither overflows
/// nor hides the others, values near 1e-200 are not "constant".
#[test]
fn pearson_is_stable_at_extreme_magnitudes() {
    let mut spike = X;
    spike[9] = 1e200;
    let mut unit = [0.0; 10];
    unit[9] = 1.0;
    let expected = pearson(&unit, &Y).unwrap();
    assert!(expected > 0.5, "{expected}");
    assert_close!(pearson(&spike, &Y).unwrap(), expected, 1e-9);
    assert_close!(pearson(&Y, &spike).unwrap(), expected, 1e-9);
    let tiny: Vec<f64> = X.iter().map(|x| x * 1e-200).collect();
    assert_close!(pearson(&tiny, &Y).unwrap(), pearson(&X, &Y).unwrap(), 1e-12);
    let huge: Vec<f64> = X.iter().map(|x| x * 1e300).collect();
    assert_close!(pearson(&huge, &Y).unwrap(), pearson(&X, &Y).unwrap(), 1e-12);
    let near_max: Vec<f64> = X.iter().map(|x| (x - 4.0) * 4e307).collect();
    assert_close!(
        pearson(&near_max, &Y).unwrap(),
        pearson(&X, &Y).unwrap(),
        1e-12
    );
    assert_close!(
        spearman(&tiny, &Y).unwrap(),
        spearman(&X, &Y).unwrap(),
        1e-12
    );
}
