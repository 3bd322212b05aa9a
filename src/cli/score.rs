//! `sudolab score`: one difficulty score per puzzle with its level and
//! calibrated equivalents ([`sudolab::score`]).

use super::{Common, batch_rows};
use crate::cli::text;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;
use sudolab::JobError;
use sudolab::{ScoreError, ScoreModel, ScoreOptions, ScoreRow};

#[derive(Debug, Args)]
pub(super) struct ScoreArgs {
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
    /// Work units (branch propagations) serate's nesting levels 3–5 may use
    /// for a puzzle's SE-equivalent; past them se_equivalent is the score's
    /// placement and se_by says "placement (serate over budget)". 0 leaves
    /// the levels out.
    #[arg(long, default_value_t = ScoreOptions::default().serate_budget)]
    pub serate_budget: u64,
    /// Chain-search nodes each of Berthier's ratings (w_rating, b_rating,
    /// bxb, bxbb) may visit for a puzzle; past them the rating is null and
    /// berthier_status says `budget`. 0 leaves the ratings out.
    #[arg(long, default_value_t = ScoreOptions::BERTHIER_BUDGET)]
    pub berthier_budget: u64,
}

pub(super) fn run(args: ScoreArgs) -> Result<u8> {
    args.common
        .paths()
        .input("--model", args.model.as_deref())
        .check()?;
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
        serate_budget: args.serate_budget,
        berthier_budget: args.berthier_budget,
    };
    opts.check()?;
    let model_name = args.model.as_ref().map(|p| p.display().to_string());
    let render = |rows: &[ScoreRow]| text::score_table(rows, &args.calibrate, site.is_some());
    batch_rows(&args.common, "puzzles", true, render, |line, p| {
        let scored = sudolab::score(p, &opts).map_err(|e| match e {
            // A model whose numbers overflow fails on every puzzle: the
            // model file is at fault, not the puzzle.
            e @ ScoreError::NotFinite(_) => JobError::fatal(format!(
                "--model {}: {e}",
                model_name.as_deref().unwrap_or("(shipped)")
            )),
            e => e.into(),
        })?;
        Ok(ScoreRow::new(
            line,
            p,
            scored,
            site.as_ref(),
            args.all_metrics,
        ))
    })
}
