//! Pencilmark input (`docs/methods.md` §0.1): the 729-character and the
//! 81-cell forms read to the same candidates; the engines count and solve
//! candidate-restricted grids alike (random grids made by removing random
//! non-solution candidates from real puzzles and from puzzles thinned to
//! many solutions); every encoding of such a grid has exactly the grid's
//! solutions, for our SAT engine and for the external solvers.

use super::common::{self, Rng};
use crate::cnf::{Encoding, encode};
use crate::grid::{ParseErrorKind, Puzzle, Solution, parse_puzzle, read_puzzles};

/// The pencilmark puzzle of `p`'s candidates (from its givens), with each
/// candidate other than `keep`'s value removed with probability `removed`
/// in 1000.
pub(super) fn pencilled(p: &Puzzle, keep: &Solution, removed: usize, rng: &mut Rng) -> Puzzle {
    let marks = p
        .candidates()
        .iter()
        .enumerate()
        .map(|(cell, &m)| {
            let own = 1u32 << keep.get(cell);
            let others = crate::util::bits(m & !own).fold(0, |acc, d| {
                if rng.below(1000) < removed {
                    acc
                } else {
                    acc | 1 << d
                }
            });
            own | others
        })
        .collect();
    Puzzle::from_pencilmarks(3, marks).expect("every cell keeps its solution's digit")
}

/// `p` with its givens thinned to `keep` of them (many solutions).
pub(super) fn thinned(p: &Puzzle, keep: usize, rng: &mut Rng) -> Puzzle {
    let mut q = p.clone();
    let mut given: Vec<usize> = (0..81).filter(|&c| p.is_given(c)).collect();
    while given.len() > keep {
        let c = given.swap_remove(rng.below(given.len()));
        q.set(c, 0);
    }
    q
}

#[test]
fn the_729_and_81_cell_forms_read_the_same_candidates() {
    let p = &common::fixture("unique.txt")[0];
    let mut rng = Rng(7);
    let sol = crate::bitset::sudoku::solve(p).unwrap();
    let q = pencilled(p, &sol, 400, &mut rng);
    let line = q.to_line();
    assert_eq!(line.len(), 729);
    assert_eq!(parse_puzzle(&line).unwrap(), q);
    // With a label, and with `0` for an absent candidate.
    let zeros = line.replace('.', "0");
    let labelled = parse_puzzle(&format!("{zeros}  a label")).unwrap();
    assert_eq!(labelled.pencilmarks(), q.pencilmarks());
    assert_eq!(labelled.label.as_deref(), Some("a label"));
    // 81 cells on one line, and the 9-line layout `to_block` writes.
    let words: Vec<String> = q
        .pencilmarks()
        .unwrap()
        .iter()
        .map(|&m| crate::util::bits(m).map(|d| (b'0' + d) as char).collect())
        .collect();
    assert_eq!(parse_puzzle(&words.join(" ")).unwrap(), q);
    let block = q.to_block();
    let read: Vec<_> = read_puzzles(&format!("# a grid\n{block}\n{line}\n"))
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(read.len(), 2);
    assert_eq!((read[0].0, &read[0].1), (2, &q));
    assert_eq!((read[1].0, &read[1].1), (14, &q));
}

#[test]
fn hodoku_layout_reads_with_its_separators() {
    // HoDoKu's "print candidates" layout of the Figure 3 puzzle's first
    // band and a grid whose first row holds singles only.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let sol = Solution::from_cells(3, solved.bytes().map(|b| b - b'0').collect()).unwrap();
    let mut marks: Vec<u32> = sol.cells().iter().map(|&v| 1u32 << v).collect();
    marks[9] |= 1 << 1; // r2c1: 6 or 1
    marks[13] |= 1 << 6; // r2c5: 9 or 6
    let q = Puzzle::from_pencilmarks(3, marks).unwrap();
    let rows: Vec<String> = (0..9)
        .map(|r| {
            let cells: Vec<String> = (0..9)
                .map(|c| {
                    let m = q.pencilmarks().unwrap()[r * 9 + c];
                    crate::util::bits(m).map(|d| (b'0' + d) as char).collect()
                })
                .collect();
            format!(
                "| {} | {} | {} |",
                cells[..3].join(" "),
                cells[3..6].join(" "),
                cells[6..].join(" ")
            )
        })
        .collect();
    let text = format!(
        ".-------.-------.-------.\n{}\n{}\n{}\n:-------+-------+-------:\n{}\n{}\n{}\n:-------+-------+-------:\n{}\n{}\n{}\n'-------'-------'-------'\n",
        rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7], rows[8]
    );
    let read = read_puzzles(&text);
    assert_eq!(read.len(), 1, "{read:?}");
    assert_eq!(read[0].as_ref().unwrap(), &(2, q.clone()));
    // r1 holds singles that peers r2c1 (1) and r2c5 (6) do not hold: givens;
    // r2c1 and r2c5 are two-candidate cells.
    assert!(q.is_given(0) && !q.is_given(9) && !q.is_given(13));
}

