//! Parsing `FIELD OP VALUE` targets against the metric registry
//! ([`crate::metrics`]): which fields a target may name and what kind of
//! value each takes.

use crate::metrics::{self, Kind, Metric, Role, Source};
use serde::Serialize;
use std::fmt;

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
    /// The field compared: a rating, relaxation, score or `givens` metric.
    pub field: Metric,
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

/// Whether a target may name this metric: a metric (or spread) of a human
/// model, of the relaxation or of the score, with one value per puzzle.
/// The relaxation's onset is left out: the generators' relaxations do not
/// look for it (`RelaxReport::name_onset`), so it would never be met.
fn targetable(m: Metric) -> bool {
    m.role() != Role::Parameter
        && m.kind() != Kind::List
        && m != Metric::RelaxationOnsetK
        && matches!(m.source(), Source::Rate(_) | Source::Relax | Source::Score)
}

/// Every field a target may name, sorted.
///
/// ```
/// let fields = sudolab::target_fields();
/// assert!(fields.iter().any(|f| f == "hsolve"));
/// assert!(fields.windows(2).all(|w| w[0] < w[1]));
/// ```
pub fn known_fields() -> Vec<String> {
    let mut out: Vec<String> = Metric::ALL
        .iter()
        .filter(|m| targetable(**m))
        .map(|m| m.name().to_string())
        .collect();
    out.sort();
    out
}

/// The field a target may name of this name (`None` for any other name).
fn field(name: &str) -> Option<Metric> {
    metrics::registry::find(name).filter(|&m| targetable(m))
}

/// Parses one `FIELD OP VALUE` target.
pub(crate) fn parse_target(text: &str) -> Result<Target, TargetError> {
    let syntax = || TargetError::Syntax(text.to_string());
    let at = text.find(['=', '!', '<', '>']).ok_or_else(syntax)?;
    let name = text[..at].trim().to_string();
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
    if name.is_empty() || raw.is_empty() {
        return Err(syntax());
    }
    let Some(field) = field(&name) else {
        return Err(TargetError::UnknownField {
            target: text.to_string(),
            field: name,
            known: known_fields(),
        });
    };
    let k = field.kind();
    let bad = |expected: &str| TargetError::Value {
        target: text.to_string(),
        field: name.clone(),
        expected: expected.to_string(),
        value: raw.to_string(),
    };
    let value = match k {
        Kind::Number => TargetValue::Number(
            raw.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad("a number"))?,
        ),
        Kind::Bool => TargetValue::Bool(raw.parse::<bool>().map_err(|_| bad("true or false"))?),
        Kind::Text => TargetValue::Text(raw.to_string()),
        Kind::List => return Err(bad("a list")),
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
            field: name,
        });
    }
    Ok(Target {
        field,
        op,
        value,
        text: text.trim().to_string(),
    })
}

/// The numeric field a target may name of this name (the
/// pseudo-generator's `--metric`).
///
/// ```
/// use sudolab::{Metric, numeric_target_field};
///
/// assert_eq!(numeric_target_field("hsolve")?, Metric::Hsolve);
/// assert!(numeric_target_field("line").is_err());
/// # Ok::<(), sudolab::TargetError>(())
/// ```
///
/// # Errors
/// A name that is no numeric target field; the error lists them.
pub fn numeric_field(name: &str) -> Result<Metric, TargetError> {
    field(name)
        .filter(|m| m.kind() == Kind::Number)
        .ok_or_else(|| TargetError::Metric {
            field: name.to_string(),
            known: numeric_fields(),
        })
}

/// The numeric fields a target may name, sorted.
///
/// ```
/// assert!(sudolab::numeric_target_fields().iter().any(|f| f == "hsolve"));
/// ```
pub fn numeric_fields() -> Vec<String> {
    known_fields()
        .into_iter()
        .filter(|k| field(k).is_some_and(|m| m.kind() == Kind::Number))
        .collect()
}

impl Target {
    /// Parses several targets (ANDed).
    pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Target>, TargetError> {
        texts.iter().map(|t| parse_target(t.as_ref())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_targets() {
        let t = parse_target("weights_score>=90").unwrap();
        assert_eq!((t.field, t.op), (Metric::WeightsScore, Op::Ge));
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
            Metric::OracleLevel,
            Metric::WeightsScore,
            Metric::Nishio4,
            Metric::Hsolve,
            Metric::MeanFixed,
            Metric::Givens,
        ] {
            assert!(msg.contains(f.name()), "{f} missing from {msg}");
        }
    }
}
