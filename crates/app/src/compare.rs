//! The analytical model of a simulated network at the simulated point ([`ModelComparison`]),
//! where one applies ([`model_for`]: the one rule for which).
//!
//! The papers' models come first where they apply (they are the published ones): Agarwal
//! 1991's k-ary n-cube (and the homework's App. D for processors that wait), the indirect
//! network (Kruskal & Snir) and Greenberg & Guan's fat-tree. Anywhere else the per-channel model
//! of `netwrap model network` compares, where it applies (the ideal switch's queues, or the
//! VC router's Greenberg & Guan 1997 §2 on every link; an open workload at a known rate, one
//! message length, flows known before the run).

use crate::error::{Error, Result, spec_error};
use crate::predict::{NetworkModel, Refusal, network_model_of, network_refusal};
use crate::spec::ModelSpec;
use netwrap_model::kary_ncube::{self, ContentionForm, Wiring};
use netwrap_model::network::wormhole::Holding;
use netwrap_model::{fat_tree, feedback, indirect};
use netwrap_sim::report::Report;
use netwrap_sim::{Destinations, Experiment, Resolved, Source, Switching};
use netwrap_topo::TopologySpec;
use serde::Serialize;

/// A model's prediction beside the simulation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelComparison {
    /// `kary-ncube`, `feedback`, `indirect`, `fat-tree` or `network`, as `netwrap model`
    /// names them.
    pub model: &'static str,
    /// The equations, in words.
    pub source: String,
    /// The contention form used (k-ary n-cube model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionForm>,
    /// Channel utilisation ρ (the per-channel model: the mean over every channel, as the
    /// simulation's).
    pub utilization: f64,
    /// Latency T; `None` when saturated.
    pub latency: Option<f64>,
    /// Unloaded latency.
    pub unloaded_latency: f64,
    /// Accepted messages per terminal per cycle.
    pub throughput: f64,
    /// Highest sustainable rate.
    pub max_rate: f64,
    /// Mean hops.
    pub mean_hops: f64,
    /// True when ρ ≥ 1.
    pub saturated: bool,
    /// (simulation − model) / model.
    pub relative_error: RelativeError,
    /// Processor utilisation U (the feedback model, for processors that wait).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub processor_utilization: Option<f64>,
}

/// Relative errors of the simulation against the model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RelativeError {
    /// Of the channel utilisation.
    pub utilization: Option<f64>,
    /// Of the latency (both must exist).
    pub latency: Option<f64>,
    /// Of the mean hops.
    pub mean_hops: Option<f64>,
    /// Of the processor utilisation (processors that wait).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub processor_utilization: Option<f64>,
}

fn rel(sim: Option<f64>, model: Option<f64>) -> Option<f64> {
    match (sim, model) {
        (Some(s), Some(m)) if m != 0.0 => Some((s - m) / m),
        _ => None,
    }
}

/// The model a simulation is compared with ([`model_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// Agarwal 1991 eq. 10 (or, for processors that wait, the homework's App. D).
    KaryNCube,
    /// Agarwal 1991 eqs. 13–14 (Kruskal & Snir).
    Indirect,
    /// Greenberg & Guan's eqs. 1–26.
    FatTree,
    /// A queue on every channel (`netwrap model network`), where no paper's model applies.
    Network,
}

/// Which model `spec`'s simulation is compared with: a paper's where one applies, else the
/// per-channel model (`netwrap model network`) where it applies, else an error naming both
/// reasons (the field `model`, and the one the per-channel model refuses). What only the
/// built network tells (a routing that chooses by queue state, flows too many to route) is
/// found by [`predict`].
pub fn model_for(spec: &Resolved) -> Result<Chosen> {
    let Some(paper) = paper_unavailable(spec) else {
        return Ok(match &spec.topology {
            TopologySpec::Butterfly { .. } | TopologySpec::Omega { .. } => Chosen::Indirect,
            TopologySpec::FatTree { .. } => Chosen::FatTree,
            _ => Chosen::KaryNCube,
        });
    };
    match network_refusal(spec) {
        None => Ok(Chosen::Network),
        Some(r) => Err(neither(&paper, &r)),
    }
}

/// The error when neither a paper's model nor the per-channel one applies.
fn neither(paper: &str, network: &Refusal) -> Error {
    let mut also = vec![network.path];
    also.extend(network.also);
    spec_error(
        "model",
        &also,
        format!(
            "model: {paper}; and the per-channel model (`netwrap model network`) does not apply either: {}",
            network.why
        ),
    )
}

