//! Serate's aligned pair and triplet exclusions
//! ([`crate::se::aligned`], Sudoku Explainer 1.2.1.3's 6.2 and
//! 7.5 rules): SE's ratings and names, SE's own first hint on board states
//! of its solving paths, soundness on many board states of training
//! puzzles, and puzzles SE 1.2.1.3 rates by these rules.

use super::common::shared_data as data;
use crate::grid::parse_puzzle;
use crate::human::board::Board;
use crate::human::solver::{Solved, solve};
use crate::se::aligned::{AlignedExclusion, Degree, all, first};
use crate::se::producers::{State, classic_producers};
use crate::se::work::Work;
use crate::se::{SeRule, serate};
use rayon::prelude::*;

/// A board written as SE's candidate state: 81 comma-separated cells, each
/// `=v` for a placed value or its candidate digits.
fn se_state(text: &str) -> Board {
    let cells: Vec<&str> = text.split(',').collect();
    assert_eq!(cells.len(), 81, "{text}");
    let line: String = cells
        .iter()
        .map(|c| {
            c.strip_prefix('=')
                .map_or('.', |v| v.chars().next().unwrap_or('.'))
        })
        .collect();
    let mut board = Board::new(&parse_puzzle(&line).unwrap());
    for (cell, c) in cells.iter().enumerate() {
        if !c.starts_with('=') {
            let mask = c.bytes().fold(0u32, |m, b| m | 1 << (b - b'0'));
            board.restrict(cell, mask);
            assert_eq!(board.cands(cell), mask, "cell {cell} of {text}");
        }
    }
    board
}

