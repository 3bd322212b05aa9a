//! `sudolab analyze`: every requested metric for every puzzle of a data set
//! in one streaming, resumable, parallel run ([`sudolab::analyze`]).

use super::{Common, EXIT_DISAGREE, drop_equivalents, load, load_windows, progress, resume};
use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use resume::Lined;
use sudolab::analyze::{AnalysisRow, AnalyzeOptions, analyze, parse_metric_groups};
use sudolab::engine::Engines;
use sudolab::metrics::Metric;
use sudolab::relax::{self, RelaxOptions};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub common: Common,
    /// Metric groups, comma list: clauses, relax, rate-all, rate:MODELS
    /// (e.g. rate:nishio,weights; models: sisus, oracle, hsolve, nishio,
    /// weights, baseline, singles) or score (the difficulty score, its level,
    /// SE-equivalent and predicted minutes).
    #[arg(long, default_value = "clauses,relax,score")]
    pub metrics: String,
    /// Relaxation: edges removed.
    #[arg(long, default_value_t = 45)]
    pub k: usize,
    /// Relaxation: samples per puzzle (at most 100000).
    #[arg(long, default_value_t = 200)]
    pub samples: usize,
    /// Seed of every randomized metric.
    #[arg(long, default_value_t = sudolab::seed::DEFAULT_SEED)]
    pub seed: u64,
    /// Relaxation: solution cap.
    #[arg(long, default_value_t = 1000)]
    pub cap: u64,
    /// With -o FILE and --format jsonl: keep the rows already in FILE (same
    /// parameters, same input) and append the others.
    #[arg(long)]
    pub resume: bool,
    /// Include the per-cell fixedness map in relax metrics.
    #[arg(long)]
    pub fixedness: bool,
    /// Skip a puzzle equivalent (same canonical form: relabelling, row,
    /// column, band, stack permutations, transpose) to one on an earlier
    /// input line, reported on stderr with both line numbers; 4×4 and 9×9
    /// only.
    #[arg(long)]
    pub dedup: bool,
}

pub fn run(args: AnalyzeArgs) -> Result<u8> {
    let opts = AnalyzeOptions {
        groups: parse_metric_groups(&args.metrics)?,
        relax: RelaxOptions {
            k: args.k,
            samples: args.samples,
            seed: args.seed,
            cap: args.cap,
            engines: Engines::default(),
            verify: relax::default_verify(args.samples),
            verify_by: Default::default(),
        },
        rate_seed: args.seed,
        fixedness: args.fixedness,
        dedup: args.dedup,
    };
    opts.check()
        .map_err(|e| anyhow::anyhow!("--samples: {e}"))?;
    super::at_most("--samples", args.samples, super::MAX_SAMPLES)?;
    let out = &args.common.out;
    out.check()?;
    let spec = resume::RowSpec::analyze(&opts.params())?;
    let streaming = resume::streams(out);
    let (mut writer, done) = if streaming {
        let params = match serde_json::to_value(opts.params())? {
            serde_json::Value::Object(params) => params,
            _ => serde_json::Map::new(),
        };
        let record = resume::record("analyze", params, &args.common)?;
        let (w, d) = resume::open(out, args.resume, &spec, &record)?;
        (Some(w), d)
    } else if args.resume {
        anyhow::bail!("--resume needs -o FILE with --format jsonl");
    } else {
        (None, resume::DoneRows::default())
    };
    let pb = progress::bar(0, "puzzles");
    let mut rows = Vec::new();
    let mut window = |puzzles: Vec<(usize, sudolab::grid::Puzzle)>| -> Result<Option<u8>> {
        if opts.groups.contains(&sudolab::metrics::MetricGroup::Relax) {
            super::check_k_fits("--k", &[args.k], &puzzles)?;
        }
        let mut todo = Vec::with_capacity(puzzles.len());
        for (line, p) in puzzles {
            if !done.contains(&resume::RowKey::new(line, &[]), &p.to_line())? {
                todo.push((line, p));
            }
        }
        pb.inc_length(todo.len() as u64);
        // Chunks of 64 stream results in input order.
        for chunk in todo.chunks(64) {
            let results: Vec<_> = chunk
                .par_iter()
                .map(|(line, p)| {
                    let r = analyze(p, &opts);
                    pb.inc(1);
                    (*line, r)
                })
                .collect();
            for (line, r) in results {
                let row = match r {
                    Ok(row) => row,
                    Err(d) => {
                        pb.finish_and_clear();
                        note!("sudolab: ENGINE DISAGREEMENT (bug) at input line {line}: {d}");
                        return Ok(Some(EXIT_DISAGREE));
                    }
                };
                match writer.as_mut() {
                    Some(w) => w.write(line, &row)?,
                    None => rows.push(Lined { line, row }),
                }
            }
        }
        Ok(None)
    };
    // --dedup needs every canonical form, so it reads the whole input first;
    // otherwise the input is read a window at a time.
    let (mut loaded, stopped) = if args.dedup {
        let mut loaded = load(&args.common)?;
        drop_equivalents(&args.common, &mut loaded)?;
        let puzzles = std::mem::take(&mut loaded.puzzles);
        let stopped = window(puzzles)?;
        (loaded, stopped)
    } else {
        load_windows(&args.common, |_, puzzles| window(puzzles))?
    };
    if let Some(code) = stopped {
        return Ok(code);
    }
    pb.finish_and_clear();
    match writer {
        Some(w) => w.finish()?,
        None => out.emit(&rows, text_table)?,
    }
    Ok(loaded.finish())
}

