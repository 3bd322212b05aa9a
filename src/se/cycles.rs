//! Sudoku Explainer's first chaining producer: bidirectional cycles and
//! forcing X-, Y- and XY-chains (Sudoku Explainer 1.2.1.3, class
//! `Chaining` with neither multiple nor dynamic chains, and its hints
//! `CycleHint` and `ForcingChainHint`; `docs/methods.md` §3.11).
//!
//! SE reasons on *potentials*: a candidate assumed on (placed) or off
//! (removed). On the current board, left unchanged (SE's static links):
//!
//! * **on → off**: an "on" candidate turns off every other place of its
//!   digit in its box, row and column, and, with Y links, every other
//!   candidate of its cell;
//! * **off → on**: an "off" candidate turns on the other candidate of its
//!   cell when the cell has two (Y link), and the other place of its digit
//!   in a box, row or column where the digit has two places (X link).
//!
//! From each candidate of each empty cell, three passes (X links only, Y
//! links only, both) search breadth first:
//!
//! * a **cycle**: the search from the candidate on comes back to it on,
//!   after at least two on-off rounds; every candidate outside the loop's
//!   cells that sees an "on" and an "off" node of its digit on the loop
//!   goes. X- and Y-cycles rate 6.5, XY-cycles 7.0;
//! * a **forcing chain**: the search from the candidate on reaches it off
//!   (it goes), or from it off reaches it on (it is placed). X-chains rate
//!   6.6, XY-chains 7.0 (SE has no forcing Y-chain: a chain of Y links only
//!   would be both odd and even).
//!
//! The kind is the pass's, not the links used: a chain found in the XY pass
//! rates 7.0 even when it uses X links only (the X pass has found it at 6.6
//! then). Each hint adds SE's length increment to its base, the length
//! being the number of distinct potentials of the chain or cycle. SE sorts
//! the hints by rating, then length, then kind (X, Y, XY), stably in the
//! order it finds them (cells row by row, digits ascending, passes X, Y, XY;
//! cycles before chains, the "on" chain before the "off" one), and applies
//! the first: [`first_hint`]. The search order matters: the breadth-first
//! search keeps, for every "on" potential, only the first way it is reached
//! (an "off" potential is expanded again from each new parent in a cycle
//! search), so the chain SE rates is the one that order finds.
//!
//! SE's nesting levels 2 and 3 nest this producer inside dynamic chains
//! ([`nested_hints`]): every hint, sorted as above, one per set of removed
//! candidates (SE's `Chaining.getHints` keeps the first of equal hints), each
//! with the causes of its potentials ([`Trace`]): the link that made each
//! "on" potential (the last candidate of a cell, the last place of a digit
//! in a unit) and, for a cycle, each "off" one too (SE walks a cycle both
//! ways, its reversed loop turning those "on" with the same cause). The
//! removals of the outer chain behind those causes are the nested hint's
//! rule parents (`ChainingHint.getRuleParents`).

use super::chain::{Cause, ChainKind, Conclusion, Eliminations, Origin, RatedChain};
use crate::grid::Geometry;
use crate::human::board::Board;
use crate::util::bits as digits;
use std::collections::VecDeque;

/// Which links a pass uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Links {
    /// Links inside a cell (naked: on → other candidates off, off → the
    /// other candidate of a bivalue cell on).
    pub y: bool,
    /// Links inside a unit (hidden: off → the other place of a two-place
    /// digit on).
    pub x: bool,
}

/// SE's three passes, in its order.
pub(crate) const PASSES: [Links; 3] = [
    Links { y: false, x: true },
    Links { y: true, x: false },
    Links { y: true, x: true },
];

impl Links {
    /// SE's sort key of a hint of the pass (X 2, Y 3, XY 4).
    fn sort_key(self) -> u8 {
        match (self.y, self.x) {
            (true, true) => 4,
            (true, false) => 3,
            _ => 2,
        }
    }
}

/// One hint of the producer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FirstHint {
    /// What it concludes.
    pub conclusion: Conclusion,
    /// A cycle (else a forcing chain).
    pub cycle: bool,
    /// The pass that found it.
    pub links: Links,
    /// Distinct potentials of the chain (SE's complexity).
    pub complexity: usize,
    /// SE's difficulty, computed as SE computes it (base plus 0.1 per
    /// length threshold, in floating point: the sort compares these).
    pub difficulty: f64,
    /// The search's source: cell, digit, and whether it is assumed on (a
    /// cycle's always is).
    pub source: (usize, u8, bool),
}

impl FirstHint {
    /// SE's base rating of the hint, in tenths.
    #[cfg(test)]
    pub(crate) fn base_tenths(&self) -> u32 {
        match (self.links.y && self.links.x, self.cycle) {
            (true, _) => 70,
            (false, true) => 65,
            (false, false) => 66,
        }
    }

    /// The rating in tenths.
    pub(crate) fn tenths(&self) -> u32 {
        (self.difficulty * 10.0).round() as u32
    }

    /// As a rated chain of the path (kind X/Y for the X and Y passes, a
    /// forcing chain for the XY pass; the tenths are the hint's, 6.5 for a
    /// cycle).
    pub(crate) fn rated(&self) -> RatedChain {
        RatedChain {
            conclusion: self.conclusion,
            kind: if self.links.y && self.links.x {
                ChainKind::Forcing
            } else {
                ChainKind::XOrY
            },
            nodes: self.complexity,
            tenths: self.tenths(),
            sort_key: self.links.sort_key(),
            origin: Origin::First {
                source: self.source,
                cycle: self.cycle,
                x: self.links.x,
                y: self.links.y,
            },
        }
    }

