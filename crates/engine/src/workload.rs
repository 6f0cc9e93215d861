//! What the terminals do: sources that create messages, processors whose threads wait for
//! their accesses, and memories that serve them and reply. Every engine drives it the same
//! way: `Births::create` at the start of each cycle hands over the messages created in it,
//! `Births::deliver` tells it (possibly a few cycles ahead) when a message will be delivered,
//! and `Births::next_after_now` says when it next has something to do.
//!
//! # Sources
//! - **Open loop** ([`Arrivals::Open`]): each terminal creates messages at intervals of mean
//!   1/m whatever the network does: `geometric` (a Bernoulli trial each cycle, the homework's
//!   App. A; the first message after a geometric gap from cycle 0) or `periodic` (every 1/m
//!   cycles, from a phase drawn uniformly over the first interval; when 1/m is not whole the
//!   intervals alternate between its floor and ceiling so that their mean is 1/m), or
//!   `on-off` (bursty; below).
//! - **On/off** ([`Interval::OnOff`], [`OnOff`]): each terminal is a two-state Markov chain
//!   stepped once a cycle, on for a geometric number of cycles ≥ 1 of mean `burst` (it leaves
//!   the on state after a cycle with probability 1/burst) and off for a geometric number ≥ 1
//!   of mean `idle`; in each on cycle it creates a message with probability
//!   p = m·(burst + idle)/burst, none while off. Its long-run rate is p·burst/(burst + idle) =
//!   m. Without a given idle mean, idle = burst·(1 − m)/m, so p = 1: a burst is a train of
//!   messages in consecutive cycles, of geometric length of mean `burst` (the classic on/off
//!   source; bursts are told apart by at least one idle cycle). Every terminal starts in the
//!   chain's stationary state (on with probability burst/(burst + idle)), so the rate is m
//!   from cycle 0, not only in the long run. The sojourns come from the terminal's
//!   `Interval` stream and the trials within a burst from its traffic stream (by inversion:
//!   a geometric gap; one that runs past the burst's end means no further message in it, the
//!   trials being independent), so a run is reproducible on any thread count.
//! - **Threads** ([`Arrivals::Threads`]; Raghunath & Ranade 1995 §6.2): each processor runs T
//!   threads, each with at most one outstanding access. A thread computes for an interval
//!   (geometric: P(X = x) = (1 − m)^(x−1)·m, x ≥ 1, mean 1/m; or periodic, as above), during
//!   which the processor is busy; at the end of it, in the first cycle after its last busy
//!   cycle, it issues its access and is suspended until the access completes. The processor
//!   then switches to the next thread in round-robin order, which costs one cycle (with T ≥ 2;
//!   one thread switches to nothing), and stalls until that thread's previous access has
//!   completed if it has not. With T = 1 this is the homework's App. D processor: busy for X
//!   cycles, waiting for the access's latency L, so U = E(X) / (E(X) + L) = 1/(1 + m·L).
//!   Every thread starts computing at cycle 0 in turn (thread 0 first); a periodic first
//!   interval is drawn uniformly from 1 to ⌈1/m⌉ so that processors do not start in step.
//!
//! # Accesses, memories and replies
//! A message created by a source is an access's request (its destination the memory, chosen
//! by the destination pattern). Without memories ([`RunSpec::memories`] `None`) the access
//! completes when its request is delivered (App. D with M = 0, the homework's assumption).
//! With memories, the request is served by the destination's memory module: one access at a
//! time, first come first served, each taking M cycles (Raghunath & Ranade's memory conflicts;
//! requests delivered in one cycle are served in order of their access numbers). When its
//! service ends the memory sends a reply of its own size back to the processor, and the access
//! completes when the reply is delivered; a reply size of 0 means the memory answers without a
//! message (App. D's M, added to the request's latency). Round trip = completion − issue.
//!
//! # Traces
//! A replayed trace ([`Arrivals::Trace`]; [`crate::trace`]) takes the sources' place: its
//! records are created at their cycles or after the deliveries they follow, and once they are
//! all created the measured messages are those created so far. A recorder
//! ([`crate::Record::trace`]) writes every message created, in creation order, with what it
//! followed: a reply its request's delivery (wait: the memory's queueing and M), a thread's
//! access the completion of the thread's previous access (the delivery of its reply, or of its
//! request without replies). A replay on the same network therefore creates every message when
//! the recorded run did; on another network it keeps these dependencies, not the round-robin
//! order of a processor's threads nor its memories' queues (an approximation).
//!
//! On a network where replies travel separately ([`Memories::joined`]), the engine runs the
//! request network and the reply network side by side as one network of 2N terminals:
//! terminal p < N is processor p (injecting into the request network, delivered from the reply
//! network), terminal N + d is memory d (delivered from the request network, injecting into
//! the reply network).

