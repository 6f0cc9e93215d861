//! Streaming statistics: what a run keeps about its measured messages, in memory that does
//! not grow with their number.
//!
//! Latencies and hop counts go into exact histograms (so percentiles and the detailed
//! distributions are exact) and into per-batch sums for confidence intervals. Batches are
//! consecutive runs of measured messages *in creation order*, as batch means require:
//! consecutive latencies are correlated, so the interval comes from the spread of
//! [`BATCHES`] batch means, not from single messages.

use serde::Serialize;
use std::collections::BTreeMap;

/// Batches used for confidence intervals.
pub const BATCHES: usize = 20;
/// Student's t quantile for 95% two-sided with `BATCHES − 1` = 19 degrees of freedom.
const T_19: f64 = 2.093;
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
    /// Per batch of `per_batch` consecutive sequence numbers: (latency sum, hop sum, messages).
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
        let per_batch = target / BATCHES as u64;
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
            batches: vec![(0.0, 0.0, 0); if per_batch >= 2 { BATCHES } else { 0 }],
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
        if self.per_batch >= 2 {
            let b = seq / self.per_batch;
            if (b as usize) < BATCHES {
                let e = &mut self.batches[b as usize];
                e.0 += latency as f64;
                e.1 += hops as f64;
                e.2 += 1;
            }
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

    /// 95% confidence half-widths (latency, hops) from the batch means, when every batch is
    /// complete and holds at least two messages.
    pub fn ci95(&self) -> (Option<f64>, Option<f64>) {
        if self.batches.is_empty() || self.batches.iter().any(|b| b.2 != self.per_batch) {
            return (None, None);
        }
        let half_width = |pick: fn(&(f64, f64, u64)) -> f64| {
            let means: Vec<f64> = self.batches.iter().map(|b| pick(b) / b.2 as f64).collect();
            let grand = means.iter().sum::<f64>() / BATCHES as f64;
            let var = means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() / (BATCHES - 1) as f64;
            T_19 * (var / BATCHES as f64).sqrt()
        };
        (Some(half_width(|b| b.0)), Some(half_width(|b| b.1)))
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

    /// Verification: constant latencies have a zero-width interval; too few messages per
    /// batch give none; a rising sequence is detected as growing and a flat one is not.
    #[test]
    fn batches_and_growth() {
        let mut m = Measured::new(400);
        for s in 0..400 {
            m.record(s, s, 5, 2, 0);
        }
        assert_eq!(m.ci95(), (Some(0.0), Some(0.0)));
        assert!(!m.latency_grows(true) && !m.latency_grows(false));
        let mut few = Measured::new(30);
        (0..30).for_each(|s| few.record(s, s, 5, 2, 0));
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
}
