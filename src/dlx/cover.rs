//! Generic exact cover by Knuth's Dancing Links (Knuth, "Dancing Links",
//! Millennial Perspectives in Computer Science, 2000), with the memory layout
//! of his later `DLX1` program (TAOCP 7.2.2.1, Algorithm X).
//!
//! An exact cover problem has *columns* (Knuth's items) and *rows* (options),
//! each row a set of columns. A solution is a set of rows that covers every
//! **primary** column exactly once and every **secondary** column at most
//! once; as in Knuth's formulation, a row with no primary column is never
//! part of a solution. Algorithm X chooses a still-uncovered primary column, tries each row
//! that contains it, removes ("covers") every column of that row together
//! with every conflicting row, recurses, and restores the links on the way
//! back: an unlinked node keeps its own links, so re-inserting it is two
//! stores ("dancing").
//!
//! Implementation notes:
//! * Nodes live in flat arrays indexed by `u32` (no pointers). Column
//!   headers are nodes `1..=columns`; the nodes of one row are contiguous and
//!   rows are separated by *spacer* nodes whose `up` link points to the first
//!   node of the preceding row and whose `down` link points to the last node of
//!   the following row, so a row needs no left/right links.
//! * The column to branch on is a primary column with the fewest remaining
//!   rows (Knuth's "S heuristic", minimum remaining values); a column with no
//!   row ends the branch at once.
//! * Secondary columns sit in their own circular list, so they are covered
//!   when a row using them is chosen but are never branched on.
//! * [`ExactCover::force`] and [`ExactCover::forbid`] change the problem
//!   without rebuilding it (force a row into every solution; remove a row),
//!   and [`ExactCover::rollback`] / [`ExactCover::reset`] undo such changes in
//!   reverse order. A search always leaves the links as it found them, so one
//!   structure serves any number of searches.

use crate::answers::Count;
use std::ops::ControlFlow;

/// One change made to the problem by [`ExactCover::force`] or
/// [`ExactCover::forbid`], kept so it can be undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// The row's columns were covered (the row is in every solution).
    Forced(u32),
    /// The row's nodes were unlinked from their columns.
    Forbidden(u32),
    /// A forced row conflicted with the current state: no solution remains.
    Conflict,
}

/// An exact cover problem with primary and secondary columns, solved by
/// Dancing Links.
#[derive(Debug, Clone)]
pub(crate) struct ExactCover {
    primary: usize,
    secondary: usize,
    /// Column list links; index 0 is the root of the primary list and
    /// `columns + 1` the root of the secondary list.
    llink: Vec<u32>,
    rlink: Vec<u32>,
    /// Remaining rows of each column (index = column node).
    len: Vec<u32>,
    /// Per node: the column node (`> 0`) or, for a spacer, `-(row)` (`<= 0`).
    top: Vec<i32>,
    ulink: Vec<u32>,
    dlink: Vec<u32>,
    /// Per node: the row it belongs to (unused for headers and spacers).
    row_of: Vec<u32>,
    /// Per row: first node and number of nodes.
    row_start: Vec<u32>,
    row_len: Vec<u32>,
    /// Per column node: covered by a forced row.
    col_forced: Vec<bool>,
    /// Per row: removed by `forbid`.
    row_forbidden: Vec<bool>,
    /// Per row: put into every solution by `force`.
    row_forced: Vec<bool>,
    changes: Vec<Change>,
    forced_rows: Vec<usize>,
    conflicts: usize,
}

