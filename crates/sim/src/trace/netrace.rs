//! netrace v1 traces (Hestness, Grot & Keckler 2010): the dependency-annotated packet traces of
//! full-system cache-coherent multicore runs, replayed with their dependencies
//! (`--trace FILE.tra.bz2`, or `--trace-format netrace`).
//!
//! # The file
//! As netrace 1.0's `netrace.c` reads it, little-endian and packed: a 72-byte header — magic
//! `0x484A5455`, version (a 32-bit float, 1.0), the benchmark's name (30 bytes, NUL-padded),
//! the node count (8 bits) and a pad byte, cycles and packets (64 bits each), the notes'
//! length and the regions' count (32 bits each), 8 bytes of padding — then the notes (that
//! many bytes, read when fewer than 8,192) and the regions (24 bytes each: seek offset,
//! cycles, packets; at most 100). Then the packets, in nondecreasing cycle order, each 21
//! bytes — cycle (64 bits), id and address (32 bits each), type, source, destination, node
//! types and dependency count (8 bits each) — followed by that many 32-bit packet ids. The
//! distributed traces are bzip2-compressed; a file starting `BZh` is decompressed as it is
//! read (the `bzip2` crate), any other is read as it is.
//!
//! # What a packet is
//! A message from node `src` to node `dst` (netrace's nodes are ranks, placed on the network
//! by `workload.placement`, as a collective's are), created at `cycle`. Its size is its
//! type's in netrace's table (`nt_packet_sizes`: 8 bytes for requests, acknowledgements and
//! invalidations, 72 for a cache line's data), in flits of `workload.flit-bytes` (default 16:
//! 1 and 5 flits). A type without a size (`InvalidCmd`) is refused.
//!
//! # Dependencies
//! A packet lists the packets that depend on it (netrace's `deps`: the ids of the packets its
//! delivery releases). As netrace's self-throttling reader and its example simulator do, a
//! packet is created at its cycle or, if some packets it depends on are not delivered by
//! then, in the cycle the last of them is delivered: max(cycle, last delivery). Here that is a
//! node waiting for its dependencies and for a join created at its cycle ([`crate::trace`]'s
//! dependency-driven replay). A dependency on a packet that does not come later in the file is
//! never met and waits for nothing — netrace's reader lets such a packet go too; the summary
//! counts them ([`super::TraceSummary::unmet`]).
//!
//! # Memory
//! The file is streamed: the reader keeps the dependencies listed and not yet met (a packet
//! id and a node number each), not the packets.

use super::fail_at;
use crate::SimError;
use netwrap_engine::deps::Node;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

/// netrace's magic number.
pub const MAGIC: u32 = 0x484A_5455;
/// The bytes of the packed header.
const HEADER: usize = 72;
/// The bytes of a benchmark's name.
const NAME: usize = 30;
/// The bytes of a packet before its dependencies.
const PACKET: usize = 21;
/// The most regions netrace reads.
const MAX_REGIONS: u32 = 100;

/// Bytes of each packet type (netrace 1.0's `nt_packet_sizes`; -1: not a packet).
pub const PACKET_BYTES: [i32; 31] = [
    -1, 8, 72, 72, 72, 8, 72, -1, -1, -1, -1, -1, -1, 8, 8, 8, 72, -1, -1, -1, -1, -1, -1, -1, -1, 8, -1, 8,
    8, 8, 72,
];

/// A trace's header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Header {
    /// The benchmark's name.
    pub benchmark: String,
    /// Nodes (ranks).
    pub nodes: u8,
    /// Cycles the trace spans.
    pub cycles: u64,
    /// Packets in it.
    pub packets: u64,
    /// Notes.
    pub notes: String,
    /// Program regions: (seek offset, cycles, packets).
    pub regions: Vec<(u64, u64, u64)>,
}

