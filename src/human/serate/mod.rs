//! A Serate-like rating and a Fowler-like rating (Pelánek, "Difficulty
//! rating of Sudoku puzzles: an overview and evaluation", §3.1 "Difficulty
//! Metrics Based on the Model", Table 1 and Table 3), on Sukaku Explainer's
//! difficulty scale.
//!
//! The rating table is Sukaku Explainer's (SE, the SudokuExplainer fork that
//! rated the SE sets of `../shared/data`): the difficulty each of its hint
//! classes reports, read from its source (version 1.18.1, default settings),
//! of which Pelánek's Table 1 prints the eight simplest. Each rule of ours,
//! with SE's rating in tests:
//!
//! * singles: the last empty cell of a unit 1.0, a hidden single in a box 1.2,
//!   in a row or column 1.5, a naked single 2.3;
//! * "direct" techniques, which SE rates as the single they directly yield:
//!   a pointing whose removals leave a hidden single in another box 1.7, a
//!   claiming whose removals leave one in another parallel line 1.9, a hidden
//!   pair or triple whose removals leave one in its own unit 2.0 and 2.5
//!   (as in SE, the step places the single only; the removals wait for a
//!   later step);
//! * the other techniques of our catalogue at SE's base ratings: pointing
//!   2.6, claiming 2.8, naked pair 3.0, X-wing 3.2, hidden pair 3.4, naked
//!   triple 3.6, swordfish 3.8, hidden triple 4.0, XY-wing 4.2, XYZ-wing 4.4,
//!   WXYZ-wing 4.6, naked quad 5.0, jellyfish 5.2, hidden quad 5.4;
//! * forcing chains by SE's kind and length ([`chains`]): 6.6 or 7.0 for a
//!   static chain, 7.5 for a Nishio contradiction, 8.0 for multiple
//!   (cell and region) forcing chains, 8.5 for a dynamic chain, 9.0 for a
//!   dynamic chain with basic techniques inside, 9.5 for one with static
//!   chains nested inside, each plus 0.1 per length threshold passed.
//!
//! The solving path, as in SE, takes at every state the lowest-rated step
//! that applies: the lowest-rated single, else the lowest-rated technique's
//! first application, else the lowest-rated chain conclusion of the first of
//! SE's chain producers that finds one (which alone is applied, as SE
//! applies one chain hint).
//!
//! * **Serate** (Pelánek's definition: the difficulty of the hardest
//!   technique used): the highest rating along that path.
//! * **Fowler-like**: Pelánek describes Fowler's metric only as an
//!   expression over how often each technique is used, with ad hoc
//!   parameters, and gives neither the expression nor the values. Ours is
//!   the simplest such expression: the sum of the ratings of every step of
//!   the path (each placement or elimination step counts once), so it grows
//!   with both how hard and how many the steps are. It is our design, named
//!   after the paper's row it stands in for.
//! * **Uses**: how many times each rule was used along the path, the data
//!   Pelánek's "Serate LM" fits a linear model on (`docs/papers.md`).
//!
//! A puzzle the catalogue cannot finish is "needs search": no number.

pub(crate) mod chains;

use super::Unfinished;
use super::board::Board;
use super::techniques::{Application, Technique, find, find_first, hidden_singles};
use crate::grid::Puzzle;
pub(crate) use chains::nesting::WorkBudget;
use chains::nesting::{Work, easiest_deep_chain};
use chains::{ChainKind, easiest_chain};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A rule of SE's rating table that our path can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum SeRule {
    /// Hidden single in a unit with one empty cell left, 1.0.
    LastCell,
    /// Hidden single in a box, 1.2.
    HiddenSingleBox,
    /// Hidden single in a row or column, 1.5.
    HiddenSingleLine,
    /// Pointing that leaves a hidden single in another box, 1.7.
    DirectPointing,
    /// Claiming that leaves a hidden single in another parallel line, 1.9.
    DirectClaiming,
    /// Hidden pair that leaves a hidden single in its unit, 2.0.
    DirectHiddenPair,
    /// Naked single, 2.3.
    NakedSingle,
    /// Hidden triple that leaves a hidden single in its unit, 2.5.
    DirectHiddenTriple,
    /// A technique of the catalogue (not a single or a chain) at its base
    /// rating.
    Plain(Technique),
    /// A forcing chain of the kind (its rating grows with its length).
    Chain(ChainKind),
}

