//! Sudoku Explainer's uniqueness rules: unique rectangles and loops, and
//! the bivalue universal grave (Sudoku Explainer 1.2.1.3, classes
//! `UniqueLoops` and `BivalueUniversalGrave` of
//! `diuf.sudoku.solver.rules.unique`, with their hint classes).
//!
//! Both rest on the puzzle having one solution: a pattern that would let
//! two digits (or every candidate) swap places without breaking a unit
//! cannot be the final state, so a candidate that keeps it from forming
//! must be true.
//!
//! **Unique loops** ([`unique_loop`]). From every cell with exactly two
//! candidates `{v1, v2}` SE walks, depth first, to cells of a common unit
//! holding both digits (never twice in a row through the same kind of
//! unit), at most two of them with more candidates (any number when they
//! all add the same single digit), and keeps the closed walks of four cells
//! or more in which every unit holds none or two of the walk's cells, one
//! at an odd and one at an even position (a rectangle of four cells, a loop
//! of six, eight, …). With the cells holding more than `{v1, v2}` (the
//! "extra" cells):
//! * type 1, one extra cell: it loses `v1` and `v2`;
//! * type 2, extra cells adding one and the same digit: the cells seeing
//!   them all lose it;
//! * type 3, two extra cells in a unit whose extra digits form a naked set
//!   with other cells of the unit (the unit's other cells lose the set), or
//!   a hidden set with `v1`, `v2` once one extra cell is left out (the
//!   set's cells lose their other digits);
//! * type 4, two extra cells whose common unit has no other place for `v1`
//!   (else `v2`): both lose the other digit.
//!
//! SE rates a loop 4.5, plus 0.1 for six cells, 0.2 for eight, 0.5 for ten
//! or more; type 3 adds 0.1 per member of its set beyond the first (the
//! set's digits for a naked set, its cells other than the extra cells for
//! a hidden one). Types 2 and 4 rate as type 1. Of all the hints SE sorts
//! by rating (then type, then the order found, the walks starting row by
//! row) and takes the first; we do the same, comparing ratings as SE's
//! `double`s, in which 4.5 + 0.1 + 0.1 falls below 4.5 + 0.2.
//!
//! **Bivalue universal grave** ([`bivalue_universal_grave`]). Where every
//! empty cell but a few has two candidates and a digit's places in a unit
//! are not zero or two, the one place with three or more candidates is a
//! "BUG cell" and the digit a "BUG value" of it; once those values are
//! taken out, every empty cell must have two candidates and every digit
//! zero or two places in each unit, else there is no BUG. Then:
//! * type 1 (5.6), one BUG cell: it keeps only its BUG values;
//! * type 2 (5.7), one BUG value: the cells seeing every BUG cell lose it;
//! * type 3 (5.7 + 0.1 per digit of the set beyond the first), BUG cells
//!   in one unit whose BUG values form a naked set with other cells of it:
//!   the unit's other cells lose the set;
//! * type 4 (5.7), two BUG cells in a unit sharing one non-BUG digit: each
//!   loses its candidates other than its BUG values and that digit.
//!
//! SE tries type 1, then 2 (one BUG value) or 4 and 3 (several), and takes
//! the first hint. The searches below follow SE's order (units blocks,
//! rows, columns; tuples by increasing bit mask; a cell's houses block,
//! row, column) so the hint taken is SE's.

use super::classic::{REGION_TYPES, Region, empty_cells, house_cells, in_unit, subsets};
use super::{SeHint, SeRule};
use crate::human::board::Board;
use crate::util::bits as digits;

/// SE's rating of a unique loop of `cells` cells of type 1, 2 or 4, as
/// SE's `UniqueLoopHint.getDifficulty` computes it in `double`s.
pub(crate) fn loop_rating(cells: usize) -> f64 {
    let mut r = 4.5;
    if cells >= 10 {
        r += 0.3;
    }
    if cells >= 8 {
        r += 0.2;
    } else if cells >= 6 {
        r += 0.1;
    }
    r
}

