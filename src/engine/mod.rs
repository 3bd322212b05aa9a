//! Choosing engines and comparing their answers.
//!
//! sudolab has three engines that answer the same questions
//! ([`SudokuEngine`]): [`Engine::Sat`] runs the `varisat` CDCL solver on the
//! CNF encodings ([`crate::sat`]), [`Engine::Dlx`] runs Dancing Links on the
//! exact-cover formulation, as Fletcher et al. do ([`crate::dlx`]), and
//! [`Engine::Bitset`] runs a bitset search over cells with exact deductions
//! ([`crate::bitset`]), the fastest. [`Engines`] is a non-empty list of them:
//! the first answers, every other one answers the same question and must
//! agree, or the result is a [`Disagreement`] (always a bug, reported with
//! everything needed to reproduce it).
//!
//! A relaxed instance can also be cross-checked by certificate
//! ([`analyze_relaxed_certified`]): the bitset search hands over the
//! solutions it found with its answer, and SAT proves the answer from them
//! ([`crate::sat::certificate`]) at a fraction of the cost of re-analyzing.

pub(crate) use crate::answers::{Count, InstanceAnalysis, Status, SudokuEngine};

use crate::graph::RelaxedInstance;
use crate::grid::{Puzzle, Solution};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// One engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The varisat SAT solver on the CNF encodings.
    Sat,
    /// Dancing Links (Algorithm X) on the exact-cover formulation.
    Dlx,
    /// Bitset search over cells with exact deductions (the fastest).
    Bitset,
}

impl Engine {
    /// Every engine, in the order `all` lists them.
    pub const ALL: [Engine; 3] = [Engine::Bitset, Engine::Dlx, Engine::Sat];

    /// The implementation behind this name.
    pub fn implementation(self) -> &'static dyn SudokuEngine {
        match self {
            Engine::Sat => &crate::sat::Sat,
            Engine::Dlx => &crate::dlx::Dlx,
            Engine::Bitset => &crate::bitset::Bitset,
        }
    }

    /// The engine that re-checks this one's answers when only one is chosen:
    /// SAT for the two search engines, the bitset search for SAT.
    pub fn checker(self) -> Engine {
        match self {
            Engine::Sat => Engine::Bitset,
            Engine::Dlx | Engine::Bitset => Engine::Sat,
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Sat => "sat",
            Engine::Dlx => "dlx",
            Engine::Bitset => "bitset",
        })
    }
}

/// An engine name that is not `sat`, `dlx` or `bitset`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine {0:?} (expected sat, dlx, bitset, a comma-separated list of them, or all)")]
pub struct UnknownEngine(pub String);

impl FromStr for Engine {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, UnknownEngine> {
        match s.trim() {
            "sat" => Ok(Engine::Sat),
            "dlx" => Ok(Engine::Dlx),
            "bitset" => Ok(Engine::Bitset),
            other => Err(UnknownEngine(other.to_string())),
        }
    }
}

/// A non-empty list of distinct engines: the first answers, the others check.
///
/// Check, count and solve:
///
/// ```
/// use sudolab::{Engine, Engines, Status, parse_puzzle};
///
/// let p = parse_puzzle(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let engines = Engines::all();
/// assert_eq!(engines.status(&p)?, Status::Unique);
/// assert_eq!(engines.count(&p, 2)?.solutions, 1);
/// let solution = Engines::one(Engine::Dlx).solve(&p)?.expect("solvable");
/// assert_eq!(solution.cells()[..3], [5, 3, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Engines(Vec<Engine>);

impl Default for Engines {
    fn default() -> Self {
        Engines(vec![Engine::Bitset])
    }
}

impl Engines {
    /// One engine alone.
    pub fn one(e: Engine) -> Engines {
        Engines(vec![e])
    }

    /// Several engines, duplicates dropped; `None` when `list` is empty.
    pub fn new(list: &[Engine]) -> Option<Engines> {
        let mut v: Vec<Engine> = Vec::with_capacity(list.len());
        for &e in list {
            if !v.contains(&e) {
                v.push(e);
            }
        }
        (!v.is_empty()).then_some(Engines(v))
    }

    /// The engine that answers a puzzle of this size in bounded time when
    /// none is chosen: the bitset search up to 16×16; SAT (varisat, whose
    /// clause learning does not get lost in the 625 cells) for 25×25, where
    /// the bitset search can run for hours on a puzzle SAT answers at once.
    pub fn default_for(puzzle: &Puzzle) -> Engines {
        if puzzle.order() >= 5 {
            Engines::one(Engine::Sat)
        } else {
            Engines::default()
        }
    }

    /// All three engines, compared.
    pub fn all() -> Engines {
        Engines(Engine::ALL.to_vec())
    }

    /// The engine whose answer is returned.
    pub fn primary(&self) -> Engine {
        self.0[0]
    }

    /// The engines that check the primary one's answers.
    pub(crate) fn checkers(&self) -> &[Engine] {
        &self.0[1..]
    }

    /// Every chosen engine, primary first.
    pub fn list(&self) -> &[Engine] {
        &self.0
    }

