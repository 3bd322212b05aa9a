//! The three encoders of `docs/methods.md` §1 (Patti §4, after Lynce &
//! Ouaknine 2006): the maximal encoding and Lynce & Ouaknine's `lo-min`,
//! whose clauses are the same for every puzzle but the givens, and the
//! minimal (candidate-based) encoding, whose candidates are computed once as
//! bitmasks (`MinCandidates`) so the formula's size is known before any
//! clause is written. Each encoder emits into a `Sink`: a [`Cnf`] here, or
//! the DIMACS text writer of `stream.rs`.

use super::{ClauseKind, Cnf, EncodeError, Encoding, var};
use crate::grid::{Geometry, MAX_ORDER, Puzzle};

/// Encodes a puzzle. Comment lines name the encoding, the puzzle and the
/// variable formula.
///
/// # Errors
/// The minimal encoding refuses a contradictory puzzle (a given twice in a
/// unit, an empty ALO clause). The maximal and `lo-min` encodings encode any
/// grid (a contradictory one simply gives an unsatisfiable formula).
///
/// ```
/// use sudolab::{Encoding, encode, parse_puzzle};
///
/// // The maximal encoding of the empty grid: 729 variables, 11988 clauses
/// // (Patti §4.1); each given adds a unit clause.
/// let cnf = encode(&parse_puzzle(&".".repeat(81))?, Encoding::Max)?;
/// assert_eq!((cnf.num_vars(), cnf.num_clauses()), (729, 11988));
/// assert!(cnf.to_dimacs_bytes().starts_with(b"c "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode(puzzle: &Puzzle, encoding: Encoding) -> Result<Cnf, EncodeError> {
    let side = puzzle.side();
    let mut cnf = Cnf::new(side * side * side);
    match encoding {
        Encoding::Max => encode_full(puzzle.geometry(), true, &mut cnf),
        Encoding::LoMin => encode_full(puzzle.geometry(), false, &mut cnf),
        Encoding::Min => encode_min(puzzle, &mut cnf)?,
    }
    if encoding != Encoding::Min {
        encode_givens(puzzle, &mut cnf);
    }
    cnf.comments = comments(puzzle, encoding);
    Ok(cnf)
}

/// The comment lines of an encoded puzzle.
pub(super) fn comments(puzzle: &Puzzle, encoding: Encoding) -> Vec<String> {
    let side = puzzle.side();
    let mut out = vec![
        format!("sudolab encoding={encoding}"),
        format!("puzzle {}", puzzle.to_line()),
        format!(
            "var(r,c,d) = (r-1)*{} + (c-1)*{} + d, r,c,d in 1..={}",
            side * side,
            side,
            side
        ),
    ];
    if encoding == Encoding::Min {
        // Every encoding declares the whole numbering (one model decodes
        // the same whatever the encoding); the minimal one leaves the
        // non-candidates out, and MiniSat warns of that.
        out.push(format!(
            "the header declares all {} variables of this numbering; the minimal encoding uses the candidates' only, so MiniSat warns \"DIMACS header mismatch\": harmless, its model decodes the same",
            side * side * side
        ));
    }
    if let Some(label) = &puzzle.label {
        out.push(format!("label {}", label.replace('\n', " ")));
    }
    out
}

/// Where an encoder puts its clauses: a [`Cnf`], or DIMACS text.
pub(crate) trait Sink {
    fn clause(&mut self, kind: ClauseKind, clause: &[i32]);

    /// Pairwise at-most-one over `vars`: `-a -b` for every `a` before `b`.
    fn at_most_one(&mut self, kind: ClauseKind, vars: &[i32]) {
        for (i, &a) in vars.iter().enumerate() {
            for &b in &vars[i + 1..] {
                self.clause(kind, &[-a, -b]);
            }
        }
    }
}

impl Sink for Cnf {
    fn clause(&mut self, kind: ClauseKind, clause: &[i32]) {
        self.push(kind, clause);
    }
}

