//! What a chain of Sudoku Explainer's concludes and how SE rates it, shared
//! by its chain producers (`chains`, `cycles`, `nesting`): SE's kinds of
//! chain with their base ratings and the length increment
//! (`Chaining.getDifficulty`, `getLengthDifficulty`), a conclusion and its
//! rating, SE's order among a producer's hints ([`easiest`]), why a node of
//! a branch holds ([`Cause`], what a nesting chain's rule parents are made
//! of), and a cycle's set of eliminations.

#[cfg(test)]
use crate::human::board::Board;

/// SE's kind of chain, with its base rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum ChainKind {
    /// Static chain with one kind of link (forcing X- or Y-chain), 6.6.
    XOrY,
    /// Static chain with both kinds of link, 7.0.
    Forcing,
    /// Dynamic contradiction on one digit, 7.5.
    Nishio,
    /// Static cell or region forcing chains from three or more
    /// alternatives (SE's multiple forcing chains), 8.0.
    Multiple,
    /// Any other dynamic chain, 8.5.
    Dynamic,
    /// Dynamic chain whose branches also use SE's basic techniques
    /// (SE's "dynamic forcing chains (+)", nesting level 1), 9.0.
    DynamicPlus,
    /// Dynamic chain whose branches also use SE's cycles and forcing X-,
    /// Y- and XY-chains (SE's "dynamic forcing chains (+ forcing chains)",
    /// nesting level 2), 9.5.
    Nested,
    /// Nesting level 3: multiple forcing chains nested, 10.0 ([`super::nesting`]).
    NestedMultiple,
    /// Nesting level 4: dynamic forcing chains nested, 10.5.
    NestedDynamic,
    /// Nesting level 5: dynamic forcing chains (+ forcing chains) nested,
    /// 11.0.
    NestedDynamicPlus,
}

impl ChainKind {
    /// SE's base rating, in tenths.
    pub(crate) fn base_tenths(self) -> u32 {
        match self {
            ChainKind::XOrY => 66,
            ChainKind::Forcing => 70,
            ChainKind::Nishio => 75,
            ChainKind::Multiple => 80,
            ChainKind::Dynamic => 85,
            ChainKind::DynamicPlus => 90,
            ChainKind::Nested => 95,
            ChainKind::NestedMultiple => 100,
            ChainKind::NestedDynamic => 105,
            ChainKind::NestedDynamicPlus => 110,
        }
    }
}

/// SE's length increment, in tenths, of a chain of `nodes` potentials.
pub(crate) fn length_increment_tenths(nodes: usize) -> u32 {
    let length = nodes.saturating_sub(2);
    let (mut added, mut ceil, mut odd) = (0, 4usize, false);
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// What a chain concludes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conclusion {
    /// Place the digit in the cell.
    Place(usize, u8),
    /// Remove the candidate from the cell.
    Remove(usize, u8),
    /// Remove every candidate of the set (a cycle's eliminations).
    Eliminate(Eliminations),
}

impl Conclusion {
    /// Applies the conclusion to `board`.
    #[cfg(test)]
    pub(crate) fn apply(self, board: &mut Board) {
        match self {
            Conclusion::Place(c, d) => board.place(c, d),
            Conclusion::Remove(c, d) => {
                board.eliminate(c, d);
            }
            Conclusion::Eliminate(set) => {
                for (c, d) in set.iter() {
                    board.eliminate(c, d);
                }
            }
        }
    }

    /// True when the conclusion contradicts `solution` (cell values,
    /// row-major).
    #[cfg(test)]
    pub(crate) fn contradicts(self, solution: &[u8]) -> bool {
        match self {
            Conclusion::Place(c, d) => solution[c] != d,
            Conclusion::Remove(c, d) => solution[c] == d,
            Conclusion::Eliminate(set) => set.iter().any(|(c, d)| solution[c] == d),
        }
    }
}

/// What a branch assumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Assume {
    /// The digit is in the cell.
    On(usize, u8),
    /// The digit is not in the cell.
    Off(usize, u8),
}

/// The branches a chain of [`super::chains`] or [`super::nesting`] follows,
/// so that `rate --explain` can show its links ([`super::links`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Origin {
    /// Not recorded.
    #[default]
    Unknown,
    /// One assumption, refuted by a contradiction.
    Refuted(Assume),
    /// A candidate assumed on and off, both branches agreeing.
    Double(usize, u8),
    /// Every candidate of the cell assumed on, all agreeing.
    Cell(usize),
    /// The digit assumed in each of its places in the unit, all agreeing.
    Region(usize, u8),
    /// SE's Nishio chain refuting the digit at the cell assumed on (or off).
    Nishio(usize, u8, bool),
    /// SE's first producer's cycle or forcing X-, Y- or XY-chain from
    /// `source` (cell, digit, assumed on), in the pass of links `x`/`y`.
    First {
        source: (usize, u8, bool),
        cycle: bool,
        x: bool,
        y: bool,
    },
}

/// One rated chain conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RatedChain {
    /// What it concludes.
    pub conclusion: Conclusion,
    /// SE's kind.
    pub kind: ChainKind,
    /// Potentials of the chain (SE's complexity).
    pub nodes: usize,
    /// The rating in tenths: base plus length increment.
    pub tenths: u32,
    /// SE's sort key of the hint (`getSortKey`): its last tie-break after
    /// rating and complexity ([`KEY_DOUBLE`] … [`KEY_CONTRADICTION`]).
    pub sort_key: u8,
    /// The branches it follows.
    pub origin: Origin,
}

