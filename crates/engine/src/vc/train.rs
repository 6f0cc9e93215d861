//! The virtual-channel router packet by packet, where its packets move as trains: one VC per
//! port, virtual cut-through, no stages, one flit a cycle everywhere, with or without output
//! buffers ([`applies`]). [`super::run`] takes this path there; the flit-by-flit engine is its
//! reference, and tests require identical [`Outcome`]s.
//!
//! # Why a packet is a train there
//! With one VC per port a packet that takes an output VC holds the only VC of that output, so
//! no other flit competes for the output or for its input port while it streams; with virtual
//! cut-through its VC allocation saw room downstream for the whole packet (two where Bubble flow
//! control asks), and nothing else spends those credits. So a header that takes its VC
//! crosses the switch in the same cycle d, and flit i of the packet follows at d + i: it is in
//! the buffer by then (by induction from the source, which writes one flit a cycle once it has
//! room for the packet, flit i lands i cycles after the header) and ready (the header was
//! ready at d, so flit i at d + i). A packet's flits at a router are then known from its
//! header's landing a and leaving d alone: flit i lands at a + i and leaves at d + i, its
//! credit returns at d + i + l, and the router holds some flit of it in every cycle of
//! [a, d + len − 1]. With output buffers the same holds from the output buffer onto the link:
//! the header waits there for the downstream credits, and the body follows one cycle apart.
//! Only the headers are simulated: a header's landing, its wait for a VC (asking every cycle,
//! in the router's arbitration order, as the flit engine's header does; a header whose one
//! allowed output is held sleeps until the cycle it frees, when asking could first succeed),
//! its wait for the link, its leaving, and a packet's tail ejection (its delivery). What the
//! flit engine counts per flit — credits, the round-robin priority's cycles, buffer
//! occupancy, a channel's busy cycles, the stop rule's checked cycles — is counted from those
//! cycles.
//!
//! A run that the deadlock watch would stop is run again by the flit engine, which reports the
//! cycle of waits ([`run`] returns `None` there).

use crate::params::{Allocator, Arbitration, Avoidance, Switching, VcParams};
use crate::traffic::Pattern;
use crate::{
    Births, ClassService, Collector, Msg, Outcome, PacketStats, RunSpec, StopReason, UNMEASURED, choose,
};
use netwrap_topo::paths::{UNDECIDED, split_deroutes, went_nonminimal};
use netwrap_topo::{Candidates, ChannelId, Network, Routing, TerminalId};

/// A train that has not left (its header has no output yet).
const NEVER: u64 = u64::MAX;

/// A cached route: none yet; the header's terminal.
const NONE: u32 = u32::MAX;
const EJECT: u32 = u32::MAX - 1;

/// The hop table's entries that are not an output's place among its router's channels:
/// not yet routed, the terminal, several outputs (or one the salt picks).
const UNROUTED: u8 = u8::MAX;
const TABLE_EJECT: u8 = u8::MAX - 1;
const SEVERAL: u8 = u8::MAX - 2;

/// Ports from which the stages prefetch ports' state (1 MiB of it; below, the prefetches cost
/// more than they save: 5% on CAMINOS's 8x8 configuration, farm-bench -n 6).
const LARGE: usize = 1 << 13;

/// The largest hop table, in routers × terminals (64 KiB): a 16x16 torus's. (A 32x32 torus's
/// 1 MiB table made `bench vc-torus32x32-bi` 8% slower, farm-bench -n 5: it crowds the cache
/// more than routing costs.)
const HOP_TABLE: usize = 1 << 16;

/// Whether the run's packets move as trains (see the module docs): one VC, `vct`, no
/// stages, greedy allocation without speedup, channels and terminals' links one
/// flit wide, minimal paths, no replies on split VCs, and a deadlock avoidance that leaves
/// every VC alike (none, Bubble, up*/down*).
pub fn applies(net: &Network, p: &VcParams, spec: &RunSpec) -> bool {
    p.vcs == 1
        && p.switching == Switching::Vct
        && p.stages.is_none()
        && p.input_speedup == 1
        && p.output_speedup == 1
        && p.allocator == Allocator::Greedy
        && matches!(p.deadlock, Avoidance::None | Avoidance::Bubble | Avoidance::Updown)
        && net.terminal_width() == 1
        && net.channels().iter().all(|c| c.width == 1)
        && spec.paths.choice == netwrap_topo::PathChoice::Minimal
        && !spec.memories.is_some_and(|m| !m.joined && m.reply_size > 0)
}

/// What a packet's header carries from router to router (so that a hop reads no packet
/// record): where it goes, its salt, and the channels it has crossed.
#[derive(Clone, Copy, Default)]
struct Course {
    dst: TerminalId,
    salt: u32,
    hops: u32,
}

/// A packet in (or on its way to) an input port: its header lands at `land`, leaves at
/// `leave`; `wait` and `measured` are those of the grant that sent it there (the sender's VC
/// allocation, or its source's taking the injection VC), counted in the class service.
#[derive(Clone, Copy, Default)]
struct Train {
    pkt: u32,
    len: u32,
    course: Course,
    land: u64,
    leave: u64,
    wait: u64,
    measured: bool,
}

/// A queue (a port's trains, an output buffer's packets, a source's packets), oldest first, in
/// a ring whose capacity (a power of two) doubles when it is full. (Not a `VecDeque`: its
/// `push_back` stayed out of line, 4% of the run on CAMINOS's configuration.)
struct Fifo<T> {
    /// The ring: as long as its capacity.
    slots: Vec<T>,
    head: u32,
    len: u32,
}

impl<T> Default for Fifo<T> {
    fn default() -> Self {
        Fifo { slots: Vec::new(), head: 0, len: 0 }
    }
}

impl<T: Copy + Default> Fifo<T> {
    #[inline]
    fn len(&self) -> usize {
        self.len as usize
    }

