//! The certificate check of relaxed instances (`sat::certificate`): it
//! accepts what the bitset search hands over on random relaxations, and it
//! rejects every corrupted answer (a dropped solution, a fake or repeated
//! solution, a wrong count, a flipped fixed or free cell), below the cap and
//! at it.

use crate::answers::InstanceAnalysis;
use crate::bitset::relaxed;
use crate::engine::{Engine, check_certificate};
use crate::graph::{RelaxedInstance, derive_seed};
use crate::grid::{Puzzle, parse_puzzle};
use crate::sat::certificate::{CertificateFault, check_relaxed_certificate};

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const HARD: &str =
    "..5..........9........1.53.....3..7..68......3..85.1.2.....36.9..958..2.23.16....";

fn sample(p: &Puzzle, k: usize, i: u64) -> RelaxedInstance {
    let mut removed = RelaxedInstance::shuffled_edges(3, derive_seed(7, i));
    removed.truncate(k);
    removed.sort_unstable();
    RelaxedInstance::new(p, &removed).unwrap()
}

/// The first sample of `p` at `k` whose exact count lies in `range`, with
/// its analysis and every solution.
fn find(
    p: &Puzzle,
    k: usize,
    range: std::ops::Range<u64>,
) -> (RelaxedInstance, InstanceAnalysis, Vec<Vec<u8>>) {
    for i in 0..500 {
        let r = sample(p, k, i);
        let (a, s) = relaxed::analyze_with_solutions(&r, 0);
        if range.contains(&a.count.solutions) && !a.fixed.is_empty() {
            return (r, a, s);
        }
    }
    panic!("no sample with a count in {range:?}");
}

#[test]
fn accepts_the_bitset_answers_on_600_relaxations_capped_or_not() {
    let mut capped = 0;
    let mut exact_multi = 0;
    for (line, k) in [(EASY, 30), (EASY, 45), (HARD, 45)] {
        let p = parse_puzzle(line).unwrap();
        for i in 0..200 {
            let r = sample(&p, k, i);
            let (a, s) = relaxed::analyze_with_solutions(&r, 100);
            let checked = check_relaxed_certificate(&r, 100, &a, &s)
                .unwrap_or_else(|f| panic!("{line} k {k} sample {i}: {f}"));
            assert_eq!(
                checked.solutions as u64,
                a.count.solutions.min(s.len() as u64)
            );
            capped += a.count.capped as usize;
            exact_multi += (!a.count.capped && a.count.solutions > 1) as usize;
        }
    }
    // Both branches of the check ran many times.
    assert!(capped > 50 && exact_multi > 50, "{capped} {exact_multi}");
}

#[test]
fn below_the_cap_a_dropped_solution_is_found_by_the_solver() {
    let p = parse_puzzle(EASY).unwrap();
    let (r, mut a, mut s) = find(&p, 45, 3..100);
    let dropped = s.remove(1);
    a.count.solutions -= 1;
    match check_relaxed_certificate(&r, 1000, &a, &s) {
        Err(CertificateFault::MissedSolution(found)) => {
            let line: String = dropped.iter().map(|&d| char::from(b'0' + d)).collect();
            // The only solution outside the list is the dropped one.
            assert_eq!(found, line);
        }
        other => panic!("{other:?}"),
    }
}

/// Drops each solution of `r` in turn from its full list: the checker must
/// find exactly the dropped one. So every solution satisfies the checker's
/// encoding, its unit clauses included (a clause that some solution breaks
/// would hide that solution). Returns the solutions tried.
fn every_drop_is_caught(r: &RelaxedInstance, what: &str) -> usize {
    let (a, s) = relaxed::analyze_with_solutions(r, 0);
    for i in 0..s.len() {
        let mut listed = s.clone();
        let dropped = listed.remove(i);
        let mut claim = a.clone();
        claim.count.solutions -= 1;
        match check_relaxed_certificate(r, 0, &claim, &listed) {
            Err(CertificateFault::MissedSolution(found)) => {
                let line: String = dropped.iter().map(|&d| char::from(b'0' + d)).collect();
                assert_eq!(found, line, "{what}, solution {i}");
            }
            other => panic!("{what}, solution {i} dropped: {other:?}"),
        }
    }
    s.len()
}

