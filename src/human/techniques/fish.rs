//! Basic fish: X-wing, swordfish and jellyfish, from the catalogue of Xu &
//! Xu (§2.1 c, Table 1; `docs/methods.md` §3).
//!
//! Where the literature varies: a fish of size k only uses base lines with
//! 2..=k places for the digit.

use super::{Application, Found, Technique, choose, for_each_subset};
use crate::human::board::Board;
use crate::util::bits as digits;

/// Fish size k: the number of base lines.
fn subset_size(t: Technique) -> usize {
    match t {
        Technique::XWing => 2,
        Technique::Swordfish => 3,
        _ => 4,
    }
}

/// Every fish application of size k.
pub(super) fn find(technique: Technique, board: &Board, out: &mut Found) {
    match technique {
        Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
            fish(board, subset_size(technique), technique, out)
        }
        t => unreachable!("{t} is not a fish"),
    }
}

/// Possible applications ([`super::possible_count`]): (digit, orientation,
/// k lines) with 2..=k places each.
pub(super) fn possible_count(technique: Technique, board: &Board) -> usize {
    let geo = board.geometry();
    match technique {
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
        t => unreachable!("{t} is not a fish"),
    }
}

/// Basic fish of size k (X-wing 2, swordfish 3, jellyfish 4): k base lines
/// whose places for a digit cover exactly k cross lines.
fn fish(board: &Board, k: usize, t: Technique, out: &mut Found) {
    let geo = board.geometry();
    let side = geo.side;
    // Every line's places of every digit: `line_places[line * (side + 1) + d]`.
    let mut line_places = vec![0u32; 2 * side * (side + 1)];
    for (line, slots) in line_places.chunks_mut(side + 1).enumerate() {
        board.unit_places(line, slots);
    }
    let mut places = vec![0u32; side];
    let mut pool = Vec::with_capacity(side);
    for d in digits(geo.all_digits()) {
        if out.done() {
            return;
        }
        for orient in 0..2 {
            let base0 = orient * side;
            let cover0 = (1 - orient) * side;
            pool.clear();
            for (l, p) in places.iter_mut().enumerate() {
                *p = line_places[(base0 + l) * (side + 1) + d as usize];
                if (2..=k as u32).contains(&p.count_ones()) {
                    pool.push(l);
                }
            }
            for_each_subset(&pool, k, &mut |set| {
                if out.done() {
                    return;
                }
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