impl ExactCover {
    /// An empty problem with `primary` primary columns (numbered
    /// `0..primary`) and `secondary` secondary columns (numbered
    /// `primary..primary + secondary`).
    ///
    /// # Panics
    /// When the total number of columns does not fit the `u32` node indices.
    pub(crate) fn new(primary: usize, secondary: usize) -> ExactCover {
        let columns = primary + secondary;
        assert!(columns < (i32::MAX / 2) as usize, "too many columns");
        let heads = columns + 2;
        let mut llink = vec![0u32; heads];
        let mut rlink = vec![0u32; heads];
        // Primary list: root 0, columns 1..=primary.
        for i in 0..=primary {
            llink[i] = if i == 0 {
                primary as u32
            } else {
                (i - 1) as u32
            };
            rlink[i] = if i == primary { 0 } else { (i + 1) as u32 };
        }
        // Secondary list: root columns + 1, columns primary+1..=columns.
        let sroot = columns + 1;
        let mut prev = sroot;
        for (i, l) in llink
            .iter_mut()
            .enumerate()
            .take(columns + 1)
            .skip(primary + 1)
        {
            rlink[prev] = i as u32;
            *l = prev as u32;
            prev = i;
        }
        rlink[prev] = sroot as u32;
        llink[sroot] = prev as u32;
        // Nodes: 0 unused, headers 1..=columns, then the first spacer.
        let nodes = columns + 2;
        let mut top = vec![0i32; nodes];
        let mut ulink = vec![0u32; nodes];
        let mut dlink = vec![0u32; nodes];
        for i in 1..=columns {
            top[i] = 0;
            ulink[i] = i as u32;
            dlink[i] = i as u32;
        }
        // The first spacer's `up` link is never followed.
        top[columns + 1] = 0;
        ExactCover {
            primary,
            secondary,
            llink,
            rlink,
            len: vec![0; heads],
            top,
            ulink,
            dlink,
            row_of: vec![u32::MAX; nodes],
            row_start: Vec::new(),
            row_len: Vec::new(),
            col_forced: vec![false; heads],
            row_forbidden: Vec::new(),
            row_forced: Vec::new(),
            changes: Vec::new(),
            forced_rows: Vec::new(),
            conflicts: 0,
        }
    }

    /// Number of primary columns.
    #[cfg(test)]
    pub(crate) fn primary(&self) -> usize {
        self.primary
    }

    /// Number of secondary columns.
    #[cfg(test)]
    pub(crate) fn secondary(&self) -> usize {
        self.secondary
    }

    /// The columns of a row, in the order they were given.
    #[cfg(test)]
    pub(crate) fn row_columns(&self, row: usize) -> Vec<usize> {
        let start = self.row_start[row] as usize;
        (start..start + self.row_len[row] as usize)
            .map(|x| self.top[x] as usize - 1)
            .collect()
    }

    /// Adds a row covering `columns` and returns its id (rows are numbered
    /// from 0 in the order they are added). A row without primary column is
    /// allowed but never part of a solution.
    ///
    /// # Panics
    /// When a column is out of range or listed twice, or when rows are
    /// currently forced or forbidden (call [`ExactCover::reset`] first).
    pub(crate) fn add_row(&mut self, columns: &[usize]) -> usize {
        assert!(
            self.changes.is_empty(),
            "add_row while rows are forced or forbidden"
        );
        let total = self.primary + self.secondary;
        for (i, &c) in columns.iter().enumerate() {
            assert!(c < total, "column {c} out of range 0..{total}");
            assert!(!columns[..i].contains(&c), "column {c} listed twice");
        }
        let row = self.row_start.len();
        assert!(row < i32::MAX as usize, "too many rows");
        let spacer = self.top.len() - 1;
        let first = self.top.len();
        for &c in columns {
            let item = c + 1;
            let x = self.top.len() as u32;
            let last = self.ulink[item];
            self.top.push(item as i32);
            self.ulink.push(last);
            self.dlink.push(item as u32);
            self.row_of.push(row as u32);
            self.dlink[last as usize] = x;
            self.ulink[item] = x;
            self.len[item] += 1;
        }
        self.row_start.push(first as u32);
        self.row_len.push(columns.len() as u32);
        self.row_forbidden.push(false);
        self.row_forced.push(false);
        if !columns.is_empty() {
            let last = self.top.len() - 1;
            self.dlink[spacer] = last as u32;
            // The new trailing spacer.
            self.top.push(-(row as i32) - 1);
            self.ulink.push(first as u32);
            self.dlink.push(0);
            self.row_of.push(u32::MAX);
        }
        row
    }

