//! Pearson r, Spearman ρ, Kendall τ-b and Goodman–Kruskal γ of a paired
//! sample reweighted by multiplicities, with no sorting per reweighting: the
//! fast path of the percentile bootstrap ([`super::bootstrap_correlations`]).
//! Same definitions as `correlation.rs` and `concordance.rs` (Pelánek
//! Table 3, Patti §8, Knight 1966, Chang hsolve §3.3.1); the discordant
//! pairs are counted with a Fenwick tree instead of a merge sort.

use super::MIN_PAIRS;
use super::concordance::PairCounts;

/// A paired sample sorted once, so that the four coefficients of any
/// reweighting (a bootstrap resample given as multiplicities) take two
/// sequential passes and a Fenwick tree over the distinct values of the
/// coarser side: O(n log k) with no sorting per replicate. All four
/// coefficients are symmetric in x and y, so the side with fewer distinct
/// values is taken as y (the tree's index).
pub(crate) struct PairedSample {
    /// Values sorted by (x, y).
    xs: Vec<f64>,
    ys: Vec<f64>,
    /// The sorted values divided by their largest magnitude, for the
    /// moments.
    ux: Vec<f64>,
    uy: Vec<f64>,
    /// Dense 0-based rank of each sorted item's y.
    y_rank: Vec<usize>,
    y_levels: usize,
    /// End (exclusive) of each run of equal x in the sorted order.
    x_group_ends: Vec<usize>,
    /// Sorted position of each original item.
    pub(super) position: Vec<usize>,
}

fn distinct_count(v: &[f64]) -> usize {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.dedup();
    s.len()
}

/// `v` divided by its largest finite magnitude (unchanged when that is 0).
fn unit_scaled(mut v: Vec<f64>) -> Vec<f64> {
    let scale = v
        .iter()
        .filter(|a| a.is_finite())
        .fold(0.0f64, |m, a| m.max(a.abs()));
    if scale > 0.0 {
        for a in &mut v {
            *a /= scale;
        }
    }
    v
}

fn choose2(k: u64) -> u64 {
    k * k.saturating_sub(1) / 2
}

