//! DIMACS CNF reading, and decoding of a SAT solver's model back to a grid.

use super::{ClauseKind, Cnf, cell_digit};
use crate::grid::{Puzzle, Solution};

/// A DIMACS file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DimacsError {
    /// A malformed header, literal, or literal beyond the declared variables.
    #[error("line {line}: {msg}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// Clauses before any `p cnf` header, or no header at all.
    #[error("no `p cnf` header")]
    NoHeader,
    /// The number of clauses differs from the header's.
    #[error("header declares {declared} clauses, found {found}")]
    ClauseCount {
        /// Clauses the header declares.
        declared: usize,
        /// Clauses read.
        found: usize,
    },
}

impl Cnf {
    /// Reads DIMACS CNF text. Comment lines are kept in [`Cnf::comments`]; the
    /// clause kinds are inferred from the clause shapes of sudolab's encodings
    /// (positive unit = given, negative binary = AMO, positive = ALO) with the
    /// variable numbering of side `side` deciding cell or unit.
    pub fn read_dimacs(text: &str, side: usize) -> Result<Cnf, DimacsError> {
        let mut cnf: Option<Cnf> = None;
        let mut declared = 0;
        let mut comments = Vec::new();
        let mut clause: Vec<i32> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(c) = t.strip_prefix('c') {
                comments.push(c.strip_prefix(' ').unwrap_or(c).to_string());
                continue;
            }
            let syntax = |msg: String| DimacsError::Syntax { line: line_no, msg };
            if t.starts_with('p') {
                let f: Vec<&str> = t.split_whitespace().collect();
                if f.len() != 4 || f[1] != "cnf" {
                    return Err(syntax(format!("bad header {t:?}")));
                }
                let vars = f[2]
                    .parse()
                    .map_err(|_| syntax(format!("bad variable count {:?}", f[2])))?;
                declared = f[3]
                    .parse()
                    .map_err(|_| syntax(format!("bad clause count {:?}", f[3])))?;
                cnf = Some(Cnf::new(vars));
                continue;
            }
            let Some(cnf) = cnf.as_mut() else {
                return Err(DimacsError::NoHeader);
            };
            for tok in t.split_whitespace() {
                let l: i32 = tok
                    .parse()
                    .map_err(|_| syntax(format!("not a literal: {tok:?}")))?;
                if l == 0 {
                    let kind = infer_kind(&clause, side);
                    cnf.push(kind, &clause);
                    clause.clear();
                } else if l.unsigned_abs() as usize > cnf.num_vars() {
                    return Err(syntax(format!(
                        "literal {l} exceeds the {} declared variables",
                        cnf.num_vars()
                    )));
                } else {
                    clause.push(l);
                }
            }
        }
        let mut cnf = cnf.ok_or(DimacsError::NoHeader)?;
        if cnf.num_clauses() != declared {
            return Err(DimacsError::ClauseCount {
                declared,
                found: cnf.num_clauses(),
            });
        }
        cnf.comments = comments;
        Ok(cnf)
    }
}

fn infer_kind(clause: &[i32], side: usize) -> ClauseKind {
    let cell_of = |l: i32| cell_digit(side, l.unsigned_abs() as usize).map(|(c, _)| c);
    let same_cell = clause.windows(2).all(|w| cell_of(w[0]) == cell_of(w[1]));
    match clause {
        [l] if *l > 0 => ClauseKind::Given,
        [_] => ClauseKind::Removed,
        _ if clause.iter().all(|&l| l < 0) => {
            if same_cell {
                ClauseKind::CellAmo
            } else {
                ClauseKind::UnitAmo
            }
        }
        _ if same_cell => ClauseKind::CellAlo,
        _ => ClauseKind::UnitAlo,
    }
}

/// A solver output that does not decode to a solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A token that is not a literal.
    #[error("line {line}: {msg}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// The solver answered UNSAT.
    #[error("the solver reports the formula unsatisfiable")]
    Unsatisfiable,
    /// The output holds no literal.
    #[error("no model found in the solver output")]
    NoModel,
    /// Two digits of one cell are true.
    #[error("cell {cell} gets two values, {a} and {b}")]
    TwoValues {
        /// The cell, named `rXcY` (1-based).
        cell: String,
        /// The first true digit.
        a: u8,
        /// The second true digit.
        b: u8,
    },
    /// No digit of a cell is true.
    #[error("cell {cell} gets no value")]
    NoValue {
        /// The cell, named `rXcY` (1-based).
        cell: String,
    },
    /// The decoded grid is not a solution of the puzzle; holds the grid as one
    /// line, or why it is not a grid.
    #[error("the decoded grid does not solve the puzzle: {0}")]
    NotASolution(String),
    /// The model belongs to another puzzle: it contradicts a given.
    #[error(
        "the model does not fit this puzzle: it puts {value} in {cell}, where the puzzle has the given {given} (a model of another puzzle?)"
    )]
    ContradictsGiven {
        /// The cell, named `rXcY` (1-based).
        cell: String,
        /// The digit the model puts there.
        value: u8,
        /// The puzzle's given.
        given: u8,
    },
    /// No candidate of an empty cell is true in the model.
    #[error(
        "the model does not fit this puzzle: none of the candidates of {cell} ({candidates}) is true in it (a model of another puzzle or encoding?)"
    )]
    NoCandidate {
        /// The cell, named `rXcY` (1-based).
        cell: String,
        /// The cell's candidates, comma-separated.
        candidates: String,
    },
}

