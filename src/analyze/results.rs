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
//! * merging shards (`sudolab merge`, [`merge_shards`]): the rows of all
//!   shards in input order, keyed by line and `k`, every row computed with
//!   the same parameters, duplicated rows and (with the input,
//!   [`MergedRows::check_input`]) missing or mismatched ones listed as
//!   [`MergeProblem`]s.
//!
//! What no row says is kept beside the file, in a run record
//! ([`RunRecord`], `FILE.run.json`): the command, every parameter that
//! changes a row (the relaxation's `k` or sweep, samples, seed, cap, engines,
//! verified samples, metric groups, the alphabet), the input's identity (a
//! hash of its bytes, [`input_identity`]) and the shard. A resumed run
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

use super::AnalyzeParams;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
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

/// The identity of a puzzle input: a 64-bit FNV-1a hash of its bytes, as
/// `fnv1a64:` and 16 hex digits (a hash defined here, so it never changes
/// with a dependency's release). Reads `input` to its end.
pub(crate) fn input_identity(mut input: impl Read) -> std::io::Result<String> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut buf = [0u8; 64 * 1024];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        for &b in &buf[..n] {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    Ok(format!("fnv1a64:{hash:016x}"))
}

/// The input identity of a run reading standard input: it cannot be hashed
/// before the run, so only each kept row's puzzle is compared with its line.
pub(crate) const STDIN_INPUT: &str = "stdin";

/// How a results file was made: everything that decides its rows besides
/// the puzzles. Written beside the file ([`RunRecord::path_for`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RunRecord {
    /// The subcommand (`analyze`, `relax`).
    pub command: String,
    /// Every parameter that changes a row, by flag name (`k` or `sweep`
    /// for relax: the list of k values).
    pub params: Map<String, Value>,
    /// The input's identity: [`input_identity`], [`STDIN_INPUT`] or
    /// `embedded examples`.
    pub input: String,
    /// `I/N` when the run read one shard of the input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
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

impl RunRecord {
    /// Where the record of results file `results` is: `results.run.json`.
    pub(crate) fn path_for(results: &Path) -> PathBuf {
        let mut name = results.as_os_str().to_owned();
        name.push(".run.json");
        PathBuf::from(name)
    }

    /// The record of `results`, `None` when it has none.
    pub(crate) fn read(results: &Path) -> Result<Option<RunRecord>, ResultsError> {
        let path = RunRecord::path_for(results);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ResultsError::Read { path, source }),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| ResultsError::BadRecord { path, source })
    }

    /// The record as the text of its file (written beside the results
    /// file by `crate::batch::sink::write_record`, atomically and without
    /// following a link planted at its path).
    pub(crate) fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record serialises") + "\n"
    }

    /// The first parameter on which `self` (a file's record) and `run`
    /// differ: the command, then the parameters in `run`'s order, the input
    /// and (with `shard`) the shard. A sweep whose k values include all of
    /// the file's is the same run grown, not a difference.
    pub(crate) fn difference(&self, run: &RunRecord, shard: bool) -> Option<RecordDifference> {
        let differ = |name: &str, found: Value, expected: Value| {
            (found != expected).then(|| RecordDifference {
                name: name.to_string(),
                found,
                expected,
            })
        };
        let text = |s: &Option<String>| s.clone().map_or(Value::Null, Value::from);
        let mut names: Vec<&String> = run.params.keys().collect();
        names.extend(self.params.keys().filter(|k| !run.params.contains_key(*k)));
        differ(
            "command",
            self.command.clone().into(),
            run.command.clone().into(),
        )
        .or_else(|| {
            names.into_iter().find_map(|name| {
                let found = self.params.get(name).cloned().unwrap_or_default();
                let expected = run.params.get(name).cloned().unwrap_or_default();
                if name == "sweep" && grows(&found, &expected) {
                    return None;
                }
                differ(name, found, expected)
            })
        })
        .or_else(|| differ("input", self.input.clone().into(), run.input.clone().into()))
        .or_else(|| {
            shard
                .then(|| differ("shard", text(&self.shard), text(&run.shard)))
                .flatten()
        })
    }
}

