//! What each front end asks of the models, of `cost` and of `design`: one request type per
//! command, defined once. The command line derives its flags from them (the `cli` feature,
//! as the simulator's spec sections do); the facade and Python deserialise the same types
//! with serde, keys spelt as the flags (`switch-delay` is `--switch-delay`), every key but
//! `design`'s `nodes`, `rate` and `bits` optional with the command line's default, and an
//! unknown key an error.
//!
//! A request resolves once into the model's parameters ([`KaryNCubeRequest::resolve`],
//! [`IndirectRequest::resolve`], [`DesignRequest::query`]): n from `nodes`, B from `bits` and
//! a width constraint, the delays. Errors name the option as the command line spells it and
//! carry its key ([`ModelError::Request`]). What resolving adjusts (N rounded up to a whole
//! dimension) comes back as notes for the front end to show.
//!
//! The command line's value parsers refuse out-of-range values before a request exists; the
//! requests' `check` methods refuse the same values for the front ends without them, so a
//! request that reaches a model is in range whichever way it was written.

use crate::agarwal::{self, Delays, WidthConstraint, WireDelay, WireModel};
use crate::design::{DesignQuery, RankBy};
use crate::error::{ModelError, num};
use crate::fat_tree::{FatTree, Mg2Rate, TurnProbability};
use crate::feedback::Solution;
use crate::indirect::Indirect;
use crate::kary_ncube::{self, ContentionForm, KaryNCube, MAX_NODES, Wiring};
use serde::{Deserialize, Serialize};

/// The k-ary n-cube and its workload: the options `model kary-ncube` and `model feedback`
/// share, named as `netwrap sim` names the same quantities.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Cube {
    /// Radix k (nodes per dimension), at least 2.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 8, value_parser = netwrap_topo::cli::small_count::<2>, allow_hyphen_values = true))]
    pub k: u32,
    /// Dimensions n, at least 1 (N = k^n at most 2^53).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with = "nodes", value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true))]
    pub n: Option<u32>,
    /// Number of processors N instead of n: n = log_k N, rounded up to a whole dimension
    /// (k^n at most 2^53).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<1>, allow_hyphen_values = true))]
    pub nodes: Option<u64>,
    /// Request rate m: messages generated per node per cycle, a probability in [0, 1].
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 0.04, value_parser = netwrap_topo::cli::probability, allow_hyphen_values = true, global = true))]
    pub rate: f64,
    /// Message length B in flits, at least 1.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4, value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true, global = true))]
    pub size: u32,
    /// Locality fraction l in (0, 1]: the share of all nodes a source addresses (a subcube
    /// with a corner at the source).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1.0, value_parser = netwrap_topo::cli::fraction, allow_hyphen_values = true, global = true))]
    pub locality: f64,
    /// Channels in both directions (default: unidirectional).
    #[cfg_attr(feature = "cli", arg(long))]
    pub bidirectional: bool,
    /// No end-around connections: a mesh (implies bidirectional channels).
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_wrap: bool,
    /// Contention form: `auto` applies the homework's App. B rule (eq. 8's form for
    /// k_d > 2, the small-k_d form otherwise); the others force one form.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<ContentionForm>(), default_value = "auto", global = true))]
    pub contention: ContentionForm,
}

impl Default for Cube {
    /// The command line's defaults: the homework's Ex 1, an 8-ary 2-cube at m = 0.04, B = 4.
    fn default() -> Self {
        Cube {
            k: 8,
            n: None,
            nodes: None,
            rate: 0.04,
            size: 4,
            locality: 1.0,
            bidirectional: false,
            no_wrap: false,
            contention: ContentionForm::Auto,
        }
    }
}

/// Message length in bits with a constraint on the channel width (Agarwal 1991 §4).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Physical {
    /// Message length L in bits (positive); B = L/W flits (real, as in Agarwal 1991). Needs
    /// --width, --pins or --bisection.
    #[cfg_attr(feature = "cli", arg(long, conflicts_with = "size", value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub bits: Option<f64>,
    /// Fixed channel width W in bits, positive (Agarwal 1991 §4.1).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["pins", "bisection"], value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub width: Option<f64>,
    /// Signal pins per switch, positive: W = pins / (channels per switch) (Agarwal 1991 §4.3).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with = "bisection", value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub pins: Option<f64>,
    /// Wires across the bisection, positive: W = wires / (channels crossing it) (Agarwal 1991 §4.2).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["bisection_binary_cube", "bisection_of"], value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub bisection: Option<f64>,
    /// Bisection of a unit-width binary n-cube with the same N: N wires, so W = k/2
    /// (Agarwal 1991 §4.2).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["width", "pins", "bisection_of"]))]
    pub bisection_binary_cube: bool,
    /// Bisection of the same-N torus with n0 dimensions and W0-bit channels, as `n0:W0`
    /// (Agarwal 1991 §5 normalises to 2:32, giving W = k at N = 1K).
    #[cfg_attr(feature = "cli", arg(long, value_name = "N0:W0", value_parser = Reference::parse, allow_hyphen_values = true, conflicts_with_all = ["width", "pins"]))]
    pub bisection_of: Option<Reference>,
}

/// A reference torus for a bisection constraint: n0 dimensions with W0-bit channels, written
/// `n0:W0` (or, in a request, as the list `[n0, W0]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    /// Dimensions n0, at least 1.
    pub n0: u32,
    /// Channel width W0 in bits, positive.
    pub w0: f64,
}

impl Reference {
    /// Parses `n0:W0` (a dimension count and a channel width).
    pub fn parse(s: &str) -> Result<Reference, String> {
        let (n, w) = s.split_once(':').ok_or_else(|| format!("{s:?} is not of the form n0:W0, e.g. 2:32"))?;
        let n: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("{n:?} is not a dimension count n0 (a whole number of at least 1)"))?;
        let w: f64 = w
            .trim()
            .parse()
            .map_err(|_| format!("{w:?} is not a channel width W0 (a positive number of bits)"))?;
        Reference::new(n, w).ok_or_else(|| {
            format!("{s:?}: n0 must be a whole number of at least 1 and W0 a positive finite number")
        })
    }

    /// The reference, if n0 ≥ 1 and W0 is a positive finite number.
    pub fn new(n0: u32, w0: f64) -> Option<Reference> {
        (n0 >= 1 && w0.is_finite() && w0 > 0.0).then_some(Reference { n0, w0 })
    }
}

impl std::fmt::Display for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.n0, num(self.w0))
    }
}

