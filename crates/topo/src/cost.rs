//! Packaging cost of an inter-module network (Raghunath & Ranade §2, §4, Tables I and II).
//!
//! M packaging modules are joined by an inter-module graph whose edges are wire *bundles*.
//! For a required bisection width B (wires), the seed derives each bundle's width so that the
//! network's bisection is B, then module pin count = Σ over a module's bundles of their
//! widths, bundles per module = the graph's degree, total bundles = its edge count.
//!
//! Here those numbers come from the built graph, not from Table I's closed forms: the graph
//! is built (complete graph and n-hop networks as products of complete graphs, hypercube,
//! toroids as bidirectional tori), each dimension is halved to count the bundles crossing
//! it, and that dimension's bundles get B / (crossing bundles) wires, so that whichever
//! dimension is cut the bisection is B. This is exactly how §5.2 sizes K4 × K8 for 32 modules
//! ("the edges of the K4 will have to be 256 bits wide … and the edges of the K8 will be 128
//! bits wide"), and it reproduces Table II. When M is not a perfect n-th power the factors are
//! the most nearly equal factorisation of M (for M a power of two, the seed's "nearest power
//! of 2 partitions": 32 = 4 × 8 = 2 × 4 × 4).
//!
//! The butterfly and cube-connected-cycles rows are Table I's formulas (pins
//! 4B·log M/M and 6B·log M/M): a butterfly or CCC has d·2^d nodes, so for most M (32
//! included) no such graph with M nodes exists, and the seed's Table II uses the formula with
//! log₂ 32 = 5. Those rows say so in `source`.

use crate::hamming::Hamming;
use crate::network::Network;
use crate::{CubeSpec, DimensionOrder, KaryNCube, TopoError};
use serde::Serialize;

/// An inter-module topology of Raghunath & Ranade Table I.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InterModule {
    /// Complete graph K_M (a 1-hop network).
    Complete,
    /// n-hop network: product of n complete graphs.
    NHop(u32),
    /// Butterfly (Table I formula).
    Butterfly,
    /// Cube-connected cycles (Table I formula).
    Ccc,
    /// Binary hypercube (M a power of two).
    Hypercube,
    /// d-dimensional toroid (bidirectional torus).
    Toroid(u32),
    /// Ring (1-dimensional toroid).
    Ring,
}

impl InterModule {
    /// Table II's rows, in its order.
    pub const TABLE_II: [InterModule; 9] = [
        InterModule::Complete,
        InterModule::NHop(2),
        InterModule::NHop(3),
        InterModule::Butterfly,
        InterModule::Ccc,
        InterModule::Hypercube,
        InterModule::Toroid(3),
        InterModule::Toroid(2),
        InterModule::Ring,
    ];

    /// The seed's name for the row.
    pub fn label(&self) -> String {
        match self {
            InterModule::Complete => "Complete graph".into(),
            InterModule::NHop(n) => format!("{n}-hop Network"),
            InterModule::Butterfly => "Butterfly".into(),
            InterModule::Ccc => "CCC".into(),
            InterModule::Hypercube => "Hypercube".into(),
            InterModule::Toroid(d) => format!("{d}-dim Toroid"),
            InterModule::Ring => "Ring".into(),
        }
    }
}

/// One row of the cost table.
#[derive(Clone, Debug, Serialize)]
pub struct CostRow {
    /// Raghunath & Ranade's name of the topology.
    pub topology: String,
    /// Bisection width B in wires.
    pub bisection: u64,
    /// Wires leaving or entering one module.
    pub pin_count: f64,
    /// Bundles per module (the graph's degree).
    pub bundles_per_module: u32,
    /// Bundles in the whole network.
    pub total_bundles: u64,
    /// Module count per dimension (the factors of M), empty for formula rows.
    pub factors: Vec<u32>,
    /// Wires per bundle in each dimension.
    pub bundle_widths: Vec<f64>,
    /// `graph` (counted on the built graph) or `formula (Table I)`.
    pub source: String,
}

/// The most nearly equal factorisation of `m` into `parts` factors ≥ 2 (smallest largest
/// factor, then largest smallest), in non-decreasing order; `None` when there is none.
pub fn balanced_factors(m: u32, parts: u32) -> Option<Vec<u32>> {
    fn go(m: u32, parts: u32, min: u32, cur: &mut Vec<u32>, best: &mut Option<Vec<u32>>) {
        if parts == 1 {
            if m >= min {
                cur.push(m);
                let better = match best {
                    None => true,
                    Some(b) => {
                        (cur[cur.len() - 1], std::cmp::Reverse(cur[0]))
                            < (b[b.len() - 1], std::cmp::Reverse(b[0]))
                    }
                };
                if better {
                    *best = Some(cur.clone());
                }
                cur.pop();
            }
            return;
        }
        let mut f = min.max(2);
        // f^parts <= m; checked, since parts may be as large as the caller likes.
        while (f as u64).checked_pow(parts).is_some_and(|p| p <= m as u64) {
            if m.is_multiple_of(f) {
                cur.push(f);
                go(m / f, parts - 1, f, cur, best);
                cur.pop();
            }
            f += 1;
        }
    }
    if parts == 0 || m < 2 {
        return None;
    }
    let mut best = None;
    go(m, parts, 2, &mut Vec::new(), &mut best);
    best
}

