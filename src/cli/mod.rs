//! The command-line layer: argument parsing, input reading, output writing.
//! Each subcommand file parses its arguments, calls one library function per
//! puzzle and hands the rows to the shared formatter; no computation here.

pub mod analyze;
pub mod canon;
pub mod clauses;
pub mod decode;
pub mod encode;
pub mod engines;
pub mod eval;
pub mod generate;
pub mod rate;
pub mod relax;

use anyhow::{Context, Result, bail};
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use sudolab::grid::{ParseError, Puzzle, PuzzleReader};
use sudolab::report::{self, Format};

/// Exit codes: documented in the user guide.
pub const EXIT_OK: u8 = 0;
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_DISAGREE: u8 = 2;
pub const EXIT_PARTIAL: u8 = 3;

/// Arguments every puzzle-reading subcommand shares.
#[derive(Debug, Args, Clone)]
pub struct Common {
    /// Puzzle file (one puzzle per line, or grid blocks); `-` reads stdin.
    /// Without it the embedded example puzzles are used.
    pub input: Option<PathBuf>,
    /// Output format.
    #[arg(long, short = 'f', default_value = "text")]
    pub format: Format,
    /// Write the output to this file (atomically) instead of stdout.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Skip bad input lines (reported on stderr, exit code 3) instead of stopping.
    #[arg(long)]
    pub keep_going: bool,
}

/// Puzzles read from the input, with their line numbers, and what was rejected.
pub struct Loaded {
    pub puzzles: Vec<(usize, Puzzle)>,
    pub rejected: Vec<String>,
    pub keep_going: bool,
}

impl Loaded {
    /// Records a puzzle refused by the command (e.g. contradictory); an
    /// error unless `--keep-going`.
    pub fn refuse(&mut self, line: usize, why: impl std::fmt::Display) -> Result<()> {
        let msg = format!("line {line}: {why}");
        if !self.keep_going {
            bail!("{msg}\n(use --keep-going to skip such puzzles)");
        }
        self.rejected.push(msg);
        Ok(())
    }

    /// Prints the summary of rejected lines and returns the exit code.
    pub fn finish(&self) -> u8 {
        if self.rejected.is_empty() {
            return EXIT_OK;
        }
        eprintln!("sudolab: {} input line(s) rejected:", self.rejected.len());
        for r in self.rejected.iter().take(20) {
            eprintln!("  {r}");
        }
        if self.rejected.len() > 20 {
            eprintln!("  ... and {} more", self.rejected.len() - 20);
        }
        EXIT_PARTIAL
    }
}

fn open_input(path: &PathBuf) -> Result<Box<dyn std::io::BufRead>> {
    if path.as_os_str() == "-" {
        Ok(Box::new(BufReader::new(std::io::stdin())))
    } else {
        let f =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        Ok(Box::new(BufReader::new(f)))
    }
}

/// Reads the puzzles of the input (or the embedded examples).
pub fn load(common: &Common) -> Result<Loaded> {
    let mut loaded = Loaded {
        puzzles: Vec::new(),
        rejected: Vec::new(),
        keep_going: common.keep_going,
    };
    let Some(path) = &common.input else {
        loaded.puzzles = sudolab::examples::embedded()
            .into_iter()
            .enumerate()
            .map(|(i, p)| (i + 1, p))
            .collect();
        return Ok(loaded);
    };
    for item in PuzzleReader::new(open_input(path)?) {
        match item {
            Ok(p) => loaded.puzzles.push(p),
            Err(e) => reject(&mut loaded, e)?,
        }
    }
    if loaded.puzzles.is_empty() && loaded.rejected.is_empty() {
        bail!("no puzzle found in {}", path.display());
    }
    Ok(loaded)
}

fn reject(loaded: &mut Loaded, e: ParseError) -> Result<()> {
    if !loaded.keep_going {
        bail!("{e}\n(use --keep-going to skip bad lines)");
    }
    loaded.rejected.push(e.to_string());
    Ok(())
}

/// Opens a JSON Lines output that results are appended to as they finish:
/// truncated for a new run, appended to with `--resume`.
pub fn open_stream(path: &PathBuf, resume: bool) -> Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(resume)
        .write(true)
        .truncate(!resume)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Reads a whole text input (file or `-`).
pub fn read_text(path: &PathBuf) -> Result<String> {
    let mut s = String::new();
    open_input(path)?
        .read_to_string(&mut s)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(s)
}

/// Writes output to the `-o` file (atomically) or stdout.
pub fn write_out(output: Option<&PathBuf>, text: &str) -> Result<()> {
    match output {
        Some(path) => report::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display())),
        None => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (e.g. `| head`) is not an error worth reporting.
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
            Ok(())
        }
    }
}

/// Renders rows in the chosen format (text by `text`) and writes them.
pub fn emit<T: Serialize>(
    common: &Common,
    rows: &[T],
    text: impl FnOnce(&[T]) -> String,
) -> Result<()> {
    let s = match common.format {
        Format::Text => text(rows),
        f => report::render_rows(rows, f),
    };
    write_out(common.output.as_ref(), &s)
}

/// Runs `f` on every puzzle in parallel, keeping input order.
pub fn par_map<T: Send, E: Send>(
    puzzles: &[(usize, Puzzle)],
    f: impl Fn(&Puzzle) -> Result<T, E> + Sync + Send,
) -> Vec<(usize, Result<T, E>)> {
    puzzles.par_iter().map(|(line, p)| (*line, f(p))).collect()
}

/// Label for text output.
pub fn label_of(label: &Option<String>) -> String {
    label.clone().unwrap_or_default()
}
