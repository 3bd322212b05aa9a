//! `sudolab generate`: minimal unique puzzles, Fletcher et al.'s Algorithm 2,
//! Xu & Xu's no-brute-force generator, Chang et al.'s pseudo-generator, and
//! generation towards metric targets.

use super::{EXIT_OK, EXIT_PARTIAL, OutputArgs, is_stdio};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::Path;
use std::time::Duration;
use sudolab::{
    AimOptions, FletcherOptions, GenerateError, GenerateOptions, Generated, Level, Method,
    PseudoOptions, RunOptions, Symmetry, Target, generate_each,
};

#[derive(Debug, Args)]
pub(super) struct GenerateArgs {
    /// Generator.
    #[arg(long, short = 'm', value_parser = crate::cli::values::parser::<Method>(), default_value_t = GenerateOptions::default().method)]
    pub method: Method,
    /// Level to retry for: oracle level with fletcher, weights level with xu,
    /// hsolve quartile level1..level4 with chang (see docs/generation.md).
    #[arg(long, value_parser = crate::cli::values::parser::<Level>(), ignore_case = true)]
    pub level: Option<Level>,
    /// Target `FIELD OP VALUE` (OP: = != < <= > >=) on a rating, relaxation,
    /// score or `givens` field, e.g. `weights_score>=90`; repeat to AND several.
    #[arg(long = "target", short = 't', long_help = target_help())]
    pub targets: Vec<String>,
    /// Puzzles to generate (at most 1000000).
    #[arg(long, short = 'n', default_value_t = GenerateOptions::default().run.count)]
    pub count: usize,
    /// Run seed: puzzle i depends only on (seed, i).
    #[arg(long, default_value_t = GenerateOptions::default().run.seed)]
    pub seed: u64,
    /// Symmetry of the givens.
    #[arg(long, value_parser = crate::cli::values::parser::<Symmetry>(), default_value_t = GenerateOptions::default().symmetry)]
    pub symmetry: Symmetry,
    /// Box side: 2 (4×4), 3 (9×9) or 4 (16×16).
    #[arg(long, default_value_t = GenerateOptions::default().order)]
    pub order: usize,
    /// Print minimal puzzles only (every given needed for uniqueness):
    /// non-minimal candidates (symmetric, Xu's, mutants) are refused.
    #[arg(long)]
    pub minimal: bool,
    /// Attempts per puzzle when a level or target is asked for.
    #[arg(long, default_value_t = GenerateOptions::default().run.max_tries)]
    pub max_tries: usize,
    /// Stop searching after this many seconds and return the closest puzzles.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Edges removed per relaxation, for relaxation targets.
    #[arg(long, default_value_t = GenerateOptions::default().aim.relax_k)]
    pub k: usize,
    /// Relaxations per puzzle, for relaxation targets (at most 100000).
    #[arg(long, default_value_t = GenerateOptions::default().aim.relax_samples)]
    pub samples: usize,
    /// A target on a stochastic metric (human-model means, relaxation means,
    /// the oracle level) holds only with this probability under the metric's
    /// standard error, e.g. `oracle_score - 1.645*oracle_score_se >= cut` at
    /// 0.95; 0 judges the point values alone (see docs/generation.md).
    #[arg(long, default_value_t = sudolab::AimOptions::DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// Fletcher: Dancing Links completions to pick the solution grid from.
    #[arg(long, default_value_t = GenerateOptions::default().fletcher.completions)]
    pub completions: usize,
    /// Pseudo: the puzzle to mutate, as a puzzle line or a file whose first
    /// puzzle is used (`-` reads stdin); its order is used.
    #[arg(long, value_name = "PUZZLE|FILE")]
    pub from: Option<String>,
    /// Pseudo: the metric mutants must keep near the source's value: any
    /// numeric field a target may name (hsolve, sisus_refutation_sum,
    /// oracle_score, nishio4, backtracks, mean_fixed, givens, ...).
    #[arg(long, default_value = GenerateOptions::default().pseudo.metric.name(), value_name = "FIELD", long_help = metric_help())]
    pub metric: String,
    /// Pseudo: keep mutants whose metric is within this fraction of the source's.
    #[arg(long, default_value_t = GenerateOptions::default().pseudo.tolerance)]
    pub tolerance: f64,
    /// Keep generating until --count pairwise inequivalent puzzles exist
    /// (canonical form; 4×4 and 9×9): an index whose puzzle is equivalent to
    /// an earlier one is dropped, so the output depends on the seed only.
    #[arg(long)]
    pub dedup: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub(super) fn run(args: GenerateArgs) -> Result<u8> {
    let from = args.from.as_deref().map(Path::new);
    crate::cli::paths::PathPlan::new()
        .input("--from", from.filter(|p| is_stdio(p) || p.is_file()))
        .output("-o", args.out.file())
        .check()?;
    let time_limit = match args.time_limit {
        None => None,
        Some(s) => Some(
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .with_context(|| {
                    format!("--time-limit {s}: expected a positive number of seconds")
                })?,
        ),
    };
    let source = match &args.from {
        Some(from) => Some(super::read_one_puzzle("--from", from, false, false)?),
        None => None,
    };
    let order = source.as_ref().map_or(args.order, |(_, p)| p.order());
    let opts = GenerateOptions {
        method: args.method,
        symmetry: args.symmetry,
        order,
        minimal: args.minimal,
        run: RunOptions {
            count: args.count,
            seed: args.seed,
            max_tries: args.max_tries,
            time_limit,
            dedup: args.dedup,
        },
        aim: AimOptions {
            level: args.level,
            targets: Target::parse_all(&args.targets)?,
            relax_k: args.k,
            relax_samples: args.samples,
            confidence: (args.confidence != 0.0).then_some(args.confidence),
        },
        fletcher: FletcherOptions {
            completions: args.completions,
        },
        pseudo: PseudoOptions {
            source: source.as_ref().map(|(_, p)| p.clone()),
            metric: sudolab::numeric_target_field(&args.metric)?,
            tolerance: args.tolerance,
        },
    };
    opts.check()?;
    // A search towards a level or targets may take many seconds a puzzle:
    // the bar (on a terminal only) shows it is working.
    let aiming = opts.aim.level.is_some() || !opts.aim.targets.is_empty();
    let pb = if aiming {
        super::progress::bar(opts.run.count as u64, "puzzles")
    } else {
        indicatif::ProgressBar::hidden()
    };
    pb.set_message(format!(
        "searching, up to {} attempts a puzzle",
        opts.run.max_tries
    ));
    let generated = generate_each(&opts, || pb.inc(1));
    pb.finish_and_clear();
    let rows: Vec<Generated> = match generated {
        Ok(rows) => rows,
        Err(e @ GenerateError::Source(_)) => match &source {
            Some((origin, _)) => bail!("--from {origin}: {e}"),
            None => return Err(e.into()),
        },
        Err(e) => return Err(e.into()),
    };
    // Text is one puzzle line each, the format every other command reads.
    args.out.emit(&rows, |rows| {
        rows.iter().map(|r| format!("{}\n", r.puzzle)).collect()
    })?;
    if rows.len() < opts.run.count {
        let why = if opts.run.dedup && opts.method != Method::Pseudo {
            " (--dedup dropped --max-tries equivalent puzzles)"
        } else {
            ""
        };
        note!(
            "sudolab: {} of {} puzzle(s) found before the tries or the time ran out{why}",
            rows.len(),
            opts.run.count
        );
        return Ok(EXIT_PARTIAL);
    }
    let missed: Vec<&Generated> = rows.iter().filter(|r| !r.reached).collect();
    if missed.is_empty() {
        return Ok(EXIT_OK);
    }
    let within = match opts.run.time_limit {
        Some(t) => format!(
            "{} attempts each or --time-limit {}s",
            opts.run.max_tries,
            t.as_secs_f64()
        ),
        None => format!("--max-tries {} attempts each", opts.run.max_tries),
    };
    note!(
        "sudolab: {} of {} puzzle(s) reached the level/targets; {} missed within {within} (such puzzles are rare among what this generator makes: raise --max-tries or --time-limit, or loosen the target). The closest found is printed:",
        rows.len() - missed.len(),
        rows.len(),
        missed.len(),
    );
    for r in missed.iter().take(20) {
        note!(
            "  #{} after {} attempts: distance {:.3} ({})",
            r.index,
            r.attempts,
            r.distance,
            r.puzzle
        );
    }
    Ok(EXIT_PARTIAL)
}

/// The long help of `--target`: every field a target may name, from the
/// metric registry.
fn target_help() -> String {
    format!(
        "Target `FIELD OP VALUE` (OP: = != < <= > >=), e.g. `weights_score>=90`; repeat to \
         AND several. Levels compare by rank, text and booleans with = and != only. \
         FIELD is one of: {}",
        sudolab::target_fields().join(", ")
    )
}

/// The long help of `--metric`: the numeric fields a target may name.
fn metric_help() -> String {
    format!(
        "Pseudo: the metric mutants must keep near the source's value, one of: {}",
        sudolab::numeric_target_fields().join(", ")
    )
}
