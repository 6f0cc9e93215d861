//! The Slim Fly (Besta & Hoefler 2014, "Slim Fly: A Cost Effective Low-Diameter Network
//! Topology", SC 2014): the McKay–Miller–Širáň (MMS) graph of diameter 2, with p terminals per
//! router.
//!
//! # The graph
//! For a prime power q = 4w + δ, δ ∈ {−1, 0, 1}, and a primitive element ξ of GF(q), the 2q²
//! routers are (0, x, y) and (1, m, c) with x, y, m, c ∈ GF(q), joined by
//! * (0, x, y)–(0, x, y') iff y − y' ∈ X,
//! * (1, m, c)–(1, m, c') iff c − c' ∈ X',
//! * (0, x, y)–(1, m, c) iff y = m·x + c,
//!
//! with Besta & Hoefler's generator sets, each closed under negation:
//! * δ = 1: X = {1, ξ², …, ξ^(q−3)}, X' = {ξ, ξ³, …, ξ^(q−2)};
//! * δ = 0: X = {1, ξ², …, ξ^(q−2)}, X' = {ξ, ξ³, …, ξ^(q−1)};
//! * δ = −1: X = {1, ξ², …, ξ^(2w−2), ξ^(2w−1), ξ^(2w+1), …, ξ^(4w−3)},
//!   X' = {ξ, ξ³, …, ξ^(2w−1), ξ^(2w), ξ^(2w+2), …, ξ^(4w−2)}.
//!
//! Every router has q channels to the other subgraph and |X| = |X'| = (q − δ)/2 within its
//! own: degree k' = (3q − δ)/2. The tests check diameter 2 and regularity by breadth-first
//! search for every δ, prime and prime-power q (q = 5 gives the Hoffman–Singleton graph).
//!
//! GF(q) = GF(p^n) is GF(p)[t] modulo a monic polynomial f of degree n of which t is a
//! primitive element (found by search: t has order q − 1 modulo f, which also proves f
//! irreducible, since then every nonzero residue is a power of t and so a unit); ξ = t. An
//! element is the integer Σ a_i·p^i of its coefficients, so for prime q it is the residue
//! itself.
//!
//! # Numbering
//! Router (s, a, b) is `s·q² + a·q + b`; terminal `t` sits at router `t / p`. A router's
//! channels are its (q − δ)/2 channels within its subgraph (class `intra 0` or `intra 1`, in
//! the order of the generators ξ^i, i increasing), then its q channels to the other subgraph
//! (class `inter`, in increasing m from (0, x, y), increasing x from (1, m, c)).
//!
//! # Routing
//! Minimal: the channel to the destination router when it is a neighbour, otherwise the
//! channel to every common neighbour (the diameter is 2), each tested in O(1) by the
//! adjacency rules above; no table.
//!
//! # Terminals
//! Besta & Hoefler's balanced concentration (for full global bandwidth) is p = ⌈k'/2⌉, the
//! default.

use crate::TopoError;
use crate::network::{Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId};

fn invalid(msg: String) -> TopoError {
    TopoError::Invalid(msg)
}

/// The prime p and exponent n with q = p^n, if q is a prime power.
fn prime_power(q: u32) -> Option<(u32, u32)> {
    if q < 2 {
        return None;
    }
    let p = (2..)
        .take_while(|d: &u32| (*d as u64) * (*d as u64) <= q as u64)
        .find(|d| q.is_multiple_of(*d))
        .unwrap_or(q);
    let (mut rest, mut n) = (q, 0);
    while rest.is_multiple_of(p) {
        rest /= p;
        n += 1;
    }
    (rest == 1).then_some((p, n))
}

