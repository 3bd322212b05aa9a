//! Checking a relaxed instance's answer from a certificate, with one
//! incremental `varisat` solver (Pelánek §3.2; `docs/methods.md` §2.7).
//!
//! Re-analyzing a sample from scratch with SAT costs as much as finding its
//! solutions again, one solver call per solution. A search engine can hand
//! over what it found instead: the solutions (up to the cap), and the claimed
//! count and fixed cells. This module proves the claim from that certificate
//! without trusting the engine that produced it:
//!
//! 1. every listed solution is checked directly against the relaxed
//!    constraints (digits in range and among a pencilmark grid's
//!    candidates, givens kept, the two ends of every
//!    remaining edge differ; a solution is compared with the previous one,
//!    so only the cells that changed are re-checked), and the distinct ones
//!    are counted;
//! 2. *below the cap*, one solver call with a blocking clause per listed
//!    solution must be unsatisfiable: no solution exists beyond the list, so
//!    the list is every solution, the count is its length, and a non-given
//!    cell is fixed exactly when all the listed solutions agree on it (no
//!    further call is needed);
//! 3. *at the cap*, `cap` distinct valid solutions prove "at least `cap`";
//!    a claimed fixed cell is proved by one assumption call (the cell takes
//!    another value than in the first solution) being unsatisfiable, on the
//!    instance without blocking clauses; a claimed free cell is proved by two
//!    listed solutions that differ there or, when the list has none, by an
//!    assumption call that finds one (its model is checked as in 1 and also
//!    shows every other cell where it differs to be free).
//!
//! So a wrong count, a wrong fixed or free cell, a missed solution and an
//! invalid or repeated solution are all caught; nothing of the claim goes
//! unchecked, capped or not. The solver sees its own encoding of the
//! instance: one variable per non-given cell and candidate digit that no
//! given neighbour holds, "at least one" and "at most one digit" per cell, and a
//! binary clause per remaining edge and shared digit.
//!
//! It also has the unit clauses of [`super::relaxed_unit_clauses`]: every
//! solution satisfies them, so an unsatisfiable answer still proves what it
//! proved without them, and a model still yields a solution by its cells'
//! digits. On the pairwise constraints alone `varisat` proves some answers
//! far more slowly than the bitset search found them; with the unit clauses
//! (and the cell AMO clauses) the checks run faster (figures in
//! `docs/performance.md`, relaxation).

use crate::answers::InstanceAnalysis;
use crate::graph::RelaxedInstance;
use std::collections::HashSet;
use varisat::{ExtendFormula, Lit, Solver, Var};

/// What a certificate check proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CertificateCheck {
    /// Distinct valid solutions in the certificate.
    pub solutions: usize,
    /// Solver calls made (the completeness call and the assumption calls).
    pub solver_calls: usize,
}

/// Why a certificate does not prove its claim: always a bug of the engine
/// that produced it (or of this check).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CertificateFault {
    /// A listed solution breaks the relaxed constraints.
    #[error("listed solution {index} is not a solution: {why}")]
    InvalidSolution {
        /// Its position in the list.
        index: usize,
        /// The broken constraint.
        why: String,
    },
    /// The claimed count differs from what the certificate proves.
    #[error(
        "the count is {claimed}{}, but the certificate lists {distinct} distinct solutions",
        if *.capped { " (capped)" } else { "" }
    )]
    WrongCount {
        /// The claimed count.
        claimed: u64,
        /// Whether it was claimed capped.
        capped: bool,
        /// Distinct valid solutions listed.
        distinct: usize,
    },
    /// The solver found a solution that is not in the list.
    #[error("a solution is missing from the certificate: {0}")]
    MissedSolution(String),
    /// A cell claimed fixed takes two values.
    #[error("cell {cell} is claimed fixed but takes values {a} and {b}")]
    NotFixed {
        /// 0-based cell index.
        cell: usize,
        /// Two of its values.
        a: u8,
        /// Two of its values.
        b: u8,
    },
    /// A non-given cell claimed free has one value in every solution.
    #[error("cell {cell} is claimed free but holds {value} in every solution")]
    NotFree {
        /// 0-based cell index.
        cell: usize,
        /// Its only value.
        value: u8,
    },
}

/// The instance as the checker encodes it: per non-given cell its digits
/// (its candidates that no given neighbour holds,
/// [`RelaxedInstance::allowed`]) and the neighbour lists.
struct Encoding<'a> {
    r: &'a RelaxedInstance,
    side: usize,
    /// Digit mask (bits `1..=N`) per cell; a given's own digit for a given.
    digits: Vec<u32>,
}

impl<'a> Encoding<'a> {
    fn new(r: &'a RelaxedInstance) -> Self {
        Encoding {
            r,
            side: r.puzzle().side(),
            digits: r.allowed(),
        }
    }

