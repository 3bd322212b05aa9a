//! A Serate-like rating and a Fowler-like rating (Pelánek, "Difficulty
//! rating of Sudoku puzzles: an overview and evaluation", §3.1 "Difficulty
//! Metrics Based on the Model", Table 1 and Table 3), rebuilt on the
//! classic Sudoku Explainer rater: SE 1.2.1.3 (Glenn Fowler's `serate`),
//! whose ER is the rating the forum publishes.
//!
//! The rating table is the classic SE's: the difficulty each of its hint
//! classes reports, read from its source, of which Pelánek's Table 1 prints
//! the eight simplest. Each rule of ours, with SE's rating in tests:
//!
//! * singles ([`classic`]): the last empty cell of a unit 1.0, a hidden
//!   single in a box 1.2, in a row or column 1.5, a naked single 2.3;
//! * "direct" techniques, which SE rates as the single they directly yield:
//!   a pointing whose removals leave a hidden single in another box 1.7, a
//!   claiming whose removals leave one in another parallel line 1.9, a hidden
//!   pair or triple whose removals leave one in its own unit 2.0 and 2.5
//!   (as in SE, the step places the single only; the removals wait for a
//!   later step);
//! * intersections, subsets, fish and wings at SE's base ratings
//!   ([`classic`]): pointing 2.6, claiming 2.8, naked pair 3.0, X-wing 3.2,
//!   hidden pair 3.4, naked triple 3.6, swordfish 3.8, hidden triple 4.0,
//!   XY-wing 4.2, XYZ-wing 4.4, naked quad 5.0, jellyfish 5.2, hidden quad
//!   5.4 (the classic rater has no WXYZ-wing);
//! * uniqueness ([`uniqueness`]): unique rectangles and loops 4.5 and up
//!   (by length and type), the bivalue universal grave 5.6 and up (by type);
//! * aligned pair and triplet exclusion 6.2 and 7.5 ([`aligned`]);
//! * cycles and forcing chains by SE's kind and length ([`chain`],
//!   [`cycles`], [`chains`]): 6.5 for an X- or Y-cycle, 6.6 for a forcing X- or
//!   Y-chain, 7.0 for an XY one, 7.5 for Nishio, 8.0 for multiple (cell and
//!   region) forcing chains, 8.5 for a dynamic chain, 9.0 for a dynamic
//!   chain with basic techniques inside, 9.5 to 11.0 for nesting levels 2 to
//!   5 (levels 3–5 in [`nesting`], within a work budget), each plus
//!   0.1 per length threshold passed.
//!
//! The solving path is SE's (`Solver.getDifficulty`): at every state the
//! hint of the first producer that has one, the producers in one list in
//! SE's order ([`producers::PRODUCERS`]: hidden singles, direct pointing and
//! claiming, direct hidden pair, naked singles, direct hidden triple,
//! pointing and claiming, naked pair, X-wing, hidden pair, naked triple,
//! swordfish, hidden triple, XY-wing, XYZ-wing, unique loops, naked quad,
//! jellyfish, hidden quad, BUG, aligned pair exclusion; then SE's chaining
//! producers, aligned triplet exclusion coming after the first of them, and
//! nesting levels 3–5), each classic producer giving the first hint its
//! search finds, each chaining producer the lowest-rated of its conclusions
//! (which alone is applied, as SE applies one chain hint). That order is
//! not by rating: a unique loop (4.5 and up) is tried before a naked quad
//! (5.0) even when it rates higher.
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
//! EP and ED (SE's "pearl" and "diamond") are read off the same path. A
//! puzzle the rules cannot finish is "needs search"; one whose nesting levels
//! 3–5 run past their budget is "over budget": no number.

pub(crate) mod aligned;
pub(crate) mod chain;
pub(crate) mod chains;
pub(crate) mod classic;
pub(crate) mod cycles;
pub(crate) mod links;
pub(crate) mod nesting;
pub(crate) mod producers;
pub(crate) mod rounds;
pub(crate) mod uniqueness;
pub(crate) mod work;

