//! Where messages go (destination patterns) and how long they are (message sizes).
//!
//! Destinations of `uniform` include the source itself (the homework's App. A: "randomly
//! chosen from among all the nodes"); the model's k_d = (k−1)/2 counts that case as distance 0,
//! and so do we. A self-addressed message uses no channel and is delivered B cycles after its
//! creation (the time to hand its B flits to the processor), exactly the T0 = n·k_d + B the
//! model assigns to distance 0. The permutations below send some nodes to themselves (the
//! transpose's diagonal, bit-reversal's palindromes); those messages are self-addressed in the
//! same way.
//!
//! A pattern is an enum matched per message (one engine copy per routing type, not per
//! pattern); `pick` draws from the source's own stream only, so every terminal's sequence of
//! destinations is reproducible on its own. Fixed permutations are tables built once, so a
//! message costs one lookup.

use crate::rng::{Purpose, Stream};
use netwrap_topo::{KaryNCube, TerminalId};
use serde::{Deserialize, Serialize};

/// In a [`Pattern::Fixed`] table: the source sends nothing (a fixed point, its self traffic
/// excluded).
pub const SILENT: TerminalId = u32::MAX;
/// In a [`Pattern::Fixed`] table: the source sends to a terminal drawn uniformly among the
/// others (a fixed point, its self traffic rerouted).
pub const ELSEWHERE: TerminalId = u32::MAX - 1;

/// A built destination pattern.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// Uniform over this many terminals, the source included.
    Uniform(u32),
    /// Uniform over the other terminals of this many (CAMINOS' uniform; BookSim2's includes the
    /// source).
    UniformOthers(u32),
    /// A fixed destination per source: `table[src]` (the permutations), or [`SILENT`] or
    /// [`ELSEWHERE`].
    Fixed(Vec<TerminalId>),
    /// A fraction of messages to hot-spot nodes, the rest uniform.
    Hotspot(Hotspot),
    /// A locality subcube on a torus.
    CubeLocality(CubeLocality),
    /// Group shift: to a uniformly chosen terminal of the group `shift` groups on.
    GroupShift(GroupShift),
}

impl Pattern {
    /// The terminals that send (all but a permutation's [`SILENT`] fixed points).
    pub fn senders(&self) -> Option<u32> {
        match self {
            Pattern::Fixed(table) => Some(Self::table_senders(table)),
            _ => None,
        }
    }

    /// The sources of a [`Pattern::Fixed`] table that send (all but the [`SILENT`] ones).
    pub fn table_senders(table: &[TerminalId]) -> u32 {
        table.iter().filter(|&&d| d != SILENT).count() as u32
    }

    /// The flows of a [`Pattern::Fixed`] table, `(source, destination, weight)` per unit rate:
    /// one per source, none from a [`SILENT`] one, and from an [`ELSEWHERE`] one a weight
    /// 1/(N−1) to every other terminal.
    pub fn table_flows(table: &[TerminalId]) -> Vec<(TerminalId, TerminalId, f64)> {
        let n = table.len() as u32;
        let mut flows = Vec::with_capacity(table.len());
        for (s, &d) in (0..n).zip(table) {
            match d {
                SILENT => {}
                ELSEWHERE => {
                    let w = 1.0 / (n - 1) as f64;
                    flows.extend((0..n).filter(|&t| t != s).map(|t| (s, t, w)));
                }
                d => flows.push((s, d, 1.0)),
            }
        }
        flows
    }

    /// The destination of a message created at terminal `src`.
    #[inline]
    pub fn pick(&self, src: TerminalId, stream: &mut Stream) -> TerminalId {
        match self {
            Pattern::Uniform(terminals) => stream.below(*terminals),
            Pattern::UniformOthers(terminals) => {
                let d = stream.below(*terminals - 1);
                if d >= src { d + 1 } else { d }
            }
            Pattern::Fixed(table) => match table[src as usize] {
                ELSEWHERE => Pattern::UniformOthers(table.len() as u32).pick(src, stream),
                d => d,
            },
            Pattern::Hotspot(h) => h.pick(stream),
            Pattern::CubeLocality(l) => l.pick(src, stream),
            Pattern::GroupShift(g) => g.pick(src, stream),
        }
    }
}

