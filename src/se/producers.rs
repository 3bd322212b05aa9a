//! Sudoku Explainer's hint producers, one ordered list ([`PRODUCERS`]):
//! SE 1.2.1.3's `Solver` tries its direct, indirect, chaining, advanced and
//! experimental producers in this order at every state of the rating path
//! and applies the hint of the first that has one.
//!
//! The order: singles and direct hints, intersections, subsets and fish by
//! size, XY- and XYZ-wings, unique loops (before the naked quad, though
//! they may rate higher), the BUG, aligned pair exclusion; then the
//! chaining producers: forcing X- and Y-cycles and chains, aligned triplet
//! exclusion, Nishio, multiple forcing chains, dynamic forcing chains, with
//! basic techniques inside ("+"), with forcing chains inside (level 2), and
//! the nesting levels 3, 4 and 5. A classic producer hands the first hint
//! its search finds; a chaining one the easiest of its hints
//! ([`easiest`]: SE sorts a chaining producer's hints and applies one).

use super::aligned::{self, Degree};
use super::chain::{ChainKind, Conclusion, Eliminations, RatedChain, easiest};
use super::chains::{dynamic_chains, multiple_chains, static_chains};
use super::nesting::deep_chains;
use super::work::{OverBudget, Search, Work};
use super::{SeHint, SeRule, classic, cycles, uniqueness};
use crate::human::board::Board;
use crate::util::bits as digits;
use std::cell::OnceCell;
use std::fmt;

/// One of SE's hint producers.
pub(crate) trait HintProducer: Sync {
    /// SE's name of the producer: its class and parameters in `Solver`.
    fn name(&self) -> &'static str;

    /// The hint SE takes from this producer on `board`, if it has one.
    ///
    /// # Errors
    /// [`OverBudget`] when the producer runs out of the state's work.
    fn hint(&self, board: &Board, state: &State) -> Result<Option<SeHint>, OverBudget>;
}

/// A producer shows as its SE name.
impl fmt::Debug for dyn HintProducer + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the producers of one state of the path share: the work counter
/// their branches charge, and the dynamic forcing chains of the state,
/// found once for the Nishio stand-in of large boards and the dynamic
/// producer.
pub(crate) struct State<'w> {
    search: Search<'w>,
    dynamic: OnceCell<Vec<RatedChain>>,
}

impl<'w> State<'w> {
    /// A state whose producers count on `work`.
    pub(crate) fn new(work: &'w Work) -> State<'w> {
        State {
            search: Search::new(work),
            dynamic: OnceCell::new(),
        }
    }

    /// The dynamic forcing chains (level 0) of `board`, found once.
    fn dynamic(&self, board: &Board) -> &[RatedChain] {
        self.dynamic
            .get_or_init(|| dynamic_chains(board, 0, &self.search))
    }
}

/// Whether SE's cycle and Nishio searches fit `board` (every 9×9 and
/// smaller board); on larger ones the engine's chains stand in.
fn fits_se_sets(board: &Board) -> bool {
    let geo = board.geometry();
    geo.cells * geo.side <= Eliminations::CAPACITY
}

impl From<RatedChain> for SeHint {
    fn from(c: RatedChain) -> SeHint {
        let (placement, eliminations) = match c.conclusion {
            Conclusion::Place(cell, d) => (Some((cell, d)), Vec::new()),
            Conclusion::Remove(cell, d) => (None, vec![(cell, d)]),
            Conclusion::Eliminate(set) => (None, set.iter().collect()),
        };
        SeHint {
            rule: SeRule::Chain(c.kind),
            tenths: c.tenths,
            placement,
            eliminations,
            chain: Some(c),
        }
    }
}

/// A producer before the chains: the first hint of SE's search.
struct Classic {
    name: &'static str,
    first: fn(&Board) -> Option<SeHint>,
}

impl HintProducer for Classic {
    fn name(&self) -> &'static str {
        self.name
    }

    fn hint(&self, board: &Board, _: &State) -> Result<Option<SeHint>, OverBudget> {
        Ok((self.first)(board))
    }
}

/// SE's `AlignedExclusion(2)` and `AlignedExclusion(3)` ([`aligned`]).
struct AlignedExclusion(Degree);

impl HintProducer for AlignedExclusion {
    fn name(&self) -> &'static str {
        match self.0 {
            Degree::Pair => "AlignedExclusion(2)",
            Degree::Triplet => "AlignedExclusion(3)",
        }
    }

    fn hint(&self, board: &Board, _: &State) -> Result<Option<SeHint>, OverBudget> {
        Ok(aligned::first(board, self.0).map(|x| {
            let rule = self.0.rule();
            SeHint {
                rule,
                tenths: rule.tenths(),
                placement: None,
                eliminations: x
                    .removals
                    .iter()
                    .flat_map(|&(cell, mask)| digits(mask).map(move |d| (cell, d)))
                    .collect(),
                chain: None,
            }
        }))
    }
}

