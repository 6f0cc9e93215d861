//! The fast path for the ideal switch: one event per message per hop.
//!
//! With unbounded output queues served first come first served, a message granted a channel
//! at cycle s always has its next flit on hand (flit j reaches the queue by a + j ≤ s + j),
//! so it holds the channel for exactly ⌈B / width⌉ consecutive cycles. Its passage can
//! therefore be computed per message: s = max(a, free_at(c)), free_at(c) = s + ⌈B/width⌉,
//! header ready at the next router at s + 1. Events at one cycle are processed in salt order,
//! which realises the FCFS-with-seeded-tie-break rule. `reference.rs` simulates the same
//! network flit by flit; tests check that the two agree exactly.
//!
//! # Threads
//! A run may use several threads ([`crate::Jobs`]). The routers are cut into contiguous
//! shards of router numbers (by coordinates on the families that have them, so that most
//! channels stay inside a shard), each holding its routers' outgoing channels and the events
//! of the messages at its routers. Every cycle each shard processes its events in salt order,
//! on its own thread: an event at a router touches only that router's outgoing channels and
//! its own message, so the shards' orders together are the global one.
//!
//! # Order
//! For the same reason only the order of the events at one router matters: a cycle's events
//! are grouped by router (a list per router, threaded through the cycle's events), the
//! routers taken in increasing order (their channels' state is then read in memory order,
//! which matters once it outgrows the caches) and each router's events in salt order. This
//! equals processing all of them in salt order, which a run did before, without sorting the
//! cycle's events: on a 65,536-node torus sorting them was a third of the instructions.
//! UGAL-global reads queues at other routers, so its events keep the global salt order. A message granted a
//! channel into another shard's router is filed there after the cycle (it is due at s + 1, a
//! later cycle), and the cycle's deliveries reach the collector in event order, merged across
//! the shards: a run is the same for any number of threads, bit for bit. UGAL-global reads the
//! queues along whole paths, so it runs as one shard.

use crate::calendar::Calendar;
use crate::crew::with_crew;
use crate::traffic::Pattern;
use crate::{Births, Collector, Msg, NEVER, Outcome, RunSpec, choose};
use netwrap_topo::{Candidates, Channel, Legs, Network, Routing, TerminalId};
use std::collections::HashMap;
use std::ops::Range;

/// A channel's state, 12 bytes (where it leads and how wide it is are the network's
/// [`netwrap_topo::Channel`], read beside it, not kept twice): on a 1,048,576-node 4-cube the
/// lanes are a quarter of the run's memory.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
struct Lane {
    /// Cycle at which the last granted message releases the channel.
    free_at: u64,
    /// Busy cycles after the warm-up, as granted, modulo 2^32 (the shard counts the wraps:
    /// [`Shard::wraps`]).
    busy: u32,
}

/// Channel `c`'s lane counts `cycles` busy cycles more, its wraps past 2^32 in `wraps`.
#[inline(always)]
fn add_busy(lane: &mut Lane, wraps: &mut HashMap<u32, u64>, c: u32, cycles: u32) {
    let (busy, wrapped) = lane.busy.overflowing_add(cycles);
    lane.busy = busy;
    if wrapped {
        *wraps.entry(c).or_default() += 1;
    }
}

/// What every shard reads and none writes.
struct Ctx<'a, R> {
    net: &'a Network,
    /// The network's channels: where each leads and its flits per cycle (a message of B flits
    /// holds a channel ⌈B / width⌉ cycles).
    channels: &'a [Channel],
    routing: &'a R,
    legs: Legs,
    /// Channels differ in width (a message waits for its tail before a wider channel).
    widths_differ: bool,
    /// A cycle's events are grouped by router (see the module's "Order"): not where the
    /// routing reads channels beyond the event's router (UGAL-global), nor on shards of fewer
    /// than [`BY_ROUTER`] routers.
    by_router: bool,
    /// A message that uses no channel passes to its processor over the terminal's link.
    terminal_width: u64,
    warmup: u64,
}

