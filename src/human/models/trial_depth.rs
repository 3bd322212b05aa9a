//! Trial depth: how deeply assumptions must nest before singles conclude.
//!
//! The forum's classification of the hardest puzzles (and Sukaku Explainer's
//! forcing-chain levels: contradiction chains, dynamic chains, nested
//! chains) asks how deep hypotheses must nest before simple deductions find
//! a contradiction. This model measures it with singles as the only
//! deduction (`docs/methods.md` §3.9):
//!
//! 1. Apply naked and hidden singles in **rounds** (every single of the
//!    board at once, one round a step) until the board is solved, stalls or
//!    shows a contradiction.
//! 2. When stalled, assume each remaining candidate in turn and run singles
//!    on the copy until a contradiction; its cost is the number of steps
//!    (the assumption plus the rounds). Eliminate every candidate refuted in
//!    the **fewest** steps and go back to 1.
//! 3. When no single assumption is refuted, nest: an assumption is refuted at
//!    level 2 when, on its copy, steps 1–2 (single assumptions, fewest-step
//!    eliminations) reach a contradiction; its cost is the sum of the rounds
//!    and the eliminations' step counts along the way.
//!
//! The puzzle's **depth** is the deepest level the solve needed (0: singles
//! solve it; 1: single assumptions suffice; 2: nested ones; 3: more than two
//! levels, not searched), and its **steps** the largest fewest-step count
//! met at that depth: a long chain is harder than a short one at the same
//! level. Rounds make every count independent of the order singles are
//! found in, so the result is the same on every puzzle equivalent under the
//! Sudoku symmetries. The computation is deterministic and works on 9×9
//! puzzles with a unique solution; the search for the fewest steps is
//! bounded by the best count found so far. The single assumptions of a
//! board are followed all at once, one bit each ([`side_by_side`]); a
//! nested assumption gets a copy of the board.

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::Puzzle;
use std::sync::OnceLock;

mod side_by_side;
use side_by_side::SideBySide;

const CELLS: usize = 81;
const ALL: u16 = 0b11_1111_1110;
/// The deepest nesting searched; a puzzle that needs more gets depth
/// `MAX_LEVEL + 1`.
pub(crate) const MAX_LEVEL: u8 = 2;
/// A count no refutation reaches.
const UNBOUNDED: u32 = u32::MAX / 4;

struct Tables {
    /// The three units of each cell, as a bit set of unit indices.
    unit_mask: [u32; CELLS],
    /// The cells of each unit, as a bit set of cell indices.
    unit_cells: [u128; 27],
    /// The peers of each cell, as a bit set of cell indices.
    peer_cells: [u128; CELLS],
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut units = [[0u8; 9]; 27];
        for (u, unit) in units.iter_mut().enumerate() {
            let i = u % 9;
            for (j, cell) in unit.iter_mut().enumerate() {
                *cell = match u / 9 {
                    0 => 9 * i + j,
                    1 => 9 * j + i,
                    _ => 27 * (i / 3) + 3 * (i % 3) + 9 * (j / 3) + j % 3,
                } as u8;
            }
        }
        let mut unit_mask = [0u32; CELLS];
        let mut unit_cells = [0u128; 27];
        for (u, unit) in units.iter().enumerate() {
            for &c in unit {
                unit_mask[c as usize] |= 1 << u;
                unit_cells[u] |= 1 << c;
            }
        }
        let mut peer_cells = [0u128; CELLS];
        for (c, peers) in peer_cells.iter_mut().enumerate() {
            let mut u = unit_mask[c];
            while u != 0 {
                *peers |= unit_cells[u.trailing_zeros() as usize];
                u &= u - 1;
            }
            *peers &= !(1 << c);
        }
        Tables {
            unit_mask,
            unit_cells,
            peer_cells,
        }
    })
}

/// What singles did to a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// A contradiction showed after this many rounds.
    Contradiction(u32),
    /// Every cell is filled.
    Solved,
    /// No single applies (or the round limit was reached).
    Stalled(u32),
}

