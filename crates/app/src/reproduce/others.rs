//! Puente et al. 1999 (Table 1, Figs. 6–8), Greenberg & Guan 1997 (Fig. 3) and Raghunath &
//! Ranade 1995 (Tables I–II, Figs. 4–8).

use super::{
    ChannelRow, Claim, Data, Item, Kind, ModuleRow, NetworkRow, Note, Page, Paper, Params, Runs, TableIIRow,
    TextTable, fmt, invalid, nan, pct, width,
};
use crate::error::Result;
use crate::row::Row;
use netwrap_sim::report::Verdict;
use netwrap_topo::cost::{InterModule, cost};
use netwrap_topo::{RoutingSpec, TopologySpec};
use serde_json::{Value, json};
use std::collections::BTreeMap;

pub fn items() -> Vec<Item> {
    vec![
        Item {
            id: "puente-1999-table-1",
            paper: Paper::Puente,
            title: "Table 1: links, diameter and average distance of mesh, torus and Midimew",
            source: "`netwrap topo` on each network, beside Table 1's formulas",
            kind: Kind::Networks,
            data: |_| puente_table_1_data(),
            page: |d| puente_table_1(d.networks()?),
        },
        Item {
            id: "puente-1999-fig-6",
            paper: Paper::Puente,
            title: "Fig. 6: base latency",
            source: "crates/app/experiments/puente-5-1-latency.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("puente-5-1-latency")?)),
            page: |d| puente_fig_6(d.runs()?),
        },
        Item {
            id: "puente-1999-fig-7",
            paper: Paper::Puente,
            title: "Fig. 7: maximum throughput",
            source: "crates/app/experiments/puente-5-1-throughput-{16,64,256}.toml",
            kind: Kind::Runs,
            data: |ctx| {
                let mut all = ctx.experiment_thinned("puente-5-1-throughput-16", 3)?;
                for name in ["puente-5-1-throughput-64", "puente-5-1-throughput-256"] {
                    all.rows.extend(ctx.experiment_thinned(name, 3)?.rows);
                }
                Ok(Data::Runs(all))
            },
            page: |d| puente_fig_7(d.runs()?),
        },
        Item {
            id: "puente-1999-fig-8",
            paper: Paper::Puente,
            title: "Fig. 8: buffer occupancy under transpose beyond saturation",
            source: "crates/app/experiments/puente-fig-8.toml (`--channels`)",
            kind: Kind::Channels,
            data: |ctx| Ok(Data::Channels(ctx.channels("puente-fig-8")?)),
            page: |d| puente_fig_8(d.channels()?),
        },
        Item {
            id: "greenberg-guan-1997-fig-3",
            paper: Paper::GreenbergGuan,
            title: "Fig. 3: wormhole fat-trees, model against simulation",
            source: "crates/app/experiments/greenberg-guan-fig-3.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("greenberg-guan-fig-3")?)),
            page: |d| greenberg_guan_fig_3(d.runs()?),
        },
        Item {
            id: "raghunath-ranade-1995-table-1",
            paper: Paper::RaghunathRanade,
            title: "Table I: pin count of M packaging modules, formulas against built graphs",
            source: "`netwrap cost` on built graphs, beside Table I's formulas",
            kind: Kind::Modules,
            data: |_| rr_table_1_data(),
            page: |d| rr_table_1(d.modules()?),
        },
        Item {
            id: "raghunath-ranade-1995-table-2",
            paper: Paper::RaghunathRanade,
            title: "Table II: 32 modules, bisection 8192",
            source: "`netwrap cost --modules 32 --bisection 8192`",
            kind: Kind::TableII,
            data: |_| rr_table_2_data(),
            page: |d| rr_table_2(d.table_ii()?),
        },
        rr_open("raghunath-ranade-1995-fig-4", "Fig. 4: open network, butterflies", |d| rr_fig_4(d.runs()?)),
        rr_open("raghunath-ranade-1995-fig-5", "Fig. 5: open network, crossbar modules", |d| {
            rr_fig_5(d.runs()?)
        }),
        rr_open("raghunath-ranade-1995-fig-6", "Fig. 6: open network, 2-hop inter-module networks", |d| {
            rr_fig_6(d.runs()?)
        }),
        Item {
            id: "raghunath-ranade-1995-fig-7",
            paper: Paper::RaghunathRanade,
            title: "Fig. 7: multithreading, mean access interval 16 cycles",
            source: "crates/app/experiments/raghunath-ranade-threads.toml",
            kind: Kind::Runs,
            data: |ctx| {
                Ok(Data::Runs(ctx.experiment("raghunath-ranade-threads")?.at("workload.rate", 0.0625)))
            },
            page: |d| rr_threads(d.runs()?, 16),
        },
        Item {
            id: "raghunath-ranade-1995-fig-8",
            paper: Paper::RaghunathRanade,
            title: "Fig. 8: multithreading, mean access interval 32 cycles",
            source: "crates/app/experiments/raghunath-ranade-threads.toml",
            kind: Kind::Runs,
            data: |ctx| {
                Ok(Data::Runs(ctx.experiment("raghunath-ranade-threads")?.at("workload.rate", 0.03125)))
            },
            page: |d| rr_threads(d.runs()?, 32),
        },
    ]
}

// ---- Puente et al. 1999 ----

/// A network of the §5.1 runs: ("mesh", 16), ("torus", 64), …
fn network(r: &Row) -> (String, u32) {
    let family = r.param("topology.family").and_then(Value::as_str).unwrap_or("?").to_string();
    let nodes = match r.param("topology.nodes").and_then(Value::as_u64) {
        Some(n) => n as u32,
        None => r.param("topology.k").and_then(Value::as_u64).map_or(0, |k| (k * k) as u32),
    };
    (family, nodes)
}

/// A traffic of the §5.1 runs: `uniform`, `bimodal`, or the pattern's name.
fn traffic(r: &Row) -> String {
    if r.param("workload.long-size").is_some_and(|v| !v.is_null()) {
        "bimodal".into()
    } else {
        r.param("workload.pattern")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .replace("uniform-others", "uniform")
    }
}