    /// Runs `ask` on every engine and returns the primary's answer when all agree.
    fn agreed<T: PartialEq + fmt::Debug>(
        &self,
        what: impl FnOnce() -> String,
        puzzle: &Puzzle,
        ask: impl Fn(&dyn SudokuEngine) -> T,
    ) -> Result<T, Disagreement> {
        let answers = self.0.iter().map(|&e| (e, ask(e.implementation())));
        compare(what, puzzle, answers.collect())
    }

    /// Counts the solutions of a puzzle up to `cap` (0 = no cap).
    pub fn count(&self, puzzle: &Puzzle, cap: u64) -> Result<Count, Disagreement> {
        self.agreed(
            || "the solution count".to_string(),
            puzzle,
            |e| e.count(puzzle, cap),
        )
    }

    /// Unique, multiple or no solution (a count up to 2).
    pub fn status(&self, puzzle: &Puzzle) -> Result<Status, Disagreement> {
        Ok(Status::from_count(self.count(puzzle, 2)?.solutions))
    }

    /// Solves a puzzle; the solution is verified against the puzzle. The
    /// engines must agree on whether a solution exists and, for a puzzle with
    /// a unique solution, on the solution itself.
    pub fn solve(&self, puzzle: &Puzzle) -> Result<Option<Solution>, Disagreement> {
        let solutions: Vec<(Engine, Option<Solution>)> = self
            .0
            .iter()
            .map(|&e| {
                (
                    e,
                    e.implementation()
                        .solve(puzzle)
                        .filter(|s| s.solves(puzzle)),
                )
            })
            .collect();
        let solvable = compare(
            || "solvability".to_string(),
            puzzle,
            solutions.iter().map(|(e, s)| (*e, s.is_some())).collect(),
        )?;
        if !solvable || self.checkers().is_empty() || self.count(puzzle, 2)?.solutions > 1 {
            return Ok(solutions.into_iter().next().and_then(|(_, s)| s));
        }
        compare(|| "the unique solution".to_string(), puzzle, solutions)
    }

    /// Solution count and fixed cells of a relaxed instance.
    pub fn analyze_relaxed(
        &self,
        r: &RelaxedInstance,
        cap: u64,
    ) -> Result<InstanceAnalysis, Disagreement> {
        self.agreed(
            || format!("the relaxed instance removing {:?}", r.removed()),
            r.puzzle(),
            |e| e.analyze_relaxed(r, cap),
        )
    }
}

/// Most solutions a certificate lists: about 10 MB for a 9×9 instance. An
/// exact count (cap 0) or a cap above it is certified as far as the list
/// goes (see [`analyze_relaxed_certified`]).
pub(crate) const CERTIFICATE_SOLUTIONS: u64 = 100_000;

/// Solution count and fixed cells of a relaxed instance by the bitset search,
/// proved by SAT from the certificate the search hands over (its solutions
/// up to the cap; see [`crate::sat::certificate`]). A certificate that does
/// not prove the answer is a [`Disagreement`] between the two engines.
///
/// The list holds at most [`CERTIFICATE_SOLUTIONS`] solutions, so that an
/// exact count of millions does not hold them all in memory. Beyond that
/// many, the certificate proves "at least that many" and the fixed cells
/// (as a capped answer is proved); the exact count above it is the search's
/// alone.
pub(crate) fn analyze_relaxed_certified(
    r: &RelaxedInstance,
    cap: u64,
) -> Result<InstanceAnalysis, Disagreement> {
    certified_listing_at_most(r, cap, CERTIFICATE_SOLUTIONS)
}

/// [`analyze_relaxed_certified`] with a certificate of at most `limit`
/// solutions.
fn certified_listing_at_most(
    r: &RelaxedInstance,
    cap: u64,
    limit: u64,
) -> Result<InstanceAnalysis, Disagreement> {
    let listed = if cap == 0 { limit } else { cap.min(limit) };
    let (analysis, solutions) =
        crate::bitset::relaxed::RelaxedSearch::new(r).analyze_with_solutions(cap, listed);
    // A search cut short by a cancel has nothing to prove; its caller
    // throws it away.
    if crate::cancel::cancelled() {
        return Ok(analysis);
    }
    if analysis.count.solutions < listed || listed == cap {
        return check_certificate(r, cap, analysis, &solutions);
    }
    // The count goes past what the list holds: prove the answer as if
    // capped at the list's length (at least that many, the same fixed cells).
    let as_capped = InstanceAnalysis {
        count: crate::answers::Count {
            solutions: listed,
            capped: true,
        },
        fixed: analysis.fixed.clone(),
    };
    check_certificate(r, listed, as_capped, &solutions).map(|_| analysis)
}

/// `analysis` when `solutions` prove it (see [`analyze_relaxed_certified`]),
/// else the disagreement, naming what the certificate fails to prove.
pub(crate) fn check_certificate(
    r: &RelaxedInstance,
    cap: u64,
    analysis: InstanceAnalysis,
    solutions: &[Vec<u8>],
) -> Result<InstanceAnalysis, Disagreement> {
    match crate::sat::certificate::check_relaxed_certificate(r, cap, &analysis, solutions) {
        Ok(_) => Ok(analysis),
        Err(fault) => Err(Disagreement {
            what: format!(
                "the certificate of the relaxed instance removing {:?}",
                r.removed()
            ),
            puzzle: r.puzzle().to_line(),
            answers: vec![
                (Engine::Bitset, format!("{analysis:?}")),
                (Engine::Sat, fault.to_string()),
            ],
        }),
    }
}

