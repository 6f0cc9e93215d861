//! The graph every family builds, the size limits every builder checks, and the routing
//! interface the simulator drives.
//!
//! # Layout
//! A network is stored so that its size is dominated by 8 bytes per directed channel:
//!
//! * Channels are numbered router by router: the channels leaving router `r` are one
//!   contiguous range of ids ([`Network::out_channels`]), so no per-channel out-list is
//!   needed, and a [`Channel`] does not store its source (8 bytes: `dst`, `width`, `class`).
//!   The source is recovered by [`Network::source`] (arithmetic or a binary search) or, in
//!   whole-network loops, by [`Network::edges`].
//! * Where the ranges start is arithmetic for runs of consecutive routers of equal
//!   out-degree (a torus is one run, a fat-tree one run per level, a multistage network two);
//!   only irregular graphs (meshes, dilated two-level butterflies) keep a start per router.
//! * Terminals attach to routers by arithmetic ([`Attach::Blocks`]: terminal `t` at router
//!   `t` in a direct network, at `t / 4` in a fat-tree, …); only families whose attachment
//!   has no closed form list one router per terminal.
//!
//! A unidirectional 32-ary 4-cube (2^20 routers, 4·2^20 channels) therefore takes 32 bytes
//! per node for its channels plus a few hundred bytes in all for everything else (the test
//! `footprint_of_a_32_ary_4_cube` checks this).

use crate::TopoError;
use serde::Serialize;
use std::ops::Range;

/// Index of a router (switch) in a [`Network`].
pub type RouterId = u32;
/// Index of a directed channel in a [`Network`].
pub type ChannelId = u32;
/// Index of a terminal (processor or memory port) in a [`Network`].
pub type TerminalId = u32;

/// Most terminals a network may have: 2^24 (16.8 million).
///
/// Ids are `u32`, so 2^32 would be the hard ceiling, but nothing that large can be
/// simulated or measured: a simulation keeps a traffic source, a random stream and
/// statistics for every terminal (tens to hundreds of bytes each), so 2^24 terminals already
/// need a few GB; the limit keeps a network and its simulation well inside a 24 GB machine.
pub const MAX_TERMINALS: u64 = 1 << 24;
/// Most routers a network may have: 2^24, for the same reason as [`MAX_TERMINALS`] (a
/// router model keeps queues and buffer state per router and port).
pub const MAX_ROUTERS: u64 = 1 << 24;
/// Most directed channels a network may have: 2^26 (67 million). A channel costs 8 bytes
/// here and about 50 more in a simulation (its queue, counters and offered load), so the
/// limit bounds a network and its simulation at about 4 GB.
pub const MAX_CHANNELS: u64 = 1 << 26;
/// Widest channel, in flits per cycle: [`Channel::width`] is 16 bits, which is ample (the
/// the papers' widest channels are 64 bits, so even 1-bit flits need a width of only 64) and keeps
/// a channel at 8 bytes.
pub const MAX_WIDTH: u32 = u16::MAX as u32;

const WHY_TERMINALS: &str = "a simulation keeps a source, a random stream and statistics per terminal; the limit keeps a network and its simulation within a few GB";
const WHY_ROUTERS: &str = "a simulation keeps queues and buffers per router; the limit keeps a network and its simulation within a few GB";
const WHY_CHANNELS: &str =
    "a channel costs 8 bytes here and about 50 more in a simulation, so the limit is about 4 GB";

/// The sizes a builder is about to allocate, computed from its parameters with checked
/// arithmetic (`None`: the count overflows 64 bits), so that an impossible request is
/// refused before anything is allocated.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Planned {
    pub terminals: Option<u64>,
    pub routers: Option<u64>,
    pub channels: Option<u64>,
}

