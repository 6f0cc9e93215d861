//! The per-channel model (`netwrap model network`) against simulation, netwrap's
//! "errors stated, not hidden": every family on a small instance, under uniform traffic,
//! transpose, bit-complement and a hot spot, on the ideal switch (Agarwal 1991 eqs. 3–8 on
//! every channel) and the virtual-channel router under wormhole and virtual cut-through
//! (Greenberg & Guan 1997 §2 on every link): up to which load the model stays within 10% of
//! the simulation, and which cases it refuses.
//!
//! Each case is a point of one of three experiment files (one per router); the page takes the
//! model's bandwidth bound of the case (where its busiest channel or link would carry one flit
//! a cycle unblocked) and runs the model and the simulation at fractions ρ of it. The model is
//! `netwrap model network`'s ([`crate::predict::network_at`]) and the runs are
//! [`crate::run_points`]' (through [`Ctx::run`]): nothing here computes either.

use super::{AccuracyRow, Claim, Ctx, Data, Item, Kind, Note, Page, Paper, TextTable, width};
use crate::error::{Error, Result};
use serde_json::Value;

pub fn items() -> Vec<Item> {
    vec![Item {
        id: "netwrap-model-accuracy",
        paper: Paper::Netwrap,
        title: "the per-channel model against simulation, per family, router and pattern",
        source: "crates/app/experiments/accuracy-ideal.toml, accuracy-wormhole.toml and accuracy-vct.toml, each case at fractions of its model's bandwidth bound, beside `netwrap model network` at the same rates",
        kind: Kind::Accuracy,
        data,
        page: |d| page(d.accuracy()?),
    }]
}

/// The experiment files, one per router, and the router's name in the data.
const FILES: [(&str, &str); 3] =
    [("accuracy-ideal", "ideal"), ("accuracy-wormhole", "wormhole"), ("accuracy-vct", "vct")];

/// The loads a full run takes, as fractions of each case's bandwidth bound.
const LOADS: [f64; 9] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/// The loads a quick run takes.
const QUICK_LOADS: [f64; 2] = [0.3, 0.6];

/// The model's stated error: Greenberg & Guan 1997 state their model within 10% of their
/// simulations, and the per-channel model shares its approximations (Poisson arrivals, one
/// server a channel, FCFS); a point holds where the model is within this fraction of the
/// simulated latency plus the simulation's 95% half-width.
const STATED: f64 = 0.10;

/// A run's cycle limit, in multiples of the cycles its measured messages take to be created
/// (the warm-up, at most a tenth of the limit, included): a network that carries the load
/// delivers them in little more; one that does not settle within it (saturated, or still
/// filling) ends its case's range.
const RUN_BUDGET: f64 = 4.0;

/// The load the statements name.
const CLAIMED: f64 = 0.6;

fn data(ctx: &mut Ctx) -> Result<Data> {
    let loads: &[f64] = if ctx.quick() { &QUICK_LOADS } else { &LOADS };
    let mut rows = Vec::new();
    for (file, router) in FILES {
        let sweep = ctx.sweep(file)?;
        let mut points = Vec::new();
        // Each case's rows, in the file's order: a refused case's one, or its loads' (filled in
        // after the runs; `modelled` holds each point's case and row).
        let mut slots: Vec<Vec<AccuracyRow>> = Vec::new();
        let mut modelled = Vec::new();
        for case in sweep.points()? {
            slots.push(Vec::new());
            let slot = slots.len() - 1;
            let (network, routing, pattern) = labels(&case.params);
            let row = AccuracyRow {
                network,
                routing,
                pattern,
                router: router.to_string(),
                rho: None,
                rate: None,
                latency: None,
                latency_ci95: None,
                verdict: None,
                model_latency: None,
                model_saturation: None,
                refused: String::new(),
            };
            let bound = match crate::predict::network_at(&case.job.sim, None) {
                Ok(curve) => {
                    let p = &curve.points[0];
                    p.vc.as_ref().map_or(p.prediction.max_rate, |d| d.bandwidth_rate)
                }
                Err(Error::Spec(e)) => {
                    let why = e.message.strip_prefix("model network: ").unwrap_or(&e.message).to_string();
                    slots[slot].push(AccuracyRow { refused: why, ..row });
                    continue;
                }
                Err(e) => return Err(e),
            };
            let rates: Vec<f64> = loads.iter().map(|rho| rho * bound).collect();
            let curve = crate::predict::network_at(&case.job.sim, Some(&rates))?;
            for ((&rho, &rate), m) in loads.iter().zip(&rates).zip(&curve.points) {
                let mut point = case.clone();
                point.index = points.len() as u64;
                point.job.sim = point.job.sim.with_rate(rate);
                let run = &mut point.job.sim.run;
                if ctx.quick() {
                    super::quicken(run);
                }
                // A run has RUN_BUDGET times the cycles its messages take to be created.
                let creation = run.messages as f64 / (f64::from(m.network.nodes) * rate);
                run.max_cycles = (RUN_BUDGET * creation).ceil() as u64;
                points.push(point);
                modelled.push((
                    slot,
                    AccuracyRow {
                        rho: Some(rho),
                        rate: Some(rate),
                        model_latency: m.prediction.latency,
                        model_saturation: Some(m.prediction.max_rate / bound),
                        ..row.clone()
                    },
                ));
            }
        }
        for ((_, s), (slot, row)) in ctx.run(file, points)?.into_iter().zip(modelled) {
            let r = &s.result.report;
            let verdict = serde_json::to_value(r.verdict).ok().and_then(|v| v.as_str().map(str::to_string));
            slots[slot].push(AccuracyRow {
                latency: r.latency,
                latency_ci95: r.latency_ci95,
                verdict,
                ..row
            });
        }
        rows.extend(slots.into_iter().flatten());
    }
    Ok(Data::Accuracy(rows))
}

