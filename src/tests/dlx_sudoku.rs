//! Sudoku by Dancing Links and by the bitset fast path, against hand-counted
//! 4×4 cases and an independent backtracking counter.

use super::dlx_common;

use crate::SeededRng;
use crate::bitset::sudoku;
use crate::dlx::sudoku::{
    SudokuDlx, count as dlx_count, solutions as dlx_solutions, solve as dlx_solve,
};
use crate::{Count, Puzzle, Solution};
use dlx_common::{from_cells, puzzle, random_puzzle, reference_count};
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// The first puzzles of magictour's "top 1465" (tdoku benchmarks): hard,
/// each with a unique solution.
const HARD: &[&str] = &[
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
    "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6.....",
    "5..7..6....38...........2..62.4............917............35.8.4.....1......9....",
    "4..7..6....38...........2..62.5............917............43.8.5.....1......9....",
    ".4..1.2.......9.7..1..........43.6..8......5....2.....7.5..8......6..3..9........",
    "7.5.....2...4.1...3.........1.6..4..2...5...........9....37.....8....6...9.....8.",
    "......41.9..3.....3...5.....48..7..........62.1.......6..2....5.7....8......9....",
    ".8..1......5....3.......4.....6.5.7.89....2.....3.....2.....1.9..67........4.....",
    "1...48....5....9....6...3.....57.2..8.3.........9............4167..........2.....",
    ".1.62....5......43....9....7......8...5.....4...1..........36...9....2..8....7...",
];

fn assert_valid_distinct(p: &Puzzle, sols: &[Solution]) {
    for s in sols {
        assert!(s.solves(p), "{s} does not solve {p}");
    }
    let distinct: BTreeSet<&[u8]> = sols.iter().map(|s| s.cells()).collect();
    assert_eq!(distinct.len(), sols.len(), "repeated solution for {p}");
}

#[test]
fn four_by_four_counts_by_hand() {
    // Empty grid: the known 288 = 4! · 12 solutions.
    let empty = Puzzle::empty(2);
    assert_eq!(sudoku::count(&empty, 0), Count::from_found(288, 0));
    assert_eq!(dlx_count(&empty, 0), Count::from_found(288, 0));
    // Relabelling digits permutes solutions: one given keeps 288/4, two
    // different givens in a row keep 288/(4·3).
    let one = puzzle("1...............");
    assert_eq!(sudoku::count(&one, 0).solutions, 72);
    assert_eq!(dlx_count(&one, 0).solutions, 72);
    let two = puzzle("12..............");
    assert_eq!(sudoku::count(&two, 0).solutions, 24);
    assert_eq!(dlx_count(&two, 0).solutions, 24);
    // 1234/3412/2143/4321 with the rectangle r1c1, r1c2, r3c1, r3c2 blanked:
    // the 1/2 swap gives exactly two solutions.
    let grid = "1234341221434321";
    assert_eq!(sudoku::count(&puzzle(grid), 0).solutions, 1);
    let rect = puzzle("..343412..434321");
    let sols = sudoku::solutions(&rect, 0);
    assert_eq!(sols.len(), 2);
    assert_valid_distinct(&rect, &sols);
    assert_eq!(dlx_solutions(&rect, 0).len(), 2);
    // Capped counts.
    assert_eq!(
        sudoku::count(&rect, 2),
        Count {
            solutions: 2,
            capped: true
        }
    );
    assert_eq!(sudoku::count(&rect, 3), Count::from_found(2, 3));
    // Clashing givens (two 1s in row 1) and a cell without candidate
    // (r1c4 sees 1, 2, 3 in its row and 4 in its column).
    for bad in ["1..1............", "123............4"] {
        let p = puzzle(bad);
        assert_eq!(sudoku::count(&p, 0).solutions, 0, "{bad}");
        assert_eq!(dlx_count(&p, 0).solutions, 0, "{bad}");
        assert_eq!(sudoku::solve(&p), None);
        assert_eq!(dlx_solve(&p), None);
        assert!(sudoku::solutions(&p, 0).is_empty());
    }
}

#[test]
fn hard_puzzles_are_unique() {
    let mut dlx = SudokuDlx::new(3);
    for s in HARD {
        let p = puzzle(s);
        assert_eq!(sudoku::count(&p, 2), Count::from_found(1, 2), "{s}");
        assert!(dlx.load(&p));
        assert_eq!(dlx.count(2), Count::from_found(1, 2), "{s}");
        let a = sudoku::solve(&p);
        let b = dlx.solve();
        assert!(a.as_ref().is_some_and(|a| a.solves(&p)));
        assert_eq!(a, b);
        assert_eq!(reference_count(&p, 2), 1);
    }
}

