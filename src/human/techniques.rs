//! Human solving techniques on a [`Board`], each listing *every* application
//! it finds on the current state.
//!
//! The catalogue is the one Xu & Xu (§2.1 c, Table 1) rate and METHODS.md §3
//! orders, simplest first: naked and hidden singles, naked pair, pointing and
//! claiming (intersection removal), hidden pair, naked triple and quad, hidden
//! triple and quad, X-wing, swordfish, jellyfish, XY-wing, XYZ-wing, WXYZ-wing
//! and forcing chains. Models count applications (hsolve's `v`, SiSuS's
//! possibility count), so a finder never stops at the first one, and only
//! reports applications that change the board (place a digit or remove at
//! least one candidate).
//!
//! Definitions where the literature varies:
//! * subsets (naked/hidden) and fish only use cells (digits) with 2..=k
//!   candidates (places), so a single never counts as a subset;
//! * pointing and claiming need at least two places in the intersection;
//! * WXYZ-wing: a pivot cell and three of its peers, 2..=4 candidates each,
//!   four digits in all, exactly one of which (`z`) is not confined to
//!   mutually-seeing cells; `z` is removed from every cell that sees all the
//!   `z` cells of the pattern;
//! * forcing chains start from a bivalue cell or a digit with two places in a
//!   unit, propagate each branch with naked and hidden singles only, and
//!   conclude what both branches agree on (or the other branch when one
//!   reaches a contradiction).
//!
//! Every technique is sound: on a board whose candidates still contain the
//! solution, no application removes a solution value or places a wrong
//! digit (checked on thousands of real puzzles in `tests/human_soundness.rs`).

use super::board::Board;
use crate::util::bits as digits;
use serde::Serialize;
use std::fmt;

/// A solving technique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Technique {
    NakedSingle,
    HiddenSingle,
    NakedPair,
    Pointing,
    Claiming,
    HiddenPair,
    NakedTriple,
    NakedQuad,
    HiddenTriple,
    HiddenQuad,
    XWing,
    Swordfish,
    Jellyfish,
    XyWing,
    XyzWing,
    WxyzWing,
    ForcingChain,
}

impl Technique {
    /// All techniques, simplest first (METHODS.md §3 order).
    pub const ALL: [Technique; 17] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::NakedPair,
        Technique::Pointing,
        Technique::Claiming,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::NakedQuad,
        Technique::HiddenTriple,
        Technique::HiddenQuad,
        Technique::XWing,
        Technique::Swordfish,
        Technique::Jellyfish,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::WxyzWing,
        Technique::ForcingChain,
    ];

    /// Human-readable name.
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::NakedPair => "naked pair",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::NakedQuad => "naked quad",
            Technique::HiddenTriple => "hidden triple",
            Technique::HiddenQuad => "hidden quad",
            Technique::XWing => "X-wing",
            Technique::Swordfish => "swordfish",
            Technique::Jellyfish => "jellyfish",
            Technique::XyWing => "XY-wing",
            Technique::XyzWing => "XYZ-wing",
            Technique::WxyzWing => "WXYZ-wing",
            Technique::ForcingChain => "forcing chain",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One application of a technique: what it places or removes, and the
/// pattern (units, cells, digits) it rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Application {
    pub technique: Technique,
    /// `(cell, digit)` placements.
    pub placements: Vec<(usize, u8)>,
    /// `(cell, digit)` candidate removals.
    pub eliminations: Vec<(usize, u8)>,
    /// Units (geometry indices) the pattern lives in.
    pub units: Vec<usize>,
    /// Cells forming the pattern (pair cells, wing cells, chain source...).
    pub cells: Vec<usize>,
    /// Digits of the pattern.
    pub digits: Vec<u8>,
    /// Why the conclusion holds, where the pattern alone does not say it
    /// (forcing chains: which branch failed, or that both agree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Application {
    fn new(technique: Technique) -> Application {
        Application {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            units: Vec::new(),
            cells: Vec::new(),
            digits: Vec::new(),
            note: None,
        }
    }

    /// Applies the placements and removals; true if the board changed.
    pub fn apply(&self, board: &mut Board) -> bool {
        let mut changed = false;
        for &(cell, d) in &self.eliminations {
            changed |= board.eliminate(cell, d);
        }
        for &(cell, d) in &self.placements {
            if board.value(cell) == 0 && board.cands(cell) & (1 << d) != 0 {
                board.place(cell, d);
                changed = true;
            }
        }
        changed
    }

    /// True when the application contradicts `solution` (cell values,
    /// row-major): it removes a solution value or places a wrong digit.
    pub fn contradicts(&self, solution: &[u8]) -> bool {
        self.eliminations.iter().any(|&(c, d)| solution[c] == d)
            || self.placements.iter().any(|&(c, d)| solution[c] != d)
    }
}

