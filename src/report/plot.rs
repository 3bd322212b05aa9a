//! Every chart of sudolab, drawn with `plotters` on its SVG backend: the
//! result is an SVG document as a `String`, with text written as SVG
//! `<text>` elements (no font file is read; the browser picks a sans-serif
//! font), so a chart can be saved as a file (`relax --plot`) or inlined in
//! the self-contained HTML report.
//!
//! * [`sweep_chart`]: Pelánek's Fig. 8 — the mean number of extra solutions
//!   (the paper's quantity) with the paper's fit `c·e^{k/λ}`, beside the mean
//!   number of solutions with its own fit (both log scale, fits dashed),
//!   P(unique) and mean fixed cells against the number `k` of removed edges,
//!   one line per puzzle.
//! * [`fixedness_grid`]: the grid coloured by per-cell fixedness of a
//!   relaxation (Pelánek §3.2), givens marked.
//! * [`clause_histogram`]: ALO clause lengths of several encodings side by
//!   side (Patti §7.1, Table 1).
//! * [`percentile_bars`]: where each rating falls in a reference set.
//! * [`histogram`] and [`scatter`]: a metric's distribution over a data set
//!   and a metric against a label.

use crate::relax::{ExpFit, SweepReport};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A chart could not be drawn (a backend error, never expected for an
/// in-memory SVG; kept as text).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot draw the chart: {0}")]
pub struct PlotError(pub String);

fn pe<E: std::fmt::Display>(e: E) -> PlotError {
    PlotError(e.to_string())
}

/// Line colours, one per series (colour-blind friendly order).
pub(crate) const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

const FONT: &str = "sans-serif";

/// One measured quantity of a sweep point.
type Measure = fn(&crate::relax::RelaxReport) -> f64;

/// Draws into an SVG string of `size` pixels.
fn svg<F>(size: (u32, u32), draw: F) -> Result<String, PlotError>
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), PlotError>,
{
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(pe)?;
        draw(&root)?;
        root.present().map_err(pe)?;
    }
    Ok(out)
}

