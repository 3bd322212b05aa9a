//! Relaxed instances: Dancing Links and the bitset fast path (and SAT on
//! random 4×4 instances) against hand-computed cases and a brute-force
//! enumerator, and against each other.

use super::dlx_common;

use crate::SeededRng;
use crate::bitset::relaxed;
use crate::dlx::relaxed::{
    RelaxedDlx, analyze as dlx_analyze, count as dlx_count, solutions as dlx_solutions,
};
use crate::graph::RelaxedInstance;
use crate::{Count, Geometry, InstanceAnalysis, Puzzle};
use dlx_common::{from_cells, puzzle, random_grid, random_puzzle};
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

fn instance(p: &Puzzle, removed: &[(usize, usize)]) -> RelaxedInstance {
    match RelaxedInstance::new(p, removed) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}

/// What brute force finds: every colouring, or `None` past `limit`.
struct Reference {
    solutions: Vec<Vec<u8>>,
    fixed: Vec<usize>,
}

/// Enumerates the proper colourings cell by cell, with an adjacency built
/// from the geometry and the removed list (not from `RelaxedInstance`).
fn brute_force(p: &Puzzle, removed: &[(usize, usize)], limit: usize) -> Option<Reference> {
    let g = Geometry::of(p.order());
    let side = g.side as u8;
    let gone: BTreeSet<(usize, usize)> =
        removed.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    // Earlier neighbours of each cell.
    let earlier: Vec<Vec<usize>> = (0..g.cells)
        .map(|c| {
            g.peers[c]
                .iter()
                .copied()
                .filter(|&o| o < c && !gone.contains(&(o, c)))
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    let mut cells = vec![0u8; g.cells];
    fn go(
        i: usize,
        p: &Puzzle,
        side: u8,
        earlier: &[Vec<usize>],
        cells: &mut [u8],
        out: &mut Vec<Vec<u8>>,
        limit: usize,
    ) -> bool {
        if i == cells.len() {
            out.push(cells.to_vec());
            return out.len() <= limit;
        }
        let values = if p.get(i) != 0 {
            p.get(i)..=p.get(i)
        } else {
            1..=side
        };
        for v in values {
            if earlier[i].iter().all(|&o| cells[o] != v) {
                cells[i] = v;
                if !go(i + 1, p, side, earlier, cells, out, limit) {
                    return false;
                }
            }
        }
        cells[i] = 0;
        true
    }
    if !go(0, p, side, &earlier, &mut cells, &mut out, limit) {
        return None;
    }
    let fixed = if out.is_empty() {
        Vec::new()
    } else {
        (0..g.cells)
            .filter(|&c| p.get(c) == 0 && out.iter().all(|s| s[c] == out[0][c]))
            .collect()
    };
    Some(Reference {
        solutions: out,
        fixed,
    })
}

fn expected(reference: &Reference, cap: u64) -> InstanceAnalysis {
    let total = reference.solutions.len() as u64;
    let found = if cap > 0 { total.min(cap) } else { total };
    InstanceAnalysis {
        count: Count::from_found(found, cap),
        fixed: reference.fixed.clone(),
    }
}

fn as_set(sols: Vec<Vec<u8>>) -> BTreeSet<Vec<u8>> {
    let n = sols.len();
    let set: BTreeSet<Vec<u8>> = sols.into_iter().collect();
    assert_eq!(set.len(), n, "a solution was reported twice");
    set
}

/// The 4×4 grid 1234/3412/2143/4321 with its first three cells blank.
const HAND: &str = "...4341221434321";

#[test]
fn hand_computed_4x4() {
    let p = puzzle(HAND);
    // Unrelaxed: row 1 misses 1, 2, 3; r1c1 sees 3, 2, 4 in its column, r1c3
    // sees 1, 4, 2: both forced, and r1c2 then takes 2.
    let r = RelaxedInstance::unrelaxed(&p);
    let unique = InstanceAnalysis {
        count: Count::from_found(1, 0),
        fixed: vec![0, 1, 2],
    };
    assert_eq!(relaxed::analyze(&r, 0), unique);
    assert_eq!(dlx_analyze(&r, 0), unique);
    // Remove r1c2–r3c2 (cell 9 holds 1): r1c2 may now be 1 or 2, but its edge
    // to r1c1 = 1 still rules 1 out. Still one solution.
    let r = instance(&p, &[(1, 9)]);
    assert_eq!(r.allowed()[1], 0b110);
    assert_eq!(relaxed::analyze(&r, 0), unique);
    assert_eq!(dlx_analyze(&r, 0), unique);
    // Also remove r1c1–r1c2: r1c2 ∈ {1, 2} freely, r1c1 = 1 and r1c3 = 3
    // stay forced. Two solutions, cells 0 and 2 fixed.
    let r = instance(&p, &[(1, 9), (0, 1)]);
    let two = InstanceAnalysis {
        count: Count::from_found(2, 0),
        fixed: vec![0, 2],
    };
    assert_eq!(relaxed::analyze(&r, 0), two);
    assert_eq!(dlx_analyze(&r, 0), two);
    let sols = as_set(relaxed::solutions(&r, 0));
    let want: BTreeSet<Vec<u8>> = [
        vec![1, 1, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1],
        vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1],
    ]
    .into();
    assert_eq!(sols, want);
    assert_eq!(as_set(dlx_solutions(&r, 0)), want);
    // The cap: at 2 the count is reported as capped, the fixed cells come
    // from the filtering search and do not change.
    let capped = InstanceAnalysis {
        count: Count {
            solutions: 2,
            capped: true,
        },
        fixed: vec![0, 2],
    };
    assert_eq!(relaxed::analyze(&r, 2), capped);
    assert_eq!(dlx_analyze(&r, 2), capped);
    // An edge between two givens (r1c4 = 4, r2c4 = 2) changes nothing.
    let r = instance(&p, &[(1, 9), (0, 1), (3, 7)]);
    assert_eq!(relaxed::analyze(&r, 0), two);
    assert_eq!(dlx_analyze(&r, 0), two);
}

#[test]
fn contradictory_puzzle_has_nothing_fixed() {
    // Two 1s in row 1; r1c1–r1c2 present: no colouring.
    let p = puzzle("11..............");
    let none = InstanceAnalysis {
        count: Count::from_found(0, 0),
        fixed: Vec::new(),
    };
    let r = RelaxedInstance::unrelaxed(&p);
    assert_eq!(relaxed::analyze(&r, 0), none);
    assert_eq!(dlx_analyze(&r, 0), none);
    assert_eq!(relaxed::count(&r, 5), Count::from_found(0, 5));
    assert!(relaxed::solutions(&r, 0).is_empty());
    // Removing that edge is not enough: rows 2–4 are intact and need a 1
    // each, which columns 1 and 2 (1s in box 1 and column edges) cannot
    // take, so columns 3 and 4 would need two 1s each. No colouring.
    let r = instance(&p, &[(0, 1)]);
    assert_eq!(relaxed::analyze(&r, 0), none);
    assert_eq!(dlx_analyze(&r, 0), none);
    // A clash the relaxation does allow: r1c2 = 1 beside r1c1 = 1 (edge
    // removed) and above r3c2 = 1 (edge removed); r1c3 is then forced to 3.
    let p = puzzle("11.4341221434321");
    let r = instance(&p, &[(0, 1), (1, 9)]);
    let want = InstanceAnalysis {
        count: Count::from_found(1, 0),
        fixed: vec![2],
    };
    assert_eq!(relaxed::analyze(&r, 0), want);
    assert_eq!(dlx_analyze(&r, 0), want);
    assert_eq!(dlx_count(&r, 0), want.count);
    assert_eq!(
        relaxed::solutions(&r, 0),
        vec![vec![1, 1, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]]
    );
}

#[test]
fn random_4x4_instances_match_brute_force() {
    let mut rng = SeededRng::seed_from_u64(0x4545);
    let edges = Geometry::of(2).edges().len();
    let (mut checked, mut skipped, mut zero, mut one, mut many) = (0, 0, 0, 0, 0);
    for i in 0..3000u64 {
        let p = match i % 3 {
            // From a solution grid: unique or with several solutions.
            0 => random_puzzle(2, rng.gen_range(0.3..0.9), &mut rng),
            // The full grid.
            1 if i % 30 == 1 => from_cells(2, random_grid(2, &mut rng)),
            // Random givens: often contradictory.
            _ => from_cells(
                2,
                (0..16)
                    .map(|_| {
                        if rng.gen_bool(0.35) {
                            rng.gen_range(1..=4)
                        } else {
                            0
                        }
                    })
                    .collect(),
            ),
        };
        let k = match i % 4 {
            0 => 0,
            1 => rng.gen_range(1..=4),
            _ => rng.gen_range(0..=edges / 3),
        };
        let removed = match RelaxedInstance::sample_edges(2, k, rng.r#gen()) {
            Ok(e) => e,
            Err(e) => panic!("{e}"),
        };
        let Some(reference) = brute_force(&p, &removed, 20_000) else {
            skipped += 1;
            continue;
        };
        checked += 1;
        let r = instance(&p, &removed);
        let total = reference.solutions.len();
        match total {
            0 => zero += 1,
            1 => one += 1,
            _ => many += 1,
        }
        for cap in [0, 1, 3, 50] {
            let want = expected(&reference, cap);
            assert_eq!(relaxed::analyze(&r, cap), want, "{p} {removed:?} cap {cap}");
            assert_eq!(dlx_analyze(&r, cap), want, "{p} {removed:?} cap {cap}");
            assert_eq!(relaxed::count(&r, cap), want.count);
        }
        // SAT, with its redundant unit clauses, on the same instances
        // (contradictory givens and removed edges between givens included).
        let want = expected(&reference, 50);
        assert_eq!(
            crate::sat::analyze_relaxed(&r, 50),
            want,
            "{p} {removed:?} sat"
        );
        let want: BTreeSet<Vec<u8>> = reference.solutions.iter().cloned().collect();
        let fast = relaxed::solutions(&r, 0);
        assert!(fast.iter().all(|s| r.is_solution(s)));
        assert_eq!(as_set(fast), want, "{p} {removed:?}");
        if total <= 2000 {
            assert_eq!(as_set(dlx_solutions(&r, 0)), want, "{p} {removed:?}");
        }
        assert_eq!(relaxed::solutions(&r, 3).len(), total.min(3));
        if k == 0 && total == 1 {
            // A unique puzzle, unrelaxed: every empty cell is fixed.
            let empty: Vec<usize> = (0..16).filter(|&c| p.get(c) == 0).collect();
            assert_eq!(relaxed::analyze(&r, 0).fixed, empty);
        }
    }
    assert!(skipped < 300, "skipped {skipped}");
    assert!(
        checked > 2500 && zero > 100 && one > 100 && many > 100,
        "checked {checked}: {zero} without, {one} with one, {many} with several solutions"
    );
}

/// qqwing puzzles of every level, and one hard puzzle (magictour top 1465)
/// that is only relaxed lightly: Dancing Links on it at high k is slow.
const NINE: &[&str] = &[
    "......93.....53......92...5...6....1....12......39.46..91.65..864.18.3.........2.",
    ".2...4......82....8946..........5.8...69......4.7..9..6....3....8.2...3..57.6.4..",
    "..5..........9........1.53.....3..7..68......3..85.1.2.....36.9..958..2.23.16....",
    ".........7...629..95.....7..2..9.4..1.....8...9..2.....6.....1.54...67.28..1.96.4",
    "........12...94..6...3.7..8.....82..7.64...8....1..3.76.472...3..168.4...........",
    "....1..5........2.852..3...1.....5....76.52.8..8...3646.1..8...3.4..7.8.....3.7..",
    "4.9...136.3....75.....4.....14.6.....8..5.94...7..9..8....3.56....5....9..8.9....",
];
const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

#[test]
fn nine_by_nine_fast_path_matches_dancing_links() {
    let mut rng = SeededRng::seed_from_u64(0x99);
    let mut puzzles: Vec<Puzzle> = NINE.iter().map(|s| puzzle(s)).collect();
    for _ in 0..10 {
        puzzles.push(random_puzzle(3, 0.4, &mut rng));
    }
    puzzles.push(puzzle(HARD));
    let mut capped = 0;
    for p in &puzzles {
        let ks: &[usize] = if p.to_line() == HARD {
            &[0, 10]
        } else {
            &[0, 15, 30, 45, 60]
        };
        for &k in ks {
            let removed = match RelaxedInstance::sample_edges(3, k, rng.r#gen()) {
                Ok(e) => e,
                Err(e) => panic!("{e}"),
            };
            let r = instance(p, &removed);
            let cap = 200;
            let fast = relaxed::analyze(&r, cap);
            let mut dlx = RelaxedDlx::new(&r);
            assert_eq!(dlx.analyze(cap), fast, "{p} k={k}");
            assert_eq!(dlx.count(cap), fast.count);
            capped += usize::from(fast.count.capped);
            let sols = relaxed::solutions(&r, cap);
            assert_eq!(sols.len() as u64, fast.count.solutions);
            assert!(sols.iter().all(|s| r.is_solution(s)));
            // Each fixed cell has the same value in every solution seen.
            for &c in &fast.fixed {
                assert!(sols.iter().all(|s| s[c] == sols[0][c]), "{p} k={k}");
            }
            if !fast.count.capped {
                // Uncapped: the fixed cells are exactly the empty cells on
                // which all solutions agree.
                let agree: Vec<usize> = (0..81)
                    .filter(|&c| p.get(c) == 0 && sols.iter().all(|s| s[c] == sols[0][c]))
                    .collect();
                if !sols.is_empty() {
                    assert_eq!(fast.fixed, agree, "{p} k={k}");
                }
                assert_eq!(as_set(sols), as_set(dlx.solutions(0)), "{p} k={k}");
            }
            let line = p.to_line();
            if k == 0 && (NINE.contains(&line.as_str()) || line == HARD) {
                let empty: Vec<usize> = (0..81).filter(|&c| p.get(c) == 0).collect();
                assert_eq!(fast.count, Count::from_found(1, cap));
                assert_eq!(fast.fixed, empty);
            }
        }
    }
    assert!(capped > 3, "only {capped} capped instances");
}

/// Exact counts (no cap) at high k, where the instances fall apart into
/// small components whose live constraints form forests (counted without
/// search by `Search::forest_count`): counts and fixed cells as Dancing
/// Links enumerates them.
#[test]
fn exact_counts_at_high_k_match_dancing_links() {
    let mut rng = SeededRng::seed_from_u64(0x9090);
    let (mut compared, mut large) = (0, 0);
    for i in 0..90 {
        let p = random_puzzle(3, rng.gen_range(0.5..0.75), &mut rng);
        let k = [90, 120, 150][i % 3];
        let removed = match RelaxedInstance::sample_edges(3, k, rng.r#gen()) {
            Ok(e) => e,
            Err(e) => panic!("{e}"),
        };
        let r = instance(&p, &removed);
        // Dancing Links enumerates one solution at a time.
        if relaxed::count(&r, 300_000).capped {
            continue;
        }
        let fast = relaxed::analyze(&r, 0);
        assert_eq!(relaxed::count(&r, 0), fast.count, "{p} k={k}");
        assert_eq!(dlx_analyze(&r, 0), fast, "{p} k={k}");
        large += usize::from(fast.count.solutions > 1000);
        compared += 1;
    }
    assert!(
        compared > 70 && large > 5,
        "{compared} compared, {large} above 1000"
    );
}

#[test]
fn larger_orders_agree() {
    let mut rng = SeededRng::seed_from_u64(0x1616);
    for n in [4, 5] {
        let p = random_puzzle(n, 0.7, &mut rng);
        let edges = Geometry::of(n).edges().len();
        let removed = match RelaxedInstance::sample_edges(n, edges / 50, rng.r#gen()) {
            Ok(e) => e,
            Err(e) => panic!("{e}"),
        };
        let r = instance(&p, &removed);
        let fast = relaxed::analyze(&r, 20);
        assert!(fast.count.solutions >= 1, "the original solution remains");
        assert_eq!(dlx_analyze(&r, 20), fast, "order {n}");
        assert!(relaxed::solutions(&r, 20).iter().all(|s| r.is_solution(s)));
    }
}

/// Relaxed instances on which the fast path used to thrash (seconds, where
/// CDCL needs milliseconds), from `RelaxedInstance::sample_edges(3, k, derive_seed(99, i))`
/// on `tests/fixtures/unique.txt` puzzles. Expected results as SAT computes
/// them (checked again here).
#[rustfmt::skip]
/// Puzzle, removed edges, cap, expected fixed cells.
type Case = (&'static str, &'static [(usize, usize)], u64, &'static [usize]);

const PATHOLOGICAL: &[Case] = &[
    // i=2026, k=90: dlx 7.0 s, SAT 6 ms before the fix: a satisfiable filtering query lost in an unsatisfiable subtree.
    (
        "................12..3..4................53...12......6......3....56..4.7.8.12....",
        &[
            (0, 3),
            (0, 19),
            (0, 54),
            (1, 9),
            (1, 19),
            (1, 64),
            (1, 73),
            (2, 38),
            (2, 74),
            (3, 13),
            (3, 22),
            (4, 5),
            (5, 21),
            (5, 50),
            (7, 16),
            (7, 17),
            (7, 79),
            (9, 11),
            (9, 16),
            (10, 19),
            (13, 23),
            (14, 16),
            (14, 77),
            (15, 16),
            (15, 69),
            (16, 43),
            (17, 35),
            (19, 20),
            (19, 23),
            (19, 73),
            (20, 24),
            (20, 25),
            (23, 24),
            (25, 34),
            (25, 79),
            (26, 53),
            (26, 62),
            (27, 31),
            (29, 34),
            (29, 45),
            (32, 34),
            (32, 35),
            (32, 41),
            (32, 50),
            (32, 77),
            (36, 39),
            (36, 42),
            (36, 46),
            (36, 72),
            (41, 42),
            (41, 48),
            (41, 68),
            (41, 77),
            (42, 44),
            (42, 52),
            (43, 70),
            (45, 50),
            (45, 54),
            (46, 48),
            (48, 53),
            (48, 66),
            (49, 51),
            (50, 53),
            (51, 52),
            (51, 78),
            (52, 61),
            (54, 56),
            (54, 57),
            (54, 61),
            (55, 73),
            (56, 64),
            (57, 58),
            (58, 67),
            (58, 76),
            (60, 71),
            (63, 66),
            (63, 73),
            (64, 67),
            (64, 71),
            (66, 77),
            (67, 76),
            (68, 71),
            (68, 76),
            (69, 70),
            (69, 78),
            (72, 80),
            (73, 78),
            (74, 78),
            (75, 78),
            (78, 79),
        ],
        100,
        &[],
    ),
    // i=1635, k=62: 0.65 s before the fix: the count itself thrashed, then the filtering queries.
    (
        "....7..438.....5...........2..5.1..........64...8......34...6.....2..1...7..6....",
        &[
            (0, 8),
            (0, 19),
            (0, 63),
            (1, 2),
            (1, 11),
            (2, 47),
            (3, 48),
            (4, 49),
            (4, 67),
            (6, 78),
            (7, 24),
            (9, 54),
            (10, 55),
            (11, 13),
            (12, 48),
            (13, 21),
            (13, 31),
            (13, 76),
            (14, 15),
            (21, 24),
            (21, 39),
            (22, 24),
            (22, 67),
            (23, 41),
            (25, 34),
            (26, 44),
            (27, 36),
            (28, 30),
            (28, 34),
            (28, 37),
            (30, 49),
            (35, 52),
            (36, 37),
            (36, 40),
            (36, 42),
            (36, 46),
            (37, 38),
            (37, 43),
            (37, 47),
            (40, 49),
            (40, 67),
            (43, 44),
            (43, 70),
            (46, 73),
            (47, 65),
            (51, 53),
            (55, 65),
            (56, 57),
            (56, 74),
            (57, 59),
            (57, 76),
            (58, 61),
            (58, 62),
            (59, 62),
            (61, 69),
            (61, 79),
            (65, 71),
            (68, 69),
            (72, 78),
            (73, 80),
            (74, 76),
            (75, 76),
        ],
        300,
        &[],
    ),
    // i=1330 (puzzle i % 200), k=120: 7 s before the fix: four fixed cells each refuted by ~10^6 nodes of plain search.
    (
        "95..2...62...3.1..36...52....7......59......4.......62...4........2..945....97..3",
        &[
            (0, 9),
            (0, 54),
            (0, 72),
            (1, 4),
            (1, 6),
            (1, 10),
            (2, 5),
            (2, 7),
            (3, 12),
            (4, 6),
            (4, 12),
            (4, 14),
            (4, 21),
            (5, 14),
            (5, 23),
            (6, 16),
            (6, 60),
            (9, 10),
            (9, 54),
            (10, 11),
            (10, 18),
            (11, 13),
            (11, 14),
            (11, 15),
            (11, 17),
            (11, 56),
            (12, 15),
            (13, 14),
            (13, 67),
            (14, 16),
            (14, 21),
            (14, 23),
            (14, 41),
            (15, 24),
            (16, 25),
            (16, 61),
            (16, 70),
            (17, 25),
            (18, 19),
            (18, 24),
            (19, 28),
            (20, 21),
            (21, 30),
            (22, 58),
            (22, 76),
            (23, 59),
            (24, 25),
            (24, 51),
            (25, 34),
            (25, 52),
            (25, 79),
            (26, 35),
            (26, 44),
            (26, 80),
            (27, 45),
            (28, 30),
            (28, 35),
            (28, 36),
            (28, 47),
            (29, 33),
            (29, 35),
            (30, 35),
            (30, 39),
            (30, 41),
            (31, 33),
            (31, 49),
            (32, 33),
            (32, 35),
            (33, 35),
            (33, 60),
            (34, 35),
            (34, 79),
            (35, 51),
            (35, 71),
            (36, 72),
            (37, 40),
            (37, 42),
            (37, 46),
            (38, 40),
            (38, 42),
            (39, 44),
            (39, 66),
            (40, 41),
            (40, 67),
            (41, 49),
            (42, 51),
            (42, 60),
            (43, 44),
            (43, 51),
            (45, 48),
            (45, 72),
            (49, 50),
            (51, 52),
            (52, 79),
            (53, 71),
            (54, 58),
            (54, 72),
            (55, 60),
            (55, 63),
            (56, 60),
            (57, 58),
            (57, 76),
            (58, 66),
            (59, 61),
            (59, 77),
            (60, 79),
            (60, 80),
            (61, 69),
            (62, 69),
            (63, 69),
            (63, 74),
            (64, 65),
            (64, 67),
            (65, 70),
            (68, 75),
            (72, 74),
            (73, 80),
            (76, 80),
            (77, 79),
            (79, 80),
        ],
        300,
        &[38, 47, 65, 74],
    ),
];

#[test]
fn pathological_instances_match_sat() {
    for &(line, removed, cap, fixed) in PATHOLOGICAL {
        let p = puzzle(line);
        let r = instance(&p, removed);
        let expected = InstanceAnalysis {
            count: Count::from_found(cap, cap),
            fixed: fixed.to_vec(),
        };
        assert_eq!(relaxed::analyze(&r, cap), expected, "{line}");
        assert_eq!(relaxed::count(&r, cap), expected.count, "{line}");
        assert_eq!(crate::sat::analyze_relaxed(&r, cap), expected, "{line}");
    }
}
