//! `sudolab analyze`: every requested metric for every puzzle of a data set
//! in one streaming, resumable, parallel run ([`sudolab::analyze`]).

use super::{Common, drop_equivalents, finish, load, progress, resume, run_batch};
use crate::cli::text;
use anyhow::Result;
use clap::Args;
use resume::Lined;
use sudolab::Engines;
use sudolab::Format;
use sudolab::MetricGroup;
use sudolab::{AnalysisRow, AnalyzeOptions, analyze};
use sudolab::{Driver, JobError, Source};
use sudolab::{KChoice, RelaxOptions};

#[derive(Debug, Args)]
pub(super) struct AnalyzeArgs {
    #[command(flatten)]
    pub common: Common,
    /// Metric groups, comma list (`--help` names them and the models).
    #[arg(long, default_value_t = AnalyzeOptions::default().metrics(), help = format!(
        "Metric groups, comma list: clauses, relax, rate-all (every model), rate:MODELS (e.g. rate:nishio,weights; models: {}) or score (the difficulty score, its level, SE-equivalent and predicted minutes)",
        sudolab::Model::names()
    ))]
    pub metrics: String,
    /// Relaxation: edges removed, or `auto`: each puzzle's onset (where
    /// P(unique) falls through one half over 100 samples), recorded in the
    /// row's k and relaxation_onset_k.
    #[arg(long, default_value_t = AnalyzeOptions::default().relax.k_choice())]
    pub k: KChoice,
    /// Relaxation: samples per puzzle (at most 100000); with --precision,
    /// the most that are drawn. analyze and report draw 200 by default,
    /// relax 1000: give --samples to compare them.
    #[arg(long, default_value_t = AnalyzeOptions::default().relax.samples)]
    pub samples: usize,
    /// Relaxation: draw samples until the 95 % interval of mean_fixed is
    /// within ± this many cells (at least 30, at most --samples); each row
    /// reports the samples it used. For large data sets: most puzzles need
    /// far fewer than --samples.
    #[arg(long, value_name = "CELLS")]
    pub precision: Option<f64>,
    /// Seed of every randomized metric.
    #[arg(long, default_value_t = AnalyzeOptions::default().relax.seed)]
    pub seed: u64,
    /// Relaxation: solution cap.
    #[arg(long, default_value_t = AnalyzeOptions::default().relax.cap)]
    pub cap: u64,
    /// With -o FILE and --format jsonl: keep the rows already in FILE (same
    /// parameters, same input) and append the others.
    #[arg(long)]
    pub resume: bool,
    /// Include the per-cell fixedness map in relax metrics.
    #[arg(long)]
    pub fixedness: bool,
    /// Skip a puzzle equivalent (same canonical form: relabelling, row,
    /// column, band, stack permutations, transpose) to one on an earlier
    /// input line, reported on stderr with both line numbers; 4×4 and 9×9
    /// only.
    #[arg(long)]
    pub dedup: bool,
    /// Work units (branch propagations) serate's nesting levels 3–5 may use
    /// for a puzzle, for the serate column and the score's SE-equivalent;
    /// past them serate says "over budget" and se_equivalent is the score's
    /// placement. 0 leaves the levels out.
    #[arg(long, default_value_t = AnalyzeOptions::default().serate_budget)]
    pub serate_budget: u64,
}

