//! The router's state, as structures of arrays indexed by the numbers of the parent's Rules
//! (port, input VC, output VC, router, terminal): the parameters ([`Config`]), the network's
//! layout of ports and VCs ([`Layout`]), the buffers and VC state ([`Buffers`]), the routers'
//! activity ([`Routers`]) and switch use ([`SwitchUse`]), the terminals ([`Terminals`]), the
//! packets and messages ([`Packets`]) and the statistics ([`Stats`]); [`Vc`] holds them all,
//! with the wires, and the stages (the sibling modules) are its methods.

use super::part::{Numbering, Part, Shared, Span};
use super::wires::Wires;
use crate::params::{Arbitration, Avoidance, Switching, VcParams};
use crate::{ClassService, Msg, NEVER, PacketStats, RunSpec};
use netwrap_topo::{Candidates, ChannelId, Legs, Network, Routing, TerminalId};
use strength_reduce::StrengthReducedU32;

/// No port, VC, packet or owner.
pub(super) const NONE: u32 = u32::MAX;
/// Marks an output that is a terminal's ejection port.
pub(super) const EJECT: u32 = 1 << 31;

/// The run's parameters, resolved once.
#[derive(Clone, Copy)]
pub(super) struct Config {
    /// VCs per port, flits per VC buffer, channels.
    pub v: u32,
    pub f: u32,
    /// V as a divisor by multiplication (VC numbers are divided by V on every flit's path).
    pub vd: StrengthReducedU32,
    pub nc: u32,
    /// Flits per output VC's buffer (0: none; see the parent's "Output buffers"), and the
    /// flits a channel's VCs can hold in all, output and input buffer (UGAL's queue).
    pub ob: u32,
    pub depth: u32,
    /// Grants an output channel takes per cycle (output speedup).
    pub out_speedup: u32,
    /// With output buffers, a flit crossing the switch into a channel's empty output buffers
    /// leaves on the link at once when it may (`through`): one grant a channel a cycle
    /// (no output speedup), one flit a cycle a channel (no wide channels).
    pub through: bool,
    /// An input port may be granted again in a cycle: wide channels or input speedup
    /// ([`Layout::room`]).
    pub regrant: bool,
    /// Router delay (every flit's pipeline) and link latency.
    pub r: u64,
    pub l: u64,
    /// A header's routing stage, and its VC allocation stage's gap before switch allocation
    /// ([`crate::params::Stages`]; 0 and 0 without stages).
    pub routing: u64,
    pub vc_gap: u64,
    /// The terminals' injection and ejection channels' latencies, and the packets an ejection
    /// port takes at once.
    pub inject_latency: u64,
    pub eject_latency: u64,
    pub eject_slots: u32,
    /// Most flits per packet.
    pub packet: u32,
    /// Some channel or the terminals' links carry more than one flit a cycle
    /// ([`Layout::width`]); `terminal_width`: the terminals' links' flits per cycle.
    pub wide: bool,
    pub terminal_width: u32,
    /// A request holding an output may still be held back from the switch: by its VC
    /// allocation stage (`vc_gap` > 0) or, `wide`, by the wait for its tail (one test of the
    /// hot path for both).
    pub gated: bool,
    /// A VC is taken only with room for the whole packet (`vct`, `saf`).
    pub whole: bool,
    pub saf: bool,
    pub oldest_first: bool,
    pub bubble: bool,
    /// The dateline's class chosen as a packet enters a ring, by whether its route takes the
    /// wrap-around channel (`DatelineClass::ByRoute`).
    pub by_route: bool,
    /// The switch allocator; whether free VCs are taken from a rotating pointer.
    pub allocator: crate::params::Allocator,
    pub rotate: bool,
    /// Puente et al.'s adaptive router: VC 0 escapes by dimension order, the rest adapt; the
    /// escape channel keeps the bubble where routes go round rings (`escape_bubble`).
    pub escape: bool,
    pub escape_bubble: bool,
    /// Replies take the upper half of every port's VCs; `vcs_in` VCs per class, `half` of them
    /// in the dateline's lower class.
    pub split: bool,
    pub vcs_in: u32,
    pub half: u32,
    /// VC classes by route phase (`phases`) or destination group (`dest-group`): `classes`
    /// of them, `per_class` VCs each within a message class's `vcs_in`.
    pub phase_classes: bool,
    pub dest_group: bool,
    pub classes: u32,
    pub per_class: u32,
    /// DAL: candidate lists hold deroutes after the minimal hops, taken when no minimal hop
    /// has a free VC ([`netwrap_topo::Legs::dal_candidates`]).
    pub dal: bool,
    pub warmup: u64,
    /// The routers' state is too large for the caches: the stages prefetch it
    /// ([`crate::prefetch`]), land each block of 64 routers' flits just before the block
    /// steps, and the VCs share a pool of flit chunks ([`FlitPool`]; on a small network all
    /// three would only cost instructions).
    pub large: bool,
    /// Cycles without a move, with flits in the network, that make a deadlock.
    pub quiet: u64,
}

impl Config {
    pub fn new<R: Routing>(routing: &R, net: &Network, spec: &RunSpec, p: &VcParams, legs: &Legs) -> Self {
        // Replies on the request network take the upper half of every port's VCs, requests the
        // lower half (no reply waits behind a request: no protocol deadlock); each half runs
        // the deadlock avoidance on its own.
        let split = spec.memories.is_some_and(|m| !m.joined && m.reply_size > 0);
        let vcs_in = if split { p.vcs / 2 } else { p.vcs };
        // The longest channel latency: the wires' horizon.
        let (r, l) = (p.router_delay as u64, crate::longest_latency(p, spec) as u64);
        let escape = p.deadlock == Avoidance::Escape;
        let classes = match p.deadlock {
            Avoidance::Phases => legs.phase_classes(),
            Avoidance::DestGroup => 2,
            _ => 1,
        };
        Config {
            phase_classes: p.deadlock == Avoidance::Phases,
            dest_group: p.deadlock == Avoidance::DestGroup,
            classes,
            per_class: (vcs_in / classes).max(1),
            dal: spec.paths.choice == netwrap_topo::PathChoice::Dal,
            v: p.vcs,
            f: p.buffer,
            vd: StrengthReducedU32::new(p.vcs.max(1)),
            nc: net.channels().len() as u32,
            ob: p.output_buffer,
            depth: p.buffer + p.output_buffer,
            out_speedup: p.output_speedup,
            through: p.output_buffer > 0 && p.output_speedup == 1 && !wide(net),
            regrant: wide(net) || p.input_speedup > 1,
            r,
            l,
            routing: p.stages.map_or(0, |s| s.routing as u64),
            vc_gap: p.stages.map_or(0, |s| s.vc_gap() as u64),
            inject_latency: p.injection_latency as u64,
            eject_latency: p.ejection_latency as u64,
            eject_slots: if p.ejection == crate::params::Ejection::EveryVc { p.vcs } else { 1 },
            packet: p.packet,
            wide: wide(net),
            terminal_width: net.terminal_width(),
            gated: p.stages.is_some_and(|s| s.vc_gap() > 0) || wide(net),
            whole: p.switching != Switching::Wormhole,
            saf: p.switching == Switching::Saf,
            oldest_first: p.arbitration == Arbitration::OldestFirst,
            bubble: p.deadlock == Avoidance::Bubble,
            by_route: p.dateline_class == crate::params::DatelineClass::ByRoute,
            allocator: p.allocator,
            rotate: p.vc_choice == crate::params::VcChoice::Rotating,
            escape,
            escape_bubble: escape && routing.rings(),
            split,
            vcs_in,
            half: vcs_in / 2,
            warmup: spec.warmup,
            // (About 100 bytes of state per input VC, against a few MiB of cache.)
            large: (net.channels().len() as u64 + net.terminals() as u64) * p.vcs as u64 > 1 << 15,
            // After r + 2l + 1 cycles without a move every flit on a wire has landed, every
            // credit has returned and every buffered flit is ready: nothing can change any more
            // but new packets entering free injection buffers, which would be moves. Wait well
            // beyond that.
            quiet: 2 * (r + p.header_extra() as u64 + p.injection_latency as u64 + 2 * l) + 100,
        }
    }

