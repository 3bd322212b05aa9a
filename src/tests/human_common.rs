//! Shared puzzles and data-file access for the human-model tests.
#![allow(dead_code)]

use crate::grid::{Puzzle, parse_puzzle};

/// Solvable by naked singles alone.
pub(crate) const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// QQWing "Intermediate": needs pairs or intersections.
pub(crate) const INTERMEDIATE: &str =
    "..5..........9........1.53.....3..7..68......3..85.1.2.....36.9..958..2.23.16....";
/// QQWing "Expert": QQWing had to guess.
pub(crate) const EXPERT: &str =
    "........12...94..6...3.7..8.....82..7.64...8....1..3.76.472...3..168.4...........";

/// The famous hardest puzzles (strings checked unique in `human_papers.rs`).
pub(crate) const FAMOUS: [(&str, &str); 4] = [
    (
        "Platinum Blonde",
        ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
    ),
    (
        "Golden Nugget",
        ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
    ),
    (
        "Red Dwarf",
        "12.3....435....1....4........54..2..6...7.........8.9...31..5.......9.7.....6...8",
    ),
    (
        "tarx0134",
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    ),
];

pub(crate) fn puzzle(s: &str) -> Puzzle {
    parse_puzzle(s).expect("test puzzle parses")
}

use super::common;

/// Reads `../shared/data/<path>`; `None` after a note when it is missing
/// (a failure when `CI` is set).
pub(crate) fn data(path: &str) -> Option<String> {
    common::shared_data(path)
}

/// Data rows (tab-separated fields) of a data file, header and comments skipped.
pub(crate) fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect()
}
