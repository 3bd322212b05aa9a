//! Bitset search over cells for a relaxed instance: [`count`], [`analyse`]
//! and [`solutions`].
//!
//! **Same search space as Dancing Links.** In the formulation of
//! [`crate::dlx::relaxed::RelaxedDlx`] the rows still available in a cell's primary column
//! are exactly the colours of the cell not used by an already coloured
//! neighbour: choosing a row covers the secondary columns of its digit on
//! every remaining edge and intact unit of the cell, which hides that digit
//! in every neighbour. So each cell keeps a bitmask of its available
//! colours; colouring a cell clears its bit in every neighbour; a cell left
//! with one colour is coloured at once, a cell with none ends the branch (a
//! primary column of size 1 or 0); otherwise the search branches on a cell
//! with the fewest colours (minimum remaining values; ties to the cell with
//! the most neighbours sharing a colour with it, in a capped search first
//! those with two colours themselves; a capped search tries its colours
//! most-shared first). Each search level keeps, besides the
//! masks, one cell set per colour (the cells whose mask has it), so that
//! colouring a cell visits only the neighbours that lose the colour, and the
//! cells with two colours come from a bit-sliced count over those sets.
//!
//! **Extra deductions, all exact** (they only remove colours that no
//! solution extending the current branch uses, so counts and fixed cells
//! are unchanged; the tests compare with Dancing Links and brute force):
//! * *Unit rules.* Within a unit (row, column, box) the cells are pairwise
//!   adjacent except for the removed edges. `N` cells with `N` colours all
//!   differ, so a colour can be missing from the unit only if the two ends
//!   of some removed edge share a colour. Call a removed edge *mergeable*
//!   while its ends still have a common colour. Then: more missing colours
//!   than mergeable edges is a contradiction; with no mergeable edge every
//!   colour appears exactly once (hidden singles, as in Sudoku); with one
//!   mergeable edge and a missing colour, its ends must share a colour.
//! * *Isolated cells.* An uncoloured cell whose neighbours are all coloured
//!   can no longer lose a colour and constrains nobody: every one of its
//!   colours extends every solution of the rest.
//! * *Components.* Uncoloured cells that are not linked by a path of
//!   uncoloured neighbours do not interact: the number of solutions is the
//!   product over the connected components (and the isolated cells), each
//!   counted by its own search (as in #SAT solvers' component
//!   decomposition). A capped search looks for them only in scopes of
//!   fewer than `SPLIT_MIN` (20) open cells: at k = 45 larger ones seldom
//!   fall apart, and looking cost more than it saved.
//! * *Forests.* A component of at most `FOREST_CELLS` (16) open cells whose
//!   live constraints (edges whose ends still share a colour) form a forest
//!   is counted by dynamic programming over its trees, without search
//!   (`Search::forest_count`); every colour of its cells is then used by
//!   some solution. At high k most of the search ends in such components:
//!   an exact count at k = 90 runs 2.4× faster with them.
//!
//! * *Failed-literal probing* (`Search::probe`), once the search has gone
//!   `PROBE_AFTER` nodes without finding a solution: a colour whose choice
//!   propagates to a contradiction is removed. It stops the thrashing of
//!   plain depth-first search on small unsatisfiable cores hidden below
//!   unrelated choices.
//!
//! The filtering queries (one solution with a cell's value excluded) run as
//! restarts with random value orders and doubling node limits
//! (`Search::exists`); the last attempt is complete, so answers are exact.
//!
//! The count saturates at the cap: a component or branch stops once it
//! reaches the cap, which is exact because every other factor is at least 1.
//! The values seen per cell are recorded only for branches that turn out to
//! have a solution (a journal undoes the others).

use crate::answers::{Count, InstanceAnalysis};
use crate::graph::RelaxedInstance;
use std::ops::ControlFlow;

/// Marks a coloured cell (bit 0; colours use bits `1..=N`).
const PLACED: u32 = 1;

/// Nodes without a solution after which branches are probed (see
/// [`Search::probe`]). Probing only removes colours that no solution uses, so
/// the threshold affects the time, never the answers.
const PROBE_AFTER: u64 = 200;

/// Node limit of the first attempt of an existence search
/// ([`Search::exists`]); each further attempt doubles it.
const FIRST_LIMIT: u64 = 1000;

/// Most open cells of a component counted by [`Search::forest_count`]:
/// with at most 25 colours per cell the count stays below 2^75.
const FOREST_CELLS: usize = 16;

/// Slots per cell in the work space of [`Search::forest_count`], one per
/// colour bit of a mask (colours are bits `1..=25` at order 5).
const COLOUR_SLOTS: usize = 32;

