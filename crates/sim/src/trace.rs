//! Message traces: a run's messages as data, replayed on any network (`workload.trace`,
//! `--trace FILE`) and written by any run (`--record-trace FILE`); and the standard traces of
//! other tools replayed alike, with their dependencies: netrace's ([`netrace`], Hestness et al.
//! 2010) and MPI point-to-point dumps as text ([`dumpi`]).
//!
//! # Which format
//! `workload.trace-format` (`--trace-format`) names it: `csv`, `jsonl` (netwrap's own, below),
//! `netrace` or `dumpi`. Without it the file's name says (`.csv`; `.jsonl`, `.ndjson`,
//! `.json`; `.tra` or `.bz2`: netrace; `.dumpi`), else its first bytes: netrace's magic number
//! or bzip2's `BZh` is netrace, `{` JSON lines, anything else CSV. netrace's nodes and a
//! dump's ranks are placed on the network by `workload.placement` (`linear`, `random`,
//! `block`, `file`: the rule collectives follow, [`crate::collective::trace_placement`]), and
//! their bytes become flits of `workload.flit-bytes` (default [`FLIT_BYTES`]); netwrap's own
//! traces name the network's nodes and flits. A netrace trace or a dump replays to its end
//! (every message measured, unless `run.messages` asks for fewer), and its report gives its
//! completion: the cycle its last message was delivered.
//!
//! # Format
//! One record per message, in nondecreasing order of `cycle`, either as CSV with a header
//! line naming the columns (any order; `after`, `wait` and `salt` may be left out or empty)
//!
//! ```text
//! id,cycle,source,destination,size,after,wait,salt
//! 0,5,1,9,4,,,2790436317
//! 1,7,9,1,4,0,2,
//! ```
//!
//! or as JSON lines, one object per line (`after`, `wait` and `salt` optional):
//!
//! ```text
//! {"id":0,"cycle":5,"source":1,"destination":9,"size":4,"salt":2790436317}
//! {"id":1,"cycle":7,"source":9,"destination":1,"size":4,"after":0,"wait":2}
//! ```
//!
//! The file's extension chooses the format (`.csv`: CSV; `.jsonl`, `.ndjson`, `.json`: JSON
//! lines); with another extension a file whose first non-blank character is `{` is JSON lines,
//! anything else CSV. In CSV, blank lines and lines starting with `#` are skipped, and fields
//! are plain numbers (no quoting).
//!
//! - `id`: the record's number, 0, 1, 2, … in file order (a recorded trace numbers its
//!   messages in creation order).
//! - `cycle`: when the message is created.
//! - `source`, `destination`: node numbers, 0 to N − 1 (a reply travels from its memory's node
//!   to its processor's).
//! - `size`: flits, at least 1.
//! - `after`, `wait`: the message is created `wait` cycles after message `after` (the id of an
//!   earlier record) is delivered; its `cycle` then says when it was created in the recorded run
//!   and orders the file. `wait` defaults to 0.
//! - `salt`: the message's 32-bit tie-break (see [`netwrap_engine`]); a recorded trace carries
//!   it so that a replay on the same network breaks ties as the recorded run did. Absent, it is
//!   drawn from the run's seed and the record's id.
//!
//! # Replay
//! An independent record is created at its `cycle`, a dependent one `wait` cycles after its
//! `after` message is delivered; records due in the same cycle are created in id order. The
//! file is streamed: it is read a little ahead of the clock (every record whose `cycle` has come,
//! and, for dependent records, up to the largest distance in ids between a record and the one it
//! waits for), so memory does not grow with the trace's length. [`validate`] reads the whole file
//! once before the run, so that every error (with its line number) comes before any simulation.

pub mod dumpi;
pub mod netrace;

use crate::SimError;
use crate::resolved::TraceInput;
use crate::spec::TraceKind;
pub use netwrap_engine::trace::TraceRecord;
use netwrap_engine::trace::{MessageLog, TraceSource};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The largest message a trace may hold, in flits (as `--size`).
pub const MAX_SIZE: u32 = 1 << 30;

/// The bytes a flit carries when `workload.flit-bytes` is not given: a netrace packet of 8
/// bytes is 1 flit, one of 72 bytes (a cache line and its header) 5.
pub const FLIT_BYTES: u32 = 16;

/// The format of the trace at `path`, from its name, else its first bytes (see the module
/// docs).
pub fn detect(path: &Path) -> Result<TraceKind, SimError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_ascii_lowercase();
    if name.ends_with(".tra") || name.ends_with(".bz2") {
        return Ok(TraceKind::Netrace);
    }
    if name.ends_with(".dumpi") {
        return Ok(TraceKind::Dumpi);
    }
    match TraceFormat::of_path(path) {
        Some(TraceFormat::Csv) => return Ok(TraceKind::Csv),
        Some(TraceFormat::JsonLines) => return Ok(TraceKind::Jsonl),
        None => {}
    }
    let cannot = |e: io::Error| {
        SimError::Invalid(format!("workload.trace: cannot read {}: {e} (--trace)", path.display()))
    };
    let mut head = Vec::new();
    std::fs::File::open(path).map_err(cannot)?.take(4096).read_to_end(&mut head).map_err(cannot)?;
    Ok(if head.starts_with(&netrace::MAGIC.to_le_bytes()) || head.starts_with(b"BZh") {
        TraceKind::Netrace
    } else if head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        TraceKind::Jsonl
    } else {
        TraceKind::Csv
    })
}

