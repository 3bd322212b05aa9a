//! Bitset search over cells for a relaxed instance: the fast path behind
//! [`super::count`], [`super::analyse`] and [`super::solutions`].
//!
//! Why it is the same search as Dancing Links on the formulation of
//! [`super::RelaxedDlx`]: the rows still available in a cell's primary
//! column are exactly the colours of the cell not used by an already coloured
//! neighbour (choosing a row covers the secondary columns of its digit on
//! every remaining edge or intact unit of the cell, which hides the same
//! digit in every neighbour). So each cell keeps a bitmask of its available
//! colours; colouring a cell clears its bit in every neighbour; a cell with
//! one colour left is coloured at once and a cell with none ends the branch
//! (a primary column of size 1 or 0); otherwise the search branches on a
//! cell with the fewest colours (minimum remaining values).
//!
//! One addition, exact as well: a cell whose neighbours are all coloured is
//! *isolated*: nothing can change its colours any more and its choice
//! constrains no other cell. Isolated cells are left out of the branching;
//! when only isolated cells remain open, the branch holds the product of
//! their colour counts solutions, every combination of their colours. The
//! count adds the product; the enumeration expands it.

use crate::engine::{Count, InstanceAnalysis};
use crate::graph::RelaxedInstance;
use std::ops::ControlFlow;

/// Marks a coloured cell (bit 0; colours use bits `1..=N`).
const PLACED: u32 = 1;

/// The search structure of one relaxed instance, reusable across searches.
#[derive(Debug, Clone)]
pub struct RelaxedSearch {
    cells: usize,
    adj_start: Vec<u32>,
    adj: Vec<u16>,
    given: Vec<bool>,
    /// `levels × cells` colour masks; level 0 is the propagated root.
    cand: Vec<u32>,
    /// `levels × cells` numbers of uncoloured neighbours.
    udeg: Vec<u16>,
    queue: Vec<u16>,
    /// False when the root propagation found a contradiction.
    root_ok: bool,
}

/// What a leaf of the search holds: every cell coloured, or isolated with
/// its colour mask (`PLACED` clear).
type Leaf<'a> = &'a [u32];