/// A single found by the fast singles scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Single {
    pub cell: usize,
    pub digit: u8,
    /// `None` for a naked single, the unit for a hidden single.
    pub unit: Option<usize>,
}

/// Appends every naked single (empty cell with one candidate).
pub fn naked_singles(board: &Board, out: &mut Vec<Single>) {
    for (cell, &c) in board.all_cands().iter().enumerate() {
        if c != 0 && c & (c - 1) == 0 {
            out.push(Single {
                cell,
                digit: c.trailing_zeros() as u8,
                unit: None,
            });
        }
    }
}

/// Appends every hidden single: a (unit, digit) with exactly one place.
pub fn hidden_singles(board: &Board, out: &mut Vec<Single>) {
    let geo = board.geometry();
    for (u, cells) in geo.units.iter().enumerate() {
        let mut once = 0u32;
        let mut twice = 0u32;
        for &c in cells {
            let m = board.cands(c);
            twice |= once & m;
            once |= m;
        }
        let single = once & !twice;
        if single == 0 {
            continue;
        }
        for &c in cells {
            let hit = board.cands(c) & single;
            for d in digits(hit) {
                out.push(Single {
                    cell: c,
                    digit: d,
                    unit: Some(u),
                });
            }
        }
    }
}

/// Calls `f` with every `k`-subset of `items` (k ≤ 4).
fn for_each_subset(items: &[usize], k: usize, f: &mut impl FnMut(&[usize])) {
    fn rec(
        items: &[usize],
        k: usize,
        start: usize,
        buf: &mut [usize; 4],
        len: usize,
        f: &mut impl FnMut(&[usize]),
    ) {
        if len == k {
            f(&buf[..k]);
            return;
        }
        for i in start..items.len() {
            if items.len() - i < k - len {
                break;
            }
            buf[len] = items[i];
            rec(items, k, i + 1, buf, len + 1, f);
        }
    }
    if k == 0 || k > 4 || items.len() < k {
        return;
    }
    let mut buf = [0usize; 4];
    rec(items, k, 0, &mut buf, 0, f);
}

/// Number of `k`-subsets of `m` items.
fn choose(m: usize, k: usize) -> usize {
    if k > m {
        return 0;
    }
    let mut r = 1usize;
    for i in 0..k {
        r = r * (m - i) / (i + 1);
    }
    r
}

fn sees(board: &Board, a: usize, b: usize) -> bool {
    let u = &board.geometry().cell_units;
    a != b && (u[a][0] == u[b][0] || u[a][1] == u[b][1] || u[a][2] == u[b][2])
}

fn subset_size(t: Technique) -> usize {
    match t {
        Technique::NakedPair | Technique::HiddenPair | Technique::XWing => 2,
        Technique::NakedTriple | Technique::HiddenTriple | Technique::Swordfish => 3,
        _ => 4,
    }
}

