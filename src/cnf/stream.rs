//! [`Cnf::append_dimacs`]: the DIMACS text of an encoding written straight into a
//! byte buffer, without building the [`Cnf`](Cnf) (Patti §4's
//! formulas, many puzzles to one stream). Each literal's text is copied from
//! a table made once per order (`Literals`); the maximal and `lo-min`
//! encodings copy their puzzle-independent clauses from a template made
//! once per order; the minimal encoding's clause count comes from its
//! candidates' popcounts, so the `p cnf` header is written first. The bytes
//! are those of [`Cnf::to_dimacs_bytes`](super::Cnf::to_dimacs_bytes).

use super::encoders::{MinCandidates, Sink, comments, encode_full, encode_givens, givens_clauses};
use super::formula::push_int;
use super::{ClauseKind, Cnf, EncodeError, Encoding};
use crate::grid::{Geometry, MAX_ORDER, MIN_ORDER, Puzzle};
use std::io::Write as _;
use std::sync::OnceLock;

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

impl Cnf {
    /// Appends the DIMACS text of `encode(puzzle, encoding)` to `out`: the same
    /// bytes as [`Cnf::to_dimacs_bytes`](super::Cnf::to_dimacs_bytes), without
    /// building the formula, so that many puzzles can be written to one stream
    /// (see the module doc).
    ///
    /// # Errors
    /// As [`encode`](super::encode); nothing is appended then.
    pub fn append_dimacs(
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
            write_preamble(puzzle, encoding, clauses + givens_clauses(puzzle), out);
            out.extend_from_slice(fixed);
            let mut text = Text::new(lits, out);
            encode_givens(puzzle, &mut text);
            text.finish();
        }
        Ok(())
    }
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
