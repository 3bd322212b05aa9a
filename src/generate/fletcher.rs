//! Fletcher, Johnson & Morrison's generator ("A Sudoku Difficulty Metric",
//! §"Generation Algorithm", Algorithm 2).
//!
//! 1. Fill the diagonal boxes with random permutations of the digits (lines
//!    2–5; for order `n` there are `n` of them).
//! 2. Let Dancing Links enumerate the first `N` completions of that seed
//!    (`N = 100` in the paper) and pick one at random (lines 6–7).
//! 3. Remove cells in random order, checking uniqueness with Dancing Links
//!    after each removal and putting a cell back when the puzzle is no longer
//!    unique, until every given has been tried (lines 8–11; "until no more
//!    cells can be removed" read as "every cell tried once", which makes the
//!    result minimal, since removals only add solutions).
//!
//! The generator targets no difficulty; the puzzle is scored with the oracle
//! model ([`crate::human::oracle`], Table 1 levels), and a requested level is
//! reached by generating until it comes out, as the paper suggests.

use super::minimal::{random_diagonal_boxes, remove_orbits};
use super::{Candidate, Symmetry};
use crate::dlx::sudoku::SudokuDlx;
use crate::grid::Puzzle;
use rand::Rng;

/// One puzzle by Algorithm 2 of order `n`, picking the solution grid among
/// the first `completions` Dancing Links completions of the random seed.
pub(crate) fn fletcher_puzzle(
    n: usize,
    symmetry: Symmetry,
    completions: usize,
    rng: &mut impl Rng,
) -> Candidate {
    let mut dlx = SudokuDlx::new(n);
    let (seed, solution) = loop {
        let values = random_diagonal_boxes(n, rng);
        let seed = match Puzzle::from_cells(n, values) {
            Ok(p) => p,
            Err(_) => unreachable!("diagonal boxes of order {n}"),
        };
        dlx.load(&seed);
        let mut grids = dlx.solutions(completions.max(1) as u64);
        if !grids.is_empty() {
            let pick = rng.gen_range(0..grids.len());
            break (seed, grids.swap_remove(pick));
        }
    };
    debug_assert!(solution.solves(&seed));
    let orbits = symmetry.orbits(n * n);
    let mut values = solution.cells().to_vec();
    remove_orbits(&mut values, &orbits, rng, |v, _| {
        let p = match Puzzle::from_cells(n, v.to_vec()) {
            Ok(p) => p,
            Err(_) => unreachable!("values of a solution grid of order {n}"),
        };
        dlx.load(&p);
        dlx.count(2).solutions == 1
    });
    let puzzle = match Puzzle::from_cells(n, values) {
        Ok(p) => p,
        Err(_) => unreachable!("values of a solution grid of order {n}"),
    };
    Candidate { puzzle, solution }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::minimal::is_minimal;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    #[test]
    fn algorithm_2_gives_minimal_unique_puzzles() {
        let mut rng = SeededRng::seed_from_u64(3);
        for _ in 0..3 {
            let c = fletcher_puzzle(3, Symmetry::None, 100, &mut rng);
            assert!(c.solution.solves(&c.puzzle));
            assert_eq!(crate::sat::count(&c.puzzle, 2).solutions, 1);
            assert!(is_minimal(&c.puzzle, &c.solution));
            assert!((17..=35).contains(&c.puzzle.givens()), "{}", c.puzzle);
        }
        let small = fletcher_puzzle(2, Symmetry::Rot180, 10, &mut rng);
        assert_eq!(crate::sat::count(&small.puzzle, 2).solutions, 1);
    }
}
