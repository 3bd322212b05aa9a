//! Fixed cells of a relaxed instance (Pelánek §3.2): the count records the
//! values seen per cell in solutions; when the count stopped at its cap, a
//! filtering search asks, for every cell that has shown one value, whether
//! a solution without it exists. Existence runs as restarts with random
//! value orders and doubling node limits from `FIRST_LIMIT`; the last
//! attempt is complete, so the answers are exact.

use super::counting::clamp;
use super::{FIRST_LIMIT, PLACED, Search};
use crate::answers::InstanceAnalysis;

impl<const W: usize> Search<W> {
    /// Whether the state at `depth` has a solution (the one found, if any,
    /// is recorded in `seen`).
    ///
    /// Depth-first search for one solution is heavy-tailed: a bad early
    /// choice can bury it under an unsatisfiable subtree of millions of
    /// nodes that another value order avoids. So it runs as a series of
    /// attempts with random value orders and node limits doubling from
    /// [`FIRST_LIMIT`] (restarts, as in SAT solvers). An attempt that ends
    /// within its limit is complete, so the answer is exact; the limits
    /// grow without bound, so some attempt ends, and it costs at most about
    /// twice the last attempt. The generator is seeded from `seed`: the
    /// answers and the solutions recorded are deterministic.
    pub(super) fn exists(&mut self, depth: usize, seed: u64) -> bool {
        let mut budget = FIRST_LIMIT;
        let mut rng = seed.wrapping_mul(crate::seed::GOLDEN_GAMMA) | 1;
        loop {
            self.aborted = false;
            self.limit = self.nodes.saturating_add(budget);
            self.last_success = self.nodes;
            let found = self.count_from(depth, 1);
            let aborted = self.aborted;
            self.aborted = false;
            self.limit = u64::MAX;
            if !aborted || crate::cancel::cancelled() {
                self.rng = 0;
                return found > 0;
            }
            if budget == FIRST_LIMIT && !self.probe(depth) {
                return false;
            }
            self.rng = crate::seed::xorshift64(&mut rng);
            budget = budget.saturating_mul(2);
        }
    }

    pub(super) fn analyze(&mut self, cap: u64) -> InstanceAnalysis {
        let none = InstanceAnalysis {
            count: clamp(0, cap),
            fixed: Vec::new(),
        };
        if !self.root_ok {
            return none;
        }
        self.record = true;
        self.seen.iter_mut().for_each(|s| *s = 0);
        self.journal.clear();
        self.incomplete = false;
        let found = self.count_from(0, cap);
        if found == 0 {
            return none;
        }
        if self.incomplete {
            self.filter();
        }
        let fixed = (0..self.cells)
            .filter(|&c| !self.given[c] && self.seen[c].count_ones() == 1)
            .collect();
        InstanceAnalysis {
            count: clamp(found, cap),
            fixed,
        }
    }

    /// The filtering search: for every non-given cell that has shown one
    /// value, look for a solution without it; what it shows is recorded.
    pub(super) fn filter(&mut self) {
        let cells = self.cells;
        for cell in 0..cells {
            let value = self.seen[cell];
            if self.given[cell] || value.count_ones() != 1 {
                continue;
            }
            self.push_level(0);
            let m = self.cand[Self::STRIDE + cell] & !value & !PLACED;
            if m == 0 {
                continue;
            }
            self.restrict(1, cell, m);
            if !self.propagate(1) {
                continue;
            }
            // Existence only; the solution found, if any, is noted in
            // `seen` (every cell, this one included).
            self.exists(1, cell as u64);
        }
    }
}
