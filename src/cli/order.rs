//! `sudolab order`: the order in which each puzzle's cells are filled, as
//! the SiSuS model and relaxation fixedness predict it (Pelánek Fig. 6), and
//! the SiSuS possibilities per step (Fig. 7); computed by
//! `sudolab::analyze::fill_order`.

use super::{Common, load, progress};
use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use sudolab::analyze::fill_order::{FillOrderOptions, FillOrderRow, fill_order};
use sudolab::relax::RelaxOptions;

#[derive(Debug, Args)]
pub struct OrderArgs {
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
    #[arg(long, default_value_t = sudolab::seed::DEFAULT_SEED)]
    pub seed: u64,
}

/// One grid of ranks as text, `.` on the givens.
fn grid(ranks: &[Option<f64>], side: usize) -> Vec<String> {
    ranks
        .chunks(side)
        .map(|row| {
            row.iter()
                .map(|r| match r {
                    Some(r) => format!("{r:>5.1}"),
                    None => format!("{:>5}", "."),
                })
                .collect()
        })
        .collect()
}

fn text(rows: &[FillOrderRow]) -> String {
    let mut s = String::new();
    for r in rows {
        let side = (r.model_rank.len() as f64).sqrt().round() as usize;
        let rho = r.spearman.map_or("-".into(), |x| format!("{x:.3}"));
        s.push_str(&format!(
            "{}  Spearman {rho}\n",
            r.label.as_deref().unwrap_or(&r.puzzle)
        ));
        let width = side * 5;
        s.push_str(&format!(
            "{:<width$}   {}\n",
            "SiSuS order (rank)", "fixedness order (rank)"
        ));
        for (a, b) in grid(&r.model_rank, side)
            .into_iter()
            .zip(grid(&r.fixedness_rank, side))
        {
            s.push_str(&format!("{a}   {b}\n"));
        }
        s.push_str("SiSuS possibilities for the next step, steps 1, 2, … (Fig. 7):\n");
        for chunk in r.possibilities.chunks(side) {
            let line: Vec<String> = chunk.iter().map(|x| format!("{x:>5.1}")).collect();
            s.push_str(&line.concat());
            s.push('\n');
        }
        s.push('\n');
    }
    s
}

pub fn run(args: OrderArgs) -> Result<u8> {
    args.common.out.check()?;
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
    let mut loaded = load(&args.common)?;
    super::check_k_fits("--k", &[args.k], &loaded.puzzles)?;
    let puzzles = std::mem::take(&mut loaded.puzzles);
    let pb = progress::bar(puzzles.len() as u64, "puzzles");
    let results: Vec<_> = puzzles
        .par_iter()
        .map(|(line, p)| {
            let r = fill_order(p, &opts);
            pb.inc(1);
            (*line, r)
        })
        .collect();
    pb.finish_and_clear();
    let mut rows = Vec::new();
    for (line, r) in results {
        match r {
            Ok(row) => rows.push(row),
            // A disagreement is a bug, not a bad puzzle: it exits 2.
            Err(sudolab::analyze::fill_order::FillOrderError::Relax(
                sudolab::relax::RelaxError::Disagreement(d),
            )) => return Err(d.into()),
            Err(e) => loaded.refuse(line, e)?,
        }
    }
    args.common.out.emit(&rows, text)?;
    Ok(loaded.finish())
}
