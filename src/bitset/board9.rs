//! The 9×9 fast path of [`super::sudoku`]: the same search (singles to a
//! fixpoint, then branching on a cell with the fewest candidates) on
//! *digit bitboards*: for each digit one 81-bit set (a `u128`, cell
//! `9 × row + column`) of the cells where it may still go, a placed cell
//! staying in its digit's set.
//!
//! Placing `d` at a cell clears the cell's peers in board `d` and the cell
//! in the other boards. Naked singles and empty cells come from a
//! bit-sliced count over the nine boards (cells seen once, twice, three
//! times), so all 81 cells are examined in a few dozen word operations,
//! and the naked singles are placed digit by digit (a single is in no other
//! board, so placing it only clears its peers in its own board);
//! hidden singles are the units whose intersection with a board has one
//! cell, an empty intersection is a dead end; they are found for all 27
//! units of a board at once, without a branch per unit, by folding the
//! board onto the first cells of its rows, columns and boxes in two steps
//! of three (a box column's three columns, then three box columns for the
//! rows or three rows for the boxes; a band's three rows, then three bands
//! for the columns). Only boards that changed since they were last
//! examined are examined again. Both deductions only remove candidates no
//! solution uses, so the solutions, and every count, are those of the
//! cell-mask search, and so is their order (the tests compare the two on
//! thousands of random grids).
//!
//! Counting ([`search_any_order`], kept to test the 9×9 counts of
//! [`super::boxes`] and [`super::band9`] against) also applies
//! locked candidates (pointing and claiming) on the same folds: a
//! digit confined to one row of a box leaves the rest of the row, one
//! confined to one box of a row leaves the rest of the box. That prunes
//! the tree (top1465 counted to 2: 60 search nodes a puzzle instead of
//! 93) and is sound, so the counts do not change; the fixpoints do, and
//! with them the branching cells and the order of the solutions, which is
//! why [`search`] and [`search_forbidding`], whose first solutions the
//! generators keep, run on singles alone.

use std::ops::ControlFlow;
use std::sync::OnceLock;

const CELLS: usize = 81;
const ALL_CELLS: u128 = (1u128 << CELLS) - 1;

struct Masks {
    /// Per cell: its 20 peers.
    peers: [u128; CELLS],
}

/// The first cell of each row (cells 0, 9, …, 72).
const ROW_STARTS: u128 = 0x0100_8040_2010_0804_0201;
/// The first row (cells 0..9).
const FIRST_ROW: u128 = 0x1ff;
/// The top-left cell of each box.
const BOX_STARTS: u128 = 0b1001001 | 0b1001001 << 27 | 0b1001001 << 54;
/// The first cell of each segment (a row's three cells in a box).
const SEGMENT_STARTS: u128 = ROW_STARTS * 0b1001001;
/// The cells of the top-left box.
#[cfg(test)]
const FIRST_BOX: u128 = 0b111 | 0b111 << 9 | 0b111 << 18;

/// A bit-sliced count of three sets, saturating at two: the cells in at
/// least one of them and the cells in at least two.
#[inline(always)]
fn count3(a: u128, b: u128, c: u128) -> (u128, u128) {
    let ab = a | b;
    (ab | c, (a & b) | (c & ab))
}

/// Adds three saturating counts `(once, twice)` of [`count3`], taken
/// `0`, `step` and `2 * step` bits apart, onto the first: the count over
/// their union at the bits of the first.
#[inline(always)]
fn merge3((once, twice): (u128, u128), step: u32) -> (u128, u128) {
    let (o, t) = count3(once, once >> step, once >> (2 * step));
    (o, t | twice | twice >> step | twice >> (2 * step))
}

