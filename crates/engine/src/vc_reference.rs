//! The virtual-channel router's reference path: the model of [`crate::vc`] simulated flit by
//! flit, written to be read rather than to be fast. Tests run it beside [`crate::vc::run`] on
//! small networks and require identical [`Outcome`]s, so every rule of [`crate::vc`]'s module
//! docs — the tie-breaks included — is written here once more, plainly.
//!
//! What it leaves out, on purpose: activity lists (every terminal and every router is visited
//! in every cycle, in number order), bitsets (a router's input VCs are scanned one by one),
//! cached routes (a waiting header is routed again every cycle), arenas and free lists (an
//! input VC is a queue of flits; every packet and message keeps its slot for the whole run) and
//! skipped cycles (it simulates every cycle up to the stop). Wires are two queues of
//! (arrival cycle, what) in sending order: every flit and credit takes exactly l cycles.
//!
//! Its cost is O(routers · ports · V + terminals) per cycle and its memory grows with every
//! message the run creates: it is for small networks (tens of routers) and short runs (tests).
//!
//! Numbering (as in [`crate::vc`]): input port `c` is channel `c`'s far end, input port
//! `C + t` terminal `t`'s injection channel (C channels); input VC `port · V + k`; output VC
//! `c · V + k` is the sender's view of input VC `c · V + k`.

use crate::params::{
    Allocator, Arbitration, Avoidance, DatelineClass, Ejection, Switching, VcChoice, VcParams, rotated,
};
use crate::switch_alloc::{self, Request};
use crate::traffic::Pattern;
use crate::{
    Births, ClassService, Collector, Deadlock, DeadlockWait, Msg, Outcome, PacketStats, RunSpec, StopReason,
    UNMEASURED, choose,
};
use netwrap_topo::paths::split_deroutes;
use netwrap_topo::{Candidates, ChannelId, Legs, Network, PathChoice, Routing, TerminalId};
use std::collections::VecDeque;

/// One flit in a buffer: its packet, and when it may leave.
#[derive(Clone, Copy)]
struct Flit {
    packet: usize,
    ready: u64,
}

struct Packet {
    message: usize,
    src: TerminalId,
    dst: TerminalId,
    salt: u32,
    len: u32,
    created: u64,
    /// Cycle its header left the source router.
    left: u64,
    /// Channels its header has crossed.
    hops: u32,
    /// Its routing state ([`netwrap_topo::paths::Leg`]) and the hops at which its leg last
    /// switched (`u32::MAX`: never).
    leg: u32,
    switch_hop: u32,
}

struct Message {
    msg: Msg,
    packets_left: u32,
    /// One of its headers has left the source router.
    started: bool,
    /// Its reply class's first VC (0 unless replies take the upper half).
    base: u32,
}

/// Where an input VC's front packet goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    /// Output VC `c · V + k`.
    Vc(u32),
    /// Ejection slot `t · slots + k` of terminal t (`slots`: 1, or V with `Ejection::EveryVc`).
    Eject(u32),
}

#[derive(Default)]
struct InputVc {
    flits: VecDeque<Flit>,
    /// The output its front packet holds.
    output: Option<Output>,
    /// Flits of the front packet sent.
    sent: u32,
    /// The cycle its front flit came to the front.
    front_since: u64,
    /// From when its front packet's header, granted an output, may ask for the switch (its
    /// VC allocation stage over).
    switch_from: u64,
}

struct OutputVc {
    /// Credits for the downstream buffer; with output buffers, the output buffer's free
    /// slots (the switch's view), the downstream credits being `link`'s.
    credits: u32,
    link: u32,
    /// With output buffers, its flits: (packet, credits a header needs on the link (0 for
    /// other flits), tail).
    queue: VecDeque<(usize, u32, bool)>,
    /// The input VC whose packet holds it.
    holder: Option<u32>,
    /// When it was taken and its header's wait, if in the measurement window.
    taken: Option<(u64, u64)>,
}

#[derive(Default)]
struct Source {
    /// Packets waiting, in creation order.
    queue: VecDeque<usize>,
    /// The injection VC (0..V) the front packet holds, and flits of it written.
    vc: Option<u32>,
    written: u32,
    /// Injection VCs held by a packet still being written.
    held: Vec<bool>,
    taken: Option<(u64, u64)>,
}

/// One of a terminal's ejection slots: one per terminal, or one per VC with
/// `Ejection::EveryVc`.
#[derive(Default)]
struct Sink {
    /// The packet being ejected.
    owner: Option<usize>,
    taken: Option<(u64, u64)>,
}

