//! What the human models need from a search.
//!
//! * [`solve`] finds the solution of a puzzle and tells whether it is unique,
//!   through the engine interface ([`crate::engine`], the default engine), so
//!   `rate` and `check` always agree. The refutation (SiSuS) and oracle models
//!   need the solution; every model needs to know the puzzle is proper.
//! * [`plain_dfs_backtracks`] is the "backtracking" baseline of Pelánek
//!   (Table 3): a plain depth-first search that fills empty cells in row-major
//!   order, tries digits in increasing order (a pencilmark grid's candidates
//!   only), checks only that the digit is not
//!   already in the row, column or box, and counts how many times it has to
//!   undo an assignment before reaching the solution.

use crate::engine::Engines;
use crate::grid::{Puzzle, Solution};

/// What the search learned about a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Solved {
    /// Exactly one solution.
    Unique(Solution),
    /// At least two solutions (the search stops at two).
    Multiple,
    /// No solution.
    None,
}

struct Search {
    n: usize,
    side: usize,
    values: Vec<u8>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    boxes: Vec<u32>,
}

impl Search {
    fn new(p: &Puzzle) -> Option<Search> {
        let side = p.side();
        let n = p.order();
        let mut s = Search {
            n,
            side,
            values: p.cells().to_vec(),
            rows: vec![0; side],
            cols: vec![0; side],
            boxes: vec![0; side],
        };
        for cell in 0..side * side {
            let v = s.values[cell];
            if v != 0 {
                let (r, c, b) = s.rcb(cell);
                let bit = 1u32 << v;
                if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
                    return None;
                }
                s.rows[r] |= bit;
                s.cols[c] |= bit;
                s.boxes[b] |= bit;
            }
        }
        Some(s)
    }

    fn rcb(&self, cell: usize) -> (usize, usize, usize) {
        let (r, c) = (cell / self.side, cell % self.side);
        (r, c, (r / self.n) * self.n + c / self.n)
    }

    fn all(&self) -> u32 {
        ((1u64 << (self.side + 1)) - 2) as u32
    }
}

/// Solves a puzzle and checks uniqueness with the default engine.
pub(crate) fn solve(puzzle: &Puzzle) -> Solved {
    let engine = Engines::default().primary().implementation();
    match engine.count(puzzle, 2).solutions {
        0 => Solved::None,
        1 => engine.solve(puzzle).map_or(Solved::None, Solved::Unique),
        _ => Solved::Multiple,
    }
}

/// Number of undone assignments of a plain row-major DFS before it finds the
/// first solution. `Err(count)` when the search gave up after `cap` undos or
/// found no solution at all.
pub(crate) fn plain_dfs_backtracks(puzzle: &Puzzle, cap: u64) -> Result<u64, u64> {
    let Some(s) = Search::new(puzzle) else {
        return Err(0);
    };
    let all = s.all();
    // Unit indices of each empty cell, in row-major order, and the digits
    // it may take: every digit, or a pencilmark grid's candidates.
    let slots: Vec<(usize, usize, usize)> = (0..s.side * s.side)
        .filter(|&c| s.values[c] == 0)
        .map(|c| s.rcb(c))
        .collect();
    let listed: Vec<u32> = (0..s.side * s.side)
        .filter(|&c| s.values[c] == 0)
        .map(|c| puzzle.pencilmarks().map_or(all, |m| m[c]))
        .collect();
    if slots.is_empty() {
        return Ok(0);
    }
    let (mut rows, mut cols, mut boxes) = (s.rows, s.cols, s.boxes);
    // Per depth: digits still to try, and the digit bit currently placed.
    let mut remaining = vec![0u32; slots.len()];
    let mut placed = vec![0u32; slots.len()];
    let mut backtracks = 0u64;
    let mut depth = 0usize;
    let (r, c, b) = slots[0];
    remaining[0] = listed[0] & !(rows[r] | cols[c] | boxes[b]);
    loop {
        let (r, c, b) = slots[depth];
        let cur = placed[depth];
        if cur != 0 {
            rows[r] &= !cur;
            cols[c] &= !cur;
            boxes[b] &= !cur;
            placed[depth] = 0;
        }
        let m = remaining[depth];
        if m == 0 {
            if depth == 0 {
                return Err(backtracks);
            }
            depth -= 1;
            backtracks += 1;
            if backtracks >= cap {
                return Err(backtracks);
            }
            continue;
        }
        let bit = m & m.wrapping_neg();
        remaining[depth] = m & !bit;
        placed[depth] = bit;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
        if depth + 1 == slots.len() {
            return Ok(backtracks);
        }
        depth += 1;
        let (r, c, b) = slots[depth];
        remaining[depth] = listed[depth] & !(rows[r] | cols[c] | boxes[b]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn solves_and_checks_uniqueness() {
        let p = parse_puzzle(EASY).unwrap();
        match solve(&p) {
            Solved::Unique(s) => {
                assert!(s.solves(&p));
                assert_eq!(&s.to_line()[..9], "483921657");
            }
            other => panic!("expected unique, got {other:?}"),
        }
        assert_eq!(solve(&Puzzle::empty(3)), Solved::Multiple);
        let mut bad = Puzzle::empty(3);
        bad.set(0, 1);
        bad.set(1, 1);
        assert_eq!(solve(&bad), Solved::None);
    }

    #[test]
    fn plain_dfs_counts_backtracks() {
        let p = parse_puzzle(EASY).unwrap();
        let b = plain_dfs_backtracks(&p, 1_000_000).unwrap();
        assert!(b > 0);
        // A full grid needs no search; a solved grid minus one cell none either.
        let Solved::Unique(s) = solve(&p) else {
            panic!()
        };
        let mut q = s.to_puzzle();
        assert_eq!(plain_dfs_backtracks(&q, 10), Ok(0));
        q.set(0, 0);
        assert_eq!(plain_dfs_backtracks(&q, 10), Ok(0));
        assert!(plain_dfs_backtracks(&p, 1).is_err());
    }

    /// On a pencilmark grid the search tries a cell's candidates only: with
    /// each empty cell's solution digit its lowest candidate, it never
    /// backtracks, where the givens alone cost it hundreds.
    #[test]
    fn plain_dfs_tries_a_pencilmark_grids_candidates_only() {
        let p = parse_puzzle(EASY).unwrap();
        let Solved::Unique(s) = solve(&p) else {
            panic!()
        };
        let all = p.geometry().all_digits();
        let marks = (0..81)
            .map(|c| match p.get(c) {
                0 => all & !((1u32 << s.get(c)) - 1),
                v => 1 << v,
            })
            .collect();
        let pm = Puzzle::from_pencilmarks(3, marks).unwrap();
        assert!(plain_dfs_backtracks(&p, 1_000_000).unwrap() > 100);
        assert_eq!(plain_dfs_backtracks(&pm, 1_000_000), Ok(0));
    }
}
