//! Buffered indirect (multistage, e.g. Omega) networks after Kruskal and Snir: Agarwal 1991
//! eqs. 13–14 and the homework's Appendix C, which are the same model (App. C adds the memory
//! latency M).
//!
//! An n-stage network of k×k switches connects N = kⁿ processors; every message crosses all
//! n stages. With B-flit messages at rate m, each channel is busy ρ = m·B of the time, and
//! each stage adds the wait w = ρB/(2(1 − ρ)) · (1 − 1/k) of an output queue fed by k
//! inputs with binomially distributed arrivals.

use crate::error::{Domain, ModelError, check, check_finite};
use serde::Serialize;

/// Inputs of the indirect-network model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Indirect {
    /// Switch size k (k×k crossbars).
    pub k: u32,
    /// Stages n (N = kⁿ).
    pub n: u32,
    /// Request rate m: messages per processor per cycle.
    pub rate: f64,
    /// Message length B in flits.
    pub size: f64,
    /// Memory latency M (the homework's App. C; 0 in Agarwal 1991 eq. 13).
    pub memory_latency: f64,
}

/// What the indirect-network model predicts; the field names match
/// [`crate::kary_ncube::Prediction`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IndirectPrediction {
    /// Channel utilisation ρ = m·B.
    pub utilization: f64,
    /// Contention per stage w (Agarwal 1991 eq. 14); `None` when saturated.
    pub contention_per_switch: Option<f64>,
    /// Unloaded latency n + M + B.
    pub unloaded_latency: f64,
    /// Latency T = n(1 + w) + M + B (Agarwal 1991 eq. 13, the homework's App. C); `None` when saturated.
    pub latency: Option<f64>,
    /// Accepted messages per processor per cycle.
    pub throughput: f64,
    /// Offered messages per processor per cycle.
    pub offered: f64,
    /// True when ρ ≥ 1.
    pub saturated: bool,
    /// Highest sustainable rate, m = 1/B (Agarwal 1991 §5.2).
    pub max_rate: f64,
    /// Hops: every message crosses the n stages.
    pub mean_hops: f64,
}

/// Contention per stage w = ρB/(2(1 − ρ)) · (1 − 1/k) (Agarwal 1991 eq. 14; Kruskal and Snir).
pub fn contention_per_stage(rho: f64, size: f64, k: f64) -> f64 {
    rho * size / (2.0 * (1.0 - rho)) * (1.0 - 1.0 / k)
}

/// Evaluates T = [1 + ρB/(2(1 − ρ)) · (k − 1)/k]·n + M + B with ρ = m·B (the homework's App. C;
/// Agarwal 1991 eqs. 13–14 with M = 0).
pub fn predict(p: &Indirect) -> Result<IndirectPrediction, ModelError> {
    if p.k < 2 {
        return Err(ModelError::Invalid(format!("switch size k = {} is invalid: k must be at least 2", p.k)));
    }
    if p.n < 1 {
        return Err(ModelError::Invalid("stages n = 0 is invalid: n must be at least 1".into()));
    }
    crate::kary_ncube::network_size(p.k, p.n).map_err(|_| {
        ModelError::Invalid(format!(
            "{n} stages of {k}x{k} switches connect {k}^{n} processors, more than the 2^53 the models accept (2^53 keeps N exact in floating point)",
            n = p.n,
            k = p.k
        ))
    })?;
    check("the request rate m", p.rate, Domain::Probability)?;
    check("the message length B", p.size, Domain::Positive)?;
    check("the memory latency M", p.memory_latency, Domain::NonNegative)?;
    let prediction = evaluate(p.k as f64, p.n, p.rate, p.size, p.memory_latency);
    check_finite(&[prediction.unloaded_latency, prediction.utilization, prediction.latency.unwrap_or(0.0)])?;
    Ok(prediction)
}