impl Serialize for Reference {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Reference {
    /// `"n0:W0"`, or the list `[n0, W0]`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Text(String),
            Pair(u32, f64),
        }
        match Written::deserialize(d).map_err(|_| {
            serde::de::Error::custom("a reference torus is \"n0:W0\" or [n0, W0], e.g. \"2:32\"")
        })? {
            Written::Text(s) => Reference::parse(&s).map_err(serde::de::Error::custom),
            Written::Pair(n0, w0) => Reference::new(n0, w0).ok_or_else(|| {
                serde::de::Error::custom(
                    "n0 must be a whole number of at least 1 and W0 a positive finite number",
                )
            }),
        }
    }
}

/// Switch and wire delays (Agarwal 1991 §2), shared by `model kary-ncube`, `model feedback`
/// and `design`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Delay {
    /// Switch delay s in units of the 2-D wire delay T^w(2), zero or positive; adds eq. 12's
    /// latency_time.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::non_negative, allow_hyphen_values = true))]
    pub switch_delay: Option<f64>,
    /// Wire delay model (default `length` once delays are asked for; `width` needs --bits
    /// and a width constraint, which give W).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<WireModel>()))]
    pub wire_delay: Option<WireModel>,
    /// Dimensions z of the space the network is laid out in, at least 1 (the wire length
    /// k^(n/z − 1)).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 2, value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true))]
    pub space_dims: u32,
}

impl Default for Delay {
    fn default() -> Self {
        Delay { switch_delay: None, wire_delay: None, space_dims: 2 }
    }
}

impl Delay {
    /// The delays asked for, validated, for channels of `width` bits (`None`: neither
    /// `switch-delay` nor `wire-delay`). `wire-delay width` (Agarwal 1991 §4.2: nodes spaced
    /// in proportion to W) needs the width and the planar layout (`space-dims` 2).
    pub fn delays(&self, width: Option<f64>) -> Result<Option<Delays>, ModelError> {
        if self.switch_delay.is_none() && self.wire_delay.is_none() {
            return Ok(None);
        }
        let s = self.switch_delay.unwrap_or(0.0);
        if !(s.is_finite() && s >= 0.0) {
            return Err(ModelError::request(
                "switch-delay",
                format!("--switch-delay {} is invalid: it must be zero or a positive finite number", num(s)),
            ));
        }
        if self.space_dims == 0 {
            return Err(ModelError::request(
                "space-dims",
                "--space-dims 0 is invalid: the layout needs at least one dimension",
            ));
        }
        let model = self.wire_delay.unwrap_or_default();
        let Some(wire) = model.delay(self.space_dims, width) else {
            return Err(if width.is_some() {
                ModelError::request(
                    "space-dims",
                    format!(
                        "--wire-delay width is Agarwal 1991 §4.2's planar layout (nodes spaced in proportion to the channel width on a plane): --space-dims {} is not 2",
                        self.space_dims
                    ),
                )
            } else {
                ModelError::request(
                    "wire-delay",
                    "--wire-delay width spaces the nodes in proportion to the channel width W (Agarwal 1991 §4.2): give --bits with --width, --pins or --bisection (or --bisection-binary-cube, --bisection-of) so that W is known",
                )
            });
        };
        Ok(Some(Delays { switch_delay: s, wire }))
    }

    fn check(&self) -> Result<(), ModelError> {
        non_negative("switch-delay", self.switch_delay)?;
        at_least("space-dims", self.space_dims as u64, 1)
    }
}

/// `model kary-ncube`: the network and workload plus Agarwal 1991's physical options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(deny_unknown_fields, default)]
pub struct KaryNCubeRequest {
    /// The network and workload.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub network: Cube,
    /// Message length in bits and the width constraint.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub physical: Physical,
    /// Switch and wire delays.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub delay: Delay,
    /// Switch pipeline latency p in cycles, at least 1: each switch costs p cycles plus the
    /// contention, T = (p + w)·n·k_d + B (Agarwal 1991 §3.2, after eq. 10); 1 is eq. 10.
    #[cfg_attr(feature = "cli", arg(long, value_name = "P", default_value_t = 1, value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true))]
    #[serde(rename = "switch-pipeline")]
    pub switch_pipeline: u32,
}

impl Default for KaryNCubeRequest {
    /// The command line's defaults (single-cycle switches: eq. 10).
    fn default() -> Self {
        KaryNCubeRequest {
            network: Cube::default(),
            physical: Physical::default(),
            delay: Delay::default(),
            switch_pipeline: 1,
        }
    }
}

/// `model feedback`: the k-ary n-cube's options plus the solution method and the threads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct FeedbackRequest {
    /// The network and workload (`rate` is m while busy).
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub network: Cube,
    /// Message length in bits and the width constraint.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub physical: Physical,
    /// Switch and wire delays.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub delay: Delay,
    /// Solution method.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Solution>(), default_value = "exact"))]
    pub solution: Solution,
    /// Threads per processor T, at least 1: each computes for R = 1/m cycles on average, then
    /// waits for its access while the processor switches (1 cycle) to the next in round-robin
    /// order. 1 is App. D; more take --solution exact or quadratic.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1, value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true))]
    pub threads: u32,
}

impl Default for FeedbackRequest {
    fn default() -> Self {
        FeedbackRequest {
            network: Cube::default(),
            physical: Physical::default(),
            delay: Delay::default(),
            solution: Solution::Exact,
            threads: 1,
        }
    }
}

impl FeedbackRequest {
    /// The k-ary n-cube request it extends.
    pub fn cube(&self) -> KaryNCubeRequest {
        KaryNCubeRequest {
            network: self.network.clone(),
            physical: self.physical.clone(),
            delay: self.delay.clone(),
            switch_pipeline: 1,
        }
    }

    /// Checks every option's range (see the module docs).
    pub fn check(&self) -> Result<(), ModelError> {
        self.cube().check()?;
        at_least("threads", self.threads as u64, 1)
    }
}

/// A k-ary n-cube request resolved: the model's parameters and what the physical options add.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KaryNCubeConfig {
    /// The model's parameters.
    #[serde(flatten)]
    pub network: KaryNCube,
    /// Processors N = k^n.
    pub nodes: u64,
    /// Message length in bits, when given.
    pub bits: Option<f64>,
    /// The width constraint, when given.
    pub constraint: Option<WidthConstraint>,
    /// Channel width W in bits it leaves.
    pub width: Option<f64>,
    /// Switch and wire delays, when given.
    pub delays: Option<Delays>,
}