/// Puente et al.'s traffics, as the pages name them.
pub const TRAFFICS: [&str; 5] = ["uniform", "bimodal", "transpose", "bit-reversal", "shuffle"];
/// Puente et al.'s networks.
pub const FAMILIES: [&str; 3] = ["mesh", "torus", "midimew"];
/// Puente et al. Table 3's clock: 5.65 ns a cycle.
pub const NS_PER_CYCLE: f64 = 5.65;

/// A family as the pictures name it.
pub fn family_label(f: &str) -> &str {
    if f == "midimew" { "Midimew" } else { f }
}

fn network_spec(family: &str, nodes: u32) -> Value {
    let k = (nodes as f64).sqrt().round() as u32;
    match family {
        "mesh" => json!({"family": "mesh", "k": k}),
        "torus" => json!({"family": "torus", "k": k, "bidirectional": true}),
        _ => json!({"family": "midimew", "nodes": nodes}),
    }
}

fn puente_table_1_data() -> Result<Data> {
    let mut data = Vec::new();
    for nodes in [16u32, 64, 256, 1024] {
        let k = (nodes as f64).sqrt();
        for family in FAMILIES {
            let spec: TopologySpec =
                serde_json::from_value(network_spec(family, nodes)).map_err(|e| invalid(e.to_string()))?;
            let m = crate::topo(&spec, &RoutingSpec::default(), false)?.metrics;
            let n = nodes as f64;
            // Table 1's formulas, k1 = k2 = k = √N.
            let (links, diameter, avg) = match family {
                "mesh" => (2.0 * k * (k - 1.0), 2.0 * k - 2.0, 2.0 * k / 3.0),
                "torus" => {
                    let ki = k as u64;
                    let avg = 2.0 * (ki / 2) as f64 * ki.div_ceil(2) as f64 * k / (k * k - 1.0);
                    (2.0 * n, k, avg)
                }
                _ => {
                    let k0 = (k / 2f64.sqrt()).ceil();
                    (2.0 * n, k0, k0 * (1.0 - 2.0 * (k0 * k0 - 1.0) / (3.0 * (n - 1.0))))
                }
            };
            data.push(NetworkRow {
                network: family.into(),
                nodes,
                links: m.channels / 2,
                diameter: m.diameter,
                average_distance: m.average_distance,
                table_links: links,
                table_diameter: diameter,
                table_average_distance: avg,
            });
        }
    }
    Ok(Data::Networks(data))
}

fn puente_table_1(data: &[NetworkRow]) -> Result<Page> {
    let mut page = Page {
        about: "Each network built and measured by `netwrap topo` (links = channels / 2; diameter and average distance over ordered pairs of distinct nodes, exact), beside Table 1's formulas with k₁ = k₂ = k = √N.".into(),
        ..Page::default()
    };
    let table_rows: Vec<Vec<String>> = data
        .iter()
        .map(|r| {
            vec![
                family_label(&r.network).to_string(),
                r.nodes.to_string(),
                format!("{} ({})", r.links, r.table_links),
                format!("{} ({})", r.diameter, r.table_diameter),
                format!("{} ({})", fmt(r.average_distance, 3), fmt(r.table_average_distance, 3)),
            ]
        })
        .collect();
    let same = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let exact = data.iter().filter(|r| r.network != "midimew").all(|r| {
        same(r.links as f64, r.table_links)
            && same(r.diameter as f64, r.table_diameter)
            && same(r.average_distance, r.table_average_distance)
    });
    page.claims.push(Claim::new(
        "Table 1: mesh 2√N(√N − 1) links, diameter 2k − 2, average distance 2k/3; torus 2N links, diameter k, average distance 2⌊k/2⌋⌊(k+1)/2⌋k/(k² − 1)",
        "the built meshes and tori give every formula's value exactly at N = 16, 64, 256, 1024 (average distance over ordered pairs of distinct nodes)",
        exact,
    ));
    let mid: Vec<&NetworkRow> = data.iter().filter(|r| r.network == "midimew").collect();
    page.claims.push(Claim::new(
        "Table 1: the Midimew has 2N links and diameter k₀ = ⌈k/√2⌉ (b or b − 1)",
        mid.iter()
            .map(|r| format!("N = {}: diameter {} (k₀ = {})", r.nodes, r.diameter, r.table_diameter))
            .collect::<Vec<_>>()
            .join(", "),
        mid.iter().all(|r| {
            same(r.links as f64, r.table_links) && (r.diameter as f64 - r.table_diameter).abs() <= 1.0
        }),
    ));
    let row = |family: &str, nodes: u32| data.iter().find(|r| r.network == family && r.nodes == nodes);
    let diameter = |family: &str, nodes: u32| row(family, nodes).map_or(f64::NAN, |r| r.diameter as f64);
    let distance = |family: &str, nodes: u32| row(family, nodes).map_or(f64::NAN, |r| r.average_distance);
    let ratio = diameter("torus", 1024) / diameter("midimew", 1024);
    page.claims.push(Claim::new(
        "§2: for large networks the torus's diameter is about √2 times the Midimew's, up to 30% less",
        format!(
            "1024 nodes: {} against {}, a ratio of {:.3} (√2 = 1.414)",
            diameter("torus", 1024),
            diameter("midimew", 1024),
            ratio
        ),
        (ratio - 2f64.sqrt()).abs() < 0.05,
    ));
    page.claims.push(Claim::differs(
        "§2: at 256 nodes the average distance falls from 8.3 (torus) to 7.51 (Midimew)",
        format!(
            "{} and {} exactly (Table 1's formula gives the torus {}; the text's 8.3 and 7.51 are not exact)",
            fmt(distance("torus", 256), 3),
            fmt(distance("midimew", 256), 3),
            fmt(row("torus", 256).map_or(f64::NAN, |r| r.table_average_distance), 3)
        ),
        distance("midimew", 256) < distance("torus", 256),
    ));
    page.notes = vec![
        Note::Table(TextTable::new(
            &[
                ("network", false),
                ("N", true),
                ("links (Table 1)", true),
                ("diameter (Table 1)", true),
                ("average distance (Table 1)", true),
            ],
            table_rows,
        )),
        Note::Text("The Midimew's average-distance formula k₀(1 − 2(k₀² − 1)/(3(N − 1))) is an approximation: it is off by up to a few per cent from the built graphs (C_N(b − 1, b), measured exactly).".into()),
    ];
    Ok(page)
}

