//! MPI point-to-point traces as plain text, one event a line, in the spirit of a DUMPI dump
//! (`dumpi2ascii`) cut down to what a network sees (`--trace FILE.dumpi`, or `--trace-format
//! dumpi`).
//!
//! # The file
//! ```text
//! # time rank op peer bytes
//! 0    0 send 1 4096
//! 900  1 recv 0 4096
//! 1000 1 send 2 4096
//! ```
//! One event a line, five fields separated by blanks: `time` (the cycle the event happened in
//! the recorded run, a whole number; convert a dump's seconds with the network's clock), `rank`
//! (the MPI rank it happened at), `op` (`send`: the rank sent a message to `peer`; `recv`: the
//! rank received one from `peer`, the time being when the receive completed: an `MPI_Recv`'s
//! return, an `MPI_Irecv`'s `MPI_Wait`), `peer` (the other rank) and `bytes` (the message's
//! size; a receive's is not used, its buffer may be larger than the message). Lines are in
//! nondecreasing time order (a dump merged across ranks); blank lines and lines starting with
//! `#` are skipped, and so is a first line naming the fields (`time rank op peer bytes`).
//! Ranks are 0 to R − 1, R one more than the largest rank named, placed on the network's nodes
//! by `workload.placement` as a collective's ranks are. A message of B bytes is ⌈B / F⌉ flits
//! (at least 1), F being `workload.flit-bytes` (default 16).
//!
//! # Dependencies
//! A receive takes the oldest message sent from `peer` to `rank` not yet received (MPI's
//! non-overtaking order between a pair of ranks, tags aside); it must come after that send in
//! the file. A rank runs its events in order, and the recorded gaps between them are compute:
//! - its sends before its first receive are created at their recorded times;
//! - a receive completes when its message is delivered and the rank has reached it: the rank
//!   reaches it its recorded gap after its previous receive completed (after its start, for
//!   the first), so it completes at the later of the two;
//! - a send after a receive is created its recorded gap after that receive completed.
//!
//! So a replay on the recorded network at the recorded speed creates every send at its
//! recorded time, and a slower network delays a rank's sends only through the receives it
//! waits for. A send does not wait for the delivery of the rank's earlier sends (an eager,
//! non-blocking send); collectives and blocking sends appear through the receives they imply.
//! Each receive becomes two joins of the dependency-driven replay ([`crate::trace`]): the rank
//! reaching it, and that with the message's delivery.
//!
//! # Memory
//! The file is streamed: the reader keeps, per rank, its last receive, and the sends not yet
//! received (per pair of ranks, in order).

use super::fail_at;
use crate::SimError;
use netwrap_engine::deps::Node;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The most ranks a dump may name (rank and peer are below it).
pub const MAX_RANKS: u32 = 1 << 24;
const FIELDS: [&str; 5] = ["time", "rank", "op", "peer", "bytes"];
/// The most bytes a line may hold.
const MAX_LINE: u64 = 1 << 12;

/// One event of a dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its cycle in the recorded run.
    pub time: u64,
    /// The rank it happened at.
    pub rank: u32,
    /// A send (else a receive).
    pub send: bool,
    /// The other rank.
    pub peer: u32,
    /// The message's bytes.
    pub bytes: u64,
}

/// A dump read event by event, each checked, with its line number in any error.
pub struct DumpiReader {
    name: String,
    input: Box<dyn BufRead + Send>,
    line: u64,
    buf: Vec<u8>,
    last_time: u64,
}

impl DumpiReader {
    /// Opens the dump at `path`.
    pub fn open(path: &Path) -> Result<Self, SimError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path)
            .map_err(|e| SimError::Invalid(format!("workload.trace: cannot read {name}: {e} (--trace)")))?;
        Ok(Self::from_reader(Box::new(BufReader::new(file)), name))
    }

    /// Reads a dump from `input`, named `name` in errors.
    pub fn from_reader(input: Box<dyn BufRead + Send>, name: String) -> Self {
        DumpiReader { name, input, line: 0, buf: Vec::new(), last_time: 0 }
    }

    fn error(&self, what: impl std::fmt::Display) -> SimError {
        fail_at(&self.name, &format!("line {}", self.line), what)
    }

    /// The next event, or `None` at the end.
    pub fn next_event(&mut self) -> Result<Option<Event>, SimError> {
        loop {
            self.buf.clear();
            let read = self.input.by_ref().take(MAX_LINE).read_until(b'\n', &mut self.buf);
            self.line += 1;
            let n = read.map_err(|e| self.error(format!("cannot read: {e}")))?;
            if n == 0 {
                return Ok(None);
            }
            if n as u64 == MAX_LINE && self.buf.last() != Some(&b'\n') {
                return Err(self.error(format!("a line longer than {MAX_LINE} bytes")));
            }
            let Ok(text) = std::str::from_utf8(&self.buf) else {
                return Err(self.error("not UTF-8 text: a dump is plain text"));
            };
            let fields: Vec<&str> = text.split_whitespace().collect();
            if fields.is_empty() || fields[0].starts_with('#') {
                continue;
            }
            if fields == FIELDS {
                continue;
            }
            if fields.len() != 5 {
                return Err(self.error(format!(
                    "{} fields: a line is `time rank op peer bytes`, such as `900 1 recv 0 4096`",
                    fields.len()
                )));
            }
            let number = |k: usize| -> Result<u64, SimError> {
                fields[k].parse::<u64>().map_err(|_| {
                    let why = if fields[k].starts_with('-') { "negative" } else { "not a whole number" };
                    self.error(format!("{} = {:?} is {why}", FIELDS[k], fields[k]))
                })
            };
            let time = number(0)?;
            let (rank, peer, bytes) = (number(1)?, number(3)?, number(4)?);
            let send = match fields[2] {
                "send" => true,
                "recv" => false,
                other => {
                    return Err(self.error(format!(
                        "op = {other:?}: an event is a send or a recv (collectives appear as the sends and receives they make)"
                    )));
                }
            };
            for (k, r) in [(1, rank), (3, peer)] {
                if r >= MAX_RANKS as u64 {
                    return Err(self.error(format!("{} = {r}: ranks are 0 to {}", FIELDS[k], MAX_RANKS - 1)));
                }
            }
            if time < self.last_time {
                return Err(self.error(format!(
                    "time = {time} is before the previous event's time {}: events are in nondecreasing time order",
                    self.last_time
                )));
            }
            self.last_time = time;
            return Ok(Some(Event { time, rank: rank as u32, send, peer: peer as u32, bytes }));
        }
    }
}