/// Clock period, eq. 12's latency and eq. 2's base latency, in units of T^w(2).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// s + T^w(n)/T^w(2).
    pub clock_period: f64,
    /// Eq. 12: the clock period times the latency in cycles (M excluded).
    pub latency_time: Option<f64>,
    /// Eq. 2: the clock period times the unloaded latency.
    pub base_latency_time: f64,
}

impl KaryNCubeConfig {
    /// The timing of the delays asked for, given the latency and unloaded latency in cycles;
    /// an error when a switch delay valid on its own takes the times beyond floating point.
    pub fn timing(&self, latency: Option<f64>, unloaded: f64) -> Result<Option<Timing>, ModelError> {
        let Some(d) = self.delays else { return Ok(None) };
        let c = d.clock_period(self.network.k as f64, self.network.n);
        let m = self.network.memory_latency;
        let t = Timing {
            clock_period: c,
            latency_time: latency.map(|t| c * (t - m)),
            base_latency_time: c * (unloaded - m),
        };
        if ![t.clock_period, t.base_latency_time, t.latency_time.unwrap_or(0.0)].iter().all(|x| x.is_finite())
        {
            let wire = d.wire.relative(self.network.k as f64, self.network.n);
            return Err(match d.wire {
                WireDelay::Width { bits } if wire.is_nan() || wire >= d.switch_delay => ModelError::request(
                    "wire-delay",
                    format!(
                        "--wire-delay width with W = {} bits takes the latency in units of T^w(2) beyond floating point: choose narrower channels",
                        num(bits)
                    ),
                ),
                _ => ModelError::request(
                    "switch-delay",
                    format!(
                        "--switch-delay {} takes the latency in units of T^w(2) beyond floating point: choose a smaller switch delay",
                        num(d.switch_delay)
                    ),
                ),
            });
        }
        Ok(Some(t))
    }
}

/// The wiring `bidirectional` and `no-wrap` select.
pub fn wiring(bidirectional: bool, no_wrap: bool) -> Wiring {
    match (bidirectional, no_wrap) {
        (_, true) => Wiring::Mesh,
        (true, false) => Wiring::BidirectionalTorus,
        (false, false) => Wiring::UnidirectionalTorus,
    }
}

/// The smallest n ≥ 1 with k^n ≥ `nodes`, and k^n (saturating): N rounded up to a whole
/// dimension, as the simulator rounds it.
fn whole_dimensions(nodes: u64, k: u32) -> (u32, u64) {
    let mut n = 1;
    let mut size = k as u64;
    while size < nodes {
        n += 1;
        size = size.saturating_mul(k as u64);
    }
    (n, size)
}

/// The note for N rounded up to a whole dimension (or stage).
fn rounded_note(k: u32, nodes: u64, n: u32, rounded: u64, what: &str) -> String {
    format!("log_{k}({nodes}) is not a whole number: using n = {n}{what}, N = {k}^{n} = {rounded} processors")
}

impl Cube {
    /// The dimension count from `n` or `nodes` (N rounded up to a whole dimension, with a note
    /// in `notes`); N = k^n is computed without overflow and refused above 2^53 (the models'
    /// limit, which keeps N exact in floating point).
    pub fn dimensions(&self, notes: &mut Vec<String>) -> Result<u32, ModelError> {
        let k = self.k;
        if k < 2 {
            return Err(ModelError::request(
                "k",
                format!("--k {k} is invalid: the radix must be a whole number of at least 2"),
            ));
        }
        match (self.n, self.nodes) {
            (Some(0), _) => {
                Err(ModelError::request("n", "--n 0 is invalid: a k-ary n-cube needs at least one dimension"))
            }
            (Some(n), _) => {
                kary_ncube::network_size(k, n)
                    .map_err(|e| ModelError::request("n", format!("--k {k} --n {n} is too large: {e}")))?;
                Ok(n)
            }
            (None, None) => Ok(2),
            (None, Some(0)) => {
                Err(ModelError::request("nodes", "--nodes 0 is invalid: at least one processor is needed"))
            }
            (None, Some(nodes)) if nodes > MAX_NODES => Err(ModelError::request(
                "nodes",
                format!("--nodes {nodes} is too large: the models accept at most 2^53 = {MAX_NODES} nodes"),
            )),
            (None, Some(nodes)) => {
                let (n, rounded) = whole_dimensions(nodes, k);
                if rounded > MAX_NODES {
                    return Err(ModelError::request(
                        "nodes",
                        format!(
                            "--nodes {nodes} rounds up to a whole dimension, {k}^{n} nodes, more than the 2^53 the models accept: choose --k so that k^n is at most 2^53"
                        ),
                    ));
                }
                if rounded != nodes {
                    notes.push(rounded_note(k, nodes, n, rounded, ""));
                }
                Ok(n)
            }
        }
    }

    /// The model's parameters these options describe (n resolved as [`Cube::dimensions`]).
    pub fn params(&self, notes: &mut Vec<String>) -> Result<KaryNCube, ModelError> {
        let n = self.dimensions(notes)?;
        Ok(KaryNCube {
            locality: self.locality,
            wiring: wiring(self.bidirectional, self.no_wrap),
            form: self.contention,
            ..KaryNCube::new(self.k, n, self.rate, self.size as f64)
        })
    }

    fn check(&self) -> Result<(), ModelError> {
        at_least("k", self.k as u64, 2)?;
        if let Some(n) = self.n {
            at_least("n", n as u64, 1)?;
        }
        if let Some(nodes) = self.nodes {
            at_least("nodes", nodes, 1)?;
        }
        if self.n.is_some() && self.nodes.is_some() {
            return Err(conflict("nodes", "n"));
        }
        in_range("rate", self.rate, Range::Probability)?;
        at_least("size", self.size as u64, 1)?;
        in_range("locality", self.locality, Range::Fraction)
    }
}