    fn lit(&self, cell: usize, digit: u8) -> Lit {
        Var::from_index(cell * self.side + digit as usize - 1).positive()
    }

    /// A solver holding the relaxed constraints and the unit clauses (see
    /// the module doc).
    fn solver(&self) -> Solver<'static> {
        let p = self.r.puzzle();
        let mut solver = Solver::new();
        let mut clause = Vec::with_capacity(self.side);
        for (cell, &m) in self.digits.iter().enumerate() {
            if p.is_given(cell) {
                continue;
            }
            clause.clear();
            clause.extend(digits_of(m).map(|d| self.lit(cell, d)));
            solver.add_clause(&clause);
            for (i, &a) in clause.iter().enumerate() {
                for &b in &clause[i + 1..] {
                    solver.add_clause(&[!a, !b]);
                }
            }
            for &n in self.r.neighbours(cell) {
                if n > cell && !p.is_given(n) {
                    for d in digits_of(m & self.digits[n]) {
                        solver.add_clause(&[!self.lit(cell, d), !self.lit(n, d)]);
                    }
                }
            }
        }
        super::relaxed_unit_clauses(
            self.r,
            &self.digits,
            |cell, d| self.lit(cell, d),
            self.digits.len() * self.side,
            &mut |clause| {
                solver.add_clause(clause);
            },
        );
        solver
    }

    /// A solution from the solver's model: the lowest true digit per cell.
    fn model(&self, solver: &Solver) -> Vec<u8> {
        let p = self.r.puzzle();
        let mut cells = p.cells().to_vec();
        let mut taken = vec![false; cells.len()];
        if let Some(model) = solver.model() {
            for l in model.into_iter().filter(|l| l.is_positive()) {
                let v = l.var().index();
                let (cell, d) = (v / self.side, (v % self.side + 1) as u8);
                if cell < cells.len() && !p.is_given(cell) && !taken[cell] {
                    cells[cell] = d;
                    taken[cell] = true;
                }
            }
        }
        cells
    }

    /// Checks `s` against the constraints, only at the cells where it
    /// differs from `prev` (a solution already checked), or everywhere.
    fn check(&self, s: &[u8], prev: Option<&[u8]>) -> Result<(), String> {
        let p = self.r.puzzle();
        if s.len() != self.digits.len() {
            return Err(format!("{} cells, expected {}", s.len(), self.digits.len()));
        }
        let prev = prev.filter(|q| q.len() == s.len());
        for cell in 0..s.len() {
            if prev.is_some_and(|q| q[cell] == s[cell]) {
                continue;
            }
            let v = s[cell];
            if p.is_given(cell) {
                if v != p.get(cell) {
                    return Err(format!("given cell {cell} holds {v}, not {}", p.get(cell)));
                }
                continue;
            }
            if v == 0 || v as usize > self.side {
                return Err(format!("cell {cell} holds {v}"));
            }
            if !self.r.is_candidate(cell, v) {
                return Err(format!("cell {cell} holds {v}, not a candidate"));
            }
            if let Some(&n) = self.r.neighbours(cell).iter().find(|&&n| s[n] == v) {
                return Err(format!("cells {cell} and {n} both hold {v}"));
            }
        }
        Ok(())
    }
}

fn digits_of(mask: u32) -> impl Iterator<Item = u8> {
    (1..32u8).filter(move |&d| mask >> d & 1 == 1)
}

fn solve(solver: &mut Solver) -> bool {
    match solver.solve() {
        Ok(sat) => sat,
        Err(e) => panic!("varisat failed: {e}"),
    }
}

fn line(s: &[u8]) -> String {
    s.iter().map(|&d| char::from(b'0' + d)).collect()
}

/// The distinct solutions of `solutions`, each checked against the
/// encoding (and against the one before it, for order), with the values
/// seen per cell over them (bits `1..=N`).
fn distinct_solutions<'s>(
    enc: &Encoding<'_>,
    solutions: &'s [Vec<u8>],
) -> Result<(Vec<&'s [u8]>, Vec<u32>), CertificateFault> {
    let mut seen = vec![0u32; enc.digits.len()];
    let mut listed: HashSet<&[u8]> = HashSet::with_capacity(solutions.len());
    let mut distinct: Vec<&[u8]> = Vec::with_capacity(solutions.len());
    let mut prev: Option<&[u8]> = None;
    for (index, s) in solutions.iter().enumerate() {
        enc.check(s, prev)
            .map_err(|why| CertificateFault::InvalidSolution { index, why })?;
        if listed.insert(s.as_slice()) {
            distinct.push(s);
            for (m, &v) in seen.iter_mut().zip(s) {
                *m |= 1 << v;
            }
        }
        prev = Some(s);
    }
    Ok((distinct, seen))
}