/// An error in trace `name` at `position` (a line, a packet and its byte offset).
pub(crate) fn fail_at(name: &str, position: &str, what: impl fmt::Display) -> SimError {
    SimError::Invalid(format!("workload.trace {name} {position}: {what} (--trace)"))
}

/// How a trace is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// CSV with a header line.
    Csv,
    /// One JSON object per line.
    JsonLines,
}

impl TraceFormat {
    /// The format a file's extension names, if it names one.
    pub fn of_path(path: &Path) -> Option<Self> {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("csv") => Some(TraceFormat::Csv),
            Some("jsonl" | "ndjson" | "json") => Some(TraceFormat::JsonLines),
            _ => None,
        }
    }
}

const COLUMNS: [&str; 8] = ["id", "cycle", "source", "destination", "size", "after", "wait", "salt"];
const REQUIRED: usize = 5;

/// Where the fields of a record come from.
enum Input {
    Csv {
        reader: Box<csv::Reader<Box<dyn Read + Send>>>,
        row: csv::StringRecord,
        /// The column of each of [`COLUMNS`], if present.
        columns: [Option<usize>; 8],
        width: usize,
    },
    Json {
        reader: Box<dyn BufRead + Send>,
        buf: Vec<u8>,
    },
}

/// A trace read record by record, each checked (fields, order, ids, nodes) with its line
/// number in any error.
pub struct TraceReader {
    name: String,
    input: Input,
    line: u64,
    nodes: u32,
    next_id: u64,
    last_cycle: u64,
}

/// The most bytes a line may hold (a file without line breaks, `/dev/zero` say, is refused
/// instead of read into memory whole).
const MAX_LINE: u64 = 1 << 16;

