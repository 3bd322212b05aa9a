//! `sudolab decode`: a SAT solver's model back to a grid.

use super::{OutputArgs, read_text};
use crate::cli::engines::SolveRow;
use crate::cli::paths::PathPlan;
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use sudolab::Engines;
use sudolab::Solution;

#[derive(Debug, Args)]
pub(super) struct DecodeArgs {
    /// The puzzle the model belongs to: one line of N² cells, or a file
    /// holding that one puzzle.
    #[arg(long, short = 'p', value_name = "PUZZLE|FILE")]
    pub puzzle: String,
    /// Solver output (`s`/`v` lines, minisat's result file or bare literals); `-` = stdin.
    #[arg(default_value = "-")]
    pub model: PathBuf,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub(super) fn run(args: DecodeArgs) -> Result<u8> {
    let puzzle_file = std::path::Path::new(&args.puzzle);
    PathPlan::new()
        .input("MODEL", Some(&args.model))
        .input("--puzzle", puzzle_file.is_file().then_some(puzzle_file))
        .output("-o", args.out.file())
        .check()?;
    let (_, puzzle) = super::read_one_puzzle("--puzzle", &args.puzzle, true, true)?;
    let text = read_text(&args.model)?;
    let lits = Solution::parse_model(&text).with_context(|| format!("{}", args.model.display()))?;
    let solution = Solution::decode_model(&puzzle, &lits)
        .with_context(|| format!("{}", args.model.display()))?;
    let row = SolveRow::of_solution(&puzzle, &solution, &Engines::default())?;
    args.out
        .emit(&[row], |_| format!("{}\n", solution.to_line()))?;
    Ok(super::EXIT_OK)
}
