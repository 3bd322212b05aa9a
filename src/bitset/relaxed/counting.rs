//! Counting and enumerating the colourings of a relaxed instance: the
//! capped count from a level, the count at the root, and the plain
//! depth-first enumeration whose leaves (every cell coloured or isolated)
//! expand into solutions.

use super::bits::set;
use super::{PLACED, Search};
use crate::answers::Count;
use std::ops::ControlFlow;

impl<const W: usize> Search<W> {
    /// Counts from the state at `depth` over all cells, up to `cap`
    /// (0 = none); undoes the records when there is no solution.
    pub(super) fn count_from(&mut self, depth: usize, cap: u64) -> u64 {
        self.capped = cap != 0;
        let cap = if cap == 0 { u64::MAX } else { cap };
        let mut all = [0u64; W];
        for cell in 0..self.cells {
            set(&mut all, cell);
        }
        let mark = self.journal.len();
        let found = self.solve_node(depth, &all, cap, false);
        if found == 0 {
            self.undo_seen(mark);
        }
        found
    }

    pub(super) fn count(&mut self, cap: u64) -> Count {
        if !self.root_ok {
            return clamp(0, cap);
        }
        self.record = false;
        let found = self.count_from(0, cap);
        clamp(found, cap)
    }

    /// Plain depth-first enumeration (no components), calling `visit` with
    /// each leaf: every cell coloured or isolated.
    pub(super) fn recurse<F>(&mut self, depth: usize, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&[u32]) -> ControlFlow<()>,
    {
        let cells = self.cells;
        let mut all = [0u64; W];
        for cell in 0..cells {
            set(&mut all, cell);
        }
        let Some(best) = self.best_cell(depth, &all) else {
            return visit(&self.cand[depth * Self::STRIDE..depth * Self::STRIDE + cells]);
        };
        let mut rest = self.cand[depth * Self::STRIDE + best];
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            self.push_level(depth);
            self.restrict(depth + 1, best, bit);
            if self.propagate(depth + 1) {
                self.recurse(depth + 1, visit)?;
            }
        }
        ControlFlow::Continue(())
    }

    pub(super) fn solutions(&mut self, cap: u64) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.capped = cap != 0;
        if self.root_ok {
            let _ = self.recurse(0, &mut |leaf| {
                expand(leaf, |cells| {
                    out.push(cells.to_vec());
                    if cap > 0 && out.len() as u64 >= cap {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
            });
        }
        out
    }
}

/// The count for `found` solutions with `cap` (0 = none).
pub(super) fn clamp(found: u64, cap: u64) -> Count {
    Count::from_found(if cap > 0 { found.min(cap) } else { found }, cap)
}

/// Calls `visit` with every colouring a leaf stands for: coloured cells
/// keep their colour, the open (isolated) ones take every combination.
fn expand<F>(leaf: &[u32], mut visit: F) -> ControlFlow<()>
where
    F: FnMut(&[u8]) -> ControlFlow<()>,
{
    let open: Vec<usize> = (0..leaf.len()).filter(|&c| leaf[c] & PLACED == 0).collect();
    let mut cells: Vec<u8> = leaf
        .iter()
        .map(|&c| (c & !PLACED).trailing_zeros() as u8)
        .collect();
    loop {
        visit(&cells)?;
        let mut i = 0;
        loop {
            let Some(&cell) = open.get(i) else {
                return ControlFlow::Continue(());
            };
            let higher = leaf[cell] & !((2u32 << cells[cell]) - 1);
            if higher != 0 {
                cells[cell] = higher.trailing_zeros() as u8;
                break;
            }
            cells[cell] = leaf[cell].trailing_zeros() as u8;
            i += 1;
        }
    }
}