/// SE's rating of a type-3 unique loop whose set has `members` members
/// (digits of a naked set; cells other than the extra ones of a hidden
/// set).
pub(crate) fn type3_rating(cells: usize, members: usize) -> f64 {
    loop_rating(cells) + (members as f64 - 1.0) * 0.1
}

/// SE's rating of BUG type 3 with a naked set of `digits` digits.
pub(crate) fn bug3_rating(set_digits: usize) -> f64 {
    5.7 + (set_digits as f64 - 1.0) * 0.1
}

/// A rating in SE's `double`s, in tenths.
fn tenths(rating: f64) -> u32 {
    (rating * 10.0).round() as u32
}

/// A hint found by the loop search, with what SE sorts hints by.
struct Candidate {
    rating: f64,
    loop_type: u8,
    hint: SeHint,
}

/// Every unique-loop hint SE finds on `board`, in the order SE's search
/// finds them (not sorted).
fn loop_candidates(board: &Board) -> Vec<Candidate> {
    let mut out = Vec::new();
    let cands = board.all_cands();
    for start in 0..cands.len() {
        if cands[start].count_ones() != 2 {
            continue;
        }
        let mut walk = Walk {
            board,
            pair: cands[start],
            path: Vec::new(),
            in_path: vec![false; cands.len()],
            units_used: [0; 2],
            loops: Vec::new(),
        };
        walk.extend(start, 2, 0, None);
        for cells in &walk.loops {
            loop_hints(board, cells, cands[start], &mut out);
        }
    }
    out
}

/// The first hint of SE's `UniqueLoops` on `board`: the lowest rated, then
/// lowest type, then first found.
pub(crate) fn unique_loop(board: &Board) -> Option<SeHint> {
    let mut best: Option<Candidate> = None;
    for c in loop_candidates(board) {
        let better = best.as_ref().is_none_or(|b| {
            c.rating < b.rating || (c.rating == b.rating && c.loop_type < b.loop_type)
        });
        if better {
            best = Some(c);
        }
    }
    best.map(|c| c.hint)
}

/// Every unique-loop hint on `board` (for tests of soundness).
#[cfg(test)]
pub(crate) fn all_unique_loops(board: &Board) -> Vec<SeHint> {
    loop_candidates(board).into_iter().map(|c| c.hint).collect()
}

/// SE's depth-first search for loops on the digits `pair` from one start
/// cell (`UniqueLoops.checkForLoops`), keeping the valid loops
/// (`isValidLoop`).
struct Walk<'a> {
    board: &'a Board,
    pair: u32,
    path: Vec<usize>,
    in_path: Vec<bool>,
    /// Units (bit = unit index) holding a cell of the path at an even
    /// (`[0]`) and an odd (`[1]`) position.
    units_used: [u128; 2],
    loops: Vec<Vec<usize>>,
}

impl Walk<'_> {
    /// Adds `cell` to the path and walks on; `allowed_extra` is how many
    /// more cells with extra candidates may join (SE lets it go below
    /// zero), `extra` the extra digits SE has seen so far, `last` the kind
    /// of unit that led here.
    fn extend(&mut self, cell: usize, allowed_extra: i32, extra: u32, last: Option<Region>) {
        let geo = self.board.geometry();
        let parity = self.path.len() % 2;
        let units = geo.cell_units[cell]
            .iter()
            .fold(0u128, |m, &u| m | (1u128 << u));
        // SE keeps a closed walk only when no unit holds two of its cells
        // at positions of the same parity; a path that already breaks
        // that cannot close into a kept loop, so it is cut here (which
        // changes nothing SE keeps, nor the order it finds them in).
        if self.units_used[parity] & units != 0 {
            return;
        }
        self.path.push(cell);
        self.in_path[cell] = true;
        self.units_used[parity] |= units;
        // SE accumulates the extra digits of every cell it looks at from
        // here, not only of the cells on the path (its `exValues`).
        let mut extra = extra;
        for region in REGION_TYPES {
            if Some(region) == last {
                continue;
            }
            let u = region.of_cell(self.board, cell);
            for &next in &geo.units[u] {
                if next == self.path[0] && self.path.len() >= 4 {
                    if self.units_used[0] == self.units_used[1] {
                        self.loops.push(self.path.clone());
                    }
                } else if !self.in_path[next] {
                    let c = self.board.cands(next);
                    if c & self.pair == self.pair {
                        extra |= c & !self.pair;
                        let plain = c.count_ones() == 2;
                        if plain || extra.count_ones() == 1 || allowed_extra > 0 {
                            let allowed = allowed_extra - i32::from(!plain);
                            self.extend(next, allowed, extra, Some(region));
                        }
                    }
                }
            }
        }
        self.units_used[parity] &= !units;
        self.in_path[cell] = false;
        self.path.pop();
    }
}

