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
//!   its arbitration order (round-robin: a priority rotating over its input VCs every cycle;
//!   oldest-first: by packet creation cycle, then the packet's seeded salt):
//!   1. VC allocation: a VC whose front flit is a ready header routes it (the network's
//!      [`Routing`]; among several allowed channels a free one, chosen as the ideal switch
//!      does) and takes a VC of the chosen output that no other packet holds and whose credits
//!      show room for one flit (`wormhole`) or the whole packet (`vct`, `saf`). With `saf` the
//!      header asks only once every flit of its packet is in the buffer and ready. A header at
//!      its destination takes the terminal's ejection port instead, one packet at a time.
//!   2. Switch allocation: each input port sends at most one flit and each output port takes at
//!      most one flit per cycle (unit-width channels), from VCs holding an output VC, whose
//!      front flit is ready and whose output shows a credit.
//!   3. Traversal: a flit sent at cycle s is in the next router's buffer at s + l (the link
//!      latency); the slot it frees is credited back to the sender at s + l (the credit
//!      crosses the same wire back: the credit delay is l). The tail flit releases the output
//!      VC it held. A flit sent to the ejection port is ejected (one per cycle, Greenberg &
//!      Guan's assumption 4); a packet is delivered the cycle after its tail is ejected, and a
//!      message with its last packet.
//! - Channels wider than one flit are refused when the experiment is built.
//! - With a dateline (`--deadlock dateline`, tori only) a packet may take only the lower half
//!   of a channel's VCs until it takes its ring's wrap-around channel, and only the upper half
//!   from there until it leaves the ring (Dally & Seitz's two classes per ring).
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
//! - Deadlock detection: when no flit moves for 2(r + 2l) + 100 cycles with flits in the
//!   network, the run stops and reports a cycle of waits (see [`super::Deadlock`]).
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
//!   **T = (h + 1)·r + h·l + B**, whatever P (the ideal switch's h + B at r = 0, l = 1).
//! - `saf`, with B = n·P: a packet leaves a router only once its tail is there and ready, which
//!   costs P − 1 + r at each of the h + 1 routers and l on each channel; the packets follow
//!   P cycles apart (the injection channel's pace), so the last one starts (n − 1)P late:
//!   **T = (n − 1)·P + (h + 1)·(P − 1 + r) + h·l + P**.
//!
//! # Cost
//! Flits live in one arena of (ports × V × F) slots, packets and messages in slot vectors with
//! free lists; flits on the wires and credits on their way back sit in rings of l + 1 buckets
//! by arrival cycle (every flit and credit takes exactly l cycles). Only routers holding flits and terminals holding packets
//! are visited; a cycle in which none is and nothing is on a wire is skipped. Within a router
//! only the input VCs holding flits are visited (a bitset per router, read from the
//! round-robin priority on), and a header blocked for a VC is routed once, not every cycle it
//! asks again: its candidates are kept, in a slot of 8 per input VC or in a list of the input
//! VC's own when a routing offers more.

use super::{
    Births, ClassService, Collector, Deadlock, DeadlockWait, Msg, NEVER, Outcome, PacketStats, RunSpec,
    StopReason, UNMEASURED, choose,
};
use crate::spec::{Arbitration, Avoidance, Switching, VcParams};
use crate::traffic::Pattern;
use netwrap_topo::{Candidates, ChannelId, Network, Routing, TerminalId};
use std::collections::VecDeque;

const NONE: u32 = u32::MAX;
/// Marks an output that is a terminal's ejection port.
const EJECT: u32 = 1 << 31;

/// The most flit slots the buffers of one run may take (16 bytes each: 2 GiB).
pub const MAX_FLIT_SLOTS: u64 = 1 << 27;

/// Candidates an input VC's [`Routed`] holds: every one a routing offers on networks of
/// out-degree up to 8 (a routing offers distinct channels leaving the router).
const CACHED: usize = 8;

/// The routing's candidates for an input VC's front packet.
#[derive(Clone, Copy)]
struct Routed {
    /// The packet routed (`NONE`: none, or it has left).
    pkt: u32,
    /// Its candidates: the first `len` of `first`, or all of the input VC's overflow list when
    /// more.
    len: u32,
    first: [ChannelId; CACHED],
}

/// The candidates of the headers waiting for a VC, per input VC: a header asks again every
/// cycle, and its routing depends only on router, destination and salt, so it is routed once.
/// A [`Routed`] per input VC, and for more than [`CACHED`] candidates a list of the input VC's
/// own (the lists made at the first overflow, each empty until needed, then reused).
struct RouteCache {
    slots: Vec<Routed>,
    overflow: Vec<Vec<ChannelId>>,
}

impl RouteCache {
    fn new(input_vcs: usize) -> Self {
        RouteCache {
            slots: vec![Routed { pkt: NONE, len: 0, first: [0; CACHED] }; input_vcs],
            overflow: Vec::new(),
        }
    }

