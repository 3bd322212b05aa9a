//! Xu & Xu's "No Brute-Force" generator (§2.2 a–c, Figure 1).
//!
//! a) From an empty grid, random givens are added, and only naked and
//!    hidden singles ever look at the puzzle: a random orbit of cells that
//!    singles have not yet filled gets, cell by cell, a digit drawn among the
//!    candidates the singles-closed grid leaves, in random order; a digit is
//!    kept when naked and hidden singles, run to their end, show no
//!    contradiction, and the next digit is tried otherwise. The additions
//!    stop when singles fill the whole grid: a puzzle singles solve has
//!    exactly one solution, so no search is needed. A cell whose every digit
//!    leads singles into a contradiction starts phase a) again from the
//!    empty grid. When the requested level is Easy the puzzle is returned
//!    here (the paper: "If the difficulty level needed is easy, the puzzle
//!    has been generated successfully").
//! b) Every given is tried once in random order and removed while the
//!    solution stays unique ("until the puzzle can't guarantee a unique
//!    solution. Then put the last cell back, and try another one until all
//!    the givens have been tested"); the uniqueness test is the one of
//!    [`super::minimal`], so the result is minimal. When the technique
//!    engine ([`crate::human::path::simplest_path`] with the sixteen
//!    techniques of the paper, up to WXYZ-wing and forcing chains) cannot
//!    solve the result, it would need brute force, and the generator starts
//!    again from a) (§2.1 b: "we have to generate a new puzzle").
//! c) Rate with technique weights (Table 1) into the levels of Table 3; a
//!    requested level is reached by repeating from a), as in the paper's flow
//!    diagram (the caller, [`super::aim::search()`], does that).
//!
//! With a symmetry, both phases work on orbits. Every puzzle this module
//! returns is solved by naked and hidden singles (after a) alone) or by the
//! techniques (after b)), without guessing.

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
#[cfg(test)]
pub(crate) fn singles_solution(puzzle: &Puzzle) -> Option<Vec<u8>> {
    let mut b = Board::new(puzzle);
    (propagate_singles(&mut b) && b.is_solved() && !b.contradiction()).then(|| b.values().to_vec())
}

/// True when the technique engine solves `puzzle` without guessing.
pub(crate) fn techniques_solve(puzzle: &Puzzle) -> bool {
    simplest_path(puzzle, &Technique::ALL).solved
}

/// What one call of [`xu_puzzle_traced`] went through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct XuTrace {
    /// Phase a) runs that met a cell without a consistent digit and started
    /// again from the empty grid.
    pub dead_ends: usize,
    /// Puzzles of phase b) the techniques could not solve (regenerated).
    pub regenerated: usize,
    /// Givens at the end of phase a) of the returned puzzle.
    pub phase_a_givens: usize,
}

/// One run of phase a): random givens, each kept when naked and hidden
/// singles show no contradiction, until singles fill the grid. Returns the
/// givens and the grid singles fill, or `None` at a cell every digit of
/// which leads singles into a contradiction.
fn try_add_until_singles(
    n: usize,
    orbits: &[Vec<usize>],
    rng: &mut impl Rng,
) -> Option<(Vec<u8>, Vec<u8>)> {
    let side = n * n;
    let mut values = vec![0u8; side * side];
    let mut board = Board::new(&puzzle_of(n, &values));
    let mut order: Vec<&Vec<usize>> = orbits.iter().collect();
    order.shuffle(rng);
    for orbit in order {
        if orbit.iter().all(|&c| board.value(c) != 0) {
            continue;
        }
        for &cell in orbit {
            let mut digits: Vec<u8> = match board.value(cell) {
                0 => bits(board.cands(cell)).collect(),
                v => vec![v],
            };
            digits.shuffle(rng);
            let kept = digits.into_iter().find_map(|d| {
                let mut next = board.clone();
                next.place(cell, d);
                propagate_singles(&mut next).then_some((d, next))
            });
            let (d, next) = kept?;
            values[cell] = d;
            board = next;
        }
        if board.is_solved() {
            return Some((values, board.values().to_vec()));
        }
    }
    // Every orbit tried: singles have filled the grid by now.
    board.is_solved().then(|| (values, board.values().to_vec()))
}

/// Phase a): random givens until singles solve the puzzle, starting again
/// from the empty grid after a dead end. Returns the givens, the solution
/// singles find and the number of dead ends.
pub(crate) fn add_until_singles(
    n: usize,
    symmetry: Symmetry,
    rng: &mut impl Rng,
) -> (Vec<u8>, Vec<u8>, usize) {
    let orbits = symmetry.orbits(n * n);
    let mut dead_ends = 0;
    loop {
        if let Some((values, solution)) = try_add_until_singles(n, &orbits, rng) {
            return (values, solution, dead_ends);
        }
        dead_ends += 1;
    }
}

/// Phase b): every orbit of givens tried once in random order, removed
/// while the solution stays unique.
fn remove_while_unique(
    n: usize,
    symmetry: Symmetry,
    values: &mut [u8],
    solution: &[u8],
    rng: &mut impl Rng,
) {
    let mut solver = Solver::new(n);
    let orbits = symmetry.orbits(n * n);
    remove_orbits(values, &orbits, rng, |v, removed| {
        !solver.differs_at(v, solution, removed)
    });
}

