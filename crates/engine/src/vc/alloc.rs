//! A router's requests in its arbitration order, routing, and VC allocation.

use super::part::{Numbering, Part};
use super::state::{Buffers, EJECT, NONE, OutQueue, OutVc, Packet, Route, Vc};
use super::upper_class;
use crate::params::rotated;
use crate::{NEVER, choose};
use netwrap_topo::paths::split_deroutes;
use netwrap_topo::{ChannelId, Legs, Routing};
use std::ops::Range;

/// Calls `visit(b)` for each bit b set in `words` below `n`: from bit `rot` up, then from bit 0
/// up to `rot` (a round-robin order starting at `rot` < n, or any order with n = 0).
#[inline]
fn for_each_from(words: &[u64], rot: u32, n: u32, mut visit: impl FnMut(u32)) {
    if let [word] = *words {
        // At most 64 input VCs (rot < n ≤ 64): one word, split at `rot`.
        let from_rot = u64::MAX << rot;
        each_bit(word & from_rot, 0, &mut visit);
        each_bit(word & !from_rot, 0, &mut visit);
        return;
    }
    for (lo, hi) in [(rot, n), (0, rot)] {
        let mut w = lo / 64;
        while w * 64 < hi {
            let mut bits = words[w as usize];
            if w == lo / 64 {
                bits &= u64::MAX << (lo % 64);
            }
            if (w + 1) * 64 > hi {
                bits &= u64::MAX >> (64 - hi % 64);
            }
            each_bit(bits, w * 64, &mut visit);
            w += 1;
        }
    }
}

/// Calls `visit(base + i)` for each bit i set in `bits`, lowest first.
#[inline]
fn each_bit(mut bits: u64, base: u32, visit: &mut impl FnMut(u32)) {
    while bits != 0 {
        visit(base + bits.trailing_zeros());
        bits &= bits - 1;
    }
}