/// A case's network, routing and pattern from its swept values.
fn labels(params: &[(String, Value)]) -> (String, String, String) {
    let get = |key: &str| params.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let network = get("topology").map(crate::sweep::value_name).unwrap_or_default();
    let routing = get("routing.algorithm").and_then(Value::as_str).unwrap_or("family").to_string();
    let pattern = get("workload")
        .and_then(|w| w.get("pattern"))
        .and_then(Value::as_str)
        .unwrap_or("uniform")
        .to_string();
    (network, routing, pattern)
}

/// Whether the model holds at a point: the run settled, the model has a latency, and
/// |model − simulation| ≤ 10% of the simulation + its 95% half-width.
fn holds(r: &AccuracyRow) -> bool {
    match (r.latency, r.model_latency, r.verdict.as_deref()) {
        (Some(sim), Some(model), Some("ok")) => {
            (model - sim).abs() <= STATED * sim + width(r.latency_ci95.unwrap_or(f64::NAN))
        }
        _ => false,
    }
}

/// One case: its rows, by load.
#[derive(Clone, Debug)]
struct Case<'a> {
    network: &'a str,
    routing: &'a str,
    pattern: &'a str,
    router: &'a str,
    rows: Vec<&'a AccuracyRow>,
}

impl Case<'_> {
    fn refused(&self) -> Option<&str> {
        self.rows.first().map(|r| r.refused.as_str()).filter(|r| !r.is_empty())
    }

    /// The highest load up to which every point holds (0 where the first does not), and the
    /// first point that does not hold.
    fn holds_to(&self) -> (f64, Option<&AccuracyRow>) {
        let mut to = 0.0;
        for r in &self.rows {
            if !holds(r) {
                return (to, Some(r));
            }
            to = r.rho.unwrap_or(f64::NAN);
        }
        (to, None)
    }

    /// Whether the model holds at every load up to `rho` (a refused case does not).
    fn holds_up_to(&self, rho: f64) -> bool {
        self.refused().is_none() && self.holds_to().0 >= rho - 1e-9
    }

    fn name(&self) -> String {
        let routing = if self.routing == "family" { String::new() } else { format!(", {}", self.routing) };
        format!("{}{routing}, {}", self.network, self.pattern)
    }

    /// The table's cell: up to which load the model holds, and what fails next.
    fn cell(&self) -> String {
        if let Some(why) = self.refused() {
            return format!("refused: {}", short(why));
        }
        let (to, next) = self.holds_to();
        let after = next.map(|r| {
            let what = match (r.latency, r.model_latency, r.verdict.as_deref()) {
                (Some(s), Some(m), Some("ok")) => super::pct(m, s),
                (_, _, Some("ok")) => "model saturated".to_string(),
                (_, _, Some(v)) => format!("run {}", v.replace('-', " ")),
                (_, _, None) => "no run".to_string(),
            };
            format!(" ({}: {what})", super::fmt(r.rho.unwrap_or(f64::NAN), 1))
        });
        let after = after.unwrap_or_default();
        if to == 0.0 { format!("never{after}") } else { format!("≤ {to:.1}{after}") }
    }
}

/// A refusal in a few words (the full reasons are listed below the table).
fn short(why: &str) -> &'static str {
    if why.contains("chosen by queue state") {
        "next hops chosen by queue state"
    } else if why.contains("adaptive paths") {
        "adaptive paths"
    } else if why.contains("more than one set of next hops") {
        "next-hop sets overlap"
    } else {
        "see below"
    }
}

