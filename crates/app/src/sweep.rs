//! Experiment files: a base spec plus sweep axes, expanded into points, each resolved once.
//!
//! ```toml
//! [topology]
//! family = "torus"
//! k = 8
//!
//! [workload]
//! size = 4
//!
//! [sweep]
//! replications = 2                       # each point twice, with derived seeds
//! "workload.rate" = [0.01, 0.02, 0.03]   # an axis: any field, by its dotted path
//!
//! [[sweep.zip]]                          # axes of equal length that advance together
//! "topology.k" = [4, 8]
//! "workload.size" = [8, 4]
//! ```
//!
//! Axes combine as a cartesian product, in the order written (the first varies slowest);
//! each `[[sweep.zip]]` group is one more factor of the product whose axes advance together;
//! replications vary fastest. Replication 0 runs the point's own seed, replication r ≥ 1 the
//! seed `mix(mix(seed) ^ r)` (SplitMix64's finaliser), recorded in its `config`. A point's
//! index is its position in that order: shards, resumed runs and merged files all use it.
//!
//! A sweep's [`Identity`] (a hash of what it runs, and its number of points) goes with every
//! row, so a file of one experiment is told from another's when it is resumed or merged.

use crate::error::{Error, Result};
use crate::spec::{FileParts, Job, Spec};
use netwrap_engine::rng::mix;
use netwrap_sim::num;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The sections a spec has: the first component of every sweep path.
const SECTIONS: [&str; 6] = ["topology", "routing", "router", "workload", "run", "model"];

/// One swept field and its values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Axis {
    /// Dotted path into the spec, e.g. `workload.rate`.
    pub path: String,
    /// The values it takes.
    pub values: Vec<Value>,
}

/// A base spec and its sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    base: Spec,
    product: Vec<Axis>,
    zips: Vec<Vec<Axis>>,
    replications: u32,
    /// The file's text, to point errors at lines.
    text: Option<String>,
    /// The file's name as given ([`Sweep::read`]), which a point's error names.
    file: Option<String>,
    /// Which experiment this is (computed once).
    identity: Identity,
    /// Compare every point with the model where one applies, though the spec asks for none
    /// ([`Sweep::with_model_where_it_applies`]).
    model_where_it_applies: bool,
}

/// Which experiment a row is of: every row of a sweep's files carries it (the CSV's last two
/// columns, fields of each JSON line), so that `--resume` and `netwrap merge` refuse another
/// experiment's rows and `merge` sees points missing at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// 16 hexadecimal digits: the FNV-1a (64-bit) hash of the experiment as canonical JSON
    /// text — its base spec resolved (every default written; as written when the base resolves
    /// only with its axes' values), its axes and zip groups in order, and its replications.
    /// The same on every run and platform; another rate list, run length, topology, model or
    /// number of replications gives another.
    pub experiment: String,
    /// The experiment's number of points, replications included.
    pub points: u64,
}

/// FNV-1a, 64 bits (Fowler, Noll and Vo): a fixed, portable hash of bytes.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// One point of a sweep, checked and ready to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Position in the sweep's order.
    pub index: u64,
    /// Replication number (0 when there is one).
    pub replication: u32,
    /// The swept paths and the values they take at this point, in the order of
    /// [`Sweep::parameters`].
    pub params: Vec<(String, Value)>,
    /// The point, resolved.
    pub job: Job,
    /// The experiment it is a point of.
    pub identity: Identity,
}

impl Point {
    /// A spec alone as a point: index 0, nothing swept.
    pub fn single(spec: &Spec) -> Result<Point> {
        let job = spec.resolve()?;
        let identity = Sweep::single(spec.clone()).identity;
        Ok(Point { index: 0, replication: 0, params: Vec::new(), job, identity })
    }
}

