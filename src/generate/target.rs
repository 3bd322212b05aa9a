//! Targets on puzzle metrics and the search that reaches them.
//!
//! A target is `FIELD OP VALUE` with `OP` one of `= != < <= > >=`; several
//! targets are ANDed. `FIELD` is a field of the rating row
//! ([`crate::human::RateRow`], e.g. `oracle_level`, `weights_score`,
//! `nishio4`, `hsolve`), a relaxation summary field
//! ([`crate::relax::RelaxReport`]: `mean_fixed`, `mean_solutions`,
//! `median_solutions`, `mean_extra`, `p_unique`, at `k` edges over a number
//! of samples), the calibrated score ([`crate::score`]: `score`,
//! `score_level` on the default four-level scale, `se_equivalent`) or
//! `givens`. Levels compare by rank (`oracle_level>=Challenging`:
//! Cinch < Confusing < Challenging < Crazy; Easy < Intermediate < Hard <
//! Challenging for `weights_level`; Easy < Medium < Hard < Expert for
//! `score_level`); other text and booleans take `=` and `!=`.
//! Only the models a target names are run.
//!
//! [`distance`] says how far a puzzle is from the targets: 0 when all hold,
//! else the sum over the missed ones of the gap scaled by `max(|value|, 1)`
//! (1 per missed text or boolean target, and [`MISSING`] when the model
//! could not rate the puzzle); a missed level is measured on the score
//! behind it in widths of a middle level (`level_gap`), or in rank steps
//! when there is none. With `GenerateOptions::minimal`, a candidate that is
//! not minimal is reduced to a minimal one, or refused at [`NOT_MINIMAL`].
//!
//! [`search`] is generate-and-test plus a local search: every fourth
//! attempt (and the first) is a fresh puzzle of the method, the others
//! mutate the closest puzzle so far — move, add or remove a given (a whole
//! symmetric orbit) keeping the solution unique — and a mutant is accepted
//! when it is closer, or as close (a plateau move: a minimal puzzle loses a
//! given only after a move has made one redundant). When every missed target
//! says which way to go ([`need`]: a score too high, a level too hard, too
//! many givens), the change follows it: a given added to make the puzzle
//! easier, removed or moved to make it harder (only moved when the puzzle is
//! minimal). A move that loses uniqueness adds back a given that rules out
//! every other solution (found by enumerating up to `MOVE_SOLUTIONS`).
//!
//! A fresh minimal puzzle that is too hard is walked back: the puzzles on
//! the way from its solution grid to it (the grid without the first `k`
//! removed givens, each unique) are rated in a binary search for the step
//! where it becomes too hard, and the first one inside the targets is a hit
//! (most minimal puzzles that miss `weights_level=Hard` overshoot it, and a
//! fifth of those pass through it on the way). Such a puzzle is not minimal,
//! so there is no walk with `--minimal`; with a walk, every second attempt
//! is fresh. With targets that only bound the technique-weight score from
//! above, the rating stops once the score is past them
//! ([`super::bounded`]); such a miss is rated in full if it is returned.
//!
//! A level alone is pure generate-and-test, as both papers describe. The
//! search always ends: after `max_tries` attempts (fresh puzzles, mutations
//! and walked-back puzzles), at the time limit, or on reaching the targets;
//! it returns the closest puzzle.

use super::bounded::{Capped, oracle_row, weights_capped, weights_row};
use super::minimal::{is_minimal, minimize};
use super::xu::techniques_solve;
use super::{Candidate, GenerateOptions, Method, Symmetry, make_traced};
use crate::bitset::sudoku::Solver;
use crate::graph::derive_seed;
use crate::grid::{Geometry, Puzzle, Solution};
use crate::human::{Model, RateOptions, RateRow, rate};
use crate::relax::{RelaxOptions, relax};
use crate::seed::SeededRng;
use rand::Rng;
use rand::SeedableRng;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::time::Instant;

/// Solutions a move enumerates after removing a given, to find the empty
/// cells that rule out all of them.
const MOVE_SOLUTIONS: u64 = 16;

/// Distance charged for a target whose model could not rate the puzzle.
pub const MISSING: f64 = 100.0;

/// Distance of a candidate that is not minimal when minimal puzzles are
/// asked for and cannot be reduced to one (symmetric or Xu puzzles; it is
/// not rated).
pub const NOT_MINIMAL: f64 = 1000.0;

const ORACLE_LEVELS: [&str; 4] = ["Cinch", "Confusing", "Challenging", "Crazy"];
const WEIGHT_LEVELS: [&str; 4] = ["Easy", "Intermediate", "Hard", "Challenging"];
/// `crate::score::scale_names(4)` (checked by a test).
const SCORE_LEVELS: [&str; 4] = ["Easy", "Medium", "Hard", "Expert"];
const SCORE_FIELDS: [&str; 3] = ["score", "score_level", "se_equivalent"];
const RELAX_FIELDS: [&str; 5] = [
    "mean_fixed",
    "mean_solutions",
    "median_solutions",
    "mean_extra",
    "p_unique",
];

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Op {
    /// `=`: equal (levels by rank, text case-insensitively).
    #[serde(rename = "=")]
    Eq,
    /// `!=`: not equal.
    #[serde(rename = "!=")]
    Ne,
    /// `<`: strictly below.
    #[serde(rename = "<")]
    Lt,
    /// `<=`: at most.
    #[serde(rename = "<=")]
    Le,
    /// `>`: strictly above.
    #[serde(rename = ">")]
    Gt,
    /// `>=`: at least.
    #[serde(rename = ">=")]
    Ge,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        })
    }
}

/// The value a target compares with.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TargetValue {
    /// A finite number, for numeric fields (scores, counts, `givens`).
    Number(f64),
    /// A level, by rank in its field's scale (0 = easiest: Cinch, Easy).
    Level(usize),
    /// `true` or `false`, for the `solved_by_*` fields.
    Bool(bool),
    /// Text, for `hardest_technique` (compared case-insensitively).
    Text(String),
}

