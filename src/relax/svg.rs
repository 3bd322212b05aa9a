//! SVG plot of k sweeps in the shape of Pelánek's Fig. 8: mean solutions (log
//! scale), P(unique) and mean fixed cells against k, one line per puzzle.

use super::SweepReport;
use std::fmt::Write;

const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

struct Panel {
    title: &'static str,
    log: bool,
    value: fn(&super::RelaxReport) -> f64,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Renders sweeps as a standalone SVG document.
pub fn sweep_svg(sweeps: &[SweepReport]) -> String {
    let panels = [
        Panel {
            title: "mean solutions (log scale)",
            log: true,
            value: |p| p.summary.mean_solutions,
        },
        Panel {
            title: "P(unique)",
            log: false,
            value: |p| p.summary.p_unique,
        },
        Panel {
            title: "mean fixed cells (non-given)",
            log: false,
            value: |p| p.summary.mean_fixed,
        },
    ];
    let (pw, ph, margin) = (300.0, 220.0, 50.0);
    let legend_h = 18.0 * sweeps.len() as f64 + 10.0;
    let width = panels.len() as f64 * (pw + margin) + margin;
    let height = ph + 2.0 * margin + legend_h;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let kmax = sweeps
        .iter()
        .flat_map(|sw| sw.points.iter().map(|p| p.summary.k))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    for (pi, panel) in panels.iter().enumerate() {
        let x0 = margin + pi as f64 * (pw + margin);
        let y0 = margin;
        let vals: Vec<f64> = sweeps
            .iter()
            .flat_map(|sw| sw.points.iter().map(panel.value))
            .filter(|v| v.is_finite())
            .collect();
        let tr = |v: f64| if panel.log { v.max(1.0).log10() } else { v };
        let (mut lo, mut hi) = if panel.log {
            (0.0, vals.iter().map(|&v| tr(v)).fold(1.0, f64::max).ceil())
        } else {
            (0.0, vals.iter().copied().fold(0.0, f64::max))
        };
        if panel.title == "P(unique)" {
            (lo, hi) = (0.0, 1.0);
        }
        if hi <= lo {
            hi = lo + 1.0;
        }
        let px = |k: f64| x0 + k / kmax * pw;
        let py = |v: f64| y0 + ph - (tr(v) - lo) / (hi - lo) * ph;
        let _ = writeln!(
            s,
            r##"<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>"##
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="13">{}</text>"#,
            x0 + pw / 2.0,
            y0 - 10.0,
            panel.title
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">k (edges removed)</text>"#,
            x0 + pw / 2.0,
            y0 + ph + 32.0
        );
        for t in 0..=4 {
            let k = kmax * t as f64 / 4.0;
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{}" text-anchor="middle">{:.0}</text>"#,
                px(k),
                y0 + ph + 15.0,
                k
            );
            let tv = lo + (hi - lo) * t as f64 / 4.0;
            let label = if panel.log {
                let v = 10f64.powf(tv);
                if v >= 100.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.1}")
                }
            } else if hi <= 1.0 {
                format!("{tv:.2}")
            } else {
                format!("{tv:.0}")
            };
            let yy = y0 + ph - ph * t as f64 / 4.0;
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
                x0 - 4.0,
                yy + 4.0,
                label
            );
            let _ = writeln!(
                s,
                r##"<line x1="{x0}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/>"##,
                x0 + pw
            );
        }
        for (si, sw) in sweeps.iter().enumerate() {
            let colour = COLOURS[si % COLOURS.len()];
            let pts: Vec<String> = sw
                .points
                .iter()
                .map(|p| format!("{:.1},{:.1}", px(p.summary.k as f64), py((panel.value)(p))))
                .collect();
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.8"/>"#,
                pts.join(" ")
            );
        }
    }
    for (si, sw) in sweeps.iter().enumerate() {
        let colour = COLOURS[si % COLOURS.len()];
        let y = ph + 2.0 * margin + 14.0 + 18.0 * si as f64;
        let name = sw.label.clone().unwrap_or_else(|| sw.puzzle.clone());
        let fit = sw
            .fit
            .as_ref()
            .map(|f| format!(" — fit c = {:.3}, λ = {:.2}", f.c, f.lambda))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            r#"<line x1="{margin}" x2="{}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="3"/><text x="{}" y="{}">{}{}</text>"#,
            margin + 20.0,
            margin + 26.0,
            y + 4.0,
            esc(&name),
            fit
        );
    }
    s.push_str("</svg>\n");
    s
}
