//! Collectives and motifs as workloads: each a dependency graph of messages among ranks,
//! generated round by round as the run reads it and replayed by the dependency-driven source
//! ([`crate::deps`]), run to completion.
//!
//! # The model
//! Ranks 0 … R − 1 run on the terminals a placement gives ([`Collective::placement`]). A
//! collective is a sequence of rounds; in each, some ranks send one or more messages. A rank's
//! sends in a round wait for the messages it received since it last sent (one: that message
//! plus `compute` cycles; several: a *join*, a node without a message that completes when all
//! of them are delivered, plus `compute`); a rank that received nothing since waits for what its
//! previous sends waited for. The first round's sends are independent: at cycle 0, or, for the
//! motifs that compute first (`halo2d`, `halo3d`, `bsp`), at cycle `compute`. `iterations`
//! repeats the whole collective (a motif's iterations), each iteration a phase of the run: a
//! rank starts the next one when what it received (or, having received nothing, its own last
//! message) has arrived. A message's size is in flits; `size` is the data per rank.
//!
//! # The algorithms (R ranks, S = `size` flits per rank)
//! - `allreduce-ring`: a reduce-scatter then an all-gather around the ring of ranks (Patarasuk
//!   & Yuan 2009): 2(R − 1) rounds, in each every rank sends ⌈S/R⌉ flits to rank r + 1 mod R.
//! - `allreduce-doubling`: recursive doubling (Thakur, Rabenseifner & Gropp 2005): log2 R
//!   rounds, in round k every rank exchanges all S flits with rank r XOR 2^k (R a power of
//!   two).
//! - `allreduce-rabenseifner`: Rabenseifner's algorithm (Thakur, Rabenseifner & Gropp 2005): a
//!   reduce-scatter by recursive halving (round k: with rank r XOR R/2^(k+1), ⌈S/2^(k+1)⌉
//!   flits) then an all-gather by recursive doubling (round k: with rank r XOR 2^k,
//!   ⌈S·2^k/R⌉ flits); 2·log2 R rounds (R a power of two).
//! - `alltoall`: R − 1 rounds, every rank sending ⌈S/R⌉ flits straight to one other rank each
//!   round: rank r + k mod R in round k (linear shift), or rank r XOR k (pairwise exchange,
//!   R a power of two).
//! - `allgather`: the ring all-gather, R − 1 rounds of ⌈S/R⌉ flits to rank r + 1 mod R.
//! - `broadcast`: a binomial tree from rank 0: in round k, every rank r < 2^k sends all S
//!   flits to rank r + 2^k (when below R); ⌈log2 R⌉ rounds.
//! - `halo2d`, `halo3d`: a process grid over the ranks (periodic, as MPI's `MPI_Cart_create`
//!   with `periods` set, rank numbering with the last dimension fastest); each iteration every
//!   rank computes, then sends S flits to each of its 4 (6) face neighbours (a dimension of
//!   extent 1 has none, one of extent 2 the same rank on both sides).
//! - `bsp`: a bulk-synchronous loop: each iteration every rank computes, then sends ⌈S/R⌉
//!   flits to every other rank (in linear-shift order); a rank computes the next iteration once
//!   it has all R − 1 messages, so every iteration ends with a barrier.
//!
//! # Memory
//! The graph is generated a round at a time: a round of R messages (R(R − 1) for `bsp`), and
//! per rank the ids it waits for. The source reads ahead by the graph's largest dependency
//! distance ([`Collective::summary`]), under three rounds' worth of nodes.

use crate::deps::{Node, Nodes};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

