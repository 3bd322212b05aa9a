//! Relaxing a pencilmark grid (`docs/methods.md` §0.1, §2.2): list colouring
//! of the Sudoku graph less the removed edges, each cell coloured from its
//! candidates. The three engines and the SAT certificate agree on random
//! relaxations of random pencilmark grids; a grid built by hand has its
//! count and fixed cells known from each sample's removed edges.

use super::common::{self, Rng};
use super::pencilmarks::{pencilled, thinned};
use crate::engine::{Engine, InstanceAnalysis};
use crate::graph::RelaxedInstance;
use crate::grid::{Puzzle, parse_puzzle};
use crate::relax::{self, RelaxOptions};

fn analyze(r: &RelaxedInstance, engine: Engine, cap: u64) -> InstanceAnalysis {
    engine.implementation().analyze_relaxed(r, cap)
}

/// Random pencilmark grids: each fixture puzzle (every third thinned to 18
/// givens first, so with many solutions) with a share of its non-solution
/// candidates removed, and now and then the solution's own digit of one
/// cell (then the grid may have no solution left).
fn random_pencilmark_grids(count: usize, rng: &mut Rng) -> Vec<Puzzle> {
    let puzzles = common::fixture("unique.txt");
    (0..count)
        .map(|i| {
            let p = &puzzles[i % puzzles.len()];
            let sol = crate::bitset::sudoku::solve(p).expect("fixture puzzles solve");
            let base = if i % 3 == 0 {
                thinned(p, 18, rng)
            } else {
                p.clone()
            };
            let q = pencilled(&base, &sol, [100, 300, 600, 900][i % 4], rng);
            if i % 11 != 5 {
                return q;
            }
            let mut marks = q.pencilmarks().expect("a pencilmark grid").to_vec();
            if let Some(c) = (0..81).find(|&c| marks[c].count_ones() > 1) {
                marks[c] &= !(1 << sol.get(c));
            }
            Puzzle::from_pencilmarks(3, marks).expect("a cell keeps a candidate")
        })
        .collect()
}

/// 600 seeded instances (6,000 under `SUDOLAB_FULL_TESTS=1`).
#[test]
fn engines_agree_on_relaxations_of_random_pencilmark_grids() {
    // SAT, the bitset search, its certificate and (on every third instance
    // with k ≤ 45) Dancing Links, k cycling over 0..=120, caps 100 and 300.
    let total = common::full_or(6_000, 600);
    let grids = random_pencilmark_grids(400, &mut Rng(0x9e9c_5eed));
    super::relax::compare_engines(&grids, total, 120, [100, 300], 0x5eed, (3, 45), true);
}

/// The engines respect the lists: on a relaxation that frees every cell of
/// a grid (every edge removed), each cell takes exactly its candidates, so
/// the count is the product of the list lengths.
#[test]
fn with_every_edge_removed_the_count_is_the_product_of_the_lists() {
    let mut rng = Rng(0x11_57);
    let all = crate::Geometry::of(3).edges();
    for p in random_pencilmark_grids(6, &mut rng) {
        let r = RelaxedInstance::new(&p, &all).unwrap();
        let marks = p.pencilmarks().unwrap();
        // The engines saturate a count at u64::MAX, as this product does.
        let product = marks
            .iter()
            .fold(1u64, |acc, m| acc.saturating_mul(u64::from(m.count_ones())));
        let a = analyze(&r, Engine::Bitset, 0);
        assert_eq!(a.count.solutions, product, "{p}");
        let singles: Vec<usize> = (0..81)
            .filter(|&c| !p.is_given(c) && marks[c].count_ones() == 1)
            .collect();
        assert_eq!(a.fixed, singles, "{p}");
    }
}

const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// The solution of [`SOLVED`] as pencilmarks, every cell its own digit
/// alone except r1c2 (3), which also holds 5, the digit of r1c1 (its row
/// and box) and of r4c2 (its column). So r1c1, r1c2 and r4c2 are not givens
/// (a peer holds their single candidate too); r1c2 may be 5 exactly when
/// the edges r1c1–r1c2 and r1c2–r4c2 are both removed, every other cell
/// of its units holding another digit.
fn hand_grid() -> Puzzle {
    let solved = parse_puzzle(SOLVED).unwrap();
    let mut marks: Vec<u32> = solved.cells().iter().map(|&v| 1 << v).collect();
    marks[1] |= 1 << 5;
    Puzzle::from_pencilmarks(3, marks).unwrap()
}

