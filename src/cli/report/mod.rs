//! `sudolab report`: a self-contained HTML report of one puzzle, several
//! puzzles, or a data set ([`sudolab::compute_report`] computes, and
//! [`crate::cli::report::html`] draws). Input is a puzzle file,
//! an `analyze` JSONL results file (detected by extension or a first line
//! that starts with `{`), a report that `report -f json|jsonl` wrote (one
//! JSON object with the report's fields: drawn again as it is, nothing is
//! computed), or nothing for the embedded examples.

pub(crate) mod html;

use super::parse_sweep;
use super::{Common, is_stdio, load_input, progress, read_bytes};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::Path;
use sudolab::Format;
use sudolab::KChoice;
use sudolab::Puzzle;
use sudolab::Reference;
use sudolab::Source;
use sudolab::{LabelSpec, Ordinal, ResultsTable, TableFormat};
use sudolab::{Report, ReportError, ReportOptions, ReportRequest, ReportSubject, compute_report};

#[derive(Debug, Args)]
#[command(
    after_help = "INPUT may also be a report written by `report -f json` or `-f jsonl` (one JSON object with the fields title, reference, puzzles, dataset and options): it is drawn again as it is, with no engine run, and gives the same page; the computing options are ignored then (the report carries its own), --title replaces the title."
)]
pub(super) struct ReportArgs {
    /// Input: a puzzle file, an `analyze` results file (.jsonl), a report
    /// written by `report -f json|jsonl` (drawn again without computing:
    /// the options below are ignored, but --title), or `-`; without it the
    /// embedded example puzzles. `-f text` (the default) writes the HTML
    /// page, `-f json|jsonl` the report's numbers.
    #[command(flatten)]
    pub common: Common,
    /// Fixedness heatmap: edges removed per relaxation, or `auto`: each
    /// puzzle's onset (where P(unique) falls through one half over 100
    /// samples), also the k of a data set's relax rows.
    #[arg(long, default_value_t = ReportOptions::default().k)]
    pub k: KChoice,
    /// Fixedness heatmap: relaxations drawn (also the relax samples of a
    /// data set computed from puzzles; at most 100000). report and analyze
    /// draw 200 by default, relax 1000: give --samples to compare them.
    #[arg(long, default_value_t = 200)]
    pub samples: usize,
    /// Fig. 8 sweep: A:B:STEP values of k.
    #[arg(long, default_value = "0:60:10")]
    pub sweep: String,
    /// Fig. 8 sweep: relaxations per k (at most 100000).
    #[arg(long, default_value_t = 100)]
    pub sweep_samples: usize,
    /// Solution cap of every relaxed count.
    #[arg(long, default_value_t = 1000)]
    pub cap: u64,
    /// Heatmap relaxations re-analyzed by the other two engines (slow on
    /// hard puzzles: SAT and Dancing Links count up to the cap).
    #[arg(long, default_value_t = 3)]
    pub verify: usize,
    /// Runs of every randomised human model (at most 10000; default: each
    /// model's own, as `rate` and `analyze`).
    #[arg(long)]
    pub runs: Option<usize>,
    /// Seed of every randomised computation.
    #[arg(long, default_value_t = sudolab::DEFAULT_SEED)]
    pub seed: u64,
    /// Percentiles against this `analyze` results file (JSONL) instead of
    /// the embedded SE-rated reference.
    #[arg(long, value_name = "FILE")]
    pub reference: Option<std::path::PathBuf>,
    /// Data set: label column (COLUMN or COLUMN:FIELD, as in `eval`).
    #[arg(long, value_name = "COL")]
    pub label: Option<String>,
    /// Data set: order of text labels, easiest first (e.g. Easy,Medium,Hard).
    #[arg(long, value_name = "LIST")]
    pub ordinal: Option<String>,
    /// Treat puzzles as a data set: compute `analyze` rows and describe them
    /// instead of one section per puzzle.
    #[arg(long)]
    pub dataset: bool,
    /// More puzzles than this make a data-set report.
    #[arg(long, default_value_t = 12)]
    pub max_puzzles: usize,
    /// Page title.
    #[arg(long)]
    pub title: Option<String>,
}

