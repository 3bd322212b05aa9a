//! The work a rating may do and what a producer call carries down its
//! branches (`docs/methods.md` §3.11): SE's nesting levels 3–5 count branch
//! propagations against a [`WorkBudget`], past which a producer stops with
//! [`OverBudget`]; a [`Search`] holds the puzzle's [`Work`] counter and the
//! nested searches of level 2 a call may still start.

use super::chain::NestedConclusion;
use super::chains::Branch;
use super::rounds::Rounds;
use crate::human::board::Board;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// At most this many nested searches per producer call (SE's nesting has no
/// cap; ours keeps one step within seconds).
pub(crate) const NESTED_BUDGET: usize = 400;

/// How much work the nesting levels 3–5 may do for one puzzle: branch
/// propagations of their nested searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WorkBudget(pub u64);

impl WorkBudget {
    /// No work: levels 3–5 are not tried, and a puzzle that needs them
    /// "needs search".
    pub(crate) const OFF: WorkBudget = WorkBudget(0);

    /// The default of `rate`, `score` and `analyze`: 20 million units,
    /// enough for every famous hardest puzzle embedded in `examples/`;
    /// `docs/methods.md` §3.11 gives what eleven's list needs and what a
    /// unit costs. Most puzzles never reach level 3 and use none.
    pub(crate) const DEFAULT: WorkBudget = WorkBudget(20_000_000);
}

impl Default for WorkBudget {
    fn default() -> WorkBudget {
        WorkBudget::DEFAULT
    }
}

/// A board's values and candidates, cell by cell: the memo's key.
pub(super) type BoardKey = Vec<(u8, u32)>;

/// The nesting levels ran past their [`WorkBudget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OverBudget;

/// The work counter of one puzzle, shared by the threads of a producer.
pub(crate) struct Work {
    limit: u64,
    used: AtomicU64,
    /// The nested dynamic searches done, by board: level 5 repeats level
    /// 4's branches before it nests deeper.
    pub(super) dynamic_seen: Mutex<HashMap<BoardKey, Arc<Vec<NestedConclusion>>>>,
    /// The same for SE's first chaining producer nested in a branch (levels
    /// 2 and 3): its hints depend on the board alone.
    pub(super) first_seen: Mutex<HashMap<BoardKey, Arc<Vec<NestedConclusion>>>>,
    /// The same for SE's static multiple forcing chains nested in a branch
    /// (level 3).
    pub(super) multiple_seen: Mutex<HashMap<BoardKey, Arc<Vec<NestedConclusion>>>>,
    /// Branches whose producer is done with them, for the next branches of
    /// the puzzle to reuse their storage ([`Search::recycle`]): kept for
    /// the whole rating, so that their buffers are not given back to the
    /// system and asked for again at every producer call.
    spare_branches: Mutex<Vec<Branch>>,
}

impl Work {
    /// A counter with nothing used.
    pub(crate) fn new(budget: WorkBudget) -> Work {
        Work {
            limit: budget.0,
            used: AtomicU64::new(0),
            dynamic_seen: Mutex::new(HashMap::new()),
            first_seen: Mutex::new(HashMap::new()),
            multiple_seen: Mutex::new(HashMap::new()),
            spare_branches: Mutex::new(Vec::new()),
        }
    }

    /// A counter no work runs out (the tests' producers, and a chain's
    /// links found again for `rate --explain`, called outside a rating).
    pub(crate) fn unlimited() -> Work {
        Work::new(WorkBudget(u64::MAX))
    }

    /// Counts `n` units; false once the total passes the limit, or when
    /// the call is cancelled ([`crate::cancel`]: the work then ends as if
    /// over budget, and the caller throws the outcome away).
    pub(super) fn charge(&self, n: u64) -> bool {
        if crate::cancel::cancelled() {
            return false;
        }
        let before = self.used.fetch_add(n, Ordering::Relaxed);
        before.saturating_add(n) <= self.limit
    }

    /// Whether the budget is [`WorkBudget::OFF`]: levels 3–5 are not tried.
    pub(crate) fn is_off(&self) -> bool {
        self.limit == 0
    }

    pub(crate) fn over(&self) -> bool {
        crate::cancel::cancelled() || self.used.load(Ordering::Relaxed) > self.limit
    }

    /// Units used so far.
    #[cfg(test)]
    pub(crate) fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }
}

/// What a producer call carries down into the propagation of its branches:
/// the puzzle's work counter, and how many nested searches (SE's level 2)
/// the call may still start. A producer call that nests level 2 takes a
/// fresh allowance of [`NESTED_BUDGET`] ([`Search::with_nested_budget`]);
/// its branches run one after another and spend it.
pub(crate) struct Search<'w> {
    pub(super) work: &'w Work,
    nested_left: Cell<usize>,
    /// The last start board whose unit places a branch asked for, with
    /// them and its units' placed digits: a producer starts hundreds of
    /// branches from one board.
    start_places: RefCell<Option<StartPlaces>>,
    /// The rounds' buffers of the branches that ended, for the next ones.
    spare_rounds: RefCell<Vec<Rounds>>,
    /// Whether a branch from a quiet start board reads only what it changed
    /// at its first look ([`Rounds::start`]); the tests turn it off to check
    /// that reading the whole board finds the same.
    quiet_start: bool,
}

/// At most this many spare branches kept per puzzle (a 9×9 branch holds
/// up to about 130 kB).
const SPARE_BRANCHES: usize = 1024;

/// A start board with its unit places, its units' placed digits, and
/// whether it is quiet ([`Rounds::quiet`]).
struct StartPlaces {
    board: Board,
    places: Vec<u32>,
    placed: Vec<u32>,
    quiet: bool,
}

