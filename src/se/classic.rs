//! The classic Sudoku Explainer's producers of singles, direct hints,
//! intersections, subsets, fish and wings (Sudoku Explainer 1.2.1.3,
//! classes `HiddenSingle`, `Locking`, `HiddenSet`, `NakedSingle`,
//! `NakedSet`, `Fisherman` and `XYWing` of `diuf.sudoku.solver.rules`),
//! each returning the first hint SE's own search finds.
//!
//! SE's rating path applies the first hint of the first producer that has
//! one, so which application comes first decides the states the path goes
//! through. Our catalogue's finders ([`crate::human::techniques`]) list
//! every application in an order of their own; these producers follow SE's
//! order and SE's conditions instead:
//!
//! * units in SE's order: blocks, then columns, then rows for singles and
//!   subsets; blocks, rows, columns where SE walks a cell's houses;
//! * tuples of cells, digits or lines in SE's order (the k-subsets of
//!   `0..N` by increasing bit mask, as SE's `Permutations`);
//! * a naked set of size k only in a unit with at least 2k empty cells, a
//!   hidden set only in one with more than 2k (more than k for a direct
//!   hidden set), every member with two or more candidates (places); a
//!   fish of size k only for a digit with at least 2k cells still to place,
//!   every base line with two or more places;
//! * locking in the order pointing from boxes onto columns, onto rows, then
//!   claiming from columns, from rows;
//! * direct hints (a pointing, claiming or hidden set whose removals leave
//!   a hidden single) place the single only, as SE's do; SE's direct
//!   pointing (claiming) looks for the single in the other boxes (lines of
//!   the same kind) crossing the line (box) of the removals, a direct
//!   hidden set in its own unit.

use super::{SeHint, SeRule};
use crate::human::board::Board;
use crate::human::techniques::Technique;
use crate::util::bits as digits;

/// A kind of unit, as SE names them (`Grid.Block`, `Grid.Row`,
/// `Grid.Column`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Region {
    Block,
    Row,
    Column,
}

/// SE's `Grid.getRegionTypes()` order: blocks, rows, columns.
pub(crate) const REGION_TYPES: [Region; 3] = [Region::Block, Region::Row, Region::Column];

/// The order SE's singles and subsets walk the units in.
const SUBSET_ORDER: [Region; 3] = [Region::Block, Region::Column, Region::Row];

impl Region {
    /// Our unit index of the `i`-th region of this kind.
    pub(crate) fn unit(self, board: &Board, i: usize) -> usize {
        let side = board.side();
        match self {
            Region::Row => i,
            Region::Column => side + i,
            Region::Block => 2 * side + i,
        }
    }

    /// Our unit index of the region of this kind holding `cell`.
    pub(crate) fn of_cell(self, board: &Board, cell: usize) -> usize {
        let k = match self {
            Region::Row => 0,
            Region::Column => 1,
            Region::Block => 2,
        };
        board.geometry().cell_units[cell][k]
    }
}

/// The `k`-subsets of `0..m` as bit masks by increasing value (SE's
/// `Permutations(k, m)`; one empty subset for `k == 0`, none for `k > m`).
pub(crate) fn subsets(k: usize, m: usize) -> impl Iterator<Item = u32> {
    let end = 1u64 << m;
    let mut next = if k > m { None } else { Some((1u64 << k) - 1) };
    std::iter::from_fn(move || {
        let x = next?;
        next = if x == 0 {
            None
        } else {
            // Gosper's hack: the next larger value with as many ones.
            let low = x & x.wrapping_neg();
            let ripple = x + low;
            let y = (((ripple ^ x) >> 2) / low) | ripple;
            (y < end).then_some(y)
        };
        Some(x as u32)
    })
}

/// Number of empty cells of `unit`.
pub(crate) fn empty_cells(board: &Board, unit: usize) -> usize {
    board.geometry().units[unit]
        .iter()
        .filter(|&&c| board.value(c) == 0)
        .count()
}

/// Whether `cell` lies in `unit`.
pub(crate) fn in_unit(board: &Board, cell: usize, unit: usize) -> bool {
    board.geometry().cell_units[cell].contains(&unit)
}