struct Sim<'a, R: Routing> {
    net: &'a Network,
    routing: &'a R,
    p: VcParams,
    warmup: u64,
    nc: u32,
    /// Each router's input VCs, in the order of its rotating priority: its input ports (its
    /// incoming channels by number, then its terminals' injection channels), V VCs each.
    router_vcs: Vec<Vec<u32>>,
    /// The router each input port belongs to.
    port_router: Vec<u32>,
    /// Per channel: its ring's dimension and whether it is the wrap-around channel (dateline).
    rings: Vec<crate::vc::Ring>,
    /// Per channel: its latency (flits and credits alike).
    latency: Vec<u32>,
    /// Per input port: flits per cycle (its channel's width; the terminals' links' for an
    /// injection channel). Port c's width is also output channel c's.
    width: Vec<u32>,
    /// VCs per class (all, or half of them when replies take the upper half).
    vcs_in: u32,
    ivcs: Vec<InputVc>,
    ovcs: Vec<OutputVc>,
    sources: Vec<Source>,
    sinks: Vec<Sink>,
    /// Per router, the rotating priority's counter.
    rr: Vec<u32>,
    packets: Vec<Packet>,
    messages: Vec<Message>,
    /// Flits on the wires, (arrival, input VC, packet), and credits, (arrival, output VC).
    wires: VecDeque<(u64, u32, usize)>,
    credits: VecDeque<(u64, u32)>,
    /// The flits each input port may still move this cycle (its width times the input
    /// speedup at the start of a cycle), the grants each output channel took this cycle, and
    /// which ejection ports moved a flit this cycle.
    port_left: Vec<u32>,
    port_room: Vec<u32>,
    channel_grants: Vec<u32>,
    sink_used: Vec<bool>,
    /// The separable allocators' round-robin pointers.
    pointers: switch_alloc::Pointers,
    /// With output buffers: each router's outgoing channels, and each channel's link
    /// arbiter's pointer.
    outgoing: Vec<Vec<u32>>,
    link_next: Vec<u32>,
    /// Each port's rotating VC pointer (channels, then injection channels).
    vc_next: Vec<u32>,
    last_move: u64,
    busy: Vec<u64>,
    flit_hops: u64,
    occupancy: Vec<u64>,
    service: Vec<ClassService>,
    pstats: PacketStats,
    collector: Collector,
    births: Births,
    legs: Legs,
}

/// Runs the virtual-channel router network flit by flit (see the module docs); same contract
/// as [`crate::vc::run`].
pub fn run<R: Routing>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    p: &VcParams,
) -> Outcome {
    let mut s = Sim::new(net, routing, spec, *p);
    let quiet = 2
        * (p.router_delay as u64
            + p.header_extra() as u64
            + p.injection_latency as u64
            + 2 * crate::longest_latency(p, spec) as u64)
        + 100;
    let mut born = Vec::new();
    let mut now = 0;
    let mut reason = None;
    // Whether the stop rule is checked at the end of this cycle (see `vc`'s rules, Stopping).
    let mut checked = true;
    while now < spec.max_cycles {
        // The flits held at the end of the previous cycle, if it was in the window.
        if now > s.warmup {
            s.count_occupancy();
        }
        s.arrive(now);
        s.births.create(now, pattern, net, &mut s.collector, &mut born);
        for &(src, msg) in &born {
            s.create(src, msg, now);
        }
        for t in 0..net.terminals() {
            s.inject(t, now);
        }
        s.port_left.clone_from(&s.port_room);
        s.channel_grants.fill(0);
        s.sink_used.fill(false);
        for rt in 0..net.routers() {
            s.route(rt, now);
        }
        s.collector.tick(now);
        if checked {
            reason = s.collector.stop(now);
            if reason.is_none() && s.flits_in_network() > 0 && now - s.last_move >= quiet {
                reason = Some(StopReason::Deadlock);
            }
            if reason.is_some() {
                break;
            }
        }
        checked = s.holds_anything() || s.next_event() == Some(now + 1);
        now += 1;
    }
    s.finish(now, reason)
}

impl<'a, R: Routing> Sim<'a, R> {
    fn new(net: &'a Network, routing: &'a R, spec: &RunSpec, p: VcParams) -> Self {
        let nc = net.channels().len() as u32;
        let terminals = net.terminals();
        let v = p.vcs;
        let port_router: Vec<u32> = net
            .channels()
            .iter()
            .map(|c| c.dst)
            .chain((0..terminals).map(|t| net.inject_router(t)))
            .collect();
        let mut router_vcs = vec![Vec::new(); net.routers() as usize];
        for (port, &rt) in port_router.iter().enumerate() {
            router_vcs[rt as usize].extend((0..v).map(|k| port as u32 * v + k));
        }
        let split = spec.memories.is_some_and(|m| !m.joined && m.reply_size > 0);
        let service = ClassService::per_class(net);
        let nvc = (nc + terminals) as usize * v as usize;
        Sim {
            net,
            routing,
            p,
            warmup: spec.warmup,
            nc,
            router_vcs,
            port_router,
            rings: if p.deadlock == Avoidance::Dateline { crate::vc::rings(net) } else { Vec::new() },
            latency: crate::channel_latencies(net, &p, spec),
            width: net
                .channels()
                .iter()
                .map(|c| c.width as u32)
                .chain((0..terminals).map(|_| net.terminal_width()))
                .collect(),
            vcs_in: if split { v / 2 } else { v },
            ivcs: (0..nvc).map(|_| InputVc::default()).collect(),
            ovcs: (0..nc * v)
                .map(|_| OutputVc {
                    credits: if p.output_buffer > 0 { p.output_buffer } else { p.buffer },
                    link: if p.output_buffer > 0 { p.buffer } else { 0 },
                    queue: VecDeque::new(),
                    holder: None,
                    taken: None,
                })
                .collect(),
            sources: (0..terminals)
                .map(|_| Source { held: vec![false; v as usize], ..Source::default() })
                .collect(),
            sinks: (0..terminals * if p.ejection == Ejection::EveryVc { p.vcs } else { 1 })
                .map(|_| Sink::default())
                .collect(),
            rr: vec![0; net.routers() as usize],
            packets: Vec::new(),
            messages: Vec::new(),
            wires: VecDeque::new(),
            credits: VecDeque::new(),
            port_left: vec![0; (nc + terminals) as usize],
            port_room: net
                .channels()
                .iter()
                .map(|c| c.width as u32 * p.input_speedup)
                .chain((0..terminals).map(|_| net.terminal_width() * p.input_speedup))
                .collect(),
            channel_grants: vec![0; nc as usize],
            outgoing: {
                let mut out = vec![Vec::new(); net.routers() as usize];
                for (c, (src, _)) in net.edges().enumerate() {
                    out[src as usize].push(c as u32);
                }
                out
            },
            link_next: vec![0; nc as usize],
            sink_used: vec![false; terminals as usize],
            vc_next: vec![0; net.channels().len() + terminals as usize],
            pointers: switch_alloc::Pointers::new(
                net.channels().len() as u32 + terminals,
                net.channels().len() as u32 + terminals,
                p.vcs,
            ),
            last_move: 0,
            busy: vec![0; nc as usize],
            flit_hops: 0,
            occupancy: vec![0; (nc * v) as usize],
            service,
            pstats: PacketStats::default(),
            collector: Collector::new(spec, net),
            births: Births::new(spec, net),
            legs: Legs::new(spec.paths, net, spec.groups),
        }
    }

