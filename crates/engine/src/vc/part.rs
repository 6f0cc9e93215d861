//! How the routers' state is cut into shards (module docs' "Threads"): a shard's part of each
//! table ([`Part`]), the ranges of numbers a shard owns ([`Span`]), and the packet and message
//! tables every shard reaches ([`Shared`]).

use super::state::{Layout, Packet, Route};
use crate::Msg;
use netwrap_topo::Network;
use std::ops::{Index, IndexMut, Range};

/// How a run's tables are numbered: from 0 with one shard ([`OneShard`]), from each shard's
/// first number with several ([`ManyShards`]). With one shard an index is used as it is, and a
/// part keeps no base: subtracting one would cost the one-thread run about 8% more
/// instructions (callgrind, `vc-caminos8x8`'s configuration), as every table is indexed several
/// times per flit, and a base beside each of some forty tables' headers slowed it by 5%.
pub(super) trait Numbering: Send + 'static {
    /// Whether the run has several shards.
    const SHARDED: bool;
    /// Where a part's numbers start (nothing with one shard).
    type Base: Copy + std::fmt::Debug + Send;
    fn base(start: usize) -> Self::Base;
    fn start(base: Self::Base) -> usize;
}

/// One shard: every part starts at 0.
pub(super) struct OneShard;

/// Several shards: a part starts at its shard's first number.
pub(super) struct ManyShards;

impl Numbering for OneShard {
    const SHARDED: bool = false;
    type Base = ();
    #[inline(always)]
    fn base(start: usize) {
        assert_eq!(start, 0, "one shard's parts start at 0");
    }
    #[inline(always)]
    fn start(_: ()) -> usize {
        0
    }
}

impl Numbering for ManyShards {
    const SHARDED: bool = true;
    type Base = usize;
    #[inline(always)]
    fn base(start: usize) -> usize {
        start
    }
    #[inline(always)]
    fn start(base: usize) -> usize {
        base
    }
}

/// A shard's part of a table indexed by the network's numbers (input VC, port, channel, output
/// VC, router, terminal): the elements `base..base + len`, indexed by their network numbers.
/// An index outside the part panics (it would be another shard's element).
#[derive(Clone, Debug)]
pub(super) struct Part<T, S: Numbering> {
    base: S::Base,
    items: Vec<T>,
}

impl<T: Clone, S: Numbering> Part<T, S> {
    /// Elements `range`, each `value`.
    pub fn filled(range: Range<usize>, value: T) -> Self {
        Part { base: S::base(range.start), items: vec![value; range.len()] }
    }
}

impl<T, S: Numbering> Part<T, S> {
    /// Elements `range.start..`, `f(i)` each.
    pub fn from_fn(range: Range<usize>, f: impl FnMut(usize) -> T) -> Self {
        Part { base: S::base(range.start), items: range.map(f).collect() }
    }

    /// Where index `i` is in the items.
    #[inline(always)]
    fn at(&self, i: usize) -> usize {
        if S::SHARDED { i.wrapping_sub(S::start(self.base)) } else { i }
    }

    /// No elements (a table the run does not use).
    pub fn empty() -> Self {
        Part { base: S::base(0), items: Vec::new() }
    }

    /// The network numbers this part holds.
    #[inline]
    pub fn range(&self) -> Range<usize> {
        let start = S::start(self.base);
        start..start + self.items.len()
    }

    /// The elements, in number order.
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// The elements, to write.
    pub fn items_mut(&mut self) -> &mut [T] {
        &mut self.items
    }
}

impl<T, S: Numbering> Index<usize> for Part<T, S> {
    type Output = T;

    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.items[self.at(i)]
    }
}

impl<T, S: Numbering> IndexMut<usize> for Part<T, S> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        let i = self.at(i);
        &mut self.items[i]
    }
}

impl<T, S: Numbering> Index<Range<usize>> for Part<T, S> {
    type Output = [T];

    #[inline(always)]
    fn index(&self, r: Range<usize>) -> &[T] {
        &self.items[self.at(r.start)..self.at(r.end)]
    }
}

impl<T, S: Numbering> IndexMut<Range<usize>> for Part<T, S> {
    #[inline(always)]
    fn index_mut(&mut self, r: Range<usize>) -> &mut [T] {
        let (a, b) = (self.at(r.start), self.at(r.end));
        &mut self.items[a..b]
    }
}

/// The numbers a shard owns: its routers' (a run of whole blocks of 64, so that the active
/// set's words are not shared), their input ports and VCs, their outgoing channels and output
/// VCs (channels are numbered by source router), and the terminals injecting at and ejecting
/// from them (terminals are numbered by router: [`terminals_in_order`]).
#[derive(Clone, Debug)]
pub(super) struct Span {
    pub routers: Range<usize>,
    pub ports: Range<usize>,
    pub channels: Range<usize>,
    pub words: Range<usize>,
    pub injecting: Range<usize>,
    pub ejecting: Range<usize>,
}