/// A cell claimed fixed that took two values `m` among the solutions.
fn not_fixed(cell: usize, m: u32) -> CertificateFault {
    let mut d = digits_of(m);
    let (a, b) = (d.next().unwrap_or(0), d.next().unwrap_or(0));
    CertificateFault::NotFixed { cell, a, b }
}

/// An exact count: no solution beyond the `distinct` ones (one SAT call
/// with each blocked), and each cell fixed exactly when it took one value
/// among them. Returns the solver calls.
fn check_exact(
    enc: &Encoding<'_>,
    claim: &InstanceAnalysis,
    distinct: &[&[u8]],
    seen: &[u32],
) -> Result<usize, CertificateFault> {
    let p = enc.r.puzzle();
    let cells = enc.digits.len();
    let mut solver = enc.solver();
    let mut block = Vec::with_capacity(cells);
    for s in distinct {
        block.clear();
        block.extend(
            (0..cells)
                .filter(|&c| !p.is_given(c))
                .map(|c| !enc.lit(c, s[c])),
        );
        if block.is_empty() {
            // A grid without a non-given cell has one solution, listed.
            solver.add_clause(&[]);
            break;
        }
        solver.add_clause(&block);
    }
    if solve(&mut solver) {
        let extra = enc.model(&solver);
        return Err(CertificateFault::MissedSolution(line(&extra)));
    }
    let is_claimed_fixed = |c: usize| claim.fixed.binary_search(&c).is_ok();
    for c in (0..cells).filter(|&c| !p.is_given(c)) {
        let m = seen[c];
        match (is_claimed_fixed(c), m.count_ones()) {
            (true, k) if k > 1 => return Err(not_fixed(c, m)),
            (false, 1) => {
                return Err(CertificateFault::NotFree {
                    cell: c,
                    value: m.trailing_zeros() as u8,
                });
            }
            _ => {}
        }
    }
    if distinct.is_empty() && !claim.fixed.is_empty() {
        return Err(CertificateFault::NotFree {
            cell: claim.fixed[0],
            value: 0,
        });
    }
    Ok(1)
}

/// A capped count: each cell claimed fixed has no solution with another
/// value (one SAT call each), and each other cell that took one value among
/// the solutions has one with another value (found and checked). Returns
/// the solver calls.
fn check_capped(
    enc: &Encoding<'_>,
    claim: &InstanceAnalysis,
    first: &[u8],
    seen: &mut [u32],
) -> Result<usize, CertificateFault> {
    let p = enc.r.puzzle();
    let mut solver = enc.solver();
    let mut calls = 0;
    for c in (0..enc.digits.len()).filter(|&c| !p.is_given(c)) {
        let m = seen[c];
        if claim.fixed.binary_search(&c).is_ok() {
            if m.count_ones() > 1 {
                return Err(not_fixed(c, m));
            }
            calls += 1;
            solver.assume(&[!enc.lit(c, first[c])]);
            if solve(&mut solver) {
                let other = enc.model(&solver);
                return Err(CertificateFault::NotFixed {
                    cell: c,
                    a: first[c],
                    b: other[c],
                });
            }
        } else if m.count_ones() == 1 {
            calls += 1;
            solver.assume(&[!enc.lit(c, first[c])]);
            if !solve(&mut solver) {
                return Err(CertificateFault::NotFree {
                    cell: c,
                    value: first[c],
                });
            }
            let other = enc.model(&solver);
            enc.check(&other, None)
                .map_err(|why| CertificateFault::MissedSolution(format!("{why} (a model)")))?;
            for (m, &v) in seen.iter_mut().zip(&other) {
                *m |= 1 << v;
            }
        }
    }
    Ok(calls)
}

/// Checks `claim` (count up to `cap`, 0 = none, and fixed cells) of the
/// relaxed instance `r` against the `solutions` the engine found (see the
/// module doc for what each step proves).
pub(crate) fn check_relaxed_certificate(
    r: &RelaxedInstance,
    cap: u64,
    claim: &InstanceAnalysis,
    solutions: &[Vec<u8>],
) -> Result<CertificateCheck, CertificateFault> {
    let enc = Encoding::new(r);
    let (distinct, mut seen) = distinct_solutions(&enc, solutions)?;
    let n = distinct.len();
    let count = claim.count;
    let capped_ok = cap > 0 && count.capped && count.solutions == cap && n as u64 >= cap;
    let exact_ok =
        !count.capped && count.solutions == n as u64 && (cap == 0 || count.solutions < cap);
    if !capped_ok && !exact_ok {
        return Err(CertificateFault::WrongCount {
            claimed: count.solutions,
            capped: count.capped,
            distinct: n,
        });
    }
    let calls = if exact_ok {
        check_exact(&enc, claim, &distinct, &seen)?
    } else {
        check_capped(&enc, claim, distinct[0], &mut seen)?
    };
    Ok(CertificateCheck {
        solutions: n,
        solver_calls: calls,
    })
}
