//! The input-buffered virtual-channel router (`--router vc`), flit by flit.
//!
//! # Model
//! - Every router input port — one per incoming channel, one per attached terminal's injection
//!   channel — has V virtual channels (VCs), each a FIFO buffer of F flits. Output ports are
//!   the outgoing channels and one ejection port per attached terminal.
//! - Terminals: a message of B flits is split into ⌈B / P⌉ packets (all of P flits but the last)
//!   that join the terminal's unbounded source queue when the message is created. The source
//!   writes one flit per cycle into its injection channel's VC buffer, taking a VC for a packet
//!   as routers do (below); a flit written at cycle t is in the router's buffer at t.
//! - Every flit that enters a buffer at cycle t is ready to leave at t + r (the router delay,
//!   a pipeline of r stages; Puente et al. Fig. 5 has four). Each cycle each router runs, in
//!   its arbitration order (round-robin: a priority rotating over its input VCs, one step each
//!   cycle the router holds a flit; oldest-first: by packet creation cycle, then the packet's
//!   seeded salt; both exactly as in [Rules](#rules)):
//!   1. VC allocation: a VC whose front flit is a ready header routes it (the network's
//!      [`Routing`]; among several allowed channels a free one, chosen as the ideal switch
//!      does) and takes a VC of the chosen output that no other packet holds and whose credits
//!      show room for one flit (`wormhole`) or the whole packet (`vct`, `saf`). With `saf` the
//!      header asks only once every flit of its packet is in the buffer and ready. A header at
//!      its destination takes the terminal's ejection port instead, one packet at a time.
//!   2. Switch allocation: each input port sends at most one flit and each output port takes at
//!      most one flit per cycle (wider channels: below), from VCs holding an output VC, whose
//!      front flit is ready and whose output shows a credit.
//!   3. Traversal: a flit sent at cycle s is in the next router's buffer at s + l (the link
//!      latency); the slot it frees is credited back to the sender at s + l (the credit
//!      crosses the same wire back: the credit delay is l). The tail flit releases the output
//!      VC it held. A flit sent to the ejection port is ejected (one per cycle, Greenberg &
//!      Guan's assumption 4); a packet is delivered the cycle after its tail is ejected, and a
//!      message with its last packet.
//! - Stages ([`crate::params::Stages`], BookSim2's router pipeline): r is then switch
//!   allocation plus traversal, every flit's; a header also routes for t_rc cycles, counted
//!   from when it is ready at the front of its VC (after the previous packet's tail has left),
//!   before it may ask for a VC, and after its VC grant waits t_va cycles (t_va − t_sa,
//!   at least 0, with speculation) before it may ask for the switch. Without stages
//!   t_rc = t_va = 0: the model above.
//! - Terminals' channels: a flit written into an injection VC is ready injection-latency + r
//!   cycles later (it holds its slot meanwhile); a packet is delivered ejection-latency cycles
//!   after the cycle after its tail's ejection. With `Ejection::EveryVc` a terminal's ejection
//!   port takes one packet per VC (slots, the lowest free one first), their flits interleaved
//!   at one flit a cycle.
//! - VC choice: the lowest-numbered allowed free VC, or with `VcChoice::Rotating` the first at
//!   or after a pointer per port (output channel or injection channel) that moves past each VC
//!   taken ([`crate::params::rotated`]).
//! - Switch allocation: `greedy` as in step 2 above; a separable allocator
//!   ([`crate::switch_alloc`]: input-first, output-first, iSLIP) instead takes the requests that
//!   could move (an output held, ready, a credit), grants by its arbiters, and the grants move in
//!   the requests' order.
//! - Wide channels (Raghunath & Ranade 1995's two-level networks; HyperX's K links): a channel
//!   of width w, or terminals' links of width w ([`Network::terminal_width`]), moves up to w
//!   flits a cycle. Switch allocation grants each output one VC a cycle, and a grant moves the
//!   VC's front flit and, behind it, up to the output's width in flits of the same packet that
//!   are ready and (on a channel) credited; an input port grants again in the same cycle while
//!   it has moved fewer flits than its width (greedy allocation; the separable allocators grant
//!   it once); a source writes up to its link's width of its packet a cycle. A header leaves onto a channel wider than its
//!   input port (a channel, or its terminal's link) only once its packet's tail is in the
//!   buffer and ready (their §5.3 and note d: such a router cannot pipeline, and buffers the
//!   whole message), so buffers must hold a packet there ([`widening`]). A channel's busy
//!   cycles and channel-cycles count the cycles it carries flits, as on the ideal switch.
//!   Parallel channels (dilation) are channels of their own, offered together by the routing.
//! - Output buffers (`--output-buffer F_o`, CAMINOS's `output_buffer_size`; 0: none): each
//!   channel output VC has a FIFO of F_o flits in the sending router, between the switch and
//!   the link. VC allocation then takes an output VC whose output buffer shows the room the
//!   header needs (a flit, a packet, two on entering a ring), not the downstream credits, and
//!   the tail's crossing into the output buffer releases the VC: packets of one output VC
//!   queue there in order. Switch allocation grants by the output buffer's free slots; a flit
//!   that crosses the switch may leave on the link in the same cycle (no added delay). Each
//!   cycle, after the router's switch traversal, each of its channels carries flits from one of
//!   its output buffers: among those whose front flit has the downstream credits it needs (a
//!   header: the room its VC allocation asked for, now downstream; another flit: one), one
//!   continuing a packet first (CAMINOS's in-transit priority), then the first from a rotating
//!   pointer per channel that stays on the VC chosen and moves past it after a tail; up to the
//!   channel's width in flits of that packet. Ejection ports have no output buffers. UGAL and
//!   DAL read a channel's queue as its output buffers' flits plus the downstream ones.
//! - Speedup (greedy allocation only): an input port may take up to `input_speedup` grants a
//!   cycle (each of up to its width in flits, to different outputs), and with output buffers
//!   an output channel up to `output_speedup` grants a cycle, from different VCs (BookSim2's
//!   `input_speedup` and `output_speedup`).
//! - With a dateline (`--deadlock dateline`, tori only) a packet may take only the lower half
//!   of a channel's VCs until it takes its ring's wrap-around channel, and only the upper half
//!   from there until it leaves the ring (Dally & Seitz 1987's two classes per ring); with
//!   `DatelineClass::ByRoute` the class is chosen as it enters a ring, the upper one if its
//!   route will take the wrap-around channel ([`route_wraps`]), and kept along the ring.
//! - With Bubble flow control (`--deadlock bubble`, tori and Midimews, `vct` only; Puente et
//!   al. §3) a packet entering a ring — from its injection channel or from a channel of
//!   another class (dimension and direction; a Midimew's generator and direction) — takes a VC
//!   only with room for two whole packets; along the ring one suffices. Routing is dimension
//!   order (the Midimew's routing record).
//! - With escape routing (`--deadlock escape`, `vct` only; Puente et al. Fig. 4, Duato's escape
//!   channels) a header first asks for VCs 1 to V − 1 of any minimal next hop
//!   ([`Routing::minimal`]; among several with a free VC, one chosen by its salt); only when
//!   none is free does it ask for VC 0 of its dimension-order hop ([`Routing::escape`]), with
//!   room for two packets when it enters that escape ring (it is not already in VC 0 of a
//!   channel of the same class) on networks whose routes go round rings, one otherwise.
//! - With up*/down* routing (`--deadlock updown`, any family) the network's routing is
//!   replaced when the experiment is built; the router itself treats every VC alike.
//! - Replies on the request network (memories that reply, not on a network of their own) take
//!   the upper half of every port's VCs and requests the lower half, so that no reply waits
//!   behind a request (no protocol deadlock); within its half each runs the rules above as if
//!   the half were all the VCs (its first VC is the escape VC, its two halves the dateline's
//!   classes). Halves are rounded down: with V odd the dateline's upper class has the extra VC,
//!   and with replies the last VC is never used.
//! - Deadlock detection: when no flit moves for 2(r + 2l) + 100 cycles with flits in the
//!   network, the run stops and reports a cycle of waits (see [`crate::Deadlock`]).
//!
//! # Rules
//! What the summary above leaves open, stated exactly (the reference path,
//! [`crate::vc_reference`], implements these and tests require the same outcomes):
//! - *Numbering.* Input port c is channel c's far end, input port C + t terminal t's injection
//!   channel (C channels); input VC k of port q is number q·V + k, and output VC c·V + k is the
//!   sender's view of input VC c·V + k. A router's input VCs, in its own order, are those of its
//!   incoming channels by number, then those of its terminals' injection channels, V each.
//! - *Requests.* In each cycle a router holds a flit, the input VCs whose front flit is ready
//!   request, in its order starting from position p mod n (n its input VCs; p counts the
//!   earlier cycles in which it held a flit, modulo 2^32) and wrapping round; oldest-first
//!   sorts them by (creation cycle, salt, input VC number). Every request without an output
//!   first tries VC allocation, in that order; then every request tries switch allocation in
//!   the same order (so a header may take a VC and send in the same cycle).
//! - *VC allocation.* Of the routing's candidates (escape routing: [`Routing::minimal`]'s) the
//!   header takes the first with a VC it may take, from a rotation chosen by its salt and hops
//!   so far (`choose`); the VC is the lowest-numbered one allowed that no packet holds and
//!   whose credits show the room needed. When no candidate has one it waits and asks again
//!   next cycle (escape routing first tries its escape VC). Bubble's entering test compares the
//!   class of the header's input channel with that of the routing's first candidate (an
//!   injection channel has no class); escape routing's compares the input VC too (it enters
//!   the escape ring unless it is already in the escape VC of a channel of the same class).
//! - *Injection.* A source takes for its front packet the lowest VC of its injection channel
//!   (within the packet's class) not held by another packet still being written and with room
//!   for the packet (`vct`, `saf`) or a flit (`wormhole`), seen directly in the buffer (no
//!   credits); it lets go when the packet's last flit is written.
//! - *Statistics.* A header's wait counts from the cycle it is both at the front of its buffer
//!   and ready; a packet holds a channel from the cycle it takes the VC to the cycle its tail
//!   leaves, both counted; both are counted for VCs taken at or after the warm-up. A message's
//!   source wait ends when the first of its packets' headers leaves the source router, and its
//!   hop count is that of its last packet delivered. Occupancy counts, per channel VC, the flits
//!   it holds at the end of each cycle of [warm-up, end).
//! - *Stopping.* The stop rule and the deadlock watch are checked at the end of every cycle the
//!   engine simulates: cycle 0, every cycle after one that ended with a flit in a buffer or a
//!   packet in a source queue, and every cycle in which a flit or credit arrives or the
//!   workload has something due. The others change nothing and are skipped, so a condition
//!   that first holds in one of them (a saturated run's window or deadline passing during an
//!   idle stretch) is found at the next simulated cycle.
//! - *Output buffers.* A router's link stage runs after its switch traversal, its channels in
//!   number order. A packet holds an output VC from its VC grant to its tail's crossing into
//!   the output buffer (the class service counts that span); a channel's busy cycles count the
//!   cycles its link carries flits. Buffer occupancy counts the input buffers only.
//! - *Deadlock report.* An input VC holding flits waits for the output VC its front packet
//!   holds (that is, the downstream input VC; an output buffer between them is passed over)
//!   unless it is ejecting; a header without an output
//!   waits for VC 0 of its deterministic channel (escape routing: its escape channel; otherwise
//!   the routing's first candidate), or for the input VC whose packet holds that VC. Following
//!   the waits from each input VC holding flits, in number order, the first walk that comes
//!   back onto itself is the reported cycle.
//!
//! # Unloaded latency
//! One message of B flits whose packets cross h channels (h + 1 routers, the source's and the
//! destination's included) and meet no other traffic, with buffers deep enough that credits
//! never stall a stream (F ≥ 2l + r + 1 with `wormhole`; F ≥ B + 2l + r with `vct` and
//! `saf`, so a VC always has room for the next packet):
//! - `wormhole` and `vct`: the header is ready at the source router at t + r, leaves, is ready
//!   at each next router r + l later, so it is ejected at t + (h + 1)r + hl; the flits follow
//!   one per cycle without a gap, the packets of a message back to back, so the last flit is
//!   ejected B − 1 cycles later and
//!   **T = (h + 1)·r + h·l + B**, whatever P (the ideal switch's h + B at r = 0, l = 1),
//!   with or without output buffers and speedup;
//!   with stages and terminals' channels, each router adds t_rc + t_va (speculative:
//!   t_rc + max(0, t_va − t_sa), [`crate::params::VcParams::header_extra`]) and the message
//!   the injection and ejection latencies.
//! - Wide channels, one packet (B = P) and buffers deep enough that credits never stall a
//!   burst (F ≥ w(2l + r + 1)): as on the ideal switch, a hop of width w takes ⌈B/w⌉ cycles of
//!   the channel, and a router whose output is wider than the packet's input port holds the
//!   header until the tail is ready there; with r = 0 and l = 1, the ideal switch's latency
//!   whenever the terminals' links are as wide as the first channel.
//! - `saf`, with B = n·P: a packet leaves a router only once its tail is there and ready, which
//!   costs P − 1 + r at each of the h + 1 routers and l on each channel; the packets follow
//!   P cycles apart (the injection channel's pace), so the last one starts (n − 1)P late:
//!   **T = (n − 1)·P + (h + 1)·(P − 1 + r) + h·l + P**.
//!
//! # Threads
//! A run's routers are cut into shards of consecutive router numbers (`--jobs`,
//! [`crate::Jobs`]), each owning its routers' state: their input ports and VCs (numbered router
//! by router), their outgoing channels and output VCs (numbered by source router), and the
//! terminals injecting at and ejecting from them, each table a `part::Part` indexed by the
//! network's numbers. Every cycle the run files the cycle's new packets (between cycles: the
//! packet and message tables are shared, `part::Shared` says who may touch what during a
//! cycle), then each shard, on its thread (`crate::crew`), lands its flits and credits,
//! injects from its terminals and steps its routers, exactly as the stages below do. A router
//! reads and writes only its own state and the packet whose header it holds, so the shards'
//! cycles together are the one thread's. What crosses to another shard goes through the
//! shard's outbox and is filed after the cycle: a flit or credit bound for another shard's
//! router (it arrives l ≥ 1 cycles later), a packet done with, a message delivered. The run
//! takes the outboxes in shard order, which is router order, so packet and message slots are
//! freed and messages delivered in the one thread's order, and the result is the same, bit for
//! bit, for any number of shards (tests hold 2, 3 and 4 to one on every family and option, and
//! the reference oracle runs the sharded engine). UGAL-global reads other routers' credits,
//! and a network whose terminals are not numbered in router order cannot be cut into runs of
//! terminals: both run as one shard. With one shard every table starts at 0 and is indexed as
//! it is, and a part keeps no base (`part::Numbering`).
//!
//! # Stages
//! [`run`] simulates a cycle as these stages, in this order (the names of BookSim's router
//! stages, Jiang et al. 2013, where they fit), each a method of the state in `state` (its
//! parameters, the network's layout of ports and VCs, the buffers and VC state, the routers'
//! activity, the terminals, packets and messages, the statistics, and the wires):
//! 1. link traversal's far end and credits (`switch`): `receive_flits` (flits sent l cycles ago
//!    enter their buffers; on a large network, each block of 64 routers' just before the block
//!    steps, which changes nothing but the order memory is touched in), `receive_credits`;
//! 2. source queuing and injection (`inject`): `queue_message` (new messages join their source
//!    queues as packets, filed by the run before the shards' cycles), `inject` (each source
//!    writes a flit into its injection VC);
//! 3. each router holding flits (`step_routers`): `requests` (its input VCs with a ready front
//!    flit, in arbitration order), `vc_allocation` (routing, with the per-VC route cache, and
//!    VC allocation, `alloc`), `switch_allocation_and_traversal` (switch allocation, switch
//!    traversal with the credit sent back, then link traversal or ejection, `switch`), and
//!    with output buffers `link_stage` (`switch`);
//! 4. after the shards' cycles, the outboxes (`exchange`), the collector's tick and the stop
//!    rule, and the deadlock watch (no move for the quiet period with flits in the network;
//!    the report, `deadlock`'s `deadlock_report` across the shards, when the run ends on one).
//!
//! # Cost
//! Input ports are numbered router by router inside the engine (`state::Layout`; the Rules'
//! numbers are translated where they show: the reports, the deadlock walk), so a router's VC
//! state, flits and statistics are one block, walked in memory order as the routers step. An
//! input VC keeps its front flit's packet and tail flag, and a flit carries its tail flag, so
//! a flit's move reads neither the flits nor its packet for them. On a network whose state
//! outgrows the caches the landing flits' VCs and the next router's state are prefetched, and
//! a cycle's flits land block by block of 64 routers, each just before the block steps. VC
//! numbers are divided by V by multiplication (`strength_reduce`). With output buffers, a flit
//! crossing the switch into its channel's empty output buffers leaves on the link at once when
//! the downstream credits allow (what the router's link stage would do with it, as the only
//! flit there), and a router's link stage runs only while its output buffers hold flits.
//! Flits live in chunks of F slots, one for each input VC (on a large network, for each input
//! VC holding flits, taken and given back: `state::FlitPool`), packets and messages in slot
//! vectors with free lists; flits on the wires and credits on their way back sit in rings of l + 1 buckets
//! by arrival cycle (every flit and credit takes exactly l cycles). Only routers holding flits
//! (a bitset, visited in number order: on a large network an activation-ordered list walked
//! the per-router state at random and cost a third of the run in cache misses) and terminals
//! holding packets are visited; a cycle in which none is and nothing is on a wire is skipped. Within a router only the input VCs holding flits are visited (a bitset per
//! router, read from the round-robin priority on), and a header blocked for a VC is routed
//! once, not every cycle it asks again. The reference path, [`crate::vc_reference`], does none
//! of this, and must agree with it.
//!
//! With one VC per port and virtual cut-through (no stages, no speedup, greedy allocation,
//! channels a flit wide, minimal paths) a packet moves as a train: its header takes its VC and
//! crosses the switch in the same cycle, and every flit follows it one cycle apart, at every
//! router and output buffer. There (on one shard) `train` simulates the headers alone and counts
//! the flits from their headers' cycles; this flit engine is its reference (tests require the
//! same outcomes), and re-runs a run that the deadlock watch stops, for its report. Its state
//! is laid out for the cache: what a hop reads of a channel is in its input port's two cache
//! lines, a router's headers asking are a bitset walked round from the rotating priority, and
//! on networks of up to 65,536 router-destination pairs a header's one output comes from a
//! hop table of a byte a pair where the salt cannot change it ([`Routing::salt_free`]). Where
//! the ports' state outgrows the caches (over 8,192 ports) the ports landing a few ahead, the
//! ports asking two routers on, and the next router's front trains and their outputs' ports
//! are prefetched.

