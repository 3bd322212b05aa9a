//! Reading a report back: the JSON that `report --format json|jsonl`
//! wrote becomes the [`Report`] it was made from, so a page can be drawn
//! again without computing anything, with every number exactly as written.

use super::compute::Report;
use serde_json::Value;

/// The fields at the top level of every report document.
const REPORT_FIELDS: [&str; 5] = ["title", "reference", "puzzles", "dataset", "options"];

impl Report {
    /// Reads a report written by `report --format json` or `--format jsonl`
    /// (one JSON object with the fields `title`, `reference`, `puzzles`,
    /// `dataset` and `options`); `Ok(None)` when `text` is no such document
    /// (puzzles, `analyze` results).
    ///
    /// ```
    /// use sudolab::{Reference, Report, ReportOptions, ReportRequest, ReportSubject, ResultsTable, TableFormat, compute_report};
    ///
    /// let rows = "{\"a\":0.1}\n{\"a\":0.7}\n{\"a\":1.3}\n";
    /// let reference = Reference::embedded()?;
    /// let report = compute_report(
    ///     ReportRequest {
    ///         title: "rows".into(),
    ///         source: "rows.jsonl".into(),
    ///         subject: ReportSubject::Rows(ResultsTable::parse(rows, TableFormat::Jsonl)?),
    ///         label: None,
    ///         ordinal: None,
    ///         reference: &reference,
    ///         reference_name: "the embedded reference".into(),
    ///         options: ReportOptions::default(),
    ///     },
    ///     || {},
    /// )?;
    /// let json = serde_json::to_string(&report)?;
    /// assert_eq!(Report::from_json(&json)?, Some(report));
    /// assert_eq!(Report::from_json("1.3")?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A document with those fields whose values are no report's.
    pub fn from_json(text: &str) -> Result<Option<Report>, serde_json::Error> {
        if !text.trim_start().starts_with('{') {
            return Ok(None);
        }
        let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(text) else {
            return Ok(None);
        };
        if !REPORT_FIELDS.iter().all(|f| fields.contains_key(*f)) {
            return Ok(None);
        }
        let mut document = Value::Object(fields);
        let mut written = number_tokens(text).into_iter();
        restore_floats(&mut document, &mut written);
        serde_json::from_value(document).map(Some)
    }
}

/// The number tokens of a JSON text (outside strings), in the order they
/// are written.
fn number_tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                tokens.push(&text[start..i]);
            }
            _ => i += 1,
        }
    }
    tokens
}

/// Replaces every fractional number of `value` (visited in document order)
/// by the correctly rounded value of its written token: `serde_json`
/// without its `float_roundtrip` feature may read the shortest
/// representation of an `f64` one unit in the last place off, and a page
/// drawn from the numbers read back must be the page drawn from the
/// numbers written.
fn restore_floats<'a>(value: &mut Value, written: &mut impl Iterator<Item = &'a str>) {
    match value {
        Value::Number(n) => {
            let token = written.next();
            // The token is the number's when serde_json reads it as this
            // number (objects keep their written order: `preserve_order`).
            if let (Some(read), Some(token)) = (n.as_f64().filter(|_| n.is_f64()), token)
                && serde_json::from_str::<f64>(token).ok() == Some(read)
                && let Some(exact) = token
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
            {
                *n = exact;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| restore_floats(v, written)),
        Value::Object(map) => map.values_mut().for_each(|v| restore_floats(v, written)),
        Value::Null | Value::Bool(_) | Value::String(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_exactly_as_written() {
        let values: Vec<f64> = (1..3000)
            .flat_map(|i| [f64::from(i) / 7.0, 1.0 / f64::from(i), f64::from(i) * 0.1])
            .collect();
        let text = serde_json::to_string(&serde_json::json!({
            "s": "a \"1.5\" \\ 2e3",
            "v": values,
            "n": [-3, 0, 17],
        }))
        .unwrap();
        let plain: Value = serde_json::from_str(&text).unwrap();
        let plain: Vec<f64> = serde_json::from_value(plain["v"].clone()).unwrap();
        assert!(
            plain.iter().zip(&values).any(|(a, b)| a != b),
            "serde_json alone reads some shortest representations one unit off"
        );
        let mut read: Value = serde_json::from_str(&text).unwrap();
        let tokens = number_tokens(&text);
        assert_eq!(tokens.len(), values.len() + 3);
        restore_floats(&mut read, &mut tokens.into_iter());
        let exact: Vec<f64> = serde_json::from_value(read["v"].clone()).unwrap();
        assert_eq!(exact, values);
        assert_eq!(read["n"], serde_json::json!([-3, 0, 17]));
        assert_eq!(read["s"], "a \"1.5\" \\ 2e3");
    }
}
