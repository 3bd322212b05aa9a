//! Property tests of the puzzle parser: formatting then parsing gives the
//! same puzzle back, in both layouts and every order; garbage never panics.

use proptest::prelude::*;
use sudolab::grid::{Puzzle, parse_puzzle, read_puzzles};

fn puzzle_strategy() -> impl Strategy<Value = Puzzle> {
    (2usize..=5).prop_flat_map(|n| {
        let side = n * n;
        prop::collection::vec(0u8..=side as u8, side * side)
            .prop_map(move |cells| Puzzle::from_cells(n, cells).unwrap())
    })
}

proptest! {
    #[test]
    fn line_round_trip(p in puzzle_strategy(), label in "[a-zA-Z0-9 .,]{0,20}") {
        let line = format!("{}\t{}", p.to_line(), label);
        let q = parse_puzzle(&line).unwrap();
        prop_assert_eq!(q.cells(), p.cells());
        let trimmed = label.trim();
        prop_assert_eq!(q.label.as_deref(), if trimmed.is_empty() { None } else { Some(trimmed) });
    }

    #[test]
    fn block_round_trip(p in puzzle_strategy()) {
        let r = read_puzzles(&p.to_block());
        prop_assert_eq!(r.len(), 1);
        let q = &r[0].as_ref().unwrap().1;
        prop_assert_eq!(q.cells(), p.cells());
    }

    #[test]
    fn garbage_never_panics(s in "\\PC{0,700}") {
        let _ = parse_puzzle(&s);
        for r in read_puzzles(&s) {
            if let Ok((_, p)) = r {
                // Whatever parsed is a well-formed grid the checks accept.
                let _ = p.check();
                prop_assert!(p.cells().len() == p.side() * p.side());
            }
        }
    }

    #[test]
    fn digit_garbage_never_panics(s in "[0-9.|+\\- \n\t]{0,400}") {
        for r in read_puzzles(&s) {
            if let Err(e) = r {
                prop_assert!(e.line >= 1);
            }
        }
    }
}
