//! The analytical models behind the facade: one function per model, its request
//! ([`netwrap_model::request`]) in, a report out that serialises exactly as
//! `netwrap model … --json` prints it (`model`, `netwrap_version`, `seed`, the resolved
//! `config`, then the prediction's fields).
//!
//! A saturated prediction is a report like any other (`saturated` true, no latency): the
//! command line prints it, then exits with its saturated status. What resolving a request
//! adjusts (N rounded up to a whole dimension) is in the report's `notes`, which the JSON
//! leaves out, for the front end to show.
//!
//! [`request`] reads any request from a JSON value (how Python's keyword arguments arrive):
//! an unknown key is refused with the keys there are and the closest one, and a value of the
//! wrong type names its key.

use crate::error::{Error, Result};
use crate::sweep::suggest;
use netwrap_model::ModelError;
use netwrap_model::fat_tree::{self, FatTree, FatTreePrediction};
use netwrap_model::feedback::{self, FeedbackPrediction};
use netwrap_model::indirect::{self, IndirectPrediction};
use netwrap_model::kary_ncube::{self, ContentionForm, Prediction};
use netwrap_model::request::{
    CostRequest, DesignRequest, FatTreeRequest, FeedbackRequest, IndirectConfig, IndirectRequest,
    KaryNCubeConfig, KaryNCubeRequest, Timing,
};
use netwrap_sim::{VERSION, num};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// `netwrap model kary-ncube`'s result: Agarwal 1991 eqs. 7, 8 and 10 (the homework's App. B),
/// with eqs. 2 and 12's times when delays are given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KaryNCubeReport {
    /// `kary-ncube`.
    pub model: &'static str,
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// No random stream is drawn: always absent.
    pub seed: Option<u64>,
    /// The request resolved.
    pub config: KaryNCubeConfig,
    /// The prediction.
    #[serde(flatten)]
    pub prediction: Prediction,
    /// The times in units of T^w(2), when delays are given.
    #[serde(flatten)]
    pub timing: Option<Timing>,
    /// A remark on the contention form forced (eq. 8's form where k_d ≤ 2).
    pub note: Option<String>,
    /// What resolving adjusted (not in the JSON).
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// `netwrap model feedback`'s result: the homework's App. D, with threads after Agarwal 1992.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FeedbackReport {
    /// `feedback`.
    pub model: &'static str,
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// No random stream is drawn: always absent.
    pub seed: Option<u64>,
    /// The k-ary n-cube request resolved.
    pub config: KaryNCubeConfig,
    /// The prediction.
    #[serde(flatten)]
    pub prediction: FeedbackPrediction,
    /// The times in units of T^w(2), when delays are given.
    #[serde(flatten)]
    pub timing: Option<Timing>,
    /// What resolving adjusted (not in the JSON).
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// `netwrap model indirect`'s result: Agarwal 1991 eqs. 13–14 (the homework's App. C).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IndirectReport {
    /// `indirect`.
    pub model: &'static str,
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// No random stream is drawn: always absent.
    pub seed: Option<u64>,
    /// The request resolved.
    pub config: IndirectConfig,
    /// The prediction.
    #[serde(flatten)]
    pub prediction: IndirectPrediction,
    /// What resolving adjusted (not in the JSON).
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// `netwrap model fat-tree`'s result: Greenberg & Guan's eqs. 1–26.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FatTreeReport {
    /// `fat-tree`.
    pub model: &'static str,
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// No random stream is drawn: always absent.
    pub seed: Option<u64>,
    /// The model's parameters.
    pub config: FatTree,
    /// The prediction.
    #[serde(flatten)]
    pub prediction: FatTreePrediction,
}

/// A model's error in the context the command line has always given it.
fn invalid_parameters(e: ModelError) -> Error {
    match e {
        ModelError::Request { .. } => Error::Model(e),
        other => Error::Invalid(format!("invalid model parameters: {other}")),
    }
}

/// The k-ary n-cube contention model of `r` (Agarwal 1991 eqs. 1–12; the homework's App. B).
pub fn kary_ncube(r: &KaryNCubeRequest) -> Result<KaryNCubeReport> {
    let mut notes = Vec::new();
    let config = r.resolve(&mut notes)?;
    let params = &config.network;
    let p = kary_ncube::predict(params).map_err(invalid_parameters)?;
    let timing = config.timing(p.latency, p.unloaded_latency)?;
    let note = (p.k_d <= 2.0 && params.form == ContentionForm::LargeKd).then(|| {
        format!(
            "k_d = {} <= 2: the homework's App. B recommends its small-k_d form (--contention auto or small-kd)",
            num(p.k_d)
        )
    });
    Ok(KaryNCubeReport {
        model: "kary-ncube",
        netwrap_version: VERSION,
        seed: None,
        config,
        prediction: p,
        timing,
        note,
        notes,
    })
}

