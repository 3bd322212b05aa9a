//! whip[n] and braid[n] with target Z, found by a depth-first search in the
//! hypothesis "Z is true" (`CSP-Rules-Generic/CHAIN-RULES-SPEED/WHIPS/`,
//! `PARTIAL-WHIPS/`, `BRAIDS/`).
//!
//! A partial chain with right-linking candidates R1…Rk has *erased* the
//! candidates linked to Z or to some Ri; a CSP variable that contains none of
//! Z, R1…Rk and has one non-erased candidate left extends the chain with it
//! as R(k+1); one with none left ends it. The left-linking candidate of a
//! new variable is a current, erased candidate of it: for a whip it must be
//! linked to Rk (the last right-linking candidate, Z for the first) and be
//! no earlier left- or right-linking candidate, as `Whips[n].clp` requires;
//! for a braid, linked to Z or any earlier Ri, no right-linking candidate
//! (`Braids[n].clp`). Only current candidates count.
//!
//! Pruning, exact: the parallel propagation of the hypothesis (every
//! forced candidate at once, layer by layer) reaches a contradiction at
//! layer ℓ only if no braid (hence no whip) shorter than ℓ exists, since
//! the i-th right-linking candidate of any braid lies in a layer ≤ i.
//! Braids are sets: the search enumerates each set of right-linking
//! candidates once (a candidate passed over at a node stays excluded below
//! it; it remains available once it is, so no set is lost).

use super::board::Board;
use super::cands::{ALL81, Cand, Cands, Var, tables};
use super::path::{Chain, ChainKind, Link};
use super::work::{BudgetExceeded, Work};

/// What a look at every CSP variable under a hypothesis finds. After BRT
/// every open CSP variable has two candidates or more, so one with at most
/// one left under the hypothesis has an erased (left-linking) candidate.
struct Scan {
    /// A variable with no candidate left.
    empty: Option<Var>,
    /// Variables with one candidate left: (variable, the one left).
    forced: Vec<(Var, Cand)>,
}
/// The hypothesis that a target is true, with the right-linking candidates so far.
#[derive(Clone, Copy)]
pub(crate) struct Hyp {
    /// Z and the right-linking candidates.
    used: Cands,
    /// Candidates linked to Z or to a right-linking candidate.
    erased: Cands,
}

impl Hyp {
    fn new(z: Cand) -> Hyp {
        let mut used = Cands::EMPTY;
        used.insert(z);
        Hyp {
            used,
            erased: Cands::links_of(z),
        }
    }
    fn push(&mut self, r: Cand) {
        self.used.insert(r);
        self.erased.add_links_of(r);
    }
}

/// Satisfied cells and the open, non-erased candidates under `h`.
fn view(b: &Board, h: &Hyp) -> (Cands, Cands) {
    let sat = b.values.or(&h.used.minus(&h.erased));
    let avail = b.cand.minus(&h.erased).minus(&h.used);
    (sat, avail)
}

/// A current candidate of `v` erased under `h` (its left-linking candidate).
fn first_erased(b: &Board, h: &Hyp, v: Var) -> Cand {
    v.mask()
        .and(&b.cand)
        .and(&h.erased)
        .iter()
        .next()
        .unwrap_or_else(|| v.mask().iter().next().expect("a variable has candidates"))
}

/// Open cells with no / exactly one non-erased candidate.
#[inline]
fn cell_counts(sat: &Cands, avail: &Cands) -> (u128, u128) {
    let sat_cells = sat.0.iter().fold(0u128, |a, &p| a | p);
    let open = ALL81 & !sat_cells;
    let (mut ones, mut twos) = (0u128, 0u128);
    for &p in &avail.0 {
        twos |= ones & p;
        ones |= p;
    }
    (open & !ones, open & ones & !twos)
}

/// Every CSP variable under `h`: the first empty one, else (with
/// `want_forced`) those with one candidate left.
fn scan(b: &Board, h: &Hyp, want_forced: bool, out: &mut Scan) {
    let t = tables();
    let (sat, avail) = view(b, h);
    out.empty = None;
    out.forced.clear();
    let (empty, mut single) = cell_counts(&sat, &avail);
    if empty != 0 {
        out.empty = Some(Cand::new(0, empty.trailing_zeros() as usize).vars()[0]);
        return;
    }
    for d in 0..9 {
        let (satd, availd) = (sat.0[d], avail.0[d]);
        for (u, &unit) in t.units.iter().enumerate() {
            let m = availd & unit;
            if satd & unit != 0 || m & m.wrapping_sub(1) != 0 {
                continue;
            }
            if m == 0 {
                out.empty = Some(Cand::new(d, unit.trailing_zeros() as usize).vars()[1 + u / 9]);
                return;
            }
            if want_forced {
                let r = Cand::new(d, m.trailing_zeros() as usize);
                out.forced.push((r.vars()[1 + u / 9], r));
            }
        }
    }
    if want_forced {
        while single != 0 {
            let cell = single.trailing_zeros() as usize;
            single &= single - 1;
            let d = (0..9).find(|&d| avail.0[d] >> cell & 1 == 1).unwrap_or(0);
            let r = Cand::new(d, cell);
            out.forced.push((r.vars()[0], r));
        }
    }
}