/// Computes one row for M modules and bisection B.
pub fn cost(topology: InterModule, modules: u32, bisection: u64) -> Result<CostRow, TopoError> {
    if modules < 2 {
        return Err(TopoError::Invalid(format!(
            "--modules {modules} is invalid: at least 2 modules are needed"
        )));
    }
    if bisection == 0 {
        return Err(TopoError::Invalid(
            "--bisection 0 is invalid: the bisection width must be at least 1 wire".into(),
        ));
    }
    let b = bisection as f64;
    let formula = |pins: f64, deg: u32, total: u64| CostRow {
        topology: topology.label(),
        bisection,
        pin_count: pins,
        bundles_per_module: deg,
        total_bundles: total,
        factors: Vec::new(),
        bundle_widths: Vec::new(),
        source: "formula (Table I): no graph of this family has exactly M nodes in general".into(),
    };
    let log_m = (modules as f64).log2();
    let m = modules as f64;
    let factors_for = |parts: u32, what: &str| {
        balanced_factors(modules, parts).ok_or_else(|| {
            // M is a u32, so it has at most 31 prime factors: past that, no M will do.
            let hint = if parts <= 31 {
                format!(
                    "choose M with at least {parts} prime factors (e.g. a power of 2 >= {})",
                    1u64 << parts
                )
            } else {
                format!("it needs M >= 2^{parts}, and M is at most 2^32 - 1")
            };
            TopoError::Invalid(format!(
                "M = {modules} modules cannot be split into {parts} factors >= 2 for a {what}: {hint}"
            ))
        })
    };
    let (factors, torus) = match topology {
        InterModule::Butterfly => return Ok(formula(4.0 * b * log_m / m, 4, 2 * modules as u64)),
        InterModule::Ccc => return Ok(formula(6.0 * b * log_m / m, 3, 3 * modules as u64 / 2)),
        InterModule::Complete => (vec![modules], false),
        InterModule::NHop(0) | InterModule::Toroid(0) => {
            return Err(TopoError::Invalid("the number of hops or dimensions must be at least 1".into()));
        }
        InterModule::NHop(n) => (factors_for(n, "n-hop network")?, false),
        InterModule::Hypercube => {
            if !modules.is_power_of_two() {
                return Err(TopoError::Invalid(format!(
                    "a hypercube needs M = 2^d modules (2, 4, 8, 16, 32, ...); got M = {modules}"
                )));
            }
            (vec![2; modules.trailing_zeros() as usize], false)
        }
        InterModule::Toroid(d) => (factors_for(d, "toroid")?, true),
        InterModule::Ring => (vec![modules], true),
    };
    let net: Network = if torus {
        let spec = CubeSpec { radices: factors.clone(), wrap: true, bidirectional: true };
        KaryNCube::new(spec, DimensionOrder::HighestFirst)?.network().clone()
    } else {
        Hamming::new(&factors, &[])?.network().clone()
    };
    graph_row(topology, bisection, &net, &factors, torus)
}

