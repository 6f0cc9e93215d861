//! Graph files (`graph --file F [--terminals T]`): any network a user writes down, parsed into
//! a [`FileGraph`] for [`netwrap_topo::Shape::Graph`]. netwrap-topo reads no files, so the
//! parsing lives here, beside the trace files, and [`crate::shape_of`] calls it when a spec's
//! topology is a graph.
//!
//! # Formats
//! A file ending in `.csv` is a CSV edge list, one ending in `.json` networkx node-link JSON;
//! any other file is read by its content: JSON when its first non-blank character is `{`,
//! BookSim2's anynet format when its first word is `router` or `node`, a CSV edge list
//! otherwise.
//!
//! * **anynet** (BookSim2's `src/networks/anynet.cpp`): lines `router R (router S [lat] |
//!   node N [lat])…` and `node N router R [lat]`. `router 0 router 1 15` is a channel 0 → 1 of
//!   15 cycles and, unless another line gives 1 → 0, a channel 1 → 0 of 1 cycle; a channel
//!   given twice is one channel (as BookSim2's maps do), refused if the two latencies differ.
//!   `node N` attaches terminal N to the router; terminals keep their node numbers, which must
//!   be 0..N−1. Not supported: terminal (injection/ejection) latencies other than 1, refused.
//!   Extensions: blank lines and lines starting with `#` or `//` are skipped; router numbers
//!   need not be dense (they are renumbered in order).
//! * **CSV edge list**: rows `src,dst[,latency[,directed]]`; a first row starting with `src`,
//!   `source` or `from` is a header naming the columns (`src`|`source`|`from`,
//!   `dst`|`target`|`to`, `latency`, `directed`) in any order. Each row is an undirected
//!   edge, a channel each way of the same latency (default 1), or with `directed` = `1`,
//!   `true` or `yes` one channel src → dst. Blank lines and lines starting with `#` are skipped;
//!   fields are not quoted. Every router has one terminal unless `--terminals T` names a file of
//!   `router,count` rows (header `router,…` optional; count 0 makes a pure switch).
//! * **networkx node-link JSON**: `{"nodes": [{"id": …, "terminals": 2}], "links": [{"source":
//!   …, "target": …, "latency": 3}]}` (`edges` for `links` too); ids are strings or numbers
//!   ≥ 0; `"directed": true` makes each link one channel, otherwise a channel each way; a node
//!   without `terminals` has one; other attributes are ignored.
//!
//! Router names are kept for messages; routers are numbered 0..R−1 in numeric order when every
//! name is a number, otherwise in order of first appearance (JSON: the order of `nodes`).
//! CSV and JSON terminals are numbered router by router. Self-loops, a channel given twice
//! (CSV, JSON), a graph without routers or terminals and a graph some router cannot reach (or
//! be reached from) are refused, each error naming the file and its line (JSON: the node or
//! link by index).

use crate::SimError;
use netwrap_topo::{FileGraph, MAX_TERMINALS};
use serde_json::Value;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;

/// The largest graph file read: 256 MiB.
pub const MAX_FILE_BYTES: u64 = 256 << 20;
/// The longest channel latency a file may give, in cycles.
pub const MAX_LATENCY: u32 = 1_000_000;

/// The format of a graph file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    /// BookSim2's anynet.
    Anynet,
    /// A CSV edge list.
    Csv,
    /// networkx node-link JSON.
    Json,
}

impl GraphFormat {
    /// The format of `name`: by extension (`.csv`, `.json`), otherwise by content.
    pub fn of(name: &str, text: &str) -> Self {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".csv") {
            return GraphFormat::Csv;
        }
        if lower.ends_with(".json") {
            return GraphFormat::Json;
        }
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"));
        match first {
            Some(l) if l.starts_with('{') => GraphFormat::Json,
            Some(l) if matches!(l.split_whitespace().next(), Some("router" | "node")) => GraphFormat::Anynet,
            _ => GraphFormat::Csv,
        }
    }
}