    /// The slot of the `i`-th item.
    #[inline]
    fn slot(&self, i: usize) -> usize {
        (self.head as usize + i) & (self.slots.len() - 1)
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&T> {
        (i < self.len()).then(|| &self.slots[self.slot(i)])
    }

    #[inline]
    fn get_mut(&mut self, i: usize) -> &mut T {
        assert!(i < self.len(), "item {i} of {}", self.len);
        let slot = self.slot(i);
        &mut self.slots[slot]
    }

    #[inline]
    fn front(&self) -> Option<&T> {
        self.get(0)
    }

    #[inline]
    fn pop_front(&mut self) {
        debug_assert!(self.len > 0);
        self.head = self.slot(1) as u32;
        self.len -= 1;
    }

    #[inline]
    fn push_back(&mut self, t: T) {
        if self.len() == self.slots.len() {
            self.grow();
        }
        let slot = self.slot(self.len());
        self.slots[slot] = t;
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self) {
        let capacity = (2 * self.slots.len()).max(4);
        let mut slots = Vec::with_capacity(capacity);
        slots.extend(self.iter().copied());
        slots.resize(capacity, T::default());
        (self.slots, self.head) = (slots, 0);
    }

    fn iter(&self) -> impl DoubleEndedIterator<Item = &T> {
        (0..self.len()).map(|i| &self.slots[self.slot(i)])
    }
}

/// A packet in a channel's output buffer (`--output-buffer`): it crosses the switch from
/// `crossed` on and leaves on the link from `link` on (`NEVER`: not yet), its header once the
/// downstream credits show `need`; `wait` and `measured` are its VC grant's.
#[derive(Clone, Copy, Default)]
struct Queued {
    pkt: u32,
    len: u32,
    course: Course,
    crossed: u64,
    link: u64,
    need: u64,
    wait: u64,
    measured: bool,
}

/// A channel's output buffer: its packets, oldest first, from the first with a flit still
/// there; from when the next header may leave on the link (the last tail's leaving + 1).
#[derive(Default)]
struct OutBuf {
    trains: Fifo<Queued>,
    free_from: u64,
}

/// An input port's trains, oldest first, from one landing or on its way to the last whose
/// credits are still owed; counted by sequence number. With them what a hop reads and
/// writes of the port's channel: two cache lines a port, the first all that the upstream
/// router reads and writes of it as an output (its VC, credits, class, the train sent), the
/// second what only its own router does. (Per-channel arrays beside the ports cost a cache
/// line each a hop.)
#[derive(Default)]
#[repr(C, align(64))]
struct Port {
    trains: Fifo<Train>,
    /// Trains dropped from `trains` (the first's sequence number).
    popped: u64,
    /// (A channel) from when its VC is free to take, as its upstream router's output.
    out_free: u64,
    /// (A channel) its busy cycles from the warm-up on.
    busy: u64,
    /// Its channel's latency (a terminal's injection port: 0).
    latency: u32,
    /// Its channel's class (a terminal's injection port: 0, never read).
    class: u16,
    /// Trains landed, and left.
    landed: u64,
    left: u64,
    /// When its front header became eligible to ask (`NEVER`: none asks).
    asking_since: u64,
    /// From when the next header may be at the front (the last tail's leaving + 1).
    free_from: u64,
    /// (A channel) flit-cycles in its VC from the warm-up on.
    occupancy: u64,
    /// The front header's one allowed output once routed (`EJECT`: its terminal), `NONE`
    /// before or where the routing offers several.
    route: u32,
    /// Its router, and its place in the router's arbitration order.
    router: u32,
    place: u32,
}

// (Two cache lines.)
const _: () = assert!(size_of::<Port>() == 128);

impl Port {
    #[inline]
    fn train(&self, seq: u64) -> Option<&Train> {
        self.trains.get(seq.checked_sub(self.popped)? as usize)
    }

    #[inline]
    fn train_mut(&mut self, seq: u64) -> &mut Train {
        self.trains.get_mut((seq - self.popped) as usize)
    }
}

/// A router's cycles holding a flit, counted lazily: `before` of them before `since`, and
/// every cycle from `since` while trains are here (`landed`: in an input buffer, or in an
/// output buffer and not yet on the link) or until `end`.
#[derive(Default, Clone)]
struct Busy {
    before: u64,
    since: u64,
    end: u64,
    landed: u32,
    /// Its channels whose output buffer's front header asks for the link.
    linking: Vec<u32>,
}

struct Packet {
    msg: u32,
    dst: TerminalId,
    salt: u32,
    len: u32,
    created: u64,
    /// When its header left the source router.
    left: u64,
}

struct Message {
    msg: Msg,
    packets_left: u32,
    started: bool,
}

/// A packet whose tail is ejected at its bucket's cycle.
#[derive(Clone, Copy)]
struct Tail {
    pkt: u32,
    hops: u32,
    wait: u64,
    measured: bool,
}

/// Events by cycle, in a ring of `len` buckets, a power of two (every event is due less than
/// `len` cycles after it is filed). (Not the engines' `crate::calendar::Calendar`: its rings
/// of 512 buckets, four of them, made this path 4% slower on CAMINOS's configuration,
/// farm-bench -n 6; a ring here is a few dozen buckets.)
struct Ring<T> {
    buckets: Vec<Vec<T>>,
}

impl<T> Ring<T> {
    fn new(len: usize) -> Self {
        debug_assert!(len.is_power_of_two());
        Ring { buckets: (0..len).map(|_| Vec::new()).collect() }
    }