/// SE's sort keys of its chaining hints: a double (both assumptions of a
/// candidate agree), a cell forcing chain, a region forcing chain, a
/// contradiction.
pub(crate) const KEY_DOUBLE: u8 = 1;
pub(crate) const KEY_CELL: u8 = 5;
pub(crate) const KEY_REGION: u8 = 6;
pub(crate) const KEY_CONTRADICTION: u8 = 7;

impl RatedChain {
    /// A chain of `kind` with `nodes` potentials, rated as SE rates it.
    pub(crate) fn new(conclusion: Conclusion, kind: ChainKind, nodes: usize) -> RatedChain {
        RatedChain {
            conclusion,
            kind,
            nodes,
            tenths: kind.base_tenths() + length_increment_tenths(nodes),
            sort_key: 0,
            origin: Origin::Unknown,
        }
    }

    /// The chain following the branches of `origin`.
    pub(crate) fn with_origin(mut self, origin: Origin) -> RatedChain {
        self.origin = origin;
        self
    }

    /// The chain with SE's sort key `sort_key`.
    pub(crate) fn keyed(mut self, sort_key: u8) -> RatedChain {
        self.sort_key = sort_key;
        self
    }
}

/// The hint SE takes of a producer's: the lowest rating, then the lowest
/// complexity, then the lowest sort key, then the first found (SE sorts its
/// hints stably by these).
pub(crate) fn easiest(chains: impl IntoIterator<Item = RatedChain>) -> Option<RatedChain> {
    chains.into_iter().reduce(|best, c| {
        if (c.tenths, c.nodes, c.sort_key) < (best.tenths, best.nodes, best.sort_key) {
            c
        } else {
            best
        }
    })
}

/// Why a node of a branch holds, as far as a chain nesting it needs: the
/// cell (naked single, or the source cell) or the unit and digit (hidden
/// single, or the source unit) whose other candidates' removals it rests
/// on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// A removal, or a root with no pattern.
    Other,
    /// The last candidate of the cell.
    Naked(usize),
    /// The last place of the digit in the unit.
    Hidden(usize, u8),
}

/// A set of candidates to remove (a cycle's eliminations), on a board
/// whose cells × digits fit in [`Eliminations::CAPACITY`] (every 9×9 and
/// smaller board).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Eliminations {
    side: u8,
    bits: [u64; 12],
}

impl Eliminations {
    /// The most cells × digits a set holds.
    pub(crate) const CAPACITY: usize = 12 * 64;

    /// An empty set on a board of `side` digits.
    pub(crate) fn new(side: usize) -> Eliminations {
        Eliminations {
            side: side as u8,
            bits: [0; 12],
        }
    }

    /// Adds the candidate `d` of `cell`.
    pub(crate) fn insert(&mut self, cell: usize, d: u8) {
        let i = cell * self.side as usize + d as usize - 1;
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// True when the set holds nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// The candidates `(cell, digit)`, in cell then digit order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let side = self.side as usize;
        self.bits.iter().enumerate().flat_map(move |(w, &word)| {
            let mut m = word;
            std::iter::from_fn(move || {
                if m == 0 {
                    return None;
                }
                let i = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                Some((i / side, (i % side) as u8 + 1))
            })
        })
    }
}

/// A conclusion of a static chain nested in a branch: what it concludes,
/// its complexity, and the causes of its nodes (its rule parents).
pub(crate) struct NestedConclusion {
    pub(crate) conclusion: Conclusion,
    pub(crate) nodes: usize,
    pub(crate) causes: Vec<Cause>,
    /// The nested chain's identity when two searches may find the same
    /// chain (SE's `FullChain`): its complexity counts once per outer
    /// chain.
    pub(crate) fingerprint: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_increment_follows_se_thresholds() {
        // SE adds 0.1 each time length = potentials − 2 passes 4, 6, 8, 12,
        // 16, 24, 32, 48, 64.
        let at = |nodes| length_increment_tenths(nodes);
        assert_eq!(at(0), 0);
        assert_eq!(at(6), 0); // length 4
        assert_eq!(at(7), 1); // length 5
        assert_eq!(at(8), 1); // length 6
        assert_eq!(at(9), 2);
        assert_eq!(at(10), 2); // length 8
        assert_eq!(at(11), 3);
        assert_eq!(at(14), 3); // length 12
        assert_eq!(at(15), 4);
        assert_eq!(at(18), 4); // length 16
        assert_eq!(at(19), 5);
        assert_eq!(at(26), 5); // length 24
        assert_eq!(at(27), 6);
        assert_eq!(at(34), 6); // length 32
        assert_eq!(at(35), 7);
        assert_eq!(at(50), 7); // length 48
        assert_eq!(at(51), 8);
        assert_eq!(at(66), 8); // length 64
        assert_eq!(at(67), 9);
        // Never decreasing.
        for n in 0..2000 {
            assert!(at(n + 1) >= at(n));
        }
    }

    #[test]
    fn base_ratings_are_ses() {
        assert_eq!(ChainKind::XOrY.base_tenths(), 66);
        assert_eq!(ChainKind::Forcing.base_tenths(), 70);
        assert_eq!(ChainKind::Nishio.base_tenths(), 75);
        assert_eq!(ChainKind::Dynamic.base_tenths(), 85);
    }
}
