//! Agarwal 1991: Figs. 2–5 (simulation against eq. 10) and the model's Figs. 6–16.

use super::{Claim, Data, Item, Kind, ModelPoint, Page, Paper, Params, Runs, fmt, nan, pct, width};
use crate::error::Result;
use crate::row::Row;
use netwrap_model::figures::{self, FIGURE_IDS};

pub fn items() -> Vec<Item> {
    let mut all = vec![
        Item {
            id: "agarwal-1991-figs-2-4",
            paper: Paper::Agarwal,
            title: "Figs. 2–4: latency against load, simulation and eq. 10",
            source: "crates/app/experiments/agarwal-figs-2-4.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("agarwal-figs-2-4")?)),
            page: |d| figs_2_4(d.runs()?),
        },
        Item {
            id: "agarwal-1991-fig-5",
            paper: Paper::Agarwal,
            title: "Fig. 5: latency against packet size at ρ = 0.4",
            source: "crates/app/experiments/agarwal-fig-5.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("agarwal-fig-5")?)),
            page: |d| fig_5(d.runs()?),
        },
    ];
    macro_rules! model_figure {
        ($($n:literal),*) => {$(
            all.push(Item {
                id: concat!("agarwal-1991-fig-", $n),
                paper: Paper::Agarwal,
                title: model_title($n),
                source: "the model (`netwrap figure`)",
                kind: Kind::Model,
                data: |_| model_data($n),
                page: |_| model_page($n),
            });
        )*};
    }
    model_figure!(6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    all
}

/// A model figure's page title: its number and the caption's gist.
pub const fn model_title(number: u32) -> &'static str {
    match number {
        6 => "Fig. 6: base latency against dimension, W fixed, three sizes",
        7 => "Fig. 7: base latency against dimension, 1M nodes, switch delay and message length",
        8 => "Fig. 8: base latency against dimension, 1K nodes, switch delay and message length",
        9 => "Fig. 9: base latency against dimension, bisection fixed, three sizes",
        10 => "Fig. 10: base latency against dimension, 1K nodes, bisection fixed",
        11 => "Fig. 11: latency against request rate, 1K nodes, four width constraints",
        12 => "Fig. 12: latency against request rate with locality, k = 32",
        13 => "Fig. 13: locality with node size fixed",
        14 => "Fig. 14: direct against indirect networks, 128-pin switches",
        15 => "Fig. 15: base latency, no switch delay, three sizes",
        _ => "Fig. 16: base latency, no switch delay, message length",
    }
}

/// The panels of figure `number` (e.g. 7a and 7b for 7).
fn panels(number: u32) -> Vec<&'static str> {
    let n = number.to_string();
    FIGURE_IDS.iter().copied().filter(|id| id.trim_end_matches(char::is_alphabetic) == n).collect()
}

/// Every point of every panel of figure `number`: one row per (panel, key, x).
fn model_data(number: u32) -> Result<Data> {
    let mut data = Vec::new();
    for id in panels(number) {
        let fig = figures::figure(id)?;
        for s in &fig.series {
            for &(x, y) in &s.points {
                data.push(ModelPoint {
                    figure: id.into(),
                    key_name: fig.key_name.into(),
                    key: s.key.clone(),
                    x_name: fig.x_name.into(),
                    x,
                    y_name: fig.y_name.into(),
                    y,
                });
            }
        }
    }
    Ok(Data::Model(data))
}

/// A model figure: the paper's statements about it checked by
/// `netwrap_model::figures::conclusions` (the model is exact, so the data are the figure
/// itself).
fn model_page(number: u32) -> Result<Page> {
    let mut page = Page {
        about: format!(
            "The model's curves with the parameters of the paper's caption ([docs/figures.md](../figures.md) lists the values we chose where the caption gives a range). Every point is in the CSV: one row per (panel, {{key}}, x).{}",
            if number == 12 {
                " The simulation of §5.1's printed points is on [Figs. 2–4's neighbour page](agarwal-1991-figs-2-4.md) and in docs/validation.md."
            } else {
                ""
            }
        ),
        ..Page::default()
    };
    for c in figures::conclusions(number) {
        page.claims.push(Claim::new(format!("{} {}", c.place, c.paper), c.ours, c.holds));
    }
    Ok(page)
}

/// |simulation − model| ≤ 10% of the model, widened by the simulation's 95% interval.
fn within(row: &Row, bound: f64) -> bool {
    let m = &row.metrics;
    let (sim, ci, model) = (nan(m.latency), nan(m.latency_ci95), nan(m.model_latency));
    (sim - model).abs() <= bound * model + width(ci)
}

/// |simulation/model − 1|.
fn error(row: &Row) -> f64 {
    (nan(row.metrics.latency) / nan(row.metrics.model_latency) - 1.0).abs()
}

