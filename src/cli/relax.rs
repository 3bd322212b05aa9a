//! `sudolab relax`: the constraint-relaxation experiment (Pelánek §3.2).

use super::{
    Common, EXIT_DISAGREE, check_k_fits, check_target, load_windows, progress,
    refuse_input_as_output, resume,
};
use anyhow::{Context, Result, bail};
use clap::Args;
use resume::Lined;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use sudolab::analyze::engines::LARGE_COUNT;
use sudolab::engine::Engines;
use sudolab::metrics::Metric;
use sudolab::relax::{
    self, RelaxError, RelaxOptions, RelaxReport, SampleResult, SweepReport, Verification,
    parse_sweep,
};
use sudolab::report::{
    Format, OutputStream, chart::shade, jsonl_line, render_rows, text_table, write_atomic,
};

#[derive(Debug, Args)]
pub struct RelaxArgs {
    #[command(flatten)]
    pub common: Common,
    /// Edges removed per sample.
    #[arg(long, default_value_t = 45)]
    pub k: usize,
    /// Samples (relaxations) per puzzle and k (at most 100000).
    #[arg(long, default_value_t = 1000)]
    pub samples: usize,
    /// Seed of the sample draws (per-sample seeds derive from it).
    #[arg(long, default_value_t = sudolab::seed::DEFAULT_SEED)]
    pub seed: u64,
    /// Stop counting a sample's solutions at this many (0 = exact counts).
    #[arg(long, default_value_t = 1000)]
    pub cap: u64,
    /// Engine analysing every sample: bitset (default, fastest), dlx (Dancing
    /// Links) or sat (varisat); a comma-separated list such as `sat,dlx`, or
    /// `all`, analyzes every sample with each and compares (same as --verify =
    /// --samples).
    #[arg(long, default_value = "bitset")]
    pub engine: Engines,
    /// Samples cross-checked, spread evenly (default: one in 500 of
    /// --samples, at least 1).
    #[arg(long)]
    pub verify: Option<usize>,
    /// How --engine bitset's verified samples are checked: certificate (SAT
    /// proves the count and fixed cells from the solutions the search found,
    /// one incremental solver per sample; at most 100,000 are listed, so a
    /// larger count is proved to be at least that, its fixed cells in full)
    /// or resolve (SAT re-analyzes the sample from scratch). Other engines
    /// are always re-analyzed: by SAT for dlx, by bitset for sat.
    #[arg(long, value_enum, default_value_t = Verification::Certificate)]
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

pub fn run(args: RelaxArgs) -> Result<u8> {
    let ks = match &args.sweep {
        Some(s) => parse_sweep(s).map_err(|e| anyhow::anyhow!("--sweep: {e}"))?,
        None => vec![args.k],
    };
    if args.samples == 0 {
        bail!("--samples: {}", RelaxError::NoSamples);
    }
    super::at_most("--samples", args.samples, super::MAX_SAMPLES)?;
    let opts = RelaxOptions {
        k: args.k,
        samples: args.samples,
        seed: args.seed,
        cap: args.cap,
        verify: RelaxOptions::verify_for(&args.engine, args.samples, args.verify),
        verify_by: args.verify_by,
        engines: args.engine,
    };
    let out = &args.common.out;
    out.check()?;
    for (flag, path) in [
        ("--plot", &args.plot),
        ("--emit-samples", &args.emit_samples),
    ] {
        if let Some(path) = path {
            check_target(flag, path)?;
            if let Some(input) = &args.common.input {
                refuse_input_as_output(flag, path, input)?;
            }
        }
    }
    let streaming = resume::streams(out);
    let spec = resume::RowSpec::relax(&opts);
    let (mut stream, done) = if streaming {
        let record = resume::record(
            "relax",
            run_params(args.sweep.is_some(), args.k, &ks, &opts),
            &args.common,
        )?;
        let (w, d) = resume::open(out, args.resume, &spec, &record)?;
        if !d.is_empty() {
            for (flag, given) in [
                ("--emit-samples", args.emit_samples.is_some()),
                ("--plot", args.plot.is_some()),
            ] {
                if given {
                    bail!(
                        "{flag} with --resume: the {} row(s) already in the output are kept, not computed again, so {flag} would miss them; run without --resume or into a new file",
                        d.len()
                    );
                }
            }
        }
        (Some(w), d)
    } else if args.resume {
        bail!("--resume needs -o FILE with --format jsonl");
    } else {
        (None, resume::DoneRows::default())
    };
    let mut samples_out = match &args.emit_samples {
        Some(path) => Some(std::io::BufWriter::new(
            OutputStream::new(path, false)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => None,
    };
    let pb = progress::bar(0, "puzzles×k");
    let mut sweeps: Vec<(usize, SweepReport)> = Vec::new();
    let k_flag = if args.sweep.is_some() {
        "--sweep"
    } else {
        "--k"
    };
    let mut warned_long = false;
    let (mut loaded, stopped) = load_windows(&args.common, |loaded, puzzles| {
        check_k_fits(k_flag, &ks, &puzzles)?;
        pb.inc_length((puzzles.len() * ks.len()) as u64);
        for (line, p) in &puzzles {
            let puzzle = p.to_line();
            let mut todo = Vec::with_capacity(ks.len());
            for &k in &ks {
                if !done.contains(&resume::RowKey::new(*line, &[k as u64]), &puzzle)? {
                    todo.push(k);
                }
            }
            pb.inc((ks.len() - todo.len()) as u64);
            // As `count` does, once per run: exact counts past a million
            // solutions per sample may run for hours.
            if !warned_long {
                for &k in &todo {
                    let at_k = RelaxOptions { k, ..opts.clone() };
                    if let Ok(true) = relax::is_long(p, &at_k) {
                        pb.suspend(|| {
                            note!(
                                "sudolab: line {line}, k = {k}: more than {LARGE_COUNT} solutions in a sample; --cap 0 counts them exactly, which may take very long (--cap N bounds it)"
                            )
                        });
                        warned_long = true;
                        break;
                    }
                }
            }
            let swept = relax::sweep_each(p, &todo, &opts, |report, samples| {
                pb.inc(1);
                if let Some(w) = samples_out.as_mut() {
                    for sample in samples {
                        let row = SampleLine {
                            puzzle: &puzzle,
                            k: report.summary.k,
                            sample,
                        };
                        writeln!(w, "{}", jsonl_line(&Lined { line: *line, row })?)?;
                    }
                }
                if let Some(w) = stream.as_mut() {
                    w.write(*line, report)?;
                }
                Ok::<(), anyhow::Error>(())
            });
            match swept {
                Ok(sweep) => {
                    if !streaming || args.plot.is_some() {
                        sweeps.push((*line, sweep));
                    }
                }
                Err(e) => match e.downcast::<RelaxError>() {
                    Ok(e @ RelaxError::Disagreement(_)) => {
                        pb.finish_and_clear();
                        note!("sudolab: ENGINE DISAGREEMENT (bug) at input line {line}: {e}");
                        return Ok(Some(EXIT_DISAGREE));
                    }
                    Ok(e @ RelaxError::TooManyEdges { .. }) => {
                        pb.finish_and_clear();
                        bail!(
                            "--k: {e} ({}×{} grid, input line {line})",
                            p.side(),
                            p.side()
                        );
                    }
                    Ok(e) => {
                        pb.suspend(|| loaded.refuse(*line, e))?;
                    }
                    Err(io) => return Err(io),
                },
            }
        }
        Ok(None)
    })?;
    if let Some(code) = stopped {
        return Ok(code);
    }
    pb.finish_and_clear();
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
        write_atomic(
            plot,
            sudolab::report::plot::sweep_chart(&plotted)?.as_bytes(),
        )
        .with_context(|| format!("cannot write {}", plot.display()))?;
    }
    if !streaming {
        let text = match out.format {
            Format::Text if args.sweep.is_some() => sweep_text(&sweeps),
            Format::Text => sweeps
                .iter()
                .flat_map(|(_, s)| &s.points)
                .map(report_text)
                .collect(),
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
    Ok(loaded.finish())
}

/// Every parameter that changes a relax row, for the run record: the k
/// values (`k`, or `sweep` as the list), samples, seed, cap, engines and
/// verified samples.
fn run_params(
    sweep: bool,
    k: usize,
    ks: &[usize],
    opts: &RelaxOptions,
) -> serde_json::Map<String, serde_json::Value> {
    let mut params = serde_json::Map::new();
    if sweep {
        params.insert("sweep".into(), ks.into());
    } else {
        params.insert("k".into(), k.into());
    }
    params.insert("samples".into(), opts.samples.into());
    params.insert("seed".into(), opts.seed.into());
    params.insert("cap".into(), opts.cap.into());
    params.insert("engine".into(), opts.engines.to_string().into());
    params.insert("verify".into(), opts.verify.into());
    params
}

fn report_text(r: &RelaxReport) -> String {
    let mut s = String::new();
    let name = r.label.clone().unwrap_or_default();
    s.push_str(&format!("{}  {}\n", r.puzzle, name));
    let by: Vec<String> = r.verified_by.iter().map(|e| e.to_string()).collect();
    s.push_str(&format!(
        "k = {}, {} samples, seed {}, cap {}, engine {} ({} samples re-checked by {}, all agree)\n",
        r.summary.k,
        r.summary.samples,
        r.seed,
        r.summary.cap,
        r.engine,
        r.verified,
        by.join(" and ")
    ));
    let sm = &r.summary;
    let empty = r.puzzle.chars().filter(|&c| c == '.').count();
    s.push_str(&format!(
        "mean solutions {:.3}{}  median {}  mean extra {:.3}  P(unique) {:.3}  mean fixed {:.1} of {} empty cells  capped {}{}\n",
        sm.mean_solutions,
        if sm.capped > 0 { " (lower bound)" } else { "" },
        sm.median_solutions,
        sm.mean_extra,
        sm.p_unique,
        sm.mean_fixed,
        empty,
        sm.capped,
        if sm.saturated > 0 {
            format!(
                " ({} past 2^64 - 1: counts saturated, not exact)",
                sm.saturated
            )
        } else {
            String::new()
        }
    ));
    s.push_str("fixedness, % of samples in which the cell is fixed ([d] = given d):\n");
    let side = (sm.fixedness.len() as f64).sqrt().round() as usize;
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
                let f = sm.fixedness[c];
                s.push_str(&format!("{}{:>3}%", shade(f), (f * 100.0).round() as u32));
            }
        }
        s.push('\n');
    }
    s.push('\n');
    s
}

fn sweep_text(sweeps: &[(usize, SweepReport)]) -> String {
    let mut s = String::new();
    for (_, sw) in sweeps {
        s.push_str(&format!(
            "{}  {}\n",
            sw.puzzle,
            sw.label.clone().unwrap_or_default()
        ));
        let rows: Vec<Vec<String>> = sw
            .points
            .iter()
            .map(|p| {
                let sm = &p.summary;
                vec![
                    sm.k.to_string(),
                    format!("{:.3}", sm.mean_solutions),
                    format!("{:.3}", sm.mean_extra),
                    format!("{}", sm.median_solutions),
                    format!("{:.3}", sm.p_unique),
                    format!("{:.2}", sm.mean_fixed),
                    sm.capped.to_string(),
                    p.verified.to_string(),
                ]
            })
            .collect();
        s.push_str(&text_table(
            &[
                "k",
                "mean_solutions",
                "mean_extra",
                "median",
                Metric::PUnique.name(),
                Metric::MeanFixed.name(),
                "capped",
                "verified",
            ],
            &rows,
        ));
        let ks = |ks: &[usize]| {
            ks.iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let pf = &sw.paper_fit;
        let capped = if pf.capped_k.is_empty() {
            String::new()
        } else {
            format!(
                "; k = {} left out: capped samples make their mean a lower bound",
                ks(&pf.capped_k)
            )
        };
        match &pf.fit {
            Some(f) => s.push_str(&format!(
                "Fig. 8 fit: mean extra ≈ {:.4}·e^(k/{:.2})  (R² of ln fit {:.3}, k = {}{})\n",
                f.c,
                f.lambda,
                f.r2,
                ks(&pf.fitted_k),
                capped
            )),
            None => s.push_str(&format!(
                "Fig. 8 fit: none (needs two exact points with extra solutions, has k = {}{})\n",
                ks(&pf.fitted_k),
                capped
            )),
        }
        match &sw.fit {
            Some(f) => s.push_str(&format!(
                "fit of mean_solutions, original and every k included: mean ≈ {:.4}·e^(k/{:.2})  (R² of ln fit {:.3}, {} points)\n\n",
                f.c, f.lambda, f.r2, f.points
            )),
            None => s.push_str(
                "fit of mean_solutions, original and every k included: none (the mean does not grow over this range)\n\n",
            ),
        }
    }
    s
}
