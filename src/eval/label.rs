//! Which value of a row is the external difficulty label, and how it becomes
//! a number.
//!
//! A label is named by a column (`--label level_rank`). Puzzle files carry
//! their label as free text after the grid, so a results row may hold
//! `label = "Sudoku.org.uk\tTough\t2"`; `--label label:3` then picks the
//! third whitespace-separated field (`2`) of that text. A column whose name
//! itself ends in `:N` is taken as a column when the table has it.
//!
//! Labels are numbers (a rank, a rating) or ordinal text. Ordinal text needs
//! an [`Ordinal`] order (`--ordinal Easy,Medium,Hard`), which maps each level
//! to its 1-based rank; matching ignores case and surrounding spaces.

use super::table::{ResultsTable, TableError, Value, format_number};
use serde::Serialize;
use std::fmt;
use thiserror::Error;

/// A label column, optionally narrowed to one field of its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabelSpec {
    /// The text as given (`label:3`), used when the table has such a column.
    pub raw: String,
    /// The column name.
    pub column: String,
    /// 1-based whitespace-separated field of the column's text.
    pub field: Option<usize>,
}

impl LabelSpec {
    /// Parse `COLUMN` or `COLUMN:FIELD` (FIELD a positive integer).
    pub fn parse(raw: &str) -> Result<LabelSpec, LabelError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(LabelError::EmptySpec);
        }
        if let Some((col, field)) = raw.rsplit_once(':')
            && let Ok(k) = field.trim().parse::<usize>()
        {
            if k == 0 || col.is_empty() {
                return Err(LabelError::BadField {
                    spec: raw.to_string(),
                });
            }
            return Ok(LabelSpec {
                raw: raw.to_string(),
                column: col.to_string(),
                field: Some(k),
            });
        }
        Ok(LabelSpec::column(raw))
    }

    /// A whole column as the label.
    pub fn column(name: &str) -> LabelSpec {
        LabelSpec {
            raw: name.to_string(),
            column: name.to_string(),
            field: None,
        }
    }

    /// The column the label is read from in `table` and the field to pick:
    /// the raw text, whole, when the table has a column of exactly that name.
    pub(crate) fn resolve<'a>(&'a self, table: &ResultsTable) -> (&'a str, Option<usize>) {
        if self.field.is_some() && table.has_column(&self.raw) {
            (&self.raw, None)
        } else {
            (&self.column, self.field)
        }
    }

    /// The label value of every row (`None` when missing, or when the text
    /// has fewer fields than asked for). A picked field that is a number
    /// becomes a number.
    pub fn values(&self, table: &ResultsTable) -> Result<Vec<Option<Value>>, LabelError> {
        let (col, field) = self.resolve(table);
        let whole = table.values(col)?;
        Ok(whole
            .into_iter()
            .map(|v| match (v, field) {
                (Value::Null, _) => None,
                (v, None) => Some(v.clone()),
                (v, Some(k)) => {
                    let text = v.as_text()?;
                    let picked = text.split_whitespace().nth(k - 1)?;
                    Some(match picked.parse::<f64>() {
                        Ok(x) if x.is_finite() => Value::Number(x),
                        _ => Value::Text(picked.to_string()),
                    })
                }
            })
            .collect())
    }
}

impl fmt::Display for LabelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

impl std::str::FromStr for LabelSpec {
    type Err = LabelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        LabelSpec::parse(s)
    }
}

/// The order of ordinal text labels, easiest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ordinal {
    /// Level names, easiest first; rank `i + 1` for `levels[i]`, matched
    /// case-insensitively.
    pub levels: Vec<String>,
}

impl Ordinal {
    /// Parse a comma list such as `Easy,Medium,Hard`.
    pub fn parse(list: &str) -> Result<Ordinal, LabelError> {
        let levels: Vec<String> = list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        Ordinal::new(levels)
    }

    /// An order from its levels, easiest first; levels must be distinct.
    pub fn new(levels: Vec<String>) -> Result<Ordinal, LabelError> {
        if levels.len() < 2 {
            return Err(LabelError::OrdinalTooShort {
                given: levels.join(","),
            });
        }
        for (i, a) in levels.iter().enumerate() {
            if levels[..i].iter().any(|b| b.eq_ignore_ascii_case(a)) {
                return Err(LabelError::OrdinalDuplicate { level: a.clone() });
            }
        }
        Ok(Ordinal { levels })
    }