/// Processor utilisation with network feedback for `r` (the homework's App. D; T threads per
/// processor after Agarwal 1992).
pub fn feedback(r: &FeedbackRequest) -> Result<FeedbackReport> {
    let mut notes = Vec::new();
    r.check()?;
    let config = r.cube().resolve(&mut notes)?;
    let threads = r.threads;
    let p = feedback::solve_threads(&config.network, r.solution, threads).map_err(|e| {
        let name: &'static str = r.solution.into();
        let context = if threads > 1 {
            format!("--solution {name} with --threads {threads}")
        } else {
            format!("--solution {name} with --contention {}", config.network.form.name())
        };
        Error::Model(ModelError::request("solution", format!("{context}: {e}")))
    })?;
    let timing = config.timing(Some(p.latency), p.unloaded_latency)?;
    Ok(FeedbackReport {
        model: "feedback",
        netwrap_version: VERSION,
        seed: None,
        config,
        prediction: p,
        timing,
        notes,
    })
}

/// The buffered indirect (Omega) network model of `r` (Agarwal 1991 eqs. 13–14; the
/// homework's App. C).
pub fn indirect(r: &IndirectRequest) -> Result<IndirectReport> {
    let mut notes = Vec::new();
    let config = r.resolve(&mut notes)?;
    let p = indirect::predict(&config.network).map_err(invalid_parameters)?;
    Ok(IndirectReport {
        model: "indirect",
        netwrap_version: VERSION,
        seed: None,
        config,
        prediction: p,
        notes,
    })
}

/// Greenberg & Guan's wormhole model of the butterfly fat-tree for `r`.
pub fn fat_tree(r: &FatTreeRequest) -> Result<FatTreeReport> {
    let config = r.resolve()?;
    let p = fat_tree::predict(&config).map_err(invalid_parameters)?;
    Ok(FatTreeReport { model: "fat-tree", netwrap_version: VERSION, seed: None, config, prediction: p })
}

/// `netwrap model network`'s result at one rate: a queue on every channel of the spec's
/// network ([`netwrap_model::network`]), its input streams the exact turn flows of the spec's
/// routing and destination pattern (`netwrap_sim::routes::turn_flows`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetworkReport {
    /// `network`.
    pub model: &'static str,
    /// netwrap's version.
    pub netwrap_version: &'static str,
    /// No random stream is drawn: always absent.
    pub seed: Option<u64>,
    /// The spec, every key written, at this point's rate (as `netwrap sim --json` prints it).
    pub config: netwrap_sim::SimSpec,
    /// The network: its name, terminals, routers and channels.
    pub network: netwrap_sim::NetworkInfo,
    /// How the flows were computed.
    pub load_method: String,
    /// The prediction.
    #[serde(flatten)]
    pub prediction: netwrap_model::network::NetworkPrediction,
    /// With `--router vc`, what the VC router's model adds (Greenberg & Guan 1997 §2): its
    /// switching, bandwidth bound, what limits it, and every link's service time and wait.
    #[serde(flatten)]
    pub vc: Option<netwrap_model::network::wormhole::WormDetail>,
    /// What resolving adjusted (not in the JSON).
    #[serde(skip)]
    pub notes: Vec<String>,
    /// The point as resolved (not in the JSON: `config` is it written).
    #[serde(skip)]
    pub point: netwrap_sim::Resolved,
}

/// `netwrap model network`'s result: one [`NetworkReport`] per rate.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct NetworkCurve {
    /// The points, in the order of the rates asked.
    pub points: Vec<NetworkReport>,
}

/// The queues of a spec's network ([`network_queues`]).
pub struct NetworkQueuesOf {
    /// Every channel's queue.
    pub queues: netwrap_model::network::NetworkQueues,
    /// How the turn flows were computed.
    pub method: String,
    /// The point the spec resolves to.
    pub point: netwrap_sim::Resolved,
    /// The network built (for a caller that also simulates it).
    pub experiment: netwrap_sim::Experiment,
}

/// Why the per-channel model does not describe a point: the field at fault (and others it
/// concerns) and the reason, which each front of the model words in its own context
/// ([`network_queues`]: `model network: …`; the model beside a simulation,
/// [`crate::compare::model_for`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The field at fault.
    pub path: &'static str,
    /// The other fields it concerns.
    pub also: &'static [&'static str],
    /// Why, in words.
    pub why: String,
}

