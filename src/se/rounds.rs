//! The rounds of singles of a forcing-chain branch (`docs/methods.md`
//! §3.11, the propagation of [`super::chains::Branch`]): the places of
//! every digit in every unit of the branch's board, the digits placed in
//! each unit, and which cells and which (unit, digit) places changed since
//! the last look for singles and for contradictions.
//!
//! A round of singles reads only what changed since the previous round:
//! a single or a contradiction that was there at the previous look was
//! found then, so one that is new lies in a changed cell or a changed
//! (unit, digit). The first look of a branch, and every look after a step
//! that is not singles (SE's basic techniques, a nested chain), reads the
//! whole board. The buffers are taken from and given back to the
//! [`super::work::Search`] that propagates the branch, so a producer makes
//! them once, not once per branch.

use crate::grid::Geometry;
use crate::human::board::Board;

/// Sets bit `i` of `words`.
pub(super) fn set_bit(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

/// A bit per cell and a bit per (unit, digit): what changed since a look.
/// The (unit, digit) bits are `unit << shift | digit`, a power-of-two
/// stride, so that reading them back is shifts, not divisions.
#[derive(Debug, Clone)]
pub(super) struct Changed {
    cells: Vec<u64>,
    places: Vec<u64>,
    shift: u32,
}

impl Changed {
    /// Nothing changed on boards of `geo`.
    fn none(geo: &Geometry) -> Changed {
        let shift = (geo.side + 1).next_power_of_two().trailing_zeros();
        Changed {
            cells: vec![0; geo.cells.div_ceil(64)],
            places: vec![0; (geo.units.len() << shift).div_ceil(64)],
            shift,
        }
    }

    /// Every cell and every (unit, digit) of `geo` changed.
    fn every(geo: &Geometry) -> Changed {
        let mut all = Changed::none(geo);
        for c in 0..geo.cells {
            set_bit(&mut all.cells, c);
        }
        for u in 0..geo.units.len() {
            for d in 1..=geo.side {
                set_bit(&mut all.places, u << all.shift | d);
            }
        }
        all
    }

    /// Nothing changed.
    fn clear(&mut self) {
        self.cells.fill(0);
        self.places.fill(0);
    }

    /// Everything `all` holds changed: the next look reads the whole board.
    fn all(&mut self, all: &Changed) {
        self.cells.copy_from_slice(&all.cells);
        self.places.copy_from_slice(&all.places);
    }

    /// `d` left the candidates of `cell` (and so its places in the cell's
    /// units).
    fn removed(&mut self, geo: &Geometry, cell: usize, d: u8) {
        set_bit(&mut self.cells, cell);
        for &u in &geo.cell_units[cell] {
            set_bit(&mut self.places, u << self.shift | d as usize);
        }
    }

    /// The changed cells in increasing order, forgotten as they are read.
    pub(super) fn take_cells(&mut self, mut each: impl FnMut(usize)) {
        for w in 0..self.cells.len() {
            let mut bits = std::mem::take(&mut self.cells[w]);
            while bits != 0 {
                each(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// The changed (unit, digit) places in increasing order (unit, then
    /// digit), forgotten as they are read.
    pub(super) fn take_places(&mut self, mut each: impl FnMut(usize, u8)) {
        let mask = (1 << self.shift) - 1;
        for w in 0..self.places.len() {
            let mut bits = std::mem::take(&mut self.places[w]);
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                each(i >> self.shift, (i & mask) as u8);
                bits &= bits - 1;
            }
        }
    }
}

/// A branch's rounds of singles: the places of every digit in every unit of
/// its board (computed in full after a step that is not singles, kept up to
/// date placement by placement otherwise), the digits placed in each unit,
/// what changed since the last look for singles and for contradictions, the
/// singles found (cell, digit, their removals as a span of `parents`, the
/// unit of a hidden single) and, per cell, the best single (digit, number
/// of removals, unit) with the cells that have one.
pub(super) struct Rounds {
    pub(super) places: Vec<u32>,
    /// How many places each digit has lost in each unit since the start.
    /// Every one is a removal node of the branch (an assumption off, a
    /// placement's other candidates and peers, a nested rule's removal),
    /// but for the places a placement of the digit itself takes, which are
    /// never looked at (the digit is placed in the unit): the number of
    /// removal nodes a hidden single rests on.
    pub(super) lost: Vec<u8>,
    pub(super) placed: Vec<u32>,
    pub(super) for_singles: Changed,
    pub(super) for_contradictions: Changed,
    /// Every cell and (unit, digit) of the board: a whole look.
    every: Changed,
    pub(super) found: Vec<(usize, u8, std::ops::Range<usize>, Option<usize>)>,
    pub(super) parents: Vec<u32>,
    pub(super) best: Vec<Option<(u8, usize, Option<usize>)>>,
    pub(super) with_best: Vec<u64>,
}

impl Rounds {
    pub(super) fn new(geo: &Geometry) -> Rounds {
        Rounds {
            places: vec![0; geo.units.len() * (geo.side + 1)],
            lost: vec![0; geo.units.len() * (geo.side + 1)],
            placed: vec![0; geo.units.len()],
            for_singles: Changed::none(geo),
            for_contradictions: Changed::none(geo),
            every: Changed::every(geo),
            found: Vec::new(),
            parents: Vec::new(),
            best: vec![None; geo.cells],
            with_best: vec![0; geo.cells.div_ceil(64)],
        }
    }

    /// True when these buffers fit boards of `geo`.
    pub(super) fn fits(&self, geo: &Geometry) -> bool {
        self.places.len() == geo.units.len() * (geo.side + 1) && self.best.len() == geo.cells
    }

    /// Starts from `places` and `placed` (a board's, [`Board::unit_places`]
    /// and [`Board::placed_in_unit`]). On a `quiet` board ([`Rounds::quiet`])
    /// the first look reads only what the branch changed, since a single or
    /// a contradiction can only appear where something changed; else it
    /// reads the whole board.
    pub(super) fn start(&mut self, places: &[u32], placed: &[u32], quiet: bool) {
        self.places.copy_from_slice(places);
        self.lost.fill(0);
        self.placed.copy_from_slice(placed);
        if quiet {
            self.for_singles.clear();
            self.for_contradictions.clear();
        } else {
            self.for_singles.all(&self.every);
            self.for_contradictions.all(&self.every);
        }
        self.found.clear();
        self.parents.clear();
    }

    /// The unit places of `board` ([`Board::unit_places`], unit by unit)
    /// and its units' placed digits, as [`Rounds::start`] takes them.
    pub(super) fn unit_places_of(board: &Board) -> (Vec<u32>, Vec<u32>) {
        let geo = board.geometry();
        let stride = geo.side + 1;
        let mut places = vec![0; geo.units.len() * stride];
        for (u, chunk) in places.chunks_mut(stride).enumerate() {
            board.unit_places(u, chunk);
        }
        let placed = (0..geo.units.len())
            .map(|u| board.placed_in_unit(u))
            .collect();
        (places, placed)
    }

    /// Whether `board` (with its unit places `places` and units' placed
    /// digits `placed`, as [`Rounds::start`] takes them) has neither a
    /// single nor a contradiction: every empty cell has two or more
    /// candidates, and every digit not placed in a unit two or more places
    /// there. Producers start their branches from such boards (singles
    /// come before chains), so a branch's first look needs no whole read.
    pub(super) fn quiet(board: &Board, places: &[u32], placed: &[u32]) -> bool {
        let geo = board.geometry();
        let stride = geo.side + 1;
        let cells_ok =
            (0..geo.cells).all(|c| board.value(c) != 0 || board.cands(c).count_ones() >= 2);
        cells_ok
            && placed.iter().enumerate().all(|(u, &done)| {
                (1..=geo.side)
                    .all(|d| done & (1 << d) != 0 || places[u * stride + d].count_ones() >= 2)
            })
    }

    /// Keeps the unit places up to date for `board.place(cell, d)`, called
    /// before it: the cell loses every candidate, its peers lose `d`.
    pub(super) fn placing(&mut self, board: &Board, cell: usize, d: u8) {
        let geo = board.geometry();
        for x in crate::util::bits(board.cands(cell)) {
            self.remove(geo, cell, x);
        }
        for &p in &geo.peers[cell] {
            if board.value(p) == 0 && board.cands(p) & (1 << d) != 0 {
                self.remove(geo, p, d);
            }
        }
        for &u in &geo.cell_units[cell] {
            self.placed[u] |= 1 << d;
        }
    }

    /// `d` leaves the places of `cell` in its three units.
    pub(super) fn remove(&mut self, geo: &Geometry, cell: usize, d: u8) {
        let stride = geo.side + 1;
        for (&u, &pos) in geo.cell_units[cell].iter().zip(&geo.unit_positions[cell]) {
            let at = u * stride + d as usize;
            self.lost[at] += u8::from(self.places[at] & 1 << pos != 0);
            self.places[at] &= !(1 << pos);
        }
        self.for_singles.removed(geo, cell, d);
        self.for_contradictions.removed(geo, cell, d);
    }

    /// The unit places of `board`, after a step that is not singles: the
    /// next looks read the whole board.
    pub(super) fn refresh(&mut self, board: &Board) {
        let geo = board.geometry();
        let stride = geo.side + 1;
        let mut now = vec![0; stride];
        for (u, places) in self.places.chunks_mut(stride).enumerate() {
            board.unit_places(u, &mut now);
            for ((was, lost), &now) in places
                .iter_mut()
                .zip(&mut self.lost[u * stride..])
                .zip(&now)
            {
                *lost += (*was & !now).count_ones() as u8;
                *was = now;
            }
            self.placed[u] = board.placed_in_unit(u);
        }
        self.for_singles.all(&self.every);
        self.for_contradictions.all(&self.every);
    }

    /// Keeps the singles found that follow from one removal (a static
    /// branch's); the cells of the others are looked at whole again next
    /// round, as they stay singles: a cell's single is the first of its
    /// singles (naked, then hidden unit by unit), the dropped one included.
    pub(super) fn keep_static(&mut self, board: &Board) {
        let geo = board.geometry();
        for &(cell, _, ref span, _) in &self.found {
            if span.len() != 1 {
                for x in crate::util::bits(board.cands(cell)) {
                    self.for_singles.removed(geo, cell, x);
                }
            }
        }
        self.found.retain(|f| f.2.len() == 1);
    }

    /// The cells with a best single in increasing order, each forgotten as
    /// it is read.
    pub(super) fn take_best(
        &mut self,
        mut each: impl FnMut(&mut Rounds, usize, (u8, Option<usize>)),
    ) {
        for w in 0..self.with_best.len() {
            let mut bits = std::mem::take(&mut self.with_best[w]);
            while bits != 0 {
                let cell = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some((d, _, unit)) = self.best[cell].take() {
                    each(self, cell, (d, unit));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;
    use crate::se::chains::{Assume, Branch, DYNAMIC, STATIC};
    use crate::se::producers::{DEEP_PUZZLES, deep_board};
    use crate::se::work::{Search, Work};

    fn quiet_board(board: &Board) -> bool {
        let (places, placed) = Rounds::unit_places_of(board);
        Rounds::quiet(board, &places, &placed)
    }

    #[test]
    fn a_board_with_a_single_or_a_contradiction_is_not_quiet() {
        // Easter Monster: no single at the start, so quiet; placing a digit
        // of its solution leaves singles.
        let em =
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";
        let mut board = Board::new(&parse_puzzle(em).unwrap());
        assert!(quiet_board(&board));
        // Leaving r1c2 one candidate is a naked single.
        let mut naked = board.clone();
        let keep = naked.cands(1).trailing_zeros();
        for d in crate::util::bits(naked.cands(1) & !(1 << keep)) {
            naked.eliminate(1, d);
        }
        assert!(!quiet_board(&naked));
        // Removing every place of a digit in a row but one is a hidden single.
        let row = 0;
        let geo = board.geometry();
        let d = (1..=9u8)
            .find(|&d| board.placed_in_unit(row) & (1 << d) == 0)
            .unwrap();
        let cells: Vec<usize> = geo.units[row]
            .iter()
            .copied()
            .filter(|&c| board.cands(c) & (1 << d) != 0)
            .collect();
        for &c in &cells[1..] {
            board.eliminate(c, d);
        }
        assert!(!quiet_board(&board));
        // Removing the last one too is a contradiction.
        board.eliminate(cells[0], d);
        assert!(!quiet_board(&board));
    }

    /// From the deep boards of Easter Monster and Golden Nugget (and each
    /// with a naked single made, which is not quiet), every
    /// candidate assumed on and off, static and dynamic: a branch whose first
    /// look reads only what it changed reaches the same nodes, board and
    /// contradiction as one whose first look reads the whole board (and
    /// a branch on a recycled one's storage as one on fresh storage).
    #[test]
    fn a_quiet_start_finds_what_a_whole_first_look_finds() {
        let work = Work::unlimited();
        let (quiet, whole) = (Search::new(&work), Search::new(&work).whole_first_looks());
        let mut compared = 0;
        let boards = DEEP_PUZZLES.iter().flat_map(|line| {
            let board = deep_board(line);
            assert!(!board.is_solved(), "{line}");
            assert!(quiet_board(&board), "{line}");
            // And one that is not quiet: its first empty cell left one
            // candidate.
            let mut single = board.clone();
            let cell = (0..81).find(|&c| single.value(c) == 0).unwrap();
            let keep = single.cands(cell).trailing_zeros();
            for d in crate::util::bits(single.cands(cell) & !(1 << keep)) {
                single.eliminate(cell, d);
            }
            assert!(!quiet_board(&single), "{line}");
            [board, single]
        });
        for board in boards {
            for cell in (0..81).filter(|&c| board.value(c) == 0) {
                for d in crate::util::bits(board.cands(cell)) {
                    for assume in [Assume::On(cell, d), Assume::Off(cell, d)] {
                        for mode in [STATIC, DYNAMIC] {
                            let a = Branch::run(&board, assume, mode, false, &quiet);
                            let b = Branch::run(&board, assume, mode, false, &whole);
                            assert_eq!(a.board, b.board, "{board:?} {assume:?}");
                            assert_eq!((&a.on_at, &a.off_at), (&b.on_at, &b.off_at));
                            assert_eq!(a.node_count(), b.node_count());
                            assert_eq!(
                                a.contradiction.as_ref().map(|x| x.count()),
                                b.contradiction.as_ref().map(|x| x.count())
                            );
                            compared += 1;
                            // Reused storage against fresh.
                            quiet.recycle([a]);
                        }
                    }
                }
            }
        }
        assert!(compared > 1500, "{compared}");
    }
}
