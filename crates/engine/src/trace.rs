//! Traces as the engine sees them: a replayed trace comes in as an iterator of
//! [`TraceRecord`]s ([`TraceSource`]), and a recorded run's messages go out to a
//! [`MessageLog`] as records. Files, their formats and their errors are the spec layer's
//! (`netwrap_sim::trace`); the engine opens nothing.
//!
//! A record's `after` and `wait` say that it is created `wait` cycles after message `after` is
//! delivered; its `cycle` says when it was created in the recorded run and orders the trace.
//!
//! # Replay
//! A trace is replayed by the one dependency-driven message source ([`crate::deps`]), each
//! record a node with at most one dependency: an independent record is created at its `cycle`,
//! a dependent one `wait` cycles after its `after` message is delivered; records due in the
//! same cycle are created in id order. The records are read a little ahead of the clock (every
//! record whose `cycle` has come, and, for dependent records, up to [`TraceSource::distance`]
//! ids ahead), so memory does not grow with the trace's length.

use std::fmt;
use std::sync::{Arc, Mutex};

/// One message of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceRecord {
    /// The record's number: 0, 1, 2, … in file order.
    pub id: u64,
    /// Creation cycle (of a dependent record: its creation in the recorded run).
    pub cycle: u64,
    /// Source node.
    pub source: u32,
    /// Destination node.
    pub destination: u32,
    /// Flits, at least 1.
    pub size: u32,
    /// The earlier record whose delivery this one waits for.
    pub after: Option<u64>,
    /// Cycles from that delivery to this message's creation (0 without `after`).
    pub wait: u64,
    /// Tie-break salt (absent: drawn from the seed and the id).
    pub salt: Option<u32>,
}

/// The records of a trace to replay, in order (ids 0, 1, 2, …, cycles nondecreasing, every
/// `after` an earlier id, nodes within the network: the caller checks them), read by one run;
/// or a trace's dependency graph as nodes ([`TraceSource::graph`]: a record may wait for
/// several others, through joins).
#[derive(Clone)]
pub struct TraceSource {
    records: Arc<Mutex<Option<crate::deps::Nodes>>>,
    /// The largest `id − after` of a dependent record (0 without any): how far ahead of its
    /// creations a replay reads.
    pub distance: u64,
    /// What the trace is (its file's name), as a run's spec shows it.
    pub name: String,
}

impl TraceSource {
    /// `records`, named `name`, whose dependent records lie at most `distance` ids after the
    /// record they follow. The records are taken by the first run that replays them.
    pub fn new(
        name: impl Into<String>,
        distance: u64,
        records: impl Iterator<Item = TraceRecord> + Send + 'static,
    ) -> Self {
        Self::graph(name, distance, records.map(crate::deps::Node::from))
    }

    /// A trace given as the dependency-driven source's nodes ([`crate::deps::Node`]: ids 0, 1,
    /// 2, …, independent nodes' cycles nondecreasing, every `after` an earlier id at most
    /// `distance` back, nodes within the network: the caller checks them), such as a trace
    /// whose messages wait for several others (netrace's, an MPI dump's).
    pub fn graph(
        name: impl Into<String>,
        distance: u64,
        nodes: impl Iterator<Item = crate::deps::Node> + Send + 'static,
    ) -> Self {
        TraceSource { records: Arc::new(Mutex::new(Some(Box::new(nodes)))), distance, name: name.into() }
    }

    /// The records as the dependency-driven source reads them ([`crate::deps`]), taken.
    pub(crate) fn nodes(&self) -> Option<crate::deps::Nodes> {
        self.records.lock().ok()?.take()
    }
}

impl fmt::Debug for TraceSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TraceSource({})", self.name)
    }
}

impl PartialEq for TraceSource {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.records, &other.records)
    }
}

