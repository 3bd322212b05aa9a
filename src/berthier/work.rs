//! The work budget: a count of chain-search nodes, passed by value into each
//! rating and spent through `&mut`, never a thread-local; past it a rating
//! reports [`BudgetExceeded`] with the level it had reached.

use serde::Serialize;

/// Chain-search nodes a rating may visit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// The most nodes (whip or braid search steps) one rating may visit.
    pub nodes: u64,
}

impl Budget {
    /// No limit.
    pub const UNLIMITED: Budget = Budget { nodes: u64::MAX };
    /// The default's nodes: 200 million, about a minute on one core, far
    /// beyond what any puzzle of the published lists needs.
    pub const DEFAULT_NODES: u64 = 200_000_000;
}

impl Default for Budget {
    /// [`Budget::DEFAULT_NODES`].
    fn default() -> Budget {
        Budget {
            nodes: Budget::DEFAULT_NODES,
        }
    }
}

/// The budget was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BudgetExceeded;

/// The budget being spent.
#[derive(Debug, Clone)]
pub(crate) struct Work {
    left: u64,
    /// Nodes visited so far.
    pub(crate) spent: u64,
    /// The length of the rule being tried at the top level.
    pub(crate) level: usize,
}

impl Work {
    /// A fresh count under `budget`.
    pub(crate) fn new(budget: Budget) -> Work {
        Work {
            left: budget.nodes,
            spent: 0,
            level: 0,
        }
    }
    /// One node.
    #[inline]
    pub(crate) fn tick(&mut self) -> Result<(), BudgetExceeded> {
        if self.left == 0 {
            return Err(BudgetExceeded);
        }
        self.left -= 1;
        self.spent += 1;
        Ok(())
    }
}