/// Whether list `to` holds every value of list `from`.
fn grows(from: &Value, to: &Value) -> bool {
    match (from.as_array(), to.as_array()) {
        (Some(from), Some(to)) => from.iter().all(|v| to.contains(v)),
        _ => false,
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
        "{} line {line}: not a JSON record; is it a sudolab JSON Lines output?",
        path.display()
    )]
    NotJson {
        /// The results file.
        path: PathBuf,
        /// 1-based line of the file.
        line: usize,
        /// What the JSON parser said.
        #[source]
        source: serde_json::Error,
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
    /// Rows but no run record: the file cannot be checked against this run.
    #[error(
        "{} has rows but no run record ({}): written by an older sudolab or moved without it, so its parameters and input cannot be checked; compute into a new file",
        path.display(),
        RunRecord::path_for(path).display()
    )]
    NoRecord {
        /// The results file.
        path: PathBuf,
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

    /// The rows of the complete lines (blank lines skipped), each checked
    /// in turn: a JSON record, with `spec`'s parameters, with `line` and
    /// `puzzle`, keyed by `line` and `spec`'s key fields.
    pub fn rows<'a>(
        &'a self,
        spec: &'a RowSpec,
    ) -> impl Iterator<Item = Result<ResultRow<'a>, ResultsError>> + 'a {
        self.complete
            .lines()
            .enumerate()
            .filter(|(_, text)| !text.trim().is_empty())
            .map(move |(i, text)| self.row(i + 1, text, spec))
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

/// Shards' rows are keyed by input line and `k` (a relaxation sweep has one
/// row per `k`; other rows have a constant or no `k`).
const SHARD_KEY: &[&str] = &["k"];

/// Fields that hold a row's parameters: every row of the shards of one run
/// must agree on them (`samples` only without a `precision`, where it is
/// what each row needed).
const PARAMETER_FIELDS: [&str; 5] = ["params", "samples", "precision", "seed", "cap"];

/// A reason the shards cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MergeProblem {
    /// The same row is in two places.
    Duplicate {
        /// Input line of the row.
        input_line: u64,
        /// Its `k`, if the row has one.
        k: Option<u64>,
        /// The shard where it was first found.
        first: PathBuf,
        /// The shard where it is again.
        again: PathBuf,
        /// 1-based line of `again`.
        again_line: usize,
    },
    /// An input line no shard has a row for.
    Missing {
        /// The input line.
        input_line: u64,
        /// The missing `k`, when the shards hold several values of `k`.
        k: Option<u64>,
    },
    /// A shard has another puzzle for an input line than the input.
    OtherPuzzle {
        /// The input line.
        input_line: u64,
        /// Its puzzle in the input.
        input: String,
        /// The shard.
        shard: PathBuf,
        /// The puzzle the shard has for it.
        found: String,
    },
    /// A row for an input line the input does not have.
    NotInInput {
        /// The row's input line.
        input_line: u64,
        /// Its `k`, when the shards hold several values of `k`.
        k: Option<u64>,
        /// The shard.
        shard: PathBuf,
    },
    /// A shard without its run record.
    NoRecord {
        /// The shard.
        shard: PathBuf,
    },
    /// A shard written by another run than the first shard.
    OtherRun {
        /// The shard.
        shard: PathBuf,
        /// The first shard.
        first: PathBuf,
        /// The first parameter that differs (`this run` = the first shard).
        difference: RecordDifference,
    },
    /// A row computed with other parameters than the first row.
    MixedRows {
        /// The shard with the differing row.
        shard: PathBuf,
        /// 1-based line of that file.
        line: usize,
        /// The row's parameter fields.
        found: Box<Value>,
        /// The shard whose first row set the parameters.
        first: PathBuf,
        /// Its parameter fields.
        expected: Box<Value>,
    },
    /// The shards read another input than `--input`.
    OtherInput {
        /// The identity in the shards' records.
        found: String,
        /// The identity of `--input`.
        input: String,
    },
}

impl fmt::Display for MergeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k_text = |k: &Option<u64>| k.map(|k| format!(" (k = {k})")).unwrap_or_default();
        match self {
            MergeProblem::Duplicate {
                input_line,
                k,
                first,
                again,
                again_line,
            } => write!(
                f,
                "input line {input_line}{} is in {} and again in {} line {again_line}",
                k_text(k),
                first.display(),
                again.display()
            ),
            MergeProblem::Missing { input_line, k } => {
                write!(f, "input line {input_line}{} is in no shard", k_text(k))
            }
            MergeProblem::OtherPuzzle {
                input_line,
                input,
                shard,
                found,
            } => write!(
                f,
                "input line {input_line} is {input} but {} has {found} for it",
                shard.display()
            ),
            MergeProblem::NotInInput {
                input_line,
                k,
                shard,
            } => write!(
                f,
                "{} has a row for input line {input_line}{}, which the input does not have",
                shard.display(),
                k_text(k)
            ),
            MergeProblem::NoRecord { shard } => write!(
                f,
                "{} has no run record ({}): its parameters and input cannot be checked",
                shard.display(),
                RunRecord::path_for(shard).display()
            ),
            MergeProblem::OtherRun {
                shard,
                first,
                difference: d,
            } => write!(
                f,
                "{} was computed with {} = {}, {} with {}: shards of one run share their parameters",
                shard.display(),
                d.name,
                d.found,
                first.display(),
                d.expected
            ),
            MergeProblem::MixedRows {
                shard,
                line,
                found,
                first,
                expected,
            } => write!(
                f,
                "{} line {line} was computed with {found}, {} with {expected}: shards of one run share their parameters",
                shard.display(),
                first.display()
            ),
            MergeProblem::OtherInput { found, input } => write!(
                f,
                "the shards read an input with identity {found}, but --input is {input}"
            ),
        }
    }
}