/// One `FIELD OP VALUE` target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    /// The field compared: a rating, relaxation or `givens` field name.
    pub field: String,
    /// The comparison.
    pub op: Op,
    /// The value the field is compared with.
    pub value: TargetValue,
    /// The text it was parsed from.
    pub text: String,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A target that cannot be parsed or evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// The text is not `FIELD OP VALUE`; holds the text.
    #[error("target {0:?}: expected FIELD OP VALUE with OP one of = != < <= > >=")]
    Syntax(String),
    /// The field is not a known rating, relaxation or `givens` field.
    #[error("target {target:?}: unknown field {field:?}; known fields: {}", .known.join(", "))]
    UnknownField {
        /// The target text.
        target: String,
        /// The unknown field name.
        field: String,
        /// Every field a target may name, sorted.
        known: Vec<String>,
    },
    /// The value does not fit the field's kind.
    #[error("target {target:?}: {field} takes {expected}, not {value:?}")]
    Value {
        /// The target text.
        target: String,
        /// The field name.
        field: String,
        /// What the field takes, in words.
        expected: String,
        /// The value given.
        value: String,
    },
    /// An ordering operator on a text or boolean field.
    #[error("target {target:?}: {field} compares only with = and !=")]
    Order {
        /// The target text.
        target: String,
        /// The field name.
        field: String,
    },
    /// A score target at an order other than 9×9 (the score is calibrated
    /// on 9×9 puzzles); holds the order.
    #[error("score targets need 9×9 puzzles (order 3), not order {0}")]
    ScoreOrder(usize),
    /// A metric (the pseudo-generator's) that is not a numeric field.
    #[error("metric {field:?}: expected a numeric field, one of {}", .known.join(", "))]
    Metric {
        /// The field asked for.
        field: String,
        /// The numeric fields, sorted.
        known: Vec<String>,
    },
    /// Relaxation targets with an impossible `k` or no samples.
    #[error(
        "relaxation targets need 1 <= k <= {edges} and samples >= 1 (got k = {k}, samples = {samples})"
    )]
    Relax {
        /// Edges to remove per relaxation (`--k`).
        k: usize,
        /// Relaxations per puzzle (`--samples`).
        samples: usize,
        /// Edges of the puzzle graph (810 for 9×9), the largest valid `k`.
        edges: usize,
    },
}

/// What kind of value a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Bool,
    Text,
    Levels(&'static [&'static str; 4]),
}

/// Every field a target may name, sorted.
pub fn known_fields() -> Vec<String> {
    let mut out: Vec<String> = rate_fields();
    out.extend(RELAX_FIELDS.iter().map(|s| s.to_string()));
    out.extend(SCORE_FIELDS.iter().map(|s| s.to_string()));
    out.sort();
    out
}

/// The metric fields of the rating row (without the puzzle, label and status).
fn rate_fields() -> Vec<String> {
    match serde_json::to_value(RateRow::default()) {
        Ok(Value::Object(m)) => m
            .keys()
            .filter(|k| !matches!(k.as_str(), "puzzle" | "label" | "status"))
            .cloned()
            .collect(),
        _ => Vec::new(),
    }
}

fn kind(field: &str) -> Kind {
    match field {
        "oracle_level" => Kind::Levels(&ORACLE_LEVELS),
        "weights_level" => Kind::Levels(&WEIGHT_LEVELS),
        "score_level" => Kind::Levels(&SCORE_LEVELS),
        "hardest_technique" => Kind::Text,
        f if f.starts_with("solved_by_") => Kind::Bool,
        _ => Kind::Number,
    }
}

/// The model that computes a rating field (`None` for `givens`, the
/// relaxation and the score fields).
fn model_of(field: &str) -> Option<Model> {
    let f = field;
    if f == "givens" || RELAX_FIELDS.contains(&f) || SCORE_FIELDS.contains(&f) {
        None
    } else if f == "backtracks" {
        Some(Model::Baseline)
    } else if f.starts_with("sisus") {
        Some(Model::Sisus)
    } else if f.starts_with("oracle") {
        Some(Model::Oracle)
    } else if f.starts_with("hsolve") {
        Some(Model::Hsolve)
    } else if f.starts_with("nishio") || f.starts_with("solved_by_") {
        Some(Model::Nishio)
    } else {
        Some(Model::Weights)
    }
}

/// Parses one `FIELD OP VALUE` target.
pub fn parse_target(text: &str) -> Result<Target, TargetError> {
    let syntax = || TargetError::Syntax(text.to_string());
    let at = text.find(['=', '!', '<', '>']).ok_or_else(syntax)?;
    let field = text[..at].trim().to_string();
    let rest = &text[at..];
    let (op, len) = [
        ("<=", Op::Le),
        (">=", Op::Ge),
        ("!=", Op::Ne),
        ("=", Op::Eq),
        ("<", Op::Lt),
        (">", Op::Gt),
    ]
    .iter()
    .find(|(s, _)| rest.starts_with(s))
    .map(|&(s, op)| (op, s.len()))
    .ok_or_else(syntax)?;
    let raw = rest[len..].trim();
    if field.is_empty() || raw.is_empty() {
        return Err(syntax());
    }
    let known = known_fields();
    if !known.contains(&field) {
        return Err(TargetError::UnknownField {
            target: text.to_string(),
            field,
            known,
        });
    }
    let bad = |expected: &str| TargetError::Value {
        target: text.to_string(),
        field: field.clone(),
        expected: expected.to_string(),
        value: raw.to_string(),
    };
    let k = kind(&field);
    let value = match k {
        Kind::Number => TargetValue::Number(
            raw.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad("a number"))?,
        ),
        Kind::Bool => TargetValue::Bool(raw.parse::<bool>().map_err(|_| bad("true or false"))?),
        Kind::Text => TargetValue::Text(raw.to_string()),
        Kind::Levels(levels) => TargetValue::Level(
            levels
                .iter()
                .position(|l| l.eq_ignore_ascii_case(raw))
                .ok_or_else(|| bad(&format!("one of {}", levels.join(", "))))?,
        ),
    };
    if matches!(k, Kind::Bool | Kind::Text) && !matches!(op, Op::Eq | Op::Ne) {
        return Err(TargetError::Order {
            target: text.to_string(),
            field,
        });
    }
    Ok(Target {
        field,
        op,
        value,
        text: text.trim().to_string(),
    })
}

