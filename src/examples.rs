//! The example puzzles compiled into the binary (`examples/puzzles.txt`):
//! the four Figure 3 puzzles of Fletcher, Johnson & Morrison (Cinch, Confusing,
//! Challenging, Crazy) and famous hard puzzles, each labelled with its name.

use crate::grid::{Puzzle, read_puzzles};

/// The text of `examples/puzzles.txt`.
pub(crate) const EXAMPLES_TXT: &str = include_str!("../examples/puzzles.txt");

impl Puzzle {
    /// The example puzzles compiled into the library
    /// (`examples/puzzles.txt`), with their names as labels.
    pub fn examples() -> Vec<Puzzle> {
        read_puzzles(EXAMPLES_TXT)
            .into_iter()
            .filter_map(|r| r.ok().map(|(_, p)| p))
            .collect()
    }

    /// An example puzzle by its (case-insensitive) name, or the end of it
    /// (`"Crazy"` for `Fletcher Fig. 3 Crazy`).
    pub fn example(name: &str) -> Option<Puzzle> {
        Puzzle::examples().into_iter().find(|p| {
            p.label.as_deref().is_some_and(|l| {
                l.eq_ignore_ascii_case(name) || l.to_lowercase().ends_with(&name.to_lowercase())
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_examples_parse_and_are_unique() {
        assert_eq!(
            read_puzzles(EXAMPLES_TXT)
                .iter()
                .filter(|r| r.is_err())
                .count(),
            0
        );
        let all = Puzzle::examples();
        assert_eq!(all.len(), 11);
        for p in &all {
            assert_eq!(crate::sat::count(p, 3).solutions, 1, "{:?}", p.label);
        }
        assert_eq!(Puzzle::example("golden nugget").unwrap().givens(), 21);
    }
}
