//! Processors that wait and memories that reply: exact small cases, the memory's queue, the
//! replies' networks, and the homework's App. D against simulation.

use netwrap_engine::traffic::{MessageSize, Pattern};
use netwrap_engine::{Arrivals, Memories, Record, RunSpec, StopRule};
use netwrap_sim::{Router, SimSpec, Switching, VcParams, execute_on, simulate};
use netwrap_topo::{Network, TableRouted};

fn spec(toml: &str) -> SimSpec {
    toml::from_str(toml).unwrap()
}

/// Exactly the scripted accesses `script` (cycle, source, destination), each of `size` flits,
/// served by `memories`, run until they complete.
fn scripted(script: Vec<(u64, u32, u32)>, size: u32, memories: Memories) -> RunSpec {
    RunSpec {
        messages: script.len() as u64,
        arrivals: Arrivals::Script(script),
        memories: Some(memories),
        size: MessageSize::Fixed(size),
        warmup: 0,
        max_cycles: 10_000,
        seed: 1,
        stop: StopRule::drain(),
        record: Record::default(),
        paths: Default::default(),
        groups: None,
        channel_latency: Vec::new(),
    }
}

/// Processor utilisation, round trip (mean, max, min) and the window in cycles.
fn measure(s: &SimSpec) -> (f64, f64, u64, u64, f64) {
    let r = simulate(s).unwrap();
    let a = r.report.accesses.clone().expect("accesses measured");
    let p = a.round_trip_percentiles.unwrap();
    let min = r.outcome.accesses.as_ref().unwrap().round_trip.latency.iter().next().unwrap().0;
    let window = (r.report.cycles - r.report.warmup) as f64;
    (a.processor_utilization.unwrap_or(f64::NAN), a.round_trip, p.max, min, window)
}

fn ring(threads: u32, rate: f64, size: u32, memory: Option<u32>) -> SimSpec {
    let reply =
        memory.map_or(String::new(), |m| format!("[workload.reply]\nmemory-latency = {m}\nsize = 0\n"));
    spec(&format!(
        "[topology]\nfamily = \"ring\"\nk = 8\n[workload]\nrate = {rate}\nsize = {size}\npattern = \"neighbor\"\n[workload.processor]\nthreads = {threads}\ninterval = \"periodic\"\n{reply}[run]\nmessages = 4000\n"
    ))
}

/// Verification (exact, derived by hand): on an 8-node unidirectional ring under the
/// neighbour pattern every node's messages use its own channel alone, so an access of B flits
/// takes L = h + B = 1 + B cycles plus the memory's M (a memory serves one processor). With
/// periodic intervals X = 1/m, T threads and a one-cycle switch (T ≥ 2), the processor runs
/// T intervals per period: while T·(X + 1) ≤ X + L it waits for each thread, the period is
/// X + L and U = T·X / (X + L); beyond, it never waits and U = X / (X + 1). With one thread
/// U = X / (X + L), the homework's App. D 1/(1 + m·L). The window's edges cut at most one
/// period from each end, so U is within 2·(X + L) / window of the steady state.
#[test]
fn periodic_threads_on_uncontended_channels_reach_the_exact_utilisation() {
    let cases: [(u32, f64, u32, Option<u32>, f64, u64); 6] = [
        // threads, m, B, M, U exact, L exact
        (1, 0.1, 4, None, 10.0 / 15.0, 5),
        (1, 0.1, 4, Some(7), 10.0 / 22.0, 12),
        (1, 1.0, 1, Some(2), 1.0 / 5.0, 4),
        (2, 1.0, 1, Some(2), 2.0 / 5.0, 4),
        (3, 1.0, 1, Some(2), 1.0 / 2.0, 4),
        (4, 0.5, 1, None, 2.0 / 3.0, 2),
    ];
    for (threads, m, b, mem, u_exact, l) in cases {
        let (u, mean, max, min, window) = measure(&ring(threads, m, b, mem));
        assert_eq!((mean, max, min), (l as f64, l, l), "round trip, {threads} threads, B = {b}, M = {mem:?}");
        let period = 1.0 / m + l as f64;
        assert!(
            (u - u_exact).abs() <= 2.0 * period / window,
            "{threads} threads, m = {m}: U = {u}, exact {u_exact}, window {window}"
        );
    }
}

