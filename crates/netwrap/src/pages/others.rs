//! The pictures of Puente et al. 1999 (Figs. 6–8), Greenberg & Guan 1997 (Fig. 3) and
//! Raghunath & Ranade 1995 (Figs. 4–8), and Thakur, Rabenseifner & Gropp 2005's collectives.

use super::{Picture, Pictures, axes, runs_chart};
use crate::chart::{Chart, Series, Style};
use crate::heatmap::{Drawing, Reading};
use netwrap_app::reproduce::{
    ChannelRow, FAMILIES, Runs, SizePoint, THREAD_NETWORKS, TRAFFICS, base_latencies, family_label,
    max_throughputs, occupancy_networks, open_networks, open_points, thread_utilization,
};

/// Series of the points' values against √N, one per family, for one traffic.
fn per_size(points: &[SizePoint], traffic: &str) -> Vec<Series> {
    FAMILIES
        .iter()
        .enumerate()
        .map(|(i, fam)| Series {
            label: family_label(fam).to_string(),
            color: i,
            style: Style::Points,
            points: points
                .iter()
                .filter(|p| p.family == *fam && p.traffic == traffic)
                .map(|p| ((p.nodes as f64).sqrt(), p.value, p.ci))
                .collect(),
            saturated: Vec::new(),
        })
        .collect()
}

fn size_chart(title: String, y: &str, series: Vec<Series>) -> Picture {
    Picture::Chart(Chart {
        title,
        x_label: "side √N of the network (N = 16, 64, 256 nodes)".into(),
        y_label: y.into(),
        log_x: false,
        log_y: false,
        x_from_zero: false,
        y_cap: None,
        series,
    })
}

/// Puente et al. Fig. 6: base latency against the network's side, one chart per traffic.
pub fn puente_fig_6(runs: &Runs) -> anyhow::Result<Pictures> {
    let points = base_latencies(runs);
    Ok(TRAFFICS
        .iter()
        .map(|t| {
            let title = format!("Puente et al. 1999 Fig. 6: base latency, {t} traffic");
            (t.to_string(), size_chart(title, "base latency (ns)", per_size(&points, t)))
        })
        .collect())
}

/// Puente et al. Fig. 7: maximum throughput against the network's side, one chart per traffic.
pub fn puente_fig_7(runs: &Runs) -> anyhow::Result<Pictures> {
    let points = max_throughputs(runs);
    Ok(TRAFFICS
        .iter()
        .map(|t| {
            let title = format!("Puente et al. 1999 Fig. 7: maximum throughput, {t} traffic");
            (t.to_string(), size_chart(title, "maximum throughput (bytes/ns)", per_size(&points, t)))
        })
        .collect())
}

/// Puente et al. Fig. 8: the adaptive VC's occupancy on each network's drawing.
pub fn puente_fig_8(channels: &[ChannelRow]) -> anyhow::Result<Pictures> {
    let mut pictures = Pictures::new();
    for (point, suffix, spec, name) in occupancy_networks() {
        let readings: Vec<Reading> = channels
            .iter()
            .enumerate()
            .filter(|(_, r)| r.point == point)
            .map(|(i, r)| Reading {
                line: i + 2,
                channel: r.stats.channel as u64,
                from: r.stats.from as u64,
                to: r.stats.to as u64,
                value: r.vc(1),
            })
            .collect();
        let title =
            format!("Puente et al. 1999 Fig. 8: adaptive VC occupancy, transpose, offered 0.5: {name}");
        let map = Drawing::of(&spec)?.map(&readings, "vc1", point, true, Some(80.0), Some(title))?;
        pictures.push((suffix.into(), Picture::Map(map)));
    }
    Ok(pictures)
}

/// Greenberg & Guan Fig. 3: latency against the rate, one chart per size, one curve per worm
/// length.
pub fn greenberg_guan_fig_3(runs: &Runs) -> anyhow::Result<Pictures> {
    let mut pictures = Pictures::new();
    for nodes in [64, 256, 1024] {
        let a = axes(
            "workload.rate",
            "latency",
            &["workload.size"],
            format!("Greenberg & Guan 1997 Fig. 3: {nodes} processors"),
        );
        pictures.push((nodes.to_string(), runs_chart(&runs.at("topology.nodes", nodes as f64), &a)?));
    }
    Ok(pictures)
}