/// A CSV trace's bytes on their way to the CSV reader: a line longer than [`MAX_LINE`] fails,
/// carriage returns are dropped, and an empty line gets a space (the CSV reader would skip it
/// without counting it in its line numbers; a record of empty fields is skipped by
/// [`TraceReader`]).
struct LineLimit<R> {
    inner: R,
    /// Bytes since the last line break.
    run: u64,
    out: Vec<u8>,
    pos: usize,
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.out.len() {
            let mut raw = [0u8; 8192];
            let n = self.inner.read(&mut raw)?;
            if n == 0 {
                return Ok(0);
            }
            self.out.clear();
            self.pos = 0;
            // (Carriage returns go: a CRLF line ends as a LF one.)
            for &b in raw[..n].iter().filter(|&&b| b != b'\r') {
                if self.run == 0 && b == b'\n' {
                    self.out.push(b' ');
                }
                self.out.push(b);
                self.run = if b == b'\n' { 0 } else { self.run + 1 };
            }
            if self.run > MAX_LINE {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a line longer than {MAX_LINE} bytes"),
                ));
            }
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl TraceReader {
    /// Opens the trace at `path` for a network of `nodes` nodes.
    pub fn open(path: &Path, nodes: u32) -> Result<Self, SimError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path)
            .map_err(|e| SimError::Invalid(format!("workload.trace: cannot read {name}: {e} (--trace)")))?;
        let mut reader = BufReader::new(file);
        let format = match TraceFormat::of_path(path) {
            Some(f) => f,
            None => {
                let head = reader.fill_buf().map_err(|e| {
                    SimError::Invalid(format!("workload.trace: cannot read {name}: {e} (--trace)"))
                })?;
                match head.iter().find(|b| !b.is_ascii_whitespace()) {
                    Some(b'{') => TraceFormat::JsonLines,
                    _ => TraceFormat::Csv,
                }
            }
        };
        Self::from_reader(Box::new(reader), format, name, nodes)
    }

    /// Reads a trace of `format` from `input`, named `name` in errors.
    pub fn from_reader(
        input: Box<dyn BufRead + Send>,
        format: TraceFormat,
        name: String,
        nodes: u32,
    ) -> Result<Self, SimError> {
        let input = match format {
            TraceFormat::JsonLines => Input::Json { reader: input, buf: Vec::new() },
            TraceFormat::Csv => {
                let input: Box<dyn Read + Send> =
                    Box::new(LineLimit { inner: input, run: 0, out: Vec::new(), pos: 0 });
                let reader = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .trim(csv::Trim::All)
                    .quoting(false)
                    .from_reader(input);
                Input::Csv {
                    reader: Box::new(reader),
                    row: csv::StringRecord::new(),
                    columns: [None; 8],
                    width: 0,
                }
            }
        };
        let mut r = TraceReader { name, input, line: 0, nodes, next_id: 0, last_cycle: 0 };
        r.header()?;
        Ok(r)
    }

    fn error(&self, what: impl fmt::Display) -> SimError {
        fail(&self.name, self.line, what)
    }

    /// Reads a CSV trace's header line.
    fn header(&mut self) -> Result<(), SimError> {
        let Input::Csv { reader, row, columns, width } = &mut self.input else { return Ok(()) };
        let mut got = reader.read_record(row);
        while matches!(got, Ok(true)) && skipped(row) {
            got = reader.read_record(row);
        }
        let line = row.position().map_or(1, |p| p.line());
        let fail = |what: String| {
            SimError::Invalid(format!("workload.trace {} line {line}: {what} (--trace)", self.name))
        };
        match got {
            Ok(true) => {}
            Ok(false) => {
                return Err(fail(format!("no header line: a CSV trace starts with {}", COLUMNS.join(","))));
            }
            Err(e) => return Err(fail(format!("unreadable CSV: {}", csv_why(&e)))),
        }
        self.line = line;
        for (i, name) in row.iter().enumerate() {
            let Some(k) = COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(name)) else {
                return Err(fail(format!(
                    "unknown column {name:?}: a CSV trace's columns are {} (the last three optional)",
                    COLUMNS.join(",")
                )));
            };
            if columns[k].replace(i).is_some() {
                return Err(fail(format!("column {name:?} appears twice")));
            }
        }
        if let Some(k) = (0..REQUIRED).find(|&k| columns[k].is_none()) {
            return Err(fail(format!(
                "the header has no column {:?}: a CSV trace's columns are {} (the last three optional)",
                COLUMNS[k],
                COLUMNS.join(",")
            )));
        }
        *width = row.len();
        Ok(())
    }

    /// The next record, or `None` at the end of the trace.
    pub fn next_record(&mut self) -> Result<Option<TraceRecord>, SimError> {
        let mut fields: [Option<u64>; 8] = [None; 8];
        match &mut self.input {
            Input::Csv { reader, row, columns, width } => {
                let mut got = reader.read_record(row);
                while matches!(got, Ok(true)) && skipped(row) {
                    got = reader.read_record(row);
                }
                match got {
                    Ok(true) => self.line = row.position().map_or(self.line + 1, |p| p.line()),
                    Ok(false) => return Ok(None),
                    Err(e) => {
                        let line = e.position().map_or(self.line + 1, |p| p.line());
                        self.line = line;
                        return Err(self.error(format!("unreadable CSV: {}", csv_why(&e))));
                    }
                }
                if row.len() != *width {
                    let n = row.len();
                    return Err(fail(
                        &self.name,
                        self.line,
                        format!("{n} fields, and the header names {width}"),
                    ));
                }
                let columns = *columns;
                for (k, col) in columns.iter().enumerate() {
                    let Some(text) = col.and_then(|c| row.get(c)) else { continue };
                    if text.is_empty() {
                        if k < REQUIRED {
                            let what = format!("{} is empty: {}", COLUMNS[k], takes(k));
                            return Err(fail(&self.name, self.line, what));
                        }
                        continue;
                    }
                    fields[k] = Some(parse_text(k, text).map_err(|e| fail(&self.name, self.line, e))?);
                }
            }
            Input::Json { .. } => {
                let Some(object) = self.json_object()? else { return Ok(None) };
                for (key, value) in &object {
                    let Some(k) = COLUMNS.iter().position(|c| c == key) else {
                        return Err(self.error(format!(
                            "unknown key {key:?}: a record's keys are {} (the last three optional)",
                            COLUMNS.join(", ")
                        )));
                    };
                    if value.is_null() && k >= REQUIRED {
                        continue;
                    }
                    fields[k] = Some(parse_json(k, value).map_err(|e| self.error(e))?);
                }
                if let Some(k) = (0..REQUIRED).find(|&k| fields[k].is_none()) {
                    return Err(self.error(format!("no {:?}: {}", COLUMNS[k], takes(k))));
                }
            }
        }
        self.check(fields).map(Some)
    }

    /// The next non-blank JSON line's object, or `None` at the end.
    fn json_object(&mut self) -> Result<Option<serde_json::Map<String, serde_json::Value>>, SimError> {
        loop {
            let Input::Json { reader, buf } = &mut self.input else { return Ok(None) };
            buf.clear();
            let read = reader.by_ref().take(MAX_LINE).read_until(b'\n', buf);
            let long = matches!(read, Ok(n) if n as u64 == MAX_LINE && buf.last() != Some(&b'\n'));
            let blank = buf.iter().all(u8::is_ascii_whitespace);
            let parsed = (!blank && !long)
                .then(|| serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(buf));
            self.line += 1;
            match read {
                Err(e) => return Err(self.error(format!("cannot read: {e}"))),
                Ok(0) => return Ok(None),
                Ok(_) => {}
            }
            if long {
                return Err(self.error(format!("a line longer than {MAX_LINE} bytes")));
            }
            match parsed {
                None => continue,
                Some(Ok(o)) => return Ok(Some(o)),
                Some(Err(e)) => {
                    return Err(self.error(format!(
                        "not a JSON object such as {{\"id\":0,\"cycle\":5,\"source\":1,\"destination\":9,\"size\":4}}: {e}"
                    )));
                }
            }
        }
    }

    /// Checks a record's fields against each other, the network and the records before it.
    fn check(&mut self, f: [Option<u64>; 8]) -> Result<TraceRecord, SimError> {
        let [Some(id), Some(cycle), Some(source), Some(destination), Some(size), after, wait, salt] = f
        else {
            return Err(self.error("a required field is missing"));
        };
        if id != self.next_id {
            return Err(self.error(format!(
                "id = {id}: records are numbered 0, 1, 2, … in file order, and this one is {}",
                self.next_id
            )));
        }
        if cycle < self.last_cycle {
            return Err(self.error(format!(
                "cycle = {cycle} is before the previous record's cycle {}: records are in nondecreasing cycle order",
                self.last_cycle
            )));
        }
        for (name, node) in [("source", source), ("destination", destination)] {
            if node >= self.nodes as u64 {
                return Err(self.error(format!(
                    "{name} = {node}: the network has {} nodes, 0 to {}",
                    self.nodes,
                    self.nodes.saturating_sub(1)
                )));
            }
        }
        if size == 0 {
            return Err(self.error("size = 0: a message needs at least one flit"));
        }
        if size > MAX_SIZE as u64 {
            return Err(self.error(format!("size = {size}: at most {MAX_SIZE} flits")));
        }
        if let Some(a) = after
            && a >= id
        {
            return Err(self.error(format!(
                "after = {a}: a record waits for the delivery of an earlier record's message, and this is record {id}"
            )));
        }
        if let (None, Some(w)) = (after, wait) {
            return Err(self.error(format!(
                "wait = {w} without after: wait counts from the delivery of message `after`"
            )));
        }
        if let Some(s) = salt
            && s > u32::MAX as u64
        {
            return Err(self.error(format!("salt = {s}: {}", takes(7))));
        }
        self.next_id += 1;
        self.last_cycle = cycle;
        Ok(TraceRecord {
            id,
            cycle,
            source: source as u32,
            destination: destination as u32,
            size: size as u32,
            after,
            wait: wait.unwrap_or(0),
            salt: salt.map(|s| s as u32),
        })
    }
}