/// A short number for axis labels: `1200`, `3.5`, `0.25`.
fn short(v: f64) -> String {
    let a = v.abs();
    if a >= 1e5 {
        format!("{v:.0e}")
    } else if a >= 100.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// A tick label of a linear axis whose ticks span `span`: as many decimals
/// as the ticks need to differ (plotters steps by at least a twentieth of
/// the span, so two digits below the span's leading one), trailing zeros
/// dropped: `0, 0.005, 0.01` where [`short`] printed `0, 0.01, 0.01`.
/// Magnitudes of 1e5 and more, and unit-drawn axes (`span` not finite),
/// keep [`short`]'s form.
fn tick(v: f64, span: f64) -> String {
    if !span.is_finite() || span <= 0.0 || v.abs() >= 1e5 {
        return short(v);
    }
    let decimals = (2.0 - span.log10().floor()).clamp(0.0, 15.0) as usize;
    let text = format!("{v:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    if text == "-0" { "0".into() } else { text }
}

/// A tick label of a log axis spanning `decades`: powers of ten only, and
/// also 2× and 5× them on a short axis; other ticks unlabelled (they would
/// overlap near the top of each decade).
fn log_label(v: f64, decades: f64) -> String {
    let mantissa = v / 10f64.powf(v.log10().floor());
    let near = |m: f64| (mantissa - m).abs() < 1e-6 * m.max(1.0);
    if near(1.0) || near(10.0) || (decades <= 2.5 && (near(2.0) || near(5.0))) {
        short(v)
    } else {
        String::new()
    }
}

/// One log-scale panel of a sweep chart: `value` of each point (points at
/// or below 0 cannot be drawn on a log axis and are left out), hollow where
/// some sample hit the cap (the mean is a lower bound), and `fit` dashed.
fn log_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    title: &str,
    sweeps: &[SweepReport],
    kmax: f64,
    value: Measure,
    fit: fn(&SweepReport) -> Option<&ExpFit>,
) -> Result<(), PlotError> {
    let fit_at = |s: &SweepReport, k: f64| fit(s).map(|f| f.c * (k / f.lambda).exp());
    let mut lo: f64 = f64::INFINITY;
    let mut hi: f64 = 10.0;
    for s in sweeps {
        for p in &s.points {
            let v = value(p);
            if v > 0.0 {
                lo = lo.min(v / 2.0);
                hi = hi.max(v * 2.0);
            }
        }
        if let (Some(a), Some(b)) = (fit_at(s, 1.0), fit_at(s, kmax)) {
            lo = lo.min(a.max(1e-3));
            hi = hi.max(b.min(1e12) * 1.2);
        }
    }
    let lo = if lo.is_finite() { lo.min(1.0) } else { 0.1 };
    let decades = (hi / lo).log10();
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 17))
        .margin(10)
        .x_label_area_size(38)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..kmax, (lo..hi).log_scale())
        .map_err(pe)?;
    chart
        .configure_mesh()
        .x_desc("k (edges removed)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| log_label(*v, decades))
        .label_style((FONT, 16))
        .draw()
        .map_err(pe)?;
    for (i, s) in sweeps.iter().enumerate() {
        let c = colour(i);
        let pts: Vec<(f64, f64, bool)> = s
            .points
            .iter()
            .filter(|p| value(p) > 0.0)
            .map(|p| (p.summary.k as f64, value(p), p.summary.capped > 0))
            .collect();
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|&(k, v, _)| (k, v)),
                c.stroke_width(2),
            ))
            .map_err(pe)?;
        chart
            .draw_series(pts.iter().map(|&(k, v, capped)| {
                let style = if capped {
                    c.stroke_width(1)
                } else {
                    c.filled()
                };
                Circle::new((k, v), 3, style)
            }))
            .map_err(pe)?;
        if fit(s).is_some() {
            let curve: Vec<(f64, f64)> = (0..=60)
                .map(|j| kmax * j as f64 / 60.0)
                .filter_map(|k| fit_at(s, k).map(|y| (k, y.clamp(lo, hi))))
                .collect();
            chart
                .draw_series(DashedLineSeries::new(curve, 6, 4, c.stroke_width(1)))
                .map_err(pe)?;
        }
    }
    Ok(())
}

