//! `sudolab score`: one difficulty score per puzzle with its level and
//! calibrated equivalents ([`sudolab::score`]).

use super::{Common, load_windows, progress, resume};
use anyhow::{Context, Result, bail};
use clap::Args;
use rayon::prelude::*;
use std::path::PathBuf;
use sudolab::report::text_table;
use sudolab::score::{self, ScoreError, ScoreModel, ScoreOptions, ScoreRow};

#[derive(Debug, Args)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub common: Common,
    /// Leave out the costly metrics (relaxation samples, SiSuS and hsolve
    /// runs): several times faster, slightly less accurate (docs/score.md).
    #[arg(long)]
    pub fast: bool,
    /// Number of levels of the level scale (2–10): the cuts are equal shares
    /// of the reference puzzles the model was fitted on.
    #[arg(long, default_value_t = ScoreOptions::default().scale)]
    pub scale: usize,
    /// Also give the level on a labelled source's scale: se (the
    /// SE-equivalent, always given), qqwing, nyt, krazydad, patti-org-uk,
    /// patti-sotd, patti-extreme.
    #[arg(long, default_value = "se")]
    pub calibrate: String,
    /// A model file written by `sudolab fit --score` instead of the shipped one.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Seed of the randomised metrics instead of the model's (to measure the
    /// score's spread over seeds; the shipped score uses the model's seed, so
    /// a puzzle's score never changes from run to run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Give every candidate metric of the score, not only the model's (the
    /// input of `sudolab fit --score`).
    #[arg(long)]
    pub all_metrics: bool,
}

/// The mark of a value outside the data its model was fitted on.
fn extrapolated(flag: bool) -> &'static str {
    if flag { " extrapolated" } else { "" }
}

pub fn run(args: ScoreArgs) -> Result<u8> {
    let out = &args.common.out;
    out.check()?;
    let mut model = match &args.model {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--model {}", path.display()))?;
            ScoreModel::from_json(&text)
                .with_context(|| format!("--model {}: not a score model", path.display()))?
        }
        None => ScoreModel::shipped().clone(),
    };
    if let Some(seed) = args.seed {
        model.params.seed = seed;
    }
    let site = match args.calibrate.trim() {
        "se" => None,
        name => {
            let sites = model.variant(args.fast).sites.clone();
            match sites.get(name) {
                Some(s) => Some(s.clone()),
                None => bail!(
                    "--calibrate {name}: unknown scale (expected se or one of {})",
                    sites.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            }
        }
    };
    let opts = ScoreOptions {
        model,
        fast: args.fast,
        scale: args.scale,
        all_metrics: args.all_metrics,
    };
    opts.check()?;
    let pb = progress::bar(0, "puzzles");
    let mut rows = resume::WindowRows::new(out);
    let (mut loaded, _) = load_windows(&args.common, |loaded, window| {
        pb.inc_length(window.len() as u64);
        let results: Vec<_> = window
            .par_iter()
            .map(|(line, p)| {
                let r = score::score(p, &opts);
                pb.inc(1);
                (*line, p, r)
            })
            .collect();
        let mut done = Vec::new();
        let mut refused = Vec::new();
        for (line, p, r) in results {
            match r {
                Ok(s) => done.push(ScoreRow {
                    line,
                    puzzle: p.to_line(),
                    label: p.label.clone(),
                    calibrated_level: site.as_ref().map(|c| c.level(s.score.score).to_string()),
                    score: s.score,
                    hardest_technique: s.hardest_technique,
                    metrics: if args.all_metrics {
                        s.metrics
                    } else {
                        Default::default()
                    },
                }),
                // A disagreement is a bug, not a bad puzzle: it exits 2.
                Err(ScoreError::Disagreement(d)) => return Err(d.into()),
                // A model whose numbers overflow fails on every puzzle: the
                // model file is at fault, not the puzzle.
                Err(e @ ScoreError::NotFinite(_)) => {
                    let model = args.model.as_ref().map(|p| p.display().to_string());
                    bail!("--model {}: {e}", model.as_deref().unwrap_or("(shipped)"))
                }
                Err(e) => refused.push((line, e)),
            }
        }
        for (line, e) in refused {
            pb.suspend(|| loaded.refuse(line, e))?;
        }
        rows.push(&pb, done)?;
        Ok(None)
    })?;
    pb.finish_and_clear();
    if rows.streamed() {
        return Ok(loaded.finish());
    }
    let rows = rows.into_kept();
    let calibrated = args.calibrate.clone();
    out.emit(&rows, |rows| {
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                let mut cells = vec![
                    r.label.clone().unwrap_or_else(|| r.puzzle.clone()),
                    format!("{:.2}", r.score.score),
                    r.score.score_level.clone(),
                    r.score
                        .se_equivalent
                        .map(|x| format!("{x:.1}{}", extrapolated(r.score.extrapolated)))
                        .unwrap_or_else(|| "-".into()),
                    match (r.score.minutes, r.score.minutes_low, r.score.minutes_high) {
                        (Some(m), Some(lo), Some(hi)) => format!(
                            "{m:.1} ({lo:.1}–{hi:.1}){}",
                            extrapolated(r.score.minutes_extrapolated == Some(true))
                        ),
                        _ => "-".into(),
                    },
                ];
                if let Some(l) = &r.calibrated_level {
                    cells.push(l.clone());
                }
                cells
            })
            .collect();
        let level_col = format!("{calibrated} level");
        let mut header = vec!["puzzle", "score", "level", "se_equivalent", "minutes"];
        if site.is_some() {
            header.push(&level_col);
        }
        text_table(&header, &table)
    })?;
    Ok(loaded.finish())
}