/// δ ∈ {−1, 0, 1} with q = 4w + δ, and the router degree k' = (3q − δ)/2, for a prime power q
/// (≥ 3; q = 2 is 4w + 2); the reason otherwise.
pub fn degree(q: u32) -> Result<(i32, u32), TopoError> {
    if prime_power(q).is_none() {
        return Err(invalid(format!(
            "q = {q} is invalid: a Slim Fly (MMS graph, Besta & Hoefler 2014) needs q a prime power (3, 4, 5, 7, 8, 9, 11, 13, 16, …)"
        )));
    }
    let delta = match q % 4 {
        0 => 0,
        1 => 1,
        3 => -1,
        _ => {
            return Err(invalid(format!(
                "q = {q} is invalid: a Slim Fly needs q = 4w + δ with δ in {{-1, 0, 1}}; q = 2 is 4·0 + 2 (use q >= 3)"
            )));
        }
    };
    let k = (3 * q as i64 - delta as i64) / 2;
    Ok((delta, u32::try_from(k).map_err(|_| invalid(format!("q = {q} is too large")))?))
}

/// Besta & Hoefler's balanced concentration ⌈k'/2⌉ for q.
pub fn balanced_p(q: u32) -> Result<u32, TopoError> {
    Ok(degree(q)?.1.div_ceil(2))
}

/// GF(p^n) by tables: the elements are 0..q, addition digit-wise mod p, multiplication by
/// logarithms to the base ξ.
#[derive(Clone, Debug)]
struct Field {
    q: u32,
    /// `add[a·q + b]` = a + b.
    add: Vec<u16>,
    /// `neg[a]` = −a.
    neg: Vec<u16>,
    /// `exp[i]` = ξ^i, i < q − 1.
    exp: Vec<u16>,
    /// `log[a]` for a ≠ 0.
    log: Vec<u16>,
}

impl Field {
    fn new(q: u32) -> Field {
        let (p, n) = prime_power(q).expect("checked by degree()");
        let digits = |mut a: u32| {
            let mut d = vec![0u32; n as usize];
            for x in d.iter_mut() {
                *x = a % p;
                a /= p;
            }
            d
        };
        let number = |d: &[u32]| d.iter().rev().fold(0u32, |acc, &x| acc * p + x);
        let mut add = vec![0u16; (q * q) as usize];
        for a in 0..q {
            let da = digits(a);
            for b in 0..q {
                let s: Vec<u32> = da.iter().zip(digits(b)).map(|(x, y)| (x + y) % p).collect();
                add[(a * q + b) as usize] = number(&s) as u16;
            }
        }
        let neg = (0..q)
            .map(|a| number(&digits(a).iter().map(|&x| (p - x) % p).collect::<Vec<_>>()) as u16)
            .collect();
        // Monic f = t^n + Σ c_i t^i (c = the digits of `low`, c_0 ≠ 0): the first with t of
        // order q − 1 modulo f.
        for low in 1..q {
            let c = digits(low);
            if c[0] == 0 {
                continue;
            }
            // t^n ≡ −Σ c_i t^i.
            let mut exp = Vec::with_capacity(q as usize - 1);
            let mut x = vec![0u32; n as usize];
            x[0] = 1;
            let mut order = 0;
            loop {
                exp.push(number(&x) as u16);
                // x ← t·x mod f.
                let top = x[n as usize - 1];
                for i in (1..n as usize).rev() {
                    x[i] = x[i - 1];
                }
                x[0] = 0;
                for i in 0..n as usize {
                    x[i] = (x[i] + (p - c[i]) * top) % p;
                }
                order += 1;
                if number(&x) == 1 || order >= q - 1 {
                    break;
                }
            }
            if order == q - 1 && number(&x) == 1 {
                let mut log = vec![0u16; q as usize];
                for (i, &e) in exp.iter().enumerate() {
                    log[e as usize] = i as u16;
                }
                return Field { q, add, neg, exp, log };
            }
        }
        unreachable!("GF({q}) has a primitive polynomial of degree {n}")
    }