/// Whether a CSV line is blank or a comment (its first field starts with `#`).
fn skipped(row: &csv::StringRecord) -> bool {
    row.iter().all(str::is_empty) || row.get(0).is_some_and(|f| f.starts_with('#'))
}

/// An error in trace `name` at `line`.
fn fail(name: &str, line: u64, what: impl fmt::Display) -> SimError {
    SimError::Invalid(format!("workload.trace {name} line {line}: {what} (--trace)"))
}

fn csv_why(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".into(),
        csv::ErrorKind::Io(e) => e.to_string(),
        _ => e.to_string(),
    }
}

/// What field `k` takes, in words.
fn takes(k: usize) -> &'static str {
    match COLUMNS[k] {
        "id" => "the record's number, 0, 1, 2, … in file order",
        "cycle" => "the creation cycle, a whole number 0 or more",
        "source" | "destination" => "a node number, 0 to N - 1",
        "size" => "the message's flits, a whole number 1 or more",
        "after" => "the id of an earlier record",
        "wait" => "cycles after that record's delivery, a whole number 0 or more",
        _ => "a 32-bit tie-break, 0 to 4294967295",
    }
}

fn parse_text(k: usize, text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|_| {
        let why = if text.parse::<f64>().is_ok_and(|x| x < 0.0) { "negative" } else { "not a whole number" };
        format!("{} = {text:?} is {why}: {}", COLUMNS[k], takes(k))
    })
}

fn parse_json(k: usize, v: &serde_json::Value) -> Result<u64, String> {
    v.as_u64().ok_or_else(|| {
        let why = match v {
            serde_json::Value::Number(n) if n.as_f64().is_some_and(|x| x < 0.0) => "negative",
            serde_json::Value::Number(_) => "not a whole number",
            serde_json::Value::String(_) => "text, not a number",
            _ => "not a number",
        };
        format!("{} = {v} is {why}: {}", COLUMNS[k], takes(k))
    })
}

/// What [`validate`] learned about a trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceSummary {
    /// Records (messages: a dump's sends, a netrace trace's packets).
    pub records: u64,
    /// A netrace trace's nodes or a dump's ranks (0: the trace names the network's nodes).
    pub ranks: u32,
    /// netrace: dependencies listed and never met (on a packet not later in the file); a dump:
    /// sends never received. Neither holds anything back.
    pub unmet: u64,
    /// The largest `id − after` of a dependent record (0 without any): how far ahead of its
    /// creations a replay reads.
    pub distance: u64,
    /// The last record's cycle.
    pub last_cycle: u64,
}

/// Reads the whole trace of `t` once, checking every record against `topology` (a netrace
/// trace's or a dump's ranks placed as `t` says, with `seed`).
pub fn validate_input(
    t: &TraceInput,
    topology: &netwrap_topo::Topology,
    seed: u64,
) -> Result<TraceSummary, SimError> {
    let nodes = topology.network().terminals();
    let mut graph = match t.format {
        TraceKind::Csv | TraceKind::Jsonl => return validate(&t.path, nodes),
        _ => Graph::open(t, Vec::new())?,
    };
    let mut s = TraceSummary::default();
    while let Some(n) = graph.next_node()? {
        s.last_cycle = n.cycle;
        s.records += (n.size > 0) as u64;
    }
    (s.distance, s.ranks, s.unmet) = graph.totals();
    if s.records == 0 {
        return Err(SimError::Invalid(format!(
            "workload.trace {}: no messages in it (--trace)",
            t.path.display()
        )));
    }
    crate::collective::trace_placement(t, s.ranks, topology, seed)?;
    Ok(s)
}

/// A netrace trace or a dump, as the dependency-driven replay's nodes.
enum Graph {
    Netrace(netrace::NetraceNodes),
    Dumpi(dumpi::DumpiNodes),
}