use crate::calendar::Calendar;
use crate::deps::DepSource;
use crate::params::{Interval, OnOff};
use crate::rng::{Purpose, Stream, geometric_gap, mix};
use crate::stats::Measured;
use crate::trace::Recorder;
use crate::traffic::{MessageSize, Pattern};
use crate::{Collector, Msg, NEVER, Outcome, RunSpec, UNMEASURED};
use netwrap_topo::{Network, TerminalId};
use serde::Serialize;

/// How messages are created.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arrivals {
    /// Open loop: each terminal creates messages at intervals of mean 1/`rate` (a rate in
    /// (0, 1]) whatever the network does.
    Open {
        /// Request rate m: messages per terminal per cycle.
        rate: f64,
        /// Geometric (Bernoulli trials), periodic or on/off intervals.
        interval: Interval,
        /// An on/off source's sojourns (with [`Interval::OnOff`] only).
        on_off: Option<OnOff>,
    },
    /// Processors of `threads` threads, each waiting for its access (see the module docs).
    Threads {
        /// Request rate m while the processor is busy: the mean interval is 1/m cycles.
        rate: f64,
        /// Geometric or periodic intervals.
        interval: Interval,
        /// Threads per processor, at least 1.
        threads: u32,
    },
    /// Exactly these messages: (creation cycle, source, destination). Used for exact tests;
    /// the destination pattern is not consulted.
    Script(Vec<(u64, TerminalId, TerminalId)>),
    /// The records of a trace, streamed ([`crate::trace`]): the destination pattern, the
    /// sizes and the rate are not consulted.
    Trace(crate::trace::TraceSource),
    /// A collective's messages, generated as they are read ([`crate::collective`]): the
    /// destination pattern, the sizes and the rate are not consulted.
    Collective(crate::collective::Collective),
}

impl Arrivals {
    /// Open-loop Bernoulli arrivals at `rate` (the homework's App. A).
    pub fn bernoulli(rate: f64) -> Self {
        Arrivals::Open { rate, interval: Interval::Geometric, on_off: None }
    }
}

/// The memories that serve accesses and reply to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Memories {
    /// Access time M of a memory module, in cycles.
    pub latency: u64,
    /// Flits of a reply; 0: the memory answers without a message.
    pub reply_size: u32,
    /// Requests and replies travel on two networks run as one (see the module docs): the
    /// network has 2N terminals, N processors then N memories.
    pub joined: bool,
}

/// Marks a message that is a reply: its tag is its access's number with this bit set.
const REPLY: u32 = 1 << 31;
/// The tag of a message that belongs to no tracked access.
pub(crate) const UNTRACKED: u32 = u32::MAX;
const NONE: u32 = u32::MAX;

/// An access in flight.
#[derive(Clone, Copy, Debug)]
struct Access {
    issued: u64,
    /// Cycle its request was delivered to the memory.
    arrived: u64,
    /// Cycle the memory's service of it ended.
    served: u64,
    processor: u32,
    memory: u32,
    thread: u32,
    /// Hops of its request and reply.
    hops: u32,
    /// Measured access number, or [`UNMEASURED`].
    seq: u32,
    salt: u32,
}

/// What the workload measured, when accesses are tracked (threads or memories).
#[derive(Clone, Debug, PartialEq)]
pub struct AccessOutcome {
    /// Processors.
    pub processors: u32,
    /// Threads per processor (`None`: open loop).
    pub threads: Option<u32>,
    /// Processor-cycles spent computing in the window [warm-up, end) (threads only).
    pub busy: u64,
    /// Measured accesses (the first `run.messages` issued at or after the warm-up): their
    /// round trips as latencies, request and reply hops as hops, and the cycles their request
    /// waited at the memory before its service began as source waits.
    pub round_trip: Measured,
    /// Over the completed measured accesses: sum of their requests' latencies (issue to
    /// delivery at the memory).
    pub request_sum: u128,
    /// Sum of their memory times: delivery at the memory to the end of its service (queueing
    /// plus M).
    pub memory_sum: u128,
    /// Sum of their replies' latencies (end of service to delivery at the processor).
    pub reply_sum: u128,
    /// Accesses completed in the window (measured or not).
    pub completed: u64,
    /// Accesses issued in the window.
    pub issued: u64,
}

