//! The candidate grid ("pencil marks") every human model works on.
//!
//! A [`Board`] keeps, for each cell, either its value or the bitmask of its
//! remaining candidates (bit `d` for digit `d`, as in [`crate::grid`]). Placing
//! a digit removes it from the candidates of every peer, so a board built from
//! a puzzle starts with the candidates the givens leave (the "Sudoku Solution
//! Graph" of Chang et al. §1.1). Filled cells have no candidates.
//!
//! The board never checks that a deduction is right: models and techniques
//! are responsible for that. [`Board::contradiction`] reports the two ways a
//! wrong assumption shows up to a human: an empty cell without candidate, or a
//! digit that has no place left in a row, column or box.

use crate::grid::{Geometry, Puzzle};
use std::fmt;

/// A partially solved grid with candidates.
#[derive(Clone)]
pub(crate) struct Board {
    geo: &'static Geometry,
    values: Vec<u8>,
    cands: Vec<u32>,
    empty: usize,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.geo.n == other.geo.n && self.values == other.values && self.cands == other.cands
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_puzzle().to_line())
    }
}

impl Board {
    /// The board of a puzzle: givens placed, candidates of empty cells computed
    /// from the givens alone.
    pub(crate) fn new(puzzle: &Puzzle) -> Board {
        let cand = puzzle.candidates();
        let values = puzzle.cells().to_vec();
        let cands = values
            .iter()
            .zip(cand)
            .map(|(&v, c)| if v == 0 { c } else { 0 })
            .collect();
        Board {
            geo: puzzle.geometry(),
            empty: values.iter().filter(|&&v| v == 0).count(),
            values,
            cands,
        }
    }

    /// Makes this board equal to `other`, reusing its own storage (no
    /// allocation once the sizes match, unlike `clone`).
    pub(crate) fn copy_from(&mut self, other: &Board) {
        self.geo = other.geo;
        self.values.clone_from(&other.values);
        self.cands.clone_from(&other.cands);
        self.empty = other.empty;
    }

