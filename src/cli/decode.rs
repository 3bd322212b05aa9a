//! `sudolab decode`: a SAT solver's model back to a grid.

use super::{read_text, write_out};
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use sudolab::cnf::{decode_model, parse_model};
use sudolab::engine::SolveRow;
use sudolab::grid::parse_puzzle;
use sudolab::report::{Format, render_rows};

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The puzzle the model belongs to (one line of N² cells).
    #[arg(long, short = 'p')]
    pub puzzle: String,
    /// Solver output (`s`/`v` lines, minisat's result file or bare literals); `-` = stdin.
    #[arg(default_value = "-")]
    pub model: PathBuf,
    #[arg(long, short = 'f', default_value = "text")]
    pub format: Format,
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

pub fn run(args: DecodeArgs) -> Result<u8> {
    let puzzle = parse_puzzle(&args.puzzle).map_err(|e| anyhow::anyhow!("--puzzle: {e}"))?;
    let text = read_text(&args.model)?;
    let lits = parse_model(&text).with_context(|| format!("{}", args.model.display()))?;
    let solution = decode_model(&puzzle, &lits).with_context(|| format!("{}", args.model.display()))?;
    let row = SolveRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        solution: Some(solution.to_line()),
    };
    let out = match args.format {
        Format::Text => format!("{}\n", solution.to_line()),
        f => render_rows(&[row], f),
    };
    write_out(args.output.as_ref(), &out)?;
    Ok(super::EXIT_OK)
}