/// The first answer when every answer equals it, else the disagreement.
fn compare<T: PartialEq + fmt::Debug>(
    what: impl FnOnce() -> String,
    puzzle: &Puzzle,
    answers: Vec<(Engine, T)>,
) -> Result<T, Disagreement> {
    let mut answers = answers.into_iter();
    let Some((primary, first)) = answers.next() else {
        unreachable!("an engine list is never empty")
    };
    let differing: Vec<(Engine, String)> = answers
        .filter(|(_, a)| *a != first)
        .map(|(e, a)| (e, format!("{a:?}")))
        .collect();
    if differing.is_empty() {
        return Ok(first);
    }
    let mut all = vec![(primary, format!("{first:?}"))];
    all.extend(differing);
    Err(Disagreement {
        what: what(),
        puzzle: puzzle.to_line(),
        answers: all,
    })
}

impl fmt::Display for Engines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.0.iter().map(|e| e.to_string()).collect();
        f.write_str(&names.join(","))
    }
}

impl FromStr for Engines {
    type Err = UnknownEngine;
    /// `sat`, `dlx`, `bitset`, a comma-separated list of them, or `all`.
    fn from_str(s: &str) -> Result<Self, UnknownEngine> {
        if s.trim() == "all" {
            return Ok(Engines::all());
        }
        let list = s
            .split(',')
            .map(str::parse)
            .collect::<Result<Vec<Engine>, _>>()?;
        Engines::new(&list).ok_or_else(|| UnknownEngine(s.to_string()))
    }
}

impl Serialize for Engines {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Two engines gave different answers: always a bug, reported with
/// everything needed to reproduce it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("engines disagree on {what} for puzzle {puzzle}: {}", says(.answers))]
pub struct Disagreement {
    /// The question, with its parameters (removed edges, sample, seed).
    pub what: String,
    /// The puzzle, as one line.
    pub puzzle: String,
    /// Each engine's answer, the primary one first.
    pub answers: Vec<(Engine, String)>,
}

fn says(answers: &[(Engine, String)]) -> String {
    let parts: Vec<String> = answers
        .iter()
        .map(|(e, a)| format!("{e} says {a}"))
        .collect();
    parts.join(", ")
}

impl Disagreement {
    /// The same disagreement with more context on the question.
    pub fn about(mut self, context: impl fmt::Display) -> Disagreement {
        self.what = format!("{} ({context})", self.what);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_returns_the_agreed_answer_or_names_every_differing_engine() {
        let p = Puzzle::empty(2);
        let what = || "the count".to_string();
        let same = vec![(Engine::Bitset, 3), (Engine::Sat, 3)];
        assert_eq!(compare(what, &p, same), Ok(3));
        let d = compare(
            what,
            &p,
            vec![(Engine::Bitset, 3), (Engine::Dlx, 3), (Engine::Sat, 4)],
        )
        .unwrap_err();
        assert_eq!(
            d.answers,
            vec![(Engine::Bitset, "3".into()), (Engine::Sat, "4".into())]
        );
        assert!(d.to_string().contains("bitset says 3, sat says 4"), "{d}");
    }

    /// A certificate listing fewer solutions than an exact count (or a
    /// large cap) asks for proves the same answer, as a capped one: the
    /// search's answer comes back unchanged for every cap and list length.
    #[test]
    fn a_certificate_shorter_than_the_count_proves_the_same_answer() {
        let p = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let mut over = 0;
        for i in 0..40 {
            let mut removed = RelaxedInstance::shuffled_edges(3, i);
            removed.truncate(45);
            removed.sort_unstable();
            let r = RelaxedInstance::new(&p, &removed).unwrap();
            for cap in [0, 20, 5000] {
                let want = crate::bitset::relaxed::analyze(&r, cap);
                for limit in [1, 10, CERTIFICATE_SOLUTIONS] {
                    // The list is shorter than the count: proved as capped.
                    over += usize::from((cap == 0 || cap > limit) && want.count.solutions >= limit);
                    assert_eq!(
                        certified_listing_at_most(&r, cap, limit),
                        Ok(want.clone()),
                        "sample {i}, cap {cap}, limit {limit}"
                    );
                }
            }
        }
        // The shortened certificates were needed many times.
        assert!(over > 40, "{over}");
    }

    #[test]
    fn engine_lists_parse() {
        assert_eq!("all".parse::<Engines>().unwrap(), Engines::all());
        let two: Engines = "sat,dlx,sat".parse().unwrap();
        assert_eq!(two.list(), &[Engine::Sat, Engine::Dlx]);
        assert_eq!(two.to_string(), "sat,dlx");
        assert!("sat,".parse::<Engines>().is_err());
        assert!("both".parse::<Engines>().is_err());
    }
}
