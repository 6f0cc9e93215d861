//! [`Row`]: a point of a sweep as one tidy row, its fields the CSV's columns: the point's
//! index, replication and swept values, then its metrics, then the experiment it is of (its
//! [`Identity`]: `experiment`, `points`). The command line writes these as CSV; Python hands
//! them to a DataFrame. A column is added here, once.

use crate::simulation::Simulation;
use crate::sweep::{Identity, Point};
use netwrap_sim::report::Verdict;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One point's row (see the module docs). `None` is an empty cell.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Row {
    /// The point's position in the sweep.
    pub point: u64,
    /// Its replication.
    pub replication: u32,
    /// The swept values, by their dotted paths.
    #[serde(flatten)]
    pub parameters: Map<String, Value>,
    /// The metrics.
    #[serde(flatten)]
    pub metrics: Metrics,
    /// A collective's metrics: columns only in a sweep of collectives
    /// ([`Row::collective_columns`]).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub collective: Option<CollectiveMetrics>,
    /// The experiment the point is of: the last columns.
    #[serde(flatten)]
    pub identity: Identity,
}

/// The metric columns of a [`Row`], named as in a simulation's JSON (`model_…` for the
/// model's, `…_ci95` for a 95% confidence interval's half-width).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Metrics {
    pub verdict: Option<Verdict>,
    pub saturated: bool,
    pub utilization: f64,
    pub latency: Option<f64>,
    pub latency_ci95: Option<f64>,
    pub latency_observed: f64,
    pub throughput: f64,
    pub offered: f64,
    pub offered_load: f64,
    pub accepted_load: f64,
    #[serde(default)]
    pub self_load: f64,
    pub offered_utilization: Option<f64>,
    pub max_rate: Option<f64>,
    pub mean_hops: f64,
    pub mean_hops_ci95: Option<f64>,
    pub expected_mean_hops: f64,
    pub source_queueing: f64,
    pub network_latency: f64,
    pub latency_p50: Option<u64>,
    pub latency_p95: Option<u64>,
    pub latency_p99: Option<u64>,
    pub latency_max: Option<u64>,
    pub messages_delivered: u64,
    pub messages_generated: u64,
    pub in_flight: u64,
    pub cycles: u64,
    pub warmup: u64,
    pub seed: u64,
    pub nodes: u32,
    pub model_utilization: Option<f64>,
    pub model_latency: Option<f64>,
    pub model_max_rate: Option<f64>,
    pub model_error_utilization: Option<f64>,
    pub model_error_latency: Option<f64>,
    pub processor_utilization: Option<f64>,
    pub access_rate: Option<f64>,
    pub round_trip: Option<f64>,
    pub round_trip_ci95: Option<f64>,
    pub request_latency: Option<f64>,
    pub memory_time: Option<f64>,
    pub reply_latency: Option<f64>,
    pub model_processor_utilization: Option<f64>,
    pub model_error_processor_utilization: Option<f64>,
    pub nonminimal: Option<f64>,
    pub accepted_min: Option<f64>,
    pub accepted_max: Option<f64>,
    pub jain: Option<f64>,
}

/// A collective's metric columns (`netwrap_sim::report::CollectiveReport`): its completion in
/// cycles (empty when it did not complete), the bound the network allows, completion over
/// bound, and along the critical path the compute, network and contention cycles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct CollectiveMetrics {
    pub completion: Option<u64>,
    pub completion_bound: Option<f64>,
    pub completion_ratio: Option<f64>,
    pub channel_bound: Option<f64>,
    pub bisection_bound: Option<f64>,
    pub critical_path_bound: Option<f64>,
    pub critical_compute: Option<u64>,
    pub critical_network: Option<u64>,
    pub critical_contention: Option<f64>,
    pub dependency_wait: Option<f64>,
    pub ranks: Option<u32>,
    pub collective_messages: Option<u64>,
    pub collective_flits: Option<u64>,
}

