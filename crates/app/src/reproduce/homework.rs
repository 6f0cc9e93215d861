//! The homework's Ex 1–8, answered by simulation and by the models.

use super::{
    Claim, Data, DesignRow, FeedbackRow, Item, Kind, Note, Page, Paper, Params, RingRow, Runs, TextTable,
    fmt, nan, pct, width,
};
use crate::error::Result;
use crate::row::Row;
use netwrap_model::design;
use netwrap_model::exercises;
use netwrap_model::feedback::{self, Solution};
use netwrap_model::kary_ncube::{self, KaryNCube};
use netwrap_sim::report::Verdict;
use netwrap_topo::{RoutingSpec, TopologySpec};

pub fn items() -> Vec<Item> {
    vec![
        Item {
            id: "homework-ex-1",
            paper: Paper::Homework,
            title: "Ex 1: the 64-processor network at m = 0.04, B = 4, simulation against App. B",
            source: "crates/app/experiments/ex1.toml (`netwrap 64 10000 9999999 0.04 4 8 /dev/null 1.0` runs the same point)",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("ex1")?)),
            page: |d| ex_1(d.runs()?),
        },
        Item {
            id: "homework-ex-2",
            paper: Paper::Homework,
            title: "Ex 2: utilisation and latency for m = 0.01–0.06 and B = 2–10",
            source: "crates/app/experiments/ex2-grid.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("ex2-grid")?)),
            page: |d| ex_2(d.runs()?),
        },
        Item {
            id: "homework-ex-3",
            paper: Paper::Homework,
            title: "Ex 3: double the message size or double the request rate?",
            source: "crates/app/experiments/ex2-grid.toml (Ex 2's table)",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("ex2-grid")?)),
            page: |d| ex_3(d.runs()?),
        },
        Item {
            id: "homework-ex-4",
            paper: Paper::Homework,
            title: "Ex 4: mean hops on a unidirectional ring",
            source: "`netwrap topo torus --k K --n 1` on each ring, beside the derivation",
            kind: Kind::Rings,
            data: |_| ex_4_data(),
            page: |d| ex_4(d.rings()?),
        },
        Item {
            id: "homework-ex-5",
            paper: Paper::Homework,
            title: "Ex 5: latency against locality at m = 0.001 and 0.04",
            source: "crates/app/experiments/ex5-locality.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("ex5-locality")?)),
            page: |d| ex_5(d.runs()?),
        },
        Item {
            id: "homework-ex-6",
            paper: Paper::Homework,
            title: "Ex 6: locality in the k-ary n-cube model",
            source: "crates/app/experiments/ex5-locality.toml (Ex 5's runs, with the model's k_dl)",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("ex5-locality")?)),
            page: |d| ex_6(d.runs()?),
        },
        Item {
            id: "homework-ex-7",
            paper: Paper::Homework,
            title: "Ex 7: the best k-ary n-cube under a 384-pin switch",
            source: "`netwrap design --nodes 64 --pins 384 --rate 0.015 --bits 1024 --locality 0.5`",
            kind: Kind::Designs,
            data: |_| ex_7_data(),
            page: |d| ex_7(d.designs()?),
        },
        Item {
            id: "homework-ex-8",
            paper: Paper::Homework,
            title: "Ex 8: latency with and without feedback as k grows",
            source: "`netwrap model feedback` and `netwrap model kary-ncube` for k = 2 to 64, 1024 and 4096",
            kind: Kind::Feedback,
            data: |_| ex_8_data(),
            page: |d| ex_8(d.feedback()?),
        },
    ]
}

/// |simulation − model| within `bound` of the model, widened by the point's 95% interval.
fn near_model(sim: f64, ci: f64, model: f64, bound: f64) -> bool {
    (sim - model).abs() <= bound * model + width(ci)
}

/// (latency, its 95% interval, the model's) of a row, NaN where absent.
fn latencies(r: &Row) -> (f64, f64, f64) {
    (nan(r.metrics.latency), nan(r.metrics.latency_ci95), nan(r.metrics.model_latency))
}

