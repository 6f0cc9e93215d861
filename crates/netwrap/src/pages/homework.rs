//! The homework's pictures: Ex 2, 4, 5 and 8.

use super::{Picture, Pictures, axes, runs_chart};
use crate::chart::{Chart, Series, Style};
use netwrap_app::reproduce::{FeedbackRow, RingRow, Runs};

/// Ex 2: latency and utilisation against the request rate, one curve per message size.
pub fn ex_2(runs: &Runs) -> anyhow::Result<Pictures> {
    Ok(vec![
        (
            "latency".into(),
            runs_chart(
                runs,
                &axes(
                    "workload.rate",
                    "latency",
                    &["workload.size"],
                    "The homework's Ex 2: latency, 8-ary 2-cube".into(),
                ),
            )?,
        ),
        (
            "utilization".into(),
            runs_chart(
                runs,
                &axes(
                    "workload.rate",
                    "utilization",
                    &["workload.size"],
                    "The homework's Ex 2: channel utilisation".into(),
                ),
            )?,
        ),
    ])
}

/// Ex 4: mean hops against the ring's size, measured (points) and derived (dashed).
pub fn ex_4(rows: &[RingRow]) -> anyhow::Result<Pictures> {
    let series = |value: fn(&RingRow) -> f64, label: &str, color: usize, style: Style| Series {
        label: label.into(),
        color,
        style,
        points: rows.iter().map(|r| (r.k as f64, value(r), None)).collect(),
        saturated: Vec::new(),
    };
    Ok(vec![(
        String::new(),
        Picture::Chart(Chart {
            title: "The homework's Ex 4: mean hops on a unidirectional ring".into(),
            x_label: "nodes k".into(),
            y_label: "mean hops".into(),
            log_x: false,
            log_y: false,
            x_from_zero: false,
            y_cap: None,
            series: vec![
                series(|r| r.measured_with_self, "measured, self included", 0, Style::Points),
                series(|r| r.formula_with_self, "(k − 1)/2", 0, Style::Dashed),
                series(|r| r.measured_distinct, "measured, others only", 1, Style::Points),
                series(|r| r.formula_distinct, "k/2", 1, Style::Dashed),
            ],
        }),
    )])
}

/// Ex 5: latency against locality, one curve per request rate.
pub fn ex_5(runs: &Runs) -> anyhow::Result<Pictures> {
    let a = axes(
        "workload.locality",
        "latency",
        &["workload.rate"],
        "The homework's Ex 5: latency against locality".into(),
    );
    Ok(vec![(String::new(), runs_chart(runs, &a)?)])
}

/// Ex 8: latency against the radix with and without feedback (up to k = 64).
pub fn ex_8(rows: &[FeedbackRow]) -> anyhow::Result<Pictures> {
    let line = |value: fn(&FeedbackRow) -> Option<f64>, label: &str, color: usize| Series {
        label: label.into(),
        color,
        style: Style::Line,
        points: rows
            .iter()
            .filter(|r| r.k <= 64)
            .filter_map(|r| value(r).filter(|v| v.is_finite()).map(|v| (r.k as f64, v, None)))
            .collect(),
        saturated: Vec::new(),
    };
    Ok(vec![(
        String::new(),
        Picture::Chart(Chart {
            title: "The homework's Ex 8: latency with and without feedback (n = 2, B = 4, m = 0.04)".into(),
            x_label: "radix k".into(),
            y_label: "latency T (cycles)".into(),
            log_x: false,
            log_y: false,
            x_from_zero: true,
            y_cap: None,
            series: vec![
                line(|r| Some(r.latency_feedback), "with feedback (App. D)", 0),
                line(|r| r.latency_open, "without feedback (App. B)", 1),
            ],
        }),
    )])
}