/// Counts degree, edges and per-dimension cuts on the built graph.
fn graph_row(
    topology: InterModule,
    bisection: u64,
    net: &Network,
    factors: &[u32],
    torus: bool,
) -> Result<CostRow, TopoError> {
    let mut stride = 1u32;
    let mut widths = Vec::new();
    let mut pins = 0.0;
    let mut degree = 0u32;
    for (i, &k) in factors.iter().enumerate() {
        let coord = |r: u32| (r / stride) % k;
        // Directed channels of dimension i (a torus has two classes per dimension, + and −).
        let in_dim = |class: u16| if torus { class as usize / 2 == i } else { class as usize == i };
        let crossing = net
            .edges()
            .filter(|&(src, c)| in_dim(c.class) && (coord(src) < k / 2) != (coord(c.dst) < k / 2))
            .count();
        // Each undirected bundle is a pair of directed channels.
        let cut = crossing as f64 / 2.0;
        let deg = net.out_channels(0).filter(|&c| in_dim(net.channel(c).class)).count() as u32;
        let width = bisection as f64 / cut;
        pins += deg as f64 * width;
        degree += deg;
        widths.push(width);
        stride *= k;
    }
    Ok(CostRow {
        topology: topology.label(),
        bisection,
        pin_count: pins,
        bundles_per_module: degree,
        total_bundles: net.channels().len() as u64 / 2,
        factors: factors.to_vec(),
        bundle_widths: widths,
        source: "graph".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raghunath & Ranade Table II: 32 modules, B = 8192.
    #[test]
    fn table_ii_32_modules_b_8192() {
        let expect: [(f64, u32, u64); 9] = [
            (992.0, 31, 496),
            (1664.0, 10, 160),
            (2048.0, 7, 112),
            (5120.0, 4, 64),
            (7680.0, 3, 48),
            (2560.0, 5, 80),
            (2560.0, 6, 96),
            (3072.0, 4, 64),
            (8192.0, 2, 32),
        ];
        for (t, (pins, deg, total)) in InterModule::TABLE_II.iter().zip(expect) {
            let row = cost(*t, 32, 8192).unwrap();
            assert_eq!(row.bisection, 8192);
            assert!((row.pin_count - pins).abs() < 1e-9, "{}: {} vs {pins}", row.topology, row.pin_count);
            assert_eq!(row.bundles_per_module, deg, "{}", row.topology);
            assert_eq!(row.total_bundles, total, "{}", row.topology);
        }
        // §5.2: K4 edges 256 wires, K8 edges 128 wires.
        assert_eq!(cost(InterModule::NHop(2), 32, 8192).unwrap().bundle_widths, vec![256.0, 128.0]);
        // §5.1: a complete graph on 32 modules has 32-wire bundles.
        assert_eq!(cost(InterModule::Complete, 32, 8192).unwrap().bundle_widths, vec![32.0]);
    }

    /// Table I's closed forms hold where M is a perfect power: complete graph
    /// (4B/M)(M−1)/M, n-hop (4nB/M)(M^(1/n)−1)/M^(1/n), hypercube 2B·log M/M,
    /// d-dim toroid dB/M^((d−1)/d) (even radices), ring B.
    #[test]
    fn table_i_formulas_on_perfect_powers() {
        let b = 4096.0;
        for m in [4u32, 16, 64, 256] {
            let mf = m as f64;
            let close = |t, v: f64| {
                let r = cost(t, m, 4096).unwrap();
                assert!((r.pin_count - v).abs() < 1e-6, "{t:?} M={m}: {} vs {v}", r.pin_count);
            };
            close(InterModule::Complete, 4.0 * b / mf * (mf - 1.0) / mf);
            close(InterModule::NHop(2), 8.0 * b / mf * (mf.sqrt() - 1.0) / mf.sqrt());
            close(InterModule::Hypercube, 2.0 * b * mf.log2() / mf);
            close(InterModule::Toroid(2), 2.0 * b / mf.sqrt());
            close(InterModule::Ring, b);
        }
        let r = cost(InterModule::Toroid(3), 64, 4096).unwrap();
        assert!((r.pin_count - 3.0 * b / 16.0).abs() < 1e-9);
        assert_eq!(r.total_bundles, 3 * 64);
    }

    #[test]
    fn bad_input_says_what_is_valid() {
        assert!(cost(InterModule::Hypercube, 24, 8192).unwrap_err().to_string().contains("2^d"));
        assert!(cost(InterModule::NHop(2), 31, 8192).unwrap_err().to_string().contains("factors"));
        assert!(cost(InterModule::Complete, 1, 8192).is_err());
        assert!(cost(InterModule::Complete, 32, 0).is_err());
        assert_eq!(balanced_factors(32, 2), Some(vec![4, 8]));
        assert_eq!(balanced_factors(32, 3), Some(vec![2, 4, 4]));
        assert_eq!(balanced_factors(36, 2), Some(vec![6, 6]));
    }

    /// Regression: the suggested power of two wrapped at 64 dimensions (`--toroid 100`
    /// suggested M >= 2^36) and the factor search overflowed f^parts.
    #[test]
    fn many_dimensions_suggest_a_size_that_does_not_wrap() {
        let e = cost(InterModule::Toroid(31), 32, 8192).unwrap_err().to_string();
        assert!(e.contains("a power of 2 >= 2147483648"), "{e}");
        for d in [32, 63, 64, 100, u32::MAX] {
            let e = cost(InterModule::Toroid(d), 32, 8192).unwrap_err().to_string();
            assert!(e.contains(&format!("M >= 2^{d}")), "{d}: {e}");
        }
        assert_eq!(balanced_factors(32, 100), None);
        assert_eq!(balanced_factors(u32::MAX, u32::MAX), None);
    }
}
