//! Berthier's representation of a 9×9 Sudoku: 729 candidates (digit, row,
//! column), 324 CSP variables (a cell `rc`, a digit in a row `rn`, in a
//! column `cn`, in a box `bn`), and the link relation (two candidates are
//! linked when they share a CSP variable). `SudoRules-V20.1/GENERAL/background.clp`
//! and `CSP-Rules-Generic/GENERAL/generic-background.clp` declare the same.
//!
//! A set of candidates is nine 81-bit planes, one per digit ([`Cands`]), so
//! that a digit's row, column or box is one mask and a cell's candidates are
//! one bit in each plane.

use std::fmt;
use std::sync::OnceLock;

/// All 81 cells of a plane.
pub(crate) const ALL81: u128 = (1u128 << 81) - 1;

/// A candidate: digit `d` (0..9) in cell `cell` (0..81), numbered `d * 81 + cell`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Cand(u16);

impl Cand {
    /// The candidate of digit `digit` (0-based) in cell `cell` (row-major).
    pub(crate) fn new(digit: usize, cell: usize) -> Cand {
        debug_assert!(digit < 9 && cell < 81);
        Cand((digit * 81 + cell) as u16)
    }
    /// Its index 0..729.
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
    /// Digit, 0-based.
    pub(crate) fn digit(self) -> usize {
        self.0 as usize / 81
    }
    /// Cell, 0..81 row-major.
    pub(crate) fn cell(self) -> usize {
        self.0 as usize % 81
    }
    /// Row, 0-based.
    pub(crate) fn row(self) -> usize {
        self.cell() / 9
    }
    /// Column, 0-based.
    pub(crate) fn col(self) -> usize {
        self.cell() % 9
    }
    /// Box, 0-based.
    pub(crate) fn block(self) -> usize {
        self.row() / 3 * 3 + self.col() / 3
    }
    /// The four CSP variables the candidate belongs to.
    pub(crate) fn vars(self) -> [Var; 4] {
        let d = self.digit();
        [
            Var(self.cell() as u16),
            Var((81 + self.row() * 9 + d) as u16),
            Var((162 + self.col() * 9 + d) as u16),
            Var((243 + self.block() * 9 + d) as u16),
        ]
    }
}

impl fmt::Display for Cand {
    /// Berthier's `n5r3c4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "n{}r{}c{}",
            self.digit() + 1,
            self.row() + 1,
            self.col() + 1
        )
    }
}

/// A CSP variable: 0..81 cells, 81..162 `rn`, 162..243 `cn`, 243..324 `bn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Var(u16);

/// The kind of a CSP variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VarKind {
    /// A cell: which digit.
    Cell,
    /// A digit in a row: which column.
    RowDigit,
    /// A digit in a column: which row.
    ColDigit,
    /// A digit in a box: which cell.
    BoxDigit,
}

impl Var {
    /// Every variable.
    #[cfg(test)]
    pub(crate) fn all() -> impl Iterator<Item = Var> {
        (0..324u16).map(Var)
    }
    /// Its index 0..324.
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
    /// The kind.
    pub(crate) fn kind(self) -> VarKind {
        match self.0 {
            0..81 => VarKind::Cell,
            81..162 => VarKind::RowDigit,
            162..243 => VarKind::ColDigit,
            _ => VarKind::BoxDigit,
        }
    }
    /// Its candidates, current or not.
    pub(crate) fn mask(self) -> &'static Cands {
        &tables().var_mask[self.index()]
    }
    /// How a candidate of this variable is told apart from the others in
    /// Berthier's notation: the digit in a cell (`n5`), the column in a row
    /// (`c7`), the row in a column (`r3`), the cell in a box (`r1c2`).
    pub(crate) fn local_name(self, c: Cand) -> String {
        match self.kind() {
            VarKind::Cell => format!("n{}", c.digit() + 1),
            VarKind::RowDigit => format!("c{}", c.col() + 1),
            VarKind::ColDigit => format!("r{}", c.row() + 1),
            VarKind::BoxDigit => format!("r{}c{}", c.row() + 1, c.col() + 1),
        }
    }
}

impl fmt::Display for Var {
    /// `r1c2`, `r1n5`, `c2n5`, `b4n5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.index();
        match self.kind() {
            VarKind::Cell => write!(f, "r{}c{}", i / 9 + 1, i % 9 + 1),
            VarKind::RowDigit => write!(f, "r{}n{}", (i - 81) / 9 + 1, (i - 81) % 9 + 1),
            VarKind::ColDigit => write!(f, "c{}n{}", (i - 162) / 9 + 1, (i - 162) % 9 + 1),
            VarKind::BoxDigit => write!(f, "b{}n{}", (i - 243) / 9 + 1, (i - 243) % 9 + 1),
        }
    }
}

