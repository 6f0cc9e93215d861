//! The engines and what they share: message generation, measurement bookkeeping, and the
//! choice among several allowed channels.
//!
//! # The cycle contract (both engines)
//! - Time is an integer cycle count starting at 0.
//! - Each cycle each terminal creates a message with probability m (seed 004 App. A),
//!   drawn as geometric gaps from the terminal's own random stream, with its destination and
//!   a 32-bit tie-break salt from the same stream.
//! - A message created at cycle t is ready at its source router at t. A message whose header
//!   is ready at a router at cycle a may start on its next channel at cycle s ≥ a; it holds the
//!   channel for ⌈B / width⌉ cycles, and its header is ready at the next router at s + 1
//!   (one cycle per hop: switch plus wire, seed 000 §2).
//! - Output ports have unbounded FIFO queues: headers are served in order of arrival; headers
//!   arriving in the same cycle are ordered by salt (then by message slot), a seeded tie-break.
//! - At the destination router the flits pass to the processor as they arrive, uncontended:
//!   a message is delivered the cycle after its last flit reaches its destination router (a
//!   self-addressed message, which uses no channel, B cycles after its creation). With unit
//!   channels a message whose header is ready at its destination at cycle a is delivered at
//!   a + B: unloaded, a message of h hops takes exactly h + B cycles, and the mean is the
//!   model's T0 = n·k_d + B.
//! - A channel of width w carries w flits per cycle. A message may leave a router on a channel
//!   wider than the one it came in on only once its last flit has arrived (seed 003 §5.3,
//!   note d); onto a channel as wide or narrower it cuts through.
//! - Latency T = delivery cycle − creation cycle (seed 000's T, seed 004's "message latency").

pub mod ideal;
pub mod reference;

use crate::rng::{Purpose, Stream, geometric_gap, mix};
use crate::traffic::Destinations;
use netwrap_topo::{ChannelId, TerminalId};
use serde::Serialize;

/// How messages are created.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arrivals {
    /// Each terminal creates a message each cycle with this probability, in (0, 1].
    Bernoulli(f64),
    /// Exactly these messages: (creation cycle, source, destination). Used for exact tests
    /// and traces; the destination distribution is not consulted.
    Script(Vec<(u64, TerminalId, TerminalId)>),
}

/// What to run: workload and run control, already validated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSpec {
    /// How messages are created.
    pub arrivals: Arrivals,
    /// Flits per message, at least 1.
    pub size: u32,
    /// Cycles discarded before measurement starts.
    pub warmup: u64,
    /// Messages created at or after the warm-up whose latency is measured; the run lasts until
    /// all of them are delivered.
    pub messages: u64,
    /// Hard limit on simulated cycles.
    pub max_cycles: u64,
    /// Seed of every random stream.
    pub seed: u64,
}

impl RunSpec {
    /// Bernoulli arrivals at `rate`; the cycle limit is raised past the warm-up if needed.
    pub fn bernoulli(rate: f64, size: u32, warmup: u64, messages: u64, max_cycles: u64, seed: u64) -> Self {
        RunSpec {
            arrivals: Arrivals::Bernoulli(rate),
            size,
            warmup,
            messages,
            max_cycles: max_cycles.max(warmup.saturating_add(1)),
            seed,
        }
    }
}

/// Raw results of one run; [`crate::report`] turns them into statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Cycle at which the run ended: the last measured delivery, or `max_cycles`.
    pub end: u64,
    /// First measured cycle (the warm-up length).
    pub warmup: u64,
    /// True when every measured message was delivered before `max_cycles`.
    pub drained: bool,
    /// Latency of each measured message, in creation order (`u32::MAX`: not delivered).
    pub latencies: Vec<u32>,
    /// Cycles each measured message waited at its source before its first hop started.
    pub source_waits: Vec<u32>,
    /// Hops of each measured message.
    pub hops: Vec<u16>,
    /// Busy cycles of each channel during the measurement window, counted when a message is
    /// scheduled onto the channel.
    pub channel_busy: Vec<u64>,
    /// Messages created in the measurement window, per terminal.
    pub generated: Vec<u32>,
    /// Messages delivered in the measurement window, per terminal (by destination).
    pub delivered: Vec<u32>,
    /// Messages created over the whole run, warm-up included.
    pub messages_total: u64,
    /// Flits moved across channels over the whole run (flit-hops), warm-up included.
    pub flit_hops: u64,
    /// Channel-occupancy checks that failed: a message found its next flit missing when the
    /// channel was granted (always 0 with unbounded queues; the reference engine counts it).
    pub stalls: u64,
}

