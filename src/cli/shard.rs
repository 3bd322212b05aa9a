//! Batches larger than one machine: `--shard I/N` keeps the puzzles whose
//! input line is I modulo N (a deterministic partition, so the N jobs of a
//! Slurm array or of GNU parallel cover the data set exactly once, and
//! sorted data is spread evenly), and `sudolab merge` puts the shards' JSON
//! Lines outputs back together in input order, refusing (exit 3, nothing
//! written) missing, duplicated or extra rows and shards of different runs
//! (their run records, parameters and input, must agree; the reading and
//! checking is [`merge_shards`], over the library's
//! [`sudolab::ResultsFile`]; this file also parses the arguments and
//! reports).

use super::record::{RunRecord, STDIN_INPUT, input_identity};
use super::{EXIT_OK, OutputArgs, is_stdio};
use crate::cli::paths::PathPlan;
use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;
use sudolab::PuzzleReader;
use sudolab::{RecordDifference, ResultsError, ResultsFile, RowKey, RowSpec};

pub(super) use sudolab::Shard;

/// `sudolab merge`.
#[derive(Debug, Args)]
pub(super) struct MergeArgs {
    /// The merged JSON Lines file (written atomically; `-` = stdout).
    pub out: PathBuf,
    /// The shards' JSON Lines outputs (`analyze` or `relax` with `-f jsonl`).
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// The input the shards read: it must be the file their run records
    /// name, and every puzzle line of it must be in exactly one shard, with
    /// no row for another line. Without it only duplicates and mismatched
    /// parameters are found.
    #[arg(long)]
    pub input: Option<PathBuf>,
}

pub(super) fn run(args: MergeArgs) -> Result<u8> {
    let out = OutputArgs {
        format: sudolab::Format::Jsonl,
        output: Some(args.out.clone()),
    };
    let mut paths = PathPlan::new().input("--input", args.input.as_deref());
    for shard in &args.shards {
        let record = RunRecord::path_for(shard);
        paths = paths
            .input("SHARD", Some(shard))
            .side_input("run record", &record, shard);
    }
    paths = paths.output("merge OUT", out.file());
    if let Some(path) = out.file() {
        let record = RunRecord::path_for(path);
        paths = paths.side_output("merge OUT", "run record", &record, path);
    }
    paths.check()?;
    if let Some(path) = out.file() {
        RunRecord::check_place(path)?;
    }
    // `merge s*.jsonl` makes the first shard the output: a merged file never
    // has a shard in its run record, so an output that has one is a shard.
    if let Some(path) = out.file()
        && let Ok(Some(RunRecord {
            shard: Some(shard), ..
        })) = RunRecord::read(path)
    {
        bail!(
            "merge OUT {}: this is the results file of shard {shard} (its run record says so): merging into it would destroy it; give the merged file's name first (merge OUT SHARD...)",
            path.display()
        );
    }
    let mut merged = merge_shards(&args.shards)?;
    if let Some(input) = &args.input {
        if is_stdio(input) {
            bail!("--input: give the file the shards read, not stdin");
        }
        let open = || {
            std::fs::File::open(input).with_context(|| format!("cannot read {}", input.display()))
        };
        let identity =
            input_identity(open()?).with_context(|| format!("cannot read {}", input.display()))?;
        let mut lines: Vec<(usize, sudolab::Puzzle)> =
            PuzzleReader::new(std::io::BufReader::new(open()?))
                .filter_map(Result::ok)
                .collect();
        // A `--dedup` run has no row for a line equivalent to an earlier one,
        // in whichever shard that line falls: those lines are not expected.
        let dedup = merged
            .record()
            .is_some_and(|r| r.params.get("dedup") == Some(&serde_json::Value::Bool(true)));
        if dedup {
            let refs: Vec<&sudolab::Puzzle> = lines.iter().map(|(_, p)| p).collect();
            let earlier = sudolab::earlier_equivalents(&refs)
                .map_err(|(i, e)| anyhow::anyhow!("--input: line {}: {e}", lines[i].0))?;
            let mut first = earlier.iter().map(Option::is_none);
            lines.retain(|_| first.next().unwrap_or(true));
        }
        merged.check_input(
            &identity,
            lines.into_iter().map(|(line, p)| (line, p.to_line())),
        );
    }
    let problems = merged.problems();
    if !problems.is_empty() {
        note!(
            "sudolab: merge: {} problem(s); nothing written:",
            problems.len()
        );
        for p in problems.iter().take(20) {
            note!("  {p}");
        }
        if problems.len() > 20 {
            note!("  ... and {} more", problems.len() - 20);
        }
        return Ok(super::EXIT_PARTIAL);
    }
    out.write(&merged.to_jsonl())?;
    if let (Some(path), Some(record)) = (out.file(), merged.record()) {
        crate::cli::sink::write_record(record, path)?;
    }
    note!(
        "sudolab: merged {} row(s) from {} shard file(s)",
        merged.len(),
        args.shards.len()
    );
    Ok(EXIT_OK)
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
    use crate::cli::record::tests::record;

    #[test]
    fn shards_partition_the_lines() {
        let shards: Vec<Shard> = (1..=4).map(|i| format!("{i}/4").parse().unwrap()).collect();
        for line in 1..=50 {
            assert_eq!(shards.iter().filter(|s| s.owns(line)).count(), 1);
        }
        assert!(shards[0].owns(1) && shards[0].owns(5) && shards[3].owns(4));
        for bad in ["0/4", "5/4", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
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

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// A shard mutated (up to four bytes replaced, cut at `cut` per
        /// mille, written twice) is merged or refused, never a panic.
        #[test]
        fn mutated_shards_never_panic(
            edits in proptest::collection::vec(
                (
                    proptest::prelude::any::<usize>(),
                    proptest::sample::select(b" -0123456789\nxpcnfv{}\":,[]".to_vec()),
                ),
                0..4,
            ),
            cut in proptest::prop_oneof![proptest::strategy::Just(1000usize), 0..1000usize],
            twice in proptest::prelude::any::<bool>(),
        ) {
            let rows = format!(
                "{{\"line\":1,\"puzzle\":\"{EASY}\",\"k\":45,\"samples\":5,\"seed\":1}}\n\
                 {{\"line\":2,\"puzzle\":\"{EASY}\",\"k\":45,\"samples\":5,\"seed\":1}}\n"
            );
            let mut bytes = rows.into_bytes();
            for &(at, b) in &edits {
                let at = at % bytes.len();
                bytes[at] = b;
            }
            bytes.truncate(bytes.len() * cut / 1000);
            let mut text = String::from_utf8_lossy(&bytes).into_owned();
            if twice {
                text = text.repeat(2);
            }
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("r.jsonl");
            std::fs::write(&path, &text).unwrap();
            if let Ok(mut merged) = merge_shards(&[path.clone(), path]) {
                merged.check_input("stdin", [(1, EASY.to_string())]);
                proptest::prop_assert!(merged.len() <= 4);
            }
        }
    }
}
