//! Resolution theories and T&E: BRT plus an ordered list of chain rules
//! (`W_n`: whips up to n; `B_n`: at each length the whip then the braid, as
//! `CSP-Rules-Generic/GENERAL/saliences.clp` orders them), applied simplest
//! first, and `T&E(T, n)` over any such theory (`CSP-Rules-Generic/T&E+DFS/`).
//!
//! The order of application: BRT to its fixpoint, then the rules by
//! increasing length; a rule is tried on every target in turn and each
//! chain found is applied at once, followed by BRT; after a length that
//! deleted something, back to the shortest. The first time a length n is
//! used, no shorter rule applies and the state is not solved, so `W_(n-1)`
//! (or `B_(n-1)`) does not solve the puzzle (confluence); the highest length
//! used is therefore exactly the rating.

use super::board::{Board, Contradiction};
use super::cands::{Cand, Cands};
use super::chains::{find_braid, find_whip, lower_bound};
use super::path::{Chain, Path, Step};
use super::work::{BudgetExceeded, Work};

/// One resolution rule beyond BRT: finds a chain of its kind with a target.
pub(crate) trait Rule: Sync {
    /// Its length (the chain length it allows at most).
    fn length(&self) -> usize;
    /// A chain that eliminates `z` in `b`, if one exists.
    fn find(&self, b: &Board, z: Cand, work: &mut Work) -> Result<Option<Chain>, BudgetExceeded>;
}

/// whip[n].
pub(crate) struct WhipRule(pub usize);
/// braid[n].
pub(crate) struct BraidRule(pub usize);

impl Rule for WhipRule {
    fn length(&self) -> usize {
        self.0
    }
    fn find(&self, b: &Board, z: Cand, work: &mut Work) -> Result<Option<Chain>, BudgetExceeded> {
        find_whip(b, z, self.0, work)
    }
}

impl Rule for BraidRule {
    fn length(&self) -> usize {
        self.0
    }
    fn find(&self, b: &Board, z: Cand, work: &mut Work) -> Result<Option<Chain>, BudgetExceeded> {
        find_braid(b, z, self.0, work)
    }
}

/// BRT and an ordered list of chain rules.
pub(crate) struct Theory {
    /// Its name: `BRT`, `W3`, `B5`.
    pub(crate) name: String,
    rules: Vec<Box<dyn Rule>>,
    /// The same closure by a faster list, for T&E's copies, whose paths
    /// nobody reads: braid[n] alone, whose search finds every braid and whip
    /// up to length n (the closure does not depend on the order, confluence).
    copies: Option<Box<Theory>>,
}

impl Theory {
    /// BRT alone.
    pub(crate) fn brt() -> Theory {
        Theory {
            name: "BRT".into(),
            rules: Vec::new(),
            copies: None,
        }
    }
    /// `W_n`: BRT and whips of length ≤ n.
    pub(crate) fn whips(n: usize) -> Theory {
        Theory {
            name: format!("W{n}"),
            rules: (1..=n)
                .map(|k| Box::new(WhipRule(k)) as Box<dyn Rule>)
                .collect(),
            copies: None,
        }
    }
    /// `B_n`: BRT and braids of length ≤ n (whips first at each length;
    /// braids of length 1 and 2 are whips).
    pub(crate) fn braids(n: usize) -> Theory {
        let mut rules: Vec<Box<dyn Rule>> = Vec::new();
        for k in 1..=n {
            rules.push(Box::new(WhipRule(k)));
            if k >= 3 {
                rules.push(Box::new(BraidRule(k)));
            }
        }
        let name = if n == 0 {
            "BRT".into()
        } else {
            format!("B{n}")
        };
        let copies = Theory {
            name: name.clone(),
            rules: if n == 0 {
                Vec::new()
            } else {
                vec![Box::new(BraidRule(n)) as Box<dyn Rule>]
            },
            copies: None,
        };
        Theory {
            name,
            rules,
            copies: Some(Box::new(copies)),
        }
    }
    /// Its longest rule; 0 for BRT.
    pub(crate) fn max_length(&self) -> usize {
        self.rules.iter().map(|r| r.length()).max().unwrap_or(0)
    }
}

/// How a resolution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// Every cell has a value.
    Solved,
    /// A CSP variable lost every candidate.
    Contradiction,
    /// No rule applies.
    Stuck,
}