/// Every application of `technique` on `board`.
pub fn find(technique: Technique, board: &Board) -> Vec<Application> {
    let mut out = Vec::new();
    match technique {
        Technique::NakedSingle | Technique::HiddenSingle => {
            let mut s = Vec::new();
            if technique == Technique::NakedSingle {
                naked_singles(board, &mut s);
            } else {
                hidden_singles(board, &mut s);
            }
            for single in s {
                let mut a = Application::new(technique);
                a.placements.push((single.cell, single.digit));
                a.cells.push(single.cell);
                a.digits.push(single.digit);
                if let Some(u) = single.unit {
                    a.units.push(u);
                }
                out.push(a);
            }
        }
        Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => {
            naked_subsets(board, subset_size(technique), technique, &mut out)
        }
        Technique::HiddenPair | Technique::HiddenTriple | Technique::HiddenQuad => {
            hidden_subsets(board, subset_size(technique), technique, &mut out)
        }
        Technique::Pointing => pointing(board, &mut out),
        Technique::Claiming => claiming(board, &mut out),
        Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
            fish(board, subset_size(technique), technique, &mut out)
        }
        Technique::XyWing => xy_wing(board, &mut out),
        Technique::XyzWing => xyz_wing(board, &mut out),
        Technique::WxyzWing => wxyz_wing(board, &mut out),
        Technique::ForcingChain => forcing_chains(board, &mut out),
    }
    out
}

/// The number `p` of configurations a human checks when looking for
/// `technique` (Chang et al. §3.1's "possible applications"); hsolve divides
/// it by the number of valid ones. Definitions:
/// * naked single: empty cells;
/// * hidden single: (unit, digit) pairs whose digit is not yet placed;
/// * naked subset of size k: (unit, k cells) with 2..=k candidates each;
/// * hidden subset of size k: (unit, k unplaced digits) with 2..=k places each;
/// * pointing / claiming: (box, line, digit) with the digit a candidate in
///   the box-line intersection;
/// * fish of size k: (digit, orientation, k lines) with 2..=k places each;
/// * XY-wing: (bivalue pivot, two bivalue peers);
/// * XYZ-wing: (trivalue pivot, two bivalue peers with candidates inside the
///   pivot's);
/// * WXYZ-wing: (pivot, three peers) with 2..=4 candidates each and at most
///   four digits in all;
/// * forcing chain: chain sources (bivalue cells and digits with two places
///   in a unit).
pub fn possible_count(technique: Technique, board: &Board) -> usize {
    let geo = board.geometry();
    match technique {
        Technique::NakedSingle => board.empty_count(),
        Technique::HiddenSingle => (0..geo.units.len())
            .map(|u| (geo.all_digits() & !board.placed_in_unit(u)).count_ones() as usize)
            .sum(),
        Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => {
            let k = subset_size(technique);
            geo.units
                .iter()
                .map(|cells| {
                    let m = cells
                        .iter()
                        .filter(|&&c| (2..=k as u32).contains(&board.cands(c).count_ones()))
                        .count();
                    choose(m, k)
                })
                .sum()
        }
        Technique::HiddenPair | Technique::HiddenTriple | Technique::HiddenQuad => {
            let k = subset_size(technique);
            (0..geo.units.len())
                .map(|u| {
                    let m = digits(geo.all_digits())
                        .filter(|&d| (2..=k as u32).contains(&board.places(u, d).count_ones()))
                        .count();
                    choose(m, k)
                })
                .sum()
        }
        Technique::Pointing | Technique::Claiming => {
            let side = geo.side;
            let mut count = 0;
            for b in 0..side {
                let bunit = 2 * side + b;
                for line in 0..2 * side {
                    let inter: u32 = geo.units[bunit]
                        .iter()
                        .filter(|&&c| geo.cell_units[c][(line / side).min(1)] == line)
                        .fold(0, |m, &c| m | board.cands(c));
                    count += inter.count_ones() as usize;
                }
            }
            count
        }
        Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
            let k = subset_size(technique);
            let side = geo.side;
            let mut count = 0;
            for d in digits(geo.all_digits()) {
                for orient in 0..2 {
                    let m = (0..side)
                        .filter(|&l| {
                            (2..=k as u32)
                                .contains(&board.places(orient * side + l, d).count_ones())
                        })
                        .count();
                    count += choose(m, k);
                }
            }
            count
        }
        Technique::XyWing | Technique::XyzWing => {
            let want = if technique == Technique::XyWing { 2 } else { 3 };
            let mut count = 0;
            for cell in 0..geo.cells {
                let pc = board.cands(cell);
                if pc.count_ones() != want {
                    continue;
                }
                let m = geo.peers[cell]
                    .iter()
                    .filter(|&&q| {
                        let qc = board.cands(q);
                        qc.count_ones() == 2
                            && if want == 2 {
                                (qc & pc).count_ones() == 1
                            } else {
                                qc & !pc == 0
                            }
                    })
                    .count();
                count += choose(m, 2);
            }
            count
        }
        Technique::WxyzWing => {
            let mut count = 0;
            wxyz_scan(board, &mut |_| count += 1);
            count
        }
        Technique::ForcingChain => chain_sources(board).len(),
    }
}