    #[inline(always)]
    fn hide(&mut self, p: usize) {
        let mut q = p + 1;
        while q != p {
            let x = self.top[q];
            let u = self.ulink[q] as usize;
            let d = self.dlink[q] as usize;
            if x <= 0 {
                q = u;
            } else {
                self.dlink[u] = d as u32;
                self.ulink[d] = u as u32;
                self.len[x as usize] -= 1;
                q += 1;
            }
        }
    }

    #[inline(always)]
    fn unhide(&mut self, p: usize) {
        let mut q = p - 1;
        while q != p {
            let x = self.top[q];
            let u = self.ulink[q] as usize;
            let d = self.dlink[q] as usize;
            if x <= 0 {
                q = d;
            } else {
                self.dlink[u] = q as u32;
                self.ulink[d] = q as u32;
                self.len[x as usize] += 1;
                q -= 1;
            }
        }
    }

    #[inline(always)]
    fn cover(&mut self, item: usize) {
        let mut p = self.dlink[item] as usize;
        while p != item {
            self.hide(p);
            p = self.dlink[p] as usize;
        }
        let l = self.llink[item] as usize;
        let r = self.rlink[item] as usize;
        self.rlink[l] = r as u32;
        self.llink[r] = l as u32;
    }

    #[inline(always)]
    fn uncover(&mut self, item: usize) {
        let l = self.llink[item] as usize;
        let r = self.rlink[item] as usize;
        self.rlink[l] = item as u32;
        self.llink[r] = item as u32;
        let mut p = self.ulink[item] as usize;
        while p != item {
            self.unhide(p);
            p = self.ulink[p] as usize;
        }
    }

    /// Covers the columns of the row holding node `x`, other than the one
    /// `x` is in, left to right.
    #[inline(always)]
    fn cover_rest(&mut self, x: usize) {
        let mut p = x + 1;
        while p != x {
            let j = self.top[p];
            if j <= 0 {
                p = self.ulink[p] as usize;
            } else {
                self.cover(j as usize);
                p += 1;
            }
        }
    }

    /// Undoes [`Self::cover_rest`] (right to left).
    #[inline(always)]
    fn uncover_rest(&mut self, x: usize) {
        let mut p = x - 1;
        while p != x {
            let j = self.top[p];
            if j <= 0 {
                p = self.dlink[p] as usize;
            } else {
                self.uncover(j as usize);
                p -= 1;
            }
        }
    }

    fn row_nodes(&self, row: usize) -> std::ops::Range<usize> {
        let start = self.row_start[row] as usize;
        start..start + self.row_len[row] as usize
    }

    /// Whether the row can still be chosen: not forbidden and none of its
    /// columns covered by a forced row.
    pub(crate) fn is_available(&self, row: usize) -> bool {
        !self.row_forbidden[row]
            && self
                .row_nodes(row)
                .all(|x| !self.col_forced[self.top[x] as usize])
    }

    /// Puts `row` into every solution: covers its columns (removing every row
    /// that shares one). Returns `false`, and leaves the problem without
    /// solution until undone, when the row is no longer available (forbidden,
    /// in conflict with a forced row, or without columns). Forcing a row
    /// twice is the same as forcing it once.
    ///
    /// # Panics
    /// When `row` is out of range.
    pub(crate) fn force(&mut self, row: usize) -> bool {
        if self.row_forced[row] {
            return true;
        }
        if !self.is_available(row) || self.row_len[row] == 0 {
            self.conflicts += 1;
            self.changes.push(Change::Conflict);
            return false;
        }
        for x in self.row_nodes(row) {
            let item = self.top[x] as usize;
            self.cover(item);
            self.col_forced[item] = true;
        }
        self.forced_rows.push(row);
        self.row_forced[row] = true;
        self.changes.push(Change::Forced(row as u32));
        true
    }

