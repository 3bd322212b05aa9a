//! Serate on the classic Sudoku Explainer rater (SE 1.2.1.3,
//! `docs/methods.md` §3.11): its uniqueness rules (unique rectangles and
//! loops, the bivalue universal grave) and its path through the producers
//! before the chains. Real 17-clue puzzles of the training half get SE
//! 1.2.1.3's rating (equal to the published one) with the uniqueness rule
//! SE names, and SE's own hint where SE's step printer shows it; every
//! hint on the boards along the path of a thousand puzzles agrees with the
//! solution.

use super::common::shared_data as data;
use crate::grid::parse_puzzle;
use crate::human::board::Board;
use crate::human::solver::{Solved, solve};
use crate::se::producers::{State, chain_producers_below_level_3, classic_producers, first_hint};
use crate::se::uniqueness::{all_unique_loops, bivalue_universal_grave};
use crate::se::work::Work;
use crate::se::{SeHint, SeRule, serate};
use rayon::prelude::*;

/// Puzzles of `se-ratings-17clue/royle17_ser_train.tsv` whose published
/// rating SE 1.2.1.3 gives too (checked with its `serate`), each with the
/// rule of its hardest step.
#[test]
fn uniqueness_puzzles_get_ses_rating() {
    let cases = [
        (
            ".................1..2..3.4......2.....5..43...1......6..4...2...7..1.....8..6...7",
            4.5,
            "Unique rectangle type 1",
        ),
        (
            "................12..3..4..5.....5.......2..6...7...3.....7.3..8.2......16....8...",
            4.5,
            "Unique rectangle type 2",
        ),
        (
            "................12..3..4........53....4.6.7...1...........8......7...4...8.21...9",
            4.5,
            "Unique rectangle type 3",
        ),
        (
            "................12..3..4.........3.5......46..2..7........1......4...6.3.7.82....",
            4.5,
            "Unique rectangle type 4",
        ),
        // Type 3 with a naked pair: 4.5 + 0.1.
        (
            "..............1..2..3.4..5........6......5.3.12...7.......6.....8.93....4.......8",
            4.6,
            "Unique rectangle type 3",
        ),
        (
            "................12..3..4........54...6....3..71...........6......2.1......48..5.3",
            4.6,
            "Unique loop type 1",
        ),
        (
            "................12..3..4...........1....2...5.46..7......3.6.4..5...86..2........",
            4.6,
            "Unique loop type 2",
        ),
        (
            "................12..3.45.........4.3.1.......6..7........1..5....4...8..7..26....",
            4.6,
            "Unique loop type 4",
        ),
        (
            "........1.....2.....3....45....4.....31.......6......7...51....4.....28.8....6...",
            4.7,
            "Unique loop 8 type 1",
        ),
        (
            "........1.......2...3..4........3....5.......12..6...7...8...3...9...45..6.7.....",
            4.7,
            "Unique loop 8 type 2",
        ),
        (
            "........1.......23..3..4.......5.....2.....6..7....4.....82......1.6....3.4...7..",
            5.0,
            "Unique loop 10 type 2",
        ),
        (
            ".................1..2..3.45.............51..6.7....8.....8..97...5......4.67.....",
            5.6,
            "BUG type 1",
        ),
        (
            "................12..3..4..5.....63...1......6.4...7.......8......5.1......62..7..",
            5.7,
            "BUG type 2",
        ),
        (
            "..............1..2.34....5........3.2........6...72.......3.4...1..85...8.......6",
            5.7,
            "BUG type 4",
        ),
        // Type 3 with a naked pair: 5.7 + 0.1.
        (
            "..............1..2..3....45..........56.4....7.....12......8......63.7..24.......",
            5.8,
            "BUG type 3",
        ),
    ];
    for (line, se, rule) in cases {
        let r = serate(&parse_puzzle(line).unwrap()).unwrap();
        let uses = r.uses_text();
        assert_eq!(r.serate, se, "{line}: {uses}");
        assert_eq!(
            r.hardest_rule.map(SeRule::name),
            Some(rule),
            "{line}: {uses}"
        );
    }
}

/// The cell `rXcY` (1-based) of a 9×9 grid.
fn rc(row: usize, col: usize) -> usize {
    (row - 1) * 9 + (col - 1)
}

/// SE's path (producers before the chains) up to its first uniqueness
/// step: that step's hint.
fn first_uniqueness_hint(line: &str) -> Option<SeHint> {
    let mut board = Board::new(&parse_puzzle(line).unwrap());
    let work = Work::unlimited();
    while !board.is_solved() {
        let h = first_hint(classic_producers(), &board, &State::new(&work))?;
        if matches!(h.rule, SeRule::UniqueLoop { .. } | SeRule::Bug(_)) {
            return Some(h);
        }
        h.apply(&mut board);
    }
    None
}

