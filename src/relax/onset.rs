//! Where a puzzle's relaxation begins (`docs/methods.md` §2.5, on Pelánek §3.2):
//! the smallest `k` at which P(unique) falls to one half.
//!
//! The samples of a relaxation are nested across `k` (sample `i` removes a
//! prefix of one random ordering of the edges), and removing edges never
//! removes a solution, so each sample has a threshold: the first `k` at
//! which it has a second solution. P(unique) at `k` is the share of samples
//! whose threshold lies above `k`, so it falls to one half exactly at the
//! median threshold. [`onset`] finds that `k` for the first
//! [`ONSET_SAMPLES`] samples of the run (same seeds) by doubling and then
//! bisecting `k` on the share of samples with a second solution, counted by
//! the bitset search up to 2. What a search at one `k` says of a sample
//! holds for every `k` beyond it (several solutions) or below it (unique),
//! so a sample is searched only where it is still open: about 3 searches a
//! sample. The `k` is exact for those samples, and the same at any thread
//! count.

use super::{RelaxError, RelaxOptions, check_puzzle};
use crate::graph::{RelaxedInstance, derive_seed};
use crate::grid::Puzzle;
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;

/// Samples whose thresholds give the onset.
pub(crate) const ONSET_SAMPLES: usize = 100;

/// The `k` of a relaxation: a number of edges, or `auto`, the puzzle's
/// `onset`.
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

/// A number of edges as a JSON number, `auto` as the string `"auto"`, as
/// the command line writes them (a run record, a report's options).
impl serde::Serialize for KChoice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            KChoice::At(k) => s.serialize_u64(*k as u64),
            KChoice::Auto => s.serialize_str("auto"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for KChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<KChoice, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Written {
            Number(usize),
            Text(String),
        }
        match Written::deserialize(d)? {
            Written::Number(k) => Ok(KChoice::At(k)),
            Written::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

impl KChoice {
    /// The `k` to relax `puzzle` at: the number, or the onset.
    ///
    /// # Errors
    /// What `onset` returns, and [`RelaxError::NoOnset`] for `auto` on a
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
pub(crate) fn onset(puzzle: &Puzzle, opts: &RelaxOptions) -> Result<Option<usize>, RelaxError> {
    check_puzzle(puzzle)?;
    let mut t = Thresholds::new(puzzle, opts.seed);
    let need = ONSET_SAMPLES.div_ceil(2);
    let edges = puzzle.geometry().edges().len();
    // Several solutions in fewer than `need` samples at `lo`, in at least
    // `need` at `hi`.
    let (mut lo, mut hi) = (0, 8.min(edges));
    while t.several_at(hi) < need {
        if hi == edges {
            return Ok(None);
        }
        lo = hi;
        hi = (2 * hi).min(edges);
    }
    while hi - lo > 1 {
        if crate::cancel::cancelled() {
            return Err(RelaxError::Interrupted);
        }
        let mid = lo + (hi - lo) / 2;
        if t.several_at(mid) >= need {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi))
}

/// What is known of each sample's threshold: unique up to `unique_to`,
/// several solutions from `several_from`. A sample is searched at `k` only
/// when `k` lies between the two (the doubling and bisection over the
/// share then settle most samples without a search).
struct Thresholds<'a> {
    puzzle: &'a Puzzle,
    orders: Vec<Vec<(usize, usize)>>,
    unique_to: Vec<usize>,
    several_from: Vec<usize>,
}

impl<'a> Thresholds<'a> {
    fn new(puzzle: &'a Puzzle, seed: u64) -> Self {
        let orders: Vec<Vec<(usize, usize)>> = (0..ONSET_SAMPLES)
            .into_par_iter()
            .map(|i| RelaxedInstance::shuffled_edges(puzzle.order(), derive_seed(seed, i as u64)))
            .collect();
        Thresholds {
            puzzle,
            unique_to: vec![0; orders.len()],
            several_from: vec![usize::MAX; orders.len()],
            orders,
        }
    }

    /// How many samples have several solutions at `k`.
    fn several_at(&mut self, k: usize) -> usize {
        let puzzle = self.puzzle;
        let open: Vec<usize> = (0..self.orders.len())
            .filter(|&i| self.unique_to[i] < k && k < self.several_from[i])
            .collect();
        let found: Vec<bool> = open
            .par_iter()
            .map(|&i| {
                let mut removed = self.orders[i][..k].to_vec();
                removed.sort_unstable();
                let r = RelaxedInstance::new(puzzle, &removed)
                    .unwrap_or_else(|e| unreachable!("sampled edges are graph edges: {e}"));
                crate::bitset::relaxed::count(&r, 2).solutions >= 2
            })
            .collect();
        for (&i, several) in open.iter().zip(found) {
            if several {
                self.several_from[i] = k;
            } else {
                self.unique_to[i] = k;
            }
        }
        self.several_from.iter().filter(|&&s| s <= k).count()
    }
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

    #[test]
    fn k_is_written_as_a_number_or_auto_and_read_back() {
        assert_eq!(serde_json::to_string(&KChoice::At(45)).unwrap(), "45");
        assert_eq!(serde_json::to_string(&KChoice::Auto).unwrap(), "\"auto\"");
        let read: Vec<KChoice> = serde_json::from_str(r#"[45, "auto"]"#).unwrap();
        assert_eq!(read, vec![KChoice::At(45), KChoice::Auto]);
        assert!(serde_json::from_str::<KChoice>(r#""4x""#).is_err());
    }
}