impl SeRule {
    /// The name `serate_uses` lists the rule by.
    pub(crate) fn name(self) -> &'static str {
        match self {
            SeRule::LastCell => "last cell",
            SeRule::HiddenSingleBox => "hidden single (box)",
            SeRule::HiddenSingleLine => "hidden single (line)",
            SeRule::DirectPointing => "direct pointing",
            SeRule::DirectClaiming => "direct claiming",
            SeRule::DirectHiddenPair => "direct hidden pair",
            SeRule::NakedSingle => "naked single",
            SeRule::DirectHiddenTriple => "direct hidden triple",
            SeRule::Plain(t) => t.name(),
            SeRule::Chain(ChainKind::XOrY) => "forcing X- or Y-chain",
            SeRule::Chain(ChainKind::Forcing) => "forcing chain",
            SeRule::Chain(ChainKind::Nishio) => "Nishio",
            SeRule::Chain(ChainKind::Multiple) => "multiple forcing chain",
            SeRule::Chain(ChainKind::Dynamic) => "dynamic forcing chain",
            SeRule::Chain(ChainKind::DynamicPlus) => "dynamic forcing chain (+)",
            SeRule::Chain(ChainKind::Nested) => "nested forcing chain (+ forcing chains)",
            SeRule::Chain(ChainKind::NestedMultiple) => {
                "nested forcing chain (+ multiple forcing chains)"
            }
            SeRule::Chain(ChainKind::NestedDynamic) => {
                "nested forcing chain (+ dynamic forcing chains)"
            }
            SeRule::Chain(ChainKind::NestedDynamicPlus) => {
                "nested forcing chain (+ dynamic forcing chains (+ forcing chains))"
            }
        }
    }

    /// The technique of our catalogue the rule is a case of.
    pub(crate) fn technique(self) -> Technique {
        match self {
            SeRule::LastCell | SeRule::HiddenSingleBox | SeRule::HiddenSingleLine => {
                Technique::HiddenSingle
            }
            SeRule::DirectPointing => Technique::Pointing,
            SeRule::DirectClaiming => Technique::Claiming,
            SeRule::DirectHiddenPair => Technique::HiddenPair,
            SeRule::NakedSingle => Technique::NakedSingle,
            SeRule::DirectHiddenTriple => Technique::HiddenTriple,
            SeRule::Plain(t) => t,
            SeRule::Chain(_) => Technique::ForcingChain,
        }
    }

    /// SE's rating in tenths (a chain's base rating, without its length).
    pub(crate) fn tenths(self) -> u32 {
        match self {
            SeRule::LastCell => 10,
            SeRule::HiddenSingleBox => 12,
            SeRule::HiddenSingleLine => 15,
            SeRule::DirectPointing => 17,
            SeRule::DirectClaiming => 19,
            SeRule::DirectHiddenPair => 20,
            SeRule::NakedSingle => 23,
            SeRule::DirectHiddenTriple => 25,
            SeRule::Plain(t) => (rating(t) * 10.0).round() as u32,
            SeRule::Chain(k) => k.base_tenths(),
        }
    }
}

/// SE's base rating of a technique of our catalogue: the non-direct one,
/// and for a hidden single the box one; a forcing chain at the lowest
/// rating of its kinds (6.6).
pub(crate) fn rating(t: Technique) -> f64 {
    match t {
        Technique::HiddenSingle => 1.2,
        Technique::NakedSingle => 2.3,
        Technique::Pointing => 2.6,
        Technique::Claiming => 2.8,
        Technique::NakedPair => 3.0,
        Technique::XWing => 3.2,
        Technique::HiddenPair => 3.4,
        Technique::NakedTriple => 3.6,
        Technique::Swordfish => 3.8,
        Technique::HiddenTriple => 4.0,
        Technique::XyWing => 4.2,
        Technique::XyzWing => 4.4,
        Technique::WxyzWing => 4.6,
        Technique::NakedQuad => 5.0,
        Technique::Jellyfish => 5.2,
        Technique::HiddenQuad => 5.4,
        Technique::ForcingChain => 6.6,
    }
}

