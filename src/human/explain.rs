//! A readable human solving path: which technique placed or removed what,
//! step by step, along the simplest-first path of [`super::path`].
//!
//! [`explain`] returns an [`Explanation`] that serializes (JSON) and prints
//! (its `Display`) lines such as `hidden single: r3c4 = 7 (box 2)` or
//! `naked pair {2,8} at r4c3, r5c3 in column 3: r2c3≠2, r6c3≠8`. When the
//! catalogue cannot finish, the explanation says the puzzle needs search and
//! shows the grid where it stopped.

use super::path::simplest_path;
use super::solver::{Solved, solve};
use super::techniques::{Application, Technique};
use super::weights::weight;
use crate::grid::{Geometry, Puzzle};
use crate::se::SerateUnfinished;
use serde::Serialize;
use std::fmt;

/// How the explanation ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "reason")]
pub enum ExplainStatus {
    /// The techniques fill the grid.
    Solved,
    /// No technique applies before the grid is full.
    NeedsSearch,
    /// The path stopped for another reason (SE's nesting levels 3–5 ran
    /// past their work budget: "over budget").
    Stopped(String),
    /// The puzzle is contradictory or has no unique solution.
    Invalid(String),
}

/// A placement or removal, with the cell named `rXcY`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellDigit {
    /// Cell name, `rXcY` with 1-based row and column.
    pub cell: String,
    /// The digit placed or removed, `1..=N`.
    pub digit: u8,
}

/// One step of the path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExplainStep {
    /// Technique the step applies.
    pub technique: Technique,
    /// The readable line.
    pub text: String,
    /// Digits the step places.
    pub placements: Vec<CellDigit>,
    /// Candidates the step removes.
    pub eliminations: Vec<CellDigit>,
}

/// A step-by-step solving path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The puzzle as one line.
    pub puzzle: String,
    /// How the path ended: solved, stuck (needs search), or invalid puzzle.
    pub status: ExplainStatus,
    /// The applications of the simplest-first path (`docs/methods.md` §3.5), in order.
    pub steps: Vec<ExplainStep>,
    /// Used technique with the highest Xu & Xu first-use weight; `None` when no
    /// step was taken.
    pub hardest_technique: Option<Technique>,
    /// The grid where the path stopped, when it did not finish.
    pub remaining: Option<String>,
    /// Where the catalogue's path is stuck: Sudoku Explainer's whole path,
    /// which goes on with its chains ([`Explanation::or_serate`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serate_path: Option<SeExplanation>,
}

fn cells_text(geo: &Geometry, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| geo.cell_name(c))
        .collect::<Vec<_>>()
        .join(", ")
}

fn unit_text(geo: &Geometry, u: usize) -> String {
    let (kind, number) = geo.unit_name(u);
    format!("{kind} {number}")
}

/// A digit as the input writes it (`A` for 10 on a 16×16 grid).
fn digit(d: u8) -> char {
    crate::grid::digit_to_char(d, 0)
}

fn digits_text(ds: &[u8]) -> String {
    format!(
        "{{{}}}",
        ds.iter()
            .map(|&d| digit(d).to_string())
            .collect::<Vec<_>>()
            .join(",")
    )
}

/// Candidates with their cells named.
fn cell_digits(geo: &Geometry, v: &[(usize, u8)]) -> Vec<CellDigit> {
    v.iter()
        .map(|&(c, d)| CellDigit {
            cell: geo.cell_name(c),
            digit: d,
        })
        .collect()
}