impl CollectiveMetrics {
    /// Those of `s`, if it ran a collective; a netrace trace's or an MPI dump's completion
    /// alone.
    pub fn of(s: &Simulation) -> Option<CollectiveMetrics> {
        let rep = &s.result.report;
        if let netwrap_sim::Source::Trace(t) = &s.result.point.workload.source
            && t.format.ranked()
        {
            return Some(CollectiveMetrics { completion: rep.completion, ..CollectiveMetrics::default() });
        }
        let c = rep.collective.as_ref()?;
        Some(CollectiveMetrics {
            completion: rep.completion,
            completion_bound: Some(c.bound.bound),
            completion_ratio: c.ratio,
            channel_bound: c.bound.channel,
            bisection_bound: c.bound.bisection,
            critical_path_bound: Some(c.bound.critical_path),
            critical_compute: Some(c.breakdown.compute),
            critical_network: Some(c.breakdown.network),
            critical_contention: Some(c.breakdown.contention),
            dependency_wait: Some(c.breakdown.dependency_wait),
            ranks: Some(c.ranks),
            collective_messages: Some(c.messages),
            collective_flits: Some(c.flits),
        })
    }
}

impl Row {
    /// The row of `point`, which ran as `s`.
    pub fn of(point: &Point, s: &Simulation) -> Row {
        let collective = CollectiveMetrics::of(s);
        Row {
            point: point.index,
            replication: point.replication,
            parameters: point.params.iter().cloned().collect(),
            collective,
            metrics: Metrics::of(s),
            identity: point.identity.clone(),
        }
    }

    /// The columns of a sweep over `parameters`, in order.
    pub fn columns(parameters: &[String]) -> Vec<String> {
        Self::columns_of(parameters, false)
    }

    /// The columns of a sweep of collectives over `parameters`, in order: [`Row::columns`] and
    /// a collective's ([`CollectiveMetrics`]) after the metrics.
    pub fn collective_columns(parameters: &[String]) -> Vec<String> {
        Self::columns_of(parameters, true)
    }

    fn columns_of(parameters: &[String], collective: bool) -> Vec<String> {
        let row = Row {
            parameters: parameters.iter().map(|p| (p.clone(), Value::Null)).collect(),
            collective: collective.then(CollectiveMetrics::default),
            ..Row::default()
        };
        match serde_json::to_value(row) {
            Ok(Value::Object(fields)) => fields.into_iter().map(|(k, _)| k).collect(),
            _ => unreachable!("a row serialises as a table"),
        }
    }
}

impl Metrics {
    /// The metrics of `s`.
    pub fn of(s: &Simulation) -> Metrics {
        let r = &s.result;
        let rep = &r.report;
        let p = rep.latency_percentiles.as_ref();
        let m = s.model.as_ref();
        let a = rep.accesses.as_ref();
        Metrics {
            verdict: Some(rep.verdict),
            saturated: rep.saturated,
            utilization: rep.utilization,
            latency: rep.latency,
            latency_ci95: rep.latency_ci95,
            latency_observed: rep.latency_observed,
            throughput: rep.throughput,
            offered: rep.offered,
            offered_load: rep.offered_load,
            accepted_load: rep.accepted_load,
            self_load: rep.self_load,
            offered_utilization: r.offered_utilization,
            max_rate: r.max_rate,
            mean_hops: rep.mean_hops,
            mean_hops_ci95: rep.mean_hops_ci95,
            expected_mean_hops: r.expected_mean_hops,
            source_queueing: rep.source_queueing,
            network_latency: rep.network_latency,
            latency_p50: p.map(|p| p.p50),
            latency_p95: p.map(|p| p.p95),
            latency_p99: p.map(|p| p.p99),
            latency_max: p.map(|p| p.max),
            messages_delivered: rep.messages_delivered,
            messages_generated: rep.messages_generated,
            in_flight: rep.in_flight,
            cycles: rep.cycles,
            warmup: rep.warmup,
            seed: s.seed,
            nodes: r.network.nodes,
            model_utilization: m.map(|m| m.utilization),
            model_latency: m.and_then(|m| m.latency),
            model_max_rate: m.map(|m| m.max_rate),
            model_error_utilization: m.and_then(|m| m.relative_error.utilization),
            model_error_latency: m.and_then(|m| m.relative_error.latency),
            processor_utilization: a.and_then(|a| a.processor_utilization),
            access_rate: a.map(|a| a.access_rate),
            round_trip: a.map(|a| a.round_trip),
            round_trip_ci95: a.and_then(|a| a.round_trip_ci95),
            request_latency: a.map(|a| a.request_latency),
            memory_time: a.map(|a| a.memory_time),
            reply_latency: a.map(|a| a.reply_latency),
            model_processor_utilization: m.and_then(|m| m.processor_utilization),
            model_error_processor_utilization: m.and_then(|m| m.relative_error.processor_utilization),
            nonminimal: rep.nonminimal,
            accepted_min: rep.fairness.map(|f| f.min),
            accepted_max: rep.fairness.map(|f| f.max),
            jain: rep.fairness.map(|f| f.jain),
        }
    }
}