/// Pelánek's Fig. 8 for one or several sweeps, four panels side by side: the
/// paper's quantity, the mean number of extra solutions (other than the
/// original), with its fit (`paper_fit`); ours beside it, the mean number of
/// solutions with its fit (`fit`); P(unique); mean fixed cells. A legend
/// names each puzzle with both fits' `c` and `λ`.
///
/// ```
/// use sudolab::{RelaxOptions, parse_puzzle, sweep, sweep_svg};
/// let wiki = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// let p = parse_puzzle(wiki)?;
/// let opts = RelaxOptions { samples: 20, verify: 1, ..RelaxOptions::default() };
/// let s = sweep(&p, &[20, 40], &opts)?;
/// let svg = sweep_svg(&[s])?;
/// assert!(svg.starts_with("<svg") && svg.contains("P(unique)"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sweep_chart(sweeps: &[SweepReport]) -> Result<String, PlotError> {
    // Two lines of legend per puzzle, large enough to read when the
    // 1440-pixel chart is shrunk to a page's width.
    const LEGEND_LINE: u32 = 28;
    let legend_h = 2 * LEGEND_LINE * sweeps.len() as u32 + 14;
    let (w, h) = (1440u32, 300 + legend_h);
    svg((w, h), |root| {
        let (plots, legend) = root.split_vertically(300);
        let panels = plots.split_evenly((1, 4));
        let kmax = sweeps
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.summary.k))
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        log_panel(
            &panels[0],
            "Fig. 8: mean extra solutions (log)",
            sweeps,
            kmax,
            |p| p.summary.mean_extra,
            |s| s.paper_fit.fit.as_ref(),
        )?;
        log_panel(
            &panels[1],
            "mean solutions (log)",
            sweeps,
            kmax,
            |p| p.summary.mean_solutions,
            |s| s.fit.as_ref(),
        )?;
        // P(unique) and mean fixed cells, linear.
        let panels_lin: [(&str, Measure); 2] = [
            ("P(unique)", |p| p.summary.p_unique),
            ("mean fixed cells (non-given)", |p| p.summary.mean_fixed),
        ];
        for (j, (title, value)) in panels_lin.iter().enumerate() {
            let top = if j == 0 {
                1.0
            } else {
                sweeps
                    .iter()
                    .flat_map(|s| s.points.iter().map(value))
                    .fold(1.0, f64::max)
                    * 1.05
            };
            let mut chart = ChartBuilder::on(&panels[j + 2])
                .caption(*title, (FONT, 17))
                .margin(10)
                .x_label_area_size(38)
                .y_label_area_size(44)
                .build_cartesian_2d(0f64..kmax, 0f64..top)
                .map_err(pe)?;
            chart
                .configure_mesh()
                .x_desc("k (edges removed)")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .label_style((FONT, 16))
                .draw()
                .map_err(pe)?;
            for (i, s) in sweeps.iter().enumerate() {
                let c = colour(i);
                let pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .map(|p| (p.summary.k as f64, value(p)))
                    .collect();
                chart
                    .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                    .map_err(pe)?;
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))
                    .map_err(pe)?;
            }
        }
        for (i, s) in sweeps.iter().enumerate() {
            let y = 18 + (2 * LEGEND_LINE * i as u32) as i32;
            let c = colour(i);
            legend
                .draw(&PathElement::new(vec![(40, y), (80, y)], c.stroke_width(4)))
                .map_err(pe)?;
            let name = s.label.clone().unwrap_or_else(|| s.puzzle.clone());
            let describe = |f: Option<&ExpFit>| {
                f.map_or_else(
                    || "no fit".to_string(),
                    |f| format!("c = {:.3}, λ = {:.2}, R² = {:.3}", f.c, f.lambda, f.r2),
                )
            };
            let fit = format!(
                "Fig. 8 fit of the extra solutions: {}; mean solutions: {} (dashed; hollow: capped)",
                describe(s.paper_fit.fit.as_ref()),
                describe(s.fit.as_ref())
            );
            let style = |size: u32| {
                (FONT, size)
                    .into_font()
                    .into_text_style(&legend)
                    .pos(Pos::new(HPos::Left, VPos::Center))
            };
            legend
                .draw(&Text::new(name, (90, y), style(24)))
                .map_err(pe)?;
            legend
                .draw(&Text::new(fit, (90, y + LEGEND_LINE as i32), style(22)))
                .map_err(pe)?;
        }
        Ok(())
    })
}

/// Colour of a fixedness in `[0, 1]`: white (never fixed) to deep blue
/// (always fixed).
fn fixed_colour(f: f64) -> RGBColor {
    let t = f.clamp(0.0, 1.0);
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(mix(255.0, 33.0), mix(255.0, 102.0), mix(255.0, 172.0))
}