/// The cells sharing a unit with `cell`, in SE's `Cell.getHouseCells()`
/// order: its block's, then its row's, then its column's, each once.
pub(crate) fn house_cells(board: &Board, cell: usize) -> Vec<usize> {
    let geo = board.geometry();
    let mut out = Vec::with_capacity(3 * geo.side);
    for region in REGION_TYPES {
        for &c in &geo.units[region.of_cell(board, cell)] {
            if c != cell && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

fn hint(rule: SeRule, placement: Option<(usize, u8)>, eliminations: Vec<(usize, u8)>) -> SeHint {
    SeHint {
        rule,
        tenths: rule.tenths(),
        placement,
        eliminations,
        chain: None,
    }
}

/// SE's `HiddenSingle`: first a digit's last place in a unit with one
/// empty cell (1.0), then hidden singles in blocks (1.2), columns and rows
/// (1.5).
pub(crate) fn hidden_single(board: &Board) -> Option<SeHint> {
    let side = board.side();
    for alone in [true, false] {
        for region in SUBSET_ORDER {
            for i in 0..side {
                let u = region.unit(board, i);
                let is_alone = empty_cells(board, u) == 1;
                if is_alone != alone {
                    continue;
                }
                for d in 1..=side as u8 {
                    let at = board.places(u, d);
                    if at.count_ones() == 1 {
                        let cell = board.geometry().units[u][at.trailing_zeros() as usize];
                        let rule = if is_alone {
                            SeRule::LastCell
                        } else if region == Region::Block {
                            SeRule::HiddenSingleBox
                        } else {
                            SeRule::HiddenSingleLine
                        };
                        return Some(hint(rule, Some((cell, d)), Vec::new()));
                    }
                }
            }
        }
    }
    None
}

/// SE's `NakedSingle`: the first cell (row by row) with one candidate.
pub(crate) fn naked_single(board: &Board) -> Option<SeHint> {
    let cands = board.all_cands();
    let cell = (0..cands.len()).find(|&c| cands[c].count_ones() == 1)?;
    let d = cands[cell].trailing_zeros() as u8;
    Some(hint(SeRule::NakedSingle, Some((cell, d)), Vec::new()))
}

/// SE's `Locking`: pointing (a block's places of a digit on one line)
/// before claiming (a line's places in one block). `direct` keeps only
/// the ones whose removals leave a hidden single in another region of
/// the first kind crossing the second, and places that single.
pub(crate) fn locking(board: &Board, direct: bool) -> Option<SeHint> {
    let geo = board.geometry();
    let side = board.side();
    let pairs = [
        (Region::Block, Region::Column),
        (Region::Block, Region::Row),
        (Region::Column, Region::Block),
        (Region::Row, Region::Block),
    ];
    for (kind1, kind2) in pairs {
        for i1 in 0..side {
            let r1 = kind1.unit(board, i1);
            for i2 in 0..side {
                let r2 = kind2.unit(board, i2);
                if !geo.units[r1].iter().any(|&c| in_unit(board, c, r2)) {
                    continue;
                }
                for d in 1..=side as u8 {
                    let at = board.places(r1, d);
                    if at.count_ones() < 2
                        || !digits(at).all(|i| in_unit(board, geo.units[r1][usize::from(i)], r2))
                    {
                        continue;
                    }
                    let pointing = kind1 == Region::Block;
                    if direct {
                        let rule = if pointing {
                            SeRule::DirectPointing
                        } else {
                            SeRule::DirectClaiming
                        };
                        if let Some(cell) = following_single(board, kind1, i1, r2, d) {
                            return Some(hint(rule, Some((cell, d)), Vec::new()));
                        }
                    } else {
                        let removals: Vec<(usize, u8)> = geo.units[r2]
                            .iter()
                            .filter(|&&c| !in_unit(board, c, r1) && board.cands(c) & (1 << d) != 0)
                            .map(|&c| (c, d))
                            .collect();
                        if !removals.is_empty() {
                            let t = if pointing {
                                Technique::Pointing
                            } else {
                                Technique::Claiming
                            };
                            return Some(hint(SeRule::Plain(t), None, removals));
                        }
                    }
                }
            }
        }
    }
    None
}

/// The cell of the hidden single that removing `d` from `r2` leaves in a
/// region of kind `kind1` other than the `i1`-th (SE's
/// `lookForFollowingHiddenSingles`).
fn following_single(board: &Board, kind1: Region, i1: usize, r2: usize, d: u8) -> Option<usize> {
    let geo = board.geometry();
    for i3 in (0..board.side()).filter(|&i| i != i1) {
        let r3 = kind1.unit(board, i3);
        if !geo.units[r3].iter().any(|&c| in_unit(board, c, r2)) {
            continue;
        }
        let at = board.places(r3, d);
        if at.count_ones() < 2 {
            continue;
        }
        let mut remaining = digits(at)
            .map(|i| geo.units[r3][usize::from(i)])
            .filter(|&c| !in_unit(board, c, r2));
        if let (Some(cell), None) = (remaining.next(), remaining.next()) {
            return Some(cell);
        }
    }
    None
}

/// SE's `HiddenSet(k, direct)`: `k` digits of a unit whose places (two or
/// more each) fill `k` cells. Direct: the first whose removals leave a
/// hidden single in the unit, which is placed.
pub(crate) fn hidden_set(board: &Board, k: usize, direct: bool) -> Option<SeHint> {
    let geo = board.geometry();
    let side = board.side();
    let mut places = vec![0u32; side + 1];
    for region in SUBSET_ORDER {
        for i in 0..side {
            let u = region.unit(board, i);
            let empty = empty_cells(board, u);
            if !(empty > 2 * k || (direct && empty > k)) {
                continue;
            }
            board.unit_places(u, &mut places);
            for combo in subsets(k, side) {
                let set: u32 = combo << 1;
                let mut union = 0u32;
                if digits(set).any(|d| places[usize::from(d)].count_ones() < 2) {
                    continue;
                }
                for d in digits(set) {
                    union |= places[usize::from(d)];
                }
                if union.count_ones() as usize != k {
                    continue;
                }
                let cells = &geo.units[u];
                if direct {
                    let single = (1..=side as u8).find_map(|d| {
                        let at = places[usize::from(d)];
                        (set & (1 << d) == 0
                            && at.count_ones() > 1
                            && (at & !union).count_ones() == 1)
                            .then(|| (cells[(at & !union).trailing_zeros() as usize], d))
                    });
                    if let Some(single) = single {
                        let rule = if k == 2 {
                            SeRule::DirectHiddenPair
                        } else {
                            SeRule::DirectHiddenTriple
                        };
                        return Some(hint(rule, Some(single), Vec::new()));
                    }
                } else {
                    let removals: Vec<(usize, u8)> = digits(union)
                        .flat_map(|p| {
                            let c = cells[usize::from(p)];
                            digits(board.cands(c) & !set).map(move |d| (c, d))
                        })
                        .collect();
                    if !removals.is_empty() {
                        let t = match k {
                            2 => Technique::HiddenPair,
                            3 => Technique::HiddenTriple,
                            _ => Technique::HiddenQuad,
                        };
                        return Some(hint(SeRule::Plain(t), None, removals));
                    }
                }
            }
        }
    }
    None
}

/// SE's `NakedSet(k)`: `k` cells of a unit (two or more candidates each)
/// holding `k` digits in all.
pub(crate) fn naked_set(board: &Board, k: usize) -> Option<SeHint> {
    let geo = board.geometry();
    let side = board.side();
    for region in SUBSET_ORDER {
        for i in 0..side {
            let u = region.unit(board, i);
            if empty_cells(board, u) < 2 * k {
                continue;
            }
            let cells = &geo.units[u];
            for combo in subsets(k, side) {
                if digits(combo).any(|p| board.cands(cells[usize::from(p)]).count_ones() < 2) {
                    continue;
                }
                let union = digits(combo).fold(0u32, |m, p| m | board.cands(cells[usize::from(p)]));
                if union.count_ones() as usize != k {
                    continue;
                }
                let removals: Vec<(usize, u8)> = (0..side)
                    .filter(|&p| combo & (1 << p) == 0)
                    .flat_map(|p| {
                        let c = cells[p];
                        digits(board.cands(c) & union).map(move |d| (c, d))
                    })
                    .collect();
                if !removals.is_empty() {
                    let t = match k {
                        2 => Technique::NakedPair,
                        3 => Technique::NakedTriple,
                        _ => Technique::NakedQuad,
                    };
                    return Some(hint(SeRule::Plain(t), None, removals));
                }
            }
        }
    }
    None
}

/// SE's `Fisherman(k)`: `k` columns (then rows) whose places of a digit
/// (two or more each) lie on `k` cross lines.
pub(crate) fn fisherman(board: &Board, k: usize) -> Option<SeHint> {
    let geo = board.geometry();
    let side = board.side();
    let mut placed = vec![0usize; side + 1];
    for &v in board.values() {
        placed[usize::from(v)] += 1;
    }
    for (base, cover) in [(Region::Column, Region::Row), (Region::Row, Region::Column)] {
        for combo in subsets(k, side) {
            for d in 1..=side as u8 {
                if placed[usize::from(d)] + 2 * k > side {
                    continue;
                }
                let mut union = 0u32;
                let mut each_two = true;
                for b in digits(combo) {
                    let at = board.places(base.unit(board, usize::from(b)), d);
                    each_two &= at.count_ones() >= 2;
                    union |= at;
                }
                if !each_two || union.count_ones() as usize != k {
                    continue;
                }
                let removals: Vec<(usize, u8)> = digits(union)
                    .flat_map(|c| {
                        let line = cover.unit(board, usize::from(c));
                        let at = board.places(line, d) & !combo;
                        digits(at).map(move |p| (geo.units[line][usize::from(p)], d))
                    })
                    .collect();
                if !removals.is_empty() {
                    let t = match k {
                        2 => Technique::XWing,
                        3 => Technique::Swordfish,
                        _ => Technique::Jellyfish,
                    };
                    return Some(hint(SeRule::Plain(t), None, removals));
                }
            }
        }
    }
    None
}

/// SE's `XYWing(xyz)`: a pivot of two (three) candidates, and two bivalue
/// cells of its houses such that the three hold three digits, none common
/// to all three (one common to all three for the XYZ-wing); `z`, common
/// to the wings, leaves the cells seeing both wings (and the XYZ pivot).
pub(crate) fn xy_wing(board: &Board, xyz: bool) -> Option<SeHint> {
    let pivot_size = if xyz { 3 } else { 2 };
    let cands = board.all_cands();
    for pivot in 0..cands.len() {
        let xy = cands[pivot];
        if xy.count_ones() != pivot_size {
            continue;
        }
        let house = house_cells(board, pivot);
        for &xz_cell in &house {
            let xz = cands[xz_cell];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for &yz_cell in &house {
                let yz = cands[yz_cell];
                if yz.count_ones() != 2 {
                    continue;
                }
                let union = xy | xz | yz;
                let common = (xy & xz & yz).count_ones();
                if union.count_ones() != 3 || common != u32::from(xyz) {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as u8;
                let yz_house = house_cells(board, yz_cell);
                let removals: Vec<(usize, u8)> = house_cells(board, xz_cell)
                    .into_iter()
                    .filter(|c| yz_house.contains(c) && (!xyz || house.contains(c)))
                    .filter(|&c| c != pivot && c != xz_cell && c != yz_cell)
                    .filter(|&c| cands[c] & (1 << z) != 0)
                    .map(|c| (c, z))
                    .collect();
                if !removals.is_empty() {
                    let t = if xyz {
                        Technique::XyzWing
                    } else {
                        Technique::XyWing
                    };
                    return Some(hint(SeRule::Plain(t), None, removals));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_in_ses_permutation_order() {
        let two_of_four: Vec<u32> = subsets(2, 4).collect();
        assert_eq!(
            two_of_four,
            vec![0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]
        );
        assert_eq!(subsets(0, 5).collect::<Vec<_>>(), vec![0]);
        assert_eq!(subsets(3, 2).count(), 0);
        assert_eq!(subsets(4, 9).count(), 126);
        assert_eq!(subsets(9, 9).collect::<Vec<_>>(), vec![0x1ff]);
    }

    #[test]
    fn house_cells_are_block_then_row_then_column() {
        let p = crate::grid::Puzzle::empty(3);
        let b = Board::new(&p);
        // r1c1: its block (r1c2, r1c3, r2c1..), then the rest of row 1,
        // then the rest of column 1.
        let h = house_cells(&b, 0);
        assert_eq!(h.len(), 20);
        assert_eq!(&h[..8], &[1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(&h[8..14], &[3, 4, 5, 6, 7, 8]);
        assert_eq!(&h[14..], &[27, 36, 45, 54, 63, 72]);
    }
}
