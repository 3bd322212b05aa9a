//! `sudolab::Cnf::append_dimacs` (DIMACS text written without building the formula,
//! from per-order literal tables and templates, the minimal encoding's
//! clause count from its candidate masks) gives the same bytes as
//! `sudolab::encode(..).to_dimacs_bytes()` for every encoding, on thousands of
//! grids of orders 2..=4: unique puzzles, puzzles with givens removed or
//! added (contradictory ones are refused by both, with the same error), with
//! and without labels; and on solved grids of orders 2..=5 (no clause), with
//! one hole (four unit clauses) and with most givens removed. The minimal
//! encoding's clauses are also compared with a reference built from its
//! definition, since both writers share the candidate computation.

use crate::common;

use common::Rng;
use sudolab::{Contradiction, Puzzle, UnitKind, parse_puzzle};
use sudolab::{EncodeError, Encoding};

/// Checks every encoding; returns the minimal encoding's error, if any.
fn same_bytes(p: &Puzzle) -> Option<EncodeError> {
    let mut stream = b"previous puzzle\n".to_vec();
    for e in [Encoding::Min, Encoding::Max, Encoding::LoMin] {
        let before = stream.len();
        let direct = sudolab::Cnf::append_dimacs(p, e, &mut stream);
        match sudolab::encode(p, e) {
            Ok(c) => {
                assert!(direct.is_ok(), "{e}: {p:?}");
                assert_eq!(&stream[before..], &c.to_dimacs_bytes()[..], "{e}: {p:?}");
                if e == Encoding::Min {
                    assert!(c.clauses().eq(reference_min(p).iter().map(Vec::as_slice)));
                }
            }
            Err(err) => {
                assert_eq!(direct, Err(err), "{e}: {p:?}");
                assert_eq!(stream.len(), before, "nothing appended on error");
            }
        }
    }
    sudolab::encode(p, Encoding::Min).err()
}

/// The clauses of the minimal encoding of a consistent puzzle, straight
/// from its definition (candidates from `Puzzle::candidates`): per empty
/// cell, then per unit and digit with a place, an ALO clause over the
/// candidate variables and the AMO pairs of their negations.
fn reference_min(p: &Puzzle) -> Vec<Vec<i32>> {
    let g = p.geometry();
    let cand = p.candidates();
    let var = |cell: usize, d: usize| (cell * g.side + d) as i32;
    let mut clauses = Vec::new();
    let mut alo_amo = |vars: Vec<i32>| {
        let pairs: Vec<Vec<i32>> = vars
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| vars[i + 1..].iter().map(move |&b| vec![-a, -b]))
            .collect();
        clauses.push(vars);
        clauses.extend(pairs);
    };
    let empty_with = |cell: usize, d: usize| !p.is_given(cell) && cand[cell] & (1 << d) != 0;
    for cell in (0..g.cells).filter(|&c| !p.is_given(c)) {
        alo_amo(
            (1..=g.side)
                .filter(|&d| empty_with(cell, d))
                .map(|d| var(cell, d))
                .collect(),
        );
    }
    for unit in &g.units {
        for d in 1..=g.side {
            let vars: Vec<i32> = unit
                .iter()
                .filter(|&&c| empty_with(c, d))
                .map(|&c| var(c, d))
                .collect();
            if !vars.is_empty() {
                alo_amo(vars);
            }
        }
    }
    clauses
}

/// The solved grid of order `n` whose cell `(r, c)` holds
/// `((r mod n)·n + ⌊r/n⌋ + c) mod N + 1`.
fn solved(n: usize) -> Puzzle {
    let side = n * n;
    let cells = (0..side * side)
        .map(|cell| {
            let (r, c) = (cell / side, cell % side);
            (((r % n) * n + r / n + c) % side + 1) as u8
        })
        .collect();
    Puzzle::from_cells(n, cells).unwrap()
}

fn min_clauses(p: &Puzzle) -> usize {
    sudolab::encode(p, Encoding::Min).unwrap().num_clauses()
}

