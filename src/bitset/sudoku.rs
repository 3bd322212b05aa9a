//! Bitset search for Sudoku: [`solve`], [`count`] and [`solutions`].
//!
//! Each cell keeps its candidate digits as a bitmask (bit `d` for digit `d`;
//! bit 0 marks a cell whose value has been propagated). Placing a digit
//! removes it from the peers; two deductions run to a fixpoint: a cell left
//! with one candidate is placed (naked single, the DLX cell column of size
//! 1), a digit with one place in a unit is placed (hidden single, the DLX
//! unit–digit column of size 1). A cell or unit–digit with no option is a
//! dead end. Then the search branches on an open cell with the fewest
//! candidates. Every deduction only removes options that no solution uses,
//! so the set of solutions, and hence every count, equals that of the exact
//! cover formulation in [`crate::dlx::sudoku::SudokuDlx`]; the tests check it.

use crate::answers::Count;
use crate::grid::{Geometry, MAX_ORDER, MIN_ORDER, Puzzle, Solution};
use std::ops::ControlFlow;
use std::sync::OnceLock;

const PLACED: u32 = 1;

/// Flat peer and unit tables of one order.
#[derive(Debug)]
struct Tables {
    n: usize,
    side: usize,
    cells: usize,
    all: u32,
    npeers: usize,
    peers: Vec<u16>,
    units: Vec<u16>,
    /// Per cell: its three units as bits.
    cell_units: Vec<u128>,
    all_units: u128,
}

fn tables(n: usize) -> &'static Tables {
    static CACHE: [OnceLock<Tables>; MAX_ORDER - MIN_ORDER + 1] =
        [const { OnceLock::new() }; MAX_ORDER - MIN_ORDER + 1];
    CACHE[n - MIN_ORDER].get_or_init(|| {
        let g = Geometry::of(n);
        Tables {
            n,
            side: g.side,
            cells: g.cells,
            all: g.all_digits(),
            npeers: g.peers[0].len(),
            peers: g.peers.iter().flatten().map(|&p| p as u16).collect(),
            units: g.units.iter().flatten().map(|&c| c as u16).collect(),
            cell_units: g
                .cell_units
                .iter()
                .map(|us| us.iter().fold(0u128, |acc, &u| acc | 1 << u))
                .collect(),
            all_units: (1u128 << g.units.len()) - 1,
        }
    })
}

/// The search state: one candidate mask per cell per level.
struct Search<'t> {
    t: &'t Tables,
    /// `levels × cells` masks; level `i` is the state at depth `i`.
    stack: Vec<u32>,
    queue: Vec<u16>,
}

impl<'t> Search<'t> {
    fn new(t: &'t Tables) -> Self {
        Search {
            t,
            stack: vec![0; t.cells * 8],
            queue: Vec::with_capacity(t.cells),
        }
    }

    /// Makes room for `levels` levels.
    fn ensure(&mut self, levels: usize) {
        let need = levels * self.t.cells;
        if self.stack.len() < need {
            self.stack.resize(need * 2, 0);
        }
    }

