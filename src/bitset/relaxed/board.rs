//! The search state of one relaxed instance: set-up from the relaxed graph
//! (neighbour sets, units and the removed edges inside them, colour masks
//! and one cell set per colour, givens propagated at the root), the copy of
//! a level before a choice, restricting a cell's colours, and the journal of
//! the values seen per cell that undoes records of branches without
//! solution.

use super::bits::{clear, for_each_colour, set};
use super::{COLOUR_SLOTS, FOREST_CELLS, Search};
use crate::graph::RelaxedInstance;

impl<const W: usize> Search<W> {
    pub(super) fn new(r: &RelaxedInstance) -> Self {
        let g = r.geometry();
        let cells = g.cells;
        debug_assert!(cells <= W * 64 && g.units.len() <= 128);
        assert_eq!(g.side, Self::SIDE);
        let mut nbr = vec![[0u64; W]; Self::STRIDE];
        for (cell, set_of) in nbr.iter_mut().enumerate().take(cells) {
            for &x in r.neighbours(cell) {
                set(set_of, x);
            }
        }
        let mut unit_pairs = Vec::new();
        let mut unit_pairs_start = vec![0u32];
        for unit in 0..g.units.len() {
            for &i in r.removed_in(unit) {
                let (a, b) = r.removed()[i];
                unit_pairs.push((a as u16, b as u16));
            }
            unit_pairs_start.push(unit_pairs.len() as u32);
        }
        let mut cell_units: Vec<u128> = g
            .cell_units
            .iter()
            .map(|us| us.iter().fold(0u128, |acc, &u| acc | 1 << u))
            .collect();
        cell_units.resize(Self::STRIDE, 0);
        let mut cand = r.allowed();
        cand.resize(Self::STRIDE * 8, 0);
        let mut open = vec![[0u64; W]; 8];
        let mut pos = vec![[0u64; W]; 8 * Self::SIDE];
        for (cell, &c) in cand[..cells].iter().enumerate() {
            set(&mut open[0], cell);
            for_each_colour(c, |d| set(&mut pos[d - 1], cell));
        }
        let mut s = Search {
            cells,
            all: g.all_digits(),
            given: r.puzzle().cells().iter().map(|&v| v != 0).collect(),
            nbr,
            unit_cells: g.units.iter().flatten().map(|&c| c as u16).collect(),
            cell_units,
            unit_pairs,
            unit_pairs_start,
            cand,
            open,
            pos,
            queue: Vec::with_capacity(cells),
            dirty: if g.units.len() == 128 {
                u128::MAX
            } else {
                (1u128 << g.units.len()) - 1
            },
            root_ok: true,
            seen: vec![0; cells],
            journal: Vec::new(),
            record: false,
            incomplete: false,
            nodes: 0,
            last_success: 0,
            limit: u64::MAX,
            aborted: false,
            rng: 0,
            capped: false,
            ways: vec![0; FOREST_CELLS * COLOUR_SLOTS],
        };
        for cell in 0..cells {
            let c = s.cand[cell];
            if c == 0 {
                s.root_ok = false;
            } else if c & (c - 1) == 0 {
                s.queue.push(cell as u16);
            }
        }
        s.root_ok = s.root_ok && s.propagate(0);
        s
    }

    /// Copies level `from` into level `from + 1`.
    pub(super) fn push_level(&mut self, from: usize) {
        let cells = self.cells;
        let side = Self::SIDE;
        let stride = Self::STRIDE;
        if self.open.len() < from + 2 {
            let levels = (from + 2) * 2;
            self.open.resize(levels, [0; W]);
            self.cand.resize(levels * stride, 0);
            self.pos.resize(levels * side, [0; W]);
        }
        self.cand
            .copy_within(from * stride..from * stride + cells, (from + 1) * stride);
        self.pos
            .copy_within(from * side..(from + 1) * side, (from + 1) * side);
        self.open[from + 1] = self.open[from];
    }

    /// Sets the colours of `cell` at `depth` to `mask` (a subset of its
    /// current colours), queueing it when single.
    #[inline]
    pub(super) fn restrict(&mut self, depth: usize, cell: usize, mask: u32) {
        let i = depth * Self::STRIDE + cell;
        let boards = &mut self.pos[depth * Self::SIDE..(depth + 1) * Self::SIDE];
        for_each_colour(self.cand[i] & !mask, |d| clear(&mut boards[d - 1], cell));
        self.cand[i] = mask;
        self.dirty |= self.cell_units[cell];
        if mask & (mask - 1) == 0 {
            self.queue.push(cell as u16);
        }
    }

    pub(super) fn note(&mut self, cell: usize, bits: u32) {
        let old = self.seen[cell];
        if old | bits != old {
            self.journal.push((cell as u16, old));
            self.seen[cell] = old | bits;
        }
    }

    pub(super) fn undo_seen(&mut self, mark: usize) {
        while self.journal.len() > mark {
            if let Some((cell, old)) = self.journal.pop() {
                self.seen[cell as usize] = old;
            }
        }
    }
}