impl Planned {
    /// Fails with [`TopoError::TooLarge`] naming `what` (called only then) when a count is over
    /// its limit.
    pub fn check(self, what: impl FnOnce() -> String) -> Result<(), TopoError> {
        let over = [
            ("terminals", self.terminals, MAX_TERMINALS, WHY_TERMINALS),
            ("routers", self.routers, MAX_ROUTERS, WHY_ROUTERS),
            ("directed channels", self.channels, MAX_CHANNELS, WHY_CHANNELS),
        ]
        .into_iter()
        .find(|&(_, count, limit, _)| count.is_none_or(|c| c > limit));
        match over {
            Some((quantity, count, limit, why)) => {
                Err(TopoError::TooLarge { what: what(), quantity, count, limit, why })
            }
            None => Ok(()),
        }
    }
}

/// Checked product of `u32` factors (`None` on overflow of 64 bits).
pub(crate) fn product(factors: impl IntoIterator<Item = u32>) -> Option<u64> {
    factors.into_iter().try_fold(1u64, |acc, x| acc.checked_mul(x as u64))
}

/// Converts a width in flits per cycle to a [`Channel::width`], refusing 0 and widths above
/// [`MAX_WIDTH`].
pub(crate) fn channel_width(flits: u32, what: &str) -> Result<u16, TopoError> {
    match u16::try_from(flits) {
        Ok(w) if w > 0 => Ok(w),
        _ => Err(TopoError::Invalid(format!(
            "{what} of {flits} flits per cycle is invalid: channel widths must lie in 1..={MAX_WIDTH} flits per cycle"
        ))),
    }
}

/// A directed channel, stored under the router it leaves (see [`Network::out_channels`] and
/// [`Network::source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Channel {
    /// Router the channel enters.
    pub dst: RouterId,
    /// Flits the channel carries per cycle (1 for the papers' unit-width channels; at most
    /// [`MAX_WIDTH`]).
    pub width: u16,
    /// Index into [`Network::classes`]: dimension and direction, tree level, intra/inter-module.
    pub class: u16,
}

/// Where a network's terminals attach: the router each terminal injects at, or is delivered
/// from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attach {
    /// Terminal `t` at router `first + (t / per_router) % cycle`: `t` itself in a direct
    /// network ([`Attach::one_each`]), `t / 4` in a fat-tree, `t mod (N/k)` at the first
    /// stage of a butterfly. No memory per terminal.
    Blocks {
        /// Router of terminal 0.
        first: RouterId,
        /// Consecutive terminals sharing a router (at least 1).
        per_router: u32,
        /// Routers after which the assignment starts again at `first` (at least 1).
        cycle: u32,
    },
    /// Terminal `t` at router `list[t]`.
    Listed(Vec<RouterId>),
}

impl Attach {
    /// Terminal `t` at router `t`.
    pub fn one_each() -> Self {
        Attach::Blocks { first: 0, per_router: 1, cycle: u32::MAX }
    }

    /// The router of terminal `t`.
    #[inline]
    pub fn router(&self, t: TerminalId) -> RouterId {
        match self {
            Attach::Blocks { first, per_router, cycle } => first + (t / per_router) % cycle,
            Attach::Listed(list) => list[t as usize],
        }
    }

    /// Largest router any of `terminals` terminals attaches to (`None` without terminals).
    fn max_router(&self, terminals: u32) -> Option<RouterId> {
        if terminals == 0 {
            return None;
        }
        match self {
            Attach::Blocks { first, per_router, cycle } => {
                assert!(*per_router > 0 && *cycle > 0, "attachment blocks need per_router, cycle >= 1");
                let blocks = (terminals - 1) / per_router;
                Some(first + blocks.min(cycle - 1))
            }
            Attach::Listed(list) => {
                assert_eq!(list.len() as u64, terminals as u64, "one router per terminal");
                list.iter().copied().max()
            }
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            Attach::Blocks { .. } => 0,
            Attach::Listed(list) => list.capacity() * size_of::<RouterId>(),
        }
    }
}

/// Routers with equal out-degree, consecutive in id: `degree` channels each, the first of
/// them (router `router`) starting at channel `channel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    router: RouterId,
    channel: ChannelId,
    degree: u32,
}