/// Why no paper's model applies to `spec`'s network, router and workload, or `None` when one
/// does.
///
/// The papers' models are for uniform traffic (the k-ary n-cube's also for its locality
/// subcube) routed minimally (dimension order), with one processor per router.
/// Greenberg & Guan's fat-tree model describes wormhole routers that send a message as one
/// worm, so it applies to `--router vc --switching wormhole` with packets at least as long as
/// the longest message, and to nothing else.
fn paper_unavailable(spec: &Resolved) -> Option<String> {
    match &spec.workload.destinations {
        Destinations::Uniform | Destinations::UniformOthers | Destinations::Locality(_) => {}
        d => {
            let name: &'static str = d.kind().into();
            return Some(format!(
                "the papers' models (Agarwal 1991, Kruskal & Snir, Greenberg & Guan) are for uniform traffic, not --pattern {name}"
            ));
        }
    }
    if spec.routing.paths().choice != netwrap_topo::paths::PathChoice::Minimal {
        return Some(
            "the papers' models (Agarwal 1991, Kruskal & Snir, Greenberg & Guan) route every message minimally".into(),
        );
    }
    if let TopologySpec::Butterfly { stages: Some(d), .. } | TopologySpec::Omega { stages: Some(d), .. } =
        &spec.topology
        && *d < 2
    {
        return Some("the indirect model (Agarwal 1991 eqs. 13-14) needs inter-stage channels, which a one-stage network has none of".into());
    }
    if let Source::Trace(_) = spec.workload.source {
        return Some(
            "the models predict a rate and a destination pattern, and a trace replays its own messages"
                .into(),
        );
    }
    if let Source::Collective(_) = spec.workload.source {
        return Some(
            "the models predict a rate and a destination pattern, and a collective sends its own messages"
                .into(),
        );
    }
    if let Source::Open { interval: netwrap_engine::params::Interval::OnOff, .. } = spec.workload.source {
        return Some(
            "the papers' models (Agarwal 1991, Kruskal & Snir, Greenberg & Guan) take independent (Bernoulli) arrivals, and an on/off source sends in bursts"
                .into(),
        );
    }
    if spec.replies() {
        return Some(
            "netwrap's models carry no replies: the request network's model applies with --reply-size 0 (the memory answers without a message)".into(),
        );
    }
    if spec.closed_loop() && !spec.topology.is_cube() {
        return Some(format!(
            "processors that wait are modelled for k-ary n-cubes (the homework's App. D), not for a {}",
            spec.topology.family()
        ));
    }
    match &spec.topology {
        TopologySpec::Torus { radices: Some(_), .. } | TopologySpec::Mesh { radices: Some(_), .. } => Some(
            "the k-ary n-cube model (Agarwal 1991) needs the same radix in every dimension".into(),
        ),
        TopologySpec::Torus { concentration: Some(p), .. } | TopologySpec::Mesh { concentration: Some(p), .. }
            if *p > 1 =>
        {
            Some(format!(
                "the k-ary n-cube model (Agarwal 1991) has one processor per router, not {p}"
            ))
        }
        t if t.is_cube() => None,
        TopologySpec::Butterfly { .. } | TopologySpec::Omega { .. } => None,
        TopologySpec::FatTree { .. } => match spec.router.vc() {
            None => Some(
                "Greenberg & Guan's fat-tree model is for wormhole routers, which the ideal switch is not: use --router vc --switching wormhole, or see `netwrap model fat-tree`".into(),
            ),
            Some(p) if p.switching != Switching::Wormhole => Some(
                "Greenberg & Guan's fat-tree model is for wormhole routers: use --switching wormhole".into(),
            ),
            Some(p) if p.packet < longest_message(spec) => Some(format!(
                "Greenberg & Guan's fat-tree model sends each message as one worm: use --packet {} (at least the longest message)",
                longest_message(spec)
            )),
            Some(_) => None,
        },
        t => Some(format!(
            "the papers' models are for k-ary n-cubes (Agarwal 1991), butterfly and Omega networks (Kruskal & Snir) and butterfly fat-trees (Greenberg & Guan), not for a {}",
            t.family()
        )),
    }
}