/// Checks that `field` is a numeric field a target may name (the
/// pseudo-generator's `--metric`).
pub fn numeric_field(field: &str) -> Result<(), TargetError> {
    let known = known_fields();
    if known.iter().any(|k| k == field) && kind(field) == Kind::Number {
        return Ok(());
    }
    Err(TargetError::Metric {
        field: field.to_string(),
        known: known
            .into_iter()
            .filter(|k| kind(k) == Kind::Number)
            .collect(),
    })
}

/// Parses several targets (ANDed).
pub fn parse_targets<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Target>, TargetError> {
    texts.iter().map(|t| parse_target(t.as_ref())).collect()
}

/// How far `actual` is from meeting one target (0 when it holds).
pub fn target_distance(t: &Target, actual: &Value) -> f64 {
    let numeric = |v: f64, want: f64, scale: f64| {
        let gap = (v - want) / scale;
        // A strict bound missed at equality still counts as a miss.
        let strict = 1e-3;
        match t.op {
            Op::Eq => gap.abs(),
            Op::Ne => f64::from(v == want),
            Op::Lt if v < want => 0.0,
            Op::Lt => gap + strict,
            Op::Le => gap.max(0.0),
            Op::Gt if v > want => 0.0,
            Op::Gt => -gap + strict,
            Op::Ge => (-gap).max(0.0),
        }
    };
    let equal = |same: bool| match t.op {
        Op::Eq => f64::from(!same),
        _ => f64::from(same),
    };
    match (&t.value, actual) {
        (TargetValue::Number(want), Value::Number(v)) => match v.as_f64() {
            Some(v) => numeric(v, *want, want.abs().max(1.0)),
            None => MISSING,
        },
        (TargetValue::Level(want), Value::String(s)) => {
            let levels = match kind(&t.field) {
                Kind::Levels(l) => l,
                _ => return MISSING,
            };
            match levels.iter().position(|l| l == s) {
                Some(rank) => numeric(rank as f64, *want as f64, 1.0),
                None => MISSING,
            }
        }
        (TargetValue::Bool(want), Value::Bool(b)) => equal(want == b),
        (TargetValue::Text(want), Value::String(s)) => equal(want.eq_ignore_ascii_case(s)),
        _ => MISSING,
    }
}

/// The score behind a level field.
struct LevelScale {
    /// The score's field.
    field: &'static str,
    /// The score range of each level, inclusive (the oracle's and the
    /// score's upper ends are exclusive cut points, which makes no
    /// difference to a distance).
    ranges: [(f64, f64); 4],
    /// The width of a middle level, the unit of [`level_gap`].
    unit: f64,
}

fn level_scale(field: &str) -> Option<LevelScale> {
    const INF: f64 = f64::INFINITY;
    match field {
        // The shipped score's four-level scale (quartiles of its reference
        // puzzles).
        "score_level" => {
            let c = crate::score::ScoreModel::shipped().full.level_cuts(4);
            Some(LevelScale {
                field: "score",
                ranges: [(-INF, c[0]), (c[0], c[1]), (c[1], c[2]), (c[2], INF)],
                unit: c[2] - c[1],
            })
        }
        // Xu & Xu Table 3 (crate::human::weights::WeightLevel::of).
        "weights_level" => Some(LevelScale {
            field: "weights_score",
            ranges: [(-INF, 72.0), (73.0, 86.0), (87.0, 98.0), (99.0, INF)],
            unit: 12.0,
        }),
        // Fletcher et al. cut points (crate::human::oracle::OracleOptions).
        "oracle_level" => Some(LevelScale {
            field: "oracle_score",
            ranges: [(-INF, 0.18), (0.18, 0.6), (0.6, 0.8), (0.8, INF)],
            unit: 0.2,
        }),
        _ => None,
    }
}

/// Distance of a missed level target measured on the score behind the
/// level: the gap from `score` to the nearest level the target accepts, in
/// widths of a middle level (so one level off is about 1, as a rank step,
/// but a puzzle just below the range is nearer than one far below it, which
/// guides the local search). `None` for fields without a score.
fn level_gap(t: &Target, score: f64) -> Option<f64> {
    let TargetValue::Level(want) = t.value else {
        return None;
    };
    let LevelScale { ranges, unit, .. } = level_scale(&t.field)?;
    let accepts = |rank: usize| {
        let (r, w) = (rank as f64, want as f64);
        match t.op {
            Op::Eq => r == w,
            Op::Ne => r != w,
            Op::Lt => r < w,
            Op::Le => r <= w,
            Op::Gt => r > w,
            Op::Ge => r >= w,
        }
    };
    let gap = (0..4)
        .filter(|&r| accepts(r))
        .map(|r| {
            let (lo, hi) = ranges[r];
            (lo - score).max(score - hi).max(0.0)
        })
        .fold(f64::INFINITY, f64::min);
    // A miss on the cut point itself still counts (the oracle's upper ends
    // are exclusive).
    Some(if gap == 0.0 { 1e-3 } else { gap / unit })
}

/// Sum of the distances to every target. `metrics` holds the value of each
/// target field; for a missed level target it may also hold the score
/// behind the level (`weights_score`, `oracle_score`), which then measures
/// the miss (`level_gap`); otherwise the miss counts in rank steps.
pub fn distance(targets: &[Target], metrics: &BTreeMap<String, Value>) -> f64 {
    targets
        .iter()
        .map(|t| {
            let d = target_distance(t, metrics.get(&t.field).unwrap_or(&Value::Null));
            let score = level_scale(&t.field)
                .and_then(|l| metrics.get(l.field))
                .and_then(Value::as_f64);
            match score {
                Some(s) if d > 0.0 && d < MISSING => level_gap(t, s).unwrap_or(d),
                _ => d,
            }
        })
        // `Sum` for floats starts at -0.0, which would print as "-0".
        .fold(0.0, |acc, d| acc + d)
}