impl serde::Serialize for TraceSource {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

/// Where a run records every message it creates ([`crate::Record::trace`]), in creation order:
/// an observer shared between the caller, who made it and reads it after the run, and the run.
#[derive(Clone)]
pub struct MessageLog(Arc<Mutex<Observer>>);

/// What a [`MessageLog`] calls with every message.
type Observer = dyn FnMut(&TraceRecord) + Send;

impl MessageLog {
    /// A log calling `observe` with every message created.
    pub fn new(observe: impl FnMut(&TraceRecord) + Send + 'static) -> Self {
        MessageLog(Arc::new(Mutex::new(observe)))
    }

    fn write(&self, r: &TraceRecord) {
        if let Ok(mut observe) = self.0.lock() {
            observe(r);
        }
    }
}

impl fmt::Debug for MessageLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MessageLog")
    }
}

impl PartialEq for MessageLog {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

const NONE: u64 = u64::MAX;

/// The workload's recorder: numbers the messages in creation order and remembers what the
/// next ones depend on (see [`crate::workload`]).
pub(crate) struct Recorder {
    sink: MessageLog,
    next: u64,
    /// Per access: its request's id, and its reply's.
    request: Vec<u64>,
    reply: Vec<u64>,
    /// Per processor × thread: the message whose delivery completed its last access, and when.
    done: Vec<(u64, u64)>,
}

impl Recorder {
    pub fn new(sink: MessageLog, slots: usize) -> Self {
        Recorder { sink, next: 0, request: Vec::new(), reply: Vec::new(), done: vec![(NONE, 0); slots] }
    }

    /// Records a message created at `now`, `wait`ing since the delivery `dep` = (id, cycle);
    /// returns its id.
    pub fn message(
        &mut self,
        now: u64,
        src: u32,
        dst: u32,
        size: u32,
        salt: u32,
        dep: Option<(u64, u64)>,
    ) -> u64 {
        let id = self.next;
        self.next += 1;
        let (after, wait) = match dep {
            Some((a, at)) if a != NONE => (Some(a), now.saturating_sub(at)),
            _ => (None, 0),
        };
        self.sink.write(&TraceRecord {
            id,
            cycle: now,
            source: src,
            destination: dst,
            size,
            after,
            wait,
            salt: Some(salt),
        });
        id
    }

    fn slot(v: &mut Vec<u64>, access: u32) -> &mut u64 {
        let i = access as usize;
        if v.len() <= i {
            v.resize(i + 1, NONE);
        }
        &mut v[i]
    }

    /// Access `access`'s request is message `id`.
    pub fn request(&mut self, access: u32, id: u64) {
        *Self::slot(&mut self.request, access) = id;
    }

    /// Access `access`'s reply is message `id`.
    pub fn reply(&mut self, access: u32, id: u64) {
        *Self::slot(&mut self.reply, access) = id;
    }

    /// The id of access `access`'s request (or reply).
    pub fn id_of(&mut self, access: u32, reply: bool) -> u64 {
        *Self::slot(if reply { &mut self.reply } else { &mut self.request }, access)
    }

    /// Thread slot `slot`'s access completed with the delivery of message `id` at `at`.
    pub fn completed(&mut self, slot: usize, id: u64, at: u64) {
        if let Some(d) = self.done.get_mut(slot) {
            *d = (id, at);
        }
    }

    /// What thread slot `slot`'s next access waits for, taken.
    pub fn take_done(&mut self, slot: usize) -> Option<(u64, u64)> {
        self.done.get_mut(slot).map(|d| std::mem::replace(d, (NONE, 0))).filter(|d| d.0 != NONE)
    }
}

impl From<TraceRecord> for crate::deps::Node {
    fn from(r: TraceRecord) -> Self {
        crate::deps::Node {
            id: r.id,
            cycle: r.cycle,
            source: r.source,
            destination: r.destination,
            size: r.size,
            after: r.after.into_iter().collect(),
            wait: r.wait,
            salt: r.salt,
            phase: 0,
        }
    }
}
