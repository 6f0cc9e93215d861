//! The fast path for the ideal switch: one event per message per hop.
//!
//! With unbounded output queues served first come first served, a message granted a channel
//! at cycle s always has its next flit on hand (flit j reaches the queue by a + j ≤ s + j),
//! so it holds the channel for exactly ⌈B / width⌉ consecutive cycles. Its passage can
//! therefore be computed per message: s = max(a, free_at(c)), free_at(c) = s + ⌈B/width⌉,
//! header ready at the next router at s + 1. Events at one cycle are processed in salt order,
//! which realises the FCFS-with-seeded-tie-break rule. `reference.rs` simulates the same
//! network flit by flit; tests check that the two agree exactly.

use crate::calendar::Calendar;
use crate::traffic::Pattern;
use crate::{Births, Collector, Msg, NEVER, Outcome, RunSpec, choose};
use netwrap_topo::{Candidates, Legs, Network, Routing, TerminalId};

/// A channel's state: everything the hot loop touches per channel, 24 bytes.
struct Lane {
    /// Cycle at which the last granted message releases the channel.
    free_at: u64,
    /// Busy cycles after the warm-up, as granted.
    busy: u64,
    /// Router the channel enters.
    dst: u32,
    /// Flits per cycle: a message of B flits holds the channel ⌈B / width⌉ cycles.
    width: u32,
}

/// Runs the ideal-switch network (see the module docs).
pub fn run<R: Routing>(net: &Network, routing: &R, pattern: &Pattern, spec: &RunSpec) -> Outcome {
    let channels = net.channels();
    let mut lanes: Vec<Lane> =
        channels.iter().map(|c| Lane { free_at: 0, busy: 0, dst: c.dst, width: c.width as u32 }).collect();
    // Widths matter only where they differ (a message waits for its tail before a wider
    // channel); networks of one width skip the lookup.
    let width0 = channels.first().map_or(1, |c| c.width);
    let widths: Option<Vec<u32>> =
        channels.iter().any(|c| c.width != width0).then(|| channels.iter().map(|c| c.width as u32).collect());
    // A message that uses no channel passes to its processor over the terminal's link.
    let terminal_width = net.terminal_width() as u64;
    let mut collector = Collector::new(spec, net);
    let mut births = Births::new(spec, net);
    let mut events: Calendar<u64> = Calendar::new();
    let mut msgs: Vec<Msg> = Vec::new();
    let mut free: Vec<u32> = Vec::new();
    let mut born: Vec<(TerminalId, Msg)> = Vec::new();
    let mut due = Vec::new();
    let mut cands = Candidates::for_network(net);
    let legs = Legs::new(spec.paths, net, spec.groups);
    let mut flit_hops = 0u64;
    // Idle stretches a grant leaves ahead of the clock on a channel (a message waiting for its
    // tail before a wider channel): (channel, from, to). Needed to count exactly the busy
    // cycles granted past the end of the run; dropped once the clock passes them.
    let mut gaps: Vec<(u32, u64, u64)> = Vec::new();
    let mut prune_at = 1024;
    let mut now = 0u64;
    let mut reason = None;
    while now < spec.max_cycles {
        events.take(now, &mut due);
        births.create(now, pattern, net, &mut collector, &mut born);
        let idle = due.is_empty() && born.is_empty();
        for &(_, msg) in &born {
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
            due.push(((msg.salt as u64) << 32) | slot as u64);
        }
        due.sort_unstable();
        // (Events come in salt order, their messages' slots at random: where the messages
        // outgrow the caches, the next ones are prefetched.)
        const AHEAD: usize = 8;
        let prefetch = msgs.len() > 1 << 14;
        for (i, &ev) in due.iter().enumerate() {
            if prefetch && let Some(&ahead) = due.get(i + AHEAD) {
                crate::prefetch(&msgs[ahead as u32 as usize]);
            }
            let slot = ev as u32;
            let m = &mut msgs[slot as usize];
            // UGAL's queue: the cycles a channel is already granted ahead of the clock.
            let queue = |c: u32| lanes[c as usize].free_at.saturating_sub(now);
            let (target, _) =
                legs.next_target(net, routing, m.at, m.dst, m.salt, m.hops, &mut m.leg, queue, &mut cands);
            routing.route(m.at, target, m.salt, &mut cands);
            if cands.is_empty() {
                let m = *m;
                births.deliver(
                    &m,
                    if m.hops == 0 { now + (m.size as u64).div_ceil(terminal_width) } else { m.tail_at + 1 },
                    &mut collector,
                );
                free.push(slot);
                continue;
            }
            let c = choose(cands.as_slice(), m.salt, m.hops, now, |c| lanes[c as usize].free_at);
            let lane = &mut lanes[c as usize];
            let mut start = now.max(lane.free_at);
            let mut width = 0;
            if let Some(w) = &widths {
                width = w[c as usize];
                if m.in_width != 0 && width > m.in_width {
                    start = start.max(m.tail_at);
                }
            }
            let idle_from = now.max(lane.free_at);
            if start > idle_from {
                if gaps.len() >= prune_at {
                    gaps.retain(|g| g.2 > now);
                    prune_at = (2 * gaps.len()).max(1024);
                }
                gaps.push((c, idle_from, start));
            }
            let h = if lane.width == 1 { m.size as u64 } else { (m.size as u64).div_ceil(lane.width as u64) };
            let release = start.saturating_add(h);
            m.tail_at = release;
            m.in_width = width;
            lane.free_at = release;
            lane.busy += release.saturating_sub(start.max(spec.warmup));
            flit_hops += h;
            if m.hops == 0 {
                m.first_start = start;
            }
            m.hops += 1;
            m.at = lane.dst;
            if start < NEVER {
                events.push(start + 1, ev);
            }
        }
        due.clear();
        collector.tick(now);
        reason = collector.stop(now);
        if reason.is_some() {
            break;
        }
        if idle {
            // Nothing happened this cycle: jump to the next cycle at which something does.
            let next = [events.next_after_now(), births.next_after_now(), collector.next_delivery()];
            now = crate::next_busy_cycle(now, next, spec.max_cycles);
        } else {
            now += 1;
        }
    }
    collector.transmitted(flit_hops);
    // Grants run ahead of the clock: take off what lies past the end. A channel's grants are
    // back to back except for the recorded gaps, so that is (free_at − end) minus the gaps
    // beyond the end.
    let (_, end) = collector.end(now, reason);
    let cut = end.max(spec.warmup);
    for (c, from, to) in gaps {
        if to > cut {
            lanes[c as usize].busy += to - from.max(cut);
        }
    }
    for l in &mut lanes {
        l.busy -= l.free_at.saturating_sub(cut).min(l.busy);
    }
    let mut outcome = collector.finish(net, now, reason, lanes.iter().map(|l| l.busy));
    births.close(&mut outcome);
    outcome
}