/// serde shows a float it cannot take in full (`1e300` as an integer of 301 digits): every
/// "floating point `…`" in `message` is shortened to the number as netwrap writes it.
fn shorten_floats(message: &str) -> String {
    const MARK: &str = "floating point `";
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(MARK) {
        let start = i + MARK.len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let Some(end) = rest.find('`') else { break };
        match rest[..end].parse::<f64>() {
            Ok(x) => out.push_str(&num(x)),
            Err(_) => out.push_str(&rest[..end]),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Adds a "did you mean" to serde's "unknown field/variant `x`, expected one of `a`, `b`"
/// (and shortens the huge floats serde spells out in full).
pub fn suggest(message: &str) -> String {
    let shortened = shorten_floats(message);
    let message = shortened.as_str();
    let Some(start) =
        ["unknown field `", "unknown variant `"].iter().find_map(|p| message.find(p).map(|i| i + p.len()))
    else {
        return message.to_string();
    };
    let Some(len) = message[start..].find('`') else { return message.to_string() };
    let wrong = &message[start..start + len];
    let rest = &message[start + len..];
    let candidates = rest.split('`').skip(2).step_by(2);
    match closest(wrong, candidates) {
        Some(c) => format!("{}\n  did you mean `{c}`?", message.trim_end()),
        None => message.to_string(),
    }
}

/// The candidate closest to a misspelt name, if any is close (Jaro–Winkler similarity of at
/// least 0.7): the "did you mean" of every unknown name.
pub fn closest<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(wrong, c), c))
        .filter(|(score, _)| *score >= 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Every `key = value` line of a TOML text: its 1-based line, the table it sits in (`""` before
/// any header) and its key (quotes taken off).
fn keys(text: &str) -> impl Iterator<Item = (usize, String, &str)> {
    let mut current = String::new();
    text.lines().enumerate().filter_map(move |(i, line)| {
        let t = line.trim();
        if let Some(h) = t.strip_prefix('[') {
            current = h.trim_start_matches('[').trim_end_matches(']').trim().to_string();
            return None;
        }
        let (lhs, _) = t.split_once('=')?;
        Some((i + 1, current.clone(), lhs.trim().trim_matches('"')))
    })
}

/// The 1-based line of `path` (`section.key`, or a sweep axis) in a TOML text, if found.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let (section, key) = path.split_once('.').unwrap_or(("", path));
    keys(text)
        .find(|(_, current, lhs)| {
            let full = if current.is_empty() { lhs.to_string() } else { format!("{current}.{lhs}") };
            full == path
                || (current == section && *lhs == key)
                || (current.starts_with("sweep") && *lhs == path)
        })
        .map(|(line, _, _)| line)
}

/// The 1-based line of the sweep axis `path` in a TOML text (in `[sweep]` or a
/// `[[sweep.zip]]` group, not the base spec's key of the same name), if found.
fn axis_line_of(text: &str, path: &str) -> Option<usize> {
    keys(text)
        .find(|(_, current, lhs)| match current.strip_prefix("sweep").map(|r| r.trim_start_matches('.')) {
            Some("" | "zip") => *lhs == path,
            Some(table) => format!("{table}.{lhs}") == path,
            None => false,
        })
        .map(|(line, _, _)| line)
}

/// The key an error about a whole section is about: a section read as a tagged enum (the
/// `[topology]` of a family) is deserialized as one value, so the TOML parser's error points
/// at the section's header. The key is found by leaving each of the section's keys out in
/// turn and seeing how the error changes. Its message names it, its value and its line,
/// as a spec error does (`topology.k = "eight": invalid type: …, expected u32 (line 6)`).
fn offending_key(text: &str, e: &toml::de::Error) -> Option<String> {
    let start = e.span()?.start;
    let header = text.get(..start)?.matches('\n').count();
    let line = text.lines().nth(header)?.trim();
    let name = line.strip_prefix('[')?.trim_start_matches('[').trim_end_matches(']').trim();
    let root: toml::Table = toml::from_str(text).ok()?;
    let section = root.get(name)?.as_table()?;
    let parse = |t: toml::Table| toml::Value::Table(t).try_into::<FileParts>().err().map(|e| e.to_string());
    let baseline = parse(root.clone())?;
    if baseline.starts_with("missing field") {
        // About the section as a whole: its header is the place.
        return None;
    }
    // A key whose absence clears the error is the one; else one whose absence changes it and
    // that the message names (its value, or its name); the tag, `family`, without which every
    // section is wrong, aside.
    let score = |k: &String| {
        let mut without = root.clone();
        if let Some(toml::Value::Table(t)) = without.get_mut(name) {
            t.remove(k);
        }
        match parse(without) {
            None => 3,
            Some(m) if m == baseline => 0,
            Some(_) if baseline.contains(&format!("`{k}`")) || baseline.contains(&section[k].to_string()) => {
                2
            }
            Some(_) => 1,
        }
    };
    let (best, key) =
        section.keys().filter(|k| *k != "family").map(|k| (score(k), k)).rev().max_by_key(|(s, _)| *s)?;
    if best == 0 {
        return None;
    }
    let path = format!("{name}.{key}");
    let value = echo(&section[key.as_str()].to_string());
    let at = line_of(text, &path).map(|l| format!(" (line {l})")).unwrap_or_default();
    Some(format!("{path} = {value}: {}{at}", e.message().trim_end()))
}

/// The largest experiment file read, in bytes (16 MiB: a sweep's points are the product of its
/// axes, so even the largest sweep's values take a small part of it).
pub const MAX_FILE: u64 = 16 << 20;

/// Values echoed in messages keep at most this many characters.
pub const ECHO: usize = 80;

/// A value as a message echoes it: its first [`ECHO`] characters, and "…" if it had more.
pub fn echo(value: &str) -> String {
    match value.char_indices().nth(ECHO) {
        Some((cut, _)) => format!("{}…", &value[..cut]),
        None => value.to_string(),
    }
}

/// A swept value as the command line names it, never as JSON: a section (a topology) is its
/// family and options, `torus k=8 n=2 bidirectional` for `netwrap sim torus --k 8 --n 2
/// --bidirectional` (a flag that is off as `name=false`), a list its items joined by commas
/// (`4,8`, as `--sizes 4,8`), text bare. Tables, CSV cells, DataFrames and legends show this.
pub fn value_name(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::Array(_) => format!("[{}]", value_name(i)),
                _ => value_name(i),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(fields) => {
            let family = fields.get("family").and_then(Value::as_str).map(str::to_string);
            let named = family.is_some();
            let options = fields.iter().filter(|(k, _)| !named || *k != "family").map(|(k, v)| match v {
                Value::Bool(true) => k.clone(),
                Value::Object(_) => format!("{k}=({})", value_name(v)),
                _ => format!("{k}={}", value_name(v)),
            });
            family.into_iter().chain(options).collect::<Vec<_>>().join(" ")
        }
        other => other.to_string(),
    }
}

/// The inverse of [`value_name`] for a section: `torus k=8 n=2 bidirectional` is the table
/// `{"family": "torus", "k": 8, "n": 2, "bidirectional": true}` (a first word without `=` is
/// the family, a bare word a flag that is on, `a,b` a list; numbers and `true`/`false` as
/// themselves, anything else text).
pub fn named_value(name: &str) -> Value {
    fn scalar(text: &str) -> Value {
        match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => serde_json::from_str::<serde_json::Number>(text)
                .map(Value::Number)
                .unwrap_or_else(|_| Value::String(text.to_string())),
        }
    }
    let mut fields = Map::new();
    for (i, word) in name.split_whitespace().enumerate() {
        match word.split_once('=') {
            Some((k, v)) if v.contains(',') => {
                fields.insert(k.to_string(), Value::Array(v.split(',').map(scalar).collect()));
            }
            Some((k, v)) => {
                fields.insert(k.to_string(), scalar(v));
            }
            None if i == 0 => {
                fields.insert("family".to_string(), Value::String(word.to_string()));
            }
            None => {
                fields.insert(word.to_string(), Value::Bool(true));
            }
        }
    }
    Value::Object(fields)
}