/// One unit clause per given, then for a pencilmark puzzle one negative
/// unit clause per candidate its empty cells lack (`docs/methods.md` §1).
pub(crate) fn encode_givens(puzzle: &Puzzle, sink: &mut impl Sink) {
    let side = puzzle.side();
    for cell in 0..puzzle.geometry().cells {
        let v = puzzle.get(cell);
        if v != 0 {
            sink.clause(ClauseKind::Given, &[var(side, cell, v)]);
        }
    }
    for (cell, d) in removed_candidates(puzzle) {
        sink.clause(ClauseKind::Removed, &[-var(side, cell, d)]);
    }
}

/// The `(cell, digit)` pairs a pencilmark puzzle removes from its empty
/// cells, cell by cell; none for a puzzle of givens alone.
fn removed_candidates(puzzle: &Puzzle) -> impl Iterator<Item = (usize, u8)> + '_ {
    let all = puzzle.geometry().all_digits();
    let marks = puzzle.pencilmarks().unwrap_or(&[]);
    marks
        .iter()
        .enumerate()
        .filter(|&(cell, _)| !puzzle.is_given(cell))
        .flat_map(move |(cell, &m)| crate::util::bits(all & !m).map(move |d| (cell, d)))
}

/// Number of the clauses [`encode_givens`] writes.
pub(super) fn givens_clauses(puzzle: &Puzzle) -> usize {
    puzzle.givens() + removed_candidates(puzzle).count()
}

/// The puzzle-independent clauses of the maximal encoding (`all_alo`) or
/// Lynce & Ouaknine's minimal one (the givens follow).
pub(super) fn encode_full(g: &Geometry, all_alo: bool, cnf: &mut impl Sink) {
    let side = g.side;
    let mut clause = Vec::with_capacity(side);
    for cell in 0..g.cells {
        clause.clear();
        clause.extend((1..=side as u8).map(|d| var(side, cell, d)));
        cnf.clause(ClauseKind::CellAlo, &clause);
    }
    if all_alo {
        for unit in &g.units {
            for d in 1..=side as u8 {
                clause.clear();
                clause.extend(unit.iter().map(|&cell| var(side, cell, d)));
                cnf.clause(ClauseKind::UnitAlo, &clause);
            }
        }
        for cell in 0..g.cells {
            clause.clear();
            clause.extend((1..=side as u8).map(|d| var(side, cell, d)));
            cnf.at_most_one(ClauseKind::CellAmo, &clause);
        }
    }
    for unit in &g.units {
        for d in 1..=side as u8 {
            clause.clear();
            clause.extend(unit.iter().map(|&cell| var(side, cell, d)));
            cnf.at_most_one(ClauseKind::UnitAmo, &clause);
        }
    }
}

/// What the minimal encoding ranges over, computed once from the givens:
/// the candidates of each empty cell (the digits no peer gives), and for
/// each unit and digit the places of the unit where the digit is a
/// candidate. Every nonzero mask of either kind stands for one ALO clause
/// and its pairwise AMO clauses, so the formula's size is known before any
/// clause is written.
pub(super) struct MinCandidates {
    geometry: &'static Geometry,
    /// Candidate digits of each cell as bits `1..=N`; `0` for a given.
    cells: Vec<u32>,
    /// `places[u * (N + 1) + d]`: bit `i` set when `d` is a candidate of the
    /// `i`-th cell of unit `u`; `0` when `d` is given in the unit.
    places: Vec<u32>,
}

