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

/// Why the per-channel model does not describe `sim`, as far as the spec alone tells (the
/// network need not be built): the virtual-channel router (its model is not built);
/// processors that wait, replies and traces (the model is an open network at a known rate);
/// periodic intervals (the model's arrivals are Bernoulli); a size mix (the waits here are for
/// one service time a channel); adaptive paths and the locality subcube (their turn flows are
/// not computed). What only the built network tells is [`network_queues_of`]'s.
pub fn network_refusal(sim: &netwrap_sim::Resolved) -> Option<Refusal> {
    use netwrap_engine::params::Interval;
    use netwrap_engine::traffic::MessageSize;
    use netwrap_sim::{Destinations, Source};
    if sim.router.vc().is_some() {
        return Some(Refusal::new(
            "router.kind",
            &[],
            "the virtual-channel router's model is not yet built; this model is the ideal switch's (--router ideal, the default)",
        ));
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

/// The queues of the network `exp` built for `sim` (any point that shares its
/// [`netwrap_sim::BuildKey`]), from its turn flows (computed once per experiment, so the points
/// of a sweep over one network share them), with how the flows were computed; or why the model
/// does not describe it ([`network_refusal`], then what the built network tells: a routing
/// that chooses its next hop by queue state, flows too many to route).
pub fn network_queues_of(
    sim: &netwrap_sim::Resolved,
    exp: &netwrap_sim::Experiment,
) -> Result<std::result::Result<(netwrap_model::network::NetworkQueues, String), Refusal>> {
    use netwrap_engine::traffic::MessageSize;
    use netwrap_model::network::{ChannelQueue, NetworkQueues, Stream};
    if let Some(refusal) = network_refusal(sim) {
        return Ok(Err(refusal));
    }
    let MessageSize::Fixed(size) = sim.workload.size else {
        unreachable!("network_refusal refuses a size mix")
    };
    let size = size as u64;
    let turns = match exp.turn_flows()? {
        Ok(turns) => turns,
        Err(why) => {
            let path = if why.contains("work") { "workload.pattern" } else { "routing.algorithm" };
            return Ok(Err(Refusal::new(path, &[], format!("the flows are not known: {why}"))));
        }
    };
    let net = exp.network();
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
    let queues = NetworkQueues {
        channels,
        messages: turns.messages,
        unrouted: turns.unrouted,
        unrouted_latency: size.div_ceil(net.terminal_width() as u64) as f64,
    };
    Ok(Ok((queues, turns.method.clone())))
}

/// The queues of `spec`'s network, from its turn flows, with the point the spec resolves to
/// and the network built; refused, with the field at fault, where the model does not describe
/// it ([`network_queues_of`]).
pub fn network_queues(spec: &crate::Spec) -> Result<NetworkQueuesOf> {
    let spec = crate::Spec { model: None, ..spec.clone() };
    let sim = spec.resolve()?.sim;
    if let Some(refusal) = network_refusal(&sim) {
        return Err(refusal.error("model network: "));
    }
    let exp = netwrap_sim::Experiment::build(&sim)?;
    let (queues, method) = network_queues_of(&sim, &exp)?.map_err(|r| r.error("model network: "))?;
    Ok(NetworkQueuesOf { queues, method, point: sim, experiment: exp })
}

/// `netwrap model network`: the model of `spec`'s network at each of `rates` (the spec's own
/// rate when `None`), see [`network_queues`].
pub fn network(spec: &crate::Spec, rates: Option<&[f64]>) -> Result<NetworkCurve> {
    let NetworkQueuesOf { queues, method: load_method, point: sim, experiment: exp } = network_queues(spec)?;
    let own = [sim.rate()];
    let rates = rates.unwrap_or(&own);
    let net = exp.network();
    let info = netwrap_sim::NetworkInfo {
        name: net.name().to_string(),
        nodes: net.terminals(),
        routers: net.routers(),
        channels: net.channels().len() as u64,
    };
    let mut points = Vec::with_capacity(rates.len());
    for &rate in rates {
        let prediction = queues.predict(rate).map_err(invalid_parameters)?;
        points.push(NetworkReport {
            model: "network",
            netwrap_version: VERSION,
            seed: None,
            config: sim.with_rate(rate).written(),
            point: sim.with_rate(rate),
            network: info.clone(),
            load_method: load_method.clone(),
            prediction,
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