#[test]
fn pencilmark_errors_name_the_line_and_the_fault() {
    let p = &common::fixture("unique.txt")[0];
    let line = Puzzle::from_pencilmarks(3, p.candidates())
        .unwrap()
        .to_line();
    // A digit in another digit's place.
    let first = line.find(|c: char| c.is_ascii_digit()).unwrap();
    let mut bad: Vec<char> = line.chars().collect();
    bad[first] = if bad[first] == '9' { '1' } else { '9' };
    let bad: String = bad.into_iter().collect();
    match parse_puzzle(&bad) {
        Err(ParseErrorKind::MisplacedCandidate { column, .. }) => assert_eq!(column, first + 1),
        other => panic!("{other:?}"),
    }
    // A cell without candidate.
    let empty = format!("{}{}", ".".repeat(9), &line[9..]);
    assert_eq!(
        parse_puzzle(&empty),
        Err(ParseErrorKind::NoCandidate {
            cell: "r1c1".into()
        })
    );
    let msg = read_puzzles(&format!("\n{empty}\n"))[0]
        .as_ref()
        .unwrap_err()
        .to_string();
    assert_eq!(msg, "line 2: pencilmark grid: cell r1c1 has no candidate");
    // 728 characters: a wrong length.
    assert!(matches!(
        parse_puzzle(&line[1..]),
        Err(ParseErrorKind::WrongLength { found: 728 })
    ));
    // A 9-line grid with a short row and with a letter in a cell.
    let block = Puzzle::from_pencilmarks(3, p.candidates())
        .unwrap()
        .to_block();
    let mut lines: Vec<String> = block.lines().map(String::from).collect();
    lines[2] = "12 3 4 | 5 6 7 | 8 9".into();
    let r = read_puzzles(&lines.join("\n"));
    assert_eq!(
        r[0].as_ref().unwrap_err().to_string(),
        "line 3: grid row has 8 cells, expected 9"
    );
    lines[2] = "12 3 4 | 5 x 7 | 8 9 1".into();
    let r = read_puzzles(&lines.join("\n"));
    assert_eq!(
        r[0].as_ref().unwrap_err().to_string(),
        "line 3: pencilmark grid: cell r3c5 reads \"x\", expected its candidate digits 1-9"
    );
}

#[test]
fn givens_follow_sukaku_explainers_rule() {
    // A single that a peer also holds is no given: SE keeps it a candidate.
    let mut marks = vec![Puzzle::empty(3).geometry().all_digits(); 81];
    marks[0] = 1 << 5;
    let p = Puzzle::from_pencilmarks(3, marks.clone()).unwrap();
    assert_eq!(p.givens(), 0);
    for &q in &Puzzle::empty(3).geometry().peers[0] {
        marks[q] &= !(1 << 5);
    }
    let p = Puzzle::from_pencilmarks(3, marks).unwrap();
    assert_eq!((p.givens(), p.get(0)), (1, 5));
    // Two cells of one unit holding the same single: a contradiction.
    let mut marks = vec![Puzzle::empty(3).geometry().all_digits(); 81];
    marks[0] = 1 << 5;
    marks[1] = 1 << 5;
    let p = Puzzle::from_pencilmarks(3, marks).unwrap();
    assert!(p.check().is_err());
    assert_eq!(crate::Engines::all().count(&p, 0).unwrap().solutions, 0);
}

