//! A column store for results files: the rows that `analyze`, `rate` or a
//! labelled data set produce, read back for evaluation.
//!
//! Two formats are read:
//!
//! * **JSONL**: one JSON object per line. Numbers stay numbers, booleans
//!   become `0`/`1`, strings stay text, `null` is a missing value. Nested
//!   objects are flattened with dotted names (`{"se": {"er": 7.1}}` gives the
//!   column `se.er`); arrays are skipped, since a distribution has no single
//!   value to correlate.
//! * **CSV / TSV** with a header line. A header that starts with `#` (the
//!   convention of the shared data sets in `../shared/data/`) has the `#`
//!   stripped. The `csv` crate splits the records: fields may be quoted
//!   with `"` (a doubled `""` is a literal quote) and a quoted field may
//!   span lines, as [`Format::render`](crate::Format::render) writes them; a quote left open
//!   at the end of the file is an error. Blank lines are skipped. A field
//!   that parses as a finite number is a number; an empty field, `NA`,
//!   `NaN` or `null` is missing; anything else is text.
//!
//! The format is chosen by the file extension (`.jsonl`, `.ndjson`, `.json`,
//! `.csv`, `.tsv`, `.tab`), else by content: a first non-blank line that
//! starts with `{` is JSONL, a header with a tab is TSV, anything else CSV.
//! Non-finite numbers are stored as missing, so no NaN ever reaches a
//! statistic. Errors name the 1-based input line.

use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use thiserror::Error;

/// One cell of a results table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// Missing (`null`, empty field, `NA`, a non-finite number).
    Null,
    /// A finite number; booleans are stored as 0 and 1.
    Number(f64),
    /// Anything else.
    Text(String),
}

impl Value {
    /// The value as a number: numbers as they are, text that parses as a
    /// finite number, nothing else.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(x) => Some(*x),
            Value::Text(s) => parse_finite(s),
            Value::Null => None,
        }
    }

    /// The value as text: numbers in their shortest form (`2`, not `2.0`),
    /// `None` when missing.
    pub(crate) fn as_text(&self) -> Option<String> {
        match self {
            Value::Null => None,
            Value::Number(x) => Some(format_number(*x)),
            Value::Text(s) => Some(s.clone()),
        }
    }

    /// Classify one CSV/TSV field.
    fn from_field(field: &str) -> Value {
        let t = field.trim();
        if t.is_empty() || is_missing_word(t) {
            return Value::Null;
        }
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() => Value::Number(x),
            Ok(_) => Value::Null,
            Err(_) => Value::Text(field.to_string()),
        }
    }
}

fn is_missing_word(t: &str) -> bool {
    matches!(
        t.to_ascii_lowercase().as_str(),
        "na" | "n/a" | "nan" | "null" | "none"
    )
}

fn parse_finite(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A number as text without a spurious `.0` for integers.
pub(crate) fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Layout of a results file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TableFormat {
    /// One JSON object per line.
    Jsonl,
    /// A header line and delimiter-separated fields (`,` for CSV, `\t` for TSV).
    Delimited(char),
}

impl TableFormat {
    /// Choose the format from a file name, falling back to the content.
    pub fn detect(path: Option<&Path>, content: &str) -> TableFormat {
        let ext = path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("jsonl" | "ndjson" | "json") => return TableFormat::Jsonl,
            Some("csv") => return TableFormat::Delimited(','),
            Some("tsv" | "tab") => return TableFormat::Delimited('\t'),
            _ => {}
        }
        let first = content.lines().map(str::trim).find(|l| !l.is_empty());
        match first {
            Some(l) if l.starts_with('{') => TableFormat::Jsonl,
            Some(l) if l.contains('\t') => TableFormat::Delimited('\t'),
            _ => TableFormat::Delimited(','),
        }
    }
}