#[test]
fn every_solution_satisfies_the_checkers_unit_clauses() {
    // 9×9 at k = 45 to 75 (2 to 40 solutions), where a unit holds several
    // removed edges, with ends given or not.
    let mut tried = 0;
    for (line, k) in [(EASY, 45), (HARD, 45), (EASY, 60), (HARD, 60), (EASY, 75)] {
        let p = parse_puzzle(line).unwrap();
        let mut instances = 0;
        for i in 0..400 {
            let r = sample(&p, k, i);
            let n = relaxed::count(&r, 41).solutions;
            if (2..=40).contains(&n) {
                tried += every_drop_is_caught(&r, &format!("{line} k {k} sample {i}"));
                instances += 1;
                if instances == 6 {
                    break;
                }
            }
        }
        assert!(
            instances >= 3,
            "k {k}: {instances} instances with 2 to 40 solutions"
        );
    }
    // 4×4 with every edge between two givens removed, givens clashing or
    // not: a removed edge between equal givens makes its units' digit
    // clauses vacuous, one between different givens can never merge.
    let grids = [
        // Two 1s in the first row, at the ends of a removed edge.
        "1.1......3......",
        "12...3.1.......4",
        "1..2.2..3..1....",
        "................",
    ];
    let g = crate::Geometry::of(2);
    for (n, line) in grids.iter().enumerate() {
        let p = parse_puzzle(line).unwrap();
        let given: Vec<(usize, usize)> = g
            .edges()
            .iter()
            .copied()
            .filter(|&(a, b)| p.is_given(a) && p.is_given(b))
            .collect();
        for i in 0..30u64 {
            let mut removed = RelaxedInstance::shuffled_edges(2, derive_seed(n as u64, i));
            removed.truncate(6 + i as usize);
            removed.extend(&given);
            removed.sort_unstable();
            removed.dedup();
            let r = RelaxedInstance::new(&p, &removed).unwrap();
            if relaxed::count(&r, 400).solutions < 400 {
                tried += every_drop_is_caught(&r, &format!("4×4 {line} sample {i}"));
            }
        }
    }
    assert!(tried > 300, "{tried} solutions dropped");
}

#[test]
fn below_the_cap_a_wrong_count_is_caught() {
    let p = parse_puzzle(EASY).unwrap();
    let (r, a, s) = find(&p, 45, 3..100);
    let n = a.count.solutions;
    for claimed in [n - 1, n + 1] {
        let mut wrong = a.clone();
        wrong.count.solutions = claimed;
        assert_eq!(
            check_relaxed_certificate(&r, 1000, &wrong, &s),
            Err(CertificateFault::WrongCount {
                claimed,
                capped: false,
                distinct: n as usize
            })
        );
    }
    // A repeated solution does not count twice.
    let mut repeated = s.clone();
    repeated.push(s[0].clone());
    let mut plus_one = a.clone();
    plus_one.count.solutions += 1;
    assert!(matches!(
        check_relaxed_certificate(&r, 1000, &plus_one, &repeated),
        Err(CertificateFault::WrongCount { .. })
    ));
    // A claimed cap with fewer listed solutions.
    let mut capped = a.clone();
    capped.count.capped = true;
    assert!(matches!(
        check_relaxed_certificate(&r, n, &capped, &s[1..]),
        Err(CertificateFault::WrongCount { .. })
    ));
}

