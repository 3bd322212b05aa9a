//! `sudolab order`: the order in which each puzzle's cells are filled, as
//! the SiSuS model and relaxation fixedness predict it (Pelánek Fig. 6), and
//! the SiSuS possibilities per step (Fig. 7); computed by
//! [`sudolab::fill_order`].

use super::{Common, finish, progress, run_batch};
use crate::cli::text;
use anyhow::Result;
use clap::Args;
use sudolab::{Driver, JobError};
use sudolab::{FillOrderError, FillOrderOptions, fill_order};
use sudolab::{RelaxError, RelaxOptions};

#[derive(Debug, Args)]
pub(super) struct OrderArgs {
    #[command(flatten)]
    pub common: Common,
    /// Edges removed per relaxation sample.
    #[arg(long, default_value_t = 45)]
    pub k: usize,
    /// Relaxation samples whose fixedness ranks the cells.
    #[arg(long, default_value_t = 1000)]
    pub samples: usize,
    /// SiSuS runs averaged (the paper's 30).
    #[arg(long, default_value_t = 30)]
    pub runs: usize,
    /// Seed of the relaxation and the SiSuS runs.
    #[arg(long, default_value_t = sudolab::DEFAULT_SEED)]
    pub seed: u64,
}

pub(super) fn run(args: OrderArgs) -> Result<u8> {
    args.common.paths().check()?;
    super::at_most("--samples", args.samples, super::MAX_SAMPLES)?;
    super::at_most("--runs", args.runs, super::MAX_RUNS)?;
    let mut opts = FillOrderOptions {
        relax: RelaxOptions {
            k: args.k,
            samples: args.samples,
            seed: args.seed,
            ..RelaxOptions::default()
        },
        seed: args.seed,
        ..FillOrderOptions::default()
    };
    opts.sisus.runs = args.runs;
    let pb = progress::Bar::new("puzzles", || progress::input_total(&args.common));
    let check_k = |puzzles: &[(usize, sudolab::Puzzle)]| {
        super::check_k_fits("--k", &[args.k], puzzles).map_err(JobError::fatal)
    };
    // Rows go out window by window.
    let render = text::order_text;
    let mut rows = super::resume::WindowRows::new(&args.common.out, false, &render)?;
    let summary = run_batch(
        args.common.input()?,
        Driver::new().progress(&pb).check_windows(&check_k),
        |_, p| {
            fill_order(p, &opts).map_err(|e| match e {
                // A disagreement is a bug, not a bad puzzle: it exits 2.
                FillOrderError::Relax(RelaxError::Disagreement(d)) => d.into(),
                e => JobError::refused(e),
            })
        },
        |done| rows.push(done.into_iter().map(|(_, row)| row).collect()),
    )?;
    drop(pb);
    rows.finish()?;
    Ok(finish(&summary.rejected))
}