/// The three engines agree on the count (up to a cap) of random pencilmark
/// grids, and every solution they find keeps the grid's candidates.
#[test]
fn engines_agree_on_random_pencilmark_grids() {
    let puzzles = common::fixture("unique.txt");
    let mut rng = Rng(0x5eed_9e9c);
    let engines = crate::Engines::all();
    let (mut unique, mut multiple, mut none) = (0, 0, 0);
    for (i, p) in puzzles.iter().take(common::full_or(300, 60)).enumerate() {
        let sol = crate::bitset::sudoku::solve(p).unwrap();
        let base = if i % 2 == 0 {
            thinned(p, 18, &mut rng)
        } else {
            p.clone()
        };
        let removed = [100, 300, 600, 900][i % 4];
        let mut q = pencilled(&base, &sol, removed, &mut rng);
        if i % 7 == 3 {
            // Take the solution's digit out of one multi-candidate cell.
            let marks = q.pencilmarks().unwrap().to_vec();
            if let Some(c) = (0..81).find(|&c| marks[c].count_ones() > 1) {
                let mut m = marks.clone();
                m[c] &= !(1 << sol.get(c));
                q = Puzzle::from_pencilmarks(3, m).unwrap();
            }
        }
        let count = engines.count(&q, 50).unwrap_or_else(|e| panic!("{e}"));
        match count.solutions {
            0 => none += 1,
            1 => unique += 1,
            _ => multiple += 1,
        }
        if let Some(s) = engines.solve(&q).unwrap() {
            assert!(s.solves(&q));
            assert!(s.solves(&base), "a pencilmark solution solves the givens");
        }
        // The candidates of the givens alone: the same count as the givens.
        let same = Puzzle::from_pencilmarks(3, base.candidates()).unwrap();
        assert_eq!(
            engines.count(&same, 50).unwrap(),
            engines.count(&base, 50).unwrap()
        );
    }
    assert!(
        unique > 0 && multiple > 0 && none > 0,
        "{unique} {multiple} {none}"
    );
}

/// The maximal, minimal and lo-min encodings of a pencilmark grid have
/// exactly its solutions: our SAT engine counts them alike on each, and the
/// minimal one leaves the removed candidates' variables out.
#[test]
fn encodings_keep_exactly_the_candidates() {
    let puzzles = common::fixture("unique.txt");
    let mut rng = Rng(99);
    for p in puzzles.iter().take(20) {
        let sol = crate::bitset::sudoku::solve(p).unwrap();
        let q = pencilled(&thinned(p, 20, &mut rng), &sol, 500, &mut rng);
        let want = crate::bitset::sudoku::count(&q, 30);
        let marks = q.pencilmarks().unwrap();
        for enc in [Encoding::Max, Encoding::Min, Encoding::LoMin] {
            let cnf = encode(&q, enc).unwrap();
            assert_eq!(crate::sat::count_cnf(&cnf, &q, 30), want, "{enc}");
            let removed = marks
                .iter()
                .enumerate()
                .filter(|&(c, _)| !q.is_given(c))
                .map(|(_, &m)| 9 - m.count_ones() as usize)
                .sum::<usize>();
            if enc == Encoding::Min {
                for clause in cnf.clauses() {
                    for &l in clause {
                        let (c, d) = crate::cnf::cell_digit(9, l.unsigned_abs() as usize).unwrap();
                        assert!(marks[c] & 1 << d != 0, "{enc}: {c} {d}");
                    }
                }
            } else {
                assert_eq!(cnf.count_kind(crate::cnf::ClauseKind::Removed), removed);
            }
            // The streamed DIMACS text is the formula's.
            let mut out = Vec::new();
            crate::cnf::Cnf::append_dimacs(&q, enc, &mut out).unwrap();
            assert_eq!(out, cnf.to_dimacs_bytes(), "{enc}");
        }
    }
}

