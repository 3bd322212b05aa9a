//! `sudolab eval`, `classify` and `fit`: metrics against external labels.

use super::OutputArgs;
use crate::eval::{
    self, ClassMethod, ClassifyOptions, Direction, EvalOptions, FitOptions, LabelSpec, Ordinal,
    Preset, ResultsTable,
};
use crate::report::{Format, render_rows, text_table};
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into())
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
    args.out.check()?;
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
    let report = eval::evaluate(&table, &label, metrics.as_deref(), &opts);
    spin.finish_and_clear();
    let report = report?;
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

pub(super) fn run_classify(args: ClassifyArgs) -> Result<u8> {
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
    /// seconds (human times): its pairs must differ by 10 % or more, it is
    /// validated by 5-fold cross-validation, and the time model behind
    /// `minutes` is fitted on it.
    #[arg(long)]
    pub timed: Option<String>,
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
    args.out.check()?;
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

fn run_fit_score(args: FitArgs) -> Result<u8> {
    use crate::metrics::{Metric, join, registry::find};
    use crate::score::features::candidates;
    use crate::score::fit::{FitData, LabelFields, ScoreFitOptions, fit_model};
    args.out.check()?;
    if let Some(p) = &args.model_out {
        super::check_target("--model-out", p)?;
    }
    let table = load_table(&args.results)?;
    let known = candidates();
    let metrics: Vec<Metric> = match split_list(&args.metrics) {
        None => known.clone(),
        Some(names) => names
            .iter()
            .map(|n| {
                find(n).filter(|m| known.contains(m)).ok_or_else(|| {
                    anyhow::anyhow!(
                        "--metrics {n}: the score can only use the metrics it computes: {}",
                        join(&known, ", ")
                    )
                })
            })
            .collect::<Result<_>>()?,
    };
    // A name given after `--metrics` is one of them, or an error.
    let among = |flag: &str, names: Vec<String>| -> Result<Vec<Metric>> {
        names
            .iter()
            .map(|n| {
                find(n)
                    .filter(|m| metrics.contains(m))
                    .ok_or_else(|| anyhow::anyhow!("{flag} {n}: not among --metrics"))
            })
            .collect()
    };
    let fast_metrics = match split_list(&args.fast_metrics) {
        None => metrics.iter().copied().filter(|m| !m.costly()).collect(),
        Some(names) => among("--fast-metrics", names)?,
    };
    let fast: Vec<usize> = fast_metrics
        .iter()
        .filter_map(|f| metrics.iter().position(|m| m == f))
        .collect();
    let keep = among("--keep", split_list(&args.keep).unwrap_or_default())?;
    let fields = LabelFields {
        source: LabelSpec::parse(&args.source)?,
        rank: LabelSpec::parse(&args.label)?,
        se: args.se.as_deref().map(LabelSpec::parse).transpose()?,
        level: args.level.as_deref().map(LabelSpec::parse).transpose()?,
    };
    let mut data = FitData::from_table(&table, &metrics, &fields)?;
    if let Some(timed) = &args.timed {
        if !data.sources().contains(timed) {
            anyhow::bail!("--timed {timed}: no row has this source");
        }
        data = data.with_timed(timed);
    }
    if let Some(anchor) = &args.se_anchor {
        if !data.sources().contains(anchor) {
            anyhow::bail!("--se-anchor {anchor}: no row has this source");
        }
        data = data.split_anchors(anchor);
    }
    let train_only = split_list(&args.train_only).unwrap_or_default();
    let held_out: Vec<String> = data
        .sources()
        .into_iter()
        .filter(|s| !train_only.contains(s))
        .collect();
    let opts = ScoreFitOptions {
        seed: args.seed,
        bootstrap: crate::stats::BootstrapOptions {
            replicates: args.bootstrap,
            seed: args.seed,
            ..Default::default()
        },
        timed: args.timed.clone(),
        population: args.population.clone(),
        keep,
        ..Default::default()
    };
    let kept_by_choice = if opts.keep.is_empty() {
        String::new()
    } else {
        format!("; kept by choice: {}", join(&opts.keep, ", "))
    };
    let about = format!(
        "sudolab difficulty score, fitted by `sudolab fit --score` on {} puzzles of {} \
         (docs/score.sh; validation in docs/score.md){kept_by_choice}",
        data.rows.len(),
        data.sources().join(", ")
    );
    let all: Vec<usize> = (0..metrics.len()).collect();
    let report = fit_model(&data, &all, &fast, &held_out, &opts, about);
    if let Some(p) = &args.model_out {
        let json = serde_json::to_string_pretty(&report.model)? + "\n";
        crate::report::write_atomic(p, json.as_bytes())
            .with_context(|| format!("cannot write {}", p.display()))?;
    }
    let text = match args.out.format {
        Format::Text => score_fit_text(&report),
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        f => render_rows(&report.validation, f)?,
    };
    args.out.write(&text)?;
    Ok(super::EXIT_OK)
}

/// Columns of a score term table.
const TERM_HEADER: [&str; 7] = [
    "metric",
    "transform",
    "gate",
    "mean",
    "sd",
    "fill",
    "weight",
];

/// One table row per term of a score or time model.
fn term_rows(terms: &[crate::score::Term]) -> Vec<Vec<String>> {
    terms
        .iter()
        .map(|t| {
            vec![
                t.name.to_string(),
                format!("{:?}", t.transform).to_lowercase(),
                t.gate.map_or_else(|| "-".into(), |g| g.to_string()),
                format!("{:.4}", t.mean),
                format!("{:.4}", t.sd),
                format!("{:.4}", t.fill),
                format!("{:+.4}", t.weight),
            ]
        })
        .collect()
}

fn score_fit_text(r: &crate::score::fit::ScoreFitReport) -> String {
    let mut s = String::new();
    s.push_str("sources: ");
    s.push_str(
        &r.sources
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    s.push('\n');
    for (name, steps) in [("full", &r.selection), ("fast", &r.selection_fast)] {
        s.push_str(&format!(
            "\nbackward elimination ({name}), mean leave-one-source-out Spearman:\n"
        ));
        for st in steps.iter() {
            s.push_str(&format!(
                "  {:.4}  {}{}\n",
                st.mean_spearman,
                crate::metrics::join(&st.metrics, ","),
                st.dropped
                    .as_ref()
                    .map(|d| format!("  → drop {d}"))
                    .unwrap_or_default()
            ));
        }
    }
    for (name, m) in [("full", &r.model.full), ("fast", &r.model.fast)] {
        s.push_str(&format!(
            "\n{name} score = 10·(Σ weight·z − {:.4})/({:.4} − {:.4}):\n",
            m.low, m.high, m.low
        ));
        let header = TERM_HEADER;
        let rows = term_rows(&m.terms);
        s.push_str(&text_table(&header, &rows));
        if let Some(time) = &m.time {
            s.push_str(&format!(
                "{name} time: ln(seconds) = {:.4} {:+.4}·score + Σ weight·z; band [{:+.4}, {:+.4}] ({})\n",
                time.intercept, time.score_weight, time.band.0, time.band.1, time.population
            ));
            let rows = term_rows(&time.terms);
            s.push_str(&text_table(&header, &rows));
        }
    }
    for h in &r.validation {
        let how = if h.minutes.is_some() {
            "5-fold cross-validation; first fold "
        } else {
            ""
        };
        s.push_str(&format!(
            "\nheld out: {} (n = {}; {how}kept {}; fast kept {})\n",
            h.source,
            h.n,
            crate::metrics::join(&h.kept, ","),
            crate::metrics::join(&h.kept_fast, ",")
        ));
        let rows: Vec<Vec<String>> = h
            .rows
            .iter()
            .map(|e| {
                let ci = |v: Option<f64>, lo: Option<f64>, hi: Option<f64>| match (v, lo, hi) {
                    (Some(v), Some(lo), Some(hi)) => format!("{v:.3} [{lo:.2},{hi:.2}]"),
                    (Some(v), _, _) => format!("{v:.3}"),
                    _ => "-".into(),
                };
                vec![
                    e.metric.clone(),
                    e.n.to_string(),
                    ci(e.spearman, e.spearman_lo, e.spearman_hi),
                    ci(e.gk_gamma, e.gk_gamma_lo, e.gk_gamma_hi),
                ]
            })
            .collect();
        s.push_str(&text_table(&["metric", "n", "spearman", "gk_gamma"], &rows));
        if let Some(d) = &h.vs_se {
            s.push_str(&format!(
                "Spearman of score − Spearman of SE on the same {} puzzles: {:+.3}{}\n",
                h.n_se,
                d.value,
                match (d.lo, d.hi) {
                    (Some(lo), Some(hi)) => format!(" [{lo:+.3},{hi:+.3}] (paired bootstrap)"),
                    _ => String::new(),
                }
            ));
        }
        if let Some(m) = &h.minutes {
            s.push_str(&format!(
                "minutes on {} held-out puzzles: median |ln error| {:.3}, {:.1} % within the band, Spearman {}\n",
                m.n,
                m.median_abs_ln_error,
                100.0 * m.within_band,
                m.spearman.spearman.map_or("-".into(), |r| format!("{r:.3}"))
            ));
        }
        for b in &h.bands {
            let rows: Vec<String> = b
                .rows
                .iter()
                .map(|e| {
                    format!(
                        "{} {}",
                        e.metric,
                        e.spearman.map_or("-".into(), |r| format!("{r:.3}"))
                    )
                })
                .collect();
            s.push_str(&format!(
                "inside {} (n = {}): Spearman {}\n",
                b.band,
                b.rows.first().map_or(0, |r| r.n),
                rows.join(", ")
            ));
        }
        if let (Some(w), Some(m)) = (h.se_within_1, h.se_mean_abs) {
            s.push_str(&format!(
                "SE-equivalent vs SE on {} puzzles: {:.1} % within ±1.0, mean |difference| {:.2}\n",
                h.n_se,
                100.0 * w,
                m
            ));
        }
    }
    s
}