impl Physical {
    /// The width constraint, if any, for a network of `nodes` nodes with the given wiring,
    /// checking it comes with `bits`.
    pub fn constraint(
        &self,
        nodes: f64,
        bidirectional: bool,
        wrap: bool,
    ) -> Result<Option<WidthConstraint>, ModelError> {
        let reference = |r: Reference| {
            let k0 = nodes.powf(1.0 / r.n0 as f64);
            agarwal::bisection_wires(nodes, k0, r.w0, bidirectional, wrap)
        };
        let c = match (self.width, self.pins, self.bisection, self.bisection_binary_cube, self.bisection_of) {
            (Some(bits), ..) => Some(WidthConstraint::Width { bits }),
            (_, Some(pins), ..) => Some(WidthConstraint::Pins { pins }),
            (_, _, Some(wires), ..) => Some(WidthConstraint::Bisection { wires }),
            (_, _, _, true, _) => {
                Some(WidthConstraint::Bisection { wires: agarwal::binary_cube_bisection(nodes) })
            }
            (.., Some(r)) => Some(WidthConstraint::Bisection { wires: reference(r) }),
            _ => None,
        };
        for (key, v) in
            [("width", self.width), ("pins", self.pins), ("bisection", self.bisection), ("bits", self.bits)]
        {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0)
            {
                return Err(ModelError::request(
                    key,
                    format!("--{key} {} is invalid: it must be a positive finite number", num(v)),
                ));
            }
        }
        match (self.bits, c) {
            (Some(_), None) => Err(ModelError::request(
                "bits",
                "--bits needs a channel width: give --width, --pins or --bisection (or --bisection-binary-cube, --bisection-of)",
            )),
            (None, Some(_)) => Err(ModelError::request(
                self.constraint_key(),
                "--width/--pins/--bisection set W; give --bits too so that B = L/W",
            )),
            _ => Ok(c),
        }
    }

    /// The key of the option that sets the width constraint.
    fn constraint_key(&self) -> &'static str {
        match (self.width, self.pins, self.bisection, self.bisection_of) {
            (Some(_), ..) => "width",
            (_, Some(_), ..) => "pins",
            (_, _, Some(_), _) => "bisection",
            (.., Some(_)) => "bisection-of",
            _ => "bisection-binary-cube",
        }
    }

    /// The option that set the width constraint, with its value, for messages.
    fn constraint_option(&self) -> String {
        match (self.width, self.pins, self.bisection, self.bisection_of) {
            (Some(w), ..) => format!("--width {}", num(w)),
            (_, Some(p), ..) => format!("--pins {}", num(p)),
            (_, _, Some(b), _) => format!("--bisection {}", num(b)),
            (.., Some(r)) => format!("--bisection-of {r}"),
            _ => "--bisection-binary-cube".into(),
        }
    }

    fn check(&self) -> Result<(), ModelError> {
        for (key, v) in
            [("bits", self.bits), ("width", self.width), ("pins", self.pins), ("bisection", self.bisection)]
        {
            positive(key, v)?;
        }
        let given: Vec<&'static str> = [
            ("width", self.width.is_some()),
            ("pins", self.pins.is_some()),
            ("bisection", self.bisection.is_some()),
            ("bisection-binary-cube", self.bisection_binary_cube),
            ("bisection-of", self.bisection_of.is_some()),
        ]
        .into_iter()
        .filter_map(|(key, on)| on.then_some(key))
        .collect();
        match given[..] {
            [first, second, ..] => Err(conflict(second, first)),
            _ => Ok(()),
        }
    }
}

impl KaryNCubeRequest {
    /// Checks every option's range (see the module docs).
    pub fn check(&self) -> Result<(), ModelError> {
        self.network.check()?;
        self.physical.check()?;
        self.delay.check()?;
        at_least("switch-pipeline", self.switch_pipeline as u64, 1)
    }

    /// Resolves and validates the request once, naming the option at fault: n from `n` or
    /// `nodes` (a note in `notes` when N is rounded up), the locality subcube, B from `size`
    /// or `bits` over W, and whether a forced contention form applies to this network.
    pub fn resolve(&self, notes: &mut Vec<String>) -> Result<KaryNCubeConfig, ModelError> {
        self.check()?;
        let mut network = self.network.params(notes)?;
        network.pipeline = self.switch_pipeline;
        let nodes = kary_ncube::network_size(network.k, network.n)?;
        let k_d = kary_ncube::distance_per_dimension(&network).map_err(|e| {
            let mesh = if network.wiring == Wiring::Mesh { " with --no-wrap" } else { "" };
            ModelError::request("locality", format!("--locality {}{mesh}: {e}", num(network.locality)))
        })?;
        if network.form.check(k_d).is_err() {
            return Err(ModelError::request(
                "contention",
                format!(
                    "--contention {} does not apply to this network: {} is negative for k_d < 1, and k_d = {} here; use --contention auto (the default, App. B's rule) or --contention small-kd",
                    network.form.name(),
                    network.form,
                    num(k_d)
                ),
            ));
        }
        let wrap = network.wiring != Wiring::Mesh;
        let bidir = network.wiring != Wiring::UnidirectionalTorus;
        let p = &self.physical;
        let constraint = p.constraint(nodes as f64, bidir, wrap)?;
        let mut width = None;
        if let (Some(bits), Some(c)) = (p.bits, constraint) {
            let w = agarwal::channel_width(c, nodes as f64, network.k as f64, network.n, bidir, wrap)
                .map_err(|e| {
                    ModelError::request(p.constraint_key(), format!("{}: {e}", p.constraint_option()))
                })?;
            network.size = bits / w;
            if !(network.size.is_finite() && network.size > 0.0) {
                return Err(ModelError::request(
                    "bits",
                    format!(
                        "--bits {} over a channel width of {} bits gives B = {} flits: it must be a positive finite number",
                        num(bits),
                        num(w),
                        num(network.size)
                    ),
                ));
            }
            width = Some(w);
        }
        Ok(KaryNCubeConfig {
            network,
            nodes,
            bits: p.bits,
            constraint,
            width,
            delays: self.delay.delays(width)?,
        })
    }
}

/// `model indirect`: the network and workload of the indirect-network model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct IndirectRequest {
    /// Switch size k (k×k crossbars), at least 2.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 2, value_parser = netwrap_topo::cli::small_count::<2>, allow_hyphen_values = true))]
    pub k: u32,
    /// Stages n, at least 1 (N = k^n at most 2^53).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with = "nodes", value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true))]
    pub n: Option<u32>,
    /// Processors N instead of n: n = log_k N, rounded up to a whole stage.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<1>, allow_hyphen_values = true))]
    pub nodes: Option<u64>,
    /// Request rate m: messages per processor per cycle, a probability in [0, 1].
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 0.04, value_parser = netwrap_topo::cli::probability, allow_hyphen_values = true))]
    pub rate: f64,
    /// Message length B in flits, positive.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4.0, value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub size: f64,
    /// Message length L in bits instead of --size: B = L/W. Needs --width or --pins.
    #[cfg_attr(feature = "cli", arg(long, conflicts_with = "size", value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub bits: Option<f64>,
    /// Channel width W in bits, positive.
    #[cfg_attr(feature = "cli", arg(long, conflicts_with = "pins", value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub width: Option<f64>,
    /// Signal pins per switch, positive: W = pins/(2k) (Agarwal 1991 §5.2).
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::positive, allow_hyphen_values = true))]
    pub pins: Option<f64>,
    /// Memory latency M added to every message, zero or positive (the homework's App. C).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 0.0, value_parser = netwrap_topo::cli::non_negative, allow_hyphen_values = true))]
    pub memory_latency: f64,
}

