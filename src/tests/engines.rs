//! The three engines (varisat, Dancing Links and the bitset search) agree on
//! solution counts of thousands of puzzles: unique ones, ones with cells
//! removed (multiple solutions) and contradictory ones.

use super::common;

use crate::SudokuEngine;
use crate::engine::{Engines, Status};
use common::Rng;

fn count(p: &Puzzle, cap: u64) -> Result<crate::Count, crate::Disagreement> {
    Engines::all().count(p, cap)
}
use crate::grid::Puzzle;

fn variants(p: &Puzzle, rng: &mut Rng) -> Vec<Puzzle> {
    let mut out = vec![p.clone()];
    // Remove 1..=6 givens: usually multiple solutions.
    let givens: Vec<usize> = (0..81).filter(|&c| p.is_given(c)).collect();
    let mut q = p.clone();
    for _ in 0..1 + rng.below(6) {
        q.set(givens[rng.below(givens.len())], 0);
    }
    out.push(q);
    // Add a wrong given in an empty cell: usually contradictory or no solution.
    let sol = crate::sat::Sat.solve(p).expect("solvable");
    let empty: Vec<usize> = (0..81).filter(|&c| !p.is_given(c)).collect();
    let mut r = p.clone();
    let cell = empty[rng.below(empty.len())];
    let wrong = 1 + ((sol.get(cell) as usize + rng.below(8)) % 9) as u8;
    r.set(
        cell,
        if wrong == sol.get(cell) {
            wrong % 9 + 1
        } else {
            wrong
        },
    );
    out.push(r);
    out
}

#[test]
fn sat_dlx_and_bitset_agree_on_thousands_of_puzzles() {
    let base = common::fixture("unique.txt");
    let mut rng = Rng(0x5eed);
    let mut statuses = [0usize; 3];
    let mut n = 0;
    for round in 0..4 {
        for p in &base {
            for v in variants(p, &mut rng) {
                let cap = if round % 2 == 0 { 2 } else { 50 };
                let c = count(&v, cap).unwrap_or_else(|d| panic!("{d}"));
                statuses[Status::from_count(c.solutions) as usize] += 1;
                n += 1;
            }
        }
    }
    assert!(n >= 4000, "{n}");
    // All three kinds are exercised.
    assert!(statuses.iter().all(|&s| s > 100), "{statuses:?}");
}

#[test]
fn serg_benchmark_counts_agree() {
    let mut multiple = 0;
    for p in common::fixture("serg.txt") {
        let c = count(&p, 1000).unwrap_or_else(|d| panic!("{d}"));
        if c.solutions > 1 {
            multiple += 1;
        }
    }
    assert!(multiple > 0, "serg's benchmark has multi-solution puzzles");
}

#[test]
fn known_counts() {
    assert_eq!(count(&Puzzle::empty(2), 0).unwrap().solutions, 288);
    let c = count(&Puzzle::empty(3), 100).unwrap();
    assert!(c.capped && c.solutions == 100);
    for p in crate::grid::Puzzle::examples() {
        let s = Engines::all().solve(&p).unwrap().unwrap();
        assert!(s.solves(&p));
    }
}

/// The 9×9 digit-bitboard fast path of `bitset::sudoku` against the general
/// cell-mask search: the same counts (caps 2, 50 and exact on puzzles with
/// up to a few thousand solutions) and the same solutions in the same
/// order, on thousands of unique, multi-solution and contradictory grids.
#[test]
fn bitset_9x9_fast_path_matches_the_cell_mask_search() {
    use crate::bitset::sudoku;
    let base = common::fixture("unique.txt");
    let mut rng = Rng(0xb0a7d);
    let mut n = 0;
    let mut multiple = 0;
    for p in base.iter().cycle().take(3 * base.len()) {
        let mut grids = variants(p, &mut rng);
        // Many removed givens: hundreds or thousands of solutions.
        let mut q = p.clone();
        for _ in 0..8 + rng.below(10) {
            q.set(rng.below(81), 0);
        }
        grids.push(q);
        for v in grids {
            for cap in [2, 50, 5000] {
                let fast = sudoku::count(&v, cap);
                assert_eq!(fast, sudoku::count_general(&v, cap), "cap {cap}: {v:?}");
                multiple += usize::from(fast.solutions > 1);
            }
            assert_eq!(
                sudoku::solutions(&v, 20),
                sudoku::solutions_general(&v, 20),
                "{v:?}"
            );
            n += 1;
        }
    }
    assert!(n >= 4000, "{n}");
    assert!(multiple > 1000, "{multiple}");
    assert_eq!(sudoku::count(&Puzzle::empty(3), 100).solutions, 100);
}

