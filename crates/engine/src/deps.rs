//! Messages that wait for others: the one dependency-driven message source, fed by a replayed
//! trace ([`crate::trace`]) and by a collective ([`crate::collective`]) alike.
//!
//! Its input is a stream of [`Node`]s in id order. A node is a message (`size` ≥ 1) or a
//! *join* (`size` 0: no message, a point where a rank has everything it waited for, such as a
//! halo iteration's faces). A node with no dependencies is created at its `cycle`; one with
//! dependencies (`after`, ids of earlier nodes) `wait` cycles after the last of them completes.
//! A message completes when it is delivered, a join when it is created. Nodes due in the same
//! cycle are created in id order (the followers of a join due at once, right after it).
//!
//! # Reading ahead, memory
//! The nodes are read a little ahead of the clock: every independent node whose `cycle` has
//! come, and up to `distance` ids beyond the last node created, `distance` being the largest
//! `id − after` of any dependency. So a node is read before any node it waits for is created,
//! and knows it is waited for when it is; memory holds the nodes read and not yet created, and
//! the messages in flight, not the whole stream. (A dependent node's `cycle` only orders the
//! stream: a recorded trace's is its creation in the recorded run; a collective's is
//! [`u64::MAX`], read by the read-ahead alone.)
//!
//! # What it measures ([`Completion`])
//! The cycle the last node completes (a collective's completion time), the last completion of
//! each `phase` (a collective's iterations), and the critical path ending there: the chain of
//! nodes, each created by the completion of the dependency it waited for longest. Along it
//! the completion time is exactly the first node's creation plus the compute (`wait`s) plus
//! the messages' network times (creation to delivery), which split into source queueing and
//! the rest.

use crate::calendar::Calendar;
use crate::rng::mix;
use crate::trace::Recorder;
use crate::{Collector, Msg};
use netwrap_topo::{Network, TerminalId};
use serde::Serialize;
use std::collections::HashMap;

/// One node of a dependency graph: a message, or a join (`size` 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Its number: 0, 1, 2, … in stream order.
    pub id: u64,
    /// An independent node's creation cycle; a dependent node's orders the stream only.
    pub cycle: u64,
    /// Source terminal (a join's: the terminal whose rank it belongs to).
    pub source: TerminalId,
    /// Destination terminal (a join's: its source).
    pub destination: TerminalId,
    /// Flits, or 0 for a join.
    pub size: u32,
    /// The earlier nodes it waits for (empty: independent).
    pub after: Vec<u64>,
    /// Cycles from the last of them completing to its creation (compute).
    pub wait: u64,
    /// Tie-break salt (absent: drawn from the seed and the id).
    pub salt: Option<u32>,
    /// Which phase (a collective's iteration) it belongs to.
    pub phase: u32,
}

/// A stream of nodes, in id order.
pub type Nodes = Box<dyn Iterator<Item = Node> + Send>;

/// Sums along a critical path (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PathSums {
    /// The cycle its first node was created.
    pub start: u64,
    /// Cycles of compute: the `wait`s along it.
    pub compute: u64,
    /// Cycles its messages spent from creation to delivery.
    pub network: u64,
    /// Of `network`, cycles they waited at their source before their first hop.
    pub queueing: u64,
    /// Messages on it.
    pub messages: u64,
    /// Their flits.
    pub flits: u64,
    /// Their hops.
    pub hops: u64,
}

/// What a dependency-driven run measured (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// The cycle the last node completed (0: none did).
    pub completion: u64,
    /// Per phase, the cycle its last node completed.
    pub phases: Vec<u64>,
    /// The critical path ending at the last completion: completion = start + compute + network.
    pub critical: PathSums,
    /// Messages delivered.
    pub messages: u64,
    /// Nodes of several dependencies created, and the sum over them of the cycles from their
    /// first dependency's completion to their last's: the time a rank that has part of what
    /// it waits for waits for the rest (waiting on dependencies; 0 when they all arrive at
    /// once).
    pub joined: u64,
    /// That sum.
    pub dependency_wait: u64,
    /// Nodes read and not completed when the run ended (0: the graph completed).
    pub unfinished: u64,
}

/// A node read and not yet created.
struct Waiting {
    node: Node,
    /// Dependencies not yet complete.
    pending: u32,
    /// The earliest and the latest completion among those complete, the latest's critical
    /// path, and what the recorder calls it: (message id in this run, cycle of its delivery).
    first: u64,
    latest: u64,
    path: PathSums,
    cause: Option<(u64, u64)>,
}

