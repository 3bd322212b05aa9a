//! One export layer for every subcommand: a result row type derives
//! `Serialize`, and this module turns a list of rows into JSON, JSON Lines or
//! CSV; text output is the subcommand's own renderer. Files are written
//! atomically (temporary file, then rename), so an interrupted run never
//! leaves a half-written output behind.
//!
//! The HTML report is drawn here too, and only drawn: its numbers are a
//! [`Report`] computed by [`crate::analyze::puzzle_report`] (puzzle
//! sections, percentiles of a
//! [`Reference`](crate::analyze::reference::Reference) set) and
//! [`crate::eval::dataset`] (the data-set section), or read back from the
//! JSON that `report --format json|jsonl` wrote ([`Report::from_json`]).
//! [`html`] draws it as one self-contained page, and [`plot`] holds every
//! chart (also `relax --plot`).

pub mod chart;
pub mod html;
pub mod plot;

pub use crate::analyze::puzzle_report::Report;

use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

/// Output format of a subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// A table or report for people to read.
    #[default]
    Text,
    /// One JSON document (an array of rows, or the command's report object).
    Json,
    /// JSON Lines: one JSON object per row.
    Jsonl,
    /// Comma-separated values with a header; nested fields joined with `.`.
    Csv,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
        })
    }
}

/// A row could not be serialised (a map with non-string keys, a failing
/// `Serialize` impl): a bug in the row type, never silently turned into
/// empty output.
pub type RenderError = serde_json::Error;

/// One JSON line for a row (no trailing newline).
pub fn jsonl_line<T: Serialize>(row: &T) -> Result<String, RenderError> {
    serde_json::to_string(row)
}

/// Renders rows as JSON (an array), JSON Lines or CSV. `Text` falls back to
/// JSON Lines; subcommands render text themselves.
pub fn render_rows<T: Serialize>(rows: &[T], format: Format) -> Result<String, RenderError> {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(rows)?;
            s.push('\n');
            Ok(s)
        }
        Format::Jsonl | Format::Text => {
            let mut s = String::new();
            for r in rows {
                s.push_str(&jsonl_line(r)?);
                s.push('\n');
            }
            Ok(s)
        }
        Format::Csv => to_csv(rows),
    }
}

/// Flattens a JSON value into `(column, cell)` pairs: nested objects join
/// keys with `.`, arrays of scalars become one space-separated cell.
fn flatten(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        Value::Array(items) => {
            let cells: Vec<String> = items
                .iter()
                .map(|i| match i {
                    Value::Array(inner) => inner.iter().map(scalar).collect::<Vec<_>>().join("-"),
                    other => scalar(other),
                })
                .collect();
            out.push((prefix.to_string(), cells.join(" ")));
        }
        other => out.push((prefix.to_string(), scalar(other))),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r', '\t']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// CSV with a header from the first row's (flattened) fields.
pub fn to_csv<T: Serialize>(rows: &[T]) -> Result<String, RenderError> {
    let mut out = String::new();
    let mut header: Option<Vec<String>> = None;
    for row in rows {
        let v = serde_json::to_value(row)?;
        let mut cells = Vec::new();
        flatten("", &v, &mut cells);
        if header.is_none() {
            let h: Vec<String> = cells.iter().map(|(k, _)| k.clone()).collect();
            out.push_str(&h.iter().map(|k| csv_cell(k)).collect::<Vec<_>>().join(","));
            out.push('\n');
            header = Some(h);
        }
        if let Some(h) = &header {
            let line: Vec<String> = h
                .iter()
                .map(|k| {
                    cells
                        .iter()
                        .find(|(c, _)| c == k)
                        .map(|(_, v)| csv_cell(v))
                        .unwrap_or_default()
                })
                .collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
    }
    Ok(out)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// flushed and renamed over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// A plain text table with right-aligned numeric-looking columns.
pub fn text_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let ncols = rows.iter().map(|r| r.len()).fold(header.len(), usize::max);
    let mut width = vec![0; ncols];
    for (i, h) in header.iter().enumerate() {
        width[i] = h.chars().count();
    }
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let fmt_row = |cells: Vec<&str>| -> String {
        let mut line = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = width[i].saturating_sub(c.chars().count());
            let numeric = c
                .trim_start_matches(['>', '=', '-'])
                .chars()
                .next()
                .is_some_and(|ch| ch.is_ascii_digit());
            if numeric && (i + 1 < cells.len() || i > 0) {
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
            } else {
                line.push_str(c);
                if i + 1 < cells.len() {
                    line.push_str(&" ".repeat(pad));
                }
            }
        }
        line.trim_end().to_string() + "\n"
    };
    let mut out = fmt_row(header.to_vec());
    for r in rows {
        out.push_str(&fmt_row(r.iter().map(|s| s.as_str()).collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        puzzle: String,
        label: Option<String>,
        counts: Vec<u32>,
        pairs: Vec<[u32; 2]>,
    }

    #[test]
    fn csv_flattens_and_quotes() {
        let rows = vec![Row {
            puzzle: "1.".into(),
            label: Some("a,b".into()),
            counts: vec![1, 2],
            pairs: vec![[0, 1], [2, 3]],
        }];
        assert_eq!(
            to_csv(&rows).unwrap(),
            "puzzle,label,counts,pairs\n1.,\"a,b\",1 2,0-1 2-3\n"
        );
        assert_eq!(
            render_rows(&rows, Format::Jsonl).unwrap(),
            "{\"puzzle\":\"1.\",\"label\":\"a,b\",\"counts\":[1,2],\"pairs\":[[0,1],[2,3]]}\n"
        );
    }

    #[test]
    fn serialisation_failure_is_an_error_not_empty_output() {
        // JSON object keys must be strings: a map keyed by pairs cannot be written.
        let rows = vec![std::collections::BTreeMap::from([((1, 2), 3)])];
        for f in [Format::Json, Format::Jsonl, Format::Csv] {
            let e = render_rows(&rows, f).unwrap_err();
            assert!(e.to_string().contains("key must be a string"), "{f}: {e}");
        }
        assert!(jsonl_line(&rows[0]).is_err());
    }

    #[test]
    fn text_table_tolerates_ragged_rows() {
        let t = text_table(
            &["a", "b"],
            &[vec!["x".into(), "1".into(), "extra".into()], vec![]],
        );
        assert_eq!(t, "a  b\nx  1  extra\n\n");
    }

    #[test]
    fn atomic_write_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