impl Refusal {
    fn new(path: &'static str, also: &'static [&'static str], why: impl Into<String>) -> Refusal {
        Refusal { path, also, why: why.into() }
    }

    /// The refusal as a spec error whose message is `prefix` and the reason.
    pub fn error(&self, prefix: &str) -> Error {
        crate::error::spec_error(self.path, self.also, format!("{prefix}{}", self.why))
    }
}

/// Why neither router's per-channel model describes `sim`, as far as the spec alone tells (the
/// network need not be built): processors that wait, replies and traces (the models are of an
/// open network at a known rate); periodic intervals (their arrivals are Bernoulli); a size
/// mix (one service time a channel); adaptive paths and the locality subcube (their turn flows
/// are not computed); and with `--router vc` what its model does not cover
/// (`vc_refusal`). What only the built network tells is [`network_model_of`]'s and
/// [`network`]'s.
pub fn network_refusal(sim: &netwrap_sim::Resolved) -> Option<Refusal> {
    use netwrap_engine::params::Interval;
    use netwrap_engine::traffic::MessageSize;
    use netwrap_sim::{Destinations, Source};
    if let Some(r) = sim.router.vc().and_then(vc_refusal) {
        return Some(r);
    }
    match &sim.workload.source {
        Source::Open { interval: Interval::Geometric, .. } => {}
        Source::Open { interval: Interval::Periodic, .. } => {
            return Some(Refusal::new(
                "workload.processor.interval",
                &[],
                "the model's arrivals are Bernoulli (geometric intervals); periodic intervals are not modelled",
            ));
        }
        Source::Open { interval: Interval::OnOff, .. } => {
            return Some(Refusal::new(
                "workload.processor.interval",
                &[],
                "the model's arrivals are Bernoulli (geometric intervals); an on/off source's bursts are not modelled",
            ));
        }
        Source::Threads { .. } => {
            return Some(Refusal::new(
                "workload.processor.threads",
                &[],
                "processors that wait for their accesses close the loop; this model is the open network (`netwrap model feedback` closes it on a k-ary n-cube)",
            ));
        }
        Source::Trace(_) => {
            return Some(Refusal::new(
                "workload.trace",
                &[],
                "the model predicts a rate and a destination pattern, and a trace replays its own messages",
            ));
        }
        Source::Collective(_) => {
            return Some(Refusal::new(
                "workload.collective.kind",
                &[],
                "the model predicts a rate and a destination pattern, and a collective sends its own messages",
            ));
        }
    }
    if sim.replies() {
        return Some(Refusal::new(
            "workload.reply",
            &[],
            "replies from memories are not modelled (the requests' flows alone are)",
        ));
    }
    if let MessageSize::Bimodal { .. } = sim.workload.size {
        return Some(Refusal::new(
            "workload.long-size",
            &["workload.long-fraction"],
            "a mix of message lengths is not modelled (each channel's wait is for one service time); give one --size",
        ));
    }
    if sim.routing.paths().choice.adaptive() {
        return Some(Refusal::new(
            "routing.algorithm",
            &[],
            "the flows are not known: adaptive paths follow queue state: their split over paths is not known before a run",
        ));
    }
    if let Destinations::Locality(_) = sim.workload.destinations {
        return Some(Refusal::new(
            "workload.locality",
            &[],
            "the flows are not known: the locality subcube's flows are known in closed form only, not by turn",
        ));
    }
    None
}

/// What the VC router's model (Greenberg & Guan §2) does not cover, naming the field:
/// store-and-forward switching, deadlock avoidance that changes the routes (escape channels,
/// up*/down*), ejection of several packets at once, and output buffers (a packet would free
/// its input before its tail leaves the link).
fn vc_refusal(p: &netwrap_engine::params::VcParams) -> Option<Refusal> {
    use netwrap_engine::params::{Avoidance, Ejection, Switching};
    if p.switching == Switching::Saf {
        return Some(Refusal::new(
            "router.switching",
            &[],
            "the VC router's model is Greenberg & Guan's for wormhole and virtual cut-through; store-and-forward is not modelled",
        ));
    }
    if matches!(p.deadlock, Avoidance::Escape | Avoidance::Updown) {
        let name: &str = p.deadlock.into();
        return Some(Refusal::new(
            "router.deadlock",
            &[],
            format!(
                "deadlock avoidance '{name}' chooses routes by queue state or in place of the routing's; the VC router's model takes the routing's own routes (none, dateline, bubble, phases and dest-group change only VCs)"
            ),
        ));
    }
    if p.ejection == Ejection::EveryVc {
        return Some(Refusal::new(
            "router.ejection",
            &[],
            "the VC router's model ejects one packet at a time (Greenberg & Guan's assumption 4); every-vc is not modelled",
        ));
    }
    if p.output_buffer > 0 {
        return Some(Refusal::new(
            "router.output-buffer",
            &[],
            "the VC router's model is the input-buffered router's; output buffers are not modelled",
        ));
    }
    None
}

/// The ideal switch's queues of network `net` from its turn flows, for messages of `size`
/// flits.
fn ideal_queues(
    net: &netwrap_topo::Network,
    turns: &netwrap_sim::routes::TurnFlows,
    size: u64,
) -> netwrap_model::network::NetworkQueues {
    use netwrap_model::network::{ChannelQueue, NetworkQueues, Stream};
    let mut channels: Vec<ChannelQueue> = net
        .channels()
        .iter()
        .map(|c| ChannelQueue {
            service: size.div_ceil(c.width as u64),
            width: c.width as u32,
            inputs: Vec::new(),
        })
        .collect();
    for t in &turns.turns {
        let from = (t.input & netwrap_topo::metrics::INJECTED == 0).then_some(t.input);
        channels[t.channel as usize].inputs.push(Stream { from, rate: t.rate });
    }
    NetworkQueues {
        channels,
        messages: turns.messages,
        unrouted: turns.unrouted,
        unrouted_latency: size.div_ceil(net.terminal_width() as u64) as f64,
    }
}

/// A router's per-channel model of a network ([`network_model_of`]).
pub enum NetworkModel {
    /// The ideal switch's: a queue on every channel (Agarwal 1991 eqs. 3–8 generalised).
    Ideal(netwrap_model::network::NetworkQueues),
    /// The virtual-channel router's: Greenberg & Guan 1997 §2 on every link.
    Vc(netwrap_model::network::wormhole::WormNetwork),
}

/// The per-channel model of the network `exp` built for `sim` (any point that shares its
/// [`netwrap_sim::BuildKey`]) — the ideal switch's queues, or with `--router vc` its links and
/// queues ([`worm_network`]) — from its turn flows (computed once per experiment, so the points
/// of a sweep over one network share them), with how the flows were computed; or why the
/// model is not drawn beside it ([`network_refusal`], then what the built network tells: on
/// the ideal switch a routing that chooses its next hop by queue state, flows too many to
/// route; on the VC router channels wider than a flit and sets of next hops that overlap).
pub fn network_model_of(
    sim: &netwrap_sim::Resolved,
    exp: &netwrap_sim::Experiment,
) -> Result<std::result::Result<(NetworkModel, String), Refusal>> {
    use netwrap_engine::traffic::MessageSize;
    use netwrap_sim::routes::QueueChoice;
    if let Some(refusal) = network_refusal(sim) {
        return Ok(Err(refusal));
    }
    let MessageSize::Fixed(size) = sim.workload.size else {
        unreachable!("network_refusal refuses a size mix")
    };
    // The VC router's model takes the channels a routing offers together as one queue's
    // servers (Greenberg & Guan §2.2); the ideal switch's cannot.
    let choice = if sim.router.vc().is_some() { QueueChoice::Servers } else { QueueChoice::Refuse };
    let turns = match exp.turn_flows(choice)? {
        Ok(turns) => turns,
        Err(why) => {
            let path = if why.contains("work") { "workload.pattern" } else { "routing.algorithm" };
            return Ok(Err(Refusal::new(path, &[], format!("the flows are not known: {why}"))));
        }
    };
    let model = if sim.router.vc().is_some() {
        match worm_model(sim, exp, turns, size as u64) {
            Ok(m) => NetworkModel::Vc(m),
            Err(refusal) => return Ok(Err(refusal)),
        }
    } else {
        NetworkModel::Ideal(ideal_queues(exp.network(), turns, size as u64))
    };
    Ok(Ok((model, turns.method.clone())))
}

/// A spec resolved for `model network`, its network built and its turn flows: what both
/// routers' models start from ([`flows_of`]).
struct FlowsOf {
    /// The point the spec resolves to.
    sim: netwrap_sim::Resolved,
    /// The network built.
    exp: netwrap_sim::Experiment,
    /// Its turn flows.
    turns: netwrap_sim::routes::TurnFlows,
    /// B: flits per message.
    size: u64,
}

/// Resolves `spec`, refuses what its router's model does not cover ([`network_refusal`]) and
/// computes the turn flows (next hops chosen by queue state are refused on the ideal switch,
/// where each output queue would see its own share, and are one queue's servers on the VC
/// router).
fn flows_of(spec: &crate::Spec) -> Result<FlowsOf> {
    let spec = crate::Spec { model: None, ..spec.clone() };
    flows_at(spec.resolve()?.sim)
}

/// [`flows_of`] a point already resolved.
fn flows_at(sim: netwrap_sim::Resolved) -> Result<FlowsOf> {
    use crate::error::spec_error;
    use netwrap_engine::traffic::MessageSize;
    use netwrap_sim::routes::QueueChoice;
    if let Some(refusal) = network_refusal(&sim) {
        return Err(refusal.error("model network: "));
    }
    let MessageSize::Fixed(size) = sim.workload.size else {
        unreachable!("network_refusal refuses a size mix")
    };
    let exp = netwrap_sim::Experiment::build(&sim)?;
    // The VC router's model takes the channels a routing offers together as one queue's
    // servers (Greenberg & Guan §2.2); the ideal switch's cannot.
    let choice = if sim.router.vc().is_some() { QueueChoice::Servers } else { QueueChoice::Refuse };
    let turns = exp
        .turn_flows(choice)?
        .map_err(|why| {
            let path = if why.contains("work") { "workload.pattern" } else { "routing.algorithm" };
            // Next hops the router takes whichever is free of are the VC router's model's servers.
            let hint = if why.contains("next hops") && choice == QueueChoice::Refuse {
                " (with --router vc the channels offered together are one queue's servers: Greenberg & Guan's model)"
            } else {
                ""
            };
            spec_error(path, &[], format!("model network: the flows are not known: {why}{hint}"))
        })?
        .clone();
    Ok(FlowsOf { sim, exp, turns, size: size as u64 })
}

/// The queues of `spec`'s network for the ideal switch, from its turn flows, with the point
/// the spec resolves to and the network built; refused, with the field at fault, where the
/// model does not describe it (`flows_of`), and for the virtual-channel router (its model is
/// [`worm_network`]).
pub fn network_queues(spec: &crate::Spec) -> Result<NetworkQueuesOf> {
    let f = flows_of(spec)?;
    if f.sim.router.vc().is_some() {
        return Err(crate::error::spec_error(
            "router.kind",
            &[],
            "model network: these are the ideal switch's queues (--router ideal); the VC router's model is worm_network's",
        ));
    }
    Ok(queues_of(f))
}

/// The ideal switch's queues of a network from its flows ([`network_queues`]).
fn queues_of(f: FlowsOf) -> NetworkQueuesOf {
    let FlowsOf { sim, exp, turns, size } = f;
    let queues = ideal_queues(exp.network(), &turns, size);
    NetworkQueuesOf { queues, method: turns.method, point: sim, experiment: exp }
}

/// The links and queues of `spec`'s network for the virtual-channel router's model
/// ([`netwrap_model::network::wormhole`], Greenberg & Guan 1997 §2), from its turn flows,
/// with the point and the network built.
///
/// Links: channel c is link c, terminal s's injection link C + s, its ejection link C + N + s.
/// Queues: the channels the routing offers together (where the engine takes whichever is
/// free: the fat-tree's up-links) share one queue of as many servers; every other channel,
/// each source and each ejection link has its own. A link's header time is its latency and
/// the router delay and header stages at its end (a channel), the source router's delay and
/// the injection channel's latency (an injection link), the ejection channel's latency (an
/// ejection link): T0 is the VC router's unloaded latency (h + 1)·(r + stages) + Σ l + B +
/// t_inj + t_ej.
///
/// Refused, with the field at fault: as [`network_queues`] refuses (but for next hops chosen by
/// queue state, which are the servers of one queue here), store-and-forward switching, deadlock
/// avoidance that changes the routes (escape channels, up*/down*), ejection of several packets
/// at once, output buffers, channels wider than a flit, and routings whose sets of next hops
/// overlap (a channel in two sets is no one queue's).
pub fn worm_network(spec: &crate::Spec) -> Result<WormNetworkOf> {
    let f = flows_of(spec)?;
    if f.sim.router.vc().is_none() {
        return Err(crate::error::spec_error(
            "router.kind",
            &[],
            "model network: the VC router's model is for --router vc; the ideal switch's queues are network_queues'",
        ));
    }
    worm_links(f)
}

/// The VC router's links and queues of a network from its flows ([`worm_network`]).
fn worm_links(f: FlowsOf) -> Result<WormNetworkOf> {
    let model = worm_model(&f.sim, &f.exp, &f.turns, f.size).map_err(|r| r.error("model network: "))?;
    let FlowsOf { sim, exp, turns, .. } = f;
    Ok(WormNetworkOf { model, method: turns.method, point: sim, experiment: exp })
}

/// The VC router's links and queues of the network `exp` built for `sim`, from its turn flows
/// `turns` for messages of `size` flits ([`worm_network`]); or why the model does not describe
/// it (channels wider than a flit, sets of next hops that overlap).
fn worm_model(
    sim: &netwrap_sim::Resolved,
    exp: &netwrap_sim::Experiment,
    turns: &netwrap_sim::routes::TurnFlows,
    size: u64,
) -> std::result::Result<netwrap_model::network::wormhole::WormNetwork, Refusal> {
    use netwrap_engine::params::Switching;
    use netwrap_model::network::wormhole::{Holding, LinkKind, WormLink, WormNetwork, WormQueue};
    use netwrap_topo::metrics::INJECTED;
    let Some(p) = sim.router.vc().copied() else { unreachable!("worm_model is for the VC router") };
    let net = exp.network();
    if net.terminal_width() != 1 || net.channels().iter().any(|c| c.width != 1) {
        return Err(Refusal::new(
            "topology.width",
            &[],
            "the VC router's model takes channels of one flit a cycle; this network has wider ones",
        ));
    }
    let (nc, nt) = (net.channels().len(), net.terminals() as usize);
    // Queues of channels: the sets offered together, then every other channel alone.
    let mut queue_of: Vec<Option<u32>> = vec![None; nc];
    let mut queues: Vec<WormQueue> = Vec::new();
    if exp.offers_queue_choice() {
        for set in &turns.offered {
            if let Some(&c) = set.iter().find(|&&c| queue_of[c as usize].is_some()) {
                return Err(Refusal::new(
                    "routing.algorithm",
                    &[],
                    format!(
                        "the routing offers channel {c} in more than one set of next hops; the VC router's model takes the channels offered together as one queue's servers, so each channel must be in one set"
                    ),
                ));
            }
            for &c in set {
                queue_of[c as usize] = Some(queues.len() as u32);
            }
            queues.push(WormQueue { servers: set.len() as u32, source: false });
        }
    }
    let queue_of: Vec<u32> = queue_of
        .into_iter()
        .map(|q| {
            q.unwrap_or_else(|| {
                queues.push(WormQueue { servers: 1, source: false });
                queues.len() as u32 - 1
            })
        })
        .collect();
    let first_source = queues.len() as u32;
    queues.extend((0..nt).map(|_| WormQueue { servers: 1, source: true }));
    queues.extend((0..nt).map(|_| WormQueue { servers: 1, source: false }));
    let latency = exp.channel_latency(sim);
    let header = (p.router_delay + p.header_extra()) as f64;
    let mut links: Vec<WormLink> = (0..nc)
        .map(|c| WormLink {
            kind: LinkKind::Channel,
            index: c as u32,
            queue: queue_of[c],
            rate: 0.0,
            hop: latency.get(c).copied().unwrap_or(p.link_latency) as f64 + header,
            turns: Vec::new(),
        })
        .collect();
    links.extend((0..nt).map(|s| WormLink {
        kind: LinkKind::Injection,
        index: s as u32,
        queue: first_source + s as u32,
        rate: 0.0,
        hop: header + p.injection_latency as f64,
        turns: Vec::new(),
    }));
    links.extend((0..nt).map(|t| WormLink {
        kind: LinkKind::Ejection,
        index: t as u32,
        queue: first_source + (nt + t) as u32,
        rate: 0.0,
        hop: p.ejection_latency as f64,
        turns: Vec::new(),
    }));
    let from = |input: u32| {
        if input & INJECTED != 0 { nc + (input & !INJECTED) as usize } else { input as usize }
    };
    for t in &turns.turns {
        let (a, b) = (from(t.input), t.channel as usize);
        links[a].turns.push((b as u32, t.rate));
        links[b].rate += t.rate;
        if a >= nc {
            links[a].rate += t.rate; // an injection link carries what its terminal sends
        }
    }
    for d in &turns.deliveries {
        let (a, b) = (from(d.input), nc + nt + d.channel as usize);
        links[a].turns.push((b as u32, d.rate));
        links[b].rate += d.rate;
        if a >= nc {
            links[a].rate += d.rate;
        }
    }
    let packets = size.div_ceil(p.packet as u64) as f64;
    let holding = if p.switching == Switching::Wormhole { Holding::Wormhole } else { Holding::CutThrough };
    Ok(WormNetwork { links, queues, messages: turns.messages, size: size as f64, packets, holding })
}

/// The source–destination pairs of the network `exp` built for `sim`, in classes by the
/// distance between their routers, with what the VC router's model `model` (built from the
/// same flows, [`worm_model`]) needs for each class's latency
/// ([`netwrap_model::network::wormhole::PairClasses`]): every flow walked again, turn by turn
/// ([`netwrap_sim::Experiment::walk_flows`]); `None` where the flows are not walked
/// (as [`flows_of`] found them, this does not happen).
fn pair_classes(
    exp: &netwrap_sim::Experiment,
    model: &netwrap_model::network::wormhole::WormNetwork,
) -> Result<Option<netwrap_model::network::wormhole::PairClasses>> {
    use netwrap_model::network::wormhole::{PairClass, PairClasses};
    use netwrap_topo::metrics::{FlowSink, INJECTED};
    /// Accumulates each class's messages, unloaded latency, sources and blocking.
    struct Sink<'a> {
        net: &'a netwrap_topo::Network,
        model: &'a netwrap_model::network::wormhole::WormNetwork,
        /// (queue, P) per link.
        p: Vec<Vec<(u32, f64)>>,
        /// Distances from `from`'s router.
        dist: Vec<u32>,
        from: Option<u32>,
        /// Class index by distance.
        index: std::collections::BTreeMap<u32, usize>,
        classes: Vec<(PairClass, Vec<f64>)>,
        current: usize,
    }
    impl Sink<'_> {
        fn link(&self, input: u32) -> usize {
            let nc = self.net.channels().len();
            if input & INJECTED != 0 { nc + (input & !INJECTED) as usize } else { input as usize }
        }
        fn turn(&mut self, from: usize, to: usize, weight: f64) {
            let to = &self.model.links[to];
            let p = self.p[from].iter().find(|e| e.0 == to.queue).map_or(0.0, |e| e.1);
            let (class, blocking) = &mut self.classes[self.current];
            blocking[to.queue as usize] += weight * p;
            class.unloaded += weight * to.hop;
        }
    }
    impl FlowSink for Sink<'_> {
        const TURNS: bool = true;
        fn flow(&mut self, source: u32, destination: u32, weight: f64) {
            let r = self.net.inject_router(source);
            if self.from != Some(r) {
                self.dist = netwrap_topo::bfs_from(self.net, r);
                self.from = Some(r);
            }
            let distance = self.dist[self.net.eject_router(destination) as usize];
            let next = self.classes.len();
            self.current = *self.index.entry(distance).or_insert(next);
            if self.current == next {
                let queues = self.model.queues.len();
                self.classes.push((PairClass { distance, ..PairClass::default() }, vec![0.0; queues]));
            }
            let inj = (self.net.channels().len() + source as usize) as u32;
            let hop = self.model.links[inj as usize].hop;
            let size = self.model.size;
            let (class, _) = &mut self.classes[self.current];
            class.messages += weight;
            class.unloaded += weight * (size + hop);
            match class.sources.last_mut() {
                Some(last) if last.0 == inj => last.1 += weight,
                _ => class.sources.push((inj, weight)),
            }
        }
        fn take(&mut self, input: u32, channel: u32, weight: f64) {
            self.turn(self.link(input), channel as usize, weight);
        }
        fn deliver(&mut self, input: u32, t: u32, weight: f64) {
            let nc = self.net.channels().len();
            let nt = self.net.terminals() as usize;
            self.turn(self.link(input), nc + nt + t as usize, weight);
        }
    }
    let sink = Sink {
        net: exp.network(),
        model,
        p: model.blocking_probabilities(),
        dist: Vec::new(),
        from: None,
        index: std::collections::BTreeMap::new(),
        classes: Vec::new(),
        current: 0,
    };
    let Ok((sink, _)) = exp.walk_flows(sink)? else { return Ok(None) };
    let mut classes: Vec<PairClass> = sink
        .classes
        .into_iter()
        .map(|(mut class, blocking)| {
            class.blocking =
                blocking.into_iter().enumerate().filter(|e| e.1 > 0.0).map(|(q, b)| (q as u32, b)).collect();
            class
        })
        .collect();
    classes.sort_by_key(|c| c.distance);
    Ok(Some(PairClasses { classes }))
}

