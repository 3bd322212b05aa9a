//! Minimal unique puzzles by removal.
//!
//! A seeded random solution grid: the diagonal boxes, which share no unit,
//! get independent random permutations (as in Fletcher et al.'s
//! Algorithm 2), and the bitset search completes them branching on digits in
//! a seeded random order. Then the orbits of the chosen [`Symmetry`] (single
//! cells without symmetry) are tried once each in seeded random order: an
//! orbit is removed, and put back when the puzzle has another solution.
//!
//! The puzzle before a removal has exactly one solution `S`; after removing
//! the cells `R` every other solution differs from `S` somewhere in `R`
//! (one that agrees on `R` solved the puzzle before). So the test is one
//! search with the removed cell forbidden its value in `S`, not a count
//! ([`Solver::differs_at`]). Removing givens only adds solutions, so a given
//! that could not be removed at some point can never be removed later: without
//! symmetry the result is minimal after one pass.

use super::{Candidate, Symmetry};
use crate::bitset::sudoku::Solver;
use crate::grid::{Puzzle, Solution};
use rand::Rng;
use rand::seq::SliceRandom;

/// Cell values with the `n` diagonal boxes filled with independent random
/// permutations of the digits.
pub(crate) fn random_diagonal_boxes(n: usize, rng: &mut impl Rng) -> Vec<u8> {
    let side = n * n;
    let mut values = vec![0u8; side * side];
    let mut digits: Vec<u8> = (1..=side as u8).collect();
    for b in 0..n {
        digits.shuffle(rng);
        for (i, &d) in digits.iter().enumerate() {
            let (r, c) = (b * n + i / n, b * n + i % n);
            values[r * side + c] = d;
        }
    }
    values
}

