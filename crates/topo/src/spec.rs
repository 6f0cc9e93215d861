//! The builders' description of every family ([`Shape`], lowered from the user's
//! [`crate::TopologySpec`] and [`crate::RoutingSpec`]), the built result ([`Topology`]), and
//! static dispatch to its concrete routing type ([`Visitor`]).

use crate::TopoError;
use crate::circulant::{Circulant, CirculantRouting};
use crate::cube::{CubeSpec, DimensionOrder, KaryNCube};
use crate::dragonfly::{Dragonfly, GlobalArrangement};
use crate::fattree::FatTree;
use crate::file_graph::FileGraph;
use crate::graph::TableRouted;
use crate::hamming::Hamming;
use crate::indirect::{Indirect, StageWiring};
use crate::metrics::{
    Bisection, Metrics, assemble, cut_width, index_side, measure, search_bisection, search_bisection_from,
};
use crate::misc::{Ccc, XbarModules};
use crate::network::{Network, Routing};
use crate::slimfly::SlimFly;
use crate::twolevel::{ModularButterfly, ModuleSplit};
use crate::updown::UpDownRouted;
use crate::xgft::{UpPort, Xgft};

/// A family with its routing: what the simulator is generic over.
pub trait Family: Routing {
    /// The graph.
    fn network(&self) -> &Network;
}

macro_rules! family {
    ($($t:ty),*) => {$(impl Family for $t { fn network(&self) -> &Network { <$t>::network(self) } })*};
}
family!(
    KaryNCube,
    Circulant,
    Indirect,
    FatTree,
    Hamming,
    Ccc,
    XbarModules,
    ModularButterfly,
    TableRouted,
    UpDownRouted,
    Dragonfly,
    SlimFly,
    Xgft
);