    /// 1-based rank of a level.
    pub fn rank(&self, level: &str) -> Option<usize> {
        let level = level.trim();
        self.levels
            .iter()
            .position(|l| l.eq_ignore_ascii_case(level))
            .map(|i| i + 1)
    }
}

/// Why a label could not be read or scored.
#[derive(Debug, Error)]
pub enum LabelError {
    /// The specification is empty.
    #[error("empty label specification; give a column name, or COLUMN:FIELD")]
    EmptySpec,
    /// `COLUMN:FIELD` with a field number below 1 or no column name.
    #[error("label {spec:?}: the field number after ':' must be 1 or more, after a column name")]
    BadField {
        /// The label specification as given.
        spec: String,
    },
    /// An `--ordinal` list with fewer than two levels.
    #[error("--ordinal needs at least two levels, got {given:?}")]
    OrdinalTooShort {
        /// The levels given, comma-separated.
        given: String,
    },
    /// An `--ordinal` level listed twice (case-insensitive).
    #[error("--ordinal lists the level {level:?} twice")]
    OrdinalDuplicate {
        /// The repeated level.
        level: String,
    },
    /// A text label without an `--ordinal` order.
    #[error(
        "label {label}: line {line} has the text {value:?}; give the order of the text labels with --ordinal (e.g. --ordinal Easy,Medium,Hard)"
    )]
    NeedsOrdinal {
        /// The label specification as given.
        label: String,
        /// 1-based line of the first text label.
        line: usize,
        /// Its text.
        value: String,
    },
    /// A text label that is not a level of the `--ordinal` order.
    #[error(
        "label {label}: line {line} has the level {value:?}, which is not in --ordinal ({order})"
    )]
    NotInOrder {
        /// The label specification as given.
        label: String,
        /// 1-based line of the offending row.
        line: usize,
        /// Its label text.
        value: String,
        /// The order's levels, comma-separated.
        order: String,
    },
    /// Every row's label is missing.
    #[error("label {label}: no row has a label value")]
    NoValues {
        /// The label specification as given.
        label: String,
    },
    /// The results table could not be read or lacks the label column.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Numeric label scores of every row: the ordinal rank when an order is
/// given, else the number itself. Text without an order is an error naming
/// the first offending line.
pub(crate) fn label_scores(
    table: &ResultsTable,
    spec: &LabelSpec,
    ordinal: Option<&Ordinal>,
) -> Result<Vec<Option<f64>>, LabelError> {
    let values = spec.values(table)?;
    let mut scores = Vec::with_capacity(values.len());
    for (v, &line) in values.iter().zip(&table.lines) {
        let score = match (v, ordinal) {
            (None, _) => None,
            (Some(v), Some(order)) => {
                let text = v.as_text().unwrap_or_default();
                match order.rank(&text) {
                    Some(r) => Some(r as f64),
                    None => {
                        return Err(LabelError::NotInOrder {
                            label: spec.raw.clone(),
                            line,
                            value: text,
                            order: order.levels.join(","),
                        });
                    }
                }
            }
            (Some(v), None) => match v.as_f64() {
                Some(x) => Some(x),
                None => {
                    return Err(LabelError::NeedsOrdinal {
                        label: spec.raw.clone(),
                        line,
                        value: v.as_text().unwrap_or_default(),
                    });
                }
            },
        };
        scores.push(score);
    }
    if scores.iter().all(Option::is_none) {
        return Err(LabelError::NoValues {
            label: spec.raw.clone(),
        });
    }
    Ok(scores)
}

/// Label text of every row, as used for grouping (numbers rendered `2`).
pub(crate) fn label_texts(
    table: &ResultsTable,
    spec: &LabelSpec,
) -> Result<Vec<Option<String>>, LabelError> {
    Ok(spec
        .values(table)?
        .into_iter()
        .map(|v| v.and_then(|v| v.as_text()))
        .collect())
}

/// Render a numeric label level for display.
pub(crate) fn level_name(x: f64) -> String {
    format_number(x)
}