/// A set of candidates: one 81-bit plane per digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Cands(pub(crate) [u128; 9]);

impl Cands {
    /// No candidate.
    pub(crate) const EMPTY: Cands = Cands([0; 9]);
    /// Every candidate of every cell.
    pub(crate) const FULL: Cands = Cands([ALL81; 9]);

    /// Whether `c` is in the set.
    #[inline]
    pub(crate) fn contains(&self, c: Cand) -> bool {
        self.0[c.digit()] >> c.cell() & 1 == 1
    }
    /// Adds `c`.
    #[inline]
    pub(crate) fn insert(&mut self, c: Cand) {
        self.0[c.digit()] |= 1u128 << c.cell();
    }
    /// Removes `c`.
    #[inline]
    pub(crate) fn remove(&mut self, c: Cand) {
        self.0[c.digit()] &= !(1u128 << c.cell());
    }
    /// Size.
    #[inline]
    pub(crate) fn len(&self) -> u32 {
        self.0.iter().map(|p| p.count_ones()).sum()
    }
    /// Whether empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&p| p == 0)
    }
    /// Intersection.
    #[inline]
    pub(crate) fn and(&self, o: &Cands) -> Cands {
        Cands(std::array::from_fn(|d| self.0[d] & o.0[d]))
    }
    /// Union.
    #[inline]
    pub(crate) fn or(&self, o: &Cands) -> Cands {
        Cands(std::array::from_fn(|d| self.0[d] | o.0[d]))
    }
    /// Difference.
    #[inline]
    pub(crate) fn minus(&self, o: &Cands) -> Cands {
        Cands(std::array::from_fn(|d| self.0[d] & !o.0[d]))
    }
    /// Whether the sets meet.
    #[inline]
    pub(crate) fn meets(&self, o: &Cands) -> bool {
        (0..9).any(|d| self.0[d] & o.0[d] != 0)
    }
    /// The one element of a singleton set, `None` otherwise.
    #[inline]
    pub(crate) fn single(&self) -> Option<Cand> {
        let mut found = None;
        for (d, &p) in self.0.iter().enumerate() {
            if p != 0 {
                if found.is_some() || p & (p - 1) != 0 {
                    return None;
                }
                found = Some(Cand::new(d, p.trailing_zeros() as usize));
            }
        }
        found
    }
    /// Adds every candidate linked to `c` (never `c` itself).
    #[inline]
    pub(crate) fn add_links_of(&mut self, c: Cand) {
        let bit = 1u128 << c.cell();
        let d = c.digit();
        for (e, p) in self.0.iter_mut().enumerate() {
            *p |= if e == d {
                tables().peers[c.cell()]
            } else {
                bit
            };
        }
    }
    /// The candidates linked to `c`.
    pub(crate) fn links_of(c: Cand) -> Cands {
        let mut s = Cands::EMPTY;
        s.add_links_of(c);
        s
    }
    /// The elements, by digit then cell.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Cand> + '_ {
        self.0.iter().enumerate().flat_map(|(d, &p)| {
            let mut bits = p;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let cell = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Cand::new(d, cell))
            })
        })
    }
}

/// Whether two distinct candidates are linked (share a CSP variable).
#[cfg(test)]
pub(crate) fn linked(a: Cand, b: Cand) -> bool {
    a != b && Cands::links_of(a).contains(b)
}

pub(crate) struct Tables {
    /// Row, column and box of a cell, without the cell.
    pub(crate) peers: [u128; 81],
    /// The 27 units as cell masks: rows, columns, boxes.
    pub(crate) units: [u128; 27],
    pub(crate) var_mask: Vec<Cands>,
}

pub(crate) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut units = [0u128; 27];
        for cell in 0..81 {
            let (r, c) = (cell / 9, cell % 9);
            let b = r / 3 * 3 + c / 3;
            units[r] |= 1 << cell;
            units[9 + c] |= 1 << cell;
            units[18 + b] |= 1 << cell;
        }
        let mut peers = [0u128; 81];
        for (cell, p) in peers.iter_mut().enumerate() {
            let (r, c) = (cell / 9, cell % 9);
            let b = r / 3 * 3 + c / 3;
            *p = (units[r] | units[9 + c] | units[18 + b]) & !(1 << cell);
        }
        let mut var_mask = vec![Cands::EMPTY; 324];
        for d in 0..9 {
            for cell in 0..81 {
                let c = Cand::new(d, cell);
                for v in c.vars() {
                    var_mask[v.index()].insert(c);
                }
            }
        }
        Tables {
            peers,
            units,
            var_mask,
        }
    })
}
