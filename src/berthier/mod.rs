//! Denis Berthier's ratings of a 9×9 Sudoku: the T&E depth, the W rating
//! (whips), the B rating (braids), BxB (T&E(B_p, 1)) and BxBB (T&E(B_p, 2)),
//! as defined in his books and computed by CSP-Rules/SudoRules and by the
//! Sudoku Hierarchical Classifier (SHC, F. Cordoliani); `docs/methods.md`
//! ("Berthier's ratings") states the definitions, cites the rule files, and
//! lists the decisions taken where they were unclear.
//!
//! - BRT: elementary constraint propagation and singles ([`Board::brt`]).
//! - whip[n], braid[n]: chains of n CSP variables that refute a target
//!   ([`chains`]); `W_n` / `B_n`: BRT plus those up to length n, applied
//!   simplest first ([`theory`]). W(P) (B(P)) is the least n such that `W_n`
//!   (`B_n`) solves P; braids solve exactly the puzzles of T&E(1).
//! - T&E(T, n): T, then hypotheses nested n deep refuted by T
//!   ([`theory::trial_and_error`]). The T&E depth is the least n such that
//!   T&E(BRT, n) solves P; BxB(P) is the least p such that T&E(B_p, 1)
//!   solves a T&E(2) puzzle; BxBB the least p such that T&E(B_p, 2) solves a
//!   T&E(3) one.
//!
//! A rating outside its range (W of a T&E(2) puzzle, BxB of a T&E(1) one)
//! or past the budget says so in [`Rating`], never as a number. Candidates
//! are bitsets, chains are found by a depth-first search with exact
//! pruning, and [`rate_batch`] spreads puzzles over cores with rayon.

pub(crate) mod board;
pub(crate) mod cands;
pub(crate) mod chains;
pub(crate) mod path;
pub(crate) mod theory;
pub(crate) mod work;

#[cfg(test)]
mod tests;

pub(crate) use board::Board;
pub(crate) use cands::{Cand, Cands};
pub(crate) use path::Path;
pub(crate) use theory::{End, Theory, resolve, trial_and_error};
pub use work::Budget;
pub(crate) use work::{BudgetExceeded, Work};

use rayon::prelude::*;
use serde::Serialize;

/// One of Berthier's ratings of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Rating {
    /// The rating.
    Rated {
        /// Its value.
        value: u32,
    },
    /// The rating does not apply at this T&E depth (W and B need T&E(0–1),
    /// BxB T&E(2), BxBB T&E(3)).
    OutOfRange {
        /// The puzzle's T&E depth.
        te_depth: u32,
    },
    /// The rating is above the longest chain allowed (or, for W, whips do
    /// not solve the puzzle at all: whips cover less than T&E(1)).
    AboveMax {
        /// The longest chain tried.
        max: u32,
    },
    /// The work budget ran out.
    BudgetExceeded {
        /// The chain length being tried when it ran out.
        level: u32,
    },
    /// Not asked for.
    NotRun,
}

impl Rating {
    /// The value when rated.
    pub fn value(&self) -> Option<u32> {
        match self {
            Rating::Rated { value } => Some(*value),
            _ => None,
        }
    }
    /// A short status word: `rated`, `out_of_range`, `above_max`, `budget`, `not_run`.
    pub fn status(&self) -> &'static str {
        match self {
            Rating::Rated { .. } => "rated",
            Rating::OutOfRange { .. } => "out_of_range",
            Rating::AboveMax { .. } => "above_max",
            Rating::BudgetExceeded { .. } => "budget",
            Rating::NotRun => "not_run",
        }
    }
}

/// Which ratings to compute, their longest chains, and the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BerthierOptions {
    /// Compute W.
    pub w: bool,
    /// Compute B.
    pub b: bool,
    /// Compute BxB (for T&E(2) puzzles).
    pub bxb: bool,
    /// Compute BxBB (for T&E(3) puzzles).
    pub bxbb: bool,
    /// Longest whip for W.
    pub max_w: u32,
    /// Longest braid for B (SHC's default: 8).
    pub max_b: u32,
    /// Longest braid for BxB (SHC's default: 14).
    pub max_bxb: u32,
    /// Longest braid for BxBB (SHC's default: 5).
    pub max_bxbb: u32,
    /// Budget of each rating.
    pub budget: Budget,
    /// Keep the resolution paths.
    pub explain: bool,
}

