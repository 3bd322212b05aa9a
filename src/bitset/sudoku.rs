//! Bitset search for Sudoku: [`solve`], [`count`] and [`solutions`], and
//! [`Solver`], a reusable search for generators: [`has_other_solution`]
//! (is there a solution whose value at one cell differs from a given one?
//! — the question a removal asks) and seeded random solutions.
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
//! A pencilmark puzzle starts from its candidates instead of the givens' and
//! takes the cell-mask search (the 9×9 boards start from givens alone).

use crate::answers::Count;
use crate::grid::{Geometry, MAX_ORDER, MIN_ORDER, Puzzle, Solution};
use crate::seed::xorshift64;
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
    /// xorshift64 state for the branching order; 0 tries digits in
    /// increasing order.
    rng: u64,
}

impl<'t> Search<'t> {
    fn new(t: &'t Tables) -> Self {
        Search {
            t,
            stack: vec![0; t.cells * 8],
            queue: Vec::with_capacity(t.cells),
            rng: 0,
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
                    // Branch-free: `c` when placed, else 0.
                    placed |= c & (c & PLACED).wrapping_neg();
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
            let bit = if self.rng == 0 {
                rest & rest.wrapping_neg()
            } else {
                random_bit(rest, &mut self.rng)
            };
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
        match p.pencilmarks() {
            None => self.run_cells(p.cells(), None, visit),
            Some(marks) => self.run_masks(marks, &mut visit),
        }
    }

    /// Loads a pencilmark puzzle's candidates into level 0 (each cell with
    /// one candidate queued as placed) and runs the search.
    fn run_masks<F>(&mut self, marks: &[u32], visit: &mut F)
    where
        F: FnMut(&[u32]) -> ControlFlow<()>,
    {
        let cells = self.t.cells;
        self.queue.clear();
        for (cell, (slot, &m)) in self.stack[..cells].iter_mut().zip(marks).enumerate() {
            *slot = m & self.t.all;
            if m.is_power_of_two() {
                self.queue.push(cell as u16);
            }
        }
        if self.stack[..cells].contains(&0) {
            return;
        }
        if self.propagate(0, self.t.all_units) {
            let _ = self.recurse(0, visit);
        }
    }

    /// Loads cell values (`0` empty) into level 0, with `forbid = (cell, d)`
    /// removing candidate `d` from an empty cell, and runs the search.
    fn run_cells<F>(&mut self, values: &[u8], forbid: Option<(usize, u8)>, mut visit: F)
    where
        F: FnMut(&[u32]) -> ControlFlow<()>,
    {
        let all = self.t.all;
        let cells = self.t.cells;
        let level = &mut self.stack[..cells];
        self.queue.clear();
        for (cell, (slot, &v)) in level.iter_mut().zip(values).enumerate() {
            if v == 0 {
                *slot = all;
            } else {
                *slot = 1 << v;
                self.queue.push(cell as u16);
            }
        }
        if let Some((cell, d)) = forbid {
            let m = self.stack[cell] & !(1u32 << d);
            if m == 0 {
                return;
            }
            self.stack[cell] = m;
            if m & (m - 1) == 0 {
                self.queue.push(cell as u16);
            }
        }
        if self.propagate(0, self.t.all_units) {
            let _ = self.recurse(0, &mut visit);
        }
    }
}

/// A uniformly chosen set bit of `mask` (not 0).
fn random_bit(mask: u32, rng: &mut u64) -> u32 {
    let k = (xorshift64(rng) % u64::from(mask.count_ones())) as u32;
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m & m.wrapping_neg()
}

fn decode(n: usize, cand: &[u32]) -> Option<Solution> {
    Solution::from_cells(
        n,
        cand.iter()
            .map(|&c| (c & !PLACED).trailing_zeros() as u8)
            .collect(),
    )
}

/// A bitset search that keeps its buffers from one question to the next,
/// for generators that ask thousands of them about one order. 9×9 questions
/// without a random digit order go to the 9×9 searches: counts to
/// [`count9`], the others to the digit bitboards (`bitset::board9`), which
/// find the same solutions in the same order as the cell masks.
pub(crate) struct Solver {
    search: Search<'static>,
    scratch: Vec<u8>,
    /// 9×9 questions go to [`super::board9`].
    board9: bool,
}

impl Solver {
    /// A solver for grids of order `n` (2..=5).
    ///
    /// # Panics
    /// On an order outside 2..=5.
    pub(crate) fn new(n: usize) -> Solver {
        assert!(
            (MIN_ORDER..=MAX_ORDER).contains(&n),
            "order {n} outside 2..=5"
        );
        let t = tables(n);
        Solver {
            search: Search::new(t),
            scratch: Vec::with_capacity(t.cells),
            board9: n == 3,
        }
    }