/// Every processor's random streams (or script).
struct Sources {
    streams: Vec<Stream>,
    /// Per processor, the stream of message lengths (empty for a fixed size).
    size_streams: Vec<Stream>,
    /// Per processor, the stream of compute intervals (threads and periodic phases).
    interval_streams: Vec<Stream>,
    size: MessageSize,
    log_q: f64,
    /// The mean interval 1/m, for periodic intervals.
    period: f64,
    periodic: bool,
    /// Per processor, the fraction of a cycle a periodic interval carries over.
    carry: Vec<f64>,
    /// On/off sources: ln(1 − 1/burst), ln(1 − 1/idle), the stationary probability of being
    /// on, and per processor its current or next burst [start, end) (`log_q` is then that
    /// of the on state's p).
    bursts: Option<Bursts>,
    script: Vec<std::collections::VecDeque<(u64, TerminalId)>>,
}

impl Sources {
    fn new(spec: &RunSpec, processors: u32) -> Self {
        let streams = (0..processors).map(|t| Stream::new(spec.seed, t, Purpose::Traffic)).collect();
        let size_streams = if spec.size.is_random() {
            (0..processors).map(|t| Stream::new(spec.seed, t, Purpose::Size)).collect()
        } else {
            Vec::new()
        };
        let (mut rate, interval) = match spec.arrivals {
            Arrivals::Open { rate, interval, .. } | Arrivals::Threads { rate, interval, .. } => {
                (rate, interval)
            }
            Arrivals::Script(_) | Arrivals::Trace(_) | Arrivals::Collective(_) => (1.0, Interval::Geometric),
        };
        let periodic = interval == Interval::Periodic;
        let bursts = match spec.arrivals {
            Arrivals::Open { interval: Interval::OnOff, on_off, .. } => {
                // The spec layer checks the parameters; a source it did not check is read as
                // well as it can be (p at most 1, sojourns at least a cycle).
                let o = on_off.unwrap_or(OnOff { burst: 1.0, idle: None });
                let burst = o.burst.max(1.0);
                let idle = o.idle.unwrap_or(burst * (1.0 - rate) / rate).max(1.0);
                let p = (rate * (burst + idle) / burst).min(1.0);
                rate = p;
                Some(Bursts {
                    log_on: (-1.0 / burst).ln_1p(),
                    log_off: (-1.0 / idle).ln_1p(),
                    on: burst / (burst + idle),
                    span: vec![(0, 0); processors as usize],
                })
            }
            _ => None,
        };
        let interval_streams =
            if periodic || bursts.is_some() || matches!(spec.arrivals, Arrivals::Threads { .. }) {
                (0..processors).map(|t| Stream::new(spec.seed, t, Purpose::Interval)).collect()
            } else {
                Vec::new()
            };
        let mut script = Vec::new();
        if let Arrivals::Script(list) = &spec.arrivals {
            script = vec![std::collections::VecDeque::new(); processors as usize];
            let mut sorted = list.clone();
            sorted.sort_unstable();
            for (t, src, dst) in sorted {
                script[src as usize].push_back((t, dst));
            }
        }
        Sources {
            streams,
            size_streams,
            interval_streams,
            size: spec.size,
            // ln(1 − m) without cancellation: m = 1e-17 stays 1e-17, not 0.
            log_q: (-rate).ln_1p(),
            period: 1.0 / rate,
            periodic,
            carry: vec![0.0; if periodic { processors as usize } else { 0 }],
            bursts,
            script,
        }
    }

    /// An on/off source's sojourn of mean `1 / (1 − e^log)` cycles, at least 1.
    #[inline]
    fn sojourn(s: &mut Stream, log: f64) -> u64 {
        1u64.saturating_add(geometric_gap(s, log))
    }

    /// On/off processor `p`'s first message at or after cycle `from` (see the module docs).
    fn bursty(&mut self, p: u32, from: u64) -> u64 {
        let Some(b) = &mut self.bursts else { return NEVER };
        let span = &mut b.span[p as usize];
        loop {
            let (start, end) = *span;
            let at = from.max(start);
            if at < end {
                let x = at.saturating_add(geometric_gap(&mut self.streams[p as usize], self.log_q));
                if x < end {
                    return x;
                }
            }
            if end == NEVER {
                return NEVER;
            }
            let s = &mut self.interval_streams[p as usize];
            let next = end.saturating_add(Self::sojourn(s, b.log_off));
            *span = (next, next.saturating_add(Self::sojourn(s, b.log_on)));
        }
    }

    /// Processor `p`'s next compute interval, at least one cycle.
    #[inline]
    fn interval(&mut self, p: u32) -> u64 {
        let s = &mut self.interval_streams[p as usize];
        if self.periodic {
            let c = &mut self.carry[p as usize];
            let x = (*c + self.period).floor();
            *c += self.period - x;
            (x as u64).max(1)
        } else {
            1u64.saturating_add(geometric_gap(s, self.log_q))
        }
    }