/// A 9×9 candidate grid small enough to copy for every nested assumption.
///
/// Besides each cell's candidates it keeps, for each digit, the cells where
/// it is a candidate (`plane`) and the units where it is not placed yet
/// (`open`). The cells, and for each digit the units, changed since
/// singles last looked at them are kept as bit sets: a cell or a unit's
/// digit outside them holds no single and no contradiction, so a round
/// looks only at what changed and finds exactly what a scan of the whole
/// board would.
#[derive(Clone, Copy)]
struct Grid {
    cand: [u16; CELLS],
    val: [u8; CELLS],
    empty: u8,
    plane: [u128; 9],
    open: [u32; 9],
    dirty_cells: u128,
    dirty_units: [u32; 9],
}

const ALL_CELLS: u128 = (1 << CELLS) - 1;
const ALL_UNITS: u32 = (1 << 27) - 1;

impl Grid {
    fn new(cells: &[u8]) -> Option<Grid> {
        let t = tables();
        let mut g = Grid {
            cand: [ALL; CELLS],
            val: [0; CELLS],
            empty: CELLS as u8,
            plane: [ALL_CELLS; 9],
            open: [ALL_UNITS; 9],
            dirty_cells: ALL_CELLS,
            dirty_units: [ALL_UNITS; 9],
        };
        for (c, &d) in cells.iter().enumerate() {
            if d != 0 && !g.place(t, c, d) {
                return None;
            }
        }
        Some(g)
    }

    /// Places `d` at an empty cell; false when `d` is no longer a candidate.
    #[inline]
    fn place(&mut self, t: &Tables, cell: usize, d: u8) -> bool {
        let bit = 1u16 << d;
        let old = self.cand[cell];
        if old & bit == 0 {
            return false;
        }
        self.val[cell] = d;
        self.cand[cell] = 0;
        self.empty -= 1;
        let units = t.unit_mask[cell];
        let mut m = old;
        while m != 0 {
            let e = m.trailing_zeros() as usize;
            m &= m - 1;
            self.plane[e - 1] &= !(1 << cell);
            self.dirty_units[e - 1] |= units;
        }
        let di = d as usize - 1;
        self.open[di] &= !units;
        let hit = self.plane[di] & t.peer_cells[cell];
        self.plane[di] &= !hit;
        self.dirty_cells |= hit;
        let mut m = hit;
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            self.cand[p] &= !bit;
            self.dirty_units[di] |= t.unit_mask[p];
        }
        true
    }

    /// Removes candidate `d` from `cell`.
    #[inline]
    fn eliminate(&mut self, t: &Tables, cell: usize, d: u8) {
        let bit = 1u16 << d;
        if self.cand[cell] & bit != 0 {
            let di = d as usize - 1;
            self.cand[cell] &= !bit;
            self.plane[di] &= !(1 << cell);
            self.dirty_cells |= 1 << cell;
            self.dirty_units[di] |= t.unit_mask[cell];
        }
    }

    /// Pushes every single of the board onto `buf`; false on a
    /// contradiction (a cell without candidates, a unit without a place for
    /// a digit). Looks only at the cells and units' digits changed since
    /// the last scan that found nothing.
    fn scan(&self, t: &Tables, buf: &mut Vec<(u8, u8)>) -> bool {
        let mut m = self.dirty_cells;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.val[c] == 0 {
                let m = self.cand[c];
                if m == 0 {
                    return false;
                }
                if m & (m - 1) == 0 {
                    buf.push((c as u8, m.trailing_zeros() as u8));
                }
            }
        }
        for (di, &units) in self.dirty_units.iter().enumerate() {
            if !hidden_singles(t, self.plane[di], units & self.open[di], di as u8 + 1, buf) {
                return false;
            }
        }
        true
    }

    /// Places the singles of one round; false when two of them conflict.
    fn apply(&mut self, t: &Tables, buf: &[(u8, u8)]) -> bool {
        self.dirty_cells = 0;
        self.dirty_units = [0; 9];
        for &(c, d) in buf {
            let c = c as usize;
            if self.val[c] == d {
                continue;
            }
            if self.val[c] != 0 || !self.place(t, c, d) {
                return false;
            }
        }
        true
    }

    /// Applies singles in rounds, at most `limit` rounds.
    fn singles(&mut self, t: &Tables, limit: u32, buf: &mut Vec<(u8, u8)>) -> Outcome {
        let mut rounds = 0;
        loop {
            if self.empty == 0 {
                return Outcome::Solved;
            }
            buf.clear();
            if !self.scan(t, buf) {
                return Outcome::Contradiction(rounds);
            }
            if buf.is_empty() {
                self.dirty_cells = 0;
                self.dirty_units = [0; 9];
                return Outcome::Stalled(rounds);
            }
            if rounds >= limit {
                return Outcome::Stalled(rounds);
            }
            rounds += 1;
            if !self.apply(t, buf) {
                return Outcome::Contradiction(rounds);
            }
        }
    }
}

