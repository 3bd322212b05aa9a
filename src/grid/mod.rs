//! Puzzles, solutions and the geometry of an order-`n` Sudoku.
//!
//! Notation follows `docs/methods.md`: order `n` is the box side, the grid side is
//! `N = n²` (9 for classic Sudoku) and cells are numbered `0..N²` row-major.
//! Digits are `1..=N`; `0` marks an empty cell. Orders 2 to 5 (4×4 to 25×25)
//! are supported everywhere.
//!
//! [`Geometry`] holds the units (rows, columns, boxes) and peers of each cell,
//! computed once per order and shared. [`Puzzle`] is a partially filled grid
//! with an optional label; [`Puzzle::check`] finds the contradictions a grid
//! can carry on its face (a digit twice in a unit, a cell without candidate,
//! a digit without place in a unit).
//!
//! A puzzle may also carry pencilmarks (`docs/methods.md` §0.1, "Pencilmark
//! input"): the candidates of every cell, as Sukaku Explainer, HoDoKu and the
//! forum exchange them. [`Puzzle::from_pencilmarks`] builds one;
//! [`Puzzle::candidates`] is then those candidates, and the givens are the
//! cells Sukaku Explainer makes givens on loading: a cell with one candidate
//! that no peer holds.

pub(crate) mod canon;
mod parse;

pub use parse::Alphabet;
pub use parse::PuzzleReader;
pub(crate) use parse::digit_to_char;
pub use parse::{ParseError, ParseErrorKind, parse_puzzle, read_puzzles};

use serde::Serialize;
use std::fmt;
use std::sync::OnceLock;

/// Why a command (or function) that works on givens alone refuses a
/// pencilmark grid (`docs/methods.md` §0.1).
pub const GIVENS_ONLY: &str = "a pencilmark grid, which this command does not read (it works on givens alone); every command but canon and generate --from reads pencilmark grids";

/// Smallest and largest supported order (box side).
pub(crate) const MIN_ORDER: usize = 2;
/// Largest supported order (box side): 25×25 grids.
pub(crate) const MAX_ORDER: usize = 5;

/// Kind of a unit: row, column or box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// A row, unit indices `0..N`.
    Row,
    /// A column, unit indices `N..2N`.
    Column,
    /// A box, unit indices `2N..3N`, numbered row-major.
    Box,
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        })
    }
}

/// The fixed structure of an order-`n` grid.
#[derive(Debug)]
pub struct Geometry {
    /// Box side `n`.
    pub n: usize,
    /// Grid side `N = n²`.
    pub side: usize,
    /// Number of cells `N²`.
    pub cells: usize,
    /// `3·N` units: rows `0..N`, columns `N..2N`, boxes `2N..3N`; each lists its cells.
    pub units: Vec<Vec<usize>>,
    /// For each cell: its row, column and box unit indices.
    pub cell_units: Vec<[usize; 3]>,
    /// For each cell: its index in the cell list of each of those units
    /// (`units[cell_units[c][k]][unit_positions[c][k]] == c`).
    pub unit_positions: Vec<[usize; 3]>,
    /// For each cell: the cells sharing a unit with it (ascending).
    pub peers: Vec<Vec<usize>>,
}

impl Geometry {
    fn build(n: usize) -> Geometry {
        let side = n * n;
        let cells = side * side;
        let mut units = vec![Vec::with_capacity(side); 3 * side];
        let mut cell_units = Vec::with_capacity(cells);
        let mut unit_positions = Vec::with_capacity(cells);
        for cell in 0..cells {
            let (r, c) = (cell / side, cell % side);
            let b = (r / n) * n + c / n;
            let ids = [r, side + c, 2 * side + b];
            unit_positions.push(ids.map(|u| units[u].len()));
            for &u in &ids {
                units[u].push(cell);
            }
            cell_units.push(ids);
        }
        let mut peers = Vec::with_capacity(cells);
        for (cell, ids) in cell_units.iter().enumerate() {
            let mut p: Vec<usize> = ids
                .iter()
                .flat_map(|&u| units[u].iter().copied())
                .filter(|&o| o != cell)
                .collect();
            p.sort_unstable();
            p.dedup();
            peers.push(p);
        }
        Geometry {
            n,
            side,
            cells,
            units,
            cell_units,
            unit_positions,
            peers,
        }
    }

