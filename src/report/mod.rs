//! One export layer for every subcommand: a result row type derives
//! `Serialize`, and this module turns a list of rows into JSON, JSON Lines or
//! CSV; text output is the subcommand's own renderer. Files are written
//! atomically (temporary file, then rename), so an interrupted run never
//! leaves a half-written output behind and a failed one never destroys the
//! file that was there; devices and FIFOs are written directly, symbolic
//! links followed ([`OutputTarget`], [`OutputStream`]). The temporary files
//! not yet renamed over their targets are listed, so that a program ended
//! by a signal removes them ([`remove_temporaries`]).
//!
//! [`compute`] gathers the numbers of a report on puzzles, and [`dataset`]
//! those of a report on a data set (distributions, Spearman matrix, each
//! metric against a label, universal classes), in plain data that the
//! command line draws as an HTML page.
//!
//! [`plot`] holds every chart, each an SVG document as a `String` (the
//! sweep of Fig. 8, the fixedness grid, the clause histogram, percentile
//! bars, a histogram and a scatter plot); the command line's HTML report
//! (`sudolab report`) inlines them, and `relax --plot` writes the sweep.

mod compute;
mod dataset;
pub(crate) mod plot;
mod read;

pub use compute::{
    EngineAnswer, EngineCheck, PathStep, PuzzleReport, RatingEntry, Report, ReportError,
    ReportOptions, ReportRequest, ReportSubject, analyze_puzzles, compute_report, puzzle_report,
};
pub use dataset::{
    CorrelationMatrix, DatasetError, DatasetReport, MetricClasses, MetricDistribution,
    SaturationShare, ScatterSeries, dataset_report,
};

use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Output format of a subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
///
/// ```
/// assert_eq!(sudolab::jsonl_line(&[1, 2])?, "[1,2]");
/// # Ok::<(), sudolab::RenderError>(())
/// ```
///
/// # Errors
/// A row that does not serialise.
pub fn jsonl_line<T: Serialize>(row: &T) -> Result<String, RenderError> {
    serde_json::to_string(row)
}

impl Format {
    /// Renders rows as JSON (an array), JSON Lines or CSV (a header from the
    /// first row's flattened fields). `Text` falls back to JSON Lines; the
    /// command line renders its text tables itself.
    ///
    /// # Errors
    /// A row that does not serialise (a map with non-string keys, a failing
    /// `Serialize` impl).
    pub fn render<T: Serialize>(self, rows: &[T]) -> Result<String, RenderError> {
        let mut stream = RowStream::new(self);
        let mut s = stream.rows(rows)?;
        s.push_str(&stream.end());
        Ok(s)
    }
}

/// Rows rendered a part at a time, in the bytes [`Format::render`] gives for
/// all of them at once: a long output is written as its rows come, never
/// held whole. JSON opens its array at the first row and closes it at
/// [`RowStream::end`]; CSV writes its header (the first row's fields) once.
///
/// ```
/// use sudolab::{Format, RowStream};
///
/// let mut stream = RowStream::new(Format::Json);
/// let mut text = stream.rows(&[1])?;
/// text.push_str(&stream.rows(&[2])?);
/// text.push_str(&stream.end());
/// assert_eq!(text, Format::Json.render(&[1, 2])?);
/// # Ok::<(), sudolab::RenderError>(())
/// ```
pub struct RowStream {
    format: Format,
    rows: usize,
    csv_header: Option<Vec<String>>,
}

impl RowStream {
    /// A stream of rows in `format` (`Text`: JSON Lines, as [`Format::render`]).
    pub fn new(format: Format) -> RowStream {
        RowStream {
            format,
            rows: 0,
            csv_header: None,
        }
    }

    /// The text of the next `rows`.
    ///
    /// # Errors
    /// A row that does not serialise.
    pub fn rows<T: Serialize>(&mut self, rows: &[T]) -> Result<String, RenderError> {
        let mut out = Vec::new();
        self.write_rows(rows, &mut out)?;
        String::from_utf8(out).map_err(|e| serde::ser::Error::custom(format!("not UTF-8: {e}")))
    }