/// SE's first chaining producer: cycles and forcing X-, Y- and XY-chains
/// ([`cycles`]); the engine's static chains stand in on boards too large
/// for its sets.
struct FirstChaining;

impl HintProducer for FirstChaining {
    fn name(&self) -> &'static str {
        "Chaining(false, false, false, 0)"
    }

    fn hint(&self, board: &Board, state: &State) -> Result<Option<SeHint>, OverBudget> {
        let chain = if fits_se_sets(board) {
            cycles::first_hint(board).map(|h| h.rated())
        } else {
            easiest(static_chains(board, &state.search))
        };
        Ok(chain.map(SeHint::from))
    }
}

/// SE's Nishio producer (X links only, dynamic, [`cycles::nishio_hint`]);
/// on boards too large for it, the engine's one-digit dynamic
/// contradictions.
struct Nishio;

impl HintProducer for Nishio {
    fn name(&self) -> &'static str {
        "Chaining(false, true, true, 0)"
    }

    fn hint(&self, board: &Board, state: &State) -> Result<Option<SeHint>, OverBudget> {
        let chain = if fits_se_sets(board) {
            cycles::nishio_hint(board)
        } else {
            let dynamic = state.dynamic(board).iter();
            easiest(dynamic.filter(|c| c.kind == ChainKind::Nishio).copied())
        };
        Ok(chain.map(SeHint::from))
    }
}

/// SE's multiple forcing chains, static (8.0).
struct MultipleChains;

impl HintProducer for MultipleChains {
    fn name(&self) -> &'static str {
        "Chaining(true, false, false, 0)"
    }

    fn hint(&self, board: &Board, state: &State) -> Result<Option<SeHint>, OverBudget> {
        Ok(easiest(multiple_chains(board, &state.search)).map(SeHint::from))
    }
}

/// SE's dynamic forcing chains of nesting level 0 (8.5, Nishio's one-digit
/// contradictions left to the Nishio producer), 1 ("+", 9.0) and 2 ("+
/// forcing chains", 9.5).
struct DynamicChains(u8);

impl HintProducer for DynamicChains {
    fn name(&self) -> &'static str {
        match self.0 {
            0 => "Chaining(true, true, false, 0)",
            1 => "Chaining(true, true, false, 1)",
            _ => "Chaining(true, true, false, 2)",
        }
    }

    fn hint(&self, board: &Board, state: &State) -> Result<Option<SeHint>, OverBudget> {
        let chain = if self.0 == 0 {
            let dynamic = state.dynamic(board).iter();
            easiest(dynamic.filter(|c| c.kind != ChainKind::Nishio).copied())
        } else {
            easiest(dynamic_chains(board, self.0, &state.search))
        };
        Ok(chain.map(SeHint::from))
    }
}

/// SE's nesting levels 3, 4 and 5 ([`super::nesting`], within the work
/// budget; not tried when the budget is off).
struct NestedChains(u8);

impl HintProducer for NestedChains {
    fn name(&self) -> &'static str {
        match self.0 {
            3 => "Chaining(true, true, false, 3)",
            4 => "Chaining(true, true, false, 4)",
            _ => "Chaining(true, true, false, 5)",
        }
    }

    fn hint(&self, board: &Board, state: &State) -> Result<Option<SeHint>, OverBudget> {
        let work = state.search.work();
        if work.is_off() {
            return Ok(None);
        }
        Ok(easiest(deep_chains(board, self.0, work)?).map(SeHint::from))
    }
}