/// What a builder needs to build a family with its routing: [`crate::TopologySpec::shape`]
/// lowers the user's description to this; library users may build shapes directly (e.g. a
/// two-level butterfly with factors of their choosing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// k-ary n-cube, any radix per dimension: torus or mesh, uni- or bidirectional.
    Cube {
        /// Radix per dimension, dimension 0 first.
        radices: Vec<u32>,
        /// End-around links (torus); false gives a mesh.
        wrap: bool,
        /// Channels both ways.
        bidirectional: bool,
        /// Dimension order of the routing.
        order: DimensionOrder,
        /// Terminals per router p (1 in the papers' cubes).
        concentration: u32,
    },
    /// Binary n-cube: 2-ary n-cube with one link each way between neighbours.
    Hypercube {
        /// Dimensions n.
        n: u32,
        /// Dimension order of the routing.
        order: DimensionOrder,
    },
    /// Circulant graph C_N(a, b).
    Circulant {
        /// Nodes N.
        nodes: u32,
        /// First generator.
        a: u32,
        /// Second generator.
        b: u32,
    },
    /// Midimew of N nodes (Puente et al. §2).
    Midimew {
        /// Nodes N ≥ 4.
        nodes: u32,
        /// Table (all minimal next hops) or routing record.
        routing: CirculantRouting,
    },
    /// Butterfly or Omega network of k×k switches.
    Multistage {
        /// Switch radix.
        k: u32,
        /// Stages n (N = k^n).
        stages: u32,
        /// Butterfly or Omega.
        wiring: StageWiring,
    },
    /// Butterfly fat-tree (Greenberg & Guan §3.1).
    FatTree {
        /// Processors N = 4^n.
        nodes: u32,
    },
    /// Extended generalized fat-tree XGFT(h; m1..mh; w1..wh) (Öhring et al. 1995), k-ary
    /// n-trees included, routed to the nearest common ancestor.
    Xgft {
        /// Children m1..mh.
        children: Vec<u32>,
        /// Parents w1..wh (w1 = 1).
        parents: Vec<u32>,
        /// The up-port choice.
        up_port: UpPort,
    },
    /// Complete graph (one factor), n-hop network (product of complete graphs) or HyperX (with
    /// p terminals per router and channels K flits wide; Ahn et al. 2009).
    NHop {
        /// Complete-graph sizes.
        factors: Vec<u32>,
        /// Terminals per router p (1 for the n-hop network).
        per_router: u32,
        /// Channel width K in flits per cycle (1 for the n-hop network).
        width: u32,
    },
    /// Cube-connected cycles CCC(n).
    Ccc {
        /// Cube dimension n.
        n: u32,
    },
    /// One crossbar joining N processors.
    Crossbar {
        /// Processors.
        nodes: u32,
    },
    /// Raghunath & Ranade's crossbar modules joined by a complete graph or n-hop network (Xbar.I.E).
    XbarModules {
        /// Processors per module.
        per_module: u32,
        /// Complete-graph factors of the inter-module network (product = modules).
        factors: Vec<u32>,
        /// Processor-link width in bits.
        intra_bits: u32,
        /// Inter-module channel width in bits, per factor.
        inter_bits: Vec<u32>,
    },
    /// Raghunath & Ranade's butterfly split into modules (Butterfly.I.E, nhop.I.E1-E2).
    ModularButterfly {
        /// Processors N (= memories).
        nodes: u32,
        /// Modules M.
        modules: u32,
        /// Inter-module factors, widths and dilation.
        split: ModuleSplit,
    },
    /// Dragonfly (Kim, Dally, Scott & Abts 2008) with minimal routing.
    Dragonfly {
        /// Terminals per router.
        p: u32,
        /// Routers per group.
        a: u32,
        /// Global channels per router.
        h: u32,
        /// Groups, 2 ≤ g ≤ a·h + 1.
        groups: u32,
        /// How global ports reach the other groups.
        arrangement: GlobalArrangement,
    },
    /// Slim Fly (Besta & Hoefler 2014): the MMS graph of prime power q with p terminals per
    /// router, minimal routing.
    SlimFly {
        /// The prime power q (2q² routers).
        q: u32,
        /// Terminals per router.
        p: u32,
    },
    /// A graph read from a file (`graph --file F`, parsed by `netwrap_sim::graph_file`), routed
    /// by a table of every minimal next hop, at most 64 MiB.
    Graph(Box<FileGraph>),
    /// Any family routed instead by a table of every minimal next hop (Puente et al. §2.2): fully
    /// adaptive minimal routing; a table of at most 64 MiB (destination routers x routers bytes).
    Table {
        /// The family.
        of: Box<Shape>,
    },
    /// Any family routed instead up*/down* from router 0 (Schroeder et al. 1991, Autonet):
    /// deadlock-free with one virtual channel ([`crate::UpDownRouting`]); tables of at most
    /// 64 MiB (2 bytes per destination router and router).
    UpDown {
        /// The family.
        of: Box<Shape>,
    },
}

/// One level of switches of a levelled family.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SwitchLevel {
    /// The level, 1 for the switches the terminals attach to.
    pub level: u32,
    /// Switches at this level.
    pub switches: u32,
    /// Children per switch (terminals at level 1, switches of the level below above it).
    pub children: u32,
    /// Parents per switch (0 at the top).
    pub parents: u32,
}

/// A built family.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Topology {
    /// Tori, meshes, hypercubes, rings.
    Cube(KaryNCube),
    /// Circulant graphs and Midimews.
    Circulant(Circulant),
    /// Butterfly and Omega networks.
    Multistage(Indirect),
    /// Raghunath & Ranade's butterfly split into modules.
    ModularButterfly(ModularButterfly),
    /// A family routed by a minimal-next-hop table; the family itself is kept for its
    /// symmetry and bisection.
    Table(TableRouted, Box<Topology>),
    /// A family routed up*/down*; the family itself is kept for its bisection.
    UpDown(UpDownRouted, Box<Topology>),
    /// Butterfly fat-tree.
    FatTree(FatTree),
    /// XGFTs and k-ary n-trees.
    Xgft(Xgft),
    /// Complete graphs and n-hop networks.
    NHop(Hamming),
    /// Cube-connected cycles.
    Ccc(Ccc),
    /// Crossbars and crossbar modules.
    Xbar(XbarModules),
    /// Dragonflies.
    Dragonfly(Dragonfly),
    /// Slim Flies.
    SlimFly(SlimFly),
    /// A graph from a file, routed by a table of every minimal next hop.
    Graph(TableRouted),
}

