//! Naked and hidden subsets: pairs, triples and quads, from the catalogue of
//! Xu & Xu (§2.1 c, Table 1; `docs/methods.md` §3).
//!
//! Where the literature varies: a subset of size k only uses cells (digits)
//! with 2..=k candidates (places), so a single never counts as a subset.

use super::{Application, Found, Technique, choose, for_each_subset};
use crate::human::board::Board;
use crate::util::bits as digits;

/// Subset size k of a subset technique.
fn subset_size(t: Technique) -> usize {
    match t {
        Technique::NakedPair | Technique::HiddenPair => 2,
        Technique::NakedTriple | Technique::HiddenTriple => 3,
        _ => 4,
    }
}

/// Every naked or hidden subset application of size k.
pub(super) fn find(technique: Technique, board: &Board, out: &mut Found) {
    match technique {
        Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => {
            naked_subsets(board, subset_size(technique), technique, out)
        }
        Technique::HiddenPair | Technique::HiddenTriple | Technique::HiddenQuad => {
            hidden_subsets(board, subset_size(technique), technique, out)
        }
        t => unreachable!("{t} is not a subset"),
    }
}

/// Possible applications ([`super::possible_count`]):
/// * naked subset of size k: (unit, k cells) with 2..=k candidates each;
/// * hidden subset of size k: (unit, k unplaced digits) with 2..=k places each.
pub(super) fn possible_count(technique: Technique, board: &Board) -> usize {
    let geo = board.geometry();
    match technique {
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
        t => unreachable!("{t} is not a subset"),
    }
}

fn naked_subsets(board: &Board, k: usize, t: Technique, out: &mut Found) {
    let geo = board.geometry();
    let mut pool = Vec::with_capacity(geo.side);
    for (u, cells) in geo.units.iter().enumerate() {
        if out.done() {
            return;
        }
        pool.clear();
        pool.extend(
            cells
                .iter()
                .copied()
                .filter(|&c| (2..=k as u32).contains(&board.cands(c).count_ones())),
        );
        for_each_subset(&pool, k, &mut |set| {
            if out.done() {
                return;
            }
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

fn hidden_subsets(board: &Board, k: usize, t: Technique, out: &mut Found) {
    let geo = board.geometry();
    let mut places = vec![0u32; geo.side + 1];
    let mut pool = Vec::with_capacity(geo.side);
    for (u, cells) in geo.units.iter().enumerate() {
        if out.done() {
            return;
        }
        pool.clear();
        board.unit_places(u, &mut places);
        for d in digits(geo.all_digits()) {
            if (2..=k as u32).contains(&places[d as usize].count_ones()) {
                pool.push(d as usize);
            }
        }
        for_each_subset(&pool, k, &mut |set| {
            if out.done() {
                return;
            }
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