/// One value of one network and traffic of Puente et al.'s §5.1 (a point of Figs. 6 and 7).
#[derive(Clone, Debug, PartialEq)]
pub struct SizePoint {
    /// `mesh`, `torus` or `midimew`.
    pub family: String,
    /// Nodes N.
    pub nodes: u32,
    /// One of [`TRAFFICS`].
    pub traffic: String,
    /// The value (ns for Fig. 6's latency, bytes/ns for Fig. 7's throughput).
    pub value: f64,
    /// Its 95% confidence interval's half-width, where measured.
    pub ci: Option<f64>,
}

/// Fig. 6's points: each run's mean latency and its 95% interval, in ns.
pub fn base_latencies(data: &Runs) -> Vec<SizePoint> {
    data.rows
        .iter()
        .map(|r| {
            let (family, nodes) = network(r);
            SizePoint {
                family,
                nodes,
                traffic: traffic(r),
                value: nan(r.metrics.latency) * NS_PER_CYCLE,
                ci: Some(nan(r.metrics.latency_ci95) * NS_PER_CYCLE),
            }
        })
        .collect()
}

/// The highest accepted load (flits/node/cycle) of each network and traffic.
fn best_accepted(data: &Runs) -> BTreeMap<(String, u32, String), f64> {
    let mut best: BTreeMap<(String, u32, String), f64> = BTreeMap::new();
    for r in &data.rows {
        let (fam, n) = network(r);
        let e = best.entry((fam, n, traffic(r))).or_insert(0.0);
        *e = e.max(r.metrics.accepted_load);
    }
    best
}

/// Accepted load in flits/node/cycle to bytes/ns: × N × 2 bytes a phit / 5.65 ns.
fn bytes_per_ns(load: f64, nodes: u32) -> f64 {
    load * nodes as f64 * 2.0 / NS_PER_CYCLE
}

/// Fig. 7's points: each network's highest accepted load under each traffic, in bytes/ns.
pub fn max_throughputs(data: &Runs) -> Vec<SizePoint> {
    best_accepted(data)
        .into_iter()
        .map(|((family, nodes, traffic), v)| SizePoint {
            family,
            nodes,
            traffic,
            value: bytes_per_ns(v, nodes),
            ci: None,
        })
        .collect()
}

fn puente_fig_6(data: &Runs) -> Result<Page> {
    let mut page = Page {
        about: "Mean latency at 0.05% of each network's bisection-limited load (netwrap's exact busiest-channel bound), Puente et al.'s router (virtual cut-through, a Bubble escape VC and an adaptive VC, 4-stage pipeline, 80-phit buffers), 20-phit messages (bimodal: 10% of 200 phits), in ns at 5.65 ns a cycle. [docs/validation.md](../validation.md) matches every parameter to the paper.".into(),
        ..Page::default()
    };
    let rows = base_latencies(data);
    let get = |fam: &str, n: u32, t: &str| {
        rows.iter()
            .find(|r| r.family == fam && r.nodes == n && r.traffic == t)
            .map_or((f64::NAN, 0.0), |r| (r.value, r.ci.unwrap_or(0.0)))
    };
    let hops = |fam: &str, n: u32, t: &str| {
        data.rows
            .iter()
            .find(|r| network(r) == (fam.to_string(), n) && traffic(r) == t)
            .map_or(f64::NAN, |r| r.metrics.expected_mean_hops)
    };
    // The distances are exact; the latencies are compared as means for the fixed-length
    // traffics (bimodal latencies scatter by ± 1–2 cycles, as much as the differences).
    let mut order = true;
    for n in [16, 64, 256] {
        for t in TRAFFICS {
            let (m, to, me) = (hops("midimew", n, t), hops("torus", n, t), hops("mesh", n, t));
            order &= m < to && if t == "shuffle" { me == to } else { to < me };
            if t != "bimodal" {
                let (m, to, me) = (get("midimew", n, t).0, get("torus", n, t).0, get("mesh", n, t).0);
                order &= m < to && (t == "shuffle" || to < me);
            }
        }
    }
    page.claims.push(Claim::new(
        "\"although average distance varies from pattern to pattern, all exhibit the lowest value, and therefore the lowest base latency, for the Midimew case\"; the torus next, the mesh highest",
        "the routes' exact mean distance is lowest on the Midimew, then the torus, then the mesh, for every traffic and size (mesh and torus equal under the shuffle); so are the mean latencies of the fixed-length traffics",
        order,
    ));
    let tie = [16, 64, 256].iter().all(|&n| {
        let ((me, mc), (to, tc)) = (get("mesh", n, "shuffle"), get("torus", n, "shuffle"));
        (me - to).abs() <= mc + tc
    });
    page.claims.push(Claim::new(
        "§5.1: under the perfect shuffle the mesh and the torus have the same average distance (8.05 at 256 nodes), so the same base latency",
        format!(
            "256 nodes: mesh {} ns, torus {} ns (both routes' exact mean distance 8.000)",
            fmt(get("mesh", 256, "shuffle").0, 1),
            fmt(get("torus", 256, "shuffle").0, 1)
        ),
        tie,
    ));
    let lead: Vec<f64> = [16, 64, 256]
        .iter()
        .map(|&n| get("torus", n, "uniform").0 - get("midimew", n, "uniform").0)
        .collect();
    page.claims.push(Claim::new(
        "\"as we increase network size, so they do the differences in average distance and their respective network latencies\"",
        format!(
            "Midimew's lead over the torus, uniform traffic: {} ns at 16, 64, 256 nodes",
            lead.iter().map(|l| fmt(*l, 1)).collect::<Vec<_>>().join(", ")
        ),
        lead.windows(2).all(|w| w[1] > w[0]),
    ));
    // Every fixed-length point checked at once: each interval widened so that all hold with
    // 95% confidence (Bonferroni).
    let fixed = data.rows.iter().filter(|r| traffic(r) != "bimodal").count();
    let widen = netwrap_engine::stats::bonferroni_widening(fixed);
    let linear = data.rows.iter().all(|r| {
        traffic(r) == "bimodal"
            || (nan(r.metrics.latency) - (5.0 * r.metrics.expected_mean_hops + 24.0)).abs()
                <= width(nan(r.metrics.latency_ci95)) * widen + 0.05
    });
    page.claims.push(Claim::new(
        "\"the variations result from the different average distances\" (all routers have the same node delays)",
        "every fixed-length latency is 5·h̄ + 24 cycles (h̄ the routes' exact mean distance) within its 95% interval (widened for every point at once, Bonferroni) plus 0.05 cycles",
        linear,
    ));
    Ok(page)
}

