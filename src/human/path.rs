//! The deterministic "simplest technique first" solving path shared by the
//! technique-weight rating and [`super::explain`].
//!
//! At every state the path takes the first technique (in
//! [`Technique::ALL`] order) that has an application and applies its first
//! application (lowest unit, cell and digit in scan order), then starts over.
//! It ends when the grid is full or when no technique applies: the puzzle
//! then needs search (trial and error or techniques beyond the catalogue).

use super::board::Board;
use super::techniques::{Application, Technique, find_first};
use crate::grid::Puzzle;
use std::ops::ControlFlow;

/// A solving path.
#[derive(Debug, Clone)]
pub(crate) struct Path {
    /// The applications, in order.
    pub steps: Vec<Application>,
    /// True when the path fills the grid.
    pub solved: bool,
    /// The board where the path ended.
    pub end: Board,
}

/// Follows the simplest-first path with the given techniques.
pub(crate) fn simplest_path(puzzle: &Puzzle, techniques: &[Technique]) -> Path {
    let mut steps = Vec::new();
    let end = follow(puzzle, techniques, |a, _| {
        steps.push(a);
        ControlFlow::Continue(())
    });
    Path {
        steps,
        solved: end.is_solved(),
        end,
    }
}

/// Follows the simplest-first path, calling `step` with each application
/// taken and the board after it, until the grid is full, no technique
/// applies or `step` breaks; returns the board where it stopped.
pub(crate) fn follow(
    puzzle: &Puzzle,
    techniques: &[Technique],
    mut step: impl FnMut(Application, &Board) -> ControlFlow<()>,
) -> Board {
    let mut b = Board::new(puzzle);
    'outer: while !b.is_solved() {
        for &t in techniques {
            if let Some(a) = find_first(t, &b) {
                a.apply(&mut b);
                if step(a, &b).is_break() {
                    break 'outer;
                }
                continue 'outer;
            }
        }
        break;
    }
    b
}