/// The VC router's links and queues of a spec's network ([`worm_network`]).
pub struct WormNetworkOf {
    /// The links and queues.
    pub model: netwrap_model::network::wormhole::WormNetwork,
    /// How the turn flows were computed.
    pub method: String,
    /// The point the spec resolves to.
    pub point: netwrap_sim::Resolved,
    /// The network built.
    pub experiment: netwrap_sim::Experiment,
}

/// `netwrap model network`: the model of `spec`'s network at each of `rates` (the spec's own
/// rate when `None`): the ideal switch's ([`network_queues`]) or, with `--router vc`, the
/// virtual-channel router's ([`worm_network`]).
pub fn network(spec: &crate::Spec, rates: Option<&[f64]>) -> Result<NetworkCurve> {
    network_curve(flows_of(spec)?, rates)
}

/// [`network`] of a point already resolved (a sweep's, [`crate::Point`]'s `job.sim`): the
/// same curve, at `rates` or else at the point's own rate.
pub fn network_at(sim: &netwrap_sim::Resolved, rates: Option<&[f64]>) -> Result<NetworkCurve> {
    network_curve(flows_at(sim.clone())?, rates)
}

/// [`network`] from a point's flows.
fn network_curve(f: FlowsOf, rates: Option<&[f64]>) -> Result<NetworkCurve> {
    enum Model {
        Ideal(netwrap_model::network::NetworkQueues),
        Vc(netwrap_model::network::wormhole::WormNetwork),
    }
    let (model, load_method, sim, exp) = if f.sim.router.vc().is_some() {
        let WormNetworkOf { model, method, point, experiment } = worm_links(f)?;
        (Model::Vc(model), method, point, experiment)
    } else {
        let NetworkQueuesOf { queues, method, point, experiment } = queues_of(f);
        (Model::Ideal(queues), method, point, experiment)
    };
    let own = [sim.rate()];
    let rates = rates.unwrap_or(&own);
    let net = exp.network();
    let info = netwrap_sim::NetworkInfo {
        name: net.name().to_string(),
        nodes: net.terminals(),
        routers: net.routers(),
        channels: net.channels().len() as u64,
    };
    // The VC router's model prepared once for the curve: its classes and its saturation, and
    // the source–destination pairs by distance.
    let solver = match &model {
        Model::Vc(m) => Some(m.solver().map_err(invalid_parameters)?),
        Model::Ideal(_) => None,
    };
    let pairs = match &model {
        Model::Vc(m) => pair_classes(&exp, m)?,
        Model::Ideal(_) => None,
    };
    let mut points = Vec::with_capacity(rates.len());
    for &rate in rates {
        let (prediction, vc) = match (&model, &solver) {
            (Model::Vc(_), Some(s)) => {
                let p = s.predict_with(rate, pairs.as_ref()).map_err(invalid_parameters)?;
                (p.network, Some(p.detail))
            }
            (Model::Ideal(q), _) => (q.predict(rate).map_err(invalid_parameters)?, None),
            (Model::Vc(_), None) => unreachable!("the VC router's model is prepared above"),
        };
        points.push(NetworkReport {
            model: "network",
            netwrap_version: VERSION,
            seed: None,
            config: sim.with_rate(rate).written(),
            point: sim.with_rate(rate),
            network: info.clone(),
            load_method: load_method.clone(),
            prediction,
            vc,
            notes: sim.notes.clone(),
        });
    }
    Ok(NetworkCurve { points })
}