    /// The candidates kept at input VC `i`, if they are packet `pkt`'s.
    #[inline]
    fn get(&self, i: usize, pkt: u32) -> Option<&[ChannelId]> {
        let r = &self.slots[i];
        (r.pkt == pkt).then(|| {
            let len = r.len as usize;
            if len <= CACHED { &r.first[..len] } else { &self.overflow[i][..] }
        })
    }

    /// Keeps `cands` as packet `pkt`'s candidates at input VC `i`.
    fn keep(&mut self, i: usize, pkt: u32, cands: &[ChannelId]) {
        let r = &mut self.slots[i];
        (r.pkt, r.len) = (pkt, cands.len() as u32);
        if cands.len() <= CACHED {
            r.first[..cands.len()].copy_from_slice(cands);
        } else {
            if self.overflow.is_empty() {
                self.overflow = vec![Vec::new(); self.slots.len()];
            }
            self.overflow[i].clear();
            self.overflow[i].extend_from_slice(cands);
        }
    }

    /// Forgets input VC `i`'s candidates (its packet has left; the id may come back).
    #[inline]
    fn forget(&mut self, i: usize) {
        self.slots[i].pkt = NONE;
    }
}

#[derive(Clone, Copy)]
struct Flit {
    ready: u64,
    pkt: u32,
}

/// A packet in flight.
#[derive(Clone, Copy)]
struct Packet {
    created: u64,
    /// Cycle its header left the source router.
    left: u64,
    src: TerminalId,
    msg: u32,
    len: u32,
    dst: TerminalId,
    salt: u32,
    hops: u32,
}

/// An input VC: its FIFO (in the arena at `index · F`) and the output its front packet holds.
#[derive(Clone, Copy)]
struct InVc {
    /// When the front flit is ready to leave (valid while `len > 0`; kept here so that a
    /// router's scan does not read the flit arena).
    ready: u64,
    head: u32,
    len: u32,
    /// Flits of the front packet already sent.
    sent: u32,
    /// Output VC (or `EJECT | terminal`) held by the front packet; `NONE` before allocation.
    out: u32,
}

/// An output VC as its sender sees it (indexed like the input VC it feeds).
#[derive(Clone, Copy)]
struct OutVc {
    credits: u32,
    held: bool,
}

/// What crosses the wires one way (flits, or credits back): every entry takes exactly `l`
/// cycles, so those sent at cycle s all arrive at s + l — a ring of l + 1 buckets indexed by
/// arrival cycle, each emptied in the cycle it arrives (the engine never skips a cycle in which
/// something arrives), in the order it was filled.
struct Wires<T> {
    buckets: Vec<Vec<T>>,
    /// The current cycle's bucket.
    cursor: usize,
    pending: usize,
}

impl<T: Copy> Wires<T> {
    fn new(l: u64) -> Self {
        Wires { buckets: (0..=l).map(|_| Vec::new()).collect(), cursor: 0, pending: 0 }
    }

    /// Sends `x` in the current cycle: it arrives `l` cycles later.
    #[inline]
    fn send(&mut self, x: T) {
        // (now + l) mod (l + 1) = (now − 1) mod (l + 1).
        let at = if self.cursor == 0 { self.buckets.len() - 1 } else { self.cursor - 1 };
        self.buckets[at].push(x);
        self.pending += 1;
    }

    /// Moves to cycle `now` and hands over what arrives then (`out` must be empty).
    #[inline]
    fn arrive(&mut self, now: u64, out: &mut Vec<T>) {
        self.cursor = (now % self.buckets.len() as u64) as usize;
        std::mem::swap(out, &mut self.buckets[self.cursor]);
        self.pending -= out.len();
    }

    /// The first cycle after `now` at which something arrives.
    fn next_arrival(&self, now: u64) -> Option<u64> {
        let n = self.buckets.len();
        (self.pending > 0)
            .then(|| (1..n).find(|d| !self.buckets[(self.cursor + d) % n].is_empty()).map(|d| now + d as u64))
            .flatten()
    }
}

/// Why the flits of one run would not fit in memory, if they would not.
pub fn too_large(net: &Network, p: &VcParams) -> Option<String> {
    let ports = net.channels().len() as u64 + net.terminals() as u64;
    let slots = ports * p.vcs as u64 * p.buffer as u64;
    (slots > MAX_FLIT_SLOTS).then(|| {
        format!(
            "the virtual-channel router's buffers would hold {slots} flits ({ports} input ports × router.vcs = {} × router.buffer = {}), more than {MAX_FLIT_SLOTS} (2 GiB): lower --vcs or --buffer",
            p.vcs, p.buffer
        )
    })
}