/// Whether the text is an `analyze` results file rather than puzzles.
fn is_results(path: Option<&Path>, text: &str) -> bool {
    let by_ext = path
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "jsonl" | "ndjson" | "json"));
    by_ext
        || text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with('{'))
}

pub(super) fn run(args: ReportArgs) -> Result<u8> {
    let out = &args.common.out;
    if out.format == Format::Csv {
        bail!("report writes -f text (the HTML page), json or jsonl, not csv");
    }
    args.common
        .paths()
        .input("--reference", args.reference.as_deref())
        .check()?;
    let opts = report_options(&args)?;
    let label = args
        .label
        .as_deref()
        .map(LabelSpec::parse)
        .transpose()
        .context("--label")?;
    let ordinal = args
        .ordinal
        .as_deref()
        .map(Ordinal::parse)
        .transpose()
        .context("--ordinal")?;

    let input = args.common.input.as_deref();
    let bytes = input.map(read_bytes).transpose()?;
    let text = bytes.as_deref().map(String::from_utf8_lossy);
    let source = source_name(input);
    if let Some(mut written) = written_report(input, bytes.as_deref(), text.as_deref(), &source)? {
        if let Some(title) = &args.title {
            written.title.clone_from(title);
        }
        out.write(&render(&written, out.format)?)?;
        return Ok(super::EXIT_OK);
    }

    let (reference, reference_name) = load_reference(args.reference.as_deref())?;
    let mut loaded: Option<super::Loaded> = None;
    let mut pb = None;
    let subject = if let Some(text) = text.as_deref().filter(|t| is_results(input, t)) {
        let format = TableFormat::detect(input, text);
        ReportSubject::Rows(ResultsTable::parse(text, format)?)
    } else {
        let (subject, read, bar) = puzzles_subject(&args, bytes, &opts, &source)?;
        loaded = Some(read);
        pb = Some(bar);
        subject
    };
    let request = ReportRequest {
        title: args
            .title
            .clone()
            .unwrap_or_else(|| format!("sudolab report: {source}")),
        source,
        subject,
        label: label.as_ref(),
        ordinal: ordinal.as_ref(),
        reference: &reference,
        reference_name,
        options: opts,
    };
    let report = match compute_report(request, || {
        if let Some(pb) = &pb {
            pb.inc(1);
        }
    }) {
        Ok(report) => report,
        // A disagreement exits 2, from `main`.
        Err(ReportError::Disagreement(d)) => return Err(d.into()),
        Err(e) => return Err(e.into()),
    };
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    out.write(&render(&report, out.format)?)?;
    Ok(loaded
        .as_mut()
        .map_or(super::EXIT_OK, super::Loaded::finish))
}

/// The computing options of `args`, checked.
fn report_options(args: &ReportArgs) -> Result<ReportOptions> {
    let opts = ReportOptions {
        k: args.k,
        samples: args.samples,
        sweep: parse_sweep(&args.sweep).map_err(|e| anyhow::anyhow!("--sweep: {e}"))?,
        sweep_samples: args.sweep_samples,
        cap: args.cap,
        verify: args.verify,
        runs: args.runs,
        seed: args.seed,
    };
    opts.check()?;
    Ok(opts)
}

/// The input's name on the page and in messages.
fn source_name(input: Option<&Path>) -> String {
    input.map_or_else(
        || "embedded examples".to_string(),
        |p| {
            if is_stdio(p) {
                "standard input".to_string()
            } else {
                p.display().to_string()
            }
        },
    )
}

