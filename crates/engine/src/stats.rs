//! Streaming statistics: what a run keeps about its measured messages, in memory that does
//! not grow with their number.
//!
//! Latencies and hop counts go into exact histograms (so percentiles and the detailed
//! distributions are exact) and into per-batch sums for confidence intervals. Batches are
//! consecutive runs of measured messages *in creation order*, as batch means require.
//! Consecutive latencies are correlated (a queue that is long now is long a moment later), the
//! more so the nearer the network is to saturation, and over spans far longer than one
//! message: many small correlations that a lag-1 test on small batches misses (its
//! path-to-path spread hides them) add up to an interval several times too narrow. So the
//! batches are as long as the run allows ([`BatchMeans`]): up to [`FINE_BATCHES`] fine batches
//! merged pairwise down to between [`MIN_BATCHES`] and twice that; the interval allows for the
//! lag-1 autocorrelation left between them, and a run whose batch means are still correlated
//! beyond [`MAX_LAG1`] is too short for an honest interval and gets none.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};
use std::collections::BTreeMap;

/// Fine batches kept (consecutive measured messages each): the interval merges them into
/// batches as long as the data ask for.
pub const FINE_BATCHES: usize = 1024;
/// Fewest batch means an interval rests on (Schmeiser 1982, *Batch size effects in the
/// analysis of simulation output*: 10 to 30 batches).
pub const MIN_BATCHES: usize = 16;
/// The largest lag-1 autocorrelation r of the batch means an interval allows for (its estimate
/// corrected for bias, [`BatchMeans::correlation`]). For means that follow a first-order
/// autoregression the variance of their grand mean is (1 + r)/(1 − r) times what independent
/// means give, and the interval is widened by its square root; beyond r = 0.4 (a factor over
/// 1.5) the correlation spans more than a batch and its estimate (standard error about 1/√k,
/// k ≤ 31) is too rough to correct by: no interval.
pub const MAX_LAG1: f64 = 0.4;
/// Values below this are counted in a dense array, above it in a sorted map.
const DENSE: u64 = 1 << 16;

/// An exact histogram of non-negative integers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
    count: u64,
}

impl Histogram {
    /// Counts one occurrence of `v`.
    #[inline]
    pub fn add(&mut self, v: u64) {
        self.count += 1;
        if v < DENSE {
            let i = v as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, 0);
            }
            self.dense[i] += 1;
        } else {
            *self.sparse.entry(v).or_insert(0) += 1;
        }
    }

    /// Number of values counted.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// (value, occurrences) in increasing order of value, values that never occurred left out.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let dense = self.dense.iter().enumerate().filter(|(_, n)| **n > 0).map(|(v, &n)| (v as u64, n));
        dense.chain(self.sparse.iter().map(|(&v, &n)| (v, n)))
    }

    /// The value of rank `r` (0-based) in sorted order.
    fn at_rank(&self, r: u64) -> Option<u64> {
        let mut seen = 0;
        for (v, n) in self.iter() {
            seen += n;
            if r < seen {
                return Some(v);
            }
        }
        None
    }

    /// The q-quantile as the value of rank round(q·(count − 1)).
    pub fn quantile(&self, q: f64) -> Option<u64> {
        if self.count == 0 {
            return None;
        }
        self.at_rank((q * (self.count - 1) as f64).round() as u64)
    }

    /// The largest value.
    pub fn max(&self) -> Option<u64> {
        self.sparse
            .keys()
            .next_back()
            .copied()
            .or_else(|| self.dense.iter().rposition(|&n| n > 0).map(|i| i as u64))
    }
}

/// What is kept about the measured messages: the messages created at or after the warm-up,
/// the first `target` of them, numbered in creation order by their sequence number.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Measured messages wanted.
    pub target: u64,
    /// Measured messages created so far.
    pub created: u64,
    /// Measured messages delivered.
    pub delivered: u64,
    /// Latency histogram.
    pub latency: Histogram,
    /// Hop-count histogram.
    pub hops: Histogram,
    /// Sum of the cycles measured messages waited at their source before their first hop.
    pub source_wait_sum: u128,
    /// Delivered measured messages that went through an intermediate (Valiant, UGAL, PAR).
    pub nonminimal: u64,
    latency_sum: u128,
    hops_sum: u128,
    /// Per fine batch of `per_batch` consecutive sequence numbers: (latency sum, hop sum,
    /// messages).
    batches: Vec<(f64, f64, u64)>,
    per_batch: u64,
    /// Latency by creation order (sequence number), for the growth test of a drained run.
    by_creation: History,
    /// Latency by delivery cycle (from the warm-up), for the growth test of a run stopped
    /// before it drained.
    by_delivery: History,
}