fn puente_fig_7(data: &Runs) -> Result<Page> {
    let mut page = Page {
        about: "The highest accepted load over offered loads swept past saturation (geometric steps of 3%, 4% and 5% up to 1.0, 0.84 and 0.49 flits/node/cycle for 16, 64, 256 nodes; a quick run takes every third), each point after 5,000 warm-up cycles, in bytes/ns (2-byte phits, 5.65 ns cycles). The same router and traffic as Fig. 6, but the permutations' fixed points send nothing (`self-traffic = \"exclude\"`: their messages would cross no channel) and the accepted load counts only what crossed the network. Beyond saturation neighbouring points of one curve differ by up to 6%, so differences within 6% are ties.".into(),
        ..Page::default()
    };
    let best = best_accepted(data);
    let get =
        |f: &str, n: u32, t: &str| best.get(&(f.to_string(), n, t.to_string())).copied().unwrap_or(f64::NAN);
    // Beyond saturation neighbouring points of one curve differ by up to 6% (docs/validation.md):
    // a difference within that is a tie.
    const SCATTER: f64 = 0.06;
    let level = [16, 64, 256]
        .iter()
        .all(|&n| TRAFFICS.iter().all(|t| get("midimew", n, t) >= (1.0 - SCATTER) * get("torus", n, t)));
    let gains: Vec<String> = [16, 64, 256]
        .iter()
        .map(|&n| {
            format!(
                "{n}: {}",
                TRAFFICS
                    .iter()
                    .map(|t| pct(get("midimew", n, t), get("torus", n, t)))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect();
    page.claims.push(Claim::differs(
        "\"the Midimew network achieves the highest throughput for any traffic pattern, and … these gains increase with network size\"",
        format!("Midimew over torus (uniform, bimodal, transpose, bit-reversal, shuffle) at {}: ahead or level within the 6% scatter everywhere, clearly ahead only under the shuffle and some permutations", gains.join("; ")),
        level,
    ));
    // The mesh is lowest where it is below both others by more than the scatter; within it, a
    // tie. The 4×4 networks differ least (their wrap-around channels save least), so ties are
    // allowed there only: from 64 nodes on the mesh must be clearly lowest everywhere.
    let mesh_ahead =
        |n: u32, t: &str| get("mesh", n, t) >= (1.0 - SCATTER) * get("torus", n, t).min(get("midimew", n, t));
    let ties: Vec<&str> = TRAFFICS.iter().copied().filter(|t| mesh_ahead(16, t)).collect();
    let mesh_lowest = [16, 64, 256].iter().all(|&n| {
        TRAFFICS.iter().all(|t| {
            let others = get("torus", n, t).min(get("midimew", n, t));
            if n == 16 { get("mesh", n, t) < (1.0 + SCATTER) * others } else { !mesh_ahead(n, t) }
        })
    });
    page.claims.push(Claim::new(
        "Fig. 7: the mesh has the lowest throughput",
        if ties.is_empty() {
            "lowest at every size and traffic, by more than the 6% scatter".to_string()
        } else {
            format!(
                "lowest at every size and traffic, by more than the 6% scatter, but the 4×4 {}, where the mesh is level with the others within it",
                ties.join(" and ")
            )
        },
        mesh_lowest,
    ));
    let g = |t: &str| get("midimew", 256, t) / get("torus", 256, t) - 1.0;
    page.claims.push(Claim::differs(
        "§5.1: at 256 nodes the Midimew accepts 19%, 32% and 26% more than the torus under transpose, perfect shuffle and bit reversal",
        format!(
            "{:+.0}%, {:+.0}%, {:+.0}%: the transpose's and the shuffle's gains at least the paper's (less the 6% scatter), bit reversal's far below it",
            g("transpose") * 100.0,
            g("shuffle") * 100.0,
            g("bit-reversal") * 100.0
        ),
        g("transpose") > 0.19 - SCATTER && g("shuffle") > 0.32 - SCATTER && g("bit-reversal") < 0.26 - 2.0 * SCATTER,
    ));
    page.notes = vec![Note::Text("Where we differ: the transpose's and the shuffle's gains are as large as the paper's (larger), but bit reversal gains less. (Counting the fixed points' self-addressed messages as accepted load, as netwrap did before it kept them apart, made about a fifth of the torus's transpose figure and cut that gain to +8%: the fixed points are 16 of the torus's 256 sources.) Our 64- and 256-node Midimews take the permutations on the circulant's own node numbers (C_256(11,12) has no rectangular layout for the paper's Fig. 9 map, and the paper does not say how it numbered them), and a permutation's channel loads, not only its mean distance, set its throughput. Beyond saturation the Midimew's accepted load falls after its peak under the permutations while the torus's keeps creeping up; [docs/validation.md](../validation.md) follows this to the buffers (Fig. 8's page).".into())];
    Ok(page)
}

/// Fig. 8's networks: (the point of `puente-fig-8.toml`, the picture's suffix, the network,
/// its name).
pub fn occupancy_networks() -> [(u64, &'static str, TopologySpec, &'static str); 2] {
    [
        (
            0,
            "torus",
            TopologySpec::Torus {
                k: Some(16),
                n: None,
                nodes: None,
                radices: None,
                bidirectional: true,
                concentration: None,
            },
            "16x16 torus",
        ),
        (1, "midimew", TopologySpec::Midimew { nodes: Some(256) }, "256-node Midimew"),
    ]
}

fn puente_fig_8(data: &[ChannelRow]) -> Result<Page> {
    let mut page = Page {
        about: "Each channel's adaptive VC (vc1) mean occupancy in flits, 80-flit buffers, transpose traffic at an offered load of 0.5 flits/node/cycle (past both networks' saturation), on each network's own drawing: the 16×16 torus as its grid (wrap-around channels as stubs at the edge); C_256(11,12), which has no rectangular layout, as its minimal-offset diamond (+11 to the right, +12 down).".into(),
        ..Page::default()
    };
    let mut spread = Vec::new();
    for (point, _, _, name) in occupancy_networks() {
        let v: Vec<f64> = data.iter().filter(|r| r.point == point).map(|r| nan(r.vc(1))).collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64).sqrt();
        spread.push((name, mean, sd));
    }
    let cv = |i: usize| spread[i].2 / spread[i].1;
    page.claims.push(Claim::new(
        "\"there is a more balanced buffer usage in the Midimew case, hence its channels become saturated at higher loads\"",
        spread.iter().map(|(n, m, sd)| format!("{n}: mean {m:.1} flits, standard deviation {sd:.1}")).collect::<Vec<_>>().join("; "),
        cv(1) < 0.5 * cv(0),
    ));
    page.notes = vec![Note::Text("Balanced, read as: the spread of the adaptive VCs' occupancy over the channels (standard deviation over mean) is under half the torus's. The Midimew's buffers are also fuller on average, which matches its fall in accepted load beyond saturation (Fig. 7's page).".into())];
    Ok(page)
}

// ---- Greenberg & Guan 1997 ----

fn greenberg_guan_fig_3(data: &Runs) -> Result<Page> {
    let page = Page {
        about: "Butterfly fat-trees of 64, 256 and 1024 processors with 16-, 32- and 64-flit worms on netwrap's wormhole router matched to the paper's assumptions (one VC, 3-flit buffers, oldest-first arbitration, uniform traffic over the other processors), beside eq. 25 (dashed) at rates from 10% to 110% of eq. 26's saturation rate. Greenberg & Guan print no numbers; their Fig. 3 shows 1024 processors.".into(),
        ..Page::default()
    };
    let rate = |r: &Row| r.num("workload.rate");
    let max_rate = |r: &Row| nan(r.metrics.model_max_rate);
    let (sim, model) = (|r: &Row| nan(r.metrics.latency), |r: &Row| nan(r.metrics.model_latency));
    let low = data.filter(|r| rate(r) <= 0.61 * max_rate(r));
    let worst = low.rows.iter().map(|r| (sim(r) / model(r) - 1.0).abs()).fold(0.0, f64::max);
    let mut claims = vec![Claim::new(
        "\"the model produced accurate predictions on latency … for all cases under study\" (read as: within 10% below 60% of eq. 26's saturation rate, widened by each point's 95% interval)",
        format!("largest |error| there: {:.1}% over {} points", worst * 100.0, low.rows.len()),
        !low.rows.is_empty()
            && low
                .rows
                .iter()
                .all(|r| (sim(r) - model(r)).abs() <= 0.1 * model(r) + width(nan(r.metrics.latency_ci95))),
    )];
    let high = data.filter(|r| (rate(r) / max_rate(r) - 0.9).abs() < 0.01);
    let beyond = data.filter(|r| rate(r) > 1.05 * max_rate(r));
    let ok = |r: &Row| r.metrics.verdict == Some(Verdict::Ok);
    claims.push(Claim::differs(
        "\"… and throughput\"",
        format!(
            "near saturation the model is too high ({} at 90% of eq. 26's rate), and at 110% of it {} of {} networks still run stable: eq. 26's saturation is too low (the paired up-links' two-server queue, docs/validation.md)",
            high.rows.iter().map(|r| pct(model(r), sim(r))).collect::<Vec<_>>().join(", "),
            beyond.rows.iter().filter(|r| ok(r)).count(),
            beyond.rows.len()
        ),
        high.rows.iter().all(|r| model(r) > sim(r)) && beyond.rows.iter().all(ok),
    ));
    Ok(Page { claims, ..page })
}

// ---- Raghunath & Ranade 1995 ----

fn rr_table_1_data() -> Result<Data> {
    let mut data = Vec::new();
    let b = 4096.0;
    for m in [16u32, 64, 256, 4096] {
        let mf = m as f64;
        let lg = mf.log2();
        let rows: [(InterModule, f64, f64, f64); 6] = [
            (InterModule::Complete, 4.0 * b / mf * (mf - 1.0) / mf, mf - 1.0, mf * (mf - 1.0) / 2.0),
            (
                InterModule::NHop(2),
                8.0 * b / mf * (mf.sqrt() - 1.0) / mf.sqrt(),
                2.0 * (mf.sqrt() - 1.0),
                mf * (mf.sqrt() - 1.0),
            ),
            (InterModule::Hypercube, 2.0 * b * lg / mf, lg, mf * lg / 2.0),
            (InterModule::Toroid(2), 2.0 * b / mf.sqrt(), 4.0, 2.0 * mf),
            (InterModule::Ring, b, 2.0, mf),
            (InterModule::Butterfly, 4.0 * b * lg / mf, 4.0, 2.0 * mf),
        ];
        for (t, pins, bundles, total) in rows {
            let r = cost(t, m, b as u64)?;
            data.push(ModuleRow {
                modules: m,
                topology: r.topology,
                bisection: r.bisection,
                pin_count: r.pin_count,
                bundles_per_module: r.bundles_per_module,
                total_bundles: r.total_bundles,
                table_pin_count: pins,
                table_bundles_per_module: bundles,
                table_total_bundles: total,
            });
        }
    }
    Ok(Data::Modules(data))
}

fn rr_table_1(data: &[ModuleRow]) -> Result<Page> {
    let mut page = Page {
        about: "Each inter-module network built as a graph and counted (`netwrap cost`: a module's pins are the widths of its bundles, each dimension's bundles sized so that every bisection is B = 4096 wires), beside Table I's closed forms, at M = 16, 64, 256 and 4096 modules (perfect squares and powers of two, where every row's graph exists). The butterfly row is Table I's formula itself (no butterfly has exactly M nodes).".into(),
        ..Page::default()
    };
    let agree = |r: &ModuleRow| {
        [
            (r.pin_count, r.table_pin_count),
            (r.bundles_per_module as f64, r.table_bundles_per_module),
            (r.total_bundles as f64, r.table_total_bundles),
        ]
        .iter()
        .all(|&(ours, table)| (ours - table).abs() < 1e-6 * ours.max(1.0))
    };
    let bad: Vec<String> =
        data.iter().filter(|r| !agree(r)).map(|r| format!("{} M = {}", r.topology, r.modules)).collect();
    page.claims.push(Claim::new(
        "Table I: pin count (4B/M)(M−1)/M for the complete graph, (8B/M)(√M−1)/√M for the 2-hop network, 2B·log M/M for the hypercube, 2B/√M for the 2-dim toroid, B for the ring; bundles M−1, 2(√M−1), log M, 4, 2 per module",
        if bad.is_empty() {
            format!("the built graphs give every formula's value on all {} rows", data.len())
        } else {
            format!("differs on {}", bad.join(", "))
        },
        bad.is_empty(),
    ));
    let pins = |m: u32, t: &str| {
        data.iter().find(|r| r.modules == m && r.topology == t).map_or(f64::NAN, |r| r.pin_count)
    };
    let complete_least = [16, 64, 256, 4096].iter().all(|&m| {
        data.iter().filter(|r| r.modules == m).all(|r| pins(m, "Complete graph") <= r.pin_count + 1e-9)
    });
    page.claims.push(Claim::new(
        "§4: the complete graph achieves the minimum pin count for a given bisection",
        format!(
            "least at every M (M = 256: {} against the 2-hop network's {})",
            fmt(pins(256, "Complete graph"), 1),
            fmt(pins(256, "2-hop Network"), 1)
        ),
        complete_least,
    ));
    let table_rows = data
        .iter()
        .map(|r| {
            vec![
                r.modules.to_string(),
                r.topology.clone(),
                format!("{} ({})", fmt(r.pin_count, 1), fmt(r.table_pin_count, 1)),
                format!("{} ({})", r.bundles_per_module, r.table_bundles_per_module),
                format!("{} ({})", r.total_bundles, r.table_total_bundles),
            ]
        })
        .collect();
    page.notes = vec![Note::Table(TextTable::new(
        &[
            ("M", true),
            ("topology", false),
            ("pin count (Table I)", true),
            ("bundles per module (Table I)", true),
            ("total bundles (Table I)", true),
        ],
        table_rows,
    ))];
    Ok(page)
}

/// Raghunath & Ranade Table II as printed: (topology, pin count, bundles per module, total).
const TABLE_II: [(&str, f64, u32, u64); 9] = [
    ("Complete graph", 992.0, 31, 496),
    ("2-hop Network", 1664.0, 10, 160),
    ("3-hop Network", 2048.0, 7, 112),
    ("Butterfly", 5120.0, 4, 64),
    ("CCC", 7680.0, 3, 48),
    ("Hypercube", 2560.0, 5, 80),
    ("3-dim Toroid", 2560.0, 6, 96),
    ("2-dim Toroid", 3072.0, 4, 64),
    ("Ring", 8192.0, 2, 32),
];

fn rr_table_2_data() -> Result<Data> {
    let mut data = Vec::new();
    for (t, (name, pins, bundles, total)) in InterModule::TABLE_II.iter().zip(TABLE_II) {
        let r = cost(*t, 32, 8192)?;
        if r.topology != name {
            return Err(invalid("Table II's rows are out of order".into()));
        }
        data.push(TableIIRow {
            topology: r.topology,
            bisection: r.bisection,
            pin_count: r.pin_count,
            bundles_per_module: r.bundles_per_module,
            total_bundles: r.total_bundles,
            paper_pin_count: pins,
            paper_bundles_per_module: bundles,
            paper_total_bundles: total,
        });
    }
    Ok(Data::TableII(data))
}

fn rr_table_2(data: &[TableIIRow]) -> Result<Page> {
    let mut page = Page {
        about: "Table II recomputed: 32 modules, bisection 8192 wires, each network built and counted (the butterfly and CCC rows from Table I's formulas with log₂ 32 = 5, as the paper does); the paper's printed values in parentheses.".into(),
        ..Page::default()
    };
    let table_rows = data
        .iter()
        .map(|r| {
            vec![
                r.topology.clone(),
                format!("{} ({})", r.pin_count, r.paper_pin_count),
                format!("{} ({})", r.bundles_per_module, r.paper_bundles_per_module),
                format!("{} ({})", r.total_bundles, r.paper_total_bundles),
            ]
        })
        .collect();
    let equal = data.iter().all(|r| {
        r.pin_count == r.paper_pin_count
            && r.bundles_per_module == r.paper_bundles_per_module
            && r.total_bundles == r.paper_total_bundles
    });
    page.claims.push(Claim::new(
        "Table II's 27 printed numbers",
        if equal { "every one equal".to_string() } else { "some differ (table below)".to_string() },
        equal,
    ));
    page.notes = vec![Note::Table(TextTable::new(
        &[
            ("topology", false),
            ("pin count (paper)", true),
            ("bundles per module (paper)", true),
            ("total bundles (paper)", true),
        ],
        table_rows,
    ))];
    Ok(page)
}

fn rr_open(id: &'static str, title: &'static str, page: fn(&Data) -> Result<Page>) -> Item {
    Item {
        id,
        paper: Paper::RaghunathRanade,
        title,
        source: "crates/app/experiments/raghunath-ranade-open.toml",
        kind: Kind::Runs,
        data: |ctx| Ok(Data::Runs(ctx.experiment("raghunath-ranade-open")?)),
        page,
    }
}

const OPEN_ABOUT: &str = "1024 processors and 1024 memories on the paper's two-level networks, 128-bit requests and replies (replies on the network reversed), open-network processors (geometric intervals), each memory serving one access at a time in 128 bits / its link's width cycles (our reading: the paper gives no access time). Round trip = request + memory + reply, in cycles, against the load as a percentage of the peak (one access per processor every 16 cycles); points with 95% intervals; a curve stops where the run saturated.";

/// The networks of Raghunath & Ranade's open-network Figs. 4, 5 and 6.
pub fn open_networks(figure: u32) -> &'static [&'static str] {
    match figure {
        4 => &["Butterfly.8.8", "Butterfly.8-2dil.8", "Butterfly.8-4dil.8", "Butterfly.32.8"],
        5 => &["Xbar.8.8", "Xbar.32.8", "Butterfly.8.8", "Butterfly.8-2dil.8", "Butterfly.32.8"],
        _ => &["2hop.32.64-32", "2hop.64.64-32", "2hop.32-2dil.64-32", "Butterfly.8.8", "Butterfly.32.8"],
    }
}

/// One point of an open-network curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpenPoint {
    /// The load, in per cent of the peak (one access per processor every 16 cycles).
    pub load: f64,
    /// The round trip and its 95% interval's half-width, in cycles; `None` where the run
    /// saturated.
    pub round_trip: Option<(f64, f64)>,
}