/// Which way a puzzle must move to meet the targets it misses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Easier (e.g. a lower score, a lower level, more givens).
    Easier,
    /// Harder.
    Harder,
}

/// Whether a higher value of `field` means a harder puzzle: true for the
/// ratings, levels and scores, false for `givens` and SiSuS dependency
/// (fewer possibilities per step is harder); `None` where there is no such
/// reading (spreads, relaxation summaries, text and booleans).
fn higher_is_harder(field: &str) -> Option<bool> {
    if field == "givens" || field == "sisus_dependency" {
        return Some(false);
    }
    if field.ends_with("_sd") || RELAX_FIELDS.contains(&field) {
        return None;
    }
    match kind(field) {
        Kind::Number | Kind::Levels(_) => Some(true),
        Kind::Bool | Kind::Text => None,
    }
}

/// The way a puzzle with these target values must move, when every missed
/// target agrees on it; `None` when one has no direction or they disagree.
pub fn need(targets: &[Target], metrics: &BTreeMap<String, Value>) -> Option<Need> {
    let mut out = None;
    for t in targets {
        let actual = metrics.get(&t.field).unwrap_or(&Value::Null);
        if target_distance(t, actual) == 0.0 {
            continue;
        }
        let (value, want) = match (&t.value, actual) {
            (TargetValue::Number(w), Value::Number(v)) => (v.as_f64()?, *w),
            (TargetValue::Level(w), Value::String(s)) => match kind(&t.field) {
                Kind::Levels(levels) => (levels.iter().position(|l| l == s)? as f64, *w as f64),
                _ => return None,
            },
            _ => return None,
        };
        let up = match t.op {
            Op::Ge | Op::Gt => true,
            Op::Le | Op::Lt => false,
            Op::Eq => value < want,
            Op::Ne => return None,
        };
        let n = if up == higher_is_harder(&t.field)? {
            Need::Harder
        } else {
            Need::Easier
        };
        if out.is_some_and(|o| o != n) {
            return None;
        }
        out = Some(n);
    }
    out
}

/// Rates candidates for the targets and the method's own score.
#[derive(Debug, Clone)]
pub struct Evaluator {
    targets: Vec<Target>,
    /// Fields measured besides the targets' (the pseudo-generator's metric).
    tracked: Vec<String>,
    method: Method,
    rate: Option<RateOptions>,
    relax: Option<RelaxOptions>,
    /// A field needs the calibrated score.
    score: bool,
    /// The largest technique-weight score the targets accept, when the
    /// weights model alone decides them: the rating may stop above it
    /// ([`super::bounded`]).
    weights_cap: Option<u32>,
}

/// The largest `weights_score` every target accepts, when the targets name
/// only `weights_score`, `weights_level` and `givens` and at least one of
/// them bounds the score from above; `None` otherwise.
fn weights_cap(targets: &[Target]) -> Option<u32> {
    let mut cap: Option<u32> = None;
    for t in targets {
        let this = match (t.field.as_str(), &t.value) {
            ("givens", _) => None,
            ("weights_score", TargetValue::Number(v)) => match t.op {
                Op::Le | Op::Eq => Some(v.floor()),
                Op::Lt => Some(v.ceil() - 1.0),
                _ => None,
            }
            // Saturating: a negative bound caps at 0.
            .map(|c| c as u32),
            ("weights_level", TargetValue::Level(want)) => {
                let scale = level_scale("weights_level")?;
                let accepted = (0..4usize).filter(|&r| match t.op {
                    Op::Eq => r == *want,
                    Op::Ne => r != *want,
                    Op::Lt => r < *want,
                    Op::Le => r <= *want,
                    Op::Gt => r > *want,
                    Op::Ge => r >= *want,
                });
                match accepted.max() {
                    Some(r) if r < 3 => Some(scale.ranges[r].1 as u32),
                    _ => None,
                }
            }
            _ => return None,
        };
        if let Some(c) = this {
            cap = Some(cap.map_or(c, |old: u32| old.min(c)));
        }
    }
    cap
}

impl Evaluator {
    /// The models and relaxation the targets and the method need.
    pub fn new(opts: &GenerateOptions, targets: &[Target]) -> Result<Evaluator, TargetError> {
        let tracked = if opts.method == Method::Pseudo {
            numeric_field(&opts.metric)?;
            vec![opts.metric.clone()]
        } else {
            Vec::new()
        };
        let fields: Vec<&str> = targets
            .iter()
            .map(|t| t.field.as_str())
            .chain(tracked.iter().map(String::as_str))
            .collect();
        let mut models: BTreeSet<Model> = fields.iter().filter_map(|f| model_of(f)).collect();
        match opts.method {
            Method::Fletcher => models.insert(Model::Oracle),
            Method::Xu => models.insert(Model::Weights),
            Method::Chang => models.insert(Model::Hsolve),
            Method::Pseudo | Method::Minimal => false,
        };
        let rate = (!models.is_empty()).then(|| RateOptions {
            models,
            ..RateOptions::default()
        });
        let relax = if fields.iter().any(|f| RELAX_FIELDS.contains(f)) {
            let edges = Geometry::of(opts.order).edges().len();
            if opts.relax_k == 0 || opts.relax_k > edges || opts.relax_samples == 0 {
                return Err(TargetError::Relax {
                    k: opts.relax_k,
                    samples: opts.relax_samples,
                    edges,
                });
            }
            Some(RelaxOptions {
                k: opts.relax_k,
                samples: opts.relax_samples,
                verify: 0,
                ..RelaxOptions::default()
            })
        } else {
            None
        };
        let score = fields.iter().any(|f| SCORE_FIELDS.contains(f));
        if score && opts.order != 3 {
            return Err(TargetError::ScoreOrder(opts.order));
        }
        let weights_only = rate
            .as_ref()
            .is_some_and(|r| r.models.len() == 1 && r.models.contains(&Model::Weights));
        let weights_cap = (weights_only && tracked.is_empty() && opts.order == 3)
            .then(|| weights_cap(targets))
            .flatten();
        Ok(Evaluator {
            targets: targets.to_vec(),
            tracked,
            method: opts.method,
            rate,
            relax,
            score,
            weights_cap,
        })
    }