use crate::grid::Puzzle;
use crate::human::board::Board;
use crate::human::techniques::Technique;
use chain::{ChainKind, RatedChain};
use producers::{PRODUCERS, State};
use std::collections::BTreeMap;
use work::Work;
pub(crate) use work::WorkBudget;

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
    /// A technique of the catalogue (intersection, subset, fish or wing)
    /// at its base rating.
    Plain(Technique),
    /// A unique rectangle (four cells) or loop of type 1 to 4 (SE's
    /// `UniqueLoops`), 4.5 and up.
    UniqueLoop {
        /// Cells of the loop.
        cells: u8,
        /// SE's type, 1 to 4.
        loop_type: u8,
    },
    /// A bivalue universal grave of type 1 to 4 (SE's
    /// `BivalueUniversalGrave`), 5.6 and up.
    Bug(u8),
    /// A forcing chain of the kind (its rating grows with its length).
    Chain(ChainKind),
    /// Aligned pair exclusion ([`aligned`]), 6.2.
    AlignedPairExclusion,
    /// Aligned triplet exclusion ([`aligned`]), 7.5.
    AlignedTripletExclusion,
}

/// SE's names of unique loops (`UniqueLoopHint.getName`): by loop length
/// (4, 6, 8, …, 18 cells, the longest a 9×9 grid holds) and type.
const UNIQUE_LOOP_NAMES: [[&str; 4]; 8] = [
    [
        "Unique rectangle type 1",
        "Unique rectangle type 2",
        "Unique rectangle type 3",
        "Unique rectangle type 4",
    ],
    [
        "Unique loop type 1",
        "Unique loop type 2",
        "Unique loop type 3",
        "Unique loop type 4",
    ],
    [
        "Unique loop 8 type 1",
        "Unique loop 8 type 2",
        "Unique loop 8 type 3",
        "Unique loop 8 type 4",
    ],
    [
        "Unique loop 10 type 1",
        "Unique loop 10 type 2",
        "Unique loop 10 type 3",
        "Unique loop 10 type 4",
    ],
    [
        "Unique loop 12 type 1",
        "Unique loop 12 type 2",
        "Unique loop 12 type 3",
        "Unique loop 12 type 4",
    ],
    [
        "Unique loop 14 type 1",
        "Unique loop 14 type 2",
        "Unique loop 14 type 3",
        "Unique loop 14 type 4",
    ],
    [
        "Unique loop 16 type 1",
        "Unique loop 16 type 2",
        "Unique loop 16 type 3",
        "Unique loop 16 type 4",
    ],
    [
        "Unique loop 18+ type 1",
        "Unique loop 18+ type 2",
        "Unique loop 18+ type 3",
        "Unique loop 18+ type 4",
    ],
];

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
            SeRule::UniqueLoop { cells, loop_type } => {
                let length = (usize::from(cells) / 2).clamp(2, 9) - 2;
                let kind = usize::from(loop_type).clamp(1, 4) - 1;
                UNIQUE_LOOP_NAMES[length][kind]
            }
            SeRule::Bug(1) => "BUG type 1",
            SeRule::Bug(2) => "BUG type 2",
            SeRule::Bug(3) => "BUG type 3",
            SeRule::Bug(_) => "BUG type 4",
            SeRule::Chain(ChainKind::XOrY) => "forcing X- or Y-chain",
            SeRule::Chain(ChainKind::Forcing) => "forcing chain",
            SeRule::Chain(ChainKind::Nishio) => "Nishio",
            SeRule::Chain(ChainKind::Multiple) => "multiple forcing chain",
            SeRule::Chain(ChainKind::Dynamic) => "dynamic forcing chain",
            SeRule::Chain(ChainKind::DynamicPlus) => "dynamic forcing chain (+)",
            SeRule::Chain(ChainKind::Nested) => "nested forcing chain (+ forcing chains)",
            SeRule::AlignedPairExclusion => "Aligned Pair Exclusion",
            SeRule::AlignedTripletExclusion => "Aligned Triplet Exclusion",
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

    /// The technique of our catalogue the rule is a case of (none for the
    /// uniqueness rules and the aligned exclusions, which the catalogue lacks).
    pub(crate) fn technique(self) -> Option<Technique> {
        match self {
            SeRule::LastCell | SeRule::HiddenSingleBox | SeRule::HiddenSingleLine => {
                Some(Technique::HiddenSingle)
            }
            SeRule::DirectPointing => Some(Technique::Pointing),
            SeRule::DirectClaiming => Some(Technique::Claiming),
            SeRule::DirectHiddenPair => Some(Technique::HiddenPair),
            SeRule::NakedSingle => Some(Technique::NakedSingle),
            SeRule::DirectHiddenTriple => Some(Technique::HiddenTriple),
            SeRule::Plain(t) => Some(t),
            SeRule::UniqueLoop { .. }
            | SeRule::Bug(_)
            | SeRule::AlignedPairExclusion
            | SeRule::AlignedTripletExclusion => None,
            SeRule::Chain(_) => Some(Technique::ForcingChain),
        }
    }

    /// SE's rating in tenths (a chain's base rating, without its length; a
    /// type-3 loop's or BUG's without its set).
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
            SeRule::Plain(t) => rating(t).map_or(0, |r| (r * 10.0).round() as u32),
            SeRule::UniqueLoop { cells, .. } => {
                (uniqueness::loop_rating(usize::from(cells)) * 10.0).round() as u32
            }
            SeRule::Bug(1) => 56,
            SeRule::Bug(_) => 57,
            SeRule::Chain(k) => k.base_tenths(),
            SeRule::AlignedPairExclusion => 62,
            SeRule::AlignedTripletExclusion => 75,
        }
    }
}