/// Open cells of a scope from which a capped search no longer looks for
/// its components (see [`Search::solve_node`]).
const SPLIT_MIN: u32 = 20;

/// A set of cells, `W` 64-bit words.
type Bits<const W: usize> = [u64; W];

#[inline(always)]
fn set<const W: usize>(b: &mut Bits<W>, i: usize) {
    b[i >> 6] |= 1 << (i & 63);
}

#[inline(always)]
fn clear<const W: usize>(b: &mut Bits<W>, i: usize) {
    b[i >> 6] &= !(1 << (i & 63));
}

#[inline(always)]
fn and<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
fn is_empty<const W: usize>(b: &Bits<W>) -> bool {
    b.iter().all(|&w| w == 0)
}

#[inline(always)]
fn count_ones<const W: usize>(b: &Bits<W>) -> u32 {
    b.iter().map(|w| w.count_ones()).sum()
}

/// Calls `f` with each element of `b`, ascending.
#[inline(always)]
fn for_each<const W: usize>(b: &Bits<W>, mut f: impl FnMut(usize)) {
    for (i, &w) in b.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let t = w.trailing_zeros() as usize;
            w &= w - 1;
            f(i * 64 + t);
        }
    }
}

/// Calls `f` with each colour (`1..=N`) of the mask `c`.
#[inline(always)]
fn for_each_colour(c: u32, mut f: impl FnMut(usize)) {
    let mut rest = c & !PLACED;
    while rest != 0 {
        f(rest.trailing_zeros() as usize);
        rest &= rest - 1;
    }
}

/// Removes and returns the lowest element of `b`.
#[inline(always)]
fn pop<const W: usize>(b: &mut Bits<W>) -> Option<usize> {
    for (i, w) in b.iter_mut().enumerate() {
        if *w != 0 {
            let t = w.trailing_zeros() as usize;
            *w &= *w - 1;
            return Some(i * 64 + t);
        }
    }
    None
}

/// The search on `W`-word cell sets.
#[derive(Debug, Clone)]
struct Search<const W: usize> {
    cells: usize,
    side: usize,
    all: u32,
    given: Vec<bool>,
    /// Neighbour sets of the relaxed graph.
    nbr: Vec<Bits<W>>,
    /// Units: `3N × N` cells; per cell the set of its units (bits of a
    /// `u128`); removed edges inside each unit.
    unit_cells: Vec<u16>,
    cell_units: Vec<u128>,
    unit_pairs: Vec<(u16, u16)>,
    unit_pairs_start: Vec<u32>,
    /// `levels × cells` colour masks and `levels` sets of uncoloured cells;
    /// level 0 is the propagated root.
    cand: Vec<u32>,
    open: Vec<Bits<W>>,
    /// `levels × N` colour boards: board `d - 1` of a level is the set of
    /// cells whose mask there has colour `d` (coloured cells included), so
    /// colouring a cell visits only the neighbours that lose the colour.
    pos: Vec<Bits<W>>,
    queue: Vec<u16>,
    /// Units to re-examine by the unit rules.
    dirty: u128,
    root_ok: bool,
    /// Values seen per cell in solutions, with the journal that undoes
    /// records made in branches without solution.
    seen: Vec<u32>,
    journal: Vec<(u16, u32)>,
    record: bool,
    /// Set when a count stopped at the cap before exploring everything.
    incomplete: bool,
    /// Branching nodes so far, and their number when a branch last turned
    /// out to have a solution: failed-literal probing starts once the search
    /// has gone [`PROBE_AFTER`] nodes without one.
    nodes: u64,
    last_success: u64,
    /// Existence searches only (see [`Search::exists`]): the node count at
    /// which the current attempt gives up, set when it did, and the state
    /// of the generator that picks the value order (0: ascending).
    limit: u64,
    aborted: bool,
    rng: u64,
    /// Whether the count in progress has a cap (see [`Search::best_cell`]).
    capped: bool,
    /// Work space of [`Search::forest_count`].
    ways: Vec<u128>,
}