/// Latency sums and counts of delivered messages keyed by a growing number (a sequence number,
/// a cycle): at most [`HISTORY_BUCKETS`] buckets of 2^`shift` consecutive keys from key 0, a
/// wider bucket merging two, so it spans whatever range the run reaches in constant memory.
#[derive(Clone, Debug, Default, PartialEq)]
struct History {
    buckets: Vec<(f64, u64)>,
    shift: u32,
}

/// Buckets of a latency history.
const HISTORY_BUCKETS: usize = 64;

impl History {
    #[inline]
    fn add(&mut self, key: u64, latency: u64) {
        let mut b = key >> self.shift;
        while b >= HISTORY_BUCKETS as u64 {
            let merged =
                self.buckets.chunks(2).map(|p| p.iter().fold((0.0, 0), |a, x| (a.0 + x.0, a.1 + x.1)));
            self.buckets = merged.collect();
            self.shift += 1;
            b = key >> self.shift;
        }
        let b = b as usize;
        if self.buckets.len() <= b {
            self.buckets.resize(b + 1, (0.0, 0));
        }
        self.buckets[b].0 += latency as f64;
        self.buckets[b].1 += 1;
    }

    /// True when the last quarter of the buckets' messages took on average more than 1.5 times
    /// as long as the first quarter's, each quarter holding at least 10 messages.
    fn grows(&self) -> bool {
        let n = self.buckets.len();
        let sum = |r: std::ops::Range<usize>| {
            self.buckets[r].iter().fold((0.0, 0u64), |a, x| (a.0 + x.0, a.1 + x.1))
        };
        let (first, last) = (sum(0..n / 4), sum(n - n / 4..n));
        first.1 >= 10 && last.1 >= 10 && last.0 / last.1 as f64 > 1.5 * (first.0 / first.1 as f64)
    }
}

impl Measured {
    /// Nothing measured yet, `target` wanted.
    pub fn new(target: u64) -> Self {
        // At most FINE_BATCHES batches of equal size; the last few sequence numbers beyond
        // their whole number are left out of the interval (not of the mean).
        let per_batch = target.div_ceil(FINE_BATCHES as u64).max(1);
        let fine = if target >= MIN_BATCHES as u64 { (target / per_batch) as usize } else { 0 };
        Measured {
            target,
            created: 0,
            delivered: 0,
            latency: Histogram::default(),
            hops: Histogram::default(),
            source_wait_sum: 0,
            nonminimal: 0,
            latency_sum: 0,
            hops_sum: 0,
            batches: vec![(0.0, 0.0, 0); fine],
            per_batch,
            by_creation: History::default(),
            by_delivery: History::default(),
        }
    }

    /// Records the delivery of measured message `seq`.
    #[inline]
    pub fn record(&mut self, seq: u64, since_warmup: u64, latency: u64, hops: u64, source_wait: u64) {
        self.delivered += 1;
        self.latency.add(latency);
        self.hops.add(hops);
        self.latency_sum += latency as u128;
        self.hops_sum += hops as u128;
        self.source_wait_sum += source_wait as u128;
        if let Some(e) = self.batches.get_mut((seq / self.per_batch) as usize) {
            e.0 += latency as f64;
            e.1 += hops as f64;
            e.2 += 1;
        }
        self.by_creation.add(seq, latency);
        self.by_delivery.add(since_warmup, latency);
    }

    /// Mean latency of the delivered measured messages.
    pub fn mean_latency(&self) -> f64 {
        self.latency_sum as f64 / self.delivered.max(1) as f64
    }

    /// Mean hops of the delivered measured messages.
    pub fn mean_hops(&self) -> f64 {
        self.hops_sum as f64 / self.delivered.max(1) as f64
    }

    /// Mean source wait of the delivered measured messages.
    pub fn mean_source_wait(&self) -> f64 {
        self.source_wait_sum as f64 / self.delivered.max(1) as f64
    }

    /// 95% confidence half-widths (latency, hops) from batch means, when both are honest
    /// ([`BatchMeans`]).
    pub fn ci95(&self) -> (Option<f64>, Option<f64>) {
        let honest = |b: Option<BatchMeans>| b.and_then(|b| b.half_width());
        (honest(self.batch_means(|b| b.0)), honest(self.batch_means(|b| b.1)))
    }