/// The round trips of `network`'s runs, in point order.
pub fn open_points(data: &Runs, network: &str) -> Vec<OpenPoint> {
    data.rows
        .iter()
        .filter(|r| r.text("topology.name") == network)
        .map(|r| OpenPoint {
            load: r.num("workload.rate") * 16.0 * 100.0,
            round_trip: (r.metrics.verdict == Some(Verdict::Ok))
                .then(|| (nan(r.metrics.round_trip), nan(r.metrics.round_trip_ci95))),
        })
        .collect()
}

/// The round trip of `name` at `percent` load (infinite where it saturated, NaN where not run).
fn rt(data: &Runs, name: &str, percent: f64) -> f64 {
    data.rows
        .iter()
        .find(|r| r.text("topology.name") == name && (r.num("workload.rate") * 1600.0 - percent).abs() < 0.5)
        .map_or(f64::NAN, |r| {
            if r.metrics.verdict == Some(Verdict::Ok) { nan(r.metrics.round_trip) } else { f64::INFINITY }
        })
}

fn rr_fig_4(data: &Runs) -> Result<Page> {
    let nets = open_networks(4);
    let mut page = Page { about: OPEN_ABOUT.into(), ..Page::default() };
    // A run that saturates has no stable round trip: the curve has risen without bound.
    let convex = nets.iter().all(|n| {
        rt(data, n, 90.0) == f64::INFINITY
            || rt(data, n, 90.0) - rt(data, n, 80.0) > rt(data, n, 20.0) - rt(data, n, 10.0)
    });
    page.claims.push(Claim::new(
        "§6.3: \"as the applied load increases, the latency initially increases gradually, and as the network nears saturation, the latency increases rapidly\"",
        format!(
            "from 80% to 90% load the round trip grows by {} cycles (— where the run saturated), against {} from 10% to 20%",
            nets.iter().map(|n| fmt(rt(data, n, 90.0) - rt(data, n, 80.0), 0)).collect::<Vec<_>>().join(", "),
            nets.iter().map(|n| fmt(rt(data, n, 20.0) - rt(data, n, 10.0), 1)).collect::<Vec<_>>().join(", ")
        ),
        convex,
    ));
    let (b, d2, d4) = (rt(data, nets[0], 50.0), rt(data, nets[1], 50.0), rt(data, nets[2], 50.0));
    page.claims.push(Claim::new(
        "§6.3: dilation helps; \"increasing the dilation from 2 to 4 does not seem to have much of an effect\"",
        format!("round trip at 50% load: {} (8.8), {} (8-2dil), {} (8-4dil)", fmt(b, 1), fmt(d2, 1), fmt(d4, 1)),
        d2 < 0.8 * b && (d4 - d2).abs() < 0.1 * d2,
    ));
    let (w_lo, b_lo, w_hi, b_hi) =
        (rt(data, nets[3], 10.0), rt(data, nets[0], 10.0), rt(data, nets[3], 80.0), rt(data, nets[0], 80.0));
    page.claims.push(Claim::differs(
        "§6.3: at low load the networks with wider channels are slightly worse than Butterfly.8.8 (a message waits for its tail where channels widen); at high load they win",
        format!(
            "Butterfly.32.8 {} against {} at 10% load, {} against {} at 80%: with our memory reading its 4-cycle memories outweigh the wait at every load (with memories taking no time the low-load order is the paper's: docs/validation.md)",
            fmt(w_lo, 1),
            fmt(b_lo, 1),
            fmt(w_hi, 1),
            fmt(b_hi, 1)
        ),
        w_lo < b_lo && w_hi < b_hi,
    ));
    Ok(page)
}

