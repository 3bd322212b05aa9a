//! Batches larger than one machine: `--shard I/N` keeps the puzzles whose
//! input line is I modulo N (a deterministic partition, so the N jobs of a
//! Slurm array or of GNU parallel cover the data set exactly once, and
//! sorted data is spread evenly), and `sudolab merge` puts the shards' JSON
//! Lines outputs back together in input order, refusing (exit 3, nothing
//! written) missing, duplicated or extra rows and shards of different runs
//! (their run records, parameters and input, must agree; the reading and
//! checking is
//! [`crate::analyze::results::merge_shards`]; this file parses the
//! arguments and reports).

use super::{EXIT_OK, OutputArgs, is_stdio};
use crate::analyze::results::{RunRecord, input_identity, merge_shards};
use crate::cli::paths::PathPlan;
use crate::grid::PuzzleReader;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;

pub(super) use crate::batch::Shard;

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
        format: crate::report::Format::Jsonl,
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
        let mut lines: Vec<(usize, crate::Puzzle)> =
            PuzzleReader::new(std::io::BufReader::new(open()?))
                .filter_map(Result::ok)
                .collect();
        // A `--dedup` run has no row for a line equivalent to an earlier one,
        // in whichever shard that line falls: those lines are not expected.
        let dedup = merged
            .record()
            .is_some_and(|r| r.params.get("dedup") == Some(&serde_json::Value::Bool(true)));
        if dedup {
            let refs: Vec<&crate::Puzzle> = lines.iter().map(|(_, p)| p).collect();
            let earlier = crate::grid::canon::earlier_equivalents(&refs)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
