//! The Serate and Fowler ratings as plug-ins of [`crate::human::rate`]: both
//! read the one path of Sudoku Explainer's steps and ratings that
//! [`crate::se`] makes (`docs/methods.md` §3.11), made once
//! per puzzle for both.

use super::{HumanModel, Model, Rating};
use crate::human::Unfinished;
use crate::human::rate::Ratings;

/// The highest rating along the path (ER), how often each rule was used,
/// and Sudoku Explainer's EP and ED of the path.
pub(crate) struct SerateModel;

impl HumanModel for SerateModel {
    fn model(&self) -> Model {
        Model::Serate
    }
    fn name(&self) -> &'static str {
        "serate"
    }
    fn rate(&self, on: &Rating<'_>, out: &mut Ratings) -> Result<(), Unfinished> {
        let r = on.serate_path().as_ref().map_err(Clone::clone)?;
        out.serate = Some(r.serate);
        out.serate_uses = Some(r.uses_text());
        out.serate_ep = Some(r.ep);
        out.serate_ed = Some(r.ed);
        Ok(())
    }
}

/// The sum of the ratings of every step of the path.
pub(crate) struct FowlerModel;

impl HumanModel for FowlerModel {
    fn model(&self) -> Model {
        Model::Fowler
    }
    fn name(&self) -> &'static str {
        "fowler"
    }
    fn rate(&self, on: &Rating<'_>, out: &mut Ratings) -> Result<(), Unfinished> {
        let r = on.serate_path().as_ref().map_err(Clone::clone)?;
        out.fowler = Some(r.fowler);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::parse_puzzle;
    use crate::human::{RateOptions, rate};

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
            let p = parse_puzzle(line).unwrap();
            let r = rate(&p, &RateOptions::for_models("serate").unwrap()).ratings;
            assert_eq!(
                (r.serate, r.serate_ep, r.serate_ed),
                (Some(er), Some(ep), Some(ed)),
                "{line}"
            );
        }
    }

    /// A full grid has no step: ER, EP and ED are 0, as SE's.
    #[test]
    fn a_full_grid_rates_zero() {
        let p = parse_puzzle(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        let r = rate(&p, &RateOptions::for_models("serate").unwrap()).ratings;
        assert_eq!(
            (r.serate, r.serate_ep, r.serate_ed),
            (Some(0.0), Some(0.0), Some(0.0))
        );
    }
}