fn naked_subsets(board: &Board, k: usize, t: Technique, out: &mut Vec<Application>) {
    let geo = board.geometry();
    for (u, cells) in geo.units.iter().enumerate() {
        let pool: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| (2..=k as u32).contains(&board.cands(c).count_ones()))
            .collect();
        for_each_subset(&pool, k, &mut |set| {
            let union = set.iter().fold(0, |m, &c| m | board.cands(c));
            if union.count_ones() as usize != k {
                return;
            }
            let mut a = Application::new(t);
            for &c in cells {
                if !set.contains(&c) {
                    for d in digits(board.cands(c) & union) {
                        a.eliminations.push((c, d));
                    }
                }
            }
            if !a.eliminations.is_empty() {
                a.units.push(u);
                a.cells.extend_from_slice(set);
                a.digits.extend(digits(union));
                out.push(a);
            }
        });
    }
}

fn hidden_subsets(board: &Board, k: usize, t: Technique, out: &mut Vec<Application>) {
    let geo = board.geometry();
    for (u, cells) in geo.units.iter().enumerate() {
        let mut places = vec![0u32; geo.side + 1];
        let mut pool = Vec::new();
        for d in digits(geo.all_digits()) {
            let p = board.places(u, d);
            places[d as usize] = p;
            if (2..=k as u32).contains(&p.count_ones()) {
                pool.push(d as usize);
            }
        }
        for_each_subset(&pool, k, &mut |set| {
            let union = set.iter().fold(0, |m, &d| m | places[d]);
            if union.count_ones() as usize != k {
                return;
            }
            let keep = set.iter().fold(0u32, |m, &d| m | (1 << d));
            let mut a = Application::new(t);
            for (i, &c) in cells.iter().enumerate() {
                if union & (1 << i) != 0 {
                    a.cells.push(c);
                    for d in digits(board.cands(c) & !keep) {
                        a.eliminations.push((c, d));
                    }
                }
            }
            if !a.eliminations.is_empty() {
                a.units.push(u);
                a.digits.extend(set.iter().map(|&d| d as u8));
                out.push(a);
            }
        });
    }
}

/// Pointing: a digit's places in a box all lie on one line, so the rest of
/// that line loses the digit.
fn pointing(board: &Board, out: &mut Vec<Application>) {
    let geo = board.geometry();
    let side = geo.side;
    for b in 0..side {
        let bunit = 2 * side + b;
        for d in digits(geo.all_digits()) {
            let cells: Vec<usize> = geo.units[bunit]
                .iter()
                .copied()
                .filter(|&c| board.cands(c) & (1 << d) != 0)
                .collect();
            if cells.len() < 2 {
                continue;
            }
            for kind in 0..2 {
                let line = geo.cell_units[cells[0]][kind];
                if cells.iter().all(|&c| geo.cell_units[c][kind] == line) {
                    let mut a = Application::new(Technique::Pointing);
                    for &c in &geo.units[line] {
                        if geo.cell_units[c][2] != bunit && board.cands(c) & (1 << d) != 0 {
                            a.eliminations.push((c, d));
                        }
                    }
                    if !a.eliminations.is_empty() {
                        a.units = vec![bunit, line];
                        a.cells = cells.clone();
                        a.digits.push(d);
                        out.push(a);
                    }
                }
            }
        }
    }
}