/// A contiguous range of routers, their outgoing channels and the events of the messages at
/// them (see the module's "Threads").
struct Shard<'a> {
    routers: Range<u32>,
    /// `lanes[i]` is channel `first + i`.
    first: u32,
    lanes: &'a mut [Lane],
    /// Events ([`event`]).
    events: Calendar<u64>,
    /// This cycle's events, in no particular order.
    due: Vec<u64>,
    /// This cycle's events by router (see the module's "Order"): `head[r]` the index in `due`
    /// of the last event at the shard's router r (or [`NO_EVENT`]), each event's top 32 bits
    /// then the index of the one before it at its router; `touched` a bit per router with
    /// events, `summary` a bit per word of `touched` that is not zero.
    head: Vec<u32>,
    touched: Vec<u64>,
    summary: Vec<u64>,
    /// Messages (slots) in processing order, at most [`CHUNK`] and a router's at a time.
    order: Vec<u32>,
    cands: Candidates,
    flit_hops: u64,
    /// Idle stretches a grant leaves ahead of the clock on a channel (a message waiting for
    /// its tail before a wider channel): (channel, from, to). Needed to count exactly the busy
    /// cycles granted past the end of the run; dropped once the clock passes them.
    gaps: Vec<(u32, u64, u64)>,
    prune_at: usize,
    /// The times a channel's busy count passed 2^32 (a window of billions of cycles), by
    /// channel: a lane keeps only the count's low 32 bits.
    wraps: HashMap<u32, u64>,
    /// Events for another shard's router: (cycle, event, router).
    away: Vec<(u64, u64, u32)>,
    /// This cycle's deliveries, in salt order: (salt << 32 | message slot, cycle of delivery).
    delivered: Vec<(u64, u64)>,
}

/// The fewest routers a shard groups its events by (see the module's "Order"): on fewer, all
/// their state stays in the caches and sorting a cycle's few events costs less.
const BY_ROUTER: usize = 4096;

/// Messages taken at a time (their slots in processing order): a cycle's order is not held
/// whole, as on a 1,048,576-node network it would be megabytes.
const CHUNK: usize = 4096;

/// No event (the end of a router's list of events).
const NO_EVENT: u32 = u32::MAX;

/// The event of the message in `slot` (of salt `salt`) at router `router`: router << 32 |
/// slot grouped `by_router`, salt << 32 | slot (their order) otherwise.
#[inline(always)]
fn event(by_router: bool, router: u32, salt: u32, slot: u32) -> u64 {
    ((if by_router { router } else { salt } as u64) << 32) | slot as u64
}

/// The messages in flight, by slot, as the shards share them while they step.
///
/// The messages in flight, by slot, in blocks of [`BLOCK`] that never move: a message is a
/// cache line of its own ([`Msg`]), and a table of such lines that grew by reallocation would
/// be copied whole, not moved in place, the old and the new copies both in memory meanwhile
/// (an eighth more peak memory on a 1,048,576-node 4-cube).
#[derive(Default)]
struct Slots {
    blocks: Vec<Vec<Msg>>,
    /// Each block's first message, for the shards' view ([`Messages`]), on cache lines of
    /// their own: every message's address is read here, by every thread, and a line shared
    /// with another allocation that a thread writes would bounce between the cores.
    starts: Vec<Starts>,
    len: usize,
}

/// Sixteen blocks' first messages, two cache lines.
#[derive(Clone, Copy)]
#[repr(align(128))]
struct Starts([*mut Msg; 16]);

/// Messages a block of [`Slots`] holds.
const BLOCK: usize = 1 << 12;

impl Slots {
    /// Files `msg` in a new slot.
    fn push(&mut self, msg: Msg) -> u32 {
        if self.len.is_multiple_of(BLOCK) {
            self.blocks.push(Vec::with_capacity(BLOCK));
        }
        self.blocks.last_mut().expect("a block with room").push(msg);
        self.len += 1;
        (self.len - 1) as u32
    }

    fn get(&self, slot: u32) -> &Msg {
        &self.blocks[slot as usize / BLOCK][slot as usize % BLOCK]
    }

    fn get_mut(&mut self, slot: u32) -> &mut Msg {
        &mut self.blocks[slot as usize / BLOCK][slot as usize % BLOCK]
    }