impl Solution {
    /// Parses a solver's output: `s`/`v` lines (competition format), minisat's
    /// `SAT`/`UNSAT` file, or a bare list of literals. `c` lines are skipped.
    /// Returns the literals of the model.
    pub fn parse_model(text: &str) -> Result<Vec<i32>, ModelError> {
        let mut lits = Vec::new();
        let mut seen_any = false;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('c') {
                continue;
            }
            let upper = t.to_ascii_uppercase();
            if upper.starts_with("S ")
                || upper == "SAT"
                || upper == "UNSAT"
                || upper.starts_with("SATISFIABLE")
                || upper.starts_with("UNSATISFIABLE")
            {
                if upper.contains("UNSAT") {
                    return Err(ModelError::Unsatisfiable);
                }
                continue;
            }
            let body = t.strip_prefix('v').unwrap_or(t);
            for tok in body.split_whitespace() {
                let l: i32 = tok.parse().map_err(|_| ModelError::Syntax {
                    line: i + 1,
                    msg: format!("not a literal: {tok:?}"),
                })?;
                seen_any = true;
                if l != 0 {
                    lits.push(l);
                }
            }
        }
        if !seen_any {
            return Err(ModelError::NoModel);
        }
        Ok(lits)
    }
}

impl Solution {
    /// Decodes the true literals of a model to a grid and checks it solves the
    /// puzzle. Only variables of candidates of empty cells are read: given cells
    /// keep their value, and the minimal encoding leaves every other variable
    /// unconstrained, so a solver may set it either way.
    pub fn decode_model(puzzle: &Puzzle, lits: &[i32]) -> Result<Solution, ModelError> {
        decode_candidates(puzzle, lits).map_err(|e| match (e, misfit(puzzle, lits)) {
            (ModelError::TwoValues { .. }, Some(m @ ModelError::ContradictsGiven { .. })) => m,
            (ModelError::NoValue { .. } | ModelError::NotASolution(_), Some(m)) => m,
            (e, _) => e,
        })
    }
}

/// Why a model that does not decode belongs to another puzzle: a given it
/// contradicts (every cell holding one value, as in a maximal-encoding
/// model), else an empty cell none of whose candidates is true.
fn misfit(puzzle: &Puzzle, lits: &[i32]) -> Option<ModelError> {
    let g = puzzle.geometry();
    let mut values = vec![0u32; g.cells];
    for &l in lits.iter().filter(|&&l| l > 0) {
        if let Some((cell, d)) = cell_digit(g.side, l as usize) {
            values[cell] |= 1 << d;
        }
    }
    let single = |mask: u32| (mask.count_ones() == 1).then(|| mask.trailing_zeros() as u8);
    if values.iter().all(|&m| single(m).is_some()) {
        let contradicted =
            (0..g.cells).find(|&c| puzzle.is_given(c) && single(values[c]) != Some(puzzle.get(c)));
        if let Some(cell) = contradicted {
            return Some(ModelError::ContradictsGiven {
                cell: g.cell_name(cell),
                value: single(values[cell]).unwrap_or(0),
                given: puzzle.get(cell),
            });
        }
    }
    let cand = puzzle.candidates();
    let empty = (0..g.cells).find(|&c| !puzzle.is_given(c) && values[c] & cand[c] == 0)?;
    let names: Vec<String> = crate::util::bits(cand[empty])
        .map(|d| crate::grid::digit_to_char(d, g.side).to_string())
        .collect();
    Some(ModelError::NoCandidate {
        cell: g.cell_name(empty),
        candidates: names.join(","),
    })
}

