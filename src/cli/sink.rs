//! Where a batch's rows go as JSON Lines, and resuming them.
//!
//! A long run (`analyze`, `relax`) written as JSON Lines gets each row as
//! soon as its window is done, with the input `line` its puzzle came from.
//! Resuming reads the existing file back first ([`sudolab::ResultsFile`]):
//!
//! * rows are keyed by input line (and `k` for sweeps), not by puzzle text,
//!   so a data set with the same puzzle twice keeps both rows;
//! * every row must carry the parameters of this run (the spec's `params`);
//!   a file written with other parameters is refused with a message naming
//!   the parameter, never silently mixed;
//! * a row whose line holds another puzzle than this input's line means the
//!   file belongs to another input: refused;
//! * the run record beside the file (`FILE.run.json`: command, every
//!   parameter that changes a row, the input's identity, the shard) must be
//!   this run's; a difference is refused with a message naming it (a sweep
//!   may grow: its k values must include the file's);
//! * a last line cut short by an interrupted run is dropped (and said so)
//!   before appending, so no record is corrupted; any other line that is not
//!   a JSON object is an error.

use super::record::RunRecord;
use crate::cli::paths::write_side_file;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use sudolab::OutputStream;
use sudolab::{DoneRows, Lined, ResultsError, ResultsFile, RowSpec};

/// Where streamed rows go.
pub(crate) enum RowWriter {
    /// Written to a file (appended when resumed), flushed after every row;
    /// opened at the first row, so a bad input leaves an earlier file as it
    /// was (see [`OutputStream`]). The run record (the second field, until
    /// written) goes beside it when due: with the first row of a file
    /// written in place, so a run that fails before its first row leaves
    /// no record behind; once complete for a file that replaces an earlier
    /// one.
    ///
    /// The third field is a note for stderr, said with the first row or at
    /// the end (what a resumed file held): a run refused before (a row
    /// for another puzzle) says only why.
    File(
        OutputStream,
        Option<Box<(RunRecord, PathBuf)>>,
        Option<String>,
    ),
    /// Written to a stream (standard output) as they come.
    Stream(Box<dyn Write>),
}

