//! Soundness of every technique on real puzzles: along a solving path, no
//! application found on any state removes a solution value or places a wrong
//! digit. The path applies singles while there are any; on every state where
//! singles are stuck, all techniques are listed and checked, the simplest
//! one that fires is applied, and when nothing fires the solution value of
//! one cell is revealed.

use super::common;

use crate::grid::parse_puzzle;
use crate::human::board::Board;
use crate::human::solver::{Solved, solve};
use crate::human::techniques::{Single, Technique, find, hidden_singles, naked_singles};
use common::shared_data as data;
use rayon::prelude::*;

/// Checks one puzzle; returns (states checked, applications checked).
fn check_puzzle(line: &str) -> (usize, usize) {
    let p = parse_puzzle(line).expect("data set puzzle parses");
    let Solved::Unique(sol) = solve(&p) else {
        panic!("{line}: not unique")
    };
    let sol = sol.cells();
    let mut b = Board::new(&p);
    let (mut states, mut apps) = (0, 0);
    let mut singles: Vec<Single> = Vec::new();
    while !b.is_solved() {
        singles.clear();
        naked_singles(&b, &mut singles);
        hidden_singles(&b, &mut singles);
        if !singles.is_empty() {
            for s in &singles {
                assert_eq!(sol[s.cell], s.digit, "{line}: wrong single {s:?}");
            }
            for s in &singles {
                b.place(s.cell, s.digit);
            }
            continue;
        }
        states += 1;
        let mut applied = false;
        for t in Technique::ALL {
            let found = find(t, &b);
            for a in &found {
                apps += 1;
                assert!(!a.contradicts(sol), "{line}: unsound {t} on {:?}: {a:?}", b);
            }
            if !applied && let Some(a) = found.first() {
                assert!(a.apply(&mut b), "{t} application changed nothing");
                applied = true;
            }
        }
        if !applied {
            let cell = (0..sol.len()).find(|&c| b.value(c) == 0).unwrap();
            b.place(cell, sol[cell]);
        }
        assert!(!b.contradiction(), "{line}: board contradicts after a step");
    }
    assert_eq!(b.values(), sol);
    (states, apps)
}

#[test]
fn no_technique_contradicts_the_solution() {
    let Some(qq) = data("qqwing-generated/qqwing_levels.tsv") else {
        return;
    };
    let Some(top) = data("tdoku-benchmarks/tdoku-magictour-top1465.txt") else {
        return;
    };
    let mut lines: Vec<&str> = qq
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(4)
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    let n_qq = lines.len();
    lines.extend(top.lines().filter(|l| !l.starts_with('#')).take(250));
    let results: Vec<(usize, usize)> = lines.par_iter().map(|l| check_puzzle(l)).collect();
    let states: usize = results.iter().map(|r| r.0).sum();
    let apps: usize = results.iter().map(|r| r.1).sum();
    println!(
        "{} puzzles ({} qqwing), {states} stuck states, {apps} applications checked",
        lines.len(),
        n_qq
    );
    assert!(lines.len() >= 2000);
    assert!(states > 5_000);
    assert!(apps > 10_000);
}
