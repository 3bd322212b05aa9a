//! `sudolab eval`, `classify` and `fit`: metrics against external labels.

use super::OutputArgs;
use super::text;
use crate::cli::paths::PathPlan;
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use sudolab::Direction;
use sudolab::Format;
use sudolab::{
    ClassMethod, ClassifyOptions, EvalOptions, FitOptions, LabelSpec, Ordinal, Preset, ResultsTable,
};

/// The paths of `eval`, `classify` and `fit`: the results table and `-o`,
/// checked by the one rule.
fn check_paths(results: &std::path::Path, out: &OutputArgs) -> Result<()> {
    Ok(PathPlan::new()
        .input("RESULTS", Some(results))
        .output("-o", out.file())
        .check()?)
}

fn load_table(path: &std::path::Path) -> Result<ResultsTable> {
    // The table's errors name the file and the line.
    Ok(ResultsTable::from_path(path)?)
}

#[derive(Debug, Args)]
pub(super) struct EvalArgs {
    /// Results file (JSONL, CSV or TSV with a header), e.g. from `relax -f jsonl`.
    pub results: PathBuf,
    /// Label column; `COLUMN:FIELD` takes the FIELD-th whitespace-separated field of a text column.
    #[arg(long)]
    pub label: String,
    /// Order of text labels, easiest first, e.g. Easy,Medium,Hard.
    #[arg(long)]
    pub ordinal: Option<String>,
    /// Metric columns (comma list); default: every numeric column but the label.
    #[arg(long)]
    pub metrics: Option<String>,
    /// Bootstrap resamples (0 = no intervals).
    #[arg(long, default_value_t = 1000)]
    pub bootstrap: usize,
    /// Seed of the bootstrap resamples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn split_list(s: &Option<String>) -> Option<Vec<String>> {
    s.as_ref().map(|m| {
        m.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    })
}