/// Claiming (box-line reduction): a digit's places in a row or column all lie
/// in one box, so the rest of that box loses the digit.
fn claiming(board: &Board, out: &mut Vec<Application>) {
    let geo = board.geometry();
    let side = geo.side;
    for line in 0..2 * side {
        let kind = line / side;
        for d in digits(geo.all_digits()) {
            let cells: Vec<usize> = geo.units[line]
                .iter()
                .copied()
                .filter(|&c| board.cands(c) & (1 << d) != 0)
                .collect();
            if cells.len() < 2 {
                continue;
            }
            let bunit = geo.cell_units[cells[0]][2];
            if cells.iter().all(|&c| geo.cell_units[c][2] == bunit) {
                let mut a = Application::new(Technique::Claiming);
                for &c in &geo.units[bunit] {
                    if geo.cell_units[c][kind] != line && board.cands(c) & (1 << d) != 0 {
                        a.eliminations.push((c, d));
                    }
                }
                if !a.eliminations.is_empty() {
                    a.units = vec![line, bunit];
                    a.cells = cells;
                    a.digits.push(d);
                    out.push(a);
                }
            }
        }
    }
}

/// Basic fish of size k (X-wing 2, swordfish 3, jellyfish 4): k base lines
/// whose places for a digit cover exactly k cross lines.
fn fish(board: &Board, k: usize, t: Technique, out: &mut Vec<Application>) {
    let geo = board.geometry();
    let side = geo.side;
    for d in digits(geo.all_digits()) {
        for orient in 0..2 {
            let base0 = orient * side;
            let cover0 = (1 - orient) * side;
            let mut places = vec![0u32; side];
            let mut pool = Vec::new();
            for (l, p) in places.iter_mut().enumerate() {
                *p = board.places(base0 + l, d);
                if (2..=k as u32).contains(&p.count_ones()) {
                    pool.push(l);
                }
            }
            for_each_subset(&pool, k, &mut |set| {
                let cover = set.iter().fold(0, |m, &l| m | places[l]);
                if cover.count_ones() as usize != k {
                    return;
                }
                let mut a = Application::new(t);
                for x in 0..side {
                    if cover & (1 << x) == 0 {
                        continue;
                    }
                    for (l, &c) in geo.units[cover0 + x].iter().enumerate() {
                        if !set.contains(&l) && board.cands(c) & (1 << d) != 0 {
                            a.eliminations.push((c, d));
                        }
                    }
                }
                if !a.eliminations.is_empty() {
                    a.units.extend(set.iter().map(|&l| base0 + l));
                    a.units.extend(
                        (0..side)
                            .filter(|x| cover & (1 << x) != 0)
                            .map(|x| cover0 + x),
                    );
                    for &l in set {
                        for x in digits(places[l] << 1) {
                            a.cells.push(geo.units[base0 + l][x as usize - 1]);
                        }
                    }
                    a.digits.push(d);
                    out.push(a);
                }
            });
        }
    }
}

/// Removes `z` from every empty cell outside `pattern` that sees all of
/// `targets`.
fn eliminate_seeing_all(
    board: &Board,
    targets: &[usize],
    pattern: &[usize],
    z: u8,
    a: &mut Application,
) {
    let Some(&first) = targets.first() else {
        return;
    };
    for &c in &board.geometry().peers[first] {
        if board.cands(c) & (1 << z) != 0
            && !pattern.contains(&c)
            && targets.iter().all(|&t| sees(board, c, t))
        {
            a.eliminations.push((c, z));
        }
    }
}

