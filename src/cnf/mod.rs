//! CNF encodings of Sudoku (Patti §4, after Lynce & Ouaknine 2006; `docs/methods.md` §1).
//!
//! All encodings share one variable numbering, so any model decodes to a
//! grid: `var(r, c, d) = (r-1)·N² + (c-1)·N + d` (1-based; 729 variables for
//! 9×9), and every DIMACS file declares `p cnf N³ M` even when an encoding
//! leaves variables unused.
//!
//! * [`Encoding::Max`], the *maximal* encoding: at-least-one (ALO) for every
//!   cell and every unit-digit pair (4·N² clauses of length N), pairwise
//!   at-most-one (AMO) for the same (4·N²·C(N,2) binary clauses), and one
//!   unit clause per given: 11988 + g clauses for 9×9.
//! * [`Encoding::Min`], the *minimal* (candidate-based) encoding: candidates
//!   are computed from the givens first; givens get no clauses; ALO and AMO
//!   range over candidates only. An ALO clause of length 0 means the puzzle is
//!   contradictory and is reported as an error, never emitted.
//! * [`Encoding::LoMin`], Lynce & Ouaknine's own "minimal" encoding: cell ALO
//!   plus row/column/box pairwise AMO over all N³ variables, plus givens:
//!   8829 + g clauses for 9×9.
//!
//! Every clause carries its [`ClauseKind`], from which the clause-length
//! histogram of the ALO clauses (Patti §7.1) is computed in `histogram`.
//!
//! [`write_dimacs`] writes the DIMACS text of an encoding straight into a
//! byte buffer, without building the [`Cnf`]: the encoders emit into a
//! `Sink` that is either a `Cnf` or a text writer copying each literal's
//! text from a table made once per order. The minimal encoding first
//! computes its candidates as bitmasks, per empty cell and per unit and
//! digit (`MinCandidates`); each nonzero mask is one ALO clause with its
//! pairwise AMO clauses, so the clause count of the `p cnf` header comes
//! from popcounts before any clause is written, straight after the header.
//! The maximal and `lo-min` encodings, whose clauses are the same for every
//! puzzle but the givens, copy that text from a template made once per
//! order. The bytes are those of [`Cnf::to_dimacs_bytes`] (a test compares
//! them).

mod dimacs;
mod histogram;

pub use dimacs::{DimacsError, ModelError, decode_model, parse_model, read_dimacs};
pub use histogram::{
    BadCuts, ClassCuts, ClauseCounts, ClauseRow, Histogram, MeanDistribution, clause_row,
    mean_distribution,
};

use crate::grid::{Contradiction, Geometry, MAX_ORDER, MIN_ORDER, Puzzle};
use serde::Serialize;
use std::fmt;
use std::io::Write as _;
use std::str::FromStr;
use std::sync::OnceLock;

/// Which CNF encoding to build.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// The maximal encoding (Patti's "maximum encoding").
    #[value(alias = "maximal")]
    Max,
    /// The candidate-based minimal encoding (Patti's "minimum encoding").
    #[value(alias = "minimal")]
    Min,
    /// Lynce & Ouaknine's "minimal" encoding: cell ALO + unit AMO + givens.
    LoMin,
}

impl Encoding {
    /// Name as on the command line and in the DIMACS comment: `max`, `min`,
    /// `lo-min`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Max => "max",
            Encoding::Min => "min",
            Encoding::LoMin => "lo-min",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "max" | "maximal" => Ok(Encoding::Max),
            "min" | "minimal" => Ok(Encoding::Min),
            "lo-min" => Ok(Encoding::LoMin),
            _ => Err(format!(
                "unknown encoding {s:?} (expected max, min or lo-min)"
            )),
        }
    }
}

/// What a clause expresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClauseKind {
    /// A cell holds at least one digit.
    CellAlo,
    /// A unit holds a digit at least once.
    UnitAlo,
    /// A cell holds at most one digit (binary).
    CellAmo,
    /// A unit holds a digit at most once (binary).
    UnitAmo,
    /// A given (unit clause).
    Given,
}