pub(super) fn run_eval(args: EvalArgs) -> Result<u8> {
    check_paths(&args.results, &args.out)?;
    super::at_most("--bootstrap", args.bootstrap, super::MAX_BOOTSTRAP)?;
    let table = load_table(&args.results)?;
    super::bootstrap_fits(args.bootstrap, table.len())?;
    let label = LabelSpec::parse(&args.label)?;
    let mut opts = EvalOptions {
        ordinal: args.ordinal.as_deref().map(Ordinal::parse).transpose()?,
        ..Default::default()
    };
    opts.bootstrap.replicates = args.bootstrap;
    opts.bootstrap.seed = args.seed;
    let metrics = split_list(&args.metrics);
    let spin = super::progress::spinner(&format!(
        "correlating {} rows ({} bootstrap resamples)",
        table.len(),
        args.bootstrap
    ));
    let report = sudolab::evaluate(&table, &label, metrics.as_deref(), &opts);
    spin.finish_and_clear();
    let report = report?;
    let text = match args.out.format {
        Format::Text => text::eval_text(&report, args.bootstrap, args.seed),
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        f => f.render(&report.rows)?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}

#[derive(Debug, Args)]
pub(super) struct ClassifyArgs {
    /// Results file (JSONL, CSV or TSV).
    pub results: PathBuf,
    /// Metric column to classify by.
    #[arg(long)]
    pub metric: String,
    /// Equal-count bins (Universal Easy/Medium/Hard for 3).
    #[arg(long, default_value_t = 3)]
    pub bins: usize,
    /// The paper's fixed cut points: patti (Nishio cycles 3.48/6.52) or patti-short (short-clause % 22.6/17.6).
    #[arg(long, value_parser = crate::cli::values::parser::<Preset>())]
    pub preset: Option<Preset>,
    /// Lower values are harder (e.g. short_pct, p_unique); default: higher is harder.
    #[arg(long)]
    pub lower_is_harder: bool,
    /// Label column (or COLUMN:FIELD) to group puzzles by.
    #[arg(long)]
    pub label: Option<String>,
    /// Order of label groups, easiest first.
    #[arg(long)]
    pub ordinal: Option<String>,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub(super) fn run_classify(args: ClassifyArgs) -> Result<u8> {
    check_paths(&args.results, &args.out)?;
    let table = load_table(&args.results)?;
    let label = args.label.as_deref().map(LabelSpec::parse).transpose()?;
    let opts = ClassifyOptions {
        method: match args.preset {
            Some(p) => ClassMethod::Preset(p),
            None => ClassMethod::EqualCount { bins: args.bins },
        },
        direction: if args.lower_is_harder {
            Direction::LowerIsHarder
        } else {
            Direction::HigherIsHarder
        },
        ordinal: args.ordinal.as_deref().map(Ordinal::parse).transpose()?,
        ..Default::default()
    };
    let report = sudolab::classify(&table, &args.metric, label.as_ref(), &opts)?;
    let text = match args.out.format {
        Format::Text => text::classify_text(&report),
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        f => f.render(&report.puzzles)?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}

#[derive(Debug, Args)]
pub(super) struct FitArgs {
    /// Results file (JSONL, CSV or TSV).
    pub results: PathBuf,
    /// Label column (or COLUMN:FIELD); with --score the label as a number,
    /// harder higher (a level rank or a rating).
    #[arg(long)]
    pub label: String,
    /// Metrics to combine, comma list; RD and SFRD stand for Pelánek's
    /// combinations (with --score: the candidates, default
    /// every candidate metric of the score).
    #[arg(long)]
    pub metrics: Option<String>,
    /// Order of text labels, easiest first, e.g. Easy,Medium,Hard.
    #[arg(long)]
    pub ordinal: Option<String>,
    /// Seed of the train/test split (with --score: of the pair sampling and
    /// the bootstrap).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fit the difficulty score instead: pairwise ranking within each source,
    /// backward elimination, calibrations, leave-one-source-out validation.
    #[arg(long)]
    pub score: bool,
    /// With --score: the source of each row (a site or rater), e.g. label:1.
    #[arg(long, default_value = "label:1")]
    pub source: String,
    /// With --score: Sukaku Explainer's rating of each row ("-" or absent
    /// when unknown), e.g. label:3.
    #[arg(long)]
    pub se: Option<String>,
    /// With --score: the level name of each row ("-" when none), e.g. label:4.
    #[arg(long)]
    pub level: Option<String>,
    /// With --score: candidates of the fast score (default: every candidate
    /// but the costly ones).
    #[arg(long)]
    pub fast_metrics: Option<String>,
    /// With --score: sources used for fitting but not held out (e.g. a
    /// source whose label is SE's rating itself).
    #[arg(long)]
    pub train_only: Option<String>,
    /// With --score: a source whose rows fit only the trial curve of the
    /// SE-equivalent, their SE label a rating they are known to reach (e.g.
    /// a sample of the forum's list of puzzles rated 11.0 or more); they
    /// change nothing else of the model and are not validated.
    #[arg(long)]
    pub se_anchor: Option<String>,
    /// With --score: the source whose label is a mean solving time in
    /// seconds (human times): its pairs must differ by --time-margin or
    /// more, it is validated by 5-fold cross-validation, and the time model
    /// behind `minutes` is fitted on it.
    #[arg(long)]
    pub timed: Option<String>,
    /// With --score and --timed: how much the timed source's pairs weigh
    /// against each other source's (default 1: every source the same;
    /// 1e-6 to 1e6).
    #[arg(long)]
    pub timed_weight: Option<f64>,
    /// With --score: how much other sources' pairs weigh, as a comma list of
    /// SOURCE=WEIGHT (e.g. `patti-extreme=0.25,nyt=0.5`; each 1e-6 to 1e6);
    /// a source not named weighs 1.
    #[arg(long)]
    pub source_weight: Option<String>,
    /// With --score and --timed: the smallest difference in ln time that
    /// makes a pair of two timed puzzles (default 0.1: about 10 %).
    #[arg(long)]
    pub time_margin: Option<f64>,
    /// With --score and --timed: who the timed source's players are (stored
    /// in the model and printed in the docs beside `minutes`).
    #[arg(long, default_value = "")]
    pub population: String,
    /// With --score: metrics the backward elimination never drops (comma
    /// list, among --metrics).
    #[arg(long)]
    pub keep: Option<String>,
    /// With --score: bootstrap resamples of the validation's correlations.
    #[arg(long, default_value_t = 500)]
    pub bootstrap: usize,
    /// With --score: write the fitted model (JSON, as `score --model` reads
    /// it) to this file, atomically.
    #[arg(long)]
    pub model_out: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub(super) fn run_fit(args: FitArgs) -> Result<u8> {
    super::at_most("--bootstrap", args.bootstrap, super::MAX_BOOTSTRAP)?;
    if args.score {
        return run_fit_score(args);
    }
    for (flag, given) in [
        ("--timed-weight", args.timed_weight.is_some()),
        ("--time-margin", args.time_margin.is_some()),
        ("--source-weight", args.source_weight.is_some()),
    ] {
        if given {
            anyhow::bail!("{flag} weighs the pairs of a score fit: it goes with --score");
        }
    }
    check_paths(&args.results, &args.out)?;
    if let Some(p) = &args.model_out {
        anyhow::bail!(
            "--model-out {}: only a score fit writes a model: it goes with --score",
            p.display()
        );
    }
    let table = load_table(&args.results)?;
    let label = LabelSpec::parse(&args.label)?;
    let Some(metrics) = split_list(&args.metrics) else {
        anyhow::bail!("--metrics is required (a comma list of metric columns)");
    };
    let opts = FitOptions {
        seed: args.seed,
        ordinal: args.ordinal.as_deref().map(Ordinal::parse).transpose()?,
        ..Default::default()
    };
    let r = sudolab::fit_linear(&table, &label, &metrics, &opts)?;
    let text = match args.out.format {
        Format::Text => text::fit_text(&r),
        f => f.render(&[r])?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}

/// `--source-weight`'s comma list of SOURCE=WEIGHT, each weight positive.
fn parse_source_weights(list: &Option<String>) -> Result<std::collections::BTreeMap<String, f64>> {
    let mut weights = std::collections::BTreeMap::new();
    for item in split_list(list).unwrap_or_default() {
        let (name, w) = item
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--source-weight {item}: expected SOURCE=WEIGHT"))?;
        let w: f64 = w
            .trim()
            .parse()
            .ok()
            .filter(|&w: &f64| sudolab::source_weight_ok(w))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "--source-weight {item}: the weight must be a number from {} to {}",
                    sudolab::SOURCE_WEIGHT_RANGE.0,
                    sudolab::SOURCE_WEIGHT_RANGE.1
                )
            })?;
        if weights.insert(name.trim().to_string(), w).is_some() {
            anyhow::bail!("--source-weight {name}: named twice");
        }
    }
    Ok(weights)
}

fn run_fit_score(args: FitArgs) -> Result<u8> {
    use sudolab::{LabelFields, ScoreFitOptions, ScoreFitSpec, fit_score};
    PathPlan::new()
        .input("RESULTS", Some(&args.results))
        .output("-o", args.out.file())
        .output("--model-out", args.model_out.as_deref())
        .check()?;
    if args.timed.is_none() {
        for (flag, given) in [
            ("--timed-weight", args.timed_weight.is_some()),
            ("--time-margin", args.time_margin.is_some()),
        ] {
            if given {
                anyhow::bail!("{flag} is about the timed source: it goes with --timed SOURCE");
            }
        }
    }
    if let (Some(p), None) = (&args.model_out, &args.se) {
        anyhow::bail!(
            "--model-out {}: a model's SE-equivalent curve is fitted on Sukaku Explainer's ratings: give --se COLUMN (e.g. label:3), known for some rows",
            p.display()
        );
    }
    let defaults = ScoreFitOptions::default();
    let mut spec = ScoreFitSpec {
        fields: LabelFields {
            source: LabelSpec::parse(&args.source)?,
            rank: LabelSpec::parse(&args.label)?,
            se: args.se.as_deref().map(LabelSpec::parse).transpose()?,
            level: args.level.as_deref().map(LabelSpec::parse).transpose()?,
        },
        metrics: Vec::new(),
        fast_metrics: None,
        se_anchor: args.se_anchor.clone(),
        train_only: split_list(&args.train_only).unwrap_or_default(),
        options: ScoreFitOptions {
            seed: args.seed,
            bootstrap: sudolab::BootstrapOptions {
                replicates: args.bootstrap,
                seed: args.seed,
                ..Default::default()
            },
            timed: args.timed.clone(),
            timed_weight: args.timed_weight.unwrap_or(defaults.timed_weight),
            source_weights: parse_source_weights(&args.source_weight)?,
            time_margin: args.time_margin.unwrap_or(defaults.time_margin),
            population: args.population.clone(),
            ..defaults
        },
    };
    score_fit_metrics(&args, &mut spec)?;
    let table = load_table(&args.results)?;
    let report = fit_score(&table, &spec).map_err(fit_error)?;
    if let Some(p) = &args.model_out {
        // What `score --model` would refuse is not written.
        report.model.check().map_err(|e| {
            anyhow::anyhow!(
                "--model-out {}: the fitted model is not one `score --model` can use ({e}); nothing written",
                p.display()
            )
        })?;
        let json = serde_json::to_string_pretty(&report.model)? + "\n";
        sudolab::write_atomic(p, json.as_bytes())
            .with_context(|| format!("cannot write {}", p.display()))?;
    }
    let text = match args.out.format {
        Format::Text => text::score_fit_text(&report),
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        f => f.render(&report.validation)?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}

/// The fit's refusal of an option, naming the flag that gave it.
fn fit_error(e: sudolab::ScoreFitError) -> anyhow::Error {
    use sudolab::ScoreFitError;
    match e {
        ScoreFitError::Option {
            option,
            value,
            reason,
        } => {
            let flag = match option {
                "source_weights" => "--source-weight".to_string(),
                "se_anchor" => "--se-anchor".to_string(),
                other => format!("--{}", other.replace('_', "-")),
            };
            anyhow::anyhow!("{flag} {value}: {reason}")
        }
        other => other.into(),
    }
}

/// The metric flags of `fit --score` parsed into the spec: `--metrics`,
/// `--fast-metrics` and `--keep`.
fn score_fit_metrics(args: &FitArgs, spec: &mut sudolab::ScoreFitSpec) -> Result<()> {
    let find = |name: &str| name.parse::<sudolab::Metric>().ok();
    // The names are parsed here; whether each is one the score computes,
    // and the fast and kept ones among them, the fit checks.
    let parse = |flag: &str, names: Vec<String>| -> Result<Vec<sudolab::Metric>> {
        names
            .iter()
            .map(|n| find(n).ok_or_else(|| anyhow::anyhow!("{flag} {n}: no such metric")))
            .collect()
    };
    let known = sudolab::ScoreFitSpec::candidate_metrics();
    let metrics = split_list(&args.metrics)
        .unwrap_or_default()
        .iter()
        .map(|n| {
            find(n).filter(|m| known.contains(m)).ok_or_else(|| {
                anyhow::anyhow!(
                    "--metrics {n}: the score can only use the metrics it computes: {}",
                    super::join_metrics(&known, ", ")
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    spec.fast_metrics = split_list(&args.fast_metrics)
        .map(|names| parse("--fast-metrics", names))
        .transpose()?;
    spec.options.keep = parse("--keep", split_list(&args.keep).unwrap_or_default())?;
    spec.metrics = metrics;
    Ok(())
}
