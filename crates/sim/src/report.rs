//! Statistics of a run: latency with a batch-means confidence interval, percentiles, hop
//! counts, utilisation by channel class, accepted throughput, and the saturation verdict.

use crate::engine::Outcome;
use serde::Serialize;

/// Batches used for confidence intervals: consecutive latencies are correlated, so the CI
/// comes from the spread of 20 batch means, not from the spread of single messages.
pub const BATCHES: usize = 20;
/// Student's t quantile for 95% two-sided with 19 degrees of freedom.
const T_19: f64 = 2.093;

/// Mean and 95% confidence half-width by batch means over `values` in order (`None` for the
/// half-width when there are fewer than two values per batch).
pub fn batch_means(values: &[f64]) -> (f64, Option<f64>) {
    batch_means_of(values.len(), values.iter().copied())
}

/// [`batch_means`] over the `n` values an iterator yields, without collecting them.
fn batch_means_of(n: usize, values: impl Iterator<Item = f64>) -> (f64, Option<f64>) {
    let per = n / BATCHES;
    let mut total = 0.0;
    let mut means = Vec::with_capacity(BATCHES);
    let mut batch = 0.0;
    for (i, v) in values.enumerate() {
        total += v;
        if per >= 2 && i < per * BATCHES {
            batch += v;
            if (i + 1) % per == 0 {
                means.push(batch / per as f64);
                batch = 0.0;
            }
        }
    }
    let mean = total / n.max(1) as f64;
    if per < 2 {
        return (mean, None);
    }
    let grand = means.iter().sum::<f64>() / BATCHES as f64;
    let var = means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() / (BATCHES - 1) as f64;
    (mean, Some(T_19 * (var / BATCHES as f64).sqrt()))
}

/// Utilisation of one channel class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassUtilization {
    /// Class name, e.g. `dim 1`.
    pub class: String,
    /// Measured busy fraction, averaged over the class's channels.
    pub utilization: f64,
    /// Expected from the traffic and routing (offered load), when known.
    pub expected: Option<f64>,
}

/// Latency percentiles of measured messages.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Percentiles {
    /// Median.
    pub p50: u32,
    /// 95th percentile.
    pub p95: u32,
    /// 99th percentile.
    pub p99: u32,
    /// Largest.
    pub max: u32,
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Measured channel utilisation ρ: busy channel-cycles over channel-cycles in the window.
    pub utilization: f64,
    /// Mean latency T of measured messages; `None` when the network is saturated.
    pub latency: Option<f64>,
    /// 95% confidence half-width of `latency` (batch means).
    pub latency_ci95: Option<f64>,
    /// Mean latency of the measured messages that were delivered, whatever the verdict (under
    /// saturation it grows with the run's length and means nothing on its own).
    pub latency_observed: f64,
    /// Mean cycles from creation to the first hop's start (queueing at the source).
    pub source_queueing: f64,
    /// Mean of latency minus source queueing.
    pub network_latency: f64,
    /// Percentiles of measured latencies.
    pub latency_percentiles: Option<Percentiles>,
    /// Accepted throughput: messages delivered per node per cycle in the window.
    pub throughput: f64,
    /// Offered load: messages created per node per cycle in the window.
    pub offered: f64,
    /// True when the offered load exceeds what the network carries.
    pub saturated: bool,
    /// Why the run was judged saturated.
    pub saturation_reason: Option<String>,
    /// Measured messages delivered.
    pub messages_delivered: u64,
    /// Messages created in the measurement window (measured or not).
    pub messages_generated: u64,
    /// Messages delivered in the measurement window (measured or not).
    pub messages_delivered_window: u64,
    /// Cycles simulated, warm-up included.
    pub cycles: u64,
    /// Warm-up cycles discarded.
    pub warmup: u64,
    /// Mean hops of measured messages.
    pub mean_hops: f64,
    /// 95% confidence half-width of `mean_hops`.
    pub mean_hops_ci95: Option<f64>,
    /// Utilisation per channel class.
    pub utilization_by_class: Vec<ClassUtilization>,
    /// Histogram of hop counts of measured messages (index = hops).
    pub hop_histogram: Vec<u64>,
}

/// The offered channel load, when it can be computed: expected busy fraction of the most
/// loaded channel and the class means.
#[derive(Clone, Debug, PartialEq)]
pub struct OfferedLoad {
    /// Most loaded channel.
    pub max: f64,
    /// Mean per class.
    pub class_mean: Vec<f64>,
}