#[test]
fn streamed_dimacs_equals_the_formula_text() {
    let mut rng = Rng(0xd1ac5);
    let mut n = 0;
    let mut refused = std::collections::HashSet::new();
    let mut note = |e: Option<EncodeError>| {
        if let Some(EncodeError::Contradiction(c)) = e {
            refused.insert(std::mem::discriminant(&c));
        }
    };
    for (i, p) in common::fixture("unique.txt").iter().enumerate() {
        for round in 0..4 {
            let mut q = p.clone();
            for _ in 0..round * 3 {
                q.set(rng.below(81), (rng.below(10)) as u8);
            }
            if round == 3 {
                q.label = Some(format!("line {i}\tround {round}"));
            }
            note(same_bytes(&q));
            n += 1;
        }
    }
    for order in 2..=4 {
        let mut p = Puzzle::empty(order);
        let side = order * order;
        for _ in 0..200 {
            note(same_bytes(&p));
            p.set(rng.below(side * side), rng.below(side + 1) as u8);
            n += 1;
        }
    }
    assert!(n >= 1900, "{n}");
    assert_eq!(refused.len(), 3, "all three contradictions met");
}

#[test]
fn solved_grids_with_holes() {
    let mut rng = Rng(0x5017ed);
    for n in 2..=5 {
        let side = n * n;
        let mut p = solved(n);
        assert_eq!(same_bytes(&p), None);
        assert_eq!(min_clauses(&p), 0);
        let mut text = Vec::new();
        sudolab::Cnf::append_dimacs(&p, Encoding::Min, &mut text).unwrap();
        let header = format!("\np cnf {} 0\n", side * side * side);
        assert!(text.ends_with(header.as_bytes()), "{n}");
        // One hole: its cell ALO and one unit ALO per unit, each of one literal.
        p.set(side + 1, 0);
        assert_eq!(same_bytes(&p), None);
        assert_eq!(min_clauses(&p), 4);
        // Most givens gone: long ALO clauses, many AMO ones.
        for keep in [50, 20, 0] {
            let mut q = solved(n);
            for cell in 0..side * side {
                if rng.below(100) >= keep {
                    q.set(cell, 0);
                }
            }
            assert_eq!(same_bytes(&q), None, "{n} {keep}");
        }
    }
}

#[test]
fn contradictions_are_refused_alike() {
    let line = |rows: [&str; 9]| parse_puzzle(&rows.concat()).unwrap();
    let e = "........."; // an empty row
    let twice = line(["5.......5", e, e, e, e, e, e, e, e]);
    // r1c9 can only hold 9, which column 9 gives: no candidate (found before
    // the 9 that row 1 has no place for).
    let no_candidate = line(["12345678.", e, e, e, "........9", e, e, e, e]);
    // r1c8 and r1c9 can hold 2 only: 1 has no place in row 1.
    let no_place = line(["3456789..", e, e, ".......1.", e, e, "........1", e, e]);
    let contradiction = |p: &Puzzle| match same_bytes(p) {
        Some(EncodeError::Contradiction(c)) => c,
        None => panic!("{p:?} is not refused"),
    };
    assert_eq!(
        contradiction(&twice),
        Contradiction::DuplicateDigit {
            digit: 5,
            kind: UnitKind::Row,
            number: 1
        }
    );
    assert_eq!(
        contradiction(&no_candidate),
        Contradiction::NoCandidate {
            cell: "r1c9".into()
        }
    );
    assert_eq!(
        contradiction(&no_place),
        Contradiction::NoPlace {
            digit: 1,
            kind: UnitKind::Row,
            number: 1
        }
    );
    // Every order: a duplicate in row 1; r1c1's digit `a` moved right into
    // r1c2 (and emptied where column 2 had it), leaving r1c1 only `b`,
    // which column 1 gives.
    for n in 2..=5 {
        let side = n * n;
        let mut p = solved(n);
        let a = p.get(0);
        p.set(side - 1, a);
        assert_eq!(
            contradiction(&p),
            Contradiction::DuplicateDigit {
                digit: a,
                kind: UnitKind::Row,
                number: 1
            }
        );
        let mut p = solved(n);
        let a_in_column_2 = (0..side).map(|r| r * side + 1).find(|&c| p.get(c) == a);
        p.set(0, 0);
        p.set(1, a);
        p.set(a_in_column_2.unwrap(), 0);
        assert_eq!(
            contradiction(&p),
            Contradiction::NoCandidate {
                cell: "r1c1".into()
            }
        );
    }
}