/// The model of `spec`'s network at the point to simulate, on `experiment` (built for it, or
/// for a point that shares its [`netwrap_sim::BuildKey`]: its effective locality, its turn
/// flows), before the run; [`Predicted::against`] compares it with the run's report. The
/// model is [`model_for`]'s.
///
/// k-ary n-cubes: Agarwal 1991 eq. 10 with the contention form asked for (`auto`: the
/// homework's App. B rule, as `netwrap model kary-ncube` applies it; the prediction records
/// the form used). Butterflies and Omega networks: the indirect
/// model (Agarwal 1991 eqs. 13–14, the homework's App. C) with n = D − 1 stages of contention
/// and delay: netwrap's D-stage network has D − 1 inter-stage channels, and the processor and
/// memory links are terminal ports without delay or queueing in the ideal switch. Butterfly
/// fat-trees (with `--router vc --switching wormhole`, one packet a message): Greenberg &
/// Guan's eqs. 1–26 with the default readings of `netwrap model fat-tree`; its utilisation
/// is the injection channel's λ0·x̄_{0,1} (1 at eq. 26's saturation, so no relative error
/// against the simulation's mean channel utilisation), and its mean distance D̄ counts the
/// injection and ejection links, so D̄ − 2 is compared with the simulated hops. Anything
/// else: the per-channel model (`netwrap model network`, [`crate::predict::network_model_of`]:
/// the ideal switch's queues, or with `--router vc` Greenberg & Guan 1997 §2 on every link) at
/// the point's rate, from the experiment's turn flows (computed once per experiment); its
/// utilisation is the mean over every channel, as the simulation's.
pub fn predict(spec: &Resolved, model_spec: &ModelSpec, experiment: &Experiment) -> Result<Predicted> {
    let chosen = model_for(spec)?;
    let w = &spec.workload;
    let (rate, size) = (spec.rate(), w.size.mean());
    let model_error = |e: netwrap_model::ModelError| Error::Invalid(format!("model: {e}"));
    let mut processor_utilization = None;
    let (model, source, contention, p) = match &spec.topology {
        _ if chosen == Chosen::Network => {
            let (model, _) = network_model_of(spec, experiment)?.map_err(|r| {
                let paper = paper_unavailable(spec).unwrap_or_default();
                neither(&paper, &r)
            })?;
            let (p, source) = match model {
                NetworkModel::Ideal(queues) => (
                    queues.predict(rate).map_err(model_error)?,
                    "Agarwal 1991 eqs. 3-8 generalised: a queue on every channel".to_string(),
                ),
                NetworkModel::Vc(links) => {
                    let switching = match links.holding {
                        Holding::Wormhole => "wormhole",
                        Holding::CutThrough => "virtual cut-through",
                    };
                    (
                        links.predict(rate).map_err(model_error)?.network,
                        format!("Greenberg & Guan 1997 eqs. 1-11 on every channel: VC router, {switching}"),
                    )
                }
            };
            let values =
                (p.utilization, p.latency, p.unloaded_latency, p.throughput, p.max_rate, p.mean_hops);
            ("network", source, None, values)
        }
        TopologySpec::Butterfly { k, stages, .. } | TopologySpec::Omega { k, stages, .. } => {
            let (k, d) = (k.unwrap_or(2), stages.unwrap_or(4));
            let p = indirect::predict(&indirect::Indirect { k, n: d - 1, rate, size, memory_latency: 0.0 })
                .map_err(model_error)?;
            let values =
                (p.utilization, p.latency, p.unloaded_latency, p.throughput, p.max_rate, p.mean_hops);
            (
                "indirect",
                format!("Agarwal 1991 eqs. 13-14 (Kruskal & Snir), n = {} stages of contention", d - 1),
                None,
                values,
            )
        }
        TopologySpec::FatTree { nodes } => {
            let p = fat_tree::predict(&fat_tree::FatTree::new(u64::from(nodes.unwrap_or(64)), rate, size))
                .map_err(model_error)?;
            // The model's D̄ counts the injection and ejection links; the simulator's hops are
            // the channels between switches, two fewer on every route.
            let values =
                (p.utilization, p.latency, p.unloaded_latency, p.throughput, p.max_rate, p.mean_hops - 2.0);
            (
                "fat-tree",
                "Greenberg & Guan eqs. 1-26 (M/G/2 fed both links' rate; eq. 22 with P↑ as printed)".into(),
                None,
                values,
            )
        }
        t => {
            let (k, n, wiring) = match t {
                TopologySpec::Torus { k, n, bidirectional, .. } => (
                    k.unwrap_or(8),
                    n.unwrap_or(2),
                    if *bidirectional { Wiring::BidirectionalTorus } else { Wiring::UnidirectionalTorus },
                ),
                TopologySpec::Ring { k, bidirectional } => (
                    k.unwrap_or(8),
                    1,
                    if *bidirectional { Wiring::BidirectionalTorus } else { Wiring::UnidirectionalTorus },
                ),
                TopologySpec::Mesh { k, n, .. } => (k.unwrap_or(8), n.unwrap_or(2), Wiring::Mesh),
                TopologySpec::Hypercube { n, .. } => (2, n.unwrap_or(6), Wiring::Mesh),
                _ => unreachable!("model_for covers the other families"),
            };
            let params = kary_ncube::KaryNCube {
                locality: experiment.effective_locality(),
                wiring,
                form: model_spec.contention,
                memory_latency: w.reply.map_or(0.0, |r| r.memory_latency as f64),
                ..kary_ncube::KaryNCube::new(k, n, rate, size)
            };
            if let Source::Threads { threads, .. } = w.source {
                let p = feedback::solve_threads(&params, feedback::Solution::Exact, threads)
                    .map_err(model_error)?;
                let form =
                    format!("{} ({})", p.contention_form, p.contention_form.formula().unwrap_or_default());
                processor_utilization = Some(p.processor_utilization);
                let values = (
                    p.utilization,
                    Some(p.latency),
                    p.unloaded_latency,
                    p.throughput,
                    p.max_rate,
                    p.mean_hops,
                );
                let source = if threads == 1 {
                    format!("the homework's App. D (exact fixed point) with Agarwal 1991 eq. 10 and {form}")
                } else {
                    format!(
                        "App. D for {threads} threads (docs/models.md) with Agarwal 1991 eq. 10 and {form}"
                    )
                };
                ("feedback", source, Some(p.contention_form), values)
            } else {
                let p = kary_ncube::predict(&params).map_err(model_error)?;
                let form =
                    format!("{} ({})", p.contention_form, p.contention_form.formula().unwrap_or_default());
                let values =
                    (p.utilization, p.latency, p.unloaded_latency, p.throughput, p.max_rate, p.mean_hops);
                ("kary-ncube", format!("Agarwal 1991 eq. 10 with {form}"), Some(p.contention_form), values)
            }
        }
    };
    let (utilization, latency, unloaded_latency, throughput, max_rate, mean_hops) = p;
    Ok(Predicted {
        comparison: ModelComparison {
            model,
            source,
            contention,
            utilization,
            latency,
            unloaded_latency,
            throughput,
            max_rate,
            mean_hops,
            // Every model's saturated is ρ ≥ 1, where it gives no latency.
            saturated: latency.is_none(),
            relative_error: RelativeError {
                utilization: None,
                latency: None,
                mean_hops: None,
                processor_utilization: None,
            },
            processor_utilization,
        },
    })
}