    /// Removes `row` from the problem. Returns `false` when the row was not
    /// available: when it was already forbidden or in conflict with a forced
    /// row, nothing changes; when it is forced itself, the problem is left
    /// without solution until undone.
    ///
    /// # Panics
    /// When `row` is out of range.
    pub(crate) fn forbid(&mut self, row: usize) -> bool {
        if self.row_forced[row] {
            self.conflicts += 1;
            self.changes.push(Change::Conflict);
            return false;
        }
        if !self.is_available(row) {
            return false;
        }
        for x in self.row_nodes(row) {
            let u = self.ulink[x] as usize;
            let d = self.dlink[x] as usize;
            self.dlink[u] = d as u32;
            self.ulink[d] = u as u32;
            self.len[self.top[x] as usize] -= 1;
        }
        self.row_forbidden[row] = true;
        self.changes.push(Change::Forbidden(row as u32));
        true
    }

    /// A mark of the current changes, for [`Self::rollback`].
    pub(crate) fn mark(&self) -> usize {
        self.changes.len()
    }

    /// Undoes the forces and forbids made since `mark` was taken, latest
    /// first.
    pub(crate) fn rollback(&mut self, mark: usize) {
        while self.changes.len() > mark {
            let Some(change) = self.changes.pop() else {
                break;
            };
            match change {
                Change::Conflict => self.conflicts -= 1,
                Change::Forced(row) => {
                    let row = row as usize;
                    self.forced_rows.pop();
                    self.row_forced[row] = false;
                    for x in self.row_nodes(row).rev() {
                        let item = self.top[x] as usize;
                        self.col_forced[item] = false;
                        self.uncover(item);
                    }
                }
                Change::Forbidden(row) => {
                    let row = row as usize;
                    self.row_forbidden[row] = false;
                    for x in self.row_nodes(row).rev() {
                        let u = self.ulink[x] as usize;
                        let d = self.dlink[x] as usize;
                        self.dlink[u] = x as u32;
                        self.ulink[d] = x as u32;
                        self.len[self.top[x] as usize] += 1;
                    }
                }
            }
        }
    }

    /// Undoes every force and forbid.
    pub(crate) fn reset(&mut self) {
        self.rollback(0);
    }

    /// Rows currently forced, in the order they were forced.
    #[cfg(test)]
    pub(crate) fn forced(&self) -> &[usize] {
        &self.forced_rows
    }

