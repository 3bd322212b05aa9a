//! `sudolab encode`: DIMACS CNF of puzzles.

use super::{Loaded, load, write_out};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;
use sudolab::cnf::{self, Encoding};
use sudolab::report::write_atomic;

#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// Puzzle file; `-` reads stdin; none = the embedded examples.
    pub input: Option<PathBuf>,
    /// max (maximal), min (candidate-based minimal) or lo-min (Lynce & Ouaknine).
    #[arg(long, short = 'e', default_value = "min")]
    pub encoding: Encoding,
    /// Output file for one puzzle, or a directory for several (one
    /// `line<N>.cnf` each). Default: stdout, one puzzle only.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Skip bad input lines and refused puzzles instead of stopping.
    #[arg(long)]
    pub keep_going: bool,
}

pub fn run(args: EncodeArgs) -> Result<u8> {
    let common = super::Common {
        input: args.input.clone(),
        format: Default::default(),
        output: None,
        keep_going: args.keep_going,
    };
    let mut loaded: Loaded = load(&common)?;
    let puzzles = std::mem::take(&mut loaded.puzzles);
    let to_dir = puzzles.len() > 1 || args.output.as_ref().is_some_and(|p| p.is_dir());
    if to_dir {
        let Some(dir) = &args.output else {
            bail!(
                "{} puzzles: give -o DIR to write one .cnf file per puzzle",
                puzzles.len()
            );
        };
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
        for (line, p) in &puzzles {
            match cnf::encode(p, args.encoding) {
                Ok(c) => {
                    let path = dir.join(format!("line{line}.cnf"));
                    write_atomic(&path, &c.to_dimacs_bytes())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
                Err(e) => loaded.refuse(*line, e)?,
            }
        }
    } else if let Some((line, p)) = puzzles.first() {
        match cnf::encode(p, args.encoding) {
            Ok(c) => {
                let text = String::from_utf8_lossy(&c.to_dimacs_bytes()).into_owned();
                write_out(args.output.as_ref(), &text)?;
            }
            Err(e) => loaded.refuse(*line, e)?,
        }
    }
    Ok(loaded.finish())
}
