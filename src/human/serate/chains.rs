//! Sukaku Explainer's rating of a forcing chain, for the chains of our
//! technique engine ([`crate::human::techniques`], `docs/methods.md` §3).
//!
//! Our forcing chain starts from a bivalue cell or a digit with two places in
//! a unit, propagates each alternative with naked and hidden singles, and
//! concludes what one branch's contradiction or both branches' agreement
//! forces. To rate it as Sukaku Explainer (SE) does, each branch is
//! propagated again here with provenance: every "on" node (a placement) and
//! "off" node (a removed candidate) records the nodes it follows from, so a
//! conclusion has an ancestry, as an SE chain has its potentials.
//!
//! SE's documented difficulty scale for chains (its hint classes:
//! `ForcingChainHint`, `CycleHint`, `Chaining`, `ChainingHint` of Sukaku
//! Explainer 1.18.1) gives a base rating by kind, plus a length increment:
//! 0.1 each time the chain length (its potentials − 2) passes 4, 6, 8, 12,
//! 16, 24, 32, 48, … (the thresholds grow by ×3/2 and ×4/3 in turn). The
//! kinds, and which of our chains stands for each:
//!
//! * **forcing X- or Y-chain, 6.6**: every placement of the ancestry follows
//!   from one removal (a bivalue cell or a two-place digit, SE's "static"
//!   links), and they and the source's own link are all hidden singles and
//!   two-place digits on one digit (X) or all naked singles and bivalue
//!   cells (Y);
//! * **forcing chain, 7.0**: static, with both kinds of link;
//! * **Nishio, 7.5**: a contradiction whose ancestry needs a placement that
//!   follows from several removals ("dynamic"), all on the assumed digit;
//! * **dynamic forcing chain, 8.5**: any other dynamic chain (contradiction,
//!   or two branches that agree).
//!
//! SE's cycles (6.5), multiple forcing chains (8.0: cells or units with
//! three or more alternatives) and its nested levels (dynamic chains whose
//! branches use other techniques, 9.0, or chains inside chains, 9.5 and up)
//! have no counterpart in the engine: its sources have two alternatives and
//! its branches use singles only, so a puzzle that needs nesting is "needs
//! search". The complexity (potentials) of a contradiction is the ancestry
//! (union) of the removals that empty the cell or unit, plus one; of an
//! agreement, the ancestries of the conclusion in both branches added (as SE
//! adds its branches' in a cell or region forcing chain).

use crate::human::board::Board;
use crate::human::techniques::{ChainSource, chain_sources};
use crate::util::bits as digits;

/// SE's kind of chain, with its base rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum ChainKind {
    /// Static chain with one kind of link (forcing X- or Y-chain), 6.6.
    XOrY,
    /// Static chain with both kinds of link, 7.0.
    Forcing,
    /// Dynamic contradiction on one digit, 7.5.
    Nishio,
    /// Any other dynamic chain, 8.5.
    Dynamic,
}