    /// A periodic first interval: uniform from 1 to ⌈1/m⌉.
    fn phase(&mut self, p: u32) -> u64 {
        let top = self.period.ceil().min(u32::MAX as f64) as u32;
        1 + self.interval_streams[p as usize].below(top) as u64
    }

    /// Processor `p`'s first open-loop creation cycle ([`NEVER`] if none).
    fn first(&mut self, p: u32) -> u64 {
        if !self.script.is_empty() {
            return self.script[p as usize].front().map_or(NEVER, |m| m.0);
        }
        if self.periodic {
            return self.phase(p) - 1;
        }
        if let Some(b) = &mut self.bursts {
            // The chain's stationary state at cycle 0; a sojourn's remainder is geometric
            // again (memoryless).
            let s = &mut self.interval_streams[p as usize];
            let start = if s.unit_open0() <= b.on { 0 } else { Self::sojourn(s, b.log_off) };
            b.span[p as usize] = (start, start.saturating_add(Self::sojourn(s, b.log_on)));
            return self.bursty(p, 0);
        }
        geometric_gap(&mut self.streams[p as usize], self.log_q)
    }

    /// Processor `p`'s message at cycle `t`: its destination, salt and length.
    #[inline]
    fn message(&mut self, p: TerminalId, pattern: &Pattern) -> (TerminalId, u32, u32) {
        let size = match self.size {
            MessageSize::Fixed(b) => b,
            random => random.pick(&mut self.size_streams[p as usize]),
        };
        let s = &mut self.streams[p as usize];
        if self.script.is_empty() {
            let dst = pattern.pick(p, s);
            return (dst, s.next_u32(), size);
        }
        let (_, dst) =
            self.script[p as usize].pop_front().expect("scripted creation without a scripted message");
        (dst, s.next_u32(), size)
    }

    /// The cycle of open-loop processor `p`'s next message after one at `t`.
    #[inline]
    fn next_open(&mut self, p: TerminalId, t: u64) -> u64 {
        if !self.script.is_empty() {
            return self.script[p as usize].front().map_or(NEVER, |m| m.0);
        }
        if self.periodic {
            return t.saturating_add(self.interval(p));
        }
        if self.bursts.is_some() {
            return self.bursty(p, t.saturating_add(1));
        }
        t.saturating_add(1).saturating_add(geometric_gap(&mut self.streams[p as usize], self.log_q))
    }
}

/// On/off sources' state (see the module docs).
struct Bursts {
    /// ln(1 − 1/burst) and ln(1 − 1/idle): the sojourns' geometric parameters.
    log_on: f64,
    log_off: f64,
    /// The stationary probability of being on, burst/(burst + idle).
    on: f64,
    /// Per processor, its current or next burst: cycles [start, end).
    span: Vec<(u64, u64)>,
}

/// The processors' threads (see the module docs).
struct Threads {
    threads: u32,
    /// Per processor, the thread running or next to run.
    current: Vec<u32>,
    /// Per processor, whether it stalls waiting for its current thread's access.
    stalled: Vec<bool>,
    /// Per processor, the cycle of its last issue.
    last_issue: Vec<u64>,
    /// Per processor × thread, its outstanding access or [`NONE`].
    outstanding: Vec<u32>,
    /// Per processor, its latest busy interval [from, to).
    busy_from: Vec<u64>,
    busy_to: Vec<u64>,
    /// Busy processor-cycles from the warm-up on, as scheduled (intervals may end after the run).
    busy: u64,
}

/// The workload the engines drive: message creation, and with threads or memories the
/// accesses in flight.
pub(crate) struct Births {
    sources: Sources,
    /// Processors whose next message is due, by cycle.
    calendar: Calendar<u32>,
    due: Vec<u32>,
    processors: u32,
    warmup: u64,
    threads: Option<Threads>,
    memories: Option<Memories>,
    /// Tracks accesses (threads or memories); otherwise messages carry no tag.
    track: bool,
    accesses: Vec<Access>,
    free: Vec<u32>,
    /// Tags of messages delivered, by delivery cycle.
    arrived: Calendar<u32>,
    /// Accesses whose memory service ends, by cycle.
    served: Calendar<u32>,
    scratch: Vec<u32>,
    memory_free: Vec<u64>,
    outcome: AccessOutcome,
    /// A dependency graph (a trace, a collective) replayed instead of the sources.
    replay: Option<DepSource>,
    /// Where the messages are recorded as a trace.
    recorder: Option<Recorder>,
}