/// Reads and parses the graph `file`, with the terminals file `terminals` (CSV only).
pub fn read(file: &Path, terminals: Option<&Path>) -> Result<FileGraph, SimError> {
    let name = file.display().to_string();
    let text = read_text(file)?;
    let terms = match terminals {
        Some(t) => Some((t.display().to_string(), read_text(t)?)),
        None => None,
    };
    parse(&name, &text, terms.as_ref().map(|(n, t)| (n.as_str(), t.as_str())))
}

fn read_text(path: &Path) -> Result<String, SimError> {
    let name = path.display();
    let cannot = |e: std::io::Error| SimError::Invalid(format!("cannot read graph file {name}: {e}"));
    let len = std::fs::metadata(path).map_err(cannot)?.len();
    if len > MAX_FILE_BYTES {
        return Err(SimError::Invalid(format!(
            "graph file {name} holds {len} bytes: netwrap reads graph files of at most {MAX_FILE_BYTES} bytes"
        )));
    }
    std::fs::read_to_string(path).map_err(cannot)
}

/// Parses the graph file `name` holding `text`, with a terminals file `(name, text)`.
pub fn parse(name: &str, text: &str, terminals: Option<(&str, &str)>) -> Result<FileGraph, SimError> {
    let format = GraphFormat::of(name, text);
    if terminals.is_some() && format != GraphFormat::Csv {
        return Err(SimError::Invalid(format!(
            "{name}: --terminals (topology.terminals) applies to CSV edge lists; an anynet file attaches its nodes itself, a JSON file gives nodes a terminals attribute"
        )));
    }
    let mut g = Parts::new(name);
    match format {
        GraphFormat::Anynet => anynet(&mut g, text)?,
        GraphFormat::Csv => {
            csv_edges(&mut g, text)?;
            if let Some((tname, ttext)) = terminals {
                terminals_file(&mut g, tname, ttext)?;
            }
        }
        GraphFormat::Json => json(&mut g, text)?,
    }
    g.finish().map_err(|e| SimError::Invalid(format!("{name}: {e}")))
}

/// The graph as read, routers in order of first appearance.
struct Parts {
    file: String,
    names: Vec<String>,
    index: HashMap<String, u32>,
    /// (source, destination) → (latency, where it was given, explicitly).
    channels: HashMap<(u32, u32), (u32, String, bool)>,
    /// Terminals per router (CSV, JSON): `None` gives 1.
    counts: Vec<Option<u32>>,
    /// Anynet: (node, router).
    nodes: Option<HashMap<u64, (u32, usize)>>,
}

fn at_line(file: &str, line: usize, what: impl std::fmt::Display) -> SimError {
    SimError::Invalid(format!("{file} line {line}: {what}"))
}

impl Parts {
    fn new(file: &str) -> Self {
        Parts {
            file: file.to_string(),
            names: Vec::new(),
            index: HashMap::new(),
            channels: HashMap::new(),
            counts: Vec::new(),
            nodes: None,
        }
    }