/// Something to do with a concrete family: the simulator implements this once and gets a
/// monomorphised copy per family, so no routing call goes through a `dyn`.
pub trait Visitor {
    /// The result.
    type Output;
    /// Called with the concrete family.
    fn visit<F: Family>(self, family: &F) -> Self::Output;
}

impl Shape {
    /// Builds the family.
    pub fn build(&self) -> Result<Topology, TopoError> {
        Ok(match self {
            Shape::Cube { radices, wrap, bidirectional, order, concentration } => {
                Topology::Cube(KaryNCube::concentrated(
                    CubeSpec { radices: radices.clone(), wrap: *wrap, bidirectional: *bidirectional },
                    *order,
                    *concentration,
                )?)
            }
            Shape::Hypercube { n, order } => {
                if *n == 0 || *n > 31 {
                    return Err(TopoError::Invalid(format!(
                        "a hypercube needs 1 <= n <= 31 dimensions; got n = {n}"
                    )));
                }
                Topology::Cube(KaryNCube::new(CubeSpec::hypercube(*n), *order)?)
            }
            Shape::Circulant { nodes, a, b } => {
                Topology::Circulant(Circulant::new(*nodes, *a, *b, CirculantRouting::Table)?)
            }
            Shape::Midimew { nodes, routing } => Topology::Circulant(Circulant::midimew(*nodes, *routing)?),
            Shape::Multistage { k, stages, wiring } => {
                Topology::Multistage(Indirect::new(*k, *stages, *wiring)?)
            }
            Shape::FatTree { nodes } => Topology::FatTree(FatTree::new(*nodes)?),
            Shape::Xgft { children, parents, up_port } => {
                Topology::Xgft(Xgft::new(children, parents, *up_port)?)
            }
            Shape::NHop { factors, per_router: 1, width: 1 } => Topology::NHop(Hamming::new(factors, &[])?),
            Shape::NHop { factors, per_router, width } => {
                Topology::NHop(Hamming::hyperx(factors, *per_router, *width)?)
            }
            Shape::Ccc { n } => Topology::Ccc(Ccc::new(*n)?),
            Shape::Crossbar { nodes } => {
                if *nodes < 2 {
                    return Err(TopoError::Invalid(format!(
                        "a crossbar needs at least 2 processors; got {nodes}"
                    )));
                }
                Topology::Xbar(XbarModules::new(*nodes, &[], 1, &[])?)
            }
            Shape::XbarModules { per_module, factors, intra_bits, inter_bits } => {
                Topology::Xbar(XbarModules::new(*per_module, factors, *intra_bits, inter_bits)?)
            }
            Shape::ModularButterfly { nodes, modules, split } => {
                Topology::ModularButterfly(ModularButterfly::new(*nodes, *modules, split.clone())?)
            }
            Shape::Dragonfly { p, a, h, groups, arrangement } => {
                Topology::Dragonfly(Dragonfly::new(*p, *a, *h, *groups, *arrangement)?)
            }
            Shape::SlimFly { q, p } => Topology::SlimFly(SlimFly::new(*q, *p)?),
            Shape::Graph(g) => Topology::Graph(TableRouted::new(g.network()?).map_err(|e| match e {
                TopoError::TooLarge { what, quantity, count, limit, .. } => TopoError::TooLarge {
                    what,
                    quantity,
                    count,
                    limit,
                    why: "one byte per (destination router, router) pair; a graph from a file has no routing but its table",
                },
                other => other,
            })?),
            Shape::Table { of } => {
                let inner = of.build()?;
                Topology::Table(TableRouted::new(inner.network().clone())?, Box::new(inner))
            }
            Shape::UpDown { of } => {
                let inner = of.build()?;
                Topology::UpDown(UpDownRouted::new(inner.network().clone())?, Box::new(inner))
            }
        })
    }
}

impl Topology {
    /// The graph.
    pub fn network(&self) -> &Network {
        match self {
            Topology::Cube(t) => t.network(),
            Topology::Circulant(t) => t.network(),
            Topology::Multistage(t) => t.network(),
            Topology::ModularButterfly(t) => t.network(),
            Topology::Table(t, _) => t.network(),
            Topology::UpDown(t, _) => t.network(),
            Topology::FatTree(t) => t.network(),
            Topology::Xgft(t) => t.network(),
            Topology::NHop(t) => t.network(),
            Topology::Ccc(t) => t.network(),
            Topology::Xbar(t) => t.network(),
            Topology::Dragonfly(t) => t.network(),
            Topology::SlimFly(t) => t.network(),
            Topology::Graph(t) => t.network(),
        }
    }