mod alloc;
mod deadlock;
mod inject;
mod part;
mod state;
mod switch;
mod train;
mod wires;

use crate::crew::{Crew, with_crew};
use crate::params::VcParams;
use crate::traffic::Pattern;
use crate::{Births, Collector, Msg, Outcome, PacketStats, RunSpec, StopReason};
use netwrap_topo::{Legs, Network, Routing, TerminalId};
use part::{ManyShards, Numbering, OneShard, Shared, Span};
use state::{Config, Layout, Packets, TAIL, Vc};

/// The most flit slots the buffers of one run may take (12 bytes each: 1.5 GiB).
pub const MAX_FLIT_SLOTS: u64 = 1 << 27;

/// Most flits per input VC buffer (`router.buffer`): an input VC keeps its FIFO's first slot
/// and length in 16 bits each.
pub const MAX_VC_BUFFER: u32 = u16::MAX as u32;

/// Why the flits of one run would not fit in memory, if they would not.
pub fn too_large(net: &Network, p: &VcParams) -> Option<String> {
    let ports = net.channels().len() as u64 + net.terminals() as u64;
    let outputs = net.channels().len() as u64 * p.vcs as u64 * p.output_buffer as u64;
    let slots = ports * p.vcs as u64 * p.buffer as u64 + outputs;
    (slots > MAX_FLIT_SLOTS).then(|| {
        format!(
            "the virtual-channel router's buffers would hold {slots} flits ({ports} input ports × router.vcs = {} × router.buffer = {}{}), more than {MAX_FLIT_SLOTS} (1.5 GiB): lower --vcs or --buffer",
            p.vcs,
            p.buffer,
            if outputs > 0 { format!(", and {outputs} in output buffers") } else { String::new() }
        )
    })
}