impl Default for BerthierOptions {
    fn default() -> Self {
        BerthierOptions {
            w: true,
            b: true,
            bxb: true,
            bxbb: false,
            max_w: 12,
            max_b: 12,
            max_bxb: 14,
            max_bxbb: 5,
            budget: Budget::default(),
            explain: false,
        }
    }
}

/// The ratings of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BerthierRatings {
    /// T&E depth (0: BRT solves it; 3 stands for "not T&E(2)": every known
    /// Sudoku is in T&E(3)).
    pub te_depth: u32,
    /// W rating.
    pub w: Rating,
    /// B rating.
    pub b: Rating,
    /// BxB.
    pub bxb: Rating,
    /// BxBB.
    pub bxbb: Rating,
    /// The W resolution path (with `explain`), one line per rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub w_path: Option<Vec<String>>,
    /// The B resolution path (with `explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_path: Option<Vec<String>>,
    /// The main-state path of the BxB (or BxBB) run (with `explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bxb_path: Option<Vec<String>>,
}

impl BerthierRatings {
    /// The T&E depth and why each rating is null, as the
    /// `berthier_status` column writes it:
    /// `te1 w=rated b=rated bxb=out_of_range(te1) bxbb=out_of_range(te1)`.
    pub fn status_line(&self) -> String {
        let one = |name: &str, x: &Rating| match x {
            Rating::OutOfRange { te_depth } => format!("{name}=out_of_range(te{te_depth})"),
            Rating::AboveMax { max } => format!("{name}=above_max({max})"),
            Rating::BudgetExceeded { level } => format!("{name}=budget(level {level})"),
            other => format!("{name}={}", other.status()),
        };
        format!(
            "te{} {} {} {} {}",
            self.te_depth,
            one("w", &self.w),
            one("b", &self.b),
            one("bxb", &self.bxb),
            one("bxbb", &self.bxbb)
        )
    }
}

/// Berthier's ratings as the columns of a `score` row: each rating's value
/// (null outside its range or past the budget) and `berthier_status`
/// saying why.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct BerthierColumns {
    /// The W rating (whips).
    pub w_rating: Option<u32>,
    /// The B rating (braids).
    pub b_rating: Option<u32>,
    /// BxB, of a T&E(2) puzzle.
    pub bxb: Option<u32>,
    /// BxBB, of a T&E(3) puzzle.
    pub bxbb: Option<u32>,
    /// The T&E depth and why each rating is null
    /// ([`BerthierRatings::status_line`]).
    pub berthier_status: Option<String>,
}

impl From<&BerthierRatings> for BerthierColumns {
    fn from(r: &BerthierRatings) -> BerthierColumns {
        BerthierColumns {
            w_rating: r.w.value(),
            b_rating: r.b.value(),
            bxb: r.bxb.value(),
            bxbb: r.bxbb.value(),
            berthier_status: Some(r.status_line()),
        }
    }
}

/// Why a puzzle cannot be rated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BerthierError {
    /// Not a 9×9 grid.
    #[error("Berthier's ratings are defined here for 9x9 puzzles only (got {0} cells)")]
    NotNineByNine(usize),
    /// No solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// Several solutions.
    #[error("the puzzle has more than one solution")]
    NotUnique,
}

/// The unique solution of the board's puzzle as a set of candidates.
pub(crate) fn unique_solution(b: &Board) -> Result<Cands, BerthierError> {
    fn search(b: &mut Board, found: &mut Vec<Cands>) {
        if found.len() > 1 || b.brt(None).is_err() {
            return;
        }
        if b.solved() {
            found.push(b.values);
            return;
        }
        // the open cell with the fewest candidates
        let mut best = (10, 0);
        for cell in 0..81 {
            let n = (0..9)
                .filter(|&d| b.cand.contains(Cand::new(d, cell)))
                .count();
            if n > 0 && n < best.0 {
                best = (n, cell);
            }
        }
        for d in 0..9 {
            let c = Cand::new(d, best.1);
            if b.cand.contains(c) {
                let mut copy = *b;
                copy.assert(c);
                search(&mut copy, found);
            }
        }
    }
    let mut found = Vec::new();
    search(&mut b.clone(), &mut found);
    match found.len() {
        0 => Err(BerthierError::NoSolution),
        1 => Ok(found[0]),
        _ => Err(BerthierError::NotUnique),
    }
}