/// One packet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packet {
    /// Creation cycle in the recorded run.
    pub cycle: u64,
    /// Its id.
    pub id: u32,
    /// The address it concerns.
    pub addr: u32,
    /// Its type (an index of [`PACKET_BYTES`]).
    pub kind: u8,
    /// Source node.
    pub src: u8,
    /// Destination node.
    pub dst: u8,
    /// Source and destination node types (4 bits each).
    pub node_types: u8,
    /// The ids of the packets that depend on it.
    pub deps: Vec<u32>,
}

/// A netrace file read packet by packet, each checked, with its packet number and byte offset
/// (in the decompressed stream) in any error.
pub struct NetraceReader {
    name: String,
    input: Box<dyn Read + Send>,
    /// Bytes read.
    offset: u64,
    /// Packets read.
    index: u64,
    last_cycle: u64,
    /// What the header says.
    pub header: Header,
}

/// Reads up to `buf.len()` bytes; how many (fewer only at the end).
fn fill(input: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

impl NetraceReader {
    /// Opens the netrace file at `path` (bzip2-compressed or not).
    pub fn open(path: &Path) -> Result<Self, SimError> {
        let name = path.display().to_string();
        let cannot = |e: std::io::Error| {
            SimError::Invalid(format!("workload.trace: cannot read {name}: {e} (--trace)"))
        };
        let mut file = BufReader::new(std::fs::File::open(path).map_err(cannot)?);
        let compressed = file.fill_buf().map_err(cannot)?.starts_with(b"BZh");
        let input: Box<dyn Read + Send> =
            if compressed { Box::new(bzip2::read::MultiBzDecoder::new(file)) } else { Box::new(file) };
        Self::from_reader(input, name)
    }

    /// Reads a netrace trace from `input` (decompressed), named `name` in errors.
    pub fn from_reader(input: Box<dyn Read + Send>, name: String) -> Result<Self, SimError> {
        let mut r =
            NetraceReader { name, input, offset: 0, index: 0, last_cycle: 0, header: Header::default() };
        r.read_header()?;
        Ok(r)
    }

    fn header_error(&self, what: impl std::fmt::Display) -> SimError {
        fail_at(&self.name, &format!("header (byte {})", self.offset), what)
    }

    fn error(&self, what: impl std::fmt::Display) -> SimError {
        fail_at(&self.name, &format!("packet {} (byte {})", self.index, self.offset), what)
    }

    /// Reads exactly `buf.len()` bytes of the header, or fails saying what was cut short.
    fn header_bytes(&mut self, buf: &mut [u8], what: &str) -> Result<(), SimError> {
        let n =
            fill(&mut self.input, buf).map_err(|e| self.header_error(format!("cannot read {what}: {e}")))?;
        if n < buf.len() {
            self.offset += n as u64;
            return Err(self.header_error(format!(
                "the file ends within {what} ({n} of its {} bytes): not a whole netrace v1 trace",
                buf.len()
            )));
        }
        self.offset += n as u64;
        Ok(())
    }

    fn read_header(&mut self) -> Result<(), SimError> {
        let mut h = [0u8; HEADER];
        self.header_bytes(&mut h, "the header")?;
        let magic = u32_at(&h, 0);
        if magic != MAGIC {
            self.offset = 0;
            return Err(self.header_error(format!(
                "magic number {magic:#010x}, not netrace's {MAGIC:#010x}: not a netrace trace (netrace files, bzip2-compressed or not, start with it; --trace-format names the format)"
            )));
        }
        let version = f32::from_le_bytes([h[4], h[5], h[6], h[7]]);
        if version != 1.0 {
            self.offset = 4;
            return Err(self.header_error(format!("version {version}: netwrap reads netrace v1.0 traces")));
        }
        let name = &h[8..8 + NAME];
        let end = name.iter().position(|&b| b == 0).unwrap_or(NAME);
        let nodes = h[8 + NAME];
        let (cycles, packets) = (u64_at(&h, 40), u64_at(&h, 48));
        let (notes_length, regions) = (u32_at(&h, 56), u32_at(&h, 60));
        if nodes == 0 {
            self.offset = 38;
            return Err(self.header_error("0 nodes: a trace's packets travel between its nodes"));
        }
        if regions > MAX_REGIONS {
            self.offset = 60;
            return Err(self.header_error(format!(
                "{regions} regions: netrace reads at most {MAX_REGIONS} (a damaged header?)"
            )));
        }
        let mut notes = String::new();
        if notes_length > 0 && notes_length < 8192 {
            let mut buf = vec![0u8; notes_length as usize];
            self.header_bytes(&mut buf, "the notes")?;
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            notes = String::from_utf8_lossy(&buf[..end]).into_owned();
        }
        let mut list = Vec::new();
        for _ in 0..regions {
            let mut buf = [0u8; 24];
            self.header_bytes(&mut buf, "a region's header")?;
            list.push((u64_at(&buf, 0), u64_at(&buf, 8), u64_at(&buf, 16)));
        }
        self.header = Header {
            benchmark: String::from_utf8_lossy(&name[..end]).into_owned(),
            nodes,
            cycles,
            packets,
            notes,
            regions: list,
        };
        Ok(())
    }

    /// The next packet, or `None` at the end of the trace.
    pub fn next_packet(&mut self) -> Result<Option<Packet>, SimError> {
        let mut b = [0u8; PACKET];
        let n = fill(&mut self.input, &mut b).map_err(|e| self.error(format!("cannot read: {e}")))?;
        if n == 0 {
            return Ok(None);
        }
        if n < PACKET {
            return Err(self.error(format!(
                "the file ends within the packet ({n} of its {PACKET} bytes): the trace is cut short"
            )));
        }
        let p = Packet {
            cycle: u64_at(&b, 0),
            id: u32_at(&b, 8),
            addr: u32_at(&b, 12),
            kind: b[16],
            src: b[17],
            dst: b[18],
            node_types: b[19],
            deps: Vec::new(),
        };
        let count = b[20] as usize;
        let mut deps = vec![0u8; 4 * count];
        let got = fill(&mut self.input, &mut deps).map_err(|e| self.error(format!("cannot read: {e}")))?;
        if got < deps.len() {
            return Err(self.error(format!(
                "the file ends within the packet's {count} dependencies ({got} of their {} bytes): the trace is cut short",
                deps.len()
            )));
        }
        let p = Packet { deps: deps.chunks_exact(4).map(|c| u32_at(c, 0)).collect(), ..p };
        if p.cycle < self.last_cycle {
            return Err(self.error(format!(
                "cycle = {} is before the previous packet's cycle {}: netrace packets are in nondecreasing cycle order",
                p.cycle, self.last_cycle
            )));
        }
        if PACKET_BYTES.get(p.kind as usize).is_none_or(|&b| b <= 0) {
            return Err(self.error(format!(
                "type = {}: not a packet type of netrace's table (1-6, 13-16, 25, 27-30)",
                p.kind
            )));
        }
        for (field, node) in [("source", p.src), ("destination", p.dst)] {
            if node >= self.header.nodes {
                return Err(self.error(format!(
                    "{field} = {node}: the header gives {} nodes, 0 to {}",
                    self.header.nodes,
                    self.header.nodes - 1
                )));
            }
        }
        self.offset += (PACKET + 4 * count) as u64;
        self.index += 1;
        self.last_cycle = p.cycle;
        Ok(Some(p))
    }
}

/// A netrace trace as the dependency-driven source's nodes (see the module docs): each packet
/// a message, a packet that depends on others preceded by its cycle's join.
pub struct NetraceNodes {
    reader: NetraceReader,
    /// Rank r's node.
    placement: Vec<u32>,
    flit_bytes: u32,
    next_id: u64,
    /// Per packet id listed as depending on earlier packets: their node numbers.
    waiting: HashMap<u32, Vec<u64>>,
    /// A packet's node, behind its join.
    queued: Option<Node>,
    /// Dependencies met, and the largest `id − after` of any node.
    pub met: u64,
    /// The largest distance back of a dependency, in node numbers.
    pub distance: u64,
}

impl NetraceNodes {
    /// The nodes of `reader`'s packets, rank r on node `placement[r]`, `flit_bytes` a flit.
    pub fn new(reader: NetraceReader, placement: Vec<u32>, flit_bytes: u32) -> Self {
        NetraceNodes {
            reader,
            placement,
            flit_bytes: flit_bytes.max(1),
            next_id: 0,
            waiting: HashMap::new(),
            queued: None,
            met: 0,
            distance: 0,
        }
    }

    /// The trace's nodes (ranks), as its header gives them.
    pub fn ranks(&self) -> u32 {
        self.reader.header.nodes as u32
    }

    /// Dependencies listed and never met (so far: at the end, in all).
    pub fn unmet(&self) -> u64 {
        self.waiting.values().map(|v| v.len() as u64).sum()
    }

    /// The next node, or `None` at the end.
    pub fn next_node(&mut self) -> Result<Option<Node>, SimError> {
        if let Some(n) = self.queued.take() {
            return Ok(Some(n));
        }
        let Some(p) = self.reader.next_packet()? else { return Ok(None) };
        let place = |r: u8| self.placement.get(r as usize).copied().unwrap_or(r as u32);
        let (src, dst) = (place(p.src), place(p.dst));
        let bytes = PACKET_BYTES[p.kind as usize] as u32;
        let mut node = Node {
            id: self.next_id,
            cycle: p.cycle,
            source: src,
            destination: dst,
            size: bytes.div_ceil(self.flit_bytes).max(1),
            after: Vec::new(),
            wait: 0,
            salt: None,
            phase: 0,
        };
        let mut out = None;
        if let Some(after) = self.waiting.remove(&p.id) {
            // Created at max(cycle, the last delivery): it also waits for a join at its cycle.
            self.met += after.len() as u64;
            let join = Node { size: 0, destination: src, after: Vec::new(), ..node.clone() };
            node.id += 1;
            node.after = after;
            node.after.push(join.id);
            self.distance = self.distance.max(node.id - node.after.iter().min().copied().unwrap_or(node.id));
            out = Some(join);
        }
        self.next_id = node.id + 1;
        for d in &p.deps {
            self.waiting.entry(*d).or_default().push(node.id);
        }
        Ok(Some(match out {
            Some(join) => {
                self.queued = Some(node);
                join
            }
            None => node,
        }))
    }
}

/// Writes a netrace v1 trace (uncompressed) of `header` and `packets`: for tests, and for tools
/// that make netrace files of their own.
pub fn write(out: &mut dyn Write, header: &Header, packets: &[Packet]) -> std::io::Result<()> {
    let mut h = [0u8; HEADER];
    h[0..4].copy_from_slice(&MAGIC.to_le_bytes());
    h[4..8].copy_from_slice(&1.0f32.to_le_bytes());
    let name = header.benchmark.as_bytes();
    let n = name.len().min(NAME - 1);
    h[8..8 + n].copy_from_slice(&name[..n]);
    h[8 + NAME] = header.nodes;
    h[40..48].copy_from_slice(&header.cycles.to_le_bytes());
    h[48..56].copy_from_slice(&header.packets.to_le_bytes());
    let notes = if header.notes.is_empty() { Vec::new() } else { [header.notes.as_bytes(), &[0]].concat() };
    h[56..60].copy_from_slice(&(notes.len() as u32).to_le_bytes());
    h[60..64].copy_from_slice(&(header.regions.len() as u32).to_le_bytes());
    out.write_all(&h)?;
    out.write_all(&notes)?;
    for &(a, b, c) in &header.regions {
        for x in [a, b, c] {
            out.write_all(&x.to_le_bytes())?;
        }
    }
    for p in packets {
        out.write_all(&p.cycle.to_le_bytes())?;
        out.write_all(&p.id.to_le_bytes())?;
        out.write_all(&p.addr.to_le_bytes())?;
        out.write_all(&[p.kind, p.src, p.dst, p.node_types, p.deps.len() as u8])?;
        for d in &p.deps {
            out.write_all(&d.to_le_bytes())?;
        }
    }
    Ok(())
}
