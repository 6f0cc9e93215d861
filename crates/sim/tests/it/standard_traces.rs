//! Standard traces replayed with their dependencies (`netwrap_sim::trace::netrace`, `dumpi`):
//! files written by the tests themselves (none can be downloaded), exact replays on idle
//! networks derived by hand (an unloaded message of h hops and B flits takes h + B cycles on
//! the ideal switch's unidirectional ring), the dependencies respected message by message on
//! loaded networks, the same result on any number of threads, and every kind of bad record
//! named with its position.

use netwrap_engine::deps::Node;
use netwrap_engine::rng::{Purpose, Stream, mix};
use netwrap_engine::trace::MessageLog;
use netwrap_engine::{Record, StopReason};
use netwrap_sim::trace::dumpi::{DumpiNodes, DumpiReader};
use netwrap_sim::trace::netrace::{self, Header, NetraceNodes, NetraceReader, Packet};
use netwrap_sim::{Experiment, SimResult, SimSpec};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A file of this test process's own.
fn path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("netwrap-std-{}-{name}", std::process::id()))
}

/// Writes a netrace trace of `nodes` nodes, bzip2-compressed if `bz2`.
fn netrace_file(name: &str, nodes: u8, packets: &[Packet], bz2: bool) -> PathBuf {
    let header = Header {
        benchmark: "netwrap-test".into(),
        nodes,
        cycles: packets.last().map_or(0, |p| p.cycle + 1),
        packets: packets.len() as u64,
        notes: "written by netwrap's tests".into(),
        regions: vec![(0, packets.last().map_or(0, |p| p.cycle + 1), packets.len() as u64)],
    };
    let mut bytes = Vec::new();
    netrace::write(&mut bytes, &header, packets).unwrap();
    if bz2 {
        use std::io::Write;
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        e.write_all(&bytes).unwrap();
        bytes = e.finish().unwrap();
    }
    let p = path(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn packet(cycle: u64, id: u32, kind: u8, src: u8, dst: u8, deps: &[u32]) -> Packet {
    Packet { cycle, id, addr: 0x1000 + id, kind, src, dst, node_types: 0x02, deps: deps.to_vec() }
}

fn spec(json: &str) -> SimSpec {
    serde_json::from_str(json).unwrap()
}

/// Runs `s` keeping every message's creation cycle and salt (the run's log) and its latency.
fn run_logged(s: &SimSpec) -> (SimResult, Vec<(u64, u32)>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let record = Record {
        messages: true,
        trace: Some(MessageLog::new(move |r| sink.lock().unwrap().push((r.cycle, r.salt.unwrap_or(0))))),
        ..Record::default()
    };
    let point = s.resolve().unwrap();
    let r = Experiment::build(&point).unwrap().run_with(&point, record).unwrap();
    let created = log.lock().unwrap().clone();
    (r, created)
}

fn latencies(r: &SimResult) -> Vec<u64> {
    r.outcome.messages.as_ref().unwrap().iter().map(|m| m.latency).collect()
}

/// *Verification* by hand, on the unidirectional ring of 8 nodes (netrace's nodes placed
/// linearly), 16 bytes a flit: packet 100, a ReadReq (8 bytes: 1 flit) 0 → 3 at cycle 0,
/// takes 3 + 1 = 4 cycles (delivered at 4); packet 101, a ReadResp (72 bytes: 5 flits) 3 → 0
/// recorded at cycle 2 and depending on 100, is created at max(2, 4) = 4 and takes 5 + 5 = 10
/// (delivered at 14); packet 102, a ReadReq 1 → 2 at 20, 1 + 1 = 2 (at 22); packet 103, a
/// WriteReq (5 flits) 2 → 5 at 30 depending on 101 and 102 (both delivered by then), is
/// created at its cycle, 30, and takes 3 + 5 = 8 (at 38): the run completes at 38. The same
/// file bzip2-compressed replays alike.
#[test]
fn a_netrace_trace_replays_by_hand() {
    let packets = example_packets();
    for bz2 in [false, true] {
        let file = netrace_file(if bz2 { "hand.tra.bz2" } else { "hand.tra" }, 8, &packets, bz2);
        let s = spec(&format!(
            r#"{{"topology": {{"family": "ring", "k": 8}}, "workload": {{"trace": {:?}}}}}"#,
            file.display().to_string()
        ));
        let (r, created) = run_logged(&s);
        let cycles: Vec<u64> = created.iter().map(|c| c.0).collect();
        assert_eq!(cycles, [0, 4, 20, 30], "bzip2: {bz2}");
        assert_eq!(latencies(&r), [4, 10, 2, 8], "bzip2: {bz2}");
        assert_eq!((r.outcome.end, r.report.completion, r.outcome.stop), (38, Some(38), StopReason::Drained));
        std::fs::remove_file(file).ok();
    }
}

/// `examples/netrace.tra`'s packets (docs/sim.md; [`a_netrace_trace_replays_by_hand`]).
fn example_packets() -> [Packet; 4] {
    [
        packet(0, 100, 1, 0, 3, &[101]),
        packet(2, 101, 2, 3, 0, &[103]),
        packet(20, 102, 1, 1, 2, &[103]),
        packet(30, 103, 4, 2, 5, &[]),
    ]
}

/// `examples/netrace.tra` holds [`example_packets`] as netrace's writer would, 8 nodes
/// (`NETWRAP_BLESS=1` writes it).
#[test]
fn the_example_netrace_trace_is_current() {
    let packets = example_packets();
    let header = Header {
        benchmark: "netwrap-example".into(),
        nodes: 8,
        cycles: 31,
        packets: 4,
        notes: "docs/sim.md: four packets, replayed by hand".into(),
        regions: vec![(0, 31, 4)],
    };
    let mut bytes = Vec::new();
    netrace::write(&mut bytes, &header, &packets).unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/netrace.tra");
    if std::env::var_os("NETWRAP_BLESS").is_some() {
        std::fs::write(&file, &bytes).unwrap();
    }
    assert_eq!(
        std::fs::read(&file).unwrap(),
        bytes,
        "examples/netrace.tra is stale: NETWRAP_BLESS=1 writes it"
    );
    let reader = NetraceReader::open(&file).unwrap();
    assert_eq!(reader.header, header);
}

/// *Verification* by hand of `examples/mpi.dumpi` (docs/sim.md) on the unidirectional ring of
/// 4 nodes, 16 bytes a flit: the token (64 bytes: 4 flits, 1 hop: 5 cycles) goes 0 → 1 at 0
/// (delivered at 5); rank 1 reaches its receive at its recorded 9 and sends a cycle later, at
/// 10 (delivered at 15); ranks 2 and 3 alike (sends at 20 and 30, delivered at 25 and 35); rank
/// 0 reaches its receive at 39, the token there since 35, and every rank sends 1 KiB (64
/// flits, 1 hop: 65 cycles) to its right at 40: delivered at 105, the completion.
#[test]
fn the_documented_mpi_dump() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/mpi.dumpi");
    let s = spec(&format!(
        r#"{{"topology": {{"family": "ring", "k": 4}}, "workload": {{"trace": {:?}}}}}"#,
        file.display().to_string()
    ));
    let (r, created) = run_logged(&s);
    let cycles: Vec<u64> = created.iter().map(|c| c.0).collect();
    assert_eq!(cycles, [0, 10, 20, 30, 40, 40, 40, 40]);
    assert_eq!(latencies(&r), [5, 5, 5, 5, 65, 65, 65, 65]);
    assert_eq!(r.report.completion, Some(105));
}

/// The salt a node of a trace gets in a run of `seed` (the dependency-driven source's draw for
/// a node without one), by which the run's log names the node each message is.
fn salt(seed: u64, node: u64) -> u32 {
    mix(seed ^ mix(node)) as u32
}

/// Every node of a graph, read by the library's own reader.
fn nodes_of(mut next: impl FnMut() -> Option<Node>) -> Vec<Node> {
    std::iter::from_fn(&mut next).collect()
}

/// For each message node of `nodes` (by node id), its creation and delivery cycles in run `r`,
/// found through the salts in the log.
fn times(nodes: &[Node], r: &SimResult, created: &[(u64, u32)], seed: u64) -> Vec<Option<(u64, u64)>> {
    let lat = latencies(r);
    let mut by_salt = std::collections::HashMap::new();
    for (i, &(cycle, s)) in created.iter().enumerate() {
        assert!(by_salt.insert(s, (cycle, cycle + lat[i])).is_none(), "two messages of one salt");
    }
    nodes.iter().map(|n| (n.size > 0).then(|| by_salt[&salt(seed, n.id)])).collect()
}

/// A random netrace trace of 16 nodes and `n` packets: every packet lists a few of the next
/// 40 as depending on it, and some list packets that do not come later (never met, as in
/// netrace).
fn random_netrace(n: u32, seed: u64) -> Vec<Packet> {
    let mut s = Stream::new(seed, 0, Purpose::Traffic);
    let kinds = [1u8, 2, 4, 5, 6, 13, 16, 27];
    let mut cycle = 0;
    (0..n)
        .map(|i| {
            cycle += s.below(4) as u64;
            let deps: Vec<u32> = (0..s.below(3)).map(|_| 1000 + i + 1 + s.below(40)).collect();
            let mut deps = deps;
            if s.below(10) == 0 {
                deps.push(1000 + i.saturating_sub(1));
            }
            let (src, dst) = (s.below(16) as u8, s.below(16) as u8);
            packet(cycle, 1000 + i, kinds[s.below(8) as usize], src, dst, &deps)
        })
        .collect()
}

/// *Verification* of netrace's rule on loaded networks (the issue's evidence): in a replay of
/// a random trace of 600 packets with up to two dependencies each, on the 4 × 4 torus (ideal
/// switch; and the 4 × 4 mesh, virtual-channel router), placed at random, every packet is created exactly
/// at max(its cycle, the last delivery of the packets it depends on) — so none before the
/// packets it depends on are delivered — the expected value computed from the run's own
/// deliveries by the rule, independently of the replay's code. The runs are loaded enough
/// that dependencies hold packets back (some are created after their cycle).
#[test]
fn a_netrace_replay_respects_every_dependency() {
    let packets = random_netrace(600, 3);
    let file = netrace_file("random.tra", 16, &packets, false);
    for (topology, router) in [
        (r#"{"family": "torus", "k": 4}"#, r#"{"kind": "ideal"}"#),
        (r#"{"family": "mesh", "k": 4}"#, r#"{"kind": "vc", "vcs": 2, "buffer": 4}"#),
    ] {
        let s = spec(&format!(
            r#"{{"topology": {topology}, "router": {router}, "workload": {{"trace": {:?}, "placement": "random", "flit-bytes": 4}}, "run": {{"seed": 9}}}}"#,
            file.display().to_string()
        ));
        let (r, created) = run_logged(&s);
        assert_eq!(r.report.completion, Some(r.outcome.end), "{router}");
        let mut reader = NetraceNodes::new(NetraceReader::open(&file).unwrap(), Vec::new(), 4);
        let nodes = nodes_of(|| reader.next_node().unwrap());
        let t = times(&nodes, &r, &created, 9);
        // Per packet id, the packets it depends on (those listing it, earlier in the file).
        let mut depends: std::collections::HashMap<u32, Vec<usize>> = Default::default();
        for (k, p) in packets.iter().enumerate() {
            for d in &p.deps {
                depends.entry(*d).or_default().push(k);
            }
        }
        let messages: Vec<&Node> = nodes.iter().filter(|n| n.size > 0).collect();
        let (mut held, mut dependent) = (0, 0);
        for (k, p) in packets.iter().enumerate() {
            let (at, _) = t[messages[k].id as usize].unwrap();
            let before: Vec<usize> =
                depends.get(&p.id).into_iter().flatten().copied().filter(|&j| j < k).collect();
            let last = before.iter().map(|&j| t[messages[j].id as usize].unwrap().1).max();
            assert_eq!(at, p.cycle.max(last.unwrap_or(0)), "{router}: packet {k}");
            dependent += last.is_some() as u32;
            held += last.is_some_and(|l| l > p.cycle) as u32;
        }
        assert!(dependent > 300 && held > 20, "{router}: {dependent} dependent, {held} held back");
    }
    std::fs::remove_file(file).ok();
}

/// A random dump of 12 ranks: rounds in which every rank sends to two others and receives
/// what it was sent, with compute between.
fn random_dump(rounds: u32, seed: u64) -> String {
    let mut s = Stream::new(seed, 1, Purpose::Traffic);
    let mut text = String::from("# time rank op peer bytes\n");
    let mut t = 0;
    for _ in 0..rounds {
        let mut recvs = Vec::new();
        for r in 0..12u32 {
            for _ in 0..2 {
                let peer = (r + 1 + s.below(11)) % 12;
                let bytes = 16 * (1 + s.below(20)) as u64;
                text += &format!("{t} {r} send {peer} {bytes}\n");
                recvs.push((peer, r, bytes));
            }
        }
        t += 5 + s.below(20) as u64;
        for (r, peer, bytes) in recvs {
            text += &format!("{t} {r} recv {peer} {bytes}\n");
            t += s.below(2) as u64;
        }
        t += s.below(10) as u64;
    }
    text
}

/// *Verification* of the dump's rule on a loaded network: every send is created exactly when
/// the documented rule says, computed from the run's own deliveries: before its rank's first
/// receive at its time; after it, its gap after the rank's last receive completed, a receive
/// completing at the later of the rank reaching it (its gap after the previous receive's
/// completion, or its time for the first) and its message's delivery (the oldest unreceived
/// send from that peer). So no send is created before the messages its rank received are
/// delivered.
#[test]
fn a_dump_replay_respects_every_receive() {
    let text = random_dump(40, 5);
    let file = path("random.dumpi");
    std::fs::write(&file, &text).unwrap();
    let s = spec(&format!(
        r#"{{"topology": {{"family": "torus", "k": 4}}, "workload": {{"trace": {:?}, "flit-bytes": 8}}, "run": {{"seed": 2}}}}"#,
        file.display().to_string()
    ));
    let (r, created) = run_logged(&s);
    let mut reader = DumpiNodes::new(DumpiReader::open(&file).unwrap(), Vec::new(), 8);
    let nodes = nodes_of(|| reader.next_node().unwrap());
    let t = times(&nodes, &r, &created, 2);
    let sends: Vec<u64> = nodes.iter().filter(|n| n.size > 0).map(|n| n.id).collect();
    // The rule, from the file and the deliveries.
    let mut sent: std::collections::HashMap<(u32, u32), std::collections::VecDeque<u64>> = Default::default();
    let mut rank: std::collections::HashMap<u32, (u64, u64)> = Default::default(); // (completion, recorded time)
    let (mut k, mut held) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (time, me, peer): (u64, u32, u32) =
            (f[0].parse().unwrap(), f[1].parse().unwrap(), f[3].parse().unwrap());
        let last = rank.get(&me).copied();
        let reach = last.map_or(time, |(done, at)| done + (time - at));
        if f[2] == "send" {
            let (at, _) = t[sends[k] as usize].unwrap();
            assert_eq!(at, reach, "line {line:?}");
            held += (at > time) as u32;
            sent.entry((me, peer)).or_default().push_back(sends[k]);
            k += 1;
        } else {
            let m = sent.get_mut(&(peer, me)).unwrap().pop_front().unwrap();
            let delivered = t[m as usize].unwrap().1;
            rank.insert(me, (reach.max(delivered), time));
        }
    }
    assert_eq!(k, sends.len());
    assert!(held > 100, "{held} sends held back by their receives");
    assert_eq!(r.report.completion, Some(r.outcome.end));
    std::fs::remove_file(file).ok();
}

/// *Verification*: a netrace replay and a dump's give the same result, to the bit, on 1 to 4
/// threads.
#[test]
fn standard_traces_give_the_same_result_on_any_number_of_threads() {
    let tra = netrace_file("threads.tra", 16, &random_netrace(300, 4), true);
    let dump = path("threads.dumpi");
    std::fs::write(&dump, random_dump(10, 6)).unwrap();
    let cases = [
        format!(
            r#"{{"topology": {{"family": "torus", "k": 4}}, "workload": {{"trace": {:?}, "placement": "random"}}}}"#,
            tra.display().to_string()
        ),
        format!(
            r#"{{"topology": {{"family": "mesh", "k": 4}}, "router": {{"kind": "vc", "vcs": 2, "buffer": 4}}, "workload": {{"trace": {:?}, "placement": "block"}}}}"#,
            dump.display().to_string()
        ),
    ];
    crate::families::same_on_any_number_of_threads(cases.iter().map(|c| (c.clone(), spec(c))).collect());
    std::fs::remove_file(tra).ok();
    std::fs::remove_file(dump).ok();
}

/// The error a spec with `workload.trace` = `file` meets (resolving or building).
fn trace_error(file: &Path, extra: &str) -> String {
    let s = spec(&format!(
        r#"{{"topology": {{"family": "ring", "k": 8}}, "workload": {{"trace": {:?}{extra}}}}}"#,
        file.display().to_string()
    ));
    match s.resolve().and_then(|p| Experiment::build(&p).map(|_| ())) {
        Err(e) => e.to_string(),
        Ok(()) => panic!("{} was accepted", file.display()),
    }
}

/// *Characterisation*: every kind of bad netrace file is refused before the run with the
/// packet's number and byte offset (or the header's) and what is wrong.
#[test]
fn bad_netrace_files_name_the_packet() {
    let good = [packet(0, 1, 1, 0, 3, &[2]), packet(5, 2, 2, 3, 0, &[])];
    let mut bytes = Vec::new();
    netrace::write(&mut bytes, &Header { nodes: 8, ..Header::default() }, &good).unwrap();
    // The header is 72 bytes; the first packet 21 + 4.
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            {
                let mut b = bytes.clone();
                b[0] = 0;
                b
            },
            "header (byte 0): magic number 0x484a5400, not netrace's 0x484a5455",
        ),
        (
            {
                let mut b = bytes.clone();
                b[4..8].copy_from_slice(&2.0f32.to_le_bytes());
                b
            },
            "header (byte 4): version 2",
        ),
        (bytes[..50].to_vec(), "the file ends within the header (50 of its 72 bytes)"),
        (bytes[..100].to_vec(), "packet 1 (byte 97): the file ends within the packet (3 of its 21 bytes)"),
        (
            bytes[..95].to_vec(),
            "packet 0 (byte 72): the file ends within the packet's 1 dependencies (2 of their 4 bytes)",
        ),
        (
            {
                let mut b = bytes.clone();
                b[72 + 16] = 7;
                b
            },
            "packet 0 (byte 72): type = 7: not a packet type",
        ),
        (
            {
                let mut b = bytes.clone();
                b[97 + 18] = 8;
                b
            },
            "packet 1 (byte 97): destination = 8: the header gives 8 nodes, 0 to 7",
        ),
        (
            {
                let mut b = bytes.clone();
                b[72..80].copy_from_slice(&9u64.to_le_bytes());
                b
            },
            "packet 1 (byte 97): cycle = 5 is before the previous packet's cycle 9",
        ),
    ];
    for (b, fragment) in cases {
        let file = path("bad.tra");
        std::fs::write(&file, &b).unwrap();
        let e = trace_error(&file, "");
        assert!(e.contains(fragment) && e.ends_with("(--trace)"), "{fragment}: {e}");
    }
    let mut big = Vec::new();
    netrace::write(&mut big, &Header { nodes: 16, ..Header::default() }, &good).unwrap();
    let file = path("big.tra");
    std::fs::write(&file, &big).unwrap();
    let e = trace_error(&file, "");
    assert!(e.contains("has 16 ranks, and the 8-ary 1-cube"), "{e}");
}

