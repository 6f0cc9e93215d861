//! Options shared by the models that take Agarwal 1991's physical parameters: message length
//! in bits with a channel-width constraint (§4), and switch and wire delays (§2, eq. 12).

use anyhow::bail;
use clap::{Args, ValueEnum};
use netwrap_model::agarwal::{self, Delays, WidthConstraint, WireDelay};
use netwrap_topo::cli::{non_negative, positive, small_count};
use serde::Serialize;

/// How wire delay grows with the dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WireArg {
    /// Every wire costs one 2-D wire delay (Agarwal 1991 Fig. 11(a)).
    Unit,
    /// The longest wire of the embedding, k^(n/z − 1) (Agarwal 1991 §2.2).
    Length,
}

/// Message length in bits with a width constraint, and switch/wire delays.
#[derive(Debug, Clone, Args, Serialize)]
pub struct PhysicalArgs {
    /// Message length L in bits (positive); B = L/W flits (real, as in Agarwal 1991). Needs
    /// --width, --pins or --bisection.
    #[arg(long, conflicts_with = "size", value_parser = positive, allow_hyphen_values = true)]
    pub bits: Option<f64>,
    /// Fixed channel width W in bits, positive (Agarwal 1991 §4.1).
    #[arg(long, conflicts_with_all = ["pins", "bisection"], value_parser = positive, allow_hyphen_values = true)]
    pub width: Option<f64>,
    /// Signal pins per switch, positive: W = pins / (channels per switch) (Agarwal 1991 §4.3).
    #[arg(long, conflicts_with = "bisection", value_parser = positive, allow_hyphen_values = true)]
    pub pins: Option<f64>,
    /// Wires across the bisection, positive: W = wires / (channels crossing it) (Agarwal 1991 §4.2).
    #[arg(long, conflicts_with_all = ["bisection_binary_cube", "bisection_of"], value_parser = positive, allow_hyphen_values = true)]
    pub bisection: Option<f64>,
    /// Bisection of a unit-width binary n-cube with the same N: N wires, so W = k/2
    /// (Agarwal 1991 §4.2).
    #[arg(long, conflicts_with_all = ["width", "pins", "bisection_of"])]
    pub bisection_binary_cube: bool,
    /// Bisection of the same-N torus with n0 dimensions and W0-bit channels, as `n0:W0`
    /// (Agarwal 1991 §5 normalises to 2:32, giving W = k at N = 1K).
    #[arg(long, value_name = "N0:W0", value_parser = parse_reference, allow_hyphen_values = true, conflicts_with_all = ["width", "pins"])]
    pub bisection_of: Option<(u32, f64)>,
    #[command(flatten)]
    #[serde(flatten)]
    pub delay: DelayArgs,
}

/// Switch and wire delays (Agarwal 1991 §2), shared by `model kary-ncube` and `design`.
#[derive(Debug, Clone, Args, Serialize)]
pub struct DelayArgs {
    /// Switch delay s in units of the 2-D wire delay T^w(2), zero or positive; adds eq. 12's
    /// latency_time.
    #[arg(long, value_parser = non_negative, allow_hyphen_values = true)]
    pub switch_delay: Option<f64>,
    /// Wire delay model (default `length` once delays are asked for).
    #[arg(long, value_enum)]
    pub wire_delay: Option<WireArg>,
    /// Dimensions z of the space the network is laid out in, at least 1 (the wire length
    /// k^(n/z − 1)).
    #[arg(long, default_value_t = 2, value_parser = small_count::<1>, allow_hyphen_values = true)]
    pub space_dims: u32,
}