/// A row kept for the merge.
#[derive(Debug)]
struct MergedRow {
    puzzle: String,
    text: String,
    /// Index of its shard in [`MergedRows::shards`].
    shard: usize,
}

/// The rows of all shards in input order, and what keeps them from being
/// merged.
#[derive(Debug)]
pub(crate) struct MergedRows {
    shards: Vec<PathBuf>,
    /// The run record of the merged file: the first shard's, without its shard.
    record: Option<RunRecord>,
    rows: BTreeMap<RowKey, MergedRow>,
    problems: Vec<MergeProblem>,
}

/// Reads the shards' JSON Lines outputs and keys their rows by input line
/// and `k`. A row found twice is a [`MergeProblem::Duplicate`] (the first is
/// kept); a shard without a run record, with another record than the first
/// shard's (the shard aside), or with a row computed with other parameters
/// than the first row of the first shard is a problem too; a cut-off shard
/// or a line that is no row is an error.
pub(crate) fn merge_shards(paths: &[PathBuf]) -> Result<MergedRows, ResultsError> {
    let spec = RowSpec {
        key: SHARD_KEY,
        params: Vec::new(),
    };
    let mut merged = MergedRows {
        shards: paths.to_vec(),
        record: None,
        rows: BTreeMap::new(),
        problems: Vec::new(),
    };
    let mut params: Option<(Value, usize)> = None;
    let mut first_record: Option<(RunRecord, usize)> = None;
    for (shard, path) in paths.iter().enumerate() {
        let file = ResultsFile::read(path)?;
        if file.torn_bytes() > 0 {
            return Err(ResultsError::TornShard { path: path.clone() });
        }
        match (RunRecord::read(path)?, &first_record) {
            (None, _) => merged.problems.push(MergeProblem::NoRecord {
                shard: path.clone(),
            }),
            (Some(record), None) => first_record = Some((record, shard)),
            (Some(record), Some((first, from))) => {
                if let Some(difference) = record.difference(first, false) {
                    merged.problems.push(MergeProblem::OtherRun {
                        shard: path.clone(),
                        first: paths[*from].clone(),
                        difference,
                    });
                }
            }
        }
        for row in file.rows(&spec) {
            let row = row?;
            let to_precision = row.value.get("precision").is_some_and(|p| !p.is_null());
            let row_params: Value = PARAMETER_FIELDS
                .iter()
                .filter(|f| !(to_precision && **f == "samples"))
                .map(|f| {
                    (
                        f.to_string(),
                        row.value.get(*f).cloned().unwrap_or_default(),
                    )
                })
                .collect::<serde_json::Map<_, _>>()
                .into();
            match &params {
                None => params = Some((row_params, shard)),
                Some((first, from)) if *first != row_params => {
                    merged.problems.push(MergeProblem::MixedRows {
                        shard: path.clone(),
                        line: row.file_line,
                        found: Box::new(row_params),
                        first: paths[*from].clone(),
                        expected: Box::new(first.clone()),
                    });
                    continue;
                }
                Some(_) => {}
            }
            if let Some(other) = merged.rows.get(&row.key) {
                merged.problems.push(MergeProblem::Duplicate {
                    input_line: row.key.line,
                    k: row.key.fields[0],
                    first: paths[other.shard].clone(),
                    again: path.clone(),
                    again_line: row.file_line,
                });
                continue;
            }
            merged.rows.insert(
                row.key,
                MergedRow {
                    puzzle: row.puzzle,
                    text: row.text.to_string(),
                    shard,
                },
            );
        }
    }
    merged.record = first_record.map(|(record, _)| RunRecord {
        shard: None,
        ..record
    });
    Ok(merged)
}