    fn at(&mut self, t: u64) -> &mut Vec<T> {
        let mask = self.buckets.len() as u64 - 1;
        &mut self.buckets[(t & mask) as usize]
    }
}

struct Sim<'a, R> {
    net: &'a Network,
    routing: &'a R,
    p: VcParams,
    warmup: u64,
    nc: u32,
    /// The longest channel latency (at least 1).
    longest: u32,
    /// Per channel: the router it leaves.
    source: Vec<u32>,
    /// Per router: its input ports, and where their list begins in `port_at`, which lists
    /// each router's by place.
    ports_of: Vec<u32>,
    port_start: Vec<u32>,
    port_at: Vec<u32>,
    /// Per router, `words` words: a bitset of its input ports (by place) whose front header
    /// asks for a VC. (A bitset rather than a list: the arbitration order is then a walk
    /// round it from the rotating priority, with no sort.)
    asking_ports: Vec<u64>,
    words: usize,
    /// Room for the ports asking at a router, sorted into its arbitration order (oldest
    /// first, or round-robin at a router of more than 64 ports).
    order: Vec<u32>,
    ports: Vec<Port>,
    /// The ports' state outgrows the caches ([`LARGE`]): the stages prefetch it.
    large: bool,
    routers: Vec<Busy>,
    /// Routers with a header asking, as a bitset.
    asking: Vec<u64>,
    /// Room for a router's routing candidates.
    cands: Candidates,
    /// Per router and destination terminal: the one output's place among the router's
    /// channels where the salt does not matter ([`Routing::salt_free`]), `TABLE_EJECT` (the
    /// terminal), `SEVERAL`, or `UNROUTED` until first asked. One byte an entry, so that it
    /// crowds the cache little; empty for large networks or routers of over 252 channels.
    hop_table: Vec<u8>,
    /// Per channel: its output buffer (none without); per terminal: from when its ejection
    /// port is free.
    obs: Vec<OutBuf>,
    sink_free: Vec<u64>,
    /// Per terminal: its queued packets, and from when it may begin the next.
    sources: Vec<Fifo<u32>>,
    write_free: Vec<u64>,
    active_sources: Vec<u32>,
    is_active: Vec<bool>,
    packets: Vec<Packet>,
    free_packets: Vec<u32>,
    messages: Vec<Message>,
    free_messages: Vec<u32>,
    lands: Ring<u32>,
    eligible: Ring<u32>,
    links: Ring<u32>,
    tails: Ring<Tail>,
    /// The cycles some flit or credit arrives: per first cycle, in a ring as the events', the
    /// last cycle of the intervals beginning then (0: none); and the last cycle of those begun.
    arrivals: Vec<u64>,
    arrive_to: u64,
    mask: u64,
    /// The last cycle anything filed is due.
    horizon: u64,
    /// Trains landed and not left; the last cycle a tail leaves; packets queued at sources
    /// and not begun, and the last cycle a source writes; the last cycle a flit moves.
    waiting: u64,
    present_to: u64,
    queued: u64,
    written_to: u64,
    moves_to: u64,
    flit_hops: u64,
    service: Vec<ClassService>,
    pstats: PacketStats,
    collector: Collector,
    births: Births,
}

/// Runs the virtual-channel router network packet by packet (see the module docs; same
/// contract as [`super::run`]); `None` for a run it does not apply to (`applies`), or that
/// the deadlock watch would stop.
pub fn run<R: Routing>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    p: &VcParams,
) -> Option<Outcome> {
    if !applies(net, p, spec) {
        return None;
    }
    let mut s = Sim::new(net, routing, spec, *p);
    let quiet = 2 * (p.router_delay as u64 + p.injection_latency as u64 + 2 * s.longest as u64) + 100;
    let mut born = Vec::new();
    let mut now = 0;
    let mut reason = None;
    let mut checked = true;
    while now < spec.max_cycles {
        let begun = &mut s.arrivals[(now & s.mask) as usize];
        s.arrive_to = s.arrive_to.max(std::mem::take(begun));
        s.land(now);
        s.births.create(now, pattern, net, &mut s.collector, &mut born);
        for &(src, msg) in &born {
            s.queue_message(src, msg, now);
        }
        s.inject(now);
        let eligible = std::mem::take(s.eligible.at(now));
        for &q in &eligible {
            s.ask(q, now);
        }
        *s.eligible.at(now) = recycle(eligible);
        let links = std::mem::take(s.links.at(now));
        for &c in &links {
            s.ask_link(c);
        }
        *s.links.at(now) = recycle(links);
        s.allocate(now);
        s.eject_tails(now);
        s.collector.tick(now);
        if checked {
            reason = s.collector.stop(now);
            let last_move = s.moves_to.min(now);
            if reason.is_none() && s.waiting > 0 && now - last_move >= quiet {
                return None;
            }
            if reason.is_some() {
                break;
            }
        }
        // (The reference checks the stop rule only in the cycles the flit engine simulates.)
        let next = now + 1;
        let arrives = s.arrive_to >= next || s.arrivals[(next & s.mask) as usize] != 0;
        checked = s.waiting > 0
            || s.present_to > now
            || s.queued > 0
            || s.written_to > now
            || arrives
            || s.births.next_after_now() == Some(next)
            || s.collector.next_delivery() == Some(next);
        if !checked && s.horizon < next {
            // Nothing in the network: on to the workload's or the collector's next event, a
            // cycle the flit engine simulates.
            let events = [s.births.next_after_now(), s.collector.next_delivery(), None];
            now = crate::next_busy_cycle(now, events, spec.max_cycles);
            checked = true;
        } else {
            now = next;
        }
    }
    Some(s.finish(now, reason))
}

/// `x` in a free slot of `slots` (`free` lists them), or a new one; its number.
fn put<T>(slots: &mut Vec<T>, free: &mut Vec<u32>, x: T) -> u32 {
    match free.pop() {
        Some(i) => {
            slots[i as usize] = x;
            i
        }
        None => {
            slots.push(x);
            slots.len() as u32 - 1
        }
    }
}

/// An emptied bucket, its memory kept.
fn recycle<T>(mut v: Vec<T>) -> Vec<T> {
    v.clear();
    v
}