/// [`network`] of an experiment: its base spec, at `rates` or else at the rates it sweeps
/// `workload.rate` over (the curve's); an experiment that sweeps anything else is refused, as
/// the model takes one network.
pub fn network_of(sweep: &crate::Sweep, rates: Option<&[f64]>) -> Result<NetworkCurve> {
    let swept = match sweep.axes().as_slice() {
        [] => None,
        [axis] if axis.path == "workload.rate" => {
            Some(axis.values.iter().map(|v| v.as_f64().unwrap_or(f64::NAN)).collect::<Vec<f64>>())
        }
        _ => {
            return Err(Error::Invalid(format!(
                "model network: the experiment sweeps {}; the model takes one network, and a curve over workload.rate alone (or give the rates)",
                sweep.parameters().join(", ")
            )));
        }
    };
    network(sweep.base(), rates.or(swept.as_deref()))
}

/// A request the facade reads from a JSON value ([`request`]).
pub trait Request: Serialize + DeserializeOwned {
    /// A complete, valid request: its keys are every key the request has.
    fn example() -> Self;
}

impl Request for KaryNCubeRequest {
    fn example() -> Self {
        Self::default()
    }
}

impl Request for FeedbackRequest {
    fn example() -> Self {
        Self::default()
    }
}

impl Request for IndirectRequest {
    fn example() -> Self {
        Self::default()
    }
}

