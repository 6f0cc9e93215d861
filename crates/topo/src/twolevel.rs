//! Raghunath & Ranade's two-level butterfly networks: a butterfly of 2×2 switches connecting N
//! processors to N memories, split into M packaging modules so that the links between
//! modules form a complete graph (Butterfly.I.E, §5.1) or an n-hop network (nhop.I.E1-E2,
//! §5.2), with their own channel widths and optional dilation of the intra-module channels.
//!
//! Construction (§5.2: "separate these columns into (n + 1) groups … and shuffle the rows such
//! that the connections within each group form butterflies"). The inter-module graph is
//! K_f1 × … × K_fn (each f_g a power of two, product M). Each module holds R = max f_g rows
//! (x = log₂ R local bits); a row is (module m, local l), and c = N/(M·R) processors share a
//! row (the seed's concentrator trees, which are not modelled as routers: a row's processors
//! inject directly at its first switch). There are n + 1 groups of x stages; stage t of a
//! group joins, within one module, the two rows differing in local bit x−1−t. Between groups
//! g and g+1 the rows are transposed: the low s_g = log₂ f_g local bits swap with the module
//! label's bit-field of factor g (factor 1 in the least significant bits, as in §5.2 where the
//! K4 "connects modules that differ in their least significant 2 bits"). A transposed row
//! that changes module is an inter-module channel of class `inter g`; everything else is
//! `intra`.
//!
//! Routing: in group g < n the stages that fix the local bits transposed next (b < s_g) send
//! the message towards the destination module's bits; the other bits are free, so both ports
//! are offered (every path has the same length); the last group fixes the destination row.
//! Widths: an edge of K_f carries `inter_bits[g]` bits per direction in one network, shared by
//! the 2^(x − s_g) rows that cross it (§5.2: K4 edges of 64-bit channels when modules have
//! 8 rows). Channel widths are in flits of gcd(all widths) bits.

use crate::TopoError;
use crate::network::{
    Attach, Candidates, Network, NetworkBuilder, Planned, RouterId, Routing, TerminalId, channel_width,
};
use serde::{Deserialize, Serialize};

/// The parameters of a two-level butterfly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleSplit {
    /// Complete-graph factors of the inter-module network (powers of two, product = M);
    /// one factor is a complete graph.
    pub factors: Vec<u32>,
    /// Intra-module channel width in bits (also the processors' and memories' links).
    pub intra_bits: u32,
    /// Per-direction width in bits of one inter-module edge, one per factor.
    pub inter_bits: Vec<u32>,
    /// Parallel intra-module channels between two switches (dilation, §5.1.3), 1 to 4;
    /// processor and memory links are not dilated.
    #[serde(default = "one")]
    pub dilation: u32,
}

fn one() -> u32 {
    1
}

/// A built two-level butterfly.
///
/// A switch's channels are numbered port 0's first, then port 1's; a port has `dilation`
/// parallel channels when it stays within its module and one when it crosses to another, so
/// routing finds a port's channels from the router's first channel and that channel's class.
#[derive(Clone, Debug)]
pub struct ModularButterfly {
    split: ModuleSplit,
    x: u32,
    per_row: u32,
    rows_per_module: u32,
    per_stage: u32,
    stages: u32,
    field_offset: Vec<u32>,
    field_bits: Vec<u32>,
    flit_bits: u32,
    network: Network,
}

