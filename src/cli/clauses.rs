//! `sudolab clauses`: clause-length distribution of the ALO clauses.

use super::{Common, load};
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use sudolab::cnf::{
    ClassCuts, ClauseRow, Encoding, MeanDistribution, clause_row, mean_distribution,
};
use sudolab::report::{Format, chart::bar, render_rows};

#[derive(Debug, Args)]
pub struct ClausesArgs {
    #[command(flatten)]
    pub common: Common,
    /// Encoding whose ALO clauses are counted: min (candidate-based, Patti's histogram), max or lo-min.
    #[arg(long, short = 'e', value_enum, default_value_t = Encoding::default())]
    pub encoding: Encoding,
    /// Upper bounds of the short and medium classes, e.g. 3,6 (default:
    /// Patti's 2,5 for 9×9, scaled for other orders).
    #[arg(long)]
    pub cuts: Option<String>,
}

#[derive(Serialize)]
struct Summary<'a> {
    rows: &'a [ClauseRow],
    mean: Option<MeanDistribution>,
}

pub fn run(args: ClausesArgs) -> Result<u8> {
    let cuts_flag = args
        .cuts
        .as_deref()
        .map(ClassCuts::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!("--cuts: {e}"))?;
    let out = &args.common.out;
    out.check()?;
    let mut loaded = load(&args.common)?;
    let mut rows = Vec::new();
    let puzzles = std::mem::take(&mut loaded.puzzles);
    for (line, p) in &puzzles {
        let cuts = cuts_flag.unwrap_or_else(|| ClassCuts::patti(p.side()));
        match clause_row(p, args.encoding, cuts) {
            Ok(r) => rows.push(r),
            Err(e) => loaded.refuse(*line, e)?,
        }
    }
    let mean = if rows.len() > 1 {
        mean_distribution(&rows)
    } else {
        None
    };
    let text = match out.format {
        Format::Text => render_text(&rows, mean.as_ref()),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&Summary { rows: &rows, mean })?;
            s.push('\n');
            s
        }
        f => render_rows(&rows, f)?,
    };
    out.write(&text)?;
    Ok(loaded.finish())
}

fn render_text(rows: &[ClauseRow], mean: Option<&MeanDistribution>) -> String {
    let mut s = String::new();
    for r in rows {
        let c = &r.counts;
        let total: u64 = c.alo_lengths.iter().sum();
        s.push_str(&format!(
            "{}{}\n  encoding {}: {} variables, {} clauses, {} ALO clauses\n",
            r.puzzle,
            r.label
                .as_ref()
                .map(|l| format!("  {l}"))
                .unwrap_or_default(),
            r.encoding,
            c.variables,
            c.clauses,
            total
        ));
        let max = c.alo_lengths.iter().copied().max().unwrap_or(0).max(1);
        for (i, &n) in c.alo_lengths.iter().enumerate() {
            let pct = if total > 0 {
                100.0 * n as f64 / total as f64
            } else {
                0.0
            };
            s.push_str(&format!(
                "  len {:>2} {:>5} {:>5.1}% {}\n",
                i + 1,
                n,
                pct,
                bar(n as f64 / max as f64, 40)
            ));
        }
        s.push_str(&format!(
            "  short {:.1}%  medium {:.1}%  long {:.1}%\n\n",
            c.short_pct, c.medium_pct, c.long_pct
        ));
    }
    if let Some(m) = mean {
        s.push_str(&format!("mean over {} puzzles:\n", m.puzzles));
        for (i, p) in m.mean_length_pct.iter().enumerate() {
            s.push_str(&format!(
                "  len {:>2} {:>5.1}% {}\n",
                i + 1,
                p,
                bar(p / 100.0, 40)
            ));
        }
        s.push_str(&format!(
            "  short {:.1}%  medium {:.1}%  long {:.1}%\n",
            m.short_pct, m.medium_pct, m.long_pct
        ));
    }
    s
}
