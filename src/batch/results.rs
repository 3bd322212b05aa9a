//! Results files read back: the JSON Lines rows `sudolab analyze` and
//! `sudolab relax` stream with `--format jsonl`, each carrying the input
//! `line` its puzzle came from ([`Lined`]).
//!
//! No paper defines this part: it is the bookkeeping that lets a data set of
//! many thousands of puzzles be computed in pieces. One reader,
//! [`ResultsFile`] with [`ResultsFile::rows`], serves both ways of putting
//! pieces together:
//!
//! * resuming a run (`--resume`, [`DoneRows`]): rows are keyed by input line
//!   (and `k` for sweeps), not by puzzle text, so a data set with the same
//!   puzzle twice keeps both rows; every row must carry the parameters of
//!   this run ([`RowSpec::params`]), or the file is refused with a message
//!   naming the parameter, never silently mixed; a row whose line holds
//!   another puzzle than this input's line means the file belongs to another
//!   input, and is refused too;
//! * merging shards (`sudolab merge`): the rows of all
//!   shards in input order, keyed by line and `k`, every row computed with
//!   the same parameters, duplicated rows and (with the input,
//!   `MergedRows::check_input`) missing or mismatched ones listed as
//!   `MergeProblem`s.
//!
//! What no row says is kept beside the file, in a run record
//! (`FILE.run.json`, [`record_path`]): the command, every parameter that
//! changes a row (the relaxation's `k` or sweep, samples, seed, cap, engines,
//! verified samples, metric groups, the alphabet), the input's identity (a
//! hash of its bytes, `input_identity`) and the shard. A resumed run
//! compares its own record with the file's and refuses, naming the
//! parameter, anything but the same run (a sweep may only grow); a merge
//! compares the shards' records with each other and with the `--input`. The
//! rows themselves stay as they were written.
//!
//! A last line without its newline is a record cut short by an interrupted
//! run: the reader sets it apart ([`ResultsFile::torn_bytes`]), so a resumed
//! run can drop it ([`ResultsFile::drop_torn_line`]) and a merge refuses the
//! shard. Any other line that is not a JSON object with `line` and `puzzle`
//! is an error naming the file and the line.

use crate::analyze::AnalyzeParams;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A row with the input line its puzzle came from (`line` first): the shape
/// of every streamed row, and what `ResultsFile::rows` keys rows by.
#[derive(Debug, Clone, Serialize)]
pub struct Lined<T> {
    /// 1-based input line (or index of an embedded example).
    pub line: usize,
    /// The row, flattened after `line`.
    #[serde(flatten)]
    pub row: T,
}

/// Where a row belongs: its input line and the values of the key fields of
/// its kind of output (e.g. `k` for relaxation sweeps).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowKey {
    /// 1-based input line.
    pub line: u64,
    /// Values of the key fields, in [`RowSpec::key`] order; `None` when the
    /// row has no such field or it is not a whole number.
    pub fields: Vec<Option<u64>>,
}

impl RowKey {
    /// The key of input `line` with these key field values.
    pub fn new(line: usize, fields: &[u64]) -> RowKey {
        RowKey {
            line: line as u64,
            fields: fields.iter().map(|&v| Some(v)).collect(),
        }
    }
}

/// How the rows of one kind of output are keyed and what they must share.
#[derive(Debug, Clone, Default)]
pub struct RowSpec {
    /// Row fields that, with `line`, identify a row (e.g. `["k"]` for sweeps).
    pub key: &'static [&'static str],
    /// `(JSON pointer, value)` pairs every row must have: the run's parameters.
    pub params: Vec<(String, Value)>,
}

impl RowSpec {
    /// The rows of `sudolab analyze` run with `params`: keyed by input line,
    /// each carrying every field of `params` under `params` (null when it
    /// does not apply).
    pub fn analyze(params: &AnalyzeParams) -> Result<RowSpec, serde_json::Error> {
        let params = serde_json::to_value(params)?;
        Ok(RowSpec {
            key: &[],
            params: params
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, value)| (format!("/params/{name}"), value.clone()))
                .collect(),
        })
    }
}

