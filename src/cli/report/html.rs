//! The self-contained HTML page of a [`Report`]: one file with its CSS in a
//! `<style>` element and every chart as inline SVG ([`super::plot`]), so it
//! opens without network access (no script, no font, no stylesheet is
//! fetched). The page is built with `maud` templates, which escape every
//! text they insert.
//!
//! Per puzzle it shows the fixedness heatmap (Pelánek §3.2), the
//! clause-length histogram of both encodings (Patti §7.1, Table 1), the
//! Fig. 8 sweep with its fit (Pelánek), the ratings with their reference
//! percentiles, the solving path and the engines' cross-check; per data set
//! the metric histograms, the Spearman matrix, the scatter plots against the
//! label and the universal classes (Patti §8.2).

use maud::{DOCTYPE, Markup, PreEscaped, html};
use sudolab::PlotError;
use sudolab::{DatasetReport, Direction, Metric, MetricKind as Kind, PuzzleReport, Report};

const CSS: &str = r#"
body { font-family: sans-serif; margin: 24px auto; max-width: 1140px; color: #222; line-height: 1.4; }
h1 { font-size: 26px; } h2 { font-size: 22px; border-bottom: 2px solid #1f77b4; padding-bottom: 4px; margin-top: 40px; }
h3 { font-size: 17px; margin-top: 26px; }
code { font-size: 13px; background: #f3f3f3; padding: 1px 4px; word-break: break-all; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f4f8; }
.row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.row > * { flex: 1 1 320px; max-width: 660px; }
.chart svg { max-width: 100%; height: auto; }
.small { display: flex; flex-wrap: wrap; gap: 8px; }
.note { color: #8a4b00; }
.saw-nothing { border-left: 4px solid #c65b00; padding: .4em .8em; background: #fff4e5; }
.ok { color: #1a7f37; font-weight: bold; } .bad { color: #b00; font-weight: bold; }
ol.path { columns: 2; font-size: 13px; column-gap: 32px; }
table.corr { font-size: 11px; }
table.corr td { text-align: center; padding: 2px 3px; }
table.corr th { padding: 2px 4px; }
table.corr th.rot { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: normal; }
nav a { margin-right: 12px; }
.scroll { overflow-x: auto; max-width: 100%; }
.flag { display: inline-block; padding: 0 8px; border-radius: 9px; font-size: 12px; font-weight: bold; }
.flag.yes { background: #c65b00; color: #fff; } .flag.no { background: #e8e8e8; color: #555; }
"#;

fn num(v: f64) -> String {
    let a = v.abs();
    if v.fract() == 0.0 && a < 1e9 {
        format!("{v:.0}")
    } else if a >= 1e9 {
        format!("{v:.3e}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

fn harder(d: Direction) -> &'static str {
    match d {
        Direction::HigherIsHarder => "higher",
        Direction::LowerIsHarder => "lower",
    }
}

/// Whether a rating row holds a yes/no flag (a metric of kind
/// [`Kind::Bool`], written as 1 or 0 in the report's numbers).
fn is_flag(metric: &str) -> bool {
    metric
        .parse::<Metric>()
        .is_ok_and(|m| m.kind() == Kind::Bool)
}

/// A flag as a word in a badge.
fn flag(value: f64) -> Markup {
    if value != 0.0 {
        html! { span.flag.yes { "yes" } }
    } else {
        html! { span.flag.no { "no" } }
    }
}

/// "Harder when" of a flag: the word of the harder answer.
fn harder_flag(d: Direction) -> &'static str {
    match d {
        Direction::HigherIsHarder => "yes",
        Direction::LowerIsHarder => "no",
    }
}

/// Whether a fixedness map shows 0 % on every empty cell, as the map
/// rounds it (and the puzzle has one): the map shows nothing.
fn all_zero(cells: &[u8], fixedness: &[f64]) -> bool {
    let mut empty = cells
        .iter()
        .zip(fixedness)
        .filter(|&(&c, _)| c == 0)
        .peekable();
    empty.peek().is_some() && empty.all(|(_, &f)| (f * 100.0).round() == 0.0)
}

fn svg(s: String) -> Markup {
    html! { div.chart { (PreEscaped(s)) } }
}

/// Renders the whole page (from the numbers alone: nothing is computed).
///
/// # Errors
/// Only a chart that cannot be drawn (never expected).
pub(crate) fn render(report: &Report) -> Result<String, PlotError> {
    let mut sections = Vec::new();
    for (i, p) in report.puzzles.iter().enumerate() {
        sections.push(puzzle_section(i + 1, p)?);
    }
    let dataset = match &report.dataset {
        Some(d) => Some(dataset_section(d)?),
        None => None,
    };
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (report.title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                h1 { (report.title) }
                p {
                    "Made by sudolab " (env!("CARGO_PKG_VERSION")) ". Percentiles against: "
                    (report.reference) "."
                }
                @if report.puzzles.len() > 1 {
                    nav {
                        @for (i, p) in report.puzzles.iter().enumerate() {
                            a href=(format!("#puzzle-{}", i + 1)) { (title_of(i + 1, p)) }
                        }
                    }
                }
                @for s in &sections { (s) }
                @if let Some(d) = &dataset { (d) }
            }
        }
    };
    Ok(page.into_string())
}

fn title_of(i: usize, p: &PuzzleReport) -> String {
    match &p.label {
        Some(l) if !l.trim().is_empty() => format!("Puzzle {i}: {}", l.trim()),
        _ => format!("Puzzle {i}"),
    }
}

fn puzzle_section(i: usize, p: &PuzzleReport) -> Result<Markup, PlotError> {
    let heat = match &p.relax {
        Some(r) => Some(sudolab::fixedness_svg(
            p.side,
            &p.cells,
            p.solution.as_deref(),
            &r.summary.fixedness,
        )?),
        None => None,
    };
    let series: Vec<(String, Vec<u64>)> = p
        .clauses
        .iter()
        .map(|c| {
            (
                format!("{} encoding", c.encoding.name()),
                c.counts.alo_lengths.clone(),
            )
        })
        .collect();
    let hist = if series.is_empty() {
        None
    } else {
        Some(sudolab::clause_histogram_svg(&series)?)
    };
    let sweep = match &p.sweep {
        Some(s) => Some(sudolab::sweep_svg(std::slice::from_ref(s))?),
        None => None,
    };
    let bars: Vec<(String, Option<f64>)> = p
        .ratings
        .iter()
        .filter(|r| r.value.is_some())
        .map(|r| (r.metric.clone(), r.percentile))
        .collect();
    let pct = sudolab::percentile_bars_svg(&bars)?;
    Ok(html! {
        section id=(format!("puzzle-{i}")) {
            h2 { (title_of(i, p)) }
            p { code { (p.puzzle) } }
            @for n in &p.notes { p.note { "Note: " (n) } }
            h3 { "Fixedness heatmap" }
            (heatmap_part(p, heat))
            (clauses_and_engines_part(p, hist))
            h3 { "Relaxation sweep (Pelánek Fig. 8)" }
            (sweep_part(p, sweep))
            h3 { "Ratings and reference percentiles" }
            (ratings_part(p, pct))
            h3 { "Solving path (" (p.path.len()) " steps)" }
            p { (p.path_status) "." }
            (path_part(p))
        }
    })
}

/// The fixedness heatmap with its numbers and notes (Pelánek §3.2).
fn heatmap_part(p: &PuzzleReport, heat: Option<String>) -> Markup {
    html! {
    @if let (Some(r), Some(h)) = (&p.relax, heat) {
        p {
            "Share of " (r.summary.samples) " relaxations removing k = " (r.summary.k)
            " random edges in which each cell keeps its value in every solution "
            "(Pelánek §3.2). Mean fixed non-given cells "
            (num(r.summary.mean_fixed))
            @if let (Some(lo), Some(hi)) = (r.summary.mean_fixed_low, r.summary.mean_fixed_high) {
                " [" (num(lo)) ", " (num(hi)) "]"
            }
            ", P(unique) " (num(r.summary.p_unique))
            // A report written before the intervals has none (upper end 0).
            @if r.summary.p_unique_high > 0.0 {
                " [" (num(r.summary.p_unique_low)) ", " (num(r.summary.p_unique_high)) "]"
            }
            ", mean solutions " @if r.summary.capped > 0 { "≥ " } (num(r.summary.mean_solutions))
            " (95 % intervals in brackets: Student's t, Wilson)."
        }
        @if all_zero(&p.cells, &r.summary.fixedness) {
            p.note.saw-nothing.all-zero {
                strong { "Every empty cell is fixed in 0 % of the samples: this map is empty, not a finding. " }
                "At k = " (r.summary.k) " the relaxations of this puzzle have many solutions and none keeps a cell. "
                code { "sudolab report --k auto" } " relaxes each puzzle where its relaxation begins"
                @if let Some(k0) = r.summary.relaxation_onset_k.filter(|&k0| k0 != r.summary.k) {
                    " (k = " (k0) " for this one)"
                }
                ", where the map shows which cells hold."
            }
        }
        @if r.summary.saw_nothing {
            p.note.saw-nothing {
                strong { "This map shows saturation, not a finding. " }
                (format!("{:.0}", r.summary.p_nothing * 100.0)) " % of the samples are capped or fix no cell: "
                "k = " (r.summary.k) " relaxes this puzzle past what the method can show."
                @if let Some(k0) = r.summary.relaxation_onset_k {
                    " Its relaxation begins at k = " (k0)
                    " (where P(unique) falls through one half); "
                    code { "sudolab report --k auto" } " and " code { "sudolab relax --k auto" } " relax there."
                }
            }
        }
        (svg(h))
    } @else { p.note { "No relaxation for this puzzle." } }
    }
}

/// The clause-length histogram (Patti §7.1) beside the engine cross-check.
fn clauses_and_engines_part(p: &PuzzleReport, hist: Option<String>) -> Markup {
    html! {
    div.row {
        div {
            h3 { "Clause-length histogram" }
            @if let Some(h) = hist {
                (svg(h))
                table {
                    tr { th { "encoding" } th { "variables" } th { "clauses" } th { "short %" } th { "medium %" } th { "long %" } }
                    @for c in &p.clauses {
                        tr {
                            td { (c.encoding.name()) }
                            td.num { (c.counts.variables) }
                            td.num { (c.counts.clauses) }
                            td.num { (format!("{:.1}", c.counts.short_pct)) }
                            td.num { (format!("{:.1}", c.counts.medium_pct)) }
                            td.num { (format!("{:.1}", c.counts.long_pct)) }
                        }
                    }
                }
                p { "At-least-one clauses by length (Patti §7.1, Table 1); classes by Patti's cut points." }
            } @else { p.note { "No encoding for this puzzle." } }
        }
        div {
            h3 { "Engine cross-check" }
            table {
                tr { th { "engine" } th { "status" } th { "solutions (counted to 2)" } }
                @for a in &p.engines.answers {
                    tr { td { (a.engine) } td { (a.status) } td.num { (a.solutions) } }
                }
            }
            p {
                @if p.engines.agree { span.ok { "All engines agree." } }
                @else { span.bad { "The engines disagree." } }
                " Relaxation: " (p.engines.relax_verified) " verified samples, re-analyzed by "
                @if p.engines.relax_verified_by.is_empty() { "no engine" }
                @else { (p.engines.relax_verified_by.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", ")) }
                "."
            }
        }
    }
    }
}

/// The relaxation sweep (Pelánek Fig. 8) with its fit and points.
fn sweep_part(p: &PuzzleReport, sweep: Option<String>) -> Markup {
    html! {
    @if let (Some(s), Some(chart)) = (&p.sweep, sweep) {
        (svg(chart))
        p {
            @if let Some(f) = &s.fit {
                "Fit of mean solutions ≈ c·e" sup { "k/λ" } ": "
                strong { "c = " (format!("{:.4}", f.c)) ", λ = " (format!("{:.3}", f.lambda)) }
                " (R² = " (format!("{:.3}", f.r2)) ", " (f.points) " points)."
                @if s.points.iter().any(|p| p.summary.capped > 0) {
                    " Points with capped samples (counts stopped at " (s.points[0].summary.cap)
                    ") are lower bounds, which flattens the curve."
                }
            } @else { "No exponential fit (too few points or a flat curve)." }
        }
        table {
            tr { th { "k" } th { "samples" } th { "mean solutions" } th { "P(unique)" } th { "mean fixed" } th { "capped" } }
            @for pt in &s.points {
                tr {
                    td.num { (pt.summary.k) } td.num { (pt.summary.samples) }
                    td.num { (num(pt.summary.mean_solutions)) } td.num { (num(pt.summary.p_unique)) }
                    td.num { (num(pt.summary.mean_fixed)) } td.num { (pt.summary.capped) }
                }
            }
        }
    } @else { p.note { "No sweep for this puzzle." } }
    }
}

/// The ratings with their reference percentiles.
fn ratings_part(p: &PuzzleReport, pct: String) -> Markup {
    html! {
    p.note {
        "score: 0 and 10 are the 1st and 99th percentiles of the puzzles the score was fitted on; "
        "the hardest known puzzles reach about 13. se_equivalent: Sukaku Explainer's scale, 1.0–11.9 "
        "(forcing-chain puzzles and harder placed by their trial depth). extrapolated yes: above "
        "everything the model was fitted on; minutes_extrapolated yes: above every puzzle of the "
        "time model's players (Cloud Sudoku, puzzles up to SE 8.2), the time is a guess."
    }
    div.row {
        table {
            tr { th { "model" } th { "metric" } th { "value" } th { "harder when" } th { "percentile" } }
            @for r in &p.ratings {
                @let is_flag = is_flag(&r.metric);
                tr {
                    td { (r.model) } td { (r.metric) }
                    @if let (true, Some(v)) = (is_flag, r.value) {
                        td { (flag(v)) }
                        td { (harder_flag(r.harder)) }
                        td.num { "–" }
                    } @else {
                        td.num {
                            @if let Some(v) = r.value { (num(v)) }
                            @else if let Some(t) = &r.text { (t) }
                            @else { "–" }
                        }
                        td { @if r.value.is_some() { (harder(r.harder)) } @else { "–" } }
                        td.num { @if let Some(q) = r.percentile { (format!("{q:.0}")) } @else { "–" } }
                    }
                }
            }
        }
        (svg(pct))
    }
    }
}

/// The solving path, step by step.
fn path_part(p: &PuzzleReport) -> Markup {
    html! {
    @if !p.path.is_empty() {
        ol.path {
            @for s in &p.path {
                li {
                    strong { (s.technique) } ": "
                    (s.text.strip_prefix(&format!("{}: ", s.technique)).unwrap_or(&s.text))
                }
            }
        }
    }
    }
}

/// Background of a correlation cell: blue for positive, red for negative.
fn corr_colour(r: f64) -> String {
    let t = r.abs().clamp(0.0, 1.0);
    let mix = |a: f64| (255.0 - (255.0 - a) * t).round() as u8;
    let (r_, g, b) = if r >= 0.0 {
        (mix(66.0), mix(133.0), mix(244.0))
    } else {
        (mix(219.0), mix(68.0), mix(55.0))
    };
    format!("background: rgb({r_},{g},{b})")
}

fn dataset_section(d: &DatasetReport) -> Result<Markup, PlotError> {
    let mut hists = Vec::new();
    for m in &d.metrics {
        hists.push(sudolab::histogram_svg(&m.metric, m.min, m.max, &m.bins)?);
    }
    let label = d.label.clone().unwrap_or_default();
    let mut scatters = Vec::new();
    for s in &d.scatter {
        let title = match s.rho {
            Some(r) => format!("{} (ρ = {r:.2})", s.metric),
            None => s.metric.clone(),
        };
        scatters.push(sudolab::scatter_svg(&title, &s.metric, &label, &s.points)?);
    }
    Ok(html! {
        section id="dataset" {
            h2 { "Data set" }
            p {
                (d.rows) " rows from " code { (d.source) } "."
                @if let Some(l) = &d.label { " Label " code { (l) } ": " (d.labelled) " rows labelled." }
            }
            @if let Some(s) = d.saturation.filter(|s| s.saw_nothing > 0) {
                p.note.saw-nothing {
                    strong { (s.saw_nothing) " of " (s.relaxed) " relaxed rows (" (format!("{:.1}", 100.0 * s.share())) " %) saw nothing. " }
                    "Most of their samples are capped or fix no cell, so their relaxation columns show saturation, not a finding (column "
                    code { "saw_nothing" } "); " code { "--k auto" } " relaxes each puzzle at its onset."
                }
            }
            @if !d.constant.is_empty() {
                p { "Constant columns left out: " (d.constant.join(", ")) "." }
            }
            h3 { "Metric histograms" }
            table {
                tr { th { "metric" } th { "n" } th { "min" } th { "median" } th { "mean" } th { "max" } }
                @for m in &d.metrics {
                    tr { td { (m.metric) } td.num { (m.n) } td.num { (num(m.min)) } td.num { (num(m.median)) } td.num { (num(m.mean)) } td.num { (num(m.max)) } }
                }
            }
            div.small { @for h in hists { (svg(h)) } }
            h3 { "Spearman correlations" }
            div.scroll { table.corr {
                tr {
                    th {}
                    @for n in &d.correlation.names { th.rot { (n) } }
                }
                @for (i, row) in d.correlation.rho.iter().enumerate() {
                    tr {
                        th { (d.correlation.names[i]) }
                        @for r in row {
                            @if let Some(r) = r { td style=(corr_colour(*r)) { (format!("{r:.2}")) } }
                            @else { td { "–" } }
                        }
                    }
                }
            } }
            @if !d.scatter.is_empty() {
                h3 { "Metrics against the label" }
                div.small { @for s in scatters { (svg(s)) } }
            }
            h3 { "Universal Easy / Medium / Hard (equal-count bins, Patti §8.2)" }
            table {
                tr { th { "metric" } th { "harder when" } th { "easy" } th { "medium" } th { "hard" } }
                @for c in &d.classes {
                    tr {
                        td { (c.metric) }
                        td { (harder(c.direction)) }
                        @if let Some(e) = &c.error { td colspan="3" { (e) } }
                        @else {
                            @for (_, range, n) in &c.classes { td { (range) " — " (n) } }
                        }
                    }
                }
            }
        }
    })
}
