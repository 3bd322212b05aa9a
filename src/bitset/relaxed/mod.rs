//! Bitset search over cells for a relaxed instance: [`count`], [`analyze`]
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
//! A child works on a copy of its parent's level, except the last child
//! of a branch, which works on the parent's level itself (nothing reads it
//! afterwards; never the root level, which later calls start from).
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
//!   some solution. At high k most of the search ends in such components,
//!   and exact counts there run much faster with them (`docs/performance.md`).
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

//!
//! One file per part of the search: `bits.rs` (cell sets of `W` words),
//! `board.rs` (set-up of an instance, search levels, the journal of values
//! seen), `propagation.rs` (singles, unit rules, failed-literal probing),
//! `branching.rs` (the cell and colour to branch on), `components.rs`
//! (components, isolated cells and the forest count), `counting.rs`
//! (counts and enumeration) and `fixed_cells.rs` (fixed cells by
//! existence searches with restarts).

mod bits;
mod board;
mod branching;
mod components;
mod counting;
mod fixed_cells;
mod propagation;

use crate::answers::{Count, InstanceAnalysis};
use crate::graph::RelaxedInstance;
use bits::Bits;

/// Marks a coloured cell (bit 0; colours use bits `1..=N`).
const PLACED: u32 = 1;

/// Nodes without a solution after which branches are probed (see
/// [`Search::probe`]). Probing only removes colours that no solution uses, so
/// the threshold affects the time, never the answers. A probe tries every
/// colour of every open cell, so probing early costs more than it saves,
/// while never probing makes counts at high k far slower (the thresholds
/// measured are in `docs/performance.md`, probing threshold).
const PROBE_AFTER: u64 = 5000;

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

/// The search on `W`-word cell sets.
#[derive(Debug, Clone)]
struct Search<const W: usize> {
    cells: usize,
    all: u32,
    given: Vec<bool>,
    /// Neighbour sets of the relaxed graph (`STRIDE` entries, the last
    /// ones empty).
    nbr: Vec<Bits<W>>,
    /// Units: `3N × N` cells; per cell the set of its units (bits of a
    /// `u128`, `STRIDE` entries); removed edges inside each unit.
    unit_cells: Vec<u16>,
    cell_units: Vec<u128>,
    unit_pairs: Vec<(u16, u16)>,
    unit_pairs_start: Vec<u32>,
    /// `levels × STRIDE` colour masks (the first `cells` of each level in
    /// use) and `levels` sets of uncoloured cells; level 0 is the propagated
    /// root.
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
    /// Cells per unit: the width fixes the order (orders 2, 3, 4 and 5 take
    /// 1, 2, 4 and 10 words), so the unit loops have a constant length.
    const SIDE: usize = match W {
        1 => 4,
        2 => 9,
        4 => 16,
        _ => 25,
    };
    /// Entries per level of `cand` (and of the per-cell tables `nbr` and
    /// `cell_units`): one per bit of a cell set, so that an index reduced
    /// modulo `STRIDE` (a mask for `W` = 1, 2, 4) needs no bounds check.
    const STRIDE: usize = 64 * W;
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
/// number of `count`, `analyze` and `solutions` calls.
#[derive(Debug, Clone)]
pub(crate) struct RelaxedSearch(ByWidth);

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
    pub(crate) fn new(r: &RelaxedInstance) -> RelaxedSearch {
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
    pub(crate) fn count(&mut self, cap: u64) -> Count {
        dispatch!(self, s => s.count(cap))
    }

    /// Count (capped) and fixed non-given cells; see [`crate::dlx::relaxed`].
    pub(crate) fn analyze(&mut self, cap: u64) -> InstanceAnalysis {
        dispatch!(self, s => s.analyze(cap))
    }

    /// [`RelaxedSearch::analyze`] and its certificate: the first `listed`
    /// colourings in search order (0 = all of them), to be checked by
    /// another engine (the SAT certificate check).
    pub(crate) fn analyze_with_solutions(
        &mut self,
        cap: u64,
        listed: u64,
    ) -> (InstanceAnalysis, Vec<Vec<u8>>) {
        let analysis = self.analyze(cap);
        let solutions = if analysis.count.solutions == 0 {
            Vec::new()
        } else {
            self.solutions(listed)
        };
        (analysis, solutions)
    }

    /// Up to `cap` colourings (0 = all), one value per cell, in search order.
    pub(crate) fn solutions(&mut self, cap: u64) -> Vec<Vec<u8>> {
        dispatch!(self, s => s.solutions(cap))
    }
}

/// Number of proper colourings of `r`, up to `cap` (0 = no cap).
pub(crate) fn count(r: &RelaxedInstance, cap: u64) -> Count {
    RelaxedSearch::new(r).count(cap)
}

/// Count and fixed non-given cells of `r`.
pub(crate) fn analyze(r: &RelaxedInstance, cap: u64) -> InstanceAnalysis {
    RelaxedSearch::new(r).analyze(cap)
}

/// Count, fixed non-given cells and the solutions behind them: the first
/// `cap` in search order, every one when the count is below the cap (see
/// `RelaxedSearch::analyze_with_solutions`).
#[cfg(test)]
pub(crate) fn analyze_with_solutions(
    r: &RelaxedInstance,
    cap: u64,
) -> (InstanceAnalysis, Vec<Vec<u8>>) {
    RelaxedSearch::new(r).analyze_with_solutions(cap, cap)
}

/// Up to `cap` colourings of `r` (0 = all).
#[cfg(test)]
pub(crate) fn solutions(r: &RelaxedInstance, cap: u64) -> Vec<Vec<u8>> {
    RelaxedSearch::new(r).solutions(cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    /// One search answers repeated calls as fresh ones do: the last child of
    /// a branch is searched on its parent's level, which must never be the
    /// propagated root that later calls start from.
    #[test]
    fn repeated_calls_match_fresh_searches() {
        let hard =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        let easy =
            ".......83.9...35...58.2....2...157...4.3...15.7..843.........2..81.4......7......";
        for (line, k, seed) in [
            (hard, 30, 1),
            (hard, 45, 2),
            (hard, 60, 4),
            (easy, 10, 5),
            (easy, 20, 6),
            (easy, 30, 7),
        ] {
            let p = parse_puzzle(line).unwrap();
            let removed = RelaxedInstance::sample_edges(3, k, seed).unwrap();
            let r = RelaxedInstance::new(&p, &removed).unwrap();
            let mut s = RelaxedSearch::new(&r);
            // Exact counts (cap 0) only where they stay below 1000.
            let small = !count(&r, 1000).capped;
            for cap in [1000, 7, 0, 1000] {
                if cap == 0 && !small {
                    continue;
                }
                assert_eq!(s.count(cap), count(&r, cap), "k={k} cap={cap}");
                assert_eq!(s.analyze(cap), analyze(&r, cap), "k={k} cap={cap}");
            }
            let listed = s.solutions(50);
            assert_eq!(listed, solutions(&r, 50));
            assert!(listed.iter().all(|x| r.is_solution(x)));
        }
    }
}