impl<'w> Search<'w> {
    /// A search counting on `work`, with no nested search allowed.
    pub(crate) fn new(work: &'w Work) -> Search<'w> {
        Search {
            work,
            nested_left: Cell::new(0),
            start_places: RefCell::new(None),
            spare_rounds: RefCell::new(Vec::new()),
            quiet_start: true,
        }
    }

    /// A search on the same counter with [`NESTED_BUDGET`] nested searches
    /// allowed: one per producer call of level 2.
    pub(crate) fn with_nested_budget(&self) -> Search<'w> {
        Search {
            work: self.work,
            nested_left: Cell::new(NESTED_BUDGET),
            start_places: RefCell::new(None),
            spare_rounds: RefCell::new(Vec::new()),
            quiet_start: self.quiet_start,
        }
    }

    /// This search with every branch's first look reading the whole board.
    #[cfg(test)]
    pub(super) fn whole_first_looks(mut self) -> Search<'w> {
        self.quiet_start = false;
        self
    }

    /// The puzzle's work counter.
    pub(crate) fn work(&self) -> &'w Work {
        self.work
    }

    /// How many nested searches the call may still start.
    pub(super) fn nested_left(&self) -> usize {
        self.nested_left.get()
    }

    /// Spends one nested search of the allowance.
    pub(super) fn spend_nested(&self) {
        self.nested_left
            .set(self.nested_left.get().saturating_sub(1));
    }

    /// Counts `n` units; false when over budget.
    pub(super) fn charge(&self, n: u64) -> bool {
        self.work.charge(n)
    }

    /// The conclusions `compute` finds on `board`, from `memo` when it has
    /// them. The whole state is the key: a hash alone could hand one board
    /// another's conclusions.
    pub(super) fn memoised(
        &self,
        memo: &Mutex<HashMap<BoardKey, Arc<Vec<NestedConclusion>>>>,
        board: &Board,
        compute: impl FnOnce() -> Vec<NestedConclusion>,
    ) -> Arc<Vec<NestedConclusion>> {
        let key: BoardKey = (0..board.geometry().cells)
            .map(|c| (board.value(c), board.cands(c)))
            .collect();
        if let Some(found) = memo.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return found;
        }
        let found = Arc::new(compute());
        if let Ok(mut m) = memo.lock() {
            m.insert(key, Arc::clone(&found));
        }
        found
    }

    /// The rounds' buffers for a branch from `board`, started from its unit
    /// places ([`Board::unit_places`]) and placed digits, computed once for
    /// consecutive branches from the same board. Give them back with
    /// [`Search::give_back`].
    pub(super) fn rounds_from(&self, board: &Board) -> Rounds {
        let geo = board.geometry();
        let mut rounds = self
            .spare_rounds
            .borrow_mut()
            .pop()
            .filter(|r| r.fits(geo))
            .unwrap_or_else(|| Rounds::new(geo));
        let mut memo = self.start_places.borrow_mut();
        let start = match &mut *memo {
            Some(s) if s.board == *board => s,
            _ => {
                let (places, placed) = Rounds::unit_places_of(board);
                let quiet = Rounds::quiet(board, &places, &placed);
                memo.insert(StartPlaces {
                    board: board.clone(),
                    places,
                    placed,
                    quiet,
                })
            }
        };
        rounds.start(
            &start.places,
            &start.placed,
            start.quiet && self.quiet_start,
        );
        rounds
    }

    /// Keeps the buffers of an ended branch for the next.
    pub(super) fn give_back(&self, rounds: Rounds) {
        self.spare_rounds.borrow_mut().push(rounds);
    }

    /// A branch whose storage fits `board`, from the spares when one is
    /// left (its contents are stale: [`Branch::run_caused`] resets them).
    pub(super) fn spare_branch(&self, board: &Board) -> Option<Branch> {
        let Ok(mut spares) = self.work.spare_branches.lock() else {
            return None;
        };
        let fits = |b: &Branch| b.board.geometry().n == board.geometry().n;
        while let Some(b) = spares.pop() {
            if fits(&b) {
                return Some(b);
            }
        }
        None
    }

    /// Keeps the storage of branches the caller is done with, for the next
    /// branches of this search.
    pub(super) fn recycle(&self, branches: impl IntoIterator<Item = Branch>) {
        let Ok(mut spares) = self.work.spare_branches.lock() else {
            return;
        };
        for b in branches {
            if spares.len() >= SPARE_BRANCHES {
                break;
            }
            spares.push(b);
        }
    }

    /// Counts `n` branch propagations of the chain producers below level 3
    /// when `board` is larger than 9×9; false when over budget. On a 9×9
    /// board those producers take milliseconds a step and the budget is the
    /// nesting levels' alone (its default is measured so); from 16×16 on,
    /// they are the expense themselves (minutes a step), so the same budget
    /// covers every branch they propagate, each counted as
    /// [`large_board_weight`] 9×9 ones. A budget of 0 leaves them
    /// uncounted, as it leaves levels 3–5 out.
    pub(super) fn charge_large_board(&self, board: &Board, n: u64) -> bool {
        board.geometry().side <= 9
            || self.work.is_off()
            || self.work.charge(n * large_board_weight(board))
    }
}

/// How many 9×9 branch propagations one on `board` is worth: the ratio of
/// their candidates (cells × digits), 5 for 16×16 and 21 for 25×25, so a
/// budget lasts about as long on every size (on the machine of
/// `docs/performance.md`, 5 million units took 41 s of CPU on a minimal
/// 16×16 puzzle unweighted, 20 million take about 30 s on 9×9).
pub(super) fn large_board_weight(board: &Board) -> u64 {
    let geo = board.geometry();
    ((geo.cells * geo.side) / (81 * 9)).max(1) as u64
}