    /// [`RowStream::rows`] appended to `out`, a buffer the caller keeps from
    /// one part to the next: JSON Lines rows are serialised straight into
    /// it, with no string of their own, so a stream of short rows costs no
    /// allocation a row.
    ///
    /// ```
    /// use sudolab::{Format, RowStream};
    ///
    /// let mut stream = RowStream::new(Format::Jsonl);
    /// let mut out = Vec::new();
    /// stream.write_rows(&[1, 2], &mut out)?;
    /// assert_eq!(out, Format::Jsonl.render(&[1, 2])?.as_bytes());
    /// # Ok::<(), sudolab::RenderError>(())
    /// ```
    ///
    /// # Errors
    /// A row that does not serialise (`out` then holds the rows before it).
    pub fn write_rows<T: Serialize>(
        &mut self,
        rows: &[T],
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError> {
        match self.format {
            Format::Json => {
                for r in rows {
                    out.extend_from_slice(if self.rows == 0 { b"[\n" } else { b",\n" });
                    self.rows += 1;
                    // The array's elements are indented one level; a JSON
                    // string holds no raw line break, so every line is one
                    // of the row's structure.
                    for (i, line) in serde_json::to_string_pretty(r)?.lines().enumerate() {
                        if i > 0 {
                            out.push(b'\n');
                        }
                        out.extend_from_slice(b"  ");
                        out.extend_from_slice(line.as_bytes());
                    }
                }
            }
            Format::Jsonl | Format::Text => {
                for r in rows {
                    serde_json::to_writer(&mut *out, r)?;
                    out.push(b'\n');
                }
                self.rows += rows.len();
            }
            Format::Csv => out.extend_from_slice(self.csv(rows)?.as_bytes()),
        }
        Ok(())
    }

    /// The text that closes the output (JSON's `]`; nothing for the others).
    pub fn end(&self) -> String {
        match self.format {
            Format::Json if self.rows == 0 => "[]\n".into(),
            Format::Json => "\n]\n".into(),
            _ => String::new(),
        }
    }

    /// CSV of `rows`, with the header before the first row of the stream.
    fn csv<T: Serialize>(&mut self, rows: &[T]) -> Result<String, RenderError> {
        let mut out = csv_writer();
        for row in rows {
            let v = serde_json::to_value(row)?;
            let mut cells = Vec::new();
            flatten("", &v, &mut cells);
            let header = match &self.csv_header {
                Some(h) => h,
                None => {
                    let h: Vec<String> = cells.iter().map(|(k, _)| k.clone()).collect();
                    out.write_record(&h).map_err(csv_error)?;
                    self.csv_header.insert(h)
                }
            };
            let line = header.iter().map(|k| {
                cells
                    .iter()
                    .find(|(c, _)| c == k)
                    .map(|(_, v)| v.as_str())
                    .unwrap_or_default()
            });
            out.write_record(line).map_err(csv_error)?;
            self.rows += 1;
        }
        let bytes = out
            .into_inner()
            .map_err(|e| csv_error(e.into_error().into()))?;
        String::from_utf8(bytes).map_err(|e| serde::ser::Error::custom(format!("CSV: {e}")))
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

/// A CSV writer that quotes a field holding `,`, `"`, a line break or a
/// tab, doubling inner quotes (RFC 4180). The tab is declared the comment
/// character only to make the writer quote it: a field with a tab (a
/// puzzle file's name column) stays one field for TSV-minded readers.
fn csv_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .flexible(true)
        .comment(Some(b'\t'))
        .from_writer(Vec::new())
}

fn csv_error(e: csv::Error) -> RenderError {
    serde::ser::Error::custom(format!("CSV: {e}"))
}

/// Where an output path leads. Symbolic links are followed (the link stays,
/// the file it names is written, as a shell's `>` does); a link to nothing
/// is refused. A device, FIFO or socket is written directly, never
/// replaced by a regular file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputTarget {
    /// A regular file or a new one, at this path (links resolved): written
    /// through a temporary file beside it and renamed over it.
    File(PathBuf),
    /// A device, FIFO or socket: opened for writing as it is.
    Special(PathBuf),
}

impl OutputTarget {
    /// Classifies `path` (following links); an error for a folder, a link to
    /// nothing, or a path that cannot be looked at.
    ///
    /// ```
    /// use sudolab::OutputTarget;
    /// use std::path::Path;
    ///
    /// let new = Path::new("no-such-folder-here/out.jsonl");
    /// assert_eq!(OutputTarget::of(new)?, OutputTarget::File(new.to_path_buf()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    /// A folder, a link to nothing, a path that cannot be looked at.
    pub fn of(path: &Path) -> io::Result<OutputTarget> {
        let meta = match fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(OutputTarget::File(path.to_path_buf()));
            }
            Err(e) => return Err(e),
            Ok(m) => m,
        };
        let resolved = if meta.file_type().is_symlink() {
            fs::canonicalize(path).map_err(|e| {
                let to = fs::read_link(path)
                    .map(|t| t.display().to_string())
                    .unwrap_or_default();
                io::Error::new(
                    e.kind(),
                    format!("a symbolic link to {to}, which cannot be opened ({e})"),
                )
            })?
        } else {
            path.to_path_buf()
        };
        let meta = fs::metadata(&resolved)?;
        if meta.is_dir() {
            Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory, expected a file",
            ))
        } else if meta.is_file() {
            Ok(OutputTarget::File(resolved))
        } else {
            Ok(OutputTarget::Special(resolved))
        }
    }
}