/// A message in flight.
struct Flying {
    /// Its id in this run's numbering (for a recorder).
    run_id: u64,
    /// Slots of the nodes waiting for it.
    followers: Vec<u32>,
    /// The critical path up to its creation.
    path: PathSums,
    phase: u32,
}

/// The dependency-driven source (see the module docs).
pub(crate) struct DepSource {
    /// The nodes not yet read (`None` once they are all read).
    reader: Option<Nodes>,
    distance: u64,
    head: Option<Node>,
    seed: u64,
    /// Nodes read and not yet created.
    slab: Vec<Option<Waiting>>,
    free: Vec<u32>,
    pending: u64,
    /// Nodes due, by creation cycle.
    calendar: Calendar<u32>,
    due: Vec<u32>,
    /// Nodes waiting for a node not yet created, by its id.
    waiting: HashMap<u64, Vec<u32>>,
    /// Per tag of a message in flight.
    flying: Vec<Flying>,
    free_tags: Vec<u32>,
    /// Messages created so far (the next one's id in this run).
    created: u64,
    ended: bool,
    outcome: Completion,
    /// Messages in flight.
    in_flight: u64,
    /// The tie-break rank of the node behind `outcome.critical` ([`DepSource::completed`]).
    last_rank: u64,
}

impl DepSource {
    /// A source reading `nodes`, whose dependencies lie at most `distance` ids back.
    pub fn new(nodes: Option<Nodes>, distance: u64, seed: u64) -> Self {
        let mut r = DepSource {
            reader: nodes,
            distance,
            head: None,
            seed,
            slab: Vec::new(),
            free: Vec::new(),
            pending: 0,
            calendar: Calendar::new(),
            due: Vec::new(),
            waiting: HashMap::new(),
            flying: Vec::new(),
            free_tags: Vec::new(),
            created: 0,
            ended: false,
            outcome: Completion::default(),
            in_flight: 0,
            last_rank: u64::MAX,
        };
        r.advance();
        r
    }

    /// Reads the next node into `head`.
    fn advance(&mut self) {
        self.head = None;
        let Some(reader) = &mut self.reader else { return };
        match reader.next() {
            Some(n) => self.head = Some(n),
            None => self.reader = None,
        }
    }