/// *Characterisation*: every kind of bad line of a dump is refused before the run with its
/// line number and field.
#[test]
fn bad_dumps_name_the_line() {
    for (text, fragment) in [
        ("0 0 send 1\n", "line 1: 4 fields: a line is `time rank op peer bytes`"),
        ("# c\n\n0 0 send 1 -4\n", "line 3: bytes = \"-4\" is negative"),
        ("0 0 send 1 4\nsoon 1 recv 0 4\n", "line 2: time = \"soon\" is not a whole number"),
        ("0 0 wait 1 4\n", "line 1: op = \"wait\": an event is a send or a recv"),
        ("5 0 send 1 4\n3 1 recv 0 4\n", "line 2: time = 3 is before the previous event's time 5"),
        ("0 0 send 1 4\n3 1 recv 2 4\n", "line 2: rank 1 receives from rank 2, and no earlier line sends"),
        ("0 0 send 1 4\n3 1 recv 0 4\n4 1 recv 0 4\n", "line 3: rank 1 receives from rank 0"),
        (
            "time rank op peer bytes\n0 0 send 99999999 4\n",
            "line 2: peer = 99999999: ranks are 0 to 16777215",
        ),
        ("0 0 send 8 4\n", "the trace"),
        ("# nothing\n", "no messages in it"),
    ] {
        let file = path("bad.dumpi");
        std::fs::write(&file, text).unwrap();
        let e = trace_error(&file, "");
        assert!(e.contains(fragment), "{text:?}: {e}");
    }
    let file = path("ok.dumpi");
    std::fs::write(&file, "0 0 send 1 4\n").unwrap();
    for (extra, fragment) in [
        (r#", "flit-bytes": 0"#, "workload.flit-bytes = 0"),
        (r#", "placement": "file""#, "workload.placement = file reads the ranks' nodes"),
        (
            r#", "trace-format": "csv", "flit-bytes": 4"#,
            "workload.flit-bytes does not apply with workload.trace-format = csv",
        ),
    ] {
        let e = trace_error(&file, extra);
        assert!(e.contains(fragment), "{extra}: {e}");
    }
}