    /// The shared geometry of order `n` (2..=5).
    ///
    /// # Panics
    /// On an order outside 2..=5; parsed puzzles always carry a valid order.
    pub fn of(n: usize) -> &'static Geometry {
        static CACHE: [OnceLock<Geometry>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        assert!(
            (MIN_ORDER..=MAX_ORDER).contains(&n),
            "order {n} outside 2..=5"
        );
        CACHE[n - MIN_ORDER].get_or_init(|| Geometry::build(n))
    }

    /// Kind and 1-based number of a unit index, for messages.
    pub(crate) fn unit_name(&self, unit: usize) -> (UnitKind, usize) {
        let kind = match unit / self.side {
            0 => UnitKind::Row,
            1 => UnitKind::Column,
            _ => UnitKind::Box,
        };
        (kind, unit % self.side + 1)
    }

    /// Row and column (0-based) of a cell.
    pub(crate) fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.side, cell % self.side)
    }

    /// `rXcY` name of a cell (1-based), as solvers' texts use it.
    pub(crate) fn cell_name(&self, cell: usize) -> String {
        let (r, c) = self.row_col(cell);
        format!("r{}c{}", r + 1, c + 1)
    }

    /// Bitmask of all digits: bit `d` set for `d` in `1..=N`.
    pub(crate) fn all_digits(&self) -> u32 {
        ((1u64 << (self.side + 1)) - 2) as u32
    }

    /// The edges of the Sudoku graph: pairs `a < b` of cells sharing a unit,
    /// ascending (810 for 9×9).
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for a in 0..self.cells {
            for &b in &self.peers[a] {
                if a < b {
                    out.push((a, b));
                }
            }
        }
        out
    }
}

/// Why a well-formed grid cannot have a solution on its face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contradiction {
    /// A digit is given twice in one unit.
    DuplicateDigit {
        /// The repeated digit.
        digit: u8,
        /// Kind of the unit.
        kind: UnitKind,
        /// 1-based number of the unit among its kind.
        number: usize,
    },
    /// An empty cell has no candidate left.
    NoCandidate {
        /// The cell, named `rXcY` (1-based).
        cell: String,
    },
    /// A digit missing from a unit has no cell left in it.
    NoPlace {
        /// The digit without place.
        digit: u8,
        /// Kind of the unit.
        kind: UnitKind,
        /// 1-based number of the unit among its kind.
        number: usize,
    },
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contradiction::DuplicateDigit {
                digit,
                kind,
                number,
            } => write!(f, "digit {digit} appears twice in {kind} {number}"),
            Contradiction::NoCandidate { cell } => write!(f, "cell {cell} has no candidate"),
            Contradiction::NoPlace {
                digit,
                kind,
                number,
            } => write!(f, "digit {digit} has no place in {kind} {number}"),
        }
    }
}

impl std::error::Error for Contradiction {}

/// A partially filled grid of order `n`, with the label its input line carried.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    n: usize,
    cells: Vec<u8>,
    /// The candidates of every cell (bits `1..=N`) when the puzzle was given
    /// as pencilmarks; `None` for a puzzle of givens alone.
    marks: Option<Vec<u32>>,
    /// Free text after the grid on its input line (or an example's name).
    pub label: Option<String>,
}

impl Puzzle {
    /// Builds a puzzle from cell values (`0` empty, `1..=N` given).
    pub fn from_cells(n: usize, cells: Vec<u8>) -> Result<Puzzle, String> {
        if !(MIN_ORDER..=MAX_ORDER).contains(&n) {
            return Err(format!("order {n} outside 2..=5"));
        }
        let side = n * n;
        if cells.len() != side * side {
            return Err(format!(
                "expected {} cells, found {}",
                side * side,
                cells.len()
            ));
        }
        // The largest value first (a loop that vectorises): every puzzle
        // read passes here.
        if cells.iter().fold(0, |m, &v| m.max(v)) as usize > side
            && let Some(&v) = cells.iter().find(|&&v| v as usize > side)
        {
            return Err(format!("value {v} outside 0..={side}"));
        }
        Ok(Puzzle {
            n,
            cells,
            marks: None,
            label: None,
        })
    }