    /// The latency's batch means ([`BatchMeans`]), when every fine batch is complete.
    pub fn latency_batches(&self) -> Option<BatchMeans> {
        self.batch_means(|b| b.0)
    }

    /// Batch means of the quantity `pick` sums, with the batch size chosen from the data:
    /// `None` until every fine batch is complete (or with fewer than [`MIN_BATCHES`] measured
    /// messages).
    fn batch_means(&self, pick: fn(&(f64, f64, u64)) -> f64) -> Option<BatchMeans> {
        if self.batches.is_empty() || self.batches.iter().any(|b| b.2 != self.per_batch) {
            return None;
        }
        let means: Vec<f64> = self.batches.iter().map(|b| pick(b) / b.2 as f64).collect();
        Some(BatchMeans::choose(means, self.per_batch))
    }
    /// True when the last quarter of the delivered measured messages took on average more than
    /// 1.5 times as long as the first quarter, each quarter holding at least 10
    /// delivered messages: the signature of a queue that keeps growing.
    ///
    /// `drained`: every measured message was delivered, and creation order is the measure. A
    /// run stopped before (by its cycle limit) has delivered a part of them, the fast sources'
    /// more than the slow ones' (a saturated mesh favours its corners), so creation order would
    /// compare early messages with lucky late ones; delivery time is the measure then: a
    /// stable network delivers with a steady latency until the stop, a saturated one later and
    /// later.
    pub fn latency_grows(&self, drained: bool) -> bool {
        if drained { self.by_creation.grows() } else { self.by_delivery.grows() }
    }
}

/// Batch means as long as the run allows: fine batch means merged pairwise (the oldest left
/// out when their number is odd) while at least [`MIN_BATCHES`] would remain, so k is between
/// 16 and 31; their lag-1 autocorrelation decides whether and how wide an interval is (see the
/// module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct BatchMeans {
    /// The batch means, oldest first.
    pub means: Vec<f64>,
    /// Measured messages per batch.
    pub per_batch: u64,
    /// Lag-1 autocorrelation of the means.
    pub lag1: f64,
}

impl BatchMeans {
    /// Merges `means` (of `per_batch` messages each) as the type's docs say.
    pub fn choose(mut means: Vec<f64>, mut per_batch: u64) -> Self {
        while means.len() / 2 >= MIN_BATCHES {
            let odd = means.len() % 2;
            means = means[odd..].chunks(2).map(|p| (p[0] + p[1]) / 2.0).collect();
            per_batch *= 2;
        }
        let lag1 = lag1_autocorrelation(&means);
        BatchMeans { means, per_batch, lag1 }
    }

    /// The lag-1 autocorrelation corrected for the bias of its estimate over k values,
    /// r + (1 + 4r)/k (Marriott & Pope 1954, for a first-order autoregression), at least 0.
    pub fn correlation(&self) -> f64 {
        let k = self.means.len().max(1) as f64;
        (self.lag1 + (1.0 + 4.0 * self.lag1) / k).max(0.0)
    }

    /// Whether the means are enough and little enough correlated for an interval.
    pub fn usable(&self) -> bool {
        self.correlation() <= MAX_LAG1 && self.means.len() >= MIN_BATCHES
    }

    /// The 95% half-width t(0.975, k − 1) · s / √k over the k batch means, widened by
    /// √((1 + r)/(1 − r)) for their [correlation](Self::correlation) r, when they are
    /// [usable](Self::usable).
    pub fn half_width(&self) -> Option<f64> {
        let r = self.correlation();
        let widen = ((1.0 + r) / (1.0 - r)).sqrt();
        self.usable().then(|| student_half_width(&self.means).map(|h| h * widen)).flatten()
    }
}

/// How much wider each of `n` 95% intervals must be for all `n` to hold at once with 95%
/// confidence (Bonferroni): z(1 − 0.025/n) / z(0.975); 1 for one.
pub fn bonferroni_widening(n: usize) -> f64 {
    let normal = statrs::distribution::Normal::standard();
    normal.inverse_cdf(1.0 - 0.025 / n.max(1) as f64) / normal.inverse_cdf(0.975)
}

