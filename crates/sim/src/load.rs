//! Offered channel load, computed exactly from the traffic and the routing, without
//! simulating: the stability criterion of a network of unbounded queues (a channel offered
//! one flit per cycle or more is saturated) and the expected utilisation per channel class.

use netwrap_topo::{DimensionOrder, KaryNCube};

/// Expected flits per cycle on channels, per unit of m·B (multiply by m·B for a load).
#[derive(Clone, Debug, PartialEq)]
pub struct LoadProfile {
    /// The most loaded channel.
    pub max: f64,
    /// Mean over the channels of each class, indexed like the network's classes.
    pub class_mean: Vec<f64>,
}

/// Channel loads of a k-ary n-cube under dimension-order routing when each destination
/// offset in dimension i is uniform over `0..sides[i]` (sides = k for uniform traffic; the
/// locality subcube otherwise), independently across dimensions.
///
/// Under dimension-order routing a message crosses dimension i along one line of the cube;
/// with offsets independent of the source, every line carries the same traffic, so a channel's
/// load is the sum over the k source positions a of the probability that the 1-D segment from
/// a with offset o crosses it. Exact for tori and meshes alike (mesh channels are uneven:
/// the middle ones carry the most). The dimension order does not change loads of product
/// distributions; it is accepted for clarity.
pub fn cube_load(cube: &KaryNCube, sides: &[u32], _order: DimensionOrder) -> LoadProfile {
    let spec = cube.spec();
    let mut max: f64 = 0.0;
    let mut class_mean = Vec::new();
    for (i, &k) in spec.radices.iter().enumerate() {
        let side = sides[i];
        let p = 1.0 / side as f64;
        // line[x][dir]: load on the channel leaving position x in direction dir (0 = +, 1 = −).
        let mut line = vec![[0.0f64; 2]; k as usize];
        for a in 0..k {
            for o in 0..side {
                let b = if spec.wrap { (a + o) % k } else { a + o };
                if !spec.wrap && b >= k {
                    continue; // locality on meshes is refused upstream
                }
                let forward = (b + k - a) % k;
                let (dir, len) = if !spec.bidirectional {
                    (0, forward)
                } else if !spec.wrap {
                    if b >= a { (0, b - a) } else { (1, a - b) }
                } else if forward * 2 == k {
                    // Half-way round an even ring: the salt sends half each way.
                    for step in 0..forward {
                        line[((a + step) % k) as usize][0] += p * 0.5;
                        line[((a + k - step) % k) as usize][1] += p * 0.5;
                    }
                    continue;
                } else if forward * 2 < k {
                    (0, forward)
                } else {
                    (1, k - forward)
                };
                for step in 0..len {
                    let x = if dir == 0 { (a + step) % k } else { (a + k - step) % k };
                    line[x as usize][dir] += p;
                }
            }
        }
        let dirs = if spec.bidirectional { 2 } else { 1 };
        for d in 0..dirs {
            // Mesh ends have no channel leaving the cube.
            let present: Vec<f64> = line
                .iter()
                .enumerate()
                .filter(|&(x, _)| spec.wrap || (d == 0 && x + 1 < k as usize) || (d == 1 && x > 0))
                .map(|(_, l)| l[d])
                .collect();
            max = present.iter().copied().fold(max, f64::max);
            class_mean.push(present.iter().sum::<f64>() / present.len().max(1) as f64);
        }
    }
    LoadProfile { max, class_mean }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netwrap_topo::CubeSpec;

    fn cube(k: u32, n: u32, wrap: bool, bi: bool) -> KaryNCube {
        KaryNCube::new(
            CubeSpec { radices: vec![k; n as usize], wrap, bidirectional: bi },
            DimensionOrder::HighestFirst,
        )
        .unwrap()
    }

    #[test]
    fn unidirectional_torus_load_is_k_d() {
        let c = cube(8, 2, true, false);
        let l = cube_load(&c, &[8, 8], DimensionOrder::HighestFirst);
        assert!((l.max - 3.5).abs() < 1e-12);
        assert_eq!(l.class_mean, vec![3.5, 3.5]);
        // Locality side 4: k_dl = 1.5.
        let l = cube_load(&c, &[4, 4], DimensionOrder::HighestFirst);
        assert!((l.max - 1.5).abs() < 1e-12);
    }

    #[test]
    fn bidirectional_torus_load_is_half_k_d() {
        let l = cube_load(&cube(8, 2, true, true), &[8, 8], DimensionOrder::HighestFirst);
        assert!((l.max - 1.0).abs() < 1e-12, "{l:?}");
        let l = cube_load(&cube(7, 1, true, true), &[7], DimensionOrder::HighestFirst);
        assert!((l.max - (7.0 - 1.0 / 7.0) / 8.0).abs() < 1e-12, "{l:?}");
    }

    #[test]
    fn mesh_middle_channels_carry_k_over_4() {
        let l = cube_load(&cube(8, 2, false, true), &[8, 8], DimensionOrder::HighestFirst);
        assert!((l.max - 2.0).abs() < 1e-12, "{l:?}");
        // Mean over the 7 channels per direction: sum of (x+1)(7-x)/8 over x = 0..6, / 7.
        let mean = (0..7).map(|x| ((x + 1) * (7 - x)) as f64 / 8.0).sum::<f64>() / 7.0;
        assert!((l.class_mean[0] - mean).abs() < 1e-12);
    }
}