/// SE's base rating of a technique of our catalogue in the classic rater:
/// the non-direct one, and for a hidden single the box one; a forcing
/// chain at the lowest rating of its kinds (6.6). `None` for the WXYZ-wing,
/// which the classic rater does not have.
pub(crate) fn rating(t: Technique) -> Option<f64> {
    Some(match t {
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
        Technique::WxyzWing => return None,
        Technique::NakedQuad => 5.0,
        Technique::Jellyfish => 5.2,
        Technique::HiddenQuad => 5.4,
        Technique::ForcingChain => 6.6,
    })
}

/// One hint of SE's: what it places or removes, and how SE rates it. SE
/// applies the removals, then the placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SeHint {
    /// The rule the hint is a case of.
    pub rule: SeRule,
    /// SE's rating of this hint, in tenths.
    pub tenths: u32,
    /// The `(cell, digit)` placed, if any.
    pub placement: Option<(usize, u8)>,
    /// The `(cell, digit)` candidates removed.
    pub eliminations: Vec<(usize, u8)>,
    /// The chain, for a hint of the chaining producers (its links are
    /// found again for `rate --explain`, [`links::chain_links`]).
    pub chain: Option<RatedChain>,
}

impl SeHint {
    /// Applies the removals, then the placement.
    pub(crate) fn apply(&self, board: &mut Board) {
        for &(cell, d) in &self.eliminations {
            board.eliminate(cell, d);
        }
        if let Some((cell, d)) = self.placement {
            board.place(cell, d);
        }
    }

    /// True when the hint contradicts `solution` (cell values, row-major):
    /// it removes a solution value or places a wrong digit.
    #[cfg(test)]
    pub(crate) fn contradicts(&self, solution: &[u8]) -> bool {
        self.eliminations.iter().any(|&(c, d)| solution[c] == d)
            || self.placement.is_some_and(|(c, d)| solution[c] != d)
    }
}

/// Both ratings of one puzzle, and the rules used.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SerateResult {
    /// The highest rating along SE's path (0 when the puzzle is already
    /// full).
    pub serate: f64,
    /// The sum of the ratings of every step of that path.
    pub fowler: f64,
    /// Sudoku Explainer's EP ("pearl"): the highest rating along the path
    /// up to and including its first step that places a digit (0 when the
    /// puzzle is already full).
    pub ep: f64,
    /// Sudoku Explainer's ED ("diamond"): the rating of the path's first
    /// step (0 when the puzzle is already full).
    pub ed: f64,
    /// The catalogue's technique behind the rule with the highest rating,
    /// if a step was taken and that rule has one.
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
    chain: Option<RatedChain>,
}

/// Why [`serate_within`] stops without a rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SerateUnfinished {
    /// SE's rules cannot finish the puzzle.
    NeedsSearch,
    /// SE's nesting levels 3–5 ran out of their work budget.
    OverBudget,
}

impl std::fmt::Display for SerateUnfinished {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SerateUnfinished::NeedsSearch => "needs search",
            SerateUnfinished::OverBudget => "over budget",
        })
    }
}

/// Takes the step SE would take on `board`: the hint of the first of
/// [`PRODUCERS`] that has one, applied; `Ok(None)` when none has.
///
/// # Errors
/// [`SerateUnfinished::OverBudget`] when the producers run out of `work`.
fn next_step(board: &mut Board, work: &Work) -> Result<Option<Step>, SerateUnfinished> {
    let over_budget = || SerateUnfinished::OverBudget;
    let state = State::new(work);
    for producer in &PRODUCERS {
        let hint = producer.hint(board, &state).map_err(|_| over_budget())?;
        // A step found past the budget (16×16 and up, where every chain
        // counts) is thrown away.
        if work.over() {
            return Err(over_budget());
        }
        if let Some(hint) = hint {
            hint.apply(board);
            return Ok(Some(Step {
                rule: hint.rule,
                tenths: hint.tenths,
                chain: hint.chain,
            }));
        }
    }
    Ok(None)
}