    #[inline]
    fn add(&self, a: u32, b: u32) -> u32 {
        self.add[(a * self.q + b) as usize] as u32
    }
    #[inline]
    fn sub(&self, a: u32, b: u32) -> u32 {
        self.add(a, self.neg[b as usize] as u32)
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        if a == 0 || b == 0 {
            return 0;
        }
        let i = (self.log[a as usize] as u32 + self.log[b as usize] as u32) % (self.q - 1);
        self.exp[i as usize] as u32
    }
    /// ξ^i (any i).
    fn power(&self, i: u32) -> u32 {
        self.exp[(i % (self.q - 1)) as usize] as u32
    }
    fn heap_bytes(&self) -> usize {
        (self.add.capacity() + self.neg.capacity() + self.exp.capacity() + self.log.capacity()) * 2
    }
}

/// A built Slim Fly with minimal routing.
#[derive(Clone, Debug)]
pub struct SlimFly {
    q: u32,
    delta: i32,
    p: u32,
    field: Field,
    /// The generators X (index 0) and X', in channel order.
    generators: [Vec<u32>; 2],
    /// Membership of X and X', indexed by element.
    member: [Vec<bool>; 2],
    network: Network,
}

impl SlimFly {
    /// Builds the Slim Fly MMS graph of prime power `q` (q ≥ 3, q ≠ 2 mod 4 is implied) with
    /// `p` ≥ 1 terminals per router, within netwrap's size limits.
    pub fn new(q: u32, p: u32) -> Result<Self, TopoError> {
        if p == 0 {
            return Err(invalid(
                "p = 0 is invalid: a Slim Fly needs p >= 1 terminals at every router".into(),
            ));
        }
        let (delta, k) = degree(q)?;
        // Sizes before any table (q may be 2^32 − 1): 2q² routers of degree k'.
        let routers = 2 * (q as u64) * (q as u64);
        let name = format!("Slim Fly q = {q}, p = {p} (MMS graph, Besta & Hoefler 2014)");
        Planned {
            terminals: routers.checked_mul(p as u64),
            routers: Some(routers),
            channels: routers.checked_mul(k as u64),
        }
        .check(|| format!("the {name}"))?;
        let field = Field::new(q);
        let w = ((q as i64 - delta as i64) / 4) as u32;
        let exps: [Vec<u32>; 2] = match delta {
            1 => [(0..=q - 3).step_by(2).collect(), (1..=q - 2).step_by(2).collect()],
            0 => [(0..=q - 2).step_by(2).collect(), (1..=q - 1).step_by(2).collect()],
            _ => [
                (0..=2 * w - 2).step_by(2).chain((2 * w - 1..=4 * w - 3).step_by(2)).collect(),
                (1..=2 * w - 1).step_by(2).chain((2 * w..=4 * w - 2).step_by(2)).collect(),
            ],
        };
        let generators = exps.map(|e| e.into_iter().map(|i| field.power(i)).collect::<Vec<u32>>());
        let member = [0, 1].map(|s| {
            let mut m = vec![false; q as usize];
            for &g in &generators[s] {
                m[g as usize] = true;
            }
            m
        });
        let q2 = q * q;
        let routers = routers as u32;
        let classes = vec!["intra 0".to_string(), "intra 1".to_string(), "inter".to_string()];
        let mut b = NetworkBuilder::new(routers, routers as usize * k as usize, classes);
        for r in 0..routers {
            let (s, a, bb) = (r / q2, (r % q2) / q, r % q);
            for &g in &generators[s as usize] {
                b.push(r, s * q2 + a * q + field.add(bb, g), 1, s as u16);
            }
            for v in 0..q {
                if s == 0 {
                    // (0, x = a, y = bb) to (1, m = v, c = y − m·x).
                    b.push(r, q2 + v * q + field.sub(bb, field.mul(v, a)), 1, 2);
                } else {
                    // (1, m = a, c = bb) to (0, x = v, y = m·x + c).
                    b.push(r, v * q + field.add(field.mul(a, v), bb), 1, 2);
                }
            }
        }
        let attach = Attach::Blocks { first: 0, per_router: p, cycle: u32::MAX };
        let network = b.finish(name, routers * p, attach.clone(), attach);
        debug_assert_eq!(network.degree_range(), (k, k));
        Ok(SlimFly { q, delta, p, field, generators, member, network })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// The prime power q.
    pub fn q(&self) -> u32 {
        self.q
    }
    /// δ with q = 4w + δ.
    pub fn delta(&self) -> i32 {
        self.delta
    }
    /// Terminals per router p.
    pub fn p(&self) -> u32 {
        self.p
    }
    /// Router (s, a, b): subgraph s, then (x, y) or (m, c).
    pub fn coordinates(&self, r: RouterId) -> (u32, u32, u32) {
        let q2 = self.q * self.q;
        (r / q2, (r % q2) / self.q, r % self.q)
    }
    /// The generator sets X and X' as field elements (integers 0..q, see the module docs).
    pub fn generators(&self) -> [&[u32]; 2] {
        [&self.generators[0], &self.generators[1]]
    }
    /// Bytes held on the heap: the network, the field's tables and the generator sets.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes()
            + self.field.heap_bytes()
            + self.generators.iter().map(|g| g.capacity() * 4).sum::<usize>()
            + self.member.iter().map(|m| m.capacity()).sum::<usize>()
    }