/// The generators' solver answers 9×9 questions on the digit bitboards:
/// "another solution with this cell's value forbidden", the first solution
/// differing at some removed cells (the same one, so generated puzzles do
/// not change), and capped counts, as the cell-mask search answers them.
#[test]
fn generator_solver_9x9_fast_path_matches_the_cell_mask_search() {
    use crate::bitset::sudoku::Solver;
    let base = common::fixture("unique.txt");
    let mut rng = Rng(0x50f7);
    let (mut fast, mut slow) = (Solver::new(3), Solver::cell_masks(3));
    let (mut n, mut other) = (0, 0);
    for p in base.iter().cycle().take(4 * base.len()) {
        let sol = crate::sat::Sat.solve(p).expect("solvable");
        let solution = sol.cells();
        let mut values = p.cells().to_vec();
        let removed: Vec<usize> = (0..1 + rng.below(6))
            .map(|_| rng.below(81))
            .filter(|&c| values[c] != 0)
            .collect();
        for &c in &removed {
            values[c] = 0;
        }
        let empty: Vec<usize> = (0..81).filter(|&c| values[c] == 0).collect();
        let cell = empty[rng.below(empty.len())];
        let value = 1 + rng.below(9) as u8;
        let f = fast.has_other_solution(&values, cell, value);
        assert_eq!(
            f,
            slow.has_other_solution(&values, cell, value),
            "{p:?} {cell} {value}"
        );
        other += usize::from(f);
        assert_eq!(
            fast.differing_solution(&values, solution, &removed, true),
            slow.differing_solution(&values, solution, &removed, true),
            "{p:?} {removed:?}"
        );
        for cap in [2, 50] {
            assert_eq!(fast.count(&values, cap), slow.count(&values, cap));
        }
        n += 1;
    }
    assert!(n >= 1000, "{n}");
    assert!(other > 100 && other < n, "{other} of {n}");
    // A value that is no digit forbids nothing: the puzzle's own solution
    // counts as "another" one, at every order and on both searches.
    for n in [2usize, 3, 4] {
        let empty = vec![0u8; n.pow(4)];
        for solver in [&mut Solver::new(n), &mut Solver::cell_masks(n)] {
            for value in [0, (n * n + 1) as u8, u8::MAX] {
                assert!(
                    solver.has_other_solution(&empty, 0, value),
                    "order {n}, value {value}"
                );
            }
        }
    }
}

/// The 9×9 count (what `check`, `count` and the generators' existence
/// questions use: the box vectors, or the band boards on a processor
/// without AVX-512) against the band boards, the digit-bitboard count with
/// locked candidates, the cell-mask search and Dancing Links: the same
/// capped counts on thousands of partial grids (unique, multiple and
/// without solution), and on every puzzle of the shared top1465,
/// forum-hardest (both) and 17-clue sets.
#[test]
fn bitset_9x9_band_boards_match_the_other_searches() {
    use crate::bitset::sudoku;
    use crate::dlx::Dlx;
    let base = common::fixture("unique.txt");
    let mut rng = Rng(0xba9d);
    let (mut n, mut kinds) = (0, [0usize; 3]);
    for p in base.iter().cycle().take(12 * base.len()) {
        let sol = crate::sat::Sat.solve(p).expect("solvable");
        // In turn: the puzzle with some of its solution's cells added
        // (unique), a random subset of the solution (mostly multiple), and
        // a larger subset with one wrong digit (mostly none).
        let (mut q, added) = match n % 3 {
            0 => (p.clone(), rng.below(10)),
            1 => (Puzzle::empty(3), 15 + rng.below(25)),
            _ => (Puzzle::empty(3), 35 + rng.below(25)),
        };
        for _ in 0..added {
            let c = rng.below(81);
            q.set(c, sol.get(c));
        }
        if n % 3 == 2 {
            let c = rng.below(81);
            q.set(c, sol.get(c) % 9 + 1);
        }
        for cap in [2, 50, 5000] {
            let band = sudoku::count(&q, cap);
            assert_eq!(band, sudoku::count_band_boards(&q, cap), "cap {cap}: {q:?}");
            assert_eq!(
                band,
                sudoku::count_digit_boards(&q, cap),
                "cap {cap}: {q:?}"
            );
            assert_eq!(band, sudoku::count_general(&q, cap), "cap {cap}: {q:?}");
            if cap == 50 {
                assert_eq!(band, Dlx.count(&q, cap), "cap {cap}: {q:?}");
                kinds[Status::from_count(band.solutions) as usize] += 1;
            }
        }
        n += 1;
    }
    assert!(n >= 4000, "{n}");
    assert!(kinds.iter().all(|&k| k > 200), "{kinds:?}");
    for file in [
        "tdoku-benchmarks/tdoku-magictour-top1465.txt",
        "tdoku-benchmarks/tdoku-forum-hardest-1106.txt",
        "tdoku-benchmarks/tdoku-forum-hardest-1905-11plus.txt",
        "tdoku-benchmarks/tdoku-17clue.txt",
    ] {
        let Some(text) = common::shared_data(file) else {
            continue;
        };
        let puzzles: Vec<Puzzle> = crate::grid::read_puzzles(&text)
            .into_iter()
            .map(|r| r.expect("parses").1)
            .collect();
        assert!(puzzles.len() > 300, "{file}");
        for (i, p) in puzzles.iter().enumerate() {
            let band = sudoku::count(p, 2);
            assert_eq!(band.solutions, 1, "{file}: {p:?}");
            assert_eq!(band, sudoku::count_digit_boards(p, 2), "{file}: {p:?}");
            assert_eq!(band, sudoku::count_band_boards(p, 2), "{file}: {p:?}");
            if i % 25 == 0 {
                assert_eq!(band, Dlx.count(p, 2), "{file}: {p:?}");
            }
        }
    }
}
