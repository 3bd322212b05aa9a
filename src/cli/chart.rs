//! Terminal charts: horizontal bars and an N×N heatmap of shades.

/// A horizontal bar of `width` characters for `frac` in [0, 1].
pub(crate) fn bar(frac: f64, width: usize) -> String {
    let frac = if frac.is_finite() {
        frac.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let eighths = (frac * width as f64 * 8.0).round() as usize;
    let full = eighths / 8;
    let rest = eighths % 8;
    let mut s = "█".repeat(full);
    if rest > 0 {
        s.push(['▏', '▎', '▍', '▌', '▋', '▊', '▉'][rest - 1]);
    }
    s
}

/// Shade character for a value in [0, 1].
pub(crate) fn shade(v: f64) -> char {
    const SHADES: [char; 5] = [' ', '░', '▒', '▓', '█'];
    if !v.is_finite() {
        return '?';
    }
    SHADES[((v.clamp(0.0, 1.0) * 4.0).round()) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_and_shades() {
        assert_eq!(bar(1.0, 4), "████");
        assert_eq!(bar(0.0, 4), "");
        assert_eq!(bar(0.5, 3).chars().count(), 2);
        assert_eq!(shade(0.0), ' ');
        assert_eq!(shade(1.0), '█');
    }
}