/// The cells of a digit board that are the board's only cell in some
/// unit, or `None` when a unit has no cell of the board. Branch-free:
/// the board is folded onto the first cells of its units in two steps of
/// three, counting seen-once and seen-twice bit-sliced ([`count3`]):
/// the three columns of each box column onto its first column, which
/// folds on to rows (three box columns) and boxes (three rows of a
/// band); the three rows of each band onto its first row, which folds on
/// to columns (three bands). The units seen once are spread back over
/// their cells.
#[inline(always)]
fn alone_in_a_unit(p: u128) -> Option<u128> {
    let stacks = count3(p, p >> 1, p >> 2);
    let (row1, row2) = merge3(stacks, 3);
    let (box1, box2) = merge3(stacks, 9);
    let (col1, col2) = merge3(count3(p, p >> 9, p >> 18), 27);
    if row1 & ROW_STARTS != ROW_STARTS
        || col1 & FIRST_ROW != FIRST_ROW
        || box1 & BOX_STARTS != BOX_STARTS
    {
        return None;
    }
    // Spread each unit's first cell over the unit: along the row (× 0x1ff),
    // down the column (× ROW_STARTS), over the box (× FIRST_BOX).
    let rows = row1 & !row2 & ROW_STARTS;
    let rows = (rows << 9) - rows;
    let cols = col1 & !col2 & FIRST_ROW;
    let cols = cols | cols << 9 | cols << 18;
    let cols = cols | cols << 27 | cols << 54;
    let boxes = box1 & !box2 & BOX_STARTS;
    let boxes = (boxes << 3) - boxes;
    let boxes = boxes | boxes << 9 | boxes << 18;
    Some(p & (rows | cols | boxes))
}

/// The candidates of a digit board that locked candidates remove, or
/// `None` on a contradiction. A *segment* is the three cells where a row
/// meets a box. When a box's cells of the board lie in one segment
/// (pointing), the digit goes there, so it leaves the rest of the row;
/// when a row's cells lie in one segment (claiming), it leaves the rest
/// of the box. Two such segments in one row (or box) claim it twice: a
/// contradiction. Branch-free, on the segments' first cells as in
/// [`alone_in_a_unit`].
#[inline(always)]
fn locked(p: u128) -> Option<u128> {
    let segs = (p | p >> 1 | p >> 2) & SEGMENT_STARTS;
    // Pointing: segments alone in their box, and the rows they lie in.
    let (box1, box2) = count3(segs, segs >> 9, segs >> 18);
    let alone = box1 & !box2 & BOX_STARTS;
    let pointing = (alone | alone << 9 | alone << 18) & segs;
    let (row1, row2) = count3(pointing, pointing >> 3, pointing >> 6);
    // Claiming: segments alone in their row, and the boxes they lie in.
    let (seg1, seg2) = count3(segs, segs >> 3, segs >> 6);
    let alone = seg1 & !seg2 & ROW_STARTS;
    let claiming = (alone | alone << 3 | alone << 6) & segs;
    let (in1, in2) = count3(claiming, claiming >> 9, claiming >> 18);
    if (row2 & ROW_STARTS) | (in2 & BOX_STARTS) != 0 {
        return None;
    }
    let rows = row1 & ROW_STARTS;
    let rows = (rows << 9) - rows;
    let boxes = in1 & BOX_STARTS;
    let boxes = (boxes << 3) - boxes;
    let boxes = boxes | boxes << 9 | boxes << 18;
    let keep = ((pointing << 3) - pointing) | ((claiming << 3) - claiming);
    Some(p & (rows | boxes) & !keep)
}

fn masks() -> &'static Masks {
    static M: OnceLock<Masks> = OnceLock::new();
    M.get_or_init(|| {
        let mut units = [0u128; 27];
        for cell in 0..CELLS {
            let (r, c) = (cell / 9, cell % 9);
            units[r] |= 1 << cell;
            units[9 + c] |= 1 << cell;
            units[18 + (r / 3) * 3 + c / 3] |= 1 << cell;
        }
        let mut peers = [0u128; CELLS];
        for (cell, p) in peers.iter_mut().enumerate() {
            for &u in &units {
                if u >> cell & 1 == 1 {
                    *p |= u;
                }
            }
            *p &= !(1u128 << cell);
        }
        Masks { peers }
    })
}