fn rr_fig_5(data: &Runs) -> Result<Page> {
    let mut page = Page { about: OPEN_ABOUT.into(), ..Page::default() };
    let gap = |load: f64| rt(data, "Butterfly.8-2dil.8", load) - rt(data, "Xbar.8.8", load);
    let below = [10.0, 30.0, 50.0, 70.0].iter().all(|&l| {
        rt(data, "Xbar.8.8", l) < rt(data, "Butterfly.8-2dil.8", l)
            && rt(data, "Xbar.32.8", l) < rt(data, "Butterfly.32.8", l)
    });
    page.claims.push(Claim::new(
        "§6.3: \"the graph for the cross-bar network is lower because of its lower minimum latency\" (Xbar.8.8 against Butterfly.8-2dil.8, Xbar.32.8 against Butterfly.32.8)",
        format!(
            "lower at 10–70% load; Butterfly.8-2dil.8 − Xbar.8.8: {} cycles at 10, 30, 50%",
            [10.0, 30.0, 50.0].iter().map(|&l| fmt(gap(l), 1)).collect::<Vec<_>>().join(", ")
        ),
        below,
    ));
    let parallel = (gap(50.0) - gap(10.0)).abs() < 0.5 * gap(10.0);
    page.claims.push(Claim::new(
        "§6.3: Xbar.8.8's graph \"is approximately parallel to that of Butterfly.8-2dil.8\" (similar contention) up to half load",
        format!("the gap changes from {} to {} cycles between 10% and 50% load", fmt(gap(10.0), 1), fmt(gap(50.0), 1)),
        parallel,
    ));
    Ok(page)
}