fn loop_hint(cells: &[usize], loop_type: u8, rating: f64, removals: Vec<(usize, u8)>) -> Candidate {
    Candidate {
        rating,
        loop_type,
        hint: SeHint {
            rule: SeRule::UniqueLoop {
                cells: cells.len() as u8,
                loop_type,
            },
            tenths: tenths(rating),
            placement: None,
            eliminations: removals,
            chain: None,
        },
    }
}

/// The hints of one loop, in SE's order (`UniqueLoops.getHints`).
fn loop_hints(board: &Board, cells: &[usize], pair: u32, out: &mut Vec<Candidate>) {
    let extra_cells: Vec<usize> = cells
        .iter()
        .copied()
        .filter(|&c| board.cands(c).count_ones() > 2)
        .collect();
    let n = cells.len();
    let v1 = pair.trailing_zeros() as u8;
    let v2 = (31 - pair.leading_zeros()) as u8;
    match extra_cells.len() {
        0 => {}
        1 => {
            let rescue = extra_cells[0];
            out.push(loop_hint(
                cells,
                1,
                loop_rating(n),
                vec![(rescue, v1), (rescue, v2)],
            ));
        }
        2 => {
            let (c1, c2) = (extra_cells[0], extra_cells[1]);
            let extra = (board.cands(c1) | board.cands(c2)) & !pair;
            if extra.count_ones() == 1 {
                out.extend(type2(board, cells, &extra_cells, pair));
            } else if extra.count_ones() >= 2 {
                type3(board, cells, c1, c2, pair, extra, out);
            }
            out.extend(type4(board, cells, c1, c2, pair));
        }
        _ => out.extend(type2(board, cells, &extra_cells, pair)),
    }
}

/// Type 2: the extra digit of the first extra cell leaves every cell
/// seeing all extra cells.
fn type2(board: &Board, cells: &[usize], extra_cells: &[usize], pair: u32) -> Option<Candidate> {
    let extra = board.cands(extra_cells[0]) & !pair;
    if extra == 0 {
        return None;
    }
    let d = extra.trailing_zeros() as u8;
    let mut common = house_cells(board, extra_cells[0]);
    for &e in &extra_cells[1..] {
        let house = house_cells(board, e);
        common.retain(|c| house.contains(c));
    }
    let removals: Vec<(usize, u8)> = common
        .into_iter()
        .filter(|c| !extra_cells.contains(c) && board.cands(*c) & (1 << d) != 0)
        .map(|c| (c, d))
        .collect();
    (!removals.is_empty()).then(|| loop_hint(cells, 2, loop_rating(cells.len()), removals))
}