impl<R: Routing, S: Numbering> Vc<'_, R, S> {
    /// Router `rt`'s requests at `now`, into `scratch.reqs`: its input VCs holding flits whose
    /// front flit is ready, in port order from the rotating priority on (the round-robin
    /// order), or by (creation, salt, input VC) with oldest-first. The priority advances.
    pub fn requests(&mut self, rt: usize, now: u64) {
        let v = self.c.v;
        let (p0, p1) = (self.layout.starts[rt] as usize, self.layout.starts[rt + 1] as usize);
        let n = (p1 - p0) as u32 * v;
        // (The count's remainder mod n kept beside it, not divided for.)
        let (count, rot) = self.routers.rr[rt];
        let count = count.wrapping_add(1);
        self.routers.rr[rt] = (count, if count == 0 || rot + 1 >= n { 0 } else { rot + 1 });
        let words =
            &self.buf.occupied[self.layout.words_at[rt] as usize..self.layout.words_at[rt + 1] as usize];
        let first = p0 as u32 * v;
        let (ivcs, packets) = (&self.buf.ivcs, &self.pkts);
        let oldest_first = self.c.oldest_first;
        let reqs = &mut self.scratch.reqs;
        reqs.clear();
        for_each_from(words, rot, n, |b| {
            let ivc = first + b;
            let q = &ivcs[ivc as usize];
            if q.ready > now {
                return;
            }
            if oldest_first {
                let pk = packets.packet(q.pkt());
                reqs.push((pk.created, ((pk.salt as u64) << 32) | ivc as u64, ivc));
            } else {
                reqs.push((0, 0, ivc));
            }
        });
        if oldest_first {
            reqs.sort_unstable();
        }
    }

    /// VC allocation at router `rt`: each request without an output, in order, routes its
    /// header and takes an output VC or the ejection port if one is free.
    pub fn vc_allocation(&mut self, rt: u32, now: u64) {
        for i in 0..self.scratch.reqs.len() {
            let ivc = self.scratch.reqs[i].2;
            if self.buf.ivcs[ivc as usize].out == NONE {
                self.allocate(rt, ivc, now);
            }
        }
    }

    /// The header at the front of input VC `ivc` asks for an output.
    fn allocate(&mut self, rt: u32, ivc: u32, now: u64) {
        let q = self.buf.ivcs[ivc as usize];
        let pkt = self.buf.front_packet(ivc);
        let pk = *self.pkts.packet(pkt);
        if self.c.saf && !self.stored(ivc, pk.len, now) {
            return;
        }
        // A header blocked for VCs asks again every cycle: it is routed once per input VC and
        // packet (the routing depends on router, destination and salt only), and its candidates
        // are kept while it waits.
        let fresh = !self.buf.pool.routed(q.chunk);
        if fresh {
            self.route(rt, pkt);
        }
        // SAFETY: this router holds the packet's header (it is at the front of `ivc`).
        let r = unsafe { *self.pkts.route(pkt) };
        // The header's wait: since it was ready at the front of its buffer (`ready`, which is
        // never before it came to the front: a header behind a tail is ready from the cycle
        // after the tail left at the earliest, one entering an empty VC later still).
        let header = q.ready;
        let taken = (now >= self.c.warmup).then(|| (now, now - header));
        let cands = if fresh { self.buf.scratch.as_slice() } else { self.buf.pool.candidates(q.chunk) };
        if cands.is_empty() {
            if !self.request_ejection(ivc, pkt, pk.dst, taken, now) && fresh {
                self.buf.pool.keep(q.chunk, &[]);
            }
            return;
        }
        // The dateline's `by-route` class, for a header entering a ring: whether its route
        // takes the ring's wrap-around channel (dimension order offers one candidate).
        let port = self.layout.network_port(ivc, self.c.vd);
        let entering =
            |d: &[super::Ring]| port >= self.c.nc || d[port as usize].dim() != d[cands[0] as usize].dim();
        let wraps = self.c.by_route
            && !self.layout.dateline.is_empty()
            && entering(&self.layout.dateline)
            && super::route_wraps(
                self.net,
                self.routing,
                &self.layout.dateline,
                cands[0],
                pk.dst,
                pk.salt,
                &mut self.scratch.ahead,
            );
        let o = self.output_vc(rt, ivc, &pk, &r, cands, now, wraps);
        if o != NONE && self.c.dal && split_deroutes(cands).1.contains(&(o / self.c.vd)) {
            // SAFETY: this router holds the packet's header.
            unsafe { self.pkts.route(pkt).leg = Legs::dal_derouted(self.net, r.leg, o / self.c.vd) };
        }
        if o == NONE && fresh {
            let Buffers { pool, scratch, .. } = &mut self.buf;
            pool.keep(q.chunk, scratch.as_slice());
        }
        if o != NONE {
            if self.c.rotate {
                self.vc_next[(o / self.c.vd) as usize] = (o % self.c.vd + 1) % self.c.vd;
            }
            self.buf.ovcs[o as usize].set_held(true);
            self.granted(ivc, o, now);
            self.count_grant(q.chunk, o, taken, now);
        }
    }

    /// Store-and-forward: whether the `len` flits of the front packet of `ivc` are all in the
    /// buffer and ready.
    #[inline]
    pub(super) fn stored(&self, ivc: u32, len: u32, now: u64) -> bool {
        let q = &self.buf.ivcs[ivc as usize];
        q.len() >= len && self.buf.pool.flit(q.chunk, self.c.wrap(q.head() + len - 1)).ready <= now
    }

    /// Routing: the candidates of packet `pkt` at router `rt` (escape routing: every minimal
    /// next hop), into the scratch list. With non-minimal paths the packet first decides its
    /// path (at its source; PAR again at its first hop) by the credits of the channels'
    /// VCs, and heads for its intermediate until it arrives there.
    #[inline]
    fn route(&mut self, rt: u32, pkt: u32) {
        let pk = *self.pkts.packet(pkt);
        // SAFETY: this router holds the packet's header (it is being routed here).
        let mut r = unsafe { *self.pkts.route(pkt) };
        let mut target = pk.dst;
        if self.c.dal {
            let cands = &mut self.buf.scratch;
            self.legs.dal_candidates(self.net, self.routing, rt, pk.dst, pk.salt, r.leg, cands);
            return;
        }
        let Buffers { ovcs, out, scratch: cands, .. } = &mut self.buf;
        if self.legs.active() {
            let (v, depth) = (self.c.v, self.c.depth);
            let (ovcs, link) = (&*ovcs, &out.queues);
            let queue = |c: u32| queue(ovcs, link, v, depth, c);
            let (to, switched) = self.legs.next_target(
                self.net,
                self.routing,
                rt,
                pk.dst,
                pk.salt,
                r.hops,
                &mut r.leg,
                queue,
                cands,
            );
            target = to;
            if switched {
                r.switch_hop = r.hops;
            }
            // SAFETY: as above.
            unsafe { *self.pkts.route(pkt) = r };
        }
        if self.c.escape {
            self.routing.minimal(rt, target, pk.salt, cands);
        } else {
            self.routing.route(rt, target, pk.salt, cands);
        }
    }

    /// The VCs of one route class (`phases`, `dest-group`) the header of `pk` (on its way as
    /// `r`) at input VC `ivc` of router `rt` may take on any channel (`base`: its message
    /// class's first VC); `None` without route classes.
    #[inline]
    pub(super) fn route_class_vcs(
        &self,
        rt: u32,
        ivc: u32,
        pk: &Packet,
        r: &Route,
        base: u32,
    ) -> Option<Range<u32>> {
        let (v, per) = (self.c.v, self.c.per_class);
        let k = if self.c.dest_group {
            self.legs.dest_group_class(rt, pk.dst)
        } else if self.c.phase_classes {
            let port = self.layout.network_port(ivc, self.c.vd);
            let arrived = (port < self.c.nc).then(|| (port, (ivc % v).saturating_sub(base) / per));
            self.legs.phase_class(self.net, arrived, r.switch_hop == r.hops)
        } else {
            return None;
        };
        let lo = base + k.min(self.c.classes - 1) * per;
        Some(lo..lo + per)
    }

    /// A header at its destination takes the lowest of the terminal's ejection slots (one, or
    /// one per VC with `Ejection::EveryVc`) that no packet holds; whether it did.
    fn request_ejection(
        &mut self,
        ivc: u32,
        pkt: u32,
        dst: u32,
        taken: Option<(u64, u64)>,
        now: u64,
    ) -> bool {
        let slots = self.c.eject_slots;
        let Some(slot) =
            (dst * slots..(dst + 1) * slots).find(|&s| self.terms.eject_owner[s as usize] == NONE)
        else {
            return false;
        };
        self.terms.eject_owner[slot as usize] = pkt;
        self.granted(ivc, EJECT | slot, now);
        self.count_grant(self.buf.ivcs[ivc as usize].chunk, EJECT | slot, taken, now);
        true
    }

    /// A header granted output `out` at `now` (its input VC's chunk `chunk`), `taken` (cycle,
    /// wait) if in the measurement window: its packet counts in the output's class now, its
    /// hold as minus `now` until its tail adds the cycle after it leaves (`move_flit`).
    /// The chunk keeps `taken`, for the run's end to take back the grants whose tails are
    /// still to leave. (Counting at the tail alone would read the chunk then, a cache miss
    /// a packet-hop on a large network.)
    #[inline]
    fn count_grant(&mut self, chunk: u32, out: u32, taken: Option<(u64, u64)>, now: u64) {
        self.buf.pool.set_taken(chunk, taken.unwrap_or((NEVER, 0)));
        if let Some((_, wait)) = taken {
            let class = self.output_class(out);
            let s = &mut self.stats.service[class];
            s.packets += 1;
            s.wait_sum += wait;
            s.hold_sum = s.hold_sum.wrapping_sub(now);
        }
    }

    /// Input VC `ivc`'s header is granted output `out` at `now`: it may ask for the switch
    /// once its VC allocation stage is over ([`crate::params::Stages::vc_gap`]).
    #[inline]
    fn granted(&mut self, ivc: u32, out: u32, now: u64) {
        let q = &mut self.buf.ivcs[ivc as usize];
        q.out = out;
        q.ready = q.ready.max(now + self.c.vc_gap);
    }

    /// The output VC the header of `pk` (on its way as `r`) at input VC `ivc` takes among
    /// `cands` (see the parent's Rules), or [`NONE`].
    #[allow(clippy::too_many_arguments)]
    fn output_vc(
        &self,
        rt: u32,
        ivc: u32,
        pk: &Packet,
        r: &Route,
        cands: &[ChannelId],
        now: u64,
        wraps: bool,
    ) -> u32 {
        let (v, base) = (self.c.v, pk.base);
        // (Bubble's dimension-order routing offers one channel.)
        let need = self.room_needed(ivc, cands[0], false, pk, base);
        let route_class = self.route_class_vcs(rt, ivc, pk, r, base);
        let free_vc = |c: u32| -> u32 {
            let range = route_class.clone().unwrap_or_else(|| self.vcs_of(ivc, base, c, wraps));
            let free = |&k: &u32| {
                let ov = self.buf.ovcs[(c * v + k) as usize];
                !ov.held() && ov.credits >= need
            };
            // (Lowest-first is the plain range: the default pays nothing for rotation.)
            let k = if self.c.rotate {
                rotated(range, self.vc_next[c as usize]).find(free)
            } else {
                range.clone().find(free)
            };
            k.map_or(NONE, |k| c * v + k)
        };
        let (minimal, deroutes) = if self.c.dal { split_deroutes(cands) } else { (cands, &[][..]) };
        if !deroutes.is_empty() {
            // DAL: the least-queued deroute with a free VC if the test prefers it to the
            // least-queued minimal hop.
            let (ovcs, link, v, f) = (&self.buf.ovcs, &self.buf.out.queues, self.c.v, self.c.depth);
            let q_min = minimal.iter().map(|&c| queue(ovcs, link, v, f, c)).min().unwrap_or(0);
            let d = choose(deroutes, pk.salt, r.hops, 0, |c| {
                if free_vc(c) != NONE { queue(ovcs, link, v, f, c) } else { u64::MAX }
            });
            let o = free_vc(d);
            if o != NONE && self.legs.dal_prefers_deroute(q_min, minimal.len(), queue(ovcs, link, v, f, d)) {
                return o;
            }
        }
        let c = choose(minimal, pk.salt, r.hops, now, |c| if free_vc(c) != NONE { now } else { now + 1 });
        let o = free_vc(c);
        if o == NONE && self.c.escape { self.escape_vc(rt, ivc, pk, base) } else { o }
    }

    /// The VCs the packet at input VC `ivc` (its class's first VC `base`) may take on channel
    /// `c`: all of its class; with a dateline the upper half from its ring's wrap-around channel
    /// on, the lower before (`by-route`: the upper half along the whole ring if its route
    /// `wraps`, as it enters the ring); with escape routing the adaptive ones, 1 to V − 1.
    #[inline]
    fn vcs_of(&self, ivc: u32, base: u32, c: u32, wraps: bool) -> Range<u32> {
        let top = base + self.c.vcs_in;
        if self.c.escape {
            return base + 1..top;
        }
        if self.layout.dateline.is_empty() {
            return base..top;
        }
        let (port, half) = (self.layout.network_port(ivc, self.c.vd), self.c.half);
        let prev = (port < self.c.nc).then_some((port, ivc % self.c.vd >= base + half));
        let upper = if self.c.by_route {
            match prev {
                Some((p, upper))
                    if self.layout.dateline[p as usize].dim() == self.layout.dateline[c as usize].dim() =>
                {
                    upper
                }
                _ => wraps,
            }
        } else {
            upper_class(&self.layout.dateline, prev, c)
        };
        if upper { base + half..top } else { base..base + half }
    }

    /// The room (flits) the header of `pk` at input VC `ivc` needs to take a VC of channel `c`
    /// (`escape_vc`: its escape VC; `base`: its class's first VC): a packet (`vct`, `saf`) or a
    /// flit (`wormhole`); two packets where it enters a ring — Bubble flow control's entry from
    /// injection or another class (dimension and direction), or escape routing's entry into
    /// the escape ring (it is not already in the escape VC of a channel of that class) on
    /// networks whose routes go round rings. VC allocation asks it of the credits (with output
    /// buffers, of the output buffer), and the link stage of the downstream credits.
    #[inline]
    pub(super) fn room_needed(&self, ivc: u32, c: u32, escape_vc: bool, pk: &Packet, base: u32) -> u32 {
        let (v, class) = (self.c.v, &self.layout.class);
        let whole = if self.c.whole { pk.len } else { 1 };
        // (Read only where a ring's entry matters: the classes are a table apart.)
        let crosses = || class[self.layout.network_port(ivc, self.c.vd) as usize] != class[c as usize];
        let entering = if escape_vc {
            self.c.escape_bubble && (ivc % v != base || crosses())
        } else {
            self.c.bubble && crosses()
        };
        if entering { 2 * whole } else { whole }
    }

    /// No adaptive VC: the escape channel, VC `base` of the dimension-order hop, if free with
    /// room for the packet — for two where it enters the escape ring (it is not already in the
    /// escape VC of a channel of that class) on networks whose routes go round rings.
    fn escape_vc(&self, rt: u32, ivc: u32, pk: &Packet, base: u32) -> u32 {
        let v = self.c.v;
        let e = self.routing.escape(rt, pk.dst, pk.salt).expect("not at the destination");
        let need = self.room_needed(ivc, e, true, pk, base);
        let o = e * v + base;
        let ov = self.buf.ovcs[o as usize];
        if !ov.held() && ov.credits >= need { o } else { NONE }
    }
}

/// A channel's queue as UGAL and DAL read it: the flits its VCs' buffers downstream hold or
/// are owed, by the credits (BookSim's used credits), and those in its output buffers
/// (`depth`: a VC's input and output buffer flits together).
#[inline]
pub(super) fn queue<S: Numbering>(
    ovcs: &Part<OutVc, S>,
    link: &Part<OutQueue, S>,
    v: u32,
    depth: u32,
    c: u32,
) -> u64 {
    let with_link = !link.items().is_empty();
    (c * v..(c + 1) * v)
        .map(|o| {
            let link = if with_link { link[o as usize].link } else { 0 };
            (depth - ovcs[o as usize].credits - link) as u64
        })
        .sum::<u64>()
}