impl Default for IndirectRequest {
    fn default() -> Self {
        IndirectRequest {
            k: 2,
            n: None,
            nodes: None,
            rate: 0.04,
            size: 4.0,
            bits: None,
            width: None,
            pins: None,
            memory_latency: 0.0,
        }
    }
}

/// An indirect-network request resolved: the model's parameters, N, and B's bits and width.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IndirectConfig {
    /// The model's parameters.
    #[serde(flatten)]
    pub network: Indirect,
    /// Processors N = k^n.
    pub nodes: u64,
    /// Message length in bits, when given.
    pub bits: Option<f64>,
    /// Channel width W in bits, when `bits` is given.
    pub width: Option<f64>,
}

impl IndirectRequest {
    /// Checks every option's range (see the module docs).
    pub fn check(&self) -> Result<(), ModelError> {
        at_least("k", self.k as u64, 2)?;
        if let Some(n) = self.n {
            at_least("n", n as u64, 1)?;
        }
        if let Some(nodes) = self.nodes {
            at_least("nodes", nodes, 1)?;
        }
        if self.n.is_some() && self.nodes.is_some() {
            return Err(conflict("nodes", "n"));
        }
        in_range("rate", self.rate, Range::Probability)?;
        positive("size", Some(self.size))?;
        for (key, v) in [("bits", self.bits), ("width", self.width), ("pins", self.pins)] {
            positive(key, v)?;
        }
        if self.width.is_some() && self.pins.is_some() {
            return Err(conflict("pins", "width"));
        }
        in_range("memory-latency", self.memory_latency, Range::NonNegative)
    }

    /// Stages n from `n` or `nodes` (a note in `notes` when N is rounded up), with N = k^n at
    /// most 2^53 (the models' limit).
    fn stages(&self, notes: &mut Vec<String>) -> Result<u32, ModelError> {
        let k = self.k;
        let n = match (self.n, self.nodes) {
            (Some(n), _) => n,
            (None, None) => 2,
            (None, Some(nodes)) if nodes > MAX_NODES => {
                return Err(ModelError::request(
                    "nodes",
                    format!(
                        "--nodes {nodes} is too large: the models accept at most 2^53 = {MAX_NODES} processors"
                    ),
                ));
            }
            (None, Some(nodes)) => {
                let (n, rounded) = whole_dimensions(nodes, k);
                if rounded != nodes && rounded <= MAX_NODES {
                    notes.push(rounded_note(k, nodes, n, rounded, " stages"));
                }
                n
            }
        };
        kary_ncube::network_size(k, n).map_err(|_| {
            ModelError::request(
                if self.n.is_some() { "n" } else { "nodes" },
                format!(
                    "--k {k} with {n} stages connects {k}^{n} processors, more than the 2^53 the models accept (2^53 keeps N exact in floating point)"
                ),
            )
        })?;
        Ok(n)
    }

    /// Resolves the request once: n from `n` or `nodes`, B from `size` or `bits` over W.
    pub fn resolve(&self, notes: &mut Vec<String>) -> Result<IndirectConfig, ModelError> {
        self.check()?;
        let n = self.stages(notes)?;
        let width = match (self.bits, self.width, self.pins) {
            (Some(_), Some(w), _) => Some(w),
            (Some(_), None, Some(p)) => Some(p / (2.0 * self.k as f64)),
            (Some(_), None, None) => {
                return Err(ModelError::request(
                    "bits",
                    "--bits needs a channel width: give --width or --pins",
                ));
            }
            (None, Some(_), _) | (None, None, Some(_)) => {
                return Err(ModelError::request(
                    if self.width.is_some() { "width" } else { "pins" },
                    "--width/--pins set W; give --bits too so that B = L/W",
                ));
            }
            (None, None, None) => None,
        };
        let size = match (self.bits, width) {
            (Some(bits), Some(w)) => bits / w,
            _ => self.size,
        };
        if let (Some(bits), Some(w)) = (self.bits, width)
            && !(w > 0.0 && size.is_finite() && size > 0.0)
        {
            return Err(ModelError::request(
                "bits",
                format!(
                    "--bits {} over a channel width of {} bits gives B = {} flits: it must be a positive finite number",
                    num(bits),
                    num(w),
                    num(size)
                ),
            ));
        }
        let network = Indirect { k: self.k, n, rate: self.rate, size, memory_latency: self.memory_latency };
        let nodes = kary_ncube::network_size(self.k, n)?;
        Ok(IndirectConfig { network, nodes, bits: self.bits, width })
    }
}

/// `model fat-tree`: the fat-tree's size and workload, and the readings of Greenberg &
/// Guan's equations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct FatTreeRequest {
    /// Processors N = 4^n (4, 16, 64, …, up to 4^26).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1024, value_parser = netwrap_topo::cli::count::<1>, allow_hyphen_values = true))]
    pub nodes: u64,
    /// λ0: messages injected per processor per cycle, a probability in [0, 1].
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 0.001, value_parser = netwrap_topo::cli::probability, allow_hyphen_values = true))]
    pub rate: f64,
    /// Worm length in flits, from 1 to 1e9.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 32.0, value_parser = netwrap_topo::cli::worm_flits, allow_hyphen_values = true))]
    pub size: f64,
    /// Arrival rate of the two-server queues.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<Mg2Rate>(), default_value = "pair"))]
    pub mg2_rate: Mg2Rate,
    /// Turn probability in eq. 22.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<TurnProbability>(), default_value = "printed"))]
    pub turn: TurnProbability,
}

impl Default for FatTreeRequest {
    fn default() -> Self {
        FatTreeRequest {
            nodes: 1024,
            rate: 0.001,
            size: 32.0,
            mg2_rate: Mg2Rate::Pair,
            turn: TurnProbability::Printed,
        }
    }
}

impl FatTreeRequest {
    /// Checks every option's range (see the module docs).
    pub fn check(&self) -> Result<(), ModelError> {
        at_least("nodes", self.nodes, 1)?;
        in_range("rate", self.rate, Range::Probability)?;
        if !(1.0..=1e9).contains(&self.size) {
            return Err(ModelError::request(
                "size",
                format!("size = {} is invalid: it must be a worm length from 1 to 1e9 flits", num(self.size)),
            ));
        }
        Ok(())
    }