/// The data's cases, in order.
fn cases(data: &[AccuracyRow]) -> Vec<Case<'_>> {
    let mut out: Vec<Case> = Vec::new();
    for r in data {
        let same = |c: &Case| {
            c.network == r.network && c.routing == r.routing && c.pattern == r.pattern && c.router == r.router
        };
        match out.iter_mut().find(|c| same(c)) {
            Some(c) => c.rows.push(r),
            None => out.push(Case {
                network: &r.network,
                routing: &r.routing,
                pattern: &r.pattern,
                router: &r.router,
                rows: vec![r],
            }),
        }
    }
    for c in &mut out {
        c.rows.sort_by(|a, b| a.rho.unwrap_or(0.0).total_cmp(&b.rho.unwrap_or(0.0)));
    }
    out
}

/// The families that hold to ρ = 0.6 under `router` and uniform traffic, those that do not
/// (with the case's cell), and those refused.
fn uniform_verdicts(
    all: &[Case],
    router: &str,
    families: &[&str],
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (mut hold, mut fail, mut refused) = (Vec::new(), Vec::new(), Vec::new());
    for c in all.iter().filter(|c| c.router == router && c.pattern == "uniform" && c.routing != "ugal-local")
    {
        if !families.iter().any(|f| c.network.starts_with(f)) {
            continue;
        }
        if c.refused().is_some() {
            refused.push(c.network.to_string());
        } else if c.holds_up_to(CLAIMED) {
            hold.push(c.network.to_string());
        } else {
            fail.push(format!("{} {}", c.network, c.cell()));
        }
    }
    (hold, fail, refused)
}

/// The families on which the ideal switch's model does not hold to ρ = 0.6 under uniform
/// traffic, as the full run (`netwrap reproduce netwrap-model-accuracy`) finds: the 6-cube
/// (11.5% low at ρ = 0.5), and at the edge the bidirectional torus (11.5% low at ρ = 0.6,
/// within 10% + the interval in the full run; a quick run's shorter runs give no interval
/// there and fall outside). A check fails if another family joins them.
const IDEAL_UNIFORM_FAILS: [&str; 2] = ["hypercube", "torus k=8 n=2 bidirectional"];
/// The families whose ideal switch's model is refused under uniform traffic: their routing
/// chooses among next hops by queue state (the fat-tree's up-links, HyperX's dimensions).
const IDEAL_UNIFORM_REFUSED: [&str; 2] = ["fat-tree", "hyperx"];