fn rr_fig_6(data: &Runs) -> Result<Page> {
    let mut page = Page { about: OPEN_ABOUT.into(), ..Page::default() };
    let at = |n: &str| rt(data, n, 80.0);
    page.claims.push(Claim::new(
        "§6.3: for the 2-hop networks \"dilation improves the performance over the base network, and widening channels is even better\"",
        format!(
            "round trip at 80% load: {} (base), {} (dilated), {} (wider)",
            fmt(at("2hop.32.64-32"), 1),
            fmt(at("2hop.32-2dil.64-32"), 1),
            fmt(at("2hop.64.64-32"), 1)
        ),
        at("2hop.32-2dil.64-32") < at("2hop.32.64-32") && at("2hop.64.64-32") < at("2hop.32.64-32"),
    ));
    page.claims.push(Claim::new(
        "§6.3: the difference between dilation and wider channels is not as pronounced (the 2-hop networks start with 32-bit memory channels)",
        format!("dilated against wider at 80% load: {}", pct(at("2hop.32-2dil.64-32"), at("2hop.64.64-32"))),
        (at("2hop.32-2dil.64-32") / at("2hop.64.64-32") - 1.0).abs() < 0.2,
    ));
    Ok(page)
}

/// The networks of Raghunath & Ranade's multithreading Figs. 7 and 8.
pub const THREAD_NETWORKS: [&str; 9] = [
    "Butterfly.8.8",
    "Butterfly.8-2dil.8",
    "Butterfly.8-4dil.8",
    "Butterfly.32.8",
    "Xbar.8.8",
    "Xbar.32.8",
    "2hop.32.64-32",
    "2hop.64.64-32",
    "2hop.32-2dil.64-32",
];