impl Graph {
    /// `t`'s file, rank r on node `placement[r]` (on node r past its end).
    fn open(t: &TraceInput, placement: Vec<u32>) -> Result<Self, SimError> {
        Ok(match t.format {
            TraceKind::Dumpi => Graph::Dumpi(dumpi::DumpiNodes::new(
                dumpi::DumpiReader::open(&t.path)?,
                placement,
                t.flit_bytes(),
            )),
            _ => Graph::Netrace(netrace::NetraceNodes::new(
                netrace::NetraceReader::open(&t.path)?,
                placement,
                t.flit_bytes(),
            )),
        })
    }

    fn next_node(&mut self) -> Result<Option<netwrap_engine::deps::Node>, SimError> {
        match self {
            Graph::Netrace(g) => g.next_node(),
            Graph::Dumpi(g) => g.next_node(),
        }
    }

    /// After the last node: the largest distance back of a dependency, the ranks, and what
    /// never met its partner.
    fn totals(&self) -> (u64, u32, u64) {
        match self {
            Graph::Netrace(g) => (g.distance, g.ranks(), g.unmet()),
            Graph::Dumpi(g) => (g.distance, g.ranks_named, g.unreceived()),
        }
    }
}

/// Reads the whole trace at `path` once, checking every record for a network of `nodes` nodes.
pub fn validate(path: &Path, nodes: u32) -> Result<TraceSummary, SimError> {
    let mut r = TraceReader::open(path, nodes)?;
    let mut s = TraceSummary::default();
    while let Some(rec) = r.next_record()? {
        s.records += 1;
        s.last_cycle = rec.cycle;
        if let Some(a) = rec.after {
            s.distance = s.distance.max(rec.id - a);
        }
    }
    Ok(s)
}

/// A validated trace file as the engine replays it: its records streamed from the file, a
/// record at a time ([`netwrap_engine::trace::TraceSource`]). An error met while streaming
/// (the file changed or became unreadable since it was validated) ends the records and is kept
/// here, for [`TraceReplay::take_error`] after the run.
#[derive(Clone, Debug)]
pub struct TraceReplay {
    /// The trace file.
    pub path: PathBuf,
    /// Its nodes' range: the network's node count.
    pub nodes: u32,
    /// What [`validate`] found.
    pub summary: TraceSummary,
    /// The trace and its options.
    pub input: Option<TraceInput>,
    /// A netrace trace's or a dump's ranks' nodes.
    pub placement: Vec<u32>,
    error: Arc<Mutex<Option<SimError>>>,
}

impl TraceReplay {
    /// The validated trace at `path` for a network of `nodes` nodes.
    pub fn new(path: PathBuf, nodes: u32, summary: TraceSummary) -> Self {
        TraceReplay { path, nodes, summary, input: None, placement: Vec::new(), error: Arc::default() }
    }

    /// The validated trace of `t` for a network of `nodes` nodes, a netrace trace's or a
    /// dump's ranks on the nodes of `placement`.
    pub fn of(t: &TraceInput, nodes: u32, summary: TraceSummary, placement: Vec<u32>) -> Self {
        TraceReplay {
            path: t.path.clone(),
            nodes,
            summary,
            input: Some(t.clone()),
            placement,
            error: Arc::default(),
        }
    }

    /// The records, for one run.
    pub fn source(&self) -> TraceSource {
        let error = self.error.clone();
        let fail = move |e: SimError| {
            if let Ok(mut slot) = error.lock() {
                slot.get_or_insert(e);
            }
        };
        let (name, distance) = (self.path.to_string_lossy(), self.summary.distance);
        if let Some(t) = self.input.as_ref().filter(|t| t.format.ranked()) {
            let nodes = until_error(Graph::open(t, self.placement.clone()), Graph::next_node, fail);
            return TraceSource::graph(name, distance, nodes);
        }
        let records = until_error(TraceReader::open(&self.path, self.nodes), TraceReader::next_record, fail);
        TraceSource::new(name, distance, records)
    }

    /// The error met while replaying, taken.
    pub fn take_error(&self) -> Option<SimError> {
        self.error.lock().ok()?.take()
    }
}

/// The items `next` reads from `opened`, ending at the first error (handed to `fail`, as is
/// an error opening it): a replay streams its file and reports what went wrong after the run.
fn until_error<S, T>(
    opened: Result<S, SimError>,
    mut next: impl FnMut(&mut S) -> Result<Option<T>, SimError>,
    fail: impl Fn(SimError),
) -> impl Iterator<Item = T> {
    let mut source = opened.map_err(&fail).ok();
    std::iter::from_fn(move || match next(source.as_mut()?) {
        Ok(item) => item,
        Err(e) => {
            fail(e);
            source = None;
            None
        }
    })
}

/// Writes records in either format.
pub struct TraceWriter {
    out: Box<dyn Write + Send>,
    format: TraceFormat,
    written: u64,
    error: Option<io::Error>,
}

impl TraceWriter {
    /// A writer of `format` onto `out`; a CSV header is written at once.
    pub fn new(out: Box<dyn Write + Send>, format: TraceFormat) -> Self {
        let mut w = TraceWriter { out, format, written: 0, error: None };
        if format == TraceFormat::Csv {
            let header = COLUMNS.join(",");
            let r = writeln!(w.out, "{header}");
            w.keep(r);
        }
        w
    }

