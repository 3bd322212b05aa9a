//! `sudolab encode`: DIMACS CNF of puzzles.

use super::output::StagedFiles;
use super::{Common, OutputArgs, finish, run_batch};
use crate::cli::paths::{OutputFolder, PathPlan, stale_members};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};
use sudolab::Alphabet;
use sudolab::{Cnf, Driver, Encoding, JobError};

#[derive(Debug, Args)]
pub(super) struct EncodeArgs {
    /// Puzzle file; `-` reads stdin; none = the embedded examples.
    pub input: Option<PathBuf>,
    /// max (maximal), min (candidate-based minimal) or lo-min (Lynce & Ouaknine).
    #[arg(long, short = 'e', value_parser = crate::cli::values::parser::<Encoding>(), default_value_t = Encoding::default())]
    pub encoding: Encoding,
    /// Output file for one puzzle (`-` = stdout, the default), or for several
    /// puzzles a directory (an existing one, or a path ending in `/`) that
    /// gets one `line<N>.cnf` per puzzle.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Skip bad input lines and refused puzzles instead of stopping.
    #[arg(long)]
    pub keep_going: bool,
    /// Digits of the input: 1-g or 0-f (see `check --help`).
    #[arg(long, value_parser = crate::cli::values::parser::<Alphabet>())]
    pub alphabet: Option<Alphabet>,
    /// With -o DIR/: remove the `line<N>.cnf` files an earlier run left in
    /// DIR that this run does not write (without it such a folder is
    /// refused, so that no run's files mix with another's).
    #[arg(long)]
    pub clean: bool,
}

/// True for the name of a file `encode -o DIR/` writes: `line<N>.cnf`.
fn is_cnf_of_a_line(name: &str) -> bool {
    name.strip_prefix("line")
        .and_then(|rest| rest.strip_suffix(".cnf"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

pub(super) fn run(args: EncodeArgs) -> Result<u8> {
    let out = OutputArgs {
        format: Default::default(),
        output: args.output.clone(),
    };
    let dir = out
        .file()
        .filter(|p| p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/'));
    let paths = PathPlan::new().input("INPUT", args.input.as_deref());
    match dir {
        Some(dir) => paths.folder("-o", dir, is_cnf_of_a_line)?.check()?,
        None => paths.output("-o", out.file()).check()?,
    }
    if args.clean && dir.is_none() {
        bail!(
            "--clean removes the line<N>.cnf files of an earlier run from -o DIR/: it goes with a folder"
        );
    }
    let common = Common {
        input: args.input.clone(),
        out: OutputArgs {
            format: Default::default(),
            output: None,
        },
        keep_going: args.keep_going,
        alphabet: args.alphabet,
        shard: None,
        pencilmarks: true,
    };
    // The puzzles are read and encoded a window at a time: a second puzzle
    // without -o DIR/ is refused at once, and memory does not grow with
    // the input.
    let encode = |_: usize, p: &sudolab::Puzzle| {
        let mut text = Vec::new();
        Cnf::append_dimacs(p, args.encoding, &mut text).map_err(JobError::refused)?;
        Ok(text)
    };
    let summary = match dir {
        Some(dir) => encode_into_folder(&common, dir, args.clean, &encode)?,
        None => {
            let mut first: Option<Vec<u8>> = None;
            // Windows of two: the second puzzle is the last one read.
            let driver = Driver::new().window(2);
            let summary = run_batch(common.input()?, driver, encode, |rows| {
                for (_, text) in rows {
                    if first.replace(text).is_some() {
                        bail!(
                            "more than one puzzle: give -o DIR/ (an existing directory or a path ending in /) to write one .cnf file per puzzle"
                        );
                    }
                }
                Ok(())
            })?;
            if let Some(text) = first {
                out.write(&String::from_utf8_lossy(&text))?;
            }
            summary
        }
    };
    Ok(finish(&summary.rejected))
}

/// Encodes every puzzle of `common`'s input into `dir` (`line<N>.cnf`, all
/// files or none: a refused puzzle or a failed write leaves every earlier
/// file as it was, as `-o FILE` does); a folder this run creates goes
/// again if the run fails, and the `line<N>.cnf` files of an earlier run
/// this run does not write are refused, or removed with `clean`.
fn encode_into_folder(
    common: &Common,
    dir: &Path,
    clean: bool,
    encode: &(impl Fn(usize, &sudolab::Puzzle) -> Result<Vec<u8>, JobError> + Sync),
) -> Result<sudolab::BatchSummary> {
    let folder = OutputFolder::create(dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    let mut staged = StagedFiles::default();
    let mut written = Vec::new();
    let summary = run_batch(common.input()?, Driver::new(), encode, |rows| {
        for (line, text) in rows {
            let path = dir.join(format!("line{line}.cnf"));
            staged
                .stage_in_folder(&path, &text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            written.push(path);
        }
        Ok(())
    })?;
    let mut stale = stale_members(dir, is_cnf_of_a_line, &written)
        .with_context(|| format!("cannot read {}", dir.display()))?;
    stale.sort_by_key(|p| (p.as_os_str().len(), p.clone()));
    if !stale.is_empty() && !clean {
        bail!(
            "-o {}: holds {} line<N>.cnf file(s) of an earlier run that this run does not write ({}): they would sit beside this run's files; give --clean to remove them, or choose an empty folder",
            dir.display(),
            stale.len(),
            names_of(&stale)
        );
    }
    staged
        .commit()
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    folder.keep();
    for path in &stale {
        std::fs::remove_file(path)
            .with_context(|| format!("--clean: cannot remove {}", path.display()))?;
    }
    if !stale.is_empty() {
        note!(
            "sudolab: --clean: removed {} line<N>.cnf file(s) of an earlier run from {} ({})",
            stale.len(),
            dir.display(),
            names_of(&stale)
        );
    }
    Ok(summary)
}

/// The first few file names of `paths`, for a message.
fn names_of(paths: &[std::path::PathBuf]) -> String {
    let mut names: Vec<String> = paths
        .iter()
        .take(3)
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    if paths.len() > 3 {
        names.push(format!("… {} more", paths.len() - 3));
    }
    names.join(", ")
}