/// Where each router's channels start.
#[derive(Clone, Debug)]
enum OutIndex {
    /// Runs of routers with equal out-degree, in router order (at most [`MAX_RUNS`]).
    Runs(Vec<Run>),
    /// `starts[r] .. starts[r + 1]`, for graphs with too many runs.
    Starts(Vec<ChannelId>),
}

/// Runs above which a network keeps one start per router instead: a few dozen runs cover
/// every regular and levelled family, and a binary search over them stays within a cache line
/// or two.
const MAX_RUNS: usize = 64;

/// Collects a network's channels router by router; see [`Network`] for the numbering.
#[derive(Clone, Debug)]
pub struct NetworkBuilder {
    routers: u32,
    classes: Vec<String>,
    channels: Vec<Channel>,
    /// `starts[r]` for every router whose channels have begun (or that was skipped).
    starts: Vec<ChannelId>,
}

impl NetworkBuilder {
    /// A builder for `routers` routers whose channels belong to `classes`, with room for
    /// `channels` channels (give the exact count when known: the vector is never grown).
    pub fn new(routers: u32, channels: usize, classes: Vec<String>) -> Self {
        let mut starts = Vec::with_capacity(routers as usize + 1);
        starts.push(0);
        NetworkBuilder { routers, classes, channels: Vec::with_capacity(channels), starts }
    }

    /// Adds a channel from `src` to `dst` and returns its id (ids are given in order).
    ///
    /// # Panics
    /// When `src` is smaller than the previous channel's source (channels must come router by
    /// router), or when a router or class does not exist: builder bugs, not user input.
    #[inline]
    pub fn push(&mut self, src: RouterId, dst: RouterId, width: u16, class: u16) -> ChannelId {
        assert!(
            src < self.routers && dst < self.routers,
            "channel {src} -> {dst} names a router out of range"
        );
        assert!((class as usize) < self.classes.len(), "channel class {class} out of range");
        assert!(width > 0, "channel width 0");
        let id = self.channels.len() as ChannelId;
        let current = self.starts.len() as u32 - 1;
        assert!(src >= current, "channels must be added router by router (router {src} after {current})");
        while (self.starts.len() as u32) <= src {
            self.starts.push(id);
        }
        self.channels.push(Channel { dst, width, class });
        id
    }

    /// Channels added so far.
    pub fn len(&self) -> usize {
        self.channels.len()
    }

    /// True before the first channel.
    pub fn is_empty(&self) -> bool {
        self.channels.is_empty()
    }

    /// The network, with `terminals` terminals injecting at `inject` and delivered from
    /// `eject`.
    ///
    /// # Panics
    /// When a terminal attaches to a router that does not exist.
    pub fn finish(
        mut self,
        name: impl Into<String>,
        terminals: u32,
        inject: Attach,
        eject: Attach,
    ) -> Network {
        for a in [&inject, &eject] {
            if let Some(r) = a.max_router(terminals) {
                assert!(r < self.routers, "a terminal attaches to router {r} of {}", self.routers);
            }
        }
        let total = self.channels.len() as ChannelId;
        while self.starts.len() <= self.routers as usize {
            self.starts.push(total);
        }
        self.channels.shrink_to_fit();
        let mut runs: Vec<Run> = Vec::new();
        for r in 0..self.routers {
            let degree = self.starts[r as usize + 1] - self.starts[r as usize];
            if runs.last().is_none_or(|last| last.degree != degree) {
                if runs.len() == MAX_RUNS {
                    runs.clear();
                    break;
                }
                runs.push(Run { router: r, channel: self.starts[r as usize], degree });
            }
        }
        let out = if runs.is_empty() && self.routers > 0 {
            OutIndex::Starts(self.starts)
        } else {
            OutIndex::Runs(runs)
        };
        Network {
            name: name.into(),
            routers: self.routers,
            terminals,
            channels: self.channels,
            out,
            inject,
            eject,
            classes: self.classes,
            terminal_width: 1,
        }
    }
}

