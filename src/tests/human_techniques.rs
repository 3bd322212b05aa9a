//! Each technique fires on a hand-made candidate grid built for it, reports
//! exactly the expected eliminations, and stays silent on near misses.

use crate::grid::{Puzzle, parse_puzzle};
use crate::human::board::Board;
use crate::human::solver::{Solved, solve};
use crate::human::techniques::{Application, Technique, find, possible_count};

fn rc(r: usize, c: usize) -> usize {
    (r - 1) * 9 + (c - 1)
}

fn mask(ds: &[u8]) -> u32 {
    ds.iter().fold(0, |m, &d| m | (1 << d))
}

fn empty() -> Board {
    Board::new(&Puzzle::empty(3))
}

/// Keeps only `ds` as candidates of a cell.
fn keep(b: &mut Board, cell: usize, ds: &[u8]) {
    b.restrict(cell, mask(ds));
}

/// Removes `d` from the given cells.
fn remove(b: &mut Board, cells: impl IntoIterator<Item = usize>, d: u8) {
    for c in cells {
        b.eliminate(c, d);
    }
}

fn row(r: usize) -> Vec<usize> {
    (1..=9).map(|c| rc(r, c)).collect()
}

fn sorted_elims(a: &Application) -> Vec<(usize, u8)> {
    let mut e = a.eliminations.clone();
    e.sort_unstable();
    e
}

#[test]
fn nothing_fires_on_the_empty_grid() {
    let b = empty();
    for t in Technique::ALL {
        assert!(find(t, &b).is_empty(), "{t} fired on the empty grid");
    }
}

#[test]
fn naked_single() {
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[4]);
    let apps = find(Technique::NakedSingle, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].placements, vec![(rc(1, 1), 4)]);
    let mut b2 = empty();
    keep(&mut b2, rc(1, 1), &[4, 5]);
    assert!(find(Technique::NakedSingle, &b2).is_empty());
}

#[test]
fn hidden_single() {
    let mut b = empty();
    remove(&mut b, row(3).into_iter().filter(|&c| c != rc(3, 4)), 7);
    let apps = find(Technique::HiddenSingle, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].placements, vec![(rc(3, 4), 7)]);
    assert_eq!(apps[0].units, vec![2]); // row 3
    assert!(find(Technique::NakedSingle, &b).is_empty());
    // Two places left: no single.
    let mut b = empty();
    remove(
        &mut b,
        row(3)
            .into_iter()
            .filter(|&c| c != rc(3, 4) && c != rc(3, 9)),
        7,
    );
    assert!(find(Technique::HiddenSingle, &b).is_empty());
}

#[test]
fn naked_pair() {
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2]);
    keep(&mut b, rc(1, 2), &[1, 2]);
    let apps = find(Technique::NakedPair, &b);
    // Row 1 and box 1 each give one application.
    assert_eq!(apps.len(), 2);
    let row_app = apps.iter().find(|a| a.units == vec![0]).unwrap();
    assert_eq!(row_app.eliminations.len(), 14); // 7 cells × 2 digits
    let box_app = apps.iter().find(|a| a.units == vec![18]).unwrap();
    assert_eq!(box_app.eliminations.len(), 14);
    assert!(!row_app.eliminations.contains(&(rc(1, 1), 1)));
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2]);
    keep(&mut b, rc(1, 2), &[1, 3]);
    assert!(find(Technique::NakedPair, &b).is_empty());
}

#[test]
fn naked_triple_and_quad() {
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2]);
    keep(&mut b, rc(1, 2), &[2, 3]);
    keep(&mut b, rc(1, 3), &[1, 3]);
    assert!(find(Technique::NakedPair, &b).is_empty());
    let apps = find(Technique::NakedTriple, &b);
    assert_eq!(apps.len(), 2); // row 1 and box 1
    assert!(apps.iter().all(|a| a.eliminations.len() == 18));

    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2]);
    keep(&mut b, rc(1, 5), &[2, 3]);
    keep(&mut b, rc(1, 6), &[3, 4]);
    keep(&mut b, rc(1, 9), &[1, 4]);
    assert!(find(Technique::NakedTriple, &b).is_empty());
    let apps = find(Technique::NakedQuad, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].units, vec![0]);
    assert_eq!(apps[0].eliminations.len(), 5 * 4);
    // A fifth digit breaks the quad.
    let mut near = empty();
    keep(&mut near, rc(1, 1), &[1, 2]);
    keep(&mut near, rc(1, 5), &[2, 3]);
    keep(&mut near, rc(1, 6), &[3, 4]);
    keep(&mut near, rc(1, 9), &[1, 4, 5]);
    assert!(find(Technique::NakedQuad, &near).is_empty());
}

