//! The per-run seeds of the randomized human models.
//!
//! Every randomized model runs `runs` independent simulations. Run `i` of a
//! model draws from its own generator seeded with [`run_seed`]`(seed, model,
//! i)`, a SplitMix64 mix of the three, so a run's result depends only on the
//! user's seed and its index: the same numbers come out whatever the order or
//! the thread that executes the runs. The runs are summarised with
//! [`crate::stats::Summary`].

use crate::seed::SeededRng;
use rand::SeedableRng;

/// Seed of run `run` of model `model` (any fixed tag) under user seed `seed`.
pub(super) fn run_seed(seed: u64, model: u64, run: u64) -> u64 {
    use crate::seed::splitmix64;
    splitmix64(splitmix64(splitmix64(seed) ^ model) ^ run)
}

/// The generator of one run.
pub(crate) fn run_rng(seed: u64, model: u64, run: u64) -> SeededRng {
    SeededRng::seed_from_u64(run_seed(seed, model, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_run_and_model() {
        assert_ne!(run_seed(1, 2, 3), run_seed(1, 2, 4));
        assert_ne!(run_seed(1, 2, 3), run_seed(1, 3, 3));
        assert_eq!(run_seed(7, 1, 0), run_seed(7, 1, 0));
    }
}
