//! The generic exact cover engine against brute force over row subsets.

use crate::Count;
use crate::SeededRng;
use crate::dlx::ExactCover;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

struct Instance {
    primary: usize,
    secondary: usize,
    rows: Vec<Vec<usize>>,
}

fn random_instance(rng: &mut SeededRng) -> Instance {
    let primary = rng.gen_range(1..=6);
    let secondary = rng.gen_range(0..=3);
    let total = primary + secondary;
    let nrows = rng.gen_range(1..=12);
    let rows = (0..nrows)
        .map(|_| {
            let mut cols: Vec<usize> = (0..total).filter(|_| rng.gen_bool(0.35)).collect();
            if cols.is_empty() {
                cols.push(rng.gen_range(0..total));
            }
            // Shuffle the column order: the engine must not depend on it.
            for i in (1..cols.len()).rev() {
                let j = rng.gen_range(0..=i);
                cols.swap(i, j);
            }
            cols
        })
        .collect();
    Instance {
        primary,
        secondary,
        rows,
    }
}

/// All solutions as sorted row sets, by trying every subset of rows. A row
/// without primary column is never part of a solution (Knuth's convention:
/// Algorithm X only reaches rows through the primary column it branches on),
/// unless it was forced.
fn brute_force(inst: &Instance, forced: &[usize], forbidden: &[usize]) -> BTreeSet<Vec<usize>> {
    let total = inst.primary + inst.secondary;
    let mut out = BTreeSet::new();
    for mask in 0u32..(1 << inst.rows.len()) {
        if forced.iter().any(|&r| mask & (1 << r) == 0)
            || forbidden.iter().any(|&r| mask & (1 << r) != 0)
        {
            continue;
        }
        let mut uses = vec![0; total];
        for (r, cols) in inst.rows.iter().enumerate() {
            if mask & (1 << r) != 0 {
                for &c in cols {
                    uses[c] += 1;
                }
            }
        }
        let all_reachable = inst.rows.iter().enumerate().all(|(r, cols)| {
            mask & (1 << r) == 0 || forced.contains(&r) || cols.iter().any(|&c| c < inst.primary)
        });
        let ok = all_reachable
            && uses[..inst.primary].iter().all(|&u| u == 1)
            && uses[inst.primary..].iter().all(|&u| u <= 1);
        if ok {
            out.insert(
                (0..inst.rows.len())
                    .filter(|&r| mask & (1 << r) != 0)
                    .collect(),
            );
        }
    }
    out
}

fn build(inst: &Instance) -> ExactCover {
    let mut ec = ExactCover::new(inst.primary, inst.secondary);
    for (i, cols) in inst.rows.iter().enumerate() {
        assert_eq!(ec.add_row(cols), i);
    }
    ec
}

fn dlx_solutions(ec: &mut ExactCover) -> BTreeSet<Vec<usize>> {
    let all = ec.solutions(0);
    let n = all.len();
    let set: BTreeSet<Vec<usize>> = all
        .into_iter()
        .map(|mut s| {
            s.sort_unstable();
            s
        })
        .collect();
    assert_eq!(set.len(), n, "a solution was reported twice");
    set
}

#[test]
fn knuth_paper_example() {
    // Columns A..G; the rows of Knuth's Figure 3.
    let mut ec = ExactCover::new(7, 0);
    for row in [
        &[2, 4, 5][..],
        &[0, 3, 6],
        &[1, 2, 5],
        &[0, 3],
        &[1, 6],
        &[3, 4, 6],
    ] {
        ec.add_row(row);
    }
    let sols = dlx_solutions(&mut ec);
    assert_eq!(sols, BTreeSet::from([vec![0, 3, 4]]));
    assert_eq!(ec.row_columns(5), vec![3, 4, 6]);
}

#[test]
fn random_instances_match_brute_force() {
    let mut rng = SeededRng::seed_from_u64(0xD1CE);
    for _ in 0..3000 {
        let inst = random_instance(&mut rng);
        let mut ec = build(&inst);
        let expected = brute_force(&inst, &[], &[]);
        assert_eq!(dlx_solutions(&mut ec), expected);
        let n = expected.len() as u64;
        assert_eq!(ec.count(0), Count::from_found(n, 0));
        for cap in 1..=3u64 {
            assert_eq!(ec.count(cap), Count::from_found(n.min(cap), cap));
            assert_eq!(ec.solutions(cap).len() as u64, n.min(cap));
        }
        // Searching again gives the same answer: the links were restored.
        assert_eq!(dlx_solutions(&mut ec), expected);
        assert_eq!(ec.first().is_some(), n > 0);
    }
}

#[test]
fn force_and_forbid_match_brute_force() {
    let mut rng = SeededRng::seed_from_u64(0xF0F0);
    for _ in 0..3000 {
        let inst = random_instance(&mut rng);
        let mut ec = build(&inst);
        let nrows = inst.rows.len();
        let mut forced = Vec::new();
        let mut forbidden = Vec::new();
        let mark = ec.mark();
        for _ in 0..rng.gen_range(1..=3) {
            let row = rng.gen_range(0..nrows);
            if rng.gen_bool(0.5) {
                ec.force(row);
                forced.push(row);
            } else {
                ec.forbid(row);
                forbidden.push(row);
            }
        }
        // A forced row that is also forbidden has no solution, a row forced
        // twice is forced once; brute force handles every combination.
        let expected = brute_force(&inst, &forced, &forbidden);
        let got = dlx_solutions(&mut ec);
        assert_eq!(got, expected, "forced {forced:?} forbidden {forbidden:?}");
        // Forced rows are reported in every solution.
        for s in &got {
            assert!(forced.iter().all(|r| s.contains(r)));
        }
        ec.rollback(mark);
        assert_eq!(dlx_solutions(&mut ec), brute_force(&inst, &[], &[]));
    }
}

#[test]
fn search_stops_early_and_restores() {
    // Four primary columns, each row one column, two rows per column:
    // 16 solutions.
    let mut ec = ExactCover::new(4, 0);
    for c in 0..4 {
        ec.add_row(&[c]);
        ec.add_row(&[c]);
    }
    assert_eq!(ec.count(0).solutions, 16);
    let mut seen = 0;
    let complete = ec.search(|rows| {
        assert_eq!(rows.len(), 4);
        seen += 1;
        if seen == 5 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert!(!complete);
    assert_eq!(seen, 5);
    assert_eq!(ec.count(0).solutions, 16);
    assert_eq!(
        ec.count(16),
        Count {
            solutions: 16,
            capped: true
        }
    );
}

#[test]
fn empty_problem_and_empty_rows() {
    // No primary column: the empty set of rows is the one solution.
    let mut ec = ExactCover::new(0, 2);
    ec.add_row(&[0]);
    assert_eq!(ec.count(0).solutions, 1);
    // A row without columns is never part of a solution.
    let mut ec = ExactCover::new(1, 0);
    ec.add_row(&[]);
    ec.add_row(&[0]);
    assert_eq!(ec.solutions(0), vec![vec![1]]);
    assert!(!ec.force(0));
    assert_eq!(ec.count(0).solutions, 0);
    ec.reset();
    assert_eq!(ec.count(0).solutions, 1);
}
