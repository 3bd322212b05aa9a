//! Canonical form of a puzzle under the Sudoku symmetries.
//!
//! Two puzzles are equivalent when one becomes the other by relabelling the
//! digits, permuting rows within a band, columns within a stack, the bands,
//! the stacks, and transposing: 2·6⁸ = 3,359,232 grid symmetries for 9×9
//! (times 9! relabellings). The canonical form is the lexicographically
//! smallest row-major string over all of them, with an empty cell (`0`)
//! below every digit, so equivalent puzzles have the same form and
//! inequivalent ones different forms.
//!
//! Nothing is enumerated in full. For a fixed transpose and column order
//! (2·6⁴ = 2,592 choices for 9×9) the best relabelling is the order of first
//! appearance, and the rows are chosen one at a time: the next row must be
//! one whose relabelled string is smallest among the rows the band structure
//! allows (ties branch, since the rows below may decide), and a prefix
//! already larger than the best form found so far is abandoned. Orders 2 and
//! 3 are supported; order 4 has 24⁵ column orders, too many for this scheme.

use crate::grid::Puzzle;
use rand::Rng;
use rand::seq::SliceRandom;
use std::cmp::Ordering;
use std::sync::OnceLock;

/// A puzzle the canonical form does not handle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// The puzzle's order (box side) is not 2 or 3: 16×16 has 24⁵ column
    /// orders, too many for the row-by-row search.
    #[error("canonical form is implemented for orders 2 and 3 (4×4, 9×9), not order {0}")]
    Order(usize),
    /// A pencilmark grid: the canonical form is of givens (`docs/methods.md`
    /// §0.1).
    #[error("the canonical form is of givens, not of a pencilmark grid")]
    Pencilmarks,
}

/// All permutations of `0..k`.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(k - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, k - 1);
            out.push(q);
        }
    }
    out
}

/// Every line order that keeps bands (or stacks) together: a band order
/// and an order within each band.
fn line_orders(n: usize) -> Vec<Vec<usize>> {
    let perms = permutations(n);
    let mut orders: Vec<Vec<usize>> = vec![Vec::new()];
    // Choose the order within each band, then the band order.
    let mut within: Vec<Vec<Vec<usize>>> = vec![Vec::new()];
    for _ in 0..n {
        let mut next = Vec::new();
        for w in &within {
            for p in &perms {
                let mut w2 = w.clone();
                w2.push(p.clone());
                next.push(w2);
            }
        }
        within = next;
    }
    orders.clear();
    for bands in &perms {
        for w in &within {
            let mut order = Vec::with_capacity(n * n);
            for &b in bands {
                order.extend(w[b].iter().map(|&i| b * n + i));
            }
            orders.push(order);
        }
    }
    orders
}

/// [`line_orders`] of order `n` (2 or 3), computed once.
fn cached_line_orders(n: usize) -> &'static [Vec<usize>] {
    static ORDERS: [OnceLock<Vec<Vec<usize>>>; 2] = [OnceLock::new(), OnceLock::new()];
    ORDERS[n - 2].get_or_init(|| line_orders(n))
}

/// Longest row handled (order 3).
const MAX_SIDE: usize = 9;

/// A row relabelled so far: its string, the digit map after it, the next
/// free label and the source row.
#[derive(Clone, Copy)]
struct RowChoice {
    string: [u8; MAX_SIDE],
    map: [u8; MAX_SIDE + 1],
    next: u8,
    row: usize,
}

struct Canon<'a> {
    n: usize,
    side: usize,
    /// The (possibly transposed) grid.
    grid: &'a [u8],
    cols: &'a [usize],
    cur: Vec<u8>,
    best: Option<Vec<u8>>,
}