fn page(data: &[AccuracyRow]) -> Result<Page> {
    let all = cases(data);
    let about = format!(
        "How far to trust `netwrap model network`: on small instances of every family (the 8-ary 2-cube, one-way and both ways, the 8 × 8 mesh, the 64-node Midimew with Puente et al.'s routing record, the 6-cube, the 64-node 4-ary butterfly, the 64-node butterfly fat-tree, the 72-node dragonfly with minimal routing and with UGAL-local, the 4-ary 3-tree, the 4 × 4 HyperX of 4 terminals a router), under uniform traffic, transpose, bit-complement and a hot spot (a tenth of the messages to node 0) where the family takes the pattern, on the ideal switch (4-flit messages; the model is Agarwal 1991 eqs. 3–8 on every channel) and on the virtual-channel router (2 VCs, 16-flit messages; wormhole with 16-flit VCs, virtual cut-through with 32; tori with a dateline; the model is Greenberg & Guan 1997 §2 on every link). Each case runs at fractions ρ of the model's bandwidth bound (the rate at which its busiest channel or link would carry one flit a cycle unblocked): {} with 40,000 measured messages a point (a quick run: 0.3 and 0.6 only, 10,000 messages a point), seed 1. A point **holds** where |model − simulation| ≤ {:.0}% of the simulated latency + the simulation's 95% half-width (Greenberg & Guan 1997 state their model within 10% of simulation; the per-channel model shares its approximations); the table gives, per case, the highest ρ up to which every point holds, and what the next point shows (the model's error, or which side saturated). This is a *characterisation*: it measures the models, it does not verify them (the verifications are the models' tests). The CSV holds every point: the rate, the simulated latency and its half-width, the model's latency and its own saturation (as a fraction of the bound).",
        LOADS.iter().map(|l| format!("{l}")).collect::<Vec<_>>().join(", "),
        STATED * 100.0
    );
    // The table: a case per network, routing and pattern; a column per router.
    let mut keys: Vec<(&str, &str, &str)> = Vec::new();
    for c in &all {
        if !keys.contains(&(c.network, c.routing, c.pattern)) {
            keys.push((c.network, c.routing, c.pattern));
        }
    }
    let cell = |k: &(&str, &str, &str), router: &str| {
        all.iter()
            .find(|c| (c.network, c.routing, c.pattern) == *k && c.router == router)
            .map_or("—".to_string(), Case::cell)
    };
    let rows = keys
        .iter()
        .map(|k| {
            vec![
                k.0.to_string(),
                k.1.to_string(),
                k.2.to_string(),
                cell(k, "ideal"),
                cell(k, "wormhole"),
                cell(k, "vct"),
            ]
        })
        .collect();
    let table = TextTable::new(
        &[
            ("network", false),
            ("routing", false),
            ("pattern", false),
            ("ideal switch", false),
            ("VC, wormhole", false),
            ("VC, cut-through", false),
        ],
        rows,
    );
    let mut reasons: Vec<(String, Vec<String>)> = Vec::new();
    for c in &all {
        if let Some(why) = c.refused() {
            let case = format!("{} ({})", c.name(), c.router);
            match reasons.iter_mut().find(|(w, _)| w == why) {
                Some((_, cs)) => cs.push(case),
                None => reasons.push((why.to_string(), vec![case])),
            }
        }
    }
    let refusals = TextTable::new(
        &[("the model refuses", false), ("cases", false)],
        reasons.iter().map(|(w, cs)| vec![w.clone(), cs.join("; ")]).collect(),
    );

    // The statements, checked.
    let every = [
        "torus k=8 n=2",
        "mesh",
        "midimew",
        "hypercube",
        "butterfly",
        "fat-tree",
        "dragonfly",
        "kary-ntree",
        "hyperx",
    ];
    let (hold, fail, refused) = uniform_verdicts(&all, "ideal", &every);
    let documented =
        |list: &[String], known: &[&str]| list.iter().all(|n| known.iter().any(|k| n.starts_with(k)));
    let ideal = if fail.is_empty() && refused.is_empty() {
        Claim::new(
            "netwrap's aim: within 10% of simulation up to ρ = 0.6 on the ideal switch for every family under uniform traffic",
            format!("holds on all of {}", hold.join(", ")),
            true,
        )
    } else {
        Claim::differs(
            "netwrap's aim: within 10% of simulation up to ρ = 0.6 on the ideal switch for every family under uniform traffic",
            format!(
                "holds on {}; does not hold on {}; refused on {} (next hops chosen by queue state: the flows depend on the load)",
                list(&hold),
                list(&fail),
                list(&refused)
            ),
            documented(&fail, &IDEAL_UNIFORM_FAILS)
                && documented(&refused, &IDEAL_UNIFORM_REFUSED)
                && refused.len() == IDEAL_UNIFORM_REFUSED.len(),
        )
    };
    let vc_families = ["torus", "mesh", "fat-tree"];
    let (wh_hold, wh_fail, wh_refused) = uniform_verdicts(&all, "wormhole", &vc_families);
    let (ct_hold, ct_fail, ct_refused) = uniform_verdicts(&all, "vct", &vc_families);
    let vc_all = [&wh_fail, &ct_fail, &wh_refused, &ct_refused].iter().all(|l| l.is_empty());
    let vc_text = format!(
        "wormhole: holds on {}, not on {}; cut-through: holds on {}, not on {}",
        list(&wh_hold),
        list(&wh_fail),
        list(&ct_hold),
        list(&ct_fail)
    );
    let vc = if vc_all {
        Claim::new(
            "netwrap's aim: within 10% up to ρ = 0.6 on the VC router for tori, meshes and fat-trees under uniform traffic",
            vc_text,
            true,
        )
    } else {
        Claim::differs(
            "netwrap's aim: within 10% up to ρ = 0.6 on the VC router for tori, meshes and fat-trees under uniform traffic",
            vc_text,
            // As documented: the VC router's model holds to ρ = 0.6 on none of them, under
            // either switching (a model that came to hold on one fails this check, for the
            // page to say so).
            wh_refused.is_empty() && ct_refused.is_empty() && wh_hold.is_empty() && ct_hold.is_empty(),
        )
    };
    // What the model refuses is what it cannot know before a run: how an adaptive routing
    // splits its messages.
    let unexplained: Vec<String> =
        all.iter().filter(|c| c.refused().is_some_and(|w| short(w) == "see below")).map(Case::name).collect();
    let adaptive = all.iter().filter(|c| c.routing == "ugal-local").all(|c| c.refused().is_some());
    let covers = Claim::new(
        "netwrap's aim: the cases the model does not cover (adaptive routing whose path mix depends on load) are named",
        format!(
            "{} of {} cases refused, each for a routing that chooses by queue state or offers overlapping sets of next hops{}; UGAL refused on every router: {adaptive}",
            all.iter().filter(|c| c.refused().is_some()).count(),
            all.len(),
            if unexplained.is_empty() {
                String::new()
            } else {
                format!(" (not: {})", unexplained.join(", "))
            }
        ),
        unexplained.is_empty() && adaptive,
    );
    // At the lightest load every modelled case of the ideal switch holds: contention is small
    // there and the model's unloaded latency is the switch's exactly (a test verifies it).
    let lightest = all
        .iter()
        .filter(|c| c.router == "ideal" && c.refused().is_none())
        .filter(|c| !c.rows.first().is_some_and(|r| holds(r)))
        .map(Case::name)
        .collect::<Vec<_>>();
    let light = Claim::new(
        "the ideal switch's model is within 10% at the lightest load run on every case it models (its zero-load latency is the switch's exactly: `zero_load_is_the_ideal_switchs_unloaded_latency`)",
        if lightest.is_empty() {
            "every case".to_string()
        } else {
            format!("not on {}", lightest.join("; "))
        },
        lightest.is_empty(),
    );
    let notes = vec![
        Note::Text(
            "**Where netwrap's aims do not hold** (the first two checks above; they check that what does not hold is what this note says, so that a change shows). On the ideal switch under uniform traffic the per-channel model holds to ρ = 0.6 on every family it models but the 6-cube, where it is 11.5% low at ρ = 0.5 (and the bidirectional torus, at the edge at ρ = 0.6: 11.5% low, inside 10% plus the interval in the full run, outside it in a quick run's shorter runs); it refuses the fat-tree and the HyperX, whose routings choose among next hops by queue state, so that the flows that would feed it depend on the load. On the VC router it holds to ρ = 0.6 on none of the tori, the mesh and the fat-tree under either switching: the model makes each physical channel one server whatever its virtual channels, so under wormhole it runs high or saturates early on the direct networks (and runs low on the two-VC fat-tree), and under cut-through it frees every channel behind a blocked packet and runs low.\n"
                .into(),
        ),
        Note::Text(
            "**Up to which load the model holds** (ρ, a fraction of the model's bandwidth bound; in brackets the next load run and what it shows: the model's error (model − simulation)/simulation, or which side saturated):\n"
                .into(),
        ),
        Note::Table(table),
        Note::Text(
            "**What the model refuses**, with the reason `netwrap model network` gives (status 2, naming the option): a routing whose split over paths follows queue state cannot have its flows known before a run, and the model is not drawn with an even split that would look exact where it is not.\n"
                .into(),
        ),
        Note::Table(refusals),
        Note::Text(format!(
            "**Which way it errs**, where a case's range ends on the model's error or its saturation (counted from the table): {}. The ideal switch's model is Agarwal's queue on every channel with the exact flows, low where it fails because its slotted arrivals do not see a terminal's own messages queueing behind each other ([models.md](../models.md)). The VC router's model makes a physical channel one server that a blocked worm holds: under wormhole the chains of holds compound (around the tori's rings, over the trees' many up-links) and it saturates early or runs high, where the router's second VC lets a worm pass one blocked on its channel; under cut-through it frees every channel behind a blocked packet while the router holds its buffer, and runs low. A point whose run does not settle (saturated, or still filling within {RUN_BUDGET} times the cycles its messages take to be created) ends the case's range whatever the model says.",
            ["ideal", "wormhole", "vct"].map(|r| errs(&all, r)).join("; ")
        )),
    ];
    Ok(Page { about, claims: vec![ideal, vc, covers, light], notes })
}

/// How the cases of `router` whose range ends on the model end: low, high or saturated.
fn errs(all: &[Case], router: &str) -> String {
    let (mut low, mut high, mut saturated) = (0, 0, 0);
    for c in all.iter().filter(|c| c.router == router && c.refused().is_none()) {
        let Some(r) = c.holds_to().1 else { continue };
        match (r.latency, r.model_latency, r.verdict.as_deref()) {
            (Some(s), Some(m), Some("ok")) if m < s => low += 1,
            (Some(_), Some(_), Some("ok")) => high += 1,
            (_, None, Some("ok")) => saturated += 1,
            _ => {}
        }
    }
    let name = match router {
        "ideal" => "ideal switch",
        "wormhole" => "wormhole",
        _ => "cut-through",
    };
    format!("{name}: {low} low, {high} high, {saturated} saturated in the model first")
}

/// "a, b and c", or "none".
fn list(items: &[String]) -> String {
    match items {
        [] => "none".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