    /// The shards' view of the messages, for a cycle.
    fn view(&mut self) -> Messages {
        self.starts.clear();
        for blocks in self.blocks.chunks_mut(16) {
            let mut line = Starts([std::ptr::null_mut(); 16]);
            for (start, block) in line.0.iter_mut().zip(blocks) {
                *start = block.as_mut_ptr();
            }
            self.starts.push(line);
        }
        Messages { starts: self.starts.as_ptr().cast(), len: self.len }
    }
}

/// A message in flight has exactly one event, filed with the shard of the router it is at,
/// and only the shard processing that event reads or writes the message in a cycle: no two
/// shards ever touch one message at once.
#[derive(Clone, Copy)]
struct Messages {
    starts: *const *mut Msg,
    len: usize,
}

// SAFETY: the shards reach disjoint messages (see `Messages`), and the blocks outlive every
// step that uses them (`run` makes the view anew each cycle from the live table).
unsafe impl Send for Messages {}
unsafe impl Sync for Messages {}

impl Messages {
    /// Where the message in `slot` (in range) is.
    #[inline(always)]
    fn at(&self, slot: u32) -> *mut Msg {
        let slot = slot as usize;
        // SAFETY: `slot` is below `len`, so its block is one of the view's.
        unsafe { (*self.starts.add(slot / BLOCK)).add(slot % BLOCK) }
    }

    /// The salt of the message in `slot`.
    ///
    /// # Safety
    /// As [`Messages::get`].
    #[inline(always)]
    unsafe fn salt(&self, slot: u32) -> u32 {
        // SAFETY: by the caller's contract.
        unsafe { self.get(slot).salt }
    }

    /// The message in `slot`.
    ///
    /// # Safety
    /// The caller processes the message's one event this cycle, so no other shard holds it.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, slot: u32) -> &mut Msg {
        assert!((slot as usize) < self.len, "message slot out of range");
        // SAFETY: in range, and exclusive by the caller's contract.
        unsafe { &mut *self.at(slot) }
    }

    #[inline(always)]
    fn prefetch(&self, slot: u32) {
        if (slot as usize) < self.len {
            // SAFETY: in range; the address is only read by the prefetch hint.
            crate::prefetch(unsafe { &*self.at(slot) });
        }
    }
}

/// The shards a run uses: [`crate::Jobs`], at most one per router; one for UGAL-global.
pub(crate) fn shards(net: &Network, spec: &RunSpec) -> usize {
    if !crate::shardable(net, spec.paths.choice, false) {
        return 1;
    }
    spec.record.jobs.threads(net).min(net.routers().max(1) as usize)
}

/// Runs the ideal-switch network (see the module docs).
pub fn run<R: Routing + Sync>(net: &Network, routing: &R, pattern: &Pattern, spec: &RunSpec) -> Outcome {
    run_as(net, routing, pattern, spec, None)
}