/// The hint SE takes, as its step printer shows it (SE's `hints` on the
/// classic peer): the same loop type, rating and removals.
#[test]
fn the_uniqueness_step_is_ses_hint() {
    let cases = [
        // "4.6, Unique Rectangle type 3 (w/Naked Pair): Cells R3C1,R1C1,
        // R1C4,R3C4 on 2, 8: r1c3<>5,7, r1c8<>7"
        (
            "..............1..2..3.4..5........6......5.3.12...7.......6.....8.93....4.......8",
            SeRule::UniqueLoop {
                cells: 4,
                loop_type: 3,
            },
            46,
            vec![(rc(1, 3), 5), (rc(1, 3), 7), (rc(1, 8), 7)],
        ),
        // "5.0, Unique Loop 10 type 2: Cells R1C2,R1C4,R9C4,R9C6,R2C6,
        // R2C7,R3C7,R3C1,R7C1,R7C2 on 5, 9: r2c3<>8, r3c5<>8"
        (
            "........1.......23..3..4.......5.....2.....6..7....4.....82......1.6....3.4...7..",
            SeRule::UniqueLoop {
                cells: 10,
                loop_type: 2,
            },
            50,
            vec![(rc(2, 3), 8), (rc(3, 5), 8)],
        ),
        // "5.8, BUG type 3 (w/Naked Pair): R1C2,R1C3,R1C7 on 8, 9: r1c9<>8"
        (
            "..............1..2..3....45..........56.4....7.....12......8......63.7..24.......",
            SeRule::Bug(3),
            58,
            vec![(rc(1, 9), 8)],
        ),
        // "5.7, BUG type 4: R1C7,R2C7 on 9: r1c7<>6, r2c7<>8"
        (
            "..............1..2.34....5........3.2........6...72.......3.4...1..85...8.......6",
            SeRule::Bug(4),
            57,
            vec![(rc(1, 7), 6), (rc(2, 7), 8)],
        ),
    ];
    for (line, rule, tenths, removals) in cases {
        let h = first_uniqueness_hint(line).unwrap_or_else(|| panic!("{line}: none"));
        let mut got = h.eliminations.clone();
        got.sort_unstable();
        let mut want = removals;
        want.sort_unstable();
        assert_eq!(
            (h.rule, h.tenths, got, h.placement),
            (rule, tenths, want, None),
            "{line}"
        );
    }
}

/// Every hint of every unique loop and the BUG hint, on every board of SE's
/// path of 1200 puzzles of the training half published at 4.5 to 7.3, and
/// every step the path takes, agree with the solution: no removal of a
/// solution value, no wrong placement. Thousands of loop hints and hundreds
/// of BUG hints are checked.
#[test]
fn uniqueness_hints_agree_with_the_solution() {
    let Some(text) = data("se-ratings-17clue/royle17_ser_train.tsv") else {
        return;
    };
    let lines: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            let p = f.next()?;
            let er: f64 = f.next()?.trim().parse().ok()?;
            (4.5..=7.3).contains(&er).then_some(p)
        })
        .take(1200)
        .collect();
    assert_eq!(lines.len(), 1200);
    let counts: Vec<[usize; 3]> = lines
        .par_iter()
        .map(|line| {
            let p = parse_puzzle(line).unwrap();
            let Solved::Unique(sol) = solve(&p) else {
                panic!("{line}: not unique")
            };
            let sol = sol.cells();
            let mut n = [0usize; 3];
            let mut board = Board::new(&p);
            let work = Work::unlimited();
            'path: while !board.is_solved() {
                for h in all_unique_loops(&board) {
                    assert!(!h.contradicts(sol), "{line}: {board:?}: {h:?}");
                    assert!(!h.eliminations.is_empty(), "{line}: {h:?}");
                    n[0] += 1;
                }
                if let Some(h) = bivalue_universal_grave(&board) {
                    assert!(!h.contradicts(sol), "{line}: {board:?}: {h:?}");
                    n[1] += 1;
                }
                let state = State::new(&work);
                if let Some(h) = first_hint(classic_producers(), &board, &state) {
                    assert!(!h.contradicts(sol), "{line}: {board:?}: {h:?}");
                    h.apply(&mut board);
                    n[2] += 1;
                    continue 'path;
                }
                let chains = chain_producers_below_level_3();
                let Some(c) = first_hint(&chains, &board, &state) else {
                    break;
                };
                assert!(!c.contradicts(sol), "{line}: {c:?}");
                c.apply(&mut board);
            }
            n
        })
        .collect();
    let total = counts
        .iter()
        .fold([0; 3], |a, n| [a[0] + n[0], a[1] + n[1], a[2] + n[2]]);
    assert!(total[0] >= 1000 && total[1] >= 100, "{total:?}");
    assert!(total[2] >= 50_000, "{total:?}");
}