/// Type 3: naked and hidden sets in a unit common to the two extra cells
/// `c1` and `c2`, by growing size (SE's `createType3Hints`).
fn type3(
    board: &Board,
    cells: &[usize],
    c1: usize,
    c2: usize,
    pair: u32,
    extra: u32,
    out: &mut Vec<Candidate>,
) {
    let geo = board.geometry();
    let side = board.side();
    let n = cells.len();
    let first = extra.count_ones() as usize;
    for degree in first..=side - 2 {
        for region in REGION_TYPES {
            let u = region.of_cell(board, c1);
            if u != region.of_cell(board, c2) {
                continue;
            }
            let unit = &geo.units[u];
            let empty = empty_cells(board, u);
            let i1 = unit.iter().position(|&c| c == c1).unwrap_or(0);
            let i2 = unit.iter().position(|&c| c == c2).unwrap_or(0);
            if degree * 2 <= empty {
                for combo in subsets(degree, side) {
                    if combo & (1 << i1) == 0 || combo & (1 << i2) != 0 {
                        continue;
                    }
                    let others = combo & !(1 << i1);
                    let other_cands: Vec<u32> = digits(others)
                        .map(|p| board.cands(unit[usize::from(p)]))
                        .collect();
                    let in_others = other_cands.iter().fold(0, |m, &c| m | c);
                    let shared = extra & board.cands(c1) & board.cands(c2);
                    let union = extra | in_others;
                    if (shared | in_others).count_ones() as usize != degree
                        || other_cands.iter().any(|c| c.count_ones() < 2)
                        || union.count_ones() as usize != degree
                    {
                        continue;
                    }
                    let removals: Vec<(usize, u8)> = (0..side)
                        .filter(|&p| others & (1 << p) == 0 && p != i1 && p != i2)
                        .flat_map(|p| {
                            let c = unit[p];
                            digits(board.cands(c) & union).map(move |d| (c, d))
                        })
                        .collect();
                    if !removals.is_empty() {
                        out.push(loop_hint(cells, 3, type3_rating(n, degree), removals));
                    }
                }
            }
            if degree * 2 < empty {
                let rest: Vec<u8> = (1..=side as u8)
                    .filter(|&d| (pair | extra) & (1 << d) == 0)
                    .collect();
                if degree - 2 > rest.len() {
                    continue;
                }
                for combo in subsets(degree - 2, rest.len()) {
                    let values = digits(combo)
                        .map(|i| 1u32 << rest[usize::from(i)])
                        .fold(pair, |m, b| m | b);
                    let mut union = 0u32;
                    let mut each_placed = true;
                    for d in digits(values) {
                        let at = board.places(u, d) & !(1 << i2);
                        each_placed &= at != 0;
                        union |= at;
                    }
                    if !each_placed || union.count_ones() as usize != degree {
                        continue;
                    }
                    let members = union & !(1 << i1) & !(1 << i2);
                    let removals: Vec<(usize, u8)> = digits(members)
                        .flat_map(|p| {
                            let c = unit[usize::from(p)];
                            digits(board.cands(c) & !values).map(move |d| (c, d))
                        })
                        .collect();
                    if !removals.is_empty() {
                        let size = members.count_ones() as usize;
                        out.push(loop_hint(cells, 3, type3_rating(n, size), removals));
                    }
                }
            }
        }
    }
}

/// Type 4: a digit of the pair with no other place in a unit common to
/// `c1` and `c2` (SE keeps the last such unit, and prefers `v1`); the
/// other digit leaves both.
fn type4(board: &Board, cells: &[usize], c1: usize, c2: usize, pair: u32) -> Option<Candidate> {
    let geo = board.geometry();
    let v1 = pair.trailing_zeros() as u8;
    let v2 = (31 - pair.leading_zeros()) as u8;
    let (mut v1_locked, mut v2_locked) = (false, false);
    for region in REGION_TYPES {
        let u = region.of_cell(board, c1);
        if u != region.of_cell(board, c2) {
            continue;
        }
        let elsewhere = geo.units[u]
            .iter()
            .filter(|&&c| c != c1 && c != c2)
            .fold(0u32, |m, &c| m | board.cands(c));
        v1_locked |= elsewhere & (1 << v1) == 0;
        v2_locked |= elsewhere & (1 << v2) == 0;
    }
    let removed = if v1_locked {
        v2
    } else if v2_locked {
        v1
    } else {
        return None;
    };
    let removals = vec![(c1, removed), (c2, removed)];
    Some(loop_hint(cells, 4, loop_rating(cells.len()), removals))
}

