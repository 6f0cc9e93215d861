//! Today's networks: Kim, Dally, Scott & Abts 2008's dragonfly under minimal, Valiant and
//! UGAL routing (§4.1), and Petrini & Vanneschi 1997's k-ary n-tree.

use super::{Claim, Data, Item, Kind, Page, Paper, Params, Runs, nan};
use crate::error::Result;
use crate::row::Row;
use netwrap_topo::{RoutingSpec, TopologySpec};

pub fn items() -> Vec<Item> {
    vec![
        Item {
            id: "kim-2008-dragonfly-routing",
            paper: Paper::Kim,
            title: "§4.1: minimal, Valiant and UGAL routing under uniform and adversarial traffic",
            source: "crates/app/experiments/kim-dragonfly-routing.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("kim-dragonfly-routing")?)),
            page: |d| kim_routing(d.runs()?),
        },
        Item {
            id: "petrini-vanneschi-1997-kary-ntree",
            paper: Paper::PetriniVanneschi,
            title: "the 4-ary 3-tree: its structure, and full throughput under uniform traffic",
            source: "crates/app/experiments/kary-ntree.toml and `netwrap topo kary-ntree --k 4 --n 3`",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("kary-ntree")?)),
            page: |d| kary_ntree(d.runs()?),
        },
    ]
}

/// The best accepted load of `routing` under `pattern` over the sweep's loads.
fn best(data: &Runs, routing: &str, pattern: &str) -> f64 {
    data.rows
        .iter()
        .filter(|r| routing_of(r) == routing && r.text("workload.pattern") == pattern)
        .map(|r| r.metrics.accepted_load)
        .fold(0.0, f64::max)
}

/// A row's routing, `family` written as the dragonfly literature's `min`.
fn routing_of(r: &Row) -> String {
    match r.text("routing.algorithm").as_str() {
        "family" => "min".into(),
        other => other.into(),
    }
}

fn kim_routing(data: &Runs) -> Result<Page> {
    let page = Page {
        about: "The 72-terminal balanced dragonfly (p = 2, a = 4, h = 2, g = 9) on the ideal switch with one-flit messages: accepted against offered load for minimal routing (MIN), Valiant's through a random group (VAL), and UGAL with local and with global queues, under uniform traffic and under Kim et al.'s adversarial traffic (every terminal of group i to group i + 1: `--pattern group-shift`). Kim et al.'s Fig. 6 shows a 1K-node dragonfly on a cycle-accurate router; their statements are about the routings' bounds, which hold at any size.".into(),
        ..Page::default()
    };
    let (min_s, val_s) = (best(data, "min", "group-shift"), best(data, "valiant", "group-shift"));
    let (ugal_s, global_s) =
        (best(data, "ugal-local", "group-shift"), best(data, "ugal-global", "group-shift"));
    let (min_u, ugal_u) = (best(data, "min", "uniform"), best(data, "ugal-local", "uniform"));
    // A short window's transient lets a saturated run accept a little more than its bound
    // (messages past the busiest channel when the window opened): 10%.
    let claims = vec![
        Claim::new(
            "MIN under the adversarial pattern: \"the throughput is limited to 1/(a·p)\" of the terminal bandwidth, all of a group's traffic on its one channel to the next group (1/8 here)",
            format!("best accepted {min_s:.4} flits/node/cycle"),
            (0.9 * 0.125..=0.125 * 1.1).contains(&min_s),
        ),
        Claim::new(
            "VAL \"load-balances … at the cost of halving the throughput\": about 50% under any traffic",
            format!(
                "best accepted under group shift {val_s:.4}; exact bound 0.5 (`netwrap topo --routing valiant`)"
            ),
            (0.4..=0.55).contains(&val_s),
        ),
        Claim::new(
            "UGAL approaches VAL under the adversarial pattern, well above MIN",
            format!("UGAL-local {ugal_s:.4}, {:.1}x MIN's {min_s:.4}", ugal_s / min_s),
            ugal_s >= 2.0 * min_s,
        ),
        Claim::new(
            "UGAL approaches MIN under uniform traffic",
            format!("UGAL-local {ugal_u:.4} against MIN's {min_u:.4} ({:.0}%)", 100.0 * ugal_u / min_u),
            ugal_u >= 0.9 * min_u,
        ),
        Claim::new(
            "UGAL with global queue information (UGAL-G, an ideal bound) does at least as well as with local (UGAL-L)",
            format!("UGAL-global {global_s:.4}, UGAL-local {ugal_s:.4} under group shift"),
            global_s >= ugal_s,
        ),
    ];
    Ok(Page { claims, ..page })
}

fn kary_ntree(data: &Runs) -> Result<Page> {
    let page = Page {
        about: "The 4-ary 3-tree built by `netwrap topo kary-ntree --k 4 --n 3` (its exact structure), and on the ideal switch with one-flit messages under uniform traffic over the other processors, with each up-port choice of nearest-common-ancestor routing: the accepted load up to 0.95 of the ideal throughput 1.0.".into(),
        ..Page::default()
    };
    let spec: TopologySpec = serde_json::from_str(r#"{"family": "kary-ntree", "k": 4, "n": 3}"#)
        .map_err(|e| super::invalid(e.to_string()))?;
    let topo = crate::topology::topo(&spec, &RoutingSpec::default(), false)?;
    let m = &topo.metrics;
    // Router hops over distinct pairs, with the source's own messages (no hop) averaged in,
    // plus the first router.
    let n = m.nodes as f64;
    let routers_traversed = m.average_route.unwrap_or(m.average_distance) * (n - 1.0) / n + 1.0;
    let top = data.filter(|r| r.num("workload.load") == 0.95);
    let worst = top
        .rows
        .iter()
        .map(|r| r.metrics.accepted_load / r.num("workload.load"))
        .fold(f64::INFINITY, f64::min);
    let claims = vec![
        Claim::new(
            "k^n processors and n·k^(n−1) switches of 2k ports: 64 and 48",
            format!("{} processors, {} switches, degree {:?}", m.nodes, m.routers, m.degree_range),
            m.nodes == 64 && m.routers == 48,
        ),
        Claim::new(
            "full bisection: k^n/2 links each way (32)",
            format!(
                "bisection {} directed channels, {} each way ({})",
                m.bisection_width,
                m.bisection_width / 2,
                m.bisection_how
            ),
            m.bisection_width == 64,
        ),
        Claim::new(
            "mean routers traversed under uniform traffic, the source's own messages included: 280/64 = 4.375 (every pair's nearest common ancestor by hand)",
            format!("{routers_traversed:.4}"),
            (routers_traversed - 280.0 / 64.0).abs() < 1e-9,
        ),
        Claim::new(
            "ideal throughput 1.0 under uniform traffic, which the ideal switch carries",
            format!(
                "exact loads give {:.4}; at offered 0.95 every up-port choice accepts at least {:.1}% of it",
                nan(m.ideal_throughput),
                100.0 * worst
            ),
            (nan(m.ideal_throughput) - 1.0).abs() < 1e-9 && top.rows.len() == 3 && worst >= 0.97,
        ),
    ];
    Ok(Page { claims, ..page })
}