/// Where the run record of results file `results` is: `results.run.json`.
///
/// ```
/// use std::path::Path;
///
/// assert_eq!(sudolab::record_path(Path::new("d/out.jsonl")), Path::new("d/out.jsonl.run.json"));
/// ```
pub fn record_path(results: &Path) -> PathBuf {
    let mut name = results.as_os_str().to_owned();
    name.push(".run.json");
    PathBuf::from(name)
}

/// A parameter on which two run records differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordDifference {
    /// The parameter (`command`, `input`, `shard` or a flag name).
    pub name: String,
    /// Its value in the file's record.
    pub found: Value,
    /// Its value in this run.
    pub expected: Value,
}

impl fmt::Display for RecordDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {}, this run has {}",
            self.name, self.found, self.expected
        )
    }
}

/// Why a results file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// The file cannot be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The results file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file cannot be written (or, `append`, appended to).
    #[error("cannot {} {}", if *append { "append to" } else { "write" }, path.display())]
    Write {
        /// The results file.
        path: PathBuf,
        /// Whether rows were to be appended.
        append: bool,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The cut-off last line cannot be removed.
    #[error("cannot repair {}", path.display())]
    Repair {
        /// The results file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not text.
    #[error("{}: not a sudolab JSON Lines output", path.display())]
    NotText {
        /// The results file.
        path: PathBuf,
        /// Where the bytes stop being UTF-8.
        #[source]
        source: std::str::Utf8Error,
    },
    /// A line is not JSON.
    #[error(
        "{} line {line}: not a JSON record; is it a sudolab JSON Lines output?{}",
        path.display(),
        if *last { " It is the last line: one damaged by a full disk or a crash can be deleted (the run with --resume computes its puzzle again)." } else { "" }
    )]
    NotJson {
        /// The results file.
        path: PathBuf,
        /// 1-based line of the file.
        line: usize,
        /// Whether it is the file's last line, the one a crash damages.
        last: bool,
        /// What the JSON parser said.
        #[source]
        source: serde_json::Error,
    },
    /// A blank line among the rows: no run writes one, so the file was
    /// edited or joined by hand, and which rows it holds is not sure.
    #[error(
        "{} line {line}: a blank line: no run writes one (was the file edited or joined by hand?); remove it, after checking the rows around it, to resume or merge the file",
        path.display()
    )]
    BlankLine {
        /// The results file.
        path: PathBuf,
        /// Its 1-based line.
        line: usize,
    },
    /// A row without the input line or the puzzle it belongs to.
    #[error(
        "{} line {line}: no `line` or `puzzle` field: not a row streamed by `sudolab analyze` or `relax -f jsonl`, or one written by an older sudolab (compute it again into a new file)",
        path.display()
    )]
    NoLine {
        /// The results file.
        path: PathBuf,
        /// 1-based line of the file.
        line: usize,
    },
    /// A row computed with other parameters than this run's.
    #[error(
        "{} line {line} was written with {name} = {found}, this run has {expected}: resume with the same parameters, or write to another file",
        path.display()
    )]
    OtherParameters {
        /// The results file.
        path: PathBuf,
        /// 1-based line of the file.
        line: usize,
        /// The parameter, dotted (`params.seed`).
        name: String,
        /// Its value in the row (null when absent).
        found: Box<Value>,
        /// Its value in this run.
        expected: Box<Value>,
    },
    /// The file holds another puzzle for an input line than the input.
    #[error(
        "{} holds puzzle {found} for input line {input_line}, but input line {input_line} is {puzzle}: the file was written from another input (use another -o file)",
        path.display()
    )]
    OtherInput {
        /// The results file.
        path: PathBuf,
        /// 1-based input line.
        input_line: u64,
        /// The puzzle the file has for it.
        found: String,
        /// The puzzle the input has on that line.
        puzzle: String,
    },
    /// The run record beside the file is not one.
    #[error("{}: not a sudolab run record", path.display())]
    BadRecord {
        /// The record's file.
        path: PathBuf,
        /// What the JSON parser said.
        #[source]
        source: serde_json::Error,
    },
    /// A file in the place of a results file's run record that is not one:
    /// the user's, kept rather than replaced.
    #[error(
        "{} is in the place of {}'s run record and is not one (kept, not replaced): move it away, or write to another file",
        path.display(),
        results.display()
    )]
    NotARecord {
        /// The file in the record's place.
        path: PathBuf,
        /// The results file.
        results: PathBuf,
    },
    /// Rows but no run record: the file cannot be checked against this run.
    #[error(
        "{} has rows but no run record ({}): written by an older sudolab or moved without it, so its parameters and input cannot be checked; compute into a new file",
        path.display(),
        record.display()
    )]
    NoRecord {
        /// The results file.
        path: PathBuf,
        /// Where its record would be (beside the file a symbolic link
        /// names).
        record: PathBuf,
    },
    /// The file was written by another run.
    #[error(
        "{} was written with {difference}: resume with the same parameters and input, or write to another file",
        path.display()
    )]
    OtherRun {
        /// The results file.
        path: PathBuf,
        /// The first parameter that differs.
        difference: Box<RecordDifference>,
    },
    /// A row found twice in a file being resumed.
    #[error(
        "{} line {again_line}: input line {input_line}{} again (first at line {first_line}): a damaged file (merge refuses it too); remove the duplicate or compute into a new file",
        path.display(),
        k.map(|k| format!(" (k = {k})")).unwrap_or_default()
    )]
    DuplicateRow {
        /// The results file.
        path: PathBuf,
        /// The row's input line.
        input_line: u64,
        /// Its `k`, if keyed by one.
        k: Option<u64>,
        /// 1-based file line of its first copy.
        first_line: usize,
        /// 1-based file line of the copy.
        again_line: usize,
    },
    /// A row before one of an earlier input line in a file being resumed.
    #[error(
        "{} line {line}: input line {input_line} comes after input line {after}: rows out of input order (a damaged file; merge refuses it too); sort it with `sudolab merge` or compute into a new file",
        path.display()
    )]
    OutOfOrder {
        /// The results file.
        path: PathBuf,
        /// 1-based file line of the row.
        line: usize,
        /// Its input line.
        input_line: u64,
        /// The input line of the row before it.
        after: u64,
    },
    /// A row for an input line the input does not have.
    #[error(
        "{} line {line} has a row for input line {input_line}, but the input has {input_lines} line(s): the file was written from another input (use another -o file)",
        path.display()
    )]
    BeyondInput {
        /// The results file.
        path: PathBuf,
        /// 1-based file line of the row.
        line: usize,
        /// Its input line.
        input_line: u64,
        /// Lines of the input.
        input_lines: u64,
    },
    /// A shard whose last row is cut short.
    #[error(
        "{}: the last line is cut short (an interrupted shard): finish it with --resume first",
        path.display()
    )]
    TornShard {
        /// The shard's results file.
        path: PathBuf,
    },
}

