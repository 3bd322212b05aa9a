//! The weights level and the canonical form (moved from `tests/levels.rs`:
//! it calls the weights model directly).

use crate::parse_puzzle;

const PUZZLES: [&str; 2] = [
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
];

/// The puzzle written with rows and columns swapped.
fn transposed(p: &str) -> String {
    let cells: Vec<char> = p.chars().collect();
    (0..81).map(|i| cells[(i % 9) * 9 + i / 9]).collect()
}

/// Xu & Xu's technique-weight rating follows the simplest-first path, which
/// takes the first application in scan order (`docs/methods.md` §3.5): the
/// path, and so the score and sometimes the level, depend on how the puzzle
/// is written down. This transposition moves the score from 93 (Hard) to
/// 105 (Challenging). Rating the canonical form (`sudolab canon`) gives
/// every written form one score and one level.
#[test]
fn weights_level_depends_on_the_scan_order_but_not_on_the_canonical_form() {
    use crate::human::weights::weights;
    let p = "2.1.6.........78......1..56.75..6......324......7..41.59..3......68.........7.2.8";
    let level = |s: &str| {
        let w = weights(&parse_puzzle(s).unwrap()).unwrap();
        (w.score, w.level.map(|l| l.name()))
    };
    assert_eq!(level(p), (93, Some("Hard")));
    assert_eq!(level(&transposed(p)), (105, Some("Challenging")));
    // Relabelled (1 ↔ 9, 2 ↔ 8, …) and transposed forms of a few puzzles:
    // their canonical forms rate alike.
    let relabelled = |s: &str| -> String {
        s.chars()
            .map(|c| match c.to_digit(10) {
                Some(d) if d > 0 => char::from_digit(10 - d, 10).unwrap(),
                _ => c,
            })
            .collect()
    };
    let other = "......2.6...37.8...7...213.4..1..79....6.7....17..4..2.365...8...1.46...7.5......";
    for q in [p, PUZZLES[0], other] {
        let canon = |s: &str| parse_puzzle(s).unwrap().canonical().unwrap().to_line();
        let reference = level(&canon(q));
        assert_eq!(level(&canon(&transposed(q))), reference, "{q}");
        assert_eq!(level(&canon(&relabelled(q))), reference, "{q}");
    }
}
