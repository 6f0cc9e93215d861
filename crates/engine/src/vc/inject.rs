//! Source queuing and injection: new messages join their terminals' source queues as packets,
//! and each source writes one flit a cycle (its link's width in flits) into its injection
//! channel's buffer.

use super::part::Numbering;
use super::state::{NONE, Packet, Packets, Route, Vc, serve};
use crate::Msg;
use crate::params::rotated;
use netwrap_topo::{Routing, TerminalId};

impl<R: Routing, S: Numbering> Vc<'_, R, S> {
    /// Source queuing: message `msg`, created at `now` at terminal `src` (one of this shard's),
    /// joins its source queue as packets of at most P flits, filed in `pkts`.
    pub fn queue_message(&mut self, pkts: &mut Packets, src: TerminalId, msg: Msg, now: u64) {
        let packet = self.c.packet;
        let (dst, salt, size) = (msg.dst, msg.salt, msg.size);
        let (base, measured) = (self.c.class_base(&msg), msg.seq != crate::UNMEASURED);
        let n = size.div_ceil(packet);
        let m = pkts.add_message(msg, n);
        for i in 0..n {
            let len = if i + 1 < n { packet } else { size - (n - 1) * packet };
            let pk = Packet { created: now, src, msg: m, len, dst, salt, base, measured };
            let route = Route {
                left: now,
                hops: 0,
                leg: netwrap_topo::paths::UNDECIDED,
                switch_hop: NONE,
                next: NONE,
            };
            let id = pkts.add_packet(pk, route);
            let s = src as usize;
            match self.terms.last[s] {
                NONE => self.terms.first[s] = id,
                last => pkts.routes[last as usize].next = id,
            }
            self.terms.last[s] = id;
        }
        if !self.terms.is_active[src as usize] {
            self.terms.is_active[src as usize] = true;
            self.terms.active.push(src);
        }
    }

    /// Injection: each terminal with packets waiting writes one flit into its injection
    /// channel's buffer.
    pub fn inject(&mut self, now: u64) {
        let mut active = std::mem::take(&mut self.terms.active);
        active.retain(|&t| self.inject_flit(t, now));
        self.terms.active = active;
    }

    /// Terminal `t` takes an injection VC for its front packet if it holds none, and writes a
    /// flit if the VC has room; returns whether packets still wait.
    fn inject_flit(&mut self, t: TerminalId, now: u64) -> bool {
        let ti = t as usize;
        if self.terms.vc[ti] == NONE {
            self.take_injection_vc(t, now);
        }
        let ivc = self.terms.vc[ti];
        if ivc != NONE && self.buf.ivcs[ivc as usize].len() < self.c.f {
            let last = self.write_flit(t, ivc, now);
            if self.c.terminal_width > 1 && !last {
                self.write_more(t, ivc, now);
            }
        }
        let keep = self.terms.first[ti] != NONE || self.terms.vc[ti] != NONE;
        self.terms.is_active[ti] = keep;
        keep
    }

    /// The lowest injection VC of the front packet's class that no packet being written holds,
    /// with room for the packet (`vct`, `saf`) or a flit (`wormhole`), seen in the buffer.
    fn take_injection_vc(&mut self, t: TerminalId, now: u64) {
        let ti = t as usize;
        let (v, f) = (self.c.v, self.c.f);
        // (The injection channel's network port number, and its input port.)
        let network_port = self.c.nc + t;
        let port = self.layout.new_port[network_port as usize];
        let pk = self.pkts.packet(self.terms.first[ti]);
        let need = if self.c.whole { pk.len } else { 1 };
        let base = pk.base;
        let vcs = base..base + self.c.vcs_in;
        let (held, ivcs) = (&self.terms.held, &self.buf.ivcs);
        let free = |&k: &u32| !held[(t * v + k) as usize] && f - ivcs[(port * v + k) as usize].len() >= need;
        // (Lowest-first is the plain range: the default pays nothing for rotation.)
        let found = if self.c.rotate {
            rotated(vcs, self.terms.vc_next[ti]).find(free)
        } else {
            vcs.clone().find(free)
        };
        let Some(k) = found else { return };
        // The packet leaves the queue for the VC.
        let pkt = self.terms.first[ti];
        // SAFETY: no router holds the packet yet: it is this shard's terminal's.
        let next = unsafe { self.pkts.route(pkt).next };
        self.terms.first[ti] = next;
        if next == NONE {
            self.terms.last[ti] = NONE;
        }
        self.terms.writing[ti] = pkt;
        self.terms.held[(t * v + k) as usize] = true;
        if self.c.rotate {
            self.terms.vc_next[ti] = (k + 1) % v;
        }
        self.terms.vc[ti] = port * v + k;
        if now >= self.c.warmup {
            self.stats.inj_taken_at[ti] = (now, now - pk.created);
        }
    }

    /// A link wider than a flit writes, after its first flit, up to its width of the packet
    /// while the VC has room.
    #[inline(never)]
    fn write_more(&mut self, t: TerminalId, ivc: u32, now: u64) {
        for _ in 1..self.c.terminal_width {
            if self.buf.ivcs[ivc as usize].len() == self.c.f || self.write_flit(t, ivc, now) {
                return;
            }
        }
    }

    /// Terminal `t` writes its front packet's next flit into injection VC `ivc`; after the
    /// last one it lets go of the VC, and says so.
    #[inline(always)]
    fn write_flit(&mut self, t: TerminalId, ivc: u32, now: u64) -> bool {
        let ti = t as usize;
        let pkt = self.terms.writing[ti];
        // (The injection port's router, from the layout: the terminal's attachment would
        // divide for it.)
        let rt = self.layout.port_router[(ivc / self.c.vd) as usize];
        self.terms.written[ti] += 1;
        let tail = self.terms.written[ti] == self.pkts.packet(pkt).len;
        self.buf.push(&self.c, self.layout, rt, ivc, pkt, tail, now + self.c.inject_latency);
        self.stats.buffered += 1;
        self.stats.last_move = now;
        self.routers.add_flit(rt);
        if tail {
            let class = self.stats.injection_class();
            serve(&mut self.stats.service[class], &mut self.stats.inj_taken_at[ti], now);
            self.terms.written[ti] = 0;
            self.terms.held[(t * self.c.v + ivc % self.c.vd) as usize] = false;
            self.terms.vc[ti] = NONE;
            return true;
        }
        false
    }
}
