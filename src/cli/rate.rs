//! `sudolab rate`: human-model ratings (SiSuS, oracle, hsolve, Nishio,
//! technique weights, baselines, the singles model, Serate- and Fowler-like
//! ratings, annealing and harmony search), and `--explain` for
//! the solving path.

use super::{Common, batch_rows};
use crate::cli::text;
use anyhow::Result;
use clap::Args;
use sudolab::RatedRow;
use sudolab::{Explanation, Model, RateOptions, SeExplanation};

#[derive(Debug, Args)]
#[command(
    after_help = "The text table's columns are named as in -f csv|json|jsonl (which hold every field, with standard errors):\n  givens, backtracks     clues; backtracks of a plain search (baselines)\n  sisus_refutation_sum   SiSuS: refutations summed along a simulated solve; sisus_dependency: its mean dependency\n  oracle_score           Fletcher's oracle model, with its level\n  hsolve                 Chang's E(p, v) effort of hsolve\n  nishio4                Patti's Nishio cycles (assumptions of depth 4)\n  weights_score          Xu & Xu technique weights, with its level; hardest_technique: the hardest one used\n  serate                 Sudoku Explainer rating rebuilt (SE scale 1.0-11.9)\n  score                  the difficulty score (0-10 for the fitted range) with its score_level\n  se_equivalent          the score on SE's scale; minutes: predicted mean solving time of players\n  status                 why a model gave no value (`-`), e.g. SiSuS found no finite refutation\n`-` marks a value the model did not give; docs/score.md and docs/methods.md explain each."
)]
pub(super) struct RateArgs {
    #[command(flatten)]
    pub common: Common,
    /// Models: a comma list of the models (`--help` names them), `default`
    /// or `all`.
    #[arg(long, short = 'm', default_value = "default", help = format!(
        "Models: comma list of {}; `default` is every model but the costly annealing and harmony search, `all` every model",
        sudolab::Model::names()
    ))]
    pub model: String,
    /// Runs of every randomized model (default: SiSuS 30, oracle 100, hsolve 20, Nishio 50,
    /// annealing 5, harmony search 5;
    /// at most 10000).
    #[arg(long)]
    pub runs: Option<usize>,
    /// Seed of every randomized model (each run derives its own seed from it).
    #[arg(long, default_value_t = RateOptions::default().seed)]
    pub seed: u64,
    /// Serate: work units (branch propagations) Sudoku Explainer's nesting
    /// levels 3–5 (ratings 10.0 and up) may use a puzzle (from 16×16 on,
    /// every chain producer counts: a minimal 16×16 puzzle ends within the
    /// default in about 30 s of one core); past it serate is
    /// `-` with the status "over budget" (and se_equivalent is the score's
    /// placement). The default rates the forum's famous hardest puzzles at
    /// about 30 s of one core each; 0 leaves the levels out (a puzzle that
    /// needs them "needs search") and, from 16×16 on, sets no bound on the
    /// other chain producers.
    #[arg(long, default_value_t = RateOptions::SERATE_BUDGET)]
    pub serate_budget: u64,
    /// Chain-search nodes each of Berthier's ratings (`-m berthier`: W, B,
    /// BxB, BxBB) may visit for a puzzle; past them the rating is `-` and
    /// berthier_status says `budget`.
    #[arg(long, default_value_t = RateOptions::default().berthier_budget)]
    pub berthier_budget: u64,
    /// Print the step-by-step solving path instead of ratings: with `-m
    /// serate`, Sudoku Explainer's steps with their ratings (and ER, EP, ED);
    /// with `-m berthier`, Berthier's resolution paths; with `-m weights`,
    /// the technique catalogue's simplest-first path alone; else that path,
    /// and where it is stuck (the catalogue has no chains) Sudoku
    /// Explainer's path after it.
    #[arg(long)]
    pub explain: bool,
    /// Leave out the difficulty score (score, score_level, se_equivalent).
    #[arg(long)]
    pub no_score: bool,
    /// Nishio: when the first assumption is made: `guess-first` (Patti's
    /// Figure 3, the default) or `strategies-first` (her §9.2 variant).
    #[arg(long, default_value = "guess-first", value_parser = ["guess-first", "strategies-first"])]
    pub nishio_order: String,
    /// Oracle model: what N and H are counted per: `round` (one iteration of
    /// Algorithm 1's singles loop, the default) or `search` (each naked-singles
    /// search and each hidden pass).
    #[arg(long, default_value = "round", value_parser = ["round", "search"])]
    pub oracle_scan: String,
    /// Oracle model weight of naked singles per scan (α).
    #[arg(long)]
    pub oracle_alpha: Option<f64>,
    /// Oracle model weight of hidden singles per scan (β).
    #[arg(long)]
    pub oracle_beta: Option<f64>,
    /// Oracle model weight of oracle visits (G).
    #[arg(long)]
    pub oracle_g: Option<f64>,
    /// Oracle model decay rate of the visit term (δ).
    #[arg(long)]
    pub oracle_delta: Option<f64>,
    /// Oracle model visit offset (σ).
    #[arg(long)]
    pub oracle_sigma: Option<f64>,
    /// Oracle model tanh steepness (A).
    #[arg(long)]
    pub oracle_a: Option<f64>,
    /// Oracle model tanh centre (B).
    #[arg(long)]
    pub oracle_b: Option<f64>,
}

