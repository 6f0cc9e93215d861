//! Traces as the engine sees them: a replayed trace comes in as an iterator of
//! [`TraceRecord`]s ([`TraceSource`]), and a recorded run's messages go out to a
//! [`MessageLog`] as records. Files, their formats and their errors are the spec layer's
//! (`netwrap_sim::trace`); the engine opens nothing.
//!
//! A record's `after` and `wait` say that it is created `wait` cycles after message `after` is
//! delivered; its `cycle` says when it was created in the recorded run and orders the trace.
//!
//! # Replay
//! An independent record is created at its `cycle`, a dependent one `wait` cycles after its
//! `after` message is delivered; records due in the same cycle are created in id order. The
//! records are read a little ahead of the clock (every record whose `cycle` has come, and, for
//! dependent records, up to [`TraceSource::distance`] ids ahead), so memory does not grow with
//! the trace's length.

use crate::calendar::Calendar;
use crate::rng::mix;
use crate::{Collector, Msg};
use netwrap_topo::{Network, TerminalId};
use std::collections::HashMap;
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

/// A trace's records, read in order.
type Records = Box<dyn Iterator<Item = TraceRecord> + Send>;

/// The records of a trace to replay, in order (ids 0, 1, 2, …, cycles nondecreasing, every
/// `after` an earlier id, nodes within the network: the caller checks them), read by one run.
#[derive(Clone)]
pub struct TraceSource {
    records: Arc<Mutex<Option<Records>>>,
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
        TraceSource { records: Arc::new(Mutex::new(Some(Box::new(records)))), distance, name: name.into() }
    }

    fn take(&self) -> Option<Records> {
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

/// A replayed trace: records read ahead of the clock, waiting for their cycle or for the
/// delivery of the message they follow.
///
/// Why reading `distance` records ahead of the creations is enough: a record that follows
/// message X lies at most `distance` records after X's, so it has been read by the time X is
/// created (each cycle reads up to the last record created plus `distance` before creating).
/// X is then created knowing what waits for it, carries a tag naming that list, and its
/// delivery (announced to [`Replay::delivered`], never before the clock) files them at their
/// cycles. Independent records are read once their cycle comes (the engine wakes up for the
/// next unread record's cycle), or earlier as part of the read-ahead.
pub(crate) struct Replay {
    /// The records not yet read (`None` once they are all read).
    reader: Option<Records>,
    distance: u64,
    head: Option<TraceRecord>,
    seed: u64,
    /// Records read and not yet created.
    slab: Vec<TraceRecord>,
    free: Vec<u32>,
    pending: u64,
    /// Records due, by creation cycle.
    calendar: Calendar<u32>,
    due: Vec<u32>,
    /// Records waiting for a message not yet created, by its id.
    waiting: HashMap<u64, Vec<u32>>,
    /// Per tag of a message in flight that others wait for: its id in this run, and them.
    followers: Vec<(u64, Vec<u32>)>,
    free_tags: Vec<u32>,
    /// Messages created so far (the next one's id in this run).
    created: u64,
    ended: bool,
}

impl Replay {
    pub fn new(source: &TraceSource, seed: u64) -> Self {
        let mut r = Replay {
            reader: source.take(),
            distance: source.distance,
            head: None,
            seed,
            slab: Vec::new(),
            free: Vec::new(),
            pending: 0,
            calendar: Calendar::new(),
            due: Vec::new(),
            waiting: HashMap::new(),
            followers: Vec::new(),
            free_tags: Vec::new(),
            created: 0,
            ended: false,
        };
        r.advance();
        r
    }

    /// Reads the next record into `head`.
    fn advance(&mut self) {
        self.head = None;
        let Some(reader) = &mut self.reader else { return };
        match reader.next() {
            Some(rec) => self.head = Some(rec),
            None => self.reader = None,
        }
    }

    /// Reads every record whose cycle has come by `now`, and every record up to id `upto`.
    fn fill(&mut self, now: u64, upto: Option<u64>) {
        while let Some(h) = self.head {
            if h.cycle > now && upto.is_none_or(|u| h.id > u) {
                break;
            }
            let slot = match self.free.pop() {
                Some(s) => {
                    self.slab[s as usize] = h;
                    s
                }
                None => {
                    self.slab.push(h);
                    (self.slab.len() - 1) as u32
                }
            };
            self.pending += 1;
            match h.after {
                None => self.calendar.push(h.cycle.max(now), slot),
                Some(a) => self.waiting.entry(a).or_default().push(slot),
            }
            self.advance();
        }
    }

    /// The messages created at `now`, in id order, into `out` (see [`crate::workload`]).
    pub fn create(
        &mut self,
        now: u64,
        net: &Network,
        collector: &mut Collector,
        out: &mut Vec<(TerminalId, Msg)>,
        recorder: Option<&mut Recorder>,
    ) {
        self.fill(now, None);
        let mut due = std::mem::take(&mut self.due);
        self.calendar.take(now, &mut due);
        if !due.is_empty() {
            due.sort_unstable_by_key(|&s| self.slab[s as usize].id);
            // Whatever waits for the messages created now is read before they are.
            let last = self.slab[due[due.len() - 1] as usize].id;
            self.fill(now, Some(last.saturating_add(self.distance)));
            let mut recorder = recorder;
            for &s in &due {
                let rec = self.slab[s as usize];
                self.free.push(s);
                self.pending -= 1;
                let id = self.created;
                self.created += 1;
                let mut tag = crate::workload::UNTRACKED;
                if let Some(list) = self.waiting.remove(&rec.id) {
                    tag = match self.free_tags.pop() {
                        Some(t) => {
                            self.followers[t as usize] = (id, list);
                            t
                        }
                        None => {
                            self.followers.push((id, list));
                            (self.followers.len() - 1) as u32
                        }
                    };
                }
                let salt = rec.salt.unwrap_or_else(|| mix(self.seed ^ mix(rec.id)) as u32);
                if let Some(r) = recorder.as_deref_mut() {
                    let dep = rec.after.map(|a| (a, now - rec.wait.min(now)));
                    r.message(now, rec.source, rec.destination, rec.size, salt, dep);
                }
                let seq = collector.created(rec.source, now, rec.size, rec.source == rec.destination);
                let at = net.inject_router(rec.source);
                out.push((
                    rec.source,
                    Msg::new(now, rec.source, rec.destination, at, salt, seq, rec.size, tag),
                ));
            }
            due.clear();
        }
        self.due = due;
        if !self.ended && self.head.is_none() && self.pending == 0 {
            // The trace is over: the measured messages are those created.
            self.ended = true;
            collector.creations_ended();
        }
    }

    /// The message tagged `tag` will be delivered at `at`: what waits for it is due `wait`
    /// cycles later.
    pub fn delivered(&mut self, tag: u32, at: u64) {
        let Some((id, list)) = self.followers.get_mut(tag as usize).map(|f| (f.0, std::mem::take(&mut f.1)))
        else {
            return;
        };
        for &s in &list {
            let rec = &mut self.slab[s as usize];
            // In this run's numbering, for a recorder.
            rec.after = Some(id);
            self.calendar.push(at.saturating_add(rec.wait), s);
        }
        self.free_tags.push(tag);
    }

    /// The next cycle after the current one at which a record may be created.
    pub fn next_after_now(&self) -> Option<u64> {
        [self.calendar.next_after_now(), self.head.map(|h| h.cycle)].into_iter().flatten().min()
    }
}
