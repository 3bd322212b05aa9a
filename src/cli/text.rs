//! The text renderings of the command line's rows: one function per row
//! type, beside the JSON, JSON Lines and CSV that [`Format::render`](sudolab::Format::render)
//! gives every row. Each returns the whole text (a table's first line is its
//! header), so a command can render its rows window by window.

use super::chart::{bar, shade};
use sudolab::ClauseRow;
use sudolab::FillOrderRow;
use sudolab::Lined;
use sudolab::MeanDistribution;
use sudolab::{AnalysisRow, RatedRow};
use sudolab::{ClassifyReport, EvalReport, FitReport};
use sudolab::{Metric, MetricValue};
use sudolab::{RelaxReport, RelaxSummary, SweepReport};
use sudolab::{ScoreFitHeldOut as HeldOut, ScoreFitReport};
use sudolab::{ScoreRow, SeBy};

/// The mark of a value outside the data its model was fitted on.
///
/// Unmarked values carry as many spaces, so the numbers of a right-aligned
/// column stay aligned whether or not a row is marked.
fn extrapolated(flag: bool) -> &'static str {
    if flag {
        " extrapolated"
    } else {
        "             "
    }
}

/// The text table of score rows; `calibrated` names the scale of the
/// calibrated level column, given when `with_level`.
/// Berthier's ratings in one cell: `W3 B3` inside T&E(1), `BxB5` inside
/// T&E(2), `BxBB2` inside T&E(3); `-` when none was rated.
fn berthier_cell(b: &sudolab::BerthierColumns) -> String {
    let named = [
        ("W", b.w_rating),
        ("B", b.b_rating),
        ("BxB", b.bxb),
        ("BxBB", b.bxbb),
    ];
    let rated: Vec<String> = named
        .iter()
        .filter_map(|(name, v)| v.map(|v| format!("{name}{v}")))
        .collect();
    if rated.is_empty() {
        "-".into()
    } else {
        rated.join(" ")
    }
}

pub(crate) fn score_table(rows: &[ScoreRow], calibrated: &str, with_level: bool) -> String {
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut cells = vec![
                r.label.clone().unwrap_or_else(|| r.puzzle.clone()),
                format!("{:.2}", r.score.score),
                r.score.score_level.clone(),
                r.score
                    .se_equivalent
                    // Serate's own ER is no extrapolation of the score's curve.
                    .map(|x| {
                        let placed = r.score.se_by != Some(SeBy::Serate);
                        format!("{x:.1}{}", extrapolated(r.score.extrapolated && placed))
                    })
                    .unwrap_or_else(|| "-".into()),
                r.score.se_by.map_or("-", SeBy::name).to_string(),
                r.trial_depth.map_or_else(|| "-".into(), |d| d.to_string()),
                berthier_cell(&r.berthier),
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
    let mut header = vec![
        "puzzle",
        "score",
        "level",
        Metric::SeEquivalent.name(),
        Metric::SeBy.name(),
        Metric::TrialDepth.name(),
        "berthier",
        "minutes",
    ];
    if with_level {
        header.push(&level_col);
    }
    let mut s: String = text_table(&header, &table)
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    s.push_str(SCORE_LEGEND);
    s
}

/// What the score's text table shows, under it (the formats that carry
/// every field leave it out; `docs/score.md` has the details).
const SCORE_LEGEND: &str = "\
level: the score on the sites' levels (--scale N for more); past Hard everything is Expert, from \
about SE 4 to the top, where se_equivalent and trial_depth separate the hardest
se_equivalent: Sudoku Explainer's rating (serate's ER; se_by says when it is the score's \
placement instead); trial_depth: how deep assumptions must nest (T&E depth)
berthier: Berthier's ratings, the longest chain the simplest-first path needs: W (whips) and B (braids) inside T&E(1), BxB inside T&E(2), BxBB inside T&E(3) (docs/raters.md)
minutes: typical mean solving time of Cloud Sudoku players, with the band half of them fall in; \
a model of people's time (the score and effort terms); \"extrapolated\": a score above every \
timed puzzle, whose minutes grow with se_equivalent from those of the hardest timed puzzles
";

/// A rating with two decimals, `-` when missing.
fn fmt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "-".into())
}