    /// Runs Algorithm X and calls `visit` with each solution (the forced rows
    /// first, then the chosen rows in the order they were chosen). `visit`
    /// returns [`ControlFlow::Break`] to stop early. Returns `true` when the
    /// search ran to completion. The links are restored in every case.
    pub(crate) fn search<F>(&mut self, mut visit: F) -> bool
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        let mut rows: Vec<usize> = self.forced_rows.clone();
        let base = rows.len();
        self.search_nodes(|me, choices| {
            rows.truncate(base);
            rows.extend(choices.iter().map(|&x| me.row_of[x as usize] as usize));
            visit(&rows)
        })
    }

    /// Counts solutions, stopping at `cap` (0 = no cap).
    pub(crate) fn count(&mut self, cap: u64) -> Count {
        let mut found = 0u64;
        self.search_nodes(|_, _| crate::answers::tally(&mut found, cap));
        Count::from_found(found, cap)
    }

    /// One solution (rows as in [`Self::search`]), if any.
    pub(crate) fn first(&mut self) -> Option<Vec<usize>> {
        let mut out = None;
        self.search(|rows| {
            out = Some(rows.to_vec());
            ControlFlow::Break(())
        });
        out
    }

    /// Up to `cap` solutions (0 = all), each as in [`Self::search`].
    #[cfg(test)]
    pub(crate) fn solutions(&mut self, cap: u64) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        self.search(|rows| {
            out.push(rows.to_vec());
            if cap > 0 && out.len() as u64 >= cap {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        out
    }

    /// Algorithm X proper; `visit` sees the chosen nodes.
    fn search_nodes<F>(&mut self, mut visit: F) -> bool
    where
        F: FnMut(&ExactCover, &[u32]) -> ControlFlow<()>,
    {
        if self.conflicts > 0 {
            return true;
        }
        let mut choices: Vec<u32> = Vec::with_capacity(self.primary);
        self.recurse(&mut choices, &mut visit).is_continue()
    }

    fn recurse<F>(&mut self, choices: &mut Vec<u32>, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&ExactCover, &[u32]) -> ControlFlow<()>,
    {
        let first = self.rlink[0] as usize;
        if first == 0 {
            return visit(self, choices);
        }
        let mut best = first;
        let mut min = self.len[first];
        let mut i = self.rlink[first] as usize;
        while i != 0 && min > 1 {
            let l = self.len[i];
            if l < min {
                min = l;
                best = i;
            }
            i = self.rlink[i] as usize;
        }
        if min == 0 {
            return ControlFlow::Continue(());
        }
        self.cover(best);
        let mut x = self.dlink[best] as usize;
        let mut flow = ControlFlow::Continue(());
        while x != best {
            self.cover_rest(x);
            choices.push(x as u32);
            flow = self.recurse(choices, visit);
            choices.pop();
            self.uncover_rest(x);
            if flow.is_break() {
                break;
            }
            x = self.dlink[x] as usize;
        }
        self.uncover(best);
        flow
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's example from "Dancing Links" (columns A..G = 0..6).
    fn knuth() -> ExactCover {
        let mut ec = ExactCover::new(7, 0);
        ec.add_row(&[2, 4, 5]); // 0: C E F
        ec.add_row(&[0, 3, 6]); // 1: A D G
        ec.add_row(&[1, 2, 5]); // 2: B C F
        ec.add_row(&[0, 3]); // 3: A D
        ec.add_row(&[1, 6]); // 4: B G
        ec.add_row(&[3, 4, 6]); // 5: D E G
        ec
    }

    #[test]
    fn knuth_example_has_one_solution() {
        let mut ec = knuth();
        let mut sols = ec.solutions(0);
        assert_eq!(sols.len(), 1);
        sols[0].sort_unstable();
        assert_eq!(sols[0], vec![0, 3, 4]);
        assert_eq!(ec.count(0), Count::from_found(1, 0));
        // Searching again gives the same answer: the links were restored.
        assert_eq!(ec.count(0).solutions, 1);
    }

    #[test]
    fn force_and_forbid_undo() {
        let mut ec = knuth();
        let m = ec.mark();
        assert!(ec.forbid(3));
        assert_eq!(ec.count(0).solutions, 0);
        ec.rollback(m);
        assert_eq!(ec.count(0).solutions, 1);
        assert!(ec.force(1)); // A D G excludes the solution
        assert_eq!(ec.count(0).solutions, 0);
        assert!(!ec.is_available(3));
        assert!(!ec.force(3));
        assert!(!ec.forbid(3));
        ec.reset();
        assert!(ec.force(4));
        assert_eq!(
            ec.first().map(|mut s| {
                s.sort_unstable();
                s
            }),
            Some(vec![0, 3, 4])
        );
        assert_eq!(ec.forced(), &[4]);
        ec.reset();
        assert_eq!(ec.count(0).solutions, 1);
    }

    #[test]
    fn secondary_columns_at_most_once() {
        // Primary 0, 1; secondary 2. Rows: {0,2}, {1,2}, {0}, {1}.
        let mut ec = ExactCover::new(2, 1);
        ec.add_row(&[0, 2]);
        ec.add_row(&[1, 2]);
        ec.add_row(&[0]);
        ec.add_row(&[1]);
        let mut sols: Vec<Vec<usize>> = ec
            .solutions(0)
            .into_iter()
            .map(|mut s| {
                s.sort_unstable();
                s
            })
            .collect();
        sols.sort();
        assert_eq!(sols, vec![vec![0, 3], vec![1, 2], vec![2, 3]]);
        assert_eq!(
            ec.count(2),
            Count {
                solutions: 2,
                capped: true
            }
        );
    }
}