/// Routers, directed channels and terminals.
///
/// Channel ids are given router by router: the channels leaving router `r` are the ids
/// [`Network::out_channels`]`(r)`, in the order its builder added them (the families document
/// their port order, and their routing computes channel ids from it).
#[derive(Clone, Debug)]
pub struct Network {
    name: String,
    routers: u32,
    terminals: u32,
    channels: Vec<Channel>,
    out: OutIndex,
    inject: Attach,
    eject: Attach,
    classes: Vec<String>,
    terminal_width: u32,
}

impl Network {
    /// Assembles a small network by hand: `channels` are `(source, channel)` pairs, grouped by
    /// source in increasing order (channel `i` is the `i`-th pair); `inject[t]` and `eject[t]`
    /// are the routers terminal `t` enters and leaves the network at (the same router in a
    /// direct network). Families use [`NetworkBuilder`] directly.
    ///
    /// # Panics
    /// If the channels are not grouped by source, or name a router or class that does not
    /// exist.
    pub fn new(
        name: impl Into<String>,
        routers: u32,
        channels: Vec<(RouterId, Channel)>,
        inject: Vec<RouterId>,
        eject: Vec<RouterId>,
        classes: Vec<String>,
    ) -> Self {
        assert_eq!(inject.len(), eject.len(), "every terminal needs both routers");
        let mut b = NetworkBuilder::new(routers, channels.len(), classes);
        for (src, c) in channels {
            b.push(src, c.dst, c.width, c.class);
        }
        let terminals = inject.len() as u32;
        b.finish(name, terminals, Attach::Listed(inject), Attach::Listed(eject))
    }