    /// SE's order: difficulty, then complexity, then sort key.
    fn before(&self, other: &FirstHint) -> bool {
        if self.difficulty != other.difficulty {
            return self.difficulty < other.difficulty;
        }
        (self.complexity, self.links.sort_key()) < (other.complexity, other.links.sort_key())
    }
}

/// SE's difficulty of a chain: `base` plus 0.1 each time its length
/// (complexity − 2) passes 4, 6, 8, 12, 16, 24, … (`getLengthDifficulty`),
/// added in floating point as SE adds it.
pub(crate) fn se_difficulty(base: f64, complexity: usize) -> f64 {
    let length = complexity as i64 - 2;
    let (mut added, mut ceil, mut odd) = (0.0f64, 4i64, false);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    base + added
}

const ROOT: u32 = u32::MAX;

/// A potential reached by a search, with the potential it was reached from.
#[derive(Debug, Clone, Copy)]
struct Node {
    cell: usize,
    digit: u8,
    on: bool,
    parent: u32,
    /// The link that made it: inside its cell (SE's naked single cause) or
    /// inside a unit (SE's hidden cause); `Other` for the source.
    cause: Cause,
}

/// The breadth-first searches of one board, with reusable scratch space.
struct Search<'a> {
    board: &'a Board,
    geo: &'static Geometry,
    nodes: Vec<Node>,
    /// Stamp per potential slot: reached "on" / "off" in the current search.
    on_seen: Vec<u32>,
    off_seen: Vec<u32>,
    stamp: u32,
    /// Places of each digit in each unit (bit per position).
    places: Vec<u32>,
    /// Cells on the current cycle (stamped).
    on_loop: Vec<u32>,
    loop_stamp: u32,
    /// The potentials a link step reaches, with the link's cause.
    out: Vec<(usize, u8, Cause)>,
    /// Every link step computed so far, end to end, and where each lies in
    /// it (by potential and links; `u32::MAX` ends one not computed).
    links_out: Vec<(usize, u8, Cause)>,
    links_at: Vec<(u32, u32)>,
    /// Cells already in `out` (stamped by `out_stamp`): a peer in two of
    /// the cell's units is reached once.
    in_out: Vec<u32>,
    out_stamp: u32,
    /// A cycle's eliminations: candidates seen by an "on" / an "off"
    /// potential of the loop (stamped by `loop_stamp`).
    forward: Vec<u32>,
    back: Vec<u32>,
    /// Per potential slot, which searches of the current pass can find
    /// something ([`Search::reachable`]: [`MAY_CYCLE`], [`MAY_FORCE_ON`],
    /// [`MAY_FORCE_OFF`]).
    may: Vec<u8>,
}

/// A cycle may close on the candidate.
const MAY_CYCLE: u8 = 1;
/// A forcing chain from the candidate assumed on may reach it off.
const MAY_FORCE_ON: u8 = 2;
/// A forcing chain from the candidate assumed off may reach it on.
const MAY_FORCE_OFF: u8 = 4;

/// The order SE visits a cell's units in: box, row, column.
const UNIT_ORDER: [usize; 3] = [2, 0, 1];