    /// True when there are targets to reach.
    pub fn has_targets(&self) -> bool {
        !self.targets.is_empty()
    }

    /// The rating row (when a model is needed), the value of every target
    /// field and tracked field, and the distance to the targets.
    pub fn evaluate(&self, p: &Puzzle) -> (Option<RateRow>, BTreeMap<String, Value>, f64) {
        let (row, metrics, d, _) = self.rate_and_measure(p, None);
        (row, metrics, d)
    }

    /// [`Evaluator::evaluate`] for the search, whose candidates are unique
    /// puzzles: the rating may stop once the targets are decided to be
    /// missed ([`super::bounded`]). The flag says whether the row is the
    /// full one; a cut row holds lower bounds, and its distance, a lower
    /// bound of the true one, is above 0.
    ///
    /// The oracle model alone rates the candidate from its known solution,
    /// without the rater's uniqueness search (the row is the same).
    pub fn screen(&self, c: &Candidate) -> (Option<RateRow>, BTreeMap<String, Value>, f64, bool) {
        self.rate_and_measure(&c.puzzle, Some(&c.solution))
    }

    fn rate_and_measure(
        &self,
        p: &Puzzle,
        known: Option<&Solution>,
    ) -> (Option<RateRow>, BTreeMap<String, Value>, f64, bool) {
        let mut exact = true;
        let only = |m: Model| {
            self.rate
                .as_ref()
                .is_some_and(|r| r.models.len() == 1 && r.models.contains(&m))
        };
        let row = self.rate.as_ref().map(|o| match (self.weights_cap, known) {
            (_, Some(solution)) if only(Model::Oracle) => {
                oracle_row(p, solution, &o.oracle, o.seed)
            }
            (Some(cap), Some(_)) => match weights_capped(p, cap) {
                Capped::Score(s, hardest) => weights_row(p, s, hardest),
                Capped::Above(bound) => {
                    exact = false;
                    weights_row(p, bound, None)
                }
                Capped::Stuck => rate(p, o),
            },
            _ => rate(p, o),
        });
        let row_value = row
            .as_ref()
            .and_then(|r| serde_json::to_value(r).ok())
            .unwrap_or(Value::Null);
        let report = self
            .relax
            .as_ref()
            .and_then(|o| relax(p, o).ok())
            .map(|(r, _)| r);
        let report_value = report
            .and_then(|r| serde_json::to_value(r).ok())
            .unwrap_or(Value::Null);
        let score_value = self
            .score
            .then(|| crate::score::score(p, crate::score::ScoreOptions::shipped()).ok())
            .flatten()
            .and_then(|s| serde_json::to_value(s.score).ok())
            .unwrap_or(Value::Null);
        let mut metrics = BTreeMap::new();
        let fields = self.targets.iter().map(|t| &t.field).chain(&self.tracked);
        for field in fields {
            let v = if field == "givens" {
                Value::from(p.givens())
            } else if RELAX_FIELDS.contains(&field.as_str()) {
                report_value.get(field).cloned().unwrap_or(Value::Null)
            } else if SCORE_FIELDS.contains(&field.as_str()) {
                score_value.get(field).cloned().unwrap_or(Value::Null)
            } else {
                row_value.get(field).cloned().unwrap_or(Value::Null)
            };
            metrics.insert(field.clone(), v);
        }
        // The scores behind level targets measure their misses.
        let mut with_scores = metrics.clone();
        for t in &self.targets {
            if let Some(l) = level_scale(&t.field)
                && let Some(v) = row_value.get(l.field).or(score_value.get(l.field))
            {
                with_scores.insert(l.field.to_string(), v.clone());
            }
        }
        let d = distance(&self.targets, &with_scores);
        (row, metrics, d, exact)
    }

    /// The method's level and score from a rating row: the oracle model's
    /// for Fletcher, the technique weights' for Xu.
    pub fn method_rating(&self, row: &Option<RateRow>) -> (Option<String>, Option<f64>) {
        let Some(r) = row else {
            return (None, None);
        };
        match self.method {
            Method::Fletcher => (r.ratings.oracle_level.clone(), r.ratings.oracle_score),
            Method::Xu => (
                r.ratings.weights_level.clone(),
                r.ratings.weights_score.map(f64::from),
            ),
            Method::Pseudo => (None, r.ratings.hsolve),
            Method::Chang => (
                r.ratings
                    .hsolve
                    .map(|h| super::chang::level_of(h).to_string()),
                r.ratings.hsolve,
            ),
            Method::Minimal => (None, None),
        }
    }
}

/// The outcome of a search for one puzzle.
#[derive(Debug, Clone)]
pub struct Found {
    /// The closest puzzle found, with its solution.
    pub candidate: Candidate,
    /// The method guarantees the candidate is minimal.
    pub minimal_known: bool,
    /// Its rating row (`None` when no model is needed).
    pub row: Option<RateRow>,
    /// The value of every target field, by field name.
    pub metrics: BTreeMap<String, Value>,
    /// Its distance to the targets (0 when all are met; see [`distance`]).
    pub distance: f64,
    /// Attempts made: fresh puzzles plus mutations, the first included.
    pub attempts: usize,
    /// Local-search mutations tried.
    pub mutations: usize,
    /// Mutations accepted (closer or as close as the best so far).
    pub accepted: usize,
}