    /// Runs `v` on the concrete family (one match, then static dispatch).
    pub fn visit<V: Visitor>(&self, v: V) -> V::Output {
        match self {
            Topology::Cube(t) => v.visit(t),
            Topology::Circulant(t) => v.visit(t),
            Topology::Multistage(t) => v.visit(t),
            Topology::ModularButterfly(t) => v.visit(t),
            Topology::Table(t, _) => v.visit(t),
            Topology::UpDown(t, _) => v.visit(t),
            Topology::FatTree(t) => v.visit(t),
            Topology::Xgft(t) => v.visit(t),
            Topology::NHop(t) => v.visit(t),
            Topology::Ccc(t) => v.visit(t),
            Topology::Xbar(t) => v.visit(t),
            Topology::Dragonfly(t) => v.visit(t),
            Topology::SlimFly(t) => v.visit(t),
            Topology::Graph(t) => v.visit(t),
        }
    }

    /// Terminals per group and groups, for families built of groups (dragonflies, also when
    /// routed by a table or up*/down*); `None` for the others. Group i holds the terminals
    /// `i·size .. (i + 1)·size`.
    pub fn groups(&self) -> Option<(u32, u32)> {
        match self {
            Topology::Dragonfly(d) => Some((d.group_terminals(), d.groups())),
            Topology::Table(_, inner) | Topology::UpDown(_, inner) => inner.groups(),
            _ => None,
        }
    }

    /// (vertex-transitive, class-symmetric): whether every router looks the same (one
    /// breadth-first search gives all distances), and whether the graph's automorphisms map
    /// each channel class onto itself and commute with the routing (so the channel load per
    /// class follows from one source's messages). Tested against the all-pairs computation.
    pub fn symmetry(&self) -> (bool, bool) {
        match self {
            Topology::Cube(c) => (c.spec().wrap || c.spec().radices.iter().all(|&k| k == 2), c.spec().wrap),
            Topology::Circulant(_) | Topology::NHop(_) => (true, true),
            // Rotating every cycle with the cube's dimensions, and translating corners, maps
            // each class onto itself; table routing depends only on distances.
            Topology::Ccc(_) => (true, true),
            // Greenberg & Guan §3.2: links at the same level and in the same direction are symmetric.
            Topology::FatTree(_) => (false, true),
            // Permuting the values of any label digit (x_j over 0..m_j, y_j over 0..w_j) is an
            // automorphism (Öhring et al.'s definition is symmetric in them), transitive on
            // the terminals and on each class; it commutes with routing that treats every up
            // port alike (random, adaptive), not with D-mod-k, which names up ports by the
            // destination's digits (loads then come from every pair).
            Topology::Xgft(t) => (false, t.up_port() != UpPort::Dmodk),
            // Permuting modules by the n-hop network's automorphisms and processors within a
            // module maps every processor to every other and each class onto itself.
            Topology::Xbar(_) => (false, true),
            // Adding a constant digit-wise (mod k) to every row number maps each stage onto
            // itself and commutes with destination-tag routing.
            Topology::Multistage(_) => (false, true),
            // Table routing depends only on distances, which every automorphism preserves.
            Topology::Table(_, inner) => match inner.as_ref() {
                Topology::Cube(c) => (c.spec().wrap, c.spec().wrap),
                other => other.symmetry(),
            },
            // Up*/down* routes depend on the root: no router looks like another.
            Topology::UpDown(..) => (false, false),
            _ => (false, false),
        }
    }