/// A message in flight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Msg {
    pub created: u64,
    pub first_start: u64,
    /// Cycle at which the message's last flit reaches its current router.
    pub tail_at: u64,
    /// Width of the channel the message arrived on (0 at its source).
    pub in_width: u32,
    pub dst: TerminalId,
    pub at: u32,
    pub salt: u32,
    pub seq: u32,
    pub hops: u16,
}

impl Msg {
    /// A message created at `now`, ready at router `at`, not yet moved.
    pub fn new(now: u64, dst: TerminalId, at: u32, salt: u32, seq: u32) -> Self {
        Msg { created: now, first_start: now, tail_at: now, in_width: 0, dst, at, salt, seq, hops: 0 }
    }
}

pub(crate) const UNMEASURED: u32 = u32::MAX;

/// A terminal that never creates another message.
pub(crate) const NEVER: u64 = u64::MAX;

/// Every terminal's random stream (or script) and the cycle of its next message.
pub(crate) struct Sources {
    streams: Vec<Stream>,
    log_q: f64,
    script: Vec<std::collections::VecDeque<(u64, TerminalId)>>,
}

impl Sources {
    /// Sources for `terminals` terminals, with each terminal's first creation cycle.
    pub fn new(spec: &RunSpec, terminals: u32) -> (Self, Vec<u64>) {
        let mut streams: Vec<Stream> =
            (0..terminals).map(|t| Stream::new(spec.seed, t, Purpose::Traffic)).collect();
        match &spec.arrivals {
            Arrivals::Bernoulli(rate) => {
                let log_q = (1.0 - rate).ln();
                let first = streams.iter_mut().map(|s| geometric_gap(s, log_q)).collect();
                (Sources { streams, log_q, script: Vec::new() }, first)
            }
            Arrivals::Script(list) => {
                let mut script = vec![std::collections::VecDeque::new(); terminals as usize];
                let mut sorted = list.clone();
                sorted.sort_unstable();
                for (t, src, dst) in sorted {
                    script[src as usize].push_back((t, dst));
                }
                let first = script.iter().map(|q| q.front().map_or(NEVER, |m| m.0)).collect();
                (Sources { streams, log_q: 0.0, script }, first)
            }
        }
    }

    /// Creates terminal `src`'s message at cycle `t`: its destination, salt, and the cycle of
    /// the terminal's next message ([`NEVER`] if none).
    #[inline]
    pub fn create<D: Destinations>(&mut self, src: TerminalId, t: u64, dests: &D) -> (TerminalId, u32, u64) {
        let s = &mut self.streams[src as usize];
        if self.script.is_empty() {
            let dst = dests.pick(src, s);
            let salt = s.next_u32();
            let next = t + 1 + geometric_gap(s, self.log_q);
            return (dst, salt, next);
        }
        let q = &mut self.script[src as usize];
        let (_, dst) = q.pop_front().expect("scripted creation without a scripted message");
        (dst, s.next_u32(), q.front().map_or(NEVER, |m| m.0))
    }
}

/// Measurement bookkeeping shared by both engines.
pub(crate) struct Collector {
    warmup: u64,
    target: u64,
    created: u64,
    done: u64,
    last_delivery: u64,
    /// Deliveries not yet reached by the clock, filed by cycle modulo the ring's length
    /// (engines know a delivery at most B + 1 cycles ahead).
    pending: Vec<Vec<(u64, TerminalId)>>,
    out: Outcome,
}

impl Collector {
    pub fn new(spec: &RunSpec, channels: usize, terminals: u32) -> Self {
        let cap = spec.messages.min(1 << 26) as usize;
        Collector {
            warmup: spec.warmup,
            target: spec.messages,
            created: 0,
            done: 0,
            last_delivery: 0,
            pending: vec![Vec::new(); spec.size as usize + 2],
            out: Outcome {
                end: 0,
                warmup: spec.warmup,
                drained: false,
                latencies: Vec::with_capacity(cap),
                source_waits: Vec::with_capacity(cap),
                hops: Vec::with_capacity(cap),
                channel_busy: vec![0; channels],
                generated: vec![0; terminals as usize],
                delivered: vec![0; terminals as usize],
                messages_total: 0,
                flit_hops: 0,
                stalls: 0,
            },
        }
    }

