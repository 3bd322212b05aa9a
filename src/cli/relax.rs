//! `sudolab relax`: the constraint-relaxation experiment (Pelánek §3.2).

use super::text;
use super::{
    Common, check_k_fits, finish, parse_sweep, progress, resume, run_batch_keyed, write_stdout,
};
use crate::cli::engines::LARGE_COUNT;
use anyhow::{Context, Result, bail};
use clap::Args;
use resume::{Lined, RowSpec};
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use sudolab::Engines;
use sudolab::{Driver, JobError};
use sudolab::{Format, write_atomic};
use sudolab::{
    KChoice, RelaxError, RelaxOptions, RelaxReport, SampleResult, SweepReport, Verification,
};
use sudolab::{OutputStream, jsonl_line};

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
    /// Draw every one of --samples even when the first ones already show
    /// saturation. By default a puzzle stops after 30 samples (then blocks
    /// of 10) once the 95 % interval of the share of samples that are
    /// capped or fix no cell lies above one half: its map would show
    /// saturation, not a finding, and the row says `stopped_saturated`.
    #[arg(long)]
    pub all_samples: bool,
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
    #[arg(long, value_parser = crate::cli::values::parser::<Verification>(), default_value = "certificate", hide_short_help = true)]
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

/// Every parameter that changes a relax row. Serialised, it is the run
/// record's `params` (the k values as `k` or `sweep`, samples, precision,
/// seed, cap, engines, verified samples); [`RelaxParams::row_spec`] says how
/// the rows are keyed and which of them every row carries.
#[derive(Debug, Serialize)]
struct RelaxParams {
    #[serde(flatten)]
    ks: RelaxKs,
    samples: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    precision: Option<f64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stop_at_saturation: bool,
    seed: u64,
    cap: u64,
    engine: Engines,
    verify: usize,
}

/// The k values of a relax run, under the name of the flag that gives them.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
enum RelaxKs {
    /// `--k`: one number of edges, or `auto` (each puzzle's onset).
    K(KChoice),
    /// `--sweep`: every k of the sweep.
    Sweep(Vec<usize>),
}

impl RelaxParams {
    /// The parameters of a run over `ks` with the options `opts`.
    fn new(ks: RelaxKs, opts: &RelaxOptions) -> RelaxParams {
        RelaxParams {
            ks,
            samples: opts.samples,
            precision: opts.precision,
            stop_at_saturation: opts.stop_at_saturation,
            seed: opts.seed,
            cap: opts.cap,
            engine: opts.engines.clone(),
            verify: opts.verify,
        }
    }

    /// The rows: one per input line and `k` (with `--k auto`, one per input
    /// line, its `k` the puzzle's onset), each carrying the `samples` (or
    /// with a precision, the `precision`: `samples` is then what each row
    /// needed), `seed` and `cap`.
    fn row_spec(&self) -> RowSpec {
        RowSpec {
            key: match self.ks {
                RelaxKs::K(KChoice::Auto) => &[],
                _ => &["k"],
            },
            // A row's samples are fixed unless a precision or saturation
            // may stop it early; then the precision is what every row carries.
            params: match (self.precision, self.stop_at_saturation) {
                (Some(e), _) => Some(("/precision".into(), e.into())),
                (None, false) => Some(("/samples".into(), self.samples.into())),
                (None, true) => None,
            }
            .into_iter()
            .chain([
                ("/seed".into(), self.seed.into()),
                ("/cap".into(), self.cap.into()),
            ])
            .collect(),
        }
    }

    /// The values of the rows' key field for every puzzle: its k values
    /// (none with `--k auto`, whose one row is keyed by its input line).
    fn keys(&self) -> Vec<u64> {
        match &self.ks {
            RelaxKs::K(KChoice::At(k)) => vec![*k as u64],
            RelaxKs::K(KChoice::Auto) => Vec::new(),
            RelaxKs::Sweep(ks) => ks.iter().map(|&k| k as u64).collect(),
        }
    }
}

