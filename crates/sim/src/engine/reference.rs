//! The reference path: the same ideal switch simulated flit by flit, cycle by cycle, with
//! explicit output queues. It is slow and obviously faithful to the contract in
//! [`super`]; tests run it beside [`super::ideal`] and require identical results.
//!
//! Each cycle: flits sent last cycle arrive (a header is routed and joins the queue of its
//! next channel, in salt order among same-cycle headers; a body flit is added to its message's
//! entry there); new messages join their first queue with all flits on hand; then every
//! channel sends one flit of the message at the head of its queue, if that flit has arrived.

use super::{Collector, Msg, Outcome, RunSpec, Sources, choose};
use crate::traffic::Destinations;
use netwrap_topo::{Candidates, Network, Routing};
use std::collections::VecDeque;

struct Entry {
    slot: u32,
    hop: u32,
    have: u32,
    sent: u32,
}

/// A flit crossing a channel, to arrive next cycle at the channel's far end.
struct Flit {
    slot: u32,
    index: u32,
    hop: u32,
}

/// Runs the network flit by flit (see the module docs). Channels must have width 1.
pub fn run<R: Routing, D: Destinations>(net: &Network, routing: &R, dests: &D, spec: &RunSpec) -> Outcome {
    assert!(net.channels().iter().all(|c| c.width == 1), "the reference engine models unit-width channels");
    let terminals = net.terminals();
    let channels = net.channels();
    let size = spec.size;
    let mut collector = Collector::new(spec, channels.len(), terminals);
    let (mut sources, mut next_birth) = Sources::new(spec, terminals);
    let mut msgs: Vec<Msg> = Vec::new();
    // Per message, the channels taken so far (u32::MAX: ejection); a flit that crossed
    // `path[h]` joins the queue of `path[h + 1]`.
    let mut path: Vec<Vec<u32>> = Vec::new();
    let mut queues: Vec<VecDeque<Entry>> = (0..channels.len()).map(|_| VecDeque::new()).collect();
    let mut in_transit: Vec<Flit> = Vec::new();
    let mut cands = Candidates::default();
    let mut now = 0u64;
    while now < spec.max_cycles {
        // Arrivals of flits sent last cycle, and new messages: headers first, in salt order.
        let mut headers: Vec<(u64, bool)> = Vec::new();
        let arrived = std::mem::take(&mut in_transit);
        for f in &arrived {
            if f.index == 0 {
                headers.push((((msgs[f.slot as usize].salt as u64) << 32) | f.slot as u64, false));
            }
        }
        for src in 0..terminals {
            if next_birth[src as usize] != now {
                continue;
            }
            let (dst, salt, next) = sources.create(src, now, dests);
            next_birth[src as usize] = next;
            let msg = Msg::new(now, dst, net.inject_router(src), salt, collector.created(src, now));
            msgs.push(msg);
            path.push(Vec::new());
            headers.push((((salt as u64) << 32) | (msgs.len() - 1) as u64, true));
        }
        headers.sort_unstable();
        for &(key, fresh) in &headers {
            let slot = key as u32;
            let m = msgs[slot as usize];
            routing.route(m.at, m.dst, m.salt, &mut cands);
            if cands.is_empty() {
                path[slot as usize].push(u32::MAX);
                if fresh {
                    // Self-addressed: no channel; the processor takes its B flits.
                    collector.delivered(&msgs[slot as usize], now + size as u64);
                }
                continue;
            }
            let backlog = |c: u32| -> u64 {
                now + queues[c as usize].iter().map(|e| (size - e.sent) as u64).sum::<u64>()
            };
            let c = choose(cands.as_slice(), m.salt, m.hops, now, backlog);
            let hop = path[slot as usize].len() as u32;
            queues[c as usize].push_back(Entry { slot, hop, have: if fresh { size } else { 0 }, sent: 0 });
            path[slot as usize].push(c);
            let m = &mut msgs[slot as usize];
            m.hops += 1;
            m.at = channels[c as usize].dst;
        }
        for f in arrived {
            let next = path[f.slot as usize][f.hop as usize + 1];
            if next == u32::MAX {
                if f.index == size - 1 {
                    let m = msgs[f.slot as usize];
                    collector.delivered(&m, now + 1);
                }
            } else {
                let e = queues[next as usize]
                    .iter_mut()
                    .find(|e| e.slot == f.slot)
                    .expect("entry for arriving flit");
                e.have += 1;
            }
        }
        // Each channel sends one flit of its head message.
        for (c, q) in queues.iter_mut().enumerate() {
            let Some(head) = q.front_mut() else { continue };
            if head.sent == head.have {
                collector.stall();
                continue;
            }
            collector.busy(c as u32, now, 1);
            if head.sent == 0 && head.hop == 0 {
                msgs[head.slot as usize].first_start = now;
            }
            in_transit.push(Flit { slot: head.slot, index: head.sent, hop: head.hop });
            head.sent += 1;
            if head.sent == size {
                q.pop_front();
            }
        }
        collector.tick(now);
        if collector.finished(now) {
            break;
        }
        now += 1;
    }
    collector.finish(now, None)
}
