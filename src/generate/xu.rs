//! Xu & Xu's "No Brute-Force" generator (§2.2 a–c).
//!
//! a) From an empty grid, add random givens until naked and hidden singles
//!    alone solve the puzzle. "Consistent candidates only": a given's digit is
//!    drawn among the candidates its peers leave, in random order, and kept
//!    only if the puzzle still has a solution (one bitset search), so the
//!    additions never paint the grid into a contradiction. A puzzle that
//!    singles fill completely has exactly one solution.
//! b) Try every given once in random order and remove it when the technique
//!    engine ([`crate::human::path::simplest_path`] with the sixteen
//!    techniques of the paper, up to WXYZ-wing and forcing chains, no
//!    guessing) still solves the puzzle; put it back otherwise.
//! c) Rate with technique weights (Table 1) into the levels of Table 3; a
//!    requested level is reached by repeating from a), as in the paper's flow
//!    diagram (the caller, [`super::target::search()`], does that).
//!
//! With a symmetry, both phases work on orbits (each cell of an added orbit
//! gets its own consistent digit). Every puzzle this module returns is
//! solved by the techniques alone; it is not always minimal (a given the
//! techniques need may be redundant for uniqueness).

use super::minimal::remove_orbits;
use super::{Candidate, Symmetry};
use crate::bitset::sudoku::Solver;
use crate::grid::{Puzzle, Solution};
use crate::human::board::Board;
use crate::human::path::simplest_path;
use crate::human::techniques::{Technique, propagate_singles};
use crate::util::bits;
use rand::Rng;
use rand::seq::SliceRandom;

fn puzzle_of(n: usize, values: &[u8]) -> Puzzle {
    match Puzzle::from_cells(n, values.to_vec()) {
        Ok(p) => p,
        Err(_) => unreachable!("generated values of order {n}"),
    }
}

/// The grid singles fill from `puzzle`, when they fill it without
/// contradiction.
pub(crate) fn singles_solution(puzzle: &Puzzle) -> Option<Vec<u8>> {
    let mut b = Board::new(puzzle);
    (propagate_singles(&mut b) && b.is_solved() && !b.contradiction()).then(|| b.values().to_vec())
}

/// True when the technique engine solves `puzzle` without guessing.
pub(crate) fn techniques_solve(puzzle: &Puzzle) -> bool {
    simplest_path(puzzle, &Technique::ALL).solved
}

/// Phase a): random consistent givens until singles solve the puzzle.
/// Returns the givens and the solution singles find.
pub(crate) fn add_until_singles(
    n: usize,
    symmetry: Symmetry,
    rng: &mut impl Rng,
) -> (Vec<u8>, Vec<u8>) {
    let side = n * n;
    let mut solver = Solver::new(n);
    let mut values = vec![0u8; side * side];
    let mut orbits = symmetry.orbits(side);
    orbits.shuffle(rng);
    for orbit in &orbits {
        for &cell in orbit {
            let cands = puzzle_of(n, &values).candidates()[cell];
            let mut digits: Vec<u8> = bits(cands).collect();
            digits.shuffle(rng);
            for d in digits {
                values[cell] = d;
                if solver.count(&values, 1) == 1 {
                    break;
                }
                values[cell] = 0;
            }
        }
        if let Some(solution) = singles_solution(&puzzle_of(n, &values)) {
            return (values, solution);
        }
    }
    // Every cell given: the grid is its own solution.
    let full = values.clone();
    (values, full)
}

/// One puzzle by §2.2 a) and b) of order `n`.
pub fn xu_puzzle(n: usize, symmetry: Symmetry, rng: &mut impl Rng) -> Candidate {
    let (mut values, solution) = add_until_singles(n, symmetry, rng);
    let orbits = symmetry.orbits(n * n);
    remove_orbits(&mut values, &orbits, rng, |v, _| {
        techniques_solve(&puzzle_of(n, v))
    });
    let solution = match Solution::from_cells(n, solution) {
        Some(s) => s,
        None => unreachable!("singles filled the grid"),
    };
    Candidate {
        puzzle: puzzle_of(n, &values),
        solution,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    #[test]
    fn additions_stop_when_singles_solve() {
        let mut rng = SeededRng::seed_from_u64(9);
        let (values, solution) = add_until_singles(3, Symmetry::None, &mut rng);
        let p = puzzle_of(3, &values);
        assert_eq!(singles_solution(&p), Some(solution.clone()));
        assert_eq!(crate::sat::count(&p, 2).solutions, 1);
        let s = Solution::from_cells(3, solution).unwrap();
        assert!(s.solves(&p));
    }

    #[test]
    fn xu_puzzles_need_no_guessing() {
        let mut rng = SeededRng::seed_from_u64(4);
        for sym in [Symmetry::None, Symmetry::Rot180] {
            let c = xu_puzzle(3, sym, &mut rng);
            assert!(techniques_solve(&c.puzzle), "{}", c.puzzle);
            assert!(c.solution.solves(&c.puzzle));
            assert_eq!(crate::sat::count(&c.puzzle, 2).solutions, 1);
            assert!(c.puzzle.givens() < 40, "{}", c.puzzle);
        }
    }
}