    /// The first VC of message `m`'s class (0 unless the VCs are split and it is a reply).
    #[inline]
    pub fn class_base(&self, m: &Msg) -> u32 {
        if self.split && m.is_reply() { self.vcs_in } else { 0 }
    }

    /// The terminal of an ejection output `EJECT | slot` (no division with one slot each).
    #[inline]
    pub fn eject_terminal(&self, out: u32) -> u32 {
        let slot = out & !EJECT;
        if self.eject_slots == 1 { slot } else { slot / self.eject_slots }
    }

    /// A buffer position `x` < 2F taken modulo F.
    #[inline]
    pub fn wrap(&self, x: u32) -> u32 {
        if x >= self.f { x - self.f } else { x }
    }
}

/// Whether some channel or the terminals' links carry more than one flit a cycle.
fn wide(net: &Network) -> bool {
    net.terminal_width() > 1 || net.channels().iter().any(|c| c.width > 1)
}

/// The network's ports and VCs as the router sees them.
///
/// Input ports are numbered router by router (router 0's, then router 1's, …), each router's
/// in its own order (incoming channels by number, then its terminals' injection channels), so
/// that everything kept per input port or input VC — VC state, flits, statistics — lies in
/// one block per router, walked in memory order as the routers step. The Rules' numbers
/// (port c for channel c, C + t for terminal t's injection channel) are the *network's port
/// numbers*: `old_port` and `new_port` translate, and input VC k of port p is p·V + k.
pub(super) struct Layout {
    /// The router each input port belongs to.
    pub port_router: Vec<u32>,
    /// Each router's input ports are `starts[rt]..starts[rt + 1]`, its input VCs
    /// `starts[rt]·V..starts[rt + 1]·V`.
    pub starts: Vec<u32>,
    /// Each input port's network port number (channel c, or C + t for terminal t), and each
    /// network port number's input port.
    pub old_port: Vec<u32>,
    pub new_port: Vec<u32>,
    /// Each router's input VCs as bits of a bitset of ⌈ports·V / 64⌉ words from
    /// `words_at[router]`, input VC `starts[rt]·V + b` at bit b.
    pub words_at: Vec<u32>,
    /// Indexed by network port number: the class of each port's channel ([`NONE`] for an
    /// injection channel), so indexed by channel number each channel's class.
    pub class: Vec<u32>,
    /// With a dateline (tori only, checked when the spec is resolved): each channel's ring.
    pub dateline: Vec<super::Ring>,
    /// Each channel's latency in cycles (its flits' and its credits'), or empty when all
    /// channels have `one_latency` (read per flit: a table would cost a cache miss a flit on a
    /// large network).
    latency: Vec<u32>,
    one_latency: u32,
    /// With wide channels or input speedup ([`Config::regrant`]; empty otherwise), by network
    /// port number, each port's flits per cycle: its channel's width, then the terminals'
    /// links' width for injection channels. Port c's width is also output channel c's.
    pub width: Vec<u32>,
    /// With [`Config::regrant`], by input port, the flits each may move in a cycle: its width
    /// times the input speedup.
    pub room: Vec<u32>,
    /// Each router's outgoing channels: `out_starts[rt]..out_starts[rt + 1]` (a router's
    /// channels are numbered in a run, [`Network::out_channels`]).
    pub out_starts: Vec<u32>,
}

impl Layout {
    pub fn new(net: &Network, p: &VcParams, spec: &RunSpec) -> Self {
        let (v, terminals, channels) = (p.vcs, net.terminals(), net.channels());
        let ports = channels.len() as u32 + terminals;
        let routers = net.routers() as usize;
        // Network ports of each router (CSR): its incoming channels, then its terminals'
        // injection channels.
        let router_of: Vec<u32> =
            channels.iter().map(|c| c.dst).chain((0..terminals).map(|t| net.inject_router(t))).collect();
        let mut starts = vec![0u32; routers + 1];
        for &rt in &router_of {
            starts[rt as usize + 1] += 1;
        }
        for i in 0..routers {
            starts[i + 1] += starts[i];
        }
        let mut old_port = vec![0u32; ports as usize];
        let mut new_port = vec![0u32; ports as usize];
        let mut port_router = vec![0u32; ports as usize];
        let mut fill = starts.clone();
        for (old, &rt) in router_of.iter().enumerate() {
            let new = fill[rt as usize];
            (old_port[new as usize], new_port[old], port_router[new as usize]) = (old as u32, new, rt);
            fill[rt as usize] += 1;
        }
        let mut words_at = vec![0u32; routers + 1];
        for rt in 0..routers {
            let n = (starts[rt + 1] - starts[rt]) * v;
            words_at[rt + 1] = words_at[rt] + n.div_ceil(64);
        }
        let class = channels.iter().map(|c| c.class as u32).chain((0..terminals).map(|_| NONE)).collect();
        let dateline = if p.deadlock == Avoidance::Dateline { super::rings(net) } else { Vec::new() };
        let mut latency = crate::channel_latencies(net, p, spec);
        let one_latency = latency.first().copied().unwrap_or(p.link_latency);
        if latency.iter().all(|&l| l == one_latency) {
            latency = Vec::new();
        }
        let width: Vec<u32> = if wide(net) || p.input_speedup > 1 {
            channels
                .iter()
                .map(|c| c.width as u32)
                .chain((0..terminals).map(|_| net.terminal_width()))
                .collect()
        } else {
            Vec::new()
        };
        let room = if width.is_empty() {
            Vec::new()
        } else {
            old_port.iter().map(|&old| width[old as usize] * p.input_speedup).collect()
        };
        let out_starts = (0..=net.routers())
            .map(|r| if r < net.routers() { net.out_channels(r).start } else { channels.len() as u32 })
            .collect();
        Layout {
            port_router,
            starts,
            old_port,
            new_port,
            words_at,
            class,
            dateline,
            latency,
            one_latency,
            width,
            room,
            out_starts,
        }
    }
}