/// The grid with each cell coloured by its fixedness (fraction of relaxed
/// samples in which the cell keeps its value in every solution). Givens are
/// grey with their digit in bold; other cells show the solution digit (when
/// known) and the fixedness in percent.
pub fn fixedness_grid(
    side: usize,
    cells: &[u8],
    solution: Option<&[u8]>,
    fixedness: &[f64],
) -> Result<String, PlotError> {
    let cell_px = (504 / side.max(1)) as i32;
    let grid_px = cell_px * side as i32;
    let (w, h) = (grid_px as u32 + 130, grid_px as u32 + 20);
    let order = (side as f64).sqrt().round() as usize;
    svg((w, h), |root| {
        let off = 10;
        let digit_font = (cell_px as f64 * 0.45).max(8.0);
        for (i, &v) in cells.iter().enumerate().take(side * side) {
            let (r, c) = ((i / side) as i32, (i % side) as i32);
            let (x0, y0) = (off + c * cell_px, off + r * cell_px);
            let given = v != 0;
            let f = fixedness.get(i).copied().unwrap_or(0.0);
            let fill = if given {
                RGBColor(200, 200, 200)
            } else {
                fixed_colour(f)
            };
            root.draw(&Rectangle::new(
                [(x0, y0), (x0 + cell_px, y0 + cell_px)],
                fill.filled(),
            ))
            .map_err(pe)?;
            let shown = if given {
                Some(v)
            } else {
                solution.and_then(|s| s.get(i).copied())
            };
            let ink = if !given && f > 0.6 { WHITE } else { BLACK };
            if let Some(d) = shown {
                let style = (FONT, digit_font)
                    .into_font()
                    .style(if given {
                        FontStyle::Bold
                    } else {
                        FontStyle::Normal
                    })
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                root.draw(&Text::new(
                    crate::grid::digit_to_char(d, 0).to_string(),
                    (x0 + cell_px / 2, y0 + cell_px * 2 / 5),
                    style,
                ))
                .map_err(pe)?;
            }
            if !given {
                let style = (FONT, (cell_px as f64 * 0.22).max(6.0))
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                root.draw(&Text::new(
                    format!("{:.0}%", 100.0 * f),
                    (x0 + cell_px / 2, y0 + cell_px * 4 / 5),
                    style,
                ))
                .map_err(pe)?;
            }
        }
        for j in 0..=side as i32 {
            let thick = order > 0 && (j as usize).is_multiple_of(order);
            let style = BLACK.stroke_width(if thick { 3 } else { 1 });
            let p = off + j * cell_px;
            root.draw(&PathElement::new(vec![(off, p), (off + grid_px, p)], style))
                .map_err(pe)?;
            root.draw(&PathElement::new(vec![(p, off), (p, off + grid_px)], style))
                .map_err(pe)?;
        }
        // Colour key.
        let kx = off + grid_px + 30;
        let steps = 10;
        let kh = grid_px / 2;
        for s in 0..steps {
            let f = 1.0 - s as f64 / (steps - 1) as f64;
            let y = off + s * kh / steps;
            root.draw(&Rectangle::new(
                [(kx, y), (kx + 22, y + kh / steps)],
                fixed_colour(f).filled(),
            ))
            .map_err(pe)?;
        }
        root.draw(&Rectangle::new(
            [(kx, off), (kx + 22, off + kh / steps * steps)],
            BLACK.stroke_width(1),
        ))
        .map_err(pe)?;
        let label = |t: &str, y: i32| {
            Text::new(
                t.to_string(),
                (kx + 28, y),
                (FONT, 12)
                    .into_font()
                    .into_text_style(root)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )
        };
        root.draw(&label("100% fixed", off + 4)).map_err(pe)?;
        root.draw(&label("0%", off + kh / steps * steps - 4))
            .map_err(pe)?;
        root.draw(&Rectangle::new(
            [(kx, off + kh + 20), (kx + 22, off + kh + 42)],
            RGBColor(200, 200, 200).filled(),
        ))
        .map_err(pe)?;
        root.draw(&label("given", off + kh + 31)).map_err(pe)?;
        Ok(())
    })
}