    /// Builds a puzzle from the candidates of every cell (bit `d` for digit
    /// `d`), as a pencilmark grid gives them. The givens are Sukaku
    /// Explainer's (`Grid.adjustPencilmarks`): each cell with one candidate
    /// that no peer holds; a cell with one candidate that a peer also holds
    /// stays empty, with that one candidate.
    ///
    /// # Errors
    /// A wrong order or count, a bit outside `1..=N`, or a cell without
    /// candidate (named `rXcY`).
    ///
    /// ```
    /// use sudolab::Puzzle;
    ///
    /// let mut marks = vec![0b11_1111_1110u32; 81];
    /// marks[0] = 1 << 5; // r1c1 holds 5 alone, so no peer may hold 5
    /// for &p in &sudolab::Geometry::of(3).peers[0] {
    ///     marks[p] &= !(1 << 5);
    /// }
    /// let p = Puzzle::from_pencilmarks(3, marks)?;
    /// assert_eq!((p.givens(), p.get(0)), (1, 5));
    /// assert_eq!(p.to_line().len(), 729);
    /// # Ok::<(), String>(())
    /// ```
    pub fn from_pencilmarks(n: usize, marks: Vec<u32>) -> Result<Puzzle, String> {
        if !(MIN_ORDER..=MAX_ORDER).contains(&n) {
            return Err(format!("order {n} outside 2..=5"));
        }
        let g = Geometry::of(n);
        if marks.len() != g.cells {
            return Err(format!("expected {} cells, found {}", g.cells, marks.len()));
        }
        if let Some(cell) = marks.iter().position(|&m| m & !g.all_digits() != 0) {
            return Err(format!(
                "cell {} has a candidate outside 1..={}",
                g.cell_name(cell),
                g.side
            ));
        }
        if let Some(cell) = marks.iter().position(|&m| m == 0) {
            return Err(format!("cell {} has no candidate", g.cell_name(cell)));
        }
        let cells = marks
            .iter()
            .enumerate()
            .map(|(cell, &m)| {
                let alone = m.is_power_of_two() && g.peers[cell].iter().all(|&p| marks[p] & m == 0);
                if alone { m.trailing_zeros() as u8 } else { 0 }
            })
            .collect();
        Ok(Puzzle {
            n,
            cells,
            marks: Some(marks),
            label: None,
        })
    }

    /// The candidates of every cell when the puzzle was given as
    /// pencilmarks, `None` for a puzzle of givens alone.
    pub fn pencilmarks(&self) -> Option<&[u32]> {
        self.marks.as_deref()
    }

    /// Whether the puzzle was given as pencilmarks (candidates), not givens
    /// alone.
    pub fn has_pencilmarks(&self) -> bool {
        self.marks.is_some()
    }

    /// The empty grid of order `n`.
    pub fn empty(n: usize) -> Puzzle {
        let side = n * n;
        Puzzle {
            n,
            cells: vec![0; side * side],
            marks: None,
            label: None,
        }
    }

