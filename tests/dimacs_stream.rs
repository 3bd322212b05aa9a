//! `cnf::write_dimacs` (DIMACS text written without building the formula,
//! from per-order literal tables and templates) gives the same bytes as
//! `cnf::encode(..).to_dimacs_bytes()` for every encoding, on thousands of
//! grids of orders 2..=4: unique puzzles, puzzles with givens removed or
//! added (contradictory ones are refused by both), with and without labels.

mod common;

use common::Rng;
use sudolab::cnf::{self, Encoding};
use sudolab::grid::Puzzle;

fn same_bytes(p: &Puzzle) {
    let mut stream = b"previous puzzle\n".to_vec();
    for e in [Encoding::Min, Encoding::Max, Encoding::LoMin] {
        let before = stream.len();
        let direct = cnf::write_dimacs(p, e, &mut stream);
        match cnf::encode(p, e) {
            Ok(c) => {
                assert!(direct.is_ok(), "{e}: {p:?}");
                assert_eq!(&stream[before..], &c.to_dimacs_bytes()[..], "{e}: {p:?}");
            }
            Err(err) => {
                assert_eq!(direct, Err(err), "{e}: {p:?}");
                assert_eq!(stream.len(), before, "nothing appended on error");
            }
        }
    }
}

#[test]
fn streamed_dimacs_equals_the_formula_text() {
    let mut rng = Rng(0xd1ac5);
    let mut n = 0;
    for (i, p) in common::fixture("unique.txt").iter().enumerate() {
        for round in 0..4 {
            let mut q = p.clone();
            for _ in 0..round * 3 {
                q.set(rng.below(81), (rng.below(10)) as u8);
            }
            if round == 3 {
                q.label = Some(format!("line {i}\tround {round}"));
            }
            same_bytes(&q);
            n += 1;
        }
    }
    for order in 2..=4 {
        let mut p = Puzzle::empty(order);
        let side = order * order;
        for _ in 0..200 {
            same_bytes(&p);
            p.set(rng.below(side * side), rng.below(side + 1) as u8);
            n += 1;
        }
    }
    assert!(n >= 1900, "{n}");
}