    /// The channels' input VCs hold their flits one more cycle of the window.
    fn count_occupancy(&mut self) {
        for (occ, q) in self.occupancy.iter_mut().zip(&self.ivcs) {
            *occ += q.flits.len() as u64;
        }
    }

    /// Flits and credits sent a channel's latency ago arrive (in the order they were sent).
    fn arrive(&mut self, now: u64) {
        let (landing, flying): (VecDeque<_>, VecDeque<_>) = self.wires.drain(..).partition(|w| w.0 == now);
        self.wires = flying;
        for (_, ivc, packet) in landing {
            self.push_flit(ivc, packet, now, 0);
        }
        let (landing, flying): (VecDeque<_>, VecDeque<_>) = self.credits.drain(..).partition(|c| c.0 == now);
        self.credits = flying;
        for (_, o) in landing {
            let ov = &mut self.ovcs[o as usize];
            if self.p.output_buffer > 0 {
                ov.link += 1;
            } else {
                ov.credits += 1;
            }
        }
    }

    /// A flit enters input VC `ivc` at `now`, ready after `delay` (an injection channel's
    /// latency, else 0) and the router delay r.
    fn push_flit(&mut self, ivc: u32, packet: usize, now: u64, delay: u64) {
        let q = &mut self.ivcs[ivc as usize];
        if q.flits.is_empty() {
            q.front_since = now;
        }
        q.flits.push_back(Flit { packet, ready: now + delay + self.p.router_delay as u64 });
    }

    /// Whether input VC `ivc`'s front flit may ask at `now`: it is ready, and a header has
    /// also routed (its routing stage, from when it was ready at the front) or, granted an
    /// output, waited out its VC allocation stage.
    fn asks(&self, ivc: u32, now: u64) -> bool {
        let q = &self.ivcs[ivc as usize];
        let Some(front) = q.flits.front() else { return false };
        if front.ready > now {
            return false;
        }
        if q.sent > 0 {
            return true;
        }
        match q.output {
            None => front.ready.max(q.front_since) + self.routing_stage() <= now,
            Some(_) => q.switch_from <= now,
        }
    }

    /// Whether the packet, taking channel `c`, goes on to take the wrap-around channel of `c`'s
    /// ring: its route followed hop by hop while it stays in that dimension.
    fn takes_wrap(&self, c: ChannelId, packet: usize) -> bool {
        let pk = &self.packets[packet];
        let dim = self.rings[c as usize].dim();
        let mut hop = c;
        let mut cands = Candidates::default();
        loop {
            if self.rings[hop as usize].wraps() {
                return true;
            }
            self.routing.route(self.net.channel(hop).dst, pk.dst, pk.salt, &mut cands);
            match cands.as_slice().first() {
                Some(&next) if self.rings[next as usize].dim() == dim => hop = next,
                _ => return false,
            }
        }
    }

    /// Packets a terminal's ejection port takes at once.
    fn eject_slots(&self) -> u32 {
        if self.p.ejection == Ejection::EveryVc { self.p.vcs } else { 1 }
    }

    /// A header's routing stage in cycles.
    fn routing_stage(&self) -> u64 {
        self.p.stages.map_or(0, |s| s.routing as u64)
    }

    /// A new message joins its source's queue as packets of at most P flits.
    fn create(&mut self, src: TerminalId, msg: Msg, now: u64) {
        let n = msg.size.div_ceil(self.p.packet);
        let reply = self.vcs_in < self.p.vcs && msg.is_reply();
        let message = self.messages.len();
        self.messages.push(Message {
            msg,
            packets_left: n,
            started: false,
            base: if reply { self.vcs_in } else { 0 },
        });
        for i in 0..n {
            let len = if i + 1 < n { self.p.packet } else { msg.size - (n - 1) * self.p.packet };
            self.sources[src as usize].queue.push_back(self.packets.len());
            self.packets.push(Packet {
                message,
                src,
                dst: msg.dst,
                salt: msg.salt,
                len,
                created: now,
                left: now,
                hops: 0,
                leg: netwrap_topo::paths::UNDECIDED,
                switch_hop: u32::MAX,
            });
        }
    }