    /// Box side `n`.
    pub fn order(&self) -> usize {
        self.n
    }
    /// Grid side `N`.
    pub fn side(&self) -> usize {
        self.n * self.n
    }
    /// The shared geometry of the puzzle's order.
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.n)
    }
    /// Cell values, row-major, `0` for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// Value of a cell (0-based row-major index), `0` if empty.
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }
    /// Sets a cell to `value` (`0` empties it). A pencilmark cell set to a
    /// value keeps that value alone; emptied, it gets every digit back.
    ///
    /// # Panics
    /// If `value` exceeds `N`.
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value as usize <= self.side());
        self.cells[cell] = value;
        let all = self.geometry().all_digits();
        if let Some(marks) = &mut self.marks {
            marks[cell] = if value == 0 { all } else { 1 << value };
        }
    }
    /// Number of givens.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }
    /// Whether a cell holds a given.
    pub fn is_given(&self, cell: usize) -> bool {
        self.cells[cell] != 0
    }

    /// The grid as one line of `N²` characters, `.` for empty cells; a
    /// pencilmark puzzle as `N³` characters, `N` a cell, each the digit when
    /// it is a candidate and `.` when not (Sukaku Explainer's form).
    pub fn to_line(&self) -> String {
        let side = self.side();
        if let Some(marks) = &self.marks {
            return marks
                .iter()
                .flat_map(|&m| {
                    (1..=side as u8).map(move |d| {
                        if m & 1 << d != 0 {
                            digit_to_char(d, side)
                        } else {
                            '.'
                        }
                    })
                })
                .collect();
        }
        // Every digit character is ASCII: a byte a cell, sized once.
        let bytes: Vec<u8> = self
            .cells
            .iter()
            .map(|&v| {
                if v == 0 {
                    b'.'
                } else {
                    digit_to_char(v, side) as u8
                }
            })
            .collect();
        String::from_utf8(bytes).unwrap_or_else(|_| unreachable!("digit characters are ASCII"))
    }

    /// The grid laid out in `N` lines with `|`, `-` and `+` separators; a
    /// pencilmark puzzle with the candidates of each cell, columns aligned.
    pub fn to_block(&self) -> String {
        let g = self.geometry();
        let texts: Vec<String> = match &self.marks {
            Some(marks) => marks
                .iter()
                .map(|&m| {
                    crate::util::bits(m)
                        .map(|d| digit_to_char(d, g.side))
                        .collect()
                })
                .collect(),
            None => self
                .cells
                .iter()
                .map(|&v| match v {
                    0 => ".".to_string(),
                    _ => digit_to_char(v, g.side).to_string(),
                })
                .collect(),
        };
        block_layout(g, &texts)
    }

    /// Candidates of every cell: for a given cell the singleton of its value;
    /// for an empty cell the pencilmarks' candidates when the puzzle has
    /// them, else the digits no peer gives.
    pub fn candidates(&self) -> Vec<u32> {
        if let Some(marks) = &self.marks {
            return marks.clone();
        }
        let g = self.geometry();
        let mut unit_used = vec![0u32; g.units.len()];
        for (cell, &v) in self.cells.iter().enumerate() {
            if v != 0 {
                for &u in &g.cell_units[cell] {
                    unit_used[u] |= 1 << v;
                }
            }
        }
        self.cells
            .iter()
            .enumerate()
            .map(|(cell, &v)| {
                if v != 0 {
                    1 << v
                } else {
                    let used = g.cell_units[cell]
                        .iter()
                        .fold(0, |acc, &u| acc | unit_used[u]);
                    g.all_digits() & !used
                }
            })
            .collect()
    }

    /// Finds a contradiction visible from the givens alone, if any.
    /// A pencilmark puzzle's cells with one candidate count as given here:
    /// two of them with one digit in a unit are a duplicate.
    pub fn check(&self) -> Result<(), Contradiction> {
        let g = self.geometry();
        let singles: Vec<u8>;
        let values = match &self.marks {
            Some(marks) => {
                singles = marks
                    .iter()
                    .map(|&m| {
                        if m.is_power_of_two() {
                            m.trailing_zeros() as u8
                        } else {
                            0
                        }
                    })
                    .collect();
                &singles
            }
            None => &self.cells,
        };
        for (u, cells) in g.units.iter().enumerate() {
            let mut seen = 0u32;
            for &cell in cells {
                let v = values[cell];
                if v != 0 {
                    if seen & (1 << v) != 0 {
                        let (kind, number) = g.unit_name(u);
                        return Err(Contradiction::DuplicateDigit {
                            digit: v,
                            kind,
                            number,
                        });
                    }
                    seen |= 1 << v;
                }
            }
        }
        let cand = self.candidates();
        for (cell, &c) in cand.iter().enumerate() {
            if c == 0 {
                return Err(Contradiction::NoCandidate {
                    cell: g.cell_name(cell),
                });
            }
        }
        for (u, cells) in g.units.iter().enumerate() {
            let covered = cells.iter().fold(0, |acc, &cell| acc | cand[cell]);
            let missing = g.all_digits() & !covered;
            if missing != 0 {
                let (kind, number) = g.unit_name(u);
                return Err(Contradiction::NoPlace {
                    digit: missing.trailing_zeros() as u8,
                    kind,
                    number,
                });
            }
        }
        Ok(())
    }
}