/// The headline metrics of each group as a table (every field is in
/// `--format jsonl|json|csv`).
fn text_table(rows: &[Lined<AnalysisRow>]) -> String {
    let f = |x: Option<f64>| x.map_or_else(|| "-".into(), |x| format!("{x:.2}"));
    let mut header = vec!["line", "puzzle"];
    let has = |pick: fn(&AnalysisRow) -> bool| rows.iter().any(|r| pick(&r.row));
    let (clauses, relax, rate, score) = (
        has(|r| r.clauses.is_some()),
        has(|r| r.relax.is_some()),
        has(|r| r.rate.is_some()),
        has(|r| r.score.is_some()),
    );
    if clauses {
        header.push("short_pct");
    }
    if relax {
        header
            .extend([Metric::MeanFixed, Metric::PUnique, Metric::MeanSolutions].map(Metric::name));
    }
    if rate {
        header.extend([
            "sisus_ref",
            "oracle",
            Metric::Hsolve.name(),
            "nishio4",
            "weights",
        ]);
    }
    if score {
        header.extend(["score", "level", "se_equiv"]);
    }
    header.push("errors");
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|Lined { line, row }| {
            let mut cells = vec![
                line.to_string(),
                row.label.clone().unwrap_or_else(|| row.puzzle.clone()),
            ];
            if clauses {
                cells.push(f(row.clauses.as_ref().map(|c| c.short_pct)));
            }
            if relax {
                let r = row.relax.as_ref();
                cells.push(f(r.map(|r| r.mean_fixed)));
                cells.push(f(r.map(|r| r.p_unique)));
                cells.push(r.map_or_else(
                    || "-".into(),
                    |r| {
                        format!(
                            "{}{:.2}",
                            if r.capped > 0 { ">=" } else { "" },
                            r.mean_solutions
                        )
                    },
                ));
            }
            if rate {
                let r = row.rate.as_ref();
                cells.push(f(r.and_then(|r| r.sisus_refutation_sum)));
                cells.push(
                    r.and_then(|r| r.oracle_level)
                        .map_or_else(|| "-".into(), |l| l.to_string()),
                );
                cells.push(f(r.and_then(|r| r.hsolve)));
                cells.push(f(r.and_then(|r| r.nishio4)));
                cells.push(
                    r.and_then(|r| r.weights_score)
                        .map_or_else(|| "-".into(), |w| w.to_string()),
                );
            }
            if score {
                let s = row.score.as_ref();
                cells.push(f(s.map(|s| s.score)));
                cells.push(s.map_or_else(|| "-".into(), |s| s.score_level.clone()));
                cells.push(
                    s.and_then(|s| s.se_equivalent)
                        .map_or_else(|| "-".into(), |x| format!("{x:.1}")),
                );
            }
            let errors: Vec<String> = row
                .errors
                .iter()
                .map(|(group, why)| format!("{group}: {why}"))
                .chain(
                    row.rate
                        .iter()
                        .flat_map(|r| &r.status)
                        .map(|(model, why)| format!("{model}: {why}")),
                )
                .collect();
            cells.push(errors.join("; "));
            cells
        })
        .collect();
    sudolab::report::text_table(&header, &table)
}
