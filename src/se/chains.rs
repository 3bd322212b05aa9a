//! Sudoku Explainer's forcing chains and their ratings, on the propagation
//! of our technique engine ([`crate::human::techniques`], `docs/methods.md`
//! §3.11): SE 1.2.1.3's `Chaining` (`diuf/sudoku/solver/rules/chaining/`)
//! (its producers' order is [`super::producers::PRODUCERS`]'s), and its hints
//! in the order it sorts them ([`super::chain::easiest`]: rating,
//! complexity, sort key, then the order found, cell by cell as
//! `getMultipleChainsHintList` finds them).
//!
//! A branch assumes a candidate on (placed) or off (removed) and propagates
//! it with naked and hidden singles, with provenance: every "on" node (a
//! placement) and "off" node (a removed candidate) records the nodes it
//! follows from, so a conclusion has an ancestry, as an SE chain has its
//! potentials. A static branch takes only the singles that follow from one
//! removal (SE's static links: a cell with two candidates, a digit with two
//! places, at the branch's start); a dynamic one takes every single.
//!
//! SE's rating of a chain is a base rating by kind plus a length increment:
//! 0.1 each time the chain length (its potentials − 2) passes 4, 6, 8, 12,
//! 16, 24, 32, 48, … (the thresholds grow by ×3/2 and ×4/3 in turn). The
//! producers and kinds:
//!
//! * **forcing X- or Y-chain, 6.6; forcing chain, 7.0** ([`static_chains`]):
//!   the two static branches of a bivalue cell or a two-place digit; a
//!   chain with hidden singles and two-place digits on one digit only (X)
//!   or naked singles and bivalue cells only (Y) is 6.6;
//! * **Nishio, 7.5**: a dynamic contradiction whose ancestry keeps to the
//!   assumed digit;
//! * **multiple forcing chains, 8.0** ([`multiple_chains`]): from each cell
//!   with three or more candidates, its static cell forcing chain and the
//!   region forcing chains (two or more places) of its digits' box, row and
//!   column whose first place it is;
//! * **dynamic forcing chains, 8.5** ([`dynamic_chains`] level 0): every
//!   candidate assumed on and off, contradictions, doubles, and dynamic cell
//!   and region forcing chains;
//! * **dynamic forcing chains (+), 9.0** (level 1, SE's first nesting
//!   level): the branches also apply locked candidates, hidden pair, naked
//!   pair and X-wing (SE's rules at its default settings), each removal a
//!   node whose parents are the branch's removals the pattern rests on;
//! * **nested forcing chains (+ forcing chains), 9.5** (level 2): the
//!   branches also apply SE's first chaining producer on their board
//!   (cycles and forcing X-, Y- and XY-chains, [`cycles::nested_hints`]:
//!   every hint, in SE's order, one per removal set, as SE 1.2.1.3's
//!   `Chaining.getAdvancedPotentials` nests `Chaining(false, false, false,
//!   0)`), each removal a node whose parents are the branch's removals the
//!   nested chain rests on (its `ChainingHint.getRuleParents`: for each
//!   "on" potential of the chain, and a cycle's "off" ones, the removed
//!   candidates of its cell or the removed places of its digit in its unit)
//!   and which adds the nested chain's complexity once per chain (SE's
//!   `FullChain`); bounded by [`NESTED_ROUNDS`] per branch and
//!   [`NESTED_BUDGET`](super::work::NESTED_BUDGET) searches per call.
//!
//! SE's nesting levels 3 to 5 (10.0, 10.5, 11.0) are [`super::nesting`]'s;
//! SE's
//! first producer (cycles 6.5, forcing X-chains 6.6, XY 7.0) and its Nishio
//! producer are [`cycles`]'. The complexity of a
//! contradiction is the ancestry (union) of the removals that empty the cell
//! or unit, plus one; of an agreement, the ancestries of the conclusion in
//! every branch added (as SE adds its branches' in a cell or region forcing
//! chain).

pub(super) use super::chain::Assume;
use super::chain::NestedConclusion;
use super::chain::{
    Cause, ChainKind, Conclusion, Eliminations, KEY_CELL, KEY_CONTRADICTION, KEY_DOUBLE,
    KEY_REGION, Origin, RatedChain,
};
use super::cycles;
use super::rounds::{Rounds, set_bit};
use super::work::Search;
use crate::human::board::Board;
use crate::human::techniques::{Application, ChainSource, Technique, chain_sources, find};
use crate::util::bits as digits;

pub(super) const NONE: u32 = u32::MAX;

/// The nodes of an ancestry, a bit per node, inline up to node 255 (a node's
/// set has words up to its own index; a branch of the nesting levels makes
/// 17 nodes on average): a branch makes one per node, a heap allocation
/// each was a quarter of the time of the nesting levels, and a smaller
/// record is less to write per node.
type NodeSet = smallvec::SmallVec<[u64; 4]>;

/// A set of `words` words, none set; up to the inline size from a zeroed
/// array, where `smallvec!` calls `memset` for a few words (one set a
/// node).
fn empty_set(words: usize) -> NodeSet {
    if words <= 4 {
        NodeSet::from_buf_and_len([0; 4], words)
    } else {
        smallvec::smallvec![0; words]
    }
}

/// An ancestry's flags, a bit each.
/// No placement in it follows from several removals.
const STAT: u8 = 1;
/// It holds a hidden single (X link).
const LINK_X: u8 = 2;
/// It holds a naked single (Y link).
const LINK_Y: u8 = 4;
/// Every placement in it is of the source digit.
const ONE_DIGIT: u8 = 8;
/// It holds a node a nested chain concluded (a node's own list is kept
/// apart, [`Branch::node`]).
const HAS_NESTED: u8 = 16;

/// The flags of an ancestry of `stat`, `x`, `y` and `one_digit`.
fn flags_of(stat: bool, (x, y): (bool, bool), one_digit: bool) -> u8 {
    let bit = |on: bool, flag: u8| if on { flag } else { 0 };
    bit(stat, STAT) | bit(x, LINK_X) | bit(y, LINK_Y) | bit(one_digit, ONE_DIGIT)
}

/// The flags of two ancestries joined: static and of one digit when both
/// are, with the links and nested chains of either.
fn joined_flags(a: u8, b: u8) -> u8 {
    (a & b & (STAT | ONE_DIGIT)) | ((a | b) & (LINK_X | LINK_Y | HAS_NESTED))
}