/// SE's removals written as `cell-digit` items, ascending.
fn removals_text(x: Option<&AlignedExclusion>) -> String {
    let Some(x) = x else {
        return "none".to_string();
    };
    let mut items: Vec<(usize, u8)> = x
        .removals
        .iter()
        .flat_map(|&(c, m)| crate::util::bits(m).map(move |d| (c, d)))
        .collect();
    items.sort_unstable();
    items
        .iter()
        .map(|(c, d)| format!("{c}-{d}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn ratings_and_names_are_ses() {
    assert_eq!(SeRule::AlignedPairExclusion.tenths(), 62);
    assert_eq!(SeRule::AlignedTripletExclusion.tenths(), 75);
    assert_eq!(Degree::Pair.rule(), SeRule::AlignedPairExclusion);
    assert_eq!(Degree::Triplet.rule(), SeRule::AlignedTripletExclusion);
    assert_eq!(
        SeRule::AlignedPairExclusion.name(),
        "Aligned Pair Exclusion"
    );
    assert_eq!(
        SeRule::AlignedTripletExclusion.name(),
        "Aligned Triplet Exclusion"
    );
}

/// Board states where SE 1.2.1.3's solver ran its aligned pair (`Q2`) or
/// triplet (`Q3`) producer on the paths of training 17-clue puzzles, each
/// with the removals of SE's first hint (`none` when it found none),
/// written by a step printer over SE's `Solver`: our first exclusion
/// removes the same candidates. (All 5,249 such states of 1,328 puzzles
/// agreed; the fixture keeps every state with a hint and a sample of the
/// others.)
#[test]
fn first_exclusion_is_ses_first_hint() {
    let text = include_str!("../../tests/fixtures/se1213_aligned_states.txt");
    let (mut found, mut none) = ([0usize; 2], [0usize; 2]);
    for line in text.lines().filter(|l| l.starts_with('Q')) {
        let (degree, i) = if line.starts_with("Q2") {
            (Degree::Pair, 0)
        } else {
            (Degree::Triplet, 1)
        };
        let (state, se) = line[3..].split_once('\t').unwrap();
        let board = se_state(state);
        let ours = first(&board, degree);
        assert_eq!(removals_text(ours.as_ref()), se, "{degree:?} on {state}");
        if ours.is_some() {
            found[i] += 1;
        } else {
            none[i] += 1;
        }
    }
    assert_eq!((found, none), ([18, 8], [50, 29]));
}

/// Every aligned exclusion of both degrees on `board`, each checked
/// against `sol`; adds how many to `checked`.
fn check_all(line: &str, board: &Board, sol: &[u8], checked: &mut [usize; 2]) {
    for (i, degree) in [Degree::Pair, Degree::Triplet].into_iter().enumerate() {
        for x in all(board, degree) {
            assert!(!x.contradicts(sol), "{line}: {degree:?} {x:?} on {board:?}");
            checked[i] += 1;
        }
    }
}

/// Runs SE's producers below the chains on the puzzle's board, checking
/// every aligned pair and triplet exclusion against the solution on each
/// board where no single applies; where the producers are stuck, applies
/// the first exclusion (pair before triplet) or, when there is none,
/// places the solution's digit in the first empty cell, and goes on.
/// Returns how many exclusions of each degree it checked.
fn check_along_path(line: &str) -> [usize; 2] {
    let p = parse_puzzle(line).unwrap();
    let Solved::Unique(sol) = solve(&p) else {
        panic!("{line}: not unique")
    };
    let sol = sol.cells();
    let mut board = Board::new(&p);
    let work = Work::unlimited();
    let mut checked = [0; 2];
    'path: while !board.is_solved() {
        let state = State::new(&work);
        for producer in classic_producers() {
            if let Ok(Some(h)) = producer.hint(&board, &state) {
                if !matches!(producer.name(), "HiddenSingle" | "NakedSingle") {
                    check_all(line, &board, sol, &mut checked);
                }
                h.apply(&mut board);
                continue 'path;
            }
        }
        check_all(line, &board, sol, &mut checked);
        if let Some(x) = first(&board, Degree::Pair).or_else(|| first(&board, Degree::Triplet)) {
            x.apply(&mut board);
            continue;
        }
        let Some(cell) = (0..sol.len()).find(|&c| board.value(c) == 0) else {
            break;
        };
        board.place(cell, sol[cell]);
    }
    checked
}

/// Every aligned exclusion on the boards along the paths of the training
/// 17-clue puzzles that need more than the catalogue (published rating
/// 6.5 or more, the first 400) removes no solution value. (On the stuck
/// boards alone there were 0 pair and 42 triplet exclusions: the
/// producers leave few.)
#[test]
fn every_aligned_exclusion_is_sound() {
    let Some(text) = data("se-ratings-17clue/royle17_ser_train.tsv") else {
        return;
    };
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (p, er) = l.split_once('\t')?;
            (er.trim().parse::<f64>().ok()? >= 6.5).then_some(p)
        })
        .take(400)
        .collect();
    assert_eq!(lines.len(), 400);
    let checked = lines
        .par_iter()
        .map(|l| check_along_path(l))
        .reduce(|| [0; 2], |a, b| [a[0] + b[0], a[1] + b[1]]);
    eprintln!("aligned exclusions checked (pair, triplet): {checked:?}");
    assert!(checked[1] >= 42, "{checked:?}");
}

/// Puzzles whose hardest step on SE 1.2.1.3's path is an aligned
/// exclusion (`tests/fixtures/se1213_aligned_puzzles.txt`: puzzle, SE
/// 1.2.1.3's ER, the rule): ours rates them the same, with that rule the
/// hardest.
#[test]
fn aligned_exclusion_puzzles_rate_as_in_se() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/se1213_aligned_puzzles.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let (puzzle, er, rule) = (f[0], f[1].parse::<f64>().unwrap(), f[2]);
        let r = serate(&parse_puzzle(puzzle).unwrap()).unwrap();
        assert_eq!(
            (r.serate, r.hardest_rule.map(SeRule::name)),
            (er, Some(rule)),
            "{puzzle}: {}",
            r.uses_text()
        );
        n += 1;
    }
    assert!(n > 0);
}