/// The folder a file at `path` lives in (`.` for a bare name).
///
/// ```
/// use std::path::Path;
///
/// assert_eq!(sudolab::folder_of(Path::new("out.jsonl")), Path::new("."));
/// assert_eq!(sudolab::folder_of(Path::new("d/out.jsonl")), Path::new("d"));
/// ```
pub fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Refuses to replace a write-protected file (no write permission for
/// anyone, e.g. mode 400), as the shell's `>` and `cp` do: the protection
/// is the user's word that the file must stay.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("kept.txt");
/// std::fs::write(&path, "rows")?;
/// assert!(sudolab::refuse_write_protected(&path).is_ok());
/// let mut protected = std::fs::metadata(&path)?.permissions();
/// protected.set_readonly(true);
/// std::fs::set_permissions(&path, protected)?;
/// assert!(sudolab::refuse_write_protected(&path).is_err());
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// `PermissionDenied` for a write-protected regular file.
pub fn refuse_write_protected(path: &Path) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(m) if m.is_file() && m.permissions().readonly() => Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the file is write-protected: it is left as it is (make it writable, or choose another output)",
        )),
        _ => Ok(()),
    }
}

/// The temporary files of this process not yet renamed over their
/// targets: what a program removes when a signal ends it
/// ([`remove_temporaries`]).
static TEMPORARIES: std::sync::Mutex<Temporaries> = std::sync::Mutex::new(Temporaries {
    listed: Vec::new(),
    ended: false,
});

/// The listed temporary files, and whether [`remove_temporaries`] has run
/// (then no new one is made: the program is ending).
struct Temporaries {
    /// Each file, with the output it holds finished rows of (a streamed
    /// output replacing an earlier file: its rows are kept, not removed).
    listed: Vec<(PathBuf, Option<PathBuf>)>,
    ended: bool,
}