/// ALO clause lengths of several encodings (Patti Table 1 counts the
/// minimal encoding's clauses of each length): `series` pairs a name with
/// `counts[i]` = clauses of length `i + 1`. One panel per encoding, stacked,
/// each on its own scale: the maximal encoding's count at the longest
/// length (about 320 for 9×9) would otherwise flatten the minimal one's
/// bars to nothing. The panels share the length axis.
pub fn clause_histogram(series: &[(String, Vec<u64>)]) -> Result<String, PlotError> {
    let lengths = series
        .iter()
        .map(|(_, c)| c.len())
        .max()
        .unwrap_or(1)
        .max(1);
    const PANEL_H: u32 = 230;
    let panels = series.len().max(1);
    svg((620, PANEL_H * panels as u32), |root| {
        let areas = root.split_evenly((panels, 1));
        for (si, ((name, counts), area)) in series.iter().zip(&areas).enumerate() {
            let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.15;
            let mut chart = ChartBuilder::on(area)
                .caption(format!("{name}: ALO clauses by length"), (FONT, 18))
                .margin(8)
                .x_label_area_size(40)
                .y_label_area_size(56)
                .build_cartesian_2d(0.5f64..lengths as f64 + 0.5, 0f64..top)
                .map_err(pe)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(lengths)
                .x_label_formatter(&|v| format!("{v:.0}"))
                .x_desc("clause length (candidates)")
                .y_desc("clauses")
                .y_labels(5)
                .y_label_formatter(&|v| format!("{v:.0}"))
                .label_style((FONT, 16))
                .draw()
                .map_err(pe)?;
            let c = colour(si);
            chart
                .draw_series(counts.iter().enumerate().map(|(i, &v)| {
                    let x = i as f64 + 1.0;
                    Rectangle::new([(x - 0.38, 0.0), (x + 0.38, v as f64)], c.filled())
                }))
                .map_err(pe)?;
            // The count above each bar: the panels' scales differ.
            chart
                .draw_series(
                    counts
                        .iter()
                        .enumerate()
                        .filter(|&(_, &v)| v > 0)
                        .map(|(i, &v)| {
                            Text::new(
                                v.to_string(),
                                (i as f64 + 1.0, v as f64),
                                (FONT, 14)
                                    .into_font()
                                    .into_text_style(area)
                                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
                            )
                        }),
                )
                .map_err(pe)?;
        }
        Ok(())
    })
}

/// Horizontal bars, one per `(name, percentile)`, on a 0–100 axis: where a
/// puzzle's ratings fall in the reference set. A missing percentile leaves
/// its row empty.
pub fn percentile_bars(rows: &[(String, Option<f64>)]) -> Result<String, PlotError> {
    let n = rows.len().max(1);
    let h = 60 + 24 * n as u32;
    svg((620, h), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(10)
            .margin_right(24)
            .x_label_area_size(34)
            .y_label_area_size(170)
            .build_cartesian_2d(0f64..100f64, 0f64..n as f64)
            .map_err(pe)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n * 2 + 1)
            .y_label_formatter(&|v| {
                let slot = *v - 0.5;
                let i = slot.round();
                if (slot - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < rows.len() {
                    rows[rows.len() - 1 - i as usize].0.clone()
                } else {
                    String::new()
                }
            })
            .x_label_formatter(&|v| format!("{v:.0}"))
            .x_desc("percentile: share of the reference set with a lower value")
            .label_style((FONT, 16))
            .draw()
            .map_err(pe)?;
        chart
            .draw_series(rows.iter().enumerate().filter_map(|(i, (_, p))| {
                let y = (rows.len() - 1 - i) as f64;
                p.map(|p| {
                    Rectangle::new(
                        [(0.0, y + 0.2), (p.clamp(0.0, 100.0), y + 0.8)],
                        colour(0).filled(),
                    )
                })
            }))
            .map_err(pe)?;
        // A dot at the end of each bar, so that a percentile of 0 shows.
        chart
            .draw_series(rows.iter().enumerate().filter_map(|(i, (_, p))| {
                let y = (rows.len() - 1 - i) as f64 + 0.5;
                p.map(|p| Circle::new((p.clamp(0.0, 100.0), y), 4, colour(1).filled()))
            }))
            .map_err(pe)?;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(50.0, 0.0), (50.0, n as f64)],
                4,
                4,
                BLACK.stroke_width(1),
            ))
            .map_err(pe)?;
        Ok(())
    })
}