    /// Terminal `t` writes one flit of its front packet into its injection channel, taking an
    /// injection VC first if it has none: the lowest of its class, not held by a packet still
    /// being written, whose buffer has room for the packet (`vct`, `saf`) or a flit.
    fn inject(&mut self, t: TerminalId, now: u64) {
        let (v, f) = (self.p.vcs, self.p.buffer);
        let port = self.nc + t;
        let Some(&packet) = self.sources[t as usize].queue.front() else { return };
        let pk = &self.packets[packet];
        if self.sources[t as usize].vc.is_none() {
            let need = if self.p.switching == Switching::Wormhole { 1 } else { pk.len };
            let base = self.messages[pk.message].base;
            let created = pk.created;
            let rotate = self.p.vc_choice == VcChoice::Rotating;
            let start = if rotate { self.vc_next[port as usize] } else { 0 };
            for k in rotated(base..base + self.vcs_in, start) {
                let room = f - self.ivcs[(port * v + k) as usize].flits.len() as u32;
                let src = &mut self.sources[t as usize];
                if !src.held[k as usize] && room >= need {
                    src.held[k as usize] = true;
                    if rotate {
                        self.vc_next[port as usize] = (k + 1) % v;
                    }
                    src.vc = Some(k);
                    if now >= self.warmup {
                        src.taken = Some((now, now - created));
                    }
                    break;
                }
            }
        }
        let Some(k) = self.sources[t as usize].vc else { return };
        let ivc = port * v + k;
        // Up to the link's width in flits of the packet, while the VC has room.
        for _ in 0..self.net.terminal_width() {
            if self.ivcs[ivc as usize].flits.len() as u32 == f {
                return;
            }
            self.push_flit(ivc, packet, now, self.p.injection_latency as u64);
            self.last_move = now;
            let len = self.packets[packet].len;
            let src = &mut self.sources[t as usize];
            src.written += 1;
            if src.written == len {
                src.written = 0;
                src.queue.pop_front();
                src.held[k as usize] = false;
                src.vc = None;
                let taken = src.taken.take();
                serve(&mut self.service[self.net.classes().len()], taken, now);
                return;
            }
        }
    }

    /// One router's cycle: its input VCs whose front flit is ready request, in its arbitration
    /// order; every request first tries VC allocation, then every request switch allocation
    /// and traversal.
    fn route(&mut self, rt: u32, now: u64) {
        let vcs = &self.router_vcs[rt as usize];
        let queued = |s: &Self| {
            s.outgoing[rt as usize]
                .iter()
                .any(|&c| (c * s.p.vcs..(c + 1) * s.p.vcs).any(|o| !s.ovcs[o as usize].queue.is_empty()))
        };
        if vcs.iter().all(|&ivc| self.ivcs[ivc as usize].flits.is_empty()) && !queued(self) {
            return;
        }
        // The rotating priority advances in every cycle in which the router holds a flit.
        let n = vcs.len();
        let rot = self.rr[rt as usize] as usize % n;
        self.rr[rt as usize] = self.rr[rt as usize].wrapping_add(1);
        let mut requests: Vec<u32> =
            (rot..n).chain(0..rot).map(|i| vcs[i]).filter(|&ivc| self.asks(ivc, now)).collect();
        if self.p.arbitration == Arbitration::OldestFirst {
            requests.sort_by_key(|&ivc| {
                let pk = &self.packets[self.ivcs[ivc as usize].flits[0].packet];
                (pk.created, pk.salt, ivc)
            });
        }
        for &ivc in &requests {
            if self.ivcs[ivc as usize].output.is_none() {
                self.allocate(rt, ivc, now);
            }
        }
        if self.p.allocator != Allocator::Greedy {
            self.separable(&requests, now);
        } else {
            for &ivc in &requests {
                self.traverse(ivc, now);
            }
        }
        if self.p.output_buffer > 0 {
            for i in 0..self.outgoing[rt as usize].len() {
                self.link(self.outgoing[rt as usize][i], now);
            }
        }
    }

    /// The link stage of channel `c` (with output buffers): of its output buffers whose
    /// front flit has the credits it needs (a header the room its VC allocation asked for,
    /// any other flit one), one whose front flit continues a packet if any does, the first
    /// from the channel's pointer; it sends up to the channel's width in flits of that packet,
    /// each credited. The pointer stays on the VC chosen, or moves past it after a tail.
    fn link(&mut self, c: u32, now: u64) {
        let v = self.p.vcs;
        let start = self.link_next[c as usize];
        let can_go = |o: u32| {
            let ov = &self.ovcs[o as usize];
            ov.queue.front().filter(|f| ov.link > 0 && ov.link >= f.1).map(|f| f.1 == 0)
        };
        let order: Vec<u32> = (start..v).chain(0..start).collect();
        let pick = order
            .iter()
            .copied()
            .find(|&k| can_go(c * v + k) == Some(true))
            .or_else(|| order.iter().copied().find(|&k| can_go(c * v + k).is_some()));
        let Some(k) = pick else { return };
        let o = c * v + k;
        let mut tail = false;
        for i in 0..self.width[c as usize] {
            let ov = &mut self.ovcs[o as usize];
            let Some(&(packet, need, is_tail)) = ov.queue.front() else { break };
            if i > 0 && (need > 0 || ov.link == 0) {
                break;
            }
            ov.queue.pop_front();
            ov.credits += 1;
            ov.link -= 1;
            self.last_move = now;
            self.send(o, packet, need > 0, i == 0, now);
            tail = is_tail;
            if tail {
                break;
            }
        }
        self.link_next[c as usize] = if tail { (k + 1) % v } else { k };
    }

    /// A flit of `packet` leaves on output VC `o`'s channel at `now` (`header`: its packet's
    /// first; `first`: the first of its grant, which counts the channel's cycle).
    fn send(&mut self, o: u32, packet: usize, header: bool, first: bool, now: u64) {
        let c = o / self.p.vcs;
        if header {
            self.packets[packet].hops += 1;
        }
        if first {
            if now >= self.warmup {
                self.busy[c as usize] += 1;
            }
            self.flit_hops += 1;
        }
        self.wires.push_back((now + self.latency[c as usize] as u64, o, packet));
    }

