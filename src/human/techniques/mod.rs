//! Human solving techniques on a [`Board`], each listing *every* application
//! it finds on the current state.
//!
//! The catalogue is the one Xu & Xu (§2.1 c, Table 1) rate and
//! `docs/methods.md` §3 orders, simplest first: naked and hidden singles,
//! naked pair, pointing and claiming (intersection removal), hidden pair,
//! naked triple and quad, hidden triple and quad, X-wing, swordfish,
//! jellyfish, XY-wing, XYZ-wing, WXYZ-wing and forcing chains. Models count
//! applications (hsolve's `v`, SiSuS's possibility count), so a finder never
//! stops at the first one, and only reports applications that change the
//! board (place a digit or remove at least one candidate).
//!
//! One file per technique family holds its finders, its count of possible
//! applications ([`possible_count`]), its definitions where the literature
//! varies, and any helper only it uses:
//! * `singles.rs`: naked and hidden singles, and the singles propagation the
//!   forcing chains branch with;
//! * `intersections.rs`: pointing and claiming;
//! * `subsets.rs`: naked and hidden pairs, triples and quads;
//! * `fish.rs`: X-wing, swordfish, jellyfish;
//! * `wings.rs`: XY-, XYZ- and WXYZ-wing;
//! * `chains.rs`: forcing chains.
//!
//! This file holds the shared types ([`Technique`], [`Application`]), the
//! subset helpers several families use, and the catalogue table that gives
//! each technique its name and family: adding a technique means its family
//! file plus one line of that table.
//!
//! Every technique is sound: on a board whose candidates still contain the
//! solution, no application removes a solution value or places a wrong
//! digit (checked on thousands of real puzzles in `tests/human_soundness.rs`).

mod chains;
mod fish;
mod intersections;
mod singles;
mod subsets;
mod wings;

pub(crate) use chains::{Source as ChainSource, chain_sources};
pub(crate) use singles::{Single, hidden_singles, naked_singles, propagate_singles};

use super::board::Board;
use serde::Serialize;
use std::fmt;

/// Declares the catalogue, one technique a line, simplest first:
/// `Variant => "human-readable name" in family_module,`. Generates the
/// [`Technique`] enum, `Technique::ALL` and `Technique::name` in that order,
/// and the dispatch of [`find`] and [`possible_count`] to the family
/// module's `find` and `possible_count`. Doc comments written before an entry
/// document its variant.
/// Serialises an optional technique by its name (`hidden single`), as the
/// rows print it.
pub(crate) fn serialize_name<S: serde::Serializer>(
    t: &Option<Technique>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(t.name()),
        None => s.serialize_none(),
    }
}