/// The collectives and motifs.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum CollectiveKind {
    /// All-reduce around a ring: reduce-scatter then all-gather, 2(R − 1) rounds of ⌈S/R⌉
    /// flits to the next rank.
    AllreduceRing,
    /// All-reduce by recursive doubling: log2 R rounds exchanging S flits (R a power of two).
    AllreduceDoubling,
    /// Rabenseifner's all-reduce: reduce-scatter by recursive halving, all-gather by recursive
    /// doubling (R a power of two).
    AllreduceRabenseifner,
    /// All-to-all, direct: R − 1 rounds of ⌈S/R⌉ flits, scheduled by `schedule`.
    Alltoall,
    /// All-gather around a ring: R − 1 rounds of ⌈S/R⌉ flits to the next rank.
    Allgather,
    /// Broadcast of S flits from rank 0 down a binomial tree.
    Broadcast,
    /// 2-D halo exchange: per iteration, compute, then S flits to each of 4 grid neighbours.
    #[strum(serialize = "halo2d")]
    #[serde(rename = "halo2d")]
    Halo2d,
    /// 3-D halo exchange: per iteration, compute, then S flits to each of 6 grid neighbours.
    #[strum(serialize = "halo3d")]
    #[serde(rename = "halo3d")]
    Halo3d,
    /// Bulk-synchronous loop: per iteration, compute, then ⌈S/R⌉ flits to every other rank.
    Bsp,
}

impl CollectiveKind {
    /// The spelling of the spec and the flag.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The process grid's dimensions (halo exchanges), else `None`.
    pub fn grid_dimensions(self) -> Option<usize> {
        match self {
            CollectiveKind::Halo2d => Some(2),
            CollectiveKind::Halo3d => Some(3),
            _ => None,
        }
    }

    /// Whether its algorithm needs a power-of-two rank count (`schedule` decides for
    /// `alltoall`).
    pub fn needs_power_of_two(self, schedule: Schedule) -> bool {
        matches!(self, CollectiveKind::AllreduceDoubling | CollectiveKind::AllreduceRabenseifner)
            || (self == CollectiveKind::Alltoall && schedule == Schedule::Pairwise)
    }

    /// Whether every iteration computes before it sends (the motifs).
    pub fn computes_first(self) -> bool {
        matches!(self, CollectiveKind::Halo2d | CollectiveKind::Halo3d | CollectiveKind::Bsp)
    }
}

/// The order of an all-to-all's rounds.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
    strum::EnumMessage,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Schedule {
    /// Round k: rank r sends to rank r + k mod R.
    #[default]
    LinearShift,
    /// Round k: rank r exchanges with rank r XOR k (R a power of two).
    Pairwise,
}

impl Schedule {
    /// The spelling of the spec and the flag.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A collective as the engine runs it, checked by the spec layer: a power-of-two rank count
/// where its algorithm needs one, a grid of R ranks for a halo exchange, a placement of
/// distinct terminals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Collective {
    /// Which one.
    pub kind: CollectiveKind,
    /// Data per rank, flits (at least 1).
    pub size: u32,
    /// Cycles of compute before each round's sends that follow receipts (and before the first
    /// round of the motifs that compute first).
    pub compute: u64,
    /// Repetitions (a motif's iterations), at least 1.
    pub iterations: u32,
    /// An all-to-all's schedule.
    pub schedule: Schedule,
    /// A halo exchange's process grid (its product is R); empty otherwise.
    pub grid: Vec<u32>,
    /// The terminal each rank runs on (R = its length).
    #[serde(skip)]
    pub placement: Arc<Vec<u32>>,
}

/// One message of a round: (sending rank, receiving rank, flits).
pub type Send = (u32, u32, u32);

/// What a collective's graph holds ([`Collective::summary`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Messages.
    pub messages: u64,
    /// Their flits.
    pub flits: u64,
    /// Joins.
    pub joins: u64,
    /// Rounds per iteration.
    pub rounds: u32,
    /// The largest id distance from a node to a node it waits for.
    pub distance: u64,
}

fn ceil_div(a: u32, b: u32) -> u32 {
    a.div_ceil(b.max(1)).max(1)
}

impl Collective {
    /// Ranks.
    pub fn ranks(&self) -> u32 {
        self.placement.len() as u32
    }

