//! Streamed JSON Lines outputs and resuming them.
//!
//! A long run (`analyze`, `relax`) with `--format jsonl` writes each row as
//! soon as it is done, with the input `line` its puzzle came from. With
//! `--resume` the existing file is read back first:
//!
//! * rows are keyed by input line (and `k` for sweeps), not by puzzle text,
//!   so a data set with the same puzzle twice keeps both rows;
//! * every row must carry the parameters of this run (the spec's `params`);
//!   a file written with other parameters is refused with a message naming
//!   the parameter, never silently mixed;
//! * a row whose line holds another puzzle than this input's line means the
//!   file belongs to another input: refused;
//! * a last line cut short by an interrupted run is dropped (and said so)
//!   before appending, so no record is corrupted; any other line that is not
//!   a JSON object is an error.

use super::{OutputArgs, write_stdout};
use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use sudolab::report::{Format, jsonl_line};

/// How the rows of one kind of output are keyed and what they must share.
pub struct Spec {
    /// Row fields that, with `line`, identify a row (e.g. `["k"]` for sweeps).
    pub key: &'static [&'static str],
    /// `(JSON pointer, value)` pairs every row must have: the run's parameters.
    pub params: Vec<(String, Value)>,
}

/// A row with the input line its puzzle came from (`line` first).
#[derive(Serialize)]
pub struct Lined<T> {
    /// 1-based input line (or index of an embedded example).
    pub line: usize,
    #[serde(flatten)]
    pub row: T,
}

/// Where streamed rows go.
pub enum RowWriter {
    /// Appended to a file, flushed after every row.
    File(File),
    /// Written to stdout as they come.
    Stdout,
}

impl RowWriter {
    /// Writes one row with its input line.
    pub fn write<T: Serialize>(&mut self, line: usize, row: &T) -> Result<()> {
        let mut text = jsonl_line(&Lined { line, row }).context("cannot serialise a row")?;
        text.push('\n');
        match self {
            RowWriter::File(f) => f
                .write_all(text.as_bytes())
                .and_then(|()| f.flush())
                .context("cannot write the output file"),
            RowWriter::Stdout => write_stdout(text.as_bytes()),
        }
    }
}

/// The rows an earlier run already wrote.
#[derive(Default)]
pub struct Done {
    path: PathBuf,
    /// Key → the puzzle of that row.
    rows: HashMap<String, String>,
}

impl Done {
    /// Is the row of input `line` (with these extra key values) done? Errors
    /// when the file holds another puzzle for that line.
    pub fn contains(&self, line: usize, extra: &[Value], puzzle: &str) -> Result<bool> {
        let Some(found) = self.rows.get(&key_of(&Value::from(line), extra)) else {
            return Ok(false);
        };
        if found != puzzle {
            bail!(
                "{} holds puzzle {found} for input line {line}, but input line {line} is {puzzle}: \
                 the file was written from another input (use another -o file)",
                self.path.display()
            );
        }
        Ok(true)
    }
}

fn key_of(line: &Value, extra: &[Value]) -> String {
    let mut k = line.to_string();
    for v in extra {
        k.push('\t');
        k.push_str(&v.to_string());
    }
    k
}

/// True when rows are streamed (`--format jsonl`).
pub fn streams(out: &OutputArgs) -> bool {
    out.format == Format::Jsonl
}

/// Opens the stream of a `--format jsonl` run: a new file, stdout, or with
/// `resume` the existing file after reading what it holds.
pub fn open(out: &OutputArgs, resume: bool, spec: &Spec) -> Result<(RowWriter, Done)> {
    let file = out.file().filter(|_| streams(out));
    let Some(path) = file else {
        if resume {
            bail!("--resume needs -o FILE with --format jsonl");
        }
        return Ok((RowWriter::Stdout, Done::default()));
    };
    if !resume || !path.exists() {
        let f = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        return Ok((RowWriter::File(f), Done::default()));
    }
    let done = read_done(path, spec)?;
    eprintln!(
        "sudolab: {}: {} row(s) already done, appending the others",
        path.display(),
        done.rows.len()
    );
    let f = OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("cannot append to {}", path.display()))?;
    Ok((RowWriter::File(f), done))
}