/// What the ancestry of a conclusion holds: the nodes it rests on.
#[derive(Debug, Clone)]
pub(super) struct Ancestry {
    /// Nodes (bit per node index).
    pub(super) set: NodeSet,
    /// [`STAT`], [`LINK_X`], [`LINK_Y`], [`ONE_DIGIT`], [`HAS_NESTED`].
    flags: u8,
    /// The nodes in it that a nested chain concluded, with that chain's
    /// complexity (SE adds each nested chain's once), in order.
    nested: Vec<(u64, u32)>,
    /// A contradiction that joins three or more removals (a cell's
    /// candidates, a digit's places in a unit): SE reaches it only as a
    /// cell or region forcing chain.
    wide: bool,
}

/// A node's ancestry as its branch keeps it ([`Branch::node`]), or a view
/// of an [`Ancestry`].
#[derive(Debug, Clone, Copy)]
pub(super) struct AncestryRef<'a> {
    /// Nodes (bit per node index), words up to the node's own index.
    pub(super) set: &'a [u64],
    flags: u8,
    nested: &'a [(u64, u32)],
}

impl AncestryRef<'_> {
    pub(super) fn count(&self) -> usize {
        let flat: usize = self.set.iter().map(|w| w.count_ones() as usize).sum();
        flat + self.nested.iter().map(|&(_, w)| w as usize).sum::<usize>()
    }
}

impl Ancestry {
    /// Empty, words for nodes up to `nodes` (static, of one digit, no link).
    fn empty(nodes: usize) -> Ancestry {
        Ancestry {
            set: empty_set(nodes / 64 + 1),
            flags: STAT | ONE_DIGIT,
            nested: Vec::new(),
            wide: false,
        }
    }

    pub(super) fn as_ref(&self) -> AncestryRef<'_> {
        AncestryRef {
            set: &self.set,
            flags: self.flags,
            nested: &self.nested,
        }
    }

    pub(super) fn count(&self) -> usize {
        self.as_ref().count()
    }

    /// Every placement in it is of the source digit.
    pub(super) fn one_digit(&self) -> bool {
        self.flags & ONE_DIGIT != 0
    }

    /// Adds `other`'s nodes and flags; `other`'s set is no longer than
    /// this one's (a node's set has words up to its own index).
    fn absorb(&mut self, other: AncestryRef) {
        debug_assert!(other.set.len() <= self.set.len());
        for (w, pw) in self.set.iter_mut().zip(other.set) {
            *w |= pw;
        }
        self.flags = joined_flags(self.flags, other.flags);
        merge_nested(&mut self.nested, other.nested);
    }
}

/// Adds the sorted list `other` to the sorted list at the end of `list`
/// from `from` on, keeping it sorted without repeats.
fn merge_nested_from(list: &mut Vec<(u64, u32)>, from: usize, other: &[(u64, u32)]) {
    let sorted = list.len() == from;
    list.extend_from_slice(other);
    settle_nested(list, from, sorted);
}

/// Sorts (unless it already is) and dedups `list` from `from` on, after a
/// sorted list was appended to it (the first list added needs no sort).
fn settle_nested(list: &mut Vec<(u64, u32)>, from: usize, sorted: bool) {
    let tail = &mut list[from..];
    if !sorted {
        tail.sort_unstable();
    }
    let mut keep = 0;
    for i in 0..tail.len() {
        if i == 0 || tail[i] != tail[keep - 1] {
            tail[keep] = tail[i];
            keep += 1;
        }
    }
    list.truncate(from + keep);
}

fn merge_nested(list: &mut Vec<(u64, u32)>, other: &[(u64, u32)]) {
    merge_nested_from(list, 0, other);
}

/// Where node `n`'s ancestor set starts in a branch's flat store: node `j`
/// has `j / 64 + 1` words.
fn set_start(n: usize) -> usize {
    let (q, r) = (n / 64, n % 64);
    64 * q * (q + 1) / 2 + r * (q + 1)
}

/// How a branch propagates, as SE's `Chaining` parameters say.
#[derive(Debug, Clone, Copy)]
pub(super) struct Mode {
    /// Only the singles that follow from one removal (SE's static chains).
    pub(super) static_only: bool,
    /// When no single follows, SE's basic techniques of nesting level 1
    /// (locked candidates, hidden pair, naked pair, X-wing) on the
    /// branch's board (SE's "+", 9.0).
    pub(super) plus: bool,
    /// When neither applies, SE's first chaining producer (cycles, forcing
    /// X-, Y- and XY-chains) on the branch's board (SE's nesting level 2,
    /// "+ forcing chains", 9.5).
    pub(super) nested: bool,
    /// SE's nesting level 3, 4 or 5 (0 below): the rules [`super::nesting`] nests.
    pub(super) deep: u8,
    /// Keep every node's parents, to show the chain's links
    /// ([`super::links`]); the branches nested inside keep none.
    pub(super) traced: bool,
}

pub(super) const STATIC: Mode = Mode {
    static_only: true,
    plus: false,
    nested: false,
    deep: 0,
    traced: false,
};
pub(super) const DYNAMIC: Mode = Mode {
    static_only: false,
    plus: false,
    nested: false,
    deep: 0,
    traced: false,
};
pub(super) const PLUS: Mode = Mode {
    static_only: false,
    plus: true,
    nested: false,
    deep: 0,
    traced: false,
};
pub(super) const NESTED: Mode = Mode {
    static_only: false,
    plus: true,
    nested: true,
    deep: 0,
    traced: false,
};

/// The techniques SE's nesting level 1 uses inside a chain, in its order
/// (`Chaining.getAdvancedPotentials` at its default settings: locking,
/// hidden pair, naked pair, X-wing).
const PLUS_RULES: [Technique; 5] = [
    Technique::Pointing,
    Technique::Claiming,
    Technique::HiddenPair,
    Technique::NakedPair,
    Technique::XWing,
];

/// One branch: the assumption propagated, with provenance.
pub(super) struct Branch {
    pub(super) board: Board,
    /// Node index of the placement / removal of `(cell, digit)`, or `NONE`.
    pub(super) on_at: Vec<u32>,
    pub(super) off_at: Vec<u32>,
    /// The slots of `on_at` and `off_at` that hold a node, a bit each, so
    /// that what several branches agree on is a bitwise and.
    on_bits: Vec<u64>,
    off_bits: Vec<u64>,
    /// Each node's ancestors (itself included), a bit each: node `n`'s
    /// `n / 64 + 1` words from [`set_start`]`(n)` (its parents come before
    /// it). One flat store: writing a record per node was most of
    /// `new_node`'s samples in a profile.
    node_sets: Vec<u64>,
    /// Each node's ancestry flags ([`STAT`], …).
    node_flags: Vec<u8>,
    /// The nested chains of the nodes whose ancestry has any ([`HAS_NESTED`]),
    /// in node order: the node, and its span of `nested_items`.
    nested_spans: Vec<(u32, u32, u32)>,
    nested_items: Vec<(u64, u32)>,
    /// The ancestry of the first contradiction, if the branch reached one.
    pub(super) contradiction: Option<Ancestry>,
    /// Why each node holds (for a nested chain's rule parents).
    pub(super) cause: Vec<Cause>,
    /// Whether the last step without singles was a basic technique (not a
    /// nested chain).
    pub(super) last_advanced: bool,
    /// What the branch assumes.
    pub(super) assume: Assume,
    /// With [`Mode::traced`], each node's parents: a span of `parent_ids`.
    traced: bool,
    pub(super) parent_spans: Vec<(u32, u32)>,
    pub(super) parent_ids: Vec<u32>,
}