impl MinCandidates {
    /// The candidates of a puzzle.
    ///
    /// # Errors
    /// The contradiction [`Puzzle::check`] finds: a given twice in a unit, an
    /// empty cell without candidate, a missing digit without place.
    pub(super) fn of(puzzle: &Puzzle) -> Result<MinCandidates, EncodeError> {
        let g = puzzle.geometry();
        let all = g.all_digits();
        let mut given = vec![0u32; g.units.len()];
        let mut consistent = true;
        for (&v, units) in puzzle.cells().iter().zip(&g.cell_units) {
            if v != 0 {
                for &u in units {
                    consistent &= given[u] & (1 << v) == 0;
                    given[u] |= 1 << v;
                }
            }
        }
        let stride = g.side + 1;
        let mut cells = Vec::with_capacity(g.cells);
        let mut places = vec![0u32; g.units.len() * stride];
        let mut covered = given.clone();
        let marks = puzzle.pencilmarks();
        for (cell, ((&v, units), positions)) in puzzle
            .cells()
            .iter()
            .zip(&g.cell_units)
            .zip(&g.unit_positions)
            .enumerate()
        {
            let mut candidates = 0;
            if v == 0 {
                let pencilled = marks.map_or(all, |m| m[cell]);
                candidates = pencilled & !(given[units[0]] | given[units[1]] | given[units[2]]);
                consistent &= candidates != 0;
                for (&u, &i) in units.iter().zip(positions) {
                    covered[u] |= candidates;
                    for d in crate::util::bits(candidates) {
                        places[u * stride + usize::from(d)] |= 1 << i;
                    }
                }
            }
            cells.push(candidates);
        }
        consistent &= covered.iter().all(|&c| c == all);
        if !consistent {
            // `check` looks for the same three contradictions and names the
            // first one in its own order.
            puzzle.check()?;
        }
        Ok(MinCandidates {
            geometry: g,
            cells,
            places,
        })
    }

    /// Number of clauses and of literal occurrences of the encoding: an ALO
    /// clause over `k` variables with its AMO clauses is `1 + k(k-1)/2`
    /// clauses of `k²` literals.
    pub(super) fn size(&self) -> (usize, usize) {
        // Branch-free over plain slices, so that the loops vectorize.
        let size_of = |masks: &[u32]| {
            masks.iter().fold((0, 0), |(clauses, lits), m| {
                let k = m.count_ones();
                (clauses + u32::from(k != 0) + (k * k - k) / 2, lits + k * k)
            })
        };
        let (cell_clauses, cell_lits) = size_of(&self.cells);
        let (unit_clauses, unit_lits) = size_of(&self.places);
        (
            (cell_clauses + unit_clauses) as usize,
            (cell_lits + unit_lits) as usize,
        )
    }

    /// Sends the clauses to `sink`: ALO and AMO over the candidates of each
    /// empty cell, then over the places of each digit missing from a unit.
    pub(super) fn encode(&self, sink: &mut impl Sink) {
        let side = self.geometry.side;
        let mut vars = [0i32; MAX_ORDER * MAX_ORDER];
        let mut alo_amo = |kind_alo, kind_amo, vars: &[i32]| {
            sink.clause(kind_alo, vars);
            sink.at_most_one(kind_amo, vars);
        };
        for (cell, &digits) in self.cells.iter().enumerate() {
            if digits != 0 {
                let k = fill(
                    &mut vars,
                    crate::util::bits(digits).map(|d| var(side, cell, d)),
                );
                alo_amo(ClauseKind::CellAlo, ClauseKind::CellAmo, &vars[..k]);
            }
        }
        for (unit, digits) in self
            .geometry
            .units
            .iter()
            .zip(self.places.chunks_exact(side + 1))
        {
            for (d, &places) in digits.iter().enumerate() {
                if places != 0 {
                    let cells = crate::util::bits(places).map(|i| unit[usize::from(i)]);
                    let k = fill(&mut vars, cells.map(|cell| var(side, cell, d as u8)));
                    alo_amo(ClauseKind::UnitAlo, ClauseKind::UnitAmo, &vars[..k]);
                }
            }
        }
    }
}

/// Writes the items of `iter` to the front of `buf`; returns how many.
fn fill(buf: &mut [i32], iter: impl Iterator<Item = i32>) -> usize {
    let mut k = 0;
    for v in iter {
        buf[k] = v;
        k += 1;
    }
    k
}

/// The minimal encoding into a formula reserved to its size.
fn encode_min(puzzle: &Puzzle, cnf: &mut Cnf) -> Result<(), EncodeError> {
    let candidates = MinCandidates::of(puzzle)?;
    let (clauses, lits) = candidates.size();
    cnf.reserve(clauses, lits);
    candidates.encode(cnf);
    Ok(())
}
