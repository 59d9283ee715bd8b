//! Summaries over seeds: mean and spread, ranks, rank correlation,
//! quantiles, bootstrap intervals, empirical CDFs.
//!
//! Every verdict in the book is a statement about one of these summaries
//! taken over many seeds. Introduced in chapter 1.

use crate::random::Rng;
use rand::RngExt;

/// Mean, sample standard deviation and count of a set of measurements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub mean: f64,
    pub sd: f64,
    pub n: usize,
}

impl Summary {
    /// `mean ± sd` of `xs`; `sd` is the sample (n − 1) standard deviation.
    ///
    /// # Panics
    /// If `xs` is empty.
    ///
    /// ```
    /// use attention_geometry::stats::Summary;
    /// let s = Summary::of(&[1.0, 2.0, 3.0]);
    /// assert_eq!((s.mean, s.sd, s.n), (2.0, 1.0, 3));
    /// ```
    pub fn of(xs: &[f64]) -> Summary {
        assert!(!xs.is_empty(), "Summary::of needs at least one value");
        let n = xs.len();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Summary {
            mean,
            sd: var.sqrt(),
            n,
        }
    }

    /// [`Summary::of`] the values `xs` yields, in order: for values computed
    /// on the way, with no vector to build at the call site.
    ///
    /// # Panics
    /// If `xs` yields nothing.
    ///
    /// ```
    /// use attention_geometry::stats::Summary;
    /// let runs = [(1.0, "a"), (2.0, "b"), (3.0, "c")];
    /// let s = Summary::over(runs.iter().map(|r| r.0));
    /// assert_eq!(s, Summary::of(&[1.0, 2.0, 3.0]));
    /// assert_eq!((s.mean, s.sd, s.n), (2.0, 1.0, 3));
    /// ```
    pub fn over(xs: impl IntoIterator<Item = f64>) -> Summary {
        Summary::of(&xs.into_iter().collect::<Vec<_>>())
    }

    /// The normal-approximation 95% interval of the mean, `mean ± 1.96 sd/√n`.
    ///
    /// ```
    /// use attention_geometry::stats::Summary;
    /// let (lo, hi) = Summary::of(&[1.0, 2.0, 3.0, 4.0]).ci95();
    /// assert!((hi - lo - 2.0 * 1.96 * 1.2909944 / 2.0).abs() < 1e-6);
    /// ```
    pub fn ci95(&self) -> (f64, f64) {
        let half = 1.96 * self.sd / (self.n as f64).sqrt();
        (self.mean - half, self.mean + half)
    }
}

/// Mean of `xs` (NaN when empty).
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The share of `xs` that are true (NaN when empty).
///
/// ```
/// use attention_geometry::stats::share;
/// assert_eq!(share([true, false, true, true]), 0.75);
/// ```
pub fn share(xs: impl IntoIterator<Item = bool>) -> f64 {
    let v: Vec<bool> = xs.into_iter().collect();
    v.iter().filter(|&&b| b).count() as f64 / v.len() as f64
}

/// The index among `indices` whose value is largest; the last one of equal
/// largest values (as `Iterator::max_by`), `None` when `indices` is empty.
///
/// ```text
/// argmax(I, v) = max { i ∈ I : v(i) = max_{j ∈ I} v(j) }
/// ```
///
/// ```
/// use attention_geometry::stats::argmax;
/// let v = [0.1, 0.7, 0.2, 0.7];
/// assert_eq!(argmax(0..4, |i| v[i]), Some(3));
/// assert_eq!(argmax([0, 1, 2], |i| v[i]), Some(1));
/// assert_eq!(argmax(0..0, |i| v[i]), None);
/// ```
pub fn argmax(
    indices: impl IntoIterator<Item = usize>,
    value: impl Fn(usize) -> f64,
) -> Option<usize> {
    indices
        .into_iter()
        .max_by(|&a, &b| value(a).total_cmp(&value(b)))
}

/// Ranks `1..=n` of `xs`, ties sharing their average rank.
///
/// ```
/// use attention_geometry::stats::ranks;
/// assert_eq!(ranks(&[10.0, 30.0, 20.0, 20.0]), vec![1.0, 4.0, 2.5, 2.5]);
/// ```
pub fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        // positions i..=j tie: each gets the mean of ranks i+1..=j+1
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &o in &order[i..=j] {
            r[o] = avg;
        }
        i = j + 1;
    }
    r
}

/// Pearson correlation of two equally long samples.
///
/// # Panics
/// If the lengths differ.
pub fn pearson(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(
        a.len(),
        b.len(),
        "pearson: lengths {} and {} differ",
        a.len(),
        b.len()
    );
    let (ma, mb) = (mean(a), mean(b));
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma).powi(2);
        sbb += (y - mb).powi(2);
    }
    sab / (saa * sbb).sqrt()
}

