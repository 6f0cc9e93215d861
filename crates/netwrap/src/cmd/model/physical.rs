//! Options shared by the models that take seed 000's physical parameters: message length in
//! bits with a channel-width constraint (§4), and switch and wire delays (§2, eq. 12).

use anyhow::bail;
use clap::{Args, ValueEnum};
use netwrap_model::agarwal::{Delays, WidthConstraint, WireDelay};
use serde::Serialize;

/// How wire delay grows with the dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WireArg {
    /// Every wire costs one 2-D wire delay (seed 000 Fig. 11(a)).
    Unit,
    /// The longest wire of the embedding, k^(n/z − 1) (seed 000 §2.2).
    Length,
}

/// Message length in bits with a width constraint, and switch/wire delays.
#[derive(Debug, Clone, Args, Serialize)]
pub struct PhysicalArgs {
    /// Message length L in bits; B = L/W flits (real, as in seed 000). Needs --width, --pins or --bisection.
    #[arg(long, conflicts_with = "size")]
    pub bits: Option<f64>,
    /// Fixed channel width W in bits (seed 000 §4.1).
    #[arg(long, conflicts_with_all = ["pins", "bisection"])]
    pub width: Option<f64>,
    /// Signal pins per switch: W = pins / (channels per switch) (seed 000 §4.3).
    #[arg(long, conflicts_with = "bisection")]
    pub pins: Option<f64>,
    /// Wires across the bisection: W = wires / (channels crossing it) (seed 000 §4.2).
    #[arg(long)]
    pub bisection: Option<f64>,
    /// Switch delay s in units of the 2-D wire delay T^w(2); adds eq. 12's latency_time.
    #[arg(long)]
    pub switch_delay: Option<f64>,
    /// Wire delay model (default `length` once delays are asked for).
    #[arg(long, value_enum)]
    pub wire_delay: Option<WireArg>,
    /// Dimensions z of the space the network is laid out in (the wire length k^(n/z − 1)).
    #[arg(long, default_value_t = 2)]
    pub space_dims: u32,
}

impl PhysicalArgs {
    /// The width constraint, if any, checking it comes with --bits.
    pub fn constraint(&self) -> anyhow::Result<Option<WidthConstraint>> {
        let c = match (self.width, self.pins, self.bisection) {
            (Some(bits), _, _) => Some(WidthConstraint::Width { bits }),
            (_, Some(pins), _) => Some(WidthConstraint::Pins { pins }),
            (_, _, Some(wires)) => Some(WidthConstraint::Bisection { wires }),
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
                bail!("{name} {v} is invalid: it must be a positive number");
            }
        }
        match (self.bits, c) {
            (Some(_), None) => bail!("--bits needs a channel width: give --width, --pins or --bisection"),
            (None, Some(_)) => bail!("--width/--pins/--bisection set W; give --bits too so that B = L/W"),
            _ => Ok(c),
        }
    }

    /// The delays, if --switch-delay or --wire-delay was given.
    pub fn delays(&self) -> anyhow::Result<Option<Delays>> {
        if self.switch_delay.is_none() && self.wire_delay.is_none() {
            return Ok(None);
        }
        let s = self.switch_delay.unwrap_or(0.0);
        if !(s.is_finite() && s >= 0.0) {
            bail!("--switch-delay {s} is invalid: it must be a non-negative number");
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
