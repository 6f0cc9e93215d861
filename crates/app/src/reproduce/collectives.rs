//! Collectives: Thakur, Rabenseifner & Gropp 2005's all-reduce algorithms over the data size
//! (the crossover between recursive doubling and the bandwidth-optimal algorithms), and the
//! direct all-to-all against the bisection bound on four networks.

use super::{Claim, Data, Item, Kind, Note, Page, Paper, Params, Runs, TextTable};
use crate::error::Result;
use crate::row::Row;

pub fn items() -> Vec<Item> {
    vec![
        Item {
            id: "thakur-2005-allreduce-crossover",
            paper: Paper::Thakur,
            title: "all-reduce by ring, recursive doubling and Rabenseifner's algorithm over the data size",
            source: "crates/app/experiments/allreduce-crossover.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("allreduce-crossover")?)),
            page: |d| crossover(d.runs()?),
        },
        Item {
            id: "thakur-2005-alltoall-bisection",
            paper: Paper::Thakur,
            title: "the long all-to-all against the bisection bound, on tori, a fat-tree and a dragonfly",
            source: "crates/app/experiments/alltoall-bisection.toml",
            kind: Kind::Runs,
            data: |ctx| Ok(Data::Runs(ctx.experiment("alltoall-bisection")?)),
            page: |d| alltoall(d.runs()?),
        },
    ]
}

/// A row's network: its family and size ("torus k=8", "fat-tree nodes=64", "dragonfly").
fn network(r: &Row) -> String {
    let mut label = r.text("topology.family");
    for key in ["k", "nodes"] {
        let v = r.text(&format!("topology.{key}"));
        if !v.is_empty() {
            label += &format!(" {key}={v}");
        }
    }
    label
}

/// A collective row's completion in cycles (NaN when it did not complete).
fn completion(r: &Row) -> f64 {
    r.collective.as_ref().and_then(|c| c.completion).map_or(f64::NAN, |c| c as f64)
}

/// The completion of `kind` at `size` flits a rank.
fn at(data: &Runs, kind: &str, size: f64) -> f64 {
    data.rows
        .iter()
        .find(|r| r.text("workload.collective.kind") == kind && r.num("workload.size") == size)
        .map_or(f64::NAN, completion)
}

fn crossover(data: &Runs) -> Result<Page> {
    let sizes: Vec<f64> = {
        let mut s: Vec<f64> = data.rows.iter().map(|r| r.num("workload.size")).collect();
        s.sort_by(f64::total_cmp);
        s.dedup();
        s
    };
    let (small, large) =
        (sizes.first().copied().unwrap_or(f64::NAN), sizes.last().copied().unwrap_or(f64::NAN));
    let (ring, doubling, raben) = ("allreduce-ring", "allreduce-doubling", "allreduce-rabenseifner");
    let page = Page {
        about: "The all-reduce among the 64 nodes of the hypercube (`netwrap sim hypercube --n 6 --collective KIND`), on the ideal switch, each step costing 20 cycles of software overhead (`--compute 20`, the α of Thakur et al.'s cost model; a flit a cycle is their β): the ring (126 steps of ⌈S/64⌉ flits), recursive doubling (6 steps of all S flits) and Rabenseifner's reduce-scatter by recursive halving and all-gather by recursive doubling (12 steps, 2S·63/64 flits in all), over the data per rank S. In their cost model doubling costs about 6(α + S) and Rabenseifner's 12α + 2S·63/64, so they cross where 6α = (6 − 2·63/64)·S: S ≈ 31 flits at α = 21 (the overhead and one hop).".into(),
        ..Page::default()
    };
    let crossing = sizes.windows(2).find(|w| {
        at(data, doubling, w[0]) < at(data, raben, w[0]) && at(data, doubling, w[1]) > at(data, raben, w[1])
    });
    // On the hypercube every partner of doubling and of Rabenseifner's is a neighbour over a
    // channel of its own: completion is the critical path's unloaded latency.
    let uncontended = data
        .rows
        .iter()
        .filter(|r| r.text("workload.collective.kind") != ring)
        .all(|r| r.collective.as_ref().and_then(|c| c.completion_ratio) == Some(1.0));
    let claims = vec![
        Claim::new(
            "recursive doubling is the algorithm for short messages: fewest steps",
            format!(
                "at {small} flits: doubling {}, Rabenseifner {}, ring {} cycles",
                at(data, doubling, small),
                at(data, raben, small),
                at(data, ring, small)
            ),
            at(data, doubling, small) < at(data, raben, small).min(at(data, ring, small)),
        ),
        Claim::new(
            "Rabenseifner's algorithm is the one for long messages: it sends 2S(p − 1)/p, doubling S·log p",
            format!(
                "at {large} flits: Rabenseifner {}, doubling {} cycles",
                at(data, raben, large),
                at(data, doubling, large)
            ),
            at(data, raben, large) < at(data, doubling, large),
        ),
        Claim::new(
            "the ring's bandwidth term equals Rabenseifner's, so it too beats doubling for long messages",
            format!(
                "at {large} flits: ring {}, doubling {} cycles",
                at(data, ring, large),
                at(data, doubling, large)
            ),
            at(data, ring, large) < at(data, doubling, large),
        ),
        Claim::new(
            "the cost model's crossover between doubling and Rabenseifner's: about 31 flits",
            match crossing {
                Some(w) => format!("doubling faster at {} flits, Rabenseifner's at {}", w[0], w[1]),
                None => "no crossing between the sizes run".into(),
            },
            crossing.is_some_and(|w| w[0] <= 31.0 && 31.0 <= w[1]),
        ),
        Claim::new(
            "on the hypercube, doubling and Rabenseifner's exchange with neighbours only: no contention, completion = the critical path's unloaded latency",
            format!("completion over the bound: 1 on every such run: {uncontended}"),
            uncontended,
        ),
    ];
    let rows = sizes
        .iter()
        .map(|&s| {
            vec![
                format!("{s}"),
                format!("{}", at(data, ring, s)),
                format!("{}", at(data, doubling, s)),
                format!("{}", at(data, raben, s)),
            ]
        })
        .collect();
    let notes = vec![Note::Table(TextTable::new(
        &[("S (flits)", true), ("ring", true), ("doubling", true), ("Rabenseifner", true)],
        rows,
    ))];
    Ok(Page { claims, notes, ..page })
}