    /// A separable allocator's round: of `requests`, those holding an output, past their VC
    /// allocation stage and with a credit (or ejecting) ask; the grants move, in order.
    fn separable(&mut self, requests: &[u32], now: u64) {
        let v = self.p.vcs;
        let mut asks = Vec::new();
        for &ivc in requests {
            let q = &self.ivcs[ivc as usize];
            let output = match q.output {
                None => continue,
                Some(_) if q.switch_from > now => continue,
                Some(Output::Eject(slot)) => self.nc + slot / self.eject_slots(),
                Some(Output::Vc(o))
                    if self.ovcs[o as usize].credits == 0 || self.waits_for_tail(ivc, now) =>
                {
                    continue;
                }
                Some(Output::Vc(o)) => o / v,
            };
            let pk = &self.packets[q.flits[0].packet];
            let age = if self.p.arbitration == Arbitration::OldestFirst {
                (pk.created, ((pk.salt as u64) << 32) | ivc as u64)
            } else {
                (0, 0)
            };
            asks.push(Request { vc: ivc % v, input: ivc / v, output, age });
        }
        let mut granted = Vec::new();
        let oldest = self.p.arbitration == Arbitration::OldestFirst;
        switch_alloc::allocate(self.p.allocator, &asks, oldest, &mut self.pointers, &mut granted);
        for (r, _) in asks.iter().zip(&granted).filter(|(_, g)| **g) {
            self.traverse(r.input * v + r.vc, now);
        }
    }

    /// VC allocation for the header at the front of input VC `ivc` of router `rt`.
    fn allocate(&mut self, rt: u32, ivc: u32, now: u64) {
        let v = self.p.vcs;
        let q = &self.ivcs[ivc as usize];
        let header = q.flits[0];
        let packet = header.packet;
        let pk = &self.packets[packet];
        if self.p.switching == Switching::Saf {
            // Store-and-forward: only with the whole packet here and ready.
            if (q.flits.len() as u32) < pk.len || q.flits[pk.len as usize - 1].ready > now {
                return;
            }
        }
        // Its wait counts from when it was both at the front and ready.
        let waited = now - (header.ready.max(q.front_since) + self.routing_stage());
        let escape = self.p.deadlock == Avoidance::Escape;
        let mut cands = Candidates::default();
        // Non-minimal paths: decided at the source by the channels' credits (PAR again at the
        // first hop); the packet heads for its intermediate until it gets there.
        let mut leg = pk.leg;
        // (A channel's queue: its VCs' flits downstream and owed, and in its output buffers.)
        let (ovcs, depth) = (&self.ovcs, self.p.buffer + self.p.output_buffer);
        let queue = |c: u32| {
            (c * v..(c + 1) * v)
                .map(|o| (depth - ovcs[o as usize].credits - ovcs[o as usize].link) as u64)
                .sum::<u64>()
        };
        let dal = self.legs.paths().choice == PathChoice::Dal;
        if dal {
            // DAL: every minimal hop, then the deroutes the packet may still take.
            self.legs.dal_candidates(self.net, self.routing, rt, pk.dst, pk.salt, pk.leg, &mut cands);
        }
        let (target, switched) = if dal {
            (pk.dst, false)
        } else {
            self.legs.next_target(
                self.net,
                self.routing,
                rt,
                pk.dst,
                pk.salt,
                pk.hops,
                &mut leg,
                queue,
                &mut cands,
            )
        };
        let pk = &mut self.packets[packet];
        pk.leg = leg;
        if switched {
            pk.switch_hop = pk.hops;
        }
        let pk = &self.packets[packet];
        if escape {
            self.routing.minimal(rt, target, pk.salt, &mut cands);
        } else if !dal {
            self.routing.route(rt, target, pk.salt, &mut cands);
        }
        let taken = (now >= self.warmup).then_some((now, waited));
        if cands.is_empty() {
            // At its destination: the lowest free slot of the terminal's ejection port.
            let slots = self.eject_slots();
            let first = pk.dst * slots;
            if let Some(k) = (0..slots).find(|&k| self.sinks[(first + k) as usize].owner.is_none()) {
                let sink = &mut self.sinks[(first + k) as usize];
                sink.owner = Some(packet);
                sink.taken = taken;
                self.grant(ivc, Output::Eject(first + k), now);
            }
            return;
        }
        let port = ivc / v;
        let whole = self.p.switching != Switching::Wormhole;
        let mut need = if whole { pk.len } else { 1 };
        // Bubble: a packet entering a ring (its input port's class differs from the class of
        // the routing's first candidate) needs room for two.
        if self.p.deadlock == Avoidance::Bubble
            && self.class_of_port(port) != Some(self.class(cands.as_slice()[0]))
        {
            need *= 2;
        }
        let free = |c: ChannelId| self.free_vc(ivc, packet, c, need);
        let (minimal, deroutes) = split_deroutes(cands.as_slice());
        let mut out = None;
        let mut derouted = None;
        if !deroutes.is_empty() {
            // DAL: the least-queued deroute with a free VC, if UGAL's test prefers it to the
            // least-queued minimal hop; the packet has then derouted in its dimension.
            let q_min = minimal.iter().map(|&c| queue(c)).min().unwrap_or(0);
            let d =
                choose(
                    deroutes,
                    pk.salt,
                    pk.hops,
                    0,
                    |c| if free(c).is_some() { queue(c) } else { u64::MAX },
                );
            out = free(d).filter(|_| self.legs.dal_prefers_deroute(q_min, minimal.len(), queue(d)));
            derouted = out.map(|_| Legs::dal_derouted(self.net, leg, d));
        }
        if out.is_none() {
            let c = choose(minimal, pk.salt, pk.hops, now, |c| if free(c).is_some() { now } else { now + 1 });
            out = free(c);
        }
        if out.is_none() && escape {
            // No adaptive VC: the escape VC (the class's first) of the dimension-order hop,
            // with room for two packets where it enters the escape ring (Puente et al. 2000's
            // adaptive router on Duato 1993's escape channels).
            let base = self.messages[pk.message].base;
            let e = self.routing.escape(rt, pk.dst, pk.salt).expect("not at the destination");
            let entering = ivc % v != base || self.class_of_port(port) != Some(self.class(e));
            let need = if self.routing.rings() && entering { 2 * pk.len } else { pk.len };
            let o = e * v + base;
            let ov = &self.ovcs[o as usize];
            if ov.holder.is_none() && ov.credits >= need {
                out = Some(o);
            }
        }
        if let Some(leg) = derouted {
            self.packets[packet].leg = leg;
        }
        if let Some(o) = out {
            if self.p.vc_choice == VcChoice::Rotating {
                self.vc_next[(o / v) as usize] = (o % v + 1) % v;
            }
            let ov = &mut self.ovcs[o as usize];
            ov.holder = Some(ivc);
            ov.taken = taken;
            self.grant(ivc, Output::Vc(o), now);
        }
    }