macro_rules! catalogue {
    ($($(#[$attr:meta])* $technique:ident => $name:literal in $family:ident,)*) => {
        /// A solving technique.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Technique {
            $($(#[$attr])* $technique,)*
        }

        impl Technique {
            /// All techniques, simplest first (`docs/methods.md` §3 order).
            pub const ALL: [Technique; [$(stringify!($technique)),*].len()] =
                [$(Technique::$technique),*];

            /// Human-readable name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Technique::$technique => $name,)*
                }
            }

            /// Puts the applications of `self` into `out` (its family's finder).
            fn find_into(self, board: &Board, out: &mut Found) {
                match self {
                    $(Technique::$technique => $family::find(self, board, out),)*
                }
            }

            /// [`possible_count`] of `self` (its family's definition).
            fn family_possible_count(self, board: &Board) -> usize {
                match self {
                    $(Technique::$technique => $family::possible_count(self, board),)*
                }
            }
        }
    };
}

catalogue! {
    /// An empty cell with one candidate: place it.
    NakedSingle => "naked single" in singles,
    /// A digit with exactly one place in a unit: place it.
    HiddenSingle => "hidden single" in singles,
    /// Two cells of a unit holding exactly two digits: remove them from the
    /// unit's other cells.
    NakedPair => "naked pair" in subsets,
    /// A digit's places in a box lie on one line: remove it from the rest of
    /// that line.
    Pointing => "pointing" in intersections,
    /// A digit's places in a row or column lie in one box: remove it from the
    /// rest of the box.
    Claiming => "claiming" in intersections,
    /// Two digits of a unit confined to two cells: remove every other
    /// candidate from those cells.
    HiddenPair => "hidden pair" in subsets,
    /// Naked subset of size 3.
    NakedTriple => "naked triple" in subsets,
    /// Naked subset of size 4.
    NakedQuad => "naked quad" in subsets,
    /// Hidden subset of size 3.
    HiddenTriple => "hidden triple" in subsets,
    /// Hidden subset of size 4.
    HiddenQuad => "hidden quad" in subsets,
    /// Fish of size 2: a digit's places on two base lines cover two cross lines.
    XWing => "X-wing" in fish,
    /// Fish of size 3.
    Swordfish => "swordfish" in fish,
    /// Fish of size 4.
    Jellyfish => "jellyfish" in fish,
    /// Bivalue pivot {x,y} with bivalue peers {x,z} and {y,z}: remove z from
    /// cells seeing both peers.
    XyWing => "XY-wing" in wings,
    /// Trivalue pivot {x,y,z} with two bivalue peers inside it: remove z from
    /// cells seeing all three.
    XyzWing => "XYZ-wing" in wings,
    /// A pivot and three peers with four digits in all, exactly one digit z
    /// whose holders do not all see each other: remove z from cells seeing
    /// every z-holder.
    WxyzWing => "WXYZ-wing" in wings,
    /// Both alternatives of a bivalue cell or a two-place digit propagated
    /// with singles: keep what a contradiction forces or both branches agree on.
    ForcingChain => "forcing chain" in chains,
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One application of a technique: what it places or removes, and the
/// pattern (units, cells, digits) it rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Application {
    /// The technique applied.
    pub technique: Technique,
    /// `(cell, digit)` placements.
    pub placements: Vec<(usize, u8)>,
    /// `(cell, digit)` candidate removals.
    pub eliminations: Vec<(usize, u8)>,
    /// Units (geometry indices) the pattern lives in.
    pub units: Vec<usize>,
    /// Cells forming the pattern (pair cells, wing cells, chain source...).
    pub cells: Vec<usize>,
    /// Digits of the pattern.
    pub digits: Vec<u8>,
    /// Why the conclusion holds, where the pattern alone does not say it
    /// (forcing chains: which branch failed, or that both agree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Application {
    fn new(technique: Technique) -> Application {
        Application {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            units: Vec::new(),
            cells: Vec::new(),
            digits: Vec::new(),
            note: None,
        }
    }

    /// Applies the placements and removals; true if the board changed.
    pub(crate) fn apply(&self, board: &mut Board) -> bool {
        let mut changed = false;
        for &(cell, d) in &self.eliminations {
            changed |= board.eliminate(cell, d);
        }
        for &(cell, d) in &self.placements {
            if board.value(cell) == 0 && board.cands(cell) & (1 << d) != 0 {
                board.place(cell, d);
                changed = true;
            }
        }
        changed
    }

    /// True when the application contradicts `solution` (cell values,
    /// row-major): it removes a solution value or places a wrong digit.
    #[cfg(test)]
    pub(crate) fn contradicts(&self, solution: &[u8]) -> bool {
        self.eliminations.iter().any(|&(c, d)| solution[c] == d)
            || self.placements.iter().any(|&(c, d)| solution[c] != d)
    }
}

/// Where a finder puts its applications, in its order: all of them, or only
/// the first (the finders then stop looking once it is found).
pub(super) struct Found {
    list: Vec<Application>,
    first_only: bool,
}

impl Found {
    fn all() -> Found {
        Found {
            list: Vec::new(),
            first_only: false,
        }
    }

    fn first() -> Found {
        Found {
            list: Vec::new(),
            first_only: true,
        }
    }

    /// Adds an application (ignored once a first-only search has one).
    pub(super) fn push(&mut self, a: Application) {
        if !self.done() {
            self.list.push(a);
        }
    }

    /// True once a first-only search has its application: finders check it
    /// between candidate patterns and stop.
    pub(super) fn done(&self) -> bool {
        self.first_only && !self.list.is_empty()
    }
}

/// Calls `f` with every `k`-subset of `items` (k ≤ 4).
fn for_each_subset(items: &[usize], k: usize, f: &mut impl FnMut(&[usize])) {
    fn rec(
        items: &[usize],
        k: usize,
        start: usize,
        buf: &mut [usize; 4],
        len: usize,
        f: &mut impl FnMut(&[usize]),
    ) {
        if len == k {
            f(&buf[..k]);
            return;
        }
        for i in start..items.len() {
            if items.len() - i < k - len {
                break;
            }
            buf[len] = items[i];
            rec(items, k, i + 1, buf, len + 1, f);
        }
    }
    if k == 0 || k > 4 || items.len() < k {
        return;
    }
    let mut buf = [0usize; 4];
    rec(items, k, 0, &mut buf, 0, f);
}

/// Number of `k`-subsets of `m` items.
fn choose(m: usize, k: usize) -> usize {
    if k > m {
        return 0;
    }
    let mut r = 1usize;
    for i in 0..k {
        r = r * (m - i) / (i + 1);
    }
    r
}

/// Every application of `technique` on `board`.
pub(crate) fn find(technique: Technique, board: &Board) -> Vec<Application> {
    let mut out = Found::all();
    technique.find_into(board, &mut out);
    out.list
}

/// The first application of `technique` on `board` (the first of
/// [`find`]'s list): the finders stop at the first pattern that concludes.
pub(crate) fn find_first(technique: Technique, board: &Board) -> Option<Application> {
    let mut out = Found::first();
    technique.find_into(board, &mut out);
    out.list.pop()
}

/// The number `p` of configurations a human checks when looking for
/// `technique` (Chang et al. §3.1's "possible applications"); hsolve divides
/// it by the number of valid ones. Each family file defines it for its
/// techniques.
pub(crate) fn possible_count(technique: Technique, board: &Board) -> usize {
    technique.family_possible_count(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::path::simplest_path;

    /// `find_first` is the head of `find`'s list for every technique, on the
    /// boards where the other techniques get stuck in generated puzzles
    /// (where the forcing-chain search stops early).
    #[test]
    fn find_first_is_the_first_of_find() {
        let opts = crate::generate::GenerateOptions::default();
        let before_chains: Vec<Technique> = Technique::ALL
            .into_iter()
            .filter(|&t| t != Technique::ForcingChain)
            .collect();
        let mut chains_with_several = 0;
        for seed in 0..60 {
            let (c, _) = opts.make_one(seed);
            let stuck = simplest_path(&c.puzzle, &before_chains).end;
            for t in Technique::ALL {
                let all = find(t, &stuck);
                assert_eq!(
                    find_first(t, &stuck).as_ref(),
                    all.first(),
                    "{t}, seed {seed}"
                );
                if t == Technique::ForcingChain && all.len() > 1 {
                    chains_with_several += 1;
                }
            }
        }
        assert!(chains_with_several >= 3, "{chains_with_several}");
    }
}