/// Count and fixed cells of [`hand_grid`] worked out by hand: two solutions
/// with r1c2 free when both of its edges to a 5 are removed, else one; r1c1
/// and r4c2 (one candidate each) are always fixed.
fn hand_answer(removed: &[(usize, usize)]) -> (u64, Vec<usize>) {
    let (r1c1, r1c2, r4c2) = (0, 1, 28);
    if removed.contains(&(r1c1, r1c2)) && removed.contains(&(r1c2, r4c2)) {
        (2, vec![r1c1, r4c2])
    } else {
        (1, vec![r1c1, r1c2, r4c2])
    }
}

#[test]
fn a_grid_built_by_hand_relaxes_as_worked_out() {
    let p = hand_grid();
    assert_eq!(p.givens(), 78);
    for engine in Engine::ALL {
        for removed in [vec![], vec![(0, 1)], vec![(1, 28)], vec![(0, 1), (1, 28)]] {
            let r = RelaxedInstance::new(&p, &removed).unwrap();
            let a = analyze(&r, engine, 0);
            assert_eq!((a.count.solutions, a.fixed), hand_answer(&removed));
        }
    }
    // The relaxation experiment: each of 200 samples at k = 400 as worked
    // out from its removed edges; both answers occur (P = 400·399/(810·809)
    // ≈ 0.24 for two solutions).
    let opts = RelaxOptions {
        k: 400,
        samples: 200,
        verify: 200,
        ..Default::default()
    };
    let (report, samples) = relax::relax(&p, &opts).unwrap();
    let mut two = 0;
    for s in &samples {
        let removed: Vec<(usize, usize)> = s.removed.iter().map(|&[a, b]| (a, b)).collect();
        let (count, fixed) = hand_answer(&removed);
        assert_eq!(
            (s.solutions, &s.fixed),
            (count, &fixed),
            "sample {}",
            s.sample
        );
        two += usize::from(count == 2);
    }
    assert!((20..=80).contains(&two), "{two} samples with two solutions");
    let unique = (200 - two) as f64 / 200.0;
    assert_eq!(report.summary.p_unique, unique);
    assert_eq!(report.summary.mean_fixed, 3.0 - two as f64 / 200.0);
    assert_eq!(report.summary.fixedness[1], unique);
    assert_eq!(report.summary.fixedness[0], 1.0);
    assert_eq!(report.puzzle.len(), 729);
}

/// A grid whose marks leave only the solution: every cell a given, every
/// sample unique with no cell to fix, whatever k.
#[test]
fn marks_that_leave_only_the_solution_relax_to_it_alone() {
    let solved = parse_puzzle(SOLVED).unwrap();
    let marks = solved.cells().iter().map(|&v| 1 << v).collect();
    let p = Puzzle::from_pencilmarks(3, marks).unwrap();
    assert_eq!(p.givens(), 81);
    for k in [0, 45, 300, 810] {
        let opts = RelaxOptions {
            k,
            samples: 20,
            verify: 20,
            ..Default::default()
        };
        let (report, _) = relax::relax(&p, &opts).unwrap();
        assert_eq!(report.summary.p_unique, 1.0, "k={k}");
        assert_eq!(report.summary.mean_fixed, 0.0, "k={k}");
    }
}

/// A pencilmark grid with several solutions, or none, is refused as a
/// givens puzzle would be.
#[test]
fn a_pencilmark_grid_relaxes_only_with_one_solution() {
    let opts = RelaxOptions {
        samples: 5,
        ..Default::default()
    };
    let every_digit = Puzzle::from_pencilmarks(3, vec![0b11_1111_1110; 81]).unwrap();
    assert_eq!(
        relax::relax(&every_digit, &opts).unwrap_err(),
        relax::RelaxError::NotUnique
    );
    // r1c2 left with r1c1's 5 alone: no solution (r1c1 and r4c2 hold 5 too).
    let solved = parse_puzzle(SOLVED).unwrap();
    let mut marks: Vec<u32> = solved.cells().iter().map(|&v| 1 << v).collect();
    marks[1] = 1 << 5;
    let none = Puzzle::from_pencilmarks(3, marks).unwrap();
    assert!(matches!(
        relax::relax(&none, &opts).unwrap_err(),
        relax::RelaxError::Contradictory(_) | relax::RelaxError::NoSolution
    ));
}