impl ChainKind {
    /// SE's base rating, in tenths.
    pub(crate) fn base_tenths(self) -> u32 {
        match self {
            ChainKind::XOrY => 66,
            ChainKind::Forcing => 70,
            ChainKind::Nishio => 75,
            ChainKind::Dynamic => 85,
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
}

impl Conclusion {
    /// Applies the conclusion to `board`.
    pub(crate) fn apply(self, board: &mut Board) {
        match self {
            Conclusion::Place(c, d) => board.place(c, d),
            Conclusion::Remove(c, d) => {
                board.eliminate(c, d);
            }
        }
    }
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
}

impl RatedChain {
    fn new(conclusion: Conclusion, kind: ChainKind, nodes: usize) -> RatedChain {
        RatedChain {
            conclusion,
            kind,
            nodes,
            tenths: kind.base_tenths() + length_increment_tenths(nodes),
        }
    }
}

const NONE: u32 = u32::MAX;

/// What the ancestry of a node holds.
#[derive(Debug, Clone)]
struct Ancestry {
    /// Nodes (bit per node index).
    set: Vec<u64>,
    /// No placement in it follows from several removals.
    stat: bool,
    /// It holds a hidden single (X link) / a naked single (Y link).
    x: bool,
    y: bool,
    /// Every placement in it is of the source digit.
    one_digit: bool,
}

impl Ancestry {
    fn count(&self) -> usize {
        self.set.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// One branch: the assumption propagated with singles, with provenance.
struct Branch {
    board: Board,
    /// Node index of the placement / removal of `(cell, digit)`, or `NONE`.
    on_at: Vec<u32>,
    off_at: Vec<u32>,
    anc: Vec<Ancestry>,
    /// The ancestry of the first contradiction, if the branch reached one.
    contradiction: Option<Ancestry>,
}

impl Branch {
    /// Propagates `cell = d` from `start`; `static_only` takes only the
    /// singles that follow from one removal (SE's static links). `source_x`
    /// tells the link between the source's two alternatives: a digit's two
    /// places in a unit (X), or a cell's two candidates (Y); every conclusion
    /// of the chain goes through it.
    fn run(start: &Board, (cell, d): (usize, u8), static_only: bool, source_x: bool) -> Branch {
        let geo = start.geometry();
        let slots = geo.cells * (geo.side + 1);
        let mut br = Branch {
            board: start.clone(),
            on_at: vec![NONE; slots],
            off_at: vec![NONE; slots],
            anc: Vec::new(),
            contradiction: None,
        };
        // Nodes: at most one per placement and per removal, plus the root.
        let words = (slots + 1).div_ceil(64);
        let root = br.new_node(words, &[], true, (source_x, !source_x), true);
        br.place(start, cell, d, root, d);
        let mut found = Vec::new();
        while br.contradiction.is_none() {
            found.clear();
            br.singles(start, &mut found);
            if static_only {
                found.retain(|f| f.2.len() == 1);
            }
            if found.is_empty() {
                break;
            }
            for &(c, x, ref parents, link_x) in &found {
                if br.board.value(c) != 0
                    || br.board.cands(c) & (1 << x) == 0
                    || (static_only && parents.len() != 1)
                {
                    continue;
                }
                let stat = parents.len() == 1;
                let pure = x == d;
                let n = br.new_node(words, parents, stat, (link_x, !link_x), pure);
                br.place(start, c, x, n, d);
            }
            br.contradiction = br.find_contradiction(start);
        }
        br
    }

    fn slot(&self, cell: usize, d: u8) -> usize {
        cell * (self.board.side() + 1) + d as usize
    }

    fn new_node(
        &mut self,
        words: usize,
        parents: &[u32],
        stat: bool,
        (x, y): (bool, bool),
        one_digit: bool,
    ) -> u32 {
        let idx = self.anc.len();
        let mut a = Ancestry {
            set: vec![0; words],
            stat,
            x,
            y,
            one_digit,
        };
        for &p in parents {
            let pa = &self.anc[p as usize];
            for (w, pw) in a.set.iter_mut().zip(&pa.set) {
                *w |= pw;
            }
            a.stat &= pa.stat;
            a.x |= pa.x;
            a.y |= pa.y;
            a.one_digit &= pa.one_digit;
        }
        if idx / 64 >= a.set.len() {
            a.set.resize(idx / 64 + 1, 0);
        }
        a.set[idx / 64] |= 1 << (idx % 64);
        self.anc.push(a);
        idx as u32
    }

    /// Places `d` in `cell` as node `on`, adding an off node for every
    /// candidate this removes.
    fn place(&mut self, start: &Board, cell: usize, d: u8, on: u32, src_digit: u8) {
        let geo = start.geometry();
        let slot = self.slot(cell, d);
        self.on_at[slot] = on;
        let words = self.anc[on as usize].set.len();
        for x in digits(self.board.cands(cell) & !(1 << d)) {
            let n = self.new_node(words, &[on], true, (false, false), x == src_digit);
            let s = self.slot(cell, x);
            self.off_at[s] = n;
        }
        for &p in &geo.peers[cell] {
            if self.board.value(p) == 0 && self.board.cands(p) & (1 << d) != 0 {
                let n = self.new_node(words, &[on], true, (false, false), d == src_digit);
                let s = self.slot(p, d);
                self.off_at[s] = n;
            }
        }
        self.board.place(cell, d);
    }

    /// The removals (off nodes) of the start candidates `mask` of `cell`.
    fn offs_of_cell(&self, start: &Board, cell: usize, mask: u32) -> Vec<u32> {
        digits(start.cands(cell) & mask)
            .map(|x| self.off_at[self.slot(cell, x)])
            .filter(|&n| n != NONE)
            .collect()
    }

    /// The removals of `d` from the cells of `unit` other than `except`.
    fn offs_in_unit(&self, start: &Board, unit: usize, d: u8, except: usize) -> Vec<u32> {
        start.geometry().units[unit]
            .iter()
            .filter(|&&c| c != except && start.cands(c) & (1 << d) != 0)
            .map(|&c| self.off_at[self.slot(c, d)])
            .filter(|&n| n != NONE)
            .collect()
    }

    /// Every single of the current board with the removals it follows from
    /// (the fewer of naked and hidden when a cell is both), and whether it
    /// is a hidden single (X link).
    fn singles(&self, start: &Board, out: &mut Vec<(usize, u8, Vec<u32>, bool)>) {
        let geo = start.geometry();
        let b = &self.board;
        let mut best: Vec<Option<(u8, Vec<u32>, bool)>> = vec![None; geo.cells];
        for (cell, slot) in best.iter_mut().enumerate() {
            let c = b.cands(cell);
            if b.value(cell) == 0 && c.count_ones() == 1 {
                let x = c.trailing_zeros() as u8;
                *slot = Some((x, self.offs_of_cell(start, cell, !c), false));
            }
        }
        for u in 0..geo.units.len() {
            for d in digits(geo.all_digits() & !b.placed_in_unit(u)) {
                let p = b.places(u, d);
                if p.count_ones() != 1 {
                    continue;
                }
                let cell = geo.units[u][p.trailing_zeros() as usize];
                let parents = self.offs_in_unit(start, u, d, cell);
                let better = match &best[cell] {
                    None => true,
                    Some((x, q, _)) => *x == d && parents.len() < q.len(),
                };
                if better {
                    best[cell] = Some((d, parents, true));
                }
            }
        }
        for (cell, s) in best.into_iter().enumerate() {
            if let Some((d, parents, x)) = s {
                out.push((cell, d, parents, x));
            }
        }
    }

    /// The ancestry of the contradiction with the fewest nodes on the
    /// current board (a cell without candidate, a digit without place).
    fn find_contradiction(&self, start: &Board) -> Option<Ancestry> {
        let geo = start.geometry();
        let b = &self.board;
        let mut best: Option<Ancestry> = None;
        let mut consider = |parents: Vec<u32>| {
            let a = self.joined(&parents);
            if best.as_ref().is_none_or(|x| x.count() > a.count()) {
                best = Some(a);
            }
        };
        for cell in 0..geo.cells {
            if b.value(cell) == 0 && b.cands(cell) == 0 {
                consider(self.offs_of_cell(start, cell, u32::MAX));
            }
        }
        for u in 0..geo.units.len() {
            for d in digits(geo.all_digits() & !b.placed_in_unit(u)) {
                if b.places(u, d) == 0 {
                    consider(self.offs_in_unit(start, u, d, usize::MAX));
                }
            }
        }
        best
    }

    /// The ancestry of a conclusion drawn from `parents`: their union.
    fn joined(&self, parents: &[u32]) -> Ancestry {
        let mut a = Ancestry {
            set: vec![0; self.anc.first().map_or(1, |r| r.set.len())],
            stat: true,
            x: false,
            y: false,
            one_digit: true,
        };
        for &p in parents {
            let pa = &self.anc[p as usize];
            for (w, pw) in a.set.iter_mut().zip(&pa.set) {
                *w |= pw;
            }
            a.stat &= pa.stat;
            a.x |= pa.x;
            a.y |= pa.y;
            a.one_digit &= pa.one_digit;
        }
        a
    }

    /// The complexity of a contradiction whose ancestry is `a`: its nodes
    /// plus the contradiction itself.
    fn summed(&self, a: &Ancestry) -> usize {
        a.count() + 1
    }
}

/// The kind of a chain whose ancestry is `a` (a contradiction when
/// `contradiction`).
fn kind_of(a: &Ancestry, contradiction: bool) -> ChainKind {
    if a.stat {
        // SE's X-chains keep to one digit (no link inside a cell); its
        // Y-chains reach placements through bivalue cells only.
        if (a.y && !a.x) || (a.x && !a.y && a.one_digit) {
            ChainKind::XOrY
        } else {
            ChainKind::Forcing
        }
    } else if contradiction && a.one_digit {
        ChainKind::Nishio
    } else {
        ChainKind::Dynamic
    }
}

fn union(a: &Ancestry, b: &Ancestry) -> Ancestry {
    Ancestry {
        set: Vec::new(),
        stat: a.stat && b.stat,
        x: a.x || b.x,
        y: a.y || b.y,
        one_digit: a.one_digit && b.one_digit,
    }
}

/// Every conclusion the forcing chains of `board` reach, each rated as SE
/// rates its chain, in the engine's source order.
pub(crate) fn rated_chains(board: &Board) -> Vec<RatedChain> {
    let mut out = Vec::new();
    for src in chain_sources(board) {
        let [first, second] = src.alternatives();
        for static_only in [true, false] {
            let source_x = matches!(src, ChainSource::Unit { .. });
            let b1 = Branch::run(board, first, static_only, source_x);
            let b2 = Branch::run(board, second, static_only, source_x);
            conclusions(board, src, (&b1, &b2), &mut out);
        }
    }
    out
}

/// Puts the rated conclusions of the branches of `src` into `out`.
fn conclusions(
    board: &Board,
    src: ChainSource,
    (b1, b2): (&Branch, &Branch),
    out: &mut Vec<RatedChain>,
) {
    let geo = board.geometry();
    let [first, second] = src.alternatives();
    match (&b1.contradiction, &b2.contradiction) {
        (Some(_), Some(_)) => {}
        (Some(a), None) => {
            let k = kind_of(a, true);
            out.push(RatedChain::new(
                Conclusion::Place(second.0, second.1),
                k,
                b1.summed(a),
            ));
        }
        (None, Some(a)) => {
            let k = kind_of(a, true);
            out.push(RatedChain::new(
                Conclusion::Place(first.0, first.1),
                k,
                b2.summed(a),
            ));
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
                        let (a1, a2) = (&b1.anc[n1 as usize], &b2.anc[n2 as usize]);
                        let k = kind_of(&union(a1, a2), false);
                        out.push(RatedChain::new(conclusion, k, a1.count() + a2.count()));
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

/// The lowest-rated conclusion of [`rated_chains`] (the first of equals).
pub(crate) fn easiest_chain(board: &Board) -> Option<RatedChain> {
    rated_chains(board)
        .into_iter()
        .reduce(|best, c| if c.tenths < best.tenths { c } else { best })
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
