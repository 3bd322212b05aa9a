//! Berthier's ratings as a model (`-m berthier`): the W rating (whips), the
//! B rating (braids), BxB and BxBB of [`crate::berthier`], whose module doc
//! and `docs/methods.md` ("Berthier's ratings") say what each is. A rating
//! that does not apply (W of a T&E(2) puzzle, BxB of a T&E(1) one) or that
//! ran past its budget is null, and `berthier_status` says which and why.

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::berthier::{self, BerthierError, BerthierOptions, BerthierRatings};

/// Berthier's ratings' row: the typed ratings, whose W, B, BxB and BxBB
/// and `berthier_status` line are its metrics.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BerthierRow {
    /// The T&E depth and each rating, or why it is null.
    pub ratings: Option<BerthierRatings>,
    /// Why no rating could be made when the model ran.
    pub why_null: Option<BerthierError>,
}

impl HumanModel for BerthierRow {
    /// Givens alone: CSP-Rules' board is built from the givens.
    fn reads_pencilmarks() -> bool {
        false
    }

    /// Chain-search nodes each rating may visit.
    type Options = u64;
    fn rate(&mut self, on: &Rating<'_>, budget: &u64) {
        let opts = BerthierOptions {
            bxbb: true,
            budget: berthier::Budget { nodes: *budget },
            ..Default::default()
        };
        match berthier::rate_berthier(on.puzzle.cells(), &opts) {
            Ok(r) => self.ratings = Some(r),
            Err(why) => self.why_null = Some(why),
        }
    }
}

impl ModelRow for BerthierRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}