/// A model's prediction at a point, made before the run ([`predict`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Predicted {
    /// The comparison without its relative errors.
    comparison: ModelComparison,
}

impl Predicted {
    /// The model's name, as `netwrap model` names it.
    pub fn model(&self) -> &'static str {
        self.comparison.model
    }

    /// The equations, in words.
    pub fn source(&self) -> &str {
        &self.comparison.source
    }

    /// The highest rate the model sustains (its busiest channel at ρ = 1).
    pub fn max_rate(&self) -> f64 {
        self.comparison.max_rate
    }

    /// The prediction compared with the run's `report`.
    pub fn against(self, report: &Report) -> ModelComparison {
        let mut c = self.comparison;
        // A processor that waits is compared by its accesses: its round trip is App. D's T.
        let sim_latency = match (&report.accesses, c.processor_utilization) {
            (Some(a), Some(_)) if report.latency.is_some() => Some(a.round_trip),
            _ => report.latency,
        };
        c.relative_error = RelativeError {
            // The fat-tree model's utilisation is its injection channel's λ0·x̄_{0,1}, not a
            // mean over channels as the simulation's is: nothing to compare.
            utilization: (c.model != "fat-tree")
                .then(|| rel(Some(report.utilization), Some(c.utilization)))
                .flatten(),
            latency: rel(sim_latency, c.latency),
            mean_hops: rel(Some(report.mean_hops), Some(c.mean_hops)),
            processor_utilization: rel(
                report.accesses.as_ref().and_then(|a| a.processor_utilization),
                c.processor_utilization,
            ),
        };
        c
    }
}

/// The longest message of `spec`'s workload, in flits.
fn longest_message(spec: &Resolved) -> u32 {
    spec.workload.size.max()
}