    fn router(&mut self, name: &str) -> u32 {
        if let Some(&r) = self.index.get(name) {
            return r;
        }
        let r = self.names.len() as u32;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), r);
        self.counts.push(None);
        r
    }

    /// Adds channel `s -> d`, refusing self-loops and (unless `merge`) duplicates.
    fn channel(
        &mut self,
        s: u32,
        d: u32,
        latency: u32,
        at: &str,
        explicit: bool,
        merge: bool,
    ) -> Result<(), String> {
        if s == d {
            return Err(format!("router {} is joined to itself (a self-loop)", self.names[s as usize]));
        }
        let pair = format!("{} -> {}", self.names[s as usize], self.names[d as usize]);
        match self.channels.entry((s, d)) {
            Entry::Vacant(v) => {
                v.insert((latency, at.to_string(), explicit));
            }
            Entry::Occupied(mut o) => {
                let (old, before, was_explicit) = o.get().clone();
                if !merge {
                    return Err(format!(
                        "channel {pair} is given twice ({before} and {at}); write each edge once"
                    ));
                }
                match (was_explicit, explicit) {
                    (_, false) => {}
                    (false, true) => {
                        o.insert((latency, at.to_string(), true));
                    }
                    (true, true) if old != latency => {
                        return Err(format!(
                            "channel {pair} is given latencies {old} ({before}) and {latency} ({at})"
                        ));
                    }
                    (true, true) => {}
                }
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<FileGraph, String> {
        let r = self.names.len();
        if r == 0 {
            return Err("the graph is empty: no routers".into());
        }
        // Dense ids: numeric order when every name is a number, else first appearance.
        let mut order: Vec<u32> = (0..r as u32).collect();
        let numbers: Option<Vec<u64>> = self.names.iter().map(|n| n.parse::<u64>().ok()).collect();
        if let Some(nums) = &numbers {
            order.sort_by_key(|&i| (nums[i as usize], self.names[i as usize].clone()));
        }
        let mut new_id = vec![0u32; r];
        for (new, &old) in order.iter().enumerate() {
            new_id[old as usize] = new as u32;
        }
        let names: Vec<String> = order.iter().map(|&o| self.names[o as usize].clone()).collect();
        let mut channels: Vec<(u32, u32, u32)> = self
            .channels
            .iter()
            .map(|(&(s, d), &(l, _, _))| (new_id[s as usize], new_id[d as usize], l))
            .collect();
        channels.sort_unstable();
        let attach: Vec<u32> = match &self.nodes {
            Some(nodes) => {
                let mut list: Vec<(u64, u32)> =
                    nodes.iter().map(|(&n, &(r, _))| (n, new_id[r as usize])).collect();
                list.sort_unstable();
                if let Some((i, _)) = list.iter().enumerate().find(|&(i, &(n, _))| n != i as u64) {
                    return Err(format!(
                        "node {i} is missing: nodes must be numbered 0..N-1 (BookSim2 numbers terminals so); {} nodes given, up to node {}",
                        list.len(),
                        list.last().map_or(0, |l| l.0)
                    ));
                }
                list.into_iter().map(|(_, r)| r).collect()
            }
            None => {
                let mut total = 0u64;
                let mut attach = Vec::new();
                for (new, &old) in order.iter().enumerate() {
                    let c = self.counts[old as usize].unwrap_or(1) as u64;
                    total += c;
                    if total > MAX_TERMINALS {
                        return Err(format!("more than {MAX_TERMINALS} terminals: netwrap's limit"));
                    }
                    attach.extend(std::iter::repeat_n(new as u32, c as usize));
                }
                attach
            }
        };
        if attach.is_empty() {
            return Err("no terminals: at least one router needs a terminal".into());
        }
        // Every router reaches, and is reached from, router 0.
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); r];
        let mut inn: Vec<Vec<u32>> = vec![Vec::new(); r];
        for &(s, d, _) in &channels {
            out[s as usize].push(d);
            inn[d as usize].push(s);
        }
        for (adj, forward) in [(&out, true), (&inn, false)] {
            let mut seen = vec![false; r];
            seen[0] = true;
            let mut stack = vec![0usize];
            while let Some(x) = stack.pop() {
                for &y in &adj[x] {
                    if !seen[y as usize] {
                        seen[y as usize] = true;
                        stack.push(y as usize);
                    }
                }
            }
            if let Some(u) = seen.iter().position(|&s| !s) {
                let (from, to) = if forward { (&names[0], &names[u]) } else { (&names[u], &names[0]) };
                return Err(format!(
                    "the graph is not connected: router {to} cannot be reached from router {from}"
                ));
            }
        }
        Ok(FileGraph { file: self.file, names, channels, attach })
    }
}

