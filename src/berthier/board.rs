//! A resolution state and BRT, Berthier's basic resolution theory:
//! elementary constraint propagation (a decided value deletes every
//! candidate linked to it, `CSP-Rules-Generic/GENERAL/ECP.clp`) and singles
//! (a CSP variable with one candidate left gets it: a naked single on a
//! cell, a hidden single on a row, column or box, `Single.clp`), until
//! nothing changes. A contradiction is a CSP variable with neither a value
//! nor a candidate.

use super::cands::{ALL81, Cand, Cands, Var, tables};
use super::path::{Path, Step};

/// A CSP variable with neither a value nor a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Contradiction(pub Var);

/// The candidates still open and the values decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Board {
    /// Open candidates (never a decided one).
    pub(crate) cand: Cands,
    /// Decided candidates.
    pub(crate) values: Cands,
}

impl Board {
    /// The board of a puzzle given as 81 values (`0` open): every candidate,
    /// then the givens asserted (no propagation yet).
    pub(crate) fn from_values(cells: &[u8]) -> Result<Board, Contradiction> {
        let mut b = Board {
            cand: Cands::FULL,
            values: Cands::EMPTY,
        };
        for (cell, &v) in cells.iter().enumerate().take(81) {
            if v != 0 {
                let c = Cand::new(v as usize - 1, cell);
                if !b.cand.contains(c) {
                    return Err(Contradiction(c.vars()[0]));
                }
                b.assert(c);
            }
        }
        Ok(b)
    }

    /// Decides `c` and deletes every candidate linked to it (ECP).
    #[inline]
    pub(crate) fn assert(&mut self, c: Cand) {
        self.values.insert(c);
        self.cand.remove(c);
        self.cand = self.cand.minus(&Cands::links_of(c));
    }

    /// Deletes candidate `c`.
    #[inline]
    pub(crate) fn eliminate(&mut self, c: Cand) {
        self.cand.remove(c);
    }

    /// Whether every cell has a value.
    pub(crate) fn solved(&self) -> bool {
        self.values.len() == 81
    }

    /// Cells with a value.
    fn decided_cells(&self) -> u128 {
        self.values.0.iter().fold(0, |a, &p| a | p)
    }

    /// BRT to its fixpoint, writing each single to `path` when given.
    pub(crate) fn brt(&mut self, mut path: Option<&mut Path>) -> Result<(), Contradiction> {
        let t = tables();
        loop {
            let mut changed = false;
            // naked singles and empty cells
            let open = ALL81 & !self.decided_cells();
            let (mut ones, mut twos) = (0u128, 0u128);
            for &p in &self.cand.0 {
                twos |= ones & p;
                ones |= p;
            }
            let empty = open & !ones;
            if empty != 0 {
                let cell = empty.trailing_zeros() as usize;
                return Err(Contradiction(Cand::new(0, cell).vars()[0]));
            }
            let mut single = open & ones & !twos;
            while single != 0 {
                let cell = single.trailing_zeros() as usize;
                single &= single - 1;
                let Some(d) = (0..9).find(|&d| self.cand.0[d] >> cell & 1 == 1) else {
                    continue; // deleted by an earlier single of this sweep: caught next sweep
                };
                let c = Cand::new(d, cell);
                self.assert(c);
                if let Some(p) = path.as_deref_mut() {
                    p.push(Step::Single {
                        var: c.vars()[0],
                        value: c,
                    });
                }
                changed = true;
            }
            // hidden singles and digits without a place in a unit
            for d in 0..9 {
                for (u, &unit) in t.units.iter().enumerate() {
                    if self.values.0[d] & unit != 0 {
                        continue;
                    }
                    let m = self.cand.0[d] & unit;
                    let var = Cand::new(d, unit.trailing_zeros() as usize).vars()[1 + u / 9];
                    if m == 0 {
                        return Err(Contradiction(var));
                    }
                    if m & (m - 1) == 0 {
                        let c = Cand::new(d, m.trailing_zeros() as usize);
                        self.assert(c);
                        if let Some(p) = path.as_deref_mut() {
                            p.push(Step::Single { var, value: c });
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}