/// Where a packet may leave a router on a channel wider than its input port (a channel, or a
/// terminal's link), so that it waits there for its tail: the first such router, with the
/// narrowest input's and the widest output's widths in flits.
pub fn widening(net: &Network) -> Option<(u32, u32, u32)> {
    let routers = net.routers() as usize;
    let (mut widest_out, mut narrowest_in) = (vec![0u32; routers], vec![u32::MAX; routers]);
    for (src, c) in net.edges() {
        widest_out[src as usize] = widest_out[src as usize].max(c.width as u32);
        narrowest_in[c.dst as usize] = narrowest_in[c.dst as usize].min(c.width as u32);
    }
    for t in 0..net.terminals() {
        let rt = net.inject_router(t) as usize;
        narrowest_in[rt] = narrowest_in[rt].min(net.terminal_width());
    }
    (0..routers)
        .find(|&rt| widest_out[rt] > narrowest_in[rt])
        .map(|rt| (rt as u32, narrowest_in[rt], widest_out[rt]))
}

/// Each channel's ring, as the dateline and Bubble flow control see it: its dimension and
/// whether it is its ring's wrap-around channel. A torus names its classes `dim i`, or `dim i +`
/// and `dim i -` when bidirectional; moving + raises the router id by the dimension's stride
/// except on the wrap-around channel, moving − lowers it except there.
pub fn rings(net: &Network) -> Vec<Ring> {
    net.edges()
        .map(|(src, c)| {
            let name = &net.classes()[c.class as usize];
            let dim = name.split_whitespace().nth(1).and_then(|d| d.parse().ok()).unwrap_or(0);
            let minus = name.ends_with('-');
            Ring::new(dim, if minus { c.dst > src } else { c.dst < src })
        })
        .collect()
}

