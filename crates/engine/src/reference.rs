//! The reference path: the same ideal switch simulated flit by flit, cycle by cycle, with
//! explicit output queues. It is slow and obviously faithful to the contract in [`super`];
//! tests run it beside [`crate::ideal`] and require identical results.
//!
//! Each cycle: flits sent last cycle arrive (a header is routed and joins the queue of its
//! next channel, in salt order among same-cycle headers; a body flit is added to its message's
//! entry there); new messages join their first queue with all flits on hand; then every
//! channel of width w sends up to w flits of the message at the head of its queue — all of
//! them present, or the check fails and is counted as a stall. A message entering a channel
//! wider than the one it arrived on starts only once all its flits are present.

use crate::traffic::Pattern;
use crate::{Births, Collector, Msg, Outcome, RunSpec, choose};
use netwrap_topo::{Candidates, Legs, Network, Routing};
use std::collections::VecDeque;

struct Entry {
    slot: u32,
    hop: u32,
    have: u32,
    sent: u32,
    /// The message's flits.
    size: u32,
    /// The message came in on a narrower channel: it starts only with every flit present.
    whole: bool,
}

/// A flit crossing a channel, to arrive next cycle at the channel's far end.
struct Flit {
    slot: u32,
    index: u32,
    hop: u32,
}

/// Per message: the channels taken so far (`u32::MAX`: ejection), and the cycle at which its
/// last flit reaches the router it is heading for (known once its header leaves).
#[derive(Default)]
struct Path {
    channels: Vec<u32>,
    tail_at: u64,
}

/// Runs the network flit by flit (see the module docs).
pub fn run<R: Routing>(net: &Network, routing: &R, pattern: &Pattern, spec: &RunSpec) -> Outcome {
    let channels = net.channels();
    let width = |c: u32| channels[c as usize].width as u32;
    let hold = |c: u32, flits: u32| flits.div_ceil(width(c)) as u64;
    let mut collector = Collector::new(spec, net);
    let mut births = Births::new(spec, net);
    let mut born = Vec::new();
    let mut msgs: Vec<Msg> = Vec::new();
    let mut paths: Vec<Path> = Vec::new();
    let mut free: Vec<u32> = Vec::new();
    let mut queues: Vec<VecDeque<Entry>> = (0..channels.len()).map(|_| VecDeque::new()).collect();
    let mut queued = 0usize;
    let mut busy = vec![0u64; channels.len()];
    let mut in_transit: Vec<Flit> = Vec::new();
    let mut cands = Candidates::for_network(net);
    let legs = Legs::new(spec.paths, net, spec.groups);
    let mut now = 0u64;
    let mut reason = None;
    while now < spec.max_cycles {
        // Arrivals of flits sent last cycle, and new messages: headers first, in salt order.
        let mut headers: Vec<(u64, bool)> = Vec::new();
        let arrived = std::mem::take(&mut in_transit);
        for f in &arrived {
            if f.index == 0 {
                headers.push((((msgs[f.slot as usize].salt as u64) << 32) | f.slot as u64, false));
            }
        }
        births.create(now, pattern, net, &mut collector, &mut born);
        for &(_, msg) in &born {
            let slot = match free.pop() {
                Some(s) => {
                    msgs[s as usize] = msg;
                    paths[s as usize].channels.clear();
                    s
                }
                None => {
                    msgs.push(msg);
                    paths.push(Path::default());
                    (msgs.len() - 1) as u32
                }
            };
            headers.push((((msg.salt as u64) << 32) | slot as u64, true));
        }
        headers.sort_unstable();
        for &(key, fresh) in &headers {
            let slot = key as u32;
            let mut m = msgs[slot as usize];
            // When each candidate's queue empties: replay its entries in order.
            let drains = |c: u32| -> u64 {
                let mut t = now;
                for e in &queues[c as usize] {
                    t = if e.sent > 0 {
                        now + hold(c, e.size - e.sent)
                    } else {
                        let tail = if e.whole { paths[e.slot as usize].tail_at } else { 0 };
                        t.max(tail) + hold(c, e.size)
                    };
                }
                t
            };
            let queue = |c: u32| drains(c).saturating_sub(now);
            let (target, _) =
                legs.next_target(net, routing, m.at, m.dst, m.salt, m.hops, &mut m.leg, queue, &mut cands);
            msgs[slot as usize].leg = m.leg;
            routing.route(m.at, target, m.salt, &mut cands);
            if cands.is_empty() {
                paths[slot as usize].channels.push(u32::MAX);
                if fresh {
                    // Self-addressed: no channel; the processor takes its B flits.
                    births.deliver(
                        &m,
                        now + (m.size as u64).div_ceil(net.terminal_width() as u64),
                        &mut collector,
                    );
                    free.push(slot);
                }
                continue;
            }
            let c = choose(cands.as_slice(), m.salt, m.hops, now, drains);
            let hop = paths[slot as usize].channels.len() as u32;
            let whole = m.in_width != 0 && width(c) > m.in_width;
            queues[c as usize].push_back(Entry {
                slot,
                hop,
                have: if fresh { m.size } else { 0 },
                sent: 0,
                size: m.size,
                whole,
            });
            queued += 1;
            paths[slot as usize].channels.push(c);
            let m = &mut msgs[slot as usize];
            m.hops += 1;
            m.at = channels[c as usize].dst;
            m.in_width = width(c);
        }
        for f in arrived {
            let next = paths[f.slot as usize].channels[f.hop as usize + 1];
            if next == u32::MAX {
                if f.index == msgs[f.slot as usize].size - 1 {
                    let m = msgs[f.slot as usize];
                    births.deliver(&m, now + 1, &mut collector);
                    free.push(f.slot);
                }
            } else {
                let e = queues[next as usize]
                    .iter_mut()
                    .find(|e| e.slot == f.slot)
                    .expect("entry for arriving flit");
                e.have += 1;
            }
        }
        // Each channel sends up to its width in flits of its head message.
        for (c, q) in queues.iter_mut().enumerate() {
            let Some(head) = q.front_mut() else { continue };
            let size = head.size;
            if head.sent == 0 && head.whole && head.have < size {
                continue; // waiting for its tail before a wider channel
            }
            let n = width(c as u32).min(size - head.sent);
            if head.have - head.sent < n {
                collector.stall();
                continue;
            }
            if now >= spec.warmup {
                busy[c] += 1;
            }
            collector.transmitted(1);
            if head.sent == 0 {
                if head.hop == 0 {
                    msgs[head.slot as usize].first_start = now;
                }
                paths[head.slot as usize].tail_at = now + hold(c as u32, size);
            }
            for i in 0..n {
                in_transit.push(Flit { slot: head.slot, index: head.sent + i, hop: head.hop });
            }
            head.sent += n;
            if head.sent == size {
                q.pop_front();
                queued -= 1;
            }
        }
        collector.tick(now);
        reason = collector.stop(now);
        if reason.is_some() {
            break;
        }
        if in_transit.is_empty() && queued == 0 {
            // Nothing moves until the next creation or delivery: jump there.
            let next = births
                .next_after_now()
                .into_iter()
                .chain(collector.next_delivery())
                .min()
                .unwrap_or(u64::MAX);
            now = next.clamp(now + 1, spec.max_cycles.max(now + 1));
        } else {
            now += 1;
        }
    }
    let mut outcome = collector.finish(net, now, reason, busy.into_iter());
    births.close(&mut outcome);
    outcome
}