impl Canon<'_> {
    /// Row `r` relabelled under `map`, new digits taking the next labels;
    /// `None` as soon as the relabelled string is known to be larger than
    /// `limit`.
    fn row_choice_within(
        &self,
        r: usize,
        map: &[u8; MAX_SIDE + 1],
        next: u8,
        limit: Option<&[u8; MAX_SIDE]>,
    ) -> Option<RowChoice> {
        let mut c = RowChoice {
            string: [0; MAX_SIDE],
            map: *map,
            next,
            row: r,
        };
        // Equal to `limit` so far: the next cell still decides.
        let mut tied = limit.is_some();
        let row = &self.grid[r * self.side..(r + 1) * self.side];
        for col in 0..self.side {
            let v = row[self.cols[col]] as usize;
            if v != 0 {
                if c.map[v] == 0 {
                    c.next += 1;
                    c.map[v] = c.next;
                }
                c.string[col] = c.map[v];
            }
            if let (true, Some(l)) = (tied, limit) {
                match c.string[col].cmp(&l[col]) {
                    Ordering::Greater => return None,
                    Ordering::Less => tied = false,
                    Ordering::Equal => {}
                }
            }
        }
        Some(c)
    }

    /// Places rows from position `pos` on; `used` marks source rows taken.
    fn place(
        &mut self,
        pos: usize,
        used: &mut [bool; MAX_SIDE],
        map: &[u8; MAX_SIDE + 1],
        next: u8,
    ) {
        let (n, side) = (self.n, self.side);
        if pos == side {
            if self.best.as_ref().is_none_or(|b| self.cur < *b) {
                self.best = Some(self.cur.clone());
            }
            return;
        }
        // A band starts with a row of an unused band; within a band, the
        // band's remaining rows.
        let band_start = pos.is_multiple_of(n);
        let band = if band_start {
            0
        } else {
            self.current_band(pos, used)
        };
        // Rows whose string exceeds the best form's row at `pos` (when the
        // prefix equals the best form's) cannot lead below it, and rows
        // above the smallest string seen so far are not the smallest: both
        // are dropped as soon as a cell shows it.
        let at = pos * side;
        let bound: Option<[u8; MAX_SIDE]> = match &self.best {
            Some(b) => match self.cur[..at].cmp(&b[..at]) {
                Ordering::Greater => return,
                Ordering::Less => None,
                Ordering::Equal => {
                    let mut row = [0; MAX_SIDE];
                    row[..side].copy_from_slice(&b[at..at + side]);
                    Some(row)
                }
            },
            None => None,
        };
        let mut choices = [RowChoice {
            string: [0; MAX_SIDE],
            map: [0; MAX_SIDE + 1],
            next: 0,
            row: 0,
        }; MAX_SIDE];
        let mut count = 0;
        let mut min: Option<[u8; MAX_SIDE]> = None;
        for r in 0..side {
            let allowed = if band_start {
                (0..n).all(|i| !used[r - r % n + i])
            } else {
                r / n == band && !used[r]
            };
            if !allowed {
                continue;
            }
            let limit = match (&min, &bound) {
                (Some(m), Some(b)) => Some(m.min(b)),
                (m, b) => m.as_ref().or(b.as_ref()),
            };
            if let Some(c) = self.row_choice_within(r, map, next, limit) {
                if min.is_none_or(|m| c.string < m) {
                    min = Some(c.string);
                }
                choices[count] = c;
                count += 1;
            }
        }
        let choices = &choices[..count];
        let Some(min) = min else {
            return;
        };
        let min = &min[..side];
        for c in choices {
            if &c.string[..side] != min {
                continue;
            }
            self.cur[pos * side..(pos + 1) * side].copy_from_slice(min);
            used[c.row] = true;
            self.place(pos + 1, used, &c.map, c.next);
            used[c.row] = false;
        }
    }

    /// The band the rows at positions `pos - pos % n ..` come from: the one
    /// with exactly `pos % n` rows used (the others are full or untouched).
    fn current_band(&self, pos: usize, used: &[bool; MAX_SIDE]) -> usize {
        let n = self.n;
        let placed = pos % n;
        (0..n)
            .find(|&b| (0..n).filter(|&i| used[b * n + i]).count() == placed)
            .unwrap_or(0)
    }
}

impl Puzzle {
    /// The canonical form of this puzzle (see the module doc): the least
    /// grid of its class under the Sudoku symmetries, for orders up to 3.
    ///
    /// # Errors
    /// An order above 3 ([`CanonError::Order`]), a pencilmark grid
    /// ([`CanonError::Pencilmarks`]).
    pub fn canonical(&self) -> Result<Puzzle, CanonError> {
        if self.has_pencilmarks() {
            return Err(CanonError::Pencilmarks);
        }
        let p = self;
        let n = p.order();
        if n > 3 {
            return Err(CanonError::Order(n));
        }
        let side = n * n;
        let orders = cached_line_orders(n);
        let original = p.cells();
        let transposed: Vec<u8> = (0..side * side)
            .map(|i| original[(i % side) * side + i / side])
            .collect();
        let mut best: Option<Vec<u8>> = None;
        // One row buffer for every column order.
        let mut cur = vec![0; side * side];
        for grid in [original, transposed.as_slice()] {
            for cols in orders {
                let mut c = Canon {
                    n,
                    side,
                    grid,
                    cols,
                    cur,
                    best: best.take(),
                };
                c.place(0, &mut [false; MAX_SIDE], &[0; MAX_SIDE + 1], 0);
                best = c.best;
                cur = c.cur;
            }
        }
        let cells = best.unwrap_or_else(|| original.to_vec());
        match Puzzle::from_cells(n, cells) {
            Ok(c) => Ok(c),
            Err(_) => unreachable!("a relabelled grid of order {n}"),
        }
    }

    /// True when this puzzle and `other` are equivalent under the Sudoku
    /// symmetries.
    ///
    /// # Errors
    /// As [`Puzzle::canonical`].
    pub fn equivalent(&self, other: &Puzzle) -> Result<bool, CanonError> {
        Ok(self.order() == other.order() && self.canonical()? == other.canonical()?)
    }
}

