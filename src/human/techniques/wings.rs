//! Wings: XY-wing, XYZ-wing and WXYZ-wing, from the catalogue of Xu & Xu
//! (§2.1 c, Table 1; `docs/methods.md` §3).
//!
//! Where the literature varies: a WXYZ-wing is a pivot cell and three of its
//! peers, 2..=4 candidates each, four digits in all, exactly one of which
//! (`z`) is not confined to mutually-seeing cells; `z` is removed from every
//! cell that sees all the `z` cells of the pattern.

use super::{Application, Found, Technique, choose};
use crate::human::board::Board;
use crate::util::bits as digits;

/// Every XY-, XYZ- or WXYZ-wing application.
pub(super) fn find(technique: Technique, board: &Board, out: &mut Found) {
    match technique {
        Technique::XyWing => xy_wing(board, out),
        Technique::XyzWing => xyz_wing(board, out),
        Technique::WxyzWing => wxyz_wing(board, out),
        t => unreachable!("{t} is not a wing"),
    }
}

/// Possible applications ([`super::possible_count`]):
/// * XY-wing: (bivalue pivot, two bivalue peers);
/// * XYZ-wing: (trivalue pivot, two bivalue peers with candidates inside the
///   pivot's);
/// * WXYZ-wing: (pivot, three peers) with 2..=4 candidates each and at most
///   four digits in all.
pub(super) fn possible_count(technique: Technique, board: &Board) -> usize {
    let geo = board.geometry();
    match technique {
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
        t => unreachable!("{t} is not a wing"),
    }
}

fn sees(board: &Board, a: usize, b: usize) -> bool {
    let u = &board.geometry().cell_units;
    a != b && (u[a][0] == u[b][0] || u[a][1] == u[b][1] || u[a][2] == u[b][2])
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

fn xy_wing(board: &Board, out: &mut Found) {
    let geo = board.geometry();
    let mut wings = Vec::new();
    for p in 0..geo.cells {
        if out.done() {
            return;
        }
        let pc = board.cands(p);
        if pc.count_ones() != 2 {
            continue;
        }
        let x = pc.trailing_zeros();
        let y = 31 - pc.leading_zeros();
        wings.clear();
        wings.extend(geo.peers[p].iter().copied().filter(|&q| {
            let qc = board.cands(q);
            qc.count_ones() == 2 && (qc & pc).count_ones() == 1
        }));
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

fn xyz_wing(board: &Board, out: &mut Found) {
    let geo = board.geometry();
    let mut wings = Vec::new();
    for p in 0..geo.cells {
        if out.done() {
            return;
        }
        let pc = board.cands(p);
        if pc.count_ones() != 3 {
            continue;
        }
        wings.clear();
        wings.extend(geo.peers[p].iter().copied().filter(|&q| {
            let qc = board.cands(q);
            qc.count_ones() == 2 && qc & !pc == 0
        }));
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

/// Calls `f` with every (pivot, three peers) candidate WXYZ pattern, the
/// peers in the order of the pivot's peer list. A partial pattern whose
/// digits already number more than four is not extended.
fn wxyz_scan(board: &Board, f: &mut impl FnMut([usize; 4])) {
    // Counted as the digits a peer adds to the pivot's (`room` more are
    // allowed), which needs no population count in the loops.
    let drop_low = |m: u32, k: u32| (0..k).fold(m, |m, _| m & m.wrapping_sub(1));
    let geo = board.geometry();
    let mut pool: Vec<(usize, u32)> = Vec::with_capacity(geo.side * 3);
    for p in 0..geo.cells {
        let pc = board.cands(p);
        if !(2..=4).contains(&pc.count_ones()) {
            continue;
        }
        let room = 4 - pc.count_ones();
        pool.clear();
        // Two or more candidates, at most `room` outside the pivot's (so at
        // most four).
        pool.extend(geo.peers[p].iter().filter_map(|&q| {
            let qc = board.cands(q);
            let extra = qc & !pc;
            (drop_low(qc, 1) != 0 && drop_low(extra, room) == 0).then_some((q, extra))
        }));
        for (i, &(a, ea)) in pool.iter().enumerate() {
            for (j, &(b, eb)) in pool.iter().enumerate().skip(i + 1) {
                let eab = ea | eb;
                if drop_low(eab, room) != 0 {
                    continue;
                }
                for &(c, ec) in &pool[j + 1..] {
                    // Exactly `room` added digits: four in all.
                    let e = eab | ec;
                    if drop_low(e, room) == 0 && (room == 0 || drop_low(e, room - 1) != 0) {
                        f([p, a, b, c]);
                    }
                }
            }
        }
    }
}

fn wxyz_wing(board: &Board, out: &mut Found) {
    wxyz_scan(board, &mut |set| {
        if out.done() {
            return;
        }
        // A pattern is found from every member that sees the other three;
        // it is judged from the first such pivot only (the scan meets it
        // there first), and whether it applies depends on its cells alone.
        let [p, rest @ ..] = set;
        let earlier_pivot = rest.iter().enumerate().any(|(i, &m)| {
            m < p
                && rest
                    .iter()
                    .enumerate()
                    .all(|(j, &o)| i == j || sees(board, m, o))
        });
        if earlier_pivot {
            return;
        }
        // The pivot sees the three wings, so a digit is confined unless two
        // wings that do not see each other both hold it.
        let [_, a, b, c] = set;
        let apart = [(a, b), (a, c), (b, c)].map(|(x, y)| !sees(board, x, y));
        let union = set.iter().fold(0, |m, &c| m | board.cands(c));
        let mut loose = None;
        for d in digits(union) {
            let [ha, hb, hc] = [a, b, c].map(|w| board.cands(w) & (1 << d) != 0);
            if (ha && hb && apart[0]) || (ha && hc && apart[1]) || (hb && hc && apart[2]) {
                if loose.is_some() {
                    return;
                }
                loose = Some(d);
            }
        }
        let Some(z) = loose else {
            return;
        };
        let mut holders = [0usize; 4];
        let mut n = 0;
        for &c in &set {
            if board.cands(c) & (1 << z) != 0 {
                holders[n] = c;
                n += 1;
            }
        }
        let mut sorted = set;
        sorted.sort_unstable();
        let mut a = Application::new(Technique::WxyzWing);
        eliminate_seeing_all(board, &holders[..n], &sorted, z, &mut a);
        if !a.eliminations.is_empty() {
            a.cells = set.to_vec();
            a.digits = digits(union).collect();
            out.push(a);
        }
    });
}
