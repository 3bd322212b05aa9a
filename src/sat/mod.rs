//! The SAT engine: solving, counting, uniqueness and backbones with the
//! `varisat` CDCL solver.
//!
//! Puzzles are solved on the CNF encodings of [`crate::cnf`] (the minimal,
//! candidate-based encoding by default). Counting enumerates models with
//! blocking clauses: after each model, a clause forbidding its assignment of
//! the empty cells is added, so the solver finds a different grid next time.
//!
//! Relaxed instances (Pelánek §3.2; `docs/methods.md` §2.7) are encoded as cell
//! ALO and cell AMO, one binary clause `¬x(u,d) ∨ ¬x(v,d)` per remaining edge and
//! digit, and unit clauses for the givens (and, for a pencilmark grid, a
//! negative unit clause per candidate an empty cell lacks); the solver also gets the
//! redundant unit clauses of [`relaxed_unit_clauses`] (a digit is in a unit
//! or the ends of one of its removed edges are equal). Their fixed cells
//! come from the model-filtering backbone algorithm: start from one model;
//! for each cell value still a backbone candidate, solve under the
//! assumption that the cell takes another value; a model found that way
//! removes every candidate it contradicts, an unsatisfiable answer proves
//! the cell fixed. One solver is
//! used per instance, incrementally: the backbone queries use assumptions, the
//! count adds blocking clauses afterwards, nothing is re-encoded.
//!
//! [`certificate`] checks a search engine's answer on a relaxed instance from
//! the solutions it found, with one incremental solver, instead of
//! re-analyzing it.

pub(crate) mod certificate;

use crate::answers::{Count, InstanceAnalysis, SudokuEngine};
use crate::cnf::{self, Cnf, Encoding};
use crate::graph::RelaxedInstance;
use crate::grid::{Puzzle, Solution};
use varisat::{ExtendFormula, Lit, Solver};

fn lit(v: i32) -> Lit {
    Lit::from_dimacs(v as isize)
}

/// Runs the solver. Errors come only from proof writing or interruption,
/// neither of which this crate uses, so one is a bug.
fn solve(solver: &mut Solver) -> bool {
    match solver.solve() {
        Ok(sat) => sat,
        Err(e) => panic!("varisat failed: {e}"),
    }
}

fn load(cnf: &Cnf) -> Solver<'static> {
    let mut solver = Solver::new();
    let mut buf = Vec::new();
    for clause in cnf.clauses() {
        buf.clear();
        buf.extend(clause.iter().map(|&l| lit(l)));
        solver.add_clause(&buf);
    }
    solver
}

/// Cell values of the current model (0 where no variable is true).
fn model_cells(solver: &Solver, side: usize, givens: &[u8]) -> Vec<u8> {
    let mut cells = givens.to_vec();
    if let Some(model) = solver.model() {
        for l in model.into_iter().filter(|l| l.is_positive()) {
            if let Some((cell, d)) = cnf::cell_digit(side, l.var().to_dimacs() as usize) {
                cells[cell] = d;
            }
        }
    }
    cells
}

/// Solves a puzzle with the given encoding; `None` when it has no solution.
pub(crate) fn solve_with(puzzle: &Puzzle, encoding: Encoding) -> Option<Solution> {
    let cnf = cnf::encode(puzzle, encoding).ok()?;
    let mut solver = load(&cnf);
    if !solve(&mut solver) {
        return None;
    }
    let cells = model_cells(&solver, puzzle.side(), puzzle.cells());
    Solution::from_cells(puzzle.order(), cells).filter(|s| s.solves(puzzle))
}

/// The SAT engine: varisat on the minimal (candidate-based) encoding.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sat;

impl SudokuEngine for Sat {
    fn solve(&self, p: &Puzzle) -> Option<Solution> {
        solve_with(p, Encoding::Min)
    }
    fn count(&self, p: &Puzzle, cap: u64) -> Count {
        count(p, cap)
    }
    fn analyze_relaxed(&self, r: &RelaxedInstance, cap: u64) -> InstanceAnalysis {
        analyze_relaxed(r, cap)
    }
}

/// Counts the solutions of a puzzle up to `cap` (0 = no cap).
pub(crate) fn count(puzzle: &Puzzle, cap: u64) -> Count {
    let found = enumerate(puzzle, cap, |_| {});
    Count::from_found(found, cap)
}

fn enumerate(puzzle: &Puzzle, cap: u64, visit: impl FnMut(Solution)) -> u64 {
    let Ok(cnf) = cnf::encode(puzzle, Encoding::Min) else {
        return 0;
    };
    enumerate_cnf(&cnf, puzzle, cap, visit)
}

/// Counts the solutions of `puzzle` as models of `cnf`, one of its
/// encodings, up to `cap` (0 = no cap) (to test every encoding).
#[cfg(test)]
pub(crate) fn count_cnf(cnf: &Cnf, puzzle: &Puzzle, cap: u64) -> Count {
    Count::from_found(enumerate_cnf(cnf, puzzle, cap, |_| {}), cap)
}