pub(super) fn run(args: RelaxArgs) -> Result<u8> {
    let (ks, opts) = relax_options(&args)?;
    let out = &args.common.out;
    let paths = args
        .common
        .paths()
        .output("--plot", args.plot.as_deref())
        .output("--emit-samples", args.emit_samples.as_deref());
    resume::with_side_files(paths, out).check()?;
    let params = RelaxParams::new(ks, &opts);
    let spec = params.row_spec();
    let (stream, done) = resume::open_rows("relax", &params, &args.common, args.resume, &spec)?;
    if !done.is_empty() {
        refuse_side_outputs_on_resume(&args, done.len())?;
    }
    let ks_per_puzzle = params.keys().len().max(1) as u64;
    let pb = progress::Bar::new("puzzles×k", || {
        progress::input_total(&args.common).map(|n| n * ks_per_puzzle)
    });
    let sweep_mode = args.sweep.is_some();
    let keys = params.keys();
    let sweep_ks: Vec<usize> = keys.iter().map(|&k| k as usize).collect();
    let k_flag = if sweep_mode { "--sweep" } else { "--k" };
    let check_k = |puzzles: &[(usize, sudolab::Puzzle)]| {
        check_k_fits(k_flag, &sweep_ks, puzzles).map_err(JobError::fatal)
    };
    let job = PuzzleJob {
        opts: &opts,
        auto: args.k == KChoice::Auto,
        ks: &sweep_ks,
        pb: &pb,
        warned_long: AtomicBool::new(false),
        keep_samples: args.emit_samples.is_some(),
    };
    let mut outputs = RelaxOutputs::new(&args, stream)?;
    let keep_rows = resume::keep_rows_on_signal(outputs.stream.as_ref());
    // One puzzle after the other: the samples of each are drawn in parallel.
    let summary = run_batch_keyed(
        args.common.input()?,
        Driver::new()
            .sequential()
            .window(1)
            .check_windows(&check_k)
            .resume(&done),
        &keys,
        |line, p, to_do| job.run(line, p, to_do),
        |rows| {
            for (line, relaxed) in rows {
                outputs.push(line, relaxed, &pb)?;
            }
            Ok(())
        },
    );
    drop(pb);
    let summary = match summary {
        Ok(summary) => summary,
        Err(e) => {
            let written = outputs.written;
            return resume::interrupted(e, outputs.stream, out, done.len(), written);
        }
    };
    drop(keep_rows);
    outputs.finish(&args)?;
    Ok(finish(&summary.rejected))
}

/// Where `relax`'s rows go, decided once from the output flags: the
/// streamed JSON Lines file, `--emit-samples`, JSON or CSV rows (a sweep's
/// reports as JSON, else one row per puzzle and k), text to stdout puzzle
/// by puzzle, and what is kept for a text file or `--plot` written at the end.
struct RelaxOutputs<'a> {
    stream: Option<resume::RowWriter>,
    samples: Option<BufWriter<OutputStream>>,
    sweep_rows: Option<resume::WindowRows<'a, Lined<SweepReport>>>,
    point_rows: Option<resume::WindowRows<'a, Lined<RelaxReport>>>,
    sweep_mode: bool,
    /// Text to stdout goes out puzzle by puzzle, as JSON Lines do.
    text_now: bool,
    /// A text file is one table, written at the end.
    text_file: bool,
    plot: bool,
    sweeps: Vec<(usize, SweepReport)>,
    written: usize,
    printed: bool,
}

