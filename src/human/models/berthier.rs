//! Berthier's ratings as a model (`-m berthier`): the W rating (whips), the
//! B rating (braids), BxB and BxBB of [`crate::berthier`], whose module doc
//! and `docs/methods.md` ("Berthier's ratings") say what each is. A rating
//! that does not apply (W of a T&E(2) puzzle, BxB of a T&E(1) one) or that
//! ran past its budget is null, and `berthier_status` says which and why.

use super::{HumanModel, Model, Rating};
use crate::berthier::{self, BerthierOptions};
use crate::human::rate::Ratings;

pub(crate) struct BerthierModel;

/// `w=rated b=rated bxb=out_of_range(te1) bxbb=not_run`, with the T&E depth.
fn status_line(r: &berthier::BerthierRatings) -> String {
    let one = |name: &str, x: &berthier::Rating| match x {
        berthier::Rating::OutOfRange { te_depth } => format!("{name}=out_of_range(te{te_depth})"),
        berthier::Rating::AboveMax { max } => format!("{name}=above_max({max})"),
        berthier::Rating::BudgetExceeded { level } => format!("{name}=budget(level {level})"),
        other => format!("{name}={}", other.status()),
    };
    format!(
        "te{} {} {} {} {}",
        r.te_depth,
        one("w", &r.w),
        one("b", &r.b),
        one("bxb", &r.bxb),
        one("bxbb", &r.bxbb)
    )
}

impl HumanModel for BerthierModel {
    fn model(&self) -> Model {
        Model::Berthier
    }
    fn name(&self) -> &'static str {
        "berthier"
    }
    fn rate(&self, on: &Rating<'_>, out: &mut Ratings) -> Result<(), crate::human::Unfinished> {
        let opts = BerthierOptions {
            bxbb: true,
            budget: berthier::Budget {
                nodes: on.opts.berthier_budget,
            },
            ..Default::default()
        };
        let r = berthier::rate_berthier(on.puzzle.cells(), &opts)
            .map_err(|e| crate::human::Unfinished::new(e.to_string()))?;
        out.w_rating = r.w.value();
        out.b_rating = r.b.value();
        out.bxb = r.bxb.value();
        out.bxbb = r.bxbb.value();
        out.berthier_status = Some(status_line(&r));
        Ok(())
    }
}