/// Summarises `o`. `classes[c]` names channel `c`'s class; `widths[c]` is its width.
pub fn summarize(
    o: &Outcome,
    class_of: &[u16],
    class_names: &[String],
    offered: Option<&OfferedLoad>,
) -> Report {
    let window = (o.end.saturating_sub(o.warmup)).max(1) as f64;
    let nodes = o.generated.len().max(1) as f64;
    // Measured messages that arrived, in creation order; no copies of the per-message data.
    let arrived = || (0..o.latencies.len()).filter(|&i| o.latencies[i] != u32::MAX);
    let delivered = arrived().count();
    let (latency_observed, latency_ci95) =
        batch_means_of(delivered, arrived().map(|i| o.latencies[i] as f64));
    let (mean_hops, mean_hops_ci95) = batch_means_of(delivered, arrived().map(|i| o.hops[i] as f64));
    let source_queueing = arrived().map(|i| o.source_waits[i] as f64).sum::<f64>() / delivered.max(1) as f64;

    let mut by_class = vec![(0u64, 0u64); class_names.len()];
    for (c, &busy) in o.channel_busy.iter().enumerate() {
        let e = &mut by_class[class_of[c] as usize];
        e.0 += busy;
        e.1 += 1;
    }
    let utilization =
        o.channel_busy.iter().sum::<u64>() as f64 / (o.channel_busy.len().max(1) as f64 * window);
    let utilization_by_class = class_names
        .iter()
        .enumerate()
        .map(|(i, name)| ClassUtilization {
            class: name.clone(),
            utilization: by_class[i].0 as f64 / (by_class[i].1.max(1) as f64 * window),
            expected: offered.map(|l| l.class_mean[i]),
        })
        .collect();

    let generated: u64 = o.generated.iter().map(|&x| x as u64).sum();
    let delivered_window: u64 = o.delivered.iter().map(|&x| x as u64).sum();
    let offered_rate = generated as f64 / (nodes * window);
    let throughput = delivered_window as f64 / (nodes * window);

    let max_hops = arrived().map(|i| o.hops[i] as usize).max().unwrap_or(0);
    let mut hop_histogram = vec![0u64; max_hops + 1];
    for i in arrived() {
        hop_histogram[o.hops[i] as usize] += 1;
    }

    let saturation_reason = if let Some(load) = offered.filter(|l| l.max >= 1.0) {
        Some(format!(
            "offered load on the busiest channel is {:.4} flits/cycle (>= 1): queues grow without bound",
            load.max
        ))
    } else if !o.drained {
        Some(format!(
            "{} of {} measured messages were still in the network after {} cycles",
            o.latencies.len() - delivered,
            o.latencies.len(),
            o.end
        ))
    } else if growing(&arrived().map(|i| o.latencies[i]).collect::<Vec<_>>())
        && throughput < 0.95 * offered_rate
    {
        Some(format!(
            "accepted throughput {throughput:.5} is below the offered {offered_rate:.5} and latency grows through the run"
        ))
    } else {
        None
    };
    let saturated = saturation_reason.is_some();
    Report {
        utilization,
        latency: (!saturated && delivered > 0).then_some(latency_observed),
        latency_ci95: if saturated { None } else { latency_ci95 },
        latency_observed,
        source_queueing,
        network_latency: latency_observed - source_queueing,
        latency_percentiles: percentiles(arrived().map(|i| o.latencies[i]).collect()),
        throughput,
        offered: offered_rate,
        saturated,
        saturation_reason,
        messages_delivered: delivered as u64,
        messages_generated: generated,
        messages_delivered_window: delivered_window,
        cycles: o.end,
        warmup: o.warmup,
        mean_hops,
        mean_hops_ci95,
        utilization_by_class,
        hop_histogram,
    }
}

/// True when the last quarter of latencies averages more than 1.5 times the first quarter:
/// the signature of a queue that keeps growing.
fn growing(lat: &[u32]) -> bool {
    let q = lat.len() / 4;
    if q < 10 {
        return false;
    }
    let mean = |s: &[u32]| s.iter().map(|&x| x as f64).sum::<f64>() / q as f64;
    let (first, last) = (mean(&lat[..q]), mean(&lat[lat.len() - q..]));
    last > 1.5 * first
}

fn percentiles(mut v: Vec<u32>) -> Option<Percentiles> {
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    let at = |q: f64| v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
    Some(Percentiles { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: *v.last().unwrap() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_means_of_constant_has_zero_width() {
        let v = vec![5.0; 400];
        let (m, ci) = batch_means(&v);
        assert_eq!(m, 5.0);
        assert_eq!(ci, Some(0.0));
        assert_eq!(batch_means(&[1.0, 2.0]).1, None);
    }

    #[test]
    fn batch_means_width_shrinks_with_samples() {
        let v: Vec<f64> = (0..4000).map(|i| ((i * 7919) % 101) as f64).collect();
        let (_, a) = batch_means(&v[..400]);
        let (_, b) = batch_means(&v);
        assert!(b.unwrap() < a.unwrap());
    }

    #[test]
    fn growth_detector() {
        let flat: Vec<u32> = (0..400).map(|i| 10 + i % 3).collect();
        let rising: Vec<u32> = (0..400).map(|i| 10 + i).collect();
        assert!(!growing(&flat));
        assert!(growing(&rising));
    }
}