/// Rates `puzzle` along SE's path, within the default [`WorkBudget`] (the
/// tests' shorthand).
///
/// # Errors
/// [`SerateUnfinished::NeedsSearch`] when the catalogue cannot finish the puzzle,
/// [`SerateUnfinished::OverBudget`] when the budget runs out.
#[cfg(test)]
pub(crate) fn serate(puzzle: &Puzzle) -> Result<SerateResult, SerateUnfinished> {
    serate_within(puzzle, WorkBudget::DEFAULT)
}

/// Rates `puzzle` along SE's path; SE's nesting levels 3–5 may do
/// `budget` units of work.
///
/// # Errors
/// [`SerateUnfinished::NeedsSearch`] when the catalogue cannot finish the puzzle,
/// [`SerateUnfinished::OverBudget`] when the budget runs out first.
pub(crate) fn serate_within(
    puzzle: &Puzzle,
    budget: WorkBudget,
) -> Result<SerateResult, SerateUnfinished> {
    walk(puzzle, budget, None)
}

/// One step of SE's path, as `rate --explain -m serate` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathStep {
    /// The rule.
    pub rule: SeRule,
    /// SE's rating of the step, in tenths.
    pub tenths: u32,
    /// The `(cell, digit)` placed.
    pub placed: Vec<(usize, u8)>,
    /// The `(cell, digit)` candidates removed (not counting those a
    /// placement takes from its cell and peers).
    pub removed: Vec<(usize, u8)>,
    /// The chain of a chaining step, whose links
    /// [`links::chain_links`] finds on the board before the step.
    pub chain: Option<RatedChain>,
}

/// SE's path of `puzzle` step by step, with its ratings (`Ok`) or, when it
/// stops, why and the steps up to there.
pub(crate) fn serate_path(
    puzzle: &Puzzle,
    budget: WorkBudget,
) -> (Result<SerateResult, SerateUnfinished>, Vec<PathStep>) {
    let mut steps = Vec::new();
    let r = walk(puzzle, budget, Some(&mut steps));
    (r, steps)
}

/// Candidates as `(cell, digit)`.
type Candidates = Vec<(usize, u8)>;

/// What a step changed from `before` to `after`: placements, and the
/// removals other than those the placements imply.
fn step_effect(before: &Board, after: &Board) -> (Candidates, Candidates) {
    let geo = before.geometry();
    let placed: Candidates = (0..geo.cells)
        .filter(|&c| before.value(c) == 0 && after.value(c) != 0)
        .map(|c| (c, after.value(c)))
        .collect();
    let mut removed = Vec::new();
    for c in 0..geo.cells {
        if before.value(c) != 0 || placed.iter().any(|&(p, _)| p == c) {
            continue;
        }
        for d in crate::util::bits(before.cands(c) & !after.cands(c)) {
            let by_placement = placed
                .iter()
                .any(|&(p, x)| x == d && geo.peers[p].contains(&c));
            if !by_placement {
                removed.push((c, d));
            }
        }
    }
    (placed, removed)
}