/// A router's name in CSV: a number ≥ 0 or a name starting with a letter or `_`.
fn router_name(s: &str) -> Result<&str, String> {
    if s.is_empty() {
        return Err("a router name is empty".into());
    }
    let number = s.bytes().all(|b| b.is_ascii_digit());
    let word = s.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || "_.:-".contains(c));
    if number || word {
        Ok(s)
    } else {
        Err(format!("router {s} is not a number ≥ 0 or a name starting with a letter"))
    }
}

fn latency(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(l) if (1..=MAX_LATENCY).contains(&l) => Ok(l),
        _ => Err(format!("latency {s} is not a whole number of cycles in 1..={MAX_LATENCY}")),
    }
}

fn number(s: &str, what: &str) -> Result<u64, String> {
    s.parse::<u64>().map_err(|_| format!("{what} {s} is not a number ≥ 0"))
}

fn anynet(g: &mut Parts, text: &str) -> Result<(), SimError> {
    #[derive(PartialEq)]
    enum Kind {
        Router,
        Node,
    }
    let file = g.file.clone();
    let mut nodes: HashMap<u64, (u32, usize)> = HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') || l.starts_with("//") {
            continue;
        }
        let fail = |what: String| at_line(&file, line, what);
        let kind = |t: &str| match t {
            "router" => Ok(Kind::Router),
            "node" => Ok(Kind::Node),
            _ => Err(format!("expected router or node, not {t}")),
        };
        let mut tokens = l.split_whitespace().peekable();
        let head = kind(tokens.next().unwrap_or_default()).map_err(fail)?;
        let Some(head_id) = tokens.next() else {
            return Err(fail("the line ends before the first id".into()));
        };
        let what = if head == Kind::Router { "router" } else { "node" };
        let head_id = number(head_id, what).map_err(fail)?;
        let head_router = (head == Kind::Router).then(|| g.router(&head_id.to_string()));
        while let Some(t) = tokens.next() {
            let body = kind(t).map_err(|e| fail(format!("{e} (a latency follows a router or node once)")))?;
            let what = if body == Kind::Router { "router" } else { "node" };
            let Some(id) = tokens.next() else {
                return Err(fail(format!("{what} without its id at the end of the line")));
            };
            let id = number(id, what).map_err(fail)?;
            let lat = match tokens.peek() {
                Some(&t) if t != "router" && t != "node" => {
                    tokens.next();
                    latency(t).map_err(fail)?
                }
                _ => 1,
            };
            let at = format!("line {line}");
            let attach = |nodes: &mut HashMap<u64, (u32, usize)>,
                          names: &[String],
                          node: u64,
                          router: u32| {
                if lat != 1 {
                    return Err(fail(format!(
                        "node {node} has link latency {lat}: terminal (injection and ejection) latencies other than 1 are not supported"
                    )));
                }
                match nodes.get(&node) {
                    Some(&(r, before)) if r != router => Err(fail(format!(
                        "node {node} is attached to router {} already (line {before}): a node has one router",
                        names[r as usize]
                    ))),
                    _ => {
                        nodes.insert(node, (router, line));
                        Ok(())
                    }
                }
            };
            match (head_router, body) {
                (None, Kind::Node) => {
                    return Err(fail(format!("node {head_id} cannot connect to node {id}")));
                }
                (None, Kind::Router) => {
                    let r = g.router(&id.to_string());
                    attach(&mut nodes, &g.names, head_id, r)?;
                }
                (Some(r), Kind::Node) => attach(&mut nodes, &g.names, id, r)?,
                (Some(r), Kind::Router) => {
                    let s = g.router(&id.to_string());
                    g.channel(r, s, lat, &at, true, true).map_err(fail)?;
                    g.channel(s, r, 1, &at, false, true).map_err(fail)?;
                }
            }
        }
    }
    g.nodes = Some(nodes);
    Ok(())
}

