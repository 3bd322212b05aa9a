//! `sudolab relax`: the constraint-relaxation experiment (Pelánek §3.2).

use super::text;
use super::{Common, check_k_fits, finish, parse_sweep, progress, resume, run_batch, write_stdout};
use crate::batch::{Driver, JobError};
use crate::cli::engines::LARGE_COUNT;
use crate::engine::Engines;
use crate::relax::{
    self, KChoice, RelaxError, RelaxOptions, RelaxReport, SampleResult, SweepReport, Verification,
};
use crate::report::{Format, OutputStream, jsonl_line, render_rows, write_atomic};
use anyhow::{Context, Result, bail};
use clap::Args;
use resume::Lined;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug, Args)]
pub(super) struct RelaxArgs {
    #[command(flatten)]
    pub common: Common,
    /// Edges removed per sample, or `auto`: where this puzzle's relaxation
    /// begins (P(unique) falls through one half over 100 samples).
    #[arg(long, default_value = "45")]
    pub k: KChoice,
    /// Samples (relaxations) per puzzle and k (at most 100000); with
    /// --precision, the most that are drawn. relax draws 1000 by default,
    /// analyze and report 200: give --samples to compare them.
    #[arg(long, default_value_t = 1000)]
    pub samples: usize,
    /// Draw samples until the 95 % interval of mean_fixed is within ± E
    /// cells (at least 30, then blocks of 10, at most --samples); the row's
    /// samples says how many it needed.
    #[arg(long, value_name = "E")]
    pub precision: Option<f64>,
    /// Seed of the sample draws (per-sample seeds derive from it).
    #[arg(long, default_value_t = RelaxOptions::default().seed)]
    pub seed: u64,
    /// Stop counting a sample's solutions at this many (0 = exact counts).
    #[arg(long, default_value_t = RelaxOptions::default().cap)]
    pub cap: u64,
    /// Engine analysing every sample: bitset, dlx, sat, a list (`sat,dlx`)
    /// or `all`.
    ///
    /// bitset (the default) is the fastest, dlx is Dancing Links, sat is
    /// varisat. A comma-separated list such as `sat,dlx`, or `all`, analyzes
    /// every sample with each engine and compares them (the same as
    /// --verify = --samples).
    #[arg(long, default_value = "bitset")]
    pub engine: Engines,
    /// Samples cross-checked, spread evenly (default: one in 500 of
    /// --samples, at least 1).
    #[arg(long)]
    pub verify: Option<usize>,
    /// How the verified samples are checked (see --help).
    ///
    /// With --engine bitset: certificate (SAT proves the count and fixed
    /// cells from the solutions the search found, one incremental solver per
    /// sample; at most 100,000 are listed, so a larger count is proved to be
    /// at least that, its fixed cells in full) or resolve (SAT re-analyzes
    /// the sample from scratch). Other engines are always re-analyzed: by
    /// SAT for dlx, by bitset for sat.
    #[arg(long, value_enum, default_value_t = Verification::Certificate, hide_short_help = true)]
    pub verify_by: Verification,
    /// Sweep k over A:B:STEP (inclusive) instead of one --k, e.g. 0:60:5.
    #[arg(long)]
    pub sweep: Option<String>,
    /// With --sweep: write the Fig. 8 curves as an SVG plot here.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Write every sample (removed edges, count, fixed cells) as JSONL here.
    #[arg(long)]
    pub emit_samples: Option<PathBuf>,
    /// With -o FILE and --format jsonl: keep the rows (input line and k)
    /// already in FILE, written with the same samples, seed and cap, and
    /// append the others.
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

pub(super) fn run(args: RelaxArgs) -> Result<u8> {
    let auto = args.k == KChoice::Auto;
    let ks = match (&args.sweep, args.k) {
        (Some(_), KChoice::Auto) => {
            bail!("--k auto chooses one k per puzzle; it cannot go with --sweep")
        }
        (Some(s), _) => parse_sweep(s).map_err(|e| anyhow::anyhow!("--sweep: {e}"))?,
        (None, KChoice::At(k)) => vec![k],
        // Each puzzle's onset, found below.
        (None, KChoice::Auto) => Vec::new(),
    };
    let k = match args.k {
        KChoice::At(k) => k,
        KChoice::Auto => 0,
    };
    let opts = RelaxOptions {
        k,
        auto_k: false,
        samples: args.samples,
        precision: args.precision,
        seed: args.seed,
        cap: args.cap,
        verify: RelaxOptions::verify_for(&args.engine, args.samples, args.verify),
        verify_by: args.verify_by,
        engines: args.engine,
    };
    opts.check()?;
    let out = &args.common.out;
    let paths = args
        .common
        .paths()
        .output("--plot", args.plot.as_deref())
        .output("--emit-samples", args.emit_samples.as_deref());
    resume::with_side_files(paths, out).check()?;
    let streaming = resume::streams(out);
    let spec = resume::RowSpec::relax(&opts);
    let params = run_params(args.sweep.is_some(), args.k, &ks, &opts);
    let (mut stream, done) = resume::open_rows("relax", params, &args.common, args.resume, &spec)?;
    if !done.is_empty() {
        for (flag, given) in [
            ("--emit-samples", args.emit_samples.is_some()),
            ("--plot", args.plot.is_some()),
        ] {
            if given {
                bail!(
                    "{flag} with --resume: the {} row(s) already in the output are kept, not computed again, so {flag} would miss them; run without --resume or into a new file",
                    done.len()
                );
            }
        }
    }
    let mut samples_out = match &args.emit_samples {
        Some(path) => Some(std::io::BufWriter::new(
            OutputStream::new(path, false)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => None,
    };
    let pb = progress::Bar::new("puzzles×k");
    let mut sweeps: Vec<(usize, SweepReport)> = Vec::new();
    let k_flag = if args.sweep.is_some() {
        "--sweep"
    } else {
        "--k"
    };
    let check_k = |puzzles: &[(usize, crate::Puzzle)]| {
        check_k_fits(k_flag, &ks, puzzles).map_err(JobError::fatal)
    };
    let warned_long = AtomicBool::new(false);
    let keep_samples = args.emit_samples.is_some();
    // One puzzle after the other: the samples of each are drawn in parallel.
    let job = |line: usize, p: &crate::Puzzle| {
        let puzzle = p.to_line();
        let (ks, onset) = if auto {
            // The onset's search takes most of a large puzzle's time (minutes
            // on 16×16): the bar says what runs while its clock moves.
            pb.0.set_message(format!("line {line}: finding the onset (--k auto)"));
            let k = KChoice::Auto.resolve(p, &opts).map_err(|e| match e {
                RelaxError::Disagreement(d) => JobError::from(d),
                e => JobError::refused(e),
            });
            pb.0.set_message(String::new());
            let k = k?;
            (vec![k], Some(k))
        } else {
            (ks.clone(), None)
        };
        let mut todo = Vec::with_capacity(ks.len());
        for &k in &ks {
            let key = resume::RowKey::new(line, &[k as u64]);
            if !done.contains(&key, &puzzle).map_err(JobError::fatal)? {
                todo.push(k);
            }
        }
        pb.0.inc_length(ks.len() as u64);
        pb.0.inc((ks.len() - todo.len()) as u64);
        // As `count` does, once per run: exact counts past a million
        // solutions per sample may run for hours.
        if !warned_long.load(Ordering::Relaxed) {
            for &k in &todo {
                let at_k = RelaxOptions { k, ..opts.clone() };
                if let Ok(true) = super::engines::relax_is_long(p, &at_k) {
                    pb.0.suspend(|| {
                        note!(
                            "sudolab: line {line}, k = {k}: more than {LARGE_COUNT} solutions in a sample; --cap 0 counts them exactly, which may take very long (--cap N bounds it)"
                        )
                    });
                    warned_long.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        let mut samples = Vec::new();
        let sweep = relax::sweep_each(p, &todo, &opts, onset, |report, drawn| {
            pb.0.inc(1);
            if keep_samples {
                samples.push((report.summary.k, drawn.to_vec()));
            }
            Ok::<(), RelaxError>(())
        })
        .map_err(|e| match e {
            RelaxError::Disagreement(d) => JobError::from(d),
            e @ RelaxError::TooManyEdges { .. } => JobError::fatal(format!(
                "--k: {e} ({}×{} grid, input line {line})",
                p.side(),
                p.side()
            )),
            e => JobError::refused(e),
        })?;
        Ok((puzzle, sweep, samples))
    };
    // Text to stdout goes out puzzle by puzzle, as JSON Lines do.
    let sweep_mode = args.sweep.is_some();
    let render = |rows: &[(usize, SweepReport)]| -> String {
        if sweep_mode {
            text::sweep_text(rows)
        } else {
            rows.iter()
                .flat_map(|(_, s)| &s.points)
                .map(text::relax_text)
                .collect()
        }
    };
    let text_now = out.format == Format::Text && out.file().is_none();
    let keep_rows = resume::keep_rows_on_signal(stream.as_ref());
    let mut written = 0;
    let mut printed = false;
    let summary = run_batch(
        args.common.input()?,
        Driver::new().sequential().window(1).check_windows(&check_k),
        job,
        |rows| {
            for (line, (puzzle, sweep, samples)) in rows {
                if let Some(w) = samples_out.as_mut() {
                    for (k, drawn) in &samples {
                        for sample in drawn {
                            let row = SampleLine {
                                puzzle: &puzzle,
                                k: *k,
                                sample,
                            };
                            writeln!(w, "{}", jsonl_line(&Lined { line, row })?)?;
                        }
                    }
                }
                if let Some(w) = stream.as_mut() {
                    let points: Vec<(usize, &RelaxReport)> =
                        sweep.points.iter().map(|r| (line, r)).collect();
                    w.write(&points)?;
                    written += points.len();
                }
                let item = (line, sweep);
                if text_now {
                    let text = render(std::slice::from_ref(&item));
                    pb.0.suspend(|| write_stdout(text.as_bytes()))?;
                    printed = true;
                }
                if (!streaming && !text_now) || args.plot.is_some() {
                    sweeps.push(item);
                }
            }
            Ok(())
        },
    );
    drop(pb);
    let summary = match summary {
        Ok(summary) => summary,
        Err(e) => return resume::interrupted(e, stream, out, done.len(), written),
    };
    drop(keep_rows);
    if printed {
        write_stdout(text::RELAX_LEGEND.as_bytes())?;
    }
    if let (Some(w), Some(path)) = (samples_out, &args.emit_samples) {
        w.into_inner()
            .map_err(|e| e.into_error())
            .and_then(OutputStream::finish)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(w) = stream {
        w.finish()?;
    }
    if let Some(plot) = &args.plot {
        let plotted: Vec<SweepReport> = sweeps.iter().map(|(_, s)| s.clone()).collect();
        write_atomic(plot, crate::report::plot::sweep_chart(&plotted)?.as_bytes())
            .with_context(|| format!("cannot write {}", plot.display()))?;
    }
    if !streaming && !text_now {
        let text = match out.format {
            Format::Text if sweeps.is_empty() => String::new(),
            Format::Text => render(&sweeps) + text::RELAX_LEGEND,
            Format::Json if args.sweep.is_some() => {
                let rows: Vec<Lined<&SweepReport>> = sweeps
                    .iter()
                    .map(|(line, row)| Lined { line: *line, row })
                    .collect();
                serde_json::to_string_pretty(&rows)? + "\n"
            }
            f => {
                let rows: Vec<Lined<&RelaxReport>> = sweeps
                    .iter()
                    .flat_map(|(line, s)| s.points.iter().map(|row| Lined { line: *line, row }))
                    .collect();
                render_rows(&rows, f)?
            }
        };
        out.write(&text)?;
    }
    Ok(finish(&summary.rejected))
}

/// Every parameter that changes a relax row, for the run record: the k
/// values (`k`, or `sweep` as the list), samples, seed, cap, engines and
/// verified samples.
fn run_params(
    sweep: bool,
    k: KChoice,
    ks: &[usize],
    opts: &RelaxOptions,
) -> serde_json::Map<String, serde_json::Value> {
    let mut params = serde_json::Map::new();
    match (sweep, k) {
        (true, _) => params.insert("sweep".into(), ks.into()),
        (false, KChoice::At(k)) => params.insert("k".into(), k.into()),
        (false, KChoice::Auto) => params.insert("k".into(), "auto".into()),
    };
    params.insert("samples".into(), opts.samples.into());
    if let Some(e) = opts.precision {
        params.insert("precision".into(), e.into());
    }
    params.insert("seed".into(), opts.seed.into());
    params.insert("cap".into(), opts.cap.into());
    params.insert("engine".into(), opts.engines.to_string().into());
    params.insert("verify".into(), opts.verify.into());
    params
}