    /// Registers a message created at `t`; returns its measured sequence number, if any.
    #[inline]
    pub fn created(&mut self, src: TerminalId, t: u64) -> u32 {
        self.out.messages_total += 1;
        if t < self.warmup {
            return UNMEASURED;
        }
        self.out.generated[src as usize] += 1;
        if self.created < self.target {
            self.created += 1;
            self.out.latencies.push(u32::MAX);
            self.out.source_waits.push(u32::MAX);
            self.out.hops.push(0);
            (self.created - 1) as u32
        } else {
            UNMEASURED
        }
    }

    /// Records `m`'s delivery at cycle `at` (at most B + 1 cycles after the current one).
    #[inline]
    pub fn delivered(&mut self, m: &Msg, at: u64) {
        if at >= self.warmup {
            let slot = (at % self.pending.len() as u64) as usize;
            self.pending[slot].push((at, m.dst));
        }
        if m.seq != UNMEASURED {
            let i = m.seq as usize;
            self.out.latencies[i] = (at - m.created).min(u32::MAX as u64 - 1) as u32;
            let wait = if m.hops == 0 { 0 } else { m.first_start - m.created };
            self.out.source_waits[i] = wait.min(u32::MAX as u64 - 1) as u32;
            self.out.hops[i] = m.hops;
            self.done += 1;
            self.last_delivery = self.last_delivery.max(at);
        }
    }

    /// Counts the part after the warm-up of an occupancy of `channel` for `cycles` cycles from
    /// `start`.
    #[inline]
    pub fn busy(&mut self, channel: ChannelId, start: u64, cycles: u64) {
        self.out.flit_hops += cycles;
        self.out.channel_busy[channel as usize] += (start + cycles).saturating_sub(start.max(self.warmup));
    }

    /// Takes busy cycles and flit-hops an engine kept itself (instead of calling [`Self::busy`]).
    pub fn record_busy(&mut self, busy: &[u64], flit_hops: u64) {
        self.out.channel_busy.copy_from_slice(busy);
        self.out.flit_hops += flit_hops;
    }

    /// Counts the deliveries that happen at cycle `now`.
    #[inline]
    pub fn tick(&mut self, now: u64) {
        let slot = (now % self.pending.len() as u64) as usize;
        let bucket = &mut self.pending[slot];
        let delivered = &mut self.out.delivered;
        bucket.retain(|&(at, dst)| {
            if at == now {
                delivered[dst as usize] += 1;
            }
            at != now
        });
    }

    /// True once every measured message has been delivered and the clock has reached the cycle
    /// before the last delivery (so the run ends at the same cycle on every engine).
    #[inline]
    pub fn finished(&self, now: u64) -> bool {
        self.done == self.target && now + 1 >= self.last_delivery
    }

    pub fn stall(&mut self) {
        self.out.stalls += 1;
    }

    /// Closes the run at cycle `now` (the cycle being processed when it stopped). The
    /// measurement window is [warm-up, end]: creations and channel cycles before `end`,
    /// deliveries up to it.
    ///
    /// `granted_until[c]`, when given, is the cycle up to which channel `c` was granted ahead of
    /// the clock: an engine that grants ahead only ever appends a grant to a busy channel at
    /// its current end, so what lies past `end` is exactly `granted_until[c] − end`.
    pub fn finish(mut self, now: u64, granted_until: Option<&[u64]>) -> Outcome {
        self.out.drained = self.done == self.target;
        self.out.end = if self.out.drained { self.last_delivery.max(self.warmup + 1) } else { now };
        for t in now..=self.out.end {
            self.tick(t);
        }
        if let Some(until) = granted_until {
            for (busy, &u) in self.out.channel_busy.iter_mut().zip(until) {
                *busy -= u.saturating_sub(self.out.end.max(self.warmup)).min(*busy);
            }
        }
        self.out
    }
}

/// Picks among several allowed channels: a rotation chosen by the message's salt and hop
/// count, then the first channel free at cycle `t`, else the one that frees first.
/// `free_at(c)` is the cycle at which channel `c`'s queue empties.
#[inline]
pub(crate) fn choose(
    cands: &[ChannelId],
    salt: u32,
    hops: u16,
    t: u64,
    free_at: impl Fn(ChannelId) -> u64,
) -> ChannelId {
    if cands.len() == 1 {
        return cands[0];
    }
    let start = (mix(((salt as u64) << 16) | hops as u64) % cands.len() as u64) as usize;
    let mut best = cands[start];
    let mut best_free = free_at(best);
    for i in 0..cands.len() {
        let c = cands[(start + i) % cands.len()];
        let f = free_at(c);
        if f <= t {
            return c;
        }
        if f < best_free {
            best = c;
            best_free = f;
        }
    }
    best
}