    /// Rounds per iteration.
    pub fn rounds(&self) -> u32 {
        let r = self.ranks();
        let log = r.max(1).ilog2();
        match self.kind {
            CollectiveKind::AllreduceRing => 2 * (r - 1),
            CollectiveKind::AllreduceDoubling => log,
            CollectiveKind::AllreduceRabenseifner => 2 * log,
            CollectiveKind::Alltoall | CollectiveKind::Allgather => r - 1,
            CollectiveKind::Broadcast => r.max(1).next_power_of_two().ilog2(),
            CollectiveKind::Halo2d | CollectiveKind::Halo3d | CollectiveKind::Bsp => 1,
        }
    }

    /// The messages of round `k` (of every iteration), in the order they are numbered.
    pub fn round(&self, k: u32) -> Vec<Send> {
        let (r, s) = (self.ranks(), self.size);
        let block = ceil_div(s, r);
        let log = r.max(1).ilog2();
        match self.kind {
            CollectiveKind::AllreduceRing | CollectiveKind::Allgather => {
                (0..r).map(|i| (i, (i + 1) % r, block)).collect()
            }
            CollectiveKind::AllreduceDoubling => (0..r).map(|i| (i, i ^ (1 << k), s)).collect(),
            CollectiveKind::AllreduceRabenseifner if k < log => {
                (0..r).map(|i| (i, i ^ (r >> (k + 1)), ceil_div(s, 1 << (k + 1)))).collect()
            }
            CollectiveKind::AllreduceRabenseifner => {
                let j = k - log;
                (0..r).map(|i| (i, i ^ (1 << j), ceil_div(s, 1 << (log - j)))).collect()
            }
            CollectiveKind::Alltoall => {
                let step = k + 1;
                (0..r)
                    .map(|i| match self.schedule {
                        Schedule::LinearShift => (i, (i + step) % r, block),
                        Schedule::Pairwise => (i, i ^ step, block),
                    })
                    .collect()
            }
            CollectiveKind::Broadcast => {
                let span = 1u32 << k;
                (0..span.min(r)).filter(|&i| i + span < r).map(|i| (i, i + span, s)).collect()
            }
            CollectiveKind::Halo2d | CollectiveKind::Halo3d => {
                let g = &self.grid;
                let mut out = Vec::with_capacity(r as usize * 2 * g.len());
                for i in 0..r {
                    let x = grid_coordinates(i, g);
                    for (d, &side) in g.iter().enumerate() {
                        if side == 1 {
                            continue;
                        }
                        for step in [side - 1, 1] {
                            let mut y = x.clone();
                            y[d] = (y[d] + step) % side;
                            out.push((i, grid_rank(&y, g), s));
                        }
                    }
                }
                out
            }
            CollectiveKind::Bsp => {
                (0..r).flat_map(|i| (1..r).map(move |step| (i, (i + step) % r, block))).collect()
            }
        }
    }

    /// The graph's nodes, generated as they are read.
    pub fn nodes(&self) -> Nodes {
        Box::new(Generator::new(self.clone()))
    }

    /// Counts the graph's messages, flits and joins, and its largest dependency distance, by
    /// generating it once.
    pub fn summary(&self) -> Summary {
        let mut s = Summary { rounds: self.rounds(), ..Summary::default() };
        for n in Generator::new(self.clone()) {
            if n.size == 0 {
                s.joins += 1;
            } else {
                s.messages += 1;
                s.flits += n.size as u64;
            }
            if let Some(&first) = n.after.iter().min() {
                s.distance = s.distance.max(n.id - first);
            }
        }
        s
    }
}

/// Rank `r`'s coordinates on process grid `g` (the last dimension fastest, as MPI's).
pub fn grid_coordinates(mut r: u32, g: &[u32]) -> Vec<u32> {
    let mut x = vec![0; g.len()];
    for d in (0..g.len()).rev() {
        x[d] = r % g[d];
        r /= g[d];
    }
    x
}

/// The rank at coordinates `x` of process grid `g`.
pub fn grid_rank(x: &[u32], g: &[u32]) -> u32 {
    x.iter().zip(g).fold(0, |acc, (&c, &side)| acc * side + c)
}

