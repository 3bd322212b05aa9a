//! `sudolab canon`: the canonical form of puzzles under the Sudoku
//! symmetries (relabelling, row/column permutations, transpose).

use super::{Common, load};
use crate::grid::canon::canonical;
use anyhow::Result;
use clap::Args;
use serde::Serialize;

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
    let mut loaded = load(&args.common)?;
    let mut rows = Vec::new();
    for (line, p) in std::mem::take(&mut loaded.puzzles) {
        match canonical(&p) {
            Ok(c) => rows.push(CanonRow {
                puzzle: p.to_line(),
                label: p.label.clone(),
                canonical: c.to_line(),
            }),
            Err(e) => loaded.refuse(line, e)?,
        }
    }
    args.common.out.emit(&rows, |rows| {
        rows.iter().map(|r| format!("{}\n", r.canonical)).collect()
    })?;
    Ok(loaded.finish())
}