/// [`run`], grouping a cycle's events by router (see the module's "Order") as `by_router` says
/// (`None`: on shards of 4,096 routers or more), wherever the routing allows it: tests
/// take both orders on small networks.
pub fn run_as<R: Routing + Sync>(
    net: &Network,
    routing: &R,
    pattern: &Pattern,
    spec: &RunSpec,
    by_router: Option<bool>,
) -> Outcome {
    let channels = net.channels();
    // Shard i holds routers bounds[i]..bounds[i + 1], as equal as can be.
    let n = shards(net, spec);
    let routers = net.routers();
    let by_router = crate::shardable(net, spec.paths.choice, false)
        && by_router.unwrap_or(routers as usize / n >= BY_ROUTER);
    let mut lanes = vec![Lane { free_at: 0, busy: 0 }; channels.len()];
    let width0 = channels.first().map_or(1, |c| c.width);
    let ctx = Ctx {
        net,
        channels,
        routing,
        legs: Legs::new(spec.paths, net, spec.groups),
        widths_differ: channels.iter().any(|c| c.width != width0),
        terminal_width: net.terminal_width() as u64,
        warmup: spec.warmup,
        by_router,
    };
    let bounds: Vec<u32> = (0..=n).map(|i| (i as u64 * routers as u64 / n as u64) as u32).collect();
    let channel_at = |r: u32| if r < routers { net.out_channels(r).start } else { channels.len() as u32 };
    let mut shards = Vec::with_capacity(n);
    let mut rest = &mut lanes[..];
    for w in bounds.windows(2) {
        let (first, end) = (channel_at(w[0]), channel_at(w[1]));
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut((end - first) as usize);
        rest = tail;
        shards.push(Shard {
            routers: w[0]..w[1],
            first,
            lanes: mine,
            events: Calendar::new(),
            due: Vec::new(),
            head: if by_router { vec![NO_EVENT; (w[1] - w[0]) as usize] } else { Vec::new() },
            touched: if by_router { vec![0; (w[1] - w[0]).div_ceil(64) as usize] } else { Vec::new() },
            summary: if by_router { vec![0; (w[1] - w[0]).div_ceil(64 * 64) as usize] } else { Vec::new() },
            order: Vec::new(),
            cands: Candidates::for_network(net),
            flit_hops: 0,
            gaps: Vec::new(),
            prune_at: 1024,
            wraps: HashMap::new(),
            away: Vec::new(),
            delivered: Vec::new(),
        });
    }
    let shard_of = |r: u32| bounds.partition_point(|&b| b <= r) - 1;
    let mut collector = Collector::new(spec, net);
    let mut births = Births::new(spec, net);
    let mut msgs = Slots::default();
    let mut free: Vec<u32> = Vec::new();
    let mut born: Vec<(TerminalId, Msg)> = Vec::new();
    let mut delivered: Vec<(u64, u64)> = Vec::new();
    let step =
        |s: &mut Shard, (now, table, prefetch): (u64, Messages, bool)| s.step(now, table, prefetch, &ctx);
    // (Threads beyond the cores would only wait on each other: they meet by spinning.)
    let threads = n.min(std::thread::available_parallelism().map_or(1, |c| c.get()));
    let ((now, reason), shards) = with_crew(shards, threads, step, |crew| {
        let mut now = 0u64;
        let mut reason = None;
        while now < spec.max_cycles {
            let shards = &mut *crew;
            for s in shards.iter_mut() {
                s.events.take(now, &mut s.due);
            }
            births.create(now, pattern, net, &mut collector, &mut born);
            let idle = born.is_empty() && shards.iter().all(|s| s.due.is_empty());
            for &(_, msg) in &born {
                let slot = match free.pop() {
                    Some(slot) => {
                        *msgs.get_mut(slot) = msg;
                        slot
                    }
                    None => msgs.push(msg),
                };
                shards[shard_of(msg.at)].due.push(event(ctx.by_router, msg.at, msg.salt, slot));
            }
            if !idle {
                // (Events come by router, their messages' slots at random: where the
                // messages outgrow the caches, the next ones are prefetched.)
                shards.step_all((now, msgs.view(), msgs.len > 1 << 14));
                // Messages crossing into another shard are filed there; the deliveries reach
                // the collector in event order (one shard's are in order already).
                for i in 0..shards.len() {
                    let mut away = std::mem::take(&mut shards[i].away);
                    for &(at, ev, rt) in &away {
                        shards[shard_of(rt)].events.push(at, ev);
                    }
                    away.clear();
                    shards[i].away = away;
                }
                let cycle: &[(u64, u64)] = if shards.len() == 1 {
                    &shards[0].delivered
                } else {
                    delivered.clear();
                    shards.iter().for_each(|s| delivered.extend_from_slice(&s.delivered));
                    delivered.sort_unstable();
                    &delivered
                };
                for &(ev, at) in cycle {
                    let slot = ev as u32;
                    births.deliver(msgs.get(slot), at, &mut collector);
                    free.push(slot);
                }
                shards.iter_mut().for_each(|s| s.delivered.clear());
            }
            collector.tick(now);
            reason = collector.stop(now);
            if reason.is_some() {
                break;
            }
            if idle {
                // Nothing happened this cycle: jump to the next cycle at which something does.
                let events = shards.iter().filter_map(|s| s.events.next_after_now()).min();
                let next = [events, births.next_after_now(), collector.next_delivery()];
                now = crate::next_busy_cycle(now, next, spec.max_cycles);
            } else {
                now += 1;
            }
        }
        (now, reason)
    });
    let flit_hops = shards.iter().map(|s| s.flit_hops).sum();
    // Each channel's busy cycles beyond its lane's 32 bits: its wraps, and (below) the gaps.
    let mut beyond: HashMap<u32, u64> = HashMap::new();
    let mut gaps = Vec::new();
    for s in shards {
        beyond.extend(s.wraps.into_iter().map(|(c, w)| (c, w << 32)));
        gaps.extend(s.gaps);
    }
    collector.transmitted(flit_hops);
    // Grants run ahead of the clock: take off what lies past the end. A channel's grants are
    // back to back except for the recorded gaps, so that is (free_at − end) minus the gaps
    // beyond the end.
    let (_, end) = collector.end(now, reason);
    let cut = end.max(spec.warmup);
    for (c, from, to) in gaps {
        if to > cut {
            *beyond.entry(c).or_default() += to - from.max(cut);
        }
    }
    let busy = lanes.iter().enumerate().map(|(c, l)| {
        let busy =
            l.busy as u64 + if beyond.is_empty() { 0 } else { beyond.get(&(c as u32)).map_or(0, |&b| b) };
        busy - l.free_at.saturating_sub(cut).min(busy)
    });
    let mut outcome = collector.finish(net, now, reason, busy);
    births.close(&mut outcome);
    outcome
}