impl<'a> RelaxOutputs<'a> {
    fn new(args: &'a RelaxArgs, stream: Option<resume::RowWriter>) -> Result<RelaxOutputs<'a>> {
        let out = &args.common.out;
        let streaming = resume::streams(out);
        let sweep_mode = args.sweep.is_some();
        let text_now = out.format == Format::Text && out.file().is_none();
        let sweep_rows = (!streaming && out.format == Format::Json && sweep_mode)
            .then(|| resume::WindowRows::new(out, false, &no_text::<Lined<SweepReport>>))
            .transpose()?;
        let point_rows = (!streaming && out.format != Format::Text && sweep_rows.is_none())
            .then(|| resume::WindowRows::new(out, false, &no_text::<Lined<RelaxReport>>))
            .transpose()?;
        Ok(RelaxOutputs {
            stream,
            samples: open_samples(args.emit_samples.as_deref())?,
            sweep_rows,
            point_rows,
            sweep_mode,
            text_now,
            text_file: !streaming && !text_now && out.format == Format::Text,
            plot: args.plot.is_some(),
            sweeps: Vec::new(),
            written: 0,
            printed: false,
        })
    }

    /// One puzzle's relaxation to every output.
    fn push(&mut self, line: usize, relaxed: Relaxed, pb: &progress::Bar) -> Result<()> {
        if let Some(w) = self.samples.as_mut() {
            write_samples(w, line, &relaxed)?;
        }
        if let Some(w) = self.stream.as_mut() {
            let points: Vec<(usize, &RelaxReport)> =
                relaxed.sweep.points.iter().map(|r| (line, r)).collect();
            w.write(&points)?;
            self.written += points.len();
        }
        if let Some(w) = self.point_rows.as_mut() {
            let points = relaxed.sweep.points.iter();
            w.push(
                points
                    .map(|r| Lined {
                        line,
                        row: r.clone(),
                    })
                    .collect(),
            )?;
        }
        if let Some(w) = self.sweep_rows.as_mut() {
            w.push(vec![Lined {
                line,
                row: relaxed.sweep.clone(),
            }])?;
        }
        let item = (line, relaxed.sweep);
        if self.text_now {
            let text = render_text(self.sweep_mode, std::slice::from_ref(&item));
            pb.0.suspend(|| write_stdout(text.as_bytes()))?;
            self.printed = true;
        }
        if self.text_file || self.plot {
            self.sweeps.push(item);
        }
        Ok(())
    }

    /// Completes every output once the run is done.
    fn finish(self, args: &RelaxArgs) -> Result<()> {
        if self.printed {
            write_stdout(text::RELAX_LEGEND.as_bytes())?;
        }
        if let (Some(w), Some(path)) = (self.samples, &args.emit_samples) {
            w.into_inner()
                .map_err(|e| e.into_error())
                .and_then(OutputStream::finish)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(w) = self.stream {
            w.finish()?;
        }
        if let Some(plot) = &args.plot {
            let plotted: Vec<SweepReport> = self.sweeps.iter().map(|(_, s)| s.clone()).collect();
            write_atomic(plot, sudolab::sweep_svg(&plotted)?.as_bytes())
                .with_context(|| format!("cannot write {}", plot.display()))?;
        }
        if let Some(w) = self.sweep_rows {
            w.finish()?;
        }
        if let Some(w) = self.point_rows {
            w.finish()?;
        }
        if self.text_file {
            let text = if self.sweeps.is_empty() {
                String::new()
            } else {
                render_text(self.sweep_mode, &self.sweeps) + text::RELAX_LEGEND
            };
            args.common.out.write(&text)?;
        }
        Ok(())
    }
}

/// The k values (`--k` or `--sweep`) and the relaxation options of `args`,
/// checked.
fn relax_options(args: &RelaxArgs) -> Result<(RelaxKs, RelaxOptions)> {
    let ks = match (&args.sweep, args.k) {
        (Some(_), KChoice::Auto) => {
            bail!("--k auto chooses one k per puzzle; it cannot go with --sweep")
        }
        (Some(s), _) => {
            RelaxKs::Sweep(parse_sweep(s).map_err(|e| anyhow::anyhow!("--sweep: {e}"))?)
        }
        (None, k) => RelaxKs::K(k),
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
        stop_at_saturation: !args.all_samples,
        seed: args.seed,
        cap: args.cap,
        verify: RelaxOptions::verify_for(&args.engine, args.samples, args.verify),
        verify_by: args.verify_by,
        engines: args.engine.clone(),
    };
    opts.check()?;
    Ok((ks, opts))
}

/// Refuses --emit-samples and --plot when a resumed output already holds
/// `done` rows: they would miss the rows not computed again.
fn refuse_side_outputs_on_resume(args: &RelaxArgs, done: usize) -> Result<()> {
    for (flag, given) in [
        ("--emit-samples", args.emit_samples.is_some()),
        ("--plot", args.plot.is_some()),
    ] {
        if given {
            bail!(
                "{flag} with --resume: the {done} row(s) already in the output are kept, not computed again, so {flag} would miss them; run without --resume or into a new file"
            );
        }
    }
    Ok(())
}

/// The --emit-samples file, when asked for.
fn open_samples(path: Option<&Path>) -> Result<Option<BufWriter<OutputStream>>> {
    path.map(|path| {
        OutputStream::new(path, false)
            .map(BufWriter::new)
            .with_context(|| format!("cannot write {}", path.display()))
    })
    .transpose()
}

/// One puzzle's relaxation: its report at every k computed, and with
/// --emit-samples the samples drawn at each k.
struct Relaxed {
    puzzle: String,
    sweep: SweepReport,
    samples: Vec<(usize, Vec<SampleResult>)>,
}

/// What the batch runs on every puzzle.
struct PuzzleJob<'a> {
    opts: &'a RelaxOptions,
    /// `--k auto`: each puzzle at its onset.
    auto: bool,
    /// The k values of `--k` or `--sweep` (none with `--k auto`).
    ks: &'a [usize],
    pb: &'a progress::Bar,
    /// A long count was warned about already (once per run).
    warned_long: AtomicBool,
    /// Keep every sample for --emit-samples.
    keep_samples: bool,
}

impl PuzzleJob<'_> {
    /// Relaxes the puzzle `p` of input `line` at the k values `to_do` (the
    /// batch driver leaves out those a resumed output holds), or with
    /// `--k auto` at its onset.
    fn run(&self, line: usize, p: &sudolab::Puzzle, to_do: &[u64]) -> Result<Relaxed, JobError> {
        let (ks, todo, onset) = if self.auto {
            let k = self.onset(line, p)?;
            (vec![k], vec![k], Some(k))
        } else {
            let todo = to_do.iter().map(|&k| k as usize).collect();
            (self.ks.to_vec(), todo, None)
        };
        let pb = &self.pb.0;
        self.pb.add_length(ks.len() as u64);
        pb.inc((ks.len() - todo.len()) as u64);
        self.warn_if_long(line, p, &todo);
        let mut samples = Vec::new();
        let sweep = sudolab::sweep_each(p, &todo, self.opts, onset, |report, drawn| {
            pb.inc(1);
            if self.keep_samples {
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
        Ok(Relaxed {
            puzzle: p.to_line(),
            sweep,
            samples,
        })
    }

    /// The onset of `p` (`--k auto`).
    fn onset(&self, line: usize, p: &sudolab::Puzzle) -> Result<usize, JobError> {
        // The onset's search takes most of a large puzzle's time (minutes
        // on 16×16): the bar says what runs while its clock moves.
        let pb = &self.pb.0;
        pb.set_message(format!("line {line}: finding the onset (--k auto)"));
        let k = KChoice::Auto.resolve(p, self.opts).map_err(|e| match e {
            RelaxError::Disagreement(d) => JobError::from(d),
            e => JobError::refused(e),
        });
        pb.set_message(String::new());
        k
    }

    /// Says, once per run as `count` does, that a sample of `p` at one of
    /// the k values `todo` has more solutions than a quick count reaches:
    /// exact counts past a million solutions per sample may run for hours.
    fn warn_if_long(&self, line: usize, p: &sudolab::Puzzle, todo: &[usize]) {
        if self.warned_long.load(Ordering::Relaxed) {
            return;
        }
        for &k in todo {
            let at_k = RelaxOptions {
                k,
                ..self.opts.clone()
            };
            if let Ok(true) = super::engines::relax_is_long(p, &at_k) {
                self.pb.0.suspend(|| {
                    note!(
                        "sudolab: line {line}, k = {k}: more than {LARGE_COUNT} solutions in a sample; --cap 0 counts them exactly, which may take very long (--cap N bounds it)"
                    )
                });
                self.warned_long.store(true, Ordering::Relaxed);
                break;
            }
        }
    }
}

/// Writes the samples of one puzzle's relaxation (--emit-samples).
fn write_samples(w: &mut impl Write, line: usize, relaxed: &Relaxed) -> Result<()> {
    for (k, drawn) in &relaxed.samples {
        for sample in drawn {
            let row = SampleLine {
                puzzle: &relaxed.puzzle,
                k: *k,
                sample,
            };
            writeln!(w, "{}", jsonl_line(&Lined { line, row })?)?;
        }
    }
    Ok(())
}

/// The text of relaxed puzzles: the sweep table, or one block per k.
fn render_text(sweep_mode: bool, rows: &[(usize, SweepReport)]) -> String {
    if sweep_mode {
        text::sweep_text(rows)
    } else {
        rows.iter()
            .flat_map(|(_, s)| &s.points)
            .map(text::relax_text)
            .collect()
    }
}

/// No text: the renderer of row streams that are never text.
fn no_text<T>(_: &[T]) -> String {
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The params of `relax --sweep 0:40:20 --samples 40` and of `relax --k
    /// auto --precision 2`: the run record's bytes and the row keys.
    #[test]
    fn params_give_the_run_record_and_the_row_keys() {
        let opts = RelaxOptions {
            samples: 40,
            verify: 1,
            ..RelaxOptions::default()
        };
        let sweep = RelaxParams::new(RelaxKs::Sweep(vec![0, 20, 40]), &opts);
        assert_eq!(
            serde_json::to_string(&sweep).unwrap(),
            r#"{"sweep":[0,20,40],"samples":40,"seed":1,"cap":1000,"engine":"bitset","verify":1}"#
        );
        assert_eq!(sweep.keys(), [0, 20, 40]);
        let spec = sweep.row_spec();
        assert_eq!(spec.key, ["k"]);
        assert_eq!(
            spec.params,
            [
                ("/samples".to_string(), 40.into()),
                ("/seed".to_string(), 1.into()),
                ("/cap".to_string(), 1000.into())
            ]
        );
        let precise = RelaxOptions {
            precision: Some(2.0),
            ..opts.clone()
        };
        let auto = RelaxParams::new(RelaxKs::K(KChoice::Auto), &precise);
        assert_eq!(
            serde_json::to_string(&auto).unwrap(),
            r#"{"k":"auto","samples":40,"precision":2.0,"seed":1,"cap":1000,"engine":"bitset","verify":1}"#
        );
        // One row per input line, its k the puzzle's onset.
        assert!(auto.keys().is_empty() && auto.row_spec().key.is_empty());
        assert_eq!(
            auto.row_spec().params[0],
            ("/precision".to_string(), 2.0.into())
        );
        let one = RelaxParams::new(RelaxKs::K(KChoice::At(45)), &opts);
        assert_eq!(serde_json::to_value(&one).unwrap()["k"], 45);
        assert_eq!(one.keys(), [45]);
    }
}