/// Pushes the hidden singles of digit `d` (its cells `plane`) in `units`
/// onto `buf`; false when one of them has no place for `d`.
#[inline]
fn hidden_singles(t: &Tables, plane: u128, units: u32, d: u8, buf: &mut Vec<(u8, u8)>) -> bool {
    let mut um = units;
    while um != 0 {
        let u = um.trailing_zeros() as usize;
        um &= um - 1;
        let here = plane & t.unit_cells[u];
        if here == 0 {
            return false;
        }
        if here & (here - 1) == 0 {
            buf.push((here.trailing_zeros() as u8, d));
        }
    }
    true
}

/// Search state shared by the nested refutations: the singles buffer and the
/// number of assumptions tried.
struct Search {
    buf: Vec<(u8, u8)>,
    probes: u64,
    /// The single assumptions followed side by side.
    side_by_side: SideBySide,
    /// Per nesting level, each candidate's step count (or the bound it
    /// exceeded) at the last search of that level: the order of the next.
    last: [[u32; 9 * CELLS]; MAX_LEVEL as usize],
    /// A solution of the puzzle (0 where none is known): an assumption it
    /// holds is never refuted on a board that keeps it, so the search of
    /// the top board skips those.
    solution: [u8; CELLS],
}

impl Search {
    /// Whether singles with at most `level` nested assumptions refute the
    /// board in at most `bound` steps; the steps if so.
    fn refute(&mut self, t: &Tables, g: &mut Grid, level: u8, bound: u32) -> Option<u32> {
        let mut cost = 0;
        loop {
            match g.singles(t, bound - cost, &mut self.buf) {
                Outcome::Contradiction(r) => return Some(cost + r),
                Outcome::Solved => return None,
                Outcome::Stalled(r) => cost += r,
            }
            if level == 0 || cost >= bound {
                return None;
            }
            let (steps, refuted) = self.fewest(t, g, level - 1, bound - cost, false)?;
            cost += steps;
            for (c, d) in refuted {
                g.eliminate(t, c as usize, d);
            }
        }
    }

    /// The candidates of `g` whose assumption is refuted at nesting `level`
    /// in the fewest steps (at most `bound`), and that count.
    fn fewest(
        &mut self,
        t: &Tables,
        g: &Grid,
        level: u8,
        bound: u32,
        top: bool,
    ) -> Option<(u32, Vec<(u8, u8)>)> {
        if level == 0 {
            return self.fewest_singles(t, g, bound, top);
        }
        // Candidates in the order of their counts at the last search of
        // this level (fewest first), so the bound tightens early; the result
        // does not depend on the order.
        let mut order: Vec<(u32, u8, u8)> = Vec::with_capacity(4 * CELLS);
        for c in 0..CELLS {
            let mut m = g.cand[c];
            while m != 0 {
                let d = m.trailing_zeros() as u8;
                m &= m - 1;
                if top && self.solution[c] == d {
                    continue;
                }
                order.push((
                    self.last[level as usize][9 * c + d as usize - 1],
                    c as u8,
                    d,
                ));
            }
        }
        order.sort_unstable();
        let mut best = bound;
        let mut refuted = Vec::new();
        for (_, c, d) in order {
            self.probes += 1;
            let mut h = *g;
            h.place(t, c as usize, d);
            let r = self.refute(t, &mut h, level, best - 1);
            let last = &mut self.last[level as usize][9 * c as usize + d as usize - 1];
            let Some(r) = r else {
                // Not refuted within the bound: at least one more step.
                *last = best;
                continue;
            };
            let steps = r + 1;
            *last = steps;
            if steps < best {
                best = steps;
                refuted.clear();
            }
            refuted.push((c, d));
        }
        (!refuted.is_empty()).then_some((best, refuted))
    }