/// A seeded random solution grid of order `n` (2..=4).
pub(crate) fn random_solution(solver: &mut Solver, rng: &mut impl Rng) -> Solution {
    let n = solver.order();
    loop {
        let values = random_diagonal_boxes(n, rng);
        // Diagonal boxes share no unit, so every such start has completions.
        if let Some(full) = solver.random_solution(&values, rng.r#gen())
            && let Some(s) = Solution::from_cells(n, full)
        {
            return s;
        }
    }
}

/// Tries every orbit of `values` once, in random order, removing it when
/// `stays_unique(values_after, removed_cells)` holds and putting it back
/// otherwise. Orbits with an empty cell are skipped. Returns the orbits
/// removed (indices into `orbits`), in the order of removal.
pub(crate) fn remove_orbits(
    values: &mut [u8],
    orbits: &[Vec<usize>],
    rng: &mut impl Rng,
    mut stays_unique: impl FnMut(&[u8], &[usize]) -> bool,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    order.shuffle(rng);
    let mut saved = Vec::new();
    let mut removed = Vec::with_capacity(orbits.len());
    for i in order {
        let orbit = &orbits[i];
        if orbit.iter().any(|&c| values[c] == 0) {
            continue;
        }
        saved.clear();
        saved.extend(orbit.iter().map(|&c| values[c]));
        for &c in orbit {
            values[c] = 0;
        }
        if stays_unique(values, orbit) {
            removed.push(i);
        } else {
            for (&c, &v) in orbit.iter().zip(&saved) {
                values[c] = v;
            }
        }
    }
    removed
}

/// A minimal unique puzzle (minimal over orbits with a symmetry) of order
/// `n` from a random solution grid, checked by the bitset search.
pub(crate) fn minimal_puzzle(n: usize, symmetry: Symmetry, rng: &mut impl Rng) -> Candidate {
    minimal_puzzle_traced(n, symmetry, rng).0
}

/// [`minimal_puzzle`] with the orbits it removed, in the order of removal
/// (indices into `symmetry.orbits(n * n)`). Every prefix of the sequence
/// leaves a unique puzzle: the solution grid without those orbits, each
/// step at least as hard for a human as the one before it in most cases.
pub(crate) fn minimal_puzzle_traced(
    n: usize,
    symmetry: Symmetry,
    rng: &mut impl Rng,
) -> (Candidate, Vec<usize>) {
    let mut solver = Solver::new(n);
    let solution = random_solution(&mut solver, rng);
    let orbits = symmetry.orbits_cached(n * n);
    let mut values = solution.cells().to_vec();
    let s = solution.cells();
    let g = crate::grid::Geometry::of(n);
    let all = g.all_digits();
    let removed = remove_orbits(&mut values, &orbits, rng, |v, removed| {
        // A lone removed cell whose peers give every other digit is forced:
        // no search needed.
        match removed {
            [cell]
                if g.peers[*cell].iter().fold(0u32, |m, &p| m | 1 << v[p]) & all
                    == all & !(1 << s[*cell]) =>
            {
                true
            }
            _ => !solver.differs_at(v, s, removed),
        }
    });
    let puzzle = match Puzzle::from_cells(n, values) {
        Ok(p) => p,
        Err(_) => unreachable!("values of a solution grid of order {n}"),
    };
    (Candidate { puzzle, solution }, removed)
}

/// `c` reduced to a minimal puzzle: its givens tried once each in random
/// order, each removed when the solution stays unique (the removal test of
/// [`minimal_puzzle`]).
pub(crate) fn minimize(c: &Candidate, rng: &mut impl Rng) -> Candidate {
    let n = c.puzzle.order();
    let mut solver = Solver::new(n);
    let mut values = c.puzzle.cells().to_vec();
    let s = c.solution.cells();
    remove_orbits(
        &mut values,
        &Symmetry::None.orbits(n * n),
        rng,
        |v, removed| !solver.differs_at(v, s, removed),
    );
    let puzzle = match Puzzle::from_cells(n, values) {
        Ok(p) => p,
        Err(_) => unreachable!("givens of a puzzle of order {n}"),
    };
    Candidate {
        puzzle,
        solution: c.solution.clone(),
    }
}

/// True when `puzzle`, whose unique solution is `solution`, loses
/// uniqueness when any single given is removed.
pub(crate) fn is_minimal(puzzle: &Puzzle, solution: &Solution) -> bool {
    let mut solver = Solver::new(puzzle.order());
    let mut values = puzzle.cells().to_vec();
    (0..values.len()).all(|cell| {
        let v = values[cell];
        if v == 0 {
            return true;
        }
        values[cell] = 0;
        let other = solver.has_other_solution(&values, cell, solution.get(cell));
        values[cell] = v;
        other
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, Engines};
    use crate::grid::parse_puzzle;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    #[test]
    fn has_other_solution_matches_sat_counting() {
        // Each removal question agrees with a SAT count of the puzzle
        // without that given.
        let sat = Engines::one(Engine::Sat);
        let mut rng = SeededRng::seed_from_u64(7);
        let mut solver = Solver::new(3);
        let mut checked = (0, 0);
        for _ in 0..6 {
            let c = minimal_puzzle(3, Symmetry::None, &mut rng);
            let mut values = c.puzzle.cells().to_vec();
            // The minimal puzzle plus a few solution cells: some removals
            // keep uniqueness, some do not.
            for cell in (0..81).step_by(7) {
                values[cell] = c.solution.get(cell);
            }
            for cell in 0..81 {
                let v = values[cell];
                if v == 0 {
                    continue;
                }
                values[cell] = 0;
                let other = solver.has_other_solution(&values, cell, v);
                let p = Puzzle::from_cells(3, values.clone()).unwrap();
                let count = sat.count(&p, 2).unwrap().solutions;
                assert_eq!(other, count > 1, "{p} without r{}c{}", cell / 9, cell % 9);
                if other {
                    checked.0 += 1;
                } else {
                    checked.1 += 1;
                }
                values[cell] = v;
            }
        }
        assert!(checked.0 > 50 && checked.1 > 10, "{checked:?}");
    }

    #[test]
    fn known_puzzle_removals() {
        // Golden Nugget is minimal: every given is needed.
        let p = parse_puzzle(
            ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
        )
        .unwrap();
        let s = crate::bitset::sudoku::solve(&p).unwrap();
        assert!(is_minimal(&p, &s));
        let mut more = p.clone();
        more.set(0, s.get(0));
        assert!(!is_minimal(&more, &s));
    }

    #[test]
    fn minimal_puzzles_of_every_order() {
        for (n, seed) in [(2, 1), (3, 2), (4, 3)] {
            let mut rng = SeededRng::seed_from_u64(seed);
            let c = minimal_puzzle(n, Symmetry::None, &mut rng);
            assert!(c.solution.solves(&c.puzzle));
            assert_eq!(crate::bitset::sudoku::count(&c.puzzle, 2).solutions, 1);
            assert!(
                is_minimal(&c.puzzle, &c.solution),
                "order {n}: {}",
                c.puzzle
            );
            let side = n * n;
            assert!(
                c.puzzle.givens() < side * side / 2,
                "order {n}: {}",
                c.puzzle
            );
        }
    }

    #[test]
    fn symmetric_puzzles_keep_their_symmetry() {
        for sym in [
            Symmetry::Rot180,
            Symmetry::Rot90,
            Symmetry::Diagonal,
            Symmetry::Mirror,
        ] {
            let mut rng = SeededRng::seed_from_u64(11);
            let c = minimal_puzzle(3, sym, &mut rng);
            assert_eq!(crate::bitset::sudoku::count(&c.puzzle, 2).solutions, 1);
            for orbit in sym.orbits(9) {
                let given: Vec<bool> = orbit.iter().map(|&x| c.puzzle.is_given(x)).collect();
                assert!(given.iter().all(|&g| g == given[0]), "{sym}: {}", c.puzzle);
            }
        }
    }

    #[test]
    fn the_removal_sequence_leads_to_the_puzzle_through_unique_prefixes() {
        for (sym, seed) in [(Symmetry::None, 3), (Symmetry::Rot180, 4)] {
            let plain = minimal_puzzle(3, sym, &mut SeededRng::seed_from_u64(seed));
            let (c, removed) = minimal_puzzle_traced(3, sym, &mut SeededRng::seed_from_u64(seed));
            assert_eq!(c, plain);
            let orbits = sym.orbits(9);
            let mut values = c.solution.cells().to_vec();
            for (k, &o) in removed.iter().enumerate() {
                for &cell in &orbits[o] {
                    assert_ne!(values[cell], 0, "orbit {o} removed twice");
                    values[cell] = 0;
                }
                if k % 8 == 0 {
                    let p = Puzzle::from_cells(3, values.clone()).unwrap();
                    assert_eq!(crate::sat::count(&p, 2).solutions, 1, "prefix {k}");
                }
            }
            assert_eq!(values, c.puzzle.cells());
        }
    }

    #[test]
    fn same_seed_same_puzzle() {
        let a = minimal_puzzle(3, Symmetry::None, &mut SeededRng::seed_from_u64(5));
        let b = minimal_puzzle(3, Symmetry::None, &mut SeededRng::seed_from_u64(5));
        let c = minimal_puzzle(3, Symmetry::None, &mut SeededRng::seed_from_u64(6));
        assert_eq!(a, b);
        assert_ne!(a.puzzle, c.puzzle);
    }
}