    /// The model's parameters, N checked to be a power of four.
    pub fn resolve(&self) -> Result<FatTree, ModelError> {
        self.check()?;
        crate::fat_tree::levels(self.nodes)
            .map_err(|e| ModelError::request("nodes", format!("--nodes: {e}")))?;
        Ok(FatTree {
            mg2_rate: self.mg2_rate,
            turn: self.turn,
            ..FatTree::new(self.nodes, self.rate, self.size)
        })
    }
}

/// `cost`: module pin count, bundles per module and total bundles of the inter-module
/// networks for a given bisection width (Raghunath & Ranade, Tables I and II).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct CostRequest {
    /// Packaging modules M, from 2 to 65536 (the rows are counted on the built graph).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 32, value_parser = netwrap_topo::cli::small_count::<2>, allow_hyphen_values = true))]
    pub modules: u32,
    /// Bisection width B in wires, at least 1.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 8192, value_parser = netwrap_topo::cli::count::<1>, allow_hyphen_values = true))]
    pub bisection: u64,
    /// Also an n-hop network with this many hops, at least 1 (repeatable).
    #[cfg_attr(feature = "cli", arg(long = "nhop", value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true))]
    pub nhop: Vec<u32>,
    /// Also a toroid of this many dimensions, at least 1 (repeatable).
    #[cfg_attr(feature = "cli", arg(long = "toroid", value_parser = netwrap_topo::cli::small_count::<1>, allow_hyphen_values = true))]
    pub toroid: Vec<u32>,
}

impl Default for CostRequest {
    fn default() -> Self {
        CostRequest { modules: 32, bisection: 8192, nhop: Vec::new(), toroid: Vec::new() }
    }
}

/// The most modules `cost` accepts: its rows are counted on the built inter-module graph,
/// and the 2-hop network on 2^16 modules already has 33 million channels (about 1.3 GB);
/// the papers' machines have tens to hundreds of modules.
pub const MAX_MODULES: u32 = 1 << 16;

impl CostRequest {
    /// Checks every option's range, and that the graphs fit in memory ([`MAX_MODULES`]).
    pub fn check(&self) -> Result<(), ModelError> {
        at_least("modules", self.modules as u64, 2)?;
        at_least("bisection", self.bisection, 1)?;
        for &h in &self.nhop {
            at_least("nhop", h as u64, 1)?;
        }
        for &d in &self.toroid {
            at_least("toroid", d as u64, 1)?;
        }
        if self.modules > MAX_MODULES {
            return Err(ModelError::request(
                "modules",
                format!(
                    "--modules {} is too large: cost counts pins and bundles on the built inter-module graph, which for more than {MAX_MODULES} modules needs gigabytes; give at most {MAX_MODULES}",
                    self.modules
                ),
            ));
        }
        Ok(())
    }
}

fn twenty_thousand() -> u64 {
    20_000
}

fn one() -> u64 {
    1
}

fn whole_locality() -> f64 {
    1.0
}

/// `design`: the constrained design question of the homework's Ex 7 for any inputs, and how
/// many of its answers to confirm by simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct DesignRequest {
    /// Processors N.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::count::<0>, allow_negative_numbers = true))]
    pub nodes: u64,
    /// Request rate m: messages per node per cycle.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::number, allow_negative_numbers = true))]
    pub rate: f64,
    /// Message length L in bits.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::number, allow_negative_numbers = true))]
    pub bits: f64,
    /// Locality fraction l.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1.0, value_parser = netwrap_topo::cli::number, allow_negative_numbers = true))]
    #[serde(default = "whole_locality")]
    pub locality: f64,
    /// Signal pins per switch (the constraint of the homework's Ex 7).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["bisection", "width"], required_unless_present_any = ["bisection", "width"], value_parser = netwrap_topo::cli::positive, allow_negative_numbers = true))]
    #[serde(default)]
    pub pins: Option<f64>,
    /// Wires across the bisection.
    #[cfg_attr(feature = "cli", arg(long, conflicts_with = "width", value_parser = netwrap_topo::cli::positive, allow_negative_numbers = true))]
    #[serde(default)]
    pub bisection: Option<f64>,
    /// A fixed channel width in bits.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::positive, allow_negative_numbers = true))]
    #[serde(default)]
    pub width: Option<f64>,
    /// Switch and wire delays; with them candidates rank by eq. 12's latency.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub delay: Delay,
    /// Channels both ways (bidirectional torus).
    #[cfg_attr(feature = "cli", arg(long))]
    #[serde(default)]
    pub bidirectional: bool,
    /// B = L/W instead of whole flits ⌈L/W⌉.
    #[cfg_attr(feature = "cli", arg(long))]
    #[serde(default)]
    pub fractional_flits: bool,
    /// Only networks with exactly N nodes (no rounding N up to k^n).
    #[cfg_attr(feature = "cli", arg(long))]
    #[serde(default)]
    pub exact_nodes: bool,
    /// Ranking order.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::choice::<RankBy>(), default_value = "latency"))]
    #[serde(default)]
    pub rank: RankBy,
    /// Show only the best K candidates.
    #[cfg_attr(feature = "cli", arg(long, value_parser = netwrap_topo::cli::whole, allow_negative_numbers = true))]
    #[serde(default)]
    pub top: Option<usize>,
    /// Confirm the best K candidates with the simulator (whole flits ⌈L/W⌉, the same
    /// locality and wiring), printing simulated latency beside the model's.
    #[cfg_attr(feature = "cli", arg(long, value_name = "K", value_parser = netwrap_topo::cli::whole, allow_negative_numbers = true))]
    #[serde(default)]
    pub simulate: Option<usize>,
    /// With --simulate: measured messages per simulation.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 20_000, value_parser = netwrap_topo::cli::count::<1>, allow_negative_numbers = true))]
    #[serde(default = "twenty_thousand")]
    pub messages: u64,
    /// With --simulate: seed of the simulations.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1, value_parser = netwrap_topo::cli::count::<0>, allow_negative_numbers = true))]
    #[serde(default = "one")]
    pub seed: u64,
}

impl DesignRequest {
    /// The homework's Ex 7 (see [`crate::design::exercise_7`]) with the command line's
    /// defaults: an example of a complete request.
    pub fn exercise_7() -> Self {
        let q = crate::design::exercise_7();
        let pins = match q.constraint {
            WidthConstraint::Pins { pins } => Some(pins),
            _ => None,
        };
        DesignRequest {
            nodes: q.nodes,
            rate: q.rate,
            bits: q.bits,
            locality: q.locality,
            pins,
            bisection: None,
            width: None,
            delay: Delay::default(),
            bidirectional: q.bidirectional,
            fractional_flits: q.fractional_flits,
            exact_nodes: q.exact_nodes,
            rank: q.rank_by,
            top: None,
            simulate: None,
            messages: twenty_thousand(),
            seed: one(),
        }
    }