#[test]
fn random_9x9_puzzles_match_reference() {
    let mut rng = SeededRng::seed_from_u64(9);
    let cap = 25;
    let mut multi = 0;
    let mut unique = 0;
    let mut dlx = SudokuDlx::new(3);
    for i in 0..400 {
        let keep = [0.25, 0.3, 0.35, 0.45][i % 4];
        let p = random_puzzle(3, keep, &mut rng);
        let expected = reference_count(&p, cap);
        let fast = sudoku::count(&p, cap);
        assert_eq!(fast, Count::from_found(expected, cap), "{p}");
        assert!(dlx.load(&p));
        assert_eq!(dlx.count(cap), fast, "{p}");
        let sols = sudoku::solutions(&p, cap);
        assert_eq!(sols.len() as u64, expected);
        assert_valid_distinct(&p, &sols);
        if expected < cap {
            let a: BTreeSet<Vec<u8>> = sols.iter().map(|s| s.cells().to_vec()).collect();
            let b: BTreeSet<Vec<u8>> = dlx
                .solutions(0)
                .iter()
                .map(|s| s.cells().to_vec())
                .collect();
            assert_eq!(a, b, "{p}");
        }
        match expected {
            1 => unique += 1,
            e if e > 1 => multi += 1,
            _ => {}
        }
    }
    // The sample covers both kinds.
    assert!(unique > 20 && multi > 20, "unique {unique} multi {multi}");
}

#[test]
fn random_4x4_puzzles_match_reference_exactly() {
    let mut rng = SeededRng::seed_from_u64(4);
    let mut zero = 0;
    for _ in 0..2000 {
        // Random givens, not from a grid: many are contradictory.
        let cells: Vec<u8> = (0..16)
            .map(|_| {
                if rng.gen_bool(0.3) {
                    rng.gen_range(1..=4)
                } else {
                    0
                }
            })
            .collect();
        let p = from_cells(2, cells);
        let expected = reference_count(&p, 0);
        assert_eq!(sudoku::count(&p, 0), Count::from_found(expected, 0), "{p}");
        assert_eq!(dlx_count(&p, 0), Count::from_found(expected, 0), "{p}");
        let sols = sudoku::solutions(&p, 0);
        assert_eq!(sols.len() as u64, expected);
        assert_valid_distinct(&p, &sols);
        let a: BTreeSet<Vec<u8>> = sols.iter().map(|s| s.cells().to_vec()).collect();
        let b: BTreeSet<Vec<u8>> = dlx_solutions(&p, 0)
            .iter()
            .map(|s| s.cells().to_vec())
            .collect();
        assert_eq!(a, b);
        zero += usize::from(expected == 0);
    }
    assert!(zero > 100, "only {zero} contradictory puzzles");
}

#[test]
fn larger_orders() {
    let mut rng = SeededRng::seed_from_u64(16);
    for _ in 0..20 {
        let p = random_puzzle(4, 0.6, &mut rng);
        let expected = reference_count(&p, 5);
        assert_eq!(sudoku::count(&p, 5), Count::from_found(expected, 5), "{p}");
        assert_eq!(dlx_count(&p, 5), Count::from_found(expected, 5), "{p}");
        assert_valid_distinct(&p, &sudoku::solutions(&p, 5));
    }
    for n in [3, 4, 5] {
        let empty = Puzzle::empty(n);
        let capped = Count {
            solutions: 2,
            capped: true,
        };
        assert_eq!(sudoku::count(&empty, 2), capped, "order {n}");
        assert_eq!(dlx_count(&empty, 2), capped, "order {n}");
        let s = sudoku::solve(&empty);
        assert!(s.is_some_and(|s| s.solves(&empty)));
        let s = dlx_solve(&empty);
        assert!(s.is_some_and(|s| s.solves(&empty)));
    }
    // A 25×25 puzzle with 30% of its cells blanked: what is found is valid
    // and both engines count alike.
    let p = random_puzzle(5, 0.7, &mut rng);
    let sols = sudoku::solutions(&p, 3);
    assert!(!sols.is_empty());
    assert_valid_distinct(&p, &sols);
    assert_eq!(dlx_count(&p, 3), sudoku::count(&p, 3));
}

#[test]
fn reuse_and_wrong_order() {
    let mut dlx = SudokuDlx::new(2);
    assert!(dlx.load(&puzzle("..343412..434321")));
    assert_eq!(dlx.count(0).solutions, 2);
    assert!(!dlx.load(&puzzle("1..1............")));
    assert_eq!(dlx.count(0).solutions, 0);
    assert!(dlx.load(&Puzzle::empty(2)));
    assert_eq!(dlx.count(0).solutions, 288);
    assert!(!dlx.load(&Puzzle::empty(3)));
    assert_eq!(dlx.count(0).solutions, 0);
    assert_eq!(dlx.solve(), None);
}
