//! Property tests: `rate` and `explain` never panic, whatever the grid, and
//! every row either names the problem with the puzzle or carries metrics.

use super::human_common;

use crate::{Explanation, Puzzle};
use crate::{RateOptions, rate};
use proptest::prelude::*;

const SOLVED: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

fn opts() -> RateOptions {
    let mut o = RateOptions::default();
    o.set_runs(2);
    o
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Arbitrary digits: mostly contradictory or not unique.
    #[test]
    fn arbitrary_grids(cells in proptest::collection::vec(prop_oneof![3 => Just(0u8), 1 => 1u8..=9], 81)) {
        let p = Puzzle::from_cells(3, cells).unwrap();
        let row = rate(&p, &opts());
        let bad = p.check().is_err();
        prop_assert!(!bad || row.ratings.status().contains_key("puzzle"));
        if row.ratings.status().contains_key("puzzle") {
            prop_assert!(row.ratings.oracle.score.is_none() && row.ratings.nishio.nishio4.is_none());
        } else {
            prop_assert!(row.ratings.oracle.score.is_some());
        }
        let _ = Explanation::of(&p).to_string();
    }

    /// A solution grid with random cells blanked: unique or not, every model
    /// either answers or says why not.
    #[test]
    fn blanked_solutions(mask in proptest::collection::vec(0u8..10, 81)) {
        let sol = human_common::puzzle(SOLVED);
        let mut p = sol.clone();
        for (c, &m) in mask.iter().enumerate() {
            if m < 5 {
                p.set(c, 0);
            }
        }
        let row = rate(&p, &opts());
        let r = &row.ratings;
        if r.puzzle.is_none() {
            prop_assert!(r.oracle.score.is_some());
            prop_assert!(r.nishio.nishio2.is_some() || r.nishio.why_null.is_some());
            prop_assert!(r.weights.score.is_some() || r.weights.why_null.is_some());
            prop_assert!(r.hsolve.difficulty.is_some() || r.hsolve.why_null.is_some());
            prop_assert!(r.sisus.refutation_sum.is_some() || r.sisus.why_null.is_some());
        } else {
            prop_assert_eq!(r.puzzle.as_ref(), Some(&crate::human::PuzzleFault::NotUnique));
        }
    }
}