/// The catalogue ordered by rating, lowest first.
pub(crate) fn by_rating() -> Vec<Technique> {
    let mut ts = Technique::ALL.to_vec();
    ts.sort_by(|a, b| rating(*a).total_cmp(&rating(*b)));
    ts
}

/// Both ratings of one puzzle, and the rules used.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SerateResult {
    /// The highest rating along the lowest-rating-first path (0 when the
    /// puzzle is already full).
    pub serate: f64,
    /// The sum of the ratings of every step of that path.
    pub fowler: f64,
    /// The technique with the highest rating, if any step was taken.
    pub hardest: Option<Technique>,
    /// The rule with the highest rating, if any step was taken.
    pub hardest_rule: Option<SeRule>,
    /// Steps of the path.
    pub steps: usize,
    /// How many steps used each rule.
    pub uses: BTreeMap<SeRule, usize>,
}

impl SerateResult {
    /// The uses as `name:count` items joined by `;`, in rating order (the
    /// `serate_uses` column).
    pub(crate) fn uses_text(&self) -> String {
        let mut v: Vec<_> = self.uses.iter().collect();
        v.sort_by_key(|(r, _)| (r.tenths(), **r));
        v.iter()
            .map(|(r, n)| format!("{}:{n}", r.name()))
            .collect::<Vec<_>>()
            .join(";")
    }
}

/// One step of the path: what it does and how SE rates it.
struct Step {
    rule: SeRule,
    tenths: u32,
}

/// The kind of unit `u` (0 row, 1 column, 2 box).
fn unit_kind(board: &Board, u: usize) -> usize {
    let geo = board.geometry();
    let first = geo.units[u][0];
    geo.cell_units[first]
        .iter()
        .position(|&x| x == u)
        .unwrap_or(0)
}

/// The lowest-rated hidden single of `board`, applied.
fn hidden_single_step(board: &mut Board, buf: &mut Vec<super::techniques::Single>) -> Option<Step> {
    buf.clear();
    hidden_singles(board, buf);
    let geo = board.geometry();
    let rule_of = |s: &super::techniques::Single| {
        let u = s.unit.unwrap_or(0);
        let empty = geo.units[u]
            .iter()
            .filter(|&&c| board.value(c) == 0)
            .count();
        if empty == 1 {
            SeRule::LastCell
        } else if unit_kind(board, u) == 2 {
            SeRule::HiddenSingleBox
        } else {
            SeRule::HiddenSingleLine
        }
    };
    let (s, rule) = buf
        .iter()
        .map(|s| (*s, rule_of(s)))
        .min_by_key(|(_, r)| r.tenths())?;
    board.place(s.cell, s.digit);
    Some(Step {
        rule,
        tenths: rule.tenths(),
    })
}

/// The first application of `t` whose removals would leave a hidden single
/// in a unit that `unit_ok` accepts (`board` has no hidden single): places
/// that single.
fn direct_step(
    board: &mut Board,
    t: Technique,
    rule: SeRule,
    unit_ok: impl Fn(&Board, &Application, usize) -> bool,
) -> Option<Step> {
    let mut buf = Vec::new();
    for a in find(t, board) {
        let mut after = board.clone();
        a.apply(&mut after);
        buf.clear();
        hidden_singles(&after, &mut buf);
        if let Some(s) = buf
            .iter()
            .find(|s| s.unit.is_some_and(|u| unit_ok(board, &a, u)))
        {
            // As SE's direct hints do, only the single is applied: the
            // removals stay for a later (non-direct) application.
            board.place(s.cell, s.digit);
            return Some(Step {
                rule,
                tenths: rule.tenths(),
            });
        }
    }
    None
}

/// Why [`serate_within`] stops without a rating when its work budget runs
/// out (the [`Unfinished`] reason).
pub(crate) const OVER_BUDGET: &str = "over budget";

/// Takes the lowest-rated step SE would take on `board`; `Ok(None)` when
/// nothing applies.
///
/// # Errors
/// [`OVER_BUDGET`] when SE's nesting levels 3–5 run out of `work`.
fn next_step(
    board: &mut Board,
    buf: &mut Vec<super::techniques::Single>,
    work: &Arc<Work>,
) -> Result<Option<Step>, Unfinished> {
    if let Some(s) = simple_step(board, buf) {
        return Ok(Some(s));
    }
    deep_step(board, work)
}

