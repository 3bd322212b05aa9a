//! Batches larger than one machine: `--shard I/N` keeps the puzzles whose
//! input line is I modulo N (a deterministic partition, so the N jobs of a
//! Slurm array or of GNU parallel cover the data set exactly once, and
//! sorted data is spread evenly), and `sudolab merge` puts the shards' JSON
//! Lines outputs back together in input order, refusing missing, duplicated
//! or mismatched rows.

use super::{EXIT_OK, OutputArgs, is_stdio};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use sudolab::grid::PuzzleReader;

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Whether the puzzle starting on input `line` (1-based) is this shard's.
    pub fn owns(self, line: usize) -> bool {
        (line - 1) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s:?}: expected I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `sudolab merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The merged JSON Lines file (written atomically; `-` = stdout).
    pub out: PathBuf,
    /// The shards' JSON Lines outputs (`analyze` or `relax` with `-f jsonl`).
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// The input the shards read: every puzzle line of it must be in exactly
    /// one shard. Without it only duplicates and mismatched parameters are
    /// found.
    #[arg(long)]
    pub input: Option<PathBuf>,
}

/// Fields that hold a row's parameters: every row must agree on them.
const PARAMETER_FIELDS: [&str; 4] = ["params", "samples", "seed", "cap"];

/// A row's place in the input: its line, and `k` for relaxation sweeps.
fn key_of(row: &Value) -> Option<(u64, u64)> {
    Some((row["line"].as_u64()?, row["k"].as_u64().unwrap_or(0)))
}

pub fn run(args: MergeArgs) -> Result<u8> {
    let out = OutputArgs {
        format: sudolab::report::Format::Jsonl,
        output: Some(args.out.clone()),
    };
    out.check()?;
    let mut rows: BTreeMap<(u64, u64), (String, String, PathBuf)> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut params: Option<(Value, PathBuf)> = None;
    for path in &args.shards {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if !text.is_empty() && !text.ends_with('\n') {
            bail!(
                "{}: the last line is cut short (an interrupted shard): finish it with --resume first",
                path.display()
            );
        }
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = format!("{} line {}", path.display(), i + 1);
            let row: Value =
                serde_json::from_str(line).with_context(|| format!("{at}: not a JSON record"))?;
            let Some(key) = key_of(&row) else {
                bail!("{at}: no `line` field; merge reads the JSON Lines of analyze or relax");
            };
            let row_params: Value = PARAMETER_FIELDS
                .iter()
                .map(|f| (f.to_string(), row.get(*f).cloned().unwrap_or_default()))
                .collect::<serde_json::Map<_, _>>()
                .into();
            match &params {
                None => params = Some((row_params, path.clone())),
                Some((first, from)) if *first != row_params => bail!(
                    "{at} was computed with {row_params}, {} with {first}: shards of one run share their parameters",
                    from.display()
                ),
                Some(_) => {}
            }
            let puzzle = row["puzzle"].as_str().unwrap_or_default().to_string();
            if let Some((_, _, other)) = rows.get(&key) {
                problems.push(format!(
                    "input line {}{} is in {} and again in {at}",
                    key.0,
                    k_text(&row),
                    other.display()
                ));
                continue;
            }
            rows.insert(key, (puzzle, line.to_string(), path.clone()));
        }
    }
    if let Some(input) = &args.input {
        let text = if is_stdio(input) {
            bail!("--input: give the file the shards read, not stdin");
        } else {
            std::fs::File::open(input)
                .with_context(|| format!("cannot read {}", input.display()))?
        };
        let ks: Vec<u64> = rows
            .keys()
            .map(|k| k.1)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for item in PuzzleReader::new(std::io::BufReader::new(text)) {
            let Ok((line, p)) = item else { continue };
            for &k in &ks {
                match rows.get(&(line as u64, k)) {
                    None => problems.push(format!(
                        "input line {line}{} is in no shard",
                        if ks.len() > 1 {
                            format!(" (k = {k})")
                        } else {
                            String::new()
                        }
                    )),
                    Some((puzzle, _, from)) if *puzzle != p.to_line() => problems.push(format!(
                        "input line {line} is {} but {} has {puzzle} for it",
                        p.to_line(),
                        from.display()
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    if !problems.is_empty() {
        eprintln!(
            "sudolab: merge: {} problem(s); nothing written:",
            problems.len()
        );
        for p in problems.iter().take(20) {
            eprintln!("  {p}");
        }
        if problems.len() > 20 {
            eprintln!("  ... and {} more", problems.len() - 20);
        }
        return Ok(super::EXIT_PARTIAL);
    }
    let mut merged = String::new();
    for (_, line, _) in rows.values() {
        merged.push_str(line);
        merged.push('\n');
    }
    out.write(&merged)?;
    eprintln!(
        "sudolab: merged {} row(s) from {} shard file(s)",
        rows.len(),
        args.shards.len()
    );
    Ok(EXIT_OK)
}

fn k_text(row: &Value) -> String {
    row["k"]
        .as_u64()
        .map(|k| format!(" (k = {k})"))
        .unwrap_or_default()
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