    /// [`Search::fewest`] at level 0, with every assumption followed one
    /// round at a time, side by side ([`SideBySide`]): the first round at
    /// which some are refuted is the fewest steps, and no assumption is
    /// followed beyond it. The same candidates and count as probing each in
    /// turn.
    fn fewest_singles(
        &mut self,
        t: &Tables,
        g: &Grid,
        bound: u32,
        top: bool,
    ) -> Option<(u32, Vec<(u8, u8)>)> {
        // An assumption refuted after `r` rounds takes `r + 1` steps: at
        // most `limit` rounds fit the bound.
        let limit = bound.checked_sub(1)?;
        let solution = &self.solution;
        let assumed = self.side_by_side.load(t, g, |c, d| top && solution[c] == d);
        self.probes += assumed as u64;
        self.side_by_side.fewest(limit)
    }
}

/// What the trial-depth model measured on a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub(crate) struct TrialDepth {
    /// Deepest nesting of assumptions the solve needed: 0 singles, 1 single
    /// assumptions, 2 nested, 3 more than two levels.
    pub depth: u8,
    /// The largest fewest-step count of the eliminations at that depth (0
    /// at depth 0 or 3).
    pub steps: u32,
    /// Eliminations made by assumptions of any level over the solve.
    pub eliminations: u32,
    /// Assumptions tried, nested ones included: the cost of the measure.
    pub probes: u64,
}

impl TrialDepth {
    /// One number ordering puzzles by depth, then by steps:
    /// `depth + steps / (steps + 8)`, so each depth keeps to its unit
    /// interval (depth 3 is 3.5, the middle of its interval, since its
    /// steps are unknown).
    pub(crate) fn rating(&self) -> f64 {
        if self.depth > MAX_LEVEL {
            return f64::from(self.depth) + 0.5;
        }
        let s = f64::from(self.steps);
        f64::from(self.depth) + s / (s + 8.0)
    }
}

/// Why the trial depth could not be measured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrialDepthError {
    /// Only 9×9 grids are handled.
    #[error("trial depth needs a 9x9 puzzle, got order {0}")]
    Order(usize),
    /// The givens contradict each other, or singles prove the puzzle has no
    /// solution.
    #[error("the puzzle has no solution")]
    Contradiction,
}

