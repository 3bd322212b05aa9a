//! Every single assumption of a stalled board followed at once, one bit per
//! assumption (`docs/methods.md` §3.9, step 2).
//!
//! An assumption's board is the stalled board with the assumption and its
//! singles placed: each of its candidates is one of the stalled board's,
//! still there or gone. So the boards of up to [`LANES`] assumptions fit in
//! one bit set per candidate of the stalled board (the assumptions in whose
//! board it is still a candidate), one per cell (those in which the cell is
//! filled) and one per unit and digit (those in which the digit is placed
//! in the unit). A round of singles for all of them is then one pass over
//! the candidates with bitwise operations: a cell or a unit's digit whose
//! candidates are there in no assumption's board (and not filled or placed)
//! is a contradiction in those boards, there in exactly one a single. The
//! rounds are the rounds of [`Grid::singles`](super::Grid) on each board,
//! so each assumption is refuted at the same round as when followed alone.

use super::{CELLS, Grid, Tables};

const WORDS: usize = 4;
/// The assumptions followed in one pass.
const LANES: usize = 64 * WORDS;

/// A set of assumptions, one bit each.
type Mask = [u64; WORDS];

const NONE: Mask = [0; WORDS];

#[inline(always)]
fn and(a: Mask, b: Mask) -> Mask {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
fn or(a: Mask, b: Mask) -> Mask {
    std::array::from_fn(|i| a[i] | b[i])
}

#[inline(always)]
fn and_not(a: Mask, b: Mask) -> Mask {
    std::array::from_fn(|i| a[i] & !b[i])
}

/// The lanes in neither set.
#[inline(always)]
fn neither(a: Mask, b: Mask) -> Mask {
    std::array::from_fn(|i| !(a[i] | b[i]))
}

#[inline(always)]
fn any(a: Mask) -> bool {
    a.iter().any(|&w| w != 0)
}

/// Counts up to two: `once` gets the bits seen, `twice` those seen again.
#[inline(always)]
fn count(once: &mut Mask, twice: &mut Mask, m: Mask) {
    *twice = or(*twice, and(*once, m));
    *once = or(*once, m);
}

/// The stalled board's candidates, grouped by cell and by unit and digit,
/// and the boards of the assumptions being followed, as bit sets.
pub(super) struct SideBySide {
    /// The assumptions followed in one pass: [`LANES`] (fewer in tests, to
    /// check that passes combine).
    pass: usize,
    /// Each candidate of the board: cell and digit, by cell.
    cands: Vec<(u8, u8)>,
    /// For each cell with candidates, its candidates (a range of `cands`).
    cells: Vec<(u16, u16)>,
    /// For each unit and digit not placed in it, the candidates of the digit
    /// in the unit (a range of `members`).
    groups: Vec<(u16, u16)>,
    members: Vec<u16>,
    /// For each candidate, its cell (an index of `cells`) and its row's,
    /// column's and box's group.
    cell_of: Vec<u16>,
    groups_of: Vec<[u16; 3]>,
    /// The candidates that are assumed, one a lane.
    assumed: Vec<u16>,
    /// For each candidate, the lanes where it is still a candidate.
    alive: Vec<Mask>,
    /// For each candidate, the lanes where this round places it.
    placing: Vec<Mask>,
    /// For each cell, the lanes where it is filled.
    filled: Vec<Mask>,
    /// For each group, the lanes where its digit is placed in its unit.
    closed: Vec<Mask>,
    /// The lanes where this round fills each cell, places each group.
    cell_placing: Vec<Mask>,
    group_placing: Vec<Mask>,
}

impl Default for SideBySide {
    fn default() -> SideBySide {
        SideBySide {
            pass: LANES,
            cands: Vec::new(),
            cells: Vec::new(),
            groups: Vec::new(),
            members: Vec::new(),
            cell_of: Vec::new(),
            groups_of: Vec::new(),
            assumed: Vec::new(),
            alive: Vec::new(),
            placing: Vec::new(),
            filled: Vec::new(),
            closed: Vec::new(),
            cell_placing: Vec::new(),
            group_placing: Vec::new(),
        }
    }
}

impl SideBySide {
    /// Reads the candidates of the stalled board `g` and assumes each one
    /// `skip` does not exclude; the number assumed.
    pub(super) fn load(&mut self, t: &Tables, g: &Grid, skip: impl Fn(usize, u8) -> bool) -> usize {
        self.cands.clear();
        self.cells.clear();
        self.cell_of.clear();
        self.assumed.clear();
        let mut index = [u16::MAX; 9 * CELLS];
        for c in 0..CELLS {
            let mut m = g.cand[c];
            if m == 0 {
                continue;
            }
            let start = self.cands.len() as u16;
            while m != 0 {
                let d = m.trailing_zeros() as u8;
                m &= m - 1;
                let k = self.cands.len() as u16;
                index[9 * c + d as usize - 1] = k;
                if !skip(c, d) {
                    self.assumed.push(k);
                }
                self.cands.push((c as u8, d));
                self.cell_of.push(self.cells.len() as u16);
            }
            self.cells.push((start, self.cands.len() as u16));
        }
        self.groups.clear();
        self.members.clear();
        self.groups_of.clear();
        self.groups_of.resize(self.cands.len(), [0; 3]);
        for (u, &unit) in t.unit_cells.iter().enumerate() {
            for di in 0..9 {
                if g.open[di] >> u & 1 == 0 {
                    continue;
                }
                let group = self.groups.len() as u16;
                let start = self.members.len() as u16;
                let mut m = g.plane[di] & unit;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let k = index[9 * c + di];
                    self.members.push(k);
                    self.groups_of[k as usize][u / 9] = group;
                }
                self.groups.push((start, self.members.len() as u16));
            }
        }
        self.assumed.len()
    }

    /// The assumptions refuted in the fewest rounds, at most `limit`, with
    /// that count plus one (the steps, the assumption included).
    pub(super) fn fewest(&mut self, limit: u32) -> Option<(u32, Vec<(u8, u8)>)> {
        let mut found: Option<(u32, Vec<(u8, u8)>)> = None;
        let mut limit = limit;
        for first in (0..self.assumed.len()).step_by(self.pass) {
            let lanes = self.pass.min(self.assumed.len() - first);
            let Some((round, refuted)) = self.follow(first, lanes, limit) else {
                continue;
            };
            let list = found.get_or_insert_with(|| (round, Vec::new()));
            if round < list.0 {
                *list = (round, Vec::new());
            }
            for lane in 0..lanes {
                if refuted[lane / 64] >> (lane % 64) & 1 != 0 {
                    list.1.push(self.cands[self.assumed[first + lane] as usize]);
                }
            }
            limit = round;
        }
        found.map(|(round, refuted)| (round + 1, refuted))
    }

    /// Follows the `lanes` assumptions from `first` on, round by round, up
    /// to round `limit`: the first round at which some are refuted, and
    /// those.
    fn follow(&mut self, first: usize, lanes: usize, limit: u32) -> Option<(u32, Mask)> {
        let mut all = NONE;
        for lane in 0..lanes {
            all[lane / 64] |= 1 << (lane % 64);
        }
        let n = self.cands.len();
        self.alive.clear();
        self.alive.resize(n, all);
        self.placing.clear();
        self.placing.resize(n, NONE);
        self.filled.clear();
        self.filled.resize(self.cells.len(), NONE);
        self.closed.clear();
        self.closed.resize(self.groups.len(), NONE);
        self.cell_placing.resize(self.cells.len(), NONE);
        self.group_placing.resize(self.groups.len(), NONE);
        for lane in 0..lanes {
            let k = self.assumed[first + lane] as usize;
            self.placing[k][lane / 64] |= 1 << (lane % 64);
        }
        self.place();
        let mut active = all;
        let mut conflict = NONE;
        let mut round = 0;
        loop {
            let (contradiction, singles) = self.scan();
            let refuted = or(and(contradiction, active), conflict);
            if any(refuted) {
                return Some((round, refuted));
            }
            active = and(active, singles);
            if round >= limit || !any(active) {
                return None;
            }
            conflict = and(self.place(), active);
            active = and_not(active, conflict);
            round += 1;
        }
    }

    /// One round's scan of every lane: the lanes with a contradiction (an
    /// empty cell, a unit without a place for a digit) and those with
    /// singles, which go into `placing`.
    fn scan(&mut self) -> (Mask, Mask) {
        let mut contradiction = NONE;
        let mut singles = NONE;
        for (ci, &(start, end)) in self.cells.iter().enumerate() {
            let (mut once, mut twice) = (NONE, NONE);
            for k in start as usize..end as usize {
                count(&mut once, &mut twice, self.alive[k]);
            }
            contradiction = or(contradiction, neither(once, self.filled[ci]));
            let single = and_not(once, twice);
            singles = or(singles, single);
            for k in start as usize..end as usize {
                self.placing[k] = and(self.alive[k], single);
            }
        }
        for (gi, &(start, end)) in self.groups.iter().enumerate() {
            let members = &self.members[start as usize..end as usize];
            let (mut once, mut twice) = (NONE, NONE);
            for &k in members {
                count(&mut once, &mut twice, self.alive[k as usize]);
            }
            contradiction = or(contradiction, neither(once, self.closed[gi]));
            let single = and_not(once, twice);
            singles = or(singles, single);
            for &k in members {
                let k = k as usize;
                self.placing[k] = or(self.placing[k], and(self.alive[k], single));
            }
        }
        (contradiction, singles)
    }

    /// Places the singles of `placing` in their lanes; the lanes where two
    /// of them clash (one cell, or one digit in one unit, twice).
    fn place(&mut self) -> Mask {
        let mut clash = NONE;
        for (ci, &(start, end)) in self.cells.iter().enumerate() {
            let (mut once, mut twice) = (NONE, NONE);
            for k in start as usize..end as usize {
                count(&mut once, &mut twice, self.placing[k]);
            }
            clash = or(clash, twice);
            self.cell_placing[ci] = once;
            self.filled[ci] = or(self.filled[ci], once);
        }
        for (gi, &(start, end)) in self.groups.iter().enumerate() {
            let (mut once, mut twice) = (NONE, NONE);
            for &k in &self.members[start as usize..end as usize] {
                count(&mut once, &mut twice, self.placing[k as usize]);
            }
            clash = or(clash, twice);
            self.group_placing[gi] = once;
            self.closed[gi] = or(self.closed[gi], once);
        }
        for (k, alive) in self.alive.iter_mut().enumerate() {
            let [row, column, bx] = self.groups_of[k].map(|gr| self.group_placing[gr as usize]);
            let gone = or(
                self.cell_placing[self.cell_of[k] as usize],
                or(row, or(column, bx)),
            );
            *alive = and_not(*alive, gone);
        }
        clash
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, UNBOUNDED, tables};
    use super::*;
    use crate::grid::parse_puzzle;

    /// The fewest-round refutations with each assumption followed on a copy
    /// of its own, sorted.
    fn one_by_one(t: &Tables, g: &Grid, limit: u32) -> Option<(u32, Vec<(u8, u8)>)> {
        let mut found: Option<(u32, Vec<(u8, u8)>)> = None;
        let mut buf = Vec::new();
        for c in 0..CELLS {
            for d in 1..=9u8 {
                if g.cand[c] >> d & 1 == 0 {
                    continue;
                }
                let mut h = *g;
                h.place(t, c, d);
                let Outcome::Contradiction(r) = h.singles(t, limit, &mut buf) else {
                    continue;
                };
                match &mut found {
                    Some((best, list)) if *best == r + 1 => list.push((c as u8, d)),
                    Some((best, _)) if *best < r + 1 => {}
                    _ => found = Some((r + 1, vec![(c as u8, d)])),
                }
            }
        }
        found
    }

    #[test]
    fn side_by_side_refutes_what_each_copy_refutes() {
        let t = tables();
        let mut side_by_side = SideBySide::default();
        let mut most = 0;
        for line in [
            // 17 givens: more candidates than one pass follows.
            ".................1..2.34........234..1...5....6.7........6.......4...2...8.1....9",
            "5..7..6....38...........2..62.4............917............35.8.4.....1......9....",
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        ] {
            let mut g = Grid::new(parse_puzzle(line).unwrap().cells()).unwrap();
            let mut buf = Vec::new();
            while let Outcome::Stalled(_) = g.singles(t, UNBOUNDED, &mut buf) {
                most = most.max(side_by_side.load(t, &g, |_, _| false));
                for limit in [0, 1, 2, 3, UNBOUNDED - 1] {
                    let expected = one_by_one(t, &g, limit);
                    for pass in [LANES, 64, 7] {
                        side_by_side.pass = pass;
                        let mut ours = side_by_side.fewest(limit);
                        if let Some((_, list)) = &mut ours {
                            list.sort_unstable();
                        }
                        assert_eq!(ours, expected, "{line} {limit} {pass}");
                    }
                }
                let Some((_, refuted)) = side_by_side.fewest(UNBOUNDED - 1) else {
                    break;
                };
                for (c, d) in refuted {
                    g.eliminate(t, c as usize, d);
                }
            }
        }
        assert!(most > LANES, "{most}");
    }
}