/// Cell texts laid out in `N` lines: each padded to the widest cell of its
/// column, boxes parted by `|` and by lines of `-` and `+` (the block
/// layout, and for candidates HoDoKu's, which [`read_puzzles`] reads back).
fn block_layout(g: &Geometry, texts: &[String]) -> String {
    let width: Vec<usize> = (0..g.side)
        .map(|c| {
            (0..g.side)
                .map(|r| texts[r * g.side + c].chars().count())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let mut out = String::new();
    let sep: String = (0..g.n)
        .map(|b| {
            let w: usize = (0..g.n).map(|i| width[b * g.n + i] + 1).sum();
            "-".repeat(w + 1)
        })
        .collect::<Vec<_>>()
        .join("+");
    for r in 0..g.side {
        if r > 0 && r % g.n == 0 {
            out.push_str(&sep);
            out.push('\n');
        }
        for c in 0..g.side {
            if c > 0 && c % g.n == 0 {
                out.push_str(" |");
            }
            out.push(' ');
            let t = &texts[r * g.side + c];
            out.push_str(&format!("{t:<w$}", w = width[c]));
        }
        out.push_str(" \n");
    }
    out
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// A completely filled grid.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Solution {
    n: usize,
    cells: Vec<u8>,
}

impl Solution {
    /// Wraps filled cell values; `None` unless every cell holds `1..=N`.
    pub fn from_cells(n: usize, cells: Vec<u8>) -> Option<Solution> {
        let side = n * n;
        (cells.len() == side * side && cells.iter().all(|&v| v >= 1 && v as usize <= side))
            .then_some(Solution { n, cells })
    }
    /// Box side `n`.
    pub fn order(&self) -> usize {
        self.n
    }
    /// Cell values, row-major, each `1..=N`.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// Value of a cell (0-based row-major index).
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }
    /// The grid as one line of `N²` digit characters (`A`, `B`, … above 9).
    pub fn to_line(&self) -> String {
        let side = self.n * self.n;
        self.cells.iter().map(|&v| digit_to_char(v, side)).collect()
    }

    /// True when this grid is a Sudoku solution of `puzzle`: it keeps every
    /// given and holds each digit once in every unit.
    pub fn solves(&self, puzzle: &Puzzle) -> bool {
        if self.n != puzzle.order() {
            return false;
        }
        let g = puzzle.geometry();
        let keeps_givens = puzzle
            .cells()
            .iter()
            .zip(&self.cells)
            .all(|(&p, &s)| p == 0 || p == s);
        let keeps_candidates = puzzle.pencilmarks().is_none_or(|marks| {
            marks
                .iter()
                .zip(&self.cells)
                .all(|(&m, &s)| m & 1 << s != 0)
        });
        keeps_givens
            && keeps_candidates
            && g.units.iter().all(|cells| {
                cells.iter().fold(0u32, |acc, &c| acc | 1 << self.cells[c]) == g.all_digits()
            })
    }

    /// The solution as a puzzle with every cell given.
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle {
            n: self.n,
            cells: self.cells.clone(),
            marks: None,
            label: None,
        }
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_counts() {
        for n in 2..=5 {
            let g = Geometry::of(n);
            let side = n * n;
            assert_eq!(g.units.len(), 3 * side);
            for p in &g.peers {
                // row + column + box minus overlaps: 3(N-1) - 2(n-1)
                assert_eq!(p.len(), 3 * (side - 1) - 2 * (n - 1));
            }
            for (cell, (units, positions)) in g.cell_units.iter().zip(&g.unit_positions).enumerate()
            {
                for (&u, &i) in units.iter().zip(positions) {
                    assert_eq!(g.units[u][i], cell);
                }
            }
        }
        // r5c8 is the 8th cell of row 5, the 5th of column 8, the 5th of box 6.
        assert_eq!(Geometry::of(3).unit_positions[4 * 9 + 7], [7, 4, 4]);
        let g = Geometry::of(3);
        assert_eq!(g.peers[0].len(), 20);
        assert_eq!(g.edges().len(), 810);
        assert_eq!(g.all_digits().count_ones(), 9);
    }

    #[test]
    fn block_layout_of_givens_and_of_candidates() {
        let mut p = Puzzle::empty(2);
        p.set(0, 1);
        p.set(15, 4);
        assert_eq!(
            p.to_block(),
            " 1 . | . . \n . . | . . \n-----+-----\n . . | . . \n . . | . 4 \n"
        );
        let mut marks = vec![0b11110; 16];
        marks[0] = 0b10;
        for &q in &Geometry::of(2).peers[0] {
            marks[q] = 0b11100;
        }
        let q = Puzzle::from_pencilmarks(2, marks).unwrap();
        let block = q.to_block();
        assert!(block.starts_with(" 1   234  | 234  234  \n"), "{block}");
        assert_eq!(block.lines().nth(2), Some("----------+-----------"));
    }

    #[test]
    fn check_finds_contradictions() {
        let mut p = Puzzle::empty(3);
        p.set(0, 5);
        p.set(8, 5);
        assert_eq!(
            p.check(),
            Err(Contradiction::DuplicateDigit {
                digit: 5,
                kind: UnitKind::Row,
                number: 1
            })
        );
        let mut q = Puzzle::empty(3);
        for (i, d) in (1..=8).enumerate() {
            q.set(i + 1, d);
        }
        q.set(9 * 4, 9); // r5c1 = 9 leaves r1c1 without candidate
        assert!(matches!(q.check(), Err(Contradiction::NoCandidate { .. })));
        assert!(Puzzle::empty(3).check().is_ok());
    }
}
