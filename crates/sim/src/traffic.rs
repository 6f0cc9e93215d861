//! Where messages go: destination patterns.
//!
//! Destinations include the source itself (the homework's App. A: "randomly chosen from among
//! all the nodes"); the model's k_d = (k−1)/2 counts that case as distance 0, and so do we. A
//! self-addressed message uses no channel and is delivered B cycles after its creation (the
//! time to hand its B flits to the processor), exactly the T0 = n·k_d + B the model assigns to
//! distance 0.
//!
//! A pattern is an enum matched per message (one engine copy per routing type, not per
//! pattern); `pick` draws from the source's own stream only, so every terminal's sequence of
//! destinations is reproducible on its own.

use crate::rng::Stream;
use netwrap_topo::{KaryNCube, TerminalId};
use serde::{Deserialize, Serialize};

/// A built destination pattern.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// Uniform over this many terminals, the source included.
    Uniform(u32),
    /// A locality subcube on a torus.
    CubeLocality(CubeLocality),
}

impl Pattern {
    /// The destination of a message created at terminal `src`.
    #[inline]
    pub fn pick(&self, src: TerminalId, stream: &mut Stream) -> TerminalId {
        match self {
            Pattern::Uniform(terminals) => stream.below(*terminals),
            Pattern::CubeLocality(l) => l.pick(src, stream),
        }
    }
}

/// Agarwal 1991 §5.1 / the homework (before Ex 5) locality on a torus: uniform over the subcube of
/// side s = (lN)^(1/n) = l^(1/n)·k with a corner at the source, extending in the + direction
/// of every dimension and wrapping round the end-around connections.
///
/// When l^(1/n)·k is not whole, the side is rounded to the nearest whole number of nodes
/// (halves up), and at least 1; the locality actually simulated, Π sᵢ / N, is reported as
/// `effective_locality` so the model can be evaluated at the same point.
#[derive(Clone, Debug)]
pub struct CubeLocality {
    sides: Vec<u32>,
    strides: Vec<u32>,
    radices: Vec<u32>,
}

/// The subcube actually used for a locality fraction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalitySubcube {
    /// Side in each dimension.
    pub sides: Vec<u32>,
    /// Nodes in the subcube over nodes in the network.
    pub effective_locality: f64,
}

impl CubeLocality {
    /// The subcube for fraction `l` of `cube` (a torus; the caller checks).
    pub fn new(cube: &KaryNCube, l: f64) -> Self {
        let radices = cube.spec().radices.clone();
        let sides = subcube(&radices, l).sides;
        let mut strides = Vec::with_capacity(radices.len());
        let mut s = 1;
        for &k in &radices {
            strides.push(s);
            s *= k;
        }
        CubeLocality { sides, strides, radices }
    }
}

/// The subcube sides and effective locality for fraction `l` on a cube with `radices`.
pub fn subcube(radices: &[u32], l: f64) -> LocalitySubcube {
    let n = radices.len() as f64;
    let sides: Vec<u32> =
        radices.iter().map(|&k| ((l.powf(1.0 / n) * k as f64).round() as u32).clamp(1, k)).collect();
    let nodes: f64 = radices.iter().map(|&k| k as f64).product();
    let effective_locality = sides.iter().map(|&s| s as f64).product::<f64>() / nodes;
    LocalitySubcube { sides, effective_locality }
}

impl CubeLocality {
    /// A destination in `src`'s subcube.
    #[inline]
    pub fn pick(&self, src: TerminalId, stream: &mut Stream) -> TerminalId {
        let mut dst = 0;
        for i in 0..self.sides.len() {
            let k = self.radices[i];
            let c = (src / self.strides[i]) % k;
            let o = stream.below(self.sides[i]);
            let d = if c + o >= k { c + o - k } else { c + o };
            dst += d * self.strides[i];
        }
        dst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Purpose;
    use netwrap_topo::{CubeSpec, DimensionOrder};

    /// The homework: from (i, j) destinations lie in i ≤ x ≤ i + √(lN) − 1, j ≤ y ≤ j + √(lN) − 1
    /// (mod k), and every node of that subcube is reached.
    #[test]
    fn locality_destinations_fill_exactly_the_subcube_at_the_source_corner() {
        let cube = KaryNCube::new(CubeSpec::torus(8, 2), DimensionOrder::HighestFirst).unwrap();
        let loc = CubeLocality::new(&cube, 0.25); // side 4
        assert_eq!(loc.sides, vec![4, 4]);
        let src = 6 + 8 * 7; // (6, 7): the subcube wraps in both dimensions
        let mut s = Stream::new(3, src, Purpose::Traffic);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..5000 {
            let d = loc.pick(src, &mut s);
            let (x, y) = (d % 8, d / 8);
            assert!((x + 8 - 6) % 8 < 4 && (y + 8 - 7) % 8 < 4, "({x},{y}) outside the subcube");
            seen.insert(d);
        }
        assert_eq!(seen.len(), 16);
    }

    #[test]
    fn non_whole_sides_round_to_nearest() {
        // l = 0.5 on 64 nodes: sqrt(32) = 5.66 -> 6, effective 36/64.
        let s = subcube(&[8, 8], 0.5);
        assert_eq!(s.sides, vec![6, 6]);
        assert!((s.effective_locality - 36.0 / 64.0).abs() < 1e-12);
        // Tiny l keeps at least the source itself.
        assert_eq!(subcube(&[8, 8], 1e-6).sides, vec![1, 1]);
    }

    #[test]
    fn uniform_covers_every_terminal_including_the_source() {
        let u = Pattern::Uniform(5);
        let mut s = Stream::new(1, 2, Purpose::Traffic);
        let mut counts = [0u32; 5];
        for _ in 0..50_000 {
            counts[u.pick(2, &mut s) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (c as f64 - 10_000.0).abs() < 500.0), "{counts:?}");
    }
}
