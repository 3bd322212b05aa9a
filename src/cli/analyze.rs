//! `sudolab analyze`: every requested metric for every puzzle of a data set
//! in one streaming, resumable, parallel run. Each output row holds
//! `puzzle`, `label` and the metrics under the names `clauses`, `relax` and
//! `rate` use.

use super::{Common, load, write_out};
use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::io::{BufRead, IsTerminal, Write};
use sudolab::cnf::{ClassCuts, Encoding, clause_row};
use sudolab::engine::Engines;
use sudolab::grid::Puzzle;
use sudolab::relax::{self, RelaxOptions};
use sudolab::report::{Format, render_rows};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub common: Common,
    /// Metric groups: clauses, relax, rate-all (or rate:MODELS, e.g. rate:nishio,weights), comma list.
    #[arg(long, default_value = "clauses,relax")]
    pub metrics: String,
    /// Relaxation: edges removed.
    #[arg(long, default_value_t = 45)]
    pub k: usize,
    /// Relaxation: samples per puzzle.
    #[arg(long, default_value_t = 200)]
    pub samples: usize,
    /// Seed of every randomized metric.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Relaxation: solution cap.
    #[arg(long, default_value_t = 1000)]
    pub cap: u64,
    /// Skip puzzles already in the -o file (JSONL) and append.
    #[arg(long)]
    pub resume: bool,
    /// Include the per-cell fixedness map in relax metrics.
    #[arg(long)]
    pub fixedness: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Group {
    Clauses,
    Relax,
    Rate(String),
}

fn parse_groups(s: &str) -> Result<Vec<Group>> {
    let mut out = Vec::new();
    let mut items = s
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .peekable();
    while let Some(item) = items.next() {
        match item {
            "clauses" => out.push(Group::Clauses),
            "relax" => out.push(Group::Relax),
            "rate-all" | "rate" => out.push(Group::Rate("all".into())),
            x if x.starts_with("rate:") => {
                // rate:a,b,c — the models run to the next group name.
                let mut models = vec![x.trim_start_matches("rate:").to_string()];
                while let Some(next) = items.peek() {
                    if ["clauses", "relax", "rate-all", "rate"].contains(next)
                        || next.starts_with("rate:")
                    {
                        break;
                    }
                    models.push(items.next().unwrap_or_default().to_string());
                }
                out.push(Group::Rate(models.join(",")));
            }
            other => bail!(
                "unknown metric group {other:?} (expected clauses, relax, rate-all or rate:MODELS)"
            ),
        }
    }
    if out.is_empty() {
        bail!("no metric group given");
    }
    Ok(out)
}

fn merge(row: &mut Map<String, Value>, v: Value, skip: &[&str]) {
    if let Value::Object(m) = v {
        for (k, val) in m {
            if !skip.contains(&k.as_str()) && !row.contains_key(&k) {
                row.insert(k, val);
            }
        }
    }
}

fn analyze_one(p: &Puzzle, groups: &[Group], args: &AnalyzeArgs) -> Map<String, Value> {
    let mut row = Map::new();
    row.insert("puzzle".into(), Value::String(p.to_line()));
    row.insert(
        "label".into(),
        p.label.clone().map(Value::String).unwrap_or(Value::Null),
    );
    let mut errors = Map::new();
    for g in groups {
        match g {
            Group::Clauses => match clause_row(p, Encoding::Min, ClassCuts::thirds(p.side())) {
                Ok(r) => merge(
                    &mut row,
                    serde_json::to_value(r).unwrap_or_default(),
                    &["encoding"],
                ),
                Err(e) => {
                    errors.insert("clauses".into(), Value::String(e.to_string()));
                }
            },
            Group::Relax => {
                let opts = RelaxOptions {
                    k: args.k,
                    samples: args.samples,
                    seed: args.seed,
                    cap: args.cap,
                    engines: Engines::default(),
                    verify: (args.samples * 3).div_ceil(100).max(1),
                };
                match relax::relax(p, &opts) {
                    Ok((r, _)) => {
                        let mut skip = vec!["engine", "seed"];
                        if !args.fixedness {
                            skip.push("fixedness");
                        }
                        merge(&mut row, serde_json::to_value(r).unwrap_or_default(), &skip);
                    }
                    Err(e) => {
                        errors.insert("relax".into(), Value::String(e.to_string()));
                    }
                }
            }
            Group::Rate(models) => match sudolab::human::RateOptions::for_models(models) {
                Ok(mut o) => {
                    o.seed = args.seed;
                    let r = sudolab::human::rate(p, &o);
                    merge(&mut row, serde_json::to_value(r).unwrap_or_default(), &[]);
                }
                Err(e) => {
                    errors.insert("rate".into(), Value::String(e.to_string()));
                }
            },
        }
    }
    if !errors.is_empty() {
        row.insert("errors".into(), Value::Object(errors));
    }
    row
}

pub fn run(args: AnalyzeArgs) -> Result<u8> {
    let groups = parse_groups(&args.metrics)?;
    let mut loaded = load(&args.common)?;
    let streaming = args.common.format == Format::Jsonl && args.common.output.is_some();
    if args.resume && !streaming {
        bail!("--resume needs -o FILE with --format jsonl");
    }
    let mut done = HashSet::new();
    if let (true, Some(path)) = (args.resume, &args.common.output)
        && let Ok(f) = std::fs::File::open(path)
    {
        for line in std::io::BufReader::new(f).lines() {
            let line = line.with_context(|| format!("cannot read {}", path.display()))?;
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && let Some(p) = v["puzzle"].as_str()
            {
                done.insert(p.to_string());
            }
        }
    }
    let puzzles: Vec<(usize, Puzzle)> = std::mem::take(&mut loaded.puzzles)
        .into_iter()
        .filter(|(_, p)| !done.contains(&p.to_line()))
        .collect();
    let pb = if std::io::stderr().is_terminal() {
        ProgressBar::new(puzzles.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    let mut file = match (&args.common.output, streaming) {
        (Some(path), true) => Some(super::open_stream(path, args.resume)?),
        _ => None,
    };
    let mut rows = Vec::new();
    // Chunks keep memory bounded and stream results in input order.
    for chunk in puzzles.chunks(64) {
        let out: Vec<Map<String, Value>> = chunk
            .par_iter()
            .map(|(_, p)| {
                let r = analyze_one(p, &groups, &args);
                pb.inc(1);
                r
            })
            .collect();
        match file.as_mut() {
            Some(f) => {
                for r in &out {
                    writeln!(f, "{}", serde_json::to_string(r)?)?;
                }
                f.flush()?;
            }
            None => rows.extend(out),
        }
    }
    pb.finish_and_clear();
    if file.is_none() {
        let fmt = if args.common.format == Format::Text {
            Format::Jsonl
        } else {
            args.common.format
        };
        write_out(args.common.output.as_ref(), &render_rows(&rows, fmt))?;
    }
    Ok(loaded.finish())
}