impl MergedRows {
    /// Checks the rows against the input the shards read: its identity
    /// ([`input_identity`]) must be the shards' (unless they read stdin),
    /// and its `(line, puzzle)` pairs must be covered exactly: every line a
    /// row for every `k` the shards hold, with the same puzzle, and no row
    /// for a line the input does not have. What is not is added to
    /// [`Self::problems`].
    pub(crate) fn check_input(
        &mut self,
        identity: &str,
        input: impl IntoIterator<Item = (usize, String)>,
    ) {
        if let Some(record) = &self.record
            && record.input != STDIN_INPUT
            && record.input != identity
        {
            self.problems.push(MergeProblem::OtherInput {
                found: record.input.clone(),
                input: identity.to_string(),
            });
        }
        let ks: BTreeSet<Option<u64>> = self.rows.keys().map(|key| key.fields[0]).collect();
        let mut covered: BTreeSet<u64> = BTreeSet::new();
        for (line, puzzle) in input {
            covered.insert(line as u64);
            for &k in &ks {
                let key = RowKey {
                    line: line as u64,
                    fields: vec![k],
                };
                match self.rows.get(&key) {
                    None => self.problems.push(MergeProblem::Missing {
                        input_line: key.line,
                        k: k.filter(|_| ks.len() > 1),
                    }),
                    Some(row) if row.puzzle != puzzle => {
                        self.problems.push(MergeProblem::OtherPuzzle {
                            input_line: key.line,
                            input: puzzle.clone(),
                            shard: self.shards[row.shard].clone(),
                            found: row.puzzle.clone(),
                        })
                    }
                    Some(_) => {}
                }
            }
        }
        for (key, row) in &self.rows {
            if !covered.contains(&key.line) {
                self.problems.push(MergeProblem::NotInInput {
                    input_line: key.line,
                    k: key.fields[0].filter(|_| ks.len() > 1),
                    shard: self.shards[row.shard].clone(),
                });
            }
        }
    }

    /// The run record of the merged file (`None` when the shards have none).
    pub(crate) fn record(&self) -> Option<&RunRecord> {
        self.record.as_ref()
    }

    /// What keeps the shards from being merged (empty: they merge).
    pub(crate) fn problems(&self) -> &[MergeProblem] {
        &self.problems
    }