/// A channel's ring under a dateline: its dimension, and whether it is the ring's wrap-around
/// channel, in 4 bytes (a million-node torus has four million of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ring(u32);

impl Ring {
    fn new(dim: u32, wraps: bool) -> Self {
        Ring(dim << 1 | wraps as u32)
    }

    /// The ring's dimension.
    #[inline]
    pub fn dim(self) -> u32 {
        self.0 >> 1
    }

    /// Whether the channel is its ring's wrap-around channel.
    #[inline]
    pub fn wraps(self) -> bool {
        self.0 & 1 != 0
    }
}

/// Whether a packet takes channel `next` in the upper VC class under a dateline (`rings` from
/// [`rings`]): from its ring's wrap-around channel on, until it leaves the ring. `prev` is the
/// channel it arrives on and whether it holds an upper-class VC there (`None`: injection).
pub fn upper_class(rings: &[Ring], prev: Option<(u32, bool)>, next: u32) -> bool {
    let ring = rings[next as usize];
    ring.wraps() || prev.is_some_and(|(c, upper)| upper && rings[c as usize].dim() == ring.dim())
}

/// Whether a packet at router `at`, bound for terminal `dst` with salt `salt`, will take the
/// wrap-around channel of `next`'s ring if it takes `next` now: its route followed (the
/// routing's first candidate at each router) while it stays in that ring. BookSim2's
/// `dim_order_torus` chooses the dateline class this way (`DatelineClass::ByRoute`).
pub fn route_wraps<R: Routing>(
    net: &Network,
    routing: &R,
    rings: &[Ring],
    next: u32,
    dst: netwrap_topo::TerminalId,
    salt: u32,
    cands: &mut netwrap_topo::Candidates,
) -> bool {
    let dim = rings[next as usize].dim();
    let mut c = next;
    // (Minimal routes never turn round within a dimension, so one dimension is one ring.)
    for _ in 0..rings.len() {
        if rings[c as usize].wraps() {
            return true;
        }
        routing.route(net.channel(c).dst, dst, salt, cands);
        match cands.as_slice().first() {
            Some(&n) if rings[n as usize].dim() == dim => c = n,
            _ => return false,
        }
    }
    false
}

