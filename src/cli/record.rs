//! The run record of a results file (`FILE.run.json`,
//! [`sudolab::record_path`]): everything that decides its rows besides the
//! puzzles, written beside it by a run, compared by a resumed run and by
//! `sudolab merge`, and the identity of the input it names.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use sudolab::record_path;
use sudolab::{RecordDifference, ResultsError};

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

impl RunRecord {
    /// Where the record of results file `results` is: `results.run.json`,
    /// beside the file a symbolic link names (as its lock is), so a file
    /// written through a link is resumed through its own name and the
    /// reverse.
    pub(crate) fn path_for(results: &Path) -> PathBuf {
        match sudolab::OutputTarget::of(results) {
            Ok(sudolab::OutputTarget::File(file)) => record_path(&file),
            _ => record_path(results),
        }
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

    /// Refuses to replace a file at the run record's place of `results`
    /// that is not a run record (the user's, kept); a record, a symbolic
    /// link (replaced, never followed) or nothing there may be written.
    pub(crate) fn check_place(results: &Path) -> Result<(), ResultsError> {
        let path = RunRecord::path_for(results);
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            return Ok(());
        }
        let ours = std::fs::read_to_string(&path)
            .ok()
            .is_some_and(|text| serde_json::from_str::<RunRecord>(&text).is_ok());
        if ours {
            return Ok(());
        }
        Err(ResultsError::NotARecord {
            path,
            results: results.to_path_buf(),
        })
    }

    /// The record as the text of its file (written beside the results
    /// file by `crate::cli::sink::write_record`, atomically and without
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;
    use sudolab::RowSpec;

    impl RunRecord {
        /// Writes the record of `results` beside it, as a run does.
        pub(crate) fn write_for_test(&self, results: &Path) {
            crate::cli::sink::write_record(self, results).unwrap();
        }
    }

    /// The row spec of `relax --k 45 --samples 10 --seed 1 --cap 1000`.
    pub(crate) fn relax_spec() -> RowSpec {
        RowSpec {
            key: &["k"],
            params: vec![
                ("/samples".into(), 10.into()),
                ("/seed".into(), 1.into()),
                ("/cap".into(), 1000.into()),
            ],
        }
    }

    /// The record of that relaxation reading standard input.
    pub(crate) fn stdin_record() -> RunRecord {
        RunRecord {
            command: "relax".into(),
            params: json!({"k": 45, "samples": 10, "seed": 1})
                .as_object()
                .cloned()
                .unwrap(),
            input: STDIN_INPUT.into(),
            shard: None,
        }
    }

    /// A relaxation's record with `samples`.
    pub(crate) fn record(samples: u64) -> RunRecord {
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
