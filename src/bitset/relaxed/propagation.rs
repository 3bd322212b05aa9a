//! Propagation at one search level (see the parent module's doc): cells
//! left with one colour are coloured and clear it in their neighbours, the
//! unit rules deduce from the removed edges inside each unit, and
//! failed-literal probing removes the colours whose choice propagates to a
//! contradiction. Every deduction is exact: it removes only colours that no
//! solution extending the branch uses.

use super::bits::{and, clear, for_each};
use super::{PLACED, Search};

impl<const W: usize> Search<W> {
    /// Runs the deductions at `depth` to a fixpoint; false on a
    /// contradiction. Leaves the queue empty and no unit dirty.
    pub(super) fn propagate(&mut self, depth: usize) -> bool {
        let ok = loop {
            if !self.singles(depth) {
                break false;
            }
            if self.dirty == 0 {
                break true;
            }
            if !self.unit_rules(depth) {
                break false;
            }
        };
        self.queue.clear();
        self.dirty = 0;
        ok
    }

    /// Colours the queued cells, clearing their colour in the neighbours.
    pub(super) fn singles(&mut self, depth: usize) -> bool {
        let (stride, side) = (Self::STRIDE, Self::SIDE);
        let cand = &mut self.cand[depth * stride..(depth + 1) * stride];
        let boards = &mut self.pos[depth * side..(depth + 1) * side];
        let open = &mut self.open[depth];
        let nbr = &self.nbr[..stride];
        let cell_units = &self.cell_units[..stride];
        // Kept in a register, stored back on return.
        let mut dirty = self.dirty;
        let mut ok = true;
        while let Some(cell) = self.queue.pop() {
            // Indices modulo `stride` (all below it): no bounds checks.
            let cell = cell as usize % stride;
            let c = cand[cell];
            if c & PLACED != 0 {
                continue;
            }
            cand[cell] = c | PLACED;
            clear(open, cell);
            // The neighbours that have the colour, and lose it.
            let board = &mut boards[c.trailing_zeros() as usize - 1];
            let hit = and(board, &nbr[cell]);
            for i in 0..W {
                board[i] &= !hit[i];
            }
            for_each(&hit, |nb| {
                let nb = nb % stride;
                let m = cand[nb] & !c;
                // Emptied, or a coloured neighbour with this colour: the
                // branch ends after the loop.
                let alive = m & !PLACED != 0;
                ok &= alive;
                cand[nb] = m;
                dirty |= cell_units[nb];
                if alive && m & (m - 1) == 0 {
                    self.queue.push(nb as u16);
                }
            });
            if !ok {
                break;
            }
        }
        self.dirty = dirty;
        ok
    }

    /// Failed-literal probing at `depth`, to a fixpoint: every colour of an
    /// open cell whose choice propagates to a contradiction is removed (no
    /// solution extending the state uses it). False on a contradiction.
    ///
    /// Plain depth-first search thrashes when a small unsatisfiable core is
    /// hidden below unrelated choices: it refutes it again under each of
    /// them (seconds on some relaxed instances that a CDCL solver settles in
    /// milliseconds). Probing catches such a core at the first node where
    /// one colour choice exposes it.
    pub(super) fn probe(&mut self, depth: usize) -> bool {
        let cells = self.cells;
        let base = depth * Self::STRIDE;
        loop {
            let mut changed = false;
            for cell in 0..cells {
                let c = self.cand[base + cell];
                if c & PLACED != 0 {
                    continue;
                }
                let mut rest = c;
                let mut keep = c;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest &= !bit;
                    self.push_level(depth);
                    self.restrict(depth + 1, cell, bit);
                    if !self.propagate(depth + 1) {
                        keep &= !bit;
                    }
                }
                if keep != c {
                    if keep == 0 {
                        return false;
                    }
                    changed = true;
                    self.restrict(depth, cell, keep);
                    if !self.propagate(depth) {
                        return false;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// The unit rules on the dirty units (see the module doc).
    pub(super) fn unit_rules(&mut self, depth: usize) -> bool {
        let (stride, side) = (Self::STRIDE, Self::SIDE);
        let base = depth * stride;
        while self.dirty != 0 {
            let u = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let mut once = [0u32; 2];
            let mut twice = [0u32; 2];
            let mut placed = 0u32;
            let level = &self.cand[base..base + stride];
            // `side` cells (a constant: the loop unrolls), each index below
            // `stride`, in two independent chains merged at the end.
            for (i, &cell) in self.unit_cells[u * side..(u + 1) * side].iter().enumerate() {
                let c = level[cell as usize % stride];
                // Branch-free: `c` when coloured, else 0.
                placed |= c & (c & PLACED).wrapping_neg();
                let c = c & !PLACED;
                let k = i & 1;
                twice[k] |= once[k] & c;
                once[k] |= c;
            }
            let twice = twice[0] | twice[1] | (once[0] & once[1]);
            let once = once[0] | once[1];
            let missing = self.all & !once;
            let hidden = once & !twice & !placed;
            if missing == 0 && hidden == 0 {
                // Every colour present, none single: no rule applies.
                continue;
            }
            let mut mergeable = 0u32;
            let mut merge = (0usize, 0usize);
            let (ps, pe) = (
                self.unit_pairs_start[u] as usize,
                self.unit_pairs_start[u + 1] as usize,
            );
            for &(a, b) in &self.unit_pairs[ps..pe] {
                let (a, b) = (a as usize % stride, b as usize % stride);
                if level[a] & level[b] & !PLACED != 0 {
                    mergeable += 1;
                    merge = (a, b);
                    // With every colour present only "none mergeable" (the
                    // hidden singles) is used below.
                    if missing == 0 {
                        break;
                    }
                }
            }
            // More missing colours than mergeable edges (a popcount only
            // when there are two or more edges).
            let short = match mergeable {
                0 => missing != 0,
                1 => missing & missing.wrapping_sub(1) != 0,
                _ => missing.count_ones() > mergeable,
            };
            if short {
                return false;
            }
            if mergeable == 0 {
                if hidden == 0 {
                    continue;
                }
                for i in u * side..(u + 1) * side {
                    let cell = self.unit_cells[i] as usize % stride;
                    let c = self.cand[base + cell];
                    let h = c & hidden;
                    if h != 0 && c & !PLACED != h {
                        if h & (h - 1) != 0 {
                            return false;
                        }
                        self.restrict(depth, cell, h);
                    }
                }
            } else if mergeable == 1 && missing != 0 {
                let (a, b) = merge;
                let common = self.cand[base + a] & self.cand[base + b] & !PLACED;
                for x in [a, b] {
                    let c = self.cand[base + x];
                    if c & PLACED == 0 && c != common {
                        self.restrict(depth, x, common);
                    }
                }
            }
        }
        true
    }
}