/// A results file's complete lines, read once.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    /// Every byte up to and including the last newline.
    complete: String,
    /// Bytes after the last newline (a record cut short).
    torn: usize,
}

/// One row of a results file.
#[derive(Debug, Clone)]
pub struct ResultRow<'a> {
    /// 1-based line of the results file.
    pub file_line: usize,
    /// Where the row belongs in the input.
    pub key: RowKey,
    /// The puzzle of the row, as one line.
    pub puzzle: String,
    /// The row as written.
    pub text: &'a str,
    /// The row parsed.
    pub value: Value,
}

impl ResultsFile {
    /// Reads `path`; a cut-off last line is set apart, not parsed.
    pub fn read(path: &Path) -> Result<ResultsFile, ResultsError> {
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|source| ResultsError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let torn = bytes.len() - end;
        bytes.truncate(end);
        let complete = String::from_utf8(bytes).map_err(|e| ResultsError::NotText {
            path: path.to_path_buf(),
            source: e.utf8_error(),
        })?;
        Ok(ResultsFile {
            path: path.to_path_buf(),
            complete,
            torn,
        })
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of a last line cut short by an interrupted run (0: none).
    pub fn torn_bytes(&self) -> usize {
        self.torn
    }

    /// Cuts the file back to its complete lines, so rows appended next start
    /// on a line of their own.
    pub fn drop_torn_line(&self) -> Result<(), ResultsError> {
        OpenOptions::new()
            .write(true)
            .open(&self.path)
            .and_then(|f| f.set_len(self.complete.len() as u64))
            .map_err(|source| ResultsError::Repair {
                path: self.path.clone(),
                source,
            })
    }

    /// The rows of the complete lines, each checked in turn: a JSON
    /// record, with `spec`'s parameters, with `line` and `puzzle`, keyed by
    /// `line` and `spec`'s key fields; a blank line among the rows is
    /// refused ([`ResultsError::BlankLine`]), blank lines after the last
    /// row are skipped.
    pub fn rows<'a>(
        &'a self,
        spec: &'a RowSpec,
    ) -> impl Iterator<Item = Result<ResultRow<'a>, ResultsError>> + 'a {
        // Blank lines after the last row (an editor's) are skipped.
        let rows_end = self
            .complete
            .lines()
            .enumerate()
            .filter(|(_, text)| !text.trim().is_empty())
            .last()
            .map_or(0, |(i, _)| i + 1);
        let lines = self.complete.lines().take(rows_end);
        lines.enumerate().map(move |(i, text)| {
            if text.trim().is_empty() {
                Err(ResultsError::BlankLine {
                    path: self.path.clone(),
                    line: i + 1,
                })
            } else {
                self.row(i + 1, text, spec)
            }
        })
    }