/// The coordinates of one axis from `lo` to `hi` (finite, `lo < hi`). A
/// range whose width overflows (values near ±`f64::MAX`) or that plotters
/// cannot step through in `f64` is drawn in unit coordinates (0 at `lo`, 1
/// at `hi`) with the labels mapped back, so every axis is finite and its
/// ticks are computed in a bounded number of steps.
#[derive(Clone, Copy)]
struct Axis {
    lo: f64,
    hi: f64,
    unit: bool,
}

impl Axis {
    /// Largest magnitude drawn in the values' own coordinates.
    const PLAIN: f64 = 1e300;

    fn new(lo: f64, hi: f64) -> Axis {
        let plain = (hi - lo).is_finite() && lo.abs() < Self::PLAIN && hi.abs() < Self::PLAIN;
        Axis {
            lo,
            hi,
            unit: !plain,
        }
    }

    /// The drawn range.
    fn range(self) -> std::ops::Range<f64> {
        if self.unit {
            0.0..1.0
        } else {
            self.lo..self.hi
        }
    }

    /// The drawn coordinate of a value.
    fn at(self, x: f64) -> f64 {
        if self.unit {
            (x / 2.0 - self.lo / 2.0) / (self.hi / 2.0 - self.lo / 2.0)
        } else {
            x
        }
    }

    /// The drawn coordinate of the point `t` of the way from `lo` to `hi`.
    fn share(self, t: f64) -> f64 {
        if self.unit {
            t
        } else {
            self.lo * (1.0 - t) + self.hi * t
        }
    }

    /// The value at a drawn coordinate.
    fn value(self, v: f64) -> f64 {
        if self.unit {
            self.lo * (1.0 - v) + self.hi * v
        } else {
            v
        }
    }
}

/// A histogram of `counts` over equal-width bins from `lo` to `hi`.
pub fn histogram(title: &str, lo: f64, hi: f64, counts: &[usize]) -> Result<String, PlotError> {
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.1;
    let (lo, hi) = match (lo.is_finite(), hi.is_finite()) {
        (true, true) if hi > lo => (lo, hi),
        (true, _) => (lo, lo + 1.0),
        _ => (0.0, 1.0),
    };
    let axis = Axis::new(lo, hi);
    let n = counts.len().max(1) as f64;
    svg((360, 220), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 16))
            .margin(8)
            .margin_right(20)
            .x_label_area_size(26)
            .y_label_area_size(40)
            .build_cartesian_2d(axis.range(), 0f64..top)
            .map_err(pe)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(5)
            .y_labels(4)
            .x_label_formatter(&|v| tick(axis.value(*v), hi - lo))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style((FONT, 13))
            .draw()
            .map_err(pe)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = axis.share(i as f64 / n);
                let x1 = axis.share((i + 1) as f64 / n);
                Rectangle::new([(x0, 0.0), (x1, c as f64)], colour(0).filled())
            }))
            .map_err(pe)?;
        Ok(())
    })
}