fn xy_wing(board: &Board, out: &mut Vec<Application>) {
    let geo = board.geometry();
    for p in 0..geo.cells {
        let pc = board.cands(p);
        if pc.count_ones() != 2 {
            continue;
        }
        let x = pc.trailing_zeros();
        let y = 31 - pc.leading_zeros();
        let wings: Vec<usize> = geo.peers[p]
            .iter()
            .copied()
            .filter(|&q| {
                let qc = board.cands(q);
                qc.count_ones() == 2 && (qc & pc).count_ones() == 1
            })
            .collect();
        for &q1 in &wings {
            let c1 = board.cands(q1);
            if c1 & (1 << x) == 0 {
                continue;
            }
            let z1 = c1 & !(1 << x);
            for &q2 in &wings {
                let c2 = board.cands(q2);
                if c2 & (1 << y) == 0 || c2 & !(1 << y) != z1 {
                    continue;
                }
                let z = z1.trailing_zeros() as u8;
                let mut a = Application::new(Technique::XyWing);
                eliminate_seeing_all(board, &[q1, q2], &[p, q1, q2], z, &mut a);
                if !a.eliminations.is_empty() {
                    a.cells = vec![p, q1, q2];
                    a.digits = vec![x as u8, y as u8, z];
                    out.push(a);
                }
            }
        }
    }
}

fn xyz_wing(board: &Board, out: &mut Vec<Application>) {
    let geo = board.geometry();
    for p in 0..geo.cells {
        let pc = board.cands(p);
        if pc.count_ones() != 3 {
            continue;
        }
        let wings: Vec<usize> = geo.peers[p]
            .iter()
            .copied()
            .filter(|&q| {
                let qc = board.cands(q);
                qc.count_ones() == 2 && qc & !pc == 0
            })
            .collect();
        for (i, &q1) in wings.iter().enumerate() {
            for &q2 in &wings[i + 1..] {
                let (c1, c2) = (board.cands(q1), board.cands(q2));
                let common = c1 & c2;
                if c1 == c2 || common.count_ones() != 1 {
                    continue;
                }
                let z = common.trailing_zeros() as u8;
                let mut a = Application::new(Technique::XyzWing);
                eliminate_seeing_all(board, &[p, q1, q2], &[p, q1, q2], z, &mut a);
                if !a.eliminations.is_empty() {
                    a.cells = vec![p, q1, q2];
                    a.digits = digits(pc).collect();
                    out.push(a);
                }
            }
        }
    }
}

/// Calls `f` with every (pivot, three peers) candidate WXYZ pattern.
fn wxyz_scan(board: &Board, f: &mut impl FnMut([usize; 4])) {
    let geo = board.geometry();
    for p in 0..geo.cells {
        let pc = board.cands(p);
        if !(2..=4).contains(&pc.count_ones()) {
            continue;
        }
        let pool: Vec<usize> = geo.peers[p]
            .iter()
            .copied()
            .filter(|&q| {
                let qc = board.cands(q);
                (2..=4).contains(&qc.count_ones()) && (qc | pc).count_ones() <= 4
            })
            .collect();
        for_each_subset(&pool, 3, &mut |w| {
            let union = pc | board.cands(w[0]) | board.cands(w[1]) | board.cands(w[2]);
            if union.count_ones() == 4 {
                f([p, w[0], w[1], w[2]]);
            }
        });
    }
}

fn wxyz_wing(board: &Board, out: &mut Vec<Application>) {
    let mut seen: Vec<[usize; 4]> = Vec::new();
    wxyz_scan(board, &mut |set| {
        let mut sorted = set;
        sorted.sort_unstable();
        if seen.contains(&sorted) {
            return;
        }
        seen.push(sorted);
        let union = set.iter().fold(0, |m, &c| m | board.cands(c));
        let mut loose = Vec::new();
        for d in digits(union) {
            let holders: Vec<usize> = set
                .iter()
                .copied()
                .filter(|&c| board.cands(c) & (1 << d) != 0)
                .collect();
            let confined = holders
                .iter()
                .enumerate()
                .all(|(i, &a)| holders[i + 1..].iter().all(|&b| sees(board, a, b)));
            if !confined {
                loose.push((d, holders));
            }
        }
        if loose.len() != 1 {
            return;
        }
        let (z, holders) = &loose[0];
        let mut a = Application::new(Technique::WxyzWing);
        eliminate_seeing_all(board, holders, &sorted, *z, &mut a);
        if !a.eliminations.is_empty() {
            a.cells = set.to_vec();
            a.digits = digits(union).collect();
            out.push(a);
        }
    });
}