    fn row<'a>(
        &self,
        file_line: usize,
        text: &'a str,
        spec: &RowSpec,
    ) -> Result<ResultRow<'a>, ResultsError> {
        let value: Value = serde_json::from_str(text).map_err(|source| ResultsError::NotJson {
            path: self.path.clone(),
            line: file_line,
            last: self.complete.lines().count() == file_line,
            source,
        })?;
        for (pointer, expected) in &spec.params {
            let found = value.pointer(pointer).unwrap_or(&Value::Null);
            if found != expected {
                return Err(ResultsError::OtherParameters {
                    path: self.path.clone(),
                    line: file_line,
                    name: pointer.trim_start_matches('/').replace('/', "."),
                    found: Box::new(found.clone()),
                    expected: Box::new(expected.clone()),
                });
            }
        }
        let (Some(line), Some(puzzle)) = (value["line"].as_u64(), value["puzzle"].as_str()) else {
            return Err(ResultsError::NoLine {
                path: self.path.clone(),
                line: file_line,
            });
        };
        let key = RowKey {
            line,
            fields: spec.key.iter().map(|f| value[*f].as_u64()).collect(),
        };
        Ok(ResultRow {
            file_line,
            key,
            puzzle: puzzle.to_string(),
            text,
            value,
        })
    }
}

/// The rows an earlier run already wrote: key → puzzle.
#[derive(Debug, Default)]
pub struct DoneRows {
    path: PathBuf,
    puzzles: HashMap<RowKey, String>,
    /// The row of the largest input line: its file line and input line.
    last: Option<(usize, u64)>,
}

impl DoneRows {
    /// The rows of `file`, which must all match `spec`, each once and in
    /// input order (as `merge` checks them): a duplicated row, or one
    /// before a row of an earlier input line, is an error naming both.
    /// A sweep's rows go by input line, then k, except that a grown sweep
    /// (a file with several k) appends the new k of every line after the
    /// earlier rows, so only its duplicates are checked.
    pub fn read(file: &ResultsFile, spec: &RowSpec) -> Result<DoneRows, ResultsError> {
        let mut puzzles = HashMap::new();
        let mut file_lines: HashMap<RowKey, usize> = HashMap::new();
        let mut ks = BTreeSet::new();
        let mut previous: Option<u64> = None;
        let mut last: Option<(usize, u64)> = None;
        for row in file.rows(spec) {
            let row = row?;
            if let Some(&first_line) = file_lines.get(&row.key) {
                return Err(ResultsError::DuplicateRow {
                    path: file.path.clone(),
                    input_line: row.key.line,
                    k: row.key.fields.first().copied().flatten(),
                    first_line,
                    again_line: row.file_line,
                });
            }
            ks.insert(row.key.fields.first().copied().flatten());
            if let Some(after) = previous
                && row.key.line < after
                && ks.len() <= 1
            {
                return Err(ResultsError::OutOfOrder {
                    path: file.path.clone(),
                    line: row.file_line,
                    input_line: row.key.line,
                    after,
                });
            }
            previous = Some(row.key.line);
            if last.is_none_or(|(_, l)| row.key.line > l) {
                last = Some((row.file_line, row.key.line));
            }
            file_lines.insert(row.key.clone(), row.file_line);
            puzzles.insert(row.key, row.puzzle);
        }
        Ok(DoneRows {
            path: file.path.clone(),
            puzzles,
            last,
        })
    }