impl Span {
    /// The span of routers `routers` (`a..b`).
    pub fn new(net: &Network, layout: &Layout, routers: Range<u32>) -> Self {
        let (a, b) = (routers.start, routers.end);
        let channel_at =
            |r: u32| if r < net.routers() { net.out_channels(r).start } else { net.channels().len() as u32 };
        let terminals = net.terminals();
        let first = |router: &dyn Fn(u32) -> u32, r: u32| {
            // (Terminals are in router order: the first at router r or beyond.)
            let (mut lo, mut hi) = (0, terminals);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if router(mid) < r { lo = mid + 1 } else { hi = mid }
            }
            lo as usize
        };
        let inject = |t| net.inject_router(t);
        let eject = |t| net.eject_router(t);
        Span {
            routers: a as usize..b as usize,
            ports: layout.starts[a as usize] as usize..layout.starts[b as usize] as usize,
            channels: channel_at(a) as usize..channel_at(b) as usize,
            words: layout.words_at[a as usize] as usize..layout.words_at[b as usize] as usize,
            injecting: first(&inject, a)..first(&inject, b),
            ejecting: first(&eject, a)..first(&eject, b),
        }
    }

    /// `range` scaled by `k` (ports to input VCs, channels to output VCs, …).
    pub fn times(range: &Range<usize>, k: u32) -> Range<usize> {
        range.start * k as usize..range.end * k as usize
    }
}

/// Whether terminals are numbered in the order of the routers they inject at and eject from, so
/// that a run of routers owns a run of terminals: true of every family netwrap builds; a graph
/// read from a file might not be, and runs as one shard.
pub(super) fn terminals_in_order(net: &Network) -> bool {
    let ordered = |router: &dyn Fn(u32) -> u32| (1..net.terminals()).all(|t| router(t - 1) <= router(t));
    ordered(&|t| net.inject_router(t)) && ordered(&|t| net.eject_router(t))
}

/// The packet and message tables as the shards reach them during a cycle (rebuilt every cycle:
/// new packets and messages are filed between cycles, and the tables may move then; a shard
/// drops its view at the end of its cycle, the empty view, `Shared::default`, reaching
/// nothing).
///
/// Which shard may touch what, so that no two threads touch one place in a cycle:
/// - A [`Packet`] is written only when it is filed, between cycles; during a cycle any shard
///   reads it (a body flit's router reads its creation cycle and salt while its header's
///   router routes it).
/// - A packet's [`Route`] is read and written only by the router holding its header, which
///   moves between routers over a wire (a cycle at least), and, once the header is ejected, by
///   the router ejecting its tail, where every flit of it then is.
/// - A message ([`Msg`]) is touched by its source's router when its first packet's header
///   leaves (later packets' headers only read that it has), and by its destination's router
///   when its last packet is delivered, which is a cycle at least after every header has left;
///   its count of packets left, by its destination's router only.
/// - Slots are freed and reused only between cycles.
#[derive(Clone, Copy)]
pub(super) struct Shared {
    packets: *const Packet,
    routes: *mut Route,
    npk: usize,
    msgs: *mut Msg,
    left: *mut u32,
    nmsg: usize,
}

// SAFETY: the shards reach disjoint places through it in a cycle (see `Shared`), and the run
// rebuilds it from tables that outlive the cycle.
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            packets: std::ptr::null(),
            routes: std::ptr::null_mut(),
            npk: 0,
            msgs: std::ptr::null_mut(),
            left: std::ptr::null_mut(),
            nmsg: 0,
        }
    }
}

impl Shared {
    /// The tables as they stand (between cycles).
    pub fn of(list: &mut [Packet], routes: &mut [Route], msgs: &mut [Msg], left: &mut [u32]) -> Self {
        assert!(list.len() == routes.len() && msgs.len() == left.len());
        Shared {
            packets: list.as_ptr(),
            routes: routes.as_mut_ptr(),
            npk: list.len(),
            msgs: msgs.as_mut_ptr(),
            left: left.as_mut_ptr(),
            nmsg: msgs.len(),
        }
    }

    /// Packet `p`.
    #[inline(always)]
    pub fn packet(&self, p: u32) -> &Packet {
        assert!((p as usize) < self.npk, "packet slot out of range");
        // SAFETY: in range; packets are not written during a cycle.
        unsafe { &*self.packets.add(p as usize) }
    }

    /// Brings packet `p` and its route into the cache.
    #[inline(always)]
    pub fn prefetch(&self, p: u32) {
        if (p as usize) < self.npk {
            // SAFETY: in range; nothing is read.
            unsafe {
                crate::prefetch(&*self.packets.add(p as usize));
                crate::prefetch(&*self.routes.add(p as usize));
            }
        }
    }

    /// Packet `p`'s route.
    ///
    /// # Safety
    /// The caller is the router holding the packet's header, or ejecting its tail, or the run
    /// between cycles (see `Shared`), and holds no other reference to this route.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn route(&self, p: u32) -> &mut Route {
        assert!((p as usize) < self.npk, "packet slot out of range");
        // SAFETY: in range; exclusive by the caller's contract.
        unsafe { &mut *self.routes.add(p as usize) }
    }

    /// Message `m`.
    ///
    /// # Safety
    /// The caller is its source's router as its first packet's header leaves (or a later one
    /// reading that it has), or its destination's router as its last packet is delivered (see
    /// `Shared`), and holds no other reference to it.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn msg(&self, m: u32) -> &mut Msg {
        assert!((m as usize) < self.nmsg, "message slot out of range");
        // SAFETY: in range; exclusive by the caller's contract.
        unsafe { &mut *self.msgs.add(m as usize) }
    }

    /// Message `m`'s packets not yet delivered.
    ///
    /// # Safety
    /// The caller is its destination's router, and holds no other reference to the count.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn left(&self, m: u32) -> &mut u32 {
        assert!((m as usize) < self.nmsg, "message slot out of range");
        // SAFETY: in range; exclusive by the caller's contract.
        unsafe { &mut *self.left.add(m as usize) }
    }
}