fn csv_edges(g: &mut Parts, text: &str) -> Result<(), SimError> {
    let file = g.file.clone();
    // Column of src, dst, latency, directed.
    let mut columns: Option<[Option<usize>; 4]> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let fail = |what: String| at_line(&file, line, what);
        let fields: Vec<&str> = l.split(',').map(str::trim).collect();
        if columns.is_none() {
            let first = fields[0].to_ascii_lowercase();
            if matches!(first.as_str(), "src" | "source" | "from") {
                let mut cols = [None; 4];
                for (k, f) in fields.iter().enumerate() {
                    let slot = match f.to_ascii_lowercase().as_str() {
                        "src" | "source" | "from" => 0,
                        "dst" | "target" | "to" => 1,
                        "latency" => 2,
                        "directed" => 3,
                        other => {
                            return Err(fail(format!(
                                "unknown column {other}: the columns are src, dst, latency, directed"
                            )));
                        }
                    };
                    if cols[slot].is_some() {
                        return Err(fail(format!("column {f} is named twice")));
                    }
                    cols[slot] = Some(k);
                }
                if cols[1].is_none() {
                    return Err(fail("the header names no dst (or target, to) column".into()));
                }
                columns = Some(cols);
                continue;
            }
            columns = Some([Some(0), Some(1), Some(2), Some(3)]);
        }
        let cols = columns.expect("set above");
        let width = cols.iter().flatten().max().map_or(0, |m| m + 1);
        if fields.len() > width {
            return Err(fail(format!(
                "{} fields, at most {width} expected (src,dst[,latency[,directed]])",
                fields.len()
            )));
        }
        let field = |k: usize| cols[k].and_then(|c| fields.get(c)).copied().unwrap_or("");
        let (src, dst) = (field(0), field(1));
        if dst.is_empty() {
            return Err(fail("a row needs src,dst".into()));
        }
        let src = router_name(src).map_err(fail)?;
        let dst = router_name(dst).map_err(fail)?;
        let lat = match field(2) {
            "" => 1,
            t => latency(t).map_err(fail)?,
        };
        let directed = match field(3).to_ascii_lowercase().as_str() {
            "" | "0" | "false" | "no" => false,
            "1" | "true" | "yes" => true,
            other => return Err(fail(format!("directed {other} is not 0, 1, true, false, yes or no"))),
        };
        let (s, d) = (g.router(src), g.router(dst));
        let at = format!("line {line}");
        g.channel(s, d, lat, &at, true, false).map_err(fail)?;
        if !directed {
            g.channel(d, s, lat, &at, true, false).map_err(fail)?;
        }
    }
    Ok(())
}

fn terminals_file(g: &mut Parts, name: &str, text: &str) -> Result<(), SimError> {
    let mut header_seen = false;
    let mut given: HashMap<u32, usize> = HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let fail = |what: String| at_line(name, line, what);
        let fields: Vec<&str> = l.split(',').map(str::trim).collect();
        if !header_seen {
            header_seen = true;
            if fields[0].eq_ignore_ascii_case("router") {
                continue;
            }
        }
        let [router, count] = fields[..] else {
            return Err(fail(format!("{} fields: a row is router,count", fields.len())));
        };
        let router = router_name(router).map_err(fail)?;
        let Some(&r) = g.index.get(router) else {
            return Err(fail(format!("router {router} is in no edge of {}", g.file)));
        };
        let count = number(count, "terminal count").map_err(fail)?;
        if count > MAX_TERMINALS {
            return Err(fail(format!("{count} terminals: netwrap allows at most {MAX_TERMINALS}")));
        }
        if let Some(before) = given.insert(r, line) {
            return Err(fail(format!("router {router} is given twice (line {before} and line {line})")));
        }
        g.counts[r as usize] = Some(count as u32);
    }
    Ok(())
}

