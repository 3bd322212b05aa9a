//! Relaxation to a stated precision (`docs/methods.md` §2.5, beside Pelánek §3.2):
//! draw samples until the 95 % t interval of `mean_fixed` is within ± E
//! cells. Samples are drawn in blocks in index order, the first of
//! [`PRECISION_MIN_SAMPLES`] and then of [`PRECISION_BLOCK`], and the
//! stopping rule is tested only at the end of a block, on the samples
//! `0..n` in index order. Sample `i` is the sample `i` of a fixed run, so
//! the samples a run stops at, and its row, are the same at any thread
//! count.

use super::SampleResult;
use std::ops::Range;

/// The fewest samples a run to a precision draws before it may stop: a
/// standard deviation from fewer is too unsure to stop on.
pub(crate) const PRECISION_MIN_SAMPLES: usize = 30;

/// Samples drawn between two tests of the stopping rule.
pub(crate) const PRECISION_BLOCK: usize = 10;

/// The blocks of sample indices of a run of at most `max` samples: one
/// block of all of them without a precision, else the first
/// [`PRECISION_MIN_SAMPLES`] and then blocks of [`PRECISION_BLOCK`].
pub(super) fn blocks(max: usize, precision: bool) -> impl Iterator<Item = Range<usize>> {
    let first = if precision {
        PRECISION_MIN_SAMPLES.min(max)
    } else {
        max
    };
    std::iter::successors(Some(0..first), move |r| {
        (r.end < max).then(|| r.end..(r.end + PRECISION_BLOCK).min(max))
    })
}

/// Whether the 95 % interval of the mean fixed cells of `samples` (in index
/// order) is within ± `e` cells.
pub(super) fn reached(samples: &[SampleResult], e: f64) -> bool {
    let fixed: Vec<f64> = samples.iter().map(|s| s.fixed.len() as f64).collect();
    crate::stats::mean_interval(&fixed).is_some_and(|m| m.half_width() <= e)
}

/// Whether `samples` (in index order) establish saturation: the 95 % Wilson
/// interval of the share that shows nothing lies above one half, the share
/// past which a row `saw_nothing`.
pub(super) fn saturated(samples: &[SampleResult]) -> bool {
    let nothing = samples.iter().filter(|s| super::shows_nothing(s)).count();
    crate::stats::wilson95(nothing, samples.len()).is_some_and(|(low, _)| low > 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_the_samples_in_index_order() {
        let b: Vec<Range<usize>> = blocks(55, true).collect();
        assert_eq!(b, vec![0..30, 30..40, 40..50, 50..55]);
        assert_eq!(blocks(55, false).collect::<Vec<_>>(), vec![0..55]);
        assert_eq!(blocks(12, true).collect::<Vec<_>>(), vec![0..12]);
    }

    fn sample(i: usize, fixed: usize) -> SampleResult {
        SampleResult {
            sample: i,
            removed: Vec::new(),
            solutions: 2,
            capped: false,
            saturated: false,
            fixed: (0..fixed).collect(),
        }
    }

    #[test]
    fn the_rule_is_the_half_width_of_the_t_interval() {
        // Fixed counts 0, 2, 0, 2, …: s = 1.017 over 30, half-width
        // 2.045 · 1.017 / √30 = 0.380.
        let s: Vec<SampleResult> = (0..30).map(|i| sample(i, 2 * (i % 2))).collect();
        assert!(reached(&s, 0.39));
        assert!(!reached(&s, 0.37));
        assert!(!reached(&s[..1], 100.0), "one sample has no spread");
    }

    #[test]
    fn saturation_is_established_by_the_wilson_interval_above_one_half() {
        let capped = |i| SampleResult {
            capped: true,
            solutions: 1000,
            ..sample(i, 0)
        };
        // 30 of 30 show nothing: Wilson's interval [0.886, 1].
        let all: Vec<SampleResult> = (0..30).map(capped).collect();
        assert!(saturated(&all));
        // 20 of 30 (0.667): the interval [0.488, 0.808] reaches below 1/2.
        let mixed: Vec<SampleResult> = (0..30)
            .map(|i| if i < 20 { capped(i) } else { sample(i, 3) })
            .collect();
        assert!(!saturated(&mixed));
        // Several solutions and no fixed cell show nothing too.
        let loose: Vec<SampleResult> = (0..30).map(|i| sample(i, 0)).collect();
        assert!(saturated(&loose));
        assert!(!saturated(&[]));
    }
}
