//! Helpers shared by the `dlx_*` integration tests.
#![allow(dead_code)]

use crate::Puzzle;
use crate::SeededRng;
use crate::grid::parse_puzzle;
use rand::Rng;
use rand::seq::SliceRandom;

pub(crate) fn puzzle(s: &str) -> Puzzle {
    match parse_puzzle(s) {
        Ok(p) => p,
        Err(e) => panic!("bad test puzzle {s}: {e}"),
    }
}

/// Independent reference: plain backtracking with row/column/box masks,
/// branching on a cell with the fewest candidates, counting up to `cap`.
pub(crate) fn reference_count(p: &Puzzle, cap: u64) -> u64 {
    let n = p.order();
    let side = n * n;
    let mut cells = p.cells().to_vec();
    let mut rows = vec![0u32; side];
    let mut cols = vec![0u32; side];
    let mut boxes = vec![0u32; side];
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let (r, c) = (i / side, i % side);
            let b = (r / n) * n + c / n;
            let bit = 1 << v;
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return 0;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    fn go(
        n: usize,
        cells: &mut [u8],
        rows: &mut [u32],
        cols: &mut [u32],
        boxes: &mut [u32],
        found: &mut u64,
        cap: u64,
    ) {
        let side = n * n;
        let all = ((1u64 << (side + 1)) - 2) as u32;
        let mut best = None;
        let mut best_k = u32::MAX;
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                let (r, c) = (i / side, i % side);
                let free = all & !(rows[r] | cols[c] | boxes[(r / n) * n + c / n]);
                if free.count_ones() < best_k {
                    best_k = free.count_ones();
                    best = Some((i, free));
                }
            }
        }
        let Some((i, free)) = best else {
            *found += 1;
            return;
        };
        let (r, c) = (i / side, i % side);
        let b = (r / n) * n + c / n;
        for v in 1..=side {
            let bit = 1u32 << v;
            if free & bit == 0 {
                continue;
            }
            cells[i] = v as u8;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
            go(n, cells, rows, cols, boxes, found, cap);
            rows[r] &= !bit;
            cols[c] &= !bit;
            boxes[b] &= !bit;
            cells[i] = 0;
            if cap > 0 && *found >= cap {
                return;
            }
        }
    }
    let mut found = 0;
    go(
        n, &mut cells, &mut rows, &mut cols, &mut boxes, &mut found, cap,
    );
    found
}

/// A random solution grid of order `n`: a pattern grid shuffled by the
/// validity-preserving symmetries (digits, rows within bands, bands, columns
/// within stacks, stacks, transposition).
pub(crate) fn random_grid(n: usize, rng: &mut SeededRng) -> Vec<u8> {
    let side = n * n;
    let pattern = |r: usize, c: usize| (n * (r % n) + r / n + c) % side;
    let mut digits: Vec<u8> = (1..=side as u8).collect();
    digits.shuffle(rng);
    let line_order = |rng: &mut SeededRng| {
        let mut bands: Vec<usize> = (0..n).collect();
        bands.shuffle(rng);
        let mut order = Vec::with_capacity(side);
        for b in bands {
            let mut within: Vec<usize> = (0..n).collect();
            within.shuffle(rng);
            order.extend(within.into_iter().map(|i| b * n + i));
        }
        order
    };
    let rows = line_order(rng);
    let cols = line_order(rng);
    let transpose = rng.gen_bool(0.5);
    let mut out = vec![0u8; side * side];
    for r in 0..side {
        for c in 0..side {
            let (pr, pc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            out[r * side + c] = digits[pattern(pr, pc)];
        }
    }
    out
}

pub(crate) fn from_cells(n: usize, cells: Vec<u8>) -> Puzzle {
    match Puzzle::from_cells(n, cells) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

/// A random puzzle: a random grid with each cell kept with probability `keep`.
pub(crate) fn random_puzzle(n: usize, keep: f64, rng: &mut SeededRng) -> Puzzle {
    let grid = random_grid(n, rng);
    let cells = grid
        .into_iter()
        .map(|v| if rng.gen_bool(keep) { v } else { 0 })
        .collect();
    from_cells(n, cells)
}