    /// Reads every node whose cycle has come by `now`, and every node up to id `upto`.
    fn fill(&mut self, now: u64, upto: Option<u64>) {
        while let Some(h) = &self.head {
            if h.cycle > now && upto.is_none_or(|u| h.id > u) {
                break;
            }
            let Some(node) = self.head.take() else { break };
            let deps = node.after.len() as u32;
            let independent = node.after.is_empty();
            let at = node.cycle.max(now);
            let w =
                Waiting { pending: deps, first: 0, latest: 0, path: PathSums::default(), cause: None, node };
            let slot = match self.free.pop() {
                Some(s) => {
                    self.slab[s as usize] = Some(w);
                    s
                }
                None => {
                    self.slab.push(Some(w));
                    (self.slab.len() - 1) as u32
                }
            };
            self.pending += 1;
            if independent {
                self.calendar.push(at, slot);
            } else if let Some(w) = &self.slab[slot as usize] {
                for &a in &w.node.after {
                    self.waiting.entry(a).or_default().push(slot);
                }
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
        mut recorder: Option<&mut Recorder>,
    ) {
        self.fill(now, None);
        let mut due = std::mem::take(&mut self.due);
        loop {
            self.calendar.take(now, &mut due);
            if due.is_empty() {
                break;
            }
            due.sort_unstable_by_key(|&s| self.slab[s as usize].as_ref().map_or(0, |w| w.node.id));
            // Whatever waits for the nodes created now is read before they are.
            let last = self.slab[due[due.len() - 1] as usize].as_ref().map_or(0, |w| w.node.id);
            self.fill(now, Some(last.saturating_add(self.distance)));
            for &s in &due {
                let Some(w) = self.slab[s as usize].take() else { continue };
                self.free.push(s);
                self.pending -= 1;
                let node = w.node;
                let mut path = w.path;
                if node.after.is_empty() {
                    path.start = now;
                } else {
                    path.compute += node.wait;
                }
                let followers = self.waiting.remove(&node.id).unwrap_or_default();
                if node.size == 0 {
                    // A join completes as it is created.
                    self.completed(now, node.phase, path, u64::MAX - node.id);
                    self.release(followers, now, path, w.cause);
                    continue;
                }
                let run_id = self.created;
                self.created += 1;
                let flying = Flying { run_id, followers, path, phase: node.phase };
                let tag = match self.free_tags.pop() {
                    Some(t) => {
                        self.flying[t as usize] = flying;
                        t
                    }
                    None => {
                        self.flying.push(flying);
                        (self.flying.len() - 1) as u32
                    }
                };
                self.in_flight += 1;
                let salt = node.salt.unwrap_or_else(|| mix(self.seed ^ mix(node.id)) as u32);
                if let Some(r) = recorder.as_deref_mut() {
                    r.message(now, node.source, node.destination, node.size, salt, w.cause);
                }
                let (src, dst) = (node.source, node.destination);
                let seq = collector.created(src, now, node.size, src == dst);
                out.push((src, Msg::new(now, src, dst, net.inject_router(src), salt, seq, node.size, tag)));
            }
            due.clear();
        }
        self.due = due;
        if !self.ended && self.head.is_none() && self.pending == 0 {
            // The stream is over: the measured messages are those created.
            self.ended = true;
            collector.creations_ended();
        }
    }

    /// A node of `phase` completed at `at` with critical path `path`; `rank` orders nodes that
    /// complete in the same cycle (a message by its id in this run; a join after every
    /// message), so the critical path does not depend on the order the engine announces
    /// deliveries in.
    fn completed(&mut self, at: u64, phase: u32, path: PathSums, rank: u64) {
        let o = &mut self.outcome;
        let first = o.completion == 0 && o.critical == PathSums::default();
        if first || at > o.completion || (at == o.completion && rank < self.last_rank) {
            o.completion = at;
            o.critical = path;
            self.last_rank = rank;
        }
        let p = phase as usize;
        if o.phases.len() <= p {
            o.phases.resize(p + 1, 0);
        }
        o.phases[p] = o.phases[p].max(at);
    }

    /// The nodes in `followers` see one of their dependencies complete at `at`.
    fn release(&mut self, followers: Vec<u32>, at: u64, path: PathSums, cause: Option<(u64, u64)>) {
        for s in followers {
            let Some(w) = self.slab[s as usize].as_mut() else { continue };
            let deps = w.node.after.len() as u32;
            if w.pending == deps {
                w.first = at;
            }
            // Ties go to the earlier message (the lower id in this run), whatever the order the
            // engine announces same-cycle deliveries in.
            if w.pending == deps || at > w.latest || (at == w.latest && cause < w.cause) {
                w.latest = at;
                w.path = path;
                w.cause = cause;
            }
            w.first = w.first.min(at);
            w.pending -= 1;
            if w.pending == 0 {
                self.calendar.push(w.latest.saturating_add(w.node.wait), s);
                if deps > 1 {
                    self.outcome.joined += 1;
                    self.outcome.dependency_wait += w.latest - w.first;
                }
            }
        }
    }

    /// Message `m`, tagged by this source, will be delivered at `at`: what waits for it is due
    /// `wait` cycles later.
    pub fn delivered(&mut self, m: &Msg, at: u64) {
        let Some(f) = self.flying.get_mut(m.tag as usize) else { return };
        let followers = std::mem::take(&mut f.followers);
        let mut path = f.path;
        let (run_id, phase) = (f.run_id, f.phase);
        path.network += at - m.created;
        if m.hops > 0 {
            path.queueing += m.first_start - m.created;
        }
        path.messages += 1;
        path.flits += m.size as u64;
        path.hops += m.hops as u64;
        self.free_tags.push(m.tag);
        self.in_flight -= 1;
        self.outcome.messages += 1;
        self.completed(at, phase, path, run_id);
        self.release(followers, at, path, Some((run_id, at)));
    }

    /// The next cycle after the current one at which a node may be created.
    pub fn next_after_now(&self) -> Option<u64> {
        let head = self.head.as_ref().map(|h| h.cycle).filter(|&c| c != u64::MAX);
        [self.calendar.next_after_now(), head].into_iter().flatten().min()
    }

    /// What it measured.
    pub fn close(mut self) -> Completion {
        let unread = if self.head.is_some() { 1 } else { 0 };
        self.outcome.unfinished = self.pending + self.in_flight + unread;
        self.outcome
    }
}