/// The text table of rated rows: the headline value of each model and the
/// score's answers (score with its level, SE-equivalent, predicted minutes),
/// each column named as its CSV/JSON column.
pub(crate) fn rate_table(rows: &[RatedRow]) -> String {
    let shown = |v: Option<MetricValue>, decimals: usize| match v {
        Some(MetricValue::Number(x)) => format!("{x:.decimals$}"),
        Some(MetricValue::Count(n)) => n.to_string(),
        Some(MetricValue::Text(t)) => t,
        Some(MetricValue::Bool(b)) => b.to_string(),
        Some(MetricValue::List(_)) | None => "-".into(),
    };
    // Berthier's ratings are columns when the model ran (`-m berthier`).
    const BERTHIER: [Metric; 4] = [Metric::WRating, Metric::BRating, Metric::Bxb, Metric::Bxbb];
    let berthier = rows
        .iter()
        .any(|r| r.rate.ratings.value(Metric::BerthierStatus).is_some());
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|RatedRow { rate: r, score }| {
            let score_value = |m: Metric, decimals: usize| {
                shown(score.as_ref().and_then(|s| s.value(m)), decimals)
            };
            let berthier_values = BERTHIER
                .iter()
                .filter(|_| berthier)
                .map(|&m| shown(r.ratings.value(m), 0));
            let mut row = vec![
                r.label.clone().unwrap_or_else(|| r.puzzle.clone()),
                r.ratings
                    .baseline
                    .givens
                    .map(|g| g.to_string())
                    .unwrap_or_else(|| "-".into()),
                r.ratings
                    .baseline
                    .backtracks
                    .map(|g| g.to_string())
                    .unwrap_or_else(|| "-".into()),
                fmt(r.ratings.sisus.refutation_sum.map(|e| e.mean)),
                fmt(r.ratings.sisus.dependency.map(|e| e.mean)),
                match (&r.ratings.oracle.score, &r.ratings.oracle.level) {
                    (Some(s), Some(l)) => format!("{s:.2} {l}"),
                    _ => "-".into(),
                },
                fmt(r.ratings.hsolve.difficulty.map(|e| e.mean)),
                fmt(r.ratings.nishio.nishio4.map(|e| e.mean)),
                r.ratings
                    .weights
                    .score
                    .map(|w| format!("{w} {}", r.ratings.weights.level.map_or("", |l| l.name())))
                    .unwrap_or_else(|| "-".into()),
                r.ratings
                    .weights
                    .hardest_technique
                    .map_or("-", |t| t.name())
                    .to_string(),
                shown(r.ratings.value(Metric::Serate), 1),
            ];
            row.extend(berthier_values);
            row.extend([
                score
                    .as_ref()
                    .map(|s| format!("{:.2} {}", s.score, s.score_level))
                    .unwrap_or_else(|| "-".into()),
                score_value(Metric::SeEquivalent, 1),
                score_value(Metric::SeBy, 0),
                score_value(Metric::Minutes, 1),
                r.ratings
                    .status()
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join("; "),
            ]);
            row
        })
        .collect();
    let mut header = vec![
        "puzzle",
        Metric::Givens.name(),
        Metric::Backtracks.name(),
        Metric::SisusRefutationSum.name(),
        Metric::SisusDependency.name(),
        Metric::OracleScore.name(),
        Metric::Hsolve.name(),
        Metric::Nishio4.name(),
        Metric::WeightsScore.name(),
        Metric::HardestTechnique.name(),
        Metric::Serate.name(),
    ];
    header.extend(BERTHIER.iter().filter(|_| berthier).map(|m| m.name()));
    header.extend([
        Metric::Score.name(),
        Metric::SeEquivalent.name(),
        Metric::SeBy.name(),
        Metric::Minutes.name(),
        "status",
    ]);
    text_table(&header, &table)
}

/// The headline metrics of each group as a table (every field is in
/// `--format jsonl|json|csv`).
pub(crate) fn analyze_table(rows: &[Lined<AnalysisRow>]) -> String {
    let mut notes = AnalyzeNotes::default();
    notes.count(rows);
    analyze_rows(rows, AnalyzeColumns::of_rows(rows)) + &notes.text()
}

/// Which groups' columns an `analyze` table shows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AnalyzeColumns {
    clauses: bool,
    /// The relaxation's: its legend goes under the table.
    pub(crate) relax: bool,
    rate: bool,
    score: bool,
}

