//! Reproducible random streams: every (seed, node, purpose) triple gets its own generator, so
//! results never depend on the order in which nodes are processed or on thread count.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoroshiro128PlusPlus;

/// What a stream is used for; distinct purposes never share numbers.
#[derive(Clone, Copy, Debug)]
#[repr(u64)]
pub enum Purpose {
    /// Message generation at a node: gaps, destinations, tie-break salts.
    Traffic = 1,
    /// Message lengths of a bimodal size mix: its own stream, so that a run's arrivals and
    /// destinations are those of the same run with fixed sizes.
    Size = 2,
    /// The random permutation of the `permutation` pattern (drawn once per run, node 0).
    Permutation = 3,
    /// A processor's compute intervals between accesses (threads, periodic phases): its own
    /// stream, so that its destinations are drawn as an open-loop source's are.
    Interval = 4,
    /// A collective's random placement of ranks on nodes (drawn once per run, node 0).
    Placement = 5,
}

/// SplitMix64 finaliser: a bijective mix used to derive stream seeds.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A node's generator (16 bytes).
#[derive(Clone, Debug)]
pub struct Stream(Xoroshiro128PlusPlus);

impl Stream {
    /// The stream for `node` and `purpose` under `seed`.
    pub fn new(seed: u64, node: u32, purpose: Purpose) -> Self {
        let key = mix(mix(seed) ^ mix(((purpose as u64) << 32) | node as u64));
        Stream(Xoroshiro128PlusPlus::seed_from_u64(key))
    }
    /// 64 uniform bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// 32 uniform bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.0.next_u64() >> 32) as u32
    }
    /// Uniform integer in `0..n` (Lemire's multiply-shift; bias below 2^-32 for n < 2^32).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
    /// Uniform in (0, 1].
    #[inline]
    pub fn unit_open0(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Cycles until the next Bernoulli(p) success, counting the current one as 0: the number of
/// failures before a success, drawn by inversion so one draw replaces a coin per cycle.
///
/// `log_q` is ln(1 − p), computed as `(-p).ln_1p()` so tiny rates keep their value. A gap
/// too long for 64 bits (p below about 1e-300 gives infinity) saturates to `u64::MAX`:
/// "never" within any run; p = 1 gives 0 every time.
#[inline]
pub fn geometric_gap(stream: &mut Stream, log_q: f64) -> u64 {
    // Float-to-integer casts saturate: +inf and huge values give u64::MAX; -0.0 gives 0.
    (stream.unit_open0().ln() / log_q) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_distinct_and_reproducible() {
        let a: Vec<u64> = (0..4).map(|_| Stream::new(1, 0, Purpose::Traffic).next_u64()).collect();
        assert!(a.iter().all(|&x| x == a[0]));
        assert_ne!(
            Stream::new(1, 0, Purpose::Traffic).next_u64(),
            Stream::new(1, 1, Purpose::Traffic).next_u64()
        );
        assert_ne!(
            Stream::new(1, 0, Purpose::Traffic).next_u64(),
            Stream::new(2, 0, Purpose::Traffic).next_u64()
        );
    }

    #[test]
    fn geometric_gaps_have_the_bernoulli_mean() {
        let p: f64 = 0.05;
        let mut s = Stream::new(7, 3, Purpose::Traffic);
        let log_q = (-p).ln_1p();
        let n = 200_000;
        let mean = (0..n).map(|_| geometric_gap(&mut s, log_q) as f64).sum::<f64>() / n as f64;
        // Failures before success: mean (1 - p) / p = 19; standard error ~ 0.04.
        assert!((mean - 19.0).abs() < 0.2, "{mean}");
        assert_eq!(geometric_gap(&mut s, (-1.0f64).ln_1p()), 0);
    }

    /// Verification: tiny rates stay tiny. At m = 1e-17 the mean gap is 1e17 cycles (a draw
    /// below 1e15 has probability about 1%); at the smallest positive float no gap fits in 64
    /// bits.
    #[test]
    fn tiny_rates_give_long_gaps() {
        let mut s = Stream::new(1, 0, Purpose::Traffic);
        let log_q = (-1e-17f64).ln_1p();
        let gaps: Vec<u64> = (0..100).map(|_| geometric_gap(&mut s, log_q)).collect();
        assert!(gaps.iter().filter(|&&g| g < 1_000_000_000_000_000).count() < 10, "{gaps:?}");
        let log_q = (-f64::from_bits(1)).ln_1p();
        assert!((0..100).all(|_| geometric_gap(&mut s, log_q) == u64::MAX));
    }
}
