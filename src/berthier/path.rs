//! A resolution path in Berthier's notation, one line per rule application:
//! `naked-single ==> r1c2 = 5`, `whip[4]: r1n5{c2 c7} - c7n3{r1 r5} - … - b4n2{r5c1 .} ==> r3c4 ≠ 5`.
//! In a chain, each CSP variable is written with its left-linking then its
//! right-linking candidate in braces (`.` for none, at the end), as
//! CSP-Rules prints whips and braids (`print-whip`, `print-braid`).

use super::cands::{Cand, Var, VarKind};
use serde::Serialize;
use std::fmt;

/// One CSP variable of a chain: its left- and (except the last) right-linking candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    /// The CSP variable.
    pub(crate) var: Var,
    /// Its left-linking candidate.
    pub(crate) left: Cand,
    /// Its right-linking candidate; `None` for the last one.
    pub(crate) right: Option<Cand>,
}

/// The kind of chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ChainKind {
    /// Each left-linking candidate linked to the previous right-linking one.
    Whip,
    /// Each left-linking candidate linked to the target or any earlier right-linking one.
    Braid,
}

/// A whip or braid that eliminates its target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chain {
    /// Whip or braid.
    pub(crate) kind: ChainKind,
    /// The candidate eliminated.
    pub(crate) target: Cand,
    /// The CSP variables in order.
    pub(crate) links: Vec<Link>,
}

impl Chain {
    /// Its length: the number of CSP variables.
    pub(crate) fn len(&self) -> usize {
        self.links.len()
    }
}

fn cell_name(c: Cand) -> String {
    format!("r{}c{}", c.row() + 1, c.col() + 1)
}

impl fmt::Display for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            ChainKind::Whip => "whip",
            ChainKind::Braid => "braid",
        };
        write!(f, "{kind}[{}]: ", self.len())?;
        for (i, l) in self.links.iter().enumerate() {
            if i > 0 {
                write!(f, " - ")?;
            }
            let right = l.right.map_or(".".to_string(), |r| l.var.local_name(r));
            write!(f, "{}{{{} {}}}", l.var, l.var.local_name(l.left), right)?;
        }
        write!(
            f,
            " ==> {} ≠ {}",
            cell_name(self.target),
            self.target.digit() + 1
        )
    }
}

/// One rule application.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// A single: the variable that had one candidate left, and that candidate.
    Single {
        /// The CSP variable.
        var: Var,
        /// The value it gets.
        value: Cand,
    },
    /// A chain elimination.
    Chain(Chain),
    /// A candidate deleted by T&E: asserting it led to a contradiction in a
    /// copy, at the given T&E depth, under the named theory.
    Trial {
        /// The candidate deleted.
        cand: Cand,
        /// The theory applied in the copy, e.g. `B3` or `BRT`.
        theory: String,
    },
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Single { var, value } => {
                let rule = match var.kind() {
                    VarKind::Cell => "naked-single",
                    VarKind::RowDigit => "hidden-single-in-a-row",
                    VarKind::ColDigit => "hidden-single-in-a-column",
                    VarKind::BoxDigit => "hidden-single-in-a-block",
                };
                write!(
                    f,
                    "{rule} ==> {} = {}",
                    cell_name(*value),
                    value.digit() + 1
                )
            }
            Step::Chain(c) => c.fmt(f),
            Step::Trial { cand, theory } => write!(
                f,
                "T&E({theory}, 1): {cand} leads to a contradiction ==> {} ≠ {}",
                cell_name(*cand),
                cand.digit() + 1
            ),
        }
    }
}

/// A resolution path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Path {
    /// The steps in order.
    pub(crate) steps: Vec<Step>,
}

impl Path {
    /// Appends a step.
    pub(crate) fn push(&mut self, s: Step) {
        self.steps.push(s);
    }
    /// The lines.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.steps.iter().map(|s| s.to_string()).collect()
    }
}