fn temporaries() -> std::sync::MutexGuard<'static, Temporaries> {
    TEMPORARIES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Lists `path` with the temporary files [`remove_temporaries`] removes (a
/// lock file, a file staged by the caller, a folder the run created: it
/// goes when empty, after the files listed later).
pub fn track_temporary(path: &Path) {
    temporaries().listed.push((path.to_path_buf(), None));
}

/// A temporary file leaves the list once renamed over its target or
/// removed.
///
/// ```
/// use std::path::Path;
///
/// sudolab::track_temporary(Path::new(".out.lock"));
/// sudolab::forget_temporary(Path::new(".out.lock"));
/// ```
pub fn forget_temporary(path: &Path) {
    temporaries().listed.retain(|(p, _)| p != path);
}

/// The finished rows of a run that could not complete its output, kept
/// under a name of their own beside it ([`keep_unfinished_rows`]).
#[derive(Debug, Clone, PartialEq)]
pub struct KeptRows {
    /// The output the rows were written for.
    pub output: PathBuf,
    /// The temporary file that held them.
    pub temporary: PathBuf,
    /// Where they are now (`out.unfinished.jsonl`).
    pub kept: PathBuf,
    /// How many whole lines (rows) they are; a cut-off last line is
    /// dropped.
    pub rows: usize,
}

/// Removes every listed temporary file of this process not yet renamed
/// over its target (`.FILE.XXXXXX.tmp`): what a program interrupted by a
/// signal calls before it ends, so that no temporary file is left and
/// every target keeps its earlier contents. The finished rows of a
/// streamed output that was replacing an earlier file are kept instead
/// ([`keep_unfinished_rows`]) and returned. No temporary file is made after
/// this call ([`new_temp_beside`] refuses), so none is left by a thread
/// still writing.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let lock = dir.path().join(".out.lock");
/// std::fs::write(&lock, "1")?;
/// sudolab::track_temporary(&lock);
/// assert!(sudolab::remove_temporaries().is_empty());
/// assert!(!lock.exists());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn remove_temporaries() -> Vec<KeptRows> {
    let mut listed = temporaries();
    listed.ended = true;
    let mut kept = Vec::new();
    for (path, rows_of) in listed.listed.drain(..).rev() {
        let rows = rows_of.and_then(|output| keep_unfinished_rows(&path, &output).ok());
        match rows {
            Some(rows) => kept.push(rows),
            None if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) => {
                let _ = fs::remove_dir(&path);
            }
            None => {
                let _ = fs::remove_file(&path);
            }
        }
    }
    kept
}

/// Keeps the rows a run left in `temporary` (a temporary file of
/// `output`: `.out.jsonl.XXXXXX.tmp`) under a fresh name beside `output`
/// (`out.unfinished.jsonl`, then `out.unfinished-2.jsonl`, …; nothing is
/// replaced), its cut-off last line dropped.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let out = dir.path().join("out.jsonl");
/// let tmp = dir.path().join(".out.jsonl.a1B2c3.tmp");
/// std::fs::write(&tmp, "{\"line\":1}\n{\"line\":2}\n{\"li")?;
/// let kept = sudolab::keep_unfinished_rows(&tmp, &out)?;
/// assert_eq!((kept.rows, kept.kept.clone()), (2, dir.path().join("out.unfinished.jsonl")));
/// assert_eq!(std::fs::read_to_string(&kept.kept)?, "{\"line\":1}\n{\"line\":2}\n");
/// assert!(!tmp.exists());
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// The file cannot be read, cut or renamed.
pub fn keep_unfinished_rows(temporary: &Path, output: &Path) -> io::Result<KeptRows> {
    let bytes = fs::read(temporary)?;
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole < bytes.len() {
        fs::OpenOptions::new()
            .write(true)
            .open(temporary)?
            .set_len(whole as u64)?;
    }
    let rows = bytes[..whole].iter().filter(|&&b| b == b'\n').count();
    let kept = keep_as_fresh(temporary, |n| tagged_name(output, "unfinished", n))?;
    fs::remove_file(temporary)?;
    Ok(KeptRows {
        output: output.to_path_buf(),
        temporary: temporary.to_path_buf(),
        kept,
        rows,
    })
}

/// The temporary files beside `output` that a run ended by SIGKILL (or a
/// power cut) left: `.NAME.XXXXXX.tmp`, the names [`new_temp_beside`]
/// gives, six letters or digits between. Only a run holding the output's
/// lock may take them for orphans (no other run is writing them).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let out = dir.path().join("out.jsonl");
/// std::fs::write(dir.path().join(".out.jsonl.a1B2c3.tmp"), "x\n")?;
/// std::fs::write(dir.path().join(".out.jsonl.run.json.a1B2c3.tmp"), "x\n")?;
/// let found = sudolab::orphaned_temporaries(&out);
/// assert_eq!(found, [dir.path().join(".out.jsonl.a1B2c3.tmp")]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn orphaned_temporaries(output: &Path) -> Vec<PathBuf> {
    let Some(name) = output.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    let prefix = format!(".{name}.");
    let Ok(entries) = fs::read_dir(folder_of(output)) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| {
            let entry = e.file_name().to_string_lossy().into_owned();
            entry
                .strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(".tmp"))
                .is_some_and(|mid| mid.len() == 6 && mid.bytes().all(|b| b.is_ascii_alphanumeric()))
        })
        .map(|e| output.with_file_name(e.file_name()))
        .collect();
    found.sort();
    found
}