    /// Whether every terminal's routes to all the terminals have the same lengths, so that
    /// the mean and longest route are terminal 0's (its routes walked, not distances: on a
    /// dragonfly a minimal route may be longer than the shortest path). True on the
    /// vertex-transitive families, and on:
    /// - the fat-trees and XGFTs, whose automorphisms are transitive on the terminals (see
    ///   [`Topology::symmetry`]) and whose routes climb to the nearest common ancestor and
    ///   back, whichever up ports they take;
    /// - the butterflies and crossbar modules, whose routes all have the same length or are
    ///   mapped onto each other by the automorphisms of [`Topology::symmetry`];
    /// - the balanced dragonfly, g = a·h + 1, whatever its arrangement: one global channel
    ///   joins each pair of groups and every router holds h of them, so from any router the
    ///   minimal routes to the other groups take the local hop before the global one to all
    ///   but the h groups it reaches itself, and the local hop after it to all but one router
    ///   of each group, the same counts from every router.
    pub fn routes_alike(&self) -> bool {
        match self {
            Topology::FatTree(_) | Topology::Xgft(_) | Topology::Xbar(_) | Topology::Multistage(_) => true,
            Topology::Dragonfly(d) => d.groups() == d.a() * d.h() + 1,
            _ => self.symmetry().0,
        }
    }

    /// The bisection: a formula where one is proven, enumeration for tiny networks, otherwise
    /// a natural cut of the family improved by local search (an upper bound). Widths count
    /// directed channels crossing in both directions, weighted by width (flits per cycle).
    pub fn bisection(&self) -> Bisection {
        let net = self.network();
        match self {
            Topology::Table(_, inner) | Topology::UpDown(_, inner) => inner.bisection(),
            Topology::Cube(c) => cube_bisection(c),
            Topology::NHop(h) if h.factors().len() == 1 || h.factors().iter().all(|&m| m == 2) => {
                let f = h.factors();
                let side: Vec<bool> = (0..net.routers()).map(|r| h.coordinate(r, 0) < f[0] / 2).collect();
                Bisection {
                    width: cut_width(net, &side),
                    exact: f[0] % 2 == 0,
                    how: if f[0] % 2 == 0 {
                        "halve the nodes (proven minimum: N^2/2 directed channels for K_N, N for the hypercube)".into()
                    } else {
                        "halve the nodes, N odd (sides differ by one node)".into()
                    },
                }
            }
            Topology::NHop(h) => {
                let f = h.factors();
                let i = (0..f.len()).filter(|&i| f[i] % 2 == 0).min_by_key(|&i| f[i]).unwrap_or(0);
                let side = (0..net.routers()).map(|r| h.coordinate(r, i) < f[i] / 2).collect();
                search_bisection(net, side, &format!("halve dimension {i} (K{})", f[i]))
            }
            Topology::FatTree(t) => tree_cut(
                net,
                |r| (t.level(r) == t.levels(), t.subtree_first(r)),
                "cut at the root (each half of the processors with its subtrees, top switches shared out)",
            ),
            Topology::Xgft(t) => tree_cut(
                net,
                |r| (t.level(r) == t.height(), t.subtree_first(r)),
                "cut at the top (each half of the processors with its subtrees, top switches shared out)",
            ),
            Topology::Xbar(_) if net.routers() == 1 => Bisection {
                width: 0,
                exact: true,
                how: "a single crossbar: its bisection is internal, no channels".into(),
            },
            Topology::ModularButterfly(t) => {
                let m = t.split().factors[0];
                let side = (0..net.routers()).map(|r| t.module_of(r) % m < m / 2).collect();
                search_bisection(net, side, "halve the modules along the first factor")
            }
            Topology::Multistage(t) => {
                // Halve every stage by switch index.
                let per = net.routers() / t.stages();
                let side = (0..net.routers()).map(|r| r % per < per / 2).collect();
                search_bisection(net, side, "halve every stage")
            }
            Topology::Circulant(c) => {
                let mut starts = vec![(index_side(net), "nodes 0..N/2 in circulant numbering".to_string())];
                if let Some((cols, rows, _, _)) = c.layout() {
                    // Halve the Fig. 1 layout by rows and by columns.
                    let mut by_row = vec![false; net.routers() as usize];
                    let mut by_col = vec![false; net.routers() as usize];
                    for p in 0..c.nodes() {
                        if let Some(r) = c.application_to_network(p) {
                            by_row[r as usize] = p / cols < rows / 2;
                            by_col[r as usize] = p % cols < cols / 2;
                        }
                    }
                    starts.push((by_row, "the Fig. 1 layout's upper rows".into()));
                    starts.push((by_col, "the Fig. 1 layout's left columns".into()));
                }
                search_bisection_from(net, starts)
            }
            _ => search_bisection(net, index_side(net), "routers 0..R/2 in builder order"),
        }
    }

