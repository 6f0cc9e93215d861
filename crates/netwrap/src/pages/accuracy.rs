//! The picture of netwrap's characterisation of its per-channel model: per router, the
//! simulated latency (points, with their 95% intervals) and the model's (dashed) against the
//! load under uniform traffic, one colour a network.

use super::{Picture, Pictures};
use crate::chart::{Chart, Series, Style};
use netwrap_app::reproduce::AccuracyRow;

/// One chart per router: each modelled network's simulation and model under uniform traffic.
pub fn model_accuracy(rows: &[AccuracyRow]) -> anyhow::Result<Pictures> {
    let routers = [
        ("ideal", "ideal switch, B = 4 (Agarwal 1991 eqs. 3-8)"),
        ("wormhole", "VC router, wormhole, B = 16 (Greenberg & Guan 1997 §2)"),
        ("vct", "VC router, cut-through, B = 16 (Greenberg & Guan 1997 §2)"),
    ];
    let mut pictures = Pictures::new();
    for (router, caption) in routers {
        let uniform = |r: &&AccuracyRow| {
            r.router == router && r.pattern == "uniform" && r.refused.is_empty() && r.routing != "ugal-local"
        };
        let mut networks: Vec<&str> = Vec::new();
        for r in rows.iter().filter(uniform) {
            if !networks.contains(&r.network.as_str()) {
                networks.push(&r.network);
            }
        }
        let mut series = Vec::new();
        for (color, net) in networks.iter().enumerate() {
            let of: Vec<&AccuracyRow> = rows.iter().filter(uniform).filter(|r| r.network == *net).collect();
            let settled = |r: &&&AccuracyRow| r.verdict.as_deref() == Some("ok");
            series.push(Series {
                label: format!("{net}: simulated"),
                color,
                style: Style::Points,
                points: of
                    .iter()
                    .filter(settled)
                    .filter_map(|r| Some((r.rho?, r.latency?, r.latency_ci95)))
                    .collect(),
                saturated: of.iter().filter(|r| !settled(r)).filter_map(|r| r.rho).collect(),
            });
            series.push(Series {
                label: format!("{net}: model"),
                color,
                style: Style::Dashed,
                points: of.iter().filter_map(|r| Some((r.rho?, r.model_latency?, None))).collect(),
                saturated: Vec::new(),
            });
        }
        pictures.push((
            router.to_string(),
            Picture::Chart(Chart {
                title: format!("Model against simulation, uniform traffic: {caption}"),
                x_label: "offered load ρ (fraction of the model's bandwidth bound)".into(),
                y_label: "latency (cycles)".into(),
                log_x: false,
                log_y: false,
                x_from_zero: true,
                y_cap: Some(if router == "ideal" { 40.0 } else { 150.0 }),
                series,
            }),
        ));
    }
    Ok(pictures)
}