/// The most balanced grid of `dims` dimensions with `ranks` ranks, its sides nonincreasing
/// (as MPI's `MPI_Dims_create`): the prime factors, largest first, each given to the
/// dimension with the smallest product so far.
pub fn balanced_grid(ranks: u32, dims: usize) -> Vec<u32> {
    let mut factors = Vec::new();
    let (mut n, mut p) = (ranks.max(1), 2);
    while p * p <= n {
        while n % p == 0 {
            factors.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        factors.push(n);
    }
    let mut g = vec![1u32; dims];
    for &f in factors.iter().rev() {
        let i = (0..dims).min_by_key(|&i| (g[i], i)).unwrap_or(0);
        g[i] *= f;
    }
    g.sort_unstable_by(|a, b| b.cmp(a));
    g
}

/// Generates a collective's nodes round by round (see the module docs).
struct Generator {
    c: Collective,
    rounds: u32,
    iteration: u32,
    round: u32,
    next_id: u64,
    /// Per rank, the messages it received since it last sent.
    inbox: Vec<Vec<u64>>,
    /// Per rank, what its last sends waited for (`None`: independent).
    carry: Vec<Option<u64>>,
    /// Per rank, its last message sent.
    last_sent: Vec<Option<u64>>,
    buffer: VecDeque<Node>,
}

impl Generator {
    fn new(c: Collective) -> Self {
        let r = c.ranks() as usize;
        Generator {
            rounds: c.rounds(),
            iteration: 0,
            round: 0,
            next_id: 0,
            inbox: vec![Vec::new(); r],
            carry: vec![None; r],
            last_sent: vec![None; r],
            buffer: VecDeque::new(),
            c,
        }
    }

    /// Generates the next round into the buffer; false when the collective is over.
    fn next_round(&mut self) -> bool {
        if self.rounds == 0 || self.iteration >= self.c.iterations {
            return false;
        }
        let (k, phase) = (self.round, self.iteration);
        if k == 0 && phase > 0 {
            // A rank that received nothing in the last iteration waits for its own last message.
            for (inbox, sent) in self.inbox.iter_mut().zip(&self.last_sent) {
                if inbox.is_empty()
                    && let Some(id) = sent
                {
                    inbox.push(*id);
                }
            }
        }
        let sends = self.c.round(k);
        let place = |rank: u32| self.c.placement[rank as usize];
        let compute = self.c.compute;
        let start = if self.c.kind.computes_first() { compute } else { 0 };
        // What each sender's messages of this round wait for: (dependency, wait).
        let mut dep: Vec<Option<(Option<u64>, u64)>> = vec![None; self.inbox.len()];
        for &(src, _, _) in &sends {
            let i = src as usize;
            if dep[i].is_some() {
                continue;
            }
            let inbox = std::mem::take(&mut self.inbox[i]);
            dep[i] = Some(match inbox.len() {
                0 => (self.carry[i], 0),
                1 => (Some(inbox[0]), compute),
                _ => {
                    let id = self.next_id;
                    self.next_id += 1;
                    self.buffer.push_back(Node {
                        id,
                        cycle: u64::MAX,
                        source: place(src),
                        destination: place(src),
                        size: 0,
                        after: inbox,
                        wait: compute,
                        salt: None,
                        phase,
                    });
                    (Some(id), 0)
                }
            });
            if let Some((Some(d), _)) = dep[i] {
                self.carry[i] = Some(d);
            }
        }
        let mut received = Vec::with_capacity(sends.len());
        for (src, dst, size) in sends {
            let id = self.next_id;
            self.next_id += 1;
            let (after, wait) = dep[src as usize].unwrap_or((None, 0));
            self.buffer.push_back(Node {
                id,
                cycle: if after.is_some() { u64::MAX } else { start },
                source: place(src),
                destination: place(dst),
                size,
                after: after.into_iter().collect(),
                wait: if after.is_some() { wait } else { 0 },
                salt: None,
                phase,
            });
            self.last_sent[src as usize] = Some(id);
            received.push((dst, id));
        }
        for (dst, id) in received {
            self.inbox[dst as usize].push(id);
        }
        self.round += 1;
        if self.round == self.rounds {
            self.round = 0;
            self.iteration += 1;
        }
        true
    }
}

impl Iterator for Generator {
    type Item = Node;
    fn next(&mut self) -> Option<Node> {
        while self.buffer.is_empty() {
            if !self.next_round() {
                return None;
            }
        }
        self.buffer.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collective(kind: CollectiveKind, ranks: u32, size: u32) -> Collective {
        Collective {
            kind,
            size,
            compute: 0,
            iterations: 1,
            schedule: Schedule::LinearShift,
            grid: kind.grid_dimensions().map_or(Vec::new(), |d| balanced_grid(ranks, d)),
            placement: Arc::new((0..ranks).collect()),
        }
    }

    /// Verification: the message counts and sizes each algorithm's definition gives.
    #[test]
    fn message_counts_follow_the_algorithms() {
        let s = collective(CollectiveKind::AllreduceRing, 8, 64).summary();
        assert_eq!((s.messages, s.flits, s.rounds), (8 * 14, 8 * 14 * 8, 14));
        let s = collective(CollectiveKind::AllreduceDoubling, 16, 10).summary();
        assert_eq!((s.messages, s.flits), (16 * 4, 16 * 4 * 10));
        // Rabenseifner on 8 ranks, S = 64: 32 + 16 + 8 flits, then 8 + 16 + 32, per rank.
        let s = collective(CollectiveKind::AllreduceRabenseifner, 8, 64).summary();
        assert_eq!((s.messages, s.flits), (8 * 6, 8 * 2 * (32 + 16 + 8)));
        let s = collective(CollectiveKind::Alltoall, 5, 10).summary();
        assert_eq!((s.messages, s.flits), (20, 20 * 2));
        // A binomial tree reaches every other rank once.
        let s = collective(CollectiveKind::Broadcast, 11, 3).summary();
        assert_eq!((s.messages, s.rounds), (10, 4));
        // A 4 x 4 periodic grid: 4 faces per rank; each rank's sends wait on a join of 4.
        let mut h = collective(CollectiveKind::Halo2d, 16, 2);
        h.iterations = 3;
        let s = h.summary();
        assert_eq!((s.messages, s.joins), (16 * 4 * 3, 16 * 2));
        let s = collective(CollectiveKind::Bsp, 6, 12).summary();
        assert_eq!((s.messages, s.flits), (30, 60));
    }

    /// Verification: every dependency points back, within the summary's distance, to a node
    /// that exists, and receipts chain as the ring's definition says.
    #[test]
    fn ring_steps_wait_for_the_previous_receipt() {
        let c = collective(CollectiveKind::AllreduceRing, 4, 8);
        let nodes: Vec<Node> = c.nodes().collect();
        for n in &nodes {
            for &a in &n.after {
                assert!(a < n.id);
            }
        }
        // Round 1, rank 1 (id 4 + 1) waits for round 0's message from rank 0 (id 0).
        assert_eq!(nodes[5].after, vec![0]);
        assert!(nodes[..4].iter().all(|n| n.after.is_empty() && n.cycle == 0));
    }

    #[test]
    fn balanced_grids_are_as_mpi_dims_create() {
        assert_eq!(balanced_grid(64, 2), vec![8, 8]);
        assert_eq!(balanced_grid(12, 2), vec![4, 3]);
        assert_eq!(balanced_grid(64, 3), vec![4, 4, 4]);
        assert_eq!(balanced_grid(7, 2), vec![7, 1]);
        assert_eq!(grid_rank(&grid_coordinates(13, &[4, 5]), &[4, 5]), 13);
    }

    /// Characterisation: the kinds are spelt as the interface names them.
    #[test]
    fn kinds_are_spelt_as_the_interface() {
        let names: Vec<&str> =
            <CollectiveKind as strum::VariantArray>::VARIANTS.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            [
                "allreduce-ring",
                "allreduce-doubling",
                "allreduce-rabenseifner",
                "alltoall",
                "allgather",
                "broadcast",
                "halo2d",
                "halo3d",
                "bsp"
            ]
        );
    }
}