/// One puzzle by §2.2 a) and b) of order `n`; with `easy`, the puzzle of
/// phase a).
pub(crate) fn xu_puzzle(n: usize, symmetry: Symmetry, easy: bool, rng: &mut impl Rng) -> Candidate {
    xu_puzzle_traced(n, symmetry, easy, rng).0
}

/// [`xu_puzzle`] with what the generation went through.
pub(crate) fn xu_puzzle_traced(
    n: usize,
    symmetry: Symmetry,
    easy: bool,
    rng: &mut impl Rng,
) -> (Candidate, XuTrace) {
    let mut trace = XuTrace::default();
    loop {
        let (mut values, solution, dead_ends) = add_until_singles(n, symmetry, rng);
        trace.dead_ends += dead_ends;
        trace.phase_a_givens = values.iter().filter(|&&v| v != 0).count();
        if !easy {
            remove_while_unique(n, symmetry, &mut values, &solution, rng);
        }
        let puzzle = puzzle_of(n, &values);
        if easy || techniques_solve(&puzzle) {
            let solution = match Solution::from_cells(n, solution) {
                Some(s) => s,
                None => unreachable!("singles filled the grid without contradiction"),
            };
            return (Candidate { puzzle, solution }, trace);
        }
        trace.regenerated += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    #[test]
    fn additions_stop_when_singles_solve() {
        for seed in 0..20 {
            let mut rng = SeededRng::seed_from_u64(seed);
            let (values, solution, _) = add_until_singles(3, Symmetry::None, &mut rng);
            let p = puzzle_of(3, &values);
            assert_eq!(singles_solution(&p), Some(solution.clone()));
            // The search is an independent check here, never in the algorithm.
            assert_eq!(crate::sat::count(&p, 2).solutions, 1);
            let s = Solution::from_cells(3, solution).unwrap();
            assert!(s.solves(&p));
        }
    }

    #[test]
    fn phase_a_stops_at_the_first_given_that_lets_singles_finish() {
        // Phase a) adds a given only to cells singles have not filled, so
        // the puzzle without any of its givens is not solved by singles.
        let mut rng = SeededRng::seed_from_u64(3);
        let (values, _, _) = add_until_singles(3, Symmetry::None, &mut rng);
        let givens: Vec<usize> = (0..81).filter(|&c| values[c] != 0).collect();
        let solved_without = givens.iter().filter(|&&c| {
            let mut v = values.clone();
            v[c] = 0;
            singles_solution(&puzzle_of(3, &v)).is_some()
        });
        // The last given added was needed; removing others may not matter,
        // but not every given can be spare.
        assert!(solved_without.count() < givens.len());
    }

    #[test]
    fn phase_a_on_4x4_grids() {
        for seed in 0..50 {
            let mut rng = SeededRng::seed_from_u64(seed);
            let (values, solution, _) = add_until_singles(2, Symmetry::None, &mut rng);
            let p = puzzle_of(2, &values);
            assert_eq!(singles_solution(&p), Some(solution));
            assert_eq!(crate::sat::count(&p, 2).solutions, 1, "{p}");
        }
    }

    #[test]
    fn xu_puzzles_are_minimal_and_need_no_guessing() {
        let mut rng = SeededRng::seed_from_u64(4);
        for sym in [Symmetry::None, Symmetry::Rot180] {
            let (c, trace) = xu_puzzle_traced(3, sym, false, &mut rng);
            assert!(techniques_solve(&c.puzzle), "{}", c.puzzle);
            assert!(c.solution.solves(&c.puzzle));
            assert_eq!(crate::sat::count(&c.puzzle, 2).solutions, 1);
            assert!(c.puzzle.givens() < trace.phase_a_givens, "{}", c.puzzle);
            if sym == Symmetry::None {
                // Minimal: every given is needed for uniqueness.
                for cell in (0..81).filter(|&x| c.puzzle.cells()[x] != 0) {
                    let mut v = c.puzzle.cells().to_vec();
                    v[cell] = 0;
                    let fewer = puzzle_of(3, &v);
                    assert_eq!(crate::sat::count(&fewer, 2).solutions, 2, "{cell}");
                }
            }
        }
    }

    #[test]
    fn easy_requests_return_the_phase_a_puzzle() {
        let mut a = SeededRng::seed_from_u64(8);
        let mut b = SeededRng::seed_from_u64(8);
        let (easy, trace) = xu_puzzle_traced(3, Symmetry::None, true, &mut a);
        let (values, solution, _) = add_until_singles(3, Symmetry::None, &mut b);
        assert_eq!(easy.puzzle.cells(), &values[..]);
        assert_eq!(easy.solution.cells(), &solution[..]);
        assert_eq!(trace.phase_a_givens, easy.puzzle.givens());
        assert_eq!(trace.regenerated, 0);
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzle() {
        let one = xu_puzzle(3, Symmetry::None, false, &mut SeededRng::seed_from_u64(21));
        let two = xu_puzzle(3, Symmetry::None, false, &mut SeededRng::seed_from_u64(21));
        assert_eq!(one.puzzle, two.puzzle);
    }
}
