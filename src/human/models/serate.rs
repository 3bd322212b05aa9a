//! The Serate and Fowler ratings as plug-ins of [`crate::human::rate`]: both
//! read the one path of Sudoku Explainer's steps and ratings that
//! [`crate::se`] makes (`docs/methods.md` §3.11), made once
//! per puzzle for both.

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::se::SerateUnfinished;

/// The Serate-like rating's row: the highest rating along the path (ER),
/// how often each rule was used, and Sudoku Explainer's EP and ED of the
/// path; all null when the path stops ([`SerateRow::why_null`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SerateRow {
    /// Sudoku Explainer's ER, the highest rating along SE's path (the first
    /// hint of the first rule that applies; chains by kind, nesting and
    /// length, `docs/methods.md` §3.11).
    pub er: Option<f64>,
    /// How many steps of that path used each Sudoku Explainer rule
    /// (`rule:count` joined by `;`, in rating order).
    pub uses: Option<String>,
    /// Sudoku Explainer's EP ("pearl") on that path: the highest rating up
    /// to and including the first step that places a digit.
    pub ep: Option<f64>,
    /// Sudoku Explainer's ED ("diamond") on that path: the rating of the
    /// first step.
    pub ed: Option<f64>,
    /// Why the path stopped without a rating: the rules cannot finish the
    /// puzzle, or levels 3–5 ran past their work budget.
    pub why_null: Option<SerateUnfinished>,
}

impl SerateRow {
    /// Serate's outcome on the puzzle, when the model ran: its ER, or why
    /// there is none.
    pub(crate) fn outcome(&self) -> Option<Result<f64, SerateUnfinished>> {
        match (self.er, self.why_null) {
            (Some(er), _) => Some(Ok(er)),
            (None, Some(why)) => Some(Err(why)),
            (None, None) => None,
        }
    }
}

impl HumanModel for SerateRow {
    type Options = ();
    fn rate(&mut self, on: &Rating<'_>, _: &()) {
        match on.serate_path() {
            Ok(r) => {
                self.er = Some(r.serate);
                self.uses = Some(r.uses_text());
                self.ep = Some(r.ep);
                self.ed = Some(r.ed);
            }
            Err(why) => self.why_null = Some(*why),
        }
    }
}

impl ModelRow for SerateRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}

/// The Fowler-like rating's row: the sum of the ratings of every step of
/// the path.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FowlerRow {
    /// The sum of the ratings of every step of SE's path; null as serate.
    pub rating: Option<f64>,
    /// Why the path stopped without a rating.
    pub why_null: Option<SerateUnfinished>,
}

impl HumanModel for FowlerRow {
    type Options = ();
    fn rate(&mut self, on: &Rating<'_>, _: &()) {
        match on.serate_path() {
            Ok(r) => self.rating = Some(r.fowler),
            Err(why) => self.why_null = Some(*why),
        }
    }
}

impl ModelRow for FowlerRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;
    use crate::human::solver::{Solved, solve};
    use crate::se::WorkBudget;

    /// Serate's row of a puzzle with one solution, at the default budget.
    fn serate_row(line: &str) -> SerateRow {
        let p = parse_puzzle(line).unwrap();
        let Solved::Unique(solution) = solve(&p) else {
            panic!("{line} has one solution")
        };
        let mut row = SerateRow::default();
        row.rate(&Rating::new(&p, &solution, 0, WorkBudget::DEFAULT.0), &());
        row
    }

    /// Sudoku Explainer 1.2.1.3's ER, EP and ED of three 17-clue puzzles
    /// (`diuf.sudoku.test.serate --format='%r %p %d'`), where our path
    /// takes SE's steps: the first step places a digit, so EP = ED.
    #[test]
    fn ep_and_ed_are_sudoku_explainers() {
        for (line, er, ep, ed) in [
            (
                "........1.....2.....3....45.......3......62....4.1.....2.4.....17....8..6..5.....",
                1.2,
                1.2,
                1.2,
            ),
            (
                "................12..3.45.........4.5.1.6.....7...........1...6...4.....852..7....",
                1.7,
                1.5,
                1.5,
            ),
            (
                "..............1..2.34....5........36......47.1....8.......7.......435...6.9......",
                2.5,
                2.3,
                2.3,
            ),
        ] {
            let r = serate_row(line);
            assert_eq!((r.er, r.ep, r.ed), (Some(er), Some(ep), Some(ed)), "{line}");
        }
    }

    /// A full grid has no step: ER, EP and ED are 0, as SE's.
    #[test]
    fn a_full_grid_rates_zero() {
        let r = serate_row(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        );
        assert_eq!((r.er, r.ep, r.ed), (Some(0.0), Some(0.0), Some(0.0)));
    }
}