#[test]
fn hidden_pair_triple_quad() {
    let mut b = empty();
    for d in [1, 2] {
        remove(
            &mut b,
            row(1)
                .into_iter()
                .filter(|&c| c != rc(1, 1) && c != rc(1, 2)),
            d,
        );
    }
    let apps = find(Technique::HiddenPair, &b);
    let a = apps.iter().find(|a| a.units == vec![0]).unwrap();
    assert_eq!(a.eliminations.len(), 14); // 7 other digits in 2 cells
    assert_eq!(a.digits, vec![1, 2]);
    // Digit 2 also at c3: no hidden pair in row 1.
    let mut b = empty();
    remove(
        &mut b,
        row(1)
            .into_iter()
            .filter(|&c| c != rc(1, 1) && c != rc(1, 2)),
        1,
    );
    remove(
        &mut b,
        row(1)
            .into_iter()
            .filter(|&c| c != rc(1, 1) && c != rc(1, 2) && c != rc(1, 3)),
        2,
    );
    assert!(
        find(Technique::HiddenPair, &b)
            .iter()
            .all(|a| a.units != vec![0])
    );

    let mut b = empty();
    let spots = [rc(1, 1), rc(1, 5), rc(1, 9)];
    for d in [1, 2, 3] {
        remove(&mut b, row(1).into_iter().filter(|c| !spots.contains(c)), d);
    }
    b.eliminate(rc(1, 1), 3); // digit 3 only at c5, c9
    assert!(find(Technique::HiddenPair, &b).is_empty());
    let apps = find(Technique::HiddenTriple, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].eliminations.len(), 6 + 6 + 6);

    let mut b = empty();
    let spots = [rc(1, 1), rc(1, 3), rc(1, 5), rc(1, 9)];
    for d in [1, 2, 3, 4] {
        remove(&mut b, row(1).into_iter().filter(|c| !spots.contains(c)), d);
    }
    let apps = find(Technique::HiddenQuad, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].eliminations.len(), 4 * 5);
    assert!(find(Technique::HiddenTriple, &b).is_empty());
}

#[test]
fn pointing_and_claiming() {
    let mut b = empty();
    // Digit 3 of box 1 only in row 1.
    remove(
        &mut b,
        [rc(2, 1), rc(2, 2), rc(2, 3), rc(3, 1), rc(3, 2), rc(3, 3)],
        3,
    );
    let apps = find(Technique::Pointing, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].units, vec![18, 0]);
    assert_eq!(
        sorted_elims(&apps[0]),
        (4..=9).map(|c| (rc(1, c), 3)).collect::<Vec<_>>()
    );
    assert!(find(Technique::Claiming, &b).is_empty());

    let mut b = empty();
    // Digit 3 of row 1 only in box 1.
    remove(&mut b, (4..=9).map(|c| rc(1, c)), 3);
    let apps = find(Technique::Claiming, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].eliminations.len(), 6);
    assert!(find(Technique::Pointing, &b).is_empty());
}

fn only_in_row(b: &mut Board, r: usize, cols: &[usize], d: u8) {
    remove(
        b,
        (1..=9).filter(|c| !cols.contains(c)).map(|c| rc(r, c)),
        d,
    );
}

#[test]
fn x_wing_swordfish_jellyfish() {
    let mut b = empty();
    only_in_row(&mut b, 1, &[2, 7], 5);
    only_in_row(&mut b, 5, &[2, 7], 5);
    let apps = find(Technique::XWing, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].eliminations.len(), 14); // 7 rows × 2 columns
    assert!(
        apps[0]
            .eliminations
            .iter()
            .all(|&(c, d)| d == 5 && (c % 9 == 1 || c % 9 == 6))
    );
    let mut near = empty();
    only_in_row(&mut near, 1, &[2, 7], 5);
    only_in_row(&mut near, 5, &[2, 8], 5);
    assert!(find(Technique::XWing, &near).is_empty());

    let mut b = empty();
    only_in_row(&mut b, 1, &[2, 7], 5);
    only_in_row(&mut b, 5, &[2, 4], 5);
    only_in_row(&mut b, 9, &[4, 7], 5);
    assert!(find(Technique::XWing, &b).is_empty());
    let apps = find(Technique::Swordfish, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].eliminations.len(), 18);
    assert_eq!(apps[0].cells.len(), 6);

    let mut b = empty();
    only_in_row(&mut b, 1, &[1, 4], 6);
    only_in_row(&mut b, 3, &[4, 6], 6);
    only_in_row(&mut b, 5, &[6, 8], 6);
    only_in_row(&mut b, 9, &[1, 8], 6);
    assert!(find(Technique::Swordfish, &b).is_empty());
    let apps = find(Technique::Jellyfish, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].eliminations.len(), 20);
    only_in_row(&mut b, 9, &[1, 9], 6);
    assert!(find(Technique::Jellyfish, &b).is_empty());
}