/// Raghunath & Ranade Figs. 4–6: round trip against load (%), one curve per network, the
/// saturated runs marked.
pub fn rr_open(runs: &Runs, figure: u32) -> anyhow::Result<Pictures> {
    let title = match figure {
        4 => "Raghunath & Ranade 1995 Fig. 4: butterflies",
        5 => "Raghunath & Ranade 1995 Fig. 5: crossbar modules",
        _ => "Raghunath & Ranade 1995 Fig. 6: 2-hop inter-module networks",
    };
    let mut series = Vec::new();
    for (i, name) in open_networks(figure).iter().enumerate() {
        let mut points = Vec::new();
        let mut saturated = Vec::new();
        for p in open_points(runs, name) {
            match p.round_trip {
                Some((rt, ci)) => points.push((p.load, rt, Some(ci))),
                None => saturated.push(p.load),
            }
        }
        series.push(Series { label: name.to_string(), color: i, style: Style::Points, points, saturated });
    }
    Ok(vec![(
        String::new(),
        Picture::Chart(Chart {
            title: title.into(),
            x_label: "load (% of peak)".into(),
            y_label: "round trip (cycles)".into(),
            log_x: false,
            log_y: false,
            x_from_zero: true,
            y_cap: None,
            series,
        }),
    )])
}

/// Raghunath & Ranade Figs. 7 and 8: processor utilisation against threads, one curve per
/// network, (a) geometric and (b) periodic intervals.
pub fn rr_threads(runs: &Runs, interval: u32) -> anyhow::Result<Pictures> {
    let mut pictures = Pictures::new();
    for (suffix, kind) in [("a", "geometric"), ("b", "periodic")] {
        let series = THREAD_NETWORKS
            .iter()
            .enumerate()
            .map(|(i, n)| Series {
                label: n.to_string(),
                color: i,
                style: Style::Points,
                points: [1, 2, 4, 8, 16]
                    .iter()
                    .map(|&t| (t as f64, thread_utilization(runs, n, kind, t), None))
                    .filter(|p| p.1.is_finite())
                    .collect(),
                saturated: Vec::new(),
            })
            .collect();
        pictures.push((
            suffix.into(),
            Picture::Chart(Chart {
                title: format!(
                    "Raghunath & Ranade 1995 Fig. {}({suffix}): interval {interval}, {kind}",
                    if interval == 16 { 7 } else { 8 }
                ),
                x_label: "threads per processor T".into(),
                y_label: "processor utilisation U".into(),
                log_x: true,
                log_y: false,
                x_from_zero: false,
                y_cap: None,
                series,
            }),
        ));
    }
    Ok(pictures)
}

/// Kim et al. 2008 §4.1: accepted against offered load, one curve per routing, one picture per
/// traffic pattern.
pub fn kim_routing(runs: &Runs) -> anyhow::Result<Pictures> {
    let mut pictures = Pictures::new();
    for pattern in ["uniform", "group-shift"] {
        let a = axes(
            "workload.load",
            "accepted_load",
            &["routing.algorithm"],
            format!("Kim et al. 2008 §4.1: the 72-terminal dragonfly, {pattern} traffic"),
        );
        let rows = runs.filter(|r| netwrap_app::reproduce::Params::text(r, "workload.pattern") == pattern);
        pictures.push((pattern.to_string(), runs_chart(&rows, &a)?));
    }
    Ok(pictures)
}

/// The 4-ary 3-tree: accepted against offered load, one curve per up-port choice.
pub fn kary_ntree(runs: &Runs) -> anyhow::Result<Pictures> {
    let a = axes(
        "workload.load",
        "accepted_load",
        &["routing.up-port"],
        "Petrini & Vanneschi 1997: the 4-ary 3-tree, uniform traffic".to_string(),
    );
    Ok(vec![(String::new(), runs_chart(runs, &a)?)])
}

pub fn allreduce_crossover(runs: &Runs) -> anyhow::Result<Pictures> {
    let mut a = axes(
        "workload.size",
        "completion",
        &["workload.collective.kind"],
        "Thakur, Rabenseifner & Gropp 2005: all-reduce on the 64-node hypercube, 20 cycles a step"
            .to_string(),
    );
    (a.log_x, a.log_y) = (true, true);
    Ok(vec![(String::new(), runs_chart(runs, &a)?)])
}

pub fn alltoall_bisection(runs: &Runs) -> anyhow::Result<Pictures> {
    let mut a = axes(
        "workload.size",
        "completion",
        &["topology.family", "topology.k"],
        "The direct all-to-all (linear shift) on four networks".to_string(),
    );
    (a.log_x, a.log_y) = (true, true);
    Ok(vec![(String::new(), runs_chart(runs, &a)?)])
}