impl PairedSample {
    /// Sorts the pairs `(x[i], y[i])` once (over the shorter length; the sides
    /// are swapped if x has fewer distinct values).
    pub(crate) fn new(x: &[f64], y: &[f64]) -> PairedSample {
        let (x, y) = if distinct_count(y) <= distinct_count(x) {
            (x, y)
        } else {
            (y, x)
        };
        let n = x.len().min(y.len());
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| x[a].total_cmp(&x[b]).then(y[a].total_cmp(&y[b])));
        let xs: Vec<f64> = order.iter().map(|&i| x[i]).collect();
        let ys: Vec<f64> = order.iter().map(|&i| y[i]).collect();
        let mut position = vec![0; n];
        for (pos, &i) in order.iter().enumerate() {
            position[i] = pos;
        }
        let mut levels: Vec<f64> = ys.clone();
        levels.sort_by(f64::total_cmp);
        levels.dedup();
        let y_rank = ys
            .iter()
            .map(|v| levels.partition_point(|l| l < v))
            .collect();
        let x_group_ends = (1..=n).filter(|&i| i == n || xs[i] != xs[i - 1]).collect();
        // Pearson r is scale-free: the moments are summed over values divided
        // by their largest magnitude, so squares of 1e200 do not overflow.
        let (ux, uy) = (unit_scaled(xs.clone()), unit_scaled(ys.clone()));
        PairedSample {
            xs,
            ys,
            ux,
            uy,
            y_rank,
            y_levels: levels.len(),
            x_group_ends,
            position,
        }
    }

    /// Pair counts of the sample in which item `i` occurs `w[i]` times.
    #[cfg(test)]
    pub(crate) fn weighted_pair_counts(&self, w: &[u32]) -> PairCounts {
        self.weighted_parts(&self.to_sorted(w)).0
    }

    /// `[pearson, spearman, kendall_tau_b, gk_gamma]` of the sample in which
    /// item `i` occurs `w[i]` times; `None` where undefined (fewer than
    /// [`MIN_PAIRS`] items, or a constant side).
    #[cfg(test)]
    pub(crate) fn weighted(&self, w: &[u32]) -> [Option<f64>; 4] {
        self.weighted_sorted(&self.to_sorted(w))
    }

    #[cfg(test)]
    fn to_sorted(&self, w: &[u32]) -> Vec<u32> {
        let mut sorted = vec![0; self.xs.len()];
        for (i, &c) in w.iter().enumerate().take(sorted.len()) {
            sorted[self.position[i]] = c;
        }
        sorted
    }

    /// [`Self::weighted`] with weights in sorted order.
    pub(super) fn weighted_sorted(&self, w: &[u32]) -> [Option<f64>; 4] {
        let (counts, moments) = self.weighted_parts(w);
        let Some([pearson, spearman]) = moments else {
            return [None; 4];
        };
        [pearson, spearman, Some(counts.tau_b()), counts.gamma().ok()]
    }

    /// Pair counts, and Pearson r of values and of average ranks (`None`
    /// overall when a side is constant or there are too few items).
    fn weighted_parts(&self, w: &[u32]) -> (PairCounts, Option<[Option<f64>; 2]>) {
        let n = self.xs.len();
        // Pass 1: totals, x groups, (x, y) runs, y level weights.
        let mut level_w = vec![0u64; self.y_levels];
        let (mut total, mut sum_x, mut sum_y) = (0u64, 0.0, 0.0);
        let (mut tied_x, mut tied_xy, mut x_groups) = (0u64, 0u64, 0usize);
        let mut start = 0;
        for &end in &self.x_group_ends {
            let mut group = 0u64;
            let mut run = 0u64;
            for i in start..end {
                let c = u64::from(w[i]);
                if i > start && self.ys[i] != self.ys[i - 1] {
                    tied_xy += choose2(run);
                    run = 0;
                }
                run += c;
                if c > 0 {
                    group += c;
                    level_w[self.y_rank[i]] += c;
                    sum_x += c as f64 * self.ux[i];
                    sum_y += c as f64 * self.uy[i];
                }
            }
            tied_xy += choose2(run);
            tied_x += choose2(group);
            total += group;
            if group > 0 {
                x_groups += 1;
            }
            start = end;
        }
        let tied_y: u64 = level_w.iter().map(|&c| choose2(c)).sum();
        let y_groups = level_w.iter().filter(|&&c| c > 0).count();
        let mut level_rank = vec![0.0; self.y_levels];
        let mut cum = 0u64;
        for (r, &c) in level_rank.iter_mut().zip(&level_w) {
            *r = cum as f64 + (c as f64 + 1.0) / 2.0;
            cum += c;
        }
        let tf = total as f64;
        let (mx, my, mr) = (sum_x / tf, sum_y / tf, (tf + 1.0) / 2.0);

        // Pass 2: centred moments and discordant pairs.
        let mut tree = vec![0u64; self.y_levels + 1];
        let mut inserted = 0u64;
        let mut discordant = 0u64;
        let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
        let (mut rxy, mut rxx, mut ryy) = (0.0, 0.0, 0.0);
        let mut start = 0;
        let mut cum_x = 0u64;
        for &end in &self.x_group_ends {
            let group: u64 = w[start..end].iter().map(|&c| u64::from(c)).sum();
            let rank_x = cum_x as f64 + (group as f64 + 1.0) / 2.0 - mr;
            cum_x += group;
            for i in start..end {
                if w[i] == 0 {
                    continue;
                }
                let c = u64::from(w[i]);
                let cf = c as f64;
                let (dx, dy) = (self.ux[i] - mx, self.uy[i] - my);
                sxy += cf * dx * dy;
                sxx += cf * dx * dx;
                syy += cf * dy * dy;
                let rank_y = level_rank[self.y_rank[i]] - mr;
                rxy += cf * rank_x * rank_y;
                rxx += cf * rank_x * rank_x;
                ryy += cf * rank_y * rank_y;
                let mut at = self.y_rank[i] + 1;
                let mut not_above = 0u64;
                while at > 0 {
                    not_above += tree[at];
                    at &= at - 1;
                }
                discordant += c * (inserted - not_above);
            }
            for (&wi, &rank) in w[start..end].iter().zip(&self.y_rank[start..end]) {
                let c = u64::from(wi);
                if c > 0 {
                    let mut at = rank + 1;
                    while at < tree.len() {
                        tree[at] += c;
                        at += at & at.wrapping_neg();
                    }
                    inserted += c;
                }
            }
            start = end;
        }
        let pairs = choose2(total);
        let untied = pairs + tied_xy - tied_x - tied_y;
        let counts = PairCounts {
            n: total,
            pairs,
            tied_x,
            tied_y,
            tied_xy,
            concordant: untied - discordant,
            discordant,
        };
        if (total as usize) < MIN_PAIRS || x_groups < 2 || y_groups < 2 || n == 0 {
            return (counts, None);
        }
        let r = |sab: f64, saa: f64, sbb: f64| {
            (saa > 0.0 && sbb > 0.0).then(|| (sab / (saa.sqrt() * sbb.sqrt())).clamp(-1.0, 1.0))
        };
        (counts, Some([r(sxy, sxx, syy), r(rxy, rxx, ryy)]))
    }
}
