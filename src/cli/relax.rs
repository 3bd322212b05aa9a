//! `sudolab relax`: the constraint-relaxation experiment (Pelánek §3.2).

use super::{Common, EXIT_DISAGREE, load, write_out};
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::HashSet;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use sudolab::engine::Engines;
use sudolab::relax::{
    self, RelaxError, RelaxOptions, RelaxReport, SampleResult, SweepReport, parse_sweep,
};
use sudolab::report::{Format, chart::shade, jsonl_line, render_rows, text_table, write_atomic};

#[derive(Debug, Args)]
pub struct RelaxArgs {
    #[command(flatten)]
    pub common: Common,
    /// Edges removed per sample.
    #[arg(long, default_value_t = 45)]
    pub k: usize,
    /// Samples (relaxations) per puzzle and k.
    #[arg(long, default_value_t = 1000)]
    pub samples: usize,
    /// Seed of the sample draws (per-sample seeds derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop counting a sample's solutions at this many (0 = exact counts).
    #[arg(long, default_value_t = 1000)]
    pub cap: u64,
    /// Engine analysing every sample: bitset (default, fastest), dlx (Dancing
    /// Links) or sat (varisat); a comma-separated list such as `sat,dlx`, or
    /// `all`, analyses every sample with each and compares (same as --verify =
    /// --samples).
    #[arg(long, default_value = "bitset")]
    pub engine: Engines,
    /// Samples re-checked by a second engine (default: 3% of --samples, at
    /// least 1): SAT for dlx and bitset, bitset for sat.
    #[arg(long)]
    pub verify: Option<usize>,
    /// Sweep k over A:B:STEP (inclusive) instead of one --k, e.g. 0:60:5.
    #[arg(long)]
    pub sweep: Option<String>,
    /// With --sweep: write the Fig. 8 curves as an SVG plot here.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Write every sample (removed edges, count, fixed cells) as JSONL here.
    #[arg(long)]
    pub emit_samples: Option<PathBuf>,
    /// With -o FILE and --format jsonl: skip puzzles (and k) already in FILE and append.
    #[arg(long)]
    pub resume: bool,
}

#[derive(Serialize)]
struct SampleLine<'a> {
    puzzle: &'a str,
    k: usize,
    #[serde(flatten)]
    sample: &'a SampleResult,
}

fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles×k  {elapsed} (eta {eta}) {msg}")
    {
        pb.set_style(style);
    }
    pb
}

/// `(puzzle, k)` pairs already present in a JSONL output.
fn done_set(path: &PathBuf) -> Result<HashSet<(String, usize)>> {
    let mut done = HashSet::new();
    let Ok(f) = std::fs::File::open(path) else {
        return Ok(done);
    };
    for line in std::io::BufReader::new(f).lines() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        // A line cut short by an interrupted run is ignored and redone.
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line)
            && let (Some(p), Some(k)) = (v["puzzle"].as_str(), v["k"].as_u64())
        {
            done.insert((p.to_string(), k as usize));
        }
    }
    Ok(done)
}

pub fn run(args: RelaxArgs) -> Result<u8> {
    let mut loaded = load(&args.common)?;
    let ks = match &args.sweep {
        Some(s) => parse_sweep(s).map_err(anyhow::Error::msg)?,
        None => vec![args.k],
    };
    let opts = RelaxOptions {
        k: args.k,
        samples: args.samples,
        seed: args.seed,
        cap: args.cap,
        verify: if args.engine.checkers().is_empty() {
            args.verify
                .unwrap_or_else(|| (args.samples * 3).div_ceil(100).max(1))
        } else {
            args.samples
        },
        engines: args.engine,
    };
    let streaming = args.common.format == Format::Jsonl && args.common.output.is_some();
    let done = match (&args.common.output, args.resume) {
        (Some(path), true) if streaming => done_set(path)?,
        (_, true) => anyhow::bail!("--resume needs -o FILE with --format jsonl"),
        _ => HashSet::new(),
    };
    let mut stream = match (&args.common.output, streaming) {
        (Some(path), true) => Some(super::open_stream(path, args.resume)?),
        _ => None,
    };
    let mut samples_out = match &args.emit_samples {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => None,
    };
    let puzzles = std::mem::take(&mut loaded.puzzles);
    let pb = progress((puzzles.len() * ks.len()) as u64);
    let mut sweeps: Vec<SweepReport> = Vec::new();
    for (done_puzzles, (line, p)) in puzzles.iter().enumerate() {
        pb.set_position((done_puzzles * ks.len()) as u64);
        let puzzle = p.to_line();
        let skip = |k: usize| done.contains(&(puzzle.clone(), k));
        let swept = relax::sweep_each(p, &ks, &opts, skip, |report, samples| {
            pb.inc(1);
            if let Some(w) = samples_out.as_mut() {
                for sample in samples {
                    let line = SampleLine {
                        puzzle: &puzzle,
                        k: report.k,
                        sample,
                    };
                    writeln!(w, "{}", jsonl_line(&line))?;
                }
            }
            if let Some(f) = stream.as_mut() {
                writeln!(f, "{}", jsonl_line(report))?;
                f.flush()?;
            }
            Ok::<(), anyhow::Error>(())
        });
        match swept {
            Ok(sweep) => {
                if !streaming || args.plot.is_some() {
                    sweeps.push(sweep);
                }
            }
            Err(e) => match e.downcast::<RelaxError>() {
                Ok(e @ RelaxError::Disagreement(_)) => {
                    pb.finish_and_clear();
                    eprintln!("sudolab: ENGINE DISAGREEMENT at input line {line}: {e}");
                    return Ok(EXIT_DISAGREE);
                }
                Ok(e) => {
                    pb.suspend(|| loaded.refuse(*line, e))?;
                }
                Err(io) => return Err(io),
            },
        }
    }
    pb.finish_and_clear();
    if let Some(mut w) = samples_out {
        w.flush()?;
    }
    if let Some(plot) = &args.plot {
        write_atomic(plot, relax::svg::sweep_svg(&sweeps).as_bytes())
            .with_context(|| format!("cannot write {}", plot.display()))?;
    }
    if !streaming {
        let rows: Vec<RelaxReport> = sweeps.iter().flat_map(|s| s.points.clone()).collect();
        let text = match args.common.format {
            Format::Text if args.sweep.is_some() => sweep_text(&sweeps),
            Format::Text => rows.iter().map(report_text).collect(),
            Format::Json if args.sweep.is_some() => serde_json::to_string_pretty(&sweeps)? + "\n",
            f => render_rows(&rows, f),
        };
        write_out(args.common.output.as_ref(), &text)?;
    }
    Ok(loaded.finish())
}

