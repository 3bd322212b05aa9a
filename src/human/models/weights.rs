//! Technique-weight rating of Xu & Xu ("No Brute-Force" model, §2.2 c,
//! Tables 1 and 3).
//!
//! The puzzle is solved along the simplest-first path of
//! [`crate::human::path::simplest_path`] with the sixteen techniques of the paper
//! (pointing and claiming together form its "intersection removal"). Each
//! application adds the technique's weight from Table 1: the higher
//! "first time" weight for its first use, the "others" weight afterwards (a
//! single placement is one use). Levels follow Table 3: ≤ 72 Easy, ≤ 86
//! Intermediate, ≤ 98 Hard, above Challenging (the table's ranges overlap at
//! their ends; we put each boundary value in the easier level). The weights
//! and cut points are calibrated on 9×9 newspaper puzzles, so other orders get
//! a score but no level. A puzzle the techniques cannot finish is rated
//! "needs search", never given a number.
//!
//! Beside the rating, the **basic reach** (`basic_reach`, ours): the share
//! of the empty cells the basic techniques — singles, naked and hidden
//! pairs, pointing and claiming, the catalogue's first six — fill before
//! they stall (1 when they solve the puzzle). It is the point where a
//! player must reach for a harder technique, and where QQWing's generator
//! starts to guess (its solver has exactly these techniques).

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::Puzzle;
use crate::human::path::simplest_path;
use crate::human::techniques::Technique;
use serde::Serialize;
use std::fmt;

/// Xu & Xu Table 1 weights: (first use, later uses).
pub(crate) fn weight(t: Technique) -> (u32, u32) {
    match t {
        Technique::NakedSingle => (1, 1),
        Technique::HiddenSingle => (2, 2),
        Technique::NakedPair => (5, 3),
        Technique::NakedTriple => (6, 4),
        Technique::NakedQuad => (8, 5),
        Technique::Pointing | Technique::Claiming => (8, 5),
        Technique::HiddenPair => (10, 6),
        Technique::HiddenTriple => (13, 7),
        Technique::HiddenQuad => (16, 8),
        Technique::XWing => (10, 6),
        Technique::Swordfish => (16, 8),
        Technique::Jellyfish => (18, 9),
        Technique::XyWing => (13, 7),
        Technique::XyzWing => (16, 8),
        Technique::WxyzWing => (20, 10),
        Technique::ForcingChain => (24, 12),
    }
}

/// The technique as the paper names it (pointing and claiming share one).
fn class(t: Technique) -> Technique {
    if t == Technique::Claiming {
        Technique::Pointing
    } else {
        t
    }
}

/// The running score of a solving path: Table 1's first-use weight for a
/// technique's first use, its "others" weight afterwards, and the heaviest
/// technique so far (by first-use weight).
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    used: Vec<Technique>,
    /// The score so far.
    pub score: u32,
    /// The heaviest technique used so far; `None` before the first step.
    pub hardest: Option<Technique>,
}

impl Tally {
    /// Adds one use of `t`.
    pub(crate) fn add(&mut self, t: Technique) {
        let c = class(t);
        let (first, later) = weight(c);
        if self.used.contains(&c) {
            self.score += later;
        } else {
            self.score += first;
            self.used.push(c);
        }
        if self
            .hardest
            .is_none_or(|h| (weight(t).0, t) > (weight(h).0, h))
        {
            self.hardest = Some(t);
        }
    }
}

/// Xu & Xu Table 3 levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum WeightLevel {
    /// Score ≤ 72.
    Easy,
    /// Score 73–86.
    Intermediate,
    /// Score 87–98.
    Hard,
    /// Score ≥ 99.
    Challenging,
}

impl WeightLevel {
    /// Level of a score under Xu & Xu Table 3 (shared end points 72 and 86 go to
    /// the easier level).
    pub fn of(score: u32) -> WeightLevel {
        match score {
            0..=72 => WeightLevel::Easy,
            73..=86 => WeightLevel::Intermediate,
            87..=98 => WeightLevel::Hard,
            _ => WeightLevel::Challenging,
        }
    }
}

impl WeightLevel {
    /// The four levels, easiest first.
    pub const ALL: [WeightLevel; 4] = [
        WeightLevel::Easy,
        WeightLevel::Intermediate,
        WeightLevel::Hard,
        WeightLevel::Challenging,
    ];

    /// The level's name, as every output prints it.
    pub const fn name(self) -> &'static str {
        match self {
            WeightLevel::Easy => "Easy",
            WeightLevel::Intermediate => "Intermediate",
            WeightLevel::Hard => "Hard",
            WeightLevel::Challenging => "Challenging",
        }
    }
}

impl fmt::Display for WeightLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A technique-weight rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct WeightsResult {
    /// Sum of the Table 1 weights of every use along the simplest-first path
    /// (first-use weight for a technique's first use, "others" weight afterwards).
    pub score: u32,
    /// `None` for orders other than 3.
    pub level: Option<WeightLevel>,
    /// The heaviest technique used (by first-use weight); `None` if the
    /// puzzle was already full.
    pub hardest: Option<Technique>,
    /// Uses per technique, in catalogue order, unused ones omitted.
    pub uses: Vec<(Technique, usize)>,
}