/// One search state: the digit boards, the placed cells and the boards
/// changed since hidden singles last examined them (bit `d`).
#[derive(Clone, Copy)]
struct Board {
    pos: [u128; 9],
    placed: u128,
    changed: u16,
}

impl Board {
    /// The board of a puzzle (`cells[i]` = 0 or a digit 1..=9), before any
    /// deduction; `None` when two givens clash. Built digit by digit: a
    /// digit's board is every cell that is neither given nor a peer of one of
    /// its givens, plus its givens.
    fn new(cells: &[u8]) -> Option<Board> {
        let m = masks();
        let mut given = [0u128; 9];
        let mut peers = [0u128; 9];
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 {
                let d = usize::from(v - 1);
                given[d] |= 1 << cell;
                peers[d] |= m.peers[cell];
            }
        }
        let placed = given.iter().fold(0, |acc, g| acc | g);
        let mut pos = [0u128; 9];
        for d in 0..9 {
            if given[d] & peers[d] != 0 {
                return None;
            }
            pos[d] = (ALL_CELLS & !peers[d] & !placed) | given[d];
        }
        Some(Board {
            pos,
            placed,
            changed: 0x1ff,
        })
    }

    #[inline(always)]
    fn place(&mut self, m: &Masks, cell: usize, d: usize) {
        let bit = 1u128 << cell;
        let mut changed = 1u16 << d;
        for (e, p) in self.pos.iter_mut().enumerate() {
            if e != d {
                changed |= u16::from(*p & bit != 0) << e;
                *p &= !bit;
            }
        }
        self.pos[d] &= !m.peers[cell];
        self.placed |= bit;
        self.changed |= changed;
    }

    /// Singles, and locked candidates when `LOCKED`, to a fixpoint; false
    /// on a contradiction.
    fn propagate<const LOCKED: bool>(&mut self, m: &Masks) -> bool {
        loop {
            let (mut once, mut twice) = (0u128, 0u128);
            for &p in &self.pos {
                twice |= once & p;
                once |= p;
            }
            let open = ALL_CELLS & !self.placed;
            if open & !once != 0 {
                return false;
            }
            let singles = once & !twice & open;
            if singles != 0 {
                // A single is in no other board, so placing it only clears
                // its peers in its own board.
                for d in 0..9 {
                    let mut rest = singles & self.pos[d];
                    if rest == 0 {
                        continue;
                    }
                    self.placed |= rest;
                    self.changed |= 1 << d;
                    while rest != 0 {
                        let cell = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        if self.pos[d] >> cell & 1 == 0 {
                            // Emptied by a peer placed just before.
                            return false;
                        }
                        self.pos[d] &= !m.peers[cell];
                    }
                }
                continue;
            }
            let mut changed = self.changed;
            if changed == 0 {
                return true;
            }
            self.changed = 0;
            while changed != 0 {
                let d = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                if LOCKED {
                    let Some(gone) = locked(self.pos[d]) else {
                        return false;
                    };
                    if gone != 0 {
                        self.pos[d] &= !gone;
                        self.changed |= 1 << d;
                    }
                }
                let Some(alone) = alone_in_a_unit(self.pos[d]) else {
                    return false;
                };
                let mut rest = alone & !self.placed;
                while rest != 0 {
                    let cell = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if self.pos[d] >> cell & 1 == 0 {
                        // Cleared by a hidden single of `d` placed just
                        // before, which empties the unit it was alone in.
                        return false;
                    }
                    self.place(m, cell, d);
                }
            }
            if self.changed == 0 {
                return true;
            }
        }
    }

    /// An open cell with the fewest candidates and its candidate digits
    /// (bit `d`); `None` when every cell is placed.
    fn choose(&self) -> Option<(usize, u16)> {
        let open = ALL_CELLS & !self.placed;
        if open == 0 {
            return None;
        }
        let (mut once, mut twice, mut thrice) = (0u128, 0u128, 0u128);
        for &p in &self.pos {
            thrice |= twice & p;
            twice |= once & p;
            once |= p;
        }
        let pairs = twice & !thrice & open;
        let cell = if pairs != 0 {
            pairs.trailing_zeros() as usize
        } else {
            let mut best = (u32::MAX, 0);
            let mut rest = open;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let k = self.pos.iter().filter(|&&p| p >> cell & 1 == 1).count() as u32;
                if k < best.0 {
                    best = (k, cell);
                }
            }
            best.1
        };
        let mut digits = 0u16;
        for (d, &p) in self.pos.iter().enumerate() {
            digits |= ((p >> cell & 1) as u16) << d;
        }
        Some((cell, digits))
    }

    /// The grid, digits 1..=9 (every cell placed).
    fn cells(&self) -> [u8; CELLS] {
        let mut out = [0u8; CELLS];
        for (d, &p) in self.pos.iter().enumerate() {
            let mut rest = p;
            while rest != 0 {
                out[rest.trailing_zeros() as usize] = d as u8 + 1;
                rest &= rest - 1;
            }
        }
        out
    }
}