impl Layout {
    /// Channel `c`'s latency in cycles.
    #[inline(always)]
    pub fn latency(&self, c: usize) -> u32 {
        if self.latency.is_empty() { self.one_latency } else { self.latency[c] }
    }

    /// The network port number of input VC `ivc`'s port: its channel c, or C + t for terminal
    /// t's injection channel.
    #[inline(always)]
    pub fn network_port(&self, ivc: u32, v: StrengthReducedU32) -> u32 {
        self.old_port[(ivc / v) as usize]
    }

    /// The input VC that output VC `o` (VC o mod V of channel o / V) feeds.
    #[inline(always)]
    pub fn down(&self, o: u32, v: StrengthReducedU32) -> u32 {
        self.new_port[(o / v) as usize] * v.get() + o % v
    }

    /// Input VC k of the network's port `port` (channel c, or C + t).
    #[inline]
    pub fn input_vc(&self, port: u32, k: u32, v: u32) -> u32 {
        self.new_port[port as usize] * v + k
    }
}

/// A flit in a buffer: when it is ready, its packet, and whether it is the packet's tail (the
/// top bit of the packet's number, [`TAIL`]), in 12 bytes: the flits are the largest part of
/// a busy router's memory.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
pub(super) struct Flit {
    pub ready: u64,
    /// Its packet, with [`TAIL`] set if it is the tail.
    packet: u32,
}

impl Flit {
    #[inline(always)]
    fn new(ready: u64, pkt: u32, tail: bool) -> Self {
        Flit { ready, packet: if tail { pkt | TAIL } else { pkt } }
    }
}

/// Marks a flit on a wire as its packet's tail (in the input VC number it is bound for, which
/// is below 2^27: [`super::MAX_FLIT_SLOTS`]).
pub(super) const TAIL: u32 = 1 << 31;

/// A packet in flight: what it is, written when it is filed and only read after
/// ([`super::part::Shared`]).
#[derive(Clone, Copy)]
pub(super) struct Packet {
    pub created: u64,
    pub src: TerminalId,
    pub msg: u32,
    pub len: u32,
    pub dst: TerminalId,
    pub salt: u32,
    /// The first VC of its message's class ([`Config::class_base`]), and whether its message is
    /// measured: kept here so that no router but its source's and destination's reads the
    /// message.
    pub base: u32,
    pub measured: bool,
}

/// Where a packet is on its way, touched only by the router holding its header (and the one
/// ejecting its tail).
#[derive(Clone, Copy)]
pub(super) struct Route {
    /// Cycle its header left the source router.
    pub left: u64,
    pub hops: u32,
    /// Its routing state ([`netwrap_topo::paths::Leg`]), and the hop count at which its leg
    /// last switched ([`NONE`]: never): `phases` raises its class there.
    pub leg: u32,
    pub switch_hop: u32,
    /// While it waits in its source queue, the packet behind it ([`NONE`]: none; the
    /// queues are lists through the routes, which cost no memory of their own on idle
    /// terminals).
    pub next: u32,
}

/// An input VC: its FIFO (in the flit pool's chunk `chunk`), the output its front packet
/// holds and its buffer occupancy, in 32 bytes, two to a cache line (a million-node network
/// has ten or more of them a node). The occupancy is kept here, not in a table of its own,
/// because every flit arriving and leaving touches both: on a large network each table is
/// another cache line a flit.
#[derive(Clone, Copy)]
#[repr(align(32))]
pub(super) struct InVc {
    /// When the front flit is ready to leave (valid while `len > 0`; kept here so that a
    /// router's scan does not read the flits).
    pub ready: u64,
    /// A channel's input VC's buffer occupancy: flit-cycles in the window, each flit's stay
    /// clamped to the window, as its departure cycle less its arrival cycle (both raised to
    /// the warm-up's end; [`InVc::arrive`] and [`InVc::depart`], in wrapping arithmetic: the
    /// sum is short by the arrivals of the flits it still holds until the run's end is added
    /// for them). An injection channel's stays 0.
    pub occupancy: u64,
    /// Output VC (or `EJECT | ejection slot`, terminal × `Config::eject_slots` + slot) held by
    /// the front packet; [`NONE`] before allocation.
    pub out: u32,
    /// The front flit's packet, with [`TAIL`] set if it is the tail and [`HEADER`] if it is
    /// the header (valid while `len > 0`; kept here, as `ready` is, so that the router's
    /// stages do not read the flits).
    front: u32,
    /// Its chunk of the [`FlitPool`] ([`NONE`]: none, while it holds no flit of a shared
    /// pool).
    pub chunk: u32,
    /// The FIFO's first slot and its flits (below F, at most [`super::MAX_VC_BUFFER`]).
    head: u16,
    len: u16,
}

// (The sizes the memory per node counts on.)
const _: () = assert!(std::mem::size_of::<InVc>() == 32 && std::mem::size_of::<OutVc>() == 8);

/// Marks an input VC's front flit as its packet's header (in `front`; packet numbers stay
/// below it, [`Packets::add_packet`]).
const HEADER: u32 = 1 << 30;

impl InVc {
    /// A flit enters this channel input VC at `now`: its stay starts (see `occupancy`).
    #[inline(always)]
    pub fn arrive(&mut self, now: u64, warmup: u64) {
        self.occupancy = self.occupancy.wrapping_sub(now.max(warmup));
    }

    /// A flit leaves this channel input VC at `now`: its stay ends.
    #[inline(always)]
    pub fn depart(&mut self, now: u64, warmup: u64) {
        self.occupancy = self.occupancy.wrapping_add(now.max(warmup));
    }

    /// The front flit's packet (valid while `len > 0`).
    #[inline(always)]
    pub fn pkt(&self) -> u32 {
        self.front & !(TAIL | HEADER)
    }