pub(super) fn run(args: AnalyzeArgs) -> Result<u8> {
    let opts = AnalyzeOptions {
        groups: MetricGroup::parse_list(&args.metrics)?,
        relax: RelaxOptions {
            samples: args.samples,
            precision: args.precision,
            seed: args.seed,
            cap: args.cap,
            engines: Engines::default(),
            verify: sudolab::RelaxOptions::default_verify(args.samples),
            verify_by: Default::default(),
            ..RelaxOptions::default()
        }
        .with_k(args.k),
        rate_seed: args.seed,
        fixedness: args.fixedness,
        dedup: args.dedup,
        serate_budget: args.serate_budget,
    };
    opts.check()?;
    let out = &args.common.out;
    resume::with_side_files(args.common.paths(), out).check()?;
    let params = opts.params();
    let spec = resume::RowSpec::analyze(&params)?;
    let (mut writer, done) =
        resume::open_rows("analyze", &params, &args.common, args.resume, &spec)?;
    // --dedup needs every canonical form, so it reads the whole input first;
    // otherwise the input is read a window at a time.
    let (input, mut rejected) = if args.dedup {
        let mut loaded = load(&args.common)?;
        drop_equivalents(&args.common, &mut loaded)?;
        let puzzles = std::mem::take(&mut loaded.puzzles);
        (
            args.common.input_from(Source::Parsed(puzzles)),
            loaded.rejected,
        )
    } else {
        (args.common.input()?, Default::default())
    };
    let pb = progress::Bar::new("puzzles", || progress::input_total(&args.common));
    // JSON and CSV go out window by window, as JSON Lines do, and so does
    // a text table to standard output (its columns those of the groups
    // asked, its notes under the last row); a text table written to a file
    // is aligned over all its rows, so it is made at the end.
    let columns = text::AnalyzeColumns::of_groups(&opts.groups);
    let render = |rows: &[Lined<AnalysisRow>]| text::analyze_rows(rows, columns);
    let to_stdout = out.file().is_none();
    let mut streamed = match (&writer, out.format) {
        (None, Format::Json | Format::Csv) => Some(resume::WindowRows::new(out, false, &render)?),
        (None, Format::Text) if to_stdout => Some(resume::WindowRows::new(out, true, &render)?),
        _ => None,
    };
    let mut rows = Vec::new();
    let check_k = |puzzles: &[(usize, sudolab::Puzzle)]| {
        if let (true, KChoice::At(k)) = (opts.groups.contains(&sudolab::MetricGroup::Relax), args.k)
        {
            super::check_k_fits("--k", &[k], puzzles).map_err(JobError::fatal)?;
        }
        Ok(())
    };
    // A streamed file gets each row as soon as it and the rows before it
    // are done; a signal then keeps every finished row.
    let keep_rows = resume::keep_rows_on_signal(writer.as_ref());
    let mut written = 0;
    let mut notes = text::AnalyzeNotes::default();
    let driver = Driver::new()
        .rows_as_they_finish()
        .progress(&pb)
        .resume(&done)
        .check_windows(&check_k);
    let summary = run_batch(
        input,
        driver,
        |_, p| Ok(analyze(p, &opts)?),
        |done| match writer.as_mut() {
            Some(w) => {
                notes.saturation.count(done.iter().map(|(_, row)| row));
                w.write(&done)?;
                written += done.len();
                Ok(())
            }
            None => {
                let done: Vec<_> = done
                    .into_iter()
                    .map(|(line, row)| Lined { line, row })
                    .collect();
                notes.count(&done);
                match streamed.as_mut() {
                    Some(s) => s.push(done),
                    None => {
                        rows.extend(done);
                        Ok(())
                    }
                }
            }
        },
    );
    drop(pb);
    let summary = match summary {
        Ok(summary) => summary,
        Err(e) => return resume::interrupted(e, writer, out, done.len(), written),
    };
    drop(keep_rows);
    finish_outputs(writer, streamed, &rows, &notes, columns, out)?;
    // A text table on the terminal carries the note itself.
    let in_table =
        out.format == Format::Text && out.output.as_ref().is_none_or(|o| o.as_os_str() == "-");
    if let Some(note) = notes.saturation.note().filter(|_| !in_table) {
        note!("{note}");
    }
    rejected.extend(summary.rejected);
    Ok(finish(&rejected))
}

/// What goes under a text table written as its rows came: its notes, and
/// the relaxation's legend when it has the relaxation's columns.
fn table_end(notes: &text::AnalyzeNotes, columns: text::AnalyzeColumns) -> String {
    let mut under = notes.text();
    if columns.relax {
        under.push_str(text::RELAX_LEGEND);
    }
    under
}

/// Completes the output: a streamed file or table (the notes and legend
/// under a text table written as its rows came), or `rows`, held whole,
/// rendered now.
fn finish_outputs(
    writer: Option<resume::RowWriter>,
    streamed: Option<resume::WindowRows<'_, Lined<AnalysisRow>>>,
    rows: &[Lined<AnalysisRow>],
    notes: &text::AnalyzeNotes,
    columns: text::AnalyzeColumns,
    out: &super::OutputArgs,
) -> Result<()> {
    match (writer, streamed) {
        (Some(w), _) => w.finish()?,
        (None, Some(s)) if out.format == Format::Text => {
            s.finish()?;
            super::write_stdout(table_end(notes, columns).as_bytes())?;
        }
        (None, Some(s)) => s.finish()?,
        (None, None) => out.emit(rows, |rows| {
            let mut table = text::analyze_table(rows);
            if rows.iter().any(|r| r.row.relax.is_some()) {
                table.push_str(text::RELAX_LEGEND);
            }
            table
        })?,
    }
    Ok(())
}