/// Searches the subtree of `b`, which it uses as scratch: the last digit
/// of a branching is tried on `b` itself, the others on copies.
fn recurse<const LOCKED: bool, F>(m: &Masks, b: &mut Board, visit: &mut F) -> ControlFlow<()>
where
    F: FnMut(&[u8; CELLS]) -> ControlFlow<()>,
{
    if !b.propagate::<LOCKED>(m) {
        return ControlFlow::Continue(());
    }
    let Some((cell, mut digits)) = b.choose() else {
        return visit(&b.cells());
    };
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        if digits == 0 {
            b.place(m, cell, d);
            return recurse::<LOCKED, F>(m, b, visit);
        }
        let mut child = *b;
        child.place(m, cell, d);
        recurse::<LOCKED, F>(m, &mut child, visit)?;
    }
    ControlFlow::Continue(())
}

/// Calls `visit` with every solution of the 9×9 grid `cells` (0 = empty,
/// 1..=9 a given), in the order of the cell-mask search (digits ascending
/// at each branching), until it breaks.
pub(super) fn search<F>(cells: &[u8], visit: F)
where
    F: FnMut(&[u8; CELLS]) -> ControlFlow<()>,
{
    search_forbidding(cells, None, visit);
}

/// [`search`] over the solutions whose value at `forbid.0` is not
/// `forbid.1` (as the cell-mask search's `run_cells`).
pub(super) fn search_forbidding<F>(cells: &[u8], forbid: Option<(usize, u8)>, mut visit: F)
where
    F: FnMut(&[u8; CELLS]) -> ControlFlow<()>,
{
    debug_assert_eq!(cells.len(), CELLS);
    let m = masks();
    let Some(mut b) = Board::new(cells) else {
        return;
    };
    if let Some((cell, v)) = forbid {
        let (bit, d) = (1u128 << cell, usize::from(v) - 1);
        if b.pos[d] & bit != 0 {
            if b.placed & bit != 0 {
                return;
            }
            b.pos[d] &= !bit;
            b.changed |= 1 << d;
        }
    }
    let _ = recurse::<false, F>(m, &mut b, &mut visit);
}