/// Each channel's ring, as the dateline and Bubble flow control see it: its dimension and
/// whether it is its ring's wrap-around channel. A torus names its classes `dim i`, or `dim i +`
/// and `dim i -` when bidirectional; moving + raises the router id by the dimension's stride
/// except on the wrap-around channel, moving − lowers it except there.
pub(crate) fn rings(net: &Network) -> Vec<(u32, bool)> {
    net.edges()
        .map(|(src, c)| {
            let name = &net.classes()[c.class as usize];
            let dim = name.split_whitespace().nth(1).and_then(|d| d.parse().ok()).unwrap_or(0);
            let minus = name.ends_with('-');
            (dim, if minus { c.dst > src } else { c.dst < src })
        })
        .collect()
}

/// Whether a packet takes channel `next` in the upper VC class under a dateline (`rings` from
/// [`rings`]): from its ring's wrap-around channel on, until it leaves the ring. `prev` is the
/// channel it arrives on and whether it holds an upper-class VC there (`None`: injection).
pub(crate) fn upper_class(rings: &[(u32, bool)], prev: Option<(u32, bool)>, next: u32) -> bool {
    let (dim, wrap) = rings[next as usize];
    wrap || prev.is_some_and(|(c, upper)| upper && rings[c as usize].0 == dim)
}

/// A packet lets go at cycle `now` of a channel it took at `taken.0` after waiting `taken.1`
/// cycles: count it in its class, if it took the channel in the measurement window.
fn serve(class: &mut ClassService, taken: &mut (u64, u64), now: u64) {
    if taken.0 != NEVER {
        class.packets += 1;
        class.hold_sum += now + 1 - taken.0;
        class.wait_sum += taken.1;
        taken.0 = NEVER;
    }
}