    /// Whether the front flit is its packet's tail (valid while `len > 0`).
    #[inline(always)]
    pub fn tail(&self) -> bool {
        self.front & TAIL != 0
    }

    /// Whether the front flit is its packet's header: no flit of the front packet has left
    /// (valid while `len > 0`).
    #[inline(always)]
    pub fn header(&self) -> bool {
        self.front & HEADER != 0
    }

    /// Whether its one flit is a header: a packet's header that has just come to the front.
    #[inline(always)]
    pub fn front_header(&self) -> bool {
        self.len == 1 && self.header()
    }

    /// The flits it holds.
    #[inline(always)]
    pub fn len(&self) -> u32 {
        self.len as u32
    }

    /// The FIFO's first slot.
    #[inline(always)]
    pub fn head(&self) -> u32 {
        self.head as u32
    }
}

/// An output VC as its sender sees it (VC k of channel c at c·V + k), in 8 bytes: a large
/// network has one for every VC of every channel.
#[derive(Clone, Copy)]
pub(super) struct OutVc {
    /// The room the switch sees: credits for the downstream buffer, or with output buffers
    /// the output buffer's free slots (the link stage's credits are [`OutBuffers::link`]).
    pub credits: u32,
    /// The input VC it feeds ([`Layout::down`], kept here to spare the send a division; below
    /// 2^27, [`super::MAX_FLIT_SLOTS`]), with [`HELD`] set while a packet holds it, and in
    /// the bits between ([`CLASS`]) its channel's class plus one where that is below 15 (0:
    /// not kept). A tail counts its packet's service in the class, and the output VC is in
    /// the cache then; a table of classes would cost a cache miss a packet-hop on a large
    /// network.
    down: u32,
}

/// Marks an output VC as held (in its `down`).
const HELD: u32 = 1 << 31;
/// Where an output VC keeps its channel's class plus one (in its `down`).
const CLASS: u32 = 0xf << 27;

impl OutVc {
    /// Output VC feeding input VC `down` over a channel of class `class`.
    pub fn new(credits: u32, down: u32, class: u32) -> Self {
        debug_assert!(down < 1 << 27);
        let kept = if class < 15 { (class + 1) << 27 } else { 0 };
        OutVc { credits, down: down | kept }
    }

    /// Its channel's class, if kept here (otherwise [`Layout::class`] has it).
    #[inline(always)]
    pub fn class(&self) -> Option<u32> {
        let kept = (self.down & CLASS) >> 27;
        kept.checked_sub(1)
    }

    /// Whether a packet holds it.
    #[inline(always)]
    pub fn held(&self) -> bool {
        self.down & HELD != 0
    }

    #[inline(always)]
    pub fn set_held(&mut self, held: bool) {
        self.down = if held { self.down | HELD } else { self.down & !HELD };
    }

    /// The input VC it feeds.
    #[inline(always)]
    pub fn down(&self) -> u32 {
        self.down & !(HELD | CLASS)
    }
}

/// A flit in an output buffer: its packet, whether it is the tail, and for a header the
/// credits it needs to leave on the link (the room its VC allocation asked for; 0 for the
/// other flits).
#[derive(Clone, Copy)]
pub(super) struct Queued {
    pub pkt: u32,
    pub need: u32,
    pub tail: bool,
}

/// The output buffers: a FIFO of [`Queued`] flits per channel output VC (in the arena at
/// `o · ob`) with its state, and each channel's link arbiter.
pub(super) struct OutBuffers<S: Numbering> {
    pub flits: Part<Queued, S>,
    pub queues: Part<OutQueue, S>,
    pub arbiters: Part<LinkArbiter, S>,
}

/// An output VC's output buffer: its FIFO's first slot and flits, and its credits for the
/// downstream buffer (the link stage's). One record: a flit's crossing reads and writes all
/// three.
#[derive(Clone, Copy)]
pub(super) struct OutQueue {
    pub link: u32,
    pub head: u32,
    pub len: u32,
}

/// A channel's link stage: the flits its output buffers hold, and its arbiter's pointer.
#[derive(Clone, Copy)]
pub(super) struct LinkArbiter {
    pub queued: u32,
    pub next: u32,
}

/// The buffers and the VC state.
pub(super) struct Buffers<S: Numbering> {
    /// The input VCs' flits.
    pub pool: FlitPool,
    pub ivcs: Part<InVc, S>,
    pub ovcs: Part<OutVc, S>,
    /// Output buffers (all empty without them).
    pub out: OutBuffers<S>,
    /// Per router, a bit per input VC set while it holds flits (see [`Layout::words_at`]).
    pub occupied: Part<u64, S>,
    /// The candidates of the header being routed now (room for any router's out-degree).
    pub scratch: Candidates,
}

/// Most candidates a chunk keeps in place: every one a routing offers on networks of
/// out-degree up to 8 (a routing offers distinct channels leaving the router).
const CACHED: usize = 8;

/// The input VCs' flits, in chunks of F slots, with what a VC's front packet needs only while
/// it passes: the cycle it took its output and its header's wait (for the output's
/// statistics), and the candidates of a header left waiting for a VC (a header asks again
/// every cycle, and its routing depends only on router, destination and salt, so it is routed
/// once; the network's out-degree in channels of them in place, at most [`CACHED`], and for
/// more a list of the chunk's own, made at the first overflow, then reused: room for any
/// out-degree would grow with the square of the degree on complete graphs, and a fixed room
/// alone would drop candidates).
///
/// A chunk is one run of words, its packet's part first, then its flits: a header's VC
/// allocation, its tail's statistics and the flits then touch neighbouring cache lines, not
/// four tables (on a 65,536-node torus the separate table of grant cycles alone cost a cache
/// miss a packet-hop).
///
/// On a network whose state outgrows the caches ([`Config::large`]) the pool is *shared*: a VC
/// takes a chunk when a flit enters it idle and gives it back when its last packet's tail
/// leaves, so that the flits take memory in proportion to the VCs holding some, not to all of
/// them (at light load a few percent: 960 bytes a node on a 4-cube with 2 VCs of 8 flits),
/// and the chunks in use, reused last given back first, stay in the caches. On a smaller
/// network each VC keeps a chunk of its own for the run, as taking and giving back would only
/// cost instructions (8% more on `netwrap bench vc-caminos8x8`'s configuration, by callgrind).
pub(super) struct FlitPool {
    shared: bool,
    /// Candidates a chunk keeps in place.
    stride: usize,
    /// Words per chunk: [`TAKEN`] (4), [`CANDS_LEN`] (1), the candidates kept in place
    /// (`stride`), then the F flits ([`FLIT_WORDS`] each) from `flits_at`.
    per: usize,
    flits_at: usize,
    words: Vec<u32>,
    chunks: u32,
    overflow: Vec<Vec<ChannelId>>,
    /// Chunks given back.
    free: Vec<u32>,
}