/// A rank's place in its program: its last receive's join and the time it completed in the
/// recorded run.
#[derive(Clone, Copy, Default)]
struct Rank {
    point: Option<u64>,
    at: u64,
}

/// A dump as the dependency-driven source's nodes (see the module docs).
pub struct DumpiNodes {
    reader: DumpiReader,
    placement: Vec<u32>,
    flit_bytes: u32,
    next_id: u64,
    /// Per rank named, its place (a map: a rank's number is bounded only by [`MAX_RANKS`]).
    ranks: HashMap<u32, Rank>,
    /// Per (sender, receiver), the node numbers of its sends not yet received.
    sent: HashMap<(u32, u32), VecDeque<u64>>,
    queued: VecDeque<Node>,
    /// The largest distance back of a dependency, in node numbers.
    pub distance: u64,
    /// Ranks named: one more than the largest.
    pub ranks_named: u32,
    /// Messages (sends) read.
    pub messages: u64,
}

impl DumpiNodes {
    /// The nodes of `reader`'s events, rank r on node `placement[r]`, `flit_bytes` a flit.
    pub fn new(reader: DumpiReader, placement: Vec<u32>, flit_bytes: u32) -> Self {
        DumpiNodes {
            reader,
            placement,
            flit_bytes: flit_bytes.max(1),
            next_id: 0,
            ranks: HashMap::new(),
            sent: HashMap::new(),
            queued: VecDeque::new(),
            distance: 0,
            ranks_named: 0,
            messages: 0,
        }
    }

    fn push(&mut self, mut node: Node) -> u64 {
        node.id = self.next_id;
        self.next_id += 1;
        if let Some(&a) = node.after.iter().min() {
            self.distance = self.distance.max(node.id - a);
        }
        let id = node.id;
        self.queued.push_back(node);
        id
    }

    /// The next node, or `None` at the end.
    pub fn next_node(&mut self) -> Result<Option<Node>, SimError> {
        while self.queued.is_empty() {
            let Some(e) = self.reader.next_event()? else { return Ok(None) };
            self.ranks_named = self.ranks_named.max(e.rank + 1).max(e.peer + 1);
            let place = |r: u32| self.placement.get(r as usize).copied().unwrap_or(r);
            let at = place(e.rank);
            let rank = self.ranks.get(&e.rank).copied().unwrap_or_default();
            let mut node = Node {
                id: 0,
                cycle: e.time,
                source: at,
                destination: at,
                size: 0,
                after: rank.point.into_iter().collect(),
                wait: e.time - rank.at,
                salt: None,
                phase: 0,
            };
            if e.send {
                node.destination = place(e.peer);
                node.size = u32::try_from(e.bytes.div_ceil(self.flit_bytes as u64).max(1))
                    .ok()
                    .filter(|&f| f <= super::MAX_SIZE)
                    .ok_or_else(|| {
                        self.reader.error(format!(
                            "bytes = {}: at most {} flits of {} bytes",
                            e.bytes,
                            super::MAX_SIZE,
                            self.flit_bytes
                        ))
                    })?;
                if node.after.is_empty() {
                    node.wait = 0;
                }
                let id = self.push(node);
                self.messages += 1;
                self.sent.entry((e.rank, e.peer)).or_default().push_back(id);
                continue;
            }
            let Some(message) = self.sent.get_mut(&(e.peer, e.rank)).and_then(VecDeque::pop_front) else {
                return Err(self.reader.error(format!(
                    "rank {} receives from rank {}, and no earlier line sends from rank {} to rank {} that is not received already: a send is written before the receive that takes it",
                    e.rank, e.peer, e.peer, e.rank
                )));
            };
            // The rank reaches the receive (an independent join at its time, before any receive),
            // then has its message.
            if node.after.is_empty() {
                node.wait = 0;
            }
            let reached = self.push(node.clone());
            let done = self.push(Node { after: vec![reached, message], wait: 0, ..node });
            self.ranks.insert(e.rank, Rank { point: Some(done), at: e.time });
        }
        Ok(self.queued.pop_front())
    }

    /// Sends never received.
    pub fn unreceived(&self) -> u64 {
        self.sent.values().map(|q| q.len() as u64).sum()
    }
}