/// Calls `visit` with every solution of the 9×9 grid `cells`, in an order
/// of its own, until it breaks: for counting. Locked candidates join the
/// singles, which prunes the tree but changes the fixpoints, hence the
/// branching cells and the order of the solutions.
#[cfg(test)]
pub(super) fn search_any_order<F>(cells: &[u8], mut visit: F)
where
    F: FnMut(&[u8; CELLS]) -> ControlFlow<()>,
{
    debug_assert_eq!(cells.len(), CELLS);
    if let Some(mut b) = Board::new(cells) {
        let _ = recurse::<true, F>(masks(), &mut b, &mut visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(r: usize, c: usize) -> u128 {
        1 << (9 * r + c)
    }

    #[test]
    fn a_full_board_has_no_cell_alone() {
        assert_eq!(alone_in_a_unit(ALL_CELLS), Some(0));
    }

    #[test]
    fn a_placed_digit_is_alone_in_every_unit() {
        // One cell per row, column and box: row r, column (3r + r/3) mod 9.
        let p = (0..9).fold(0, |acc, r| acc | cell(r, (3 * r + r / 3) % 9));
        assert_eq!(alone_in_a_unit(p), Some(p));
    }

    #[test]
    fn the_only_cell_of_a_column_a_row_or_a_box_is_found() {
        let column0 = (0..9).fold(0, |acc, r| acc | cell(r, 0));
        assert_eq!(
            alone_in_a_unit(ALL_CELLS & !column0 | cell(4, 0)),
            Some(cell(4, 0))
        );
        let row7 = (0..9).fold(0, |acc, c| acc | cell(7, c));
        assert_eq!(
            alone_in_a_unit(ALL_CELLS & !row7 | cell(7, 2)),
            Some(cell(7, 2))
        );
        // The middle box keeps only its centre.
        let middle = FIRST_BOX << 30;
        assert_eq!(
            alone_in_a_unit(ALL_CELLS & !middle | cell(4, 4)),
            Some(cell(4, 4))
        );
    }

    #[test]
    fn an_empty_unit_is_a_dead_end() {
        let row8 = (0..9).fold(0, |acc, c| acc | cell(8, c));
        assert_eq!(alone_in_a_unit(ALL_CELLS & !row8), None);
        let column5 = (0..9).fold(0, |acc, r| acc | cell(r, 5));
        assert_eq!(alone_in_a_unit(ALL_CELLS & !column5), None);
        assert_eq!(alone_in_a_unit(ALL_CELLS & !(FIRST_BOX << 60)), None);
    }

    #[test]
    fn pointing_clears_the_rest_of_the_row() {
        // Box 0 keeps only row 1's segment: the digit leaves row 1 elsewhere.
        let p = ALL_CELLS & !FIRST_BOX | cell(1, 0) | cell(1, 2);
        let row1 = (3..9).fold(0, |acc, c| acc | cell(1, c));
        assert_eq!(locked(p), Some(row1));
    }

    #[test]
    fn claiming_clears_the_rest_of_the_box() {
        // Row 4 keeps only its cells in box 5 (columns 6..9).
        let row4 = (0..9).fold(0, |acc, c| acc | cell(4, c));
        let p = ALL_CELLS & !row4 | cell(4, 7);
        let rest = (3..6).fold(0, |acc, r| {
            if r == 4 {
                acc
            } else {
                acc | cell(r, 6) | cell(r, 7) | cell(r, 8)
            }
        });
        assert_eq!(locked(p), Some(rest));
    }

    #[test]
    fn nothing_is_locked_on_a_full_board_or_a_placed_digit() {
        assert_eq!(locked(ALL_CELLS), Some(0));
        let p = (0..9).fold(0, |acc, r| acc | cell(r, (3 * r + r / 3) % 9));
        assert_eq!(locked(p), Some(0));
    }

    #[test]
    fn two_boxes_pointing_into_one_row_is_a_dead_end() {
        // Boxes 0 and 1 both keep only row 2.
        let top = (0..3).fold(0, |acc, r| acc | (0..6).fold(0, |a, c| a | cell(r, c)));
        let p = ALL_CELLS & !top | cell(2, 1) | cell(2, 4);
        assert_eq!(locked(p), None);
    }
}