/// Whether terminals are numbered in the order of the routers they inject at and eject from, so
/// that a run of routers owns a run of terminals and the run can be cut into shards (see
/// "Threads").
pub fn terminals_in_order(net: &Network) -> bool {
    part::terminals_in_order(net)
}

/// Runs the virtual-channel router network (see the module docs). `net` must fit
/// [`too_large`], and buffers must hold a packet where it has a [`widening`]. A run on one
/// shard whose packets move as trains (one VC, virtual cut-through: `train`'s conditions) is
/// simulated packet by packet, with the same outcome.
pub fn run<R: Routing + Sync>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    p: &VcParams,
) -> Outcome {
    let shards = crate::ideal::shards(net, spec);
    if shards == 1
        && let Some(outcome) = train::run(net, routing, pattern, spec, p)
    {
        return outcome;
    }
    run_as(net, routing, pattern, spec, p, None, shards)
}

/// The packet-by-packet path (`train`): `None` for a run it does not apply to, or that the
/// deadlock watch would stop (the flit engine reports the cycle of waits).
#[doc(hidden)]
pub use train::run as run_trains;

/// [`run`] on `shards` shards (however small the network, at most one a router; one under
/// UGAL-global, which reads other routers' credits, and where terminals are not numbered in
/// router order, `part::terminals_in_order`), with the paths taken for a network whose state outgrows the caches (prefetches, flits
/// landing by block of 64 routers) forced on or off (`None`: by the network's size), so that
/// tests hold both to the reference on small networks.
#[doc(hidden)]
pub fn run_as<R: Routing + Sync>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    p: &VcParams,
    large: Option<bool>,
    shards: usize,
) -> Outcome {
    let legs = Legs::new(spec.paths, net, spec.groups);
    let mut c = Config::new(routing, net, spec, p, &legs);
    if let Some(large) = large {
        c.large = large;
    }
    let layout = Layout::new(net, p, spec);
    let routers = net.routers();
    let alone = !crate::shardable(net, spec.paths.choice, true);
    let n = if alone { 1 } else { shards.clamp(1, routers.max(1) as usize) };
    // Shard i holds routers bounds[i]..bounds[i + 1], as equal as can be.
    let bounds: Vec<u32> = (0..=n).map(|i| (i as u64 * routers as u64 / n as u64) as u32).collect();
    let spans: Vec<Span> = bounds.windows(2).map(|w| Span::new(net, &layout, w[0]..w[1])).collect();
    let sharded = Setup { net, routing, pattern, spec, p, c, layout: &layout, legs: &legs };
    if n == 1 { sharded.run::<OneShard>(spans) } else { sharded.run::<ManyShards>(spans) }
}