/// What a step places and removes, as `r1c2 = 3; r4c5≠6`.
fn effect_text(geo: &Geometry, placed: &[(usize, u8)], removed: &[(usize, u8)]) -> String {
    let list = |v: &[(usize, u8)], sign: &str| {
        v.iter()
            .map(|&(c, d)| format!("{}{sign}{}", geo.cell_name(c), digit(d)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (placed, removed) = (list(placed, " = "), list(removed, "≠"));
    match (placed.is_empty(), removed.is_empty()) {
        (false, true) => placed,
        (true, false) => removed,
        _ => format!("{placed}; {removed}"),
    }
}

/// The readable line of an application.
pub(super) fn describe(geo: &Geometry, a: &Application) -> String {
    let effect = effect_text(geo, &a.placements, &a.eliminations);
    let name = a.technique.name();
    let units = a
        .units
        .iter()
        .map(|&u| unit_text(geo, u))
        .collect::<Vec<_>>();
    match a.technique {
        Technique::NakedSingle => format!("{name}: {effect}"),
        Technique::HiddenSingle => format!("{name}: {effect} ({})", units.join(", ")),
        Technique::NakedPair
        | Technique::NakedTriple
        | Technique::NakedQuad
        | Technique::HiddenPair
        | Technique::HiddenTriple
        | Technique::HiddenQuad => format!(
            "{name} {} at {} in {}: {effect}",
            digits_text(&a.digits),
            cells_text(geo, &a.cells),
            units.join(", ")
        ),
        Technique::Pointing | Technique::Claiming => format!(
            "{name}: {} of {} lies in {}: {effect}",
            digits_text(&a.digits),
            units.first().cloned().unwrap_or_default(),
            units.get(1).cloned().unwrap_or_default()
        ),
        Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
            let half = a.units.len() / 2;
            format!(
                "{name} on {}: {} cover {}: {effect}",
                digits_text(&a.digits),
                units[..half].join(", "),
                units[half..].join(", ")
            )
        }
        Technique::XyWing | Technique::XyzWing | Technique::WxyzWing => format!(
            "{name} {} pivot {} with {}: {effect}",
            digits_text(&a.digits),
            cells_text(geo, &a.cells[..1.min(a.cells.len())]),
            cells_text(geo, a.cells.get(1..).unwrap_or(&[])),
        ),
        Technique::ForcingChain => {
            let source = if a.units.is_empty() {
                format!("{} {}", cells_text(geo, &a.cells), digits_text(&a.digits))
            } else {
                format!(
                    "{} in {} ({})",
                    digits_text(&a.digits),
                    units.join(", "),
                    cells_text(geo, &a.cells)
                )
            };
            match &a.note {
                Some(note) => format!("{name} from {source} ({note}): {effect}"),
                None => format!("{name} from {source}: {effect}"),
            }
        }
    }
}

/// Why a puzzle cannot be explained (a contradiction, no or several
/// solutions); `None` when it has exactly one solution.
fn invalid(puzzle: &Puzzle) -> Option<String> {
    if let Err(c) = puzzle.check() {
        return Some(format!("contradiction: {c}"));
    }
    match solve(puzzle) {
        Solved::Unique(_) => None,
        Solved::Multiple => Some("not unique: at least 2 solutions".into()),
        Solved::None => Some("no solution".into()),
    }
}

impl Explanation {
    /// [`Explanation::of`], and where the catalogue is stuck (it has no
    /// chains), Sudoku Explainer's path of the puzzle within
    /// `serate_budget` ([`SeExplanation::of`]) in `serate_path`.
    pub fn or_serate(puzzle: &Puzzle, serate_budget: u64) -> Explanation {
        let mut out = Explanation::of(puzzle);
        if out.status == ExplainStatus::NeedsSearch {
            out.serate_path = Some(SeExplanation::of(puzzle, serate_budget));
        }
        out
    }

    /// Explains how a human would solve the puzzle with the technique catalogue.
    pub fn of(puzzle: &Puzzle) -> Explanation {
        let mut out = Explanation {
            puzzle: puzzle.to_line(),
            status: ExplainStatus::Solved,
            steps: Vec::new(),
            hardest_technique: None,
            remaining: None,
            serate_path: None,
        };
        if let Some(why) = invalid(puzzle) {
            out.status = ExplainStatus::Invalid(why);
            return out;
        }
        let geo = puzzle.geometry();
        let path = simplest_path(puzzle, &Technique::ALL);
        let cd = |v: &[(usize, u8)]| cell_digits(geo, v);
        out.steps = path
            .steps
            .iter()
            .map(|a| ExplainStep {
                technique: a.technique,
                text: describe(geo, a),
                placements: cd(&a.placements),
                eliminations: cd(&a.eliminations),
            })
            .collect();
        out.hardest_technique = path
            .steps
            .iter()
            .map(|a| a.technique)
            .max_by_key(|&t| (weight(t).0, t));
        if !path.solved {
            out.status = ExplainStatus::NeedsSearch;
            out.remaining = Some(path.end.to_puzzle().to_line());
        }
        out
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "puzzle: {}", self.puzzle)?;
        if let ExplainStatus::Invalid(why) = &self.status {
            return writeln!(f, "invalid puzzle: {why}");
        }
        let width = self.steps.len().to_string().len();
        for (i, s) in self.steps.iter().enumerate() {
            writeln!(f, "{:>width$}. {}", i + 1, s.text)?;
        }
        let hardest = self
            .hardest_technique
            .map(|t| t.name().to_string())
            .unwrap_or_else(|| "none".into());
        match self.status {
            ExplainStatus::Solved => writeln!(
                f,
                "solved in {}; hardest technique: {hardest}",
                crate::util::counted(self.steps.len(), "step")
            ),
            _ => {
                writeln!(
                    f,
                    "stuck after {}: needs search (hardest technique so far: {hardest})\nremaining: {}",
                    crate::util::counted(self.steps.len(), "step"),
                    self.remaining.as_deref().unwrap_or("")
                )?;
                match &self.serate_path {
                    Some(se) => {
                        writeln!(
                            f,
                            "\nSudoku Explainer's path (rate -m serate --explain), which goes on with chains:"
                        )?;
                        write!(f, "{se}")
                    }
                    None => writeln!(
                        f,
                        "(rate -m serate --explain shows Sudoku Explainer's path, which goes on with chains)"
                    ),
                }
            }
        }
    }
}

/// One step of Sudoku Explainer's path, with its rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeExplainStep {
    /// SE's rating of the step (ER is the largest).
    pub rating: f64,
    /// SE's rule, as `serate_uses` names it.
    pub rule: String,
    /// The readable line: `rating, rule: effect`.
    pub text: String,
    /// Digits the step places.
    pub placements: Vec<CellDigit>,
    /// Candidates the step removes (besides those its placements take).
    pub eliminations: Vec<CellDigit>,
    /// A forcing chain's branches with their links, as SE shows them
    /// (`docs/methods.md` §3.7); absent for other steps and for SE's first
    /// producer's cycles and X-, Y- and XY-chains.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<crate::se::links::ChainBranch>,
}

