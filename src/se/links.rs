//! The links of a forcing chain as `rate --explain` shows them
//! (`docs/methods.md` §3.7): Sudoku Explainer 1.2.1.3 shows a chaining
//! hint's branches potential by potential (`ChainingHint.getHtmlChain`:
//! "(n) If A and B, then C", each potential after its parents). A chain of
//! [`super::chains`] or [`super::nesting`] keeps the branches it follows
//! ([`Origin`]); its links are found again on the board of its step, each
//! branch propagated as the chain's kind propagates it with every node's
//! parents kept, and written from the assumption to the conclusion, one
//! link per node of the conclusion's ancestry, in the order found.
//!
//! SE's first producer's cycles and forcing X-, Y- and XY-chains are one
//! branch: the search from their source is run again and the chain that
//! concludes the step followed back from its last potential; a Nishio
//! chain is one branch, its search run again and every potential of the
//! contradiction's ancestry written after its parents.

use super::chain::{Assume, Cause, ChainKind, Conclusion, Origin, RatedChain};
use super::chains::{Branch, DYNAMIC, Mode, NESTED, NONE, PLUS, STATIC};
use super::cycles::{self, Links};
use super::nesting::mode_of_level;
use super::work::{Search, Work};
use crate::human::board::Board;
use crate::util::bits as digits;
use serde::Serialize;

/// One branch of a chain: what it assumes and its links, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainBranch {
    /// The assumption, as `r1c2=3` or `r1c2≠3`.
    pub assumption: String,
    /// One link per potential after the assumption: `r1c2=3 ⇒ r1c5≠3`,
    /// `r4c4≠5 and r4c6≠5 ⇒ r4c5=5 (hidden single in row 4)`, the last one
    /// the conclusion (or `contradiction`).
    pub links: Vec<String>,
}

/// How the branches of a chain of `kind` propagate, keeping parents.
fn traced_mode(kind: ChainKind) -> Mode {
    let mode = match kind {
        ChainKind::XOrY | ChainKind::Forcing | ChainKind::Multiple => STATIC,
        ChainKind::Nishio | ChainKind::Dynamic => DYNAMIC,
        ChainKind::DynamicPlus => PLUS,
        ChainKind::Nested => NESTED,
        ChainKind::NestedMultiple => mode_of_level(3),
        ChainKind::NestedDynamic => mode_of_level(4),
        ChainKind::NestedDynamicPlus => mode_of_level(5),
    };
    Mode {
        traced: true,
        ..mode
    }
}

/// The assumptions of the branches `origin` names on `board`.
fn assumptions(board: &Board, origin: Origin) -> Vec<Assume> {
    let geo = board.geometry();
    match origin {
        Origin::Unknown | Origin::First { .. } | Origin::Nishio(..) => Vec::new(),
        Origin::Refuted(a) => vec![a],
        Origin::Double(c, d) => vec![Assume::On(c, d), Assume::Off(c, d)],
        Origin::Cell(c) => digits(board.cands(c)).map(|d| Assume::On(c, d)).collect(),
        Origin::Region(u, d) => digits(board.places(u, d) << 1)
            .map(|i| Assume::On(geo.units[u][i as usize - 1], d))
            .collect(),
    }
}

/// The branches of `chain` on `board` (the board of its step) with their
/// links; empty when the chain keeps no origin.
pub(crate) fn chain_links(board: &Board, chain: &RatedChain) -> Vec<ChainBranch> {
    if let Origin::First {
        source,
        cycle,
        x,
        y,
    } = chain.origin
    {
        return first_links(board, source, cycle, Links { x, y }, chain.conclusion)
            .into_iter()
            .collect();
    }
    if let Origin::Nishio(cell, d, on) = chain.origin {
        return nishio_links(board, (cell, d, on)).into_iter().collect();
    }
    let mode = traced_mode(chain.kind);
    let work = Work::unlimited();
    let plain = Search::new(&work);
    let search = if mode.nested {
        plain.with_nested_budget()
    } else {
        plain
    };
    assumptions(board, chain.origin)
        .into_iter()
        .map(|a| {
            let br = Branch::run(board, a, mode, false, &search);
            branch_links(board, &br, chain)
        })
        .collect()
}

/// SE's first producer's chain as one branch: its potentials from the
/// source, each link written from the one before, then the closing link
/// (back to the source for a cycle, to the source's negation for a forcing
/// chain).
fn first_links(
    board: &Board,
    source: cycles::Potential,
    cycle: bool,
    links: Links,
    conclusion: Conclusion,
) -> Option<ChainBranch> {
    let (path, closing) = cycles::chain_path(board, source, cycle, links, conclusion)?;
    let name = |&(c, d, on): &cycles::Potential| potential(board, c, d, on);
    let link = |from: &cycles::Potential, to: &cycles::Potential, cause: Cause| {
        format!(
            "{} ⇒ {}{}",
            name(from),
            name(to),
            single_note(board, to.2, cause)
        )
    };
    let mut out: Vec<String> = path
        .windows(2)
        .map(|w| link(&w[0].0, &w[1].0, w[1].1))
        .collect();
    let (c, d, on) = source;
    let target = if cycle { (c, d, on) } else { (c, d, !on) };
    out.push(link(&path.last()?.0, &target, closing));
    Some(ChainBranch {
        assumption: name(&path.first()?.0),
        links: out,
    })
}