impl Shard<'_> {
    /// The shard's events at `now` (`due`): `by_router`, the routers in increasing order and
    /// each router's events in salt order (see the module's "Order"); all in salt order
    /// otherwise. Each message moves on ([`Shard::hop_all`]), [`CHUNK`] messages at a time.
    fn step<R: Routing>(&mut self, now: u64, msgs: Messages, prefetch: bool, x: &Ctx<R>) {
        let mut due = std::mem::take(&mut self.due);
        let mut order = std::mem::take(&mut self.order);
        if !x.by_router {
            due.sort_unstable();
            for chunk in due.chunks(CHUNK) {
                order.clear();
                order.extend(chunk.iter().map(|&ev| ev as u32));
                self.hop_all(&order, now, msgs, prefetch, x);
            }
        } else {
            let (mut head, mut touched, mut summary) = (
                std::mem::take(&mut self.head),
                std::mem::take(&mut self.touched),
                std::mem::take(&mut self.summary),
            );
            let start = self.routers.start;
            // Each event joins its router's list: its top half becomes the list's next.
            for (i, ev) in due.iter_mut().enumerate() {
                let r = ((*ev >> 32) as u32 - start) as usize;
                if head[r] == NO_EVENT {
                    touched[r / 64] |= 1 << (r % 64);
                    summary[r / 4096] |= 1 << (r / 64 % 64);
                }
                *ev = ((head[r] as u64) << 32) | (*ev & 0xffff_ffff);
                head[r] = i as u32;
            }
            order.clear();
            for (s, summary) in summary.iter_mut().enumerate() {
                let mut words = std::mem::take(summary);
                while words != 0 {
                    let w = s * 64 + words.trailing_zeros() as usize;
                    words &= words - 1;
                    let mut bits = std::mem::take(&mut touched[w]);
                    while bits != 0 {
                        let r = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let from = order.len();
                        let mut i = std::mem::replace(&mut head[r], NO_EVENT);
                        while i != NO_EVENT {
                            order.push(due[i as usize] as u32);
                            i = (due[i as usize] >> 32) as u32;
                        }
                        if order.len() - from > 1 {
                            // (Salt, then slot: the order of the key salt << 32 | slot.)
                            // SAFETY: these are this shard's events, whose messages no other
                            // shard touches.
                            order[from..].sort_unstable_by_key(|&slot| (unsafe { msgs.salt(slot) }, slot));
                        }
                        if order.len() >= CHUNK {
                            self.hop_all(&order, now, msgs, prefetch, x);
                            order.clear();
                        }
                    }
                }
            }
            self.hop_all(&order, now, msgs, prefetch, x);
            (self.head, self.touched, self.summary) = (head, touched, summary);
        }
        due.clear();
        (self.due, self.order) = (due, order);
    }

    /// The messages in `order` (slots), in that order, at `now`: each routes, takes the first
    /// free (or first freed) channel among its candidates and is filed at the next router, or
    /// is delivered.
    fn hop_all<R: Routing>(&mut self, order: &[u32], now: u64, msgs: Messages, prefetch: bool, x: &Ctx<R>) {
        const AHEAD: usize = 8;
        // (The fields apart, as locals: the compiler then keeps them in registers across the
        // calls into the routing.)
        let Shard {
            routers,
            first,
            lanes,
            events,
            cands,
            flit_hops,
            gaps,
            prune_at,
            wraps,
            away,
            delivered,
            ..
        } = self;
        let (first, routers) = (*first, routers.clone());
        let mut hops = 0u64;
        for (i, &slot) in order.iter().enumerate() {
            if prefetch && let Some(&ahead) = order.get(i + AHEAD) {
                msgs.prefetch(ahead);
            }
            // SAFETY: the message in `slot` has its one event at this shard's router.
            let m = unsafe { msgs.get(slot) };
            let lanes_now = &**lanes;
            // UGAL's queue: the cycles a channel is already granted ahead of the clock (the
            // channels leaving this router: this shard's).
            let queue = |c: u32| lanes_now[(c - first) as usize].free_at.saturating_sub(now);
            // (Minimal routes head for the destination: no call for the choice.)
            let target = if x.legs.active() {
                x.legs.next_target(x.net, x.routing, m.at, m.dst, m.salt, m.hops, &mut m.leg, queue, cands).0
            } else {
                m.dst
            };
            x.routing.route(m.at, target, m.salt, cands);
            if cands.is_empty() {
                let at = if m.hops == 0 {
                    now + (m.size as u64).div_ceil(x.terminal_width)
                } else {
                    m.tail_at + 1
                };
                delivered.push((((m.salt as u64) << 32) | slot as u64, at));
                continue;
            }
            let c = choose(cands.as_slice(), m.salt, m.hops, now, |c| lanes[(c - first) as usize].free_at);
            let lane = &mut lanes[(c - first) as usize];
            let channel = x.channels[c as usize];
            let mut start = now.max(lane.free_at);
            let mut width = 0;
            if x.widths_differ {
                width = channel.width as u32;
                if m.in_width != 0 && width > m.in_width {
                    start = start.max(m.tail_at);
                }
            }
            let idle_from = now.max(lane.free_at);
            if start > idle_from {
                if gaps.len() >= *prune_at {
                    gaps.retain(|g| g.2 > now);
                    *prune_at = (2 * gaps.len()).max(1024);
                }
                gaps.push((c, idle_from, start));
            }
            let h = if channel.width == 1 {
                m.size as u64
            } else {
                (m.size as u64).div_ceil(channel.width as u64)
            };
            let release = start.saturating_add(h);
            m.tail_at = release;
            m.in_width = width;
            lane.free_at = release;
            // (At most ⌈B/width⌉ < 2^32 cycles a grant.)
            add_busy(lane, wraps, c, release.saturating_sub(start.max(x.warmup)) as u32);
            hops += h;
            if m.hops == 0 {
                m.first_start = start;
            }
            m.hops += 1;
            m.at = channel.dst;
            if start < NEVER {
                let ev = event(x.by_router, channel.dst, m.salt, slot);
                if routers.contains(&channel.dst) {
                    events.push(start + 1, ev);
                } else {
                    away.push((start + 1, ev, channel.dst));
                }
            }
        }
        *flit_hops += hops;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verification: a channel's busy count past 2^32 cycles (a window of billions of cycles)
    /// is kept whole: the lane's low 32 bits and the wraps, as the run's end adds them.
    #[test]
    fn busy_cycles_past_two_to_the_32_are_kept() {
        let mut lane = Lane { free_at: 0, busy: u32::MAX - 2 };
        let mut wraps = HashMap::new();
        add_busy(&mut lane, &mut wraps, 7, 2);
        assert!(wraps.is_empty());
        add_busy(&mut lane, &mut wraps, 7, 5);
        add_busy(&mut lane, &mut wraps, 7, u32::MAX);
        let total = { lane.busy } as u64 + (wraps[&7] << 32);
        assert_eq!(total, (u32::MAX - 2) as u64 + 2 + 5 + u32::MAX as u64);
        assert_eq!(std::mem::size_of::<Lane>(), 12);
    }
}