/// Why a results file could not be read.
#[derive(Debug, Error)]
pub enum TableError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Neither a header nor a data row.
    #[error("the results file is empty (no header and no rows)")]
    Empty,
    /// A line that cannot be parsed (invalid JSON, not an object, bad quoting).
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number in the file.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A CSV/TSV row whose field count differs from the header's.
    #[error("line {line}: expected {expected} fields as in the header, found {found}")]
    FieldCount {
        /// 1-based line number in the file.
        line: usize,
        /// Fields in the header.
        expected: usize,
        /// Fields on the line.
        found: usize,
    },
    /// A column name that occurs twice in the header.
    #[error("header has the column {name:?} twice")]
    DuplicateColumn {
        /// The repeated name.
        name: String,
    },
    /// A column asked for that the table does not have.
    #[error("no column {name:?}; the table has: {available}")]
    UnknownColumn {
        /// The name asked for.
        name: String,
        /// The table's columns, comma-separated.
        available: String,
    },
}

/// A results file held column-wise by name, row-wise by value.
///
/// `rows[i][j]` is the value of column `columns[j]` in the `i`-th data row;
/// `lines[i]` is the 1-based input line it came from (for error messages).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ResultsTable {
    /// Column names in header (or first-seen JSON key) order; nested JSON keys
    /// are flattened to dotted names.
    pub columns: Vec<String>,
    /// Data rows, one value per column (missing values included).
    pub rows: Vec<Vec<Value>>,
    /// 1-based input line of each data row.
    pub lines: Vec<usize>,
}

impl ResultsTable {
    /// Read a file, choosing the format by extension or content.
    pub fn from_path(path: &Path) -> Result<ResultsTable, TableError> {
        let content = std::fs::read_to_string(path).map_err(|source| TableError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let format = TableFormat::detect(Some(path), &content);
        ResultsTable::parse(&content, format)
    }

    /// Parse text in the given format.
    pub fn parse(content: &str, format: TableFormat) -> Result<ResultsTable, TableError> {
        match format {
            TableFormat::Jsonl => parse_jsonl(content),
            TableFormat::Delimited(d) => parse_delimited(content, d),
        }
    }

    /// Number of data rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no data row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Index of a column, or an error listing the columns there are.
    pub(crate) fn column_index(&self, name: &str) -> Result<usize, TableError> {
        self.columns
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| TableError::UnknownColumn {
                name: name.to_string(),
                available: self.columns.join(", "),
            })
    }

    /// Whether a column of that name exists.
    pub(crate) fn has_column(&self, name: &str) -> bool {
        self.columns.iter().any(|c| c == name)
    }

    /// All values of a column.
    pub fn values(&self, col: &str) -> Result<Vec<&Value>, TableError> {
        let j = self.column_index(col)?;
        Ok(self.rows.iter().map(|r| &r[j]).collect())
    }

    /// A column as numbers; missing and non-numeric cells are `None`.
    pub fn numeric(&self, col: &str) -> Result<Vec<Option<f64>>, TableError> {
        let j = self.column_index(col)?;
        Ok(self.rows.iter().map(|r| r[j].as_f64()).collect())
    }

    /// A column as text; numbers are rendered (`2`, `7.5`), missing is `None`.
    pub fn text(&self, col: &str) -> Result<Vec<Option<String>>, TableError> {
        let j = self.column_index(col)?;
        Ok(self.rows.iter().map(|r| r[j].as_text()).collect())
    }

    /// Whether a column is numeric: at least one number and no cell holding
    /// text that is not a number.
    pub fn is_numeric(&self, col: &str) -> bool {
        self.first_non_numeric(col).is_none()
            && self
                .numeric(col)
                .map(|v| v.iter().any(Option::is_some))
                .unwrap_or(false)
    }

    /// The first cell of a column that holds non-numeric text, with its
    /// input line, to explain why a column is not numeric.
    pub(crate) fn first_non_numeric(&self, col: &str) -> Option<(usize, String)> {
        let j = self.column_index(col).ok()?;
        self.rows
            .iter()
            .zip(&self.lines)
            .find_map(|(r, &line)| match &r[j] {
                Value::Text(s) if parse_finite(s).is_none() && !is_missing_word(s.trim()) => {
                    Some((line, s.clone()))
                }
                _ => None,
            })
    }

