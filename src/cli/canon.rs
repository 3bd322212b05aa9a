//! `sudolab canon`: the canonical form of puzzles under the Sudoku
//! symmetries (relabelling, row/column permutations, transpose).

use super::{Common, batch_rows};
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use sudolab::JobError;

#[derive(Debug, Args)]
pub(super) struct CanonArgs {
    #[command(flatten)]
    pub common: Common,
}

/// One puzzle and its canonical form.
#[derive(Debug, Serialize)]
pub(super) struct CanonRow {
    pub puzzle: String,
    pub label: Option<String>,
    pub canonical: String,
}

pub(super) fn run(args: CanonArgs) -> Result<u8> {
    args.common.paths().check()?;
    let render = |rows: &[CanonRow]| rows.iter().map(|r| format!("{}\n", r.canonical)).collect();
    batch_rows(&args.common, "puzzles", false, render, |_, p| {
        let c = p.canonical().map_err(JobError::refused)?;
        Ok(CanonRow {
            puzzle: p.to_line(),
            label: p.label.clone(),
            canonical: c.to_line(),
        })
    })
}