impl ClauseKind {
    /// Whether the clause is an at-least-one clause (cell or unit ALO).
    pub fn is_alo(self) -> bool {
        matches!(self, ClauseKind::CellAlo | ClauseKind::UnitAlo)
    }
}

/// Why a puzzle has no encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The puzzle is contradictory on its face (`Puzzle::check`): the minimal
    /// encoding and the clause-length histogram refuse it.
    #[error("puzzle is contradictory: {0}")]
    Contradiction(#[from] Contradiction),
}

/// A CNF formula over `num_vars` variables, clauses stored flat.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cnf {
    num_vars: usize,
    lits: Vec<i32>,
    /// `starts[i]..starts[i+1]` are the literals of clause `i`.
    starts: Vec<u32>,
    kinds: Vec<ClauseKind>,
    /// Comment lines written before the header (without the leading `c `).
    pub comments: Vec<String>,
}

impl Cnf {
    /// An empty formula over `num_vars` variables.
    pub fn new(num_vars: usize) -> Cnf {
        Cnf {
            num_vars,
            lits: Vec::new(),
            starts: vec![0],
            kinds: Vec::new(),
            comments: Vec::new(),
        }
    }

    /// Makes room for `clauses` more clauses of `lits` literals in all.
    fn reserve(&mut self, clauses: usize, lits: usize) {
        self.lits.reserve(lits);
        self.starts.reserve(clauses);
        self.kinds.reserve(clauses);
    }

    /// Appends a clause of DIMACS literals.
    pub fn push(&mut self, kind: ClauseKind, clause: &[i32]) {
        debug_assert!(
            clause
                .iter()
                .all(|&l| l != 0 && l.unsigned_abs() as usize <= self.num_vars)
        );
        self.lits.extend_from_slice(clause);
        self.starts.push(self.lits.len() as u32);
        self.kinds.push(kind);
    }

    /// Variables declared in the header (`N³` for every encoding).
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }
    /// Number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.kinds.len()
    }
    /// Total number of literal occurrences.
    pub fn num_lits(&self) -> usize {
        self.lits.len()
    }
    /// Literals of clause `i` (0-based), DIMACS-signed.
    pub fn clause(&self, i: usize) -> &[i32] {
        &self.lits[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
    /// Kind of clause `i` (0-based).
    pub fn kind(&self, i: usize) -> ClauseKind {
        self.kinds[i]
    }
    /// Iterates over `(kind, literals)` of every clause.
    pub fn iter(&self) -> impl Iterator<Item = (ClauseKind, &[i32])> + '_ {
        (0..self.num_clauses()).map(|i| (self.kinds[i], self.clause(i)))
    }
    /// Iterates over the literals of every clause.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> + '_ {
        (0..self.num_clauses()).map(|i| self.clause(i))
    }

    /// Number of clauses of each kind.
    pub fn count_kind(&self, kind: ClauseKind) -> usize {
        self.kinds.iter().filter(|&&k| k == kind).count()
    }

    /// Whether the 0/1 assignment `value(var)` satisfies every clause.
    pub fn is_satisfied_by(&self, value: impl Fn(usize) -> bool) -> bool {
        self.clauses().all(|c| {
            c.iter()
                .any(|&l| value(l.unsigned_abs() as usize) == (l > 0))
        })
    }

    /// Writes the formula in DIMACS format.
    pub fn write_dimacs(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        out.write_all(&self.to_dimacs_bytes())
    }

    /// The formula as DIMACS text.
    pub fn to_dimacs_bytes(&self) -> Vec<u8> {
        let mut buf = Vec::with_capacity(self.lits.len() * 5 + self.kinds.len() * 2 + 256);
        for c in &self.comments {
            buf.extend_from_slice(b"c ");
            buf.extend_from_slice(c.as_bytes());
            buf.push(b'\n');
        }
        buf.extend_from_slice(
            format!("p cnf {} {}\n", self.num_vars, self.num_clauses()).as_bytes(),
        );
        for clause in self.clauses() {
            for &l in clause {
                push_int(&mut buf, l);
                buf.push(b' ');
            }
            buf.extend_from_slice(b"0\n");
        }
        buf
    }
}