impl Births {
    pub fn new(spec: &RunSpec, net: &Network) -> Self {
        let joined = spec.memories.is_some_and(|m| m.joined);
        let processors = if joined { net.terminals() / 2 } else { net.terminals() };
        let mut sources = Sources::new(spec, processors);
        let mut calendar = Calendar::new();
        let threads = match spec.arrivals {
            Arrivals::Threads { threads, .. } => {
                let mut th = Threads {
                    threads,
                    current: vec![0; processors as usize],
                    stalled: vec![false; processors as usize],
                    last_issue: vec![0; processors as usize],
                    outstanding: vec![NONE; processors as usize * threads as usize],
                    busy_from: vec![0; processors as usize],
                    busy_to: vec![0; processors as usize],
                    busy: 0,
                };
                for p in 0..processors {
                    let x = if sources.periodic { sources.phase(p) } else { sources.interval(p) };
                    th.schedule(p, 0, x, spec.warmup);
                    calendar.push(x, p);
                }
                Some(th)
            }
            Arrivals::Trace(_) | Arrivals::Collective(_) => None,
            _ => {
                for p in 0..processors {
                    let at = sources.first(p);
                    if at != NEVER {
                        calendar.push(at, p);
                    }
                }
                None
            }
        };
        let track = threads.is_some() || spec.memories.is_some();
        Births {
            sources,
            calendar,
            due: Vec::new(),
            processors,
            warmup: spec.warmup,
            memories: spec.memories,
            outcome: AccessOutcome {
                processors,
                threads: threads.as_ref().map(|t| t.threads),
                busy: 0,
                round_trip: Measured::new(if track { spec.messages } else { 0 }),
                request_sum: 0,
                memory_sum: 0,
                reply_sum: 0,
                completed: 0,
                issued: 0,
            },
            threads,
            track,
            accesses: Vec::new(),
            free: Vec::new(),
            arrived: Calendar::new(),
            served: Calendar::new(),
            scratch: Vec::new(),
            memory_free: vec![0; if spec.memories.is_some() { processors as usize } else { 0 }],
            replay: match &spec.arrivals {
                Arrivals::Trace(t) => Some(DepSource::new(t.nodes(), t.distance, spec.seed)),
                Arrivals::Collective(c) => {
                    Some(DepSource::new(Some(c.nodes()), c.summary().distance, spec.seed))
                }
                _ => None,
            },
            recorder: spec.record.trace.clone().map(|sink| {
                let threads = match spec.arrivals {
                    Arrivals::Threads { threads, .. } => threads as usize,
                    _ => 0,
                };
                Recorder::new(sink, processors as usize * threads)
            }),
        }
    }

    /// The messages created at cycle `now` — replies whose memory service ended, then new
    /// requests in processor order — each registered with `collector` and ready at its
    /// terminal's injection router, into `out` (emptied first). Deliveries due at `now` are
    /// taken first: accesses complete, threads resume, memories start serving.
    #[inline]
    pub fn create(
        &mut self,
        now: u64,
        pattern: &Pattern,
        net: &Network,
        collector: &mut Collector,
        out: &mut Vec<(TerminalId, Msg)>,
    ) {
        out.clear();
        if let Some(r) = &mut self.replay {
            return r.create(now, net, collector, out, self.recorder.as_mut());
        }
        if self.track {
            self.arrivals(now, net, collector, out);
        }
        self.calendar.take(now, &mut self.due);
        if self.due.is_empty() {
            return;
        }
        self.due.sort_unstable();
        let due = std::mem::take(&mut self.due);
        for &p in &due {
            let (dst, salt, size) = self.sources.message(p, pattern);
            if dst == crate::traffic::SILENT {
                // A permutation's fixed point that sends nothing (self traffic excluded, open
                // loop only): its clock runs on, as every processor's does.
                debug_assert!(self.threads.is_none() && !self.track);
                let next = self.sources.next_open(p, now);
                if next != NEVER {
                    self.calendar.push(next, p);
                }
                continue;
            }
            let mut tag = UNTRACKED;
            if self.track {
                tag = self.issue(p, dst, salt, now, collector);
            }
            if let Some(r) = &mut self.recorder {
                // A thread's access follows the completion of its previous one.
                let dep = self
                    .threads
                    .as_ref()
                    .and_then(|th| r.take_done((p * th.threads + th.current[p as usize]) as usize));
                let id = r.message(now, p, dst, size, salt, dep);
                if self.track {
                    r.request(tag, id);
                }
            }
            match &mut self.threads {
                Some(th) => th.switch(p, now, &mut self.sources, &mut self.calendar, self.warmup),
                None => {
                    let next = self.sources.next_open(p, now);
                    if next != NEVER {
                        self.calendar.push(next, p);
                    }
                }
            }
            let dst = self.memory_terminal(dst);
            let seq = collector.created(p, now, size, dst == p);
            out.push((p, Msg::new(now, p, dst, net.inject_router(p), salt, seq, size, tag)));
        }
        self.due = due;
        self.due.clear();
    }