/// SE's rating loop: the step SE takes at each state until the grid is
/// full, recording each step in `trace` when given.
fn walk(
    puzzle: &Puzzle,
    budget: WorkBudget,
    mut trace: Option<&mut Vec<PathStep>>,
) -> Result<SerateResult, SerateUnfinished> {
    let work = Work::new(budget);
    let mut r = SerateResult {
        serate: 0.0,
        fowler: 0.0,
        ep: 0.0,
        ed: 0.0,
        hardest: None,
        hardest_rule: None,
        steps: 0,
        uses: BTreeMap::new(),
    };
    let mut board = Board::new(puzzle);
    let (mut max, mut sum) = (0u32, 0u64);
    // EP and ED in tenths, once the path has reached them.
    let (mut pearl, mut diamond) = (None, None);
    while !board.is_solved() {
        let empty = board.empty_count();
        let before = trace.is_some().then(|| board.clone());
        let Some(step) = next_step(&mut board, &work)? else {
            return Err(SerateUnfinished::NeedsSearch);
        };
        if let (Some(t), Some(before)) = (trace.as_deref_mut(), before) {
            let (placed, removed) = step_effect(&before, &board);
            t.push(PathStep {
                rule: step.rule,
                tenths: step.tenths,
                placed,
                removed,
                chain: step.chain,
            });
        }
        r.steps += 1;
        sum += u64::from(step.tenths);
        *r.uses.entry(step.rule).or_insert(0) += 1;
        if step.tenths > max {
            max = step.tenths;
            r.hardest_rule = Some(step.rule);
            r.hardest = step.rule.technique();
        }
        diamond.get_or_insert(step.tenths);
        if pearl.is_none() && board.empty_count() < empty {
            pearl = Some(max);
        }
    }
    // Ratings are kept in tenths, so these are exact one-decimal values.
    r.serate = f64::from(max) / 10.0;
    r.fowler = sum as f64 / 10.0;
    r.ep = f64::from(pearl.unwrap_or(0)) / 10.0;
    r.ed = f64::from(diamond.unwrap_or(0)) / 10.0;
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
        // SE 1.2.1.3's other single ratings and base ratings.
        assert_eq!(SeRule::LastCell.tenths(), 10);
        assert_eq!(SeRule::HiddenSingleLine.tenths(), 15);
        assert_eq!(SeRule::Plain(Technique::NakedPair).tenths(), 30);
        assert_eq!(SeRule::Plain(Technique::XWing).tenths(), 32);
        assert_eq!(SeRule::Plain(Technique::HiddenPair).tenths(), 34);
        assert_eq!(SeRule::Plain(Technique::NakedTriple).tenths(), 36);
        assert_eq!(SeRule::Plain(Technique::Swordfish).tenths(), 38);
        assert_eq!(SeRule::Plain(Technique::HiddenTriple).tenths(), 40);
        assert_eq!(SeRule::Plain(Technique::XyWing).tenths(), 42);
        assert_eq!(SeRule::Plain(Technique::XyzWing).tenths(), 44);
        assert_eq!(SeRule::Plain(Technique::NakedQuad).tenths(), 50);
        assert_eq!(SeRule::Plain(Technique::Jellyfish).tenths(), 52);
        assert_eq!(SeRule::Plain(Technique::HiddenQuad).tenths(), 54);
        // The classic rater has no WXYZ-wing (Sukaku Explainer's 4.6).
        assert_eq!(rating(Technique::WxyzWing), None);
        // UniqueLoopHint: 4.5, +0.1 for six cells, +0.2 for eight, +0.5
        // for ten or more.
        let ul = |cells, loop_type| SeRule::UniqueLoop { cells, loop_type }.tenths();
        assert_eq!(
            (ul(4, 1), ul(6, 2), ul(8, 4), ul(10, 1), ul(14, 1)),
            (45, 46, 47, 50, 50)
        );
        // Bug1Hint 5.6, Bug2Hint and Bug4Hint 5.7, Bug3Hint 5.7 + set.
        assert_eq!(
            (
                SeRule::Bug(1).tenths(),
                SeRule::Bug(2).tenths(),
                SeRule::Bug(3).tenths()
            ),
            (56, 57, 57)
        );
        assert_eq!(SeRule::Bug(4).tenths(), 57);
        assert_eq!(SeRule::Chain(ChainKind::XOrY).tenths(), 66);
        assert_eq!(SeRule::Chain(ChainKind::Forcing).tenths(), 70);
        assert_eq!(SeRule::Chain(ChainKind::Nishio).tenths(), 75);
        assert_eq!(SeRule::Chain(ChainKind::Multiple).tenths(), 80);
        assert_eq!(SeRule::Chain(ChainKind::Dynamic).tenths(), 85);
        assert_eq!(SeRule::Chain(ChainKind::DynamicPlus).tenths(), 90);
        assert_eq!(SeRule::Chain(ChainKind::Nested).tenths(), 95);
    }

    #[test]
    fn ses_names_of_uniqueness_rules() {
        // UniqueLoopHint.getName: "Rectangle" for four cells, the length
        // from eight cells on; Bug*Hint.getName.
        let ul = |cells, loop_type| SeRule::UniqueLoop { cells, loop_type }.name();
        assert_eq!(ul(4, 1), "Unique rectangle type 1");
        assert_eq!(ul(6, 3), "Unique loop type 3");
        assert_eq!(ul(8, 2), "Unique loop 8 type 2");
        assert_eq!(ul(10, 4), "Unique loop 10 type 4");
        assert_eq!(SeRule::Bug(2).name(), "BUG type 2");
        assert_eq!(
            SeRule::UniqueLoop {
                cells: 4,
                loop_type: 1
            }
            .technique(),
            None
        );
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
        assert_eq!(
            serate_within(&p, WorkBudget::OFF).unwrap_err(),
            SerateUnfinished::NeedsSearch
        );
    }
}
