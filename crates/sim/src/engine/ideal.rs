//! The fast path for the ideal switch: one event per message per hop.
//!
//! With unbounded output queues served first come first served, a message granted a channel
//! at cycle s always has its next flit on hand (flit j reaches the queue by a + j ≤ s + j),
//! so it holds the channel for exactly ⌈B / width⌉ consecutive cycles. Its passage can
//! therefore be computed per message: s = max(a, free_at[c]), free_at[c] = s + ⌈B/width⌉,
//! header ready at the next router at s + 1. Events at one cycle are processed in salt order,
//! which realises the FCFS-with-seeded-tie-break rule. `reference.rs` simulates the same
//! network flit by flit; tests check that the two agree exactly.

use super::{Collector, Msg, NEVER, Outcome, RunSpec, Sources, choose};
use crate::calendar::Calendar;
use crate::traffic::Destinations;
use netwrap_topo::{Candidates, Network, Routing};

/// A channel's state.
struct Lane {
    /// Cycle at which the last granted message releases the channel.
    free_at: u64,
    /// Busy cycles after the warm-up.
    busy: u64,
    /// Router the channel enters.
    dst: u32,
    /// Cycles a message holds the channel, ⌈B / width⌉.
    hold: u32,
    /// Flits per cycle.
    width: u32,
}

/// Runs the ideal-switch network to completion (see the module docs).
pub fn run<R: Routing, D: Destinations>(net: &Network, routing: &R, dests: &D, spec: &RunSpec) -> Outcome {
    let terminals = net.terminals();
    let channels = net.channels();
    let size = spec.size as u64;
    // Everything the hot loop touches per channel, in one cache line's worth.
    let mut lanes: Vec<Lane> = channels
        .iter()
        .map(|c| Lane {
            free_at: 0,
            busy: 0,
            dst: c.dst,
            hold: size.div_ceil(c.width as u64) as u32,
            width: c.width.into(),
        })
        .collect();
    let mut flit_hops = 0u64;
    let mut collector = Collector::new(spec, channels.len(), terminals);
    let (mut sources, first) = Sources::new(spec, terminals);
    let mut births: Calendar<u32> = Calendar::new();
    for (t, &at) in first.iter().enumerate() {
        if at != NEVER {
            births.push(at, t as u32);
        }
    }
    let mut events: Calendar<u64> = Calendar::new();
    let mut msgs: Vec<Msg> = Vec::new();
    let mut free: Vec<u32> = Vec::new();
    let mut born = Vec::new();
    let mut due = Vec::new();
    let mut cands = Candidates::default();
    let mut now = 0u64;
    while now < spec.max_cycles {
        events.take(now, &mut due);
        births.take(now, &mut born);
        born.sort_unstable();
        for src in born.drain(..) {
            let (dst, salt, next) = sources.create(src, now, dests);
            if next != NEVER {
                births.push(next, src);
            }
            let msg = Msg::new(now, dst, net.inject_router(src), salt, collector.created(src, now));
            let slot = match free.pop() {
                Some(slot) => {
                    msgs[slot as usize] = msg;
                    slot
                }
                None => {
                    msgs.push(msg);
                    (msgs.len() - 1) as u32
                }
            };
            due.push(((salt as u64) << 32) | slot as u64);
        }
        due.sort_unstable();
        for &ev in &due {
            let slot = ev as u32;
            let m = &mut msgs[slot as usize];
            routing.route(m.at, m.dst, m.salt, &mut cands);
            if cands.is_empty() {
                let m = *m;
                collector.delivered(&m, if m.hops == 0 { now + size } else { m.tail_at + 1 });
                free.push(slot);
                continue;
            }
            let c = choose(cands.as_slice(), m.salt, m.hops, now, |c| lanes[c as usize].free_at);
            let lane = &mut lanes[c as usize];
            let mut start = now.max(lane.free_at);
            if m.in_width != 0 && lane.width > m.in_width {
                start = start.max(m.tail_at);
            }
            let h = lane.hold as u64;
            m.tail_at = start + h;
            m.in_width = lane.width;
            lane.free_at = start + h;
            lane.busy += (start + h).saturating_sub(start.max(spec.warmup));
            flit_hops += h;
            if m.hops == 0 {
                m.first_start = start;
            }
            m.hops += 1;
            m.at = lane.dst;
            events.push(start + 1, ev);
        }
        due.clear();
        collector.tick(now);
        if collector.finished(now) {
            break;
        }
        now += 1;
    }
    let busy: Vec<u64> = lanes.iter().map(|l| l.busy).collect();
    let granted_until: Vec<u64> = lanes.iter().map(|l| l.free_at).collect();
    collector.record_busy(&busy, flit_hops);
    collector.finish(now, Some(&granted_until))
}
