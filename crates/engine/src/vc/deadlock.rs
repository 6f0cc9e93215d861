//! The report of a deadlock's cycle of waits (the watch is the run's: no flit has moved for
//! the quiet period and flits are in the network).

use super::AllShards;
use super::part::Numbering;
use super::state::{EJECT, NONE};
use crate::{Deadlock, DeadlockWait};
use netwrap_topo::{Candidates, Routing};

impl<R: Routing, S: Numbering> AllShards<'_, '_, R, S> {
    /// The input VC that `ivc`'s front packet waits for (see the parent's Rules), or [`NONE`]:
    /// the downstream VC it has no credit for, or the input VC whose packet holds the output VC
    /// it needs (`holders`: each held output VC's).
    fn waits_for(&self, ivc: u32, holders: &[u32], cands: &mut Candidates) -> u32 {
        let s = self.at_ivc(ivc);
        let q = s.buf.ivcs[ivc as usize];
        if q.len() == 0 {
            return NONE;
        }
        if q.out != NONE {
            return if q.out & EJECT == 0 { s.layout.down(q.out, s.c.vd) } else { NONE };
        }
        let front = s.buf.front_packet(ivc);
        // SAFETY: the run is over: one thread reads, and writes nothing.
        let (pk, r) = (*self.pkts.packet(front), unsafe { *self.pkts.route(front) });
        let at = s.layout.port_router[(ivc / s.c.vd) as usize];
        // It waits for its deterministic channel (with escape routing, the escape VC), the
        // first VC of its route class where VCs are split by route phase or group.
        let c = if s.c.escape {
            s.routing.escape(at, pk.dst, pk.salt)
        } else {
            s.routing.route(at, s.legs.peek(at, pk.dst, r.leg), pk.salt, cands);
            cands.as_slice().first().copied()
        };
        let Some(c) = c else { return NONE };
        let first = s.route_class_vcs(at, ivc, &pk, &r, pk.base).map_or(0, |r| r.start);
        let o = c * s.c.v + first;
        if self.at_ovc(o).buf.ovcs[o as usize].held() {
            holders[o as usize]
        } else {
            s.layout.down(o, s.c.vd)
        }
    }

    /// The cycle of waits of a deadlock declared at `now`. In a deadlock every buffered packet
    /// waits, so following the waits from any of them ends in a cycle; the walks start from
    /// the input VCs holding flits in number order, and the first that comes back onto itself
    /// gives the cycle.
    pub fn deadlock_report(&self, now: u64) -> Deadlock {
        let c = self.shards[0].c;
        let nvc = self.shards.last().map_or(0, |s| s.buf.ivcs.range().end);
        let mut cands = Candidates::default();
        let mut seen = vec![NONE; nvc];
        // (Which input VC's packet holds each output VC: the one whose output it is.)
        let mut holders = vec![NONE; (c.nc * c.v) as usize];
        for s in self.shards {
            for (i, q) in s.buf.ivcs.range().zip(s.buf.ivcs.items()) {
                if q.out != NONE && q.out & EJECT == 0 {
                    holders[q.out as usize] = i as u32;
                }
            }
        }
        let mut cycle = Vec::new();
        // (In the Rules' numbering: input VC k of network port q is q·V + k.)
        let layout = self.shards[0].layout;
        for start in (0..nvc as u32).map(|i| layout.input_vc(i / c.vd, i % c.vd, c.v)) {
            if self.at_ivc(start).buf.ivcs[start as usize].len() == 0 || seen[start as usize] != NONE {
                continue;
            }
            let mut path: Vec<u32> = Vec::new();
            let mut at = start;
            while at != NONE && seen[at as usize] == NONE {
                seen[at as usize] = start;
                path.push(at);
                at = self.waits_for(at, &holders, &mut cands);
            }
            if at != NONE && seen[at as usize] == start {
                let from = path.iter().position(|&x| x == at).unwrap_or(0);
                cycle = path[from..].to_vec();
                break;
            }
        }
        let cycle = cycle.into_iter().map(|ivc| self.wait(ivc)).collect();
        let last_move = self.shards.iter().map(|s| s.stats.last_move).max().unwrap_or(0);
        let buffered: i64 = self.shards.iter().map(|s| s.stats.buffered).sum();
        Deadlock { detected_at: now, quiet_cycles: now - last_move, flits_in_network: buffered as u64, cycle }
    }

    /// Input VC `ivc` of a deadlock cycle, as the report names it.
    fn wait(&self, ivc: u32) -> DeadlockWait {
        let s = self.at_ivc(ivc);
        let (v, nc) = (s.c.v, s.c.nc);
        let port = s.layout.network_port(ivc, s.c.vd);
        let pk = self.pkts.packet(s.buf.front_packet(ivc));
        let channel = (port < nc).then_some(port);
        DeadlockWait {
            router: s.layout.port_router[(ivc / v) as usize],
            channel,
            class: channel.map(|c| s.net.classes()[s.net.channels()[c as usize].class as usize].clone()),
            terminal: port.checked_sub(nc),
            vc: ivc % v,
            destination: pk.dst,
            source: pk.src,
        }
    }
}