/// Independent replications of one point combined (`replications = R`): the mean of their
/// values and its 95% Student-t half-width t(0.975, n − 1)·s/√n across the n runs — the
/// interval across runs, which unlike one run's batch means needs no assumption about how long
/// its correlations last. `None` without values; no half-width from one.
pub fn across_replications(values: &[f64]) -> Option<(f64, Option<f64>)> {
    if values.is_empty() {
        return None;
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    Some((mean, netwrap_engine::stats::student_half_width(values)))
}

/// The `replication` of a combined row: the point's runs together.
pub const ALL: &str = "all";

/// A replicated point's runs combined ([`across_replications`]): the row `netwrap run` prints
/// in its "across replications" table, writes after a replicated sweep's rows in its CSV (where
/// `replication` is [`ALL`]) and Python's `netwrap.across` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Across {
    /// The index of the point's first run (replication 0).
    pub point: u64,
    /// Always [`ALL`]: what tells a combined row from a run's in a CSV.
    pub replication: &'static str,
    /// The swept values, by their dotted paths.
    #[serde(flatten)]
    pub parameters: Map<String, Value>,
    /// The runs combined.
    pub runs: u32,
    /// Those whose verdict is ok: the ones whose latency is combined.
    pub ok: u32,
    /// The mean latency over the runs whose verdict is ok.
    pub latency: Option<f64>,
    /// Its 95% Student-t half-width across them (none from fewer than two).
    pub latency_ci95: Option<f64>,
    /// The mean accepted throughput over every run (a saturated run's included).
    pub throughput: f64,
    /// Its 95% Student-t half-width across them.
    pub throughput_ci95: Option<f64>,
    /// The experiment the point is of.
    #[serde(flatten)]
    pub identity: Identity,
}