/// Where a chunk keeps (cycle, header's wait) at which its front packet took its output, for
/// the statistics of the output's class ([`NEVER`]: before the window, or not yet): two
/// words each.
const TAKEN: usize = 0;
/// Where a chunk keeps how many candidates its front packet has ([`NONE`]: not yet routed);
/// they follow, or are in the overflow list when more than `stride`.
const CANDS_LEN: usize = 4;
/// Words a flit takes: its ready cycle (two) and its packet.
const FLIT_WORDS: usize = 3;

impl FlitPool {
    /// A shared pool, or without `shared` a chunk for each of `vcs` VCs.
    fn new(f: u32, net: &Network, shared: bool, vcs: usize) -> Self {
        let stride = (net.degree_range().1 as usize).clamp(1, CACHED);
        let flits_at = CANDS_LEN + 1 + stride;
        let mut pool = FlitPool {
            shared,
            stride,
            per: flits_at + FLIT_WORDS * f as usize,
            flits_at,
            words: Vec::new(),
            chunks: 0,
            overflow: Vec::new(),
            free: Vec::new(),
        };
        if !shared {
            pool.words.reserve_exact(vcs * pool.per);
            for _ in 0..vcs {
                pool.grow();
            }
        }
        pool
    }

    /// A chunk for a VC that was idle: its packet not yet routed, no output taken.
    #[inline]
    fn take(&mut self) -> u32 {
        let k = match self.free.pop() {
            Some(k) => k,
            None => self.grow(),
        };
        self.set_taken(k, (NEVER, 0));
        self.unroute(k);
        k
    }

    /// A new chunk.
    #[cold]
    fn grow(&mut self) -> u32 {
        let k = self.chunks;
        self.chunks += 1;
        self.words.resize(self.chunks as usize * self.per, 0);
        self.set_taken(k, (NEVER, 0));
        self.unroute(k);
        k
    }

    /// Where chunk `k`'s words start.
    #[inline(always)]
    fn base(&self, k: u32) -> usize {
        k as usize * self.per
    }

    #[inline(always)]
    fn word64(&self, i: usize) -> u64 {
        self.words[i] as u64 | (self.words[i + 1] as u64) << 32
    }

    #[inline(always)]
    fn set_word64(&mut self, i: usize, x: u64) {
        (self.words[i], self.words[i + 1]) = (x as u32, (x >> 32) as u32);
    }

    /// Slot `pos` (< F) of chunk `k`.
    #[inline(always)]
    fn slot(&self, k: u32, pos: u32) -> usize {
        self.base(k) + self.flits_at + FLIT_WORDS * pos as usize
    }

    /// The flit at slot `pos` of chunk `k`.
    #[inline(always)]
    pub fn flit(&self, k: u32, pos: u32) -> Flit {
        let i = self.slot(k, pos);
        Flit { ready: self.word64(i), packet: self.words[i + 2] }
    }

    /// Writes `flit` at slot `pos` of chunk `k`.
    #[inline(always)]
    fn set_flit(&mut self, k: u32, pos: u32, flit: Flit) {
        let i = self.slot(k, pos);
        self.set_word64(i, flit.ready);
        self.words[i + 2] = flit.packet;
    }

    /// (Cycle, header's wait) at which chunk `k`'s front packet took its output.
    #[inline(always)]
    pub fn taken(&self, k: u32) -> (u64, u64) {
        let i = self.base(k) + TAKEN;
        (self.word64(i), self.word64(i + 2))
    }

    #[inline(always)]
    pub fn set_taken(&mut self, k: u32, (at, wait): (u64, u64)) {
        let i = self.base(k) + TAKEN;
        self.set_word64(i, at);
        self.set_word64(i + 2, wait);
    }

    /// Whether chunk `k`'s front packet has been routed (its candidates are kept).
    #[inline]
    pub fn routed(&self, k: u32) -> bool {
        self.words[self.base(k) + CANDS_LEN] != NONE
    }

    /// Chunk `k`'s next packet is not yet routed.
    #[inline(always)]
    fn unroute(&mut self, k: u32) {
        let i = self.base(k) + CANDS_LEN;
        self.words[i] = NONE;
    }

    /// The candidates kept for chunk `k`'s front packet (which has been routed).
    #[inline]
    pub fn candidates(&self, k: u32) -> &[ChannelId] {
        let at = self.base(k) + CANDS_LEN;
        let len = self.words[at] as usize;
        if len <= self.stride { &self.words[at + 1..at + 1 + len] } else { &self.overflow[k as usize][..] }
    }

    /// Keeps `cands` as chunk `k`'s front packet's candidates.
    pub fn keep(&mut self, k: u32, cands: &[ChannelId]) {
        let at = self.base(k) + CANDS_LEN;
        self.words[at] = cands.len() as u32;
        if cands.len() <= self.stride {
            self.words[at + 1..at + 1 + cands.len()].copy_from_slice(cands);
        } else {
            let k = k as usize;
            if self.overflow.len() <= k {
                self.overflow.resize(self.chunks as usize, Vec::new());
            }
            self.overflow[k].clear();
            self.overflow[k].extend_from_slice(cands);
        }
    }
}

impl<S: Numbering> Buffers<S> {
    /// The buffers and VC state of span `span`'s routers.
    fn new(c: &Config, layout: &Layout, span: &Span, net: &Network) -> Self {
        let ivcs = Span::times(&span.ports, c.v);
        let ovcs = Span::times(&span.channels, c.v);
        let (outs, out_channels) =
            if c.ob > 0 { (ovcs.clone(), span.channels.clone()) } else { (0..0, 0..0) };
        let (start, shared) = (ivcs.start, c.large);
        Buffers {
            pool: FlitPool::new(c.f, net, shared, ivcs.len()),
            ivcs: Part::from_fn(ivcs, |i| InVc {
                ready: 0,
                occupancy: 0,
                head: 0,
                len: 0,
                out: NONE,
                front: NONE,
                chunk: if shared { NONE } else { (i - start) as u32 },
            }),
            ovcs: Part::from_fn(ovcs.clone(), |o| {
                let credits = if c.ob > 0 { c.ob } else { c.f };
                OutVc::new(credits, layout.down(o as u32, c.vd), layout.class[o / c.v as usize])
            }),
            out: OutBuffers {
                flits: Part::filled(Span::times(&outs, c.ob), Queued { pkt: NONE, need: 0, tail: false }),
                queues: Part::filled(outs, OutQueue { link: c.f, head: 0, len: 0 }),
                arbiters: Part::filled(out_channels, LinkArbiter { queued: 0, next: 0 }),
            },
            occupied: Part::filled(span.words.clone(), 0),
            scratch: Candidates::for_network(net),
        }
    }