impl<'a, R: Routing> Sim<'a, R> {
    fn new(net: &'a Network, routing: &'a R, spec: &RunSpec, p: VcParams) -> Self {
        let nc = net.channels().len() as u32;
        let terminals = net.terminals();
        let routers = net.routers() as usize;
        let port_router: Vec<u32> = net
            .channels()
            .iter()
            .map(|c| c.dst)
            .chain((0..terminals).map(|t| net.inject_router(t)))
            .collect();
        let mut ports_of = vec![0u32; routers];
        let mut place = vec![0u32; port_router.len()];
        for (q, &rt) in port_router.iter().enumerate() {
            place[q] = ports_of[rt as usize];
            ports_of[rt as usize] += 1;
        }
        let port_start: Vec<u32> = ports_of
            .iter()
            .scan(0, |at, &n| {
                *at += n;
                Some(*at - n)
            })
            .collect();
        let mut port_at = vec![0u32; port_router.len()];
        for (q, &rt) in port_router.iter().enumerate() {
            port_at[(port_start[rt as usize] + place[q]) as usize] = q as u32;
        }
        let words = (ports_of.iter().copied().max().unwrap_or(1) as usize).div_ceil(64).max(1);
        let latency = crate::channel_latencies(net, &p, spec);
        let longest = latency.iter().copied().max().unwrap_or(1).max(1);
        let ports: Vec<Port> = (0..port_router.len())
            .map(|q| Port {
                asking_since: NEVER,
                route: NONE,
                latency: latency.get(q).copied().unwrap_or(0),
                router: port_router[q],
                place: place[q],
                class: net.channels().get(q).map_or(0, |c| c.class),
                ..Port::default()
            })
            .collect();
        let ring = (longest as usize + (p.router_delay + p.injection_latency + 2 * p.packet) as usize + 4)
            .next_power_of_two();
        Sim {
            net,
            routing,
            p,
            warmup: spec.warmup,
            nc,
            longest,
            source: net.edges().map(|(src, _)| src).collect(),
            ports_of,
            port_start,
            port_at,
            asking_ports: vec![0; routers * words],
            words,
            order: Vec::new(),
            large: ports.len() > LARGE,
            ports,
            routers: vec![Busy::default(); routers],
            asking: vec![0; routers.div_ceil(64)],
            cands: Candidates::for_network(net),
            hop_table: if routers * terminals as usize <= HOP_TABLE && net.degree_range().1 < SEVERAL as u32 {
                vec![UNROUTED; routers * terminals as usize]
            } else {
                Vec::new()
            },
            obs: if p.output_buffer > 0 { (0..nc).map(|_| OutBuf::default()).collect() } else { Vec::new() },
            sink_free: vec![0; terminals as usize],
            sources: (0..terminals).map(|_| Fifo::default()).collect(),
            write_free: vec![0; terminals as usize],
            active_sources: Vec::new(),
            is_active: vec![false; terminals as usize],
            packets: Vec::new(),
            free_packets: Vec::new(),
            messages: Vec::new(),
            free_messages: Vec::new(),
            lands: Ring::new(ring),
            eligible: Ring::new(ring),
            links: Ring::new(ring),
            tails: Ring::new(ring),
            arrivals: vec![0; ring],
            mask: ring as u64 - 1,
            arrive_to: 0,
            horizon: 0,
            waiting: 0,
            present_to: 0,
            queued: 0,
            written_to: 0,
            moves_to: 0,
            flit_hops: 0,
            service: ClassService::per_class(net),
            pstats: PacketStats::default(),
            collector: Collector::new(spec, net),
            births: Births::new(spec, net),
        }
    }

    /// Files an event due at `t` in `ring`.
    fn file<T>(ring: &mut Ring<T>, horizon: &mut u64, t: u64, x: T) {
        *horizon = (*horizon).max(t);
        ring.at(t).push(x);
    }

    /// Flits or credits arrive in every cycle of `from..=to`.
    fn arrivals_in(&mut self, from: u64, to: u64) {
        let last = &mut self.arrivals[(from & self.mask) as usize];
        *last = (*last).max(to);
        self.horizon = self.horizon.max(to);
    }

    /// The headers due at `now` land.
    fn land(&mut self, now: u64) {
        let lands = std::mem::take(self.lands.at(now));
        for (i, &q) in lands.iter().enumerate() {
            // (The ports landing a few ahead are brought into the cache meanwhile.)
            if self.large
                && let Some(&ahead) = lands.get(i + 8)
            {
                crate::prefetch(&self.ports[ahead as usize]);
            }
            let seq = self.ports[q as usize].landed;
            self.landed(q, seq, now);
        }
        *self.lands.at(now) = recycle(lands);
    }

    /// Train `seq` of port `q` lands at `now`: its router holds a flit from now on, and a
    /// header at the front asks once it is ready.
    fn landed(&mut self, q: u32, seq: u64, now: u64) {
        let b = &mut self.routers[self.ports[q as usize].router as usize];
        if b.landed == 0 && b.end <= now {
            b.before += b.end - b.since;
            b.since = now;
        }
        b.landed += 1;
        self.waiting += 1;
        let port = &mut self.ports[q as usize];
        port.landed += 1;
        if seq == port.left {
            self.front(q, now);
        }
    }

    /// Port `q`'s front train (landed, its predecessor gone) asks once ready and at the front.
    fn front(&mut self, q: u32, now: u64) {
        let port = &self.ports[q as usize];
        let t = port.train(port.left).expect("a front train");
        let delay = if q >= self.nc { self.p.injection_latency as u64 } else { 0 };
        let at = (t.land + delay + self.p.router_delay as u64).max(port.free_from);
        if at <= now {
            self.ask(q, now);
        } else {
            Self::file(&mut self.eligible, &mut self.horizon, at, q);
        }
    }

    /// Port `q`'s front header asks for a VC from `now` on (again, after sleeping).
    fn ask(&mut self, q: u32, now: u64) {
        let port = &mut self.ports[q as usize];
        if port.asking_since == NEVER {
            port.asking_since = now;
        }
        let rt = port.router as usize;
        let place = port.place as usize;
        let word = &mut self.asking_ports[rt * self.words + place / 64];
        debug_assert!(*word & (1 << (place % 64)) == 0, "a port asks once");
        *word |= 1 << (place % 64);
        self.asking[rt / 64] |= 1 << (rt % 64);
    }

    /// Channel `c`'s output buffer's front header asks for the link.
    fn ask_link(&mut self, c: ChannelId) {
        let rt = self.source[c as usize] as usize;
        self.routers[rt].linking.push(c);
        self.asking[rt / 64] |= 1 << (rt % 64);
    }