fn ex_1(data: &Runs) -> Result<Page> {
    let r = data.find("the one point", |_| true)?;
    let mut page = Page {
        about: "An 8-ary 2-cube (64 processors, unidirectional torus as the homework's simulator), m = 0.04, B = 4, 10,000 measured messages after a warm-up (the homework's 2,000 are too few for an honest confidence interval at ρ = 0.56), beside App. B's model (Agarwal 1991 eq. 10 with eq. 8's contention form).".into(),
        ..Page::default()
    };
    let (rho, rho_m) = (r.metrics.utilization, nan(r.metrics.model_utilization));
    page.claims.push(Claim::new(
        "the simulation's effective channel utilisation ρ against the model's m·B·k_d = 0.56",
        format!("{} against {}", fmt(rho, 4), fmt(rho_m, 4)),
        (rho - rho_m).abs() < 0.03,
    ));
    let (t, ci, tm) = latencies(r);
    page.claims.push(Claim::new(
        "the simulation's latency T against the model's (App. B: the two should be close below saturation; read as within 10%, widened by the 95% interval)",
        format!("{} ± {} against {} ({})", fmt(t, 2), fmt(ci, 2), fmt(tm, 2), pct(t, tm)),
        near_model(t, ci, tm, 0.10),
    ));
    page.notes = vec![Note::Table(TextTable::new(
        &[("", false), ("simulation", true), ("model", true)],
        vec![
            vec!["ρ".into(), fmt(rho, 4), fmt(rho_m, 4)],
            vec!["T (cycles)".into(), format!("{} ± {}", fmt(t, 2), fmt(ci, 2)), fmt(tm, 2)],
            vec!["mean hops".into(), fmt(r.metrics.mean_hops, 3), fmt(r.metrics.expected_mean_hops, 3)],
        ],
    ))];
    Ok(page)
}

/// k_d of the homework's 8-ary 2-cube (unidirectional): (k − 1)/2.
const EX_KD: f64 = 3.5;

fn saturated(r: &Row) -> bool {
    r.metrics.verdict == Some(Verdict::Saturated)
}

fn ex_2(data: &Runs) -> Result<Page> {
    let mut page = Page {
        about: "Every combination of m = 0.01–0.06 and B = 2–10 on the 8-ary 2-cube, 2,000 measured messages each, beside the model (dashed). Where ρ = m·B·k_d reaches 1 the run is saturated: it has no steady latency, and the marker at the top of the chart shows the point.".into(),
        ..Page::default()
    };
    let valid = data.rows.iter().all(|r| {
        let rho = r.num("workload.rate") * r.num("workload.size") * EX_KD;
        saturated(r) == (rho >= 1.0)
    });
    let marked: Vec<String> = data
        .rows
        .iter()
        .filter(|r| saturated(r))
        .map(|r| format!("(m {}, B {})", r.text("workload.rate"), r.text("workload.size")))
        .collect();
    page.claims.push(Claim::new(
        "(optional part) \"which of the above combinations … are valid given the maximum allowable channel utilization of 1?\": those with m·B·k_d < 1",
        format!("the simulation saturates exactly where m·B·3.5 ≥ 1: {}", marked.join(", ")),
        valid,
    ));
    let behind = data.rows.iter().filter(|r| saturated(r)).all(|r| {
        r.metrics.throughput < 0.98 * r.metrics.offered && r.metrics.accepted_load <= 1.0 / EX_KD + 0.02
    });
    page.claims.push(Claim::new(
        "\"how do you expect the network simulator deals with offered request rates that exceed the maximum achievable limit?\" (the input queues grow without bound)",
        "at every saturated point the accepted throughput falls behind the offered one and the accepted load stays at the channels' capacity 1/k_d flits/node/cycle: the surplus waits in the sources' queues, so no steady latency exists",
        behind,
    ));
    Ok(page)
}

fn ex_3(data: &Runs) -> Result<Page> {
    let at = |m: f64, b: f64| {
        data.find(&format!("m = {m}, B = {b}"), |r| {
            r.num("workload.rate") == m && r.num("workload.size") == b
        })
    };
    let (base, rate, size) = (at(0.02, 4.0)?, at(0.04, 4.0)?, at(0.02, 8.0)?);
    let mut page = Page {
        about: "From Ex 2's table: the current point m = 0.02, B = 4 against doubling the request rate (m = 0.04, B = 4) and doubling the message size (m = 0.02, B = 8). Both carry the same flits and load the channels equally (ρ = 0.56).".into(),
        ..Page::default()
    };
    let ((lr, lrc, mr), (ls, lsc, ms)) = (latencies(rate), latencies(size));
    page.claims.push(Claim::new(
        "prefer the option with the lower latency at the same throughput: doubling the request rate (shorter messages wait less behind each other; Agarwal 1991 Fig. 5)",
        format!(
            "now {} cycles; doubled rate {} ± {}, doubled size {} ± {} (model {} and {})",
            fmt(latencies(base).0, 2),
            fmt(lr, 2),
            fmt(lrc, 2),
            fmt(ls, 2),
            fmt(lsc, 2),
            fmt(mr, 2),
            fmt(ms, 2)
        ),
        lr + width(lrc) < ls - width(lsc) && mr < ms,
    ));
    page.notes = vec![Note::Text("Other considerations: a message's fixed overhead (header, software send and receive costs) is paid per message, so doubling the rate doubles it while doubling the size does not; and whether the data come in larger units at all is up to the application. Per bit delivered, longer messages are cheaper in overhead and dearer in latency.".into())];
    Ok(page)
}