    /// Validates the request into the model's query (the ranges of N, m, L and l are the
    /// search's to check, in its words).
    pub fn query(&self) -> Result<DesignQuery, ModelError> {
        let given: Vec<&'static str> = [
            ("pins", self.pins.is_some()),
            ("bisection", self.bisection.is_some()),
            ("width", self.width.is_some()),
        ]
        .into_iter()
        .filter_map(|(key, on)| on.then_some(key))
        .collect();
        if let [first, second, ..] = given[..] {
            return Err(conflict(second, first));
        }
        let constraint = match (self.pins, self.bisection, self.width) {
            (Some(pins), _, _) => WidthConstraint::Pins { pins },
            (_, Some(wires), _) => WidthConstraint::Bisection { wires },
            (_, _, Some(bits)) => WidthConstraint::Width { bits },
            _ => {
                return Err(ModelError::request("pins", "give a constraint: --pins, --bisection or --width"));
            }
        };
        for (key, v) in [("pins", self.pins), ("bisection", self.bisection), ("width", self.width)] {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0)
            {
                return Err(ModelError::request(
                    key,
                    format!("--{key} {} is invalid: the constraint must be a positive number", num(v)),
                ));
            }
        }
        self.delay.check()?;
        at_least("messages", self.messages, 1)?;
        Ok(DesignQuery {
            nodes: self.nodes,
            rate: self.rate,
            bits: self.bits,
            locality: self.locality,
            constraint,
            // A wire proportional to the channel width is given per unit width (W = 1, the
            // normalisation of T^w(2)) and taken at each candidate's W by the search.
            delays: self.delay.delays(Some(1.0))?,
            bidirectional: self.bidirectional,
            fractional_flits: self.fractional_flits,
            exact_nodes: self.exact_nodes,
            rank_by: self.rank,
        })
    }
}

/// The ranges a request's real option may take, in words.
#[derive(Clone, Copy)]
enum Range {
    Probability,
    Fraction,
    Positive,
    NonNegative,
}

impl Range {
    fn contains(self, x: f64) -> bool {
        x.is_finite()
            && match self {
                Range::Probability => (0.0..=1.0).contains(&x),
                Range::Fraction => x > 0.0 && x <= 1.0,
                Range::Positive => x > 0.0,
                Range::NonNegative => x >= 0.0,
            }
    }

    fn words(self) -> &'static str {
        match self {
            Range::Probability => "a probability in [0, 1]",
            Range::Fraction => "a fraction in (0, 1]",
            Range::Positive => "a positive finite number",
            Range::NonNegative => "zero or a positive finite number",
        }
    }
}

fn in_range(key: &'static str, x: f64, range: Range) -> Result<(), ModelError> {
    if range.contains(x) {
        Ok(())
    } else {
        Err(ModelError::request(key, format!("{key} = {} is invalid: it must be {}", num(x), range.words())))
    }
}

fn positive(key: &'static str, x: Option<f64>) -> Result<(), ModelError> {
    x.map_or(Ok(()), |x| in_range(key, x, Range::Positive))
}

fn non_negative(key: &'static str, x: Option<f64>) -> Result<(), ModelError> {
    x.map_or(Ok(()), |x| in_range(key, x, Range::NonNegative))
}

fn at_least(key: &'static str, x: u64, min: u64) -> Result<(), ModelError> {
    if x >= min {
        Ok(())
    } else {
        Err(ModelError::request(
            key,
            format!("{key} = {x} is invalid: it must be a whole number of at least {min}"),
        ))
    }
}

