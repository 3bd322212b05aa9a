//! Chang, Fan & Sun's standard generator ("hsolve: A Difficulty Metric and
//! Puzzle Generator for Sudoku", §2.2 and §4.1), as far as our copy of the
//! paper describes it.
//!
//! §2.2 defines what a level is: with `k` levels, the set of all puzzles is
//! divided into `k` hsolve-difficulty percentile intervals of equal size,
//! estimated on a sample of typical puzzles, and the generator must produce a
//! puzzle of the requested interval. The abstract reports runs with 4
//! levels. Our copy ends in §3.3, before the generator section and before the
//! paper's own cut points, so the cut points here are the quartiles of our
//! hsolve ([`crate::human::hsolve`], 20 runs, rating seed 0) over the
//! QQWing-generated reference set (`../shared/data/qqwing-generated/`,
//! 7,221 puzzles); `docs/generation.md` ("`chang`") gives the command and
//! the reasons for that set. The procedure is generate-and-test: a minimal
//! unique puzzle ([`super::minimal`]) is rated by hsolve and kept when it
//! lies in the requested interval, else another is made, up to the tries or
//! the time limit. A puzzle hsolve cannot finish ("needs search") has no
//! rating and is never in a level.

use super::Level;

/// The three hsolve quartiles that bound the four levels: level 1 is below
/// `QUARTILES[0]`, level 2 in `[QUARTILES[0], QUARTILES[1])`, level 3 in
/// `[QUARTILES[1], QUARTILES[2])`, level 4 at or above `QUARTILES[2]`.
/// Nearest-rank quartiles (positions 1806, 3611 and 5416 of 7,221) of
/// hsolve over the QQWing-generated set, rounded to 0.01; measured as
/// described in `docs/generation.md`, section "`chang`".
pub(crate) const QUARTILES: [f64; 3] = [956.57, 1569.69, 3011.26];

/// The hsolve interval `[lo, hi)` of a Chang level (`None` for the other
/// methods' levels).
pub(crate) fn range(level: Level) -> Option<(f64, f64)> {
    let [q1, q2, q3] = QUARTILES;
    match level {
        Level::Level1 => Some((0.0, q1)),
        Level::Level2 => Some((q1, q2)),
        Level::Level3 => Some((q2, q3)),
        Level::Level4 => Some((q3, f64::INFINITY)),
        _ => None,
    }
}

/// The Chang level of an hsolve difficulty.
pub(crate) fn level_of(hsolve: f64) -> Level {
    match QUARTILES.iter().filter(|&&q| hsolve >= q).count() {
        0 => Level::Level1,
        1 => Level::Level2,
        2 => Level::Level3,
        _ => Level::Level4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_partition_the_difficulties() {
        for h in [0.0, 500.0, 956.56, 956.57, 1569.69, 3000.0, 3011.26, 1e6] {
            let level = level_of(h);
            let (lo, hi) = range(level).unwrap();
            assert!(lo <= h && h < hi, "{h} in {level}");
        }
        assert_eq!(level_of(956.57), Level::Level2);
        assert_eq!(level_of(3011.25), Level::Level3);
        assert!(range(Level::Easy).is_none());
    }
}