/// A temporary file beside `path` (`.NAME.XXXXXX.tmp`, by `tempfile`),
/// removed when dropped unless persisted. It gets the permissions of the
/// file it will replace (a write-protected one is refused,
/// [`refuse_write_protected`]), or for a new file those `File::create`
/// would give.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("out.txt");
/// let tmp = sudolab::temp_beside(&path)?;
/// assert_eq!(tmp.path().parent(), Some(dir.path()));
/// assert!(tmp.path().file_name().unwrap().to_string_lossy().starts_with(".out.txt."));
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// A write-protected file at `path`, a folder that takes no new file.
pub fn temp_beside(path: &Path) -> io::Result<NamedTempFile> {
    refuse_write_protected(path)?;
    let tmp = new_temp_beside(path)?;
    // Exactly the replaced file's mode, whatever the umask.
    if let Ok(m) = fs::metadata(path)
        && m.is_file()
    {
        tmp.as_file().set_permissions(m.permissions())?;
    }
    Ok(tmp)
}

/// A new temporary file beside `path` (`.NAME.XXXXXX.tmp`) with the
/// permissions the umask gives a new file, listed for removal on a signal.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let tmp = sudolab::new_temp_beside(&dir.path().join("run.json"))?;
/// assert!(tmp.path().to_string_lossy().ends_with(".tmp"));
/// sudolab::forget_temporary(tmp.path());
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// A folder that takes no new file.
pub fn new_temp_beside(path: &Path) -> io::Result<NamedTempFile> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // tempfile's default is 0600; ask for 0666 so the umask decides, as
    // for any file the tool writes.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    // Made and listed under the list's lock: a signal's
    // `remove_temporaries` either removes it or comes first and no file is
    // made.
    let mut listed = temporaries();
    if listed.ended {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "the program is ending on a signal",
        ));
    }
    let tmp = builder.tempfile_in(folder_of(path))?;
    listed.listed.push((tmp.path().to_path_buf(), None));
    Ok(tmp)
}

/// Writes `bytes` to the output `path` by the `OutputTarget` policy: a
/// regular (or new) file atomically, through a temporary file in the same
/// folder flushed and renamed over it (on any failure, a full disk
/// included, the temporary file is removed and the target left as it
/// was); a device or FIFO directly; a symbolic link is followed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut out = OutputStream::new(path, false)?;
    out.write_all(bytes)?;
    out.finish()
}

/// An output written piece by piece, opened only at its first write (or at
/// [`OutputStream::finish`]), so nothing is touched while the input is
/// still being read and checked. A regular file that already holds
/// something is written through a temporary file beside it, renamed over
/// it by `finish`: a run that fails (or is dropped before `finish`) leaves
/// the earlier file as it was and no temporary file. A new file is written
/// in place when `in_place_if_new` (a streamed result that `--resume` can
/// continue after an interruption); a device or FIFO directly.
///
/// ```
/// use std::io::Write;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("out.txt");
/// let mut out = sudolab::OutputStream::new(&path, false)?;
/// assert!(!path.exists());
/// out.write_all(b"rows\n")?;
/// out.finish()?;
/// assert_eq!(std::fs::read_to_string(&path)?, "rows\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct OutputStream {
    target: OutputTarget,
    /// Streamed rows (`in_place_if_new`): a signal that ends the program
    /// keeps those of a temporary file ([`remove_temporaries`]).
    rows: bool,
    /// The output replaces a regular file that holds something (or is
    /// not streamed): written through a temporary file.
    replaces: bool,
    state: StreamState,
}

enum StreamState {
    Closed,
    Direct(fs::File),
    Temp(NamedTempFile),
}

impl OutputStream {
    /// An output to `path`, not opened yet.
    ///
    /// # Errors
    /// A path that is no place for an output ([`OutputTarget::of`]).
    pub fn new(path: &Path, in_place_if_new: bool) -> io::Result<OutputStream> {
        let target = OutputTarget::of(path)?;
        let replaces = match &target {
            OutputTarget::Special(_) => false,
            OutputTarget::File(p) => !in_place_if_new || fs::metadata(p).is_ok_and(|m| m.len() > 0),
        };
        Ok(OutputStream {
            target,
            rows: in_place_if_new,
            replaces,
            state: StreamState::Closed,
        })
    }