/// The step of SE's nesting levels 3–5, applied (only when no simpler
/// rule applies).
fn deep_step(board: &mut Board, work: &Arc<Work>) -> Result<Option<Step>, Unfinished> {
    let found = easiest_deep_chain(board, work).map_err(|_| Unfinished::new(OVER_BUDGET))?;
    Ok(found.map(|c| {
        c.conclusion.apply(board);
        Step {
            rule: SeRule::Chain(c.kind),
            tenths: c.tenths,
        }
    }))
}

/// The lowest-rated step SE would take on `board` up to nesting level 2,
/// applied; `None` when nothing applies.
fn simple_step(board: &mut Board, buf: &mut Vec<super::techniques::Single>) -> Option<Step> {
    if let Some(s) = hidden_single_step(board, buf) {
        return Some(s);
    }
    // Pointing: a box's digit on one line; SE looks for the single in the
    // other boxes of the line. Claiming: a line's digit in one box; SE looks
    // in the other lines of that kind through the box.
    let same_kind_as_base = |b: &Board, a: &Application, u: usize| {
        a.units
            .first()
            .is_some_and(|&w| unit_kind(b, w) == unit_kind(b, u) && w != u)
    };
    let own_unit = |_: &Board, a: &Application, u: usize| a.units.first() == Some(&u);
    if let Some(s) = direct_step(
        board,
        Technique::Pointing,
        SeRule::DirectPointing,
        same_kind_as_base,
    ) {
        return Some(s);
    }
    if let Some(s) = direct_step(
        board,
        Technique::Claiming,
        SeRule::DirectClaiming,
        same_kind_as_base,
    ) {
        return Some(s);
    }
    if let Some(s) = direct_step(
        board,
        Technique::HiddenPair,
        SeRule::DirectHiddenPair,
        own_unit,
    ) {
        return Some(s);
    }
    if let Some(a) = find_first(Technique::NakedSingle, board) {
        a.apply(board);
        let rule = SeRule::NakedSingle;
        return Some(Step {
            rule,
            tenths: rule.tenths(),
        });
    }
    if let Some(s) = direct_step(
        board,
        Technique::HiddenTriple,
        SeRule::DirectHiddenTriple,
        own_unit,
    ) {
        return Some(s);
    }
    for t in by_rating() {
        if matches!(
            t,
            Technique::HiddenSingle | Technique::NakedSingle | Technique::ForcingChain
        ) {
            continue;
        }
        if let Some(a) = find_first(t, board) {
            a.apply(board);
            let rule = SeRule::Plain(t);
            return Some(Step {
                rule,
                tenths: rule.tenths(),
            });
        }
    }
    let c = easiest_chain(board)?;
    c.conclusion.apply(board);
    Some(Step {
        rule: SeRule::Chain(c.kind),
        tenths: c.tenths,
    })
}

/// Rates `puzzle` along the lowest-rating-first path, within the default
/// [`WorkBudget`].
///
/// # Errors
/// "needs search" when the catalogue cannot finish the puzzle,
/// [`OVER_BUDGET`] when the budget runs out.
pub(crate) fn serate(puzzle: &Puzzle) -> Result<SerateResult, Unfinished> {
    serate_within(puzzle, WorkBudget::DEFAULT)
}