/// The layer at which the parallel propagation of `h` meets an empty CSP
/// variable (1: one is empty now), or `None` if it never does: a lower
/// bound on the number of CSP variables any braid extending `h` still needs.
fn layers_to_contradiction(b: &Board, h: &Hyp, limit: usize) -> Option<usize> {
    let t = tables();
    let mut h = *h;
    for layer in 1..=limit {
        let (sat, avail) = view(b, &h);
        let (empty, single) = cell_counts(&sat, &avail);
        if empty != 0 {
            return Some(layer);
        }
        let mut forced = Cands::EMPTY;
        for d in 0..9 {
            let (satd, availd) = (sat.0[d], avail.0[d]);
            forced.0[d] = availd & single;
            for &unit in &t.units {
                let m = availd & unit;
                if satd & unit != 0 || m & m.wrapping_sub(1) != 0 {
                    continue;
                }
                if m == 0 {
                    return Some(layer);
                }
                forced.0[d] |= m;
            }
        }
        if forced.is_empty() {
            return None;
        }
        for r in forced.iter() {
            h.push(r);
        }
    }
    Some(limit + 1)
}

/// A lower bound on the length of any braid (or whip) with target `z`
/// (`limit + 1`: more than `limit`), `None` when none exists at any length
/// (T&E(1) cannot delete `z`).
pub(crate) fn lower_bound(b: &Board, z: Cand, limit: usize) -> Option<usize> {
    layers_to_contradiction(b, &Hyp::new(z), limit)
}

struct Search<'a> {
    b: &'a Board,
    h: Hyp,
    links: Vec<Link>,
    work: &'a mut Work,
}

impl Search<'_> {
    fn whip(&mut self, last: Cand, lefts: Cands, n: usize) -> Result<bool, BudgetExceeded> {
        self.work.tick()?;
        let k = self.links.len();
        let (sat, avail) = view(self.b, &self.h);
        let lcands = Cands::links_of(last)
            .and(&self.b.cand)
            .minus(&lefts)
            .minus(&self.h.used);
        let mut seen = [0u64; 6];
        let mut children: Vec<(Var, Cand, Cand)> = Vec::new();
        let mut child_rs = Cands::EMPTY;
        for l in lcands.iter() {
            for v in l.vars() {
                let i = v.index();
                if seen[i / 64] >> (i % 64) & 1 == 1 {
                    continue;
                }
                seen[i / 64] |= 1 << (i % 64);
                if v.mask().meets(&sat) {
                    continue;
                }
                let rest = v.mask().and(&avail);
                if rest.is_empty() {
                    self.links.push(Link {
                        var: v,
                        left: l,
                        right: None,
                    });
                    return Ok(true);
                }
                if k + 1 < n
                    && let Some(r) = rest.single()
                    && !child_rs.contains(r)
                {
                    child_rs.insert(r);
                    children.push((v, l, r));
                }
            }
        }
        for (v, l, r) in children {
            let saved = self.h;
            self.h.push(r);
            let remaining = n - (k + 1);
            let feasible = remaining < 2
                || layers_to_contradiction(self.b, &self.h, remaining)
                    .is_some_and(|s| s <= remaining);
            if feasible {
                self.links.push(Link {
                    var: v,
                    left: l,
                    right: Some(r),
                });
                let mut lefts2 = lefts;
                lefts2.insert(l);
                if self.whip(r, lefts2, n)? {
                    return Ok(true);
                }
                self.links.pop();
            }
            self.h = saved;
        }
        Ok(false)
    }

    fn braid(&mut self, excluded: Cands, n: usize) -> Result<bool, BudgetExceeded> {
        self.work.tick()?;
        let k = self.links.len();
        let mut s = Scan {
            empty: None,
            forced: Vec::new(),
        };
        scan(self.b, &self.h, k + 1 < n, &mut s);
        if let Some(v) = s.empty {
            let l = first_erased(self.b, &self.h, v);
            self.links.push(Link {
                var: v,
                left: l,
                right: None,
            });
            return Ok(true);
        }
        let mut excl = excluded;
        let mut seen = Cands::EMPTY;
        for (v, r) in s.forced {
            if excl.contains(r) || seen.contains(r) {
                continue;
            }
            seen.insert(r);
            let l = first_erased(self.b, &self.h, v);
            let saved = self.h;
            self.h.push(r);
            let remaining = n - (k + 1);
            // with one variable left, the child's own scan is the check
            let feasible = remaining < 2
                || layers_to_contradiction(self.b, &self.h, remaining)
                    .is_some_and(|s| s <= remaining);
            if feasible {
                self.links.push(Link {
                    var: v,
                    left: l,
                    right: Some(r),
                });
                if self.braid(excl, n)? {
                    return Ok(true);
                }
                self.links.pop();
            }
            self.h = saved;
            excl.insert(r);
        }
        Ok(false)
    }
}

/// The first whip of length ≤ `n` with target `z` in `b`, if any.
pub(crate) fn find_whip(
    b: &Board,
    z: Cand,
    n: usize,
    work: &mut Work,
) -> Result<Option<Chain>, BudgetExceeded> {
    let mut s = Search {
        b,
        h: Hyp::new(z),
        links: Vec::new(),
        work,
    };
    let found = s.whip(z, Cands::EMPTY, n)?;
    Ok(found.then_some(Chain {
        kind: ChainKind::Whip,
        target: z,
        links: s.links,
    }))
}

/// The first braid of length ≤ `n` with target `z` in `b`, if any.
pub(crate) fn find_braid(
    b: &Board,
    z: Cand,
    n: usize,
    work: &mut Work,
) -> Result<Option<Chain>, BudgetExceeded> {
    let mut s = Search {
        b,
        h: Hyp::new(z),
        links: Vec::new(),
        work,
    };
    let found = s.braid(Cands::EMPTY, n)?;
    Ok(found.then_some(Chain {
        kind: ChainKind::Braid,
        target: z,
        links: s.links,
    }))
}