    fn open(&mut self) -> io::Result<()> {
        if !matches!(self.state, StreamState::Closed) {
            return Ok(());
        }
        self.state = match &self.target {
            OutputTarget::Special(p) => {
                StreamState::Direct(fs::OpenOptions::new().write(true).open(p)?)
            }
            OutputTarget::File(p) if self.replaces => {
                let tmp = temp_beside(p)?;
                if self.rows {
                    keep_rows_on_signal(tmp.path(), p);
                }
                StreamState::Temp(tmp)
            }
            // A new file is created as new: a symbolic link planted at its
            // path since the run began is not followed.
            OutputTarget::File(p) if !p.exists() => StreamState::Direct(
                fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(p)?,
            ),
            OutputTarget::File(p) => StreamState::Direct(fs::File::create(p)?),
        };
        Ok(())
    }

    /// Completes the output: flushed, and a temporary file renamed over the
    /// target. An output with nothing written is created empty.
    ///
    /// # Errors
    /// The file cannot be created, written or renamed.
    pub fn finish(mut self) -> io::Result<()> {
        self.open()?;
        match std::mem::replace(&mut self.state, StreamState::Closed) {
            StreamState::Closed => Ok(()),
            StreamState::Direct(mut f) => f.flush(),
            StreamState::Temp(mut tmp) => {
                tmp.flush()?;
                tmp.as_file().sync_all()?;
                let OutputTarget::File(path) = &self.target else {
                    unreachable!("only a regular file is written through a temporary file")
                };
                let temporary = tmp.path().to_path_buf();
                let done = tmp.persist(path).map(drop).map_err(|e| e.error);
                forget_temporary(&temporary);
                done
            }
        }
    }
}

impl OutputStream {
    /// True when the output is written in place (a new or empty file, a
    /// resumed one, a device or FIFO): what is written is there at once.
    /// False for a file that replaces an earlier one, renamed over it by
    /// [`OutputStream::finish`].
    pub fn in_place(&self) -> bool {
        !self.replaces
    }

    /// An output appended to the existing file at `path` (opened now).
    ///
    /// ```
    /// use std::io::Write;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("rows.jsonl");
    /// std::fs::write(&path, "1\n")?;
    /// let mut out = sudolab::OutputStream::append(&path)?;
    /// assert!(out.in_place());
    /// out.write_all(b"2\n")?;
    /// out.finish()?;
    /// assert_eq!(std::fs::read_to_string(&path)?, "1\n2\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    /// No file at `path`, or one that cannot be opened for appending.
    pub fn append(path: &Path) -> io::Result<OutputStream> {
        let target = OutputTarget::of(path)?;
        let file = match &target {
            OutputTarget::File(p) | OutputTarget::Special(p) => {
                fs::OpenOptions::new().append(true).open(p)?
            }
        };
        Ok(OutputStream {
            target,
            rows: true,
            replaces: false,
            state: StreamState::Direct(file),
        })
    }

    /// Completes an output that a signal interrupted, losing nothing: the
    /// rows written so far take the target, and a file they replace is
    /// kept under a fresh name beside it ([`earlier_name`]), which
    /// is returned. Nothing written yet: the earlier file stays as it was.
    ///
    /// ```
    /// use std::io::Write;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("rows.jsonl");
    /// std::fs::write(&path, "earlier\n")?;
    /// let mut out = sudolab::OutputStream::new(&path, true)?;
    /// assert!(!out.in_place());
    /// out.write_all(b"new\n")?;
    /// let kept = out.finish_keeping_earlier()?;
    /// assert_eq!(kept, Some(dir.path().join("rows.earlier.jsonl")));
    /// assert_eq!(std::fs::read_to_string(&path)?, "new\n");
    /// assert_eq!(std::fs::read_to_string(dir.path().join("rows.earlier.jsonl"))?, "earlier\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    /// The earlier file cannot be kept, or the output completed.
    pub fn finish_keeping_earlier(self) -> io::Result<Option<PathBuf>> {
        match &self.state {
            StreamState::Closed => return Ok(None),
            StreamState::Direct(_) => return self.finish().map(|()| None),
            StreamState::Temp(_) => {}
        }
        let OutputTarget::File(path) = &self.target else {
            unreachable!("only a regular file is written through a temporary file")
        };
        let path = path.clone();
        let kept = if path.exists() {
            Some(keep_as_fresh(&path, |n| earlier_name(&path, n))?)
        } else {
            None
        };
        self.finish()?;
        Ok(kept)
    }
}