    /// Input VC `ivc`'s header takes `output` at `now`; it asks for the switch after its VC
    /// allocation stage (less what speculation overlaps).
    fn grant(&mut self, ivc: u32, output: Output, now: u64) {
        let gap = self.p.stages.map_or(0, |s| s.vc_gap() as u64);
        let q = &mut self.ivcs[ivc as usize];
        q.output = Some(output);
        q.switch_from = now + gap;
    }

    /// The lowest output VC of channel `c` that the packet may take, that no packet holds and
    /// whose credits show room for `need` flits.
    fn free_vc(&self, ivc: u32, packet: usize, c: ChannelId, need: u32) -> Option<u32> {
        let v = self.p.vcs;
        let base = self.messages[self.packets[packet].message].base;
        let top = base + self.vcs_in;
        let range = match self.p.deadlock {
            Avoidance::Phases | Avoidance::DestGroup => self.route_class(ivc, packet),
            // The adaptive VCs; the first of the class is the escape VC.
            Avoidance::Escape => base + 1..top,
            Avoidance::Dateline => {
                // Dally & Seitz 1987: the upper half from the ring's wrap-around channel on, until
                // the packet leaves the ring.
                let half = self.vcs_in / 2;
                let port = ivc / v;
                let (dim, wrap) = (self.rings[c as usize].dim(), self.rings[c as usize].wraps());
                let same_ring = port < self.nc && self.rings[port as usize].dim() == dim;
                let came_upper = same_ring && ivc % v >= base + half;
                let upper = if self.p.dateline_class == DatelineClass::ByRoute {
                    // BookSim2's rule: chosen on entering the ring, for the whole ring.
                    if same_ring { came_upper } else { self.takes_wrap(c, packet) }
                } else {
                    wrap || came_upper
                };
                if upper { base + half..top } else { base..base + half }
            }
            _ => base..top,
        };
        let start = if self.p.vc_choice == VcChoice::Rotating { self.vc_next[c as usize] } else { 0 };
        rotated(range, start).map(|k| c * v + k).find(|&o| {
            let ov = &self.ovcs[o as usize];
            ov.holder.is_none() && ov.credits >= need
        })
    }

    /// The VCs of the packet's route class at the router of input VC `ivc` (`phases`: one
    /// above its arriving VC's class after a global channel or where its leg switched;
    /// `dest-group`: 1 at a router of its destination's group), the classes splitting the VCs
    /// of its message class evenly.
    fn route_class(&self, ivc: u32, packet: usize) -> std::ops::Range<u32> {
        let v = self.p.vcs;
        let pk = &self.packets[packet];
        let base = self.messages[pk.message].base;
        let classes = if self.p.deadlock == Avoidance::Phases { self.legs.phase_classes() } else { 2 };
        let per = (self.vcs_in / classes).max(1);
        let (port, at) = (ivc / v, self.port_router[(ivc / v) as usize]);
        let k = if self.p.deadlock == Avoidance::DestGroup {
            self.legs.dest_group_class(at, pk.dst)
        } else {
            let arrived = (port < self.nc).then(|| (port, (ivc % v).saturating_sub(base) / per));
            self.legs.phase_class(self.net, arrived, pk.switch_hop == pk.hops)
        };
        let lo = base + k.min(classes - 1) * per;
        lo..lo + per
    }

    fn class(&self, c: ChannelId) -> u32 {
        self.net.channels()[c as usize].class as u32
    }

    /// The class of the channel an input port belongs to (`None`: an injection channel).
    fn class_of_port(&self, port: u32) -> Option<u32> {
        (port < self.nc).then(|| self.class(port))
    }

