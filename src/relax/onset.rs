//! Where a puzzle's relaxation begins (issue 39; `docs/methods.md` §2.6):
//! the smallest `k` at which P(unique) falls to one half.
//!
//! The samples of a relaxation are nested across `k` (sample `i` removes a
//! prefix of one random ordering of the edges), and removing edges never
//! removes a solution, so each sample has a threshold: the first `k` at
//! which it has a second solution. P(unique) at `k` is the share of samples
//! whose threshold lies above `k`, so it falls to one half exactly at the
//! median threshold. [`onset`] finds the threshold of each of
//! [`ONSET_SAMPLES`] samples (the first samples of the run, same seeds) by a
//! doubling and bisection search with the bitset search's counts up to 2,
//! and returns the order statistic where P(unique) reaches one half. It is
//! exact for those samples, and the same at any thread count.

use super::{RelaxError, RelaxOptions, check_puzzle};
use crate::graph::{RelaxedInstance, derive_seed, shuffled_edges};
use crate::grid::Puzzle;
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;

/// Samples whose thresholds give the onset.
pub const ONSET_SAMPLES: usize = 100;

/// The `k` of a relaxation: a number of edges, or `auto`, the puzzle's
/// [`onset`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KChoice {
    /// Remove this many edges.
    At(usize),
    /// Remove as many as the puzzle's onset says.
    Auto,
}

impl fmt::Display for KChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KChoice::At(k) => write!(f, "{k}"),
            KChoice::Auto => f.write_str("auto"),
        }
    }
}

/// A `k` that is neither a number of edges nor `auto`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected a number of edges or auto")]
pub struct BadK(pub String);

impl FromStr for KChoice {
    type Err = BadK;

    fn from_str(s: &str) -> Result<KChoice, BadK> {
        match s.trim() {
            "auto" => Ok(KChoice::Auto),
            t => t.parse().map(KChoice::At).map_err(|_| BadK(s.to_string())),
        }
    }
}

impl KChoice {
    /// The `k` to relax `puzzle` at: the number, or the onset.
    ///
    /// # Errors
    /// What [`onset`] returns, and [`RelaxError::NoOnset`] for `auto` on a
    /// puzzle without an empty cell.
    pub fn resolve(self, puzzle: &Puzzle, opts: &RelaxOptions) -> Result<usize, RelaxError> {
        match self {
            KChoice::At(k) => Ok(k),
            KChoice::Auto => onset(puzzle, opts)?.ok_or(RelaxError::NoOnset),
        }
    }
}

/// The `k` where P(unique) over the first [`ONSET_SAMPLES`] samples of
/// `opts.seed` falls to one half; `None` when the puzzle has no empty
/// cell (its relaxations stay unique).
///
/// # Errors
/// The puzzle cannot be relaxed ([`check_puzzle`]).
pub fn onset(puzzle: &Puzzle, opts: &RelaxOptions) -> Result<Option<usize>, RelaxError> {
    check_puzzle(puzzle)?;
    let thresholds: Option<Vec<usize>> = (0..ONSET_SAMPLES)
        .into_par_iter()
        .map(|i| threshold(puzzle, derive_seed(opts.seed, i as u64)))
        .collect();
    Ok(thresholds.map(|mut t| {
        t.sort_unstable();
        t[ONSET_SAMPLES.div_ceil(2) - 1]
    }))
}

/// The first `k` at which the sample of `seed` has a second solution;
/// `None` when it has none with every edge removed.
fn threshold(puzzle: &Puzzle, seed: u64) -> Option<usize> {
    let order = shuffled_edges(puzzle.order(), seed);
    let several = |k: usize| {
        let mut removed = order[..k].to_vec();
        removed.sort_unstable();
        let r = RelaxedInstance::new(puzzle, &removed)
            .unwrap_or_else(|e| unreachable!("sampled edges are graph edges: {e}"));
        crate::bitset::relaxed::count(&r, 2).solutions >= 2
    };
    // Unique at `lo`, several at `hi`.
    let (mut lo, mut hi) = (0, 8.min(order.len()));
    while !several(hi) {
        if hi == order.len() {
            return None;
        }
        lo = hi;
        hi = (2 * hi).min(order.len());
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if several(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_parses_a_number_or_auto() {
        assert_eq!("45".parse::<KChoice>(), Ok(KChoice::At(45)));
        assert_eq!("auto".parse::<KChoice>(), Ok(KChoice::Auto));
        assert!("4x".parse::<KChoice>().is_err());
        assert_eq!(KChoice::Auto.to_string(), "auto");
    }
}