/// A fresh name beside `path` for the file a run replaced when a signal
/// interrupted it (`out.earlier.jsonl`, then `out.earlier-2.jsonl`, …):
/// the run's finished rows take `path`, the earlier file this name.
///
/// ```
/// use std::path::Path;
///
/// let p = Path::new("d/out.jsonl");
/// assert_eq!(sudolab::earlier_name(p, 1), Path::new("d/out.earlier.jsonl"));
/// assert_eq!(sudolab::earlier_name(p, 3), Path::new("d/out.earlier-3.jsonl"));
/// assert_eq!(sudolab::earlier_name(Path::new("out"), 1), Path::new("out.earlier"));
/// ```
pub fn earlier_name(path: &Path, n: usize) -> PathBuf {
    tagged_name(path, "earlier", n)
}

/// Marks the listed temporary file `tmp` as holding finished rows of
/// `output`: a signal that ends the program keeps them
/// ([`remove_temporaries`]).
fn keep_rows_on_signal(tmp: &Path, output: &Path) {
    if let Some(entry) = temporaries().listed.iter_mut().find(|(p, _)| p == tmp) {
        entry.1 = Some(output.to_path_buf());
    }
}

/// A second name for the file at `path`, the first that `name(n)` gives
/// (n = 1, 2, …) where nothing is: a hard link, or a copy on a file system
/// without them. Nothing is ever replaced.
fn keep_as_fresh(path: &Path, name: impl Fn(usize) -> PathBuf) -> io::Result<PathBuf> {
    for n in 1.. {
        let fresh = name(n);
        match fs::hard_link(path, &fresh) {
            Ok(()) => return Ok(fresh),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            // No hard links on this file system: a copy.
            Err(_) => match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&fresh)
            {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
                Ok(mut to) => {
                    io::copy(&mut fs::File::open(path)?, &mut to)?;
                    to.sync_all()?;
                    return Ok(fresh);
                }
            },
        }
    }
    unreachable!("a fresh name is found before the numbers run out")
}

/// `path` with `tag` before its extension (`out.TAG.jsonl`, then
/// `out.TAG-2.jsonl` for n = 2, …).
fn tagged_name(path: &Path, tag: &str, n: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tag = if n < 2 {
        tag.to_string()
    } else {
        format!("{tag}-{n}")
    };
    let name = match path.extension() {
        Some(ext) => format!("{stem}.{tag}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{tag}"),
    };
    path.with_file_name(name)
}

impl Drop for OutputStream {
    fn drop(&mut self) {
        if let StreamState::Temp(tmp) = &self.state {
            forget_temporary(tmp.path());
        }
    }
}