/// The models of `cnf`, an encoding of `puzzle`, as solutions, each sent to
/// `visit`, up to `cap`; returns how many.
fn enumerate_cnf(cnf: &Cnf, puzzle: &Puzzle, cap: u64, mut visit: impl FnMut(Solution)) -> u64 {
    let side = puzzle.side();
    let mut solver = load(cnf);
    let mut found = 0;
    let mut block = Vec::new();
    while (cap == 0 || found < cap) && solve(&mut solver) {
        let cells = model_cells(&solver, side, puzzle.cells());
        found += 1;
        block.clear();
        block.extend(
            (0..cells.len())
                .filter(|&c| !puzzle.is_given(c))
                .map(|c| !lit(cnf::var(side, c, cells[c]))),
        );
        if let Some(s) = Solution::from_cells(puzzle.order(), cells) {
            visit(s);
        }
        if block.is_empty() {
            break;
        }
        solver.add_clause(&block);
    }
    found
}

/// The CNF of a relaxed instance (cell ALO + AMO, edge clauses, givens and
/// a pencilmark grid's removed candidates).
pub(crate) fn relaxed_cnf(r: &RelaxedInstance) -> Cnf {
    let g = r.geometry();
    let side = g.side;
    let mut cnf = Cnf::new(side * side * side);
    let mut clause = Vec::with_capacity(side);
    for cell in 0..g.cells {
        clause.clear();
        clause.extend((1..=side as u8).map(|d| cnf::var(side, cell, d)));
        cnf.push(cnf::ClauseKind::CellAlo, &clause);
        for d1 in 1..=side as u8 {
            for d2 in d1 + 1..=side as u8 {
                cnf.push(
                    cnf::ClauseKind::CellAmo,
                    &[-cnf::var(side, cell, d1), -cnf::var(side, cell, d2)],
                );
            }
        }
    }
    for (a, b) in r.edges() {
        for d in 1..=side as u8 {
            cnf.push(
                cnf::ClauseKind::UnitAmo,
                &[-cnf::var(side, a, d), -cnf::var(side, b, d)],
            );
        }
    }
    // The givens' unit clauses, and a pencilmark grid's removed candidates
    // as negative units: the list of colours a cell may take (§2.2).
    cnf::encode_givens(r.puzzle(), &mut cnf);
    cnf
}

/// Whether the two ends of a removed edge can be equal, as a literal (see
/// [`relaxed_unit_clauses`]).
#[derive(Debug, Clone, Copy)]
enum Equal {
    /// Two givens with one digit.
    Always,
    /// Two givens with different digits, or no digit in common.
    Never,
    /// When this literal is true (every solution with equal ends can set it).
    When(Lit),
}

/// Clauses that every solution of the relaxed instance `r` satisfies beyond
/// its cell and edge constraints, for a solver's unit propagation to see
/// what a unit implies: for each unit and each digit no given of the unit
/// holds, "some cell of the unit holds the digit, or the two ends of one of
/// the unit's removed edges are equal".
///
/// Pigeonhole: if a digit is missing from a unit, its `N` cells hold at most
/// `N − 1` digits, so two of them are equal, and two equal cells of a unit
/// are not adjacent: they are the ends of a removed edge. "The ends are
/// equal" is one literal: the other end's digit for an edge to a given, else
/// an auxiliary variable `e` with `e ∧ a = d → b = d` for each digit `d` of
/// `a` (one direction suffices: every solution extends, with `e` true exactly
/// where the ends are equal). Clauses that every solution satisfies remove
/// none, so they change no count, fixed cell or unsatisfiable answer.
///
/// `digits[c]` holds the digits (bits `1..=N`) that non-given cell `c` has
/// variables for, `lit(c, d)` the literal "cell `c` holds `d`" (never
/// asked for a given cell), `first_aux` the index of the first free
/// variable; each clause goes to `add`.
pub(crate) fn relaxed_unit_clauses(
    r: &RelaxedInstance,
    digits: &[u32],
    lit: impl Fn(usize, u8) -> Lit,
    first_aux: usize,
    add: &mut impl FnMut(&[Lit]),
) {
    let p = r.puzzle();
    let g = r.geometry();
    let has = |c: usize, d: u8| digits[c] >> d & 1 == 1;
    let mut next = first_aux;
    let removed = r.removed();
    let equal: Vec<Equal> = removed
        .iter()
        .map(|&(a, b)| match (p.is_given(a), p.is_given(b)) {
            (true, true) if p.get(a) == p.get(b) => Equal::Always,
            (true, true) => Equal::Never,
            (true, false) | (false, true) => {
                let (given, other) = if p.is_given(a) { (a, b) } else { (b, a) };
                let d = p.get(given);
                if has(other, d) {
                    Equal::When(lit(other, d))
                } else {
                    Equal::Never
                }
            }
            (false, false) if digits[a] & digits[b] == 0 => Equal::Never,
            (false, false) => {
                let e = varisat::Var::from_index(next).positive();
                next += 1;
                for d in (1..32u8).filter(|&d| has(a, d)) {
                    if has(b, d) {
                        add(&[!e, !lit(a, d), lit(b, d)]);
                    } else {
                        add(&[!e, !lit(a, d)]);
                    }
                }
                Equal::When(e)
            }
        })
        .collect();
    let mut clause = Vec::new();
    let mut ends = Vec::new();
    for (u, cells) in g.units.iter().enumerate() {
        ends.clear();
        let mut always = false;
        for &i in r.removed_in(u) {
            match equal[i] {
                Equal::Always => always = true,
                Equal::Never => {}
                Equal::When(l) => ends.push(l),
            }
        }
        if always {
            continue;
        }
        let held = cells
            .iter()
            .filter(|&&c| p.is_given(c))
            .fold(0u32, |m, &c| m | 1 << p.get(c));
        for d in 1..=g.side as u8 {
            if held >> d & 1 == 1 {
                continue;
            }
            clause.clear();
            clause.extend(
                cells
                    .iter()
                    .filter(|&&c| !p.is_given(c) && has(c, d))
                    .map(|&c| lit(c, d)),
            );
            clause.extend(&ends);
            add(&clause);
        }
    }
}