    /// Refuses rows for input lines past the `input_lines` lines of the
    /// input, as `merge --input` does.
    pub fn check_within(&self, input_lines: u64) -> Result<(), ResultsError> {
        match self.last {
            Some((line, input_line)) if input_line > input_lines => {
                Err(ResultsError::BeyondInput {
                    path: self.path.clone(),
                    line,
                    input_line,
                    input_lines,
                })
            }
            _ => Ok(()),
        }
    }

    /// Rows done (one per key).
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    /// True when no row is done.
    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    /// Is the row of `key` done? An error when the file holds another puzzle
    /// for that input line than `puzzle`.
    pub fn contains(&self, key: &RowKey, puzzle: &str) -> Result<bool, ResultsError> {
        let Some(found) = self.puzzles.get(key) else {
            return Ok(false);
        };
        if found != puzzle {
            return Err(ResultsError::OtherInput {
                path: self.path.clone(),
                input_line: key.line,
                found: found.clone(),
                puzzle: puzzle.to_string(),
            });
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec() -> RowSpec {
        RowSpec {
            key: &["k"],
            params: vec![
                ("/samples".into(), json!(10)),
                ("/params/seed".into(), json!(1)),
            ],
        }
    }

    const ROW: &str = r#"{"line":3,"puzzle":"1.","k":45,"samples":10,"params":{"seed":1}}"#;

    #[test]
    fn rows_are_keyed_by_line_and_k_and_a_cut_off_record_is_set_apart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, format!("{ROW}\n\n{}", &ROW[..30])).unwrap();
        let file = ResultsFile::read(&path).unwrap();
        assert_eq!(file.torn_bytes(), 30);
        let done = DoneRows::read(&file, &spec()).unwrap();
        assert_eq!(done.len(), 1);
        assert!(done.contains(&RowKey::new(3, &[45]), "1.").unwrap());
        assert!(!done.contains(&RowKey::new(3, &[50]), "1.").unwrap());
        assert!(!done.contains(&RowKey::new(4, &[45]), "1.").unwrap());
        let e = done
            .contains(&RowKey::new(3, &[45]), "2.")
            .unwrap_err()
            .to_string();
        assert!(e.contains("another input"), "{e}");
        file.drop_torn_line().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{ROW}\n\n")
        );
    }

    #[test]
    fn errors_name_the_file_line_and_parameter() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let read = |text: String| {
            std::fs::write(&path, text).unwrap();
            let file = ResultsFile::read(&path).unwrap();
            DoneRows::read(&file, &spec()).unwrap_err().to_string()
        };
        let e = read(format!(
            "{ROW}\n{}\n",
            ROW.replace("\"seed\":1", "\"seed\":2")
        ));
        assert!(
            e.contains("out.jsonl line 2 was written with params.seed = 2, this run has 1"),
            "{e}"
        );
        let e = read(format!("{ROW}\n\n{ROW}\n"));
        assert!(e.contains("out.jsonl line 2: a blank line"), "{e}");
        let e = read(format!("{ROW}\nnot json\n"));
        assert!(e.contains("out.jsonl line 2: not a JSON record"), "{e}");
        // A damaged last line (a full disk) is named as such; one in the
        // middle is not.
        assert!(e.contains("It is the last line"), "{e}");
        let e = read(format!("not json\n{ROW}\n"));
        assert!(e.contains("line 1: not a JSON record"), "{e}");
        assert!(!e.contains("last line"), "{e}");
        let e =
            read(r#"{"puzzle":"1.","k":45,"samples":10,"params":{"seed":1}}"#.to_string() + "\n");
        assert!(e.contains("line 1: no `line`"), "{e}");
        std::fs::write(&path, b"\xff\xfe\n").unwrap();
        let e = ResultsFile::read(&path).unwrap_err().to_string();
        assert!(e.contains("not a sudolab JSON Lines output"), "{e}");
    }
}