/// Verification (exact): a memory serves one access at a time, first come first served, each
/// for M cycles. Two 1-flit requests from node 0 to node 1 of the ring, created at cycles 0
/// and 1, reach the memory at 2 and 3 (one hop plus one flit); with M = 10 it serves them over
/// [2, 12) and [12, 22), and answers without a message: round trips 12 and 21. With a reply of
/// 3 flits instead, each reply crosses the other 7 channels of the ring: +7 + 3 cycles.
#[test]
fn a_memory_serves_one_access_at_a_time_in_arrival_order() {
    let net = netwrap_topo::KaryNCube::new(
        netwrap_topo::CubeSpec::ring(8, false),
        netwrap_topo::DimensionOrder::HighestFirst,
    )
    .unwrap();
    for (reply, trips) in [(0, [12, 21]), (3, [22, 31])] {
        let run = scripted(
            vec![(0, 0, 1), (1, 0, 1)],
            1,
            Memories { latency: 10, reply_size: reply, joined: false },
        );
        let o = execute_on(
            net.network(),
            &net,
            &Pattern::Uniform(8),
            &run,
            Router::Ideal(netwrap_sim::EngineKind::Fast),
        );
        let a = o.accesses.unwrap();
        let seen: Vec<u64> = a.round_trip.latency.iter().map(|(v, _)| v).collect();
        assert_eq!(seen, trips, "reply of {reply} flits");
        // Queueing at the memory: the second access waited 9 cycles (12 − 3).
        assert_eq!(a.round_trip.source_wait_sum, 9);
    }
}

/// Verification (exact, unloaded): replies on an indirect network travel on the network
/// reversed. On a 4-stage butterfly of 2×2 switches a request crosses 3 channels (h + B
/// cycles on the ideal switch), the memory takes M, the reply crosses the 3 reversed channels
/// back (h + B_reply): with B = 4, M = 5, B_reply = 2 every isolated access takes 7 + 5 + 5 =
/// 17 cycles, on the fast and the reference engines alike.
#[test]
fn replies_cross_an_indirect_network_reversed() {
    let bf = netwrap_topo::Indirect::new(2, 4, netwrap_topo::StageWiring::Butterfly).unwrap();
    let net: &Network = bf.network();
    let joined = TableRouted::joined(net.joined(&net.reversed())).unwrap();
    let pairs: Vec<(u64, u32, u32)> = (0..16).map(|i| (i as u64 * 40, i, (i * 7 + 3) % 16)).collect();
    for engine in [netwrap_sim::EngineKind::Fast, netwrap_sim::EngineKind::Reference] {
        let run = scripted(pairs.clone(), 4, Memories { latency: 5, reply_size: 2, joined: true });
        let o = execute_on(joined.network(), &joined, &Pattern::Uniform(16), &run, Router::Ideal(engine));
        let a = o.accesses.unwrap();
        assert_eq!(a.round_trip.delivered, 16);
        let seen: Vec<(u64, u64)> = a.round_trip.latency.iter().collect();
        assert_eq!(seen, vec![(17, 16)], "{engine:?}");
    }
}

/// Verification (exact, unloaded): on the virtual-channel router replies share the request
/// network in the upper half of the VCs. An isolated message of B flits over h channels takes
/// (h + 1)·r + h·l + B (the router's unloaded latency, `engine::vc`); on a 4×4 bidirectional
/// torus from node 0 to node 5 (h = 2 each way) with r = 1, l = 1, B = 4 and replies of 2
/// flits, M = 3: request 3 + 2 + 4 = 9, reply 3 + 2 + 2 = 7, round trip 19.
#[test]
fn replies_on_the_vc_router_take_their_own_virtual_channels() {
    let net = netwrap_topo::KaryNCube::new(
        netwrap_topo::CubeSpec { radices: vec![4, 4], wrap: true, bidirectional: true },
        netwrap_topo::DimensionOrder::HighestFirst,
    )
    .unwrap();
    let run =
        scripted(vec![(0, 0, 5), (100, 5, 0)], 4, Memories { latency: 3, reply_size: 2, joined: false });
    let p = VcParams {
        vcs: 2,
        buffer: 16,
        router_delay: 1,
        packet: 16,
        switching: Switching::Vct,
        ..VcParams::DEFAULT
    };
    let o = execute_on(net.network(), &net, &Pattern::Uniform(16), &run, Router::Vc(p));
    let a = o.accesses.unwrap();
    assert_eq!(a.round_trip.latency.iter().collect::<Vec<_>>(), vec![(19, 2)]);
}