/// The rows of a replicated sweep combined, one [`Across`] per point (its runs are the rows of
/// one `point − replication`: the sweep numbers a point's runs consecutively), in point order.
/// Combined rows among `rows` are not runs; rows of no run are skipped.
pub fn across(rows: &[Row]) -> Vec<Across> {
    let mut points: std::collections::BTreeMap<u64, Vec<&Row>> = Default::default();
    for r in rows {
        points.entry(r.point - u64::from(r.replication).min(r.point)).or_default().push(r);
    }
    points
        .into_iter()
        .map(|(point, runs)| {
            let latencies: Vec<f64> = runs
                .iter()
                .filter(|r| r.metrics.verdict == Some(Verdict::Ok))
                .filter_map(|r| r.metrics.latency)
                .collect();
            let accepted: Vec<f64> = runs.iter().map(|r| r.metrics.throughput).collect();
            let (latency, latency_ci95) =
                across_replications(&latencies).map_or((None, None), |(m, h)| (Some(m), h));
            let (throughput, throughput_ci95) = across_replications(&accepted).unwrap_or((0.0, None));
            Across {
                point,
                replication: ALL,
                parameters: runs[0].parameters.clone(),
                runs: runs.len() as u32,
                ok: latencies.len() as u32,
                latency,
                latency_ci95,
                throughput,
                throughput_ci95,
                identity: runs[0].identity.clone(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification by hand: two points of three runs each (indices 0–2 and 3–5). The first's
    /// runs are ok with latencies 10, 12, 14 (mean 12, s = 2, half-width t(0.975, 2) = 4.303
    /// times 2/√3) and throughputs 0.1, 0.2, 0.3 (mean 0.2, s = 0.1); the second's middle run
    /// is saturated, so its latency combines the other two: 20 and 30, mean 25, s = √50,
    /// half-width t(0.975, 1) = 12.706 times √50/√2 = 5, and its throughput all three.
    #[test]
    fn across_combines_each_points_runs() {
        let run =
            |point: u64, replication: u32, verdict: Verdict, latency: Option<f64>, throughput: f64| Row {
                point,
                replication,
                metrics: Metrics { verdict: Some(verdict), latency, throughput, ..Metrics::default() },
                ..Row::default()
            };
        let rows = [
            run(0, 0, Verdict::Ok, Some(10.0), 0.1),
            run(1, 1, Verdict::Ok, Some(12.0), 0.2),
            run(2, 2, Verdict::Ok, Some(14.0), 0.3),
            run(3, 0, Verdict::Ok, Some(20.0), 0.5),
            run(4, 1, Verdict::Saturated, None, 0.4),
            run(5, 2, Verdict::Ok, Some(30.0), 0.6),
        ];
        let a = across(&rows);
        assert_eq!(a.len(), 2);
        assert_eq!((a[0].point, a[0].runs, a[0].ok, a[0].replication), (0, 3, 3, "all"));
        assert!((a[0].latency.unwrap() - 12.0).abs() < 1e-12);
        assert!((a[0].latency_ci95.unwrap() - 4.303 * 2.0 / 3f64.sqrt()).abs() < 1e-3);
        assert!((a[0].throughput - 0.2).abs() < 1e-12);
        assert!((a[0].throughput_ci95.unwrap() - 4.303 * 0.1 / 3f64.sqrt()).abs() < 1e-3);
        assert_eq!((a[1].point, a[1].runs, a[1].ok), (3, 3, 2));
        assert!((a[1].latency.unwrap() - 25.0).abs() < 1e-12);
        assert!((a[1].latency_ci95.unwrap() - 12.706 * 5.0).abs() < 1e-2);
        assert!((a[1].throughput - 0.5).abs() < 1e-12);
    }

    /// Characterisation of the columns' order: the point, its replication, the swept paths,
    /// then the metrics as the struct lists them (the CSV files written before this type kept
    /// the same order), then the experiment's identity.
    #[test]
    fn columns_are_the_rows_fields_in_order() {
        let c = Row::columns(&["workload.rate".into(), "topology.k".into()]);
        assert_eq!(c[..5], ["point", "replication", "workload.rate", "topology.k", "verdict"]);
        assert_eq!(c.len(), 4 + 47 + 2);
        assert_eq!(c[c.len() - 3..], ["jain", "experiment", "points"]);
    }

    /// Verification against Student's t tables: 1, 2, 3, 4, 5 have mean 3 and s = √2.5, so
    /// the half-width is t(0.975, 4) = 2.776 times √(2.5/5).
    #[test]
    fn replications_combine_with_student_t() {
        let (mean, half) = across_replications(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(mean, 3.0);
        assert!((half.unwrap() - 2.776 * 0.5f64.sqrt()).abs() < 1e-3);
        assert_eq!(across_replications(&[7.0]), Some((7.0, None)));
        assert_eq!(across_replications(&[]), None);
    }
}
