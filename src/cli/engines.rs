//! `solve`, `count`, `check` and `backbone`: the engine subcommands.

use super::{Common, EXIT_DISAGREE, label_of, load, load_windows, par_map, progress, resume};
use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use sudolab::Status;
use sudolab::analyze::engines::{
    BackboneError, BackboneRow, CheckRow, CountRow, LARGE_COUNT, SolveRow,
};
use sudolab::engine::{Disagreement, Engines};
use sudolab::graph::{RelaxedInstance, RemovedEdges};
use sudolab::report::{text_table, write_atomic};

#[derive(Debug, Args)]
pub struct EngineArgs {
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
pub struct CountArgs {
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
    let removed = sudolab::graph::parse_removed(&text)
        .map_err(|e| anyhow::anyhow!("--remove-edges {source}: {e}"))?;
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
pub fn backbone(args: CountArgs) -> Result<u8> {
    args.engine.common.out.check()?;
    if let Some(path) = &args.emit_graph {
        super::check_target("--emit-graph", path)?;
    }
    let mut loaded = load(&args.engine.common)?;
    let removed = removed_edges(&args.remove_edges)?;
    let mut rows = Vec::new();
    let puzzles = std::mem::take(&mut loaded.puzzles);
    for (line, p) in &puzzles {
        let engines = &args.engine.engines_for(p);
        // As `count` does: an exact count past a million solutions may run
        // for hours, so say so before starting it.
        if let Ok(true) = BackboneRow::is_long(p, &removed.edges, engines, args.cap) {
            note!(
                "sudolab: line {line}: more than {LARGE_COUNT} solutions; the exact count may take very long (--cap N bounds it)"
            );
        }
        match BackboneRow::of_removed(p, &removed, engines, args.cap) {
            Err(e @ (BackboneError::Edges(_) | BackboneError::SampledForAnother(_))) => {
                loaded.refuse(*line, e)?
            }
            Err(BackboneError::Disagreement(d)) => {
                note!("sudolab: ENGINE DISAGREEMENT (bug) at input line {line}: {d}");
                return Ok(EXIT_DISAGREE);
            }
            Ok(row) => rows.push(row),
        }
    }
    if let (Some(path), Some((_, first))) = (&args.emit_graph, puzzles.first()) {
        let r = RelaxedInstance::new(first, &removed.edges)?;
        write_atomic(path, r.to_dot().as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    args.engine.common.out.emit(&rows, |rows| {
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                let n = count_cell(r.solutions, r.capped);
                vec![
                    r.puzzle.clone(),
                    r.removed.len().to_string(),
                    n,
                    r.fixed.len().to_string(),
                    label_of(&r.label),
                ]
            })
            .collect();
        text_table(
            &["puzzle", "removed", "solutions", "fixed", "label"],
            &table,
        )
    })?;
    Ok(loaded.finish())
}

/// Collects rows; on a disagreement prints it loudly and returns its exit code.
fn collect<T>(results: Vec<(usize, Result<T, Disagreement>)>) -> Result<Vec<T>, u8> {
    let mut rows = Vec::with_capacity(results.len());
    let mut failed = false;
    for (line, r) in results {
        match r {
            Ok(row) => rows.push(row),
            Err(d) => {
                note!("sudolab: ENGINE DISAGREEMENT (bug) at input line {line}: {d}");
                failed = true;
            }
        }
    }
    if failed { Err(EXIT_DISAGREE) } else { Ok(rows) }
}

pub fn check(args: EngineArgs) -> Result<u8> {
    args.common.out.check()?;
    let streamed = resume::to_stdout(&args.common.out);
    let mut rows = Vec::new();
    let (mut loaded, stopped) = load_windows(&args.common, |_, window| {
        match collect(par_map(&window, |p| CheckRow::new(p, &args.engines_for(p)))) {
            Ok(r) if streamed => resume::write_rows(&r)?,
            Ok(r) => rows.extend(r),
            Err(code) => return Ok(Some(code)),
        }
        Ok(None)
    })?;
    if let Some(code) = stopped {
        return Ok(code);
    }
    if streamed {
        return Ok(loaded.finish());
    }
    args.common.out.emit(&rows, |rows| {
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                vec![
                    r.puzzle.clone(),
                    r.status.to_string(),
                    r.reason.clone().unwrap_or_default(),
                    label_of(&r.label),
                ]
            })
            .collect();
        text_table(&["puzzle", "status", "reason", "label"], &table)
    })?;
    Ok(loaded.finish())
}

pub fn count(args: CountArgs) -> Result<u8> {
    if args.remove_edges.is_some() {
        return backbone(args);
    }
    args.engine.common.out.check()?;
    let mut loaded = load(&args.engine.common)?;
    let pb = progress::bar(loaded.puzzles.len() as u64, "puzzles counted");
    let results = loaded
        .puzzles
        .par_iter()
        .map(|(line, p)| {
            let engines = &args.engine.engines_for(p);
            let count = || {
                // An exact count of a puzzle with billions of solutions runs
                // for hours: say so before starting it.
                if CountRow::is_long(p, engines, args.cap)? {
                    pb.suspend(|| {
                        note!(
                            "sudolab: line {line}: more than {LARGE_COUNT} solutions; the exact count may take very long (--cap N bounds it)"
                        )
                    });
                }
                CountRow::new(p, engines, args.cap)
            };
            let row = count();
            pb.inc(1);
            (*line, row)
        })
        .collect();
    pb.finish_and_clear();
    let rows = match collect(results) {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    args.engine.common.out.emit(&rows, |rows| {
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                let n = count_cell(r.solutions, r.capped);
                vec![r.puzzle.clone(), n, label_of(&r.label)]
            })
            .collect();
        text_table(&["puzzle", "solutions", "label"], &table)
    })?;
    Ok(loaded.finish())
}

pub fn solve(args: EngineArgs) -> Result<u8> {
    args.common.out.check()?;
    let mut loaded = load(&args.common)?;
    let rows = match collect(par_map(&loaded.puzzles, |p| {
        SolveRow::new(p, &args.engines_for(p))
    })) {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    args.common.out.emit(&rows, |rows| {
        let mut s = String::new();
        for r in rows {
            let sol = match (&r.solution, r.status) {
                (Some(sol), Status::Multiple) => format!("{sol}  (one of several solutions)"),
                (Some(sol), _) => sol.clone(),
                (None, _) => "no solution".into(),
            };
            s.push_str(&format!("{}  {}", r.puzzle, sol));
            if let Some(l) = &r.label {
                s.push_str(&format!("  {l}"));
            }
            s.push('\n');
        }
        s
    })?;
    Ok(loaded.finish())
}

/// A solution count as a table cell: `>=N` when the count stopped at its cap.
fn count_cell(solutions: u64, capped: bool) -> String {
    if capped {
        format!(">={solutions}")
    } else {
        solutions.to_string()
    }
}