impl Write for OutputStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.open()?;
        match &mut self.state {
            StreamState::Direct(f) => f.write(buf),
            StreamState::Temp(t) => t.write(buf),
            StreamState::Closed => unreachable!("opened above"),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.state {
            StreamState::Direct(f) => f.flush(),
            StreamState::Temp(t) => t.flush(),
            StreamState::Closed => Ok(()),
        }
    }
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
            Format::Csv.render(&rows).unwrap(),
            "puzzle,label,counts,pairs\n1.,\"a,b\",1 2,0-1 2-3\n"
        );
        assert_eq!(
            Format::Jsonl.render(&rows).unwrap(),
            "{\"puzzle\":\"1.\",\"label\":\"a,b\",\"counts\":[1,2],\"pairs\":[[0,1],[2,3]]}\n"
        );
    }

    #[test]
    fn rows_streamed_in_parts_are_the_bytes_of_all_at_once() {
        let row = |i: u32| Row {
            puzzle: format!("{i}."),
            label: i.is_multiple_of(2).then(|| "a \"b\"\nc".into()),
            counts: vec![i, 2],
            pairs: vec![[0, i]],
        };
        let rows: Vec<Row> = (0..5).map(row).collect();
        for f in [Format::Json, Format::Jsonl, Format::Csv, Format::Text] {
            let mut stream = RowStream::new(f);
            let mut parts = String::new();
            for part in [&rows[..2], &rows[2..2], &rows[2..]] {
                parts.push_str(&stream.rows(part).unwrap());
            }
            parts.push_str(&stream.end());
            assert_eq!(parts, f.render(&rows).unwrap(), "{f}");
        }
        // JSON is serde_json's pretty array, whole or empty.
        for n in [0, 1, 5] {
            let pretty = serde_json::to_string_pretty(&rows[..n]).unwrap() + "\n";
            assert_eq!(Format::Json.render(&rows[..n]).unwrap(), pretty);
        }
        assert_eq!(Format::Csv.render::<Row>(&[]).unwrap(), "");
        assert!(
            Format::Json
                .render(&rows[..1])
                .unwrap()
                .starts_with("[\n  {\n    \"puzzle\": \"0.\",\n")
        );
    }

    #[test]
    fn serialisation_failure_is_an_error_not_empty_output() {
        // JSON object keys must be strings: a map keyed by pairs cannot be written.
        let rows = vec![std::collections::BTreeMap::from([((1, 2), 3)])];
        for f in [Format::Json, Format::Jsonl, Format::Csv] {
            let e = f.render(&rows).unwrap_err();
            assert!(e.to_string().contains("key must be a string"), "{f}: {e}");
        }
        assert!(jsonl_line(&rows[0]).is_err());
    }

    #[test]
    fn csv_round_trips_awkward_fields() {
        use crate::eval::{ResultsTable, TableFormat, Value};
        #[derive(Serialize)]
        struct Awkward {
            name: String,
            note: String,
            x: f64,
        }
        let awkward = [
            "a,b",
            "say \"hi\"",
            "two\nlines",
            "cr\r\nlf",
            "tab\there",
            "\"",
            "",
            " padded ",
            "#hash",
        ];
        let rows: Vec<Awkward> = awkward
            .iter()
            .enumerate()
            .map(|(i, s)| Awkward {
                name: format!("p{i}"),
                note: s.to_string(),
                x: i as f64 + 0.5,
            })
            .collect();
        let csv = Format::Csv.render(&rows).unwrap();
        assert!(csv.starts_with(
            "name,note,x\np0,\"a,b\",0.5\np1,\"say \"\"hi\"\"\",1.5\np2,\"two\nlines\",2.5\n"
        ));
        assert!(csv.contains("\np4,\"tab\there\",4.5\np5,\"\"\"\",5.5\np6,,6.5\n"));
        let table = ResultsTable::parse(&csv, TableFormat::Delimited(',')).unwrap();
        assert_eq!(table.columns, vec!["name", "note", "x"]);
        assert_eq!(table.len(), awkward.len());
        for (i, (row, s)) in table.rows.iter().zip(awkward).enumerate() {
            assert_eq!(row[0], Value::Text(format!("p{i}")));
            let want = if s.is_empty() {
                Value::Null
            } else {
                Value::Text(s.to_string())
            };
            assert_eq!(row[1], want, "row {i}");
            assert_eq!(row[2], Value::Number(i as f64 + 0.5));
        }
        // Each record's line: the quoted line breaks move the later ones down.
        assert_eq!(table.lines, vec![2, 3, 4, 6, 8, 9, 10, 11, 12]);
    }

    #[test]
    fn atomic_write_failure_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("taken");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("inside"), "x").unwrap();
        // Renaming a file over a non-empty folder fails.
        assert!(write_atomic(&target, b"data").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("taken")]);
    }

    #[cfg(unix)]
    #[test]
    fn atomic_write_keeps_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (atomic, plain) = (dir.path().join("a"), dir.path().join("b"));
        write_atomic(&atomic, b"x").unwrap();
        std::fs::write(&plain, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&atomic), mode(&plain));
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