fn json(g: &mut Parts, text: &str) -> Result<(), SimError> {
    let file = g.file.clone();
    let doc: Value = serde_json::from_str(text).map_err(|e| at_line(&file, e.line(), e))?;
    let fail = |what: String| SimError::Invalid(format!("{file}: {what}"));
    let Value::Object(top) = &doc else {
        return Err(fail("a node-link graph is an object with nodes and links".into()));
    };
    let directed = match top.get("directed") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(fail(format!("directed is {v}, not true or false"))),
    };
    let array = |key: &str| match top.get(key) {
        None => Ok(None),
        Some(Value::Array(a)) => Ok(Some(a)),
        Some(_) => Err(fail(format!("{key} is not an array"))),
    };
    let nodes = array("nodes")?.ok_or_else(|| fail("no nodes array".into()))?;
    let links = match (array("links")?, array("edges")?) {
        (Some(_), Some(_)) => return Err(fail("both links and edges: give one".into())),
        (Some(l), None) => ("links", l.as_slice()),
        (None, Some(e)) => ("edges", e.as_slice()),
        (None, None) => ("links", &[][..]),
    };
    let id = |v: Option<&Value>, at: &str| -> Result<String, SimError> {
        match v {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.to_string()),
            Some(v) => Err(fail(format!("{at}: {v} is not a number ≥ 0 or a non-empty string"))),
            None => Err(fail(format!("{at} is missing"))),
        }
    };
    for (i, node) in nodes.iter().enumerate() {
        let Value::Object(node) = node else {
            return Err(fail(format!("nodes[{i}] is not an object")));
        };
        let name = id(node.get("id"), &format!("nodes[{i}].id"))?;
        if let Some(&r) = g.index.get(&name) {
            return Err(fail(format!("nodes[{i}]: node {name} appears twice (nodes[{r}])")));
        }
        let r = g.router(&name);
        match node.get("terminals") {
            None => {}
            Some(Value::Number(n)) if n.as_u64().is_some_and(|c| c <= MAX_TERMINALS) => {
                g.counts[r as usize] = Some(n.as_u64().unwrap_or(0) as u32);
            }
            Some(v) => {
                return Err(fail(format!(
                    "nodes[{i}].terminals: {v} is not a count of terminals in 0..={MAX_TERMINALS}"
                )));
            }
        }
    }
    let (key, links) = links;
    for (j, link) in links.iter().enumerate() {
        let at = format!("{key}[{j}]");
        let Value::Object(link) = link else {
            return Err(fail(format!("{at} is not an object")));
        };
        let end = |k: &str| -> Result<u32, SimError> {
            let name = id(link.get(k), &format!("{at}.{k}"))?;
            g.index.get(&name).copied().ok_or_else(|| fail(format!("{at}.{k}: no node {name} in nodes")))
        };
        let (s, d) = (end("source")?, end("target")?);
        let lat = match link.get("latency") {
            None => 1,
            Some(Value::Number(n)) => latency(&n.to_string()).map_err(|e| fail(format!("{at}: {e}")))?,
            Some(v) => return Err(fail(format!("{at}.latency: {v} is not a number"))),
        };
        g.channel(s, d, lat, &at, true, false).map_err(|e| fail(format!("{at}: {e}")))?;
        if !directed {
            g.channel(d, s, lat, &at, true, false).map_err(|e| fail(format!("{at}: {e}")))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(name: &str, text: &str) -> String {
        parse(name, text, None).unwrap_err().to_string()
    }

    #[test]
    fn a_ring_reads_the_same_in_every_format() {
        let csv = parse("ring.csv", "src,dst\n0,1\n1,2\n2,3\n3,0\n", None).unwrap();
        let any = parse(
            "ring.anynet",
            "router 0 node 0 router 1 router 3\nrouter 1 node 1 router 2\nrouter 2 node 2 router 3\nrouter 3 node 3\n",
            None,
        )
        .unwrap();
        let json = parse(
            "ring.json",
            r#"{"nodes": [{"id": 0}, {"id": 1}, {"id": 2}, {"id": 3}], "links": [{"source": 0, "target": 1}, {"source": 1, "target": 2}, {"source": 2, "target": 3}, {"source": 3, "target": 0}]}"#,
            None,
        )
        .unwrap();
        assert_eq!((csv.channels.clone(), csv.attach.clone()), (any.channels.clone(), any.attach.clone()));
        assert_eq!((csv.channels, csv.attach), (json.channels, json.attach));
    }

    #[test]
    fn anynet_latencies_follow_booksim2() {
        let g = parse(
            "a",
            "router 0 router 1 15 router 2 node 0\nrouter 1 node 1\nrouter 2 router 1 node 2\n",
            None,
        )
        .unwrap();
        let lat = |s, d| g.channels.iter().find(|c| c.0 == s && c.1 == d).map(|c| c.2);
        assert_eq!((lat(0, 1), lat(1, 0), lat(0, 2), lat(2, 1)), (Some(15), Some(1), Some(1), Some(1)));
        let g = parse("a", "router 1 router 0 5 node 1\nrouter 0 router 1 15 node 0\n", None).unwrap();
        assert_eq!(g.channels, vec![(0, 1, 15), (1, 0, 5)]);
        assert!(
            err("a", "router 0 router 1 2 node 0\nrouter 0 router 1 3\n")
                .contains("latencies 2 (line 1) and 3")
        );
        assert!(err("a", "router 0 node 0 5 router 1\n").contains("terminal (injection"));
        assert!(err("a", "router 0 node 1 router 1\n").contains("node 0 is missing"));
        assert!(
            err("a", "router 0 node 0 router 1\nnode 0 router 1\n").contains("line 2: node 0 is attached")
        );
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            err("g.csv", "0,1\n1,2\n\n# c\n2,-3\n"),
            "g.csv line 5: router -3 is not a number ≥ 0 or a name starting with a letter"
        );
        assert!(err("g.csv", "0,1\n1,1\n").starts_with("g.csv line 2: router 1 is joined to itself"));
        assert!(
            err("g.csv", "0,1\n1,0\n").contains("line 2: channel 1 -> 0 is given twice (line 1 and line 2)")
        );
        assert!(err("g.csv", "0,1,0\n").contains("line 1: latency 0"));
        assert!(
            err("g.csv", "0,1\n2,3\n").contains("not connected: router 2 cannot be reached from router 0")
        );
        assert!(err("g.csv", "").contains("empty"));
        assert!(err("g.json", "{\"nodes\": [{\"id\": 0}],\n \"links\": [}").starts_with("g.json line 2"));
        assert!(err("g.json", r#"{"nodes": [{"id": -1}]}"#).contains("nodes[0].id: -1 is not"));
        assert!(
            err("g.json", r#"{"nodes": [{"id": "a"}], "links": [{"source": "a", "target": "b"}]}"#)
                .contains("links[0].target: no node b")
        );
        assert!(err("g", "router 0 router x\n").contains("line 1: router x is not a number"));
    }

    #[test]
    fn names_directed_rows_and_terminal_files() {
        let text = "from,to,directed\nb,a,1\na,c,0\nc,b,yes\n";
        let g = parse("n.csv", text, Some(("t.csv", "router,count\nc,0\nb,3\n"))).unwrap();
        assert_eq!(g.names, vec!["b", "a", "c"]);
        assert_eq!(g.channels, vec![(0, 1, 1), (1, 2, 1), (2, 0, 1), (2, 1, 1)]);
        assert_eq!(g.attach, vec![0, 0, 0, 1]);
        assert!(
            parse("n.csv", text, Some(("t.csv", "d,1\n"))).unwrap_err().to_string().contains("t.csv line 1")
        );
    }
}