/// A message with every value it echoes kept short: a quoted run (`"…"` or `` `…` ``) of more
/// than [`ECHO`] characters, or an unquoted run without spaces of more than `2 × ECHO` (a
/// TOML error's underline; paths stay whole), cut with "…". A 100,000-character value in a
/// file is echoed in a line, not a screenful.
pub fn shorten_echoes(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len().min(4096));
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, '"' | '`')
            && let Some(len) = chars[i + 1..].iter().position(|&d| d == c)
        {
            let inner: String = chars[i + 1..i + 1 + len].iter().collect();
            out.push(c);
            out.push_str(&echo(&inner));
            out.push(c);
            i += len + 2;
            continue;
        }
        if c.is_whitespace() {
            out.push(c);
            i += 1;
            continue;
        }
        let len = chars[i..]
            .iter()
            .position(|d| d.is_whitespace() || *d == '"' || *d == '`')
            .unwrap_or(chars.len() - i);
        let run: String = chars[i..i + len].iter().collect();
        match run.char_indices().nth(2 * ECHO) {
            Some((cut, _)) => {
                out.push_str(&run[..cut]);
                out.push('…');
            }
            None => out.push_str(&run),
        }
        i += len;
    }
    out
}

fn invalid(msg: String) -> Error {
    Error::Invalid(msg)
}

/// A sweep's product axes, zip groups and replication count.
type Axes = (Vec<Axis>, Vec<Vec<Axis>>, u32);

/// Flattens the `sweep` table into axes (nested tables are dotted paths), zip groups and the
/// replication count. `text`, the file's, gives the errors about an axis its line.
fn read_sweep(table: &Map<String, Value>, text: Option<&str>) -> Result<Axes> {
    let at = |path: &str| {
        text.and_then(|t| axis_line_of(t, path)).map(|l| format!(" (line {l})")).unwrap_or_default()
    };
    let axes = |prefix: &str, table: &Map<String, Value>, out: &mut Vec<Axis>| -> Result<()> {
        fn walk(
            prefix: &str,
            table: &Map<String, Value>,
            out: &mut Vec<Axis>,
            at: &dyn Fn(&str) -> String,
        ) -> Result<()> {
            for (k, v) in table {
                let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                match v {
                    Value::Array(values) if values.is_empty() => {
                        return Err(invalid(format!("sweep axis {path} has no values{}", at(&path))));
                    }
                    Value::Array(values) => out.push(Axis { path, values: values.clone() }),
                    Value::Object(inner) => walk(&path, inner, out, at)?,
                    other => {
                        return Err(invalid(format!(
                            "sweep.{path} = {other}: an axis is a list of values, e.g. \"{path}\" = [{other}, …]{}",
                            at(&path)
                        )));
                    }
                }
            }
            Ok(())
        }
        walk(prefix, table, out, &at)
    };
    let mut product = Vec::new();
    let mut zips = Vec::new();
    let mut replications = 1;
    let mut rest = Map::new();
    for (k, v) in table {
        match k.as_str() {
            "replications" => {
                replications = v.as_u64().filter(|&r| (1..=1_000_000).contains(&r)).ok_or_else(|| {
                    invalid(format!("sweep.replications = {v}: a whole number from 1 to 1000000"))
                })? as u32;
            }
            "zip" => {
                let groups = v.as_array().ok_or_else(|| {
                    invalid("sweep.zip is a list of tables of axes ([[sweep.zip]] in TOML)".into())
                })?;
                for g in groups {
                    let table = g
                        .as_object()
                        .ok_or_else(|| invalid("each sweep.zip group is a table of axes".into()))?;
                    let mut group = Vec::new();
                    axes("", table, &mut group)?;
                    if let Some(first) = group.first()
                        && let Some(a) = group.iter().find(|a| a.values.len() != first.values.len())
                    {
                        return Err(invalid(format!(
                            "zipped axes advance together, so they need equal lengths: {} has {} values, {} has {}",
                            first.path,
                            first.values.len(),
                            a.path,
                            a.values.len()
                        )));
                    }
                    if !group.is_empty() {
                        zips.push(group);
                    }
                }
            }
            _ => {
                rest.insert(k.clone(), v.clone());
            }
        }
    }
    axes("", &rest, &mut product)?;
    // A field swept twice (two axes, an axis and a zip group, "workload.rate" and
    // workload.rate, a section and a field within it) would run with one value while its row
    // says the other.
    // (A section swept as a whole may leave a field to an axis of its own, as long as none of
    // its values sets that field.)
    let all: Vec<&Axis> = product.iter().chain(zips.iter().flatten()).collect();
    let sets = |outer: &Axis, inner: &str| -> bool {
        let Some(rest) = inner.strip_prefix(outer.path.as_str()).and_then(|r| r.strip_prefix('.')) else {
            return false;
        };
        outer.values.iter().any(|v| rest.split('.').try_fold(v, |v, k| v.get(k)).is_some())
    };
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if a.path == b.path {
                return Err(invalid(format!("{} is swept twice: sweep each field in one axis", a.path)));
            }
            for (outer, inner) in [(a, b), (b, a)] {
                if sets(outer, &inner.path) {
                    return Err(invalid(format!(
                        "{} is swept twice: as a field and within the swept {}; sweep each field once",
                        inner.path, outer.path
                    )));
                }
            }
        }
    }
    for a in product.iter().chain(zips.iter().flatten()) {
        let first = a.path.split('.').next().unwrap_or_default();
        if !SECTIONS.contains(&first) {
            let expected: Vec<String> = SECTIONS.iter().map(|s| format!("`{s}`")).collect();
            return Err(invalid(suggest(&format!(
                "sweep axis {}: unknown field `{first}`, expected one of {}{}",
                a.path,
                expected.join(", "),
                at(&a.path)
            ))));
        }
    }
    Ok((product, zips, replications))
}