/// SE's `BivalueUniversalGrave`: its first hint on `board`.
pub(crate) fn bivalue_universal_grave(board: &Board) -> Option<SeHint> {
    let geo = board.geometry();
    let side = board.side();
    let mut without_bug = board.all_cands().to_vec();
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = vec![0u32; geo.cells];
    let mut all_bug = 0u32;
    let mut common: Option<Vec<usize>> = None;
    for region in REGION_TYPES {
        for i in 0..side {
            let u = region.unit(board, i);
            for d in 1..=side as u8 {
                let at = board.places(u, d);
                if at.count_ones() == 0 || at.count_ones() == 2 {
                    continue;
                }
                let mut wide = digits(at)
                    .map(|p| geo.units[u][usize::from(p)])
                    .filter(|&c| board.cands(c).count_ones() >= 3);
                let (cell, again) = match (wide.next(), wide.next()) {
                    // A digit with too many places and no cell of three
                    // candidates or more: no BUG.
                    (None, _) => return None,
                    (Some(c), None) => (c, false),
                    // Two candidate BUG cells: another unit decides.
                    (Some(_), Some(_)) => (0, true),
                };
                if again {
                    continue;
                }
                if !bug_cells.contains(&cell) {
                    bug_cells.push(cell);
                }
                bug_values[cell] |= 1 << d;
                all_bug |= 1 << d;
                without_bug[cell] &= !(1 << d);
                let house = house_cells(board, cell);
                let seen = common.get_or_insert_with(|| house.clone());
                seen.retain(|c| house.contains(c) && !bug_cells.contains(c));
                if bug_cells.len() > 1 && all_bug.count_ones() > 1 && seen.is_empty() {
                    return None;
                }
            }
        }
    }
    let empty_bivalue =
        (0..geo.cells).all(|c| board.value(c) != 0 || without_bug[c].count_ones() == 2);
    if !empty_bivalue {
        return None;
    }
    for unit in &geo.units {
        for d in 1..=side as u8 {
            let places = unit
                .iter()
                .filter(|&&c| without_bug[c] & (1 << d) != 0)
                .count();
            if places != 0 && places != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or_default();
    let bug = |rule_type: u8, rating: f64, eliminations: Vec<(usize, u8)>| SeHint {
        rule: SeRule::Bug(rule_type),
        tenths: tenths(rating),
        placement: None,
        eliminations,
        chain: None,
    };
    if bug_cells.len() == 1 {
        let cell = bug_cells[0];
        let removals = digits(board.cands(cell) & !all_bug)
            .map(|d| (cell, d))
            .collect();
        return Some(bug(1, 5.6, removals));
    }
    if all_bug.count_ones() == 1 {
        let d = all_bug.trailing_zeros() as u8;
        let removals: Vec<(usize, u8)> = common
            .iter()
            .filter(|&&c| board.cands(c) & (1 << d) != 0)
            .map(|&c| (c, d))
            .collect();
        if !removals.is_empty() {
            return Some(bug(2, 5.7, removals));
        }
        if bug_cells.len() == 2 {
            return bug4(board, &bug_cells, &bug_values, all_bug).map(|r| bug(4, 5.7, r));
        }
        return None;
    }
    if common.is_empty() {
        return None;
    }
    if bug_cells.len() == 2
        && let Some(r) = bug4(board, &bug_cells, &bug_values, all_bug)
    {
        return Some(bug(4, 5.7, r));
    }
    bug3(board, &bug_cells, &common, all_bug).map(|(size, r)| bug(3, bug3_rating(size), r))
}

/// The unit of the first kind (blocks, rows, columns) holding every cell
/// of `cells`.
fn shared_unit(board: &Board, cells: &[usize]) -> Option<usize> {
    REGION_TYPES.into_iter().find_map(|region| {
        let u = region.of_cell(board, cells[0]);
        cells.iter().all(|&c| in_unit(board, c, u)).then_some(u)
    })
}

/// BUG type 4's removals (SE's `addBug4Hint`).
fn bug4(
    board: &Board,
    bug_cells: &[usize],
    bug_values: &[u32],
    all_bug: u32,
) -> Option<Vec<(usize, u8)>> {
    let (c1, c2) = (bug_cells[0], bug_cells[1]);
    let shared = board.cands(c1) & board.cands(c2) & !all_bug;
    if shared.count_ones() != 1 {
        return None;
    }
    shared_unit(board, bug_cells)?;
    let mut removals = Vec::new();
    for c in [c1, c2] {
        removals.extend(digits(board.cands(c) & !bug_values[c] & !shared).map(|d| (c, d)));
    }
    Some(removals)
}

/// BUG type 3 (SE's `addBug3Hint`): the size of the naked set and its
/// removals.
fn bug3(
    board: &Board,
    bug_cells: &[usize],
    common: &[usize],
    all_bug: u32,
) -> Option<(usize, Vec<(usize, u8)>)> {
    for region in REGION_TYPES {
        let u = region.of_cell(board, bug_cells[0]);
        if !bug_cells.iter().all(|&c| in_unit(board, c, u)) {
            continue;
        }
        let unit_cells: Vec<usize> = common
            .iter()
            .copied()
            .filter(|&c| in_unit(board, c, u))
            .collect();
        for degree in 2..=6 {
            if unit_cells.len() < degree {
                continue;
            }
            for combo in subsets(degree - 1, unit_cells.len()) {
                let naked: Vec<usize> = digits(combo).map(|i| unit_cells[usize::from(i)]).collect();
                let in_naked = naked.iter().fold(0u32, |m, &c| m | board.cands(c));
                if in_naked.count_ones() as usize != degree
                    || naked.iter().any(|&c| board.cands(c).count_ones() < 2)
                    || all_bug.count_ones() < 2
                {
                    continue;
                }
                let set = in_naked | all_bug;
                if set.count_ones() as usize != degree {
                    continue;
                }
                let removals: Vec<(usize, u8)> = unit_cells
                    .iter()
                    .filter(|c| !naked.contains(c) && !bug_cells.contains(c))
                    .flat_map(|&c| digits(board.cands(c) & set).map(move |d| (c, d)))
                    .collect();
                if !removals.is_empty() {
                    return Some((degree, removals));
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
    fn ses_loop_ratings() {
        // UniqueLoopHint.getDifficulty: 4.5, +0.1 for six cells, +0.2 for
        // eight, +0.3 +0.2 for ten or more.
        let t = |cells| tenths(loop_rating(cells));
        assert_eq!((t(4), t(6), t(8), t(10), t(12)), (45, 46, 47, 50, 50));
        // UniqueLoopType3NakedHint / HiddenHint: +0.1 per member beyond
        // the first (pair 0.1, quad 0.3).
        let t3 = |cells, members| tenths(type3_rating(cells, members));
        assert_eq!((t3(4, 2), t3(4, 3), t3(4, 4), t3(6, 2)), (46, 47, 48, 47));
        // Bug3Hint: 5.7 + 0.1 per digit beyond the first.
        assert_eq!((tenths(bug3_rating(2)), tenths(bug3_rating(4))), (58, 60));
    }

    #[test]
    fn ses_doubles_order_equal_tenths() {
        // SE sorts its loop hints by these doubles: a six-cell type 3 with
        // a pair (4.5 + 0.1 + 0.1) comes before an eight-cell type 1
        // (4.5 + 0.2), though both show as 4.7.
        assert!(type3_rating(6, 2) < loop_rating(8));
        assert_eq!(tenths(type3_rating(6, 2)), tenths(loop_rating(8)));
        assert_eq!(type3_rating(4, 2), loop_rating(6));
    }

    #[test]
    fn a_board_without_bivalue_cells_has_no_unique_loop_or_bug() {
        let b = Board::new(&crate::grid::Puzzle::empty(3));
        assert!(unique_loop(&b).is_none());
        assert!(bivalue_universal_grave(&b).is_none());
    }
}