    /// The terminal of memory `d`.
    #[inline]
    fn memory_terminal(&self, d: TerminalId) -> TerminalId {
        if self.memories.is_some_and(|m| m.joined) { d + self.processors } else { d }
    }

    /// Registers processor `p`'s new access to memory `dst`; returns its tag.
    fn issue(&mut self, p: u32, dst: TerminalId, salt: u32, now: u64, collector: &mut Collector) -> u32 {
        let mut seq = UNMEASURED;
        if now >= self.warmup {
            self.outcome.issued += 1;
            let m = &mut self.outcome.round_trip;
            if m.created < m.target {
                seq = m.created as u32;
                m.created += 1;
            }
        }
        collector.access_issued(seq != UNMEASURED);
        let thread = self.threads.as_ref().map_or(NONE, |t| t.current[p as usize]);
        let a = Access {
            issued: now,
            arrived: now,
            served: now,
            processor: p,
            memory: dst,
            thread,
            hops: 0,
            seq,
            salt,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.accesses[id as usize] = a;
                id
            }
            None => {
                self.accesses.push(a);
                (self.accesses.len() - 1) as u32
            }
        };
        if let Some(th) = &mut self.threads {
            th.outstanding[(p * th.threads + thread) as usize] = id;
        }
        id
    }

    /// Deliveries and memory services due at `now`.
    fn arrivals(
        &mut self,
        now: u64,
        net: &Network,
        collector: &mut Collector,
        out: &mut Vec<(TerminalId, Msg)>,
    ) {
        let mut tags = std::mem::take(&mut self.scratch);
        self.arrived.take(now, &mut tags);
        tags.sort_unstable();
        let mut ready = Vec::new();
        for &tag in &tags {
            let id = tag & !REPLY;
            if tag & REPLY != 0 {
                self.complete(id, now, collector);
                continue;
            }
            let a = &mut self.accesses[id as usize];
            a.arrived = now;
            match self.memories {
                None => {
                    a.served = now;
                    self.complete(id, now, collector)
                }
                Some(m) => {
                    let free = &mut self.memory_free[a.memory as usize];
                    let done = now.max(*free).saturating_add(m.latency);
                    *free = done;
                    a.served = done;
                    if done == now {
                        ready.push(id);
                    } else {
                        self.served.push(done, id);
                    }
                }
            }
        }
        tags.clear();
        self.served.take(now, &mut tags);
        tags.extend_from_slice(&ready);
        tags.sort_unstable();
        for &id in &tags {
            let m = self.memories.expect("served without memories");
            if m.reply_size == 0 {
                self.complete(id, now, collector);
                continue;
            }
            let a = self.accesses[id as usize];
            let src = self.memory_terminal(a.memory);
            let seq = collector.created(a.memory, now, m.reply_size, src == a.processor);
            let salt = mix(((a.salt as u64) << 32) | id as u64) as u32;
            let msg =
                Msg::new(now, src, a.processor, net.inject_router(src), salt, seq, m.reply_size, id | REPLY);
            out.push((src, msg));
            if let Some(r) = &mut self.recorder {
                // A reply follows its request's delivery by the memory's time.
                let request = r.id_of(id, false);
                let reply =
                    r.message(now, a.memory, a.processor, m.reply_size, salt, Some((request, a.arrived)));
                r.reply(id, reply);
            }
        }
        tags.clear();
        self.scratch = tags;
    }

    /// Access `id` completes at `now`: its statistics, and its thread resumes.
    fn complete(&mut self, id: u32, now: u64, collector: &mut Collector) {
        let a = self.accesses[id as usize];
        self.free.push(id);
        if now >= self.warmup {
            self.outcome.completed += 1;
        }
        if a.seq != UNMEASURED {
            let o = &mut self.outcome;
            o.round_trip.record(
                a.seq as u64,
                now.saturating_sub(self.warmup),
                now - a.issued,
                a.hops as u64,
                a.served.saturating_sub(a.arrived).saturating_sub(self.memories.map_or(0, |m| m.latency)),
            );
            o.request_sum += (a.arrived - a.issued) as u128;
            o.memory_sum += (a.served - a.arrived) as u128;
            o.reply_sum += (now - a.served) as u128;
        }
        collector.access_completed(now, a.seq != UNMEASURED);
        if let Some(th) = &mut self.threads {
            let p = a.processor;
            if let Some(r) = &mut self.recorder {
                // The access completes with its reply's delivery, or its request's.
                let replied = self.memories.is_some_and(|m| m.reply_size > 0);
                let done = if replied { (r.id_of(id, true), now) } else { (r.id_of(id, false), a.arrived) };
                r.completed((p * th.threads + a.thread) as usize, done.0, done.1);
            }
            th.outstanding[(p * th.threads + a.thread) as usize] = NONE;
            if th.stalled[p as usize] && th.current[p as usize] == a.thread {
                th.stalled[p as usize] = false;
                let switch = if th.threads > 1 { 1 } else { 0 };
                let start = now.max(th.last_issue[p as usize] + switch);
                let x = self.sources.interval(p);
                th.schedule(p, start, x, self.warmup);
                self.calendar.push(start + x, p);
            }
        }
    }

    /// Registers that `m` will be delivered at cycle `at` (not before the clock), with
    /// `collector` and, for an access's message, with the workload.
    #[inline]
    pub fn deliver(&mut self, m: &Msg, at: u64, collector: &mut Collector) {
        collector.delivered(m, at);
        if m.tag != UNTRACKED {
            if let Some(r) = &mut self.replay {
                return r.delivered(m, at);
            }
            self.accesses[(m.tag & !REPLY) as usize].hops += m.hops;
            self.arrived.push(at, m.tag);
        }
    }

    /// The next cycle after the current one at which it has something to do, if any.
    pub fn next_after_now(&self) -> Option<u64> {
        if let Some(r) = &self.replay {
            return r.next_after_now();
        }
        let next = self.calendar.next_after_now();
        if !self.track {
            return next;
        }
        [next, self.arrived.next_after_now(), self.served.next_after_now()].into_iter().flatten().min()
    }

    /// Adds what the workload measured to the run's outcome (its window ends at `o.end`).
    pub fn close(mut self, o: &mut Outcome) {
        if let Some(r) = self.replay.take() {
            o.completion = Some(r.close());
        }
        if !self.track {
            return;
        }
        if let Some(th) = &self.threads {
            // Busy intervals scheduled past the end of the run do not count beyond it.
            let cut = o.end.max(self.warmup);
            let mut busy = th.busy;
            for p in 0..self.processors as usize {
                let from = th.busy_from[p].max(cut);
                busy -= th.busy_to[p].saturating_sub(from).min(busy);
            }
            self.outcome.busy = busy;
        }
        o.accesses = Some(self.outcome);
    }
}