/// A scatter plot of `points` (`(metric, label)`), titled with the metric.
pub fn scatter(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    points: &[(f64, f64)],
) -> Result<String, PlotError> {
    let range = |pick: fn(&(f64, f64)) -> f64| {
        let (lo, hi) = points
            .iter()
            .map(pick)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        if !lo.is_finite() || !hi.is_finite() {
            Axis::new(0.0, 1.0)
        } else if hi > lo {
            let pad = (hi / 2.0 - lo / 2.0) * 0.1;
            Axis::new((lo - pad).max(f64::MIN), (hi + pad).min(f64::MAX))
        } else {
            Axis::new(lo - 0.5, lo + 0.5)
        }
    };
    let points: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    let xa = range(|p| p.0);
    let ya = range(|p| p.1);
    svg((360, 260), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 16))
            .margin(8)
            .margin_right(20)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(xa.range(), ya.range())
            .map_err(pe)?;
        chart
            .configure_mesh()
            .x_labels(5)
            .y_labels(5)
            .x_label_formatter(&|v| tick(xa.value(*v), xa.hi - xa.lo))
            .y_label_formatter(&|v| tick(ya.value(*v), ya.hi - ya.lo))
            .x_desc(x_desc)
            .y_desc(y_desc)
            .label_style((FONT, 13))
            .draw()
            .map_err(pe)?;
        chart
            .draw_series(
                points.iter().map(|&(x, y)| {
                    Circle::new((xa.at(x), ya.at(y)), 2, colour(0).mix(0.5).filled())
                }),
            )
            .map_err(pe)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_svg_with_text_and_no_external_reference() {
        let h = histogram("x", 0.0, 10.0, &[1, 3, 2]).unwrap();
        assert!(h.starts_with("<svg") && h.contains("<text") && h.contains("<rect"));
        let s = scatter("m", "m", "label", &[(1.0, 2.0), (3.0, 4.0)]).unwrap();
        assert!(s.contains("<circle"));
        let g = fixedness_grid(4, &[1, 0, 0, 0].repeat(4), None, &[0.5; 16]).unwrap();
        assert!(g.contains("50%") && g.contains("given"));
        let c = clause_histogram(&[("min".into(), vec![1, 2, 3, 4])]).unwrap();
        assert!(c.contains("min"));
        let p = percentile_bars(&[("a".into(), Some(30.0)), ("b".into(), None)]).unwrap();
        assert!(p.contains("\na\n") && p.contains("\nb\n"));
        for svg in [h, s, g, c, p] {
            assert!(
                !svg.contains("href"),
                "a chart refers to nothing outside itself"
            );
        }
        // Fig. 8: the paper's quantity with its fit beside ours.
        let puzzle = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let opts = crate::relax::RelaxOptions {
            samples: 30,
            seed: 1,
            ..crate::relax::RelaxOptions::default()
        };
        let sweep = crate::relax::sweep(&puzzle, &[0, 20, 30, 40], &opts).unwrap();
        let fig8 = sweep.paper_fit.fit.as_ref().expect("a Fig. 8 fit");
        let chart = sweep_chart(std::slice::from_ref(&sweep)).unwrap();
        assert!(chart.contains("Fig. 8: mean extra solutions (log)"));
        assert!(chart.contains("mean solutions (log)") && chart.contains("P(unique)"));
        assert!(chart.contains(&format!("extra solutions: c = {:.3}", fig8.c)));
        assert!(!chart.contains("href"));
        assert_eq!(short(1200.0), "1200");
        assert_eq!(short(0.25), "0.25");
        assert_eq!(log_label(100.0, 4.0), "100");
        // Linear ticks: as many decimals as the step needs, no repeats.
        let labels: Vec<String> = [0.0, 0.005, 0.01, 0.015, 0.02]
            .iter()
            .map(|&v| tick(v, 0.02))
            .collect();
        assert_eq!(labels, ["0", "0.005", "0.01", "0.015", "0.02"]);
        assert_eq!(tick(12.5, 30.0), "12.5");
        assert_eq!(tick(-0.00001, 0.02), "0");
        assert_eq!(tick(350.0, 400.0), "350");
        assert_eq!(tick(2.0e6, 1.0e6), "2e6");
        let small = histogram("p_unique", 0.0, 0.02, &[3, 1, 0, 2]).unwrap();
        let texts: Vec<&str> = small
            .split("<text")
            .skip(1)
            .filter_map(|t| t.split('>').nth(1)?.split('<').next())
            .filter(|t| t.contains('.'))
            .collect();
        let mut unique = texts.clone();
        unique.sort_unstable();
        unique.dedup();
        assert!(
            texts.len() >= 3 && unique.len() == texts.len(),
            "repeated tick labels: {texts:?}"
        );
        assert_eq!(log_label(200.0, 4.0), "");
        assert_eq!(log_label(2.0, 1.0), "2");
        assert_eq!(log_label(3.0, 1.0), "");
    }
}