/// Runs the virtual-channel router network (see the module docs). `net` must have unit-width
/// channels and fit [`too_large`].
pub fn run<R: Routing>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    p: &VcParams,
) -> Outcome {
    let terminals = net.terminals();
    let channels = net.channels();
    let nc = channels.len() as u32;
    let v = p.vcs;
    let f = p.buffer;
    let r = p.router_delay as u64;
    let l = p.link_latency as u64;
    let whole = p.switching != Switching::Wormhole;
    let saf = p.switching == Switching::Saf;
    let ports = nc + terminals;
    // Input ports of each router (CSR): its incoming channels, then its terminals' injection.
    let routers = net.routers() as usize;
    let port_router: Vec<u32> =
        channels.iter().map(|c| c.dst).chain((0..terminals).map(|t| net.inject_router(t))).collect();
    let mut starts = vec![0u32; routers + 1];
    for &rt in &port_router {
        starts[rt as usize + 1] += 1;
    }
    for i in 0..routers {
        starts[i + 1] += starts[i];
    }
    let mut router_ports = vec![0u32; ports as usize];
    {
        let mut fill = starts.clone();
        for (port, &rt) in port_router.iter().enumerate() {
            router_ports[fill[rt as usize] as usize] = port as u32;
            fill[rt as usize] += 1;
        }
    }
    // Each router's input VCs (its ports in order, V each) as bits of a bitset of
    // ⌈ports·V / 64⌉ words from `words_at[router]`: set while the VC holds flits, so the routers'
    // scans visit only those (`vc_bit`: each input VC's router-local bit).
    let mut words_at = vec![0u32; routers + 1];
    for rt in 0..routers {
        let n = (starts[rt + 1] - starts[rt]) * v;
        words_at[rt + 1] = words_at[rt] + n.div_ceil(64);
    }
    let mut vc_bit = vec![0u32; (ports * v) as usize];
    let mut router_ivcs = vec![0u32; (ports * v) as usize];
    for rt in 0..routers {
        let p0 = starts[rt] as usize;
        for (pi, &port) in router_ports[p0..starts[rt + 1] as usize].iter().enumerate() {
            for k in 0..v {
                let b = pi as u32 * v + k;
                vc_bit[(port * v + k) as usize] = b;
                router_ivcs[p0 * v as usize + b as usize] = port * v + k;
            }
        }
    }
    let mut occupied = vec![0u64; words_at[routers] as usize];
    // Marks input VC `ivc` of router `rt` as holding flits, or not.
    macro_rules! mark {
        ($rt:expr, $ivc:expr, $on:expr) => {{
            let b = vc_bit[$ivc as usize];
            let w = (words_at[$rt as usize] + b / 64) as usize;
            if $on {
                occupied[w] |= 1u64 << (b % 64);
            } else {
                occupied[w] &= !(1u64 << (b % 64));
            }
        }};
    }
    // Dateline (tori only, checked when the spec is resolved): each channel's ring.
    let dateline: Vec<(u32, bool)> = if p.deadlock == Avoidance::Dateline { rings(net) } else { Vec::new() };
    // Replies on the request network take the upper half of every port's VCs, requests the
    // lower half (no reply waits behind a request: no protocol deadlock); each half runs the
    // deadlock avoidance on its own. `vcs_in`: VCs per class.
    let split = spec.memories.is_some_and(|m| !m.joined && m.reply_size > 0);
    let vcs_in = if split { v / 2 } else { v };
    let half = vcs_in / 2;
    // The first VC of message `m`'s class (read only when the VCs are split).
    let class_base = |m: &Msg| if split && m.is_reply() { vcs_in } else { 0 };
    let bubble = p.deadlock == Avoidance::Bubble;
    // Puente et al.'s adaptive router: VC 0 escapes by dimension order, the rest adapt; the
    // escape channel keeps the bubble where routes go round rings.
    let escape = p.deadlock == Avoidance::Escape;
    let escape_bubble = escape && routing.rings();
    let class_of = |port: u32| if port < nc { channels[port as usize].class as u32 } else { NONE };
    let nvc = (ports * v) as usize;
    let mut flits = vec![Flit { ready: 0, pkt: NONE }; nvc * f as usize];
    let mut ivcs = vec![InVc { ready: 0, head: 0, len: 0, sent: 0, out: NONE }; nvc];
    let mut ovcs = vec![OutVc { credits: f, held: false }; (nc * v) as usize];
    // The input VC whose packet holds each output VC (read only to explain a deadlock).
    let mut holder = vec![NONE; (nc * v) as usize];
    // Buffer occupancy of the channels' input VCs: flit-cycles in the window, accumulated
    // each time a VC's length changes (`occ_since`: the cycle of its last change).
    let channel_vcs = (nc * v) as usize;
    let mut occupancy = vec![0u64; channel_vcs];
    let mut occ_since = vec![0u64; channel_vcs];
    let warmup = spec.warmup;
    let mut buffered = 0u64;
    let mut pstats = PacketStats::default();
    // Service per channel class (the network's, then injection, then ejection): when each
    // output VC, injection VC and ejection port was taken (NEVER: before the window), and
    // from when each input VC's front packet is at the front.
    let nclass = net.classes().len();
    let (inj_class, ej_class) = (nclass, nclass + 1);
    let mut service: Vec<ClassService> = net
        .classes()
        .iter()
        .cloned()
        .chain(["injection".to_string(), "ejection".to_string()])
        .map(|class| ClassService { class, ..ClassService::default() })
        .collect();
    // (cycle taken, header's wait) per output VC, injection channel and ejection port.
    let mut taken_at = vec![(NEVER, 0u64); (nc * v) as usize];
    let mut inj_taken_at = vec![(NEVER, 0u64); terminals as usize];
    let mut eject_taken_at = vec![(NEVER, 0u64); terminals as usize];
    let mut front_since = vec![0u64; nvc];
    let mut last_move = 0u64;
    // After r + 2l + 1 cycles without a move every flit on a wire has landed, every credit has
    // returned and every buffered flit is ready: nothing can change any more but new packets
    // entering free injection buffers, which would be moves. Wait well beyond that.
    let quiet = 2 * (r + 2 * l) + 100;
    let mut inj_held = vec![false; (terminals * v) as usize];
    let mut eject_owner = vec![NONE; terminals as usize];
    let mut eject_stamp = vec![NEVER; terminals as usize];
    let mut out_stamp = vec![NEVER; nc as usize];
    let mut in_stamp = vec![NEVER; ports as usize];
    let mut busy = vec![0u64; nc as usize];
    let mut router_flits = vec![0u32; routers];
    let mut rr = vec![0u32; routers];
    let mut router_active = vec![false; routers];
    let mut active: Vec<u32> = Vec::new();
    let mut term_active = vec![false; terminals as usize];
    let mut active_terms: Vec<u32> = Vec::new();
    let mut source_q: Vec<VecDeque<u32>> = vec![VecDeque::new(); terminals as usize];
    let mut inj_vc = vec![NONE; terminals as usize];
    let mut inj_sent = vec![0u32; terminals as usize];
    let mut wires: Wires<(u32, u32)> = Wires::new(l);
    let mut credits: Wires<u32> = Wires::new(l);
    let (mut landing, mut returning) = (Vec::new(), Vec::new());
    let mut packets: Vec<Packet> = Vec::new();
    let mut free_pkts: Vec<u32> = Vec::new();
    let mut msgs: Vec<Msg> = Vec::new();
    let mut packets_left: Vec<u32> = Vec::new();
    let mut free_msgs: Vec<u32> = Vec::new();
    let mut collector = Collector::new(spec, net);
    let mut births = Births::new(spec, net);
    let mut born: Vec<(TerminalId, Msg)> = Vec::new();
    let mut reqs: Vec<(u64, u64, u32)> = Vec::new();
    let mut cands = Candidates::for_network(net);
    // The routing's candidates for the header at hand (`cands`), and those of the headers
    // left waiting.
    let mut routed = RouteCache::new(nvc);
    let ring = |x: u32| if x >= f { x - f } else { x };
    let mut flit_hops = 0u64;
    let mut now = 0u64;
    let mut reason = None;
    // The one place the message size is read.

    macro_rules! activate {
        ($rt:expr) => {{
            let rt = $rt as usize;
            if !router_active[rt] {
                router_active[rt] = true;
                active.push(rt as u32);
            }
        }};
    }

    while now < spec.max_cycles {
        // Flits reaching their buffers, and credits reaching their senders.
        wires.arrive(now, &mut landing);
        for &(ivc, pkt) in &landing {
            let q = &mut ivcs[ivc as usize];
            let i = ivc as usize;
            occupancy[i] += q.len as u64 * now.max(warmup).saturating_sub(occ_since[i].max(warmup));
            occ_since[i] = now;
            let slot = ivc as usize * f as usize + ring(q.head + q.len) as usize;
            if q.len == 0 {
                q.ready = now + r;
            }
            q.len += 1;
            flits[slot] = Flit { ready: now + r, pkt };
            let rt = port_router[(ivc / v) as usize];
            mark!(rt, ivc, true);
            router_flits[rt as usize] += 1;
            activate!(rt);
        }
        landing.clear();
        credits.arrive(now, &mut returning);
        for &ovc in &returning {
            ovcs[ovc as usize].credits += 1;
        }
        returning.clear();
        // New messages join their source queues as packets.
        births.create(now, pattern, net, &mut collector, &mut born);
        for &(src, msg) in &born {
            let (dst, salt, size) = (msg.dst, msg.salt, msg.size);
            let n = size.div_ceil(p.packet);
            let m = match free_msgs.pop() {
                Some(m) => {
                    msgs[m as usize] = msg;
                    packets_left[m as usize] = n;
                    m
                }
                None => {
                    msgs.push(msg);
                    packets_left.push(n);
                    (msgs.len() - 1) as u32
                }
            };
            for i in 0..n {
                let len = if i + 1 < n { p.packet } else { size - (n - 1) * p.packet };
                let pk = Packet { created: now, left: now, src, msg: m, len, dst, salt, hops: 0 };
                let id = match free_pkts.pop() {
                    Some(id) => {
                        packets[id as usize] = pk;
                        id
                    }
                    None => {
                        packets.push(pk);
                        (packets.len() - 1) as u32
                    }
                };
                source_q[src as usize].push_back(id);
            }
            if !term_active[src as usize] {
                term_active[src as usize] = true;
                active_terms.push(src);
            }
        }
        // Each source writes one flit into its injection channel's buffer.
        active_terms.retain(|&t| {
            let ti = t as usize;
            let port = nc + t;
            if inj_vc[ti] == NONE {
                let pk = &packets[source_q[ti][0] as usize];
                let need = if whole { pk.len } else { 1 };
                let base = class_base(&msgs[pk.msg as usize]);
                for k in base..base + vcs_in {
                    let ivc = port * v + k;
                    if !inj_held[(t * v + k) as usize] && f - ivcs[ivc as usize].len >= need {
                        inj_held[(t * v + k) as usize] = true;
                        inj_vc[ti] = ivc;
                        if now >= spec.warmup {
                            inj_taken_at[ti] = (now, now - pk.created);
                        }
                        break;
                    }
                }
            }
            let ivc = inj_vc[ti];
            if ivc != NONE && ivcs[ivc as usize].len < f {
                let pkt = source_q[ti][0];
                let q = &mut ivcs[ivc as usize];
                let slot = ivc as usize * f as usize + ring(q.head + q.len) as usize;
                if q.len == 0 {
                    q.ready = now + r;
                }
                q.len += 1;
                flits[slot] = Flit { ready: now + r, pkt };
                buffered += 1;
                last_move = now;
                let rt = port_router[port as usize];
                mark!(rt, ivc, true);
                router_flits[rt as usize] += 1;
                activate!(rt);
                inj_sent[ti] += 1;
                let pk = &packets[pkt as usize];
                if inj_sent[ti] == pk.len {
                    serve(&mut service[inj_class], &mut inj_taken_at[ti], now);
                    inj_sent[ti] = 0;
                    source_q[ti].pop_front();
                    inj_held[(ivc - nc * v) as usize] = false;
                    inj_vc[ti] = NONE;
                }
            }
            let keep = !source_q[ti].is_empty();
            term_active[ti] = keep;
            keep
        });
        // Routers: VC allocation, switch allocation, traversal.
        let mut i = 0;
        while i < active.len() {
            let rt = active[i] as usize;
            let (p0, p1) = (starts[rt] as usize, starts[rt + 1] as usize);
            let n = ((p1 - p0) as u32 * v) as u64;
            let rot = rr[rt] as u64 % n.max(1);
            rr[rt] = rr[rt].wrapping_add(1);
            reqs.clear();
            // The router's input VCs holding flits in port order from the rotating priority
            // `rot` on (the round-robin order; oldest-first sorts them below): the bits in
            // [rot, n), then in [0, rot).
            let words = &occupied[words_at[rt] as usize..words_at[rt + 1] as usize];
            let ivcs_here = &router_ivcs[p0 * v as usize..p1 * v as usize];
            let (rot, n32) = (rot as u32, n as u32);
            macro_rules! visit {
                ($bits:expr, $base:expr) => {{
                    let mut bits: u64 = $bits;
                    while bits != 0 {
                        let b = $base + bits.trailing_zeros();
                        bits &= bits - 1;
                        let ivc = ivcs_here[b as usize];
                        let q = &ivcs[ivc as usize];
                        if q.ready > now {
                            continue;
                        }
                        let key = match p.arbitration {
                            Arbitration::RoundRobin => (0, 0),
                            Arbitration::OldestFirst => {
                                let fl = flits[ivc as usize * f as usize + q.head as usize];
                                let pk = &packets[fl.pkt as usize];
                                (pk.created, ((pk.salt as u64) << 32) | ivc as u64)
                            }
                        };
                        reqs.push((key.0, key.1, ivc));
                    }
                }};
            }
            if let [word] = *words {
                // At most 64 input VCs (rot < n ≤ 64): one word, split at `rot`.
                let from_rot = u64::MAX << rot;
                visit!(word & from_rot, 0);
                visit!(word & !from_rot, 0);
            } else {
                for (lo, hi) in [(rot, n32), (0, rot)] {
                    let mut w = lo / 64;
                    while w * 64 < hi {
                        let mut bits = words[w as usize];
                        if w == lo / 64 {
                            bits &= u64::MAX << (lo % 64);
                        }
                        if (w + 1) * 64 > hi {
                            bits &= u64::MAX >> (64 - hi % 64);
                        }
                        visit!(bits, w * 64);
                        w += 1;
                    }
                }
            }
            if p.arbitration == Arbitration::OldestFirst {
                reqs.sort_unstable();
            }
            // VC allocation.
            for &(_, _, ivc) in &reqs {
                let q = ivcs[ivc as usize];
                if q.out != NONE {
                    continue;
                }
                let base = ivc as usize * f as usize;
                let pkt = flits[base + q.head as usize].pkt;
                let pk = packets[pkt as usize];
                if saf && (q.len < pk.len || flits[base + ring(q.head + pk.len - 1) as usize].ready > now) {
                    continue;
                }
                // A header blocked for VCs asks again every cycle: it is routed once per input VC
                // and packet, and its candidates kept while it waits (`fresh`: routed now).
                let i = ivc as usize;
                let kept = routed.get(i, pkt);
                let fresh = kept.is_none();
                let offered = match kept {
                    Some(kept) => kept,
                    None => {
                        if escape {
                            routing.minimal(rt as u32, pk.dst, pk.salt, &mut cands);
                        } else {
                            routing.route(rt as u32, pk.dst, pk.salt, &mut cands);
                        }
                        cands.as_slice()
                    }
                };
                // The header's wait: since it was ready at the front of its buffer.
                let header = q.ready.max(front_since[ivc as usize]);
                if offered.is_empty() {
                    if eject_owner[pk.dst as usize] == NONE {
                        eject_owner[pk.dst as usize] = pkt;
                        ivcs[ivc as usize].out = EJECT | pk.dst;
                        if now >= spec.warmup {
                            eject_taken_at[pk.dst as usize] = (now, now - header);
                        }
                    } else if fresh {
                        routed.keep(i, pkt, &[]);
                    }
                    continue;
                }
                let port = ivc / v;
                let need = if whole { pk.len } else { 1 };
                // Bubble: entering a ring (from injection or another class: dimension and
                // direction) needs room for two packets. Dimension-order routing offers one
                // channel.
                let need = if bubble && class_of(port) != class_of(offered[0]) { 2 * need } else { need };
                // The VCs this packet may take on channel `c`: all; with a dateline the upper
                // class from its ring's wrap-around channel on, the lower class before; with
                // escape routing the adaptive ones, 1 to V − 1.
                let base = class_base(&msgs[pk.msg as usize]);
                let top = base + vcs_in;
                let vcs_of = |c: u32| -> std::ops::Range<u32> {
                    if escape {
                        return base + 1..top;
                    }
                    if dateline.is_empty() {
                        return base..top;
                    }
                    let prev = (port < nc).then_some((port, ivc % v >= base + half));
                    if upper_class(&dateline, prev, c) { base + half..top } else { base..base + half }
                };
                let free_vc = |c: u32| -> u32 {
                    vcs_of(c)
                        .map(|k| c * v + k)
                        .find(|&o| !ovcs[o as usize].held && ovcs[o as usize].credits >= need)
                        .unwrap_or(NONE)
                };
                let free_at = |c: u32| if free_vc(c) != NONE { now } else { now + 1 };
                let c = choose(offered, pk.salt, pk.hops, now, free_at);
                let mut o = free_vc(c);
                if o == NONE && escape {
                    // No adaptive VC: the escape channel, VC 0 of the dimension-order hop. A
                    // packet not already in the escape VC of that ring enters it.
                    let e = routing.escape(rt as u32, pk.dst, pk.salt).expect("not at the destination");
                    let entering = ivc % v != base || class_of(port) != class_of(e);
                    let need = if escape_bubble && entering { 2 * pk.len } else { pk.len };
                    let ov = ovcs[(e * v + base) as usize];
                    if !ov.held && ov.credits >= need {
                        o = e * v + base;
                    }
                }
                if o != NONE {
                    ovcs[o as usize].held = true;
                    holder[o as usize] = ivc;
                    ivcs[ivc as usize].out = o;
                    if now >= spec.warmup {
                        taken_at[o as usize] = (now, now - header);
                    }
                } else if fresh {
                    routed.keep(i, pkt, cands.as_slice());
                }
            }
            // Switch allocation and traversal.
            for &(_, _, ivc) in &reqs {
                let port = ivc / v;
                let q = ivcs[ivc as usize];
                if q.out == NONE || in_stamp[port as usize] == now {
                    continue;
                }
                let eject = q.out & EJECT != 0 && q.out != NONE;
                if eject {
                    let t = (q.out & !EJECT) as usize;
                    if eject_stamp[t] == now {
                        continue;
                    }
                    eject_stamp[t] = now;
                } else {
                    let c = q.out / v;
                    if out_stamp[c as usize] == now || ovcs[q.out as usize].credits == 0 {
                        continue;
                    }
                    out_stamp[c as usize] = now;
                }
                in_stamp[port as usize] = now;
                let pkt = flits[ivc as usize * f as usize + q.head as usize].pkt;
                let qm = &mut ivcs[ivc as usize];
                if port < nc {
                    let i = ivc as usize;
                    occupancy[i] += qm.len as u64 * now.max(warmup).saturating_sub(occ_since[i].max(warmup));
                    occ_since[i] = now;
                }
                qm.head = ring(qm.head + 1);
                qm.len -= 1;
                if qm.len == 0 {
                    mark!(rt, ivc, false);
                } else {
                    qm.ready = flits[ivc as usize * f as usize + qm.head as usize].ready;
                }
                qm.sent += 1;
                let tail = qm.sent == packets[pkt as usize].len;
                if tail {
                    qm.sent = 0;
                    qm.out = NONE;
                    front_since[ivc as usize] = now + 1;
                    // Its id may be reused by a packet that reaches this VC later.
                    routed.forget(ivc as usize);
                }
                router_flits[rt] -= 1;
                last_move = now;
                if port < nc {
                    credits.send(ivc);
                } else if q.sent == 0 {
                    packets[pkt as usize].left = now;
                    // A header leaves its source router: the message's first one ends its source
                    // queueing, as the first hop's start does on the ideal switch. (`at` is the
                    // ideal engines' router; here it marks that this has happened.)
                    let m = &mut msgs[packets[pkt as usize].msg as usize];
                    if m.at != NONE {
                        m.at = NONE;
                        m.first_start = now;
                    }
                }
                if eject {
                    buffered -= 1;
                    if tail {
                        let t = (q.out & !EJECT) as usize;
                        eject_owner[t] = NONE;
                        serve(&mut service[ej_class], &mut eject_taken_at[t], now);
                        let pk = packets[pkt as usize];
                        free_pkts.push(pkt);
                        if msgs[pk.msg as usize].seq != UNMEASURED {
                            pstats.delivered += 1;
                            pstats.latency_sum += now + 1 - pk.created;
                            pstats.network_sum += now + 1 - pk.left;
                        }
                        let left = &mut packets_left[pk.msg as usize];
                        *left -= 1;
                        if *left == 0 {
                            let m = &mut msgs[pk.msg as usize];
                            m.hops = pk.hops;
                            births.deliver(m, now + 1, &mut collector);
                            free_msgs.push(pk.msg);
                        }
                    }
                } else {
                    let o = q.out;
                    let ov = &mut ovcs[o as usize];
                    ov.credits -= 1;
                    if tail {
                        ov.held = false;
                        let class = channels[(o / v) as usize].class as usize;
                        serve(&mut service[class], &mut taken_at[o as usize], now);
                    }
                    let c = (o / v) as usize;
                    if now >= spec.warmup {
                        busy[c] += 1;
                    }
                    flit_hops += 1;
                    if q.sent == 0 {
                        packets[pkt as usize].hops += 1;
                    }
                    wires.send((o, pkt));
                }
            }
            if router_flits[rt] == 0 {
                router_active[rt] = false;
                active.swap_remove(i);
            } else {
                i += 1;
            }
        }
        collector.tick(now);
        reason = collector.stop(now);
        if reason.is_none() && buffered > 0 && now - last_move >= quiet {
            reason = Some(StopReason::Deadlock);
        }
        if reason.is_some() {
            break;
        }
        if active.is_empty() && active_terms.is_empty() {
            // Nothing buffered: jump to the next arrival, creation or delivery.
            // (Credits too: each bucket must be emptied in its cycle.)
            let wire = [wires.next_arrival(now), credits.next_arrival(now)].into_iter().flatten().min();
            let next = [wire, births.next_after_now(), collector.next_delivery()];
            now = super::next_busy_cycle(now, next, spec.max_cycles);
        } else {
            now += 1;
        }
    }
    collector.transmitted(flit_hops);
    let deadlock = (reason == Some(StopReason::Deadlock)).then(|| {
        // Each blocked input VC waits for another: the downstream VC it has no credit for, or
        // the input VC whose packet holds the output VC it needs. In a deadlock every buffered
        // packet waits, so following the waits from any of them ends in a cycle.
        let next = |ivc: u32, cands: &mut Candidates| -> u32 {
            let q = ivcs[ivc as usize];
            if q.len == 0 {
                return NONE;
            }
            if q.out != NONE {
                return if q.out & EJECT == 0 { q.out } else { NONE };
            }
            let pk = packets[flits[ivc as usize * f as usize + q.head as usize].pkt as usize];
            let at = port_router[(ivc / v) as usize];
            // It waits for its deterministic channel (with escape routing, the escape VC).
            let c = if escape {
                routing.escape(at, pk.dst, pk.salt)
            } else {
                routing.route(at, pk.dst, pk.salt, cands);
                cands.as_slice().first().copied()
            };
            let Some(c) = c else { return NONE };
            let o = c * v;
            if ovcs[o as usize].held { holder[o as usize] } else { o }
        };
        let mut seen = vec![NONE; nvc];
        let mut cycle = Vec::new();
        for start in 0..nvc as u32 {
            if ivcs[start as usize].len == 0 || seen[start as usize] != NONE {
                continue;
            }
            let mut path: Vec<u32> = Vec::new();
            let mut at = start;
            while at != NONE && seen[at as usize] == NONE {
                seen[at as usize] = start;
                path.push(at);
                at = next(at, &mut cands);
            }
            if at != NONE && seen[at as usize] == start {
                let from = path.iter().position(|&x| x == at).unwrap_or(0);
                cycle = path[from..].to_vec();
                break;
            }
        }
        let cycle = cycle
            .into_iter()
            .map(|ivc| {
                let port = ivc / v;
                let q = ivcs[ivc as usize];
                let pk = packets[flits[ivc as usize * f as usize + q.head as usize].pkt as usize];
                let channel = (port < nc).then_some(port);
                DeadlockWait {
                    router: port_router[port as usize],
                    channel,
                    class: channel.map(|c| net.classes()[channels[c as usize].class as usize].clone()),
                    terminal: port.checked_sub(nc),
                    vc: ivc % v,
                    destination: pk.dst,
                    source: pk.src,
                }
            })
            .collect();
        Deadlock { detected_at: now, quiet_cycles: now - last_move, flits_in_network: buffered, cycle }
    });
    let mut outcome = collector.finish(net, now, reason, busy.into_iter());
    for (i, occ) in occupancy.iter_mut().enumerate() {
        let end = outcome.end.max(warmup);
        *occ += ivcs[i].len as u64 * end.saturating_sub(occ_since[i].max(warmup));
    }
    outcome.deadlock = deadlock;
    outcome.packets = Some(pstats);
    outcome.vc_occupancy = Some(occupancy);
    outcome.channel_service = Some(service);
    births.close(&mut outcome);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification: the route cache gives back exactly the candidates kept for a packet at an
    /// input VC, in order — up to 8 in the VC's slot, more (here 12) in its own list, then
    /// fewer again — nothing for another packet, another input VC, or after `forget`.
    #[test]
    fn the_route_cache_keeps_every_candidate_of_the_packet_routed() {
        let mut cache = RouteCache::new(4);
        assert_eq!(cache.get(1, 7), None);
        cache.keep(1, 7, &[5, 3, 9]);
        assert_eq!(cache.get(1, 7), Some(&[5, 3, 9][..]));
        assert_eq!((cache.get(1, 8), cache.get(2, 7)), (None, None));
        let many: Vec<u32> = (100..112).rev().collect();
        cache.keep(2, 7, &many);
        assert_eq!(cache.get(2, 7), Some(&many[..]));
        assert_eq!(cache.get(1, 7), Some(&[5, 3, 9][..]));
        cache.keep(2, 8, &[4, 2]);
        assert_eq!(cache.get(2, 8), Some(&[4, 2][..]));
        cache.keep(3, 1, &[]);
        assert_eq!(cache.get(3, 1), Some(&[][..]));
        cache.forget(1);
        assert_eq!(cache.get(1, 7), None);
    }
}