/// Lag-1 sample autocorrelation Σ (x_i − x̄)(x_{i+1} − x̄) / Σ (x_i − x̄)²; 0 for a constant
/// series.
pub fn lag1_autocorrelation(x: &[f64]) -> f64 {
    let n = x.len();
    if n < 2 {
        return 0.0;
    }
    let mean = x.iter().sum::<f64>() / n as f64;
    let var: f64 = x.iter().map(|v| (v - mean).powi(2)).sum();
    if var == 0.0 {
        return 0.0;
    }
    x.windows(2).map(|w| (w[0] - mean) * (w[1] - mean)).sum::<f64>() / var
}

/// The 95% two-sided Student-t half-width t(0.975, k − 1) · s / √k of the mean of `x`, its k
/// values independent and alike; `None` for fewer than two values.
pub fn student_half_width(x: &[f64]) -> Option<f64> {
    let k = x.len();
    if k < 2 {
        return None;
    }
    let mean = x.iter().sum::<f64>() / k as f64;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let t = StudentsT::new(0.0, 1.0, (k - 1) as f64).ok()?.inverse_cdf(0.975);
    Some(t * (var / k as f64).sqrt())
}

/// What the network delivered over the whole run, warm-up included, by delivery cycle: the
/// series the report's steady-state test (MSER, White 1997) and its accepted load per window
/// read. At most [`SERIES_BUCKETS`] buckets of 2^`shift`
/// cycles from cycle 0, a wider bucket merging two, so constant memory spans any run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    buckets: Vec<SeriesBucket>,
    shift: u32,
}

/// One bucket of a [`Series`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeriesBucket {
    /// Flits delivered that crossed the network (self-addressed messages' left out).
    pub flits: u64,
    /// Messages delivered (self-addressed ones included, as in the latency).
    pub messages: u64,
    /// Their latencies' sum.
    pub latency_sum: u64,
}

/// Buckets of a [`Series`]: between half of them and all of them are in use.
pub const SERIES_BUCKETS: usize = 256;

impl Series {
    /// Counts deliveries at `cycle`.
    #[inline]
    pub fn add(&mut self, cycle: u64, d: SeriesBucket) {
        let mut b = cycle >> self.shift;
        while b >= SERIES_BUCKETS as u64 {
            let merged = self.buckets.chunks(2).map(|p| {
                p.iter().fold(SeriesBucket::default(), |a, x| SeriesBucket {
                    flits: a.flits + x.flits,
                    messages: a.messages + x.messages,
                    latency_sum: a.latency_sum + x.latency_sum,
                })
            });
            self.buckets = merged.collect();
            self.shift += 1;
            b = cycle >> self.shift;
        }
        let b = b as usize;
        if self.buckets.len() <= b {
            self.buckets.resize(b + 1, SeriesBucket::default());
        }
        let e = &mut self.buckets[b];
        e.flits += d.flits;
        e.messages += d.messages;
        e.latency_sum += d.latency_sum;
    }

    /// Cycles per bucket.
    pub fn width(&self) -> u64 {
        1 << self.shift
    }

    /// The buckets wholly before cycle `end` (bucket i spans cycles [i·width, (i+1)·width)),
    /// those without deliveries included.
    pub fn buckets_before(&self, end: u64) -> Vec<SeriesBucket> {
        let n = ((end >> self.shift) as usize).min(SERIES_BUCKETS);
        let mut v: Vec<SeriesBucket> = self.buckets.iter().take(n).copied().collect();
        v.resize(n, SeriesBucket::default());
        v
    }
}

/// Latency percentiles of measured messages.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Percentiles {
    /// Median.
    pub p50: u64,
    /// 95th percentile.
    pub p95: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest.
    pub max: u64,
}