impl AnalyzeColumns {
    /// The groups some of `rows` hold.
    fn of_rows(rows: &[Lined<AnalysisRow>]) -> AnalyzeColumns {
        let has = |pick: fn(&AnalysisRow) -> bool| rows.iter().any(|r| pick(&r.row));
        AnalyzeColumns {
            clauses: has(|r| r.clauses.is_some()),
            relax: has(|r| r.relax.is_some()),
            rate: has(|r| r.rate.is_some()),
            score: has(|r| r.score.is_some()),
        }
    }

    /// The groups a run computes: the same columns in every window of a
    /// table written as its rows come.
    pub(crate) fn of_groups(groups: &[sudolab::MetricGroup]) -> AnalyzeColumns {
        use sudolab::MetricGroup as G;
        AnalyzeColumns {
            clauses: groups.contains(&G::Clauses),
            relax: groups.contains(&G::Relax),
            rate: groups.iter().any(|g| matches!(g, G::Rate(_))),
            score: groups.contains(&G::Score),
        }
    }
}

/// The rows of an `analyze` table with `columns`, without the notes under
/// it ([`AnalyzeNotes`]).
pub(crate) fn analyze_rows(rows: &[Lined<AnalysisRow>], columns: AnalyzeColumns) -> String {
    let f = |x: Option<f64>| x.map_or_else(|| "-".into(), |x| format!("{x:.2}"));
    let mut header = vec!["line", "puzzle"];
    let AnalyzeColumns {
        clauses,
        relax,
        rate,
        score,
    } = columns;
    if clauses {
        header.push("short_pct");
    }
    if relax {
        // `k` per row: with `--k auto` each puzzle has its own.
        header.extend(
            [
                Metric::K,
                Metric::MeanFixed,
                Metric::PUnique,
                Metric::MeanSolutions,
                Metric::SawNothing,
            ]
            .map(Metric::name),
        );
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
                cells.extend(relax_cells(row.relax.as_ref()));
            }
            if rate {
                let r = row.rate.as_ref();
                cells.push(f(r.and_then(|r| r.sisus.refutation_sum).map(|e| e.mean)));
                cells.push(
                    r.and_then(|r| r.oracle.level)
                        .map_or_else(|| "-".into(), |l| l.to_string()),
                );
                cells.push(f(r.and_then(|r| r.hsolve.difficulty).map(|e| e.mean)));
                cells.push(f(r.and_then(|r| r.nishio.nishio4).map(|e| e.mean)));
                cells.push(
                    r.and_then(|r| r.weights.score)
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
                        .flat_map(|r| r.status())
                        .map(|(model, why)| format!("{model}: {why}")),
                )
                .collect();
            cells.push(errors.join("; "));
            cells
        })
        .collect();
    text_table(&header, &table)
}

/// The relaxation cells of an `analyze` row: k, mean fixed, P(unique),
/// mean solutions (`>=` when capped) and whether it saw nothing.
fn relax_cells(r: Option<&RelaxSummary>) -> [String; 5] {
    let Some(r) = r else {
        return std::array::from_fn(|_| "-".into());
    };
    [
        r.k.to_string(),
        format!("{:.2}", r.mean_fixed),
        format!("{:.2}", r.p_unique),
        format!(
            "{}{:.2}",
            if r.capped > 0 { ">=" } else { "" },
            r.mean_solutions
        ),
        if r.saw_nothing { "yes" } else { "no" }.into(),
    ]
}

/// The notes under an `analyze` table, counted a window of rows at a
/// time: the rows that saw nothing ([`Saturation`]) and the lines whose
/// precision was not reached (only their numbers are held).
#[derive(Default)]
pub(crate) struct AnalyzeNotes {
    pub(crate) saturation: Saturation,
    unreached: Vec<usize>,
    /// The precision and samples asked (from the first row).
    asked: Option<(f64, usize)>,
}

impl AnalyzeNotes {
    /// Counts `rows`.
    pub(crate) fn count(&mut self, rows: &[Lined<AnalysisRow>]) {
        self.saturation.count(rows.iter().map(|r| &r.row));
        if let Some(first) = rows.first().filter(|_| self.asked.is_none()) {
            let p = &first.row.params;
            self.asked = Some((
                p.precision.unwrap_or_default(),
                p.samples.unwrap_or_default(),
            ));
        }
        self.unreached.extend(
            rows.iter()
                .filter(|r| r.row.precision_reached == Some(false))
                .map(|r| r.line),
        );
    }