/// Branches by the candidate slot they assume (`cell × (side + 1) +
/// digit`), held densely: a producer has one per candidate, a few hundred,
/// where a slot-long array of branches would be hundreds of kilobytes.
pub(super) struct BySlot {
    index: Vec<u32>,
    branches: Vec<Branch>,
}

impl BySlot {
    /// None yet, on boards of `geo`.
    pub(super) fn new(geo: &crate::grid::Geometry) -> BySlot {
        BySlot {
            index: vec![NONE; geo.cells * (geo.side + 1)],
            branches: Vec::new(),
        }
    }

    /// Holds `b` as the branch of `slot`.
    pub(super) fn insert(&mut self, slot: usize, b: Branch) {
        self.index[slot] = self.branches.len() as u32;
        self.branches.push(b);
    }

    /// The branch of `slot`, if any.
    pub(super) fn get(&self, slot: usize) -> Option<&Branch> {
        self.index
            .get(slot)
            .filter(|&&i| i != NONE)
            .map(|&i| &self.branches[i as usize])
    }

    /// Every branch held, for [`Search::recycle`].
    pub(super) fn into_branches(self) -> Vec<Branch> {
        self.branches
    }
}

/// At most this many nested-chain rounds per branch.
pub(crate) const NESTED_ROUNDS: usize = 4;

impl Branch {
    /// Propagates `assume` from `start` as `mode` says. `source_x` tells
    /// the link between a two-alternative source's alternatives: a digit's
    /// two places in a unit (X), or a cell's two candidates (Y); every
    /// conclusion of the chain goes through it.
    pub(super) fn run(
        start: &Board,
        assume: Assume,
        mode: Mode,
        source_x: bool,
        search: &Search,
    ) -> Branch {
        Branch::run_caused(start, assume, mode, source_x, Cause::Other, search)
    }

    /// [`Branch::run`] with the root's cause (the source of a nested chain).
    pub(super) fn run_caused(
        start: &Board,
        assume: Assume,
        mode: Mode,
        source_x: bool,
        root_cause: Cause,
        search: &Search,
    ) -> Branch {
        let geo = start.geometry();
        let mut br = match search.spare_branch(start) {
            Some(mut b) => {
                b.reset(start, assume, mode.traced);
                b
            }
            None => Branch::empty(start, assume, mode.traced),
        };
        let root = br.new_node(&[], true, (source_x, !source_x), true);
        br.cause[root as usize] = root_cause;
        // Over budget (16×16 and up): a branch that concludes nothing; the
        // rating is then "over budget" and this step is thrown away.
        if !search.charge_large_board(start, 1) {
            return br;
        }
        let mut rounds = search.rounds_from(start);
        let d = match assume {
            Assume::On(cell, d) => {
                rounds.placing(&br.board, cell, d);
                br.place(start, cell, d, root, d);
                d
            }
            Assume::Off(cell, d) => {
                let s = br.slot(cell, d);
                br.mark_off(s, root);
                rounds.remove(geo, cell, d);
                br.board.eliminate(cell, d);
                d
            }
        };
        let mut nested_rounds = 0;
        while br.contradiction.is_none() {
            br.singles(start, &mut rounds);
            if mode.static_only {
                rounds.keep_static(&br.board);
            }
            if rounds.found.is_empty() {
                if (mode.plus && br.advanced(start, d))
                    || (mode.nested && nested_rounds < NESTED_ROUNDS && br.nested(start, d, search))
                    || (mode.deep > 0
                        && nested_rounds < NESTED_ROUNDS
                        && br.deep_round(start, d, mode.deep, search))
                {
                    nested_rounds += usize::from(!br.last_advanced);
                    rounds.refresh(&br.board);
                    br.contradiction = br.find_contradiction(start, &mut rounds);
                    continue;
                }
                break;
            }
            for i in 0..rounds.found.len() {
                let (c, x, ref span, unit) = rounds.found[i];
                if br.board.value(c) != 0 || br.board.cands(c) & (1 << x) == 0 {
                    continue;
                }
                let parents = &rounds.parents[span.clone()];
                let stat = parents.len() == 1;
                let pure = x == d;
                let link_x = unit.is_some();
                let n = br.new_node(parents, stat, (link_x, !link_x), pure);
                br.cause[n as usize] = match unit {
                    Some(u) => Cause::Hidden(u, x),
                    None => Cause::Naked(c),
                };
                rounds.placing(&br.board, c, x);
                br.place(start, c, x, n, d);
            }
            br.contradiction = br.find_contradiction(start, &mut rounds);
        }
        search.give_back(rounds);
        br
    }

    /// A branch from `start` with no node yet.
    fn empty(start: &Board, assume: Assume, traced: bool) -> Branch {
        let geo = start.geometry();
        let slots = geo.cells * (geo.side + 1);
        Branch {
            board: start.clone(),
            on_at: vec![NONE; slots],
            off_at: vec![NONE; slots],
            on_bits: vec![0; slots.div_ceil(64)],
            off_bits: vec![0; slots.div_ceil(64)],
            // Room for a typical dynamic branch's nodes without regrowing.
            node_sets: Vec::with_capacity(256),
            node_flags: Vec::with_capacity(128),
            nested_spans: Vec::new(),
            nested_items: Vec::new(),
            contradiction: None,
            cause: Vec::with_capacity(128),
            last_advanced: false,
            assume,
            traced,
            parent_spans: Vec::new(),
            parent_ids: Vec::new(),
        }
    }

    /// Makes a spare branch of the same grid size [`Branch::empty`] from
    /// `start`, keeping its storage.
    fn reset(&mut self, start: &Board, assume: Assume, traced: bool) {
        self.board.copy_from(start);
        // Only the slots that hold a node need emptying.
        for (at, bits) in [
            (&mut self.on_at, &mut self.on_bits),
            (&mut self.off_at, &mut self.off_bits),
        ] {
            for (w, word) in bits.iter_mut().enumerate() {
                let mut b = std::mem::take(word);
                while b != 0 {
                    at[w * 64 + b.trailing_zeros() as usize] = NONE;
                    b &= b - 1;
                }
            }
        }
        self.node_sets.clear();
        self.node_flags.clear();
        self.nested_spans.clear();
        self.nested_items.clear();
        self.contradiction = None;
        self.cause.clear();
        self.last_advanced = false;
        self.assume = assume;
        self.traced = traced;
        self.parent_spans.clear();
        self.parent_ids.clear();
    }