/// `key` given with `other`, which it cannot be.
fn conflict(key: &'static str, other: &str) -> ModelError {
    ModelError::request(key, format!("{key} cannot be given with {other}: give one of them"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> Result<T, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }

    /// Characterisation: requests read their keys as the flags spell them, every key
    /// optional with the command line's default, unknown keys refused (also through the
    /// flattened parts), and a reference torus as text or a pair.
    #[test]
    fn requests_read_flag_keys_and_refuse_unknown_ones() {
        let r: KaryNCubeRequest = read(json!({})).unwrap();
        assert_eq!(r, KaryNCubeRequest::default());
        assert_eq!((r.network.k, r.network.rate, r.network.size, r.delay.space_dims), (8, 0.04, 4, 2));
        let r: KaryNCubeRequest = read(
            json!({"k": 4, "no-wrap": true, "bisection-of": "2:32", "switch-delay": 1, "wire-delay": "unit"}),
        )
        .unwrap();
        assert!(r.network.no_wrap && r.delay.wire_delay == Some(WireModel::Unit));
        assert_eq!(r.physical.bisection_of, Some(Reference { n0: 2, w0: 32.0 }));
        let r: KaryNCubeRequest = read(json!({"bisection-of": [2, 32.0]})).unwrap();
        assert_eq!(r.physical.bisection_of.map(|r| r.to_string()), Some("2:32".into()));
        assert!(
            read::<KaryNCubeRequest>(json!({"bisection-of": "0:32"})).unwrap_err().contains("n0 must be")
        );
        assert_eq!(read::<KaryNCubeRequest>(json!({"kk": 1})).unwrap_err(), "unknown field `kk`");
        assert!(read::<FeedbackRequest>(json!({"threads": 2, "bits": 128, "k": 4})).is_ok());
        assert!(read::<FeedbackRequest>(json!({"thread": 2})).is_err());
        assert!(read::<FatTreeRequest>(json!({"mg2-rate": "per-link", "turn": "conditional"})).is_ok());
        assert!(read::<DesignRequest>(json!({"nodes": 64, "rate": 0.01})).unwrap_err().contains("bits"));
        let d: DesignRequest = read(json!({"nodes": 64, "rate": 0.01, "bits": 64, "pins": 32})).unwrap();
        assert_eq!((d.locality, d.messages, d.seed), (1.0, 20_000, 1));
        assert!(read::<DesignRequest>(json!({"nodes": 64, "rate": 0.01, "bits": 64, "pin": 32})).is_err());
        let c: CostRequest = read(json!({"nhop": [2, 3]})).unwrap();
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"modules":32,"bisection":8192,"nhop":[2,3],"toroid":[]}"#
        );
    }

    /// Characterisation: what the command line's value parsers refuse, `check` refuses, naming
    /// the key.
    #[test]
    fn checks_refuse_what_the_flags_refuse() {
        let key = |r: Result<(), ModelError>| r.unwrap_err().key().map(String::from);
        let cube = |f: &dyn Fn(&mut KaryNCubeRequest)| {
            let mut r = KaryNCubeRequest::default();
            f(&mut r);
            r.check()
        };
        assert_eq!(key(cube(&|r| r.network.rate = 2.0)), Some("rate".into()));
        assert_eq!(key(cube(&|r| r.network.k = 1)), Some("k".into()));
        assert_eq!(key(cube(&|r| r.network.locality = 0.0)), Some("locality".into()));
        assert_eq!(
            key(cube(&|r| (r.network.n, r.network.nodes) = (Some(2), Some(64)))),
            Some("nodes".into())
        );
        assert_eq!(
            key(cube(&|r| (r.physical.width, r.physical.pins) = (Some(2.0), Some(64.0)))),
            Some("pins".into())
        );
        assert_eq!(key(cube(&|r| r.delay.switch_delay = Some(-1.0))), Some("switch-delay".into()));
        let e = cube(&|r| r.network.rate = f64::NAN).unwrap_err().to_string();
        assert_eq!(e, "rate = NaN is invalid: it must be a probability in [0, 1]");
        let f = FeedbackRequest { threads: 0, ..FeedbackRequest::default() };
        assert_eq!(key(f.check()), Some("threads".into()));
        let i = IndirectRequest { memory_latency: -1.0, ..IndirectRequest::default() };
        assert_eq!(key(i.check()), Some("memory-latency".into()));
        let t = FatTreeRequest { size: 0.5, ..FatTreeRequest::default() };
        assert_eq!(key(t.check()), Some("size".into()));
        let c = CostRequest { modules: 65537, ..CostRequest::default() };
        assert!(c.check().unwrap_err().to_string().starts_with("--modules 65537 is too large"));
        let d = DesignRequest { bisection: Some(1.0), ..DesignRequest::exercise_7() };
        assert_eq!(d.query().unwrap_err().key(), Some("bisection"));
        assert_eq!(DesignRequest::exercise_7().query().unwrap(), crate::design::exercise_7());
    }

    /// Characterisation of `switch-pipeline` (Agarwal 1991 §3.2): read as the flag spells it,
    /// 1 by default (and then absent from the resolved JSON, as before it existed), carried to
    /// the model's p, and 0 refused naming the key.
    #[test]
    fn switch_pipeline_is_read_checked_and_resolved() {
        let r: KaryNCubeRequest = read(json!({"switch-pipeline": 3, "k": 10, "n": 3})).unwrap();
        let c = r.resolve(&mut Vec::new()).unwrap();
        assert_eq!(c.network.pipeline, 3);
        assert_eq!(serde_json::to_value(&c).unwrap()["switch_pipeline"], json!(3));
        let d = KaryNCubeRequest::default().resolve(&mut Vec::new()).unwrap();
        assert_eq!(d.network.pipeline, 1);
        assert!(serde_json::to_value(&d).unwrap().get("switch_pipeline").is_none());
        let zero = KaryNCubeRequest { switch_pipeline: 0, ..KaryNCubeRequest::default() };
        let e = zero.check().unwrap_err();
        assert_eq!(e.key(), Some("switch-pipeline"));
        assert_eq!(e.to_string(), "switch-pipeline = 0 is invalid: it must be a whole number of at least 1");
        assert_eq!(FeedbackRequest::default().cube().switch_pipeline, 1);
    }

    /// Verification of `wire-delay width` (Agarwal 1991 §4.2) through resolution: the 16-ary
    /// 3-cube (N = 4096) with a unit-width binary-cube bisection has W = k/2 = 8 and a longest
    /// wire of W·k^(n/2 − 1) = 8·4 = 32 = √4096/2, so s = 0 gives a clock period of 32. Without
    /// a width, or off the plane, it is refused naming the option.
    #[test]
    fn width_wire_takes_the_resolved_channel_width() {
        let r: KaryNCubeRequest = read(json!({
            "k": 16, "n": 3, "bits": 160, "bisection-binary-cube": true,
            "switch-delay": 0, "wire-delay": "width"
        }))
        .unwrap();
        let c = r.resolve(&mut Vec::new()).unwrap();
        assert_eq!(c.width, Some(8.0));
        assert_eq!(c.delays.unwrap().wire, agarwal::WireDelay::Width { bits: 8.0 });
        let t = c.timing(Some(30.0), 26.0).unwrap().unwrap();
        assert_eq!(t.clock_period, 32.0);
        let e = read::<KaryNCubeRequest>(json!({"wire-delay": "width"})).unwrap().resolve(&mut Vec::new());
        let e = e.unwrap_err();
        assert_eq!(e.key(), Some("wire-delay"));
        assert!(e.to_string().contains("give --bits with --width, --pins or --bisection"), "{e}");
        let off = KaryNCubeRequest { delay: Delay { space_dims: 3, ..r.delay.clone() }, ..r.clone() };
        assert_eq!(off.resolve(&mut Vec::new()).unwrap_err().key(), Some("space-dims"));
        let design = DesignRequest {
            delay: Delay { wire_delay: Some(WireModel::Width), ..Delay::default() },
            ..DesignRequest::exercise_7()
        };
        let q = design.query().unwrap();
        assert_eq!(q.delays.unwrap().wire, agarwal::WireDelay::Width { bits: 1.0 });
    }

    /// Characterisation: resolving names the option at fault as the command line spells it,
    /// and N rounded up is a note, not an error.
    #[test]
    fn resolving_names_the_option() {
        let mut notes = Vec::new();
        let mut r = KaryNCubeRequest::default();
        r.network.nodes = Some(100);
        let c = r.resolve(&mut notes).unwrap();
        assert_eq!((c.network.n, c.nodes), (3, 512));
        assert_eq!(notes, ["log_8(100) is not a whole number: using n = 3, N = 8^3 = 512 processors"]);
        r.physical.bits = Some(128.0);
        let e = r.resolve(&mut notes).unwrap_err();
        assert_eq!(e.key(), Some("bits"));
        assert!(e.to_string().starts_with("--bits needs a channel width"), "{e}");
        let i = IndirectRequest { nodes: Some(100), ..IndirectRequest::default() };
        let c = i.resolve(&mut notes).unwrap();
        assert_eq!((c.network.n, c.nodes), (7, 128));
        assert!(notes.last().unwrap().contains("n = 7 stages"));
        let t = FatTreeRequest { nodes: 100, ..FatTreeRequest::default() };
        assert!(t.resolve().unwrap_err().to_string().starts_with("--nodes: a butterfly fat-tree"));
    }
}
