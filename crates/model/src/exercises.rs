//! The homework's derivation exercises as functions: Ex 4 (mean hops on a unidirectional
//! ring) and Ex 6 (locality in the k-ary n-cube model).

/// The homework's Ex 4: mean hops on a unidirectional ring of k nodes when every node, itself
/// included, is an equally likely destination: Σ_{d=0}^{k−1} d / k = (k − 1)/2 (Agarwal 1991
/// eq. 1). Excluding the source: Σ_{d=1}^{k−1} d / (k − 1) = k/2.
pub fn ring_mean_hops(k: u32, include_self: bool) -> f64 {
    let k = k as f64;
    if include_self { (k - 1.0) / 2.0 } else { k / 2.0 }
}

/// The homework's Ex 6: with locality l, destinations lie in the subcube of side
/// s = (lN)^(1/n) = l^(1/n)·k with a corner at the source, so the offset in each dimension
/// is uniform on 0..s and k_d becomes k_dl = (s − 1)/2 = (l^(1/n)·k − 1)/2 (the same as
/// Agarwal 1991 §5.1). Substituting k_dl for k_d in ρ and T is the whole modification.
pub fn locality_kd(k: f64, n: u32, locality: f64) -> f64 {
    (locality.powf(1.0 / n as f64) * k - 1.0) / 2.0
}

/// The homework's Ex 6 (Agarwal 1991 §5.1): locality raises the peak throughput 1/(B·k_d) by the
/// factor k_d/k_dl, which tends to 1/l^(1/n) for large k.
pub fn locality_throughput_gain(k: f64, n: u32, locality: f64) -> f64 {
    ((k - 1.0) / 2.0) / locality_kd(k, n, locality)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ex 4 by enumeration: from node 0 a message to node d travels d hops.
    #[test]
    fn ring_by_enumeration() {
        for k in 1..40u32 {
            let total: u32 = (0..k).sum();
            assert_eq!(ring_mean_hops(k, true), total as f64 / k as f64);
            if k > 1 {
                assert_eq!(ring_mean_hops(k, false), total as f64 / (k - 1) as f64);
            }
        }
    }

    /// Ex 6 by enumeration over whole subcubes: side s gives mean offset (s − 1)/2 and the
    /// model's k_dl.
    #[test]
    fn locality_by_enumeration() {
        let (k, n) = (8u32, 2u32);
        for side in 1..=k {
            let l = (side as f64 / k as f64).powi(n as i32);
            let mean: f64 = (0..side).map(f64::from).sum::<f64>() / side as f64;
            assert!((locality_kd(k as f64, n, l) - mean).abs() < 1e-12);
            let model = crate::kary_ncube::locality_distance_per_dimension(
                k,
                n,
                l,
                crate::kary_ncube::Wiring::UnidirectionalTorus,
            )
            .unwrap();
            assert!((model - mean).abs() < 1e-12);
        }
    }

    #[test]
    fn locality_gain_tends_to_l_power() {
        let gain = locality_throughput_gain(1e6, 2, 0.81);
        assert!((gain - 1.0 / 0.9).abs() < 1e-5);
        assert_eq!(locality_throughput_gain(32.0, 2, 1.0), 1.0);
    }
}
