//! The Serate-like and Fowler-like ratings as plug-ins of
//! [`crate::human::rate`]: both read the one lowest-rating-first path of
//! Sudoku Explainer's ratings that [`crate::human::serate`] makes (Pelánek,
//! Tables 1 and 3; `docs/methods.md` §3.7), made once per puzzle for both.

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