/// The end of a resolution and the longest rule it used (0: BRT only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// How it ended.
    pub(crate) end: End,
    /// The longest rule applied.
    pub(crate) level: usize,
}

/// Applies `theory` to `b` until solved, contradiction or fixpoint.
/// `known_false`: when the solution is known (the top level of a puzzle
/// with a unique solution), only candidates outside it can be deleted, so
/// only they are tried as targets; `None` tries every candidate.
pub(crate) fn resolve(
    b: &mut Board,
    theory: &Theory,
    known_false: Option<&Cands>,
    path: Option<&mut Path>,
    work: &mut Work,
) -> Result<Outcome, BudgetExceeded> {
    resolve_from(b, theory, known_false, path, work, 0)
}

/// [`resolve`] on a board known to be a fixpoint of the rules up to length
/// `fixpoint_upto`: those are skipped until something changes.
fn resolve_from(
    b: &mut Board,
    theory: &Theory,
    known_false: Option<&Cands>,
    mut path: Option<&mut Path>,
    work: &mut Work,
    fixpoint_upto: usize,
) -> Result<Outcome, BudgetExceeded> {
    let mut skip = fixpoint_upto;
    let mut level = 0;
    let end = |e| Outcome { end: e, level: 0 };
    if brt(b, path.as_deref_mut()).is_err() {
        return Ok(end(End::Contradiction));
    }
    // lower bounds of the current state: 0 unknown, NEVER none at any length
    const NEVER: u8 = u8::MAX;
    const AT_LEAST: u8 = 128;
    let mut lbs = [0u8; 729];
    'outer: loop {
        lbs.fill(0);
        if b.solved() {
            return Ok(Outcome {
                end: End::Solved,
                level,
            });
        }
        for rule in &theory.rules {
            let len = rule.length();
            if len <= skip {
                continue;
            }
            if known_false.is_some() {
                work.level = len;
            }
            let mut deleted = false;
            let targets = match known_false {
                Some(f) => b.cand.and(f),
                None => b.cand,
            };
            for z in targets.iter() {
                if !b.cand.contains(z) {
                    continue;
                }
                // whip[1] and whip[2] cost less to look for than the bound
                // lbs: 0 unknown; NEVER; else a bound, exact below AT_LEAST
                let lb = &mut lbs[z.index()];
                if len > 2
                    && (*lb == 0
                        || (*lb >= AT_LEAST && *lb != NEVER && (*lb - AT_LEAST) as usize <= len))
                {
                    *lb = match lower_bound(b, z, len) {
                        None => NEVER,
                        Some(l) if l > len => AT_LEAST + l as u8,
                        Some(l) => l as u8,
                    };
                }
                let bound = if *lb >= AT_LEAST && *lb != NEVER {
                    *lb - AT_LEAST
                } else {
                    *lb
                };
                if len > 2 && bound as usize > len {
                    continue;
                }
                if let Some(chain) = rule.find(b, z, work)? {
                    level = level.max(chain.len());
                    b.eliminate(z);
                    if let Some(p) = path.as_deref_mut() {
                        p.push(Step::Chain(chain));
                    }
                    deleted = true;
                    lbs.fill(0);
                    if brt(b, path.as_deref_mut()).is_err() {
                        return Ok(Outcome {
                            end: End::Contradiction,
                            level,
                        });
                    }
                    if b.solved() {
                        continue 'outer;
                    }
                }
            }
            if deleted {
                skip = 0;
                continue 'outer;
            }
        }
        return Ok(Outcome {
            end: End::Stuck,
            level,
        });
    }
}

fn brt(b: &mut Board, path: Option<&mut Path>) -> Result<(), Contradiction> {
    b.brt(path)
}

/// `T&E(T, depth)` on `b`: T first; then, pass after pass, each candidate
/// asserted on a copy under `T&E(T, depth − 1)`, deleted from `b` (and T
/// applied again) when the copy reaches a contradiction; until solved or a
/// pass deletes nothing. `known_false` as in [`resolve`], for `b` itself only.
pub(crate) fn trial_and_error(
    b: &mut Board,
    theory: &Theory,
    depth: usize,
    known_false: Option<&Cands>,
    path: Option<&mut Path>,
    work: &mut Work,
) -> Result<Outcome, BudgetExceeded> {
    trial_and_error_cached(b, theory, depth, known_false, path, None, work)
}