fn ex_4_data() -> Result<Data> {
    let mut data = Vec::new();
    for k in 2u32..=16 {
        let ring = TopologySpec::Torus {
            k: Some(k),
            n: Some(1),
            nodes: None,
            radices: None,
            bidirectional: false,
            concentration: None,
        };
        let m = crate::topo(&ring, &RoutingSpec::default(), false)?.metrics;
        let kf = k as f64;
        data.push(RingRow {
            k,
            measured_distinct: m.average_distance,
            formula_distinct: exercises::ring_mean_hops(k, false),
            measured_with_self: m.average_distance * (kf - 1.0) / kf,
            formula_with_self: exercises::ring_mean_hops(k, true),
        });
    }
    Ok(Data::Rings(data))
}

fn ex_4(data: &[RingRow]) -> Result<Page> {
    let mut page = Page {
        about: "From node 0 of a unidirectional ring of k nodes a message to node d travels d hops, so with every node (itself included) equally likely the mean is Σ_{d=0}^{k−1} d/k = (k − 1)/2 (Agarwal 1991 eq. 1's k_d); excluding itself, k/2. Measured on each ring built by netwrap (all pairs, exactly), k = 2 to 16.".into(),
        ..Page::default()
    };
    let exact = data.iter().all(|r| {
        (r.measured_with_self - r.formula_with_self).abs() < 1e-9
            && (r.measured_distinct - r.formula_distinct).abs() < 1e-9
    });
    page.claims.push(Claim::new(
        "the derivation: (k − 1)/2 hops on average, the source itself included",
        "the built rings give (k − 1)/2 (and k/2 without the source) exactly for every k from 2 to 16",
        exact,
    ));
    Ok(page)
}

fn ex_5(data: &Runs) -> Result<Page> {
    let mut page = Page {
        about: "The 8-ary 2-cube, B = 4, each source addressing a subcube of l·N nodes with a corner at itself (side (l·N)^(1/2) rounded to whole nodes), l = 0.2 to 1.0, at m = 0.001 and 0.04; the model with k_d replaced by k_dl (Ex 6) dashed.".into(),
        ..Page::default()
    };
    let lat = |m: f64, l: f64| {
        data.rows
            .iter()
            .find(|r| r.num("workload.rate") == m && r.num("workload.locality") == l)
            .map_or(f64::NAN, |r| nan(r.metrics.latency))
    };
    let cut = |m: f64| 1.0 - lat(m, 0.2) / lat(m, 1.0);
    page.claims.push(Claim::new(
        "\"the effect of communication locality is more pronounced at the higher load\"",
        format!(
            "from l = 1 to 0.2 the latency falls by {:.0}% at m = 0.04 ({} → {}), {:.0}% at m = 0.001 ({} → {})",
            cut(0.04) * 100.0,
            fmt(lat(0.04, 1.0), 1),
            fmt(lat(0.04, 0.2), 1),
            cut(0.001) * 100.0,
            fmt(lat(0.001, 1.0), 1),
            fmt(lat(0.001, 0.2), 1)
        ),
        cut(0.04) > cut(0.001) + 0.05,
    ));
    page.notes = vec![Note::Text("Why: locality shortens the distance, which cuts the unloaded latency by the hops saved; at high load it also cuts each channel's utilisation ρ = m·B·k_dl, and the contention per switch grows faster than linearly in ρ, so the saving is larger.".into())];
    Ok(page)
}