#[test]
fn xy_wing() {
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2]);
    keep(&mut b, rc(1, 5), &[1, 3]);
    keep(&mut b, rc(5, 1), &[2, 3]);
    let apps = find(Technique::XyWing, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(apps[0].eliminations, vec![(rc(5, 5), 3)]);
    assert_eq!(apps[0].cells, vec![rc(1, 1), rc(1, 5), rc(5, 1)]);
    // Wings ending in different digits: nothing.
    let mut near = empty();
    keep(&mut near, rc(1, 1), &[1, 2]);
    keep(&mut near, rc(1, 5), &[1, 3]);
    keep(&mut near, rc(5, 1), &[2, 4]);
    assert!(find(Technique::XyWing, &near).is_empty());
}

#[test]
fn xyz_wing() {
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2, 3]);
    keep(&mut b, rc(1, 2), &[1, 3]);
    keep(&mut b, rc(4, 1), &[2, 3]);
    let apps = find(Technique::XyzWing, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(sorted_elims(&apps[0]), vec![(rc(2, 1), 3), (rc(3, 1), 3)]);
    let mut near = empty();
    keep(&mut near, rc(1, 1), &[1, 2, 3]);
    keep(&mut near, rc(1, 2), &[1, 3]);
    keep(&mut near, rc(4, 1), &[2, 4]);
    assert!(find(Technique::XyzWing, &near).is_empty());
}

#[test]
fn wxyz_wing() {
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2, 4]);
    keep(&mut b, rc(1, 2), &[1, 4]);
    keep(&mut b, rc(1, 3), &[2, 4]);
    keep(&mut b, rc(4, 1), &[3, 4]);
    let apps = find(Technique::WxyzWing, &b);
    assert_eq!(apps.len(), 1);
    assert_eq!(sorted_elims(&apps[0]), vec![(rc(2, 1), 4), (rc(3, 1), 4)]);
    // Digit 3 in two cells that do not see each other: two loose digits.
    let mut near = empty();
    keep(&mut near, rc(1, 1), &[1, 2, 4]);
    keep(&mut near, rc(1, 2), &[1, 3, 4]);
    keep(&mut near, rc(1, 3), &[2, 4]);
    keep(&mut near, rc(4, 1), &[3, 4]);
    assert!(find(Technique::WxyzWing, &near).is_empty());
}

#[test]
fn forcing_chain_on_a_contradiction_and_on_a_hard_puzzle() {
    let mut b = empty();
    keep(&mut b, rc(1, 1), &[1, 2]);
    keep(&mut b, rc(1, 2), &[1, 3]);
    keep(&mut b, rc(1, 3), &[1, 3]);
    // r1c1 = 1 leaves r1c2, r1c3 both {3}: contradiction, so r1c1 = 2.
    let apps = find(Technique::ForcingChain, &b);
    let a = apps
        .iter()
        .find(|a| a.placements == vec![(rc(1, 1), 2)] && a.cells == vec![rc(1, 1)])
        .expect("the chain from r1c1 fires");
    assert_eq!(a.note.as_deref(), Some("r1c1 = 1 leads to a contradiction"));

    // Golden Nugget: nothing below forcing chains works at the start, and
    // every chain conclusion agrees with the solution.
    let p = parse_puzzle(
        ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
    )
    .unwrap();
    let Solved::Unique(sol) = solve(&p) else {
        panic!("Golden Nugget should be unique")
    };
    let b = Board::new(&p);
    let apps = find(Technique::ForcingChain, &b);
    assert!(apps.iter().all(|a| !a.contradicts(sol.cells())));
    assert!(possible_count(Technique::ForcingChain, &b) > 0);
}

#[test]
fn possible_counts_are_at_least_the_valid_ones() {
    let p = parse_puzzle(
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    )
    .unwrap();
    let b = Board::new(&p);
    let p = &p;
    for t in Technique::ALL {
        let v = find(t, &b).len();
        let pc = possible_count(t, &b);
        assert!(pc >= v, "{t}: p={pc} v={v}");
    }
    assert_eq!(possible_count(Technique::NakedSingle, &b), 81 - p.givens());
}