/// A run's parts that every shard reads.
struct Setup<'a, R> {
    net: &'a Network,
    routing: &'a R,
    pattern: &'a Pattern,
    spec: &'a RunSpec,
    p: &'a VcParams,
    c: Config,
    layout: &'a Layout,
    legs: &'a Legs,
}

impl<R: Routing + Sync> Setup<'_, R> {
    /// Runs the shards of `spans` (several, or with `S` false one).
    fn run<S: Numbering>(self, spans: Vec<Span>) -> Outcome {
        let Setup { net, routing, pattern, spec, p, c, layout, legs } = self;
        let n = spans.len();
        let hub = Hub {
            ivcs: spans.iter().map(|s| s.ports.start * c.v as usize).collect(),
            channels: spans.iter().map(|s| s.channels.start).collect(),
            injecting: spans.iter().map(|s| s.injecting.start).collect(),
            pkts: Packets::default(),
            collector: Collector::new(spec, net),
            births: Births::new(spec, net),
            born: Vec::new(),
            c,
        };
        let shards: Vec<Vc<R, S>> =
            spans.into_iter().map(|span| Vc::new(net, routing, c, layout, legs, span, p)).collect();
        let step = |s: &mut Vc<R, S>, (now, shared): (u64, Shared)| s.cycle(now, shared);
        // (Threads beyond the cores would only wait on each other: they meet by spinning.)
        let threads = n.min(std::thread::available_parallelism().map_or(1, |c| c.get()));
        let mut hub = hub;
        let ((now, reason), mut shards) = with_crew(shards, threads, step, |crew| {
            let mut now = 0u64;
            let mut reason = None;
            while now < spec.max_cycles {
                hub.create_packets(now, pattern, net, crew);
                crew.step_all((now, hub.pkts.shared()));
                let (last_move, buffered) = hub.exchange(crew);
                hub.collector.tick(now);
                reason = hub.collector.stop(now);
                if reason.is_none() && buffered > 0 && now - last_move >= c.quiet {
                    reason = Some(StopReason::Deadlock);
                }
                if reason.is_some() {
                    break;
                }
                now = hub.next_cycle(crew, now, spec.max_cycles);
            }
            (now, reason)
        });
        hub.finish(&mut shards, net, now, reason)
    }
}