/// SE's Nishio chain as one branch: every potential of the contradiction's
/// ancestry after its parents, then the contradiction (a potential reached
/// both on and off).
fn nishio_links(board: &Board, source: cycles::Potential) -> Option<ChainBranch> {
    let name = |&(c, d, on): &cycles::Potential| potential(board, c, d, on);
    let path = cycles::nishio_path(board, source)?;
    let mut links: Vec<String> = path
        .iter()
        .map(|(p, parents)| {
            let from = parents.iter().map(name).collect::<Vec<_>>().join(" and ");
            format!("{from} ⇒ {}", name(p))
        })
        .collect();
    // The last potential found is the one reached both on and off.
    let &((c, d, _), _) = path.last()?;
    links.push(format!(
        "contradiction: {} and {}",
        potential(board, c, d, true),
        potential(board, c, d, false)
    ));
    Some(ChainBranch {
        assumption: name(&source),
        links,
    })
}

/// Why a placement holds: ` (naked single)`, ` (hidden single in row 4)`;
/// nothing for a removal.
fn single_note(board: &Board, on: bool, cause: Cause) -> String {
    match cause {
        Cause::Naked(_) if on => " (naked single)".to_string(),
        Cause::Hidden(u, _) if on => {
            let (kind, number) = board.geometry().unit_name(u);
            format!(" (hidden single in {kind} {number})")
        }
        _ => String::new(),
    }
}

/// A potential: `r1c2=3` (on) or `r1c2≠3` (off).
fn potential(board: &Board, cell: usize, d: u8, on: bool) -> String {
    let geo = board.geometry();
    let sign = if on { "=" } else { "≠" };
    format!(
        "{}{sign}{}",
        geo.cell_name(cell),
        crate::grid::digit_to_char(d, 0)
    )
}

/// The links of `br` down to `chain`'s conclusion in it.
fn branch_links(board: &Board, br: &Branch, chain: &RatedChain) -> ChainBranch {
    let geo = board.geometry();
    let stride = geo.side + 1;
    // Node → (cell, digit, on).
    let mut label = vec![None; br.node_count()];
    for s in 0..br.on_at.len() {
        let (cell, d) = (s / stride, (s % stride) as u8);
        if br.on_at[s] != NONE {
            label[br.on_at[s] as usize] = Some((cell, d, true));
        }
        if br.off_at[s] != NONE {
            label[br.off_at[s] as usize] = Some((cell, d, false));
        }
    }
    let name = |n: u32| {
        label[n as usize].map_or_else(|| "?".to_string(), |(c, d, on)| potential(board, c, d, on))
    };
    let assumption = name(0);
    let contradiction = matches!(chain.origin, Origin::Refuted(_));
    let targets: Vec<u32> = if contradiction {
        Vec::new()
    } else {
        match chain.conclusion {
            Conclusion::Place(c, d) => vec![br.on_at[c * stride + d as usize]],
            Conclusion::Remove(c, d) => vec![br.off_at[c * stride + d as usize]],
            Conclusion::Eliminate(set) => set
                .iter()
                .map(|(c, d)| br.off_at[c * stride + d as usize])
                .collect(),
        }
    };
    // The nodes the conclusion rests on, in the order found.
    let mut nodes = vec![false; br.node_count()];
    let mut mark = |set: &[u64]| {
        for (w, &bits) in set.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                let n = w * 64 + b.trailing_zeros() as usize;
                if n < nodes.len() {
                    nodes[n] = true;
                }
                b &= b - 1;
            }
        }
    };
    match &br.contradiction {
        Some(a) if contradiction => mark(&a.set),
        _ => {
            for &t in targets.iter().filter(|&&t| t != NONE) {
                mark(br.node(t).set);
            }
        }
    }
    let mut links = Vec::new();
    for n in (1..nodes.len()).filter(|&n| nodes[n]) {
        let Some(&(from, to)) = br.parent_spans.get(n) else {
            continue;
        };
        let parents = &br.parent_ids[from as usize..to as usize];
        if parents.is_empty() {
            continue;
        }
        let why = match br.cause[n] {
            Cause::Naked(_) | Cause::Hidden(..) => single_note(board, true, br.cause[n]),
            // A removal that follows from removals: a rule applied inside
            // the branch (SE's basic techniques or a nested chain).
            Cause::Other
                if parents
                    .iter()
                    .any(|&p| matches!(label[p as usize], Some((_, _, false)))) =>
            {
                " (by a rule inside the branch)".to_string()
            }
            Cause::Other => String::new(),
        };
        let from = parents
            .iter()
            .map(|&p| name(p))
            .collect::<Vec<_>>()
            .join(" and ");
        links.push(format!("{from} ⇒ {}{why}", name(n as u32)));
    }
    if contradiction {
        links.push("contradiction".to_string());
    }
    ChainBranch { assumption, links }
}