    /// A new message joins its source's queue as packets of at most P flits.
    fn queue_message(&mut self, src: TerminalId, msg: Msg, now: u64) {
        let n = msg.size.div_ceil(self.p.packet);
        let m = Message { msg, packets_left: n, started: false };
        let m = put(&mut self.messages, &mut self.free_messages, m);
        for i in 0..n {
            let len = if i + 1 < n { self.p.packet } else { msg.size - (n - 1) * self.p.packet };
            let pk = Packet { msg: m, dst: msg.dst, salt: msg.salt, len, created: now, left: now };
            let id = put(&mut self.packets, &mut self.free_packets, pk);
            self.sources[src as usize].push_back(id);
            self.queued += 1;
        }
        if !self.is_active[src as usize] {
            self.is_active[src as usize] = true;
            self.active_sources.push(src);
        }
    }

    /// Each source done writing its last packet begins its next if its injection VC has room
    /// for it (flits written and not yet left, seen directly in the buffer).
    fn inject(&mut self, now: u64) {
        let mut active = std::mem::take(&mut self.active_sources);
        active.retain(|&t| {
            let ti = t as usize;
            if now < self.write_free[ti] {
                return true;
            }
            let q = self.nc + t;
            let pkt = *self.sources[ti].front().expect("a packet queued");
            let len = self.packets[pkt as usize].len;
            let port = &self.ports[q as usize];
            // Newest first, to the first train wholly gone (so are the older ones).
            let mut held = 0;
            for tr in port.trains.iter().rev() {
                let (len, gone) = (tr.len as u64, now.saturating_sub(tr.leave));
                if gone >= len {
                    break;
                }
                held += now.saturating_sub(tr.land).min(len) - gone;
            }
            if (self.p.buffer as u64) < held + len as u64 {
                return true;
            }
            self.sources[ti].pop_front();
            self.queued -= 1;
            let created = self.packets[pkt as usize].created;
            let measured = now >= self.warmup;
            if measured {
                let s = &mut self.service[self.net.classes().len()];
                s.packets += 1;
                s.hold_sum += len as u64;
                s.wait_sum += now - created;
            }
            let end = now + len as u64 - 1;
            self.write_free[ti] = end + 1;
            self.written_to = self.written_to.max(end);
            self.moves_to = self.moves_to.max(end);
            let port = &mut self.ports[q as usize];
            while port
                .trains
                .front()
                .is_some_and(|tr| tr.leave != NEVER && now > tr.leave + tr.len as u64 - 1)
            {
                port.trains.pop_front();
                port.popped += 1;
            }
            let pk = &self.packets[pkt as usize];
            let course = Course { dst: pk.dst, salt: pk.salt, hops: 0 };
            let port = &mut self.ports[q as usize];
            port.trains.push_back(Train {
                pkt,
                len,
                course,
                land: now,
                leave: NEVER,
                wait: now - created,
                measured,
            });
            let seq = port.popped + port.trains.len() as u64 - 1;
            self.landed(q, seq, now);
            let keep = self.sources[ti].len() > 0;
            self.is_active[ti] = keep;
            keep
        });
        self.active_sources = active;
    }

    /// The credits output channel `c`'s VC shows at `now`: the buffer less the flits sent on
    /// it whose credits have not come back.
    fn credits(&self, c: ChannelId, now: u64) -> u64 {
        let port = &self.ports[c as usize];
        let l = port.latency as u64;
        // Newest first, to the first train whose credits are all back: the trains leave one
        // after another's tail, so every older one's are back too.
        let mut owed = 0;
        for t in port.trains.iter().rev() {
            let len = t.len as u64;
            let back = if t.leave == NEVER { 0 } else { (now + 1).saturating_sub(t.leave + l).min(len) };
            if back == len {
                break;
            }
            owed += len - back;
        }
        self.p.buffer as u64 - owed
    }

    /// The routers with a header asking, in number order: each asks in its arbitration order.
    fn allocate(&mut self, now: u64) {
        let mut cands = std::mem::take(&mut self.cands);
        for w in 0..self.asking.len() {
            let mut bits = self.asking[w];
            while bits != 0 {
                let rt = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // (Two routers on, the ports asking; at the next, read now, their front
                // trains and their outputs' ports.)
                let later = bits & bits.wrapping_sub(1);
                if self.large && later != 0 {
                    self.prefetch_asking(w * 64 + later.trailing_zeros() as usize);
                }
                if self.large && bits != 0 {
                    self.prefetch_fronts(w * 64 + bits.trailing_zeros() as usize);
                }
                self.allocate_at(rt, now, &mut cands);
                // (The link stage, after the router's switch traversal.)
                if !self.routers[rt].linking.is_empty() {
                    let mut linking = std::mem::take(&mut self.routers[rt].linking);
                    linking.retain(|&c| !self.link(c, now));
                    self.routers[rt].linking = linking;
                }
                let asks = self.asking_ports[rt * self.words..][..self.words].iter().any(|&b| b != 0);
                if !asks && self.routers[rt].linking.is_empty() {
                    self.asking[w] &= !(1 << (rt % 64));
                }
            }
        }
        self.cands = cands;
    }

    /// Brings the ports asking at router `rt` (up to its first word's) into the cache ahead
    /// of its VC allocation.
    #[inline(always)]
    fn prefetch_asking(&self, rt: usize) {
        let start = self.port_start[rt] as usize;
        let mut word = self.asking_ports[rt * self.words];
        while word != 0 {
            crate::prefetch(&self.ports[self.port_at[start + word.trailing_zeros() as usize] as usize]);
            word &= word - 1;
        }
    }

    /// Brings the front trains of the ports asking at router `rt` (up to its first word's),
    /// and the ports of the outputs they were routed to, into the cache ahead of its VC
    /// allocation.
    #[inline(always)]
    fn prefetch_fronts(&self, rt: usize) {
        let start = self.port_start[rt] as usize;
        let mut word = self.asking_ports[rt * self.words];
        while word != 0 {
            let port = &self.ports[self.port_at[start + word.trailing_zeros() as usize] as usize];
            if let Some(t) = port.train(port.left) {
                crate::prefetch(t);
            }
            if (port.route as usize) < self.ports.len() {
                crate::prefetch(&self.ports[port.route as usize]);
            }
            word &= word - 1;
        }
    }