/// The puzzle's starting board and its solution.
pub(crate) fn setup(cells: &[u8]) -> Result<(Board, Cands), BerthierError> {
    if cells.len() != 81 {
        return Err(BerthierError::NotNineByNine(cells.len()));
    }
    let b = Board::from_values(cells).map_err(|_| BerthierError::NoSolution)?;
    let sol = unique_solution(&b)?;
    Ok((b, sol))
}

/// T&E depth of the board (0–2; 3 for anything deeper).
pub(crate) fn te_depth(b: &Board, work: &mut Work) -> Result<u32, BudgetExceeded> {
    for depth in 0..=2 {
        let mut copy = *b;
        let out = trial_and_error(&mut copy, &Theory::brt(), depth, None, None, work)?;
        if out.end == End::Solved {
            return Ok(depth as u32);
        }
    }
    Ok(3)
}

/// Rates with `W_n` (`whips`) or `B_n` up to `max`: the highest length
/// used along the simplest-first path.
fn chain_rating(
    b: &Board,
    known_false: &Cands,
    whips: bool,
    max: u32,
    budget: Budget,
    path: Option<&mut Path>,
) -> Rating {
    let theory = if whips {
        Theory::whips(max as usize)
    } else {
        Theory::braids(max as usize)
    };
    let mut copy = *b;
    let mut work = Work::new(budget);
    match resolve(&mut copy, &theory, Some(known_false), path, &mut work) {
        Ok(out) if out.end == End::Solved => Rating::Rated {
            value: out.level as u32,
        },
        Ok(_) => Rating::AboveMax { max },
        Err(BudgetExceeded) => Rating::BudgetExceeded {
            level: work.level as u32,
        },
    }
}

/// BxB (`depth` 1) or BxBB (`depth` 2): the least p ≤ `max` such that
/// T&E(B_p, depth) solves the board. p grows on the same board: what
/// T&E(B_(p−1), depth) deleted, T&E(B_p, depth) deletes too (confluence).
pub(crate) fn bxb_rating(
    b: &Board,
    known_false: &Cands,
    depth: usize,
    max: u32,
    budget: Budget,
    path: Option<&mut Path>,
) -> Rating {
    bxb_rating_with(b, known_false, depth, max, budget, path, true)
}

/// [`bxb_rating`], starting each hypothesis from its last end state
/// (`use_cache`, the fast way) or afresh (the check of it).
pub(crate) fn bxb_rating_with(
    b: &Board,
    known_false: &Cands,
    depth: usize,
    max: u32,
    budget: Budget,
    mut path: Option<&mut Path>,
    use_cache: bool,
) -> Rating {
    let mut copy = *b;
    let mut work = Work::new(budget);
    let mut cache = theory::CopyCache::default();
    for p in 1..=max {
        let theory = Theory::braids(p as usize);
        match theory::trial_and_error_cached(
            &mut copy,
            &theory,
            depth,
            Some(known_false),
            path.as_deref_mut(),
            use_cache.then_some(&mut cache),
            &mut work,
        ) {
            Ok(out) if out.end == End::Solved => return Rating::Rated { value: p },
            Ok(_) => {}
            Err(BudgetExceeded) => return Rating::BudgetExceeded { level: p },
        }
    }
    Rating::AboveMax { max }
}