/// CaDiCaL, MiniSat and PicoSAT solve the DIMACS of pencilmark grids with
/// a unique solution to that solution (skipped with a note when a solver is
/// missing; required with `CI` set).
#[test]
fn external_solvers_solve_pencilmark_grids() {
    if !super::external_solvers::solvers_installed() {
        return;
    }
    let puzzles = common::fixture("unique.txt");
    let mut rng = Rng(3);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.cnf");
    let mut checked = 0;
    for (i, p) in puzzles.iter().take(12).enumerate() {
        let sol = crate::bitset::sudoku::solve(p).unwrap();
        // Thinned to 17 givens, the candidates keep the solution unique.
        let q = pencilled(&thinned(p, 17, &mut rng), &sol, 950, &mut rng);
        if crate::bitset::sudoku::count(&q, 2).solutions != 1 {
            continue;
        }
        let enc = [Encoding::Min, Encoding::Max, Encoding::LoMin][i % 3];
        for solver in ["cadical", "minisat", "picosat"] {
            std::fs::write(&path, encode(&q, enc).unwrap().to_dimacs_bytes()).unwrap();
            let out = super::external_solvers::run_solver(solver, &path, dir.path());
            let lits = Solution::parse_model(&out).unwrap();
            let got = Solution::decode_model(&q, &lits).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(got, sol, "{solver} on {enc}");
            checked += 1;
        }
    }
    assert!(checked >= 18, "{checked}");
}

/// Serate starts from a pencilmark grid's candidates and rates it as
/// Sukaku Explainer does with the classic SE's techniques
/// (`tests/fixtures/sukaku_pencilmarks.txt` says how the ratings were
/// made). One puzzle is 0.1 apart, by the dynamic chain ours rates 0.1
/// lower than Sukaku Explainer on its givens as well: the difference is
/// the chain's, not the pencilmarks'.
#[test]
fn serate_rates_pencilmark_grids_as_sukaku_explainer() {
    let puzzles = common::fixture("sukaku_pencilmarks.txt");
    assert_eq!(puzzles.len(), 54);
    let mut exact = 0;
    for p in &puzzles {
        assert!(p.has_pencilmarks());
        let label = p.label.as_deref().unwrap();
        let se: Vec<f64> = label.split(' ').map(|x| x.parse().unwrap()).collect();
        let r = crate::se::serate(p).unwrap_or_else(|e| panic!("{p}: {e:?}"));
        let ours = [r.serate, r.ep, r.ed];
        if ours[..] == se[..] {
            exact += 1;
        } else {
            // The known chain: SE 9.1, ours 9.0, on its givens too.
            assert_eq!(
                (se[0], r.serate),
                (9.1, 9.0),
                "{p}: SE {se:?}, ours {ours:?}"
            );
            assert_eq!(ours[1..], se[1..]);
        }
    }
    assert!(exact >= 52, "{exact} of 54 as Sukaku Explainer");
}

/// The candidates of the givens alone rate as the givens do: serate's
/// start from pencilmarks changes nothing for a grid that holds no more
/// than its givens say.
#[test]
fn givens_candidates_rate_as_the_givens() {
    for p in common::fixture("unique.txt").iter().take(40) {
        let pm = Puzzle::from_pencilmarks(3, p.candidates()).unwrap();
        let (a, b) = (crate::se::serate(p), crate::se::serate(&pm));
        match (a, b) {
            (Ok(a), Ok(b)) => assert_eq!((a.serate, a.ep, a.ed), (b.serate, b.ep, b.ed), "{p}"),
            (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{p}"),
        }
    }
}

/// The canonical form is of givens: a pencilmark grid is refused with an
/// error, never a silent answer about its givens alone.
#[test]
fn canonical_form_refuses_pencilmark_grids() {
    let p = &common::fixture("unique.txt")[0];
    let pm = Puzzle::from_pencilmarks(3, p.candidates()).unwrap();
    assert!(p.canonical().is_ok());
    assert_eq!(pm.canonical(), Err(crate::CanonError::Pencilmarks));
    // `--dedup` takes a pencilmark grid as a duplicate of the same grid only.
    let again = pm.clone();
    assert_eq!(
        crate::earlier_equivalents(&[&pm, p, &again]),
        Ok(vec![None, None, Some(0)])
    );
}