/// Reads the complete rows of `path`, dropping a cut-off last line.
fn read_done(path: &Path, spec: &Spec) -> Result<Done> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", path.display()))?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if complete < bytes.len() {
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(complete as u64))
            .with_context(|| format!("cannot repair {}", path.display()))?;
        eprintln!(
            "sudolab: {}: dropped an incomplete last line ({} bytes, left by an interrupted run); its puzzle is computed again",
            path.display(),
            bytes.len() - complete
        );
    }
    let text = std::str::from_utf8(&bytes[..complete])
        .with_context(|| format!("{}: not a sudolab JSON Lines output", path.display()))?;
    let mut done = Done {
        path: path.to_path_buf(),
        rows: HashMap::new(),
    };
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{} line {}", path.display(), i + 1);
        let row: Value = serde_json::from_str(line).with_context(|| {
            format!(
                "{}: not a JSON record; is it a sudolab JSON Lines output?",
                at()
            )
        })?;
        for (pointer, want) in &spec.params {
            let got = row.pointer(pointer).unwrap_or(&Value::Null);
            if got != want {
                bail!(
                    "{} was written with {} = {got}, this run has {want}: resume with the same parameters, or write to another file",
                    at(),
                    pointer.trim_start_matches('/').replace('/', ".")
                );
            }
        }
        let (Some(line_no), Some(puzzle)) = (row.get("line"), row["puzzle"].as_str()) else {
            bail!(
                "{}: no `line` or `puzzle` field (written by an older sudolab?); start a new file",
                at()
            );
        };
        let extra: Vec<Value> = spec.key.iter().map(|k| row[*k].clone()).collect();
        done.rows
            .insert(key_of(line_no, &extra), puzzle.to_string());
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec() -> Spec {
        Spec {
            key: &["k"],
            params: vec![
                ("/samples".into(), json!(10)),
                ("/params/seed".into(), json!(1)),
            ],
        }
    }

    fn out(path: &Path) -> OutputArgs {
        OutputArgs {
            format: Format::Jsonl,
            output: Some(path.to_path_buf()),
        }
    }

    const ROW: &str = r#"{"line":3,"puzzle":"1.","k":45,"samples":10,"params":{"seed":1}}"#;

    #[test]
    fn resume_keys_by_line_and_drops_a_cut_off_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, format!("{ROW}\n{}", &ROW[..30])).unwrap();
        let (mut w, done) = open(&out(&path), true, &spec()).unwrap();
        assert_eq!(done.rows.len(), 1);
        assert!(done.contains(3, &[json!(45)], "1.").unwrap());
        assert!(!done.contains(3, &[json!(50)], "1.").unwrap());
        assert!(!done.contains(4, &[json!(45)], "1.").unwrap());
        let e = done
            .contains(3, &[json!(45)], "2.")
            .unwrap_err()
            .to_string();
        assert!(e.contains("another input"), "{e}");
        w.write(4, &json!({"puzzle": "2."})).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{ROW}\n{{\"line\":4,\"puzzle\":\"2.\"}}\n"));
    }

    #[test]
    fn resume_refuses_other_parameters_and_foreign_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, ROW.replace("\"seed\":1", "\"seed\":2") + "\n").unwrap();
        let e = open(&out(&path), true, &spec()).err().unwrap().to_string();
        assert!(e.contains("params.seed = 2, this run has 1"), "{e}");
        std::fs::write(&path, "not json\n").unwrap();
        let e = open(&out(&path), true, &spec()).err().unwrap().to_string();
        assert!(e.contains("line 1: not a JSON record"), "{e}");
        let old = r#"{"puzzle":"1.","k":45,"samples":10,"params":{"seed":1}}"#;
        std::fs::write(&path, format!("{old}\n")).unwrap();
        let e = open(&out(&path), true, &spec()).err().unwrap().to_string();
        assert!(e.contains("no `line`"), "{e}");
    }

    #[test]
    fn resume_needs_a_jsonl_file() {
        let stdout = OutputArgs {
            format: Format::Jsonl,
            output: None,
        };
        assert!(open(&stdout, true, &spec()).is_err());
        assert!(matches!(
            open(&stdout, false, &spec()).unwrap().0,
            RowWriter::Stdout
        ));
    }
}
