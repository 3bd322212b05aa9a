//! `sudolab eval`, `classify` and `fit`: metrics against external labels.

use super::OutputArgs;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use sudolab::eval::{
    self, ClassMethod, ClassifyOptions, Direction, EvalOptions, FitOptions, LabelSpec, Ordinal,
    Preset, ResultsTable,
};
use sudolab::report::{Format, render_rows, text_table};

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into())
}

fn load_table(path: &std::path::Path) -> Result<ResultsTable> {
    // The table's errors name the file and the line.
    Ok(ResultsTable::from_path(path)?)
}

#[derive(Debug, Args)]
pub struct EvalArgs {
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

pub fn run_eval(args: EvalArgs) -> Result<u8> {
    args.out.check()?;
    let table = load_table(&args.results)?;
    let label = LabelSpec::parse(&args.label)?;
    let mut opts = EvalOptions {
        ordinal: args.ordinal.as_deref().map(Ordinal::parse).transpose()?,
        ..Default::default()
    };
    opts.bootstrap.replicates = args.bootstrap;
    opts.bootstrap.seed = args.seed;
    let metrics = split_list(&args.metrics);
    let report = eval::evaluate(&table, &label, metrics.as_deref(), &opts)?;
    let text = match args.out.format {
        Format::Text => {
            let rows: Vec<Vec<String>> = report
                .rows
                .iter()
                .map(|r| {
                    let ci = |v: Option<f64>, lo: Option<f64>, hi: Option<f64>| match (lo, hi) {
                        (Some(l), Some(h)) => format!("{} [{:.2},{:.2}]", fmt_opt(v), l, h),
                        _ => fmt_opt(v),
                    };
                    vec![
                        r.metric.clone(),
                        r.n.to_string(),
                        ci(r.pearson, r.pearson_lo, r.pearson_hi),
                        ci(r.spearman, r.spearman_lo, r.spearman_hi),
                        ci(r.kendall_tau_b, r.kendall_tau_b_lo, r.kendall_tau_b_hi),
                        ci(r.gk_gamma, r.gk_gamma_lo, r.gk_gamma_hi),
                        r.note.clone().unwrap_or_default(),
                    ]
                })
                .collect();
            let intervals = if args.bootstrap == 0 {
                "no bootstrap intervals (--bootstrap 0)".to_string()
            } else {
                format!(
                    "95% bootstrap intervals, {} resamples, seed {}",
                    args.bootstrap, args.seed
                )
            };
            let mut s = format!(
                "label {} ({} of {} rows labelled); {intervals}\n",
                report.label, report.rows_labelled, report.rows_total
            );
            s.push_str(&text_table(
                &[
                    "metric",
                    "n",
                    "pearson",
                    "spearman",
                    "kendall_tau_b",
                    "gk_gamma",
                    "note",
                ],
                &rows,
            ));
            for c in &report.contingency {
                s.push_str(&format!(
                    "\n{}: label level × equal-count metric bin (edges {:?}); χ² = {} df {} p = {}\n",
                    c.metric,
                    c.bin_edges,
                    fmt_opt(c.chi2),
                    c.df.map(|d| d.to_string()).unwrap_or_else(|| "-".into()),
                    c.p_value.map(|p| format!("{p:.3e}")).unwrap_or_else(|| "-".into())
                ));
                let rows: Vec<Vec<String>> = c
                    .levels
                    .iter()
                    .zip(&c.counts)
                    .map(|(l, row)| {
                        std::iter::once(l.clone())
                            .chain(row.iter().map(|n| n.to_string()))
                            .collect()
                    })
                    .collect();
                let bins: Vec<String> = (1..=c.counts.first().map_or(0, |r| r.len()))
                    .map(|b| format!("bin{b}"))
                    .collect();
                let mut header = vec!["level"];
                header.extend(bins.iter().map(|b| b.as_str()));
                s.push_str(&text_table(&header, &rows));
            }
            s
        }
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        f => render_rows(&report.rows, f)?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}

#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// Results file (JSONL, CSV or TSV).
    pub results: PathBuf,
    /// Metric column to classify by.
    #[arg(long)]
    pub metric: String,
    /// Equal-count bins (Universal Easy/Medium/Hard for 3).
    #[arg(long, default_value_t = 3)]
    pub bins: usize,
    /// The paper's fixed cut points: patti (Nishio cycles 3.48/6.52) or patti-short (short-clause % 22.6/17.6).
    #[arg(long, value_enum)]
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

pub fn run_classify(args: ClassifyArgs) -> Result<u8> {
    args.out.check()?;
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
    let report = eval::classify(&table, &args.metric, label.as_ref(), &opts)?;
    let text = match args.out.format {
        Format::Text => {
            let sm = &report.summary;
            let mut s = format!(
                "{} by {} ({} bins, {}); edges {:?}; {} puzzles, {} without a value\n",
                sm.metric, sm.method, sm.bins, sm.direction, sm.edges, sm.n, sm.n_missing
            );
            for (r, c) in sm.ranges.iter().zip(&sm.counts) {
                s.push_str(&format!(
                    "  {:<7} {:<22} {} puzzles\n",
                    r.class, r.text, c.n
                ));
            }
            if !report.groups.is_empty() {
                let rows: Vec<Vec<String>> = report
                    .groups
                    .iter()
                    .map(|g| {
                        let mut row = vec![
                            g.group.clone(),
                            g.n.to_string(),
                            format!("{:.3}", g.mean),
                            format!("{:.3}", g.median),
                            g.class_of_mean.clone(),
                            g.class_of_median.clone(),
                        ];
                        row.extend(
                            g.shares
                                .iter()
                                .map(|(c, v)| format!("{c} {:.0}%", v * 100.0)),
                        );
                        row
                    })
                    .collect();
                s.push('\n');
                s.push_str(&text_table(
                    &[
                        "group",
                        "n",
                        "mean",
                        "median",
                        "class_of_mean",
                        "class_of_median",
                        "shares",
                    ],
                    &rows,
                ));
            }
            s
        }
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        f => render_rows(&report.puzzles, f)?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}

#[derive(Debug, Args)]
pub struct FitArgs {
    /// Results file (JSONL, CSV or TSV).
    pub results: PathBuf,
    /// Label column (or COLUMN:FIELD).
    #[arg(long)]
    pub label: String,
    /// Metrics to combine, comma list.
    #[arg(long)]
    pub metrics: String,
    /// Order of text labels, easiest first, e.g. Easy,Medium,Hard.
    #[arg(long)]
    pub ordinal: Option<String>,
    /// Seed of the train/test split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run_fit(args: FitArgs) -> Result<u8> {
    args.out.check()?;
    let table = load_table(&args.results)?;
    let label = LabelSpec::parse(&args.label)?;
    let metrics = split_list(&Some(args.metrics.clone())).unwrap_or_default();
    let opts = FitOptions {
        seed: args.seed,
        ordinal: args.ordinal.as_deref().map(Ordinal::parse).transpose()?,
        ..Default::default()
    };
    let r = eval::fit_linear(&table, &label, &metrics, &opts)?;
    let text = match args.out.format {
        Format::Text => {
            let mut s = format!(
                "{} ≈ {}\n",
                r.label,
                r.coefficients
                    .iter()
                    .map(|c| format!("{:+.4}·{}", c.value, c.name))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            s.push_str(&format!(
                "train n={} pearson {} spearman {}; test n={} pearson {} spearman {}; seed {}\n",
                r.n_train,
                fmt_opt(r.train_pearson),
                fmt_opt(r.train_spearman),
                r.n_test,
                fmt_opt(r.test_pearson),
                fmt_opt(r.test_spearman),
                r.seed
            ));
            if let Some(n) = &r.note {
                s.push_str(&format!("note: {n}\n"));
            }
            s
        }
        f => render_rows(&[r], f)?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}