/// Every asked rating of one puzzle (81 cell values, `0` open).
pub fn rate_berthier(
    cells: &[u8],
    opts: &BerthierOptions,
) -> Result<BerthierRatings, BerthierError> {
    let (b, sol) = setup(cells)?;
    let known_false = Cands::FULL.minus(&sol);
    let mut work = Work::new(opts.budget);
    let te = te_depth(&b, &mut work).ok();
    let mut out = BerthierRatings {
        te_depth: te.unwrap_or(u32::MAX),
        w: Rating::NotRun,
        b: Rating::NotRun,
        bxb: Rating::NotRun,
        bxbb: Rating::NotRun,
        w_path: None,
        b_path: None,
        bxb_path: None,
    };
    let Some(te) = te else {
        let over = Rating::BudgetExceeded { level: 0 };
        out.w = if opts.w { over } else { Rating::NotRun };
        out.b = if opts.b { over } else { Rating::NotRun };
        out.bxb = if opts.bxb { over } else { Rating::NotRun };
        out.bxbb = if opts.bxbb { over } else { Rating::NotRun };
        return Ok(out);
    };
    let new_path = || opts.explain.then(Path::default);
    if opts.w {
        if te <= 1 {
            let mut p = new_path();
            out.w = chain_rating(&b, &known_false, true, opts.max_w, opts.budget, p.as_mut());
            out.w_path = p.map(|p| p.lines());
        } else {
            out.w = Rating::OutOfRange { te_depth: te };
        }
    }
    if opts.b {
        if te <= 1 {
            let mut p = new_path();
            out.b = chain_rating(&b, &known_false, false, opts.max_b, opts.budget, p.as_mut());
            out.b_path = p.map(|p| p.lines());
        } else {
            out.b = Rating::OutOfRange { te_depth: te };
        }
    }
    if opts.bxb {
        if te == 2 {
            let mut p = new_path();
            out.bxb = bxb_rating(&b, &known_false, 1, opts.max_bxb, opts.budget, p.as_mut());
            out.bxb_path = p.map(|p| p.lines());
        } else {
            out.bxb = Rating::OutOfRange { te_depth: te };
        }
    }
    if opts.bxbb {
        if te == 3 {
            let mut p = new_path();
            out.bxbb = bxb_rating(&b, &known_false, 2, opts.max_bxbb, opts.budget, p.as_mut());
            out.bxb_path = p.map(|p| p.lines());
        } else {
            out.bxbb = Rating::OutOfRange { te_depth: te };
        }
    }
    Ok(out)
}

/// [`rate_berthier`] over many puzzles, in parallel on rayon's pool, in input order.
pub fn rate_batch(
    puzzles: &[Vec<u8>],
    opts: &BerthierOptions,
) -> Vec<Result<BerthierRatings, BerthierError>> {
    puzzles.par_iter().map(|p| rate_berthier(p, opts)).collect()
}

/// `rate --explain -m berthier`: each rating with its resolution path in
/// Berthier's notation (W's and B's paths, and the main-state path of BxB
/// or BxBB, whose lines name the theory each refuted hypothesis used).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BerthierExplanation {
    /// The puzzle as one line.
    pub puzzle: String,
    /// The ratings and paths, or why there are none.
    pub ratings: Result<BerthierRatings, String>,
}

impl BerthierExplanation {
    /// Rates `puzzle` with every rating and keeps the paths.
    pub fn of(puzzle: &crate::grid::Puzzle) -> BerthierExplanation {
        let opts = BerthierOptions {
            bxbb: true,
            explain: true,
            ..Default::default()
        };
        BerthierExplanation {
            puzzle: puzzle.to_line(),
            ratings: rate_berthier(puzzle.cells(), &opts).map_err(|e| e.to_string()),
        }
    }
}

impl std::fmt::Display for Rating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rating::Rated { value } => write!(f, "{value}"),
            Rating::OutOfRange { te_depth } => write!(f, "out of range (T&E({te_depth}))"),
            Rating::AboveMax { max } => write!(f, "above {max}"),
            Rating::BudgetExceeded { level } => {
                write!(f, "over the work budget (at length {level})")
            }
            Rating::NotRun => write!(f, "not run"),
        }
    }
}

impl std::fmt::Display for BerthierExplanation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "puzzle: {}", self.puzzle)?;
        let r = match &self.ratings {
            Ok(r) => r,
            Err(why) => return writeln!(f, "invalid puzzle: {why}"),
        };
        writeln!(f, "T&E depth: {}", r.te_depth)?;
        let sections = [
            ("W", &r.w, &r.w_path),
            ("B", &r.b, &r.b_path),
            ("BxB", &r.bxb, &r.bxb_path),
            ("BxBB", &r.bxbb, &None),
        ];
        for (name, rating, path) in sections {
            writeln!(f, "{name}: {rating}")?;
            if let (Some(lines), Rating::Rated { .. }) = (path, rating) {
                for (i, l) in lines.iter().enumerate() {
                    writeln!(f, "  {:>3}. {l}", i + 1)?;
                }
            }
        }
        Ok(())
    }
}