    /// The numeric columns, in table order.
    pub fn numeric_columns(&self) -> Vec<String> {
        self.columns
            .iter()
            .filter(|c| self.is_numeric(c))
            .cloned()
            .collect()
    }
}

fn parse_jsonl(content: &str) -> Result<ResultsTable, TableError> {
    let mut columns: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut sparse_rows: Vec<Vec<(usize, Value)>> = Vec::new();
    let mut lines = Vec::new();
    for (i, raw) in content.lines().enumerate() {
        let line = i + 1;
        let text = raw.trim();
        if text.is_empty() {
            continue;
        }
        let parsed: serde_json::Value =
            serde_json::from_str(text).map_err(|e| TableError::Line {
                line,
                message: format!("invalid JSON: {e}"),
            })?;
        let serde_json::Value::Object(map) = parsed else {
            return Err(TableError::Line {
                line,
                message: "expected a JSON object ({...}) on each line".to_string(),
            });
        };
        let mut flat = Vec::new();
        flatten("", &map, &mut flat);
        let mut row = Vec::with_capacity(flat.len());
        for (name, value) in flat {
            let j = *index.entry(name.clone()).or_insert_with(|| {
                columns.push(name);
                columns.len() - 1
            });
            row.push((j, value));
        }
        sparse_rows.push(row);
        lines.push(line);
    }
    if sparse_rows.is_empty() {
        return Err(TableError::Empty);
    }
    let width = columns.len();
    let rows = sparse_rows
        .into_iter()
        .map(|sparse| {
            let mut row = vec![Value::Null; width];
            for (j, v) in sparse {
                row[j] = v;
            }
            row
        })
        .collect();
    Ok(ResultsTable {
        columns,
        rows,
        lines,
    })
}

fn flatten(
    prefix: &str,
    map: &serde_json::Map<String, serde_json::Value>,
    out: &mut Vec<(String, Value)>,
) {
    for (k, v) in map {
        let name = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        let value = match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Number(if *b { 1.0 } else { 0.0 }),
            serde_json::Value::Number(n) => match n.as_f64() {
                Some(x) if x.is_finite() => Value::Number(x),
                _ => Value::Null,
            },
            serde_json::Value::String(s) => Value::Text(s.clone()),
            serde_json::Value::Array(_) => continue,
            serde_json::Value::Object(inner) => {
                flatten(&name, inner, out);
                continue;
            }
        };
        out.push((name, value));
    }
}