/// One rated candidate of the search.
struct Judged {
    candidate: Candidate,
    minimal_known: bool,
    row: Option<RateRow>,
    metrics: BTreeMap<String, Value>,
    distance: f64,
    /// The row is the full one (not cut by [`Evaluator::screen`]).
    exact: bool,
}

/// Searches for a puzzle meeting the evaluator's targets (see the module
/// doc); attempt `a` draws from `derive_seed(seed, a)`.
pub fn search(
    opts: &GenerateOptions,
    ev: &Evaluator,
    seed: u64,
    deadline: Option<Instant>,
) -> Found {
    // With `opts.minimal`, a candidate that is not minimal is reduced to a
    // minimal one (`minimize`, seeded by the attempt) where that keeps the
    // method's promises, else refused without being rated.
    let judge = |candidate: Candidate, minimal_known: bool, s: u64| {
        let (candidate, minimal_known) =
            if !opts.minimal || minimal_known || is_minimal(&candidate.puzzle, &candidate.solution)
            {
                (candidate, minimal_known)
            } else if opts.symmetry == Symmetry::None && opts.method != Method::Xu {
                (minimize(&candidate, &mut SeededRng::seed_from_u64(s)), true)
            } else {
                return Judged {
                    candidate,
                    minimal_known: false,
                    row: None,
                    metrics: BTreeMap::new(),
                    distance: NOT_MINIMAL,
                    exact: true,
                };
            };
        let (row, metrics, distance, exact) = ev.screen(&candidate);
        Judged {
            candidate,
            minimal_known,
            row,
            metrics,
            distance,
            exact,
        }
    };
    let mut best: Option<(Found, bool)> = None;
    // Keeps `j` when it is closer than the best so far, or as close and a
    // mutant of it (a minimal puzzle can lose a given only after a move has
    // made one redundant).
    let consider = |best: &mut Option<(Found, bool)>, j: Judged, mutant: bool| {
        let Some((found, exact)) = best else {
            *best = Some((
                Found {
                    candidate: j.candidate,
                    minimal_known: j.minimal_known,
                    row: j.row,
                    metrics: j.metrics,
                    distance: j.distance,
                    attempts: 1,
                    mutations: 0,
                    accepted: 0,
                },
                j.exact,
            ));
            return;
        };
        if j.distance < found.distance || (mutant && j.distance == found.distance) {
            found.accepted += usize::from(mutant);
            found.candidate = j.candidate;
            found.minimal_known = j.minimal_known;
            found.row = j.row;
            found.metrics = j.metrics;
            found.distance = j.distance;
            *exact = j.exact;
        }
    };
    let local = !opts.targets.is_empty();
    let side = opts.order * opts.order;
    let orbits = opts.symmetry.orbits_cached(side);
    let mut solver = Solver::new(opts.order);
    let mut attempts = 0;
    let done = |best: &Option<(Found, bool)>, attempts: usize| {
        best.as_ref().is_some_and(|(f, _)| f.distance == 0.0)
            || attempts >= opts.max_tries.max(1)
            || (attempts > 0 && deadline.is_some_and(|d| Instant::now() >= d))
    };
    let mut mutations = 0;
    // A fresh puzzle that can be walked back is worth more: one attempt in
    // two is fresh then, else one in four.
    let walk = local && matches!(opts.method, Method::Minimal | Method::Chang) && !opts.minimal;
    let every = if walk { 2 } else { 4 };
    while !done(&best, attempts) {
        let a = attempts;
        attempts += 1;
        let s = derive_seed(seed, a as u64);
        let fresh = best.is_none() || !local || a % every == 0;
        if !fresh {
            mutations += 1;
            let Some((found, _)) = &best else { continue };
            let mut rng = SeededRng::seed_from_u64(s);
            let need = need(&ev.targets, &found.metrics);
            if let Some(c) = mutate(
                &found.candidate,
                opts,
                &mut solver,
                &mut rng,
                need,
                found.minimal_known,
            ) {
                let j = judge(c, false, s);
                consider(&mut best, j, true);
            }
            continue;
        }
        let (candidate, minimal_known, removed) = make_traced(opts, s);
        let j = judge(candidate, minimal_known, s);
        let too_hard = j.distance > 0.0 && need(&ev.targets, &j.metrics) == Some(Need::Easier);
        let solution = j.candidate.solution.clone();
        consider(&mut best, j, false);
        if !too_hard || !walk || removed.is_empty() {
            continue;
        }
        // Too hard: walk back along the removal sequence (binary search for
        // the step where the puzzle becomes too hard; every prefix is unique).
        let (mut easy, mut hard) = (0, removed.len());
        while hard - easy > 1 && !done(&best, attempts) {
            let mid = (easy + hard) / 2;
            attempts += 1;
            let mut values = solution.cells().to_vec();
            for &o in &removed[..mid] {
                for &cell in &orbits[o] {
                    values[cell] = 0;
                }
            }
            let Ok(puzzle) = Puzzle::from_cells(opts.order, values) else {
                break;
            };
            let prefix = Candidate {
                puzzle,
                solution: solution.clone(),
            };
            let j = judge(prefix, false, s);
            match need(&ev.targets, &j.metrics) {
                _ if j.distance == 0.0 => {}
                Some(Need::Easier) => hard = mid,
                Some(Need::Harder) => easy = mid,
                None => hard = easy,
            }
            consider(&mut best, j, false);
        }
    }
    let Some((mut best, exact)) = best else {
        unreachable!("the loop makes at least one attempt")
    };
    best.attempts = attempts;
    best.mutations = mutations;
    if !exact {
        // A miss whose rating stopped early: its row and distance are
        // reported in full.
        (best.row, best.metrics, best.distance) = ev.evaluate(&best.candidate.puzzle);
    }
    best
}