    /// The family's name for this instance, e.g. `8-ary 2-cube (torus, unidirectional)`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Number of routers.
    pub fn routers(&self) -> u32 {
        self.routers
    }
    /// Number of terminals.
    pub fn terminals(&self) -> u32 {
        self.terminals
    }
    /// All channels, indexed by [`ChannelId`] (grouped by source router).
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }
    /// One channel.
    #[inline]
    pub fn channel(&self, c: ChannelId) -> &Channel {
        &self.channels[c as usize]
    }
    /// Ids of the channels leaving router `r`: a contiguous range.
    #[inline]
    pub fn out_channels(&self, r: RouterId) -> Range<ChannelId> {
        match &self.out {
            OutIndex::Runs(runs) => {
                let run = if runs.len() == 1 {
                    &runs[0]
                } else {
                    &runs[runs.partition_point(|x| x.router <= r) - 1]
                };
                let start = run.channel + (r - run.router) * run.degree;
                start..start + run.degree
            }
            OutIndex::Starts(s) => s[r as usize]..s[r as usize + 1],
        }
    }
    /// Out-degree of router `r`.
    #[inline]
    pub fn degree(&self, r: RouterId) -> u32 {
        self.out_channels(r).len() as u32
    }
    /// The router channel `c` leaves: arithmetic on a run of equal degrees, otherwise a binary
    /// search over the routers' starts (O(log routers)). Whole-network loops should use
    /// [`Network::edges`] instead.
    pub fn source(&self, c: ChannelId) -> RouterId {
        assert!((c as usize) < self.channels.len(), "channel {c} out of range");
        match &self.out {
            OutIndex::Runs(runs) => {
                // The last run starting at or before c is not empty: an empty run starts where
                // the next one does.
                let run = &runs[runs.partition_point(|x| x.channel <= c) - 1];
                run.router + (c - run.channel) / run.degree
            }
            OutIndex::Starts(s) => (s.partition_point(|&x| x <= c) - 1) as RouterId,
        }
    }
    /// Every channel with its source router, in [`ChannelId`] order (`enumerate` it for ids).
    pub fn edges(&self) -> impl Iterator<Item = (RouterId, &Channel)> + '_ {
        (0..self.routers).flat_map(move |r| {
            let range = self.out_channels(r);
            self.channels[range.start as usize..range.end as usize].iter().map(move |c| (r, c))
        })
    }
    /// Router at which terminal `t` injects.
    #[inline]
    pub fn inject_router(&self, t: TerminalId) -> RouterId {
        self.inject.router(t)
    }
    /// Router from which terminal `t` receives.
    #[inline]
    pub fn eject_router(&self, t: TerminalId) -> RouterId {
        self.eject.router(t)
    }
    /// How terminals attach for injection.
    pub fn inject_attach(&self) -> &Attach {
        &self.inject
    }
    /// How terminals attach for delivery.
    pub fn eject_attach(&self) -> &Attach {
        &self.eject
    }
    /// Names of the channel classes, indexed by [`Channel::class`].
    pub fn classes(&self) -> &[String] {
        &self.classes
    }
    /// Width, in flits per cycle, of each terminal's injection and ejection link (1 unless a
    /// family says otherwise, e.g. Raghunath & Ranade's Xbar.32.8 with 32-bit processor links).
    pub fn terminal_width(&self) -> u32 {
        self.terminal_width
    }
    /// Sets the terminals' link width (at least 1).
    pub fn set_terminal_width(&mut self, width: u32) {
        self.terminal_width = width.max(1);
    }
    /// The same routers and channels with the terminals attached anew (a family that reuses
    /// another family's graph, e.g. crossbar modules on an n-hop network).
    pub(crate) fn with_terminals(
        mut self,
        name: impl Into<String>,
        terminals: u32,
        inject: Attach,
        eject: Attach,
    ) -> Network {
        for a in [&inject, &eject] {
            if let Some(r) = a.max_router(terminals) {
                assert!(r < self.routers, "a terminal attaches to router {r} of {}", self.routers);
            }
        }
        self.name = name.into();
        (self.terminals, self.inject, self.eject) = (terminals, inject, eject);
        self
    }
    /// The same routers with every channel turned round and each terminal's injection and
    /// ejection routers swapped: the response network of a processor–memory ("dance-hall")
    /// network (Raghunath & Ranade §5.1 builds one network for requests and an identical one for the
    /// replies). Route it with [`crate::TableRouted`]. Every channel appears reversed with the
    /// same width and class; ids are renumbered router by router (by new source, then by the
    /// original id), as every network numbers its channels.
    pub fn reversed(&self) -> Network {
        let r = self.routers as usize;
        let mut starts = vec![0u32; r + 1];
        for c in &self.channels {
            starts[c.dst as usize + 1] += 1;
        }
        for i in 0..r {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut channels = vec![Channel { dst: 0, width: 1, class: 0 }; self.channels.len()];
        for (src, c) in self.edges() {
            let at = &mut fill[c.dst as usize];
            channels[*at as usize] = Channel { dst: src, ..*c };
            *at += 1;
        }
        drop(fill);
        let builder =
            NetworkBuilder { routers: self.routers, classes: self.classes.clone(), channels, starts };
        let mut net = builder.finish(
            format!("{} (reversed)", self.name),
            self.terminals,
            self.eject.clone(),
            self.inject.clone(),
        );
        net.terminal_width = self.terminal_width;
        net
    }
    /// This network for requests and `reply` for replies, side by side as one network of
    /// 2N terminals: terminal p < N injects into this network and is delivered from `reply`
    /// (processor p), terminal N + d is delivered from this network and injects into `reply`
    /// (memory d). `reply`'s routers and channels follow this network's, its classes are named
    /// `reply …`. Both must have the same N terminals.
    pub fn joined(&self, reply: &Network) -> Network {
        assert_eq!(self.terminals, reply.terminals, "requests and replies join the same terminals");
        let (r0, c0) = (self.routers, self.classes.len() as u16);
        let channels = self
            .edges()
            .map(|(s, c)| (s, *c))
            .chain(
                reply
                    .edges()
                    .map(|(s, c)| (s + r0, Channel { dst: c.dst + r0, width: c.width, class: c.class + c0 })),
            )
            .collect();
        let n = self.terminals;
        let inject = (0..n).map(|t| self.inject_router(t)).chain((0..n).map(|d| reply.inject_router(d) + r0));
        let eject = (0..n).map(|t| reply.eject_router(t) + r0).chain((0..n).map(|d| self.eject_router(d)));
        let classes =
            self.classes.iter().cloned().chain(reply.classes.iter().map(|c| format!("reply {c}"))).collect();
        let mut net = Network::new(
            format!("{} with replies on {}", self.name, reply.name),
            r0 + reply.routers,
            channels,
            inject.collect(),
            eject.collect(),
            classes,
        );
        net.terminal_width = self.terminal_width;
        net
    }
    /// Out-degree of every router, as (minimum, maximum); (0, 0) without routers.
    pub fn degree_range(&self) -> (u32, u32) {
        let fold = |it: &mut dyn Iterator<Item = u32>| {
            it.fold(None, |acc: Option<(u32, u32)>, d| {
                Some(acc.map_or((d, d), |(lo, hi)| (lo.min(d), hi.max(d))))
            })
        };
        let range = match &self.out {
            OutIndex::Runs(runs) => fold(&mut runs.iter().map(|x| x.degree)),
            OutIndex::Starts(s) => fold(&mut s.windows(2).map(|w| w[1] - w[0])),
        };
        range.unwrap_or((0, 0))
    }
    /// Bytes this network holds on the heap (from capacities): channels, the out-index,
    /// terminal lists, name and class names.
    pub fn heap_bytes(&self) -> usize {
        let index = match &self.out {
            OutIndex::Runs(runs) => runs.capacity() * size_of::<Run>(),
            OutIndex::Starts(s) => s.capacity() * size_of::<ChannelId>(),
        };
        self.channels.capacity() * size_of::<Channel>()
            + index
            + self.inject.heap_bytes()
            + self.eject.heap_bytes()
            + self.name.capacity()
            + self.classes.capacity() * size_of::<String>()
            + self.classes.iter().map(String::capacity).sum::<usize>()
    }
}