/// Reads the candidate variables of the empty cells (the only ones the
/// minimal encoding constrains).
fn decode_candidates(puzzle: &Puzzle, lits: &[i32]) -> Result<Solution, ModelError> {
    let g = puzzle.geometry();
    let cand = puzzle.candidates();
    let mut cells = vec![0u8; g.cells];
    for &l in lits.iter().filter(|&&l| l > 0) {
        if let Some((cell, d)) = cell_digit(g.side, l as usize) {
            if puzzle.is_given(cell) || cand[cell] & (1 << d) == 0 {
                continue;
            }
            if cells[cell] != 0 && cells[cell] != d {
                return Err(ModelError::TwoValues {
                    cell: g.cell_name(cell),
                    a: cells[cell],
                    b: d,
                });
            }
            cells[cell] = d;
        }
    }
    for (cell, v) in cells.iter_mut().enumerate() {
        if *v == 0 {
            *v = puzzle.get(cell);
        }
        if *v == 0 {
            return Err(ModelError::NoValue {
                cell: g.cell_name(cell),
            });
        }
    }
    let sol = Solution::from_cells(puzzle.order(), cells)
        .ok_or_else(|| ModelError::NotASolution("values out of range".into()))?;
    if !sol.solves(puzzle) {
        return Err(ModelError::NotASolution(sol.to_line()));
    }
    Ok(sol)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{Encoding, encode};

    #[test]
    fn round_trip_keeps_clauses_and_kinds() {
        let p = crate::grid::parse_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        for enc in [Encoding::Max, Encoding::Min, Encoding::LoMin] {
            let cnf = encode(&p, enc).unwrap();
            let text = String::from_utf8(cnf.to_dimacs_bytes()).unwrap();
            let back = Cnf::read_dimacs(&text, 9).unwrap();
            assert_eq!(back.num_vars(), cnf.num_vars());
            assert_eq!(back.comments, cnf.comments);
            assert!(back.clauses().eq(cnf.clauses()), "{enc}");
            // Kinds are inferred from shapes; the minimal encoding's length-1
            // ALO clauses look like givens, so only the others compare kinds.
            if enc != Encoding::Min {
                assert_eq!(back, cnf, "{enc}");
            }
        }
    }

    /// The true literals of a full grid, as a maximal-encoding model has them.
    fn grid_model(grid: &str) -> Vec<i32> {
        grid.bytes()
            .enumerate()
            .map(|(i, b)| (i * 9 + (b - b'0') as usize) as i32)
            .collect()
    }

    #[test]
    fn a_model_of_another_puzzle_is_named_as_such() {
        let easy = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        assert_eq!(
            Solution::decode_model(&easy, &grid_model(solved))
                .unwrap()
                .to_line(),
            solved
        );
        // The solution with digits 1 and 2 swapped: a valid grid of another
        // puzzle, whose first contradicted given is the 1 at r2c4.
        let swapped: String = solved
            .chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                c => c,
            })
            .collect();
        let e = Solution::decode_model(&easy, &grid_model(&swapped)).unwrap_err();
        assert_eq!(
            e,
            ModelError::ContradictsGiven {
                cell: "r2c4".into(),
                value: 2,
                given: 1
            }
        );
        // A minimal-encoding model has no literal for givens: an empty cell
        // without any true candidate is named instead.
        let e = Solution::decode_model(&easy, &[1, 2, 3]).unwrap_err();
        assert!(
            e.to_string()
                .contains("none of the candidates of r1c3 (1,2,4) is true"),
            "{e}"
        );
    }

    #[test]
    fn bad_dimacs_names_line() {
        let e = Cnf::read_dimacs("p cnf 3 1\n1 x 0\n", 9).unwrap_err();
        assert_eq!(e.to_string(), "line 2: not a literal: \"x\"");
        assert!(matches!(
            Cnf::read_dimacs("p cnf 3 2\n1 0\n", 9),
            Err(DimacsError::ClauseCount { .. })
        ));
        assert!(Cnf::read_dimacs("p cnf 3 1\n4 0\n", 9).is_err());
    }

    #[test]
    fn model_formats() {
        assert_eq!(
            Solution::parse_model("s SATISFIABLE\nv 1 -2\nv 3 0\n").unwrap(),
            vec![1, -2, 3]
        );
        assert_eq!(
            Solution::parse_model("SAT\n1 -2 3 0\n").unwrap(),
            vec![1, -2, 3]
        );
        assert_eq!(
            Solution::parse_model("UNSAT\n"),
            Err(ModelError::Unsatisfiable)
        );
        assert_eq!(
            Solution::parse_model("s UNSATISFIABLE\n"),
            Err(ModelError::Unsatisfiable)
        );
        assert_eq!(
            Solution::parse_model("c nothing\n"),
            Err(ModelError::NoModel)
        );
    }
}
