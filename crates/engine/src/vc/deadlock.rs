//! The deadlock watch, and the report of a deadlock's cycle of waits.

use super::state::{EJECT, NONE, Vc};
use crate::{Deadlock, DeadlockWait};
use netwrap_topo::{Candidates, Routing};

impl<R: Routing> Vc<'_, R> {
    /// Deadlock watch: no flit has moved for the quiet period and flits are in the network.
    #[inline]
    pub fn deadlocked(&self, now: u64) -> bool {
        self.stats.buffered > 0 && now - self.stats.last_move >= self.c.quiet
    }

    /// The input VC that `ivc`'s front packet waits for (see the parent's Rules), or [`NONE`]:
    /// the downstream VC it has no credit for, or the input VC whose packet holds the output VC
    /// it needs.
    fn waits_for(&self, ivc: u32, cands: &mut Candidates) -> u32 {
        let q = self.buf.ivcs[ivc as usize];
        if q.len == 0 {
            return NONE;
        }
        if q.out != NONE {
            return if q.out & EJECT == 0 { self.layout.down(q.out, self.c.vd) } else { NONE };
        }
        let pk = self.pkts.list[self.buf.front_packet(ivc) as usize];
        let at = self.layout.port_router[(ivc / self.c.vd) as usize];
        // It waits for its deterministic channel (with escape routing, the escape VC), the
        // first VC of its route class where VCs are split by route phase or group.
        let c = if self.c.escape {
            self.routing.escape(at, pk.dst, pk.salt)
        } else {
            self.routing.route(at, self.legs.peek(at, pk.dst, pk.leg), pk.salt, cands);
            cands.as_slice().first().copied()
        };
        let Some(c) = c else { return NONE };
        let base = self.c.class_base(&self.pkts.msgs[pk.msg as usize]);
        let first = self.route_class_vcs(at, ivc, &pk, base).map_or(0, |r| r.start);
        let o = c * self.c.v + first;
        if self.buf.ovcs[o as usize].held {
            self.buf.holder[o as usize]
        } else {
            self.layout.down(o, self.c.vd)
        }
    }

    /// The cycle of waits of a deadlock declared at `now`. In a deadlock every buffered packet
    /// waits, so following the waits from any of them ends in a cycle; the walks start from
    /// the input VCs holding flits in number order, and the first that comes back onto itself
    /// gives the cycle.
    pub fn deadlock_report(&self, now: u64) -> Deadlock {
        let nvc = self.buf.ivcs.len();
        let mut cands = Candidates::default();
        let mut seen = vec![NONE; nvc];
        let mut cycle = Vec::new();
        // (In the Rules' numbering: input VC k of network port q is q·V + k.)
        for start in (0..nvc as u32).map(|i| self.layout.input_vc(i / self.c.vd, i % self.c.vd, self.c.v)) {
            if self.buf.ivcs[start as usize].len == 0 || seen[start as usize] != NONE {
                continue;
            }
            let mut path: Vec<u32> = Vec::new();
            let mut at = start;
            while at != NONE && seen[at as usize] == NONE {
                seen[at as usize] = start;
                path.push(at);
                at = self.waits_for(at, &mut cands);
            }
            if at != NONE && seen[at as usize] == start {
                let from = path.iter().position(|&x| x == at).unwrap_or(0);
                cycle = path[from..].to_vec();
                break;
            }
        }
        let cycle = cycle.into_iter().map(|ivc| self.wait(ivc)).collect();
        Deadlock {
            detected_at: now,
            quiet_cycles: now - self.stats.last_move,
            flits_in_network: self.stats.buffered,
            cycle,
        }
    }

    /// Input VC `ivc` of a deadlock cycle, as the report names it.
    fn wait(&self, ivc: u32) -> DeadlockWait {
        let (v, nc) = (self.c.v, self.c.nc);
        let port = self.layout.network_port(ivc, self.c.vd);
        let pk = self.pkts.list[self.buf.front_packet(ivc) as usize];
        let channel = (port < nc).then_some(port);
        DeadlockWait {
            router: self.layout.port_router[(ivc / v) as usize],
            channel,
            class: channel
                .map(|c| self.net.classes()[self.net.channels()[c as usize].class as usize].clone()),
            terminal: port.checked_sub(nc),
            vc: ivc % v,
            destination: pk.dst,
            source: pk.src,
        }
    }
}