/// Spearman rank correlation: the Pearson correlation of the ranks.
///
/// ```
/// use attention_geometry::stats::spearman;
/// let a = [1.0, 2.0, 3.0, 4.0];
/// assert!((spearman(&a, &[1.0, 8.0, 27.0, 64.0]) - 1.0).abs() < 1e-12);
/// assert!((spearman(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
/// ```
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

/// The `p`-quantile of `xs` (linear interpolation between order statistics).
///
/// # Panics
/// If `xs` is empty or `p` is outside `[0, 1]`.
///
/// ```
/// use attention_geometry::stats::quantile;
/// assert_eq!(quantile(&[3.0, 1.0, 2.0], 0.5), 2.0);
/// assert_eq!(quantile(&[1.0, 2.0], 0.25), 1.25);
/// ```
pub fn quantile(xs: &[f64], p: f64) -> f64 {
    assert!(!xs.is_empty(), "quantile of an empty sample");
    assert!(
        (0.0..=1.0).contains(&p),
        "quantile level {p} is outside [0, 1]"
    );
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let h = p * (s.len() - 1) as f64;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    s[lo] + (h - lo as f64) * (s[hi] - s[lo])
}

/// The median of `xs`.
pub fn median(xs: &[f64]) -> f64 {
    quantile(xs, 0.5)
}

/// Percentile bootstrap confidence interval `(lo, hi)` at `level` for
/// `stat` of `xs`, from `reps` resamples.
///
/// ```
/// use attention_geometry::random::seeded;
/// use attention_geometry::stats::{bootstrap_ci, median};
/// let xs: Vec<f64> = (0..50).map(f64::from).collect();
/// let (lo, hi) = bootstrap_ci(&xs, median, 0.95, 500, &mut seeded(0));
/// assert!(lo < 24.5 && 24.5 < hi);
/// ```
pub fn bootstrap_ci(
    xs: &[f64],
    stat: fn(&[f64]) -> f64,
    level: f64,
    reps: usize,
    rng: &mut Rng,
) -> (f64, f64) {
    let n = xs.len();
    let stats: Vec<f64> = (0..reps)
        .map(|_| {
            let sample: Vec<f64> = (0..n).map(|_| xs[rng.random_range(0..n)]).collect();
            stat(&sample)
        })
        .collect();
    let tail = (1.0 - level) / 2.0;
    (quantile(&stats, tail), quantile(&stats, 1.0 - tail))
}

/// Empirical CDF of `xs` as sorted points `(x, fraction ≤ x)`.
///
/// ```
/// use attention_geometry::stats::ecdf;
/// assert_eq!(ecdf(&[2.0, 1.0]), vec![(1.0, 0.5), (2.0, 1.0)]);
/// ```
pub fn ecdf(xs: &[f64]) -> Vec<(f64, f64)> {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    s.iter()
        .enumerate()
        .map(|(i, &x)| (x, (i + 1) as f64 / n))
        .collect()
}

/// Histogram of `xs` on `bins` equal bins over `[lo, hi]`, as
/// `(left edge, right edge, density)` with density integrating to the
/// fraction of `xs` inside the range. Values outside are dropped.
///
/// ```
/// use attention_geometry::stats::histogram;
/// let h = histogram(&[0.1, 0.2, 0.7], 0.0, 1.0, 2);
/// assert_eq!(h, vec![(0.0, 0.5, 4.0 / 3.0), (0.5, 1.0, 2.0 / 3.0)]);
/// ```
pub fn histogram(xs: &[f64], lo: f64, hi: f64, bins: usize) -> Vec<(f64, f64, f64)> {
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0usize; bins];
    for &x in xs {
        if (lo..=hi).contains(&x) {
            counts[(((x - lo) / width) as usize).min(bins - 1)] += 1;
        }
    }
    let n = xs.len() as f64;
    counts
        .iter()
        .enumerate()
        .map(|(b, &c)| {
            (
                lo + b as f64 * width,
                lo + (b + 1) as f64 * width,
                c as f64 / (n * width),
            )
        })
        .collect()
}
/// Least-squares slope of `ys` against `0, 1, …`: `Σ (x − x̄)(y − ȳ) / Σ (x − x̄)²`.
///
/// ```
/// assert!((attention_geometry::stats::slope(&[1.0, 3.0, 5.0]) - 2.0).abs() < 1e-12);
/// ```
pub fn slope(ys: &[f64]) -> f64 {
    let n = ys.len() as f64;
    let (xm, ym) = ((n - 1.0) / 2.0, ys.iter().sum::<f64>() / n);
    let num: f64 = ys
        .iter()
        .enumerate()
        .map(|(x, y)| (x as f64 - xm) * (y - ym))
        .sum();
    let den: f64 = (0..ys.len()).map(|x| (x as f64 - xm).powi(2)).sum();
    num / den
}