    /// Marks input VC `ivc` of router `rt` as holding flits, or not.
    #[inline(always)]
    fn mark(&mut self, c: &Config, layout: &Layout, rt: u32, ivc: u32, on: bool) {
        let b = ivc - layout.starts[rt as usize] * c.v;
        let w = (layout.words_at[rt as usize] + b / 64) as usize;
        if on {
            self.occupied[w] |= 1u64 << (b % 64);
        } else {
            self.occupied[w] &= !(1u64 << (b % 64));
        }
    }

    /// A flit of packet `pkt` (its tail or not) enters input VC `ivc` of router `rt`, its
    /// pipeline starting at `from` (now, or after an injection channel's latency): ready at
    /// from + r; a header at the front routes for `Config::routing` cycles more.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn push(&mut self, c: &Config, layout: &Layout, rt: u32, ivc: u32, pkt: u32, tail: bool, from: u64) {
        let q = &mut self.ivcs[ivc as usize];
        let ready = from + c.r;
        let flit = Flit::new(ready, pkt, tail);
        if q.len == 0 {
            // (A VC without flits waits for its next packet's header once its last packet's
            // tail has released the output, and for the rest of a packet that holds one.)
            let header = q.out == NONE;
            q.ready = if header { ready + c.routing } else { ready };
            q.front = if header { flit.packet | HEADER } else { flit.packet };
            if q.chunk == NONE {
                q.chunk = self.pool.take();
            }
        }
        let (chunk, pos) = (q.chunk, c.wrap(q.head() + q.len()));
        q.len += 1;
        self.pool.set_flit(chunk, pos, flit);
        self.mark(c, layout, rt, ivc, true);
    }

    /// The front flit of input VC `ivc` of router `rt` leaves; returns whether it was its
    /// packet's tail. The tail releases the output VC and makes the next packet the front one
    /// from `now + 1`; the last flit gives a shared pool's chunk back.
    #[inline(always)]
    pub fn pop(&mut self, c: &Config, layout: &Layout, rt: u32, ivc: u32, now: u64) -> bool {
        let q = &mut self.ivcs[ivc as usize];
        q.head = c.wrap(q.head() + 1) as u16;
        q.len -= 1;
        let (k, tail) = (q.chunk, q.tail());
        if tail {
            q.out = NONE;
            self.pool.unroute(k);
        }
        if q.len == 0 {
            // (Between two flits of a packet the VC keeps its chunk: its output's `taken`.)
            if self.pool.shared && tail {
                self.pool.free.push(q.chunk);
                q.chunk = NONE;
            }
            self.mark(c, layout, rt, ivc, false);
            return tail;
        }
        let next = self.pool.flit(k, q.head as u32);
        q.front = if tail { next.packet | HEADER } else { next.packet };
        // (The next packet's header routes once it is at the front.)
        q.ready = if tail { next.ready.max(now + 1) + c.routing } else { next.ready };
        tail
    }

    /// Gives back the flits' and output VCs' memory once the run is over (the input VCs'
    /// lengths stay: the buffer occupancy counts the flits still there).
    pub fn release_flits(&mut self) {
        let pool = &mut self.pool;
        (pool.words, pool.overflow, pool.free) = Default::default();
        self.ovcs = Part::empty();
    }

    /// The packet at the front of input VC `ivc` (which holds flits).
    #[inline]
    pub fn front_packet(&self, ivc: u32) -> u32 {
        self.ivcs[ivc as usize].pkt()
    }
}

/// The routers' activity: which hold flits, and their rotating priorities.
pub(super) struct Routers<S: Numbering> {
    /// Flits in each router's input and output buffers.
    pub flits: Part<u32, S>,
    /// With output buffers, the flits in each router's output buffers (its link stage has
    /// nothing to do without them).
    pub queued: Part<u32, S>,
    /// The shard's routers holding flits, a bit each from its first router (`first`; visited
    /// in number order, so that a large network's state is walked in memory order), and how
    /// many. Bits of the shard's own: shards need not start at a multiple of 64.
    pub first: u32,
    pub active: Vec<u64>,
    pub active_count: u32,
    /// Each router's round-robin counter: the cycles in which it held a flit (mod 2^32), and the
    /// same mod its input VCs (its priority).
    pub rr: Part<(u32, u32), S>,
}

impl<S: Numbering> Routers<S> {
    /// A flit enters router `rt`'s buffers.
    #[inline]
    pub fn add_flit(&mut self, rt: u32) {
        self.flits[rt as usize] += 1;
        let i = (rt - self.first) as usize;
        let (word, bit) = (&mut self.active[i / 64], 1u64 << (i % 64));
        if *word & bit == 0 {
            *word |= bit;
            self.active_count += 1;
        }
    }
}

/// What the switch has moved: in the router stepping, which of its input ports and output
/// channels have moved a flit this cycle (switch allocation grants each one flit a cycle);
/// each ejection port's last cycle, as a [`Stamp`]; each channel's busy cycles in the window.
pub(super) struct SwitchUse<S: Numbering> {
    /// The router stepping's input ports (from its first, `Layout::starts`) and output
    /// channels (from its first, `Layout::out_starts`) that moved a flit, as bitsets: a
    /// router's grants stay within its own step, so nothing per port or channel is kept
    /// across routers (on a large network such tables cost a cache miss a flit each).
    pub inputs: Vec<u64>,
    pub outputs: Vec<u64>,
    /// With wide channels, each input port's flits left to move in a cycle (the cycle, and
    /// how many): a port moves up to its width a cycle, over one grant or several.
    pub input_room: Part<(u64, u32), S>,
    /// Each output channel's busy cycles in the window.
    pub busy: Part<u64, S>,
    /// With output speedup, each output channel's grants in a cycle (the cycle, how many).
    pub output_grants: Part<(u64, u32), S>,
    pub eject: Part<u32, S>,
    /// The half of the 2^32 cycles' period the stamps were written in (see [`Stamp`]).
    pub epoch: u64,
}

/// A cycle as a switch's use remembers it: its low 32 bits (half the bytes on a network of a
/// million routers), which only ever answer "this cycle?". Stamps are exact within an *epoch*
/// of 2^31 cycles, in which every cycle's low 32 bits differ and share their top bit; when a
/// cycle of a new epoch comes, every stamp is rewritten with that bit flipped, so that no
/// stamp of an earlier epoch can equal a cycle of this one ([`SwitchUse::enter`]).
pub(super) trait Stamp {
    fn stamp(self) -> u32;
}