    /// Geometry (order, units, peers) of the board's grid.
    pub(crate) fn geometry(&self) -> &'static Geometry {
        self.geo
    }
    /// Grid side `N`.
    pub(crate) fn side(&self) -> usize {
        self.geo.side
    }
    /// Value of a cell, `0` if empty.
    pub(crate) fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }
    /// Values of all cells in row-major order, `0` for empty cells.
    pub(crate) fn values(&self) -> &[u8] {
        &self.values
    }
    /// Candidate mask of a cell (`0` for a filled cell).
    pub(crate) fn cands(&self, cell: usize) -> u32 {
        self.cands[cell]
    }
    /// Candidate masks of all cells in row-major order (bit `d` for digit `d`,
    /// `0` for a filled cell).
    pub(crate) fn all_cands(&self) -> &[u32] {
        &self.cands
    }
    /// Number of empty cells.
    pub(crate) fn empty_count(&self) -> usize {
        self.empty
    }
    /// Whether every cell is filled.
    pub(crate) fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// Puts digit `d` in an empty cell and removes it from the peers'
    /// candidates. Placing into a filled cell does nothing.
    pub(crate) fn place(&mut self, cell: usize, d: u8) {
        if self.values[cell] != 0 {
            return;
        }
        self.values[cell] = d;
        self.cands[cell] = 0;
        self.empty -= 1;
        let bit = !(1u32 << d);
        for &p in &self.geo.peers[cell] {
            self.cands[p] &= bit;
        }
    }

    /// [`Board::place`], then whether the board now shows a contradiction,
    /// for a board that showed none before: the same answer as
    /// [`Board::contradiction`] after the placement, found by looking only
    /// at what the placement changed — the peers that lost `d` (dead
    /// cells, and the units through them, for a digit `d` without place)
    /// and the units of `cell` (for the other digits `cell` was a
    /// candidate of). A digit that was not a candidate of `cell` may
    /// duplicate a placed one, so that case takes the full check.
    pub(crate) fn place_shows_contradiction(&mut self, cell: usize, d: u8) -> bool {
        if self.values[cell] != 0 {
            return false;
        }
        let old = self.cands[cell];
        let bit = 1u32 << d;
        if old & bit == 0 {
            self.place(cell, d);
            return self.contradiction();
        }
        self.values[cell] = d;
        self.cands[cell] = 0;
        self.empty -= 1;
        let geo = self.geo;
        // Units (bit = unit index) where `d` lost a place, other than the
        // units of `cell`, where `d` is now placed.
        let own = geo.cell_units[cell]
            .iter()
            .fold(0u128, |m, &u| m | (1u128 << u));
        let mut lost = 0u128;
        let mut dead = false;
        for &p in &geo.peers[cell] {
            let c = self.cands[p];
            if c & bit != 0 {
                // A candidate left means an empty cell; none left, a dead one.
                self.cands[p] = c & !bit;
                dead |= c == bit;
                for &u in &geo.cell_units[p] {
                    lost |= 1u128 << u;
                }
            }
        }
        if dead {
            return true;
        }
        // A candidate of a cell is placed nowhere among its peers, so a
        // digit that lost a place in a unit has no value there.
        let mut lost = lost & !own;
        while lost != 0 {
            let u = lost.trailing_zeros() as usize;
            lost &= lost - 1;
            if !geo.units[u].iter().any(|&c| self.cands[c] & bit != 0) {
                return true;
            }
        }
        let mut others = old & !bit;
        while others != 0 {
            let e = 1u32 << others.trailing_zeros();
            others &= others - 1;
            for &u in &geo.cell_units[cell] {
                if !geo.units[u].iter().any(|&c| self.cands[c] & e != 0) {
                    return true;
                }
            }
        }
        false
    }

    /// Removes candidate `d` from a cell; true if it was there.
    pub(crate) fn eliminate(&mut self, cell: usize, d: u8) -> bool {
        let had = self.cands[cell] & (1 << d) != 0;
        self.cands[cell] &= !(1u32 << d);
        had
    }

    /// Restricts a cell's candidates to `mask`; true if something changed.
    #[cfg(test)]
    pub(crate) fn restrict(&mut self, cell: usize, mask: u32) -> bool {
        let old = self.cands[cell];
        self.cands[cell] &= mask;
        old != self.cands[cell]
    }

    /// Digits already placed in a unit.
    pub(crate) fn placed_in_unit(&self, unit: usize) -> u32 {
        self.geo.units[unit]
            .iter()
            .fold(0, |acc, &c| acc | (1u32 << self.values[c]))
            & !1
    }

    /// Positions (bit `i` = `i`-th cell of the unit) where `d` is a candidate.
    pub(crate) fn places(&self, unit: usize, d: u8) -> u32 {
        let bit = 1u32 << d;
        let mut m = 0;
        for (i, &c) in self.geo.units[unit].iter().enumerate() {
            if self.cands[c] & bit != 0 {
                m |= 1 << i;
            }
        }
        m
    }

    /// [`Board::places`] of every digit in `unit`, in one pass over its
    /// cells: `out[d]` for digit `d` (`out` has at least `side + 1` slots).
    pub(crate) fn unit_places(&self, unit: usize, out: &mut [u32]) {
        out.fill(0);
        for (i, &c) in self.geo.units[unit].iter().enumerate() {
            let mut m = self.cands[c];
            while m != 0 {
                out[m.trailing_zeros() as usize] |= 1 << i;
                m &= m - 1;
            }
        }
    }

    /// True when some empty cell has no candidate left (the only
    /// contradiction Patti's Nishio solver looks for).
    pub(crate) fn has_dead_cell(&self) -> bool {
        self.values
            .iter()
            .zip(&self.cands)
            .any(|(&v, &c)| v == 0 && c == 0)
    }

    /// True when the board visibly cannot be completed: an empty cell
    /// without candidate, or a digit missing from a unit with no place in it,
    /// or a digit placed twice in a unit.
    pub(crate) fn contradiction(&self) -> bool {
        if self.has_dead_cell() {
            return true;
        }
        let all = self.geo.all_digits();
        for cells in &self.geo.units {
            let mut covered = 0u32;
            let mut placed = 0u32;
            for &c in cells {
                let v = self.values[c];
                if v != 0 {
                    let b = 1u32 << v;
                    if placed & b != 0 {
                        return true;
                    }
                    placed |= b;
                }
                covered |= self.cands[c];
            }
            if (covered | placed) != all {
                return true;
            }
        }
        false
    }

    /// The board's values as a puzzle (candidates are lost).
    pub(crate) fn to_puzzle(&self) -> Puzzle {
        Puzzle::from_cells(self.geo.n, self.values.clone()).unwrap_or_else(|_| Puzzle::empty(3))
    }

    /// How often each digit occurs as a candidate (index = digit).
    pub(crate) fn digit_frequencies(&self) -> Vec<usize> {
        let mut f = vec![0; self.side() + 1];
        for &c in &self.cands {
            for d in crate::util::bits(c) {
                f[d as usize] += 1;
            }
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    #[test]
    fn place_updates_peers() {
        let p = Puzzle::empty(3);
        let mut b = Board::new(&p);
        assert_eq!(b.empty_count(), 81);
        assert_eq!(b.cands(0).count_ones(), 9);
        b.place(0, 5);
        assert_eq!(b.empty_count(), 80);
        assert_eq!(b.cands(0), 0);
        assert_eq!(b.cands(8) & (1 << 5), 0);
        assert_eq!(b.cands(72) & (1 << 5), 0);
        assert_eq!(b.cands(20) & (1 << 5), 0);
        assert_ne!(b.cands(40) & (1 << 5), 0);
        assert!(!b.contradiction());
        assert_eq!(b.places(0, 5), 0);
        assert_eq!(b.placed_in_unit(0), 1 << 5);
    }

    #[test]
    fn unit_places_are_places_of_every_digit() {
        // Orders 2 to 4: a few givens (every second cell of the first row),
        // and one elimination.
        for order in 2..=4 {
            let side = order * order;
            let mut cells = vec![0u8; side * side];
            for c in (0..side).step_by(2) {
                cells[c] = c as u8 + 1;
            }
            let mut b = Board::new(&Puzzle::from_cells(order, cells).unwrap());
            assert!(b.eliminate(side + 1, 2));
            let mut out = vec![u32::MAX; side + 1];
            for u in 0..3 * side {
                b.unit_places(u, &mut out);
                assert_eq!(out[0], 0);
                for d in 1..=side as u8 {
                    assert_eq!(
                        out[usize::from(d)],
                        b.places(u, d),
                        "order {order} unit {u} digit {d}"
                    );
                }
            }
        }
    }

    #[test]
    fn contradiction_detects_dead_cells_and_missing_places() {
        let p = parse_puzzle(
            ".12345678........................................................................",
        )
        .unwrap();
        let mut b = Board::new(&p);
        assert!(!b.contradiction());
        b.eliminate(0, 9);
        assert!(b.has_dead_cell());
        assert!(b.contradiction());
        let mut b = Board::new(&Puzzle::empty(2));
        for cell in [0, 1, 2, 3] {
            b.eliminate(cell, 1);
        }
        assert!(!b.has_dead_cell());
        assert!(b.contradiction());
    }

    /// The check of what a placement changed agrees with the full check,
    /// on random placements (right and wrong digits, candidates or not) from
    /// boards without contradiction, orders 2 to 4.
    #[test]
    fn placement_check_agrees_with_the_full_check() {
        use crate::seed::SeededRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SeededRng::seed_from_u64(27);
        let nine = parse_puzzle(
            "..5..........9........1.53.....3..7..68......3..85.1.2.....36.9..958..2.23.16....",
        )
        .unwrap();
        let starts = [Puzzle::empty(2), nine, Puzzle::empty(3), Puzzle::empty(4)];
        let (mut shown, mut checked) = (0, 0);
        for start in &starts {
            for _ in 0..200 {
                let mut b = Board::new(start);
                while !b.contradiction() && !b.is_solved() {
                    let empties: Vec<usize> =
                        (0..b.values().len()).filter(|&c| b.value(c) == 0).collect();
                    let cell = empties[rng.gen_range(0..empties.len())];
                    let cands: Vec<u8> = crate::util::bits(b.cands(cell)).collect();
                    // Mostly candidates; now and then any digit.
                    let d = if cands.is_empty() || rng.gen_range(0..8) == 0 {
                        rng.gen_range(1..=b.side() as u8)
                    } else {
                        cands[rng.gen_range(0..cands.len())]
                    };
                    let mut full = b.clone();
                    full.place(cell, d);
                    let quick = b.place_shows_contradiction(cell, d);
                    assert_eq!(b, full);
                    assert_eq!(quick, full.contradiction(), "{b:?} after {cell}={d}");
                    shown += usize::from(quick);
                    checked += 1;
                }
            }
        }
        // Both answers occur often.
        assert!(
            shown > 300 && checked - shown > 3000,
            "{shown} of {checked}"
        );
    }
}