impl RelaxedSearch {
    /// Builds the structure and propagates the givens.
    pub fn new(r: &RelaxedInstance) -> RelaxedSearch {
        let g = r.geometry();
        let cells = g.cells;
        let mut adj_start = Vec::with_capacity(cells + 1);
        let mut adj = Vec::with_capacity(cells * g.peers[0].len());
        adj_start.push(0);
        for cell in 0..cells {
            adj.extend(r.neighbours(cell).iter().map(|&x| x as u16));
            adj_start.push(adj.len() as u32);
        }
        let mut cand = r.allowed();
        cand.resize(cells * 4, 0);
        let mut udeg: Vec<u16> = (0..cells)
            .map(|c| (adj_start[c + 1] - adj_start[c]) as u16)
            .collect();
        udeg.resize(cells * 4, 0);
        let mut s = RelaxedSearch {
            cells,
            adj_start,
            adj,
            given: r.puzzle().cells().iter().map(|&v| v != 0).collect(),
            cand,
            udeg,
            queue: Vec::with_capacity(cells),
            root_ok: true,
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

    fn ensure(&mut self, levels: usize) {
        let need = levels * self.cells;
        if self.cand.len() < need {
            self.cand.resize(need * 2, 0);
            self.udeg.resize(need * 2, 0);
        }
    }

    /// Copies level `from` into level `from + 1`.
    fn push_level(&mut self, from: usize) {
        self.ensure(from + 2);
        let cells = self.cells;
        let src = from * cells..(from + 1) * cells;
        self.cand.copy_within(src.clone(), (from + 1) * cells);
        self.udeg.copy_within(src, (from + 1) * cells);
    }

    /// Colours the queued single-colour cells of level `depth` and whatever
    /// they force; false on a contradiction.
    fn propagate(&mut self, depth: usize) -> bool {
        let cells = self.cells;
        let base = depth * cells;
        let cand = &mut self.cand[base..base + cells];
        let udeg = &mut self.udeg[base..base + cells];
        let mut ok = true;
        'outer: while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            let c = cand[cell];
            if c & PLACED != 0 {
                continue;
            }
            cand[cell] = c | PLACED;
            let (s, e) = (
                self.adj_start[cell] as usize,
                self.adj_start[cell + 1] as usize,
            );
            for &nb in &self.adj[s..e] {
                let nb = nb as usize;
                udeg[nb] -= 1;
                let m = cand[nb];
                if m & c != 0 {
                    if m & PLACED != 0 {
                        ok = false;
                        break 'outer;
                    }
                    let m = m & !c;
                    if m == 0 {
                        ok = false;
                        break 'outer;
                    }
                    cand[nb] = m;
                    if m & (m - 1) == 0 {
                        self.queue.push(nb as u16);
                    }
                }
            }
        }
        self.queue.clear();
        ok
    }

    fn recurse<F>(&mut self, depth: usize, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(Leaf<'_>) -> ControlFlow<()>,
    {
        let cells = self.cells;
        let base = depth * cells;
        let mut best = usize::MAX;
        let mut min = u32::MAX;
        let cand = &self.cand[base..base + cells];
        let udeg = &self.udeg[base..base + cells];
        for cell in 0..cells {
            let c = cand[cell];
            if c & PLACED == 0 && udeg[cell] != 0 {
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
            return visit(&self.cand[base..base + cells]);
        }
        let mut rest = self.cand[base + best];
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            self.push_level(depth);
            self.cand[base + cells + best] = bit;
            self.queue.push(best as u16);
            if self.propagate(depth + 1) {
                self.recurse(depth + 1, visit)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Runs the search from the root, calling `visit` on each leaf.
    fn search<F>(&mut self, mut visit: F)
    where
        F: FnMut(Leaf<'_>) -> ControlFlow<()>,
    {
        if self.root_ok {
            let _ = self.recurse(0, &mut visit);
        }
    }

    /// Number of proper colourings, up to `cap` (0 = no cap).
    pub fn count(&mut self, cap: u64) -> Count {
        let mut found = 0u64;
        self.search(|leaf| {
            found = found.saturating_add(leaf_count(leaf));
            stop_at(found, cap)
        });
        clamp(found, cap)
    }

    /// Up to `cap` colourings (0 = all), one value per cell, in search order.
    pub fn solutions(&mut self, cap: u64) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.search(|leaf| {
            expand(leaf, |cells| {
                out.push(cells.to_vec());
                stop_at(out.len() as u64, cap)
            })
        });
        out
    }

    /// Count (capped) and fixed non-given cells; see [`super`].
    pub fn analyse(&mut self, cap: u64) -> InstanceAnalysis {
        let cells = self.cells;
        let mut seen = vec![0u32; cells];
        let mut found = 0u64;
        self.search(|leaf| {
            found = found.saturating_add(leaf_count(leaf));
            for (s, &c) in seen.iter_mut().zip(leaf) {
                *s |= c;
            }
            stop_at(found, cap)
        });
        let count = clamp(found, cap);
        if found == 0 {
            return InstanceAnalysis {
                count,
                fixed: Vec::new(),
            };
        }
        if count.capped {
            self.filter(&mut seen);
        }
        let fixed = (0..cells)
            .filter(|&c| !self.given[c] && (seen[c] & !PLACED).count_ones() == 1)
            .collect();
        InstanceAnalysis { count, fixed }
    }

    /// The filtering search: for every non-given cell that has shown one
    /// value, look for a solution without it and add what it shows.
    fn filter(&mut self, seen: &mut [u32]) {
        let cells = self.cells;
        for cell in 0..cells {
            let value = seen[cell] & !PLACED;
            if self.given[cell] || value.count_ones() != 1 {
                continue;
            }
            self.push_level(0);
            let m = self.cand[cells + cell] & !value & !PLACED;
            if m == 0 {
                continue;
            }
            self.cand[cells + cell] = m;
            if m & (m - 1) == 0 {
                self.queue.push(cell as u16);
            }
            if !self.propagate(1) {
                continue;
            }
            let _ = self.recurse(1, &mut |leaf: Leaf<'_>| {
                for (s, &c) in seen.iter_mut().zip(leaf) {
                    *s |= c;
                }
                ControlFlow::Break(())
            });
        }
    }
}

/// Number of solutions a leaf stands for: the product of the colour counts
/// of its isolated cells.
fn leaf_count(leaf: Leaf<'_>) -> u64 {
    leaf.iter()
        .filter(|&&c| c & PLACED == 0)
        .fold(1u64, |acc, &c| {
            acc.saturating_mul(u64::from(c.count_ones()))
        })
}

fn stop_at(found: u64, cap: u64) -> ControlFlow<()> {
    if cap > 0 && found >= cap {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// The count for `found` solutions seen with `cap`: a leaf may overshoot the
/// cap, which is then what is reported.
fn clamp(found: u64, cap: u64) -> Count {
    Count::from_found(if cap > 0 { found.min(cap) } else { found }, cap)
}

/// Calls `visit` with every colouring a leaf stands for.
fn expand<F>(leaf: Leaf<'_>, mut visit: F) -> ControlFlow<()>
where
    F: FnMut(&[u8]) -> ControlFlow<()>,
{
    let open: Vec<usize> = (0..leaf.len()).filter(|&c| leaf[c] & PLACED == 0).collect();
    let mut cells: Vec<u8> = leaf
        .iter()
        .map(|&c| (c & !PLACED).trailing_zeros() as u8)
        .collect();
    // Odometer over the colours of the open cells.
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

/// Number of proper colourings of `r`, up to `cap` (0 = no cap).
pub fn count(r: &RelaxedInstance, cap: u64) -> Count {
    RelaxedSearch::new(r).count(cap)
}

/// Count and fixed non-given cells of `r`.
pub fn analyse(r: &RelaxedInstance, cap: u64) -> InstanceAnalysis {
    RelaxedSearch::new(r).analyse(cap)
}

/// Up to `cap` colourings of `r` (0 = all).
pub fn solutions(r: &RelaxedInstance, cap: u64) -> Vec<Vec<u8>> {
    RelaxedSearch::new(r).solutions(cap)
}