pub(super) fn run(mut args: RateArgs) -> Result<u8> {
    args.common.paths().check()?;
    // Every model reads a pencilmark grid: those defined on givens say so in
    // its row's status (docs/methods.md §0.1); Berthier's explanation is of
    // givens alone.
    args.common.pencilmarks = !(args.explain
        && Model::parse_list(&args.model)?
            .iter()
            .eq([&sudolab::Model::Berthier]));
    if args.explain {
        // `-m serate` explains Sudoku Explainer's path, `-m berthier`
        // Berthier's resolution paths, `-m weights` the technique
        // catalogue's simplest-first path alone, any other list that path
        // and SE's after it where it is stuck.
        let models = Model::parse_list(&args.model)?;
        if models.iter().eq([&sudolab::Model::Berthier]) {
            return explained(&args.common, sudolab::BerthierExplanation::of);
        }
        return if models.iter().eq([&sudolab::Model::Serate]) {
            explained(&args.common, |p| SeExplanation::of(p, args.serate_budget))
        } else if models.iter().eq([&sudolab::Model::Weights]) {
            explained(&args.common, Explanation::of)
        } else {
            explained(&args.common, |p| {
                Explanation::or_serate(p, args.serate_budget)
            })
        };
    }
    let mut opts = RateOptions::for_models(&args.model)?;
    opts.seed = args.seed;
    opts.serate_budget = args.serate_budget;
    opts.berthier_budget = args.berthier_budget;
    if let Some(r) = args.runs {
        opts.set_runs(r);
    }
    opts.nishio.order = match args.nishio_order.as_str() {
        "strategies-first" => sudolab::NishioOrder::StrategiesFirst,
        _ => sudolab::NishioOrder::GuessFirst,
    };
    opts.oracle.scan = match args.oracle_scan.as_str() {
        "search" => sudolab::ScanUnit::Search,
        _ => sudolab::ScanUnit::Round,
    };
    let o = &mut opts.oracle;
    for (flag, field) in [
        (args.oracle_alpha, &mut o.alpha),
        (args.oracle_beta, &mut o.beta),
        (args.oracle_g, &mut o.big_g),
        (args.oracle_delta, &mut o.delta),
        (args.oracle_sigma, &mut o.sigma),
        (args.oracle_a, &mut o.a),
        (args.oracle_b, &mut o.b),
    ] {
        if let Some(v) = flag {
            *field = v;
        }
    }
    opts.check()?;
    // The input is read a window at a time; `-f jsonl` and text to stdout
    // stream each window's rows, other outputs keep them for the end.
    // The score is a model over every rater: givens only.
    batch_rows(&args.common, "puzzles", true, text::rate_table, |_, p| {
        let with_score = !args.no_score && !p.has_pencilmarks();
        Ok(RatedRow::of(p, &opts, with_score)?)
    })
}

/// The explanations of the puzzles of `common` by `explain`, written as
/// they are done: their text, one after another, or their rows.
fn explained<E: std::fmt::Display + serde::Serialize + Send>(
    common: &Common,
    explain: impl Fn(&sudolab::Puzzle) -> E + Sync,
) -> Result<u8> {
    let render = |rows: &[E]| rows.iter().map(|e| format!("{e}\n")).collect();
    batch_rows(common, "puzzles explained", false, render, |_, p| {
        Ok(explain(p))
    })
}