/// Hot-spot traffic: each message goes with probability `fraction` to one of the hot-spot
/// nodes (chosen uniformly among them), otherwise uniformly over every node, the source
/// included (as `uniform`).
#[derive(Clone, Debug)]
pub struct Hotspot {
    /// The hot-spot nodes.
    pub nodes: Vec<TerminalId>,
    /// Probability that a message goes to a hot spot.
    pub fraction: f64,
    /// Terminals of the network.
    pub terminals: u32,
}

impl Hotspot {
    /// A destination: a hot spot with probability `fraction`, else uniform.
    #[inline]
    pub fn pick(&self, stream: &mut Stream) -> TerminalId {
        if stream.unit_open0() <= self.fraction {
            self.nodes[stream.below(self.nodes.len() as u32) as usize]
        } else {
            stream.below(self.terminals)
        }
    }
}

/// Group shift, the dragonfly's adversarial pattern (Kim, Dally, Scott & Abts 2008's worst-case
/// traffic): every terminal of group i sends to a uniformly chosen terminal of group
/// i + shift mod groups. Group i holds the terminals `i·size .. (i + 1)·size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupShift {
    /// Terminals per group.
    pub size: u32,
    /// Groups.
    pub groups: u32,
    /// Groups on, 1 ≤ shift < groups.
    pub shift: u32,
}

impl GroupShift {
    /// The group `src`'s messages go to.
    #[inline]
    pub fn target(&self, src: TerminalId) -> u32 {
        ((src / self.size) as u64 + self.shift as u64).rem_euclid(self.groups as u64) as u32
    }

    /// A destination: a uniform terminal of the target group.
    #[inline]
    pub fn pick(&self, src: TerminalId, stream: &mut Stream) -> TerminalId {
        self.target(src) * self.size + stream.below(self.size)
    }
}

/// Message lengths in flits: one length, or Puente et al.'s bimodal mix of short and long
/// messages (§5.1: 20 phits, and 10% of 200).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MessageSize {
    /// Every message has this many flits.
    Fixed(u32),
    /// `long` flits with probability `long_fraction`, else `short`.
    Bimodal {
        /// Length of a short message.
        short: u32,
        /// Length of a long message.
        long: u32,
        /// Probability that a message is long, in (0, 1].
        long_fraction: f64,
    },
}

impl MessageSize {
    /// A message's length, drawn from `stream` (a fixed size draws nothing).
    #[inline]
    pub fn pick(&self, stream: &mut Stream) -> u32 {
        match *self {
            MessageSize::Fixed(s) => s,
            MessageSize::Bimodal { short, long, long_fraction } => {
                if stream.unit_open0() <= long_fraction {
                    long
                } else {
                    short
                }
            }
        }
    }

    /// Mean length in flits: short·(1 − f) + long·f.
    pub fn mean(&self) -> f64 {
        match *self {
            MessageSize::Fixed(s) => s as f64,
            MessageSize::Bimodal { short, long, long_fraction: f } => {
                short as f64 * (1.0 - f) + long as f64 * f
            }
        }
    }

    /// The longest message.
    pub fn max(&self) -> u32 {
        match *self {
            MessageSize::Fixed(s) => s,
            MessageSize::Bimodal { short, long, .. } => short.max(long),
        }
    }

    /// Mean cycles a message holds a channel `width` flits wide: E⌈B / width⌉.
    pub fn mean_hold(&self, width: u64) -> f64 {
        let hold = |b: u32| (b as u64).div_ceil(width) as f64;
        match *self {
            MessageSize::Fixed(s) => hold(s),
            MessageSize::Bimodal { short, long, long_fraction: f } => {
                hold(short) * (1.0 - f) + hold(long) * f
            }
        }
    }

    /// Whether lengths are drawn (so the engines need a size stream per terminal).
    pub fn is_random(&self) -> bool {
        matches!(self, MessageSize::Bimodal { .. })
    }
}

/// Bits of N when N is a power of two (at least 2).
fn address_bits(n: u32) -> Option<u32> {
    (n >= 2 && n.is_power_of_two()).then(|| n.trailing_zeros())
}

fn need_power_of_two(name: &str, n: u32, what: &str) -> String {
    format!(
        "workload.pattern = {name} does not fit N = {n} nodes: it needs N a power of two, at least 2 ({what}) (--pattern)"
    )
}

