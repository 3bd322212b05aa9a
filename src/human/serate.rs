//! A Serate-like rating and a Fowler-like rating (Pelánek, "Difficulty
//! rating of Sudoku puzzles: an overview and evaluation", §3.1 "Difficulty
//! Metrics Based on the Model", Table 1 and Table 3).
//!
//! Pelánek's Table 1 lists the Sudoku Explainer ratings of its eight
//! simplest techniques: hidden single 1.2, naked single 2.3, pointing 2.6,
//! claiming 2.8, and the "direct" variants (direct pointing 1.7, direct
//! claiming 1.9, direct hidden pair 2.0, direct hidden triple 2.5). The
//! other techniques of our catalogue take Sudoku Explainer's base ratings
//! (from its source, not from the paper): naked pair 3.0, X-wing 3.2,
//! hidden pair 3.4, naked triple 3.6, swordfish 3.8, hidden triple 4.0,
//! XY-wing 4.2, XYZ-wing 4.4, WXYZ-wing 4.6, naked quad 5.0, jellyfish 5.2,
//! hidden quad 5.4, forcing chain 7.0. Our technique engine has no "direct"
//! variants (a subset or intersection that at once leaves a hidden single),
//! so those four ratings are not used, and Sudoku Explainer's length-based
//! increments of chains are not modelled.
//!
//! The solving path, as in Sudoku Explainer, takes at every state the
//! lowest-rated technique that applies ([`super::path::follow`] with the
//! catalogue sorted by rating).
//!
//! * **Serate** (the paper: "a maximal difficulty of a used logic
//!   technique"): the highest rating along that path.
//! * **Fowler-like**: Pelánek describes Fowler's metric only as "a (rather
//!   complicated) expression over number of occurrences of each logic
//!   technique (with ad hoc parameter values)" and gives neither the
//!   expression nor the values. Ours is the simplest such expression: the sum
//!   of the ratings of every step of the path (each placement or elimination
//!   step counts once), so it grows with both how hard and how many the
//!   steps are. It is our design, named after the paper's row it stands in
//!   for.
//!
//! A puzzle the catalogue cannot finish is "needs search": no number.

use super::Unfinished;
use super::path::follow;
use super::techniques::Technique;
use crate::grid::Puzzle;
use std::ops::ControlFlow;

/// The Sudoku Explainer rating of a technique (Pelánek Table 1 for the
/// simplest ones, Sudoku Explainer's base ratings for the others).
pub fn rating(t: Technique) -> f64 {
    match t {
        Technique::HiddenSingle => 1.2,
        Technique::NakedSingle => 2.3,
        Technique::Pointing => 2.6,
        Technique::Claiming => 2.8,
        Technique::NakedPair => 3.0,
        Technique::XWing => 3.2,
        Technique::HiddenPair => 3.4,
        Technique::NakedTriple => 3.6,
        Technique::Swordfish => 3.8,
        Technique::HiddenTriple => 4.0,
        Technique::XyWing => 4.2,
        Technique::XyzWing => 4.4,
        Technique::WxyzWing => 4.6,
        Technique::NakedQuad => 5.0,
        Technique::Jellyfish => 5.2,
        Technique::HiddenQuad => 5.4,
        Technique::ForcingChain => 7.0,
    }
}

/// The catalogue ordered by rating, lowest first.
pub(crate) fn by_rating() -> Vec<Technique> {
    let mut ts = Technique::ALL.to_vec();
    ts.sort_by(|a, b| rating(*a).total_cmp(&rating(*b)));
    ts
}

/// Both ratings of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SerateResult {
    /// The highest rating along the lowest-rating-first path (0 when the
    /// puzzle is already full).
    pub serate: f64,
    /// The sum of the ratings of every step of that path.
    pub fowler: f64,
    /// The technique with the highest rating, if any step was taken.
    pub hardest: Option<Technique>,
    /// Steps of the path.
    pub steps: usize,
}

/// Rates `puzzle` along the lowest-rating-first path.
///
/// # Errors
/// "needs search" when the catalogue cannot finish the puzzle.
pub fn serate(puzzle: &Puzzle) -> Result<SerateResult, Unfinished> {
    let mut r = SerateResult {
        serate: 0.0,
        fowler: 0.0,
        hardest: None,
        steps: 0,
    };
    let end = follow(puzzle, &by_rating(), |a, _| {
        let x = rating(a.technique);
        r.fowler += x;
        r.steps += 1;
        if x > r.serate {
            r.serate = x;
            r.hardest = Some(a.technique);
        }
        ControlFlow::Continue(())
    });
    if end.is_solved() {
        // Sums of one-decimal ratings: round away the float residue.
        r.fowler = (r.fowler * 10.0).round() / 10.0;
        Ok(r)
    } else {
        Err(Unfinished::new("needs search"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_1_ratings() {
        // Pelánek Table 1 (the non-direct techniques our engine has).
        assert_eq!(rating(Technique::HiddenSingle), 1.2);
        assert_eq!(rating(Technique::NakedSingle), 2.3);
        assert_eq!(rating(Technique::Pointing), 2.6);
        assert_eq!(rating(Technique::Claiming), 2.8);
        let order = by_rating();
        assert_eq!(order[0], Technique::HiddenSingle);
        assert_eq!(order[1], Technique::NakedSingle);
        assert_eq!(*order.last().unwrap(), Technique::ForcingChain);
    }

    #[test]
    fn one_missing_cell_is_one_hidden_single() {
        // A full grid with one cell removed: the lowest-rated technique that
        // fills it is the hidden single (1.2), not the naked single (2.3).
        let full =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut line = full.to_string();
        line.replace_range(0..1, ".");
        let p = crate::grid::parse_puzzle(&line).unwrap();
        let r = serate(&p).unwrap();
        assert_eq!((r.serate, r.fowler, r.steps), (1.2, 1.2, 1));
        assert_eq!(r.hardest, Some(Technique::HiddenSingle));
    }

    #[test]
    fn fowler_sums_and_serate_takes_the_maximum() {
        // Two empty cells, each fillable: two hidden singles.
        let full =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut line = full.to_string();
        line.replace_range(0..1, ".");
        line.replace_range(80..81, ".");
        let p = crate::grid::parse_puzzle(&line).unwrap();
        let r = serate(&p).unwrap();
        assert_eq!((r.serate, r.fowler, r.steps), (1.2, 2.4, 2));
    }

    #[test]
    fn an_empty_grid_needs_search() {
        let p = Puzzle::empty(3);
        assert_eq!(serate(&p).unwrap_err().0, "needs search");
    }
}