/// A mutant of `c` with the same unique solution: a symmetric orbit of
/// givens removed, an orbit of empty cells given their solution values, or
/// a move (both). A move whose removal lets in other solutions adds an
/// orbit where every one of them differs from the solution, so that all are
/// ruled out again (up to `MOVE_SOLUTIONS` are enumerated; with that many,
/// uniqueness is checked after). `None` when no orbit does, the change
/// loses uniqueness (or, for Xu's method, no longer falls to the
/// techniques). The change is drawn uniformly, or by `need`: adding a
/// given makes a puzzle easier, removing or moving one can make it harder
/// (only moving one when `c` is known to be minimal, as no given of it can
/// be removed alone).
pub fn mutate(
    c: &Candidate,
    opts: &GenerateOptions,
    solver: &mut Solver,
    rng: &mut impl Rng,
    need: Option<Need>,
    minimal: bool,
) -> Option<Candidate> {
    let side = opts.order * opts.order;
    let orbits = opts.symmetry.orbits_cached(side);
    let solution = c.solution.cells();
    let mut values = c.puzzle.cells().to_vec();
    let (given, empty): (Vec<&Vec<usize>>, Vec<&Vec<usize>>) =
        orbits.iter().partition(|o| values[o[0]] != 0);
    let pick = |list: &[&Vec<usize>], rng: &mut dyn rand::RngCore| -> Option<Vec<usize>> {
        (!list.is_empty()).then(|| list[rng.gen_range(0..list.len())].clone())
    };
    let fill = |values: &mut [u8], orbit: &[usize]| {
        for &cell in orbit {
            values[cell] = solution[cell];
        }
    };
    let change = match need {
        None => rng.gen_range(0..3),
        Some(Need::Easier) => 1,
        Some(Need::Harder) if minimal => 2,
        Some(Need::Harder) => 2 * rng.gen_range(0..2),
    };
    match change {
        0 => {
            let o = pick(&given, rng)?;
            for &cell in &o {
                values[cell] = 0;
            }
            if solver.differs_at(&values, solution, &o) {
                return None;
            }
        }
        1 => fill(&mut values, &pick(&empty, rng)?),
        _ => {
            let o = pick(&given, rng)?;
            for &cell in &o {
                values[cell] = 0;
            }
            if !solver.differs_at(&values, solution, &o) {
                fill(&mut values, &pick(&empty, rng)?);
            } else {
                // The orbits that rule out every other solution (all of them
                // when there are fewer than the cap, else checked after).
                let without = Puzzle::from_cells(opts.order, values.clone()).ok()?;
                let all = crate::bitset::sudoku::solutions(&without, MOVE_SOLUTIONS);
                let complete = (all.len() as u64) < MOVE_SOLUTIONS;
                let ruling_out: Vec<&Vec<usize>> = empty
                    .iter()
                    .filter(|e| {
                        all.iter().all(|other| {
                            let other = other.cells();
                            other == solution || e.iter().any(|&x| other[x] != solution[x])
                        })
                    })
                    .copied()
                    .collect();
                fill(&mut values, &pick(&ruling_out, rng)?);
                if !complete && solver.count(&values, 2) != 1 {
                    return None;
                }
            }
        }
    }
    let puzzle = Puzzle::from_cells(opts.order, values).ok()?;
    if opts.method == Method::Xu && !techniques_solve(&puzzle) {
        return None;
    }
    Some(Candidate {
        puzzle,
        solution: c.solution.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::make;

    #[test]
    fn parses_targets() {
        let t = parse_target("weights_score>=90").unwrap();
        assert_eq!((t.field.as_str(), t.op), ("weights_score", Op::Ge));
        assert_eq!(t.value, TargetValue::Number(90.0));
        let t = parse_target(" oracle_level = challenging ").unwrap();
        assert_eq!(t.op, Op::Eq);
        assert_eq!(t.value, TargetValue::Level(2));
        let t = parse_target("mean_fixed<=12").unwrap();
        assert_eq!((t.op, t.value), (Op::Le, TargetValue::Number(12.0)));
        assert_eq!(parse_target("givens!=30").unwrap().op, Op::Ne);
        assert_eq!(
            parse_target("solved_by_2=true").unwrap().value,
            TargetValue::Bool(true)
        );
        assert!(matches!(
            parse_target("givens"),
            Err(TargetError::Syntax(_))
        ));
        assert!(matches!(
            parse_target("givens>="),
            Err(TargetError::Syntax(_))
        ));
        assert!(matches!(
            parse_target("givens=>3"),
            Err(TargetError::Value { .. })
        ));
        assert!(matches!(
            parse_target("oracle_level=hard"),
            Err(TargetError::Value { .. })
        ));
        assert!(matches!(
            parse_target("hardest_technique<x"),
            Err(TargetError::Order { .. })
        ));
        let err = parse_target("difficulty>3").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("unknown field \"difficulty\""), "{msg}");
        for f in [
            "oracle_level",
            "weights_score",
            "nishio4",
            "hsolve",
            "mean_fixed",
            "givens",
        ] {
            assert!(msg.contains(f), "{f} missing from {msg}");
        }
    }

    #[test]
    fn distances() {
        let m = |k: &str, v: Value| BTreeMap::from([(k.to_string(), v)]);
        let ge = parse_target("weights_score>=90").unwrap();
        assert_eq!(
            distance(
                std::slice::from_ref(&ge),
                &m("weights_score", Value::from(95))
            ),
            0.0
        );
        assert_eq!(
            distance(
                std::slice::from_ref(&ge),
                &m("weights_score", Value::from(81))
            ),
            0.1
        );
        assert_eq!(distance(&[ge], &m("weights_score", Value::Null)), MISSING);
        let lt = parse_target("givens<25").unwrap();
        assert!(distance(std::slice::from_ref(&lt), &m("givens", Value::from(25))) > 0.0);
        assert_eq!(distance(&[lt], &m("givens", Value::from(24))), 0.0);
        let lvl = parse_target("oracle_level>=Challenging").unwrap();
        assert_eq!(
            distance(
                std::slice::from_ref(&lvl),
                &m("oracle_level", Value::from("Crazy"))
            ),
            0.0
        );
        assert_eq!(
            distance(&[lvl], &m("oracle_level", Value::from("Cinch"))),
            2.0
        );
        let b = parse_target("solved_by_2!=true").unwrap();
        assert_eq!(distance(&[b], &m("solved_by_2", Value::from(true))), 1.0);
    }

    #[test]
    fn missed_targets_say_which_way_to_move() {
        let t = |texts: &[&str]| parse_targets(texts).unwrap();
        let m = |pairs: &[(&str, Value)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect::<BTreeMap<_, _>>()
        };
        let hard = t(&["weights_level=Hard"]);
        let easy = m(&[("weights_level", Value::from("Easy"))]);
        let challenging = m(&[("weights_level", Value::from("Challenging"))]);
        let reached = m(&[("weights_level", Value::from("Hard"))]);
        assert_eq!(need(&hard, &easy), Some(Need::Harder));
        assert_eq!(need(&hard, &challenging), Some(Need::Easier));
        assert_eq!(need(&hard, &reached), None);
        // More givens is easier: a puzzle with too many must get harder.
        let few = t(&["givens<=22"]);
        assert_eq!(
            need(&few, &m(&[("givens", Value::from(25))])),
            Some(Need::Harder)
        );
        // SiSuS dependency: fewer possibilities per step is harder.
        let dep = t(&["sisus_dependency<=3"]);
        let v = m(&[("sisus_dependency", Value::from(4.5))]);
        assert_eq!(need(&dep, &v), Some(Need::Harder));
        // Targets pulling apart, or without a direction, leave it open.
        let both = t(&["weights_score>=90", "givens>=30"]);
        let v = m(&[
            ("weights_score", Value::from(80)),
            ("givens", Value::from(24)),
        ]);
        assert_eq!(need(&both, &v), None);
        let relax = t(&["mean_fixed<=12"]);
        assert_eq!(need(&relax, &m(&[("mean_fixed", Value::from(20.0))])), None);
        assert_eq!(need(&hard, &m(&[("weights_level", Value::Null)])), None);
    }

    #[test]
    fn level_misses_are_measured_on_the_score_behind_them() {
        let with = |level: &str, score: f64| {
            BTreeMap::from([
                ("weights_level".to_string(), Value::from(level)),
                ("weights_score".to_string(), Value::from(score)),
            ])
        };
        let hard = parse_target("weights_level=Hard").unwrap();
        let d =
            |level: &str, score: f64| distance(std::slice::from_ref(&hard), &with(level, score));
        // Hard is 87–98 (Xu & Xu Table 3); a middle level is 12 points wide.
        assert_eq!(d("Hard", 90.0), 0.0);
        assert_eq!(d("Intermediate", 86.0), 1.0 / 12.0);
        assert_eq!(d("Intermediate", 75.0), 1.0);
        assert_eq!(d("Challenging", 122.0), 2.0);
        assert!(d("Easy", 60.0) > d("Intermediate", 80.0));
        // Without the score a miss counts in rank steps.
        let rank_only = BTreeMap::from([("weights_level".to_string(), Value::from("Easy"))]);
        assert_eq!(distance(std::slice::from_ref(&hard), &rank_only), 2.0);
        // The oracle's cut points are exclusive upper ends: 0.6 is Challenging.
        let below = parse_target("oracle_level<=Confusing").unwrap();
        let oracle = BTreeMap::from([
            ("oracle_level".to_string(), Value::from("Challenging")),
            ("oracle_score".to_string(), Value::from(0.6)),
        ]);
        assert!(distance(std::slice::from_ref(&below), &oracle) > 0.0);
        let ge = parse_target("oracle_level>=Challenging").unwrap();
        let crazy = BTreeMap::from([
            ("oracle_level".to_string(), Value::from("Cinch")),
            ("oracle_score".to_string(), Value::from(0.1)),
        ]);
        assert!((distance(&[ge], &crazy) - 2.5).abs() < 1e-9);
    }

    #[test]
    fn weights_caps_come_from_upper_bounds_only() {
        let cap = |texts: &[&str]| weights_cap(&parse_targets(texts).unwrap());
        assert_eq!(cap(&["weights_level=Hard"]), Some(98));
        assert_eq!(cap(&["weights_level<=Intermediate"]), Some(86));
        assert_eq!(cap(&["weights_level<Intermediate"]), Some(72));
        assert_eq!(cap(&["weights_level!=Challenging"]), Some(98));
        assert_eq!(cap(&["weights_level>=Hard"]), None);
        assert_eq!(cap(&["weights_level!=Easy"]), None);
        assert_eq!(cap(&["weights_score<90.5"]), Some(90));
        assert_eq!(cap(&["weights_score<90"]), Some(89));
        assert_eq!(cap(&["weights_score<=90.5"]), Some(90));
        assert_eq!(cap(&["weights_score>=80"]), None);
        assert_eq!(
            cap(&["weights_score<=95", "weights_level=Hard", "givens<=25"]),
            Some(95)
        );
        // Another field needs its own model or the whole path.
        assert_eq!(cap(&["weights_level=Hard", "hardest_weight<=10"]), None);
        assert_eq!(cap(&["weights_level=Hard", "oracle_score>=0.5"]), None);
    }

    #[test]
    fn mutants_keep_the_unique_solution() {
        let opts = GenerateOptions::default();
        let (c, _) = make(&opts, 17);
        let mut solver = Solver::new(3);
        let mut rng = SeededRng::seed_from_u64(1);
        let mut made = 0;
        for _ in 0..40 {
            if let Some(m) = mutate(&c, &opts, &mut solver, &mut rng, None, false) {
                assert_ne!(m.puzzle, c.puzzle);
                assert_eq!(crate::sat::count(&m.puzzle, 2).solutions, 1);
                assert!(c.solution.solves(&m.puzzle));
                made += 1;
            }
        }
        assert!(made >= 10, "{made}");
    }
}