    /// The notes, one a line (empty: none).
    pub(crate) fn text(&self) -> String {
        let mut text = String::new();
        if let Some(note) = self.saturation.note() {
            text.push_str(&note);
            text.push('\n');
        }
        if let (Some((precision, samples)), false) = (self.asked, self.unreached.is_empty()) {
            let lines: Vec<String> = self.unreached.iter().map(usize::to_string).collect();
            text.push_str(&format!(
                "NOTE: line(s) {}: the precision ±{precision} cells was not reached within {samples} samples (raise --samples for a narrower interval; precision_reached is false in -f jsonl).\n",
                lines.join(", "),
            ));
        }
        text
    }
}

/// One relaxation as text: its summary and the fixedness map.
/// What a relaxation's words mean, printed once under the text of `relax`
/// and of `analyze` with the relax group (never in JSON, JSON Lines or
/// CSV): a reader of the headline output meets `k`, "fixed", "mean extra"
/// and "capped" before any documentation.
pub(crate) const RELAX_LEGEND: &str = "\
Legend (docs/relaxation.md):
  k           random edges of the Sudoku graph removed in each sample; --k auto takes
              each puzzle's onset, where P(unique) falls through one half
  samples     relaxations drawn per puzzle (relax draws 1000 by default, analyze and
              report 200: pass --samples to compare them; relax stops after 30 or
              more when they already show saturation, unless --all-samples)
  fixed       a non-given cell that keeps its value in every solution of a sample
  mean extra  mean solutions besides the puzzle's own
  capped      samples whose count stopped at --cap: the means are then lower bounds
";

pub(crate) fn relax_text(r: &RelaxReport) -> String {
    let mut s = String::new();
    let name = r.label.clone().unwrap_or_default();
    s.push_str(&format!("{}  {}\n", r.puzzle, name));
    let by: Vec<String> = r.verified_by.iter().map(|e| e.to_string()).collect();
    s.push_str(&format!(
        "k = {}, {} samples{}, seed {}, cap {}, engine {} ({} samples re-checked by {}, all agree)\n",
        r.summary.k,
        r.summary.samples,
        match (r.precision, r.stopped_saturated) {
            (_, true) => " (stopped: these already show saturation; --all-samples draws them all)".into(),
            (Some(e), false) => format!(" (mean fixed to ±{e} cells)"),
            (None, false) => String::new(),
        },
        r.seed,
        r.summary.cap,
        r.engine,
        r.verified,
        by.join(" and ")
    ));
    let sm = &r.summary;
    let givens = given_chars(&r.puzzle, sm.fixedness.len());
    let empty = givens.iter().filter(|g| g.is_none()).count();
    s.push_str(&format!(
        "mean solutions {:.3}{}  median {}  mean extra {:.3}  P(unique) {:.3} [{:.3}, {:.3}]  mean fixed {:.1}{} of {} empty cells  capped {}{}\n",
        sm.mean_solutions,
        if sm.capped > 0 { " (lower bound)" } else { "" },
        sm.median_solutions,
        sm.mean_extra,
        sm.p_unique,
        sm.p_unique_low,
        sm.p_unique_high,
        sm.mean_fixed,
        match (sm.mean_fixed_low, sm.mean_fixed_high) {
            (Some(lo), Some(hi)) => format!(" [{lo:.1}, {hi:.1}]"),
            _ => String::new(),
        },
        empty,
        sm.capped,
        if sm.saturated > 0 {
            format!(
                " ({} past 2^64 - 1: counts saturated, not exact)",
                sm.saturated
            )
        } else {
            String::new()
        }
    ));
    s.push_str("fixedness, % of samples in which the cell is fixed ([d] = given d):\n");
    let side = (sm.fixedness.len() as f64).sqrt().round() as usize;
    let n = (side as f64).sqrt().round() as usize;
    for row in 0..side {
        if row > 0 && row % n == 0 {
            s.push_str(&format!("  {}\n", vec!["-".repeat(5 * n); n].join("+")));
        }
        s.push_str("  ");
        for col in 0..side {
            if col > 0 && col % n == 0 {
                s.push('|');
            }
            let c = row * side + col;
            if let Some(Some(ch)) = givens.get(c) {
                s.push_str(&format!(" [{ch}] "));
            } else {
                let f = sm.fixedness[c];
                s.push_str(&format!("{}{:>3}%", shade(f), (f * 100.0).round() as u32));
            }
        }
        s.push('\n');
    }
    s.push_str("(95 % intervals in brackets: Wilson for P(unique), Student's t for mean fixed)\n");
    if let Some(note) = saw_nothing_note(sm) {
        s.push_str(&note);
    }
    if let (Some(e), Some(false)) = (r.precision, r.precision_reached) {
        s.push_str(&format!(
            "NOTE: the precision ±{e} cells was not reached within {} samples (raise --samples for a narrower interval).\n",
            sm.samples
        ));
    }
    s.push('\n');
    s
}

