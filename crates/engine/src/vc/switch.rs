//! Switch allocation, switch traversal, link traversal and ejection, and the far ends of the
//! wires: flits landing in the next router's buffers, credits reaching their senders.

use super::part::Numbering;
use super::state::{EJECT, NONE, Queued, Scratch, Stamp, TAIL, Vc};
use crate::NEVER;
use crate::params::Allocator;
use crate::prefetch;
use crate::switch_alloc::{self, Request};
use netwrap_topo::Routing;

impl<R: Routing, S: Numbering> Vc<'_, R, S> {
    /// Link traversal's far end: the flits sent l cycles ago enter their input VCs. On a
    /// network whose state outgrows the caches they are only sorted here, stably, by block of
    /// 64 routers (a word of the active set), and each block's land just before its routers
    /// step (`land_block`), while their state is in the cache; elsewhere they land now. (A
    /// flit landing changes only its router's input VC, which no other router reads, so the
    /// two orders give the same run.)
    pub fn receive_flits(&mut self, now: u64) {
        let mut landing = std::mem::take(&mut self.scratch.landing);
        landing.clear();
        self.wires.arrive(now, &mut landing);
        if self.c.large {
            self.sort_by_block(&landing);
        } else {
            self.land(&landing, now);
        }
        self.scratch.landing = landing;
    }

    /// Sorts `landing` into `scratch.by_block`, stably, by its routers' block of 64, the
    /// blocks' starts in `scratch.block_start`.
    fn sort_by_block(&mut self, landing: &[(u32, u32)]) {
        let Scratch { by_block, block_start, fill, .. } = &mut self.scratch;
        let (port_router, vd, first) = (&self.layout.port_router, self.c.vd, self.routers.first);
        let block = |bound: u32| ((port_router[((bound & !TAIL) / vd) as usize] - first) / 64) as usize;
        block_start.clear();
        block_start.resize(self.routers.active.len() + 1, 0);
        for &(bound, _) in landing {
            block_start[block(bound) + 1] += 1;
        }
        for w in 0..block_start.len() - 1 {
            block_start[w + 1] += block_start[w];
        }
        fill.clear();
        fill.extend_from_slice(block_start);
        by_block.clear();
        by_block.resize(landing.len(), (0, 0));
        for &entry in landing {
            let b = block(entry.0);
            by_block[fill[b] as usize] = entry;
            fill[b] += 1;
        }
    }

    /// The flits landing at `now` in the routers of block `w` (64 routers, word `w` of the
    /// shard's active set) enter their input VCs (after `sort_by_block`).
    #[inline]
    pub fn land_block(&mut self, w: usize, now: u64) {
        let (a, b) = (self.scratch.block_start[w] as usize, self.scratch.block_start[w + 1] as usize);
        if a < b {
            let flits = std::mem::take(&mut self.scratch.by_block);
            self.land(&flits[a..b], now);
            self.scratch.by_block = flits;
        }
    }

    /// Flits enter their input VCs, in order (with prefetches ahead on a large network).
    fn land(&mut self, landing: &[(u32, u32)], now: u64) {
        const AHEAD: usize = 8;
        for (i, &(bound, pkt)) in landing.iter().enumerate() {
            if self.c.large
                && let Some(&(ahead, _)) = landing.get(i + AHEAD)
            {
                let ahead = (ahead & !TAIL) as usize;
                prefetch(&self.buf.ivcs[ahead]);
            }
            let (ivc, tail) = (bound & !TAIL, bound & TAIL != 0);
            self.buf.ivcs[ivc as usize].arrive(now, self.c.warmup);
            let rt = self.layout.port_router[(ivc / self.c.vd) as usize];
            self.buf.push(&self.c, self.layout, rt, ivc, pkt, tail, now);
            self.routers.add_flit(rt);
            // (A header at the front of its VC is routed when its block steps, a few routers
            // on: its packet and route, at random in their tables, are brought in meanwhile.)
            if self.c.large && self.buf.ivcs[ivc as usize].front_header() {
                self.pkts.prefetch(pkt);
            }
        }
    }

    /// Credits: those sent back l cycles ago reach their output VCs (with output buffers,
    /// their link stage).
    pub fn receive_credits(&mut self, now: u64) {
        let mut returning = std::mem::take(&mut self.scratch.returning);
        self.credits.arrive(now, &mut returning);
        for &o in &returning {
            if self.c.ob > 0 {
                self.buf.out.queues[o as usize].link += 1;
            } else {
                self.buf.ovcs[o as usize].credits += 1;
            }
        }
        returning.clear();
        self.scratch.returning = returning;
    }

    /// Switch allocation and traversal at router `rt`: each request, in order, sends its front
    /// flit if the switch grants it (greedy), or the separable allocator's grants move, in the
    /// requests' order.
    pub fn switch_allocation_and_traversal(&mut self, rt: u32, now: u64) {
        if self.c.allocator != Allocator::Greedy {
            return self.separable_allocation(rt, now);
        }
        let (starts, out_starts) =
            (&self.layout.starts[rt as usize..], &self.layout.out_starts[rt as usize..]);
        let (in_first, out_first) = (starts[0], out_starts[0]);
        let words = |n: u32| (n as usize).div_ceil(64);
        let (ins, outs) = (words(starts[1] - in_first), words(out_starts[1] - out_first));
        clear(&mut self.used.inputs[..ins]);
        clear(&mut self.used.outputs[..outs]);
        for i in 0..self.scratch.reqs.len() {
            let ivc = self.scratch.reqs[i].2;
            if self.switch_allocation(ivc, in_first, out_first, now) {
                self.switch_traversal(rt, ivc, now);
            }
        }
    }

    /// A separable allocator's round at router `rt` ([`crate::switch_alloc`]): the requests
    /// that could move (an output held, ready, a credit for a channel's VC) ask; the grants
    /// move.
    fn separable_allocation(&mut self, rt: u32, now: u64) {
        let mut asks = std::mem::take(&mut self.scratch.asks);
        asks.clear();
        for &(created, salt_ivc, ivc) in &self.scratch.reqs {
            let q = self.buf.ivcs[ivc as usize];
            if q.out == NONE || q.ready > now {
                continue;
            }
            let output = if q.out & EJECT != 0 {
                self.c.nc + self.c.eject_terminal(q.out)
            } else if self.buf.ovcs[q.out as usize].credits == 0 || self.waits_for_tail(ivc, now) {
                continue;
            } else {
                q.out / self.c.vd
            };
            let age = if self.c.oldest_first { (created, salt_ivc) } else { (0, 0) };
            asks.push(Request { vc: ivc % self.c.vd, input: ivc / self.c.vd, output, age });
        }
        let mut granted = std::mem::take(&mut self.scratch.granted);
        switch_alloc::allocate(
            self.c.allocator,
            &asks,
            self.c.oldest_first,
            &mut self.pointers,
            &mut granted,
        );
        for (r, _) in asks.iter().zip(&granted).filter(|(_, g)| **g) {
            self.switch_traversal(rt, r.input * self.c.v + r.vc, now);
        }
        self.scratch.asks = asks;
        self.scratch.granted = granted;
    }

    /// Whether input VC `ivc` may send its front flit at `now`: it holds an output; its input
    /// port and that output (a channel, or an ejection port) have moved no flit this cycle
    /// (with speedup: fewer than their grants); a channel's output VC shows a credit (with
    /// output buffers, a free slot). A grant marks the port and the output used (`in_first`,
    /// `out_first`: the router's first input port and output channel).
    #[inline]
    fn switch_allocation(&mut self, ivc: u32, in_first: u32, out_first: u32, now: u64) -> bool {
        let port = ivc / self.c.vd;
        let out = self.buf.ivcs[ivc as usize].out;
        if out == NONE {
            return false;
        }
        let (word, bit) = bit_of(port - in_first);
        // (A port wider than a flit may grant again while it has room this cycle.)
        if self.used.inputs[word] & bit != 0 && !(self.c.regrant && *self.input_room(port as usize, now) > 0)
        {
            return false;
        }
        // (A header granted its VC this cycle waits out its VC allocation stage; onto a wider
        // channel, for its tail.)
        if self.c.gated && (self.buf.ivcs[ivc as usize].ready > now || self.waits_for_tail(ivc, now)) {
            return false;
        }
        if out & EJECT != 0 {
            let t = self.c.eject_terminal(out) as usize;
            if self.used.eject[t] == now.stamp() {
                return false;
            }
            self.used.eject[t] = now.stamp();
        } else {
            let c = (out / self.c.vd) as usize;
            if self.buf.ovcs[out as usize].credits == 0 {
                return false;
            }
            if self.c.out_speedup > 1 {
                let grants = &mut self.used.output_grants[c];
                if grants.0 != now {
                    *grants = (now, 0);
                }
                if grants.1 == self.c.out_speedup {
                    return false;
                }
                grants.1 += 1;
            } else {
                let (word, bit) = bit_of(c as u32 - out_first);
                if self.used.outputs[word] & bit != 0 {
                    return false;
                }
                self.used.outputs[word] |= bit;
            }
        }
        self.used.inputs[word] |= bit;
        true
    }

    /// Whether the header at the front of input VC `ivc`, holding a channel's output VC wider
    /// than its input port, must wait at `now` for its packet's tail: a packet leaves onto a
    /// wider channel only once it is all in the buffer and ready (Raghunath & Ranade 1995,
    /// §5.3 and note d).
    #[inline]
    fn waits_for_tail(&self, ivc: u32, now: u64) -> bool {
        let q = &self.buf.ivcs[ivc as usize];
        if !self.c.wide || !q.header() || q.out & EJECT != 0 {
            return false;
        }
        let width = &self.layout.width;
        if width[(q.out / self.c.vd) as usize] <= width[self.layout.network_port(ivc, self.c.vd) as usize] {
            return false;
        }
        let len = self.pkts.packet(self.buf.front_packet(ivc)).len;
        !self.stored(ivc, len, now)
    }

    /// Switch traversal of a grant: the front flit of input VC `ivc` of router `rt`, and on a
    /// wide output (a channel or the terminals' links) the flits after it up to the output's
    /// width, as long as they are of the same packet, ready and (for a channel) credited.
    #[inline(always)]
    fn switch_traversal(&mut self, rt: u32, ivc: u32, now: u64) {
        self.move_flit(rt, ivc, now, true);
        if self.c.regrant {
            self.burst(rt, ivc, now);
        }
    }

    /// The rest of a grant's burst on a wide output (see `switch_traversal`), and what it
    /// leaves of its input port's room this cycle: a grant moves up to its output's width
    /// (out of a port narrower than that, a packet that waited for its tail leaves at the
    /// output's width), and a port grants again only while it has moved less than its own.
    #[inline(never)]
    fn burst(&mut self, rt: u32, ivc: u32, now: u64) {
        let port = (ivc / self.c.vd) as usize;
        let room = self.input_room(port, now);
        *room = room.saturating_sub(1);
        let out = self.buf.ivcs[ivc as usize].out;
        if out == NONE {
            return;
        }
        let burst = if out & EJECT != 0 {
            self.c.terminal_width
        } else {
            self.layout.width[(out / self.c.vd) as usize]
        };
        for _ in 1..burst {
            let q = self.buf.ivcs[ivc as usize];
            // (The tail has left when the VC lets go of its output.)
            if q.out == NONE || q.len() == 0 || q.ready > now {
                return;
            }
            if out & EJECT == 0 && self.buf.ovcs[out as usize].credits == 0 {
                return;
            }
            self.move_flit(rt, ivc, now, false);
            let room = self.input_room(port, now);
            *room = room.saturating_sub(1);
        }
    }

    /// Input port `port`'s flits left to move in cycle `now` (its width times the input
    /// speedup, less what it moved).
    #[inline]
    fn input_room(&mut self, port: usize, now: u64) -> &mut u32 {
        let room = &mut self.used.input_room[port];
        if room.0 != now {
            *room = (now, self.layout.room[port]);
        }
        &mut room.1
    }

    /// The front flit of input VC `ivc` of router `rt` leaves its buffer (crediting the
    /// sender, for a channel's VC) for its output; `first`: the first flit of its grant, which
    /// counts the channel's busy cycle.
    #[inline(always)]
    fn move_flit(&mut self, rt: u32, ivc: u32, now: u64, first: bool) {
        let port = self.layout.network_port(ivc, self.c.vd);
        let q = self.buf.ivcs[ivc as usize];
        let pkt = self.buf.front_packet(ivc);
        if port < self.c.nc {
            self.buf.ivcs[ivc as usize].depart(now, self.c.warmup);
        }
        if q.tail() && now >= self.c.warmup && !self.stats.granted_early(ivc) {
            // The tail lets go of the output: its hold ends (its grant, in the window, counted).
            let class = self.output_class(q.out);
            let s = &mut self.stats.service[class];
            s.hold_sum = s.hold_sum.wrapping_add(now + 1);
        }
        let tail = self.buf.pop(&self.c, self.layout, rt, ivc, now);
        self.stats.last_move = now;
        let header = q.header();
        if port < self.c.nc {
            // (The output VC feeding it: VC ivc mod V of channel `port`.)
            let o = port * self.c.v + ivc % self.c.vd;
            let d = self.layout.latency(port as usize);
            if !S::SHARDED || self.buf.ovcs.range().contains(&(o as usize)) {
                self.credits.send(o, d);
            } else {
                self.out.credits.push((now + d as u64, o));
            }
        } else if header {
            self.leave_source(pkt, now);
        }
        if q.out & EJECT != 0 {
            self.routers.flits[rt as usize] -= 1;
            self.eject(q.out & !EJECT, pkt, tail, now);
        } else if self.c.ob > 0 {
            // (The flit stays in the router, in its output buffer, or leaves at once.)
            self.take_output(q.out, tail);
            let need = if header { self.link_need(ivc, q.out, pkt) } else { 0 };
            let flit = Queued { pkt, need, tail };
            if !self.through(rt, q.out, flit, now) {
                self.enqueue(q.out, flit);
                self.routers.queued[rt as usize] += 1;
            }
        } else {
            self.routers.flits[rt as usize] -= 1;
            let down = self.take_output(q.out, tail);
            self.send(q.out, down, pkt, header, tail, first, now);
        }
    }

    /// The service class of output `out`: its channel's, or the ejection class.
    #[inline(always)]
    pub(super) fn output_class(&self, out: u32) -> usize {
        if out & EJECT != 0 {
            self.stats.ejection_class()
        } else {
            let kept = self.buf.ovcs[out as usize].class();
            kept.unwrap_or_else(|| self.layout.class[(out / self.c.vd) as usize]) as usize
        }
    }

    /// At the first cycle simulated from the warm-up's end on, before any grant or tail of
    /// it: the input VCs whose front packets hold outputs granted before it, whose tails
    /// must not count ([`Stats::granted_early`]).
    pub(super) fn note_early_grants(&mut self, now: u64) {
        if self.stats.warm || now < self.c.warmup {
            return;
        }
        self.stats.warm = true;
        let range = self.buf.ivcs.range();
        let early = self.buf.ivcs.items().iter().zip(range).filter(|(q, _)| q.out != NONE);
        self.stats.early = early.map(|(_, i)| i as u32).collect();
    }

    /// At the run's end: the grants counted whose tails have not left are taken back, so
    /// that a class counts the packets that took its channels in the window and let them go.
    pub(super) fn uncount_open_grants(&mut self) {
        for i in self.buf.ivcs.range() {
            let q = self.buf.ivcs[i];
            if q.out == NONE {
                continue;
            }
            let (at, wait) = self.buf.pool.taken(q.chunk);
            if at != NEVER {
                let class = self.output_class(q.out);
                let s = &mut self.stats.service[class];
                s.packets -= 1;
                s.wait_sum -= wait;
                s.hold_sum = s.hold_sum.wrapping_add(at);
            }
        }
    }

    /// A flit enters output VC `o`'s output buffer.
    #[inline]
    fn enqueue(&mut self, o: u32, flit: Queued) {
        let (ob, out) = (self.c.ob, &mut self.buf.out);
        let q = &mut out.queues[o as usize];
        let slot = q.head + q.len;
        let slot = if slot >= ob { slot - ob } else { slot };
        q.len += 1;
        out.flits[(o * ob + slot) as usize] = flit;
        out.arbiters[(o / self.c.vd) as usize].queued += 1;
    }

    /// A flit crossing the switch into output VC `o`, when its channel's output buffers are
    /// empty and the downstream credits allow it, leaves on the link now; whether it did.
    /// This is what the router's link stage would do with it later in the cycle (`through`:
    /// it is the only flit there, and nothing changes the link's credits or its arbiter
    /// before then), without queueing it. (Not inlined: inlined into the router's step, it
    /// slowed the input-buffered router on a 65,536-node torus by 10%, by `farm-bench`.)
    #[inline(never)]
    fn through(&mut self, rt: u32, o: u32, flit: Queued, now: u64) -> bool {
        let c = (o / self.c.vd) as usize;
        if !self.c.through || self.buf.out.arbiters[c].queued > 0 {
            return false;
        }
        let link = &mut self.buf.out.queues[o as usize].link;
        if *link == 0 || *link < flit.need {
            return false;
        }
        self.onto_link(rt, o, flit, true, now);
        self.advance_arbiter(c, o % self.c.vd, flit.tail);
        true
    }

    /// A flit of output VC `o`'s output buffer (`first`: its grant's first) leaves on the
    /// link: it frees its slot and takes a downstream credit.
    #[inline(always)]
    fn onto_link(&mut self, rt: u32, o: u32, flit: Queued, first: bool, now: u64) {
        self.buf.out.queues[o as usize].link -= 1;
        self.buf.ovcs[o as usize].credits += 1;
        self.routers.flits[rt as usize] -= 1;
        self.stats.last_move = now;
        let down = self.buf.ovcs[o as usize].down();
        self.send(o, down, flit.pkt, flit.need > 0, flit.tail, first, now);
    }

    /// Channel `c`'s link arbiter, having sent from its VC `k` up to a tail or not: it stays on
    /// the VC, and moves past it after a tail.
    #[inline(always)]
    fn advance_arbiter(&mut self, c: usize, k: u32, tail: bool) {
        self.buf.out.arbiters[c].next = if !tail {
            k
        } else if k + 1 < self.c.v {
            k + 1
        } else {
            0
        };
    }

    /// The credits the header of packet `pkt`, crossing from input VC `ivc` to output VC `o`,
    /// needs on the link: the room its VC allocation asked for (`room_needed`), now of the
    /// downstream buffer.
    fn link_need(&self, ivc: u32, o: u32, pkt: u32) -> u32 {
        let v = self.c.v;
        let pk = self.pkts.packet(pkt);
        self.room_needed(ivc, o / v, self.c.escape && o % v == pk.base, pk, pk.base)
    }

    /// The link stage of router `rt` (with output buffers): each of its channels whose output
    /// buffers hold flits carries some.
    pub fn link_stage(&mut self, rt: u32, now: u64) {
        let (a, b) = (self.layout.out_starts[rt as usize], self.layout.out_starts[rt as usize + 1]);
        for c in a..b {
            if self.buf.out.arbiters[c as usize].queued > 0 {
                self.link_arbitration(rt, c, now);
            }
        }
    }

    /// Channel `c` of router `rt` takes flits from one of its output buffers: of those whose
    /// front flit has the credits it needs (a header: the room its VC allocation asked for;
    /// any other flit: one), one continuing a packet if any does (CAMINOS's in-transit
    /// priority), the first from the channel's rotating pointer; up to the channel's width in
    /// flits of that packet, each credited. The pointer stays on the VC chosen, and moves past
    /// it after a tail.
    fn link_arbitration(&mut self, rt: u32, c: u32, now: u64) {
        let (v, ob) = (self.c.v, self.c.ob);
        let start = self.buf.out.arbiters[c as usize].next;
        let mut pick = NONE;
        for j in 0..v {
            let k = if start + j >= v { start + j - v } else { start + j };
            let o = c * v + k;
            let out = &self.buf.out;
            let q = out.queues[o as usize];
            if q.len == 0 || q.link == 0 {
                continue;
            }
            let need = out.flits[(o * ob + q.head) as usize].need;
            if need == 0 {
                pick = k;
                break;
            }
            if pick == NONE && q.link >= need {
                pick = k;
            }
        }
        if pick == NONE {
            return;
        }
        let o = c * v + pick;
        let width = if self.c.wide { self.layout.width[c as usize] } else { 1 };
        let mut tail = false;
        for i in 0..width {
            let out = &mut self.buf.out;
            let q = &mut out.queues[o as usize];
            let front = out.flits[(o * ob + q.head) as usize];
            if i > 0 && (q.len == 0 || front.need > 0 || q.link == 0) {
                break;
            }
            q.head = if q.head + 1 == ob { 0 } else { q.head + 1 };
            q.len -= 1;
            out.arbiters[c as usize].queued -= 1;
            self.routers.queued[rt as usize] -= 1;
            self.onto_link(rt, o, front, i == 0, now);
            tail = front.tail;
            if tail {
                break;
            }
        }
        self.advance_arbiter(c as usize, pick, tail);
    }

    /// A header leaves its source router: the message's first one ends its source queueing, as
    /// the first hop's start does on the ideal switch. (`at` is the ideal engines' router; here
    /// it marks that this has happened.)
    fn leave_source(&mut self, pkt: u32, now: u64) {
        // SAFETY: this router holds the packet's header, leaving the source router: the message
        // is its source's router's until its first header has left.
        unsafe { self.pkts.route(pkt).left = now };
        let m = unsafe { self.pkts.msg(self.pkts.packet(pkt).msg) };
        if m.at != NONE {
            m.at = NONE;
            m.first_start = now;
        }
    }

    /// A flit takes output VC `o` (a credit, or with output buffers a slot); the tail releases
    /// the VC. Returns the input VC it feeds (read before the writes: a read of the word the
    /// tail's release has just written in part waits for that write to reach the cache).
    #[inline(always)]
    fn take_output(&mut self, o: u32, tail: bool) -> u32 {
        let ov = &mut self.buf.ovcs[o as usize];
        let down = ov.down();
        ov.credits -= 1;
        if tail {
            ov.set_held(false);
        }
        down
    }

    /// Link traversal: a flit of packet `pkt` (its header, its tail) takes output VC `o`'s
    /// channel, to land in input VC `down` its latency later. The first flit of a grant counts
    /// the channel's cycle (busy, and a channel-cycle of transmission).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn send(&mut self, o: u32, down: u32, pkt: u32, header: bool, tail: bool, first: bool, now: u64) {
        let c = (o / self.c.vd) as usize;
        if first {
            if now >= self.c.warmup {
                self.used.busy[c] += 1;
            }
            self.stats.flit_hops += 1;
        }
        if header {
            // SAFETY: this router holds the packet's header (it is sending it).
            unsafe { self.pkts.route(pkt).hops += 1 };
        }
        let (flit, d) = ((if tail { down | TAIL } else { down }, pkt), self.layout.latency(c));
        // (Bound for this shard's routers, or filed in another's after the cycle.)
        if !S::SHARDED || self.buf.ivcs.range().contains(&(down as usize)) {
            self.wires.send(flit, d);
        } else {
            self.out.flits.push((now + d as u64, flit));
        }
    }

    /// Ejection: a flit of packet `pkt` leaves the network through ejection slot `slot` of its
    /// terminal; after the tail the packet is delivered at `now + 1` plus the ejection
    /// channel's latency, and its message with its last packet (handed on: the run delivers
    /// it, and frees the packet's slot, after the cycle).
    fn eject(&mut self, slot: u32, pkt: u32, tail: bool, now: u64) {
        self.stats.buffered -= 1;
        if !tail {
            return;
        }
        let slot = slot as usize;
        self.terms.eject_owner[slot] = NONE;
        // SAFETY: this router ejects the packet's tail: every flit of it is here.
        let (pk, route) = (*self.pkts.packet(pkt), unsafe { *self.pkts.route(pkt) });
        self.out.freed.push(pkt);
        // The tail reaches the terminal over its ejection channel.
        let arrives = now + 1 + self.c.eject_latency;
        if pk.measured {
            let s = &mut self.stats.pstats;
            s.delivered += 1;
            s.nonminimal += u64::from(netwrap_topo::paths::went_nonminimal(route.leg));
            s.latency_sum += arrives - pk.created;
            s.network_sum += arrives - route.left;
        }
        // SAFETY: this is the message's destination's router.
        let left = unsafe { self.pkts.left(pk.msg) };
        *left -= 1;
        if *left == 0 {
            // SAFETY: its last packet is delivered here, a cycle at least after every header
            // left the source.
            let m = unsafe { self.pkts.msg(pk.msg) };
            m.hops = route.hops;
            m.leg = route.leg;
            self.out.delivered.push((pk.msg, arrives));
        }
    }
}

/// Bit `i` of a bitset: its word and the bit within it.
#[inline(always)]
fn bit_of(i: u32) -> (usize, u64) {
    ((i / 64) as usize, 1 << (i % 64))
}

/// Clears a bitset (one word without a call: a router of up to 64 ports or channels).
#[inline(always)]
fn clear(words: &mut [u64]) {
    if let [word] = words {
        *word = 0;
    } else {
        words.fill(0);
    }
}
