//! `solve`, `count`, `check` and `backbone`: the engine subcommands.

use super::{Common, batch_rows, finish, run_batch};
mod removed;
mod rows;
mod tables;

use anyhow::Result;
use clap::Args;
pub(crate) use removed::{RemovedEdges, parse_removed};
pub(crate) use rows::{
    BackboneError, BackboneRow, CheckRow, CountRow, LARGE_COUNT, SolveRow, relax_is_long,
};
use sudolab::Engines;
use sudolab::RelaxedInstance;
use sudolab::write_atomic;
use sudolab::{Driver, JobError};

#[derive(Debug, Args)]
pub(super) struct EngineArgs {
    #[command(flatten)]
    pub common: Common,
    /// Engine: bitset (bitset search, the fastest), dlx (Dancing Links), sat
    /// (varisat), a comma-separated list such as `sat,dlx` (every answer
    /// compared), or `all`. Default: bitset, and sat for 25×25 puzzles
    /// (where the bitset search can run for hours).
    #[arg(long)]
    pub engine: Option<Engines>,
}

impl EngineArgs {
    /// The engines chosen, or the default for the puzzle's size.
    fn engines_for(&self, p: &sudolab::Puzzle) -> Engines {
        self.engine
            .clone()
            .unwrap_or_else(|| Engines::default_for(p))
    }
}

#[derive(Debug, Args)]
pub(super) struct CountArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Stop counting at this many solutions (0 = count all).
    #[arg(long, default_value_t = 1000)]
    pub cap: u64,
    /// Analyse the puzzle with these edges removed: a file, or the text
    /// itself, holding JSON pairs (`[[0,1],[3,12]]`), one `--emit-samples`
    /// line, or `a b` per line (0-based cell indices).
    #[arg(long, value_name = "FILE|EDGES")]
    pub remove_edges: Option<String>,
    /// Write the (relaxed) graph of the first puzzle as Graphviz DOT here
    /// (removed edges dashed red; draw with `neato -n -Tsvg`).
    #[arg(long)]
    pub emit_graph: Option<std::path::PathBuf>,
}

/// The file `--remove-edges` names, if it names one (else it is the
/// edges' text itself).
fn edges_file(arg: &Option<String>) -> Option<&std::path::Path> {
    arg.as_deref()
        .map(std::path::Path::new)
        .filter(|p| p.is_file())
}

/// The paths of `count` and `backbone`: the input, `--remove-edges` and
/// their outputs, checked by the one rule.
fn check_paths(args: &CountArgs) -> Result<()> {
    Ok(args
        .engine
        .common
        .paths()
        .input("--remove-edges", edges_file(&args.remove_edges))
        .output("--emit-graph", args.emit_graph.as_deref())
        .check()?)
}

/// The edges of `--remove-edges` (a file, else inline text), with a note
/// on stderr of what is used.
fn removed_edges(arg: &Option<String>) -> Result<RemovedEdges> {
    let Some(arg) = arg else {
        return Ok(RemovedEdges::default());
    };
    let path = std::path::Path::new(arg);
    let (text, source) = if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("--remove-edges: cannot read {arg}: {e}"))?;
        (text, arg.clone())
    } else if arg.trim_start().starts_with(['[', '{']) {
        (arg.clone(), "the command line".to_string())
    } else {
        anyhow::bail!("--remove-edges: {arg} is neither a file nor a JSON list of [a, b] pairs");
    };
    let removed =
        parse_removed(&text).map_err(|e| anyhow::anyhow!("--remove-edges {source}: {e}"))?;
    let origin = match (&removed.sample, &removed.puzzle) {
        (Some(s), Some(p)) => format!(", sample {s} of puzzle {p}"),
        (Some(s), None) => format!(", sample {s}"),
        _ => String::new(),
    };
    note!(
        "sudolab: removing {} edge(s) given in {source}{origin}",
        removed.edges.len()
    );
    Ok(removed)
}

/// `sudolab backbone`: solution count and fixed cells, optionally relaxed.
pub(super) fn backbone(args: CountArgs) -> Result<u8> {
    check_paths(&args)?;
    let input = args.engine.common.input()?;
    let removed = removed_edges(&args.remove_edges)?;
    // Rows go out window by window, as the other engine commands' do.
    let render = tables::backbone_table;
    let mut rows = super::resume::WindowRows::new(&args.engine.common.out, true, &render)?;
    let mut first = None;
    // One puzzle after the other, so that the note on a long count comes
    // before its work.
    let summary = run_batch(
        input,
        Driver::new().sequential(),
        |line, p| {
            let engines = &args.engine.engines_for(p);
            // As `count` does: an exact count past a million solutions may
            // run for hours, so say so before starting it.
            if let Ok(true) = BackboneRow::is_long(p, &removed.edges, engines, args.cap) {
                note!(
                    "sudolab: line {line}: more than {LARGE_COUNT} solutions; the exact count may take very long (--cap N bounds it)"
                );
            }
            let row =
                BackboneRow::of_removed(p, &removed, engines, args.cap).map_err(|e| match e {
                    BackboneError::Disagreement(d) => d.into(),
                    e => JobError::refused(e),
                })?;
            Ok((p.clone(), row))
        },
        |done| {
            let mut window = Vec::with_capacity(done.len());
            for (_, (p, row)) in done {
                first.get_or_insert(p);
                window.push(row);
            }
            rows.push(window)
        },
    )?;
    if let (Some(path), Some(first)) = (&args.emit_graph, &first) {
        let r = RelaxedInstance::new(first, &removed.edges)?;
        write_atomic(path, r.to_dot().as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    rows.finish()?;
    Ok(finish(&summary.rejected))
}

pub(super) fn check(args: EngineArgs) -> Result<u8> {
    args.common.paths().check()?;
    batch_rows(
        &args.common,
        "puzzles checked",
        true,
        tables::check_table,
        |_, p| Ok(CheckRow::new(p, &args.engines_for(p))?),
    )
}

pub(super) fn count(args: CountArgs) -> Result<u8> {
    if args.remove_edges.is_some() {
        return backbone(args);
    }
    let common = &args.engine.common;
    check_paths(&args)?;
    if let Some(graph) = &args.emit_graph {
        anyhow::bail!(
            "--emit-graph {}: count writes no graph without --remove-edges; use `sudolab backbone --emit-graph {}` for the Sudoku graph, or give --remove-edges",
            graph.display(),
            graph.display()
        );
    }
    batch_rows(
        common,
        "puzzles counted",
        true,
        tables::count_table,
        |line, p| {
            let engines = &args.engine.engines_for(p);
            // An exact count of a puzzle with billions of solutions runs for
            // hours: say so before starting it.
            if CountRow::is_long(p, engines, args.cap)? {
                note!(
                    "sudolab: line {line}: more than {LARGE_COUNT} solutions; the exact count may take very long (--cap N bounds it)"
                );
            }
            Ok(CountRow::new(p, engines, args.cap)?)
        },
    )
}

pub(super) fn solve(args: EngineArgs) -> Result<u8> {
    args.common.paths().check()?;
    batch_rows(
        &args.common,
        "puzzles solved",
        false,
        tables::solve_text,
        |_, p| Ok(SolveRow::new(p, &args.engines_for(p))?),
    )
}