/// The given of each of a row's `cells` cells, as its puzzle line writes
/// it: a givens line character by character, a pencilmark line (N³
/// characters, `docs/methods.md` §0.1) read back for its givens.
fn given_chars(line: &str, cells: usize) -> Vec<Option<char>> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() == cells {
        return chars
            .into_iter()
            .map(|ch| (ch != '.').then_some(ch))
            .collect();
    }
    let givens_line = sudolab::parse_puzzle(line)
        .ok()
        .and_then(|p| sudolab::Puzzle::from_cells(p.order(), p.cells().to_vec()).ok())
        .map(|p| p.to_line());
    match givens_line {
        Some(givens) => given_chars(&givens, cells),
        None => vec![None; cells],
    }
}

/// How many relaxed rows saw nothing (most samples capped or fixing no
/// cell), counted as the rows pass, for the note under the table or on
/// standard error.
#[derive(Default)]
pub(crate) struct Saturation {
    relaxed: usize,
    saw_nothing: usize,
    ks: std::collections::BTreeSet<usize>,
}

impl Saturation {
    pub(crate) fn count<'a>(&mut self, rows: impl Iterator<Item = &'a AnalysisRow>) {
        for r in rows.filter_map(|row| row.relax.as_ref()) {
            self.relaxed += 1;
            if r.saw_nothing {
                self.saw_nothing += 1;
                self.ks.insert(r.k);
            }
        }
    }

    /// The note when some rows saw nothing: how many, and what it means.
    pub(crate) fn note(&self) -> Option<String> {
        (self.saw_nothing > 0).then(|| saturation_note(self.saw_nothing, self.relaxed, &self.ks))
    }
}

/// The note under a data set's rows when `saw_nothing` of its `relaxed`
/// rows saw nothing at the k values `ks`: their relaxation columns are
/// saturation, not findings.
fn saturation_note(
    saw_nothing: usize,
    relaxed: usize,
    ks: &std::collections::BTreeSet<usize>,
) -> String {
    let ks: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
    format!(
        "NOTE: {saw_nothing} of {relaxed} relaxed puzzles ({:.1} %) saw nothing at k = {}: most of their samples are capped or fix no cell, so their relaxation columns show saturation, not a finding (saw_nothing; --k auto relaxes each puzzle at its onset).",
        100.0 * saw_nothing as f64 / relaxed.max(1) as f64,
        ks.join(", ")
    )
}

/// The note under a row that saw nothing: most samples capped or fixing no
/// cell, so its 0 % are saturation, with the `k` where relaxation begins.
fn saw_nothing_note(sm: &RelaxSummary) -> Option<String> {
    if !sm.saw_nothing {
        return None;
    }
    let onset = match sm.relaxation_onset_k {
        Some(k0) => format!(
            " This puzzle's relaxation begins at k = {k0} (where P(unique) falls through one half); relax there with --k auto."
        ),
        None => String::new(),
    };
    Some(format!(
        "NOTE: {:.0} % of the samples are capped or fix no cell: k = {} relaxes this puzzle past what the method can show, so the map shows saturation, not a finding.{onset}\n",
        sm.p_nothing * 100.0,
        sm.k
    ))
}

