//! `sudolab clauses`: clause-length distribution of the ALO clauses.

use super::text;
use super::{Common, load};
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use sudolab::Format;
use sudolab::{ClassCuts, ClauseRow, Encoding};
use sudolab::{MeanDistribution, mean_distribution};

#[derive(Debug, Args)]
pub(super) struct ClausesArgs {
    #[command(flatten)]
    pub common: Common,
    /// Encoding whose ALO clauses are counted: min (candidate-based, Patti's histogram), max or lo-min.
    #[arg(long, short = 'e', value_parser = crate::cli::values::parser::<Encoding>(), default_value_t = Encoding::default())]
    pub encoding: Encoding,
    /// Upper bounds of the short and medium classes, e.g. 3,6 (default:
    /// Patti's 2,5 for 9×9, scaled for other orders).
    #[arg(long)]
    pub cuts: Option<String>,
    /// Only the mean distribution over the puzzles (a data set's histogram),
    /// without a histogram per puzzle: text, one JSON object, or one
    /// JSONL/CSV row.
    #[arg(long)]
    pub summary: bool,
}

#[derive(Serialize)]
struct Summary<'a> {
    rows: &'a [ClauseRow],
    mean: Option<MeanDistribution>,
}

pub(super) fn run(args: ClausesArgs) -> Result<u8> {
    let cuts_flag = args
        .cuts
        .as_deref()
        .map(ClassCuts::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!("--cuts: {e}"))?;
    let out = &args.common.out;
    args.common.paths().check()?;
    let mut loaded = load(&args.common)?;
    let mut rows = Vec::new();
    let puzzles = std::mem::take(&mut loaded.puzzles);
    for (line, p) in &puzzles {
        let cuts = cuts_flag.unwrap_or_else(|| ClassCuts::patti(p.side()));
        match ClauseRow::of(p, args.encoding, cuts) {
            Ok(r) => rows.push(r),
            Err(e) => loaded.refuse(*line, e)?,
        }
    }
    let mean = if rows.len() > 1 || args.summary {
        mean_distribution(&rows)
    } else {
        None
    };
    if args.summary {
        let text = match (out.format, &mean) {
            (Format::Text, _) => text::clauses_text(&[], mean.as_ref()),
            (Format::Json, Some(m)) => serde_json::to_string_pretty(m)? + "\n",
            (Format::Json, None) => "null\n".to_string(),
            (f, m) => f.render(m.as_slice())?,
        };
        out.write(&text)?;
        return Ok(loaded.finish());
    }
    let text = match out.format {
        Format::Text => text::clauses_text(&rows, mean.as_ref()),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&Summary { rows: &rows, mean })?;
            s.push('\n');
            s
        }
        f => f.render(&rows)?,
    };
    out.write(&text)?;
    Ok(loaded.finish())
}