    /// Whether routers `u` and `v` are joined, by the MMS rules.
    #[inline]
    pub fn adjacent(&self, u: RouterId, v: RouterId) -> bool {
        let ((s, a, b), (t, c, d)) = (self.coordinates(u), self.coordinates(v));
        let f = &self.field;
        match (s, t) {
            (0, 0) | (1, 1) => a == c && b != d && self.member[s as usize][f.sub(b, d) as usize],
            // (0, x = a, y = b) and (1, m = c, c = d).
            (0, _) => b == f.add(f.mul(c, a), d),
            _ => d == f.add(f.mul(a, c), b),
        }
    }
}

impl Routing for SlimFly {
    /// Minimal routing: the channel to the destination's router when adjacent, else the
    /// channel to every common neighbour, in channel order.
    fn route(&self, at: RouterId, dest: TerminalId, _salt: u32, out: &mut Candidates) {
        out.clear();
        let to = dest / self.p;
        if at == to {
            return;
        }
        let channels = self.network.out_channels(at);
        if self.adjacent(at, to) {
            out.extend_from(channels.clone().find(|&c| self.network.channel(c).dst == to));
            return;
        }
        for c in channels {
            if self.adjacent(self.network.channel(c).dst, to) {
                out.push(c);
            }
        }
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Field axioms on primes and prime powers up to GF(27): ξ has order q − 1 (its powers are
    /// the q − 1 nonzero elements), addition commutes, multiplication associates and
    /// distributes over addition, and a − a = 0.
    #[test]
    fn small_fields_are_fields() {
        for q in [3u32, 4, 5, 7, 8, 9, 16, 25, 27] {
            let f = Field::new(q);
            let powers: std::collections::BTreeSet<u32> = (0..q - 1).map(|i| f.power(i)).collect();
            assert_eq!(powers.len() as u32, q - 1, "GF({q}): ξ is primitive");
            assert!(!powers.contains(&0));
            for a in 0..q {
                assert_eq!(f.sub(a, a), 0);
                for b in 0..q {
                    assert_eq!(f.add(a, b), f.add(b, a));
                    for c in 0..q {
                        assert_eq!(f.mul(a, f.add(b, c)), f.add(f.mul(a, b), f.mul(a, c)), "GF({q})");
                        assert_eq!(f.mul(a, f.mul(b, c)), f.mul(f.mul(a, b), c));
                    }
                }
            }
        }
    }

    #[test]
    fn prime_powers() {
        assert_eq!(prime_power(27), Some((3, 3)));
        assert_eq!(prime_power(49), Some((7, 2)));
        assert_eq!(prime_power(13), Some((13, 1)));
        assert_eq!(prime_power(12), None);
        assert_eq!(prime_power(1), None);
    }
}