fn push_int(buf: &mut Vec<u8>, v: i32) {
    if v < 0 {
        buf.push(b'-');
    }
    let mut u = v.unsigned_abs();
    let mut tmp = [0u8; 10];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}

/// `var(r, c, d)` for a 0-based cell index and digit `d` in `1..=N`.
#[inline]
pub fn var(side: usize, cell: usize, digit: u8) -> i32 {
    (cell * side + digit as usize) as i32
}

/// Cell and digit of a variable (inverse of [`var`]); `None` out of range.
pub fn cell_digit(side: usize, var: usize) -> Option<(usize, u8)> {
    if var == 0 || var > side * side * side {
        return None;
    }
    let v = var - 1;
    Some((v / side, (v % side + 1) as u8))
}

/// Encodes a puzzle. Comment lines name the encoding, the puzzle and the
/// variable formula.
///
/// # Errors
/// The minimal encoding refuses a contradictory puzzle (a given twice in a
/// unit, an empty ALO clause). The maximal and `lo-min` encodings encode any
/// grid (a contradictory one simply gives an unsatisfiable formula).
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
fn comments(puzzle: &Puzzle, encoding: Encoding) -> Vec<String> {
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
    if let Some(label) = &puzzle.label {
        out.push(format!("label {}", label.replace('\n', " ")));
    }
    out
}

/// Where an encoder puts its clauses: a [`Cnf`], or DIMACS text.
trait Sink {
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

/// The DIMACS text of every literal of one order, `-N³..=N³`, each followed
/// by a space, padded to 8 bytes (at most `-15625 ` for 25×25) with its
/// length, so that a clause line is assembled by fixed-size copies.
struct Literals {
    offset: i32,
    text: Vec<([u8; 8], u8)>,
    /// Length of the longest text, that of `-N³`.
    longest: usize,
}

impl Literals {
    /// The table of order `n` (2..=5).
    fn of(n: usize) -> &'static Literals {
        static CACHE: [OnceLock<Literals>; MAX_ORDER - MIN_ORDER + 1] =
            [const { OnceLock::new() }; MAX_ORDER - MIN_ORDER + 1];
        CACHE[n - MIN_ORDER].get_or_init(|| {
            let side = n * n;
            let vars = (side * side * side) as i32;
            let text: Vec<([u8; 8], u8)> = (-vars..=vars)
                .map(|l| {
                    let mut t = Vec::new();
                    push_int(&mut t, l);
                    t.push(b' ');
                    let mut padded = [0u8; 8];
                    padded[..t.len()].copy_from_slice(&t);
                    (padded, t.len() as u8)
                })
                .collect();
            let longest = usize::from(text[0].1);
            Literals {
                offset: vars,
                text,
                longest,
            }
        })
    }

    #[inline(always)]
    fn text(&self, l: i32) -> ([u8; 8], usize) {
        let (t, len) = self.text[(l + self.offset) as usize];
        (t, usize::from(len))
    }
}

/// A [`Sink`] appending DIMACS clause lines to `out` and counting them.
///
/// Copies of a run-time length go through `memcpy`, so each literal's text
/// is copied as its whole 8-byte table entry into zeroed room past the text
/// (`out[end..]`) and the end advanced by the text's length; [`Text::finish`]
/// cuts `out` back to the text.
struct Text<'a> {
    lits: &'static Literals,
    out: &'a mut Vec<u8>,
    end: usize,
    clauses: usize,
    /// The texts `-v 0\n` of the variables of one AMO group, padded to 16
    /// bytes, with their lengths.
    tails: [([u8; 16], usize); MAX_ORDER * MAX_ORDER],
}