impl<const W: usize> Search<W> {
    fn new(r: &RelaxedInstance) -> Self {
        let g = r.geometry();
        let cells = g.cells;
        debug_assert!(cells <= W * 64 && g.units.len() <= 128);
        let mut nbr = vec![[0u64; W]; cells];
        for (cell, set_of) in nbr.iter_mut().enumerate() {
            for &x in r.neighbours(cell) {
                set(set_of, x);
            }
        }
        let mut unit_pairs = Vec::new();
        let mut unit_pairs_start = vec![0u32];
        for unit in 0..g.units.len() {
            for &(a, b) in r.removed() {
                if g.cell_units[a].contains(&unit) && g.cell_units[b].contains(&unit) {
                    unit_pairs.push((a as u16, b as u16));
                }
            }
            unit_pairs_start.push(unit_pairs.len() as u32);
        }
        let cell_units = g
            .cell_units
            .iter()
            .map(|us| us.iter().fold(0u128, |acc, &u| acc | 1 << u))
            .collect();
        let mut cand = r.allowed();
        cand.resize(cells * 8, 0);
        let mut open = vec![[0u64; W]; 8];
        let mut pos = vec![[0u64; W]; 8 * g.side];
        for (cell, &c) in cand[..cells].iter().enumerate() {
            set(&mut open[0], cell);
            for_each_colour(c, |d| set(&mut pos[d - 1], cell));
        }
        let mut s = Search {
            cells,
            side: g.side,
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
    fn push_level(&mut self, from: usize) {
        let cells = self.cells;
        let side = self.side;
        if self.open.len() < from + 2 {
            let levels = (from + 2) * 2;
            self.open.resize(levels, [0; W]);
            self.cand.resize(levels * cells, 0);
            self.pos.resize(levels * side, [0; W]);
        }
        self.cand
            .copy_within(from * cells..(from + 1) * cells, (from + 1) * cells);
        self.pos
            .copy_within(from * side..(from + 1) * side, (from + 1) * side);
        self.open[from + 1] = self.open[from];
    }

    /// Sets the colours of `cell` at `depth` to `mask` (a subset of its
    /// current colours), queueing it when single.
    #[inline]
    fn restrict(&mut self, depth: usize, cell: usize, mask: u32) {
        let i = depth * self.cells + cell;
        let boards = &mut self.pos[depth * self.side..(depth + 1) * self.side];
        for_each_colour(self.cand[i] & !mask, |d| clear(&mut boards[d - 1], cell));
        self.cand[i] = mask;
        self.dirty |= self.cell_units[cell];
        if mask & (mask - 1) == 0 {
            self.queue.push(cell as u16);
        }
    }

    /// Runs the deductions at `depth` to a fixpoint; false on a
    /// contradiction. Leaves the queue empty and no unit dirty.
    fn propagate(&mut self, depth: usize) -> bool {
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
    fn singles(&mut self, depth: usize) -> bool {
        let cells = self.cells;
        let side = self.side;
        let cand = &mut self.cand[depth * cells..(depth + 1) * cells];
        let boards = &mut self.pos[depth * side..(depth + 1) * side];
        let open = &mut self.open[depth];
        while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            let c = cand[cell];
            if c & PLACED != 0 {
                continue;
            }
            cand[cell] = c | PLACED;
            clear(open, cell);
            // The neighbours that have the colour, and lose it.
            let board = &mut boards[c.trailing_zeros() as usize - 1];
            let hit = and(board, &self.nbr[cell]);
            for i in 0..W {
                board[i] &= !hit[i];
            }
            let mut ok = true;
            for_each(&hit, |nb| {
                let m = cand[nb] & !c;
                // Emptied, or a coloured neighbour with this colour: the
                // branch ends after the loop.
                let alive = m & !PLACED != 0;
                ok &= alive;
                cand[nb] = m;
                self.dirty |= self.cell_units[nb];
                if alive && m & (m - 1) == 0 {
                    self.queue.push(nb as u16);
                }
            });
            if !ok {
                return false;
            }
        }
        true
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
    fn probe(&mut self, depth: usize) -> bool {
        let cells = self.cells;
        let base = depth * cells;
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
    fn unit_rules(&mut self, depth: usize) -> bool {
        let cells = self.cells;
        let side = self.side;
        let base = depth * cells;
        while self.dirty != 0 {
            let u = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let mut once = 0u32;
            let mut twice = 0u32;
            let mut placed = 0u32;
            let level = &self.cand[base..base + cells];
            for &cell in &self.unit_cells[u * side..(u + 1) * side] {
                let c = level[cell as usize];
                // Branch-free: `c` when coloured, else 0.
                placed |= c & (c & PLACED).wrapping_neg();
                let c = c & !PLACED;
                twice |= once & c;
                once |= c;
            }
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
                let (a, b) = (a as usize, b as usize);
                if self.cand[base + a] & self.cand[base + b] & !PLACED != 0 {
                    mergeable += 1;
                    merge = (a, b);
                }
            }
            if missing.count_ones() > mergeable {
                return false;
            }
            if mergeable == 0 {
                if hidden == 0 {
                    continue;
                }
                for i in u * side..(u + 1) * side {
                    let cell = self.unit_cells[i] as usize;
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

    /// The open neighbours of `cell` at `depth` that share a colour with it:
    /// the constraints its colouring still acts on.
    fn live_neighbours(&self, depth: usize, cell: usize) -> Bits<W> {
        let mut shared = [0u64; W];
        for_each_colour(self.cand[depth * self.cells + cell], |d| {
            let board = &self.pos[depth * self.side + d - 1];
            for i in 0..W {
                shared[i] |= board[i];
            }
        });
        and(&and(&self.nbr[cell], &self.open[depth]), &shared)
    }

    /// The cell of `within` to branch on at `depth`: an open cell with an
    /// open neighbour and the fewest colours. Among cells with two colours,
    /// ties go, in a capped search, to the most neighbours that have two
    /// colours too and share one with it (a choice there forces them, and
    /// leads to solutions sooner), then to the most neighbours sharing a
    /// colour (which, in an exact count, splits components off sooner), then
    /// to the lowest index; among others, to the most neighbours sharing a
    /// colour. (Measured: the first tie-break makes capped searches 1.05–1.2×
    /// faster and exact counts of 10⁷–10⁹ solutions 1.2–1.3× slower.)
    fn best_cell(&self, depth: usize, within: &Bits<W>) -> Option<usize> {
        let base = depth * self.cells;
        let open = &self.open[depth];
        let scope = and(within, open);
        // After propagation an open cell has at least two colours: when some
        // cell with exactly two shares one with a neighbour, the best is
        // among those; otherwise the scan of every cell below decides.
        let (mut once, mut twice, mut more) = ([0u64; W], [0u64; W], [0u64; W]);
        for board in &self.pos[depth * self.side..(depth + 1) * self.side] {
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

    fn note(&mut self, cell: usize, bits: u32) {
        let old = self.seen[cell];
        if old | bits != old {
            self.journal.push((cell as u16, old));
            self.seen[cell] = old | bits;
        }
    }

    fn undo_seen(&mut self, mark: usize) {
        while self.journal.len() > mark {
            if let Some((cell, old)) = self.journal.pop() {
                self.seen[cell as usize] = old;
            }
        }
    }

    /// Counts the colourings of the cells of `scope` (open at the parent of
    /// `depth`) given the state at `depth`, up to `cap`: the product over
    /// the isolated cells and the connected components of the others (a
    /// capped search takes a scope of [`SPLIT_MIN`] open cells or more
    /// whole).
    fn solve_node(&mut self, depth: usize, scope: &Bits<W>, cap: u64) -> u64 {
        let base = depth * self.cells;
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
            let n = self.branch(depth, &comp, need);
            if n == 0 {
                self.incomplete = incomplete;
                return 0;
            }
            product = product.saturating_mul(n).min(cap);
        }
        product.min(cap)
    }

    /// Counts the colourings of one connected component `comp` of open
    /// cells, branching on its best cell, up to `cap`.
    fn branch(&mut self, depth: usize, comp: &Bits<W>, cap: u64) -> u64 {
        if let Some(n) = self.forest_count(depth, comp) {
            return n.min(cap);
        }
        let Some(best) = self.best_cell(depth, comp) else {
            return 1;
        };
        let cells = self.cells;
        let mut total = 0u64;
        let mut rest = self.cand[depth * cells + best] & !PLACED;
        while rest != 0 {
            let bit = if self.capped && self.rng == 0 {
                self.most_shared(depth, best, rest)
            } else {
                self.next_value(rest)
            };
            rest &= !bit;
            if self.nodes >= self.limit {
                self.aborted = true;
                return 0;
            }
            self.push_level(depth);
            self.restrict(depth + 1, best, bit);
            if !self.propagate(depth + 1) {
                continue;
            }
            self.nodes += 1;
            if self.nodes - self.last_success > PROBE_AFTER && !self.probe(depth + 1) {
                continue;
            }
            let mark = self.journal.len();
            let n = self.solve_node(depth + 1, comp, cap - total);
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
    fn forest_count(&mut self, depth: usize, comp: &Bits<W>) -> Option<u64> {
        let scope = and(comp, &self.open[depth]);
        let size = count_ones(&scope) as usize;
        if size > FOREST_CELLS {
            return None;
        }
        let base = depth * self.cells;
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

    /// In a capped search, the colour of `rest` to try next at the branching
    /// cell `cell`: the one the most open neighbours share (it takes the
    /// colour from the most cells, so more is forced below), ties to the
    /// lowest. Measured against the lowest first: forum-hardest 1.15× faster
    /// at k = 45, the other puzzles within ±5 %; the other way round
    /// (fewest neighbours first) gained half as much.
    fn most_shared(&self, depth: usize, cell: usize, rest: u32) -> u32 {
        if rest & (rest - 1) == 0 {
            return rest;
        }
        let open_nbrs = and(&self.nbr[cell], &self.open[depth]);
        let mut best = (0, 0u32);
        for_each_colour(rest, |d| {
            let k = count_ones(&and(&self.pos[depth * self.side + d - 1], &open_nbrs)) + 1;
            if k > best.0 {
                best = (k, 1 << d);
            }
        });
        best.1
    }

    /// The colour (one bit of `rest`) to try next: the lowest, or a random
    /// one while `rng` is set.
    fn next_value(&mut self, rest: u32) -> u32 {
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
    fn exists(&mut self, depth: usize, seed: u64) -> bool {
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
            if !aborted {
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

    /// Counts from the state at `depth` over all cells, up to `cap`
    /// (0 = none); undoes the records when there is no solution.
    fn count_from(&mut self, depth: usize, cap: u64) -> u64 {
        self.capped = cap != 0;
        let cap = if cap == 0 { u64::MAX } else { cap };
        let mut all = [0u64; W];
        for cell in 0..self.cells {
            set(&mut all, cell);
        }
        let mark = self.journal.len();
        let found = self.solve_node(depth, &all, cap);
        if found == 0 {
            self.undo_seen(mark);
        }
        found
    }

    fn count(&mut self, cap: u64) -> Count {
        if !self.root_ok {
            return clamp(0, cap);
        }
        self.record = false;
        let found = self.count_from(0, cap);
        clamp(found, cap)
    }

    fn analyse(&mut self, cap: u64) -> InstanceAnalysis {
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
    fn filter(&mut self) {
        let cells = self.cells;
        for cell in 0..cells {
            let value = self.seen[cell];
            if self.given[cell] || value.count_ones() != 1 {
                continue;
            }
            self.push_level(0);
            let m = self.cand[cells + cell] & !value & !PLACED;
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

    /// Plain depth-first enumeration (no components), calling `visit` with
    /// each leaf: every cell coloured or isolated.
    fn recurse<F>(&mut self, depth: usize, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&[u32]) -> ControlFlow<()>,
    {
        let cells = self.cells;
        let mut all = [0u64; W];
        for cell in 0..cells {
            set(&mut all, cell);
        }
        let Some(best) = self.best_cell(depth, &all) else {
            return visit(&self.cand[depth * cells..(depth + 1) * cells]);
        };
        let mut rest = self.cand[depth * cells + best];
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

    fn solutions(&mut self, cap: u64) -> Vec<Vec<u8>> {
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
fn clamp(found: u64, cap: u64) -> Count {
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

/// The search of one instance, on cell sets sized for its order.
#[derive(Debug, Clone)]
enum ByWidth {
    W1(Box<Search<1>>),
    W2(Box<Search<2>>),
    W4(Box<Search<4>>),
    W10(Box<Search<10>>),
}

/// The search structure of one relaxed instance: built once, it answers any
/// number of `count`, `analyse` and `solutions` calls.
#[derive(Debug, Clone)]
pub struct RelaxedSearch(ByWidth);

macro_rules! dispatch {
    ($self:expr, $s:ident => $e:expr) => {
        match &mut $self.0 {
            ByWidth::W1($s) => $e,
            ByWidth::W2($s) => $e,
            ByWidth::W4($s) => $e,
            ByWidth::W10($s) => $e,
        }
    };
}

impl RelaxedSearch {
    /// Builds the structure and propagates the givens.
    pub fn new(r: &RelaxedInstance) -> RelaxedSearch {
        let cells = r.geometry().cells;
        RelaxedSearch(if cells <= 64 {
            ByWidth::W1(Box::new(Search::new(r)))
        } else if cells <= 128 {
            ByWidth::W2(Box::new(Search::new(r)))
        } else if cells <= 256 {
            ByWidth::W4(Box::new(Search::new(r)))
        } else {
            ByWidth::W10(Box::new(Search::new(r)))
        })
    }

    /// Number of proper colourings, up to `cap` (0 = no cap).
    pub fn count(&mut self, cap: u64) -> Count {
        dispatch!(self, s => s.count(cap))
    }

    /// Count (capped) and fixed non-given cells; see [`crate::dlx::relaxed`].
    pub fn analyse(&mut self, cap: u64) -> InstanceAnalysis {
        dispatch!(self, s => s.analyse(cap))
    }

    /// Up to `cap` colourings (0 = all), one value per cell, in search order.
    pub fn solutions(&mut self, cap: u64) -> Vec<Vec<u8>> {
        dispatch!(self, s => s.solutions(cap))
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