/// [`predict`] without validation, for a real switch size (used by the figures).
pub fn evaluate(k: f64, n: u32, rate: f64, size: f64, memory_latency: f64) -> IndirectPrediction {
    let utilization = rate * size;
    let saturated = utilization >= 1.0;
    let max_rate = 1.0 / size;
    let (w, latency) = if saturated {
        (None, None)
    } else {
        let w = contention_per_stage(utilization, size, k);
        (Some(w), Some(n as f64 * (1.0 + w) + memory_latency + size))
    };
    IndirectPrediction {
        utilization,
        contention_per_switch: w,
        unloaded_latency: n as f64 + memory_latency + size,
        latency,
        throughput: if saturated { max_rate.min(1.0) } else { rate },
        offered: rate,
        saturated,
        max_rate,
        mean_hops: n as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Agarwal 1991 §5.2: the 1K-processor network of 4×4 switches (n = 5) with 128 pins per
    /// switch has W = 128/(2k) = 16, so B = 128/16 = 8 and saturates at m = 1/B = 0.125.
    #[test]
    fn agarwal_section5_2_saturation_rate() {
        let w = 128.0 / (2.0 * 4.0);
        assert_eq!(w, 16.0);
        let p = predict(&Indirect { k: 4, n: 5, rate: 0.01, size: 128.0 / w, memory_latency: 0.0 }).unwrap();
        assert_eq!(p.max_rate, 0.125);
        let sat = predict(&Indirect {
            rate: 0.125,
            ..Indirect { k: 4, n: 5, rate: 0.0, size: 8.0, memory_latency: 0.0 }
        });
        assert!(sat.unwrap().saturated);
    }

    /// Agarwal 1991 eq. 13 with eq. 14 and the homework's App. C written out by hand.
    #[test]
    fn eq13_14_and_appendix_c_agree() {
        let (k, n, m, b, mem) = (2u32, 10u32, 0.05, 4.0, 3.0);
        let rho: f64 = m * b;
        let w = rho * b / (2.0 * (1.0 - rho)) * (1.0 - 1.0 / k as f64);
        let eq13 = n as f64 * (1.0 + w) + b;
        let app_c = (1.0 + rho * b / (2.0 * (1.0 - rho)) * (k as f64 - 1.0) / k as f64) * n as f64 + mem + b;
        let p = predict(&Indirect { k, n, rate: m, size: b, memory_latency: 0.0 }).unwrap();
        assert!((p.latency.unwrap() - eq13).abs() < 1e-12);
        let p = predict(&Indirect { k, n, rate: m, size: b, memory_latency: mem }).unwrap();
        assert!((p.latency.unwrap() - app_c).abs() < 1e-12);
        // ρ = 0.2, w = 0.2·4/1.6·0.5 = 0.25: T = 10·1.25 + 4 = 16.5.
        assert!((eq13 - 16.5).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_inputs() {
        let ok = Indirect { k: 4, n: 5, rate: 0.01, size: 8.0, memory_latency: 0.0 };
        assert!(predict(&ok).is_ok());
        assert!(predict(&Indirect { k: 1, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { n: 0, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { rate: -1.0, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { size: 0.0, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { rate: f64::NAN, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { rate: 2.0, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { size: f64::INFINITY, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { memory_latency: -1.0, ..ok.clone() }).is_err());
        // N = k^n is checked without wrapping: (2^32 − 1)^(2^32 − 1) is refused, not read as 0.
        assert!(predict(&Indirect { k: u32::MAX, n: u32::MAX, ..ok.clone() }).is_err());
        assert!(predict(&Indirect { k: 2, n: 53, ..ok.clone() }).is_ok());
        assert!(predict(&Indirect { k: 2, n: 54, ..ok.clone() }).is_err());
        // Valid inputs whose result leaves floating point.
        assert!(predict(&Indirect { rate: 0.0, size: 1e300, memory_latency: f64::MAX, ..ok }).is_err());
    }
}