/// Sukaku Explainer's rating (ER) of puzzles of `se-ratings-sukakuexplainer`,
/// each with the hardest technique SE named, beside ours.
#[test]
fn serate_gives_ses_rating_on_se_rated_puzzles() {
    use crate::se::serate;
    let cases = [
        // Hidden singles in boxes only.
        (
            "158....27..78254..2..371.....51..8.38..4.26.5.64.87.....3....62.7..14.3.6.1.9..5.",
            1.2,
        ),
        // A hidden single in a row or column is needed.
        (
            "2...5..9..746...15....7....7.2..51..6.......3..91..6.7....4....39...648..8..2...6",
            1.5,
        ),
        // Direct pointing.
        (
            "......8.4.72....1.51.7....3..3...2......19.8....35.1...4..9.....2.5..7......38...",
            1.7,
        ),
        // Direct hidden pair.
        (
            ".39...1.2.......6.2.8..6.59.....2.....29....5....85..7..6.3.9.47......8....47....",
            2.0,
        ),
        // Naked single.
        (
            "....5..3....7.4...1..3...49...49.281.3258.9...........965.................72.....",
            2.3,
        ),
        // Direct hidden triplet.
        (
            ".3.8..64.........216...7...........5.2...81..4...5..3....9.2...9.....824...14...7",
            2.5,
        ),
        // Pointing.
        (
            ".....38.7..38....9...9.1.....25.9...1.7..2..4.9.1....6......46...1.....874....2.1",
            2.6,
        ),
        // Claiming.
        (
            ".......8.94...7.....5....1..1.2.8.4....6..7..7.......912.9..........5....741....6",
            2.8,
        ),
        // A direct hidden pair places its single only, as SE's does: the
        // pair's removals wait, and a plain hidden pair is needed later.
        (
            "..5...8...3.2.1.9.2...9...3.6.7.5.8...3...2...4.1.3.7.8...7...2.2.6.4.1...6...5..",
            3.4,
        ),
        // Forcing chain (SE: 7.0 plus two length steps).
        (
            "....6..2..2.7.5.3..58..49....7...6..5..1.6..2..3...8....14..76..4.5.7.8..7..1....",
            7.2,
        ),
    ];
    for (line, se) in cases {
        let r = serate(&parse_puzzle(line).unwrap()).unwrap();
        assert_eq!(r.serate, se, "{line}: {}", r.uses_text());
    }
}

/// Every chain conclusion is rated SE's base rating of its kind plus SE's
/// length increment, so within a kind a longer chain never rates lower; the
/// stuck boards of hard puzzles hold chains of several kinds and lengths.
#[test]
fn chain_ratings_grow_with_length() {
    use crate::human::path::simplest_path;
    use crate::se::chain::length_increment_tenths;
    use crate::se::chains::rated_chains;
    use crate::se::work::{Search, Work};
    use std::collections::BTreeMap;
    let hard = [
        "....6..2..2.7.5.3..58..49....7...6..5..1.6..2..3...8....14..76..4.5.7.8..7..1....",
        "3..56..7.96...........97..3..9..12...7.....5...52..9..4..13...........86.5..89..1",
        ".237....68...6.59.9.....7......4.97.3.7.96..2.........5..47.........2....8.......",
        ".....3...8..2..67..6.......51...2.4.......3..47.5....87..4..8....2.1....6..3..4.5",
    ];
    let before_chains: Vec<Technique> = Technique::ALL
        .into_iter()
        .filter(|&t| t != Technique::ForcingChain)
        .collect();
    let mut by_kind: BTreeMap<_, Vec<(usize, u32)>> = BTreeMap::new();
    for line in hard {
        let stuck = simplest_path(&parse_puzzle(line).unwrap(), &before_chains).end;
        let work = Work::unlimited();
        for c in rated_chains(&stuck, &Search::new(&work)) {
            assert_eq!(
                c.tenths,
                c.kind.base_tenths() + length_increment_tenths(c.nodes)
            );
            by_kind.entry(c.kind).or_default().push((c.nodes, c.tenths));
        }
    }
    assert!(by_kind.len() >= 2, "{by_kind:?}");
    let mut spread_kinds = 0;
    for chains in by_kind.values_mut() {
        chains.sort();
        assert!(chains.windows(2).all(|w| w[0].1 <= w[1].1));
        let (shortest, longest) = (chains[0], chains[chains.len() - 1]);
        if longest.0 > shortest.0 + 8 {
            assert!(longest.1 > shortest.1, "{shortest:?} {longest:?}");
            spread_kinds += 1;
        }
    }
    assert!(spread_kinds >= 1, "{by_kind:?}");
}