/// Matrix transpose (Puente et al. §5.1): node numbers as a k × k matrix, row-major, node
/// y·k + x sends to x·k + y. With N = 2^(2b) this is the classic swap of the upper and lower b
/// address bits; we accept any square N = k² (a square k-ary 2-cube's coordinates are exactly
/// these), and refuse others.
pub fn transpose(n: u32) -> Result<Vec<TerminalId>, String> {
    let k = n.isqrt();
    if k * k != n || n < 4 {
        return Err(format!(
            "workload.pattern = transpose does not fit N = {n} nodes: it needs N a square k², at least 4 (node y·k + x sends to x·k + y) (--pattern)"
        ));
    }
    Ok((0..n).map(|s| (s % k) * k + s / k).collect())
}

/// Bit reversal (Puente et al. §5.1): with N = 2^b, node a_(b−1)…a_0 sends to a_0…a_(b−1).
pub fn bit_reversal(n: u32) -> Result<Vec<TerminalId>, String> {
    let b = address_bits(n)
        .ok_or_else(|| need_power_of_two("bit-reversal", n, "its b address bits are reversed"))?;
    Ok((0..n).map(|s| s.reverse_bits() >> (32 - b)).collect())
}

/// Perfect shuffle (Puente et al. §5.1): with N = 2^b, the address rotated left by one bit,
/// a_(b−1)…a_0 → a_(b−2)…a_0 a_(b−1).
pub fn shuffle(n: u32) -> Result<Vec<TerminalId>, String> {
    let b =
        address_bits(n).ok_or_else(|| need_power_of_two("shuffle", n, "its b address bits are rotated"))?;
    Ok((0..n).map(|s| ((s << 1) | (s >> (b - 1))) & (n - 1)).collect())
}

/// Bit complement (Dally & Towles, *Principles and Practices of Interconnection Networks*,
/// §3.2): with N = 2^b, every address bit inverted, d = N − 1 − s.
pub fn bit_complement(n: u32) -> Result<Vec<TerminalId>, String> {
    address_bits(n)
        .ok_or_else(|| need_power_of_two("bit-complement", n, "its b address bits are inverted"))?;
    Ok((0..n).map(|s| n - 1 - s).collect())
}

/// Adds `offset(k)` to every coordinate of a k-ary n-cube's node numbers (dimension 0
/// fastest, as the cube numbers its nodes), modulo k.
fn shift_coordinates(radices: &[u32], offset: impl Fn(u32) -> u32) -> Vec<TerminalId> {
    let n: u32 = radices.iter().product();
    (0..n)
        .map(|s| {
            let (mut rest, mut stride, mut d) = (s, 1, 0);
            for &k in radices {
                let c = rest % k;
                rest /= k;
                d += ((c + offset(k)) % k) * stride;
                stride *= k;
            }
            d
        })
        .collect()
}

/// Tornado (Dally & Towles §3.2): on a k-ary n-cube every coordinate advances by ⌈k/2⌉ − 1,
/// d_i = s_i + ⌈k/2⌉ − 1 mod k: the farthest a unidirectional or minimal torus route goes
/// without a tie.
pub fn tornado(radices: &[u32]) -> Vec<TerminalId> {
    shift_coordinates(radices, |k| k.div_ceil(2) - 1)
}

/// Neighbour (Dally & Towles §3.2): on a k-ary n-cube every coordinate advances by one,
/// d_i = s_i + 1 mod k.
pub fn neighbor(radices: &[u32]) -> Vec<TerminalId> {
    shift_coordinates(radices, |k| 1 % k)
}

/// Dimension shift: every coordinate kept but dimension 0's, which advances by `s`,
/// d_0 = s_0 + s mod k_0.
pub fn dimension_shift(radices: &[u32], s: u32) -> Vec<TerminalId> {
    let k0 = radices.first().copied().unwrap_or(1).max(1);
    let n: u32 = radices.iter().product();
    (0..n).map(|r| r - r % k0 + (r % k0 + s % k0) % k0).collect()
}

/// A random permutation of N nodes (Fisher–Yates), drawn from its own stream of the run's
/// seed: the same for a seed on any thread count, different across seeds.
pub fn permutation(n: u32, seed: u64) -> Vec<TerminalId> {
    let mut s = Stream::new(seed, 0, Purpose::Permutation);
    let mut p: Vec<TerminalId> = (0..n).collect();
    for i in (1..n).rev() {
        let j = s.below(i + 1);
        p.swap(i as usize, j as usize);
    }
    p
}