/// The processor utilisation of `network` with `threads` threads a processor whose accesses
/// come at `interval` (`geometric` or `periodic`) intervals; NaN where not run.
pub fn thread_utilization(data: &Runs, network: &str, interval: &str, threads: u32) -> f64 {
    data.rows
        .iter()
        .find(|r| {
            r.text("topology.name") == network
                && r.text("workload.processor.interval") == interval
                && r.num("workload.processor.threads") == threads as f64
        })
        .map_or(f64::NAN, |r| nan(r.metrics.processor_utilization))
}

fn rr_threads(data: &Runs, interval: u32) -> Result<Page> {
    let mut page = Page {
        about: format!(
            "Processor utilisation U with T = 1, 2, 4, 8, 16 threads per processor (round robin, a one-cycle switch, at most one outstanding access a thread), a mean interval of {interval} cycles between a thread's accesses, (a) geometric and (b) periodic; the same networks and memories as Figs. 4–6. The paper draws U on the x-axis against the networks; we draw U against T, one curve per network."
        ),
        ..Page::default()
    };
    let u = |name: &str, kind: &str, t: u32| thread_utilization(data, name, kind, t);
    let rising = THREAD_NETWORKS
        .iter()
        .all(|n| [1u32, 2, 4, 8].iter().all(|&t| u(n, "geometric", 2 * t) >= u(n, "geometric", t) - 0.005));
    page.claims.push(Claim::new(
        "§6.3: \"all networks achieve significant improvement in processor utilization as the number of threads is increased\"",
        format!(
            "U from T = 1 to 16 (geometric): {}",
            THREAD_NETWORKS
                .iter()
                .map(|n| format!("{} {}→{}", n, fmt(u(n, "geometric", 1), 2), fmt(u(n, "geometric", 16), 2)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        rising && THREAD_NETWORKS.iter().all(|n| u(n, "geometric", 16) > 1.5 * u(n, "geometric", 1)),
    ));
    // A periodic run beats its geometric twin by more than the two runs' noise: with 10,000 or
    // more accesses a point, U's standard error is under 0.005.
    let periodic_higher = THREAD_NETWORKS
        .iter()
        .all(|n| [2u32, 4, 8].iter().all(|&t| u(n, "periodic", t) >= u(n, "geometric", t) - 0.01));
    page.claims.push(Claim::new(
        "§6.3: \"the utilizations for the periodic model are higher\"",
        format!(
            "periodic − geometric at T = 4: {}",
            THREAD_NETWORKS
                .iter()
                .map(|n| format!("{:+.3}", u(n, "periodic", 4) - u(n, "geometric", 4)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        periodic_higher,
    ));
    if interval == 16 {
        let (b, d2, d4, w) = (
            u("Butterfly.8.8", "geometric", 8),
            u("Butterfly.8-2dil.8", "geometric", 8),
            u("Butterfly.8-4dil.8", "geometric", 8),
            u("Butterfly.32.8", "geometric", 8),
        );
        page.claims.push(Claim::new(
            "§6.3: dilation helps, dilation 4 adds little over 2; §7: with 8 threads widening the intra-module channels from 8 to 32 bits raises the butterfly's U \"from around 55% to almost 80%\"",
            format!("U at T = 8: 8.8 {}, 8-2dil {}, 8-4dil {}, 32.8 {}", fmt(b, 3), fmt(d2, 3), fmt(d4, 3), fmt(w, 3)),
            d2 > b + 0.05 && (d4 - d2).abs() < 0.03 && (b - 0.55).abs() < 0.05 && (w - 0.8).abs() < 0.06,
        ));
        let f = |t| u("Butterfly.8.8", "geometric", t) / u("Butterfly.8.8", "geometric", 1);
        page.claims.push(Claim::new(
            "§7: threads raise U \"by about a factor of 2 with 4 threads and almost 3 with 8\"",
            format!("Butterfly.8.8: ×{:.1} with 4 threads, ×{:.1} with 8", f(4), f(8)),
            (1.7..2.7).contains(&f(4)) && (2.5..3.5).contains(&f(8)),
        ));
    } else {
        let top = 32.0 / 33.0;
        let near = |n: &str, t| u(n, "geometric", t) >= top - 0.01;
        let four: Vec<&str> = THREAD_NETWORKS.iter().copied().filter(|n| near(n, 4)).collect();
        page.claims.push(Claim::differs(
            "§6.3: at a 32-cycle interval \"it is possible to get processor utilizations of almost 100%\"; \"about 4 threads can achieve this\"",
            format!(
                "16 threads reach U ≥ {:.3} on {} of 9 networks (U cannot pass 32/33 = 0.970 with a one-cycle switch); 4 threads suffice (geometric) on {} of 9, not on the butterflies, which need 8",
                top - 0.01,
                THREAD_NETWORKS.iter().filter(|n| near(n, 16)).count(),
                four.len()
            ),
            THREAD_NETWORKS.iter().all(|n| near(n, 16)) && !near("Butterfly.8.8", 4),
        ));
    }
    Ok(page)
}