/// The channels a message may take next, in the routing function's order of preference;
/// empty means "deliver here".
///
/// Every candidate pushed is kept. A routing's candidates are distinct channels leaving the
/// router it routes at, so there are never more than that router's out-degree; a list made
/// by [`Candidates::for_network`] has room for the network's largest, so routing into it never
/// allocates. Make one per loop (or engine) and reuse it for every route: [`Candidates::clear`]
/// keeps the room. (A list from `default()` allocates on its first push, and grows like a
/// `Vec` when full.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Candidates {
    buf: Vec<ChannelId>,
}

impl Candidates {
    /// An empty list with room for `n` candidates before it allocates again.
    pub fn with_capacity(n: usize) -> Self {
        Candidates { buf: Vec::with_capacity(n) }
    }
    /// An empty list with room for every candidate of any router of `net`: its largest
    /// out-degree ([`Network::degree_range`]), at least one.
    pub fn for_network(net: &Network) -> Self {
        Self::with_capacity(net.degree_range().1.max(1) as usize)
    }
    /// Candidates it holds without allocating.
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }
    /// Forgets all candidates (keeping the room).
    #[inline]
    pub fn clear(&mut self) {
        self.buf.clear();
    }
    /// Adds a candidate after the others. Every candidate is kept: a full list grows (one made
    /// by [`Candidates::for_network`] for the network routed never is full).
    #[inline]
    pub fn push(&mut self, c: ChannelId) {
        self.buf.push(c);
    }
    /// The candidates, in the routing function's order of preference.
    #[inline]
    pub fn as_slice(&self) -> &[ChannelId] {
        &self.buf
    }
    /// Adds `c`, if any, after the others.
    #[inline]
    pub fn extend_from(&mut self, c: Option<ChannelId>) {
        if let Some(c) = c {
            self.buf.push(c);
        }
    }
    /// Number of candidates.
    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    /// True when the message has reached the router that delivers it.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
}

/// A routing function: which channels a message may take next.
///
/// `salt` is a per-message random value, so routing functions that break ties (such as the
/// direction of a half-way hop on a bidirectional ring) do so reproducibly and evenly.
pub trait Routing: Sync {
    /// Fills `out` with the channels a message at router `at`, bound for terminal `dest`, may
    /// take next, most preferred first: distinct channels leaving `at` (so at most its
    /// out-degree, which a [`Candidates::for_network`] holds without allocating); leaves it
    /// empty when `at` delivers to `dest`.
    fn route(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates);