/// Sudoku Explainer's path of a puzzle step by step (`rate --explain -m
/// serate`, `docs/methods.md` §3.11): the step SE takes at each state, with
/// its rating, and the puzzle's ER, EP and ED.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeExplanation {
    /// The puzzle as one line.
    pub puzzle: String,
    /// How the path ended: solved, or stuck (needs search, or over the work
    /// budget of nesting levels 3–5, with the reason), or invalid puzzle.
    pub status: ExplainStatus,
    /// The steps, in order.
    pub steps: Vec<SeExplainStep>,
    /// ER, EP and ED when the path finished.
    pub serate: Option<f64>,
    /// EP (pearl).
    pub serate_ep: Option<f64>,
    /// ED (diamond).
    pub serate_ed: Option<f64>,
    /// The grid where the path stopped, when it did not finish.
    pub remaining: Option<String>,
}

impl SeExplanation {
    /// Explains Sudoku Explainer's path of `puzzle`, its nesting levels 3–5
    /// within `serate_budget` work units ([`crate::RateOptions::serate_budget`]).
    pub fn of(puzzle: &Puzzle, serate_budget: u64) -> SeExplanation {
        use crate::se::{WorkBudget, serate_path};
        let mut out = SeExplanation {
            puzzle: puzzle.to_line(),
            status: ExplainStatus::Solved,
            steps: Vec::new(),
            serate: None,
            serate_ep: None,
            serate_ed: None,
            remaining: None,
        };
        if let Some(why) = invalid(puzzle) {
            out.status = ExplainStatus::Invalid(why);
            return out;
        }
        let geo = puzzle.geometry();
        let cd = |v: &[(usize, u8)]| cell_digits(geo, v);
        let (result, path) = serate_path(puzzle, WorkBudget(serate_budget));
        let mut board = crate::human::board::Board::new(puzzle);
        for s in &path {
            let effect = effect_text(geo, &s.placed, &s.removed);
            let rating = f64::from(s.tenths) / 10.0;
            out.steps.push(SeExplainStep {
                rating,
                rule: s.rule.name().to_string(),
                text: format!("{rating:.1}, {}: {effect}", s.rule.name()),
                placements: cd(&s.placed),
                eliminations: cd(&s.removed),
                chain: s
                    .chain
                    .map_or_else(Vec::new, |c| crate::se::links::chain_links(&board, &c)),
            });
            for &(c, d) in &s.removed {
                board.eliminate(c, d);
            }
            for &(c, d) in &s.placed {
                board.place(c, d);
            }
        }
        match result {
            Ok(r) => {
                out.serate = Some(r.serate);
                out.serate_ep = Some(r.ep);
                out.serate_ed = Some(r.ed);
            }
            Err(SerateUnfinished::NeedsSearch) => {
                out.status = ExplainStatus::NeedsSearch;
                out.remaining = Some(board.to_puzzle().to_line());
            }
            Err(why) => {
                out.status = ExplainStatus::Stopped(why.to_string());
                out.remaining = Some(board.to_puzzle().to_line());
            }
        }
        out
    }
}

impl fmt::Display for SeExplanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "puzzle: {}", self.puzzle)?;
        if let ExplainStatus::Invalid(why) = &self.status {
            return writeln!(f, "invalid puzzle: {why}");
        }
        let width = self.steps.len().to_string().len();
        for (i, s) in self.steps.iter().enumerate() {
            writeln!(f, "{:>width$}. {}", i + 1, s.text)?;
            for b in &s.chain {
                writeln!(f, "{:width$}    if {}:", "", b.assumption)?;
                for (k, link) in b.links.iter().enumerate() {
                    writeln!(f, "{:width$}      ({}) {link}", "", k + 1)?;
                }
            }
        }
        match (&self.status, self.serate, self.serate_ep, self.serate_ed) {
            (ExplainStatus::Solved, Some(er), Some(ep), Some(ed)) => writeln!(
                f,
                "solved in {}; ER {er:.1}, EP {ep:.1}, ED {ed:.1}",
                crate::util::counted(self.steps.len(), "step")
            ),
            (status, ..) => {
                let why = match status {
                    ExplainStatus::Stopped(why) => why.as_str(),
                    _ => "needs search",
                };
                writeln!(
                    f,
                    "stuck after {}: {why}\nremaining: {}",
                    crate::util::counted(self.steps.len(), "step"),
                    self.remaining.as_deref().unwrap_or("")
                )
            }
        }
    }
}
