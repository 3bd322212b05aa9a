//! Components of the open cells (see the parent module's doc): the count
//! of a scope is the product over its isolated cells and the connected
//! components of the others, each counted by its own search, and a small
//! component whose live constraints form a forest is counted by dynamic
//! programming over its trees, without search.

use super::bits::{Bits, and, clear, count_ones, for_each, for_each_colour, is_empty, pop, set};
use super::{COLOUR_SLOTS, FOREST_CELLS, PLACED, SPLIT_MIN, Search};

impl<const W: usize> Search<W> {
    /// The open neighbours of `cell` at `depth` that share a colour with it:
    /// the constraints its colouring still acts on.
    pub(super) fn live_neighbours(&self, depth: usize, cell: usize) -> Bits<W> {
        let mut shared = [0u64; W];
        for_each_colour(self.cand[depth * Self::STRIDE + cell], |d| {
            let board = &self.pos[depth * Self::SIDE + d - 1];
            for i in 0..W {
                shared[i] |= board[i];
            }
        });
        and(&and(&self.nbr[cell], &self.open[depth]), &shared)
    }

    /// Counts the colourings of the cells of `scope` (open at the parent of
    /// `depth`) given the state at `depth`, up to `cap`: the product over
    /// the isolated cells and the connected components of the others (a
    /// capped search takes a scope of [`SPLIT_MIN`] open cells or more
    /// whole). When `own`, the search of the last component may overwrite
    /// level `depth` (see [`Search::branch`]).
    pub(super) fn solve_node(&mut self, depth: usize, scope: &Bits<W>, cap: u64, own: bool) -> u64 {
        let base = depth * Self::STRIDE;
        let open = self.open[depth];
        let mut product = 1u64;
        // A cap reached in a component is forgotten when another component
        // has no solution: nothing here counts then.
        let incomplete = self.incomplete;
        if self.record {
            let mut placed = *scope;
            for (p, o) in placed.iter_mut().zip(&open) {
                *p &= !o;
            }
            for_each(&placed, |cell| {
                let c = self.cand[base + cell] & !PLACED;
                self.note(cell, c);
            });
        }
        let mut rest = and(scope, &open);
        while let Some(cell) = pop(&mut rest) {
            if is_empty(&and(&self.nbr[cell], &open)) {
                let c = self.cand[base + cell];
                product = product.saturating_mul(u64::from(c.count_ones()));
                if self.record {
                    self.note(cell, c);
                }
                continue;
            }
            // Flood the component of `cell` through open neighbours. A
            // capped search takes a large scope whole: counting independent
            // parts together is still exact, and at k = 45 they seldom fall
            // apart (the flood cost forum-hardest 7 %).
            let mut comp = [0u64; W];
            set(&mut comp, cell);
            let mut frontier = comp;
            if self.capped && count_ones(&rest) >= SPLIT_MIN {
                for i in 0..W {
                    comp[i] |= rest[i];
                }
                frontier = [0; W];
            }
            while let Some(x) = pop(&mut frontier) {
                for i in 0..W {
                    let new = self.nbr[x][i] & open[i] & !comp[i];
                    comp[i] |= new;
                    frontier[i] |= new;
                }
            }
            for i in 0..W {
                rest[i] &= !comp[i];
            }
            // Only `cap / product` (rounded up) solutions of this component
            // are needed to reach the cap.
            let need = if product >= cap {
                1
            } else {
                cap.div_ceil(product)
            };
            let n = self.branch(depth, &comp, need, own && is_empty(&rest));
            if n == 0 {
                self.incomplete = incomplete;
                return 0;
            }
            product = product.saturating_mul(n).min(cap);
        }
        product.min(cap)
    }

    /// The colourings of the open cells of `comp` at `depth`, counted
    /// without search when they are few ([`FOREST_CELLS`] at most) and the
    /// constraints still live among them (edges whose ends share a colour)
    /// form a forest; `None` otherwise.
    ///
    /// On a tree, rooted anywhere, the colourings of a subtree with its
    /// root coloured `c` number the product over the root's children `y` of
    /// the colourings of `y`'s subtree with `y` not coloured `c` (a dynamic
    /// programme from the leaves up). And every colour of every cell is used
    /// by some colouring (after propagation each open cell has at least two
    /// colours: colour the trees outward from that cell, each cell then has
    /// one coloured live neighbour, its parent, and a colour left), so all
    /// are recorded in `seen`.
    pub(super) fn forest_count(&mut self, depth: usize, comp: &Bits<W>) -> Option<u64> {
        let scope = and(comp, &self.open[depth]);
        let size = count_ones(&scope) as usize;
        if size > FOREST_CELLS {
            return None;
        }
        let base = depth * Self::STRIDE;
        // Breadth-first order over live edges, with each cell's parent.
        let mut order = [0u16; FOREST_CELLS];
        let mut parent = [u16::MAX; FOREST_CELLS];
        let mut seen_cells = [0u64; W];
        let mut len = 0;
        let mut rest = scope;
        while let Some(root) = pop(&mut rest) {
            set(&mut seen_cells, root);
            order[len] = root as u16;
            len += 1;
            let mut head = len - 1;
            while head < len {
                let x = order[head] as usize;
                let mut live = and(&self.live_neighbours(depth, x), &scope);
                if parent[head] != u16::MAX {
                    clear(&mut live, order[parent[head] as usize] as usize);
                }
                if !is_empty(&and(&live, &seen_cells)) {
                    return None;
                }
                for i in 0..W {
                    seen_cells[i] |= live[i];
                    rest[i] &= !live[i];
                }
                for_each(&live, |y| {
                    order[len] = y as u16;
                    parent[len] = head as u16;
                    len += 1;
                });
                head += 1;
            }
        }
        // Leaves up: `ways[i * COLOUR_SLOTS + c]` colourings of the subtree of
        // `order[i]` with it coloured `c` (set for its colours only).
        let ways = &mut self.ways;
        for i in 0..len {
            for_each_colour(self.cand[base + order[i] as usize], |c| {
                ways[i * COLOUR_SLOTS + c] = 1
            });
        }
        let mut total = 1u128;
        for i in (0..len).rev() {
            let c = self.cand[base + order[i] as usize];
            let mut sum = 0u128;
            for_each_colour(c, |d| sum += ways[i * COLOUR_SLOTS + d]);
            match parent[i] {
                u16::MAX => total = total.saturating_mul(sum),
                p => {
                    let p = p as usize;
                    let pc = self.cand[base + order[p] as usize];
                    for_each_colour(pc, |d| {
                        let own = if c & 1 << d != 0 {
                            ways[i * COLOUR_SLOTS + d]
                        } else {
                            0
                        };
                        ways[p * COLOUR_SLOTS + d] *= sum - own;
                    });
                }
            }
        }
        if self.record {
            for &cell in &order[..len] {
                let c = self.cand[base + cell as usize] & !PLACED;
                self.note(cell as usize, c);
            }
        }
        Some(u64::try_from(total).unwrap_or(u64::MAX))
    }
}
