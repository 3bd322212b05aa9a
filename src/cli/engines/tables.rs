//! The engine subcommands' rows as text: a table per command (`check`,
//! `count`, `backbone`), and `solve`'s puzzles beside their solutions.

use super::rows::{BackboneRow, CheckRow, CountRow, SolveRow};
use crate::cli::text::text_table;
use sudolab::Status;

/// A label for a table cell (empty when none).
fn label_of(label: &Option<String>) -> String {
    label.clone().unwrap_or_default()
}

/// A solution count as a table cell: `>=N` when the count stopped at its cap.
fn count_cell(solutions: u64, capped: bool) -> String {
    if capped {
        format!(">={solutions}")
    } else {
        solutions.to_string()
    }
}

/// `sudolab check`: status and reason per puzzle.
pub(super) fn check_table(rows: &[CheckRow]) -> String {
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.puzzle.clone(),
                r.status.to_string(),
                r.reason.clone().unwrap_or_default(),
                label_of(&r.label),
            ]
        })
        .collect();
    text_table(&["puzzle", "status", "reason", "label"], &table)
}

/// `sudolab count`: solutions per puzzle.
pub(super) fn count_table(rows: &[CountRow]) -> String {
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let n = count_cell(r.solutions, r.capped);
            vec![r.puzzle.clone(), n, label_of(&r.label)]
        })
        .collect();
    text_table(&["puzzle", "solutions", "label"], &table)
}

/// `sudolab backbone`: solutions and fixed cells per (relaxed) puzzle.
pub(super) fn backbone_table(rows: &[BackboneRow]) -> String {
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let n = count_cell(r.solutions, r.capped);
            vec![
                r.puzzle.clone(),
                r.removed.len().to_string(),
                n,
                r.fixed.len().to_string(),
                label_of(&r.label),
            ]
        })
        .collect();
    text_table(
        &["puzzle", "removed", "solutions", "fixed", "label"],
        &table,
    )
}

/// `sudolab solve`: each puzzle beside its solution, one line each.
pub(super) fn solve_text(rows: &[SolveRow]) -> String {
    let mut s = String::new();
    for r in rows {
        let sol = match (&r.solution, r.status) {
            (Some(sol), Status::Multiple) => format!("{sol}  (one of several solutions)"),
            (Some(sol), _) => sol.clone(),
            (None, _) => "no solution".into(),
        };
        s.push_str(&format!("{}  {}", r.puzzle, sol));
        if let Some(l) = &r.label {
            s.push_str(&format!("  {l}"));
        }
        s.push('\n');
    }
    s
}