impl Threads {
    /// Processor `p` computes over [start, start + x).
    fn schedule(&mut self, p: u32, start: u64, x: u64, warmup: u64) {
        let end = start.saturating_add(x);
        self.busy_from[p as usize] = start;
        self.busy_to[p as usize] = end;
        self.busy += end.saturating_sub(start.max(warmup));
    }

    /// Processor `p` has issued its current thread's access at `now`: it switches to the next
    /// thread, which computes from the next cycle if its access has completed; otherwise the
    /// processor stalls until it does.
    fn switch(&mut self, p: u32, now: u64, sources: &mut Sources, calendar: &mut Calendar<u32>, warmup: u64) {
        let pi = p as usize;
        self.last_issue[pi] = now;
        let next = (self.current[pi] + 1) % self.threads;
        self.current[pi] = next;
        if self.outstanding[(p * self.threads + next) as usize] == NONE {
            let start = now + 1;
            let x = sources.interval(p);
            self.schedule(p, start, x, warmup);
            calendar.push(start + x, p);
        } else {
            self.stalled[pi] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Record, StopRule};

    /// Every message cycle of `processors` on/off sources at rate `m` up to cycle `horizon`,
    /// per processor.
    fn creations(m: f64, on_off: OnOff, processors: u32, horizon: u64) -> Vec<Vec<u64>> {
        let spec = RunSpec {
            arrivals: Arrivals::Open { rate: m, interval: Interval::OnOff, on_off: Some(on_off) },
            size: MessageSize::Fixed(1),
            memories: None,
            warmup: 0,
            messages: 1,
            max_cycles: horizon,
            seed: 11,
            stop: StopRule::drain(),
            record: Record::default(),
            paths: netwrap_topo::Paths::default(),
            groups: None,
            channel_latency: Vec::new(),
        };
        let mut s = Sources::new(&spec, processors);
        (0..processors)
            .map(|p| {
                let mut v = Vec::new();
                let mut t = s.first(p);
                while t < horizon {
                    v.push(t);
                    t = s.next_open(p, t);
                }
                v
            })
            .collect()
    }

    /// The variance of an on/off source's count of messages in `t` cycles, for large `t`: with
    /// X the on sojourn (mean b, variance b(b − 1)), Y the off one (mean i, variance i(i − 1)),
    /// μ = b + i, the time on in `t` cycles has variance t·(i²·Var X + b²·Var Y)/μ³ (the
    /// renewal-reward central limit theorem, per cycle X − (b/μ)(X + Y)), and each on cycle is
    /// a Bernoulli(p) trial: Var N = p(1 − p)·t·b/μ + p²·Var(time on).
    fn count_variance(b: f64, i: f64, p: f64, t: f64) -> f64 {
        let mu = b + i;
        let on = t * (i * i * b * (b - 1.0) + b * b * i * (i - 1.0)) / mu.powi(3);
        p * (1.0 - p) * t * b / mu + p * p * on
    }

    /// *Verification* of the on/off source's long-run rate: over 16 independent terminals and
    /// 2·10^5 cycles the count of messages is m·16·t within 4 standard deviations of the
    /// count, its variance derived from the process (`count_variance`; the stationary start
    /// makes the mean exact from cycle 0). Cases: a derived idle mean (p = 1: idle =
    /// burst·(1 − m)/m) and a given one (p = m·(b + i)/b = 0.4).
    #[test]
    fn on_off_sources_offer_the_rate() {
        let t = 200_000u64;
        for (m, o, idle, p) in [
            (0.1, OnOff { burst: 8.0, idle: None }, 72.0, 1.0),
            (0.1, OnOff { burst: 4.0, idle: Some(12.0) }, 12.0, 0.4),
        ] {
            assert_eq!(o.at(m).unwrap(), (idle, p));
            let n: usize = creations(m, o, 16, t).iter().map(Vec::len).sum();
            let expected = m * 16.0 * t as f64;
            let sd = (16.0 * count_variance(o.burst, idle, p, t as f64)).sqrt();
            eprintln!("on/off {o:?}: {n} messages, expected {expected} ± {sd:.0} (1 sd)");
            assert!(
                (n as f64 - expected).abs() < 4.0 * sd,
                "{o:?}: {n} messages, expected {expected} ± {sd}"
            );
        }
    }

    /// *Verification* of the sojourns: with p = 1 a burst is a run of messages in consecutive
    /// cycles and an idle spell the gap between runs, geometric of means b = 8 and
    /// i = b(1 − m)/m = 24 at m = 0.25. Their sample means over every complete run of 16
    /// terminals in 10^5 cycles (about 50,000 runs; the last, cut by the horizon, left out) are
    /// within 4 standard errors of b and i (a geometric of mean L ≥ 1 has variance L(L − 1)).
    #[test]
    fn on_off_bursts_and_idle_spells_have_their_means() {
        let (m, b) = (0.25, 8.0);
        let i = b * (1.0 - m) / m;
        let (mut runs, mut gaps) = (Vec::new(), Vec::new());
        for v in creations(m, OnOff { burst: b, idle: None }, 16, 100_000) {
            let mut start = 0;
            for k in 1..v.len() {
                if v[k] != v[k - 1] + 1 {
                    runs.push((k - start) as f64);
                    gaps.push((v[k] - v[k - 1] - 1) as f64);
                    start = k;
                }
            }
        }
        for (what, x, mean) in [("burst", &runs, b), ("idle", &gaps, i)] {
            let n = x.len() as f64;
            let got = x.iter().sum::<f64>() / n;
            let se = (mean * (mean - 1.0) / n).sqrt();
            eprintln!("{what}: mean {got:.3} over {n} spells, expected {mean} ± {se:.3} (1 se)");
            assert!(
                n > 10_000.0 && (got - mean).abs() < 4.0 * se,
                "{what}: mean {got} of {n}, expected {mean} ± {se}"
            );
        }
    }

    /// *Characterisation* of the refusals: p above 1, a derived idle spell under a cycle, and
    /// fewer than one message in 10^6 bursts.
    #[test]
    fn impossible_on_off_sources_are_refused() {
        assert!(OnOff { burst: 4.0, idle: Some(12.0) }.at(0.3).unwrap_err().contains("at most"));
        assert!(OnOff { burst: 4.0, idle: None }.at(0.9).unwrap_err().contains("burst/(burst + 1)"));
        assert!(OnOff { burst: 1.0, idle: Some(1.0) }.at(1e-9).unwrap_err().contains("10^6"));
        assert_eq!(OnOff { burst: 4.0, idle: Some(4.0) }.at(0.5).unwrap(), (4.0, 1.0));
    }
}