    /// The one output a header at router `rt` bound for `dst` may take (`EJECT`: its terminal),
    /// or `NONE` with the routing's candidates in `cands`; from the hop table where it holds
    /// the pair (a table lookup costs less than routing, whose branches the random
    /// destinations mispredict).
    #[inline]
    fn route(&mut self, rt: u32, dst: TerminalId, salt: u32, cands: &mut Candidates) -> u32 {
        let slot = rt as usize * self.sink_free.len() + dst as usize;
        let first = self.net.out_channels(rt).start;
        match self.hop_table.get(slot) {
            Some(&TABLE_EJECT) => return EJECT,
            Some(&place) if place < SEVERAL => return first + place as u32,
            _ => {}
        }
        self.routing.route(rt, dst, salt, cands);
        let one = match cands.as_slice() {
            [] => EJECT,
            &[c] => c,
            _ => NONE,
        };
        if self.hop_table.get(slot) == Some(&UNROUTED) {
            self.hop_table[slot] = match one {
                _ if !self.routing.salt_free(rt, dst) => SEVERAL,
                EJECT => TABLE_EJECT,
                NONE => SEVERAL,
                c => (c - first) as u8,
            };
        }
        one
    }

    /// VC allocation at router `rt` for the headers asking, in its arbitration order at `now`:
    /// round-robin from the rotating priority's place, or oldest first.
    fn allocate_at(&mut self, rt: usize, now: u64, cands: &mut Candidates) {
        let base = rt * self.words;
        let start = self.port_start[rt] as usize;
        let n = self.ports_of[rt];
        let b = &self.routers[rt];
        // (The rotating priority counts the cycles the router held a flit, modulo 2^32.)
        let rot = || (b.before + (now - b.since)) as u32 % n;
        // (Only the port asking is cleared as it asks: no header of this router begins to ask
        // while it allocates.)
        if self.words == 1 && self.p.arbitration == Arbitration::RoundRobin {
            // Rotated right by the priority's place, the bitset lists places rot..n, then
            // 0..rot (those above 64 − rot ≥ n − rot). (One header asking: no division.)
            let word = self.asking_ports[base];
            let rot = if word.is_power_of_two() { 0 } else { rot() };
            let mut bits = word.rotate_right(rot);
            while bits != 0 {
                let place = (bits.trailing_zeros() + rot) % 64;
                bits &= bits - 1;
                if self.vc_allocation(rt as u32, self.port_at[start + place as usize], now, cands) {
                    self.asking_ports[base] &= !(1 << place);
                }
            }
            return;
        }
        // Oldest first, or more ports than a word: the ports asking, sorted into the order.
        let mut qs = std::mem::take(&mut self.order);
        qs.clear();
        for (i, &word) in self.asking_ports[base..][..self.words].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                qs.push(self.port_at[start + i * 64 + bits.trailing_zeros() as usize]);
                bits &= bits - 1;
            }
        }
        if self.p.arbitration == Arbitration::OldestFirst {
            qs.sort_by_key(|&q| {
                let port = &self.ports[q as usize];
                let pk = &self.packets[port.train(port.left).expect("a front train").pkt as usize];
                (pk.created, pk.salt, q)
            });
        } else {
            let rot = rot();
            qs.sort_by_key(|&q| (self.ports[q as usize].place + n - rot) % n);
        }
        for &q in &qs {
            if self.vc_allocation(rt as u32, q, now, cands) {
                let place = self.ports[q as usize].place as usize;
                self.asking_ports[base + place / 64] &= !(1 << (place % 64));
            }
        }
        self.order = qs;
    }

    /// VC allocation for port `q`'s front header at router `rt`; on a grant the packet
    /// leaves at once. Returns whether it stops asking: it left, or its one output is held
    /// until a known cycle, when it asks again (`eligible`).
    fn vc_allocation(&mut self, rt: u32, q: u32, now: u64, cands: &mut Candidates) -> bool {
        let port = &self.ports[q as usize];
        let t = *port.train(port.left).expect("a front train");
        let waited = now - port.asking_since;
        let Course { dst, salt, hops } = t.course;
        // (A header is routed once at a router where the routing offers one output.)
        let mut one = port.route;
        if one == NONE {
            one = self.route(rt, dst, salt, cands);
            self.ports[q as usize].route = one;
        }
        if one == EJECT {
            let dst = dst as usize;
            if now < self.sink_free[dst] {
                // (It would ask in vain until then.)
                Self::file(&mut self.eligible, &mut self.horizon, self.sink_free[dst], q);
                return true;
            }
            self.sink_free[dst] = now + t.len as u64;
            let tail = now + t.len as u64 - 1;
            let measured = now >= self.warmup;
            if measured {
                let s = &mut self.service[self.net.classes().len() + 1];
                s.packets += 1;
                s.hold_sum += t.len as u64;
                s.wait_sum += waited;
            }
            let e = Tail { pkt: t.pkt, hops, wait: waited, measured };
            Self::file(&mut self.tails, &mut self.horizon, tail, e);
            self.leave(q, now, false);
            return true;
        }
        let first = if one == NONE { cands.as_slice()[0] } else { one };
        let mut need = t.len as u64;
        if self.p.deadlock == Avoidance::Bubble
            && (q >= self.nc || self.ports[q as usize].class != self.ports[first as usize].class)
        {
            need *= 2;
        }
        // (With output buffers, the room is the output buffer's.)
        let room =
            |c: ChannelId| if self.obs.is_empty() { self.credits(c, now) } else { self.ob_room(c, now) };
        let free = |c: ChannelId| now >= self.ports[c as usize].out_free && room(c) >= need;
        let c = if one == NONE {
            let (minimal, _) = split_deroutes(cands.as_slice());
            choose(minimal, salt, hops, now, |c| if free(c) { now } else { now + 1 })
        } else {
            let out_free = self.ports[one as usize].out_free;
            if now < out_free {
                // (Its one output's VC is held until then: it would ask in vain.)
                Self::file(&mut self.eligible, &mut self.horizon, out_free, q);
                return true;
            }
            one
        };
        if !free(c) {
            return false;
        }
        let stays = self.send(rt, q, c, t, waited, now);
        self.leave(q, now, stays);
        true
    }

    /// Train `t`, at port `q` of router `rt`, takes channel `c`'s VC at `now` after `waited`
    /// cycles and crosses the switch: onto the link, or into the channel's output buffer.
    /// Returns whether it stays there (it does not when it finds the output buffer empty and
    /// the downstream credits it needs: it leaves on the link at once, as the link stage
    /// would have it later in the cycle).
    fn send(&mut self, rt: u32, q: u32, c: ChannelId, t: Train, waited: u64, now: u64) -> bool {
        let (ci, len) = (c as usize, t.len as u64);
        self.ports[ci].out_free = now + len;
        let measured = now >= self.warmup;
        if measured {
            let s = &mut self.service[self.ports[ci].class as usize];
            s.packets += 1;
            s.hold_sum += len;
            s.wait_sum += waited;
        }
        if self.obs.is_empty() {
            self.transmit(c, t.pkt, t.len, t.course, (waited, measured), now);
            return false;
        }
        // The room downstream its VC allocation asked for: a packet, two entering a ring.
        let entering = q >= self.nc || self.ports[q as usize].class != self.ports[ci].class;
        let need = if self.p.deadlock == Avoidance::Bubble && entering { 2 * len } else { len };
        let ob = &mut self.obs[ci];
        while ob.trains.front().is_some_and(|o| o.link != NEVER && now >= o.link + o.len as u64) {
            ob.trains.pop_front();
        }
        let first = ob.trains.iter().all(|o| o.link != NEVER);
        if first && ob.free_from <= now && self.credits(c, now) >= need {
            self.obs[ci].free_from = now + len;
            self.transmit(c, t.pkt, t.len, t.course, (waited, measured), now);
            return false;
        }
        let ob = &mut self.obs[ci];
        ob.trains.push_back(Queued {
            pkt: t.pkt,
            len: t.len,
            course: t.course,
            crossed: now,
            link: NEVER,
            need,
            wait: waited,
            measured,
        });
        if first {
            let at = ob.free_from.max(now);
            if at <= now {
                self.routers[rt as usize].linking.push(c);
            } else {
                Self::file(&mut self.links, &mut self.horizon, at, c);
            }
        }
        true
    }

    /// The flits channel `c`'s output buffer holds at `now`'s VC allocation: crossed before
    /// `now`, not yet on the link.
    fn ob_room(&self, c: ChannelId, now: u64) -> u64 {
        // Newest first, to the first packet wholly on the link (so are the older ones).
        let mut held = 0;
        for o in self.obs[c as usize].trains.iter().rev() {
            let (len, gone) = (o.len as u64, now.saturating_sub(o.link));
            if gone >= len {
                break;
            }
            held += now.saturating_sub(o.crossed).min(len) - gone;
        }
        self.p.output_buffer as u64 - held
    }

    /// The link stage of channel `c` at `now` (with output buffers): its output buffer's front
    /// header leaves if the downstream credits show the room it needs. Returns whether it left.
    fn link(&mut self, c: ChannelId, now: u64) -> bool {
        let ci = c as usize;
        let i = self.obs[ci].trains.iter().position(|o| o.link == NEVER).expect("a header asking");
        let o = *self.obs[ci].trains.get(i).expect("a header asking");
        if self.credits(c, now) < o.need {
            return false;
        }
        let len = o.len as u64;
        let ob = &mut self.obs[ci];
        ob.trains.get_mut(i).link = now;
        ob.free_from = now + len;
        if let Some(next) = ob.trains.get(i + 1) {
            let at = next.crossed.max(now + len);
            Self::file(&mut self.links, &mut self.horizon, at, c);
        }
        let b = &mut self.routers[self.source[c as usize] as usize];
        b.landed -= 1;
        b.end = b.end.max(now + len);
        self.waiting -= 1;
        self.present_to = self.present_to.max(now + len - 1);
        self.moves_to = self.moves_to.max(now + len - 1);
        // (Its class service was counted as it crossed the switch.)
        self.transmit(c, o.pkt, o.len, o.course, (0, false), now);
        true
    }

    /// A train of `len` flits of packet `pkt` leaves on channel `c`'s link at `now`, one flit a
    /// cycle; `grant` is the wait and measurement its downstream train records. (Inlined, as
    /// `leave` is, into VC allocation: out of line both cost 5% on CAMINOS's configuration,
    /// farm-bench -n 10.)
    #[inline(always)]
    fn transmit(&mut self, c: ChannelId, pkt: u32, len: u32, course: Course, grant: (u64, bool), now: u64) {
        let ci = c as usize;
        let n = len as u64;
        let course = Course { hops: course.hops + 1, ..course };
        let warmup = self.warmup;
        let port = &mut self.ports[ci];
        let l = port.latency as u64;
        let land = now + l;
        port.busy += (now + n).saturating_sub(now.max(warmup));
        self.flit_hops += n;
        while port
            .trains
            .front()
            .is_some_and(|tr| tr.leave != NEVER && now >= tr.leave + l + tr.len as u64 - 1)
        {
            port.trains.pop_front();
            port.popped += 1;
        }
        let (wait, measured) = grant;
        port.trains.push_back(Train { pkt, len, course, land, leave: NEVER, wait, measured });
        Self::file(&mut self.lands, &mut self.horizon, land, c);
        self.arrivals_in(land, land + n - 1);
    }

    /// Port `q`'s front train leaves at `now` (into an output buffer of its router, if it
    /// `stays`): its flits follow one a cycle, its credits return a link latency later, and
    /// the next train comes to the front after its tail.
    #[inline(always)]
    fn leave(&mut self, q: u32, now: u64, stays: bool) {
        let qi = q as usize;
        let port = &mut self.ports[qi];
        let seq = port.left;
        let t = port.train_mut(seq);
        t.leave = now;
        let t = *t;
        port.left += 1;
        port.asking_since = NEVER;
        port.route = NONE;
        let len = t.len as u64;
        port.free_from = now + len;
        let next_landed = port.landed > port.left;
        if !stays {
            let b = &mut self.routers[self.ports[qi].router as usize];
            b.landed -= 1;
            b.end = b.end.max(now + len);
            self.waiting -= 1;
        }
        self.present_to = self.present_to.max(now + len - 1);
        self.moves_to = self.moves_to.max(now + len - 1);
        self.horizon = self.horizon.max(now + len);
        if q < self.nc {
            let port = &mut self.ports[qi];
            port.occupancy += held(&t, self.warmup, u64::MAX, u64::MAX);
            let l = port.latency as u64;
            self.arrivals_in(now + l, now + l + len - 1);
        } else {
            // A header leaves its source router; the message's first ends its source queueing.
            let pk = &mut self.packets[t.pkt as usize];
            pk.left = now;
            let m = &mut self.messages[pk.msg as usize];
            if !m.started {
                m.started = true;
                m.msg.first_start = now;
            }
        }
        if next_landed {
            self.front(q, now);
        }
    }

    /// The packets whose tails are ejected at `now` are delivered. (In any order: the
    /// collector and the workload file a cycle's deliveries by cycle, and tests hold routers
    /// ejecting several tails in a cycle to the flit engine.)
    fn eject_tails(&mut self, now: u64) {
        let tails = std::mem::take(self.tails.at(now));
        for e in &tails {
            self.deliver(e.pkt, e.hops, now);
        }
        *self.tails.at(now) = recycle(tails);
    }

    /// Packet `pkt`'s tail is ejected at `now`: it is delivered at `now + 1` plus the ejection
    /// channel's latency, and its message with its last packet.
    fn deliver(&mut self, pkt: u32, hops: u32, now: u64) {
        let arrives = now + 1 + self.p.ejection_latency as u64;
        let pk = &self.packets[pkt as usize];
        let m = &mut self.messages[pk.msg as usize];
        if m.msg.seq != UNMEASURED {
            self.pstats.delivered += 1;
            self.pstats.nonminimal += u64::from(went_nonminimal(UNDECIDED));
            self.pstats.latency_sum += arrives - pk.created;
            self.pstats.network_sum += arrives - pk.left;
        }
        m.packets_left -= 1;
        if m.packets_left == 0 {
            // The message's hops are those of its last packet.
            m.msg.hops = hops;
            m.msg.leg = UNDECIDED;
            self.births.deliver(&m.msg, arrives, &mut self.collector);
            self.free_messages.push(pk.msg);
        }
        self.free_packets.push(pkt);
    }

    /// The outcome of a run that stopped at the end of cycle `now` for `reason` (`None`: it ran
    /// out of cycles). Flits that the packets' leaving cycles place after the last simulated
    /// cycle never moved: what was counted for them is taken back.
    fn finish(mut self, now: u64, reason: Option<StopReason>) -> Outcome {
        let last = if reason.is_some() { now } else { now.saturating_sub(1) };
        let (classes, warmup) = (self.net.classes().len(), self.warmup);
        let unserve = |s: &mut ClassService, len: u64, wait: u64| {
            s.packets -= 1;
            s.hold_sum -= len;
            s.wait_sum -= wait;
        };
        for (q, port) in self.ports.iter_mut().enumerate() {
            for t in port.trains.iter() {
                let len = t.len as u64;
                if q < self.nc as usize {
                    // Sent from `sent` on, one flit a cycle.
                    let sent = t.land - port.latency as u64;
                    let unsent = (sent + len).saturating_sub(last + 1).min(len);
                    if unsent > 0 {
                        let from = (last + 1).max(sent);
                        port.busy -= (sent + len).saturating_sub(from.max(warmup));
                        self.flit_hops -= unsent;
                        if t.measured {
                            unserve(&mut self.service[port.class as usize], len, t.wait);
                        }
                    }
                } else if t.measured && t.land + len - 1 > last {
                    unserve(&mut self.service[classes], len, t.wait);
                }
            }
        }
        for (c, ob) in self.obs.iter().enumerate() {
            for o in ob.trains.iter().filter(|o| o.measured && o.crossed + o.len as u64 - 1 > last) {
                unserve(&mut self.service[self.ports[c].class as usize], o.len as u64, o.wait);
            }
        }
        let pending: Vec<Tail> = self.tails.buckets.iter().flatten().copied().collect();
        for e in pending {
            if e.measured {
                let len = self.packets[e.pkt as usize].len as u64;
                unserve(&mut self.service[classes + 1], len, e.wait);
            }
        }
        self.collector.transmitted(self.flit_hops);
        let channels = &self.ports[..self.nc as usize];
        let mut outcome = self.collector.finish(self.net, now, reason, channels.iter().map(|p| p.busy));
        let end = outcome.end.max(warmup);
        let occupancy = channels
            .iter()
            .map(|port| {
                port.trains.iter().fold(port.occupancy, |o, t| {
                    let counted = if t.leave != NEVER { held(t, warmup, u64::MAX, u64::MAX) } else { 0 };
                    o - counted + held(t, warmup, last, end)
                })
            })
            .collect();
        outcome.packets = Some(self.pstats);
        outcome.vc_occupancy = Some(occupancy);
        outcome.channel_service = Some(self.service);
        self.births.close(&mut outcome);
        outcome
    }
}

/// The cycles of `[warmup, end)` at whose end train `t`'s flits are in their buffer, summed
/// over its flits, when the run's last simulated cycle is `last`: flit i is there from its
/// landing, `t.land + i`, to the cycle before it leaves, `t.leave + i`; one still there at
/// the end of `last` counts to `end` (`last`, `end` at `u64::MAX`: the run goes on).
#[inline]
fn held(t: &Train, warmup: u64, last: u64, end: u64) -> u64 {
    if t.land >= warmup && t.leave != NEVER && t.leave + t.len as u64 <= last {
        // (Every flit landed in the window and left by `last`: each held leave − land.)
        return t.len as u64 * (t.leave - t.land);
    }
    (0..t.len as u64)
        .map(|i| {
            let land = t.land + i;
            if land > last {
                return 0;
            }
            let leave = t.leave.saturating_add(i);
            let to = if leave > last { end } else { leave };
            to.saturating_sub(land.max(warmup))
        })
        .sum()
}