fn report_text(r: &RelaxReport) -> String {
    let mut s = String::new();
    let name = r.label.clone().unwrap_or_default();
    s.push_str(&format!("{}  {}\n", r.puzzle, name));
    let by: Vec<String> = r.verified_by.iter().map(|e| e.to_string()).collect();
    s.push_str(&format!(
        "k = {}, {} samples, seed {}, cap {}, engine {} ({} samples re-checked by {}, all agree)\n",
        r.k,
        r.samples,
        r.seed,
        r.cap,
        r.engine,
        r.verified,
        by.join(" and ")
    ));
    let empty = r.puzzle.chars().filter(|&c| c == '.').count();
    s.push_str(&format!(
        "mean solutions {:.3}{}  median {}  mean extra {:.3}  P(unique) {:.3}  mean fixed {:.1} of {} empty cells  capped {}\n",
        r.mean_solutions,
        if r.capped > 0 { " (lower bound)" } else { "" },
        r.median_solutions,
        r.mean_extra,
        r.p_unique,
        r.mean_fixed,
        empty,
        r.capped
    ));
    s.push_str("fixedness, % of samples in which the cell is fixed ([d] = given d):\n");
    let side = (r.fixedness.len() as f64).sqrt().round() as usize;
    let n = (side as f64).sqrt().round() as usize;
    let chars: Vec<char> = r.puzzle.chars().collect();
    for row in 0..side {
        if row > 0 && row % n == 0 {
            s.push_str(&format!("  {}\n", vec!["-".repeat(5 * n); n].join("+")));
        }
        s.push_str("  ");
        for col in 0..side {
            if col > 0 && col % n == 0 {
                s.push('|');
            }
            let c = row * side + col;
            if chars.get(c).is_some_and(|&ch| ch != '.') {
                s.push_str(&format!(" [{}] ", chars[c]));
            } else {
                let f = r.fixedness[c];
                s.push_str(&format!("{}{:>3}%", shade(f), (f * 100.0).round() as u32));
            }
        }
        s.push('\n');
    }
    s.push('\n');
    s
}

fn sweep_text(sweeps: &[SweepReport]) -> String {
    let mut s = String::new();
    for sw in sweeps {
        s.push_str(&format!(
            "{}  {}\n",
            sw.puzzle,
            sw.label.clone().unwrap_or_default()
        ));
        let rows: Vec<Vec<String>> = sw
            .points
            .iter()
            .map(|p| {
                vec![
                    p.k.to_string(),
                    format!("{:.3}", p.mean_solutions),
                    format!("{}", p.median_solutions),
                    format!("{:.3}", p.p_unique),
                    format!("{:.2}", p.mean_fixed),
                    p.capped.to_string(),
                    p.verified.to_string(),
                ]
            })
            .collect();
        s.push_str(&text_table(
            &[
                "k",
                "mean_solutions",
                "median",
                "p_unique",
                "mean_fixed",
                "capped",
                "verified",
            ],
            &rows,
        ));
        match &sw.fit {
            Some(f) => s.push_str(&format!(
                "fit: mean ≈ {:.4}·e^(k/{:.2})  (R² of ln fit {:.3}, {} points)\n\n",
                f.c, f.lambda, f.r2, f.points
            )),
            None => s.push_str("fit: none (the mean does not grow over this range)\n\n"),
        }
    }
    s
}
