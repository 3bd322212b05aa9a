//! `sudolab encode`: DIMACS CNF of puzzles.

use super::{Common, Loaded, OutputArgs, load};
use crate::cnf::{self, Encoding};
use crate::grid::Alphabet;
use crate::report::StagedFiles;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct EncodeArgs {
    /// Puzzle file; `-` reads stdin; none = the embedded examples.
    pub input: Option<PathBuf>,
    /// max (maximal), min (candidate-based minimal) or lo-min (Lynce & Ouaknine).
    #[arg(long, short = 'e', value_enum, default_value_t = Encoding::default())]
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
    #[arg(long, value_enum)]
    pub alphabet: Option<Alphabet>,
}

pub(super) fn run(args: EncodeArgs) -> Result<u8> {
    let out = OutputArgs {
        format: Default::default(),
        output: args.output.clone(),
    };
    let dir = out
        .file()
        .filter(|p| p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/'));
    if dir.is_none() {
        out.check()?;
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
    };
    let mut loaded: Loaded = load(&common)?;
    let puzzles = std::mem::take(&mut loaded.puzzles);
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
        // All files or none: a refused puzzle or a failed write leaves every
        // earlier `line<N>.cnf` as it was, as `-o FILE` does.
        let mut staged = StagedFiles::default();
        let mut text = Vec::new();
        for (line, p) in &puzzles {
            text.clear();
            match cnf::write_dimacs(p, args.encoding, &mut text) {
                Ok(()) => {
                    let path = dir.join(format!("line{line}.cnf"));
                    staged
                        .stage(&path, &text)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
                Err(e) => loaded.refuse(*line, e)?,
            }
        }
        staged
            .commit()
            .with_context(|| format!("cannot write in {}", dir.display()))?;
    } else if puzzles.len() > 1 {
        bail!(
            "{} puzzles: give -o DIR/ (an existing directory or a path ending in /) to write one .cnf file per puzzle",
            puzzles.len()
        );
    } else if let Some((line, p)) = puzzles.first() {
        let mut text = Vec::new();
        match cnf::write_dimacs(p, args.encoding, &mut text) {
            Ok(()) => out.write(&String::from_utf8_lossy(&text))?,
            Err(e) => loaded.refuse(*line, e)?,
        }
    }
    Ok(loaded.finish())
}