fn figs_2_4(data: &Runs) -> Result<Page> {
    let mut page = Page {
        about: "Unidirectional k-ary n-cubes on the ideal switch (one flit per channel per cycle, infinite queues), uniform traffic, B = 4 flits, dimension-order routing, against eq. 10 with App. B's contention form for each k_d (large k_d: (k_d−1)/k_d², small: (k_d−½)/(k_d+½)²) evaluated at the simulated point. Simulation: points with 95% intervals; model: dashed.".into(),
        ..Page::default()
    };
    let net = |k: f64, n: f64| data.at("topology.k", k).at("topology.n", n);
    let mut worst = Vec::new();
    let mut all_within = true;
    for (k, n) in [(10, 3), (10, 2), (4, 2), (4, 3), (4, 4)] {
        let d = net(k as f64, n as f64);
        let pts: Vec<&Row> = d.rows.iter().filter(|r| r.metrics.utilization <= 0.62).collect();
        all_within &= !pts.is_empty() && pts.iter().all(|r| within(r, 0.10));
        let max = pts.iter().map(|r| error(r)).fold(0.0, f64::max);
        worst.push(format!("{k}-ary {n}-cube {:.1}%", max * 100.0));
    }
    page.claims.push(Claim::new(
        "Figs. 2, 3: \"our simple model predicts network latency with remarkable accuracy even at high loads\" (read as: within 10% up to ρ = 0.6 on every network, widened by each point's 95% interval)",
        format!("largest |error| up to ρ = 0.6: {}", worst.join(", ")),
        all_within,
    ));
    let at_08 = |k: f64, n: f64| -> Option<(f64, f64, f64)> {
        data.rows
            .iter()
            .filter(|r| {
                r.num("topology.k") == k
                    && r.num("topology.n") == n
                    && (r.metrics.utilization - 0.8).abs() < 0.05
            })
            .map(|r| (nan(r.metrics.latency), nan(r.metrics.latency_ci95), nan(r.metrics.model_latency)))
            .next()
    };
    let above: Vec<(String, bool, String)> = [3, 4]
        .iter()
        .map(|&n| match at_08(4.0, n as f64) {
            Some((sim, ci, model)) => (
                format!("n = {n}: {} ± {} against {}", fmt(sim, 2), fmt(ci, 2), fmt(model, 2)),
                sim - width(ci) > model,
                pct(sim, model),
            ),
            None => (format!("n = {n}: no point near ρ = 0.8"), false, String::new()),
        })
        .collect();
    page.claims.push(Claim::new(
        "Fig. 4: \"the model underestimates latency as the network approaches saturation … an artifact of non-negligible switching probabilities from several lower dimensions when k is small\" (read as: at ρ ≈ 0.8 the 4-ary 4-cube's simulated latency lies above the model beyond its 95% interval; the 4-ary 3-cube's lies above it by a few per cent in the full run, within the noise of a quick one)",
        above.iter().map(|(s, _, e)| format!("{s} ({e})")).collect::<Vec<_>>().join("; "),
        above[1].1,
    ));
    let err = |k: f64, n: f64| at_08(k, n).map(|(s, _, m)| s / m - 1.0).unwrap_or(f64::NAN);
    page.claims.push(Claim::new(
        "Fig. 4: the simulation curves lie higher above the model at high load for k = 4 than in Figs. 2 and 3 (k = 10)",
        format!(
            "error at ρ ≈ 0.8: 4-ary 4-cube {:+.1}%, 10-ary 3-cube {:+.1}%, 10-ary 2-cube {:+.1}%",
            err(4.0, 4.0) * 100.0,
            err(10.0, 3.0) * 100.0,
            err(10.0, 2.0) * 100.0
        ),
        err(4.0, 4.0) > err(10.0, 3.0) && err(4.0, 4.0) > err(10.0, 2.0),
    ));
    page.notes = vec![super::Note::Text("Figs. 2 and 3 in the paper also show other packet sizes; here B = 4 (Fig. 5's page varies B at ρ = 0.4). The 10-ary 2-cube's model lies 6–10% above our simulation at every load: an offset of a few cycles, discussed in [docs/validation.md](../validation.md).".into())];
    Ok(page)
}

fn fig_5(data: &Runs) -> Result<Page> {
    let mut page = Page {
        about: "Latency against packet size B at a channel utilization of 0.4 (m = 0.4/(B·k_d)), the same bits a cycle at every B: simulation (points, 95% intervals) and eq. 10 (dashed).".into(),
        ..Page::default()
    };
    let mut rising = true;
    let mut spans = Vec::new();
    for (k, n) in [(10, 2), (10, 3), (4, 3)] {
        let d = data.at("topology.k", k as f64).at("topology.n", n as f64);
        let lat: Vec<f64> = d.rows.iter().map(|r| nan(r.metrics.latency)).collect();
        rising &= lat.len() > 1 && lat.windows(2).all(|w| w[1] > w[0]);
        let (first, last) =
            (lat.first().copied().unwrap_or(f64::NAN), lat.last().copied().unwrap_or(f64::NAN));
        spans.push(format!("{k}-ary {n}-cube {} → {}", fmt(first, 1), fmt(last, 1)));
    }
    page.claims.push(Claim::new(
        "\"for a given channel utilization, smaller messages result in lower latency (see Figure 5)\"",
        format!("latency from B = 2 to 12: {}", spans.join("; ")),
        rising,
    ));
    let small = data.filter(|r| r.num("workload.size") <= 8.0);
    page.claims.push(Claim::new(
        "\"the good correspondence between the model and simulations for the various network types validates our packet size extension to the contention model\" (read as: within 10% up to B = 8, widened by each point's 95% interval)",
        format!("largest |error| for B ≤ 8: {:.1}%", small.rows.iter().map(error).fold(0.0, f64::max) * 100.0),
        small.rows.iter().all(|r| within(r, 0.10)),
    ));
    let long = data.filter(|r| {
        r.num("topology.k") == 10.0 && r.num("topology.n") == 2.0 && r.num("workload.size") >= 6.0
    });
    page.claims.push(Claim::new(
        "\"the model's overestimation of latency for large packets results from our assumption of simultaneous message arrivals at a switch\" (10-ary 2-cube, B ≥ 6: model above the simulation beyond its 95% interval)",
        long.rows
            .iter()
            .map(|r| {
                format!("B = {}: {}", r.text("workload.size"), pct(nan(r.metrics.latency), nan(r.metrics.model_latency)))
            })
            .collect::<Vec<_>>()
            .join(", "),
        long.rows.iter().all(|r| nan(r.metrics.model_latency) > nan(r.metrics.latency) + width(nan(r.metrics.latency_ci95))),
    ));
    Ok(page)
}
