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

/// Runs the ideal-switch network to completion (see the module docs).
pub fn run<R: Routing, D: Destinations>(net: &Network, routing: &R, dests: &D, spec: &RunSpec) -> Outcome {
    let terminals = net.terminals();
    let channels = net.channels();
    let size = spec.size as u64;
    let hold: Vec<u64> = channels.iter().map(|c| size.div_ceil(c.width as u64)).collect();
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
    let mut free_at = vec![0u64; channels.len()];
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
            let msg = Msg {
                created: now,
                first_start: now,
                dst,
                at: net.inject_router(src),
                salt,
                seq: collector.created(src, now),
                hops: 0,
            };
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
                collector.delivered(&m, now + size);
                free.push(slot);
                continue;
            }
            let c = choose(cands.as_slice(), m.salt, m.hops, now, |c| free_at[c as usize]);
            let start = now.max(free_at[c as usize]);
            let h = hold[c as usize];
            free_at[c as usize] = start + h;
            collector.busy(c, start, h);
            if m.hops == 0 {
                m.first_start = start;
            }
            m.hops += 1;
            m.at = channels[c as usize].dst;
            events.push(start + 1, ev);
        }
        due.clear();
        collector.tick(now);
        if collector.finished(now) {
            break;
        }
        now += 1;
    }
    collector.finish(now, Some(&free_at))
}