impl<'a> Search<'a> {
    fn new(board: &'a Board) -> Search<'a> {
        let geo = board.geometry();
        let slots = geo.cells * (geo.side + 1);
        let mut places = vec![0u32; geo.units.len() * (geo.side + 1)];
        for (u, chunk) in places.chunks_mut(geo.side + 1).enumerate() {
            board.unit_places(u, chunk);
        }
        Search {
            board,
            geo,
            nodes: Vec::new(),
            on_seen: vec![0; slots],
            off_seen: vec![0; slots],
            stamp: 0,
            places,
            on_loop: vec![0; geo.cells],
            loop_stamp: 0,
            out: Vec::new(),
            links_out: Vec::new(),
            links_at: vec![(0, u32::MAX); slots * 5],
            in_out: vec![0; geo.cells],
            out_stamp: 0,
            forward: vec![0; slots],
            back: vec![0; slots],
            may: vec![0; slots],
        }
    }

    fn slot(&self, cell: usize, d: u8) -> usize {
        cell * (self.geo.side + 1) + d as usize
    }

    fn places(&self, unit: usize, d: u8) -> u32 {
        self.places[unit * (self.geo.side + 1) + d as usize]
    }

    fn start(&mut self) {
        self.stamp += 1;
        self.nodes.clear();
    }

    fn push(&mut self, cell: usize, digit: u8, on: bool, parent: u32, cause: Cause) -> u32 {
        self.nodes.push(Node {
            cell,
            digit,
            on,
            parent,
            cause,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The potentials an "on" potential turns off (SE's `getOnToOff`), in
    /// SE's order, into `self.out`.
    fn compute_on_to_off(&mut self, cell: usize, d: u8, y: bool) {
        self.out.clear();
        let cands = self.board.cands(cell);
        if y {
            for x in digits(cands & !(1 << d)) {
                self.out.push((cell, x, Cause::Naked(cell)));
            }
        }
        // The cell's own "off" potentials (above) are never a peer's.
        self.out_stamp += 1;
        for k in UNIT_ORDER {
            let u = self.geo.cell_units[cell][k];
            let mut p = self.places(u, d) & !(1 << self.geo.unit_positions[cell][k]);
            while p != 0 {
                let c = self.geo.units[u][p.trailing_zeros() as usize];
                p &= p - 1;
                if self.in_out[c] != self.out_stamp {
                    self.in_out[c] = self.out_stamp;
                    self.out.push((c, d, Cause::Hidden(u, d)));
                }
            }
        }
    }

    /// The potentials an "off" potential turns on (SE's `getOffToOn`), in
    /// SE's order, into `self.out`.
    fn compute_off_to_on(&mut self, cell: usize, d: u8, links: Links) {
        self.out.clear();
        let cands = self.board.cands(cell);
        if links.y && cands.count_ones() == 2 {
            let other = (cands & !(1 << d)).trailing_zeros() as u8;
            self.out.push((cell, other, Cause::Naked(cell)));
        }
        if links.x {
            for k in UNIT_ORDER {
                let u = self.geo.cell_units[cell][k];
                let p = self.places(u, d);
                if p.count_ones() == 2 {
                    let pos = self.geo.unit_positions[cell][k];
                    let other = (p & !(1 << pos)).trailing_zeros() as usize;
                    let c = self.geo.units[u][other];
                    if !self.out.iter().any(|o| (o.0, o.1) == (c, d)) {
                        self.out.push((c, d, Cause::Hidden(u, d)));
                    }
                }
            }
        }
    }

    /// The potentials an "on" potential turns off with Y links or not: a
    /// range of `self.links_out`, computed once per search (the board does
    /// not change, and a search expands the same potential many times).
    fn on_to_off(&mut self, cell: usize, d: u8, y: bool) -> std::ops::Range<usize> {
        let key = self.slot(cell, d) * 2 + usize::from(y);
        self.cached(key, |s| s.compute_on_to_off(cell, d, y))
    }

    /// The potentials an "off" potential turns on with `links`, as
    /// [`Search::on_to_off`] keeps them.
    fn off_to_on(&mut self, cell: usize, d: u8, links: Links) -> std::ops::Range<usize> {
        let key = (self.geo.cells * (self.geo.side + 1)) * 2
            + self.slot(cell, d) * 3
            + usize::from(links.sort_key() - 2);
        self.cached(key, |s| s.compute_off_to_on(cell, d, links))
    }

    /// The range of `links_out` kept under `key`, computing it into
    /// `self.out` with `compute` the first time.
    fn cached(&mut self, key: usize, compute: impl FnOnce(&mut Self)) -> std::ops::Range<usize> {
        let (from, to) = self.links_at[key];
        if to != u32::MAX {
            return from as usize..to as usize;
        }
        compute(self);
        let from = self.links_out.len();
        self.links_out.extend_from_slice(&self.out);
        self.links_at[key] = (from as u32, self.links_out.len() as u32);
        from..self.links_out.len()
    }

    /// Whether the potential `(cell, d, on)` is a strict ancestor of node
    /// `n` (SE's `isParent`).
    fn is_ancestor(&self, n: u32, cell: usize, d: u8, on: bool) -> bool {
        let mut at = self.nodes[n as usize].parent;
        while at != ROOT {
            let p = self.nodes[at as usize];
            if p.cell == cell && p.digit == d && p.on == on {
                return true;
            }
            at = p.parent;
        }
        false
    }

    /// SE's `doCycles` from `(cell, d)` on: the nodes (off potentials) from
    /// which the search comes back to the source.
    ///
    /// The search goes a layer at a time, "on" and "off" in turn, and each
    /// layer's nodes are pushed together: a layer is a range of
    /// `self.nodes`.
    fn cycles(&mut self, cell: usize, d: u8, links: Links, found: &mut Vec<(u32, Cause)>) {
        self.start();
        self.push(cell, d, true, ROOT, Cause::Other);
        let s = self.slot(cell, d);
        self.on_seen[s] = self.stamp;
        let mut layer = 0..1;
        let mut length = 0;
        while !layer.is_empty() {
            length += 1;
            let from = self.nodes.len();
            for p in layer {
                let n = self.nodes[p];
                let p = p as u32;
                if n.on {
                    for i in self.on_to_off(n.cell, n.digit, links.y) {
                        let (c, x, cause) = self.links_out[i];
                        // An "off" potential never reached in this search is
                        // no ancestor: the walk up is needed only for one
                        // reached.
                        let s = self.slot(c, x);
                        if self.off_seen[s] != self.stamp || !self.is_ancestor(p, c, x, false) {
                            self.push(c, x, false, p, cause);
                            self.off_seen[s] = self.stamp;
                        }
                    }
                } else {
                    for i in self.off_to_on(n.cell, n.digit, links) {
                        let (c, x, cause) = self.links_out[i];
                        if length >= 4 && c == cell && x == d {
                            found.push((p, cause));
                        }
                        let s = self.slot(c, x);
                        if self.on_seen[s] != self.stamp {
                            self.on_seen[s] = self.stamp;
                            self.push(c, x, true, p, cause);
                        }
                    }
                }
            }
            layer = from..self.nodes.len();
        }
    }

    /// SE's `doForcingChains` from `(cell, d)` assumed `on`: the node whose
    /// conjugate is the source (the chain's last potential before the
    /// source's negation), if the search reaches it. A layer at a time, as
    /// [`Search::cycles`] goes.
    fn forcing_chain(&mut self, cell: usize, d: u8, on: bool, y: bool) -> Option<(u32, Cause)> {
        self.start();
        let links = Links { y, x: true };
        self.push(cell, d, on, ROOT, Cause::Other);
        let s = self.slot(cell, d);
        if on {
            self.on_seen[s] = self.stamp;
        } else {
            self.off_seen[s] = self.stamp;
        }
        let mut layer = 0..1;
        while !layer.is_empty() {
            let from = self.nodes.len();
            for p in layer {
                let n = self.nodes[p];
                let p = p as u32;
                if n.on {
                    for i in self.on_to_off(n.cell, n.digit, y) {
                        let (c, x, cause) = self.links_out[i];
                        if on && c == cell && x == d {
                            return Some((p, cause));
                        }
                        // Every "off" node is marked seen as it is made, so
                        // one not seen is no ancestor either.
                        let s = self.slot(c, x);
                        if self.off_seen[s] != self.stamp {
                            self.off_seen[s] = self.stamp;
                            self.push(c, x, false, p, cause);
                        }
                    }
                } else {
                    for i in self.off_to_on(n.cell, n.digit, links) {
                        let (c, x, cause) = self.links_out[i];
                        if !on && c == cell && x == d {
                            return Some((p, cause));
                        }
                        let s = self.slot(c, x);
                        if self.on_seen[s] != self.stamp {
                            self.on_seen[s] = self.stamp;
                            self.push(c, x, true, p, cause);
                        }
                    }
                }
            }
            layer = from..self.nodes.len();
        }
        None
    }

    /// Which searches of pass `links` can find something, into `self.may`.
    ///
    /// Most searches end with nothing: on the boards of SE's nesting levels
    /// 2 and up, over 98 % of the cycle searches and 99.8 % of the forcing
    /// chain searches (Easter Monster). A search only concludes what the
    /// links reach, so the graph of one on-off-on step between candidates
    /// (`a → e`: `a` on turns a potential off that turns `e` on) tells which
    /// searches can: its strong components and what each reaches, computed
    /// once per pass. Every search reaches each "on" potential the graph
    /// reaches (they are expanded once each, on first reach) and:
    ///
    /// * a cycle closes on `a` only through an "on" potential `q ≠ a` with
    ///   `q → a` that `a` reaches: `q` is in `a`'s strong component;
    /// * a forcing chain from `a` on ends at an "on" potential that turns
    ///   `a` off, one `a` reaches; those are the potentials `a` on turns off
    ///   (the links are symmetric);
    /// * one from `a` off ends when some `e` that `a` off turns on reaches
    ///   `a` in one step or more.
    ///
    /// So a search that can find something is always made, and the hints
    /// are the same with or without this filter (test
    /// `the_reach_filter_keeps_every_hint`).
    fn reachable(&mut self, links: Links) {
        use petgraph::algo::TarjanScc;
        use petgraph::csr::Csr;
        let geo = self.geo;
        let board = self.board;
        self.may.fill(0);
        // The candidates, numbered; every potential a link reaches is one.
        let mut index = vec![u32::MAX; self.may.len()];
        let mut cands = Vec::new();
        for cell in (0..geo.cells).filter(|&c| board.value(c) == 0) {
            for d in digits(board.cands(cell)) {
                index[self.slot(cell, d)] = cands.len() as u32;
                cands.push((cell, d));
            }
        }
        let mut edges = Vec::new();
        for (a, &(cell, d)) in cands.iter().enumerate() {
            for i in self.on_to_off(cell, d, links.y) {
                let (c, x, _) = self.links_out[i];
                for j in self.off_to_on(c, x, links) {
                    let (e, y, _) = self.links_out[j];
                    edges.push((a as u32, index[self.slot(e, y)]));
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let graph = Csr::<(), ()>::from_sorted_edges(&edges).expect("sorted and unique");
        let n = graph.node_count();
        let words = n.div_ceil(64);
        // Per strong component, in the order Tarjan's algorithm closes them
        // (every component a component reaches closes before it): the
        // candidates it reaches in one step or more, a bit each.
        let mut component = vec![u32::MAX; n];
        let mut reach: Vec<u64> = Vec::new();
        let mut cyclic = vec![false; n];
        TarjanScc::new().run(&graph, |scc| {
            let k = (reach.len() / words.max(1)) as u32;
            for &v in scc {
                component[v as usize] = k;
            }
            let (done, this) = {
                let at = reach.len();
                reach.resize(at + words, 0);
                reach.split_at_mut(at)
            };
            let mut inside = false;
            for &v in scc {
                for &e in graph.neighbors_slice(v) {
                    let ce = component[e as usize];
                    if ce == k {
                        inside = true;
                        cyclic[e as usize] |= e != v;
                    } else {
                        let theirs = &done[ce as usize * words..][..words];
                        for (w, t) in this.iter_mut().zip(theirs) {
                            *w |= t;
                        }
                        this[e as usize / 64] |= 1 << (e % 64);
                    }
                }
            }
            if inside {
                for &v in scc {
                    this[v as usize / 64] |= 1 << (v % 64);
                }
            }
        });
        // Whether `from` reaches `to` in one step or more.
        let reaches = |from: u32, to: u32| {
            (from as usize) < n
                && (to as usize) < n
                && reach[component[from as usize] as usize * words + to as usize / 64]
                    & (1 << (to % 64))
                    != 0
        };
        for (a, &(cell, d)) in cands.iter().enumerate() {
            let a = a as u32;
            let mut may = 0;
            if (a as usize) < n && cyclic[a as usize] {
                may |= MAY_CYCLE;
            }
            if links.x {
                if self.on_to_off(cell, d, links.y).any(|i| {
                    reaches(
                        a,
                        index[self.slot(self.links_out[i].0, self.links_out[i].1)],
                    )
                }) {
                    may |= MAY_FORCE_ON;
                }
                if self.off_to_on(cell, d, links).any(|i| {
                    reaches(
                        index[self.slot(self.links_out[i].0, self.links_out[i].1)],
                        a,
                    )
                }) {
                    may |= MAY_FORCE_OFF;
                }
            }
            let s = self.slot(cell, d);
            self.may[s] = may;
        }
    }

    /// The number of nodes from `n` up to the root, both included.
    fn depth(&self, mut n: u32) -> usize {
        let mut k = 0;
        while n != ROOT {
            k += 1;
            n = self.nodes[n as usize].parent;
        }
        k
    }

    /// SE's `createCycleHint` for the cycle closed from node `last` back to
    /// the source (the root): its eliminations and its complexity.
    fn cycle_eliminations(&mut self, last: u32) -> (Eliminations, usize) {
        let root = self.nodes[0];
        // The loop's potentials: the source (closing it), then `last` up to,
        // not including, the root.
        let mut loop_nodes = vec![root];
        let mut at = last;
        while self.nodes[at as usize].parent != ROOT {
            loop_nodes.push(self.nodes[at as usize]);
            at = self.nodes[at as usize].parent;
        }
        self.loop_stamp += 1;
        for n in &loop_nodes {
            self.on_loop[n.cell] = self.loop_stamp;
        }
        let geo = self.geo;
        let stamp = self.loop_stamp;
        for n in &loop_nodes {
            for &c in &geo.peers[n.cell] {
                if self.on_loop[c] != stamp && self.board.cands(c) & (1 << n.digit) != 0 {
                    let s = self.slot(c, n.digit);
                    if n.on {
                        self.forward[s] = stamp;
                    } else {
                        self.back[s] = stamp;
                    }
                }
            }
        }
        let mut out = Eliminations::new(geo.side);
        for cell in 0..geo.cells {
            for d in digits(self.board.cands(cell)) {
                let s = self.slot(cell, d);
                if self.forward[s] == stamp && self.back[s] == stamp {
                    out.insert(cell, d);
                }
            }
        }
        (out, loop_nodes.len())
    }
}

/// Every hint of SE's first chaining producer on `board`, in the order SE
/// finds them (before its sort). Empty when the board is too large for
/// [`Eliminations`].
pub(crate) fn all_hints(board: &Board) -> Vec<FirstHint> {
    traced_hints(board, false)
        .into_iter()
        .map(|(h, _)| h)
        .collect()
}

/// What a hint of the first producer rests on, for a chain that nests it
/// (SE's `ChainingHint.getRuleParents`, `FullChain`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Trace {
    /// The causes of the chain's "on" potentials (a cycle's "off" ones too:
    /// SE walks a cycle in both directions, its reversed loop turning every
    /// "off" potential "on" with the same cause).
    pub causes: Vec<Cause>,
    /// The chain's potentials in order, as one number (SE counts a nested
    /// chain's complexity once per distinct chain).
    pub fingerprint: u64,
}

/// The hints of the first producer in the order found, each with its
/// [`Trace`] when `traced` (else an empty one).
fn traced_hints(board: &Board, traced: bool) -> Vec<(FirstHint, Trace)> {
    hints_searched(board, traced, true)
}

/// [`traced_hints`], making only the searches [`Search::reachable`] allows
/// when `filtered` (else every one, for the test that the filter loses
/// nothing).
fn hints_searched(board: &Board, traced: bool, filtered: bool) -> Vec<(FirstHint, Trace)> {
    let geo = board.geometry();
    let mut out = Vec::new();
    if geo.cells * geo.side > Eliminations::CAPACITY {
        return out;
    }
    let mut search = Search::new(board);
    let mut found = Vec::new();
    for links in PASSES {
        let (base_cycle, base_chain) = if links.y && links.x {
            (7.0, 7.0)
        } else {
            (6.5, 6.6)
        };
        if filtered {
            search.reachable(links);
        } else {
            search.may.fill(MAY_CYCLE | MAY_FORCE_ON | MAY_FORCE_OFF);
        }
        for cell in 0..geo.cells {
            let cands = board.cands(cell);
            if board.value(cell) != 0 || cands.count_ones() < 2 {
                continue;
            }
            // Y-cycles start only from a bivalue cell.
            if cands.count_ones() > 2 && !links.x {
                continue;
            }
            for d in digits(cands) {
                let may = search.may[search.slot(cell, d)];
                found.clear();
                if may & MAY_CYCLE != 0 {
                    search.cycles(cell, d, links, &mut found);
                }
                for &(last, closing) in &found {
                    let (elims, complexity) = search.cycle_eliminations(last);
                    if !elims.is_empty() {
                        let hint = FirstHint {
                            conclusion: Conclusion::Eliminate(elims),
                            cycle: true,
                            links,
                            complexity,
                            difficulty: se_difficulty(base_cycle, complexity),
                            source: (cell, d, true),
                        };
                        let trace = if traced {
                            search.trace(last, closing, true, (cell, d, true))
                        } else {
                            Trace::default()
                        };
                        out.push((hint, trace));
                    }
                }
                if !links.x {
                    continue;
                }
                for on in [true, false] {
                    let flag = if on { MAY_FORCE_ON } else { MAY_FORCE_OFF };
                    if may & flag == 0 {
                        continue;
                    }
                    if let Some((last, closing)) = search.forcing_chain(cell, d, on, links.y) {
                        // The chain's potentials: the source, the nodes up to
                        // `last`, and the source's negation.
                        let complexity = search.depth(last) + 1;
                        let hint = FirstHint {
                            conclusion: if on {
                                Conclusion::Remove(cell, d)
                            } else {
                                Conclusion::Place(cell, d)
                            },
                            cycle: false,
                            links,
                            complexity,
                            difficulty: se_difficulty(base_chain, complexity),
                            source: (cell, d, on),
                        };
                        // The target (the source's negation) is "on", with
                        // the closing link's cause, when the source is off.
                        let closing = if on { Cause::Other } else { closing };
                        let trace = if traced {
                            search.trace(last, closing, false, (cell, d, !on))
                        } else {
                            Trace::default()
                        };
                        out.push((hint, trace));
                    }
                }
            }
        }
    }
    out
}

impl Search<'_> {
    /// The [`Trace`] of the chain that ends at node `last` and closes on
    /// `target` with a link of cause `closing` (`Other` when the target is
    /// "off": SE takes rule parents from "on" potentials only). A cycle's
    /// "off" potentials count too.
    fn trace(
        &self,
        last: u32,
        closing: Cause,
        cycle: bool,
        (tc, td, ton): (usize, u8, bool),
    ) -> Trace {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (cycle, tc, td, ton).hash(&mut h);
        let mut causes = Vec::new();
        if !matches!(closing, Cause::Other) {
            causes.push(closing);
        }
        let mut at = last;
        while at != ROOT {
            let n = self.nodes[at as usize];
            (n.cell, n.digit, n.on).hash(&mut h);
            if (n.on || cycle) && !matches!(n.cause, Cause::Other) {
                causes.push(n.cause);
            }
            at = n.parent;
        }
        Trace {
            causes,
            fingerprint: h.finish(),
        }
    }
}

/// The potentials of the first producer's chain that starts from `source`
/// (a cycle, else a forcing chain) in pass `links` and concludes
/// `conclusion` on `board`, from the source to the last, each with the
/// cause of the link that reached it, and the closing link's cause (back to
/// the source for a cycle, to its negation for a forcing chain); `None`
/// when the search finds no such chain.
pub(crate) fn chain_path(
    board: &Board,
    (cell, d, on): Potential,
    cycle: bool,
    links: Links,
    conclusion: Conclusion,
) -> Option<(Vec<(Potential, Cause)>, Cause)> {
    let mut search = Search::new(board);
    let (last, closing) = if cycle {
        let mut found = Vec::new();
        search.cycles(cell, d, links, &mut found);
        found.into_iter().find(|&(last, _)| {
            let (elims, _) = search.cycle_eliminations(last);
            Conclusion::Eliminate(elims) == conclusion
        })?
    } else {
        search.forcing_chain(cell, d, on, links.y)?
    };
    let mut path = Vec::new();
    let mut at = last;
    while at != ROOT {
        let n = search.nodes[at as usize];
        path.push(((n.cell, n.digit, n.on), n.cause));
        at = n.parent;
    }
    path.reverse();
    Some((path, closing))
}

/// A potential: cell, digit, on.
pub(crate) type Potential = (usize, u8, bool);

/// SE's Nishio chain that refutes `d` at `cell` assumed on (or off) on
/// `board`: each potential of the contradiction's two ancestries in the
/// order found, after the assumption, with the potentials it follows from;
/// `None` when the search reaches no contradiction.
pub(crate) fn nishio_path(
    board: &Board,
    (cell, d, on): Potential,
) -> Option<Vec<(Potential, Vec<Potential>)>> {
    let mut search = NishioSearch::new(board);
    let (a, b) = search.refute(cell, d, on)?;
    let mut keep = vec![false; search.nodes.len()];
    let mut stack = vec![a, b];
    while let Some(n) = stack.pop() {
        if !std::mem::replace(&mut keep[n as usize], true) {
            stack.extend_from_slice(&search.nodes[n as usize].parents);
        }
    }
    let nodes = &search.nodes;
    Some(
        (1..nodes.len())
            .filter(|&n| keep[n])
            .map(|n| {
                let parents = nodes[n]
                    .parents
                    .iter()
                    .map(|&p| nodes[p as usize].potential);
                (nodes[n].potential, parents.collect())
            })
            .collect(),
    )
}

/// The hints of the first producer as SE hands them to a chain that nests
/// it (`Chaining.getHints` of `Chaining(false, false, false, 0)`): sorted
/// by difficulty, complexity and sort key, stably, and only the first of
/// those that remove the same candidates; each with its removals on
/// `board` and its [`Trace`].
pub(crate) fn nested_hints(board: &Board) -> Vec<(FirstHint, Eliminations, Trace)> {
    let geo = board.geometry();
    let mut hints = traced_hints(board, true);
    hints.sort_by(|(a, _), (b, _)| {
        a.difficulty
            .partial_cmp(&b.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then((a.complexity, a.links.sort_key()).cmp(&(b.complexity, b.links.sort_key())))
    });
    let mut out: Vec<(FirstHint, Eliminations, Trace)> = Vec::with_capacity(hints.len());
    for (hint, trace) in hints {
        let removals = match hint.conclusion {
            Conclusion::Eliminate(set) => set,
            Conclusion::Remove(c, d) => {
                let mut set = Eliminations::new(geo.side);
                set.insert(c, d);
                set
            }
            Conclusion::Place(c, d) => {
                let mut set = Eliminations::new(geo.side);
                for x in digits(board.cands(c) & !(1 << d)) {
                    set.insert(c, x);
                }
                set
            }
        };
        if removals.is_empty() || out.iter().any(|(_, r, _)| *r == removals) {
            continue;
        }
        out.push((hint, removals, trace));
    }
    out
}

/// The hint SE's first chaining producer applies on `board`: the first of
/// its hints in SE's order (difficulty, complexity, kind, then the order
/// found).
pub(crate) fn first_hint(board: &Board) -> Option<FirstHint> {
    all_hints(board)
        .into_iter()
        .reduce(|best, h| if h.before(&best) { h } else { best })
}

/// A potential of a dynamic Nishio search, with every potential it follows
/// from (the one that caused it, and for a hidden single the earlier
/// removals of its digit in the unit: SE's "hidden parents").
#[derive(Debug, Clone)]
struct DynNode {
    parents: Vec<u32>,
    potential: Potential,
}

/// SE's Nishio forcing chains (7.5; Sudoku Explainer 1.2.1.3, `Chaining`
/// with dynamic and Nishio set): from every candidate assumed on and off,
/// X links only, each "off" potential removed from a working copy of the
/// board as the search takes it (so later X links see the removals), the
/// "on" potentials first. A potential reached both on and off refutes the
/// assumption; the chain's complexity is the ancestry of the "on" version
/// plus that of the "off" one. The hint SE applies: the lowest rating, then
/// the fewest potentials, then the first found (cells row by row, digits
/// ascending, the "on" assumption first).
pub(crate) fn nishio_hint(board: &Board) -> Option<RatedChain> {
    let geo = board.geometry();
    let mut search = NishioSearch::new(board);
    let mut best: Option<(f64, usize, RatedChain)> = None;
    for cell in 0..geo.cells {
        let cc = board.cands(cell);
        if board.value(cell) != 0 || cc.count_ones() < 2 {
            continue;
        }
        for d in digits(cc) {
            for assume_on in [true, false] {
                let Some((a, b)) = search.refute(cell, d, assume_on) else {
                    continue;
                };
                let complexity = search.ancestry(a) + search.ancestry(b);
                let difficulty = se_difficulty(7.5, complexity);
                let conclusion = if assume_on {
                    Conclusion::Remove(cell, d)
                } else {
                    Conclusion::Place(cell, d)
                };
                if best
                    .as_ref()
                    .is_none_or(|(bd, bc, _)| (difficulty, complexity) < (*bd, *bc))
                {
                    let rated = RatedChain {
                        conclusion,
                        kind: ChainKind::Nishio,
                        nodes: complexity,
                        tenths: (difficulty * 10.0).round() as u32,
                        // SE's contradiction hints sort last.
                        sort_key: 7,
                        origin: Origin::Nishio(cell, d, assume_on),
                    };
                    best = Some((difficulty, complexity, rated));
                }
            }
        }
    }
    best.map(|(_, _, r)| r)
}

/// The working state of [`nishio_hint`]'s searches, kept between
/// assumptions so that each starts from the board without allocating: the
/// node each potential was reached by (on and off), the slots touched, the
/// nodes with their parents and the candidates with the "off" removals.
struct NishioSearch<'b> {
    board: &'b Board,
    on_at: Vec<u32>,
    off_at: Vec<u32>,
    touched: Vec<usize>,
    nodes: Vec<DynNode>,
    cands: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
}

impl<'b> NishioSearch<'b> {
    fn new(board: &'b Board) -> NishioSearch<'b> {
        let geo = board.geometry();
        let slots = geo.cells * (geo.side + 1);
        NishioSearch {
            board,
            on_at: vec![ROOT; slots],
            off_at: vec![ROOT; slots],
            touched: Vec::new(),
            nodes: Vec::new(),
            cands: board.all_cands().to_vec(),
            seen: Vec::new(),
            stamp: 0,
        }
    }

    fn slot(&self, c: usize, d: u8) -> usize {
        c * (self.board.geometry().side + 1) + d as usize
    }

    /// Follows the X links from `d` at `cell` assumed on (or off), the "on"
    /// potentials first; the two nodes of a potential reached both on and
    /// off (on, off), or `None` when the search ends without one.
    fn refute(&mut self, cell: usize, d: u8, assume_on: bool) -> Option<(u32, u32)> {
        let board = self.board;
        let geo = board.geometry();
        for &s in &self.touched {
            self.on_at[s] = ROOT;
            self.off_at[s] = ROOT;
        }
        self.touched.clear();
        self.nodes.clear();
        self.cands.copy_from_slice(board.all_cands());
        self.nodes.push(DynNode {
            parents: Vec::new(),
            potential: (cell, d, assume_on),
        });
        let s0 = self.slot(cell, d);
        self.touched.push(s0);
        let mut pending_on: VecDeque<(usize, u8, u32)> = VecDeque::new();
        let mut pending_off: VecDeque<(usize, u8, u32)> = VecDeque::new();
        if assume_on {
            self.on_at[s0] = 0;
            pending_on.push_back((cell, d, 0));
        } else {
            self.off_at[s0] = 0;
            pending_off.push_back((cell, d, 0));
        }
        let mut made: Vec<(usize, u8, Vec<u32>)> = Vec::new();
        while !pending_on.is_empty() || !pending_off.is_empty() {
            if let Some((c, x, n)) = pending_on.pop_front() {
                // On: every other place of x in the cell's units is off.
                made.clear();
                for k in UNIT_ORDER {
                    let u = geo.cell_units[c][k];
                    for &o in &geo.units[u] {
                        if o != c && self.cands[o] & (1 << x) != 0 && !made.iter().any(|m| m.0 == o)
                        {
                            made.push((o, x, vec![n]));
                        }
                    }
                }
                for (o, x, parents) in made.drain(..) {
                    let s = self.slot(o, x);
                    let potential = (o, x, false);
                    if self.on_at[s] != ROOT {
                        self.nodes.push(DynNode { parents, potential });
                        return Some((self.on_at[s], (self.nodes.len() - 1) as u32));
                    }
                    if self.off_at[s] == ROOT {
                        self.nodes.push(DynNode { parents, potential });
                        self.off_at[s] = (self.nodes.len() - 1) as u32;
                        self.touched.push(s);
                        pending_off.push_back((o, x, self.off_at[s]));
                    }
                }
            } else if let Some((c, x, n)) = pending_off.pop_front() {
                // Off: a unit left with two places of x puts it on the other.
                made.clear();
                for k in UNIT_ORDER {
                    let u = geo.cell_units[c][k];
                    let mut here = 0u32;
                    for (i, &o) in geo.units[u].iter().enumerate() {
                        if self.cands[o] & (1 << x) != 0 {
                            here |= 1 << i;
                        }
                    }
                    if here.count_ones() != 2 {
                        continue;
                    }
                    let pos = geo.unit_positions[c][k];
                    let other = geo.units[u][(here & !(1 << pos)).trailing_zeros() as usize];
                    if made.iter().any(|m| m.0 == other) {
                        continue;
                    }
                    let mut parents = vec![n];
                    for &o in &geo.units[u] {
                        if board.cands(o) & (1 << x) != 0 && self.cands[o] & (1 << x) == 0 {
                            let q = self.off_at[self.slot(o, x)];
                            if q != ROOT {
                                parents.push(q);
                            }
                        }
                    }
                    made.push((other, x, parents));
                }
                self.cands[c] &= !(1 << x);
                for (o, x, parents) in made.drain(..) {
                    let s = self.slot(o, x);
                    let potential = (o, x, true);
                    if self.off_at[s] != ROOT {
                        self.nodes.push(DynNode { parents, potential });
                        return Some(((self.nodes.len() - 1) as u32, self.off_at[s]));
                    }
                    if self.on_at[s] == ROOT {
                        self.nodes.push(DynNode { parents, potential });
                        self.on_at[s] = (self.nodes.len() - 1) as u32;
                        self.touched.push(s);
                        pending_on.push_back((o, x, self.on_at[s]));
                    }
                }
            }
        }
        None
    }

    /// How many nodes `root`'s ancestry holds, `root` included.
    fn ancestry(&mut self, root: u32) -> usize {
        self.stamp += 1;
        if self.seen.len() < self.nodes.len() {
            self.seen.resize(self.nodes.len(), 0);
        }
        let mut stack = vec![root];
        let mut k = 0;
        while let Some(n) = stack.pop() {
            if self.seen[n as usize] == self.stamp {
                continue;
            }
            self.seen[n as usize] = self.stamp;
            k += 1;
            stack.extend_from_slice(&self.nodes[n as usize].parents);
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The searches the link graph shows can find nothing are left out
    /// ([`Search::reachable`]), and nothing is lost: on the boards SE's
    /// nesting levels run this producer on (the boards where nothing below
    /// level 3 applies of Easter Monster and Golden Nugget, and their
    /// dynamic branches' boards), every hint, in its order and with its
    /// trace, is the same with the filter and without. Most searches are
    /// left out, and hints of every kind are found.
    #[test]
    fn the_reach_filter_keeps_every_hint() {
        use crate::se::chains::{Assume, Branch, DYNAMIC};
        use crate::se::producers::{DEEP_PUZZLES, deep_board};
        use crate::se::work::{Search as BranchSearch, Work};
        let budget = Work::unlimited();
        let work = BranchSearch::new(&budget);
        let mut boards = Vec::new();
        for line in DEEP_PUZZLES {
            let board = deep_board(line);
            for cell in (0..81).filter(|&c| board.value(c) == 0) {
                for d in digits(board.cands(cell)) {
                    for assume in [Assume::On(cell, d), Assume::Off(cell, d)] {
                        let b = Branch::run(&board, assume, DYNAMIC, false, &work);
                        if b.contradiction.is_none() && !b.board.is_solved() {
                            boards.push(b.board.clone());
                        }
                        work.recycle([b]);
                    }
                }
            }
            boards.push(board);
        }
        let (mut searches, mut made) = (0, 0);
        // Hints: cycles, forcing chains placing, removing.
        let mut kinds = [0; 3];
        for board in &boards {
            let filtered = hints_searched(board, true, true);
            assert_eq!(filtered, hints_searched(board, true, false), "{board:?}");
            for (h, _) in &filtered {
                kinds[match h.conclusion {
                    _ if h.cycle => 0,
                    Conclusion::Place(..) => 1,
                    _ => 2,
                }] += 1;
            }
            let mut search = Search::new(board);
            let cands: u32 = (0..81)
                .filter(|&c| board.value(c) == 0)
                .map(|c| board.cands(c).count_ones())
                .sum();
            for links in PASSES {
                search.reachable(links);
                searches += 3 * cands as usize;
                made += search.may.iter().map(|m| m.count_ones()).sum::<u32>() as usize;
            }
        }
        assert!(boards.len() > 300, "{}", boards.len());
        assert!(kinds.iter().all(|&k| k > 20), "{kinds:?}");
        assert!(made * 10 < searches, "{made} of {searches}");
    }

    #[test]
    fn se_difficulties_of_the_first_producer() {
        // SE 1.2.1.3: X- and Y-cycles 6.5, forcing X-chains 6.6, XY-cycles
        // and forcing chains 7.0, plus 0.1 per threshold of length =
        // complexity − 2 passed (4, 6, 8, 12, 16, 24, 32).
        let t = |base, n| (se_difficulty(base, n) * 10.0).round() as u32;
        assert_eq!(t(6.5, 4), 65);
        assert_eq!(t(6.5, 6), 65);
        assert_eq!(t(6.5, 7), 66);
        assert_eq!(t(6.5, 8), 66);
        assert_eq!(t(6.5, 10), 67);
        assert_eq!(t(6.6, 6), 66);
        assert_eq!(t(6.6, 9), 68);
        assert_eq!(t(6.6, 14), 69);
        assert_eq!(t(6.6, 15), 70);
        assert_eq!(t(7.0, 6), 70);
        assert_eq!(t(7.0, 11), 73);
        assert_eq!(t(7.0, 18), 74);
        assert_eq!(t(7.0, 19), 75);
        assert_eq!(t(7.0, 27), 76);
        // SE sums 0.1s in floating point: a 6.5 cycle one step long ties
        // with a 6.6 chain, and the shorter of the two comes first.
        assert_eq!(se_difficulty(6.5, 7), se_difficulty(6.6, 6));
    }

    #[test]
    fn eliminations_round_trip() {
        let mut e = Eliminations::new(9);
        assert!(e.is_empty());
        e.insert(80, 9);
        e.insert(0, 1);
        e.insert(40, 5);
        assert_eq!(e.iter().collect::<Vec<_>>(), vec![(0, 1), (40, 5), (80, 9)]);
    }
}
