//! Every DIMACS file we write is read by standard SAT solvers (CaDiCaL,
//! MiniSat, PicoSAT) and their models decode to the solution our engines find.
//! CI installs the solvers (`.ci/run`); elsewhere a missing solver skips the
//! test with a note, and with `CI` set it fails.

use super::common;

use crate::cnf::{Encoding, encode};
use crate::grid::Solution;
use std::process::Command;

pub(super) fn run_solver(
    solver: &str,
    cnf_path: &std::path::Path,
    dir: &std::path::Path,
) -> String {
    match solver {
        "minisat" => {
            let out = dir.join("minisat.out");
            let status = Command::new("minisat")
                .arg("-verb=0")
                .arg(cnf_path)
                .arg(&out)
                .output()
                .expect("minisat is installed (.ci/run installs it)");
            // minisat exits 10 for SAT, 20 for UNSAT.
            assert!(
                matches!(status.status.code(), Some(10) | Some(20)),
                "minisat failed"
            );
            std::fs::read_to_string(out).expect("minisat wrote its result")
        }
        other => {
            let out = Command::new(other)
                .arg(cnf_path)
                .output()
                .unwrap_or_else(|e| panic!("{other} is installed (.ci/run installs it): {e}"));
            String::from_utf8_lossy(&out.stdout).into_owned()
        }
    }
}

/// Whether CaDiCaL, MiniSat and PicoSAT are all installed (a note names
/// each missing one; with `CI` set a missing one fails the test).
pub(super) fn solvers_installed() -> bool {
    ["cadical", "minisat", "picosat"]
        .iter()
        .all(|t| common::external_tool(t))
}

#[test]
fn external_solvers_agree_with_our_engines() {
    if !solvers_installed() {
        return;
    }
    let puzzles = common::fixture("unique.txt");
    assert!(puzzles.len() >= 300);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.cnf");
    let mut checked = 0;
    for (i, p) in puzzles.iter().enumerate() {
        let ours =
            crate::SudokuEngine::solve(&crate::sat::Sat, p).expect("fixture puzzles are solvable");
        assert_eq!(crate::dlx::sudoku::solve(p).as_ref(), Some(&ours));
        // Every puzzle through CaDiCaL and MiniSat on the minimal encoding;
        // a sample also on the maximal and lo-min encodings and with PicoSAT.
        let mut jobs = vec![(Encoding::Min, "cadical"), (Encoding::Min, "minisat")];
        if i % 10 == 0 {
            jobs.extend([
                (Encoding::Max, "cadical"),
                (Encoding::LoMin, "minisat"),
                (Encoding::Min, "picosat"),
            ]);
        }
        for (enc, solver) in jobs {
            let cnf = encode(p, enc).unwrap();
            std::fs::write(&path, cnf.to_dimacs_bytes()).unwrap();
            let out = run_solver(solver, &path, dir.path());
            let lits = Solution::parse_model(&out)
                .unwrap_or_else(|e| panic!("{solver}/{enc}: {e}\n{out}"));
            let sol =
                Solution::decode_model(p, &lits).unwrap_or_else(|e| panic!("{solver}/{enc}: {e}"));
            assert_eq!(sol, ours, "{solver} on {enc} for {p}");
            checked += 1;
        }
    }
    assert!(checked >= 2 * puzzles.len());
}

#[test]
fn external_solver_reports_unsat_for_contradictory_grid() {
    if !common::external_tool("cadical") {
        return;
    }
    // Two 1s in row 1: the maximal encoding is unsatisfiable.
    let mut line = String::from("11");
    line.push_str(&".".repeat(79));
    let p = crate::grid::parse_puzzle(&line).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.cnf");
    std::fs::write(&path, encode(&p, Encoding::Max).unwrap().to_dimacs_bytes()).unwrap();
    let out = run_solver("cadical", &path, dir.path());
    assert!(Solution::parse_model(&out).is_err(), "{out}");
}