/// What the run keeps beyond the shards, touched between cycles: the packet and message tables,
/// the workload and the collector; and where each shard's numbers start, to find a number's.
struct Hub {
    ivcs: Vec<usize>,
    channels: Vec<usize>,
    injecting: Vec<usize>,
    pkts: Packets,
    collector: Collector,
    births: Births,
    born: Vec<(TerminalId, Msg)>,
    c: Config,
}

/// The shard of the number `x` whose shards start at `starts`.
#[inline]
fn owner(starts: &[usize], x: usize) -> usize {
    starts.partition_point(|&s| s <= x) - 1
}

impl Hub {
    /// Source queuing: the messages created at `now` join their source queues, split into
    /// packets of at most P flits.
    fn create_packets<R: Routing, S: Numbering>(
        &mut self,
        now: u64,
        pattern: &Pattern,
        net: &Network,
        shards: &mut Crew<Vc<R, S>, (u64, Shared)>,
    ) {
        self.births.create(now, pattern, net, &mut self.collector, &mut self.born);
        for &(src, msg) in &self.born {
            let s = owner(&self.injecting, src as usize);
            shards[s].queue_message(&mut self.pkts, src, msg, now);
        }
    }

    /// After a cycle, in shard order (the one thread's order): flits and credits bound for
    /// another shard are filed there, packets done with are freed, and messages delivered
    /// reach the workload and the collector. Returns the last cycle a flit moved and the flits
    /// in the network.
    fn exchange<R: Routing, S: Numbering>(
        &mut self,
        shards: &mut Crew<Vc<R, S>, (u64, Shared)>,
    ) -> (u64, i64) {
        let (mut last_move, mut buffered) = (0, 0);
        for i in 0..shards.len() {
            if S::SHARDED {
                // (Only several shards send to each other.)
                let (mut flits, mut credits) =
                    (std::mem::take(&mut shards[i].out.flits), std::mem::take(&mut shards[i].out.credits));
                for &(at, flit) in &flits {
                    shards[owner(&self.ivcs, (flit.0 & !TAIL) as usize)].wires.send_at(flit, at);
                }
                for &(at, o) in &credits {
                    shards[owner(&self.channels, (o / self.c.vd) as usize)].credits.send_at(o, at);
                }
                flits.clear();
                credits.clear();
                (shards[i].out.flits, shards[i].out.credits) = (flits, credits);
            }
            let s = &mut shards[i];
            for &pkt in &s.out.freed {
                self.pkts.free_packet(pkt);
            }
            for &(m, at) in &s.out.delivered {
                self.births.deliver(&self.pkts.msgs[m as usize], at, &mut self.collector);
                self.pkts.free_message(m);
            }
            s.out.freed.clear();
            s.out.delivered.clear();
            last_move = last_move.max(s.stats.last_move);
            buffered += s.stats.buffered;
        }
        (last_move, buffered)
    }

    /// The next cycle to simulate after `now`: the next one, or with nothing buffered the next
    /// arrival, creation or delivery (credits too: each bucket must be emptied in its cycle).
    fn next_cycle<R: Routing, S: Numbering>(
        &self,
        shards: &Crew<Vc<R, S>, (u64, Shared)>,
        now: u64,
        max_cycles: u64,
    ) -> u64 {
        if shards.iter().any(|s| s.routers.active_count != 0 || !s.terms.active.is_empty()) {
            return now + 1;
        }
        let wire = shards
            .iter()
            .flat_map(|s| [s.wires.next_arrival(now), s.credits.next_arrival(now)])
            .flatten()
            .min();
        let next = [wire, self.births.next_after_now(), self.collector.next_delivery()];
        crate::next_busy_cycle(now, next, max_cycles)
    }

    /// The outcome of a run that stopped at the end of cycle `now` for `reason` (`None`: it ran
    /// out of cycles).
    fn finish<R: Routing, S: Numbering>(
        mut self,
        shards: &mut [Vc<R, S>],
        net: &Network,
        now: u64,
        reason: Option<StopReason>,
    ) -> Outcome {
        self.collector.transmitted(shards.iter().map(|s| s.stats.flit_hops).sum());
        let deadlock = (reason == Some(StopReason::Deadlock)).then(|| {
            let whole =
                AllShards { shards, ivcs: &self.ivcs, channels: &self.channels, pkts: self.pkts.shared() };
            whole.deadlock_report(now)
        });
        // (The flits and output VCs are done with: on a large network their memory makes
        // room for the outcome's tables, which would otherwise raise the run's peak.)
        for s in shards.iter_mut() {
            s.uncount_open_grants();
            s.buf.release_flits();
        }
        let shards = &*shards;
        let busy = shards.iter().flat_map(|s| s.used.busy.items().iter().copied());
        let mut outcome = self.collector.finish(net, now, reason, busy);
        let end = outcome.end.max(self.c.warmup);
        // (Reported per channel VC, c·V + k.)
        let layout = shards[0].layout;
        let occupancy = (0..self.c.nc * self.c.v)
            .map(|o| {
                let i = layout.down(o, self.c.vd) as usize;
                let s = &shards[owner(&self.ivcs, i)];
                // (The flits still there stay to the end.)
                s.buf.ivcs[i].occupancy.wrapping_add(s.buf.ivcs[i].len() as u64 * end)
            })
            .collect();
        let mut pstats = PacketStats::default();
        let mut service = shards[0].stats.service.clone();
        for (i, s) in shards.iter().enumerate() {
            let p = &s.stats.pstats;
            pstats.delivered += p.delivered;
            pstats.latency_sum += p.latency_sum;
            pstats.network_sum += p.network_sum;
            pstats.nonminimal += p.nonminimal;
            for (all, mine) in service.iter_mut().zip(&s.stats.service) {
                if i > 0 {
                    all.packets += mine.packets;
                    all.hold_sum += mine.hold_sum;
                    all.wait_sum += mine.wait_sum;
                }
            }
        }
        outcome.deadlock = deadlock;
        outcome.packets = Some(pstats);
        outcome.vc_occupancy = Some(occupancy);
        outcome.channel_service = Some(service);
        self.births.close(&mut outcome);
        outcome
    }
}