/// The report an earlier `report -f json|jsonl` wrote, when the input
/// (`bytes`, read as `text`) is one; `None` for puzzles and results rows.
fn written_report(
    input: Option<&Path>,
    bytes: Option<&[u8]>,
    text: Option<&str>,
    source: &str,
) -> Result<Option<Report>> {
    // Puzzle lines that are not UTF-8 are rejected one by one by the puzzle
    // reader (with --keep-going the others are read); a results file or a
    // written report must be UTF-8 throughout.
    let not_utf8 = bytes.and_then(|b| {
        std::str::from_utf8(b).err().map(|e| {
            let valid = &b[..e.valid_up_to()];
            let line = 1 + valid.iter().filter(|&&c| c == b'\n').count();
            format!("line {line}: not valid UTF-8 (save the file as UTF-8)")
        })
    });
    let json_like = text.is_some_and(|t| is_results(input, t));
    if let (Some(why), true) = (&not_utf8, json_like) {
        bail!("{source}: {why}");
    }
    match text.filter(|_| json_like) {
        Some(t) => Report::from_json(t).with_context(|| {
            format!(
                "{source}: a report's fields (title, puzzles, dataset, options) that do not read"
            )
        }),
        None => Ok(None),
    }
}

/// The percentile reference: the `analyze` results file `path`, or the
/// embedded SE-rated reference; with its name on the page.
fn load_reference(path: Option<&Path>) -> Result<(Reference, String)> {
    match path {
        Some(path) => {
            let table = ResultsTable::from_path(path).context("--reference")?;
            let name = format!("{} ({} rows)", path.display(), table.len());
            Ok((
                Reference::from_table(&table, &name)
                    .with_context(|| format!("--reference {}", path.display()))?,
                name,
            ))
        }
        None => {
            let r = Reference::embedded().context("the embedded reference")?;
            let name = format!("{} ({} puzzles)", r.source, r.puzzles);
            Ok((r, name))
        }
    }
}

/// The puzzles of the input (`bytes`, or the embedded examples) as the
/// report's subject: one section each, or a data set when asked or when
/// there are more than --max-puzzles; with what was read and the progress
/// bar of their computation.
fn puzzles_subject(
    args: &ReportArgs,
    bytes: Option<Vec<u8>>,
    opts: &ReportOptions,
    source: &str,
) -> Result<(ReportSubject, super::Loaded, indicatif::ProgressBar)> {
    let read = match (bytes, args.common.input.as_deref()) {
        (Some(b), Some(path)) => load_input(
            args.common
                .text_input(Box::new(std::io::Cursor::new(b)), path)?,
        )?,
        _ => load_input(args.common.input_from(Source::Examples))?,
    };
    if let KChoice::At(k) = args.k {
        super::check_k_fits("--k", &[k], &read.puzzles)?;
    }
    super::check_k_fits("--sweep", &opts.sweep, &read.puzzles)?;
    let puzzles: Vec<Puzzle> = read.puzzles.iter().map(|(_, p)| p.clone()).collect();
    if puzzles.is_empty() {
        bail!("no puzzle of {source} to report (all rejected, or none in this shard)");
    }
    let pb = progress::bar(puzzles.len() as u64, "puzzles");
    let subject = if args.dataset || puzzles.len() > args.max_puzzles {
        if !args.dataset {
            note!(
                "sudolab: {} puzzles (more than --max-puzzles {}): writing a data-set report",
                puzzles.len(),
                args.max_puzzles
            );
        }
        ReportSubject::PuzzlesAsDataset(puzzles)
    } else {
        ReportSubject::Puzzles(puzzles)
    };
    Ok((subject, read, pb))
}

/// The page (`-f text`) or the report's numbers (`-f json|jsonl`).
fn render(report: &Report, format: Format) -> Result<String> {
    Ok(match format {
        Format::Json => serde_json::to_string_pretty(report)? + "\n",
        Format::Jsonl => sudolab::jsonl_line(report)? + "\n",
        _ => html::render(report)?,
    })
}