fn remove_bit(v: u32, b: u32) -> u32 {
    ((v >> (b + 1)) << b) | (v & ((1 << b) - 1))
}
fn insert_bit(v: u32, b: u32, bit: u32) -> u32 {
    ((v >> b) << (b + 1)) | (bit << b) | (v & ((1 << b) - 1))
}
fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl ModularButterfly {
    /// Builds it for N processors (= memories) in M modules.
    pub fn new(processors: u32, modules: u32, split: ModuleSplit) -> Result<Self, TopoError> {
        let f = &split.factors;
        if f.is_empty() || f.iter().any(|&m| m < 2 || !m.is_power_of_two()) {
            return Err(TopoError::Invalid(format!(
                "inter-module factors {f:?} are invalid: give one or more powers of two >= 2 (e.g. [32] for a complete graph, [4, 8] for K4 x K8)"
            )));
        }
        let product: u64 = f.iter().map(|&m| m as u64).product();
        if product != modules as u64 {
            return Err(TopoError::Invalid(format!(
                "the factors {f:?} multiply to {product}, not to M = {modules} modules"
            )));
        }
        if split.inter_bits.len() != f.len() {
            return Err(TopoError::Invalid(format!(
                "{} inter-module widths given for {} factors: give one per factor",
                split.inter_bits.len(),
                f.len()
            )));
        }
        if split.intra_bits == 0 || split.inter_bits.contains(&0) {
            return Err(TopoError::Invalid(
                "channel width 0 is invalid: widths must be at least 1 bit".into(),
            ));
        }
        if !(1..=4).contains(&split.dilation) {
            return Err(TopoError::Invalid(format!(
                "dilation {} is invalid: use 1 to 4 parallel channels",
                split.dilation
            )));
        }
        let rows_per_module = *f.iter().max().unwrap_or(&2);
        let x = rows_per_module.trailing_zeros();
        let rows = modules as u64 * rows_per_module as u64;
        if processors == 0 || !(processors as u64).is_multiple_of(rows) {
            return Err(TopoError::Invalid(format!(
                "N = {processors} processors is invalid: with M = {modules} modules of {rows_per_module} rows (the largest factor) N must be a positive multiple of {rows}"
            )));
        }
        let per_row = (processors as u64 / rows) as u32;
        let field_bits: Vec<u32> = f.iter().map(|m| m.trailing_zeros()).collect();
        let mut field_offset = Vec::new();
        let mut o = 0;
        for &b in &field_bits {
            field_offset.push(o);
            o += b;
        }
        // Per-row inter widths: an edge's width is shared by the rows crossing it.
        let mut row_inter = Vec::new();
        for (g, &bits) in split.inter_bits.iter().enumerate() {
            let share = 1u32 << (x - field_bits[g]);
            if bits % share != 0 {
                return Err(TopoError::Invalid(format!(
                    "inter-module width {bits} bits for K{} is invalid: {share} rows share each edge, so it must be a multiple of {share}",
                    f[g]
                )));
            }
            row_inter.push(bits / share);
        }
        let flit_bits = row_inter.iter().fold(split.intra_bits, |a, &b| gcd(a, b));
        let intra_width = channel_width(split.intra_bits / flit_bits, "the intra-module width")?;
        let inter_width: Vec<u16> = row_inter
            .iter()
            .map(|&b| channel_width(b / flit_bits, "an inter-module width"))
            .collect::<Result<_, _>>()?;
        let n = f.len() as u32;
        let stages = (n + 1) * x;
        // Stage transitions: within a group every row's port is an intra-module channel
        // (dilated); at the end of group g < n the rows are transposed, and the 1 in f_g whose
        // module field already equals their low local bits stay in their module.
        let dil = split.dilation as u64;
        let channels = (0..stages as u64 - 1).try_fold(0u64, |acc, st| {
            let (g, t) = (st / x as u64, st % x as u64);
            let here = if t + 1 < x as u64 {
                rows.checked_mul(dil)?
            } else {
                let stay = rows / f[g as usize] as u64;
                (stay * dil).checked_add(rows - stay)?
            };
            acc.checked_add(here)
        });
        let routers = (stages as u64).checked_mul(rows / 2);
        let intra = if split.dilation > 1 {
            format!("{}-{}dil", split.intra_bits, split.dilation)
        } else {
            split.intra_bits.to_string()
        };
        let inter = split.inter_bits.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
        let family = if n == 1 { "Butterfly".to_string() } else { format!("{n}hop") };
        let graph = f.iter().map(|m| format!("K{m}")).collect::<Vec<_>>().join(" x ");
        let name = format!(
            "{family}.{intra}.{inter} ({processors} processors, {modules} modules joined by {graph})"
        );
        Planned { terminals: Some(processors as u64), routers, channels }.check(|| format!("the {name}"))?;
        let per_stage = (rows / 2) as u32;
        let half = rows_per_module / 2;
        let sw = |m: u32, l: u32, t: u32| m * half + remove_bit(l, x - 1 - t);
        let classes = std::iter::once("intra".to_string())
            .chain(f.iter().enumerate().map(|(g, m)| format!("inter {} (K{m})", g + 1)))
            .collect();
        let mut b = NetworkBuilder::new(stages * per_stage, channels.unwrap_or(0) as usize, classes);
        for st in 0..stages - 1 {
            let (g, t) = (st / x, st % x);
            let bit = x - 1 - t;
            for s in 0..per_stage {
                let (m, rest) = (s / half, s % half);
                for p in 0..2 {
                    let l = insert_bit(rest, bit, p);
                    let (m2, l2, class) = if t + 1 < x {
                        (m, l, 0u16)
                    } else {
                        // Transpose: low s_g local bits <-> module field g.
                        let (off, sb) = (field_offset[g as usize], field_bits[g as usize]);
                        let mask = (1 << sb) - 1;
                        let m2 = (m & !(mask << off)) | ((l & mask) << off);
                        let l2 = (l & !mask) | ((m >> off) & mask);
                        (m2, l2, if m2 == m { 0 } else { 1 + g as u16 })
                    };
                    let dst = (st + 1) * per_stage + sw(m2, l2, (st + 1) % x);
                    let (width, copies) =
                        if class == 0 { (intra_width, split.dilation) } else { (inter_width[g as usize], 1) };
                    for _ in 0..copies {
                        b.push(st * per_stage + s, dst, width, class);
                    }
                }
            }
        }
        debug_assert_eq!(Some(b.len() as u64), channels);
        // A row's processors inject at its first-stage switch, m·R/2 + (l mod R/2) for row
        // (m, l) (no closed form in the processor number, so listed), and are delivered from
        // the last stage's switch of the same row, m·R/2 + l/2 = row / 2.
        let row_of = |p: u32| p / per_row;
        let inject = (0..processors)
            .map(|p| sw(row_of(p) / rows_per_module, row_of(p) % rows_per_module, 0))
            .collect();
        let last = (stages - 1) * per_stage;
        debug_assert!((0..processors.min(4096)).all(|p| {
            last + sw(row_of(p) / rows_per_module, row_of(p) % rows_per_module, x - 1) == last + row_of(p) / 2
        }));
        let eject = Attach::Blocks { first: last, per_router: 2 * per_row, cycle: u32::MAX };
        let mut network = b.finish(name, processors, Attach::Listed(inject), eject);
        network.set_terminal_width(split.intra_bits / flit_bits);
        Ok(ModularButterfly {
            split,
            x,
            per_row,
            rows_per_module,
            per_stage,
            stages,
            field_offset,
            field_bits,
            flit_bits,
            network,
        })
    }

    /// The graph.
    pub fn network(&self) -> &Network {
        &self.network
    }
    /// The parameters.
    pub fn split(&self) -> &ModuleSplit {
        &self.split
    }
    /// Bits per flit (the gcd of the channel widths).
    pub fn flit_bits(&self) -> u32 {
        self.flit_bits
    }
    /// Stages of 2×2 switches ((n + 1)·x).
    pub fn stages(&self) -> u32 {
        self.stages
    }
    /// Bytes held on the heap: the network and the per-factor bit fields.
    pub fn heap_bytes(&self) -> usize {
        self.network.heap_bytes()
            + (self.field_offset.capacity() + self.field_bits.capacity()) * size_of::<u32>()
    }
    /// Module holding router `r`.
    pub fn module_of(&self, r: RouterId) -> u32 {
        (r % self.per_stage) / (self.rows_per_module / 2)
    }
}

impl Routing for ModularButterfly {
    #[inline]
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        out.clear();
        let st = at / self.per_stage;
        if st + 1 >= self.stages {
            return;
        }
        let (g, t) = (st / self.x, st % self.x);
        let b = self.x - 1 - t;
        let row = dest / self.per_row;
        let (dm, dl) = (row / self.rows_per_module, row % self.rows_per_module);
        let n = self.field_bits.len() as u32;
        let want = if g == n {
            Some((dl >> b) & 1)
        } else if b < self.field_bits[g as usize] {
            Some((dm >> (self.field_offset[g as usize] + b)) & 1)
        } else {
            None
        };
        let first = self.network.out_channels(at).start;
        // A port has `dilation` channels when it stays in the module (class 0), else one.
        let copies = |c: u32| if self.network.channel(c).class == 0 { self.split.dilation } else { 1 };
        let mut push_port = |p: u32| {
            let start = if p == 0 { first } else { first + copies(first) };
            for c in start..start + copies(start) {
                out.push(c);
            }
        };
        match want {
            Some(p) => push_port(p),
            None => {
                let first = salt & 1;
                push_port(first);
                push_port(first ^ 1);
            }
        }
    }

    fn salt_changes_candidates(&self) -> bool {
        false
    }
}