    fn keep(&mut self, r: io::Result<()>) {
        if let Err(e) = r {
            self.error.get_or_insert(e);
        }
    }

    /// Writes `r` (nothing more after a write has failed).
    pub fn write(&mut self, r: &TraceRecord) {
        if self.error.is_some() {
            return;
        }
        let out = &mut self.out;
        let result = match self.format {
            TraceFormat::Csv => {
                write!(out, "{},{},{},{},{},", r.id, r.cycle, r.source, r.destination, r.size).and_then(
                    |_| {
                        match r.after {
                            Some(a) => write!(out, "{a},{},", r.wait),
                            None => write!(out, ",,"),
                        }?;
                        match r.salt {
                            Some(s) => writeln!(out, "{s}"),
                            None => writeln!(out),
                        }
                    },
                )
            }
            TraceFormat::JsonLines => write!(
                out,
                "{{\"id\":{},\"cycle\":{},\"source\":{},\"destination\":{},\"size\":{}",
                r.id, r.cycle, r.source, r.destination, r.size
            )
            .and_then(|_| {
                if let Some(a) = r.after {
                    write!(out, ",\"after\":{a},\"wait\":{}", r.wait)?;
                }
                if let Some(s) = r.salt {
                    write!(out, ",\"salt\":{s}")?;
                }
                writeln!(out, "}}")
            }),
        };
        self.written += 1;
        self.keep(result);
    }

    /// Flushes; the first error met, if any, else the records written.
    pub fn finish(&mut self) -> io::Result<u64> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.written)
    }
}

/// Where a run records its messages ([`netwrap_engine::Record::trace`]): a writer shared between
/// the caller, who supplies it and calls [`TraceSink::finish`] after the run, and the workload.
#[derive(Clone)]
pub struct TraceSink(Arc<Mutex<TraceWriter>>);

impl TraceSink {
    /// Records onto `out` in `format`.
    pub fn new(out: Box<dyn Write + Send>, format: TraceFormat) -> Self {
        TraceSink(Arc::new(Mutex::new(TraceWriter::new(out, format))))
    }

    /// Flushes the records; the first write error met, if any, else the records written.
    pub fn finish(&self) -> io::Result<u64> {
        match self.0.lock() {
            Ok(mut w) => w.finish(),
            Err(_) => Err(io::Error::other("a run recording the trace failed")),
        }
    }

    /// The engine's view of this sink: every message a run creates is written here.
    pub fn log(&self) -> MessageLog {
        let writer = self.0.clone();
        MessageLog::new(move |r| {
            if let Ok(mut w) = writer.lock() {
                w.write(r);
            }
        })
    }
}

impl fmt::Debug for TraceSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TraceSink")
    }
}