impl<'a> Text<'a> {
    fn new(lits: &'static Literals, out: &'a mut Vec<u8>) -> Text<'a> {
        let end = out.len();
        Text {
            lits,
            out,
            end,
            clauses: 0,
            tails: [([0; 16], 0); MAX_ORDER * MAX_ORDER],
        }
    }

    /// Makes room for `clauses` more clauses of `lits` literals in all, so
    /// that writing them never grows `out` clause by clause.
    #[inline]
    fn reserve(&mut self, clauses: usize, lits: usize) {
        // The fixed-size copy of the last literal reaches past its text.
        let need = self.end + lits * self.lits.longest + 2 * clauses + 16;
        if self.out.len() < need {
            self.out.resize(need, 0);
        }
    }

    /// Cuts `out` back to the text and returns the number of clauses written.
    fn finish(self) -> usize {
        self.out.truncate(self.end);
        self.clauses
    }
}

impl Sink for Text<'_> {
    #[inline]
    fn clause(&mut self, _kind: ClauseKind, clause: &[i32]) {
        self.reserve(1, clause.len());
        self.clauses += 1;
        let mut at = self.end;
        for &l in clause {
            let (t, len) = self.lits.text(l);
            self.out[at..at + 8].copy_from_slice(&t);
            at += len;
        }
        self.out[at..at + 2].copy_from_slice(b"0\n");
        self.end = at + 2;
    }

    /// The lines `-a -b 0`: each `-b 0\n` is made once in `tails` and
    /// copied whole.
    #[inline]
    fn at_most_one(&mut self, _kind: ClauseKind, vars: &[i32]) {
        let pairs = vars.len() * vars.len().saturating_sub(1) / 2;
        self.reserve(pairs, 2 * pairs);
        self.clauses += pairs;
        for (tail, &v) in self.tails.iter_mut().zip(vars) {
            let (t, len) = self.lits.text(-v);
            tail.0[..8].copy_from_slice(&t);
            tail.0[len..len + 2].copy_from_slice(b"0\n");
            tail.1 = len + 2;
        }
        let tails = &self.tails[..vars.len()];
        let mut at = self.end;
        for (i, &v) in vars.iter().enumerate() {
            let (a, a_len) = self.lits.text(-v);
            for (b, b_len) in &tails[i + 1..] {
                let line = &mut self.out[at..at + 24];
                line[..8].copy_from_slice(&a);
                // A text is at most 7 bytes (`-15625 `): the mask changes
                // nothing but spares a bounds check per line.
                line[a_len & 7..][..16].copy_from_slice(b);
                at += a_len + b_len;
            }
        }
        self.end = at;
    }
}

/// Appends the DIMACS text of `encode(puzzle, encoding)` to `out`: the same
/// bytes as [`Cnf::to_dimacs_bytes`], without building the formula, so that
/// many puzzles can be written to one stream (see the module doc).
///
/// # Errors
/// As [`encode`]; nothing is appended then.
pub fn write_dimacs(
    puzzle: &Puzzle,
    encoding: Encoding,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let lits = Literals::of(puzzle.order());
    if encoding == Encoding::Min {
        let candidates = MinCandidates::of(puzzle)?;
        let (clauses, literals) = candidates.size();
        write_preamble(puzzle, encoding, clauses, out);
        let mut text = Text::new(lits, out);
        text.reserve(clauses, literals);
        candidates.encode(&mut text);
        text.finish();
    } else {
        let (fixed, clauses) = template(puzzle.geometry(), encoding == Encoding::Max);
        write_preamble(puzzle, encoding, clauses + puzzle.givens(), out);
        out.extend_from_slice(fixed);
        let mut text = Text::new(lits, out);
        encode_givens(puzzle, &mut text);
        text.finish();
    }
    Ok(())
}

/// Appends the comment lines and the `p cnf` header of an encoded puzzle
/// with `clauses` clauses.
fn write_preamble(puzzle: &Puzzle, encoding: Encoding, clauses: usize, out: &mut Vec<u8>) {
    for c in comments(puzzle, encoding) {
        out.extend_from_slice(b"c ");
        out.extend_from_slice(c.as_bytes());
        out.push(b'\n');
    }
    let side = puzzle.side();
    // Writing to a Vec cannot fail.
    let _ = writeln!(out, "p cnf {} {clauses}", side * side * side);
}