    /// Whether the salt can change which channels are offered, not just their order. Load
    /// computations that split each message evenly over the candidates then need to route a
    /// message under both salt classes; when `false` (the families' tie-breaking only reorders
    /// candidates, or there is none) they route it once, which halves their cost. `true`, the
    /// default, is always correct.
    fn salt_changes_candidates(&self) -> bool {
        true
    }

    /// Whether the salt changes nothing of `route`'s candidates at `at` for `dest` but their
    /// order: `salt_changes_candidates` for one router and destination, so that a simulator
    /// may route the pair once and remember a single candidate. By default the whole
    /// routing's answer; families whose salt matters only for some pairs refine it.
    fn salt_free(&self, at: RouterId, dest: TerminalId) -> bool {
        let _ = (at, dest);
        !self.salt_changes_candidates()
    }

    /// Every minimal next hop, for adaptive routing (Puente et al.'s adaptive virtual channels,
    /// Fig. 4): families whose own routing is deterministic (dimension order on tori, meshes,
    /// rings and hypercubes) override it; by default `route`'s candidates, which are already
    /// every minimal next hop on the others.
    fn minimal(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        self.route(at, dest, salt, out);
    }

    /// The channels over which messages like this one (at `at`, bound for `dest`, of `salt`'s
    /// class) spread evenly: `route`'s candidates, unless the routing itself picks one of
    /// several channels from the salt (a per-message random choice, as `random` up ports on
    /// XGFTs), in which case every channel it may pick, each taken by an equal share of
    /// messages. Exact loads ([`crate::metrics::add_flow`]) split each message evenly over
    /// these, and the static deadlock check follows each of them. Default: `route`.
    fn spread(&self, at: RouterId, dest: TerminalId, salt: u32, out: &mut Candidates) {
        self.route(at, dest, salt, out);
    }

    /// Whether routes travel around rings of one class (the wrap-around channels of tori,
    /// rings and circulants), which Bubble flow control must protect. Default: no.
    fn rings(&self) -> bool {
        false
    }