#[test]
fn a_fake_solution_is_caught() {
    let p = parse_puzzle(EASY).unwrap();
    let (r, mut a, mut s) = find(&p, 45, 3..100);
    let mut fake = s[0].clone();
    // A free cell takes the value of one of its neighbours.
    let cell = (0..81)
        .find(|&c| !p.is_given(c) && a.fixed.binary_search(&c).is_err())
        .unwrap();
    let nb = r.neighbours(cell)[0];
    fake[cell] = fake[nb];
    s.push(fake);
    a.count.solutions += 1;
    match check_relaxed_certificate(&r, 1000, &a, &s) {
        Err(CertificateFault::InvalidSolution { index, why }) => {
            assert_eq!(index, s.len() - 1);
            assert!(why.contains("both hold"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // A changed given is caught too.
    let mut s2 = s[..s.len() - 1].to_vec();
    let g = (0..81).find(|&c| p.is_given(c)).unwrap();
    s2[0][g] = s2[0][g] % 9 + 1;
    a.count.solutions -= 1;
    assert!(matches!(
        check_relaxed_certificate(&r, 1000, &a, &s2),
        Err(CertificateFault::InvalidSolution { index: 0, .. })
    ));
}

#[test]
fn flipped_fixed_and_free_cells_are_caught_below_the_cap_and_at_it() {
    let p = parse_puzzle(EASY).unwrap();
    let (r, a, s) = find(&p, 45, 3..100);
    let fixed = a.fixed[0];
    let free = (0..81)
        .find(|&c| !p.is_given(c) && a.fixed.binary_search(&c).is_err())
        .unwrap();
    // Below the cap.
    let mut lost = a.clone();
    lost.fixed.retain(|&c| c != fixed);
    assert_eq!(
        check_relaxed_certificate(&r, 1000, &lost, &s),
        Err(CertificateFault::NotFree {
            cell: fixed,
            value: s[0][fixed]
        })
    );
    let mut added = a.clone();
    added.fixed.push(free);
    added.fixed.sort_unstable();
    assert!(matches!(
        check_relaxed_certificate(&r, 1000, &added, &s),
        Err(CertificateFault::NotFixed { cell, .. }) if cell == free
    ));
    // At the cap (two listed solutions): the solver proves the fixed cells
    // and finds a witness for free cells on which the list agrees.
    let cap = 2;
    let (ca, cs) = relaxed::analyze_with_solutions(&r, cap);
    assert!(ca.count.capped);
    assert_eq!(ca.fixed, a.fixed);
    assert!(
        check_relaxed_certificate(&r, cap, &ca, &cs)
            .unwrap()
            .solver_calls
            >= ca.fixed.len()
    );
    let mut lost = ca.clone();
    lost.fixed.retain(|&c| c != fixed);
    assert_eq!(
        check_relaxed_certificate(&r, cap, &lost, &cs),
        Err(CertificateFault::NotFree {
            cell: fixed,
            value: cs[0][fixed]
        })
    );
    // A free cell on which the two listed solutions agree, claimed fixed:
    // only the solver can refute it.
    let agreeing = (0..81)
        .find(|&c| !p.is_given(c) && ca.fixed.binary_search(&c).is_err() && cs[0][c] == cs[1][c])
        .unwrap();
    let mut added = ca.clone();
    added.fixed.push(agreeing);
    added.fixed.sort_unstable();
    match check_relaxed_certificate(&r, cap, &added, &cs) {
        Err(CertificateFault::NotFixed { cell, a, b }) => {
            assert_eq!(cell, agreeing);
            assert_ne!(a, b);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_failed_certificate_is_a_disagreement_of_bitset_and_sat() {
    let p = parse_puzzle(EASY).unwrap();
    let (r, mut a, mut s) = find(&p, 45, 3..100);
    assert_eq!(check_certificate(&r, 1000, a.clone(), &s), Ok(a.clone()));
    s.pop();
    a.count.solutions -= 1;
    let d = check_certificate(&r, 1000, a, &s).unwrap_err();
    assert_eq!(d.answers[0].0, Engine::Bitset);
    assert_eq!(d.answers[1].0, Engine::Sat);
    assert!(d.answers[1].1.contains("missing"), "{}", d.answers[1].1);
    assert!(d.what.contains("removing"), "{}", d.what);
}
