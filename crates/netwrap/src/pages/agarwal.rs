//! Agarwal 1991's pictures: Figs. 2–5 (simulation against eq. 10) and the model's Figs. 6–16.

use super::{Pictures, axes, runs_chart};
use crate::chart::{Chart, Series, Style};
use netwrap_app::reproduce::{ModelPoint, Runs};

/// Figs. 2 and 3 (k = 10, n = 3 and 2) and 4 (k = 4, every n).
pub fn figs_2_4(runs: &Runs) -> anyhow::Result<Pictures> {
    let mut pictures = Pictures::new();
    for (k, n, suffix, title) in
        [(10.0, 3.0, "fig-2", "Fig. 2: k = 10, n = 3"), (10.0, 2.0, "fig-3", "Fig. 3: k = 10, n = 2")]
    {
        let d = runs.at("topology.k", k).at("topology.n", n);
        let a = axes("workload.rate", "latency", &[], format!("Agarwal 1991 {title}, B = 4"));
        pictures.push((suffix.into(), runs_chart(&d, &a)?));
    }
    let a = axes("workload.rate", "latency", &["topology.n"], "Agarwal 1991 Fig. 4: k = 4, B = 4".into());
    pictures.push(("fig-4".into(), runs_chart(&runs.at("topology.k", 4.0), &a)?));
    Ok(pictures)
}

/// Figs. 2 (k = 10, n = 3) and 3 (n = 2) at several packet sizes: latency against the channel
/// utilisation ρ = m·B·k_d (the request rate differs by size), one curve per size.
pub fn figs_2_3_sizes(runs: &Runs) -> anyhow::Result<Pictures> {
    let mut pictures = Pictures::new();
    for (n, suffix, title) in
        [(3.0, "fig-2", "Fig. 2: k = 10, n = 3"), (2.0, "fig-3", "Fig. 3: k = 10, n = 2")]
    {
        let d = runs.at("topology.k", 10.0).at("topology.n", n);
        let a = axes(
            "offered_utilization",
            "latency",
            &["workload.size"],
            format!("Agarwal 1991 {title}, B = 2 to 12"),
        );
        pictures.push((suffix.into(), runs_chart(&d, &a)?));
    }
    Ok(pictures)
}

/// Fig. 5: latency against packet size, one curve per network.
pub fn fig_5(runs: &Runs) -> anyhow::Result<Pictures> {
    let a = axes(
        "workload.size",
        "latency",
        &["topology.k", "topology.n"],
        "Agarwal 1991 Fig. 5: ρ = 0.4".into(),
    );
    Ok(vec![(String::new(), runs_chart(runs, &a)?)])
}

/// A model figure's panels, each as the paper draws it: base latency on a logarithmic axis,
/// rate sweeps with the y range capped at six times the lowest unloaded latency so the knees
/// stay visible.
pub fn model(number: u32, data: &[ModelPoint]) -> anyhow::Result<Pictures> {
    let mut panels: Vec<&str> = Vec::new();
    for p in data {
        if !panels.contains(&p.figure.as_str()) {
            panels.push(&p.figure);
        }
    }
    if panels.is_empty() {
        anyhow::bail!("Fig. {number}: no points");
    }
    let mut pictures = Pictures::new();
    for id in &panels {
        let points: Vec<&ModelPoint> = data.iter().filter(|p| p.figure == *id).collect();
        let suffix = if panels.len() > 1 {
            id.trim_start_matches(char::is_numeric).to_string()
        } else {
            String::new()
        };
        pictures.push((suffix, model_chart(id, &points)?.into()));
    }
    Ok(pictures)
}

/// A model figure's column as an axis label with its unit.
fn axis_label(name: &str) -> String {
    match name {
        "dimension" => "dimension n".into(),
        "rate" => "request rate m (messages/node/cycle)".into(),
        "latency" => "latency (units of T^w(2), the 2-D wire delay)".into(),
        "latency_cycles" => "latency (network cycles)".into(),
        other => other.into(),
    }
}

/// The chart of panel `id`, one line per key in the order the points give them.
fn model_chart(id: &str, points: &[&ModelPoint]) -> anyhow::Result<Chart> {
    let log_y = netwrap_model::figures::figure(id)?.log_y;
    let mut keys: Vec<&str> = Vec::new();
    for p in points {
        if !keys.contains(&p.key.as_str()) {
            keys.push(&p.key);
        }
    }
    let first = points[0];
    let series: Vec<Series> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| Series {
            label: format!("{} = {key}", first.key_name),
            color: i,
            style: Style::Line,
            points: points.iter().filter(|p| p.key == *key).map(|p| (p.x, p.y, None)).collect(),
            saturated: Vec::new(),
        })
        .collect();
    let floor = series.iter().filter_map(|s| s.points.first().map(|p| p.1)).fold(f64::MAX, f64::min);
    Ok(Chart {
        title: format!("Agarwal 1991 Fig. {id}"),
        x_label: axis_label(&first.x_name),
        y_label: axis_label(&first.y_name),
        log_x: false,
        log_y,
        x_from_zero: !log_y,
        y_cap: (!log_y).then_some(6.0 * floor),
        series,
    })
}