    /// The one channel of the deterministic escape routing under adaptive routing (Duato's
    /// escape sub-network; dimension order on tori, meshes, rings and hypercubes, the routing
    /// record's b-hops first on Midimews), `None` at `dest`'s router. By default `route`'s
    /// first candidate, routed into a list made for the call (an allocation per call): the
    /// families escape routing runs on (k-ary n-cubes and circulants) override it with one that
    /// allocates nothing.
    fn escape(&self, at: RouterId, dest: TerminalId, salt: u32) -> Option<ChannelId> {
        let mut out = Candidates::default();
        self.route(at, dest, salt, &mut out);
        out.as_slice().first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(dst: u32) -> Channel {
        Channel { dst, width: 1, class: 0 }
    }

    /// Characterises the layout: a channel is 8 bytes.
    #[test]
    fn a_channel_is_eight_bytes() {
        assert_eq!(size_of::<Channel>(), 8);
    }

    /// Verifies ranges, sources and degrees on a hand-made irregular graph (router 1 has no
    /// channels, so runs of different degrees alternate) against the listed channels.
    #[test]
    fn out_ranges_and_sources_match_the_listed_channels() {
        let list = vec![(0, ch(1)), (0, ch(2)), (2, ch(0)), (3, ch(0)), (3, ch(1)), (3, ch(2))];
        let net = Network::new("g", 5, list.clone(), vec![0, 4], vec![4, 0], vec!["x".into()]);
        assert_eq!(net.out_channels(0), 0..2);
        assert_eq!(net.out_channels(1), 2..2);
        assert_eq!(net.out_channels(2), 2..3);
        assert_eq!(net.out_channels(3), 3..6);
        assert_eq!(net.out_channels(4), 6..6);
        for (i, &(src, c)) in list.iter().enumerate() {
            assert_eq!(net.source(i as u32), src);
            assert_eq!(*net.channel(i as u32), c);
        }
        let edges: Vec<(u32, Channel)> = net.edges().map(|(s, c)| (s, *c)).collect();
        assert_eq!(edges, list);
        assert_eq!(net.degree_range(), (0, 3));
        assert_eq!((net.inject_router(1), net.eject_router(1)), (4, 0));
    }

    /// Verifies the per-router starts that replace runs on graphs with many degree changes.
    #[test]
    fn many_degree_changes_fall_back_to_per_router_starts() {
        let mut list = Vec::new();
        for r in 0..300u32 {
            for _ in 0..(r % 3) {
                list.push((r, ch((r + 1) % 300)));
            }
        }
        let net = Network::new("g", 300, list.clone(), vec![], vec![], vec!["x".into()]);
        assert!(matches!(net.out, OutIndex::Starts(_)));
        for (i, &(src, _)) in list.iter().enumerate() {
            assert_eq!(net.source(i as u32), src);
        }
        for r in 0..300 {
            assert_eq!(net.degree(r), r % 3);
        }
    }

    /// Verifies that reversing twice gives back every channel with its width and class.
    #[test]
    fn reversing_turns_every_channel_round() {
        let list = vec![
            (0, Channel { dst: 2, width: 3, class: 1 }),
            (1, Channel { dst: 2, width: 1, class: 0 }),
            (2, Channel { dst: 0, width: 2, class: 0 }),
        ];
        let net = Network::new("g", 3, list, vec![0], vec![1], vec!["a".into(), "b".into()]);
        let back = net.reversed();
        let got: Vec<(u32, Channel)> = back.edges().map(|(s, c)| (s, *c)).collect();
        assert_eq!(
            got,
            vec![
                (0, Channel { dst: 2, width: 2, class: 0 }),
                (2, Channel { dst: 0, width: 3, class: 1 }),
                (2, Channel { dst: 1, width: 1, class: 0 }),
            ]
        );
        assert_eq!((back.inject_router(0), back.eject_router(0)), (1, 0));
        let twice: Vec<(u32, Channel)> = back.reversed().edges().map(|(s, c)| (s, *c)).collect();
        let once: Vec<(u32, Channel)> = net.edges().map(|(s, c)| (s, *c)).collect();
        assert_eq!(twice, once);
    }

    #[test]
    #[should_panic(expected = "router by router")]
    fn channels_out_of_source_order_are_a_builder_bug() {
        Network::new("g", 2, vec![(1, ch(0)), (0, ch(1))], vec![], vec![], vec!["x".into()]);
    }

    /// Verifies the limit check's arithmetic and message: what was asked, the count, the
    /// limit and the reason.
    #[test]
    fn planned_sizes_over_a_limit_are_refused_with_the_reason() {
        let ok = Planned { terminals: Some(MAX_TERMINALS), routers: Some(1), channels: Some(MAX_CHANNELS) };
        assert!(ok.check(|| unreachable!()).is_ok());
        let e = Planned { terminals: Some(8), routers: Some(8), channels: Some(MAX_CHANNELS + 1) }
            .check(|| "the thing".into())
            .unwrap_err();
        let TopoError::TooLarge { quantity, count, limit, .. } = &e else { panic!("{e:?}") };
        assert_eq!((*quantity, *count, *limit), ("directed channels", Some(MAX_CHANNELS + 1), MAX_CHANNELS));
        let text = e.to_string();
        assert!(text.contains("the thing would have 67108865 directed channels"), "{text}");
        assert!(text.contains("67108864 = 2^26") && text.contains("4 GB"), "{text}");
        let e = Planned { terminals: None, routers: Some(1), channels: Some(1) }
            .check(|| "x".into())
            .unwrap_err();
        assert!(e.to_string().contains("more than 2^64 terminals"), "{e}");
        assert_eq!(product([1 << 16, 1 << 16, 1 << 16, 1 << 16]), None);
        assert_eq!(product([1000, 1000, 1000]), Some(1_000_000_000));
    }
}