impl Stamp for u64 {
    #[inline(always)]
    fn stamp(self) -> u32 {
        self as u32
    }
}

impl<S: Numbering> SwitchUse<S> {
    /// Cycle `now` begins: in a new epoch, the stamps are made unequal to all of its cycles.
    #[inline]
    pub fn enter(&mut self, now: u64) {
        if now >> 31 != self.epoch {
            self.epoch = now >> 31;
            self.eject.items_mut().fill(now.stamp() ^ (1 << 31));
        }
    }
}

/// The terminals: source queues, injection and ejection.
pub(super) struct Terminals<S: Numbering> {
    /// Each terminal's packets waiting to be written, in creation order: the first and last
    /// ([`NONE`]: none), each linked to the next by its [`Route::next`].
    pub first: Part<u32, S>,
    pub last: Part<u32, S>,
    /// The packet being written (taken off the queue with its injection VC: a packet whose
    /// header has left is some router's, route and all).
    pub writing: Part<u32, S>,
    /// The injection VC (input VC number) its front packet holds, or [`NONE`]; flits of it
    /// written; which injection VCs (terminal × V) a packet being written holds.
    pub vc: Part<u32, S>,
    pub written: Part<u32, S>,
    pub held: Part<bool, S>,
    /// The packet each ejection slot (terminal × `Config::eject_slots`) serves, or [`NONE`].
    pub eject_owner: Part<u32, S>,
    /// The terminals with packets waiting (`is_active`: whether each is listed).
    pub active: Vec<u32>,
    pub is_active: Part<bool, S>,
    /// With rotating VC choice, each injection channel's pointer: the VC it tries first.
    pub vc_next: Part<u32, S>,
}

/// Packets and messages in flight, in slot vectors with free lists (the shards reach them
/// through [`super::part::Shared`]).
#[derive(Default)]
pub(super) struct Packets {
    pub list: Vec<Packet>,
    pub routes: Vec<Route>,
    free: Vec<u32>,
    pub msgs: Vec<Msg>,
    /// Packets of each message not yet delivered.
    pub left: Vec<u32>,
    free_msgs: Vec<u32>,
}

impl Packets {
    /// Files message `msg` of `n` packets; returns its slot.
    pub fn add_message(&mut self, msg: Msg, n: u32) -> u32 {
        match self.free_msgs.pop() {
            Some(m) => {
                self.msgs[m as usize] = msg;
                self.left[m as usize] = n;
                m
            }
            None => {
                self.msgs.push(msg);
                self.left.push(n);
                (self.msgs.len() - 1) as u32
            }
        }
    }

    /// Files packet `pk`, on its way as `route`; returns its slot. (Below 2^30, so that a flit
    /// marks its tail in the number's top bit and an input VC's front its header in the next:
    /// 2^30 packets would take 50 GiB.)
    pub fn add_packet(&mut self, pk: Packet, route: Route) -> u32 {
        assert!(self.list.len() < HEADER as usize, "more than 2^30 packets in flight");
        match self.free.pop() {
            Some(id) => {
                self.list[id as usize] = pk;
                self.routes[id as usize] = route;
                id
            }
            None => {
                self.list.push(pk);
                self.routes.push(route);
                (self.list.len() - 1) as u32
            }
        }
    }

    pub fn free_packet(&mut self, id: u32) {
        self.free.push(id);
    }

    pub fn free_message(&mut self, m: u32) {
        self.free_msgs.push(m);
    }

    /// The tables as the shards reach them in the next cycle.
    pub fn shared(&mut self) -> Shared {
        Shared::of(&mut self.list, &mut self.routes, &mut self.msgs, &mut self.left)
    }
}

/// What the run measures beyond the collector.
pub(super) struct Stats<S: Numbering> {
    // (Busy cycles per channel are counted beside the switch's stamps, `SwitchUse::output`.)
    /// Service per channel class: the network's, then injection, then ejection.
    pub service: Vec<ClassService>,
    /// (cycle taken, header's wait) per injection channel ([`NEVER`]: before the window). An
    /// output VC's and an ejection port's count at the grant ([`FlitPool::taken`]).
    pub inj_taken_at: Part<(u64, u64), S>,
    /// The run has reached the warm-up's end, and the input VCs whose front packets then held
    /// outputs granted before it (until their tails leave).
    pub warm: bool,
    pub early: std::collections::HashSet<u32>,
    pub pstats: PacketStats,
    pub flit_hops: u64,
    /// The last cycle a flit moved, and the flits buffered or on a wire (written into a
    /// buffer less ejected: a shard's count may be negative, the run's is not).
    pub last_move: u64,
    pub buffered: i64,
}

impl<S: Numbering> Stats<S> {
    /// Whether the tail leaving input VC `ivc` ends a grant from before the warm-up (its last
    /// question: the answer is then forgotten).
    #[inline(always)]
    pub fn granted_early(&mut self, ivc: u32) -> bool {
        !self.early.is_empty() && self.early.remove(&ivc)
    }

    /// The injection class's index in `service`, then the ejection class's.
    #[inline]
    pub fn injection_class(&self) -> usize {
        self.service.len() - 2
    }

    #[inline]
    pub fn ejection_class(&self) -> usize {
        self.service.len() - 1
    }
}

/// A packet lets go at cycle `now` of a channel it took at `taken.0` after waiting `taken.1`
/// cycles: count it in its class, if it took the channel in the measurement window.
#[inline]
pub(super) fn serve(class: &mut ClassService, taken: &mut (u64, u64), now: u64) {
    if taken.0 != NEVER {
        class.packets += 1;
        class.hold_sum += now + 1 - taken.0;
        class.wait_sum += taken.1;
        taken.0 = NEVER;
    }
}

/// Buffers reused every cycle.
#[derive(Default)]
pub(super) struct Scratch {
    /// A router's requests: (arbitration key, input VC).
    pub reqs: Vec<(u64, u64, u32)>,
    /// The flits landing this cycle (bound for input VC, packet), and on a large network the
    /// same sorted by block of 64 routers (`block_start`: each block's first; `fill`: the
    /// sort's cursors).
    pub landing: Vec<(u32, u32)>,
    pub by_block: Vec<(u32, u32)>,
    pub block_start: Vec<u32>,
    pub fill: Vec<u32>,
    pub returning: Vec<u32>,
    /// Candidates along a route followed ahead (the dateline's `by-route` class).
    pub ahead: Candidates,
    /// A separable allocator's requests and grants.
    pub asks: Vec<crate::switch_alloc::Request>,
    pub granted: Vec<bool>,
}