    /// A solver that uses the cell-mask search at every order (to test the
    /// 9×9 fast path against it).
    #[doc(hidden)]
    #[cfg(test)]
    pub(crate) fn cell_masks(n: usize) -> Solver {
        Solver {
            board9: false,
            ..Solver::new(n)
        }
    }

    /// Order of the grids this solver takes.
    pub(crate) fn order(&self) -> usize {
        self.search.t.n
    }

    /// True when the grid `values` (row-major, `0` empty) has a solution
    /// whose value at the empty cell `cell` is not `value`: one search with
    /// that candidate forbidden. When `values` plus `cell = value` has a
    /// unique solution, this is exactly "removing the given at `cell` loses
    /// uniqueness".
    pub(crate) fn has_other_solution(&mut self, values: &[u8], cell: usize, value: u8) -> bool {
        let mut found = false;
        self.run(values, Some((cell, value)), false, |_| {
            found = true;
            ControlFlow::Break(())
        });
        found
    }

    /// Calls `visit` with the solutions of `values` whose value at
    /// `forbid.0` is not `forbid.1`, in search order, digits ascending at
    /// each branching: with the digit of every cell when `digits` is set
    /// (else the 9×9 search still gives them, the others an empty slice).
    fn run(
        &mut self,
        values: &[u8],
        forbid: Option<(usize, u8)>,
        digits: bool,
        mut visit: impl FnMut(&[u8]) -> ControlFlow<()>,
    ) {
        // A value that is no digit of the order excludes no solution.
        let side = self.search.t.n * self.search.t.n;
        let forbid = forbid.filter(|&(_, v)| (1..=side).contains(&usize::from(v)));
        if self.board9 {
            // The generators' questions are about nearly full grids, which
            // singles alone settle: the digit bitboards answer them faster
            // than the band boards, whose deductions pay off on hard grids.
            super::board9::search_forbidding(values, forbid, |cells| visit(cells));
            return;
        }
        self.search.rng = 0;
        let mut out = Vec::new();
        self.search.run_cells(values, forbid, |cand| {
            if digits {
                out.clear();
                out.extend(cand.iter().map(|&c| (c & !PLACED).trailing_zeros() as u8));
            }
            visit(&out)
        });
    }

    /// True when the grid `values`, whose cells `removed` are empty, has a
    /// solution differing from `solution` in at least one of them. The
    /// space is split into disjoint searches: the first `i` removed cells
    /// keep their solution value and cell `i` is forbidden it.
    pub(crate) fn differs_at(&mut self, values: &[u8], solution: &[u8], removed: &[usize]) -> bool {
        self.differing_solution(values, solution, removed, false)
            .is_some()
    }

    /// Like [`Solver::differs_at`], returning such a solution (empty when
    /// `keep` is false: the caller only asks whether one exists).
    pub(crate) fn differing_solution(
        &mut self,
        values: &[u8],
        solution: &[u8],
        removed: &[usize],
        keep: bool,
    ) -> Option<Vec<u8>> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend_from_slice(values);
        let mut found = None;
        for &cell in removed {
            self.run(&scratch, Some((cell, solution[cell])), keep, |digits| {
                found = Some(if keep { digits.to_vec() } else { Vec::new() });
                ControlFlow::Break(())
            });
            if found.is_some() {
                break;
            }
            scratch[cell] = solution[cell];
        }
        self.scratch = scratch;
        found
    }