/// Rates `puzzle` along the lowest-rating-first path; SE's nesting levels
/// 3–5 may do `budget` units of work.
///
/// # Errors
/// "needs search" when the catalogue cannot finish the puzzle,
/// [`OVER_BUDGET`] when the budget runs out first.
pub(crate) fn serate_within(
    puzzle: &Puzzle,
    budget: WorkBudget,
) -> Result<SerateResult, Unfinished> {
    let work = Work::new(budget);
    let mut r = SerateResult {
        serate: 0.0,
        fowler: 0.0,
        hardest: None,
        hardest_rule: None,
        steps: 0,
        uses: BTreeMap::new(),
    };
    let mut board = Board::new(puzzle);
    let (mut max, mut sum) = (0u32, 0u64);
    let mut buf = Vec::new();
    while !board.is_solved() {
        let Some(step) = next_step(&mut board, &mut buf, &work)? else {
            return Err(Unfinished::new("needs search"));
        };
        r.steps += 1;
        sum += u64::from(step.tenths);
        *r.uses.entry(step.rule).or_insert(0) += 1;
        if step.tenths > max {
            max = step.tenths;
            r.hardest_rule = Some(step.rule);
            r.hardest = Some(step.rule.technique());
        }
    }
    // Ratings are kept in tenths, so these are exact one-decimal values.
    r.serate = f64::from(max) / 10.0;
    r.fowler = sum as f64 / 10.0;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ses_rating_table() {
        // Pelánek Table 1 (Sudoku Explainer's eight simplest techniques).
        assert_eq!(SeRule::HiddenSingleBox.tenths(), 12);
        assert_eq!(SeRule::NakedSingle.tenths(), 23);
        assert_eq!(SeRule::DirectPointing.tenths(), 17);
        assert_eq!(SeRule::DirectClaiming.tenths(), 19);
        assert_eq!(SeRule::DirectHiddenPair.tenths(), 20);
        assert_eq!(SeRule::DirectHiddenTriple.tenths(), 25);
        assert_eq!(SeRule::Plain(Technique::Pointing).tenths(), 26);
        assert_eq!(SeRule::Plain(Technique::Claiming).tenths(), 28);
        // Sukaku Explainer's other single ratings and base ratings.
        assert_eq!(SeRule::LastCell.tenths(), 10);
        assert_eq!(SeRule::HiddenSingleLine.tenths(), 15);
        assert_eq!(SeRule::Plain(Technique::NakedPair).tenths(), 30);
        assert_eq!(SeRule::Plain(Technique::XWing).tenths(), 32);
        assert_eq!(SeRule::Plain(Technique::HiddenPair).tenths(), 34);
        assert_eq!(SeRule::Plain(Technique::Swordfish).tenths(), 38);
        assert_eq!(SeRule::Plain(Technique::XyWing).tenths(), 42);
        assert_eq!(SeRule::Plain(Technique::HiddenQuad).tenths(), 54);
        assert_eq!(SeRule::Chain(ChainKind::XOrY).tenths(), 66);
        assert_eq!(SeRule::Chain(ChainKind::Forcing).tenths(), 70);
        assert_eq!(SeRule::Chain(ChainKind::Nishio).tenths(), 75);
        assert_eq!(SeRule::Chain(ChainKind::Multiple).tenths(), 80);
        assert_eq!(SeRule::Chain(ChainKind::Dynamic).tenths(), 85);
        assert_eq!(SeRule::Chain(ChainKind::DynamicPlus).tenths(), 90);
        assert_eq!(SeRule::Chain(ChainKind::Nested).tenths(), 95);
        let order = by_rating();
        assert_eq!(order[0], Technique::HiddenSingle);
        assert_eq!(order[1], Technique::NakedSingle);
        assert_eq!(*order.last().unwrap(), Technique::ForcingChain);
    }

    #[test]
    fn one_missing_cell_is_a_last_cell() {
        // A full grid with one cell removed: SE's lowest-rated single is the
        // last empty cell of a unit (1.0).
        let full =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut line = full.to_string();
        line.replace_range(0..1, ".");
        let p = crate::grid::parse_puzzle(&line).unwrap();
        let r = serate(&p).unwrap();
        assert_eq!((r.serate, r.fowler, r.steps), (1.0, 1.0, 1));
        assert_eq!(r.hardest, Some(Technique::HiddenSingle));
        assert_eq!(r.hardest_rule, Some(SeRule::LastCell));
        assert_eq!(r.uses_text(), "last cell:1");
    }

    #[test]
    fn fowler_sums_and_serate_takes_the_maximum() {
        // A box emptied but for two cells, plus one hole elsewhere: three
        // last cells (the two box cells become last cells of their rows).
        let full =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut line = full.to_string();
        line.replace_range(0..1, ".");
        line.replace_range(80..81, ".");
        let p = crate::grid::parse_puzzle(&line).unwrap();
        let r = serate(&p).unwrap();
        assert_eq!((r.serate, r.fowler, r.steps), (1.0, 2.0, 2));
    }

    #[test]
    fn an_empty_grid_needs_search() {
        let p = Puzzle::empty(3);
        assert_eq!(serate(&p).unwrap_err().0, "needs search");
    }
}