/// Fills naked and hidden singles until none is left or the board shows a
/// contradiction; false on contradiction.
pub fn propagate_singles(board: &mut Board) -> bool {
    let mut buf = Vec::new();
    loop {
        if board.contradiction() {
            return false;
        }
        buf.clear();
        naked_singles(board, &mut buf);
        hidden_singles(board, &mut buf);
        if buf.is_empty() {
            return true;
        }
        for s in &buf {
            if board.value(s.cell) == 0 {
                if board.cands(s.cell) & (1 << s.digit) == 0 {
                    return false;
                }
                board.place(s.cell, s.digit);
            } else if board.value(s.cell) != s.digit {
                return false;
            }
        }
    }
}

/// A forcing-chain source: two alternatives, one of which must hold.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// A bivalue cell: `cell` is `a` or `b`.
    Cell { cell: usize, a: u8, b: u8 },
    /// Digit `d` has exactly two places in `unit`.
    Unit {
        unit: usize,
        d: u8,
        a: usize,
        b: usize,
    },
}

fn chain_sources(board: &Board) -> Vec<Source> {
    let geo = board.geometry();
    let mut out = Vec::new();
    for cell in 0..geo.cells {
        let c = board.cands(cell);
        if c.count_ones() == 2 {
            out.push(Source::Cell {
                cell,
                a: c.trailing_zeros() as u8,
                b: (31 - c.leading_zeros()) as u8,
            });
        }
    }
    for (u, cells) in geo.units.iter().enumerate() {
        for d in digits(geo.all_digits()) {
            let p = board.places(u, d);
            if p.count_ones() == 2 {
                out.push(Source::Unit {
                    unit: u,
                    d,
                    a: cells[p.trailing_zeros() as usize],
                    b: cells[(31 - p.leading_zeros()) as usize],
                });
            }
        }
    }
    out
}

fn forcing_chains(board: &Board, out: &mut Vec<Application>) {
    let geo = board.geometry();
    for src in chain_sources(board) {
        let (first, second) = match src {
            Source::Cell { cell, a, b } => ((cell, a), (cell, b)),
            Source::Unit { d, a, b, .. } => ((a, d), (b, d)),
        };
        let branch = |(cell, d): (usize, u8)| {
            let mut b = board.clone();
            b.place(cell, d);
            if propagate_singles(&mut b) {
                Some(b)
            } else {
                None
            }
        };
        let mut a = Application::new(Technique::ForcingChain);
        match (branch(first), branch(second)) {
            (None, None) => continue,
            (None, Some(_)) => {
                a.placements.push(second);
                a.note = Some(format!(
                    "{} = {} leads to a contradiction",
                    geo.cell_name(first.0),
                    first.1
                ));
            }
            (Some(_), None) => {
                a.placements.push(first);
                a.note = Some(format!(
                    "{} = {} leads to a contradiction",
                    geo.cell_name(second.0),
                    second.1
                ));
            }
            (Some(b1), Some(b2)) => {
                a.note = Some("both branches agree".into());
                for cell in 0..geo.cells {
                    let orig = board.cands(cell);
                    if orig == 0 {
                        continue;
                    }
                    let set = |b: &Board| {
                        if b.value(cell) != 0 {
                            1u32 << b.value(cell)
                        } else {
                            b.cands(cell)
                        }
                    };
                    let union = set(&b1) | set(&b2);
                    // After propagation a cell with one candidate is filled,
                    // so a one-digit union means both branches placed it.
                    if union.count_ones() == 1 {
                        a.placements.push((cell, union.trailing_zeros() as u8));
                    } else {
                        for d in digits(orig & !union) {
                            a.eliminations.push((cell, d));
                        }
                    }
                }
            }
        }
        if a.placements.is_empty() && a.eliminations.is_empty() {
            continue;
        }
        match src {
            Source::Cell { cell, a: x, b: y } => {
                a.cells.push(cell);
                a.digits = vec![x, y];
            }
            Source::Unit {
                unit,
                d,
                a: p,
                b: q,
            } => {
                a.units.push(unit);
                a.cells = vec![p, q];
                a.digits.push(d);
            }
        }
        out.push(a);
    }
}