impl PartialEq for TraceSink {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Experiment, SimResult, SimSpec};
    use netwrap_engine::Record;

    /// A file of this test process's own, holding `text`.
    fn file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("netwrap-trace-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn spec(json: &str) -> SimSpec {
        serde_json::from_str(json).unwrap()
    }

    fn run(s: &SimSpec, trace: Option<TraceSink>) -> SimResult {
        let record =
            Record { messages: true, trace: trace.as_ref().map(TraceSink::log), ..Record::default() };
        let point = s.resolve().unwrap();
        Experiment::build(&point).unwrap().run_with(&point, record).unwrap()
    }

    /// Runs `s` recording its trace to `name`, then replays the trace on the same network.
    fn record_and_replay(s: &SimSpec, name: &str) -> (SimResult, SimResult, PathBuf) {
        let path = file(name, "");
        let format = TraceFormat::of_path(&path).unwrap_or(TraceFormat::Csv);
        let sink = TraceSink::new(Box::new(std::fs::File::create(&path).unwrap()), format);
        let recorded = run(s, Some(sink.clone()));
        let written = sink.finish().unwrap();
        assert_eq!(written, recorded.outcome.messages_total);
        let mut replay = s.clone();
        replay.workload = crate::WorkloadSpec { trace: Some(path.clone()), ..crate::WorkloadSpec::default() };
        (recorded, run(&replay, None), path)
    }

    /// *Verification*: a recorded run replayed on its own network creates every message when the
    /// recorded run did, with its source, destination, size and salt, so it reproduces that
    /// run's every measured message exactly: latency, source wait and hops, message by message
    /// (the expected values are the recorded run's, measured independently of the trace), and
    /// with them the report's mean, percentiles and hop histogram. Per-message figures are the
    /// meaningful comparison: equal means could hide compensating differences. The runs are
    /// loaded enough that messages queue (some source waits and some latencies above the
    /// unloaded h + B), so ties are broken as recorded, not by luck. Cases: open loop on the
    /// ideal switch (fast and flit-by-flit engines) and on the virtual-channel router, a
    /// closed loop of two threads per processor whose every later access is recorded as
    /// following its thread's previous completion, and an open loop whose memories (M = 3)
    /// reply, every reply recorded as following its request.
    #[test]
    fn a_recorded_run_replays_exactly_on_its_own_network() {
        let torus = r#""topology": {"family": "torus", "k": 4, "n": 2}"#;
        let run = r#""run": {"messages": 3000, "warmup": 300, "seed": 7}"#;
        for (name, extra) in [
            ("ideal.csv", r#""workload": {"rate": 0.06}"#),
            (
                "reference.jsonl",
                r#""workload": {"rate": 0.06}, "run": {"messages": 1000, "warmup": 300, "engine": "reference"}"#,
            ),
            ("vc.csv", r#""workload": {"rate": 0.1}, "router": {"kind": "vc"}"#),
            ("threads.jsonl", r#""workload": {"rate": 0.1, "processor": {"threads": 2}}"#),
            ("memories.csv", r#""workload": {"rate": 0.04, "reply": {"memory-latency": 3}}"#),
        ] {
            // The case's own run section, if it has one, replaces the common one.
            let text = if extra.contains("\"run\"") {
                format!("{{{torus}, {extra}}}")
            } else {
                format!("{{{torus}, {extra}, {run}}}")
            };
            let (recorded, replayed, path) = record_and_replay(&spec(&text), name);
            let (a, b) =
                (recorded.outcome.messages.as_ref().unwrap(), replayed.outcome.messages.as_ref().unwrap());
            assert!(a.len() >= 1000 && a.iter().all(|m| m.latency != u64::MAX), "{name}");
            assert_eq!(a, b, "{name}: per-message latencies differ");
            assert!(
                a.iter().any(|m| m.source_wait > 0) && a.iter().any(|m| m.latency > m.hops as u64 + 4),
                "{name}: no contention"
            );
            let (x, y) = (&recorded.report, &replayed.report);
            assert_eq!(
                (x.latency, &x.latency_percentiles, &x.hop_histogram),
                (y.latency, &y.latency_percentiles, &y.hop_histogram),
                "{name}"
            );
            let text = std::fs::read_to_string(&path).unwrap();
            let dependent = if name.ends_with("csv") {
                text.lines().skip(1).filter(|l| l.split(',').nth(5).is_some_and(|a| !a.is_empty())).count()
            } else {
                text.lines().filter(|l| l.contains("\"after\"")).count()
            };
            if name.starts_with("threads") || name.starts_with("memories") {
                assert!(dependent > 1000, "{name}: {dependent} dependent records");
            } else {
                assert_eq!(dependent, 0, "{name}: an open loop depends on nothing");
            }
            std::fs::remove_file(path).ok();
        }
    }

    /// *Verification* of the replay's semantics by hand, on the unidirectional ring of 8 nodes
    /// (one cycle a hop, so an unloaded message of h hops and B flits takes h + B cycles):
    /// record 0, 0 → 3 at cycle 0 (B = 2): delivered at 3 + 2 = 5; record 1 follows it by 2
    /// cycles: created at 7, 3 → 0 is 5 hops, so delivered at 7 + 5 + 2 = 14; record 2, 1 → 2
    /// at cycle 20 (B = 1): 2 cycles. The trace holds 3 messages, fewer than the 10,000
    /// measured messages asked for: once it is over the run measures the 3 and ends at the last
    /// delivery (cycle 22) with every measured message delivered.
    #[test]
    fn dependencies_wait_for_deliveries_and_a_short_trace_ends_the_run() {
        let path = file(
            "short.csv",
            "id,cycle,source,destination,size,after,wait\n0,0,0,3,2,,\n1,6,3,0,2,0,2\n2,20,1,2,1,,\n",
        );
        let s = spec(&format!(
            r#"{{"topology": {{"family": "ring", "k": 8}}, "workload": {{"trace": {:?}}}}}"#,
            path.display().to_string()
        ));
        let r = run(&s, None);
        let lat: Vec<u64> = r.outcome.messages.as_ref().unwrap().iter().map(|m| m.latency).collect();
        assert_eq!(lat, [5, 7, 2]);
        assert_eq!(r.outcome.stop, netwrap_engine::StopReason::Drained);
        assert_eq!((r.outcome.end, r.outcome.measured.target, r.report.messages_delivered), (22, 3, 3));
        let config = r.point.written();
        assert_eq!(config.run.warmup, Some(0));
        assert_eq!(config.workload.trace.as_deref(), Some(path.as_path()));
        std::fs::remove_file(path).ok();
    }

    /// *Verification* by hand of `examples/trace.csv` (docs/sim.md) on the unidirectional
    /// 4-ary 2-cube routed highest dimension first (node x + 4y): 0 → 5 takes 2 hops (6 cycles
    /// with B = 4, delivered at 6); 10 → 5 6 hops (10, at 10); 3 → 12 4 hops with B = 2 (6, at
    /// 7); 5 → 0, 2 cycles after message 0's delivery (created at 8), 6 hops with B = 8 (14, at
    /// 22); 5 → 10, a cycle after message 1's (at 11), waits for the channel (1,1)→(1,2) that
    /// message 3 holds until 16, then 2 hops with B = 8: 15 cycles; 0 → 15, 10 cycles after
    /// message 3's delivery (at 32), 6 hops with B = 4 (10, at 42).
    #[test]
    fn the_documented_example_trace() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/trace.csv");
        let s = spec(&format!(
            r#"{{"topology": {{"family": "torus", "k": 4}}, "workload": {{"trace": {:?}}}}}"#,
            path.display().to_string()
        ));
        let r = run(&s, None);
        let lat: Vec<u64> = r.outcome.messages.as_ref().unwrap().iter().map(|m| m.latency).collect();
        assert_eq!(lat, [6, 10, 6, 14, 15, 10]);
        assert_eq!(r.outcome.end, 42);
    }

    /// *Characterisation* of the reader: the same records as CSV (columns in any order,
    /// optional ones left out or empty, comments) and as JSON lines read alike; a file without
    /// a known extension is sniffed.
    #[test]
    fn csv_and_json_lines_read_alike() {
        let csv = "# a comment\nsource,destination,id,cycle,size,after,wait\n1,9,0,5,4,,\n9,1,1,7,4,0,2\n";
        let json = "{\"id\":0,\"cycle\":5,\"source\":1,\"destination\":9,\"size\":4}\n\n{\"id\":1,\"cycle\":7,\"source\":9,\"destination\":1,\"size\":4,\"after\":0,\"wait\":2,\"salt\":null}\n";
        let read = |name: &str, text: &str| -> Vec<TraceRecord> {
            let path = file(name, text);
            let mut r = TraceReader::open(&path, 16).unwrap();
            let mut v = Vec::new();
            while let Some(rec) = r.next_record().unwrap() {
                v.push(rec);
            }
            std::fs::remove_file(path).ok();
            v
        };
        let a = read("alike.csv", csv);
        assert_eq!(a, read("alike.jsonl", json));
        assert_eq!(a, read("alike.trace", json));
        assert_eq!(
            a[1],
            TraceRecord {
                id: 1,
                cycle: 7,
                source: 9,
                destination: 1,
                size: 4,
                after: Some(0),
                wait: 2,
                salt: None
            }
        );
        let path = file("summary.csv", csv);
        assert_eq!(
            validate(&path, 16).unwrap(),
            TraceSummary { records: 2, distance: 1, last_cycle: 7, ..TraceSummary::default() }
        );
        std::fs::remove_file(path).ok();
    }

    /// *Characterisation*: every kind of bad record is refused with its line number and what
    /// the field takes.
    #[test]
    fn bad_records_name_their_line() {
        let h = "id,cycle,source,destination,size,after,wait\n";
        for (text, fragment) in [
            (
                format!("{h}0,0,1,2,4,,\n1,3,1,16,4,,\n"),
                "line 3: destination = 16: the network has 16 nodes, 0 to 15",
            ),
            (format!("{h}0,-3,1,2,4,,\n"), "line 2: cycle = \"-3\" is negative"),
            (format!("{h}0,soon,1,2,4,,\n"), "line 2: cycle = \"soon\" is not a whole number"),
            (format!("{h}0,0,1,2,0,,\n"), "line 2: size = 0: a message needs at least one flit"),
            (
                format!("{h}0,0,1,2,4,,\n1,1,1,2,4,1,0\n"),
                "line 3: after = 1: a record waits for the delivery of an earlier record's message",
            ),
            (
                format!("{h}0,5,1,2,4,,\n1,3,1,2,4,,\n"),
                "line 3: cycle = 3 is before the previous record's cycle 5",
            ),
            (format!("{h}0,5,1,2,4,,\n2,6,1,2,4,,\n"), "line 3: id = 2: records are numbered 0, 1, 2"),
            (format!("{h}0,5,1,2\n"), "line 2: 4 fields, and the header names 7"),
            (format!("{h}\n# a comment\n\r\n0,x,1,2,4,,\n"), "line 5: cycle = \"x\" is not a whole number"),
            (format!("{h}0,5,1,2,4,,3\n"), "line 2: wait = 3 without after"),
            ("id,cycle,source,size\n".to_string(), "line 1: the header has no column \"destination\""),
            ("id,cycle,source,destination,size,colour\n".to_string(), "line 1: unknown column \"colour\""),
            (
                format!("{h}0,0,1,2,4,,\n1,{}", "9".repeat(100_000)),
                "line 3: unreadable CSV: a line longer than 65536 bytes",
            ),
            (String::new(), "line 1: no header line"),
        ] {
            let path = file("bad.csv", &text);
            let e = validate(&path, 16).unwrap_err().to_string();
            let shown: String = text.chars().take(200).collect();
            assert!(e.contains(fragment) && e.ends_with("(--trace)"), "{shown:?}: {e}");
        }
        for (text, fragment) in [
            (
                "{\"id\":0,\"cycle\":-1,\"source\":1,\"destination\":2,\"size\":4}\n",
                "line 1: cycle = -1 is negative",
            ),
            (
                "\n{\"id\":0,\"cycle\":\"5\",\"source\":1,\"destination\":2,\"size\":4}\n",
                "line 2: cycle = \"5\" is text",
            ),
            ("{\"id\":0,\"cycle\":1,\"source\":1,\"size\":4}\n", "line 1: no \"destination\""),
            (
                "{\"id\":0,\"cycle\":1,\"source\":1,\"destination\":2,\"size\":4,\"colour\":1}\n",
                "line 1: unknown key \"colour\"",
            ),
            (
                "{\"id\":0,\"cycle\":1.5,\"source\":1,\"destination\":2,\"size\":4}\n",
                "line 1: cycle = 1.5 is not a whole number",
            ),
            (
                "{\"id\":0,\"cycle\":1,\"source\":1,\"destination\":2,\"size\":4}\n[1]\n",
                "line 2: not a JSON object",
            ),
        ] {
            let path = file("bad.jsonl", text);
            let e = validate(&path, 16).unwrap_err().to_string();
            assert!(e.contains(fragment), "{text:?}: {e}");
        }
    }
}