/// For each puzzle, the position of the first earlier puzzle equivalent to
/// it (`None` for the first of its class): the duplicates `--dedup` drops.
/// A pencilmark grid has no canonical form (`docs/methods.md` §0.1): it is
/// a duplicate only of the same grid. Canonical forms are computed in parallel; the answer does not depend on
/// the number of threads.
///
/// ```
/// use rand::SeedableRng;
/// use sudolab::{Transform, earlier_equivalents};
///
/// let p = sudolab::Puzzle::examples().remove(0);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let turned = Transform::random(p.order(), &mut rng).apply(&p);
/// let other = sudolab::Puzzle::examples().remove(1);
/// assert_eq!(earlier_equivalents(&[&p, &other, &turned]).unwrap(), [None, None, Some(0)]);
/// ```
///
/// # Errors
/// The position of the first puzzle whose order has no canonical form, and why.
pub fn earlier_equivalents(puzzles: &[&Puzzle]) -> Result<Vec<Option<usize>>, (usize, CanonError)> {
    use rayon::prelude::*;
    // Keyed by the line: a puzzle's label takes no part in equivalence.
    let forms: Vec<Result<String, CanonError>> = puzzles
        .par_iter()
        .map(|p| match p.has_pencilmarks() {
            // Its 729 characters never match an 81-character canonical form.
            true => Ok(p.to_line()),
            false => p.canonical().map(|c| c.to_line()),
        })
        .collect();
    let mut first: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(puzzles.len());
    for (i, form) in forms.into_iter().enumerate() {
        let form = form.map_err(|e| (i, e))?;
        match first.get(&form) {
            Some(&j) => out.push(Some(j)),
            None => {
                first.insert(form, i);
                out.push(None);
            }
        }
    }
    Ok(out)
}

/// One element of the symmetry group: transpose, then row and column
/// orders that keep bands and stacks together, then a digit relabelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transform {
    /// Transpose the grid first (rows become columns).
    pub transpose: bool,
    /// Row `i` of the result is row `rows[i]` of the source.
    pub rows: Vec<usize>,
    /// Column `j` of the result is column `cols[j]` of the source.
    pub cols: Vec<usize>,
    /// Digit `d` becomes `relabel[d]` (`relabel[0] = 0`).
    pub relabel: Vec<u8>,
}

impl Transform {
    /// A uniformly random symmetry of order `n`.
    pub fn random(n: usize, rng: &mut impl Rng) -> Transform {
        let side = n * n;
        let line_order = |rng: &mut dyn rand::RngCore| {
            let mut bands: Vec<usize> = (0..n).collect();
            bands.shuffle(rng);
            let mut out = Vec::with_capacity(side);
            for b in bands {
                let mut within: Vec<usize> = (0..n).collect();
                within.shuffle(rng);
                out.extend(within.into_iter().map(|i| b * n + i));
            }
            out
        };
        let rows = line_order(rng);
        let cols = line_order(rng);
        let mut digits: Vec<u8> = (1..=side as u8).collect();
        digits.shuffle(rng);
        let mut relabel = vec![0u8];
        relabel.extend(digits);
        Transform {
            transpose: rng.r#gen(),
            rows,
            cols,
            relabel,
        }
    }

    /// The image of `p`.
    pub fn apply(&self, p: &Puzzle) -> Puzzle {
        let side = p.side();
        let src = p.cells();
        let at = |r: usize, c: usize| {
            if self.transpose {
                src[c * side + r]
            } else {
                src[r * side + c]
            }
        };
        let cells: Vec<u8> = (0..side * side)
            .map(|i| self.relabel[at(self.rows[i / side], self.cols[i % side]) as usize])
            .collect();
        match Puzzle::from_cells(p.order(), cells) {
            Ok(q) => q,
            Err(_) => unreachable!("a permuted grid of order {}", p.order()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;
    use crate::seed::SeededRng;
    use rand::SeedableRng;

    #[test]
    fn group_sizes() {
        assert_eq!(permutations(3).len(), 6);
        let orders = line_orders(3);
        assert_eq!(orders.len(), 1296);
        let mut dedup = orders.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), 1296);
        // 2 · 1296² = 2·6⁸ grid symmetries.
        assert_eq!(2 * orders.len() * orders.len(), 3_359_232);
        assert_eq!(line_orders(2).len(), 8);
    }

    #[test]
    fn canonical_form_is_smallest_and_invariant() {
        let p = parse_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let c = p.canonical().unwrap();
        assert_eq!(c.givens(), p.givens());
        // The canonical form starts with as many empty cells as possible
        // and relabels digits in order of appearance.
        let first = c.cells().iter().find(|&&v| v != 0).copied();
        assert_eq!(first, Some(1));
        assert_eq!(c.canonical().unwrap(), c);
        let mut rng = SeededRng::seed_from_u64(2);
        for _ in 0..5 {
            let q = Transform::random(3, &mut rng).apply(&p);
            assert_eq!(q.canonical().unwrap(), c);
        }
        assert_eq!(Puzzle::empty(4).canonical(), Err(CanonError::Order(4)));
    }
}