impl PhysicalArgs {
    /// The width constraint, if any, for a network of `nodes` nodes with the given
    /// wiring, checking it comes with --bits.
    pub fn constraint(
        &self,
        nodes: f64,
        bidirectional: bool,
        wrap: bool,
    ) -> anyhow::Result<Option<WidthConstraint>> {
        let reference = |n0: u32, w0: f64| {
            let k0 = nodes.powf(1.0 / n0 as f64);
            agarwal::bisection_wires(nodes, k0, w0, bidirectional, wrap)
        };
        let c = match (self.width, self.pins, self.bisection, self.bisection_binary_cube, self.bisection_of) {
            (Some(bits), ..) => Some(WidthConstraint::Width { bits }),
            (_, Some(pins), ..) => Some(WidthConstraint::Pins { pins }),
            (_, _, Some(wires), ..) => Some(WidthConstraint::Bisection { wires }),
            (_, _, _, true, _) => {
                Some(WidthConstraint::Bisection { wires: agarwal::binary_cube_bisection(nodes) })
            }
            (.., Some((n0, w0))) => Some(WidthConstraint::Bisection { wires: reference(n0, w0) }),
            _ => None,
        };
        for (name, v) in [
            ("--width", self.width),
            ("--pins", self.pins),
            ("--bisection", self.bisection),
            ("--bits", self.bits),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0)
            {
                bail!("{name} {} is invalid: it must be a positive finite number", crate::output::num(v));
            }
        }
        match (self.bits, c) {
            (Some(_), None) => {
                bail!(
                    "--bits needs a channel width: give --width, --pins or --bisection (or --bisection-binary-cube, --bisection-of)"
                )
            }
            (None, Some(_)) => bail!("--width/--pins/--bisection set W; give --bits too so that B = L/W"),
            _ => Ok(c),
        }
    }

    /// The delays asked for, validated (`None`: neither option given).
    pub fn delays(&self) -> anyhow::Result<Option<Delays>> {
        self.delay.delays()
    }

    /// The option that set the width constraint, with its value, for messages.
    pub fn constraint_option(&self) -> String {
        use crate::output::num;
        match (self.width, self.pins, self.bisection, self.bisection_of) {
            (Some(w), ..) => format!("--width {}", num(w)),
            (_, Some(p), ..) => format!("--pins {}", num(p)),
            (_, _, Some(b), _) => format!("--bisection {}", num(b)),
            (.., Some((n0, w0))) => format!("--bisection-of {n0}:{}", num(w0)),
            _ => "--bisection-binary-cube".into(),
        }
    }
}

/// Parses `n0:W0` (a dimension count and a channel width).
fn parse_reference(s: &str) -> Result<(u32, f64), String> {
    let (n, w) = s.split_once(':').ok_or_else(|| format!("{s:?} is not of the form n0:W0, e.g. 2:32"))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| format!("{n:?} is not a dimension count n0 (a whole number of at least 1)"))?;
    let w: f64 = w
        .trim()
        .parse()
        .map_err(|_| format!("{w:?} is not a channel width W0 (a positive number of bits)"))?;
    if n == 0 || !(w.is_finite() && w > 0.0) {
        return Err(format!(
            "{s:?}: n0 must be a whole number of at least 1 and W0 a positive finite number"
        ));
    }
    Ok((n, w))
}

impl DelayArgs {
    /// The delays asked for, validated (`None`: neither option given).
    pub fn delays(&self) -> anyhow::Result<Option<Delays>> {
        if self.switch_delay.is_none() && self.wire_delay.is_none() {
            return Ok(None);
        }
        let s = self.switch_delay.unwrap_or(0.0);
        if !(s.is_finite() && s >= 0.0) {
            bail!(
                "--switch-delay {} is invalid: it must be zero or a positive finite number",
                crate::output::num(s)
            );
        }
        if self.space_dims == 0 {
            bail!("--space-dims 0 is invalid: the layout needs at least one dimension");
        }
        let wire = match self.wire_delay.unwrap_or(WireArg::Length) {
            WireArg::Unit => WireDelay::Unit,
            WireArg::Length => WireDelay::Length { space_dims: self.space_dims },
        };
        Ok(Some(Delays { switch_delay: s, wire }))
    }
}