fn alltoall(data: &Runs) -> Result<Page> {
    let page = Page {
        about: "The direct all-to-all (`--collective alltoall`, linear-shift schedule: in round k rank r sends its block of ⌈S/N⌉ flits to rank r + k and waits for the block from rank r − k before the next round) among every node of the bidirectional 8 × 8 and 16 × 16 tori, the 64-node butterfly fat-tree and the 72-node dragonfly (p = 2, a = 4, h = 2), each on its family's minimal routing on the ideal switch, over the data per rank S. The bisection bound: every balanced cut carries (N/2)² blocks each way, over the bisection's width (`netwrap topo`'s): no schedule on that network does better. Thakur et al. send long all-to-alls as a pairwise exchange, one block a step, whose time the data's bandwidth term dominates.".into(),
        ..Page::default()
    };
    let ratio = |r: &Row| {
        let c = r.collective.as_ref();
        completion(r) / c.and_then(|c| c.bisection_bound).unwrap_or(f64::NAN)
    };
    let networks: Vec<String> = {
        let mut n: Vec<String> = data.rows.iter().map(network).collect();
        n.dedup();
        n
    };
    let sizes: Vec<f64> = {
        let mut s: Vec<f64> = data.rows.iter().map(|r| r.num("workload.size")).collect();
        s.sort_by(f64::total_cmp);
        s.dedup();
        s
    };
    let (mid, large) = (sizes[sizes.len().saturating_sub(2)], sizes[sizes.len() - 1]);
    let row = |net: &str, s: f64| data.rows.iter().find(|r| network(r) == net && r.num("workload.size") == s);
    let least = data.rows.iter().map(ratio).fold(f64::INFINITY, f64::min);
    let growth: Vec<(String, f64)> = networks
        .iter()
        .map(|n| {
            (n.clone(), row(n, large).map_or(f64::NAN, completion) / row(n, mid).map_or(f64::NAN, completion))
        })
        .collect();
    let fat = networks.iter().find(|n| n.starts_with("fat-tree")).cloned().unwrap_or_default();
    let at_large: Vec<(String, f64)> =
        networks.iter().map(|n| (n.clone(), row(n, large).map_or(f64::NAN, ratio))).collect();
    let closest = at_large.iter().min_by(|a, b| a.1.total_cmp(&b.1)).map(|x| x.0.clone()).unwrap_or_default();
    let claims = vec![
        Claim::new(
            "no all-to-all beats the bisection bound",
            format!("completion over the bisection bound: at least {least:.3} over every network and size"),
            least >= 1.0,
        ),
        Claim::new(
            "the long all-to-all is bandwidth-bound: its time grows as the data (×4 data, ×4 time, within 10%)",
            growth.iter().map(|(n, g)| format!("{n}: ×{g:.3}")).collect::<Vec<_>>().join("; "),
            growth.iter().all(|(_, g)| (g - 4.0).abs() <= 0.4),
        ),
        Claim::new(
            "a network of full bisection (the fat-tree) comes closest to its bisection bound",
            format!(
                "at {large} flits: {}",
                at_large.iter().map(|(n, r)| format!("{n} {r:.3}")).collect::<Vec<_>>().join(", ")
            ),
            closest == fat,
        ),
    ];
    let rows = data
        .rows
        .iter()
        .map(|r| {
            let c = r.collective.as_ref();
            vec![
                network(r),
                format!("{}", r.num("workload.size")),
                format!("{}", completion(r)),
                format!("{:.0}", c.and_then(|c| c.bisection_bound).unwrap_or(f64::NAN)),
                format!("{:.0}", c.and_then(|c| c.channel_bound).unwrap_or(f64::NAN)),
                format!("{:.3}", ratio(r)),
            ]
        })
        .collect();
    let notes = vec![Note::Table(TextTable::new(
        &[
            ("network", false),
            ("S (flits)", true),
            ("completion", true),
            ("bisection bound", true),
            ("busiest channel", true),
            ("completion / bisection", true),
        ],
        rows,
    ))];
    Ok(Page { claims, notes, ..page })
}