impl Request for FatTreeRequest {
    fn example() -> Self {
        Self::default()
    }
}

impl Request for CostRequest {
    fn example() -> Self {
        Self::default()
    }
}

impl Request for DesignRequest {
    fn example() -> Self {
        Self::exercise_7()
    }
}

/// The example of `T` as a table of its keys.
fn example_table<T: Request>() -> Map<String, Value> {
    match serde_json::to_value(T::example()) {
        Ok(Value::Object(fields)) => fields,
        _ => unreachable!("a request serialises as a table"),
    }
}

/// The keys of request `T`, spelt as the command line's options (without `--`), in order.
pub fn keys<T: Request>() -> Vec<String> {
    example_table::<T>().into_iter().map(|(k, _)| k).collect()
}

/// Reads request `T` from `value`, a table of its keys (see the module docs). The request's
/// ranges are checked where it is resolved, by the model's function.
pub fn request<T: Request>(value: Value) -> Result<T> {
    let Value::Object(given) = value else {
        return Err(Error::Invalid(format!("a request is a table of options, not {value}")));
    };
    let keys = keys::<T>();
    if let Some(unknown) = given.keys().find(|k| !keys.contains(k)) {
        let expected: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        let message = suggest(&format!("unknown field `{unknown}`, expected one of {}", expected.join(", ")));
        return Err(Error::Model(ModelError::request(unknown.clone(), message)));
    }
    match serde_json::from_value(Value::Object(given.clone())) {
        Ok(r) => Ok(r),
        Err(whole) => {
            // serde does not say which key a flattened field's error is about: try each given
            // value alone in the example, and blame the first that fails there.
            let example = example_table::<T>();
            for (key, v) in &given {
                let mut probe = example.clone();
                probe.insert(key.clone(), v.clone());
                if let Err(e) = serde_json::from_value::<T>(Value::Object(probe)) {
                    return Err(Error::Model(ModelError::request(
                        key.clone(),
                        suggest(&format!("{key}: {e}")),
                    )));
                }
            }
            let missing = whole.to_string();
            let key = missing
                .strip_prefix("missing field `")
                .and_then(|rest| rest.split('`').next())
                .unwrap_or_default()
                .to_string();
            Err(Error::Model(ModelError::request(key, missing)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Characterisation: a request read from a value names the key at fault, lists the keys
    /// there are with the closest one, and reads the flags' spelling.
    #[test]
    fn requests_name_the_key_at_fault() {
        let key = |e: Error| match e {
            Error::Model(ModelError::Request { key, message }) => (key, message),
            other => panic!("{other:?}"),
        };
        let (k, m) = key(request::<KaryNCubeRequest>(json!({"kk": 3})).unwrap_err());
        assert_eq!(k, "kk");
        assert!(m.contains("`no-wrap`") && m.ends_with("did you mean `k`?"), "{m}");
        let (k, m) = key(request::<KaryNCubeRequest>(json!({"k": 4, "rate": "x"})).unwrap_err());
        assert_eq!((k.as_str(), m.as_str()), ("rate", "rate: invalid type: string \"x\", expected f64"));
        let (k, m) = key(request::<FatTreeRequest>(json!({"turn": "printd"})).unwrap_err());
        assert!(k == "turn" && m.ends_with("did you mean `printed`?"), "{m}");
        let (k, _) =
            key(request::<DesignRequest>(json!({"nodes": 64, "rate": 0.01, "pins": 384})).unwrap_err());
        assert_eq!(k, "bits");
        let r: FeedbackRequest = request(json!({"threads": 2, "switch-delay": 1})).unwrap();
        assert_eq!((r.threads, r.delay.switch_delay), (2, Some(1.0)));
        assert!(keys::<DesignRequest>().contains(&"space-dims".to_string()));
    }

    /// Verification against the homework's Ex 1: ρ = 0.56 at m = 0.04, B = 4 on the 8-ary
    /// 2-cube; the report has the command line's keys in its order.
    #[test]
    fn kary_ncube_report_has_the_json_keys() {
        let r = kary_ncube(&KaryNCubeRequest::default()).unwrap();
        assert!((r.prediction.utilization - 0.56).abs() < 1e-12);
        let v = serde_json::to_value(&r).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys[..4], ["model", "netwrap_version", "seed", "config"]);
        assert_eq!(keys.last().map(|k| k.as_str()), Some("note"));
    }
}