/// Counts by blocking clauses over the cells in `free` (cells outside it
/// hold the same value in every solution, so blocking them adds nothing).
fn count_on(solver: &mut Solver, r: &RelaxedInstance, cap: u64, free: &[usize]) -> u64 {
    let p = r.puzzle();
    let side = p.side();
    solver.assume(&[]);
    let mut found = 0;
    let mut block = Vec::new();
    while (cap == 0 || found < cap) && solve(solver) {
        found += 1;
        let cells = model_cells(solver, side, p.cells());
        block.clear();
        block.extend(free.iter().map(|&c| !lit(cnf::var(side, c, cells[c]))));
        if block.is_empty() {
            break;
        }
        solver.add_clause(&block);
    }
    found
}

/// Solution count (capped) and fixed non-given cells of a relaxed instance,
/// on one incremental solver: backbone by model filtering first, then the
/// count by blocking clauses.
pub(crate) fn analyze_relaxed(r: &RelaxedInstance, cap: u64) -> InstanceAnalysis {
    let p = r.puzzle();
    let side = p.side();
    let mut solver = load(&relaxed_cnf(r));
    let all = vec![((1u32 << side) - 1) << 1; p.cells().len()];
    relaxed_unit_clauses(
        r,
        &all,
        |cell, d| lit(cnf::var(side, cell, d)),
        side * side * side,
        &mut |clause| solver.add_clause(clause),
    );
    if !solve(&mut solver) {
        return InstanceAnalysis {
            count: Count::from_found(0, cap),
            fixed: Vec::new(),
        };
    }
    let first = model_cells(&solver, side, p.cells());
    let mut candidate: Vec<bool> = (0..first.len()).map(|c| !p.is_given(c)).collect();
    let mut fixed = Vec::new();
    for cell in 0..first.len() {
        if !candidate[cell] {
            continue;
        }
        solver.assume(&[!lit(cnf::var(side, cell, first[cell]))]);
        if solve(&mut solver) {
            let model = model_cells(&solver, side, p.cells());
            for (c, cand) in candidate.iter_mut().enumerate() {
                if *cand && model[c] != first[c] {
                    *cand = false;
                }
            }
        } else {
            fixed.push(cell);
        }
        candidate[cell] = false;
    }
    let free: Vec<usize> = (0..first.len())
        .filter(|&c| !p.is_given(c) && fixed.binary_search(&c).is_err())
        .collect();
    let found = count_on(&mut solver, r, cap, &free);
    InstanceAnalysis {
        count: Count::from_found(found, cap),
        fixed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn solves_and_counts() {
        let p = parse_puzzle(EASY).unwrap();
        let s = Sat.solve(&p).unwrap();
        assert!(s.solves(&p));
        assert_eq!(
            s.to_line(),
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        );
        for enc in [Encoding::Max, Encoding::LoMin] {
            assert_eq!(solve_with(&p, enc).unwrap(), s);
        }
        assert_eq!(
            count(&p, 0),
            Count {
                solutions: 1,
                capped: false
            }
        );
        assert_eq!(count(&Puzzle::empty(2), 0).solutions, 288);
        assert_eq!(
            count(&Puzzle::empty(3), 5),
            Count {
                solutions: 5,
                capped: true
            }
        );
    }

    #[test]
    fn relaxed_k0_is_the_puzzle() {
        let p = parse_puzzle(EASY).unwrap();
        let a = analyze_relaxed(&RelaxedInstance::unrelaxed(&p), 100);
        assert_eq!(
            a.count,
            Count {
                solutions: 1,
                capped: false
            }
        );
        assert_eq!(a.fixed.len(), 81 - p.givens());
    }
}
