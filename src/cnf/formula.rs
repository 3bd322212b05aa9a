//! The [`Cnf`] formula: clauses stored flat with the [`ClauseKind`] of
//! each, and its DIMACS text (`p cnf` header, one `0`-terminated line per
//! clause), the bytes every encoding's output is compared against (Patti §4).

use super::ClauseKind;

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
    pub(super) fn reserve(&mut self, clauses: usize, lits: usize) {
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

pub(super) fn push_int(buf: &mut Vec<u8>, v: i32) {
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
