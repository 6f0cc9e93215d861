//! Offered channel load of k-ary n-cubes, computed exactly from the traffic and the routing
//! without simulating, in O(k) per dimension: the stability criterion of a network of
//! unbounded queues (a channel offered one flit per cycle or more is saturated) and the
//! expected utilisation per channel class.

use netwrap_topo::CubeSpec;

/// What dimension-order routing does with a product traffic pattern on a k-ary n-cube, per
/// unit request rate (one message per terminal per cycle).
#[derive(Clone, Debug, PartialEq)]
pub struct CubeLoads {
    /// Messages per cycle on the busiest channel of each class (classes indexed as the cube's
    /// network numbers them: dimension i, or 2i for + and 2i + 1 for − when bidirectional).
    pub class_max: Vec<f64>,
    /// Mean over the channels of each class.
    pub class_mean: Vec<f64>,
    /// Expected hops of a message, self-addressed ones (0 hops) included.
    pub mean_hops: f64,
    /// The longest route.
    pub longest: u64,
}

/// Loads when each destination offset in dimension i is uniform over `0..sides[i]`
/// independently across dimensions (sides = k: uniform traffic; the locality subcube
/// otherwise, on tori only).
///
/// Under dimension-order routing a message crosses dimension i along one line of the cube;
/// with offsets independent of the source every line carries the same traffic, as if each of
/// its k positions sent one message per cycle with the dimension's offset distribution. On a
/// torus every channel of a (dimension, direction) class then carries the expected hops in
/// that direction; on a mesh the channel from j to j + 1 carries the (j + 1)(k − 1 − j)
/// position pairs that straddle it, over k (the middle channels carry the most). A message
/// exactly half-way round an even bidirectional ring goes either way with probability ½ (its
/// salt decides), so it adds ½ to each direction. The dimension order does not change the
/// loads of product patterns.
pub fn cube_loads(spec: &CubeSpec, sides: &[u32]) -> CubeLoads {
    let (mut class_max, mut class_mean) = (Vec::new(), Vec::new());
    let (mut mean_hops, mut longest) = (0.0, 0u64);
    for (&k, &side) in spec.radices.iter().zip(sides) {
        let k64 = k as u64;
        if spec.wrap {
            // (forward, backward) hops of each offset.
            let hops = |o: u64| -> (f64, f64) {
                if !spec.bidirectional {
                    (o as f64, 0.0)
                } else if 2 * o == k64 {
                    (o as f64 / 2.0, o as f64 / 2.0)
                } else if 2 * o < k64 {
                    (o as f64, 0.0)
                } else {
                    (0.0, (k64 - o) as f64)
                }
            };
            let (mut plus, mut minus, mut max) = (0.0, 0.0, 0u64);
            for o in 0..side as u64 {
                let (f, b) = hops(o);
                plus += f;
                minus += b;
                max = max.max((f + b) as u64);
            }
            let (plus, minus) = (plus / side as f64, minus / side as f64);
            mean_hops += plus + minus;
            longest += max;
            class_max.push(plus);
            class_mean.push(plus);
            if spec.bidirectional {
                class_max.push(minus);
                class_mean.push(minus);
            }
        } else {
            // A line: the channel j -> j+1 (and j+1 -> j) carries (j+1)(k-1-j) pairs.
            let pair = |j: u64| ((j + 1) * (k64 - 1 - j)) as f64 / k as f64;
            let middle = (k64 - 2) / 2;
            let mean = (0..k64 - 1).map(pair).sum::<f64>() / (k - 1) as f64;
            mean_hops += (k as f64 - 1.0 / k as f64) / 3.0;
            longest += k64 - 1;
            for _ in 0..2 {
                class_max.push(pair(middle));
                class_mean.push(mean);
            }
        }
    }
    CubeLoads { class_max, class_mean, mean_hops, longest }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(k: u32, n: u32, wrap: bool, bidirectional: bool) -> CubeSpec {
        CubeSpec { radices: vec![k; n as usize], wrap, bidirectional }
    }

    /// Verification: a unidirectional torus offers k_d = (k − 1)/2 per unit rate to every
    /// channel (Agarwal 1991 eq. 7 with m = B = 1), and k_dl = (s − 1)/2 with a subcube of side s.
    #[test]
    fn unidirectional_torus_load_is_k_d() {
        let l = cube_loads(&spec(8, 2, true, false), &[8, 8]);
        assert_eq!(l.class_max, vec![3.5, 3.5]);
        assert_eq!(l.class_mean, vec![3.5, 3.5]);
        assert_eq!((l.mean_hops, l.longest), (7.0, 14));
        let l = cube_loads(&spec(8, 2, true, false), &[4, 4]);
        assert_eq!(l.class_max, vec![1.5, 1.5]);
    }

    /// Verification: a bidirectional ring of even k carries k/8 per direction (k/4 hops split
    /// evenly); odd k carries (k − 1/k)/8.
    #[test]
    fn bidirectional_torus_load_is_half_k_d() {
        let l = cube_loads(&spec(8, 2, true, true), &[8, 8]);
        assert_eq!(l.class_max, vec![1.0; 4]);
        let l = cube_loads(&spec(7, 1, true, true), &[7]);
        assert!((l.class_max[0] - (7.0 - 1.0 / 7.0) / 8.0).abs() < 1e-12, "{l:?}");
    }

    /// Verification against counting pairs by hand: the middle channel of an 8-node line carries
    /// 4·4/8 = 2, and the class mean is the mean of (x+1)(7−x)/8.
    #[test]
    fn mesh_middle_channels_carry_k_over_4() {
        let l = cube_loads(&spec(8, 2, false, true), &[8, 8]);
        assert_eq!(l.class_max, vec![2.0; 4]);
        let mean = (0..7).map(|x| ((x + 1) * (7 - x)) as f64 / 8.0).sum::<f64>() / 7.0;
        assert!((l.class_mean[0] - mean).abs() < 1e-12);
        assert!((l.mean_hops - 2.0 * (8.0 - 1.0 / 8.0) / 3.0).abs() < 1e-12);
    }

    /// A ring of 2^20 nodes takes O(k): this would take hours at O(k³).
    #[test]
    fn large_rings_are_quick() {
        let l = cube_loads(&spec(1 << 20, 1, true, true), &[1 << 20]);
        assert_eq!(l.longest, 1 << 19);
    }
}