    /// Runs the deductions on level `depth` with `queue` holding the cells
    /// just made single and `dirty` the units changed since the last
    /// fixpoint; false on a contradiction.
    fn propagate(&mut self, depth: usize, mut dirty: u128) -> bool {
        let t = self.t;
        let cells = t.cells;
        let side = t.side;
        let all = t.all;
        let npeers = t.npeers;
        let base = depth * cells;
        let mut queue = std::mem::take(&mut self.queue);
        let ok = 'outer: loop {
            let cand = &mut self.stack[base..base + cells];
            while let Some(cell) = queue.pop() {
                let cell = cell as usize;
                let c = cand[cell];
                if c & PLACED != 0 {
                    continue;
                }
                cand[cell] = c | PLACED;
                for &p in &t.peers[cell * npeers..(cell + 1) * npeers] {
                    let p = p as usize;
                    let m = cand[p];
                    if m & c != 0 {
                        let m = m & !c;
                        if m & !PLACED == 0 {
                            // Emptied, or a placed peer with this digit.
                            break 'outer false;
                        }
                        cand[p] = m;
                        dirty |= t.cell_units[p];
                        if m & (m - 1) == 0 {
                            queue.push(p as u16);
                        }
                    }
                }
            }
            while dirty != 0 {
                let u = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let unit = &t.units[u * side..(u + 1) * side];
                let mut once = 0u32;
                let mut twice = 0u32;
                let mut placed = 0u32;
                for &cell in unit {
                    let c = cand[cell as usize];
                    if c & PLACED != 0 {
                        placed |= c;
                    }
                    let c = c & !PLACED;
                    twice |= once & c;
                    once |= c;
                }
                if once != all {
                    break 'outer false;
                }
                let hidden = once & !twice & !placed;
                if hidden == 0 {
                    continue;
                }
                for &cell in unit {
                    let c = cand[cell as usize];
                    let h = c & hidden;
                    if h != 0 && c != h {
                        if h & (h - 1) != 0 {
                            break 'outer false;
                        }
                        cand[cell as usize] = h;
                        dirty |= t.cell_units[cell as usize];
                        queue.push(cell);
                    }
                }
            }
            if queue.is_empty() {
                break true;
            }
        };
        queue.clear();
        self.queue = queue;
        ok
    }

    fn recurse<F>(&mut self, depth: usize, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&[u32]) -> ControlFlow<()>,
    {
        let cells = self.t.cells;
        let base = depth * cells;
        let mut best = usize::MAX;
        let mut min = u32::MAX;
        for (cell, &c) in self.stack[base..base + cells].iter().enumerate() {
            if c & PLACED == 0 {
                let k = c.count_ones();
                if k < min {
                    min = k;
                    best = cell;
                    if k == 2 {
                        break;
                    }
                }
            }
        }
        if best == usize::MAX {
            return visit(&self.stack[base..base + cells]);
        }
        let mut rest = self.stack[base + best];
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            self.ensure(depth + 2);
            self.stack.copy_within(base..base + cells, base + cells);
            self.stack[base + cells + best] = bit;
            self.queue.push(best as u16);
            if self.propagate(depth + 1, self.t.cell_units[best]) {
                self.recurse(depth + 1, visit)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Loads the puzzle into level 0 and runs the search.
    fn run<F>(&mut self, p: &Puzzle, mut visit: F)
    where
        F: FnMut(&[u32]) -> ControlFlow<()>,
    {
        let all = self.t.all;
        let cells = self.t.cells;
        let level = &mut self.stack[..cells];
        let mut queue = Vec::new();
        for (cell, (slot, &v)) in level.iter_mut().zip(p.cells()).enumerate() {
            if v == 0 {
                *slot = all;
            } else {
                *slot = 1 << v;
                queue.push(cell as u16);
            }
        }
        self.queue = queue;
        if self.propagate(0, self.t.all_units) {
            let _ = self.recurse(0, &mut visit);
        }
    }
}

fn decode(n: usize, cand: &[u32]) -> Option<Solution> {
    Solution::from_cells(
        n,
        cand.iter()
            .map(|&c| (c & !PLACED).trailing_zeros() as u8)
            .collect(),
    )
}

/// Number of solutions of `p`, up to `cap` (0 = no cap).
pub fn count(p: &Puzzle, cap: u64) -> Count {
    let t = tables(p.order());
    let mut found = 0u64;
    Search::new(t).run(p, |_| {
        found += 1;
        if cap > 0 && found >= cap {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    Count::from_found(found, cap)
}

/// One solution of `p`, if any.
pub fn solve(p: &Puzzle) -> Option<Solution> {
    solutions(p, 1).into_iter().next()
}

/// Up to `cap` solutions of `p` (0 = all).
pub fn solutions(p: &Puzzle, cap: u64) -> Vec<Solution> {
    let t = tables(p.order());
    let mut out = Vec::new();
    Search::new(t).run(p, |cand| {
        if let Some(s) = decode(t.n, cand) {
            out.push(s);
        }
        if cap > 0 && out.len() as u64 >= cap {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    out
}