/// The whole network's state across its shards, as the deadlock report reads it.
struct AllShards<'s, 'a, R: Routing, S: Numbering> {
    shards: &'s [Vc<'a, R, S>],
    ivcs: &'s [usize],
    channels: &'s [usize],
    pkts: Shared,
}

impl<'s, 'a, R: Routing, S: Numbering> AllShards<'s, 'a, R, S> {
    /// The shard owning input VC `ivc`.
    fn at_ivc(&self, ivc: u32) -> &'s Vc<'a, R, S> {
        &self.shards[owner(self.ivcs, ivc as usize)]
    }

    /// The shard owning output VC `o`.
    fn at_ovc(&self, o: u32) -> &'s Vc<'a, R, S> {
        let s = &self.shards[0];
        &self.shards[owner(self.channels, (o / s.c.vd) as usize)]
    }
}

impl<R: Routing, S: Numbering> Vc<'_, R, S> {
    /// The shard's cycle, after the run has filed the cycle's new packets: flits and credits
    /// arrive, sources write flits, and every router holding flits runs its cycle.
    fn cycle(&mut self, now: u64, shared: Shared) {
        self.pkts = shared;
        self.note_early_grants(now);
        self.used.enter(now);
        self.receive_flits(now);
        self.receive_credits(now);
        self.inject(now);
        self.step_routers(now);
        // (The tables may move before the next cycle: a stale view would panic, not read them.)
        self.pkts = Shared::default();
    }

    /// Every router holding flits runs its cycle, in number order (UGAL-global reads other
    /// routers' credits, so the reference's order matters there; elsewhere routers meet only
    /// through wires, and the order walks memory in order); a router left without flits leaves
    /// the active set. (No router gains a flit after its step: flits land at the cycle's
    /// start, or on a large network just before their block of 64 routers steps.)
    fn step_routers(&mut self, now: u64) {
        let first = self.routers.first;
        for w in 0..self.routers.active.len() {
            if self.c.large {
                self.land_block(w, now);
            }
            let mut bits = self.routers.active[w];
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                let rt = first + w as u32 * 64 + b;
                // (The next router of this word is brought into the cache meanwhile.)
                if self.c.large && bits != 0 {
                    self.prefetch_router(first + w as u32 * 64 + bits.trailing_zeros());
                }
                self.step_router(rt, now);
                if self.routers.flits[rt as usize] == 0 {
                    self.routers.active[w] &= !(1u64 << b);
                    self.routers.active_count -= 1;
                }
            }
        }
    }

    /// Brings router `rt`'s first input VCs' state and its output VCs' into the cache ahead
    /// of its step (its other input VCs' lines too cost more than they saved).
    #[inline(always)]
    fn prefetch_router(&self, rt: u32) {
        let (rt, v) = (rt as usize, self.c.v as usize);
        crate::prefetch(&self.buf.ivcs[self.layout.starts[rt] as usize * v]);
        crate::prefetch(&self.buf.occupied[self.layout.words_at[rt] as usize]);
        let (out, end) =
            (self.layout.out_starts[rt] as usize * v, self.layout.out_starts[rt + 1] as usize * v);
        if out < end {
            crate::prefetch(&self.buf.ovcs[out]);
            crate::prefetch(&self.buf.ovcs[end - 1]);
        }
    }

    /// Router `rt`'s cycle: requests, VC allocation, switch allocation and traversal, and with
    /// output buffers the link stage.
    #[inline(always)]
    fn step_router(&mut self, rt: u32, now: u64) {
        self.requests(rt as usize, now);
        self.vc_allocation(rt, now);
        self.switch_allocation_and_traversal(rt, now);
        if self.c.ob > 0 && self.routers.queued[rt as usize] > 0 {
            self.link_stage(rt, now);
        }
    }
}