fn parse_delimited(content: &str, delim: char) -> Result<ResultsTable, TableError> {
    let delimiter = u8::try_from(delim).map_err(|_| TableError::Line {
        line: 1,
        message: format!("the delimiter {delim:?} is not a single byte"),
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(content.as_bytes());
    // The reader closes a quote left open at the end of the input without
    // an error (BurntSushi/rust-csv#77 asks for a strict mode), so a record
    // that would be refused, and the last one, are checked for it.
    let unterminated = |start: usize, line: usize| {
        ends_inside_quotes(&content.as_bytes()[start..], delimiter).then(|| TableError::Line {
            line,
            message: "unterminated quoted field".to_string(),
        })
    };
    let mut lines_before = LineCounter::new(content);
    let mut header: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut last_record = None;
    let mut record = csv::StringRecord::new();
    while reader.read_record(&mut record).map_err(csv_error)? {
        let (start, line) = lines_before.record_start(&record);
        last_record = Some((start, line));
        // A line of spaces is blank, as an empty line is to the reader.
        if record.len() == 1 && record[0].trim().is_empty() {
            continue;
        }
        let Some(columns) = &header else {
            // The `#` that opens the header of the shared data sets is no
            // part of the first column's name.
            let names: Vec<String> = record
                .iter()
                .enumerate()
                .map(|(j, c)| {
                    let c = if j == 0 {
                        c.strip_prefix('#').unwrap_or(c)
                    } else {
                        c
                    };
                    c.trim().to_string()
                })
                .collect();
            let mut seen = std::collections::HashSet::new();
            if let Some(name) = names.iter().find(|c| !seen.insert(c.as_str())) {
                return Err(TableError::DuplicateColumn { name: name.clone() });
            }
            header = Some(names);
            continue;
        };
        if record.len() != columns.len() {
            return Err(unterminated(start, line).unwrap_or(TableError::FieldCount {
                line,
                expected: columns.len(),
                found: record.len(),
            }));
        }
        rows.push(record.iter().map(Value::from_field).collect());
        lines.push(line);
    }
    if let Some(error) = last_record.and_then(|(start, line)| unterminated(start, line)) {
        return Err(error);
    }
    Ok(ResultsTable {
        columns: header.ok_or(TableError::Empty)?,
        rows,
        lines,
    })
}

/// The 1-based line on which each record starts, counted on the text
/// itself (the reader's own count leaves out the blank lines it skips).
struct LineCounter<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> Self {
        LineCounter {
            text: text.as_bytes(),
            at: 0,
            line: 1,
        }
    }

    /// Byte offset and line of the first character of `record` (records
    /// come in input order; a record never starts with a line break).
    fn record_start(&mut self, record: &csv::StringRecord) -> (usize, usize) {
        let from = record.position().map_or(self.at, |p| p.byte() as usize);
        let start = from
            + self.text[from..]
                .iter()
                .take_while(|&&b| b == b'\n' || b == b'\r')
                .count();
        let start = start.max(self.at);
        self.line += self.text[self.at..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.at = start;
        (start, self.line)
    }
}

fn csv_error(e: csv::Error) -> TableError {
    TableError::Line {
        line: e.position().map_or(0, |p| p.line() as usize),
        message: e.to_string(),
    }
}

/// Whether `text`, read from the start of a record with the `csv` crate's
/// rules (a quote opens a quoted field only at a field's start; `""` inside
/// one is a literal quote), ends inside a quoted field.
fn ends_inside_quotes(text: &[u8], delimiter: u8) -> bool {
    enum State {
        FieldStart,
        Unquoted,
        Quoted,
        QuoteInQuoted,
    }
    let mut state = State::FieldStart;
    for &b in text {
        let ends_field = b == delimiter || b == b'\n' || b == b'\r';
        state = match state {
            State::FieldStart if b == b'"' => State::Quoted,
            State::Quoted if b == b'"' => State::QuoteInQuoted,
            State::Quoted => State::Quoted,
            State::QuoteInQuoted if b == b'"' => State::Quoted,
            _ if ends_field => State::FieldStart,
            _ => State::Unquoted,
        };
    }
    matches!(state, State::Quoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimited_lines_count_blank_lines_and_quoted_breaks() {
        let text = "\n  \n#a,b\r\n1,\"x\ny\"\r\n\r\n   \n2,z\n";
        let t = ResultsTable::parse(text, TableFormat::Delimited(',')).unwrap();
        assert_eq!(t.columns, vec!["a", "b"]);
        assert_eq!(t.lines, vec![4, 8]);
        assert_eq!(t.rows[0][1], Value::Text("x\ny".into()));
        let open = "a,b\n1,2\n3,\"4\n5,6\n";
        let err = ResultsTable::parse(open, TableFormat::Delimited(',')).unwrap_err();
        assert_eq!(err.to_string(), "line 3: unterminated quoted field");
        let escaped = "a\n\"say \"\"hi\"\"\"\n";
        let t = ResultsTable::parse(escaped, TableFormat::Delimited(',')).unwrap();
        assert_eq!(t.rows[0][0], Value::Text("say \"hi\"".into()));
    }
}