    /// Number of solutions of `values`, up to `cap` (0 = no cap).
    pub(crate) fn count(&mut self, values: &[u8], cap: u64) -> u64 {
        let mut found = 0u64;
        if self.board9 {
            return count9(values, cap);
        }
        self.run(values, None, false, |_| {
            crate::answers::tally(&mut found, cap)
        });
        found
    }

    /// A solution of `values` found by branching on digits in a random
    /// order drawn from `seed` (the same seed gives the same solution).
    pub(crate) fn random_solution(&mut self, values: &[u8], seed: u64) -> Option<Vec<u8>> {
        // xorshift64 needs a non-zero state.
        self.search.rng = crate::seed::splitmix64(seed) | 1;
        let mut out = None;
        self.search.run_cells(values, None, |cand| {
            out = Some(
                cand.iter()
                    .map(|&c| (c & !PLACED).trailing_zeros() as u8)
                    .collect(),
            );
            ControlFlow::Break(())
        });
        self.search.rng = 0;
        out
    }
}

/// Number of solutions of `p`, up to `cap` (0 = no cap).
pub(crate) fn count(p: &Puzzle, cap: u64) -> Count {
    let mut found = 0u64;
    let mut visit = || crate::answers::tally(&mut found, cap);
    if p.order() == 3 && !p.has_pencilmarks() {
        found = count9(p.cells(), cap);
    } else {
        Search::new(tables(p.order())).run(p, |_| visit());
    }
    Count::from_found(found, cap)
}

/// The number of solutions of the 9×9 grid `values` (0 = empty, 1..=9 a
/// given), up to `cap` (0 = no cap): on the box vectors
/// (`bitset::boxes`) where the processor has AVX-512, else on the band boards
/// (`bitset::band9`).
fn count9(values: &[u8], cap: u64) -> u64 {
    super::boxes::count(values, cap).unwrap_or_else(|| super::band9::count(values, cap))
}

/// [`count`] on the band boards (`band9.rs`), the 9×9 count of processors
/// without AVX-512 (to test the box vectors against it); other orders as
/// [`count`].
#[doc(hidden)]
#[cfg(test)]
pub(crate) fn count_band_boards(p: &Puzzle, cap: u64) -> Count {
    if p.order() != 3 || p.has_pencilmarks() {
        return count(p, cap);
    }
    Count::from_found(super::band9::count(p.cells(), cap), cap)
}

/// [`count`] on the 9×9 digit bitboards with locked candidates
/// (`board9.rs`), the counting search before the band boards (to test one
/// against the other); other orders as [`count`].
#[doc(hidden)]
#[cfg(test)]
pub(crate) fn count_digit_boards(p: &Puzzle, cap: u64) -> Count {
    if p.order() != 3 {
        return count(p, cap);
    }
    let mut found = 0u64;
    super::board9::search_any_order(p.cells(), |_| crate::answers::tally(&mut found, cap));
    Count::from_found(found, cap)
}

/// [`count`] by the cell-mask search alone, without the 9×9 fast path (to
/// test one against the other).
#[doc(hidden)]
#[cfg(test)]
pub(crate) fn count_general(p: &Puzzle, cap: u64) -> Count {
    let mut found = 0u64;
    Search::new(tables(p.order())).run(p, |_| crate::answers::tally(&mut found, cap));
    Count::from_found(found, cap)
}

/// One solution of `p`, if any.
pub(crate) fn solve(p: &Puzzle) -> Option<Solution> {
    solutions(p, 1).into_iter().next()
}

/// Up to `cap` solutions of `p` (0 = all).
pub(crate) fn solutions(p: &Puzzle, cap: u64) -> Vec<Solution> {
    let mut out = Vec::new();
    if p.order() == 3 && !p.has_pencilmarks() {
        super::board9::search(p.cells(), |cells| {
            if let Some(s) = Solution::from_cells(3, cells.to_vec()) {
                out.push(s);
            }
            if cap > 0 && out.len() as u64 >= cap {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        return out;
    }
    solutions_general(p, cap)
}

/// [`solutions`] by the cell-mask search alone, without the 9×9 fast path
/// (to test one against the other).
#[doc(hidden)]
pub(crate) fn solutions_general(p: &Puzzle, cap: u64) -> Vec<Solution> {
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
