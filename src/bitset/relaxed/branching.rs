//! Branching of the relaxed search: the cell to branch on (fewest colours,
//! with the tie-breaks of the parent module's doc) and the order of its
//! colours (most shared first in a capped search, random in an existence
//! attempt), and the branch itself, which counts one component.

use super::bits::{Bits, and, count_ones, for_each, for_each_colour, is_empty};
use super::{PLACED, PROBE_AFTER, Search};

/// Nodes between two looks at the cancel flag.
const CANCEL_POLL: u64 = 1 << 14;

impl<const W: usize> Search<W> {
    /// The cell of `within` to branch on at `depth`: an open cell with an
    /// open neighbour and the fewest colours. Among cells with two colours,
    /// ties go, in a capped search, to the most neighbours that have two
    /// colours too and share one with it (a choice there forces them, and
    /// leads to solutions sooner), then to the most neighbours sharing a
    /// colour (which, in an exact count, splits components off sooner), then
    /// to the lowest index; among others, to the most neighbours sharing a
    /// colour. (The first tie-break pays in capped searches and costs in
    /// exact counts of many solutions: `docs/notes/performance-experiments.md`.)
    pub(super) fn best_cell(&self, depth: usize, within: &Bits<W>) -> Option<usize> {
        let base = depth * Self::STRIDE;
        let open = &self.open[depth];
        let scope = and(within, open);
        // After propagation an open cell has at least two colours: when some
        // cell with exactly two shares one with a neighbour, the best is
        // among those; otherwise the scan of every cell below decides.
        let (mut once, mut twice, mut more) = ([0u64; W], [0u64; W], [0u64; W]);
        for board in &self.pos[depth * Self::SIDE..(depth + 1) * Self::SIDE] {
            for i in 0..W {
                let b = board[i] & open[i];
                more[i] |= twice[i] & b;
                twice[i] |= once[i] & b;
                once[i] |= b;
            }
        }
        let pairs: Bits<W> = std::array::from_fn(|i| twice[i] & !more[i]);
        let mut best = None;
        let mut max_key = (0, 0);
        for_each(&and(&pairs, &scope), |cell| {
            let live = self.live_neighbours(depth, cell);
            let forced = if self.capped {
                count_ones(&and(&live, &pairs))
            } else {
                0
            };
            if forced < max_key.0 {
                // Cannot win: spare the second count.
                return;
            }
            let key = (forced, count_ones(&live));
            if key.1 > 0 && key > max_key {
                max_key = key;
                best = Some(cell);
            }
        });
        if best.is_some() {
            return best;
        }
        let mut min = u32::MAX;
        for_each(&scope, |cell| {
            let k = self.cand[base + cell].count_ones();
            if k << 8 >= min || is_empty(&and(&self.nbr[cell], open)) {
                return;
            }
            let live = count_ones(&self.live_neighbours(depth, cell));
            let key = k << 8 | (255 - live.min(255));
            if key < min {
                min = key;
                best = Some(cell);
            }
        });
        best
    }

    /// Counts the colourings of one connected component `comp` of open
    /// cells, branching on its best cell, up to `cap`. When `own` (nothing
    /// reads level `depth` afterwards) the last child is searched on level
    /// `depth` itself instead of a copy.
    pub(super) fn branch(&mut self, depth: usize, comp: &Bits<W>, cap: u64, own: bool) -> u64 {
        if let Some(n) = self.forest_count(depth, comp) {
            return n.min(cap);
        }
        let Some(best) = self.best_cell(depth, comp) else {
            return 1;
        };
        let mut total = 0u64;
        let mut rest = self.cand[depth * Self::STRIDE + best] & !PLACED;
        while rest != 0 {
            let bit = if self.capped && self.rng == 0 {
                self.most_shared(depth, best, rest)
            } else {
                self.next_value(rest)
            };
            rest &= !bit;
            // A cancelled call (`crate::cancel`) stops as a spent node
            // limit does; its partial answer is thrown away.
            if self.nodes >= self.limit
                || (self.nodes.is_multiple_of(CANCEL_POLL) && crate::cancel::cancelled())
            {
                self.aborted = true;
                return 0;
            }
            let child = if own && rest == 0 {
                depth
            } else {
                self.push_level(depth);
                depth + 1
            };
            self.restrict(child, best, bit);
            if !self.propagate(child) {
                continue;
            }
            self.nodes += 1;
            if self.nodes - self.last_success > PROBE_AFTER && !self.probe(child) {
                continue;
            }
            let mark = self.journal.len();
            let n = self.solve_node(child, comp, cap - total, true);
            if n == 0 {
                self.undo_seen(mark);
                if self.aborted {
                    return 0;
                }
                continue;
            }
            self.last_success = self.nodes;
            total = total.saturating_add(n);
            if total >= cap {
                if rest != 0 {
                    self.incomplete = true;
                }
                return cap;
            }
        }
        total
    }

    /// In a capped search, the colour of `rest` to try next at the branching
    /// cell `cell`: the one the most open neighbours share (it takes the
    /// colour from the most cells, so more is forced below), ties to the
    /// lowest; measured against the lowest first and against the fewest
    /// neighbours first (`docs/notes/performance-experiments.md`).
    pub(super) fn most_shared(&self, depth: usize, cell: usize, rest: u32) -> u32 {
        if rest & (rest - 1) == 0 {
            return rest;
        }
        let open_nbrs = and(&self.nbr[cell], &self.open[depth]);
        let mut best = (0, 0u32);
        for_each_colour(rest, |d| {
            let k = count_ones(&and(&self.pos[depth * Self::SIDE + d - 1], &open_nbrs)) + 1;
            if k > best.0 {
                best = (k, 1 << d);
            }
        });
        best.1
    }

    /// The colour (one bit of `rest`) to try next: the lowest, or a random
    /// one while `rng` is set.
    pub(super) fn next_value(&mut self, rest: u32) -> u32 {
        if self.rng == 0 {
            return rest & rest.wrapping_neg();
        }
        crate::seed::xorshift64(&mut self.rng);
        let mut r = rest;
        for _ in 0..self.rng % u64::from(rest.count_ones()) {
            r &= r - 1;
        }
        r & r.wrapping_neg()
    }
}