/// SE 1.2.1.3's producers, in the order its `Solver` tries them.
pub(crate) static PRODUCERS: [&dyn HintProducer; 30] = [
    &Classic {
        name: "HiddenSingle",
        first: classic::hidden_single,
    },
    &Classic {
        name: "Locking(true)",
        first: |b| classic::locking(b, true),
    },
    &Classic {
        name: "HiddenSet(2, true)",
        first: |b| classic::hidden_set(b, 2, true),
    },
    &Classic {
        name: "NakedSingle",
        first: classic::naked_single,
    },
    &Classic {
        name: "HiddenSet(3, true)",
        first: |b| classic::hidden_set(b, 3, true),
    },
    &Classic {
        name: "Locking(false)",
        first: |b| classic::locking(b, false),
    },
    &Classic {
        name: "NakedSet(2)",
        first: |b| classic::naked_set(b, 2),
    },
    &Classic {
        name: "Fisherman(2)",
        first: |b| classic::fisherman(b, 2),
    },
    &Classic {
        name: "HiddenSet(2, false)",
        first: |b| classic::hidden_set(b, 2, false),
    },
    &Classic {
        name: "NakedSet(3)",
        first: |b| classic::naked_set(b, 3),
    },
    &Classic {
        name: "Fisherman(3)",
        first: |b| classic::fisherman(b, 3),
    },
    &Classic {
        name: "HiddenSet(3, false)",
        first: |b| classic::hidden_set(b, 3, false),
    },
    &Classic {
        name: "XYWing(false)",
        first: |b| classic::xy_wing(b, false),
    },
    &Classic {
        name: "XYWing(true)",
        first: |b| classic::xy_wing(b, true),
    },
    &Classic {
        name: "UniqueLoops",
        first: uniqueness::unique_loop,
    },
    &Classic {
        name: "NakedSet(4)",
        first: |b| classic::naked_set(b, 4),
    },
    &Classic {
        name: "Fisherman(4)",
        first: |b| classic::fisherman(b, 4),
    },
    &Classic {
        name: "HiddenSet(4, false)",
        first: |b| classic::hidden_set(b, 4, false),
    },
    &Classic {
        name: "BivalueUniversalGrave",
        first: uniqueness::bivalue_universal_grave,
    },
    &AlignedExclusion(Degree::Pair),
    &FirstChaining,
    &AlignedExclusion(Degree::Triplet),
    &Nishio,
    &MultipleChains,
    &DynamicChains(0),
    &DynamicChains(1),
    &DynamicChains(2),
    &NestedChains(3),
    &NestedChains(4),
    &NestedChains(5),
];

/// How many of [`PRODUCERS`] come before the aligned exclusions and the
/// chains.
#[cfg(test)]
const CLASSIC: usize = 19;

/// SE's producers before its aligned exclusions and chains.
#[cfg(test)]
pub(crate) fn classic_producers() -> &'static [&'static dyn HintProducer] {
    &PRODUCERS[..CLASSIC]
}

/// SE's chaining producers up to nesting level 2, without the aligned
/// triplet exclusion among them.
#[cfg(test)]
pub(crate) fn chain_producers_below_level_3() -> Vec<&'static dyn HintProducer> {
    PRODUCERS[CLASSIC..PRODUCERS.len() - 3]
        .iter()
        .copied()
        .filter(|p| !p.name().starts_with("AlignedExclusion"))
        .collect()
}

/// Every producer up to nesting level 2.
#[cfg(test)]
pub(crate) fn below_level_3() -> &'static [&'static dyn HintProducer] {
    &PRODUCERS[..PRODUCERS.len() - 3]
}

/// The first hint of the first of `producers` that has one on `board`.
#[cfg(test)]
pub(crate) fn first_hint<'p>(
    producers: impl IntoIterator<Item = &'p &'p dyn HintProducer>,
    board: &Board,
    state: &State,
) -> Option<SeHint> {
    producers
        .into_iter()
        .find_map(|p| p.hint(board, state).ok().flatten())
}

/// Easter Monster and Golden Nugget, whose [`deep_board`]s the tests of
/// the deep levels start from.
#[cfg(test)]
pub(crate) const DEEP_PUZZLES: [&str; 2] = [
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
];

/// The board of `line` once every rule below SE's nesting level 3 has been
/// applied until none applies: where the deep levels start.
#[cfg(test)]
pub(crate) fn deep_board(line: &str) -> Board {
    let mut board = Board::new(&crate::grid::parse_puzzle(line).unwrap());
    let work = Work::unlimited();
    while let Some(hint) = first_hint(below_level_3(), &board, &State::new(&work)) {
        hint.apply(&mut board);
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_producers_come_in_ses_order() {
        // Solver.java 1.2.1.3: UniqueLoops after XYZ-wing and before the
        // naked quad; the BUG last before the aligned pair exclusion; the
        // aligned triplet exclusion between the first chaining producer and
        // Nishio.
        let names: Vec<&str> = PRODUCERS.iter().map(|p| p.name()).collect();
        let at = |n: &str| names.iter().position(|&m| m == n).unwrap();
        assert_eq!(at("HiddenSingle"), 0);
        assert_eq!(at("NakedSingle"), 3);
        assert_eq!(at("UniqueLoops"), at("XYWing(true)") + 1);
        assert_eq!(at("NakedSet(4)"), at("UniqueLoops") + 1);
        assert_eq!(at("BivalueUniversalGrave"), CLASSIC - 1);
        assert_eq!(at("AlignedExclusion(2)"), CLASSIC);
        assert_eq!(
            at("AlignedExclusion(3)"),
            at("Chaining(false, false, false, 0)") + 1
        );
        assert_eq!(
            at("Chaining(false, true, true, 0)"),
            at("AlignedExclusion(3)") + 1
        );
        assert_eq!(at("Chaining(true, true, false, 5)"), PRODUCERS.len() - 1);
        let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(unique.len(), names.len());
        assert_eq!(chain_producers_below_level_3().len(), 6);
    }
}