/// The basic techniques: singles, pairs and intersections.
pub(crate) const BASIC: [Technique; 6] = [
    Technique::NakedSingle,
    Technique::HiddenSingle,
    Technique::NakedPair,
    Technique::Pointing,
    Technique::Claiming,
    Technique::HiddenPair,
];

/// Share of the empty cells the [`BASIC`] techniques fill before they
/// stall, in [0, 1] (1 for a full grid). Their deductions stay valid as
/// candidates shrink, so every order reaches the same board; the
/// simplest-first path is one such order, and it is the full path's prefix
/// up to its first harder technique.
pub(crate) fn basic_reach(puzzle: &Puzzle) -> f64 {
    let start = puzzle.cells().len() - puzzle.givens();
    if start == 0 {
        return 1.0;
    }
    let path = simplest_path(puzzle, &BASIC);
    1.0 - path.end.empty_count() as f64 / start as f64
}

/// Rates a puzzle by technique weights.
pub(crate) fn weights(puzzle: &Puzzle) -> Result<WeightsResult, WeightsNull> {
    let path = simplest_path(puzzle, &Technique::ALL);
    if !path.solved {
        return Err(WeightsNull::NeedsSearch {
            steps: path.steps.len(),
            empty: path.end.empty_count(),
        });
    }
    let mut tally = Tally::default();
    let mut counts: Vec<(Technique, usize)> = Vec::new();
    for a in &path.steps {
        tally.add(a.technique);
        match counts.iter_mut().find(|(t, _)| *t == a.technique) {
            Some((_, n)) => *n += 1,
            None => counts.push((a.technique, 1)),
        }
    }
    counts.sort();
    Ok(WeightsResult {
        score: tally.score,
        level: (puzzle.order() == 3).then(|| WeightLevel::of(tally.score)),
        hardest: tally.hardest,
        uses: counts,
    })
}

/// Why the technique weights have no score (or no level) for a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WeightsNull {
    /// The catalogue cannot finish the puzzle.
    #[error(
        "needs search (stuck after {} with {empty} empty cells)",
        crate::util::counted(*.steps, "step")
    )]
    NeedsSearch {
        /// Steps of the simplest-first path before it stalled.
        steps: usize,
        /// Empty cells where it stalled.
        empty: usize,
    },
    /// Xu & Xu's levels are defined for 9×9 puzzles only.
    #[error("levels are defined for 9×9 only")]
    LevelNotNineByNine,
}

/// The technique weights' row, with the basic reach beside them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WeightsRow {
    /// Xu & Xu technique-weight score: sum of Table 1 weights along the
    /// simplest-first path.
    pub score: Option<u32>,
    /// Xu & Xu Table 3 level of the score (`Easy`, `Intermediate`, `Hard`,
    /// `Challenging`); null for orders other than 9×9.
    pub level: Option<WeightLevel>,
    /// The used technique with the highest first-use weight (serialised by
    /// its name); null when nothing had to be filled.
    pub hardest_technique: Option<Technique>,
    /// First-use weight (Xu & Xu Table 1) of the hardest technique.
    pub hardest_weight: Option<u32>,
    /// Share of the empty cells singles, pairs and intersections fill
    /// before they stall, in [0, 1]; lower is harder.
    pub basic_reach: Option<f64>,
    /// Why the score, or only the level, is null when the model ran.
    pub why_null: Option<WeightsNull>,
}

impl WeightsRow {
    /// The row of a score, its level and the hardest technique used.
    pub(crate) fn of(score: u32, level: Option<WeightLevel>, hardest: Option<Technique>) -> Self {
        WeightsRow {
            score: Some(score),
            level,
            hardest_technique: hardest,
            hardest_weight: hardest.map(|t| weight(t).0),
            basic_reach: None,
            why_null: level.is_none().then_some(WeightsNull::LevelNotNineByNine),
        }
    }
}

impl HumanModel for WeightsRow {
    type Options = ();
    fn rate(&mut self, on: &Rating<'_>, _: &()) {
        let basic_reach = Some(basic_reach(on.puzzle));
        *self = match weights(on.puzzle) {
            Ok(w) => WeightsRow {
                basic_reach,
                ..WeightsRow::of(w.score, w.level, w.hardest)
            },
            Err(why) => WeightsRow {
                basic_reach,
                why_null: Some(why),
                ..WeightsRow::default()
            },
        };
    }
}

impl ModelRow for WeightsRow {
    fn why_null(&self) -> Option<WhyNull> {
        let why = self.why_null?;
        Some(WhyNull {
            level_only: matches!(why, WeightsNull::LevelNotNineByNine),
            text: why.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_values_and_levels() {
        assert_eq!(weight(Technique::ForcingChain), (24, 12));
        assert_eq!(weight(Technique::HiddenPair), (10, 6));
        assert_eq!(weight(Technique::Claiming), weight(Technique::Pointing));
        assert_eq!(WeightLevel::of(72), WeightLevel::Easy);
        assert_eq!(WeightLevel::of(73), WeightLevel::Intermediate);
        assert_eq!(WeightLevel::of(86), WeightLevel::Intermediate);
        assert_eq!(WeightLevel::of(98), WeightLevel::Hard);
        assert_eq!(WeightLevel::of(99), WeightLevel::Challenging);
    }
}