    /// The switches of each level of a levelled family (XGFTs and k-ary n-trees, level 1
    /// first); empty for the others.
    pub fn switch_levels(&self) -> Vec<SwitchLevel> {
        match self {
            Topology::Xgft(t) => (1..=t.height())
                .map(|l| SwitchLevel {
                    level: l,
                    switches: t.switches_at(l),
                    children: t.children()[l as usize - 1],
                    parents: t.parents().get(l as usize).copied().unwrap_or(0),
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// All metrics of `netwrap topo`.
    pub fn metrics(&self) -> Result<Metrics, TopoError> {
        match self {
            Topology::Cube(c) => return Ok(cube_metrics(c, self.bisection())),
            Topology::Circulant(c) => {
                // Every node sends to the N − 1 others; a class has N channels.
                let net = c.network();
                let d = crate::metrics::distances(net, true)?;
                let per_class = c.class_hops().map(|h| h / (net.terminals() as f64 - 1.0));
                let loads = net.channels().iter().map(|ch| per_class[ch.class as usize]).collect();
                let how =
                    "exact, one recursion over offsets (the routing depends only on dest - at)".to_string();
                return Ok(assemble(net, d, Ok((loads, how)), self.bisection()));
            }
            _ => {}
        }
        struct Measure {
            vt: bool,
            sym: bool,
            bis: Bisection,
        }
        impl Visitor for Measure {
            type Output = Result<Metrics, TopoError>;
            fn visit<F: Family>(self, f: &F) -> Self::Output {
                measure(f.network(), f, self.vt, self.sym, self.bis)
            }
        }
        let (vt, sym) = self.symmetry();
        self.visit(Measure { vt, sym, bis: self.bisection() })
    }
}

fn cube_bisection(c: &KaryNCube) -> Bisection {
    let s = c.spec();
    let nodes: u64 = s.radices.iter().map(|&k| k as u64).product();
    let (i, &kmax) =
        s.radices.iter().enumerate().max_by_key(|&(i, &k)| (k, std::cmp::Reverse(i))).unwrap_or((0, &2));
    let per_ring = match (s.wrap, s.bidirectional) {
        (true, false) => 2,
        (true, true) => 4,
        (false, _) => 2,
    };
    // Cut every ring of the largest dimension in half: N/k rings, each crossing the cut twice
    // (torus) or once (mesh), per direction.
    let width = nodes / kmax as u64 * per_ring as u64;
    let equal = s.radices.iter().all(|&k| k == kmax);
    let exact = kmax % 2 == 0 && equal;
    Bisection {
        width,
        exact,
        how: if exact {
            format!("halve dimension {i}: N/k rings x {per_ring} channels (k-ary n-cube with even k)")
        } else if kmax % 2 == 1 {
            format!(
                "cut across dimension {i} (odd k = {kmax}: the halves differ by N/k nodes); an estimate, not a proven minimum"
            )
        } else {
            format!("halve the largest dimension {i} (mixed radices): an upper bound")
        },
    }
}

/// A tree's natural cut, improved by local search: each router below the top on the side of
/// the first processor of its subtree, the top switches shared out alternately. `at(r)` is
/// (whether r is a top switch, the first processor below r).
fn tree_cut(net: &Network, at: impl Fn(crate::RouterId) -> (bool, u32), how: &str) -> Bisection {
    let half = net.terminals() / 2;
    let mut top_seen = 0u32;
    let side: Vec<bool> = (0..net.routers())
        .map(|r| match at(r) {
            (true, _) => {
                top_seen += 1;
                top_seen.is_multiple_of(2)
            }
            (false, first) => first < half,
        })
        .collect();
    search_bisection(net, side, how)
}

/// Exact metrics of a k-ary n-cube from its dimensions, without touching every pair.
///
/// Hop counts add up over dimensions, so with S_i = Σ over coordinate pairs (a, b) of the
/// hops in dimension i and N = Π k_i, the sum over all ordered node pairs is
/// Σ_i S_i·(N/k_i)², the diameter Σ_i max hops. Under dimension-order routing (either order)
/// the messages crossing the dimension-i channel from coordinate j to j+1 on one line are
/// the coordinate pairs whose dimension-i route uses it, times N/k_i (the free coordinates of
/// source and destination): on a torus every channel of a (dimension, direction) class carries
/// the same load, on a mesh the middle channel the most. With p terminals per router every
/// router pair stands for p² terminal pairs among T = N·p terminals (a pair at one router
/// takes no hop). The test `cube_shortcut_matches_breadth_first_search` compares this with the
/// generic path.
fn cube_metrics(c: &KaryNCube, bisection: Bisection) -> Metrics {
    let s = c.spec();
    let n: f64 = s.radices.iter().map(|&k| k as f64).product();
    let mut total = 0.0;
    let mut diameter = 0;
    // load_dir[i][j]: per-line crossings of channel j -> j+1 (index 0) or j+1 -> j (index 1),
    // over coordinate pairs, ties on even bidirectional rings split evenly.
    let mut per_dim = Vec::new();
    for &k in &s.radices {
        let one = KaryNCube::new(
            CubeSpec { radices: vec![k], wrap: s.wrap, bidirectional: s.bidirectional },
            DimensionOrder::HighestFirst,
        )
        .expect("a one-dimensional slice of a valid cube is valid");
        // O(k) per dimension, so a ring of 65536 nodes is as quick as a small one.
        let mut cross = [vec![0.0f64; k as usize], vec![0.0f64; k as usize]];
        let (sum, max) = if s.wrap {
            // Translation invariance: route from 0 to every offset d; each of the k sources
            // sends one message per offset, and every channel of a direction carries the same.
            let (mut sum, mut max, mut plus_hops, mut minus_hops) = (0u64, 0, 0.0, 0.0);
            for d in 1..k {
                let h = one.hops_in_dimension(0, d, 0);
                sum += h as u64;
                max = max.max(h);
                let (plus, minus) = match s.bidirectional {
                    false => (1.0, 0.0),
                    true if 2 * d == k => (0.5, 0.5),
                    true if d < k - d => (1.0, 0.0),
                    true => (0.0, 1.0),
                };
                plus_hops += plus * h as f64;
                minus_hops += minus * h as f64;
            }
            cross[0].fill(plus_hops);
            cross[1].fill(minus_hops);
            (sum * k as u64, max)
        } else {
            // A line: the channel j -> j+1 carries the (j+1)(k−1−j) pairs a ≤ j < b, the
            // channel j -> j−1 the j(k−j) pairs b < j ≤ a.
            for j in 0..k as u64 {
                cross[0][j as usize] = ((j + 1) * (k as u64 - 1 - j)) as f64;
                cross[1][j as usize] = (j * (k as u64 - j)) as f64;
            }
            let sum: u64 = (1..k as u64).map(|d| 2 * (k as u64 - d) * d).sum();
            (sum, k - 1)
        };
        total += sum as f64 * (n / k as f64).powi(2);
        diameter += max;
        per_dim.push(cross);
    }
    let p = c.per_router() as f64;
    let terminals = n * p;
    let pairs = terminals * (terminals - 1.0);
    let avg = if pairs > 0.0 { total * p * p / pairs } else { 0.0 };
    // Messages per cycle between two routers at one message per terminal per cycle.
    let per_router_pair = p * p / (terminals - 1.0);
    let net = c.network();
    let loads: Vec<f64> = net
        .edges()
        .map(|(src, ch)| {
            let (dim, dir) = if s.bidirectional {
                (ch.class as usize / 2, ch.class as usize % 2)
            } else {
                (ch.class as usize, 0)
            };
            let k = s.radices[dim] as f64;
            // cross[1][j] counts the channel leaving coordinate j in the − direction.
            let j = c.coordinate(src, dim) as usize;
            per_dim[dim][dir][j] * (n / k) * per_router_pair
        })
        .collect();
    assemble(
        net,
        (diameter, avg),
        Ok((loads, "exact, from each dimension's coordinate pairs (dimension-order routing)".into())),
        bisection,
    )
}