/// The end states of the copies of a [`trial_and_error`] run, one per
/// hypothesis, to start the next pass (or the next, larger theory) from.
///
/// Exact because the theories are stable for inclusion (Berthier): with
/// fewer candidates in the main state, a copy reaches at least what it
/// reached before, so its old end state, narrowed to the new main state,
/// is a state the new copy reaches.
pub(crate) struct CopyCache(Vec<Option<CopyEnd>>);

/// Where a copy ended, the main state it started from, and the longest rule of its theory.
#[derive(Clone)]
struct CopyEnd {
    state: Board,
    main: Cands,
    level: usize,
}

impl Default for CopyCache {
    fn default() -> Self {
        CopyCache(vec![None; 729])
    }
}

/// The copy of `b` with `c` asserted, started from its cached end state:
/// `None` when that state and `b` contradict each other.
fn start_copy(b: &Board, c: Cand, cached: Option<&Board>) -> Option<Board> {
    let Some(old) = cached else {
        let mut copy = *b;
        copy.assert(c);
        return Some(copy);
    };
    if !old.values.minus(&b.values).minus(&b.cand).is_empty() {
        return None;
    }
    let mut copy = Board {
        cand: old.cand.and(&b.cand.or(&b.values)),
        values: old.values,
    };
    for v in b.values.minus(&old.values).iter() {
        if !copy.cand.contains(v) {
            return None;
        }
        copy.assert(v);
    }
    Some(copy)
}

/// [`trial_and_error`] that starts each top-level copy from `cache` and stores its end state there.
pub(crate) fn trial_and_error_cached(
    b: &mut Board,
    theory: &Theory,
    depth: usize,
    known_false: Option<&Cands>,
    mut path: Option<&mut Path>,
    mut cache: Option<&mut CopyCache>,
    work: &mut Work,
) -> Result<Outcome, BudgetExceeded> {
    // Unless its path is wanted, the main state too takes the faster list
    // of the copies: the same closure, so the same rating.
    let main = match (&path, theory.copies.as_deref()) {
        (None, Some(fast)) => fast,
        _ => theory,
    };
    let mut out = resolve(b, main, known_false, path.as_deref_mut(), work)?;
    if depth == 0 || out.end != End::Stuck {
        return Ok(out);
    }
    loop {
        let mut deleted = false;
        let targets = match known_false {
            Some(f) => b.cand.and(f),
            None => b.cand,
        };
        for c in targets.iter() {
            if !b.cand.contains(c) {
                continue;
            }
            work.tick()?;
            let cached = cache.as_deref().and_then(|k| k.0[c.index()].as_ref());
            let level = theory.max_length();
            // the same main state: the copy is a fixpoint of its old theory
            let unchanged = cached.filter(|e| depth == 1 && e.main == b.cand);
            if unchanged.is_some_and(|e| e.level == level) {
                continue;
            }
            let fixpoint_upto = unchanged.map_or(0, |e| e.level);
            let refuted = match start_copy(b, c, cached.map(|e| &e.state)) {
                None => true,
                Some(mut copy) => {
                    let in_copy = theory.copies.as_deref().unwrap_or(theory);
                    let inner = if depth == 1 {
                        resolve_from(&mut copy, in_copy, None, None, work, fixpoint_upto)?
                    } else {
                        trial_and_error(&mut copy, in_copy, depth - 1, None, None, work)?
                    };
                    if let Some(k) = cache.as_deref_mut() {
                        k.0[c.index()] = Some(CopyEnd {
                            state: copy,
                            main: b.cand,
                            level,
                        });
                    }
                    inner.end == End::Contradiction
                }
            };
            if refuted {
                b.eliminate(c);
                if let Some(p) = path.as_deref_mut() {
                    p.push(Step::Trial {
                        cand: c,
                        theory: theory.name.clone(),
                    });
                }
                deleted = true;
                let again = resolve(b, main, known_false, path.as_deref_mut(), work)?;
                out.level = out.level.max(again.level);
                out.end = again.end;
                if again.end != End::Stuck {
                    return Ok(out);
                }
            }
        }
        if !deleted {
            return Ok(out);
        }
    }
}