/// The DIMACS text and number of the puzzle-independent clauses of the
/// maximal (`all_alo`) or `lo-min` encoding of one order, made once.
fn template(g: &'static Geometry, all_alo: bool) -> (&'static [u8], usize) {
    type Template = OnceLock<(Vec<u8>, usize)>;
    static CACHE: [[Template; 2]; MAX_ORDER - MIN_ORDER + 1] =
        [const { [const { OnceLock::new() }, const { OnceLock::new() }] };
            MAX_ORDER - MIN_ORDER + 1];
    let (text, clauses) = CACHE[g.n - MIN_ORDER][usize::from(all_alo)].get_or_init(|| {
        let mut out = Vec::new();
        let mut text = Text::new(Literals::of(g.n), &mut out);
        encode_full(g, all_alo, &mut text);
        let clauses = text.finish();
        (out, clauses)
    });
    (text, *clauses)
}

/// One unit clause per given.
fn encode_givens(puzzle: &Puzzle, sink: &mut impl Sink) {
    let side = puzzle.side();
    for cell in 0..puzzle.geometry().cells {
        let v = puzzle.get(cell);
        if v != 0 {
            sink.clause(ClauseKind::Given, &[var(side, cell, v)]);
        }
    }
}

/// The puzzle-independent clauses of the maximal encoding (`all_alo`) or
/// Lynce & Ouaknine's minimal one (the givens follow).
fn encode_full(g: &Geometry, all_alo: bool, cnf: &mut impl Sink) {
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
struct MinCandidates {
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
    fn of(puzzle: &Puzzle) -> Result<MinCandidates, EncodeError> {
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
        for ((&v, units), positions) in puzzle
            .cells()
            .iter()
            .zip(&g.cell_units)
            .zip(&g.unit_positions)
        {
            let mut candidates = 0;
            if v == 0 {
                candidates = all & !(given[units[0]] | given[units[1]] | given[units[2]]);
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
    fn size(&self) -> (usize, usize) {
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
    fn encode(&self, sink: &mut impl Sink) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    #[test]
    fn empty_grid_counts() {
        let p = Puzzle::empty(3);
        assert_eq!(encode(&p, Encoding::Max).unwrap().num_clauses(), 11988);
        assert_eq!(encode(&p, Encoding::LoMin).unwrap().num_clauses(), 8829);
        let min = encode(&p, Encoding::Min).unwrap();
        // Nothing given: the minimal encoding is the maximal one without givens.
        assert_eq!(min.num_clauses(), 11988);
        assert_eq!(
            encode(&Puzzle::empty(2), Encoding::Max)
                .unwrap()
                .num_clauses(),
            4 * 16 + 4 * 16 * 6
        );
    }

    #[test]
    fn variable_formula() {
        assert_eq!(var(9, 0, 1), 1);
        assert_eq!(var(9, 80, 9), 729);
        // r2c3d4 = (2-1)*81 + (3-1)*9 + 4
        assert_eq!(var(9, 9 + 2, 4), 81 + 18 + 4);
        for v in 1..=729 {
            let (c, d) = cell_digit(9, v).unwrap();
            assert_eq!(var(9, c, d) as usize, v);
        }
        assert_eq!(cell_digit(9, 730), None);
    }

    #[test]
    fn min_encoding_unit_alo_counts() {
        let p = parse_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let cnf = encode(&p, Encoding::Min).unwrap();
        let g = p.givens();
        assert_eq!(cnf.count_kind(ClauseKind::CellAlo), 81 - g);
        assert_eq!(cnf.count_kind(ClauseKind::UnitAlo), 3 * (81 - g));
        assert_eq!(cnf.count_kind(ClauseKind::Given), 0);
        let max = encode(&p, Encoding::Max).unwrap();
        assert_eq!(max.num_clauses(), 11988 + g);
    }

    #[test]
    fn contradictory_puzzle_refused_by_min() {
        let mut p = Puzzle::empty(3);
        p.set(0, 1);
        p.set(1, 1);
        assert!(encode(&p, Encoding::Min).is_err());
        assert_eq!(encode(&p, Encoding::Max).unwrap().num_clauses(), 11990);
    }
}