    /// Rows merged.
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// The merged file: every row as written, in input order (line, then `k`).
    pub(crate) fn to_jsonl(&self) -> String {
        let mut merged = String::new();
        for row in self.rows.values() {
            merged.push_str(&row.text);
            merged.push('\n');
        }
        merged
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    impl RunRecord {
        /// Writes the record of `results` beside it, as a run does.
        fn write_for_test(&self, results: &Path) {
            crate::batch::sink::write_record(self, results).unwrap();
        }
    }

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
        let e = read("\nnot json\n".into());
        assert!(e.contains("out.jsonl line 2: not a JSON record"), "{e}");
        let e =
            read(r#"{"puzzle":"1.","k":45,"samples":10,"params":{"seed":1}}"#.to_string() + "\n");
        assert!(e.contains("line 1: no `line`"), "{e}");
        std::fs::write(&path, b"\xff\xfe\n").unwrap();
        let e = ResultsFile::read(&path).unwrap_err().to_string();
        assert!(e.contains("not a sudolab JSON Lines output"), "{e}");
    }

    fn record(samples: u64) -> RunRecord {
        RunRecord {
            command: "relax".into(),
            params: json!({"k": 45, "samples": samples})
                .as_object()
                .cloned()
                .unwrap(),
            input: "fnv1a64:0000000000000001".into(),
            shard: None,
        }
    }

    #[test]
    fn shards_merge_in_input_order_and_name_their_problems() {
        let dir = tempfile::tempdir().unwrap();
        let row = |line: usize, k: usize, puzzle: &str| {
            format!(r#"{{"line":{line},"puzzle":"{puzzle}","k":{k},"samples":5}}"#)
        };
        let a = dir.path().join("a.jsonl");
        let b = dir.path().join("b.jsonl");
        std::fs::write(&a, format!("{}\n{}\n", row(3, 0, "3."), row(1, 5, "1."))).unwrap();
        std::fs::write(&b, format!("{}\n{}\n", row(1, 0, "1."), row(3, 0, "3."))).unwrap();
        let mut merged = merge_shards(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(
            merged.problems()[..2],
            [
                MergeProblem::NoRecord { shard: a.clone() },
                MergeProblem::NoRecord { shard: b.clone() }
            ]
        );
        for (path, shard) in [(&a, "1/2"), (&b, "2/2")] {
            RunRecord {
                shard: Some(shard.into()),
                ..record(5)
            }
            .write_for_test(path);
        }
        merged = merge_shards(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(merged.len(), 3);
        assert_eq!(merged.record(), Some(&record(5)), "the shard is dropped");
        assert_eq!(
            merged.to_jsonl(),
            format!(
                "{}\n{}\n{}\n",
                row(1, 0, "1."),
                row(1, 5, "1."),
                row(3, 0, "3.")
            )
        );
        merged.check_input(
            "fnv1a64:0000000000000002",
            [(1, "1.".to_string()), (3, "4.".into())],
        );
        let problems: Vec<String> = merged.problems().iter().map(|p| p.to_string()).collect();
        assert_eq!(
            problems,
            vec![
                format!(
                    "input line 3 (k = 0) is in {} and again in {} line 2",
                    a.display(),
                    b.display()
                ),
                "the shards read an input with identity fnv1a64:0000000000000001, but --input is fnv1a64:0000000000000002".to_string(),
                format!("input line 3 is 4. but {} has 3. for it", a.display()),
                "input line 3 (k = 5) is in no shard".to_string(),
            ]
        );
        // Rows past the input's lines are not covered by it.
        merged = merge_shards(&[a.clone(), b.clone()]).unwrap();
        merged.check_input("fnv1a64:0000000000000001", [(1, "1.".to_string())]);
        let problems: Vec<String> = merged.problems().iter().map(|p| p.to_string()).collect();
        assert_eq!(
            problems[1..],
            [format!(
                "{} has a row for input line 3 (k = 0), which the input does not have",
                a.display()
            )]
        );

        std::fs::write(
            &b,
            row(1, 0, "1.").replace("\"samples\":5", "\"samples\":6") + "\n",
        )
        .unwrap();
        record(6).write_for_test(&b);
        let merged = merge_shards(&[a.clone(), b.clone()]).unwrap();
        let problems: Vec<String> = merged.problems().iter().map(|p| p.to_string()).collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].contains("b.jsonl was computed with samples = 6, ")
                && problems[0].contains("a.jsonl with 5"),
            "{}",
            problems[0]
        );
        assert!(problems[1].contains("b.jsonl line 1 was computed with"));
        std::fs::write(&b, row(1, 0, "1.")).unwrap();
        let e = merge_shards(&[a, b]).unwrap_err().to_string();
        assert!(e.contains("the last line is cut short"), "{e}");
    }

    #[test]
    fn run_records_name_the_first_difference_and_let_a_sweep_grow() {
        let file = |params: serde_json::Value, input: &str| RunRecord {
            command: "relax".into(),
            params: params.as_object().cloned().unwrap(),
            input: input.into(),
            shard: Some("1/2".into()),
        };
        let old = file(json!({"k": 45, "samples": 10, "engine": "bitset"}), "x");
        let diff = |run: &RunRecord| old.difference(run, true).map(|d| d.to_string());
        assert_eq!(diff(&old), None);
        assert_eq!(
            diff(&file(
                json!({"k": 44, "samples": 10, "engine": "bitset"}),
                "x"
            )),
            Some("k = 45, this run has 44".into())
        );
        assert_eq!(
            diff(&file(json!({"k": 45, "samples": 10, "engine": "dlx"}), "x")),
            Some(r#"engine = "bitset", this run has "dlx""#.into())
        );
        assert_eq!(
            diff(&file(
                json!({"k": 45, "samples": 10, "engine": "bitset"}),
                "y"
            )),
            Some(r#"input = "x", this run has "y""#.into())
        );
        assert_eq!(
            diff(&file(
                json!({"sweep": [45], "samples": 10, "engine": "bitset"}),
                "x"
            )),
            Some("sweep = null, this run has [45]".into())
        );
        let other_shard = RunRecord {
            shard: None,
            ..old.clone()
        };
        assert_eq!(
            diff(&other_shard),
            Some(r#"shard = "1/2", this run has null"#.into())
        );
        assert_eq!(old.difference(&other_shard, false), None);
        let sweep = file(json!({"sweep": [0, 5]}), "x");
        let grown = file(json!({"sweep": [0, 5, 10]}), "x");
        assert_eq!(sweep.difference(&grown, true), None);
        assert_eq!(
            grown.difference(&sweep, true).map(|d| d.name),
            Some("sweep".to_string())
        );
    }

    #[test]
    fn the_input_identity_is_a_fixed_hash_of_the_bytes() {
        assert_eq!(
            input_identity(&b""[..]).unwrap(),
            "fnv1a64:cbf29ce484222325"
        );
        assert_eq!(
            input_identity(&b"a"[..]).unwrap(),
            "fnv1a64:af63dc4c8601ec8c"
        );
        assert_ne!(
            input_identity(&b"1.\n2.\n"[..]).unwrap(),
            input_identity(&b"2.\n1.\n"[..]).unwrap()
        );
    }
}