/// A row that cannot be written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SinkError {
    /// The row does not serialise.
    #[error("cannot serialise a row: {0}")]
    Serialise(#[from] serde_json::Error),
    /// The output cannot be written.
    #[error("cannot write the output: {0}")]
    Write(#[from] std::io::Error),
    /// The run record cannot be written.
    #[error(transparent)]
    Record(#[from] ResultsError),
    /// Another run holds the output file under another name.
    #[error("{0}")]
    Locked(String),
}

/// Writes the run record of results file `results` beside it
/// ([`RunRecord::path_for`]), atomically: a link planted at the record's
/// path is replaced, never followed.
pub(crate) fn write_record(record: &RunRecord, results: &Path) -> Result<(), ResultsError> {
    RunRecord::check_place(results)?;
    let path = RunRecord::path_for(results);
    write_side_file(&path, record.to_text().as_bytes()).map_err(|source| ResultsError::Write {
        path,
        append: false,
        source,
    })
}

/// Writes a pending run record now.
fn write_pending(pending: &mut Option<Box<(RunRecord, PathBuf)>>) -> Result<(), ResultsError> {
    match pending.take() {
        Some(due) => write_record(&due.0, &due.1),
        None => Ok(()),
    }
}

/// Says a pending note on stderr, once.
fn say(note: &mut Option<String>) {
    if let Some(note) = note.take() {
        note!("{note}");
    }
}

impl RowWriter {
    /// Says `note` on stderr with the first row written, or at the end:
    /// not at all when the run is refused before.
    pub(crate) fn say_with_first_row(&mut self, note: String) {
        match self {
            RowWriter::File(_, _, pending) => *pending = Some(note),
            RowWriter::Stream(_) => note!("{note}"),
        }
    }

    /// Writes rows with their input lines, flushed once they are all out.
    pub(crate) fn write<T: Serialize>(&mut self, rows: &[(usize, T)]) -> Result<(), SinkError> {
        if rows.is_empty() {
            return Ok(());
        }
        // Serialised straight into one buffer for the whole batch, the
        // bytes `jsonl_line` gives a row: no string a row.
        let mut text = Vec::with_capacity(128 * rows.len());
        for (line, row) in rows {
            serde_json::to_writer(&mut text, &Lined { line: *line, row })?;
            text.push(b'\n');
        }
        // The first rows of a new file create it: then the file itself can
        // be locked (`lock.rs`), against a run through another of its names.
        let mut created = None;
        let out: &mut dyn Write = match self {
            RowWriter::File(f, pending, note) => {
                say(note);
                if f.in_place() {
                    created = pending.as_ref().map(|due| due.1.clone());
                    write_pending(pending)?;
                }
                f
            }
            RowWriter::Stream(w) => w,
        };
        out.write_all(&text)?;
        out.flush()?;
        if let Some(path) = created {
            super::lock::hold_output_lock(&path)
                .map_err(|e| SinkError::Locked(format!("{e:#}")))?;
        }
        Ok(())
    }

    /// True for a file (not a stream).
    pub(crate) fn is_file(&self) -> bool {
        matches!(self, RowWriter::File(..))
    }

    /// Completes the output (a file that replaces an earlier one is renamed
    /// over it only now, and gets its run record).
    pub(crate) fn finish(self) -> Result<(), SinkError> {
        match self {
            RowWriter::File(f, mut pending, mut note) => {
                say(&mut note);
                if f.in_place() {
                    write_pending(&mut pending)?;
                }
                f.finish()?;
                write_pending(&mut pending)?;
                Ok(())
            }
            RowWriter::Stream(mut w) => Ok(w.flush()?),
        }
    }

    /// Completes an output that a signal interrupted, losing nothing: the
    /// finished rows take the file, with this run's record (so `--resume`
    /// continues them), and a file they replace is kept under a fresh name
    /// beside it ([`sudolab::earlier_name`]) with its own
    /// record, which is returned. With no row written yet, the earlier file
    /// stays as it was.
    pub(crate) fn finish_interrupted(self) -> Result<Option<PathBuf>, SinkError> {
        match self {
            RowWriter::File(f, mut pending, _) if !f.in_place() => {
                let Some(kept) = f.finish_keeping_earlier()? else {
                    return Ok(None);
                };
                if let Some(due) = &pending {
                    let (from, to) = (RunRecord::path_for(&due.1), RunRecord::path_for(&kept));
                    if from.exists() && !to.exists() {
                        std::fs::rename(&from, &to)?;
                    }
                }
                write_pending(&mut pending)?;
                Ok(Some(kept))
            }
            other => other.finish().map(|()| None),
        }
    }
}

/// A JSON Lines output opened for a batch.
pub(crate) struct Opened {
    /// Where the rows go.
    pub writer: RowWriter,
    /// The rows the resumed file already holds (empty for a new output).
    pub done: DoneRows,
    /// Bytes of a cut-off last line dropped from the resumed file (0: none).
    pub dropped_bytes: usize,
}

/// Opens the JSON Lines output `path` of a run with the run record
/// `record`: a new file (its record written beside it; one that replaces an
/// earlier file gets it once complete), or with `resume` the existing file
/// after checking its record against `record` and reading what it holds (a
/// cut-off last line is dropped). A resumed file's rows must each be there
/// once, in input order, and (when `input_lines` is known) for lines the
/// input has, as `merge` checks them: a damaged file is refused before
/// anything is changed.
pub(crate) fn open_file(
    path: &Path,
    resume: bool,
    spec: &RowSpec,
    record: &RunRecord,
    input_lines: Option<u64>,
) -> Result<Opened, ResultsError> {
    let cannot = |append: bool| {
        move |source| ResultsError::Write {
            path: path.to_path_buf(),
            append,
            source,
        }
    };
    // A user's file in the record's place is refused before any row.
    RunRecord::check_place(path)?;
    if !resume || !path.exists() {
        let f = OutputStream::new(path, true).map_err(cannot(false))?;
        // A new file is written in place (so an interrupted run resumes),
        // its record beside it with the first row; a file that replaces an
        // earlier one gets it once complete. A device or FIFO (`-o
        // /dev/stdout`) gets no record: it cannot be resumed.
        let pending = match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => None,
            _ => Some(Box::new((record.clone(), path.to_path_buf()))),
        };
        return Ok(Opened {
            writer: RowWriter::File(f, pending, None),
            done: DoneRows::default(),
            dropped_bytes: 0,
        });
    }
    let results = ResultsFile::read(path)?;
    let has_rows = results.rows(&RowSpec::default()).next().is_some();
    match RunRecord::read(path)? {
        Some(found) => {
            if let Some(difference) = found.difference(record, true) {
                return Err(ResultsError::OtherRun {
                    path: path.to_path_buf(),
                    difference: Box::new(difference),
                });
            }
        }
        None if has_rows => {
            return Err(ResultsError::NoRecord {
                path: path.to_path_buf(),
                record: RunRecord::path_for(path),
            });
        }
        None => {}
    }
    let done = DoneRows::read(&results, spec)?;
    if let Some(lines) = input_lines {
        done.check_within(lines)?;
    }
    let dropped_bytes = results.torn_bytes();
    if dropped_bytes > 0 {
        results.drop_torn_line()?;
    }
    // A grown sweep: the record now names every k of the file.
    write_record(record, path)?;
    let f = OutputStream::append(path).map_err(cannot(true))?;
    Ok(Opened {
        writer: RowWriter::File(f, None, None),
        done,
        dropped_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::record::tests::{relax_spec, stdin_record};
    use serde_json::json;
    use sudolab::RowKey;

    const ROW: &str = r#"{"line":3,"puzzle":"1.","k":45,"samples":10,"seed":1,"cap":1000}"#;

    #[test]
    fn resume_keys_by_line_and_drops_a_cut_off_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, format!("{ROW}\n{}", &ROW[..30])).unwrap();
        write_record(&stdin_record(), &path).unwrap();
        let mut opened = open_file(&path, true, &relax_spec(), &stdin_record(), None).unwrap();
        // Which rows count as done is the library's test (batch::results);
        // here: the kept row is found and the cut-off one is gone.
        assert_eq!(opened.done.len(), 1);
        assert_eq!(opened.dropped_bytes, 30);
        assert!(opened.done.contains(&RowKey::new(3, &[45]), "1.").unwrap());
        opened
            .writer
            .write(&[(4, json!({"puzzle": "2."}))])
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{ROW}\n{{\"line\":4,\"puzzle\":\"2.\"}}\n"));
    }

    #[test]
    fn resume_refuses_other_parameters_and_foreign_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let refused = |text: String| {
            std::fs::write(&path, text).unwrap();
            write_record(&stdin_record(), &path).unwrap();
            open_file(&path, true, &relax_spec(), &stdin_record(), None)
                .err()
                .unwrap()
                .to_string()
        };
        let e = refused(ROW.replace("\"seed\":1", "\"seed\":2") + "\n");
        let row = |line: u64| ROW.replace("\"line\":3", &format!("\"line\":{line}"));
        let e2 = refused(format!("{}\n{}\n", row(3), row(3)));
        assert!(
            e2.contains("line 2: input line 3 (k = 45) again (first at line 1)"),
            "{e2}"
        );
        let e2 = refused(format!("{}\n{}\n", row(4), row(3)));
        assert!(
            e2.contains("line 2: input line 3 comes after input line 4"),
            "{e2}"
        );
        std::fs::write(&path, format!("{}\n", row(5000))).unwrap();
        let e2 = open_file(&path, true, &relax_spec(), &stdin_record(), Some(1000))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e2.contains("line 1 has a row for input line 5000, but the input has 1000 line(s)"),
            "{e2}"
        );
        assert!(e.contains("seed = 2, this run has 1"), "{e}");
        let e = refused("not json\n".into());
        assert!(e.contains("line 1: not a JSON record"), "{e}");
        let old = r#"{"puzzle":"1.","k":45,"samples":10,"seed":1,"cap":1000}"#;
        let e = refused(format!("{old}\n"));
        assert!(e.contains("no `line`"), "{e}");
    }
}