/// The first nan or infinity in a TOML sweep table (its dotted path and value): JSON, which
/// the points are built through, has neither.
fn non_finite_value(prefix: &str, table: &toml::Table) -> Option<(String, f64)> {
    fn scan(path: &str, v: &toml::Value) -> Option<(String, f64)> {
        match v {
            toml::Value::Float(x) if !x.is_finite() => Some((path.to_string(), *x)),
            toml::Value::Array(items) => items.iter().find_map(|i| scan(path, i)),
            toml::Value::Table(t) => non_finite_value(path, t),
            _ => None,
        }
    }
    table.iter().find_map(|(k, v)| {
        // `[[sweep.zip]]` groups are tables of axes whose paths do not include "zip".
        let path = match (prefix, k.as_str()) {
            ("", "zip") => String::new(),
            ("", _) => k.clone(),
            _ => format!("{prefix}.{k}"),
        };
        scan(&path, v)
    })
}

/// Sets the field at dotted `path` in a JSON object tree, creating tables on the way.
fn set_path(root: &mut Value, path: &str, value: Value) {
    let mut at = root;
    let mut parts = path.split('.').peekable();
    while let Some(p) = parts.next() {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let obj = at.as_object_mut().expect("made an object above");
        if parts.peek().is_none() {
            obj.insert(p.to_string(), value);
            return;
        }
        at = obj.entry(p.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
}

impl Sweep {
    /// One point: the spec itself.
    pub fn single(spec: Spec) -> Self {
        Self::new(spec, (Vec::new(), Vec::new(), 1), None)
    }

    /// A spec plus axes given as (path, values), all combined as a product (and `replications`
    /// and `zip`, as in a file's `[sweep]` table).
    pub fn with_axes(spec: Spec, axes: Map<String, Value>) -> Result<Self> {
        Ok(Self::new(spec, read_sweep(&axes, None)?, None))
    }

    /// The sweep, its identity computed.
    fn new(base: Spec, (product, zips, replications): Axes, text: Option<String>) -> Self {
        let mut s = Sweep {
            base,
            product,
            zips,
            replications,
            text,
            file: None,
            identity: Identity::default(),
            model_where_it_applies: false,
        };
        let base = match s.base.resolve() {
            Ok(job) => serde_json::to_value(job.written()),
            Err(_) => serde_json::to_value(&s.base),
        }
        .expect("a spec serialises");
        let canonical = serde_json::json!({
            "base": base,
            "product": s.product,
            "zip": s.zips,
            "replications": s.replications,
        });
        s.identity = Identity {
            experiment: format!("{:016x}", fnv1a64(canonical.to_string().as_bytes())),
            points: s.len(),
        };
        s
    }

    fn from_file((spec, sweep): (Spec, Option<Map<String, Value>>), text: Option<String>) -> Result<Self> {
        // TOML holds nan and inf, which JSON cannot: points are built through JSON, where they
        // would become null ("invalid type: null"). Refuse them here, with the value's own
        // message and line.
        let w = &spec.sim.workload;
        let finite = |x: Option<f64>| x.is_none_or(f64::is_finite);
        if ![w.rate, w.load, w.locality, w.long_fraction, w.hotspot_fraction].into_iter().all(finite) {
            let probe = netwrap_sim::SimSpec { workload: w.clone(), ..Default::default() };
            if let Err(netwrap_sim::SimError::Spec(mut e)) = probe.resolve() {
                e.line = text.as_deref().and_then(|t| line_of(t, &e.path));
                return Err(Error::Spec(e));
            }
        }
        let axes = match &sweep {
            Some(t) => read_sweep(t, text.as_deref())?,
            None => (Vec::new(), Vec::new(), 1),
        };
        Ok(Self::new(spec, axes, text))
    }

    /// Reads an experiment file in TOML. Errors name the key and its line, and unknown keys
    /// get a "did you mean".
    pub fn from_toml(text: &str) -> Result<Self> {
        let FileParts(spec, sweep) = toml::from_str(text).map_err(|e: toml::de::Error| {
            invalid(suggest(&offending_key(text, &e).unwrap_or_else(|| e.to_string())))
        })?;
        if let Ok(table) = toml::from_str::<toml::Table>(text)
            && let Some(toml::Value::Table(axes)) = table.get("sweep")
            && let Some((path, x)) = non_finite_value("", axes)
        {
            // The axis reaches the points as JSON, where nan and inf are null.
            return Err(invalid(format!(
                "sweep axis {path} has the value {}: every value a spec takes is a finite number{}",
                num(x),
                line_of(text, &path).map(|l| format!(" (line {l})")).unwrap_or_default()
            )));
        }
        Self::from_file((spec, sweep), Some(text.to_string()))
    }

    /// Reads an experiment file: `*.toml`, or `*.json` (a spec, or a result printed by
    /// `--json`), by its extension, or by its first character (`{`: JSON).
    /// A file over [`MAX_FILE`] bytes is refused unread past that size (`/dev/zero` included).
    pub fn read(path: &std::path::Path) -> Result<Self> {
        use std::io::Read;
        let cannot = |e: std::io::Error| invalid(format!("cannot read {}: {e}", path.display()));
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_FILE + 1).read_to_end(&mut bytes))
            .map_err(cannot)?;
        if bytes.len() as u64 > MAX_FILE {
            return Err(invalid(format!(
                "{} is larger than {} MiB, the most an experiment file may hold: not an experiment file?",
                path.display(),
                MAX_FILE >> 20
            )));
        }
        let text = String::from_utf8(bytes).map_err(|_| {
            cannot(std::io::Error::new(std::io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"))
        })?;
        let json = match path.extension().and_then(|e| e.to_str()) {
            Some("json") => true,
            Some("toml") => false,
            _ => text.trim_start().starts_with('{'),
        };
        let sweep = if json { Self::from_json(&text) } else { Self::from_toml(&text) };
        sweep.map(|s| Sweep { file: Some(path.display().to_string()), ..s })
    }

    /// Reads an experiment in JSON: a spec (with an optional `sweep`), or a result printed by
    /// `--json`, whose `config` is taken.
    pub fn from_json(text: &str) -> Result<Self> {
        let v: Value = serde_json::from_str(text).map_err(|e| invalid(format!("not valid JSON: {e}")))?;
        Self::from_value(v)
    }

    /// Reads an experiment as a JSON value (a spec with an optional `sweep`, or a result
    /// printed by `--json`, whose `config` is taken): how Python's dicts arrive.
    pub fn from_value(mut v: Value) -> Result<Self> {
        if v.get("netwrap_version").is_some()
            && let Some(config) = v.get_mut("config")
        {
            let spec: Spec = serde_json::from_value(config.take())
                .map_err(|e| invalid(suggest(&format!("the result's config: {e}"))))?;
            return Ok(Self::single(spec));
        }
        let FileParts(spec, sweep) =
            serde_json::from_value(v).map_err(|e| invalid(suggest(&e.to_string())))?;
        Self::from_file((spec, sweep), None)
    }

    /// The sweep with every point compared with the model where one applies
    /// ([`crate::compare::model_for`]), when the spec asks for none (no `model` section): how a
    /// plotted sweep draws the model's curve by default. A point no model describes runs
    /// without one, silently, and a point's `config` records the model only where it was
    /// compared. Its points' rows and identity are the sweep's own.
    pub fn with_model_where_it_applies(self) -> Self {
        Sweep { model_where_it_applies: self.base.model.is_none(), ..self }
    }

    /// The base spec.
    pub fn base(&self) -> &Spec {
        &self.base
    }

    /// The axes, product axes first, then each zip group's, in the order written.
    pub fn axes(&self) -> Vec<&Axis> {
        self.product.iter().chain(self.zips.iter().flatten()).collect()
    }

    /// The swept paths, product axes first, then each zip group's, in the order written.
    pub fn parameters(&self) -> Vec<String> {
        self.product.iter().chain(self.zips.iter().flatten()).map(|a| a.path.clone()).collect()
    }

    /// Which experiment this is: its rows carry it.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Replications per point.
    pub fn replications(&self) -> u32 {
        self.replications
    }

    /// Number of points, replications included (saturating).
    pub fn len(&self) -> u64 {
        self.product
            .iter()
            .map(|a| a.values.len() as u64)
            .chain(self.zips.iter().map(|g| g[0].values.len() as u64))
            .chain([self.replications as u64])
            .fold(1u64, u64::saturating_mul)
    }

    /// Always false: a sweep has at least its base point.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The point at `index`: its swept values and its validated spec. An error names the
    /// point, its swept values, the line of the axis at fault and the file, when it has them.
    pub fn point(&self, index: u64) -> Result<Point> {
        self.point_in_file(index).map_err(|e| match (&self.file, e) {
            (None, e) => e,
            (Some(file), Error::Spec(mut e)) => {
                e.context = Some(match e.context.take() {
                    Some(c) => format!("in {file}: {c}"),
                    None => format!("in {file}"),
                });
                Error::Spec(e)
            }
            (Some(_), Error::Cancelled) => Error::Cancelled,
            (Some(file), e) => invalid(format!("in {file}: {e}")),
        })
    }

    /// The line of the axis `path` in the file, as " (line N)", if known.
    fn axis_line(&self, path: &str) -> String {
        self.text
            .as_deref()
            .and_then(|t| axis_line_of(t, path))
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default()
    }

    /// [`Sweep::point`], without the file's name.
    fn point_in_file(&self, index: u64) -> Result<Point> {
        let mut rest = index;
        let replication = (rest % self.replications as u64) as u32;
        rest /= self.replications as u64;
        // Factors from fastest to slowest: zip groups last-written first, then product axes.
        let mut picks: Vec<(Vec<&Axis>, usize)> = Vec::new();
        for group in self.zips.iter().rev() {
            let n = group[0].values.len() as u64;
            picks.push((group.iter().collect(), (rest % n) as usize));
            rest /= n;
        }
        for axis in self.product.iter().rev() {
            let n = axis.values.len() as u64;
            picks.push((vec![axis], (rest % n) as usize));
            rest /= n;
        }
        picks.reverse();
        let mut tree = serde_json::to_value(&self.base).expect("a spec serialises");
        let mut params = Vec::new();
        for (axes, i) in &picks {
            for a in axes {
                set_path(&mut tree, &a.path, a.values[*i].clone());
            }
        }
        // In the order of `parameters`: product axes, then zips.
        for a in self.product.iter().chain(self.zips.iter().flatten()) {
            let i = picks.iter().find(|(axes, _)| axes.iter().any(|x| x.path == a.path)).map_or(0, |p| p.1);
            params.push(a.values[i].clone());
        }
        let params: Vec<(String, Value)> = self.parameters().into_iter().zip(params).collect();
        let describe = || params.iter().map(|(p, v)| format!("{p} = {v}")).collect::<Vec<_>>().join(", ");
        let mut spec: Spec = serde_json::from_value(tree).map_err(|e| {
            // The axis at fault: the first whose value alone, on the base spec, is refused.
            let base = serde_json::to_value(&self.base).expect("a spec serialises");
            let culprit = params.iter().find(|(path, v)| {
                let mut alone = base.clone();
                set_path(&mut alone, path, v.clone());
                serde_json::from_value::<Spec>(alone).is_err()
            });
            let line = culprit.map(|(path, _)| self.axis_line(path)).unwrap_or_default();
            invalid(suggest(&format!("sweep point {index} ({}): {e}{line}", describe())))
        })?;
        if replication > 0 {
            let seed = spec.sim.run.seed.unwrap_or(netwrap_sim::defaults::SEED);
            spec.sim.run.seed = Some(mix(mix(seed) ^ replication as u64));
        }
        let mut job = spec.resolve().map_err(|e| match e {
            Error::Spec(mut e) => {
                let swept = params.iter().find(|(p, _)| e.fields().any(|f| f.starts_with(p.as_str())));
                e.line = match swept {
                    // A swept value's line is its axis's.
                    Some((axis, _)) if self.len() > 1 => {
                        e.context = Some(format!("sweep point {index} ({})", describe()));
                        self.text.as_deref().and_then(|t| axis_line_of(t, axis))
                    }
                    _ => self.text.as_deref().and_then(|t| line_of(t, &e.path)),
                };
                // (`point` names the file.)
                Error::Spec(e)
            }
            // A swept topology that cannot be (`k = 1`): which point, and the axis's line.
            Error::Topology(e) if self.len() > 1 => {
                match params.iter().find(|(p, _)| p == "topology" || p.starts_with("topology.")) {
                    Some((path, _)) => {
                        invalid(format!("sweep point {index} ({}): {e}{}", describe(), self.axis_line(path)))
                    }
                    None => Error::Topology(e),
                }
            }
            other => other,
        })?;
        if self.model_where_it_applies && crate::compare::model_for(&job.sim).is_ok() {
            job.model = Some(crate::ModelSpec::default());
            job.optional_model = true;
        }
        Ok(Point { index, replication, params, job, identity: self.identity.clone() })
    }

    /// The indices of shard `index` of `count` (those that are `index` modulo `count`; every
    /// point: shard 0 of 1), once the sweep's size is checked. A run takes its points by index
    /// ([`Sweep::point`]), so a shard's cost does not grow with the sweep's size (a job array's
    /// or a distributed sweep's task: the shard that owns an invalid point reports it), and no
    /// run holds more points than it runs at once.
    pub fn shard_indices(&self, index: u64, count: u64) -> Result<std::iter::StepBy<std::ops::Range<u64>>> {
        if count == 0 || index >= count {
            return Err(invalid(format!("shard {index}/{count}: takes i/N with 0 <= i < N")));
        }
        self.check_size()?;
        Ok((index..self.len()).step_by(usize::try_from(count).unwrap_or(usize::MAX)))
    }

    /// The most points a sweep may have.
    pub const MAX_POINTS: u64 = 10_000_000;

    /// Refuses a sweep of more than [`Sweep::MAX_POINTS`] points.
    fn check_size(&self) -> Result<()> {
        if self.len() > Self::MAX_POINTS {
            return Err(invalid(format!(
                "the sweep has {} points, more than the {} netwrap runs",
                self.len(),
                Self::MAX_POINTS
            )));
        }
        Ok(())
    }

    /// Resolves the points of `indices` one at a time, in order, showing each to `visit`
    /// before dropping it: a sweep's points validated up front (a bad value fails before
    /// anything runs) in the memory of one point, however many there are (a point costs
    /// about 500 bytes: the 10^7 points of the largest sweep would hold 5 GB). The first
    /// point refused is the error.
    pub fn check_points(
        &self,
        indices: impl IntoIterator<Item = u64>,
        mut visit: impl FnMut(&Point),
    ) -> Result<()> {
        self.check_size()?;
        for i in indices {
            visit(&self.point(i)?);
        }
        Ok(())
    }

    /// Every point, validated up front, held: for sweeps small by construction (a benchmark's
    /// axis, Python's list of points); a run of any size takes its points by index.
    pub fn points(&self) -> Result<Vec<Point>> {
        self.points_where(|_| true)
    }

    /// Every point validated up front ([`Sweep::check_points`]), but only those whose index
    /// `keep` accepts kept (a thinned run's).
    pub fn points_where(&self, keep: impl Fn(u64) -> bool) -> Result<Vec<Point>> {
        let mut kept = Vec::new();
        self.check_points(0..self.len(), |p| {
            if keep(p.index) {
                kept.push(p.clone());
            }
        })?;
        Ok(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
[topology]
family = "torus"
k = 4

[workload]
size = 2

[sweep]
replications = 2
"workload.rate" = [0.01, 0.02, 0.03]

[[sweep.zip]]
"topology.k" = [4, 5]
"run.messages" = [100, 200]
"#;

    /// Regression: TOML's nan and inf became JSON's null on the way to a point ("sweep point
    /// 0 (): invalid type: null, expected f64"); they are refused with the key, the value and
    /// its line.
    #[test]
    fn nan_and_infinity_in_toml_name_their_key_and_line() {
        let e = Sweep::from_toml("[workload]\nsize = 2\nrate = nan\n").unwrap_err().to_string();
        assert!(
            e.starts_with("workload.rate = NaN: the request rate must be") && e.ends_with("(line 3)"),
            "{e}"
        );
        let e = Sweep::from_toml("[workload]\nlocality = -inf\n").unwrap_err().to_string();
        assert!(e.starts_with("workload.locality = -inf") && e.ends_with("(line 2)"), "{e}");
        let e = Sweep::from_toml("[sweep]\n\"workload.rate\" = [0.1, inf]\n").unwrap_err().to_string();
        assert!(e.contains("sweep axis workload.rate has the value inf") && e.ends_with("(line 2)"), "{e}");
        let zip = "[[sweep.zip]]\n\"workload.rate\" = [nan, 0.1]\n\"workload.size\" = [1, 2]\n";
        let e = Sweep::from_toml(zip).unwrap_err().to_string();
        assert!(e.contains("sweep axis workload.rate has the value NaN"), "{e}");
    }

    /// serde spells a float it cannot take in full: 1e300 as 301 digits.
    #[test]
    fn huge_floats_in_type_errors_stay_short() {
        let e = Sweep::from_toml("[run]\nmessages = 1e300\n").unwrap_err().to_string();
        assert!(e.contains("floating point `1e300`, expected u64") && e.len() < 300, "{e}");
        assert_eq!(shorten_floats("a floating point `5.0` b `x`"), "a floating point `5` b `x`");
        assert_eq!(shorten_floats("floating point `oops"), "floating point `oops");
    }

    /// A thinned run keeps only its points, but every point is still validated; a shard
    /// builds and checks only its own.
    #[test]
    fn thinning_validates_all_and_a_shard_only_its_own() {
        let s = Sweep::from_toml(FILE).unwrap();
        let odd: Vec<u64> = s.points_where(|i| i % 2 == 1).unwrap().iter().map(|p| p.index).collect();
        assert_eq!(odd, [1, 3, 5, 7, 9, 11]);
        let shard: Vec<u64> = s.shard_indices(1, 2).unwrap().collect();
        assert_eq!(shard, odd);
        let bad = Sweep::from_toml("[sweep]\n\"workload.rate\" = [0.1, 2.0]\n").unwrap();
        assert!(bad.points_where(|i| i == 0).unwrap_err().to_string().contains("sweep point 1"));
        let mut seen = 0;
        bad.check_points(bad.shard_indices(0, 2).unwrap(), |_| seen += 1).unwrap();
        assert_eq!(seen, 1);
        let e = bad.check_points(bad.shard_indices(1, 2).unwrap(), |_| {}).unwrap_err();
        assert!(e.to_string().contains("sweep point 1"));
        assert!(bad.shard_indices(2, 2).is_err());
    }

    /// Characterisation of the largest sweeps' first step: 10^6 points (1000 rates × 1000
    /// seeds on a 4-node ring) are each resolved and counted, every index once and in order,
    /// while each is only lent to the visitor (`&Point`), so no more than one is held at a
    /// time; an out-of-range value among them is still the error, with its point.
    #[test]
    fn a_million_points_are_checked_one_at_a_time() {
        let rates: Vec<String> = (1..=1000).map(|i| format!("{}", f64::from(i) * 1e-5)).collect();
        let seeds: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let text = |last: &str| {
            format!(
                "[topology]\nfamily = \"ring\"\nk = 4\n[sweep]\n\"workload.rate\" = [{}, {last}]\n\"run.seed\" = [{}]\n",
                rates[..999].join(", "),
                seeds.join(", ")
            )
        };
        let s = Sweep::from_toml(&text("0.01")).unwrap();
        assert_eq!(s.len(), 1_000_000);
        let (mut next, mut seen) = (0u64, 0u64);
        s.check_points(s.shard_indices(0, 1).unwrap(), |p| {
            assert_eq!(p.index, next);
            next += 1;
            seen += 1;
        })
        .unwrap();
        assert_eq!(seen, s.len());
        // The last rate out of range: the first of its 1000 points is the error.
        let bad = Sweep::from_toml(&text("2")).unwrap();
        let e = bad.check_points(bad.shard_indices(1, 1000).unwrap(), |_| {}).unwrap_err().to_string();
        assert!(e.contains("sweep point 999001 (workload.rate = 2, run.seed = 1)"), "{e}");
    }

    #[test]
    fn points_expand_in_order() {
        let s = Sweep::from_toml(FILE).unwrap();
        assert_eq!(s.parameters(), ["workload.rate", "topology.k", "run.messages"]);
        assert_eq!(s.len(), 3 * 2 * 2);
        let p = s.points().unwrap();
        let values = |p: &Point| p.params.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>();
        assert_eq!(values(&p[0]), [serde_json::json!(0.01), 4.into(), 100.into()]);
        assert_eq!(p[0].replication, 0);
        assert_eq!(p[1].replication, 1);
        assert_ne!(p[1].job.sim.run.seed, p[0].job.sim.run.seed);
        assert_eq!(values(&p[2]), [serde_json::json!(0.01), 5.into(), 200.into()]);
        assert_eq!(values(&p[11]), [serde_json::json!(0.03), 5.into(), 200.into()]);
        assert_eq!(p[11].job.sim.rate(), 0.03);
        assert_eq!(p[11].job.sim.workload.size.max(), 2);
    }

    #[test]
    fn errors_name_key_line_and_a_suggestion() {
        let e = Sweep::from_toml("[workload]\nrat = 0.1\n").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("did you mean `rate`"), "{e}");
        let e = Sweep::from_toml("[topology]\nfamily = \"toru\"\n").unwrap_err().to_string();
        assert!(e.contains("did you mean `torus`"), "{e}");
        let s = Sweep::from_toml("[sweep]\n\"workload.rate\" = [0.1, 2.0]\n").unwrap();
        let e = s.points().unwrap_err().to_string();
        assert!(e.contains("sweep point 1 (workload.rate = 2.0)") && e.contains("line 2"), "{e}");
        let e = Sweep::from_toml("[sweep]\n\"worklod.rate\" = [0.1]\n").unwrap_err().to_string();
        assert!(e.contains("did you mean `workload`"), "{e}");
        let e = Sweep::from_toml("[run]\nmessages = 0\n").unwrap().points().unwrap_err().to_string();
        assert!(e.contains("run.messages = 0") && e.contains("line 2"), "{e}");
        let e = Sweep::from_toml("[[sweep.zip]]\na = [1]\nb = [1, 2]\n").unwrap_err().to_string();
        assert!(e.contains("equal lengths"), "{e}");
    }

    /// Verification of an experiment's identity: the same for the same experiment however it
    /// is written (a default written out, read twice), another for other rates, another run
    /// length, another topology or other replications; every point carries it and the count.
    #[test]
    fn the_identity_tells_experiments_apart() {
        let id = |text: &str| Sweep::from_toml(text).unwrap().identity().clone();
        let base = "[topology]\nfamily = \"torus\"\nk = 4\n[run]\nmessages = 300\n[sweep]\n";
        let a = id(&format!("{base}\"workload.rate\" = [0.01, 0.02]\n"));
        assert_eq!(a.points, 2);
        assert_eq!(a.experiment.len(), 16);
        assert_eq!(a, id(&format!("{base}\"workload.rate\" = [0.01, 0.02]\n")));
        let written = "[topology]\nfamily = \"torus\"\nk = 4\nn = 2\n[run]\nmessages = 300\n[sweep]\n";
        assert_eq!(a, id(&format!("{written}\"workload.rate\" = [0.01, 0.02]\n")));
        for other in [
            format!("{base}\"workload.rate\" = [0.01, 0.03]\n"),
            format!("{}\"workload.rate\" = [0.01, 0.02]\n", base.replace("300", "400")),
            format!("{}\"workload.rate\" = [0.01, 0.02]\n", base.replace("torus", "mesh")),
        ] {
            assert_ne!(a.experiment, id(&other).experiment, "{other}");
        }
        let twice = id(&format!("{base}replications = 2\n\"workload.rate\" = [0.01, 0.02]\n"));
        assert_ne!(a.experiment, twice.experiment);
        assert_eq!(twice.points, 4);
        let s = Sweep::from_toml(FILE).unwrap();
        assert!(s.points().unwrap().iter().all(|p| p.identity == *s.identity()));
    }

    #[test]
    fn a_result_reads_back_as_its_config() {
        let spec = Spec::default();
        let json = serde_json::json!({"netwrap_version": "0", "config": spec}).to_string();
        assert_eq!(Sweep::from_json(&json).unwrap().base(), &Spec::default());
    }

    /// A field swept twice is refused, however the two axes are written: quoted and dotted,
    /// an axis and a zip group, a section and a field within it.
    #[test]
    fn a_field_swept_twice_is_refused() {
        let base = "[topology]\nfamily = \"torus\"\n[sweep]\n\"workload.rate\" = [0.01, 0.02]\n";
        for (extra, says) in [
            ("workload.rate = [0.03]\n", "workload.rate is swept twice: sweep each field in one axis"),
            ("[[sweep.zip]]\n\"workload.rate\" = [0.03]\n", "workload.rate is swept twice"),
            (
                "workload = [{rate = 0.03}]\n",
                "workload.rate is swept twice: as a field and within the swept workload",
            ),
        ] {
            let e = Sweep::from_toml(&format!("{base}{extra}")).unwrap_err().to_string();
            assert!(e.contains(says), "{extra}: {e}");
        }
        assert!(Sweep::from_toml(&format!("{base}\"workload.size\" = [1, 2]\n")).is_ok());
        // A section whose values leave the field alone (as Puente et al.'s latency experiment
        // sweeps the workload and, zipped with the network, its load).
        assert!(Sweep::from_toml(&format!("{base}workload = [{{size = 1}}, {{size = 2}}]\n")).is_ok());
    }

    /// Every experiment file netwrap ships (the reproduce pages' and the examples) reads.
    #[test]
    fn every_shipped_experiment_reads() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut read = 0;
        for dir in [root.join("experiments"), root.join("../../examples"), root.join("../../docs/validation")]
        {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "toml") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    if let Err(e) = Sweep::from_toml(&text) {
                        panic!("{}: {e}", path.display());
                    }
                    read += 1;
                }
            }
        }
        assert!(read >= 20, "only {read} files");
    }

    /// Verification, by hand from the file's text: an error about a sweep axis gives the line
    /// the axis is written on (line numbers counted in the strings below), whatever kind of
    /// error it is: a scalar or empty axis, an unknown section, a value of the wrong type or
    /// an unknown field at one point, a topology that cannot be built.
    #[test]
    fn axis_errors_give_the_axis_line() {
        let head = "[topology]\nfamily = \"torus\"\nk = 8\n\n[sweep]\n";
        let cases = [
            ("\"workload.rate\" = 0.01\n", "an axis is a list of values", 6),
            ("\"workload.size\" = [2]\n\"workload.rate\" = []\n", "has no values", 7),
            ("\"workloads.rate\" = [0.01]\n", "did you mean `workload`", 6),
        ];
        for (sweep, says, line) in cases {
            let e = Sweep::from_toml(&format!("{head}{sweep}")).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(&format!("(line {line})")), "{e}");
        }
        let cases = [
            ("\"workload.size\" = [2, 4]\n\"workload.rate\" = [0.01, \"x\"]\n", "sweep point 1", 7),
            ("\"workload.rat\" = [0.01, 0.02]\n", "unknown field `rat`", 6),
            (
                "\"workload.size\" = [2]\n\"topology.k\" = [4, 1]\n",
                "sweep point 1 (workload.size = 2, topology.k = 1): topology.k = 1",
                7,
            ),
        ];
        for (sweep, says, line) in cases {
            let s = Sweep::from_toml(&format!("{head}{sweep}")).unwrap();
            let e = s.points().unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(&format!("(line {line})")), "{e}");
        }
    }

    /// Verification: a point's error names the file it was read from, once.
    #[test]
    fn point_errors_name_the_file() {
        let dir = std::env::temp_dir().join(format!("netwrap-sweep-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.toml");
        std::fs::write(&path, "[workload]\nsize = 2\n\n[sweep]\n\"workload.rate\" = [0.01, 2.0]\n").unwrap();
        let e = Sweep::read(&path).unwrap().points().unwrap_err().to_string();
        let file = path.display().to_string();
        assert!(e.starts_with(&format!("in {file}: sweep point 1 (workload.rate = 2.0): ")), "{e}");
        assert!(e.ends_with("(line 5)") && e.matches(&file).count() == 1, "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Verification against the command line's spelling (`netwrap sim torus --k 8 --n 2
    /// --bidirectional`): swept sections are named by family and options, never as JSON.
    #[test]
    fn swept_values_are_named_as_the_command_line_names_them() {
        let v = |t: &str| serde_json::from_str::<Value>(t).unwrap();
        assert_eq!(
            value_name(&v(r#"{"family":"torus","k":8,"n":2,"bidirectional":true}"#)),
            "torus k=8 n=2 bidirectional"
        );
        assert_eq!(value_name(&v(r#"{"family":"midimew","nodes":64}"#)), "midimew nodes=64");
        assert_eq!(value_name(&v(r#"{"family":"hyperx","sizes":[4,4],"p":2}"#)), "hyperx sizes=4,4 p=2");
        assert_eq!(value_name(&v(r#"{"pattern":"transpose","size":4}"#)), "pattern=transpose size=4");
        assert_eq!(value_name(&v(r#"{"family":"mesh","k":4,"wrap":false}"#)), "mesh k=4 wrap=false");
        assert_eq!(value_name(&v("0.25")), "0.25");
        for t in [
            r#"{"family":"torus","k":8,"n":2,"bidirectional":true}"#,
            r#"{"family":"mesh","k":4,"wrap":false}"#,
            r#"{"family":"hyperx","sizes":[4,4],"p":2}"#,
            r#"{"family":"circulant","nodes":64,"a":5,"b":6}"#,
        ] {
            assert_eq!(named_value(&value_name(&v(t))), v(t), "{t}");
        }
        assert_eq!(value_name(&v(r#""uniform""#)), "uniform");
    }
}