    /// Records node `n` as the placement of slot `s`.
    fn mark_on(&mut self, s: usize, n: u32) {
        self.on_at[s] = n;
        set_bit(&mut self.on_bits, s);
    }

    /// Records node `n` as the removal of slot `s`.
    pub(super) fn mark_off(&mut self, s: usize, n: u32) {
        self.off_at[s] = n;
        set_bit(&mut self.off_bits, s);
    }

    pub(super) fn slot(&self, cell: usize, d: u8) -> usize {
        cell * (self.board.side() + 1) + d as usize
    }

    pub(super) fn new_node(
        &mut self,
        parents: &[u32],
        stat: bool,
        links: (bool, bool),
        one_digit: bool,
    ) -> u32 {
        let idx = self.node_flags.len();
        let at = self.node_sets.len();
        debug_assert_eq!(at, set_start(idx));
        self.node_sets.resize(at + idx / 64 + 1, 0);
        let (earlier, own) = self.node_sets.split_at_mut(at);
        let mut flags = flags_of(stat, links, one_digit);
        for &p in parents {
            let p = p as usize;
            let from = set_start(p);
            for (w, pw) in own.iter_mut().zip(&earlier[from..from + p / 64 + 1]) {
                *w |= pw;
            }
            flags = joined_flags(flags, self.node_flags[p]);
        }
        own[idx / 64] |= 1 << (idx % 64);
        self.node_flags.push(flags);
        if flags & HAS_NESTED != 0 {
            let from = self.nested_items.len();
            for &p in parents {
                let (s, e) = self.nested_span(p as usize);
                if s < e {
                    let sorted = self.nested_items.len() == from;
                    self.nested_items.extend_from_within(s..e);
                    settle_nested(&mut self.nested_items, from, sorted);
                }
            }
            let to = self.nested_items.len() as u32;
            self.nested_spans.push((idx as u32, from as u32, to));
        }
        if self.traced {
            let from = self.parent_ids.len() as u32;
            self.parent_ids.extend_from_slice(parents);
            self.parent_spans.push((from, self.parent_ids.len() as u32));
        }
        self.cause.push(Cause::Other);
        idx as u32
    }

    /// The number of nodes.
    pub(super) fn node_count(&self) -> usize {
        self.node_flags.len()
    }

    /// Node `n`'s span of `nested_items` (empty when it has none).
    fn nested_span(&self, n: usize) -> (usize, usize) {
        if self.node_flags[n] & HAS_NESTED == 0 {
            return (0, 0);
        }
        match self
            .nested_spans
            .binary_search_by_key(&(n as u32), |&(m, _, _)| m)
        {
            Ok(i) => (
                self.nested_spans[i].1 as usize,
                self.nested_spans[i].2 as usize,
            ),
            Err(_) => (0, 0),
        }
    }