/// A pattern on application node numbers moved onto network node numbers: application node p
/// runs on network node `map[p]`, so network node `map[p]` sends to `map[f(p)]`.
pub fn remap(table: &[TerminalId], map: &[TerminalId]) -> Vec<TerminalId> {
    let mut out = vec![0; table.len()];
    for (p, &d) in table.iter().enumerate() {
        out[map[p] as usize] = map[d as usize];
    }
    out
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

    /// Verification: hand-computed destinations on 16 nodes (4 address bits, a 4 × 4 matrix).
    /// Transpose: 1 = (x 1, y 0) → (x 0, y 1) = 4; 6 = (2, 1) → (1, 2) = 9. Bit reversal: 0001 →
    /// 1000 = 8, 0011 → 1100 = 12. Shuffle rotates left: 0001 → 0010 = 2, 1000 → 0001 = 1,
    /// 1011 → 0111 = 7. Bit complement: 1 → 14.
    #[test]
    fn permutations_send_hand_computed_nodes_where_the_definitions_say() {
        let t = transpose(16).unwrap();
        assert_eq!((t[1], t[6], t[0], t[15], t[4]), (4, 9, 0, 15, 1));
        let r = bit_reversal(16).unwrap();
        assert_eq!((r[1], r[3], r[6], r[15]), (8, 12, 6, 15));
        let sh = shuffle(16).unwrap();
        assert_eq!((sh[1], sh[8], sh[11], sh[15]), (2, 1, 7, 15));
        assert_eq!(bit_complement(16).unwrap()[1], 14);
        // Transpose on N = 2^(2b) is the swap of the upper and lower b bits (Puente et al.):
        // 64 nodes, b = 3: 0b000_101 = 5 → 0b101_000 = 40.
        assert_eq!(transpose(64).unwrap()[5], 40);
        // Non-square N that is a square: 9 nodes, 3 × 3: 5 = (2, 1) → (1, 2) = 7.
        assert_eq!(transpose(9).unwrap()[5], 7);
    }

    /// Verification: tornado and neighbour on coordinates (dimension 0 fastest). On an 8-ring
    /// tornado adds ⌈8/2⌉ − 1 = 3; on a 5 × 4 torus it adds (2, 1): node 0 → 2 + 5·1 = 7, node
    /// (4, 3) = 19 → (1, 0) = 1. Neighbour adds 1 in every dimension: (4, 3) → (0, 0).
    #[test]
    fn tornado_and_neighbor_shift_every_coordinate() {
        assert_eq!(tornado(&[8]), vec![3, 4, 5, 6, 7, 0, 1, 2]);
        let t = tornado(&[5, 4]);
        assert_eq!((t[0], t[19]), (7, 1));
        let n = neighbor(&[5, 4]);
        assert_eq!((n[0], n[19], n[4]), (6, 0, 5));
    }

    /// Verification: every fixed pattern is a bijection (a permutation of the nodes), so every
    /// node receives exactly one source's messages; the random permutation is one for every
    /// seed, reproducible, and differs between seeds.
    #[test]
    fn fixed_patterns_are_bijections() {
        let is_perm = |t: &[u32]| {
            let mut seen = vec![false; t.len()];
            t.iter().all(|&d| !std::mem::replace(&mut seen[d as usize], true))
        };
        for n in [4u32, 16, 64, 256, 1024] {
            assert!(is_perm(&bit_reversal(n).unwrap()), "bit-reversal {n}");
            assert!(is_perm(&shuffle(n).unwrap()), "shuffle {n}");
            assert!(is_perm(&bit_complement(n).unwrap()), "bit-complement {n}");
        }
        for n in [4u32, 9, 16, 25, 256] {
            assert!(is_perm(&transpose(n).unwrap()), "transpose {n}");
        }
        for radices in [vec![8], vec![5, 4], vec![3, 3, 3], vec![2; 6]] {
            assert!(is_perm(&tornado(&radices)) && is_perm(&neighbor(&radices)), "{radices:?}");
        }
        for seed in 0..20 {
            assert!(is_perm(&permutation(100, seed)));
        }
        assert_eq!(permutation(100, 7), permutation(100, 7));
        assert_ne!(permutation(100, 7), permutation(100, 8));
    }

    /// Verification: the rules. Bit patterns need N = 2^b, transpose N = k².
    #[test]
    fn patterns_that_do_not_fit_say_the_rule() {
        for (e, rule) in [
            (bit_reversal(24).unwrap_err(), "power of two"),
            (shuffle(1).unwrap_err(), "power of two"),
            (bit_complement(12).unwrap_err(), "power of two"),
            (transpose(32).unwrap_err(), "square"),
        ] {
            assert!(e.contains(rule) && e.contains("N = "), "{e}");
        }
    }

    /// Verification: application-to-network remapping. With map = [2, 0, 1] and the
    /// application pattern p → p + 1 mod 3, network node map(p) sends to map(p + 1): 2 → 0,
    /// 0 → 1, 1 → 2.
    #[test]
    fn remap_moves_a_pattern_onto_network_numbers() {
        assert_eq!(remap(&[1, 2, 0], &[2, 0, 1]), vec![1, 2, 0]);
        assert_eq!(remap(&[1, 0, 2], &[2, 0, 1]), vec![2, 1, 0]);
    }

    /// Verification: uniform-others never picks the source and is uniform over the other N − 1
    /// nodes. Chi-square with 8 degrees of freedom over 90,000 draws from source 4 of 10: the
    /// 99.9% quantile is 26.12, so a correct sampler fails this one time in a thousand (and the
    /// seed is fixed, so never).
    #[test]
    fn uniform_others_is_uniform_over_the_other_nodes() {
        let u = Pattern::UniformOthers(10);
        let mut s = Stream::new(5, 4, Purpose::Traffic);
        let mut counts = [0u64; 10];
        let draws = 90_000u64;
        for _ in 0..draws {
            counts[u.pick(4, &mut s) as usize] += 1;
        }
        assert_eq!(counts[4], 0);
        let expected = draws as f64 / 9.0;
        let chi2: f64 = counts
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != 4)
            .map(|(_, &c)| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 26.12, "chi-square {chi2}: {counts:?}");
    }

    /// Verification: hot-spot traffic sends fraction f to the hot spots plus their uniform
    /// share (1 − f)/N each. With f = 0.2, two hot spots of N = 10: each receives
    /// 0.1 + 0.08 = 0.18 of the messages. 100,000 draws: binomial standard deviation
    /// √(0.18·0.82/10⁵) = 0.0012; the bound is 5 of them.
    #[test]
    fn hotspots_receive_their_fraction() {
        let h = Pattern::Hotspot(Hotspot { nodes: vec![3, 7], fraction: 0.2, terminals: 10 });
        let mut s = Stream::new(2, 0, Purpose::Traffic);
        let mut counts = [0u64; 10];
        let n = 100_000;
        for _ in 0..n {
            counts[h.pick(0, &mut s) as usize] += 1;
        }
        for hot in [3, 7] {
            let p = counts[hot] as f64 / n as f64;
            assert!((p - 0.18).abs() < 5.0 * 0.0012, "{p}");
        }
        let cold = counts[0] as f64 / n as f64;
        assert!((cold - 0.08).abs() < 5.0 * (0.08f64 * 0.92 / n as f64).sqrt(), "{cold}");
    }

    /// Verification: a bimodal mix's mean length is short·(1 − f) + long·f (Puente et al.:
    /// 20·0.9 + 200·0.1 = 38), and the sample mean of 200,000 draws lies within four
    /// standard errors of it (the lengths' standard deviation is (200 − 20)·√(0.1·0.9) = 54).
    #[test]
    fn bimodal_mean_size_is_the_mix() {
        let b = MessageSize::Bimodal { short: 20, long: 200, long_fraction: 0.1 };
        assert!((b.mean() - 38.0).abs() < 1e-12);
        assert_eq!(b.max(), 200);
        assert_eq!(MessageSize::Fixed(7).pick(&mut Stream::new(1, 0, Purpose::Size)), 7);
        let mut s = Stream::new(1, 0, Purpose::Size);
        let n = 200_000;
        let mean = (0..n).map(|_| b.pick(&mut s) as f64).sum::<f64>() / n as f64;
        let se = 54.0 / (n as f64).sqrt();
        assert!((mean - 38.0).abs() < 4.0 * se, "{mean}");
        // Holding a 4-flit-wide channel: ⌈20/4⌉ = 5 and ⌈200/4⌉ = 50, mean 9.5.
        assert!((b.mean_hold(4) - 9.5).abs() < 1e-12);
    }
}