/// What a shard hands on after a cycle, in its routers' order (the order of one thread).
#[derive(Default)]
pub(super) struct Outbox {
    /// Flits (arrival cycle, (bound for input VC, packet)) and credits (arrival cycle, output
    /// VC) bound for another shard's routers.
    pub flits: Vec<(u64, (u32, u32))>,
    pub credits: Vec<(u64, u32)>,
    /// Messages delivered (slot, arrival cycle), and packets done with.
    pub delivered: Vec<(u32, u64)>,
    pub freed: Vec<u32>,
}

/// One shard's routers, with their terminals (the whole network on one thread).
pub(super) struct Vc<'a, R: Routing, S: Numbering> {
    pub net: &'a Network,
    pub routing: &'a R,
    pub c: Config,
    pub layout: &'a Layout,
    pub buf: Buffers<S>,
    pub routers: Routers<S>,
    pub used: SwitchUse<S>,
    /// Flits on the wires to this shard's routers (bound for input VC, packet), and credits on
    /// their way back to them (for output VC).
    pub wires: Wires<(u32, u32)>,
    pub credits: Wires<u32>,
    pub terms: Terminals<S>,
    /// The packets and messages, as this cycle reaches them.
    pub pkts: Shared,
    pub stats: Stats<S>,
    pub scratch: Scratch,
    /// The separable allocators' round-robin pointers (the whole network's, each shard
    /// using its own ports' and outputs'; none with greedy allocation).
    pub pointers: crate::switch_alloc::Pointers,
    /// With rotating VC choice, each channel's pointer: the VC it tries first.
    pub vc_next: Part<u32, S>,
    /// Non-minimal paths and the VC classes they need.
    pub legs: &'a Legs,
    pub out: Outbox,
}

impl<'a, R: Routing, S: Numbering> Vc<'a, R, S> {
    /// The routers of `span`, with their terminals, channels and VCs.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        net: &'a Network,
        routing: &'a R,
        c: Config,
        layout: &'a Layout,
        legs: &'a Legs,
        span: Span,
        p: &VcParams,
    ) -> Self {
        let buf = Buffers::new(&c, layout, &span, net);
        let (terminals, ports) = (net.terminals(), c.nc + net.terminals());
        let slots = Span::times(&span.ejecting, c.eject_slots);
        let separable = p.allocator != crate::params::Allocator::Greedy;
        // (Bitset words for the shard's router with the most of a CSR's items.)
        let words = |starts: &[u32]| {
            span.routers
                .clone()
                .map(|rt| (starts[rt + 1] - starts[rt]).div_ceil(64) as usize)
                .max()
                .unwrap_or(0)
        };
        Vc {
            net,
            routing,
            layout,
            buf,
            routers: Routers {
                flits: Part::filled(span.routers.clone(), 0),
                queued: if c.ob > 0 { Part::filled(span.routers.clone(), 0) } else { Part::empty() },
                first: span.routers.start as u32,
                active: vec![0; span.routers.len().div_ceil(64)],
                active_count: 0,
                rr: Part::filled(span.routers.clone(), (0, 0)),
            },
            used: SwitchUse {
                epoch: 0,
                inputs: vec![0; words(&layout.starts)],
                outputs: vec![0; words(&layout.out_starts)],
                input_room: if c.regrant {
                    Part::filled(span.ports.clone(), (NEVER, 0))
                } else {
                    Part::empty()
                },
                busy: Part::filled(span.channels.clone(), 0),
                output_grants: if c.out_speedup > 1 {
                    Part::filled(span.channels.clone(), (NEVER, 0))
                } else {
                    Part::empty()
                },
                eject: Part::filled(span.ejecting.clone(), 1 << 31),
            },
            wires: Wires::new(c.l),
            credits: Wires::new(c.l),
            terms: Terminals {
                first: Part::filled(span.injecting.clone(), NONE),
                last: Part::filled(span.injecting.clone(), NONE),
                writing: Part::filled(span.injecting.clone(), NONE),
                vc: Part::filled(span.injecting.clone(), NONE),
                written: Part::filled(span.injecting.clone(), 0),
                held: Part::filled(Span::times(&span.injecting, c.v), false),
                eject_owner: Part::filled(slots.clone(), NONE),
                active: Vec::new(),
                is_active: Part::filled(span.injecting.clone(), false),
                vc_next: Part::filled(if c.rotate { span.injecting.clone() } else { 0..0 }, 0),
            },
            pkts: Shared::default(),
            stats: Stats {
                service: ClassService::per_class(net),
                inj_taken_at: Part::filled(span.injecting.clone(), (NEVER, 0)),
                warm: false,
                early: Default::default(),
                pstats: PacketStats::default(),
                flit_hops: 0,
                last_move: 0,
                buffered: 0,
            },
            scratch: Scratch::default(),
            pointers: if separable {
                crate::switch_alloc::Pointers::new(ports, c.nc + terminals, c.v)
            } else {
                crate::switch_alloc::Pointers::new(0, 0, c.v)
            },
            vc_next: Part::filled(if c.rotate { span.channels.clone() } else { 0..0 }, 0),
            legs,
            out: Outbox::default(),
            c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vc::part::OneShard;

    fn used() -> SwitchUse<OneShard> {
        SwitchUse {
            inputs: Vec::new(),
            outputs: Vec::new(),
            input_room: Part::empty(),
            busy: Part::empty(),
            output_grants: Part::empty(),
            eject: Part::filled(0..1, 1 << 31),
            epoch: 0,
        }
    }

    /// Verification: a stamp answers "this cycle?" exactly for the cycle that wrote it, also
    /// after jumps across the 2^32 cycles' period (the low 32 bits repeat there).
    #[test]
    fn a_stamp_equals_only_its_own_cycle() {
        let mut u = used();
        let fresh = |u: &SwitchUse<OneShard>, now: u64| u.eject[0] != now.stamp();
        // Never stamped: no cycle of the first epoch matches.
        for now in [0, 1, (1 << 31) - 1] {
            u.enter(now);
            assert!(fresh(&u, now));
        }
        // Stamped in the last cycle of epoch 0, then the same low bits come 2^32 later, in
        // the next cycle, and in every epoch jumped to.
        let written = (1 << 31) - 1;
        u.eject[0] = written.stamp();
        assert!(!fresh(&u, written));
        for now in [written + 1, written + (1 << 32), 5 << 33, (5 << 33) + (1 << 31) + 7, (1 << 62) + 3] {
            u.enter(now);
            assert!(fresh(&u, now), "cycle {now}");
            u.eject[0] = now.stamp();
            assert!(!fresh(&u, now));
            u.enter(now + (1 << 32));
            assert!(fresh(&u, now + (1 << 32)), "cycle {now} + 2^32");
        }
    }
}