/// Sweeps as text: a table of the points and the fits of each puzzle.
pub(crate) fn sweep_text(sweeps: &[(usize, SweepReport)]) -> String {
    let mut s = String::new();
    for (_, sw) in sweeps {
        s.push_str(&format!(
            "{}  {}\n",
            sw.puzzle,
            sw.label.clone().unwrap_or_default()
        ));
        let rows: Vec<Vec<String>> = sw
            .points
            .iter()
            .map(|p| {
                let sm = &p.summary;
                vec![
                    sm.k.to_string(),
                    format!("{:.3}", sm.mean_solutions),
                    format!("{:.3}", sm.mean_extra),
                    format!("{}", sm.median_solutions),
                    format!("{:.3}", sm.p_unique),
                    format!("{:.2}", sm.mean_fixed),
                    sm.capped.to_string(),
                    p.verified.to_string(),
                ]
            })
            .collect();
        s.push_str(&text_table(
            &[
                "k",
                "mean_solutions",
                "mean_extra",
                "median",
                Metric::PUnique.name(),
                Metric::MeanFixed.name(),
                "capped",
                "verified",
            ],
            &rows,
        ));
        let ks = |ks: &[usize]| {
            ks.iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let pf = &sw.paper_fit;
        let capped = if pf.capped_k.is_empty() {
            String::new()
        } else {
            format!(
                "; k = {} left out: capped samples make their mean a lower bound",
                ks(&pf.capped_k)
            )
        };
        match &pf.fit {
            Some(f) => s.push_str(&format!(
                "Fig. 8 fit: mean extra ≈ {:.4}·e^(k/{:.2})  (R² of ln fit {:.3}, k = {}{})\n",
                f.c,
                f.lambda,
                f.r2,
                ks(&pf.fitted_k),
                capped
            )),
            None => s.push_str(&format!(
                "Fig. 8 fit: none (needs two exact points with extra solutions, has {}{})\n",
                if pf.fitted_k.is_empty() {
                    "none".to_string()
                } else {
                    format!("k = {}", ks(&pf.fitted_k))
                },
                capped
            )),
        }
        let blind: Vec<usize> = sw
            .points
            .iter()
            .filter(|p| p.summary.saw_nothing)
            .map(|p| p.summary.k)
            .collect();
        if let Some(first) = sw.points.iter().find(|p| p.summary.saw_nothing) {
            s.push_str(&format!(
                "NOTE: at k = {} most samples are capped or fix no cell (saturation, not a finding){}\n",
                ks(&blind),
                first
                    .summary
                    .relaxation_onset_k
                    .map(|k0| format!("; this puzzle's relaxation begins at k = {k0}"))
                    .unwrap_or_default()
            ));
        }
        match &sw.fit {
            Some(f) => s.push_str(&format!(
                "fit of mean_solutions, original and every k included: mean ≈ {:.4}·e^(k/{:.2})  (R² of ln fit {:.3}, {} points)\n\n",
                f.c, f.lambda, f.r2, f.points
            )),
            None => s.push_str(
                "fit of mean_solutions, original and every k included: none (the mean does not grow over this range)\n\n",
            ),
        }
    }
    s
}

/// `sudolab clauses`: each puzzle's ALO clause lengths as bars, and the
/// mean distribution over them when given.
pub(crate) fn clauses_text(rows: &[ClauseRow], mean: Option<&MeanDistribution>) -> String {
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

/// `sudolab order`: the two fill orders side by side and the SiSuS
/// possibilities per step, per puzzle.
pub(crate) fn order_text(rows: &[FillOrderRow]) -> String {
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

/// `eval`: the correlation table with its intervals, then each contingency
/// table (label level × equal-count metric bin) with its χ² test.
pub(crate) fn eval_text(report: &EvalReport, bootstrap: usize, seed: u64) -> String {
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
    let intervals = if bootstrap == 0 {
        "no bootstrap intervals (--bootstrap 0)".to_string()
    } else {
        format!(
            "95% bootstrap intervals, {} resamples, seed {}",
            bootstrap, seed
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
            "\n{}: label level × equal-count metric bin (edges {}); χ² = {} df {} p = {}\n",
            c.metric,
            rounded_list(&c.bin_edges),
            fmt_opt(c.chi2),
            c.df.map(|d| d.to_string()).unwrap_or_else(|| "-".into()),
            c.p_value
                .map(|p| format!("{p:.3e}"))
                .unwrap_or_else(|| "-".into())
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

/// `classify`: the classes with their ranges and counts, then one row per
/// label group (mean, median, their classes, the class shares).
pub(crate) fn classify_text(report: &ClassifyReport) -> String {
    let sm = &report.summary;
    let mut s = format!(
        "{} by {} ({} bins, {}); edges {}; {} puzzles, {} without a value\n",
        sm.metric,
        sm.method,
        sm.bins,
        sm.direction,
        rounded_list(&sm.edges),
        sm.n,
        sm.n_missing
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
                    fmt_opt(Some(g.mean)),
                    fmt_opt(Some(g.median)),
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

/// `fit`: the fitted combination and its train and test correlations.
pub(crate) fn fit_text(r: &FitReport) -> String {
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
fn term_rows(terms: &[sudolab::ScoreTerm]) -> Vec<Vec<String>> {
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

/// `fit --score`: the fitted score model, its selection and validation.
pub(crate) fn score_fit_text(r: &ScoreFitReport) -> String {
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
                super::join_metrics(&st.metrics, ","),
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
            let b = &time.beyond;
            s.push_str(&format!(
                "{name} time: ln(seconds) = {:.4} {:+.4}·score + Σ weight·z; band [{:+.4}, {:+.4}] ({})\n",
                time.intercept, time.score_weight, time.band.0, time.band.1, time.population
            ));
            s.push_str(&text_table(&header, &term_rows(&time.terms)));
            s.push_str(&format!(
                "{name} time past score {:.4} (extrapolated; handed over from score {:.4}): ln(seconds) = {:.4} {:+.4}·max(se_equivalent, {:.1})\n",
                b.max_score, b.blend_from, b.intercept, b.se_weight, b.max_se
            ));
        }
    }
    for h in &r.validation {
        s.push_str(&held_out_text(h));
    }
    s
}

/// One held-out source of `fit --score`: its correlations, its difference
/// from SE, its minutes and its SE bands.
fn held_out_text(h: &HeldOut) -> String {
    let mut s = String::new();
    let how = if h.minutes.is_some() {
        "5-fold cross-validation; first fold "
    } else {
        ""
    };
    s.push_str(&format!(
        "\nheld out: {} (n = {}; {how}kept {}; fast kept {})\n",
        h.source,
        h.n,
        super::join_metrics(&h.kept, ","),
        super::join_metrics(&h.kept_fast, ",")
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
    s
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|x| {
        if x.abs() >= 1e9 {
            format!("{x:.3e}")
        } else {
            format!("{x:.3}")
        }
    })
    .unwrap_or_else(|| "-".into())
}

/// A plain text table with right-aligned numeric-looking columns.
pub(crate) fn text_table(header: &[&str], rows: &[Vec<String>]) -> String {
    // A tab or line break inside a cell (a label's) would break the columns.
    let cleaned: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| c.replace(['\t', '\n', '\r'], " "))
                .collect()
        })
        .collect();
    let rows = &cleaned;
    let ncols = rows.iter().map(|r| r.len()).fold(header.len(), usize::max);
    let mut width = vec![0; ncols];
    for (i, h) in header.iter().enumerate() {
        width[i] = h.chars().count();
    }
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let fmt_row = |cells: Vec<&str>| -> String {
        let mut line = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = width[i].saturating_sub(c.chars().count());
            let numeric = c
                .trim_start_matches(['>', '=', '-'])
                .chars()
                .next()
                .is_some_and(|ch| ch.is_ascii_digit());
            if numeric && (i + 1 < cells.len() || i > 0) {
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
            } else {
                line.push_str(c);
                if i + 1 < cells.len() {
                    line.push_str(&" ".repeat(pad));
                }
            }
        }
        line.trim_end().to_string() + "\n"
    };
    let mut out = fmt_row(header.to_vec());
    for r in rows {
        out.push_str(&fmt_row(r.iter().map(|s| s.as_str()).collect()));
    }
    out
}

/// Numbers as [`sudolab::readable_number`] gives them, in brackets,
/// comma-separated.
/// A list of cut points for a reader: each rounded to 4 decimals.
fn rounded_list(vs: &[f64]) -> String {
    let items: Vec<String> = vs.iter().map(|&v| sudolab::rounded_number(v)).collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_huge_numbers_in_scientific_notation_and_cuts_rounded() {
        assert_eq!(rounded_list(&[1.0, 1e180]), "[1, 1e180]");
        assert_eq!(
            rounded_list(&[16.228070175438596, 0.5813953488372093]),
            "[16.2281, 0.5814]"
        );
    }

    #[test]
    fn a_tab_in_a_label_keeps_the_columns() {
        let t = text_table(
            &["puzzle", "score"],
            &[
                vec!["a\tb".into(), "1.0".into()],
                vec!["c".into(), "2.0".into()],
            ],
        );
        assert_eq!(t, "puzzle  score\na b       1.0\nc         2.0\n");
    }

    #[test]
    fn text_table_tolerates_ragged_rows() {
        let t = text_table(
            &["a", "b"],
            &[vec!["x".into(), "1".into(), "extra".into()], vec![]],
        );
        assert_eq!(t, "a  b\nx  1  extra\n\n");
    }
}