fn ex_6(data: &Runs) -> Result<Page> {
    let mut page = Page {
        about: "The modification: destinations lie in a subcube of side s = (l·N)^(1/n) = l^(1/n)·k with a corner at the source, so each dimension's offset is uniform on 0..s − 1 and k_d becomes k_dl = (l^(1/n)·k − 1)/2 (the same as Agarwal 1991 §5.1); substituting k_dl for k_d in ρ = m·B·k_dl and in eq. 10 is the whole change. The peak throughput 1/(B·k_d) grows by k_d/k_dl. Checked on Ex 5's runs: simulated mean hops against n·k_dl, latency against the modified model.".into(),
        ..Page::default()
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut hops_ok = true;
    for r in &data.rows {
        let l = r.num("workload.locality");
        let side = (l * 64.0).sqrt().round();
        let kdl = kary_ncube::locality_distance_per_dimension(
            8,
            2,
            (side / 8.0).powi(2),
            kary_ncube::Wiring::UnidirectionalTorus,
        )?;
        let (hops, hops_ci) = (r.metrics.mean_hops, nan(r.metrics.mean_hops_ci95));
        let (t, _, tm) = latencies(r);
        // Every run checked at once: each interval widened so that all hold with 95%
        // confidence (Bonferroni).
        let widen = netwrap_engine::stats::bonferroni_widening(data.rows.len());
        hops_ok &= (hops - 2.0 * kdl).abs() <= width(hops_ci) * widen + 1e-9;
        rows.push(vec![
            r.text("workload.rate"),
            r.text("workload.locality"),
            side.to_string(),
            fmt(kdl, 3),
            format!("{} ± {}", fmt(hops, 3), fmt(hops_ci, 3)),
            fmt(2.0 * kdl, 3),
            fmt(t, 2),
            fmt(tm, 2),
            pct(t, tm),
        ]);
    }
    page.claims.push(Claim::new(
        "the hint: k_d is related to the locality parameter l (our answer: k_dl = (l^(1/n)·k − 1)/2 with the side rounded to whole nodes)",
        "every run's simulated mean hops equal n·k_dl within their 95% interval (widened for every run at once, Bonferroni)",
        hops_ok,
    ));
    let model_ok = data.rows.iter().filter(|r| r.metrics.utilization <= 0.6).all(|r| {
        let (t, ci, tm) = latencies(r);
        near_model(t, ci, tm, 0.10)
    });
    page.claims.push(Claim::new(
        "the modified model accounts for locality (read as: within 10% of the simulated latency up to ρ = 0.6, widened by each 95% interval)",
        format!(
            "largest |error|: {:.1}%",
            data.rows
                .iter()
                .map(|r| {
                    let (t, _, tm) = latencies(r);
                    (t / tm - 1.0).abs()
                })
                .fold(0.0, f64::max)
                * 100.0
        ),
        model_ok,
    ));
    let gain = exercises::locality_throughput_gain(1e6, 2, 0.81);
    page.claims.push(Claim::new(
        "Agarwal 1991 §5.1: locality raises the peak throughput by k_d/k_dl, which tends to 1/l^(1/n) for large k",
        format!("at k = 10⁶, n = 2, l = 0.81: {gain:.5} against 1/0.9 = {:.5}", 1.0 / 0.9),
        (gain - 1.0 / 0.9).abs() < 1e-4,
    ));
    page.notes = vec![Note::Table(TextTable::new(
        &[
            ("m", true),
            ("l", true),
            ("side s", true),
            ("k_dl", true),
            ("hops, simulated", true),
            ("hops, n·k_dl", true),
            ("latency", true),
            ("model", true),
            ("error", true),
        ],
        rows,
    ))];
    Ok(page)
}

fn ex_7_data() -> Result<Data> {
    let data = design::search(&design::exercise_7())?
        .iter()
        .enumerate()
        .map(|(i, c)| DesignRow {
            rank: i as u64 + 1,
            n: c.n,
            k: c.k,
            nodes: c.nodes,
            width: c.width,
            flits: c.flits,
            k_d: c.prediction.k_d,
            utilization: c.prediction.utilization,
            latency: c.prediction.latency,
            margin: c.saturation_margin,
        })
        .collect();
    Ok(Data::Designs(data))
}

fn ex_7(data: &[DesignRow]) -> Result<Page> {
    let mut page = Page {
        about: "N = 64, 384 pins per switch (2n channels of W = 384/(2n) bits), m = 0.015, 1024-bit messages (B = ⌈1024/W⌉ flits), l = 0.5, wire length ignored: every dimension ranked by the model's latency (eq. 10 with k_dl), saturated designs last ([docs/design.md](../design.md) explains each row).".into(),
        ..Page::default()
    };
    let find = |what: &str, keep: &dyn Fn(&DesignRow) -> bool| {
        data.iter()
            .find(|r| keep(r))
            .ok_or_else(|| super::invalid(format!("the data have no row for {what}")))
    };
    let best = find("the best design", &|r| r.rank == 1)?;
    let example = find("the 2-D example", &|r| r.n == 2)?;
    page.claims.push(Claim::new(
        "the exercise's example switch: 2-D, channels 96 wide, B = 11 for 1024-bit messages",
        format!("n = 2: W = {}, B = {}", example.width, example.flits),
        example.width == 96.0 && example.flits == 11.0,
    ));
    page.claims.push(Claim::new(
        "design the k-ary n-cube with the lowest latency (our answer: a 4-ary 3-cube with 64-bit channels)",
        format!(
            "{}-ary {}-cube, W = {}, B = {}: {} cycles against the 2-D example's {}",
            best.k,
            best.n,
            best.width,
            best.flits,
            fmt(nan(best.latency), 2),
            fmt(nan(example.latency), 2)
        ),
        best.n == 3 && best.k == 4 && nan(best.latency) < nan(example.latency),
    ));
    let rows = data
        .iter()
        .map(|r| {
            vec![
                r.rank.to_string(),
                r.n.to_string(),
                r.k.to_string(),
                r.nodes.to_string(),
                fmt(r.width, 0),
                r.flits.to_string(),
                fmt(r.k_d, 3),
                fmt(r.utilization, 3),
                r.latency.map_or_else(|| "saturated".into(), |l| fmt(l, 2)),
            ]
        })
        .collect();
    page.notes = vec![Note::Table(TextTable::new(
        &[
            ("rank", true),
            ("n", true),
            ("k", true),
            ("nodes", true),
            ("W", true),
            ("B", true),
            ("k_dl", true),
            ("ρ", true),
            ("latency", true),
        ],
        rows,
    ))];
    Ok(page)
}

/// Ex 8's network: 2-D, B = 4, m = 0.04 while computing (Ex 1's), radix 2 to 64.
fn ex_8_data() -> Result<Data> {
    let mut data = Vec::new();
    for k in (2u32..=64).step_by(2).chain([1024, 4096]) {
        let p = KaryNCube::new(k, 2, 0.04, 4.0);
        let fb = feedback::solve(&p, Solution::Exact)?;
        let open = kary_ncube::predict(&p)?;
        data.push(FeedbackRow {
            k,
            k_d: fb.k_d,
            latency_feedback: fb.latency,
            processor_utilization: fb.processor_utilization,
            latency_open: open.latency,
            slope: feedback::large_network_slope(2, 4.0),
        });
    }
    Ok(Data::Feedback(data))
}

fn ex_8(data: &[FeedbackRow]) -> Result<Page> {
    let mut page = Page {
        about: "App. D's model (one outstanding request per processor; m = 0.04 while computing, B = 4, n = 2) against App. B's open model at the same m, k = 2 to 64. The open model saturates at k_d = 1/(m·B) = 6.25 (k ≈ 14); with feedback the processors slow down instead and the latency grows linearly.".into(),
        ..Page::default()
    };
    let find = |k: u32| {
        data.iter()
            .find(|r| r.k == k)
            .ok_or_else(|| super::invalid(format!("the data have no row for k = {k}")))
    };
    let (last, prev) = (find(4096)?, find(1024)?);
    let slope = (last.latency_feedback - prev.latency_feedback) / (last.k_d - prev.k_d);
    let expected = last.slope;
    page.claims.push(Claim::new(
        "\"show that when the network becomes very large (k ≫ 1), network latency is linearly related to k_d\" (derived: T ≈ max(n, B)·k_d)",
        format!("dT/dk_d between k = 1024 and 4096: {slope:.3}, against max(n, B) = {expected}"),
        (slope / expected - 1.0).abs() < 0.02,
    ));
    let u_kd = last.processor_utilization * last.k_d;
    let target = 1.0 / (0.04 * expected);
    page.claims.push(Claim::new(
        "\"how does processor utilization relate to k_d?\" (derived: U ≈ 1/(m·max(n, B)·k_d), falling as 1/k_d)",
        format!("U·k_d at k = 4096: {u_kd:.3}, against 1/(m·max(n, B)) = {target:.3}"),
        (u_kd / target - 1.0).abs() < 0.02,
    ));
    let open_sat = data.iter().find(|r| r.latency_open.is_none());
    page.claims.push(Claim::new(
        "\"the curve for the model appears largely linear as k increases when the request rate is controlled by network feedback\"; without feedback the latency grows without bound",
        format!("the open model saturates from k = {}", open_sat.map_or("—".to_string(), |r| r.k.to_string())),
        open_sat.is_some(),
    ));
    Ok(page)
}