    /// Node `n`'s ancestry.
    pub(super) fn node(&self, n: u32) -> AncestryRef<'_> {
        let n = n as usize;
        let from = set_start(n);
        let (s, e) = self.nested_span(n);
        AncestryRef {
            set: &self.node_sets[from..from + n / 64 + 1],
            flags: self.node_flags[n],
            nested: &self.nested_items[s..e],
        }
    }

    /// Adds the nested chain `entry` (its key and complexity) to the
    /// ancestry of node `n`, the last made.
    pub(super) fn add_nested_entry(&mut self, n: u32, entry: (u64, u32)) {
        let n = n as usize;
        debug_assert_eq!(n + 1, self.node_count());
        if self.node_flags[n] & HAS_NESTED == 0 {
            self.node_flags[n] |= HAS_NESTED;
            let at = self.nested_items.len() as u32;
            self.nested_spans.push((n as u32, at, at));
        }
        let last = self.nested_spans.last_mut().expect("the node's span");
        let list = &mut self.nested_items[last.1 as usize..];
        // In order (an entry a parent holds too stays twice here, as it
        // always has).
        let at = last.1 as usize + list.partition_point(|e| *e <= entry);
        self.nested_items.insert(at, entry);
        last.2 += 1;
    }

    /// Places `d` in `cell` as node `on`, adding an off node for every
    /// candidate this removes.
    fn place(&mut self, start: &Board, cell: usize, d: u8, on: u32, src_digit: u8) {
        let geo = start.geometry();
        let slot = self.slot(cell, d);
        self.mark_on(slot, on);
        for x in digits(self.board.cands(cell) & !(1 << d)) {
            let n = self.new_node(&[on], true, (false, false), x == src_digit);
            let s = self.slot(cell, x);
            self.mark_off(s, n);
        }
        for &p in &geo.peers[cell] {
            if self.board.value(p) == 0 && self.board.cands(p) & (1 << d) != 0 {
                let n = self.new_node(&[on], true, (false, false), d == src_digit);
                let s = self.slot(p, d);
                self.mark_off(s, n);
            }
        }
        self.board.place(cell, d);
    }

    /// SE's nesting level 1: the removals of the first of [`PLUS_RULES`]
    /// that applies on the branch's board, each an off node whose parents
    /// are the removals of the branch the pattern rests on (SE's "rule
    /// parents"). False when none applies.
    fn advanced(&mut self, start: &Board, src_digit: u8) -> bool {
        for t in PLUS_RULES {
            let mut any = false;
            for a in find(t, &self.board) {
                let parents = self.rule_parents(start, &a);
                // A pattern with no removal of the branch in it exists
                // without the chain: SE leaves it out.
                if parents.is_empty() {
                    continue;
                }
                for &(c, x) in &a.eliminations {
                    if self.board.value(c) != 0 || self.board.cands(c) & (1 << x) == 0 {
                        continue;
                    }
                    let n = self.new_node(&parents, false, (false, false), x == src_digit);
                    let s = self.slot(c, x);
                    self.mark_off(s, n);
                    self.board.eliminate(c, x);
                    any = true;
                }
            }
            if any {
                self.last_advanced = true;
                return true;
            }
        }
        self.last_advanced = false;
        false
    }

    /// SE's nesting level 2: every hint of SE's first chaining producer
    /// (cycles, forcing X-, Y- and XY-chains: [`nested_first`]) on the
    /// branch's board, each removal of it a removal of the branch whose
    /// parents are the branch's removals the nested chain rests on (for each
    /// of its "on" potentials, the other candidates of the cell or the other
    /// places of the digit in the unit, SE's `collectRuleParents`) and which
    /// adds the nested chain's complexity once. False when none applies or
    /// the budget is spent.
    fn nested(&mut self, start: &Board, src_digit: u8, search: &Search) -> bool {
        if search.nested_left() == 0 {
            return false;
        }
        // A nested search propagates about two branches per candidate, as
        // the deeper levels count it.
        let candidates: u32 = (0..self.board.geometry().cells)
            .map(|c| self.board.cands(c).count_ones())
            .sum();
        if !search.charge_large_board(&self.board, 2 * u64::from(candidates)) {
            return false;
        }
        search.spend_nested();
        let found = search.memoised(&search.work.first_seen, &self.board, || {
            nested_first(&self.board, search)
        });
        self.add_nested(start, src_digit, &found)
    }

    /// The removals of the branch that pattern `a` rests on: for locked
    /// candidates and X-wings the digit's removals in the base units, for a
    /// naked pair the other digits' removals in its cells, for a hidden pair
    /// its digits' removals in the rest of its unit.
    fn rule_parents(&self, start: &Board, a: &Application) -> Vec<u32> {
        let geo = start.geometry();
        let mut out = Vec::new();
        match a.technique {
            Technique::Pointing | Technique::Claiming | Technique::XWing => {
                let bases = if a.technique == Technique::XWing {
                    a.units.len() / 2
                } else {
                    1
                };
                for &u in &a.units[..bases.min(a.units.len())] {
                    for &d in &a.digits {
                        out.extend(self.offs_in_unit(start, u, d, usize::MAX));
                    }
                }
            }
            Technique::NakedPair => {
                let mask = a.digits.iter().fold(0u32, |m, &d| m | 1 << d);
                for &c in &a.cells {
                    out.extend(self.offs_of_cell(start, c, !mask));
                }
            }
            Technique::HiddenPair => {
                for &u in &a.units {
                    for &c in &geo.units[u] {
                        if a.cells.contains(&c) {
                            continue;
                        }
                        for &d in &a.digits {
                            if start.cands(c) & (1 << d) != 0 {
                                let n = self.off_at[self.slot(c, d)];
                                if n != NONE {
                                    out.push(n);
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The removals (off nodes) of the start candidates `mask` of `cell`.
    pub(super) fn offs_of_cell(&self, start: &Board, cell: usize, mask: u32) -> Vec<u32> {
        digits(start.cands(cell) & mask)
            .map(|x| self.off_at[self.slot(cell, x)])
            .filter(|&n| n != NONE)
            .collect()
    }

    /// The removals of `d` from the cells of `unit` other than `except`.
    pub(super) fn offs_in_unit(
        &self,
        start: &Board,
        unit: usize,
        d: u8,
        except: usize,
    ) -> Vec<u32> {
        start.geometry().units[unit]
            .iter()
            .filter(|&&c| c != except && start.cands(c) & (1 << d) != 0)
            .map(|&c| self.off_at[self.slot(c, d)])
            .filter(|&n| n != NONE)
            .collect()
    }

    /// Every single of the current board (whose unit places `rounds` holds)
    /// in a cell or a (unit, digit) changed since the last look, with the
    /// removals it follows from (the fewer of naked and hidden when a cell
    /// is both), and whether it is a hidden single (X link), into
    /// `rounds.found`, cell by cell; the removals go to `rounds.parents`.
    fn singles(&self, start: &Board, rounds: &mut Rounds) {
        let geo = start.geometry();
        let b = &self.board;
        let stride = geo.side + 1;
        rounds.found.clear();
        rounds.parents.clear();
        let (best, with_best) = (&mut rounds.best, &mut rounds.with_best);
        rounds.for_singles.take_cells(|cell| {
            let c = b.cands(cell);
            if b.value(cell) == 0 && c.count_ones() == 1 {
                let x = c.trailing_zeros() as u8;
                // Every candidate the cell lost is a removal node.
                let parents = (start.cands(cell) & !c).count_ones() as usize;
                debug_assert_eq!(parents, self.count_offs_of_cell(start, cell, !c));
                best[cell] = Some((x, parents, None));
                set_bit(with_best, cell);
            }
        });
        let (places, placed, lost) = (&rounds.places, &rounds.placed, &rounds.lost);
        rounds.for_singles.take_places(|u, d| {
            let p = places[u * stride + d as usize];
            if placed[u] & (1 << d) != 0 || p.count_ones() != 1 {
                return;
            }
            let cell = geo.units[u][p.trailing_zeros() as usize];
            let parents = lost[u * stride + d as usize] as usize;
            debug_assert_eq!(parents, self.count_offs_in_unit(start, u, d, cell));
            let better = match best[cell] {
                None => true,
                Some((x, q, _)) => x == d && parents < q,
            };
            if better {
                best[cell] = Some((d, parents, Some(u)));
                set_bit(with_best, cell);
            }
        });
        rounds.take_best(|rounds, cell, (d, unit)| {
            let from = rounds.parents.len();
            match unit {
                None => rounds
                    .parents
                    .extend(self.offs_of_cell(start, cell, !(1 << d))),
                Some(u) => rounds.parents.extend(self.offs_in_unit(start, u, d, cell)),
            }
            rounds
                .found
                .push((cell, d, from..rounds.parents.len(), unit));
        });
    }

    /// How many of [`Branch::offs_of_cell`] there are.
    fn count_offs_of_cell(&self, start: &Board, cell: usize, mask: u32) -> usize {
        digits(start.cands(cell) & mask)
            .filter(|&x| self.off_at[self.slot(cell, x)] != NONE)
            .count()
    }

    /// How many of [`Branch::offs_in_unit`] there are.
    fn count_offs_in_unit(&self, start: &Board, unit: usize, d: u8, except: usize) -> usize {
        start.geometry().units[unit]
            .iter()
            .filter(|&&c| {
                c != except
                    && start.cands(c) & (1 << d) != 0
                    && self.off_at[self.slot(c, d)] != NONE
            })
            .count()
    }

    /// The ancestry of the contradiction on the current board (a cell
    /// without candidate, a digit without place; `rounds` holds its unit
    /// places) in a cell or a (unit, digit) changed since the last look,
    /// that joins at most two removals, else the one with the fewest nodes.
    fn find_contradiction(&self, start: &Board, rounds: &mut Rounds) -> Option<Ancestry> {
        let geo = start.geometry();
        let b = &self.board;
        let stride = geo.side + 1;
        let mut best: Option<Ancestry> = None;
        let mut consider = |parents: Vec<u32>| {
            let mut a = self.joined(&parents);
            a.wide = parents.len() >= 3;
            if best
                .as_ref()
                .is_none_or(|x| (x.wide, x.count()) > (a.wide, a.count()))
            {
                best = Some(a);
            }
        };
        rounds.for_contradictions.take_cells(|cell| {
            if b.value(cell) == 0 && b.cands(cell) == 0 {
                consider(self.offs_of_cell(start, cell, u32::MAX));
            }
        });
        let (places, placed) = (&rounds.places, &rounds.placed);
        rounds.for_contradictions.take_places(|u, d| {
            if placed[u] & (1 << d) == 0 && places[u * stride + d as usize] == 0 {
                consider(self.offs_in_unit(start, u, d, usize::MAX));
            }
        });
        best
    }

    /// The ancestry of a conclusion drawn from `parents`: their union.
    fn joined(&self, parents: &[u32]) -> Ancestry {
        let mut a = Ancestry::empty(self.node_count());
        for &p in parents {
            a.absorb(self.node(p));
        }
        a
    }

    /// The complexity of a contradiction whose ancestry is `a`: its nodes
    /// plus the contradiction itself.
    pub(super) fn summed(&self, a: &Ancestry) -> usize {
        a.count() + 1
    }
}

/// The kind of a chain whose ancestry has `flags` (a contradiction when
/// `contradiction`).
fn kind_of(flags: u8, contradiction: bool) -> ChainKind {
    let (x, y, one_digit) = (
        flags & LINK_X != 0,
        flags & LINK_Y != 0,
        flags & ONE_DIGIT != 0,
    );
    if flags & STAT != 0 {
        // SE's X-chains keep to one digit (no link inside a cell); its
        // Y-chains reach placements through bivalue cells only.
        if (y && !x) || (x && !y && one_digit) {
            ChainKind::XOrY
        } else {
            ChainKind::Forcing
        }
    } else if contradiction && one_digit {
        ChainKind::Nishio
    } else {
        ChainKind::Dynamic
    }
}

/// The kind of a static branch's contradiction: a chain back to the
/// source's negation (6.6, 7.0), or, when it joins three or more removals, a
/// cell or region forcing chain (8.0), as SE finds it.
fn contradiction_kind(a: &Ancestry) -> ChainKind {
    if a.flags & STAT != 0 && a.wide {
        ChainKind::Multiple
    } else {
        kind_of(a.flags, true)
    }
}

/// The static forcing chains of the engine's two-alternative sources, each
/// rated as SE rates its chain, in source order, for boards larger than 9×9
/// (SE's first producer, [`cycles`], has no counterpart there); a
/// contradiction that joins three or more removals is left out (SE's first
/// producer does not reach it).
pub(crate) fn static_chains(board: &Board, search: &Search) -> Vec<RatedChain> {
    two_alternative_chains(board, search)
        .into_iter()
        .filter(|c| c.kind != ChainKind::Multiple)
        .collect()
}

/// The conclusions of the static branches of the engine's two-alternative
/// sources.
fn two_alternative_chains(board: &Board, search: &Search) -> Vec<RatedChain> {
    let mut out = Vec::new();
    for src in chain_sources(board) {
        let [first, second] = src.alternatives();
        let source_x = matches!(src, ChainSource::Unit { .. });
        let b1 = Branch::run(
            board,
            Assume::On(first.0, first.1),
            STATIC,
            source_x,
            search,
        );
        let b2 = Branch::run(
            board,
            Assume::On(second.0, second.1),
            STATIC,
            source_x,
            search,
        );
        two_way(board, src, (&b1, &b2), &mut |c, k, n, _| {
            out.push(RatedChain::new(c, k, n));
        });
        search.recycle([b1, b2]);
    }
    out
}

/// Hands the conclusions of the two static branches of `src` to `emit`:
/// what it concludes, its kind, its complexity, and the branches'
/// ancestries it rests on.
fn two_way(
    board: &Board,
    src: ChainSource,
    (b1, b2): (&Branch, &Branch),
    emit: &mut impl FnMut(Conclusion, ChainKind, usize, &[Part]),
) {
    let geo = board.geometry();
    let [first, second] = src.alternatives();
    match (&b1.contradiction, &b2.contradiction) {
        (Some(_), Some(_)) => {}
        (Some(a), None) => {
            let c = Conclusion::Place(second.0, second.1);
            emit(c, contradiction_kind(a), b1.summed(a), &[(b1, a.as_ref())]);
        }
        (None, Some(a)) => {
            let c = Conclusion::Place(first.0, first.1);
            emit(c, contradiction_kind(a), b2.summed(a), &[(b2, a.as_ref())]);
        }
        (None, None) => {
            for cell in 0..geo.cells {
                if board.value(cell) != 0 {
                    continue;
                }
                if let ChainSource::Cell { cell: c, .. } = src
                    && c == cell
                {
                    continue;
                }
                let mut both = |n1: u32, n2: u32, conclusion| {
                    if n1 != NONE && n2 != NONE {
                        let (a1, a2) = (b1.node(n1), b2.node(n2));
                        let k = kind_of(joined_flags(a1.flags, a2.flags), false);
                        emit(
                            conclusion,
                            k,
                            a1.count() + a2.count(),
                            &[(b1, a1), (b2, a2)],
                        );
                        true
                    } else {
                        false
                    }
                };
                let mut placed = false;
                for d in digits(board.cands(cell)) {
                    let s = b1.slot(cell, d);
                    placed |= both(b1.on_at[s], b2.on_at[s], Conclusion::Place(cell, d));
                }
                if !placed {
                    for d in digits(board.cands(cell)) {
                        let s = b1.slot(cell, d);
                        both(b1.off_at[s], b2.off_at[s], Conclusion::Remove(cell, d));
                    }
                }
            }
        }
    }
}

/// The causes of the nodes of the ancestries `parts` (with `root`, the
/// source of a cell or region forcing chain): what the nested chain's rule
/// parents are made of.
pub(super) fn causes_of(parts: &[Part], root: Option<Cause>) -> Vec<Cause> {
    let mut causes: Vec<Cause> = root.into_iter().collect();
    for (br, a) in parts {
        for (w, &bits) in a.set.iter().enumerate() {
            let mut m = bits;
            while m != 0 {
                let n = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(&c) = br.cause.get(n)
                    && !matches!(c, Cause::Other)
                {
                    causes.push(c);
                }
            }
        }
    }
    causes
}

/// SE's rule nested at levels 2 and 3, its first chaining producer
/// (`Chaining(false, false, false, 0)`: cycles, forcing X-, Y- and
/// XY-chains), on `board` (a branch's board): every hint in SE's order,
/// those removing the same candidates once, each with the causes of its
/// potentials ([`cycles::nested_hints`]). On boards too large for the
/// cycles' sets, the engine's static forcing chains stand in.
pub(super) fn nested_first(board: &Board, search: &Search) -> Vec<NestedConclusion> {
    let geo = board.geometry();
    if geo.cells * geo.side > Eliminations::CAPACITY {
        return nested_static(board, search);
    }
    cycles::nested_hints(board)
        .into_iter()
        .map(|(hint, removals, trace)| NestedConclusion {
            conclusion: Conclusion::Eliminate(removals),
            nodes: hint.complexity,
            causes: trace.causes,
            fingerprint: Some(trace.fingerprint),
        })
        .collect()
}

/// The static forcing chains of the engine's two-alternative sources on
/// `board` (a branch's board) as nested conclusions: [`nested_first`]'s
/// stand-in on boards too large for SE's first producer.
fn nested_static(board: &Board, search: &Search) -> Vec<NestedConclusion> {
    let mut out = Vec::new();
    for src in chain_sources(board) {
        let [first, second] = src.alternatives();
        let (source_x, root) = match src {
            ChainSource::Unit { unit, d, .. } => (true, Cause::Hidden(unit, d)),
            ChainSource::Cell { cell, .. } => (false, Cause::Naked(cell)),
        };
        let run = |(c, d): (usize, u8)| {
            Branch::run_caused(board, Assume::On(c, d), STATIC, source_x, root, search)
        };
        let (b1, b2) = (run(first), run(second));
        two_way(
            board,
            src,
            (&b1, &b2),
            &mut |conclusion, _, nodes, parts| {
                out.push(NestedConclusion {
                    conclusion,
                    nodes,
                    causes: causes_of(parts, None),
                    fingerprint: None,
                });
            },
        );
        search.recycle([b1, b2]);
    }
    out
}

/// A branch and the ancestry of a conclusion in it.
pub(super) type Part<'a> = (&'a Branch, AncestryRef<'a>);

/// What every branch of `live` implies (SE's cell and region forcing
/// chains, and doubles), each conclusion handed to `emit` with the
/// ancestries it rests on, one per branch. As in SE, a branch that reached
/// a contradiction keeps what it implied up to there (its alternative is
/// false, so one of the others holds, and each of them implies the
/// conclusion). `skip` is the source cell, whose own candidates are the
/// alternatives. A cell that every branch fills the same way yields that
/// placement; else each candidate every branch removes.
pub(super) fn agreements(
    board: &Board,
    live: &[&Branch],
    skip: Option<usize>,
    emit: &mut dyn FnMut(Conclusion, &[Part]),
) {
    if live.iter().all(|b| b.contradiction.is_some()) {
        return;
    }
    let Some(first) = live.first() else {
        return;
    };
    let geo = board.geometry();
    let stride = geo.side + 1;
    // The slots every branch places / removes: a bitwise and, then only
    // those slots are visited, in slot order (cell by cell, digit by digit).
    let and = |bits: fn(&Branch) -> &Vec<u64>| -> Vec<u64> {
        let mut all = bits(first).clone();
        for b in &live[1..] {
            for (w, x) in all.iter_mut().zip(bits(b)) {
                *w &= x;
            }
        }
        all
    };
    let on = and(|b| &b.on_bits);
    let off = and(|b| &b.off_bits);
    let has = |bits: &[u64], s: usize| bits[s / 64] >> (s % 64) & 1 == 1;
    let mut parts = Vec::with_capacity(live.len());
    let mut emit_at = |at: fn(&Branch, usize) -> u32, s: usize, conclusion: Conclusion| {
        parts.clear();
        parts.extend(live.iter().map(|b| (*b, b.node(at(b, s)))));
        emit(conclusion, &parts);
    };
    let mut last_cell = usize::MAX;
    for (w, (&a, &b)) in on.iter().zip(&off).enumerate() {
        let mut m = a | b;
        while m != 0 {
            let cell = (w * 64 + m.trailing_zeros() as usize) / stride;
            m &= m - 1;
            if cell == last_cell || board.value(cell) != 0 || skip == Some(cell) {
                continue;
            }
            last_cell = cell;
            let mut placed = false;
            for d in digits(board.cands(cell)) {
                let s = cell * stride + d as usize;
                if has(&on, s) {
                    emit_at(|b, s| b.on_at[s], s, Conclusion::Place(cell, d));
                    placed = true;
                }
            }
            if !placed {
                for d in digits(board.cands(cell)) {
                    let s = cell * stride + d as usize;
                    if has(&off, s) {
                        emit_at(|b, s| b.off_at[s], s, Conclusion::Remove(cell, d));
                    }
                }
            }
        }
    }
}

/// [`agreements`] rated `kind` at the sum of the branches' ancestries, as
/// SE adds its branches' in a cell or region forcing chain.
pub(super) fn rated_agreements(
    board: &Board,
    live: &[&Branch],
    skip: Option<usize>,
    kind: ChainKind,
    out: &mut Vec<RatedChain>,
) {
    let mut origin = None;
    agreements(board, live, skip, &mut |conclusion, parts| {
        let nodes = parts.iter().map(|(_, a)| a.count()).sum();
        let origin = *origin.get_or_insert_with(|| agreed_origin(board, live));
        out.push(RatedChain::new(conclusion, kind, nodes).with_origin(origin));
    });
}

/// Where the agreeing branches `live` start: a candidate on and off, a
/// cell's candidates, or a digit's places in a unit (the first of box, row
/// and column, SE's order, that holds them all).
fn agreed_origin(board: &Board, live: &[&Branch]) -> Origin {
    let geo = board.geometry();
    let Some((first, rest)) = live.split_first() else {
        return Origin::Unknown;
    };
    let Assume::On(c, d) = first.assume else {
        return Origin::Unknown;
    };
    if let [b] = rest
        && let Assume::Off(c2, d2) = b.assume
        && (c2, d2) == (c, d)
    {
        return Origin::Double(c, d);
    }
    if rest
        .iter()
        .all(|b| matches!(b.assume, Assume::On(c2, _) if c2 == c))
    {
        return Origin::Cell(c);
    }
    let [row, col, bx] = geo.cell_units[c];
    [bx, row, col]
        .into_iter()
        .find(|&u| {
            rest.iter().all(
                |b| matches!(b.assume, Assume::On(c2, d2) if d2 == d && geo.cell_units[c2].contains(&u)),
            )
        })
        .map_or(Origin::Unknown, |u| Origin::Region(u, d))
}

/// The "on" branch of every candidate of `board` under `mode` that `want`
/// wants, by slot.
fn on_branches(
    board: &Board,
    mode: Mode,
    want: impl Fn(usize, u8) -> bool,
    search: &Search,
) -> BySlot {
    let geo = board.geometry();
    let mut out = BySlot::new(geo);
    for cell in 0..geo.cells {
        if board.value(cell) != 0 {
            continue;
        }
        for d in digits(board.cands(cell)) {
            if want(cell, d) {
                out.insert(
                    cell * (geo.side + 1) + d as usize,
                    Branch::run(board, Assume::On(cell, d), mode, false, search),
                );
            }
        }
    }
    out
}

/// Cell and region forcing chains from the branches `on` in SE's order
/// (`Chaining.getMultipleChainsHintList`): cell by cell along the rows,
/// from each cell with at least `min_cell` candidates: for each of its
/// digits, `binary`'s conclusions of the digit, then the region chains of the
/// digit's box, row and column (two or more places) whose first place is
/// the cell; then the cell's own chain.
pub(super) fn se_ordered(
    board: &Board,
    on: &BySlot,
    min_cell: u32,
    kind: ChainKind,
    binary: &mut dyn FnMut(usize, u8, &mut Vec<RatedChain>),
    out: &mut Vec<RatedChain>,
) {
    let geo = board.geometry();
    let slot = |c: usize, d: u8| c * (geo.side + 1) + d as usize;
    let key = |out: &mut Vec<RatedChain>, from: usize, k: u8| {
        for c in &mut out[from..] {
            c.sort_key = k;
        }
    };
    for cell in 0..geo.cells {
        let c = board.cands(cell);
        if board.value(cell) != 0 || c.count_ones() < min_cell {
            continue;
        }
        for d in digits(c) {
            binary(cell, d, out);
            // SE's region types: box, row, column.
            let [row, col, bx] = geo.cell_units[cell];
            for u in [bx, row, col] {
                let p = board.places(u, d);
                let cells = &geo.units[u];
                if p.count_ones() < 2 || cells[p.trailing_zeros() as usize] != cell {
                    continue;
                }
                let bs: Vec<&Branch> = digits(p << 1)
                    .filter_map(|i| on.get(slot(cells[i as usize - 1], d)))
                    .collect();
                let from = out.len();
                rated_agreements(board, &bs, None, kind, out);
                key(out, from, KEY_REGION);
            }
        }
        let bs: Vec<&Branch> = digits(c).filter_map(|d| on.get(slot(cell, d))).collect();
        let from = out.len();
        rated_agreements(board, &bs, Some(cell), kind, out);
        key(out, from, KEY_CELL);
    }
}

/// SE's multiple forcing chains (8.0), static: from each cell with three
/// or more candidates, its cell forcing chain and the region forcing chains
/// of its digits' units whose first place it is, in SE's order
/// ([`se_ordered`]).
pub(crate) fn multiple_chains(board: &Board, search: &Search) -> Vec<RatedChain> {
    let mut out: Vec<RatedChain> = Vec::new();
    let geo = board.geometry();
    let mut wanted = vec![false; geo.cells * (geo.side + 1)];
    for cell in 0..geo.cells {
        let c = board.cands(cell);
        if board.value(cell) != 0 || c.count_ones() < 3 {
            continue;
        }
        for d in digits(c) {
            wanted[cell * (geo.side + 1) + d as usize] = true;
            for u in geo.cell_units[cell] {
                let p = board.places(u, d);
                if geo.units[u][p.trailing_zeros() as usize] == cell {
                    for i in digits(p << 1) {
                        wanted[geo.units[u][i as usize - 1] * (geo.side + 1) + d as usize] = true;
                    }
                }
            }
        }
    }
    let on = on_branches(
        board,
        STATIC,
        |c, d| wanted[c * (geo.side + 1) + d as usize],
        search,
    );
    se_ordered(
        board,
        &on,
        3,
        ChainKind::Multiple,
        &mut |_, _, _| {},
        &mut out,
    );
    search.recycle(on.into_branches());
    out
}

/// SE's dynamic forcing chains at nesting `level`: 0 (8.5), 1 with basic
/// techniques inside the branches (9.0), 2 with SE's cycles and forcing
/// X-, Y- and XY-chains inside too (9.5, within a budget of nested
/// searches). From every
/// candidate assumed on and off, a contradiction refutes the assumption
/// (a Nishio, 7.5, when every placement of it is of the assumed digit at
/// level 0), both assumptions agreeing on a candidate of a cell with three
/// or more candidates settle it; and dynamic cell and region forcing chains
/// from every cell and every digit of a unit.
pub(crate) fn dynamic_chains(board: &Board, level: u8, search: &Search) -> Vec<RatedChain> {
    let geo = board.geometry();
    let with_budget;
    let (mode, kind, search) = match level {
        0 => (DYNAMIC, ChainKind::Dynamic, search),
        1 => (PLUS, ChainKind::DynamicPlus, search),
        _ => {
            with_budget = search.with_nested_budget();
            (NESTED, ChainKind::Nested, &with_budget)
        }
    };
    let plus = level > 0;
    let on = on_branches(board, mode, |_, _| true, search);
    let mut out = Vec::new();
    let mut binary = |cell: usize, d: u8, out: &mut Vec<RatedChain>| {
        let Some(b_on) = on.get(cell * (geo.side + 1) + d as usize) else {
            return;
        };
        let b_off = Branch::run(board, Assume::Off(cell, d), mode, false, search);
        let contradiction_kind = |a: &Ancestry| {
            if !plus && a.one_digit() {
                ChainKind::Nishio
            } else {
                kind
            }
        };
        if let Some(a) = &b_on.contradiction {
            out.push(
                RatedChain::new(
                    Conclusion::Remove(cell, d),
                    contradiction_kind(a),
                    b_on.summed(a),
                )
                .keyed(KEY_CONTRADICTION)
                .with_origin(Origin::Refuted(Assume::On(cell, d))),
            );
        }
        if let Some(a) = &b_off.contradiction {
            out.push(
                RatedChain::new(
                    Conclusion::Place(cell, d),
                    contradiction_kind(a),
                    b_off.summed(a),
                )
                .keyed(KEY_CONTRADICTION)
                .with_origin(Origin::Refuted(Assume::Off(cell, d))),
            );
        }
        if board.cands(cell).count_ones() >= 3 {
            let from = out.len();
            rated_agreements(board, &[b_on, &b_off], Some(cell), kind, out);
            for c in &mut out[from..] {
                c.sort_key = KEY_DOUBLE;
            }
        }
        search.recycle([b_off]);
    };
    se_ordered(board, &on, 2, kind, &mut binary, &mut out);
    search.recycle(on.into_branches());
    out
}

/// Every conclusion the static, multiple and dynamic (not "+") forcing
/// chains of `board` reach, each rated as SE rates its chain.
#[cfg(test)]
pub(crate) fn rated_chains(board: &Board, search: &Search) -> Vec<RatedChain> {
    let mut out = static_chains(board, search);
    out.extend(multiple_chains(board, search));
    out.extend(dynamic_chains(board, 0, search));
    out
}