    /// Switch allocation and traversal for input VC `ivc`: it sends its front flit if it holds
    /// an output, its input port and that output have moved no flit this cycle, and a VC
    /// output shows a credit.
    fn traverse(&mut self, ivc: u32, now: u64) {
        let v = self.p.vcs;
        let port = ivc / v;
        let Some(output) = self.ivcs[ivc as usize].output else { return };
        if self.port_left[port as usize] == 0 || self.ivcs[ivc as usize].switch_from > now {
            return;
        }
        match output {
            Output::Eject(slot) => {
                let t = slot / self.eject_slots();
                if self.sink_used[t as usize] {
                    return;
                }
                self.sink_used[t as usize] = true;
            }
            Output::Vc(o) => {
                let c = (o / v) as usize;
                if self.channel_grants[c] == self.p.output_speedup
                    || self.ovcs[o as usize].credits == 0
                    || self.waits_for_tail(ivc, now)
                {
                    return;
                }
                self.channel_grants[c] += 1;
            }
        }
        // The grant moves up to the output's width in flits of the front packet, each one ready
        // and, on a channel, credited; the input port grants again this cycle only while it
        // has moved less than its own width.
        let width = match output {
            Output::Eject(_) => self.net.terminal_width(),
            Output::Vc(o) => self.width[(o / v) as usize],
        };
        for i in 0..width {
            let q = &self.ivcs[ivc as usize];
            let Some(front) = q.flits.front() else { return };
            if i > 0 {
                let credited = match output {
                    Output::Eject(_) => true,
                    Output::Vc(o) => self.ovcs[o as usize].credits > 0,
                };
                if q.output != Some(output) || front.ready > now || !credited {
                    return;
                }
            }
            self.move_flit(ivc, output, i == 0, now);
            let left = &mut self.port_left[port as usize];
            *left = left.saturating_sub(1);
        }
    }

    /// Whether the header at the front of input VC `ivc`, holding a channel wider than its
    /// input port, must still wait for its packet's tail to be in the buffer and ready.
    fn waits_for_tail(&self, ivc: u32, now: u64) -> bool {
        let v = self.p.vcs;
        let q = &self.ivcs[ivc as usize];
        let Some(Output::Vc(o)) = q.output else { return false };
        if q.sent > 0 || self.width[(o / v) as usize] <= self.width[(ivc / v) as usize] {
            return false;
        }
        let len = self.packets[q.flits[0].packet].len as usize;
        q.flits.len() < len || q.flits[len - 1].ready > now
    }

    /// One flit of input VC `ivc` crosses the switch to `output` at `now` (`first`: the first
    /// of its grant, which counts the channel's cycle).
    fn move_flit(&mut self, ivc: u32, output: Output, first: bool, now: u64) {
        let v = self.p.vcs;
        let port = ivc / v;
        self.last_move = now;
        let q = &mut self.ivcs[ivc as usize];
        let flit = q.flits.pop_front().expect("a requesting VC holds a flit");
        q.front_since = now + 1;
        let is_header = q.sent == 0;
        q.sent += 1;
        let pk = &mut self.packets[flit.packet];
        let is_tail = q.sent == pk.len;
        if is_tail {
            q.sent = 0;
            q.output = None;
        }
        if port < self.nc {
            // The freed slot's credit goes back to the sender.
            self.credits.push_back((now + self.latency[port as usize] as u64, ivc));
        } else if is_header {
            // A header leaves its source router; the message's first ends its source queueing.
            pk.left = now;
            let m = &mut self.messages[pk.message];
            if !m.started {
                m.started = true;
                m.msg.first_start = now;
            }
        }
        match output {
            Output::Eject(slot) => {
                if is_tail {
                    self.eject_tail(slot, flit.packet, now);
                }
            }
            Output::Vc(o) => {
                let class = self.class(o / v) as usize;
                let need = if is_header { self.link_need(ivc, o, flit.packet) } else { 0 };
                let ov = &mut self.ovcs[o as usize];
                ov.credits -= 1;
                if is_tail {
                    ov.holder = None;
                    let taken = ov.taken.take();
                    serve(&mut self.service[class], taken, now);
                }
                if self.p.output_buffer > 0 {
                    ov.queue.push_back((flit.packet, need, is_tail));
                } else {
                    self.send(o, flit.packet, is_header, first, now);
                }
            }
        }
    }

    /// With output buffers, the credits a header crossing from input VC `ivc` to output VC `o`
    /// needs on the link: the room its VC allocation asked for there (a packet, or a flit with
    /// wormhole; two where Bubble flow control or an escape ring is entered).
    fn link_need(&self, ivc: u32, o: u32, packet: usize) -> u32 {
        let v = self.p.vcs;
        let pk = &self.packets[packet];
        let whole = if self.p.switching == Switching::Wormhole { 1 } else { pk.len };
        let entering = self.class_of_port(ivc / v) != Some(self.class(o / v));
        let base = self.messages[pk.message].base;
        let escape_entry = self.p.deadlock == Avoidance::Escape
            && self.routing.rings()
            && o % v == base
            && (ivc % v != base || entering);
        if (self.p.deadlock == Avoidance::Bubble && entering) || escape_entry { 2 * whole } else { whole }
    }

    /// A packet's tail is ejected at `now`: it is delivered at `now + 1` plus the ejection
    /// channel's latency, and its message with its last packet.
    fn eject_tail(&mut self, slot: u32, packet: usize, now: u64) {
        let sink = &mut self.sinks[slot as usize];
        sink.owner = None;
        let taken = sink.taken.take();
        serve(&mut self.service[self.net.classes().len() + 1], taken, now);
        let pk = &self.packets[packet];
        // The tail reaches the terminal over its ejection channel.
        let arrives = now + 1 + self.p.ejection_latency as u64;
        let m = &mut self.messages[pk.message];
        if m.msg.seq != UNMEASURED {
            self.pstats.delivered += 1;
            self.pstats.nonminimal += u64::from(netwrap_topo::paths::went_nonminimal(pk.leg));
            self.pstats.latency_sum += arrives - pk.created;
            self.pstats.network_sum += arrives - pk.left;
        }
        m.packets_left -= 1;
        if m.packets_left == 0 {
            // The message's hops are those of its last packet.
            m.msg.hops = pk.hops;
            m.msg.leg = pk.leg;
            self.births.deliver(&m.msg, arrives, &mut self.collector);
        }
    }