/// The trial depth of a 9×9 puzzle (`docs/methods.md` §3.9). A puzzle with
/// several solutions may stall with no refutation at any level; it then
/// gets depth `MAX_LEVEL + 1`, like a puzzle that needs deeper nesting.
///
/// # Errors
/// A puzzle of another order, or one singles show to have no solution.
pub(crate) fn trial_depth(puzzle: &Puzzle) -> Result<TrialDepth, TrialDepthError> {
    if puzzle.order() != 3 {
        return Err(TrialDepthError::Order(puzzle.order()));
    }
    let t = tables();
    let mut g = Grid::new(puzzle.cells()).ok_or(TrialDepthError::Contradiction)?;
    let mut search = Search {
        buf: Vec::with_capacity(2 * CELLS),
        probes: 0,
        side_by_side: SideBySide::default(),
        last: [[UNBOUNDED; 9 * CELLS]; MAX_LEVEL as usize],
        solution: [0; CELLS],
    };
    if let Some(s) = crate::bitset::sudoku::solve(puzzle) {
        search.solution.copy_from_slice(s.cells());
    }
    let mut out = TrialDepth {
        depth: 0,
        steps: 0,
        eliminations: 0,
        probes: 0,
    };
    loop {
        let mut buf = std::mem::take(&mut search.buf);
        let outcome = g.singles(t, UNBOUNDED, &mut buf);
        search.buf = buf;
        match outcome {
            Outcome::Solved => break,
            Outcome::Contradiction(_) => return Err(TrialDepthError::Contradiction),
            Outcome::Stalled(_) => {}
        }
        let found = (1..=MAX_LEVEL).find_map(|level| {
            search
                .fewest(t, &g, level - 1, UNBOUNDED, true)
                .map(|(steps, refuted)| (level, steps, refuted))
        });
        let Some((level, steps, refuted)) = found else {
            out.depth = MAX_LEVEL + 1;
            out.steps = 0;
            break;
        };
        if level > out.depth {
            out.depth = level;
            out.steps = 0;
        }
        if level == out.depth {
            out.steps = out.steps.max(steps);
        }
        out.eliminations += refuted.len() as u32;
        for (c, d) in refuted {
            g.eliminate(t, c as usize, d);
        }
    }
    out.probes = search.probes;
    Ok(out)
}

/// The trial depth's row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrialRow {
    /// Deepest nesting of assumptions singles needed (0–3).
    pub depth: Option<u8>,
    /// The largest fewest-step refutation count at that depth.
    pub steps: Option<u32>,
    /// Depth and steps in one number, `depth + steps/(steps + 8)`.
    pub rating: Option<f64>,
    /// Candidates eliminated by assumptions over the solve.
    pub eliminations: Option<u32>,
    /// Why the row is null when the model ran.
    pub why_null: Option<TrialDepthError>,
}

impl HumanModel for TrialRow {
    /// Givens alone: its grid of singles is built from the givens.
    fn reads_pencilmarks() -> bool {
        false
    }

    type Options = ();
    fn rate(&mut self, on: &Rating<'_>, _: &()) {
        match trial_depth(on.puzzle) {
            Ok(r) => {
                self.depth = Some(r.depth);
                self.steps = Some(r.steps);
                self.rating = Some(r.rating());
                self.eliminations = Some(r.eliminations);
            }
            Err(why) => self.why_null = Some(why),
        }
    }
}