impl Percentiles {
    /// The percentiles of `h`, if it holds anything.
    pub fn of(h: &Histogram) -> Option<Self> {
        Some(Percentiles {
            p50: h.quantile(0.5)?,
            p95: h.quantile(0.95)?,
            p99: h.quantile(0.99)?,
            max: h.max()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification against sorting: the histogram's quantiles are the sorted values' ranks.
    #[test]
    fn histogram_quantiles_match_sorting() {
        let values: Vec<u64> =
            (0..5000u64).map(|i| (i * 7919) % 1013 + if i % 97 == 0 { 100_000 + i } else { 0 }).collect();
        let mut h = Histogram::default();
        values.iter().for_each(|&v| h.add(v));
        let mut sorted = values.clone();
        sorted.sort_unstable();
        for q in [0.0, 0.5, 0.95, 0.99, 1.0] {
            let r = (q * (sorted.len() - 1) as f64).round() as usize;
            assert_eq!(h.quantile(q), Some(sorted[r]), "q = {q}");
        }
        assert_eq!(h.max(), sorted.last().copied());
        assert_eq!(h.iter().map(|(_, n)| n).sum::<u64>(), 5000);
    }

    /// Verification: constant latencies have a zero-width interval; fewer messages than
    /// batches give none; a rising sequence is detected as growing and a flat one is not.
    #[test]
    fn batches_and_growth() {
        let mut m = Measured::new(400);
        for s in 0..400 {
            m.record(s, s, 5, 2, 0);
        }
        assert_eq!(m.ci95(), (Some(0.0), Some(0.0)));
        assert!(!m.latency_grows(true) && !m.latency_grows(false));
        let mut few = Measured::new(MIN_BATCHES as u64 - 1);
        (0..MIN_BATCHES as u64 - 1).for_each(|s| few.record(s, s, 5, 2, 0));
        assert_eq!(few.ci95(), (None, None));
        let mut rising = Measured::new(400);
        (0..400).for_each(|s| rising.record(s, s, 10 + s, 2, 0));
        assert!(rising.latency_grows(true) && rising.latency_grows(false));
        // Delivered out of creation order, as a saturated network's sources are served unevenly:
        // at each cycle t one old message (created at t / 8, waiting 7t / 8) and one new one
        // (created at t + 1000, delivered at once: a later sequence number). By creation order
        // the last quarter holds only the quick ones; by delivery time latency grows.
        let mut uneven = Measured::new(1 << 30);
        for t in 0..4000u64 {
            uneven.record(t / 8, t, 7 * t / 8, 2, 0);
            uneven.record(t + 1000, t, 1, 2, 0);
        }
        assert!(!uneven.latency_grows(true) && uneven.latency_grows(false));
        // Far more sequence numbers than buckets: the history merges them.
        let mut long = Measured::new(1 << 30);
        (0..1_000_000u64).for_each(|s| long.record(s, s, 10, 2, 0));
        assert!(!long.latency_grows(true) && !long.latency_grows(false));
    }

    /// Verification of the half-width against Student's t tables (t(0.975, 1) = 12.706,
    /// t(0.975, 19) = 2.093): two values 1 and 3 have s = √2, s/√2 = 1.
    #[test]
    fn student_half_widths_match_the_tables() {
        assert!((student_half_width(&[1.0, 3.0]).unwrap() - 12.706).abs() < 1e-3);
        let x: Vec<f64> = (0..20).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        // s² = 20/19, so the half-width is 2.093 · √(20/19/20).
        assert!((student_half_width(&x).unwrap() - 2.093 * (1.0f64 / 19.0).sqrt()).abs() < 1e-3);
        assert_eq!(student_half_width(&[4.0]), None);
        // Ten intervals at once: z(0.9975) = 2.807 against z(0.975) = 1.960.
        assert!((bonferroni_widening(10) - 2.807 / 1.960).abs() < 1e-3);
        assert!((bonferroni_widening(1) - 1.0).abs() < 1e-12);
    }

    /// Verification on series whose correlation is known: alternating values merge to 16–31
    /// batches with a zero-width interval (their means are equal); a square wave
    /// slower than the run (runs of 512 of 1024) keeps neighbouring means equal, lag-1
    /// autocorrelation near 1: no interval; 1000 fine batches end as 31 (the oldest dropped at
    /// each odd count).
    #[test]
    fn batches_are_as_long_as_the_run_allows() {
        let alternating: Vec<f64> = (0..1024).map(|i| (i % 2) as f64).collect();
        let b = BatchMeans::choose(alternating, 3);
        assert_eq!((b.means.len(), b.per_batch), (16, 192));
        assert_eq!(b.half_width(), Some(0.0));
        let wave: Vec<f64> = (0..1024).map(|i| ((i / 512) % 2) as f64).collect();
        let b = BatchMeans::choose(wave, 1);
        assert!(b.lag1 > MAX_LAG1 && b.half_width().is_none(), "{b:?}");
        let b = BatchMeans::choose(vec![1.0; 1000], 10);
        assert_eq!((b.means.len(), b.per_batch), (31, 320));
        assert!((lag1_autocorrelation(&[2.0; 8])).abs() < 1e-12);
    }
}