    /// Flits buffered (input and output buffers) or on a wire.
    fn flits_in_network(&self) -> u64 {
        self.ivcs.iter().map(|q| q.flits.len() as u64).sum::<u64>()
            + self.ovcs.iter().map(|o| o.queue.len() as u64).sum::<u64>()
            + self.wires.len() as u64
    }

    /// Whether a router holds a flit or a source a packet at the end of the cycle.
    fn holds_anything(&self) -> bool {
        self.ivcs.iter().any(|q| !q.flits.is_empty())
            || self.ovcs.iter().any(|o| !o.queue.is_empty())
            || self.sources.iter().any(|s| !s.queue.is_empty())
    }

    /// The next cycle at which a flit or a credit arrives, or the workload or the collector has
    /// something due.
    fn next_event(&self) -> Option<u64> {
        [
            self.wires.iter().map(|w| w.0).min(),
            self.credits.iter().map(|c| c.0).min(),
            self.births.next_after_now(),
            self.collector.next_delivery(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The input VC that `ivc`'s front packet waits for, in a deadlock: the downstream VC it
    /// holds; or, without one, VC 0 of its deterministic channel (escape routing: its escape
    /// channel; otherwise the routing's first candidate) — or the input VC whose packet holds
    /// that VC.
    fn waits_for(&self, ivc: u32) -> Option<u32> {
        let q = &self.ivcs[ivc as usize];
        let front = q.flits.front()?;
        match q.output {
            Some(Output::Vc(o)) => Some(o),
            Some(Output::Eject(_)) => None,
            None => {
                let pk = &self.packets[front.packet];
                let at = self.port_router[(ivc / self.p.vcs) as usize];
                let c = if self.p.deadlock == Avoidance::Escape {
                    self.routing.escape(at, pk.dst, pk.salt)
                } else {
                    let mut cands = Candidates::default();
                    self.routing.route(at, self.legs.peek(at, pk.dst, pk.leg), pk.salt, &mut cands);
                    cands.as_slice().first().copied()
                }?;
                let first = match self.p.deadlock {
                    Avoidance::Phases | Avoidance::DestGroup => self.route_class(ivc, front.packet).start,
                    _ => 0,
                };
                let o = c * self.p.vcs + first;
                Some(self.ovcs[o as usize].holder.unwrap_or(o))
            }
        }
    }

    /// A cycle of waits: following [`Self::waits_for`] from each input VC holding flits in
    /// number order, the first walk that comes back onto itself.
    fn deadlock(&self, now: u64) -> Deadlock {
        let mut seen: Vec<Option<u32>> = vec![None; self.ivcs.len()];
        let mut cycle = Vec::new();
        for start in 0..self.ivcs.len() as u32 {
            if self.ivcs[start as usize].flits.is_empty() || seen[start as usize].is_some() {
                continue;
            }
            let mut path = Vec::new();
            let mut at = Some(start);
            while let Some(x) = at {
                if seen[x as usize].is_some() {
                    break;
                }
                seen[x as usize] = Some(start);
                path.push(x);
                at = self.waits_for(x);
            }
            if let Some(x) = at
                && seen[x as usize] == Some(start)
            {
                let from = path.iter().position(|&y| y == x).unwrap_or(0);
                cycle = path[from..].to_vec();
                break;
            }
        }
        let v = self.p.vcs;
        let cycle = cycle
            .into_iter()
            .map(|ivc| {
                let port = ivc / v;
                let pk = &self.packets[self.ivcs[ivc as usize].flits[0].packet];
                let channel = (port < self.nc).then_some(port);
                DeadlockWait {
                    router: self.port_router[port as usize],
                    channel,
                    class: channel.map(|c| self.net.classes()[self.class(c) as usize].clone()),
                    terminal: port.checked_sub(self.nc),
                    vc: ivc % v,
                    destination: pk.dst,
                    source: pk.src,
                }
            })
            .collect();
        Deadlock {
            detected_at: now,
            quiet_cycles: now - self.last_move,
            flits_in_network: self.flits_in_network(),
            cycle,
        }
    }

    /// The outcome of a run that stopped at the end of cycle `now` (or ran out of cycles).
    fn finish(mut self, now: u64, reason: Option<StopReason>) -> Outcome {
        let deadlock = (reason == Some(StopReason::Deadlock)).then(|| self.deadlock(now));
        self.collector.transmitted(self.flit_hops);
        let busy = std::mem::take(&mut self.busy);
        let mut outcome = self.collector.finish(self.net, now, reason, busy.into_iter());
        // Occupancy counts the flits held at the end of every cycle of [warm-up, end): the
        // loop counted the cycles before the last simulated one; the rest hold what is left.
        let last = if reason.is_some() { now } else { now - 1 };
        let rest = outcome.end.max(self.warmup).saturating_sub(last.max(self.warmup));
        for (occ, q) in self.occupancy.iter_mut().zip(&self.ivcs) {
            *occ += q.flits.len() as u64 * rest;
        }
        outcome.deadlock = deadlock;
        outcome.packets = Some(self.pstats);
        outcome.vc_occupancy = Some(self.occupancy);
        outcome.channel_service = Some(self.service);
        self.births.close(&mut outcome);
        outcome
    }
}

/// A packet lets go at `now` of a channel it took (`taken`: when, and its header's wait; `None`
/// before the measurement window): count it in its class.
fn serve(class: &mut ClassService, taken: Option<(u64, u64)>, now: u64) {
    if let Some((at, wait)) = taken {
        class.packets += 1;
        class.hold_sum += now + 1 - at;
        class.wait_sum += wait;
    }
}