impl ModelRow for TrialRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    fn depth_of(line: &str) -> TrialDepth {
        trial_depth(&parse_puzzle(line).unwrap()).unwrap()
    }

    /// The same puzzle transposed, its digits renamed `d → 10 − d`.
    fn transposed_and_renamed(line: &str) -> String {
        let b = line.as_bytes();
        (0..CELLS)
            .map(|i| match b[9 * (i % 9) + i / 9] {
                d @ b'1'..=b'9' => (b'0' + 10 - (d - b'0')) as char,
                _ => '.',
            })
            .collect()
    }

    /// top1465, SE 3.4: single assumptions refute in at most 2 steps.
    const TOP_SE34: &str =
        "5..7..6....38...........2..62.4............917............35.8.4.....1......9....";
    /// top1465, SE 9.6: needs nested assumptions.
    const TOP_SE96: &str =
        "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........";

    #[test]
    fn singles_solve_an_easy_puzzle_at_depth_0() {
        let r = depth_of(
            "158....27..78254..2..371.....51..8.38..4.26.5.64.87.....3....62.7..14.3.6.1.9..5.",
        );
        assert_eq!((r.depth, r.steps, r.eliminations, r.probes), (0, 0, 0, 0));
        assert_eq!(r.rating(), 0.0);
    }

    #[test]
    fn a_moderate_puzzle_needs_single_assumptions() {
        let r = depth_of(TOP_SE34);
        assert_eq!((r.depth, r.steps, r.eliminations), (1, 2, 43));
        assert!((r.rating() - 1.2).abs() < 1e-12);
    }

    #[test]
    fn a_hard_puzzle_needs_nested_assumptions() {
        let r = depth_of(TOP_SE96);
        assert_eq!((r.depth, r.steps, r.eliminations), (2, 5, 83));
        assert!((r.rating() - (2.0 + 5.0 / 13.0)).abs() < 1e-12);
    }

    #[test]
    fn equivalent_puzzles_get_the_same_depth() {
        for line in [TOP_SE34, TOP_SE96] {
            let (a, b) = (depth_of(line), depth_of(&transposed_and_renamed(line)));
            assert_eq!(
                (a.depth, a.steps, a.eliminations),
                (b.depth, b.steps, b.eliminations)
            );
        }
    }

    #[test]
    fn contradictory_givens_and_other_orders_are_refused() {
        let twice = format!("11{}", ".".repeat(79));
        assert_eq!(
            trial_depth(&parse_puzzle(&twice).unwrap()),
            Err(TrialDepthError::Contradiction)
        );
        let four = parse_puzzle(&".".repeat(16)).unwrap();
        assert_eq!(trial_depth(&four), Err(TrialDepthError::Order(2)));
    }

    #[test]
    fn the_search_finds_what_the_plain_search_finds() {
        // Fletcher's four (Cinch … Crazy), and the two of top1465.
        let mut puzzles: Vec<Puzzle> = crate::grid::Puzzle::examples()
            .into_iter()
            .take(4)
            .collect();
        puzzles.extend([TOP_SE34, TOP_SE96].map(|l| parse_puzzle(l).unwrap()));
        let mut depths = Vec::new();
        for p in &puzzles {
            let r = trial_depth(p).unwrap();
            assert_eq!(
                (r.depth, r.steps, r.eliminations),
                reference::plain(p),
                "{}",
                p.to_line()
            );
            depths.push(r.depth);
        }
        assert!(depths.contains(&1) && depths.contains(&2), "{depths:?}");
    }

    #[test]
    fn hard_puzzles_keep_their_depth_steps_and_eliminations() {
        // Computed by the previous implementation (every lane copied and
        // scanned from its first round, singles applied lane by lane) and
        // checked unchanged by the faster search.
        for (line, expected) in [
            // AI Escargot.
            (
                "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
                (2, 14, 81),
            ),
            // Red Dwarf.
            (
                "12.3....435....1....4........54..2..6...7.........8.9...31..5.......9.7.....6...8",
                (2, 10, 72),
            ),
            // tarx0134.
            (
                "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
                (2, 8, 89),
            ),
            // top1465, nested assumptions in few steps.
            (
                ".2.....74.98.1.............7..3.5..6....2.9..1..............83....6.7......4.....",
                (2, 4, 75),
            ),
            // A 17-clue puzzle that single assumptions solve.
            (
                ".................1..2.34........234..1...5....6.7........6.......4...2...8.1....9",
                (1, 2, 14),
            ),
        ] {
            let r = depth_of(line);
            assert_eq!((r.depth, r.steps, r.eliminations), expected, "{line}");
        }
    }

    #[test]
    fn tables_hold_20_peers_and_27_units() {
        let t = tables();
        for c in 0..CELLS {
            assert_eq!(t.peer_cells[c].count_ones(), 20);
            assert_eq!(t.peer_cells[c] & (1 << c), 0);
            assert_eq!(t.unit_mask[c].count_ones(), 3);
            let (row, col) = (c / 9, c % 9);
            for p in 0..CELLS {
                let (r, k) = (p / 9, p % 9);
                let peer = p != c && (r == row || k == col || (r / 3, k / 3) == (row / 3, col / 3));
                assert_eq!(t.peer_cells[c] >> p & 1 == 1, peer, "{c} {p}");
            }
        }
        assert!(t.unit_cells.iter().all(|u| u.count_ones() == 9));
        assert_eq!(t.unit_cells.iter().fold(0, |a, u| a | u), ALL_CELLS);
    }

    /// The search as first written, to check the faster one against: every
    /// round scans the whole board; each assumption is followed on its own, in
    /// cell order, with the solution's candidates tried too.
    #[allow(clippy::needless_range_loop)]
    mod reference {
        use super::super::{MAX_LEVEL, UNBOUNDED};
        use crate::grid::Puzzle;
        const CELLS: usize = 81;
        const ALL: u16 = 0b11_1111_1110;
        struct Tables {
            peers: [[u8; 20]; CELLS],
            units: [[u8; 9]; 27],
        }

        fn tables() -> Tables {
            {
                let mut units = [[0u8; 9]; 27];
                for (u, unit) in units.iter_mut().enumerate() {
                    let i = u % 9;
                    for (j, cell) in unit.iter_mut().enumerate() {
                        *cell = match u / 9 {
                            0 => 9 * i + j,
                            1 => 9 * j + i,
                            _ => 27 * (i / 3) + 3 * (i % 3) + 9 * (j / 3) + j % 3,
                        } as u8;
                    }
                }
                let mut peers = [[0u8; 20]; CELLS];
                for (c, row) in peers.iter_mut().enumerate() {
                    let mut k = 0;
                    for p in 0..CELLS {
                        let same = p / 9 == c / 9
                            || p % 9 == c % 9
                            || (p / 27 == c / 27 && (p % 9) / 3 == (c % 9) / 3);
                        if same && p != c {
                            row[k] = p as u8;
                            k += 1;
                        }
                    }
                }
                Tables { peers, units }
            }
        }

        /// What singles did to a board.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum Outcome {
            /// A contradiction showed after this many rounds.
            Contradiction(u32),
            /// Every cell is filled.
            Solved,
            /// No single applies (or the round limit was reached).
            Stalled(u32),
        }

        /// A 9×9 candidate grid small enough to copy for every assumption.
        #[derive(Clone, Copy)]
        struct Grid {
            cand: [u16; CELLS],
            val: [u8; CELLS],
            empty: u8,
        }

        impl Grid {
            fn new(cells: &[u8]) -> Option<Grid> {
                let t = &tables();
                let mut g = Grid {
                    cand: [ALL; CELLS],
                    val: [0; CELLS],
                    empty: CELLS as u8,
                };
                for (c, &d) in cells.iter().enumerate() {
                    if d != 0 && !g.place(t, c, d) {
                        return None;
                    }
                }
                Some(g)
            }

            /// Places `d` at an empty cell; false when `d` is no longer a candidate.
            #[inline]
            fn place(&mut self, t: &Tables, cell: usize, d: u8) -> bool {
                let bit = 1u16 << d;
                if self.cand[cell] & bit == 0 {
                    return false;
                }
                self.val[cell] = d;
                self.cand[cell] = 0;
                self.empty -= 1;
                for &p in &t.peers[cell] {
                    self.cand[p as usize] &= !bit;
                }
                true
            }

            /// Applies singles in rounds, at most `limit` rounds.
            fn singles(&mut self, t: &Tables, limit: u32, buf: &mut Vec<(u8, u8)>) -> Outcome {
                let mut rounds = 0;
                loop {
                    if self.empty == 0 {
                        return Outcome::Solved;
                    }
                    buf.clear();
                    for c in 0..CELLS {
                        if self.val[c] == 0 {
                            let m = self.cand[c];
                            if m == 0 {
                                return Outcome::Contradiction(rounds);
                            }
                            if m & (m - 1) == 0 {
                                buf.push((c as u8, m.trailing_zeros() as u8));
                            }
                        }
                    }
                    for unit in &t.units {
                        let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                        for &c in unit {
                            let m = self.cand[c as usize];
                            twice |= once & m;
                            once |= m;
                            placed |= (1u16 << self.val[c as usize]) & ALL;
                        }
                        if ALL & !(once | placed) != 0 {
                            return Outcome::Contradiction(rounds);
                        }
                        let mut alone = once & !twice;
                        while alone != 0 {
                            let d = alone.trailing_zeros() as u8;
                            alone &= alone - 1;
                            if let Some(&c) = unit
                                .iter()
                                .find(|&&c| self.cand[c as usize] & (1 << d) != 0)
                            {
                                buf.push((c, d));
                            }
                        }
                    }
                    if buf.is_empty() || rounds >= limit {
                        return Outcome::Stalled(rounds);
                    }
                    rounds += 1;
                    for &(c, d) in buf.iter() {
                        let c = c as usize;
                        if self.val[c] == d {
                            continue;
                        }
                        if self.val[c] != 0 || !self.place(t, c, d) {
                            return Outcome::Contradiction(rounds);
                        }
                    }
                }
            }
        }

        /// Search state shared by the nested refutations: the singles buffer and the
        /// number of assumptions tried.
        struct Search {
            buf: Vec<(u8, u8)>,
            probes: u64,
        }

        impl Search {
            /// Whether singles with at most `level` nested assumptions refute the
            /// board in at most `bound` steps; the steps if so.
            fn refute(&mut self, t: &Tables, g: &mut Grid, level: u8, bound: u32) -> Option<u32> {
                let mut cost = 0;
                loop {
                    match g.singles(t, bound - cost, &mut self.buf) {
                        Outcome::Contradiction(r) => return Some(cost + r),
                        Outcome::Solved => return None,
                        Outcome::Stalled(r) => cost += r,
                    }
                    if level == 0 || cost >= bound {
                        return None;
                    }
                    let (steps, refuted) = self.fewest(t, g, level - 1, bound - cost)?;
                    cost += steps;
                    for (c, d) in refuted {
                        g.cand[c as usize] &= !(1 << d);
                    }
                }
            }

            /// The candidates of `g` whose assumption is refuted at nesting `level`
            /// in the fewest steps (at most `bound`), and that count.
            fn fewest(
                &mut self,
                t: &Tables,
                g: &Grid,
                level: u8,
                bound: u32,
            ) -> Option<(u32, Vec<(u8, u8)>)> {
                let mut best = bound;
                let mut refuted = Vec::new();
                for c in 0..CELLS {
                    let mut m = g.cand[c];
                    while m != 0 {
                        let d = m.trailing_zeros() as u8;
                        m &= m - 1;
                        self.probes += 1;
                        let mut h = *g;
                        h.place(t, c, d);
                        let Some(r) = self.refute(t, &mut h, level, best - 1) else {
                            continue;
                        };
                        let steps = r + 1;
                        if steps < best {
                            best = steps;
                            refuted.clear();
                        }
                        refuted.push((c as u8, d));
                    }
                }
                (!refuted.is_empty()).then_some((best, refuted))
            }
        }

        /// Depth, steps and eliminations of the plain search.
        pub(super) fn plain(puzzle: &Puzzle) -> (u8, u32, u32) {
            let (depth, steps, eliminations) = (0u8, 0u32, 0u32);
            let mut out = (depth, steps, eliminations);
            let t = &tables();
            let mut g = Grid::new(puzzle.cells()).expect("a consistent puzzle");
            let mut search = Search {
                buf: Vec::with_capacity(2 * CELLS),
                probes: 0,
            };
            loop {
                let mut buf = std::mem::take(&mut search.buf);
                let outcome = g.singles(t, UNBOUNDED, &mut buf);
                search.buf = buf;
                match outcome {
                    Outcome::Solved => break,
                    Outcome::Contradiction(_) => panic!("a consistent puzzle"),
                    Outcome::Stalled(_) => {}
                }
                let found = (1..=MAX_LEVEL).find_map(|level| {
                    search
                        .fewest(t, &g, level - 1, UNBOUNDED)
                        .map(|(steps, refuted)| (level, steps, refuted))
                });
                let Some((level, steps, refuted)) = found else {
                    out.0 = MAX_LEVEL + 1;
                    out.1 = 0;
                    break;
                };
                if level > out.0 {
                    out.0 = level;
                    out.1 = 0;
                }
                if level == out.0 {
                    out.1 = out.1.max(steps);
                }
                out.2 += refuted.len() as u32;
                for (c, d) in refuted {
                    g.cand[c as usize] &= !(1 << d);
                }
            }
            out
        }
    }
}
